//! The cluster recipes under `examples/cluster/` (docs/cluster.md, "Running on a
//! cluster"): shell scripts pass `bash -n`, YAML files parse, each names
//! only dlxbench options that exist, the Kubernetes shard count matches its
//! completions, the Kubernetes manifests validate against the Kubernetes
//! API's schemas (`kubernetes-validate`; skipped, saying so, where that
//! Python package is missing, and failing under CI, where `.ci/run`
//! installs it), the Indexed Job's container command runs here once per
//! `JOB_COMPLETION_INDEX` and the merge Job's command merges the shards,
//! and the GNU parallel script runs (an ignored test: it needs GNU
//! parallel). The Slurm recipe runs on a real Slurm in
//! `tests/it/cluster_slurm.rs`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

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

/// The command that runs `kubernetes-validate` (the Python package that
/// bundles the Kubernetes API's JSON schemas), or why there is none.
fn kubernetes_validate() -> Result<Command, String> {
    let works = |mut cmd: Command| {
        cmd.arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if works(Command::new("kubernetes-validate")) {
        return Ok(Command::new("kubernetes-validate"));
    }
    let module = || {
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "kubernetes_validate"]);
        cmd
    };
    if works(module()) {
        return Ok(module());
    }
    Err("the Python package kubernetes-validate is not installed \
         (`python3 -m pip install kubernetes-validate`; .ci/run installs it)"
        .into())
}

/// `kubernetes-validate --strict` (unknown fields refused) of `files`
/// against Kubernetes `version` (`None`: the package's newest).
fn validate(files: &[PathBuf], version: Option<&str>) -> std::process::Output {
    let mut cmd = kubernetes_validate().unwrap();
    cmd.arg("--strict");
    if let Some(v) = version {
        cmd.args(["-k", v]);
    }
    cmd.args(files).output().unwrap()
}

/// The Indexed Job and its merge Job validate against the Kubernetes API's
/// schemas, strictly (no unknown field), for the newest Kubernetes the
/// package knows and for 1.29, the first where `backoffLimitPerIndex` is on
/// by default; a copy with a misspelled field is refused (the check checks).
#[test]
fn the_kubernetes_manifests_validate_against_the_api_schemas() {
    let name = "the_kubernetes_manifests_validate_against_the_api_schemas";
    if let Err(reason) = kubernetes_validate() {
        common::skip(name, &reason);
        return;
    }
    let files = [
        repo_path("examples/cluster/kubernetes.yaml"),
        repo_path("examples/cluster/kubernetes-merge.yaml"),
    ];
    for version in [None, Some("1.29.0")] {
        let out = validate(&files, version);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "kubernetes-validate {version:?}: {text}"
        );
        assert_eq!(
            text.matches(" passed for resource job/").count(),
            2,
            "{text}"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("parallelism: 4"));
    let bad = common::write_file(
        tmp.path(),
        "bad.yaml",
        text.replace("parallelism: 4", "paralelism: 4"),
    );
    let out = validate(&[bad], None);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'paralelism' was unexpected")
            || String::from_utf8_lossy(&out.stdout).contains("'paralelism' was unexpected")
    );
}

