//! `dlxbench ab`: paired A/B of two solvers in one run, the time gate that
//! survives a noisy machine ([`dlxbench::ab`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use dlxbench::ab::{self, AbResult, Options, PassReport, Ratio};
use dlxbench::compare::{self, TimeVerdict};
use dlxbench::corpus;
use dlxbench::export;
use dlxbench::harness::{Config, Lineup, Schedule};
use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::plot::compare_page;
use dlxbench::puzzle::Format;
use dlxbench::report::thousands;
use dlxbench::session::open_corpora;

use super::io::errln;
use super::{BudgetArgs, ModeArg, NotationArgs, PerKind, SolverLibArgs};

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
A and B solve the same puzzles close in time: each takes a block of puzzles, then the other the \
same block, the first of the two alternating from block to block, and each pass over the corpora \
swapping the two, so that the machine's drift hits both alike. The result is the ratio B/A of the \
geometric mean of per-puzzle times, with a seeded bootstrap 95% interval, after as many passes as \
it takes for the interval to be within --precision (or until --max-time). A regression only when \
the whole interval lies above 1 + threshold. For two builds of one solver, load both with \
--solver-lib under two names: built-in and loaded solvers are called differently, so compare \
like with like. Exit status: 0 no regression; 1 B is slower, or an algorithm change (node counts or \
outcomes differ; --allow-algorithm-change reports it without failing, as in `compare`), or the \
solvers disagreed, or solves failed; 2 bad usage or unreadable input.")]
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
    pub solver_libs: SolverLibArgs,
    /// Loaded solvers that return counts but no solution (as in `bench`).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub count_only: Vec<String>,
    /// Smallest slow-down declared, in percent (`1%`, `0.5`).
    #[arg(long, value_name = "PCT", default_value = "1%", value_parser = compare::parse_threshold)]
    pub threshold: f64,
    /// Passes repeat until the interval's half-width is within this, in percent.
    #[arg(long, value_name = "PCT", default_value = "0.5%", value_parser = compare::parse_threshold)]
    pub precision: f64,
    /// No pass starts that would end after this (`30s`, `2m`).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = humantime::parse_duration)]
    pub max_time: Duration,
    /// Passes made whatever the precision.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_passes: u32,
    /// Passes never exceed this.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_passes: u32,
    /// Worker threads (default 1: a quiet core per solve).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: u64,
    /// How many solutions to look for.
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Puzzles each solver solves in a row before the other takes them.
    #[arg(long, value_name = "N", default_value_t = Schedule::DEFAULT_BLOCK as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub block: u64,
    /// Bootstrap seed.
    #[arg(long, value_name = "N", default_value_t = compare::DEFAULT_SEED)]
    pub seed: u64,
    /// No progress lines on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub notation: NotationArgs,
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
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        if self.a == self.b {
            // Before anything is loaded or opened.
            return Err(ab::AbError::SameSolver(self.a).into());
        }
        let set = self.solver_libs.solver_set::<P>(&self.count_only)?;
        let solvers = set.select(&[self.a.clone(), self.b.clone()])?;
        let options = P::options(&self.notation.notation(Format::Line))?;
        let lineup = Lineup { solvers, options };
        let mut config = Config::new(&lineup);
        for budget in &mut config.budgets {
            *budget = self.budget.budget(*budget);
        }
        config.threads = usize::try_from(self.threads).unwrap_or(usize::MAX);
        (config.mode, config.limit) = self.mode.with_limit(None)?;
        config.schedule = Schedule {
            block: usize::try_from(self.block).unwrap_or(usize::MAX),
        };
        corpus::install_sigbus_handler();
        let corpora = open_corpora::<P>(&self.corpora, false)?;
        // No output over a corpus, checked before any work.
        let inputs = super::corpus_inputs(&self.corpora, &corpora);
        self.export.targets(&inputs)?;
        if let Some(path) = &self.html {
            super::check_output(&inputs, "--html", path)?;
        }
        let options = Options {
            threshold: self.threshold,
            precision: self.precision,
            max_time: self.max_time,
            min_passes: self.min_passes,
            max_passes: self.max_passes.max(self.min_passes),
            seed: self.seed,
            ..Options::default()
        };
        let quiet = self.quiet;
        if !quiet {
            let names: Vec<&str> = corpora.iter().map(|c| c.name()).collect();
            errln!(
                "dlxbench ab: A = {}, B = {} on {} ({} thread{}); until +-{} or {}",
                self.a,
                self.b,
                names.join(", "),
                config.threads,
                if config.threads == 1 { "" } else { "s" },
                compare::render::percent(options.precision),
                humantime::format_duration(options.max_time)
            );
        }
        let mut on_pass = |p: &PassReport| {
            if !quiet {
                errln!(
                    "pass {}: B/A {} ({:.1} s)",
                    p.pass,
                    interval_text(&p.overall),
                    p.elapsed.as_secs_f64()
                );
            }
        };
        let result = ab::run(&corpora, &config, &lineup, &options, None, &mut on_pass)?;
        let mut out = std::io::stdout().lock();
        write!(
            out,
            "{}",
            dlxbench::terminal::escape_lines(&render(&result, &options))
        )?;
        super::live::print_problems("PROBLEM: ", &result.discrepancies, |more, corpus| {
            format!("PROBLEM: ... {more} more in {corpus} not shown")
        });
        if result.failed_solves > 0 {
            errln!(
                "PROBLEM: {} failed solves (crashed, timeout or protocol-error)",
                result.failed_solves
            );
        }
        if let Some(path) = &self.html {
            compare_page::write(path, &compare_page::ab(&result, options.threshold)?)?;
        }
        self.export.write(&inputs, &export::of_ab(&result))?;
        let regressed = result.verdict == TimeVerdict::Regression;
        let changed = algorithm_change_fails(&result, self.allow_algorithm_change);
        Ok(ExitCode::from(
            if regressed || changed || !result.discrepancies.is_empty() || result.failed_solves > 0
            {
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

/// `1.0213 [1.0180, 1.0247] (+-0.33%), 1,465 puzzles`.
fn interval_text(r: &Ratio) -> String {
    match (r.interval, r.half_width()) {
        (Some(i), Some(h)) => format!(
            "{:.4} [{:.4}, {:.4}] (+-{:.2}%), {} puzzles",
            i.estimate,
            i.low,
            i.high,
            h * 100.0,
            thousands(r.puzzles as u64)
        ),
        _ => format!("not enough data ({} puzzles)", r.puzzles),
    }
}

/// The report: the ratios, the verdict, the node counts.
fn render(r: &AbResult, options: &Options) -> String {
    let mut s = format!(
        "A = {}, B = {}: {} pass{} in {:.1} s on {} thread{}; stopped: {}\n",
        r.a,
        r.b,
        r.passes,
        if r.passes == 1 { "" } else { "es" },
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.stop.words()
    );
    let rows: Vec<&Ratio> = match r.corpora.len() {
        1 => vec![&r.overall],
        _ => r.corpora.iter().chain([&r.overall]).collect(),
    };
    let width = rows.iter().map(|x| x.name.len()).max().unwrap_or(0);
    for row in rows {
        s.push_str(&format!(
            "  {:width$}  B/A {}\n",
            row.name,
            interval_text(row)
        ));
    }
    let change = r.overall.interval.map(|i| (i.estimate - 1.0) * 100.0);
    s.push_str(&match (r.verdict, change) {
        (TimeVerdict::Regression, Some(c)) => format!(
            "REGRESSION: B is {c:.2}% slower than A (the whole interval lies above +{})\n",
            compare::render::percent(options.threshold)
        ),
        (TimeVerdict::Improvement, Some(c)) => format!(
            "improvement: B is {:.2}% faster than A (the whole interval lies below -{})\n",
            -c,
            compare::render::percent(options.threshold)
        ),
        (TimeVerdict::NotEnoughData, _) | (_, None) => "not enough data for a verdict\n".into(),
        _ => format!(
            "no significant change (threshold {}: the interval reaches within it)\n",
            compare::render::percent(options.threshold)
        ),
    });
    let n = &r.nodes;
    s.push_str(&match n.totals {
        None => "nodes: not recorded by both solvers\n".to_string(),
        Some((a, b)) if n.changed == 0 => {
            format!(
                "nodes: the same on every puzzle ({} in all)\n",
                thousands(a.max(b))
            )
        }
        Some((a, b)) => format!(
            "nodes: ALGORITHM CHANGE: {} puzzles differ (A {}, B {} in all)\n",
            thousands(n.changed),
            thousands(a),
            thousands(b)
        ),
    });
    if n.outcome_changed > 0 {
        s.push_str(&format!(
            "outcomes: {} puzzles with another status or solution count\n",
            thousands(n.outcome_changed)
        ));
    }
    s
}
