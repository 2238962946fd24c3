//! The Dancing Links Hanidoku solver: the exact-cover encoding on one
//! reused arena.
//!
//! The arena is built once, when the solver is made. A solve preselects the
//! clues' rows ([`Dlx::select`]; a clue that clashes with an earlier one,
//! a repeat or two digits too far apart in a line, makes the puzzle
//! unsolvable), runs the search, and undoes the clues ([`Dlx::reset`]), so
//! nothing is allocated per puzzle.

use std::ops::ControlFlow;

use crate::exact_cover::{ColumnChoice, Dlx, SearchOptions};
use crate::hanidoku::{cover_row, exact_cover, placement, Board};
use crate::solvers::{Budget, Outcome, Solver, SolverInfo};

/// Registry entry.
pub const INFO: SolverInfo<Board> = SolverInfo {
    name: "dlx",
    description: "the Hanidoku exact-cover encoding on Dancing Links, clues as preselected rows",
    make: || Box::new(DlxSolver::new()),
    default_budget: Budget::SEARCH,
};

/// The Dancing Links Hanidoku solver.
#[derive(Debug, Clone)]
pub struct DlxSolver {
    dlx: Dlx,
    choice: ColumnChoice,
}

impl Default for DlxSolver {
    fn default() -> Self {
        DlxSolver::new()
    }
}

impl DlxSolver {
    /// A solver with its arena built.
    pub fn new() -> Self {
        DlxSolver::with_choice(ColumnChoice::MinimumRemaining)
    }

    /// A solver that picks columns with `choice`.
    pub fn with_choice(choice: ColumnChoice) -> Self {
        DlxSolver {
            dlx: Dlx::new(&exact_cover()),
            choice,
        }
    }

    /// Bytes held by the arena.
    pub fn arena_bytes(&self) -> usize {
        self.dlx.arena_bytes()
    }
}

impl Solver<Board> for DlxSolver {
    fn solve(
        &mut self,
        puzzle: &Board,
        limit: u64,
        budget: Budget,
        solution: &mut Board,
    ) -> Outcome {
        let options = SearchOptions {
            limit,
            budget,
            choice: self.choice,
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 && !self.dlx.select(cover_row(cell, digit)) {
                break;
            }
        }
        let mut first = true;
        let stats = self.dlx.search(options, |rows| {
            if std::mem::take(&mut first) {
                *solution = Board::EMPTY;
                for &row in rows {
                    let (cell, digit) = placement(row);
                    solution.cells[cell] = digit;
                }
            }
            ControlFlow::Continue(())
        });
        self.dlx.reset();
        Outcome::from(stats)
    }
}
