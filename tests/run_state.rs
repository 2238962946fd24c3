#![cfg(target_os = "linux")]
//! The run's state on disk is always true: a bench run that ends early in
//! any way (a loaded solver that segfaults, calls `abort()` or `exit()`, a
//! run killed with SIGKILL) leaves a directory whose `run.json` says what
//! happened to every corpus asked for, with every finished corpus's rows of
//! `puzzles.csv` intact; `compare`, `plot` and `merge` warn of it.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{read_csv, read_json, repo_path, shared_library};
use dlxbench::results::{DirState, ResultDir};

/// Puzzles per corpus.
const PER_CORPUS: usize = 40;

/// The call of the loaded solver that fails: the 20th puzzle of the second
/// corpus (`-j1`, one solver, no warm-up: one call per puzzle, in order).
const FAIL_AT: usize = PER_CORPUS + 20;

/// A solver behind the C interface that solves like the C example until its
/// `FAIL_AT`th call, which does `how`.
fn fragile_library(dir: &Path, how: &str) -> PathBuf {
    let source = format!(
        r#"#include "{example}"
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
static unsigned long calls;
static int *volatile nowhere;
size_t fragile(const char *input, size_t limit, uint32_t flags, char *solution,
               size_t *guesses) {{
    if (++calls == {FAIL_AT}) {{
        {how};
    }}
    return example_solve(input, limit, flags, solution, guesses);
}}
"#,
        example = repo_path("examples/c-solver/solver.c").display(),
    );
    let path = common::write_file(dir, "fragile.c", source);
    shared_library(dir, "fragile", &path)
}

/// Three corpora `a`, `b`, `c` of `PER_CORPUS` 9x9 puzzles each.
fn corpora(dir: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let lines: Vec<&str> = common::puzzle_lines(&text).collect();
    ["a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut body = lines[i * PER_CORPUS..(i + 1) * PER_CORPUS].join("\n");
            body.push('\n');
            common::write_file(dir, &format!("{name}.txt"), body)
        })
        .collect()
}

/// The bench command line of the runs here: `-j1`, the fragile solver
/// alone and in process, into `out`.
fn bench_args(lib: &Path, out: &Path, corpora: &[PathBuf]) -> Vec<String> {
    let mut args = vec![
        "bench".to_string(),
        "-q".into(),
        "-j1".into(),
        "--no-plots".into(),
        // In process: the failing call ends the run (isolated, it would
        // cost that puzzle alone: tests/isolation.rs).
        "--in-process".into(),
        format!("--solver-lib={}:fragile", lib.display()),
        "--solvers=fragile".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    args.extend(corpora.iter().map(|c| c.display().to_string()));
    args
}

/// The state of each corpus in `run.json`, in order.
fn corpus_states(out: &Path) -> Vec<String> {
    read_json(&out.join("run.json"))["corpora"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["state"].as_str().unwrap().to_string())
        .collect()
}

/// What a run that died in the second corpus leaves: `run.json` `running`
/// with every corpus (`a` done, `b` in flight, `c` not started) and a
/// writer gone, read as died; `a`'s rows of `puzzles.csv` complete and no
/// other; `compare` and `plot` warn, `merge` refuses.
fn assert_died_in_second_corpus(out: &Path) {
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "running", "{run}");
    assert!(run["pid"].as_u64().is_some());
    assert_eq!(run["interrupted"], false);
    let names: Vec<&str> = run["corpora"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(corpus_states(out), ["done", "running", "not started"]);
    assert_eq!(run["corpora"][0]["lines_done"], PER_CORPUS as u64);

    let dir = ResultDir::open(out).unwrap();
    assert!(
        matches!(dir.state, DirState::Died { .. }),
        "{:?}",
        dir.state
    );
    let ran: Vec<&str> = dir.run.corpora.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(ran, ["a"]);
    let warning = dir.warning().unwrap();
    assert!(warning.contains("died"), "{warning}");
    assert!(
        warning.contains("b (running), c (not started)"),
        "{warning}"
    );

    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows.len(), PER_CORPUS, "a's rows, every one");
    assert!(rows
        .iter()
        .all(|r| r["corpus"] == "a" && r["status"] == "unique"));
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].parse().unwrap()).collect();
    assert_eq!(lines, (1..=PER_CORPUS as u64).collect::<Vec<_>>());
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(summary.len(), 1);
    assert_eq!(summary[0]["corpus"], "a");
    assert_eq!(summary[0]["puzzles"], PER_CORPUS.to_string());

    let compare = common::dlxbench()
        .args(["compare"])
        .arg(out)
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&compare.stderr);
    assert!(
        stderr.contains("warning: the baseline is not a complete run") && stderr.contains("died"),
        "{stderr}"
    );
    let plot = common::dlxbench().arg("plot").arg(out).output().unwrap();
    assert!(plot.status.success());
    let stderr = String::from_utf8_lossy(&plot.stderr);
    assert!(
        stderr.contains("warning:") && stderr.contains("died"),
        "{stderr}"
    );
    let merged = out.with_extension("merged");
    let merge = common::dlxbench()
        .arg("merge")
        .arg("--out")
        .arg(&merged)
        .arg(out)
        .output()
        .unwrap();
    assert!(!merge.status.success());
    let stderr = String::from_utf8_lossy(&merge.stderr);
    assert!(
        stderr.contains("not a finished run") && stderr.contains("died"),
        "{stderr}"
    );
    assert!(!merged.exists());
}

