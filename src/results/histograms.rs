//! `histograms.json`: every corpus x solver histogram in the HdrHistogram
//! V2+DEFLATE binary format, base64 encoded, with the exact accumulators
//! behind its `summary.csv` row, so that histograms and figures from
//! different runs, machines or shards merge exactly later.

use base64::Engine as _;
use hdrhistogram::serialization::{Serializer as _, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::path::Path;

use super::ResultError;

use crate::harness::{RunResult, SolverStats, HIST_SIGFIG};

/// The contents of `histograms.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HistogramSet {
    /// The unit of the values (`ns`).
    #[serde(default)]
    pub unit: String,
    /// Significant figures of the histograms.
    #[serde(default)]
    pub significant_figures: Option<u8>,
    /// How `data` is encoded.
    #[serde(default)]
    pub encoding: String,
    /// One entry per corpus x solver, in run order.
    pub histograms: Vec<HistogramEntry>,
}

/// One corpus x solver.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HistogramEntry {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Solves in the histogram.
    #[serde(default)]
    pub count: u64,
    /// The histogram, V2+DEFLATE, base64 ([`encode`]).
    pub data: String,
    /// The exact accumulators. Files from before shards could be merged
    /// have none.
    pub stats: Option<SolverStats>,
}

/// One histogram, V2+DEFLATE, base64.
pub fn encode(h: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(h, &mut bytes)
        .expect("serialising to memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Decodes what [`encode`] wrote.
pub fn decode(text: &str) -> Option<Histogram<u64>> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .ok()?;
    hdrhistogram::serialization::Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .ok()
}

impl HistogramSet {
    /// Every corpus x solver of `run`.
    pub fn of(run: &RunResult) -> HistogramSet {
        HistogramSet {
            unit: "ns".to_string(),
            significant_figures: Some(HIST_SIGFIG),
            encoding: "HdrHistogram V2+DEFLATE, base64".to_string(),
            histograms: run
                .corpora
                .iter()
                .flat_map(|c| c.solvers.iter().map(|s| HistogramEntry::of(&c.name, s)))
                .collect(),
        }
    }
}

impl HistogramSet {
    /// Every entry's statistics ([`HistogramEntry::solver_stats`]), as
    /// (corpus, statistics); `path` is the file's, for errors.
    pub fn stats(&self, path: &Path) -> Result<Vec<(String, SolverStats)>, ResultError> {
        self.histograms
            .iter()
            .enumerate()
            .map(|(i, e)| {
                e.solver_stats()
                    .map(|s| (e.corpus.clone(), s))
                    .map_err(|what| ResultError::field(path, format!("histograms[{i}]"), what))
            })
            .collect()
    }
}

impl HistogramEntry {
    /// The entry of `stats` on `corpus`.
    pub fn of(corpus: &str, stats: &SolverStats) -> HistogramEntry {
        HistogramEntry {
            corpus: corpus.to_string(),
            solver: stats.name.clone(),
            count: stats.histogram.len(),
            data: encode(&stats.histogram),
            stats: Some(stats.clone()),
        }
    }

    /// The statistics, exactly as the run accumulated them (name and
    /// histogram included), or what is wrong with the entry.
    pub fn solver_stats(&self) -> Result<SolverStats, String> {
        let mut stats = self
            .stats
            .clone()
            .ok_or("no `stats` (written by a dlxbench before shards could be merged)")?;
        stats.name = self.solver.clone();
        let histogram = decode(&self.data).ok_or("`data` is not an encoded histogram")?;
        stats
            .histogram
            .add(&histogram)
            .map_err(|e| format!("histogram: {e}"))?;
        if stats.histogram.len() != stats.timed() {
            return Err(format!(
                "the histogram holds {} solves, the counts say {} within budget",
                stats.histogram.len(),
                stats.timed()
            ));
        }
        Ok(stats)
    }
}
