//! One worker thread's state and loop.

use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::images::{self, ImageRow};
use super::paired::PairedTimes;
use super::stats::SolverStats;
use super::writer::{send, Ordered};
use super::{
    Config, Discrepancy, DiscrepancyKind, FailureNote, Lineup, Malformed, Progress, Record,
    MALFORMED_EXAMPLES,
};
use crate::clock::Instant;
use crate::corpus::Corpus;
use crate::puzzle::{LineError, Puzzle};
use crate::rng::SplitMix;
use crate::solvers::{Block, Budget, Failure, Outcome, Solver, Status, Upcoming};

/// What all workers share while running one corpus.
pub(super) struct Job<'a, P: Puzzle> {
    pub corpus: &'a Corpus,
    pub index: usize,
    /// First line number of each chunk (plus one past the end).
    pub firsts: &'a [u64],
    /// Chunk order when shuffled.
    pub order: Option<&'a [usize]>,
    /// Next position in the chunk order.
    pub next: AtomicUsize,
    pub sender: Option<Ordered<'a>>,
    pub config: &'a Config,
    pub lineup: &'a Lineup<P>,
    pub progress: Option<&'a dyn Progress>,
}

/// A worker's results for one corpus.
pub(super) struct Output {
    pub puzzles: u64,
    pub malformed: u64,
    pub malformed_examples: Vec<Malformed>,
    pub parse_ns: u64,
    pub scan_ns: u64,
    /// Chunks this worker ran, and their lines.
    pub chunks: u64,
    pub lines_done: u64,
    pub discrepancies: Vec<Discrepancy>,
    /// Failed solves ([`super::CorpusResult::failures`]), trimmed.
    pub failures: Vec<FailureNote>,
    /// Every image's solves, with `images` above 1
    /// ([`super::CorpusResult::images`]).
    pub images: Vec<ImageRow>,
}

/// A puzzle line of the current chunk.
#[derive(Clone, Copy)]
struct LineRef {
    start: usize,
    end: usize,
    number: u64,
}

/// A parsed puzzle of the current chunk: where it came from; the puzzle
/// itself is in `Worker::grids` at the same index.
#[derive(Clone, Copy)]
struct Parsed {
    number: u64,
    offset: u64,
}

/// A chunk read ahead ([`Worker::reads_ahead`]): where it is in the run,
/// its lines, puzzles and malformed lines as the worker's own, with which
/// they are swapped, and whether the run's one solver accepts each puzzle.
struct ReadAhead<P> {
    /// Its position in the run order and its index; `None`: none read.
    chunk: Option<(usize, usize)>,
    lines: Vec<LineRef>,
    parsed: Vec<Parsed>,
    grids: Vec<P>,
    malformed: u64,
    examples: Vec<Malformed>,
    accepted: Vec<bool>,
    /// A puzzle's symmetry image (with `permute`).
    image: P,
}

/// Takes the next chunk of the run order: its position and its index;
/// `None` when none is left. The writer's window is waited for when the
/// chunk is about to run, not here: a worker waiting here for the window
/// with a chunk read ahead and not run could hold back the chunk the
/// window waits for.
fn claim<P: Puzzle>(job: &Job<'_, P>) -> Option<(usize, usize)> {
    let seq = job.next.fetch_add(1, Ordering::Relaxed);
    (seq < job.firsts.len() - 1).then(|| (seq, job.order.map_or(seq, |o| o[seq])))
}

/// Whether the run is asked to stop.
fn stop_requested<P: Puzzle>(job: &Job<'_, P>) -> bool {
    job.progress.is_some_and(|p| p.stop_requested())
}

/// The [`Block::key`] of a chunk's blocks: the corpus and the chunk's
/// position in the run order.
fn chunk_key(corpus: usize, seq: usize) -> u64 {
    ((corpus as u64) << 32) | seq as u64
}

