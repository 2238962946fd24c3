//! The report of an A/B as text: the A/A (if one ran), the ratios per
//! corpus and over all, the verdict, the work split, the node counts and
//! the layout ([`text`], and [`aa_text`] for an A/A alone), and the
//! progress lines on standard error ([`start_line`], [`pass_line`]).

use super::{AbResult, Options, Pair, PassReport, Ratio};
use crate::compare::{self, Cause, TimeVerdict};
use crate::report::thousands;
use crate::solvers::layout::{LayoutSummary, Randomised};

/// The line that starts an `ab` on standard error: who, on what, on how
/// many threads, until when.
pub fn start_line(pair: &Pair, corpora: &[&str], threads: usize, options: &Options) -> String {
    format!(
        "dlxbench ab: {} on {} ({} thread{}); until decided{} or {}",
        pair.words(),
        corpora.join(", "),
        threads,
        if threads == 1 { "" } else { "s" },
        match options.precision > 0.0 {
            true => format!(", +-{}", compare::render::percent(options.precision)),
            false => String::new(),
        },
        humantime::format_duration(options.max_time)
    )
}

/// The progress line of a pass as it ends (`aa_only`: the run is an A/A
/// alone).
pub fn pass_line(p: &PassReport, aa_only: bool) -> String {
    let phase = if p.aa || aa_only { "A/A " } else { "" };
    let this = p
        .pass_ratio
        .map_or_else(|| "-".to_string(), |r| format!("{r:.4}"));
    match p.warmup {
        true => format!(
            "{phase}pass {}: {this} (warm-up, not counted) ({:.1} s)",
            p.pass,
            p.elapsed.as_secs_f64()
        ),
        false => format!(
            "{phase}pass {}: {this}; B/A {} ({:.1} s)",
            p.pass,
            interval_text(&p.overall),
            p.elapsed.as_secs_f64()
        ),
    }
}

/// `1.0213 [1.0180, 1.0247] (+-0.33%), 6 pairs of passes, 1,465 puzzles`.
pub fn interval_text(r: &Ratio) -> String {
    let units = format!(
        "{} pair{} of passes",
        r.units,
        if r.units == 1 { "" } else { "s" }
    );
    match (r.interval, r.half_width()) {
        (Some(i), Some(h)) => format!(
            "{:.4} [{:.4}, {:.4}] (+-{:.2}%), {units}, {} puzzles",
            i.estimate,
            i.low,
            i.high,
            h * 100.0,
            thousands(r.puzzles as u64)
        ),
        _ => format!(
            "not enough data ({units}, {} puzzles)",
            thousands(r.puzzles as u64)
        ),
    }
}

/// The first line: who, how many passes, why they stopped.
fn headline(label: &str, r: &AbResult) -> String {
    format!(
        "{label}A = {}, B = {}: {} pass{} ({} warm-up) in {:.1} s on {} thread{}; stopped: {}\n",
        r.a,
        r.b,
        r.passes,
        if r.passes == 1 { "" } else { "es" },
        r.warmup_passes,
        r.elapsed.as_secs_f64(),
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        r.stop.words()
    )
}

/// The ratio rows: per corpus (when more than one) and over all.
fn rows(r: &AbResult, indent: &str) -> String {
    let rows: Vec<&Ratio> = match r.corpora.len() {
        1 => vec![&r.overall],
        _ => r.corpora.iter().chain([&r.overall]).collect(),
    };
    let width = rows.iter().map(|x| x.name.len()).max().unwrap_or(0);
    rows.iter()
        .map(|row| format!("{indent}{:width$}  B/A {}\n", row.name, interval_text(row)))
        .collect()
}

/// An A/A's lines: its ratio, its floor, and whether it gave a (false)
/// verdict at the threshold.
fn aa_lines(aa: &AbResult, options: &Options) -> String {
    let mut s = headline("A/A: ", aa);
    s.push_str(&rows(aa, "  "));
    let floor = aa.overall.floor();
    s.push_str(&match (floor, aa.verdict) {
        (None, _) => "  floor: not measured (too few passes in the time allowed)\n".into(),
        (Some(f), TimeVerdict::Regression | TimeVerdict::Improvement) => format!(
            "  A/A FALSE VERDICT: {} of {} against itself at threshold {}; floor {} (the \
             interval's larger distance from 1.0)\n",
            aa.verdict.words(),
            aa.a,
            compare::render::percent(options.threshold),
            percent2(f)
        ),
        (Some(f), _) => format!(
            "  floor: {} (the interval's larger distance from 1.0); no verdict, as it should be\n",
            percent2(f)
        ),
    });
    s
}

/// `1.62%`.
fn percent2(x: f64) -> String {
    format!("{:.2}%", x * 100.0)
}

/// The report of `ab B B --aa`: the A/A alone.
pub fn aa_text(r: &AbResult, options: &Options) -> String {
    let mut s = aa_lines(r, options);
    s.push_str(&nodes_lines(r));
    s
}

