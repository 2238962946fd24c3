//! One module per subcommand. Each has an `Args` (clap) and a
//! `run(Args) -> anyhow::Result<ExitCode>`; errors returned from `run` are
//! printed by `main` and exit with [`EXIT_USAGE`]. Subcommands that take
//! `--kind` implement [`PerKind`] once, generic over the puzzle type;
//! [`io`] holds what they share.

pub mod ab;
pub mod bench;
pub mod bisect;
pub mod check;
pub mod compare;
pub mod convert;
pub mod cover;
pub mod datasets;
#[cfg(unix)]
pub mod echo;
pub mod generate;
pub mod history;
#[cfg(unix)]
pub mod host;
pub(crate) mod io;
pub mod lineup;
mod live;
pub mod merge;
pub mod plot;
pub mod rate;
pub mod solve;
pub mod versus;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use std::time::Duration;

use dlxbench::budget::Budget;
use dlxbench::clobber::Inputs;
use dlxbench::corpus::Corpus;
use dlxbench::export;
use dlxbench::harness::Mode;
use dlxbench::kinds::{Kind, KindVisitor, PuzzleKind};
use dlxbench::puzzle::{Format, Notation, Puzzle};
use dlxbench::report::describe_budget;
use dlxbench::results::schema;
use dlxbench::solvers::foreign::{self, LibrarySpec};
use dlxbench::solvers::host as solver_host;
use dlxbench::solvers::process::{self, CommandSpec, ProcessOptions};
use dlxbench::solvers::SolverSet;
use dlxbench::sudoku::{Alphabet, BoxShape};

/// Success.
pub const EXIT_OK: u8 = 0;
/// Some puzzle had no solution or was invalid, or a run found a problem.
pub const EXIT_FAILURE: u8 = 1;
/// Bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;

/// A subcommand written once for every puzzle kind.
pub(crate) trait PerKind: Sized {
    /// Runs the subcommand on puzzles of type `P`.
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode>;
}

/// Runs `command` for `kind` (its `--kind`).
pub(crate) fn run_per_kind<C: PerKind>(kind: PuzzleKind, command: C) -> anyhow::Result<ExitCode> {
    struct Visit<C>(C);
    impl<C: PerKind> KindVisitor for Visit<C> {
        type Output = anyhow::Result<ExitCode>;
        fn visit<P: Kind>(self) -> Self::Output {
            self.0.run::<P>()
        }
    }
    kind.visit(Visit(command))
}

/// ` (Hanidoku)` after a puzzle count for kinds other than the default,
/// nothing for the default.
pub(crate) fn kind_note<P: Puzzle>() -> String {
    if P::NAME == PuzzleKind::default().name() {
        String::new()
    } else {
        format!(" ({})", P::TITLE)
    }
}

