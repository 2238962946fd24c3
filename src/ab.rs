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
//! The estimate is the ratio B/A of geometric means: `exp(mean(d))` over
//! the puzzles, `d` a puzzle's mean of `ln(ns_B / ns_A)` over the passes,
//! with a percentile bootstrap interval over puzzles
//! ([`crate::compare::bootstrap::paired`]). Passes repeat until the
//! interval lies wholly beyond the threshold (a decided verdict), or its
//! half-width is within the wanted precision, or the next pass would not
//! end within the time allowed: a decision comes in bounded time. (A real
//! difference varies from puzzle to puzzle, which keeps the interval over
//! puzzles from narrowing below that spread: such a run stops as decided.) The verdict follows `compare`'s rule: a regression when the whole
//! interval lies above `1 + threshold`.
//!
//! Node counts, where both sides report them, are compared puzzle by
//! puzzle: a difference means the two do not run the same algorithm.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::compare::bootstrap::{self, Interval};
use crate::compare::{verdict, RatioHistogram, TimeVerdict};
use crate::corpus::Corpus;
use crate::harness::{self, Config, HarnessError, Lineup, Progress, Record, RecordSink};
use crate::puzzle::Puzzle;
use crate::solvers::Status;

/// How long to measure, and what to call a regression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// A regression is declared when the whole interval lies above
    /// `1 + threshold` (0.01: 1%).
    pub threshold: f64,
    /// Passes stop once the interval's half-width, relative to the
    /// estimate, is at most this (0.005: within +-0.5%).
    pub precision: f64,
    /// No pass starts that would not end within this time from the start
    /// (judged by the longest pass so far).
    pub max_time: Duration,
    /// Passes made whatever the precision (at least 1; 2 lets each side go
    /// first on every block once).
    pub min_passes: u32,
    /// Passes never exceed this.
    pub max_passes: u32,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Confidence level of the interval (0.95).
    pub confidence: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: 0.01,
            precision: 0.005,
            max_time: Duration::from_secs(30),
            min_passes: 2,
            max_passes: 1000,
            resamples: crate::compare::DEFAULT_RESAMPLES,
            seed: crate::compare::DEFAULT_SEED,
            confidence: 0.95,
        }
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
            Stop::Time => "the time allowed ran out before the precision was reached",
            Stop::Passes => "the most passes allowed were made",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// The ratio B/A over some puzzles.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratio {
    /// What the puzzles are (a corpus name, or `all`).
    pub name: String,
    /// Puzzles timed by both sides (within budget) in every pass.
    pub puzzles: usize,
    /// The ratio and its interval (`None` with fewer than two puzzles).
    pub interval: Option<Interval>,
    /// The per-puzzle ratios B/A (each puzzle's mean over the passes).
    pub distribution: RatioHistogram,
}

