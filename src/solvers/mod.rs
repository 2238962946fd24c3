//! The kind-neutral solver machinery: the [`Solver`] trait, the
//! [`SolverInfo`] registry entry, what a solve finds ([`Outcome`],
//! [`Status`]), the [`SolverSet`] a run chooses from, and solvers loaded
//! through the C interface ([`foreign`]). Nothing here depends on a
//! puzzle kind; each kind keeps its built-in solvers in its own module
//! ([`crate::sudoku::solvers`], [`crate::hanidoku::solvers`]).
//!
//! Every solver keeps its working memory between calls: after the first
//! puzzle of a given size, [`Solver::solve`] allocates nothing.
//!
//! ```
//! use dlxbench::solvers::{Budget, SolverSet};
//! use dlxbench::sudoku::{self, Grid, ParseOptions};
//!
//! let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
//! let mut puzzle = Grid::empty(sudoku::BoxShape::NINE);
//! sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
//! let mut solution = puzzle.clone();
//! for entry in SolverSet::<Grid>::builtin().entries() {
//!     let mut solver = entry.make();
//!     let outcome = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
//!     assert_eq!(outcome.solutions, 1, "{}", entry.name());
//!     assert!(sudoku::is_solution_of(&solution, &puzzle));
//! }
//! ```
//!
//! # Adding a solver
//!
//! A built-in solver of a kind: write one file in the kind's `solvers`
//! folder (`src/sudoku/solvers/mine.rs`, `src/hanidoku/solvers/mine.rs`)
//! with a type implementing [`Solver`] for the kind's puzzle type and a
//! `pub const INFO: SolverInfo<Puzzle>` (name, description, constructor,
//! default budget), then add its module name to the kind's
//! `builtin_solvers!` list in that folder's `mod.rs`. The command line,
//! the harness and the cross-checking tests pick it up from there.
//!
//! A solver known only at run time (a library's own, one loaded from a
//! shared library): add a [`SolverEntry`] to a [`SolverSet`] before the run;
//! nothing else changes.

