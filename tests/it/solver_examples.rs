//! The example solvers in other languages (`examples/solvers/`: Python,
//! JavaScript, Java) speak the solver line protocol, version 1
//! (`docs/solver-protocol.md`), and agree with `dlxbench solve`.
//!
//! Each example is started as the harness starts it, as a process of its
//! own, and driven one request at a time: its header first, then for each
//! puzzle a `solve LIMIT PUZZLE` line and its one response line, read
//! before the next request is written (a solver that does not flush its
//! standard output after every line fails here, as it would hang the
//! harness). The puzzles are the committed generated corpora (4x4 to
//! 25x25), a puzzle with several solutions and ones with none; the counts
//! at limit 2 must be those of `dlxbench solve --limit 2`, a unique
//! solution must be dlx's, any other solution valid. Puzzles an example
//! does not take (Hanidoku, a side without boxes, sides past its masks)
//! are answered `n/a`; a `box=RxC` word after the cells gives the box
//! shape. Closing its standard input ends it, with status 0. Then the same
//! examples run through `dlxbench bench --solver-cmd` beside dlx.
//!
//! A language whose runtime (`python3`, `node`, `java`) is not on `PATH`
//! is skipped with the reason written to standard error (past the test
//! harness's capture, so it shows even when the test passes); under CI
//! (`CI` set: `.ci/run` installs the runtimes) it fails instead.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{blank_one_per_row, line_of, pattern, puzzle_lines, repo_path};

/// How long a response (or the header, or the exit) may take: generous,
/// for a loaded machine and a JVM compiling its source first.
const PATIENCE: Duration = Duration::from_secs(120);

/// An example solver: its name, and the command that runs it from the
/// repository's root.
struct Example {
    name: &'static str,
    program: &'static str,
    script: &'static str,
    /// The option that makes `program` print its version.
    version_flag: &'static str,
    /// The largest side it takes.
    max_side: usize,
}

const PYTHON: Example = Example {
    name: "python",
    program: "python3",
    script: "examples/solvers/python/solver.py",
    version_flag: "--version",
    max_side: 61,
};
const JAVASCRIPT: Example = Example {
    name: "javascript",
    program: "node",
    script: "examples/solvers/javascript/solver.js",
    version_flag: "--version",
    max_side: 30,
};
const JAVA: Example = Example {
    name: "java",
    program: "java",
    script: "examples/solvers/java/Solver.java",
    version_flag: "-version",
    max_side: 61,
};

/// Why `example`'s runtime cannot run here, or `None`.
fn runtime_missing(example: &Example) -> Option<String> {
    match Command::new(example.program)
        .arg(example.version_flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Err(e) => Some(format!("`{}` cannot be started: {e}", example.program)),
        Ok(status) if !status.success() => Some(format!(
            "`{} {}` failed: {status}",
            example.program, example.version_flag
        )),
        Ok(_) => None,
    }
}

/// `true` when `example` can run; otherwise says why it is skipped (or
/// fails under CI, where `.ci/run` installs every runtime).
fn runnable(example: &Example) -> bool {
    let Some(reason) = runtime_missing(example) else {
        return true;
    };
    let message = format!(
        "SKIPPED: the {} example solver ({}) was not run: {reason}",
        example.name, example.script
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message} (under CI every runtime must be there: .ci/run installs them)");
    }
    // Past the test harness's capture of `eprintln!`, so it is seen.
    let _ = writeln!(std::io::stderr(), "{message}");
    false
}

/// A running example solver.
struct Process {
    name: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: tempfile::NamedTempFile,
}

impl Process {
    fn start(example: &Example) -> Process {
        let stderr = tempfile::NamedTempFile::new().unwrap();
        let mut child = Command::new(example.program)
            .arg(example.script)
            .current_dir(repo_path(""))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.reopen().unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", example.program));
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Process {
            name: example.name,
            child,
            stdin,
            lines,
            stderr,
        }
    }

    /// What the solver wrote to its standard error so far.
    fn log(&self) -> String {
        std::fs::read_to_string(self.stderr.path()).unwrap_or_default()
    }

