#![cfg(target_os = "linux")]
//! Solvers loaded from shared libraries through the C interface
//! (`dlxbench::solvers::foreign`): the C example solver is compiled here
//! with the `cc` crate, loaded, run through the harness beside `dlx`, and
//! trusted no more than a built-in solver; each way loading can fail is a
//! clear error.

use crate::common;

use std::path::{Path, PathBuf};

use common::{repo_path, shared_library};
use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, DiscrepancyKind, Lineup, Setup};
use dlxbench::solvers::foreign::{self, ForeignError, LibrarySpec};
use dlxbench::solvers::{Budget, SolverSet, SolverSetError};
use dlxbench::sudoku::{BoxShape, Grid};

fn example_library(dir: &Path) -> PathBuf {
    shared_library(dir, "example", &repo_path("examples/c-solver/solver.c"))
}

fn spec(text: &str) -> LibrarySpec {
    text.parse().unwrap()
}

fn run(entries: Vec<dlxbench::solvers::SolverEntry<Grid>>, corpus: &Corpus) -> harness::RunResult {
    let lineup = Lineup::new(entries);
    let setup = Setup::new(lineup);
    harness::run(std::slice::from_ref(corpus), &setup, None, None).unwrap()
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

/// `--solver-lib` for the example library under `name`.
fn lib_flag(lib: &Path, name: &str) -> String {
    format!("--solver-lib={}:example_solve={name}", lib.display())
}

/// `count` generated puzzles of box shape `shape` (`3x3`, `4x4`), as text.
fn generated_text(shape: &str, count: u32, seed: u32) -> String {
    let out = common::dlxbench()
        .args(["generate", "--box", shape, "--count", &count.to_string()])
        .args(["--seed", &seed.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bench_runs_a_loaded_solver_like_a_built_in_one() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    let out = dir.path().join("run");
    let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
    let table = common::stdout_of(&mut common::bench_into(
        &out,
        &[
            "-j2",
            "-q",
            &lib_flag(&lib, "mine"),
            "--solvers=dlx,mine",
            "--reference=mine",
        ],
        &corpus,
    ));
    assert!(table.is_empty(), "{table}");
    let summary = common::read_csv(&out.join("summary.csv"));
    let mine = summary.iter().find(|r| r["solver"] == "mine").unwrap();
    assert_eq!(mine["puzzles"], "1000");
    assert_eq!(mine["solved"], "1000");
    assert_eq!(mine["invalid"], "0");
    assert_eq!(mine["reference"], "mine");
    assert_eq!(mine["speed_vs_reference"], "1.0000");
    // Nodes are not recorded (empty), never zero; guesses come through.
    assert_eq!(mine["total_nodes"], "");
    assert!(mine["guesses_per_puzzle"].parse::<f64>().unwrap() > 0.0);
    let rows = common::read_csv(&out.join("puzzles.csv"));
    let mine: Vec<_> = rows.iter().filter(|r| r["solver"] == "mine").collect();
    assert_eq!(mine.len(), 1000);
    assert!(mine
        .iter()
        .all(|r| r["nodes"].is_empty() && r["updates"].is_empty()));
    assert!(mine
        .iter()
        .all(|r| r["status"] == "unique" && r["ns"] != "0"));
    let dlx = rows.iter().find(|r| r["solver"] == "dlx").unwrap();
    assert!(!dlx["nodes"].is_empty());
    // `compare` reads it like any run: the same run against itself.
    common::dlxbench()
        .args(["compare", "--metric", "nodes"])
        .arg(&out)
        .arg(&out)
        .assert()
        .success();
}

#[test]
fn a_loaded_solver_is_not_applicable_to_other_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    let nine = generated_text("3x3", 10, 1);
    let sixteen = generated_text("4x4", 5, 2);
    let only16 = common::write_file(dir.path(), "only16.txt", &sixteen);
    let mixed = common::write_file(dir.path(), "mixed.txt", format!("{nine}{sixteen}"));
    let out = dir.path().join("run");
    let assert = common::dlxbench()
        .args([
            "bench",
            "-j1",
            &lib_flag(&lib, "mine"),
            "--solvers=dlx,mine",
            "--out",
        ])
        .arg(&out)
        .arg(&only16)
        .arg(&mixed)
        .assert()
        .success();
    let table = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("mine") && l.contains("n/a"))
        .unwrap_or_else(|| panic!("no n/a row:\n{table}"));
    assert!(row.contains('-'), "{row}");
    assert!(
        table.contains("only16: mine does not take any of its puzzles"),
        "{table}"
    );
    assert!(
        table.contains("mixed: mine does not take 5 of its puzzles"),
        "{table}"
    );
    let summary = common::read_csv(&out.join("summary.csv"));
    let get = |corpus: &str, solver: &str| {
        summary
            .iter()
            .find(|r| r["corpus"] == corpus && r["solver"] == solver)
            .unwrap()
            .clone()
    };
    let (a, b) = (get("only16", "mine"), get("mixed", "mine"));
    assert_eq!(
        (a["puzzles"].as_str(), a["not_applicable"].as_str()),
        ("0", "5")
    );
    assert_eq!(
        (b["puzzles"].as_str(), b["not_applicable"].as_str()),
        ("10", "5")
    );
    // Rates over different puzzles are not compared.
    assert_eq!(b["speed_vs_reference"], "");
    assert_eq!(get("mixed", "dlx")["not_applicable"], "0");
    // No row for a puzzle that was not run.
    let rows = common::read_csv(&out.join("puzzles.csv"));
    let mine: Vec<_> = rows.iter().filter(|r| r["solver"] == "mine").collect();
    assert_eq!(mine.len(), 10);
    assert!(mine
        .iter()
        .all(|r| r["corpus"] == "mixed" && r["status"] == "unique"));
    // `solve` says so per puzzle, and fails.
    let assert = common::dlxbench()
        .args(["solve", "--solver", "mine", &lib_flag(&lib, "mine")])
        .arg(&mixed)
        .assert()
        .code(1);
    let output = assert.get_output();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.contains("not applicable: the mine solver does not take this puzzle"))
            .count(),
        5,
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("5 not taken by the solver"));
}

