#![cfg(unix)]
//! Provenance is fixed when the binary is built: `bench` runs no `git` (nor
//! anything else from the source tree), records the revision the build
//! script found, and the SHA-256 of the binary itself. The build script
//! asks for no rebuild that nothing called for: a second build compiles
//! nothing, with loose or packed refs, after `git status` or `git add`.

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
        // (with `-dirty` when the sources differed).
        Some(head) => {
            let revision = run["git_revision"].as_str().expect("a revision");
            let commit = revision.trim_end_matches("-dirty");
            assert_eq!(commit, head, "{revision} is not {head}");
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

/// `git ARGS` in `dir`, which must succeed; its standard output.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Process::new("git")
        .args([
            "-c",
            "user.name=dlxbench tests",
            "-c",
            "user.email=tests@dlxbench",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A package built by this repository's `build.rs` in a checkout of its
/// own: `probe` prints the revision the script recorded. Tiny, so that a
/// build takes seconds where dlxbench's release build takes minutes; what
/// cargo rebuilds depends on the script's rerun-if lines alone.
struct Probe {
    checkout: std::path::PathBuf,
    target: std::path::PathBuf,
}

impl Probe {
    /// `cargo build --release` of the probe; whether it compiled anything
    /// (cargo says `Compiling` for each package it builds).
    fn build(&self) -> bool {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Process::new(cargo)
            .args(["build", "--release", "--offline", "--target-dir"])
            .arg(&self.target)
            .current_dir(&self.checkout)
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        stderr.contains("Compiling probe")
    }

    /// The revision the last build recorded.
    fn revision(&self) -> String {
        let out = Process::new(self.target.join("release/probe"))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }

    fn git(&self, args: &[&str]) -> String {
        git(&self.checkout, args)
    }
}

/// A git checkout at `dir/name` of a package with this repository's
/// `build.rs`, committed.
fn probe(dir: &Path, name: &str) -> Probe {
    let checkout = dir.join(name);
    std::fs::create_dir_all(checkout.join("src")).unwrap();
    std::fs::write(
        checkout.join("Cargo.toml"),
        "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::copy(repo_path("build.rs"), checkout.join("build.rs")).unwrap();
    std::fs::write(
        checkout.join("src/main.rs"),
        "fn main() {\n    println!(\"{}\", env!(\"DLXBENCH_GIT_REVISION\"));\n}\n",
    )
    .unwrap();
    std::fs::write(checkout.join("README.md"), "not a source\n").unwrap();
    // A corpus the library embeds (include_bytes!): part of the binary.
    let generated = checkout.join("datasets/generated");
    std::fs::create_dir_all(&generated).unwrap();
    std::fs::write(generated.join("gen_9x9_1000.txt"), "embedded\n").unwrap();
    // The lock file of a package without dependencies (what cargo writes).
    std::fs::write(
        checkout.join("Cargo.lock"),
        "# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = \"probe\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    git(&checkout, &["init", "-q", "-b", "main"]);
    git(&checkout, &["add", "-A"]);
    git(&checkout, &["commit", "-q", "-m", "probe"]);
    Probe {
        target: dir.join(format!("{name}-target")),
        checkout,
    }
}

#[test]
fn a_second_build_compiles_nothing_with_loose_or_packed_refs() {
    let dir = tempfile::tempdir().unwrap();
    let loose = probe(dir.path(), "loose");
    let packed_refs = loose.checkout.join(".git/packed-refs");
    assert!(!packed_refs.exists(), "a fresh repository packs no refs");
    let packed = probe(dir.path(), "packed");
    packed.git(&["pack-refs", "--all"]);
    assert!(!packed.checkout.join(".git/refs/heads/main").exists());

    for p in [&loose, &packed] {
        let at = p.checkout.display().to_string();
        assert!(p.build(), "{at}: the first build compiles");
        assert_eq!(p.revision(), p.git(&["rev-parse", "HEAD"]), "{at}");
        assert!(!p.build(), "{at}: nothing changed, yet it compiled");
        // git status rewrites the index when a file's stat changed.
        std::fs::write(p.checkout.join("README.md"), "not a source\n").unwrap();
        p.git(&["status"]);
        p.git(&["add", "-A"]);
        assert!(!p.build(), "{at}: compiled after git status and git add");
        // An edit outside the sources does not make the binary another.
        std::fs::write(p.checkout.join("README.md"), "edited\n").unwrap();
        assert!(!p.build(), "{at}: compiled after an edit of README.md");
        p.git(&["commit", "-q", "-am", "docs"]);
        let head = p.git(&["rev-parse", "HEAD"]);
        assert!(p.build(), "{at}: a commit must reach the revision");
        assert_eq!(p.revision(), head, "{at}");
        assert!(!p.build(), "{at}: compiled twice after a commit");
        // An edit of a source: dirty; undone: clean again.
        let main = p.checkout.join("src/main.rs");
        let text = std::fs::read_to_string(&main).unwrap();
        std::fs::write(&main, format!("{text}// edited\n")).unwrap();
        assert!(p.build(), "{at}");
        assert_eq!(p.revision(), format!("{head}-dirty"), "{at}");
        std::fs::write(&main, &text).unwrap();
        assert!(p.build(), "{at}");
        assert_eq!(p.revision(), head, "{at}");
        assert!(!p.build(), "{at}");
    }
    // Refs packed after a build: one rebuild (the loose file the script
    // watched is gone), then none.
    loose.git(&["pack-refs", "--all"]);
    loose.build();
    assert!(!loose.build(), "compiled twice after git pack-refs");
    assert_eq!(loose.revision(), loose.git(&["rev-parse", "HEAD"]));
}

/// An embedded corpus is a source: edited, the revision is dirty (a
/// history point or a bisect probe built from it is not the commit's).
#[test]
fn an_edited_embedded_corpus_makes_the_revision_dirty() {
    let dir = tempfile::tempdir().unwrap();
    let p = probe(dir.path(), "corpus");
    let head = p.git(&["rev-parse", "HEAD"]);
    assert!(p.build());
    assert_eq!(p.revision(), head);
    let corpus = p.checkout.join("datasets/generated/gen_9x9_1000.txt");
    std::fs::write(&corpus, "edited\n").unwrap();
    assert!(p.build(), "an edit of the embedded corpus must rebuild");
    assert_eq!(p.revision(), format!("{head}-dirty"));
    std::fs::write(&corpus, "embedded\n").unwrap();
    assert!(p.build());
    assert_eq!(p.revision(), head);
}

/// Two checkouts building into one target directory (a shared
/// `CARGO_TARGET_DIR`, `bisect`'s worktrees, a moved checkout): cargo
/// reuses the compiled build script, which must still read the revision of
/// the checkout being built, not of the one it was compiled in.
#[test]
fn checkouts_sharing_a_target_directory_each_record_their_own_revision() {
    let dir = tempfile::tempdir().unwrap();
    let first = probe(dir.path(), "first");
    let mut second = probe(dir.path(), "second");
    // Another commit, so that the two revisions differ.
    std::fs::write(second.checkout.join("README.md"), "second\n").unwrap();
    second.git(&["commit", "-q", "-am", "second"]);
    second.target = first.target.clone();
    for p in [&first, &second, &first] {
        p.build();
        assert_eq!(
            p.revision(),
            p.git(&["rev-parse", "HEAD"]),
            "{}",
            p.checkout.display()
        );
    }
}
