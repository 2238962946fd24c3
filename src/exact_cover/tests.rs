// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use std::ops::ControlFlow;

use crate::budget::Budget;

use super::*;

const KNUTH_6X7: &str = "0010110\n1001001\n0110010\n1001000\n0100001\n0001101\n";

fn all_solutions(dlx: &mut Dlx, options: SearchOptions) -> (SearchStats, Vec<Vec<usize>>) {
    let mut found = Vec::new();
    let stats = dlx.search(options, |rows| {
        let mut rows = rows.to_vec();
        rows.sort_unstable();
        found.push(rows);
        ControlFlow::Continue(())
    });
    found.sort();
    (stats, found)
}

/// N-queens: rows and files primary, both diagonal families secondary.
pub(crate) fn queens(n: usize) -> Problem {
    let diagonals = 2 * n - 1;
    let mut p = Problem::new(2 * n, 2 * diagonals);
    for r in 0..n {
        for c in 0..n {
            let a = 2 * n + (r + c);
            let b = 2 * n + diagonals + (r + n - 1 - c);
            p.add_row(&[r, n + c, a, b]).unwrap();
        }
    }
    p
}

/// Brute force over all row subsets, for cross-checking small problems.
fn brute_force_count(p: &Problem) -> u64 {
    let rows = p.rows();
    assert!(rows <= 16);
    (0u32..1 << rows)
        .filter(|mask| {
            let chosen: Vec<usize> = (0..rows).filter(|r| mask & (1 << r) != 0).collect();
            p.is_exact_cover(&chosen)
        })
        .count() as u64
}

#[test]
fn knuth_example_has_rows_1_4_5() {
    let named = Problem::parse(KNUTH_6X7).unwrap();
    assert_eq!(named.problem.columns(), 7);
    assert_eq!(named.problem.rows(), 6);
    let mut dlx = Dlx::new(&named.problem);
    let (stats, found) = all_solutions(&mut dlx, SearchOptions::default());
    assert_eq!(stats.solutions, 1);
    assert_eq!(found, vec![vec![0, 3, 4]]);
    assert!(!stats.budget_exceeded);
    assert!(stats.nodes >= 3);
    assert!(stats.updates > 0);
}

#[test]
fn queens_counts_with_secondary_diagonals() {
    for (n, expected) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (8, 92),
        (10, 724),
    ] {
        let p = queens(n);
        let mut dlx = Dlx::new(&p);
        let (stats, found) = all_solutions(&mut dlx, SearchOptions::default());
        assert_eq!(stats.solutions, expected, "n = {n}");
        assert!(found.iter().all(|rows| p.is_exact_cover(rows)));
        // All distinct.
        let mut dedup = found.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), found.len());
    }
}

#[test]
fn first_column_choice_agrees_but_costs_more() {
    let p = queens(8);
    let mut dlx = Dlx::new(&p);
    let mrv = dlx.count(SearchOptions::default());
    let first = dlx.count(SearchOptions {
        choice: ColumnChoice::First,
        ..SearchOptions::default()
    });
    assert_eq!(mrv.solutions, 92);
    assert_eq!(first.solutions, 92);
    assert!(mrv.nodes < first.nodes, "{} vs {}", mrv.nodes, first.nodes);
}

#[test]
fn limit_stops_early_and_restores_the_arena() {
    let p = queens(8);
    let mut dlx = Dlx::new(&p);
    let pristine = dlx.clone();
    for limit in [1, 2, 5, 91, 92, 93] {
        let stats = dlx.count(SearchOptions::with_limit(limit));
        assert_eq!(stats.solutions, limit.min(92));
        assert_eq!(dlx, pristine, "limit {limit}");
    }
    assert_eq!(dlx.count(SearchOptions::with_limit(0)).solutions, 0);
}

