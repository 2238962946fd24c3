//! The Dancing Links Hanidoku solver: the exact-cover encoding on one
//! reused [`Dlx`] arena ([`super::engine::CoverSolver`]).

use crate::exact_cover::Dlx;
use crate::hanidoku::Board;
use crate::solvers::{Budget, SolverInfo};

/// Registry entry.
// Alike in every solver's file on purpose (as are the doc examples): one registry entry each, a
// const the registry lists.
pub const INFO: SolverInfo<Board> = SolverInfo {
    name: "dlx",
    description: "the Hanidoku exact-cover encoding on Dancing Links, clues as preselected rows",
    make: || Box::new(DlxSolver::new()),
    default_budget: Budget::SEARCH,
};

/// The Dancing Links Hanidoku solver.
pub type DlxSolver = super::engine::CoverSolver<Dlx>;
