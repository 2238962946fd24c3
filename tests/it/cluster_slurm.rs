//! `examples/cluster/slurm.sbatch` run on a real Slurm (docs/cluster.md,
//! "Slurm"): a private single-node cluster started by the test
//! (`tests/it/common/slurm.rs`) runs the recipe's job array over two corpora
//! in 4 shards from a work folder laid out as the recipe expects
//! (`datasets/`), the merge job the first task submits combines them, and
//! the merged result equals an unsharded run in every deterministic field
//! (every puzzle row's solutions, nodes, guesses, updates and status; every
//! summary count and total). Then the documented recovery: one task is
//! cancelled, the merge job fails naming the missing shard, the task is
//! re-run alone into the same folder (`OUT=... SHARDS=4 sbatch --array=3`),
//! and its own merge gives the same result as the unsharded run.
//!
//! Where Slurm cannot start (not installed, ...), each test says so on
//! standard error and returns (under CI, where `.ci/run` installs
//! `slurm-wlm`, it fails instead). The tests take one cluster at a time:
//! the node's CPUs are the shards' concurrency.

use crate::common;
use crate::common::slurm;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{deterministic_puzzle_rows, deterministic_summary_rows, read_json, repo_path, skip};
use slurm::{ended, tail, Cluster};

/// One cluster at a time (each test starts its own).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

const SHARDS: u32 = 4;
const SOLVERS: &str = "dlx,singles";
/// The corpora, copied into the work folder's `datasets/`.
const CORPORA: [&str; 2] = ["gen_9x9_1000.txt", "gen_6x6_100.txt"];
/// How long an array of shards and its merge may take: generous (the
/// machine may be loaded), bounded.
const LIMIT: Duration = Duration::from_secs(300);

/// Starts a cluster, or says why the test `name` is skipped.
fn cluster(name: &str) -> Option<Cluster> {
    match Cluster::start() {
        Ok(c) => Some(c),
        Err(reason) => {
            skip(name, &reason);
            None
        }
    }
}

/// A work folder as the recipe expects it: `datasets/` holding the corpora.
/// Its path has a space (the recipe quotes its paths).
fn work_folder() -> tempfile::TempDir {
    let work = tempfile::Builder::new()
        .prefix("dlxbench slurm work-")
        .tempdir()
        .unwrap();
    std::fs::create_dir(work.path().join("datasets")).unwrap();
    for corpus in CORPORA {
        std::fs::copy(
            repo_path(&format!("datasets/generated/{corpus}")),
            work.path().join("datasets").join(corpus),
        )
        .unwrap();
    }
    work
}

/// The recipe's arguments: the corpora (relative to the work folder, as
/// the job runs there), then bench options.
fn recipe_args() -> Vec<String> {
    let mut args: Vec<String> = CORPORA.iter().map(|c| format!("datasets/{c}")).collect();
    args.extend(["--solvers".into(), SOLVERS.into()]);
    args
}

/// `sbatch --parsable --cpus-per-task=1 OPTIONS slurm.sbatch ARGS` from
/// `work`, with `DLXBENCH` the binary the tests built and `env`; the job id.
/// One CPU per task, so that two shards run at once on a 2-CPU machine.
fn submit(cluster: &Cluster, work: &Path, options: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = cluster.command("sbatch");
    cmd.current_dir(work)
        .args(["--parsable", "--cpus-per-task=1"])
        .args(options)
        .arg(repo_path("examples/cluster/slurm.sbatch"))
        .args(recipe_args())
        .env("DLXBENCH", assert_cmd::cargo::cargo_bin("dlxbench"))
        .envs(env.iter().copied());
    cluster.submit(cmd)
}

