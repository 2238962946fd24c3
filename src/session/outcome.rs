//! What a session came to: the [`Outcome`] and its parts, each with the
//! message `bench` prints for it.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::corpus::NoPuzzles;
use crate::harness::RunResult;
use crate::plot::PlotError;
use crate::report::RunMeta;
use crate::terminal::escape_controls;

/// What went wrong after the run without losing any result (a picture or
/// an export missing). `Display` gives the message `bench` prints after
/// `dlxbench: `.
#[derive(Debug)]
pub enum Warning {
    /// The pictures and `report.html` could not be drawn.
    Pictures {
        /// Why.
        error: PlotError,
        /// Whether the result files are kept (else a [`Lost`], or a
        /// baseline not saved, says what is on disk).
        results_kept: bool,
    },
    /// An export could not be written (the later ones were not tried).
    Export {
        /// The format's name.
        format: &'static str,
        /// The file.
        file: PathBuf,
        /// The cause.
        error: io::Error,
        /// Whether the result files were written (else a [`Lost`] says
        /// what is on disk).
        results_kept: bool,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Pictures {
                error,
                results_kept,
            } => {
                write!(f, "cannot draw the pictures: {error}")?;
                match results_kept {
                    true => write!(
                        f,
                        "; the results are kept (`dlxbench plot` draws them later)"
                    ),
                    false => Ok(()),
                }
            }
            Warning::Export {
                format,
                file,
                error,
                results_kept,
            } => {
                write!(f, "--export {format}={}: {error}", file.display())?;
                let mut cause = std::error::Error::source(error);
                while let Some(e) = cause {
                    write!(f, ": {e}")?;
                    cause = e.source();
                }
                match results_kept {
                    true => write!(f, "; the results are kept"),
                    false => Ok(()),
                }
            }
        }
    }
}

/// Results that were not kept. `Display` gives the message `bench`
/// prints after `dlxbench: `, which says what is on disk.
#[derive(Debug)]
pub enum Lost {
    /// The last write of the result files failed: the files on disk are
    /// those of the last write that succeeded, as `on_disk` says (no
    /// temporary file is left).
    ResultFiles {
        /// The output directory.
        dir: PathBuf,
        /// The cause.
        error: io::Error,
        /// What the directory holds: `DIR keeps the results of a; its
        /// run.json reads as a run that died (b running: its results are
        /// lost)`.
        on_disk: String,
    },
    /// Writing `puzzles.csv` failed ([`RunResult::records_error`], moved
    /// here): it was removed, and `run.json` says there is none
    /// (`per_puzzle` false).
    PerPuzzle {
        /// The file.
        path: PathBuf,
        /// The cause.
        error: io::Error,
        /// Whether the other result files were written (else a
        /// [`Lost::ResultFiles`] says what is on disk).
        others_kept: bool,
    },
}

impl fmt::Display for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lost::ResultFiles {
                dir,
                error,
                on_disk,
            } => write!(
                f,
                "cannot write the result files in {}: {error}; {on_disk}",
                escape_controls(&dir.display().to_string())
            ),
            Lost::PerPuzzle {
                path,
                error,
                others_kept,
            } => {
                write!(
                    f,
                    "cannot write {}: {error}; it was removed (run.json says the run has no \
                     puzzles.csv)",
                    escape_controls(&path.display().to_string())
                )?;
                if *others_kept {
                    write!(f, "; the other result files hold the whole run")?;
                }
                Ok(())
            }
        }
    }
}

/// A complete corpus with no readable puzzle (the input policy of every
/// subcommand: empty of puzzles, random bytes, another kind).
/// `Display`: `FILE: why`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The corpus's file, or its name when it has none.
    pub file: String,
    /// Why.
    pub error: NoPuzzles,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.error)
    }
}

/// A problem a run found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Solvers disagreed or returned invalid solutions: this many
    /// ([`RunResult::discrepancies`], each told with its corpus).
    Discrepancies(usize),
    /// With [`Session::strict`](super::Session::strict): malformed lines. `Display`: the message
    /// `bench --strict` prints.
    Malformed,
    /// With [`Session::strict`](super::Session::strict): unsolvable puzzles in a corpus not marked
    /// ALLOWZERO. `Display`: the message `bench --strict` prints.
    Unsolvable,
}

impl Problem {
    /// Whether it is a problem only with [`Session::strict`](super::Session::strict).
    pub fn strict(self) -> bool {
        matches!(self, Problem::Malformed | Problem::Unsolvable)
    }

