//! End-to-end tests of `dlxbench compare` and `bench --save-baseline`, on
//! runs the tests make themselves with `dlxbench bench` and then copy and
//! edit (times scaled, counters changed).

use crate::common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use dlxbench::results::output::CompareJson;
use predicates::prelude::*;
use serde_json::Value;

use common::{
    assert_no_temporaries, bench_into, copy_dir, dir_entries, dlxbench, puzzle_lines, read_json,
    write_file,
};

/// The first `n` puzzles of the embedded generated corpus.
fn corpus_text(n: usize) -> String {
    let text = std::str::from_utf8(dlxbench::datasets::DEFAULT_CORPUS).unwrap();
    puzzle_lines(text)
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Writes `fix.txt` (200 puzzles) in `dir`.
fn corpus(dir: &Path) -> PathBuf {
    write_file(dir, "fix.txt", corpus_text(200))
}

/// Runs `bench` on `corpus` into `out` with dlx and singles (plus `extra`).
fn bench(corpus: &Path, out: &Path, extra: &[&str]) {
    let args = ["-q", "--threads", "2", "--solvers", "dlx,singles"];
    bench_into(out, &[&args[..], extra].concat(), corpus)
        .assert()
        .success();
}

/// `dlxbench compare BASE CUR`, for the caller to add to and assert on.
fn compare(base: &Path, cur: &Path) -> Command {
    let mut cmd = dlxbench();
    cmd.arg("compare").arg(base).arg(cur);
    cmd
}

/// A CSV file's header and rows.
fn read_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (headers, rows)
}

/// Writes a CSV file: its header, then its rows; the checksums of its
/// directory's `run.json` are made to match (the file stands for another
/// run's, not for one tampered with).
fn write_rows(path: &Path, headers: &[String], rows: &[Vec<String>]) {
    let mut w = csv::Writer::from_path(path).unwrap();
    w.write_record(headers).unwrap();
    for row in rows {
        w.write_record(row).unwrap();
    }
    w.flush().unwrap();
    common::vouch(path.parent().unwrap());
}

/// Rewrites a CSV file row by row: `f(headers, row)`.
fn edit_csv(path: &Path, mut f: impl FnMut(&[String], &mut Vec<String>)) {
    let (headers, mut rows) = read_rows(path);
    for row in &mut rows {
        f(&headers, row);
    }
    write_rows(path, &headers, &rows);
}

fn col(headers: &[String], name: &str) -> usize {
    headers.iter().position(|h| h == name).unwrap()
}

/// Multiplies every time of the run in `dir` by `factor(line)` (per puzzle)
/// and the summary's times by `summary_factor` (throughput divided).
fn scale_times(dir: &Path, factor: impl Fn(u64) -> f64, summary_factor: f64) {
    edit_csv(&dir.join("puzzles.csv"), |h, row| {
        let line: u64 = row[col(h, "line")].parse().unwrap();
        let i = col(h, "ns");
        let ns: f64 = row[i].parse().unwrap();
        row[i] = ((ns * factor(line)).round().max(1.0) as u64).to_string();
    });
    edit_csv(&dir.join("summary.csv"), |h, row| {
        for name in [
            "mean_ns",
            "stddev_ns",
            "p50_ns",
            "p90_ns",
            "p99_ns",
            "p999_ns",
            "max_ns",
        ] {
            let i = col(h, name);
            let v: f64 = row[i].parse().unwrap();
            row[i] = format!("{:.1}", v * summary_factor);
        }
        let i = col(h, "puzzles_per_s");
        let v: f64 = row[i].parse().unwrap();
        row[i] = format!("{:.1}", v / summary_factor);
    });
}

/// A baseline run in `dir/base` and a copy of it in `dir/cur`.
fn base_and_copy(dir: &Path) -> (PathBuf, PathBuf) {
    let base = dir.join("base");
    bench(&corpus(dir), &base, &[]);
    let cur = dir.join("cur");
    copy_dir(&base, &cur);
    (base, cur)
}

/// Runs `compare BASE CUR --format json ARGS`; returns the exit code and
/// the document.
fn compare_json(base: &Path, cur: &Path, args: &[&str]) -> (i32, Value) {
    let out = compare(base, cur)
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "exit {code}, not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    common::typed::<CompareJson>(std::str::from_utf8(&out.stdout).unwrap());
    (code, doc)
}