/// The built-in solvers of every kind, read from the registries
/// ([`Builtin::SOLVERS`](dlxbench::solvers::Builtin)), for the end of
/// `--help`: per kind its solvers in report order, each with its
/// description and, with `budgets`, the node budget `bench` gives it by
/// default.
pub(crate) fn solvers_help(budgets: bool) -> String {
    struct List(bool);
    impl KindVisitor for List {
        type Output = Vec<String>;
        fn visit<P: Kind>(self) -> Vec<String> {
            let width = P::SOLVERS.iter().map(|s| s.name.len()).max().unwrap_or(0);
            P::SOLVERS
                .iter()
                .map(|s| {
                    let budget = match self.0 {
                        true => format!(" (default budget: {})", describe_budget(s.default_budget)),
                        false => String::new(),
                    };
                    format!("  {:width$}  {}{budget}", s.name, s.description)
                })
                .collect()
        }
    }
    let mut text = String::new();
    for &kind in PuzzleKind::ALL {
        let default = if kind == PuzzleKind::default() {
            ", the default"
        } else {
            ""
        };
        text.push_str(&format!("Solvers of --kind {kind}{default}:\n"));
        for line in kind.visit(List(budgets)) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text.pop();
    text
}

/// The `--solver-lib` flag of the subcommands that choose solvers (`bench`,
/// `solve`): solvers loaded from shared libraries, added to the built-in
/// ones.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SolverLibArgs {
    /// Add a solver from a shared library with tdoku's C interface
    /// (`size_t f(const char *in, size_t limit, uint32_t flags, char *out,
    /// size_t *guesses)`), under NAME (default: SYMBOL), passing FLAGS
    /// (default 0). Repeatable. 9x9 only: other puzzles are `n/a` for it.
    /// Each worker runs it in a host process of its own (the call alone is
    /// timed there): a crash, a hang past --budget-time (default 10s) or a
    /// write past its solution buffer costs that puzzle (crashed, timeout)
    /// and a fresh host starts; a non-reentrant solver is safe on every
    /// core. Load only libraries you trust.
    #[arg(long = "solver-lib", value_name = "PATH:SYMBOL[@FLAGS][=NAME]")]
    pub libs: Vec<LibrarySpec>,
    /// Load --solver-lib libraries into this process and call them from the
    /// worker threads, as trusted code: no host process (no pipe round trip
    /// per puzzle, no restarts), but a crash or an overflow ends the run, a
    /// hang hangs it (budgets cannot stop a C call), and a solver must be
    /// reentrant to run with more than one thread.
    #[arg(long)]
    pub in_process: bool,
    /// Address-space limit of each --solver-lib host process (RLIMIT_AS), in bytes or with a
    /// suffix K, M, G (512M, 2G): a solve that runs out of memory under it is crashed (memory).
    /// Not with --in-process.
    #[arg(long, value_name = "SIZE", value_parser = dlxbench::solvers::host::parse_size,
          conflicts_with = "in_process")]
    pub memory_limit: Option<u64>,
    /// Add a solver that runs in its own processes: COMMAND (split into words and run directly
    /// when plain, through `sh -c` when it has quotes, variables, redirections or pipes; in a
    /// process group of its own) is started once per worker and kept running; it speaks the dlxbench
    /// solver protocol on its standard input and output (docs/solver-protocol.md). Repeatable.
    /// Each call is bounded by the solver's time budget (--budget-time, default 10s): past it
    /// the puzzle is over budget and a fresh process starts; when it crashes or answers out of
    /// protocol, the puzzle is recorded as crashed or protocol-error and a fresh process
    /// starts; after 3 failures in a row it is stopped for the rest of the corpus. Each
    /// COMMAND is started once before the run and must print its header. Its standard error
    /// goes to solver-NAME.log in the result directory (capped: docs/solver-protocol.md).
    #[arg(long = "solver-cmd", value_name = "NAME=COMMAND")]
    pub cmds: Vec<CommandSpec>,
    /// What a solver in its own process is timed by: `own` (its own reported time, ns=, where
    /// it gives one and it is checked against the round trips; the round trip otherwise) or
    /// `round-trip` (the harness's round trip for every process solver, own times ignored;
    /// requests then go one at a time, as a batch has no round trip per puzzle).
    #[arg(long, value_name = "SOURCE", default_value = "own", value_parser = ["own", "round-trip"])]
    pub latency: String,
    /// Requests written at once to a solver in its own process that takes batches (every
    /// isolated --solver-lib host; a --solver-cmd solver that announces `+batch` in its header):
    /// a block's puzzles go down the pipe together and it answers them one by one, each timed on
    /// its own, instead of a round trip per puzzle. 1: one request at a time.
    #[arg(long, value_name = "N", default_value_t = process::MAX_BATCH,
          value_parser = clap::builder::ValueParser::new(batch_size))]
    pub batch: usize,
    /// Replace each --solver-lib host process after it served this many blocks, and no sooner
    /// than 100 times its own start-up (so that replacing costs about 2% of the wall clock): a
    /// fresh host, warmed up, takes the next block, so that one process's memory layout and
    /// cache placement are spread over the run's blocks, where the speed interval sees them. 0:
    /// keep each host for the run.
    #[arg(long, value_name = "BLOCKS", default_value_t = process::RENEW_AFTER_BLOCKS)]
    pub renew_hosts: u32,
}

