//! Regression tracking: compare two benchmark runs (`dlxbench compare`).
//!
//! [`load()`] reads a run written by `dlxbench bench` (a result directory, or
//! its `summary.csv` or `puzzles.csv`); [`compare`] matches the two runs'
//! rows by corpus x solver (and, when both have `puzzles.csv`, by puzzle
//! line) and makes two checks; [`render`] writes the outcome as a terminal
//! table, Markdown or JSON.
//!
//! # Deterministic counters
//! Search nodes and Dancing Links link updates do not depend on the
//! machine: for the same corpus, solver, mode and budget they must be
//! identical. Per puzzle when both runs have `puzzles.csv` (nodes, updates,
//! status and solution count of every puzzle; puzzles present on one side
//! only count too), else on the totals of `summary.csv`. Any difference is
//! an *algorithm change*, reported with its size and the first few puzzles
//! ([`Counters`]). Updates are compared only when both runs recorded them
//! (runs from before the `updates` column did not).
//!
//! # Time
//! Per corpus x solver, the ratio current / baseline of the geometric mean
//! of per-puzzle solve times, paired by puzzle: over the puzzles present in
//! both runs, timed (status not `budget`) and with a non-zero time in both,
//! `d_i = ln(current_i / baseline_i)` and the ratio is `exp(mean d)`. Its 95%
//! confidence interval comes from a seeded percentile bootstrap over
//! puzzles ([`bootstrap::paired`]); each corpus x solver uses the stream
//! `seed` xor a hash (FNV-1a) of `corpus NUL solver`, so results do not
//! depend on the order of the rows. When one run has no per-puzzle data,
//! the ratio of mean times with a normal-approximation interval from the
//! summaries' mean, standard deviation and count is used instead, and the
//! output says so ([`Method::RatioOfMeansNormal`]).
//!
//! The verdict ([`Verdict`]): a *regression* only when the whole interval
//! lies above `1 + threshold`, an *improvement* only when it lies below
//! `1 - threshold`, otherwise *no significant change*. p50, p99 and
//! throughput ratios (from the summaries) are shown for reading; they gate
//! nothing.
//!
//! # Unusable input
//! Runs that cannot be compared are an error ([`CompareError`]): a missing
//! or unreadable file, a CSV that does not parse (file and line named), or
//! runs that differ in mode, solution limit, symmetry-image seed, node
//! budget of a solver present in both, or SHA-256 of a corpus present in
//! both ([`Difference`]). Corpora or solvers present on one side only are
//! listed, not errors.

pub mod bootstrap;
pub mod load;
pub mod render;

use std::path::PathBuf;

use crate::report::schema;

pub use bootstrap::Interval;
pub use load::{load, Group, PuzzleRow, Run, SummaryRow};

/// Why two runs could not be read or compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A path that should exist does not, or is not a result directory.
    #[error("{}: {what}", path.display())]
    Missing {
        /// The path.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Reading a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A CSV file does not parse.
    #[error("{}:{line}: {message}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// `run.json` does not parse.
    #[error("{}: invalid JSON: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The runs measured different things.
    #[error("the runs cannot be compared: {}", join(.0))]
    Incompatible(Vec<Difference>),
}

fn join(differences: &[Difference]) -> String {
    differences
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A difference between two runs that makes them incomparable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// Different `--mode`.
    Mode {
        /// Baseline mode.
        baseline: String,
        /// Current mode.
        current: String,
    },
    /// Different solution limits (`None`: no limit).
    Limit {
        /// Baseline limit.
        baseline: Option<u64>,
        /// Current limit.
        current: Option<u64>,
    },
    /// Different `--permute` seeds: the puzzles solved were different.
    Permute {
        /// Baseline seed.
        baseline: Option<u64>,
        /// Current seed.
        current: Option<u64>,
    },
    /// The same corpus name with different contents.
    Checksum {
        /// Corpus name.
        corpus: String,
        /// Baseline SHA-256.
        baseline: String,
        /// Current SHA-256.
        current: String,
    },
    /// Different node budgets for a solver (`None`: unlimited).
    Budget {
        /// Solver name.
        solver: String,
        /// Baseline budget.
        baseline: Option<u64>,
        /// Current budget.
        current: Option<u64>,
    },
}

