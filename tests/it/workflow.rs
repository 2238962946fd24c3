//! The example workflows (`.github/workflows/`) name only flags that
//! exist: every `dlxbench SUBCOMMAND ...` command in them (joined over
//! `\` continuations) uses options its `--help` lists. The history
//! recipe's `run:` steps also run, twice, as the runner would run them.

use crate::common;

use common::{assert_options_exist, dlxbench_commands, repo_path};

#[test]
fn the_example_workflow_uses_existing_options() {
    let text = std::fs::read_to_string(repo_path(".github/workflows/bench.yml")).unwrap();
    let found = dlxbench_commands(&text);
    let subs: Vec<&str> = found.iter().map(|(s, _)| s.as_str()).collect();
    for expected in ["ab", "bench", "compare", "datasets"] {
        assert!(
            subs.contains(&expected),
            "no `dlxbench {expected}` in {subs:?}"
        );
    }
    assert_options_exist(&found);
}

/// The `run:` steps of job `job` of the workflow `path`, by name, in order.
fn run_steps(path: &str, job: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo_path(path)).unwrap();
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).unwrap();
    let steps = docs[0]["jobs"][job]["steps"]
        .as_vec()
        .unwrap_or_else(|| panic!("{path}: no steps in job {job}"));
    steps
        .iter()
        .filter_map(|s| {
            let script = s["run"].as_str()?;
            let name = s["name"].as_str().unwrap_or("").to_string();
            Some((name, script.to_string()))
        })
        .collect()
}

/// Runs the history workflow's `run:` steps in `work` (a checkout with
/// the tests' binary as `target/release/dlxbench`) as GitHub's runner
/// does (`bash -eo pipefail`), the build skipped; the job summary is
/// returned.
fn history_job(work: &std::path::Path, temp: &std::path::Path) -> String {
    let summary = temp.join("summary.md");
    for (name, script) in run_steps(".github/workflows/history.yml", "history") {
        if script.trim_start().starts_with("cargo build") {
            continue;
        }
        let out = std::process::Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(work)
            .env("RUNNER_TEMP", temp)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "step `{name}`: {}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::read_to_string(&summary).unwrap()
}

/// The history recipe appends each run to the database the cache carries
/// (here: the `history/` folder kept between two runs of the job) and
/// writes the job summary, the dashboard and the export.
#[test]
fn the_history_workflow_appends_each_run_and_draws_the_dashboard() {
    let work = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(work.path().join("target/release")).unwrap();
    std::os::unix::fs::symlink(
        common::binary(),
        work.path().join("target/release/dlxbench"),
    )
    .unwrap();
    std::os::unix::fs::symlink(repo_path("datasets"), work.path().join("datasets")).unwrap();
    let found = dlxbench_commands(
        &run_steps(".github/workflows/history.yml", "history")
            .into_iter()
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    assert_options_exist(&found);
    for round in 1..=2 {
        let temp = tempfile::tempdir().unwrap();
        let summary = history_job(work.path(), temp.path());
        // Both runs are of this build: one commit, `round` runs.
        assert!(summary.starts_with("## Benchmark history"), "{summary}");
        assert!(
            summary.contains("gen_9x9_1000 x dlx: 1 commit, 0 node steps"),
            "{summary}"
        );
        let csv = std::fs::read_to_string(temp.path().join("site/history.csv")).unwrap();
        // 2 corpora x 4 solvers a run.
        assert_eq!(csv.lines().count(), 1 + 8 * round, "{csv}");
        let page = std::fs::read_to_string(temp.path().join("site/index.html")).unwrap();
        assert_eq!(page.matches("<svg").count(), 8);
        common::assert_offline(&page, "the dashboard");
        assert!(temp.path().join("site/history.db").is_file());
    }
}
