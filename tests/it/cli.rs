//! The command line end to end: `solve`, `check` and `cover` on fixtures the
//! tests write themselves.

use crate::common;

use predicates::prelude::*;

use common::{blank_one_per_row, dlxbench, file_with, line_of, pattern, stdout_of};

const HARD: &str =
    ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
const HARD_SOLUTION: &str =
    "127954638536728491498163527961547382384291756275836914742315869813679245659482173";

/// The same grid with one blank per row, in a different column each time:
/// the row forces the value, so the solution is unique.
fn one_blank_per_row(full: &[u8], n: usize, step: usize) -> Vec<u8> {
    let mut puzzle = full.to_vec();
    blank_one_per_row(&mut puzzle, n, |row| (row * step + 1) % n);
    puzzle
}

#[test]
fn solves_the_hard_puzzle_with_every_solver() {
    for solver in ["dlx", "naive", "heuristic"] {
        dlxbench()
            .args(["solve", "--solver", solver])
            .write_stdin(format!("{HARD}\n"))
            .assert()
            .success()
            .stdout(format!("{HARD_SOLUTION}\n"));
    }
    // From a file, and from `-`.
    let f = file_with(&format!("{HARD}\r\n"));
    dlxbench()
        .arg("solve")
        .arg(f.path())
        .assert()
        .success()
        .stdout(format!("{HARD_SOLUTION}\n"))
        .stderr(predicate::str::contains(
            "1 puzzle: 1 solved, 0 with several solutions",
        ));
    dlxbench()
        .args(["solve", "-"])
        .write_stdin(HARD)
        .assert()
        .success()
        .stdout(format!("{HARD_SOLUTION}\n"));
}

#[test]
fn grid_and_numeric_output_read_back() {
    let grid = stdout_of(
        dlxbench()
            .args(["solve", "--format", "grid"])
            .write_stdin(HARD),
    );
    let lines: Vec<&str> = grid.lines().collect();
    assert_eq!(lines[0], "1 2 7 | 9 5 4 | 6 3 8");
    assert_eq!(lines[3], "------+-------+------");
    assert_eq!(lines.len(), 12, "{grid}");
    let numeric = stdout_of(
        dlxbench()
            .args(["solve", "--format", "numeric"])
            .write_stdin(HARD),
    );
    assert!(numeric.starts_with("3\n1 2 7 9 5 4 6 3 8\n"), "{numeric}");
    // Both read back as the same complete grid; the pretty grid also solves.
    for text in [&grid, &numeric] {
        dlxbench()
            .arg("check")
            .write_stdin(text.as_str())
            .assert()
            .success()
            .stdout("line 1: complete\n");
        dlxbench()
            .arg("solve")
            .write_stdin(text.as_str())
            .assert()
            .success()
            .stdout(format!("{HARD_SOLUTION}\n"));
    }
    // A pasted puzzle in grid form.
    let mut pasted = String::from("# pasted by hand, with separators\n");
    for (r, row) in HARD.as_bytes().chunks(9).enumerate() {
        if r == 3 || r == 6 {
            pasted += "------+-------+------\n";
        }
        for (c, &b) in row.iter().enumerate() {
            pasted += match c {
                0 => "",
                3 | 6 => " | ",
                _ => " ",
            };
            pasted.push(b as char);
        }
        pasted += "\n";
    }
    dlxbench()
        .arg("solve")
        .write_stdin(pasted)
        .assert()
        .success()
        .stdout(format!("{HARD_SOLUTION}\n"));
}

#[test]
fn small_and_large_grids() {
    for (r, c, step) in [(2, 2, 1), (2, 3, 1), (4, 4, 7), (5, 5, 3)] {
        let n = r * c;
        let full = pattern(r, c);
        let puzzle = one_blank_per_row(&full, n, step);
        for solver in ["dlx", "heuristic", "naive"] {
            dlxbench()
                .args(["solve", "--solver", solver])
                .write_stdin(line_of(&puzzle, n))
                .assert()
                .success()
                .stdout(format!("{}\n", line_of(&full, n)));
        }
    }
    // 16x16 with 0-9A-F symbols.
    let full = pattern(4, 4);
    let puzzle = one_blank_per_row(&full, 16, 5);
    let zero_based = |cells: &[u8]| -> String {
        cells
            .iter()
            .map(|&v| b".0123456789ABCDEF"[v as usize] as char)
            .collect()
    };
    dlxbench()
        .args(["solve", "--alphabet", "zero-based"])
        .write_stdin(zero_based(&puzzle))
        .assert()
        .success()
        .stdout(format!("{}\n", zero_based(&full)));
    // 6x6 with boxes 3 rows tall, given with --box.
    let full = pattern(3, 2);
    let puzzle = one_blank_per_row(&full, 6, 1);
    dlxbench()
        .args(["solve", "--box", "3x2"])
        .write_stdin(line_of(&puzzle, 6))
        .assert()
        .success()
        .stdout(format!("{}\n", line_of(&full, 6)));
}

