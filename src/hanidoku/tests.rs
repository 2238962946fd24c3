//! Geometry, checker and solver tests.

use std::collections::HashSet;

use super::generate::solved_board;
use super::solvers::{backtrack::BacktrackSolver, dlx::DlxSolver, REGISTRY};
use super::*;
use crate::solvers::{Budget, Outcome, Solver};

/// Is `digits` a set of distinct consecutive digits? (The rule, stated
/// directly, independent of the checker.)
fn consecutive(digits: &[u8]) -> bool {
    let mut sorted = digits.to_vec();
    sorted.sort_unstable();
    sorted.windows(2).all(|w| w[1] == w[0] + 1)
}

fn line_digits(board: &Board, line: Line) -> Vec<u8> {
    line.cells()
        .iter()
        .map(|&c| board.get(usize::from(c)))
        .collect()
}

fn solve_with(solver: &mut dyn Solver<Board>, puzzle: &Board, limit: u64) -> (Outcome, Board) {
    let mut solution = Board::EMPTY;
    let outcome = solver.solve(puzzle, limit, Budget::UNLIMITED, &mut solution);
    (outcome, solution)
}

#[test]
fn geometry() {
    assert_eq!(lines().len(), LINES);
    for direction in [Direction::Row, Direction::DownRight, Direction::DownLeft] {
        let lens: Vec<usize> = (0..9)
            .map(|i| Line::new(direction, i).unwrap().length())
            .collect();
        assert_eq!(lens, ROW_LENGTHS, "{direction:?}");
        // The lines of one direction partition the board.
        let mut cells: Vec<u8> = (0..9)
            .flat_map(|i| Line::new(direction, i).unwrap().cells().to_vec())
            .collect();
        cells.sort_unstable();
        assert_eq!(cells, (0..CELLS as u8).collect::<Vec<_>>());
    }
    for line in lines() {
        assert_eq!(Line::from_id(line.id()), Some(line));
        assert_eq!(Line::new(line.direction(), line.index()), Some(line));
        // Consecutive cells of a line are neighbours on the board: one
        // coordinate fixed, the other two move by one in opposite ways.
        for pair in line.cells().windows(2) {
            let (a, b) = (coords(usize::from(pair[0])), coords(usize::from(pair[1])));
            let steps: Vec<i8> = (0..3).map(|k| b[k] - a[k]).collect();
            assert_eq!(steps.iter().filter(|&&s| s == 0).count(), 1, "{line}");
            assert_eq!(steps.iter().map(|s| s.abs()).sum::<i8>(), 2, "{line}");
        }
    }
    for cell in 0..CELLS {
        let [row, dr, dl] = lines_of(cell);
        assert_eq!(
            [row.direction(), dr.direction(), dl.direction()],
            [Direction::Row, Direction::DownRight, Direction::DownLeft]
        );
        for line in [row, dr, dl] {
            assert!(line.cells().contains(&(cell as u8)));
        }
        let (r, p) = row_and_position(cell);
        assert_eq!(cell_at(r, p), Some(cell));
        assert_eq!(row.index(), r);
        assert_eq!(cell_at_coords(coords(cell)), Some(cell));
    }
    // Two lines of different directions meet in at most one cell.
    for a in lines() {
        for b in lines().filter(|b| b.direction() != a.direction()) {
            let shared = a.cells().iter().filter(|c| b.cells().contains(c)).count();
            assert!(shared <= 1, "{a} and {b}");
        }
    }
    assert_eq!(cell_at(0, 5), None);
    assert_eq!(cell_at_coords([4, 4, -8]), None);
    assert_eq!(Line::from_id(27), None);
    assert_eq!(
        Line::from_id(9).unwrap().to_string(),
        "down-right diagonal 1"
    );
    assert_eq!(
        Line::from_id(26).unwrap().to_string(),
        "down-left diagonal 9"
    );
    assert_eq!(Line::from_id(2).unwrap().compulsory(), 3..=7);
}

