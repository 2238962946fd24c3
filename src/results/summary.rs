//! `summary.csv`: one row per corpus x solver (columns in
//! [`schema::summary`](super::schema::summary), in the order of
//! [`SummaryRow`]'s fields).

use serde::{Deserialize, Serialize};

/// One row of `summary.csv`.
///
/// Written by [`crate::report::summary_csv`]; read by `compare`, which
/// also computes one from per-puzzle rows when a run has no `summary.csv`.
/// Columns a file from an older version may lack read as their default
/// (`None`, 0); latencies and rates are `None` (an empty field) where
/// nothing was timed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Puzzles run.
    pub puzzles: u64,
    /// Puzzles with at least one solution within budget.
    pub solved: u64,
    /// Puzzles without solution.
    pub unsolvable: u64,
    /// Puzzles with two or more solutions (part of `solved`).
    pub multiple: u64,
    /// Puzzles over the node budget.
    pub budget: u64,
    /// Lines of the corpus that did not parse.
    #[serde(default)]
    pub malformed: u64,
    /// Returned grids that are not solutions.
    pub invalid: u64,
    /// Mean solve time within budget, ns (exact).
    #[serde(serialize_with = "fixed::<_, 1>")]
    pub mean_ns: Option<f64>,
    /// Standard deviation of the solve times within budget, ns (exact).
    #[serde(serialize_with = "fixed::<_, 1>")]
    pub stddev_ns: Option<f64>,
    /// Median solve time within budget, ns (HdrHistogram).
    #[serde(serialize_with = "fixed::<_, 0>")]
    pub p50_ns: Option<f64>,
    /// 90th percentile, ns.
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub p90_ns: Option<f64>,
    /// 99th percentile, ns.
    #[serde(serialize_with = "fixed::<_, 0>")]
    pub p99_ns: Option<f64>,
    /// 99.9th percentile, ns.
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub p999_ns: Option<f64>,
    /// Largest solve time within budget, ns.
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub max_ns: Option<f64>,
    /// Total search nodes (`None`: not recorded).
    pub total_nodes: Option<u64>,
    /// Branch points per puzzle.
    #[serde(default, serialize_with = "fixed::<_, 3>")]
    pub guesses_per_puzzle: Option<f64>,
    /// Puzzles solved without a branch point, percent.
    #[serde(default, serialize_with = "fixed::<_, 2>")]
    pub no_guess_pct: Option<f64>,
    /// Throughput (puzzles within budget x workers / their solve time).
    #[serde(serialize_with = "fixed::<_, 1>")]
    pub puzzles_per_s: Option<f64>,
    /// `puzzles_per_s` over the reference solver's.
    #[serde(default, serialize_with = "fixed::<_, 4>")]
    pub speed_vs_reference: Option<f64>,
    /// Worker threads, if known.
    #[serde(default)]
    pub threads: Option<u64>,
    /// Mode (`unique`, `first`, `count`), if known.
    #[serde(default)]
    pub mode: Option<String>,
    /// Node budget of the solver (`None`: unlimited or unknown).
    #[serde(default)]
    pub budget_nodes: Option<u64>,
    /// The solver speeds are quoted against, if known.
    #[serde(default)]
    pub reference: Option<String>,
    /// Total link updates (`None`: not recorded).
    #[serde(default)]
    pub total_updates: Option<u64>,
    /// Puzzles the solver does not take: not run, not in `puzzles`.
    #[serde(default)]
    pub not_applicable: u64,
    /// Puzzles on which the solver's process crashed (in `puzzles`, not
    /// timed).
    #[serde(default)]
    pub crashed: u64,
    /// Puzzles past the solver's deadline (in `puzzles`, not timed).
    #[serde(default)]
    pub timeout: u64,
    /// Puzzles answered out of protocol (in `puzzles`, not timed).
    #[serde(default)]
    pub protocol_error: u64,
    /// Puzzles not run: the solver was stopped after failures in a row,
    /// or the run interrupted during its call (not in `puzzles`).
    #[serde(default)]
    pub skipped: u64,
    /// What the latencies measured: `call` (in-process), `own` (a solver
    /// in its own process, its own `ns=`), `round-trip` (the harness's
    /// round trip to it), `mixed`. `None`: an older file (`call`).
    #[serde(default)]
    pub latency_source: Option<String>,
    /// Mean round trip to a solver in its own process, ns (`None` for
    /// in-process solvers).
    #[serde(default, serialize_with = "fixed::<_, 1>")]
    pub mean_round_trip_ns: Option<f64>,
    /// The paired speed against the reference: the geometric mean of
    /// `ns_reference / ns_solver` over the puzzles both solved within
    /// budget with the same valid answer (above 1: faster); 1 for the
    /// reference; empty when there is no ratio (`speed_note` says why) or
    /// in an older file.
    #[serde(default, serialize_with = "fixed::<_, 6>")]
    pub speed_vs: Option<f64>,
    /// Lower bound of its 95% interval (a bootstrap over blocks of lines).
    #[serde(default, serialize_with = "fixed::<_, 6>")]
    pub speed_low: Option<f64>,
    /// Upper bound of its 95% interval.
    #[serde(default, serialize_with = "fixed::<_, 6>")]
    pub speed_high: Option<f64>,
    /// Puzzles the ratio is over (both solved).
    #[serde(default)]
    pub speed_puzzles: Option<u64>,
    /// `reference` for the reference; why there is no ratio (`invalid`,
    /// `ref invalid`, `disagrees`, `too few`, `no data`, `unverified`: its
    /// own times do not explain its round trips, `ref unverified`); empty
    /// otherwise.
    #[serde(default)]
    pub speed_note: Option<String>,
    /// Total mems: memory accesses as Knuth's programs count them (`None`:
    /// not recorded, or an older file).
    #[serde(default)]
    pub total_mems: Option<u64>,
    /// The share of the round trips the solver's own times explain
    /// ([`crate::harness::own_time`]); below 0.8 its times are unverified
    /// (`speed_note` `unverified`). Empty for solvers not timed by their
    /// own report, and in older files.
    #[serde(default, serialize_with = "fixed::<_, 3>")]
    pub own_time_explained: Option<f64>,
    /// What a request costs beyond the solver's own time, ns (the round
    /// trips' median less the own times'; pipe included).
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub own_overhead_ns: Option<f64>,
}

impl SummaryRow {
    /// Puzzles timed within budget (not failed).
    pub fn timed(&self) -> u64 {
        self.puzzles
            .saturating_sub(self.budget)
            .saturating_sub(self.failed())
    }

    /// Puzzles run that failed: crashed, timeout, protocol error.
    pub fn failed(&self) -> u64 {
        self.crashed + self.timeout + self.protocol_error
    }
}

/// A figure with `DECIMALS` decimals; empty when `None`.
fn fixed<S: serde::Serializer, const DECIMALS: usize>(
    v: &Option<f64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_str(&format!("{v:.DECIMALS$}")),
        None => s.serialize_str(""),
    }
}
