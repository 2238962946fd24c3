#![cfg(target_os = "linux")]
//! Loaded C libraries run isolated, in a host process of their own per
//! worker (`dlxbench solver-host`), by default: through `bench`, a library
//! that segfaults, loops, aborts, exits, writes 4 KiB past its solution
//! buffer or runs out of memory under `--memory-limit` costs the puzzle it
//! failed on (`crashed` or `timeout`, with the cause), and the run goes on:
//! every other puzzle solved and validated, the run complete, exit 1. A
//! non-reentrant library is right at `-j2` isolated, wrong in process.
//! Ctrl-C during a hung call stops the run at once, keeping what finished.

use crate::common;

use std::path::{Path, PathBuf};

use common::{read_csv, read_json, repo_path, shared_library};

/// Puzzles in the corpus.
const PUZZLES: usize = 120;

/// The call that fails: the 70th (`-j1`, `--block 1`: each puzzle solved
/// by every solver in turn, no untimed warm-up solves, so one call per
/// puzzle, in order). The fresh host after it counts from 0 again and answers the
/// 50 puzzles left without reaching its own 70th call.
const FAIL_AT: usize = 70;

/// A solver behind the C interface that solves like the C example until its
/// `FAIL_AT`th call, which does `how` (then solves, if it still can).
fn failing_library(dir: &Path, name: &str, how: &str) -> PathBuf {
    let source = format!(
        r#"#include "{example}"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static unsigned long calls;
static int *volatile nowhere;
size_t failing(const char *input, size_t limit, uint32_t flags, char *solution,
               size_t *guesses) {{
    size_t found = example_solve(input, limit, flags, solution, guesses);
    if (++calls == {FAIL_AT}) {{
        {how};
    }}
    return found;
}}
"#,
        example = repo_path("examples/c-solver/solver.c").display(),
    );
    let path = common::write_file(dir, &format!("{name}.c"), source);
    shared_library(dir, name, &path)
}

/// The first `PUZZLES` puzzles of the generated corpus, as `corpus.txt`.
fn corpus(dir: &Path) -> PathBuf {
    common::gen_9x9_corpus(dir, "corpus.txt", PUZZLES)
}

/// What a bench run left.
struct Run {
    out: PathBuf,
    code: Option<i32>,
    stderr: String,
}

impl Run {
    /// The rows of `puzzles.csv` of `solver`, by line.
    fn rows(&self, solver: &str) -> Vec<std::collections::HashMap<String, String>> {
        let mut rows: Vec<_> = read_csv(&self.out.join("puzzles.csv"))
            .into_iter()
            .filter(|r| r["solver"] == solver)
            .collect();
        rows.sort_by_key(|r| r["line"].parse::<usize>().unwrap());
        rows
    }

    /// The `summary.csv` row of `solver`.
    fn summary(&self, solver: &str) -> std::collections::HashMap<String, String> {
        read_csv(&self.out.join("summary.csv"))
            .into_iter()
            .find(|r| r["solver"] == solver)
            .unwrap()
    }
}

/// `bench -q --no-plots --block 1 --solvers dlx,SYMBOL --solver-lib LIB:SYMBOL`
/// with `args`, on `corpus`.
fn bench(dir: &Path, lib: &Path, symbol: &str, corpus: &Path, args: &[&str]) -> Run {
    let out = dir.join(format!(
        "out-{}",
        args.join("").replace(['-', ' ', '/'], "")
    ));
    let output = common::dlxbench()
        .args([
            "bench",
            "-q",
            "--no-plots",
            "--block",
            "1",
            // The libraries count their calls per process: keep each host
            // (a fresh one would count from 0 again, warm-up included).
            "--renew-hosts",
            "0",
            "--solvers",
            &format!("dlx,{symbol}"),
        ])
        .arg(format!("--solver-lib={}:{symbol}", lib.display()))
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg(corpus)
        .output()
        .unwrap();
    Run {
        out,
        code: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The run completed with one failure, on line `FAIL_AT`, of `status`
/// and `cause`; every other puzzle of the failing solver solved and
/// valid, and dlx's every one; exit 1, the failure named on standard
/// error.
fn assert_one_failure(run: &Run, status: &str, cause: &str) {
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let json = read_json(&run.out.join("run.json"));
    assert_eq!(json["state"], "complete", "{json}");
    let rows = run.rows("failing");
    assert_eq!(rows.len(), PUZZLES, "every puzzle has its row");
    for (i, row) in rows.iter().enumerate() {
        let line = i + 1;
        assert_eq!(row["line"], line.to_string());
        if line == FAIL_AT {
            assert_eq!(
                (row["status"].as_str(), row["cause"].as_str()),
                (status, cause),
                "{row:?}"
            );
            assert_eq!(row["ns"], "0", "a failed solve is not timed: {row:?}");
            assert_eq!(row["round_trip_ns"], "", "{row:?}");
        } else {
            assert_eq!(row["status"], "unique", "line {line}: {row:?}");
            assert_eq!(row["cause"], "", "{row:?}");
        }
    }
    assert!(run.rows("dlx").iter().all(|r| r["status"] == "unique"));
    // Each solve names the process that timed it (`host`, which the speed
    // interval resamples by): one host up to the failure, a fresh one
    // after it; dlx, in process, none.
    let host = |line: usize| rows[line - 1]["host"].clone();
    assert!(host(1).parse::<u32>().is_ok(), "{:?}", rows[0]);
    assert_ne!(host(1), std::process::id().to_string());
    assert_eq!(host(1), host(FAIL_AT - 1));
    assert_ne!(host(FAIL_AT + 1), host(1));
    assert_eq!(host(FAIL_AT + 1), host(PUZZLES));
    assert!(run.rows("dlx").iter().all(|r| r["host"].is_empty()));
    let summary = run.summary("failing");
    assert_eq!(summary["invalid"], "0");
    assert_eq!(
        summary[status.replace([' ', '-'], "_").as_str()],
        "1",
        "{summary:?}"
    );
    // Standard error names the solver, the corpus and the line.
    assert!(
        run.stderr.contains("failing")
            && run.stderr.contains("corpus")
            && run.stderr.contains(&format!("{FAIL_AT}")),
        "{}",
        run.stderr
    );
}

#[test]
fn a_segfault_on_the_nth_call_costs_that_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(dir.path(), "segv", "*nowhere = 1");
    let run = bench(dir.path(), &lib, "failing", &corpus(dir.path()), &["-j1"]);
    assert_one_failure(&run, "crashed", "signal 11");
}

#[test]
fn abort_costs_that_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(dir.path(), "aborts", "abort()");
    let run = bench(dir.path(), &lib, "failing", &corpus(dir.path()), &["-j1"]);
    assert_one_failure(&run, "crashed", "signal 6");
}

