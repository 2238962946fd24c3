//! `dlxbench ab`: the report's deterministic parts and every bad input.
//! Its time verdict is tested on synthetic data in `src/ab/tests.rs`; timings
//! here only have to exist.

use crate::common;

use common::{bench_into, dlxbench, read_csv, repo_path};
use dlxbench::results::output::AbJson;

fn corpus() -> String {
    repo_path("datasets/generated/gen_9x9_1000.txt")
        .display()
        .to_string()
}

#[test]
fn ab_reports_the_ratio_the_passes_and_an_algorithm_change() {
    // Two different algorithms: allowed, or the change alone fails.
    let out = dlxbench()
        .args([
            "ab",
            "dlx",
            "singles",
            "--min-passes",
            "5",
            "--max-passes",
            "5",
            "-q",
        ])
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
    // A warm-up and two pairs (the minimum, and --max-passes), whatever
    // stopped them.
    assert!(
        lines[0].starts_with("A = dlx, B = singles: 5 passes (1 warm-up) in ")
            && (lines[0].ends_with("on 1 thread; stopped: the most passes allowed were made")
                || lines[0].ends_with(
                    "on 1 thread; stopped: the whole interval lies beyond the threshold"
                )
                || lines[0].ends_with(
                    "on 1 thread; stopped: the interval reached the precision asked for"
                )),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("  all  B/A ")
            && lines[1].ends_with(", 2 pairs of passes, 1,000 puzzles"),
        "{stdout}"
    );
    let verdict = lines[2];
    assert_eq!(
        code == 1,
        verdict.starts_with("REGRESSION: B is "),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("work: the search tree ")
            && lines[3].contains("(time = nodes x time per node, over 1,000 puzzles): B is "),
        "{stdout}"
    );
    assert!(
        lines[4].starts_with("nodes: ALGORITHM CHANGE: ") && lines[4].contains(" puzzles differ"),
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
            "--min-passes",
            "1",
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
    // One pass: the warm-up, not counted: no ratio, no verdict.
    assert!(
        stderr.contains("\npass 1: ") && stderr.contains(" (warm-up, not counted) ("),
        "{stderr}"
    );
    assert!(
        stdout.contains("  all  B/A not enough data (0 pairs of passes, 0 puzzles)")
            && stdout.contains("no verdict: 0 pairs of passes, at least 2 needed"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn aa_measures_the_floor_first_and_reports_it_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ab.json");
    let out = dlxbench()
        .args(["ab", "dlx", "singles", "--aa", "--min-passes", "5"])
        .args([
            "--max-passes",
            "5",
            "-q",
            "--allow-algorithm-change",
            "--json",
        ])
        .arg(&json)
        .arg(corpus())
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 1, "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("A/A: A = singles, B = singles.copy: 5 passes (1 warm-up) in "),
        "{stdout}"
    );
    assert!(lines[1].starts_with("  all  B/A "), "{stdout}");
    assert!(
        lines[2].starts_with("  floor: ") || lines[2].starts_with("  A/A FALSE VERDICT: "),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("A = dlx, B = singles: 5 passes (1 warm-up) in "),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let typed: AbJson = common::typed(&text);
    assert!(typed.aa.is_some_and(|aa| aa.ab.aa.is_none()));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], "dlxbench-ab/1");
    assert_eq!(v["aa"]["format"], "dlxbench-ab/1");
    assert_eq!(v["method"], "student-t over pairs of passes");
    assert_eq!(v["unit"], "pair of passes");
    assert_eq!(v["units"], 2);
    assert_eq!(v["passes"], 5);
    assert_eq!(v["warmup_passes"], 1);
    assert_eq!(v["pass_ratios"].as_array().unwrap().len(), 5);
    assert_eq!(v["a"], "dlx");
    let aa = &v["aa"];
    assert_eq!(
        (&aa["a"], &aa["b"]),
        (&"singles".into(), &"singles.copy".into())
    );
    assert_eq!(aa["units"], 2);
    let floor = aa["measured_floor"].as_f64().unwrap();
    assert!(floor >= 0.0, "{aa}");
    // The A/B is judged at the larger of the threshold and the floor.
    let judged = v["judged_at"].as_f64().unwrap();
    assert!((judged - floor.max(0.01)).abs() < 1e-12, "{v}");
    let false_verdict = aa["false_verdict"].as_bool().unwrap();
    assert_eq!(false_verdict, lines[2].starts_with("  A/A FALSE VERDICT: "));
    assert_eq!(
        false_verdict,
        aa["verdict"] == "regression" || aa["verdict"] == "improvement"
    );
    assert_eq!(code == 1, v["verdict"] == "regression", "{v}");
}

#[test]
fn aa_alone_with_b_twice_and_a_floor_from_the_command_line() {
    // `ab B B --aa`: the A/A alone, exit 0 whatever it finds.
    let out = dlxbench()
        .args(["ab", "dlx", "dlx", "--aa", "--min-passes", "5"])
        .args(["--max-passes", "5", "-q"])
        .arg(corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("A/A: A = dlx, B = dlx.copy: 5 passes (1 warm-up) in "),
        "{stdout}"
    );
    assert!(
        stdout.contains("nodes: the same on every puzzle"),
        "{stdout}"
    );
    assert!(!stdout.contains("\nA = "), "{stdout}");
    // --floor 50%: judged at 50%, where dlx and singles do not differ.
    let out = dlxbench()
        .args([
            "ab",
            "dlx",
            "singles",
            "--floor",
            "50%",
            "--min-passes",
            "5",
            "--allow-algorithm-change",
        ])
        .args(["--max-passes", "5", "-q"])
        .arg(corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "threshold 1% is below this machine's floor 50.00% (--floor): judged at 50%\n\
             no significant change (threshold 50%: the interval reaches within it)"
        ),
        "{stdout}"
    );
}

