//! End-to-end tests of `dlxbench bench` and of the harness library, on
//! fixture corpora written by the tests themselves.

use crate::common;

use std::collections::HashMap;

use predicates::prelude::*;

use common::{
    assert_no_temporaries, bench_into, blank_one_per_row, dlxbench, line_of, pattern, read_csv,
    read_json, write_file,
};
use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, DiscrepancyKind, Lineup, Mode, Setup};
use dlxbench::rng::SplitMix;
use dlxbench::solvers::{Budget, Outcome, Solver, SolverEntry, SolverSet, Status};
use dlxbench::sudoku::{BoxShape, Grid};

/// A valid full 9x9 grid (the shifting pattern).
fn full_grid() -> Grid {
    let mut g = Grid::empty(BoxShape::NINE);
    g.cells_mut().copy_from_slice(&pattern(3, 3));
    g
}

fn line(g: &Grid) -> String {
    line_of(g.cells(), g.side())
}

/// `count` puzzles with a unique solution: random symmetry images of the
/// full grid with one blank per row (each blank is forced by its row).
fn unique_puzzles(count: usize, seed: u64) -> Vec<String> {
    let full = full_grid();
    let mut image = Grid::empty(BoxShape::NINE);
    let mut rng = SplitMix::new(seed);
    (0..count)
        .map(|i| {
            dlxbench::sudoku::symmetry_image(
                &full,
                &mut image,
                &mut SplitMix::for_item(seed, i as u64),
            );
            // One blank per row, at a random column: forced by the row.
            blank_one_per_row(image.cells_mut(), 9, |_| rng.below(9));
            line(&image)
        })
        .collect()
}

/// A puzzle with at least 6 solutions: the full grid with its first band
/// blank (its three rows can be permuted).
fn multi_puzzle() -> String {
    let mut g = full_grid();
    g.cells_mut()[..27].fill(0);
    line(&g)
}

/// No solution, no clue clash: cell (0,0) sees 1-4 in its row, 5-8 in its
/// column and 9 in its box.
fn no_solution() -> String {
    let mut g = Grid::empty(BoxShape::NINE);
    for (c, v) in [(1, 1), (2, 2), (3, 3), (4, 4)] {
        g.set(0, c, v);
    }
    g.set(1, 1, 9);
    for (r, v) in [(3, 5), (4, 6), (5, 7), (6, 8)] {
        g.set(r, 0, v);
    }
    line(&g)
}
/// No solution: two 5s in the first row.
const CLASH: &str =
    "5...5............................................................................";
/// A puzzle with a unique solution that needs some search (Project Euler
/// 96, grid 1).
const EULER: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
/// A hard puzzle with a unique solution (Norvig's "hardest" first line):
/// plain backtracking needs more than its default budget.
const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn all_solvers() -> String {
    SolverSet::<Grid>::builtin().names().join(",")
}

