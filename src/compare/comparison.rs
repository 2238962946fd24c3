//! What a comparison finds: per corpus x solver, the deterministic
//! counters ([`Counters`]), the time check ([`TimeCheck`]) and ratios for
//! reading ([`Reading`]); for the two runs, a [`Comparison`].

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use super::{Interval, Options, PuzzleRow, RatioHistogram, Run};
pub use crate::results::output::compare::ChangeCounts;
use crate::results::output::WorkJson;
pub use crate::results::output::{Counts, Side};

/// One side of a comparison, for the report header: the `baseline` and
/// `current` objects of `compare --format json`.
pub(super) fn side_of(run: &Run) -> Side {
    let j = run.run_json.as_ref();
    Side {
        path: run.source.display().to_string(),
        per_puzzle: run.has_per_puzzle(),
        version: j.and_then(|j| j.dlxbench_version.clone()),
        git_revision: j.and_then(|j| j.facts.git_revision.clone()),
        cpu_model: j.and_then(|j| j.facts.cpu_model.clone()),
        started: j.and_then(|j| j.facts.started.clone()),
        threads: run.threads(),
    }
}

/// Where the counters were compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Puzzle by puzzle (both runs have `puzzles.csv`).
    PerPuzzle,
    /// Totals from the summaries only.
    Totals,
    /// Not compared: one run ran the corpus only in part and the other
    /// has no per-puzzle data, so no puzzles are known to be common to
    /// both (a difference of totals would say nothing of the algorithm).
    NotCompared,
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
    /// Total search nodes, baseline and current, when both runs recorded
    /// them.
    pub nodes: Option<(u64, u64)>,
    /// Total link updates, when both runs recorded them.
    pub updates: Option<(u64, u64)>,
    /// Total mems (memory accesses as Knuth's programs count them), when
    /// both runs recorded them.
    pub mems: Option<(u64, u64)>,
    /// Outcome counts, baseline and current.
    pub counts: (Counts, Counts),
    /// The puzzle-by-puzzle counts: compared, changed, on one side only.
    pub changes: ChangeCounts,
    /// The first changed puzzles, by line.
    pub examples: Vec<PuzzleChange>,
}

impl Counters {
    /// Whether anything deterministic differs: an algorithm change.
    pub fn changed(&self) -> bool {
        self.scope != Scope::NotCompared && self.changed_if_compared()
    }

    fn changed_if_compared(&self) -> bool {
        self.nodes.is_some_and(|(b, c)| b != c)
            || self.updates.is_some_and(|(b, c)| b != c)
            || self.mems.is_some_and(|(b, c)| b != c)
            || self.counts.0 != self.counts.1
            || self.changes.nodes_changed > 0
            || self.changes.updates_changed > 0
            || self.changes.mems_changed > 0
            || self.changes.outcome_changed > 0
            || self.changes.only_in_baseline > 0
            || self.changes.only_in_current > 0
    }
}

/// How the time ratio was estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Geometric mean of paired per-puzzle ratios, bootstrap interval over
    /// blocks of consecutive lines ([`Comparison::block`] lines each).
    PairedBlocks,
    /// The same ratio with a bootstrap over puzzles: the puzzles common to
    /// both runs fill one block only, so there are no blocks to resample;
    /// the interval then holds no noise shared by a block.
    PairedPuzzles,
    /// Ratio of mean times, normal-approximation interval (no per-puzzle
    /// data on one side).
    RatioOfMeansNormal,
}

impl Method {
    /// Name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::PairedBlocks => "paired_blocks",
            Method::PairedPuzzles => "paired_puzzles",
            Method::RatioOfMeansNormal => "ratio_of_means_normal",
        }
    }
}

/// The time verdict of one corpus x solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeVerdict {
    /// The whole interval lies above `1 + threshold`.
    Regression,
    /// The whole interval lies below `1 - threshold`.
    Improvement,
    /// Anything else.
    NoChange,
    /// Fewer than two timed puzzles on a side.
    NotEnoughData,
    /// The runs ran on different CPUs ([`Comparison::other_cpu`]): their
    /// times measure the machines as well as the code, so no regression
    /// or improvement is called (the ratio is still reported).
    NotComparable,
}

