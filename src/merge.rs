//! Merging the result directories of shards (`bench --shard K/N`, see
//! [`crate::shard`]) into one result directory, exactly.
//!
//! What is checked first, naming the difference when it fails: every part
//! holds a finished run (not an interrupted one); the parts ran the same
//! corpora (SHA-256), kind, mode, limit, passes, warm-up, shuffle and
//! permute seeds, symmetry images, schedule block, solvers and budgets, with the same
//! dlxbench version; they are shards of one partition, none given twice
//! and none missing (unless the merge is [`Options::partial`]).
//!
//! Each part is read through [`ResultDir::open_with`]: the checksums its
//! `run.json` records of its files are verified (a file edited, truncated
//! or replaced after the run is refused, naming it, unless
//! [`Options::accept_modified`] (then each is in [`Merge::notes`]); a part
//! from before checksums is read unverified, as before). What no checksum covers
//! (a part without them, or a file rewritten with its checksum) is
//! cross-checked: each part's `summary.csv` must agree with its
//! `histograms.json` (`solved` at most `puzzles`, the same counts and
//! total nodes), and its `puzzles.csv` rows, added up, must give exactly
//! the statistics of its `histograms.json` (counts, total nodes, guesses,
//! updates, mems, summed times and the latency histogram): edited node counts,
//! or histograms swapped between solvers, are refused.
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
//! `merge` read). Parts run with `bench --images K` (the same K) have their
//! `images.csv` rows gathered in corpus and line order ([`merge_images`]),
//! each puzzle's image rows checked again as the run checks them
//! ([`images::check_line`]), and the images' notes and `images.csv`
//! written from them as the unsharded run writes them.
//!
//! Throughput in a merged run: a corpus's workers are the parts' workers
//! added up, and `puzzles_per_s` is puzzles x workers / summed solve time:
//! what all the parts' workers together would do if they were equally fast.
//! When the parts ran on different machines, each part's own figures are
//! kept in `run.json` (`merged_from`).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::atomic::AtomicFile;
use crate::harness::images::{self, ImageRow};
use crate::harness::{self, Config, Discrepancy, PairedTimes, Record, RunResult, SolverStats};
use crate::report::run_json::Merged;
use crate::report::{self, schema, RunMeta};
use crate::results::puzzles::{self, PuzzleReader, PuzzleRecord};
use crate::results::{
    Checksums, DirState, PartFacts, ResultDir, ResultError, RunInfo, SummaryFile, Throughput,
    Verify,
};
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
    /// Read parts whose files do not match the checksums in their
    /// `run.json` (each is then listed in [`Merge::notes`]) instead of
    /// refusing them. The consistency checks still apply.
    pub accept_modified: bool,
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
    /// A part's `run.json` or `histograms.json` is missing or is not what
    /// a run writes.
    #[error(transparent)]
    Read(#[from] ResultError),
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
    /// What to tell about the parts read: their files accepted that do
    /// not match their checksums ([`Options::accept_modified`]).
    pub notes: Vec<String>,
}

/// One part: a result directory.
struct Part {
    dir: PathBuf,
    result: ResultDir,
    count: u32,
    indices: Vec<u32>,
    stats: Vec<(String, SolverStats)>,
}

