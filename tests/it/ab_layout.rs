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
