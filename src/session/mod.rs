//! A benchmark session: what `dlxbench bench` does around the
//! [`harness`] run, for any caller.
//!
//! A [`Session`] owns the output directory (its name, its lock
//! ([`crate::dirlock`]: one writer per directory, taken before anything in
//! it is touched), the refusal of an earlier run's files or their removal
//! with `force` (those its `run.json` lists, nothing else), the leftovers
//! of a killed run, the temporary directory of a baseline), writes each
//! corpus's result files as the corpus ends, streams `puzzles.csv`, and
//! after the run draws the pictures, writes the exports and moves a
//! baseline into place. It never prints: what happens before and during
//! the run goes to an [`Observer`] the caller implements (a progress
//! display, say), and what the run came to is the [`Outcome`] it returns,
//! for the caller to turn into messages and an exit status. A run stops,
//! keeping everything, when the `stop` flag given to [`Session::run`] is
//! set (a signal handler's, say).

mod corpora;
mod outcome;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::atomic::{self, AtomicDir, AtomicFile};
use crate::corpus::{self, Corpus};
use crate::dirlock::{DirLock, LockError};
use crate::exit_note;
use crate::export;
use crate::harness::{
    self, Config, Estimate, HarnessError, Lineup, Progress, RecordSink, RunResult, Setup,
};
use crate::plot;
use crate::puzzle::Puzzle;
use crate::report::run_json::{self, InProgress};
use crate::report::{self, puzzles_csv::PuzzlesCsv, schema, RunMeta};
use crate::results::{to_json, CorpusInfo, CorpusState, ResultDir, RoundTripFloor, RunInfo};
#[cfg(unix)]
use crate::solvers::echo;
use crate::terminal::escape_controls;

pub use corpora::{open_corpora, parse_only, Plan, Throughput, DATASETS_DIR};
pub use outcome::{Baseline, Lost, MostlyMalformed, Outcome, Problem, Unreadable, Warning};

/// Runs of this many lines or more get an [`Estimate`] before they start.
pub const ESTIMATE_FROM_LINES: u64 = 10_000;
/// Time spent sampling for the estimate.
pub const ESTIMATE_ALLOWANCE: Duration = Duration::from_millis(500);

/// Where a session writes its results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// A new directory in `parent`, named after the corpus (or `bench` for
    /// several), the shard and the time:
    /// `parent/top1465-shard1of4-20261127T120000Z`.
    Named {
        /// Where the directory is made (`results`).
        parent: PathBuf,
    },
    /// This directory (made if missing). One holding an earlier run's
    /// result files is refused, unless `force`: the files are then removed
    /// first, so that it holds one run's files only.
    Dir {
        /// The directory.
        path: PathBuf,
        /// Replace an earlier run's files.
        force: bool,
    },
    /// The baseline `parent/name`, written into a temporary directory and
    /// swapped into place (replacing an earlier one) only when the run
    /// completes and finds no problem.
    Baseline {
        /// Where baselines are kept (`results`).
        parent: PathBuf,
        /// The baseline's name: a plain directory name.
        name: String,
    },
}

/// One benchmark session: a run of `setup` (a lineup and its
/// configuration) over `corpora`, and where and what it writes. Build it, then [`Session::run`] it.
pub struct Session<'a, P: Puzzle> {
    /// The corpora, in run order (see [`open_corpora`]).
    pub corpora: &'a [Corpus],
    /// The solvers and parse options, and the harness configuration.
    pub setup: &'a Setup<P>,
    /// The solver relative speeds are quoted against (a name in `lineup`).
    pub reference: String,
    /// The command line, argument by argument, for `run.json`.
    pub command_line: Vec<String>,
    /// Where the results go.
    pub output: Output,
    /// Stream `puzzles.csv`.
    pub per_puzzle: bool,
    /// Draw the pictures and `report.html` after the run.
    pub plots: bool,
    /// Dashboard exports to write after the run: each format and its file.
    pub exports: Vec<(Box<dyn export::Format>, PathBuf)>,
    /// Unsolvable puzzles in corpora not marked ALLOWZERO are problems
    /// ([`RunResult::failed`]; malformed lines always are).
    pub strict: bool,
    /// Send the [`Notice::Plan`] and, for a run of
    /// [`ESTIMATE_FROM_LINES`] lines or more, the [`Notice::Estimate`]
    /// (which takes [`ESTIMATE_ALLOWANCE`]) before the run.
    pub announce: bool,
    /// The program with the echo solver's subcommand (the `dlxbench`
    /// binary: the caller gives its path), to measure the round-trip floor
    /// before the corpora when the lineup has solvers in their own
    /// processes (those with a log file). `None`, or a lineup without such
    /// solvers: not measured, at no cost. A floor that cannot be measured
    /// is left out of `run.json`.
    pub echo_program: Option<PathBuf>,
}

