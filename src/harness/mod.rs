//! The batch runner behind `dlxbench bench`.
//!
//! [`run`] takes opened [`Corpus`]es, a [`Config`] (mode, budgets, threads,
//! passes) and a [`Lineup`] (the solvers, as [`SolverEntry`]s of any
//! [`crate::solvers::SolverSet`], so callers can add their own, and the
//! parse options), and returns a [`RunResult`] with per corpus x solver
//! statistics, merged latency histograms and every discrepancy found.
//!
//! # How a run works
//! * A rayon pool of `threads` workers. For each corpus the pool is
//!   *broadcast* one job: every worker thread runs one loop that takes the
//!   next chunk index from a shared atomic counter until none is left. Each
//!   worker thread owns one [`Worker`](self) state, created the first time
//!   that thread runs and kept for the whole run: one solver of each kind
//!   (so DLX keeps one arena per grid shape), a parse grid, an image grid, a
//!   solution grid and one histogram per solver. [`RunResult::states_created`]
//!   counts solver creations: always threads x solvers.
//! * Per chunk: find the lines (timed), parse them all into a reused
//!   buffer (timed as a whole: the reader's cost is reported apart and
//!   never inside a solve). Then per puzzle, optionally replace it by a
//!   random symmetry image (`permute`), and for each solver time exactly
//!   the `solve` call with the [`crate::clock`]. Validation of a returned
//!   solution ([`Puzzle::is_solution_of`]) and the cross-check of the
//!   solvers' capped solution counts happen after the timed call.
//! * A run holds one kind of puzzle: [`run`] and the worker loop are
//!   generic over the [`Puzzle`] type, which brings its parser, rule check
//!   and symmetries, and the solvers are solvers of that type.
//! * `passes` passes are made over each chunk's parsed puzzles, and each
//!   puzzle keeps its minimum time per solver (chunks hold hundreds of
//!   puzzles, so other puzzles run between two solves of the same one).
//! * Latencies go into the worker's own histogram (no locks while
//!   solving); histograms are merged when a corpus ends. Over-budget solves
//!   are counted with their time but kept out of the histogram and
//!   percentiles.
//! * With a [`RecordSink`], each chunk's per-puzzle records go as one batch
//!   over a bounded channel to a writer thread, which writes them in chunk
//!   order, so the per-puzzle file lists puzzles in corpus order (in the
//!   shuffled order with `shuffle`) whatever the thread count. A worker
//!   does not start a chunk more than `2 x threads + 2` chunks ahead of the
//!   last one written (it yields until the writer catches up), so at most
//!   that many batches wait for reordering: memory does not grow with the
//!   corpus, even when one chunk is much slower than its neighbours.

mod estimate;
pub mod images;
pub mod own_time;
mod paired;
mod quantiles;
mod schedule;
mod stats;
pub mod unit_cost;
pub mod virtual_best;
mod worker;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

pub use estimate::{estimate, Estimate};
pub use paired::{
    block_bootstrap, quantile, t_for, z_for, BlockSum, NoRatio, PairedTimes, Speed, SpeedRatio,
    MIN_COMMON, SPEED_CONFIDENCE, SPEED_RESAMPLES, SPEED_SEED,
};
pub use schedule::{Schedule, Step};
pub use stats::{SolverStats, HIST_SIGFIG};
pub use unit_cost::UnitCostTally;
pub use virtual_best::VirtualBestTally;

use crate::corpus::Corpus;
use crate::puzzle::Puzzle;
use crate::rng::SplitMix;
use crate::shard::Shard;
use crate::solvers::{Budget, Failure, SolverEntry, Status, Timing};

/// How many solutions to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Stop at the first solution (limit 1).
    First,
    /// Stop at the second solution (limit 2): proves uniqueness.
    #[default]
    Unique,
    /// Count all solutions, up to a limit.
    Count,
}

impl Mode {
    /// Lower-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::First => "first",
            Mode::Unique => "unique",
            Mode::Count => "count",
        }
    }

    /// The mode [`Mode::as_str`] names.
    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::First, Mode::Unique, Mode::Count]
            .into_iter()
            .find(|m| m.as_str() == name)
    }
}

