#![cfg(unix)]
//! `bench` on the main job's rough edges: results as each corpus ends, an
//! interrupt, a full disk, a closed pipe, a reused output directory, and
//! throughput that does not depend on the threads asked for.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::{assert_no_temporaries, binary, dlxbench, read_csv, read_json, repo_path};

/// A corpus that takes seconds with `heuristic` (many copies of hard
/// 9x9 puzzles), written into `dir`.
fn slow_corpus(dir: &Path) -> PathBuf {
    let hard =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let path = dir.join("slow.txt");
    std::fs::write(&path, hard.repeat(20_000)).unwrap();
    path
}

#[test]
fn an_interrupt_keeps_the_finished_corpus_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let first = repo_path("datasets/generated/gen_4x4_100.txt");
    let slow = slow_corpus(dir.path());
    let mut child = Process::new(binary())
        .args(["bench", "--solvers", "dlx,heuristic", "-j", "1", "--out"])
        .arg(&out)
        .arg(&first)
        .arg(&slow)
        .arg(&first)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first corpus's table: its last row is `heuristic`.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut shown = String::new();
    let started = Instant::now();
    while !shown.contains("  heuristic ") {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "no table: {shown}"
        );
        shown.push_str(&line);
        assert!(started.elapsed() < Duration::from_secs(60));
    }
    assert!(shown.starts_with("gen_4x4_100: 100 puzzles"), "{shown}");
    // The first corpus's files are there before the run ends.
    assert!(out.join("summary.csv").exists());
    // SAFETY: kill(2) with a pid we spawned and a valid signal.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["interrupted"], true);
    let corpora = run["corpora"].as_array().unwrap();
    assert_eq!(corpora[0]["complete"], true);
    // Every corpus asked for is listed: the third never started.
    assert_eq!(run["state"], "interrupted");
    assert_eq!(corpora.len(), 3);
    assert_eq!(corpora[0]["state"], "done");
    assert_eq!(corpora[2]["state"], "not started");
    let rows = read_csv(&out.join("summary.csv"));
    assert!(rows
        .iter()
        .any(|r| r["corpus"] == "gen_4x4_100" && r["solver"] == "dlx" && r["puzzles"] == "100"));
    // puzzles.csv holds the first corpus whole.
    let puzzles = read_csv(&out.join("puzzles.csv"));
    let first_rows = puzzles
        .iter()
        .filter(|r| r["corpus"] == "gen_4x4_100")
        .count();
    assert_eq!(first_rows, 200);
    assert_no_temporaries(&out);
    // report.html says it at its top and beside each corpus.
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        page.contains(
            "<p class=\"problem\" id=\"run-state\">This run was interrupted (Ctrl-C or \
             SIGTERM) before its end. Corpora: gen_4x4_100 done; slow "
        ),
        "{page}"
    );
    assert!(page.contains("gen_4x4_100-2 not started (no results).</p>"));
    assert!(page.contains("<h2>gen_4x4_100-2 <span class=\"problem\">(not started)</span></h2>"));
    // The signal lands while `slow` runs (or, rarely, just before).
    assert!(
        (page.contains("(partial)</span></h2>") && page.contains("<p class=\"problem\">Partial: "))
            || page.contains("<h2>slow <span class=\"problem\">(not started)</span></h2>"),
        "{page}"
    );
    // An interrupted run is not a shard `merge` takes.
    let merged = dir.path().join("merged");
    let refused = Process::new(binary())
        .args(["merge", "--out"])
        .arg(&merged)
        .arg(&out)
        .output()
        .unwrap();
    let message = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{message}");
    // The signal lands while `slow` runs, or (rarely) just before it starts.
    assert!(
        (message.contains("the run was interrupted (slow: ")
            || message.contains("the run was interrupted (before its next corpus started)"))
            && message.contains("run this shard again"),
        "{message}"
    );
    assert!(!merged.exists());
}