#[test]
fn visitor_can_stop_the_search() {
    let p = queens(6);
    let mut dlx = Dlx::new(&p);
    let pristine = dlx.clone();
    let mut seen = 0;
    let stats = dlx.search(SearchOptions::default(), |_| {
        seen += 1;
        if seen == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((seen, stats.solutions), (2, 2));
    assert_eq!(dlx, pristine);
}

#[test]
fn budget_is_reported_and_state_restored() {
    let p = queens(10);
    let mut dlx = Dlx::new(&p);
    let pristine = dlx.clone();
    let full = dlx.count(SearchOptions::default());
    let budget = full.nodes / 3;
    let cut = dlx.count(SearchOptions {
        budget: Budget::nodes(budget),
        ..SearchOptions::default()
    });
    assert!(cut.budget_exceeded);
    assert_eq!(cut.nodes, budget);
    assert!(cut.solutions < full.solutions);
    assert_eq!(dlx, pristine);
    // Exactly enough budget is not exceeded.
    let exact = dlx.count(SearchOptions {
        budget: Budget::nodes(full.nodes),
        ..SearchOptions::default()
    });
    assert!(!exact.budget_exceeded);
    assert_eq!(exact.solutions, full.solutions);
}

#[test]
// Dc's twin is in cells/tests.rs: each engine's tests stay with it.
fn time_budget_stops_the_search_and_restores_state() {
    let p = queens(12);
    let mut dlx = Dlx::new(&p);
    let pristine = dlx.clone();
    let full = dlx.count(SearchOptions::default());
    assert!(full.nodes > 10 * crate::budget::Meter::CLOCK_INTERVAL);
    let cut = dlx.count(SearchOptions {
        budget: Budget::UNLIMITED.with_time(std::time::Duration::ZERO),
        ..SearchOptions::default()
    });
    assert!(cut.budget_exceeded);
    assert_eq!(cut.nodes, crate::budget::Meter::CLOCK_INTERVAL);
    assert_eq!(dlx, pristine);
}

#[test]
fn selections_constrain_and_reset_restores_pristine_state() {
    let p = queens(8);
    let mut dlx = Dlx::new(&p);
    let pristine = dlx.clone();
    // Queen at (0, 0): 4 of the 92 solutions.
    assert!(dlx.select(0));
    let with_corner = dlx.count(SearchOptions::default());
    assert_eq!(with_corner.solutions, 4);
    // Queen at (1, 1) attacks it along a diagonal: a clash.
    assert!(!dlx.select(9));
    assert_eq!(dlx.count(SearchOptions::default()).solutions, 0);
    dlx.reset();
    assert_eq!(dlx, pristine);
    assert_eq!(dlx.count(SearchOptions::default()).solutions, 92);
    assert_eq!(dlx, pristine);
}

#[test]
fn solutions_include_selected_rows() {
    let p = queens(4);
    let mut dlx = Dlx::new(&p);
    // (0, 1) is in one of the two 4-queens solutions.
    assert!(dlx.select(1));
    let (stats, found) = all_solutions(&mut dlx, SearchOptions::default());
    assert_eq!(stats.solutions, 1);
    assert!(found[0].contains(&1));
    assert!(p.is_exact_cover(&found[0]));
    assert_eq!(dlx.selected().collect::<Vec<_>>(), vec![1]);
}

#[test]
fn same_search_same_statistics() {
    let p = queens(9);
    let mut dlx = Dlx::new(&p);
    let a = dlx.count(SearchOptions::default());
    let b = dlx.count(SearchOptions::default());
    assert_eq!(a, b);
    assert_eq!(a.solutions, 352);
}

#[test]
fn agrees_with_brute_force_on_small_random_matrices() {
    // A fixed LCG keeps the test reproducible without a dependency.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    for _ in 0..300 {
        let primary = 1 + next() as usize % 6;
        let secondary = next() as usize % 3;
        let mut p = Problem::new(primary, secondary);
        let rows = 1 + next() as usize % 12;
        for _ in 0..rows {
            let mut cols: Vec<usize> = (0..primary + secondary)
                .filter(|_| next() % 3 == 0)
                .collect();
            if cols.is_empty() {
                cols.push(next() as usize % (primary + secondary));
            }
            p.add_row(&cols).unwrap();
        }
        let mut dlx = Dlx::new(&p);
        let expected = brute_force_count(&p);
        let (stats, found) = all_solutions(&mut dlx, SearchOptions::default());
        assert_eq!(stats.solutions, expected, "{p:?}");
        assert!(found.iter().all(|rows| p.is_exact_cover(rows)));
        let first = dlx.count(SearchOptions {
            choice: ColumnChoice::First,
            ..SearchOptions::default()
        });
        assert_eq!(first.solutions, expected);
        // Rows of mixed widths: `select_all` rebuilds the spacer layout.
        let picked: Vec<usize> = (0..1 + next() as usize % 2)
            .map(|_| next() as usize % rows)
            .collect();
        let mut single = Dlx::new(&p);
        let ok = picked.iter().fold(true, |ok, &r| single.select(r) & ok);
        assert_eq!(dlx.select_all(&picked), ok, "{p:?} {picked:?}");
        let (a, found_a) = all_solutions(&mut dlx, SearchOptions::default());
        let (b, found_b) = all_solutions(&mut single, SearchOptions::default());
        assert_eq!(a.solutions, b.solutions);
        assert_eq!(found_a, found_b, "{p:?} {picked:?}");
        if ok {
            // The same removals for placing the rows (the searches may
            // break ties differently).
            let placing = SearchOptions::with_limit(0);
            assert_eq!(dlx.count(placing).updates, single.count(placing).updates);
        }
        dlx.reset();
        assert_eq!(dlx, Dlx::new(&p));
    }
}

/// A reproducible stream of small numbers (an LCG: no dependency).
fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    }
}

