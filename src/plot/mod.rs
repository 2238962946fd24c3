//! Pictures of results: the charts of a run and `report.html`, drawn from
//! a result directory's files alone, and the page of a comparison.
//!
//! `dlxbench bench` and `dlxbench merge` call [`draw_run`] on the directory
//! they have just written; `dlxbench plot DIR` calls it on any result
//! directory, old, merged or a baseline. The charts come from the exact
//! histograms in `histograms.json` and from a bounded sample of
//! `puzzles.csv` ([`sample`]: at most [`MAX_POINTS`] points per scatter
//! plot, the same puzzles for every solver), so drawing costs about as much
//! for ten million rows as the one pass that reads them.
//!
//! Per corpus, four SVG files, `<corpus>.<picture>.svg` (`<corpus>`: the
//! corpus's file stem, unique in the run, as `run.json` records it):
//! * `percentiles`: latency (log scale) against the percentile on the
//!   "nines" axis, one curve per solver, from the histograms;
//! * `latency`: the cumulative latency distribution (log time axis);
//! * `cost`: time against search nodes per puzzle, log-log, one colour per
//!   solver (guesses for a solver that records no nodes);
//! * `speed`: relative speed against the reference solver, with the
//!   latency ratios at the 50th, 90th and 99th percentiles.
//!
//! `report.html` holds the run's metadata, its tables and every picture
//! inline: one file that opens offline, with no script, font or style
//! from the network, in a light or a dark colour scheme.

pub mod chart;
pub mod compare_page;
mod html;
pub mod sample;

use std::path::{Path, PathBuf};

use hdrhistogram::Histogram;

use crate::atomic::AtomicFile;
use crate::clobber::{Clash, Inputs};
use crate::compare::CompareError;
use crate::harness::{Config, RunResult};
use crate::harness::{CorpusResult, SolverStats, Speed};
use crate::report::schema;
use crate::report::RunMeta;
use crate::results::{ResultDir, ResultError};

pub use chart::DrawError;

/// The most points a scatter plot draws: its corpus's solvers share them.
pub const MAX_POINTS: usize = 10_000;

/// The pictures of one corpus, in the order the page shows them.
pub const PICTURES: [&str; 4] = schema::PICTURES;

