//! Records, for `run.json`, the compiler version and the git revision of
//! the source tree the binary is built from (nothing is looked up when the
//! binary runs).
//!
//! Every path this asks cargo to watch costs a rebuild when it changes:
//! the script reruns, the library recompiles and the release binary is
//! linked again with fat LTO (minutes). So it watches only paths that
//! exist (cargo takes a missing one as changed, on every build) and that
//! change only when the revision or the dirty flag may: HEAD, the branch's
//! ref where git keeps it, and the files the binary is built from. Not the
//! index, which `git status` and `git add` rewrite without changing either.
//! `tests/it/provenance_cli.rs` builds a package with this script twice,
//! with loose and with packed refs, and checks the second build compiles
//! nothing.
use std::path::{Path, PathBuf};
use std::process::Command;

/// The files the binary is built from: the dirty flag says whether they
/// differ from the commit (an edit of the docs or the tests does not make
/// the binary another one). The two corpora the library embeds
/// (`include_bytes!`) are part of it.
const SOURCES: [&str; 6] = [
    "src",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "datasets/generated/gen_9x9_1000.txt",
    "datasets/generated/hanidoku/gen_hanidoku_100.txt",
];

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=DLXBENCH_RUSTC_VERSION={version}");
    // Empty: not built from a git checkout (or without git).
    let revision = git_revision().unwrap_or_default();
    println!("cargo:rustc-env=DLXBENCH_GIT_REVISION={revision}");
    // Without a rerun-if line cargo would rerun this on any change in the
    // package (docs, tests).
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}

/// `git` run in the package's directory; its output when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    // The package's directory as cargo gives it to this run, not as it was
    // when the script was compiled (`env!`): a target directory shared by
    // two checkouts, or a moved checkout, reuses the compiled script, which
    // would otherwise read the other checkout's revision.
    // Optional locks off: reading must not rewrite the index.
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(manifest_dir())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim_end().to_string();
    out.status.success().then_some(text)
}

/// The package's directory (the `CARGO_MANIFEST_DIR` cargo sets for the run).
fn manifest_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
}

/// The path of git's file `name` (`HEAD`, `refs/heads/main`,
/// `packed-refs`): worktrees keep HEAD apart from the shared refs, and
/// `--git-path` says where each is.
fn git_path(manifest: &Path, name: &str) -> Option<PathBuf> {
    Some(manifest.join(git(&["rev-parse", "--git-path", name])?))
}

/// Asks cargo to rerun this when `path` changes.
fn watch(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}

/// The commit checked out (`git rev-parse HEAD`), with `-dirty` when the
/// files of [`SOURCES`] differ from it (changed, staged or new), when the
/// package's directory is the top of a git checkout (not a package
/// unpacked inside another repository). Asks cargo to rerun this when HEAD
/// moves (a checkout, a commit) or those files change.
fn git_revision() -> Option<String> {
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    let manifest_dir = manifest_dir();
    let manifest = manifest_dir.as_path();
    if top.canonicalize().ok()? != manifest.canonicalize().ok()? {
        return None;
    }
    watch(&git_path(manifest, "HEAD")?);
    // On a branch, a commit moves the branch's ref, not HEAD: a loose file,
    // or a line of packed-refs once packed (`git gc`, `git pack-refs`). A
    // commit on a packed branch writes the loose file: its directory (the
    // nearest that exists) is watched for it.
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]).filter(|b| !b.is_empty()) {
        let loose = git_path(manifest, &branch)?;
        if loose.is_file() {
            watch(&loose);
        } else {
            let packed = git_path(manifest, "packed-refs")?;
            if packed.is_file() {
                watch(&packed);
            }
            if let Some(dir) = loose.ancestors().skip(1).find(|d| d.is_dir()) {
                watch(dir);
            }
        }
    }
    for source in SOURCES {
        if manifest.join(source).exists() {
            println!("cargo:rerun-if-changed={source}");
        }
    }
    let commit = git(&["rev-parse", "--verify", "HEAD"])?;
    let mut status = vec!["status", "--porcelain", "--"];
    status.extend(SOURCES);
    let dirty = if git(&status)?.is_empty() {
        ""
    } else {
        "-dirty"
    };
    Some(format!("{commit}{dirty}"))
}