/// The report: the A/A (if any), the ratios, the verdict, the node counts.
pub fn text(r: &AbResult, options: &Options) -> String {
    let mut s = String::new();
    if let Some(aa) = &r.aa {
        s.push_str(&aa_lines(aa, options));
    }
    s.push_str(&headline("", r));
    s.push_str(&rows(r, "  "));
    let judged = compare::render::percent(r.judged_at);
    if let Some(floor) = r.floor.filter(|&f| f > options.threshold) {
        s.push_str(&format!(
            "threshold {} is below this machine's floor {} ({}): judged at {judged}\n",
            compare::render::percent(options.threshold),
            percent2(floor),
            match r.aa {
                Some(_) => "measured by the A/A above",
                None => "--floor",
            }
        ));
    }
    let change = r.overall.interval.map(|i| (i.estimate - 1.0) * 100.0);
    s.push_str(&match (r.verdict, change) {
        (TimeVerdict::Regression, Some(c)) => format!(
            "REGRESSION: B is {c:.2}% slower than A (the whole interval lies above +{judged})\n"
        ),
        (TimeVerdict::Improvement, Some(c)) => format!(
            "improvement: B is {:.2}% faster than A (the whole interval lies below -{judged})\n",
            -c
        ),
        (TimeVerdict::NotEnoughData, _) | (_, None) => format!(
            "no verdict: {} pair{} of passes, at least {} needed (--min-passes {}; more --max-time)\n",
            r.overall.units,
            if r.overall.units == 1 { "" } else { "s" },
            options.min_units(),
            options.min_passes
        ),
        _ => format!("no significant change (threshold {judged}: the interval reaches within it)\n"),
    });
    if let Some(work) = work_text(r) {
        s.push_str(&work);
        s.push('\n');
    }
    s.push_str(&nodes_lines(r));
    s
}

/// The node counts and outcomes.
fn nodes_lines(r: &AbResult) -> String {
    let n = &r.nodes;
    let mut s = match n.totals {
        None => "nodes: not recorded by both solvers\n".to_string(),
        Some((a, b)) if n.changed == 0 => {
            format!(
                "nodes: the same on every puzzle ({} in all)\n",
                thousands(a.max(b))
            )
        }
        Some((a, b)) => format!(
            "nodes: ALGORITHM CHANGE: {} puzzles differ (A {}, B {} in all)\n",
            thousands(n.changed),
            thousands(a),
            thousands(b)
        ),
    };
    if n.outcome_changed > 0 {
        s.push_str(&format!(
            "outcomes: {} puzzles with another status or solution count\n",
            thousands(n.outcome_changed)
        ));
    }
    s.push_str(&layout_text(r.layout.as_ref()));
    s
}

/// What the passes randomised of the layout: one line.
fn layout_text(layout: Option<&LayoutSummary>) -> String {
    let Some(layout) = layout else {
        return "layout: fixed (--fixed-layout): each library loaded once, buffers in place\n"
            .into();
    };
    let fixed = layout.fixed();
    if fixed.len() == layout.solvers.len() {
        return format!(
            "layout: not randomised: {} {} built in (run in this program's process, their code \
             where it was linked); to compare builds, load each build's libdlxbench.so with \
             --solver-lib\n",
            fixed.join(" and "),
            if fixed.len() == 1 { "is" } else { "are" }
        );
    }
    let aslr = match layout.aslr {
        Some(true) => "; ASLR on",
        Some(false) => "; ASLR OFF",
        None => "",
    };
    // Solvers randomised alike share their words.
    let mut parts: Vec<(Vec<&str>, Randomised)> = Vec::new();
    for s in &layout.solvers {
        match parts.iter_mut().find(|(_, r)| *r == s.randomised) {
            Some((names, _)) => names.push(&s.name),
            None => parts.push((vec![&s.name], s.randomised)),
        }
    }
    let parts: Vec<String> = parts
        .iter()
        .map(|(names, r)| format!("{}: {}", names.join(" and "), r.words()))
        .collect();
    format!(
        "layout: randomised per pass (seed {}{aslr}): {}\n",
        layout.seed,
        parts.join("; ")
    )
}

/// The split of the ratio in words, for the report: `work: the search
/// tree 1.000x, time per node 1.023x (over 1,000 puzzles): B is slower
/// per node`; `None` without a split.
fn work_text(r: &AbResult) -> Option<String> {
    let w = r.work?;
    let what = match (w.cause(), w.time > 1.0) {
        (None, _) => "neither moved",
        (Some(Cause::Tree), true) => "B is slower mostly because its search tree is larger",
        (Some(Cause::Tree), false) => "B is faster mostly because its search tree is smaller",
        (Some(Cause::PerNode), true) => "B is slower mostly per node",
        (Some(Cause::PerNode), false) => "B is faster mostly per node",
    };
    Some(format!(
        "work: {} (time = nodes x time per node, over {} puzzles): {what}",
        w.words(),
        thousands(w.puzzles)
    ))
}
