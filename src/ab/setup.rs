//! What an `ab` runs, from the names on its command line ([`Pair`]): A
//! and B, or B and a copy of itself for the A/A, and the copy made among
//! the solvers.

use super::AbError;
use crate::solvers::foreign::LibrarySpec;
use crate::solvers::process::CommandSpec;
use crate::solvers::{SolverEntry, SolverSet, SolverSetError};

/// The two solvers of an `ab A B [--aa]`, and whether an A/A of B against
/// a copy of itself runs first (`ab B B --aa`: the A/A alone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// Solver A, the reference.
    pub a: String,
    /// Solver B, checked against it.
    pub b: String,
    /// Whether the A/A runs (`--aa`).
    pub aa: bool,
}

impl Pair {
    /// `ab A B`, with `--aa` when `aa`; A and B may be the same solver
    /// only for the A/A alone ([`AbError::SameSolver`]).
    pub fn new(a: &str, b: &str, aa: bool) -> Result<Pair, AbError> {
        if a == b && !aa {
            return Err(AbError::SameSolver(a.to_string()));
        }
        Ok(Pair {
            a: a.to_string(),
            b: b.to_string(),
            aa,
        })
    }

    /// Whether the A/A runs alone (`ab B B --aa`).
    pub fn aa_only(&self) -> bool {
        self.aa && self.a == self.b
    }

    /// The name of B's copy in the A/A: `B.copy`.
    pub fn copy(&self) -> String {
        format!("{}.copy", self.b)
    }

    /// With `--aa`, for a B loaded from a library (`libs`) or run as a
    /// command (`cmds`): the same library or command again under the
    /// copy's name, so that it is loaded (and placed) as a solver of its
    /// own; a count-only B's copy is count-only too (`count_only`). A
    /// built-in B's copy is made in the set ([`Pair::add_builtin_copy`]).
    pub fn add_copy_specs(
        &self,
        libs: &mut Vec<LibrarySpec>,
        cmds: &mut Vec<CommandSpec>,
        count_only: &mut Vec<String>,
    ) {
        if !self.aa {
            return;
        }
        if let Some(spec) = libs.iter().find(|l| l.name == self.b) {
            let mut spec = spec.clone();
            spec.name = self.copy();
            libs.push(spec);
            if count_only.contains(&self.b) {
                count_only.push(self.copy());
            }
        } else if let Some(spec) = cmds.iter().find(|c| c.name == self.b) {
            let mut spec = spec.clone();
            spec.name = self.copy();
            cmds.push(spec);
        }
    }

    /// With `--aa`, when `set` has no copy of B yet (B is built in): the
    /// same solver under the copy's name.
    pub fn add_builtin_copy<P>(&self, set: &mut SolverSet<P>) -> Result<(), SolverSetError> {
        if !self.aa || set.get(&self.copy()).is_some() {
            return Ok(());
        }
        let b = set.by_name(&self.b)?.clone();
        let entry = SolverEntry::new(self.copy(), b.description().to_string(), {
            let b = b.clone();
            move || b.make()
        })
        .with_default_budget(b.default_budget());
        set.add(entry)
    }

    /// The names of the pairing measured: A and B, or B and its copy for
    /// the A/A alone.
    pub fn names(&self) -> [String; 2] {
        match self.aa_only() {
            true => [self.b.clone(), self.copy()],
            false => [self.a.clone(), self.b.clone()],
        }
    }

    /// The names of the A/A that runs before the A/B, if one does.
    pub fn aa_names(&self) -> Option<[String; 2]> {
        (self.aa && !self.aa_only()).then(|| [self.b.clone(), self.copy()])
    }

    /// What runs, in words: `A = dlx, B = dc`, `A = dlx, B = dc, after an
    /// A/A of B against dc.copy`, or `A/A of dc against a copy of itself,
    /// dc.copy,`.
    pub fn words(&self) -> String {
        match (self.aa_only(), self.aa) {
            (true, _) => format!(
                "A/A of {} against a copy of itself, {},",
                self.b,
                self.copy()
            ),
            (false, true) => format!(
                "A = {}, B = {}, after an A/A of B against {}",
                self.a,
                self.b,
                self.copy()
            ),
            (false, false) => format!("A = {}, B = {}", self.a, self.b),
        }
    }
}
