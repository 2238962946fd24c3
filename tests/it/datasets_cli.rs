//! `dlxbench generate` and `dlxbench datasets` end to end.

use crate::common;

use std::fs;
use std::path::PathBuf;

use dlxbench::solvers::{Budget, Solver};
use dlxbench::sudoku::solvers::dlx::DlxSolver;
use dlxbench::sudoku::{self, Grid, ParseOptions, Puzzles};
use predicates::prelude::*;

use common::{assert_regenerates, dir_entries, dlxbench, repo_path, stdout_of, write_file};

fn generated_dir() -> PathBuf {
    repo_path("datasets/generated")
}

fn parse_all(text: &str) -> Vec<Grid> {
    Puzzles::new(text, ParseOptions::default())
        .map(|r| r.unwrap().1)
        .collect()
}

fn solutions(solver: &mut DlxSolver, puzzle: &Grid) -> u64 {
    let mut scratch = puzzle.clone();
    solver
        .solve(puzzle, 2, Budget::UNLIMITED, &mut scratch)
        .solutions
}

#[test]
fn generate_is_deterministic_and_unique() {
    let args = ["generate", "--count", "20", "--seed", "99"];
    let a = stdout_of(dlxbench().args(args));
    assert_eq!(a, stdout_of(dlxbench().args(args)));
    let b = stdout_of(dlxbench().args(["generate", "--count", "20", "--seed", "100"]));
    assert_ne!(a, b);
    let mut lines = a.lines();
    assert_eq!(
        lines.next(),
        Some("# dlxbench generate --count 20 --seed 99 --box 3x3")
    );
    assert!(lines.all(|l| l.len() == 81));
    let puzzles = parse_all(&a);
    assert_eq!(puzzles.len(), 20);
    let mut dlx = DlxSolver::new();
    for p in &puzzles {
        assert_eq!(solutions(&mut dlx, p), 1);
        assert!(p.clues() >= 17);
    }
}

#[test]
fn generate_options_shape_the_puzzles() {
    let text = stdout_of(dlxbench().args([
        "generate",
        "--count",
        "5",
        "--seed",
        "3",
        "--box",
        "2x3",
        "--min-clues",
        "14",
        "--symmetric",
        "--unique",
    ]));
    assert!(text.starts_with(
        "# dlxbench generate --count 5 --seed 3 --box 2x3 --min-clues 14 --symmetric\n"
    ));
    let mut dlx = DlxSolver::new();
    for p in parse_all(&text) {
        assert_eq!(p.side(), 6);
        assert!(p.clues() >= 14);
        let cells = p.cells();
        assert!((0..36).all(|i| (cells[i] == 0) == (cells[35 - i] == 0)));
        assert_eq!(solutions(&mut dlx, &p), 1);
    }
}

#[test]
fn generate_numeric_format_reads_back() {
    let args = ["generate", "--count", "3", "--seed", "5", "--box", "2x2"];
    let line = stdout_of(dlxbench().args(args));
    let numeric = stdout_of(dlxbench().args(args).args(["--format", "numeric"]));
    assert!(numeric.lines().nth(1) == Some("2"), "{numeric}");
    assert_eq!(parse_all(&line), parse_all(&numeric));
}

#[test]
fn generate_writes_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.txt");
    dlxbench()
        .args(["generate", "--count", "4", "--seed", "8", "--out"])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 5);
    assert_eq!(dir_entries(dir.path()), ["p.txt"], "no temp file left");
}

#[test]
fn generate_rejects_bad_usage() {
    for args in [
        &["generate", "--box", "1x9"][..],
        &["generate", "--box", "9x9"],
        &["generate", "--count", "x"],
    ] {
        dlxbench().args(args).assert().code(2);
    }
}

/// Regenerates a committed corpus with the command in its header line.
fn regenerate(file: &str) {
    assert_regenerates(&generated_dir().join(file));
}