/// What a session tells its caller before and while the run goes. Every
/// method does nothing unless implemented.
pub trait Observer: Sync {
    /// Something to tell before the run starts, in order: the removal of a
    /// killed run's temporary files, then (with [`Session::announce`]) the
    /// plan and the estimate.
    fn notice(&self, notice: &Notice) {
        let _ = notice;
    }
    /// The run is about to start: the output directory is ready and the
    /// notices are sent. (The place to begin listening for a stop.)
    fn run_starting(&self) {}
    /// Corpus `index` (0-based) of `count`, of about `lines` lines, starts.
    fn start_corpus(&self, index: usize, count: usize, name: &str, lines: u64) {
        let _ = (index, count, name, lines);
    }
    /// `lines` more lines are done.
    fn advance(&self, lines: u64) {
        let _ = lines;
    }
    /// A corpus ended (the last of `run.corpora`, complete or, after a
    /// stop, partial) and the result files of the run so far are written
    /// (or failed to be: the run's last write tries again, [`Outcome::lost`]
    /// says if that failed too); `run` holds every corpus so
    /// far, `meta` the run's facts.
    fn corpus_done(&self, run: &RunResult, meta: &RunMeta) {
        let _ = (run, meta);
    }
    /// The run ended; the last writes, the pictures and the exports follow.
    fn run_done(&self) {}
}

/// An observer that ignores everything.
impl Observer for () {}

/// What a session tells before its run starts ([`Observer::notice`]).
/// `Display` gives the message `bench` prints after `dlxbench: `.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// Temporary files of a killed run were removed from the output
    /// directory.
    StaleRemoved {
        /// How many.
        count: usize,
        /// The output directory.
        dir: PathBuf,
    },
    /// What will run.
    Plan(Plan),
    /// How long the solving should take.
    Estimate(Estimate),
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::StaleRemoved { count, dir } => write!(
                f,
                "removed {count} temporary file(s) an interrupted run left in {}",
                dir.display()
            ),
            Notice::Plan(plan) => plan.fmt(f),
            Notice::Estimate(e) => write!(f, "estimated solving time {e}"),
        }
    }
}

