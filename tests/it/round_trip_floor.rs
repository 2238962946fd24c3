#![cfg(unix)]
//! The round-trip floor: the echo solver (`dlxbench solver-echo`), the
//! measurement through the binary, and a run with a solver in its own
//! process recording it in `run.json` and printing it, while a run of
//! built-in solvers records none. With the echo solver as a solver that
//! disagrees with `dlx` on every puzzle: `bench`, `ab` and `merge` print
//! at most 10 PROBLEM lines per corpus, then a count of the rest.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::Instant;

use common::{binary, read_json};
use dlxbench::solvers::echo;

/// The first `n` puzzles of the generated 9x9 corpus, in `dir/c.txt`.
fn corpus(dir: &Path, n: usize) -> PathBuf {
    common::gen_9x9_corpus(dir, "c.txt", n)
}

#[test]
fn the_echo_solver_speaks_the_protocol_and_answers_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let output = Process::new(binary())
        .arg(echo::SUBCOMMAND)
        .stdin(std::fs::File::open(corpus(dir.path(), 3)).unwrap())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "dlxbench-protocol 1 echo\n0 -\n0 -\n0 -\n"
    );
}

#[test]
fn the_floor_is_measured_through_the_binary_in_well_under_a_second() {
    let started = Instant::now();
    let floor = echo::measure(&binary(), echo::REQUESTS).unwrap();
    let took = started.elapsed();
    assert_eq!(floor.requests, echo::REQUESTS as u64);
    assert!(floor.p50_ns > 0 && floor.mean_ns > 0.0, "{floor:?}");
    // A pipe round trip: microseconds, not milliseconds (a loaded machine
    // allowed for).
    assert!(floor.p50_ns < 5_000_000, "{floor:?}");
    assert!(took.as_secs_f64() < 5.0, "took {took:?}");
    // A program that is not the echo solver is an error, not a floor.
    assert!(echo::measure(Path::new("/bin/true"), 10).is_err());
    assert!(echo::measure(Path::new("/nonexistent/dlxbench"), 10).is_err());
}

/// `--solver-cmd echo=DLXBENCH solver-echo`: the echo solver as a solver
/// of the run (it finds no solutions: a disagreement with `dlx` on every
/// puzzle).
fn echo_cmd() -> String {
    format!("echo={} {}", binary().display(), echo::SUBCOMMAND)
}

/// `bench` of `solvers` over 12 puzzles into `dir/out`, with the echo
/// solver as `--solver-cmd echo=...`, and `extra` flags: its exit status,
/// standard output and error, and `run.json`.
fn bench_with(
    dir: &Path,
    solvers: &str,
    extra: &[&str],
) -> (Option<i32>, String, String, serde_json::Value) {
    let out = dir.join("out");
    let output = Process::new(binary())
        .args(["bench", "--solvers", solvers, "-j", "1", "--no-plots"])
        .args(["--solver-cmd", &echo_cmd()])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .arg(corpus(dir, 12))
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        read_json(&out.join("run.json")),
    )
}

fn bench(dir: &Path, solvers: &str) -> (Option<i32>, String, String, serde_json::Value) {
    bench_with(dir, solvers, &[])
}

#[test]
fn a_run_with_a_solver_command_records_the_floor_and_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr, run) = bench(dir.path(), "dlx,echo");
    // The echo solver finds no solutions: every puzzle is a disagreement.
    assert_eq!(code, Some(1), "{stderr}");
    let floor = &run["round_trip_floor"];
    assert_eq!(floor["requests"], echo::REQUESTS as u64, "{run}");
    assert!(floor["p50_ns"].as_u64().unwrap() > 0);
    assert!(floor["mean_ns"].as_f64().unwrap() > 0.0);
    let note = stdout
        .lines()
        .find(|l| l.starts_with("Solvers in their own processes"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        note.contains("echo: round trips, mean round trip "),
        "{note}"
    );
    assert!(
        note.contains("; the pipe's floor here ") && note.contains(" p50, "),
        "{note}"
    );
    // 12 problems: the first 10 shown, then where the rest are.
    let problems: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("PROBLEM: "))
        .collect();
    assert_eq!(problems.len(), 11, "{stderr}");
    assert!(
        problems[10].starts_with("PROBLEM: ... 2 more in c, all in "),
        "{stderr}"
    );
}

#[test]
fn a_run_of_built_in_solvers_records_no_floor() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr, run) = bench(dir.path(), "dlx");
    assert_eq!(code, Some(0), "{stderr}");
    assert!(run.get("round_trip_floor").is_none(), "{run}");
    assert!(!stdout.contains("floor"), "{stdout}");
}

/// The `PROBLEM` lines of `stderr` (those starting with `prefix`).
fn problem_lines<'s>(stderr: &'s str, prefix: &str) -> Vec<&'s str> {
    stderr.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn ab_caps_its_problem_lines_per_corpus_as_bench_does() {
    let dir = tempfile::tempdir().unwrap();
    let output = Process::new(binary())
        .args(["ab", "dlx", "echo", "--solver-cmd", &echo_cmd()])
        .arg(corpus(dir.path(), 12))
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let problems = problem_lines(&stderr, "PROBLEM: ");
    // 12 disagreements a pass: the first 10, then a count of the rest.
    assert_eq!(problems.len(), 11, "{stderr}");
    assert!(
        problems[0].starts_with("PROBLEM: c line 1: solvers disagree"),
        "{stderr}"
    );
    assert!(
        problems[10].starts_with("PROBLEM: ... ") && problems[10].ends_with(" more in c not shown"),
        "{stderr}"
    );
}

#[test]
fn merge_caps_its_problem_lines_per_corpus_as_bench_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for k in 1..=2 {
        let part = dir.path().join(format!("part{k}"));
        std::fs::create_dir(&part).unwrap();
        let shard = format!("{k}/2");
        let (code, _, stderr, _) = bench_with(&part, "dlx,echo", &["--shard", &shard]);
        assert_eq!(code, Some(1), "{stderr}");
        parts.push(part.join("out"));
    }
    let merged = dir.path().join("merged");
    let output = Process::new(binary())
        .args(["merge", "--quiet", "--out"])
        .arg(&merged)
        .args(&parts)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let problems = problem_lines(&stderr, "dlxbench: c line ");
    assert_eq!(problems.len(), 10, "{stderr}");
    let more = format!(
        "dlxbench: ... 2 more in c, all in {}",
        merged.join("problems.txt").display()
    );
    assert!(stderr.lines().any(|l| l == more), "{stderr}");
}
