//! Records, for `run.json`, the compiler version and the git revision of
//! the source tree the binary is built from (nothing is looked up when the
//! binary runs).
use std::path::{Path, PathBuf};
use std::process::Command;

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
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}

/// `git` run in the package's directory; its output when it succeeds.
fn git(args: &[&str]) -> Option<String> {
    // Optional locks off: reading must not rewrite the index (which would
    // make cargo run this again).
    let out = Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// The revision (`git describe --always --dirty --abbrev=40`: the commit,
/// with `-dirty` when the tree differed from it) when the package's
/// directory is the top of a git checkout (not a package unpacked inside
/// another repository). Asks cargo to run this again when HEAD, the branch
/// it points to, the index or the sources of the binary change, so that
/// the value follows commits, checkouts and edits.
fn git_revision() -> Option<String> {
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if top.canonicalize().ok()? != manifest.canonicalize().ok()? {
        return None;
    }
    // Worktrees keep HEAD and the index apart from the shared refs:
    // `--git-path` says where each is.
    let mut watched = vec![
        "HEAD".to_string(),
        "index".to_string(),
        "packed-refs".to_string(),
    ];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = manifest.join(path);
            // A file that does not exist yet (no packed refs) is watched
            // all the same: cargo reruns when it appears.
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    for source in ["src", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={source}");
    }
    git(&["describe", "--always", "--dirty", "--abbrev=40"])
}
