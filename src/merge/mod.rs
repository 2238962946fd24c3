//! Merging the result directories of shards (`bench --shard K/N`, see
//! [`crate::shard`]) into one result directory, exactly.
//!
//! What is checked first, naming the difference when it fails: every part
//! holds a finished run (not an interrupted one); the parts ran the same
//! corpora (SHA-256), kind, mode, limit, passes, warm-up, shuffle and
//! permute seeds, symmetry images, schedule block, solvers and budgets, with the same
//! dlxbench version; they are shards of one partition, none given twice
//! and none missing (unless the merge is [`Options::partial`]).
//!
//! Each part is read through [`ResultDir::open_with`]: the checksums its
//! `run.json` records of its files are verified (a file edited, truncated
//! or replaced after the run is refused, naming it, unless
//! [`Options::accept_modified`] (then each is in [`Merge::notes`]); a part
//! from before checksums is read unverified, as before). What no checksum covers
//! (a part without them, or a file rewritten with its checksum) is
//! cross-checked: each part's `summary.csv` must agree with its
//! `histograms.json` (`solved` at most `puzzles`, the same counts and
//! total nodes), and its `puzzles.csv` rows, added up, must give exactly
//! the statistics of its `histograms.json` (counts, total nodes, guesses,
//! updates, mems, summed times and the latency histogram): edited node counts,
//! or histograms swapped between solvers, are refused.
//!
//! What is merged: every corpus x solver's counts and exact sums, and its
//! latency histogram, from the parts' `histograms.json` (HdrHistogram V2:
//! the merged histogram is the exact sum of the parts'); the parts'
//! `puzzles.csv` rows, streamed into one file in corpus and line order (a
//! k-way merge holding one row per part: memory does not grow with the
//! rows); every solver's rows of a puzzle are cross-checked again, and each
//! part's row counts checked against its statistics. `summary.csv`, the
//! `.hgrm` files, `summary.md`, `histograms.json` and `run.json` are then
//! written from the merged statistics by the reports a run uses, so the
//! merged directory is a normal result directory (one that `compare` and
//! `merge` read). Parts run with `bench --images K` (the same K) have their
//! `images.csv` rows gathered in corpus and line order ([`image_rows::merge_images`]),
//! each puzzle's image rows checked again as the run checks them
//! ([`harness::images::check_line`]), and the images' notes and `images.csv`
//! written from them as the unsharded run writes them.
//!
//! Throughput in a merged run: a corpus's workers are the parts' workers
//! added up, and `puzzles_per_s` is puzzles x workers / summed solve time:
//! what all the parts' workers together would do if they were equally fast.
//! When the parts ran on different machines, each part's own figures are
//! kept in `run.json` (`merged_from`).

mod check;
mod image_rows;
mod part;
mod rows;

use std::path::{Path, PathBuf};

use crate::harness::{self, Config, RunResult};
use crate::report::run_json::Merged;
use crate::report::{self, schema, RunMeta};
use crate::results::{ResultDir, ResultError, Verify};

use check::check_parts;
use image_rows::merge_images;
use part::Part;
use rows::merge_rows;

/// How to merge.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Accept a subset of the shards (a merge to be merged again with the
    /// rest later): missing shards are then not an error.
    pub partial: bool,
    /// The command line, for the merged `run.json`.
    pub command_line: Vec<String>,
    /// Where the merged directory will be (for `run.json`; the files are
    /// written into the directory given to [`merge`]).
    pub out_dir: PathBuf,
    /// Read parts whose files do not match the checksums in their
    /// `run.json` (each is then listed in [`Merge::notes`]) instead of
    /// refusing them. The consistency checks still apply.
    pub accept_modified: bool,
}

