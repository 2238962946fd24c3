#![cfg(target_os = "linux")]
//! The isolated host of a loaded C solver (`dlxbench solver-host`, hidden;
//! `dlxbench::solvers::host`), driven as the harness drives it: protocol
//! lines piped into the binary. C libraries compiled here misbehave in
//! each way the host must survive or report: writing into the allowed
//! slack, into the canary, 4 KiB past the buffer, crashing, aborting,
//! running out of memory under `--memory-limit`.

use crate::common;

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{repo_path, shared_library};
use dlxbench::puzzle::Puzzle;
use dlxbench::sudoku::{self, Grid, ParseOptions};

/// The misbehaving solvers, around the C example solver (included whole).
fn library(dir: &Path) -> PathBuf {
    let example = repo_path("examples/c-solver/solver.c");
    let source = format!(
        r#"
#include "{}"
#include <stdlib.h>
#include <string.h>

#define SOLVER(name) size_t name(const char *in, size_t limit, uint32_t flags, char *out, size_t *guesses)

/* Writes a line feed and NULs into the 128 bytes of allowed slack. */
SOLVER(slack) {{
    size_t found = example_solve(in, limit, flags, out, guesses);
    out[81] = '\n';
    memset(out + 82, 0, 127);
    return found;
}}

/* Writes 160 bytes past the 81: into the canary. */
SOLVER(canary) {{
    size_t found = example_solve(in, limit, flags, out, guesses);
    memset(out + 81, 'x', 160);
    return found;
}}

/* Writes 4 KiB past the 81: into the guard page. */
SOLVER(far) {{
    size_t found = example_solve(in, limit, flags, out, guesses);
    memset(out + 81, 'x', 4096);
    return found;
}}

SOLVER(segv) {{
    (void)in; (void)limit; (void)flags; (void)out; (void)guesses;
    *(volatile int *)0 = 1;
    return 0;
}}

SOLVER(aborts) {{
    (void)in; (void)limit; (void)flags; (void)out; (void)guesses;
    abort();
}}

/* Asks for 1 GiB, which the limit refuses, and uses it unchecked. */
SOLVER(hog) {{
    (void)in; (void)limit; (void)flags; (void)guesses;
    volatile char *big = malloc((size_t)1 << 30);
    big[4096] = 1;
    out[0] = big[4096];
    return 0;
}}

/* Allocates 1 MiB blocks until one fails, then gives up: no solution. */
SOLVER(grow) {{
    (void)in; (void)limit; (void)flags; (void)out; (void)guesses;
    void *last = NULL;
    for (;;) {{
        void **block = malloc(1 << 20);
        if (!block) break;
        memset(block, 1, 1 << 20);
        *block = last;
        last = block;
    }}
    while (last) {{ void *next = *(void **)last; free(last); last = next; }}
    return 0;
}}
"#,
        example.display()
    );
    let path = dir.join("host_test.c");
    std::fs::write(&path, source).unwrap();
    shared_library(dir, "host_test", &path)
}

/// What a host said and how it ended.
struct Session {
    lines: Vec<String>,
    status: std::process::ExitStatus,
    stderr: String,
}

/// Starts `dlxbench solver-host ARGS`, writes `requests` (one per line),
/// closes its input and waits.
fn host(args: &[&str], requests: &[&str]) -> Session {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .arg("solver-host")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text: String = requests.iter().map(|r| format!("{r}\n")).collect();
    // The host may end before reading everything (after an `error`).
    let _ = stdin.write_all(text.as_bytes());
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    Session {
        lines: String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect(),
        status: output.status,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn lib_arg(lib: &Path, symbol: &str) -> String {
    format!("{}:{symbol}", lib.display())
}

const PUZZLE: &str =
    ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";

/// `COUNT SOLUTION guesses=G ns=T`: the count, the solution, the keys.
fn answer(line: &str) -> (u64, &str, Vec<(&str, u64)>) {
    let mut words = line.split(' ');
    let count = words.next().unwrap().parse().unwrap();
    let solution = words.next().unwrap();
    let keys = words
        .map(|w| {
            let (k, v) = w.split_once('=').unwrap();
            (k, v.parse().unwrap())
        })
        .collect();
    (count, solution, keys)
}

fn assert_solves(puzzle: &str, solution: &str) {
    let mut p = Grid::empty(sudoku::BoxShape::NINE);
    sudoku::parse_line_into(puzzle.as_bytes(), ParseOptions::default(), &mut p).unwrap();
    let mut s = p.clone();
    sudoku::parse_line_into(solution.as_bytes(), ParseOptions::default(), &mut s).unwrap();
    assert!(sudoku::is_solution_of(&s, &p), "{solution} for {puzzle}");
}

#[test]
fn the_host_answers_protocol_1_for_the_c_example() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let corpus = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let puzzles: Vec<&str> = common::puzzle_lines(&corpus).take(200).collect();
    let requests: Vec<String> = puzzles.iter().map(|p| format!("solve 2 {p}")).collect();
    let requests: Vec<&str> = requests.iter().map(String::as_str).collect();
    let session = host(&[&lib_arg(&lib, "example_solve")], &requests);
    assert!(
        session.status.success(),
        "{}: {}",
        session.status,
        session.stderr
    );
    assert_eq!(session.lines.len(), puzzles.len() + 1);
    assert!(
        session.lines[0].starts_with("dlxbench-protocol 1 "),
        "{}",
        session.lines[0]
    );
    for (puzzle, line) in puzzles.iter().zip(&session.lines[1..]) {
        let (count, solution, keys) = answer(line);
        assert_eq!(count, 1, "{line}");
        assert_solves(puzzle, solution);
        let keys: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["guesses", "ns"], "{line}");
    }
    // The call is timed: some solve took some time.
    assert!(session.lines[1..].iter().any(|l| answer(l).2[1].1 > 0));
}

