// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use super::algorithm::{pair_hash, per_puzzle, verdict};
use super::*;
use crate::results::output::CompareJson;
use crate::solvers::Status;

fn row(line: u64, ns: u64, nodes: u64) -> PuzzleRow {
    PuzzleRow {
        line,
        ns,
        nodes: Some(nodes),
        updates: Some(nodes * 10),
        mems: None,
        solutions: 1,
        guesses: 0,
        status: Status::Unique,
    }
}

fn run(rows: Vec<PuzzleRow>, json: Option<crate::results::RunInfo>) -> Run {
    Run {
        source: PathBuf::from("x"),
        summary_path: None,
        puzzles_path: Some(PathBuf::from("x/puzzles.csv")),
        run_json_path: None,
        run_json: json,
        groups: vec![Group {
            corpus: "c".into(),
            solver: "dlx".into(),
            summary: None,
            puzzles: Some(rows),
        }],
        incomplete: None,
        partial: Vec::new(),
        checksums: None,
    }
}

#[test]
fn threshold_is_always_percent() {
    assert_eq!(parse_threshold("5%"), Ok(0.05));
    assert_eq!(parse_threshold("5"), Ok(0.05));
    assert_eq!(parse_threshold(" 2.5 % "), Ok(0.025));
    assert_eq!(parse_threshold("0.05"), Ok(0.0005));
    assert_eq!(parse_threshold("0"), Ok(0.0));
    for bad in ["", "%", "abc", "-1", "100", "1e400", "5%%"] {
        assert!(parse_threshold(bad).is_err(), "{bad}");
    }
}

#[test]
fn verdict_needs_the_whole_interval_beyond_the_threshold() {
    let i = |low, high| {
        Some(Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
        })
    };
    assert_eq!(verdict(i(1.06, 1.2), 0.05), TimeVerdict::Regression);
    assert_eq!(verdict(i(1.04, 1.2), 0.05), TimeVerdict::NoChange);
    assert_eq!(verdict(i(0.8, 0.94), 0.05), TimeVerdict::Improvement);
    assert_eq!(verdict(i(0.8, 0.96), 0.05), TimeVerdict::NoChange);
    assert_eq!(verdict(i(0.99, 1.01), 0.0), TimeVerdict::NoChange);
    assert_eq!(verdict(None, 0.05), TimeVerdict::NotEnoughData);
}

#[test]
fn per_puzzle_merge_counts_changes_and_one_sided_lines() {
    let b = vec![
        row(1, 100, 5),
        row(2, 100, 6),
        row(3, 100, 7),
        row(5, 100, 1),
    ];
    let mut c = vec![row(1, 150, 5), row(2, 150, 9), row(3, 0, 7), row(4, 100, 1)];
    c[0].updates = Some(1);
    let (k, d) = per_puzzle(&b, &c, 1);
    assert_eq!(
        (
            k.changes.compared,
            k.changes.only_in_baseline,
            k.changes.only_in_current
        ),
        (3, 1, 1)
    );
    assert_eq!(
        (
            k.changes.nodes_changed,
            k.changes.updates_changed,
            k.changes.puzzles_changed
        ),
        (1, 2, 2)
    );
    assert_eq!(k.examples.len(), 1);
    assert_eq!(k.examples[0].baseline.line, 1);
    assert_eq!(k.nodes, Some((19, 22)));
    assert!(k.changed());
    // Line 3 has no time in the current run: two pairs.
    assert_eq!(d.len(), 2);
    assert!(d.iter().all(|(_, x)| (x - 1.5f64.ln()).abs() < 1e-12));
}

#[test]
fn updates_are_compared_only_when_both_sides_recorded_them() {
    let b = vec![row(1, 100, 5)];
    let mut c = b.clone();
    c[0].updates = None;
    let (k, _) = per_puzzle(&b, &c, 5);
    assert_eq!(k.updates, None);
    assert!(!k.changed());
}

