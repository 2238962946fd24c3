//! The arguments `bench`, `ab` and `solve` share, in one place: where the
//! solvers come from, their budgets and the corpora's notation
//! ([`SolverArgs`]); for `bench` and `ab`, which run a lineup through the
//! harness, also the count-only solvers and the mode ([`LineupArgs`]), and
//! the one function that makes the library's lineup and configuration of
//! them, a [`Setup`] ([`LineupArgs::setup`]).

use dlxbench::harness::{Lineup, Setup};
use dlxbench::kinds::Kind;
use dlxbench::puzzle::Format;
use dlxbench::solvers::SolverSet;

use super::{BudgetArgs, ModeArg, NotationArgs, SolverLibArgs};

/// Where the solvers come from, their budgets and the notation: the
/// arguments of every subcommand that runs solvers (`bench`, `ab`,
/// `solve`).
#[derive(Debug, clap::Args)]
pub struct SolverArgs {
    #[command(flatten)]
    pub libs: SolverLibArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub notation: NotationArgs,
}

impl SolverArgs {
    /// The kind's built-in solvers and the loaded ones, those named in
    /// `count_only` count-only ([`SolverLibArgs::solver_set`]).
    pub(crate) fn solver_set<P: Kind>(
        &self,
        count_only: &[String],
    ) -> anyhow::Result<SolverSet<P>> {
        self.libs.solver_set::<P>(count_only)
    }

    /// The kind's parse options in the notation, `format` for output.
    pub(crate) fn options<P: Kind>(&self, format: Format) -> anyhow::Result<P::Options> {
        Ok(P::options(&self.notation.notation(format))?)
    }
}

/// [`SolverArgs`] and what `bench` and `ab` add to them: the count-only
/// solvers and the mode.
#[derive(Debug, clap::Args)]
pub struct LineupArgs {
    #[command(flatten)]
    pub solvers: SolverArgs,
    /// Loaded solvers (--solver-lib names) that return counts but no solution when asked for
    /// more than one (tdoku's fastest, with --mode unique): their counts are cross-checked,
    /// their solutions not read.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub count_only: Vec<String>,
    /// How many solutions to look for.
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
}

/// What a run sets beyond [`LineupArgs`], each subcommand by its own flags.
pub(crate) struct RunShape {
    /// `--limit` (for `--mode count`; `ab` has none).
    pub limit: Option<u64>,
    /// Worker threads (0: all cores).
    pub threads: usize,
    /// `--block`: puzzles per solver in a row.
    pub block: u64,
}

impl LineupArgs {
    /// The kind's solvers with the loaded ones ([`SolverArgs::solver_set`]),
    /// `--count-only` applied.
    pub(crate) fn solver_set<P: Kind>(&self) -> anyhow::Result<SolverSet<P>> {
        self.solvers.solver_set::<P>(&self.count_only)
    }

    /// The lineup of `names` from `set` (all of it: `None`) with the
    /// notation's parse options, and its configuration: each solver's own
    /// budget as --budget-nodes and --budget-time change it, --mode, and
    /// `shape`.
    pub(crate) fn setup<P: Kind>(
        &self,
        set: &SolverSet<P>,
        names: Option<&[String]>,
        shape: RunShape,
    ) -> anyhow::Result<Setup<P>> {
        let solvers = match names {
            Some(names) => set.select(names)?,
            None => set.entries().to_vec(),
        };
        let options = self.solvers.options::<P>(Format::Line)?;
        let mut setup = Setup::new(Lineup { solvers, options });
        let config = setup.config_mut();
        for budget in config.budgets_mut() {
            *budget = self.solvers.budget.budget(*budget);
        }
        config.threads = shape.threads;
        (config.mode, config.limit) = self.mode.with_limit(shape.limit)?;
        config.schedule.block = usize::try_from(shape.block).unwrap_or(usize::MAX);
        Ok(setup)
    }
}