/// Every subcommand whose standard output is closed before it writes ends
/// quietly with exit 0 (as `| head -0` would make it).
#[test]
fn a_closed_stdout_ends_every_subcommand_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_6x6_100.txt");
    let corpus = corpus.to_str().unwrap();
    let baseline = repo_path("results/baseline");
    let baseline = baseline.to_str().unwrap();
    let out = dir.path().join("b");
    let out = out.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["datasets", "list"],
        vec!["bench", "--solvers", "dlx", "--out", out, corpus],
        vec!["solve", corpus],
        vec!["check", corpus],
        vec!["convert", corpus],
        vec!["rate", corpus],
        vec!["generate", "--count", "50", "--seed", "1"],
        vec!["compare", baseline, baseline],
    ];
    for args in cases {
        let mut child = Process::new(binary())
            .args(&args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn a_reused_out_directory_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let corpus = repo_path("datasets/generated/gen_4x4_100.txt");
    let bench = |extra: &[&str]| {
        let mut cmd = dlxbench();
        cmd.args(["bench", "-q", "--solvers", "dlx", "--out"])
            .arg(&out)
            .args(extra)
            .arg(&corpus);
        cmd
    };
    bench(&[]).assert().success();
    // A leftover of a killed run goes at the next start.
    let stale = out.join(".dlxbench-summary.csv.abc123.tmp");
    std::fs::write(&stale, "half").unwrap();
    bench(&[])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "holds the results of an earlier run",
        ))
        .stderr(predicates::str::contains("--force"));
    assert!(!stale.exists());
    // The earlier run's files go; a file that only ends like one stays.
    std::fs::write(out.join("gen_4x4_100.dlx.hgrm"), "stale").unwrap();
    std::fs::write(out.join("old.dlx.hgrm"), "not the run's").unwrap();
    bench(&["--force"]).assert().success();
    assert!(out.join("old.dlx.hgrm").exists(), "not in the run's list");
    let hgrm = std::fs::read_to_string(out.join("gen_4x4_100.dlx.hgrm")).unwrap();
    assert_ne!(hgrm, "stale");
}

/// Throughput counts the workers that ran, not the threads asked for:
/// a one-chunk corpus is one worker's work whatever `-j` says. Checked
/// from the run's own records (no timing compared between runs, which a
/// busy machine can skew either way): `threads` is the workers that ran,
/// and `puzzles_per_s` is puzzles x workers / the summed solve times of
/// `puzzles.csv`.
#[test]
fn throughput_does_not_scale_with_idle_threads() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_4x4_100.txt");
    for threads in ["1", "64"] {
        let out = dir.path().join(format!("j{threads}"));
        dlxbench()
            .args(["bench", "-q", "--solvers", "dlx", "-j", threads, "--out"])
            .arg(&out)
            .arg(&corpus)
            .assert()
            .success();
        let rows = read_csv(&out.join("summary.csv"));
        assert_eq!(
            rows[0]["threads"], "1",
            "-j{threads}: one chunk, one worker"
        );
        let puzzles = read_csv(&out.join("puzzles.csv"));
        let sum_ns: f64 = puzzles
            .iter()
            .map(|r| r["ns"].parse::<f64>().unwrap())
            .sum();
        let expected = puzzles.len() as f64 * 1e9 / sum_ns;
        let rate: f64 = rows[0]["puzzles_per_s"].parse().unwrap();
        assert!(
            (rate / expected - 1.0).abs() < 1e-3,
            "-j{threads}: {rate} against {expected} from puzzles.csv"
        );
    }
}