/// How to run: what the reports say about a run besides its results.
#[derive(Debug, Clone)]
pub struct Config {
    /// The kind of puzzle the corpora hold ([`Puzzle::NAME`]).
    pub kind: &'static str,
    /// The names of the [`Lineup`]'s solvers, in its order.
    pub solvers: Vec<String>,
    /// Their one-line descriptions ([`SolverEntry::description`]: for a
    /// loaded solver, where it was loaded from), in the same order.
    pub descriptions: Vec<String>,
    /// One node budget per solver of the [`Lineup`], in its order.
    pub budgets: Vec<Budget>,
    /// The standard-error log file of each solver in its own process
    /// ([`SolverEntry::log_file`]'s name), in the same order; `None` for
    /// the others. Empty is the same as all `None`.
    pub log_files: Vec<Option<String>>,
    /// Worker threads (0: all cores); never more than the largest corpus
    /// has chunks ([`RunResult::threads`] says how many ran).
    pub threads: usize,
    /// Mode.
    pub mode: Mode,
    /// Solution limit passed to the solvers (1 for `first`, 2 for `unique`).
    pub limit: u64,
    /// Puzzles from the start of each corpus that every worker solves
    /// untimed (and validates) before measuring.
    pub warmup: usize,
    /// Passes per chunk; the minimum time per puzzle and solver is kept.
    pub passes: u32,
    /// Seed for a reproducible shuffle of the puzzle order.
    pub shuffle: Option<u64>,
    /// Seed for replacing each puzzle by a random symmetry image.
    pub permute: Option<u64>,
    /// Symmetry images solved per puzzle (`--images`; needs `permute`):
    /// 1 solves the one image `permute` makes, K more than 1 also K-1
    /// images of seeds derived from it ([`images`]), whose rows go to
    /// [`CorpusResult::images`] alone.
    pub images: u32,
    /// The order in which the solvers take the puzzles.
    pub schedule: Schedule,
    /// The part of every corpus to run (none: all of it).
    pub shard: Option<Shard>,
    /// The pipe's median round trip measured before the run, ns (0: not
    /// measured): the floor under a solver in its own process, for the
    /// check of its own times ([`own_time`]).
    pub round_trip_floor_ns: f64,
}

impl Config {
    /// Defaults for `lineup`: mode `unique`, each solver's default budget
    /// ([`SolverEntry::default_budget`]), all cores, one pass.
    pub fn new<P: Puzzle>(lineup: &Lineup<P>) -> Self {
        Config {
            kind: P::NAME,
            solvers: lineup.names().into_iter().map(String::from).collect(),
            descriptions: lineup
                .solvers
                .iter()
                .map(|s| s.description().to_string())
                .collect(),
            budgets: lineup
                .solvers
                .iter()
                .map(SolverEntry::default_budget)
                .collect(),
            log_files: lineup
                .solvers
                .iter()
                .map(|s| s.log_file().map(|l| l.name().to_string()))
                .collect(),
            threads: 0,
            mode: Mode::Unique,
            limit: 2,
            warmup: 0,
            passes: 1,
            shuffle: None,
            permute: None,
            images: 1,
            schedule: Schedule::default(),
            shard: None,
            round_trip_floor_ns: 0.0,
        }
    }
}

/// Who runs: the solvers of a run, in report order, all of one puzzle
/// type, and how to parse the corpora's puzzles.
#[derive(Debug, Clone)]
pub struct Lineup<P: Puzzle> {
    /// The solvers.
    pub solvers: Vec<SolverEntry<P>>,
    /// Parse options.
    pub options: P::Options,
}

impl<P: Puzzle> Lineup<P> {
    /// `solvers` with the default parse options.
    pub fn new(solvers: Vec<SolverEntry<P>>) -> Self {
        Lineup {
            solvers,
            options: P::Options::default(),
        }
    }

    /// The solvers' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.solvers.iter().map(SolverEntry::name).collect()
    }
}

/// One puzzle x solver result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Record {
    /// 1-based line in the corpus.
    pub line: u64,
    /// Index of the solver in [`Config::solvers`].
    pub solver: u16,
    /// Status.
    pub status: Status,
    /// Solve time in nanoseconds (minimum over passes).
    pub ns: u64,
    /// Solutions found (capped by the limit; a count above it, which only
    /// a broken solver returns, is kept as it came, its status `invalid`).
    pub solutions: u64,
    /// Search nodes, for solvers that report them
    /// ([`crate::solvers::Outcome::nodes`]).
    pub nodes: Option<u64>,
    /// Branch points.
    pub guesses: u64,
    /// Dancing Links link updates, for solvers that count them
    /// ([`crate::solvers::Outcome::updates`]).
    pub updates: Option<u64>,
    /// Memory accesses as Knuth's programs count them, for solvers that
    /// count them ([`crate::solvers::Outcome::mems`]).
    pub mems: Option<u64>,
    /// Why the solve failed, for the failure statuses (and `n/a` answered
    /// by a solver in its own process): the cause column of `puzzles.csv`.
    pub failure: Option<Failure>,
    /// What `ns` measured ([`crate::solvers::Outcome::timing`]).
    pub timing: Timing,
    /// The process that timed `ns` ([`crate::solvers::Outcome::host`]):
    /// the speed interval resamples a host process's blocks together.
    pub host: Option<u32>,
}

/// Receives per-puzzle records, one chunk at a time, in chunk order, on a
/// writer thread of its own.
pub trait RecordSink: Send {
    /// Writes one chunk's records of the corpus named `corpus`.
    fn write_batch(&mut self, corpus: &str, records: &[Record]) -> std::io::Result<()>;
    /// Every record of the corpus named `corpus` was written: called once
    /// for each corpus that ran in full, before the run reports it
    /// finished ([`Progress::finish_corpus`]), so that what the sink keeps
    /// can be made durable corpus by corpus. Not called for a corpus a stop
    /// cut short (its records end with [`RecordSink::finish`]), nor after a
    /// failed write. Does nothing unless implemented.
    fn end_corpus(&mut self, corpus: &str) -> std::io::Result<()> {
        let _ = corpus;
        Ok(())
    }
    /// Called once after the last batch.
    fn finish(&mut self) -> std::io::Result<()>;
}