/// Runs bench with the solver failing by `how`; returns the output
/// directory and the exit status.
fn run_failing(dir: &Path, how: &str) -> (PathBuf, std::process::ExitStatus) {
    let lib = fragile_library(dir, how);
    let corpora = corpora(dir);
    let out = dir.join("out");
    let output = common::dlxbench()
        .args(bench_args(&lib, &out, &corpora))
        .output()
        .unwrap();
    (out, output.status)
}

#[test]
fn a_segfault_in_a_loaded_solver_leaves_a_run_that_says_it_died() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = run_failing(dir.path(), "*nowhere = 1");
    assert_eq!(status.signal(), Some(libc::SIGSEGV), "{status}");
    assert_died_in_second_corpus(&out);
}

#[test]
fn abort_in_a_loaded_solver_leaves_a_run_that_says_it_died() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = run_failing(dir.path(), "abort()");
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status}");
    assert_died_in_second_corpus(&out);
}

#[test]
fn exit_in_a_loaded_solver_leaves_a_run_that_says_it_died() {
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = run_failing(dir.path(), "exit(3)");
    assert_eq!(status.code(), Some(3));
    assert_died_in_second_corpus(&out);
}

#[test]
fn a_run_killed_mid_run_says_it_is_running_then_that_it_died() {
    let dir = tempfile::tempdir().unwrap();
    // The solver hangs in the second corpus until the run is killed.
    let lib = fragile_library(dir.path(), "for (;;) pause()");
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .args(bench_args(&lib, &out, &corpora))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(out.join("run.json").is_file()
        && corpus_states(&out) == ["done", "running", "not started"])
    {
        assert!(Instant::now() < deadline, "the run never reached corpus b");
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    // While its writer lives, the run reads as running.
    let live = ResultDir::open(&out).unwrap();
    assert_eq!(
        live.state,
        DirState::Running {
            pid: Some(child.id())
        }
    );
    assert!(live.warning().unwrap().contains("still going"));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_died_in_second_corpus(&out);
}

#[test]
fn a_complete_run_says_so_and_warns_of_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fragile_library(dir.path(), "abort()");
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    // Corpus a alone: the failing call is never made.
    common::dlxbench()
        .args(bench_args(&lib, &out, &corpora[..1]))
        .assert()
        .success();
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "complete");
    assert_eq!(corpus_states(&out), ["done"]);
    assert_eq!(ResultDir::open(&out).unwrap().state, DirState::Complete);
    let compare = common::dlxbench()
        .arg("compare")
        .arg(&out)
        .arg(&out)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&compare.get_output().stderr).into_owned();
    assert!(!stderr.contains("warning"), "{stderr}");
}