#[test]
fn end_to_end_writes_every_file_with_right_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = unique_puzzles(40, 1);
    lines.push(EULER.to_string());
    let corpus = write_file(dir.path(), "fix.txt", lines.join("\n") + "\n");
    let out = dir.path().join("out");
    let solvers = all_solvers();
    let n_solvers = solvers.split(',').count();
    bench_into(&out, &["--threads", "2", "--solvers", &solvers], &corpus)
        .assert()
        .success()
        .stdout(predicate::str::contains("fix: 41 puzzles"))
        .stdout(predicate::str::contains("p99.9"))
        .stdout(predicate::str::contains(out.display().to_string()));

    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(summary.len(), n_solvers);
    for row in &summary {
        assert_eq!(row["corpus"], "fix");
        assert_eq!(row["puzzles"], "41", "{row:?}");
        assert_eq!(row["solved"], "41");
        assert_eq!(row["unsolvable"], "0");
        assert_eq!(row["multiple"], "0");
        assert_eq!(row["malformed"], "0");
        // One chunk: one worker, whatever -j asked (idle workers would
        // only compete for the cores).
        assert_eq!(row["threads"], "1");
        assert_eq!(row["mode"], "unique");
        let p50: u64 = row["p50_ns"].parse().unwrap();
        let max: u64 = row["max_ns"].parse().unwrap();
        assert!(p50 > 0 && p50 <= max);
        assert!(row["puzzles_per_s"].parse::<f64>().unwrap() > 0.0);
    }

    let puzzles = read_csv(&out.join("puzzles.csv"));
    assert_eq!(puzzles.len(), 41 * n_solvers);
    // Corpus order whatever the threads: lines ascending, solvers in order.
    let lines_seen: Vec<u64> = puzzles.iter().map(|r| r["line"].parse().unwrap()).collect();
    assert!(lines_seen.windows(2).all(|w| w[0] <= w[1]));
    assert!(puzzles
        .iter()
        .all(|r| r["status"] == "unique" && r["solutions"] == "1"));
    // Link updates: recorded per puzzle for the exact-cover solvers (dlx
    // and dc, which make the same kind of update) only, and summed in the
    // summary; empty for the other solvers.
    let cover = ["dlx", "dc"];
    let mut updates = std::collections::BTreeMap::<String, u64>::new();
    for r in &puzzles {
        if cover.contains(&r["solver"].as_str()) {
            let u: u64 = r["updates"].parse().expect("dlx and dc record updates");
            assert!(u > 0, "{r:?}");
            *updates.entry(r["solver"].clone()).or_default() += u;
        } else {
            assert_eq!(r["updates"], "", "{r:?}");
        }
    }
    assert_eq!(updates.len(), 2, "{updates:?}");
    for row in &summary {
        match updates.get(&row["solver"]) {
            Some(total) => assert_eq!(row["total_updates"], total.to_string()),
            None => assert_eq!(row["total_updates"], "", "{row:?}"),
        }
    }
    // Mems: per puzzle for the solvers that count them (every row or
    // none), their sum in the summary; dc counts them, dlx none.
    for row in &summary {
        let rows: Vec<_> = puzzles
            .iter()
            .filter(|r| r["solver"] == row["solver"])
            .collect();
        let mems: Vec<Option<u64>> = rows.iter().map(|r| r["mems"].parse().ok()).collect();
        match row["total_mems"].as_str() {
            "" => assert!(mems.iter().all(Option::is_none), "{row:?}"),
            total => assert_eq!(
                mems.iter().map(|m| m.expect("every row")).sum::<u64>(),
                total.parse::<u64>().unwrap(),
                "{row:?}"
            ),
        }
        match row["solver"].as_str() {
            "dlx" => assert_eq!(row["total_mems"], "", "{row:?}"),
            "dc" => assert!(row["total_mems"].parse::<u64>().unwrap() > 0, "{row:?}"),
            _ => {}
        }
    }

    for s in solvers.split(',') {
        let text = std::fs::read_to_string(out.join(format!("fix.{s}.hgrm"))).unwrap();
        let mut last = None;
        for l in text.lines().skip(2).take_while(|l| !l.starts_with('#')) {
            let cols: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            assert!(cols.len() == 3 || cols.len() == 4, "{l}");
            last = Some(cols);
        }
        let last = last.expect("percentile rows");
        assert_eq!(last[1], 1.0);
        assert_eq!(last[2], 41.0);
        assert!(text.contains("Total count    =           41]"));
    }

    let hist = read_json(&out.join("histograms.json"));
    let entries = hist["histograms"].as_array().unwrap();
    assert_eq!(entries.len(), n_solvers);
    for e in entries {
        let h = dlxbench::report::histograms_json::decode(e["data"].as_str().unwrap()).unwrap();
        assert_eq!(h.len(), 41);
    }

    let run = read_json(&out.join("run.json"));
    for field in [
        "dlxbench_version",
        "git_revision",
        "command_line",
        "rustc_version",
        "cpu_model",
        "cores",
        "threads",
        "mode",
        "solvers",
        "corpora",
        "started",
        "finished",
        "states_created",
        "clock_overhead_ns",
    ] {
        assert!(run.get(field).is_some(), "run.json lacks {field}");
    }
    assert_eq!(run["threads"], 1, "one chunk: one worker");
    let c = &run["corpora"][0];
    assert_eq!(c["bytes"], std::fs::metadata(&corpus).unwrap().len());
    assert_eq!(c["sha256"].as_str().unwrap().len(), 64);
    assert!(c["path"].as_str().unwrap().ends_with("fix.txt"));

    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| solver | puzzles |"));
    assert_no_temporaries(&out);
}

