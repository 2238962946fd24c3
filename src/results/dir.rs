//! [`ResultDir`]: the one reader of a result directory.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::checksum::{self, Checksums, Modified, Verify};
use super::{schema, CorpusInfo, CorpusState, HistogramSet, RunInfo, RunState};
use crate::budget::Budget;
use crate::harness::own_time::OwnTimeCheck;
use crate::harness::{
    self, Config, CorpusResult, FailureNote, Mode, NoRatio, RunResult, SolverStats, Speed,
};
use crate::kinds::PuzzleKind;

/// Why a result directory could not be read: each names the file, and
/// the field where a value is not what a run writes.
#[derive(Debug, thiserror::Error)]
pub enum ResultError {
    /// The directory has no `run.json`.
    #[error(
        "{}: no {}: not the result directory of a run (or of a run killed before its first \
         corpus ended)",
        dir.display(),
        schema::RUN_JSON
    )]
    NotARun {
        /// The directory.
        dir: PathBuf,
    },
    /// A file could not be read. The message includes the operating
    /// system's error (which is therefore not also the error's source).
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A JSON file does not parse.
    #[error("{}: not JSON: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// What the parser says (with line and column).
        message: String,
    },
    /// Result files do not match the checksums their `run.json` records
    /// (edited, truncated, replaced or deleted after the run).
    #[error(
        "{}: {}",
        dir.display(),
        modified.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("; ")
    )]
    Modified {
        /// The directory.
        dir: PathBuf,
        /// The files that differ, in name order (at least one).
        modified: Vec<Modified>,
    },
    /// A CSV file does not parse, or a row holds what a run does not
    /// write.
    #[error("{}:{line}: {message}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The 1-based line (0 when unknown).
        line: u64,
        /// What is wrong (naming the column).
        message: String,
    },
    /// A field holds what a run does not write.
    #[error("{}: `{field}`: {message}", path.display())]
    Field {
        /// The file.
        path: PathBuf,
        /// The field (`corpora[1].bytes`; `histograms[3]`).
        field: String,
        /// What is wrong.
        message: String,
    },
}

impl ResultError {
    pub(super) fn field(
        path: &Path,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> ResultError {
        ResultError::Field {
            path: path.to_path_buf(),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// What a result directory holds: its `run.json`'s `state`, with a
/// `running` run whose writer is gone read as what it is, a run that died.
/// `Display`: `complete`, `interrupted`, `running (pid 12)`, `died (its
/// writer, pid 12, is gone)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DirState {
    /// Every corpus ran and every result file was written.
    Complete,
    /// Stopped on request: the corpora `done` and the one `partial` are
    /// kept.
    Interrupted,
    /// The run is still going: its writer (this pid) is alive.
    Running {
        /// The writer's process id.
        pid: Option<u32>,
    },
    /// The run's writer died before its last write (a crash, `abort()`,
    /// `exit()` in a loaded solver, SIGKILL): the corpora `done` are kept,
    /// the one in flight is lost.
    Died {
        /// The writer's process id, as recorded.
        pid: Option<u32>,
    },
}

impl DirState {
    /// The state of a directory whose `run.json` is `run`:
    /// [`writer_alive`] tells a live `running` run from a dead one.
    pub fn of(dir: &Path, run: &RunInfo) -> DirState {
        match run.state() {
            RunState::Complete => DirState::Complete,
            RunState::Interrupted => DirState::Interrupted,
            RunState::Running if writer_alive(dir, run) => DirState::Running { pid: run.pid },
            RunState::Running => DirState::Died { pid: run.pid },
        }
    }

    /// Whether the run finished: every corpus ran in full.
    pub fn complete(self) -> bool {
        self == DirState::Complete
    }
}

impl std::fmt::Display for DirState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pid = |pid: &Option<u32>| pid.map_or_else(|| "?".to_string(), |p| p.to_string());
        match self {
            DirState::Complete => write!(f, "complete"),
            DirState::Interrupted => write!(f, "interrupted"),
            DirState::Running { pid: p } => write!(f, "running (pid {})", pid(p)),
            DirState::Died { pid: p } => write!(f, "died (its writer, pid {}, is gone)", pid(p)),
        }
    }
}

/// Whether the process writing a directory whose `run.json` says
/// `running` is still alive.
///
/// This is the one place that decides it. A run holds its directory's
/// lock ([`dirlock`](crate::dirlock)) from before its first write to
/// after its last, and the operating system releases it when the process
/// dies however it dies: a held lock is a live writer, and a lock file
/// that nobody holds is one that died (a run that ends removes it). With
/// no lock file (a directory written by an older version, or the lock
/// file removed by hand), the writer's recorded `pid` decides (a process
/// that no longer exists, or a zombie, is gone; no pid reads as gone).
pub fn writer_alive(dir: &Path, run: &RunInfo) -> bool {
    match crate::dirlock::holder(dir) {
        Ok(Some(_)) => true,
        Ok(None) if dir.join(crate::dirlock::LOCK_FILE).exists() => false,
        _ => run.pid.is_some_and(process_alive),
    }
}

/// Whether process `pid` exists and is not a zombie.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    // Linux: the state letter after the command name; a zombie (`Z`) or a
    // dead task (`X`) has ended.
    if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        return stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X");
    }
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        if pid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks that the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// A result directory, read: its `run.json`, and which of its other files
/// are there (`histograms.json` is read when asked for, the CSV files are
/// streamed by their readers: `puzzles.csv` can hold millions of rows).
#[derive(Debug, Clone)]
pub struct ResultDir {
    /// The directory.
    pub path: PathBuf,
    /// `run.json`, its `corpora` those that ran (in full or in part: the
    /// ones with results).
    pub run: RunInfo,
    /// Where the run stands.
    pub state: DirState,
    /// The corpora requested that have no results: the one in flight
    /// (`running`) and those `not started`, in run order.
    pub not_run: Vec<CorpusInfo>,
    /// `histograms.json`, if there.
    pub histograms_json: Option<PathBuf>,
    /// `summary.csv`, if there.
    pub summary_csv: Option<PathBuf>,
    /// `puzzles.csv`, if there.
    pub puzzles_csv: Option<PathBuf>,
    /// What the checksums in `run.json` say of the files
    /// ([`checksum`](super::checksum)).
    pub checksums: Checksums,
}