    /// The next line of its standard output.
    fn line(&mut self, waiting_for: &str) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(e) => panic!(
                "{}: no line for {waiting_for} ({e:?}); its standard error:\n{}",
                self.name,
                self.log()
            ),
        }
    }

    /// Sends `solve LIMIT PUZZLE`; the response line.
    fn ask(&mut self, limit: u64, puzzle: &str) -> String {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "solve {limit} {puzzle}").unwrap();
        stdin.flush().unwrap();
        self.line(&format!("`solve {limit} {puzzle}`"))
    }

    /// Closes its standard input; it must exit, with status 0.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(
                    status.success(),
                    "{}: exited with {status} after its input closed:\n{}",
                    self.name,
                    self.log()
                );
                return;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("{}: still running after its input closed", self.name);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response `COUNT SOLUTION [key=value ...]`, read strictly.
#[derive(Debug)]
struct Solved {
    count: u64,
    solution: Option<String>,
    guesses: u64,
    ns: u64,
}

fn parse_response(name: &str, request: &str, line: &str) -> Solved {
    let fail = |why: &str| -> ! { panic!("{name}: `{request}` -> `{line}`: {why}") };
    let mut words = line.split(' ');
    let count: u64 = words
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| fail("COUNT is not a number"));
    let solution = match words.next() {
        Some("-") if count == 0 => None,
        Some("-") => fail("`-` with solutions"),
        Some(s) if count > 0 => Some(s.to_string()),
        _ => fail("no SOLUTION, or one with COUNT 0"),
    };
    let (mut guesses, mut ns) = (None, None);
    for word in words {
        let (key, value) = word
            .split_once('=')
            .unwrap_or_else(|| fail("a word after SOLUTION is not key=value"));
        let value: u64 = value
            .parse()
            .unwrap_or_else(|_| fail("a value is not a number"));
        match key {
            "guesses" => guesses = Some(value),
            "ns" => ns = Some(value),
            _ => {}
        }
    }
    Solved {
        count,
        solution,
        guesses: guesses.unwrap_or_else(|| fail("no guesses=")),
        ns: ns.unwrap_or_else(|| fail("no ns=")),
    }
}

/// The side of a one-line puzzle.
fn side_of(puzzle: &str) -> usize {
    (puzzle.len() as f64).sqrt().round() as usize
}

/// `solution` solves `puzzle`: same length, the clues kept, every value
/// once in each row, column and box (r x c boxes, r the largest divisor of
/// the side not above its square root, as dlxbench reads a line).
fn assert_solves(name: &str, puzzle: &str, solution: &str) {
    let side = side_of(puzzle);
    assert_eq!(solution.len(), puzzle.len(), "{name}: {puzzle}: length");
    for (p, s) in puzzle.bytes().zip(solution.bytes()) {
        assert!(
            p == b'.' || p == b'0' || p == s,
            "{name}: {puzzle}: a clue changed in {solution}"
        );
    }
    let r = (1..=side)
        .filter(|r| side.is_multiple_of(*r) && r * r <= side)
        .max()
        .unwrap();
    let c = side / r;
    let cell = |i: usize| solution.as_bytes()[i];
    let units = (0..side).flat_map(|u| {
        let row: Vec<usize> = (0..side).map(|k| u * side + k).collect();
        let col: Vec<usize> = (0..side).map(|k| k * side + u).collect();
        let (br, bc) = (u / r * r, u % r * c);
        let bx: Vec<usize> = (0..side)
            .map(|k| (br + k / c) * side + bc + k % c)
            .collect();
        [row, col, bx]
    });
    for unit in units {
        let mut seen: Vec<u8> = unit.iter().map(|&i| cell(i)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert!(
            seen.len() == side && !seen.contains(&b'.'),
            "{name}: {puzzle}: {solution} repeats a value in a unit"
        );
    }
}

/// A puzzle and what `dlxbench solve --limit 2` says of it.
struct Expected {
    puzzle: String,
    /// 0, 1 or 2 (two or more).
    count: u64,
    /// The solution when unique.
    unique: Option<String>,
}

/// The puzzles asked of every example, with dlx's answers at limit 2.
fn expected() -> &'static [Expected] {
    static EXPECTED: OnceLock<Vec<Expected>> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let mut puzzles: Vec<String> = Vec::new();
        for (corpus, take) in [
            ("datasets/generated/gen_9x9_1000.txt", 1000),
            ("datasets/generated/gen_9x9_symmetric_100.txt", 100),
            ("datasets/generated/gen_4x4_100.txt", 100),
            ("datasets/generated/gen_6x6_100.txt", 100),
            ("datasets/generated/gen_12x12_50.txt", 50),
            ("datasets/generated/gen_16x16_200.txt", 40),
            ("datasets/generated/gen_25x25_20.txt", 4),
            ("examples/inputs/hard.txt", 1),
        ] {
            let text = std::fs::read_to_string(repo_path(corpus)).unwrap();
            puzzles.extend(puzzle_lines(&text).take(take).map(str::to_string));
        }
        puzzles.extend(
            [
                // Two solutions or more.
                "....28..1..2...47.6..4..5.2..8......26.9...3....6.1.........68.9...7......1......",
                "................",
                // No solution: row 1 needs a 9 that column 9 has.
                "12345678.........9.............................................................9.",
                // No solution: two equal clues in a row.
                "22...............................................................................",
            ]
            .map(str::to_string),
        );
        let input = common::file_with(&(puzzles.join("\n") + "\n"));
        // Exit 1: some puzzles have several solutions or none.
        let output = common::dlxbench()
            .args(["solve", "--limit", "2"])
            .arg(input.path())
            .output()
            .unwrap();
        let summary = String::from_utf8_lossy(&output.stderr);
        assert!(
            summary.contains(" 0 unreadable"),
            "dlxbench solve: {summary}"
        );
        let out = String::from_utf8(output.stdout).unwrap();
        let mut records = out.lines();
        puzzles
            .into_iter()
            .enumerate()
            .map(|(i, puzzle)| {
                let line = records.next().unwrap();
                let (count, unique) = if line == format!("# line {}: no solution", i + 1) {
                    (0, None)
                } else if line == format!("# line {}: 2+ solutions; the first:", i + 1) {
                    records.next().unwrap();
                    (2, None)
                } else {
                    assert!(!line.starts_with('#'), "dlxbench solve: {line}");
                    (1, Some(line.to_string()))
                };
                Expected {
                    puzzle,
                    count,
                    unique,
                }
            })
            .collect()
    })
}