#[test]
fn board_construction_checks_cells() {
    assert!(Board::from_cells(&[0; 60]).is_err());
    let mut cells = [0u8; CELLS];
    cells[3] = 10;
    let e = Board::from_cells(&cells).unwrap_err();
    assert_eq!(e, BoardError::ValueOutOfRange { cell: 3, value: 10 });
    cells[3] = 9;
    assert_eq!(Board::from_cells(&cells).unwrap().clues(), 1);
}

#[test]
fn a_solved_board_passes_the_checker_and_the_matrix() {
    let board = solved_board(1);
    assert_eq!(check(&board), Verdict::Complete);
    for line in lines() {
        assert!(consecutive(&line_digits(&board, line)), "{line}");
    }
    let rows: Vec<usize> = (0..CELLS).map(|c| cover_row(c, board.get(c))).collect();
    assert!(exact_cover().is_exact_cover(&rows));
}

#[test]
fn the_checker_rejects_a_full_board_with_a_non_consecutive_line() {
    let solved = solved_board(2);
    let mut found = 0;
    for cell in 0..CELLS {
        for d in 1..=9 {
            let mut board = solved;
            board.set(cell, d);
            // No line through the cell repeats a digit...
            if lines_of(cell)
                .iter()
                .any(|&l| line_digits(&solved, l).contains(&d))
            {
                continue;
            }
            // ...but some line is not consecutive any more.
            let broken: Vec<Line> = lines_of(cell)
                .into_iter()
                .filter(|&l| !consecutive(&line_digits(&board, l)))
                .collect();
            if broken.is_empty() {
                continue;
            }
            found += 1;
            match check(&board) {
                Verdict::Invalid {
                    line,
                    reason: Reason::NotConsecutive { low, high },
                } => {
                    assert!(broken.contains(&line), "{line}");
                    assert!(usize::from(high - low) >= line.length());
                    let text = check(&board).to_string();
                    assert!(text.contains("is not consecutive"), "{text}");
                }
                other => panic!("cell {cell} = {d}: {other:?}"),
            }
            assert!(!is_solution_of(&board, &Board::EMPTY));
        }
    }
    assert!(found > 10, "only {found} boards tried");
}

#[test]
fn checker_verdicts() {
    let mut b = Board::EMPTY;
    let row = Line::new(Direction::Row, 0).unwrap();
    for (i, d) in [1, 2, 3, 4, 6].into_iter().enumerate() {
        b.set(i, d);
    }
    assert_eq!(
        check(&b),
        Verdict::Invalid {
            line: row,
            reason: Reason::NotConsecutive { low: 1, high: 6 }
        }
    );
    assert_eq!(
        check(&b).to_string(),
        "invalid: row 1 is not consecutive: it holds 1 and 6, too far apart for 5 cells"
    );
    b.set(4, 2);
    assert_eq!(
        check(&b),
        Verdict::Invalid {
            line: row,
            reason: Reason::Repeats(2)
        }
    );
    assert_eq!(check(&b).to_string(), "invalid: row 1 repeats 2");
    b.set(4, 5);
    assert_eq!(check(&b), Verdict::Incomplete { blanks: 56 });
    assert_eq!(check(&b).to_string(), "incomplete (56 blanks)");
    // A diagonal: cells 1 and 6 (in the next row, half a cell to the left)
    // start a down-left diagonal of 6 cells.
    let mut d = Board::EMPTY;
    d.set(1, 9);
    d.set(6, 3);
    let diagonal = lines_of(1)[2];
    assert_eq!(diagonal.cells()[..2], [1, 6]);
    assert_eq!(diagonal.length(), 6);
    assert_eq!(
        check(&d),
        Verdict::Invalid {
            line: diagonal,
            reason: Reason::NotConsecutive { low: 3, high: 9 }
        }
    );
}

