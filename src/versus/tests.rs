use super::*;

fn solve(ns: u64, status: Status) -> Solve {
    Solve {
        ns,
        nodes: Some(ns / 10),
        updates: None,
        mems: None,
        status,
        solved: found(status),
    }
}

/// A corpus of 6 puzzles: A and B on lines 1-5 (line 6 has no row for
/// either), C on lines 1-2 only.
fn corpus() -> CorpusRows {
    let rows = |v: &[(u64, Solve)]| v.iter().copied().collect::<BTreeMap<u64, Solve>>();
    let u = Status::Unique;
    CorpusRows {
        name: "c".into(),
        puzzles: 6,
        solvers: vec![
            SolverRows {
                name: "a".into(),
                rows: rows(&[
                    (1, solve(100, u)),
                    (2, solve(100, u)),
                    (3, solve(100, u)),
                    (4, solve(100, u)),
                    (5, solve(0, Status::Budget)),
                ]),
            },
            SolverRows {
                name: "b".into(),
                rows: rows(&[
                    (1, solve(120, u)),             // tie at 25%
                    (2, solve(400, u)),             // a wins 4x
                    (3, solve(50, u)),              // b wins 2x
                    (4, solve(0, Status::Crashed)), // a wins, b unsolved
                    (5, solve(300, u)),             // b wins, a over budget
                ]),
            },
            SolverRows {
                name: "c".into(),
                rows: rows(&[(1, solve(10, u)), (2, solve(1000, u))]),
            },
        ],
    }
}

#[test]
fn wins_ties_and_losses_count_every_puzzle_of_the_corpus() {
    let h = head_to_head(&corpus(), "a", "b", 0.25, 5);
    assert_eq!((h.a_wins, h.ties, h.b_wins, h.neither), (2, 1, 2, 1));
    assert_eq!(h.a_wins + h.ties + h.b_wins + h.neither, h.puzzles);
    assert_eq!((h.both, h.only_a, h.only_b), (3, 1, 1));
    // The ratios b/a over the three both solved: 0.5, 1.2, 4.
    let geo = (0.5f64 * 1.2 * 4.0).powf(1.0 / 3.0);
    assert!((h.geomean.unwrap() - geo).abs() < 1e-12);
    let q: Vec<(f64, f64)> = h.quantiles.clone();
    assert_eq!(q[0], (0.01, 0.5));
    assert_eq!(q[3], (0.5, 1.2));
    assert_eq!(q[6], (0.99, 4.0));
    // Most decisive first: an unsolved other side, then the ratio.
    let lines = |p: &[Pair]| p.iter().map(|p| p.line).collect::<Vec<_>>();
    assert_eq!(lines(&h.a_best), [4, 2]);
    assert_eq!(lines(&h.b_best), [5, 3]);
    // A narrower band turns the tie into a win for a.
    let h = head_to_head(&corpus(), "a", "b", 0.1, 1);
    assert_eq!((h.a_wins, h.ties, h.b_wins), (3, 0, 2));
    assert_eq!(h.a_best.len(), 1);
}

#[test]
fn solved_within_counts_over_all_puzzles() {
    let run = RunRows {
        dir: "x".into(),
        solvers: vec!["a".into(), "b".into(), "c".into()],
        reference: Some("a".into()),
        corpora: vec![corpus()],
    };
    let curves = &solved_within(&run)[0].1;
    let a = &curves[0];
    assert_eq!((a.puzzles, a.solved()), (6, 4));
    assert_eq!(a.within(99), 0);
    assert_eq!(a.within(100), 4);
    let b = &curves[1];
    assert_eq!(b.times, [50, 120, 300, 400]);
    assert_eq!(b.within(299), 2);
    assert_eq!(b.steps(100), [(50, 1), (120, 2), (300, 3), (400, 4)]);
    // Fewer steps, each exact, the last one kept.
    assert_eq!(b.steps(2), [(120, 2), (400, 4)]);
    assert_eq!(b.steps(3), [(120, 2), (400, 4)]);
}

#[test]
fn the_virtual_best_takes_the_fastest_solver_of_each_puzzle() {
    let v = virtual_best(&corpus(), Some("a"));
    // Line 1: c (10); 2: a (100); 3: b (50); 4: a (100); 5: b (300).
    assert_eq!(v.solved, 5);
    assert_eq!(v.total_ns, 10 + 100 + 50 + 100 + 300);
    let wins: Vec<u64> = v.shares.iter().map(|s| s.wins).collect();
    assert_eq!(wins, [2, 2, 1]);
    // a and b both solved 4: a in 400 ns, b in 870.
    assert_eq!(v.single_best.as_deref(), Some("a"));
    assert_eq!(v.best().unwrap().total_ns, 400);
    assert!((v.mean_ns().unwrap() - 112.0).abs() < 1e-9);
}

#[test]
fn nearest_rank_quantiles() {
    let v = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(quantile(&v, 0.5), Some(2.0));
    assert_eq!(quantile(&v, 0.51), Some(3.0));
    assert_eq!(quantile(&v, 0.0), Some(1.0));
    assert_eq!(quantile(&v, 1.0), Some(4.0));
    assert_eq!(quantile(&[], 0.5), None);
}

#[test]
fn node_bands_are_decades() {
    assert_eq!(node_band(0), (0, 0));
    assert_eq!(node_band(1), (1, 9));
    assert_eq!(node_band(9), (1, 9));
    assert_eq!(node_band(10), (10, 99));
    assert_eq!(node_band(12_345), (10_000, 99_999));
    // a's nodes are its times / 10: 10 on lines 1-4 (band 10-99), 0 on
    // line 5 (over budget).
    let v = virtual_best(&corpus(), Some("a"));
    assert_eq!(v.band_solver.as_deref(), Some("a"));
    let b: Vec<(u64, u64, Vec<u64>)> = v
        .bands
        .iter()
        .map(|b| (b.nodes_from, b.puzzles, b.wins.clone()))
        .collect();
    assert_eq!(b, [(0, 1, vec![0, 1, 0]), (10, 4, vec![2, 1, 1])]);
    assert_eq!(v.bands[1].winner(), Some(0));
    // Without nodes to band by, no bands.
    assert!(virtual_best(&corpus(), None).bands.is_empty());
}
