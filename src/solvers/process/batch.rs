//! Batches: a block of requests in the pipe at once, for a solver that
//! announces it can take them (the word [`BATCH_WORD`] after the version
//! in its header: `dlxbench-protocol 1 +batch my-solver 0.3`).
//!
//! Without it the harness writes one `solve` request, waits for its
//! answer, writes the next: a round trip per puzzle, in which the solver
//! waits for the harness and the harness for the solver (two wake-ups, the
//! pipe both ways), several times the solve itself for a fast solver. With
//! it, the harness writes up to [`ProcessOptions::batch`] requests of the
//! block the schedule hands it ([`Solver::solve_block`]) at once, at most
//! [`MAX_BATCH_BYTES`] of them (so that they always fit in the pipe and the
//! write never waits for the solver), then reads the answers as they come,
//! one line per request, in order. Each request is an ordinary protocol 1
//! `solve` line and each answer an ordinary response: a solver that reads
//! line by line and flushes each answer (as every solver must) takes a
//! batch by announcing it, and nothing else changes. The solver solves
//! the block back to back, as a solver in the harness's own process does,
//! and its own time (`ns=`) of each solve is the time recorded.
//!
//! Every request is still owed its own answer, and the harness reads them
//! one by one, so a batch fails exactly as single requests do, puzzle by
//! puzzle:
//!
//! * the deadline of each puzzle (its time budget) runs from the answer
//!   before it (from the write, for the first): a solver stuck on one
//!   puzzle is killed, that puzzle is the one `timeout`, and the rest of the
//!   batch is sent again to a fresh process;
//! * a crash, an `error` answer or a protocol error fails the puzzle whose
//!   answer was due (the answers already read tell which one), and the rest
//!   of the batch goes to a fresh process;
//! * an `n/a` answer is that puzzle's, and the batch goes on;
//! * the checks of one request at a time hold answer by answer: each line
//!   is bounded by its own request ([`super::max_response_bytes`]), a
//!   previous answer repeated where it does not solve the puzzle is
//!   `stray`, and a line beyond the batch's answers (or before the next
//!   batch) fails the puzzle it follows or precedes.
//!
//! The round trip recorded beside a batched answer is the time from the
//! answer before it (or from the write) to this one, as the harness reads
//! them (it waits for each): the batch's round trips add up to its
//! wall-clock time, and each is the solver's time for that request when
//! the harness keeps up, which the check of own times
//! ([`crate::harness::own_time`]) compares with the own time. Own times are
//! also checked cumulatively: the own times of a batch's first k answers
//! may add up to no more than the time from the write to the k-th answer
//! (`clock` otherwise), which holds however late the harness reads.
//!
//! Reading a batch late. With [`ProcessOptions::sleep_through_batches`]
//! (the isolated host's: its `ns=` is the harness's own reading around the
//! call, nothing to check against round trips), a worker whose next answer
//! is not there yet sleeps through 9/10 of the time the batch's remaining
//! answers are expected to take (the last batch's median own time each;
//! with the next batch written ahead, [`ProcessOptions::pipeline`], all
//! of it, at the last batch's mean),
//! then in doubling naps until an answer is there (never waiting on the
//! pipe: the kernel would wake the worker on the host's core), up to the
//! puzzle's deadline: a few wake-ups a batch instead of one per answer,
//! and the solver's process keeps its core meanwhile. Deadlines and failures are as above (a deadline is
//! found no later: a sleep ends at it); the round trips are not a solver's own per
//! answer any more, which is why a `--solver-cmd` solver, whose own times
//! are checked against them, is read as its answers come. Meanwhile the
//! worker does not preempt on waking ([`NoWakeupPreemption`]): it takes
//! a core when the process there blocks or its slice ends, not in the
//! middle of a timed call.
//!
//! Writing ahead. With [`ProcessOptions::pipeline`] (the isolated host's,
//! for the same reason), the harness writes a block's next batch before
//! it reads the answers of the one in flight: the process finds the next
//! requests waiting when it answers a batch's last, instead of idling
//! while the harness wakes, reads, records and writes (about 200 µs a
//! batch on the 2-core machine of the benchmarks, a quarter of a block of
//! `dlx`'s 12 µs solves). Two batches of at most [`MAX_BATCH_BYTES`] fit
//! in the pipe, so the write still never waits. A failure takes the batch
//! ahead with the process (its puzzles go to the fresh one), and a line
//! after a batch's last answer is a stray only when nothing was written
//! ahead. A solver in its own process is handed its blocks in a row as one
//! ([`crate::harness::join_runs`]): with one solver in the run, a chunk's
//! pass is one call, written ahead batch after batch. Across calls: when
//! the harness shows the next call's block ([`Block::upcoming`]: the next
//! chunk's, with one solver in the run), its first batch is written while
//! the last of this one is answered, so the process does not idle while
//! the worker records a chunk and reads the next (about 190 µs a chunk,
//! a sixth of a `-j1` run of tdoku's 4 µs solves on the 17-clue list).
//! The next call must be that block ([`Block::key`]); a call for any
//! other block, a single request, or a new corpus first retires the
//! process, whose answers nobody will read (a fresh one starts). A
//! process due for replacement gets nothing ahead, and one with a batch
//! ahead is replaced at a later block.
//!
//! Per-process effects. A solver process keeps one memory layout (the
//! kernel's address randomisation draws it once, at `exec`) and its place
//! in the caches for as long as it runs; every time it records comes from
//! that one draw, which the table's interval (a bootstrap over blocks) cannot
//! see. A solver entry can ask for its processes to be replaced every
//! [`ProcessOptions::renew_after`] blocks ([`RENEW_AFTER_BLOCKS`] for an
//! isolated C library: [`crate::solvers::host`]), and no sooner than
//! [`ProcessOptions::renew_cost_factor`] ([`RENEW_COST_FACTOR`]) times its
//! own start-up: the old process's input is
//! closed and it exits on its own, unwaited for (it is reaped at the next
//! replacement, or at the end); a fresh one starts at the next block, a
//! fresh draw, and the harness warms it up first with an untimed solve of
//! that block's last puzzle ([`crate::solvers::Solver::wants_warm_up`]),
//! recorded like any warm-up.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::child::{Child, ReadError};
use super::{failed, max_response_bytes, write_request, ProcessSolver};
use crate::puzzle::Puzzle;
use crate::solvers::{Block, Budget, Failure, Outcome, Solver, Timing, Upcoming};

#[cfg(doc)]
use super::ProcessOptions;

/// The word in a solver's header (after the version) that announces it
/// takes batches.
pub const BATCH_WORD: &str = "+batch";

/// The default most requests in one batch ([`ProcessOptions::batch`]): the
/// schedule's default block.
pub const MAX_BATCH: usize = 64;