#[test]
fn both_solvers_solve_generated_puzzles_and_agree() {
    let mut g = generate::Generator::new(3);
    let (mut puzzle, mut solution) = (Board::EMPTY, Board::EMPTY);
    for _ in 0..3 {
        g.next_into(&mut puzzle, &mut solution).unwrap();
        for info in REGISTRY {
            let mut solver = (info.make)();
            let (o, s) = solve_with(solver.as_mut(), &puzzle, 2);
            assert_eq!(o.solutions, 1, "{}", info.name);
            assert!(!o.budget_exceeded);
            assert_eq!(s, solution, "{}", info.name);
            assert!(is_solution_of(&s, &puzzle));
            // Limit 1 stops at the first solution.
            let (o, s) = solve_with(solver.as_mut(), &puzzle, 1);
            assert_eq!((o.solutions, s), (1, solution));
        }
    }
}

#[test]
fn clashing_or_contradicting_clues_give_no_solution() {
    let mut repeat = Board::EMPTY;
    let row = Line::new(Direction::Row, 2).unwrap();
    repeat.set(usize::from(row.cells()[0]), 4);
    repeat.set(usize::from(row.cells()[3]), 4);
    let mut far = Board::EMPTY;
    far.set(0, 1);
    far.set(4, 7);
    // A unique puzzle plus a clue that breaks no rule but differs from its
    // solution: no solution, found only by searching.
    let mut g = generate::Generator::new(6);
    let (mut unique, mut solved) = (Board::EMPTY, Board::EMPTY);
    g.next_into(&mut unique, &mut solved).unwrap();
    let contradiction = (0..CELLS)
        .filter(|&c| unique.get(c) == 0)
        .flat_map(|c| (1..=9).map(move |d| (c, d)))
        .map(|(c, d)| {
            let mut b = unique;
            b.set(c, d);
            (b, d == solved.get(c))
        })
        .find(|(b, right)| !right && !matches!(check(b), Verdict::Invalid { .. }))
        .map(|(b, _)| b)
        .unwrap();
    for info in REGISTRY {
        let mut solver = (info.make)();
        for (name, puzzle) in [
            ("repeat", repeat),
            ("far", far),
            ("contradiction", contradiction),
        ] {
            let (o, _) = solve_with(solver.as_mut(), &puzzle, 2);
            assert_eq!(o.solutions, 0, "{} {name}", info.name);
            assert!(!o.budget_exceeded);
        }
        // The solved board itself, and with one blank: its only solution.
        let mut one_blank = solved;
        one_blank.set(30, 0);
        for puzzle in [solved, one_blank] {
            let (o, s) = solve_with(solver.as_mut(), &puzzle, 2);
            assert_eq!((o.solutions, s), (1, solved), "{}", info.name);
        }
    }
}

#[test]
fn budgets_stop_the_search() {
    for info in REGISTRY {
        let mut solver = (info.make)();
        let mut solution = Board::EMPTY;
        let o = solver.solve(&Board::EMPTY, u64::MAX, Budget::nodes(200), &mut solution);
        assert!(o.budget_exceeded, "{}", info.name);
        assert!(o.nodes <= Some(200), "{}: {:?} nodes", info.name, o.nodes);
        // The solver is reusable afterwards.
        let full = solved_board(9);
        let o = solver.solve(&full, 2, Budget::UNLIMITED, &mut solution);
        assert_eq!((o.solutions, solution), (1, full));
    }
}

#[test]
fn the_empty_board_has_many_solutions_for_both() {
    for info in REGISTRY {
        let mut solver = (info.make)();
        let (o, s) = solve_with(solver.as_mut(), &Board::EMPTY, 50);
        assert_eq!(o.solutions, 50, "{}", info.name);
        assert_eq!(check(&s), Verdict::Complete, "{}", info.name);
    }
    let mut backtrack = BacktrackSolver::new();
    let (o, _) = solve_with(&mut backtrack, &Board::EMPTY, 1);
    assert_eq!(o.updates, None);
    assert!(DlxSolver::new().arena_bytes() > 0);
}