#[test]
fn aa_of_a_loaded_library_loads_it_again_under_another_name() {
    let dir = tempfile::tempdir().unwrap();
    let lib = common::shared_library(
        dir.path(),
        "example",
        &repo_path("examples/c-solver/solver.c"),
    );
    let out = dlxbench()
        .args([
            "ab",
            "ex",
            "ex",
            "--aa",
            "--min-passes",
            "3",
            "--max-passes",
            "3",
        ])
        .arg(format!("--solver-lib={}:example_solve=ex", lib.display()))
        .arg(corpus())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("A/A: A = ex, B = ex.copy: 3 passes (1 warm-up) in "),
        "{stdout}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "dlxbench ab: A/A of ex against a copy of itself, ex.copy, on gen_9x9_1000"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("\nA/A pass 3: "), "{stderr}");
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

/// `ab` splits B/A into the search tree and the time per node as
/// `compare` does: the tree's ratio is recomputed here from a `bench`
/// run's node counts (the same on any run), the time's is the estimate.
#[test]
fn ab_splits_the_ratio_into_the_search_tree_and_the_time_per_node() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ab.json");
    let out = dlxbench()
        .args(["ab", "dlx", "singles", "--min-passes", "5", "--max-passes"])
        .args(["5", "-q", "--allow-algorithm-change", "--json"])
        .arg(&json)
        .arg(corpus())
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(code == 0 || code == 1, "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(common::typed::<AbJson>(&text).aa.is_none());
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let w = &v["work"];
    let num = |x: &serde_json::Value| x.as_f64().unwrap_or_else(|| panic!("{x}: {v}"));

    // Node counts from a bench run: ln(max(singles, 1) / max(dlx, 1)) per
    // puzzle, over every puzzle (both solve all 1,000 within budget).
    let run = dir.path().join("run");
    bench_into(
        &run,
        &["-q", "--no-plots", "-j", "1", "--solvers", "dlx,singles"],
        corpus(),
    )
    .assert()
    .success();
    let mut nodes: std::collections::HashMap<(String, String), [f64; 2]> = Default::default();
    for r in read_csv(&run.join("puzzles.csv")) {
        let i = usize::from(r["solver"] == "singles");
        let n: f64 = r["nodes"].parse::<f64>().unwrap().max(1.0);
        nodes
            .entry((r["corpus"].clone(), r["line"].clone()))
            .or_default()[i] = n;
    }
    assert_eq!(nodes.len(), 1000);
    let tree = (nodes.values().map(|[a, b]| (b / a).ln()).sum::<f64>() / 1000.0).exp();

    assert_eq!(w["puzzles"], 1000, "{v}");
    assert_eq!(v["overall"]["puzzles"], 1000, "{v}");
    assert!(
        (num(&w["nodes_ratio"]) / tree - 1.0).abs() < 1e-9,
        "{tree}: {w}"
    );
    // Every puzzle has node counts: the split's time is the estimate, and
    // the product of the two parts.
    let estimate = num(&v["overall"]["estimate"]);
    assert!((num(&w["time_ratio"]) / estimate - 1.0).abs() < 1e-9, "{v}");
    let per_node = num(&w["per_node_ratio"]);
    assert!((tree * per_node / estimate - 1.0).abs() < 1e-9, "{w}");
    let cause = if tree.ln().abs() >= per_node.ln().abs() {
        "tree"
    } else {
        "per_node"
    };
    assert_eq!(w["cause"], cause, "{w}");
    // The report says it in words, with the same figures.
    let line = stdout
        .lines()
        .find(|l| l.starts_with("work: "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        line.starts_with(&format!(
            "work: the search tree {tree:.3}x, time per node {per_node:.3}x (time = nodes x time \
             per node, over 1,000 puzzles): B is "
        )),
        "{line}"
    );
    // docs/ab.md shows the line of such a run: the same tree (the code's),
    // a time per node and verdict of its machine.
    let page = std::fs::read_to_string(repo_path("docs/ab.md")).unwrap();
    let shown = page
        .lines()
        .find(|l| l.starts_with("work: "))
        .expect("docs/ab.md shows a work line");
    let pattern = regex::Regex::new(&format!(
        "{}{}{}",
        format_args!(r"^work: the search tree {tree:.3}x, time per node \d+\.\d{{3}}x "),
        r"\(time = nodes x time per node, over 1,000 puzzles\): B is (slower|faster) mostly ",
        r"(because its search tree is (larger|smaller)|per node)$",
    ))
    .unwrap();
    assert!(pattern.is_match(shown), "docs/ab.md: {shown}");
    assert!(pattern.is_match(line), "{line}");
    let faster = if estimate > 1.0 { "slower" } else { "faster" };
    let why = match cause {
        "tree" => "because its search tree is",
        _ => "per node",
    };
    assert!(line.contains(faster) && line.contains(why), "{line}");
}
