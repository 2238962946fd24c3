//! The dancing-cells engine on its own and against Dancing Links: the
//! same solutions everywhere, and node for node (and update for update)
//! under [`ColumnChoice::LowestIndex`] and [`ColumnChoice::Forced`]
//! wherever the search runs to its end.

use std::ops::ControlFlow;

use proptest::prelude::*;

use crate::budget::Budget;
use crate::exact_cover::puzzles::{self, PentominoBoard};
use crate::exact_cover::{ColumnChoice, Dc, Dlx, Engine, Problem, SearchOptions, SearchStats};

const KNUTH_6X7: &str = "0010110\n1001001\n0110010\n1001000\n0100001\n0001101\n";

const CHOICES: [ColumnChoice; 5] = [
    ColumnChoice::MinimumRemaining,
    ColumnChoice::First,
    ColumnChoice::LowestIndex,
    ColumnChoice::Knuth,
    ColumnChoice::Forced,
];

/// The choices under which both engines make the same tree.
fn same_tree(choice: ColumnChoice) -> bool {
    matches!(
        choice,
        ColumnChoice::LowestIndex | ColumnChoice::First | ColumnChoice::Forced
    )
}

/// Every solution (rows sorted, solutions sorted) and the statistics.
fn solutions<E: Engine>(e: &mut E, options: SearchOptions) -> (SearchStats, Vec<Vec<usize>>) {
    let mut found = Vec::new();
    let stats = e.search(options, |rows| {
        let mut rows = rows.to_vec();
        rows.sort_unstable();
        found.push(rows);
        ControlFlow::Continue(())
    });
    found.sort();
    (stats, found)
}

/// The counts both engines must agree on in the same tree.
fn tree(s: &SearchStats) -> (u64, u64, u64, u64, bool) {
    (
        s.solutions,
        s.nodes,
        s.guesses,
        s.updates,
        s.budget_exceeded,
    )
}

/// Checks `dc` against `dlx` on `p` with preselected `rows` under every
/// choice: the same solutions; under `LowestIndex`, `First` and `Forced`
/// the same tree. Returns
/// the `LowestIndex` statistics of `dc`.
fn agree(p: &Problem, rows: &[usize]) -> SearchStats {
    let mut dlx = Dlx::new(p);
    let mut dc = Dc::new(p);
    let mut lowest = SearchStats::default();
    // Branching on the first column explodes on the larger puzzles.
    let small = p.rows() <= 64;
    for choice in CHOICES {
        if choice == ColumnChoice::First && !small {
            continue;
        }
        let options = SearchOptions {
            choice,
            ..SearchOptions::default()
        };
        dlx.select_all(rows);
        dc.select_all(rows);
        let (a, found_a) = solutions(&mut dlx, options);
        let (b, found_b) = solutions(&mut dc, options);
        assert_eq!(found_a, found_b, "{choice:?} {p:?} {rows:?}");
        assert_eq!(a.solutions, b.solutions);
        assert!(b.mems.is_some() && a.mems.is_none());
        if same_tree(choice) {
            assert_eq!(tree(&a), tree(&b), "{choice:?} {p:?} {rows:?}");
        }
        if choice == ColumnChoice::LowestIndex {
            lowest = b;
        }
        // The same through sequential selection.
        dc.reset();
        dc.select_rows(rows);
        let (c, found_c) = solutions(&mut dc, options);
        assert_eq!(found_c, found_b);
        if same_tree(choice) {
            assert_eq!(tree(&c), tree(&b));
        }
    }
    lowest
}

#[test]
fn knuth_example_has_rows_1_4_5() {
    let named = Problem::parse(KNUTH_6X7).unwrap();
    let mut dc = Dc::new(&named.problem);
    for choice in CHOICES {
        let (stats, found) = solutions(
            &mut dc,
            SearchOptions {
                choice,
                ..SearchOptions::default()
            },
        );
        assert_eq!(stats.solutions, 1);
        assert_eq!(found, vec![vec![0, 3, 4]]);
    }
    agree(&named.problem, &[]);
}