impl Part {
    /// A finished run's directory (an interrupted one is refused: its
    /// shard must run again).
    fn load(dir: &Path, verify: Verify) -> Result<Part, MergeError> {
        let part = Part::read(dir, verify)?;
        let run = &part.result.run;
        if matches!(
            part.result.state,
            DirState::Died { .. } | DirState::Running { .. }
        ) {
            return Err(MergeError::Part {
                dir: dir.to_path_buf(),
                what: format!(
                    "not a finished run: {}; run this shard again",
                    part.result.warning().unwrap_or_default()
                ),
            });
        }
        if run.interrupted {
            let partial: Vec<String> = run
                .corpora
                .iter()
                .filter(|c| !c.complete)
                .map(|c| format!("{}: {} of {} lines", c.name, c.lines_done, c.lines))
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
    fn read(dir: &Path, verify: Verify) -> Result<Part, MergeError> {
        let result = ResultDir::open_with(dir, verify)?;
        let (count, indices) = match &result.run.facts.shard {
            None => (1, vec![1]),
            Some(s) => {
                if s.indices.is_empty() || s.indices.iter().any(|&k| k < 1 || k > s.count) {
                    return Err(MergeError::Part {
                        dir: dir.to_path_buf(),
                        what: format!("{}: `shard` is malformed", schema::RUN_JSON),
                    });
                }
                (s.count, s.indices.clone())
            }
        };
        let stats = result.stats()?;
        Ok(Part {
            dir: dir.to_path_buf(),
            result,
            count,
            indices,
            stats,
        })
    }

    /// What to tell about the part's checksums (none when verified).
    fn notes(&self) -> Vec<String> {
        let dir = self.dir.display();
        match &self.result.checksums {
            // A part from before checksums is read as before: the
            // consistency checks are what vouch for it.
            Checksums::Verified | Checksums::NotRecorded => Vec::new(),
            Checksums::Modified(modified) => modified
                .iter()
                .map(|m| format!("{dir}: {m}; read anyway, as asked"))
                .collect(),
        }
    }

    /// Checks the part's `summary.csv` (if there) against its
    /// `histograms.json`: every row's counts are possible (`solved` and
    /// `invalid` at most `puzzles`, `multiple` at most `solved`) and are
    /// those of the statistics the merge adds up.
    fn check_summary(&self) -> Result<(), MergeError> {
        let Some(path) = &self.result.summary_csv else {
            return Ok(());
        };
        let bad = |what: String| MergeError::Part {
            dir: self.dir.clone(),
            what: format!("{}: {what}", schema::SUMMARY_CSV),
        };
        for row in SummaryFile::read(path)?.rows {
            let (c, s) = (&row.corpus, &row.solver);
            if row.solved > row.puzzles || row.invalid > row.puzzles {
                return Err(bad(format!(
                    "{c} x {s}: {} solved and {} invalid of {} puzzles: impossible counts",
                    row.solved, row.invalid, row.puzzles
                )));
            }
            if row.multiple > row.solved {
                return Err(bad(format!(
                    "{c} x {s}: {} multiple of {} solved: impossible counts",
                    row.multiple, row.solved
                )));
            }
            let stats = self.stats(c, s)?;
            let pairs = [
                ("puzzles", row.puzzles, stats.puzzles),
                ("solved", row.solved, stats.solved),
                ("unsolvable", row.unsolvable, stats.unsolvable),
                ("multiple", row.multiple, stats.multiple),
                ("budget", row.budget, stats.budget),
                ("invalid", row.invalid, stats.invalid),
                ("not_applicable", row.not_applicable, stats.not_applicable),
            ];
            let nodes = ("total_nodes", row.total_nodes, stats.total_nodes);
            let differs = pairs
                .iter()
                .map(|(what, a, b)| (*what, Some(*a), Some(*b)))
                .chain([nodes])
                .find(|(_, a, b)| a != b);
            if let Some((what, a, b)) = differs {
                let show = |v: Option<u64>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
                return Err(bad(format!(
                    "{c} x {s}: `{what}` is {}, {} says {}: a file was changed",
                    show(a),
                    schema::HISTOGRAMS_JSON,
                    show(b)
                )));
            }
        }
        Ok(())
    }

    /// Whether the run wrote `puzzles.csv`.
    fn per_puzzle(&self) -> bool {
        self.result.run.per_puzzle
    }

    /// The part's statistics of `corpus` x `solver`.
    fn stats(&self, corpus: &str, solver: &str) -> Result<&SolverStats, MergeError> {
        self.stats
            .iter()
            .find(|(c, s)| c == corpus && s.name == solver)
            .map(|(_, s)| s)
            .ok_or_else(|| MergeError::Part {
                dir: self.dir.clone(),
                what: format!(
                    "{} has no entry for {corpus} x {solver}",
                    schema::HISTOGRAMS_JSON
                ),
            })
    }

    /// The part's own facts, for the merged `run.json`.
    fn facts(&self) -> PartFacts {
        let r = &self.result.run;
        let throughput = r
            .corpora
            .iter()
            .flat_map(|c| {
                self.stats
                    .iter()
                    .filter(move |(corpus, _)| *corpus == c.name)
                    .map(move |(_, s)| Throughput {
                        corpus: c.name.clone(),
                        solver: s.name.clone(),
                        puzzles: s.puzzles,
                        puzzles_per_s: s.puzzles_per_s(c.workers),
                        mean_ns: s.mean_ns(),
                        p50_ns: s.quantile_ns(0.5),
                    })
            })
            .collect();
        PartFacts {
            dir: self.dir.display().to_string(),
            facts: r.facts.clone(),
            throughput,
        }
    }
}

/// `value` as JSON text, for messages (`"unique"`, `null`).
fn json_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The settings that must agree between parts, each as text.
fn settings(run: &RunInfo) -> Vec<(&'static str, String)> {
    let solvers: Vec<String> = run
        .solvers
        .iter()
        .map(|s| {
            format!(
                "{} (budget {} nodes, {} s)",
                s.name,
                json_text(&s.budget_nodes),
                json_text(&s.budget_time_s)
            )
        })
        .collect();
    let corpora: Vec<String> = run
        .corpora
        .iter()
        .map(|c| format!("{} (sha256 {})", c.name, c.sha256.as_deref().unwrap_or("?")))
        .collect();
    vec![
        ("dlxbench version", json_text(&run.dlxbench_version)),
        ("corpora", corpora.join(", ")),
        ("kind", json_text(&run.kind)),
        ("mode", json_text(&run.mode)),
        ("limit", json_text(&run.limit)),
        ("solvers", solvers.join(", ")),
        ("passes", json_text(&run.passes)),
        ("warm-up", json_text(&run.warmup)),
        ("shuffle seed", json_text(&run.shuffle_seed)),
        ("permute seed", json_text(&run.permute_seed)),
        ("symmetry images", json_text(&run.images)),
        ("schedule block", json_text(&run.schedule_block)),
    ]
}

/// Checks that the parts were run alike and cover their shards once;
/// returns the shard count and the indices covered, ascending.
fn check_parts(parts: &[Part], partial: bool) -> Result<(u32, Vec<u32>), MergeError> {
    let first = &parts[0];
    let expected = settings(&first.result.run);
    for p in &parts[1..] {
        for ((what, a), (_, b)) in expected.iter().zip(settings(&p.result.run)) {
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
    let verify = match options.accept_modified {
        true => Verify::AcceptModified,
        false => Verify::Strict,
    };
    let parts: Vec<Part> = dirs
        .iter()
        .map(|d| Part::load(d, verify))
        .collect::<Result<_, _>>()?;
    let notes = parts.iter().flat_map(Part::notes).collect();
    for p in &parts {
        p.check_summary()?;
    }
    let (shard_count, indices) = check_parts(&parts, options.partial)?;
    let first = &parts[0];
    let mut config = first.result.config()?;
    config.threads = 0;
    // The parts' solver logs stay in the parts.
    config.log_files.clear();
    let dirs: Vec<ResultDir> = parts.iter().map(|p| p.result.clone()).collect();
    let mut result = ResultDir::merged(&dirs, &config)?;
    let per_puzzle = first.per_puzzle();
    let mut written = Vec::new();
    let mut rows = 0;
    if per_puzzle {
        let (n, discrepancies, paired) = merge_rows(&parts, &config, &result, into)?;
        rows = n;
        result.discrepancies = discrepancies;
        for (c, p) in result.corpora.iter_mut().zip(paired) {
            c.paired = p;
            c.speed_cache = std::sync::OnceLock::new();
        }
        written.push(into.join(schema::PUZZLES_CSV));
    }
    if config.permute.is_some() && config.images > 1 {
        let discrepancies = merge_images(&parts, &config, &mut result)?;
        result.discrepancies.extend(discrepancies);
    }
    // In the order and with the deduplication of the run's.
    harness::sort_discrepancies(&mut result.discrepancies);
    // Parts in shard order in `merged_from`.
    let mut ordered: Vec<&Part> = parts.iter().collect();
    ordered.sort_by_key(|p| p.indices[0]);
    let meta = RunMeta {
        command_line: options.command_line.clone(),
        out_dir: options.out_dir.clone(),
        merged: Some(Merged {
            shard_count,
            indices,
            parts: ordered.iter().map(|p| p.facts()).collect(),
        }),
        // The binary that merged, as its git revision.
        binary_sha256: report::run_json::binary_sha256(),
        // Measured on each part's machine: in the parts' own run.json.
        round_trip_floor: None,
        logs: Vec::new(),
        ..RunMeta::of_dir(&first.result, &config)
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
        notes,
    })
}

/// One part's `puzzles.csv` being read.
struct Rows {
    reader: PuzzleReader,
    /// The current row's corpus index and record.
    current: Option<(usize, Record)>,
    /// Rows per corpus x solver.
    counts: Vec<Vec<u64>>,
    /// The statistics of the rows read, per corpus x solver: at the end,
    /// what the part's `histograms.json` must say.
    stats: Vec<Vec<SolverStats>>,
}

impl Rows {
    fn open(part: &Part, solvers: usize, corpora: usize) -> Result<Rows, MergeError> {
        Ok(Rows {
            reader: PuzzleReader::open(&part.dir.join(schema::PUZZLES_CSV))?,
            current: None,
            counts: vec![vec![0; solvers]; corpora],
            stats: (0..corpora)
                .map(|_| {
                    (0..solvers)
                        .map(|_| SolverStats::new(String::new()))
                        .collect()
                })
                .collect(),
        })
    }

    /// Reads the next row, counts it and adds it to the statistics of its
    /// corpus x solver; returns its corpus index and line, `None` at the
    /// end.
    fn advance(
        &mut self,
        corpora: &HashMap<&str, usize>,
        solvers: &HashMap<&str, usize>,
    ) -> Result<Option<(usize, u64)>, MergeError> {
        let Some(row) = self.reader.next()? else {
            self.current = None;
            return Ok(None);
        };
        let (corpus, solver) = match (corpora.get(row.corpus), solvers.get(row.solver)) {
            (Some(&c), Some(&s)) => (c, s),
            (None, _) => {
                let message = format!("corpus `{}` is not in run.json", row.corpus);
                return Err(self.reader.error(message).into());
            }
            (_, None) => {
                let message = format!("solver `{}` is not in run.json", row.solver);
                return Err(self.reader.error(message).into());
            }
        };
        let record = row.record(solver as u16);
        self.counts[corpus][solver] += 1;
        self.stats[corpus][solver].add(&record);
        self.current = Some((corpus, record));
        Ok(Some((corpus, record.line)))
    }
}

/// The first figure in which `rows` (the statistics of a part's
/// `puzzles.csv` rows) and `recorded` (its `histograms.json`'s) differ, as
/// `total_nodes: 1200 in the rows, 1100 recorded`; `None` when they agree
/// (the sum of squares, a float added in another order, is not compared).
fn differences(rows: &SolverStats, recorded: &SolverStats) -> Option<String> {
    let show = |v: Option<u128>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
    let wide = |v: Option<u64>| v.map(u128::from);
    let figures = [
        (
            "puzzles",
            wide(Some(rows.puzzles)),
            wide(Some(recorded.puzzles)),
        ),
        (
            "solved",
            wide(Some(rows.solved)),
            wide(Some(recorded.solved)),
        ),
        (
            "unsolvable",
            wide(Some(rows.unsolvable)),
            wide(Some(recorded.unsolvable)),
        ),
        (
            "multiple",
            wide(Some(rows.multiple)),
            wide(Some(recorded.multiple)),
        ),
        (
            "budget",
            wide(Some(rows.budget)),
            wide(Some(recorded.budget)),
        ),
        (
            "invalid",
            wide(Some(rows.invalid)),
            wide(Some(recorded.invalid)),
        ),
        (
            "total_nodes",
            wide(rows.total_nodes),
            wide(recorded.total_nodes),
        ),
        (
            "total_guesses",
            wide(Some(rows.total_guesses)),
            wide(Some(recorded.total_guesses)),
        ),
        (
            "total_updates",
            wide(rows.total_updates),
            wide(recorded.total_updates),
        ),
        (
            "total_mems",
            wide(rows.total_mems),
            wide(recorded.total_mems),
        ),
        (
            "no_guess",
            wide(Some(rows.no_guess)),
            wide(Some(recorded.no_guess)),
        ),
        ("summed ns", Some(rows.sum_ns), Some(recorded.sum_ns)),
        (
            "summed over-budget ns",
            Some(rows.budget_ns),
            Some(recorded.budget_ns),
        ),
    ];
    if let Some((what, a, b)) = figures.iter().find(|(_, a, b)| a != b) {
        return Some(format!(
            "{what}: {} in the rows, {} recorded",
            show(*a),
            show(*b)
        ));
    }
    let buckets = |s: &SolverStats| -> Vec<(u64, u64)> {
        s.histogram
            .iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect()
    };
    (buckets(rows) != buckets(recorded)).then(|| "the latency histogram".to_string())
}

fn csv_error(path: &Path, e: csv::Error) -> MergeError {
    MergeError::Part {
        dir: path.to_path_buf(),
        what: format!("line {}: {e}", e.position().map_or(0, |p| p.line())),
    }
}

/// Streams the parts' `puzzles.csv` into `into/puzzles.csv`, in corpus
/// (run order) and line order, cross-checking each puzzle's rows; checks
/// each part's row counts against its statistics. Returns the rows written,
/// the discrepancies and each corpus's paired times (the same puzzles and
/// blocks of lines as the unsharded run: its speed ratios).
fn merge_rows(
    parts: &[Part],
    config: &Config,
    result: &RunResult,
    into: &Path,
) -> Result<(u64, Vec<Discrepancy>, Vec<PairedTimes>), MergeError> {
    let corpus_index: HashMap<&str, usize> = result
        .corpora
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let solver_index: HashMap<&str, usize> = config
        .solvers
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
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
    let mut out = BufWriter::with_capacity(1 << 16, file);
    puzzles::write_header(&mut out).map_err(io)?;
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some((c, line)) = r.advance(&corpus_index, &solver_index)? {
            heap.push(Reverse((c, line, i)));
        }
    }
    let mut rows = 0u64;
    // The line of the row being written.
    let mut line_buf = Vec::with_capacity(256);
    let mut discrepancies = Vec::new();
    let mut paired: Vec<PairedTimes> = result
        .corpora
        .iter()
        .map(|_| PairedTimes::new(config.solvers.len(), config.schedule.block))
        .collect();
    let mut pair = |puzzle: Option<(usize, u64, usize)>, records: &[Record]| {
        if let Some((c, line, _)) = puzzle {
            paired[c].add_puzzle(line, records);
        }
    };
    // The puzzle whose rows are being gathered: key, part, records.
    let mut current: Option<(usize, u64, usize)> = None;
    let mut records: Vec<Record> = Vec::with_capacity(config.solvers.len());
    let name = |s: u16| config.solvers[usize::from(s)].as_str();
    // The cross-check of the puzzle whose rows were gathered, if any.
    let check = |puzzle: Option<(usize, u64, usize)>, records: &[Record]| match puzzle {
        Some((c, line, _)) => {
            harness::cross_check(&result.corpora[c].name, line, config.limit, records, name)
        }
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
                pair(current, &records);
                records.clear();
                current = Some((c, line, i));
            }
        }
        let r = &mut readers[i];
        let (_, record) = r.current.expect("a row read");
        records.push(record);
        // As the run writes it (a part from before the later columns gets
        // them, empty).
        let solver = config.solvers[usize::from(record.solver)].as_str();
        line_buf.clear();
        PuzzleRecord::of_record(&result.corpora[c].name, solver, &record).write_csv(&mut line_buf);
        out.write_all(&line_buf).map_err(io)?;
        rows += 1;
        if let Some((c, line)) = r.advance(&corpus_index, &solver_index)? {
            heap.push(Reverse((c, line, i)));
        }
    }
    discrepancies.extend(check(current, &records));
    pair(current, &records);
    for (part, r) in parts.iter().zip(&readers) {
        for (c, corpus) in result.corpora.iter().enumerate() {
            for (s, solver) in config.solvers.iter().enumerate() {
                let stats = part.stats(&corpus.name, solver)?;
                // Skipped puzzles have rows, and are not among `puzzles`.
                if r.counts[c][s] != stats.puzzles + stats.skipped {
                    return Err(MergeError::Part {
                        dir: part.dir.clone(),
                        what: format!(
                            "{} holds {} rows of {} x {solver}, {} says {} puzzles: a file was cut short or changed",
                            schema::PUZZLES_CSV,
                            r.counts[c][s],
                            corpus.name,
                            schema::HISTOGRAMS_JSON,
                            stats.puzzles + stats.skipped
                        ),
                    });
                }
                if let Some(what) = differences(&r.stats[c][s], stats) {
                    return Err(MergeError::Part {
                        dir: part.dir.clone(),
                        what: format!(
                            "the rows of {} x {solver} in {} add up to other figures than {} \
                             records ({what}): a file was changed",
                            corpus.name,
                            schema::PUZZLES_CSV,
                            schema::HISTOGRAMS_JSON,
                        ),
                    });
                }
            }
        }
    }
    let mut file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.flush().map_err(io)?;
    file.commit().map_err(io)?;
    Ok((rows, discrepancies, paired))
}

