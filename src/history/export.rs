//! `history export`: the database as data, CSV (one row per run x corpus
//! x solver) or JSON ([`HistoryExportJson`]).

use rusqlite::params;

use super::store::{sql, Store};
use super::HistoryError;
use crate::results::output::history::{ExportRun, ExportSummary, HISTORY_EXPORT_FORMAT};
use crate::results::output::HistoryExportJson;

/// Every run of `store`, in the order they were added, with their
/// figures.
pub fn runs(store: &Store) -> Result<HistoryExportJson, HistoryError> {
    let err = sql(&store.path);
    let mut stmt = store
        .conn
        .prepare(
            "SELECT id, run_key, git_revision, started, finished, dlxbench_version, cpu_model,
                    cores, threads, kind, mode, command_line, merged_parts, source_dir, added
             FROM runs ORDER BY id",
        )
        .map_err(&err)?;
    let rows = stmt
        .query_map(params![], |r| {
            let command_line: String = r.get(11)?;
            Ok((
                r.get::<_, i64>(0)?,
                ExportRun {
                    run_key: r.get(1)?,
                    git_revision: r.get(2)?,
                    started: r.get(3)?,
                    finished: r.get(4)?,
                    dlxbench_version: r.get(5)?,
                    cpu_model: r.get(6)?,
                    cores: r.get(7)?,
                    threads: r.get(8)?,
                    kind: r.get(9)?,
                    mode: r.get(10)?,
                    command_line: serde_json::from_str(&command_line).unwrap_or_default(),
                    merged_parts: r.get(12)?,
                    source_dir: r.get(13)?,
                    added: r.get(14)?,
                    summaries: Vec::new(),
                },
            ))
        })
        .map_err(&err)?;
    let mut runs = Vec::new();
    for row in rows {
        let (id, mut run) = row.map_err(&err)?;
        run.summaries = summaries(store, id)?;
        runs.push(run);
    }
    Ok(HistoryExportJson {
        format: HISTORY_EXPORT_FORMAT.to_string(),
        schema_version: store.version()?,
        runs,
    })
}

/// The figures of run `id`, by corpus then solver.
fn summaries(store: &Store, id: i64) -> Result<Vec<ExportSummary>, HistoryError> {
    let err = sql(&store.path);
    let mut stmt = store
        .conn
        .prepare(
            "SELECT corpus, corpus_sha256, solver, puzzles, solved, unsolvable, multiple, budget,
                    invalid, failed, skipped, timed, mean_ns, stddev_ns, p50_ns, p99_ns,
                    puzzles_per_s, total_nodes, total_updates, total_mems,
                    (SELECT count(*) FROM puzzles p
                     WHERE p.run_id = s.run_id AND p.corpus = s.corpus AND p.solver = s.solver)
             FROM summaries s WHERE run_id = ?1 ORDER BY corpus, solver",
        )
        .map_err(&err)?;
    let rows = stmt
        .query_map([id], |r| {
            Ok(ExportSummary {
                corpus: r.get(0)?,
                corpus_sha256: r.get(1)?,
                solver: r.get(2)?,
                puzzles: r.get(3)?,
                solved: r.get(4)?,
                unsolvable: r.get(5)?,
                multiple: r.get(6)?,
                budget: r.get(7)?,
                invalid: r.get(8)?,
                failed: r.get(9)?,
                skipped: r.get(10)?,
                timed: r.get(11)?,
                mean_ns: r.get(12)?,
                stddev_ns: r.get(13)?,
                p50_ns: r.get(14)?,
                p99_ns: r.get(15)?,
                puzzles_per_s: r.get(16)?,
                total_nodes: r.get(17)?,
                total_updates: r.get(18)?,
                total_mems: r.get(19)?,
                puzzle_rows: r.get(20)?,
            })
        })
        .map_err(&err)?;
    rows.collect::<Result<_, _>>().map_err(err)
}

/// The columns of the CSV export: the run's facts, then the figures.
pub const CSV_COLUMNS: [&str; 25] = [
    "run_key",
    "git_revision",
    "started",
    "cpu_model",
    "threads",
    "merged_parts",
    "corpus",
    "corpus_sha256",
    "solver",
    "puzzles",
    "solved",
    "unsolvable",
    "multiple",
    "budget",
    "invalid",
    "failed",
    "skipped",
    "timed",
    "mean_ns",
    "stddev_ns",
    "p50_ns",
    "p99_ns",
    "puzzles_per_s",
    "total_nodes",
    "puzzle_rows",
];

/// `doc` as CSV: a header ([`CSV_COLUMNS`]) and one row per run x corpus
/// x solver; an unknown figure is an empty field.
pub fn csv(doc: &HistoryExportJson) -> Result<String, HistoryError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let csv_error = |e: csv::Error| HistoryError::Csv(e.to_string());
    w.write_record(CSV_COLUMNS).map_err(csv_error)?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    for run in &doc.runs {
        for s in &run.summaries {
            let fields: [String; 25] = [
                run.run_key.clone(),
                opt(run.git_revision.clone()),
                opt(run.started.clone()),
                opt(run.cpu_model.clone()),
                opt(run.threads.map(|n| n.to_string())),
                run.merged_parts.to_string(),
                s.corpus.clone(),
                opt(s.corpus_sha256.clone()),
                s.solver.clone(),
                s.puzzles.to_string(),
                s.solved.to_string(),
                s.unsolvable.to_string(),
                s.multiple.to_string(),
                s.budget.to_string(),
                s.invalid.to_string(),
                s.failed.to_string(),
                s.skipped.to_string(),
                s.timed.to_string(),
                opt(s.mean_ns.map(|v| format!("{v:.1}"))),
                opt(s.stddev_ns.map(|v| format!("{v:.1}"))),
                opt(s.p50_ns.map(|v| format!("{v:.0}"))),
                opt(s.p99_ns.map(|v| format!("{v:.0}"))),
                opt(s.puzzles_per_s.map(|v| format!("{v:.1}"))),
                opt(s.total_nodes.map(|v| v.to_string())),
                s.puzzle_rows.to_string(),
            ];
            w.write_record(&fields).map_err(csv_error)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| HistoryError::Csv(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