#[test]
fn committed_small_corpora_regenerate_byte_identical() {
    for file in [
        "gen_4x4_100.txt",
        "gen_6x6_100.txt",
        "gen_9x9_1000.txt",
        "gen_9x9_symmetric_100.txt",
    ] {
        regenerate(file);
    }
}

#[test]
#[ignore = "slow in debug builds (about a minute): run with --include-ignored"]
fn committed_large_corpora_regenerate_byte_identical() {
    for file in ["gen_12x12_50.txt", "gen_16x16_200.txt", "gen_25x25_20.txt"] {
        regenerate(file);
    }
}

#[test]
fn the_embedded_default_corpus_is_the_committed_file() {
    let file = generated_dir().join(format!("{}.txt", dlxbench::datasets::DEFAULT_CORPUS_NAME));
    assert_eq!(fs::read(file).unwrap(), dlxbench::datasets::DEFAULT_CORPUS);
    let puzzles = parse_all(std::str::from_utf8(dlxbench::datasets::DEFAULT_CORPUS).unwrap());
    assert_eq!(puzzles.len(), 1000);
    assert!(puzzles.iter().all(|p| p.side() == 9));
}

#[test]
fn committed_corpora_are_proper_puzzles() {
    let mut dlx = DlxSolver::new();
    for entry in fs::read_dir(generated_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for (i, p) in parse_all(&text).iter().enumerate() {
            // The 25x25 ones take a while to count; their uniqueness is
            // re-checked by the regeneration test.
            if p.side() <= 16 {
                assert_eq!(solutions(&mut dlx, p), 1, "{} puzzle {i}", path.display());
            } else {
                assert!(matches!(
                    sudoku::check(p),
                    sudoku::Verdict::Incomplete { .. }
                ));
            }
        }
    }
}

#[test]
fn datasets_list_shows_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout_of(
        dlxbench()
            .args(["datasets", "list", "--dir"])
            .arg(dir.path()),
    );
    assert!(out.lines().next().unwrap().starts_with("name"));
    assert_eq!(out.lines().count(), 1 + dlxbench::datasets::CATALOGUE.len());
    let row = out
        .lines()
        .find(|l| l.starts_with("magictour_top1465 "))
        .unwrap();
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        fields,
        [
            "magictour_top1465",
            "9x9",
            "1465",
            "hard",
            "download",
            "no",
            "-"
        ]
    );
    // Where each corpus comes from: a download, a derivation, or a mirror.
    let source = |name: &str| {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap();
        row.split_whitespace().nth(4).unwrap().to_string()
    };
    assert_eq!(
        source("derived_nosolution_17clue_2000"),
        "derived:sudoku17_all_49158"
    );
    assert_eq!(
        source("derived_changedclue_top1465"),
        "derived:magictour_top1465"
    );
    assert_eq!(source("acs_general_25x25_2100"), "mirror-only");
    assert_eq!(source("hanidoku_172"), "download");
    assert!(out.lines().next().unwrap().contains(" source "));
    // A corrupted file is reported and fails the listing.
    write_file(dir.path(), "top91.txt", "junk\n");
    dlxbench()
        .args(["datasets", "list", "--dir"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(r"(?m)^top91 .* yes +MISMATCH$").unwrap());
}