/// Why a session could not run: nothing was measured.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// [`Output::Baseline`]'s name is not a plain directory name.
    #[error(
        "--save-baseline {0:?}: use a plain directory name (letters, digits, `-`, `_`, `.`, `+`; not starting with `.`)"
    )]
    BaselineName(String),
    /// The output directory holds an earlier run's result files and
    /// `force` is off.
    #[error(
        "--out {}: holds the results of an earlier run ({count} files, e.g. {example}); use \
         --force to replace them, or another directory",
        dir.display()
    )]
    EarlierRun {
        /// The output directory.
        dir: PathBuf,
        /// Result files found in it.
        count: usize,
        /// The name of one of them.
        example: String,
    },
    /// A file-system operation on the output directory failed.
    #[error("{what} {}", path.display())]
    Io {
        /// What was being done: `cannot create output directory`, ...
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The reference solver asked for is not in the lineup.
    #[error("--reference {asked}: not among the selected solvers ({})", solvers.join(", "))]
    Reference {
        /// The name asked for.
        asked: String,
        /// The lineup's solvers.
        solvers: Vec<String>,
    },
    /// Another run is writing into the output directory (it holds the
    /// directory's lock).
    #[error(transparent)]
    Locked(#[from] LockError),
    /// The run could not start.
    #[error(transparent)]
    Harness(#[from] HarnessError),
}

/// `Err(SessionError::Io)` for `result`'s error.
fn io_at<T>(result: io::Result<T>, what: &'static str, path: &Path) -> Result<T, SessionError> {
    result.map_err(|source| SessionError::Io {
        what,
        path: path.to_path_buf(),
        source,
    })
}

/// The name of the solver relative speeds are quoted against: `asked`,
/// which must be in `lineup`, except that the default `dlx` falls back to
/// the lineup's first solver when `dlx` is not in it.
pub fn reference<P: Puzzle>(lineup: &Lineup<P>, asked: &str) -> Result<String, SessionError> {
    let names = lineup.names();
    match names.iter().find(|n| **n == asked) {
        Some(n) => Ok(n.to_string()),
        None if asked == "dlx" && !names.is_empty() => Ok(names[0].to_string()),
        None => Err(SessionError::Reference {
            asked: asked.to_string(),
            solvers: names.iter().map(|n| n.to_string()).collect(),
        }),
    }
}

impl Output {
    /// The output of `bench`'s flags: `--save-baseline NAME` (under
    /// `parent`), else `--out DIR` (`--force`), else a named directory in
    /// `parent`.
    pub fn choose(
        parent: &Path,
        baseline: Option<&str>,
        out: Option<&Path>,
        force: bool,
    ) -> Output {
        match (baseline, out) {
            (Some(name), _) => Output::Baseline {
                parent: parent.to_path_buf(),
                name: name.to_string(),
            },
            (None, Some(path)) => Output::Dir {
                path: path.to_path_buf(),
                force,
            },
            (None, None) => Output::Named {
                parent: parent.to_path_buf(),
            },
        }
    }
}

impl<P: Puzzle> Session<'_, P> {
    /// The round-trip floor ([`echo::measure`], [`echo::REQUESTS`]
    /// requests), when the lineup has solvers whose own times are checked
    /// against round trips ([`crate::solvers::SolverEntry::own_times`]) and
    /// [`Session::echo_program`] is given. Isolated libraries alone need
    /// none: their times are the hosts' readings of the call, and the
    /// floor's thousand round trips would be a fixed cost of tens of
    /// milliseconds on a busy machine, a tenth of a fast solver's run.
    fn round_trip_floor(&self) -> Option<RoundTripFloor> {
        #[cfg(unix)]
        {
            let program = self.echo_program.as_ref()?;
            if !self.setup.lineup().solvers.iter().any(|s| s.own_times()) {
                return None;
            }
            let floor = echo::measure(program, echo::REQUESTS).ok()?;
            Some(RoundTripFloor {
                p50_ns: floor.p50_ns,
                mean_ns: floor.mean_ns,
                requests: floor.requests,
            })
        }
        #[cfg(not(unix))]
        None
    }

    /// Prepares the output directory, runs, writes every result file (each
    /// corpus's as it ends), draws the pictures, writes the exports and
    /// moves a baseline into place; stops after the chunks in flight,
    /// keeping everything, once `stop` is set.
    ///
    /// An error means nothing was measured (the output directory could not
    /// be prepared, or the run could not start); what went wrong later is
    /// in the [`Outcome`].
    pub fn run(self, observer: &dyn Observer, stop: &AtomicBool) -> Result<Outcome, SessionError> {
        let sha256: Vec<String> = self.corpora.iter().map(Corpus::sha256_hex).collect();
        let (out_dir, baseline, force) = self.output_dir()?;
        // One writer per directory: nothing in it is touched before the
        // lock, which is held until the run's last file is in place.
        let _lock = self.prepare(&out_dir, baseline.as_ref(), force, observer)?;
        let dest = baseline.as_ref().map(|b| b.dest().to_path_buf());
        let round_trip_floor = self.round_trip_floor();
        // The floor goes with the run: the check of solvers' own times
        // uses it.
        let setup = &{
            let mut setup = self.setup.clone();
            setup.config_mut().round_trip_floor_ns =
                round_trip_floor.as_ref().map_or(0.0, |f| f.p50_ns as f64);
            setup
        };
        let config = setup.config();
        let sink = self.sink(&out_dir)?;
        let place = Place {
            dir: &out_dir,
            dest: dest.as_deref(),
        };
        let meta = self.meta(sha256, place, round_trip_floor);
        let first = start_files(place, config, &meta)?;
        self.announce(setup, observer);
        observer.run_starting();
        let writer = Writer {
            observer,
            config,
            meta: &meta,
            dir: &out_dir,
            baseline: dest.as_deref(),
            stop,
            written: Mutex::new(first),
        };
        let run = harness::run(self.corpora, setup, sink, Some(&writer))?;
        observer.run_done();
        let written = writer
            .written
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        let mut kept = write_results(run, config, meta, place, &written);
        let problems = Problem::of(&kept.run, self.strict);
        let complete = kept.lost.is_empty() && !kept.run.interrupted;
        // A baseline is kept only when saved.
        let results_kept =
            !kept.files_lost && (dest.is_none() || (problems.is_empty() && complete));
        let mut warnings = self.draw_and_export(&mut kept, &out_dir, results_kept);
        let (dir, baseline) = settle_baseline(baseline, out_dir, !problems.is_empty(), complete);
        let found = diagnose(&kept.run);
        warnings.splice(0..0, found.changed);
        Ok(Outcome {
            run: kept.run,
            meta: kept.meta,
            dir,
            files: kept.files,
            lost: kept.lost,
            warnings,
            unreadable: found.unreadable,
            mostly_malformed: found.mostly_malformed,
            problems,
            baseline,
        })
    }

    /// Makes the output directory `out_dir` (for a baseline, its temporary
    /// directory `baseline`), takes its lock, clears it for the run
    /// ([`prepare_out_dir`]) and makes the solvers' new log files in it.
    fn prepare(
        &self,
        out_dir: &Path,
        baseline: Option<&AtomicDir>,
        force: bool,
        observer: &dyn Observer,
    ) -> Result<Locked, SessionError> {
        io_at(
            std::fs::create_dir_all(out_dir),
            "cannot create output directory",
            out_dir,
        )?;
        let lock = Locked::take(out_dir, baseline)?;
        prepare_out_dir(out_dir, force, observer)?;
        // Solvers in their own processes write their standard error here
        // (each started process appends; the file is new for this run).
        for log in self
            .setup
            .lineup()
            .solvers
            .iter()
            .filter_map(|s| s.log_file())
        {
            let path = log.place_in(out_dir);
            io_at(std::fs::File::create(&path), "cannot write", &path)?;
        }
        Ok(lock)
    }

    /// The sink of the `puzzles.csv` rows, with [`Session::per_puzzle`].
    fn sink(&self, out_dir: &Path) -> Result<Option<Box<dyn RecordSink>>, SessionError> {
        if !self.per_puzzle {
            return Ok(None);
        }
        let csv = PuzzlesCsv::create(out_dir, &self.setup.lineup().names());
        Ok(Some(Box::new(io_at(csv, "cannot write in", out_dir)?)))
    }

    /// What the result files say about the run besides its results: the
    /// corpora's checksums `sha256`, every corpus `not started` yet, where
    /// the files are and the round-trip floor measured.
    fn meta(
        &self,
        sha256: Vec<String>,
        place: Place<'_>,
        round_trip_floor: Option<RoundTripFloor>,
    ) -> RunMeta {
        let corpora = self
            .corpora
            .iter()
            .zip(&sha256)
            .map(|(c, sha256)| CorpusInfo {
                name: c.name().to_string(),
                path: c.path().map(|p| p.display().to_string()),
                bytes: c.bytes().len() as u64,
                sha256: Some(sha256.clone()),
                lines: corpus::count_newlines(c.bytes()),
                ..CorpusInfo::default()
            })
            .collect();
        RunMeta {
            command_line: self.command_line.clone(),
            reference: self.reference.clone(),
            sha256,
            out_dir: place.dest.unwrap_or(place.dir).to_path_buf(),
            per_puzzle: self.per_puzzle,
            merged: None,
            binary_sha256: report::run_json::binary_sha256(),
            progress: Some(InProgress {
                corpora,
                pid: std::process::id(),
                last: false,
            }),
            round_trip_floor,
            logs: self
                .setup
                .lineup()
                .solvers
                .iter()
                .map(|s| s.log_file().cloned())
                .collect(),
        }
    }

    /// With [`Session::announce`], tells the observer the plan and, for a
    /// run long enough to wonder about, the estimate.
    fn announce(&self, setup: &Setup<P>, observer: &dyn Observer) {
        if !self.announce {
            return;
        }
        let plan = Plan::new(self.corpora, setup.lineup(), setup.config());
        observer.notice(&Notice::Plan(plan));
        if corpora::total_lines(self.corpora) >= ESTIMATE_FROM_LINES {
            let e = harness::estimate(self.corpora, setup, ESTIMATE_ALLOWANCE);
            if let Some(e) = e {
                observer.notice(&Notice::Estimate(e));
            }
        }
    }

    /// Draws the pictures (with [`Session::plots`], when the result files
    /// were written) and writes the exports, from what was kept: a failure
    /// here loses no result, so it is a warning.
    fn draw_and_export(&self, kept: &mut Kept, out_dir: &Path, results_kept: bool) -> Vec<Warning> {
        let mut warnings = Vec::new();
        if self.plots && !kept.files_lost {
            match plot::draw_run(out_dir) {
                Ok(drawn) => kept.files.extend(drawn.files),
                Err(error) => warnings.push(Warning::Pictures {
                    error,
                    results_kept,
                }),
            }
        }
        let metrics = export::of_run(&kept.run);
        let exported: Result<Vec<PathBuf>, Warning> = self
            .exports
            .iter()
            .map(|(format, file)| {
                export::write(format.as_ref(), &metrics, file).map_err(|error| Warning::Export {
                    format: format.name(),
                    file: file.clone(),
                    error,
                    results_kept,
                })
            })
            .collect();
        match exported {
            Ok(written) => kept.files.extend(written),
            Err(w) => warnings.push(w),
        }
        warnings
    }

    /// The directory to write into, the baseline's temporary directory
    /// (which it is) if any, and whether to replace an earlier run's files.
    fn output_dir(&self) -> Result<(PathBuf, Option<AtomicDir>, bool), SessionError> {
        Ok(match &self.output {
            Output::Dir { path, force } => (path.clone(), None, *force),
            Output::Named { parent } => {
                let name = match self.corpora {
                    [one] => one.name(),
                    _ => "bench",
                };
                let stamp = report::run_json::compact_timestamp(std::time::SystemTime::now());
                let shard = self.setup.config().shard.map_or(String::new(), |s| {
                    format!("-shard{}of{}", s.index(), s.count())
                });
                let dir = format!("{}{shard}-{stamp}", schema::file_part(name));
                (parent.join(dir), None, false)
            }
            Output::Baseline { parent, name } => {
                if name.is_empty() || name.starts_with('.') || report::file_safe(name) != *name {
                    return Err(SessionError::BaselineName(name.clone()));
                }
                let dest = parent.join(name);
                let tmp = io_at(
                    AtomicDir::create(&dest),
                    "cannot create a temporary directory for",
                    &dest,
                )?;
                (tmp.path().to_path_buf(), Some(tmp), false)
            }
        })
    }
}

/// Where a session writes: the directory, and for a baseline (`dir` is
/// then its temporary directory) the destination.
#[derive(Clone, Copy)]
struct Place<'a> {
    dir: &'a Path,
    dest: Option<&'a Path>,
}

