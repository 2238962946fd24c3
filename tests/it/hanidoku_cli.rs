//! Hanidoku end to end: `solve`, `check`, `generate` and `bench` with
//! `--kind hanidoku`, the harness library on Hanidoku corpora, and the
//! committed generated corpus.

use crate::common;

use std::path::PathBuf;

use predicates::prelude::*;

use common::{
    assert_regenerates, bench_into, dlxbench, file_with, read_csv, read_json, repo_path, stdout_of,
    write_file,
};
use dlxbench::corpus::Corpus;
use dlxbench::hanidoku::generate::{is_minimal_unique, solved_board, Generator};
use dlxbench::hanidoku::{self, solvers, Board, Puzzles, Verdict};
use dlxbench::harness::{self, Lineup, Setup};
use dlxbench::solvers::{Budget, Solver, SolverSet};

fn committed_corpus() -> PathBuf {
    repo_path("datasets/generated/hanidoku/gen_hanidoku_100.txt")
}

fn boards(text: &str) -> Vec<Board> {
    Puzzles::new(text.as_bytes())
        .map(|r| r.unwrap().1)
        .collect()
}

/// `count` minimal unique puzzles with their solutions, from the library.
fn puzzles(seed: u64, count: usize) -> Vec<(Board, Board)> {
    let mut g = Generator::new(seed);
    (0..count)
        .map(|_| {
            let (mut p, mut s) = (Board::EMPTY, Board::EMPTY);
            g.next_into(&mut p, &mut s).unwrap();
            (p, s)
        })
        .collect()
}

#[test]
fn solve_with_both_solvers_then_check_the_solutions() {
    let set = puzzles(21, 3);
    let input: String = set.iter().map(|(p, _)| format!("{p}\n")).collect();
    let expected: String = set.iter().map(|(_, s)| format!("{s}\n")).collect();
    for solver in ["dlx", "dc", "backtrack"] {
        let out = stdout_of(
            dlxbench()
                .args(["solve", "--kind", "hanidoku", "--solver", solver])
                .write_stdin(input.as_str()),
        );
        assert_eq!(out, expected, "{solver}");
    }
    // The solutions pass the rule check; the puzzles are incomplete.
    dlxbench()
        .args(["check", "--kind", "hanidoku"])
        .write_stdin(expected.as_str())
        .assert()
        .success()
        .stdout("line 1: complete\nline 2: complete\nline 3: complete\n")
        .stderr(predicate::str::contains(
            "3 puzzles (Hanidoku): 3 complete, 0 incomplete, 0 invalid, 0 unreadable",
        ));
    let blanks = 61 - set[0].0.clues();
    dlxbench()
        .args(["check", "--kind", "hanidoku"])
        .write_stdin(format!("{}\n", set[0].0))
        .assert()
        .success()
        .stdout(format!("line 1: incomplete ({blanks} blanks)\n"));
}

#[test]
fn solve_reports_bad_lines_and_goes_on() {
    let (puzzle, solution) = puzzles(22, 1)[0];
    let mut bad = puzzle.to_string();
    bad.replace_range(40..41, "x");
    let text = format!("# Hanidoku\n{puzzle}\n{bad}\n{}\n\n", &bad[..60]);
    let f = file_with(&text);
    dlxbench()
        .args(["solve", "--kind", "hanidoku"])
        .arg(f.path())
        .assert()
        .code(1)
        .stdout(format!(
            "{solution}\n# line 3: unreadable\n# line 4: unreadable\n"
        ))
        .stderr(predicate::str::contains(
            "line 3, column 41: unexpected symbol 'x': expected 1-9, '.' or '0' for blank",
        ))
        .stderr(predicate::str::contains(
            "line 4: expected 61 symbols (1-9, '.' or '0' for blank) for a Hanidoku board, found 60",
        ))
        .stderr(predicate::str::contains(
            "3 puzzles (Hanidoku): 1 solved, 0 with several solutions, 0 without solution, 2 unreadable",
        ));
    // A Sudoku line is not a Hanidoku board: with no board readable, the
    // input is refused (exit 2, the input policy).
    dlxbench()
        .args(["check", "--kind", "hanidoku"])
        .write_stdin(".".repeat(81))
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "line 1: unreadable: expected 61 symbols",
        ))
        .stderr(predicate::str::contains("no puzzle could be read"));
}