fn or_none(v: Option<u64>, none: &str) -> String {
    v.map_or_else(|| none.to_string(), |v| v.to_string())
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Mode { baseline, current } => write!(
                f,
                "different modes: baseline `{baseline}`, current `{current}`"
            ),
            Difference::Limit { baseline, current } => write!(
                f,
                "different solution limits: baseline {}, current {}",
                or_none(*baseline, "none"),
                or_none(*current, "none")
            ),
            Difference::Permute { baseline, current } => write!(
                f,
                "different --permute seeds (different puzzles): baseline {}, current {}",
                or_none(*baseline, "none"),
                or_none(*current, "none")
            ),
            Difference::Checksum {
                corpus,
                baseline,
                current,
            } => write!(
                f,
                "corpus `{corpus}` differs: SHA-256 {baseline} in the baseline, {current} in the current run"
            ),
            Difference::Budget {
                solver,
                baseline,
                current,
            } => write!(
                f,
                "solver `{solver}` has different node budgets: baseline {}, current {}",
                or_none(*baseline, "unlimited"),
                or_none(*current, "unlimited")
            ),
        }
    }
}

/// Which checks decide the exit status (both are always reported when the
/// data exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// Only the time check gates.
    Time,
    /// Only the deterministic counters gate.
    Nodes,
    /// Both gate.
    #[default]
    Both,
}

impl Metric {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::Nodes => "nodes",
            Metric::Both => "both",
        }
    }

    /// Whether time regressions fail the comparison.
    pub fn gates_time(self) -> bool {
        self != Metric::Nodes
    }

    /// Whether counter changes fail the comparison.
    pub fn gates_nodes(self) -> bool {
        self != Metric::Time
    }
}

/// Default bootstrap seed.
pub const DEFAULT_SEED: u64 = 1;
/// Default number of bootstrap resamples.
pub const DEFAULT_RESAMPLES: usize = 2000;
/// Default threshold, as a fraction (5%).
pub const DEFAULT_THRESHOLD: f64 = 0.05;

/// How to compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Relative change below which nothing is declared, as a fraction
    /// (0.05 for 5%).
    pub threshold: f64,
    /// Which checks gate.
    pub metric: Metric,
    /// Counter changes are reported but do not fail.
    pub allow_algorithm_change: bool,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Confidence level of the intervals (0.95).
    pub confidence: f64,
    /// Changed puzzles listed per corpus x solver.
    pub examples: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: DEFAULT_THRESHOLD,
            metric: Metric::Both,
            allow_algorithm_change: false,
            resamples: DEFAULT_RESAMPLES,
            seed: DEFAULT_SEED,
            confidence: 0.95,
            examples: 5,
        }
    }
}

/// Parses a threshold: a number of percent, with or without a `%` sign
/// (`5%` and `5` are both five percent; `0.5` is half a percent). Must be
/// at least 0 and below 100.
pub fn parse_threshold(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let number = t.strip_suffix('%').unwrap_or(t).trim();
    let pct: f64 = number.parse().map_err(|_| {
        format!("`{text}` is not a percentage (write e.g. `5%` or `5`, meaning five percent)")
    })?;
    if !pct.is_finite() || !(0.0..100.0).contains(&pct) {
        return Err(format!(
            "`{text}`: the threshold must be at least 0% and below 100%"
        ));
    }
    Ok(pct / 100.0)
}

/// One side of a comparison, for the report header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    /// The path given.
    pub path: String,
    /// Whether per-puzzle data was read.
    pub per_puzzle: bool,
    /// dlxbench version.
    pub version: Option<String>,
    /// Git revision.
    pub git_revision: Option<String>,
    /// CPU model.
    pub cpu_model: Option<String>,
    /// Start time.
    pub started: Option<String>,
    /// Worker threads.
    pub threads: Option<u64>,
}

impl Side {
    fn of(run: &Run) -> Side {
        let j = run.run_json.as_ref();
        Side {
            path: run.source.display().to_string(),
            per_puzzle: run.has_per_puzzle(),
            version: j.and_then(|j| j.version.clone()),
            git_revision: j.and_then(|j| j.git_revision.clone()),
            cpu_model: j.and_then(|j| j.cpu_model.clone()),
            started: j.and_then(|j| j.started.clone()),
            threads: run.threads(),
        }
    }
}

