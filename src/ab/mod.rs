//! Paired A/B: is solver B slower than solver A, on this machine, now?
//!
//! Two runs minutes apart cannot tell a 2% slow-down from the machine's
//! drift, which moves every puzzle together. Here A and B solve the same
//! puzzles close in time, under the harness's block schedule (each solver
//! takes a block of puzzles, then the other takes the same block, the first
//! of the two alternating from block to block), so drift hits both alike
//! and cancels in the per-puzzle ratio. Each pass over the corpora also
//! swaps the lineup, so that over two passes each side goes first on every
//! block once.
//!
//! **The unit of replication is the pair of passes, not the puzzle.** The
//! noise that matters is not independent from puzzle to puzzle: a burst of
//! load, a frequency change, or the placement of a library's code in memory
//! shifts a whole block or pass of one side together. Per pass `p`, `r_p`
//! is the geometric mean of `ns_B / ns_A` over the puzzles timed by both
//! sides in every measured pass (the same puzzles in every pass, so that
//! passes differ by noise only, not by which puzzles they hold). The first
//! [`Options::warmup_passes`] passes are discarded (cold caches, pages,
//! host processes starting). The measured passes are paired, (1, 2),
//! (3, 4), ...: one of each lineup (A first, B first), so the order effect
//! cancels within a unit; a unit's log-ratio is the mean of its two passes'
//! `ln r_p`. The estimate is `exp(mean)` over the units, with a Student-t
//! interval over them ([`bootstrap::student_t`]): with tens of units a
//! percentile bootstrap over them would be too narrow, and a unit, the
//! mean over hundreds of puzzles, is close to normal. Puzzle-to-puzzle
//! noise is inside every unit's mean, so it is counted once, at the level
//! where it enters.
//!
//! Passes repeat until, after a whole pair and at least
//! [`Options::min_passes`] passes, the interval lies wholly beyond the
//! threshold (a decided verdict), or its half-width is within the wanted
//! precision, or the next pair would not end within the time allowed: a
//! decision comes in bounded time. The verdict follows `compare`'s rule: a
//! regression when the whole interval lies above `1 + threshold`; none
//! before [`Options::min_passes`] passes. With a measured noise floor
//! ([`Options::floor`], from an A/A of B against a copy of itself,
//! [`run_with_aa`]), the verdict is judged at the larger of the threshold
//! and the floor.
//!
//! The per-puzzle ratios (each puzzle's mean log-ratio over the measured
//! passes) are kept as a distribution ([`Ratio::distribution`]): they show
//! where a change lies, not how sure it is.
//!
//! Node counts, where both sides report them, are compared puzzle by
//! puzzle: a difference means the two do not run the same algorithm. The
//! time ratio is also split, as `compare` splits it, into the search tree
//! and the time per node ([`AbResult::work`], computed by
//! [`crate::compare::work_split_of`]): per puzzle, time = nodes x time per
//! node, so the geometric mean of B/A over the puzzles of the estimate is
//! that of the node ratios times that of the per-node cost ratios.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::compare::bootstrap::{self, Interval};
use crate::compare::{verdict, work_split_of, RatioHistogram, TimeVerdict, WorkSplit};
use crate::corpus::Corpus;
use crate::harness::{self, HarnessError, Lineup, Progress, Record, RecordSink, Setup};
use crate::puzzle::Puzzle;
use crate::solvers::layout::{Layout, LayoutError, LayoutSummary};
use crate::solvers::Status;
use crate::solvers::{Budget, SolverEntry};

mod json;
pub mod render;
mod setup;

pub use json::json;
pub use setup::Pair;

/// How the interval is made, for people and for JSON
/// ([`AbResult::method`]).
pub const METHOD: &str = "student-t over pairs of passes";

