#![cfg(target_os = "linux")]
//! What `bench` makes of a loaded solver's answers that cannot be taken at
//! face value: one wrong on every puzzle (its problems capped on the
//! terminal, all kept in `problems.txt`), one that claims more solutions
//! than it was asked to count (invalid, exit 1), and one slower than its
//! time budget (over budget, not counted as within it). The slow one also
//! keeps a run going while its corpus is rewritten: a warning on standard
//! error, even with `-q`, the fact in `run.json`, and `compare` refuses it.

use crate::common;

use std::path::{Path, PathBuf};

use common::{read_csv, read_json, repo_path, shared_library, write_file};

/// The C solvers of these tests, each beside the C example
/// (`example_solve`), which they call to solve:
/// * `wrong` hands back the clues alone as its solution, one solution
///   claimed: invalid on every puzzle;
/// * `five` and `huge` solve, then claim 5 and `SIZE_MAX` solutions,
///   whatever the limit;
/// * `slow` sleeps 300 ms, then solves.
fn library(dir: &Path) -> PathBuf {
    let source = format!(
        r#"#include "{example}"
#include <stdint.h>
#include <time.h>
size_t wrong(const char *input, size_t limit, uint32_t flags, char *solution,
             size_t *guesses) {{
    (void)limit; (void)flags;
    *guesses = 0;
    for (int i = 0; i < 81; i++) solution[i] = input[i] == '.' ? '0' : input[i];
    return 1;
}}
size_t five(const char *input, size_t limit, uint32_t flags, char *solution,
            size_t *guesses) {{
    example_solve(input, limit, flags, solution, guesses);
    return 5;
}}
size_t huge(const char *input, size_t limit, uint32_t flags, char *solution,
            size_t *guesses) {{
    example_solve(input, limit, flags, solution, guesses);
    return SIZE_MAX;
}}
size_t slow(const char *input, size_t limit, uint32_t flags, char *solution,
            size_t *guesses) {{
    struct timespec pause = {{ 0, 300000000 }};
    nanosleep(&pause, NULL);
    return example_solve(input, limit, flags, solution, guesses);
}}
"#,
        example = repo_path("examples/c-solver/solver.c").display(),
    );
    let path = write_file(dir, "answers.c", source);
    shared_library(dir, "answers", &path)
}

/// The first `count` puzzles of the generated 9x9 corpus, as `name.txt`.
fn corpus(dir: &Path, name: &str, count: usize) -> PathBuf {
    common::gen_9x9_corpus(dir, &format!("{name}.txt"), count)
}

/// `bench -q -j1 --no-plots` with the library's `symbols` loaded, `args`,
/// into `out`: its exit status and standard error.
fn bench(lib: &Path, symbols: &[&str], args: &[&str], out: &Path, corpus: &Path) -> (i32, String) {
    let mut cmd = common::dlxbench();
    cmd.args(["bench", "-q", "-j1", "--no-plots"]);
    for symbol in symbols {
        cmd.arg(format!("--solver-lib={}:{symbol}", lib.display()));
    }
    let output = cmd
        .args(args)
        .arg("--out")
        .arg(out)
        .arg(corpus)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().expect("an exit status"), stderr)
}

#[test]
fn a_solver_wrong_on_every_puzzle_shows_ten_problems_and_keeps_all() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let corpus = corpus(dir.path(), "forty", 40);
    let out = dir.path().join("out");
    let (code, stderr) = bench(&lib, &["wrong"], &["--solvers=dlx,wrong"], &out, &corpus);
    assert_eq!(code, 1, "{stderr}");
    let shown: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("PROBLEM: forty line "))
        .collect();
    assert_eq!(shown.len(), 10, "{stderr}");
    assert!(
        shown[0].contains("wrong returned an invalid solution"),
        "{stderr}"
    );
    let file = out.join("problems.txt");
    assert!(
        stderr.contains(&format!(
            "PROBLEM: ... 30 more in forty, all in {}",
            file.display()
        )),
        "{stderr}"
    );
    // All 40 in the file, the ten shown first.
    let all = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 40);
    for (i, line) in shown.iter().enumerate() {
        assert_eq!(line.strip_prefix("PROBLEM: "), Some(lines[i]));
    }
    assert!(lines
        .iter()
        .all(|l| l.starts_with("forty line ") && l.contains("wrong returned an invalid solution")));
    // The file is the run's: in its manifest (what --force removes).
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["problems"], 40);
    let files: Vec<&str> = run["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.contains(&"problems.txt"), "{files:?}");
    // A run without problems has no such file, nor lists one.
    let clean = dir.path().join("clean");
    let (code, stderr) = bench(&lib, &[], &["--solvers=dlx"], &clean, &corpus);
    assert_eq!(code, 0, "{stderr}");
    assert!(!clean.join("problems.txt").exists());
    let run = read_json(&clean.join("run.json"));
    assert!(!run["files"].to_string().contains("problems.txt"));
    // --force replaces the wrong run: its problems.txt goes with it.
    let (code, stderr) = bench(&lib, &[], &["--solvers=dlx", "--force"], &out, &corpus);
    assert_eq!(code, 0, "{stderr}");
    assert!(!file.exists());
}