/// The hard puzzle's solution with a "deadly pattern" blanked: two rows of
/// one band, two columns in different stacks, holding a b / b a.
fn deadly_pattern() -> String {
    let s: Vec<u8> = HARD_SOLUTION.bytes().collect();
    let at = |r: usize, c: usize| s[r * 9 + c];
    for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in (c1 / 3 + 1) * 3..9 {
                    if at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1) {
                        let mut p = s.clone();
                        for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
                            p[r * 9 + c] = b'.';
                        }
                        return String::from_utf8(p).unwrap();
                    }
                }
            }
        }
    }
    panic!("the solution has no deadly pattern");
}

#[test]
fn several_solutions_are_reported() {
    let puzzle = deadly_pattern();
    let out = stdout_of(dlxbench().arg("solve").write_stdin(puzzle.as_str()));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "# line 1: 2+ solutions; the first:");
    assert_eq!(lines[1].len(), 81);
    dlxbench()
        .args(["solve", "--limit", "0"])
        .write_stdin(puzzle.as_str())
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "# line 1: 2 solutions; the first:\n",
        ));
    dlxbench()
        .args(["solve", "--limit", "1"])
        .write_stdin(puzzle.as_str())
        .assert()
        .success()
        .stdout(predicate::str::contains("#").not());
    // An empty 4x4 grid has 288 solutions.
    dlxbench()
        .args(["solve", "--limit", "0", "--solver", "heuristic"])
        .write_stdin(".".repeat(16))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "# line 1: 288 solutions; the first:\n",
        ));
    dlxbench()
        .args(["solve", "--limit", "5"])
        .write_stdin(".".repeat(16))
        .assert()
        .stdout(predicate::str::starts_with("# line 1: 5+ solutions"));
}

#[test]
fn node_budget() {
    dlxbench()
        .args(["solve", "--solver", "naive", "--max-nodes", "5"])
        .write_stdin(format!("{HARD}\n{HARD_SOLUTION}\n"))
        .assert()
        .code(1)
        .stdout(format!(
            "# line 1: undecided: no solution within 5 nodes\n{HARD_SOLUTION}\n"
        ))
        .stderr(predicate::str::contains(
            "1 solved, 0 with several solutions, 0 without solution, 0 unreadable, 1 undecided",
        ));
    dlxbench()
        .args(["solve", "--max-nodes", "1000000"])
        .write_stdin(HARD)
        .assert()
        .success()
        .stdout(format!("{HARD_SOLUTION}\n"));
}

#[test]
fn no_solution_and_conflicting_clues_exit_1() {
    // A clue that repeats nothing but contradicts the unique solution.
    let solution: Vec<u8> = HARD_SOLUTION.bytes().collect();
    let mut puzzle: Vec<u8> = HARD.bytes().collect();
    let cell = 0;
    let clash = |v: u8| {
        (0..81).any(|i| {
            let (r, c) = (i / 9, i % 9);
            puzzle[i] == v && (r == 0 || c == 0 || (r < 3 && c < 3))
        })
    };
    let wrong = (b'1'..=b'9')
        .find(|&v| v != solution[cell] && !clash(v))
        .unwrap();
    puzzle[cell] = wrong;
    let unsolvable = String::from_utf8(puzzle).unwrap();
    let conflict = format!("22{}", &HARD[2..]);
    let text = format!("{unsolvable}\n{HARD}\n{conflict}\n");
    for solver in ["dlx", "heuristic", "naive"] {
        dlxbench()
            .args(["solve", "--solver", solver])
            .write_stdin(text.as_str())
            .assert()
            .code(1)
            .stdout(format!(
                "# line 1: no solution\n{HARD_SOLUTION}\n# line 3: no solution\n"
            ))
            .stderr(predicate::str::contains("2 without solution"));
    }
    dlxbench()
        .arg("check")
        .write_stdin(text.as_str())
        .assert()
        .code(1)
        .stdout(
            "line 1: incomplete (62 blanks)\nline 2: incomplete (63 blanks)\n\
             line 3: invalid: row 1 repeats 2\n",
        );
}

