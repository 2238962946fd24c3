#![cfg(unix)]
//! The output directory belongs to one run: a second run into it is
//! refused while the first goes, `--force` removes only the files an
//! earlier run listed, corpora whose names make the same file name get
//! files of their own, and any corpus name gives names a file system
//! takes.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::{assert_no_temporaries, dir_entries, dlxbench, read_csv, read_json, repo_path};

/// A corpus of `copies` hard 9x9 puzzles (a few seconds with `heuristic`
/// at a few thousand), written into `dir`.
fn slow_corpus(dir: &Path, copies: usize) -> PathBuf {
    let hard =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let path = dir.join("slow.txt");
    std::fs::write(&path, hard.repeat(copies)).unwrap();
    path
}

/// The first `n` puzzle lines of the committed corpus `name`, as `dir/file`.
fn corpus_of(dir: &Path, file: &str, name: &str, n: usize) -> PathBuf {
    let text = std::fs::read_to_string(repo_path(&format!("datasets/generated/{name}"))).unwrap();
    let lines: String = common::puzzle_lines(&text)
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect();
    common::write_file(dir, file, lines)
}

#[test]
fn a_second_run_into_a_busy_directory_is_refused_and_the_first_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let slow = slow_corpus(dir.path(), 5_000);
    let small = repo_path("datasets/generated/gen_4x4_100.txt");
    let mut first = Process::new(env!("CARGO_BIN_EXE_dlxbench"))
        .args([
            "bench",
            "-q",
            "-j",
            "1",
            "--solvers",
            "dlx,heuristic",
            "--out",
        ])
        .arg(&out)
        .arg(&slow)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The lock is taken before anything in the directory is touched (the
    // temporary puzzles.csv comes a moment later: wait for both).
    let lock = out.join(".dlxbench.lock");
    let started = Instant::now();
    let streaming = || {
        dir_entries(&out)
            .iter()
            .any(|n| n.starts_with(".dlxbench-puzzles.csv."))
    };
    while std::fs::read_to_string(&lock).map_or(true, |t| t.is_empty()) || !streaming() {
        assert!(started.elapsed() < Duration::from_secs(60), "no lock file");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap().trim(),
        first.id().to_string()
    );
    // Refused, forced or not, naming the first run's pid; nothing touched
    // (the first run's temporary puzzles.csv stays).
    let before = dir_entries(&out);
    assert!(
        before
            .iter()
            .any(|n| n.starts_with(".dlxbench-puzzles.csv.")),
        "{before:?}"
    );
    for force in [&[][..], &["--force"][..]] {
        let second = dlxbench()
            .args(["bench", "-q", "--solvers", "dlx", "--out"])
            .arg(&out)
            .args(force)
            .arg(&small)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&second.stderr);
        assert_eq!(second.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "{}: another dlxbench run (pid {}) is writing into it",
                out.display(),
                first.id()
            )),
            "{stderr}"
        );
    }
    // Nor does a merge replace the directory meanwhile.
    let merge = dlxbench()
        .args(["merge", "--force", "--out"])
        .arg(&out)
        .arg(dir.path().join("part"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&merge.stderr);
    assert_eq!(merge.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("(pid {}) is writing into it", first.id())),
        "{stderr}"
    );
    assert!(
        first.try_wait().unwrap().is_none(),
        "the first run ended before the second started: make the corpus slower"
    );
    assert_eq!(dir_entries(&out), before);

    // The first run ends as if alone: every file whole and its own.
    let output = first.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["interrupted"], false);
    assert_eq!(run["corpora"][0]["name"], "slow");
    assert_eq!(run["corpora"][0]["complete"], true);
    let summary = read_csv(&out.join("summary.csv"));
    assert_eq!(summary.len(), 2);
    assert!(summary
        .iter()
        .all(|r| r["corpus"] == "slow" && r["puzzles"] == "5000"));
    let rows = read_csv(&out.join("puzzles.csv"));
    assert_eq!(rows.len(), 2 * 5_000);
    assert!(rows.iter().all(|r| r["corpus"] == "slow"));
    assert!(out.join("slow.heuristic.hgrm").is_file());
    assert!(!out.join("gen_4x4_100.dlx.hgrm").exists());
    // The lock went with the run; the directory reads.
    assert_no_temporaries(&out);
    dlxbench().arg("plot").arg(&out).assert().success();
}

