//! Merging the result directories of shards (`bench --shard K/N`, see
//! [`crate::shard`]) into one result directory, exactly.
//!
//! What is checked first, naming the difference when it fails: every part
//! holds a finished run (not an interrupted one); the parts ran the same
//! corpora (SHA-256), kind, mode, limit, passes, warm-up, shuffle and
//! permute seeds, schedule block, solvers and budgets, with the same
//! dlxbench version; they are shards of one partition, none given twice
//! and none missing (unless the merge is [`Options::partial`]).
//!
//! What is merged: every corpus x solver's counts and exact sums, and its
//! latency histogram, from the parts' `histograms.json` (HdrHistogram V2:
//! the merged histogram is the exact sum of the parts'); the parts'
//! `puzzles.csv` rows, streamed into one file in corpus and line order (a
//! k-way merge holding one row per part: memory does not grow with the
//! rows); every solver's rows of a puzzle are cross-checked again, and each
//! part's row counts checked against its statistics. `summary.csv`, the
//! `.hgrm` files, `summary.md`, `histograms.json` and `run.json` are then
//! written from the merged statistics by the reports a run uses, so the
//! merged directory is a normal result directory (one that `compare` and
//! `merge` read).
//!
//! Throughput in a merged run: a corpus's workers are the parts' workers
//! added up, and `puzzles_per_s` is puzzles x workers / summed solve time:
//! what all the parts' workers together would do if they were equally fast.
//! When the parts ran on different machines, each part's own figures are
//! kept in `run.json` (`merged_from`).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use crate::atomic::AtomicFile;
use crate::budget::Budget;
use crate::harness::{
    self, Config, CorpusResult, Discrepancy, Mode, Record, RunResult, SolverStats,
};
use crate::kinds::PuzzleKind;
use crate::report::histograms_json::{self, Entry};
use crate::report::run_json::Merged;
use crate::report::{self, schema, RunMeta};
use crate::solvers::Status;

/// How to merge.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Accept a subset of the shards (a merge to be merged again with the
    /// rest later): missing shards are then not an error.
    pub partial: bool,
    /// The command line, for the merged `run.json`.
    pub command_line: Vec<String>,
    /// Where the merged directory will be (for `run.json`; the files are
    /// written into the directory given to [`merge`]).
    pub out_dir: PathBuf,
}

/// Why parts cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A part is not a finished result directory, or one of its files is
    /// not what a run writes.
    #[error("{dir}: {what}")]
    Part {
        /// The part's directory.
        dir: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Two parts were run differently.
    #[error("the parts differ in {what}: {first} has {a}, {second} has {b}")]
    Mismatch {
        /// What differs.
        what: &'static str,
        /// A part.
        first: PathBuf,
        /// Its value.
        a: String,
        /// Another part.
        second: PathBuf,
        /// Its value.
        b: String,
    },
    /// Shards are missing or given twice.
    #[error("{0}")]
    Shards(String),
    /// Two parts hold the same puzzle.
    #[error("{corpus} line {line} is in both {first} and {second}: the parts overlap")]
    Overlap {
        /// Corpus.
        corpus: String,
        /// Line.
        line: u64,
        /// A part.
        first: PathBuf,
        /// Another part.
        second: PathBuf,
    },
    /// Nothing to merge.
    #[error("no part to merge")]
    Empty,
}

/// A merged run: what the reports were written from.
#[derive(Debug)]
pub struct Merge {
    /// The merged results (discrepancies found again in the merged rows).
    pub result: RunResult,
    /// The parts' settings.
    pub config: Config,
    /// The merged run's metadata.
    pub meta: RunMeta,
    /// Rows of the merged `puzzles.csv` (0 when the parts had none).
    pub rows: u64,
    /// The files written.
    pub written: Vec<PathBuf>,
}

/// One part: a result directory.
struct Part {
    dir: PathBuf,
    run: Value,
    count: u32,
    indices: Vec<u32>,
    entries: Vec<Entry>,
}

