//! Per corpus x solver statistics, accumulated per worker and merged.

// Duplicates (issue #42): the match arms of `add` are alike in shape on purpose: one counter a
// status.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::own_time::{OwnTimeCheck, OwnTimes};
use super::Record;
use crate::solvers::{Status, Timing};

/// Highest latency the histograms track without resizing: one minute.
const HIST_HIGH: u64 = 60_000_000_000;
/// Significant figures of the latency histograms.
pub const HIST_SIGFIG: u8 = 3;

/// Statistics of one solver on one corpus.
///
/// Serialized, these are the exact accumulators of a `histograms.json`
/// entry (its `stats`; [`crate::results::HistogramSet`]): the counters,
/// sums and totals, without the name and the histogram, which the entry
/// holds beside them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SolverStats {
    /// Solver name.
    #[serde(skip)]
    pub name: String,
    /// Puzzles run.
    pub puzzles: u64,
    /// Puzzles the solver does not take ([`Status::NotApplicable`]): not
    /// run, and not counted in `puzzles`.
    pub not_applicable: u64,
    /// Puzzles with at least one solution (over-budget ones excluded).
    pub solved: u64,
    /// Puzzles without solution.
    pub unsolvable: u64,
    /// Puzzles with two or more solutions (a subset of `solved`).
    pub multiple: u64,
    /// Puzzles over the node budget.
    pub budget: u64,
    /// Puzzles for which the solver returned an invalid solution.
    pub invalid: u64,
    /// Puzzles on which the solver's process crashed
    /// ([`Status::Crashed`]): counted in `puzzles`, not timed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub crashed: u64,
    /// Puzzles past the solver's deadline ([`Status::Timeout`]): counted in
    /// `puzzles`, not timed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub timeout: u64,
    /// Puzzles answered out of protocol ([`Status::ProtocolError`]):
    /// counted in `puzzles`, not timed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub protocol_error: u64,
    /// Puzzles not run because the solver was stopped or the run
    /// interrupted ([`Status::Skipped`]): not counted in `puzzles`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub skipped: u64,
    /// Untimed warm-up solves (`--warmup`, and the first solve of each
    /// block) that failed: they have no record, and are counted here so
    /// that no failure is hidden.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub warm_up_failed: u64,
    /// Solves of symmetry images 1 to K-1 (`--images`) that failed
    /// (crashed, timeout, protocol error): rows of `images.csv`, not
    /// records of the puzzles, counted here so that no failure is hidden.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub image_failed: u64,
    /// Timed puzzles whose time is the solver's own report (`ns=`) of a
    /// solver in its own process ([`crate::solvers::Timing::Own`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub own_timed: u64,
    /// Timed puzzles whose time is the harness's round trip to a solver in
    /// its own process ([`crate::solvers::Timing::RoundTrip`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub round_trip_timed: u64,
    /// Sum of the round trips of the timed puzzles of a solver in its own
    /// process (whatever their recorded time), ns.
    #[serde(default, with = "as_u64", skip_serializing_if = "is_zero_u128")]
    pub round_trip_ns: u128,
    /// Sum of solve times of puzzles within budget, ns.
    #[serde(with = "as_u64")]
    pub sum_ns: u128,
    /// Sum of squared solve times within budget, ns^2 (for the deviation).
    pub sum_sq_ns: f64,
    /// Sum of solve times of over-budget puzzles, ns.
    #[serde(with = "as_u64")]
    pub budget_ns: u128,
    /// Total search nodes, over the puzzles whose solver reports them
    /// (`None` when none does).
    pub total_nodes: Option<u64>,
    /// Total branch points.
    pub total_guesses: u64,
    /// Total Dancing Links link updates, over the puzzles whose solver
    /// counts them (`None` when none does).
    pub total_updates: Option<u64>,
    /// Total mems (memory accesses as Knuth's programs count them), over
    /// the puzzles whose solver counts them (`None` when none does; left
    /// out of `histograms.json` then, so that files of runs without them,
    /// and older files, read the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_mems: Option<u64>,
    /// Puzzles solved without any branch point.
    pub no_guess: u64,
    /// Latencies (ns) of puzzles within budget, 3 significant figures.
    #[serde(skip, default = "empty_histogram")]
    pub histogram: Histogram<u64>,
    /// The own times and round trips of the puzzles timed by the solver's
    /// own report, for [`SolverStats::own_time_check`] (`None` until one
    /// is added; rebuilt from `puzzles.csv` by `merge`).
    #[serde(skip)]
    pub own_times: Option<Box<OwnTimes>>,
    /// The check of the own times as a result directory recorded it
    /// (`summary.csv`), for a run read back without [`Self::own_times`].
    #[serde(skip)]
    pub own_time_recorded: Option<OwnTimeCheck>,
}

/// A nanosecond sum in a file: a `u64` (which holds 584 years of solving;
/// more is written as `u64::MAX`).
mod as_u64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(*v).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        u64::deserialize(d).map(u128::from)
    }
}

/// Counters added with solvers in their own processes are left out of
/// `histograms.json` when zero, so that files of runs without them stay
/// as they were.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// [`is_zero`] for a nanosecond sum.
fn is_zero_u128(n: &u128) -> bool {
    *n == 0
}

