//! Results in the formats of the dashboards projects already track
//! performance with: one module per format behind one trait ([`Format`]),
//! all fed the same list of [`Metric`]s.
//!
//! * [`bmf`]: Bencher Metric Format, for bencher.dev (`bencher run
//!   --adapter json --file FILE`);
//! * [`github_action_benchmark`]: the `customSmallerIsBetter` JSON of
//!   github-action-benchmark.
//!
//! What is exported:
//! * of a run ([`of_run`]), per corpus x solver (benchmark
//!   `corpus/solver`): `latency`, the mean solve time in nanoseconds with
//!   the bounds of its 95% confidence interval (mean ± 1.96 standard
//!   errors); `throughput`, puzzles per second (the table's `puzzles/s`);
//!   `nodes`, search nodes per puzzle (for solvers that record them);
//! * of a comparison ([`of_comparison`]), per corpus x solver: `ratio`,
//!   the time ratio current / baseline with its interval;
//! * of an A/B ([`of_ab`]), per corpus and over all (benchmark
//!   `B-vs-A/corpus`): `ratio`, B / A with its interval; after an A/A
//!   (`ab --aa`), also its ratio over all (`B.copy-vs-B/all`).
//!
//! ```
//! use dlxbench::export::{Format, Measure, Metric, bmf::Bmf};
//!
//! let m = Metric {
//!     benchmark: "top1465/dlx".into(),
//!     measure: Measure::Latency,
//!     value: 47_000.0,
//!     bounds: Some((46_500.0, 47_500.0)),
//! };
//! let json: serde_json::Value = serde_json::from_str(&Bmf.render(&[m])).unwrap();
//! assert_eq!(json["top1465/dlx"]["latency"]["value"], 47_000.0);
//! assert_eq!(json["top1465/dlx"]["latency"]["lower_value"], 46_500.0);
//! ```

pub mod bmf;
pub mod github_action_benchmark;

use std::path::{Path, PathBuf};

use crate::ab::AbResult;
use crate::atomic::AtomicFile;
use crate::compare::Comparison;
use crate::harness::RunResult;

/// What a metric measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Mean solve time, nanoseconds (smaller is better).
    Latency,
    /// Puzzles per second (bigger is better).
    Throughput,
    /// Search nodes per puzzle (smaller is better; machine-independent).
    Nodes,
    /// A time ratio against a baseline or solver A (smaller is better).
    Ratio,
}

impl Measure {
    /// Its slug: Bencher's built-in `latency` and `throughput`, and two of
    /// ours.
    pub fn slug(self) -> &'static str {
        match self {
            Measure::Latency => "latency",
            Measure::Throughput => "throughput",
            Measure::Nodes => "nodes",
            Measure::Ratio => "ratio",
        }
    }

    /// Its unit.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Latency => "ns",
            Measure::Throughput => "puzzles/s",
            Measure::Nodes => "nodes/puzzle",
            Measure::Ratio => "x",
        }
    }

    /// Whether a smaller value is better.
    pub fn smaller_is_better(self) -> bool {
        self != Measure::Throughput
    }
}

/// One value of one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The benchmark's name (`corpus/solver`).
    pub benchmark: String,
    /// What is measured.
    pub measure: Measure,
    /// The value.
    pub value: f64,
    /// Lower and upper bounds (an interval), when there are any.
    pub bounds: Option<(f64, f64)>,
}

/// One export format.
pub trait Format {
    /// The format's name on the command line.
    fn name(&self) -> &'static str;
    /// The file's text for `metrics`.
    fn render(&self, metrics: &[Metric]) -> String;
}

/// The formats, by name.
pub fn formats() -> Vec<Box<dyn Format>> {
    vec![
        Box::new(bmf::Bmf),
        Box::new(github_action_benchmark::GithubActionBenchmark),
    ]
}

/// The format named `name`, or the names there are.
pub fn format(name: &str) -> Result<Box<dyn Format>, String> {
    formats()
        .into_iter()
        .find(|f| f.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = formats().iter().map(|f| f.name()).collect();
            format!(
                "unknown export format `{name}` (expected {})",
                names.join(" or ")
            )
        })
}

/// One export asked for on the command line, `FORMAT=FILE` in one
/// argument (so that it cannot take a following argument for its file):
/// results in the format named FORMAT, written to FILE.
///
/// ```
/// use dlxbench::export::Target;
///
/// let t: Target = "bmf=out/bmf.json".parse().unwrap();
/// assert_eq!((t.format.as_str(), t.file.to_str()), ("bmf", Some("out/bmf.json")));
/// // The format alone, its file forgotten or given as a separate argument:
/// let e = "bmf".parse::<Target>().unwrap_err().to_string();
/// assert!(e.contains("--export bmf=FILE"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The format's name, one of [`formats`].
    pub format: String,
    /// The file to write.
    pub file: PathBuf,
}