/// Writes the first `run.json`, before anything is solved (the estimate
/// solves): every corpus asked for `not started`, the run `running`; and
/// the exit note that says so. Returns what was written.
fn start_files(place: Place<'_>, config: &Config, meta: &RunMeta) -> Result<RunInfo, SessionError> {
    let nothing = RunResult::starting(config.threads, 0.0, std::time::SystemTime::now());
    let first = run_json::run_info(&nothing, config, meta);
    io_at(
        write_run_json(place.dir, &first),
        "cannot write in",
        place.dir,
    )?;
    exit_note::set(&exit_note(place.dir, place.dest, &first));
    Ok(first)
}

/// What the last write of the result files kept.
struct Kept {
    run: RunResult,
    meta: RunMeta,
    /// The files written.
    files: Vec<PathBuf>,
    /// What could not be written.
    lost: Vec<Lost>,
    /// The result files (not only `puzzles.csv`) are lost.
    files_lost: bool,
}

/// The last write of the result files after the run: it carries the run's
/// end time and final state (and, after a stop, the partial corpus); each
/// corpus's files were written as it ended, `written` the `run.json` last
/// written then. Sets the exit note to what is on disk.
fn write_results(
    mut run: RunResult,
    config: &Config,
    mut meta: RunMeta,
    place: Place<'_>,
    written: &RunInfo,
) -> Kept {
    let Place { dir, dest } = place;
    if let Some(p) = meta.progress.as_mut() {
        p.last = true;
    }
    let mut lost = Vec::new();
    // A `puzzles.csv` whose rows could not all be written goes first:
    // the corpora written before the failure would read as the whole
    // run's rows, and on a full disk its space is what the last write
    // needs. `run.json` then says there is none.
    let per_puzzle_lost = run.records_error.take().map(|error| {
        let path = PuzzlesCsv::path(dir);
        let _ = std::fs::remove_file(&path);
        meta.per_puzzle = false;
        (path, error)
    });
    // Tried even when a write during the run failed (the space may be
    // free again): when it succeeds, the files hold the whole run.
    let mut files = match report::write_all(&run, config, &meta, dir) {
        Ok(files) => {
            let state = match run.interrupted {
                true => "interrupted",
                false => "complete",
            };
            let note = format!(
                "{} holds the run's result files: its run.json says {state}",
                escape_controls(&dir.display().to_string())
            );
            exit_note::set(&with_baseline(dest, note));
            files
        }
        Err(error) => {
            lost.push(lost_files(&run, config, &meta, place, written, error));
            Vec::new()
        }
    };
    let files_lost = !lost.is_empty();
    match per_puzzle_lost {
        // A baseline is saved only when complete: not this one.
        Some((path, error)) => lost.push(Lost::PerPuzzle {
            path,
            error,
            others_kept: !files_lost && dest.is_none(),
        }),
        None if meta.per_puzzle => files.push(PuzzlesCsv::path(dir)),
        None => {}
    }
    Kept {
        run,
        meta,
        files,
        lost,
        files_lost,
    }
}

