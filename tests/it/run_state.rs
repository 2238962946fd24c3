#![cfg(target_os = "linux")]
//! The run's state on disk is always true: a bench run that ends early in
//! any way (a loaded solver that segfaults, calls `abort()` or `exit()`, a
//! run killed with SIGKILL, a corpus truncated under the run (SIGBUS), a
//! second Ctrl-C) leaves a directory whose `run.json` says what happened
//! to every corpus asked for, with every finished corpus's rows of
//! `puzzles.csv` intact; `compare`, `plot` and `merge` warn of it, and the
//! `report.html` that `plot` draws shows it.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{read_csv, read_json, repo_path, shared_library};
use dlxbench::results::{DirState, ResultDir};

/// Puzzles per corpus.
const PER_CORPUS: usize = 40;

/// The call of the loaded solver that fails: the 20th puzzle of the second
/// corpus (`-j1`, one solver, no warm-up: one call per puzzle, in order).
const FAIL_AT: usize = PER_CORPUS + 20;

/// A solver behind the C interface that solves like the C example until its
/// `FAIL_AT`th call, which does `how`.
fn fragile_library(dir: &Path, how: &str) -> PathBuf {
    let source = format!(
        r#"#include "{example}"
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
static unsigned long calls;
static int *volatile nowhere;
size_t fragile(const char *input, size_t limit, uint32_t flags, char *solution,
               size_t *guesses) {{
    if (++calls == {FAIL_AT}) {{
        {how};
    }}
    return example_solve(input, limit, flags, solution, guesses);
}}
"#,
        example = repo_path("examples/c-solver/solver.c").display(),
    );
    let path = common::write_file(dir, "fragile.c", source);
    shared_library(dir, "fragile", &path)
}

/// Three corpora `a`, `b`, `c` of `PER_CORPUS` 9x9 puzzles each.
fn corpora(dir: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let lines: Vec<&str> = common::puzzle_lines(&text).collect();
    ["a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut body = lines[i * PER_CORPUS..(i + 1) * PER_CORPUS].join("\n");
            body.push('\n');
            common::write_file(dir, &format!("{name}.txt"), body)
        })
        .collect()
}

/// The bench command line of the runs here: `-j1`, the fragile solver
/// alone and in process, into `out`.
fn bench_args(lib: &Path, out: &Path, corpora: &[PathBuf]) -> Vec<String> {
    let mut args = vec![
        "bench".to_string(),
        "-q".into(),
        "-j1".into(),
        "--no-plots".into(),
        // In process: the failing call ends the run (isolated, it would
        // cost that puzzle alone: tests/it/isolation.rs).
        "--in-process".into(),
        format!("--solver-lib={}:fragile", lib.display()),
        "--solvers=fragile".into(),
        "--out".into(),
        out.display().to_string(),
    ];
    args.extend(corpora.iter().map(|c| c.display().to_string()));
    args
}

/// The state of each corpus in `run.json`, in order.
fn corpus_states(out: &Path) -> Vec<String> {
    read_json(&out.join("run.json"))["corpora"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["state"].as_str().unwrap().to_string())
        .collect()
}

/// What a run that died in the second corpus leaves: `run.json` `running`
/// with every corpus (`a` done, `b` in flight, `c` not started) and a
/// writer gone, read as died; `a`'s rows of `puzzles.csv` complete and no
/// other; `compare` and `plot` warn, `merge` refuses; `report.html` says
/// it.
fn assert_died_in_second_corpus(out: &Path) {
    assert_died_in(out, "b");
}