#[test]
fn statuses_are_right_for_every_solver_in_unique_mode() {
    let dir = tempfile::tempdir().unwrap();
    let empty = ".".repeat(81);
    let text = format!(
        "# fixture ALLOWZERO\n{}\n{}\n{}\n{}\n{}\n{}\n",
        unique_puzzles(1, 9)[0],
        multi_puzzle(),
        no_solution(),
        CLASH,
        empty,
        EULER
    );
    let corpus = write_file(dir.path(), "mixed.txt", text);
    let out = dir.path().join("out");
    bench_into(&out, &["--solvers", &all_solvers()], &corpus)
        .assert()
        .success();
    let expected: HashMap<u64, (&str, &str)> = [
        (2, ("unique", "1")),
        (3, ("multiple", "2")),
        (4, ("none", "0")),
        (5, ("none", "0")),
        (6, ("multiple", "2")),
        (7, ("unique", "1")),
    ]
    .into_iter()
    .collect();
    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows.len(), 6 * all_solvers().split(',').count());
    for r in &rows {
        let line: u64 = r["line"].parse().unwrap();
        let (status, solutions) = expected[&line];
        assert_eq!(
            (r["status"].as_str(), r["solutions"].as_str()),
            (status, solutions),
            "{} on line {line}",
            r["solver"]
        );
    }
    for row in read_csv(&out.join("summary.csv")) {
        assert_eq!(
            (
                &row["solved"][..],
                &row["unsolvable"][..],
                &row["multiple"][..]
            ),
            ("4", "2", "2"),
            "{}",
            row["solver"]
        );
    }
}

#[test]
fn modes_first_and_count() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_file(
        dir.path(),
        "m.txt",
        format!("{}\n{}\n", multi_puzzle(), HARD),
    );
    let out = dir.path().join("first");
    bench_into(&out, &["--solvers", "dlx", "--mode", "first"], &corpus)
        .assert()
        .success();
    let rows = read_csv(&out.join("puzzles.csv"));
    assert!(rows
        .iter()
        .all(|r| r["status"] == "solved" && r["solutions"] == "1"));

    let out = dir.path().join("count");
    bench_into(&out, &["--solvers", "dlx", "--mode", "count"], &corpus)
        .assert()
        .success();
    let rows = read_csv(&out.join("puzzles.csv"));
    // The blank first band: its 3 rows can be permuted, and within each
    // box... exactly the 3! row orders and the 3! orders of its rows'
    // value triples; at least 6.
    let band: u64 = rows[0]["solutions"].parse().unwrap();
    assert!(band >= 6, "{band}");
    assert_eq!(rows[1]["solutions"], "1");

    let out = dir.path().join("capped");
    let capped = ["--solvers", "dlx", "--mode", "count", "--limit", "3"];
    bench_into(&out, &capped, &corpus).assert().success();
    assert_eq!(read_csv(&out.join("puzzles.csv"))[0]["solutions"], "3");

    dlxbench()
        .args(["bench", "--solvers", "dlx", "--limit", "3"])
        .arg(&corpus)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--mode count"));
}

#[test]
fn malformed_lines_are_reported_skipped_and_make_the_exit_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let good = unique_puzzles(3, 2);
    let text = format!(
        "{}\n{}x\n{}\n12345\n{}\n",
        good[0],
        &good[1][..80],
        good[1],
        good[2]
    );
    let corpus = write_file(dir.path(), "bad.txt", text);
    let out = dir.path().join("out");
    // The input policy of every subcommand: the puzzles are run, the
    // unreadable lines reported, and the exit status is 1.
    bench_into(&out, &["--solvers", "dlx"], &corpus)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("2 malformed line(s)"))
        .stderr(predicate::str::contains("bad.txt: line 2, column 81"))
        .stderr(predicate::str::contains("line 4:"))
        .stderr(predicate::str::contains(
            "dlxbench: 2 malformed line(s) skipped: a line that is not a puzzle makes the exit \
             status 1",
        ))
        // 2 of 5 lines: not "most likely not a puzzle file".
        .stderr(predicate::str::contains("most likely").not())
        .stdout(predicate::str::contains("2 malformed lines skipped"));
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(summary[0]["puzzles"], "3");
    assert_eq!(summary[0]["malformed"], "2");
    let lines: Vec<String> = read_csv(&out.join("puzzles.csv"))
        .iter()
        .map(|r| r["line"].clone())
        .collect();
    assert_eq!(lines, ["1", "3", "5"]);

    let strict = dir.path().join("strict");
    bench_into(&strict, &["--solvers", "dlx", "--strict"], &corpus)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("2 malformed line(s) skipped"));
    // Results are still written.
    assert!(strict.join("summary.csv").exists());
    // So is --parse-only's verdict.
    dlxbench()
        .args(["bench", "--parse-only"])
        .arg(&corpus)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("bad: 3 puzzles, 2 malformed"));
}

