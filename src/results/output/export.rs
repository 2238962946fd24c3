//! The dashboard formats of `--export`, as types: [`Bmf`] (Bencher Metric
//! Format) and [`GabEntry`] (github-action-benchmark's
//! `customSmallerIsBetter`). Their schemas are their tools'; these types
//! are what dlxbench writes of them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Bencher Metric Format (<https://bencher.dev/docs/reference/bencher-metric-format/>):
/// benchmarks by name, each measures by slug (`latency`, `throughput`,
/// `nodes`, `ratio`).
pub type Bmf = BTreeMap<String, BTreeMap<String, BmfValue>>;

/// One measure of one benchmark in the Bencher Metric Format.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BmfValue {
    /// The value.
    pub value: f64,
    /// The interval's lower end; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_value: Option<f64>,
    /// The interval's upper end; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_value: Option<f64>,
}

/// One entry of github-action-benchmark's `customSmallerIsBetter` input
/// (<https://github.com/benchmark-action/github-action-benchmark>), a JSON
/// array of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GabEntry {
    /// `corpus/solver measure`.
    pub name: String,
    /// The measure's unit (`ns`, `nodes/puzzle`, `x`).
    pub unit: String,
    /// The value.
    pub value: f64,
    /// `± HALF-WIDTH` of the interval; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// `interval LOW to HIGH`; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<String>,
}