/// What a run tells its caller as it goes, and how the caller stops it
/// (the bench session, `session::Session`, writes each corpus's result
/// files as it ends, passes the progress on to its observer, and stops
/// when its flag is set).
pub trait Progress: Sync {
    /// Corpus `index` (0-based) of `count`, of about `lines` lines,
    /// starts.
    fn start_corpus(&self, index: usize, count: usize, name: &str, lines: u64);
    /// `lines` more lines are done.
    fn advance(&self, lines: u64);
    /// A corpus ended (the last of `run.corpora`, complete or, when the
    /// run was stopped, partial); `run` holds every corpus so far.
    fn finish_corpus(&self, run: &RunResult) {
        let _ = run;
    }
    /// Whether to stop: no chunk is started after this returns true; the
    /// chunks in flight finish and are kept.
    fn stop_requested(&self) -> bool {
        false
    }
}

/// A malformed line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Malformed {
    /// 1-based line.
    pub line: u64,
    /// The parser's message (with line and column).
    pub message: String,
    /// The start of the line.
    pub text: String,
}

/// Malformed lines kept in full per corpus (all are counted).
pub const MALFORMED_EXAMPLES: usize = 5;

/// What went wrong with one puzzle.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum DiscrepancyKind {
    /// Solvers returned different capped solution counts.
    Disagreement,
    /// The named solver returned a grid that is not a solution.
    InvalidSolution(String),
    /// The named solver's solution counts differ across the symmetry
    /// images of one puzzle (`--images`: [`images::check`]).
    ImageDisagreement(String),
    /// The named solver returned a count above the limit it was asked to
    /// count up to: no answer a solver may give (its record is `invalid`).
    CountAboveLimit {
        /// The solver.
        solver: String,
        /// The limit it was given.
        limit: u64,
    },
}

/// A disagreement between solvers or an invalid solution.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Discrepancy {
    /// Corpus name.
    pub corpus: String,
    /// 1-based line.
    pub line: u64,
    /// The symmetry image (`--images`, 1 to K-1) whose solves it was found
    /// in ([`images::check_line`]); none for the puzzle as the run's table
    /// has it (image 0) and across a solver's images.
    pub image: Option<u32>,
    /// What went wrong.
    pub kind: DiscrepancyKind,
    /// Every solver's capped solution count and status for the puzzle.
    pub counts: Vec<(String, u64, Status)>,
}

impl std::fmt::Display for Discrepancy {
    /// `c9 line 12: solvers disagree: dlx=1 (unique), ...`; found on a
    /// symmetry image, `c9 line 12, symmetry image 2: ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}", self.corpus, self.line)?;
        if let Some(image) = self.image {
            write!(f, ", symmetry image {image}")?;
        }
        match &self.kind {
            DiscrepancyKind::Disagreement => write!(f, ": solvers disagree:")?,
            DiscrepancyKind::InvalidSolution(s) => {
                write!(f, ": {s} returned an invalid solution:")?
            }
            DiscrepancyKind::ImageDisagreement(s) => {
                write!(f, ": {s}'s solution counts differ across symmetry images:")?
            }
            DiscrepancyKind::CountAboveLimit { solver, limit } => write!(
                f,
                ": {solver} returned a count above the limit of {limit} it was given:"
            )?,
        }
        for (i, (name, count, status)) in self.counts.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{name}={count} ({status})")?;
        }
        Ok(())
    }
}

/// The cross-check of one puzzle (line `line` of `corpus`, solved with
/// solution limit `limit`): its records, one per solver (`name` gives a
/// record's solver name). Reports a solver that returned an invalid answer
/// (a grid that is not a solution, or a count above `limit`), and a
/// disagreement on the capped solution count among the solvers that
/// finished within budget, took the puzzle and gave a count within the
/// limit. Empty when all is well. `dlxbench merge` checks merged rows with
/// it too.
pub fn cross_check<'n>(
    corpus: &str,
    line: u64,
    limit: u64,
    records: &[Record],
    name: impl Fn(u16) -> &'n str,
) -> Vec<Discrepancy> {
    let mut agreed: Option<u64> = None;
    let mut disagree = false;
    let mut invalid: Option<&Record> = None;
    for r in records {
        if r.status == Status::Invalid {
            invalid.get_or_insert(r);
        }
        if r.status == Status::Budget || r.status.is_untimed() || r.solutions > limit {
            continue;
        }
        match agreed {
            None => agreed = Some(r.solutions),
            Some(c) if c != r.solutions => disagree = true,
            Some(_) => {}
        }
    }
    if !disagree && invalid.is_none() {
        return Vec::new();
    }
    let counts: Vec<_> = records
        .iter()
        .map(|r| (name(r.solver).to_string(), r.solutions, r.status))
        .collect();
    let mut found = Vec::new();
    if let Some(r) = invalid {
        let solver = name(r.solver).to_string();
        found.push(Discrepancy {
            corpus: corpus.to_string(),
            line,
            image: None,
            kind: match r.solutions > limit {
                true => DiscrepancyKind::CountAboveLimit { solver, limit },
                false => DiscrepancyKind::InvalidSolution(solver),
            },
            counts: counts.clone(),
        });
    }
    if disagree {
        found.push(Discrepancy {
            corpus: corpus.to_string(),
            line,
            image: None,
            kind: DiscrepancyKind::Disagreement,
            counts,
        });
    }
    found
}

