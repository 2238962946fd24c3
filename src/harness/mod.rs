//! The batch runner behind `dlxbench bench`.
//!
//! [`run`] takes opened [`Corpus`]es and a [`Config`] (the solvers to run,
//! injected as [`SolverInfo`]s so tests can add their own), and returns a
//! [`RunResult`] with per corpus x solver statistics, merged latency
//! histograms and every problem found.
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
//!   the `solve` call with [`Instant`]. Validation of a returned solution
//!   ([`crate::sudoku::is_solution_of`], [`crate::hanidoku::is_solution_of`])
//!   and the cross-check of the solvers' capped solution counts happen
//!   after the timed call.
//! * A run holds one [`PuzzleKind`] ([`Config::kind`]): the worker loop is
//!   generic over the [`Puzzle`] type (Sudoku [`Grid`]s or Hanidoku
//!   [`Board`]s), which brings its parser, rule check and symmetries, and
//!   every solver of the run must solve that kind.
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
//!
//! [`Instant`]: std::time::Instant

mod kind;
pub mod permute;
mod stats;
mod worker;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

pub use kind::{MakeSolver, Puzzle, PuzzleKind, RunSolver};
pub use stats::{SolverStats, HIST_SIGFIG};

use crate::corpus::Corpus;
use crate::hanidoku::Board;
use crate::solvers::{Budget, SolverInfo};
use crate::sudoku::{Grid, ParseOptions};

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
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The kind of puzzle the corpora hold.
    pub kind: PuzzleKind,
    /// The solvers, in report order; all of them for [`Config::kind`].
    pub solvers: Vec<RunSolver>,
    /// One node budget per solver.
    pub budgets: Vec<Budget>,
    /// Worker threads (0: all cores).
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
    /// Parser options.
    pub parse: ParseOptions,
}

impl Config {
    /// Defaults for `solvers` (Sudoku or Hanidoku ones: the kind follows):
    /// mode `unique`, each solver's [`SolverInfo::default_budget`] (none
    /// except [`crate::solvers::naive::DEFAULT_BUDGET`] for `naive`), all
    /// cores, one pass.
    pub fn new<P: Puzzle>(solvers: Vec<SolverInfo<P>>) -> Self {
        let budgets = solvers.iter().map(|s| s.default_budget).collect();
        let solvers: Vec<RunSolver> = solvers.into_iter().map(P::run_solver).collect();
        Config {
            kind: P::KIND,
            solvers,
            budgets,
            threads: 0,
            mode: Mode::Unique,
            limit: 2,
            warmup: 0,
            passes: 1,
            shuffle: None,
            permute: None,
            parse: ParseOptions::default(),
        }
    }
}

/// The outcome of one puzzle for one solver, as written to `puzzles.csv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PuzzleStatus {
    /// A solution was found (mode `first`: uniqueness not checked).
    Solved,
    /// Exactly one solution.
    Unique,
    /// Two or more solutions (at least the limit, in mode `count`).
    Multiple,
    /// No solution.
    NoSolution,
    /// The node budget ran out.
    Budget,
    /// The solver returned a grid that is not a solution of the puzzle.
    Invalid,
}

impl PuzzleStatus {
    /// Lower-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            PuzzleStatus::Solved => "solved",
            PuzzleStatus::Unique => "unique",
            PuzzleStatus::Multiple => "multiple",
            PuzzleStatus::NoSolution => "none",
            PuzzleStatus::Budget => "budget",
            PuzzleStatus::Invalid => "invalid",
        }
    }

    /// The status named `name` (as [`PuzzleStatus::as_str`] writes it).
    pub fn from_name(name: &str) -> Option<PuzzleStatus> {
        Some(match name {
            "solved" => PuzzleStatus::Solved,
            "unique" => PuzzleStatus::Unique,
            "multiple" => PuzzleStatus::Multiple,
            "none" => PuzzleStatus::NoSolution,
            "budget" => PuzzleStatus::Budget,
            "invalid" => PuzzleStatus::Invalid,
            _ => return None,
        })
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
    pub status: PuzzleStatus,
    /// Solve time in nanoseconds (minimum over passes).
    pub ns: u64,
    /// Solutions found (capped by the limit).
    pub solutions: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Branch points.
    pub guesses: u64,
    /// Dancing Links link updates, for solvers that count them
    /// ([`crate::solvers::Outcome::updates`]).
    pub updates: Option<u64>,
}

/// Receives per-puzzle records, one chunk at a time, in chunk order, on a
/// writer thread of its own.
pub trait RecordSink: Send {
    /// Writes one chunk's records of the corpus named `corpus`.
    fn write_batch(&mut self, corpus: &str, records: &[Record]) -> std::io::Result<()>;
    /// Called once after the last batch.
    fn finish(&mut self) -> std::io::Result<()>;
}

