//! The cluster recipes under `examples/cluster/` (docs/cluster.md, "Running on a
//! cluster"): shell scripts pass `bash -n`, YAML files parse, each names
//! only dlxbench options that exist, the Kubernetes shard count matches its
//! completions, and the GNU parallel script runs (an ignored test: it needs
//! GNU parallel).

mod common;

use std::path::{Path, PathBuf};

use common::{assert_options_exist, dlxbench_commands, read_csv, repo_path};
use yaml_rust2::{Yaml, YamlLoader};

fn recipes() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo_path("examples/cluster"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

/// Every string in a YAML document, one per line (folded scalars are one
/// line already), for [`dlxbench_commands`].
fn strings(yaml: &Yaml, out: &mut String) {
    match yaml {
        Yaml::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Yaml::Array(items) => items.iter().for_each(|y| strings(y, out)),
        Yaml::Hash(map) => map.values().for_each(|y| strings(y, out)),
        _ => {}
    }
}

#[test]
fn recipes_parse_and_name_existing_options() {
    let mut subcommands = Vec::new();
    let files = recipes();
    assert!(files.len() >= 4, "{files:?}");
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let commands = match extension(path) {
            "sh" | "sbatch" => {
                let check = std::process::Command::new("bash")
                    .arg("-n")
                    .arg(path)
                    .output()
                    .unwrap();
                assert!(
                    check.status.success(),
                    "bash -n {}: {}",
                    path.display(),
                    String::from_utf8_lossy(&check.stderr)
                );
                dlxbench_commands(&text)
            }
            "yaml" | "yml" => {
                let docs = YamlLoader::load_from_str(&text)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert!(!docs.is_empty(), "{}: no document", path.display());
                let mut all = String::new();
                docs.iter().for_each(|d| strings(d, &mut all));
                dlxbench_commands(&all)
            }
            other => panic!("{}: unexpected file type {other:?}", path.display()),
        };
        assert!(
            !commands.is_empty(),
            "{}: no dlxbench command found",
            path.display()
        );
        assert_options_exist(&commands);
        subcommands.extend(commands.into_iter().map(|(s, _)| s));
    }
    for needed in ["bench", "merge"] {
        assert!(subcommands.iter().any(|s| s == needed), "no `{needed}`");
    }
}

#[test]
fn the_kubernetes_shard_count_is_the_completion_count() {
    let text = std::fs::read_to_string(repo_path("examples/cluster/kubernetes.yaml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let job = &docs[0];
    assert_eq!(job["kind"].as_str(), Some("Job"));
    assert_eq!(job["spec"]["completionMode"].as_str(), Some("Indexed"));
    let completions = job["spec"]["completions"].as_i64().unwrap();
    let args = job["spec"]["template"]["spec"]["containers"][0]["args"][0]
        .as_str()
        .unwrap();
    assert!(
        args.contains(&format!("--shard auto/{completions} ")),
        "{args}"
    );
    let text = std::fs::read_to_string(repo_path("examples/cluster/github-matrix.yml")).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let jobs = &docs[0]["jobs"];
    assert!(jobs["shard"]["strategy"]["matrix"]["shard"]
        .as_vec()
        .is_some());
    assert_eq!(jobs["merge"]["needs"].as_str(), Some("shard"));
}

/// Runs `parallel.sh` on the generated corpus as 3 shards, locally and
/// through its `--sshlogin` branch (with `:`, GNU parallel's name for this
/// machine), and checks the merge.
#[test]
#[ignore = "needs GNU parallel (CI runs it when `parallel` is installed)"]
fn the_gnu_parallel_recipe_runs() {
    let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
    for sshlogin in [None, Some(":")] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("run");
        let mut cmd = std::process::Command::new("bash");
        cmd.arg(repo_path("examples/cluster/parallel.sh"))
            .arg("3")
            .arg(&corpus)
            .args(["--solvers", "dlx,singles"])
            .env("DLXBENCH", assert_cmd::cargo::cargo_bin("dlxbench"))
            .env("OUT", &out)
            .env("JOBS", "2");
        if let Some(login) = sshlogin {
            cmd.env("SSHLOGIN", login);
        }
        let run = cmd.output().unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        for k in 1..=3 {
            assert!(out.join(format!("shard-{k}/run.json")).exists());
        }
        let summary = read_csv(&out.join("merged/summary.csv"));
        assert_eq!(summary.len(), 2);
        for row in &summary {
            assert_eq!(row["puzzles"], "1000", "{row:?}");
        }
    }
}
