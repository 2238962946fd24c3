//! Bisect: the first commit between a good one and a bad one where a
//! solver's counts or time changed.
//!
//! Each commit probed is built into a shared library with tdoku's C
//! interface ([`build`]: `libdlxbench.so` of the `dlxbench-ffi` crate, or
//! what a command of the user's makes), in a git worktree of the commit,
//! and cached by commit. What a probe compares with the good commit's
//! library ([`probe`]):
//!
//! - **counts** ([`Measure::Counts`]): every puzzle's status, solution
//!   count and count of guesses (`*num_guesses`, the C interface's only
//!   search count), which do not depend on the machine: any difference is
//!   a change, found exactly;
//! - **time** ([`Measure::Time`]): both libraries loaded in one paired
//!   [`ab`](crate::ab) run; changed when its whole interval lies beyond
//!   the threshold (`ab`'s verdict rule), the same when it lies wholly on
//!   the near side (a change of the threshold's size is ruled out), and
//!   unknown otherwise: an undecided run is skipped, as `git bisect skip`
//!   skips, never taken for a verdict.
//!
//! A commit that does not build is skipped too. The search ([`search`])
//! walks the first-parent chain from the good commit to the bad one
//! ([`git`]) in about log2(n) probes; [`probe_one`] judges one commit
//! alone, for `git bisect run` (exit 0, 1 or 125: [`Verdict::exit_status`]).

pub mod build;
pub mod git;
pub mod probe;
pub mod render;
pub mod search;

use std::path::PathBuf;

use crate::ab::{self, AbError};
use crate::corpus::Corpus;
use crate::harness::{HarnessError, Mode};
use crate::solvers::foreign::{ForeignError, LibrarySpec};
use crate::solvers::host::HostCheckError;

pub use build::{Builder, Built, Profile, Recipe};
pub use git::{Commit, Repo};
pub use probe::{Counts, CountsChange, TimeChange};
pub use search::{Found, Verdict};

/// What is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Measure {
    /// Every puzzle's status, solutions and guesses, exactly.
    #[default]
    Counts,
    /// Time, in a paired `ab` run of the two libraries.
    Time,
}

/// Which change of time is looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// A slow-down.
    #[default]
    Slower,
    /// A speed-up.
    Faster,
}

/// How to bisect.
#[derive(Debug, Clone)]
pub struct Options {
    /// Counts or time.
    pub measure: Measure,
    /// For time: a slow-down or a speed-up.
    pub direction: Direction,
    /// The solver function in each library (`dlxbench_dlx`).
    pub symbol: String,
    /// The `flags` passed on every call (0).
    pub flags: u32,
    /// Worker threads of the counts' run and of `ab` (1).
    pub threads: usize,
    /// Mode and solution limit.
    pub mode: Mode,
    /// The solution limit passed (2 for `unique`).
    pub limit: u64,
    /// For time: `ab`'s options (threshold, time allowed, passes).
    pub ab: ab::Options,
    /// Run each library in host processes of this program (the `dlxbench`
    /// binary, its hidden `solver-host` mode); `None`: loaded in this
    /// process.
    pub host_program: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            measure: Measure::Counts,
            direction: Direction::Slower,
            symbol: "dlxbench_dlx".to_string(),
            flags: 0,
            threads: 1,
            mode: Mode::Unique,
            limit: 2,
            ab: ab::Options::default(),
            host_program: None,
        }
    }
}