/// A random problem whose rows all have `width` columns (when the problem
/// has that many).
fn random_uniform(next: &mut impl FnMut() -> u32, width: usize) -> Problem {
    let primary = width + next() as usize % 5;
    let secondary = next() as usize % 3;
    let total = primary + secondary;
    let mut p = Problem::new(primary, secondary);
    for _ in 0..1 + next() as usize % 14 {
        let mut cols: Vec<usize> = (0..total).collect();
        for i in 0..width {
            let j = i + next() as usize % (total - i);
            cols.swap(i, j);
        }
        p.add_row(&cols[..width]).unwrap();
    }
    p
}

#[test]
fn uniform_rows_of_every_width_agree_with_brute_force_and_spacers() {
    let mut next = lcg(7);
    for width in 2..=9 {
        for _ in 0..120 {
            let p = random_uniform(&mut next, width);
            let expected = brute_force_count(&p);
            let mut uniform = Dlx::new(&p);
            let mut spacers = Dlx::with_spacers(&p);
            let pristine = uniform.clone();
            let (a, found_a) = all_solutions(&mut uniform, SearchOptions::default());
            let (b, found_b) = all_solutions(&mut spacers, SearchOptions::default());
            assert_eq!(a.solutions, expected, "width {width}: {p:?}");
            assert_eq!(found_a, found_b, "width {width}: {p:?}");
            assert_eq!(b.solutions, expected);
            if !width.is_power_of_two() || width > 8 {
                // Both walks go around a row in the same (cyclic) order:
                // the same search, step for step.
                assert_eq!(a, b, "width {width}: {p:?}");
            }
            assert_eq!(uniform, pristine);
            let first = uniform.count(SearchOptions {
                choice: ColumnChoice::First,
                ..SearchOptions::default()
            });
            assert_eq!(first.solutions, expected);
        }
    }
}

#[test]
fn select_all_is_reset_then_select_each() {
    let mut next = lcg(11);
    for case in 0..400 {
        let width = 2 + case % 8;
        let p = random_uniform(&mut next, width);
        let rows: Vec<usize> = (0..next() as usize % 4)
            .map(|_| next() as usize % p.rows())
            .collect();
        for spacers in [false, true] {
            let build = |p: &Problem| {
                if spacers {
                    Dlx::with_spacers(p)
                } else {
                    Dlx::new(p)
                }
            };
            let (mut batch, mut single) = (build(&p), build(&p));
            let pristine = batch.clone();
            // Leave `batch` in some other state first: select_all starts over.
            if p.rows() > 1 {
                batch.select(p.rows() - 1);
                batch.select_all(&[0]);
            }
            let ok = batch.select_all(&rows);
            let mut ok_single = true;
            for &r in &rows {
                // Every row, even after a clash, as select_all does.
                ok_single &= single.select(r);
            }
            assert_eq!(ok, ok_single, "{p:?} {rows:?}");
            assert_eq!(
                batch.selected().collect::<Vec<_>>(),
                rows,
                "select_all records every row"
            );
            if ok {
                // Both count the same removals for placing the rows.
                let placing = SearchOptions::with_limit(0);
                assert_eq!(batch.count(placing).updates, single.count(placing).updates);
            }
            let (a, found_a) = all_solutions(&mut batch, SearchOptions::default());
            let (b, found_b) = all_solutions(&mut single, SearchOptions::default());
            assert_eq!(found_a, found_b, "{p:?} {rows:?}");
            assert_eq!(a.solutions, b.solutions);
            // A search keeps the placed rows; an extra single selection
            // stacks on top; reset undoes everything.
            assert_eq!(
                all_solutions(&mut batch, SearchOptions::default()).1,
                found_a
            );
            batch.select(next() as usize % p.rows());
            batch.reset();
            assert_eq!(batch, pristine, "{p:?} {rows:?}");
            single.reset();
            assert_eq!(single, pristine);
        }
    }
}

