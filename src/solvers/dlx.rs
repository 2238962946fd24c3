//! The Dancing Links solver: Sudoku as exact cover on a reused arena.
//!
//! One [`Dlx`] arena per grid shape is built the first time that shape is
//! seen and kept. A solve preselects the clues' rows (covering their columns,
//! which removes every candidate they rule out before the search starts),
//! runs Algorithm X with the minimum-remaining-values column choice, and
//! undoes the clues, so the arena is pristine again without being rebuilt.

use std::ops::ControlFlow;

use super::{Budget, Outcome, Solver, SolverInfo};
use crate::exact_cover::{ColumnChoice, Dlx, SearchOptions};
use crate::sudoku::{BoxShape, Grid};

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "dlx",
    description: "Knuth's Algorithm X on Dancing Links, minimum-remaining-values column choice",
    make: || Box::new(DlxSolver::new()),
};

/// The Dancing Links Sudoku solver.
#[derive(Debug, Clone, Default)]
pub struct DlxSolver {
    /// One arena per shape seen, most recent first.
    arenas: Vec<(BoxShape, Dlx)>,
    choice: ColumnChoice,
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
            arenas: Vec::new(),
            choice,
        }
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
    fn name(&self) -> &'static str {
        INFO.name
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        let shape = puzzle.shape();
        let options = SearchOptions {
            limit,
            max_nodes: budget.max_nodes,
            choice: self.choice,
        };
        let dlx = self.arena(shape);
        for (cell, &symbol) in puzzle.cells().iter().enumerate() {
            // A clue that clashes with an earlier one leaves the arena in a
            // no-solution state; the rest need not be placed.
            if symbol != 0 && !dlx.select(shape.cover_row(cell, symbol)) {
                break;
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
        dlx.reset();
        Outcome {
            solutions: stats.solutions,
            nodes: stats.nodes,
            guesses: stats.guesses,
            updates: Some(stats.updates),
            budget_exceeded: stats.budget_exceeded,
        }
    }
}