/// The speed a `summary.csv` row records.
fn recorded_speed(r: &super::SummaryRow) -> Speed {
    match (r.speed_note.as_deref(), r.speed_vs) {
        (Some("reference"), _) => Speed::Reference,
        (_, Some(estimate)) => Speed::Ratio(harness::SpeedRatio {
            estimate,
            low: r.speed_low,
            high: r.speed_high,
            puzzles: r.speed_puzzles.unwrap_or(0),
        }),
        (Some(note), None) => Speed::Missing(NoRatio::from_name(note).unwrap_or(NoRatio::NoData)),
        (None, None) => Speed::Missing(NoRatio::NoData),
    }
}

/// The check of a solver's own times as `summary.csv` recorded it.
fn recorded_check(r: &super::SummaryRow) -> Option<OwnTimeCheck> {
    let explained = r.own_time_explained?;
    Some(OwnTimeCheck {
        explained,
        overhead_ns: r.own_overhead_ns.unwrap_or(0.0),
        verified: r.speed_note.as_deref() != Some("unverified")
            && explained >= crate::harness::own_time::VERIFIED,
        puzzles: r.timed(),
    })
}

/// The text of `path`.
fn read_text(path: &Path) -> Result<String, ResultError> {
    std::fs::read_to_string(path).map_err(|error| ResultError::Io {
        path: path.to_path_buf(),
        error,
    })
}

/// The failure notes `run.json` records of a corpus in `parts` (one
/// [`CorpusInfo`] a part), as the run keeps them: the first
/// [`harness::FAILURE_EXAMPLES`] by line and each solver's first stop,
/// over all the parts (a note that does not read back is left out).
fn failure_notes(parts: &[&CorpusInfo]) -> Vec<FailureNote> {
    let mut notes: Vec<FailureNote> = parts
        .iter()
        .flat_map(|c| &c.failures)
        .flat_map(|f| {
            f.notes
                .iter()
                .filter_map(|text| FailureNote::from_note(&f.solver, text))
        })
        .collect();
    harness::trim_failure_notes(&mut notes);
    notes
}

impl ResultDir {
    /// Reads the result directory `dir`: its `run.json` (required: a
    /// directory without one is not a run's), checked field by field;
    /// verifies the checksums it records of the other files (refusing a
    /// file that does not match: [`ResultError::Modified`]); notes which of
    /// the other files are there. [`ResultDir::open_with`] with
    /// [`Verify::Strict`].
    pub fn open(dir: &Path) -> Result<ResultDir, ResultError> {
        Self::open_with(dir, Verify::Strict)
    }