impl Part {
    /// A finished run's directory (an interrupted one is refused: its
    /// shard must run again).
    fn load(dir: &Path) -> Result<Part, MergeError> {
        let part = Part::read(dir)?;
        let run = &part.run;
        if run["interrupted"].as_bool() != Some(false) {
            let partial: Vec<String> = corpora(run)
                .iter()
                .filter(|c| c["complete"].as_bool() != Some(true))
                .map(|c| {
                    format!(
                        "{}: {} of {} lines",
                        c["name"].as_str().unwrap_or("?"),
                        c["lines_done"],
                        c["lines"]
                    )
                })
                .collect();
            return Err(MergeError::Part {
                dir: dir.to_path_buf(),
                what: format!(
                    "the run was interrupted ({}); run this shard again",
                    // Stopped between two corpora: none is partial, the
                    // next never started.
                    if partial.is_empty() {
                        "before its next corpus started".to_string()
                    } else {
                        partial.join(", ")
                    }
                ),
            });
        }
        Ok(part)
    }

    /// A run's directory, finished or not.
    fn read(dir: &Path) -> Result<Part, MergeError> {
        let bad = |what: String| MergeError::Part {
            dir: dir.to_path_buf(),
            what,
        };
        let run_path = dir.join(schema::RUN_JSON);
        let text = match std::fs::read_to_string(&run_path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(bad(format!(
                    "no {}: not the result directory of a run (or of a run killed before its \
                     first corpus ended)",
                    schema::RUN_JSON
                )))
            }
            Err(source) => {
                return Err(MergeError::Io {
                    path: run_path,
                    source,
                })
            }
        };
        let run: Value = serde_json::from_str(&text)
            .map_err(|e| bad(format!("{}: not JSON: {e}", schema::RUN_JSON)))?;
        let (count, indices) = match &run["shard"] {
            Value::Null => (1, vec![1]),
            s => {
                let count = s["count"].as_u64().and_then(|n| u32::try_from(n).ok());
                let indices: Option<Vec<u32>> = s["indices"].as_array().and_then(|a| {
                    a.iter()
                        .map(|v| v.as_u64().and_then(|n| u32::try_from(n).ok()))
                        .collect()
                });
                match (count, indices) {
                    (Some(c), Some(i)) if !i.is_empty() && i.iter().all(|&k| k >= 1 && k <= c) => {
                        (c, i)
                    }
                    _ => return Err(bad(format!("{}: `shard` is malformed", schema::RUN_JSON))),
                }
            }
        };
        let entries =
            histograms_json::read(&dir.join(schema::HISTOGRAMS_JSON)).map_err(|e| match e {
                histograms_json::ReadError::Io { path, source } => MergeError::Io { path, source },
                histograms_json::ReadError::Format { what, .. } => {
                    bad(format!("{}: {what}", schema::HISTOGRAMS_JSON))
                }
            })?;
        Ok(Part {
            dir: dir.to_path_buf(),
            run,
            count,
            indices,
            entries,
        })
    }

    /// Whether the run wrote `puzzles.csv`.
    fn per_puzzle(&self) -> bool {
        self.run["per_puzzle"].as_bool() == Some(true)
    }

    /// The part's statistics of `corpus` x `solver`.
    fn stats(&self, corpus: &str, solver: &str) -> Result<&SolverStats, MergeError> {
        self.entries
            .iter()
            .find(|e| e.corpus == corpus && e.stats.name == solver)
            .map(|e| &e.stats)
            .ok_or_else(|| MergeError::Part {
                dir: self.dir.clone(),
                what: format!(
                    "{} has no entry for {corpus} x {solver}",
                    schema::HISTOGRAMS_JSON
                ),
            })
    }

    /// The part's own facts, for the merged `run.json`.
    fn facts(&self) -> Value {
        let r = &self.run;
        let throughput: Vec<Value> = corpora(r)
            .iter()
            .flat_map(|c| {
                let name = c["name"].as_str().unwrap_or_default();
                let workers = c["workers"].as_u64().unwrap_or(1) as usize;
                self.entries
                    .iter()
                    .filter(move |e| e.corpus == name)
                    .map(move |e| {
                        json!({
                            "corpus": name,
                            "solver": e.stats.name,
                            "puzzles": e.stats.puzzles,
                            "puzzles_per_s": e.stats.puzzles_per_s(workers),
                            "mean_ns": e.stats.mean_ns(),
                            "p50_ns": e.stats.quantile_ns(0.5),
                        })
                    })
            })
            .collect();
        json!({
            "dir": self.dir.display().to_string(),
            "shard": r["shard"],
            "git_revision": r["git_revision"],
            "cpu_model": r["cpu_model"],
            "cores": r["cores"],
            "threads": r["threads"],
            "started": r["started"],
            "finished": r["finished"],
            "duration_s": r["duration_s"],
            "command_line": r["command_line"],
            "throughput": throughput,
            "merged_from": r["merged_from"],
        })
    }
}

