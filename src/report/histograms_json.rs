//! `histograms.json`: every corpus x solver histogram in the HdrHistogram
//! V2+DEFLATE binary format, base64 encoded, so histograms from different
//! runs, machines or shards can be merged exactly later (any HdrHistogram
//! implementation decodes them).
//!
//! ```json
//! {"unit": "ns", "encoding": "HdrHistogram V2+DEFLATE, base64",
//!  "histograms": [{"corpus": "top95", "solver": "dlx", "count": 95,
//!                  "data": "HISTFAAA..."}]}
//! ```

use std::path::{Path, PathBuf};

use base64::Engine as _;
use hdrhistogram::serialization::{Serializer as _, V2DeflateSerializer};
use hdrhistogram::Histogram;

use super::{schema, Report, RunMeta};
use crate::atomic::AtomicFile;
use crate::harness::{Config, RunResult};

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
}
