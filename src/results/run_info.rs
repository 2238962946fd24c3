//! `run.json`: what was run and where: version and git revision, command
//! line, compiler, machine, settings, corpora (path, size, SHA-256) and
//! start and end times (UTC, RFC 3339).
//!
//! Every field is read leniently where older files may lack it (a missing
//! key reads as its default: `None`, 0, empty), strictly where it is there:
//! a value of the wrong type is an error naming the field.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use serde::{Deserialize, Serialize};

use super::schema;

/// Whether `name` is the name of a file directly in a directory: not
/// empty, not `.` or `..`, no separator.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// The contents of `run.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunInfo {
    /// The version of the result-directory format
    /// ([`SCHEMA_VERSION`](super::SCHEMA_VERSION) when written by this
    /// build; `None`: a file from before the key).
    pub schema_version: Option<u32>,
    /// dlxbench version.
    pub dlxbench_version: Option<String>,
    /// rustc that built the binary.
    pub rustc_version: String,
    /// Operating system (`std::env::consts::OS`).
    pub os: String,
    /// Architecture (`std::env::consts::ARCH`).
    pub arch: String,
    /// Who ran it, where and when (the facts a merge keeps per part):
    /// written among the other keys, read on their own ([`RunInfo::read`])
    /// so that an error in one names its field.
    #[serde(flatten, skip_deserializing)]
    pub facts: RunFacts,
    /// Puzzle kind (`sudoku`, `hanidoku`).
    pub kind: String,
    /// Mode (`unique`, `first`, `count`).
    pub mode: Option<String>,
    /// Solution limit (`None`: no limit).
    pub limit: Option<u64>,
    /// Passes per chunk.
    pub passes: Option<u32>,
    /// Warm-up puzzles per worker.
    pub warmup: Option<usize>,
    /// Shuffle seed.
    pub shuffle_seed: Option<u64>,
    /// Symmetry-image seed: a different one means different puzzles.
    pub permute_seed: Option<u64>,
    /// Symmetry images per puzzle (`--images K`, K above 1): image 0 is
    /// `permute_seed`'s, every image's solve is in `images.csv`; absent
    /// for a run of one image.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub images: Option<u32>,
    /// Puzzles per scheduling block.
    pub schedule_block: Option<usize>,
    /// Solvers with their budgets, in run order.
    pub solvers: Vec<SolverInfo>,
    /// The solver speeds are quoted against.
    pub reference: Option<String>,
    /// Solver states created (one per solver per worker).
    pub states_created: u64,
    /// Cost of one clock-read pair, ns.
    pub clock_overhead_ns: f64,
    /// Problems found (solvers that disagreed or returned wrong solutions).
    pub problems: u64,
    /// Whether the run was interrupted.
    pub interrupted: bool,
    /// Where the run stands ([`RunInfo::state`] reads it; `None`: a file
    /// from before the key, which was written only by a finished run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<RunState>,
    /// The process id of the run's writer (`None`: a file from before the
    /// key, or a merge): with `state` `running`, whether that process is
    /// still alive tells a live run from one that died.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    /// Corpora, in run order.
    pub corpora: Vec<CorpusInfo>,
    /// Whether `puzzles.csv` was written.
    pub per_puzzle: bool,
    /// The output directory, as given.
    pub out_dir: String,
    /// The run's files in the directory, by name: what `--force` removes
    /// before another run writes there, and nothing else
    /// ([`RunInfo::manifest`]). Empty in files from before the key.
    pub files: Vec<String>,
    /// The SHA-256 (lower-case hex) of each data file of `files` that was
    /// there when `run.json` was written, by name
    /// ([`checksum`](super::checksum)): verified by every reader. Empty in
    /// files from before the key (schema version below
    /// [`CHECKSUMS_FROM`](super::CHECKSUMS_FROM)).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub file_sha256: std::collections::BTreeMap<String, String>,
    /// The round-trip floor measured before the run, for a run with
    /// solvers in their own processes: what the pipe costs. Absent for
    /// runs without such solvers, when it could not be measured, and in
    /// files from before the key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_trip_floor: Option<RoundTripFloor>,
}