#[test]
fn several_and_no_solutions_and_limits() {
    let (puzzle, solution) = puzzles(23, 1)[0];
    // Blank a clue: several solutions.
    let mut open = puzzle;
    let clue = (0..61).find(|&c| open.get(c) != 0).unwrap();
    open.set(clue, 0);
    // Set a blank cell to a wrong digit that breaks no rule: no solution.
    let mut wrong = None;
    'search: for c in (0..61).filter(|&c| puzzle.get(c) == 0) {
        for d in (1..=9).filter(|&d| d != solution.get(c)) {
            let mut b = puzzle;
            b.set(c, d);
            if !matches!(hanidoku::check(&b), Verdict::Invalid { .. }) {
                wrong = Some(b);
                break 'search;
            }
        }
    }
    let wrong = wrong.unwrap();
    let out = dlxbench()
        .args(["solve", "--kind", "hanidoku", "--solver", "backtrack"])
        .write_stdin(format!("{open}\n{wrong}\n"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "# line 1: 2+ solutions; the first:");
    let first: Board = lines[1].parse().unwrap();
    assert!(hanidoku::is_solution_of(&first, &open));
    assert_eq!(lines[2], "# line 2: no solution");
    // --limit 1 stops at one; --max-nodes 1 gives up.
    dlxbench()
        .args(["solve", "--kind", "hanidoku", "--limit", "1"])
        .write_stdin(format!("{open}\n"))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("# line 1").not());
    dlxbench()
        .args(["solve", "--kind", "hanidoku", "--max-nodes", "1"])
        .write_stdin(format!("{}\n", Board::EMPTY))
        .assert()
        .code(1)
        .stdout("# line 1: undecided: no solution within 1 nodes\n");
}

#[test]
fn grid_format_draws_the_hexagon() {
    let (puzzle, solution) = puzzles(24, 1)[0];
    let out = stdout_of(
        dlxbench()
            .args(["solve", "--kind", "hanidoku", "--format", "grid"])
            .write_stdin(format!("{puzzle}\n")),
    );
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows.len(), 10, "{out}");
    assert_eq!(rows[9], "");
    for (row, text) in rows[..9].iter().enumerate() {
        let len = hanidoku::ROW_LENGTHS[row];
        assert_eq!(text.len(), 9 - len + 2 * len - 1, "{text:?}");
    }
    let digits: String = out.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits, solution.to_string());
}