/// Outcome counts of one corpus x solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Puzzles run.
    pub puzzles: u64,
    /// Solved within budget.
    pub solved: u64,
    /// Without solution.
    pub unsolvable: u64,
    /// With two or more solutions.
    pub multiple: u64,
    /// Over budget.
    pub budget: u64,
    /// Invalid solutions.
    pub invalid: u64,
}

impl Counts {
    fn of(s: &SummaryRow) -> Counts {
        Counts {
            puzzles: s.puzzles,
            solved: s.solved,
            unsolvable: s.unsolvable,
            multiple: s.multiple,
            budget: s.budget,
            invalid: s.invalid,
        }
    }
}

/// Where the counters were compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Puzzle by puzzle (both runs have `puzzles.csv`).
    PerPuzzle,
    /// Totals from the summaries only.
    Totals,
}

/// A puzzle whose counters or outcome changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleChange {
    /// Its row in the baseline.
    pub baseline: PuzzleRow,
    /// Its row in the current run.
    pub current: PuzzleRow,
}

/// The deterministic-counter check of one corpus x solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counters {
    /// Per puzzle or on totals.
    pub scope: Scope,
    /// Total search nodes, baseline and current.
    pub nodes: (u64, u64),
    /// Total link updates, when both runs recorded them.
    pub updates: Option<(u64, u64)>,
    /// Outcome counts, baseline and current.
    pub counts: (Counts, Counts),
    /// Puzzles present in both runs (per-puzzle scope).
    pub compared: u64,
    /// Puzzles with any change: nodes, updates, status or solutions.
    pub puzzles_changed: u64,
    /// Puzzles whose node count changed.
    pub nodes_changed: u64,
    /// Puzzles whose update count changed.
    pub updates_changed: u64,
    /// Puzzles whose status or solution count changed.
    pub outcome_changed: u64,
    /// Puzzle lines in the baseline only.
    pub only_in_baseline: u64,
    /// Puzzle lines in the current run only.
    pub only_in_current: u64,
    /// The first changed puzzles, by line.
    pub examples: Vec<PuzzleChange>,
}

impl Counters {
    /// Whether anything deterministic differs: an algorithm change.
    pub fn changed(&self) -> bool {
        self.nodes.0 != self.nodes.1
            || self.updates.is_some_and(|(b, c)| b != c)
            || self.counts.0 != self.counts.1
            || self.nodes_changed > 0
            || self.updates_changed > 0
            || self.outcome_changed > 0
            || self.only_in_baseline > 0
            || self.only_in_current > 0
    }
}

/// How the time ratio was estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Geometric mean of paired per-puzzle ratios, bootstrap interval.
    PairedBootstrap,
    /// Ratio of mean times, normal-approximation interval (no per-puzzle
    /// data on one side).
    RatioOfMeansNormal,
}

impl Method {
    /// Name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::PairedBootstrap => "paired_bootstrap",
            Method::RatioOfMeansNormal => "ratio_of_means_normal",
        }
    }
}

/// The time verdict of one corpus x solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval lies above `1 + threshold`.
    Regression,
    /// The whole interval lies below `1 - threshold`.
    Improvement,
    /// Anything else.
    NoChange,
    /// Fewer than two timed puzzles on a side.
    NotEnoughData,
}

impl Verdict {
    /// Name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Regression => "regression",
            Verdict::Improvement => "improvement",
            Verdict::NoChange => "no_change",
            Verdict::NotEnoughData => "not_enough_data",
        }
    }

    /// Words for people.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Regression => "REGRESSION",
            Verdict::Improvement => "improvement",
            Verdict::NoChange => "no significant change",
            Verdict::NotEnoughData => "not enough data",
        }
    }
}

/// The time check of one corpus x solver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeCheck {
    /// How it was estimated (`None`: not enough data).
    pub method: Option<Method>,
    /// Timed puzzles used: pairs, or the smaller side's count.
    pub puzzles: u64,
    /// The ratio and its interval.
    pub interval: Option<Interval>,
    /// The verdict.
    pub verdict: Verdict,
}

/// Ratios current / baseline shown for reading only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// Median latency ratio.
    pub p50: Option<f64>,
    /// 99th-percentile latency ratio.
    pub p99: Option<f64>,
    /// Throughput ratio (above 1: faster).
    pub throughput: Option<f64>,
}