fn results(doc: &Value) -> &Vec<Value> {
    let r = doc["results"].as_array().unwrap();
    assert_eq!(r.len(), 2, "dlx and singles on one corpus: {doc}");
    r
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn identical_runs_pass_with_an_interval_containing_one() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    let (code, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(code, 0, "{doc}");
    for r in results(&doc) {
        let t = &r["time"];
        assert_eq!(t["method"], "paired_blocks");
        assert!(f(&t["low"]) <= 1.0 && 1.0 <= f(&t["high"]), "{t}");
        assert_eq!(t["verdict"], "no_change");
        assert_eq!(t["puzzles"], 200);
        assert_eq!(r["counters"]["changed"], false);
        assert_eq!(r["counters"]["compared"], 200);
    }
    assert_eq!(doc["outcome"]["exit_status"], 0);
    // dlx records link updates, singles does not.
    let dlx = &results(&doc)[0];
    assert_eq!(dlx["solver"], "dlx");
    assert!(dlx["counters"]["updates"]["baseline"].as_u64().unwrap() > 0);
    assert!(results(&doc)[1]["counters"]["updates"].is_null());

    compare(&base, &cur)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("fix "))
        .stdout(predicate::str::contains("no significant change"))
        .stdout(predicate::str::contains("OK (0 algorithm changes"));
}