/// The `round_trip_floor` entry: the round trip (request written to
/// response read) of a trivial solver in its own process that answers at
/// once, solving nothing (`dlxbench solver-echo`), measured before the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundTripFloor {
    /// Median round trip, ns.
    pub p50_ns: u64,
    /// Mean round trip, ns.
    pub mean_ns: f64,
    /// Timed requests (after an untimed warm-up).
    pub requests: u64,
}

/// Who ran a run, where and when: in `run.json`, and for each part of a
/// merge in its `merged_from`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunFacts {
    /// Git revision of the build, recorded when the binary was built
    /// (`None`: not built from a git checkout).
    pub git_revision: Option<String>,
    /// SHA-256 (hex) of the binary that ran (`None`: unreadable, or a file
    /// from before the key).
    pub binary_sha256: Option<String>,
    /// The command line, argument by argument.
    pub command_line: Vec<String>,
    /// CPU model.
    pub cpu_model: Option<String>,
    /// Cores of the machine.
    pub cores: Option<usize>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// Start time (RFC 3339, UTC).
    pub started: Option<String>,
    /// End time.
    pub finished: Option<String>,
    /// Wall time, s.
    pub duration_s: Option<f64>,
    /// The shard(s) the run covers (`None`: the whole corpora).
    pub shard: Option<ShardInfo>,
    /// For a merge: each part's own facts, in shard order.
    pub merged_from: Option<Vec<PartFacts>>,
}

/// The `shard` entry: one shard, or the shards a merge covers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// The shard (1-based), when the run covers exactly one.
    pub index: Option<u32>,
    /// The shard count of the partition.
    pub count: u32,
    /// The shards covered (1-based, ascending).
    pub indices: Vec<u32>,
    /// The partition, in words.
    pub rule: String,
}

/// One part of a merged run, as its `merged_from` entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PartFacts {
    /// The part's directory.
    pub dir: String,
    /// Its facts, from its `run.json`.
    #[serde(flatten)]
    pub facts: RunFacts,
    /// Its own figures per corpus x solver.
    pub throughput: Vec<Throughput>,
}

/// One corpus x solver's figures in one part of a merge.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Puzzles run.
    pub puzzles: u64,
    /// Throughput (`None`: nothing timed).
    pub puzzles_per_s: Option<f64>,
    /// Mean solve time, ns.
    pub mean_ns: f64,
    /// Median solve time, ns.
    pub p50_ns: u64,
}

/// A solver of the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolverInfo {
    /// Name.
    pub name: String,
    /// What it is.
    pub description: String,
    /// Node budget (`None`: unlimited).
    pub budget_nodes: Option<u64>,
    /// Time budget, s (`None`: unlimited).
    pub budget_time_s: Option<f64>,
    /// The file in the directory its standard error went to, for a solver
    /// in its own process (`solver-NAME.log`); absent for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_file: Option<String>,
    /// Bytes of its standard error the log's caps dropped (the log keeps
    /// its head and each process's tail: docs/solver-protocol.md); absent
    /// when nothing was dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_dropped_bytes: Option<u64>,
}