#[test]
fn malformed_lines_are_reported_and_the_rest_solved() {
    let text = format!(
        "# a comment\n{HARD}\n{}\n{}x{}\n\n{HARD}\n",
        &HARD[1..],
        &HARD[..40],
        &HARD[41..]
    );
    let f = file_with(&text);
    let name = f.path().display().to_string();
    dlxbench()
        .arg("solve")
        .arg(f.path())
        .assert()
        .code(1)
        .stdout(format!(
            "{HARD_SOLUTION}\n# line 3: unreadable\n# line 4: unreadable\n{HARD_SOLUTION}\n"
        ))
        .stderr(predicate::str::contains(format!(
            "{name}: line 3: expected 81 symbols (1-9, '.' or '0' for blank) for a 9x9 grid, found 80"
        )))
        .stderr(predicate::str::contains(format!(
            "{name}: line 4, column 41: unexpected symbol 'x'"
        )))
        .stderr(predicate::str::contains("2 unreadable"));
    // In a grid, the bad row is named. (The grid is the only puzzle: with
    // none readable, the exit status is 2, the input policy's.)
    let grid = "1 . | . 4\n. . | 2 .\n----+----\n. 3 | 9 .\n4 . | . 1\n";
    dlxbench()
        .arg("solve")
        .write_stdin(grid)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 4, column 7: unexpected symbol '9' (value 9 is above the side 4)",
        ))
        .stderr(predicate::str::contains(
            "no puzzle could be read (1 unreadable)",
        ));
    dlxbench()
        .arg("check")
        .write_stdin(grid)
        .assert()
        .code(2)
        .stdout(predicate::str::starts_with(
            "line 4: unreadable: column 7: unexpected symbol '9' (value 9 is above the side 4)",
        ));
}

#[test]
fn unreadable_input_and_bad_usage_exit_2() {
    let missing = "/nonexistent/dir/puzzles.txt";
    for cmd in ["solve", "check", "cover"] {
        dlxbench()
            .args([cmd, missing])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("cannot read {missing}")));
    }
    dlxbench()
        .args(["solve", "--solver", "quantum"])
        .write_stdin(HARD)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "unknown solver `quantum` (known for sudoku: {})",
            dlxbench::solvers::SolverSet::<dlxbench::sudoku::Grid>::builtin()
                .names()
                .join(", ")
        )));
    dlxbench()
        .args(["solve", "--format", "pretty"])
        .write_stdin(HARD)
        .assert()
        .code(2);
    dlxbench()
        .args(["solve", "--box", "1x81"])
        .write_stdin(HARD)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "box rows and columns must each be at least 2",
        ));
}

#[test]
fn check_verdicts() {
    let mut repeated: Vec<u8> = HARD_SOLUTION.bytes().collect();
    repeated.swap(0, 1); // rows fine, columns 1 and 2 repeat
    let text = format!(
        "{HARD_SOLUTION}\n{HARD}\n{}\n{}\n",
        String::from_utf8(repeated).unwrap(),
        ".".repeat(80) + "1"
    );
    dlxbench()
        .arg("check")
        .write_stdin(text)
        .assert()
        .code(1)
        .stdout(
            "line 1: complete\nline 2: incomplete (63 blanks)\n\
             line 3: invalid: column 1 repeats 2\nline 4: incomplete (80 blanks)\n",
        );
    dlxbench()
        .arg("check")
        .write_stdin(format!("{HARD}\n"))
        .assert()
        .success();
}

#[test]
fn cover_knuths_example() {
    let f = file_with("0010110\n1001001\n0110010\n1001000\n0100001\n0001101\n");
    dlxbench()
        .arg("cover")
        .arg(f.path())
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "solution 1: rows 1 4 5 (lines 1 4 5)\n1 solution; ",
        ));
    // With a comment line the input lines move, the rows do not.
    dlxbench()
        .args(["cover", "--first-column"])
        .write_stdin("# Knuth\n0010110\n1001001\n0110010\n1001000\n0100001\n0001101\n")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "solution 1: rows 1 4 5 (lines 2 5 6)\n",
        ));
    // No cover: exit 1.
    dlxbench()
        .arg("cover")
        .write_stdin("110\n011\n")
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("0 solutions; "));
    // Malformed: exit 2 with the line.
    dlxbench()
        .arg("cover")
        .write_stdin("0010\n01x0\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2"));
}

/// N queens in named format: ranks and files primary, diagonals secondary.
fn queens(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text += &format!("r{i} c{i} ");
    }
    text += "|";
    for d in 0..2 * n - 1 {
        text += &format!(" a{d} b{d}");
    }
    text += "\n";
    for r in 0..n {
        for c in 0..n {
            text += &format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c);
        }
    }
    text
}