/// [`assert_died_in_second_corpus`] with the second corpus named `second`.
fn assert_died_in(out: &Path, second: &str) {
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "running", "{run}");
    assert!(run["pid"].as_u64().is_some());
    assert_eq!(run["interrupted"], false);
    let names: Vec<&str> = run["corpora"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", second, "c"]);
    assert_eq!(corpus_states(out), ["done", "running", "not started"]);
    assert_eq!(run["corpora"][0]["lines_done"], PER_CORPUS as u64);

    let dir = ResultDir::open(out).unwrap();
    assert!(
        matches!(dir.state, DirState::Died { .. }),
        "{:?}",
        dir.state
    );
    let ran: Vec<&str> = dir.run.corpora.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(ran, ["a"]);
    let warning = dir.warning().unwrap();
    assert!(warning.contains("died"), "{warning}");
    assert!(
        warning.contains(&format!("{second} (running), c (not started)")),
        "{warning}"
    );

    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows.len(), PER_CORPUS, "a's rows, every one");
    assert!(rows
        .iter()
        .all(|r| r["corpus"] == "a" && r["status"] == "unique"));
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].parse().unwrap()).collect();
    assert_eq!(lines, (1..=PER_CORPUS as u64).collect::<Vec<_>>());
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(summary.len(), 1);
    assert_eq!(summary[0]["corpus"], "a");
    assert_eq!(summary[0]["puzzles"], PER_CORPUS.to_string());

    let compare = common::dlxbench()
        .args(["compare"])
        .arg(out)
        .arg(out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&compare.stderr);
    assert!(
        stderr.contains("warning: the baseline is not a complete run") && stderr.contains("died"),
        "{stderr}"
    );
    let plot = common::dlxbench().arg("plot").arg(out).output().unwrap();
    assert!(plot.status.success());
    let stderr = String::from_utf8_lossy(&plot.stderr);
    assert!(
        stderr.contains("warning:") && stderr.contains("died"),
        "{stderr}"
    );
    // The page says it at its top and beside each corpus.
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let state = page_state(&page);
    assert!(state.contains("This run died before its end"), "{state}");
    assert!(
        state.contains(&format!(
            "Corpora: a done; {second} running when it ended (no results); c not started (no \
             results)."
        )),
        "{state}"
    );
    assert!(page.contains(&format!(
        "<h2>{second} <span class=\"problem\">(running)</span></h2>"
    )));
    assert!(page.contains("<h2>c <span class=\"problem\">(not started)</span></h2>"));
    assert!(page.contains("<span class=\"muted\">(done)</span></h2>"));
    let merged = out.with_extension("merged");
    let merge = common::dlxbench()
        .arg("merge")
        .arg("--out")
        .arg(&merged)
        .arg(out)
        .output()
        .unwrap();
    assert!(!merge.status.success());
    let stderr = String::from_utf8_lossy(&merge.stderr);
    assert!(
        stderr.contains("not a finished run") && stderr.contains("died"),
        "{stderr}"
    );
    assert!(!merged.exists());
}

/// The state line at the top of a `report.html` (empty when there is none).
fn page_state(page: &str) -> String {
    page.split_once("<p class=\"problem\" id=\"run-state\">")
        .and_then(|(_, rest)| rest.split_once("</p>"))
        .map_or_else(String::new, |(state, _)| state.to_string())
}

/// Runs bench with the solver failing by `how`; returns the output
/// directory and the exit status.
fn run_failing(dir: &Path, how: &str) -> (PathBuf, std::process::ExitStatus) {
    let lib = fragile_library(dir, how);
    let corpora = corpora(dir);
    let out = dir.join("out");
    let output = common::dlxbench()
        .args(bench_args(&lib, &out, &corpora))
        .output()
        .unwrap();
    (out, output.status)
}

#[test]
fn a_segfault_in_a_loaded_solver_leaves_a_run_that_says_it_died() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = run_failing(dir.path(), "*nowhere = 1");
    assert_eq!(status.signal(), Some(libc::SIGSEGV), "{status}");
    assert_died_in_second_corpus(&out);
}

#[test]
fn abort_in_a_loaded_solver_leaves_a_run_that_says_it_died() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = run_failing(dir.path(), "abort()");
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status}");
    assert_died_in_second_corpus(&out);
}

#[test]
fn exit_in_a_loaded_solver_leaves_a_run_that_says_it_died() {
    let dir = tempfile::tempdir().unwrap();
    let (out, status) = run_failing(dir.path(), "exit(3)");
    assert_eq!(status.code(), Some(3));
    assert_died_in_second_corpus(&out);
}