/// Runs `example` through the protocol and checks everything the module's
/// documentation says.
fn speaks_protocol_1(example: &Example) {
    if !runnable(example) {
        return;
    }
    let name = example.name;
    let mut solver = Process::start(example);
    let header = solver.line("the header");
    assert!(
        header == "dlxbench-protocol 1" || header.starts_with("dlxbench-protocol 1 "),
        "{name}: header `{header}`"
    );

    let expected = expected();
    let (mut several, mut none, mut timed) = (0, 0, 0);
    for e in expected {
        let request = format!("solve 2 {}", e.puzzle);
        let line = solver.ask(2, &e.puzzle);
        if side_of(&e.puzzle) > example.max_side {
            assert!(line.starts_with("n/a"), "{name}: `{request}` -> `{line}`");
            continue;
        }
        let got = parse_response(name, &request, &line);
        assert_eq!(got.count, e.count, "{name}: `{request}` -> `{line}`");
        match (&got.solution, &e.unique) {
            (Some(s), Some(unique)) => assert_eq!(s, unique, "{name}: `{request}`"),
            (Some(s), None) => assert_solves(name, &e.puzzle, s),
            (None, _) => {}
        }
        several += usize::from(e.count == 2);
        none += usize::from(e.count == 0);
        timed += usize::from(got.ns > 0);
    }
    assert!(
        several >= 2 && none >= 2,
        "{name}: {several} several, {none} none"
    );
    assert!(
        timed > expected.len() / 2,
        "{name}: ns= is 0 for most puzzles"
    );

    // Limit 1 stops at the first solution; a large limit counts them all.
    let line = solver.ask(1, "................");
    assert_eq!(parse_response(name, "solve 1", &line).count, 1, "{line}");
    let line = solver.ask(u64::MAX, "................");
    assert_eq!(
        parse_response(name, "solve max", &line).count,
        288,
        "{line}"
    );
    // Guesses are counted: the empty 4x4 has no forced move.
    assert!(
        parse_response(name, "solve max", &line).guesses > 0,
        "{line}"
    );

    // A 36x36 grid with one blank per row: solved, or n/a past the masks.
    let mut cells = pattern(6, 6);
    let full = line_of(&cells, 36);
    blank_one_per_row(&mut cells, 36, |row| (row * 5) % 36);
    let line = solver.ask(2, &line_of(&cells, 36));
    if example.max_side < 36 {
        assert!(line.starts_with("n/a"), "{name}: 36x36 -> `{line}`");
    } else {
        let got = parse_response(name, "36x36", &line);
        assert_eq!((got.count, got.solution), (1, Some(full)), "{name}: 36x36");
    }

    // Boxes of 3 rows by 2 columns, which the side alone does not tell:
    // the request says `box=3x2` after the cells.
    let generated = common::stdout_of(
        common::dlxbench().args(["generate", "--box", "3x2", "--count", "4", "--seed", "3"]),
    );
    let puzzles: Vec<&str> = puzzle_lines(&generated).collect();
    let input = common::file_with(&generated);
    let solved = common::stdout_of(
        common::dlxbench()
            .args(["solve", "--box", "3x2"])
            .arg(input.path()),
    );
    for (puzzle, solution) in puzzles.iter().zip(solved.lines()) {
        let line = solver.ask(2, &format!("{puzzle} box=3x2"));
        let got = parse_response(name, puzzle, &line);
        assert_eq!(
            (got.count, got.solution.as_deref()),
            (1, Some(solution)),
            "{name}: `solve 2 {puzzle} box=3x2`"
        );
    }
    assert_eq!(puzzles.len(), 4);

    // Not Sudoku grids it takes: a Hanidoku board, a side of 5 (no boxes).
    let hanidoku = std::fs::read_to_string(repo_path(
        "datasets/generated/hanidoku/gen_hanidoku_100.txt",
    ))
    .unwrap();
    let board = puzzle_lines(&hanidoku).next().unwrap().to_string();
    for puzzle in [board.as_str(), ".........................", "1"] {
        let line = solver.ask(2, puzzle);
        assert!(
            line == "n/a" || line.starts_with("n/a "),
            "{name}: `solve 2 {puzzle}` -> `{line}`"
        );
    }
    solver.finish();
}

