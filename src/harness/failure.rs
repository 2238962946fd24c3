//! Notes of failed solves, kept per corpus.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use super::Record;
use crate::solvers::{Failure, Status};

/// Failed solves kept in full per corpus ([`CorpusResult::failures`]).
pub const FAILURE_EXAMPLES: usize = 5;

/// A failed solve: where, which solver, what happened.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FailureNote {
    /// 1-based line.
    pub line: u64,
    /// The solver's name.
    pub solver: String,
    /// Its status ([`Status::is_failure`]).
    pub status: Status,
    /// The cause.
    pub failure: Option<Failure>,
    /// In an untimed warm-up solve (`--warmup`, or a block's first solve),
    /// which has no record of its own.
    pub warm_up: bool,
    /// On symmetry image 1 to K-1 (`--images`): its solve is a row of
    /// `images.csv`, not of `puzzles.csv`; none for image 0.
    pub image: Option<u32>,
    /// What the harness saw ([`crate::solvers::Solver::take_detail`]): the
    /// offending line, quoted, or the OS error.
    pub detail: Option<String>,
}

impl FailureNote {
    /// The note of the failed solve `record` of the solver named `solver`
    /// (on symmetry image `image`, none for image 0), with what the harness
    /// saw of it, taken out of `details` (keyed by line and solver) when
    /// there.
    pub(crate) fn of_record(
        record: &Record,
        solver: &str,
        image: Option<u32>,
        details: &mut Vec<((u64, u16), String)>,
    ) -> FailureNote {
        let key = (record.line, record.solver);
        FailureNote {
            line: record.line,
            solver: solver.to_string(),
            status: record.status,
            failure: record.failure,
            warm_up: false,
            image,
            detail: details
                .iter()
                .position(|(k, _)| *k == key)
                .map(|at| details.swap_remove(at).1),
        }
    }
}

impl std::fmt::Display for FailureNote {
    /// `line 12: py crashed (exit 3)` (`... on symmetry image 2` for an
    /// image's solve); for a solver stopped after failures
    /// in a row, `line 20: py stopped after failures in a row; its
    /// remaining puzzles are skipped`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.failure == Some(Failure::Stopped) {
            return write!(
                f,
                "line {}: {} stopped after {} failures in a row; its remaining puzzles of the \
                 corpus are skipped",
                self.line,
                self.solver,
                crate::solvers::process::MAX_FAILURES_IN_A_ROW
            );
        }
        write!(f, "line {}: {} {}", self.line, self.solver, self.status)?;
        if let Some(cause) = self.failure {
            write!(f, " ({cause})")?;
        }
        if self.warm_up {
            f.write_str(" in an untimed warm-up solve")?;
        }
        if let Some(image) = self.image {
            write!(f, " on symmetry image {image}")?;
        }
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}

impl FailureNote {
    /// The note `text` of the solver named `solver` read back from what
    /// `run.json` records of it (`corpora[i].failures[j].notes`: its
    /// [`Display`](std::fmt::Display)); `None` when it is not such a note.
    /// The note of a stop reads back without its detail, which its text
    /// does not show.
    pub fn from_note(solver: &str, text: &str) -> Option<FailureNote> {
        let (line, rest) = text.strip_prefix("line ")?.split_once(": ")?;
        let line = line.parse().ok()?;
        let rest = rest.strip_prefix(solver)?.strip_prefix(' ')?;
        let note = |status, failure| FailureNote {
            line,
            solver: solver.to_string(),
            status,
            failure,
            warm_up: false,
            image: None,
            detail: None,
        };
        if rest.starts_with("stopped after ") {
            let stopped = Failure::Stopped;
            return Some(note(stopped.status(), Some(stopped)));
        }
        let end = rest.find([' ', ':']).unwrap_or(rest.len());
        let mut note = note(Status::from_name(&rest[..end])?, None);
        let mut rest = &rest[end..];
        if let Some(after) = rest.strip_prefix(" (") {
            let (cause, after) = after.split_once(')')?;
            note.failure = Some(Failure::from_cause(cause)?);
            rest = after;
        }
        if let Some(after) = rest.strip_prefix(" in an untimed warm-up solve") {
            note.warm_up = true;
            rest = after;
        }
        if let Some(after) = rest.strip_prefix(" on symmetry image ") {
            let end = after.find(':').unwrap_or(after.len());
            note.image = Some(after[..end].parse().ok()?);
            rest = &after[end..];
        }
        if !rest.is_empty() {
            note.detail = Some(rest.strip_prefix(": ")?.to_string());
        }
        Some(note)
    }
}

/// Keeps, of `notes`, the first [`FAILURE_EXAMPLES`] failures by line and
/// for each solver its first stop.
pub(crate) fn trim_failure_notes(notes: &mut Vec<FailureNote>) {
    notes.sort();
    let mut failures = 0;
    let mut stopped: Vec<String> = Vec::new();
    notes.retain(|n| {
        if n.failure == Some(Failure::Stopped) {
            if stopped.contains(&n.solver) {
                return false;
            }
            stopped.push(n.solver.clone());
            return true;
        }
        if n.status == Status::Skipped {
            // Interrupted: the run says so itself.
            return false;
        }
        failures += 1;
        failures <= FAILURE_EXAMPLES
    });
}