/// Results for one corpus.
#[derive(Debug, Clone)]
pub struct CorpusResult {
    /// Corpus name.
    pub name: String,
    /// [`Config::round_trip_floor_ns`] of the run (0 read back).
    pub round_trip_floor_ns: f64,
    /// File path, if any.
    pub path: Option<std::path::PathBuf>,
    /// Size in bytes.
    pub bytes: u64,
    /// Lines (including comments and blank lines).
    pub lines: u64,
    /// A leading comment said `ALLOWZERO`.
    pub allow_zero: bool,
    /// Puzzles parsed (malformed lines excluded).
    pub puzzles: u64,
    /// Malformed lines.
    pub malformed: u64,
    /// The first [`MALFORMED_EXAMPLES`] malformed lines.
    pub malformed_examples: Vec<Malformed>,
    /// Total parse time over all workers (first pass only), ns.
    pub parse_ns: u64,
    /// Total time spent finding lines (scanning chunks), ns.
    pub scan_ns: u64,
    /// Wall-clock time of the corpus, warm-up included.
    pub wall: Duration,
    /// Per solver, in [`Config::solvers`] order.
    pub solvers: Vec<SolverStats>,
    /// The file changed on disk during the run.
    pub changed_on_disk: bool,
    /// Worker threads that ran at least one chunk of the corpus: the
    /// parallelism its throughput figures assume.
    pub workers: usize,
    /// Lines of the corpus whose chunks were run (all of them unless the
    /// run was stopped).
    pub lines_done: u64,
    /// The first failed solves ([`Status::is_failure`]) of the corpus, by
    /// line: the first [`FAILURE_EXAMPLES`] crashes, timeouts and protocol
    /// errors, and for each solver stopped after failures in a row the
    /// first puzzle it skipped. The counts are in the solvers' statistics.
    pub failures: Vec<FailureNote>,
    /// The solvers' paired solve times, for their speed ratios
    /// ([`CorpusResult::speeds`]); empty for a run read back from files.
    pub paired: PairedTimes,
    /// The speed ratios as a result directory records them (read back
    /// from `summary.csv`), against its reference; `None`: computed from
    /// [`CorpusResult::paired`].
    pub recorded_speeds: Option<Vec<Speed>>,
    /// The speeds computed from [`CorpusResult::paired`] and the reference
    /// they are against, once ([`CorpusResult::speeds`]); empty until
    /// then (set `paired` before asking for them).
    pub speed_cache: std::sync::OnceLock<(usize, Vec<Speed>)>,
    /// With [`Config::images`] above 1: every image's solve of every
    /// puzzle, sorted by line, solver and image (`images.csv`); empty
    /// otherwise, and for a run read back from files.
    pub images: Vec<images::ImageRow>,
}

/// Failed solves kept in full per corpus ([`CorpusResult::failures`]).
pub const FAILURE_EXAMPLES: usize = 5;

/// A failed solve: where, which solver, what happened.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FailureNote {
    /// 1-based line.
    pub line: u64,
    /// The solver's name.
    pub solver: String,
    /// Its status ([`Status::is_failure`]).
    pub status: Status,
    /// The cause.
    pub failure: Option<Failure>,
    /// In an untimed warm-up solve (`--warmup`, or a block's first solve),
    /// which has no record of its own.
    pub warm_up: bool,
    /// On symmetry image 1 to K-1 (`--images`): its solve is a row of
    /// `images.csv`, not of `puzzles.csv`; none for image 0.
    pub image: Option<u32>,
    /// What the harness saw ([`crate::solvers::Solver::take_detail`]): the
    /// offending line, quoted, or the OS error.
    pub detail: Option<String>,
}

impl FailureNote {
    /// The note of the failed solve `record` of the solver named `solver`
    /// (on symmetry image `image`, none for image 0), with what the harness
    /// saw of it, taken out of `details` (keyed by line and solver) when
    /// there.
    pub(crate) fn of_record(
        record: &Record,
        solver: &str,
        image: Option<u32>,
        details: &mut Vec<((u64, u16), String)>,
    ) -> FailureNote {
        let key = (record.line, record.solver);
        FailureNote {
            line: record.line,
            solver: solver.to_string(),
            status: record.status,
            failure: record.failure,
            warm_up: false,
            image,
            detail: details
                .iter()
                .position(|(k, _)| *k == key)
                .map(|at| details.swap_remove(at).1),
        }
    }
}