/// `--batch N`: at least 1.
fn batch_size(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "`{text}`: expected a number of requests, at least 1"
        )),
    }
}

impl SolverLibArgs {
    /// The kind's built-in solvers and the loaded ones, in that order; the
    /// loaded ones named in `count_only` are count-only
    /// ([`LibrarySpec::count_only`]).
    pub(crate) fn solver_set<P: Kind>(
        &self,
        count_only: &[String],
    ) -> anyhow::Result<SolverSet<P>> {
        if let Some(name) = count_only
            .iter()
            .find(|n| !self.libs.iter().any(|l| l.name == **n))
        {
            anyhow::bail!("--count-only {name}: not the name of a --solver-lib solver");
        }
        let mut set = SolverSet::<P>::builtin();
        let options = ProcessOptions {
            stop: Some(live::stop_flag()),
            batch: self.batch.max(1),
            round_trip_latency: self.latency == "round-trip",
            ..ProcessOptions::default()
        };
        for spec in &self.libs {
            let spec = LibrarySpec {
                count_only: count_only.contains(&spec.name),
                ..spec.clone()
            };
            let entry = match self.in_process {
                true => {
                    foreign::load::<P>(&spec).with_context(|| format!("--solver-lib {spec}"))?
                }
                false => {
                    let renew_after = (self.renew_hosts > 0).then_some(self.renew_hosts);
                    self.isolated::<P>(
                        &spec,
                        ProcessOptions {
                            renew_after,
                            ..options
                        },
                    )?
                }
            };
            set.add(entry).map_err(|e| {
                anyhow::anyhow!("--solver-lib {spec}: {e}; give it another name with =NAME")
            })?;
        }
        for spec in &self.cmds {
            // Started once first: a mistyped program or a wrong header is
            // refused before the run.
            process::check(spec, options).with_context(|| format!("--solver-cmd {spec}"))?;
            set.add(process::entry::<P>(spec, options))
                .map_err(|e| anyhow::anyhow!("--solver-cmd {spec}: {e}; give it another NAME"))?;
        }
        Ok(set)
    }
}

/// `error`, and when it is a refusal of a result file that does not match
/// its checksum (`modified`), how to read it anyway.
pub(crate) fn modified_hint(error: anyhow::Error, modified: bool) -> anyhow::Error {
    match modified {
        true => anyhow::anyhow!(
            "{error:#} (if the change is known and harmless, --accept-modified reads it anyway)"
        ),
        false => error,
    }
}

impl SolverLibArgs {
    /// The entry of `spec` run in host processes (this binary's hidden
    /// `solver-host` mode), checked first: the file here, then a host run
    /// once to load it, so that a library that cannot be loaded is refused
    /// before the run with the same message as in process.
    fn isolated<P: Kind>(
        &self,
        spec: &LibrarySpec,
        options: ProcessOptions,
    ) -> anyhow::Result<dlxbench::solvers::SolverEntry<P>> {
        foreign::check_library(spec).with_context(|| format!("--solver-lib {spec}"))?;
        let host = solver_host::HostCommand {
            program: std::env::current_exe()
                .context("the path of this program, to run --solver-lib libraries isolated")?,
            spec: spec.clone(),
            kind: P::NAME,
            memory_limit: self.memory_limit,
        };
        host.check()
            .with_context(|| format!("--solver-lib {spec}"))?;
        Ok(solver_host::entry::<P>(&host, options))
    }
}

/// The `--export` flag of `bench`, `merge`, `compare` and `ab`: results in
/// a dashboard's format ([`dlxbench::export`]).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ExportArgs {
    /// Also write the results for a dashboard into FILE, in FORMAT: `bmf` (Bencher Metric
    /// Format, for bencher.dev) or `github-action-benchmark` (its customSmallerIsBetter JSON),
    /// in one argument (`--export bmf=bmf.json`). Repeatable. FILE may not be an input.
    #[arg(long = "export", value_name = "FORMAT=FILE", action = clap::ArgAction::Append)]
    pub export: Vec<export::Target>,
}