#[test]
fn a_file_of_prose_is_said_to_be_no_corpus_and_fails() {
    // A README: prose, and a line of digits that happens to be a 4x4
    // puzzle. Most lines are not puzzles: the run says what the file most
    // likely is, and exits 1 (the input policy), its results written.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("# Title\n\nA batch benchmark harness for Sudoku solvers.\n");
    for i in 0..30 {
        text.push_str(&format!(
            "Paragraph {i}: it runs solvers over corpora of puzzles.\n"
        ));
    }
    text.push_str("1..4..2..3..4..1\n");
    let readme = write_file(dir.path(), "README.md", text);
    let out = dir.path().join("out");
    bench_into(&out, &["-q", "--solvers", "dlx"], &readme)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "README: 31 malformed line(s) skipped",
        ))
        .stderr(predicate::str::contains(format!(
            "dlxbench: {}: 31 of its 32 puzzle lines are malformed (1 read): most likely not a \
             puzzle file, or puzzles of another kind or notation",
            readme.display()
        )))
        .stderr(predicate::str::contains(
            "31 malformed line(s) skipped: a line that is not a puzzle makes the exit status 1",
        ));
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(
        (
            summary[0]["puzzles"].as_str(),
            summary[0]["malformed"].as_str()
        ),
        ("1", "31")
    );
}

#[test]
fn unexpected_unsolvable_fails_only_with_strict() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_file(
        dir.path(),
        "zero.txt",
        format!("{}\n{HARD}\n", no_solution()),
    );
    let strict = ["--solvers", "dlx", "--strict"];
    bench_into(&dir.path().join("a"), &["--solvers", "dlx"], &corpus)
        .assert()
        .success()
        .stdout(predicate::str::contains("not marked ALLOWZERO"));
    bench_into(&dir.path().join("b"), &strict, &corpus)
        .assert()
        .code(1);
    std::fs::write(&corpus, format!("# ALLOWZERO\n{}\n{HARD}\n", no_solution())).unwrap();
    bench_into(&dir.path().join("c"), &strict, &corpus)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ALLOWZERO (unsolvable puzzles expected)",
        ));
}

#[test]
fn empty_missing_and_comment_only_inputs_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write_file(dir.path(), "empty.txt", "");
    let comments = write_file(dir.path(), "comments.txt", "# nothing\n\n");
    for (solver, input, message) in [
        ("dlx", empty.clone(), "empty.txt: no puzzles"),
        ("dlx", comments, "no puzzles"),
        ("dlx", dir.path().join("missing.txt"), "missing.txt"),
        ("nosuch", empty, "unknown solver `nosuch`"),
    ] {
        dlxbench()
            .args(["bench", "--solvers", solver])
            .arg(input)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn directory_runs_every_txt_and_empty_directory_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let corpora = dir.path().join("corpora");
    std::fs::create_dir(&corpora).unwrap();
    write_file(&corpora, "a.txt", unique_puzzles(3, 3).join("\n"));
    write_file(&corpora, "b.txt", unique_puzzles(5, 4).join("\n"));
    write_file(&corpora, "notes.md", "not a corpus");
    let out = dir.path().join("out");
    bench_into(&out, &["--solvers", "dlx"], &corpora)
        .assert()
        .success();
    let summary = read_csv(&out.join("summary.csv"));
    let counts: Vec<(&str, &str)> = summary
        .iter()
        .map(|r| (r["corpus"].as_str(), r["puzzles"].as_str()))
        .collect();
    assert_eq!(counts, [("a", "3"), ("b", "5")]);
    assert!(out.join("a.dlx.hgrm").exists() && out.join("b.dlx.hgrm").exists());

    let none = dir.path().join("none");
    std::fs::create_dir(&none).unwrap();
    dlxbench()
        .args(["bench", "--solvers", "dlx"])
        .arg(&none)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no corpus"));
}