/// How long to measure, and what to call a regression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// A regression is declared when the whole interval lies above
    /// `1 + threshold` (0.01: 1%).
    pub threshold: f64,
    /// Passes stop once the interval's half-width, relative to the
    /// estimate, is at most this (0.005: within +-0.5%); 0, the default,
    /// never. Stopping when the spread so far happens to be small makes
    /// intervals too narrow (A/A intervals held 1.0 in 91-93% of
    /// simulated runs against 95% at a fixed number of passes), so by
    /// default passes stop only when decided or at the time allowed.
    pub precision: f64,
    /// No pass starts that would not end within this time from the start
    /// (judged by the longest pass so far; at a pair's start, by twice it).
    pub max_time: Duration,
    /// No verdict and no stop but for time before this many passes,
    /// warm-up included (11: one warm-up, then five pairs).
    pub min_passes: u32,
    /// Passes never exceed this.
    pub max_passes: u32,
    /// Passes at the start that are not counted (1: the first pass runs
    /// with cold caches and fresh processes).
    pub warmup_passes: u32,
    /// Confidence level of the interval (0.95).
    pub confidence: f64,
    /// The noise floor measured by an A/A ([`Ratio::floor`]): the verdict
    /// is judged at `max(threshold, floor)`.
    pub floor: Option<f64>,
    /// Each pass runs fresh copies of the solvers, placed at random
    /// ([`crate::solvers::layout`], choices seeded by [`Options::seed`] and
    /// the pass): true by default.
    pub randomise_layout: bool,
    /// Seed of each pass's layout ([`crate::solvers::layout`]).
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: 0.01,
            precision: 0.0,
            max_time: Duration::from_secs(30),
            min_passes: 11,
            max_passes: 1000,
            warmup_passes: 1,
            confidence: 0.95,
            floor: None,
            randomise_layout: true,
            seed: crate::compare::DEFAULT_SEED,
        }
    }
}

impl Options {
    /// The threshold the verdict is judged at: the larger of
    /// [`Options::threshold`] and [`Options::floor`].
    pub fn judged_at(&self) -> f64 {
        self.threshold.max(self.floor.unwrap_or(0.0))
    }

    /// Units (pairs of passes) needed before a verdict:
    /// `(min_passes - warmup_passes) / 2`, at least 2.
    pub fn min_units(&self) -> usize {
        (self.min_passes.saturating_sub(self.warmup_passes) as usize / 2).max(2)
    }
}

/// Why the passes stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The whole interval lies beyond the threshold, on one side: the
    /// verdict cannot change with more passes.
    Decided,
    /// The interval reached the wanted precision.
    Precision,
    /// The next pass would have run past the time allowed.
    Time,
    /// [`Options::max_passes`] passes were made.
    Passes,
    /// Stopped from outside ([`Progress::stop_requested`]).
    Interrupted,
}

impl Stop {
    /// Words for people.
    pub fn words(self) -> &'static str {
        match self {
            Stop::Decided => "the whole interval lies beyond the threshold",
            Stop::Precision => "the interval reached the precision asked for",
            Stop::Time => "the time allowed ran out",
            Stop::Passes => "the most passes allowed were made",
            Stop::Interrupted => "interrupted",
        }
    }

    /// Name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Decided => "decided",
            Stop::Precision => "precision",
            Stop::Time => "time",
            Stop::Passes => "passes",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// The ratio B/A over some puzzles.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    /// What the puzzles are (a corpus name, or `all`).
    pub name: String,
    /// Puzzles timed by both sides (within budget) in every measured pass.
    pub puzzles: usize,
    /// Units of replication (pairs of measured passes) the interval is
    /// made from.
    pub units: usize,
    /// The ratio and its interval over the units (`None` with fewer than
    /// two units, or no puzzle).
    pub interval: Option<Interval>,
    /// The per-puzzle ratios B/A (each puzzle's mean over the measured
    /// passes).
    pub distribution: RatioHistogram,
}

impl Ratio {
    /// The interval's half-width relative to the estimate.
    pub fn half_width(&self) -> Option<f64> {
        self.interval.map(|i| (i.high - i.low) / 2.0 / i.estimate)
    }

    /// The noise floor this ratio shows when A and B are the same code:
    /// the interval's larger distance from 1.0 (`max(high - 1, 1 - low)`),
    /// the smallest change it could have told from none.
    pub fn floor(&self) -> Option<f64> {
        self.interval
            .map(|i| (i.high - 1.0).max(1.0 - i.low).max(0.0))
    }
}

/// The node counts of the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nodes {
    /// Total nodes of A and B over the puzzles where both report them.
    pub totals: Option<(u64, u64)>,
    /// Puzzles whose node counts differ.
    pub changed: u64,
    /// Puzzles whose status or solution count differs.
    pub outcome_changed: u64,
}

