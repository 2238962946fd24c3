//! What a run tells its caller as it goes.

use super::RunResult;

/// What a run tells its caller as it goes, and how the caller stops it
/// (the bench session, `session::Session`, writes each corpus's result
/// files as it ends, passes the progress on to its observer, and stops
/// when its flag is set).
pub trait Progress: Sync {
    /// Corpus `index` (0-based) of `count`, of about `lines` lines,
    /// starts.
    fn start_corpus(&self, index: usize, count: usize, name: &str, lines: u64);
    /// `lines` more lines are done.
    fn advance(&self, lines: u64);
    /// A corpus ended (the last of `run.corpora`, complete or, when the
    /// run was stopped, partial); `run` holds every corpus so far.
    fn finish_corpus(&self, run: &RunResult) {
        let _ = run;
    }
    /// Whether to stop: no chunk is started after this returns true; the
    /// chunks in flight finish and are kept.
    fn stop_requested(&self) -> bool {
        false
    }
}
