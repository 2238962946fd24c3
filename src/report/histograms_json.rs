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

use base64::Engine as _;
use hdrhistogram::serialization::{Serializer as _, V2DeflateSerializer};
use hdrhistogram::Histogram;

use super::{schema, Report, RunMeta};
use crate::atomic::AtomicFile;
use crate::harness::{Config, RunResult, SolverStats};

/// Writes `histograms.json`.
#[derive(Debug, Clone, Copy)]
pub struct HistogramsJson;

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

/// `s`'s accumulators, as the `stats` object of its entry.
fn stats_json(s: &SolverStats) -> serde_json::Value {
    serde_json::json!({
        "puzzles": s.puzzles,
        "not_applicable": s.not_applicable,
        "solved": s.solved,
        "unsolvable": s.unsolvable,
        "multiple": s.multiple,
        "budget": s.budget,
        "invalid": s.invalid,
        // Nanosecond sums fit u64 for 584 years of solving.
        "sum_ns": u64::try_from(s.sum_ns).unwrap_or(u64::MAX),
        "sum_sq_ns": s.sum_sq_ns,
        "budget_ns": u64::try_from(s.budget_ns).unwrap_or(u64::MAX),
        "total_nodes": s.total_nodes,
        "total_guesses": s.total_guesses,
        "total_updates": s.total_updates,
        "no_guess": s.no_guess,
    })
}

/// One entry of a `histograms.json` read back: a corpus x solver's
/// statistics, exactly as the run accumulated them.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Corpus name.
    pub corpus: String,
    /// The statistics (their `name` is the solver's).
    pub stats: SolverStats,
}

/// Why a `histograms.json` could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not what [`HistogramsJson`] writes (or was written
    /// before entries carried their `stats`).
    #[error("{path}: {what}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        what: String,
    },
}

/// Reads `path` (a `histograms.json`) back into statistics that merge
/// exactly ([`SolverStats::merge`]).
pub fn read(path: &Path) -> Result<Vec<Entry>, ReadError> {
    let format = |what: String| ReadError::Format {
        path: path.to_path_buf(),
        what,
    };
    let text = std::fs::read_to_string(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format(format!("not JSON: {e}")))?;
    let entries = doc["histograms"]
        .as_array()
        .ok_or_else(|| format("no `histograms` array".into()))?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let at = |what: &str| format(format!("entry {}: {what}", i + 1));
            let text_of = |key: &str| {
                e[key]
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| at(&format!("no `{key}` string")))
            };
            let st = &e["stats"];
            if !st.is_object() {
                return Err(at(
                    "no `stats` (written by a dlxbench before shards could be merged)",
                ));
            }
            let count = |key: &str| {
                st[key]
                    .as_u64()
                    .ok_or_else(|| at(&format!("stats.{key} is not a count")))
            };
            let optional = |key: &str| match &st[key] {
                serde_json::Value::Null => Ok(None),
                v => v
                    .as_u64()
                    .map(Some)
                    .ok_or_else(|| at(&format!("stats.{key} is not a count"))),
            };
            let mut stats = SolverStats::new(text_of("solver")?);
            let histogram = decode(&text_of("data")?)
                .ok_or_else(|| at("`data` is not an encoded histogram"))?;
            stats
                .histogram
                .add(&histogram)
                .map_err(|e| at(&format!("histogram: {e}")))?;
            stats.puzzles = count("puzzles")?;
            stats.not_applicable = count("not_applicable")?;
            stats.solved = count("solved")?;
            stats.unsolvable = count("unsolvable")?;
            stats.multiple = count("multiple")?;
            stats.budget = count("budget")?;
            stats.invalid = count("invalid")?;
            stats.sum_ns = count("sum_ns")?.into();
            stats.sum_sq_ns = st["sum_sq_ns"]
                .as_f64()
                .ok_or_else(|| at("stats.sum_sq_ns is not a number"))?;
            stats.budget_ns = count("budget_ns")?.into();
            stats.total_nodes = optional("total_nodes")?;
            stats.total_guesses = count("total_guesses")?;
            stats.total_updates = optional("total_updates")?;
            stats.no_guess = count("no_guess")?;
            if stats.histogram.len() != stats.timed() {
                return Err(at(&format!(
                    "the histogram holds {} solves, the counts say {} within budget",
                    stats.histogram.len(),
                    stats.timed()
                )));
            }
            Ok(Entry {
                corpus: text_of("corpus")?,
                stats,
            })
        })
        .collect()
}

impl Report for HistogramsJson {
    fn write(
        &self,
        run: &RunResult,
        _config: &Config,
        _meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let histograms: Vec<serde_json::Value> = run
            .corpora
            .iter()
            .flat_map(|c| {
                c.solvers.iter().map(|s| {
                    serde_json::json!({
                        "corpus": c.name,
                        "solver": s.name,
                        "count": s.histogram.len(),
                        "data": encode(&s.histogram),
                        "stats": stats_json(s),
                    })
                })
            })
            .collect();
        let doc = serde_json::json!({
            "unit": "ns",
            "significant_figures": crate::harness::HIST_SIGFIG,
            "encoding": "HdrHistogram V2+DEFLATE, base64",
            "histograms": histograms,
        });
        let text = serde_json::to_string_pretty(&doc).map_err(std::io::Error::other)?;
        Ok(vec![AtomicFile::write(
            &dir.join(schema::HISTOGRAMS_JSON),
            text.as_bytes(),
        )?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn entries_read_back_exactly() {
        let mut s = SolverStats::new("dlx");
        for (ns, guesses) in [(1_000u64, 0u64), (2_500, 3), (777_777, 40)] {
            s.puzzles += 1;
            s.solved += 1;
            s.sum_ns += u128::from(ns);
            s.sum_sq_ns += (ns as f64).powi(2);
            s.total_guesses += guesses;
            s.histogram.record(ns).unwrap();
        }
        s.total_nodes = Some(123);
        let doc = serde_json::json!({"histograms": [{
            "corpus": "c", "solver": "dlx", "count": 3,
            "data": encode(&s.histogram), "stats": stats_json(&s),
        }]});
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.json");
        std::fs::write(&path, doc.to_string()).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back.len(), 1);
        let b = &back[0].stats;
        assert_eq!((back[0].corpus.as_str(), b.name.as_str()), ("c", "dlx"));
        assert_eq!(
            (b.puzzles, b.sum_ns, b.total_nodes, b.total_updates),
            (3, 781_277, Some(123), None)
        );
        assert_eq!(b.sum_sq_ns, s.sum_sq_ns);
        assert_eq!(b.histogram, s.histogram);
        // A histogram that does not hold the counted solves is refused.
        let mut wrong = stats_json(&s);
        wrong["puzzles"] = 4.into();
        let doc = serde_json::json!({"histograms": [{
            "corpus": "c", "solver": "dlx", "data": encode(&s.histogram), "stats": wrong,
        }]});
        std::fs::write(&path, doc.to_string()).unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("entry 1"));
    }
}