#[test]
fn cover_n_queens_named() {
    let out = stdout_of(dlxbench().arg("cover").write_stdin(queens(8)));
    assert!(out.contains("\n92 solutions; "), "{out}");
    assert_eq!(out.matches("solution ").count(), 92);
    // Each solution lists 8 rows with their names.
    let first: Vec<&str> = out.lines().take(9).collect();
    assert!(first[0].starts_with("solution 1: rows "), "{}", first[0]);
    assert!(first[1..].iter().all(|l| l.starts_with("  row ")));
    let mut ranks: Vec<&str> = first[1..]
        .iter()
        .flat_map(|l| l.split_whitespace())
        .filter(|w| w.starts_with('r') && w != &"row")
        .collect();
    ranks.sort_unstable();
    assert_eq!(ranks, ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]);
    dlxbench()
        .args(["cover", "--quiet"])
        .write_stdin(queens(10))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("724 solutions; "));
    dlxbench()
        .args(["cover", "--limit", "3", "-q"])
        .write_stdin(queens(8))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "3 solutions (the limit: there may be more); ",
        ));
    dlxbench()
        .args(["cover", "-q"])
        .write_stdin(queens(3))
        .assert()
        .code(1);
}

/// `cover`'s last line is the search's own time, a node and (for `dc`,
/// which counts mems) a mem, after the summary line.
#[test]
fn cover_times_the_search_alone() {
    let time = r"\d+(?:\.\d+)? (?:ns|µs|ms|s)";
    for (engine, per) in [
        ("dlx", format!(r"\({time}/node\)")),
        ("dc", format!(r"\({time}/node, {time}/mem\)")),
    ] {
        let out = stdout_of(
            dlxbench()
                .args(["cover", "-q", "--engine", engine])
                .write_stdin(queens(8)),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{engine}: {out}");
        assert!(lines[0].starts_with("92 solutions; "), "{engine}: {out}");
        let pattern = regex::Regex::new(&format!("^search {time} {per}$")).unwrap();
        assert!(pattern.is_match(lines[1]), "{engine}: {out}");
    }
    // No node (no primary column: the empty cover): the time alone.
    let out = stdout_of(
        dlxbench()
            .args(["cover", "-q"])
            .write_stdin("secondary: 1\n1\n"),
    );
    assert!(out.starts_with("1 solution; 0 nodes, "), "{out}");
    assert!(
        out.lines()
            .last()
            .is_some_and(|l| { l.starts_with("search ") && !l.contains('(') }),
        "{out}"
    );
}

#[test]
fn a_full_disk_is_reported_once_naming_the_output() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let puzzles = file_with(&format!("{HARD}\n"));
    let matrix = file_with("0010110\n1001001\n0110010\n1001000\n0100001\n0001101\n");
    let runs: [&[&str]; 6] = [
        &["solve"],
        &["check"],
        &["convert"],
        &["rate", "--naive-nodes", "0"],
        &["cover"],
        &["generate", "--count", "3", "--seed", "1"],
    ];
    for args in runs {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlxbench"));
        cmd.args(args);
        match args[0] {
            "generate" => {}
            "cover" => {
                cmd.arg(matrix.path());
            }
            _ => {
                cmd.arg(puzzles.path());
            }
        }
        let output = cmd
            .stdout(std::fs::File::create(full).unwrap())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let cause = "(os error 28)";
        assert!(
            stderr.contains("cannot write the output: ") && stderr.matches(cause).count() == 1,
            "{args:?}: {stderr}"
        );
    }
}

/// `solve --help` and `bench --help` list every kind's solvers, read from
/// the registries, with their descriptions (and, for bench, their default
/// budgets), each under its kind.
#[test]
fn help_lists_every_kinds_solvers() {
    use dlxbench::kinds::{Kind, KindVisitor, PuzzleKind};

    struct Lines(bool);
    impl KindVisitor for Lines {
        type Output = Vec<(String, String)>;
        fn visit<P: Kind>(self) -> Self::Output {
            P::SOLVERS
                .iter()
                .map(|s| {
                    let mut text = s.description.to_string();
                    if self.0 {
                        let budget = dlxbench::report::describe_budget(s.default_budget);
                        text.push_str(&format!(" (default budget: {budget})"));
                    }
                    (s.name.to_string(), text)
                })
                .collect()
        }
    }
    for (command, budgets) in [("solve", false), ("bench", true)] {
        let help = stdout_of(dlxbench().args([command, "--help"]));
        for &kind in PuzzleKind::ALL {
            let heading = format!("Solvers of --kind {kind}");
            let start = help
                .find(&heading)
                .unwrap_or_else(|| panic!("{command} --help: no `{heading}`:\n{help}"));
            let mut listed = help[start..].lines().skip(1);
            for (name, description) in kind.visit(Lines(budgets)) {
                let line = listed.next().unwrap_or_default();
                let words: Vec<&str> = line.split_whitespace().collect();
                assert_eq!(words.first(), Some(&name.as_str()), "{command}: {line:?}");
                assert_eq!(words[1..].join(" "), description, "{command}: {line:?}");
            }
        }
    }
}