#[test]
fn the_python_example_speaks_protocol_1_and_agrees_with_dlx() {
    speaks_protocol_1(&PYTHON);
}

#[test]
fn the_javascript_example_speaks_protocol_1_and_agrees_with_dlx() {
    speaks_protocol_1(&JAVASCRIPT);
}

#[test]
fn the_java_example_speaks_protocol_1_and_agrees_with_dlx() {
    speaks_protocol_1(&JAVA);
}

/// The examples are where the docs say they are.
#[test]
fn the_examples_are_documented() {
    let page = std::fs::read_to_string(repo_path("docs/solver-protocol.md")).unwrap();
    for example in [PYTHON, JAVASCRIPT, JAVA] {
        assert!(Path::new(&repo_path(example.script)).is_file());
        assert!(
            page.contains(example.script),
            "docs/solver-protocol.md does not name {}",
            example.script
        );
    }
}

/// `dlxbench bench --solvers dlx,... --solver-cmd NAME=COMMAND ...` with
/// every example whose runtime is here: the run completes (exit 0: every
/// count cross-checked with dlx, every solution validated), each puzzle has
/// a row per solver with dlx's status, its own time (`ns=`) and the round
/// trip, the latencies are the solvers' own, their standard error has its
/// log files, and a 36x36 grid is `n/a` for the JavaScript example only.
#[test]
fn bench_runs_the_examples_beside_dlx() {
    let examples: Vec<&Example> = [&PYTHON, &JAVASCRIPT, &JAVA]
        .into_iter()
        .filter(|e| runnable(e))
        .collect();
    if examples.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // 9x9 with unique solutions, several, none; 16x16; 36x36.
    let mut text = String::from("# ALLOWZERO\n");
    let gen = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    for line in puzzle_lines(&gen).take(60) {
        text += line;
        text.push('\n');
    }
    text += "....28..1..2...47.6..4..5.2..8......26.9...3....6.1.........68.9...7......1......\n";
    text += "12345678.........9.............................................................9.\n";
    let gen16 = std::fs::read_to_string(repo_path("datasets/generated/gen_16x16_200.txt")).unwrap();
    for line in puzzle_lines(&gen16).take(6) {
        text += line;
        text.push('\n');
    }
    let mut cells = pattern(6, 6);
    blank_one_per_row(&mut cells, 36, |row| (row * 7) % 36);
    text += &line_of(&cells, 36);
    text.push('\n');
    let corpus = common::write_file(dir.path(), "mixed.txt", &text);
    let lines = 60 + 2 + 6 + 1;

    let mut solvers = vec!["dlx".to_string()];
    let mut cmd = common::dlxbench();
    cmd.current_dir(repo_path(""))
        .args(["bench", "-j2", "--warmup", "4", "--no-plots"]);
    for e in &examples {
        solvers.push(e.name.to_string());
        cmd.arg("--solver-cmd")
            .arg(format!("{}={} {}", e.name, e.program, e.script));
    }
    let out = dir.path().join("out");
    cmd.arg("--solvers")
        .arg(solvers.join(","))
        .arg("--out")
        .arg(&out)
        .arg(&corpus);
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}\n{stdout}\n{stderr}",
        output.status
    );

    let rows = common::read_csv(&out.join("puzzles.csv"));
    let dlx: std::collections::HashMap<&str, &str> = rows
        .iter()
        .filter(|r| r["solver"] == "dlx")
        .map(|r| (r["line"].as_str(), r["status"].as_str()))
        .collect();
    assert_eq!(dlx.len(), lines, "dlx rows");
    for e in &examples {
        let mine: Vec<_> = rows.iter().filter(|r| r["solver"] == e.name).collect();
        let expected_rows = if e.max_side < 36 { lines - 1 } else { lines };
        assert_eq!(mine.len(), expected_rows, "{}: rows of puzzles.csv", e.name);
        for r in &mine {
            let line = r["line"].as_str();
            assert_eq!(r["status"], dlx[line], "{}: line {line}: {r:?}", e.name);
            for column in ["ns", "round_trip_ns"] {
                let v: u64 = r[column]
                    .parse()
                    .unwrap_or_else(|_| panic!("{}: line {line}: {column} {r:?}", e.name));
                assert!(v > 0, "{}: line {line}: {column} {r:?}", e.name);
            }
            assert!(r["cause"].is_empty(), "{}: line {line}: {r:?}", e.name);
        }
        assert!(
            out.join(format!("solver-{}.log", e.name)).is_file(),
            "{}: no log",
            e.name
        );
    }
    let summary = common::read_csv(&out.join("summary.csv"));
    for e in &examples {
        let row = summary.iter().find(|r| r["solver"] == e.name).unwrap();
        assert_eq!(row["latency_source"], "own", "{}: {row:?}", e.name);
        assert!(
            row["mean_round_trip_ns"].parse::<f64>().unwrap() > 0.0,
            "{row:?}"
        );
        let not_applicable = if e.max_side < 36 { "1" } else { "0" };
        assert_eq!(row["not_applicable"], not_applicable, "{}: {row:?}", e.name);
        for failure in ["crashed", "timeout", "protocol_error"] {
            assert_eq!(row[failure], "0", "{}: {row:?}", e.name);
        }
        assert!(stdout.contains(&format!("  {} ", e.name)), "{stdout}");
    }
}