/// The comparison of one corpus x solver present in both runs.
#[derive(Debug, Clone, PartialEq)]
pub struct PairResult {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Deterministic counters.
    pub counters: Counters,
    /// Time.
    pub time: TimeCheck,
    /// Ratios for reading.
    pub reading: Reading,
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The baseline.
    pub baseline: Side,
    /// The current run.
    pub current: Side,
    /// The options used.
    pub options: Options,
    /// The common mode, if known.
    pub mode: Option<String>,
    /// Corpus x solver present in both, in the baseline's order.
    pub results: Vec<PairResult>,
    /// Corpus x solver in the baseline only.
    pub only_in_baseline: Vec<(String, String)>,
    /// Corpus x solver in the current run only.
    pub only_in_current: Vec<(String, String)>,
    /// Caveats (missing files, different machines or thread counts).
    pub notes: Vec<String>,
}

impl Comparison {
    /// Corpus x solver results with an algorithm change.
    pub fn algorithm_changes(&self) -> usize {
        self.results.iter().filter(|r| r.counters.changed()).count()
    }

    /// Corpus x solver results with a time verdict `v`.
    pub fn count(&self, v: Verdict) -> usize {
        self.results.iter().filter(|r| r.time.verdict == v).count()
    }

    /// Whether algorithm changes fail the comparison.
    pub fn algorithm_change_fails(&self) -> bool {
        self.options.metric.gates_nodes()
            && !self.options.allow_algorithm_change
            && self.algorithm_changes() > 0
    }

    /// Whether time regressions fail the comparison.
    pub fn time_regression_fails(&self) -> bool {
        self.options.metric.gates_time() && self.count(Verdict::Regression) > 0
    }

    /// Whether something regressed under the gating checks: exit status 1.
    pub fn failed(&self) -> bool {
        self.algorithm_change_fails() || self.time_regression_fails()
    }
}