#[test]
fn puzzles_the_c_interface_cannot_take_are_not_applicable() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let sixteen = ".".repeat(256);
    let no_solution = format!("11{}", &PUZZLE[2..]);
    let session = host(
        &[&lib_arg(&lib, "example_solve")],
        &[
            &format!("solve 1 {sixteen}"),
            &format!("solve 0 {PUZZLE}"),
            &format!("solve 1 {no_solution}"),
            &format!("solve 1 {PUZZLE}"),
        ],
    );
    assert!(session.status.success(), "{}", session.stderr);
    assert!(session.lines[1].starts_with("n/a "), "{}", session.lines[1]);
    assert_eq!(session.lines[2], "0 - guesses=0 ns=0");
    assert!(
        session.lines[3].starts_with("0 - guesses="),
        "{}",
        session.lines[3]
    );
    assert_solves(PUZZLE, answer(&session.lines[4]).1);
    // Hanidoku has no 9x9 C form: every puzzle n/a.
    let embedded = <dlxbench::hanidoku::Board as Puzzle>::embedded_corpus();
    let text = std::str::from_utf8(embedded.text).unwrap();
    let board = common::puzzle_lines(text).next().unwrap();
    {
        let session = host(
            &["--kind", "hanidoku", &lib_arg(&lib, "example_solve")],
            &[&format!("solve 1 {board}")],
        );
        assert!(session.status.success(), "{}", session.stderr);
        assert!(session.lines[1].starts_with("n/a "), "{}", session.lines[1]);
    }
}

#[test]
fn writes_into_the_slack_are_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let session = host(
        &[&lib_arg(&lib, "slack")],
        &[&format!("solve 2 {PUZZLE}"), &format!("solve 2 {PUZZLE}")],
    );
    assert!(session.status.success(), "{}", session.stderr);
    assert_eq!(session.lines.len(), 3);
    for line in &session.lines[1..] {
        assert_solves(PUZZLE, answer(line).1);
    }
}

#[test]
fn a_write_into_the_canary_is_an_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let session = host(
        &[&lib_arg(&lib, "canary")],
        &[&format!("solve 2 {PUZZLE}"), &format!("solve 2 {PUZZLE}")],
    );
    // One answer, then the host ends.
    assert_eq!(session.lines.len(), 2, "{:?}", session.lines);
    assert_eq!(
        session.lines[1],
        "error overflow the solver wrote 160 bytes past its solution's 81 characters (128 allowed)"
    );
    assert_eq!(session.status.code(), Some(1));
}

#[test]
fn a_write_4_kib_past_the_buffer_faults_in_the_guard_page_and_is_an_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let session = host(&[&lib_arg(&lib, "far")], &[&format!("solve 2 {PUZZLE}")]);
    assert_eq!(
        session.lines.len(),
        2,
        "{:?} {}",
        session.lines,
        session.stderr
    );
    let line = &session.lines[1];
    assert!(
        line.starts_with("error overflow ") && line.contains("guard page"),
        "{line}"
    );
    // The fault's offset from the solution's start: in the guard page, which
    // starts after the 81 characters, 128 bytes of slack and 64 of canary
    // (memset may write the end of its range first).
    let offset: usize = line
        .split("at byte ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!((81 + 128 + 64..81 + 4096).contains(&offset), "{line}");
    assert_eq!(session.status.code(), Some(70));
}

