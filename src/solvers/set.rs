//! The solvers a run can choose from, built at run time: the built-in
//! entries of a puzzle kind, plus any added later (owned names, boxed
//! constructors).
//!
//! ```
//! use dlxbench::solvers::{Budget, Outcome, Solver, SolverEntry, SolverSet};
//! use dlxbench::sudoku::Grid;
//!
//! /// Gives up at once: a toy solver added at run time.
//! struct GiveUp;
//! impl Solver<Grid> for GiveUp {
//!     fn solve(&mut self, _: &Grid, _: u64, _: Budget, _: &mut Grid) -> Outcome {
//!         Outcome { budget_exceeded: true, ..Outcome::default() }
//!     }
//! }
//!
//! let mut set = SolverSet::<Grid>::builtin();
//! set.add(SolverEntry::new("give-up", "never solves anything", || Box::new(GiveUp)))
//!     .unwrap();
//! assert_eq!(set.names(), ["dlx", "dc", "heuristic", "singles", "locked", "naive", "give-up"]);
//! assert!(set.add(SolverEntry::new("dlx", "again", || Box::new(GiveUp))).is_err());
//! let chosen = set.select(&["give-up".into(), "dlx".into()]).unwrap();
//! assert_eq!(chosen[0].name(), "give-up");
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::layout::{Fresh, LayoutError, Randomised, Relayout};
use super::{Budget, Solver, SolverInfo};
use crate::puzzle::Puzzle;

/// A puzzle kind with built-in solvers ([`SolverSet::builtin`]).
pub trait Builtin: Puzzle {
    /// The built-in solvers, in the order reports list them.
    const SOLVERS: &'static [SolverInfo<Self>];
}

/// Makes a fresh solver (with empty working memory).
type Make<P> = dyn Fn() -> Box<dyn Solver<P>> + Send + Sync;

/// A solver a run can use: its name, a description, a constructor, and the
/// budget it gets when none is asked for.
pub struct SolverEntry<P: 'static> {
    name: String,
    description: String,
    default_budget: Budget,
    make: Arc<Make<P>>,
    log_file: Option<LogFile>,
    /// Its latencies are its own claims (`ns=`), checked against the round
    /// trips the harness measures ([`SolverEntry::own_times`]).
    own_times: bool,
    /// Makes the entry afresh for a pass ([`super::layout`]).
    relayout: Option<(Randomised, Arc<Relayout<P>>)>,
}

/// Where a solver in its own process writes its standard error: a file
/// name, placed in a directory once the caller knows it (the bench session
/// places it in the result directory before the run). Until placed, the
/// solver's standard error is discarded. Clones share the place.
#[derive(Debug, Clone)]
pub struct LogFile {
    name: String,
    dir: Arc<Mutex<Option<PathBuf>>>,
    usage: Arc<LogUsage>,
}

/// What the processes of one [`LogFile`] wrote to it and what the caps
/// dropped, shared by all of them (`docs/solver-protocol.md`, standard
/// error: the first [`LogUsage::HEAD`] bytes are kept, then each process's
/// last [`LogUsage::TAIL`], while the file is under [`LogUsage::MAX`]).
#[derive(Debug, Default)]
pub struct LogUsage {
    /// Bytes claimed for the head so far (may pass [`LogUsage::HEAD`]:
    /// what passes it went to the tails).
    pub head: std::sync::atomic::AtomicU64,
    /// Bytes written to the file (markers included).
    pub written: std::sync::atomic::AtomicU64,
    /// Bytes of standard error read and not written.
    pub dropped: std::sync::atomic::AtomicU64,
}

impl LogUsage {
    /// The head of the log kept whole: the first 16 MiB any of the
    /// solver's processes wrote.
    pub const HEAD: u64 = 16 << 20;
    /// The tail of each process's standard error kept past the head: its
    /// last 1 MiB.
    pub const TAIL: usize = 1 << 20;
    /// No tail is written once the file holds this many bytes: 32 MiB.
    pub const MAX: u64 = 32 << 20;
}

impl LogFile {
    /// A log file named `name` (a plain file name), not placed yet.
    pub fn new(name: impl Into<String>) -> Self {
        LogFile {
            name: name.into(),
            dir: Arc::new(Mutex::new(None)),
            usage: Arc::new(LogUsage::default()),
        }
    }

