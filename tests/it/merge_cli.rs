//! `bench --shard K/N` and `dlxbench merge`: a corpus run whole and as four
//! shards in parallel processes merges to the same result in every
//! deterministic field, and every bad merge is refused with a clear message.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use common::{
    copy_dir, deterministic_puzzle_rows, deterministic_summary_rows, dlxbench, read_csv, read_json,
    repo_path, stderr_text as stderr, write_file,
};
use dlxbench::report::histograms_json;

const SOLVERS: &str = "dlx,singles,heuristic";

/// Two corpora: the generated 9x9 one, and a small one with a comment, a
/// blank line and a malformed line (so that line numbers are not puzzle
/// ordinals, and malformed counts add up).
fn corpora(dir: &Path) -> Vec<PathBuf> {
    let nine = repo_path("datasets/generated/gen_9x9_1000.txt");
    let text = std::fs::read_to_string(&nine).unwrap();
    let mut small = String::from("# a comment\n\n");
    for (i, line) in common::puzzle_lines(&text).take(37).enumerate() {
        small.push_str(line);
        small.push('\n');
        if i == 20 {
            small.push_str("not a puzzle\n");
        }
    }
    vec![nine, write_file(dir, "small.txt", small)]
}

/// `bench` with the test's settings, and `extra`, into `out`.
fn bench(out: &Path, corpora: &[PathBuf], extra: &[&str]) -> StdCommand {
    let mut cmd = StdCommand::new(assert_cmd::cargo::cargo_bin("dlxbench"));
    cmd.args(["bench", "-q", "--solvers", SOLVERS])
        .args(extra)
        .arg("--out")
        .arg(out)
        .args(corpora);
    cmd
}