    /// [`ResultDir::open`], with files that do not match their checksums
    /// refused or accepted as `verify` says. A directory whose writer did
    /// not finish (running, or died) is read whatever its checksums say:
    /// the writer may have died between writing a file and `run.json`;
    /// the differences are then in [`ResultDir::checksums`] and its
    /// [warning](ResultDir::warning). A `run.json` from before checksums
    /// reads as [`Checksums::NotRecorded`].
    pub fn open_with(dir: &Path, verify: Verify) -> Result<ResultDir, ResultError> {
        let run_path = dir.join(schema::RUN_JSON);
        if !run_path.is_file() {
            return Err(ResultError::NotARun {
                dir: dir.to_path_buf(),
            });
        }
        let mut run = Self::read_run_info(&run_path)?;
        let state = DirState::of(dir, &run);
        let checksums =
            match run.has_checksums() {
                false => Checksums::NotRecorded,
                true => {
                    let modified = checksum::verify(dir, &run.file_sha256, &run.manifest())
                        .map_err(|error| ResultError::Io {
                            path: dir.to_path_buf(),
                            error,
                        })?;
                    let finished = matches!(state, DirState::Complete | DirState::Interrupted);
                    match modified.is_empty() {
                        true => Checksums::Verified,
                        false if finished && verify == Verify::Strict => {
                            return Err(ResultError::Modified {
                                dir: dir.to_path_buf(),
                                modified,
                            })
                        }
                        false => Checksums::Modified(modified),
                    }
                }
            };
        let (ran, not_run) = std::mem::take(&mut run.corpora)
            .into_iter()
            .partition(|c| c.state().ran());
        run.corpora = ran;
        let file = |name: &str| Some(dir.join(name)).filter(|p| p.is_file());
        Ok(ResultDir {
            path: dir.to_path_buf(),
            run,
            state,
            not_run,
            histograms_json: file(schema::HISTOGRAMS_JSON),
            summary_csv: file(schema::SUMMARY_CSV),
            puzzles_csv: file(schema::PUZZLES_CSV),
            checksums,
        })
    }

    /// The files that do not match their checksums (accepted: see
    /// [`ResultDir::open_with`]), in name order; none when verified or not
    /// recorded.
    pub fn modified(&self) -> &[Modified] {
        match &self.checksums {
            Checksums::Modified(m) => m,
            _ => &[],
        }
    }