/// Progress callbacks (the command line draws a bar with them).
pub trait Progress: Sync {
    /// A corpus of about `lines` lines starts.
    fn start_corpus(&self, name: &str, lines: u64);
    /// `lines` more lines are done.
    fn advance(&self, lines: u64);
    /// The corpus is done.
    fn finish_corpus(&self);
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
pub enum ProblemKind {
    /// Solvers returned different capped solution counts.
    Disagreement,
    /// The named solver returned a grid that is not a solution.
    InvalidSolution(&'static str),
}

/// A disagreement or an invalid solution.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Problem {
    /// Corpus name.
    pub corpus: String,
    /// 1-based line.
    pub line: u64,
    /// What went wrong.
    pub kind: ProblemKind,
    /// Every solver's capped solution count and status for the puzzle.
    pub counts: Vec<(&'static str, u64, PuzzleStatus)>,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            ProblemKind::Disagreement => {
                write!(f, "{} line {}: solvers disagree:", self.corpus, self.line)?
            }
            ProblemKind::InvalidSolution(s) => write!(
                f,
                "{} line {}: {s} returned an invalid solution:",
                self.corpus, self.line
            )?,
        }
        for (i, (name, count, status)) in self.counts.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{name}={count} ({})", status.as_str())?;
        }
        Ok(())
    }
}

/// Results for one corpus.
#[derive(Debug, Clone)]
pub struct CorpusResult {
    /// Corpus name.
    pub name: String,
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
}

/// Everything a run found.
#[derive(Debug)]
pub struct RunResult {
    /// Per corpus.
    pub corpora: Vec<CorpusResult>,
    /// Disagreements and invalid solutions, sorted.
    pub problems: Vec<Problem>,
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
}

