//! The Dancing Links solver: Sudoku as exact cover on a reused [`Dlx`]
//! arena ([`super::engine::CoverSolver`], which `dc` shares with another
//! engine), minimum-remaining-values column choice. The clues are placed
//! in one of two ways ([`Placement`]):
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

use crate::exact_cover::Dlx;
use crate::solvers::{Budget, SolverInfo};
use crate::sudoku::Grid;

pub use super::engine::Placement;

/// Registry entry.
// Alike in every solver's file on purpose (as are the doc examples): one registry entry each, a
// const the registry lists.
pub const INFO: SolverInfo<Grid> = SolverInfo {
    name: "dlx",
    description: "Knuth's Algorithm X on Dancing Links, minimum-remaining-values column choice",
    make: || Box::new(DlxSolver::new()),
    default_budget: Budget::SEARCH,
};

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
pub type DlxSolver = super::engine::CoverSolver<Dlx>;
