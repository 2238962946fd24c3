//! `dlxbench ab` loads fresh copies of its --solver-lib libraries every
//! pass (`dlxbench::solvers::layout`): seen from inside the library, whose
//! constructor notes where the loader put it (`dladdr`: the file it was
//! loaded from and its load address) and the environment padding it
//! was given.

use crate::common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use common::{dlxbench, repo_path};

/// The example solver with a constructor that appends `PID PATH BASE
/// PAD` to the file named by `DLXBENCH_TEST_LOAD_LOG` each time the
/// library is loaded.
fn noting_library(dir: &Path) -> PathBuf {
    let source = dir.join("noting.c");
    let example = repo_path("examples/c-solver/solver.c");
    std::fs::write(
        &source,
        format!(
            r#"#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "{}"

__attribute__((constructor)) static void note_load(void) {{
    const char *log = getenv("DLXBENCH_TEST_LOAD_LOG");
    const char *pad = getenv("DLXBENCH_LAYOUT_PAD");
    Dl_info info;
    if (!log || !dladdr((void *)&note_load, &info)) return;
    FILE *f = fopen(log, "a");
    if (!f) return;
    fprintf(f, "%d %s %p %d\n", (int)getpid(), info.dli_fname, info.dli_fbase,
            pad ? (int)strlen(pad) : -1);
    fclose(f);
}}
"#,
            example.display()
        ),
    )
    .unwrap();
    common::shared_library(dir, "noting", &source)
}

/// One load: the process, the file loaded, its base address, the
/// environment padding's length (-1: none).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Load {
    pid: u32,
    path: PathBuf,
    base: String,
    pad: i64,
}

fn loads(log: &Path) -> Vec<Load> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            Load {
                pid: w[0].parse().unwrap(),
                path: PathBuf::from(w[1]),
                base: w[2].to_string(),
                pad: w[3].parse().unwrap(),
            }
        })
        .collect()
}

/// Runs `ab one two` on the library loaded twice, 3 passes; returns the
/// loads and standard output.
fn ab(lib: &Path, log: &Path, extra: &[&str]) -> (Vec<Load>, String) {
    let spec = |name: &str| format!("--solver-lib={}:example_solve={name}", lib.display());
    let out = dlxbench()
        .env("DLXBENCH_TEST_LOAD_LOG", log)
        .args(["ab", "one", "two", &spec("one"), &spec("two")])
        .args(["--min-passes", "3", "--max-passes", "3", "-q"])
        .args(extra)
        .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (loads(log), stdout)
}

/// The layout's temporary directory a copy lies in.
fn layout_dir(copy: &Path) -> PathBuf {
    copy.ancestors()
        .find(|a| {
            a.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("dlxbench-layout-"))
        })
        .unwrap_or_else(|| panic!("{} is not in a layout directory", copy.display()))
        .to_path_buf()
}

#[test]
fn isolated_hosts_load_a_fresh_copy_every_pass() {
    let dir = tempfile::tempdir().unwrap();
    let lib = noting_library(dir.path());
    let log = dir.path().join("loads.txt");
    // Hosts kept for the pass (a pass that outlasts 50 host start-ups
    // would replace them after 16 blocks: `--renew-hosts`).
    let (loads, stdout) = ab(&lib, &log, &["--renew-hosts", "0"]);
    // The two checks before the run load the library itself; then each
    // pass's two hosts (one worker) load copies.
    let (original, copies): (Vec<Load>, Vec<Load>) = loads.into_iter().partition(|l| l.path == lib);
    assert_eq!(original.len(), 2, "{original:?}");
    assert_eq!(copies.len(), 6, "{copies:?}");
    let paths: HashSet<&PathBuf> = copies.iter().map(|l| &l.path).collect();
    assert_eq!(paths.len(), 6, "a copy per solver per pass: {copies:?}");
    let pids: HashSet<u32> = copies.iter().map(|l| l.pid).collect();
    assert_eq!(pids.len(), 6, "a host process per solver per pass");
    for l in &copies {
        assert_eq!(l.path.file_name(), lib.file_name());
        assert!(l.pad >= 0, "no environment padding: {l:?}");
    }
    let pads: HashSet<i64> = copies.iter().map(|l| l.pad).collect();
    assert!(pads.len() > 1, "{copies:?}");
    // The copies are gone after the run.
    let root = layout_dir(&copies[0].path);
    assert!(!root.exists(), "{} left behind", root.display());
    assert!(
        stdout.contains("\nlayout: randomised per pass (seed "),
        "{stdout}"
    );
}