#[test]
fn two_real_runs_have_identical_counters() {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    bench(&c, &a, &[]);
    // Another thread count and order: counters cannot depend on them.
    bench(&c, &b, &["--shuffle", "3"]);
    let (code, doc) = compare_json(&a, &b, &["--metric", "nodes"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["outcome"]["algorithm_changes"], 0);
    for r in results(&doc) {
        let k = &r["counters"];
        assert_eq!(k["nodes"]["baseline"], k["nodes"]["current"]);
        assert_eq!(k["puzzles_changed"], 0);
    }
}

#[test]
fn times_times_1_5_is_a_regression_with_the_right_ratio() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    scale_times(&cur, |_| 1.5, 1.5);
    // By default time does not gate: reported, exit 0.
    let (code, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["settings"]["metric"], "nodes");
    let (code, doc) = compare_json(&base, &cur, &["--metric", "time"]);
    assert_eq!(code, 1, "{doc}");
    for r in results(&doc) {
        let t = &r["time"];
        assert_eq!(t["verdict"], "regression", "{r}");
        assert!((f(&t["ratio"]) - 1.5).abs() < 0.01, "{t}");
        // Every puzzle is 1.5 times slower (up to rounding to whole ns).
        assert!((f(&t["low"]) - 1.5).abs() < 0.01 && (f(&t["high"]) - 1.5).abs() < 0.01);
        assert!((f(&r["reading"]["p50_ratio"]) - 1.5).abs() < 0.01);
        assert!((f(&r["reading"]["throughput_ratio"]) - 1.0 / 1.5).abs() < 0.01);
        assert_eq!(r["counters"]["changed"], false);
    }
    assert_eq!(doc["outcome"]["time_regressions"], 2);

    compare(&base, &cur)
        .args(["--metric", "both"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("REGRESSION"))
        .stdout(predicate::str::contains("FAILED"))
        .stdout(predicate::str::contains("floor is unknown here"));
    // Time reported but not gating (the default).
    for extra in [&["--metric", "nodes"][..], &[]] {
        compare(&base, &cur)
            .args(extra)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("regression (not gating)"))
            .stdout(predicate::str::contains(
                "OK (0 algorithm changes; time not gating)",
            ));
    }
    // A floor of 60% above the 5% threshold: 1.5 is within it.
    let (code, doc) = compare_json(&base, &cur, &["--metric", "time", "--floor", "60"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["settings"]["floor_pct"], 60.0);
    compare(&base, &cur)
        .args(["--metric", "time", "--floor", "60%"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("threshold 5% (floor 60%)"))
        .stdout(predicate::str::contains("time verdicts use the floor"));
    // A 60% threshold: 1.5 is within it. `60` and `60%` mean the same.
    for t in ["60", "60%"] {
        let (code, doc) = compare_json(&base, &cur, &["--metric", "time", "--threshold", t]);
        assert_eq!(code, 0, "{t}");
        assert_eq!(doc["settings"]["threshold_pct"], 60.0);
        assert!(results(&doc)
            .iter()
            .all(|r| r["time"]["verdict"] == "no_change"));
    }
}

#[test]
fn times_times_0_7_is_an_improvement_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    scale_times(&cur, |_| 0.7, 0.7);
    let (code, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(code, 0, "{doc}");
    for r in results(&doc) {
        let t = &r["time"];
        assert_eq!(t["verdict"], "improvement", "{r}");
        assert!((f(&t["ratio"]) - 0.7).abs() < 0.01, "{t}");
        assert!(f(&t["high"]) < 0.95);
    }
    assert_eq!(doc["outcome"]["time_improvements"], 2);
}

#[test]
fn changed_nodes_on_one_puzzle_is_an_algorithm_change() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    // One dlx puzzle: one more node; one singles puzzle: a different outcome.
    let mut dlx_line = None;
    let mut singles_line = None;
    edit_csv(&cur.join("puzzles.csv"), |h, row| {
        let solver = row[col(h, "solver")].clone();
        let line: u64 = row[col(h, "line")].parse().unwrap();
        if solver == "dlx" && line > 100 && dlx_line.is_none() {
            dlx_line = Some(line);
            let i = col(h, "nodes");
            row[i] = (row[i].parse::<u64>().unwrap() + 1).to_string();
        }
        if solver == "singles" && line > 150 && singles_line.is_none() {
            singles_line = Some(line);
            row[col(h, "status")] = "multiple".into();
            row[col(h, "solutions")] = "2".into();
        }
    });
    let (dlx_line, singles_line) = (dlx_line.unwrap(), singles_line.unwrap());
    let (code, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(code, 1, "{doc}");
    let r = results(&doc);
    let k = &r[0]["counters"];
    assert_eq!(k["changed"], true);
    assert_eq!(k["puzzles_changed"], 1);
    assert_eq!(k["nodes_changed"], 1);
    assert_eq!(
        k["nodes"]["current"].as_u64().unwrap(),
        k["nodes"]["baseline"].as_u64().unwrap() + 1
    );
    assert_eq!(k["examples"][0]["line"], dlx_line);
    let s = &r[1]["counters"];
    assert_eq!(s["outcome_changed"], 1);
    assert_eq!(
        s["examples"][0]["status"],
        serde_json::json!(["unique", "multiple"])
    );
    assert_eq!(doc["outcome"]["algorithm_changes"], 2);

    compare(&base, &cur)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("ALGORITHM CHANGE"))
        .stdout(predicate::str::contains(format!("line {dlx_line}: nodes ")))
        .stdout(predicate::str::contains(format!(
            "line {singles_line}: status unique -> multiple, solutions 1 -> 2"
        )));
    compare(&base, &cur)
        .arg("--allow-algorithm-change")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("changed (allowed)"));
    // One rule with `ab`: an algorithm change fails whatever --metric,
    // unless allowed.
    for metric in ["time", "both", "nodes"] {
        let (code, _) = compare_json(&base, &cur, &["--metric", metric]);
        assert_eq!(code, 1, "{metric}");
        let (code, _) = compare_json(
            &base,
            &cur,
            &["--metric", metric, "--allow-algorithm-change"],
        );
        assert_eq!(code, 0, "{metric}");
    }
}

/// A run of the corpus and one with `extra`, which makes it another
/// experiment: comparing them exits 2 with `message`.
fn incompatible_runs_exit_2(extra: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    bench(&c, &a, &[]);
    bench(&c, &b, extra);
    compare(&a, &b)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(message));
}

#[test]
fn different_mode_exits_2_naming_both() {
    incompatible_runs_exit_2(
        &["--mode", "first"],
        "different modes: baseline `unique`, current `first`",
    );
}

