#![cfg(unix)]
//! What reaches the terminal: bytes of a corpus (a malformed line, a file
//! name) are shown with their control characters escaped, never obeyed;
//! and a closed standard error (`2>&1 | head -1`) ends a command quietly.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output, Stdio};

use common::{repo_path, write_file};

/// The binary the tests run.
fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dlxbench"))
}

/// An escape sequence that sets the window title, clears the screen and
/// prints a fake verdict in green.
const ATTACK: &str = "\x1b]0;pwned\x07\x1b[2J\x1b[32mall solvers OK\x1b[0m";

/// Its escaped form.
const ESCAPED: &str = "\\x1b]0;pwned\\x07\\x1b[2J\\x1b[32mall solvers OK\\x1b[0m";

/// A corpus named with an escape sequence, holding one in a malformed line
/// among the first puzzles of a committed corpus.
fn evil_corpus(dir: &Path) -> PathBuf {
    let good = std::fs::read_to_string(repo_path("datasets/generated/gen_6x6_100.txt")).unwrap();
    let mut text: String = good.lines().take(11).map(|l| format!("{l}\n")).collect();
    text.push_str(&format!("{ATTACK}\n"));
    write_file(dir, "evil\x1b]0;title\x07\x1b[2J.txt", text)
}

/// No escape or bell byte in `bytes`.
fn assert_no_controls(what: &str, args: &[&str], bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        !bytes.iter().any(|&b| b == 0x1b || b == 0x07),
        "{args:?}: raw control bytes on {what}: {text:?}"
    );
}

#[test]
fn an_escape_sequence_in_a_corpus_is_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = evil_corpus(dir.path());
    let corpus = corpus.to_str().unwrap();
    let out = dir.path().join("run");
    let out = out.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["bench", "--solvers", "dlx,singles", "--out", out, corpus],
        vec!["solve", corpus],
        vec!["check", corpus],
        vec!["convert", corpus],
        vec!["rate", corpus],
    ];
    for args in cases {
        let output = Process::new(binary()).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(output.status.code(), None, "{args:?}: {stderr}");
        assert_no_controls("stdout", &args, &output.stdout);
        assert_no_controls("stderr", &args, &output.stderr);
        // The file's name, escaped, in the messages.
        assert!(
            stderr.contains("evil\\x1b]0;title\\x07\\x1b[2J"),
            "{args:?}: {stderr}"
        );
    }
    // bench shows the malformed line itself, escaped, and the corpus's
    // name in its table.
    let output = Process::new(binary())
        .args(["bench", "--force", "--solvers", "dlx", "--out", out, corpus])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stderr.contains(ESCAPED), "{stderr}");
    assert!(
        stdout.contains("evil\\x1b]0;title\\x07\\x1b[2J"),
        "{stdout}"
    );
    assert_no_controls("stdout", &[], &output.stdout);
    // `cover` shows the column names of its input, escaped.
    let matrix = write_file(dir.path(), "m.txt", "a\x1b[2Jb c\nc\na\x1b[2Jb\n");
    let output = Process::new(binary())
        .arg("cover")
        .arg(&matrix)
        .output()
        .unwrap();
    assert_no_controls("stdout", &["cover"], &output.stdout);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("a\\x1b[2Jb"), "{stdout}");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The result files hold the corpus as it is: only the terminal is
    // protected.
    let run = common::read_json(&dir.path().join("run/run.json"));
    assert_eq!(run["corpora"][0]["name"], "evil\x1b]0;title\x07\x1b[2J");
}

/// `args` run with standard error open (read to its end) or closed before
/// anything is written; standard output is read to its end.
fn run(args: &[&str], dir: &Path, stderr_closed: bool) -> Output {
    let mut child = Process::new(binary())
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = (!stderr_closed).then(|| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            stderr.read_to_end(&mut bytes).unwrap();
            bytes
        })
    });
    let mut output = child.wait_with_output().unwrap();
    output.stderr = reader.map_or_else(Vec::new, |r| r.join().unwrap());
    output
}

