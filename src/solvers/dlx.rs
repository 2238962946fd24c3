//! The Dancing Links solver: Sudoku as exact cover on a reused arena.
//!
//! One [`Dlx`] arena per grid shape is built the first time that shape is
//! seen and kept; every later puzzle of that shape reuses it, with no
//! allocation. The clues are preset rows, placed before the search so that
//! every candidate a clue rules out is gone when it starts; then Algorithm X
//! runs with the minimum-remaining-values column choice. Between puzzles the
//! arena goes back to its pristine state in one of two ways ([`Placement`]):
//!
//! * [`Placement::Undo`] (the default): [`Dlx::reset`] uncovers the
//!   previous puzzle's clues in reverse order (Knuth's undo), then
//!   [`Dlx::select_rows`] covers the new ones. Its cost follows the clues,
//!   not the arena's size.
//! * [`Placement::Snapshot`]: [`Dlx::select_all`] copies the arena as built
//!   back over the working one (27 KB for 9x9) and covers the clues'
//!   columns; nothing needs undoing after the search.
//!
//! Both leave the arena in the same state, so the searches are the same
//! node for node (a test checks it). On 9x9 they cost within a few
//! percent of each other (`dlx` against `dlx-snapshot` in `cargo bench
//! --bench solvers`: the snapshot 1-7% faster on 17-clue puzzles, from 1%
//! slower to 5% faster on top1465; figures in the README); on large grids the snapshot copies the
//! whole arena every puzzle (17 MB for 81x81), the undo only what the clues
//! covered.

use std::ops::ControlFlow;

use super::{Budget, Outcome, Solver, SolverInfo};
use crate::exact_cover::{ColumnChoice, Dlx, SearchOptions};
use crate::sudoku::{BoxShape, Grid};

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "dlx",
    description: "Knuth's Algorithm X on Dancing Links, minimum-remaining-values column choice",
    make: || Box::new(DlxSolver::new()),
    default_budget: Budget::SEARCH,
};

/// How the clues are placed and the arena returned to its pristine state
/// between puzzles (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Uncover the previous puzzle's clues in reverse ([`Dlx::reset`]),
    /// then cover the new ones ([`Dlx::select_rows`]).
    #[default]
    Undo,
    /// Copy the arena as built back, then cover the clues' columns
    /// ([`Dlx::select_all`]); nothing to undo.
    Snapshot,
}

/// The Dancing Links Sudoku solver.
///
/// ```
/// use dlxbench::solvers::dlx::{DlxSolver, Placement};
/// use dlxbench::solvers::{Budget, Solver};
/// use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};
///
/// let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
/// let mut puzzle = Grid::empty(BoxShape::NINE);
/// sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
/// let mut solution = Grid::empty(BoxShape::NINE);
/// for placement in [Placement::Undo, Placement::Snapshot] {
///     let mut solver = DlxSolver::new().with_placement(placement);
///     let outcome = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
///     assert_eq!(outcome.solutions, 1);
///     assert!(sudoku::is_solution_of(&solution, &puzzle));
/// }
/// ```
#[derive(Debug, Clone, Default)]
pub struct DlxSolver {
    /// One arena per shape seen, most recent first.
    arenas: Vec<(BoxShape, Dlx)>,
    choice: ColumnChoice,
    placement: Placement,
    /// The clues' rows of the current puzzle (capacity kept between puzzles).
    clue_rows: Vec<usize>,
}

impl DlxSolver {
    /// A solver with no arena yet.
    pub fn new() -> Self {
        DlxSolver::default()
    }

    /// A solver that branches on the first open column instead of the
    /// shortest, for comparison.
    pub fn with_choice(choice: ColumnChoice) -> Self {
        DlxSolver {
            choice,
            ..DlxSolver::default()
        }
    }

    /// This solver, placing clues as `placement` says.
    pub fn with_placement(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    /// Number of arenas built so far (one per grid shape seen).
    pub fn arenas(&self) -> usize {
        self.arenas.len()
    }

    fn arena(&mut self, shape: BoxShape) -> &mut Dlx {
        let index = match self.arenas.iter().position(|(s, _)| *s == shape) {
            Some(i) => i,
            None => {
                self.arenas.push((shape, Dlx::new(&shape.exact_cover())));
                self.arenas.len() - 1
            }
        };
        &mut self.arenas[index].1
    }
}

impl Solver for DlxSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        let shape = puzzle.shape();
        let options = SearchOptions {
            limit,
            budget,
            choice: self.choice,
        };
        self.clue_rows.clear();
        for (cell, &symbol) in puzzle.cells().iter().enumerate() {
            if symbol != 0 {
                self.clue_rows.push(shape.cover_row(cell, symbol));
            }
        }
        let rows = std::mem::take(&mut self.clue_rows);
        let placement = self.placement;
        let dlx = self.arena(shape);
        // Clues that clash leave the arena with no solution.
        match placement {
            Placement::Snapshot => {
                dlx.select_all(&rows);
            }
            Placement::Undo => {
                dlx.reset();
                dlx.select_rows(&rows);
            }
        }
        let mut first = true;
        let stats = dlx.search(options, |rows| {
            if std::mem::take(&mut first) {
                solution.reset(shape);
                let cells = solution.cells_mut();
                for &row in rows {
                    let (cell, symbol) = shape.placement(row);
                    cells[cell] = symbol;
                }
            }
            ControlFlow::Continue(())
        });
        self.clue_rows = rows;
        Outcome {
            solutions: stats.solutions,
            nodes: Some(stats.nodes),
            guesses: stats.guesses,
            updates: Some(stats.updates),
            budget_exceeded: stats.budget_exceeded,
        }
    }
}