#[test]
fn a_wrong_loaded_solver_fails_the_run_with_its_results_written() {
    let dir = tempfile::tempdir().unwrap();
    let source = common::write_file(dir.path(), "wrong.c", WRONG);
    let lib = shared_library(dir.path(), "wrong", &source);
    let out = dir.path().join("run");
    let assert = common::bench_into(
        &out,
        &[
            "-j1",
            "-q",
            &format!("--solver-lib={}:wrong", lib.display()),
        ],
        repo_path("datasets/generated/gen_9x9_1000.txt"),
    )
    .assert()
    .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("wrong"), "{stderr}");
    let summary = common::read_csv(&out.join("summary.csv"));
    let wrong = summary.iter().find(|r| r["solver"] == "wrong").unwrap();
    assert_ne!(wrong["invalid"], "0");
    assert!(out.join("puzzles.csv").exists());
}

/// A copy of `lib` that claims another machine in its ELF header.
fn foreign_machine(lib: &Path, dir: &Path) -> PathBuf {
    let mut bytes = std::fs::read(lib).unwrap();
    // e_machine, 2 bytes at offset 18: x86-64 is 62, AArch64 183.
    let other: u16 = if std::env::consts::ARCH == "aarch64" {
        62
    } else {
        183
    };
    bytes[18..20].copy_from_slice(&other.to_le_bytes());
    common::write_file(dir, "libother.so", bytes)
}