    /// What its processes wrote and what the caps dropped so far.
    pub fn usage(&self) -> &LogUsage {
        &self.usage
    }

    /// Bytes of standard error dropped by the caps so far.
    pub fn dropped(&self) -> u64 {
        self.usage
            .dropped
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The file's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Places the file in `dir` (it is then `dir/NAME`): solvers started
    /// from now on append their standard error to it. Returns its path.
    pub fn place_in(&self, dir: &Path) -> PathBuf {
        *self.dir.lock().unwrap_or_else(|e| e.into_inner()) = Some(dir.to_path_buf());
        dir.join(&self.name)
    }

    /// The file's path, once placed.
    pub fn path(&self) -> Option<PathBuf> {
        let dir = self.dir.lock().unwrap_or_else(|e| e.into_inner());
        dir.as_ref().map(|d| d.join(&self.name))
    }
}

impl<P> SolverEntry<P> {
    /// An entry with no default budget ([`Budget::UNLIMITED`]).
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        make: impl Fn() -> Box<dyn Solver<P>> + Send + Sync + 'static,
    ) -> Self {
        SolverEntry {
            name: name.into(),
            description: description.into(),
            default_budget: Budget::UNLIMITED,
            make: Arc::new(make),
            log_file: None,
            own_times: false,
            relayout: None,
        }
    }

    /// The same entry with a way to make it afresh for each pass of a run
    /// whose layout is randomised ([`super::layout::Layout::pass`]):
    /// `relayout` makes an entry of the same name that loads fresh copies
    /// and places its buffers as the [`Fresh`] it is given says;
    /// `randomised` says what that varies.
    pub fn with_relayout(
        mut self,
        randomised: Randomised,
        relayout: impl Fn(&Fresh<'_>) -> Result<SolverEntry<P>, LayoutError> + Send + Sync + 'static,
    ) -> Self {
        self.relayout = Some((randomised, Arc::new(relayout)));
        self
    }

    /// What a randomised layout varies for this entry
    /// ([`Randomised::Nothing`] without a relayout function).
    pub fn randomised(&self) -> Randomised {
        self.relayout
            .as_ref()
            .map_or(Randomised::Nothing, |(r, _)| *r)
    }

    /// The relayout function, if any.
    pub(crate) fn relayout_fn(&self) -> Option<&Relayout<P>> {
        self.relayout.as_ref().map(|(_, f)| &**f)
    }

    /// The same entry with a log file for its standard error (a solver in
    /// its own process, [`crate::solvers::process`]).
    pub fn with_log_file(mut self, log_file: LogFile) -> Self {
        self.log_file = Some(log_file);
        self
    }

    /// Where its standard error goes, for a solver in its own process.
    pub fn log_file(&self) -> Option<&LogFile> {
        self.log_file.as_ref()
    }

    /// The same entry for a solver whose latencies are its own claims
    /// (a `--solver-cmd` solver's `ns=`), checked against the round trips
    /// the harness measures around them: a run with one measures the
    /// pipe's round-trip floor first.
    pub fn with_own_times(mut self) -> Self {
        self.own_times = true;
        self
    }

    /// Whether its latencies are its own claims ([`Self::with_own_times`]);
    /// false for built-in solvers and loaded libraries, in process or
    /// isolated (a host's time is the harness's own reading of the call).
    pub fn own_times(&self) -> bool {
        self.own_times
    }

    /// The same entry with `budget` as its default budget.
    pub fn with_default_budget(mut self, budget: Budget) -> Self {
        self.default_budget = budget;
        self
    }

    /// The name used on the command line and in result files.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// One line for `--help` and the README.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The node budget the harness gives it when none is asked for.
    pub fn default_budget(&self) -> Budget {
        self.default_budget
    }

    /// A fresh solver.
    pub fn make(&self) -> Box<dyn Solver<P>> {
        (self.make)()
    }
}

impl<P> Clone for SolverEntry<P> {
    fn clone(&self) -> Self {
        SolverEntry {
            name: self.name.clone(),
            description: self.description.clone(),
            default_budget: self.default_budget,
            make: Arc::clone(&self.make),
            log_file: self.log_file.clone(),
            own_times: self.own_times,
            relayout: self.relayout.clone(),
        }
    }
}

impl<P> fmt::Debug for SolverEntry<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SolverEntry")
            .field("name", &self.name)
            .field("default_budget", &self.default_budget)
            .finish()
    }
}

