//! `compare --format json`: [`CompareJson`].

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use serde::{Deserialize, Serialize};

use super::{BaselineCurrent, CorpusSolver};
use crate::results::SummaryRow;

/// The value of [`CompareJson::format`].
pub const COMPARE_FORMAT: &str = "dlxbench-compare/1";

/// The outcome of `compare` for machines. Ratios are current / baseline
/// (for throughput, above 1 is faster); `null` where a figure is not
/// available.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareJson {
    /// [`COMPARE_FORMAT`].
    pub format: String,
    /// The baseline run.
    pub baseline: Side,
    /// The current run.
    pub current: Side,
    /// The options the runs were compared with.
    pub settings: Settings,
    /// The runs' mode (`unique`, ...), `null` when not recorded.
    pub mode: Option<String>,
    /// Per corpus x solver present in both runs.
    pub results: Vec<PairJson>,
    /// Corpus x solver pairs of the baseline only.
    pub only_in_baseline: Vec<CorpusSolver>,
    /// Corpus x solver pairs of the current run only.
    pub only_in_current: Vec<CorpusSolver>,
    /// Notes on the comparison, as the table prints them.
    pub notes: Vec<String>,
    /// Whether times are comparable: false when the runs' CPU models
    /// differ.
    pub times_comparable: bool,
    /// The two CPU models when they differ, else `null`.
    pub other_cpu: Option<BaselineCurrent<String>>,
    /// The tallies and the exit status.
    pub outcome: Outcome,
}

/// One side of a comparison, for the report header (and the `baseline`
/// and `current` objects of [`CompareJson`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// Outcome counts of one corpus x solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
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
    /// Crashed (a solver in its own process).
    pub crashed: u64,
    /// Past the deadline.
    pub timeout: u64,
    /// Answered out of protocol.
    pub protocol_error: u64,
    /// Not run (the solver stopped, or the run interrupted).
    pub skipped: u64,
}

impl Counts {
    /// Every count with the name the terminal report gives it, in the
    /// order of the fields.
    pub fn named(&self) -> [(&'static str, u64); 10] {
        [
            ("puzzles", self.puzzles),
            ("solved", self.solved),
            ("no solution", self.unsolvable),
            ("multiple", self.multiple),
            ("budget", self.budget),
            ("invalid", self.invalid),
            ("crashed", self.crashed),
            ("timeout", self.timeout),
            ("protocol-error", self.protocol_error),
            ("skipped", self.skipped),
        ]
    }
}

impl From<&SummaryRow> for Counts {
    fn from(s: &SummaryRow) -> Counts {
        Counts {
            puzzles: s.puzzles,
            solved: s.solved,
            unsolvable: s.unsolvable,
            multiple: s.multiple,
            budget: s.budget,
            invalid: s.invalid,
            crashed: s.crashed,
            timeout: s.timeout,
            protocol_error: s.protocol_error,
            skipped: s.skipped,
        }
    }
}

/// The options a comparison ran with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// `--threshold`, percent.
    pub threshold_pct: f64,
    /// `--floor`, percent; `null` when not given.
    pub floor_pct: Option<f64>,
    /// Lines per bootstrap block.
    pub block: u64,
    /// `--metric`: `nodes`, `time` or `both`.
    pub metric: String,
    /// `--allow-algorithm-change`.
    pub allow_algorithm_change: bool,
    /// Bootstrap resamples.
    pub bootstrap_resamples: u64,
    /// The bootstrap's seed.
    pub seed: u64,
    /// The confidence of the intervals (0.95).
    pub confidence: f64,
}

/// The comparison of one corpus x solver present in both runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairJson {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// The deterministic counters.
    pub counters: CountersJson,
    /// The time ratio and its verdict.
    pub time: TimeJson,
    /// Ratios for reading, from the summaries: they gate nothing.
    pub reading: ReadingJson,
}

/// The deterministic-counter check of one corpus x solver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CountersJson {
    /// Where they were compared: `per_puzzle`, `totals` or `not_compared`
    /// (one run ran the corpus in part and the other has no per-puzzle
    /// data).
    pub scope: String,
    /// Whether anything deterministic differs: an algorithm change.
    pub changed: bool,
    /// Total search nodes.
    pub nodes: Option<CounterChange>,
    /// Total link updates; `null` when not recorded.
    pub updates: Option<CounterChange>,
    /// Total mems; `null` when not recorded.
    pub mems: Option<CounterChange>,
    /// Outcome counts of each side.
    pub counts: BaselineCurrent<Counts>,
    /// The puzzle-by-puzzle counts (keys of this object).
    #[serde(flatten)]
    pub changes: ChangeCounts,
    /// The first changed puzzles, by line.
    pub examples: Vec<Example>,
}