#[test]
fn a_run_killed_mid_run_says_it_is_running_then_that_it_died() {
    let dir = tempfile::tempdir().unwrap();
    // The solver hangs in the second corpus until the run is killed.
    let lib = fragile_library(dir.path(), "for (;;) pause()");
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .args(bench_args(&lib, &out, &corpora))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(out.join("run.json").is_file()
        && corpus_states(&out) == ["done", "running", "not started"])
    {
        assert!(Instant::now() < deadline, "the run never reached corpus b");
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    // While its writer lives, the run reads as running.
    let live = ResultDir::open(&out).unwrap();
    assert_eq!(
        live.state,
        DirState::Running {
            pid: Some(child.id())
        }
    );
    assert!(live.warning().unwrap().contains("still going"));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_died_in_second_corpus(&out);
}

#[test]
fn a_complete_run_says_so_and_warns_of_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let lib = fragile_library(dir.path(), "abort()");
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    // Corpus a alone: the failing call is never made.
    common::dlxbench()
        .args(bench_args(&lib, &out, &corpora[..1]))
        .assert()
        .success();
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "complete");
    assert_eq!(corpus_states(&out), ["done"]);
    assert_eq!(ResultDir::open(&out).unwrap().state, DirState::Complete);
    let compare = common::dlxbench()
        .arg("compare")
        .arg(&out)
        .arg(&out)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&compare.get_output().stderr).into_owned();
    assert!(!stderr.contains("warning"), "{stderr}");
}