/// The failed solves of one solver on one corpus (`run.json`'s
/// `corpora[i].failures`: only solvers with some).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FailureCounts {
    /// The solver.
    pub solver: String,
    /// Puzzles on which its process crashed.
    pub crashed: u64,
    /// Puzzles past its deadline.
    pub timeout: u64,
    /// Puzzles answered out of protocol.
    pub protocol_error: u64,
    /// Puzzles not run (stopped after failures in a row, or interrupted).
    pub skipped: u64,
    /// Untimed warm-up solves that failed (they have no record of their
    /// own; counted among the run's failed solves).
    #[serde(skip_serializing_if = "is_zero")]
    pub warm_up_failed: u64,
    /// Solves of symmetry images 1 to K-1 (`--images`) that failed (rows
    /// of `images.csv`; counted among the run's failed solves).
    #[serde(skip_serializing_if = "is_zero")]
    pub image_failed: u64,
    /// The first failures of the corpus as the run reports them (`line
    /// 12: py protocol-error (stray): ...`, with what the harness saw).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A corpus of the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CorpusInfo {
    /// Name.
    pub name: String,
    /// Path, if it was a file.
    pub path: Option<String>,
    /// Size, bytes.
    pub bytes: u64,
    /// SHA-256 (hex), if recorded.
    pub sha256: Option<String>,
    /// Lines.
    pub lines: u64,
    /// Lines done (fewer than `lines` when the run was interrupted).
    pub lines_done: u64,
    /// Whether every line was done.
    pub complete: bool,
    /// Workers that ran it.
    pub workers: usize,
    /// Puzzles.
    pub puzzles: u64,
    /// Lines that did not parse.
    pub malformed: u64,
    /// Whether `0` was read as an empty cell.
    pub allow_zero: bool,
    /// Time parsing, ns.
    pub parse_ns: u64,
    /// Time scanning for lines, ns.
    pub scan_ns: u64,
    /// Reader throughput, MB/s.
    pub reader_mb_per_s: f64,
    /// Wall time, s.
    pub wall_s: f64,
    /// Whether the file changed on disk during the run.
    pub changed_on_disk: bool,
    /// The stem of the corpus's result files (`<stem>.<solver>.hgrm`,
    /// `<stem>.<picture>.svg`): unique in the run
    /// ([`file_stems`](super::schema::file_stems)). `None` in files from
    /// before the key: [`RunInfo::file_stems`] then gives what they used.
    pub file_stem: Option<String>,
    /// Where the corpus stands ([`CorpusInfo::state`] reads it; `None`: a
    /// file from before the key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<CorpusState>,
    /// The solvers with failed or skipped solves on the corpus, and how
    /// many (absent when none, and in files from before schema 2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<FailureCounts>,
}

/// Where a run stands, as its `run.json` says (`state`). Written
/// `running` before anything is solved and at every corpus's start and
/// end; `complete` or `interrupted` only by the run's last write. A
/// `running` directory whose writer is gone is a run that died (read as
/// [`DirState::Died`](super::DirState::Died)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    /// The run is going, or its writer died before its last write.
    Running,
    /// Every corpus ran and every result file was written.
    Complete,
    /// Stopped on request (Ctrl-C, SIGTERM): the corpora `done` and the
    /// one `partial` are kept.
    Interrupted,
}

impl RunState {
    /// The word in `run.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunState::Running => "running",
            RunState::Complete => "complete",
            RunState::Interrupted => "interrupted",
        }
    }
}

/// Where a corpus of the run stands, as its entry in `run.json` says
/// (`state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CorpusState {
    /// Every line was run; its result files (and its rows of
    /// `puzzles.csv`) are written.
    #[serde(rename = "done")]
    Done,
    /// Stopped part-way (`lines_done` of `lines`); what ran is kept.
    #[serde(rename = "partial")]
    Partial,
    /// In flight when `run.json` was written: nothing of it is kept yet.
    #[serde(rename = "running")]
    Running,
    /// Requested, never started.
    #[serde(rename = "not started")]
    NotStarted,
}

impl CorpusState {
    /// The word in `run.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            CorpusState::Done => "done",
            CorpusState::Partial => "partial",
            CorpusState::Running => "running",
            CorpusState::NotStarted => "not started",
        }
    }

    /// Whether the corpus ran, in full or in part: it has results.
    pub fn ran(self) -> bool {
        matches!(self, CorpusState::Done | CorpusState::Partial)
    }
}

impl CorpusInfo {
    /// Where the corpus stands: its `state`, or for a file from before the
    /// key `done` or (not `complete`) `partial`.
    pub fn state(&self) -> CorpusState {
        self.state.unwrap_or(match self.complete {
            true => CorpusState::Done,
            false => CorpusState::Partial,
        })
    }
}

impl RunInfo {
    /// The corpora of the run whose [state](CorpusInfo::state) is `state`,
    /// in the run's order.
    pub fn corpora_in(&self, state: CorpusState) -> impl Iterator<Item = &CorpusInfo> {
        self.corpora.iter().filter(move |c| c.state() == state)
    }