impl CorpusResult {
    /// Reader throughput in MB/s (10^6 bytes) per worker thread: corpus
    /// bytes over the time spent finding lines and parsing them.
    pub fn reader_mb_per_s(&self) -> f64 {
        match self.scan_ns + self.parse_ns {
            0 => 0.0,
            ns => self.bytes as f64 * 1e3 / ns as f64,
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

    /// Whether the run failed (exit status 1): a disagreement or an invalid
    /// solution; with `strict`, also malformed lines or unexpected
    /// unsolvable puzzles.
    pub fn failed(&self, strict: bool) -> bool {
        !self.problems.is_empty()
            || (strict && (self.has_malformed() || self.has_unexpected_unsolvable()))
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

/// One chunk's records on their way to the writer thread.
struct Batch {
    corpus: usize,
    seq: usize,
    records: Vec<Record>,
}

/// Median cost of one `Instant::now()` pair, in nanoseconds.
pub fn clock_overhead_ns() -> f64 {
    // 2,001 pairs: a stable median in about 50 µs.
    let mut samples = [0u32; 2_001];
    for s in samples.iter_mut() {
        let t = Instant::now();
        *s = t.elapsed().as_nanos() as u32;
    }
    samples.sort_unstable();
    f64::from(samples[samples.len() / 2])
}

/// Runs every corpus through every solver.
pub fn run(
    corpora: &[Corpus],
    config: &Config,
    sink: Option<Box<dyn RecordSink>>,
    progress: Option<&dyn Progress>,
) -> Result<RunResult, HarnessError> {
    if let Some(s) = config.solvers.iter().find(|s| s.kind() != config.kind) {
        return Err(HarnessError::Config(format!(
            "solver `{}` solves {}, but the run is {}",
            s.name,
            s.kind(),
            config.kind
        )));
    }
    match config.kind {
        PuzzleKind::Sudoku => run_kind::<Grid>(corpora, config, sink, progress),
        PuzzleKind::Hanidoku => run_kind::<Board>(corpora, config, sink, progress),
    }
}

/// [`run`] for puzzles of type `P`.
fn run_kind<P: Puzzle>(
    corpora: &[Corpus],
    config: &Config,
    sink: Option<Box<dyn RecordSink>>,
    progress: Option<&dyn Progress>,
) -> Result<RunResult, HarnessError> {
    if config.solvers.len() != config.budgets.len() {
        return Err(HarnessError::Config(
            "one budget per solver is needed".into(),
        ));
    }
    if config.solvers.len() > usize::from(u16::MAX) {
        return Err(HarnessError::Config("too many solvers".into()));
    }
    let started = SystemTime::now();
    let clock_overhead_ns = clock_overhead_ns();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .thread_name(|i| format!("dlxbench-worker-{i}"))
        .build()?;
    let threads = pool.current_num_threads();
    let created = AtomicU64::new(0);
    let states: Vec<Mutex<Option<worker::Worker<P>>>> =
        (0..threads).map(|_| Mutex::new(None)).collect();

    // Batches written so far (over all corpora), for the reorder window.
    let written = Arc::new(AtomicUsize::new(0));
    let window = 2 * threads + 2;
    let (sender, writer) = match sink {
        Some(sink) => {
            let (tx, rx) = sync_channel::<Batch>(window);
            let names: Vec<String> = corpora.iter().map(|c| c.name().to_string()).collect();
            let chunks: Vec<usize> = corpora.iter().map(Corpus::chunk_count).collect();
            let written = written.clone();
            let handle = std::thread::Builder::new()
                .name("dlxbench-writer".into())
                .spawn(move || write_batches(rx, sink, &names, &chunks, &written))?;
            (Some(tx), Some(handle))
        }
        None => (None, None),
    };

    let mut base = 0usize;
    let mut results = Vec::with_capacity(corpora.len());
    let mut problems = Vec::new();
    for (index, corpus) in corpora.iter().enumerate() {
        let firsts = corpus.chunk_first_lines();
        let chunks = corpus.chunk_count();
        let order = config.shuffle.map(|seed| {
            let mut order: Vec<usize> = (0..chunks).collect();
            permute::SplitMix::new(seed).shuffle(&mut order);
            order
        });
        let lines = firsts[chunks] - 1;
        if let Some(p) = progress {
            p.start_corpus(corpus.name(), lines);
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
            progress,
        };
        let t0 = Instant::now();
        let outputs = pool.broadcast(|ctx| {
            let mut slot = states[ctx.index()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let w = slot.get_or_insert_with(|| {
                created.fetch_add(config.solvers.len() as u64, Ordering::Relaxed);
                worker::Worker::new(config)
            });
            w.run_corpus(&job)
        });
        let wall = t0.elapsed();
        base += chunks;
        if let Some(p) = progress {
            p.finish_corpus();
        }
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
            solvers: config
                .solvers
                .iter()
                .map(|s| SolverStats::new(s.name))
                .collect(),
            changed_on_disk: corpus.changed_on_disk(),
        };
        for out in outputs {
            result.puzzles += out.puzzles;
            result.malformed += out.malformed;
            result.malformed_examples.extend(out.malformed_examples);
            result.parse_ns += out.parse_ns;
            result.scan_ns += out.scan_ns;
            for (merged, s) in result.solvers.iter_mut().zip(&out.stats) {
                merged.merge(s);
            }
            problems.extend(out.problems);
        }
        result.malformed_examples.sort();
        result.malformed_examples.truncate(MALFORMED_EXAMPLES);
        results.push(result);
    }
    drop(sender);
    if let Some(handle) = writer {
        match handle.join() {
            Ok(r) => r?,
            Err(_) => return Err(HarnessError::Config("writer thread panicked".into())),
        }
    }
    // One entry per (corpus, line, kind): a warm-up finding is repeated by
    // the measured pass, which lists every solver's count, so keep that.
    problems.sort_by(|a, b| {
        (
            &a.corpus,
            a.line,
            &a.kind,
            std::cmp::Reverse(a.counts.len()),
        )
            .cmp(&(
                &b.corpus,
                b.line,
                &b.kind,
                std::cmp::Reverse(b.counts.len()),
            ))
    });
    problems.dedup_by(|later, first| {
        later.corpus == first.corpus && later.line == first.line && later.kind == first.kind
    });
    Ok(RunResult {
        corpora: results,
        problems,
        states_created: created.load(Ordering::Relaxed),
        threads,
        clock_overhead_ns,
        started,
        finished: SystemTime::now(),
    })
}

/// The writer thread: puts batches back in (corpus, chunk) order and hands
/// them to the sink. Keeps draining after a sink error so that workers never
/// block, and returns the first error.
fn write_batches(
    rx: Receiver<Batch>,
    mut sink: Box<dyn RecordSink>,
    names: &[String],
    chunks: &[usize],
    written: &AtomicUsize,
) -> std::io::Result<()> {
    let mut pending: BTreeMap<(usize, usize), Vec<Record>> = BTreeMap::new();
    let (mut corpus, mut seq) = (0usize, 0usize);
    let mut error: Option<std::io::Error> = None;
    let mut emit = |records: &[Record], corpus: usize, error: &mut Option<std::io::Error>| {
        if error.is_none() {
            if let Err(e) = sink.write_batch(&names[corpus], records) {
                *error = Some(e);
            }
        }
    };
    for batch in rx {
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
            emit(&records, corpus, &mut error);
            written.fetch_add(1, Ordering::Release);
            seq += 1;
        }
    }
    // Anything left (only if a worker stopped early): write in order.
    for ((c, _), records) in std::mem::take(&mut pending) {
        emit(&records, c, &mut error);
    }
    if error.is_none() {
        sink.finish()?;
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
