//! `bisect --json FILE`: [`BisectJson`].

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use serde::{Deserialize, Serialize};

/// The value of [`BisectJson::format`].
pub const BISECT_FORMAT: &str = "dlxbench-bisect/1";

/// The outcome of a `bisect` for machines: what was compared, the commit
/// found (or the commits it may be), and every probe with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BisectJson {
    /// [`BISECT_FORMAT`].
    pub format: String,
    /// What was compared, in words (as the text's first line says it).
    pub what: String,
    /// `counts` or `time`.
    pub measure: String,
    /// The solver function compared (`dlxbench_dlx`).
    pub symbol: String,
    /// The `flags` passed on every call.
    pub flags: u32,
    /// The good commit.
    pub good: CommitJson,
    /// The bad commit.
    pub bad: CommitJson,
    /// Commits after the good one, up to the bad one (its first-parent
    /// chain).
    pub commits: u64,
    /// Whether one commit was named: `false` when skipped commits stand
    /// between the last same and the first changed one, and
    /// [`BisectJson::found`] lists them all.
    pub exact: bool,
    /// The first changed commit, or the commits it may be (oldest first).
    pub found: Vec<CommitJson>,
    /// Every probe, in the order made: the bad commit's first.
    pub probes: Vec<ProbeJson>,
}

/// A commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitJson {
    /// The full object name.
    pub sha: String,
    /// Its abbreviation.
    pub short: String,
    /// The first line of its message.
    pub subject: String,
}

/// One commit probed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeJson {
    /// The commit.
    pub commit: CommitJson,
    /// `same`, `changed` or `unknown` (does not build, or no time
    /// verdict: skipped).
    pub verdict: String,
    /// Whether its library came from the cache.
    pub cached: bool,
    /// The evidence in words, as the text's probe line says it.
    pub evidence: String,
    /// The build's log, when the commit does not build (else `null`).
    pub build_log: Option<String>,
    /// Its counts against the good commit's (`null`: not compared by
    /// counts, or not built).
    pub counts: Option<CountsJson>,
    /// Its time against the good commit's (`null`: not compared by time,
    /// or not built).
    pub time: Option<TimeJson>,
}

/// Counts of a probed commit against the good commit's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountsJson {
    /// Puzzles whose status, solutions or guesses differ.
    pub differ: u64,
    /// Puzzles, solutions and guesses summed, the good commit's.
    pub before: TotalsJson,
    /// The same, the probed commit's.
    pub after: TotalsJson,
}

/// Sums over every puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TotalsJson {
    /// Puzzles.
    pub puzzles: u64,
    /// Solutions.
    pub solutions: u64,
    /// Guesses (branch points).
    pub guesses: u64,
}

/// A paired `ab` run of the probed commit (B) against the good one (A).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimeJson {
    /// B/A (`null`: too few passes for an interval).
    pub ratio: Option<f64>,
    /// Its 95% interval's lower bound.
    pub low: Option<f64>,
    /// Its upper bound.
    pub high: Option<f64>,
    /// The threshold it was judged at (a fraction: 0.01 for 1%).
    pub judged_at: f64,
    /// Passes, warm-up included.
    pub passes: u32,
    /// Puzzles timed by both in every measured pass.
    pub puzzles: u64,
    /// Why the passes stopped (as `ab --json`'s `stop`).
    pub stop: String,
    /// Puzzles whose status or solution count differs between A and B.
    pub outcome_changed: u64,
    /// Invalid answers, disagreements and failed solves, both sides.
    pub problems: u64,
}