impl std::fmt::Display for FailureNote {
    /// `line 12: py crashed (exit 3)` (`... on symmetry image 2` for an
    /// image's solve); for a solver stopped after failures
    /// in a row, `line 20: py stopped after failures in a row; its
    /// remaining puzzles are skipped`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.failure == Some(Failure::Stopped) {
            return write!(
                f,
                "line {}: {} stopped after {} failures in a row; its remaining puzzles of the \
                 corpus are skipped",
                self.line,
                self.solver,
                crate::solvers::process::MAX_FAILURES_IN_A_ROW
            );
        }
        write!(f, "line {}: {} {}", self.line, self.solver, self.status)?;
        if let Some(cause) = self.failure {
            write!(f, " ({cause})")?;
        }
        if self.warm_up {
            f.write_str(" in an untimed warm-up solve")?;
        }
        if let Some(image) = self.image {
            write!(f, " on symmetry image {image}")?;
        }
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

impl FailureNote {
    /// The note `text` of the solver named `solver` read back from what
    /// `run.json` records of it (`corpora[i].failures[j].notes`: its
    /// [`Display`](std::fmt::Display)); `None` when it is not such a note.
    /// The note of a stop reads back without its detail, which its text
    /// does not show.
    pub fn from_note(solver: &str, text: &str) -> Option<FailureNote> {
        let (line, rest) = text.strip_prefix("line ")?.split_once(": ")?;
        let line = line.parse().ok()?;
        let rest = rest.strip_prefix(solver)?.strip_prefix(' ')?;
        let note = |status, failure| FailureNote {
            line,
            solver: solver.to_string(),
            status,
            failure,
            warm_up: false,
            image: None,
            detail: None,
        };
        if rest.starts_with("stopped after ") {
            let stopped = Failure::Stopped;
            return Some(note(stopped.status(), Some(stopped)));
        }
        let end = rest.find([' ', ':']).unwrap_or(rest.len());
        let mut note = note(Status::from_name(&rest[..end])?, None);
        let mut rest = &rest[end..];
        if let Some(after) = rest.strip_prefix(" (") {
            let (cause, after) = after.split_once(')')?;
            note.failure = Some(Failure::from_cause(cause)?);
            rest = after;
        }
        if let Some(after) = rest.strip_prefix(" in an untimed warm-up solve") {
            note.warm_up = true;
            rest = after;
        }
        if let Some(after) = rest.strip_prefix(" on symmetry image ") {
            let end = after.find(':').unwrap_or(after.len());
            note.image = Some(after[..end].parse().ok()?);
            rest = &after[end..];
        }
        if !rest.is_empty() {
            note.detail = Some(rest.strip_prefix(": ")?.to_string());
        }
        Some(note)
    }
}

/// Keeps, of `notes`, the first [`FAILURE_EXAMPLES`] failures by line and
/// for each solver its first stop.
pub(crate) fn trim_failure_notes(notes: &mut Vec<FailureNote>) {
    notes.sort();
    let mut failures = 0;
    let mut stopped: Vec<String> = Vec::new();
    notes.retain(|n| {
        if n.failure == Some(Failure::Stopped) {
            if stopped.contains(&n.solver) {
                return false;
            }
            stopped.push(n.solver.clone());
            return true;
        }
        if n.status == Status::Skipped {
            // Interrupted: the run says so itself.
            return false;
        }
        failures += 1;
        failures <= FAILURE_EXAMPLES
    });
}

/// Everything a run found.
#[derive(Debug)]
pub struct RunResult {
    /// Per corpus.
    pub corpora: Vec<CorpusResult>,
    /// Disagreements and invalid solutions, sorted.
    pub discrepancies: Vec<Discrepancy>,
    /// Solver states created (threads x solvers).
    pub states_created: u64,
    /// Worker threads.
    pub threads: usize,
    /// Median cost of one pair of clock reads, ns.
    pub clock_overhead_ns: f64,
    /// Start time.
    pub started: SystemTime,
    /// End time.
    pub finished: SystemTime,
    /// The run was stopped ([`Progress::stop_requested`]) before the end:
    /// the last corpus may be partial ([`CorpusResult::complete`]) and
    /// later ones were not run.
    pub interrupted: bool,
    /// Writing the per-puzzle records failed ([`RecordSink`]); everything
    /// else of the run is complete.
    pub records_error: Option<std::io::Error>,
}

impl CorpusResult {
    /// Whether every line of the corpus was run.
    pub fn complete(&self) -> bool {
        self.lines_done == self.lines
    }

    /// Reader throughput in MB/s (10^6 bytes) per worker thread: corpus
    /// bytes over the time spent finding lines and parsing them.
    pub fn reader_mb_per_s(&self) -> f64 {
        match self.scan_ns + self.parse_ns {
            0 => 0.0,
            ns => self.bytes as f64 * 1e3 / ns as f64,
        }
    }

