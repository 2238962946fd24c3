#![cfg(unix)]
//! `--solver-cmd`: solvers in their own processes, through the command
//! line. The solver is `tests/solvers/sudoku.py` (python3), which answers
//! correctly and misbehaves on the puzzles it is told to: it exits, hangs,
//! prints garbage, starts slowly. Each run completes, the statuses are on
//! the right lines, every other puzzle is solved and validated, nothing
//! finished is lost, and a run with failures exits 1 and names them.

use crate::common;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output, Stdio};
use std::time::{Duration, Instant};

use common::{
    assert_no_temporaries, binary, read_csv, read_json, repo_path, stderr_text as stderr,
};

/// Puzzles in the test corpus.
const PUZZLES: usize = 24;

/// Whether python3 runs here; the tests say so and pass when it does not.
fn have_python() -> bool {
    let ok = Process::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("python3 not found: skipping the --solver-cmd tests");
    }
    ok
}

/// The first [`PUZZLES`] puzzles of the generated 9x9 corpus, written to
/// `dir/c.txt`: the file, and the puzzles by line. Their solutions (by
/// `dlxbench solve`) go to `dir/answers.txt`, which the Python solver
/// answers from when given `--answers` (so that it is fast on a loaded
/// machine; the misbehaviours come first).
fn corpus(dir: &Path) -> (PathBuf, Vec<String>) {
    let mut puzzles = common::gen_9x9_puzzles();
    puzzles.truncate(PUZZLES);
    let path = common::gen_9x9_corpus(dir, "c.txt", PUZZLES);
    let solved = Process::new(binary())
        .arg("solve")
        .arg(&path)
        .output()
        .unwrap();
    assert!(solved.status.success());
    let solutions = String::from_utf8(solved.stdout).unwrap();
    let answers: String = puzzles
        .iter()
        .zip(solutions.lines())
        .map(|(p, s)| format!("{p} {s}\n"))
        .collect();
    assert_eq!(answers.lines().count(), PUZZLES);
    std::fs::write(dir.join("answers.txt"), answers).unwrap();
    (path, puzzles)
}

/// `--solver-cmd py=python3 tests/solvers/sudoku.py --answers
/// DIR/answers.txt ARGS`.
fn solver_cmd(dir: &Path, args: &str) -> String {
    format!(
        "py=python3 {} --answers {} {args}",
        repo_path("tests/solvers/sudoku.py").display(),
        dir.join("answers.txt").display()
    )
}

/// Runs `bench` of `dlx` and the Python solver (with `args`) over the test
/// corpus, into `dir/out`, with `extra` flags.
fn bench(dir: &Path, corpus: &Path, args: &str, extra: &[&str]) -> (Output, PathBuf) {
    let out = dir.join("out");
    let output = Process::new(binary())
        .args(["bench", "--solvers", "dlx,py", "-j", "1", "--no-plots"])
        .arg("--solver-cmd")
        .arg(solver_cmd(dir, args))
        .args(extra)
        .arg("--out")
        .arg(&out)
        .arg(corpus)
        .output()
        .unwrap();
    (output, out)
}

/// `puzzles.csv`'s rows of solver `py`, by line: (status, cause).
fn py_rows(out: &Path) -> HashMap<usize, (String, String)> {
    read_csv(&out.join("puzzles.csv"))
        .into_iter()
        .filter(|r| r["solver"] == "py")
        .map(|r| {
            (
                r["line"].parse().unwrap(),
                (r["status"].clone(), r["cause"].clone()),
            )
        })
        .collect()
}

/// Every line but those of `failed` is `unique` for both solvers (so
/// validated and cross-checked), and those are `status` with `cause`.
fn assert_statuses(out: &Path, failed: &[(usize, &str, &str)]) {
    let rows = py_rows(out);
    assert_eq!(rows.len(), PUZZLES, "{rows:?}");
    for line in 1..=PUZZLES {
        let (status, cause) = &rows[&line];
        match failed.iter().find(|f| f.0 == line) {
            Some((_, s, c)) => {
                assert_eq!((status.as_str(), cause.as_str()), (*s, *c), "line {line}")
            }
            None => assert_eq!(
                (status.as_str(), cause.as_str()),
                ("unique", ""),
                "line {line}"
            ),
        }
    }
    let dlx = read_csv(&out.join("puzzles.csv"))
        .into_iter()
        .filter(|r| r["solver"] == "dlx" && r["status"] == "unique")
        .count();
    assert_eq!(dlx, PUZZLES);
}

