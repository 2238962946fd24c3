//! `history show --format json` ([`HistoryJson`]) and `history export
//! --format json` ([`HistoryExportJson`]).

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use serde::{Deserialize, Serialize};

/// The value of [`HistoryJson::format`].
pub const HISTORY_FORMAT: &str = "dlxbench-history/1";

/// The value of [`HistoryExportJson::format`].
pub const HISTORY_EXPORT_FORMAT: &str = "dlxbench-history-export/1";

/// Every corpus x solver of a history database over commits, with the
/// steps found, for machines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryJson {
    /// [`HISTORY_FORMAT`].
    pub format: String,
    /// The database read.
    pub database: String,
    /// Its schema version.
    pub schema_version: u32,
    /// How time steps are found.
    pub method: StepMethodJson,
    /// One series per corpus x solver, by corpus then solver name.
    pub series: Vec<SeriesJson>,
}

/// The settings of the step detection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepMethodJson {
    /// The method, in words.
    pub definition: String,
    /// The A/A floor: a time change within this fraction of the level is
    /// never a step.
    pub floor: f64,
    /// The confidence of each run's interval of its mean (0.95).
    pub confidence: f64,
}

/// One corpus x solver over commits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeriesJson {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// One point per commit, in commit order (the order of each commit's
    /// first run).
    pub points: Vec<PointJson>,
    /// The steps found, in commit order.
    pub steps: Vec<StepJson>,
    /// Points off their segment's time that the next point does not
    /// confirm (a noisy run, or the last point: a step not yet confirmed),
    /// by index into `points`.
    pub outliers: Vec<usize>,
}

/// One commit's figures of a corpus x solver.
// Mirrors `history::series::Point` on purpose: the file's type, apart from
// the one in memory, so that the schema changes only with its version.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointJson {
    /// The git revision of the build (`git describe`), or `run:` and the
    /// run's start time for a build without one.
    pub revision: String,
    /// Runs of this commit in the database.
    pub runs: u64,
    /// Start time of its first run (RFC 3339).
    pub started: Option<String>,
    /// CPU model of its first run.
    pub cpu_model: Option<String>,
    /// Puzzles run.
    pub puzzles: u64,
    /// Puzzles timed within budget.
    pub timed: u64,
    /// Mean solve time, ns (the mean of the runs' means); `null`: nothing
    /// timed.
    pub mean_ns: Option<f64>,
    /// Lower bound of its interval, ns.
    pub low_ns: Option<f64>,
    /// Upper bound of its interval, ns.
    pub high_ns: Option<f64>,
    /// Total search nodes (`null`: not recorded).
    pub total_nodes: Option<u64>,
    /// Whether the runs of this commit recorded different node counts.
    pub nodes_differ: bool,
}

/// A step: where a figure changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepJson {
    /// `nodes` (exact: any change) or `time`.
    pub metric: String,
    /// Index into `points` of the first point after the step.
    pub index: usize,
    /// Its revision.
    pub revision: String,
    /// The level before (total nodes; the segment's median mean, ns).
    pub before: f64,
    /// The level after.
    pub after: f64,
    /// The change in percent of `before` (`null` from 0).
    pub change_pct: Option<f64>,
}

/// A history database as data, for machines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryExportJson {
    /// [`HISTORY_EXPORT_FORMAT`].
    pub format: String,
    /// The database's schema version.
    pub schema_version: u32,
    /// Its runs, in the order they were added.
    pub runs: Vec<ExportRun>,
}

/// One run of the database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportRun {
    /// The run's key: SHA-256 of its identifying facts in `run.json`.
    pub run_key: String,
    /// Git revision of the build.
    pub git_revision: Option<String>,
    /// Start time (RFC 3339).
    pub started: Option<String>,
    /// End time.
    pub finished: Option<String>,
    /// dlxbench version.
    pub dlxbench_version: Option<String>,
    /// CPU model.
    pub cpu_model: Option<String>,
    /// Cores of the machine.
    pub cores: Option<u64>,
    /// Worker threads.
    pub threads: Option<u64>,
    /// Puzzle kind.
    pub kind: String,
    /// Mode.
    pub mode: Option<String>,
    /// The command line, argument by argument.
    pub command_line: Vec<String>,
    /// Parts merged into it (0: not a merge).
    pub merged_parts: u64,
    /// The directory it was added from.
    pub source_dir: String,
    /// When it was added (RFC 3339, UTC).
    pub added: String,
    /// Per corpus x solver figures.
    pub summaries: Vec<ExportSummary>,
}

/// One corpus x solver of a run: the figures of its `summary.csv` row the
/// database keeps.
// Repeats fields of `results::summary::SummaryRow` on purpose: the export's
// schema, versioned on its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExportSummary {
    /// Corpus name.
    pub corpus: String,
    /// SHA-256 of the corpus file, if recorded.
    pub corpus_sha256: Option<String>,
    /// Solver name.
    pub solver: String,
    /// Puzzles run.
    pub puzzles: u64,
    /// Solved within budget.
    pub solved: u64,
    /// Without solution.
    pub unsolvable: u64,
    /// With several solutions.
    pub multiple: u64,
    /// Over budget.
    pub budget: u64,
    /// Invalid answers.
    pub invalid: u64,
    /// Failed (crashed, timeout, protocol error).
    pub failed: u64,
    /// Skipped.
    pub skipped: u64,
    /// Timed within budget.
    pub timed: u64,
    /// Mean solve time, ns.
    pub mean_ns: Option<f64>,
    /// Standard deviation of the solve times, ns.
    pub stddev_ns: Option<f64>,
    /// Median, ns.
    pub p50_ns: Option<f64>,
    /// 99th percentile, ns.
    pub p99_ns: Option<f64>,
    /// Throughput, puzzles/s.
    pub puzzles_per_s: Option<f64>,
    /// Total search nodes.
    pub total_nodes: Option<u64>,
    /// Total link updates.
    pub total_updates: Option<u64>,
    /// Total mems.
    pub total_mems: Option<u64>,
    /// Per-puzzle rows kept in the database.
    pub puzzle_rows: u64,
}