/// The columns of `images.csv` a merge reads, by position.
struct ImageColumns {
    corpus: usize,
    line: usize,
    solver: usize,
    image: usize,
    seed: usize,
    status: usize,
    solutions: usize,
    nodes: usize,
    ns: usize,
}

impl ImageColumns {
    /// The positions of the columns in a file whose header is `header`
    /// (none: a column is missing).
    fn of(header: &csv::StringRecord) -> Option<ImageColumns> {
        let at = |name: &str| header.iter().position(|h| h == name);
        Some(ImageColumns {
            corpus: at("corpus")?,
            line: at("line")?,
            solver: at("solver")?,
            image: at("image")?,
            seed: at("seed")?,
            status: at("status")?,
            solutions: at("solutions")?,
            nodes: at("nodes")?,
            ns: at("ns")?,
        })
    }
}

/// Reads the parts' `images.csv` into the corpora of `result` (each
/// corpus's rows sorted by line, solver and image, as a run keeps them)
/// and checks every puzzle's image rows as the run does
/// ([`images::check_line`]); returns what the checks found. A line held by
/// two parts is an overlap; a row naming a corpus or solver the run does
/// not have, or an image outside 0 to K-1, is refused.
fn merge_images(
    parts: &[Part],
    config: &Config,
    result: &mut RunResult,
) -> Result<Vec<Discrepancy>, MergeError> {
    // Per corpus: its rows, and the part each line came from.
    let mut owners: Vec<HashMap<u64, usize>> = vec![HashMap::new(); result.corpora.len()];
    for c in &mut result.corpora {
        c.images.clear();
    }
    for (i, part) in parts.iter().enumerate() {
        for (c, row) in read_images(part, config, result)? {
            let owner = *owners[c].entry(row.line).or_insert(i);
            if owner != i {
                return Err(MergeError::Overlap {
                    corpus: result.corpora[c].name.clone(),
                    line: row.line,
                    first: parts[owner].dir.clone(),
                    second: part.dir.clone(),
                });
            }
            result.corpora[c].images.push(row);
        }
    }
    let name = |s: u16| config.solvers[usize::from(s)].as_str();
    let mut found = Vec::new();
    for c in &mut result.corpora {
        c.images
            .sort_unstable_by_key(|r| (r.line, r.solver, r.image));
        for puzzle in c.images.chunk_by(|a, b| a.line == b.line) {
            let line = puzzle[0].line;
            found.extend(images::check_line(
                &c.name,
                line,
                config.limit,
                puzzle,
                name,
            ));
        }
    }
    Ok(found)
}