#[test]
fn solver_lib_errors_exit_2_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    let text = common::write_file(dir.path(), "text.so", "not a library\n");
    let other = foreign_machine(&lib, dir.path());
    let cases = [
        (
            format!("{}:solve", dir.path().join("none.so").display()),
            "none.so: no such file",
        ),
        (
            format!("{}:solve", text.display()),
            "text.so: not a shared library",
        ),
        (
            format!("{}:example_solve", other.display()),
            "libother.so: a shared library for",
        ),
        (format!("{}:nope", lib.display()), "no symbol `nope` in it"),
        (
            format!("{}:example_solve=dlx", lib.display()),
            "a solver named `dlx` exists already",
        ),
        (
            "no-symbol.so".to_string(),
            "expected PATH:SYMBOL[@FLAGS][=NAME]",
        ),
    ];
    for (spec, message) in &cases {
        for command in ["bench", "solve"] {
            let assert = common::dlxbench()
                .args([command, &format!("--solver-lib={spec}")])
                .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
                .assert()
                .code(2);
            let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
            assert!(stderr.contains(message), "{command} {spec}: {stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
    // Two libraries under one name.
    let twice = format!("--solver-lib={}:example_solve=same", lib.display());
    let assert = common::dlxbench()
        .args(["bench", &twice, &twice])
        .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("a solver named `same` exists already"),
        "{stderr}"
    );
}

/// Counts like the example solver but writes no solution.
const COUNT_ONLY: &str = r#"
#include <stddef.h>
#include <stdint.h>
size_t example_solve(const char *, size_t, uint32_t, char *, size_t *);
size_t counts(const char *input, size_t limit, uint32_t flags, char *solution, size_t *guesses) {
    char scratch[128];
    (void)solution;
    return example_solve(input, limit, flags, scratch, guesses);
}
"#;

#[test]
fn a_count_only_solver_has_its_counts_checked_and_its_solutions_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let source = common::write_file(dir.path(), "counts.c", COUNT_ONLY);
    let combined = common::write_file(
        dir.path(),
        "both.c",
        format!(
            "#include \"{}\"\n#include \"{}\"\n",
            repo_path("examples/c-solver/solver.c").display(),
            source.display()
        ),
    );
    let lib = shared_library(dir.path(), "counts", &combined);
    let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
    let flag = format!("--solver-lib={}:counts", lib.display());
    // Without the mark, every solve is an invalid solution.
    let out = dir.path().join("unmarked");
    common::bench_into(&out, &["-j1", "-q", &flag, "--solvers=dlx,counts"], &corpus)
        .assert()
        .code(1);
    let summary = common::read_csv(&out.join("summary.csv"));
    let row = summary.iter().find(|r| r["solver"] == "counts").unwrap();
    assert_eq!(row["invalid"], "1000");
    // Marked count-only, the counts agree and the run passes.
    let out = dir.path().join("marked");
    let args = [
        "-j1",
        "-q",
        &flag,
        "--solvers=dlx,counts",
        "--count-only=counts",
    ];
    common::bench_into(&out, &args, &corpus).assert().success();
    let summary = common::read_csv(&out.join("summary.csv"));
    let row = summary.iter().find(|r| r["solver"] == "counts").unwrap();
    assert_eq!(
        (row["solved"].as_str(), row["invalid"].as_str()),
        ("1000", "0")
    );
    // run.json says where it came from, and that it was not validated.
    let run = common::read_json(&out.join("run.json"));
    let described = run["solvers"][1]["description"].as_str().unwrap();
    assert_eq!(run["solvers"][1]["name"], "counts");
    assert!(
        described.starts_with("loaded from ")
            && described.ends_with(
                ":counts, count-only (solutions not validated), isolated (a host process per worker)"
            ),
        "{described}"
    );
    assert_eq!(
        run["solvers"][0]["description"],
        dlxbench::sudoku::solvers::dlx::INFO.description
    );
    // A name that is not a loaded solver.
    let assert = common::bench_into(&out, &["--count-only=dlx", "--force"], &corpus)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains("--count-only dlx: not the name of a --solver-lib solver"),
        "{stderr}"
    );
}

/// The architecture this test runs on, as the messages name it, and
/// another one's `e_machine`.
fn other_machine() -> (u16, &'static str) {
    match std::env::consts::ARCH {
        "aarch64" => (62, "x86-64"),
        _ => (183, "AArch64"),
    }
}

