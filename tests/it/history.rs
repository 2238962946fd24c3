//! `dlxbench history`: runs added once, whole or not at all, by writers at
//! once and by a writer killed mid-way; `show` over commits with the count
//! step at its commit and no time step in A/A noise; the dashboard, the
//! JSON and the export.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::{Duration, Instant};

use common::{
    bench_into, copy_dir, dlxbench, gen_9x9_corpus, git, read_csv, stderr_text, stdout_of,
};
use dlxbench::results::output::{HistoryExportJson, HistoryJson};

/// A complete run of `solvers` on the first `n` puzzles of the embedded
/// corpus, in `dir/name`.
fn run_of(dir: &Path, name: &str, n: usize, solvers: &str) -> PathBuf {
    let corpus = gen_9x9_corpus(dir, &format!("{name}.txt"), n);
    let out = dir.join(name);
    bench_into(&out, &["--solvers", solvers, "-j1", "--quiet"], &corpus)
        .assert()
        .success();
    out
}

/// A complete run of `dlx` and `singles` (see [`run_of`]).
fn run(dir: &Path, name: &str, n: usize) -> PathBuf {
    run_of(dir, name, n, "dlx,singles")
}

/// `dlxbench history ARGS`.
fn history(args: &[&std::ffi::OsStr]) -> std::process::Output {
    dlxbench().arg("history").args(args).output().unwrap()
}

/// The export of `db` as its JSON type.
fn exported(db: &Path) -> HistoryExportJson {
    let text = stdout_of(
        dlxbench()
            .args(["history", "export", "--format", "json"])
            .arg(db),
    );
    common::typed(&text)
}

/// Runs in `db` by key, with their corpus x solver rows and puzzle rows.
fn contents(db: &Path) -> Vec<(String, usize, u64)> {
    exported(db)
        .runs
        .into_iter()
        .map(|r| {
            let rows = r.summaries.iter().map(|s| s.puzzle_rows).sum();
            (r.run_key, r.summaries.len(), rows)
        })
        .collect()
}