impl<P> From<&SolverInfo<P>> for SolverEntry<P> {
    fn from(info: &SolverInfo<P>) -> Self {
        let make = info.make;
        SolverEntry::new(info.name, info.description, make).with_default_budget(info.default_budget)
    }
}

/// Why a set could not take an entry or resolve a selection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverSetError {
    /// An entry's name is taken.
    #[error("a solver named `{0}` exists already")]
    Duplicate(String),
    /// A name that is not usable (empty, or with a comma or whitespace).
    #[error("`{0}` is not a usable solver name: use letters, digits, `-`, `_`, `.` or `+`")]
    BadName(String),
    /// A selection names no solver of the set.
    #[error("unknown solver `{name}` ({kind}: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// What the set holds, e.g. `known for sudoku`.
        kind: String,
        /// The set's names, comma-separated.
        known: String,
    },
    /// A selection names a solver twice.
    #[error("solver `{0}` given twice")]
    Twice(String),
    /// A selection names no solver.
    #[error("no solvers selected (known: {0})")]
    Empty(String),
}

/// The solvers of one puzzle kind a run can choose from, in report order.
pub struct SolverSet<P: 'static> {
    entries: Vec<SolverEntry<P>>,
    /// How the set is described in messages (`known for sudoku`).
    label: String,
}

impl<P> SolverSet<P> {
    /// A set with no solver; `label` describes it in messages.
    pub fn empty(label: impl Into<String>) -> Self {
        SolverSet {
            entries: Vec::new(),
            label: label.into(),
        }
    }

    /// The built-in solvers of `P`.
    pub fn builtin() -> Self
    where
        P: Builtin,
    {
        let mut set = SolverSet::empty(format!("known for {}", P::NAME));
        set.entries = P::SOLVERS.iter().map(SolverEntry::from).collect();
        set
    }

    /// Adds `entry` after the others; its name must be new.
    pub fn add(&mut self, entry: SolverEntry<P>) -> Result<(), SolverSetError> {
        let name = entry.name();
        let usable = |c: char| c.is_ascii_alphanumeric() || "-_.+".contains(c);
        if name.is_empty() || !name.chars().all(usable) {
            return Err(SolverSetError::BadName(name.to_string()));
        }
        if self.get(name).is_some() {
            return Err(SolverSetError::Duplicate(name.to_string()));
        }
        self.entries.push(entry);
        Ok(())
    }

    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&SolverEntry<P>> {
        self.entries.iter().find(|e| e.name() == name)
    }

    /// The entry named `name`, or an error listing the known names.
    pub fn by_name(&self, name: &str) -> Result<&SolverEntry<P>, SolverSetError> {
        self.get(name).ok_or_else(|| SolverSetError::Unknown {
            name: name.to_string(),
            kind: self.label.clone(),
            known: self.names().join(", "),
        })
    }

    /// Every entry, in report order.
    pub fn entries(&self) -> &[SolverEntry<P>] {
        &self.entries
    }

    /// The names, in report order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(SolverEntry::name).collect()
    }

    /// The entries named in `names`, in that order (surrounding whitespace
    /// ignored); each at most once, at least one.
    pub fn select(&self, names: &[String]) -> Result<Vec<SolverEntry<P>>, SolverSetError> {
        let mut chosen: Vec<SolverEntry<P>> = Vec::with_capacity(names.len());
        for name in names {
            let entry = self.by_name(name.trim())?;
            if chosen.iter().any(|c| c.name() == entry.name()) {
                return Err(SolverSetError::Twice(entry.name().to_string()));
            }
            chosen.push(entry.clone());
        }
        if chosen.is_empty() {
            return Err(SolverSetError::Empty(self.names().join(", ")));
        }
        Ok(chosen)
    }
}

impl<P> fmt::Debug for SolverSet<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}