/// Refusals of a library file before it is loaded: another architecture
/// (a real library patched, and a bare header), a 32-bit one, an object
/// file; each names the reason, not the loader's "No such file".
#[test]
fn a_library_for_another_architecture_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example_library(dir.path());
    let (machine, name) = other_machine();
    let patched = foreign_machine(&lib, dir.path());
    let bare = common::write_file(dir.path(), "libbare.so", common::tiny_elf(machine));
    for path in [&patched, &bare] {
        let err =
            foreign::load::<Grid>(&spec(&format!("{}:example_solve", path.display()))).unwrap_err();
        assert!(
            matches!(err, ForeignError::OtherArchitecture { .. }),
            "{err}"
        );
        let text = err.to_string();
        assert!(
            text.contains(&format!(
                "a shared library for {name} (64-bit, little-endian), another architecture"
            )),
            "{text}"
        );
        assert!(!text.contains("No such file"), "{text}");
        // The same from the check alone, which loads nothing.
        assert_eq!(
            foreign::check_library(&spec(&format!("{}:example_solve", path.display()))),
            Err(err)
        );
    }
    // 32-bit: the class differs.
    let mut bytes = std::fs::read(&lib).unwrap();
    bytes[4] = 1;
    let narrow = common::write_file(dir.path(), "libnarrow.so", bytes);
    let err =
        foreign::check_library(&spec(&format!("{}:example_solve", narrow.display()))).unwrap_err();
    assert!(err.to_string().contains("(32-bit, little-endian)"), "{err}");
    // An object file is not a shared library.
    let object = dir.path().join("solver.o");
    let status = common::c_compiler()
        .to_command()
        .args(["-c", "-fPIC", "-o"])
        .arg(&object)
        .arg(repo_path("examples/c-solver/solver.c"))
        .status()
        .unwrap();
    assert!(status.success());
    let err =
        foreign::check_library(&spec(&format!("{}:example_solve", object.display()))).unwrap_err();
    assert!(
        err.to_string()
            .contains("not a shared library this program can load (an object file (.o)"),
        "{err}"
    );
    // The real library passes.
    foreign::check_library(&spec(&format!("{}:example_solve", lib.display()))).unwrap();
}

/// A symbol that is a variable, typed as one in the library
/// (`int solve = 3;`) or untyped (an assembly label in `.data`), is
/// refused, not called.
#[test]
fn a_symbol_that_is_data_is_refused_not_called() {
    let dir = tempfile::tempdir().unwrap();
    let typed = common::write_file(
        dir.path(),
        "typed.c",
        "int solve = 3;\nconst int table[4] = {1, 2, 3, 4};\n",
    );
    let typed = shared_library(dir.path(), "typed", &typed);
    for symbol in ["solve", "table"] {
        let err =
            foreign::load::<Grid>(&spec(&format!("{}:{symbol}", typed.display()))).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: `{symbol}` is data (a variable), not a function: give the symbol of the solve function",
                typed.display()
            )
        );
    }
    let untyped = common::write_file(
        dir.path(),
        "untyped.c",
        "__asm__(\".data\\n.globl solve\\nsolve: .long 3\\n.text\\n\");\n",
    );
    let untyped = shared_library(dir.path(), "untyped", &untyped);
    // The file does not say: only loading tells.
    foreign::check_library(&spec(&format!("{}:solve", untyped.display()))).unwrap();
    let err = foreign::load::<Grid>(&spec(&format!("{}:solve", untyped.display()))).unwrap_err();
    assert!(
        err.to_string()
            .contains("`solve` is not in executable memory (data), not a function"),
        "{err}"
    );
    // Through the command line: exit 2 with the message, no crash.
    let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
    for lib in [&typed, &untyped] {
        for command in ["bench", "solve"] {
            let assert = common::dlxbench()
                .args([command, &format!("--solver-lib={}:solve", lib.display())])
                .arg(&corpus)
                .timeout(std::time::Duration::from_secs(60))
                .assert()
                .code(2);
            let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
            assert!(stderr.contains("not a function"), "{command}: {stderr}");
        }
    }
}

/// A FIFO, a directory or a device as the library is refused before
/// anything opens it: no hang in the loader.
#[test]
fn a_path_that_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = common::fifo(dir.path(), "libfifo.so");
    let cases = [
        (fifo, "a FIFO (named pipe), not a regular file"),
        (dir.path().to_path_buf(), "a directory, not a regular file"),
        (
            PathBuf::from("/dev/null"),
            "a character device, not a regular file",
        ),
    ];
    let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
    for (path, message) in &cases {
        let err = foreign::check_library(&spec(&format!("{}:solve", path.display()))).unwrap_err();
        assert!(matches!(err, ForeignError::NotRegular { .. }), "{err}");
        assert!(err.to_string().contains(message), "{err}");
        // Bounded: a loader stuck on the FIFO would be killed and fail here.
        let assert = common::dlxbench()
            .args(["bench", &format!("--solver-lib={}:solve", path.display())])
            .arg(&corpus)
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(message), "{stderr}");
    }
}
