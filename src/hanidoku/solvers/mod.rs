//! Hanidoku solvers behind [`crate::solvers::Solver`]`<Board>`, and their
//! registry.
//!
//! Two kinds of solver that share no code, so the harness can cross-check
//! their solution counts and the generator can verify with one what it made
//! with the other:
//!
//! * `dlx`: the exact-cover encoding ([`crate::hanidoku::exact_cover`]) on
//!   one [`crate::exact_cover::Dlx`] arena built when the solver is made;
//! * `dc`: the same solver ([`engine::CoverSolver`]) on a
//!   [`crate::exact_cover::Dc`] arena (dancing cells);
//! * `backtrack`: bitmask backtracking over cells and line-digit places.
//!
//! All keep their working memory between puzzles: a solve allocates
//! nothing. Adding one: a file here with the solver and its `pub const
//! INFO`, and its module name in the list below (`engine` is the
//! exact-cover solver `dlx` and `dc` instantiate, not a solver).

use super::Board;
use crate::solvers::builtin_solvers;

pub mod engine;

builtin_solvers! { Board: dlx, dc, backtrack }
