//! One input policy for the subcommands that read puzzle files (`solve`,
//! `check`, `convert`, `rate`, and `cover` for its one matrix): each runs
//! on the same four inputs, and the verdicts must agree.
//!
//! | input | verdict |
//! |---|---|
//! | byte-order mark, then puzzles | read from line 1: exit 0 |
//! | byte-order mark, CRLF line ends, a comment | the same |
//! | random bytes | exit 2: no puzzle could be read |
//! | empty (a file, or standard input) | exit 2: no puzzles |
//!
//! The one deliberate difference is `cover`'s: a matrix is one problem, so
//! random bytes fail as "not UTF-8 text" at once (a puzzle file reports
//! each unreadable puzzle first), and an empty input is "no matrix".

use crate::common;

use std::path::Path;

use assert_cmd::assert::Assert;

use common::{dlxbench, puzzle_lines, write_file};

const BOM: &str = "\u{feff}";

/// The first `n` puzzle lines of a kind's embedded corpus.
fn first(corpus: &[u8], n: usize) -> Vec<String> {
    let text = std::str::from_utf8(corpus).unwrap();
    puzzle_lines(text).take(n).map(String::from).collect()
}

/// A file of `lines` starting with a byte-order mark: LF line ends, or
/// CRLF ones with a comment first (so the puzzles start on line 2).
fn with_bom(lines: &[String], crlf: bool) -> String {
    match crlf {
        false => format!("{BOM}{}\n", lines.join("\n")),
        true => format!("{BOM}# a comment\r\n{}\r\n", lines.join("\r\n")),
    }
}

/// A fixed pattern of bytes (xorshift, one seed): no puzzle, not text.
fn random_bytes() -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..3000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A subcommand under test: its arguments before the file, and what its
/// puzzles are.
struct Subcommand {
    args: &'static [&'static str],
    /// The two puzzles (or matrix rows) of the good inputs.
    good: Vec<String>,
    /// Whether it is `cover`, with its own format.
    cover: bool,
}

fn subcommands() -> Vec<Subcommand> {
    let sudoku = first(dlxbench::datasets::DEFAULT_CORPUS, 2);
    let hanidoku = first(dlxbench::hanidoku::DEFAULT_CORPUS, 2);
    let puzzles = |args, good: &Vec<String>| Subcommand {
        args,
        good: good.clone(),
        cover: false,
    };
    vec![
        puzzles(&["solve"], &sudoku),
        puzzles(&["check"], &sudoku),
        puzzles(&["convert", "--to", "grid"], &sudoku),
        puzzles(&["rate", "--naive-nodes", "0"], &sudoku),
        puzzles(&["solve", "--kind", "hanidoku"], &hanidoku),
        puzzles(&["check", "--kind", "hanidoku"], &hanidoku),
        Subcommand {
            args: &["cover"],
            // Knuth's 6x7 example: rows 1, 4 and 5 are the only cover.
            good: [
                "0010110", "1001001", "0110010", "1001000", "0100001", "0001101",
            ]
            .map(String::from)
            .to_vec(),
            cover: true,
        },
    ]
}

fn run(sub: &Subcommand, file: &Path) -> Assert {
    dlxbench().args(sub.args).arg(file).assert()
}