    /// Every solver's speed against solver `reference` (an index into
    /// [`CorpusResult::solvers`]), in their order: the recorded ones when
    /// the result was read back with them, else computed from
    /// [`CorpusResult::paired`] ([`Speed::of`]; its bootstrap takes a
    /// moment on a large corpus: compute once, use everywhere).
    pub fn speeds(&self, reference: usize) -> Vec<Speed> {
        if let Some(recorded) = &self.recorded_speeds {
            return recorded.clone();
        }
        let compute = || {
            let ref_invalid = self.solvers.get(reference).map_or(0, |s| s.invalid);
            // Times a solver reports about itself count only when they
            // explain its round trips (`own_time`).
            let floor = self.round_trip_floor_ns;
            let unverified = |s: &SolverStats| s.own_time_check(floor).is_some_and(|c| !c.verified);
            let ref_unverified = self.solvers.get(reference).is_some_and(unverified);
            self.solvers
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    match Speed::of(&self.paired, reference, i, (ref_invalid, s.invalid)) {
                        Speed::Ratio(_) if unverified(s) => Speed::Missing(NoRatio::Unverified),
                        Speed::Ratio(_) if ref_unverified => {
                            Speed::Missing(NoRatio::ReferenceUnverified)
                        }
                        speed => speed,
                    }
                })
                .collect::<Vec<_>>()
        };
        match self.speed_cache.get_or_init(|| (reference, compute())) {
            (r, speeds) if *r == reference => speeds.clone(),
            _ => compute(),
        }
    }
}

impl RunResult {
    /// True when some corpus had malformed lines.
    pub fn has_malformed(&self) -> bool {
        self.corpora.iter().any(|c| c.malformed > 0)
    }

    /// True when some solver found a puzzle without solution in a corpus
    /// not marked `ALLOWZERO`.
    pub fn has_unexpected_unsolvable(&self) -> bool {
        self.corpora
            .iter()
            .any(|c| !c.allow_zero && c.solvers.iter().any(|s| s.unsolvable > 0))
    }

    /// Failed solves over the run: crashes, timeouts and protocol errors,
    /// in untimed warm-up solves and on symmetry images 1 to K-1 too
    /// (skipped puzzles are not counted: they follow failures or a stop).
    pub fn failed_solves(&self) -> u64 {
        self.corpora
            .iter()
            .flat_map(|c| &c.solvers)
            .map(|s| s.failed() + s.warm_up_failed + s.image_failed)
            .sum()
    }

    /// Whether the run failed (exit status 1): a disagreement, an invalid
    /// answer, a failed solve ([`RunResult::failed_solves`]) or a malformed
    /// line (the input policy); with `strict`, also unexpected unsolvable
    /// puzzles.
    pub fn failed(&self, strict: bool) -> bool {
        !self.discrepancies.is_empty()
            || self.failed_solves() > 0
            || self.has_malformed()
            || (strict && self.has_unexpected_unsolvable())
    }
}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    /// The thread pool could not be built.
    #[error("cannot start worker threads: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// Writing per-puzzle records failed.
    #[error("writing per-puzzle results: {0}")]
    Sink(#[from] std::io::Error),
    /// Bad configuration.
    #[error("{0}")]
    Config(String),
}

/// The `seq` of the [`Batch`] that marks the end of a corpus run in full:
/// the writer thread calls [`RecordSink::end_corpus`] and acknowledges.
const END_OF_CORPUS: usize = usize::MAX;

/// One chunk's records on their way to the writer thread (or, with `seq`
/// [`END_OF_CORPUS`], the end of a corpus).
struct Batch {
    corpus: usize,
    seq: usize,
    records: Vec<Record>,
}

