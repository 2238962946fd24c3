//! The worker threads of a run: a rayon pool, and each thread's
//! [`Worker`] state, created the first time the thread runs and kept over
//! the corpora.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::worker::{Job, Output, Worker};
use super::{Config, HarnessError, Lineup, PairedTimes, SolverStats};
use crate::corpus::Corpus;
use crate::puzzle::Puzzle;

/// The pool and its workers' states.
pub(super) struct Workers<P: Puzzle> {
    pool: rayon::ThreadPool,
    /// One per thread of the pool.
    states: Vec<Mutex<Option<Worker<P>>>>,
    /// Solver states created ([`super::RunResult::states_created`]).
    created: AtomicU64,
}

/// What the workers measured of one corpus.
pub(super) struct Measured {
    /// Each worker's output.
    pub outputs: Vec<Output>,
    /// The workers' statistics, merged, per solver.
    pub solvers: Vec<SolverStats>,
    /// The workers' paired times, merged.
    pub paired: PairedTimes,
    /// Wall-clock time of the corpus, warm-up included.
    pub wall: Duration,
}

impl<P: Puzzle> Workers<P> {
    /// A pool of `config.threads` threads (0: all cores), but no more than
    /// the largest of `corpora` has chunks: an idle worker only competes
    /// for the cores (on a one-chunk corpus `-j 64` measured 30x slower
    /// solves than `-j 1`).
    pub(super) fn start(corpora: &[Corpus], config: &Config) -> Result<Self, HarnessError> {
        let asked = match config.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let chunks = corpora.iter().map(Corpus::chunk_count).max().unwrap_or(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(asked.min(chunks.max(1)))
            .thread_name(|i| format!("dlxbench-worker-{i}"))
            .build()?;
        let states = (0..pool.current_num_threads())
            .map(|_| Mutex::new(None))
            .collect();
        Ok(Workers {
            pool,
            states,
            created: AtomicU64::new(0),
        })
    }

    /// The pool's threads.
    pub(super) fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Solver states created so far: threads x solvers once every thread
    /// ran.
    pub(super) fn created(&self) -> u64 {
        self.created.load(Ordering::Relaxed)
    }

    /// Runs `job` (one corpus) on every thread of the pool, each taking
    /// chunks until none is left, and merges what they measured.
    pub(super) fn measure(&self, job: &Job<'_, P>, lineup: &Lineup<P>) -> Measured {
        let merged = Mutex::new(
            lineup
                .solvers
                .iter()
                .map(|s| SolverStats::new(s.name()))
                .collect::<Vec<_>>(),
        );
        let paired = Mutex::new(PairedTimes::new(
            lineup.solvers.len(),
            job.config.schedule.block,
        ));
        let t0 = Instant::now();
        let outputs = self.pool.broadcast(|ctx| {
            let mut slot = self.states[ctx.index()]
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            let w = slot.get_or_insert_with(|| {
                self.created
                    .fetch_add(lineup.solvers.len() as u64, Ordering::Relaxed);
                Worker::new(lineup)
            });
            let out = w.run_corpus(job);
            w.merge_stats(&mut merged.lock().unwrap_or_else(|e| e.into_inner()));
            w.merge_paired(&mut paired.lock().unwrap_or_else(|e| e.into_inner()));
            out
        });
        Measured {
            outputs,
            wall: t0.elapsed(),
            solvers: merged.into_inner().unwrap_or_else(|e| e.into_inner()),
            paired: paired.into_inner().unwrap_or_else(|e| e.into_inner()),
        }
    }
}
