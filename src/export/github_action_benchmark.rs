//! github-action-benchmark's `customSmallerIsBetter` input
//! (<https://github.com/benchmark-action/github-action-benchmark>): a JSON
//! array of `{"name", "unit", "value", "range", "extra"}`, `range` and
//! `extra` optional. The tool takes one direction per file, so only the
//! measures where smaller is better go in (throughput stays out); a
//! benchmark's name is `corpus/solver measure`.

use super::{Format, Metric};
use crate::results::output::export::GabEntry;
use crate::results::to_json;

/// github-action-benchmark's `customSmallerIsBetter` JSON.
#[derive(Debug, Clone, Copy)]
pub struct GithubActionBenchmark;

// Repeats the signatures of `Format`'s methods, as every export format does (trait impl).
impl Format for GithubActionBenchmark {
    fn name(&self) -> &'static str {
        "github-action-benchmark"
    }

    fn render(&self, metrics: &[Metric]) -> String {
        let entries: Vec<GabEntry> = metrics
            .iter()
            .filter(|m| m.measure.smaller_is_better())
            .map(|m| GabEntry {
                name: format!("{} {}", m.benchmark, m.measure.slug()),
                unit: m.measure.unit().into(),
                value: m.value,
                range: m
                    .bounds
                    .map(|(lo, hi)| format!("± {}", round3((hi - lo) / 2.0))),
                extra: m
                    .bounds
                    .map(|(lo, hi)| format!("interval {} to {}", round3(lo), round3(hi))),
            })
            .collect();
        let mut text = to_json(&entries).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// Three significant figures, as text.
fn round3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::Measure;
    use serde_json::Value;

    #[test]
    fn throughput_stays_out_and_bounds_become_a_range() {
        let m = |measure, bounds| Metric {
            benchmark: "c/s".into(),
            measure,
            value: 10.0,
            bounds,
        };
        let text = GithubActionBenchmark.render(&[
            m(Measure::Latency, Some((9.0, 11.0))),
            m(Measure::Throughput, None),
            m(Measure::Nodes, None),
        ]);
        let v: Value = serde_json::from_str(&text).unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0]["name"], "c/s latency");
        assert_eq!(a[0]["unit"], "ns");
        assert_eq!(a[0]["range"], "± 1.00");
        assert_eq!(a[1]["name"], "c/s nodes");
        assert!(a[1].get("range").is_none());
        assert_eq!(round3(0.012345), "0.0123");
        assert_eq!(round3(1234.5), "1234");
    }
}