#[test]
fn datasets_fetch_rejects_unknown_names_and_missing_mirrors() {
    dlxbench()
        .args(["datasets", "fetch", "no_such_corpus"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown corpus `no_such_corpus`"))
        .stderr(predicate::str::contains("magictour_top1465"));
    dlxbench()
        .args(["datasets", "fetch", "top91", "--from", "/no/such/dir"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a directory"));
}

#[test]
fn datasets_fetch_never_installs_a_bad_copy() {
    let mirror = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write_file(mirror.path(), "top91.txt", "not top91\n");
    write_file(dir.path(), "top91.txt", "old\n");
    dlxbench()
        .args(["datasets", "fetch", "top91", "top100", "--from"])
        .arg(mirror.path())
        .arg("--dir")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(
                r"(?m)^top91 +failed: .*SHA-256 is [0-9a-f]{64}, expected 91f0",
            )
            .unwrap(),
        )
        .stdout(predicate::str::is_match(r"(?m)^top100 +failed: .*top100.txt").unwrap());
    assert_eq!(
        fs::read_to_string(dir.path().join("top91.txt")).unwrap(),
        "old\n"
    );
    assert_eq!(dir_entries(dir.path()), ["top91.txt"], "no temp file left");
}

#[test]
fn datasets_fetch_without_a_url_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    dlxbench()
        .args(["datasets", "fetch", "acs_general_9x9_2100", "--dir"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "no public source: ask the project for a copy of its corpus mirror",
        ))
        .stdout(predicate::str::contains("--from DIR"))
        .stderr(predicate::str::contains("`mirror-only` in `datasets list`"));
    assert!(dir_entries(dir.path()).is_empty());
}

/// The corpus mirror: `$DLXBENCH_MIRROR`, or `../shared/datasets`.
fn shared_mirror() -> PathBuf {
    std::env::var_os("DLXBENCH_MIRROR")
        .map_or_else(|| repo_path("../shared/datasets"), PathBuf::from)
}

#[test]
#[ignore = "needs the corpus mirror ../shared/datasets"]
fn datasets_fetch_from_the_mirror() {
    let dir = tempfile::tempdir().unwrap();
    let fetch = |names: &[&str]| {
        let mut cmd = dlxbench();
        cmd.args(["datasets", "fetch"])
            .args(names)
            .arg("--from")
            .arg(shared_mirror())
            .arg("--dir")
            .arg(dir.path());
        cmd
    };
    let out = stdout_of(&mut fetch(&["norvig_hardest11", "plb_hard20"]));
    assert!(out.contains("norvig_hardest11  fetched"), "{out}");
    let out = stdout_of(&mut fetch(&["norvig_hardest11"]));
    assert!(out.contains("up to date"), "{out}");
    // A corrupted copy is replaced by a good one.
    write_file(dir.path(), "plb_hard20.txt", "junk");
    let out = stdout_of(&mut fetch(&["plb_hard20.txt"]));
    assert!(out.contains("replaced a file with a bad checksum"), "{out}");
    let list = stdout_of(
        dlxbench()
            .args(["datasets", "list", "--dir"])
            .arg(dir.path()),
    );
    let ok: Vec<&str> = list
        .lines()
        .filter(|l| l.ends_with(" ok"))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(ok, ["norvig_hardest11", "plb_hard20"]);
}

#[test]
#[ignore = "needs the corpus mirror ../shared/datasets"]
fn datasets_fetch_derives_from_a_present_source() {
    // With top1465 in the datasets directory, its derived corpora are rebuilt
    // locally (no download) with the catalogue's checksums.
    let dir = tempfile::tempdir().unwrap();
    let mut copy = dlxbench();
    copy.args(["datasets", "fetch", "magictour_top1465", "--from"])
        .arg(shared_mirror())
        .arg("--dir")
        .arg(dir.path());
    stdout_of(&mut copy);
    let derived = ["derived_nosolution_top1465", "derived_changedclue_top1465"];
    let out = stdout_of(
        dlxbench()
            .args(["datasets", "fetch"])
            .args(derived)
            .arg("--dir")
            .arg(dir.path()),
    );
    for name in derived {
        assert!(
            out.lines()
                .any(|l| l.starts_with(name) && l.ends_with("  fetched")),
            "{out}"
        );
        assert_eq!(
            fs::read(dir.path().join(format!("{name}.txt"))).unwrap(),
            fs::read(shared_mirror().join(format!("{name}.txt"))).unwrap()
        );
    }
    assert_eq!(
        dir_entries(dir.path()),
        [
            "derived_changedclue_top1465.txt",
            "derived_nosolution_top1465.txt",
            "magictour_top1465.txt"
        ]
    );
}
