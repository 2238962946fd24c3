//! The dancing-cells Hanidoku solver: the exact-cover encoding on one
//! reused [`Dc`] arena ([`super::engine::CoverSolver`]), the same solver as
//! `dlx` on Knuth's sparse-set engine.

use crate::exact_cover::Dc;
use crate::hanidoku::Board;
use crate::solvers::{Budget, SolverInfo};

/// Registry entry.
// Alike in every solver's file on purpose (as are the doc examples): one registry entry each, a
// const the registry lists.
pub const INFO: SolverInfo<Board> = SolverInfo {
    name: "dc",
    description: "the Hanidoku exact-cover encoding on dancing cells (sparse sets), clues as preselected rows",
    make: || Box::new(DcSolver::new()),
    default_budget: Budget::SEARCH,
};

/// The dancing-cells Hanidoku solver.
pub type DcSolver = super::engine::CoverSolver<Dc>;