fn stderr(assert: &Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn stdout(assert: &Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

/// The puzzle subcommands' summary line says how many puzzles were read
/// and that none was unreadable.
fn assert_read_all(sub: &Subcommand, assert: &Assert) {
    let err = stderr(assert);
    if sub.cover {
        assert!(err.is_empty(), "{:?}: {err}", sub.args);
        assert!(
            stdout(assert).contains("solution 1: rows 1 4 5"),
            "{:?}",
            sub.args
        );
    } else {
        let count = format!("{} puzzles", sub.good.len());
        assert!(err.contains(&count), "{:?}: {err}", sub.args);
        assert!(err.contains("0 unreadable"), "{:?}: {err}", sub.args);
        assert!(!stdout(assert).is_empty(), "{:?}", sub.args);
    }
}

#[test]
fn a_byte_order_mark_is_skipped_and_crlf_is_fine_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    for sub in subcommands() {
        let lf = write_file(dir.path(), "bom.txt", with_bom(&sub.good, false));
        let first_run = run(&sub, &lf).code(0);
        assert_read_all(&sub, &first_run);
        let crlf = write_file(dir.path(), "bom-crlf.txt", with_bom(&sub.good, true));
        let second_run = run(&sub, &crlf).code(0);
        assert_read_all(&sub, &second_run);
        // The same records, one line further down for the comment.
        if sub.args[0] == "check" {
            assert!(stdout(&first_run).starts_with("line 1: "));
            assert!(stdout(&second_run).starts_with("line 2: "));
        }
    }
}

#[test]
fn the_byte_order_mark_is_read_on_the_puzzle_line_itself() {
    // Without the policy, the mark would be three bad symbols in column 1.
    let dir = tempfile::tempdir().unwrap();
    let sudoku = first(dlxbench::datasets::DEFAULT_CORPUS, 1);
    let file = write_file(dir.path(), "one.txt", with_bom(&sudoku, false));
    let out = dlxbench().arg("convert").arg(&file).assert().code(0);
    assert_eq!(stdout(&out), format!("{}\n", sudoku[0]));
    let out = dlxbench().arg("rate").arg(&file).assert().code(0);
    assert!(stdout(&out).lines().nth(1).unwrap().starts_with("1,9,"));
}

#[test]
fn random_bytes_exit_2_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = random_bytes();
    assert!(std::str::from_utf8(&bytes).is_err());
    let file = write_file(dir.path(), "random.bin", &bytes);
    for sub in subcommands() {
        let assert = run(&sub, &file).code(2);
        let err = stderr(&assert);
        let expected = match sub.cover {
            true => "random.bin: line 1: not UTF-8 text",
            false => "random.bin: no puzzle could be read (",
        };
        assert!(err.contains(expected), "{:?}: {err}", sub.args);
    }
}

#[test]
fn an_empty_input_exits_2_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write_file(dir.path(), "empty.txt", "");
    let comments = write_file(
        dir.path(),
        "comments.txt",
        format!("{BOM}# nothing\r\n\r\n"),
    );
    for sub in subcommands() {
        let expected = match sub.cover {
            true => "no matrix: the input has no rows",
            false => "no puzzles (the input is empty or holds only comments and blank lines)",
        };
        for file in [&empty, &comments] {
            let assert = run(&sub, file).code(2);
            let err = stderr(&assert);
            let name = file.file_name().unwrap().to_string_lossy();
            assert!(
                err.contains(&format!("{name}: {expected}")),
                "{:?}: {err}",
                sub.args
            );
        }
        // Standard input, empty: the same.
        let assert = dlxbench().args(sub.args).write_stdin("").assert().code(2);
        assert!(stderr(&assert).contains(expected), "{:?}", sub.args);
    }
}

#[test]
fn nothing_is_written_for_an_input_without_a_readable_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write_file(dir.path(), "empty.txt", "");
    let random = write_file(dir.path(), "random.bin", random_bytes());
    for input in [&empty, &random] {
        for command in ["convert", "rate"] {
            let out = dir.path().join(format!("{command}.out"));
            let assert = dlxbench()
                .args([command, "--out"])
                .arg(&out)
                .arg(input)
                .assert()
                .code(2);
            assert!(stdout(&assert).is_empty());
            assert!(!out.exists(), "{command} wrote {}", out.display());
        }
        // Not even rate's CSV header on standard output.
        let assert = dlxbench().arg("rate").arg(input).assert().code(2);
        assert!(stdout(&assert).is_empty());
    }
    let names: Vec<String> = common::dir_entries(dir.path());
    assert_eq!(names, ["empty.txt", "random.bin"]);
}