#[test]
fn other_crashes_end_the_host_with_their_signal() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    for (symbol, signal) in [("segv", libc::SIGSEGV), ("aborts", libc::SIGABRT)] {
        let session = host(&[&lib_arg(&lib, symbol)], &[&format!("solve 2 {PUZZLE}")]);
        // The header, no answer: the harness sees the signal.
        assert_eq!(session.lines.len(), 1, "{symbol}: {:?}", session.lines);
        assert_eq!(session.status.signal(), Some(signal), "{symbol}");
    }
}

#[test]
fn out_of_memory_under_the_limit_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    // A failed allocation used anyway: a crash with errno ENOMEM.
    let session = host(
        &["--memory-limit", "256M", &lib_arg(&lib, "hog")],
        &[&format!("solve 2 {PUZZLE}")],
    );
    assert_eq!(
        session.lines.len(),
        2,
        "{:?} {}",
        session.lines,
        session.stderr
    );
    assert!(
        session.lines[1].starts_with("error memory ") && session.lines[1].contains("SIGSEGV"),
        "{}",
        session.lines[1]
    );
    assert_eq!(session.status.code(), Some(70));
    // Allocating until the limit, then giving up: no solution, ENOMEM.
    let session = host(
        &["--memory-limit", "128M", &lib_arg(&lib, "grow")],
        &[&format!("solve 2 {PUZZLE}")],
    );
    assert_eq!(
        session.lines.len(),
        2,
        "{:?} {}",
        session.lines,
        session.stderr
    );
    assert!(
        session.lines[1].starts_with("error memory "),
        "{}",
        session.lines[1]
    );
    assert_eq!(session.status.code(), Some(1));
    // The same solver without a limit that low finishes (the example
    // solver is small): the limit is the host's, and it is applied.
    let session = host(
        &["--memory-limit", "64M", &lib_arg(&lib, "example_solve")],
        &[&format!("solve 2 {PUZZLE}")],
    );
    assert!(session.status.success(), "{}", session.stderr);
    assert_solves(PUZZLE, answer(&session.lines[1]).1);
}

#[test]
fn a_host_that_cannot_start_says_why_and_prints_no_header() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let missing = dir.path().join("libnone.so");
    for (args, expected) in [
        (vec![lib_arg(&missing, "solve")], "no such file".to_string()),
        (
            vec![lib_arg(&lib, "no_such_symbol")],
            "no symbol `no_such_symbol`".to_string(),
        ),
        (
            vec![
                lib_arg(&lib, "example_solve"),
                "--memory-limit".into(),
                "1T0".into(),
            ],
            "expected a size".to_string(),
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let session = host(&args, &[&format!("solve 2 {PUZZLE}")]);
        assert!(session.lines.is_empty(), "{:?}", session.lines);
        assert_eq!(session.status.code(), Some(2), "{args:?}");
        assert!(session.stderr.contains(&expected), "{}", session.stderr);
    }
}

#[test]
fn a_malformed_request_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let session = host(&[&lib_arg(&lib, "example_solve")], &["solve two things"]);
    assert_eq!(session.lines.len(), 2);
    assert!(
        session.lines[1].starts_with("error request "),
        "{}",
        session.lines[1]
    );
    assert_eq!(session.status.code(), Some(1));
}

#[test]
fn check_loads_the_library_and_says_why_not() {
    use dlxbench::solvers::host::{HostCheckError, HostCommand};
    let dir = tempfile::tempdir().unwrap();
    let lib = library(dir.path());
    let command = |symbol: &str, memory_limit| HostCommand {
        program: assert_cmd::cargo::cargo_bin("dlxbench"),
        spec: lib_arg(&lib, symbol).parse().unwrap(),
        kind: "sudoku",
        memory_limit,
    };
    command("example_solve", None).check().unwrap();
    match command("nothing_here", None).check() {
        Err(HostCheckError::Refused { message, .. }) => {
            assert_eq!(
                message,
                format!("{}: no symbol `nothing_here` in it", lib.display())
            );
        }
        other => panic!("{other:?}"),
    }
    // A limit too small to load anything.
    match command("example_solve", Some(1 << 20)).check() {
        Err(HostCheckError::Refused { message, .. }) => assert!(!message.is_empty()),
        other => panic!("{other:?}"),
    }
}