#[test]
fn bad_usage_is_refused_clearly() {
    for (args, message) in [
        (
            &["solve", "--kind", "hanidoku", "--solver", "heuristic"][..],
            "unknown solver `heuristic` (known for hanidoku: dlx, dc, backtrack)",
        ),
        (
            &["solve", "--kind", "hanidoku", "--box", "3x3"][..],
            "--box is for Sudoku",
        ),
        (
            &["solve", "--kind", "hanidoku", "--format", "numeric"][..],
            "--format numeric is for Sudoku",
        ),
        (
            &["check", "--kind", "hanidoku", "--alphabet", "zero-based"][..],
            "--alphabet is for Sudoku",
        ),
        (
            &["solve", "--kind", "kakuro"][..],
            "expected sudoku or hanidoku, found `kakuro`",
        ),
        (
            &["generate", "--kind", "hanidoku", "--symmetric"][..],
            "--kind hanidoku takes --count, --seed and --out only",
        ),
        (
            &["bench", "--kind", "hanidoku", "--solvers", "naive"][..],
            "unknown solver `naive` (known for hanidoku: dlx, dc, backtrack)",
        ),
        (
            &["solve", "--solver", "backtrack"][..],
            "unknown solver `backtrack`",
        ),
    ] {
        dlxbench()
            .args(args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn generate_is_deterministic_unique_and_minimal() {
    let args = [
        "generate", "--kind", "hanidoku", "--count", "3", "--seed", "5",
    ];
    let a = stdout_of(dlxbench().args(args));
    assert_eq!(a, stdout_of(dlxbench().args(args)));
    assert_ne!(
        a,
        stdout_of(
            dlxbench().args(["generate", "--kind", "hanidoku", "--count", "3", "--seed", "6"])
        )
    );
    assert_eq!(
        a.lines().next(),
        Some("# dlxbench generate --kind hanidoku --count 3 --seed 5")
    );
    let generated = boards(&a);
    assert_eq!(generated.len(), 3);
    // The library's generator gives the same puzzles.
    let library: Vec<Board> = puzzles(5, 3).into_iter().map(|(p, _)| p).collect();
    assert_eq!(generated, library);
    for p in &generated {
        for info in solvers::REGISTRY {
            let mut solver = (info.make)();
            assert!(
                is_minimal_unique(p, solver.as_mut()),
                "{} on {p}",
                info.name
            );
        }
    }
    // --out writes the same bytes.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.txt");
    dlxbench()
        .args(args)
        .arg("--out")
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains("generated 3 Hanidoku puzzles"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), a);
}

#[test]
fn bench_runs_hanidoku_like_sudoku() {
    let text = std::fs::read_to_string(committed_corpus()).unwrap();
    let corpus: String = text.lines().take(16).map(|l| format!("{l}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(dir.path(), "hani.txt", &corpus);
    for permute in [None, Some("7")] {
        let out = dir
            .path()
            .join(format!("out-{}", permute.unwrap_or("plain")));
        let mut args = vec!["--kind", "hanidoku", "--threads", "2"];
        if let Some(seed) = permute {
            args.extend(["--permute", seed]);
        }
        bench_into(&out, &args, &path)
            .assert()
            .success()
            .stdout(predicate::str::contains("hanidoku puzzles"))
            .stdout(predicate::str::contains("backtrack"));
        let summary = read_csv(&out.join("summary.csv"));
        assert_eq!(summary.len(), 3);
        for (row, solver) in summary.iter().zip(["dlx", "dc", "backtrack"]) {
            assert_eq!(row["solver"], solver);
            assert_eq!(row["puzzles"], "15");
            assert_eq!(row["solved"], "15");
            assert_eq!(row["multiple"], "0");
            assert_eq!(row["invalid"], "0");
        }
        let records = read_csv(&out.join("puzzles.csv"));
        assert_eq!(records.len(), 45);
        assert!(records.iter().all(|r| r["status"] == "unique"));
        let run = read_json(&out.join("run.json"));
        assert_eq!(run["kind"], "hanidoku");
        // A one-chunk corpus: one worker x three solvers.
        assert_eq!(run["states_created"], 3);
        assert!(out.join("hani.dlx.hgrm").exists());
    }
    // A Sudoku corpus read as Hanidoku: every line is malformed, with the
    // reason; no readable puzzle at all is an error (the input policy).
    let sudoku = write_file(dir.path(), "sudoku.txt", format!("{}\n", ".".repeat(81)));
    let out = dir.path().join("out-sudoku");
    bench_into(&out, &["--kind", "hanidoku", "--strict"], &sudoku)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1 malformed line(s) skipped"))
        .stderr(predicate::str::contains("sudoku.txt: no puzzle could be read (1 unreadable)"))
        .stderr(predicate::str::contains(
            "line 1: expected 61 symbols (1-9, '.' or '0' for blank) for a Hanidoku board, found 81",
        ));
}

#[test]
fn harness_cross_checks_hanidoku_solvers() {
    let text = std::fs::read(committed_corpus()).unwrap();
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').take(9).collect();
    let corpus = Corpus::from_vec("h", lines.join(&b'\n')).unwrap();
    let lineup = Lineup::new(SolverSet::<Board>::builtin().entries().to_vec());
    let mut setup = Setup::new(lineup);
    // The configuration is made from the lineup: its kind and names.
    assert_eq!(setup.config().kind(), "hanidoku");
    let names: Vec<&str> = setup.lineup().names();
    assert_eq!(setup.config().solvers(), names);
    setup.config_mut().threads = 2;
    let corpora = std::slice::from_ref(&corpus);
    let result = harness::run(corpora, &setup, None, None).unwrap();
    assert!(
        result.discrepancies.is_empty(),
        "{:?}",
        result.discrepancies
    );
    assert_eq!(result.states_created, 3);
    let c = &result.corpora[0];
    assert_eq!(c.puzzles, 8);
    for s in &c.solvers {
        assert_eq!((s.puzzles, s.solved, s.multiple), (8, 8, 0), "{}", s.name);
    }
    // A Sudoku solver cannot join a Hanidoku lineup (the types differ),
    // and a configuration cannot describe another lineup (a `Setup` makes
    // it from its own): its budgets are one per solver, to change only.
    assert_eq!(setup.config_mut().budgets_mut().len(), 3);
}

#[test]
fn committed_corpus_is_minimal_unique_and_embedded() {
    let text = std::fs::read_to_string(committed_corpus()).unwrap();
    assert_eq!(text.as_bytes(), hanidoku::DEFAULT_CORPUS);
    assert_eq!(
        text.lines().next(),
        Some("# dlxbench generate --kind hanidoku --count 100 --seed 1")
    );
    let all = boards(&text);
    assert_eq!(all.len(), 100);
    let mut dlx = solvers::dlx::DlxSolver::new();
    let mut solution = Board::EMPTY;
    for p in &all {
        let o = dlx.solve(p, 2, Budget::UNLIMITED, &mut solution);
        assert_eq!(o.solutions, 1, "{p}");
        assert!(hanidoku::is_solution_of(&solution, p));
    }
    // Minimality of a sample, by the other solver.
    let mut backtrack = solvers::backtrack::BacktrackSolver::new();
    for p in all.iter().step_by(25) {
        assert!(is_minimal_unique(p, &mut backtrack), "{p}");
    }
}

#[test]
#[ignore = "slow in debug builds (half a minute): run with --include-ignored"]
fn committed_corpus_regenerates_byte_identical() {
    assert_regenerates(&committed_corpus());
}

#[test]
fn a_random_full_board_checks_complete_from_the_command_line() {
    let board = solved_board(3);
    dlxbench()
        .args(["check", "--kind", "hanidoku"])
        .write_stdin(format!("{board}\n"))
        .assert()
        .success()
        .stdout("line 1: complete\n");
    // Swap two digits of the top row: the row stays consecutive, but its
    // diagonals now repeat a digit or break the window.
    let mut swapped = board;
    swapped.set(0, board.get(1));
    swapped.set(1, board.get(0));
    dlxbench()
        .args(["check", "--kind", "hanidoku"])
        .write_stdin(format!("{swapped}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("line 1: invalid: "))
        .stdout(predicate::str::contains("diagonal"));
}

#[test]
fn default_corpora_follow_the_kind() {
    let dir = tempfile::tempdir().unwrap();
    // `bench --parse-only ARGS` in `dir` names `first` first.
    let parse_only = |args: &[&str], first: &str| {
        dlxbench()
            .current_dir(dir.path())
            .args(["bench", "--parse-only"])
            .args(args)
            .assert()
            .success()
            .stdout(predicate::str::starts_with(first));
    };
    // No datasets/: the embedded corpus of each kind.
    parse_only(
        &["--kind", "hanidoku"],
        "gen_hanidoku_100: 100 puzzles, 0 malformed",
    );
    // A fetched Hanidoku corpus is run with --kind hanidoku only.
    let datasets = dir.path().join("datasets");
    std::fs::create_dir(&datasets).unwrap();
    let two: String = puzzles(31, 2)
        .iter()
        .map(|(p, _)| format!("{p}\n"))
        .collect();
    write_file(&datasets, "hanidoku_172.txt", two);
    parse_only(
        &["--kind", "hanidoku"],
        "hanidoku_172: 2 puzzles, 0 malformed",
    );
    parse_only(&[], "gen_9x9_1000: 1000 puzzles, 0 malformed");
}