impl Nodes {
    /// Whether A and B run different algorithms: node counts or outcomes
    /// differ on some puzzle. The exit-status rule shared with `compare`:
    /// an algorithm change fails unless allowed (`--allow-algorithm-change`).
    pub fn algorithm_change(&self) -> bool {
        self.changed > 0 || self.outcome_changed > 0
    }
}

/// What an A/B found.
#[derive(Debug, Clone)]
pub struct AbResult {
    /// Solver A's name.
    pub a: String,
    /// Solver B's name.
    pub b: String,
    /// Per corpus.
    pub corpora: Vec<Ratio>,
    /// Over every puzzle of every corpus: what the verdict is made from.
    pub overall: Ratio,
    /// The verdict, judged at [`AbResult::judged_at`];
    /// [`TimeVerdict::NotEnoughData`] before [`Options::min_units`] units.
    pub verdict: TimeVerdict,
    /// The threshold the verdict was judged at ([`Options::judged_at`]).
    pub judged_at: f64,
    /// The noise floor the verdict was judged with ([`Options::floor`]).
    pub floor: Option<f64>,
    /// How the interval is made ([`METHOD`]).
    pub method: &'static str,
    /// Passes made, warm-up included.
    pub passes: u32,
    /// Of which warm-up, not counted.
    pub warmup_passes: u32,
    /// Every pass's own ratio B/A: the geometric mean over the puzzles
    /// timed by both in that pass (warm-up passes included, first; `None`
    /// for a pass with no such puzzle). What the units are made from.
    pub pass_ratios: Vec<Option<f64>>,
    /// Why they stopped.
    pub stop: Stop,
    /// Node counts.
    pub nodes: Nodes,
    /// The overall ratio B/A split into the search tree (B's nodes over
    /// A's) and the time per node, over the puzzles of the estimate where
    /// both sides report nodes: each puzzle's log-ratio is its mean over
    /// the measured passes of whole pairs, so with node counts on every
    /// puzzle `work.time` is the estimate ([`WorkSplit`]). `None` when
    /// the sides report no nodes, or before a pair of passes.
    pub work: Option<WorkSplit>,
    /// Invalid solutions and count disagreements found (see
    /// [`harness::RunResult::discrepancies`]), over all passes.
    pub discrepancies: Vec<harness::Discrepancy>,
    /// Failed solves (a solver in its own process that crashed, timed out
    /// or broke the protocol), over all passes
    /// ([`harness::RunResult::failed_solves`]).
    pub failed_solves: u64,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of all passes.
    pub elapsed: Duration,
    /// The A/A of B against a copy of itself that measured the floor, when
    /// one ran first ([`run_with_aa`]).
    pub aa: Option<Box<AbResult>>,
    /// What each pass randomised of the solvers' layout; `None` when it
    /// was not ([`Options::randomise_layout`]).
    pub layout: Option<LayoutSummary>,
}

impl AbResult {
    /// For an A/A: whether it gave a verdict, which it should not.
    pub fn false_verdict(&self) -> bool {
        matches!(
            self.verdict,
            TimeVerdict::Regression | TimeVerdict::Improvement
        )
    }
}

/// Where a pass stands, after it ends.
#[derive(Debug, Clone)]
pub struct PassReport {
    /// Passes made so far (1 after the first), warm-up included.
    pub pass: u32,
    /// Whether this pass was a warm-up, not counted.
    pub warmup: bool,
    /// Whether this pass belongs to the A/A that measures the floor.
    pub aa: bool,
    /// This pass's own ratio B/A (see [`AbResult::pass_ratios`]).
    pub pass_ratio: Option<f64>,
    /// The overall ratio so far (over the complete units).
    pub overall: Ratio,
    /// Time since the start.
    pub elapsed: Duration,
}

/// The per-pass log-ratios of every puzzle: a column per puzzle, a row per
/// measured pass, NaN where either side was not timed.
#[derive(Default)]
struct Measured {
    /// Column of each puzzle (corpus, line).
    column: HashMap<(usize, u64), usize>,
    /// Corpus of each column.
    corpus: Vec<usize>,
    /// Line of each column.
    line: Vec<u64>,
    /// Measured passes' rows (a row may be shorter than the columns: a
    /// puzzle first seen later was not timed in it).
    rows: Vec<Vec<f64>>,
}