#[test]
fn select_all_counts_the_updates_covering_would_make() {
    let p = queens(8);
    let mut batch = Dlx::new(&p);
    let mut single = Dlx::new(&p);
    // Queens at (0, 0) and (1, 2): compatible.
    let rows = [0, 10];
    assert!(batch.select_all(&rows));
    for &r in &rows {
        assert!(single.select(r));
    }
    let only_placing = SearchOptions::with_limit(0);
    assert_eq!(
        batch.count(only_placing).updates,
        single.count(only_placing).updates
    );
    assert!(batch.count(only_placing).updates > 0);
}

#[test]
fn builder_rejects_bad_rows() {
    let mut p = Problem::new(2, 1);
    assert_eq!(
        p.add_row(&[0, 3]),
        Err(ProblemError::ColumnOutOfRange {
            row: 0,
            column: 3,
            columns: 3
        })
    );
    assert_eq!(
        p.add_row(&[1, 1]),
        Err(ProblemError::DuplicateColumn { row: 0, column: 1 })
    );
    assert_eq!(p.add_row(&[]), Err(ProblemError::EmptyRow { row: 0 }));
    assert_eq!(p.rows(), 0);
}

/// The first bad entry of a row, checked entry by entry against all the
/// ones before it: what `add_row` must report, however it finds it.
fn first_bad_entry(row: usize, columns: &[usize], total: usize) -> Option<ProblemError> {
    columns.iter().enumerate().find_map(|(i, &column)| {
        if column >= total {
            Some(ProblemError::ColumnOutOfRange {
                row,
                column,
                columns: total,
            })
        } else if columns[..i].contains(&column) {
            Some(ProblemError::DuplicateColumn { row, column })
        } else {
            None
        }
    })
}

#[test]
fn wide_rows_are_checked_in_linear_time_with_the_same_errors() {
    // A row of 2^19 columns: pair by pair, 1.4e11 comparisons.
    let width = 1 << 19;
    let mut p = Problem::new(width, 1);
    let mut columns: Vec<usize> = (0..width).rev().collect();
    assert_eq!(p.add_row(&columns), Ok(0));
    // A repeat near the end, of a column near the start.
    columns[width - 3] = columns[5];
    assert_eq!(
        p.add_row(&columns),
        Err(ProblemError::DuplicateColumn {
            row: 1,
            column: columns[5]
        })
    );
    // Out of range after the repeat: the repeat is reported; before it,
    // the out-of-range column.
    columns[width - 1] = width + 1;
    assert_eq!(
        p.add_row(&columns),
        Err(ProblemError::DuplicateColumn {
            row: 1,
            column: columns[5]
        })
    );
    columns[7] = width + 1;
    assert_eq!(
        p.add_row(&columns),
        Err(ProblemError::ColumnOutOfRange {
            row: 1,
            column: width + 1,
            columns: width + 1
        })
    );
    assert_eq!(p.rows(), 1);
}

#[test]
fn arena_size_for_sudoku_matches_the_docs() {
    let mut p = Problem::new(324, 0);
    for cell in 0..81 {
        for d in 0..9 {
            let (r, c) = (cell / 9, cell % 9);
            let b = (r / 3) * 3 + c / 3;
            p.add_row(&[cell, 81 + r * 9 + d, 162 + c * 9 + d, 243 + b * 9 + d])
                .unwrap();
        }
    }
    let dlx = Dlx::new(&p);
    assert_eq!(NODE_BYTES, 12);
    assert_eq!(dlx.node_count(), 3244);
    assert_eq!(dlx.arena_bytes(), 40_484);
    assert_eq!(dlx.placement_bytes(), 13_732);
    assert_eq!(dlx.heap_bytes(), 75_345);
}

