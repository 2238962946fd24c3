//! The table's speed column (`vs REFERENCE`), `summary.csv`'s `speed_*`
//! columns and the speed chart: a paired ratio over the puzzles both
//! solvers solved, or no ratio at all (`disagrees`, `too few`) for a broken
//! solver or one that solved too few of the puzzles; `merge` gives the
//! ratio of the merged rows, and `plot` draws what the table shows.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use common::{dlxbench, puzzle_lines, read_csv, repo_path, write_file};

/// The first 200 puzzles of the generated 9x9 corpus, in `dir/c.txt`.
fn corpus(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(repo_path("datasets/generated/gen_9x9_1000.txt")).unwrap();
    let lines: String = puzzle_lines(&text)
        .take(200)
        .map(|l| format!("{l}\n"))
        .collect();
    write_file(dir, "c.txt", lines)
}

/// `summary.csv`'s rows by solver.
fn summary(out: &Path) -> HashMap<String, HashMap<String, String>> {
    read_csv(&out.join("summary.csv"))
        .into_iter()
        .map(|r| (r["solver"].clone(), r))
        .collect()
}

fn number(row: &HashMap<String, String>, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column}: {:?}", row[column]))
}

/// The geometric mean of `ns_dlx / ns_solver` over the puzzles both solved
/// (status unique, the same count), recomputed from `puzzles.csv`.
fn geometric_mean_from_rows(out: &Path, solver: &str) -> (f64, usize) {
    let rows = read_csv(&out.join("puzzles.csv"));
    let mut by_line: HashMap<(String, String), HashMap<String, f64>> = HashMap::new();
    for r in &rows {
        if r["status"] == "unique" {
            by_line
                .entry((r["corpus"].clone(), r["line"].clone()))
                .or_default()
                .insert(r["solver"].clone(), r["ns"].parse().unwrap());
        }
    }
    let d: Vec<f64> = by_line
        .values()
        .filter_map(|m| Some((m.get("dlx")? / m.get(solver)?).ln()))
        .collect();
    ((d.iter().sum::<f64>() / d.len() as f64).exp(), d.len())
}