#[test]
fn stdin_crlf_and_missing_final_newline() {
    let dir = tempfile::tempdir().unwrap();
    let p = unique_puzzles(3, 5);
    let text = format!("# header\r\n{}\r\n\r\n{}\r\n{}", p[0], p[1], p[2]);
    let out = dir.path().join("out");
    bench_into(&out, &["--solvers", "dlx"], "-")
        .write_stdin(text.clone())
        .assert()
        .success();
    let rows = read_csv(&out.join("puzzles.csv"));
    let lines: Vec<&str> = rows.iter().map(|r| r["line"].as_str()).collect();
    assert_eq!(lines, ["2", "4", "5"]);
    assert!(rows
        .iter()
        .all(|r| r["corpus"] == "stdin" && r["status"] == "unique"));
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["corpora"][0]["path"], serde_json::Value::Null);

    // The same text from a mapped file gives the same lines.
    let file = write_file(dir.path(), "crlf.txt", text);
    let out2 = dir.path().join("out2");
    let quiet = ["--solvers", "dlx", "--no-per-puzzle", "--quiet"];
    bench_into(&out2, &quiet, &file)
        .assert()
        .success()
        .stdout(predicate::str::is_empty());
    assert!(!out2.join("puzzles.csv").exists());
    assert_eq!(read_csv(&out2.join("summary.csv"))[0]["puzzles"], "3");
}

#[test]
fn solver_states_equal_threads_times_solvers_for_thousands_of_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = write_file(
        dir.path(),
        "many.txt",
        unique_puzzles(5000, 6).join("\n") + "\n",
    );
    let solvers = all_solvers();
    let n_solvers = solvers.split(',').count() as u64;
    for threads in [1u64, 3] {
        let out = dir.path().join(format!("out{threads}"));
        dlxbench()
            .args(["bench", "--no-per-puzzle", "--quiet", "--solvers", &solvers])
            .args(["--threads", &threads.to_string(), "--out"])
            .arg(&out)
            .arg(&corpus)
            .arg(&corpus) // twice: states persist across corpora
            .assert()
            .success();
        let run = read_json(&out.join("run.json"));
        assert_eq!(run["states_created"], threads * n_solvers);
        assert_eq!(run["corpora"][0]["puzzles"], 5000);
        assert_eq!(run["corpora"][1]["name"], "many-2");
    }
}