/// The summary row of `py`.
fn py_summary(out: &Path) -> HashMap<String, String> {
    read_csv(&out.join("summary.csv"))
        .into_iter()
        .find(|r| r["solver"] == "py")
        .unwrap()
}

#[test]
fn a_correct_solver_runs_next_to_dlx_with_its_own_times() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, _) = corpus(dir.path());
    let (output, out) = bench(dir.path(), &corpus, "--ns", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_statuses(&out, &[]);
    let summary = py_summary(&out);
    assert_eq!(summary["solved"], PUZZLES.to_string());
    assert_eq!(summary["latency_source"], "own");
    assert_eq!(summary["crashed"], "0");
    assert!(summary["mean_round_trip_ns"].parse::<f64>().unwrap() > 0.0);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("Solvers in their own processes: latencies are py: its own times (ns=)"),
        "{stdout}"
    );
    // Both times per puzzle; the round trip is the longer.
    for r in read_csv(&out.join("puzzles.csv"))
        .iter()
        .filter(|r| r["solver"] == "py")
    {
        let (ns, rt): (u64, u64) = (
            r["ns"].parse().unwrap(),
            r["round_trip_ns"].parse().unwrap(),
        );
        assert!(rt >= ns, "{r:?}");
    }
    // Its standard error is in the directory, listed in run.json.
    let run = read_json(&out.join("run.json"));
    let files: Vec<&str> = run["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.contains(&"solver-py.log"), "{files:?}");
    let log = std::fs::read_to_string(out.join("solver-py.log")).unwrap();
    assert!(log.contains("request 1"), "{log}");
    assert_eq!(run["schema_version"], dlxbench::results::SCHEMA_VERSION);

    // Without --ns, the round trip is the time.
    let dir = tempfile::tempdir().unwrap();
    let (corpus, _) = self::corpus(dir.path());
    let (output, out) = bench(dir.path(), &corpus, "", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(py_summary(&out)["latency_source"], "round-trip");
}

#[test]
fn a_solver_that_exits_mid_run_is_crashed_there_and_restarted() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let args = format!("--fail exit={} --fail segv={}", puzzles[5], puzzles[11]);
    let (output, out) = bench(dir.path(), &corpus, &args, &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_statuses(
        &out,
        &[(6, "crashed", "exit 3"), (12, "crashed", "signal 11")],
    );
    assert!(err.contains("PROBLEM: c: py: 2 crashed"), "{err}");
    assert!(err.contains("c: line 6: py crashed (exit 3)"), "{err}");
    assert!(err.contains("c: line 12: py crashed (signal 11)"), "{err}");
    let summary = py_summary(&out);
    assert_eq!(
        (summary["crashed"].as_str(), summary["solved"].as_str()),
        ("2", "22")
    );
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["corpora"][0]["failures"][0]["crashed"], 2);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(" failed "),
        "the table shows the failures: {stdout}"
    );
    assert_no_temporaries(&out);
    // The page says so too, with the table's failed column.
    let plotted = Process::new(binary())
        .arg("plot")
        .arg(&out)
        .output()
        .unwrap();
    assert!(plotted.status.success(), "{}", stderr(&plotted));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains("2 solve(s) failed"), "{page}");
    assert!(page.contains("<th>failed</th>"), "{page}");
}

