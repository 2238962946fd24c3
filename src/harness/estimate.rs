//! How long a run will take, estimated before it starts from a timed
//! sample of its puzzles.
//!
//! The sample is spread over each corpus (puzzles at evenly spaced
//! places, since corpora are often sorted by difficulty) and solved by every
//! solver with the run's limit and budgets, round-robin over the corpora,
//! until a time allowance is spent. Each corpus's solve time is then its
//! line count times the mean sampled time per solver, shared by the workers
//! that corpus will have. Solve times of hard corpora have long tails, so a
//! sample of dozens of puzzles gives the order of magnitude, not a promise:
//! the progress display refines it as the run goes.

use std::time::{Duration, Instant};

use super::{Lineup, Setup};
use crate::corpus::{count_newlines, Corpus};
use crate::puzzle::Puzzle;

/// Puzzles sampled per corpus, at most.
const SAMPLE: usize = 64;
/// Bytes read from a sampling point to find a readable puzzle line.
const READ_AHEAD: usize = 16 * 1024;

/// A run's expected duration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Expected wall time of the solving (parsing and writing excluded).
    pub wall: Duration,
    /// Solves timed to make the estimate.
    pub solves: u64,
    /// Time spent making it.
    pub spent: Duration,
    /// False when some corpus and solver went unsampled (the time ran out
    /// first): `wall` is then a lower bound.
    pub complete: bool,
}

impl std::fmt::Display for Estimate {
    /// `about 9 min (from 192 sampled solves)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.wall.as_secs_f64();
        let amount = if s < 90.0 {
            format!("{:.0} s", s.max(1.0))
        } else if s < 90.0 * 60.0 {
            format!("{:.0} min", s / 60.0)
        } else {
            format!("{:.1} h", s / 3600.0)
        };
        let (how, unsampled) = match self.complete {
            true => ("about", ""),
            false => ("at least", "; some corpora not sampled"),
        };
        write!(
            f,
            "{how} {amount} (from {} sampled solves{unsampled})",
            self.solves
        )
    }
}

/// Estimates the solving time of `corpora` under `setup`, spending about
/// `allowance` on it: more to give every corpus and solver one sampled
/// solve, up to ten times `allowance` (and the solve in progress, which its
/// budget bounds); past that, the estimate is a lower bound. `None` when
/// no corpus has a readable puzzle.
pub fn estimate<P: Puzzle>(
    corpora: &[Corpus],
    setup: &Setup<P>,
    allowance: Duration,
) -> Option<Estimate> {
    let (config, lineup) = (setup.config(), setup.lineup());
    let started = Instant::now();
    let samples: Vec<Vec<P>> = corpora.iter().map(|c| sample(c, lineup)).collect();
    let mut solvers: Vec<_> = lineup.solvers.iter().map(|s| s.make()).collect();
    let mut solution = P::blank();
    // Total sampled time and count, per corpus and solver.
    let mut sums = vec![vec![(Duration::ZERO, 0u64); solvers.len()]; corpora.len()];
    let rounds = samples.iter().map(Vec::len).max().unwrap_or(0);
    let mut solves = 0;
    'sampling: for round in 0..rounds {
        for (c, puzzles) in samples.iter().enumerate() {
            let Some(puzzle) = puzzles.get(round) else {
                continue;
            };
            for (i, solver) in solvers.iter_mut().enumerate() {
                if !solver.accepts(puzzle) {
                    // Not run in the run either: a sample that costs nothing.
                    sums[c][i].1 += 1;
                    continue;
                }
                let t = Instant::now();
                solver.solve(puzzle, config.limit, config.budgets()[i], &mut solution);
                let sum = &mut sums[c][i];
                sum.0 += t.elapsed();
                sum.1 += 1;
                solves += 1;
                let spent = started.elapsed();
                if spent >= allowance && (round > 0 || spent >= 10 * allowance) {
                    break 'sampling;
                }
            }
        }
    }
    let threads = match config.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut wall = 0.0;
    let mut complete = true;
    for ((corpus, sums), sample) in corpora.iter().zip(&sums).zip(&samples) {
        if sample.is_empty() {
            // Nothing readable: the run will find no puzzle here either.
            continue;
        }
        let shards = config.shard.map_or(1, |s| s.count());
        let lines = count_newlines(corpus.bytes()).max(1) as f64 / f64::from(shards);
        let mut per_line = 0.0;
        for &(total, n) in sums {
            if n == 0 {
                complete = false;
                continue;
            }
            per_line += total.as_secs_f64() / n as f64;
        }
        let workers = threads.min(corpus.chunk_count().max(1)) as f64;
        // Every pass of every symmetry image (`images`) solves the line.
        let images = match config.permute {
            Some(_) => config.images.max(1),
            None => 1,
        };
        wall += per_line * lines * f64::from(config.passes.max(1) * images) / workers;
    }
    if samples.iter().all(Vec::is_empty) {
        return None;
    }
    Some(Estimate {
        wall: Duration::from_secs_f64(wall),
        solves,
        spent: started.elapsed(),
        complete,
    })
}

/// Up to [`SAMPLE`] readable puzzles at evenly spaced places in `corpus`
/// (the first puzzle line at or after each of [`SAMPLE`] evenly spaced byte
/// offsets), in an order that spreads any prefix of the sample over the
/// whole corpus.
fn sample<P: Puzzle>(corpus: &Corpus, lineup: &Lineup<P>) -> Vec<P> {
    let bytes = corpus.bytes();
    let mut out = Vec::with_capacity(SAMPLE);
    let mut puzzle = P::blank();
    let mut starts = Vec::with_capacity(SAMPLE);
    for s in 0..SAMPLE {
        // 37 is coprime with 64: a permutation that strides the corpus.
        let at = (s * 37 % SAMPLE) * bytes.len() / SAMPLE;
        let start = corpus.line_start_at(at);
        if start == bytes.len() {
            continue;
        }
        // A small corpus has fewer lines than sampling points.
        if starts.contains(&start) {
            continue;
        }
        starts.push(start);
        let range = start..corpus.line_start_at(start + READ_AHEAD);
        if corpus
            .lines(range.clone(), 1)
            .any(|l| P::parse_line(l.text, lineup.options, &mut puzzle).is_ok())
        {
            out.push(puzzle.clone());
        }
        corpus.release(range);
    }
    out
}
