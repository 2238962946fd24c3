//! The result of an A/B as JSON (`ab --json FILE`): an [`AbJson`], whose
//! fields are documented there and in `docs/file-formats.md`.

use super::{AbResult, Ratio};
use crate::compare::WorkSplit;
use crate::results::output::ab::{NodesJson, RatioJson, AB_FORMAT};
use crate::results::output::{AaJson, AbJson};

/// The result as JSON (`ab --json`, [`AbJson`]): the verdict, how the
/// interval was made (`method`, `units`), every pass's ratio, the split
/// into the search tree and the time per node (`work`, as `compare`'s
/// `time.work`), and the A/A that measured the floor, if any, with whether
/// it gave a (false) verdict.
pub fn json(r: &AbResult) -> AbJson {
    AbJson {
        format: AB_FORMAT.into(),
        a: r.a.clone(),
        b: r.b.clone(),
        method: r.method.into(),
        unit: "pair of passes".into(),
        units: r.overall.units as u64,
        passes: r.passes,
        warmup_passes: r.warmup_passes,
        stop: r.stop.as_str().into(),
        overall: ratio_json(&r.overall),
        corpora: r.corpora.iter().map(ratio_json).collect(),
        verdict: r.verdict.as_str().into(),
        judged_at: r.judged_at,
        floor: r.floor,
        pass_ratios: r.pass_ratios.clone(),
        work: r.work.as_ref().map(WorkSplit::json),
        nodes: NodesJson {
            a: r.nodes.totals.map(|t| t.0),
            b: r.nodes.totals.map(|t| t.1),
            puzzles_changed: r.nodes.changed,
            outcomes_changed: r.nodes.outcome_changed,
        },
        discrepancies: r.discrepancies.len() as u64,
        failed_solves: r.failed_solves,
        threads: r.threads as u64,
        elapsed_s: r.elapsed.as_secs_f64(),
        layout: r.layout.clone(),
        aa: r.aa.as_ref().map(|aa| {
            Box::new(AaJson {
                ab: json(aa),
                false_verdict: aa.false_verdict(),
                measured_floor: aa.overall.floor(),
            })
        }),
    }
}

/// The ratio as JSON (the `overall` and `corpora` of [`AbJson`]).
fn ratio_json(r: &Ratio) -> RatioJson {
    RatioJson {
        name: r.name.clone(),
        puzzles: r.puzzles as u64,
        units: r.units as u64,
        estimate: r.interval.map(|i| i.estimate),
        low: r.interval.map(|i| i.low),
        high: r.interval.map(|i| i.high),
        half_width: r.half_width(),
    }
}
