//! The JSON documents the commands print or write for machines, as types:
//! one schema per output, each field documented where it is declared.
//!
//! * [`CompareJson`]: `compare --format json` (`"format":
//!   "dlxbench-compare/1"`);
//! * [`AbJson`]: `ab --json FILE` (`"format": "dlxbench-ab/1"`);
//! * [`BisectJson`]: `bisect --json FILE` (`"format":
//!   "dlxbench-bisect/1"`);
//! * [`VersusJson`]: `versus --format json` (`"format":
//!   "dlxbench-versus/1"`);
//! * [`HistoryJson`]: `history show --format json` (`"format":
//!   "dlxbench-history/1"`), and [`HistoryExportJson`]: `history export
//!   --format json` (`"format": "dlxbench-history-export/1"`);
//! * [`export`]: the dashboard formats of `--export` (`bmf`,
//!   `github-action-benchmark`), whose schemas are their tools'.
//!
//! The commands build these values ([`crate::compare::render::json`],
//! [`crate::ab::json`], [`crate::bisect::render::json`],
//! [`crate::versus::render::json`],
//! [`crate::export::Format::render`]) and write them with
//! [`super::to_json`]: pretty-printed, every object's keys in sorted order,
//! as the result directory's JSON files are; a consumer reads them back
//! with `serde_json` into the same types. A field that may be unknown is
//! an `Option` written as `null`; a field that may be left out says so
//! (`skip_serializing_if`). `docs/file-formats.md` lists the documents.

pub mod ab;
pub mod bisect;
pub mod compare;
pub mod export;
pub mod history;
pub mod versus;

pub use ab::{AaJson, AbJson};
pub use bisect::BisectJson;
pub use compare::{CompareJson, Counts, Side, WorkJson};
pub use history::{HistoryExportJson, HistoryJson};
pub use versus::VersusJson;

use serde::{Deserialize, Serialize};

/// A pair of one figure on the two sides of a comparison, e.g. the
/// baseline's and the current run's CPU models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineCurrent<T> {
    /// The baseline's.
    pub baseline: T,
    /// The current run's.
    pub current: T,
}

/// A corpus x solver, e.g. one present in one run only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusSolver {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
}

impl CorpusSolver {
    /// The pairs `(corpus, solver)` as a list.
    pub fn list(pairs: &[(String, String)]) -> Vec<CorpusSolver> {
        pairs
            .iter()
            .map(|(corpus, solver)| CorpusSolver {
                corpus: corpus.clone(),
                solver: solver.clone(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