/// State owned by one worker thread for the whole run, for puzzles of
/// type `P`.
pub(super) struct Worker<P: Puzzle> {
    solvers: Vec<Box<dyn Solver<P>>>,
    /// The parsed puzzle.
    puzzle: P,
    /// Its symmetry image (with `permute`).
    image: P,
    solution: P,
    lines: Vec<LineRef>,
    /// The chunk's parsed puzzles: their lines, and the puzzles parsed in
    /// place into a pool that grows to the largest chunk and is reused
    /// (no copy between parsing and solving).
    parsed: Vec<Parsed>,
    grids: Vec<P>,
    /// Per puzzle of the block being handed to a solver whole, whether it
    /// accepts it (reused).
    accepted: Vec<bool>,
    /// The [`Block::key`] of the chunk being run.
    chunk_key: u64,
    /// The malformed lines of the chunk read last, and the first few of
    /// them: counted when the chunk runs ([`Self::count_chunk`]).
    chunk_malformed: u64,
    chunk_examples: Vec<Malformed>,
    /// The next chunk, read while this one is solved ([`Self::reads_ahead`]).
    ahead: ReadAhead<P>,
    /// Reused when records are not sent anywhere.
    records: Vec<Record>,
    stats: Vec<SolverStats>,
    puzzles: u64,
    malformed: u64,
    malformed_examples: Vec<Malformed>,
    parse_ns: u64,
    scan_ns: u64,
    discrepancies: Vec<Discrepancy>,
    /// Failed solves of the corpus so far, trimmed now and then.
    failures: Vec<FailureNote>,
    /// The solver this worker ran last: a block of another solver starts
    /// with a warm-up solve ([`super::Step::warm_up`]).
    last_solver: Option<usize>,
    /// The corpus's paired solve times so far.
    paired: PairedTimes,
    /// The corpus's image rows so far (`images` above 1).
    image_rows: Vec<ImageRow>,
}

impl<P: Puzzle> Worker<P> {
    /// Creates the solvers (once per worker thread). Every solver of the
    /// config solves `P` ([`super::run`] checks this first).
    pub(super) fn new(lineup: &Lineup<P>) -> Self {
        Worker {
            solvers: lineup.solvers.iter().map(|s| s.make()).collect(),
            puzzle: P::blank(),
            image: P::blank(),
            solution: P::blank(),
            lines: Vec::new(),
            parsed: Vec::new(),
            grids: Vec::new(),
            accepted: Vec::new(),
            chunk_key: 0,
            chunk_malformed: 0,
            chunk_examples: Vec::new(),
            ahead: ReadAhead {
                chunk: None,
                lines: Vec::new(),
                parsed: Vec::new(),
                grids: Vec::new(),
                malformed: 0,
                examples: Vec::new(),
                accepted: Vec::new(),
                image: P::blank(),
            },
            records: Vec::new(),
            stats: lineup
                .solvers
                .iter()
                .map(|s| SolverStats::new(s.name()))
                .collect(),
            puzzles: 0,
            malformed: 0,
            malformed_examples: Vec::new(),
            parse_ns: 0,
            scan_ns: 0,
            discrepancies: Vec::new(),
            failures: Vec::new(),
            last_solver: None,
            paired: PairedTimes::default(),
            image_rows: Vec::new(),
        }
    }

    /// Runs chunks of `job` until none is left.
    pub(super) fn run_corpus(&mut self, job: &Job<'_, P>) -> Output {
        for s in &mut self.stats {
            s.reset();
        }
        self.paired = PairedTimes::new(self.solvers.len(), job.config.schedule.block);
        for solver in &mut self.solvers {
            solver.start_corpus();
        }
        self.puzzles = 0;
        self.malformed = 0;
        self.parse_ns = 0;
        self.scan_ns = 0;
        self.warm_up(job);
        let reads_ahead = self.reads_ahead(job);
        let (mut ran, mut lines_done) = (0u64, 0u64);
        loop {
            // A stop request is read once per chunk: chunks hold hundreds
            // of puzzles, so this costs nothing per solve.
            if stop_requested(job) {
                break;
            }
            let (seq, k) = match self.ahead.chunk.take() {
                Some(read) => {
                    self.swap_ahead();
                    read
                }
                None => match claim(job) {
                    Some((seq, k)) => {
                        self.read_chunk(job, k);
                        (seq, k)
                    }
                    None => break,
                },
            };
            if reads_ahead && !stop_requested(job) {
                self.read_ahead(job);
            }
            if let Some(ordered) = job.sender {
                ordered.wait_for_window(seq);
            }
            let cut_short = self.run_chunk(job, seq, k);
            let lines = job.firsts[k + 1] - job.firsts[k];
            ran += 1;
            if cut_short {
                // A stop interrupted a solver in its own process: the
                // chunk's records are kept (its skipped puzzles say so),
                // but its lines are not done, so the corpus is partial.
                break;
            }
            lines_done += lines;
            if let Some(p) = job.progress {
                p.advance(lines);
            }
        }
        // A chunk read ahead and not run (a stop): not counted, not done,
        // and sent empty, so that the writer's order has no gap to wait on.
        if let (Some((seq, _)), Some(ordered)) = (self.ahead.chunk.take(), job.sender) {
            send(ordered.tx, job.index, seq, Vec::new());
        }
        Output {
            puzzles: self.puzzles,
            malformed: self.malformed,
            malformed_examples: std::mem::take(&mut self.malformed_examples),
            parse_ns: self.parse_ns,
            scan_ns: self.scan_ns,
            chunks: ran,
            lines_done,
            discrepancies: std::mem::take(&mut self.discrepancies),
            failures: std::mem::take(&mut self.failures),
            images: std::mem::take(&mut self.image_rows),
        }
    }

