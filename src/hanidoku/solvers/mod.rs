//! Hanidoku solvers behind [`crate::solvers::Solver`]`<Board>`, and their
//! registry.
//!
//! Two solvers that share no code, so the harness can cross-check their
//! solution counts and the generator can verify with one what it made with
//! the other:
//!
//! * `dlx`: the exact-cover encoding ([`crate::hanidoku::exact_cover`]) on
//!   one [`crate::exact_cover::Dlx`] arena built when the solver is made;
//! * `backtrack`: bitmask backtracking over cells and line-digit places.
//!
//! Both keep their working memory between puzzles: a solve allocates
//! nothing.

pub mod backtrack;
pub mod dlx;

use super::Board;
use crate::solvers::{Builtin, SolverInfo};

/// The built-in Hanidoku solvers, in the order reports list them.
pub const REGISTRY: &[SolverInfo<Board>] = &[dlx::INFO, backtrack::INFO];

impl Builtin for Board {
    const SOLVERS: &'static [SolverInfo<Board>] = REGISTRY;
}