#[test]
fn a_count_above_the_limit_is_an_invalid_answer() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let corpus = corpus(dir.path(), "five", 5);
    for symbol in ["five", "huge"] {
        // Alone, as the only judge of its own counts: every puzzle was
        // "multiple" and the run passed.
        let out = dir.path().join(symbol);
        let solvers = format!("--solvers={symbol}");
        let (code, stderr) = bench(&lib, &[symbol], &[&solvers], &out, &corpus);
        assert_eq!(code, 1, "{symbol}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "PROBLEM: five line 1: {symbol} returned a count above the limit of 2 it was given"
            )),
            "{stderr}"
        );
        let summary = read_csv(&out.join("summary.csv"));
        assert_eq!(
            (
                summary[0]["invalid"].as_str(),
                summary[0]["multiple"].as_str()
            ),
            ("5", "0"),
            "{symbol}"
        );
        let rows = read_csv(&out.join("puzzles.csv"));
        assert!(rows.iter().all(|r| r["status"] == "invalid"), "{symbol}");
        // Beside an honest solver: one problem per puzzle (the count, not
        // also a disagreement), the honest solver's counts untouched.
        let out = dir.path().join(format!("{symbol}-dlx"));
        let solvers = format!("--solvers=dlx,{symbol}");
        let (code, stderr) = bench(&lib, &[symbol], &[&solvers], &out, &corpus);
        assert_eq!(code, 1, "{symbol}: {stderr}");
        assert_eq!(stderr.matches("PROBLEM: ").count(), 5, "{stderr}");
        assert!(!stderr.contains("disagree"), "{stderr}");
        let summary = read_csv(&out.join("summary.csv"));
        assert_eq!(summary[0]["solved"], "5");
    }
}

#[test]
fn a_loaded_solver_slower_than_its_time_budget_is_over_budget() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let corpus = corpus(dir.path(), "three", 3);
    // 300 ms a puzzle under a 100 ms budget: over budget, not "within
    // budget" as the table's budget note would otherwise misstate.
    // Isolated (the default), the call is killed at its deadline: a
    // timeout, restarted, then stopped after 3 in a row.
    let out = dir.path().join("isolated");
    let args = ["--solvers=dlx,slow", "--budget-time=100ms"];
    let (code, stderr) = bench(&lib, &["slow"], &args, &out, &corpus);
    // Over budget, as in process: not a failure of the run.
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("slow budget (deadline) in an untimed warm-up solve"),
        "{stderr}"
    );
    let rows = read_csv(&out.join("puzzles.csv"));
    let causes: Vec<_> = rows
        .iter()
        .filter(|r| r["solver"] == "slow")
        .map(|r| (r["status"].as_str(), r["cause"].as_str()))
        .collect();
    // (The warm-up call's deadline counts among the 3 in a row.)
    let expected = [
        ("budget", "deadline"),
        ("budget", "deadline"),
        ("skipped", "stopped"),
    ];
    assert_eq!(causes, expected, "{rows:?}");
    // In process, a C call cannot be stopped: the budget is applied when
    // it returns.
    let out = dir.path().join("bounded");
    let args = ["--solvers=dlx,slow", "--budget-time=100ms", "--in-process"];
    let (code, stderr) = bench(&lib, &["slow"], &args, &out, &corpus);
    assert_eq!(code, 0, "{stderr}");
    let summary = read_csv(&out.join("summary.csv"));
    let slow = summary.iter().find(|r| r["solver"] == "slow").unwrap();
    assert_eq!(
        (slow["budget"].as_str(), slow["solved"].as_str()),
        ("3", "0")
    );
    // No latency is claimed within the budget.
    assert_eq!(slow["p50_ns"], "");
    let rows = read_csv(&out.join("puzzles.csv"));
    let slow_rows: Vec<_> = rows.iter().filter(|r| r["solver"] == "slow").collect();
    assert_eq!(slow_rows.len(), 3);
    for r in &slow_rows {
        assert_eq!(r["status"], "budget");
        assert!(r["ns"].parse::<u64>().unwrap() >= 300_000_000, "{r:?}");
    }
    // dlx, far within it, is unaffected.
    let dlx = summary.iter().find(|r| r["solver"] == "dlx").unwrap();
    assert_eq!(dlx["solved"], "3");
    // Under the default budget (10 s), the same solves are within it.
    let out = dir.path().join("default");
    let (code, stderr) = bench(&lib, &["slow"], &["--solvers=slow"], &out, &corpus);
    assert_eq!(code, 0, "{stderr}");
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(
        (summary[0]["budget"].as_str(), summary[0]["solved"].as_str()),
        ("0", "3")
    );
}

#[test]
fn a_corpus_rewritten_mid_run_is_warned_of_recorded_and_refused_by_compare() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let corpus = corpus(dir.path(), "three", 3);
    let out = dir.path().join("out");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .args(["bench", "-q", "-j1", "--no-plots", "--solvers=slow"])
        .arg(format!("--solver-lib={}:slow", lib.display()))
        .arg("--out")
        .arg(&out)
        .arg(&corpus)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Three solves of 300 ms: rewritten (the same bytes, in place: no
    // truncation under the map) while the first is under way.
    std::thread::sleep(std::time::Duration::from_millis(450));
    let bytes = std::fs::read(&corpus).unwrap();
    {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&corpus)
            .unwrap();
        file.write_all(&bytes).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "dlxbench: warning: {} changed on disk during the run",
            corpus.display()
        )),
        "{stderr}"
    );
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["corpora"][0]["changed_on_disk"], true);
    // compare will not take it, on either side.
    let clean = dir.path().join("clean");
    let (code, stderr) = bench(&lib, &[], &["--solvers=dlx"], &clean, &corpus);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        read_json(&clean.join("run.json"))["corpora"][0]["changed_on_disk"],
        false
    );
    for (a, b, side) in [(&out, &clean, "baseline"), (&clean, &out, "current")] {
        let output = common::dlxbench()
            .arg("compare")
            .arg(a)
            .arg(b)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "corpus `three` changed on disk during the {side} run"
            )),
            "{stderr}"
        );
    }
}