#[test]
fn shuffle_and_permute_are_reproducible_and_keep_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = unique_puzzles(300, 7);
    lines.push(multi_puzzle());
    let corpus = write_file(dir.path(), "s.txt", lines.join("\n"));
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        bench_into(&out, &[&["--solvers", "dlx"], extra].concat(), &corpus)
            .assert()
            .success();
        read_csv(&out.join("puzzles.csv"))
            .into_iter()
            .map(|r| {
                (
                    r["line"].clone(),
                    r["solutions"].clone(),
                    r["nodes"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let plain = run("plain", &[]);
    let a = run("a", &["--shuffle", "11", "--threads", "1"]);
    let b = run("b", &["--shuffle", "11", "--threads", "2"]);
    assert_eq!(a, b, "same seed, same order, whatever the threads");
    assert_ne!(a, plain, "shuffled");
    let mut sorted = a.clone();
    sorted.sort_by_key(|r| r.0.parse::<u64>().unwrap());
    assert_eq!(sorted, plain, "same puzzles");

    let p1 = run("p1", &["--permute", "5", "--passes", "2", "--warmup", "10"]);
    let p2 = run("p2", &["--permute", "5", "--threads", "1"]);
    assert_eq!(p1, p2);
    let counts = |v: &[(String, String, String)]| v.iter().map(|r| r.1.clone()).collect::<Vec<_>>();
    assert_eq!(counts(&p1), counts(&plain), "images keep solution counts");
}

/// A solver that is wrong on purpose: DLX, but it reports no solution for
/// every puzzle with an even number of clues, and corrupts the first cell of
/// the solution when the clue count is divisible by 3.
struct Wrong(Box<dyn Solver<Grid>>);

impl Solver<Grid> for Wrong {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        let mut out = self.0.solve(puzzle, limit, budget, solution);
        let clues = puzzle.clues();
        if clues.is_multiple_of(2) {
            out.solutions = 0;
        } else if clues.is_multiple_of(3) && out.solutions > 0 {
            let v = solution.cells()[0];
            solution.cells_mut()[0] = v % 9 + 1;
        }
        out
    }
}

#[test]
fn a_wrong_solver_is_caught_and_fails_the_run() {
    let mut set = SolverSet::<Grid>::builtin();
    let dlx = set.by_name("dlx").unwrap().clone();
    let wrong = SolverEntry::new("wrong", "test-only, deliberately wrong", move || {
        Box::new(Wrong(dlx.make()))
    });
    set.add(wrong).unwrap();
    let mut text = unique_puzzles(200, 8).join("\n");
    text.push('\n');
    let expected_bad = text
        .lines()
        .filter(|l| {
            let clues = l.bytes().filter(|&b| b != b'.').count();
            clues.is_multiple_of(2) || clues.is_multiple_of(3)
        })
        .count();
    assert!(expected_bad > 0);
    let corpus = Corpus::from_vec("fixture", text.into_bytes()).unwrap();
    let lineup = Lineup::new(set.select(&["dlx".into(), "wrong".into()]).unwrap());
    let mut setup = Setup::new(lineup);
    setup.config_mut().threads = 2;
    setup.config_mut().mode = Mode::Unique;
    setup.config_mut().warmup = 30; // warm-up findings must not be listed twice
    let result = harness::run(&[corpus], &setup, None, None).unwrap();
    assert_eq!(
        result.discrepancies.len(),
        expected_bad,
        "one finding per bad puzzle"
    );
    assert!(
        result.failed(false),
        "a wrong solver fails the run (exit 1)"
    );
    let lines: std::collections::BTreeSet<u64> =
        result.discrepancies.iter().map(|p| p.line).collect();
    assert_eq!(lines.len(), expected_bad);
    for p in &result.discrepancies {
        assert_eq!(p.corpus, "fixture");
        match &p.kind {
            DiscrepancyKind::Disagreement => {
                assert_eq!(p.counts[0], ("dlx".into(), 1, Status::Unique));
                assert_eq!(p.counts[1], ("wrong".into(), 0, Status::NoSolution));
                assert!(p.to_string().contains("dlx=1 (unique), wrong=0 (none)"));
            }
            DiscrepancyKind::InvalidSolution(name) => {
                assert_eq!(name, "wrong");
                assert_eq!(p.counts[1].2, Status::Invalid);
            }
            DiscrepancyKind::CountAboveLimit { .. } => panic!("no count above the limit: {p}"),
            DiscrepancyKind::ImageDisagreement(_) => panic!("no images: {p}"),
        }
    }
    let stats = &result.corpora[0].solvers[1];
    assert_eq!(stats.invalid + stats.unsolvable, expected_bad as u64);
    assert_eq!(result.states_created, 2 * 2);
}

#[test]
fn time_budget_stops_a_long_search_and_zero_means_none() {
    // The 16x16 empty grid has ~10^98 solutions: counting them all never
    // ends, so only the time budget can stop it.
    let dir = tempfile::tempdir().unwrap();
    let empty = ".".repeat(256);
    let corpus = write_file(dir.path(), "e.txt", format!("{empty}\n{empty}\n"));
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    bench_into(
        &out,
        &[
            "--solvers",
            "dlx,heuristic",
            "--mode",
            "count",
            "--budget-nodes",
            "0",
            "--budget-time",
            "50ms",
        ],
        &corpus,
    )
    .assert()
    .success()
    .stdout(predicate::str::contains(
        "(budget: dlx 50ms, heuristic 50ms)",
    ));
    // Generous: the point is that it ends at all.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["status"] == "budget"), "{rows:?}");
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["solvers"][0]["budget_time_s"], 0.05);
    assert!(run["solvers"][0]["budget_nodes"].is_null());
    // `--budget-time 0` and `--budget-nodes 0`: no budget at all.
    bench_into(
        &dir.path().join("out0"),
        &[
            "--solvers",
            "dlx",
            "--budget-nodes",
            "0",
            "--budget-time",
            "0",
        ],
        corpus_of_unique(dir.path()),
    )
    .assert()
    .success()
    .stdout(predicate::str::contains("over-budget solves.\n"));
    // A malformed duration is a usage error naming the flag.
    bench_into(
        &dir.path().join("out1"),
        &["--budget-time", "fast"],
        &corpus,
    )
    .assert()
    .code(2)
    .stderr(predicate::str::contains("--budget-time"));
}

fn corpus_of_unique(dir: &std::path::Path) -> std::path::PathBuf {
    write_file(dir, "u.txt", unique_puzzles(3, 10).join("\n"))
}

#[test]
fn over_budget_solves_are_counted_and_kept_out_of_percentiles() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = unique_puzzles(4, 10);
    lines.push(HARD.to_string());
    let corpus = write_file(dir.path(), "b.txt", lines.join("\n"));
    let out = dir.path().join("out");
    bench_into(&out, &["--solvers", "dlx", "--budget-nodes", "20"], &corpus)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "exclude over-budget solves (budget: dlx 20 nodes or 10s)",
        ));
    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows[4]["status"], "budget");
    assert!(rows[..4].iter().all(|r| r["status"] == "unique"));
    let s = &read_csv(&out.join("summary.csv"))[0];
    assert_eq!(
        (&s["puzzles"][..], &s["budget"][..], &s["solved"][..]),
        ("5", "1", "4")
    );
    assert_eq!(s["budget_nodes"], "20");
    let hist = read_json(&out.join("histograms.json"));
    assert_eq!(
        hist["histograms"][0]["count"], 4,
        "budget solve not in the histogram"
    );
}

