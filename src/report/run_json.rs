//! `run.json`: what was run and where: version and git revision, command
//! line, compiler, machine, settings, corpora (path, size, SHA-256) and
//! start and end times (UTC, RFC 3339).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{schema, Report, RunMeta};
use crate::harness::{Config, CorpusResult, RunResult};
use crate::results::{
    checksum, to_json, CorpusInfo, CorpusState, FailureCounts, PartFacts, RunFacts, RunInfo,
    RunState, ShardInfo, SolverInfo, SCHEMA_VERSION,
};

/// Writes `run.json`.
#[derive(Debug, Clone, Copy)]
pub struct RunJson;

/// What a merged result is made of, for its `run.json`.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// The shard count of the parts (1 when they were not sharded).
    pub shard_count: u32,
    /// The shards the result covers (1-based, ascending): all of
    /// `1..=shard_count` unless the merge was partial.
    pub indices: Vec<u32>,
    /// Each part's own facts (machine, threads, times, throughput), in
    /// the order of `indices`.
    pub parts: Vec<PartFacts>,
}

/// A run a bench session is writing, for its `run.json`: every corpus
/// asked for, and whether this is the run's last write. Without one
/// ([`RunMeta::progress`] `None`, as for a merge) `run.json` describes a
/// finished run.
#[derive(Debug, Clone, Default)]
pub struct InProgress {
    /// Every corpus asked for, in run order, as `not started` (name, path,
    /// size, SHA-256, lines).
    pub corpora: Vec<CorpusInfo>,
    /// The writer's process id.
    pub pid: u32,
    /// The run's last write: `state` is `complete` or `interrupted`
    /// (otherwise `running`).
    pub last: bool,
}

/// The `shard` entry of `run.json`: `None` for a whole run; one shard's
/// index and count; for a merge of shards, the shards it covers (`index`
/// `None` when more than one).
fn shard_entry(config: &Config, meta: &RunMeta) -> Option<ShardInfo> {
    let (count, indices) = match (&meta.merged, config.shard) {
        (Some(m), _) => (m.shard_count, m.indices.clone()),
        (None, Some(s)) => (s.count(), vec![s.index()]),
        (None, None) => return None,
    };
    Some(ShardInfo {
        index: match indices.as_slice() {
            [one] => Some(*one),
            _ => None,
        },
        count,
        indices,
        rule: "line n (from 1) is in shard ((n - 1) mod count) + 1".to_string(),
    })
}

/// What `run.json` says of `run`, run with `config`.
pub fn run_info(run: &RunResult, config: &Config, meta: &RunMeta) -> RunInfo {
    let names: Vec<&str> = run.corpora.iter().map(|c| c.name.as_str()).collect();
    let stems = schema::file_stems(&names);
    let corpora = run
        .corpora
        .iter()
        .zip(stems)
        .enumerate()
        .map(|(i, (c, stem))| corpus_info(c, stem, meta.sha256.get(i).cloned()))
        .collect::<Vec<_>>();
    // The corpora asked for that have not run yet.
    let mut corpora = corpora;
    if let Some(p) = &meta.progress {
        corpora.extend(p.corpora.iter().skip(corpora.len()).map(|c| CorpusInfo {
            state: Some(CorpusState::NotStarted),
            ..c.clone()
        }));
    }
    let state = match &meta.progress {
        Some(p) if !p.last => RunState::Running,
        _ if run.interrupted => RunState::Interrupted,
        _ => RunState::Complete,
    };
    let solvers = solver_infos(config, meta);
    let mut info = RunInfo {
        schema_version: Some(SCHEMA_VERSION),
        dlxbench_version: Some(env!("CARGO_PKG_VERSION").to_string()),
        rustc_version: RUSTC_VERSION.to_string(),
        os: std::env::consts::OS.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        facts: RunFacts {
            git_revision: git_revision(),
            binary_sha256: meta.binary_sha256.clone(),
            command_line: meta.command_line.clone(),
            cpu_model: cpu_model(),
            cores: std::thread::available_parallelism().map(|n| n.get()).ok(),
            threads: Some(run.threads),
            started: Some(rfc3339(run.started)),
            finished: Some(rfc3339(run.finished)),
            duration_s: Some(
                run.finished
                    .duration_since(run.started)
                    .map(|d| d.as_secs_f64())
                    .unwrap_or(0.0),
            ),
            shard: shard_entry(config, meta),
            merged_from: meta.merged.as_ref().map(|m| m.parts.clone()),
        },
        kind: config.kind().to_string(),
        mode: Some(config.mode.as_str().to_string()),
        limit: (config.limit != u64::MAX).then_some(config.limit),
        passes: Some(config.passes),
        warmup: Some(config.warmup),
        shuffle_seed: config.shuffle,
        permute_seed: config.permute,
        images: (config.permute.is_some() && config.images > 1).then_some(config.images),
        schedule_block: Some(config.schedule.block),
        solvers,
        reference: Some(meta.reference.clone()),
        states_created: run.states_created,
        clock_overhead_ns: run.clock_overhead_ns,
        problems: run.discrepancies.len() as u64,
        interrupted: run.interrupted,
        state: Some(state),
        pid: meta.progress.as_ref().map(|p| p.pid),
        corpora,
        per_puzzle: meta.per_puzzle,
        out_dir: meta.out_dir.display().to_string(),
        files: Vec::new(),
        file_sha256: Default::default(),
        round_trip_floor: meta.round_trip_floor,
    };
    info.files = info.result_files();
    info
}

