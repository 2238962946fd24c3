//! One puzzle x solver result, and where a run sends them.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use crate::solvers::{Failure, Status, Timing};

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

impl Record {
    /// A record of `status` with these figures and nothing else: no
    /// counters, no failure cause, timed by the call, in no host process.
    pub fn new(line: u64, solver: u16, status: Status, ns: u64, solutions: u64) -> Self {
        Record {
            line,
            solver,
            status,
            ns,
            solutions,
            nodes: None,
            guesses: 0,
            updates: None,
            mems: None,
            failure: None,
            timing: Timing::Call,
            host: None,
        }
    }
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