#[test]
fn different_corpus_checksum_exits_2_naming_corpus_and_checksums() {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    // The same name, one puzzle fewer.
    let text = corpus_text(200);
    let other = write_file(&other_dir, "fix.txt", text.split_once('\n').unwrap().1);
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    bench(&c, &a, &[]);
    bench(&other, &b, &[]);
    let sha = |run: &Path| {
        read_json(&run.join("run.json"))["corpora"][0]["sha256"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (sa, sb) = (sha(&a), sha(&b));
    assert_ne!(sa, sb);
    compare(&a, &b)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("corpus `fix` differs"))
        .stderr(predicate::str::contains(&sa))
        .stderr(predicate::str::contains(&sb));
}

#[test]
fn different_budget_exits_2() {
    incompatible_runs_exit_2(
        &["--budget-nodes", "1000000"],
        "solver `dlx` has different node budgets: baseline 10000000, current 1000000",
    );
}

#[test]
fn bootstrap_interval_is_the_same_for_the_same_seed() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    // Noisy per-puzzle ratios between 0.8 and 1.4.
    scale_times(
        &cur,
        |line| 0.8 + 0.6 * ((line * 7919) % 101) as f64 / 100.0,
        1.1,
    );
    let run = |seed: &str| compare_json(&base, &cur, &["--seed", seed, "--bootstrap", "500"]).1;
    let (a, b, c) = (run("7"), run("7"), run("8"));
    let intervals = |doc: &Value| -> Vec<(f64, f64, f64)> {
        results(doc)
            .iter()
            .map(|r| {
                let t = &r["time"];
                (f(&t["ratio"]), f(&t["low"]), f(&t["high"]))
            })
            .collect()
    };
    assert_eq!(a, b);
    let (ia, ic) = (intervals(&a), intervals(&c));
    for (x, y) in ia.iter().zip(&ic) {
        assert_eq!(x.0, y.0, "the estimate does not depend on the seed");
        assert!(x.1 < x.0 && x.0 < x.2, "a real interval: {x:?}");
    }
    assert_ne!(ia, ic, "another seed, other resamples");
    assert_eq!(a["settings"]["seed"], 7);
    assert_eq!(a["settings"]["bootstrap_resamples"], 500);
}

#[test]
fn summary_only_falls_back_to_a_ratio_of_means() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    scale_times(&cur, |_| 1.5, 1.5);
    let (_, doc) = compare_json(&base.join("summary.csv"), &cur, &[]);
    for r in results(&doc) {
        assert_eq!(r["time"]["method"], "ratio_of_means_normal");
        assert!((f(&r["time"]["ratio"]) - 1.5).abs() < 0.01, "{r}");
        assert_eq!(r["counters"]["scope"], "totals");
        assert_eq!(r["counters"]["changed"], false);
    }
    assert_eq!(doc["baseline"]["per_puzzle"], false);
    assert!(doc["notes"][0].as_str().unwrap().contains("no puzzles.csv"));
    compare(&base.join("summary.csv"), &cur)
        .assert()
        .stdout(predicate::str::contains("means*"))
        .stdout(predicate::str::contains("normal-approximation"));
    // Given puzzles.csv, per-puzzle data is used.
    let (_, doc) = compare_json(&base.join("puzzles.csv"), &cur.join("puzzles.csv"), &[]);
    assert!(results(&doc)
        .iter()
        .all(|r| r["time"]["method"] == "paired_blocks"));
}

#[test]
fn runs_without_update_columns_read_as_not_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    // An older run: drop the columns.
    for (file, column) in [("puzzles.csv", "updates"), ("summary.csv", "total_updates")] {
        let path = base.join(file);
        let (mut headers, mut rows) = read_rows(&path);
        let drop = col(&headers, column);
        headers.remove(drop);
        for row in &mut rows {
            row.remove(drop);
        }
        write_rows(&path, &headers, &rows);
    }
    let (code, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(code, 0, "{doc}");
    assert!(results(&doc)
        .iter()
        .all(|r| r["counters"]["updates"].is_null()));
    compare(&base, &cur)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("not recorded"));
}

#[test]
fn pairs_on_one_side_are_listed_not_failures() {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    bench(&c, &a, &[]);
    bench_into(&b, &["-q", "--solvers", "dlx,heuristic"], &c)
        .assert()
        .success();
    compare(&a, &b)
        .args(["--metric", "nodes"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "Only in the baseline: fix (singles)",
        ))
        .stdout(predicate::str::contains(
            "Only in the current run: fix (heuristic)",
        ));
}