/// Why the pictures could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The result directory could not be read.
    #[error(transparent)]
    Read(#[from] ResultError),
    /// Its `puzzles.csv` could not be read.
    #[error(transparent)]
    Rows(#[from] CompareError),
    /// A chart could not be drawn.
    #[error(transparent)]
    Draw(#[from] DrawError),
    /// A picture or the page would replace a file the drawing reads.
    #[error(transparent)]
    Clobber(#[from] Clash),
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// What [`draw_run`] made.
#[derive(Debug, Clone, Default)]
pub struct Drawn {
    /// The files written (the SVGs, then `report.html`).
    pub files: Vec<PathBuf>,
    /// `puzzles.csv` rows read.
    pub rows_read: u64,
    /// Points drawn in the scatter plots, all corpora.
    pub points: usize,
    /// What to warn of: the directory does not hold a complete run
    /// (interrupted, died, still going: [`ResultDir::warning`]).
    pub warning: Option<String>,
}

/// The name of one picture's file: `<stem>.<picture>.svg`, `stem` the
/// corpus's file stem (as `run.json` records it,
/// [`RunInfo::file_stems`](crate::results::RunInfo::file_stems)).
pub fn picture_file(stem: &str, picture: &str) -> String {
    schema::picture_file(stem, picture)
}

/// Writes `text` to `path` atomically.
fn write(path: &Path, text: &str) -> Result<PathBuf, PlotError> {
    AtomicFile::write(path, text.as_bytes()).map_err(|source| PlotError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// A result directory read back as the run it records, from its
/// `run.json` and `histograms.json` alone.
struct Recorded {
    /// The directory as read.
    dir: ResultDir,
    /// The statistics, exactly as the run accumulated them.
    result: RunResult,
    /// The run's settings.
    config: Config,
    /// Its metadata.
    meta: RunMeta,
}

impl Recorded {
    fn open(path: &Path) -> Result<Recorded, ResultError> {
        let dir = ResultDir::open(path)?;
        let config = dir.config()?;
        let result = dir.run_result()?;
        let meta = RunMeta::of_dir(&dir, &config);
        Ok(Recorded {
            dir,
            result,
            config,
            meta,
        })
    }
}

/// Draws the pictures and `report.html` of the result directory `dir`,
/// from its files, into it.
pub fn draw_run(dir: &Path) -> Result<Drawn, PlotError> {
    let run = Recorded::open(dir)?;
    // No picture over a file read: the directory's files are inputs.
    let mut inputs = Inputs::new();
    for name in [
        schema::RUN_JSON,
        schema::SUMMARY_CSV,
        schema::PUZZLES_CSV,
        schema::HISTOGRAMS_JSON,
    ] {
        inputs.add(&dir.join(name));
    }
    let write = |path: &Path, text: &str| {
        inputs.check_file(path)?;
        write(path, text)
    };
    let puzzles = dir.join(schema::PUZZLES_CSV);
    let samples = if run.meta.per_puzzle && puzzles.is_file() {
        sample::sample(&puzzles, MAX_POINTS)?
    } else {
        Vec::new()
    };
    let mut drawn = Drawn {
        rows_read: samples.iter().map(|s| s.rows).sum(),
        warning: run.dir.warning(),
        ..Drawn::default()
    };
    let mut corpora = Vec::new();
    let stems = run.dir.run.file_stems();
    for (corpus, stem) in run.result.corpora.iter().zip(stems) {
        let pictures = corpus_pictures(&run, corpus, stem, &samples)?;
        drawn.points += pictures.points;
        for (name, svg) in PICTURES.iter().zip(&pictures.svgs) {
            if let Some(svg) = svg {
                drawn
                    .files
                    .push(write(&dir.join(picture_file(&pictures.stem, name)), svg)?);
            }
        }
        corpora.push(pictures);
    }
    let page = html::run_page(&run, &corpora, samples.is_empty());
    drawn
        .files
        .push(write(&dir.join(schema::REPORT_HTML), &page)?);
    Ok(drawn)
}

/// One corpus's pictures (`None`: nothing to draw, such as a scatter plot
/// without `puzzles.csv`).
struct CorpusPictures {
    /// The corpus's file stem.
    stem: String,
    svgs: [Option<String>; 4],
    points: usize,
}

/// The solvers of a corpus that timed something, with their colour index.
fn timed(corpus: &CorpusResult) -> impl Iterator<Item = (usize, &SolverStats)> {
    corpus
        .solvers
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.histogram.is_empty())
}

/// (nines, ns) points of a histogram: five per halving of the rest, and
/// the maximum at the nines of one puzzle in all.
fn percentile_points(h: &Histogram<u64>) -> Vec<(f64, f64)> {
    let last = (h.len() as f64).log10().max(1.0);
    let mut points: Vec<(f64, f64)> = h
        .iter_quantiles(5)
        .map(|v| {
            let q = v.quantile_iterated_to();
            let nines = if q >= 1.0 { last } else { -(1.0 - q).log10() };
            (nines.min(last), v.value_iterated_to() as f64)
        })
        .collect();
    points.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    points
}

/// (ns, fraction) points of a histogram's cumulative distribution.
fn cdf_points(h: &Histogram<u64>) -> Vec<(f64, f64)> {
    let total = h.len() as f64;
    let mut seen = 0u64;
    let mut points = Vec::new();
    for v in h.iter_recorded() {
        seen += v.count_since_last_iteration();
        points.push((v.value_iterated_to() as f64, seen as f64 / total));
    }
    points
}

fn corpus_pictures(
    run: &Recorded,
    corpus: &CorpusResult,
    stem: String,
    samples: &[sample::Sampled],
) -> Result<CorpusPictures, PlotError> {
    let name = &corpus.name;
    let percentiles: Vec<chart::Series> = timed(corpus)
        .map(|(i, s)| chart::Series {
            name: s.name.clone(),
            colour: i,
            points: percentile_points(&s.histogram),
        })
        .collect();
    let cdf: Vec<chart::Series> = timed(corpus)
        .map(|(i, s)| chart::Series {
            name: s.name.clone(),
            colour: i,
            points: cdf_points(&s.histogram),
        })
        .collect();
    // The scatter plot: nodes where the solver records them, else guesses.
    let mut points = 0;
    let mut uses_guesses = Vec::new();
    let scatter: Vec<chart::Series> = corpus
        .solvers
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let rows = samples
                .iter()
                .find(|x| x.corpus == *name && x.solver == s.name)?;
            let by_nodes = rows.kept.iter().all(|r| r.nodes.is_some());
            if !by_nodes {
                uses_guesses.push(s.name.clone());
            }
            let pts: Vec<(f64, f64)> = rows
                .kept
                .iter()
                .filter(|r| r.timed())
                .map(|r| {
                    let cost = if by_nodes {
                        r.nodes.unwrap_or(0)
                    } else {
                        r.guesses
                    };
                    (cost as f64 + 1.0, r.ns as f64)
                })
                .collect();
            points += pts.len();
            Some(chart::Series {
                name: s.name.clone(),
                colour: i,
                points: pts,
            })
        })
        .collect();
    let x_desc = if uses_guesses.is_empty() {
        "search nodes + 1 (log scale)".to_string()
    } else {
        format!(
            "search nodes + 1 (log scale; guesses + 1 for {})",
            uses_guesses.join(", ")
        )
    };
    let speed = speed_bars(run, corpus);
    let title = |what: &str| format!("{name}: {what}");
    let svgs = [
        (!percentiles.is_empty())
            .then(|| chart::percentiles(&title("latency by percentile"), &percentiles))
            .transpose()?,
        (!cdf.is_empty())
            .then(|| chart::cdf(&title("latency distribution"), &cdf))
            .transpose()?,
        (!scatter.is_empty())
            .then(|| chart::scatter(&title("time against search cost"), &x_desc, &scatter))
            .transpose()?,
        speed
            .map(|bars| chart::speed(&title("relative speed"), &run.meta.reference, &bars))
            .transpose()?,
    ];
    Ok(CorpusPictures { stem, svgs, points })
}

/// The relative-speed bars of a corpus: the table's paired speed ratios
/// (and intervals) of the solvers that have one, the reference included.
fn speed_bars(run: &Recorded, corpus: &CorpusResult) -> Option<Vec<chart::SpeedBar>> {
    let index = corpus
        .solvers
        .iter()
        .position(|s| s.name == run.meta.reference)?;
    let reference = &corpus.solvers[index];
    let speeds = corpus.speeds(index);
    let quantiles = [0.5, 0.9, 0.99];
    let bars: Vec<chart::SpeedBar> = corpus
        .solvers
        .iter()
        .zip(&speeds)
        .enumerate()
        .filter(|(_, (s, _))| s.timed() > 0)
        .filter_map(|(i, (s, speed))| {
            let (mean, interval) = match speed {
                Speed::Reference => (1.0, None),
                Speed::Ratio(r) => (r.estimate, r.low.zip(r.high)),
                Speed::Missing(_) => return None,
            };
            Some(chart::SpeedBar {
                name: s.name.clone(),
                colour: i,
                mean,
                interval,
                percentiles: quantiles.map(|q| {
                    let (r, x) = (reference.quantile_ns(q), s.quantile_ns(q));
                    (r > 0 && x > 0).then(|| r as f64 / x as f64)
                }),
            })
        })
        .collect();
    (bars.len() > 1).then_some(bars)
}
