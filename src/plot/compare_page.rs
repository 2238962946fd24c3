//! `compare.html`: the page of a comparison of two runs (`dlxbench
//! compare`) or of a paired A/B (`dlxbench ab`). Per corpus x solver (or
//! per corpus, and over all, for an A/B), the distribution of per-puzzle
//! time ratios with the geometric mean and its bootstrap interval marked
//! and the threshold band shaded, beside the verdict and the deterministic
//! counters that changed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::chart::{self, RatioMarks};
use super::html::{escape, figure, page, table};
use super::PlotError;
use crate::ab::AbResult;
use crate::compare::render::percent;
use crate::compare::{Comparison, Interval, RatioHistogram, TimeVerdict};
use crate::report::thousands;

/// The share of the ratios a chart draws at most ([`RatioHistogram::drawn`]
/// also leaves out far outliers): the tails would stretch the axis until
/// the shift that matters, a few percent, is invisible.
const CENTRAL: f64 = 0.99;

/// One ratio to draw.
#[derive(Debug, Clone)]
struct Panel {
    title: String,
    histogram: Option<RatioHistogram>,
    interval: Option<Interval>,
    verdict: TimeVerdict,
}

fn fmt_ratio(i: Option<Interval>) -> (String, String) {
    match i {
        Some(i) => (
            format!("{:.4}", i.estimate),
            format!("{:.4} to {:.4}", i.low, i.high),
        ),
        None => ("n/a".into(), "n/a".into()),
    }
}

fn draw(panels: &[Panel], threshold: f64, body: &mut String) -> Result<(), PlotError> {
    body.push_str("<div class=\"grid\">\n");
    for p in panels {
        let Some(h) = &p.histogram else { continue };
        let Some((range, outside)) = h.drawn(CENTRAL) else {
            continue;
        };
        let bins: Vec<(f64, f64, u64)> = h.bins().map(|b| (b.low, b.high, b.count)).collect();
        let svg = chart::ratios(
            &p.title,
            &bins,
            RatioMarks {
                range,
                estimate: p.interval.map(|i| (i.estimate, i.low, i.high)),
                threshold,
            },
        )?;
        let mut caption = format!(
            "{} puzzles; verdict: {}.",
            thousands(h.count()),
            p.verdict.words()
        );
        if outside > 0 {
            let _ = write!(
                caption,
                " Drawn: at most the central {}% of the ratios, without outliers beyond \
                 three interquartile ranges ({} puzzles outside the axis).",
                CENTRAL * 100.0,
                thousands(outside)
            );
        }
        figure(body, &svg, &caption, None);
    }
    body.push_str("</div>\n");
    Ok(())
}

/// The page of a comparison of two runs.
pub fn comparison(c: &Comparison) -> Result<String, PlotError> {
    let title = format!(
        "dlxbench compare: {} against {}",
        c.current.path, c.baseline.path
    );
    let mut body = format!("<h1>{}</h1>\n", escape(&title));
    sides_table(&mut body, c);
    let _ = writeln!(
        body,
        "<p>Ratios are current / baseline (above 1: slower): the geometric mean of per-puzzle \
         ratios with a {:.0}% bootstrap interval where both runs have <code>puzzles.csv</code>. \
         Threshold {}: a regression only when the whole interval lies above 1 + threshold.</p>",
        c.options.confidence * 100.0,
        escape(&percent(c.options.threshold))
    );
    results_table(&mut body, c);
    if c.algorithm_changes() > 0 {
        let _ = writeln!(
            body,
            "<p class=\"problem\">{} corpus x solver pair(s) changed their deterministic counters \
             (nodes, updates, mems or outcomes): an algorithm change.</p>",
            c.algorithm_changes()
        );
    }
    for n in &c.notes {
        let _ = writeln!(body, "<p class=\"muted\">{}</p>", escape(n));
    }
    let panels: Vec<Panel> = c
        .results
        .iter()
        .map(|r| Panel {
            title: format!("{} / {}: current / baseline", r.corpus, r.solver),
            histogram: r.ratios.clone(),
            interval: r.time.interval,
            verdict: r.time.verdict,
        })
        .collect();
    if panels.iter().all(|p| p.histogram.is_none()) {
        body.push_str(
            "<p class=\"muted\">No per-puzzle ratios to draw: a side has no \
             <code>puzzles.csv</code>.</p>\n",
        );
    }
    draw(&panels, c.options.threshold, &mut body)?;
    Ok(page(&title, &body))
}

/// The table of [`comparison`]'s two runs: path, version, machine.
fn sides_table(body: &mut String, c: &Comparison) {
    let sides: Vec<Vec<String>> = [("baseline", &c.baseline), ("current", &c.current)]
        .iter()
        .map(|(name, s)| {
            vec![
                name.to_string(),
                s.path.clone(),
                s.version.clone().unwrap_or_default(),
                s.git_revision.clone().unwrap_or_default(),
                s.cpu_model.clone().unwrap_or_default(),
                s.started.clone().unwrap_or_default(),
                s.threads.map(|t| t.to_string()).unwrap_or_default(),
            ]
        })
        .collect();
    table(
        body,
        Some("meta"),
        &[
            "run", "path", "version", "revision", "machine", "started", "threads",
        ]
        .map(String::from),
        &sides,
    );
}

