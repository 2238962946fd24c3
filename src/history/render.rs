//! `history show`: the series as a text table, Markdown (a CI job
//! summary) and JSON ([`HistoryJson`]).

use std::fmt::Write as _;

use super::series::{Point, Series};
use super::steps::Step;
use crate::report::{human_ns, thousands};
use crate::results::output::history::{
    PointJson, SeriesJson, StepJson, StepMethodJson, HISTORY_FORMAT,
};
use crate::results::output::HistoryJson;

/// The step method in words, as the JSON and the pages state it.
pub const METHOD: &str = "nodes: any change of the total from one commit to the next; time: a \
commit whose 95% interval of the mean does not overlap the current segment's and whose mean is \
off the segment's median by more than the A/A floor, confirmed by the next commit";

/// A revision as the tables show it: a full commit hash cut to 12 digits
/// (a `-dirty` suffix kept).
pub fn short(revision: &str) -> String {
    let hex = revision
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .count();
    match hex >= 40 {
        true => format!("{}{}", &revision[..12], &revision[40..]),
        false => revision.to_string(),
    }
}

/// What the step column says of point `i`.
fn step_note(s: &Series, i: usize) -> String {
    let mut notes = Vec::new();
    let pct = |step: &Step| match step.change_pct() {
        Some(p) => format!("{p:+.2}%"),
        None => "from 0".to_string(),
    };
    if let Some(step) = s.node_steps.iter().find(|st| st.index == i) {
        notes.push(format!("nodes {}", pct(step)));
    }
    if let Some(step) = s.time_steps.iter().find(|st| st.index == i) {
        notes.push(format!("time {}", pct(step)));
    }
    if s.outliers.contains(&i) {
        notes.push("time outlier".to_string());
    }
    if s.points[i].nodes_differ {
        notes.push("runs' nodes differ".to_string());
    }
    notes.join(", ")
}

/// The cells of point `i` of `s`: commit, runs, puzzles, mean, interval,
/// nodes, step.
fn cells(s: &Series, i: usize) -> Vec<String> {
    let p: &Point = &s.points[i];
    let (mean, interval) = match p.time {
        Some(t) => (
            human_ns(t.value),
            format!("{} to {}", human_ns(t.low), human_ns(t.high)),
        ),
        None => ("-".to_string(), "-".to_string()),
    };
    vec![
        short(&p.revision),
        p.runs.to_string(),
        thousands(p.puzzles),
        mean,
        interval,
        p.total_nodes.map_or("-".to_string(), thousands),
        step_note(s, i),
    ]
}

const HEADERS: [&str; 7] = [
    "commit",
    "runs",
    "puzzles",
    "mean",
    "95% interval",
    "nodes",
    "step",
];

/// A series' heading: name, commits, steps.
fn heading(s: &Series) -> String {
    format!(
        "{} x {}: {} commit{}, {} node step{}, {} time step{}",
        s.corpus,
        s.solver,
        s.points.len(),
        plural(s.points.len()),
        s.node_steps.len(),
        plural(s.node_steps.len()),
        s.time_steps.len(),
        plural(s.time_steps.len()),
    )
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The series as text tables, one per corpus x solver, columns aligned.
pub fn text(series: &[Series], floor: f64) -> String {
    let mut out = String::new();
    for s in series {
        let _ = writeln!(out, "{}", heading(s));
        let mut rows = vec![HEADERS.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
        rows.extend((0..s.points.len()).map(|i| cells(s, i)));
        let widths: Vec<usize> = (0..HEADERS.len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        for row in rows {
            let mut line = String::from(" ");
            for (c, cell) in row.iter().enumerate() {
                let pad = widths[c] - cell.chars().count();
                match c {
                    0 | 6 => line.push_str(&format!(" {cell}{}", " ".repeat(pad))),
                    _ => line.push_str(&format!(" {}{cell}", " ".repeat(pad))),
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", legend(floor));
    out
}

/// The note under the tables: what the figures and steps are.
fn legend(floor: f64) -> String {
    format!(
        "mean: the mean solve time within budget (of the commit's runs' means); 95% interval: \
         each run's mean ± 1.96 sd/√n, the hull over the commit's runs. Steps: {METHOD} (A/A \
         floor {:.1}%).",
        floor * 100.0
    )
}

/// The series as Markdown: one table per corpus x solver, for a CI job
/// summary.
pub fn markdown(series: &[Series], floor: f64) -> String {
    let mut out = String::from("## Benchmark history\n\n");
    for s in series {
        let _ = writeln!(out, "### {}\n", heading(s));
        let _ = writeln!(out, "| {} |", HEADERS.join(" | "));
        let _ = writeln!(out, "|---|{}", "---:|".repeat(HEADERS.len() - 2) + "---|");
        for i in 0..s.points.len() {
            let row: Vec<String> = cells(s, i).iter().map(|c| c.replace('|', "\\|")).collect();
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", legend(floor));
    out
}

/// The series as the JSON document ([`HistoryJson`]).
pub fn json(database: &str, schema_version: u32, series: &[Series], floor: f64) -> HistoryJson {
    HistoryJson {
        format: HISTORY_FORMAT.to_string(),
        database: database.to_string(),
        schema_version,
        method: StepMethodJson {
            definition: METHOD.to_string(),
            floor,
            confidence: 0.95,
        },
        series: series.iter().map(series_json).collect(),
    }
}

fn series_json(s: &Series) -> SeriesJson {
    let step = |metric: &str, st: &Step| StepJson {
        metric: metric.to_string(),
        index: st.index,
        revision: s.points[st.index].revision.clone(),
        before: st.before,
        after: st.after,
        change_pct: st.change_pct(),
    };
    let mut steps: Vec<StepJson> = s.node_steps.iter().map(|st| step("nodes", st)).collect();
    steps.extend(s.time_steps.iter().map(|st| step("time", st)));
    steps.sort_by_key(|st| st.index);
    SeriesJson {
        corpus: s.corpus.clone(),
        solver: s.solver.clone(),
        points: s
            .points
            .iter()
            .map(|p| PointJson {
                revision: p.revision.clone(),
                runs: p.runs,
                started: p.started.clone(),
                cpu_model: p.cpu_model.clone(),
                puzzles: p.puzzles,
                timed: p.timed,
                mean_ns: p.time.map(|t| t.value),
                low_ns: p.time.map(|t| t.low),
                high_ns: p.time.map(|t| t.high),
                total_nodes: p.total_nodes,
                nodes_differ: p.nodes_differ,
            })
            .collect(),
        steps,
        outliers: s.outliers.clone(),
    }
}