#[test]
fn exit_3_costs_that_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(dir.path(), "exits", "exit(3)");
    let run = bench(dir.path(), &lib, "failing", &corpus(dir.path()), &["-j1"]);
    assert_one_failure(&run, "crashed", "exit 3");
}

#[test]
fn a_loop_is_stopped_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(dir.path(), "loops", "for (;;) pause()");
    let started = std::time::Instant::now();
    let run = bench(
        dir.path(),
        &lib,
        "failing",
        &corpus(dir.path()),
        &["-j1", "--budget-time", "1s"],
    );
    // Over budget, as a built-in solver past its budget: no failure.
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows = run.rows("failing");
    assert_eq!(rows.len(), PUZZLES, "every puzzle has its row");
    for r in &rows {
        let line: usize = r["line"].parse().unwrap();
        let got = (r["status"].as_str(), r["cause"].as_str());
        match line == FAIL_AT {
            true => assert_eq!(got, ("budget", "deadline")),
            false => assert_eq!(got.0, "unique", "line {line}: {got:?}"),
        }
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

#[test]
fn a_write_4_kib_past_the_solution_buffer_is_an_overflow_and_the_harness_is_intact() {
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(dir.path(), "overflow", "memset(solution + 81, 'x', 4096)");
    let run = bench(dir.path(), &lib, "failing", &corpus(dir.path()), &["-j1"]);
    assert_one_failure(&run, "crashed", "overflow");
}

#[test]
fn out_of_memory_under_the_limit_is_reported_as_memory() {
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(
        dir.path(),
        "hog",
        "volatile char *big = malloc((size_t)1 << 30); big[4096] = 1",
    );
    let run = bench(
        dir.path(),
        &lib,
        "failing",
        &corpus(dir.path()),
        &["-j1", "--memory-limit", "256M"],
    );
    assert_one_failure(&run, "crashed", "memory");
}

/// A solver whose input goes through a global: two threads in one process
/// overwrite each other's puzzle (the sleep widens the window), and solve
/// the other's.
const NON_REENTRANT: &str = r#"
#include <string.h>
#include <unistd.h>
static char current[82];
size_t non_reentrant(const char *input, size_t limit, uint32_t flags, char *solution,
                     size_t *guesses) {
    memcpy(current, input, 81);
    usleep(200);
    return example_solve(current, limit, flags, solution, guesses);
}
"#;

#[test]
fn a_non_reentrant_library_is_right_on_two_workers_isolated_and_wrong_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let source = format!(
        "#include \"{}\"\n{NON_REENTRANT}",
        repo_path("examples/c-solver/solver.c").display()
    );
    let path = common::write_file(dir.path(), "non_reentrant.c", source);
    let lib = shared_library(dir.path(), "non_reentrant", &path);
    let corpus = corpus(dir.path());
    let valid = |run: &Run| {
        run.rows("non_reentrant")
            .iter()
            .filter(|r| r["status"] == "unique")
            .count()
    };
    // Isolated, two workers: every puzzle right.
    let isolated = bench(dir.path(), &lib, "non_reentrant", &corpus, &["-j2"]);
    assert_eq!(isolated.code, Some(0), "{}", isolated.stderr);
    assert_eq!(valid(&isolated), PUZZLES);
    let run = read_json(&isolated.out.join("run.json"));
    assert_eq!(run["threads"], 2);
    // A host's times are its reading of the call, not a claim checked
    // against round trips: no round-trip floor is measured for them.
    assert!(run.get("round_trip_floor").is_none(), "{run}");
    // In process, one thread: right.
    let one = bench(
        dir.path(),
        &lib,
        "non_reentrant",
        &corpus,
        &["-j1", "--in-process"],
    );
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    assert_eq!(valid(&one), PUZZLES);
    // In process, two threads: the threads solve each other's puzzles.
    let two = bench(
        dir.path(),
        &lib,
        "non_reentrant",
        &corpus,
        &["-j2", "--in-process"],
    );
    assert_eq!(two.code, Some(1), "{}", two.stderr);
    assert!(valid(&two) < PUZZLES, "{}", two.stderr);
    assert!(two.summary("non_reentrant")["invalid"] != "0");
}

