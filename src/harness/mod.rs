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

mod config;
mod discrepancy;
mod estimate;
mod failure;
pub mod images;
pub mod own_time;
mod paired;
mod progress;
mod quantiles;
mod record;
mod result;
mod schedule;
mod stats;
pub mod virtual_best;
mod worker;
mod writer;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

pub use config::{Config, Lineup, Mode};
pub(crate) use discrepancy::sort_discrepancies;
pub use discrepancy::{cross_check, Discrepancy, DiscrepancyKind};
pub use estimate::{estimate, Estimate};
pub(crate) use failure::trim_failure_notes;
pub use failure::{FailureNote, FAILURE_EXAMPLES};
pub use paired::{
    block_bootstrap, quantile, t_for, z_for, BlockSum, NoRatio, PairedTimes, Speed, SpeedRatio,
    MIN_COMMON, SPEED_CONFIDENCE, SPEED_RESAMPLES, SPEED_SEED,
};
pub use progress::Progress;
pub use record::{Record, RecordSink};
pub use result::{CorpusResult, Malformed, RunResult, MALFORMED_EXAMPLES};
pub use schedule::{Schedule, Step};
pub use stats::{SolverStats, HIST_SIGFIG};
pub use virtual_best::VirtualBestTally;
use writer::{send, write_batches, Batch, END_OF_CORPUS};

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

#[cfg(test)]
mod tests;