#[test]
fn a_run_is_added_once_and_exported() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), "a", 60);
    let db = dir.path().join("h.db");
    let out = history(&["add".as_ref(), db.as_os_str(), a.as_os_str()]);
    assert!(out.status.success(), "{}", stderr_text(&out));
    assert!(stderr_text(&out).contains("added"), "{}", stderr_text(&out));
    // Again, and from a copy elsewhere: the same run, nothing added.
    let copy = dir.path().join("copy");
    copy_dir(&a, &copy);
    let out = history(&[
        "add".as_ref(),
        db.as_os_str(),
        a.as_os_str(),
        copy.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", stderr_text(&out));
    assert_eq!(
        stderr_text(&out).matches("already in the history").count(),
        2
    );
    let runs = contents(&db);
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!((runs[0].1, runs[0].2), (2, 0));
    // The CSV export: one row per corpus x solver, the figures of summary.csv.
    let csv = dir.path().join("h.csv");
    stdout_of(
        dlxbench()
            .args(["history", "export"])
            .arg(&db)
            .arg("--out")
            .arg(&csv),
    );
    let rows = read_csv(&csv);
    let summary = read_csv(&a.join("summary.csv"));
    assert_eq!(rows.len(), 2);
    for (row, s) in rows.iter().zip(&summary) {
        assert_eq!(row["solver"], s["solver"]);
        assert_eq!(row["total_nodes"], s["total_nodes"]);
        assert_eq!(row["puzzles"], s["puzzles"]);
    }
}

#[test]
fn per_puzzle_rows_and_merged_runs_are_added() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = gen_9x9_corpus(dir.path(), "c.txt", 80);
    let parts: Vec<PathBuf> = ["1/2", "2/2"]
        .iter()
        .enumerate()
        .map(|(k, shard)| {
            let out = dir.path().join(format!("s{k}"));
            bench_into(
                &out,
                &["--solvers", "dlx", "-j1", "--quiet", "--shard", shard],
                &corpus,
            )
            .assert()
            .success();
            out
        })
        .collect();
    let merged = dir.path().join("merged");
    dlxbench()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    let db = dir.path().join("h.db");
    let out = history(&[
        "add".as_ref(),
        "--puzzles".as_ref(),
        db.as_os_str(),
        merged.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", stderr_text(&out));
    let doc = exported(&db);
    assert_eq!(doc.runs.len(), 1);
    assert_eq!(doc.runs[0].merged_parts, 2);
    assert_eq!(doc.runs[0].summaries[0].puzzles, 80);
    assert_eq!(doc.runs[0].summaries[0].puzzle_rows, 80);
}

#[test]
fn an_unfinished_run_is_refused_and_the_others_added() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), "a", 30);
    let b = run(dir.path(), "b", 31);
    let run_json = a.join("run.json");
    let mut facts: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
    facts["state"] = "interrupted".into();
    std::fs::write(&run_json, facts.to_string()).unwrap();
    let db = dir.path().join("h.db");
    let out = history(&["add".as_ref(), db.as_os_str(), a.as_os_str(), b.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_text(&out);
    assert!(
        err.contains(&format!("{}: the run is interrupted", a.display())),
        "{err}"
    );
    assert_eq!(contents(&db).len(), 1);
    // `show` and `export` do not create a database.
    let missing = dir.path().join("none.db");
    let out = history(&["show".as_ref(), missing.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_text(&out).contains("no such history database"));
    assert!(!missing.exists());
}

/// `copies` of `base`, each standing for commit `i` (its revision and
/// start time edited in run.json), with `edit(i, row)` applied to each
/// summary.csv row; added to `db` in commit order.
fn commits(
    dir: &Path,
    base: &Path,
    db: &Path,
    copies: usize,
    edit: impl Fn(usize, &mut csv::StringRecord, &csv::StringRecord),
) {
    for i in 0..copies {
        let c = dir.join(format!("commit{i:02}"));
        copy_dir(base, &c);
        let run_json = c.join("run.json");
        let mut facts: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&run_json).unwrap()).unwrap();
        facts["git_revision"] = format!("{i:02}{}", "ab".repeat(19)).into();
        facts["started"] = format!("2026-01-01T00:{i:02}:00Z").into();
        std::fs::write(&run_json, facts.to_string()).unwrap();
        let summary = c.join("summary.csv");
        let mut reader = csv::Reader::from_path(&summary).unwrap();
        let header = reader.headers().unwrap().clone();
        let mut writer = csv::Writer::from_path(summary.with_extension("new")).unwrap();
        writer.write_record(&header).unwrap();
        for row in reader.records() {
            let mut row = row.unwrap();
            edit(i, &mut row, &header);
            writer.write_record(&row).unwrap();
        }
        writer.flush().unwrap();
        std::fs::rename(summary.with_extension("new"), &summary).unwrap();
        let out = history(&[
            "add".as_ref(),
            "--accept-modified".as_ref(),
            db.as_os_str(),
            c.as_os_str(),
        ]);
        assert!(out.status.success(), "{}", stderr_text(&out));
    }
}

/// `row`'s field `column`, set to `value`.
fn set(row: &mut csv::StringRecord, header: &csv::StringRecord, column: &str, value: String) {
    let at = header.iter().position(|h| h == column).unwrap();
    let mut fields: Vec<String> = row.iter().map(String::from).collect();
    fields[at] = value;
    *row = csv::StringRecord::from(fields);
}

/// Sets `row`'s standard deviation to half of `mean`: a run's interval
/// of ±7% on 200 puzzles, whatever stalls this run met.
fn spread(row: &mut csv::StringRecord, header: &csv::StringRecord, mean: f64) {
    set(row, header, "stddev_ns", format!("{:.1}", mean / 2.0));
}

fn field(row: &csv::StringRecord, header: &csv::StringRecord, column: &str) -> f64 {
    let at = header.iter().position(|h| h == column).unwrap();
    row[at].parse().unwrap()
}

