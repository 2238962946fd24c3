//! Bencher Metric Format (<https://bencher.dev/docs/reference/bencher-metric-format/>):
//! a JSON object of benchmarks, each an object of measures (by slug), each
//! `{"value", "lower_value", "upper_value"}` with the bounds optional.

use serde_json::{json, Map, Value};

use super::{Format, Metric};

/// The Bencher Metric Format.
#[derive(Debug, Clone, Copy)]
pub struct Bmf;

impl Format for Bmf {
    fn name(&self) -> &'static str {
        "bmf"
    }

    fn render(&self, metrics: &[Metric]) -> String {
        let mut doc = Map::new();
        for m in metrics {
            let mut v = json!({ "value": m.value });
            if let Some((lo, hi)) = m.bounds {
                v["lower_value"] = json!(lo);
                v["upper_value"] = json!(hi);
            }
            let bench = doc
                .entry(m.benchmark.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            bench[m.measure.slug()] = v;
        }
        let mut text = serde_json::to_string_pretty(&Value::Object(doc)).unwrap_or_default();
        text.push('\n');
        text
    }
}
