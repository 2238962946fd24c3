//! How a run is set up: the [`Mode`], the [`Config`] (what the reports say
//! about a run besides its results), the [`Lineup`] (who runs) and the
//! [`Setup`] that holds the two, made to agree.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use super::Schedule;
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
    // What describes the lineup: private, made from a lineup
    // ([`Config::new`]) or read back from a run's files
    // ([`Config::described`]); read through the methods of the same names.
    kind: &'static str,
    solvers: Vec<String>,
    descriptions: Vec<String>,
    budgets: Vec<Budget>,
    log_files: Vec<Option<String>>,
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
    /// Defaults for `lineup`: mode `unique`, each solver's default budget
    /// ([`SolverEntry::default_budget`]), all cores, one pass.
    pub fn new<P: Puzzle>(lineup: &Lineup<P>) -> Self {
        Config::described(
            P::NAME,
            lineup
                .solvers
                .iter()
                .map(|s| {
                    (
                        s.name().to_string(),
                        s.description().to_string(),
                        s.default_budget(),
                        s.log_file().map(|l| l.name().to_string()),
                    )
                })
                .collect(),
        )
    }

    /// A run's description read back from its files, with no lineup: of
    /// `kind`, each solver's name, description, budget and log file, the
    /// settings at [`Config::new`]'s defaults. Crate-only: a [`Setup`] is
    /// the one way to pair a configuration with a lineup.
    pub(crate) fn described(
        kind: &'static str,
        solvers: Vec<(String, String, Budget, Option<String>)>,
    ) -> Config {
        let mut config = Config {
            kind,
            solvers: Vec::with_capacity(solvers.len()),
            descriptions: Vec::with_capacity(solvers.len()),
            budgets: Vec::with_capacity(solvers.len()),
            log_files: Vec::with_capacity(solvers.len()),
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
        };
        for (name, description, budget, log_file) in solvers {
            config.solvers.push(name);
            config.descriptions.push(description);
            config.budgets.push(budget);
            config.log_files.push(log_file);
        }
        config
    }

    /// This configuration's settings (threads, mode, passes, ...: all but
    /// the lineup's description) for `lineup`, each of its solvers at its
    /// default budget.
    fn for_lineup<P: Puzzle>(&self, lineup: &Lineup<P>) -> Config {
        let own = Config::new(lineup);
        Config {
            kind: own.kind,
            solvers: own.solvers,
            descriptions: own.descriptions,
            budgets: own.budgets,
            log_files: own.log_files,
            ..self.clone()
        }
    }

    /// The kind of puzzle the corpora hold ([`Puzzle::NAME`]).
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// The names of the lineup's solvers, in its order.
    pub fn solvers(&self) -> &[String] {
        &self.solvers
    }

    /// Their one-line descriptions ([`SolverEntry::description`]: for a
    /// loaded solver, where it was loaded from), in the same order.
    pub fn descriptions(&self) -> &[String] {
        &self.descriptions
    }

    /// One budget per solver of the lineup, in its order.
    pub fn budgets(&self) -> &[Budget] {
        &self.budgets
    }

    /// The budgets to change, one per solver (their number is the
    /// lineup's).
    pub fn budgets_mut(&mut self) -> &mut [Budget] {
        &mut self.budgets
    }

    /// The standard-error log file of each solver in its own process
    /// ([`SolverEntry::log_file`]'s name), in the same order; `None` for
    /// the others. Empty is the same as all `None`.
    pub fn log_files(&self) -> &[Option<String>] {
        &self.log_files
    }

    /// Without the log files (a merge: the parts' logs stay in the parts).
    pub(crate) fn without_log_files(mut self) -> Config {
        self.log_files.clear();
        self
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

/// A lineup and the configuration that describes it, made together: the
/// configuration's kind, solver names, descriptions, log files and one
/// budget per solver come from the lineup ([`Setup::new`]), so the two
/// agree by construction; the rest (threads, mode, the budgets' values,
/// ...) is the caller's, through [`Setup::config_mut`]. What
/// [`super::run`], [`super::estimate`] and the session take.
#[derive(Debug, Clone)]
pub struct Setup<P: Puzzle> {
    lineup: Lineup<P>,
    config: Config,
}

impl<P: Puzzle> Setup<P> {
    /// `lineup` with the defaults of [`Config::new`].
    pub fn new(lineup: Lineup<P>) -> Self {
        let config = Config::new(&lineup);
        Setup { lineup, config }
    }

    /// `lineup` with the settings of `settings` (threads, mode, passes,
    /// ...), each solver at its default budget.
    pub fn with_settings(lineup: Lineup<P>, settings: &Config) -> Self {
        let config = settings.for_lineup(&lineup);
        Setup { lineup, config }
    }

    /// Who runs.
    pub fn lineup(&self) -> &Lineup<P> {
        &self.lineup
    }

    /// How, and the lineup's description.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The configuration to change: its settings and the budgets' values
    /// ([`Config::budgets_mut`]); what describes the lineup stays.
    pub fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }
}