/// Runs shards `1..=count` of `count` in parallel processes into
/// `dir/s<K>`; returns their directories.
fn shards(dir: &Path, corpora: &[PathBuf], count: u32) -> Vec<PathBuf> {
    let outs: Vec<PathBuf> = (1..=count).map(|k| dir.join(format!("s{k}"))).collect();
    let children: Vec<_> = outs
        .iter()
        .enumerate()
        .map(|(k, out)| {
            let shard = format!("{}/{count}", k + 1);
            bench(out, corpora, &["-j1", "--shard", &shard])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(finished(child.wait().unwrap()));
    }
    outs
}

/// Whether a `bench` run finished: exit 0, or 1 when it read the small
/// corpus's malformed line (the input policy; its results are written all
/// the same).
fn finished(status: std::process::ExitStatus) -> bool {
    matches!(status.code(), Some(0 | 1))
}

fn merge(parts: &[PathBuf], out: &Path, extra: &[&str]) -> std::process::Output {
    dlxbench()
        .arg("merge")
        .args(parts)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Asserts that merging `parts` fails with exit status 2 and a message
/// containing every one of `expected`.
fn refused(parts: &[PathBuf], out: &Path, expected: &[&str]) {
    let result = merge(parts, out, &[]);
    let message = stderr(&result);
    assert_eq!(result.status.code(), Some(2), "{message}");
    for e in expected {
        assert!(message.contains(e), "expected {e:?} in: {message}");
    }
    assert!(!out.exists(), "a refused merge must write nothing");
}

#[test]
fn four_shards_merge_to_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let corpora = corpora(dir);
    let whole = dir.join("whole");
    let status = bench(&whole, &corpora, &["-j2"]).status().unwrap();
    assert_eq!(status.code(), Some(1), "the malformed line");
    let parts = shards(dir, &corpora, 4);

    // The shards are disjoint, balanced by lines, and together the corpus.
    let mut lines_seen = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        let run = read_json(&part.join("run.json"));
        assert_eq!(run["shard"]["index"], k + 1);
        assert_eq!(run["shard"]["count"], 4);
        let rows = read_csv(&part.join("puzzles.csv"));
        for r in rows.iter().filter(|r| r["solver"] == "dlx") {
            let line: u64 = r["line"].parse().unwrap();
            assert_eq!((line - 1) % 4, k as u64, "line {line} in shard {}", k + 1);
            lines_seen.push((r["corpus"].clone(), line));
        }
    }
    lines_seen.sort();
    let mut whole_lines: Vec<(String, u64)> = read_csv(&whole.join("puzzles.csv"))
        .into_iter()
        .filter(|r| r["solver"] == "dlx")
        .map(|r| (r["corpus"].clone(), r["line"].parse().unwrap()))
        .collect();
    whole_lines.sort();
    assert_eq!(lines_seen, whole_lines);

    // Merged in a scrambled order: the result does not depend on it.
    let merged = dir.join("merged");
    let order = [
        parts[2].clone(),
        parts[0].clone(),
        parts[3].clone(),
        parts[1].clone(),
    ];
    let out = merge(&order, &merged, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("Merged 4 parts, shards 1-4 of 4: 3,111 puzzle rows in "),
        "{stdout}"
    );
    assert!(
        stdout.contains("Merged from 4 parts (4 of 4 shards)"),
        "{stdout}"
    );

    assert_eq!(
        deterministic_puzzle_rows(&merged),
        deterministic_puzzle_rows(&whole)
    );
    assert_eq!(
        deterministic_summary_rows(&merged),
        deterministic_summary_rows(&whole)
    );
    let summary = read_csv(&merged.join("summary.csv"));
    let small_dlx = summary
        .iter()
        .find(|r| r["corpus"] == "small" && r["solver"] == "dlx")
        .unwrap();
    assert_eq!(
        (&small_dlx["puzzles"][..], &small_dlx["malformed"][..]),
        ("37", "1")
    );

    // The merged histogram is the exact merge of the shards' histograms.
    let merged_h = histograms_json::read(&merged.join("histograms.json")).unwrap();
    assert_eq!(merged_h.len(), 6);
    for entry in &merged_h {
        let mut sum = dlxbench::harness::SolverStats::new(entry.stats.name.clone());
        for part in &parts {
            let found = histograms_json::read(&part.join("histograms.json"))
                .unwrap()
                .into_iter()
                .find(|e| e.corpus == entry.corpus && e.stats.name == entry.stats.name)
                .unwrap();
            sum.merge(&found.stats);
        }
        assert_eq!(entry.stats.histogram, sum.histogram);
        assert_eq!(entry.stats.sum_ns, sum.sum_ns);
        assert_eq!(entry.stats.total_nodes, sum.total_nodes);
        assert_eq!(entry.stats.histogram.len(), entry.stats.puzzles);
    }

    // run.json: the coverage and each part's own facts.
    let run = read_json(&merged.join("run.json"));
    assert_eq!(run["shard"]["indices"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(run["merged_from"].as_array().unwrap().len(), 4);
    assert_eq!(run["merged_from"][0]["shard"]["index"], 1);
    assert_eq!(run["threads"], 4);

    // `compare` reads the merged directory: the same node counts.
    let cmp = dlxbench()
        .args(["compare", "--metric", "nodes"])
        .arg(&whole)
        .arg(&merged)
        .output()
        .unwrap();
    assert!(
        cmp.status.success(),
        "{}",
        String::from_utf8_lossy(&cmp.stdout)
    );

    // Merges of merges: two partial merges, then the two.
    let (a, b) = (dir.join("m12"), dir.join("m34"));
    assert!(merge(&parts[..2], &a, &["--partial"]).status.success());
    assert!(merge(&parts[2..], &b, &["--partial"]).status.success());
    assert_eq!(
        read_json(&a.join("run.json"))["shard"]["indices"],
        serde_json::json!([1, 2])
    );
    let again = dir.join("again");
    let out = merge(&[b.clone(), a.clone()], &again, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        deterministic_puzzle_rows(&again),
        deterministic_puzzle_rows(&whole)
    );
    assert_eq!(
        deterministic_summary_rows(&again),
        deterministic_summary_rows(&whole)
    );

    // Bad merges.
    let bad = |name: &str| dir.join(name);
    refused(&parts[..3], &bad("missing"), &["shard 4 of 4 missing"]);
    refused(
        &[parts[0].clone(), parts[0].clone(), parts[1].clone()],
        &bad("twice"),
        &["shard 1/4 is given twice"],
    );
    refused(
        &[a.clone(), parts[1].clone(), b.clone()],
        &bad("twice2"),
        &["shard 2/4 is given twice"],
    );

    // A shard of another corpus, another mode, another version.
    let other = dir.join("other");
    assert!(bench(&other, &corpora[..1], &["-j1", "--shard", "4/4"])
        .status()
        .unwrap()
        .success());
    let mut set = parts[..3].to_vec();
    set.push(other);
    refused(&set, &bad("corpora"), &["the parts differ in corpora"]);

    let first = dir.join("first");
    assert!(finished(
        bench(
            &first,
            &corpora,
            &["-j1", "--shard", "4/4", "--mode", "first"]
        )
        .status()
        .unwrap()
    ));
    let mut set = parts[..3].to_vec();
    set.push(first);
    refused(
        &set,
        &bad("mode"),
        &["the parts differ in mode", "\"unique\"", "\"first\""],
    );

    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let copy = dir.join(name);
        copy_dir(&parts[3], &copy);
        let mut run = read_json(&copy.join("run.json"));
        edit(&mut run);
        std::fs::write(copy.join("run.json"), run.to_string()).unwrap();
        let mut set = parts[..3].to_vec();
        set.push(copy);
        set
    };
    let set = edited("version", &|r| r["dlxbench_version"] = "0.0.1".into());
    refused(&set, &bad("v"), &["the parts differ in dlxbench version"]);
    let set = edited("interrupted", &|r| {
        r["interrupted"] = true.into();
        r["corpora"][1]["complete"] = false.into();
        r["corpora"][1]["lines_done"] = 5.into();
    });
    refused(
        &set,
        &bad("i"),
        &[
            "interrupted",
            "small: 5 of 40 lines",
            "run this shard again",
        ],
    );
    // Shard 4's rows claimed as shard 1's, given with shard 4: the line
    // sets overlap.
    let mut set = edited("overlap", &|r| {
        r["shard"]["index"] = 1.into();
        r["shard"]["indices"] = serde_json::json!([1]);
    });
    set[0] = parts[3].clone();
    refused(
        &set,
        &bad("o"),
        &["gen_9x9_1000 line 4 is in both", "the parts overlap"],
    );

    // A puzzles.csv cut short.
    let cut = dir.join("cut");
    copy_dir(&parts[3], &cut);
    let text = std::fs::read_to_string(cut.join("puzzles.csv")).unwrap();
    let keep: Vec<&str> = text.lines().take(50).collect();
    std::fs::write(cut.join("puzzles.csv"), keep.join("\n") + "\n").unwrap();
    let mut set = parts[..3].to_vec();
    set.push(cut.clone());
    // Its checksum in run.json no longer matches: refused, the file named.
    refused(
        &set,
        &bad("c"),
        &[&format!(
            "{}: puzzles.csv does not match the checksum in run.json: edited or truncated",
            cut.display()
        )],
    );
    // Accepted knowingly, with a warning: the row counts still refuse it.
    let out = merge(&set, &bad("c"), &["--accept-modified"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("a file was cut short or changed"));
    // And so does it when run.json vouches for the cut file.
    common::vouch(&cut);
    refused(&set, &bad("c"), &["a file was cut short or changed"]);

    // Rows that disagree are found again: exit 1, the puzzle named.
    let tampered = dir.join("tampered");
    copy_dir(&parts[1], &tampered);
    let text = std::fs::read_to_string(tampered.join("puzzles.csv")).unwrap();
    let changed = text.replacen("gen_9x9_1000,2,singles,", "gen_9x9_1000,2,singles,X", 1);
    let mut lines: Vec<String> = changed.lines().map(String::from).collect();
    let row = lines.iter_mut().find(|l| l.contains(",singles,X")).unwrap();
    // corpus,line,solver,ns,solutions,...: two solutions, status multiple.
    let mut fields: Vec<String> = row.split(',').map(String::from).collect();
    fields[3] = fields[3].trim_start_matches('X').to_string();
    fields[4] = "2".into();
    fields[7] = "multiple".into();
    *row = fields.join(",");
    std::fs::write(tampered.join("puzzles.csv"), lines.join("\n") + "\n").unwrap();
    // As a run that found it would have counted it: in histograms.json
    // too, and in the checksums.
    edit_stats(&tampered, "gen_9x9_1000", "singles", |stats| {
        stats["multiple"] = (stats["multiple"].as_u64().unwrap() + 1).into();
    });
    let summary = tampered.join("summary.csv");
    let text = std::fs::read_to_string(&summary).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| match l.starts_with("gen_9x9_1000,singles,") {
            // corpus,solver,puzzles,solved,unsolvable,multiple,...
            true => {
                let mut fields: Vec<String> = l.split(',').map(String::from).collect();
                fields[5] = (fields[5].parse::<u64>().unwrap() + 1).to_string();
                fields.join(",")
            }
            false => l.to_string(),
        })
        .collect();
    std::fs::write(&summary, lines.join("\n") + "\n").unwrap();
    common::vouch(&tampered);
    let set = vec![
        parts[0].clone(),
        tampered,
        parts[2].clone(),
        parts[3].clone(),
    ];
    let out = merge(&set, &bad("disagree"), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "gen_9x9_1000 line 2: solvers disagree: dlx=1 (unique), singles=2 (multiple)"
        ),
        "{}",
        stderr(&out)
    );

    // Not a result directory.
    refused(
        &[dir.join("nowhere")],
        &bad("n"),
        &["no run.json: not the result directory of a run"],
    );
}