/// The first container of the Job in manifest `file`: its command line
/// (command then args, as the kubelet runs it), working directory and the
/// volume's mount path.
fn container(file: &str) -> (Vec<String>, Option<String>, String) {
    let text = std::fs::read_to_string(repo_path(file)).unwrap();
    let docs = YamlLoader::load_from_str(&text).unwrap();
    let c = &docs[0]["spec"]["template"]["spec"]["containers"][0];
    let words = |y: &Yaml| -> Vec<String> {
        y.as_vec()
            .map(|v| v.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    let mut argv = words(&c["command"]);
    argv.extend(words(&c["args"]));
    assert!(!argv.is_empty(), "{file}: no command");
    let mount = c["volumeMounts"][0]["mountPath"]
        .as_str()
        .unwrap()
        .to_string();
    (argv, c["workingDir"].as_str().map(str::to_string), mount)
}

/// Runs `argv` as a container would, here: in `dir`, `dlxbench` the binary
/// the tests built (first on `PATH`), the volume's mount path `mount`
/// replaced by the local folder `volume`, and `env` (no Slurm variable
/// inherited, so that `--shard auto` sees the Kubernetes one alone).
fn run_container(
    argv: &[String],
    dir: &Path,
    mount: &str,
    volume: &Path,
    env: &[(&str, String)],
) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("dlxbench");
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let volume = volume.to_str().unwrap();
    let mut cmd = Command::new(&argv[0]);
    cmd.args(argv[1..].iter().map(|a| a.replace(mount, volume)))
        .current_dir(dir)
        .env("PATH", path)
        .envs(env.iter().map(|(k, v)| (k, v)));
    for (key, _) in std::env::vars() {
        if key.starts_with("SLURM_") || key == "JOB_COMPLETION_INDEX" {
            cmd.env_remove(key);
        }
    }
    cmd.output().unwrap()
}

/// The Indexed Job's container command (read from the manifest), run here
/// once per completion index with `JOB_COMPLETION_INDEX` set as Kubernetes
/// sets it (0 to completions - 1), writes shard index + 1 of completions
/// into the volume; the merge Job's command merges them into the result of
/// an unsharded run. The corpora are stand-ins under the manifest's names
/// (lines of the committed generated corpus): the test is of the index
/// path, not of the corpora.
#[test]
fn the_kubernetes_container_command_runs_each_completion_index() {
    let text = std::fs::read_to_string(repo_path("examples/cluster/kubernetes.yaml")).unwrap();
    let job = &YamlLoader::load_from_str(&text).unwrap()[0];
    let completions = job["spec"]["completions"].as_i64().unwrap();
    let (argv, working_dir, mount) = container("examples/cluster/kubernetes.yaml");
    assert!(
        working_dir.is_some(),
        "the corpora are relative to workingDir"
    );
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let volume = tmp.path().join("results");
    std::fs::create_dir_all(work.join("datasets")).unwrap();
    std::fs::create_dir(&volume).unwrap();
    // Stand-ins for the corpora the command names, relative to workingDir.
    let generated =
        std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let lines: Vec<&str> = common::puzzle_lines(&generated).collect();
    let corpora: Vec<&str> = argv
        .last()
        .unwrap()
        .split_whitespace()
        .filter(|w| w.starts_with("datasets/"))
        .collect();
    assert_eq!(corpora.len(), 2, "{argv:?}");
    for (i, corpus) in corpora.iter().enumerate() {
        let part = &lines[i * 150..i * 150 + 100 + i * 7];
        std::fs::write(work.join(corpus), part.join("\n") + "\n").unwrap();
    }
    for index in 0..completions {
        let out = run_container(
            &argv,
            &work,
            &mount,
            &volume,
            &[("JOB_COMPLETION_INDEX", index.to_string())],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "index {index}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "shard {}/{completions}, from JOB_COMPLETION_INDEX={index}",
                index + 1
            )),
            "{stderr}"
        );
        let run = common::read_json(&volume.join(format!("shard-{index}/run.json")));
        assert_eq!(run["shard"]["index"], index + 1);
        assert_eq!(run["shard"]["count"], completions);
    }
    // Without the index, `--shard auto/N` refuses (a pod of a Job that is
    // not Indexed).
    let out = run_container(&argv, &work, &mount, &volume, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shard auto"));

    let (merge, _, merge_mount) = container("examples/cluster/kubernetes-merge.yaml");
    let out = run_container(&merge, &work, &merge_mount, &volume, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let whole = tmp.path().join("whole");
    let status = Command::new(assert_cmd::cargo::cargo_bin("dlxbench"))
        .current_dir(&work)
        .args(["bench", "-q", "--no-plots", "--out"])
        .arg(&whole)
        .args(&corpora)
        .status()
        .unwrap();
    assert!(status.success());
    let merged = volume.join("merged");
    assert_eq!(
        common::deterministic_puzzle_rows(&merged),
        common::deterministic_puzzle_rows(&whole)
    );
    assert_eq!(
        common::deterministic_summary_rows(&merged),
        common::deterministic_summary_rows(&whole)
    );
}