#[test]
fn text_dense_with_secondary_columns() {
    let named = Problem::parse("# comment\nsecondary: 1\n10 1\n01 0\n 0 1 1\n").unwrap();
    assert_eq!(named.problem.primary(), 2);
    assert_eq!(named.problem.secondary(), 1);
    assert_eq!(named.row_lines, vec![3, 4, 5]);
    let mut dlx = Dlx::new(&named.problem);
    // Row 0 is the only one covering column 0; it shares the secondary
    // column with row 2, so {0, 1} is the only cover.
    assert_eq!(dlx.count(SearchOptions::default()).solutions, 1);
}

#[test]
fn text_named_queens() {
    let text = "\
# four queens, diagonals secondary
r0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6
r0 c0 a0 b3
r0 c1 a1 b2
r0 c2 a2 b1
r0 c3 a3 b0
r1 c0 a1 b4
r1 c1 a2 b3
r1 c2 a3 b2
r1 c3 a4 b1
r2 c0 a2 b5
r2 c1 a3 b4
r2 c2 a4 b3
r2 c3 a5 b2
r3 c0 a3 b6
r3 c1 a4 b5
r3 c2 a5 b4
r3 c3 a6 b3
";
    let named = Problem::parse(text).unwrap();
    assert_eq!(named.problem.primary(), 8);
    assert_eq!(named.problem.secondary(), 14);
    assert_eq!(named.column_names[8], "a0");
    let mut dlx = Dlx::new(&named.problem);
    assert_eq!(dlx.count(SearchOptions::default()).solutions, 2);
}