#[test]
fn show_finds_the_count_step_at_its_commit_and_no_time_step_in_aa_noise() {
    let dir = tempfile::tempdir().unwrap();
    let base = run(dir.path(), "base", 200);
    let db = dir.path().join("h.db");
    // 12 commits of the same code; at commit 7 dlx's node count grows by
    // one. Times: A/A noise, each mean moved by under 1% of itself, well
    // within its interval (±7%).
    commits(dir.path(), &base, &db, 12, |i, row, header| {
        let noise = 1.0 + 0.008 * (((i * 7919) % 13) as f64 / 6.0 - 1.0);
        let mean = field(row, header, "mean_ns");
        spread(row, header, mean);
        set(row, header, "mean_ns", format!("{:.1}", mean * noise));
        if i >= 7 && &row[1] == "dlx" {
            let nodes = field(row, header, "total_nodes") + 1.0;
            set(row, header, "total_nodes", format!("{nodes}"));
        }
    });
    let html = dir.path().join("dash.html");
    let text = stdout_of(
        dlxbench()
            .args(["history", "show", "--format", "json", "--html"])
            .arg(&html)
            .arg(&db),
    );
    let doc: HistoryJson = common::typed(&text);
    assert_eq!(doc.format, "dlxbench-history/1");
    assert_eq!(doc.series.len(), 2);
    for s in &doc.series {
        assert_eq!(s.points.len(), 12, "{}", s.solver);
        let steps: Vec<(&str, usize)> = s.steps.iter().map(|st| (&*st.metric, st.index)).collect();
        match s.solver.as_str() {
            "dlx" => assert_eq!(steps, vec![("nodes", 7)]),
            _ => assert_eq!(steps, vec![]),
        }
        assert!(s.outliers.is_empty(), "{:?}", s.outliers);
    }
    assert_eq!(
        doc.series[0].steps[0].revision,
        format!("07{}", "ab".repeat(19))
    );
    // The dashboard: offline, one chart per corpus x solver, the step said.
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), 2);
    common::assert_offline(&page, "the dashboard");
    assert!(
        page.contains("nodes step at 07abababab"),
        "no step in the caption"
    );
    // The text table and Markdown say it at commit 07.
    let table = stdout_of(dlxbench().args(["history", "show"]).arg(&db));
    let line = table.lines().find(|l| l.contains("07ababababab")).unwrap();
    assert!(line.contains("nodes +"), "{line}");
    let md = stdout_of(
        dlxbench()
            .args(["history", "show", "--format", "md"])
            .arg(&db),
    );
    assert!(md.starts_with("## Benchmark history"), "{md}");
    assert_eq!(md.matches("| nodes +").count(), 1, "{md}");
}

#[test]
fn a_slow_down_beyond_the_intervals_and_the_floor_is_a_time_step() {
    let dir = tempfile::tempdir().unwrap();
    let base = run(dir.path(), "base", 200);
    let db = dir.path().join("h.db");
    // From commit 5 on, singles' mean doubles and its spread stays.
    commits(dir.path(), &base, &db, 9, |i, row, header| {
        let mean = field(row, header, "mean_ns");
        spread(row, header, mean);
        if i >= 5 && &row[1] == "singles" {
            set(row, header, "mean_ns", format!("{:.1}", mean * 2.0));
        }
    });
    let doc: HistoryJson = common::typed(&stdout_of(
        dlxbench()
            .args(["history", "show", "--format", "json"])
            .arg(&db),
    ));
    let singles = doc.series.iter().find(|s| s.solver == "singles").unwrap();
    let steps: Vec<(&str, usize)> = singles
        .steps
        .iter()
        .map(|s| (&*s.metric, s.index))
        .collect();
    assert_eq!(steps, vec![("time", 5)]);
    let dlx = doc.series.iter().find(|s| s.solver == "dlx").unwrap();
    assert!(dlx.steps.is_empty());
}

/// `dlxbench history add DB RUN` as a child process.
fn spawn_add(db: &Path, runs: &[&Path], extra: &[&str]) -> std::process::Child {
    StdCommand::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .args(["history", "add"])
        .args(extra)
        .arg(db)
        .args(runs)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn two_writers_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let a = run(dir.path(), "a", 300);
    let b = run(dir.path(), "b", 301);
    for round in 0..5 {
        let db = dir.path().join(format!("h{round}.db"));
        // Both create the database, both add `a`, each adds its own run.
        let first = spawn_add(&db, &[&a, &b], &["--puzzles"]);
        let second = spawn_add(&db, &[&b, &a], &["--puzzles"]);
        for child in [first, second] {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{}", stderr_text(&out));
        }
        let runs = contents(&db);
        assert_eq!(runs.len(), 2, "round {round}: {runs:?}");
        assert!(runs.iter().all(|r| r.1 == 2), "{runs:?}");
        let rows: Vec<u64> = runs.iter().map(|r| r.2).collect();
        assert!(rows == [600, 602] || rows == [602, 600], "{rows:?}");
    }
}