#[test]
fn unusable_input_exits_2_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    compare(&base, &dir.path().join("missing"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing"))
        .stderr(predicate::str::contains("no such file or directory"));
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    compare(&empty, &cur)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a result directory"));
    // A broken row: its file and line are named.
    let mut n = 0;
    edit_csv(&cur.join("puzzles.csv"), |h, row| {
        n += 1;
        if n == 10 {
            row[col(h, "nodes")] = "many".into();
        }
    });
    compare(&base, &cur)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "puzzles.csv:11: column `nodes`: `many`",
        ));
    for bad in ["abc", "-5", "100", "5%%"] {
        compare(&base, &base)
            .arg(format!("--threshold={bad}"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("threshold"));
    }
}

#[test]
fn a_truncated_puzzles_csv_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    let path = cur.join("puzzles.csv");
    let whole = std::fs::read(&path).unwrap();
    let last_row = whole[..whole.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap()
        + 1;
    // Cut and not vouched for: the checksum refuses it, naming the file.
    std::fs::write(&path, &whole[..last_row]).unwrap();
    let assert = compare(&base, &cur).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains(&format!(
            "{}: puzzles.csv does not match the checksum in run.json: edited or truncated",
            cur.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("--accept-modified reads it anyway"),
        "{stderr}"
    );
    // Accepted knowingly: the row-count check still refuses it.
    let assert = compare(&base, &cur)
        .arg("--accept-modified")
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("summary.csv counts 200 puzzles"),
        "{stderr}"
    );
    // The checks behind the checksums: each cut vouched for as if a run
    // had written it.
    let expect_2 = |cut: &[u8], messages: &[&str]| {
        std::fs::write(&path, cut).unwrap();
        common::vouch(&cur);
        let assert = compare(&base, &cur).assert().code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(&path.display().to_string()), "{stderr}");
        for m in messages {
            assert!(stderr.contains(m), "`{m}` in {stderr}");
        }
    };
    // Mid-row: the last row loses its last character and its line end
    // (every field still there), or half of itself.
    let rows = whole.iter().filter(|&&b| b == b'\n').count();
    expect_2(
        &whole[..whole.len() - 2],
        &[&format!("puzzles.csv:{rows}: "), "cut short"],
    );
    expect_2(&whole[..last_row + (whole.len() - last_row) / 2], &[]);
    // At a row boundary: the row count disagrees with summary.csv.
    expect_2(
        &whole[..last_row],
        &["199 rows, but", "summary.csv counts 200 puzzles"],
    );
    // The whole file again: comparable.
    std::fs::write(&path, &whole).unwrap();
    common::vouch(&cur);
    compare(&base, &cur)
        .args(["--metric", "nodes"])
        .assert()
        .code(0);
}

#[test]
fn markdown_and_out_file() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    scale_times(&cur, |_| 1.5, 1.5);
    let md = dir.path().join("compare.md");
    compare(&base, &cur)
        .args(["--metric", "time", "--format", "markdown", "--out"])
        .arg(&md)
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty());
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.starts_with("## dlxbench compare\n"), "{text}");
    assert!(text.contains("**FAILED"), "{text}");
    assert!(text.contains("| corpus | solver | method | puzzles | ratio |"));
    assert!(text.contains("| fix | dlx | blocks | 200 | 1.50"), "{text}");
    assert!(text.contains("|---|---|---|---:|"));
    assert_no_temporaries(dir.path());
}

#[test]
fn save_baseline_writes_results_name_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    // `bench --save-baseline NAME EXTRA CORPUS` in `dir`.
    let save = |name: &str, extra: &[&str], corpus: &Path| {
        let mut cmd = dlxbench();
        cmd.current_dir(dir.path())
            .args(["bench", "-q", "--solvers", "dlx", "--save-baseline", name])
            .args(extra)
            .arg(corpus);
        cmd
    };
    let run = |extra: &[&str]| save("main", extra, &c);
    let results = dir.path().join("results");
    let entries = || dir_entries(&results);
    run(&[]).assert().success();
    assert_eq!(entries(), ["main"]);
    let main = results.join("main");
    for f in ["summary.csv", "puzzles.csv", "run.json"] {
        assert!(main.join(f).is_file(), "{f}");
    }
    let run_json = |p: &Path| std::fs::read_to_string(p.join("run.json")).unwrap();
    assert!(run_json(&main).contains("\"out_dir\": \"results/main\""));
    std::fs::write(main.join("stale.txt"), "from the first run").unwrap();
    // A second run replaces the whole directory.
    run(&[]).assert().success();
    assert_eq!(entries(), ["main"]);
    assert!(!main.join("stale.txt").exists());
    std::fs::write(main.join("stale.txt"), "kept").unwrap();

    // A failed run (--strict with a malformed line) leaves it untouched.
    let bad = write_file(dir.path(), "bad.txt", corpus_text(5) + "12345\n");
    save("main", &["--strict"], &bad)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("baseline not saved"));
    assert_eq!(entries(), ["main"]);
    assert!(main.join("stale.txt").exists());

    // Usage errors.
    run(&["--out", "elsewhere"]).assert().code(2);
    for name in ["../up", ".hidden", "a/b", ""] {
        save(name, &[], &c)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--save-baseline"));
    }
    assert_eq!(entries(), ["main"]);
}

