//! The exact-cover example inputs under `examples/inputs/`: they are what
//! the library's builders make, and `dlxbench cover` counts them right.

use crate::common;

use predicates::prelude::*;
use std::path::{Path, PathBuf};

use common::{dlxbench, repo_path};
use dlxbench::exact_cover::puzzles::{langford, pentominoes, queens, CoverPuzzle, PentominoBoard};

fn input(name: &str) -> PathBuf {
    repo_path("examples/inputs").join(name)
}

/// The file without its `#` comment lines.
fn without_comments(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.starts_with("# "),
        "{}: a comment first",
        path.display()
    );
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn cover_count(name: &str, expected: &str) {
    dlxbench()
        .args(["cover", "-q"])
        .arg(input(name))
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!(
            "{expected} solutions; "
        )));
}

#[test]
fn committed_inputs_are_what_the_builders_make() {
    let cases: [(&str, CoverPuzzle); 5] = [
        ("queens8.txt", queens(8).unwrap()),
        ("langford7.txt", langford(7, true).unwrap()),
        ("langford8_all.txt", langford(8, false).unwrap()),
        (
            "pentominoes_3x20.txt",
            pentominoes(&PentominoBoard::rectangle(3, 20).unwrap(), true).unwrap(),
        ),
        (
            "pentominoes_6x10.txt",
            pentominoes(&PentominoBoard::rectangle(6, 10).unwrap(), true).unwrap(),
        ),
    ];
    for (name, puzzle) in cases {
        assert_eq!(
            without_comments(&input(name)),
            puzzle.to_named_text(""),
            "{name}: regenerate it with the command in its first lines"
        );
    }
}

#[test]
fn cover_counts_the_example_inputs() {
    cover_count("queens8.txt", "92");
    cover_count("langford7.txt", "26");
    cover_count("langford8_all.txt", "300");
    cover_count("pentominoes_3x20.txt", "2");
}

#[test]
#[ignore = "about 5 s in the test profile: run with --include-ignored"]
fn cover_counts_the_6x10_pentominoes() {
    cover_count("pentominoes_6x10.txt", "2339");
}