/// True when the CPU has a population-count instruction (POPCNT), so that
/// a bitmask solver may run its `popcnt_dispatch!` build. Read once per
/// solver, when it is made.
pub(crate) fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Defines, in an `impl` block, the search `fn $search<const K: bool>(&mut
/// self, args...)` given with its body (made `#[inline(always)]`), the
/// private `search_popcnt` that is that search compiled with the CPU's
/// population-count instruction, and `fn $solve<const K: bool>(&mut self,
/// popcnt: bool, args...)`, which runs the POPCNT build when `popcnt` is
/// true and the plain one otherwise. The baseline x86-64 target has no
/// POPCNT, and the bitmask solvers count candidates at every node. Callers
/// pass `popcnt` true only when [`has_popcnt`] said so.
macro_rules! popcnt_dispatch {
    (
        $(#[$solve_attr:meta])*
        fn $solve:ident;
        $(#[$attr:meta])*
        fn $search:ident<const $K:ident: bool>(&mut $self:ident, $($arg:ident: $ty:ty),* $(,)?)
            -> $out:ty $body:block
    ) => {
        $(#[$solve_attr])*
        fn $solve<const $K: bool>(&mut self, popcnt: bool, $($arg: $ty),*) -> $out {
            #[cfg(target_arch = "x86_64")]
            if popcnt {
                // SAFETY: `popcnt` is true only when the CPU was found to
                // support POPCNT (see the macro's docs).
                return unsafe { self.search_popcnt::<$K>($($arg),*) };
            }
            let _ = popcnt;
            self.$search::<$K>($($arg),*)
        }

        /// The search compiled with POPCNT (see `popcnt_dispatch!`).
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt")]
        fn search_popcnt<const $K: bool>(&mut self, $($arg: $ty),*) -> $out {
            self.$search::<$K>($($arg),*)
        }

        $(#[$attr])*
        #[inline(always)]
        fn $search<const $K: bool>(&mut $self, $($arg: $ty),*) -> $out $body
    };
}
pub(crate) use popcnt_dispatch;

/// Declares a kind's built-in solvers, in the order reports list them: for
/// each name a module `pub mod NAME;` (a file beside the invoking `mod.rs`)
/// holding the solver and its `pub const INFO`, the kind's `REGISTRY` of
/// those entries, and the kind's [`Builtin`] implementation. Registering a
/// solver is adding its name here.
macro_rules! builtin_solvers {
    ($puzzle:ty: $($module:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// The built-in solvers of this kind, in the order reports list them.
        pub const REGISTRY: &[$crate::solvers::SolverInfo<$puzzle>] = &[$($module::INFO),+];

        impl $crate::solvers::Builtin for $puzzle {
            const SOLVERS: &'static [$crate::solvers::SolverInfo<$puzzle>] = REGISTRY;
        }
    };
}
pub(crate) use builtin_solvers;

mod elf;
pub mod foreign;
#[cfg(unix)]
pub mod host;
mod set;

pub use set::{Builtin, SolverEntry, SolverSet, SolverSetError};

pub use crate::budget::{Budget, Meter};

use std::time::Duration;

use crate::clock::Instant;
use crate::exact_cover::SearchStats;

/// What one solve found and what it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// Search nodes: placements tried below the clues. Each solver counts
    /// its own kind of node, so compare nodes within a solver, not across.
    /// `None` for a solver that does not report them (one loaded through
    /// the C interface): not recorded, which is not zero.
    pub nodes: Option<u64>,
    /// Branch points: nodes at which the solver had more than one candidate
    /// to try.
    pub guesses: u64,
    /// Dancing Links link updates, for solvers that have them.
    pub updates: Option<u64>,
    /// The solve stopped at its [`Budget`]; `solutions` is then a lower bound.
    pub budget_exceeded: bool,
}

/// What one solve of one puzzle came to: the status written to result
/// files (`puzzles.csv`) and shown by every subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// A solution was found (limit 1: uniqueness not checked).
    Solved,
    /// Exactly one solution (proved only when the limit was 2 or more).
    Unique,
    /// Two or more solutions (at least the limit, when counting).
    Multiple,
    /// No solution exists.
    NoSolution,
    /// The budget ran out before the search ended.
    Budget,
    /// The solver returned a grid that is not a solution of the puzzle
    /// (set by the validation after the solve, never by a solver).
    Invalid,
    /// The solver does not take puzzles like this one (a solver loaded
    /// through the 9x9 C interface, given a 16x16 grid): not run, not
    /// timed, left out of the statistics and the cross-check.
    NotApplicable,
}

impl Status {
    /// Every status, in the order above.
    pub const ALL: [Status; 7] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::NoSolution,
        Status::Budget,
        Status::Invalid,
        Status::NotApplicable,
    ];

    /// Lower-case name used in files and terminal output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::NoSolution => "none",
            Status::Budget => "budget",
            Status::Invalid => "invalid",
            Status::NotApplicable => "n/a",
        }
    }

    /// The status named `name` (as [`Status::as_str`] writes it).
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Outcome {
    /// Nothing found, at no cost: zero nodes (recorded), no updates.
    fn default() -> Self {
        Outcome {
            solutions: 0,
            nodes: Some(0),
            guesses: 0,
            updates: None,
            budget_exceeded: false,
        }
    }
}

impl From<SearchStats> for Outcome {
    /// What an exact-cover search found, as a solve's outcome (nodes and
    /// link updates recorded).
    fn from(stats: SearchStats) -> Self {
        Outcome {
            solutions: stats.solutions,
            nodes: Some(stats.nodes),
            guesses: stats.guesses,
            updates: Some(stats.updates),
            budget_exceeded: stats.budget_exceeded,
        }
    }
}

impl Outcome {
    /// The status of this outcome when solutions were counted up to
    /// `limit`: with limit 1 a found solution is only `Solved`.
    #[inline]
    pub fn status(&self, limit: u64) -> Status {
        match (self.budget_exceeded, self.solutions) {
            (true, _) => Status::Budget,
            (false, 0) => Status::NoSolution,
            (false, _) if limit == 1 => Status::Solved,
            (false, 1) => Status::Unique,
            (false, _) => Status::Multiple,
        }
    }
}

/// A solver that the harness can drive, for puzzles of type `P` (a kind's
/// puzzle type: [`crate::sudoku::Grid`], [`crate::hanidoku::Board`]).
pub trait Solver<P>: Send {
    /// Solves `puzzle`, counting solutions up to `limit` (`u64::MAX` for all)
    /// within `budget`. The first solution found, if any, is written into
    /// `solution` (reusing its buffer); otherwise `solution` is left
    /// unspecified.
    ///
    /// Clues that break the rules give zero solutions, never a panic.
    fn solve(&mut self, puzzle: &P, limit: u64, budget: Budget, solution: &mut P) -> Outcome;

    /// [`Solver::solve`], and how long the solve itself took: what a
    /// benchmark reports. By default the whole call. A solver with work
    /// around its search that is not the algorithm's (encoding the puzzle
    /// for a foreign interface and decoding its answer) times the search
    /// alone. The clock is read inside the solver's own code, after the
    /// dynamic dispatch, so the call's overhead is not timed either.
    #[inline]
    fn solve_timed(
        &mut self,
        puzzle: &P,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) -> (Outcome, Duration) {
        let started = Instant::now();
        let outcome = self.solve(puzzle, limit, budget, solution);
        (outcome, started.elapsed())
    }

    /// False when this solver cannot take puzzles like `puzzle` at all (a
    /// solver loaded through the 9x9 C interface, given a 16x16 grid):
    /// callers then leave it out for that puzzle instead of calling
    /// [`Solver::solve`]. True by default.
    fn accepts(&self, _puzzle: &P) -> bool {
        true
    }

    /// False for a solver that returns solution counts but no solution (a
    /// loaded solver marked count-only: some C solvers write no solution
    /// when asked for more than one). Callers then validate nothing but
    /// still cross-check the count. True by default.
    fn returns_solutions(&self) -> bool {
        true
    }
}

/// A registry entry: a name, a one-line description and a constructor (for
/// solvers of puzzles of type `P`).
pub struct SolverInfo<P: 'static> {
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

#[cfg(test)]
mod tests;