/// The most bytes of requests written in one batch (a request is not cut:
/// the one that crosses it is the last). Two of them (a batch read and one
/// written ahead, [`ProcessOptions::pipeline`]) are well under the
/// smallest pipe capacity Linux gives (64 KiB unless memory is short), so
/// that the write never waits for the solver to read.
pub const MAX_BATCH_BYTES: usize = 16 * 1024;

/// The shortest sleep [`ProcessOptions::sleep_through_batches`] takes
/// (a sleep costs a wake-up).
const MIN_SLEEP: Duration = Duration::from_micros(20);

/// The longest nap of [`ProcessOptions::sleep_through_batches`] once the
/// expected time has passed: how late a long solve's answer may be read.
const MAX_SLEEP: Duration = Duration::from_millis(1);

/// The default [`ProcessOptions::renew_after`] of an isolated C library's
/// hosts: a fresh host every this many blocks, at the most often.
pub const RENEW_AFTER_BLOCKS: u32 = 16;

/// The default [`ProcessOptions::renew_cost_factor`]: a process is
/// replaced ([`ProcessOptions::renew_after`]) only once it
/// has run for this many times its own start-up (from starting the command
/// to reading its header). A replacement costs more than that start-up:
/// the old process's exit, the new one's warm-up solve and its first
/// solves in cold caches, none of which is before its header. At 50,
/// replacing hosts cost 3.4% of the wall clock of `c-dlx` on the 17-clue
/// list at `-j2` on the 2-core machine of the benchmarks (hosts starting
/// in about 1.3 ms of CPU); at 100, half as many replacements, the same
/// runs 3.1% faster than at 50 (docs/benchmarks.md).
pub const RENEW_COST_FACTOR: u32 = 100;

/// Whether a header line announces batches: a word [`BATCH_WORD`] after
/// the version.
///
/// ```
/// use dlxbench::solvers::process::announces_batch;
///
/// assert!(announces_batch(b"dlxbench-protocol 1 +batch my-solver 0.3"));
/// assert!(announces_batch(b"dlxbench-protocol 1 my-solver +batch\r"));
/// assert!(!announces_batch(b"dlxbench-protocol 1 my-solver"));
/// assert!(!announces_batch(b"dlxbench-protocol 1 +batched"));
/// assert!(!announces_batch(b"+batch 1"));
/// ```
pub fn announces_batch(header: &[u8]) -> bool {
    announces(header, BATCH_WORD)
}

/// Whether `header` has `word` anywhere after the version.
pub(super) fn announces(header: &[u8], word: &str) -> bool {
    let header = header.strip_suffix(b"\r").unwrap_or(header);
    header
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|w| !w.is_empty())
        .skip(2)
        .any(|w| w == word.as_bytes())
}

/// A batch written ahead of the one being read
/// ([`ProcessOptions::pipeline`]): its requests and puzzles (as
/// [`ProcessSolver`]'s own, with which they are swapped), the puzzles it
/// covers, and when it was written (`None`: nothing in flight).
#[derive(Default)]
pub(super) struct Ahead {
    request: Vec<u8>,
    pending: Vec<(usize, usize, usize)>,
    /// The block index of its first puzzle (or declined request): read only
    /// by `take_ahead`'s `debug_assert` (tests run with debug
    /// assertions), kept because a batch ahead taken for other puzzles than
    /// the next would pin its answers on the wrong puzzles without a sign.
    from: usize,
    /// The block index after its last.
    next: usize,
    written: Option<crate::clock::Instant>,
    /// The [`Block::key`] of the block it belongs to, when that is the next
    /// call's ([`Block::upcoming`]); `None`: the block being solved.
    key: Option<u64>,
}

/// A process being replaced: its input closed, left to exit on its own,
/// reaped (its group killed, if anything of it is left) when the next one
/// retires or this is dropped.
#[derive(Default)]
pub(super) struct Retiring(Option<Child>);

impl Retiring {
    /// Retires `child`, reaping the one retired before.
    fn retire(&mut self, mut child: Child) {
        child.close_input();
        if let Some(old) = self.0.replace(child) {
            old.close();
        }
    }
}

impl Drop for Retiring {
    fn drop(&mut self) {
        if let Some(old) = self.0.take() {
            old.close();
        }
    }
}

impl<P: Puzzle> ProcessSolver<P> {
    /// [`Solver::solve_block`]: batches while the process announced them,
    /// one request at a time otherwise (and for the request that starts a
    /// process, after a failure or a stop, and with `--latency
    /// round-trip`).
    pub(super) fn solve_block_batched(
        &mut self,
        block: &mut dyn Block<P>,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) {
        let n = block.len();
        let mut i = 0;
        // A worker that sleeps through batches wakes a few times a batch,
        // on a core where a process solves: it waits its turn there.
        let _polite = self
            .shared
            .options
            .sleep_through_batches
            .then(NoWakeupPreemption::enter);
        if self.ahead.written.is_some() && self.ahead.key != block.key() {
            // Written ahead for a block that did not come.
            self.drop_ahead();
        }
        self.ahead.key = None;
        if self.child.is_none() && !self.stopped && !self.stop_requested() {
            // Started here, so that a solver that takes batches gets its
            // first one at once.
            if let Some(first) = (0..n).find(|&k| block.puzzle(k).is_some()) {
                if let Err((failure, detail)) = self.start() {
                    self.detail = Some(detail);
                    let (outcome, took) = self.fail(failure);
                    let detail = self.detail.take();
                    block.done(first, &outcome, took, solution, detail);
                    i = first + 1;
                }
            }
        }
        while i < n {
            let options = &self.shared.options;
            let batching = self.batching
                && options.batch > 1
                && !options.round_trip_latency
                && !self.stopped
                && self.child.is_some()
                && !self.stop_requested();
            // A batch written ahead is read whatever came since (a stop).
            if batching || self.ahead.written.is_some() {
                i = self.batch(block, i, limit, budget, solution);
                continue;
            }
            if let Some(puzzle) = block.puzzle(i) {
                let (outcome, took) = self.solve_timed(puzzle, limit, budget, solution);
                let detail = self.detail_of(&outcome);
                block.done(i, &outcome, took, solution, detail);
            }
            i += 1;
        }
        self.renew_if_due(n);
    }

    /// What the harness saw of a failed `outcome` ([`Solver::take_detail`]).
    fn detail_of(&mut self, outcome: &Outcome) -> Option<String> {
        outcome.failure.and_then(|_| self.detail.take())
    }