    /// Adds this worker's statistics of the corpus just run to `into`, in
    /// place: a histogram is a few hundred kilobytes, not worth a copy.
    pub(super) fn merge_stats(&self, into: &mut [SolverStats]) {
        for (merged, s) in into.iter_mut().zip(&self.stats) {
            merged.merge(s);
        }
    }

    /// Adds this worker's paired times of the corpus just run to `into`.
    pub(super) fn merge_paired(&self, into: &mut PairedTimes) {
        into.merge(&self.paired);
    }

    /// Solves the first `warmup` puzzles of the corpus with every solver,
    /// untimed, validating the solutions.
    fn warm_up(&mut self, job: &Job<'_, P>) {
        let config = job.config;
        for line in job.corpus.all_lines().take(config.warmup) {
            if P::parse_line(line.text, job.lineup.options, &mut self.puzzle).is_err() {
                continue;
            }
            let grid = prepare(config.permute, &self.puzzle, &mut self.image, line.offset);
            for (i, solver) in self.solvers.iter_mut().enumerate() {
                if !solver.accepts(grid) {
                    continue;
                }
                let out = solver.solve(grid, config.limit, config.budgets()[i], &mut self.solution);
                self.last_solver = Some(i);
                if out
                    .failure
                    .is_some_and(|f| f.status() != Status::NotApplicable)
                {
                    let detail = solver.take_detail();
                    self.failures.push(warm_up_failed(
                        &mut self.stats[i],
                        job.lineup.solvers[i].name(),
                        line.number,
                        out,
                        detail,
                    ));
                    continue;
                }
                if out.failure.is_none()
                    && out.solutions > 0
                    && solver.returns_solutions()
                    && !P::is_solution_of(&self.solution, grid)
                {
                    let name = job.lineup.solvers[i].name().to_string();
                    self.discrepancies.push(Discrepancy {
                        corpus: job.corpus.name().to_string(),
                        line: line.number,
                        image: None,
                        kind: DiscrepancyKind::InvalidSolution(name.clone()),
                        counts: vec![(name, out.solutions, Status::Invalid)],
                    });
                }
            }
        }
    }

    /// Runs one chunk (`seq`: its position in the run order, `k`: its
    /// index); true when a stop cut it short (some solve was interrupted,
    /// [`crate::solvers::Failure::Interrupted`]).
    fn run_chunk(&mut self, job: &Job<'_, P>, seq: usize, k: usize) -> bool {
        let config = job.config;
        self.count_chunk();
        self.chunk_key = chunk_key(job.index, seq);

        let solver_count = self.solvers.len();
        let mut records = match job.sender {
            Some(_) => Vec::with_capacity(self.parsed.len() * solver_count),
            None => {
                let mut r = std::mem::take(&mut self.records);
                r.clear();
                r
            }
        };
        // One record per puzzle and solver, in puzzle order, filled in as
        // the schedule reaches it.
        records.extend(self.parsed.iter().flat_map(|p| {
            (0..solver_count).map(|i| Record::new(p.number, i as u16, Status::Budget, u64::MAX, 0))
        }));
        let image_count = match config.permute {
            Some(_) => config.images.max(1),
            None => 1,
        };
        // With `images` above 1, the records of images 1 to K-1, one
        // vector each in the layout of `records` (image 0's).
        let mut extra: Vec<Vec<Record>> = (1..image_count).map(|_| records.clone()).collect();
        // What the harness saw of the failures, per image (rare: allocated
        // only when one happens).
        let mut details = self.solve_images(job, k, &mut records, &mut extra);
        let extra_details = details.split_off(1);
        let mut details = details.pop().unwrap_or_default();
        for j in 0..self.parsed.len() {
            let base = j * solver_count;
            let line = self.parsed[j].number;
            self.cross_check(job, &records[base..base + solver_count], line);
            // Outside the timed region: a few logarithms per puzzle.
            self.paired
                .add_puzzle(line, &records[base..base + solver_count]);
        }
        if image_count > 1 {
            self.add_images(job, &records, &extra);
            self.image_failures(job, &extra, extra_details);
        }
        let cut_short = records
            .iter()
            .chain(extra.iter().flatten())
            .any(|r| r.failure == Some(Failure::Interrupted));
        for r in &records {
            self.stats[usize::from(r.solver)].add(r);
            if r.status.is_failure() {
                let solver = job.lineup.solvers[usize::from(r.solver)].name();
                let note = FailureNote::of_record(r, solver, None, &mut details);
                self.failures.push(note);
            }
        }
        if self.failures.len() > 4 * super::FAILURE_EXAMPLES {
            super::trim_failure_notes(&mut self.failures);
        }
        match job.sender {
            Some(ordered) => send(ordered.tx, job.index, seq, records),
            None => self.records = records,
        }
        cut_short
    }

