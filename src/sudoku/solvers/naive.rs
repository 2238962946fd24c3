//! The textbook baseline: plain depth-first backtracking.
//!
//! Empty cells are filled in reading order; each takes its candidates (the
//! symbols no cell of its row, column or box holds) lowest first. There is
//! no cell choice heuristic and no propagation: this is the solver the
//! others are measured against.
//!
//! It is the search of tdoku's basic solver without its
//! minimum-remaining-values flag (`TdokuSolverBasic`, flags 0), node for
//! node: the same cells in the same order, the same symbols in the same
//! order (tdoku's guess count, computed by a build that counted so, equals
//! tdoku's on every puzzle of the first 100 of top1465 and of the forum's
//! hardest). It runs on the engine of [`crate::sudoku::solvers::heuristic`] with the
//! cell choice turned off: row/column/box candidate bitmasks (a dedicated
//! 9x9 core, `u32`/`u64`/`u128` masks for the other sizes), an iterative
//! search, working memory reused between puzzles (after the first puzzle of
//! a given size a solve allocates nothing). Until 2026-11 it found a
//! symbol's validity by scanning the row, column and box instead, which
//! gave the same nodes at about ten times the cost.

use super::heuristic::HeuristicSolver;
use crate::solvers::{Budget, Outcome, Solver, SolverInfo};
use crate::sudoku::Grid;

/// Node budget the harness gives `naive` unless told otherwise: plain
/// backtracking takes minutes on some hard puzzles and hours over the
/// 17-clue list; 100,000 nodes is under a millisecond of it on a 9x9 grid
/// (measured: 1,809,560 nodes in 15 ms), which bounds a default run of
/// `naive` on the 49,158 17-clue puzzles to under a minute. Puzzles it
/// cannot solve within that are reported over budget, apart from the
/// timings.
pub const DEFAULT_BUDGET: u64 = 100_000;

/// Registry entry.
pub const INFO: SolverInfo<Grid> = SolverInfo {
    name: "naive",
    description: "plain backtracking: cells in reading order, candidates in order, no cell choice",
    make: || Box::new(NaiveSolver::new()),
    default_budget: Budget::nodes(DEFAULT_BUDGET).with_time(Budget::SAFETY_TIME),
};

/// The plain backtracking Sudoku solver.
#[derive(Debug, Clone, Default)]
pub struct NaiveSolver {
    inner: HeuristicSolver,
}

impl NaiveSolver {
    /// A solver with no working memory yet.
    pub fn new() -> Self {
        NaiveSolver::default()
    }
}

impl Solver<Grid> for NaiveSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        self.inner
            .solve_mode::<false>(puzzle, limit, budget, solution)
    }
}