    /// Counts a block served; when the process has served
    /// [`ProcessOptions::renew_after`] of them and has run for at least
    /// [`ProcessOptions::renew_cost_factor`] times its start-up, retires
    /// it: the next block starts a fresh one, warmed up first
    /// ([`Solver::wants_warm_up`]).
    fn renew_if_due(&mut self, block_len: usize) {
        let due = self.renewal_due(block_len);
        self.blocks = self.blocks.saturating_add(Self::blocks_of(block_len));
        // A process with a batch ahead keeps it: replaced at a later block.
        if due && self.ahead.written.is_none() {
            self.retire();
        }
    }

    /// Whether the running process is to be replaced after a call of
    /// `block_len` puzzles ([`Self::renew_if_due`]).
    fn renewal_due(&self, block_len: usize) -> bool {
        let Some(every) = self.shared.options.renew_after else {
            return false;
        };
        if self.child.is_none() {
            return false;
        }
        let blocks = self.blocks.saturating_add(Self::blocks_of(block_len));
        let factor = self.shared.options.renew_cost_factor;
        let paid_for = self
            .life
            .is_none_or(|(started, start_up)| started.elapsed() >= start_up.saturating_mul(factor));
        blocks >= every.max(1) && paid_for
    }

    /// A call of `block_len` puzzles in blocks of the schedule's default
    /// size: a call may cover several ([`crate::harness::join_runs`]).
    fn blocks_of(block_len: usize) -> u32 {
        u32::try_from(block_len.div_ceil(MAX_BATCH))
            .unwrap_or(u32::MAX)
            .max(1)
    }

    /// Retires the running process (its input closed, left to exit): the
    /// next request starts a fresh one, warmed up first.
    fn retire(&mut self) {
        if let Some(child) = self.child.take() {
            self.retiring.retire(child);
            self.last_response.clear();
            self.renewed = true;
        }
    }

    /// Forgets the batch written ahead for a block that did not come
    /// ([`Block::upcoming`]): its answers would be read as another
    /// block's, so the process that has it is retired.
    pub(super) fn drop_ahead(&mut self) {
        if self.ahead.written.take().is_some() {
            self.retire();
        }
        self.ahead.key = None;
    }

    /// Writes the requests of the puzzles from `from` on (up to the batch's
    /// limits) at once, or takes the batch written ahead from there, and
    /// reads their answers; with [`ProcessOptions::pipeline`], the next
    /// batch is written first. The index of the first puzzle not done (a
    /// failure leaves the rest of the batch to a fresh process).
    // Takes `solve_block`'s arguments, as `send` does: the two steps of one
    // batch, each on what it needs.
    fn batch(
        &mut self,
        block: &mut dyn Block<P>,
        from: usize,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) -> usize {
        let (next, written) = match self.take_ahead(from) {
            Some(taken) => taken,
            None => match self.send(block, from, limit, budget, solution) {
                Ok(sent) => sent,
                Err(resume) => return resume,
            },
        };
        if self.shared.options.pipeline && !self.stop_requested() {
            if next < block.len() {
                self.write_ahead(block, next, limit, budget, solution);
            } else if !self.renewal_due(block.len()) {
                if let Some(upcoming) = block.upcoming() {
                    self.write_upcoming(upcoming, limit, budget);
                }
            }
        }
        match self.read_batch(block, limit, budget, solution, written) {
            Some(resume) => {
                // Failed: what was written ahead went with the process.
                self.ahead.written = None;
                resume
            }
            None => next,
        }
    }

    /// Fills [`Self::request`] and [`Self::pending`] with the requests of
    /// the puzzles from `from` on, up to the batch's limits (a puzzle with
    /// no request is done as declined); the index after the last.
    fn fill(
        &mut self,
        block: &mut dyn Block<P>,
        from: usize,
        limit: u64,
        solution: &mut P,
    ) -> usize {
        let n = block.len();
        let most = self.shared.options.batch;
        self.request.clear();
        self.pending.clear();
        let mut i = from;
        while i < n && self.pending.len() < most && self.request.len() < MAX_BATCH_BYTES {
            let Some(puzzle) = block.puzzle(i) else {
                i += 1;
                continue;
            };
            let start = self.request.len();
            if write_request(&mut self.request, puzzle, limit) {
                self.pending.push((i, start, self.request.len() - 1));
            } else {
                block.done(
                    i,
                    &failed(Failure::Declined),
                    Duration::ZERO,
                    solution,
                    None,
                );
            }
            i += 1;
        }
        i
    }

    /// Fills and writes the batch from `from` (nothing in flight): the
    /// index after it and when it was written; `Err` with the index to go
    /// on from when the first puzzle failed (output before the batch, or
    /// the write).
    // Takes `solve_block`'s arguments, as `batch` and `write_ahead` do: each step of a batch on
    // what it needs.
    fn send(
        &mut self,
        block: &mut dyn Block<P>,
        from: usize,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) -> Result<(usize, crate::clock::Instant), usize> {
        let i = self.fill(block, from, limit, solution);
        let Some(&(first, a, b)) = self.pending.first() else {
            return Err(i);
        };
        self.current = a..b;
        if let Some(stray) = self.unsolicited() {
            // Output after the last answer, before this batch: as one
            // request at a time, the next puzzle fails and nothing of it
            // is read as an answer.
            let detail = format!("{stray} came after the previous answer, before this request");
            let (outcome, took) = self.fail_with(Failure::Stray, detail);
            block.done(first, &outcome, took, solution, self.detail.take());
            return Err(first + 1);
        }
        let (written, wrote) = self.write_batch(budget);
        if let Err(e) = wrote {
            let max = max_response_bytes(&self.request[a..=b]);
            let (outcome, took) = self.read_failed(e, max, written.elapsed());
            let detail = self.detail_of(&outcome);
            block.done(first, &outcome, took, solution, detail);
            return Err(first + 1);
        }
        Ok((i, written))
    }

    /// Writes [`Self::request`] to the process, the write given `budget`'s
    /// time and the stop flag: when it started, and how it went.
    fn write_batch(&mut self, budget: Budget) -> (crate::clock::Instant, Result<(), ReadError>) {
        let stop = self.shared.options.stop;
        let deadline = budget.max_time.map(|t| std::time::Instant::now() + t);
        let written = crate::clock::Instant::now();
        let child = self.child.as_mut().expect("batching with a process");
        (written, child.write_all(&self.request, deadline, stop))
    }

    /// [`ProcessOptions::pipeline`]: fills the batch from `from` and writes
    /// it while the one before is being answered (two batches of at most
    /// [`MAX_BATCH_BYTES`] fit in the pipe: the write does not wait for the
    /// solver). A write that fails leaves nothing ahead: the batch being
    /// read finds the failure, or the next one is written again.
    // Takes `solve_block`'s arguments, as `batch` and `send` do.
    fn write_ahead(
        &mut self,
        block: &mut dyn Block<P>,
        from: usize,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) {
        std::mem::swap(&mut self.request, &mut self.ahead.request);
        std::mem::swap(&mut self.pending, &mut self.ahead.pending);
        let next = self.fill(block, from, limit, solution);
        self.ahead.written = match self.pending.is_empty() {
            true => None,
            false => match self.write_batch(budget) {
                (written, Ok(())) => Some(written),
                (_, Err(_)) => None,
            },
        };
        (self.ahead.from, self.ahead.next) = (from, next);
        std::mem::swap(&mut self.request, &mut self.ahead.request);
        std::mem::swap(&mut self.pending, &mut self.ahead.pending);
    }