/// An empty latency histogram, as every [`SolverStats`] starts with.
fn empty_histogram() -> Histogram<u64> {
    let mut histogram =
        Histogram::new_with_bounds(1, HIST_HIGH, HIST_SIGFIG).expect("valid histogram bounds");
    histogram.auto(true);
    histogram
}

impl SolverStats {
    /// Empty statistics.
    pub fn new(name: impl Into<String>) -> Self {
        let histogram = empty_histogram();
        SolverStats {
            name: name.into(),
            puzzles: 0,
            not_applicable: 0,
            solved: 0,
            unsolvable: 0,
            multiple: 0,
            budget: 0,
            invalid: 0,
            crashed: 0,
            timeout: 0,
            protocol_error: 0,
            skipped: 0,
            own_timed: 0,
            warm_up_failed: 0,
            image_failed: 0,
            round_trip_timed: 0,
            round_trip_ns: 0,
            sum_ns: 0,
            sum_sq_ns: 0.0,
            budget_ns: 0,
            total_nodes: None,
            total_guesses: 0,
            total_updates: None,
            total_mems: None,
            no_guess: 0,
            histogram,
            own_times: None,
            own_time_recorded: None,
        }
    }

    /// Clears everything (keeps the histogram's memory).
    pub(crate) fn reset(&mut self) {
        self.puzzles = 0;
        self.not_applicable = 0;
        self.solved = 0;
        self.unsolvable = 0;
        self.multiple = 0;
        self.budget = 0;
        self.invalid = 0;
        self.crashed = 0;
        self.timeout = 0;
        self.protocol_error = 0;
        self.skipped = 0;
        self.own_timed = 0;
        self.warm_up_failed = 0;
        self.image_failed = 0;
        self.round_trip_timed = 0;
        self.round_trip_ns = 0;
        self.sum_ns = 0;
        self.sum_sq_ns = 0.0;
        self.budget_ns = 0;
        self.total_nodes = None;
        self.total_guesses = 0;
        self.total_updates = None;
        self.total_mems = None;
        self.no_guess = 0;
        if let Some(t) = self.own_times.as_mut() {
            t.reset();
        }
        self.histogram.reset();
    }

    /// Adds one record.
    #[inline]
    pub(crate) fn add(&mut self, r: &Record) {
        let timed = match r.status {
            Status::NotApplicable => {
                // Not run: no time, no counters.
                self.not_applicable += 1;
                return;
            }
            Status::Budget => {
                self.budget += 1;
                self.budget_ns += u128::from(r.ns);
                false
            }
            Status::NoSolution => {
                self.unsolvable += 1;
                true
            }
            Status::Multiple => {
                self.solved += 1;
                self.multiple += 1;
                true
            }
            Status::Solved | Status::Unique => {
                self.solved += 1;
                true
            }
            Status::Invalid => {
                self.invalid += 1;
                true
            }
            Status::Skipped => {
                // Not run.
                self.skipped += 1;
                return;
            }
            // Run, but nothing it says counts: no time, no counters.
            Status::Crashed => {
                self.crashed += 1;
                self.puzzles += 1;
                return;
            }
            Status::Timeout => {
                self.timeout += 1;
                self.puzzles += 1;
                return;
            }
            Status::ProtocolError => {
                self.protocol_error += 1;
                self.puzzles += 1;
                return;
            }
        };
        self.puzzles += 1;
        if let Some(n) = r.nodes {
            *self.total_nodes.get_or_insert(0) += n;
        }
        self.total_guesses += r.guesses;
        if let Some(u) = r.updates {
            *self.total_updates.get_or_insert(0) += u;
        }
        if let Some(m) = r.mems {
            *self.total_mems.get_or_insert(0) += m;
        }
        self.no_guess += u64::from(r.guesses == 0);
        if timed {
            match r.timing {
                Timing::Call => {}
                Timing::RoundTrip => self.round_trip_timed += 1,
                Timing::Own {
                    round_trip_ns,
                    group,
                } => {
                    self.own_timed += 1;
                    self.own_times.get_or_insert_with(Default::default).add(
                        group.unwrap_or(r.line),
                        r.ns,
                        round_trip_ns,
                    );
                }
            }
            if let Some(rt) = r.timing.round_trip_ns(r.ns) {
                self.round_trip_ns += u128::from(rt);
            }
            self.sum_ns += u128::from(r.ns);
            let ns = r.ns as f64;
            self.sum_sq_ns += ns * ns;
            self.histogram.saturating_record(r.ns.max(1));
        }
    }