#[test]
fn a_killed_writer_leaves_no_half_run() {
    let dir = tempfile::tempdir().unwrap();
    // A run with many per-puzzle rows: its transaction takes a while.
    let big = run_of(dir.path(), "big", 1000, "dlx,dc,singles,locked,heuristic");
    let small = run(dir.path(), "small", 20);
    let mut mid_way = 0;
    for attempt in 0..30 {
        let db = dir.path().join(format!("k{attempt}.db"));
        let out = history(&["add".as_ref(), db.as_os_str(), small.as_os_str()]);
        assert!(out.status.success());
        let journal = PathBuf::from(format!("{}-journal", db.display()));
        let mut child = spawn_add(&db, &[&big], &["--puzzles"]);
        // Kill it once its transaction has written (the journal is there).
        let start = Instant::now();
        while !journal.exists() && start.elapsed() < Duration::from_secs(20) {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        let in_transaction = journal.exists();
        let _ = child.kill();
        let _ = child.wait();
        // The next writer rolls the half-written run back, and adds it whole.
        let runs = contents(&db);
        assert!(runs.len() == 1 || runs.len() == 2, "{runs:?}");
        if runs.len() == 2 {
            assert_eq!((runs[1].1, runs[1].2), (5, 5000), "{runs:?}");
        } else if in_transaction {
            mid_way += 1;
        }
        let out = history(&[
            "add".as_ref(),
            "--puzzles".as_ref(),
            db.as_os_str(),
            big.as_os_str(),
        ]);
        assert!(out.status.success(), "{}", stderr_text(&out));
        let runs = contents(&db);
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[1].1, runs[1].2), (5, 5000), "{runs:?}");
        if mid_way >= 3 {
            return;
        }
    }
    panic!("the writer was never killed mid-transaction ({mid_way} times in 30)");
}

// `results/history-over-commits`: the history over a repository's past
// commits (docs/history.md).

/// A repository on `main` whose commits change, in turn: the sources, the
/// docs, the sources, the tests, the embedded corpora, the lock file; a
/// merged branch changes the docs; tag `v1.2` is the second commit. Its
/// commits, oldest first (the branch's own not among them).
fn script_repository(dir: &Path) -> Vec<String> {
    git(dir, &["init", "-q"]);
    git(dir, &["checkout", "-q", "-b", "main"]);
    let files = [
        "src/lib.rs",
        "docs/a.md",
        "src/lib.rs",
        "tests/t.rs",
        "datasets/generated/g.txt",
        "Cargo.lock",
    ];
    for f in [
        "src/lib.rs",
        "build.rs",
        "Cargo.toml",
        "Cargo.lock",
        "docs/a.md",
        "tests/t.rs",
        "datasets/generated/g.txt",
    ] {
        std::fs::create_dir_all(dir.join(f).parent().unwrap()).unwrap();
        common::write_file(dir, f, "0\n");
    }
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "first"]);
    let mut commits = vec![git(dir, &["rev-parse", "HEAD"])];
    for (k, f) in files.iter().enumerate() {
        std::fs::write(dir.join(f), format!("{}\n", k + 1)).unwrap();
        git(dir, &["commit", "-q", "-am", &format!("change {f}")]);
        commits.push(git(dir, &["rev-parse", "HEAD"]));
    }
    git(dir, &["tag", "v1.2", &commits[1]]);
    git(dir, &["checkout", "-q", "-b", "side"]);
    std::fs::write(dir.join("docs/a.md"), "side\n").unwrap();
    git(dir, &["commit", "-q", "-am", "side"]);
    git(dir, &["checkout", "-q", "main"]);
    git(dir, &["merge", "-q", "--no-ff", "-m", "merge side", "side"]);
    commits.push(git(dir, &["rev-parse", "HEAD"]));
    commits
}

/// `results/history-over-commits ARGS` (with `--repo` and `--list`
/// added), its exit status and output.
fn script_list(repo: &Path, args: &[&str]) -> std::process::Output {
    StdCommand::new(common::repo_path("results/history-over-commits"))
        .args(args)
        .args(["--list", "--repo"])
        .arg(repo)
        .output()
        .unwrap()
}

/// `--list`'s lines: commit and build tree.
fn listed(out: &std::process::Output) -> Vec<(String, String)> {
    assert!(out.status.success(), "{}", stderr_text(out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string())
        })
        .collect()
}

