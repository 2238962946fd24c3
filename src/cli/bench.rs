//! `dlxbench bench`: run solvers over corpora, print a table, write results.

// Duplicates (issue #42): the clap argument structs of the commands are alike in shape
// (`#[arg(long, ...)]` fields) on purpose: each command's own flags and help.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use dlxbench::harness::{self, Setup};
use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::session::{self, open_corpora, Baseline, Lost, Output, Session, Throughput};
use dlxbench::shard::Shard;
use dlxbench::sigbus;

use super::io::errln;
use super::lineup::{LineupArgs, RunShape};
use super::live::{self, Live};
use super::{PerKind, EXIT_FAILURE, EXIT_OK, EXIT_USAGE};

/// The end of `bench --help`, before the solvers.
const AFTER_HELP: &str = "\
With no CORPUS, runs the standard set that is fetched under ./datasets (top1465, the 17-clue list, \
the forum's hardest 1106; --all: every fetched corpus of the kind), or a small corpus embedded in \
the binary when there is none. Each corpus's table is printed, and its result files written, as \
it ends; Ctrl-C stops after the chunks in flight and keeps everything (a second Ctrl-C quits at \
once). Exit status: 0 ok; 1 solvers disagreed or returned an invalid answer, solves failed \
(a --solver-cmd or --solver-lib solver crashed, timed out or broke the protocol), or malformed lines \
were skipped (or, with --strict, unexpected unsolvable puzzles); 2 bad usage, unreadable input or \
result files that could not be written; 130 interrupted.";

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = format!("{AFTER_HELP}\n\n{}", super::solvers_help(true)))]
pub struct Args {
    /// Corpus files (one puzzle per line), directories (every *.txt in them of the kind) or `-` for
    /// standard input.
    #[arg(value_name = "CORPUS")]
    pub corpora: Vec<PathBuf>,
    /// Puzzle kind of the corpora: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    pub kind: PuzzleKind,
    /// With no CORPUS: every fetched corpus of the kind under ./datasets, not only the standard set.
    #[arg(long, conflicts_with = "corpora")]
    pub all: bool,
    /// Solvers to run, comma-separated (default: all of the kind's, listed below, and every
    /// --solver-lib).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub solvers: Option<Vec<String>>,
    #[command(flatten)]
    pub lineup: LineupArgs,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Solution cap for --mode count (default: no cap).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Solve the first N puzzles of each corpus untimed (validated) on every worker before measuring.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub warmup: usize,
    /// Run each chunk of the corpus K times and keep, per puzzle, the minimum time.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub passes: u32,
    /// Shuffle the puzzle order reproducibly (chunk order and order within chunks).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// Replace each puzzle by a random symmetry image (Sudoku: relabel, permute bands/stacks, rows/columns,
    /// transpose; Hanidoku: the hexagon's rotations and reflections, and digits reversed).
    #[arg(long, value_name = "SEED")]
    pub permute: Option<u64>,
    /// Solve each puzzle as K symmetry images (image 0 is --permute's, the others of seeds drawn
    /// from it) and report per solver the spread of nodes and time across the images of a
    /// puzzle (notes, summary.md; every image's solve in images.csv). Needs --permute.
    #[arg(long, value_name = "K", default_value_t = 1, requires = "permute",
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub images: u32,
    /// Puzzles each solver solves in a row before the next solver takes the same ones (the
    /// first solver rotating from block to block); a block after another solver's starts with
    /// one untimed solve of its last puzzle. The default isolates the solvers' timings from
    /// each other; 1 solves each puzzle with every solver back to back.
    #[arg(long, value_name = "N", default_value_t = harness::Schedule::DEFAULT_BLOCK as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub block: u64,
    /// Run one part of every corpus: `K/N` is shard K of N (numbered from 1), line n going to
    /// shard ((n - 1) mod N) + 1; `dlxbench merge` joins the shards' result directories. `auto`
    /// reads the index from a Slurm job array (SLURM_ARRAY_TASK_ID and the array's size),
    /// `auto/N` also from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0).
    #[arg(long, value_name = "K/N|auto|auto/N")]
    pub shard: Option<String>,
    /// Solver that relative speeds are quoted against.
    #[arg(long, value_name = "SOLVER", default_value = "dlx")]
    pub reference: String,
    /// Output directory (default: results/<corpus-or-run-name>-<timestamp>). A directory
    /// holding an earlier run's results is refused unless --force.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace the results of an earlier run in --out (the files its run.json lists are removed
    /// first, so the directory holds one run's files only; other files stay).
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Write the results to results/NAME instead, atomically: into a temporary directory, swapped
    /// into place (replacing any previous results/NAME) only when the run succeeds.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["out", "parse_only"])]
    pub save_baseline: Option<String>,
    /// Do not write puzzles.csv.
    #[arg(long)]
    pub no_per_puzzle: bool,
    /// Do not draw the pictures and report.html (`dlxbench plot` draws them later).
    #[arg(long)]
    pub no_plots: bool,
    #[command(flatten)]
    pub export: super::ExportArgs,
    /// Also fail (exit 1) on unsolvable puzzles in corpora not marked ALLOWZERO.
    #[arg(long)]
    pub strict: bool,
    /// No progress bar and no table; problems and warnings still go to standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Only find and parse the puzzles (no solver), print the reader's throughput, write nothing.
    #[arg(long, conflicts_with_all = ["solvers", "out", "reference"])]
    pub parse_only: bool,
}

