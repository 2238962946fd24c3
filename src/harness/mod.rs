//! The batch runner behind `dlxbench bench`.
//!
//! [`run`] takes opened [`Corpus`]es and a [`Setup`]: a [`Lineup`] (the
//! solvers, as [`SolverEntry`]s of any [`crate::solvers::SolverSet`], so
//! callers can add their own, and the parse options) and the [`Config`]
//! made from it (mode, budgets, threads, passes), and returns a [`RunResult`] with per corpus x solver
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

mod config;
mod discrepancy;
mod estimate;
mod failure;
pub mod images;
pub mod own_time;
mod paired;
mod pool;
mod progress;
mod quantiles;
mod record;
mod result;
mod schedule;
mod stats;
pub mod unit_cost;
pub mod virtual_best;
mod worker;
mod writer;

use std::sync::atomic::AtomicUsize;
use std::time::SystemTime;

pub use config::{Config, Lineup, Mode, Setup};
pub(crate) use discrepancy::sort_discrepancies;
pub use discrepancy::{cross_check, Discrepancy, DiscrepancyKind};
pub use estimate::{estimate, Estimate};
pub(crate) use failure::trim_failure_notes;
pub use failure::{FailureNote, FAILURE_EXAMPLES};
pub use paired::{
    block_bootstrap, quantile, t_for, z_for, BlockSum, NoRatio, PairedTimes, Speed, SpeedRatio,
    MIN_COMMON, SPEED_CONFIDENCE, SPEED_RESAMPLES, SPEED_SEED,
};
use pool::{Measured, Workers};
pub use progress::Progress;
pub use record::{Record, RecordSink};
pub use result::{CorpusResult, Malformed, RunResult, MALFORMED_EXAMPLES};
pub use schedule::{join_runs, Schedule, Step};
pub use stats::{SolverStats, HIST_SIGFIG};
pub use unit_cost::UnitCostTally;
pub use virtual_best::VirtualBestTally;
use writer::Records;

use crate::corpus::Corpus;
use crate::puzzle::Puzzle;
use crate::rng::SplitMix;

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

/// Runs every corpus through every solver of `setup`'s lineup with its
/// configuration, step by step: starts the workers and the writer thread of the per-puzzle records,
/// measures the corpora one by one, each told to `progress` as it ends
/// (until it asks to stop), and waits for the records to be written.
pub fn run<P: Puzzle>(
    corpora: &[Corpus],
    setup: &Setup<P>,
    sink: Option<Box<dyn RecordSink>>,
    progress: Option<&dyn Progress>,
) -> Result<RunResult, HarnessError> {
    let (config, lineup) = (setup.config(), setup.lineup());
    // A record names its solver in 16 bits.
    if lineup.solvers.len() > usize::from(u16::MAX) {
        return Err(HarnessError::Config("too many solvers".into()));
    }
    let started = SystemTime::now();
    // Also calibrates the clock, before anything is timed.
    let clock_overhead_ns = crate::clock::overhead_ns();
    let workers = Workers::start(corpora, config)?;
    let records = Records::start(sink, corpora, workers.threads())?;
    let mut run = RunResult::starting(workers.threads(), clock_overhead_ns, started);
    let runner = Runner {
        corpora,
        config,
        lineup,
        progress,
        workers,
        records,
    };
    // The batches of the corpora before the current one.
    let mut base = 0;
    for (index, corpus) in corpora.iter().enumerate() {
        if progress.is_some_and(|p| p.stop_requested()) {
            run.interrupted = true;
            break;
        }
        let (result, discrepancies) = runner.measure(index, base);
        base += corpus.chunk_count();
        runner.finish_corpus(&mut run, index, result, discrepancies);
        if run.interrupted {
            break;
        }
    }
    run.records_error = runner.records.finish()?;
    run.finished = SystemTime::now();
    Ok(run)
}

/// A run under way: what the steps of each corpus share.
struct Runner<'a, P: Puzzle> {
    corpora: &'a [Corpus],
    config: &'a Config,
    lineup: &'a Lineup<P>,
    progress: Option<&'a dyn Progress>,
    workers: Workers<P>,
    records: Records,
}

impl<P: Puzzle> Runner<'_, P> {
    /// Measures corpus `index` (`base`: the batches of the corpora before
    /// it) on every worker, in the shuffled chunk order with `shuffle`,
    /// and gathers what the workers found.
    fn measure(&self, index: usize, base: usize) -> (CorpusResult, Vec<Discrepancy>) {
        let corpus = &self.corpora[index];
        let firsts = corpus.chunk_first_lines();
        let chunks = corpus.chunk_count();
        let order = self.config.shuffle.map(|seed| {
            let mut order: Vec<usize> = (0..chunks).collect();
            SplitMix::new(seed).shuffle(&mut order);
            order
        });
        let lines = firsts[chunks] - 1;
        if let Some(p) = self.progress {
            p.start_corpus(index, self.corpora.len(), corpus.name(), lines);
        }
        let job = worker::Job {
            corpus,
            index,
            firsts: &firsts,
            order: order.as_deref(),
            next: AtomicUsize::new(0),
            sender: self.records.ordered(base),
            config: self.config,
            lineup: self.lineup,
            progress: self.progress,
        };
        let measured = self.workers.measure(&job, self.lineup);
        gather(corpus, lines, self.config, measured)
    }

    /// Adds corpus `index`'s `result` and `discrepancies` to `run`; when
    /// it ran in full, has its records kept first; then tells the progress.
    fn finish_corpus(
        &self,
        run: &mut RunResult,
        index: usize,
        result: CorpusResult,
        discrepancies: Vec<Discrepancy>,
    ) {
        run.interrupted = !result.complete();
        if !run.interrupted {
            self.records.end_corpus(index);
        }
        run.corpora.push(result);
        run.discrepancies.extend(discrepancies);
        sort_discrepancies(&mut run.discrepancies);
        run.states_created = self.workers.created();
        run.finished = SystemTime::now();
        if let Some(p) = self.progress {
            p.finish_corpus(run);
        }
    }
}

/// The result of `corpus` (of `lines` lines) from what the workers
/// `measured`, and the discrepancies they found.
fn gather(
    corpus: &Corpus,
    lines: u64,
    config: &Config,
    measured: Measured,
) -> (CorpusResult, Vec<Discrepancy>) {
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
        wall: measured.wall,
        solvers: measured.solvers,
        changed_on_disk: corpus.changed_on_disk(),
        workers: 0,
        lines_done: 0,
        failures: Vec::new(),
        paired: measured.paired,
        recorded_speeds: None,
        speed_cache: std::sync::OnceLock::new(),
        round_trip_floor_ns: config.round_trip_floor_ns,
        images: Vec::new(),
    };
    let mut discrepancies = Vec::new();
    for out in measured.outputs {
        result.puzzles += out.puzzles;
        result.malformed += out.malformed;
        result.malformed_examples.extend(out.malformed_examples);
        result.parse_ns += out.parse_ns;
        result.scan_ns += out.scan_ns;
        result.lines_done += out.lines_done;
        result.workers += usize::from(out.chunks > 0);
        discrepancies.extend(out.discrepancies);
        result.failures.extend(out.failures);
        result.images.extend(out.images);
    }
    result
        .images
        .sort_unstable_by_key(|r| (r.line, r.solver, r.image));
    trim_failure_notes(&mut result.failures);
    result.malformed_examples.sort();
    result.malformed_examples.truncate(MALFORMED_EXAMPLES);
    (result, discrepancies)
}

#[cfg(test)]
mod tests;
