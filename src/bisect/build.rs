//! Each probed commit's shared library, built once: in a git worktree of
//! the commit, by cargo (`libdlxbench.so` of the `dlxbench-ffi` crate) or
//! by a command of the user's, and kept in a cache by commit.
//!
//! The cache (`--cache DIR`) holds `libs/<recipe>/<sha>.so`, one library
//! per recipe and commit; cargo's builds share one target directory per
//! profile (`target-<profile>/`), so the dependencies compile once for
//! every commit; worktrees live under `worktrees/` while a build runs. A
//! build that fails is not cached (its log is kept beside the libraries,
//! `<sha>.log`): the next run tries again.
//!
//! Two bisects may share a cache at once: a build holds the lock of its
//! recipe's folder ([`DirLock`] on `libs/<recipe>/`) from the check of the
//! cache to the library's copy into it, so the other waits. Without it, one
//! bisect could copy the library the other's build of another commit had
//! just written into the shared target directory, under its own commit's
//! name, and both would use one worktree path when they build one commit.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::str::FromStr;

use sha2::{Digest, Sha256};

use super::git::{Commit, Repo};
use super::BisectError;
use crate::dirlock::{DirLock, LockError};

/// How often a build waiting for another's lock of the cache tries again.
const LOCK_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// How cargo builds each commit's `libdlxbench.so`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// `--release` without link-time optimisation, 16 codegen units
    /// (`CARGO_PROFILE_RELEASE_LTO=false`,
    /// `CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16`, which override the
    /// commit's `Cargo.toml`): minutes less per commit than a fat-LTO
    /// link; node counts are the same, times are those of a build that
    /// does not ship.
    #[default]
    Fast,
    /// `--release` as the commit's `Cargo.toml` says (fat LTO here): the
    /// build that ships, and the slowest to make.
    Release,
}

impl Profile {
    /// The name on the command line (`fast`, `release`).
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Fast => "fast",
            Profile::Release => "release",
        }
    }
}

impl FromStr for Profile {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "fast" => Ok(Profile::Fast),
            "release" => Ok(Profile::Release),
            _ => Err(format!("`{text}`: expected `fast` or `release`")),
        }
    }
}

/// How a commit's library is made, in its worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recipe {
    /// `cargo build --release -p dlxbench-ffi --locked` in this profile.
    Cargo(Profile),
    /// A shell command (`sh -c`), run in the worktree with the
    /// environment variables `DLXBENCH_BISECT_OUT` (the path of the
    /// library to write) and `DLXBENCH_BISECT_COMMIT` (the commit's full
    /// name): built when it exits 0 and the file is there.
    Command(String),
}

impl Recipe {
    /// The cache's folder for this recipe: `cargo-fast`, `cargo-release`,
    /// or `cmd-` and the start of the command's SHA-256.
    pub fn key(&self) -> String {
        match self {
            Recipe::Cargo(profile) => format!("cargo-{}", profile.as_str()),
            Recipe::Command(command) => {
                let digest = Sha256::digest(command.as_bytes());
                let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
                format!("cmd-{hex}")
            }
        }
    }
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recipe::Cargo(Profile::Fast) => {
                write!(
                    f,
                    "cargo build --release -p dlxbench-ffi (no LTO, 16 codegen units)"
                )
            }
            Recipe::Cargo(Profile::Release) => write!(f, "cargo build --release -p dlxbench-ffi"),
            Recipe::Command(command) => write!(f, "{command}"),
        }
    }
}

/// The lock of the cache's folder `dir`, waited for while another
/// process (another bisect on the same cache) holds it.
fn lock_waiting(dir: &Path) -> Result<DirLock, BisectError> {
    loop {
        match DirLock::acquire(dir) {
            Ok(lock) => return Ok(lock),
            Err(LockError::Held { .. }) => std::thread::sleep(LOCK_POLL),
            Err(LockError::Io { path, source }) => {
                return Err(BisectError::Io {
                    what: format!("cannot lock {}", path.display()),
                    source,
                })
            }
        }
    }
}

/// What building a commit gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Built {
    /// The library, in the cache; `cached` when it was there already.
    Library {
        /// Its path.
        path: PathBuf,
        /// Whether this run found it built.
        cached: bool,
    },
    /// The commit does not build (as `git bisect run`'s exit 125: skipped).
    Failed {
        /// What the build printed.
        log: PathBuf,
        /// Why, in a few words (the exit status).
        reason: String,
    },
}

/// Builds commits of a repository into a cache.
#[derive(Debug, Clone)]
pub struct Builder {
    repo: Repo,
    cache: PathBuf,
    recipe: Recipe,
}

impl Builder {
    /// Builds commits of `repo` with `recipe`, keeping them in `cache`.
    pub fn new(repo: Repo, cache: &Path, recipe: Recipe) -> Builder {
        Builder {
            repo,
            cache: cache.to_path_buf(),
            recipe,
        }
    }

