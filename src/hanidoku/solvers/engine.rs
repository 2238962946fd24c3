//! The Hanidoku exact-cover encoding on one reused arena, on either engine:
//! the solver behind `dlx` ([`Dlx`](crate::exact_cover::Dlx)) and `dc`
//! ([`Dc`](crate::exact_cover::Dc)), one code path so that the two differ
//! in their engine alone.
//!
//! The arena is built once, when the solver is made. A solve preselects the
//! clues' rows ([`Engine::select`]; a clue that clashes with an earlier one,
//! a repeat or two digits too far apart in a line, makes the puzzle
//! unsolvable), runs the search, and undoes the clues ([`Engine::reset`]),
//! so nothing is allocated per puzzle.

use std::ops::ControlFlow;

use crate::exact_cover::{ColumnChoice, Engine, SearchOptions};
use crate::hanidoku::{cover_row, exact_cover, placement, Board};
use crate::solvers::{Budget, Outcome, Solver};

/// The exact-cover Hanidoku solver on engine `E` (`dlx`:
/// [`super::dlx::DlxSolver`], `dc`: [`super::dc::DcSolver`]).
#[derive(Debug, Clone)]
pub struct CoverSolver<E> {
    arena: E,
    choice: ColumnChoice,
}

impl<E: Engine> Default for CoverSolver<E> {
    fn default() -> Self {
        CoverSolver::new()
    }
}

impl<E: Engine> CoverSolver<E> {
    /// A solver with its arena built.
    pub fn new() -> Self {
        CoverSolver::with_choice(ColumnChoice::MinimumRemaining)
    }

    /// A solver that picks columns with `choice`.
    pub fn with_choice(choice: ColumnChoice) -> Self {
        CoverSolver {
            arena: E::try_new(&exact_cover()).expect("the Hanidoku encoding fits any engine"),
            choice,
        }
    }

    /// Every heap byte the arena holds.
    pub fn arena_bytes(&self) -> usize {
        self.arena.heap_bytes()
    }
}

// Repeats the signatures of `Solver`'s methods, as every solver does (trait impl).
impl<E: Engine + Send> Solver<Board> for CoverSolver<E> {
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
            if digit != 0 && !self.arena.select(cover_row(cell, digit)) {
                break;
            }
        }
        let mut first = true;
        let stats = self.arena.search(options, |rows| {
            if std::mem::take(&mut first) {
                *solution = Board::EMPTY;
                for &row in rows {
                    let (cell, digit) = placement(row);
                    solution.cells[cell] = digit;
                }
            }
            ControlFlow::Continue(())
        });
        self.arena.reset();
        Outcome::from(stats)
    }
}
