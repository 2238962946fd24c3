//! Loading one part: a finished run's result directory, its summary
//! checked against its statistics.

use std::path::{Path, PathBuf};

use super::MergeError;
use crate::harness::SolverStats;
use crate::report::schema;
use crate::results::{Checksums, DirState, PartFacts, ResultDir, SummaryFile, Throughput, Verify};

/// One part: a result directory.
pub(super) struct Part {
    pub(super) dir: PathBuf,
    pub(super) result: ResultDir,
    pub(super) count: u32,
    pub(super) indices: Vec<u32>,
    pub(super) stats: Vec<(String, SolverStats)>,
}

impl Part {
    /// A finished run's directory (an interrupted one is refused: its
    /// shard must run again).
    pub(super) fn load(dir: &Path, verify: Verify) -> Result<Part, MergeError> {
        let part = Part::read(dir, verify)?;
        let run = &part.result.run;
        if matches!(
            part.result.state,
            DirState::Died { .. } | DirState::Running { .. }
        ) {
            return Err(MergeError::Part {
                dir: dir.to_path_buf(),
                what: format!(
                    "not a finished run: {}; run this shard again",
                    part.result.warning().unwrap_or_default()
                ),
            });
        }
        if run.interrupted {
            let partial: Vec<String> = run
                .corpora
                .iter()
                .filter(|c| !c.complete)
                .map(|c| format!("{}: {} of {} lines", c.name, c.lines_done, c.lines))
                .collect();
            return Err(MergeError::Part {
                dir: dir.to_path_buf(),
                what: format!(
                    "the run was interrupted ({}); run this shard again",
                    // Stopped between two corpora: none is partial, the
                    // next never started.
                    if partial.is_empty() {
                        "before its next corpus started".to_string()
                    } else {
                        partial.join(", ")
                    }
                ),
            });
        }
        Ok(part)
    }

    /// A run's directory, finished or not.
    pub(super) fn read(dir: &Path, verify: Verify) -> Result<Part, MergeError> {
        let result = ResultDir::open_with(dir, verify)?;
        let (count, indices) = match &result.run.facts.shard {
            None => (1, vec![1]),
            Some(s) => {
                if s.indices.is_empty() || s.indices.iter().any(|&k| k < 1 || k > s.count) {
                    return Err(MergeError::Part {
                        dir: dir.to_path_buf(),
                        what: format!("{}: `shard` is malformed", schema::RUN_JSON),
                    });
                }
                (s.count, s.indices.clone())
            }
        };
        let stats = result.stats()?;
        Ok(Part {
            dir: dir.to_path_buf(),
            result,
            count,
            indices,
            stats,
        })
    }

    /// What to tell about the part's checksums (none when verified).
    pub(super) fn notes(&self) -> Vec<String> {
        let dir = self.dir.display();
        match &self.result.checksums {
            // A part from before checksums is read as before: the
            // consistency checks are what vouch for it.
            Checksums::Verified | Checksums::NotRecorded => Vec::new(),
            Checksums::Modified(modified) => modified
                .iter()
                .map(|m| format!("{dir}: {m}; read anyway, as asked"))
                .collect(),
        }
    }

    /// Checks the part's `summary.csv` (if there) against its
    /// `histograms.json`: every row's counts are possible (`solved` and
    /// `invalid` at most `puzzles`, `multiple` at most `solved`) and are
    /// those of the statistics the merge adds up.
    pub(super) fn check_summary(&self) -> Result<(), MergeError> {
        let Some(path) = &self.result.summary_csv else {
            return Ok(());
        };
        let bad = |what: String| MergeError::Part {
            dir: self.dir.clone(),
            what: format!("{}: {what}", schema::SUMMARY_CSV),
        };
        for row in SummaryFile::read(path)?.rows {
            let (c, s) = (&row.corpus, &row.solver);
            if row.solved > row.puzzles || row.invalid > row.puzzles {
                return Err(bad(format!(
                    "{c} x {s}: {} solved and {} invalid of {} puzzles: impossible counts",
                    row.solved, row.invalid, row.puzzles
                )));
            }
            if row.multiple > row.solved {
                return Err(bad(format!(
                    "{c} x {s}: {} multiple of {} solved: impossible counts",
                    row.multiple, row.solved
                )));
            }
            let stats = self.stats(c, s)?;
            // Alike `compare`'s outcome list (`Counts::named`) by design
            // only: these are `summary.csv`'s columns, by its names, that
            // `histograms.json`'s statistics hold too (not the failures).
            let pairs = [
                ("puzzles", row.puzzles, stats.puzzles),
                ("solved", row.solved, stats.solved),
                ("unsolvable", row.unsolvable, stats.unsolvable),
                ("multiple", row.multiple, stats.multiple),
                ("budget", row.budget, stats.budget),
                ("invalid", row.invalid, stats.invalid),
                ("not_applicable", row.not_applicable, stats.not_applicable),
            ];
            let nodes = ("total_nodes", row.total_nodes, stats.total_nodes);
            let differs = pairs
                .iter()
                .map(|(what, a, b)| (*what, Some(*a), Some(*b)))
                .chain([nodes])
                .find(|(_, a, b)| a != b);
            if let Some((what, a, b)) = differs {
                let show = |v: Option<u64>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
                return Err(bad(format!(
                    "{c} x {s}: `{what}` is {}, {} says {}: a file was changed",
                    show(a),
                    schema::HISTOGRAMS_JSON,
                    show(b)
                )));
            }
        }
        Ok(())
    }

    /// Whether the run wrote `puzzles.csv`.
    pub(super) fn per_puzzle(&self) -> bool {
        self.result.run.per_puzzle
    }

    /// The part's statistics of `corpus` x `solver`.
    pub(super) fn stats(&self, corpus: &str, solver: &str) -> Result<&SolverStats, MergeError> {
        self.stats
            .iter()
            .find(|(c, s)| c == corpus && s.name == solver)
            .map(|(_, s)| s)
            .ok_or_else(|| MergeError::Part {
                dir: self.dir.clone(),
                what: format!(
                    "{} has no entry for {corpus} x {solver}",
                    schema::HISTOGRAMS_JSON
                ),
            })
    }

    /// The part's own facts, for the merged `run.json`.
    pub(super) fn facts(&self) -> PartFacts {
        let r = &self.result.run;
        let throughput = r
            .corpora
            .iter()
            .flat_map(|c| {
                self.stats
                    .iter()
                    .filter(move |(corpus, _)| *corpus == c.name)
                    .map(move |(_, s)| Throughput {
                        corpus: c.name.clone(),
                        solver: s.name.clone(),
                        puzzles: s.puzzles,
                        puzzles_per_s: s.puzzles_per_s(c.workers),
                        mean_ns: s.mean_ns(),
                        p50_ns: s.quantile_ns(0.5),
                    })
            })
            .collect();
        PartFacts {
            dir: self.dir.display().to_string(),
            facts: r.facts.clone(),
            throughput,
        }
    }
}