/// The table of [`comparison`]'s results, a row per corpus x solver.
fn results_table(body: &mut String, c: &Comparison) {
    let rows: Vec<Vec<String>> = c
        .results
        .iter()
        .map(|r| {
            let (est, int) = fmt_ratio(r.time.interval);
            let nodes = match r.counters.nodes {
                Some((b, n)) if b != n => format!("{} → {}", thousands(b), thousands(n)),
                Some((b, _)) => format!("{} (same)", thousands(b)),
                None => "not recorded".into(),
            };
            vec![
                r.corpus.clone(),
                r.solver.clone(),
                est,
                int,
                r.time.verdict.words().to_string(),
                nodes,
                thousands(r.counters.changes.puzzles_changed),
            ]
        })
        .collect();
    table(
        body,
        None,
        &[
            "corpus",
            "solver",
            "time ratio",
            "interval",
            "verdict",
            "nodes",
            "puzzles changed",
        ]
        .map(String::from),
        &rows,
    );
}

/// The page of a paired A/B with the gate's `threshold`.
pub fn ab(r: &AbResult, threshold: f64) -> Result<String, PlotError> {
    let title = format!("dlxbench ab: {} against {}", r.b, r.a);
    let mut body = format!("<h1>{}</h1>\n", escape(&title));
    ab_intro(&mut body, r, threshold);
    let all = std::iter::once(&r.overall).chain(&r.corpora);
    let rows: Vec<Vec<String>> = all
        .clone()
        .map(|x| {
            let (est, int) = fmt_ratio(x.interval);
            vec![x.name.clone(), thousands(x.puzzles as u64), est, int]
        })
        .collect();
    table(
        &mut body,
        None,
        &["puzzles of", "puzzles", "ratio", "interval"].map(String::from),
        &rows,
    );
    nodes_note(&mut body, r);
    if !r.discrepancies.is_empty() {
        let _ = writeln!(
            body,
            "<p class=\"problem\">{} problem(s): the solvers disagreed or returned wrong solutions.</p>",
            r.discrepancies.len()
        );
    }
    // With one corpus, "all" is that corpus: drawn once.
    let skip = usize::from(r.corpora.len() == 1);
    let panels: Vec<Panel> = all
        .skip(skip)
        .map(|x| Panel {
            title: format!("{}: {} / {}", x.name, r.b, r.a),
            histogram: Some(x.distribution.clone()),
            interval: x.interval,
            verdict: crate::compare::verdict(x.interval, threshold),
        })
        .collect();
    draw(&panels, threshold, &mut body)?;
    Ok(page(&title, &body))
}

/// [`ab`]'s opening: how the ratio is made, the verdict, and the A/A
/// check when there was one.
fn ab_intro(body: &mut String, r: &AbResult, threshold: f64) {
    let _ = writeln!(
        body,
        "<p>Ratio {b}/{a} (above 1: {b} is slower): per pass, the geometric mean of per-puzzle \
         ratios; over {units} pairs of passes ({passes} passes, {warmup} of warm-up not counted; \
         {stop}), their mean with a Student-t interval. Threshold {t}{judged}. Verdict: \
         <b>{v}</b>.</p>",
        a = escape(&r.a),
        b = escape(&r.b),
        units = r.overall.units,
        passes = r.passes,
        warmup = r.warmup_passes,
        stop = escape(r.stop.words()),
        t = escape(&percent(threshold)),
        judged = match r.judged_at > threshold {
            true => format!(
                ", judged at the noise floor {}",
                escape(&percent(r.judged_at))
            ),
            false => String::new(),
        },
        v = escape(r.verdict.words()),
    );
    if let Some(aa) = &r.aa {
        let _ = writeln!(
            body,
            "<p{cls}>A/A of {b} against a copy of itself first: ratio {ratio}; {what}.</p>",
            cls = if aa.false_verdict() {
                " class=\"problem\""
            } else {
                ""
            },
            b = escape(&aa.a),
            ratio = {
                let (e, i) = fmt_ratio(aa.overall.interval);
                escape(&format!("{e} {i}"))
            },
            what = match (aa.false_verdict(), aa.overall.floor()) {
                (true, _) => format!("a FALSE verdict ({})", escape(aa.verdict.words())),
                (false, Some(f)) => format!("floor {:.2}%", f * 100.0),
                (false, None) => "floor not measured".to_string(),
            },
        );
    }
}

/// [`ab`]'s note on the node counts: equal, different (an algorithm
/// change) or not recorded.
fn nodes_note(body: &mut String, r: &AbResult) {
    match r.nodes.totals {
        Some((a, b)) if a != b || r.nodes.changed > 0 => {
            let _ = writeln!(
                body,
                "<p class=\"problem\">Node counts differ: {} against {} in all, on {} puzzles (an algorithm change).</p>",
                thousands(a),
                thousands(b),
                thousands(r.nodes.changed)
            );
        }
        Some((a, _)) => {
            let _ = writeln!(
                body,
                "<p>Node counts equal: {} on both sides.</p>",
                thousands(a)
            );
        }
        None => body.push_str("<p class=\"muted\">Node counts: not recorded by both.</p>\n"),
    }
}

/// Writes a page to `path` atomically.
pub fn write(path: &Path, html: &str) -> Result<PathBuf, PlotError> {
    super::write(path, html)
}
