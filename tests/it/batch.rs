#![cfg(target_os = "linux")]
//! Batches through `bench`: an isolated C library's host takes a block of
//! requests at once (it announces `+batch`), and a failure in the middle of
//! a block costs the puzzle in flight alone; batched and one request at a
//! time (`--batch 1`) give the same counts and guesses.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{read_csv, read_json, repo_path, shared_library};

/// Puzzles in the corpus: blocks of 64 (cut where a chunk ends).
const PUZZLES: usize = 300;

/// The line whose puzzle fails, in the middle of a block.
const BAD_LINE: usize = 170;

/// The first `PUZZLES` puzzles of the generated corpus.
fn puzzles() -> Vec<String> {
    let mut all = common::gen_9x9_puzzles();
    all.truncate(PUZZLES);
    all
}

/// The C example, which does `how` on the puzzle of `BAD_LINE` (every
/// time: the fresh host does it again, if it is sent that puzzle).
fn library(dir: &Path, name: &str, how: &str) -> PathBuf {
    let bad = &puzzles()[BAD_LINE - 1];
    let source = format!(
        r#"#include "{example}"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int *volatile nowhere;
size_t failing(const char *input, size_t limit, uint32_t flags, char *solution,
               size_t *guesses) {{
    if (strncmp(input, "{bad}", 81) == 0) {{
        {how};
    }}
    return example_solve(input, limit, flags, solution, guesses);
}}
"#,
        example = repo_path("examples/c-solver/solver.c").display(),
    );
    let path = common::write_file(dir, &format!("{name}.c"), source);
    shared_library(dir, name, &path)
}

/// `bench -q --no-plots -j1 --solvers dlx,failing` with `args`; the rows of
/// `puzzles.csv` of `failing` by line, the exit code, standard error.
fn bench(
    dir: &Path,
    lib: &Path,
    args: &[&str],
) -> (Vec<HashMap<String, String>>, Option<i32>, String) {
    let mut body = puzzles().join("\n");
    body.push('\n');
    let corpus = common::write_file(dir, "corpus.txt", body);
    let out = dir.join(format!("out{}", args.join("").replace(['-', ' '], "")));
    let output = common::dlxbench()
        .args([
            "bench",
            "-q",
            "--no-plots",
            "-j1",
            "--solvers",
            "dlx,failing",
        ])
        .arg(format!("--solver-lib={}:failing", lib.display()))
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg(&corpus)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let json = read_json(&out.join("run.json"));
    assert_eq!(json["state"], "complete", "{json}\n{stderr}");
    let all = read_csv(&out.join("puzzles.csv"));
    assert!(
        all.iter()
            .filter(|r| r["solver"] == "dlx")
            .all(|r| r["status"] == "unique"),
        "dlx loses nothing"
    );
    let mut rows: Vec<_> = all
        .into_iter()
        .filter(|r| r["solver"] == "failing")
        .collect();
    rows.sort_by_key(|r| r["line"].parse::<usize>().unwrap());
    assert_eq!(rows.len(), PUZZLES, "every puzzle has its row");
    (rows, output.status.code(), stderr)
}

/// Line `BAD_LINE` ended with `status` and `cause`, every other puzzle
/// solved, the run's exit status `exit` (1 for a failure; 0 when over
/// budget, which fails no run).
fn assert_only_the_bad_line(dir: &Path, how: &str, status: &str, cause: &str, exit: i32) {
    let lib = library(dir, "failing", how);
    let (rows, code, stderr) = bench(dir, &lib, &["--budget-time", "2s"]);
    assert_eq!(code, Some(exit), "{stderr}");
    for (i, row) in rows.iter().enumerate() {
        let line = i + 1;
        assert_eq!(row["line"], line.to_string());
        if line == BAD_LINE {
            assert_eq!(row["status"], status, "{row:?}");
            assert_eq!(row["cause"], cause, "{row:?}");
        } else {
            assert_eq!(row["status"], "unique", "line {line}: {row:?}");
        }
    }
}

#[test]
fn a_crash_in_the_middle_of_a_block_costs_that_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    assert_only_the_bad_line(dir.path(), "*nowhere = 1", "crashed", "signal 11", 1);
}

#[test]
fn exit_in_the_middle_of_a_block_costs_that_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    assert_only_the_bad_line(dir.path(), "exit(3)", "crashed", "exit 3", 1);
}

#[test]
fn a_hang_in_the_middle_of_a_block_costs_that_puzzle_alone() {
    let dir = tempfile::tempdir().unwrap();
    // Over budget, as a built-in solver past its budget.
    assert_only_the_bad_line(dir.path(), "for (;;) pause()", "budget", "deadline", 0);
}

#[test]
fn batched_and_one_request_at_a_time_give_the_same_counts_and_guesses() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing happens on the bad line: a plain solver.
    let lib = library(dir.path(), "failing", "(void)0");
    let columns = |rows: &[HashMap<String, String>]| -> Vec<(String, String, String)> {
        rows.iter()
            .map(|r| {
                (
                    r["status"].clone(),
                    r["solutions"].clone(),
                    r["guesses"].clone(),
                )
            })
            .collect()
    };
    let (batched, code, stderr) = bench(dir.path(), &lib, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let (single, code, stderr) = bench(dir.path(), &lib, &["--batch", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(columns(&batched), columns(&single));
}