/// The `corpora` array of a `run.json`.
fn corpora(run: &Value) -> &[Value] {
    run["corpora"].as_array().map_or(&[], Vec::as_slice)
}

/// The settings that must agree between parts, each as text.
fn settings(run: &Value) -> Vec<(&'static str, String)> {
    let field = |key: &str| run[key].to_string();
    let solvers: Vec<String> = run["solvers"]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|s| {
            format!(
                "{} (budget {} nodes, {} s)",
                s["name"].as_str().unwrap_or("?"),
                s["budget_nodes"],
                s["budget_time_s"]
            )
        })
        .collect();
    let corpora: Vec<String> = corpora(run)
        .iter()
        .map(|c| {
            format!(
                "{} (sha256 {})",
                c["name"].as_str().unwrap_or("?"),
                c["sha256"].as_str().unwrap_or("?")
            )
        })
        .collect();
    vec![
        ("dlxbench version", field("dlxbench_version")),
        ("corpora", corpora.join(", ")),
        ("kind", field("kind")),
        ("mode", field("mode")),
        ("limit", field("limit")),
        ("solvers", solvers.join(", ")),
        ("passes", field("passes")),
        ("warm-up", field("warmup")),
        ("shuffle seed", field("shuffle_seed")),
        ("permute seed", field("permute_seed")),
        ("schedule block", field("schedule_block")),
    ]
}

/// Checks that the parts were run alike and cover their shards once;
/// returns the shard count and the indices covered, ascending.
fn check_parts(parts: &[Part], partial: bool) -> Result<(u32, Vec<u32>), MergeError> {
    let first = &parts[0];
    let expected = settings(&first.run);
    for p in &parts[1..] {
        for ((what, a), (_, b)) in expected.iter().zip(settings(&p.run)) {
            if *a != b {
                return Err(MergeError::Mismatch {
                    what,
                    first: first.dir.clone(),
                    a: a.clone(),
                    second: p.dir.clone(),
                    b,
                });
            }
        }
        let mismatch = |what, a: String, b: String| MergeError::Mismatch {
            what,
            first: first.dir.clone(),
            a,
            second: p.dir.clone(),
            b,
        };
        if p.count != first.count {
            return Err(mismatch(
                "shard count",
                first.count.to_string(),
                p.count.to_string(),
            ));
        }
        if p.per_puzzle() != first.per_puzzle() {
            let has = |yes: bool| if yes { "puzzles.csv" } else { "no puzzles.csv" }.to_string();
            return Err(mismatch(
                "per-puzzle rows",
                has(first.per_puzzle()),
                has(p.per_puzzle()),
            ));
        }
    }
    let count = first.count;
    let mut owner: Vec<Option<&Path>> = vec![None; count as usize];
    for p in parts {
        for &k in &p.indices {
            if let Some(other) = owner[k as usize - 1] {
                return Err(MergeError::Shards(format!(
                    "shard {k}/{count} is given twice: {} and {}",
                    other.display(),
                    p.dir.display()
                )));
            }
            owner[k as usize - 1] = Some(&p.dir);
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| owner[*k as usize - 1].is_none())
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() && !partial {
        return Err(MergeError::Shards(format!(
            "shard{} {} of {count} missing (--partial merges a subset, to be merged with the rest later)",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", ")
        )));
    }
    let indices = (1..=count)
        .filter(|k| owner[*k as usize - 1].is_some())
        .collect();
    Ok((count, indices))
}

