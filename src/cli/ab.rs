//! `dlxbench ab`: paired A/B of two solvers in one run, the time gate that
//! survives a noisy machine ([`dlxbench::ab`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use dlxbench::ab::{self, AbResult, Options, PassReport, Ratio};
use dlxbench::atomic::AtomicFile;
use dlxbench::compare::{self, TimeVerdict};
use dlxbench::export;
use dlxbench::harness::{Config, Lineup, Schedule};
use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::plot::compare_page;
use dlxbench::puzzle::Format;
use dlxbench::report::thousands;
use dlxbench::session::open_corpora;
use dlxbench::sigbus;
use dlxbench::solvers::layout::{LayoutSummary, Randomised};
use dlxbench::solvers::SolverEntry;

use super::io::errln;
use super::{BudgetArgs, ModeArg, NotationArgs, PerKind, SolverLibArgs};

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
    /// How many solutions to look for.
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
    #[command(flatten)]
    pub budget: BudgetArgs,
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
    #[command(flatten)]
    pub notation: NotationArgs,
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
        // `ab B B --aa`: the A/A alone.
        let aa_only = self.aa && self.a == self.b;
        if self.a == self.b && !self.aa {
            // Before anything is loaded or opened.
            return Err(ab::AbError::SameSolver(self.a).into());
        }
        let copy = format!("{}.copy", self.b);
        if self.aa {
            // The copy of B: the same library or command under another
            // name, so that it is loaded (and placed) as a solver of its own.
            if let Some(spec) = self.solver_libs.libs.iter().find(|l| l.name == self.b) {
                let mut spec = spec.clone();
                spec.name = copy.clone();
                self.solver_libs.libs.push(spec);
                if self.count_only.contains(&self.b) {
                    self.count_only.push(copy.clone());
                }
            } else if let Some(spec) = self.solver_libs.cmds.iter().find(|c| c.name == self.b) {
                let mut spec = spec.clone();
                spec.name = copy.clone();
                self.solver_libs.cmds.push(spec);
            }
        }
        let mut set = self.solver_libs.solver_set::<P>(&self.count_only)?;
        if self.aa && set.get(&copy).is_none() {
            // A built-in B: the same solver under a second name.
            let b = set.by_name(&self.b)?.clone();
            let entry = SolverEntry::new(copy.clone(), b.description().to_string(), {
                let b = b.clone();
                move || b.make()
            })
            .with_default_budget(b.default_budget());
            set.add(entry)?;
        }
        let options = P::options(&self.notation.notation(Format::Line))?;
        let setup = |names: [&String; 2]| -> anyhow::Result<(Lineup<P>, Config)> {
            let solvers = set.select(&[names[0].clone(), names[1].clone()])?;
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
            Ok((lineup, config))
        };
        let (lineup, config) = match aa_only {
            true => setup([&self.b, &copy])?,
            false => setup([&self.a, &self.b])?,
        };
        let aa = match self.aa && !aa_only {
            true => Some(setup([&self.b, &copy])?),
            false => None,
        };
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
            let what = match (aa_only, self.aa) {
                (true, _) => format!("A/A of {} against a copy of itself, {copy},", self.b),
                (false, true) => format!(
                    "A = {}, B = {}, after an A/A of B against {copy}",
                    self.a, self.b
                ),
                (false, false) => format!("A = {}, B = {}", self.a, self.b),
            };
            errln!(
                "dlxbench ab: {what} on {} ({} thread{}); until decided{} or {}",
                names.join(", "),
                config.threads,
                if config.threads == 1 { "" } else { "s" },
                match options.precision > 0.0 {
                    true => format!(", +-{}", compare::render::percent(options.precision)),
                    false => String::new(),
                },
                humantime::format_duration(options.max_time)
            );
        }
        let mut on_pass = |p: &PassReport| {
            if quiet {
                return;
            }
            let phase = if p.aa || aa_only { "A/A " } else { "" };
            let this = p
                .pass_ratio
                .map_or_else(|| "-".to_string(), |r| format!("{r:.4}"));
            match p.warmup {
                true => errln!(
                    "{phase}pass {}: {this} (warm-up, not counted) ({:.1} s)",
                    p.pass,
                    p.elapsed.as_secs_f64()
                ),
                false => errln!(
                    "{phase}pass {}: {this}; B/A {} ({:.1} s)",
                    p.pass,
                    interval_text(&p.overall),
                    p.elapsed.as_secs_f64()
                ),
            }
        };
        let result = match &aa {
            Some((aa_lineup, aa_config)) => ab::run_with_aa(
                &corpora,
                &config,
                &lineup,
                aa_config,
                aa_lineup,
                &options,
                None,
                &mut on_pass,
            )?,
            None => ab::run(&corpora, &config, &lineup, &options, None, &mut on_pass)?,
        };
        let mut out = std::io::stdout().lock();
        let text = match aa_only {
            true => render_aa(&result, &options),
            false => render(&result, &options),
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
            let mut s = serde_json::to_string_pretty(&ab::json(&result))?;
            s.push('\n');
            AtomicFile::write(path, s.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
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

/// `1.0213 [1.0180, 1.0247] (+-0.33%), 6 pairs of passes, 1,465 puzzles`.
fn interval_text(r: &Ratio) -> String {
    let units = format!(
        "{} pair{} of passes",
        r.units,
        if r.units == 1 { "" } else { "s" }
    );
    match (r.interval, r.half_width()) {
        (Some(i), Some(h)) => format!(
            "{:.4} [{:.4}, {:.4}] (+-{:.2}%), {units}, {} puzzles",
            i.estimate,
            i.low,
            i.high,
            h * 100.0,
            thousands(r.puzzles as u64)
        ),
        _ => format!(
            "not enough data ({units}, {} puzzles)",
            thousands(r.puzzles as u64)
        ),
    }
}

/// The first line: who, how many passes, why they stopped.
fn headline(label: &str, r: &AbResult) -> String {
    format!(
        "{label}A = {}, B = {}: {} pass{} ({} warm-up) in {:.1} s on {} thread{}; stopped: {}\n",
        r.a,
        r.b,
        r.passes,
        if r.passes == 1 { "" } else { "es" },
        r.warmup_passes,
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.stop.words()
    )
}

/// The ratio rows: per corpus (when more than one) and over all.
fn rows(r: &AbResult, indent: &str) -> String {
    let rows: Vec<&Ratio> = match r.corpora.len() {
        1 => vec![&r.overall],
        _ => r.corpora.iter().chain([&r.overall]).collect(),
    };
    let width = rows.iter().map(|x| x.name.len()).max().unwrap_or(0);
    rows.iter()
        .map(|row| format!("{indent}{:width$}  B/A {}\n", row.name, interval_text(row)))
        .collect()
}

/// An A/A's lines: its ratio, its floor, and whether it gave a (false)
/// verdict at the threshold.
fn aa_lines(aa: &AbResult, options: &Options) -> String {
    let mut s = headline("A/A: ", aa);
    s.push_str(&rows(aa, "  "));
    let floor = aa.overall.floor();
    s.push_str(&match (floor, aa.verdict) {
        (None, _) => "  floor: not measured (too few passes in the time allowed)\n".into(),
        (Some(f), TimeVerdict::Regression | TimeVerdict::Improvement) => format!(
            "  A/A FALSE VERDICT: {} of {} against itself at threshold {}; floor {} (the \
             interval's larger distance from 1.0)\n",
            aa.verdict.words(),
            aa.a,
            compare::render::percent(options.threshold),
            percent2(f)
        ),
        (Some(f), _) => format!(
            "  floor: {} (the interval's larger distance from 1.0); no verdict, as it should be\n",
            percent2(f)
        ),
    });
    s
}

/// `1.62%`.
fn percent2(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// The report of `ab B B --aa`: the A/A alone.
fn render_aa(r: &AbResult, options: &Options) -> String {
    let mut s = aa_lines(r, options);
    s.push_str(&nodes_lines(r));
    s
}

/// The report: the A/A (if any), the ratios, the verdict, the node counts.
fn render(r: &AbResult, options: &Options) -> String {
    let mut s = String::new();
    if let Some(aa) = &r.aa {
        s.push_str(&aa_lines(aa, options));
    }
    s.push_str(&headline("", r));
    s.push_str(&rows(r, "  "));
    let judged = compare::render::percent(r.judged_at);
    if let Some(floor) = r.floor.filter(|&f| f > options.threshold) {
        s.push_str(&format!(
            "threshold {} is below this machine's floor {} ({}): judged at {judged}\n",
            compare::render::percent(options.threshold),
            percent2(floor),
            match r.aa {
                Some(_) => "measured by the A/A above",
                None => "--floor",
            }
        ));
    }
    let change = r.overall.interval.map(|i| (i.estimate - 1.0) * 100.0);
    s.push_str(&match (r.verdict, change) {
        (TimeVerdict::Regression, Some(c)) => format!(
            "REGRESSION: B is {c:.2}% slower than A (the whole interval lies above +{judged})\n"
        ),
        (TimeVerdict::Improvement, Some(c)) => format!(
            "improvement: B is {:.2}% faster than A (the whole interval lies below -{judged})\n",
            -c
        ),
        (TimeVerdict::NotEnoughData, _) | (_, None) => format!(
            "no verdict: {} pair{} of passes, at least {} needed (--min-passes {}; more --max-time)\n",
            r.overall.units,
            if r.overall.units == 1 { "" } else { "s" },
            options.min_units(),
            options.min_passes
        ),
        _ => format!("no significant change (threshold {judged}: the interval reaches within it)\n"),
    });
    if let Some(work) = r.work_text() {
        s.push_str(&work);
        s.push('\n');
    }
    s.push_str(&nodes_lines(r));
    s
}

/// The node counts and outcomes.
fn nodes_lines(r: &AbResult) -> String {
    let n = &r.nodes;
    let mut s = match n.totals {
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
    };
    if n.outcome_changed > 0 {
        s.push_str(&format!(
            "outcomes: {} puzzles with another status or solution count\n",
            thousands(n.outcome_changed)
        ));
    }
    s.push_str(&layout_text(r.layout.as_ref()));
    s
}

/// What the passes randomised of the layout: one line.
fn layout_text(layout: Option<&LayoutSummary>) -> String {
    let Some(layout) = layout else {
        return "layout: fixed (--fixed-layout): each library loaded once, buffers in place\n"
            .into();
    };
    let fixed = layout.fixed();
    if fixed.len() == layout.solvers.len() {
        return format!(
            "layout: not randomised: {} {} built in (run in this program's process, their code \
             where it was linked); to compare builds, load each build's libdlxbench.so with \
             --solver-lib\n",
            fixed.join(" and "),
            if fixed.len() == 1 { "is" } else { "are" }
        );
    }
    let aslr = match layout.aslr {
        Some(true) => "; ASLR on",
        Some(false) => "; ASLR OFF",
        None => "",
    };
    // Solvers randomised alike share their words.
    let mut parts: Vec<(Vec<&str>, Randomised)> = Vec::new();
    for s in &layout.solvers {
        match parts.iter_mut().find(|(_, r)| *r == s.randomised) {
            Some((names, _)) => names.push(&s.name),
            None => parts.push((vec![&s.name], s.randomised)),
        }
    }
    let parts: Vec<String> = parts
        .iter()
        .map(|(names, r)| format!("{}: {}", names.join(" and "), r.words()))
        .collect();
    format!(
        "layout: randomised per pass (seed {}{aslr}): {}\n",
        layout.seed,
        parts.join("; ")
    )
}