/// The jobs' own logs: the tasks' (`dlxbench-JOB_TASK.log` in the work
/// folder) and the merges' (`results/slurm/JOB/merge-ID.log`).
fn job_logs(work: &Path) -> String {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(work)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    if let Ok(runs) = std::fs::read_dir(work.join("results/slurm")) {
        for run in runs {
            for entry in std::fs::read_dir(run.unwrap().path()).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "log") {
                    logs.push(path);
                }
            }
        }
    }
    logs.sort();
    logs.iter()
        .map(|p| format!("== {}:\n{}\n", p.display(), tail(p, 20)))
        .collect()
}

/// Waits until `merges` merge jobs exist and every job has ended.
fn wait_for_merges(cluster: &Cluster, work: &Path, merges: usize) -> Vec<(String, String, String)> {
    cluster.wait_until(
        &format!("the array's tasks and merge job {merges} ending"),
        LIMIT,
        |jobs| {
            jobs.iter()
                .filter(|(_, n, _)| n == "dlxbench-merge")
                .count()
                >= merges
                && jobs.iter().all(|(_, _, s)| ended(s))
        },
        || job_logs(work),
    )
}

/// The state of job `id` in `jobs`.
fn state_of<'a>(jobs: &'a [(String, String, String)], id: &str) -> &'a str {
    jobs.iter()
        .find(|(i, _, _)| i == id)
        .map(|(_, _, s)| s.as_str())
        .unwrap_or_else(|| panic!("no job {id} in {jobs:?}"))
}

/// The merge jobs in `jobs`, in submission order: `(id, state)`.
fn merges(jobs: &[(String, String, String)]) -> Vec<(u64, String)> {
    let mut found: Vec<(u64, String)> = jobs
        .iter()
        .filter(|(_, n, _)| n == "dlxbench-merge")
        .map(|(i, _, s)| (i.parse().unwrap(), s.clone()))
        .collect();
    found.sort();
    found
}

/// The unsharded run of the same corpora and solvers, into `work/whole`.
fn unsharded(work: &Path) -> PathBuf {
    let out = work.join("whole");
    let status = Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .current_dir(work)
        .args(["bench", "-q", "--no-plots", "--out"])
        .arg(&out)
        .args(recipe_args())
        .status()
        .unwrap();
    assert!(status.success(), "the unsharded run: {status}");
    out
}

