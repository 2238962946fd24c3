//! The built-in Sudoku solvers behind [`crate::solvers::Solver`]`<Grid>`,
//! and their registry.
//!
//! * `dlx`: Dancing Links on the exact-cover encoding of the grid;
//! * `dc`: dancing cells (sparse sets) on the same encoding, the same
//!   solver on another engine ([`engine::CoverSolver`]);
//! * `heuristic`: bitmask backtracking, minimum remaining values;
//! * `singles`: the same with naked and hidden singles propagated;
//! * `locked`: `singles` that also removes locked candidates;
//! * `naive`: plain backtracking in reading order, the baseline.
//!
//! Adding one: a file here with the solver and its `pub const INFO`, and
//! its module name in the list below. `engine` is not a solver: the
//! exact-cover solver that `dlx` and `dc` instantiate.

use super::Grid;
use crate::solvers::builtin_solvers;

pub mod engine;

builtin_solvers! { Grid: dlx, dc, heuristic, singles, locked, naive }

#[cfg(test)]
mod tests;