/// Why parts cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A part is not a finished result directory, or one of its files is
    /// not what a run writes.
    #[error("{dir}: {what}")]
    Part {
        /// The part's directory.
        dir: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Two parts were run differently.
    #[error("the parts differ in {what}: {first} has {a}, {second} has {b}")]
    Mismatch {
        /// What differs.
        what: &'static str,
        /// A part.
        first: PathBuf,
        /// Its value.
        a: String,
        /// Another part.
        second: PathBuf,
        /// Its value.
        b: String,
    },
    /// Shards are missing or given twice.
    #[error("{0}")]
    Shards(String),
    /// Two parts hold the same puzzle.
    #[error("{corpus} line {line} is in both {first} and {second}: the parts overlap")]
    Overlap {
        /// Corpus.
        corpus: String,
        /// Line.
        line: u64,
        /// A part.
        first: PathBuf,
        /// Another part.
        second: PathBuf,
    },
    /// Nothing to merge.
    #[error("no part to merge")]
    Empty,
    /// A part's `run.json` or `histograms.json` is missing or is not what
    /// a run writes.
    #[error(transparent)]
    Read(#[from] ResultError),
}

/// A merged run: what the reports were written from.
#[derive(Debug)]
pub struct Merge {
    /// The merged results (discrepancies found again in the merged rows).
    pub result: RunResult,
    /// The parts' settings.
    pub config: Config,
    /// The merged run's metadata.
    pub meta: RunMeta,
    /// Rows of the merged `puzzles.csv` (0 when the parts had none).
    pub rows: u64,
    /// The files written.
    pub written: Vec<PathBuf>,
    /// What to tell about the parts read: their files accepted that do
    /// not match their checksums ([`Options::accept_modified`]).
    pub notes: Vec<String>,
}

/// Merges the result directories `dirs` into `into` (an empty directory).
pub fn merge(dirs: &[PathBuf], into: &Path, options: &Options) -> Result<Merge, MergeError> {
    if dirs.is_empty() {
        return Err(MergeError::Empty);
    }
    let verify = match options.accept_modified {
        true => Verify::AcceptModified,
        false => Verify::Strict,
    };
    let parts: Vec<Part> = dirs
        .iter()
        .map(|d| Part::load(d, verify))
        .collect::<Result<_, _>>()?;
    let notes = parts.iter().flat_map(Part::notes).collect();
    for p in &parts {
        p.check_summary()?;
    }
    let (shard_count, indices) = check_parts(&parts, options.partial)?;
    let first = &parts[0];
    let mut config = first.result.config()?;
    config.threads = 0;
    // The parts' solver logs stay in the parts.
    let config = config.without_log_files();
    let dirs: Vec<ResultDir> = parts.iter().map(|p| p.result.clone()).collect();
    let mut result = ResultDir::merged(&dirs, &config)?;
    let per_puzzle = first.per_puzzle();
    let mut written = Vec::new();
    let mut rows = 0;
    if per_puzzle {
        let (n, discrepancies, paired) = merge_rows(&parts, &config, &result, into)?;
        rows = n;
        result.discrepancies = discrepancies;
        for (c, p) in result.corpora.iter_mut().zip(paired) {
            c.paired = p;
            c.speed_cache = std::sync::OnceLock::new();
        }
        written.push(into.join(schema::PUZZLES_CSV));
    }
    if config.permute.is_some() && config.images > 1 {
        let discrepancies = merge_images(&parts, &config, &mut result)?;
        result.discrepancies.extend(discrepancies);
    }
    // In the order and with the deduplication of the run's.
    harness::sort_discrepancies(&mut result.discrepancies);
    // Parts in shard order in `merged_from`.
    let mut ordered: Vec<&Part> = parts.iter().collect();
    ordered.sort_by_key(|p| p.indices[0]);
    let meta = RunMeta {
        command_line: options.command_line.clone(),
        out_dir: options.out_dir.clone(),
        merged: Some(Merged {
            shard_count,
            indices,
            parts: ordered.iter().map(|p| p.facts()).collect(),
        }),
        // The binary that merged, as its git revision.
        binary_sha256: report::run_json::binary_sha256(),
        // Measured on each part's machine: in the parts' own run.json.
        round_trip_floor: None,
        logs: Vec::new(),
        ..RunMeta::of_dir(&first.result, &config)
    };
    written.extend(
        report::write_all(&result, &config, &meta, into).map_err(|source| MergeError::Io {
            path: into.to_path_buf(),
            source,
        })?,
    );
    Ok(Merge {
        result,
        config,
        meta,
        rows,
        written,
        notes,
    })
}