/// A command of every subcommand that writes to standard error (its
/// messages, its progress, or its error), run in a directory where
/// `bench`'s case (the first) leaves the result directory `b` that
/// `compare` reads; a usage error too.
fn every_subcommand<'a>(corpus: &'a str, hanidoku: &'a str) -> Vec<Vec<&'a str>> {
    vec![
        vec![
            "bench",
            "-q",
            "--solvers",
            "dlx",
            "--force",
            "--out",
            "b",
            corpus,
        ],
        vec!["bench", "--solvers", "dlx", "--force", "--out", "b", corpus],
        vec!["solve", corpus],
        vec!["check", corpus],
        vec!["check", hanidoku],
        vec!["solve", "--kind", "hanidoku", hanidoku],
        vec!["convert", corpus],
        vec!["rate", corpus],
        vec!["check", "no-such-file.txt"],
        vec!["compare", "b", "no-such-dir"],
        vec!["merge", "--out", "m", "no-such-dir"],
        vec!["plot", "no-such-dir"],
        vec!["ab", "dlx", "singles", "--max-passes", "3", corpus],
        vec!["generate", "--count", "3", "--seed", "1"],
        vec!["cover", "no-such-file.txt"],
        vec!["datasets", "fetch", "no-such-corpus"],
        vec!["bench", "--no-such-flag"],
    ]
}

/// `2>&1 | head -1`: writing to a closed standard error used to abort
/// (exit 134). Now each command of every subcommand ends as it would with
/// standard error open: same exit status, same output, no panic.
#[test]
fn a_closed_stderr_ends_every_subcommand_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = evil_corpus(dir.path());
    let corpus = corpus.to_str().unwrap();
    let hanidoku = repo_path("datasets/generated/hanidoku/gen_hanidoku_100.txt");
    let hanidoku = hanidoku.to_str().unwrap();
    let cases = every_subcommand(corpus, hanidoku);
    let subcommands: std::collections::BTreeSet<&str> = cases.iter().map(|c| c[0]).collect();
    assert_eq!(
        subcommands.into_iter().collect::<Vec<_>>(),
        [
            "ab", "bench", "check", "compare", "convert", "cover", "datasets", "generate", "merge",
            "plot", "rate", "solve"
        ]
    );
    for args in cases {
        let open = run(&args, dir.path(), false);
        let closed = run(&args, dir.path(), true);
        let stderr = String::from_utf8_lossy(&open.stderr);
        assert!(!stderr.is_empty(), "{args:?}: nothing on stderr to close");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(closed.status.code(), Some(134), "{args:?}");
        assert_eq!(closed.status.code(), open.status.code(), "{args:?}");
        if args[0] != "bench" && args[0] != "ab" {
            // (their tables hold times.)
            assert_eq!(closed.stdout, open.stdout, "{args:?}");
        }
    }
}

/// Both closed, as `2>&1 | head -1` leaves them once `head` is done: a
/// quiet end (an exit status, no abort), in every subcommand.
#[test]
fn closed_stdout_and_stderr_end_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let hanidoku = repo_path("datasets/generated/hanidoku/gen_hanidoku_100.txt");
    let hanidoku = hanidoku.to_str().unwrap();
    let corpus = evil_corpus(dir.path());
    let corpus = corpus.to_str().unwrap();
    for args in every_subcommand(corpus, hanidoku) {
        let output = Process::new(binary())
            .args(&args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                drop(child.stdout.take());
                drop(child.stderr.take());
                child.wait_with_output()
            })
            .unwrap();
        assert_ne!(output.status.code(), Some(134), "{args:?}");
        assert_ne!(output.status.code(), Some(101), "{args:?}: a panic");
        assert!(
            output.status.code().is_some(),
            "{args:?}: {:?}",
            output.status
        );
    }
}

/// `merge` and `plot` print through a writer whose broken pipe ends the
/// command with exit 0: a closed standard output (`| head -0`) never
/// aborts them.
#[test]
fn merge_and_plot_end_quietly_on_a_closed_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_6x6_100.txt");
    let corpus = corpus.to_str().unwrap();
    let bench = Process::new(binary())
        .args(["bench", "-q", "--solvers", "dlx", "--out", "b", corpus])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(bench.status.success(), "{bench:?}");
    let cases: Vec<Vec<&str>> = vec![vec!["plot", "b"], vec!["merge", "b", "--out", "m"]];
    for args in cases {
        let output = Process::new(binary())
            .args(&args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                drop(child.stdout.take());
                child.wait_with_output()
            })
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {output:?}");
    }
}

/// The command line writes its messages through `errln!` only: an
/// `eprintln!` (or `eprint!`) would print raw text and abort on a closed
/// standard error.
#[test]
fn no_message_bypasses_errln() {
    let mut files = vec![repo_path("src/main.rs")];
    for entry in std::fs::read_dir(repo_path("src/cli")).unwrap() {
        files.push(entry.unwrap().path());
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            assert!(
                !code.contains("eprintln!") && !code.contains("eprint!"),
                "{}:{}: {line}",
                file.display(),
                i + 1
            );
        }
    }
}
