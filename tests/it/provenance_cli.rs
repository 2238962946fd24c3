#![cfg(unix)]
//! Provenance is fixed when the binary is built: `bench` runs no `git` (nor
//! anything else from the source tree), records the revision the build
//! script found, and the SHA-256 of the binary itself.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command as Process;

use common::{binary, read_json, repo_path};
use sha2::{Digest, Sha256};

/// The commit the test's source tree is at, when it is a git checkout (as
/// the real `git` says).
fn head_commit() -> Option<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !manifest.join(".git").exists() {
        return None;
    }
    let out = Process::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(manifest)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap().trim().to_string())
}

#[test]
fn bench_starts_no_git_and_records_the_build_and_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    // A `git` first on PATH that fails loudly: it leaves a marker file.
    let fake = dir.path().join("bin");
    std::fs::create_dir(&fake).unwrap();
    let marker = dir.path().join("git-was-run");
    let script = fake.join("git");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"git $*\" >> '{}'\necho 'git must not run' >&2\nexit 1\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        fake.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The fake is what a `git` on this PATH runs.
    let probe = Process::new("sh")
        .args(["-c", "git --version"])
        .env("PATH", &path)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!probe.success() && marker.exists());
    std::fs::remove_file(&marker).unwrap();

    let out = dir.path().join("run");
    let output = Process::new(binary())
        .args(["bench", "-q", "--solvers", "dlx,singles", "--out"])
        .arg(&out)
        .arg(repo_path("datasets/generated/gen_6x6_100.txt"))
        .env("PATH", &path)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !marker.exists(),
        "bench ran git: {}",
        std::fs::read_to_string(&marker).unwrap()
    );

    let run = read_json(&out.join("run.json"));
    match head_commit() {
        // Built from this checkout: its commit, as the build found it
        // (after a tag's name, with `-dirty` when the tree differed).
        Some(head) => {
            let revision = run["git_revision"].as_str().expect("a revision");
            let commit = revision.trim_end_matches("-dirty");
            assert!(commit.ends_with(&head), "{revision} is not {head}");
        }
        None => assert!(run["git_revision"].is_null(), "{}", run["git_revision"]),
    }
    let bytes = std::fs::read(binary()).unwrap();
    let hash: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(run["binary_sha256"], hash.as_str());
}