impl TimeVerdict {
    /// Name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeVerdict::Regression => "regression",
            TimeVerdict::Improvement => "improvement",
            TimeVerdict::NoChange => "no_change",
            TimeVerdict::NotEnoughData => "not_enough_data",
            TimeVerdict::NotComparable => "not_comparable",
        }
    }

    /// Words for people.
    pub fn words(self) -> &'static str {
        match self {
            TimeVerdict::Regression => "REGRESSION",
            TimeVerdict::Improvement => "improvement",
            TimeVerdict::NoChange => "no significant change",
            TimeVerdict::NotEnoughData => "not enough data",
            TimeVerdict::NotComparable => "not comparable (another CPU)",
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
    pub verdict: TimeVerdict,
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

/// A time change split into work and cost per unit of work: time = nodes
/// x time per node, puzzle by puzzle, so the geometric mean of the time
/// ratios is exactly that of the node ratios times that of the per-node
/// cost ratios (a puzzle with 0 nodes counts 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorkSplit {
    /// Puzzles timed in both runs with node counts on both sides.
    pub puzzles: u64,
    /// The geometric mean of the time ratios over them (current /
    /// baseline).
    pub time: f64,
    /// The geometric mean of the node-count ratios: the search tree.
    pub nodes: f64,
    /// The geometric mean of the time-per-node ratios: `time / nodes`.
    pub per_node: f64,
}

impl WorkSplit {
    /// What moved the time more, the search tree (the node counts) or the
    /// cost of a node; `None` when neither moved.
    pub fn cause(&self) -> Option<Cause> {
        let (t, p) = (self.nodes.ln().abs(), self.per_node.ln().abs());
        if t < 1e-12 && p < 1e-12 {
            None
        } else if t >= p {
            Some(Cause::Tree)
        } else {
            Some(Cause::PerNode)
        }
    }

    /// The split in words: `the search tree 1.00x, time per node 1.08x`.
    pub fn words(&self) -> String {
        format!(
            "the search tree {:.3}x, time per node {:.3}x",
            self.nodes, self.per_node
        )
    }

    /// The split as JSON: `compare`'s `time.work` and `ab`'s `work`.
    pub fn json(&self) -> WorkJson {
        WorkJson {
            puzzles: self.puzzles,
            time_ratio: self.time,
            nodes_ratio: self.nodes,
            per_node_ratio: self.per_node,
            cause: self.cause().map(|c| c.as_str().into()),
        }
    }
}

/// What moved a time ratio more ([`WorkSplit::cause`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The search tree: the node counts.
    Tree,
    /// The time per node.
    PerNode,
}

impl Cause {
    /// Its name in JSON: `tree` or `per_node`.
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Tree => "tree",
            Cause::PerNode => "per_node",
        }
    }
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
    /// The per-puzzle ratios current / baseline (when both runs have
    /// per-puzzle rows): what the comparison picture draws.
    pub ratios: Option<RatioHistogram>,
    /// Ratios for reading.
    pub reading: Reading,
    /// The time change split into the search tree and the time per node
    /// (`None`: no per-puzzle rows, or no node counts).
    pub work: Option<WorkSplit>,
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
    /// Lines per block of the time interval's bootstrap.
    pub block: usize,
    /// The CPU models of the baseline and the current run (`run.json`'s
    /// `cpu_model`) when both are known and differ: the times are then not
    /// comparable, and every time verdict with an interval is
    /// [`TimeVerdict::NotComparable`]; the counters are compared and gate
    /// as ever. `None`: the same CPU, or one of them unknown.
    pub other_cpu: Option<(String, String)>,
}

impl Comparison {
    /// Corpus x solver results with an algorithm change.
    pub fn algorithm_changes(&self) -> usize {
        self.results.iter().filter(|r| r.counters.changed()).count()
    }

    /// Corpus x solver results with a time verdict `v`.
    pub fn count(&self, v: TimeVerdict) -> usize {
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
        self.options.metric.gates_time() && self.count(TimeVerdict::Regression) > 0
    }

    /// Whether the two runs' times are comparable: not when they ran on
    /// different CPUs ([`Comparison::other_cpu`]).
    pub fn times_comparable(&self) -> bool {
        self.other_cpu.is_none()
    }

    /// Whether something regressed under the gating checks: exit status 1.
    pub fn failed(&self) -> bool {
        self.algorithm_change_fails() || self.time_regression_fails()
    }
}