impl Measured {
    fn column(&mut self, corpus: usize, line: u64) -> usize {
        let next = self.corpus.len();
        let c = *self.column.entry((corpus, line)).or_insert(next);
        if c == next {
            self.corpus.push(corpus);
            self.line.push(line);
        }
        c
    }

    /// The columns timed in every measured pass, each with its mean
    /// log-ratio over the passes of whole pairs (the passes the units are
    /// made of): their mean is the log of the overall estimate.
    fn puzzle_means(&self) -> Vec<(usize, f64)> {
        let rows = &self.rows[..self.rows.len() / 2 * 2];
        if rows.is_empty() {
            return Vec::new();
        }
        (0..self.corpus.len())
            .filter(|&c| {
                self.rows
                    .iter()
                    .all(|r| r.get(c).is_some_and(|d| d.is_finite()))
            })
            .map(|c| {
                (
                    c,
                    rows.iter().map(|r| r[c]).sum::<f64>() / rows.len() as f64,
                )
            })
            .collect()
    }

    /// The ratio over the puzzles of `corpus` (all with `None`) timed in
    /// every row, with units made of complete pairs of rows.
    fn ratio(&self, name: &str, corpus: Option<usize>, confidence: f64) -> Ratio {
        let cols: Vec<usize> = (0..self.corpus.len())
            .filter(|&c| corpus.is_none_or(|k| self.corpus[c] == k))
            .filter(|&c| {
                !self.rows.is_empty()
                    && self
                        .rows
                        .iter()
                        .all(|r| r.get(c).is_some_and(|d| d.is_finite()))
            })
            .collect();
        let per_pass: Vec<f64> = match cols.is_empty() {
            true => Vec::new(),
            false => self
                .rows
                .iter()
                .map(|r| cols.iter().map(|&c| r[c]).sum::<f64>() / cols.len() as f64)
                .collect(),
        };
        let units: Vec<f64> = per_pass
            .chunks_exact(2)
            .map(|p| (p[0] + p[1]) / 2.0)
            .collect();
        let mut per_puzzle: Vec<f64> = cols
            .iter()
            .map(|&c| self.rows.iter().map(|r| r[c]).sum::<f64>() / self.rows.len() as f64)
            .collect();
        per_puzzle.sort_unstable_by(f64::total_cmp);
        Ratio {
            name: name.to_string(),
            puzzles: cols.len(),
            units: units.len(),
            interval: bootstrap::student_t(&units, confidence),
            distribution: RatioHistogram::from_log_ratios(per_puzzle.iter().copied()),
        }
    }
}

/// Per-puzzle records of one pass, by corpus, as the harness's writer
/// thread hands them over.
#[derive(Default)]
struct Collected {
    batches: Vec<(String, Vec<Record>)>,
}

struct Collector(Arc<Mutex<Collected>>);

