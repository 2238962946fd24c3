//! `history show --html FILE`: the dashboard, one self-contained page
//! (the run report's skeleton: no script, font or style from the
//! network) with one chart per corpus x solver over commits and the
//! table of its figures beneath.

use std::fmt::Write as _;

use super::render::{short, METHOD};
use super::series::Series;
use crate::plot::chart::{self, CommitSeries, DrawError};
use crate::plot::html;

/// A commit's label under a chart: its first 7 characters (git's short
/// hash), `*` for a dirty build.
fn label(revision: &str) -> String {
    let mut l: String = revision.chars().take(7).collect();
    if revision.ends_with("-dirty") {
        l.push('*');
    }
    l
}

/// The chart data of `s`.
fn commit_series(s: &Series) -> CommitSeries {
    CommitSeries {
        labels: s.points.iter().map(|p| label(&p.revision)).collect(),
        times: s
            .points
            .iter()
            .map(|p| p.time.map(|t| (t.value, t.low, t.high)))
            .collect(),
        nodes: s.points.iter().map(|p| p.total_nodes).collect(),
        time_steps: s.time_steps.iter().map(|st| st.index).collect(),
        node_steps: s.node_steps.iter().map(|st| st.index).collect(),
        outliers: s.outliers.clone(),
    }
}

/// The caption of `s`'s chart: its steps, in words.
fn caption(s: &Series) -> String {
    let name = |i: usize| short(&s.points[i].revision);
    let mut parts: Vec<String> = s
        .node_steps
        .iter()
        .map(|st| format!("nodes step at {}", name(st.index)))
        .collect();
    parts.extend(s.time_steps.iter().map(|st| match st.change_pct() {
        Some(p) => format!("time steps {p:+.1}% at {}", name(st.index)),
        None => format!("time steps at {}", name(st.index)),
    }));
    match parts.is_empty() {
        true => format!("{} x {}: no step", s.corpus, s.solver),
        false => format!("{} x {}: {}", s.corpus, s.solver, parts.join("; ")),
    }
}

/// The dashboard of `series` read from the database `database`, with the
/// A/A floor `floor` (a fraction).
pub fn page(database: &str, series: &[Series], floor: f64) -> Result<String, DrawError> {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>Benchmark history</h1>");
    let _ = writeln!(
        body,
        "<p class=\"muted\">{} ({} series). Steps: {} (A/A floor {:.1}%).</p>",
        html::escape(database),
        series.len(),
        html::escape(METHOD),
        floor * 100.0
    );
    for s in series {
        let title = format!("{} x {}", s.corpus, s.solver);
        let _ = writeln!(body, "<h2>{}</h2>", html::escape(&title));
        let svg = chart::over_commits(&title, &commit_series(s))?;
        body.push_str("<div class=\"grid\">\n");
        html::figure(&mut body, &svg, &caption(s), None);
        body.push_str("</div>\n");
        let headers: Vec<String> = ["commit", "runs", "mean", "95% interval", "nodes"]
            .iter()
            .map(|h| h.to_string())
            .collect();
        let rows: Vec<Vec<String>> = s
            .points
            .iter()
            .map(|p| {
                let (mean, interval) = match p.time {
                    Some(t) => (
                        crate::report::human_ns(t.value),
                        format!(
                            "{} to {}",
                            crate::report::human_ns(t.low),
                            crate::report::human_ns(t.high)
                        ),
                    ),
                    None => ("-".into(), "-".into()),
                };
                let nodes = p.total_nodes.map_or("-".into(), crate::report::thousands);
                vec![
                    short(&p.revision),
                    p.runs.to_string(),
                    mean,
                    interval,
                    nodes,
                ]
            })
            .collect();
        html::table(&mut body, None, &headers, &rows);
    }
    Ok(html::page("Benchmark history", &body))
}