    /// Reads chunk `k` (its lines of the shard, shuffled with
    /// [`Config::shuffle`]) and parses its puzzles into `self.parsed` and
    /// `self.grids`, its malformed lines into `self.chunk_malformed` and
    /// `self.chunk_examples`; the scan and the parse timed once each for
    /// the whole chunk.
    fn read_chunk(&mut self, job: &Job<'_, P>, k: usize) {
        self.chunk_malformed = 0;
        self.chunk_examples.clear();
        let config = job.config;
        let corpus = job.corpus;
        let bytes = corpus.bytes();
        let t = Instant::now();
        self.lines.clear();
        let shard = config.shard;
        self.lines.extend(
            corpus
                .lines(corpus.chunk(k), job.firsts[k])
                .filter(|l| shard.is_none_or(|s| s.contains(l.number)))
                .map(|l| LineRef {
                    start: l.offset as usize,
                    end: l.offset as usize + l.text.len(),
                    number: l.number,
                }),
        );
        self.scan_ns += t.elapsed().as_nanos() as u64;
        if let Some(seed) = config.shuffle {
            SplitMix::for_item(seed, k as u64).shuffle(&mut self.lines);
        }
        // Parse the whole chunk first: one clock pair for all of it, and
        // every pass solves the same grids without parsing again.
        let t = Instant::now();
        self.parsed.clear();
        for line in &self.lines {
            let text = &bytes[line.start..line.end];
            let n = self.parsed.len();
            if self.grids.len() == n {
                self.grids.push(P::blank());
            }
            match P::parse_line(text, job.lineup.options, &mut self.grids[n]) {
                Ok(()) => self.parsed.push(Parsed {
                    number: line.number,
                    offset: line.start as u64,
                }),
                Err(e) => {
                    self.chunk_malformed += 1;
                    if self.chunk_examples.len() < MALFORMED_EXAMPLES {
                        self.chunk_examples.push(Malformed {
                            line: line.number,
                            message: e.at_line(line.number as usize).to_string(),
                            text: excerpt(text),
                        });
                    }
                }
            }
        }
        self.parse_ns += t.elapsed().as_nanos() as u64;
        corpus.release(corpus.chunk(k));
    }

    /// Counts the chunk read last, which is about to run: its puzzles and
    /// its malformed lines.
    fn count_chunk(&mut self) {
        self.puzzles += self.parsed.len() as u64;
        self.malformed += self.chunk_malformed;
        let room = MALFORMED_EXAMPLES.saturating_sub(self.malformed_examples.len());
        let take = room.min(self.chunk_examples.len());
        self.malformed_examples
            .extend(self.chunk_examples.drain(..take));
    }

    /// Whether this corpus's chunks are read one ahead, for
    /// [`Block::upcoming`]: when a chunk's solves are one call of one
    /// solver in its own process (the run's only solver, one pass, one
    /// image, blocks joined), whose process can then be handed the next
    /// chunk's first requests before it answers this one's last.
    fn reads_ahead(&self, job: &Job<'_, P>) -> bool {
        let config = job.config;
        let images = match config.permute {
            Some(_) => config.images.max(1),
            None => 1,
        };
        self.solvers.len() == 1
            && self.solvers[0].solves_blocks()
            && config.passes.max(1) == 1
            && images == 1
            && config.schedule.block > 1
    }

    /// Claims and reads the next chunk into [`Self::ahead`], with which
    /// solver 0 accepts each puzzle.
    fn read_ahead(&mut self, job: &Job<'_, P>) {
        let Some((seq, k)) = claim(job) else {
            return;
        };
        self.swap_ahead();
        self.read_chunk(job, k);
        self.swap_ahead();
        let seed = job.config.permute.map(|s| images::image_seed(s, 0));
        let ahead = &mut self.ahead;
        ahead.accepted.clear();
        for (grid, p) in ahead.grids.iter().zip(&ahead.parsed) {
            let grid = prepare(seed, grid, &mut ahead.image, p.offset);
            ahead.accepted.push(self.solvers[0].accepts(grid));
        }
        ahead.chunk = Some((seq, k));
    }

