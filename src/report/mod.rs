//! Result files of a benchmark run, one module per format behind one trait
//! ([`Report`]), and the terminal table.
//!
//! Every file is written atomically: to a temporary name in the output
//! directory, then renamed ([`AtomicFile`](crate::atomic::AtomicFile)).
//!
//! # Files and columns
//! * `summary.csv` ([`summary_csv`]): one row per corpus x solver. Columns:
//!   `corpus`, `solver`; counts `puzzles`, `solved` (at least one solution
//!   within budget), `unsolvable`, `multiple` (two or more solutions, part of
//!   `solved`), `budget` (over the node budget), `malformed` (lines of the
//!   corpus that did not parse), `invalid` (returned grids that are not
//!   solutions); latencies in nanoseconds over the puzzles within budget:
//!   `mean_ns`, `stddev_ns` (exact), `p50_ns`, `p90_ns`, `p99_ns`, `p999_ns`,
//!   `max_ns` (HdrHistogram, 3 significant figures); `total_nodes`,
//!   `guesses_per_puzzle`, `no_guess_pct` (puzzles solved without a branch
//!   point, percent); `puzzles_per_s` (puzzles within budget x the workers
//!   that ran the corpus / their solve time: the throughput of the pool
//!   spending all its time in this solver, over-budget solves, parsing and
//!   validation excluded; empty when nothing was timed, as are the
//!   latencies);
//!   `speed_vs_reference` (`puzzles_per_s` over the reference solver's;
//!   empty wherever the paired `speed_vs` is);
//!   `threads`; `mode`; `budget_nodes` (empty: unlimited); `reference`;
//!   `total_updates` (Dancing Links link updates; empty for solvers that
//!   have none); then the failure counts, `latency_source`,
//!   `mean_round_trip_ns`, and the paired speed against the reference
//!   ([`crate::harness::Speed`]): `speed_vs`, `speed_low`, `speed_high`,
//!   `speed_puzzles`, `speed_note`; `total_mems` (memory accesses as
//!   Knuth's programs count them; empty for solvers that do not count
//!   them).
//! * `puzzles.csv` ([`puzzles_csv`]): one row per puzzle x solver: `corpus`,
//!   `line` (1-based), `solver`, `ns` (solve time; minimum over passes),
//!   `solutions` (capped by the mode's limit), `nodes`, `guesses`, `status`
//!   (`unique`, `multiple`, `solved` in mode `first`, `none`, `budget`,
//!   `invalid`), `updates` (link updates; empty for solvers without them),
//!   `round_trip_ns`, `cause`, `mems` (empty for solvers that do not count
//!   them).
//!   Streamed while the run goes; rows are in corpus order, or the seeded
//!   shuffled order with `--shuffle`.
//! * `<corpus>.<solver>.hgrm` ([`hgrm`]): HdrHistogram percentile
//!   distribution, values in microseconds; `<corpus>` is the corpus's file
//!   stem, unique in the run ([`schema::file_stems`]).
//! * `histograms.json` ([`histograms_json`]): every histogram (nanoseconds)
//!   as HdrHistogram V2+DEFLATE, base64, for exact merging later.
//! * `summary.md` ([`markdown`]): the terminal table in Markdown.
//! * `problems.txt` ([`problems_txt`]): every problem found (solvers that
//!   disagreed, invalid answers), one a line; only when there is one.
//! * `images.csv` ([`images_csv`]): with `--images K`, one row per puzzle
//!   x solver x symmetry image.
//! * `run.json` ([`run_json`]): what was run, where and when.

pub mod hgrm;
pub mod histograms_json;
pub mod images_csv;
pub mod markdown;
pub mod problems_txt;
pub mod puzzles_csv;
pub mod run_json;
pub mod summary_csv;
pub mod table;

use std::path::{Path, PathBuf};

use crate::budget::Budget;
use crate::harness::{Config, CorpusResult, RunResult, SolverStats};
use crate::results::ResultDir;

/// The file names and CSV columns of a result directory (kept here under
/// its old name; it lives in [`crate::results::schema`]).
pub use crate::results::schema;

/// What the reports need besides the results.
#[derive(Debug, Clone)]
pub struct RunMeta {
    /// The command line, argument by argument.
    pub command_line: Vec<String>,
    /// The solver speeds are quoted against (a name in the config).
    pub reference: String,
    /// SHA-256 (hex) of each corpus, in run order.
    pub sha256: Vec<String>,
    /// The output directory.
    pub out_dir: PathBuf,
    /// Whether `puzzles.csv` was written.
    pub per_puzzle: bool,
    /// For a result that `dlxbench merge` made of shards: which, and each
    /// part's own facts.
    pub merged: Option<run_json::Merged>,
    /// SHA-256 of the binary that wrote the result
    /// ([`run_json::binary_sha256`], taken before the run starts).
    pub binary_sha256: Option<String>,
    /// For a run being written by a bench session: the corpora asked for
    /// and whether this is its last write (`run.json`'s `state`, `pid`
    /// and the corpora `not started`); `None` for a finished result.
    pub progress: Option<run_json::InProgress>,
    /// The round-trip floor measured before the run (a run with solvers in
    /// their own processes), for `run.json` and the notes.
    pub round_trip_floor: Option<crate::results::RoundTripFloor>,
    /// The standard-error logs of the solvers in their own processes, in
    /// the config's order (`None` for the others, and for a result read
    /// back): what their caps dropped goes to `run.json`.
    pub logs: Vec<Option<crate::solvers::LogFile>>,
}

