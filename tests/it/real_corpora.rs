//! Tests on the real public corpora, which are not in the repository: fetch
//! them first (`dlxbench datasets fetch`, or `--from DIR` from a mirror),
//! then run `cargo test -- --include-ignored`. CI does both when the mirror
//! `../shared/datasets` exists.
//!
//! Expected solution counts are the catalogue's (`dlxbench::datasets`),
//! which come from the mirror's README.

use crate::common;

use std::path::PathBuf;

use common::repo_path;
use dlxbench::datasets::{self, Corpus, SolutionCounts};
use dlxbench::solvers::{Budget, SolverSet};
use dlxbench::sudoku::{parse_line_into, Grid, ParseOptions};

const NEEDS: &str = "needs fetched corpora: dlxbench datasets fetch";

fn datasets_dir() -> PathBuf {
    repo_path("datasets")
}

fn corpus(name: &str) -> (&'static Corpus, Vec<u8>) {
    let c = datasets::by_name(name).unwrap();
    let path = datasets::path_in(c, &datasets_dir());
    let bytes =
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} ({NEEDS} {name})", path.display()));
    assert_eq!(
        datasets::sha256_hex(&bytes),
        c.sha256,
        "{}: wrong checksum; fetch it again",
        path.display()
    );
    (c, bytes)
}