/// Mems are a deterministic counter like updates: where both runs recorded
/// them, a difference alone is an algorithm change (exit 1 unless allowed),
/// named in the text, the Markdown and the JSON; where one run did not,
/// they are not compared and the tables do not show them.
#[test]
fn a_mems_difference_is_an_algorithm_change() {
    let with_mems = |rows: &[PuzzleRow], per_node: u64| -> Vec<PuzzleRow> {
        rows.iter()
            .map(|r| PuzzleRow {
                mems: r.nodes.map(|n| n * per_node),
                ..*r
            })
            .collect()
    };
    let plain = vec![row(1, 100, 5), row(2, 100, 6), row(3, 100, 7)];
    let b = with_mems(&plain, 100);
    let mut c = b.clone();
    c[1].mems = Some(601);
    let (k, _) = per_puzzle(&b, &c, 5);
    assert_eq!(k.mems, Some((1800, 1801)));
    assert_eq!(
        (
            k.changes.nodes_changed,
            k.changes.updates_changed,
            k.changes.mems_changed
        ),
        (0, 0, 1)
    );
    assert_eq!((k.changes.puzzles_changed, k.examples.len()), (1, 1));
    assert!(k.changed());

    let options = Options::default();
    let cmp = compare(&run(b.clone(), None), &run(c.clone(), None), &options).unwrap();
    assert_eq!(cmp.algorithm_changes(), 1);
    assert!(cmp.failed(), "an algorithm change fails the comparison");
    let text = render::text(&cmp);
    assert!(text.contains("mems before"), "{text}");
    assert!(
        text.contains("total mems 1,800 -> 1,801 (+1, +0.06%)"),
        "{text}"
    );
    assert!(
        text.contains("1 of 3 puzzles changed (nodes 0, updates 0, mems 1, status or solutions 0)"),
        "{text}"
    );
    assert!(text.contains("line 2: mems 600 -> 601"), "{text}");
    assert!(render::markdown(&cmp).contains("| mems before | mems now |"));
    let json = render::json(&cmp);
    let counters = &json.results[0].counters;
    assert_eq!(counters.mems.map(|m| m.baseline), Some(1800));
    assert_eq!(counters.changes.mems_changed, 1);
    assert_eq!(counters.examples[0].mems, Some([600, 601]));
    // The document reads back as what was written.
    let text = crate::results::to_json(&json).unwrap();
    assert_eq!(serde_json::from_str::<CompareJson>(&text).unwrap(), json);
    let allowed = Options {
        allow_algorithm_change: true,
        ..Options::default()
    };
    assert!(!compare(&run(b.clone(), None), &run(c, None), &allowed)
        .unwrap()
        .failed());

    // On totals alone (summary rows, no puzzles.csv) too.
    let totals = |rows: &[PuzzleRow]| {
        let mut r = run(Vec::new(), None);
        r.groups[0].puzzles = None;
        r.groups[0].summary = Some(SummaryRow::from_rows(rows, None));
        r
    };
    let mut d = b.clone();
    d[0].mems = Some(499);
    let cmp = compare(&totals(&b), &totals(&d), &options).unwrap();
    let k = &cmp.results[0].counters;
    assert_eq!((k.scope, k.mems), (Scope::Totals, Some((1800, 1799))));
    assert!(cmp.failed());

    // Not recorded on one side: not compared, not shown.
    let cmp = compare(&run(plain, None), &run(b.clone(), None), &options).unwrap();
    assert_eq!(cmp.results[0].counters.mems, None);
    assert!(!cmp.failed());
    assert!(!render::text(&cmp).contains("mems"));
    // Recorded and equal: shown, no change.
    let cmp = compare(&run(b.clone(), None), &run(b, None), &options).unwrap();
    assert!(!cmp.failed());
    assert!(render::text(&cmp).contains("mems before"));
}