impl RecordSink for Collector {
    fn write_batch(&mut self, corpus: &str, records: &[Record]) -> std::io::Result<()> {
        let mut c = self.0.lock().unwrap_or_else(|e| e.into_inner());
        c.batches.push((corpus.to_string(), records.to_vec()));
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Why an A/B could not run.
#[derive(Debug, thiserror::Error)]
pub enum AbError {
    /// A and B are the same solver.
    #[error("A and B are both `{0}`: compare two different solvers (load one build twice under two names with --solver-lib PATH:SYMBOL=NAME), or measure the noise floor with --aa")]
    SameSolver(String),
    /// The config is not for two solvers A, B.
    #[error("the configuration must name the two solvers, A then B")]
    Config,
    /// The harness refused.
    #[error(transparent)]
    Harness(#[from] HarnessError),
    /// A pass's fresh copies of the solvers could not be made.
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// The setup of the lineup B, A: `setup`'s (for A, B) with its solvers,
/// and their budgets, reversed.
fn swapped<P: Puzzle>(setup: &Setup<P>) -> Setup<P> {
    let solvers = setup.lineup().solvers.iter().rev().cloned().collect();
    let budgets = setup.config().budgets().iter().rev().copied();
    with_solvers(setup, solvers, budgets)
}

/// `setup` with `solvers` instead (the same settings and parse options),
/// each at its budget of `budgets`.
fn with_solvers<P: Puzzle>(
    setup: &Setup<P>,
    solvers: Vec<SolverEntry<P>>,
    budgets: impl Iterator<Item = Budget>,
) -> Setup<P> {
    let lineup = Lineup {
        solvers,
        options: setup.lineup().options,
    };
    let mut new = Setup::with_settings(lineup, setup.config());
    for (budget, was) in new.config_mut().budgets_mut().iter_mut().zip(budgets) {
        *budget = was;
    }
    new
}

/// Runs A/B passes of `setup`'s two solvers A and B (in that order) over
/// `corpora`, until `options` says to stop; `on_pass` hears of each pass
/// as it ends.
pub fn run<P: Puzzle>(
    corpora: &[Corpus],
    setup: &Setup<P>,
    options: &Options,
    progress: Option<&dyn Progress>,
    on_pass: &mut dyn FnMut(&PassReport),
) -> Result<AbResult, AbError> {
    run_phase(corpora, setup, options, progress, false, on_pass)
}

/// First an A/A of B against a copy of itself (`aa_setup`: B, then the
/// copy under another name) for half of [`Options::max_time`], whose
/// interval's distance from 1.0 is the noise floor ([`Ratio::floor`]);
/// then the A/B of `setup` for the time left,
/// judged at the larger of the threshold and that floor. The A/A's own
/// result, false verdict or not, is [`AbResult::aa`]. An A/A without a
/// floor (too few passes in its time) leaves the threshold alone.
pub fn run_with_aa<P: Puzzle>(
    corpora: &[Corpus],
    setup: &Setup<P>,
    aa_setup: &Setup<P>,
    options: &Options,
    progress: Option<&dyn Progress>,
    on_pass: &mut dyn FnMut(&PassReport),
) -> Result<AbResult, AbError> {
    let started = Instant::now();
    let half = Options {
        max_time: options.max_time / 2,
        // Layouts of their own, not the A/B's.
        seed: options.seed ^ 0x9E37_79B9_7F4A_7C15,
        ..*options
    };
    let aa = run_phase(corpora, aa_setup, &half, progress, true, on_pass)?;
    let floor = match (aa.overall.floor(), options.floor) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    };
    let rest = Options {
        max_time: options.max_time.saturating_sub(started.elapsed()),
        floor,
        ..*options
    };
    let mut result = if aa.stop == Stop::Interrupted {
        // Nothing more: the A/B is not run.
        return Ok(AbResult {
            aa: Some(Box::new(aa.clone())),
            ..aa
        });
    } else {
        run_phase(corpora, setup, &rest, progress, false, on_pass)?
    };
    result.aa = Some(Box::new(aa));
    Ok(result)
}

fn run_phase<P: Puzzle>(
    corpora: &[Corpus],
    setup: &Setup<P>,
    options: &Options,
    progress: Option<&dyn Progress>,
    aa: bool,
    on_pass: &mut dyn FnMut(&PassReport),
) -> Result<AbResult, AbError> {
    let lineup = setup.lineup();
    let [a, b] = lineup.solvers.as_slice() else {
        return Err(AbError::Config);
    };
    if a.name() == b.name() {
        return Err(AbError::SameSolver(a.name().to_string()));
    }
    let orders = [setup.clone(), swapped(setup)];
    let names: Vec<&str> = corpora.iter().map(Corpus::name).collect();
    let mut tally = Tally::default();
    let mut pass_ratios = Vec::new();
    let mut discrepancies = Vec::new();
    let mut failed_solves = 0;
    let started = Instant::now();
    let mut longest = Duration::ZERO;
    let mut threads;
    let mut pass = 0u32;
    let warmup = options.warmup_passes;
    let judged_at = options.judged_at();
    let mut layout = options.randomise_layout.then(|| Layout::new(options.seed));
    let stop = loop {
        let pass_started = Instant::now();
        let flip = pass % 2 == 1;
        let collected = Arc::new(Mutex::new(Collected::default()));
        let sink = Box::new(Collector(Arc::clone(&collected)));
        let order = &orders[usize::from(flip)];
        // Fresh copies of both solvers for the pass, placed at random.
        let fresh = relaid(&mut layout, pass, order)?;
        let order = fresh.as_ref().unwrap_or(order);
        let result = harness::run(corpora, order, Some(sink), progress)?;
        threads = result.threads;
        failed_solves += result.failed_solves();
        discrepancies.extend(result.discrepancies);
        let collected = std::mem::take(&mut *collected.lock().unwrap_or_else(|e| e.into_inner()));
        let counted = pass >= warmup;
        let pass_ratio = tally.add_pass(collected.batches, &names, flip, pass, counted);
        pass_ratios.push(pass_ratio);
        pass += 1;
        longest = longest.max(pass_started.elapsed());
        let overall = tally.measured.ratio("all", None, options.confidence);
        let elapsed = started.elapsed();
        on_pass(&PassReport {
            pass,
            warmup: !counted,
            aa,
            pass_ratio,
            overall: overall.clone(),
            elapsed,
        });
        let rows = tally.measured.rows.len();
        let (times, interrupted) = ((longest, elapsed), result.interrupted);
        if let Some(stop) = stop_after(interrupted, &overall, rows, pass, times, options) {
            break stop;
        }
    };
    let measured = &tally.measured;
    let corpora_ratios = names
        .iter()
        .enumerate()
        .map(|(c, name)| measured.ratio(name, Some(c), options.confidence))
        .collect();
    let overall = measured.ratio("all", None, options.confidence);
    let verdict = judge(&overall, options);
    let work = tally.work_split();
    Ok(AbResult {
        a: a.name().to_string(),
        b: b.name().to_string(),
        corpora: corpora_ratios,
        verdict,
        judged_at,
        floor: options.floor,
        method: METHOD,
        overall,
        passes: pass,
        warmup_passes: warmup.min(pass),
        pass_ratios,
        stop,
        nodes: tally.nodes,
        work,
        discrepancies,
        failed_solves,
        threads,
        elapsed: started.elapsed(),
        aa: None,
        layout: layout.map(|l| l.summary(&lineup.solvers)),
    })
}

/// What a phase's passes have gathered: the measured per-puzzle log
/// ratios, and the node counts of the first pass.
struct Tally {
    measured: Measured,
    nodes: Nodes,
    /// Each puzzle's node counts (A, B), where both report them.
    node_counts: HashMap<(usize, u64), (u64, u64)>,
}

impl Default for Tally {
    fn default() -> Self {
        Tally {
            measured: Measured::default(),
            nodes: Nodes {
                totals: Some((0, 0)),
                ..Nodes::default()
            },
            node_counts: HashMap::new(),
        }
    }
}

impl Tally {
    /// Adds pass `pass`'s records (`flip`: B ran as solver 0), as a
    /// measured row when `counted`; returns the pass's ratio B/A (the
    /// geometric mean over the puzzles both timed), `None` with none.
    fn add_pass(
        &mut self,
        batches: Vec<(String, Vec<Record>)>,
        names: &[&str],
        flip: bool,
        pass: u32,
        counted: bool,
    ) -> Option<f64> {
        let Tally {
            measured,
            nodes,
            node_counts,
        } = self;
        let mut row = vec![f64::NAN; measured.corpus.len()];
        let (mut sum, mut timed_here) = (0.0, 0u64);
        for (corpus, records) in batches {
            let Some(c) = names.iter().position(|n| *n == corpus) else {
                continue;
            };
            // A batch holds both solvers' records of each puzzle.
            for pair in records.chunks_exact(2) {
                let (ra, rb) = match (pair[0].solver == 0) != flip {
                    true => (&pair[0], &pair[1]),
                    false => (&pair[1], &pair[0]),
                };
                let d = match timed(ra) && timed(rb) {
                    true => (rb.ns as f64).ln() - (ra.ns as f64).ln(),
                    false => f64::NAN,
                };
                if d.is_finite() {
                    sum += d;
                    timed_here += 1;
                }
                if counted {
                    let col = measured.column(c, ra.line);
                    if col >= row.len() {
                        row.resize(col + 1, f64::NAN);
                    }
                    row[col] = d;
                }
                if pass == 0 {
                    nodes.add(ra, rb);
                    if let (Some(x), Some(y)) = (ra.nodes, rb.nodes) {
                        node_counts.insert((c, ra.line), (x, y));
                    }
                }
            }
        }
        if counted {
            measured.rows.push(row);
        }
        (timed_here > 0).then(|| (sum / timed_here as f64).exp())
    }

    /// The work split of the per-puzzle ratios, by the puzzles' node counts.
    fn work_split(&self) -> Option<WorkSplit> {
        let measured = &self.measured;
        work_split_of(measured.puzzle_means().into_iter().filter_map(|(col, d)| {
            let &(x, y) = self
                .node_counts
                .get(&(measured.corpus[col], measured.line[col]))?;
            Some((d, x, y))
        }))
    }
}

/// Whether the passes stop after pass `pass` (`rows` of them measured, the
/// ratio so far `overall`), and why: interrupted, settled ([`settled`]),
/// at [`Options::max_passes`], or when the next pass (a whole pair's two
/// when one is done, each as long as the `longest` so far) would end after
/// [`Options::max_time`] (`elapsed` so far).
fn stop_after(
    interrupted: bool,
    overall: &Ratio,
    rows: usize,
    pass: u32,
    (longest, elapsed): (Duration, Duration),
    options: &Options,
) -> Option<Stop> {
    if interrupted {
        return Some(Stop::Interrupted);
    }
    if let Some(stop) = settled(overall, rows, pass, options) {
        return Some(stop);
    }
    if pass >= options.max_passes {
        return Some(Stop::Passes);
    }
    let next = match rows.is_multiple_of(2) {
        true => 2 * longest,
        false => longest,
    };
    (elapsed + next > options.max_time).then_some(Stop::Time)
}

/// After a pass, with `rows` measured passes so far and `pass` passes in
/// all: [`Stop::Decided`] or [`Stop::Precision`] when the passes may stop
/// on the interval. Weighed after a whole pair only, from
/// [`Options::min_passes`] and [`Options::min_units`] on.
fn settled(overall: &Ratio, rows: usize, pass: u32, options: &Options) -> Option<Stop> {
    if !rows.is_multiple_of(2) || pass < options.min_passes || overall.units < options.min_units() {
        return None;
    }
    if matches!(
        judge(overall, options),
        TimeVerdict::Regression | TimeVerdict::Improvement
    ) {
        return Some(Stop::Decided);
    }
    overall
        .half_width()
        .is_some_and(|h| options.precision > 0.0 && h <= options.precision)
        .then_some(Stop::Precision)
}

/// The verdict on `overall`: none before [`Options::min_units`] units,
/// else `compare`'s rule at [`Options::judged_at`].
fn judge(overall: &Ratio, options: &Options) -> TimeVerdict {
    match overall.units >= options.min_units() {
        true => verdict(overall.interval, options.judged_at()),
        false => TimeVerdict::NotEnoughData,
    }
}

/// The setup of pass `pass` with fresh copies of `setup`'s solvers
/// ([`Layout::pass`]) at their budgets; `None` when the layout is not
/// randomised.
fn relaid<P: Puzzle>(
    layout: &mut Option<Layout>,
    pass: u32,
    setup: &Setup<P>,
) -> Result<Option<Setup<P>>, LayoutError> {
    let Some(layout) = layout else {
        return Ok(None);
    };
    let solvers = layout.pass(pass, &setup.lineup().solvers)?;
    let budgets = setup.config().budgets().iter().copied();
    Ok(Some(with_solvers(setup, solvers, budgets)))
}

/// Whether a record has a usable time: within budget, run, non-zero.
fn timed(r: &Record) -> bool {
    r.status != Status::Budget && !r.status.is_untimed() && r.ns > 0
}

impl Nodes {
    /// Adds one puzzle's node counts and outcomes (first pass only: they
    /// do not change from pass to pass). One puzzle without counts on
    /// either side makes the totals unrecorded.
    fn add(&mut self, a: &Record, b: &Record) {
        match (self.totals.as_mut(), a.nodes, b.nodes) {
            (Some(totals), Some(x), Some(y)) => {
                totals.0 += x;
                totals.1 += y;
                self.changed += u64::from(x != y);
            }
            _ => self.totals = None,
        }
        if a.status != b.status || a.solutions != b.solutions {
            self.outcome_changed += 1;
        }
    }
}

#[cfg(test)]
mod tests;