/// The result files lost to `error` in the last write, and what is on
/// disk instead (also the exit note now): the files of the last write
/// that succeeded (`written` its `run.json`), and those the failed one
/// replaced before it failed.
fn lost_files(
    run: &RunResult,
    config: &Config,
    meta: &RunMeta,
    place: Place<'_>,
    written: &RunInfo,
    error: io::Error,
) -> Lost {
    let Place { dir, dest } = place;
    let names = run_json::run_info(run, config, meta).result_files();
    let there: Vec<&str> = names
        .iter()
        .filter(|n| dir.join(n).is_file())
        .map(String::as_str)
        .collect();
    let note = exit_note(dir, dest, written);
    let on_disk = match dest {
        // Not saved: its temporary directory goes below.
        Some(dest) => format!(
            "the baseline {} is unchanged; nothing of the run is kept",
            escape_controls(&dest.display().to_string())
        ),
        None => format!("{note}; the run's files there: {}", there.join(", ")),
    };
    exit_note::set(&on_disk);
    Lost::ResultFiles {
        dir: dir.to_path_buf(),
        error,
        on_disk,
    }
}

/// Where the results are in the end, and what became of a baseline: saved
/// (moved into place) when the run is complete without `problems`, else
/// its temporary directory removed.
fn settle_baseline(
    baseline: Option<AtomicDir>,
    out_dir: PathBuf,
    problems: bool,
    complete: bool,
) -> (PathBuf, Option<Baseline>) {
    match baseline {
        None => (out_dir, None),
        Some(tmp) if !problems && complete => {
            let dest = tmp.dest().to_path_buf();
            match tmp.commit() {
                Ok(dir) => (dir, Some(Baseline::Saved)),
                Err(error) => (out_dir, Some(Baseline::NotMoved { dest, error })),
            }
        }
        Some(tmp) => {
            let dest = tmp.dest().to_path_buf();
            drop(tmp);
            (out_dir, Some(Baseline::NotSaved { dest, problems }))
        }
    }
}