    /// `text`, the contents of the `run.json` at `path`: errors name the
    /// file and the field.
    pub fn read(path: &std::path::Path, text: &str) -> Result<RunInfo, super::ResultError> {
        let mut info: RunInfo = super::from_json(path, text)?;
        info.facts = super::from_json(path, text)?;
        // Names joined to the directory: never a path out of it.
        for (i, c) in info.corpora.iter().enumerate() {
            if let Some(stem) = c.file_stem.as_deref().filter(|s| !schema::is_file_stem(s)) {
                return Err(super::ResultError::field(
                    path,
                    format!("corpora[{i}].file_stem"),
                    format!("`{stem}` is not a file stem a run writes"),
                ));
            }
        }
        if let Some(i) = info.files.iter().position(|f| !is_plain_name(f)) {
            return Err(super::ResultError::field(
                path,
                format!("files[{i}]"),
                format!(
                    "`{}` is not the name of a file in the directory",
                    info.files[i]
                ),
            ));
        }
        for (name, sum) in &info.file_sha256 {
            if !is_plain_name(name) || !schema::is_checksummed(name) {
                return Err(super::ResultError::field(
                    path,
                    format!("file_sha256.{name}"),
                    "not the name of a data file of the directory",
                ));
            }
            if !super::checksum::is_sha256(sum) {
                return Err(super::ResultError::field(
                    path,
                    format!("file_sha256.{name}"),
                    format!("`{sum}` is not a SHA-256 (64 lower-case hex digits)"),
                ));
            }
        }
        Ok(info)
    }

    /// Whether `run.json` records the checksums of the result files: its
    /// schema version is [`CHECKSUMS_FROM`](super::CHECKSUMS_FROM) or later.
    pub fn has_checksums(&self) -> bool {
        self.schema_version
            .is_some_and(|v| v >= super::CHECKSUMS_FROM)
            || !self.file_sha256.is_empty()
    }

    /// The stem of each corpus's result files, in run order: as recorded,
    /// or for a file from before `file_stem`, as [`schema::file_stems`]
    /// gives them.
    pub fn file_stems(&self) -> Vec<String> {
        let names: Vec<&str> = self.corpora.iter().map(|c| c.name.as_str()).collect();
        self.corpora
            .iter()
            .zip(schema::file_stems(&names))
            .map(|(c, computed)| c.file_stem.clone().unwrap_or(computed))
            .collect()
    }

    /// The names of the files a run of these corpora and solvers has in
    /// its directory: `summary.csv`, `run.json`, `histograms.json`,
    /// `summary.md`, `puzzles.csv` (with per-puzzle rows), `problems.txt`
    /// (when it found problems), `images.csv` (with `--images`), each corpus x
    /// solver's `.hgrm` file, and the pictures and `report.html` that
    /// `bench` or a later `plot` draws there. The exports are not among
    /// them: they are where the command line put them.
    pub fn result_files(&self) -> Vec<String> {
        let mut files: Vec<String> = schema::FIXED_FILES
            .iter()
            .filter(|f| self.per_puzzle || **f != schema::PUZZLES_CSV)
            .filter(|f| self.problems > 0 || **f != schema::PROBLEMS_TXT)
            .filter(|f| self.images.is_some() || **f != schema::IMAGES_CSV)
            .map(|f| f.to_string())
            .collect();
        for stem in self.file_stems() {
            for s in &self.solvers {
                files.push(schema::hgrm_file(&stem, &s.name));
            }
            for picture in schema::PICTURES {
                files.push(schema::picture_file(&stem, picture));
            }
            if self.per_puzzle {
                for s in &self.solvers {
                    if self.reference.as_ref().is_some_and(|r| *r != s.name) {
                        files.push(schema::versus_file(&stem, &s.name));
                    }
                }
            }
        }
        files.extend(self.solvers.iter().filter_map(|s| s.log_file.clone()));
        files
    }

    /// The files of the run, by name: its `files` list, or for a
    /// `run.json` from before the list, the names its corpora and solvers
    /// imply ([`RunInfo::result_files`]).
    pub fn manifest(&self) -> Vec<String> {
        match self.files.is_empty() {
            true => self.result_files(),
            false => self.files.clone(),
        }
    }

    /// Where the run stands: its `state`, or for a file from before the
    /// key `interrupted` or `complete` (only a finished run wrote one).
    pub fn state(&self) -> RunState {
        self.state.unwrap_or(match self.interrupted {
            true => RunState::Interrupted,
            false => RunState::Complete,
        })
    }

    /// The solver named `name`.
    pub fn solver(&self, name: &str) -> Option<&SolverInfo> {
        self.solvers.iter().find(|s| s.name == name)
    }
}
