//! The result directory as types: what `dlxbench bench` (and `merge`)
//! write, and the one reader of each file.
//!
//! * [`RunInfo`]: `run.json`, what was run, where and when;
//! * [`SummaryRow`]: a row of `summary.csv`;
//! * [`PuzzleRecord`]: a row of `puzzles.csv`, written by
//!   [`PuzzleRecord::write_csv`] and streamed back by [`PuzzleReader`]
//!   ([`puzzles`]);
//! * [`HistogramSet`]: `histograms.json`, every corpus x solver's exact
//!   accumulators ([`SolverStats`](crate::harness::SolverStats)) and
//!   latency histogram;
//! * [`schema`]: the file names and the CSV columns in their order;
//! * [`output`]: the JSON documents of `compare`, `ab`, `versus` and the
//!   `--export` formats, one type per document.
//!
//! `run.json`, `summary.csv` and `histograms.json` are derived with serde:
//! the writers in [`crate::report`] serialize these types and the readers
//! deserialize them, so a key of `run.json` is spelled once, as a field
//! name here. JSON files are written with their keys in sorted order (as
//! they always were): a type's field order does not matter to the file.
//! `puzzles.csv`, which can hold millions of rows, has a writer and a
//! streaming reader of its own, both going by the one list of its columns
//! ([`schema::puzzles::Column`]).
//!
//! [`ResultDir::open`] reads and checks a directory (the checksums of its
//! files included: [`checksum`]); its errors
//! ([`ResultError`]) name the file and, for a value that is not what a run
//! writes, the field (`corpora[1].bytes`) or the line and column of a CSV
//! file. `compare`, `merge`, `plot` and `versus` read result directories
//! through it and the CSV files through these readers.

pub mod checksum;
mod dir;
pub mod histograms;
mod json;
pub mod output;
pub mod puzzles;
mod run_info;
pub mod schema;
mod summary;

pub use checksum::{Checksums, Modified, Verify};
pub use dir::{DirState, ResultDir, ResultError};
pub use histograms::{HistogramEntry, HistogramSet};
pub use json::{from_json, to_json};
pub use puzzles::{GroupIndex, PuzzleReader, PuzzleRecord, PuzzleRow};
pub use run_info::{
    CorpusInfo, CorpusState, FailureCounts, PartFacts, RoundTripFloor, RunFacts, RunInfo, RunState,
    ShardInfo, SolverInfo, Throughput,
};
pub use summary::{SummaryFile, SummaryRow};

/// The version of the result-directory format this build writes, in
/// `run.json` (`schema_version`). 1: the first with the key; files without
/// it are older and read as version 0. 2: `run.json` records the SHA-256
/// of each data file (`file_sha256`, [`checksum`]); the failure statuses
/// (crashed, timeout, protocol-error, skipped), their counts in
/// `summary.csv` and `run.json`, and the `round_trip_ns` and `cause`
/// columns of `puzzles.csv`. 3: mems, for the solvers that count them:
/// the `mems` column of `puzzles.csv`, `total_mems` in `summary.csv` and
/// `histograms.json` (columns added last, as every later column is). 4:
/// the check of solvers' own times (`own_time_explained`,
/// `own_overhead_ns` in `summary.csv`, `speed_note` `unverified`), a
/// process solver past its budget as `budget` with cause `deadline`, the
/// causes `stray`, `too-long` and `clock`, and in `run.json` the log caps'
/// `log_dropped_bytes` and the failures' `warm_up_failed` and `notes`. 5:
/// the `host` column of `puzzles.csv` (the process that timed each solve
/// of a solver in its own process, which the speed interval resamples by),
/// and for a run with `--images K` its `images` key, `image_failed` and
/// `images.csv`.
/// Every older version is still read (versions before 2 unverified:
/// [`Checksums::NotRecorded`]; before 3 without mems: not recorded; before
/// 4 without the own-time check; before 5 without hosts: each block its
/// own unit).
pub const SCHEMA_VERSION: u32 = 6;

/// The first [`SCHEMA_VERSION`] whose `run.json` records checksums of the
/// result files.
pub const CHECKSUMS_FROM: u32 = 2;

#[cfg(test)]
mod tests;
