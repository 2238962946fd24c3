//! No output over an input: `--export` takes `FORMAT=FILE` in one argument
//! (the old `--export FORMAT FILE` is a usage error that touches nothing),
//! and every subcommand refuses an output path that is one of its inputs
//! (exit 2, the input byte-identical afterwards).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::CommandCargoExt;
use assert_cmd::Command;
use common::dlxbench;
use predicates::str::contains;

/// A small corpus in `dir`: 40 puzzles of the generated 9x9 one.
fn small(dir: &Path, name: &str) -> PathBuf {
    common::gen_9x9_corpus(dir, name, 40)
}

/// `dlxbench` run in `dir` (so that nothing lands in the repository).
fn in_dir(dir: &Path) -> Command {
    let mut cmd = dlxbench();
    cmd.current_dir(dir);
    cmd
}

/// Runs `cmd`, expects exit 2 with `message` on stderr, and `file` to hold
/// `before` still.
fn refused(cmd: &mut Command, message: &str, file: &Path, before: &[u8]) {
    cmd.assert().code(2).stderr(contains(message));
    assert_eq!(
        fs::read(file).unwrap(),
        before,
        "{} changed",
        file.display()
    );
}

/// A result directory of `bench` over `corpus` (`extra` flags added).
fn run_dir(dir: &Path, name: &str, corpus: &Path, extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    in_dir(dir)
        .args([
            "bench",
            "-q",
            "-j1",
            "--solvers",
            "dlx,singles",
            "--no-plots",
        ])
        .args(extra)
        .arg("--out")
        .arg(&out)
        .arg(corpus)
        .assert()
        .success();
    out
}

#[test]
fn the_old_two_argument_export_is_a_usage_error_that_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = small(tmp.path(), "corpus.txt");
    let before = fs::read(&corpus).unwrap();
    // The file after the format forgotten: the corpus is no export file.
    refused(
        in_dir(tmp.path())
            .args(["bench", "-q", "--export", "bmf"])
            .arg(&corpus),
        "--export bmf=FILE",
        &corpus,
        &before,
    );
    refused(
        in_dir(tmp.path())
            .args(["ab", "dlx", "singles", "--export", "bmf"])
            .arg(&corpus),
        "--export bmf=FILE",
        &corpus,
        &before,
    );
    for sub in [
        &["merge", "--out", "m", "p"][..],
        &["compare", "a", "b"][..],
    ] {
        in_dir(tmp.path())
            .args(sub)
            .args(["--export", "github-action-benchmark", "x.json"])
            .assert()
            .code(2)
            .stderr(contains("--export github-action-benchmark=FILE"));
    }
    // Not a format either, and a format without its file.
    in_dir(tmp.path())
        .args(["bench", "-q", "--export", "out.json"])
        .arg(&corpus)
        .assert()
        .code(2)
        .stderr(contains("expected FORMAT=FILE"));
    in_dir(tmp.path())
        .args(["bench", "-q", "--export", "bmf="])
        .arg(&corpus)
        .assert()
        .code(2)
        .stderr(contains("no FILE after `bmf=`"));
    // Nothing ran: no result directory, no default set.
    assert_eq!(common::dir_entries(tmp.path()), ["corpus.txt"]);
}

#[test]
fn bench_and_ab_refuse_to_write_over_a_corpus() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = small(tmp.path(), "corpus.txt");
    let before = fs::read(&corpus).unwrap();
    let export = format!("--export=bmf={}", corpus.display());
    refused(
        in_dir(tmp.path())
            .args(["bench", "-q", &export])
            .arg(&corpus),
        "is an input of this command",
        &corpus,
        &before,
    );
    // Under another name: a symbolic link, and a corpus found in a directory.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&corpus, tmp.path().join("link.json")).unwrap();
        refused(
            in_dir(tmp.path())
                .args(["bench", "-q", "--export=bmf=link.json"])
                .arg(tmp.path()),
            "is an input of this command",
            &corpus,
            &before,
        );
    }
    // An output directory holding a corpus (its run would be written, and
    // with --force cleaned, beside it).
    refused(
        in_dir(tmp.path())
            .args(["bench", "-q", "--force", "--out"])
            .arg(tmp.path())
            .arg(&corpus),
        "holds an input of this command",
        &corpus,
        &before,
    );
    refused(
        in_dir(tmp.path())
            .args(["ab", "dlx", "singles", "-q", "--html"])
            .arg(&corpus)
            .arg(&corpus),
        "is an input of this command",
        &corpus,
        &before,
    );
    refused(
        in_dir(tmp.path())
            .args(["ab", "dlx", "singles", "-q", &export])
            .arg(&corpus),
        "is an input of this command",
        &corpus,
        &before,
    );
}