#[test]
fn the_script_lists_first_parent_commits_oldest_first_with_their_build_trees() {
    let dir = tempfile::tempdir().unwrap();
    let commits = script_repository(dir.path());
    let all = listed(&script_list(dir.path(), &[]));
    let shas: Vec<&str> = all.iter().map(|(c, _)| c.as_str()).collect();
    // First parents only (not the merged branch's commit), oldest first.
    assert_eq!(shas, commits.iter().map(String::as_str).collect::<Vec<_>>());
    let trees: Vec<&str> = all.iter().map(|(_, t)| t.as_str()).collect();
    // The docs, the tests and a merge of docs leave the build tree; the
    // sources, the embedded corpora and the lock file change it.
    let same = [false, false, true, false, true, false, false, true];
    for (k, same) in same.iter().enumerate().skip(1) {
        assert_eq!(trees[k] == trees[k - 1], *same, "commit {k}: {trees:?}");
    }
    let distinct: std::collections::BTreeSet<&str> = trees.iter().copied().collect();
    assert_eq!(distinct.len(), 5, "{trees:?}");

    let last = listed(&script_list(dir.path(), &["--last", "3", "v1.2"]));
    assert_eq!(last, all[..2].to_vec(), "v1.2 is the second commit");
    let range = listed(&script_list(dir.path(), &["v1.2..main"]));
    assert_eq!(range, all[2..].to_vec());
    for bad in [&["--last", "x"][..], &["--bogus"]] {
        let out = script_list(dir.path(), bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(stderr_text(&out).contains("usage:"), "{bad:?}");
    }
}

#[test]
fn the_scripts_commands_in_the_docs_run() {
    // Each `results/history-over-commits` line of docs/history.md's `sh`
    // blocks, as written, with --list (builds nothing) on a repository
    // with the names they use.
    let dir = tempfile::tempdir().unwrap();
    script_repository(dir.path());
    let text = std::fs::read_to_string(common::repo_path("docs/history.md")).unwrap();
    let mut in_sh = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        match line.trim() {
            "```sh" => in_sh = true,
            "```" => in_sh = false,
            l if in_sh && l.starts_with("results/history-over-commits") => {
                lines.push(l.split("  #").next().unwrap().trim().to_string())
            }
            _ => {}
        }
    }
    assert!(lines.len() >= 4, "{lines:?}");
    for line in &lines {
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        let out = script_list(dir.path(), &words);
        assert!(!listed(&out).is_empty(), "{line}");
    }
}

/// The script over this repository's last two commits, in a clone: each
/// commit built (minutes: the dependencies once, then the crate per
/// commit), benched and added; each run records its own commit. Not in
/// `.ci/run` (it builds); `HISTORY_WORK=DIR` keeps its builds for the next
/// run.
#[test]
#[ignore = "builds two commits with cargo (about 15 minutes from nothing)"]
fn the_script_builds_benches_and_adds_each_commit() {
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    let repo = common::repo_path(".");
    let out = StdCommand::new("git")
        .args(["clone", "-q", "--no-checkout"])
        .arg(&repo)
        .arg(&clone)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_text(&out));
    // HISTORY_WORK: a --work folder kept between runs (its builds reused).
    let work =
        std::env::var_os("HISTORY_WORK").map_or_else(|| dir.path().join("work"), PathBuf::from);
    let out = StdCommand::new(common::repo_path("results/history-over-commits"))
        .args(["--last", "2", "--rounds", "1", "--repo"])
        .arg(&clone)
        .arg("--work")
        .arg(&work)
        .env("DLXBENCH", common::binary())
        .env("CORPORA", "datasets/generated/gen_9x9_1000.txt")
        .env("SOLVERS", "dlx,dc")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_text(&out));
    let commits: Vec<String> = git(&clone, &["rev-list", "--first-parent", "-n", "2", "HEAD"])
        .lines()
        .rev()
        .map(str::to_string)
        .collect();
    let mut runs: Vec<PathBuf> = std::fs::read_dir(work.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    runs.sort();
    assert_eq!(runs.len(), 2, "{runs:?}");
    // Each run, named COMMIT12-ROUND, of its commit (the names sort by
    // hash, not in the chain's order).
    for commit in &commits {
        let run = runs
            .iter()
            .find(|r| {
                r.file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with(&commit[..12])
            })
            .unwrap_or_else(|| panic!("no run of {commit}: {runs:?}"));
        let facts = common::read_json(&run.join("run.json"));
        assert_eq!(
            facts["git_revision"].as_str(),
            Some(commit.as_str()),
            "{}",
            run.display()
        );
    }
    let show = stdout_of(
        dlxbench()
            .args(["history", "show", "--format", "json"])
            .arg(work.join("history.db")),
    );
    let json: HistoryJson = common::typed(&show);
    assert_eq!(json.series.len(), 2, "dlx and dc on one corpus");
    for series in &json.series {
        let revisions: Vec<&str> = series.points.iter().map(|p| p.revision.as_str()).collect();
        assert_eq!(
            revisions,
            commits.iter().map(String::as_str).collect::<Vec<_>>()
        );
    }
    assert!(work.join("dashboard.html").is_file() && work.join("history.md").is_file());
}
