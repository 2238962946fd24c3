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
//! nothing. Adding one: a file here with the solver and its `pub const
//! INFO`, and its module name in the list below.

use super::Board;
use crate::solvers::builtin_solvers;

builtin_solvers! { Board: dlx, backtrack }
