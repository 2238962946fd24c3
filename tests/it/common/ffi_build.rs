//! Builds `libdlxbench.so` (the workspace's `dlxbench-ffi` crate) for the
//! test or bench that includes this file (with `#[path]`), in the same
//! target directory and profile as the running executable, and returns its
//! path. Cargo runs once per process; it has nothing to do when the library
//! is up to date.
//!
//! Under `cargo test`, cargo is asked for the running test target too (up
//! to date: it is running).
//! Asked for `dlxbench-ffi` alone, it would resolve the shared dependencies
//! without the dev-dependencies' features (serde's `alloc`, ...) and build
//! them and the whole `dlxbench` library a second time (about 100 s of the
//! test run on 2 cores); with the running target selected, the features
//! are the ones the running binary was built with, and only the small
//! `dlxbench-ffi` crate compiles.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The target directory and the profile directory (`debug`, `release`, ...)
/// of the running executable, `<target>/<profile>/deps/<name>-<hash>`.
fn target_and_profile() -> (PathBuf, String) {
    let exe = std::env::current_exe().expect("the test executable's path");
    let deps = exe.parent().expect("in a deps directory");
    let profile_dir = deps.parent().expect("in a profile directory");
    let target = profile_dir.parent().expect("in a target directory");
    let profile = profile_dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    (target.to_path_buf(), profile)
}

/// The Cargo profile whose output is in `dir`: `cargo test` builds in
/// `debug` with the `test` profile (opt-level 2 here), `--release` and
/// `cargo bench` in `release`, a custom profile in its own name.
fn profile_for(dir: &str) -> &str {
    match dir {
        "debug" => "test",
        other => other,
    }
}

/// The running target, when this file is compiled into the integration
/// tests (a test harness: `cfg(test)`). Not for `benches/ffi.rs` (no
/// harness): `cargo bench` builds it in the `bench` profile, which this
/// file cannot tell from `release`, and asked for it in the wrong one
/// cargo would build it again with fat LTO.
const RUNNING: &[&str] = if cfg!(test) { &["--test", "it"] } else { &[] };

/// Builds the library (once per process) and returns its path.
pub fn libdlxbench() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let (target, dir) = target_and_profile();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "dlxbench-ffi"])
            .args(["-p", "dlxbench", "--lib"])
            .args(RUNNING)
            .arg("--profile")
            .arg(profile_for(&dir))
            .arg("--manifest-path")
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target)
            .status()
            .expect("running cargo");
        assert!(status.success(), "cargo build -p dlxbench-ffi: {status}");
        let lib = target.join(&dir).join("libdlxbench.so");
        assert!(lib.is_file(), "{} was not built", lib.display());
        lib
    })
}