#[test]
fn text_reads_knuths_dlx_format_with_its_comment_lines() {
    // As Knuth's generators write it: `|` comment lines, before the item
    // names and between the options, indented or not.
    let knuth = "\
| This data produced by a generator
r0 r1 c0 c1 | a0 a1 a2 b0 b1 b2
r0 c0 a0 b1
  | a comment between options
r0 c1 a1 b2
r1 c0 a1 b0
r1 c1 a2 b1
";
    let ours = "\
# the same, with our comments
r0 r1 c0 c1 | a0 a1 a2 b0 b1 b2
r0 c0 a0 b1
r0 c1 a1 b2   # a comment at the end of a row
r1 c0 a1 b0
r1 c1 a2 b1
";
    let named = Problem::parse(knuth).unwrap();
    assert_eq!(named.problem, Problem::parse(ours).unwrap().problem);
    assert_eq!((named.problem.primary(), named.problem.secondary()), (4, 6));
    assert_eq!(named.row_lines, [3, 5, 6, 7]);
    // Two queens on a 2x2 board: no solution.
    let mut dlx = Dlx::new(&named.problem);
    assert_eq!(dlx.count(SearchOptions::default()).solutions, 0);
    // A `|` inside a line is still the primary/secondary separator, and
    // on a row line it is not a column name.
    let e = Problem::parse("a | b\na | b\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

#[test]
fn text_with_a_byte_order_mark_and_crlf_reads_as_without() {
    for text in [
        "# comment\nsecondary: 1\n10 1\n01 0\n 0 1 1\n",
        "a b | c\na c\nb\nb c\n",
    ] {
        let plain = Problem::parse(text).unwrap();
        let crlf = text.replace('\n', "\r\n");
        for variant in [format!("\u{feff}{text}"), format!("\u{feff}{crlf}")] {
            assert_eq!(Problem::parse(&variant).unwrap(), plain, "{variant:?}");
        }
    }
    // Only at the start: elsewhere it is a character like any other.
    let e = Problem::parse("10\n\u{feff}01\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

#[test]
fn text_errors_name_the_line() {
    let cases = [
        ("", 0, "no rows"),
        ("# only a comment\n", 0, "no rows"),
        ("101\n10\n", 2, "2 columns"),
        ("101\n1x1\n", 2, "found `x`"),
        ("101\n000\n", 2, "empty"),
        ("secondary: x\n101\n", 1, "whole number"),
        ("secondary: 4\n101\n", 0, "only 3 columns"),
        ("a b\na c\n", 2, "`c` is not one of the column names"),
        ("a b | c | d\na\n", 1, "more than one `|`"),
        ("a a\na\n", 1, "named twice"),
        ("a b\na a\n", 2, "twice"),
        // A line starting with `|` is a comment (Knuth's DLX format): the
        // header is then `a`, and no row follows.
        ("| a\na\n", 0, "no rows"),
        ("x | a\n| x\n", 0, "no rows"),
        ("a b\n", 0, "no rows"),
    ];
    for (text, line, needle) in cases {
        let e = Problem::parse(text).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn whole_text_errors_name_no_line() {
    let e = Problem::parse("# nothing\n").expect_err("no rows");
    assert_eq!(e.to_string(), "no matrix: the input has no rows");
    let e = Problem::parse("101\n1x1\n").expect_err("bad symbol");
    assert!(e.to_string().starts_with("line 2: "), "{e}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

    /// Rows narrow and wide, with repeats and columns out of range: the
    /// error is the first bad entry's, whichever way it is found.
    #[test]
    fn add_row_reports_the_first_bad_entry(
        columns in proptest::collection::vec(0usize..80, 1..120),
    ) {
        let mut p = Problem::new(60, 10);
        let expected = first_bad_entry(0, &columns, 70);
        match p.add_row(&columns) {
            Ok(row) => {
                proptest::prop_assert_eq!(expected, None);
                proptest::prop_assert_eq!(p.row(row).collect::<Vec<_>>(), columns);
            }
            Err(e) => proptest::prop_assert_eq!(Some(e), expected),
        }
    }

    /// Any text, dense-looking or named: an error naming a line within the
    /// text (or none), or a problem that builds and solves; never a panic.
    #[test]
    fn no_cover_text_makes_a_panic(
        text in "([01 ]{0,8}\n|secondary: ?[0-9x]{0,2}\n|[a-c| ]{0,9}\n|#[a-z]*\n|[a-c]( [a-c]){0,3}\n|\u{e9}\t\r\n){0,12}"
    ) {
        match Problem::parse(&text) {
            Err(e) => {
                proptest::prop_assert!(e.line <= text.lines().count(), "{}", e);
                proptest::prop_assert!(!e.message.is_empty());
            }
            Ok(named) => {
                proptest::prop_assert_eq!(named.row_lines.len(), named.problem.rows());
                proptest::prop_assert_eq!(
                    named.column_names.len(),
                    named.problem.primary() + named.problem.secondary()
                );
                let mut dlx = Dlx::try_new(&named.problem).unwrap();
                let first = dlx.count(SearchOptions::default());
                dlx.reset();
                proptest::prop_assert_eq!(dlx.count(SearchOptions::default()), first);
            }
        }
    }
}

#[test]
fn a_deferred_search_counts_the_same_and_settles_back() {
    let mut next = lcg(23);
    for case in 0..300 {
        let width = 2 + case % 7;
        let p = random_uniform(&mut next, width);
        let rows: Vec<usize> = (0..next() as usize % 3)
            .map(|_| next() as usize % p.rows())
            .collect();
        for spacers in [false, true] {
            let mut dlx = if spacers {
                Dlx::with_spacers(&p)
            } else {
                Dlx::new(&p)
            };
            let pristine = dlx.clone();
            let limit = [1, 2, u64::MAX][case % 3];
            let options = SearchOptions::with_limit(limit);
            dlx.select_all(&rows);
            let placed = dlx.clone();
            let full = dlx.count(options);
            let (deferred, found) = {
                let mut found = Vec::new();
                let stats = dlx.search_deferred(options, |r| {
                    found.push(r.to_vec());
                    ControlFlow::Continue(())
                });
                (stats, found)
            };
            assert_eq!(deferred, full, "{p:?} {rows:?}");
            assert_eq!(found.len() as u64, full.solutions);
            // Used again, the arena undoes what the search left first.
            assert_eq!(dlx.count(options), full);
            dlx.search_deferred(options, |_| ControlFlow::Continue(()));
            dlx.settle();
            assert_eq!(dlx, placed);
            // A budget cut, then a selection on top, then a reset.
            dlx.search_deferred(
                SearchOptions {
                    budget: Budget::nodes(1),
                    ..options
                },
                |_| ControlFlow::Continue(()),
            );
            dlx.select(next() as usize % p.rows());
            dlx.reset();
            assert_eq!(dlx, pristine, "{p:?} {rows:?}");
            // select_all after a deferred search starts over.
            dlx.select_all(&rows);
            dlx.search_deferred(options, |_| ControlFlow::Continue(()));
            dlx.select_all(&rows);
            assert_eq!(dlx.count(options), full);
        }
    }
}