/// Merges the result directories `dirs` into `into` (an empty directory).
pub fn merge(dirs: &[PathBuf], into: &Path, options: &Options) -> Result<Merge, MergeError> {
    if dirs.is_empty() {
        return Err(MergeError::Empty);
    }
    let parts: Vec<Part> = dirs
        .iter()
        .map(|d| Part::load(d))
        .collect::<Result<_, _>>()?;
    let (shard_count, indices) = check_parts(&parts, options.partial)?;
    let first = &parts[0];
    let config = config_of(first)?;
    let mut result = run_result(&parts, &config)?;
    let per_puzzle = first.per_puzzle();
    let mut written = Vec::new();
    let mut rows = 0;
    if per_puzzle {
        let (n, discrepancies) = merge_rows(&parts, &config, &result, into)?;
        rows = n;
        result.discrepancies = discrepancies;
        written.push(into.join(schema::PUZZLES_CSV));
    }
    // Parts in shard order in `merged_from`.
    let mut ordered: Vec<&Part> = parts.iter().collect();
    ordered.sort_by_key(|p| p.indices[0]);
    let meta = RunMeta {
        command_line: options.command_line.clone(),
        reference: first.run["reference"]
            .as_str()
            .unwrap_or(&config.solvers[0])
            .to_string(),
        sha256: corpora(&first.run)
            .iter()
            .map(|c| c["sha256"].as_str().unwrap_or_default().to_string())
            .collect(),
        out_dir: options.out_dir.clone(),
        per_puzzle,
        merged: Some(Merged {
            shard_count,
            indices,
            parts: ordered.iter().map(|p| p.facts()).collect(),
        }),
    };
    written.extend(
        report::write_all(&result, &config, &meta, into).map_err(|source| MergeError::Io {
            path: into.to_path_buf(),
            source,
        })?,
    );
    Ok(Merge {
        result,
        config,
        meta,
        rows,
        written,
    })
}

/// One result directory read back as the run it records, from its
/// `run.json` and `histograms.json` alone (no `puzzles.csv`): what
/// `dlxbench plot` draws from. An interrupted run reads too, with its
/// partial corpus as recorded. Discrepancies are not in those files: the
/// result has none.
#[derive(Debug)]
pub struct ResultDir {
    /// The statistics, exactly as the run accumulated them.
    pub result: RunResult,
    /// The run's settings.
    pub config: Config,
    /// Its metadata (command line, reference, checksums, shards).
    pub meta: RunMeta,
    /// `run.json` as written.
    pub run_json: Value,
}

/// Reads the result directory `dir` ([`ResultDir`]).
pub fn read_result_dir(dir: &Path) -> Result<ResultDir, MergeError> {
    let part = Part::read(dir)?;
    let mut config = config_of(&part)?;
    let mut result = run_result(std::slice::from_ref(&part), &config)?;
    config.threads = result.threads;
    let r = &part.run;
    result.interrupted = r["interrupted"].as_bool() == Some(true);
    let meta = RunMeta {
        command_line: r["command_line"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        reference: r["reference"]
            .as_str()
            .unwrap_or(&config.solvers[0])
            .to_string(),
        sha256: corpora(r)
            .iter()
            .map(|c| c["sha256"].as_str().unwrap_or_default().to_string())
            .collect(),
        out_dir: dir.to_path_buf(),
        per_puzzle: part.per_puzzle(),
        merged: None,
    };
    Ok(ResultDir {
        result,
        config,
        meta,
        run_json: part.run,
    })
}

/// The parts' settings (all equal: [`check_parts`]) as a [`Config`].
fn config_of(part: &Part) -> Result<Config, MergeError> {
    let r = &part.run;
    let bad = |what: &str| MergeError::Part {
        dir: part.dir.clone(),
        what: format!("{}: {what}", schema::RUN_JSON),
    };
    let kind = PuzzleKind::ALL
        .iter()
        .find(|k| Some(k.name()) == r["kind"].as_str())
        .ok_or_else(|| bad("unknown `kind`"))?;
    let mode = r["mode"]
        .as_str()
        .and_then(Mode::from_name)
        .ok_or_else(|| bad("unknown `mode`"))?;
    let solvers = r["solvers"]
        .as_array()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| bad("no `solvers`"))?;
    let names = solvers
        .iter()
        .map(|s| s["name"].as_str().map(str::to_string))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad("a solver without a name"))?;
    let seed = |key: &str| r[key].as_u64();
    Ok(Config {
        kind: kind.name(),
        descriptions: solvers
            .iter()
            .map(|s| s["description"].as_str().unwrap_or_default().to_string())
            .collect(),
        budgets: solvers
            .iter()
            .map(|s| Budget {
                max_nodes: s["budget_nodes"].as_u64().unwrap_or(u64::MAX),
                max_time: s["budget_time_s"].as_f64().map(Duration::from_secs_f64),
            })
            .collect(),
        solvers: names,
        threads: 0,
        mode,
        limit: r["limit"].as_u64().unwrap_or(u64::MAX),
        warmup: seed("warmup").unwrap_or(0) as usize,
        passes: seed("passes").unwrap_or(1) as u32,
        shuffle: seed("shuffle_seed"),
        permute: seed("permute_seed"),
        schedule: harness::Schedule {
            block: seed("schedule_block")
                .map_or(harness::Schedule::default().block, |b| b as usize),
        },
        shard: None,
    })
}

