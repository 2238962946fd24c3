//! `summary.csv`: one row per corpus x solver (columns in [`schema::summary`]).

use std::path::{Path, PathBuf};

use super::{reference_index, schema, Report, RunMeta};
use crate::atomic::AtomicFile;
use crate::harness::{Config, NoRatio, RunResult, Speed};
use crate::results::SummaryRow;

/// Column names, in order: [`schema::summary::COLUMNS`].
pub use super::schema::summary::COLUMNS;

/// Writes `summary.csv`.
#[derive(Debug, Clone, Copy)]
pub struct SummaryCsv;

// Repeats the signature of `Report::write`, as every format does (see the trait).
impl Report for SummaryCsv {
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let file = AtomicFile::create(&dir.join(schema::SUMMARY_CSV))?;
        // The header is written even without rows.
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        w.write_record(COLUMNS)?;
        for row in rows(run, config, meta) {
            w.serialize(row)?;
        }
        let file = w.into_inner().map_err(|e| e.into_error())?;
        Ok(vec![file.commit()?])
    }
}

/// The rows of `summary.csv`: one per corpus x solver, in run order.
pub fn rows(run: &RunResult, config: &Config, meta: &RunMeta) -> Vec<SummaryRow> {
    let reference = reference_index(config, meta);
    let mut rows = Vec::new();
    for c in &run.corpora {
        let speeds = c.speeds(reference);
        for (i, s) in c.solvers.iter().enumerate() {
            let speed = speeds
                .get(i)
                .copied()
                .unwrap_or(Speed::Missing(NoRatio::NoData));
            // Empty, not 0, where nothing was timed.
            let timed = |v: f64| (s.timed() > 0).then_some(v);
            let budget = config.budgets()[i].max_nodes;
            let own = s.own_time_check(c.round_trip_floor_ns);
            rows.push(SummaryRow {
                corpus: c.name.clone(),
                solver: s.name.to_string(),
                puzzles: s.puzzles,
                solved: s.solved,
                unsolvable: s.unsolvable,
                multiple: s.multiple,
                budget: s.budget,
                malformed: c.malformed,
                invalid: s.invalid,
                mean_ns: timed(s.mean_ns()),
                stddev_ns: timed(s.stddev_ns()),
                p50_ns: timed(s.quantile_ns(0.5) as f64),
                p90_ns: timed(s.quantile_ns(0.9) as f64),
                p99_ns: timed(s.quantile_ns(0.99) as f64),
                p999_ns: timed(s.quantile_ns(0.999) as f64),
                max_ns: timed(s.max_ns() as f64),
                total_nodes: s.total_nodes,
                guesses_per_puzzle: Some(s.guesses_per_puzzle()),
                no_guess_pct: Some(s.no_guess_pct()),
                puzzles_per_s: s.puzzles_per_s(c.workers),
                // The legacy ratio of throughputs stands only where the
                // paired ratio does: a solver that disagrees with the
                // reference, or whose own times are unverified, has no
                // speed, whatever its mean.
                speed_vs_reference: speed
                    .ratio()
                    .and_then(|_| super::speed_vs(c, s, &c.solvers[reference])),
                threads: Some(run.threads as u64),
                mode: Some(config.mode.as_str().to_string()),
                budget_nodes: (budget != u64::MAX).then_some(budget),
                reference: Some(meta.reference.to_string()),
                total_updates: s.total_updates,
                not_applicable: s.not_applicable,
                crashed: s.crashed,
                timeout: s.timeout,
                protocol_error: s.protocol_error,
                skipped: s.skipped,
                latency_source: Some(s.latency_source().to_string()),
                mean_round_trip_ns: s.mean_round_trip_ns(),
                speed_vs: speed.ratio(),
                speed_low: match speed {
                    Speed::Reference => Some(1.0),
                    Speed::Ratio(r) => r.low,
                    Speed::Missing(_) => None,
                },
                speed_high: match speed {
                    Speed::Reference => Some(1.0),
                    Speed::Ratio(r) => r.high,
                    Speed::Missing(_) => None,
                },
                speed_puzzles: match speed {
                    Speed::Ratio(r) => Some(r.puzzles),
                    _ => None,
                },
                speed_note: match speed {
                    Speed::Reference => Some("reference".into()),
                    Speed::Ratio(_) => None,
                    Speed::Missing(why) => Some(why.as_str().into()),
                },
                total_mems: s.total_mems,
                own_time_explained: own.map(|c| c.explained),
                own_overhead_ns: own.map(|c| c.overhead_ns),
            });
        }
    }
    rows
}
