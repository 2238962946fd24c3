//! The built-in Sudoku solvers behind [`crate::solvers::Solver`]`<Grid>`,
//! and their registry.
//!
//! * `dlx`: Dancing Links on the exact-cover encoding of the grid;
//! * `heuristic`: bitmask backtracking, minimum remaining values;
//! * `singles`: the same with naked and hidden singles propagated;
//! * `locked`: `singles` that also removes locked candidates;
//! * `naive`: plain backtracking in reading order, the baseline.
//!
//! Adding one: a file here with the solver and its `pub const INFO`, and
//! its module name in the list below.

use super::Grid;
use crate::solvers::builtin_solvers;

builtin_solvers! { Grid: dlx, heuristic, singles, locked, naive }

#[cfg(test)]
mod tests;