    /// The problems of `run`, malformed lines and unexpected unsolvable
    /// puzzles counting only when `strict`.
    pub fn of(run: &RunResult, strict: bool) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !run.discrepancies.is_empty() {
            problems.push(Problem::Discrepancies(run.discrepancies.len()));
        }
        if strict && run.has_malformed() {
            problems.push(Problem::Malformed);
        }
        if strict && run.has_unexpected_unsolvable() {
            problems.push(Problem::Unsolvable);
        }
        debug_assert_eq!(!problems.is_empty(), run.failed(strict));
        problems
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Discrepancies(n) => write!(f, "{n} discrepancies"),
            Problem::Malformed => write!(f, "--strict: malformed lines found"),
            Problem::Unsolvable => write!(
                f,
                "--strict: unsolvable puzzles in a corpus not marked ALLOWZERO"
            ),
        }
    }
}

/// What became of an [`Output::Baseline`](super::Output::Baseline).
#[derive(Debug)]
pub enum Baseline {
    /// Moved into place: [`Outcome::dir`].
    Saved,
    /// Not saved, the earlier baseline is unchanged: the run found
    /// problems, or did not complete. `Display` gives the message `bench`
    /// prints.
    NotSaved {
        /// The baseline's place.
        dest: PathBuf,
        /// Why: the run found problems (else: it did not complete).
        problems: bool,
    },
    /// The run completed without problems but its directory could not be
    /// moved into place (it is gone, the earlier baseline unchanged).
    /// `Display`: `cannot move the results into DEST: why`.
    NotMoved {
        /// The baseline's place.
        dest: PathBuf,
        /// The cause.
        error: io::Error,
    },
}

impl fmt::Display for Baseline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Baseline::Saved => write!(f, "baseline saved"),
            Baseline::NotSaved { dest, problems } => write!(
                f,
                "baseline not saved: {}; {} is unchanged",
                if *problems {
                    "the run found problems"
                } else {
                    "the run did not complete"
                },
                dest.display()
            ),
            Baseline::NotMoved { dest, error } => write!(
                f,
                "cannot move the results into {}: {error}",
                dest.display()
            ),
        }
    }
}

/// What a session came to.
#[derive(Debug)]
pub struct Outcome {
    /// The measurements (of every corpus, or after a stop of those run so
    /// far, the last one maybe partial).
    pub run: RunResult,
    /// The run's facts, as written in `run.json`.
    pub meta: RunMeta,
    /// Where the results are: the output directory, or a saved baseline's
    /// place (a baseline not saved leaves none: its temporary directory is
    /// gone).
    pub dir: PathBuf,
    /// The files written: the result files, `puzzles.csv`, the pictures,
    /// the exports.
    pub files: Vec<PathBuf>,
    /// Results not kept.
    pub lost: Vec<Lost>,
    /// Pictures or exports missing (the results are kept), in order.
    pub warnings: Vec<Warning>,
    /// The complete corpora that had no readable puzzle.
    pub unreadable: Vec<Unreadable>,
    /// The problems the run found ([`RunResult::failed`]): none, or a
    /// baseline is not saved and `bench` fails.
    pub problems: Vec<Problem>,
    /// What became of the baseline, for [`Output::Baseline`](super::Output::Baseline).
    pub baseline: Option<Baseline>,
}

impl Outcome {
    /// The run was stopped before its end ([`RunResult::interrupted`]).
    pub fn stopped(&self) -> bool {
        self.run.interrupted
    }

    /// Every corpus was run and every result file written.
    pub fn complete(&self) -> bool {
        !self.stopped() && self.lost.is_empty()
    }

    /// What a stopped run kept: `kept the results of a, b (partial: 10 of
    /// 20 lines) in DIR`, or `of nothing`.
    pub fn kept(&self) -> String {
        let done: Vec<String> = self
            .run
            .corpora
            .iter()
            .map(|c| match c.complete() {
                true => c.name.clone(),
                false => format!(
                    "{} (partial: {} of {} lines)",
                    c.name, c.lines_done, c.lines
                ),
            })
            .collect();
        let done = match done.is_empty() {
            true => "nothing".to_string(),
            false => done.join(", "),
        };
        format!("kept the results of {done} in {}", self.dir.display())
    }

    /// The line after the run's notes: `Results: DIR (N files)`, or
    /// `Results: not saved` for a baseline not saved.
    pub fn results_line(&self) -> String {
        match self.baseline {
            Some(Baseline::NotSaved { .. }) => "Results: not saved".to_string(),
            _ => format!(
                "Results: {} ({} files)",
                self.dir.display(),
                self.files.len()
            ),
        }
    }
}
