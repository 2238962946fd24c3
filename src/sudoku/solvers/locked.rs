//! The [`singles`](super::singles) solver plus locked candidates: before
//! each guess, a symbol whose places in a row or column all lie in one box
//! is removed from the rest of that box (claiming), and one whose places in
//! a box all lie in one row or column from the rest of that line
//! (pointing); then the singles rules run again. The rules of JSolve and
//! bb_sudoku, which tdoku's benchmark bundles: fewer guesses than `singles`
//! at the cost of a pass over the line segments at every fixpoint.
//!
//! ```
//! use dlxbench::solvers::{Budget, Solver};
//! use dlxbench::sudoku::solvers::locked;
//! use dlxbench::sudoku::{BoxShape, Grid};
//!
//! let puzzle = Grid::empty(BoxShape::new(2, 3).unwrap());
//! let mut solution = Grid::empty(puzzle.shape());
//! let outcome = (locked::INFO.make)().solve(&puzzle, 1, Budget::UNLIMITED, &mut solution);
//! assert_eq!(outcome.solutions, 1);
//! assert!(dlxbench::sudoku::is_solution_of(&solution, &puzzle));
//! ```

use super::singles::SinglesSolver;
use crate::solvers::{Budget, SolverInfo};
use crate::sudoku::Grid;

/// Registry entry.
pub const INFO: SolverInfo<Grid> = SolverInfo {
    name: "locked",
    description: "the singles solver plus locked candidates (pointing and claiming)",
    make: || Box::new(SinglesSolver::with_locked_candidates()),
    default_budget: Budget::SEARCH,
};
