//! `summary.csv`: one row per corpus x solver (columns in [`schema::summary`]).

use std::path::{Path, PathBuf};

use super::{reference_index, schema, Report, RunMeta};
use crate::atomic::AtomicFile;
use crate::harness::{Config, RunResult};

/// Column names, in order: [`schema::summary::COLUMNS`].
pub use super::schema::summary::COLUMNS;

/// Writes `summary.csv`.
#[derive(Debug, Clone, Copy)]
pub struct SummaryCsv;

impl Report for SummaryCsv {
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let file = AtomicFile::create(&dir.join(schema::SUMMARY_CSV))?;
        let mut w = csv::Writer::from_writer(file);
        w.write_record(COLUMNS)?;
        let reference = reference_index(config, meta);
        for c in &run.corpora {
            for (i, s) in c.solvers.iter().enumerate() {
                let rate = s.puzzles_per_s(c.workers);
                // Empty, not 0, where nothing was timed.
                let timed = |text: String| if s.timed() == 0 { String::new() } else { text };
                let budget = config.budgets[i].max_nodes;
                let row: Vec<String> = vec![
                    c.name.clone(),
                    s.name.to_string(),
                    s.puzzles.to_string(),
                    s.solved.to_string(),
                    s.unsolvable.to_string(),
                    s.multiple.to_string(),
                    s.budget.to_string(),
                    c.malformed.to_string(),
                    s.invalid.to_string(),
                    timed(format!("{:.1}", s.mean_ns())),
                    timed(format!("{:.1}", s.stddev_ns())),
                    timed(s.quantile_ns(0.5).to_string()),
                    timed(s.quantile_ns(0.9).to_string()),
                    timed(s.quantile_ns(0.99).to_string()),
                    timed(s.quantile_ns(0.999).to_string()),
                    timed(s.max_ns().to_string()),
                    s.total_nodes.map_or_else(String::new, |n| n.to_string()),
                    format!("{:.3}", s.guesses_per_puzzle()),
                    format!("{:.2}", s.no_guess_pct()),
                    rate.map_or_else(String::new, |r| format!("{r:.1}")),
                    super::speed_vs(c, s, &c.solvers[reference])
                        .map_or_else(String::new, |x| format!("{x:.4}")),
                    run.threads.to_string(),
                    config.mode.as_str().to_string(),
                    if budget == u64::MAX {
                        String::new()
                    } else {
                        budget.to_string()
                    },
                    meta.reference.to_string(),
                    s.total_updates.map_or_else(String::new, |u| u.to_string()),
                    s.not_applicable.to_string(),
                ];
                w.write_record(&row)?;
            }
        }
        let file = w.into_inner().map_err(|e| e.into_error())?;
        Ok(vec![file.commit()?])
    }
}
