//! The bitmask solver of [`heuristic`](super::heuristic) with hidden
//! singles: before branching on a cell with two or more candidates, it
//! looks for a unit in which a missing symbol has exactly one place (and
//! places it there, a forced move) or none (a dead end).
//!
//! This is minimum-remaining-values over both kinds of constraint, cells
//! and unit-symbol places, the same choice the Dancing Links `S` heuristic
//! makes over its columns, but reached by a different mechanism (bitmask
//! counting, no linked lists). Each node costs a pass over the open cells,
//! so on easy 9x9 puzzles it is slower per node than `heuristic`; on large
//! or sparse grids it visits orders of magnitude fewer nodes, which is why
//! the generator uses it to re-check 16x16 and 25x25 puzzles that
//! `heuristic` cannot prove unique in reasonable time.

use super::heuristic::HeuristicSolver;
use super::{Budget, Outcome, Solver, SolverInfo};
use crate::sudoku::Grid;

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "singles",
    description: "bitmask backtracking, branching on hidden singles (unit-symbol places) \
                  as well as minimum-remaining-values cells",
    make: || Box::new(SinglesSolver::new()),
    default_budget: Budget::SEARCH,
};

/// Bitmask backtracking with hidden singles. Working memory is kept and
/// reused between puzzles, as in [`HeuristicSolver`].
///
/// ```
/// use dlxbench::solvers::{singles::SinglesSolver, Budget, Solver};
/// use dlxbench::sudoku::{BoxShape, Grid};
///
/// let puzzle = Grid::empty(BoxShape::new(2, 2).unwrap());
/// let mut solution = Grid::empty(puzzle.shape());
/// let outcome = SinglesSolver::new().solve(&puzzle, u64::MAX, Budget::UNLIMITED, &mut solution);
/// assert_eq!(outcome.solutions, 288); // all 4x4 Sudoku grids
/// ```
#[derive(Debug, Clone, Default)]
pub struct SinglesSolver {
    inner: HeuristicSolver,
}

impl SinglesSolver {
    /// A solver with no working memory yet.
    pub fn new() -> Self {
        SinglesSolver::default()
    }
}

impl Solver for SinglesSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        self.inner
            .solve_mode::<true, true>(puzzle, limit, budget, solution)
    }
}