/// What `run.json` says of one corpus's result `c`, its files named
/// `stem`, its content's SHA-256 `sha256`.
fn corpus_info(c: &CorpusResult, stem: String, sha256: Option<String>) -> CorpusInfo {
    CorpusInfo {
        name: c.name.clone(),
        path: c.path.as_ref().map(|p| p.display().to_string()),
        bytes: c.bytes,
        sha256,
        lines: c.lines,
        lines_done: c.lines_done,
        complete: c.complete(),
        workers: c.workers,
        puzzles: c.puzzles,
        malformed: c.malformed,
        allow_zero: c.allow_zero,
        parse_ns: c.parse_ns,
        scan_ns: c.scan_ns,
        reader_mb_per_s: c.reader_mb_per_s(),
        wall_s: c.wall.as_secs_f64(),
        changed_on_disk: c.changed_on_disk,
        file_stem: Some(stem),
        state: Some(match c.complete() {
            true => CorpusState::Done,
            false => CorpusState::Partial,
        }),
        failures: c
            .solvers
            .iter()
            .filter(|s| s.failed() + s.skipped + s.warm_up_failed + s.image_failed > 0)
            .map(|s| FailureCounts {
                solver: s.name.clone(),
                crashed: s.crashed,
                timeout: s.timeout,
                protocol_error: s.protocol_error,
                skipped: s.skipped,
                warm_up_failed: s.warm_up_failed,
                image_failed: s.image_failed,
                notes: c
                    .failures
                    .iter()
                    .filter(|n| n.solver == s.name)
                    .map(ToString::to_string)
                    .collect(),
            })
            .collect(),
    }
}

/// What `run.json` says of each solver of `config`.
fn solver_infos(config: &Config, meta: &RunMeta) -> Vec<SolverInfo> {
    config
        .solvers()
        .iter()
        .zip(config.budgets())
        .zip(config.descriptions())
        .enumerate()
        .map(|(i, ((s, b), description))| SolverInfo {
            name: s.clone(),
            description: description.clone(),
            budget_nodes: (b.max_nodes != u64::MAX).then_some(b.max_nodes),
            budget_time_s: b.max_time.map(|t| t.as_secs_f64()),
            log_file: config.log_files().get(i).cloned().flatten(),
            log_dropped_bytes: meta
                .logs
                .get(i)
                .and_then(Option::as_ref)
                .map(|l| l.dropped())
                .filter(|&n| n > 0),
        })
        .collect()
}

/// [`run_info`] for the `run.json` of directory `dir`, which holds the
/// run's other files as written: with the SHA-256 of each of its data
/// files there (`file_sha256`, [`checksum::checksums`]). Written last, after
/// the files it vouches for.
pub fn run_info_in(
    run: &RunResult,
    config: &Config,
    meta: &RunMeta,
    dir: &Path,
) -> std::io::Result<RunInfo> {
    let mut info = run_info(run, config, meta);
    info.file_sha256 = checksum::checksums(dir, &info.files)?;
    Ok(info)
}

/// The rustc that built this binary.
pub const RUSTC_VERSION: &str = env!("DLXBENCH_RUSTC_VERSION");

/// The git revision of the source tree this binary was built from (`git
/// describe --always --dirty --abbrev=40`: the commit, with `-dirty` when
/// the tree differed from it), recorded by the build script when the
/// binary was built; `None` when it was not built from a git checkout.
/// Nothing is run to know it.
pub fn git_revision() -> Option<String> {
    Some(GIT_REVISION)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
}

/// [`git_revision`] as the build script recorded it (empty: none).
const GIT_REVISION: &str = env!("DLXBENCH_GIT_REVISION");

/// SHA-256 (lower-case hex) of the running executable
/// ([`std::env::current_exe`]), read once and kept; `None` when it cannot
/// be read. A run takes it before anything is timed
/// ([`RunMeta::binary_sha256`]).
pub fn binary_sha256() -> Option<String> {
    static HASH: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    HASH.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        crate::datasets::sha256_file(&exe).ok()
    })
    .clone()
}

/// The CPU model from `/proc/cpuinfo`, if there is one.
pub fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// `t` as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
pub fn rfc3339(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = civil(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `t` as `YYYYMMDDTHHMMSSZ` (UTC), for directory names.
pub fn compact_timestamp(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = civil(t);
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

/// UTC calendar fields of `t` (days-to-civil after Howard Hinnant's
/// algorithm).
fn civil(t: SystemTime) -> (i64, u32, u32, u32, u32, u32) {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400) as u32;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d, rem / 3600, rem / 60 % 60, rem % 60)
}

// Repeats the signature of `Report::write`, as every format does (see the trait).
impl Report for RunJson {
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let text = to_json(&run_info_in(run, config, meta, dir)?).map_err(std::io::Error::other)?;
        super::write_one(dir, schema::RUN_JSON, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(rfc3339(t), "2023-11-14T22:13:20Z");
        assert_eq!(compact_timestamp(t), "20231114T221320Z");
        let leap = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339(leap), "2000-02-29T00:00:00Z");
    }
}