#[test]
fn ctrl_c_during_a_hung_call_stops_the_run_at_once_keeping_what_finished() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let lib = failing_library(
        dir.path(),
        "hangs",
        "if (write(2, \"hanging\\n\", 8) < 0) abort(); for (;;) pause()",
    );
    let corpus = corpus(dir.path());
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .args(["bench", "-q", "--no-plots", "--block", "1", "-j1"])
        .args(["--renew-hosts", "0"])
        .args(["--solvers", "dlx,failing"])
        .arg(format!("--solver-lib={}:failing", lib.display()))
        .arg("--out")
        .arg(&out)
        .arg(&corpus)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the host is in its hung call (it says so on its standard
    // error, which goes to the log).
    let log = out.join("solver-failing.log");
    let started = Instant::now();
    while !std::fs::read_to_string(&log)
        .unwrap_or_default()
        .contains("hanging\n")
    {
        assert!(started.elapsed() < Duration::from_secs(60), "never hung");
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    let signalled = Instant::now();
    // SAFETY: kill(2) with a pid we spawned and a valid signal.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let status = child.wait().unwrap();
    assert!(
        signalled.elapsed() < Duration::from_secs(3),
        "{:?}",
        signalled.elapsed()
    );
    assert_eq!(status.code(), Some(130));
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "interrupted", "{run}");
    assert_eq!(run["corpora"][0]["state"], "partial", "{run}");
    // The lines before the hung one solved and kept.
    let rows = Run {
        out: out.clone(),
        code: None,
        stderr: String::new(),
    }
    .rows("failing");
    let solved = rows.iter().filter(|r| r["status"] == "unique").count();
    assert_eq!(solved, FAIL_AT - 1, "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r["status"] == "unique" || r["status"] == "skipped"),
        "{rows:?}"
    );
}

/// Runs `dlxbench solver-host` on the C example for three puzzles (its
/// input then closed), offered `ring` as the harness offers it (or not):
/// what it wrote to its standard output.
fn host_session(dir: &Path, ring: Option<&dlxbench::solvers::process::ring::AnswerRing>) -> String {
    use dlxbench::solvers::process::ring::RING_ENV;
    /// Where the host finds the ring here: any descriptor will do.
    const RING_FD: i32 = 3;
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let lib = shared_library(dir, "example", &repo_path("examples/c-solver/solver.c"));
    let mut command = std::process::Command::new(common::binary());
    command
        .arg("solver-host")
        .arg(format!("{}:example_solve", lib.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    if let Some(fd) = ring.and_then(|r| r.raw_fd()) {
        command.env(RING_ENV, RING_FD.to_string());
        // SAFETY: dup2 is async-signal-safe; `fd` is open until the spawn returns.
        unsafe {
            command.pre_exec(move || match libc::dup2(fd, RING_FD) {
                -1 => Err(std::io::Error::last_os_error()),
                _ => Ok(()),
            });
        }
    }
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for puzzle in common::gen_9x9_puzzles().iter().take(3) {
        writeln!(stdin, "solve 2 {puzzle}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Each of three answers: a unique solution, timed.
fn assert_three_answers(text: &str) {
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), 3, "{text}");
    for answer in answers {
        assert!(
            answer.starts_with("1 ") && answer.contains(" ns="),
            "{answer}"
        );
    }
}

#[test]
fn the_host_answers_into_the_ring_it_is_offered_and_writes_only_its_header_to_the_pipe() {
    use dlxbench::solvers::process::ring::{AnswerRing, RING_WORD};
    let dir = tempfile::tempdir().unwrap();
    let mut ring = AnswerRing::create().unwrap();
    let stdout = host_session(dir.path(), Some(&ring));
    let header = stdout.strip_suffix('\n').unwrap_or(&stdout);
    assert!(
        !header.contains('\n'),
        "nothing but the header on the pipe: {stdout}"
    );
    assert!(header.split(' ').any(|w| w == RING_WORD), "{header}");
    let mut answers = vec![0u8; 4096];
    let n = ring.read_into(&mut answers).unwrap();
    assert_three_answers(std::str::from_utf8(&answers[..n]).unwrap());
    // Not offered one: the answers on the pipe, no word.
    let stdout = host_session(dir.path(), None);
    let (header, answers) = stdout.split_once('\n').unwrap();
    assert!(!header.contains(RING_WORD), "{header}");
    assert_three_answers(answers);
}