/// A `run.json` time, or `fallback`.
fn time(value: &Value, fallback: SystemTime) -> SystemTime {
    value
        .as_str()
        .and_then(|t| humantime::parse_rfc3339(t).ok())
        .unwrap_or(fallback)
}

/// The merged statistics (no discrepancies yet: [`merge_rows`] finds them).
fn run_result(parts: &[Part], config: &Config) -> Result<RunResult, MergeError> {
    let first = &parts[0];
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
    for p in parts {
        let r = &p.run;
        result.states_created += r["states_created"].as_u64().unwrap_or(0);
        result.threads += r["threads"].as_u64().unwrap_or(0) as usize;
        result.clock_overhead_ns = result
            .clock_overhead_ns
            .max(r["clock_overhead_ns"].as_f64().unwrap_or(0.0));
        result.started = result.started.min(time(&r["started"], result.started));
        result.finished = result.finished.max(time(&r["finished"], result.finished));
    }
    for (i, c) in corpora(&first.run).iter().enumerate() {
        let name = c["name"].as_str().unwrap_or_default().to_string();
        let sum = |key: &str| {
            parts
                .iter()
                .map(|p| corpora(&p.run)[i][key].as_u64().unwrap_or(0))
                .sum::<u64>()
        };
        let lines = c["lines"].as_u64().unwrap_or(0);
        let mut solvers = Vec::with_capacity(config.solvers.len());
        for s in &config.solvers {
            let mut merged = SolverStats::new(s.clone());
            for p in parts {
                merged.merge(p.stats(&name, s)?);
            }
            solvers.push(merged);
        }
        result.corpora.push(CorpusResult {
            name,
            path: c["path"].as_str().map(PathBuf::from),
            bytes: c["bytes"].as_u64().unwrap_or(0),
            lines,
            allow_zero: c["allow_zero"].as_bool().unwrap_or(false),
            puzzles: sum("puzzles"),
            malformed: sum("malformed"),
            malformed_examples: Vec::new(),
            parse_ns: sum("parse_ns"),
            scan_ns: sum("scan_ns"),
            // Machine time: the parts' wall times added.
            wall: Duration::from_secs_f64(
                parts
                    .iter()
                    .map(|p| corpora(&p.run)[i]["wall_s"].as_f64().unwrap_or(0.0))
                    .sum(),
            ),
            solvers,
            changed_on_disk: parts
                .iter()
                .any(|p| corpora(&p.run)[i]["changed_on_disk"].as_bool() == Some(true)),
            workers: sum("workers") as usize,
            // A merge is of finished parts; one directory read back may
            // hold a corpus an interrupt cut short.
            lines_done: match parts {
                [one] => corpora(&one.run)[i]["lines_done"].as_u64().unwrap_or(lines),
                _ => lines,
            },
        });
    }
    Ok(result)
}

/// One part's `puzzles.csv` being read.
struct Rows {
    reader: csv::Reader<BufReader<File>>,
    row: csv::ByteRecord,
    path: PathBuf,
    /// The current row's corpus and solver indices and line.
    key: Option<(usize, u64)>,
    solver: usize,
    /// Rows per corpus x solver.
    counts: Vec<Vec<u64>>,
}

