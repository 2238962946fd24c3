//! `convert`, `rate` and the generator's `--minimal`, `--max-clues` and
//! `--difficulty`, end to end.

use crate::common;

use std::fs;

use predicates::prelude::*;

use common::{dir_entries, dlxbench, line_of, pattern, puzzle_lines, stdout_of, write_file};
use dlxbench::sudoku::rate::Difficulty;

fn clues(line: &str) -> usize {
    line.bytes().filter(|&b| b != b'.').count()
}

// --- generate ------------------------------------------------------------

#[test]
fn minimal_puzzles_lose_uniqueness_without_any_clue() {
    let out = stdout_of(dlxbench().args(["generate", "--minimal", "--count", "3", "--seed", "4"]));
    assert!(out.starts_with("# dlxbench generate --count 3 --seed 4 --box 3x3 --minimal\n"));
    let puzzles: Vec<&str> = puzzle_lines(&out).collect();
    assert_eq!(puzzles.len(), 3);
    // Every puzzle with one clue blanked, checked by the heuristic solver
    // (not the generator's Dancing Links).
    let mut variants = String::new();
    let mut count = 0;
    for p in &puzzles {
        for (i, b) in p.bytes().enumerate() {
            if b != b'.' {
                let mut q = p.as_bytes().to_vec();
                q[i] = b'.';
                variants += std::str::from_utf8(&q).unwrap();
                variants += "\n";
                count += 1;
            }
        }
    }
    let solved = dlxbench()
        .args(["solve", "--solver", "heuristic"])
        .write_stdin(variants)
        .output()
        .unwrap();
    let text = String::from_utf8(solved.stdout).unwrap();
    assert_eq!(text.matches("2+ solutions").count(), count, "{text}");
    // And the puzzles themselves are unique.
    dlxbench()
        .args(["solve", "--solver", "heuristic"])
        .write_stdin(out)
        .assert()
        .success()
        .stderr(predicate::str::contains("3 solved, 0 with several"));
}

#[test]
fn clue_targets_give_unique_puzzles_with_at_most_k_clues() {
    let out = stdout_of(dlxbench().args([
        "generate",
        "--max-clues",
        "21",
        "--count",
        "4",
        "--seed",
        "9",
    ]));
    let lines: Vec<&str> = puzzle_lines(&out).collect();
    assert_eq!(lines.len(), 4);
    for p in &lines {
        assert!(clues(p) <= 21, "{p}");
    }
    dlxbench()
        .args(["solve", "--solver", "singles"])
        .write_stdin(out.clone())
        .assert()
        .success()
        .stderr(predicate::str::contains("4 solved, 0 with several"));
    // The header reproduces the output.
    let header = out
        .lines()
        .next()
        .unwrap()
        .strip_prefix("# dlxbench ")
        .unwrap();
    assert_eq!(stdout_of(dlxbench().args(header.split(' '))), out);
}

#[test]
fn difficulty_targets_match_the_rating() {
    for class in ["easy", "hard"] {
        let out = stdout_of(dlxbench().args([
            "generate",
            "--difficulty",
            class,
            "--count",
            "3",
            "--seed",
            "2",
        ]));
        let csv = stdout_of(
            dlxbench()
                .args(["rate", "--naive-nodes", "0"])
                .write_stdin(out),
        );
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(rows.len(), 3);
        for row in rows {
            assert!(row.ends_with(&format!(",{class}")), "{row}");
        }
    }
}

