//! Regression tracking: compare two benchmark runs (`dlxbench compare`).
//!
//! [`load()`] reads a run written by `dlxbench bench` (a result directory, or
//! its `summary.csv` or `puzzles.csv`); [`compare`] matches the two runs'
//! rows by corpus x solver (and, when both have `puzzles.csv`, by puzzle
//! line) and makes two checks; [`render`] writes the outcome as a terminal
//! table, Markdown or JSON.
//!
//! # Deterministic counters
//! Search nodes, Dancing Links link updates and mems (memory accesses as
//! Knuth's programs count them) do not depend on the machine: for the same
//! corpus, solver, mode and budget they must be identical. Per puzzle when
//! both runs have `puzzles.csv` (nodes, updates, mems, status and solution
//! count of every puzzle; puzzles present on one side only count too),
//! else on the totals of `summary.csv`. Any difference is an *algorithm
//! change*, reported with its size and the first few puzzles
//! ([`Counters`]). Updates and mems are compared only when both runs
//! recorded them (runs from before the `updates` or `mems` column did not;
//! most solvers count no mems).
//!
//! # Time
//! Per corpus x solver, the ratio current / baseline of the geometric mean
//! of per-puzzle solve times, paired by puzzle: over the puzzles present in
//! both runs, timed (status not `budget`) and with a non-zero time in both,
//! `d_i = ln(current_i / baseline_i)` and the ratio is `exp(mean d)`. Its
//! 95% confidence interval comes from a seeded percentile bootstrap over
//! *blocks* of consecutive lines ([`bootstrap::blocks`], blocks of the
//! run's schedule block, [`Comparison::block`]): a burst of load hits the
//! puzzles solved back to back together, so puzzles are not independent
//! ([`Method::PairedBlocks`]); when the common puzzles fill one block only,
//! over puzzles ([`bootstrap::paired`], [`Method::PairedPuzzles`]). Each
//! corpus x solver uses the stream `seed` xor a hash (FNV-1a) of `corpus
//! NUL solver`, so results do not depend on the order of the rows. When
//! one run has no per-puzzle data, the ratio of mean times with a
//! normal-approximation interval from the summaries' mean, standard
//! deviation and count is used instead, and the output says so
//! ([`Method::RatioOfMeansNormal`]). No interval made of two runs holds
//! the noise between them (code layout, the machine's state): the output
//! says so, and [`Options::floor`] takes that floor when it is known.
//!
//! The verdict ([`TimeVerdict`]): a *regression* only when the whole interval
//! lies above `1 + max(threshold, floor)`, an *improvement* only when it
//! lies below `1 - max(threshold, floor)`, otherwise *no significant
//! change*. Runs whose `run.json` names different CPU models
//! ([`Comparison::other_cpu`]) get no verdict: their times are not
//! comparable ([`TimeVerdict::NotComparable`]; the ratio is still shown).
//! Time gates only with [`Metric::Time`] or [`Metric::Both`]; the
//! deterministic counters always do (an algorithm change fails unless
//! [`Options::allow_algorithm_change`], the rule `ab` follows too). p50,
//! p99 and throughput ratios (from the summaries) are shown for reading;
//! they gate nothing.
//!
//! # Unusable input
//! Runs that cannot be compared are an error ([`CompareError`]): a missing
//! or unreadable file, a CSV that does not parse (file and line named), a
//! CSV cut short (its last line without a line end), a `puzzles.csv` whose
//! rows per corpus x solver disagree with the `puzzles` counts of the
//! `summary.csv` beside it, or runs that differ in mode, solution limit, symmetry-image seed, node
//! budget of a solver present in both, or SHA-256 of a corpus present in
//! both, or a corpus present in both that changed on disk while a run read
//! it ([`Difference`]). Corpora or solvers present on one side only are
//! listed, not errors.
//!
//! # Layout
//! `options.rs` holds how to compare ([`Options`], [`Metric`]),
//! `comparison.rs` what comes out ([`Comparison`] and its parts), and
//! `algorithm.rs` the matching and the two checks ([`compare()`],
//! [`check_compatible`]); [`load`](mod@load), [`bootstrap`] and [`render`]
//! read the runs, compute the intervals and write the outcome. The error
//! type and the differences that make two runs incomparable are here.
//! Everything public is re-exported at this level.

mod algorithm;
pub mod bootstrap;
mod comparison;
pub mod distribution;
pub mod load;
mod options;
pub mod render;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

pub use algorithm::{check_compatible, compare, verdict, work_split, work_split_of};
pub use bootstrap::Interval;
pub use comparison::{
    Cause, ChangeCounts, Comparison, Counters, Counts, Method, PairResult, PuzzleChange, Reading,
    Scope, Side, TimeCheck, TimeVerdict, WorkSplit,
};
pub use distribution::RatioHistogram;
pub use load::{load, load_with, Group, PuzzleRow, Run, SummaryRow};
pub use options::{
    parse_threshold, Metric, Options, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_THRESHOLD,
};

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
    /// Reading a file failed. The message includes the operating system's
    /// error, which is therefore not also given as the error's source (an
    /// error chain printed in full would repeat it).
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
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
    /// `puzzles.csv` and `summary.csv` disagree on the number of puzzles
    /// of a corpus x solver: one of them was cut short, or they come from
    /// different runs.
    #[error(
        "{}: corpus `{corpus}`, solver `{solver}`: {rows} rows, but {}: the files were cut \
         short or do not belong to the same run",
        puzzles.display(),
        counted_text(summary, *counted)
    )]
    Inconsistent {
        /// The `puzzles.csv`.
        puzzles: PathBuf,
        /// The `summary.csv`.
        summary: PathBuf,
        /// Corpus name.
        corpus: String,
        /// Solver name.
        solver: String,
        /// Rows of the corpus x solver in `puzzles.csv`.
        rows: u64,
        /// Its `puzzles` count in `summary.csv` (`None`: it has no row
        /// there).
        counted: Option<u64>,
    },
    /// A `run.json` is not what a run writes (the file and field named).
    #[error(transparent)]
    Result(#[from] crate::results::ResultError),
    /// The runs measured different things.
    #[error("the runs cannot be compared: {}", join(.0))]
    Incompatible(Vec<Difference>),
}

/// `summary.csv counts 200 puzzles`, or that it has no row.
fn counted_text(summary: &std::path::Path, counted: Option<u64>) -> String {
    match counted {
        Some(n) => format!("{} counts {n} puzzles", summary.display()),
        None => format!("{} has no row for them", summary.display()),
    }
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
    /// A corpus present in both runs changed on disk while one of them
    /// read it (its `run.json` says `changed_on_disk`): that run's results
    /// of it are of no one version of the file.
    CorpusChanged {
        /// Corpus name.
        corpus: String,
        /// The run: `baseline` or `current`.
        side: &'static str,
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
            Difference::CorpusChanged { corpus, side } => write!(
                f,
                "corpus `{corpus}` changed on disk during the {side} run (run.json: \
                 changed_on_disk): its results there may mix two versions of the file; run it again"
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
