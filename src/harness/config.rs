//! How a run is set up: the [`Mode`], the [`Config`] (what the reports say
//! about a run besides its results) and the [`Lineup`] (who runs).

use super::{HarnessError, Schedule};
use crate::puzzle::Puzzle;
use crate::shard::Shard;
use crate::solvers::{Budget, SolverEntry};

/// How many solutions to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Stop at the first solution (limit 1).
    First,
    /// Stop at the second solution (limit 2): proves uniqueness.
    #[default]
    Unique,
    /// Count all solutions, up to a limit.
    Count,
}

impl Mode {
    /// Lower-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::First => "first",
            Mode::Unique => "unique",
            Mode::Count => "count",
        }
    }

    /// The mode [`Mode::as_str`] names.
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::First, Mode::Unique, Mode::Count]
            .into_iter()
            .find(|m| m.as_str() == name)
    }
}

/// How to run: what the reports say about a run besides its results.
#[derive(Debug, Clone)]
pub struct Config {
    /// The kind of puzzle the corpora hold ([`Puzzle::NAME`]).
    pub kind: &'static str,
    /// The names of the [`Lineup`]'s solvers, in its order.
    pub solvers: Vec<String>,
    /// Their one-line descriptions ([`SolverEntry::description`]: for a
    /// loaded solver, where it was loaded from), in the same order.
    pub descriptions: Vec<String>,
    /// One node budget per solver of the [`Lineup`], in its order.
    pub budgets: Vec<Budget>,
    /// The standard-error log file of each solver in its own process
    /// ([`SolverEntry::log_file`]'s name), in the same order; `None` for
    /// the others. Empty is the same as all `None`.
    pub log_files: Vec<Option<String>>,
    /// Worker threads (0: all cores); never more than the largest corpus
    /// has chunks ([`RunResult::threads`] says how many ran).
    pub threads: usize,
    /// Mode.
    pub mode: Mode,
    /// Solution limit passed to the solvers (1 for `first`, 2 for `unique`).
    pub limit: u64,
    /// Puzzles from the start of each corpus that every worker solves
    /// untimed (and validates) before measuring.
    pub warmup: usize,
    /// Passes per chunk; the minimum time per puzzle and solver is kept.
    pub passes: u32,
    /// Seed for a reproducible shuffle of the puzzle order.
    pub shuffle: Option<u64>,
    /// Seed for replacing each puzzle by a random symmetry image.
    pub permute: Option<u64>,
    /// Symmetry images solved per puzzle (`--images`; needs `permute`):
    /// 1 solves the one image `permute` makes, K more than 1 also K-1
    /// images of seeds derived from it ([`images`]), whose rows go to
    /// [`CorpusResult::images`] alone.
    pub images: u32,
    /// The order in which the solvers take the puzzles.
    pub schedule: Schedule,
    /// The part of every corpus to run (none: all of it).
    pub shard: Option<Shard>,
    /// The pipe's median round trip measured before the run, ns (0: not
    /// measured): the floor under a solver in its own process, for the
    /// check of its own times ([`own_time`]).
    pub round_trip_floor_ns: f64,
}

impl Config {
    /// Checks that this configuration describes `lineup`: its kind, its
    /// solvers' names in order, one budget per solver, and no more solvers
    /// than a [`super::Record`] can name. [`super::run`] and
    /// [`super::estimate`] check it first.
    ///
    /// A check when the run starts, not a type that cannot disagree: a
    /// `Config` is also a run's description read back from its result
    /// files, with no lineup ([`crate::results`], `merge`), and its budgets
    /// are the caller's choice per solver ([`Config::new`] gives each
    /// solver's default), so the two are made apart and meet here.
    pub fn check_lineup<P: Puzzle>(&self, lineup: &Lineup<P>) -> Result<(), HarnessError> {
        if lineup.solvers.len() != self.budgets.len() {
            return Err(HarnessError::Config(
                "one budget per solver is needed".into(),
            ));
        }
        if lineup.solvers.len() > usize::from(u16::MAX) {
            return Err(HarnessError::Config("too many solvers".into()));
        }
        if self.solvers.iter().map(String::as_str).ne(lineup.names()) {
            return Err(HarnessError::Config(
                "the configuration names other solvers than the lineup".into(),
            ));
        }
        if self.kind != P::NAME {
            return Err(HarnessError::Config(format!(
                "the configuration is for {}, the solvers solve {}",
                self.kind,
                P::NAME
            )));
        }
        Ok(())
    }

    /// Defaults for `lineup`: mode `unique`, each solver's default budget
    /// ([`SolverEntry::default_budget`]), all cores, one pass.
    pub fn new<P: Puzzle>(lineup: &Lineup<P>) -> Self {
        Config {
            kind: P::NAME,
            solvers: lineup.names().into_iter().map(String::from).collect(),
            descriptions: lineup
                .solvers
                .iter()
                .map(|s| s.description().to_string())
                .collect(),
            budgets: lineup
                .solvers
                .iter()
                .map(SolverEntry::default_budget)
                .collect(),
            log_files: lineup
                .solvers
                .iter()
                .map(|s| s.log_file().map(|l| l.name().to_string()))
                .collect(),
            threads: 0,
            mode: Mode::Unique,
            limit: 2,
            warmup: 0,
            passes: 1,
            shuffle: None,
            permute: None,
            images: 1,
            schedule: Schedule::default(),
            shard: None,
            round_trip_floor_ns: 0.0,
        }
    }
}

/// Who runs: the solvers of a run, in report order, all of one puzzle
/// type, and how to parse the corpora's puzzles.
#[derive(Debug, Clone)]
pub struct Lineup<P: Puzzle> {
    /// The solvers.
    pub solvers: Vec<SolverEntry<P>>,
    /// Parse options.
    pub options: P::Options,
}

impl<P: Puzzle> Lineup<P> {
    /// `solvers` with the default parse options.
    pub fn new(solvers: Vec<SolverEntry<P>>) -> Self {
        Lineup {
            solvers,
            options: P::Options::default(),
        }
    }

    /// The solvers' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.solvers.iter().map(SolverEntry::name).collect()
    }
}