/// Why a bisect could not be made.
// Duplicates (issue #42): the `#[error(transparent)]` variants alike in shape with other modules'
// error enums are deliberate: each module wraps the errors of what it calls.
#[derive(Debug, thiserror::Error)]
pub enum BisectError {
    /// A git command failed.
    #[error("git {args}: {message}")]
    Git {
        /// Its arguments.
        args: String,
        /// What git said.
        message: String,
    },
    /// No commit after the good one leads to the bad one.
    #[error("no commits from {good} to {bad}: BAD must be a descendant of GOOD")]
    EmptyRange {
        /// The good commit.
        good: String,
        /// The bad commit.
        bad: String,
    },
    /// The good commit is not on the bad one's first-parent chain.
    #[error("{good} is not on the first-parent chain of {bad}: give as GOOD a commit of that chain (`git log --first-parent {bad}`; for a merged branch, its merge base and its tip)")]
    NotOnFirstParents {
        /// The good commit.
        good: String,
        /// The bad commit.
        bad: String,
    },
    /// The good commit does not build: nothing to compare with.
    #[error("the good commit {commit} does not build ({reason}; the log: {})", log.display())]
    GoodDoesNotBuild {
        /// The commit.
        commit: String,
        /// Why.
        reason: String,
        /// The build's output.
        log: PathBuf,
    },
    /// The bad commit is not changed against the good one.
    #[error("the bad commit {commit} is not changed against the good one (its probe: {verdict}, {evidence}): nothing to bisect")]
    BadNotChanged {
        /// The commit.
        commit: String,
        /// `same`, or `unknown` (does not build, or no time verdict).
        verdict: &'static str,
        /// What its probe found.
        evidence: String,
    },
    /// A file of the cache could not be made.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// Why it failed.
        #[source]
        source: std::io::Error,
    },
    /// A library could not be loaded.
    #[error(transparent)]
    Load(#[from] ForeignError),
    /// A host process could not load a library.
    #[error(transparent)]
    Host(#[from] HostCheckError),
    /// The harness refused.
    #[error(transparent)]
    Harness(#[from] HarnessError),
    /// The `ab` run failed.
    #[error(transparent)]
    Ab(#[from] AbError),
}

/// What a probe found of one commit.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// The commit does not build.
    BuildFailed {
        /// The build's output.
        log: PathBuf,
        /// Why, in a few words.
        reason: String,
    },
    /// Its counts against the good commit's.
    Counts(CountsChange),
    /// Its time against the good commit's.
    Time(TimeChange),
}

impl Evidence {
    /// Same, changed or unknown.
    pub fn verdict(&self) -> Verdict {
        match self {
            Evidence::BuildFailed { .. } => Verdict::Unknown,
            Evidence::Counts(c) => c.verdict(),
            Evidence::Time(t) => t.verdict(),
        }
    }
}

/// One commit probed.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The commit.
    pub commit: Commit,
    /// What was found.
    pub evidence: Evidence,
    /// Whether its library came from the cache.
    pub cached: bool,
}

impl Probe {
    /// Same, changed or unknown.
    pub fn verdict(&self) -> Verdict {
        self.evidence.verdict()
    }
}

/// What a bisect found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The good commit.
    pub good: Commit,
    /// The chain after it, oldest first; the last is the bad commit.
    pub chain: Vec<Commit>,
    /// Every probe, in the order made: the bad commit's first.
    pub probes: Vec<Probe>,
    /// The first changed commit, or the commits it may be.
    pub found: Found,
}

impl Report {
    /// The probe of the chain's commit `index` (1-based: 0 is the good
    /// commit, never probed), if made.
    pub fn probe_of(&self, index: usize) -> Option<&Probe> {
        let sha = &self.chain.get(index.checked_sub(1)?)?.sha;
        self.probes.iter().find(|p| &p.commit.sha == sha)
    }

    /// The commits [`Report::found`] names.
    pub fn found_commits(&self) -> Vec<&Commit> {
        let indices = match &self.found {
            Found::First(i) => vec![*i],
            Found::Among(v) => v.clone(),
        };
        indices.iter().map(|&i| &self.chain[i - 1]).collect()
    }
}