/// The echo solver (`examples/solvers/echo/echo.c`), which measures the
/// round-trip floor: on full grids it agrees with dlx, its latencies are
/// round trips (it gives no `ns=`); a grid with blanks is `n/a` for it.
#[test]
fn the_echo_solver_measures_round_trips_on_full_grids() {
    let dir = tempfile::tempdir().unwrap();
    let echo = dir.path().join("echo-solver");
    let status = common::c_compiler()
        .to_command()
        .arg("-o")
        .arg(&echo)
        .arg(repo_path("examples/solvers/echo/echo.c"))
        .status()
        .expect("a C compiler");
    assert!(status.success(), "compiling echo.c");
    let solved = common::stdout_of(
        common::dlxbench()
            .arg("solve")
            .arg(repo_path("datasets/generated/gen_9x9_symmetric_100.txt")),
    );
    let mut text = solved.clone();
    text += "....28..1..2...47.6..4..5.2..8......26.9...3....6.1.........68.9...7......1......\n";
    let corpus = common::write_file(dir.path(), "solved.txt", &text);
    let out = dir.path().join("out");
    let output = common::dlxbench()
        .args(["bench", "-j1", "--no-plots", "--solvers", "dlx,echo"])
        .arg("--solver-cmd")
        .arg(format!("echo={}", echo.display()))
        .arg("--out")
        .arg(&out)
        .arg(&corpus)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = common::read_csv(&out.join("puzzles.csv"));
    let echo_rows: Vec<_> = rows.iter().filter(|r| r["solver"] == "echo").collect();
    assert_eq!(echo_rows.len(), 100, "the blank puzzle is n/a");
    for r in echo_rows {
        assert_eq!(r["status"], "unique", "{r:?}");
        assert_eq!(r["ns"], r["round_trip_ns"], "{r:?}");
    }
    let summary = common::read_csv(&out.join("summary.csv"));
    let row = summary.iter().find(|r| r["solver"] == "echo").unwrap();
    assert_eq!(row["latency_source"], "round-trip", "{row:?}");
    assert_eq!(row["not_applicable"], "1", "{row:?}");
}
