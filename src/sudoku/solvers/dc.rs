//! The dancing-cells solver: Sudoku as exact cover on a reused [`Dc`]
//! arena (Knuth's sparse-set successor to Dancing Links), with the same
//! encoding, clue placement and search as `dlx`
//! ([`super::engine::CoverSolver`]): the two differ in their engine alone.
//!
//! Under the lowest-index column choice the two explore the same tree,
//! node for node; under their default choices (minimum remaining values,
//! ties at a branch point broken by reach in both, forced columns taken
//! newest first by `dlx` and lowest first by `dc`) their trees differ a
//! little, so compare their nodes under `ColumnChoice::LowestIndex`.

use crate::exact_cover::Dc;
use crate::solvers::{Budget, SolverInfo};
use crate::sudoku::Grid;

/// Registry entry.
// Alike in every solver's file on purpose (as are the doc examples): one registry entry each, a
// const the registry lists.
pub const INFO: SolverInfo<Grid> = SolverInfo {
    name: "dc",
    description: "Knuth's dancing cells (Algorithm X on sparse sets), minimum-remaining-values choice",
    make: || Box::new(DcSolver::new()),
    default_budget: Budget::SEARCH,
};

/// The dancing-cells Sudoku solver.
///
/// ```
/// use dlxbench::sudoku::solvers::dc::DcSolver;
/// use dlxbench::solvers::{Budget, Solver};
/// use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};
///
/// let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
/// let mut puzzle = Grid::empty(BoxShape::NINE);
/// sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
/// let mut solution = Grid::empty(BoxShape::NINE);
/// let outcome = DcSolver::new().solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
/// assert_eq!(outcome.solutions, 1);
/// assert!(outcome.updates.is_some());
/// assert!(sudoku::is_solution_of(&solution, &puzzle));
/// ```
pub type DcSolver = super::engine::CoverSolver<Dc>;