/// Two runs of the same code one after the other (what
/// `results/make-baseline` twice makes) compare OK by default: the
/// counters decide, time is reported without a verdict that gates; asked
/// to gate on time, the report says what its interval leaves out.
#[test]
fn two_back_to_back_runs_compare_ok_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    bench(&c, &a, &[]);
    bench(&c, &b, &[]);
    let out = compare(&a, &b).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("nodes gate; time is reported, not gating"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("OK (0 algorithm changes; time not gating)\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("REGRESSION"), "{stdout}");
    let out = compare(&a, &b).args(["--metric", "time"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 1, "{stdout}");
    assert!(stdout.contains("nodes and time gate"), "{stdout}");
    assert!(
        stdout.contains("bootstrap over blocks of 64 lines")
            && stdout.contains("not the noise between the two runs")
            && stdout.contains("floor is unknown here: measure it with `dlxbench ab --aa`"),
        "{stdout}"
    );
    assert_eq!(
        code == 1,
        stdout.contains("time regression") && stdout.contains("FAILED"),
        "{stdout}"
    );
}

#[test]
fn a_time_change_is_split_into_the_search_tree_and_the_time_per_node() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(tmp.path());
    // dlx: a tree three times the size at the same cost per node (time
    // and nodes tripled); singles: the same tree, each node twice as dear.
    edit_csv(&cur.join("puzzles.csv"), |h, row| {
        let (ns, nodes) = (col(h, "ns"), col(h, "nodes"));
        let t: u64 = row[ns].parse().unwrap();
        match row[col(h, "solver")].as_str() {
            "dlx" => {
                let n: u64 = row[nodes].parse().unwrap();
                row[ns] = (3 * t).to_string();
                row[nodes] = (3 * n.max(1)).to_string();
            }
            _ => row[ns] = (2 * t).to_string(),
        }
    });
    let (_, doc) = compare_json(
        &base,
        &cur,
        &["--allow-algorithm-change", "--metric", "time"],
    );
    for r in results(&doc) {
        let solver = r["solver"].as_str().unwrap();
        let (time, nodes, puzzles) = common::work_means(&base, &cur, "fix", solver);
        let w = &r["time"]["work"];
        assert_eq!(w["puzzles"], puzzles, "{solver}: {w}");
        assert!(
            (f(&w["time_ratio"]) - time).abs() < 1e-9 * time,
            "{solver}: {w}"
        );
        assert!(
            (f(&w["nodes_ratio"]) - nodes).abs() < 1e-9 * nodes,
            "{solver}: {w}"
        );
        let per_node = f(&w["per_node_ratio"]);
        assert!((per_node - time / nodes).abs() < 1e-9, "{solver}: {w}");
        // The time ratio the verdict is on is the product of the two.
        assert!((f(&r["time"]["ratio"]) - nodes * per_node).abs() < 1e-6);
        let (want_cause, want_nodes) = match solver {
            "dlx" => ("tree", 3.0),
            _ => ("per_node", 1.0),
        };
        assert_eq!(w["cause"], want_cause, "{solver}: {w}");
        assert!((nodes - want_nodes).abs() < 0.01, "{solver}: {nodes}");
        assert_eq!(r["time"]["verdict"], "regression");
    }
    // The text says which moved, in the verdict and the columns.
    let out = compare(&base, &cur)
        .args(["--allow-algorithm-change", "--metric", "time"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("REGRESSION: the search tree"), "{text}");
    assert!(text.contains("REGRESSION: time per node"), "{text}");
    assert!(
        text.contains("tree, per node: the time ratio split"),
        "{text}"
    );
}

/// Sets the `cpu_model` of the run in `dir` (`run.json` is not among the
/// checksummed files).
fn set_cpu(dir: &Path, model: Option<&str>) {
    let path = dir.join("run.json");
    let mut run = read_json(&path);
    assert!(run.get("cpu_model").is_some(), "{run}");
    run["cpu_model"] = model.map_or(Value::Null, Value::from);
    std::fs::write(&path, serde_json::to_string_pretty(&run).unwrap()).unwrap();
}

#[test]
fn a_baseline_from_another_cpu_has_times_not_comparable_and_counters_still_gate() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cur) = base_and_copy(dir.path());
    for run in [&base, &cur] {
        set_cpu(run, Some("Baseline CPU @ 2.00GHz"));
    }
    // 1.5 times slower: a regression on the same machine...
    scale_times(&cur, |_| 1.5, 1.5);
    let (_, doc) = compare_json(&base, &cur, &[]);
    assert!(
        results(&doc)
            .iter()
            .all(|r| r["time"]["verdict"] == "regression"),
        "{doc}"
    );
    assert_eq!(doc["times_comparable"], true);
    assert!(doc["other_cpu"].is_null());
    // ... and an unknown CPU on one side is not another CPU.
    set_cpu(&cur, None);
    let (_, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(doc["times_comparable"], true, "{doc}");
    // On another CPU: no verdict, whatever --metric; the ratio still shows.
    set_cpu(&cur, Some("Some Other CPU @ 1.00GHz"));
    for metric in ["nodes", "time", "both"] {
        let (code, doc) = compare_json(&base, &cur, &["--metric", metric]);
        assert_eq!(code, 0, "{metric}: {doc}");
        assert_eq!(doc["times_comparable"], false, "{doc}");
        assert_eq!(doc["other_cpu"]["baseline"], "Baseline CPU @ 2.00GHz");
        assert_eq!(doc["other_cpu"]["current"], "Some Other CPU @ 1.00GHz");
        for r in results(&doc) {
            let t = &r["time"];
            assert_eq!(t["verdict"], "not_comparable", "{metric}: {r}");
            assert!((f(&t["ratio"]) - 1.5).abs() < 0.01, "{t}");
        }
        assert_eq!(doc["outcome"]["time_regressions"], 0);
        assert_eq!(doc["outcome"]["failed"], false);
        let text = String::from_utf8(
            compare(&base, &cur)
                .args(["--metric", metric])
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap();
        assert!(
            !text.contains("regression (not gating)"),
            "{metric}: {text}"
        );
        assert!(!text.contains("no significant change"), "{metric}: {text}");
        assert!(!text.contains("REGRESSION"), "{metric}: {text}");
        assert_eq!(
            text.matches("not comparable (another CPU)").count(),
            // Each row's verdict, the settings line, the outcome line.
            2 + 2,
            "{metric}: {text}"
        );
        assert!(
            text.contains("OK (0 algorithm changes; times not comparable (another CPU))"),
            "{text}"
        );
        assert!(
            text.contains("Note: different CPUs (baseline "),
            "{metric}: {text}"
        );
    }
    let md = String::from_utf8(
        compare(&base, &cur)
            .args(["--format", "markdown"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(md.contains("| not comparable (another CPU) |"), "{md}");
    // Node counts are the code's, on any CPU: a change still fails.
    edit_csv(&cur.join("puzzles.csv"), |h, row| {
        if row[col(h, "solver")] == "dlx" && row[col(h, "line")] == "7" {
            let i = col(h, "nodes");
            row[i] = (row[i].parse::<u64>().unwrap() + 1).to_string();
        }
    });
    let (code, doc) = compare_json(&base, &cur, &[]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["outcome"]["algorithm_changes"], 1);
    assert_eq!(results(&doc)[0]["time"]["verdict"], "not_comparable");
    compare(&base, &cur)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("ALGORITHM CHANGE"))
        .stdout(predicate::str::contains(
            "FAILED (1 algorithm change; times not comparable (another CPU))",
        ));
}