/// The merge equals the unsharded run in every deterministic field, and
/// says it was merged from every shard.
fn assert_same_as_unsharded(merged: &Path, whole: &Path) {
    let rows = deterministic_puzzle_rows(merged);
    assert_eq!(rows.len(), 2 * (1000 + 100), "2 solvers x the puzzles");
    assert!(
        rows == deterministic_puzzle_rows(whole),
        "puzzles.csv of {} differs from the unsharded run's",
        merged.display()
    );
    assert_eq!(
        deterministic_summary_rows(merged),
        deterministic_summary_rows(whole)
    );
    let run = read_json(&merged.join("run.json"));
    assert_eq!(run["state"], "complete");
    assert_eq!(run["shard"]["count"], SHARDS);
    assert_eq!(run["shard"]["indices"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(
        run["merged_from"].as_array().unwrap().len(),
        SHARDS as usize
    );
}

#[test]
fn the_slurm_recipe_runs_as_a_job_array_then_merges() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let name = "the_slurm_recipe_runs_as_a_job_array_then_merges";
    let Some(cluster) = cluster(name) else {
        return;
    };
    let work = work_folder();
    let work = work.path();
    let started = Instant::now();
    let job = submit(&cluster, work, &[&format!("--array=1-{SHARDS}")], &[]);
    let jobs = wait_for_merges(&cluster, work, 1);
    let took = started.elapsed();
    let context = || format!("{jobs:?}\n{}", job_logs(work));
    for k in 1..=SHARDS {
        let task = format!("{job}_{k}");
        assert_eq!(state_of(&jobs, &task), "COMPLETED", "{}", context());
        assert!(work.join(format!("dlxbench-{task}.log")).is_file());
        let run = read_json(&work.join(format!("results/slurm/{job}/shard-{k}/run.json")));
        assert_eq!(run["shard"]["index"], k);
        assert_eq!(run["shard"]["count"], SHARDS);
        assert_eq!(run["state"], "complete");
    }
    let merge_jobs = merges(&jobs);
    assert_eq!(merge_jobs.len(), 1, "{}", context());
    assert_eq!(merge_jobs[0].1, "COMPLETED", "{}", context());
    let run_dir = work.join(format!("results/slurm/{job}"));
    let merge_log =
        std::fs::read_to_string(run_dir.join(format!("merge-{}.log", merge_jobs[0].0))).unwrap();
    assert!(
        merge_log.contains(&format!("shards 1-{SHARDS} of {SHARDS}")),
        "{merge_log}"
    );
    assert_same_as_unsharded(&run_dir.join("merged"), &unsharded(work));
    // For docs/cluster.md: the array's wall time on this machine.
    eprintln!(
        "slurm: {SHARDS} array tasks ({}) and the merge job ended in {:.1} s",
        CORPORA.join(", "),
        took.as_secs_f64()
    );
}

#[test]
fn a_cancelled_task_is_rerun_alone_then_merged() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let name = "a_cancelled_task_is_rerun_alone_then_merged";
    let Some(cluster) = cluster(name) else {
        return;
    };
    let work = work_folder();
    let work = work.path();
    // Held, so that task 3 is cancelled before anything runs.
    let job = submit(
        &cluster,
        work,
        &["--hold", &format!("--array=1-{SHARDS}")],
        &[],
    );
    cluster.ok("scancel", &[&format!("{job}_3")]);
    cluster.ok("scontrol", &["release", &job]);
    let jobs = wait_for_merges(&cluster, work, 1);
    let context = || format!("{jobs:?}\n{}", job_logs(work));
    // (A task cancelled while pending may leave no record of its own.)
    let cancelled = jobs.iter().find(|(i, _, _)| *i == format!("{job}_3"));
    assert!(
        cancelled.is_none_or(|(_, _, s)| s == "CANCELLED"),
        "{}",
        context()
    );
    for k in [1, 2, 4] {
        assert_eq!(
            state_of(&jobs, &format!("{job}_{k}")),
            "COMPLETED",
            "{}",
            context()
        );
    }
    // afterany: the merge ran, and failed naming the missing shard.
    let merge_jobs = merges(&jobs);
    assert_eq!(merge_jobs.len(), 1, "{}", context());
    assert_eq!(merge_jobs[0].1, "FAILED", "{}", context());
    let run_dir = work.join(format!("results/slurm/{job}"));
    let merge_log =
        std::fs::read_to_string(run_dir.join(format!("merge-{}.log", merge_jobs[0].0))).unwrap();
    assert!(
        merge_log.contains("shard 3 of 4 missing"),
        "the merge job's log: {merge_log}"
    );
    assert!(!run_dir.join("merged").exists());

    // The recovery, as docs/cluster.md gives it: task 3 alone, into the
    // same folder; its own merge job then merges all four.
    let out = format!("results/slurm/{job}");
    let rerun = submit(
        &cluster,
        work,
        &["--array=3"],
        &[("OUT", &out), ("SHARDS", &SHARDS.to_string())],
    );
    let jobs = wait_for_merges(&cluster, work, 2);
    let context = || format!("{jobs:?}\n{}", job_logs(work));
    assert_eq!(
        state_of(&jobs, &format!("{rerun}_3")),
        "COMPLETED",
        "{}",
        context()
    );
    let merge_jobs = merges(&jobs);
    assert_eq!(merge_jobs.len(), 2, "{}", context());
    assert_eq!(merge_jobs[1].1, "COMPLETED", "{}", context());
    let shard = read_json(&run_dir.join("shard-3/run.json"));
    assert_eq!(shard["shard"]["index"], 3);
    assert_eq!(shard["shard"]["count"], SHARDS);
    assert_same_as_unsharded(&run_dir.join("merged"), &unsharded(work));
}