impl ExportArgs {
    /// The formats and files asked for, each file checked against the
    /// command's `inputs` ([`Inputs`]): found before any work is done.
    pub(crate) fn targets(
        &self,
        inputs: &Inputs,
    ) -> anyhow::Result<Vec<(Box<dyn export::Format>, PathBuf)>> {
        self.export
            .iter()
            .map(|target| {
                let format = target
                    .format()
                    .with_context(|| format!("--export {target}"))?;
                inputs
                    .check_file(&target.file)
                    .with_context(|| format!("--export {target}"))?;
                Ok((format, target.file.clone()))
            })
            .collect()
    }

    /// Writes `metrics` in every format asked for; returns the files.
    pub(crate) fn write(
        &self,
        inputs: &Inputs,
        metrics: &[export::Metric],
    ) -> anyhow::Result<Vec<PathBuf>> {
        self.targets(inputs)?
            .iter()
            .map(|(format, file)| {
                export::write(format.as_ref(), metrics, file)
                    .with_context(|| format!("--export {}={}", format.name(), file.display()))
            })
            .collect()
    }
}

/// `error`, a command-line parse error, explained when `args` hold the
/// old two-argument form `--export FORMAT FILE`: its FILE left over is an
/// unexpected argument where the positional arguments are fixed
/// (`compare`), and the message should say what to write instead.
pub fn explain_parse_error(error: clap::Error, args: &[String]) -> clap::Error {
    use clap::error::ErrorKind;
    if error.kind() != ErrorKind::UnknownArgument {
        return error;
    }
    let old = args
        .windows(2)
        .filter(|w| w[0] == "--export")
        .find_map(|w| w[1].parse::<export::Target>().err());
    match old {
        Some(e) => clap::Error::raw(
            ErrorKind::InvalidValue,
            format!("invalid value for '--export <FORMAT=FILE>': {e}\n"),
        ),
        None => error,
    }
}

/// The inputs of `bench` and `ab`: every corpus file opened (those found
/// in a directory too), and standard input when `specs` name it (`-`).
pub(crate) fn corpus_inputs(specs: &[PathBuf], corpora: &[Corpus]) -> Inputs {
    let mut inputs = Inputs::new();
    for path in corpora.iter().filter_map(|c| c.path()) {
        inputs.add(path);
    }
    if specs.iter().any(|c| c == Path::new("-")) {
        inputs.add_stdin();
    }
    inputs
}

/// Adds the result directory or file `path` to `inputs`: a directory with
/// its result files, a file (`compare` reads a CSV file too) with the
/// result files beside it.
pub(crate) fn add_results(inputs: &mut Inputs, path: &Path) {
    let dir = match path.is_dir() {
        true => path,
        false => {
            inputs.add(path);
            match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            }
        }
    };
    inputs.add_dir_files(dir, schema::is_result_file);
}

/// Refuses `output`, the value of the flag `flag`, when it is one of
/// `inputs` ([`dlxbench::clobber`]).
pub(crate) fn check_output(inputs: &Inputs, flag: &str, output: &Path) -> anyhow::Result<()> {
    inputs
        .check_file(output)
        .with_context(|| format!("{flag} {}", output.display()))
}

/// Refuses the output directory `dir`, the value of `flag`, when it is one
/// of `inputs` or holds one.
pub(crate) fn check_output_dir(inputs: &Inputs, flag: &str, dir: &Path) -> anyhow::Result<()> {
    inputs
        .check_dir(dir)
        .with_context(|| format!("{flag} {}", dir.display()))
}