#[test]
fn in_process_each_pass_opens_a_fresh_copy_at_a_new_address() {
    let dir = tempfile::tempdir().unwrap();
    let lib = noting_library(dir.path());
    let log = dir.path().join("loads.txt");
    let (loads, stdout) = ab(&lib, &log, &["--in-process"]);
    let me: HashSet<u32> = loads.iter().map(|l| l.pid).collect();
    assert_eq!(me.len(), 1, "all in one process: {loads:?}");
    // The library itself, opened once for both names (the same path is the
    // same handle); then a copy per solver per pass.
    assert_eq!(loads[0].path, lib);
    let copies = &loads[1..];
    assert_eq!(copies.len(), 6, "{loads:?}");
    let paths: HashSet<&PathBuf> = copies.iter().map(|l| &l.path).collect();
    assert_eq!(paths.len(), 6, "{copies:?}");
    // A copy is loaded while the previous pass's two are still mapped: it
    // lands elsewhere than each of them, and than its partner.
    for (i, l) in copies.iter().enumerate() {
        for earlier in &copies[i.saturating_sub(3)..i] {
            assert_ne!(l.base, earlier.base, "{copies:?}");
        }
    }
    assert!(!layout_dir(&copies[0].path).exists());
    assert!(
        stdout.contains("a fresh copy of the library opened per pass"),
        "{stdout}"
    );
}

#[test]
fn a_fixed_layout_loads_the_library_once() {
    let dir = tempfile::tempdir().unwrap();
    let lib = noting_library(dir.path());
    let log = dir.path().join("loads.txt");
    let (loads, stdout) = ab(&lib, &log, &["--in-process", "--fixed-layout"]);
    assert_eq!(loads.len(), 1, "{loads:?}");
    assert_eq!(loads[0].path, lib);
    assert!(
        stdout.contains("\nlayout: fixed (--fixed-layout)"),
        "{stdout}"
    );
}

#[test]
fn built_in_solvers_say_their_layout_is_not_randomised() {
    let out = dlxbench()
        .args([
            "ab",
            "dlx",
            "singles",
            "--max-passes",
            "1",
            "--min-passes",
            "1",
            "-q",
        ])
        .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "\nlayout: not randomised: dlx and singles are built in (run in this program's \
             process, their code where it was linked); to compare builds, load each build's \
             libdlxbench.so with --solver-lib\n"
        ),
        "{stdout}"
    );
}

/// `results/layout-study ARGS` in `dir` (which it must not build in).
fn layout_study(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(repo_path("results/layout-study"))
        .args(args)
        .arg("--work")
        .arg(dir.join("work"))
        .env("DLXBENCH", common::binary())
        .output()
        .unwrap()
}

#[test]
fn the_layout_study_refuses_bad_arguments_before_building_anything() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
    let corpus = corpus.to_str().unwrap();
    for (args, says) in [
        (vec![], "usage"),
        (vec!["HEAD", "HEAD"], "usage"),
        (vec!["HEAD", "HEAD", corpus, "--seeds", "1"], "at least 2"),
        (vec!["HEAD", "HEAD", corpus, "--seeds", "many"], "usage"),
        (vec!["HEAD", "HEAD", "no-such-corpus.txt"], "no corpus"),
    ] {
        let out = layout_study(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = common::stderr_text(&out);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(
            !dir.path().join("work").exists(),
            "{args:?}: built or made its work folder"
        );
    }
}

/// The study for real, HEAD against itself in a clone: each side built
/// once (release, with LTO: minutes), seed 0 linked again to cargo's
/// bytes (the script checks), two shuffled links a side, an `ab` each and
/// two A/As. Not in `.ci/run` (it builds twice); `LAYOUT_WORK=DIR` keeps
/// the builds for the next run.
#[test]
#[ignore = "builds libdlxbench.so twice in release (about 10 minutes from nothing)"]
fn the_layout_study_links_each_side_again_in_other_orders_and_reports_over_them() {
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    let out = std::process::Command::new("git")
        .args(["clone", "-q"])
        .arg(repo_path("."))
        .arg(&clone)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr_text(&out));
    let work =
        std::env::var_os("LAYOUT_WORK").map_or_else(|| dir.path().join("work"), PathBuf::from);
    let out = std::process::Command::new(clone.join("results/layout-study"))
        .args(["HEAD", "HEAD", "datasets/generated/gen_9x9_1000.txt"])
        .args(["--seeds", "2", "--aa", "2", "--max-time", "3s", "--work"])
        .arg(&work)
        .env("DLXBENCH", common::binary())
        .current_dir(&clone)
        .output()
        .unwrap();
    let stderr = common::stderr_text(&out);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("B over A: 2 link orders, B/A "), "{stdout}");
    assert!(
        stdout.contains("B over B, two link orders (A/A): 2 link orders"),
        "{stdout}"
    );
    // Shuffled: the same size, other bytes; every link loaded and run by ab.
    let shipped = std::fs::read(work.join("a-0.so")).unwrap();
    let shuffled = std::fs::read(work.join("a-1.so")).unwrap();
    assert_eq!(shipped, std::fs::read(work.join("a-cargo.so")).unwrap());
    assert_ne!(shipped, shuffled);
    for name in ["ab-1.json", "ab-2.json", "aa-1.json", "aa-2.json"] {
        let ab = common::read_json(&work.join(name));
        assert!(ab["overall"]["estimate"].as_f64().is_some(), "{name}: {ab}");
    }
}