/// What [`diagnose`] finds in the corpora of a run.
struct Diagnosis {
    unreadable: Vec<Unreadable>,
    mostly_malformed: Vec<MostlyMalformed>,
    /// A warning per corpus that changed while it was read: its results
    /// are of no one version of the file (its run.json entry says so too).
    changed: Vec<Warning>,
}

/// The corpora of `run` that held no puzzle, those mostly malformed, and
/// those that changed on disk during the run.
fn diagnose(run: &RunResult) -> Diagnosis {
    let file = |c: &harness::CorpusResult| {
        c.path
            .as_ref()
            .map_or_else(|| c.name.clone(), |p| p.display().to_string())
    };
    let unreadable = run
        .corpora
        .iter()
        .filter(|c| c.complete())
        .filter_map(|c| {
            let error = corpus::check_readable(c.puzzles, c.malformed).err()?;
            Some(Unreadable {
                file: file(c),
                error,
            })
        })
        .collect();
    let mostly_malformed = run
        .corpora
        .iter()
        .filter(|c| c.complete() && c.puzzles > 0)
        .filter(|c| corpus::mostly_unreadable(c.puzzles, c.malformed))
        .map(|c| MostlyMalformed {
            file: file(c),
            puzzles: c.puzzles,
            malformed: c.malformed,
        })
        .collect();
    let changed = run
        .corpora
        .iter()
        .filter(|c| c.changed_on_disk)
        .map(|c| Warning::CorpusChanged { file: file(c) })
        .collect();
    Diagnosis {
        unreadable,
        mostly_malformed,
        changed,
    }
}

