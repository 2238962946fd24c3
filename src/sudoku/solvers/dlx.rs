//! The Dancing Links solver: Sudoku as exact cover on a reused arena.
//!
//! One [`Dlx`] arena per grid shape is built the first time that shape is
//! seen and kept; every later puzzle of that shape reuses it, with no
//! allocation. The clues are preset rows, placed before the search so that
//! every candidate a clue rules out is gone when it starts; then Algorithm X
//! runs with the minimum-remaining-values column choice
//! ([`Dlx::search_deferred`]: the search stops when nothing is left to try,
//! leaving its last path covered, since the next puzzle's placement replaces
//! or undoes the arena anyway). The clues are placed in one of two ways
//! ([`Placement`]):
//!
//! * [`Placement::Relink`] (the default): [`Dlx::select_all`] empties every
//!   column list, marks the rows of the clues' columns as removed (a byte
//!   per row) and links the other rows back in row order: the lists exactly
//!   as covering the clues would leave them, at the cost of linking what
//!   is kept (about 300 of 729 rows for a 17-clue 9x9) rather than unlinking
//!   what is removed and relinking it after the search.
//! * [`Placement::Undo`]: [`Dlx::reset`] undoes what the previous search
//!   left and uncovers the previous puzzle's clues in reverse order
//!   (Knuth's undo), then [`Dlx::select_rows`] covers the new ones.
//!
//! Both leave the arena in the same state, so the searches are the same
//! node for node, with the same link updates (a test checks it). On the
//! 17-clue list, relinking and the deferred undo together cut the time
//! outside the search from about 28% of `dlx`'s profile (`select` and
//! `reset`) to about 19% (`select_all`), and `dlx`'s mean time by about a
//! quarter (figures in the README).

use std::ops::ControlFlow;

use crate::solvers::{Budget, Outcome, Solver, SolverInfo};
use crate::exact_cover::{ColumnChoice, Dlx, SearchOptions};
use crate::sudoku::{BoxShape, Grid};

/// Registry entry.
pub const INFO: SolverInfo<Grid> = SolverInfo {
    name: "dlx",
    description: "Knuth's Algorithm X on Dancing Links, minimum-remaining-values column choice",
    make: || Box::new(DlxSolver::new()),
    default_budget: Budget::SEARCH,
};

/// How the clues are placed and the arena returned to its pristine state
/// between puzzles (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Undo the previous search and clues ([`Dlx::reset`]), then cover the
    /// new clues' columns ([`Dlx::select_rows`]).
    Undo,
    /// Relink the rows the clues leave into emptied lists
    /// ([`Dlx::select_all`]); nothing to undo.
    #[default]
    Relink,
}

/// The Dancing Links Sudoku solver.
///
/// ```
/// use dlxbench::sudoku::solvers::dlx::{DlxSolver, Placement};
/// use dlxbench::solvers::{Budget, Solver};
/// use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};
///
/// let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
/// let mut puzzle = Grid::empty(BoxShape::NINE);
/// sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
/// let mut solution = Grid::empty(BoxShape::NINE);
/// for placement in [Placement::Relink, Placement::Undo] {
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

impl Solver<Grid> for DlxSolver {
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
            Placement::Relink => {
                dlx.select_all(&rows);
            }
            Placement::Undo => {
                dlx.reset();
                dlx.select_rows(&rows);
            }
        }
        let mut first = true;
        // The next puzzle's placement starts over (`select_all`) or undoes
        // what this search left (`reset`), so it need not undo it itself.
        let stats = dlx.search_deferred(options, |rows| {
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
        Outcome::from(stats)
    }
}