/// The rows of one part's `images.csv`, each with its corpus's index in
/// `result`.
fn read_images(
    part: &Part,
    config: &Config,
    result: &RunResult,
) -> Result<Vec<(usize, ImageRow)>, MergeError> {
    let path = part.dir.join(schema::IMAGES_CSV);
    let mut reader = csv::Reader::from_path(&path).map_err(|e| csv_error(&path, e))?;
    let bad = |what: String| MergeError::Part {
        dir: part.dir.clone(),
        what: format!("{}: {what}", schema::IMAGES_CSV),
    };
    let header = reader.headers().map_err(|e| csv_error(&path, e))?.clone();
    let columns = ImageColumns::of(&header)
        .ok_or_else(|| bad(format!("not the header of the file: {header:?}")))?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(&path, e))?;
        let at = record.position().map_or(0, |p| p.line());
        let row = image_row(&record, &columns, config, result)
            .ok_or_else(|| bad(format!("line {at}: not a row a run of this part writes")))?;
        rows.push(row);
    }
    Ok(rows)
}

/// One row of `images.csv` with its corpus's index; none when a field is
/// not what a run of `config` writes.
fn image_row(
    record: &csv::StringRecord,
    columns: &ImageColumns,
    config: &Config,
    result: &RunResult,
) -> Option<(usize, ImageRow)> {
    let field = |i: usize| record.get(i);
    let corpus = result
        .corpora
        .iter()
        .position(|c| Some(c.name.as_str()) == field(columns.corpus))?;
    let solver = config
        .solvers
        .iter()
        .position(|s| Some(s.as_str()) == field(columns.solver))?;
    let image: u32 = field(columns.image)?.parse().ok()?;
    if image >= config.images {
        return None;
    }
    let nodes = match field(columns.nodes)? {
        "" => None,
        n => Some(n.parse().ok()?),
    };
    Some((
        corpus,
        ImageRow {
            line: field(columns.line)?.parse().ok()?,
            solver: u16::try_from(solver).ok()?,
            image,
            seed: field(columns.seed)?.parse().ok()?,
            status: Status::from_name(field(columns.status)?)?,
            solutions: field(columns.solutions)?.parse().ok()?,
            nodes,
            ns: field(columns.ns)?.parse().ok()?,
        },
    ))
}