/// The solvers and the harness configuration from the arguments, and the
/// reference solver's name.
fn setup<P: Kind>(args: &Args) -> anyhow::Result<(Setup<P>, String)> {
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let set = args.lineup.solver_set::<P>()?;
    let shape = RunShape {
        limit: args.limit,
        threads: args.threads.unwrap_or(0),
        block: args.block,
    };
    let mut setup = args.lineup.setup(&set, args.solvers.as_deref(), shape)?;
    let reference = session::reference(setup.lineup(), &args.reference)?;
    let config = setup.config_mut();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if config.threads > cores {
        errln!(
            "warning: --threads {} is more than the {cores} cores: workers share cores, so \
             their solve times include waiting for one",
            config.threads
        );
    }
    config.warmup = args.warmup;
    config.passes = args.passes;
    config.shuffle = args.shuffle;
    config.permute = args.permute;
    config.images = args.images;
    if let Some(spec) = &args.shard {
        let (shard, from) =
            Shard::resolve(spec, |name| std::env::var(name).ok()).context("--shard")?;
        if let Some(from) = from {
            errln!("dlxbench: shard {shard}, from {from}");
        }
        config.shard = Some(shard);
    }
    Ok((setup, reference))
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        bench::<P>(self)
    }
}

/// `dlxbench bench` on puzzles of type `P`.
fn bench<P: Kind>(args: Args) -> anyhow::Result<ExitCode> {
    let (setup, reference) = setup::<P>(&args)?;
    sigbus::install();
    let corpora = open_corpora::<P>(&args.corpora, args.all)?;
    // No result file over a corpus read (standard input too, when a file).
    let inputs = super::corpus_inputs(&args.corpora, &corpora);
    let exports = args.export.targets(&inputs)?;
    let (out, baseline) = (args.out.as_deref(), args.save_baseline.as_deref());
    super::check_result_dir(&inputs, out, baseline)?;
    if args.parse_only {
        let result = session::parse_only(&corpora, &setup)?;
        write!(std::io::stdout().lock(), "{}", Throughput(&result))?;
        let failed = result.has_malformed(); // the input policy
        return Ok(ExitCode::from(if failed { EXIT_FAILURE } else { EXIT_OK }));
    }
    let output = Output::choose(Path::new("results"), baseline, out, args.force);
    let session = Session {
        corpora: &corpora,
        setup: &setup,
        reference,
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        output,
        per_puzzle: !args.no_per_puzzle,
        plots: !args.no_plots,
        exports,
        strict: args.strict,
        announce: !args.quiet,
        echo_program: std::env::current_exe().ok(),
    };
    let live = Live::new(setup.config(), args.quiet, baseline.is_none());
    let outcome = session.run(&live, live::stop_flag())?;
    // What the session came to, after the tables; the exit status.
    for warning in &outcome.warnings {
        errln!("dlxbench: {warning}");
    }
    match &outcome.baseline {
        Some(b @ Baseline::NotMoved { .. }) => bail!("{b}"),
        Some(b @ Baseline::NotSaved { .. }) => errln!("{b}"),
        _ => {}
    }
    live.end(&outcome);
    let shown = !args.quiet && !live.stdout_closed();
    for lost in &outcome.lost {
        match lost {
            Lost::ResultFiles { .. } if shown => {
                errln!("dlxbench: {lost}; the tables above show every corpus run")
            }
            _ => errln!("dlxbench: {lost}"),
        }
    }
    if outcome.stopped() && live::signalled() {
        errln!("dlxbench: interrupted; {}", outcome.kept());
        return Ok(ExitCode::from(live::EXIT_INTERRUPTED));
    }
    for unreadable in &outcome.unreadable {
        errln!("dlxbench: {unreadable}");
    }
    if !outcome.lost.is_empty() || !outcome.unreadable.is_empty() {
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    // `| head`: the reader went away; a quiet, successful end.
    if outcome.problems.is_empty() || (live.stdout_closed() && outcome.stopped()) {
        return Ok(ExitCode::from(EXIT_OK));
    }
    // Discrepancies were told with their corpus; the rest now.
    for message in outcome.closing_messages() {
        errln!("dlxbench: {message}");
    }
    Ok(ExitCode::from(EXIT_FAILURE))
}