/// The lock of the directory a session writes into ([`DirLock`]): the
/// output directory's, or for a baseline its destination's (made if
/// missing, and removed again if the baseline is not saved into it). The
/// baseline's temporary directory is the session's alone.
struct Locked {
    lock: Option<DirLock>,
    /// The baseline's destination, when the session made it.
    made: Option<PathBuf>,
}

impl Locked {
    fn take(out_dir: &Path, baseline: Option<&AtomicDir>) -> Result<Locked, SessionError> {
        let Some(dest) = baseline.map(AtomicDir::dest) else {
            return Ok(Locked {
                lock: Some(DirLock::acquire(out_dir)?),
                made: None,
            });
        };
        let made = !dest.exists();
        io_at(
            std::fs::create_dir_all(dest),
            "cannot create output directory",
            dest,
        )?;
        let made = made.then(|| dest.to_path_buf());
        match DirLock::acquire(dest) {
            Ok(lock) => Ok(Locked {
                lock: Some(lock),
                made,
            }),
            Err(e) => {
                if let Some(dest) = made {
                    let _ = std::fs::remove_dir(dest);
                }
                Err(e.into())
            }
        }
    }
}

impl Drop for Locked {
    fn drop(&mut self) {
        drop(self.lock.take());
        // Only if still empty: a saved baseline is there now.
        if let Some(dest) = &self.made {
            let _ = std::fs::remove_dir(dest);
        }
    }
}

/// Clears `dir` for a run, under its lock: leftovers of a killed run (this
/// tool's temporary files) go, told as a [`Notice::StaleRemoved`]; an
/// earlier run's files (those its `run.json` lists,
/// [`ResultDir::run_files`]) are refused, or removed with `force`, so that
/// the directory never mixes two runs. Other files stay.
fn prepare_out_dir(dir: &Path, force: bool, observer: &dyn Observer) -> Result<(), SessionError> {
    let stale = io_at(atomic::remove_stale(dir), "cannot clean", dir)?;
    if stale > 0 {
        observer.notice(&Notice::StaleRemoved {
            count: stale,
            dir: dir.to_path_buf(),
        });
    }
    let old = io_at(ResultDir::run_files(dir), "cannot read", dir)?;
    if old.is_empty() {
        return Ok(());
    }
    if !force {
        return Err(SessionError::EarlierRun {
            dir: dir.to_path_buf(),
            count: old.len(),
            example: old[0]
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
        });
    }
    for path in old {
        io_at(std::fs::remove_file(&path), "cannot remove", &path)?;
    }
    Ok(())
}

/// Writes `info` as `dir`'s `run.json`, atomically.
fn write_run_json(dir: &Path, info: &RunInfo) -> io::Result<PathBuf> {
    let text = to_json(info).map_err(io::Error::other)?;
    AtomicFile::write(&dir.join(report::schema::RUN_JSON), text.as_bytes())
}