/// A one-line puzzle of any shape: the shifting-pattern grid with one blank
/// per row (unique), symbols 1-9 then A-Z.
fn pattern_line(r: usize, c: usize) -> String {
    let n = r * c;
    let mut cells = pattern(r, c);
    blank_one_per_row(&mut cells, n, |row| (row * 7) % n);
    line_of(&cells, n)
}

#[test]
fn mixed_sizes_in_one_corpus_and_box_option() {
    let dir = tempfile::tempdir().unwrap();
    let lines = [
        pattern_line(2, 2),
        pattern_line(2, 3),
        pattern_line(3, 3),
        pattern_line(4, 4),
    ];
    let corpus = write_file(dir.path(), "sizes.txt", lines.join("\n"));
    let out = dir.path().join("out");
    bench_into(&out, &["--solvers", &all_solvers()], &corpus)
        .assert()
        .success();
    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows.len(), 4 * all_solvers().split(',').count());
    assert!(rows.iter().all(|r| r["status"] == "unique"), "{rows:?}");

    // 6x6 with boxes 3 rows tall: the 2x3 pattern is not valid there.
    let six = write_file(dir.path(), "six.txt", pattern_line(3, 2));
    let out = dir.path().join("six");
    bench_into(&out, &["--solvers", "dlx", "--box", "3x2"], &six)
        .assert()
        .success();
    assert_eq!(read_csv(&out.join("puzzles.csv"))[0]["status"], "unique");
}

#[test]
fn a_line_of_20_mb_is_rejected_with_its_file_and_line() {
    // One line longer than hundreds of chunks, between two puzzles: the
    // chunks' boundaries are found in one pass over it (it was once scanned
    // again for every chunk it spans: 21 s for 100 MB), and the line is
    // reported as malformed, the puzzles around it run.
    let dir = tempfile::tempdir().unwrap();
    let good = unique_puzzles(2, 5);
    let mut text = format!("{}\n", good[0]).into_bytes();
    text.resize(text.len() + 20_000_000, b'1');
    text.extend_from_slice(format!("\n{}\n", good[1]).as_bytes());
    let corpus = write_file(dir.path(), "long.txt", text);
    let out = dir.path().join("out");
    bench_into(&out, &["-q", "--solvers", "dlx", "--no-plots"], &corpus)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "long: 1 malformed line(s) skipped",
        ))
        .stderr(predicate::str::contains(format!(
            "{}: line 2: expected",
            corpus.display()
        )))
        .stderr(predicate::str::contains("most likely").not());
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(
        (
            summary[0]["puzzles"].as_str(),
            summary[0]["malformed"].as_str()
        ),
        ("2", "1")
    );
    let lines: Vec<String> = read_csv(&out.join("puzzles.csv"))
        .iter()
        .map(|r| r["line"].clone())
        .collect();
    assert_eq!(lines, ["1", "3"]);
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["corpora"][0]["lines"], 3);
}