    /// [`Self::write_ahead`] for the first batch of the next call's block
    /// ([`Block::upcoming`]). Its requests end before the first puzzle
    /// without one (that block declines it when it comes).
    fn write_upcoming(&mut self, upcoming: &mut dyn Upcoming<P>, limit: u64, budget: Budget) {
        std::mem::swap(&mut self.request, &mut self.ahead.request);
        std::mem::swap(&mut self.pending, &mut self.ahead.pending);
        self.request.clear();
        self.pending.clear();
        let (n, most) = (upcoming.len(), self.shared.options.batch);
        let mut i = 0;
        while i < n && self.pending.len() < most && self.request.len() < MAX_BATCH_BYTES {
            if let Some(puzzle) = upcoming.puzzle(i) {
                let start = self.request.len();
                if !write_request(&mut self.request, puzzle, limit) {
                    break;
                }
                self.pending.push((i, start, self.request.len() - 1));
            }
            i += 1;
        }
        self.ahead.written = match self.pending.is_empty() {
            true => None,
            false => match self.write_batch(budget) {
                (written, Ok(())) => Some(written),
                (_, Err(_)) => None,
            },
        };
        (self.ahead.from, self.ahead.next) = (0, i);
        self.ahead.key = self.ahead.written.map(|_| upcoming.key());
        std::mem::swap(&mut self.request, &mut self.ahead.request);
        std::mem::swap(&mut self.pending, &mut self.ahead.pending);
    }

    /// The batch written ahead from `from`, made the one to read: the index
    /// after it and when it was written. `None` when nothing is in flight.
    fn take_ahead(&mut self, from: usize) -> Option<(usize, crate::clock::Instant)> {
        let written = self.ahead.written.take()?;
        debug_assert_eq!(
            self.ahead.from, from,
            "the batch ahead starts where this one ends"
        );
        std::mem::swap(&mut self.request, &mut self.ahead.request);
        std::mem::swap(&mut self.pending, &mut self.ahead.pending);
        Some((self.ahead.next, written))
    }

    /// Reads the answers of the batch in [`Self::pending`], written at
    /// `written`, each done as it comes. `None` when all were read; the
    /// index to go on from after a failure (the process is gone).
    fn read_batch(
        &mut self,
        block: &mut dyn Block<P>,
        limit: u64,
        budget: Budget,
        solution: &mut P,
        written: crate::clock::Instant,
    ) -> Option<usize> {
        let stop = self.shared.options.stop;
        let (mut since, mut own_ns) = (written, 0u64);
        // The open group of answers found waiting (its first line).
        let mut group = None;
        self.own_times.clear();
        for k in 0..self.pending.len() {
            let (index, a, b) = self.pending[k];
            self.current = a..b;
            let max = max_response_bytes(&self.request[a..=b]);
            // Each puzzle's deadline runs from the answer before it.
            let deadline = budget.max_time.map(|t| std::time::Instant::now() + t);
            self.sleep_through(self.pending.len() - k, deadline);
            let child = self.child.as_mut().expect("running");
            // Asked only where own times are checked (a poll each).
            let waiting = !self.shared.options.sleep_through_batches && child.has_output();
            let read = child.read_line(max, deadline, stop);
            let now = crate::clock::Instant::now();
            let round_trip = now.duration_since(since);
            since = now;
            let (mut outcome, mut took) = match read {
                Ok(range) => {
                    let puzzle = block.puzzle(index).expect("a puzzle sent");
                    let so_far = nanos(now.duration_since(written));
                    let most_own = so_far.saturating_sub(own_ns);
                    self.answer(range, puzzle, limit, solution, nanos(round_trip), most_own)
                }
                Err(e) => self.read_failed(e, max, round_trip),
            };
            if let Timing::Own { group: of, .. } = &mut outcome.timing {
                // Found waiting: its round trip is too short and the one
                // before too long; the group closes with the next answer
                // the harness waited for.
                *of = match waiting {
                    true => Some(*group.get_or_insert(block.line(index))),
                    false => group.take(),
                };
                own_ns = own_ns.saturating_add(nanos(took));
                self.own_times.push(nanos(took));
            }
            // The last answer, and nothing written ahead: a line after it
            // is a stray (with a batch ahead, it is that batch's answer).
            let last = k + 1 == self.pending.len() && self.ahead.written.is_none();
            if last && outcome.failure.is_none_or(|f| f == Failure::Declined) {
                if let Some(stray) = self.unsolicited() {
                    // A line beyond the batch's answers.
                    let detail = format!("{stray} followed the answer");
                    (outcome, took) = self.fail_with(Failure::Stray, detail);
                }
            }
            let detail = self.detail_of(&outcome);
            block.done(index, &outcome, took, solution, detail);
            if self.child.is_none() {
                // Failed: the rest of the batch goes to a fresh process.
                return Some(index + 1);
            }
        }
        if !self.own_times.is_empty() {
            // The mean, for a batch with the next one written ahead: its
            // answers are read once it is expected to be done, and reading
            // late idles nothing, the process having the next batch.
            let sum = self
                .own_times
                .iter()
                .fold(0u64, |a, &t| a.saturating_add(t));
            self.answer_mean_ns = sum / self.own_times.len() as u64;
            // The median otherwise, not the mean: one slow puzzle in a
            // batch would have the next batch's sleeps outlast it, the
            // solver idle.
            let middle = self.own_times.len() / 2;
            self.answer_ns = *self.own_times.select_nth_unstable(middle).1;
        }
        None
    }