    /// Adds another worker's statistics.
    pub fn merge(&mut self, o: &SolverStats) {
        self.puzzles += o.puzzles;
        self.not_applicable += o.not_applicable;
        self.solved += o.solved;
        self.unsolvable += o.unsolvable;
        self.multiple += o.multiple;
        self.budget += o.budget;
        self.invalid += o.invalid;
        self.crashed += o.crashed;
        self.timeout += o.timeout;
        self.protocol_error += o.protocol_error;
        self.skipped += o.skipped;
        self.own_timed += o.own_timed;
        self.warm_up_failed += o.warm_up_failed;
        self.image_failed += o.image_failed;
        self.round_trip_timed += o.round_trip_timed;
        self.round_trip_ns += o.round_trip_ns;
        self.sum_ns += o.sum_ns;
        self.sum_sq_ns += o.sum_sq_ns;
        self.budget_ns += o.budget_ns;
        if let Some(n) = o.total_nodes {
            *self.total_nodes.get_or_insert(0) += n;
        }
        self.total_guesses += o.total_guesses;
        if let Some(u) = o.total_updates {
            *self.total_updates.get_or_insert(0) += u;
        }
        if let Some(m) = o.total_mems {
            *self.total_mems.get_or_insert(0) += m;
        }
        self.no_guess += o.no_guess;
        self.histogram
            .add(&o.histogram)
            .expect("auto-resizing histograms always merge");
        if let Some(theirs) = &o.own_times {
            self.own_times
                .get_or_insert_with(Default::default)
                .merge(theirs);
        }
    }

    /// Whether the solver's own times explain its round trips
    /// ([`super::own_time`]), given the pipe's floor (median, ns; 0 when
    /// not measured); `None` when too few puzzles were timed by its own
    /// report.
    pub fn own_time_check(&self, floor_ns: f64) -> Option<OwnTimeCheck> {
        match &self.own_times {
            Some(times) => times.check(floor_ns),
            None => self.own_time_recorded,
        }
    }

    /// Solves within budget (those in the histogram): not over budget,
    /// not failed.
    pub fn timed(&self) -> u64 {
        self.puzzles - self.budget - self.failed()
    }

    /// Puzzles run that failed: crashed, timeout, protocol error (skipped
    /// ones were not run).
    pub fn failed(&self) -> u64 {
        self.crashed + self.timeout + self.protocol_error
    }

    /// Where the latencies come from: `call` (in-process: the call, as
    /// every built-in and loaded solver), `own` (a solver in its own
    /// process that reports its time), `round-trip` (one that does not),
    /// `mixed` (some puzzles each way).
    pub fn latency_source(&self) -> &'static str {
        match (self.own_timed, self.round_trip_timed) {
            (0, 0) => "call",
            (_, 0) => "own",
            (0, _) => "round-trip",
            _ => "mixed",
        }
    }

    /// Mean round trip of the timed puzzles of a solver in its own process,
    /// ns (`None` for in-process solvers).
    pub fn mean_round_trip_ns(&self) -> Option<f64> {
        let n = self.own_timed + self.round_trip_timed;
        (n > 0).then(|| self.round_trip_ns as f64 / n as f64)
    }

    /// Exact mean solve time within budget, ns (0 when none).
    pub fn mean_ns(&self) -> f64 {
        match self.timed() {
            0 => 0.0,
            n => self.sum_ns as f64 / n as f64,
        }
    }

    /// Standard deviation of solve times within budget, ns.
    pub fn stddev_ns(&self) -> f64 {
        let n = self.timed();
        if n < 2 {
            return 0.0;
        }
        let mean = self.mean_ns();
        let var = (self.sum_sq_ns / n as f64 - mean * mean).max(0.0) * n as f64 / (n - 1) as f64;
        var.sqrt()
    }

    /// Latency at `quantile` (0..=1) within budget, ns (0 when none).
    pub fn quantile_ns(&self, quantile: f64) -> u64 {
        if self.histogram.is_empty() {
            0
        } else {
            self.histogram.value_at_quantile(quantile)
        }
    }

    /// Largest latency within budget, ns.
    pub fn max_ns(&self) -> u64 {
        if self.histogram.is_empty() {
            0
        } else {
            self.histogram.max()
        }
    }

    /// All solve time, over-budget solves included, ns.
    pub fn total_ns(&self) -> u128 {
        self.sum_ns + self.budget_ns
    }

    /// Throughput of `workers` workers spending all their time in this
    /// solver: `puzzles within budget * workers / their solve time`.
    /// Over-budget solves are kept out (their count is reported apart), as
    /// are parsing, validation and harness overhead. `workers` is the
    /// number of workers that ran the corpus ([`super::CorpusResult::workers`]),
    /// not the threads asked for: `-j 1000` on a one-chunk corpus is one
    /// worker. `None` when nothing was timed.
    pub fn puzzles_per_s(&self, workers: usize) -> Option<f64> {
        match (self.timed(), self.sum_ns) {
            (0, _) | (_, 0) => None,
            (n, t) => Some(n as f64 * workers as f64 * 1e9 / t as f64),
        }
    }

    /// Branch points per puzzle (failed puzzles left out).
    pub fn guesses_per_puzzle(&self) -> f64 {
        match self.puzzles - self.failed() {
            0 => 0.0,
            n => self.total_guesses as f64 / n as f64,
        }
    }

    /// Percentage of puzzles solved without a branch point (failed
    /// puzzles left out).
    pub fn no_guess_pct(&self) -> f64 {
        match self.puzzles - self.failed() {
            0 => 0.0,
            n => self.no_guess as f64 * 100.0 / n as f64,
        }
    }
}