/// The columns the merge reads.
struct Columns {
    corpus: usize,
    line: usize,
    solver: usize,
    solutions: usize,
    status: usize,
}

impl Rows {
    fn open(part: &Part, solvers: usize, corpora: usize) -> Result<Rows, MergeError> {
        let path = part.dir.join(schema::PUZZLES_CSV);
        let file = File::open(&path).map_err(|source| MergeError::Io {
            path: path.clone(),
            source,
        })?;
        let mut reader = csv::ReaderBuilder::new()
            .buffer_capacity(1 << 16)
            .from_reader(BufReader::new(file));
        let header = reader.byte_headers().map_err(|e| csv_error(&path, e))?;
        let expected: Vec<&[u8]> = schema::puzzles::COLUMNS
            .iter()
            .map(|c| c.as_bytes())
            .collect();
        if header.iter().collect::<Vec<_>>() != expected {
            return Err(MergeError::Part {
                dir: part.dir.clone(),
                what: format!(
                    "{}: the header is not {}",
                    schema::PUZZLES_CSV,
                    schema::puzzles::COLUMNS.join(",")
                ),
            });
        }
        Ok(Rows {
            reader,
            row: csv::ByteRecord::new(),
            path,
            key: None,
            solver: 0,
            counts: vec![vec![0; solvers]; corpora],
        })
    }

    /// Reads the next row; `None` at the end.
    fn advance(
        &mut self,
        columns: &Columns,
        corpora: &HashMap<Vec<u8>, usize>,
        solvers: &HashMap<Vec<u8>, usize>,
    ) -> Result<Option<(usize, u64)>, MergeError> {
        if !self
            .reader
            .read_byte_record(&mut self.row)
            .map_err(|e| csv_error(&self.path, e))?
        {
            self.key = None;
            return Ok(None);
        }
        let at = self.row.position().map_or(0, |p| p.line());
        let bad = |what: String| MergeError::Part {
            dir: self.path.clone(),
            what: format!("line {at}: {what}"),
        };
        let field = |i: usize| String::from_utf8_lossy(&self.row[i]).into_owned();
        let corpus = *corpora.get(&self.row[columns.corpus]).ok_or_else(|| {
            bad(format!(
                "corpus `{}` is not in run.json",
                field(columns.corpus)
            ))
        })?;
        self.solver = *solvers.get(&self.row[columns.solver]).ok_or_else(|| {
            bad(format!(
                "solver `{}` is not in run.json",
                field(columns.solver)
            ))
        })?;
        let line = number(&self.row[columns.line])
            .ok_or_else(|| bad(format!("line `{}` is not a number", field(columns.line))))?;
        self.counts[corpus][self.solver] += 1;
        self.key = Some((corpus, line));
        Ok(self.key)
    }

    /// The current row as a record for the cross-check.
    fn record(&self, columns: &Columns) -> Result<Record, MergeError> {
        let at = self.row.position().map_or(0, |p| p.line());
        let status = std::str::from_utf8(&self.row[columns.status])
            .ok()
            .and_then(Status::from_name);
        let solutions = number(&self.row[columns.solutions]);
        let (Some(status), Some(solutions)) = (status, solutions) else {
            return Err(MergeError::Part {
                dir: self.path.clone(),
                what: format!("line {at}: bad `status` or `solutions`"),
            });
        };
        Ok(Record {
            line: self.key.map_or(0, |k| k.1),
            solver: self.solver as u16,
            status,
            ns: 0,
            solutions,
            nodes: None,
            guesses: 0,
            updates: None,
        })
    }
}

fn number(field: &[u8]) -> Option<u64> {
    std::str::from_utf8(field).ok()?.parse().ok()
}

fn csv_error(path: &Path, e: csv::Error) -> MergeError {
    MergeError::Part {
        dir: path.to_path_buf(),
        what: format!("line {}: {e}", e.position().map_or(0, |p| p.line())),
    }
}

