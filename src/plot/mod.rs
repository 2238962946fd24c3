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
pub mod html;
pub mod sample;

use std::path::{Path, PathBuf};

use hdrhistogram::Histogram;

use crate::atomic::AtomicFile;
use crate::clobber::{Clash, Inputs};
use crate::harness::{Config, RunResult};
use crate::harness::{CorpusResult, SolverStats, Speed};
use crate::report::schema;
use crate::report::RunMeta;
use crate::results::{ResultDir, ResultError};
use crate::versus::{self, VersusError};

pub use chart::DrawError;

/// The most points a scatter plot draws: its corpus's solvers share them.
pub const MAX_POINTS: usize = 10_000;

/// The pictures of one corpus, in the order the page shows them.
pub const PICTURES: [&str; 4] = schema::PICTURES;

/// Why the pictures could not be made.
// Duplicates (issue #42): the `#[error(transparent)]` variants alike in shape with other modules'
// error enums are deliberate: each module wraps the errors of what it calls.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The result directory could not be read.
    #[error(transparent)]
    Read(#[from] ResultError),
    /// Its `puzzles.csv` could not be read puzzle by puzzle.
    #[error(transparent)]
    Versus(#[from] VersusError),
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
    let (samples, rows) = if run.meta.per_puzzle && puzzles.is_file() {
        (
            sample::sample(&puzzles, MAX_POINTS)?,
            Some(versus::read_dir(&run.dir)?),
        )
    } else {
        (Vec::new(), None)
    };
    let mut drawn = Drawn {
        rows_read: samples.iter().map(|s| s.rows).sum(),
        warning: run.dir.warning(),
        ..Drawn::default()
    };
    let mut corpora = Vec::new();
    let stems = run.dir.run.file_stems();
    for (corpus, stem) in run.result.corpora.iter().zip(stems) {
        let corpus_rows = rows
            .as_ref()
            .and_then(|r| r.corpora.iter().find(|c| c.name == corpus.name));
        let pictures = corpus_pictures(&run, corpus, stem, &samples, corpus_rows)?;
        drawn.points += pictures.points;
        for (name, svg) in PICTURES.iter().zip(&pictures.svgs) {
            if let Some(svg) = svg {
                drawn
                    .files
                    .push(write(&dir.join(picture_file(&pictures.stem, name)), svg)?);
            }
        }
        for (solver, svg) in &pictures.versus {
            drawn.files.push(write(
                &dir.join(schema::versus_file(&pictures.stem, solver)),
                svg,
            )?);
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
    /// Whether the solved-within chart counts solves from `puzzles.csv`
    /// (else every timed solve, from the histograms).
    solved_from_rows: bool,
    /// The reference against each other solver: (solver, scatter plot).
    versus: Vec<(String, String)>,
    /// The virtual best solver, from `puzzles.csv`.
    virtual_best: Option<versus::VirtualBest>,
    /// Each solver's work against its cost per unit, from `puzzles.csv`
    /// (shown under the cost chart).
    unit_cost: Option<versus::UnitCost>,
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

/// (ns, solves within it) points of a histogram's cumulative counts.
fn cdf_points(h: &Histogram<u64>) -> Vec<(f64, f64)> {
    let mut seen = 0u64;
    let mut points = Vec::new();
    for v in h.iter_recorded() {
        seen += v.count_since_last_iteration();
        points.push((v.value_iterated_to() as f64, seen as f64));
    }
    points
}

/// The most steps a solved-within curve draws (each exact).
pub const MAX_STEPS: usize = 600;

/// The solved-within curves of a corpus: from its `puzzles.csv` rows when
/// there are some (solved puzzles only, [`versus`]), else from the
/// histograms (every timed solve); legends name the solved count of all
/// the corpus's puzzles.
fn solved_series(corpus: &CorpusResult, rows: Option<&versus::CorpusRows>) -> Vec<chart::Series> {
    let all = corpus.puzzles;
    let legend = |name: &str, n: u64, what: &str| {
        format!(
            "{name}: {} of {} {what}",
            crate::report::thousands(n),
            crate::report::thousands(all)
        )
    };
    match rows {
        Some(rows) => corpus
            .solvers
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let r = rows.solver(&s.name).filter(|r| !r.rows.is_empty())?;
                let curve = versus::SolvedWithin {
                    solver: s.name.clone(),
                    puzzles: all,
                    times: r.solved_times(),
                };
                Some(chart::Series {
                    name: legend(&s.name, curve.solved(), "solved"),
                    colour: i,
                    points: curve
                        .steps(MAX_STEPS)
                        .into_iter()
                        .map(|(t, n)| (t.max(1) as f64, n as f64))
                        .collect(),
                })
            })
            .collect(),
        None => timed(corpus)
            .map(|(i, s)| chart::Series {
                name: legend(&s.name, s.histogram.len(), "timed"),
                colour: i,
                points: cdf_points(&s.histogram),
            })
            .collect(),
    }
}

/// The reference against each other solver of a corpus: (solver, the
/// head-to-head scatter plot).
fn versus_pictures(
    run: &Recorded,
    corpus: &CorpusResult,
    rows: &versus::CorpusRows,
) -> Result<Vec<(String, String)>, PlotError> {
    let reference = &run.meta.reference;
    if rows.solver(reference).is_none_or(|r| r.rows.is_empty()) {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for s in &corpus.solvers {
        if &s.name == reference || rows.solver(&s.name).is_none_or(|r| r.rows.is_empty()) {
            continue;
        }
        let h = versus::head_to_head(rows, reference, &s.name, versus::DEFAULT_TIE, 0);
        let points: Vec<chart::PairPoint> = h
            .pairs
            .iter()
            .map(|p| {
                let t =
                    |x: Option<versus::Solve>| x.filter(|x| x.solved).map(|x| x.ns.max(1) as f64);
                match (t(p.a), t(p.b)) {
                    (Some(a), Some(b)) => (chart::PairKind::Both, a, b),
                    (Some(a), None) => (chart::PairKind::OnlyA, a, 0.0),
                    (None, Some(b)) => (chart::PairKind::OnlyB, 0.0, b),
                    (None, None) => (chart::PairKind::Neither, 0.0, 0.0),
                }
            })
            .collect();
        let title = format!("{}: {} against {}", corpus.name, reference, s.name);
        let svg = chart::versus(&title, reference, &s.name, h.tie, &points)?;
        out.push((s.name.clone(), svg));
    }
    Ok(out)
}

/// The pictures of one corpus of a run: its charts (from the histograms,
/// the sampled rows `samples` and, where the run kept them, its per-puzzle
/// `rows`) and its head-to-head plots.
fn corpus_pictures(
    run: &Recorded,
    corpus: &CorpusResult,
    stem: String,
    samples: &[sample::Sampled],
    rows: Option<&versus::CorpusRows>,
) -> Result<CorpusPictures, PlotError> {
    let name = &corpus.name;
    let percentiles: Vec<chart::Series> = timed(corpus)
        .map(|(i, s)| chart::Series {
            name: s.name.clone(),
            colour: i,
            points: percentile_points(&s.histogram),
        })
        .collect();
    let solved = solved_series(corpus, rows);
    let solved_desc = match rows {
        Some(_) => "puzzles solved within it",
        None => "puzzles timed within it",
    };
    let (scatter, x_desc, points) = scatter_series(corpus, samples);
    let speed = speed_bars(run, corpus);
    let title = |what: &str| format!("{name}: {what}");
    let svgs = [
        (!percentiles.is_empty())
            .then(|| chart::percentiles(&title("latency by percentile"), &percentiles))
            .transpose()?,
        (!solved.is_empty())
            .then(|| {
                chart::solved_within(
                    &title("puzzles solved within a time"),
                    corpus.puzzles,
                    solved_desc,
                    &solved,
                )
            })
            .transpose()?,
        (!scatter.is_empty())
            .then(|| chart::scatter(&title("time against search cost"), &x_desc, &scatter))
            .transpose()?,
        speed
            .map(|bars| chart::speed(&title("relative speed"), &run.meta.reference, &bars))
            .transpose()?,
    ];
    let versus = match rows {
        Some(rows) => versus_pictures(run, corpus, rows)?,
        None => Vec::new(),
    };
    Ok(CorpusPictures {
        stem,
        svgs,
        solved_from_rows: rows.is_some(),
        virtual_best: rows.map(|r| versus::virtual_best(r, Some(run.meta.reference.as_str()))),
        unit_cost: rows.map(versus::unit_cost),
        versus,
        points,
    })
}

/// The cost scatter plot's series of a corpus, from the sampled rows:
/// nodes where the solver records them, else guesses; with the x axis's
/// words and the number of points.
fn scatter_series(
    corpus: &CorpusResult,
    samples: &[sample::Sampled],
) -> (Vec<chart::Series>, String, usize) {
    let mut points = 0;
    let mut uses_guesses = Vec::new();
    let scatter: Vec<chart::Series> = corpus
        .solvers
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let rows = samples
                .iter()
                .find(|x| x.corpus == corpus.name && x.solver == s.name)?;
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
    (scatter, x_desc, points)
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
