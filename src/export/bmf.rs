//! Bencher Metric Format (<https://bencher.dev/docs/reference/bencher-metric-format/>):
//! a JSON object of benchmarks, each an object of measures (by slug), each
//! `{"value", "lower_value", "upper_value"}` with the bounds optional.

use super::{Format, Metric};
use crate::results::output::export::{Bmf as BmfDoc, BmfValue};
use crate::results::to_json;

/// The Bencher Metric Format.
#[derive(Debug, Clone, Copy)]
pub struct Bmf;

// Repeats the signatures of `Format`'s methods, as every export format does (trait impl).
impl Format for Bmf {
    fn name(&self) -> &'static str {
        "bmf"
    }

    fn render(&self, metrics: &[Metric]) -> String {
        let mut doc = BmfDoc::new();
        for m in metrics {
            let value = BmfValue {
                value: m.value,
                lower_value: m.bounds.map(|b| b.0),
                upper_value: m.bounds.map(|b| b.1),
            };
            doc.entry(m.benchmark.clone())
                .or_default()
                .insert(m.measure.slug().to_string(), value);
        }
        let mut text = to_json(&doc).unwrap_or_default();
        text.push('\n');
        text
    }
}
