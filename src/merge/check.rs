//! What must agree: the parts' settings and shards, and a part's rows
//! against its recorded statistics.

use std::path::Path;

use super::part::Part;
use super::MergeError;
use crate::harness::SolverStats;
use crate::results::RunInfo;

/// `value` as JSON text, for messages (`"unique"`, `null`).
pub(super) fn json_text<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The settings that must agree between parts, each as text.
pub(super) fn settings(run: &RunInfo) -> Vec<(&'static str, String)> {
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
pub(super) fn check_parts(parts: &[Part], partial: bool) -> Result<(u32, Vec<u32>), MergeError> {
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

/// The first figure in which `rows` (the statistics of a part's
/// `puzzles.csv` rows) and `recorded` (its `histograms.json`'s) differ, as
/// `total_nodes: 1200 in the rows, 1100 recorded`; `None` when they agree
/// (the sum of squares, a float added in another order, is not compared).
pub(super) fn differences(rows: &SolverStats, recorded: &SolverStats) -> Option<String> {
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