    /// Swaps the chunk read ahead with the current one.
    fn swap_ahead(&mut self) {
        let ahead = &mut self.ahead;
        std::mem::swap(&mut self.lines, &mut ahead.lines);
        std::mem::swap(&mut self.parsed, &mut ahead.parsed);
        std::mem::swap(&mut self.grids, &mut ahead.grids);
        std::mem::swap(&mut self.chunk_malformed, &mut ahead.malformed);
        std::mem::swap(&mut self.chunk_examples, &mut ahead.examples);
    }

    /// Solves a chunk's puzzles on every symmetry image (one without
    /// `images`), every pass, step by step of the schedule ([`Self::run_step`]):
    /// image 0's records in `records`, images 1 to K-1's in `extra` (same
    /// layout). Returns what the harness saw of each image's failures.
    fn solve_images(
        &mut self,
        job: &Job<'_, P>,
        k: usize,
        records: &mut [Record],
        extra: &mut [Vec<Record>],
    ) -> Vec<Vec<((u64, u16), String)>> {
        let config = job.config;
        let solver_count = self.solvers.len();
        let mut details: Vec<Vec<((u64, u16), String)>> =
            (0..=extra.len()).map(|_| Vec::new()).collect();
        let passes = config.passes.max(1);
        // A solver in its own process takes its blocks in a row as one,
        // but for `--block 1` (every puzzle with each solver in turn, no
        // warm-ups: as asked).
        let join = config.schedule.block > 1;
        let joined: Vec<bool> = self
            .solvers
            .iter()
            .map(|s| join && s.solves_blocks())
            .collect();
        for (image, details) in (0u32..).zip(&mut details) {
            let seed = config.permute.map(|s| images::image_seed(s, image));
            let records = match image {
                0 => &mut *records,
                i => &mut extra[i as usize - 1][..],
            };
            for pass in 0..passes {
                let at = Pass { seed, image, pass };
                let steps = config.schedule.steps(
                    self.parsed.len(),
                    solver_count,
                    k,
                    image * passes + pass,
                );
                for step in super::join_runs(steps, |i| joined[i]) {
                    self.run_step(job, step, at, records, details);
                }
            }
        }
        details
    }

    /// The untimed warm-up solve of step `step` on the symmetry image and
    /// pass `at`, when its solver ran something else last
    /// ([`super::Step::warm_up`]): a failure is counted and noted
    /// ([`warm_up_failed`]), with its image.
    fn warm_up_step(&mut self, job: &Job<'_, P>, step: &super::Step, at: Pass) {
        let config = job.config;
        let i = step.solver;
        let Pass { seed, image, .. } = at;
        let solver = &mut self.solvers[i];
        // A solver whose process was just replaced is warmed up as
        // one that did not solve the block before.
        let previous = match solver.wants_warm_up() {
            true => None,
            false => self.last_solver,
        };
        if let Some(j) = step.warm_up(previous) {
            let offset = self.parsed[j].offset;
            let grid = prepare(seed, &self.grids[j], &mut self.image, offset);
            if solver.accepts(grid) {
                // Untimed: its timed solve comes later in the block.
                let budget = config.budgets()[i];
                let out = black_box(solver.solve(grid, config.limit, budget, &mut self.solution));
                if out
                    .failure
                    .is_some_and(|f| f.status() != Status::NotApplicable)
                {
                    let detail = solver.take_detail();
                    let mut note = warm_up_failed(
                        &mut self.stats[i],
                        job.lineup.solvers[i].name(),
                        self.parsed[j].number,
                        out,
                        detail,
                    );
                    note.image = (image > 0).then_some(image);
                    self.failures.push(note);
                }
            }
        }
    }