#[test]
fn symmetric_images_keep_solutions() {
    let mut g = generate::Generator::new(8);
    let (mut puzzle, mut solution) = (Board::EMPTY, Board::EMPTY);
    g.next_into(&mut puzzle, &mut solution).unwrap();
    let mut dlx = DlxSolver::new();
    let mut seen = HashSet::new();
    for s in (0..SYMMETRIES).filter_map(Symmetry::new) {
        let (mut p, mut sol) = (Board::EMPTY, Board::EMPTY);
        s.apply(&puzzle, &mut p);
        s.apply(&solution, &mut sol);
        assert_eq!(p.clues(), puzzle.clues());
        assert_eq!(check(&sol), Verdict::Complete, "{s:?}");
        let (o, found) = solve_with(&mut dlx, &p, 2);
        assert_eq!((o.solutions, found), (1, sol), "{s:?}");
        seen.insert(p);
    }
    assert_eq!(seen.len(), SYMMETRIES, "the 24 images differ");
}

/// Under the lowest-index choice `dlx` and `dc` make the same tree on
/// Hanidoku too: generated puzzles (unique), boards with cells blanked
/// (several solutions, all counted), and a clash.
#[test]
fn dc_and_dlx_make_the_same_tree_under_the_lowest_index_choice() {
    use super::solvers::engine::CoverSolver;
    use crate::exact_cover::{ColumnChoice, Dc, Dlx};
    let mut dlx = CoverSolver::<Dlx>::with_choice(ColumnChoice::LowestIndex);
    let mut dc = CoverSolver::<Dc>::with_choice(ColumnChoice::LowestIndex);
    let mut g = generate::Generator::new(33);
    let mut puzzles = Vec::new();
    for _ in 0..6 {
        let (mut puzzle, mut solution) = (Board::EMPTY, Board::EMPTY);
        g.next_into(&mut puzzle, &mut solution).unwrap();
        let mut loose = solution;
        for cell in (0..CELLS).step_by(3) {
            loose.set(cell, 0);
        }
        puzzles.extend([puzzle, loose]);
    }
    let mut clash = puzzles[0];
    let blank = (0..CELLS).find(|&c| clash.get(c) == 0).unwrap();
    let near = (0..CELLS).find(|&c| clash.get(c) != 0).unwrap();
    clash.set(blank, clash.get(near));
    puzzles.push(clash);
    for p in &puzzles {
        for limit in [2, u64::MAX] {
            let (a, _) = solve_with(&mut dlx, p, limit);
            let (b, s) = solve_with(&mut dc, p, limit);
            assert_eq!(a.solutions, b.solutions);
            if a.solutions < limit {
                assert_eq!(
                    (a.nodes, a.updates, a.guesses),
                    (b.nodes, b.updates, b.guesses)
                );
            }
            if b.solutions > 0 {
                assert!(is_solution_of(&s, p));
            }
        }
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// A solved board with random cells blanked: both solvers find the
        /// same number of solutions (at least the board itself), and valid
        /// ones.
        #[test]
        fn solvers_agree_on_randomly_blanked_boards(
            seed in any::<u64>(),
            blanks in proptest::collection::vec(0..CELLS, 0..55),
        ) {
            let full = solved_board(seed);
            let mut puzzle = full;
            for &c in &blanks {
                puzzle.set(c, 0);
            }
            let mut counts = Vec::new();
            for info in REGISTRY {
                let mut solver = (info.make)();
                let (o, s) = solve_with(solver.as_mut(), &puzzle, 2);
                prop_assert!(!o.budget_exceeded);
                prop_assert!((1..=2).contains(&o.solutions), "{}", info.name);
                prop_assert!(is_solution_of(&s, &puzzle), "{}", info.name);
                counts.push(o.solutions);
            }
            prop_assert!(counts.iter().all(|&c| c == counts[0]), "{:?}", counts);
        }
    }
}
