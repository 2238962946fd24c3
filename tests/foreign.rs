#![cfg(target_os = "linux")]
//! Solvers loaded from shared libraries through the C interface
//! (`dlxbench::solvers::foreign`): the C example solver is compiled here
//! with the `cc` crate, loaded, run through the harness beside `dlx`, and
//! trusted no more than a built-in solver; each way loading can fail is a
//! clear error.

mod common;

use std::path::{Path, PathBuf};

use common::repo_path;
use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, Config, DiscrepancyKind, Lineup};
use dlxbench::solvers::foreign::{self, ForeignError, LibrarySpec};
use dlxbench::solvers::{Budget, SolverSet, SolverSetError};
use dlxbench::sudoku::{BoxShape, Grid};

/// Compiles `source` into a shared library `lib{name}.so` in `dir`.
fn shared_library(dir: &Path, name: &str, source: &Path) -> PathBuf {
    let target = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    let compiler = cc::Build::new()
        .target(&target)
        .host(&target)
        .opt_level(2)
        .cargo_metadata(false)
        .get_compiler();
    let out = dir.join(format!("lib{name}.so"));
    let status = compiler
        .to_command()
        .args(["-shared", "-fPIC", "-o"])
        .arg(&out)
        .arg(source)
        .status()
        .expect("a C compiler");
    assert!(status.success(), "compiling {}", source.display());
    out
}

fn example_library(dir: &Path) -> PathBuf {
    shared_library(dir, "example", &repo_path("examples/c-solver/solver.c"))
}

fn spec(text: &str) -> LibrarySpec {
    text.parse().unwrap()
}

fn run(entries: Vec<dlxbench::solvers::SolverEntry<Grid>>, corpus: &Corpus) -> harness::RunResult {
    let lineup = Lineup::new(entries);
    let config = Config::new(&lineup);
    harness::run(std::slice::from_ref(corpus), &config, &lineup, None, None).unwrap()
}

fn generated() -> Corpus {
    Corpus::open(&repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap()
}

#[test]
fn the_c_example_agrees_with_dlx_on_every_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    let mut set = SolverSet::<Grid>::builtin();
    set.add(foreign::load(&spec(&format!("{}:example_solve=c-example", lib.display()))).unwrap())
        .unwrap();
    let entries = set.select(&["dlx".into(), "c-example".into()]).unwrap();
    let result = run(entries, &generated());
    assert!(
        result.discrepancies.is_empty(),
        "{:?}",
        result.discrepancies
    );
    let c = &result.corpora[0].solvers[1];
    assert_eq!(c.name, "c-example");
    assert_eq!((c.puzzles, c.solved, c.invalid), (1000, 1000, 0));
    // Its own count of guesses comes through.
    assert!(c.total_guesses > 0);
}

/// Returns 1 with the clues alone (not a solution) on puzzles whose first
/// cell is blank; claims 2 solutions on the others.
const WRONG: &str = r#"
#include <stddef.h>
#include <stdint.h>
size_t wrong(const char *input, size_t limit, uint32_t flags, char *solution, size_t *guesses) {
    (void)limit; (void)flags;
    *guesses = 0;
    for (int i = 0; i < 81; i++) solution[i] = input[i] == '.' ? '1' : input[i];
    return input[0] == '.' ? 1 : 2;
}
"#;

#[test]
fn a_wrong_c_solver_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("wrong.c");
    std::fs::write(&source, WRONG).unwrap();
    let lib = shared_library(dir.path(), "wrong", &source);
    let mut set = SolverSet::<Grid>::builtin();
    set.add(foreign::load(&spec(&format!("{}:wrong", lib.display()))).unwrap())
        .unwrap();
    let entries = set.select(&["dlx".into(), "wrong".into()]).unwrap();
    let result = run(entries, &generated());
    let invalid = result
        .discrepancies
        .iter()
        .filter(|d| d.kind == DiscrepancyKind::InvalidSolution("wrong".into()))
        .count();
    let disagree = result
        .discrepancies
        .iter()
        .filter(|d| d.kind == DiscrepancyKind::Disagreement)
        .count();
    assert!(
        invalid > 0 && disagree > 0,
        "{invalid} invalid, {disagree} disagreements"
    );
    assert!(result.failed(false));
    assert_eq!(result.corpora[0].solvers[1].invalid, invalid as u64);
}

#[test]
fn a_loaded_solver_takes_only_9x9_sudoku() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    let entry = foreign::load::<Grid>(&spec(&format!("{}:example_solve", lib.display()))).unwrap();
    let solver = entry.make();
    assert!(solver.accepts(&Grid::empty(BoxShape::NINE)));
    assert!(!solver.accepts(&Grid::empty(BoxShape::new(4, 4).unwrap())));
    let board = foreign::load::<dlxbench::hanidoku::Board>(&spec(&format!(
        "{}:example_solve",
        lib.display()
    )))
    .unwrap();
    assert!(!board.make().accepts(&dlxbench::hanidoku::Board::EMPTY));
    // The empty 9x9 grid: the limit is passed through.
    let mut solver = entry.make();
    let mut solution = Grid::empty(BoxShape::NINE);
    let empty = Grid::empty(BoxShape::NINE);
    let out = solver.solve(&empty, 5, Budget::UNLIMITED, &mut solution);
    assert_eq!(out.solutions, 5);
    assert!(dlxbench::sudoku::is_solution_of(&solution, &empty));
}

#[test]
fn each_loading_failure_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    // Malformed specs.
    for bad in [
        "no-colon.so",
        "lib.so:",
        ":sym",
        "lib.so:1sym",
        "lib.so:sym@x",
        "lib.so:sym=",
    ] {
        assert_eq!(
            bad.parse::<LibrarySpec>(),
            Err(ForeignError::Malformed(bad.to_string())),
            "{bad}"
        );
    }
    // A missing file.
    let missing = dir.path().join("nothing.so");
    let err = foreign::load::<Grid>(&spec(&format!("{}:solve", missing.display()))).unwrap_err();
    assert_eq!(err, ForeignError::Missing(missing.clone()));
    assert!(err.to_string().contains("nothing.so: no such file"));
    // Not a shared library.
    let text = dir.path().join("text.so");
    std::fs::write(&text, "not a library\n").unwrap();
    let err = foreign::load::<Grid>(&spec(&format!("{}:solve", text.display()))).unwrap_err();
    assert!(matches!(err, ForeignError::NotLoadable { .. }), "{err}");
    assert!(
        err.to_string().contains("text.so: not a shared library"),
        "{err}"
    );
    // A missing symbol.
    let err =
        foreign::load::<Grid>(&spec(&format!("{}:no_such_solver", lib.display()))).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("no symbol `no_such_solver` in it"),
        "{err}"
    );
    // A name that clashes with a built-in solver.
    let entry =
        foreign::load::<Grid>(&spec(&format!("{}:example_solve=dlx", lib.display()))).unwrap();
    assert_eq!(
        SolverSet::<Grid>::builtin().add(entry),
        Err(SolverSetError::Duplicate("dlx".into()))
    );
}
