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

/// The figures of `s` that [`differences`] compares, named.
fn figures(s: &SolverStats) -> [(&'static str, Option<u128>); 13] {
    let wide = |v: u64| Some(u128::from(v));
    [
        ("puzzles", wide(s.puzzles)),
        ("solved", wide(s.solved)),
        ("unsolvable", wide(s.unsolvable)),
        ("multiple", wide(s.multiple)),
        ("budget", wide(s.budget)),
        ("invalid", wide(s.invalid)),
        ("total_nodes", s.total_nodes.map(u128::from)),
        ("total_guesses", wide(s.total_guesses)),
        ("total_updates", s.total_updates.map(u128::from)),
        ("total_mems", s.total_mems.map(u128::from)),
        ("no_guess", wide(s.no_guess)),
        ("summed ns", Some(s.sum_ns)),
        ("summed over-budget ns", Some(s.budget_ns)),
    ]
}

/// The first figure in which `rows` (the statistics of a part's
/// `puzzles.csv` rows) and `recorded` (its `histograms.json`'s) differ, as
/// `total_nodes: 1200 in the rows, 1100 recorded`; `None` when they agree
/// (the sum of squares, a float added in another order, is not compared).
pub(super) fn differences(rows: &SolverStats, recorded: &SolverStats) -> Option<String> {
    let show = |v: Option<u128>| v.map_or_else(|| "none".to_string(), |v| v.to_string());
    let differ = figures(rows)
        .into_iter()
        .zip(figures(recorded))
        .find(|((_, a), (_, b))| a != b);
    if let Some(((what, a), (_, b))) = differ {
        return Some(format!(
            "{what}: {} in the rows, {} recorded",
            show(a),
            show(b)
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