/// Refuses a result directory of `bench` that holds one of its inputs:
/// `--out DIR` (`out`), or `results/NAME` of `--save-baseline NAME`
/// (`baseline`).
pub(crate) fn check_result_dir(
    inputs: &Inputs,
    out: Option<&Path>,
    baseline: Option<&str>,
) -> anyhow::Result<()> {
    if let Some(dir) = out {
        check_output_dir(inputs, "--out", dir)?;
    }
    if let Some(name) = baseline {
        check_output_dir(inputs, "--save-baseline", &Path::new("results").join(name))?;
    }
    Ok(())
}

/// `--mode` values of `bench` and `ab`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// Stop at the first solution.
    First,
    /// Stop at the second solution, proving uniqueness (the default).
    #[default]
    Unique,
    /// Count all solutions, up to --limit.
    Count,
}

impl ModeArg {
    /// The harness's mode and solution limit, `limit` being `--limit`
    /// (for `count` only; none: no cap).
    pub(crate) fn with_limit(self, limit: Option<u64>) -> anyhow::Result<(Mode, u64)> {
        let (mode, limit) = match (self, limit) {
            (ModeArg::First, None) => (Mode::First, 1),
            (ModeArg::Unique, None) => (Mode::Unique, 2),
            (ModeArg::Count, limit) => (Mode::Count, limit.unwrap_or(u64::MAX)),
            (_, Some(_)) => bail!("--limit applies to --mode count only"),
        };
        if limit == 0 {
            bail!("--limit must be at least 1");
        }
        Ok((mode, limit))
    }
}

/// The text options shared by the subcommands that read puzzles.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct NotationArgs {
    /// Symbols: `standard` (1-9, A-Z, a-z; `.` or `0` blank) or `zero-based`
    /// (0-9, A-Z; `.` blank), for input and output.
    #[arg(long, default_value = "standard")]
    pub alphabet: Alphabet,
    /// Box shape ROWSxCOLS for grids whose side alone does not fix it
    /// (e.g. `3x2` for 6x6 grids with boxes 3 rows tall).
    #[arg(long = "box", value_name = "RxC")]
    pub shape: Option<BoxShape>,
}

/// The per-puzzle budget flags of `bench`, `solve` and `rate`, one meaning
/// in each: a solve stops, "over budget", at whichever runs out first.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct BudgetArgs {
    /// Search nodes allowed per puzzle and solver; 0: no limit. Default: in
    /// bench each solver's own (listed at the end of `bench --help`), in
    /// solve and rate no limit. `--max-nodes` is the same flag.
    #[arg(long = "budget-nodes", visible_alias = "max-nodes", value_name = "N")]
    pub nodes: Option<u64>,
    /// Time allowed per puzzle and solver (`500ms`, `10s`, `2m`), checked
    /// every 1,024 search nodes; 0: no limit. Default: in bench 10s, a
    /// safety net ten times the slowest solve of the standard set; in solve
    /// and rate no limit.
    #[arg(long = "budget-time", value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
}

impl BudgetArgs {
    /// The budget these flags ask for, `default` where they are silent.
    pub(crate) fn budget(&self, default: Budget) -> Budget {
        Budget {
            max_nodes: match self.nodes {
                None => default.max_nodes,
                Some(0) => u64::MAX,
                Some(n) => n,
            },
            max_time: match self.time {
                None => default.max_time,
                Some(Duration::ZERO) => None,
                Some(t) => Some(t),
            },
        }
    }
}

/// `10s`, `500ms`, `1m 30s` (and `0`).
fn parse_duration(text: &str) -> Result<Duration, String> {
    if text.trim() == "0" {
        return Ok(Duration::ZERO);
    }
    humantime::parse_duration(text)
        .map_err(|e| format!("{e} (expected e.g. `500ms`, `10s`, `2m`; 0 for no limit)"))
}

impl NotationArgs {
    /// The notation, with `format` for output.
    pub(crate) fn notation(&self, format: Format) -> Notation {
        Notation {
            alphabet: self.alphabet,
            box_shape: self.shape.map(|s| (s.box_rows(), s.box_cols())),
            format,
        }
    }
}