/// Checks that two runs measured the same thing.
pub fn check_compatible(baseline: &Run, current: &Run) -> Result<(), CompareError> {
    let mut diffs = Vec::new();
    if let (Some(b), Some(c)) = (baseline.mode(), current.mode()) {
        if b != c {
            diffs.push(Difference::Mode {
                baseline: b.to_string(),
                current: c.to_string(),
            });
        }
    }
    if let (Some(b), Some(c)) = (&baseline.run_json, &current.run_json) {
        if b.limit != c.limit && baseline.mode() == current.mode() {
            diffs.push(Difference::Limit {
                baseline: b.limit,
                current: c.limit,
            });
        }
        if b.permute_seed != c.permute_seed {
            diffs.push(Difference::Permute {
                baseline: b.permute_seed,
                current: c.permute_seed,
            });
        }
        for bc in &b.corpora {
            let Some(cc) = c.corpora.iter().find(|cc| cc.name == bc.name) else {
                continue;
            };
            if let (Some(bs), Some(cs)) = (&bc.sha256, &cc.sha256) {
                if !bs.eq_ignore_ascii_case(cs) {
                    diffs.push(Difference::Checksum {
                        corpus: bc.name.clone(),
                        baseline: bs.clone(),
                        current: cs.clone(),
                    });
                }
            }
        }
    }
    let mut solvers: Vec<&str> = Vec::new();
    for g in &baseline.groups {
        if !solvers.contains(&g.solver.as_str())
            && current.groups.iter().any(|c| c.solver == g.solver)
        {
            solvers.push(&g.solver);
        }
    }
    for s in solvers {
        if let (Some(b), Some(c)) = (baseline.budget(s), current.budget(s)) {
            if b != c {
                diffs.push(Difference::Budget {
                    solver: s.to_string(),
                    baseline: b,
                    current: c,
                });
            }
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(CompareError::Incompatible(diffs))
    }
}

/// Compares `current` against `baseline`.
pub fn compare(
    baseline: &Run,
    current: &Run,
    options: &Options,
) -> Result<Comparison, CompareError> {
    check_compatible(baseline, current)?;
    let mut notes = Vec::new();
    for (name, run) in [("baseline", baseline), ("current run", current)] {
        if run.run_json.is_none() {
            notes.push(format!(
                "no {} for the {name} ({}): corpus checksums and limits not checked",
                schema::RUN_JSON,
                run.source.display()
            ));
        }
        if !run.has_per_puzzle() {
            notes.push(format!(
                "no {} for the {name} ({}): counters compared as totals, times as a ratio of means with a normal-approximation interval",
                schema::PUZZLES_CSV,
                run.source.display()
            ));
        }
    }
    let (bt, ct) = (baseline.threads(), current.threads());
    if let (Some(b), Some(c)) = (bt, ct) {
        if b != c {
            notes.push(format!(
                "thread counts differ (baseline {b}, current {c}): times were measured under different load"
            ));
        }
    }
    if let (Some(b), Some(c)) = (&baseline.run_json, &current.run_json) {
        if let (Some(bc), Some(cc)) = (&b.cpu_model, &c.cpu_model) {
            if bc != cc {
                notes.push(format!(
                    "different CPUs (baseline {bc}, current {cc}): time ratios compare machines as well as code"
                ));
            }
        }
        if b.passes != c.passes {
            notes.push(format!(
                "passes differ (baseline {}, current {}): more passes keep smaller minimum times",
                or_none(b.passes, "?"),
                or_none(c.passes, "?")
            ));
        }
        if b.shuffle_seed != c.shuffle_seed {
            notes.push("the puzzle order differs (--shuffle); counters are unaffected".into());
        }
    }
    let mut results = Vec::new();
    let mut only_in_baseline = Vec::new();
    for b in &baseline.groups {
        match current.group(&b.corpus, &b.solver) {
            Some(c) => results.push(compare_pair(b, c, bt, ct, options)),
            None => only_in_baseline.push((b.corpus.clone(), b.solver.clone())),
        }
    }
    let only_in_current = current
        .groups
        .iter()
        .filter(|c| baseline.group(&c.corpus, &c.solver).is_none())
        .map(|c| (c.corpus.clone(), c.solver.clone()))
        .collect();
    let mode = baseline
        .mode()
        .or_else(|| current.mode())
        .map(str::to_string);
    Ok(Comparison {
        baseline: Side::of(baseline),
        current: Side::of(current),
        options: *options,
        mode,
        results,
        only_in_baseline,
        only_in_current,
        notes,
    })
}

/// FNV-1a of `corpus NUL solver`: each pair's bootstrap stream.
fn pair_hash(corpus: &str, solver: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in corpus
        .as_bytes()
        .iter()
        .chain(&[0])
        .chain(solver.as_bytes())
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn compare_pair(
    b: &Group,
    c: &Group,
    bt: Option<u64>,
    ct: Option<u64>,
    options: &Options,
) -> PairResult {
    let bs = b
        .summary_or_derived(bt)
        .expect("a group has a summary or rows");
    let cs = c
        .summary_or_derived(ct)
        .expect("a group has a summary or rows");
    let (counters, log_ratios) = match (&b.puzzles, &c.puzzles) {
        (Some(br), Some(cr)) => per_puzzle(br, cr, options.examples),
        _ => (totals(&bs, &cs), Vec::new()),
    };
    let seed = options.seed ^ pair_hash(&b.corpus, &b.solver);
    let time = if log_ratios.len() >= 2 {
        let interval = bootstrap::paired(&log_ratios, options.resamples, seed, options.confidence);
        TimeCheck {
            method: interval.map(|_| Method::PairedBootstrap),
            puzzles: log_ratios.len() as u64,
            interval,
            verdict: verdict(interval, options.threshold),
        }
    } else {
        let moments = |s: &SummaryRow| bootstrap::Moments {
            mean: s.mean_ns,
            stddev: s.stddev_ns,
            count: s.timed(),
        };
        let interval = bootstrap::normal(moments(&bs), moments(&cs), options.confidence);
        TimeCheck {
            method: interval.map(|_| Method::RatioOfMeansNormal),
            puzzles: bs.timed().min(cs.timed()),
            interval,
            verdict: verdict(interval, options.threshold),
        }
    };
    let ratio = |x: f64, y: f64| (x > 0.0 && y > 0.0).then(|| y / x);
    PairResult {
        corpus: b.corpus.clone(),
        solver: b.solver.clone(),
        counters,
        time,
        reading: Reading {
            p50: ratio(bs.p50_ns, cs.p50_ns),
            p99: ratio(bs.p99_ns, cs.p99_ns),
            throughput: ratio(bs.puzzles_per_s, cs.puzzles_per_s),
        },
    }
}

fn verdict(interval: Option<Interval>, threshold: f64) -> Verdict {
    match interval {
        None => Verdict::NotEnoughData,
        Some(i) if i.low > 1.0 + threshold => Verdict::Regression,
        Some(i) if i.high < 1.0 - threshold => Verdict::Improvement,
        Some(_) => Verdict::NoChange,
    }
}

fn totals(b: &SummaryRow, c: &SummaryRow) -> Counters {
    Counters {
        scope: Scope::Totals,
        nodes: (b.total_nodes, c.total_nodes),
        updates: b.total_updates.zip(c.total_updates),
        counts: (Counts::of(b), Counts::of(c)),
        compared: 0,
        nodes_changed: 0,
        updates_changed: 0,
        outcome_changed: 0,
        only_in_baseline: 0,
        only_in_current: 0,
        examples: Vec::new(),
        puzzles_changed: 0,
    }
}

/// Merges two line-sorted row lists: the counters, and the log-ratios of
/// the puzzles timed in both.
fn per_puzzle(b: &[PuzzleRow], c: &[PuzzleRow], examples: usize) -> (Counters, Vec<f64>) {
    let bs = SummaryRow::from_rows(b, None);
    let cs = SummaryRow::from_rows(c, None);
    let mut k = Counters {
        scope: Scope::PerPuzzle,
        nodes: (bs.total_nodes, cs.total_nodes),
        updates: None,
        counts: (Counts::of(&bs), Counts::of(&cs)),
        compared: 0,
        nodes_changed: 0,
        updates_changed: 0,
        outcome_changed: 0,
        only_in_baseline: 0,
        only_in_current: 0,
        examples: Vec::new(),
        puzzles_changed: 0,
    };
    // Updates are compared when every row of both sides recorded them.
    let recorded =
        |rows: &[PuzzleRow]| !rows.is_empty() && rows.iter().all(|r| r.updates.is_some());
    let updates = recorded(b) && recorded(c);
    if updates {
        k.updates = bs.total_updates.zip(cs.total_updates);
    }
    let mut d = Vec::with_capacity(b.len().min(c.len()));
    let (mut i, mut j) = (0, 0);
    while i < b.len() && j < c.len() {
        let (x, y) = (&b[i], &c[j]);
        if x.line < y.line {
            k.only_in_baseline += 1;
            i += 1;
            continue;
        }
        if y.line < x.line {
            k.only_in_current += 1;
            j += 1;
            continue;
        }
        k.compared += 1;
        let nodes = x.nodes != y.nodes;
        let upd = updates && x.updates != y.updates;
        let outcome = x.status != y.status || x.solutions != y.solutions;
        k.nodes_changed += u64::from(nodes);
        k.updates_changed += u64::from(upd);
        k.outcome_changed += u64::from(outcome);
        if nodes || upd || outcome {
            k.puzzles_changed += 1;
            if k.examples.len() < examples {
                k.examples.push(PuzzleChange {
                    baseline: *x,
                    current: *y,
                });
            }
        }
        if x.timed() && y.timed() {
            d.push((y.ns as f64 / x.ns as f64).ln());
        }
        i += 1;
        j += 1;
    }
    k.only_in_baseline += (b.len() - i) as u64;
    k.only_in_current += (c.len() - j) as u64;
    (k, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::PuzzleStatus;

    fn row(line: u64, ns: u64, nodes: u64) -> PuzzleRow {
        PuzzleRow {
            line,
            ns,
            nodes,
            updates: Some(nodes * 10),
            solutions: 1,
            status: PuzzleStatus::Unique,
        }
    }

    fn run(rows: Vec<PuzzleRow>, json: Option<load::RunJson>) -> Run {
        Run {
            source: PathBuf::from("x"),
            summary_path: None,
            puzzles_path: Some(PathBuf::from("x/puzzles.csv")),
            run_json_path: None,
            run_json: json,
            groups: vec![Group {
                corpus: "c".into(),
                solver: "dlx".into(),
                summary: None,
                puzzles: Some(rows),
            }],
        }
    }

    #[test]
    fn threshold_is_always_percent() {
        assert_eq!(parse_threshold("5%"), Ok(0.05));
        assert_eq!(parse_threshold("5"), Ok(0.05));
        assert_eq!(parse_threshold(" 2.5 % "), Ok(0.025));
        assert_eq!(parse_threshold("0.05"), Ok(0.0005));
        assert_eq!(parse_threshold("0"), Ok(0.0));
        for bad in ["", "%", "abc", "-1", "100", "1e400", "5%%"] {
            assert!(parse_threshold(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn verdict_needs_the_whole_interval_beyond_the_threshold() {
        let i = |low, high| {
            Some(Interval {
                estimate: (low + high) / 2.0,
                low,
                high,
            })
        };
        assert_eq!(verdict(i(1.06, 1.2), 0.05), Verdict::Regression);
        assert_eq!(verdict(i(1.04, 1.2), 0.05), Verdict::NoChange);
        assert_eq!(verdict(i(0.8, 0.94), 0.05), Verdict::Improvement);
        assert_eq!(verdict(i(0.8, 0.96), 0.05), Verdict::NoChange);
        assert_eq!(verdict(i(0.99, 1.01), 0.0), Verdict::NoChange);
        assert_eq!(verdict(None, 0.05), Verdict::NotEnoughData);
    }

    #[test]
    fn per_puzzle_merge_counts_changes_and_one_sided_lines() {
        let b = vec![
            row(1, 100, 5),
            row(2, 100, 6),
            row(3, 100, 7),
            row(5, 100, 1),
        ];
        let mut c = vec![row(1, 150, 5), row(2, 150, 9), row(3, 0, 7), row(4, 100, 1)];
        c[0].updates = Some(1);
        let (k, d) = per_puzzle(&b, &c, 1);
        assert_eq!(
            (k.compared, k.only_in_baseline, k.only_in_current),
            (3, 1, 1)
        );
        assert_eq!(
            (k.nodes_changed, k.updates_changed, k.puzzles_changed),
            (1, 2, 2)
        );
        assert_eq!(k.examples.len(), 1);
        assert_eq!(k.examples[0].baseline.line, 1);
        assert_eq!(k.nodes, (19, 22));
        assert!(k.changed());
        // Line 3 has no time in the current run: two pairs.
        assert_eq!(d.len(), 2);
        assert!(d.iter().all(|x| (x - 1.5f64.ln()).abs() < 1e-12));
    }

    #[test]
    fn updates_are_compared_only_when_both_sides_recorded_them() {
        let b = vec![row(1, 100, 5)];
        let mut c = b.clone();
        c[0].updates = None;
        let (k, _) = per_puzzle(&b, &c, 5);
        assert_eq!(k.updates, None);
        assert!(!k.changed());
    }

    #[test]
    fn incompatible_runs_list_every_difference() {
        let json = |mode: &str, limit, sha: &str, budget| load::RunJson {
            mode: Some(mode.into()),
            limit,
            solvers: vec![("dlx".into(), budget)],
            corpora: vec![load::CorpusInfo {
                name: "c".into(),
                sha256: Some(sha.into()),
                path: None,
            }],
            ..Default::default()
        };
        let rows = vec![row(1, 100, 5), row(2, 100, 5)];
        let a = run(rows.clone(), Some(json("unique", Some(2), "aa", None)));
        let b = run(rows.clone(), Some(json("count", None, "bb", Some(10))));
        let Err(CompareError::Incompatible(d)) = compare(&a, &b, &Options::default()) else {
            panic!("incompatible");
        };
        assert_eq!(d.len(), 3, "{d:?}"); // mode (limit follows from it), checksum, budget
        let text = CompareError::Incompatible(d).to_string();
        assert!(text.contains("different modes: baseline `unique`, current `count`"));
        assert!(
            text.contains("corpus `c` differs: SHA-256 aa in the baseline, bb in the current run")
        );
        assert!(text
            .contains("solver `dlx` has different node budgets: baseline unlimited, current 10"));

        let c = run(rows.clone(), Some(json("count", Some(5), "aa", None)));
        let d = run(rows, Some(json("count", Some(6), "aa", None)));
        let e = compare(&c, &d, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("different solution limits: baseline 5, current 6"),
            "{e}"
        );
    }

    #[test]
    fn pair_streams_differ_and_are_stable() {
        assert_ne!(pair_hash("a", "bc"), pair_hash("ab", "c"));
        assert_eq!(pair_hash("top", "dlx"), pair_hash("top", "dlx"));
    }
}