    /// With [`ProcessOptions::sleep_through_batches`], when the next of
    /// the batch's `remaining` answers is not there yet: sleeps until it
    /// is (or the deadline passes, or the run stops), first through 9/10
    /// of the time they are expected to take (each the last batch's median
    /// own time), then in naps doubling from [`MIN_SLEEP`] to
    /// [`MAX_SLEEP`]. With the next batch written ahead
    /// ([`ProcessOptions::pipeline`]), first through all of it, each
    /// answer the last batch's mean own time: the process has the next
    /// batch meanwhile, so a late read costs it nothing, and a batch is
    /// mostly read in one or two wake-ups (with 9/10 of the median, 4 or 5
    /// on `dlx`'s 17-clue solves, whose mean is well above their median;
    /// each wake-up takes a core from a host at `-j2`). A batch then costs
    /// the harness a few wake-ups rather than one per answer, and the
    /// solver has its core to itself. The
    /// worker never waits on the pipe itself here: the kernel wakes a
    /// pipe's reader on the writer's core (a "sync" wake-up, right for a
    /// writer about to wait for the reply), which would put the worker on
    /// the host's core, in the middle of the host's next timed call.
    fn sleep_through(&mut self, remaining: usize, deadline: Option<std::time::Instant>) {
        if !self.shared.options.sleep_through_batches || self.answer_ns == 0 {
            return;
        }
        let stop = self.shared.options.stop;
        let Some(child) = self.child.as_mut() else {
            return;
        };
        let first = match self.ahead.written {
            Some(_) => (remaining as u64).saturating_mul(self.answer_mean_ns),
            None => (remaining as u64).saturating_mul(self.answer_ns) / 10 * 9,
        };
        let mut nap = Duration::from_nanos(first).max(MIN_SLEEP);
        precise_sleeps();
        while !child.has_output() && !stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            // Its standard error kept flowing (and in the log) meanwhile.
            child.drain_stderr();
            let mut this = nap.min(super::POLL_SLICE);
            if let Some(d) = deadline {
                let left = d.saturating_duration_since(std::time::Instant::now());
                if left.is_zero() {
                    return;
                }
                this = this.min(left);
            }
            std::thread::sleep(this);
            nap = (nap * 2).clamp(MIN_SLEEP, MAX_SLEEP);
        }
    }
}

/// Lets this thread's sleeps end within a microsecond of their time
/// rather than Linux's default 50 µs timer slack (once per thread): a
/// sleep that ends late, after the batch's last answer, leaves the
/// solver's process idle.
fn precise_sleeps() {
    #[cfg(target_os = "linux")]
    {
        thread_local! {
            static SET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        if !SET.replace(true) {
            // SAFETY: PR_SET_TIMERSLACK takes a value and changes only this
            // thread's timer slack.
            unsafe {
                libc::prctl(libc::PR_SET_TIMERSLACK, 1_000 as libc::c_ulong);
            }
        }
    }
}

/// While this lives, the calling thread runs under Linux's `SCHED_BATCH`
/// policy (from `SCHED_OTHER`, restored when it drops): when it wakes,
/// it does not preempt the thread running on the core it wakes on, but
/// runs when that thread blocks or its slice ends. For a worker that
/// sleeps through an isolated solver's batches: with as many processes
/// solving as cores (`-j2` on two cores), each wake-up of a worker would
/// otherwise land in the middle of a solver's timed call and lengthen it
/// by the worker's burst (reading a batch's answers, recording them,
/// writing the next batch: tens of microseconds). The worker's own work
/// is the same, done when a core is free of a call. Elsewhere, and where
/// the policy cannot be set, nothing changes.
struct NoWakeupPreemption {
    set: bool,
}

impl NoWakeupPreemption {
    fn enter() -> NoWakeupPreemption {
        NoWakeupPreemption {
            set: set_policy(libc::SCHED_OTHER, libc::SCHED_BATCH),
        }
    }
}

impl Drop for NoWakeupPreemption {
    fn drop(&mut self) {
        if self.set {
            set_policy(libc::SCHED_BATCH, libc::SCHED_OTHER);
        }
    }
}

/// Moves the calling thread from scheduling policy `from` to `to` (priority
/// 0); true when it was under `from` and now is under `to`.
fn set_policy(from: libc::c_int, to: libc::c_int) -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: pid 0 is the calling thread; a sched_param on the stack.
        unsafe {
            if libc::sched_getscheduler(0) != from {
                return false;
            }
            let param = libc::sched_param { sched_priority: 0 };
            libc::sched_setscheduler(0, to, &param) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (from, to);
        false
    }
}

