//! Sudoku solvers behind one trait, and the registry that names them.
//!
//! Every solver keeps its working memory between calls: after the first
//! puzzle of a given size, [`Solver::solve`] allocates nothing.
//!
//! ```
//! use dlxbench::solvers::{self, Budget};
//! use dlxbench::sudoku::{self, Grid, ParseOptions};
//!
//! let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
//! let mut puzzle = Grid::empty(sudoku::BoxShape::NINE);
//! sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
//! let mut solution = puzzle.clone();
//! for info in solvers::REGISTRY {
//!     let mut solver = (info.make)();
//!     let outcome = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
//!     assert_eq!(outcome.solutions, 1, "{}", info.name);
//!     assert!(sudoku::is_solution_of(&solution, &puzzle));
//! }
//! ```
//!
//! # Adding a solver
//!
//! Write `src/solvers/mine.rs` with a type implementing [`Solver`] and a
//! `pub const INFO: SolverInfo` (name, description, constructor, default
//! budget), then add `pub mod mine;` and `mine::INFO` to [`REGISTRY`] below.
//! The command line, the harness and the cross-checking tests pick it up
//! from the registry.

pub mod dlx;
pub mod heuristic;
pub mod naive;
pub mod singles;

use crate::sudoku::Grid;

/// A bound on the work one solve may do, in search nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Most search nodes (placements tried) one solve may make.
    pub max_nodes: u64,
}

impl Budget {
    /// No bound.
    pub const UNLIMITED: Budget = Budget {
        max_nodes: u64::MAX,
    };

    /// At most `max_nodes` search nodes.
    pub const fn nodes(max_nodes: u64) -> Self {
        Budget { max_nodes }
    }
}

/// What one solve found and what it cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// Search nodes: placements tried below the clues. Each solver counts
    /// its own kind of node, so compare nodes within a solver, not across.
    pub nodes: u64,
    /// Branch points: nodes at which the solver had more than one candidate
    /// to try (for `naive`, which never counts candidates ahead, the nodes at
    /// which it went on to a second candidate).
    pub guesses: u64,
    /// Dancing Links link updates, for solvers that have them.
    pub updates: Option<u64>,
    /// The solve stopped at its [`Budget`]; `solutions` is then a lower bound.
    pub budget_exceeded: bool,
}

/// The classification of an [`Outcome`] for a given solution limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// No solution exists.
    NoSolution,
    /// Exactly one solution (proved only when the limit was 2 or more).
    Unique,
    /// Two or more solutions.
    Multiple,
    /// The budget ran out before the search ended.
    Budget,
}

impl Status {
    /// Lower-case name used in CSV and terminal output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::NoSolution => "none",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Budget => "budget",
        }
    }
}

impl Outcome {
    /// The status of this outcome.
    pub fn status(&self) -> Status {
        match (self.budget_exceeded, self.solutions) {
            (true, _) => Status::Budget,
            (false, 0) => Status::NoSolution,
            (false, 1) => Status::Unique,
            (false, _) => Status::Multiple,
        }
    }
}

/// A solver that the harness can drive, for puzzles of type `P`: Sudoku
/// [`Grid`]s by default, or another kind such as
/// [`crate::hanidoku::Board`].
pub trait Solver<P = Grid>: Send {
    /// The registry name.
    fn name(&self) -> &'static str;

    /// Solves `puzzle`, counting solutions up to `limit` (`u64::MAX` for all)
    /// within `budget`. The first solution found, if any, is written into
    /// `solution` (reusing its buffer); otherwise `solution` is left
    /// unspecified.
    ///
    /// Clues that break the rules give zero solutions, never a panic.
    fn solve(&mut self, puzzle: &P, limit: u64, budget: Budget, solution: &mut P) -> Outcome;
}

/// A registry entry: a name, a one-line description and a constructor (for
/// solvers of puzzles of type `P`, Sudoku grids by default).
pub struct SolverInfo<P: 'static = Grid> {
    /// Name used on the command line and in result files.
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub description: &'static str,
    /// Makes a fresh solver (with empty working memory).
    pub make: fn() -> Box<dyn Solver<P>>,
    /// The node budget the harness gives it when none is asked for:
    /// [`Budget::UNLIMITED`] for a solver that finishes any corpus, a bound
    /// for an exhaustive baseline that could run for minutes on one puzzle.
    pub default_budget: Budget,
}

impl<P> Clone for SolverInfo<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for SolverInfo<P> {}

impl<P> std::fmt::Debug for SolverInfo<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverInfo")
            .field("name", &self.name)
            .field("default_budget", &self.default_budget)
            .finish()
    }
}

/// Every solver, in the order reports list them.
pub const REGISTRY: &[SolverInfo] = &[dlx::INFO, heuristic::INFO, singles::INFO, naive::INFO];

/// Looks a solver up by name.
pub fn by_name(name: &str) -> Option<&'static SolverInfo> {
    REGISTRY.iter().find(|info| info.name == name)
}

/// The registry's names, comma-separated, for messages.
pub fn names() -> String {
    REGISTRY
        .iter()
        .map(|info| info.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