impl RunMeta {
    /// The metadata a result directory records (its `run.json`), with
    /// `out_dir` the directory itself.
    pub fn of_dir(dir: &ResultDir, config: &Config) -> RunMeta {
        let r = &dir.run;
        RunMeta {
            command_line: r.facts.command_line.clone(),
            reference: r
                .reference
                .clone()
                .unwrap_or_else(|| config.solvers()[0].clone()),
            sha256: r
                .corpora
                .iter()
                .map(|c| c.sha256.clone().unwrap_or_default())
                .collect(),
            out_dir: dir.path.clone(),
            per_puzzle: r.per_puzzle,
            merged: None,
            binary_sha256: r.facts.binary_sha256.clone(),
            progress: None,
            round_trip_floor: r.round_trip_floor,
            logs: Vec::new(),
        }
    }
}

/// One output format. Each format's implementation repeats the signature
/// of [`Report::write`]; a format of one file made in memory writes it
/// with `write_one`.
pub trait Report {
    /// Writes the format's file(s) into `dir`; returns the paths written.
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>>;
}

/// Writes `text` as the file `name` in `dir`, atomically: the write of a
/// format that is one file made whole in memory.
fn write_one(dir: &Path, name: &str, text: &str) -> std::io::Result<Vec<PathBuf>> {
    Ok(vec![crate::atomic::AtomicFile::write(
        &dir.join(name),
        text.as_bytes(),
    )?])
}

/// Every file format except the streamed `puzzles.csv`.
pub fn all_reports() -> Vec<Box<dyn Report>> {
    vec![
        Box::new(summary_csv::SummaryCsv),
        Box::new(hgrm::Hgrm),
        Box::new(histograms_json::HistogramsJson),
        Box::new(markdown::Markdown),
        Box::new(problems_txt::ProblemsTxt),
        Box::new(images_csv::ImagesCsv),
        Box::new(run_json::RunJson),
    ]
}

/// Writes every report into `dir`; returns the paths written.
// Takes `Report::write`'s arguments on purpose: every report's, into one directory.
pub fn write_all(
    run: &RunResult,
    config: &Config,
    meta: &RunMeta,
    dir: &Path,
) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for report in all_reports() {
        paths.extend(report.write(run, config, meta, dir)?);
    }
    Ok(paths)
}

/// A name safe in a file name (kept here under its old place; it lives
/// in [`crate::results::schema`]).
pub use crate::results::schema::file_safe;

/// A duration in nanoseconds for people: `850 ns`, `12.3 µs`, `4.56 ms`,
/// `1.23 s`, three significant figures.
pub fn human_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    if unit == "ns" || v >= 100.0 {
        format!("{v:.0} {unit}")
    } else if v >= 10.0 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.2} {unit}")
    }
}

/// A duration in nanoseconds with three significant figures also under
/// a microsecond (`47.3 ns`, `1.52 ns`; [`human_ns`] above): a time per
/// node, update or mem.
// A ladder of precisions like `human_ns`'s, on purpose: one more digit under a microsecond.
pub fn human_ns3(ns: f64) -> String {
    if ns >= 1e3 {
        human_ns(ns)
    } else if ns >= 100.0 {
        format!("{ns:.0} ns")
    } else if ns >= 10.0 {
        format!("{ns:.1} ns")
    } else if ns >= 1.0 {
        format!("{ns:.2} ns")
    } else {
        format!("{ns:.3} ns")
    }
}

/// A rate for people: `1,234,567` or `12.3`.
pub fn human_rate(r: f64) -> String {
    if r >= 100.0 {
        thousands(r.round() as u64)
    } else {
        format!("{r:.1}")
    }
}

/// What `budget` allows, for tables and messages: `1,000 nodes`, `2s`,
/// `1,000 nodes or 2s`, `no limit`.
pub fn describe_budget(budget: Budget) -> String {
    let nodes =
        (budget.max_nodes != u64::MAX).then(|| format!("{} nodes", thousands(budget.max_nodes)));
    let time = budget
        .max_time
        .map(|t| humantime::format_duration(t).to_string());
    match (nodes, time) {
        (Some(n), Some(t)) => format!("{n} or {t}"),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => "no limit".to_string(),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Index of the reference solver in the config (the first if absent).
pub(crate) fn reference_index(config: &Config, meta: &RunMeta) -> usize {
    config
        .solvers()
        .iter()
        .position(|s| *s == meta.reference)
        .unwrap_or(0)
}

/// Throughput of `s` over that of `reference` on corpus `c`: `None` when
/// either timed nothing, or when they did not run the same puzzles (one
/// does not take some that the other does), since their rates then
/// measure different work. `summary.csv` also leaves it out wherever the
/// paired ratio is missing ([`summary_csv::rows`]).
pub(crate) fn speed_vs(c: &CorpusResult, s: &SolverStats, reference: &SolverStats) -> Option<f64> {
    if s.not_applicable != reference.not_applicable {
        return None;
    }
    let rate = s.puzzles_per_s(c.workers)?;
    Some(rate / reference.puzzles_per_s(c.workers)?)
}

/// Smallest median latency over every corpus x solver with timed solves.
pub fn fastest_median_ns(run: &RunResult) -> Option<u64> {
    run.corpora
        .iter()
        .flat_map(|c| &c.solvers)
        .filter(|s| s.timed() > 0)
        .map(|s| s.quantile_ns(0.5))
        .min()
}

/// True when one clock-read pair costs more than 2% of the fastest median.
pub fn clock_overhead_too_high(run: &RunResult) -> bool {
    fastest_median_ns(run).is_some_and(|m| run.clock_overhead_ns > 0.02 * m as f64)
}

#[cfg(test)]
mod tests;