    /// The recipe.
    pub fn recipe(&self) -> &Recipe {
        &self.recipe
    }

    /// Where `commit`'s library is kept.
    pub fn library_path(&self, commit: &Commit) -> PathBuf {
        let name = format!("{}{}", commit.sha, std::env::consts::DLL_SUFFIX);
        self.cache.join("libs").join(self.recipe.key()).join(name)
    }

    /// `commit`'s library: from the cache, or built in a worktree of the
    /// commit (removed afterwards) and put there.
    pub fn build(&self, commit: &Commit) -> Result<Built, BisectError> {
        let path = self.library_path(commit);
        if path.is_file() {
            return Ok(Built::Library { path, cached: true });
        }
        let dir = path.parent().unwrap_or(&self.cache).to_path_buf();
        let io = |what: &str, p: &Path, e: std::io::Error| BisectError::Io {
            what: format!("{what} {}", p.display()),
            source: e,
        };
        fs::create_dir_all(&dir).map_err(|e| io("cannot create", &dir, e))?;
        let _lock = lock_waiting(&dir)?;
        // Another bisect may have built it while this one waited.
        if path.is_file() {
            return Ok(Built::Library { path, cached: true });
        }
        let tree = self.cache.join("worktrees").join(&commit.sha);
        self.repo.add_worktree(&tree, commit)?;
        let log = dir.join(format!("{}.log", commit.sha));
        let partial = dir.join(format!(
            "{}.partial{}",
            commit.sha,
            std::env::consts::DLL_SUFFIX
        ));
        let _ = fs::remove_file(&partial);
        let outcome = self.run_recipe(&tree, commit, &log, &partial);
        self.repo.remove_worktree(&tree);
        let reason = match outcome {
            Ok(None) if partial.is_file() => {
                fs::rename(&partial, &path)
                    .map_err(|e| io("cannot move the library to", &path, e))?;
                return Ok(Built::Library {
                    path,
                    cached: false,
                });
            }
            Ok(None) => "the build wrote no library".to_string(),
            Ok(Some(reason)) => reason,
            Err(e) => return Err(e),
        };
        let _ = fs::remove_file(&partial);
        Ok(Built::Failed { log, reason })
    }

    /// Runs the recipe in `tree`, its output to `log`; the library ends
    /// at `out`. `Some(reason)` when it failed.
    fn run_recipe(
        &self,
        tree: &Path,
        commit: &Commit,
        log: &Path,
        out: &Path,
    ) -> Result<Option<String>, BisectError> {
        let file = fs::File::create(log).map_err(|e| BisectError::Io {
            what: format!("cannot create {}", log.display()),
            source: e,
        })?;
        let err = file.try_clone().map_err(|e| BisectError::Io {
            what: format!("cannot write {}", log.display()),
            source: e,
        })?;
        let mut command = match &self.recipe {
            Recipe::Cargo(profile) => self.cargo(tree, *profile),
            Recipe::Command(text) => {
                let mut c = Command::new("sh");
                c.arg("-c").arg(text);
                c
            }
        };
        command
            .current_dir(tree)
            .env("DLXBENCH_BISECT_OUT", out)
            .env("DLXBENCH_BISECT_COMMIT", &commit.sha)
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err);
        let status = command.status().map_err(|e| BisectError::Io {
            what: format!("cannot run the build of {}", commit.short),
            source: e,
        })?;
        if !status.success() {
            return Ok(Some(format!("the build failed ({status})")));
        }
        if let Recipe::Cargo(profile) = &self.recipe {
            let name = format!(
                "{}dlxbench{}",
                std::env::consts::DLL_PREFIX,
                std::env::consts::DLL_SUFFIX
            );
            let built = self.target_dir(*profile).join("release").join(name);
            if fs::copy(&built, out).is_err() {
                return Ok(Some(format!("the build made no {}", built.display())));
            }
        }
        Ok(None)
    }

    /// The target directory cargo's builds in `profile` share.
    fn target_dir(&self, profile: Profile) -> PathBuf {
        self.cache.join(format!("target-{}", profile.as_str()))
    }

    /// `cargo build --release -p dlxbench-ffi --locked` of the worktree
    /// `tree`, into the shared target directory.
    fn cargo(&self, tree: &Path, profile: Profile) -> Command {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut c = Command::new(cargo);
        c.args([
            "build",
            "--release",
            "--locked",
            "-p",
            "dlxbench-ffi",
            "--manifest-path",
        ])
        .arg(tree.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(self.target_dir(profile));
        if profile == Profile::Fast {
            c.env("CARGO_PROFILE_RELEASE_LTO", "false")
                .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16");
        }
        c
    }
}