#[test]
fn impossible_or_clashing_generator_options_are_usage_errors() {
    for (args, message) in [
        (&["--max-clues", "16"][..], "17 clues"),
        (&["--max-clues", "22", "--symmetric"], "--symmetric"),
        (&["--minimal", "--min-clues", "30"], "--min-clues"),
        (&["--minimal", "--check-nodes", "100"], "unbounded"),
        (&["--difficulty", "hard", "--box", "2x2"], "9x9"),
        (&["--difficulty", "brutal"], "brutal"),
        (&["--max-clues", "0"], "at least 1"),
    ] {
        dlxbench()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    // A target out of reach in the steps allowed fails with exit 1.
    dlxbench()
        .args([
            "generate",
            "--max-clues",
            "17",
            "--max-steps",
            "20",
            "--seed",
            "1",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("within 20 local-search steps"));
}

// --- convert -------------------------------------------------------------

/// A valid full grid with `r x c` boxes, with some cells blanked.
fn puzzle_cells(r: usize, c: usize) -> Vec<u8> {
    let mut cells = pattern(r, c);
    for (i, v) in cells.iter_mut().enumerate() {
        if (i * 7) % 5 < 2 {
            *v = 0;
        }
    }
    cells
}

fn convert(args: &[&str], input: &str) -> String {
    stdout_of(
        dlxbench()
            .arg("convert")
            .args(args)
            .write_stdin(input.to_string()),
    )
}

#[test]
fn convert_round_trips_every_format_and_size() {
    let shapes = [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (3, 3),
        (2, 5),
        (3, 4),
        (4, 4),
        (4, 5),
        (5, 5),
        (6, 6),
        (8, 8),
        (10, 10),
    ];
    for (r, c) in shapes {
        let n = r * c;
        let shape = format!("{r}x{c}");
        // Two different puzzles of the size, one after the other.
        let first = puzzle_cells(r, c);
        let mut second = first.clone();
        second.rotate_left(n); // rows shifted: still a valid pattern
        let line = format!("{}\n{}\n", line_of(&first, n), line_of(&second, n));
        let with_box = ["--box", shape.as_str()];
        for to in ["line", "grid", "numeric"] {
            let there = convert(&[&["--to", to][..], &with_box].concat(), &line);
            let back = convert(&with_box, &there);
            assert_eq!(back, line, "{shape} via {to}:\n{there}");
            // And onwards to every other format.
            for next in ["line", "grid", "numeric"] {
                let onward = convert(&[&["--to", next][..], &with_box].concat(), &there);
                assert_eq!(convert(&with_box, &onward), line, "{shape}: {to} -> {next}");
            }
        }
        if n <= 61 {
            // `0` for blanks reads back the same.
            let zeros = convert(&[&["--blank", "0"][..], &with_box].concat(), &line);
            assert!(!zeros.contains('.'));
            assert_eq!(convert(&with_box, &zeros), line);
        }
    }
}

#[test]
fn convert_shapes_and_alphabets() {
    let line = "1.3..4..";
    let nine = ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
    let grid = convert(&["--to", "grid"], nine);
    assert_eq!(grid.lines().next(), Some(". 2 . | . 5 . | 6 . 8"));
    assert_eq!(grid.lines().nth(3), Some("------+-------+------"));
    assert!(grid.ends_with("\n\n"));
    let numeric = convert(&["--to", "numeric"], nine);
    assert!(numeric.starts_with("3\n0 2 0 0 5 0 6 0 8\n"), "{numeric}");
    // 16x16 from 0-9A-F to the standard alphabet and back.
    let cells = puzzle_cells(4, 4);
    let zero_based: String = cells
        .iter()
        .map(|&v| b".0123456789ABCDEF"[v as usize] as char)
        .collect();
    let standard = convert(
        &["--alphabet", "zero-based", "--to-alphabet", "standard"],
        &zero_based,
    );
    assert_eq!(standard, format!("{}\n", line_of(&cells, 16)));
    assert_eq!(
        convert(&["--to-alphabet", "zero-based"], &standard),
        format!("{zero_based}\n")
    );
    dlxbench()
        .args(["convert", "--alphabet", "zero-based", "--blank", "0"])
        .write_stdin(line)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("zero-based"));
}

#[test]
fn convert_reports_bad_puzzles_and_strict_stops() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_file(
        dir.path(),
        "mixed.txt",
        "1..4..2..3..4..1\n# comment\n1..4..2..3..4..x\n\n1..4..2..3..4..1\n12\n",
    );
    let out = dir.path().join("out.txt");
    dlxbench()
        .arg("convert")
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("mixed.txt: line 3, column 16"))
        .stderr(predicate::str::contains("mixed.txt: line 6:"))
        .stderr(predicate::str::contains(
            "2 puzzles converted, 2 unreadable",
        ));
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "1..4..2..3..4..1\n1..4..2..3..4..1\n"
    );
    // --strict stops at the first bad puzzle and leaves no output file.
    let strict = dir.path().join("strict.txt");
    dlxbench()
        .arg("convert")
        .arg(&input)
        .args(["--strict", "--out"])
        .arg(&strict)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line 3, column 16"))
        .stderr(predicate::str::contains("line 6").not());
    assert!(!strict.exists());
    assert_eq!(
        dir_entries(dir.path()),
        ["mixed.txt", "out.txt"],
        "no temporary left"
    );
    dlxbench()
        .args(["convert", "no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read no/such/file.txt"));
}

// --- rate ----------------------------------------------------------------

#[test]
fn rate_writes_one_plausible_row_per_puzzle() {
    let generated = stdout_of(dlxbench().args(["generate", "--count", "60", "--seed", "3"]));
    let hard = ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
    let input = format!("{generated}{hard}\n{}\nbad line\n", ".".repeat(81));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rating.csv");
    dlxbench()
        .args(["rate", "--threads", "2", "--naive-nodes", "2000", "--out"])
        .arg(&out)
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("line 64:"))
        .stderr(predicate::str::contains("62 puzzles rated"));
    let csv = fs::read_to_string(&out).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "line");
    assert_eq!(header.last(), Some(&"difficulty"));
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 62);
    let mut by_guesses: Vec<(u64, Difficulty)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), header.len(), "{row:?}");
        // Input order: the generator's header is line 1.
        assert_eq!(row[col("line")], (i + 2).to_string());
        let number = |name: &str| row[col(name)].parse::<u64>().unwrap();
        assert!(number("dlx_nodes") >= number("dlx_guesses"));
        assert!(number("singles_nodes") >= number("singles_guesses"));
        assert!(number("naive_nodes") <= 2000);
        if row[col("naive_finished")] == "false" {
            assert_eq!(number("naive_nodes"), 2000, "{row:?}");
        }
        let clues = number("clues");
        if i < 60 {
            assert_eq!(row[col("status")], "unique");
            assert!((17..=35).contains(&clues), "{clues}");
            let class: Difficulty = row[col("difficulty")].parse().unwrap();
            by_guesses.push((number("singles_guesses"), class));
        }
    }
    // The hard puzzle, then the empty grid (several solutions, no class).
    assert_eq!(rows[60][col("clues")], "18");
    assert!(!rows[60][col("difficulty")].is_empty());
    assert_eq!(rows[61][col("status")], "multiple");
    assert_eq!(rows[61][col("difficulty")], "");
    // The class never goes down as the guesses go up.
    by_guesses.sort();
    assert!(
        by_guesses.windows(2).all(|w| w[0].1 <= w[1].1),
        "{by_guesses:?}"
    );
    assert!(by_guesses.iter().any(|g| g.1 == Difficulty::Easy));
    assert!(by_guesses.iter().any(|g| g.1 > Difficulty::Easy));
    // Standard output and one thread give the same rows.
    let again = stdout_of(
        dlxbench()
            .args(["rate", "--threads", "1", "--naive-nodes", "2000"])
            .write_stdin(format!("{generated}{hard}\n{}\n", ".".repeat(81))),
    );
    assert_eq!(again, csv);
}
