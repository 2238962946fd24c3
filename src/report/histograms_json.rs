//! `histograms.json`: every corpus x solver histogram in the HdrHistogram
//! V2+DEFLATE binary format, base64 encoded, so histograms from different
//! runs, machines or shards can be merged exactly later (any HdrHistogram
//! implementation decodes them).
//!
//! Each entry also carries the exact accumulators behind `summary.csv`'s
//! row (`stats`: counts, sums of solve times and of their squares, node,
//! guess and update totals), which `summary.csv` shows rounded: with them a
//! merge of shards recomputes every figure exactly ([`read`]).
//!
//! ```json
//! {"unit": "ns", "encoding": "HdrHistogram V2+DEFLATE, base64",
//!  "histograms": [{"corpus": "top95", "solver": "dlx", "count": 95,
//!                  "data": "HISTFAAA...",
//!                  "stats": {"puzzles": 95, "not_applicable": 0, "solved": 95,
//!                            "unsolvable": 0, "multiple": 0, "budget": 0,
//!                            "invalid": 0, "sum_ns": 1234567, "sum_sq_ns": 2.5e10,
//!                            "budget_ns": 0, "total_nodes": 4321,
//!                            "total_guesses": 321, "total_updates": 98765,
//!                            "no_guess": 12}}]}
//! ```

use std::path::{Path, PathBuf};

use super::{schema, Report, RunMeta};
use crate::harness::{Config, RunResult, SolverStats};
use crate::results::{to_json, HistogramSet, ResultError};

pub use crate::results::histograms::{decode, encode};

/// Writes `histograms.json`.
#[derive(Debug, Clone, Copy)]
pub struct HistogramsJson;

/// One entry of a `histograms.json` read back: a corpus x solver's
/// statistics, exactly as the run accumulated them.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Corpus name.
    pub corpus: String,
    /// The statistics (their `name` is the solver's).
    pub stats: SolverStats,
}

/// Reads `path` (a `histograms.json`) back into statistics that merge
/// exactly ([`SolverStats::merge`]); errors name the file and the entry.
pub fn read(path: &Path) -> Result<Vec<Entry>, ResultError> {
    let text = std::fs::read_to_string(path).map_err(|error| ResultError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    let set: HistogramSet = crate::results::from_json(path, &text)?;
    Ok(set
        .stats(path)?
        .into_iter()
        .map(|(corpus, stats)| Entry { corpus, stats })
        .collect())
}

// Repeats the signature of `Report::write`, as every format does (see the trait).
impl Report for HistogramsJson {
    fn write(
        &self,
        run: &RunResult,
        _config: &Config,
        _meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let text = to_json(&HistogramSet::of(run)).map_err(std::io::Error::other)?;
        super::write_one(dir, schema::HISTOGRAMS_JSON, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdrhistogram::Histogram;

    #[test]
    fn round_trip_is_exact() {
        let mut h = Histogram::<u64>::new_with_bounds(1, 60_000_000_000, 3).unwrap();
        for v in [1u64, 5, 700, 12_345, 9_999_999] {
            h.record_n(v, v % 7 + 1).unwrap();
        }
        let back = decode(&encode(&h)).unwrap();
        assert_eq!(back.len(), h.len());
        assert_eq!(back.max(), h.max());
        assert_eq!(back.value_at_quantile(0.5), h.value_at_quantile(0.5));
    }

    #[test]
    fn entries_read_back_with_their_place_named() {
        let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/baseline");
        let path = baseline.join(schema::HISTOGRAMS_JSON);
        let entries = read(&path).unwrap();
        assert_eq!(entries.len(), 18);
        assert_eq!(
            (entries[0].corpus.as_str(), entries[0].stats.name.as_str()),
            ("gen_9x9_1000", "dlx")
        );
        assert_eq!(entries[0].stats.histogram.len(), entries[0].stats.timed());
        // A histogram that does not hold the counted solves is refused.
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let copy = dir.path().join(schema::HISTOGRAMS_JSON);
        std::fs::write(
            &copy,
            text.replacen("\"puzzles\": 1000", "\"puzzles\": 1001", 1),
        )
        .unwrap();
        let e = read(&copy).unwrap_err().to_string();
        assert!(
            e.contains("`histograms[0]`") && e.contains("holds 1000"),
            "{e}"
        );
    }
}