/// `d` in nanoseconds, saturating.
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::super::{entry, CommandSpec, ProcessOptions};
    use crate::puzzle::Puzzle;
    use crate::solvers::{Block, Budget, Failure, Outcome, Solver, Upcoming};
    use crate::sudoku::{self, Grid, ParseOptions};

    /// Puzzles whose first cell is `1`..`9` (the rest blank): a script
    /// can tell them apart by their first character.
    fn puzzles(n: usize) -> Vec<Grid> {
        (0..n)
            .map(|k| {
                let text = format!("{}{}", k % 9 + 1, ".".repeat(80));
                let mut g = Grid::blank();
                sudoku::parse_line_into(text.as_bytes(), ParseOptions::default(), &mut g).unwrap();
                g
            })
            .collect()
    }

    /// A block that records what each puzzle got; with a key, and the
    /// block that comes after it when it shows it ([`Block::upcoming`]).
    struct Recorded {
        puzzles: Vec<Grid>,
        done: Vec<Option<(Outcome, Duration)>>,
        key: Option<u64>,
        next: Option<Next>,
        /// The worker thread's scheduling policy at each answer.
        policies: Vec<libc::c_int>,
    }

    /// The puzzles of the next block, and its key.
    struct Next(u64, Vec<Grid>);

    impl Upcoming<Grid> for Next {
        fn key(&self) -> u64 {
            self.0
        }

        fn len(&self) -> usize {
            self.1.len()
        }

        fn puzzle(&mut self, index: usize) -> Option<&Grid> {
            Some(&self.1[index])
        }
    }

    impl Recorded {
        fn new(n: usize) -> Self {
            Recorded {
                puzzles: puzzles(n),
                done: vec![None; n],
                key: None,
                next: None,
                policies: Vec::new(),
            }
        }

        /// Block `key` of `n` puzzles, showing the next, `next`, of as many.
        fn keyed(n: usize, key: u64, next: Option<u64>) -> Self {
            Recorded {
                key: Some(key),
                next: next.map(|k| Next(k, puzzles(n))),
                ..Recorded::new(n)
            }
        }

        fn failures(&self) -> Vec<Option<Failure>> {
            self.done.iter().map(|d| d.unwrap().0.failure).collect()
        }

        /// Each answered puzzle's `guesses=` (the script's tag for it).
        fn guesses(&self) -> Vec<u64> {
            self.done.iter().map(|d| d.unwrap().0.guesses).collect()
        }
    }

    impl Block<Grid> for Recorded {
        fn len(&self) -> usize {
            self.puzzles.len()
        }

        fn puzzle(&mut self, index: usize) -> Option<&Grid> {
            Some(&self.puzzles[index])
        }

        fn line(&self, index: usize) -> u64 {
            index as u64 + 1
        }

        fn done(
            &mut self,
            index: usize,
            outcome: &Outcome,
            took: Duration,
            _: &Grid,
            _: Option<String>,
        ) {
            assert!(self.done[index].is_none(), "puzzle {index} reported twice");
            self.done[index] = Some((*outcome, took));
            // SAFETY: no arguments but the calling thread.
            self.policies.push(unsafe { libc::sched_getscheduler(0) });
        }

        fn key(&self) -> Option<u64> {
            self.key
        }

        fn upcoming(&mut self) -> Option<&mut dyn Upcoming<Grid>> {
            self.next.as_mut().map(|n| n as &mut dyn Upcoming<Grid>)
        }
    }

    const SECOND: Budget = Budget {
        max_nodes: u64::MAX,
        max_time: Some(Duration::from_secs(1)),
    };

    fn bash(script: &str, options: ProcessOptions) -> Box<dyn Solver<Grid>> {
        let spec = CommandSpec::new("t", "bash", ["-c", script]);
        entry::<Grid>(&spec, options).make()
    }

    /// Answers `0 - guesses=D ns=1000` where D is the puzzle's first
    /// digit; `before` runs first for each request (`$n` counts this
    /// process's requests from 1).
    fn tagging(header: &str, before: &str) -> String {
        format!(
            "echo {header}; n=0; while read cmd limit p; do n=$((n+1)); {before} \
             echo \"0 - guesses=${{p:0:1}} ns=1000\"; done"
        )
    }

    fn tags(n: usize) -> Vec<u64> {
        (0..n).map(|k| (k % 9 + 1) as u64).collect()
    }

    #[test]
    fn a_solver_that_announces_batches_gets_a_block_in_the_pipe_at_once() {
        // Reads three requests before answering any: one request at a time
        // would wait for ever (until the deadline).
        let script = "echo dlxbench-protocol 1 +batch; \
             while read a; do read b; read c; for r in \"$a\" \"$b\" \"$c\"; do \
             set -- $r; echo \"0 - guesses=${3:0:1} ns=1000\"; done; done";
        let mut s = bash(script, ProcessOptions::default());
        for _ in 0..2 {
            let mut block = Recorded::new(12);
            s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
            assert_eq!(block.failures(), vec![None; 12]);
            assert_eq!(block.guesses(), tags(12));
            for d in &block.done {
                assert_eq!(d.unwrap().1, Duration::from_nanos(1000), "its own time");
            }
        }
    }

    /// Each answered puzzle's [`Timing::Own`] group.
    fn groups(block: &Recorded) -> Vec<Option<u64>> {
        block
            .done
            .iter()
            .map(|d| match d.unwrap().0.timing {
                crate::solvers::Timing::Own { group, .. } => group,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn answers_found_waiting_are_grouped_with_the_next_one_waited_for() {
        // Reads the whole batch, then writes every answer in one write:
        // the harness waits for the first; the rest are there already.
        let script = "echo dlxbench-protocol 1 +batch; \
             while true; do out=''; for i in 1 2 3 4 5 6; do read cmd limit p || exit; \
             out+=\"0 - guesses=${p:0:1} ns=1000\"$'\\n'; done; sleep 0.05; \
             printf '%s' \"$out\"; done";
        let mut s = bash(script, ProcessOptions::default());
        let mut block = Recorded::new(6);
        s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
        assert_eq!(block.failures(), vec![None; 6]);
        // Lines 2 to 6 (the Recorded block's lines are index + 1), with
        // no answer waited for after them: a group of their own.
        assert_eq!(
            groups(&block),
            [None, Some(2), Some(2), Some(2), Some(2), Some(2)]
        );
        // Answered one by one, 10 ms apart: each waited for, alone.
        let mut s = bash(
            &tagging("dlxbench-protocol 1 +batch", "sleep 0.01;"),
            ProcessOptions::default(),
        );
        let mut block = Recorded::new(6);
        s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
        assert_eq!(groups(&block), [None; 6]);
    }

    #[test]
    fn a_protocol_1_solver_without_the_word_gets_one_request_at_a_time() {
        // Answers `error pipelined` when a second request is already
        // waiting while it answers one.
        let script = |header: &str| {
            format!(
                "echo {header}; while read cmd limit p; do sleep 0.01; \
                 if read -t 0; then echo 'error pipelined'; \
                 else echo \"0 - guesses=${{p:0:1}} ns=1000\"; fi; done"
            )
        };
        let mut s = bash(
            &script("dlxbench-protocol 1 plain"),
            ProcessOptions::default(),
        );
        let mut block = Recorded::new(10);
        s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
        assert_eq!(block.failures(), vec![None; 10]);
        assert_eq!(block.guesses(), tags(10));
        // Read as the answers come: the worker's policy untouched.
        assert_eq!(block.policies, vec![libc::SCHED_OTHER; 10]);
        // The same script announcing batches sees them (the test can fail).
        let mut s = bash(
            &script("dlxbench-protocol 1 +batch"),
            ProcessOptions {
                max_failures_in_a_row: 0,
                ..ProcessOptions::default()
            },
        );
        let mut block = Recorded::new(10);
        s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
        assert!(block.failures().contains(&Some(Failure::Error)));
    }

    #[test]
    fn batched_and_one_at_a_time_give_the_same_answers() {
        let script = tagging("dlxbench-protocol 1 +batch", "");
        let run = |batch: usize| {
            let mut s = bash(
                &script,
                ProcessOptions {
                    batch,
                    ..ProcessOptions::default()
                },
            );
            let mut all = Vec::new();
            for _ in 0..3 {
                let mut block = Recorded::new(70);
                s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
                all.extend(block.done.iter().map(|d| {
                    let (o, t) = d.unwrap();
                    (o.failure, o.solutions, o.guesses, t)
                }));
            }
            all
        };
        let batched = run(64);
        assert_eq!(batched, run(1));
        assert_eq!(batched.len(), 210);
        assert!(batched.iter().all(|a| a.0.is_none()));
    }

    /// A script whose first process fails on its `at`th request by
    /// `how`; the processes after it answer every request.
    fn failing_once(dir: &std::path::Path, at: usize, how: &str) -> String {
        let mark = dir.join("failed");
        tagging(
            "dlxbench-protocol 1 +batch",
            &format!(
                "if [ $n -eq {at} ] && [ ! -e {m} ]; then touch {m}; {how}; fi;",
                m = mark.display()
            ),
        )
    }

    /// Runs a block of 20 through `script`: what each puzzle got.
    fn block_of_20(script: &str, budget: Budget) -> Recorded {
        block_of_20_with(script, budget, ProcessOptions::default())
    }

    /// Batches of 4, each written before the one before is read.
    fn written_ahead() -> ProcessOptions {
        ProcessOptions {
            batch: 4,
            pipeline: true,
            ..ProcessOptions::default()
        }
    }

    /// [`block_of_20`] with `options`.
    fn block_of_20_with(script: &str, budget: Budget, options: ProcessOptions) -> Recorded {
        let mut s = bash(script, options);
        let mut block = Recorded::new(20);
        s.solve_block(&mut block, 2, budget, &mut Grid::blank());
        block
    }

    #[test]
    fn a_failure_mid_block_costs_exactly_the_puzzle_in_flight() {
        for (how, failure) in [
            ("exit 3", Failure::Exit(3)),
            ("kill -SEGV $$", Failure::Signal(11)),
            ("echo 'error overflow wrote past'", Failure::Overflow),
            ("echo 'not an answer'", Failure::Response),
            // A line longer than any answer to its request: cut off there.
            (
                "head -c 9000 /dev/zero | tr '\\0' 7; echo",
                Failure::TooLong,
            ),
            // An own time longer than the batch has taken so far.
            (
                "echo \"0 - guesses=${p:0:1} ns=9000000000\"; continue",
                Failure::Clock,
            ),
        ] {
            // In one batch; and in batches of 4, the next written ahead
            // (puzzles 8 to 11 in the pipe when puzzle 6 fails).
            for options in [ProcessOptions::default(), written_ahead()] {
                let dir = tempfile::tempdir().unwrap();
                // The 7th request: puzzle 6.
                let script = failing_once(dir.path(), 7, how);
                let block = block_of_20_with(&script, SECOND, options);
                let mut expected = vec![None; 20];
                expected[6] = Some(failure);
                let ahead = options.pipeline;
                assert_eq!(block.failures(), expected, "{how}, ahead {ahead}");
                // Every other answer is its own puzzle's.
                for (k, d) in block.done.iter().enumerate() {
                    if k != 6 {
                        let guesses = d.unwrap().0.guesses;
                        assert_eq!(guesses, tags(20)[k], "{how}, ahead {ahead}: puzzle {k}");
                    }
                }
            }
        }
    }

    /// A solver that answers a batch of 4 only once it has read the next
    /// batch's first request, but for the last batch of the `total`
    /// requests it is sent.
    fn answers_once_the_next_batch_is_in(total: usize) -> String {
        format!(
            "echo dlxbench-protocol 1 +batch; read a; n=1; \
             while [ -n \"$a\" ]; do read b; read c; read d; n=$((n+3)); next=; \
             if [ $n -lt {total} ]; then read next; n=$((n+1)); fi; \
             for r in \"$a\" \"$b\" \"$c\" \"$d\"; do set -- $r; \
             echo \"0 - guesses=${{3:0:1}} ns=1000\"; done; a=$next; done"
        )
    }

    #[test]
    fn the_next_batch_is_in_the_pipe_before_the_one_before_is_answered() {
        // Answers a batch of 4 only once it has read the next batch's first
        // request (but for the block's last batch): written ahead, every
        // puzzle is answered at once; read first, the block's first puzzle
        // waits for its deadline.
        let script = &answers_once_the_next_batch_is_in(20);
        let budget = Budget::UNLIMITED.with_time(Duration::from_millis(500));
        let t = Instant::now();
        let block = block_of_20_with(script, budget, written_ahead());
        assert_eq!(block.failures(), vec![None; 20]);
        assert_eq!(block.guesses(), tags(20));
        assert!(
            t.elapsed() < Duration::from_millis(400),
            "{:?}",
            t.elapsed()
        );
        let one_by_one = ProcessOptions {
            pipeline: false,
            ..written_ahead()
        };
        let block = block_of_20_with(script, budget, one_by_one);
        assert_eq!(block.failures()[0], Some(Failure::Deadline));
    }

    #[test]
    fn the_next_blocks_first_batch_is_in_the_pipe_before_this_ones_last_is_answered() {
        // As above, over two blocks of 20: the first block's last batch is
        // answered only once the second block's first request is in.
        let script = &answers_once_the_next_batch_is_in(40);
        let budget = Budget::UNLIMITED.with_time(Duration::from_millis(500));
        let two_blocks = |shown: bool| {
            let mut s = bash(script, written_ahead());
            let mut first = Recorded::keyed(20, 1, shown.then_some(2));
            s.solve_block(&mut first, 2, budget, &mut Grid::blank());
            let mut second = Recorded::keyed(20, 2, None);
            s.solve_block(&mut second, 2, budget, &mut Grid::blank());
            (first, second)
        };
        let t = Instant::now();
        let (first, second) = two_blocks(true);
        for block in [&first, &second] {
            assert_eq!(block.failures(), vec![None; 20]);
            assert_eq!(block.guesses(), tags(20));
        }
        assert!(
            t.elapsed() < Duration::from_millis(400),
            "{:?}",
            t.elapsed()
        );
        // Not shown the second block, the first one's last batch waits
        // for its deadline.
        let (first, _) = two_blocks(false);
        assert_eq!(first.failures()[16], Some(Failure::Deadline));
    }

    #[test]
    fn a_batch_written_ahead_for_a_block_that_does_not_come_is_never_read_as_anothers() {
        // Each process logs its requests; block 1 shows block 2, whose
        // first batch goes to the process, but block 3 comes (a stop, a
        // new corpus), then a single request, then block 4 after a
        // block 3 that showed it.
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("requests");
        let script = tagging(
            "dlxbench-protocol 1 +batch",
            &format!("echo $$ >> {};", log.display()),
        );
        let mut s = bash(&script, written_ahead());
        let mut first = Recorded::keyed(8, 1, Some(2));
        s.solve_block(&mut first, 2, SECOND, &mut Grid::blank());
        let mut third = Recorded::keyed(8, 3, Some(4));
        s.solve_block(&mut third, 2, SECOND, &mut Grid::blank());
        let mut one = Grid::blank();
        let lone = puzzles(6)[5].clone();
        let outcome = s.solve(&lone, 2, SECOND, &mut one);
        let mut fifth = Recorded::keyed(8, 5, Some(6));
        s.solve_block(&mut fifth, 2, SECOND, &mut Grid::blank());
        s.start_corpus();
        let mut sixth = Recorded::keyed(8, 6, None);
        s.solve_block(&mut sixth, 2, SECOND, &mut Grid::blank());
        for block in [&first, &third, &fifth, &sixth] {
            assert_eq!(block.failures(), vec![None; 8]);
            assert_eq!(block.guesses(), tags(8), "every answer its own puzzle's");
        }
        assert_eq!((outcome.failure, outcome.guesses), (None, 6));
        drop(s);
        // Four processes: the first three each retired with a batch ahead
        // nobody read.
        let text = std::fs::read_to_string(&log).unwrap();
        let mut pids: Vec<&str> = text.lines().collect();
        pids.sort_unstable();
        pids.dedup();
        assert_eq!(pids.len(), 4, "{text}");
    }

    #[test]
    fn a_line_after_the_blocks_last_answer_is_a_stray_with_batches_written_ahead() {
        // The 20th answer followed by a debug line: between batches it
        // would be read as the next batch's answer. After the block's last
        // answer it fails that puzzle, or the next block's first when it
        // came late.
        let script = tagging(
            "dlxbench-protocol 1 +batch",
            "if [ $n -eq 20 ]; then echo \"0 - guesses=${p:0:1} ns=1000\"; echo debug; continue; fi;",
        );
        let mut s = bash(&script, written_ahead());
        let (mut failures, mut guesses) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            let mut block = Recorded::new(20);
            s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
            failures.extend(block.failures());
            guesses.extend(block.done.iter().map(|d| d.unwrap().0.guesses));
        }
        let failed: Vec<usize> = (0..40).filter(|&k| failures[k].is_some()).collect();
        // Seen after the last answer (a stray: puzzle 19), or, when it
        // arrived after that look, before or as the next block's first
        // answer (a stray or not a response: puzzle 20). A stray at 19
        // restarts the solver before the second block, and the fresh
        // process writes its own debug line after its 20th answer, the
        // second block's last (39): a stray again, unless it came after
        // the block ended. Restarted at 20, it answers 19 puzzles only.
        let stray = |k: usize| failures[k] == Some(Failure::Stray);
        let ok = match failed.as_slice() {
            [19] => stray(19),
            [19, 39] => stray(19) && stray(39),
            [20] => stray(20) || failures[20] == Some(Failure::Response),
            _ => false,
        };
        assert!(ok, "{failures:?}");
        // Every other answer is its own puzzle's.
        for k in (0..40).filter(|&k| !failed.contains(&k)) {
            assert_eq!(guesses[k], tags(20)[k % 20], "puzzle {k}");
        }
    }

    #[test]
    fn sleeping_through_batches_changes_no_answer_and_no_failure() {
        // Answers take 5 ms and say 2 ms: the harness sleeps through most of
        // each block after the first; request 27 (the second block's puzzle
        // 6) hangs for 3 s, past its 300 ms budget.
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            "echo dlxbench-protocol 1 +batch; n=0; while read cmd limit p; do \
             n=$((n+1)); sleep 0.005; \
             if [ $n -eq 27 ] && [ ! -e {m} ]; then touch {m}; sleep 3; fi; \
             echo \"0 - guesses=${{p:0:1}} ns=2000000\"; done",
            m = dir.path().join("hung").display()
        );
        let options = ProcessOptions {
            sleep_through_batches: true,
            ..ProcessOptions::default()
        };
        let mut s = bash(&script, options);
        let budget = Budget::UNLIMITED.with_time(Duration::from_millis(300));
        let t = Instant::now();
        for round in 0..3 {
            let mut block = Recorded::new(20);
            s.solve_block(&mut block, 2, budget, &mut Grid::blank());
            // Without wake-up preemption during the call, as before after it.
            assert_eq!(block.policies, vec![libc::SCHED_BATCH; 20]);
            // SAFETY: no arguments but the calling thread.
            assert_eq!(unsafe { libc::sched_getscheduler(0) }, libc::SCHED_OTHER);
            let mut expected = vec![None; 20];
            if round == 1 {
                expected[6] = Some(Failure::Deadline);
            }
            assert_eq!(block.failures(), expected, "block {round}");
            for (k, d) in block.done.iter().enumerate() {
                if expected[k].is_none() {
                    let (outcome, took) = d.unwrap();
                    assert_eq!(outcome.guesses, tags(20)[k], "block {round}, puzzle {k}");
                    assert_eq!(took, Duration::from_millis(2), "its own time");
                }
            }
        }
        // The hang cost its budget, not its 3 s.
        assert!(
            t.elapsed() < Duration::from_millis(2500),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn a_puzzle_past_its_deadline_is_the_failed_one_and_the_rest_goes_to_a_fresh_process() {
        let budget = Budget::UNLIMITED.with_time(Duration::from_millis(300));
        // Each answer takes 100 ms: the block takes longer than one
        // puzzle's budget, which counts from the answer before.
        let slow = tagging("dlxbench-protocol 1 +batch", "sleep 0.1;");
        let t = Instant::now();
        let block = block_of_20(&slow, budget);
        assert_eq!(block.failures(), vec![None; 20]);
        assert!(t.elapsed() > Duration::from_millis(1900));
        // Also when puzzle 4 starts a batch written ahead.
        for options in [ProcessOptions::default(), written_ahead()] {
            let dir = tempfile::tempdir().unwrap();
            let hangs = failing_once(dir.path(), 5, "sleep 30");
            let t = Instant::now();
            let block = block_of_20_with(&hangs, budget, options);
            let mut expected = vec![None; 20];
            expected[4] = Some(Failure::Deadline);
            assert_eq!(block.failures(), expected);
            assert_eq!(block.guesses()[5..], tags(20)[5..]);
            assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        }
    }

    #[test]
    fn processes_are_replaced_after_their_blocks_and_warmed_up() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("requests");
        // Each request logs the process's id and the puzzle's first digit.
        let script = tagging(
            "dlxbench-protocol 1 +batch",
            &format!("echo $$ ${{p:0:1}} >> {};", log.display()),
        );
        let mut s = bash(
            &script,
            ProcessOptions {
                renew_after: Some(2),
                renew_cost_factor: 0,
                pipeline: true,
                ..ProcessOptions::default()
            },
        );
        for k in 0..5 {
            // Each block shown by the one before: a process due for
            // replacement gets nothing ahead.
            let mut block = Recorded::keyed(4, k, (k < 4).then_some(k + 1));
            if s.wants_warm_up() {
                // As the harness does: an untimed solve of the last puzzle.
                let last = block.puzzles[3].clone();
                let _ = s.solve(&last, 2, SECOND, &mut Grid::blank());
            }
            s.solve_block(&mut block, 2, SECOND, &mut Grid::blank());
            assert_eq!(block.failures(), vec![None; 4]);
            assert_eq!(block.guesses(), tags(4));
        }
        drop(s);
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(' ').unwrap()).collect();
        let mut pids: Vec<&str> = lines.iter().map(|l| l.0).collect();
        pids.dedup();
        // Blocks 1-2, 3-4, 5: three processes; the second and third begin
        // with an untimed solve of their first block's last puzzle (4).
        assert_eq!(pids.len(), 3, "{text}");
        let digits: Vec<&str> = lines.iter().map(|l| l.1).collect();
        let block = ["1", "2", "3", "4"];
        let expected: Vec<&str> =
            [&block[..], &block, &["4"], &block, &block, &["4"], &block].concat();
        assert_eq!(digits, expected);
        // No process is left behind.
        for pid in pids {
            assert!(
                !std::path::Path::new(&format!("/proc/{pid}")).exists(),
                "{pid} still runs"
            );
        }
    }
}