#[test]
fn convert_and_rate_refuse_their_input_as_out() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = small(tmp.path(), "corpus.txt");
    let before = fs::read(&corpus).unwrap();
    for sub in ["convert", "rate"] {
        refused(
            in_dir(tmp.path())
                .args([sub, "-o", "./corpus.txt"])
                .arg(&corpus),
            "is an input of this command",
            &corpus,
            &before,
        );
        // The same file on standard input (`< corpus.txt`).
        let out = std::process::Command::cargo_bin("dlxbench")
            .unwrap()
            .current_dir(tmp.path())
            .args([sub, "--out", "corpus.txt"])
            .stdin(fs::File::open(&corpus).unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("is an input of this command (read as <stdin>)"),
            "{stderr}"
        );
        assert_eq!(fs::read(&corpus).unwrap(), before);
    }
    // Another file is fine.
    in_dir(tmp.path())
        .args(["convert", "-o", "copy.txt", "corpus.txt"])
        .assert()
        .success();
    assert_eq!(fs::read(tmp.path().join("copy.txt")).unwrap(), before);
}

#[test]
fn merge_compare_and_plot_refuse_their_inputs_as_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = small(tmp.path(), "corpus.txt");
    let part1 = run_dir(tmp.path(), "part1", &corpus, &["--shard", "1/2"]);
    let part2 = run_dir(tmp.path(), "part2", &corpus, &["--shard", "2/2"]);
    let summary = part1.join("summary.csv");
    let before = fs::read(&summary).unwrap();

    // merge: an export over a part's file; an --out holding a part.
    refused(
        in_dir(tmp.path())
            .args(["merge", "-q", "--out", "merged"])
            .arg(&part1)
            .arg(&part2)
            .arg(format!("--export=bmf={}", summary.display())),
        "is an input of this command",
        &summary,
        &before,
    );
    refused(
        in_dir(tmp.path())
            .args(["merge", "-q", "--force", "--out"])
            .arg(tmp.path())
            .arg(&part1)
            .arg(&part2),
        "holds an input of this command",
        &summary,
        &before,
    );
    assert!(!tmp.path().join("merged").exists());

    // compare: --out, --html and --export over a side's files.
    let a = run_dir(tmp.path(), "a", &corpus, &[]);
    let b = run_dir(tmp.path(), "b", &corpus, &[]);
    for (flag, file) in [
        ("--out", a.join("summary.csv")),
        ("--html", b.join("run.json")),
        ("--export", a.join("puzzles.csv")),
    ] {
        let before = fs::read(&file).unwrap();
        let mut cmd = in_dir(tmp.path());
        cmd.args(["compare", "--metric", "nodes"]).arg(&a).arg(&b);
        match flag {
            "--export" => cmd.arg(format!("--export=bmf={}", file.display())),
            _ => cmd.arg(flag).arg(&file),
        };
        refused(&mut cmd, "is an input of this command", &file, &before);
    }

    // A file of its own there is fine, again and again.
    for _ in 0..2 {
        in_dir(tmp.path())
            .args(["compare", "--metric", "nodes"])
            .arg(&a)
            .arg(&b)
            .arg("--out")
            .arg(a.join("compare.md"))
            .assert()
            .success();
    }

    // plot: a page that is (a hard link of) a file it reads.
    #[cfg(unix)]
    {
        let run = a.join("run.json");
        let before = fs::read(&run).unwrap();
        fs::hard_link(&run, a.join("report.html")).unwrap();
        refused(
            in_dir(tmp.path()).args(["plot", "-q"]).arg(&a),
            "is an input of this command",
            &run,
            &before,
        );
    }
}

#[test]
fn datasets_fetch_refuses_to_copy_a_directory_onto_itself() {
    let tmp = tempfile::tempdir().unwrap();
    let mirror = tmp.path().join("mirror");
    fs::create_dir(&mirror).unwrap();
    in_dir(tmp.path())
        .args([
            "datasets",
            "fetch",
            "magictour_top1465",
            "--from",
            "mirror",
            "--dir",
        ])
        .arg(&mirror)
        .assert()
        .code(2)
        .stderr(contains("is an input of this command"));
}