/// Spawns bench with `args`, its standard error piped; waits until
/// `run.json` in `out` gives the corpora `states`.
fn spawn_until(args: &[String], out: &Path, states: &[&str]) -> std::process::Child {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(out.join("run.json").is_file() && corpus_states(out) == states) {
        assert!(
            Instant::now() < deadline,
            "the run never reached {states:?}"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// Waits (at most a minute) until `path` exists, as a symbolic link.
fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::symlink_metadata(path).is_err() {
        assert!(Instant::now() < deadline, "{} never came", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `signal` to `child`.
fn signal(child: &std::process::Child, signal: libc::c_int) {
    // SAFETY: kill(2) with a pid we spawned and a valid signal.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

/// Waits for `child` (at most a minute); its exit status and standard
/// error.
fn finish(mut child: std::process::Child) -> (std::process::ExitStatus, String) {
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).unwrap();
        text
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the run did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, reader.join().unwrap())
}

/// A corpus truncated while the run reads it (mapped: the next read
/// faults with SIGBUS) ends the run with a message that says what is on
/// disk, and the directory says it too: the corpus before it kept whole,
/// the truncated one lost, the one after not started.
#[test]
fn a_corpus_truncated_mid_run_leaves_a_run_that_says_it_died() {
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpora(dir.path());
    // Seconds of solving: many copies of a hard puzzle.
    let hard =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let big = common::write_file(dir.path(), "big.txt", hard.repeat(200_000));
    let out = dir.path().join("out");
    let mut args: Vec<String> = ["bench", "-q", "-j1", "--no-plots", "--solvers=dlx", "--out"]
        .map(String::from)
        .to_vec();
    args.push(out.display().to_string());
    for corpus in [&corpora[0], &big, &corpora[2]] {
        args.push(corpus.display().to_string());
    }
    let child = spawn_until(&args, &out, &["done", "running", "not started"]);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(0)
        .unwrap();
    let (status, stderr) = finish(child);
    assert_eq!(status.code(), Some(2), "{status}: {stderr}");
    assert!(
        stderr.contains("dlxbench: SIGBUS: a memory-mapped corpus file was truncated"),
        "{stderr}"
    );
    // What is on disk, named.
    let on_disk = format!(
        "dlxbench: {} keeps the results of a; its run.json reads as a run that died (big \
         running: its results are lost, c not started)\n",
        out.display()
    );
    assert!(stderr.ends_with(&on_disk), "{stderr}");
    assert_died_in(&out, "big");
}

/// A second Ctrl-C quits at once, saying what is on disk; the directory
/// reads as a run that died: the finished corpus whole, the one in flight
/// lost, the rest not started.
#[test]
fn a_second_ctrl_c_quits_at_once_and_leaves_a_run_that_says_it_died() {
    let dir = tempfile::tempdir().unwrap();
    // The solver hangs in the second corpus (saying so with a symbolic
    // link): the first Ctrl-C cannot end the chunk in flight.
    let hanging = dir.path().join("hanging");
    let how = format!(
        "symlink(\"x\", \"{}\"); for (;;) pause()",
        hanging.display()
    );
    let lib = fragile_library(dir.path(), &how);
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    let child = spawn_until(
        &bench_args(&lib, &out, &corpora),
        &out,
        &["done", "running", "not started"],
    );
    wait_for(&hanging);
    signal(&child, libc::SIGINT);
    std::thread::sleep(Duration::from_millis(300));
    // The first asked for a stop after the chunk in flight, which hangs.
    assert_eq!(corpus_states(&out), ["done", "running", "not started"]);
    signal(&child, libc::SIGINT);
    let (status, stderr) = finish(child);
    assert_eq!(status.code(), Some(130), "{status}: {stderr}");
    assert!(
        stderr.contains("stopping after the chunks in flight"),
        "{stderr}"
    );
    let on_disk = format!(
        "dlxbench: quit at once; {} keeps the results of a; its run.json reads as a run that \
         died (b running: its results are lost, c not started)\n",
        out.display()
    );
    assert!(stderr.ends_with(&on_disk), "{stderr}");
    assert_died_in_second_corpus(&out);
}

/// An interrupted run's `report.html` (drawn by `plot`) says so at its
/// top and beside each corpus, the one not started included.
#[test]
fn an_interrupted_run_s_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // A pause in the second corpus (said with a symbolic link), for the
    // Ctrl-C to land in.
    let pausing = dir.path().join("pausing");
    let how = format!("symlink(\"x\", \"{}\"); usleep(500000)", pausing.display());
    let lib = fragile_library(dir.path(), &how);
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    let child = spawn_until(
        &bench_args(&lib, &out, &corpora),
        &out,
        &["done", "running", "not started"],
    );
    wait_for(&pausing);
    signal(&child, libc::SIGINT);
    let (status, stderr) = finish(child);
    assert_eq!(status.code(), Some(130), "{status}: {stderr}");
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["state"], "interrupted");
    // b is one chunk: the chunk in flight ends it.
    assert_eq!(corpus_states(&out), ["done", "done", "not started"]);
    common::dlxbench().arg("plot").arg(&out).assert().success();
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let state = page_state(&page);
    assert!(
        state.starts_with("This run was interrupted (Ctrl-C or SIGTERM) before its end."),
        "{state}"
    );
    assert!(
        state.ends_with("Corpora: a done; b done; c not started (no results)."),
        "{state}"
    );
    assert!(page.contains("<h2>c <span class=\"problem\">(not started)</span></h2>"));
    assert_eq!(
        page.matches("<span class=\"muted\">(done)</span></h2>")
            .count(),
        2
    );
}

/// A complete run's page has no state line and no state beside its
/// corpora.
#[test]
fn a_complete_run_s_report_shows_no_state() {
    let dir = tempfile::tempdir().unwrap();
    let corpora = corpora(dir.path());
    let out = dir.path().join("out");
    common::bench_into(&out, &["-q", "--solvers=dlx"], &corpora[0])
        .assert()
        .success();
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(page_state(&page), "");
    assert!(!page.contains("(done)</span>"));
}

/// `plot` re-drawing a directory written before the state keys (the
/// baseline of 2026-11-26 in tests/data, made interrupted as such a run
/// wrote it: no
/// `state`, `"interrupted": true`, its last corpus not `complete`) shows
/// the state as those keys say it.
#[test]
fn plot_shows_the_state_of_a_directory_from_before_the_state_keys() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("old");
    std::fs::create_dir(&out).unwrap();
    for entry in std::fs::read_dir(repo_path("tests/data/unversioned-run")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), out.join(entry.file_name())).unwrap();
    }
    let mut run = read_json(&out.join("run.json"));
    assert!(
        run.get("state").is_none(),
        "no longer a file from before the key"
    );
    run["interrupted"] = true.into();
    run["corpora"][2]["complete"] = false.into();
    run["corpora"][2]["lines_done"] = 700.into();
    std::fs::write(out.join("run.json"), run.to_string()).unwrap();
    let plot = common::dlxbench().arg("plot").arg(&out).assert().success();
    let stderr = String::from_utf8_lossy(&plot.get_output().stderr).into_owned();
    assert!(stderr.contains("interrupted"), "{stderr}");
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let state = page_state(&page);
    assert_eq!(
        state,
        "This run was interrupted (Ctrl-C or SIGTERM) before its end. Corpora: gen_9x9_1000 \
         done; gen_12x12_50 done; magictour_top1465 partial (700 of 1,465 lines)."
    );
    assert!(page.contains("<span class=\"problem\">(partial)</span></h2>"));
    assert!(page.contains("<p class=\"problem\">Partial: 700 of 1,465 lines were run"));
}
