//! What a session came to: the [`Outcome`] and its parts, each with the
//! message `bench` prints for it.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::corpus::NoPuzzles;
use crate::harness::RunResult;
use crate::plot::PlotError;
use crate::report::RunMeta;
use crate::terminal::escape_controls;

/// What went wrong without losing any result (a corpus that changed
/// while it was read, a picture or an export missing). `Display` gives the
/// message `bench` prints after `dlxbench: `.
#[derive(Debug)]
pub enum Warning {
    /// A corpus file's size or modification time changed while the run
    /// read it ([`Corpus::changed_on_disk`](crate::corpus::Corpus::changed_on_disk)):
    /// its results may mix two versions of the file, and its recorded
    /// SHA-256 (taken at the start) may match neither. Its `run.json`
    /// entry says `changed_on_disk`, and `compare` refuses it.
    CorpusChanged {
        /// The corpus's file.
        file: String,
    },
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
            Warning::CorpusChanged { file } => write!(
                f,
                "warning: {file} changed on disk during the run: its results may mix two versions \
                 of the file and its recorded SHA-256 may match neither (run.json says \
                 changed_on_disk; compare refuses it); copy a corpus that may change, or pipe it \
                 through standard input"
            ),
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

/// A complete corpus more of whose puzzle lines are malformed than read
/// ([`corpus::mostly_unreadable`](crate::corpus::mostly_unreadable)): most
/// likely not a puzzle file (a README), or puzzles of another kind or
/// notation. The run fails ([`Problem::Malformed`]). `Display`: `FILE:
/// why`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MostlyMalformed {
    /// The corpus's file, or its name when it has none.
    pub file: String,
    /// Puzzles read.
    pub puzzles: u64,
    /// Lines that are not puzzles.
    pub malformed: u64,
}

impl fmt::Display for MostlyMalformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} of its {} puzzle lines are malformed ({} read): most likely not a puzzle \
             file, or puzzles of another kind or notation (see --kind, --alphabet, --box)",
            self.file,
            crate::report::thousands(self.malformed),
            crate::report::thousands(self.malformed + self.puzzles),
            crate::report::thousands(self.puzzles)
        )
    }
}

/// A problem a run found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Solvers disagreed or returned invalid answers: this many
    /// ([`RunResult::discrepancies`], each told with its corpus).
    Discrepancies(usize),
    /// Malformed lines, this many in all (each corpus's told with it): as
    /// in every subcommand's input policy, a line that is not a puzzle
    /// makes the exit status 1, `--strict` or not. `Display`: the message
    /// `bench` prints.
    Malformed(u64),
    /// With [`Session::strict`](super::Session::strict): unsolvable puzzles in a corpus not marked
    /// ALLOWZERO. `Display`: the message `bench --strict` prints.
    Unsolvable,
    /// Solves that failed: this many crashes, timeouts and protocol errors
    /// of solvers in their own processes ([`RunResult::failed_solves`]; the
    /// first few told with their corpus, `CorpusResult::failures`).
    Failures(u64),
}

impl Problem {
    /// Whether it is a problem only with [`Session::strict`](super::Session::strict).
    pub fn strict(self) -> bool {
        matches!(self, Problem::Unsolvable)
    }

    /// The problems of `run`, unexpected unsolvable puzzles counting only
    /// when `strict`.
    pub fn of(run: &RunResult, strict: bool) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !run.discrepancies.is_empty() {
            problems.push(Problem::Discrepancies(run.discrepancies.len()));
        }
        let failed = run.failed_solves();
        if failed > 0 {
            problems.push(Problem::Failures(failed));
        }
        if run.has_malformed() {
            let lines = run.corpora.iter().map(|c| c.malformed).sum();
            problems.push(Problem::Malformed(lines));
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
            Problem::Malformed(n) => write!(
                f,
                "{} malformed line(s) skipped: a line that is not a puzzle makes the exit status \
                 1 (comment it out with `#` to keep it)",
                crate::report::thousands(*n)
            ),
            Problem::Failures(n) => {
                write!(f, "{n} failed solves (crashed, timeout or protocol-error)")
            }
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
    /// Corpora that changed while read, then pictures or exports missing
    /// (the results are kept), in order.
    pub warnings: Vec<Warning>,
    /// The complete corpora that had no readable puzzle.
    pub unreadable: Vec<Unreadable>,
    /// The complete corpora with more malformed lines than puzzles (and at
    /// least one puzzle).
    pub mostly_malformed: Vec<MostlyMalformed>,
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

    /// What `bench` tells after the run, before it exits 1, each after
    /// `dlxbench: `: the [`Outcome::mostly_malformed`] corpora, then the
    /// problems other than the discrepancies (which are told with their
    /// corpus as it ends).
    pub fn closing_messages(&self) -> Vec<String> {
        let problems = self
            .problems
            .iter()
            .filter(|p| !matches!(p, Problem::Discrepancies(_)));
        let suspects = self.mostly_malformed.iter().map(ToString::to_string);
        suspects.chain(problems.map(ToString::to_string)).collect()
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