#[test]
fn a_hung_call_is_over_budget_at_the_budget_and_the_run_goes_on() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let args = format!("--fail hang={}", puzzles[2]);
    let started = Instant::now();
    let (output, out) = bench(dir.path(), &corpus, &args, &["--budget-time", "1s"]);
    let err = stderr(&output);
    // Over budget, as a built-in solver past its budget: not a failure.
    assert_eq!(output.status.code(), Some(0), "{err}");
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_statuses(&out, &[(3, "budget", "deadline")]);
    let summary = py_summary(&out);
    assert_eq!(
        (summary["budget"].as_str(), summary["timeout"].as_str()),
        ("1", "0")
    );
}

#[test]
fn garbage_is_a_protocol_error_on_its_line() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let args = format!("--fail garbage={}", puzzles[9]);
    let (output, out) = bench(dir.path(), &corpus, &args, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_statuses(&out, &[(10, "protocol-error", "response")]);
    assert_eq!(py_summary(&out)["protocol_error"], "1");
}

#[test]
fn a_slow_start_is_not_timed() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, _) = corpus(dir.path());
    // Starting takes longer than any solve may.
    let (output, out) = bench(
        dir.path(),
        &corpus,
        "--slow-start 1.5",
        &["--budget-time", "1s"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_statuses(&out, &[]);
}

#[test]
fn failures_in_a_row_stop_the_solver_for_the_rest_of_the_corpus() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let args = format!(
        "--fail exit={} --fail exit={} --fail exit={}",
        puzzles[3], puzzles[4], puzzles[5]
    );
    let (output, out) = bench(dir.path(), &corpus, &args, &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let mut failed = vec![
        (4, "crashed", "exit 3"),
        (5, "crashed", "exit 3"),
        (6, "crashed", "exit 3"),
    ];
    failed.extend((7..=PUZZLES).map(|line| (line, "skipped", "stopped")));
    assert_statuses(&out, &failed);
    assert!(
        err.contains("c: line 7: py stopped after 3 failures in a row"),
        "{err}"
    );
    let summary = py_summary(&out);
    assert_eq!(summary["skipped"], (PUZZLES - 6).to_string());
    // Skipped puzzles were not run: not among `puzzles`.
    assert_eq!(summary["puzzles"], "6");
}

#[test]
fn ctrl_c_during_a_hung_call_ends_the_run_at_once_keeping_what_finished() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let out = dir.path().join("out");
    // Two corpora: the first finishes, the second hangs on its line 3.
    let second = dir.path().join("d.txt");
    std::fs::copy(&corpus, &second).unwrap();
    let hang = format!("--fail hang={}", puzzles[2]);
    let first_only = puzzles[2].clone();
    // The first corpus must not hang: it lacks that puzzle.
    let text: String = puzzles
        .iter()
        .filter(|p| **p != first_only)
        .map(|p| format!("{p}\n"))
        .collect();
    std::fs::write(&corpus, text).unwrap();
    let mut child = Process::new(binary())
        .args(["bench", "--solvers", "dlx,py", "-j", "1", "--no-plots"])
        .arg("--solver-cmd")
        .arg(solver_cmd(dir.path(), &hang))
        .args(["--budget-time", "60s", "--out"])
        .arg(&out)
        .arg(&corpus)
        .arg(&second)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the hung call (on the second corpus's line 3).
    let log = out.join("solver-py.log");
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("hanging\n") {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "{text}");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let signalled = Instant::now();
    // SAFETY: kill(2) with a pid we spawned and a valid signal.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    let took = signalled.elapsed();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(3), "{took:?}: {err}");
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "interrupted");
    assert_eq!(run["corpora"][0]["state"], "done");
    assert_eq!(run["corpora"][1]["state"], "partial");
    // The first corpus whole, the second's lines before the hang solved,
    // the hung one and those after it skipped (interrupted).
    let rows = read_csv(&out.join("puzzles.csv"));
    let of = |corpus: &str| -> Vec<(usize, String, String)> {
        let mut v: Vec<_> = rows
            .iter()
            .filter(|r| r["corpus"] == corpus && r["solver"] == "py")
            .map(|r| {
                (
                    r["line"].parse().unwrap(),
                    r["status"].clone(),
                    r["cause"].clone(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let first = of("c");
    assert_eq!(first.len(), PUZZLES - 1);
    assert!(first.iter().all(|r| r.1 == "unique"), "{first:?}");
    let second = of("d");
    assert_eq!(second[0].1, "unique");
    assert_eq!(second[1].1, "unique");
    assert_eq!(
        (second[2].1.as_str(), second[2].2.as_str()),
        ("skipped", "interrupted")
    );
    assert_no_temporaries(&out);
}

#[test]
fn solve_and_ab_report_failed_solves() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let cmd = solver_cmd(dir.path(), &format!("--fail exit={}", puzzles[5]));
    let solved = Process::new(binary())
        .args(["solve", "--solver", "py", "--solver-cmd", &cmd])
        .arg(&corpus)
        .output()
        .unwrap();
    let (out, err) = (String::from_utf8_lossy(&solved.stdout), stderr(&solved));
    assert_eq!(solved.status.code(), Some(1), "{err}");
    assert!(out.contains("# line 6: crashed (exit 3)\n"), "{out}");
    assert_eq!(out.lines().count(), PUZZLES, "one line a puzzle: {out}");
    assert!(
        err.contains("23 solved") && err.contains("1 failed (py solver)"),
        "{err}"
    );

    let ab = Process::new(binary())
        .args([
            "ab",
            "dlx",
            "py",
            "-j",
            "1",
            "--max-time",
            "2s",
            "--solver-cmd",
            &cmd,
        ])
        .arg(&corpus)
        .output()
        .unwrap();
    let err = stderr(&ab);
    assert_eq!(ab.status.code(), Some(1), "{err}");
    assert!(
        err.contains("failed solves (crashed, timeout or protocol-error)"),
        "{err}"
    );
}

#[test]
fn shards_with_failures_merge_and_compare_shows_them() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    let failing = solver_cmd(dir.path(), &format!("--fail exit={}", puzzles[5]));
    let good = solver_cmd(dir.path(), "");
    let run = |cmd: &str, out: &str, extra: &[&str]| {
        Process::new(binary())
            .args([
                "bench",
                "--solvers",
                "dlx,py",
                "-j",
                "1",
                "--no-plots",
                "-q",
            ])
            .args(["--solver-cmd", cmd])
            .args(extra)
            .arg("--out")
            .arg(dir.path().join(out))
            .arg(&corpus)
            .output()
            .unwrap()
    };
    assert_eq!(
        run(&failing, "s1", &["--shard", "1/2"]).status.code(),
        Some(0)
    );
    assert_eq!(
        run(&failing, "s2", &["--shard", "2/2"]).status.code(),
        Some(1)
    );
    let merged = dir.path().join("m");
    let merge = Process::new(binary())
        .args(["merge", "--no-plots", "--out"])
        .arg(&merged)
        .arg(dir.path().join("s1"))
        .arg(dir.path().join("s2"))
        .output()
        .unwrap();
    assert_eq!(merge.status.code(), Some(1), "{}", stderr(&merge));
    let summary = py_summary(&merged);
    assert_eq!(
        (summary["crashed"].as_str(), summary["solved"].as_str()),
        ("1", "23")
    );
    assert_statuses(&merged, &[(6, "crashed", "exit 3")]);

    assert_eq!(run(&good, "good", &[]).status.code(), Some(0));
    let compare = Process::new(binary())
        .arg("compare")
        .arg(dir.path().join("good"))
        .arg(&merged)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&compare.stdout);
    assert!(
        shown.contains("outcomes: solved 24 -> 23, crashed 0 -> 1"),
        "{shown}"
    );
    assert!(
        shown.contains("line 6: status unique -> crashed"),
        "{shown}"
    );
}

/// Mems a solver reports (`mems=N`) go through every result file as
/// updates do: per puzzle in `puzzles.csv`, summed in `summary.csv` and
/// `histograms.json` (dlx, which counts none, empty there); shards merge to
/// the same figures, a part whose rows and histograms disagree on them is
/// refused, and `compare` makes a change in them alone an algorithm change.
#[test]
fn mems_are_recorded_merged_and_compared_like_updates() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, puzzles) = corpus(dir.path());
    // The solver's stand-in count: K x the blank cells.
    let expected = |k: u64| -> Vec<u64> {
        puzzles
            .iter()
            .map(|p| k * p.bytes().filter(|&b| b == b'.' || b == b'0').count() as u64)
            .collect()
    };
    let run = |k: u64, out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let output = Process::new(binary())
            .args([
                "bench",
                "--solvers",
                "dlx,py",
                "-j",
                "1",
                "--no-plots",
                "-q",
            ])
            .arg("--solver-cmd")
            .arg(solver_cmd(dir.path(), &format!("--mems {k}")))
            .args(extra)
            .arg("--out")
            .arg(&out)
            .arg(&corpus)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        out
    };
    // What a result directory records: py's mems by line, the summary's
    // total_mems of py and dlx, histograms.json's.
    let recorded = |out: &Path| {
        let rows = read_csv(&out.join("puzzles.csv"));
        assert!(rows
            .iter()
            .filter(|r| r["solver"] == "dlx")
            .all(|r| r["mems"].is_empty()));
        let mut py: Vec<(usize, u64)> = rows
            .iter()
            .filter(|r| r["solver"] == "py")
            .map(|r| (r["line"].parse().unwrap(), r["mems"].parse().unwrap()))
            .collect();
        py.sort_unstable();
        let summary = read_csv(&out.join("summary.csv"));
        let total = |solver: &str| {
            let row = summary.iter().find(|r| r["solver"] == solver).unwrap();
            row["total_mems"].clone()
        };
        let set = read_json(&out.join("histograms.json"));
        let stats = |solver: &str| {
            set["histograms"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["solver"] == solver)
                .unwrap()["stats"]
                .clone()
        };
        assert!(stats("dlx").get("total_mems").is_none());
        assert_eq!(total("dlx"), "");
        let json_total = stats("py")["total_mems"].as_u64().unwrap();
        assert_eq!(total("py"), json_total.to_string());
        (
            py.into_iter().map(|(_, m)| m).collect::<Vec<_>>(),
            json_total,
        )
    };

    let whole = run(3, "whole", &[]);
    let (mems, total) = recorded(&whole);
    assert_eq!(mems, expected(3));
    assert_eq!(total, expected(3).iter().sum::<u64>());
    assert_eq!(
        read_json(&whole.join("run.json"))["schema_version"],
        dlxbench::results::SCHEMA_VERSION
    );

    // Two shards merge to the whole run's figures.
    let s1 = run(3, "s1", &["--shard", "1/2"]);
    let s2 = run(3, "s2", &["--shard", "2/2"]);
    let merge = |parts: &[&Path], out: &str| {
        Process::new(binary())
            .args(["merge", "--no-plots", "--out"])
            .arg(dir.path().join(out))
            .args(parts)
            .output()
            .unwrap()
    };
    let merged = merge(&[&s1, &s2], "m");
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(recorded(&dir.path().join("m")), (mems.clone(), total));

    // A part whose histograms.json total disagrees with its rows (its
    // checksum made to match): refused, naming the figure.
    let edited = dir.path().join("s2-edited");
    common::copy_dir(&s2, &edited);
    let path = edited.join("histograms.json");
    let mut set = read_json(&path);
    for e in set["histograms"].as_array_mut().unwrap() {
        if e["solver"] == "py" {
            let t = e["stats"]["total_mems"].as_u64().unwrap();
            e["stats"]["total_mems"] = (t + 1).into();
        }
    }
    std::fs::write(&path, serde_json::to_string_pretty(&set).unwrap()).unwrap();
    common::vouch(&edited);
    let refused = merge(&[&s1, &edited], "m-edited");
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("(total_mems: "),
        "{}",
        stderr(&refused)
    );

    // Compare: the same counts are no change; other mems alone are an
    // algorithm change (exit 1 unless allowed).
    let compare = |a: &Path, b: &Path, extra: &[&str]| {
        Process::new(binary())
            .args(["compare", "--metric", "nodes"])
            .args(extra)
            .arg(a)
            .arg(b)
            .output()
            .unwrap()
    };
    let same = compare(&whole, &dir.path().join("m"), &[]);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let other = run(4, "k4", &[]);
    let changed = compare(&whole, &other, &[]);
    let shown = String::from_utf8_lossy(&changed.stdout);
    assert_eq!(changed.status.code(), Some(1), "{shown}");
    let (before, now) = (total, expected(4).iter().sum::<u64>());
    assert!(shown.contains("mems before"), "{shown}");
    assert!(
        shown.contains(&format!(
            "of {PUZZLES} puzzles changed (nodes 0, updates 0, mems {PUZZLES}, status or solutions 0)"
        )),
        "{shown}"
    );
    let line_1 = format!("line 1: mems {} -> {}", expected(3)[0], expected(4)[0]);
    assert!(shown.contains(&line_1), "{shown}");
    assert!(before < now);
    let allowed = compare(&whole, &other, &["--allow-algorithm-change"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
}

#[test]
fn each_worker_runs_its_own_process_warmed_up() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The whole generated corpus: two chunks, so two workers.
    let path = dir.path().join("k.txt");
    let text = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let puzzles: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    std::fs::write(&path, puzzles.join("\n") + "\n").unwrap();
    let solved = Process::new(binary())
        .arg("solve")
        .arg(&path)
        .output()
        .unwrap();
    let solutions = String::from_utf8(solved.stdout).unwrap();
    let answers: String = puzzles
        .iter()
        .zip(solutions.lines())
        .map(|(p, s)| format!("{p} {s}\n"))
        .collect();
    std::fs::write(dir.path().join("answers.txt"), answers).unwrap();
    let out = dir.path().join("out");
    let output = Process::new(binary())
        .args([
            "bench",
            "--solvers",
            "dlx,py",
            "-j",
            "2",
            "--warmup",
            "3",
            "--no-plots",
            "-q",
        ])
        .arg("--solver-cmd")
        .arg(solver_cmd(dir.path(), "--ns"))
        .arg("--out")
        .arg(&out)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary = py_summary(&out);
    assert_eq!(
        (summary["solved"].as_str(), summary["threads"].as_str()),
        ("1000", "2")
    );
    // Two processes (each worker warms its own up), each started once:
    // two first requests in the log.
    let log = std::fs::read_to_string(out.join("solver-py.log")).unwrap();
    assert_eq!(log.matches("request 1\n").count(), 2, "{log}");
}