#[test]
fn one_readable_puzzle_is_enough() {
    // Unreadable puzzles next to a readable one: reported, exit 1, not 2.
    let dir = tempfile::tempdir().unwrap();
    for sub in subcommands().iter().filter(|s| !s.cover) {
        let lines = [sub.good[0].clone(), "not a puzzle".into()];
        let file = write_file(dir.path(), "mixed.txt", with_bom(&lines, true));
        let assert = run(sub, &file).code(1);
        let err = stderr(&assert);
        assert!(err.contains("1 unreadable"), "{:?}: {err}", sub.args);
        assert!(!err.contains("no puzzle could be read"), "{:?}", sub.args);
    }
}

#[test]
fn a_directory_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    for sub in subcommands() {
        let assert = run(&sub, dir.path()).code(2);
        assert!(stdout(&assert).is_empty(), "{:?}", sub.args);
        assert!(
            stderr(&assert).contains("is a directory"),
            "{:?}: {}",
            sub.args,
            stderr(&assert)
        );
    }
}

#[test]
fn a_line_too_long_for_any_puzzle_is_unreadable() {
    let max = dlxbench::corpus::MAX_LINE_BYTES;
    let dir = tempfile::tempdir().unwrap();
    for sub in subcommands().iter().filter(|s| !s.cover) {
        let lines = ["7".repeat(max + 1), sub.good[0].clone()];
        let file = write_file(dir.path(), "long.txt", with_bom(&lines, false));
        let assert = run(sub, &file).code(1);
        let all = stdout(&assert) + &stderr(&assert);
        let message = format!("line 1: a line of more than {max} bytes");
        let message_check = format!("line 1: unreadable: a line of more than {max} bytes");
        assert!(
            all.contains(&message) || all.contains(&message_check),
            "{:?}: {all}",
            sub.args
        );
        assert!(all.contains("1 unreadable"), "{:?}: {all}", sub.args);
    }
    // An endless line: reported at once (`--strict` stops there).
    if Path::new("/dev/zero").exists() {
        dlxbench()
            .args(["convert", "--strict", "/dev/zero"])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(1)
            .stderr(predicates::str::contains(format!(
                "/dev/zero: line 1: a line of more than {max} bytes"
            )));
    }
}

/// `bench` follows the same policy on its corpora: a byte-order mark and
/// CRLF line ends are fine, and a corpus with no readable puzzle (random
/// bytes, only comments, nothing) exits 2 naming it.
#[test]
fn bench_follows_the_same_policy() {
    let dir = tempfile::tempdir().unwrap();
    let good = first(dlxbench::datasets::DEFAULT_CORPUS, 2);
    let bench = |file: &Path, out: &str| {
        dlxbench()
            .args(["bench", "-q", "--solvers", "dlx", "--out"])
            .arg(dir.path().join(out))
            .arg(file)
            .assert()
    };
    for (name, crlf) in [("bom.txt", false), ("bom-crlf.txt", true)] {
        let file = write_file(dir.path(), name, with_bom(&good, crlf));
        let out = format!("{name}.out");
        bench(&file, &out).code(0);
        let summary = std::fs::read_to_string(dir.path().join(&out).join("summary.csv")).unwrap();
        let row = summary.lines().nth(1).unwrap();
        // corpus,solver,puzzles,solved,...,malformed (8th column) = 0
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(
            (fields[2], fields[3], fields[7]),
            ("2", "2", "0"),
            "{name}: {row}"
        );
    }
    let random = write_file(dir.path(), "random.bin", random_bytes());
    let err = stderr(&bench(&random, "r").code(2));
    assert!(
        err.contains("random.bin: no puzzle could be read ("),
        "{err}"
    );
    for (name, text) in [
        ("empty.txt", String::new()),
        ("comments.txt", format!("{BOM}# nothing\r\n")),
    ] {
        let file = write_file(dir.path(), name, text);
        let err = stderr(&bench(&file, &format!("{name}.out")).code(2));
        assert!(err.contains(&format!("{name}: no puzzles")), "{err}");
    }
}