#[test]
fn queens_langford_and_pentominoes_agree_node_for_node() {
    let known = [1, 0, 0, 2, 10, 4, 40, 92];
    for (n, &expected) in (1..).zip(known.iter()) {
        let q = puzzles::queens(n).unwrap();
        assert_eq!(agree(&q.problem, &[]).solutions, expected, "queens {n}");
    }
    for (n, expected) in [(3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
        let l = puzzles::langford(n, false).unwrap();
        assert_eq!(agree(&l.problem, &[]).solutions, expected, "langford {n}");
    }
    let board = PentominoBoard::rectangle(3, 20).unwrap();
    let p = puzzles::pentominoes(&board, true).unwrap();
    assert_eq!(agree(&p.problem, &[]).solutions, 2);
}

#[test]
#[ignore = "slow in debug builds: every pentomino board's full count, both engines"]
fn the_pentomino_boards_agree_node_for_node() {
    for (board, expected) in [
        (PentominoBoard::rectangle(6, 10).unwrap(), 2339),
        (PentominoBoard::rectangle(5, 12).unwrap(), 1010),
        (PentominoBoard::rectangle(4, 15).unwrap(), 368),
        (PentominoBoard::square_with_centre_hole(), 65),
    ] {
        let p = puzzles::pentominoes(&board, true).unwrap();
        let mut dlx = Dlx::new(&p.problem);
        let mut dc = Dc::new(&p.problem);
        for choice in [ColumnChoice::LowestIndex, ColumnChoice::Forced] {
            let options = SearchOptions {
                choice,
                ..SearchOptions::default()
            };
            let a = dlx.count(options);
            let b = dc.count(options);
            assert_eq!(a.solutions, expected);
            assert_eq!(tree(&a), tree(&b), "{choice:?}");
        }
        let tuned = dc.count(SearchOptions::default());
        assert_eq!(tuned.solutions, expected);
    }
}

#[test]
fn limit_budget_and_visitor_stop_and_restore_the_arena() {
    let q = puzzles::queens(6).unwrap().problem;
    let mut dc = Dc::new(&q);
    let pristine = dc.clone();
    for choice in CHOICES {
        let base = SearchOptions {
            choice,
            ..SearchOptions::default()
        };
        let stats = dc.count(SearchOptions { limit: 2, ..base });
        assert_eq!(stats.solutions, 2);
        assert_eq!(dc, pristine);
        let stats = dc.count(SearchOptions {
            budget: Budget::nodes(5),
            ..base
        });
        assert!(stats.budget_exceeded);
        assert_eq!(stats.nodes, 5);
        assert_eq!(dc, pristine);
        let mut seen = 0;
        let stats = dc.search(base, |_| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert_eq!((seen, stats.solutions), (1, 1));
        assert_eq!(dc, pristine);
        assert_eq!(dc.count(base).solutions, 4);
    }
    // A zero time budget: the twin of Dlx's test in exact_cover/tests.rs
    // (each engine's tests stay with it).
    let q = puzzles::queens(10).unwrap().problem;
    let mut dc = Dc::new(&q);
    let pristine = dc.clone();
    let stats = dc.count(SearchOptions {
        budget: Budget::UNLIMITED.with_time(std::time::Duration::ZERO),
        ..SearchOptions::default()
    });
    assert!(stats.budget_exceeded);
    assert_eq!(stats.nodes, crate::budget::Meter::CLOCK_INTERVAL);
    assert_eq!(dc, pristine);
}

#[test]
fn selections_constrain_and_reset_restores_pristine_state() {
    let q = puzzles::queens(6).unwrap().problem;
    let mut dc = Dc::new(&q);
    let pristine = dc.clone();
    // Queen at row 0, file 1 (row 1 of the matrix).
    assert!(dc.select(1));
    let with_one = dc.count(SearchOptions::default());
    assert!(with_one.solutions >= 1);
    assert!(!dc.select(2), "same rank");
    assert_eq!(dc.count(SearchOptions::default()).solutions, 0);
    dc.reset();
    assert_eq!(dc, pristine);
    assert!(dc.select_all(&[1]));
    assert_eq!(
        dc.count(SearchOptions::default()).solutions,
        with_one.solutions
    );
    assert_eq!(dc.selected().collect::<Vec<_>>(), [1]);
}

#[test]
fn a_deferred_search_counts_the_same_and_settles_back() {
    let q = puzzles::queens(7).unwrap().problem;
    let mut dc = Dc::new(&q);
    for rows in [&[][..], &[3], &[3, 10]] {
        for limit in [1, 2, u64::MAX] {
            let options = SearchOptions::with_limit(limit);
            dc.select_all(rows);
            let placed = dc.clone();
            // A search permutes the sets, and the order decides where a
            // limit stops: every search starts from `select_all`.
            let full = dc.count(options);
            dc.select_all(rows);
            let deferred = dc.search_deferred(options, |_| ControlFlow::Continue(()));
            // Fewer mems: the last backtracking is left undone.
            assert_eq!(tree(&deferred), tree(&full));
            assert!(deferred.mems <= full.mems);
            dc.select_all(rows);
            dc.search_deferred(options, |_| ControlFlow::Continue(()));
            dc.settle();
            assert_eq!(dc, placed);
        }
    }
}

#[test]
fn select_all_counts_the_updates_covering_would_make() {
    let q = puzzles::queens(8).unwrap().problem;
    let mut one = Dc::new(&q);
    let mut all = Dc::new(&q);
    let mut dlx = Dlx::new(&q);
    for rows in [&[][..], &[0], &[0, 12], &[0, 12, 21], &[0, 1]] {
        one.reset();
        let ok = one.select_rows(rows);
        assert_eq!(all.select_all(rows), ok);
        assert_eq!(one, all);
        dlx.select_all(rows);
        let options = SearchOptions {
            limit: 0,
            ..SearchOptions::default()
        };
        assert_eq!(one.count(options).updates, all.count(options).updates);
        assert_eq!(dlx.count(options).updates, all.count(options).updates);
    }
}

#[test]
fn arena_sizes_for_sudoku() {
    let p = crate::sudoku::BoxShape::NINE.exact_cover();
    let dc = Dc::new(&p);
    assert_eq!(dc.cells(), 2916);
    assert!(dc.heap_bytes() >= dc.arena_bytes());
    assert!(dc.heap_bytes() < 100_000, "{}", dc.heap_bytes());
}

/// A random problem: `primary` + `secondary` items, rows of 1 to 5
/// distinct items, from the seed's choices.
fn random_problem(primary: usize, secondary: usize, rows: &[Vec<usize>]) -> Problem {
    let n = primary + secondary;
    let mut p = Problem::new(primary, secondary);
    for row in rows {
        let mut cols: Vec<usize> = row.iter().map(|&c| c % n).collect();
        cols.dedup();
        let mut seen = Vec::new();
        cols.retain(|c| {
            let fresh = !seen.contains(c);
            seen.push(*c);
            fresh
        });
        p.add_row(&cols).unwrap();
    }
    p
}

#[test]
fn searches_in_a_row_make_the_same_tree() {
    // A search permutes the sets; the next one must start from the order
    // `select_all` builds, whether or not a selection is in force, and
    // whether the selection was made by `select` or `select_all`.
    let q = puzzles::queens(8).unwrap().problem;
    for choice in CHOICES {
        let options = SearchOptions {
            choice,
            ..SearchOptions::default()
        };
        for rows in [&[][..], &[3], &[3, 12]] {
            let mut dc = Dc::new(&q);
            dc.select_all(rows);
            let first = dc.count(options);
            assert_eq!(dc.count(options), first, "{choice:?} {rows:?}");
            assert_eq!(dc.count(SearchOptions::with_limit(3)), {
                dc.select_all(rows);
                dc.count(SearchOptions::with_limit(3))
            });
            dc.search_deferred(options, |_| ControlFlow::Continue(()));
            assert_eq!(dc.count(options), first, "after a deferred search");
            dc.reset();
            dc.select_rows(rows);
            assert_eq!(dc.count(options), first, "selected one by one");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random matrices with primary and secondary items, and random
    /// preselections: the same solutions, and node for node under
    /// `LowestIndex`; limits and budgets keep the arena intact.
    #[test]
    fn agrees_with_dancing_links_on_random_matrices(
        primary in 1usize..9,
        secondary in 0usize..4,
        rows in proptest::collection::vec(proptest::collection::vec(0usize..64, 1..5), 1..24),
        picks in proptest::collection::vec(0usize..64, 0..3),
        limit in 1u64..4,
        budget in 1u64..20,
    ) {
        let p = random_problem(primary, secondary, &rows);
        let selected: Vec<usize> = picks.iter().map(|&r| r % p.rows()).collect();
        agree(&p, &selected);
        let mut dc = Dc::new(&p);
        dc.select_all(&selected);
        let placed = dc.clone();
        let full = dc.count(SearchOptions::default()).solutions;
        let limited = dc.count(SearchOptions::with_limit(limit));
        prop_assert_eq!(limited.solutions, full.min(limit));
        prop_assert_eq!(&dc, &placed);
        let cut = dc.count(SearchOptions { budget: Budget::nodes(budget), ..SearchOptions::default() });
        prop_assert!(cut.nodes <= budget);
        prop_assert_eq!(&dc, &placed);
        dc.search_deferred(SearchOptions::with_limit(limit), |_| ControlFlow::Continue(()));
        dc.settle();
        prop_assert_eq!(&dc, &placed);
        // Searches in a row on one arena, under the selection: the same
        // statistics every time, for every choice, and with a limit that
        // cuts the search short (where the order of the sets matters).
        for choice in CHOICES {
            let options = SearchOptions { choice, limit, ..SearchOptions::default() };
            let first = dc.count(options);
            prop_assert_eq!(dc.count(options), first);
            dc.search_deferred(options, |_| ControlFlow::Continue(()));
            prop_assert_eq!(dc.count(options), first);
            let fresh = {
                let mut other = Dc::new(&p);
                other.select_all(&selected);
                other.count(options)
            };
            prop_assert_eq!(fresh, first);
        }
    }
}

#[test]
fn the_choice_passes_agree_with_and_without_avx2() {
    let mut state = 12_345u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as u32
    };
    for len in [1usize, 3, 7, 8, 9, 31, 32, 33, 40, 64, 65, 324] {
        for round in 0..100 {
            // Odd rounds have no short item, so the scans run to the end.
            let floor = if round % 2 == 1 { 2 } else { 0 };
            let sizes: Vec<u32> = (0..len)
                .map(|_| match next() % 4 {
                    0 => super::COVERED | (next() % 5),
                    _ => floor + next() % 6,
                })
                .collect();
            let places: Vec<u32> = (0..len).map(|_| next() % 400).collect();
            let m = super::least_plain(&sizes);
            for avx2 in [false, super::detect_avx2()] {
                assert_eq!(super::least(avx2, &sizes), m);
                assert_eq!(
                    super::first_place(avx2, &sizes, &places, m),
                    super::first_place_plain(&sizes, &places, m)
                );
                for bound in [0, 1, m, 3] {
                    let first = sizes.iter().position(|&s| s <= bound);
                    assert_eq!(
                        super::first_index(avx2, &sizes, bound),
                        first.unwrap_or(len),
                        "first entry at most {bound} of {sizes:?}"
                    );
                }
                for room in [1usize, 3, 16] {
                    let want: Vec<u32> = (0..len as u32)
                        .filter(|&i| sizes[i as usize] == m)
                        .take(room)
                        .collect();
                    let mut out = vec![0; room];
                    let n = super::ties(avx2, &sizes, m, &mut out);
                    assert_eq!(out[..n], want[..], "ties of {m} in {sizes:?}");
                }
            }
        }
    }
}
