//! `ab --json FILE`: [`AbJson`].

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use serde::{Deserialize, Serialize};

use super::WorkJson;
use crate::solvers::layout::LayoutSummary;

/// The value of [`AbJson::format`].
pub const AB_FORMAT: &str = "dlxbench-ab/1";

/// The outcome of an `ab` for machines: the verdict, how the interval was
/// made, every pass's ratio, the split into the search tree and the time
/// per node, and the A/A that measured the floor, if one ran. Ratios are
/// B / A.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AbJson {
    /// [`AB_FORMAT`] (the A/A's own document under `aa` carries it too);
    /// empty when read from a file written before the tag, which is the
    /// same shape without it.
    #[serde(default)]
    pub format: String,
    /// Solver A's name.
    pub a: String,
    /// Solver B's name.
    pub b: String,
    /// How the interval is made (`student-t over pairs of passes`).
    pub method: String,
    /// The unit of replication: `pair of passes`.
    pub unit: String,
    /// Units the overall interval is made from.
    pub units: u64,
    /// Passes made, warm-up included.
    pub passes: u32,
    /// Of which warm-up, not counted.
    pub warmup_passes: u32,
    /// Why the passes stopped (`decided`, `precision`, `time`, `passes` or
    /// `interrupted`).
    pub stop: String,
    /// Over every puzzle of every corpus: what the verdict is made from.
    pub overall: RatioJson,
    /// Per corpus.
    pub corpora: Vec<RatioJson>,
    /// `regression`, `improvement`, `no_change` or `not_enough_data`.
    pub verdict: String,
    /// The threshold the verdict was judged at, a fraction.
    pub judged_at: f64,
    /// The noise floor the verdict was judged with, a fraction; `null`
    /// without one.
    pub floor: Option<f64>,
    /// Every pass's own ratio (warm-up passes first; `null` for a pass
    /// with no puzzle timed by both).
    pub pass_ratios: Vec<Option<f64>>,
    /// The overall ratio split into the search tree and the time per node
    /// (as `compare`'s `time.work`); `null` without node counts.
    pub work: Option<WorkJson>,
    /// Node counts and outcomes of A and B.
    pub nodes: NodesJson,
    /// Invalid solutions and count disagreements found, over all passes.
    pub discrepancies: u64,
    /// Failed solves (a solver in its own process that crashed, timed out
    /// or broke the protocol), over all passes.
    pub failed_solves: u64,
    /// Worker threads.
    pub threads: u64,
    /// Wall time of all passes, seconds.
    pub elapsed_s: f64,
    /// What each pass randomised of the solvers' layout; `null` when it
    /// was not.
    pub layout: Option<LayoutSummary>,
    /// The A/A of B against a copy of itself that measured the floor;
    /// absent when none ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aa: Option<Box<AaJson>>,
}

/// The A/A before an `ab`: an [`AbJson`] of B against a copy of itself,
/// and what it measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AaJson {
    /// The A/A as an A/B (without an `aa` of its own).
    #[serde(flatten)]
    pub ab: AbJson,
    /// Whether it gave a verdict, which it should not.
    pub false_verdict: bool,
    /// The noise floor it measured: the interval's larger distance from
    /// 1.0; `null` without an interval.
    pub measured_floor: Option<f64>,
}

/// A ratio B / A over some puzzles and its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioJson {
    /// What the puzzles are (a corpus name, or `all`).
    pub name: String,
    /// Puzzles timed by both sides in every measured pass.
    pub puzzles: u64,
    /// Units of replication (pairs of measured passes).
    pub units: u64,
    /// The ratio; `null` with fewer than two units, or no puzzle.
    pub estimate: Option<f64>,
    /// The interval's lower end.
    pub low: Option<f64>,
    /// The interval's upper end.
    pub high: Option<f64>,
    /// The interval's half-width relative to the estimate.
    pub half_width: Option<f64>,
}

/// Node counts and outcomes of A and B.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodesJson {
    /// A's total nodes; `null` unless both sides report them on every
    /// puzzle.
    pub a: Option<u64>,
    /// B's total nodes, likewise.
    pub b: Option<u64>,
    /// Puzzles whose node counts differ.
    pub puzzles_changed: u64,
    /// Puzzles whose status or solution count differs.
    pub outcomes_changed: u64,
}