#[test]
fn incompatible_runs_list_every_difference() {
    let json = |mode: &str, limit, sha: &str, budget| crate::results::RunInfo {
        mode: Some(mode.into()),
        limit,
        solvers: vec![crate::results::SolverInfo {
            name: "dlx".into(),
            budget_nodes: budget,
            ..Default::default()
        }],
        corpora: vec![crate::results::CorpusInfo {
            name: "c".into(),
            sha256: Some(sha.into()),
            ..Default::default()
        }],
        ..Default::default()
    };
    let rows = vec![row(1, 100, 5), row(2, 100, 5)];
    let a = run(rows.clone(), Some(json("unique", Some(2), "aa", None)));
    let b = run(rows.clone(), Some(json("count", None, "bb", Some(10))));
    let Err(CompareError::Incompatible(d)) = compare(&a, &b, &Options::default()) else {
        panic!("incompatible");
    };
    assert_eq!(d.len(), 3, "{d:?}"); // mode (limit follows from it), checksum, budget
    let text = CompareError::Incompatible(d).to_string();
    assert!(text.contains("different modes: baseline `unique`, current `count`"));
    assert!(text.contains("corpus `c` differs: SHA-256 aa in the baseline, bb in the current run"));
    assert!(
        text.contains("solver `dlx` has different node budgets: baseline unlimited, current 10")
    );

    let c = run(rows.clone(), Some(json("count", Some(5), "aa", None)));
    let d = run(rows, Some(json("count", Some(6), "aa", None)));
    let e = compare(&c, &d, &Options::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("different solution limits: baseline 5, current 6"),
        "{e}"
    );
}

#[test]
fn pair_streams_differ_and_are_stable() {
    assert_ne!(pair_hash("a", "bc"), pair_hash("ab", "c"));
    assert_eq!(pair_hash("top", "dlx"), pair_hash("top", "dlx"));
}

#[test]
fn a_partial_corpus_is_compared_on_the_puzzles_both_runs_have() {
    // The baseline ran all four puzzles, the current run (interrupted) the
    // first two, with the same counters: no algorithm change.
    let b = vec![
        row(1, 100, 5),
        row(2, 100, 6),
        row(3, 100, 7),
        row(4, 100, 8),
    ];
    let c = vec![row(1, 110, 5), row(2, 110, 6)];
    let baseline = run(b.clone(), None);
    let mut current = run(c.clone(), None);
    let options = Options::default();
    // Unmarked, the missing puzzles are a change.
    let cmp = compare(&baseline, &current, &options).unwrap();
    assert!(cmp.results[0].counters.changed());
    current.partial = vec!["c".into()];
    current.incomplete = Some("x: the run interrupted: c partial (2 of 4 lines)".into());
    let cmp = compare(&baseline, &current, &options).unwrap();
    let k = &cmp.results[0].counters;
    assert!(!k.changed(), "{k:?}");
    assert_eq!(
        (
            k.changes.compared,
            k.changes.only_in_baseline,
            k.changes.only_in_current
        ),
        (2, 0, 0)
    );
    assert_eq!(k.nodes, Some((11, 11)));
    assert!(cmp
        .notes
        .iter()
        .any(|n| n.contains("compared only the 2 puzzles both runs have")));
    assert!(cmp
        .notes
        .iter()
        .any(|n| n.starts_with("the current run is not a complete run")));
    // A real change among the common puzzles is still one.
    current.groups[0].puzzles = Some(vec![row(1, 110, 5), row(2, 110, 9)]);
    assert!(compare(&baseline, &current, &options).unwrap().results[0]
        .counters
        .changed());
    // Without per-puzzle rows on one side, the totals of a partial corpus
    // are not compared at all.
    let mut totals_only = run(Vec::new(), None);
    totals_only.groups[0].puzzles = None;
    totals_only.groups[0].summary = Some(SummaryRow::from_rows(&b, None));
    let cmp = compare(&totals_only, &current, &options).unwrap();
    assert_eq!(cmp.results[0].counters.scope, Scope::NotCompared);
    assert!(!cmp.results[0].counters.changed());
}