/// Edits the `stats` of `corpus` x `solver` in `dir/histograms.json`.
fn edit_stats(dir: &Path, corpus: &str, solver: &str, edit: impl Fn(&mut serde_json::Value)) {
    let path = dir.join("histograms.json");
    let mut set = read_json(&path);
    let entry = set["histograms"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["corpus"] == corpus && e["solver"] == solver)
        .unwrap();
    edit(&mut entry["stats"]);
    std::fs::write(&path, serde_json::to_string_pretty(&set).unwrap()).unwrap();
}

/// A way to change a shard: its name, the change, the file changed, and
/// what the consistency checks say of it.
type Case<'a> = (&'a str, &'a dyn Fn(&Path), &'a str, &'a str);

/// Shards whose files were changed after the run are refused, by their
/// checksums and, where a file was rewritten with its checksum (or the
/// shard is from before checksums), by the consistency of its files:
/// `solved` above `puzzles` in `summary.csv`, node counts edited in
/// `puzzles.csv`, histograms swapped between solvers.
#[test]
fn tampered_shards_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let corpora = corpora(dir);
    let parts = shards(dir, &corpora, 2);
    let out = |name: &str| dir.join(format!("out-{name}"));
    // A copy of shard 2 changed by `change`; the set with shard 1.
    let changed = |name: &str, change: &dyn Fn(&Path)| {
        let copy = dir.join(name);
        copy_dir(&parts[1], &copy);
        change(&copy);
        vec![parts[0].clone(), copy]
    };
    let summary_solved = |d: &Path| {
        let path = d.join("summary.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        // corpus,solver,puzzles,solved,...: solved = puzzles + 1.
        let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
        let puzzles: u64 = fields[2].parse().unwrap();
        fields[3] = (puzzles + 1).to_string();
        lines[1] = fields.join(",");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    };
    let nodes = |d: &Path| {
        let path = d.join("puzzles.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let row = lines.iter_mut().find(|l| l.contains(",dlx,")).unwrap();
        // corpus,line,solver,ns,solutions,nodes,...
        let mut fields: Vec<String> = row.split(',').map(String::from).collect();
        let n: u64 = fields[5].parse().unwrap();
        fields[5] = (n + 7).to_string();
        *row = fields.join(",");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    };
    let swapped = |d: &Path| {
        let path = d.join("histograms.json");
        let mut set = read_json(&path);
        let entries = set["histograms"].as_array_mut().unwrap();
        let find = |solver: &str| {
            entries
                .iter()
                .position(|e| e["corpus"] == "gen_9x9_1000" && e["solver"] == solver)
                .unwrap()
        };
        let (a, b) = (find("dlx"), find("singles"));
        let data = entries[a]["data"].clone();
        entries[a]["data"] = entries[b]["data"].clone();
        entries[b]["data"] = data;
        std::fs::write(&path, serde_json::to_string_pretty(&set).unwrap()).unwrap();
    };
    let cases: [Case; 3] = [
        (
            "solved",
            &summary_solved,
            "summary.csv",
            "solved and 0 invalid of",
        ),
        ("nodes", &nodes, "puzzles.csv", "(total_nodes: "),
        (
            "swapped",
            &swapped,
            "histograms.json",
            "(the latency histogram): a file was changed",
        ),
    ];
    for (name, change, file, found) in cases {
        // As changed: the checksum names the file.
        let set = changed(name, change);
        refused(
            &set,
            &out(name),
            &[&format!(
                "{file} does not match the checksum in run.json: edited or truncated"
            )],
        );
        // Accepted, or vouched for by run.json: the consistency checks.
        let out_accepting = merge(&set, &out(name), &["--accept-modified"]);
        assert_eq!(out_accepting.status.code(), Some(2));
        assert!(
            stderr(&out_accepting).contains(found),
            "{}",
            stderr(&out_accepting)
        );
        common::vouch(&set[1]);
        refused(&set, &out(name), &[found]);
    }
    // A harmless edit accepted knowingly: merged, with a warning naming it.
    let set = changed("notes", &|d| {
        let path = d.join("summary.md");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text + "\nNoted by hand.\n").unwrap();
    });
    refused(
        &set,
        &out("notes"),
        &["summary.md does not match the checksum"],
    );
    let merged = merge(&set, &out("notes"), &["--accept-modified"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(
        stderr(&merged),
        format!(
            "dlxbench: warning: {}: summary.md does not match the checksum in run.json: edited \
             or truncated; read anyway, as asked\n",
            set[1].display()
        )
    );
    // Shards from before checksums (schema 1) merge, unverified, and are
    // still checked for consistency.
    let old = |name: &str, change: &dyn Fn(&Path)| {
        let set: Vec<PathBuf> = parts
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let copy = dir.join(format!("{name}{k}"));
                copy_dir(p, &copy);
                let mut run = read_json(&copy.join("run.json"));
                run["schema_version"] = 1.into();
                run.as_object_mut().unwrap().remove("file_sha256");
                std::fs::write(copy.join("run.json"), run.to_string()).unwrap();
                if k == 1 {
                    change(&copy);
                }
                copy
            })
            .collect();
        set
    };
    let set = old("old", &|_| {});
    let merged = merge(&set, &out("old"), &[]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(stderr(&merged), "");
    // The merged run is of this version: with checksums, verified.
    let run = read_json(&out("old").join("run.json"));
    assert_eq!(run["schema_version"], dlxbench::results::SCHEMA_VERSION);
    for file in [
        "summary.csv",
        "puzzles.csv",
        "histograms.json",
        "summary.md",
    ] {
        assert!(run["file_sha256"][file].is_string(), "{file}: {run}");
    }
    let set = old("oldnodes", &nodes);
    refused(&set, &out("oldnodes"), &["(total_nodes: "]);
}

#[test]
fn out_is_checked_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_4x4_100.txt");
    let part = tmp.path().join("p");
    assert!(bench(&part, &[corpus], &["-j1"])
        .status()
        .unwrap()
        .success());
    // A directory with other files is never replaced.
    let busy = tmp.path().join("busy");
    write_file(&busy_dir(&busy), "notes.txt", "mine");
    let out = merge(std::slice::from_ref(&part), &busy, &["--force"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("holds other files than results (e.g. notes.txt)"));
    assert!(busy.join("notes.txt").exists());
    // Files that only end like results are not results: never replaced.
    let logo = tmp.path().join("logo");
    write_file(&busy_dir(&logo), "logo.svg", "<svg/>");
    let out = merge(std::slice::from_ref(&part), &logo, &["--force"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("holds other files than results (e.g. logo.svg)"));
    assert!(logo.join("logo.svg").exists());
    // Into a part: refused.
    let out = merge(std::slice::from_ref(&part), &part, &["--force"]);
    assert!(stderr(&out).contains("is one of the parts"));
    // A whole run merges alone (1 of 1); an earlier merge needs --force.
    let m = tmp.path().join("m");
    assert!(merge(std::slice::from_ref(&part), &m, &[]).status.success());
    let again = merge(std::slice::from_ref(&part), &m, &[]);
    assert!(stderr(&again).contains("use --force"));
    assert!(merge(std::slice::from_ref(&part), &m, &["--force"])
        .status
        .success());
}

fn busy_dir(path: &Path) -> PathBuf {
    std::fs::create_dir_all(path).unwrap();
    path.to_path_buf()
}

#[test]
fn shard_auto_reads_slurm_and_kubernetes() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = repo_path("datasets/generated/gen_4x4_100.txt");
    let out = tmp.path().join("slurm");
    let run = dlxbench()
        .args(["bench", "-q", "-j1", "--shard", "auto", "--out"])
        .arg(&out)
        .arg(&corpus)
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .env("SLURM_ARRAY_TASK_MAX", "5")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stderr(&run).contains("dlxbench: shard 3/5, from SLURM_ARRAY_TASK_ID=3"));
    assert_eq!(read_json(&out.join("run.json"))["shard"]["index"], 3);
    // Kubernetes: the index from 0, the count given.
    let out = tmp.path().join("k8s");
    let run = dlxbench()
        .args(["bench", "-q", "-j1", "--shard", "auto/2", "--out"])
        .arg(&out)
        .arg(&corpus)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(read_json(&out.join("run.json"))["shard"]["index"], 2);
    // Nothing to read, or a bad value: exit 2, saying what to pass.
    let run = dlxbench()
        .args(["bench", "-q", "--shard", "auto"])
        .arg(&corpus)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("no shard index in the environment"));
    for bad in ["0/4", "5/4", "x"] {
        let run = dlxbench()
            .args(["bench", "-q", "--shard", bad])
            .arg(&corpus)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{bad}");
        assert!(stderr(&run).contains("expected K/N with 1 <= K <= N"));
    }
}