/// What is on disk should the process end now, without its last writes
/// (a `SIGBUS`, a second Ctrl-C), or after a last write that failed: the
/// directory `dir` (for a baseline, its temporary directory, `baseline`
/// the destination, unchanged) with `info` its `run.json` as last written:
/// `DIR keeps the results of a; its run.json reads as a run that died (b
/// running: its results are lost, c not started)`.
fn exit_note(dir: &Path, baseline: Option<&Path>, info: &RunInfo) -> String {
    let done: Vec<String> = info
        .corpora_in(CorpusState::Done)
        .map(|c| escape_controls(&c.name).into_owned())
        .collect();
    let rest: Vec<String> = info
        .corpora
        .iter()
        .filter_map(|c| {
            let name = escape_controls(&c.name);
            match c.state() {
                CorpusState::Done => None,
                CorpusState::Partial => Some(format!(
                    "{name} partial: {} of {} lines",
                    c.lines_done, c.lines
                )),
                CorpusState::Running => Some(format!("{name} running: its results are lost")),
                CorpusState::NotStarted => Some(format!("{name} not started")),
            }
        })
        .collect();
    let kept = match done.is_empty() {
        true => "no corpus's results".to_string(),
        false => format!("the results of {}", done.join(", ")),
    };
    let mut note = format!(
        "{} keeps {kept}; its run.json reads as a run that died",
        escape_controls(&dir.display().to_string())
    );
    if !rest.is_empty() {
        note = format!("{note} ({})", rest.join(", "));
    }
    with_baseline(baseline, note)
}

/// `note` after `the baseline DEST is unchanged; ` for a baseline.
fn with_baseline(baseline: Option<&Path>, note: String) -> String {
    match baseline {
        Some(dest) => format!(
            "the baseline {} is unchanged; {note}",
            escape_controls(&dest.display().to_string())
        ),
        None => note,
    }
}

/// The harness's [`Progress`] during a session: passes the progress on to
/// the observer, writes the result files as each corpus ends (and
/// `run.json` as each starts), and stops when the flag is set. A write
/// that fails is not fatal: the next one writes every file again, and the
/// session's last write decides what is kept.
struct Writer<'a> {
    observer: &'a dyn Observer,
    config: &'a Config,
    meta: &'a RunMeta,
    dir: &'a Path,
    /// A baseline's destination (`dir` is then its temporary directory).
    baseline: Option<&'a Path>,
    stop: &'a AtomicBool,
    /// `run.json` as last written.
    written: Mutex<RunInfo>,
}

impl Writer<'_> {
    /// Keeps `info`, just written as `run.json`, and the note of what is on
    /// disk ([`exit_note::set`]).
    fn wrote(&self, info: RunInfo) {
        exit_note::set(&exit_note(self.dir, self.baseline, &info));
        *self.written.lock().unwrap_or_else(|e| e.into_inner()) = info;
    }

    /// Writes every result file for `run` (the run so far).
    fn write(&self, run: &RunResult) {
        if report::write_all(run, self.config, self.meta, self.dir).is_ok() {
            // As written, checksums included: what `mark_running` rewrites.
            let path = self.dir.join(schema::RUN_JSON);
            let written = ResultDir::read_run_info(&path)
                .unwrap_or_else(|_| run_json::run_info(run, self.config, self.meta));
            self.wrote(written);
        }
    }

    /// Rewrites `run.json` with corpus `index` `running`.
    fn mark_running(&self, index: usize) {
        let mut info = self
            .written
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(c) = info.corpora.get_mut(index) {
            c.state = Some(CorpusState::Running);
        }
        if write_run_json(self.dir, &info).is_ok() {
            self.wrote(info);
        }
    }
}

impl Progress for Writer<'_> {
    fn start_corpus(&self, index: usize, count: usize, name: &str, lines: u64) {
        self.mark_running(index);
        self.observer.start_corpus(index, count, name, lines);
    }

    fn advance(&self, lines: u64) {
        self.observer.advance(lines);
    }

    fn finish_corpus(&self, run: &RunResult) {
        // Files first: what is computed is kept even if telling fails.
        self.write(run);
        self.observer.corpus_done(run, self.meta);
    }

    fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests;