    /// Runs one step of the schedule (`step`: a solver's block) on the
    /// symmetry image and pass `at`: the block's untimed warm-up solve
    /// when the solver ran something else last, then its timed solves,
    /// recorded in `records` (the image's records of the chunk), what the
    /// harness saw of their failures in `details`.
    fn run_step(
        &mut self,
        job: &Job<'_, P>,
        step: super::Step,
        at: Pass,
        records: &mut [Record],
        details: &mut Vec<((u64, u16), String)>,
    ) {
        let config = job.config;
        let solver_count = self.solvers.len();
        let Pass { seed, pass, .. } = at;
        let i = step.solver;
        self.warm_up_step(job, &step, at);
        let solver = &mut self.solvers[i];
        self.last_solver = Some(i);
        let checks = Checks {
            limit: config.limit,
            budget: config.budgets()[i],
            solutions: solver.returns_solutions(),
            applies_budget: solver.applies_budget(),
            pass,
        };
        if solver.solves_blocks() {
            // A solver in its own process: the whole block at once
            // (batched, when it takes batches); each puzzle's
            // outcome recorded as it ends, as below.
            self.accepted.clear();
            for j in step.puzzles.clone() {
                let offset = self.parsed[j].offset;
                let grid = prepare(seed, &self.grids[j], &mut self.image, offset);
                let accepted = solver.accepts(grid);
                self.accepted.push(accepted);
                if !accepted {
                    let r = &mut records[j * solver_count + i];
                    r.status = Status::NotApplicable;
                    r.ns = 0;
                }
            }
            // The next chunk's call, when it was read ahead for this one's.
            let upcoming = self.ahead.chunk.map(|(seq, _)| UpcomingView {
                key: chunk_key(job.index, seq),
                images: Images::new(
                    seed,
                    &self.ahead.grids,
                    &self.ahead.parsed,
                    &mut self.ahead.image,
                ),
                accepted: &self.ahead.accepted,
            });
            let mut block = BlockView {
                key: self.chunk_key,
                upcoming,
                images: Images::new(seed, &self.grids, &self.parsed, &mut self.image),
                first: step.puzzles.start,
                accepted: &self.accepted,
                records,
                details,
                solver_count,
                solver: i,
                checks,
            };
            solver.solve_block(&mut block, config.limit, checks.budget, &mut self.solution);
            return;
        }
        for j in step.puzzles {
            let offset = self.parsed[j].offset;
            let grid = prepare(seed, &self.grids[j], &mut self.image, offset);
            let r = &mut records[j * solver_count + i];
            if !solver.accepts(grid) {
                r.status = Status::NotApplicable;
                r.ns = 0;
                continue;
            }
            // The solver reads the clock itself: around its search
            // alone, after the dynamic call.
            let (out, took) =
                solver.solve_timed(grid, config.limit, config.budgets()[i], &mut self.solution);
            let detail = out.failure.and_then(|_| solver.take_detail());
            if let (Some(d), 0) = (detail, pass) {
                details.push(((r.line, r.solver), d));
            }
            record(r, &out, took, &checks, &self.solution, grid);
        }
    }

    /// Keeps the image rows of a chunk whose image 0 records are `first`
    /// and whose images 1 to K-1 records are `extra` (same layout), and
    /// checks each puzzle's rows ([`images::check_line`]). A puzzle a
    /// solver does not take has no rows of it.
    fn add_images(&mut self, job: &Job<'_, P>, first: &[Record], extra: &[Vec<Record>]) {
        let seed = job.config.permute.unwrap_or(0);
        let solvers = self.solvers.len();
        let name = |solver: u16| job.lineup.solvers[usize::from(solver)].name();
        let mut rows: Vec<ImageRow> = Vec::with_capacity((extra.len() + 1) * solvers);
        for base in (0..first.len()).step_by(solvers.max(1)) {
            rows.clear();
            for at in base..base + solvers {
                let all = std::iter::once(&first[at]).chain(extra.iter().map(|e| &e[at]));
                for (image, r) in (0u32..).zip(all) {
                    if r.status == Status::NotApplicable {
                        continue;
                    }
                    rows.push(ImageRow {
                        line: r.line,
                        solver: r.solver,
                        image,
                        seed: images::image_seed(seed, image),
                        status: r.status,
                        solutions: r.solutions,
                        nodes: r.nodes,
                        ns: r.ns,
                    });
                }
            }
            let line = first[base].line;
            self.discrepancies.extend(images::check_line(
                job.corpus.name(),
                line,
                job.config.limit,
                &rows,
                name,
            ));
            self.image_rows.extend_from_slice(&rows);
        }
    }

    /// Counts and notes the failed solves of images 1 to K-1 (`extra`, in
    /// the layout of a chunk's records; `details`: what the harness saw of
    /// each image's failures) as image 0's are: among the solver's failed
    /// solves ([`SolverStats::image_failed`]) and in the failure notes,
    /// with their image.
    fn image_failures(
        &mut self,
        job: &Job<'_, P>,
        extra: &[Vec<Record>],
        mut details: Vec<Vec<((u64, u16), String)>>,
    ) {
        for ((image, records), details) in (1u32..).zip(extra).zip(&mut details) {
            for r in records.iter().filter(|r| r.status.is_failure()) {
                if r.status != Status::Skipped {
                    self.stats[usize::from(r.solver)].image_failed += 1;
                }
                let solver = job.lineup.solvers[usize::from(r.solver)].name();
                let note = FailureNote::of_record(r, solver, Some(image), details);
                self.failures.push(note);
            }
        }
    }