/// The puzzle-by-puzzle counts of a counter check: written once for
/// `compare`'s own [`crate::compare::Counters`] and its JSON
/// ([`CountersJson`], flattened: the keys stand in its object); all 0
/// when compared on totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeCounts {
    /// Puzzles present in both runs (per-puzzle scope).
    pub compared: u64,
    /// Puzzles with any change: nodes, updates, mems, status or solutions.
    pub puzzles_changed: u64,
    /// Puzzles whose node count changed.
    pub nodes_changed: u64,
    /// Puzzles whose update count changed.
    pub updates_changed: u64,
    /// Puzzles whose mems count changed.
    pub mems_changed: u64,
    /// Puzzles whose status or solution count changed.
    pub outcome_changed: u64,
    /// Puzzle lines in the baseline only.
    pub only_in_baseline: u64,
    /// Puzzle lines in the current run only.
    pub only_in_current: u64,
}

/// A total on both sides and its change.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CounterChange {
    /// The baseline's total.
    pub baseline: u64,
    /// The current run's total.
    pub current: u64,
    /// The change, percent of the baseline; 0 from 0 to 0, `null` from 0
    /// to more.
    pub change_pct: Option<f64>,
}

impl CounterChange {
    /// The totals `(baseline, current)` and their change.
    pub fn of((baseline, current): (u64, u64)) -> CounterChange {
        let change_pct = match (baseline, current) {
            (0, 0) => Some(0.0),
            (0, _) => None,
            (b, c) => Some((c as f64 - b as f64) * 100.0 / b as f64),
        };
        CounterChange {
            baseline,
            current,
            change_pct,
        }
    }
}

/// A puzzle whose counters or outcome changed: each pair is
/// `[baseline, current]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// Its line in the corpus (1-based).
    pub line: u64,
    /// Search nodes (`null` on a side that reports none).
    pub nodes: [Option<u64>; 2],
    /// Link updates; `null` unless both sides record them.
    pub updates: Option<[u64; 2]>,
    /// Mems; `null` unless both sides record them.
    pub mems: Option<[u64; 2]>,
    /// The statuses, as in `puzzles.csv`.
    pub status: [String; 2],
    /// The solution counts.
    pub solutions: [u64; 2],
}

/// The time check of one corpus x solver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeJson {
    /// How the interval was made: `paired_blocks`, `paired_puzzles`,
    /// `ratio_of_means_normal`, or `null` when none was.
    pub method: Option<String>,
    /// Puzzles timed in both runs.
    pub puzzles: u64,
    /// The ratio's estimate.
    pub ratio: Option<f64>,
    /// The interval's lower end.
    pub low: Option<f64>,
    /// The interval's upper end.
    pub high: Option<f64>,
    /// `regression`, `improvement`, `no_change`, `not_enough_data` or
    /// `not_comparable` (the runs ran on different CPUs: no verdict).
    pub verdict: String,
    /// The ratio split into the search tree and the time per node; `null`
    /// without per-puzzle node counts.
    pub work: Option<WorkJson>,
}

/// A time ratio split as time = nodes x time per node (`time_ratio =
/// nodes_ratio x per_node_ratio`), geometric means over the puzzles timed
/// on both sides with node counts: `compare`'s `time.work` and `ab`'s
/// `work`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkJson {
    /// The puzzles it is made of.
    pub puzzles: u64,
    /// The time ratio.
    pub time_ratio: f64,
    /// The node-count ratio: the search tree.
    pub nodes_ratio: f64,
    /// The time-per-node ratio.
    pub per_node_ratio: f64,
    /// What moved the time more: `tree` or `per_node`; `null` when
    /// neither moved.
    pub cause: Option<String>,
}

/// Ratios from the summaries, for reading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadingJson {
    /// The median's ratio.
    pub p50_ratio: Option<f64>,
    /// The 99th percentile's ratio.
    pub p99_ratio: Option<f64>,
    /// The throughput's ratio (above 1: faster).
    pub throughput_ratio: Option<f64>,
}

/// The tallies of a comparison and the exit status they make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Corpus x solver pairs with an algorithm change.
    pub algorithm_changes: u64,
    /// Time regressions.
    pub time_regressions: u64,
    /// Time improvements.
    pub time_improvements: u64,
    /// Whether the comparison fails (exit status 1).
    pub failed: bool,
    /// `compare`'s exit status: 0 or 1.
    pub exit_status: u8,
}