/// Runs every corpus through every solver of `lineup`.
pub fn run<P: Puzzle>(
    corpora: &[Corpus],
    config: &Config,
    lineup: &Lineup<P>,
    sink: Option<Box<dyn RecordSink>>,
    progress: Option<&dyn Progress>,
) -> Result<RunResult, HarnessError> {
    if lineup.solvers.len() != config.budgets.len() {
        return Err(HarnessError::Config(
            "one budget per solver is needed".into(),
        ));
    }
    if lineup.solvers.len() > usize::from(u16::MAX) {
        return Err(HarnessError::Config("too many solvers".into()));
    }
    if config.solvers.iter().map(String::as_str).ne(lineup.names()) {
        return Err(HarnessError::Config(
            "the configuration names other solvers than the lineup".into(),
        ));
    }
    if config.kind != P::NAME {
        return Err(HarnessError::Config(format!(
            "the configuration is for {}, the solvers solve {}",
            config.kind,
            P::NAME
        )));
    }
    let started = SystemTime::now();
    // Also calibrates the clock, before anything is timed.
    let clock_overhead_ns = crate::clock::overhead_ns();
    // No more workers than the largest corpus has chunks: an idle worker
    // only competes for the cores (on a one-chunk corpus `-j 64` measured
    // 30x slower solves than `-j 1`).
    let asked = match config.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let chunks = corpora.iter().map(Corpus::chunk_count).max().unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(asked.min(chunks.max(1)))
        .thread_name(|i| format!("dlxbench-worker-{i}"))
        .build()?;
    let threads = pool.current_num_threads();
    let created = AtomicU64::new(0);
    let states: Vec<Mutex<Option<worker::Worker<P>>>> =
        (0..threads).map(|_| Mutex::new(None)).collect();

    // Batches written so far (over all corpora), for the reorder window.
    let written = Arc::new(AtomicUsize::new(0));
    let window = 2 * threads + 2;
    // The writer thread acknowledges each END_OF_CORPUS on `ended`.
    let (ended_tx, ended) = std::sync::mpsc::channel::<usize>();
    let (sender, writer) = match sink {
        Some(sink) => {
            let (tx, rx) = sync_channel::<Batch>(window);
            let names: Vec<String> = corpora.iter().map(|c| c.name().to_string()).collect();
            let chunks: Vec<usize> = corpora.iter().map(Corpus::chunk_count).collect();
            let written = written.clone();
            let handle = std::thread::Builder::new()
                .name("dlxbench-writer".into())
                .spawn(move || write_batches(rx, sink, &names, &chunks, &written, &ended_tx))?;
            (Some(tx), Some(handle))
        }
        None => (None, None),
    };

    let mut base = 0usize;
    let mut run = RunResult {
        corpora: Vec::with_capacity(corpora.len()),
        discrepancies: Vec::new(),
        states_created: 0,
        threads,
        clock_overhead_ns,
        started,
        finished: started,
        interrupted: false,
        records_error: None,
    };
    let stop = || progress.is_some_and(|p| p.stop_requested());
    for (index, corpus) in corpora.iter().enumerate() {
        if stop() {
            run.interrupted = true;
            break;
        }
        let firsts = corpus.chunk_first_lines();
        let chunks = corpus.chunk_count();
        let order = config.shuffle.map(|seed| {
            let mut order: Vec<usize> = (0..chunks).collect();
            SplitMix::new(seed).shuffle(&mut order);
            order
        });
        let lines = firsts[chunks] - 1;
        if let Some(p) = progress {
            p.start_corpus(index, corpora.len(), corpus.name(), lines);
        }
        let job = worker::Job {
            corpus,
            index,
            firsts: &firsts,
            order: order.as_deref(),
            next: AtomicUsize::new(0),
            sender: sender.as_ref().map(|tx| worker::Ordered {
                tx,
                written: &written,
                base,
                window,
            }),
            config,
            lineup,
            progress,
        };
        let merged = Mutex::new(
            lineup
                .solvers
                .iter()
                .map(|s| SolverStats::new(s.name()))
                .collect::<Vec<_>>(),
        );
        let paired = Mutex::new(PairedTimes::new(
            lineup.solvers.len(),
            config.schedule.block,
        ));
        let t0 = Instant::now();
        let outputs = pool.broadcast(|ctx| {
            let mut slot = states[ctx.index()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let w = slot.get_or_insert_with(|| {
                created.fetch_add(lineup.solvers.len() as u64, Ordering::Relaxed);
                worker::Worker::new(lineup)
            });
            let out = w.run_corpus(&job);
            w.merge_stats(&mut merged.lock().unwrap_or_else(|e| e.into_inner()));
            w.merge_paired(&mut paired.lock().unwrap_or_else(|e| e.into_inner()));
            out
        });
        let wall = t0.elapsed();
        base += chunks;
        let mut result = CorpusResult {
            name: corpus.name().to_string(),
            path: corpus.path().map(|p| p.to_path_buf()),
            bytes: corpus.bytes().len() as u64,
            lines,
            allow_zero: corpus.allow_zero(),
            puzzles: 0,
            malformed: 0,
            malformed_examples: Vec::new(),
            parse_ns: 0,
            scan_ns: 0,
            wall,
            solvers: merged.into_inner().unwrap_or_else(|e| e.into_inner()),
            changed_on_disk: corpus.changed_on_disk(),
            workers: 0,
            lines_done: 0,
            failures: Vec::new(),
            paired: paired.into_inner().unwrap_or_else(|e| e.into_inner()),
            recorded_speeds: None,
            speed_cache: std::sync::OnceLock::new(),
            round_trip_floor_ns: config.round_trip_floor_ns,
            images: Vec::new(),
        };
        for out in outputs {
            result.puzzles += out.puzzles;
            result.malformed += out.malformed;
            result.malformed_examples.extend(out.malformed_examples);
            result.parse_ns += out.parse_ns;
            result.scan_ns += out.scan_ns;
            result.lines_done += out.lines_done;
            result.workers += usize::from(out.chunks > 0);
            run.discrepancies.extend(out.discrepancies);
            result.failures.extend(out.failures);
            result.images.extend(out.images);
        }
        result
            .images
            .sort_unstable_by_key(|r| (r.line, r.solver, r.image));
        trim_failure_notes(&mut result.failures);
        result.malformed_examples.sort();
        result.malformed_examples.truncate(MALFORMED_EXAMPLES);
        run.interrupted = !result.complete();
        if let (Some(tx), false) = (&sender, run.interrupted) {
            // The corpus's records are all sent: have them kept before the
            // corpus is reported finished (an error ends the writer thread's
            // acknowledgements, not the run).
            send(tx, index, END_OF_CORPUS, Vec::new());
            while ended.recv().is_ok_and(|c| c < index) {}
        }
        run.corpora.push(result);
        sort_discrepancies(&mut run.discrepancies);
        run.states_created = created.load(Ordering::Relaxed);
        run.finished = SystemTime::now();
        if let Some(p) = progress {
            p.finish_corpus(&run);
        }
        if run.interrupted {
            break;
        }
    }
    drop(sender);
    if let Some(handle) = writer {
        // A failed write of the records loses them, not the run.
        match handle.join() {
            Ok(r) => run.records_error = r.err(),
            Err(_) => return Err(HarnessError::Config("writer thread panicked".into())),
        }
    }
    run.finished = SystemTime::now();
    Ok(run)
}

/// Sorts discrepancies and keeps one per (corpus, line, image, kind): a warm-up
/// finding is repeated by the measured pass, which lists every solver's
/// count, so that one is kept.
pub(crate) fn sort_discrepancies(discrepancies: &mut Vec<Discrepancy>) {
    discrepancies.sort_by(|a, b| {
        (
            &a.corpus,
            a.line,
            a.image,
            &a.kind,
            std::cmp::Reverse(a.counts.len()),
        )
            .cmp(&(
                &b.corpus,
                b.line,
                b.image,
                &b.kind,
                std::cmp::Reverse(b.counts.len()),
            ))
    });
    discrepancies.dedup_by(|later, first| {
        later.corpus == first.corpus
            && later.line == first.line
            && later.image == first.image
            && later.kind == first.kind
    });
}

/// The writer thread: puts batches back in (corpus, chunk) order and hands
/// them to the sink. Keeps draining after a sink error so that workers never
/// block, and returns the first error. The sink is dropped at its first
/// error (a full disk: what it holds in temporary files is freed at once,
/// for the other result files).
fn write_batches(
    rx: Receiver<Batch>,
    sink: Box<dyn RecordSink>,
    names: &[String],
    chunks: &[usize],
    written: &AtomicUsize,
    ended: &std::sync::mpsc::Sender<usize>,
) -> std::io::Result<()> {
    let mut pending: BTreeMap<(usize, usize), Vec<Record>> = BTreeMap::new();
    let (mut corpus, mut seq) = (0usize, 0usize);
    let mut error: Option<std::io::Error> = None;
    // `None` once an error is kept.
    let mut sink = Some(sink);
    let emit = |sink: &mut Option<Box<dyn RecordSink>>,
                records: &[Record],
                corpus: usize,
                error: &mut Option<std::io::Error>| {
        if let Some(s) = sink.as_mut() {
            if let Err(e) = s.write_batch(&names[corpus], records) {
                *error = Some(e);
                *sink = None;
            }
        }
    };
    for batch in rx {
        if batch.seq == END_OF_CORPUS {
            // Every chunk of the corpus was sent before its end: anything
            // still pending of it (or before it) goes out now, in order.
            let rest = pending.split_off(&(batch.corpus + 1, 0));
            for ((c, _), records) in std::mem::replace(&mut pending, rest) {
                emit(&mut sink, &records, c, &mut error);
                written.fetch_add(1, Ordering::Release);
            }
            if corpus <= batch.corpus {
                (corpus, seq) = (batch.corpus + 1, 0);
            }
            if let Some(s) = sink.as_mut() {
                if let Err(e) = s.end_corpus(&names[batch.corpus]) {
                    error = Some(e);
                    sink = None;
                }
            }
            let _ = ended.send(batch.corpus);
            continue;
        }
        pending.insert((batch.corpus, batch.seq), batch.records);
        while corpus < chunks.len() {
            if seq == chunks[corpus] {
                corpus += 1;
                seq = 0;
                continue;
            }
            let Some(records) = pending.remove(&(corpus, seq)) else {
                break;
            };
            emit(&mut sink, &records, corpus, &mut error);
            written.fetch_add(1, Ordering::Release);
            seq += 1;
        }
    }
    // Anything left (only if a worker stopped early): write in order.
    for ((c, _), records) in std::mem::take(&mut pending) {
        emit(&mut sink, &records, c, &mut error);
    }
    if let Some(mut s) = sink {
        s.finish()?;
    }
    error.map_or(Ok(()), Err)
}

/// Sends a batch; a closed channel (writer gone after an error) is ignored.
fn send(sender: &SyncSender<Batch>, corpus: usize, seq: usize, records: Vec<Record>) {
    let _ = sender.send(Batch {
        corpus,
        seq,
        records,
    });
}

#[cfg(test)]
mod tests;