    /// Records invalid solutions and disagreements ([`super::cross_check`]).
    fn cross_check(&mut self, job: &Job<'_, P>, records: &[Record], line: u64) {
        let name = |solver: u16| job.lineup.solvers[usize::from(solver)].name();
        self.discrepancies.extend(super::cross_check(
            job.corpus.name(),
            line,
            job.config.limit,
            records,
            name,
        ));
    }
}

/// Where a step runs: the symmetry image (its seed, none without
/// `permute`) and the pass.
#[derive(Clone, Copy)]
struct Pass {
    seed: Option<u64>,
    image: u32,
    pass: u32,
}

/// What a solve's record is checked against: the run's limit and the
/// solver's budget and ways, and the pass.
#[derive(Clone, Copy)]
struct Checks {
    limit: u64,
    budget: Budget,
    /// The solver returns solutions (they are validated).
    solutions: bool,
    applies_budget: bool,
    pass: u32,
}

/// Records in `r` the solve of `grid` that found `out` (its solution in
/// `solution`) in `took`: in the first pass its time, status (validated,
/// outside the timed region) and counts; in a later pass only a shorter
/// time (a later pass's failure keeps the first pass's time).
#[inline]
fn record<P: Puzzle>(
    r: &mut Record,
    out: &Outcome,
    took: Duration,
    checks: &Checks,
    solution: &P,
    grid: &P,
) {
    let ns = took.as_nanos() as u64;
    if checks.pass > 0 {
        if out.failure.is_none() && r.ns > ns {
            r.ns = ns;
            r.timing = out.timing;
            r.host = out.host;
        }
        return;
    }
    r.ns = ns;
    r.timing = out.timing;
    r.host = out.host;
    r.failure = out.failure;
    // Validation, outside the timed region.
    let status = out.status(checks.limit);
    if status.is_untimed() {
        r.status = status;
        r.solutions = 0;
        r.nodes = None;
        return;
    }
    r.status = classify(
        out,
        took,
        checks.limit,
        checks.budget,
        checks.applies_budget,
        || !checks.solutions || P::is_solution_of(solution, grid),
    );
    r.solutions = out.solutions;
    r.nodes = out.nodes;
    r.guesses = out.guesses;
    r.updates = out.updates;
    r.mems = out.mems;
}

/// One solver's step of a chunk, as a [`Block`] handed to
/// [`crate::solvers::Solver::solve_block`]: the step's puzzles (their
/// images, with `permute`), and their records.
struct BlockView<'a, P: Puzzle> {
    /// Its [`Block::key`].
    key: u64,
    /// The next chunk's call ([`Block::upcoming`]).
    upcoming: Option<UpcomingView<'a, P>>,
    /// The chunk's puzzles as the solver is given them.
    images: Images<'a, P>,
    /// The step's first puzzle (a chunk index).
    first: usize,
    /// Per puzzle of the step, whether the solver accepts it.
    accepted: &'a [bool],
    records: &'a mut [Record],
    /// What the solver saw of the failures, by (line, solver).
    details: &'a mut Vec<((u64, u16), String)>,
    solver_count: usize,
    solver: usize,
    checks: Checks,
}

/// A chunk's puzzles as a solver is given them, for [`BlockView`] and
/// [`UpcomingView`] alike: with a seed, each one's image (made once into
/// `image`), else the puzzle as it is.
struct Images<'a, P: Puzzle> {
    /// The image's seed (none: the puzzles as they are).
    seed: Option<u64>,
    grids: &'a [P],
    parsed: &'a [Parsed],
    image: &'a mut P,
    /// The chunk index whose image `image` holds.
    imaged: Option<usize>,
}

impl<'a, P: Puzzle> Images<'a, P> {
    fn new(seed: Option<u64>, grids: &'a [P], parsed: &'a [Parsed], image: &'a mut P) -> Self {
        Images {
            seed,
            grids,
            parsed,
            image,
            imaged: None,
        }
    }

    /// The puzzle to solve at chunk index `j`: its image (made once), or
    /// `grids[j]` as it is without a seed.
    fn get(&mut self, j: usize) -> &P {
        if self.seed.is_none() {
            return &self.grids[j];
        }
        if self.imaged != Some(j) {
            prepare(self.seed, &self.grids[j], self.image, self.parsed[j].offset);
            self.imaged = Some(j);
        }
        &*self.image
    }
}