    /// The files in `dir` of the run that wrote there, to replace it (with
    /// `--force`): those its `run.json` lists ([`RunInfo::manifest`]); when
    /// there is no `run.json` or it does not read, those of
    /// [`schema::FIXED_FILES`] (a run killed before its `run.json` was
    /// written). Never a file by its ending alone: a `logo.svg` of the
    /// user's is not a run's. Only names there (not directories), in the
    /// list's order; an empty list when `dir` is missing.
    pub fn run_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let run_path = dir.join(schema::RUN_JSON);
        let names = match std::fs::read_to_string(&run_path) {
            Ok(text) => RunInfo::read(&run_path, &text).map(|r| r.manifest()).ok(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let names =
            names.unwrap_or_else(|| schema::FIXED_FILES.iter().map(|f| f.to_string()).collect());
        let mut files = Vec::new();
        for name in names {
            let path = dir.join(&name);
            match std::fs::symlink_metadata(&path) {
                Ok(m) if !m.is_dir() && !files.contains(&path) => files.push(path),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(files)
    }

    /// The warning to give about a directory that does not hold a
    /// complete run (`None` for a complete one): `DIR: the run died (its
    /// writer, pid 12, is gone): results of a; b partial (10 of 20 lines);
    /// no results of c (running), d (not started)`.
    pub fn warning(&self) -> Option<String> {
        if self.state.complete() {
            return None;
        }
        let what = match self.state {
            DirState::Running { .. } => format!("the run is still going ({})", self.state),
            state => format!("the run {state}"),
        };
        let mut parts = Vec::new();
        let done: Vec<&str> = self
            .run
            .corpora_in(CorpusState::Done)
            .map(|c| c.name.as_str())
            .collect();
        parts.push(match done.is_empty() {
            true => "no corpus finished".to_string(),
            false => format!("results of {}", done.join(", ")),
        });
        for c in self.run.corpora_in(CorpusState::Partial) {
            parts.push(format!(
                "{} partial ({} of {} lines)",
                c.name, c.lines_done, c.lines
            ));
        }
        if !self.modified().is_empty() {
            let files: Vec<&str> = self.modified().iter().map(|m| m.file.as_str()).collect();
            parts.push(format!(
                "{} not as {} records (written after it, as the run ended early, or changed)",
                files.join(", "),
                schema::RUN_JSON
            ));
        }
        if !self.not_run.is_empty() {
            let names: Vec<String> = self
                .not_run
                .iter()
                .map(|c| format!("{} ({})", c.name, c.state().as_str()))
                .collect();
            parts.push(format!("no results of {}", names.join(", ")));
        }
        Some(format!(
            "{}: {what}: {}",
            self.path.display(),
            parts.join("; ")
        ))
    }

    /// Reads one `run.json`.
    pub fn read_run_info(path: &Path) -> Result<RunInfo, ResultError> {
        RunInfo::read(path, &read_text(path)?)
    }

    /// The path of the file `name` in the directory.
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Reads `histograms.json`, checked field by field.
    pub fn histograms(&self) -> Result<HistogramSet, ResultError> {
        let path = self.file(schema::HISTOGRAMS_JSON);
        super::from_json(&path, &read_text(&path)?)
    }

    /// Every corpus x solver's statistics from `histograms.json`, exactly
    /// as the run accumulated them, as (corpus, statistics).
    pub fn stats(&self) -> Result<Vec<(String, SolverStats)>, ResultError> {
        self.histograms()?
            .stats(&self.file(schema::HISTOGRAMS_JSON))
    }

    /// The run's settings as a [`Config`] (threads: the run's).
    pub fn config(&self) -> Result<Config, ResultError> {
        let r = &self.run;
        let path = self.file(schema::RUN_JSON);
        let kind = PuzzleKind::ALL
            .iter()
            .find(|k| k.name() == r.kind)
            .ok_or_else(|| {
                ResultError::field(&path, "kind", format!("unknown kind `{}`", r.kind))
            })?;
        let mode = r.mode.as_deref().unwrap_or_default();
        let mode = Mode::from_name(mode)
            .ok_or_else(|| ResultError::field(&path, "mode", format!("unknown mode `{mode}`")))?;
        if r.solvers.is_empty() {
            return Err(ResultError::field(&path, "solvers", "no solvers"));
        }
        if let Some(i) = r.solvers.iter().position(|s| s.name.is_empty()) {
            return Err(ResultError::field(
                &path,
                format!("solvers[{i}].name"),
                "a solver without a name",
            ));
        }
        let solvers = r
            .solvers
            .iter()
            .map(|s| {
                let budget = Budget {
                    max_nodes: s.budget_nodes.unwrap_or(u64::MAX),
                    max_time: s.budget_time_s.map(Duration::from_secs_f64),
                };
                (
                    s.name.clone(),
                    s.description.clone(),
                    budget,
                    s.log_file.clone(),
                )
            })
            .collect();
        let mut config = Config::described(kind.name(), solvers);
        config.threads = r.facts.threads.unwrap_or(0);
        config.mode = mode;
        config.limit = r.limit.unwrap_or(u64::MAX);
        config.warmup = r.warmup.unwrap_or(0);
        config.passes = r.passes.unwrap_or(1);
        config.shuffle = r.shuffle_seed;
        config.permute = r.permute_seed;
        config.images = r.images.unwrap_or(1);
        config.round_trip_floor_ns = r.round_trip_floor.as_ref().map_or(0.0, |f| f.p50_ns as f64);
        config.schedule = harness::Schedule {
            block: r
                .schedule_block
                .unwrap_or(harness::Schedule::default().block),
        };
        Ok(config)
    }

    /// The statistics of `corpus` x `solver`, from `stats` ([`Self::stats`]).
    fn find<'a>(
        &self,
        stats: &'a [(String, SolverStats)],
        corpus: &str,
        solver: &str,
    ) -> Result<&'a SolverStats, ResultError> {
        stats
            .iter()
            .find(|(c, s)| c == corpus && s.name == solver)
            .map(|(_, s)| s)
            .ok_or_else(|| {
                ResultError::field(
                    &self.file(schema::HISTOGRAMS_JSON),
                    "histograms",
                    format!("no entry for {corpus} x {solver}"),
                )
            })
    }

    /// The run the directory records, from its `run.json` and
    /// `histograms.json` alone: the statistics exactly as accumulated, no
    /// discrepancies (they are not in those files). An interrupted run
    /// reads too, with its partial corpus as recorded.
    pub fn run_result(&self) -> Result<RunResult, ResultError> {
        let config = self.config()?;
        let mut result = Self::merged(std::slice::from_ref(self), &config)?;
        result.interrupted = self.run.interrupted;
        self.read_speeds(&mut result)?;
        Ok(result)
    }

    /// The speed ratios `summary.csv` records ([`CorpusResult::recorded_speeds`]),
    /// when it has the columns (a file from before them leaves the speeds
    /// to be computed, from nothing: `no data`).
    fn read_speeds(&self, result: &mut RunResult) -> Result<(), ResultError> {
        let Some(path) = &self.summary_csv else {
            return Ok(());
        };
        let file = super::SummaryFile::read(path)?;
        if !file.has(schema::summary::SPEED_NOTE) {
            return Ok(());
        }
        for c in &mut result.corpora {
            let row = |s: &SolverStats| file.row(&c.name, &s.name);
            let speeds = c
                .solvers
                .iter()
                .map(|s| row(s).map_or(Speed::Missing(NoRatio::NoData), recorded_speed))
                .collect();
            let checks: Vec<_> = c
                .solvers
                .iter()
                .map(|s| row(s).and_then(recorded_check))
                .collect();
            for (s, check) in c.solvers.iter_mut().zip(checks) {
                s.own_time_recorded = check;
            }
            c.recorded_speeds = Some(speeds);
        }
        Ok(())
    }

    /// The runs `parts` (shards of one run, all run alike with `config`)
    /// as one: counts, sums and histograms added, the corpora's workers
    /// and wall times added, the earliest start and the latest end.
    pub fn merged(parts: &[ResultDir], config: &Config) -> Result<RunResult, ResultError> {
        let mut result = RunResult {
            corpora: Vec::new(),
            discrepancies: Vec::new(),
            states_created: 0,
            threads: 0,
            clock_overhead_ns: 0.0,
            started: SystemTime::now(),
            finished: SystemTime::UNIX_EPOCH,
            interrupted: false,
            records_error: None,
        };
        let time = |t: &Option<String>, fallback: SystemTime| {
            t.as_deref()
                .and_then(|t| humantime::parse_rfc3339(t).ok())
                .unwrap_or(fallback)
        };
        let mut stats = Vec::with_capacity(parts.len());
        for p in parts {
            let r = &p.run;
            result.states_created += r.states_created;
            result.threads += r.facts.threads.unwrap_or(0);
            result.clock_overhead_ns = result.clock_overhead_ns.max(r.clock_overhead_ns);
            result.started = result.started.min(time(&r.facts.started, result.started));
            result.finished = result
                .finished
                .max(time(&r.facts.finished, result.finished));
            stats.push(p.stats()?);
        }
        let Some(first) = parts.first() else {
            return Ok(result);
        };
        for (i, c) in first.run.corpora.iter().enumerate() {
            let all = parts
                .iter()
                .map(|p| {
                    p.run.corpora.get(i).ok_or_else(|| {
                        ResultError::field(
                            &p.file(schema::RUN_JSON),
                            "corpora",
                            format!("no corpus {} ({})", i + 1, c.name),
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let sum = |f: fn(&super::CorpusInfo) -> u64| all.iter().map(|c| f(c)).sum::<u64>();
            let mut solvers = Vec::with_capacity(config.solvers().len());
            for s in config.solvers() {
                let mut merged = SolverStats::new(s.clone());
                for (p, st) in parts.iter().zip(&stats) {
                    merged.merge(p.find(st, &c.name, s)?);
                }
                solvers.push(merged);
            }
            result.corpora.push(CorpusResult {
                name: c.name.clone(),
                round_trip_floor_ns: 0.0,
                path: c.path.as_ref().map(PathBuf::from),
                bytes: c.bytes,
                lines: c.lines,
                allow_zero: c.allow_zero,
                puzzles: sum(|c| c.puzzles),
                malformed: sum(|c| c.malformed),
                malformed_examples: Vec::new(),
                parse_ns: sum(|c| c.parse_ns),
                scan_ns: sum(|c| c.scan_ns),
                // Machine time: the parts' wall times added.
                wall: Duration::from_secs_f64(all.iter().map(|c| c.wall_s).sum()),
                solvers,
                changed_on_disk: all.iter().any(|c| c.changed_on_disk),
                workers: all.iter().map(|c| c.workers).sum(),
                // A merge is of finished parts; one directory read back may
                // hold a corpus an interrupt cut short.
                lines_done: match all.as_slice() {
                    [one] => one.lines_done,
                    _ => c.lines,
                },
                // The counts are in the statistics; the first failures are
                // the parts' notes, trimmed again as a run trims them.
                failures: failure_notes(&all),
                // Not in histograms.json: `merge` adds them up from the
                // parts' puzzles.csv, `run_result` reads the recorded
                // speeds back from summary.csv.
                paired: harness::PairedTimes::new(config.solvers().len(), config.schedule.block),
                recorded_speeds: None,
                speed_cache: std::sync::OnceLock::new(),
                // `images.csv` is not read back.
                images: Vec::new(),
            });
        }
        Ok(result)
    }
}