impl Ratio {
    /// The interval's half-width relative to the estimate.
    pub fn half_width(&self) -> Option<f64> {
        self.interval.map(|i| (i.high - i.low) / 2.0 / i.estimate)
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
    /// The verdict.
    pub verdict: TimeVerdict,
    /// Passes made.
    pub passes: u32,
    /// Why they stopped.
    pub stop: Stop,
    /// Node counts.
    pub nodes: Nodes,
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
}

/// Where a pass stands, after it ends.
#[derive(Debug, Clone)]
pub struct PassReport {
    /// Passes made so far (1 after the first).
    pub pass: u32,
    /// The overall ratio so far.
    pub overall: Ratio,
    /// Time since the start.
    pub elapsed: Duration,
}

/// One puzzle's measurements over the passes.
#[derive(Debug, Clone, Copy, Default)]
struct Puzzle2 {
    /// Sum of `ln(ns_B / ns_A)` over the passes where both were timed.
    sum: f64,
    /// Passes where both were timed.
    timed: u32,
    /// Passes where either was not (over budget, not applicable).
    untimed: u32,
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
    #[error("A and B are both `{0}`: compare two different solvers (load one build twice under two names with --solver-lib PATH:SYMBOL=NAME)")]
    SameSolver(String),
    /// The config is not for two solvers A, B.
    #[error("the configuration must name the two solvers, A then B")]
    Config,
    /// The harness refused.
    #[error(transparent)]
    Harness(#[from] HarnessError),
}

/// The config for the lineup B, A: `config` (for A, B) with its per-solver
/// vectors reversed.
fn swapped(config: &Config) -> Config {
    let mut c = config.clone();
    c.solvers.reverse();
    c.budgets.reverse();
    c.descriptions.reverse();
    c.log_files.reverse();
    c
}

/// Runs A/B passes of `a` and `b` over `corpora` under `config` (whose
/// solvers must be `a`, `b`, in that order), until `options` says to stop;
/// `on_pass` hears of each pass as it ends.
pub fn run<P: Puzzle>(
    corpora: &[Corpus],
    config: &Config,
    lineup: &Lineup<P>,
    options: &Options,
    progress: Option<&dyn Progress>,
    on_pass: &mut dyn FnMut(&PassReport),
) -> Result<AbResult, AbError> {
    let [a, b] = lineup.solvers.as_slice() else {
        return Err(AbError::Config);
    };
    if a.name() == b.name() {
        return Err(AbError::SameSolver(a.name().to_string()));
    }
    let forward = config.clone();
    let backward = swapped(config);
    let lineups = [
        Lineup {
            solvers: vec![a.clone(), b.clone()],
            options: lineup.options,
        },
        Lineup {
            solvers: vec![b.clone(), a.clone()],
            options: lineup.options,
        },
    ];
    let names: Vec<&str> = corpora.iter().map(Corpus::name).collect();
    let mut puzzles: HashMap<(usize, u64), Puzzle2> = HashMap::new();
    let mut nodes = Nodes {
        totals: Some((0, 0)),
        ..Nodes::default()
    };
    let mut discrepancies = Vec::new();
    let mut failed_solves = 0;
    let started = Instant::now();
    let mut longest = Duration::ZERO;
    let mut threads;
    let mut pass = 0u32;
    let stop = loop {
        let pass_started = Instant::now();
        let flip = pass % 2 == 1;
        let collected = Arc::new(Mutex::new(Collected::default()));
        let sink = Box::new(Collector(Arc::clone(&collected)));
        let (cfg, lu) = match flip {
            false => (&forward, &lineups[0]),
            true => (&backward, &lineups[1]),
        };
        let result = harness::run(corpora, cfg, lu, Some(sink), progress)?;
        threads = result.threads;
        failed_solves += result.failed_solves();
        discrepancies.extend(result.discrepancies);
        let collected = std::mem::take(&mut *collected.lock().unwrap_or_else(|e| e.into_inner()));
        for (corpus, records) in collected.batches {
            let Some(c) = names.iter().position(|n| *n == corpus) else {
                continue;
            };
            // A batch holds both solvers' records of each puzzle.
            for pair in records.chunks_exact(2) {
                let (ra, rb) = match (pair[0].solver == 0) != flip {
                    true => (&pair[0], &pair[1]),
                    false => (&pair[1], &pair[0]),
                };
                let entry = puzzles.entry((c, ra.line)).or_default();
                if timed(ra) && timed(rb) {
                    entry.sum += (rb.ns as f64).ln() - (ra.ns as f64).ln();
                    entry.timed += 1;
                } else {
                    entry.untimed += 1;
                }
                if pass == 0 {
                    nodes.add(ra, rb);
                }
            }
        }
        pass += 1;
        longest = longest.max(pass_started.elapsed());
        let overall = ratio("all", puzzles.values(), options);
        let elapsed = started.elapsed();
        on_pass(&PassReport {
            pass,
            overall: overall.clone(),
            elapsed,
        });
        if result.interrupted {
            break Stop::Interrupted;
        }
        if pass >= options.min_passes.max(1) {
            if matches!(
                verdict(overall.interval, options.threshold),
                TimeVerdict::Regression | TimeVerdict::Improvement
            ) {
                break Stop::Decided;
            }
            if overall.half_width().is_some_and(|h| h <= options.precision) {
                break Stop::Precision;
            }
        }
        if pass >= options.max_passes {
            break Stop::Passes;
        }
        if elapsed + longest > options.max_time {
            break Stop::Time;
        }
    };
    let corpora_ratios = names
        .iter()
        .enumerate()
        .map(|(c, name)| {
            ratio(
                name,
                puzzles.iter().filter(|((k, _), _)| *k == c).map(|(_, p)| p),
                options,
            )
        })
        .collect();
    let overall = ratio("all", puzzles.values(), options);
    Ok(AbResult {
        a: a.name().to_string(),
        b: b.name().to_string(),
        corpora: corpora_ratios,
        verdict: verdict(overall.interval, options.threshold),
        overall,
        passes: pass,
        stop,
        nodes,
        discrepancies,
        failed_solves,
        threads,
        elapsed: started.elapsed(),
    })
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

/// The ratio over the puzzles timed by both sides in every pass.
fn ratio<'a>(name: &str, puzzles: impl Iterator<Item = &'a Puzzle2>, options: &Options) -> Ratio {
    let d: Vec<f64> = puzzles
        .filter(|p| p.timed > 0 && p.untimed == 0)
        .map(|p| p.sum / f64::from(p.timed))
        .collect();
    // The bootstrap draws in `d`'s order: sort it, so that the interval
    // depends on the data only, not on the hash map's order.
    let mut d = d;
    d.sort_unstable_by(f64::total_cmp);
    Ratio {
        name: name.to_string(),
        puzzles: d.len(),
        interval: bootstrap::paired(&d, options.resamples, options.seed, options.confidence),
        distribution: RatioHistogram::from_log_ratios(d.iter().copied()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::Schedule;
    use crate::solvers::{SolverEntry, SolverSet};
    use crate::sudoku::Grid;

    fn synthetic(d: impl Iterator<Item = f64>) -> Vec<Puzzle2> {
        d.map(|d| Puzzle2 {
            sum: d,
            timed: 1,
            untimed: 0,
        })
        .collect()
    }

    /// Noise that averages to zero: a fixed spread of per-puzzle log-ratios.
    fn noise(i: usize) -> f64 {
        ((i * 37 % 101) as f64 - 50.0) / 500.0
    }

    #[test]
    fn a_and_a_give_no_verdict_and_a_slower_b_a_regression() {
        let options = Options::default();
        let same = synthetic((0..2000).map(noise));
        let r = ratio("all", same.iter(), &options);
        let i = r.interval.unwrap();
        assert!(i.contains(1.0), "{i:?}");
        assert_eq!(
            verdict(r.interval, options.threshold),
            TimeVerdict::NoChange
        );
        let slower = synthetic((0..2000).map(|i| noise(i) + 1.03f64.ln()));
        let r = ratio("all", slower.iter(), &options);
        assert!((r.interval.unwrap().estimate - 1.03).abs() < 0.005, "{r:?}");
        assert_eq!(
            verdict(r.interval, options.threshold),
            TimeVerdict::Regression
        );
        let faster = synthetic((0..2000).map(|i| noise(i) - 1.03f64.ln()));
        let r = ratio("all", faster.iter(), &options);
        assert_eq!(
            verdict(r.interval, options.threshold),
            TimeVerdict::Improvement
        );
        // A puzzle untimed in any pass is left out.
        let mut some = synthetic((0..10).map(noise));
        some[0].untimed = 1;
        assert_eq!(ratio("all", some.iter(), &options).puzzles, 9);
        assert_eq!(ratio("all", some.iter().take(1), &options).interval, None);
    }

    #[test]
    fn the_ratio_does_not_depend_on_the_puzzles_order() {
        let options = Options::default();
        let list = synthetic((0..500).map(|i| noise(i) + (i % 7) as f64 / 100.0));
        let forward = ratio("all", list.iter(), &options);
        let backward = ratio("all", list.iter().rev(), &options);
        assert_eq!(forward, backward);
    }

    #[test]
    fn over_two_passes_each_side_goes_first_on_every_block_once() {
        let schedule = Schedule { block: 3 };
        for chunk in 0..4 {
            // Lineup A, B on even passes and B, A on odd ones: solver
            // index 0 is A, then B.
            let first = |flip: bool| -> Vec<bool> {
                schedule
                    .steps(20, 2, chunk, 0)
                    .step_by(2)
                    .map(|s| (s.solver == 0) != flip)
                    .collect()
            };
            let (even, odd) = (first(false), first(true));
            assert_eq!(even.len(), 7);
            assert!(even.iter().zip(&odd).all(|(x, y)| x != y));
            // Within a pass, A goes first on every other block.
            let a_first = even.iter().filter(|&&a| a).count();
            assert!(a_first == 3 || a_first == 4, "{even:?}");
        }
    }

    fn corpus() -> Corpus {
        let embedded = Grid::embedded_corpus();
        Corpus::from_static(embedded.name, embedded.text).unwrap()
    }

    fn lineup(a: SolverEntry<Grid>, b: SolverEntry<Grid>) -> (Lineup<Grid>, Config) {
        let lineup = Lineup::new(vec![a, b]);
        let mut config = Config::new(&lineup);
        config.threads = 1;
        (lineup, config)
    }

    fn fast() -> Options {
        Options {
            max_passes: 2,
            resamples: 200,
            ..Options::default()
        }
    }

    #[test]
    fn one_solver_under_two_names_runs_the_same_algorithm() {
        let set = SolverSet::<Grid>::builtin();
        let dlx = set.by_name("dlx").unwrap().clone();
        let again = SolverEntry::new("dlx-again", "dlx, again", || {
            (crate::sudoku::solvers::dlx::INFO.make)()
        });
        let (lineup, config) = lineup(dlx, again);
        let mut reports = Vec::new();
        let r = run(&[corpus()], &config, &lineup, &fast(), None, &mut |p| {
            reports.push(p.pass)
        })
        .unwrap();
        assert_eq!((r.a.as_str(), r.b.as_str()), ("dlx", "dlx-again"));
        assert_eq!(r.passes, reports.len() as u32);
        assert!(r.passes >= 1 && r.passes <= 2, "{}", r.passes);
        assert_eq!(r.overall.puzzles, 1000);
        assert_eq!(r.corpora[0].puzzles, 1000);
        let (x, y) = r.nodes.totals.unwrap();
        assert_eq!(x, y);
        assert_eq!((r.nodes.changed, r.nodes.outcome_changed), (0, 0));
        assert!(r.discrepancies.is_empty());
    }

    #[test]
    fn different_algorithms_show_as_changed_node_counts() {
        let set = SolverSet::<Grid>::builtin();
        let (lineup, config) = lineup(
            set.by_name("dlx").unwrap().clone(),
            set.by_name("singles").unwrap().clone(),
        );
        let r = run(&[corpus()], &config, &lineup, &fast(), None, &mut |_| {}).unwrap();
        assert!(r.nodes.changed > 0);
        let (x, y) = r.nodes.totals.unwrap();
        assert_ne!(x, y);
        assert_eq!(r.nodes.outcome_changed, 0);
    }

    #[test]
    fn a_and_b_must_differ() {
        let set = SolverSet::<Grid>::builtin();
        let dlx = set.by_name("dlx").unwrap().clone();
        let (lineup, config) = lineup(dlx.clone(), dlx);
        let err = run(&[corpus()], &config, &lineup, &fast(), None, &mut |_| {}).unwrap_err();
        assert!(
            matches!(err, AbError::SameSolver(ref n) if n == "dlx"),
            "{err}"
        );
    }
}