// Repeats the signatures of `Block`'s methods (trait impl).
impl<P: Puzzle> Block<P> for BlockView<'_, P> {
    fn len(&self) -> usize {
        self.accepted.len()
    }

    fn puzzle(&mut self, index: usize) -> Option<&P> {
        if !self.accepted[index] {
            return None;
        }
        Some(self.images.get(self.first + index))
    }

    fn line(&self, index: usize) -> u64 {
        self.records[(self.first + index) * self.solver_count + self.solver].line
    }

    fn done(
        &mut self,
        index: usize,
        outcome: &Outcome,
        took: Duration,
        solution: &P,
        detail: Option<String>,
    ) {
        let j = self.first + index;
        let grid = self.images.get(j);
        let r = &mut self.records[j * self.solver_count + self.solver];
        if let (Some(d), 0) = (detail, self.checks.pass) {
            self.details.push(((r.line, r.solver), d));
        }
        record(r, outcome, took, &self.checks, solution, grid);
    }

    fn key(&self) -> Option<u64> {
        Some(self.key)
    }

    fn upcoming(&mut self) -> Option<&mut dyn Upcoming<P>> {
        self.upcoming.as_mut().map(|u| u as &mut dyn Upcoming<P>)
    }
}

/// The next chunk's call, read ahead ([`Block::upcoming`]): its puzzles,
/// as its [`BlockView`] will give them.
struct UpcomingView<'a, P: Puzzle> {
    key: u64,
    /// Its puzzles as the solver is given them.
    images: Images<'a, P>,
    accepted: &'a [bool],
}

impl<P: Puzzle> Upcoming<P> for UpcomingView<'_, P> {
    fn key(&self) -> u64 {
        self.key
    }

    fn len(&self) -> usize {
        self.accepted.len()
    }

    fn puzzle(&mut self, index: usize) -> Option<&P> {
        if !self.accepted[index] {
            return None;
        }
        Some(self.images.get(index))
    }
}

/// The status recorded for a solve that found `out` in `took`, counting
/// solutions up to `limit` within `budget`: the outcome's own
/// ([`Outcome::status`]), except that
/// * a solver that does not apply budgets itself (`applies_budget` false:
///   one loaded through the C interface, which cannot be stopped) and took
///   longer than the time budget is over budget, as a built-in solver
///   would have been: the record claims no bound it did not apply;
/// * a count above `limit` is no answer a solver may give: `invalid`;
/// * so is a solution that `valid` (called only when one was found)
///   rejects.
pub(super) fn classify(
    out: &Outcome,
    took: Duration,
    limit: u64,
    budget: Budget,
    applies_budget: bool,
    valid: impl FnOnce() -> bool,
) -> Status {
    let mut out = *out;
    if !applies_budget && budget.max_time.is_some_and(|max| took > max) {
        out.budget_exceeded = true;
    }
    if out.solutions > limit || (out.solutions > 0 && !valid()) {
        return Status::Invalid;
    }
    out.status(limit)
}

/// A failed warm-up solve of the solver `name` on line `line`: counted in
/// its statistics ([`SolverStats::warm_up_failed`]), and its note, as it
/// has no record of its own.
fn warm_up_failed(
    stats: &mut SolverStats,
    name: &str,
    line: u64,
    out: Outcome,
    detail: Option<String>,
) -> FailureNote {
    let failure = out.failure.expect("a failure");
    // Over budget (`deadline`) is no failure here either; it is noted.
    if failure.status().is_failure() {
        stats.warm_up_failed += 1;
    }
    FailureNote {
        line,
        solver: name.to_string(),
        status: failure.status(),
        failure: Some(failure),
        warm_up: true,
        image: None,
        detail,
    }
}

/// The start of a malformed line, for the report (at most 100 characters).
fn excerpt(text: &[u8]) -> String {
    let s = String::from_utf8_lossy(text);
    match s.char_indices().nth(100) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.into_owned(),
    }
}

/// The puzzle to solve: the puzzle, or its symmetry image of seed `seed`.
#[inline]
fn prepare<'g, P: Puzzle>(
    seed: Option<u64>,
    puzzle: &'g P,
    image: &'g mut P,
    offset: u64,
) -> &'g P {
    match seed {
        Some(seed) => {
            P::symmetry_image(puzzle, image, &mut SplitMix::for_item(seed, offset));
            image
        }
        None => puzzle,
    }
}