#[test]
fn force_removes_only_the_files_of_the_earlier_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    // A user's folder: files that only end like results.
    let users = [("logo.svg", "<svg/>"), ("notes.hgrm", "my notes")];
    for (name, text) in users {
        std::fs::write(out.join(name), text).unwrap();
    }
    let corpus = repo_path("datasets/generated/gen_4x4_100.txt");
    let bench = |solvers: &str, extra: &[&str]| {
        let mut cmd = dlxbench();
        cmd.args(["bench", "-q", "--solvers", solvers, "--out"])
            .arg(&out)
            .args(extra)
            .arg(&corpus);
        cmd
    };
    // Not an earlier run's: no refusal.
    bench("dlx", &[]).assert().success();
    let run = read_json(&out.join("run.json"));
    let files: Vec<&str> = run["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.contains(&"gen_4x4_100.dlx.hgrm"), "{files:?}");
    assert!(files.contains(&"gen_4x4_100.cost.svg"), "{files:?}");
    assert!(!files
        .iter()
        .any(|f| f.contains("logo") || f.contains("notes")));
    // Every file of the run is listed.
    for name in dir_entries(&out) {
        assert!(
            files.contains(&name.as_str()) || users.iter().any(|(u, _)| *u == name),
            "{name} not listed"
        );
    }
    bench("dlx", &[])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "holds the results of an earlier run",
        ));
    // Forced: the earlier run's files go, the user's stay.
    let stale = out.join("gen_4x4_100.dlx.hgrm");
    std::fs::write(&stale, "stale").unwrap();
    bench("heuristic", &["--force"]).assert().success();
    for (name, text) in users {
        assert_eq!(std::fs::read_to_string(out.join(name)).unwrap(), text);
    }
    assert!(!stale.exists(), "the earlier run's histogram went");
    assert!(out.join("gen_4x4_100.heuristic.hgrm").is_file());
    assert_no_temporaries(&out);
}

#[test]
fn corpora_whose_names_make_the_same_file_name_keep_their_own_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let spaced = corpus_of(dir.path(), "x y.txt", "gen_4x4_100.txt", 30);
    let plain = corpus_of(dir.path(), "x_y.txt", "gen_6x6_100.txt", 20);
    dlxbench()
        .args(["bench", "-q", "--solvers", "dlx", "--out"])
        .arg(&out)
        .arg(&spaced)
        .arg(&plain)
        .assert()
        .success();
    // Stems in corpus order, recorded in run.json.
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["corpora"][0]["name"], "x y");
    assert_eq!(run["corpora"][0]["file_stem"], "x_y");
    assert_eq!(run["corpora"][1]["name"], "x_y");
    assert_eq!(run["corpora"][1]["file_stem"], "x_y-2");
    // Each histogram holds its own corpus's solves.
    let count = |file: &str| {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        let line = text.lines().find(|l| l.contains("Total count")).unwrap();
        line.trim_end_matches(']')
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(count("x_y.dlx.hgrm"), "30");
    assert_eq!(count("x_y-2.dlx.hgrm"), "20");
    // Each picture is its own corpus's, and so is what the page shows.
    let title = |file: &str| std::fs::read_to_string(out.join(file)).unwrap();
    assert!(title("x_y.percentiles.svg").contains("x y: latency by percentile"));
    assert!(title("x_y-2.percentiles.svg").contains("x_y: latency by percentile"));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let (first, second) = page.split_once("<h2>x_y").unwrap();
    assert!(first.contains("x y: latency by percentile") && first.contains("x_y.cost.svg"));
    assert!(second.contains("x_y: latency by percentile") && second.contains("x_y-2.cost.svg"));
    assert!(!second.contains("x y: latency"));
    // `plot` finds them again through run.json.
    std::fs::remove_file(out.join("x_y-2.cost.svg")).unwrap();
    dlxbench().arg("plot").arg(&out).assert().success();
    assert!(out.join("x_y-2.cost.svg").is_file());
    assert!(!dir_entries(&out).iter().any(|n| n.starts_with("x_y-3")));
}

#[test]
fn a_corpus_with_a_240_character_name_gives_short_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let name = "c".repeat(240);
    let corpus = corpus_of(dir.path(), &format!("{name}.txt"), "gen_4x4_100.txt", 10);
    let out = dir.path().join("out");
    dlxbench()
        .args(["bench", "-q", "--solvers", "dlx", "--out"])
        .arg(&out)
        .arg(&corpus)
        .assert()
        .success();
    let run = read_json(&out.join("run.json"));
    assert_eq!(run["corpora"][0]["name"], name.as_str());
    let stem = run["corpora"][0]["file_stem"].as_str().unwrap();
    assert!(stem.len() <= 96 && stem.starts_with("ccc"), "{stem}");
    assert!(out.join(format!("{stem}.dlx.hgrm")).is_file());
    assert!(dir_entries(&out).iter().all(|n| n.len() < 128));
    assert_no_temporaries(&out);

    // The named directory too, under `results/`.
    dlxbench()
        .current_dir(dir.path())
        .args(["bench", "-q", "--solvers", "dlx"])
        .arg(&corpus)
        .assert()
        .success();
    let named = dir_entries(&dir.path().join("results"));
    assert_eq!(named.len(), 1, "{named:?}");
    assert!(named[0].starts_with(stem) && named[0].len() < 128);
    assert!(dir
        .path()
        .join("results")
        .join(&named[0])
        .join("run.json")
        .is_file());
}