/// `--solver-cmd py=python3 tests/solvers/careless.py DIR/answers.txt
/// MODE N`: a solver written like a hurried user's.
fn careless(dir: &Path, corpus: &Path, mode: &str, extra: &[&str]) -> (Output, PathBuf, u64) {
    let out = dir.join("out");
    let output = Process::new("/usr/bin/time")
        .args(["-f", "maxrss_kib=%M"])
        .arg(binary())
        .args(["bench", "--solvers", "dlx,py", "-j", "1", "--no-plots"])
        .arg("--solver-cmd")
        .arg(format!(
            "py=python3 {} {} {mode} 5",
            repo_path("tests/solvers/careless.py").display(),
            dir.join("answers.txt").display()
        ))
        .args(extra)
        .arg("--out")
        .arg(&out)
        .arg(corpus)
        .output()
        .unwrap();
    let err = stderr(&output);
    let rss = err
        .lines()
        .filter_map(|l| l.strip_prefix("maxrss_kib="))
        .next_back()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no maxrss in {err}"));
    (output, out, rss)
}

/// No process of the careless solver is left (grandchildren included).
fn assert_nothing_left(mode: &str) {
    std::thread::sleep(Duration::from_millis(200));
    let ps = Process::new("ps").args(["-eo", "args"]).output().unwrap();
    let ps = String::from_utf8_lossy(&ps.stdout);
    let left: Vec<&str> = ps
        .lines()
        .filter(|l| l.contains("careless.py") && l.contains(&format!(" {mode} ")))
        .chain(
            ps.lines()
                .filter(|l| mode.starts_with("grandchild") && l.trim() == "sleep 600"),
        )
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A puzzle's expected line, status and cause.
type Expected = (usize, &'static str, &'static str);

#[test]
fn careless_solvers_end_on_their_own_and_never_misattribute_an_answer() {
    if !have_python() {
        return;
    }
    // mode, exit status, the failed line (the 5th request; the 6th for a
    // line that may come just after the 5th answer), its status and cause.
    let cases: [(&str, i32, &[Expected]); 8] = [
        ("stray", 1, &[(5, "protocol-error", "response")]),
        ("double", 1, &[]),
        ("noisy", 0, &[]),
        ("nonewline", 1, &[(5, "protocol-error", "too-long")]),
        ("closed", 1, &[(5, "crashed", "closed")]),
        ("sigstop", 0, &[(5, "budget", "deadline")]),
        ("grandchild", 0, &[(5, "budget", "deadline")]),
        ("bigcount", 1, &[(5, "protocol-error", "response")]),
    ];
    // Each one at a time, and again announcing batches (a block's
    // requests in its pipe at once).
    let batched = cases.map(|(mode, code, failed)| {
        let mode: &'static str = format!("{mode}+batch").leak();
        (mode, code, failed)
    });
    for (mode, code, failed) in cases.into_iter().chain(batched) {
        let dir = tempfile::tempdir().unwrap();
        let (corpus, _) = corpus(dir.path());
        let (output, out, rss) = careless(dir.path(), &corpus, mode, &["--budget-time", "2s"]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(code), "{mode}: {err}");
        assert!(rss < 300 * 1024, "{mode}: dlxbench used {rss} KiB");
        let rows = py_rows(&out);
        // Every answer recorded is the right one: nothing `invalid`, no
        // disagreement; dlx lost nothing.
        for (line, (status, cause)) in &rows {
            let expected = failed.iter().find(|f| f.0 == *line);
            match (mode, expected) {
                (_, Some((_, s, c))) => {
                    assert_eq!(
                        (status.as_str(), cause.as_str()),
                        (*s, *c),
                        "{mode} line {line}"
                    )
                }
                // A double answer fails the 5th or the 6th puzzle as a
                // stray line, depending on when it arrives.
                ("double" | "double+batch", None) if status != "unique" => {
                    assert!((5..=6).contains(line), "{mode} line {line}: {status}");
                    assert_eq!(
                        (status.as_str(), cause.as_str()),
                        ("protocol-error", "stray")
                    );
                }
                _ => assert_eq!(status, "unique", "{mode} line {line}: {cause}"),
            }
        }
        assert!(!out.join("problems.txt").exists() || code == 1, "{mode}");
        let dlx = read_csv(&out.join("puzzles.csv"))
            .into_iter()
            .filter(|r| r["solver"] == "dlx" && r["status"] == "unique")
            .count();
        assert_eq!(dlx, PUZZLES, "{mode}");
        let log = std::fs::metadata(out.join("solver-py.log")).unwrap().len();
        assert!(log < 64 << 20, "{mode}: log of {log} bytes");
        assert_nothing_left(mode);
        let run = read_json(&out.join("run.json"));
        match mode {
            "noisy" | "noisy+batch" => {
                let dropped = run["solvers"][1]["log_dropped_bytes"].as_u64().unwrap();
                assert!(dropped >= 20 << 20, "{dropped}");
                let text = std::fs::read(out.join("solver-py.log")).unwrap();
                let text = String::from_utf8_lossy(&text);
                assert!(
                    text.contains(&format!("[dlxbench: {dropped} bytes")),
                    "{mode}"
                );
            }
            "stray" | "nonewline" | "bigcount" | "stray+batch" | "nonewline+batch"
            | "bigcount+batch" => {
                // The offending line is quoted in problems.txt and the log.
                let problems = std::fs::read_to_string(out.join("problems.txt")).unwrap();
                let quoted = match mode.trim_end_matches("+batch") {
                    "stray" => "`debug: solving",
                    "nonewline" => "`1111",
                    _ => "`99999999999999999999999 ",
                };
                assert!(problems.contains(quoted), "{mode}: {problems}");
                let log = std::fs::read_to_string(out.join("solver-py.log")).unwrap();
                assert!(log.contains(quoted), "{mode}: {log}");
            }
            _ => {}
        }
    }
}

#[test]
fn self_reported_times_are_believed_only_when_they_explain_the_round_trips() {
    if !have_python() {
        return;
    }
    for (mode, verified) in [
        ("honest", true),
        ("liar", false),
        ("half", false),
        ("honest+batch", true),
        ("liar+batch", false),
        ("half+batch", false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (corpus, _) = corpus(dir.path());
        let (output, out, _) = careless(dir.path(), &corpus, mode, &[]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{mode}: {}", stderr(&output));
        let summary = py_summary(&out);
        let explained: f64 = summary["own_time_explained"].parse().unwrap();
        assert_eq!(summary["latency_source"], "own", "{mode}");
        // Grouped answers (found waiting, in a batch) name their group
        // by its first line, at or before their own; one request at a
        // time, none is.
        for r in read_csv(&out.join("puzzles.csv"))
            .iter()
            .filter(|r| r["solver"] == "py")
        {
            let line: u64 = r["line"].parse().unwrap();
            match (mode.ends_with("+batch"), r["round_trip_group"].as_str()) {
                (_, "") => {}
                (true, group) => assert!(group.parse::<u64>().unwrap() <= line, "{r:?}"),
                (false, group) => panic!("{mode}: one at a time, grouped: {group}"),
            }
        }
        if verified {
            assert!(explained >= 0.8, "{mode}: {explained}");
            assert_ne!(summary["speed_note"], "unverified");
            assert_eq!(
                summary["speed_vs_reference"].is_empty(),
                summary["speed_vs"].is_empty(),
                "{mode}: {summary:?}"
            );
            assert!(!stdout.contains("UNVERIFIED"), "{stdout}");
        } else {
            assert!(explained < 0.8, "{mode}: {explained}");
            assert_eq!(summary["speed_note"], "unverified", "{mode}");
            assert_eq!(summary["speed_vs"], "", "{mode}");
            // Nor the legacy ratio of throughputs, which the liar's
            // own times would inflate.
            assert_eq!(summary["speed_vs_reference"], "", "{mode}");
            assert!(
                stdout.contains("py: its own times (ns=) (UNVERIFIED on c: they explain"),
                "{stdout}"
            );
        }
    }
    // Ranked on round trips instead, the liar has its ratio again.
    let dir = tempfile::tempdir().unwrap();
    let (corpus, _) = corpus(dir.path());
    let (output, out, _) = careless(dir.path(), &corpus, "liar", &["--latency", "round-trip"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let summary = py_summary(&out);
    assert_eq!(summary["latency_source"], "round-trip");
    let speed: f64 = summary["speed_vs"].parse().unwrap();
    assert!(speed < 0.1, "a 2-20 ms solver against dlx: {speed}");
}

#[test]
fn a_command_that_cannot_start_or_has_a_wrong_header_is_refused_before_the_run() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (corpus, _) = corpus(dir.path());
    for (cmd, expected) in [
        ("py=pyhton3 solver.py", "not found"),
        (
            &*format!(
                "py=python3 {} {} typo",
                repo_path("tests/solvers/careless.py").display(),
                dir.path().join("answers.txt").display()
            ),
            "`dlxbench-protocl 1`",
        ),
    ] {
        let output = Process::new(binary())
            .args([
                "bench",
                "--solvers",
                "dlx,py",
                "--no-plots",
                "--solver-cmd",
                cmd,
            ])
            .arg("--out")
            .arg(dir.path().join("out"))
            .arg(&corpus)
            .output()
            .unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(
            err.contains(expected) && err.contains("--solver-cmd py="),
            "{err}"
        );
        assert!(!dir.path().join("out").exists(), "nothing run");
    }
}
