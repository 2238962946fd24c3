//! How to compare: which checks gate, the threshold, the bootstrap.

/// Which checks decide the exit status (both are always reported when the
/// data exists). The deterministic counters always gate (an algorithm
/// change fails unless [`Options::allow_algorithm_change`], as in `ab`);
/// time gates only when asked: two runs cannot measure the noise between
/// runs, so a time gate needs a threshold above that floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Metric {
    /// The counters and the time check gate (the same as [`Metric::Both`]).
    Time,
    /// Only the deterministic counters gate (the default).
    #[default]
    Nodes,
    /// The counters and the time check gate.
    Both,
}

impl Metric {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::Nodes => "nodes",
            Metric::Both => "both",
        }
    }

    /// Whether time regressions fail the comparison.
    pub fn gates_time(self) -> bool {
        self != Metric::Nodes
    }

    /// Whether counter changes fail the comparison: always (the one rule
    /// shared with `ab`; [`Options::allow_algorithm_change`] lifts it).
    pub fn gates_nodes(self) -> bool {
        true
    }
}

/// Default bootstrap seed.
pub const DEFAULT_SEED: u64 = 1;
/// Default number of bootstrap resamples.
pub const DEFAULT_RESAMPLES: usize = 2000;
/// Default threshold, as a fraction (5%).
pub const DEFAULT_THRESHOLD: f64 = 0.05;

/// How to compare.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// Relative change below which nothing is declared, as a fraction
    /// (0.05 for 5%).
    pub threshold: f64,
    /// Which checks gate.
    pub metric: Metric,
    /// Counter changes are reported but do not fail.
    pub allow_algorithm_change: bool,
    /// The run-to-run noise floor, as a fraction (from `ab --aa`, or two
    /// runs of the same code), when known: a time verdict needs the
    /// interval beyond the larger of it and the threshold.
    pub floor: Option<f64>,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Confidence level of the intervals (0.95).
    pub confidence: f64,
    /// Changed puzzles listed per corpus x solver.
    pub examples: usize,
}

impl Options {
    /// The threshold a time verdict uses: the larger of the threshold and
    /// the floor.
    pub fn time_threshold(&self) -> f64 {
        self.floor.map_or(self.threshold, |f| f.max(self.threshold))
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: DEFAULT_THRESHOLD,
            metric: Metric::Nodes,
            allow_algorithm_change: false,
            floor: None,
            resamples: DEFAULT_RESAMPLES,
            seed: DEFAULT_SEED,
            confidence: 0.95,
            examples: 5,
        }
    }
}

/// Parses a threshold: a number of percent, with or without a `%` sign
/// (`5%` and `5` are both five percent; `0.5` is half a percent). Must be
/// at least 0 and below 100.
pub fn parse_threshold(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let number = t.strip_suffix('%').unwrap_or(t).trim();
    let pct: f64 = number.parse().map_err(|_| {
        format!("`{text}` is not a percentage (write e.g. `5%` or `5`, meaning five percent)")
    })?;
    if !pct.is_finite() || !(0.0..100.0).contains(&pct) {
        return Err(format!(
            "`{text}`: the threshold must be at least 0% and below 100%"
        ));
    }
    Ok(pct / 100.0)
}
