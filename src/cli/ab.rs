//! `dlxbench ab`: paired A/B of two solvers in one run, the time gate that
//! survives a noisy machine ([`dlxbench::ab`]).

// Duplicates (issue #42): the clap argument structs of the commands are alike in shape
// (`#[arg(long, ...)]` fields) on purpose: each command's own flags and help.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use dlxbench::ab::{self, AbResult, Options, PassReport};
use dlxbench::compare::{self, TimeVerdict};
use dlxbench::export;
use dlxbench::harness::Schedule;
use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::plot::compare_page;
use dlxbench::session::open_corpora;
use dlxbench::sigbus;

use super::io::errln;
use super::lineup::{LineupArgs, RunShape};
use super::PerKind;

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
A and B solve the same puzzles close in time: each takes a block of puzzles, then the other the \
same block, the first of the two alternating from block to block, and each pass over the corpora \
swapping the two, so that the machine's drift hits both alike. The first pass is a warm-up, not \
counted. Each pass gives one ratio B/A (the geometric mean of per-puzzle ratios over the puzzles \
timed in every pass); two consecutive passes (one of each order) make a unit, and the result is \
the mean over the units with a Student-t 95% interval. Passes go on until the whole interval \
lies beyond the threshold or --max-time is reached (or within --precision, when asked). A regression only when the whole \
interval lies above 1 + threshold, and never before --min-passes. --aa first spends half the \
time on an A/A of B against a copy of itself: the noise floor of this machine in this time, at \
which the A/B is then judged when it is above the threshold (`ab B B --aa` runs the A/A alone). \
For two builds of one solver, load both with --solver-lib under two names: built-in and loaded \
solvers are called differently, so compare like with like. Exit status: 0 no regression; 1 B is \
slower, or an algorithm change (node counts or outcomes differ; --allow-algorithm-change \
reports it without failing, as in `compare`), or the solvers disagreed, or solves failed; 2 bad \
usage or unreadable input.")]
#[command(mut_arg("count_only", |a| a.help("Loaded solvers that return counts but no solution (as in `bench`)")))]
pub struct Args {
    /// The reference solver (a built-in one, or a --solver-lib name).
    #[arg(value_name = "A")]
    pub a: String,
    /// The solver checked against it.
    #[arg(value_name = "B")]
    pub b: String,
    /// Corpus files or directories (default: as `bench`: the fetched standard set, else the
    /// embedded corpus).
    #[arg(value_name = "CORPUS")]
    pub corpora: Vec<PathBuf>,
    /// Puzzle kind of the corpora: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    pub kind: PuzzleKind,
    #[command(flatten)]
    pub lineup: LineupArgs,
    /// Smallest slow-down declared, in percent (`1%`, `0.5`).
    #[arg(long, value_name = "PCT", default_value = "1%", value_parser = compare::parse_threshold)]
    pub threshold: f64,
    /// Passes may also stop once the interval's half-width is within this, in percent (0.5%).
    /// Off by default (0): a stop on a spread that happens to be small makes intervals too
    /// narrow, so passes stop when decided or at --max-time.
    #[arg(long, value_name = "PCT", default_value = "0%", value_parser = compare::parse_threshold)]
    pub precision: f64,
    /// No pass starts that would end after this (`30s`, `2m`).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = humantime::parse_duration)]
    pub max_time: Duration,
    /// No verdict, and no stop but for --max-time, before this many passes (warm-up
    /// included: 11 is a warm-up and five pairs).
    #[arg(long, value_name = "N", default_value_t = Options::default().min_passes, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_passes: u32,
    /// Passes at the start not counted (cold caches, fresh processes).
    #[arg(long, value_name = "N", default_value_t = Options::default().warmup_passes)]
    pub warmup_passes: u32,
    /// First measure this machine's noise floor in half the time: an A/A of B against a copy
    /// of itself (for a --solver-lib or --solver-cmd B, the same library or command loaded
    /// again under the name B.copy). The A/B is judged at the larger of --threshold and the floor.
    #[arg(long)]
    pub aa: bool,
    /// A noise floor measured before (the `floor` of an `ab --aa` run, in percent): the
    /// verdict is judged at the larger of --threshold and it.
    #[arg(long, value_name = "PCT", value_parser = compare::parse_threshold)]
    pub floor: Option<f64>,
    /// Passes never exceed this.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_passes: u32,
    /// Worker threads (default 1: a quiet core per solve).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: u64,
    /// Puzzles each solver solves in a row before the other takes them.
    #[arg(long, value_name = "N", default_value_t = Schedule::DEFAULT_BLOCK as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub block: u64,
    /// The seed of each pass's layout (--fixed-layout: unused).
    #[arg(long, value_name = "N", default_value_t = compare::DEFAULT_SEED)]
    pub seed: u64,
    /// Load each --solver-lib library once and keep its buffers in place, instead of fresh
    /// copies per pass at random offsets (to measure what the randomised layout adds).
    #[arg(long)]
    pub fixed_layout: bool,
    /// No progress lines on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also write the result as JSON (the verdict, the method and its units, every pass's ratio,
    /// the A/A's result and floor).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Also write the result as a page with the distribution of per-puzzle ratios.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Report changed node counts or outcomes but do not fail on them (A and B are meant to
    /// run different algorithms), as `compare --allow-algorithm-change`.
    #[arg(long)]
    pub allow_algorithm_change: bool,
    #[command(flatten)]
    pub export: super::ExportArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(mut self) -> anyhow::Result<ExitCode> {
        // Before anything is loaded or opened.
        let pair = ab::Pair::new(&self.a, &self.b, self.aa)?;
        let aa_only = pair.aa_only();
        let lineup = &mut self.lineup;
        let libs = &mut lineup.solvers.libs;
        pair.add_copy_specs(&mut libs.libs, &mut libs.cmds, &mut lineup.count_only);
        let mut set = self.lineup.solver_set::<P>()?;
        pair.add_builtin_copy(&mut set)?;
        let setup = |names: [String; 2]| {
            let shape = RunShape {
                limit: None,
                threads: usize::try_from(self.threads).unwrap_or(usize::MAX),
                block: self.block,
            };
            self.lineup.setup(&set, Some(&names), shape)
        };
        let ab_setup = setup(pair.names())?;
        let aa = pair.aa_names().map(setup).transpose()?;
        sigbus::install();
        let corpora = open_corpora::<P>(&self.corpora, false)?;
        // No output over a corpus, checked before any work.
        let inputs = super::corpus_inputs(&self.corpora, &corpora);
        self.export.targets(&inputs)?;
        if let Some(path) = &self.html {
            super::check_output(&inputs, "--html", path)?;
        }
        if let Some(path) = &self.json {
            super::check_output(&inputs, "--json", path)?;
        }
        let options = Options {
            threshold: self.threshold,
            precision: self.precision,
            max_time: self.max_time,
            min_passes: self.min_passes,
            max_passes: self.max_passes.max(self.min_passes),
            warmup_passes: self.warmup_passes,
            floor: self.floor,
            seed: self.seed,
            randomise_layout: !self.fixed_layout,
            ..Options::default()
        };
        let quiet = self.quiet;
        if !quiet {
            let names: Vec<&str> = corpora.iter().map(|c| c.name()).collect();
            errln!(
                "{}",
                ab::render::start_line(&pair, &names, ab_setup.config().threads, &options)
            );
        }
        let mut on_pass = |p: &PassReport| {
            if !quiet {
                errln!("{}", ab::render::pass_line(p, aa_only));
            }
        };
        let result = match &aa {
            Some(aa_setup) => {
                ab::run_with_aa(&corpora, &ab_setup, aa_setup, &options, None, &mut on_pass)?
            }
            None => ab::run(&corpora, &ab_setup, &options, None, &mut on_pass)?,
        };
        let mut out = std::io::stdout().lock();
        let text = match aa_only {
            true => ab::render::aa_text(&result, &options),
            false => ab::render::text(&result, &options),
        };
        write!(out, "{}", dlxbench::terminal::escape_lines(&text))?;
        let problems = std::iter::once(&result)
            .chain(result.aa.as_deref())
            .flat_map(|r| r.discrepancies.iter().cloned())
            .collect::<Vec<_>>();
        super::live::print_problems("PROBLEM: ", &problems, |more, corpus| {
            format!("PROBLEM: ... {more} more in {corpus} not shown")
        });
        let failed = result.failed_solves + result.aa.as_ref().map_or(0, |a| a.failed_solves);
        if failed > 0 {
            errln!("PROBLEM: {failed} failed solves (crashed, timeout or protocol-error)");
        }
        if let Some(path) = &self.html {
            compare_page::write(path, &compare_page::ab(&result, options.threshold)?)?;
        }
        if let Some(path) = &self.json {
            super::io::write_file(path, &super::io::json_text(&ab::json(&result))?)?;
        }
        self.export.write(&inputs, &export::of_ab(&result))?;
        let regressed = !aa_only && result.verdict == TimeVerdict::Regression;
        let changed = algorithm_change_fails(&result, self.allow_algorithm_change);
        Ok(ExitCode::from(
            if regressed || changed || !problems.is_empty() || failed > 0 {
                super::EXIT_FAILURE
            } else {
                super::EXIT_OK
            },
        ))
    }
}

/// The exit-status rule shared with `compare`: an algorithm change (node
/// counts or outcomes that differ) fails unless `allowed`; said on
/// standard error either way.
fn algorithm_change_fails(result: &AbResult, allowed: bool) -> bool {
    if !result.nodes.algorithm_change() {
        return false;
    }
    if allowed {
        errln!("dlxbench: algorithm change (allowed: --allow-algorithm-change)");
        false
    } else {
        errln!(
            "dlxbench: ALGORITHM CHANGE: A and B differ in node counts or outcomes; if they are \
             meant to, pass --allow-algorithm-change"
        );
        true
    }
}
