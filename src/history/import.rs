//! `history add`: a result directory into the database, in one
//! transaction, once.
//!
//! A run is read through the result directory's one reader
//! ([`ResultDir::open_with`], its checksums verified) and `summary.csv`'s
//! ([`SummaryFile::read`]); `puzzles.csv` ([`PuzzleReader`]) only when
//! per-puzzle rows are asked for. Only a complete run is added: an
//! interrupted, running or dead one has figures of part of its corpora.
//!
//! Each run is added in one immediate transaction (the database's write
//! lock taken first, so two writers queue, each waiting up to
//! [`BUSY_TIMEOUT`](super::store::BUSY_TIMEOUT)); the check that the run
//! is not there yet is made under that lock. A writer killed mid-way
//! leaves SQLite's journal behind, and the next connection rolls the
//! half-written run back: a run is in the database whole or not at all.

use std::path::Path;

use rusqlite::{params, OptionalExtension, Transaction, TransactionBehavior};
use sha2::{Digest, Sha256};

use super::store::{sql, Store};
use super::HistoryError;
use crate::results::{DirState, PuzzleReader, ResultDir, RunInfo, SummaryFile, SummaryRow, Verify};

/// How runs are added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddOptions {
    /// Also keep the per-puzzle rows of `puzzles.csv` (when the run has
    /// one).
    pub puzzles: bool,
    /// Whether files that do not match their checksums are refused.
    pub verify: Verify,
}

impl Default for AddOptions {
    fn default() -> Self {
        AddOptions {
            puzzles: false,
            verify: Verify::Strict,
        }
    }
}

/// What adding one run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// The run was added.
    New {
        /// Its key ([`run_key`]).
        key: String,
        /// Corpus x solver rows added.
        summaries: usize,
        /// Per-puzzle rows added.
        puzzles: u64,
    },
    /// The run was there already: nothing was added.
    Already {
        /// Its key.
        key: String,
    },
}

/// The key of a run: the SHA-256 (hex) of the facts in its `run.json`
/// that identify it and that no later read changes: start and end times,
/// git revision, the binary's checksum, command line, CPU and the
/// checksums of its data files. The same directory, copied or moved, has
/// the same key; two runs never do (they differ in start time, or in
/// their files).
pub fn run_key(run: &RunInfo) -> String {
    let f = &run.facts;
    let identity = serde_json::json!([
        f.started,
        f.finished,
        f.git_revision,
        f.binary_sha256,
        f.command_line,
        f.cpu_model,
        run.file_sha256,
    ]);
    let digest = Sha256::digest(identity.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Adds the run in the result directory `dir` to `store`, unless it is
/// there already.
pub fn add(store: &mut Store, dir: &Path, options: &AddOptions) -> Result<Added, HistoryError> {
    let run = ResultDir::open_with(dir, options.verify)?;
    if run.state != DirState::Complete {
        return Err(HistoryError::NotComplete {
            dir: dir.to_path_buf(),
            state: run.state.to_string(),
        });
    }
    let summary_path = run
        .summary_csv
        .clone()
        .ok_or_else(|| HistoryError::NoSummary {
            dir: dir.to_path_buf(),
        })?;
    let summary = SummaryFile::read(&summary_path)?;
    let key = run_key(&run.run);
    let path = store.path.clone();
    let tx = store
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql(&path))?;
    let there: Option<i64> = tx
        .query_row("SELECT id FROM runs WHERE run_key = ?1", [&key], |r| {
            r.get(0)
        })
        .optional()
        .map_err(sql(&path))?;
    if there.is_some() {
        return Ok(Added::Already { key });
    }
    let id = insert_run(&tx, &key, &run).map_err(sql(&path))?;
    for row in &summary.rows {
        insert_summary(&tx, id, &run.run, row).map_err(sql(&path))?;
    }
    let puzzles = match (&run.puzzles_csv, options.puzzles) {
        (Some(csv), true) => insert_puzzles(&tx, id, csv, &path)?,
        _ => 0,
    };
    tx.commit().map_err(sql(&path))?;
    Ok(Added::New {
        key,
        summaries: summary.rows.len(),
        puzzles,
    })
}

/// Inserts the run's own row; its id.
fn insert_run(tx: &Transaction<'_>, key: &str, dir: &ResultDir) -> rusqlite::Result<i64> {
    let run = &dir.run;
    let f = &run.facts;
    let command_line = serde_json::to_string(&f.command_line).unwrap_or_default();
    let source = std::fs::canonicalize(&dir.path).unwrap_or_else(|_| dir.path.clone());
    let added = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    tx.execute(
        "INSERT INTO runs (run_key, git_revision, started, finished, dlxbench_version, cpu_model,
             cores, threads, kind, mode, command_line, merged_parts, source_dir, added)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            key,
            f.git_revision,
            f.started,
            f.finished,
            run.dlxbench_version,
            f.cpu_model,
            f.cores.map(|n| n as u64),
            f.threads.map(|n| n as u64),
            run.kind,
            run.mode,
            command_line,
            f.merged_from.as_ref().map_or(0, |parts| parts.len() as u64),
            source.to_string_lossy(),
            added,
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

/// Inserts one `summary.csv` row of run `id`.
fn insert_summary(
    tx: &Transaction<'_>,
    id: i64,
    run: &RunInfo,
    row: &SummaryRow,
) -> rusqlite::Result<()> {
    let sha = run
        .corpora
        .iter()
        .find(|c| c.name == row.corpus)
        .and_then(|c| c.sha256.clone());
    tx.execute(
        "INSERT INTO summaries (run_id, corpus, corpus_sha256, solver, puzzles, solved, unsolvable,
             multiple, budget, invalid, failed, skipped, timed, mean_ns, stddev_ns, p50_ns, p99_ns,
             puzzles_per_s, total_nodes, total_updates, total_mems)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
             ?19, ?20, ?21)",
        params![
            id,
            row.corpus,
            sha,
            row.solver,
            row.puzzles,
            row.solved,
            row.unsolvable,
            row.multiple,
            row.budget,
            row.invalid,
            row.failed(),
            row.skipped,
            row.timed(),
            row.mean_ns,
            row.stddev_ns,
            row.p50_ns,
            row.p99_ns,
            row.puzzles_per_s,
            row.total_nodes,
            row.total_updates,
            row.total_mems,
        ],
    )?;
    Ok(())
}

/// Inserts the rows of `puzzles.csv` at `csv` for run `id`; how many.
fn insert_puzzles(
    tx: &Transaction<'_>,
    id: i64,
    csv: &Path,
    db: &Path,
) -> Result<u64, HistoryError> {
    let mut reader = PuzzleReader::open(csv)?;
    let mut insert = tx
        .prepare(
            "INSERT INTO puzzles (run_id, corpus, solver, line, ns, nodes, solutions, status)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .map_err(sql(db))?;
    let mut n = 0;
    while let Some(r) = reader.next()? {
        insert
            .execute(params![
                id,
                r.corpus,
                r.solver,
                r.line,
                r.ns,
                r.nodes,
                r.solutions,
                r.status.as_str()
            ])
            .map_err(sql(db))?;
        n += 1;
    }
    Ok(n)
}
