//! `dlxbench ab`: the report's deterministic parts and every bad input.
//! Its time verdict is tested on synthetic data in `src/ab.rs`; timings
//! here only have to exist.

mod common;

use common::{dlxbench, repo_path};

fn corpus() -> String {
    repo_path("datasets/generated/gen_9x9_1000.txt")
        .display()
        .to_string()
}

#[test]
fn ab_reports_the_ratio_the_passes_and_an_algorithm_change() {
    // Two different algorithms: allowed, or the change alone fails.
    let out = dlxbench()
        .args(["ab", "dlx", "singles", "--max-passes", "2", "-q"])
        .arg("--allow-algorithm-change")
        .arg(corpus())
        .output()
        .unwrap();
    // Which is faster is the machine's business; the exit status says
    // whether B was slower.
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 1, "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    // Two passes (the minimum, and --max-passes), whatever stopped them.
    assert!(
        lines[0].starts_with("A = dlx, B = singles: 2 passes in ")
            && (lines[0].ends_with("on 1 thread; stopped: the most passes allowed were made")
                || lines[0].ends_with(
                    "on 1 thread; stopped: the whole interval lies beyond the threshold"
                )
                || lines[0].ends_with(
                    "on 1 thread; stopped: the interval reached the precision asked for"
                )),
        "{stdout}"
    );
    assert!(lines[1].starts_with("  all  B/A ") && lines[1].ends_with(", 1,000 puzzles"));
    let verdict = lines[2];
    assert_eq!(
        code == 1,
        verdict.starts_with("REGRESSION: B is "),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("nodes: ALGORITHM CHANGE: ") && lines[3].contains(" puzzles differ"),
        "{stdout}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "dlxbench: algorithm change (allowed: --allow-algorithm-change)\n"
    );
}

/// The exit-status rule shared with `compare`: an algorithm change fails
/// the gate unless --allow-algorithm-change.
#[test]
fn ab_fails_on_an_algorithm_change_unless_allowed() {
    let out = dlxbench()
        .args([
            "ab",
            "dlx",
            "singles",
            "--max-passes",
            "1",
            "--min-passes",
            "1",
            "-q",
        ])
        .arg(corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("nodes: ALGORITHM CHANGE: "), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("ALGORITHM CHANGE") && stderr.contains("--allow-algorithm-change"),
        "{stderr}"
    );
}

#[test]
fn ab_of_one_solver_loaded_twice_has_the_same_counts() {
    let dir = tempfile::tempdir().unwrap();
    let lib = common::shared_library(
        dir.path(),
        "example",
        &repo_path("examples/c-solver/solver.c"),
    );
    let spec = |name: &str| format!("--solver-lib={}:example_solve={name}", lib.display());
    let out = dlxbench()
        .args([
            "ab",
            "one",
            "two",
            &spec("one"),
            &spec("two"),
            "--max-passes",
            "1",
        ])
        .arg(corpus())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("nodes: not recorded by both solvers"),
        "{stdout}"
    );
    assert!(!stdout.contains("outcomes:"), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("dlxbench ab: A = one, B = two on gen_9x9_1000 (1 thread)"),
        "{stderr}"
    );
    assert!(stderr.contains("pass 1: B/A "), "{stderr}");
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let cases: [(&[&str], &str); 4] = [
        (&["ab", "dlx", "nope"], "unknown solver `nope`"),
        (&["ab", "dlx", "dlx"], "A and B are both `dlx`"),
        (
            &["ab", "dlx", "x", "--solver-lib=/nowhere/lib.so:solve=x"],
            "/nowhere/lib.so: no such file",
        ),
        // The corpus taken for B.
        (&["ab", "dlx"], "unknown solver `"),
    ];
    for (args, message) in cases {
        let out = dlxbench().args(args).arg(corpus()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
