//! The run loop's contract with its caller: per-corpus results, stops,
//! record-writing failures, and throughput arithmetic.

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::*;
use crate::solvers::{Budget, Failure, SolverSet, Status};
use crate::sudoku::Grid;

/// Three small corpora of the committed generated puzzles.
fn corpora() -> Vec<Corpus> {
    let text = crate::datasets::DEFAULT_CORPUS;
    (0..3)
        .map(|i| Corpus::from_vec(&format!("c{i}"), text.to_vec()).unwrap())
        .collect()
}

fn lineup() -> Lineup<Grid> {
    Lineup::new(
        SolverSet::<Grid>::builtin()
            .select(&["dlx".into()])
            .unwrap(),
    )
}

/// Stops after `after` corpora ended; counts the calls.
struct StopAfter {
    after: usize,
    finished: AtomicUsize,
    stop: AtomicBool,
}

impl Progress for StopAfter {
    fn start_corpus(&self, _: usize, count: usize, _: &str, _: u64) {
        assert_eq!(count, 3);
    }
    fn advance(&self, _: u64) {}
    fn finish_corpus(&self, run: &RunResult) {
        let n = self.finished.fetch_add(1, Ordering::SeqCst) + 1;
        assert_eq!(
            run.corpora.len(),
            n,
            "the run so far, one corpus more each time"
        );
        if n == self.after {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
    fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

#[test]
fn each_corpus_is_reported_as_it_ends_and_a_stop_keeps_what_ran() {
    let lineup = lineup();
    let setup = Setup::new(lineup);
    let progress = StopAfter {
        after: 1,
        finished: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let run = run(&corpora(), &setup, None, Some(&progress)).unwrap();
    assert!(run.interrupted);
    assert_eq!(run.corpora.len(), 1);
    assert!(run.corpora[0].complete());
    assert_eq!(run.corpora[0].solvers[0].puzzles, 1000);

    let progress = StopAfter {
        after: 5,
        finished: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let run = super::run(&corpora(), &setup, None, Some(&progress)).unwrap();
    assert!(!run.interrupted);
    assert_eq!(progress.finished.load(Ordering::SeqCst), 3);
    assert!(run.corpora.iter().all(|c| c.complete() && c.workers >= 1));
}

/// Fails every write.
struct Broken;

impl RecordSink for Broken {
    fn write_batch(&mut self, _: &str, _: &[Record]) -> std::io::Result<()> {
        Err(std::io::Error::other("disk full"))
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_record_sink_loses_the_records_not_the_run() {
    let lineup = lineup();
    let mut setup = Setup::new(lineup);
    setup.config_mut().threads = 2;
    let run = run(&corpora(), &setup, Some(Box::new(Broken)), None).unwrap();
    assert_eq!(run.records_error.unwrap().to_string(), "disk full");
    assert_eq!(run.corpora.len(), 3);
    assert!(run.corpora.iter().all(|c| c.solvers[0].puzzles == 1000));
}

/// Fails its first write; says when it is dropped.
struct FailsOnce(&'static AtomicBool);

impl RecordSink for FailsOnce {
    fn write_batch(&mut self, _: &str, _: &[Record]) -> std::io::Result<()> {
        Err(std::io::Error::other("disk full"))
    }
    fn finish(&mut self) -> std::io::Result<()> {
        panic!("finish after an error")
    }
}

impl Drop for FailsOnce {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Whether the sink was dropped when each corpus ended.
struct SeesDrop(&'static AtomicBool, std::sync::Mutex<Vec<bool>>);

impl Progress for SeesDrop {
    fn start_corpus(&self, _: usize, _: usize, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn finish_corpus(&self, _: &RunResult) {
        self.1.lock().unwrap().push(self.0.load(Ordering::SeqCst));
    }
}

/// A sink that fails is dropped at once (on a full disk, its temporary
/// file frees the space for the other result files), before the corpus
/// is reported finished; it is not called again.
#[test]
fn a_failing_record_sink_is_dropped_at_its_first_error() {
    static DROPPED: AtomicBool = AtomicBool::new(false);
    let lineup = lineup();
    let setup = Setup::new(lineup);
    let progress = SeesDrop(&DROPPED, std::sync::Mutex::new(Vec::new()));
    let sink = Box::new(FailsOnce(&DROPPED));
    let run = run(&corpora(), &setup, Some(sink), Some(&progress)).unwrap();
    assert_eq!(run.records_error.unwrap().to_string(), "disk full");
    assert_eq!(*progress.1.lock().unwrap(), [true, true, true]);
}

#[test]
fn throughput_counts_solves_within_budget_and_the_workers_given() {
    let mut stats = SolverStats::new("s");
    assert_eq!(stats.puzzles_per_s(1), None, "nothing timed");
    let record = |ns, status| Record {
        nodes: Some(1),
        ..Record::new(1, 0, status, ns, 1)
    };
    stats.add(&record(100, Status::Unique));
    stats.add(&record(300, Status::Unique));
    stats.add(&record(1_000_000, Status::Budget));
    // Two solves in 400 ns on one worker: 5 million a second; the
    // over-budget solve counts neither puzzles nor time.
    assert_eq!(stats.puzzles_per_s(1), Some(5e6));
    assert_eq!(stats.puzzles_per_s(2), Some(1e7));
    assert_eq!((stats.puzzles, stats.budget, stats.timed()), (3, 1, 2));
}

#[test]
fn estimate_samples_every_corpus_and_solver_and_scales_with_lines() {
    let lineup = Lineup::new(
        SolverSet::<Grid>::builtin()
            .select(&["dlx".into(), "singles".into()])
            .unwrap(),
    );
    let setup = Setup::new(lineup);
    let corpora = corpora();
    let e = estimate(&corpora, &setup, std::time::Duration::from_secs(60)).unwrap();
    // The whole sample (64 puzzles a corpus) is solved by both solvers.
    assert!(e.complete);
    assert_eq!(e.solves, 3 * 64 * 2);
    assert!(e.wall > std::time::Duration::ZERO);

    // No time at all: one solve, the rest unsampled, a lower bound.
    let rushed = estimate(&corpora, &setup, std::time::Duration::ZERO).unwrap();
    assert_eq!(rushed.solves, 1);
    assert!(!rushed.complete);
    assert!(rushed.to_string().starts_with("at least"), "{rushed}");
}

#[test]
fn estimate_needs_a_readable_puzzle() {
    let lineup = lineup();
    let setup = Setup::new(lineup);
    let junk = Corpus::from_vec("junk", b"# only a comment\nnot a puzzle\n".to_vec()).unwrap();
    assert_eq!(
        estimate(&[junk], &setup, std::time::Duration::from_secs(1)),
        None
    );
}

#[test]
fn the_schedule_changes_timings_only_never_counts() {
    let lineup = Lineup::new(
        SolverSet::<Grid>::builtin()
            .select(&["dlx".into(), "heuristic".into(), "singles".into()])
            .unwrap(),
    );
    let counts = |block: usize, passes: u32| {
        let mut setup = Setup::new(lineup.clone());
        setup.config_mut().schedule = Schedule { block };
        setup.config_mut().passes = passes;
        let run = run(&corpora()[..1], &setup, None, None).unwrap();
        assert!(run.discrepancies.is_empty());
        run.corpora[0]
            .solvers
            .iter()
            .map(|s| {
                (
                    s.puzzles,
                    s.solved,
                    s.total_nodes,
                    s.total_guesses,
                    s.timed(),
                )
            })
            .collect::<Vec<_>>()
    };
    let interleaved = counts(1, 1);
    assert_eq!(interleaved[0].0, 1000);
    for (block, passes) in [(7, 1), (64, 1), (100_000, 1), (64, 2)] {
        assert_eq!(
            counts(block, passes),
            interleaved,
            "block {block}, {passes} passes"
        );
    }
}

#[test]
fn estimate_samples_a_small_corpus_once_per_puzzle() {
    let lineup = lineup();
    let setup = Setup::new(lineup);
    let text = crate::datasets::DEFAULT_CORPUS;
    let three: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty() && l[0] != b'#')
        .take(3)
        .collect();
    let corpus = Corpus::from_vec("three", three.join(&b'\n')).unwrap();
    let e = estimate(&[corpus], &setup, std::time::Duration::from_secs(60)).unwrap();
    assert_eq!(e.solves, 3);
}

/// Every solve call: the solver's lineup index and the puzzle's cells.
type CallLog = std::sync::Arc<std::sync::Mutex<Vec<(usize, Vec<u8>)>>>;

/// Logs every call before passing it to `dlx`.
struct Logged {
    index: usize,
    log: CallLog,
    inner: Box<dyn crate::solvers::Solver<Grid>>,
}

impl crate::solvers::Solver<Grid> for Logged {
    fn solve(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: crate::budget::Budget,
        solution: &mut Grid,
    ) -> crate::solvers::Outcome {
        let cells = puzzle.cells().to_vec();
        self.log.lock().unwrap().push((self.index, cells));
        self.inner.solve(puzzle, limit, budget, solution)
    }
}

#[test]
fn a_block_after_another_solvers_starts_with_one_untimed_solve_of_its_last_puzzle() {
    let log = CallLog::default();
    let dlx = SolverSet::<Grid>::builtin().by_name("dlx").unwrap().clone();
    let entries: Vec<_> = (0..3)
        .map(|index| {
            let (log, dlx) = (log.clone(), dlx.clone());
            crate::solvers::SolverEntry::new(format!("s{index}"), "logged dlx", move || {
                Box::new(Logged {
                    index,
                    log: log.clone(),
                    inner: dlx.make(),
                }) as Box<dyn crate::solvers::Solver<Grid>>
            })
        })
        .collect();
    let lineup = Lineup::new(entries);
    let mut setup = Setup::new(lineup.clone());
    setup.config_mut().threads = 1;
    setup.config_mut().schedule = Schedule { block: 4 };
    // 10 puzzles: one chunk, blocks of 4, 4 and 2.
    let text: Vec<u8> = crate::datasets::DEFAULT_CORPUS
        .split_inclusive(|&b| b == b'\n')
        .filter(|l| !l.starts_with(b"#"))
        .take(10)
        .flatten()
        .copied()
        .collect();
    let puzzles: Vec<Grid> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut g = Grid::blank();
            Grid::parse_line(l, lineup.options, &mut g).unwrap();
            g
        })
        .collect();
    let corpus = Corpus::from_vec("ten", text).unwrap();
    assert_eq!(corpus.chunk_count(), 1);
    let run = run(&[corpus], &setup, None, None).unwrap();
    assert!(run.discrepancies.is_empty());
    assert!(run.corpora[0].solvers.iter().all(|s| s.timed() == 10));

    let which = |cells: &[u8]| puzzles.iter().position(|p| p.cells() == cells).unwrap();
    let calls: Vec<(usize, usize)> = log
        .lock()
        .unwrap()
        .iter()
        .map(|(s, cells)| (*s, which(cells)))
        .collect();
    // Blocks 0..4, 4..8, 8..10; the first solver rotates 0, 1, 2; each
    // block of a solver other than the last one run starts with its last
    // puzzle, untimed, then every puzzle of the block in order.
    let mut expected = Vec::new();
    let mut last = None;
    for (b, range) in [0..4, 4..8, 8..10].into_iter().enumerate() {
        for k in 0..3 {
            let solver = (b + k) % 3;
            if last != Some(solver) {
                expected.push((solver, range.end - 1));
            }
            expected.extend(range.clone().map(|p| (solver, p)));
            last = Some(solver);
        }
    }
    assert_eq!(calls, expected);
    // With three solvers every step follows another solver's (the first
    // of a block is never the last of the one before): 9 warm-up solves.
    assert_eq!(calls.len(), 3 * 10 + 9);
}

/// A record of solver `solver` with `solutions` and `status`.
fn record(solver: u16, solutions: u64, status: Status) -> Record {
    Record::new(7, solver, status, 1, solutions)
}

#[test]
fn a_count_above_the_limit_is_told_once_as_what_it_is() {
    let names = ["dlx", "liar"];
    let name = |s: u16| names[usize::from(s)];
    // Alone: the count is the problem, whatever the other records say.
    let found = cross_check("c", 7, 2, &[record(1, 5, Status::Invalid)], name);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].kind,
        DiscrepancyKind::CountAboveLimit {
            solver: "liar".into(),
            limit: 2
        }
    );
    assert_eq!(
        found[0].to_string(),
        "c line 7: liar returned a count above the limit of 2 it was given: liar=5 (invalid)"
    );
    // Beside an honest count: no disagreement besides.
    let records = [
        record(0, 2, Status::Multiple),
        record(1, u64::MAX, Status::Invalid),
    ];
    let found = cross_check("c", 7, 2, &records, name);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(matches!(
        found[0].kind,
        DiscrepancyKind::CountAboveLimit { .. }
    ));
    // An invalid grid within the limit stays an invalid solution.
    let records = [record(0, 1, Status::Unique), record(1, 1, Status::Invalid)];
    let found = cross_check("c", 7, 2, &records, name);
    assert_eq!(
        found[0].kind,
        DiscrepancyKind::InvalidSolution("liar".into())
    );
    // No limit (count mode): no count is above it.
    let records = [
        record(0, 5, Status::Multiple),
        record(1, 5, Status::Multiple),
    ];
    assert!(cross_check("c", 7, u64::MAX, &records, name).is_empty());
}

#[test]
fn a_solve_is_classified_by_what_the_solver_could_and_did_do() {
    use std::time::Duration;
    let found = |solutions| crate::solvers::Outcome {
        solutions,
        nodes: None,
        guesses: 0,
        updates: None,
        budget_exceeded: false,
        ..Default::default()
    };
    let ms = Duration::from_millis;
    let budget = Budget::UNLIMITED.with_max_time(Some(ms(100)));
    let valid = || true;
    // A loaded solver (no budget of its own) slower than the budget: over.
    assert_eq!(
        worker::classify(&found(1), ms(2000), 2, budget, false, valid),
        Status::Budget
    );
    assert_eq!(
        worker::classify(&found(1), ms(50), 2, budget, false, valid),
        Status::Unique
    );
    // No time budget: no bound to apply.
    assert_eq!(
        worker::classify(&found(1), ms(2000), 2, Budget::UNLIMITED, false, valid),
        Status::Unique
    );
    // A built-in solver applies its budget itself (from its 1,024th
    // node): what it says stands.
    assert_eq!(
        worker::classify(&found(2), ms(2000), 2, budget, true, valid),
        Status::Multiple
    );
    // A count above the limit, or a rejected solution, is invalid, slow or
    // not; a rejected solution is checked only when there is one.
    for applies in [false, true] {
        assert_eq!(
            worker::classify(&found(5), ms(1), 2, budget, applies, valid),
            Status::Invalid
        );
        assert_eq!(
            worker::classify(&found(1), ms(2000), 2, budget, applies, || false),
            Status::Invalid
        );
        assert_eq!(
            worker::classify(&found(0), ms(1), 2, budget, applies, || panic!(
                "no solution"
            )),
            Status::NoSolution
        );
    }
    assert_eq!(
        worker::classify(&found(1), ms(1), 1, budget, false, valid),
        Status::Solved
    );
}

/// The note of a failed solve is built by one constructor, its detail
/// taken out of the details the harness saw (by line and solver).
#[test]
fn failure_notes_take_their_detail() {
    let record = Record {
        failure: Some(Failure::Signal(11)),
        ..Record::new(7, 1, Status::Crashed, 0, 0)
    };
    let mut details = vec![((7, 0), "other".to_string()), ((7, 1), "boom".to_string())];
    let note = FailureNote::of_record(&record, "py", Some(2), &mut details);
    assert_eq!(
        note.to_string(),
        "line 7: py crashed (signal 11) on symmetry image 2: boom"
    );
    assert_eq!(details, [((7, 0), "other".to_string())]);
    let again = FailureNote::of_record(&record, "py", None, &mut details);
    assert_eq!(again.to_string(), "line 7: py crashed (signal 11)");
}

/// What `run.json` records of a note reads back as the note (a stop
/// without its detail, which its text does not show); other text does not.
#[test]
fn failure_notes_read_back_from_their_text() {
    let note = |status, failure, warm_up, image, detail: Option<&str>| FailureNote {
        line: 12,
        solver: "py x".into(),
        status,
        failure,
        warm_up,
        image,
        detail: detail.map(String::from),
    };
    let notes = [
        note(Status::Crashed, Some(Failure::Exit(3)), false, None, None),
        note(
            Status::ProtocolError,
            Some(Failure::Response),
            true,
            Some(2),
            Some("got `a: (b)` on symmetry image 3"),
        ),
        note(Status::Timeout, None, false, Some(1), None),
        note(Status::Skipped, Some(Failure::Stopped), false, None, None),
    ];
    for n in &notes {
        assert_eq!(
            FailureNote::from_note("py x", &n.to_string()).as_ref(),
            Some(n),
            "{n}"
        );
    }
    let text = notes[0].to_string();
    assert_eq!(FailureNote::from_note("py", &text), None);
    assert_eq!(FailureNote::from_note("py x", "line 12: py x maybe"), None);
    assert_eq!(FailureNote::from_note("py x", "line x: py x crashed"), None);
}

/// What a solver that takes blocks saw of each call, per worker thread:
/// the block's key and puzzles, and the upcoming block's.
type Calls = std::sync::Mutex<
    std::collections::HashMap<
        std::thread::ThreadId,
        Vec<(Option<u64>, Vec<Grid>, Option<(u64, Vec<Grid>)>)>,
    >,
>;

/// The built-in `dlx`, taking its puzzles in blocks ([`Solver::solves_blocks`])
/// as a solver in its own process does, and logging what each call showed.
struct Peeking {
    inner: Box<dyn crate::solvers::Solver<Grid>>,
    calls: &'static Calls,
}

impl crate::solvers::Solver<Grid> for Peeking {
    fn solve(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> crate::solvers::Outcome {
        self.inner.solve(puzzle, limit, budget, solution)
    }

    fn solves_blocks(&self) -> bool {
        true
    }

    fn solve_block(
        &mut self,
        block: &mut dyn crate::solvers::Block<Grid>,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) {
        let puzzles = (0..block.len())
            .filter_map(|i| block.puzzle(i).cloned())
            .collect();
        let upcoming = block.upcoming().map(|u| {
            let puzzles = (0..u.len()).filter_map(|i| u.puzzle(i).cloned()).collect();
            (u.key(), puzzles)
        });
        let key = block.key();
        self.calls
            .lock()
            .unwrap()
            .entry(std::thread::current().id())
            .or_default()
            .push((key, puzzles, upcoming));
        crate::solvers::solve_each(&mut *self.inner, block, limit, budget, solution);
    }
}

/// A run of the one solver `peek` (`dlx` in blocks, its calls recorded in
/// `calls`) on two threads.
fn peeking_on_two_threads(calls: &'static Calls) -> Setup<Grid> {
    let dlx = SolverSet::<Grid>::builtin().by_name("dlx").unwrap().clone();
    let lineup = Lineup::new(vec![crate::solvers::SolverEntry::new(
        "peek",
        "dlx in blocks",
        move || {
            Box::new(Peeking {
                inner: dlx.make(),
                calls,
            })
        },
    )]);
    let mut setup = Setup::new(lineup);
    setup.config_mut().threads = 2;
    setup
}

/// Counts the records it is sent.
struct Counting(&'static AtomicUsize);

impl RecordSink for Counting {
    fn write_batch(&mut self, _: &str, records: &[Record]) -> std::io::Result<()> {
        self.0.fetch_add(records.len(), Ordering::SeqCst);
        Ok(())
    }
    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// With one solver in its own process, each chunk's call shows the next
/// call's block, which is exactly the block that comes next on that
/// worker; the last call shows none. Every puzzle is solved once.
#[test]
fn a_lone_solver_taking_blocks_is_shown_each_next_block_before_it_comes() {
    static CALLS: std::sync::OnceLock<Calls> = std::sync::OnceLock::new();
    let calls = CALLS.get_or_init(Default::default);
    let setup = peeking_on_two_threads(calls);
    static RECORDS: AtomicUsize = AtomicUsize::new(0);
    let corpora = &corpora()[..1];
    let run = run(corpora, &setup, Some(Box::new(Counting(&RECORDS))), None).unwrap();
    let stats = &run.corpora[0].solvers[0];
    assert_eq!((stats.puzzles, stats.solved), (1000, 1000));
    assert_eq!(RECORDS.load(Ordering::SeqCst), 1000);
    let calls = calls.lock().unwrap();
    let mut seen = 0;
    for calls in calls.values() {
        for pair in calls.windows(2) {
            let shown = pair[0].2.as_ref().expect("the next call's block shown");
            assert_eq!(Some(shown.0), pair[1].0, "the key of the block that came");
            assert_eq!(shown.1, pair[1].1, "its puzzles");
        }
        let last = calls.last().unwrap();
        assert!(last.2.is_none(), "nothing after the last");
        seen += calls.iter().map(|c| c.1.len()).sum::<usize>();
    }
    assert_eq!(seen, 1000);
}

/// A stop with a chunk read ahead and not run: the run ends (the writer's
/// order has no gap to wait on), and the chunk is neither counted nor
/// done.
#[test]
fn a_stop_leaves_the_chunk_read_ahead_uncounted_and_the_run_ends() {
    static CALLS: std::sync::OnceLock<Calls> = std::sync::OnceLock::new();
    let calls = CALLS.get_or_init(Default::default);
    let setup = peeking_on_two_threads(calls);
    static RECORDS: AtomicUsize = AtomicUsize::new(0);
    /// Asks to stop at the first chunk done.
    struct StopAtOnce(AtomicBool);
    impl Progress for StopAtOnce {
        fn start_corpus(&self, _: usize, _: usize, _: &str, _: u64) {}
        fn advance(&self, _: u64) {
            self.0.store(true, Ordering::SeqCst);
        }
        fn stop_requested(&self) -> bool {
            self.0.load(Ordering::SeqCst)
        }
    }
    let progress = StopAtOnce(AtomicBool::new(false));
    let run = run(
        &corpora()[..1],
        &setup,
        Some(Box::new(Counting(&RECORDS))),
        Some(&progress),
    )
    .unwrap();
    assert!(run.interrupted);
    let corpus = &run.corpora[0];
    let solved: usize = calls
        .lock()
        .unwrap()
        .values()
        .flatten()
        .map(|c| c.1.len())
        .sum();
    assert!(solved < 1000, "stopped early");
    assert_eq!(
        corpus.solvers[0].puzzles, solved as u64,
        "what ran, no more"
    );
    assert_eq!(RECORDS.load(Ordering::SeqCst), solved);
    assert_eq!(corpus.puzzles, solved as u64);
}