#[cfg(unix)]
#[test]
fn no_ratio_for_a_broken_solver_nor_for_too_few_common_puzzles() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    // A solver that answers "no solution" to everything.
    let script = write_file(
        dir.path(),
        "broken.sh",
        "#!/bin/sh\necho 'dlxbench-protocol 1'\nwhile read -r cmd limit puzzle; do echo '0 -'; done\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.path().join("out");
    // naive solves 2 of the 200 puzzles within 3,000 nodes.
    let run = dlxbench()
        .args([
            "bench",
            "--solvers",
            "dlx,naive,singles,broken",
            "--budget-nodes",
            "3000",
        ])
        .arg("--solver-cmd")
        .arg(format!("broken={}", script.display()))
        .arg("--out")
        .arg(&out)
        .arg(&c)
        .output()
        .unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    let s = summary(&out);
    assert_eq!(s["dlx"]["speed_note"], "reference", "{stdout}");
    assert_eq!(number(&s["dlx"], "speed_vs"), 1.0);
    assert_eq!(s["broken"]["unsolvable"], "200");
    assert_eq!(
        (&s["broken"]["speed_vs"][..], &s["broken"]["speed_note"][..]),
        ("", "disagrees")
    );
    let naive_solved: u64 = s["naive"]["solved"].parse().unwrap();
    assert!(naive_solved < 10, "{stdout}");
    assert_eq!(
        (&s["naive"]["speed_vs"][..], &s["naive"]["speed_note"][..]),
        ("", "too few")
    );
    // The legacy ratio of means is gone wherever the paired ratio is: the
    // broken solver's "no solution" answers are fast, and it had a
    // throughput thousands of times the reference's.
    assert_eq!(s["broken"]["speed_vs_reference"], "", "{:?}", s["broken"]);
    assert!(!s["broken"]["puzzles_per_s"].is_empty());
    assert_eq!(s["naive"]["speed_vs_reference"], "", "{:?}", s["naive"]);
    assert_eq!(number(&s["dlx"], "speed_vs_reference"), 1.0);
    let singles = &s["singles"];
    assert_eq!(singles["speed_note"], "");
    assert_eq!(singles["speed_puzzles"], "200");
    // Where the paired ratio stands, the legacy column is what it always
    // was: the ratio of throughputs.
    let throughputs = number(singles, "puzzles_per_s") / number(&s["dlx"], "puzzles_per_s");
    assert!(
        (number(singles, "speed_vs_reference") / throughputs - 1.0).abs() < 1e-3,
        "{singles:?}"
    );
    let (vs, low, high) = (
        number(singles, "speed_vs"),
        number(singles, "speed_low"),
        number(singles, "speed_high"),
    );
    assert!(low <= vs && vs <= high, "{singles:?}");
    let (expected, pairs) = geometric_mean_from_rows(&out, "singles");
    assert_eq!(pairs, 200);
    assert!((vs / expected - 1.0).abs() < 1e-5, "{vs} {expected}");
    // The table says so, and says what the column is.
    let table: Vec<&str> = stdout.lines().collect();
    let row = |name: &str| {
        *table
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row {name}: {stdout}"))
    };
    assert!(row("broken").ends_with("disagrees"), "{stdout}");
    assert!(row("naive").ends_with("too few"), "{stdout}");
    assert!(row("dlx").ends_with("1.00x"), "{stdout}");
    assert!(row("singles").ends_with(')'), "{stdout}");
    assert!(
        stdout.contains("vs dlx: the geometric mean of dlx's solve time over the solver's"),
        "{stdout}"
    );

    // The chart draws the solvers with a ratio only; report.html's table,
    // read back from the files, shows the same cells.
    dlxbench().arg("plot").arg(&out).assert().success();
    let svg = std::fs::read_to_string(out.join("c.speed.svg")).unwrap();
    assert!(svg.contains("singles ") && svg.contains("dlx 1x"), "{svg}");
    assert!(!svg.contains("broken ") && !svg.contains("naive "), "{svg}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let cell = row("singles")
        .rsplit("  ")
        .next()
        .unwrap()
        .trim()
        .to_string();
    assert!(html.contains(&cell), "{cell} not in report.html");
    assert!(html.contains("disagrees") && html.contains("too few"));
}

/// `merge` computes the ratio from the merged rows, as an unsharded run
/// does from its own.
#[test]
fn merged_shards_give_the_ratio_of_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let c = corpus(dir.path());
    let mut parts = Vec::new();
    for k in 1..=2 {
        let out = dir.path().join(format!("part{k}"));
        dlxbench()
            .args([
                "bench",
                "-q",
                "--no-plots",
                "-j",
                "1",
                "--solvers",
                "dlx,singles",
            ])
            .arg("--shard")
            .arg(format!("{k}/2"))
            .arg("--out")
            .arg(&out)
            .arg(&c)
            .assert()
            .success();
        parts.push(out);
    }
    let merged = dir.path().join("merged");
    dlxbench()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    let s = summary(&merged);
    let singles = &s["singles"];
    assert_eq!(singles["speed_puzzles"], "200");
    let (expected, _) = geometric_mean_from_rows(&merged, "singles");
    assert!(
        (number(singles, "speed_vs") / expected - 1.0).abs() < 1e-5,
        "{singles:?} {expected}"
    );
    // Each shard alone: 100 puzzles, its own rows.
    for part in &parts {
        let s = summary(part);
        assert_eq!(s["singles"]["speed_puzzles"], "100");
        let (expected, _) = geometric_mean_from_rows(part, "singles");
        assert!((number(&s["singles"], "speed_vs") / expected - 1.0).abs() < 1e-5);
    }
}