/// A tmpfs of `size` mounted on `dir/name`, unmounted when dropped; `None`
/// (with the reason printed) where mounting is impossible (not root, or no
/// permission in a container).
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, name: &str, size: &str) -> Option<Tmpfs> {
        let mount = dir.join(name);
        std::fs::create_dir(&mount).unwrap();
        // SAFETY: geteuid(2) has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!(
                "skipped: mounting a {size} tmpfs needs root, and the tests do not run as root"
            );
            return None;
        }
        match Process::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&mount)
            .output()
        {
            Ok(o) if o.status.success() => Some(Tmpfs(mount)),
            Ok(o) => {
                eprintln!(
                    "skipped: `mount -t tmpfs` refused ({}): {}",
                    o.status,
                    String::from_utf8_lossy(&o.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("skipped: cannot run `mount`: {e}");
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Process::new("umount").arg(&self.0).status();
    }
}

/// What [`full_disk_run`] gives: `bench`'s exit status, standard output and error, the disk (unmounted when dropped)
/// and the temporary directory it is in (dropped after it).
type FullDiskRun = (Option<i32>, String, String, Tmpfs, tempfile::TempDir);

/// `bench` of the two generated corpora onto a disk of `size`, `-q` or
/// not (`None`: no disk could be mounted).
fn full_disk_run(size: &str, quiet: bool) -> Option<FullDiskRun> {
    let dir = tempfile::tempdir().unwrap();
    let tmpfs = Tmpfs::mount(dir.path(), "tiny", size)?;
    let out = tmpfs.0.join("out");
    let mut args = vec!["bench", "--solvers", "dlx,singles", "-j", "1"];
    if quiet {
        args.push("-q");
    }
    let output = Process::new(binary())
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg(repo_path("datasets/generated/gen_4x4_100.txt"))
        .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    Some((output.status.code(), stdout, stderr, tmpfs, dir))
}

/// A run onto a disk that `puzzles.csv` fills: the stream's temporary is
/// freed at once and `puzzles.csv` removed, so that every other result
/// file is written, and `run.json` says the run is complete without
/// `puzzles.csv`; the messages say exactly that (the tables are claimed
/// only when printed), and no temporary is left. Mounts a 64 KiB tmpfs:
/// skipped, with the reason printed, where that is impossible.
#[test]
fn a_full_disk_keeps_every_other_file_and_says_what_is_on_disk() {
    for quiet in [false, true] {
        let Some((code, stdout, stderr, tmpfs, _dir)) = full_disk_run("64k", quiet) else {
            return;
        };
        let out = tmpfs.0.join("out");
        assert_eq!(code, Some(2), "{stderr}");
        assert_eq!(
            stdout.contains("gen_4x4_100: 100 puzzles"),
            !quiet,
            "{stdout}"
        );
        assert_eq!(
            stdout.contains("gen_9x9_1000: 1,000 puzzles"),
            !quiet,
            "{stdout}"
        );
        let lost = format!(
            "dlxbench: cannot write {}: No space left on device",
            out.join("puzzles.csv").display()
        );
        assert!(stderr.contains(&lost), "{stderr}");
        assert!(
            stderr.contains(
                "; it was removed (run.json says the run has no puzzles.csv); the other result \
                 files hold the whole run\n"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains("tables above"), "{stderr}");
        assert!(!out.join("puzzles.csv").exists());
        let run = read_json(&out.join("run.json"));
        assert_eq!(run["state"], "complete");
        assert_eq!(run["per_puzzle"], false);
        let states: Vec<&str> = run["corpora"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["state"].as_str().unwrap())
            .collect();
        assert_eq!(states, ["done", "done"]);
        let summary = read_csv(&out.join("summary.csv"));
        assert_eq!(summary.len(), 4);
        for file in [
            "histograms.json",
            "summary.md",
            "gen_9x9_1000.dlx.hgrm",
            "gen_9x9_1000.singles.hgrm",
        ] {
            assert!(out.join(file).is_file(), "{file}");
        }
        // The pictures did not fit: a warning that keeps its promise.
        if stderr.contains("cannot draw the pictures") {
            assert!(stderr.contains("the results are kept"), "{stderr}");
        }
        assert_no_temporaries(&out);
    }
}

/// A baseline on a full disk is not saved, and no message says that
/// anything of the run is kept.
#[test]
fn a_baseline_on_a_full_disk_is_not_saved_and_nothing_is_said_kept() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmpfs) = Tmpfs::mount(dir.path(), "tiny", "64k") else {
        return;
    };
    let output = Process::new(binary())
        .args(["bench", "-q", "--solvers", "dlx,singles", "-j", "1"])
        .args(["--save-baseline", "base"])
        .arg(repo_path("datasets/generated/gen_4x4_100.txt"))
        .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
        .current_dir(&tmpfs.0)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("puzzles.csv: No space left on device"),
        "{stderr}"
    );
    assert!(
        stderr.contains("baseline not saved: the run did not complete; results/base is unchanged"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("kept") && !stderr.contains("hold the whole run"),
        "{stderr}"
    );
    assert!(!tmpfs.0.join("results/base").exists());
    assert_no_temporaries(&tmpfs.0.join("results"));
    drop(tmpfs);
}

/// A disk too small for even the first corpus's files: the last write
/// fails, and the message names what is there, as it is: `run.json` as
/// last written (a run that died, no corpus kept) and the run's files.
#[test]
fn a_disk_too_small_for_the_results_says_what_is_on_disk() {
    for quiet in [false, true] {
        let Some((code, stdout, stderr, tmpfs, _dir)) = full_disk_run("16k", quiet) else {
            return;
        };
        let out = tmpfs.0.join("out");
        assert_eq!(code, Some(2), "{stderr}");
        let line = stderr
            .lines()
            .find(|l| l.starts_with("dlxbench: cannot write the result files in"))
            .unwrap_or_else(|| panic!("{stderr}"));
        assert!(line.contains("No space left on device"), "{line}");
        // The tables are claimed exactly when printed.
        assert_eq!(
            line.ends_with("; the tables above show every corpus run"),
            !quiet,
            "{line}"
        );
        assert_eq!(stdout.contains("gen_9x9_1000: 1,000 puzzles"), !quiet);
        // What run.json says, as the message says it.
        let run = read_json(&out.join("run.json"));
        assert_eq!(run["state"], "running");
        let done: Vec<&str> = run["corpora"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["state"] == "done")
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        let kept = match done.is_empty() {
            true => "no corpus's results".to_string(),
            false => format!("the results of {}", done.join(", ")),
        };
        assert!(
            line.contains(&format!(
                "{} keeps {kept}; its run.json reads as a run that died",
                out.display()
            )),
            "{line}"
        );
        let dir = dlxbench::results::ResultDir::open(&out).unwrap();
        assert!(
            matches!(dir.state, dlxbench::results::DirState::Died { .. }),
            "{:?}",
            dir.state
        );
        // The files it names are there, and no other of the run's.
        let (_, files) = line.split_once("; the run's files there: ").unwrap();
        let files = files.split("; ").next().unwrap();
        let named: Vec<&str> = files.split(", ").collect();
        assert!(named.contains(&"run.json"), "{line}");
        let mut there: Vec<String> = common::dir_entries(&out)
            .into_iter()
            .filter(|n| !n.starts_with('.'))
            .collect();
        there.sort();
        let mut named: Vec<String> = named.iter().map(|s| s.to_string()).collect();
        named.sort();
        assert_eq!(named, there, "{line}");
        assert_no_temporaries(&out);
    }
}

/// One meaning for node budgets in every subcommand: `--budget-nodes` and
/// `--max-nodes` are the same flag, and 0 means no limit.
#[test]
fn budget_flags_mean_the_same_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_4x4_100.txt");
    let budget_column = |flag: &str, value: &str| -> String {
        let out = dir.path().join(format!("{flag}{value}"));
        dlxbench()
            .args([
                "bench",
                "-q",
                "--solvers",
                "dlx,naive",
                flag,
                value,
                "--out",
            ])
            .arg(&out)
            .arg(&corpus)
            .assert()
            .success();
        let rows = read_csv(&out.join("summary.csv"));
        rows.iter()
            .map(|r| r["budget_nodes"].clone())
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(budget_column("--budget-nodes", "0"), ",", "0: no limit");
    assert_eq!(budget_column("--max-nodes", "0"), ",");
    assert_eq!(budget_column("--max-nodes", "7"), "7,7");
    // Default: each solver's own.
    let out = dir.path().join("default");
    dlxbench()
        .args(["bench", "-q", "--solvers", "dlx,naive", "--out"])
        .arg(&out)
        .arg(&corpus)
        .assert()
        .success();
    let rows = read_csv(&out.join("summary.csv"));
    let budgets: Vec<&str> = rows.iter().map(|r| r["budget_nodes"].as_str()).collect();
    assert_eq!(budgets, ["10000000", "100000"]);
    // solve takes both names too, 0 meaning no limit.
    for flag in ["--budget-nodes", "--max-nodes"] {
        dlxbench()
            .args(["solve", flag, "0"])
            .arg(&corpus)
            .assert()
            .success();
    }
}

#[test]
fn a_time_budget_stops_a_search_in_solve() {
    // Counting every 16x16 grid never ends: only the time budget stops it.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty16.txt");
    std::fs::write(&empty, format!("{}\n", ".".repeat(256))).unwrap();
    let started = Instant::now();
    let out = dlxbench()
        .args(["solve", "--limit", "0", "--budget-time", "20ms"])
        .arg(&empty)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("solutions (search stopped at its budget, 20ms); the first:"),
        "{out}"
    );
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_long_run_prints_an_estimate_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let easy = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let path = dir.path().join("big.txt");
    std::fs::write(&path, easy.repeat(10)).unwrap();
    let assert = dlxbench()
        .args(["bench", "--solvers", "dlx", "--no-per-puzzle", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    let plan = stderr.lines().position(|l| l.contains("x 1 solver (dlx)"));
    let estimate = stderr
        .lines()
        .position(|l| l.starts_with("dlxbench: estimated solving time about"));
    assert!(
        plan.is_some() && estimate == plan.map(|p| p + 1),
        "{stderr}"
    );
    // A short run starts at once, with no estimate.
    let assert = dlxbench()
        .args(["bench", "--solvers", "dlx", "--no-per-puzzle", "--out"])
        .arg(dir.path().join("out2"))
        .arg(repo_path("datasets/generated/gen_9x9_1000.txt"))
        .assert()
        .success();
    assert!(!String::from_utf8_lossy(&assert.get_output().stderr).contains("estimated"));
}