/// What a bisect tells as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A commit is being built (not in the cache).
    Building(&'a Commit),
    /// A commit is being measured.
    Measuring(&'a Commit),
    /// A probe ended.
    Probed(&'a Probe),
}

/// A bisect's fixed parts: the repository, the builder, the corpora and
/// the good commit's library (and counts), made once.
pub struct Session<'a> {
    builder: &'a Builder,
    corpora: &'a [Corpus],
    options: &'a Options,
    good: Commit,
    good_lib: PathBuf,
    good_counts: Option<Counts>,
}

impl<'a> Session<'a> {
    /// Builds the good commit `good` (it must build) and, for counts,
    /// measures it.
    pub fn start(
        builder: &'a Builder,
        corpora: &'a [Corpus],
        options: &'a Options,
        good: Commit,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Session<'a>, BisectError> {
        if !builder.library_path(&good).is_file() {
            on_event(Event::Building(&good));
        }
        let good_lib = match builder.build(&good)? {
            Built::Library { path, .. } => path,
            Built::Failed { log, reason } => {
                return Err(BisectError::GoodDoesNotBuild {
                    commit: good.short.clone(),
                    reason,
                    log,
                })
            }
        };
        let mut session = Session {
            builder,
            corpora,
            options,
            good,
            good_lib,
            good_counts: None,
        };
        if options.measure == Measure::Counts {
            on_event(Event::Measuring(&session.good));
            let spec = session.spec(&session.good_lib, "good");
            let entry = probe::entry(&spec, options.host_program.as_deref())?;
            session.good_counts = Some(probe::counts(corpora, entry, options)?);
        }
        Ok(session)
    }

    /// The good commit.
    pub fn good(&self) -> &Commit {
        &self.good
    }

    /// The library at `path` under the solver name `name`.
    fn spec(&self, path: &std::path::Path, name: &str) -> LibrarySpec {
        LibrarySpec {
            path: path.to_path_buf(),
            symbol: self.options.symbol.clone(),
            flags: self.options.flags,
            name: name.to_string(),
            count_only: false,
        }
    }

    /// Builds and measures `commit` against the good commit.
    pub fn probe(
        &self,
        commit: &Commit,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Probe, BisectError> {
        if !self.builder.library_path(commit).is_file() {
            on_event(Event::Building(commit));
        }
        let (path, cached) = match self.builder.build(commit)? {
            Built::Library { path, cached } => (path, cached),
            Built::Failed { log, reason } => {
                let probe = Probe {
                    commit: commit.clone(),
                    evidence: Evidence::BuildFailed { log, reason },
                    cached: false,
                };
                on_event(Event::Probed(&probe));
                return Ok(probe);
            }
        };
        on_event(Event::Measuring(commit));
        let host = self.options.host_program.as_deref();
        let probed = probe::entry(&self.spec(&path, &commit.short), host)?;
        let evidence = match &self.good_counts {
            Some(before) => {
                let after = probe::counts(self.corpora, probed, self.options)?;
                Evidence::Counts(CountsChange::between(before, &after))
            }
            None => {
                let name = format!("{}.good", self.good.short);
                let good = probe::entry(&self.spec(&self.good_lib, &name), host)?;
                Evidence::Time(probe::time(self.corpora, good, probed, self.options)?)
            }
        };
        let probe = Probe {
            commit: commit.clone(),
            evidence,
            cached,
        };
        on_event(Event::Probed(&probe));
        Ok(probe)
    }

    /// Finds the first commit after the good one, up to `bad`, whose probe
    /// is changed: the bad commit is probed first (it must be changed,
    /// [`BisectError::BadNotChanged`]), then about log2(n) commits of the
    /// first-parent chain between.
    pub fn bisect(
        &self,
        repo: &Repo,
        bad: &Commit,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<Report, BisectError> {
        let chain = repo.first_parent_range(&self.good, bad)?;
        let first = self.probe(bad, on_event)?;
        if first.verdict() != Verdict::Changed {
            return Err(BisectError::BadNotChanged {
                commit: bad.short.clone(),
                verdict: first.verdict().as_str(),
                evidence: render::evidence(&first.evidence),
            });
        }
        let mut probes = vec![first];
        let found = search::search(chain.len(), |i| {
            let probe = self.probe(&chain[i - 1], on_event)?;
            let verdict = probe.verdict();
            probes.push(probe);
            Ok::<_, BisectError>(verdict)
        })?;
        Ok(Report {
            good: self.good.clone(),
            chain,
            probes,
            found,
        })
    }
}

/// Bisects from `good` to `bad` ([`Session::start`], then
/// [`Session::bisect`]).
pub fn run(
    repo: &Repo,
    builder: &Builder,
    corpora: &[Corpus],
    options: &Options,
    good: Commit,
    bad: &Commit,
    on_event: &mut dyn FnMut(Event),
) -> Result<Report, BisectError> {
    Session::start(builder, corpora, options, good, on_event)?.bisect(repo, bad, on_event)
}

/// Probes one commit `commit` against `good`: for `git bisect run`, whose
/// exit status is the probe's [`Verdict::exit_status`].
// Takes `run`'s arguments on purpose (both start a `Session`), for one commit instead of a range.
pub fn probe_one(
    builder: &Builder,
    corpora: &[Corpus],
    options: &Options,
    good: Commit,
    commit: &Commit,
    on_event: &mut dyn FnMut(Event),
) -> Result<Probe, BisectError> {
    let session = Session::start(builder, corpora, options, good, on_event)?;
    session.probe(commit, on_event)
}

#[cfg(test)]
mod tests;
