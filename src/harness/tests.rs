//! The run loop's contract with its caller: per-corpus results, stops,
//! record-writing failures, and throughput arithmetic.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::*;
use crate::solvers::SolverSet;
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
    let config = Config::new(&lineup);
    let progress = StopAfter {
        after: 1,
        finished: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let run = run(&corpora(), &config, &lineup, None, Some(&progress)).unwrap();
    assert!(run.interrupted);
    assert_eq!(run.corpora.len(), 1);
    assert!(run.corpora[0].complete());
    assert_eq!(run.corpora[0].solvers[0].puzzles, 1000);

    let progress = StopAfter {
        after: 5,
        finished: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
    };
    let run = super::run(&corpora(), &config, &lineup, None, Some(&progress)).unwrap();
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
    let mut config = Config::new(&lineup);
    config.threads = 2;
    let run = run(&corpora(), &config, &lineup, Some(Box::new(Broken)), None).unwrap();
    assert_eq!(run.records_error.unwrap().to_string(), "disk full");
    assert_eq!(run.corpora.len(), 3);
    assert!(run.corpora.iter().all(|c| c.solvers[0].puzzles == 1000));
}

#[test]
fn throughput_counts_solves_within_budget_and_the_workers_given() {
    let mut stats = SolverStats::new("s");
    assert_eq!(stats.puzzles_per_s(1), None, "nothing timed");
    let record = |ns, status| Record {
        line: 1,
        solver: 0,
        status,
        ns,
        solutions: 1,
        nodes: 1,
        guesses: 0,
        updates: None,
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
