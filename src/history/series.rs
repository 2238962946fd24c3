//! The database read back as series: per corpus x solver, one point per
//! commit, in commit order, with the steps found ([`super::steps`]).
//!
//! Commit order is the order of each commit's first run (its start time):
//! the binary runs no `git`, and a history filled by CI on the main branch
//! runs commits in order. Runs of a build without a git revision are
//! points of their own.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use rusqlite::params;

use super::steps::{self, Step, TimePoint};
use super::store::{sql, Store};
use super::HistoryError;

/// The z-value of a run's 95% interval of its mean.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One corpus x solver's figures in one run.
#[derive(Debug, Clone, PartialEq)]
struct RunFigures {
    revision: String,
    started: Option<String>,
    cpu_model: Option<String>,
    puzzles: u64,
    timed: u64,
    mean_ns: Option<f64>,
    stddev_ns: Option<f64>,
    total_nodes: Option<u64>,
}

impl RunFigures {
    /// The run's 95% interval of its mean (mean ± z·sd/√n); the mean
    /// alone with fewer than two timed puzzles.
    fn interval(&self) -> Option<(f64, f64)> {
        let mean = self.mean_ns?;
        let half = match (self.stddev_ns, self.timed) {
            (Some(sd), n) if n >= 2 => Z95 * sd / (n as f64).sqrt(),
            _ => 0.0,
        };
        Some((mean - half, mean + half))
    }
}

/// One commit's figures of a corpus x solver.
// `results::output::history::PointJson` mirrors this on purpose: the file's type, apart from the
// one in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The revision (`git describe`), or `run:` and its start time.
    pub revision: String,
    /// Runs of this commit.
    pub runs: u64,
    /// Start time of its first run.
    pub started: Option<String>,
    /// CPU model of its first run.
    pub cpu_model: Option<String>,
    /// Puzzles run (its first run's).
    pub puzzles: u64,
    /// Puzzles timed within budget (its first run's).
    pub timed: u64,
    /// The time: the mean of its runs' means, within the hull of their
    /// intervals.
    pub time: Option<TimePoint>,
    /// Total search nodes (its first run's).
    pub total_nodes: Option<u64>,
    /// Whether its runs recorded different node counts.
    pub nodes_differ: bool,
}

/// One corpus x solver over commits.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// One point per commit, in commit order.
    pub points: Vec<Point>,
    /// Node-count steps.
    pub node_steps: Vec<Step>,
    /// Time steps.
    pub time_steps: Vec<Step>,
    /// Time outliers (indices into `points`).
    pub outliers: Vec<usize>,
}

/// Every corpus x solver of `store`, by corpus then solver name, with the
/// steps found at the A/A floor `floor` (a fraction).
pub fn load(store: &Store, floor: f64) -> Result<Vec<Series>, HistoryError> {
    let mut stmt = store
        .conn
        .prepare(
            "SELECT s.corpus, s.solver, r.git_revision, r.started, r.cpu_model, s.puzzles,
                    s.timed, s.mean_ns, s.stddev_ns, s.total_nodes
             FROM summaries s JOIN runs r ON r.id = s.run_id
             ORDER BY s.corpus, s.solver, r.started, r.id",
        )
        .map_err(sql(&store.path))?;
    let rows = stmt
        .query_map(params![], |r| {
            let started: Option<String> = r.get(3)?;
            let revision: Option<String> = r.get(2)?;
            Ok((
                (r.get::<_, String>(0)?, r.get::<_, String>(1)?),
                RunFigures {
                    revision: revision
                        .unwrap_or_else(|| format!("run:{}", started.as_deref().unwrap_or("?"))),
                    started,
                    cpu_model: r.get(4)?,
                    puzzles: r.get(5)?,
                    timed: r.get(6)?,
                    mean_ns: r.get(7)?,
                    stddev_ns: r.get(8)?,
                    total_nodes: r.get(9)?,
                },
            ))
        })
        .map_err(sql(&store.path))?;
    let mut series: Vec<Series> = Vec::new();
    let mut runs: Vec<RunFigures> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for row in rows {
        let (name, figures) = row.map_err(sql(&store.path))?;
        if current.as_ref().is_some_and(|c| *c != name) {
            let (corpus, solver) = current.take().unwrap_or_default();
            series.push(build(corpus, solver, &std::mem::take(&mut runs), floor));
        }
        current = Some(name);
        runs.push(figures);
    }
    if let Some((corpus, solver)) = current {
        series.push(build(corpus, solver, &runs, floor));
    }
    Ok(series)
}

/// The series of `runs` (in start order), its steps found.
fn build(corpus: String, solver: String, runs: &[RunFigures], floor: f64) -> Series {
    let mut points: Vec<Point> = Vec::new();
    let mut revisions: Vec<&str> = Vec::new();
    for run in runs {
        if !revisions.contains(&run.revision.as_str()) {
            revisions.push(&run.revision);
        }
    }
    for revision in revisions {
        let of: Vec<&RunFigures> = runs.iter().filter(|r| r.revision == revision).collect();
        points.push(point(&of));
    }
    let counts: Vec<Option<u64>> = points.iter().map(|p| p.total_nodes).collect();
    let times: Vec<Option<TimePoint>> = points.iter().map(|p| p.time).collect();
    let (time_steps, outliers) = steps::time_steps(&times, floor);
    Series {
        corpus,
        solver,
        node_steps: steps::node_steps(&counts),
        time_steps,
        outliers,
        points,
    }
}

/// One commit's point from its runs (at least one).
fn point(runs: &[&RunFigures]) -> Point {
    let first = runs[0];
    let intervals: Vec<(f64, (f64, f64))> = runs
        .iter()
        .filter_map(|r| Some((r.mean_ns?, r.interval()?)))
        .collect();
    let time = (!intervals.is_empty()).then(|| TimePoint {
        value: intervals.iter().map(|(m, _)| m).sum::<f64>() / intervals.len() as f64,
        low: intervals
            .iter()
            .map(|(_, i)| i.0)
            .fold(f64::INFINITY, f64::min),
        high: intervals.iter().map(|(_, i)| i.1).fold(0.0, f64::max),
    });
    Point {
        revision: first.revision.clone(),
        runs: runs.len() as u64,
        started: first.started.clone(),
        cpu_model: first.cpu_model.clone(),
        puzzles: first.puzzles,
        timed: first.timed,
        time,
        total_nodes: first.total_nodes,
        nodes_differ: runs.iter().any(|r| r.total_nodes != first.total_nodes),
    }
}