/// Why a `FORMAT=FILE` argument is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// A format without `=FILE`: the old two-argument form, or a forgotten
    /// file.
    #[error(
        "expected FORMAT=FILE in one argument: write `--export {0}=FILE` (e.g. `--export \
         {0}=results.json`)"
    )]
    NoFile(String),
    /// No `=` and not a format either.
    #[error("expected FORMAT=FILE, e.g. `--export bmf=results.json` (FORMAT: {1}), not `{0}`")]
    NotTarget(String, String),
    /// `FORMAT=` with nothing after it.
    #[error("no FILE after `{0}=` (expected e.g. `--export {0}=results.json`)")]
    EmptyFile(String),
    /// An unknown format.
    #[error("{0}")]
    Format(String),
}

impl std::str::FromStr for Target {
    type Err = TargetError;

    fn from_str(text: &str) -> Result<Target, TargetError> {
        let names = || {
            formats()
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let Some((name, file)) = text.split_once('=') else {
            return Err(match format(text) {
                Ok(_) => TargetError::NoFile(text.to_string()),
                Err(_) => TargetError::NotTarget(text.to_string(), names()),
            });
        };
        format(name).map_err(TargetError::Format)?;
        if file.is_empty() {
            return Err(TargetError::EmptyFile(name.to_string()));
        }
        Ok(Target {
            format: name.to_string(),
            file: PathBuf::from(file),
        })
    }
}

impl Target {
    /// Its format (checked when parsed; an error only for a target built
    /// by hand with an unknown name).
    pub fn format(&self) -> Result<Box<dyn Format>, TargetError> {
        format(&self.format).map_err(TargetError::Format)
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.format, self.file.display())
    }
}

/// Writes `metrics` to `path` in `format`, atomically.
pub fn write(format: &dyn Format, metrics: &[Metric], path: &Path) -> std::io::Result<PathBuf> {
    AtomicFile::write(path, format.render(metrics).as_bytes())
}

/// The metrics of a run.
pub fn of_run(run: &RunResult) -> Vec<Metric> {
    let mut out = Vec::new();
    for c in &run.corpora {
        for s in &c.solvers {
            let n = s.timed();
            if n == 0 {
                continue;
            }
            let benchmark = format!("{}/{}", c.name, s.name);
            let mean = s.mean_ns();
            let half = 1.96 * s.stddev_ns() / (n as f64).sqrt();
            out.push(Metric {
                benchmark: benchmark.clone(),
                measure: Measure::Latency,
                value: mean,
                bounds: Some(((mean - half).max(0.0), mean + half)),
            });
            if let Some(rate) = s.puzzles_per_s(c.workers.max(1)) {
                out.push(Metric {
                    benchmark: benchmark.clone(),
                    measure: Measure::Throughput,
                    value: rate,
                    bounds: None,
                });
            }
            if let (Some(nodes), true) = (s.total_nodes, s.puzzles > 0) {
                out.push(Metric {
                    benchmark,
                    measure: Measure::Nodes,
                    value: nodes as f64 / s.puzzles as f64,
                    bounds: None,
                });
            }
        }
    }
    out
}

/// The metrics of a comparison of two runs.
pub fn of_comparison(c: &Comparison) -> Vec<Metric> {
    c.results
        .iter()
        .filter_map(|r| {
            let i = r.time.interval?;
            Some(Metric {
                benchmark: format!("{}/{}", r.corpus, r.solver),
                measure: Measure::Ratio,
                value: i.estimate,
                bounds: Some((i.low, i.high)),
            })
        })
        .collect()
}

/// The metrics of an A/B.
pub fn of_ab(r: &AbResult) -> Vec<Metric> {
    let of = |r: &AbResult, all_only: bool| {
        std::iter::once(&r.overall)
            .chain(r.corpora.iter().filter(|_| !all_only))
            .filter_map(|x| {
                let i = x.interval?;
                Some(Metric {
                    benchmark: format!("{}-vs-{}/{}", r.b, r.a, x.name),
                    measure: Measure::Ratio,
                    value: i.estimate,
                    bounds: Some((i.low, i.high)),
                })
            })
            .collect::<Vec<_>>()
    };
    let mut metrics = of(r, false);
    if let Some(aa) = &r.aa {
        metrics.extend(of(aa, true));
    }
    metrics
}