/// Streams the parts' `puzzles.csv` into `into/puzzles.csv`, in corpus
/// (run order) and line order, cross-checking each puzzle's rows; checks
/// each part's row counts against its statistics. Returns the rows written
/// and the discrepancies.
fn merge_rows(
    parts: &[Part],
    config: &Config,
    result: &RunResult,
    into: &Path,
) -> Result<(u64, Vec<Discrepancy>), MergeError> {
    let corpus_index: HashMap<Vec<u8>, usize> = result
        .corpora
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_bytes().to_vec(), i))
        .collect();
    let solver_index: HashMap<Vec<u8>, usize> = config
        .solvers
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_bytes().to_vec(), i))
        .collect();
    let position = |name: &str| {
        schema::puzzles::COLUMNS
            .iter()
            .position(|c| *c == name)
            .expect("a puzzles.csv column")
    };
    let columns = Columns {
        corpus: position(schema::puzzles::CORPUS),
        line: position(schema::puzzles::LINE),
        solver: position(schema::puzzles::SOLVER),
        solutions: position(schema::puzzles::SOLUTIONS),
        status: position(schema::puzzles::STATUS),
    };
    let mut readers: Vec<Rows> = parts
        .iter()
        .map(|p| Rows::open(p, config.solvers.len(), result.corpora.len()))
        .collect::<Result<_, _>>()?;
    let path = into.join(schema::PUZZLES_CSV);
    let io = |source| MergeError::Io {
        path: path.clone(),
        source,
    };
    let file = AtomicFile::create(&path).map_err(io)?;
    let mut out = csv::WriterBuilder::new().from_writer(BufWriter::with_capacity(1 << 16, file));
    out.write_record(schema::puzzles::COLUMNS)
        .map_err(|e| io(e.into()))?;
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some((c, line)) = r.advance(&columns, &corpus_index, &solver_index)? {
            heap.push(Reverse((c, line, i)));
        }
    }
    let mut rows = 0u64;
    let mut discrepancies = Vec::new();
    // The puzzle whose rows are being gathered: key, part, records.
    let mut current: Option<(usize, u64, usize)> = None;
    let mut records: Vec<Record> = Vec::with_capacity(config.solvers.len());
    let name = |s: u16| config.solvers[usize::from(s)].as_str();
    // The cross-check of the puzzle whose rows were gathered, if any.
    let check = |puzzle: Option<(usize, u64, usize)>, records: &[Record]| match puzzle {
        Some((c, line, _)) => harness::cross_check(&result.corpora[c].name, line, records, name),
        None => Vec::new(),
    };
    while let Some(Reverse((c, line, i))) = heap.pop() {
        match current {
            Some((pc, pl, pi)) if (pc, pl) == (c, line) && pi != i => {
                return Err(MergeError::Overlap {
                    corpus: result.corpora[c].name.clone(),
                    line,
                    first: parts[pi].dir.clone(),
                    second: parts[i].dir.clone(),
                });
            }
            Some((pc, pl, _)) if (pc, pl) == (c, line) => {}
            _ => {
                discrepancies.extend(check(current, &records));
                records.clear();
                current = Some((c, line, i));
            }
        }
        let r = &mut readers[i];
        records.push(r.record(&columns)?);
        out.write_byte_record(&r.row).map_err(|e| io(e.into()))?;
        rows += 1;
        if let Some((c, line)) = r.advance(&columns, &corpus_index, &solver_index)? {
            heap.push(Reverse((c, line, i)));
        }
    }
    discrepancies.extend(check(current, &records));
    for (part, r) in parts.iter().zip(&readers) {
        for (c, corpus) in result.corpora.iter().enumerate() {
            for (s, solver) in config.solvers.iter().enumerate() {
                let stats = part.stats(&corpus.name, solver)?;
                if r.counts[c][s] != stats.puzzles {
                    return Err(MergeError::Part {
                        dir: part.dir.clone(),
                        what: format!(
                            "{} holds {} rows of {} x {solver}, {} says {} puzzles: a file was cut short or changed",
                            schema::PUZZLES_CSV,
                            r.counts[c][s],
                            corpus.name,
                            schema::HISTOGRAMS_JSON,
                            stats.puzzles
                        ),
                    });
                }
            }
        }
    }
    let writer = out.into_inner().map_err(|e| io(e.into_error()))?;
    let file = writer.into_inner().map_err(|e| io(e.into_error()))?;
    let mut file = file;
    file.flush().map_err(io)?;
    file.commit().map_err(io)?;
    Ok((rows, discrepancies))
}