/// Solution counts (limit 2) by `solver` of every `stride`-th puzzle line
/// (the first, then every `stride`-th after it), on all cores.
fn counts(text: &[u8], solver: &str, stride: usize) -> Vec<u64> {
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty() && l[0] != b'#')
        .step_by(stride)
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = lines.len().div_ceil(threads).max(1);
    let set = SolverSet::<Grid>::builtin();
    let entry = set.by_name(solver).unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .enumerate()
            .map(|(part, lines)| {
                s.spawn(move || {
                    let mut solver = entry.make();
                    let mut puzzle = Grid::empty(dlxbench::sudoku::BoxShape::NINE);
                    let mut solution = puzzle.clone();
                    lines
                        .iter()
                        .enumerate()
                        .map(|(i, line)| {
                            let number = (part * chunk + i) * stride + 1;
                            parse_line_into(line, ParseOptions::default(), &mut puzzle)
                                .unwrap_or_else(|e| panic!("puzzle {number}: {e}"));
                            let outcome =
                                solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
                            if outcome.solutions >= 1 {
                                assert!(
                                    dlxbench::sudoku::is_solution_of(&solution, &puzzle),
                                    "puzzle {number}: {} gave a wrong solution",
                                    entry.name()
                                );
                            }
                            outcome.solutions
                        })
                        .collect::<Vec<u64>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

fn tally(counts: &[u64]) -> SolutionCounts {
    SolutionCounts {
        none: counts.iter().filter(|&&c| c == 0).count(),
        unique: counts.iter().filter(|&&c| c == 1).count(),
        multiple: counts.iter().filter(|&&c| c >= 2).count(),
        undecided: 0,
    }
}

/// Every solver in `solvers` gives the catalogue's counts, and they agree
/// puzzle by puzzle.
fn check_counts(name: &str, solvers: &[&str]) {
    check_counts_sampled(name, solvers, &[]);
}

/// As [`check_counts`] for `solvers`; each `(solver, stride)` of `sampled`
/// solves every `stride`-th puzzle only, and must agree on those with
/// `solvers[0]`.
fn check_counts_sampled(name: &str, solvers: &[&str], sampled: &[(&str, usize)]) {
    let (c, bytes) = corpus(name);
    let expected = c.solutions.unwrap();
    let mut first: Option<Vec<u64>> = None;
    for &solver in solvers {
        let got = counts(&bytes, solver, 1);
        assert_eq!(got.len(), c.puzzles, "{name}");
        assert_eq!(tally(&got), expected, "{name} with {solver}");
        match &first {
            None => first = Some(got),
            Some(f) => assert!(f == &got, "{name}: {solver} disagrees with {}", solvers[0]),
        }
    }
    let first = first.expect("at least one solver on every puzzle");
    for &(solver, stride) in sampled {
        let got = counts(&bytes, solver, stride);
        let reference: Vec<u64> = first.iter().copied().step_by(stride).collect();
        assert_eq!(got.len(), reference.len(), "{name}");
        for (i, (g, r)) in got.iter().zip(&reference).enumerate() {
            assert_eq!(
                g,
                r,
                "{name}: puzzle {}: {solver} disagrees with {}",
                i * stride + 1,
                solvers[0]
            );
        }
    }
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn top1465_is_unique_for_dlx_and_heuristic() {
    check_counts("magictour_top1465", &["dlx", "dc", "heuristic", "singles"]);
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn all_17_clue_puzzles_are_unique_for_dlx_and_heuristic() {
    // dlx and singles (two independent engines) on all 49,158; heuristic,
    // at 3-4 ms a puzzle (4 CPU minutes for all of them), on every 8th.
    check_counts_sampled(
        "sudoku17_all_49158",
        &["dlx", "dc", "singles"],
        &[("heuristic", 8)],
    );
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn changed_clue_corpus_mixes_none_unique_and_multiple() {
    check_counts(
        "derived_changedclue_top1465",
        &["dlx", "dc", "heuristic", "singles"],
    );
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn no_solution_corpus_has_none() {
    check_counts(
        "derived_nosolution_top1465",
        &["dlx", "heuristic", "singles"],
    );
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn serg_benchmark_has_several_solutions_each() {
    check_counts("tdoku_puzzles7_serg_benchmark", &["dlx", "dc"]);
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn fetched_corpora_have_the_catalogue_line_counts() {
    let mut present = 0;
    for c in datasets::CATALOGUE {
        let path = datasets::path_in(c, &datasets_dir());
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        present += 1;
        assert_eq!(datasets::sha256_hex(&bytes), c.sha256, "{}", c.name);
        let lines = bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count();
        assert_eq!(lines, c.puzzles, "{}", c.name);
    }
    assert!(
        present > 0,
        "no corpus in {}: {NEEDS}",
        datasets_dir().display()
    );
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn hanidoku_corpus_is_unique_for_both_solvers_and_the_solutions_pass_the_rules() {
    use dlxbench::hanidoku::{self, Board, Puzzles, Verdict};
    let (c, bytes) = corpus("hanidoku_172");
    let puzzles: Vec<Board> = Puzzles::new(&bytes)
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")).1)
        .collect();
    assert_eq!(puzzles.len(), c.puzzles);
    let mut first: Option<Vec<Board>> = None;
    for info in hanidoku::solvers::REGISTRY {
        let mut solver = (info.make)();
        let mut solution = Board::EMPTY;
        let solutions: Vec<Board> = puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let o = solver.solve(p, 2, Budget::UNLIMITED, &mut solution);
                assert_eq!(
                    o.solutions,
                    1,
                    "line {}: {} solutions ({})",
                    i + 1,
                    o.solutions,
                    info.name
                );
                // The rule check, independent of both solvers.
                assert_eq!(
                    hanidoku::check(&solution),
                    Verdict::Complete,
                    "line {}",
                    i + 1
                );
                assert!(hanidoku::is_solution_of(&solution, p), "line {}", i + 1);
                solution
            })
            .collect();
        match &first {
            None => first = Some(solutions),
            Some(f) => assert!(f == &solutions, "{} disagrees", info.name),
        }
    }
    let expected = c.solutions.unwrap();
    assert_eq!(
        (expected.none, expected.unique, expected.multiple),
        (0, 172, 0)
    );
}

/// What a solve found and cost, as far as two engines in the same tree
/// must agree: solutions, nodes, updates, guesses.
type Counts = (u64, Option<u64>, Option<u64>, u64);

fn counts_of(o: &dlxbench::solvers::Outcome) -> Counts {
    (o.solutions, o.nodes, o.updates, o.guesses)
}

/// `dlx` and `dc` under `choice` (one under which both make the same
/// tree), puzzle by puzzle (every `stride`-th) on corpus `name`: the same solution count always,
/// and the same tree (nodes, updates, guesses) wherever the search ran to
/// its end (fewer solutions than the limit of 2, within the node budget).
/// Returns how many puzzles were compared node for node.
fn same_tree(
    name: &str,
    stride: usize,
    nodes: u64,
    choice: dlxbench::exact_cover::ColumnChoice,
) -> usize {
    use dlxbench::exact_cover::{Dc, Dlx};
    use dlxbench::solvers::Solver;
    use dlxbench::sudoku::solvers::engine::CoverSolver;
    let (_, bytes) = corpus(name);
    let mut dlx = CoverSolver::<Dlx>::with_choice(choice);
    let mut dc = CoverSolver::<Dc>::with_choice(choice);
    let mut puzzle = Grid::empty(dlxbench::sudoku::BoxShape::NINE);
    let mut solution = puzzle.clone();
    let budget = Budget::nodes(nodes);
    let mut compared = 0;
    let lines = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty() && l[0] != b'#');
    for (i, line) in lines.enumerate().step_by(stride) {
        parse_line_into(line, ParseOptions::default(), &mut puzzle)
            .unwrap_or_else(|e| panic!("{name}: puzzle {}: {e}", i + 1));
        let a = dlx.solve(&puzzle, 2, budget, &mut solution);
        let b = dc.solve(&puzzle, 2, budget, &mut solution);
        let at = format!("{name} ({choice:?}): puzzle {}", i + 1);
        // A search that ran to its end: the other must have made the same
        // tree. Where both stopped early (two solutions found, or the
        // budget), the order they tried rows in decides where.
        let complete = |o: &dlxbench::solvers::Outcome| !o.budget_exceeded && o.solutions < 2;
        if complete(&a) || complete(&b) {
            assert_eq!(counts_of(&a), counts_of(&b), "{at}: dlx vs dc");
            assert!(a.mems.is_none() && b.mems.is_some(), "{at}: dc counts mems");
            compared += 1;
        } else if !a.budget_exceeded && !b.budget_exceeded {
            assert_eq!(a.solutions, b.solutions, "{at}");
        }
    }
    compared
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn dc_and_dlx_explore_the_same_tree_on_the_corpora() {
    use dlxbench::exact_cover::ColumnChoice;
    // (corpus, stride, node budget): every puzzle where it takes seconds
    // at most, a sample of the long lists.
    let plan = [
        ("magictour_top1465", 1, u64::MAX),
        ("sudoku17_all_49158", 16, u64::MAX),
        ("tdoku_puzzles5_forum_hardest_1905_11plus", 32, u64::MAX),
        ("tdoku_puzzles6_forum_hardest_1106", 1, u64::MAX),
        ("derived_changedclue_top1465", 1, u64::MAX),
        ("derived_nosolution_top1465", 1, u64::MAX),
        ("acs_general_16x16_2100", 8, 100_000),
        ("kr_16x16_100", 1, 100_000),
        ("acs_general_25x25_2100", 32, 100_000),
        ("samples_36x36_2", 1, 100_000),
    ];
    let choices = [ColumnChoice::LowestIndex, ColumnChoice::Forced];
    for ((name, stride, nodes), choice) in plan.into_iter().flat_map(|p| choices.map(|c| (p, c))) {
        let started = std::time::Instant::now();
        let compared = same_tree(name, stride, nodes, choice);
        assert!(compared > 0, "{name}: no puzzle ran to its end");
        eprintln!(
            "{name} ({choice:?}): {compared} puzzles node for node ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn dc_and_dlx_explore_the_same_tree_on_the_hanidoku_corpus() {
    use dlxbench::exact_cover::{ColumnChoice, Dc, Dlx};
    use dlxbench::hanidoku::solvers::engine::CoverSolver;
    use dlxbench::hanidoku::{Board, Puzzles};
    use dlxbench::solvers::Solver;
    let (c, bytes) = corpus("hanidoku_172");
    for choice in [ColumnChoice::LowestIndex, ColumnChoice::Forced] {
        let mut dlx = CoverSolver::<Dlx>::with_choice(choice);
        let mut dc = CoverSolver::<Dc>::with_choice(choice);
        let mut solution = Board::EMPTY;
        let mut compared = 0;
        for r in Puzzles::new(&bytes) {
            let (line, p) = r.unwrap_or_else(|e| panic!("{e}"));
            let a = dlx.solve(&p, 2, Budget::UNLIMITED, &mut solution);
            let b = dc.solve(&p, 2, Budget::UNLIMITED, &mut solution);
            assert_eq!(a.solutions, 1, "line {line}");
            assert_eq!(
                counts_of(&a),
                counts_of(&b),
                "line {line} ({choice:?}): dlx vs dc"
            );
            compared += 1;
        }
        assert_eq!(compared, c.puzzles);
    }
}

/// The bound docs/bench.md gives for a no-argument `bench` with every
/// catalogued corpus fetched, on a 2-core machine.
const DEFAULT_RUN_BOUND: std::time::Duration = std::time::Duration::from_secs(20 * 60);

/// No-argument `bench` with the catalogue fetched: it says what will run
/// (and an estimate) before it starts, runs the standard set only, and
/// finishes within [`DEFAULT_RUN_BOUND`]. Minutes long, so CI skips it (its
/// whole run must stay under ten minutes); run it with
/// `cargo test --release --test it -- --ignored real_corpora::default_run`.
#[test]
#[ignore = "needs fetched corpora; takes minutes"]
fn default_run_finishes_within_its_bound() {
    let sudoku: Vec<&str> = datasets::STANDARD_SET
        .iter()
        .copied()
        .filter(|c| datasets::by_name(c).unwrap().puzzle_kind() == "sudoku")
        .collect();
    for c in &sudoku {
        corpus(c); // present and intact
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let started = std::time::Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dlxbench"))
        .current_dir(repo_path(""))
        .args(["bench", "--no-per-puzzle", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > DEFAULT_RUN_BOUND {
            child.kill().unwrap();
            panic!("no-argument bench still running after {DEFAULT_RUN_BOUND:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let took = started.elapsed();
    let stderr = reader.join().unwrap();
    assert!(status.success(), "{status}: {stderr}");
    let mut lines = stderr.lines();
    let plan = lines.next().unwrap_or_default();
    for c in &sudoku {
        assert!(plan.contains(c), "the plan names {c}: {plan}");
    }
    assert!(
        lines
            .next()
            .unwrap_or_default()
            .starts_with("dlxbench: estimated solving time"),
        "{stderr}"
    );
    let run = common::read_json(&out.join("run.json"));
    assert_eq!(run["interrupted"], false);
    let corpora = run["corpora"].as_array().unwrap();
    assert_eq!(corpora.len(), sudoku.len());
    assert!(corpora.iter().all(|c| c["complete"] == true));
    eprintln!("no-argument bench took {:.0} s", took.as_secs_f64());
}
