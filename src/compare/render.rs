//! Output formats of a [`Comparison`]: an aligned terminal table
//! ([`text`]), GitHub Markdown for a pull-request comment or a CI job
//! summary ([`markdown`]), and JSON for machines ([`json()`]).
//!
//! # JSON
//! [`json()`] makes the document as a [`CompareJson`]: its fields are
//! documented there and in `docs/file-formats.md` (format tag
//! `dlxbench-compare/1`).

use super::{
    Cause, Comparison, Counters, Method, PairResult, PuzzleChange, Scope, Side, TimeVerdict,
    WorkSplit,
};
use crate::report::thousands;
use crate::results::output::compare::{
    CompareJson, CounterChange, CountersJson, Example, Outcome, PairJson, ReadingJson, Settings,
    TimeJson, COMPARE_FORMAT,
};
use crate::results::output::{BaselineCurrent, CorpusSolver};

/// A titled table.
struct Table {
    title: String,
    headers: Vec<&'static str>,
    /// Columns whose cells are left-aligned (text); the others are numbers.
    text_columns: usize,
    rows: Vec<Vec<String>>,
}

fn pct_change(b: u64, c: u64) -> String {
    if b == c {
        "0".into()
    } else if b == 0 {
        "new".into()
    } else {
        let pct = (c as f64 - b as f64) * 100.0 / b as f64;
        if pct.abs() >= 0.01 {
            format!("{pct:+.2}%")
        } else {
            // A change of a few nodes in millions still shows.
            format!("{pct:+.1e}%")
        }
    }
}

/// `+3, +3.3e-4%`: the difference and its percentage.
fn diff_and_pct(b: u64, c: u64) -> String {
    let d = i128::from(c) - i128::from(b);
    let sign = if d >= 0 { "+" } else { "-" };
    format!(
        "{sign}{}, {}",
        thousands(d.unsigned_abs() as u64),
        pct_change(b, c)
    )
}

fn ratio(r: Option<f64>) -> String {
    r.map_or_else(|| "-".into(), |r| format!("{r:.3}"))
}

fn threshold_text(c: &Comparison) -> String {
    match c.options.floor {
        Some(f) => format!("{} (floor {})", percent(c.options.threshold), percent(f)),
        None => percent(c.options.threshold),
    }
}

/// A fraction as a percentage, without trailing zeros: `0.05` is `5%`,
/// `0.005` is `0.5%` (four decimals at most, so no `7.000000000000001%`).
pub fn percent(fraction: f64) -> String {
    let s = format!("{:.4}", fraction * 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}%")
}

fn counter_verdict(c: &Comparison, k: &Counters) -> &'static str {
    if k.scope == Scope::NotCompared {
        "not compared (partial)"
    } else if !k.changed() {
        "same"
    } else if !c.options.metric.gates_nodes() {
        "changed (not gating)"
    } else if c.options.allow_algorithm_change {
        "changed (allowed)"
    } else {
        "ALGORITHM CHANGE"
    }
}

/// The note on the `tree` and `per node` columns.
const WORK_NOTE: &str =
    "tree, per node: the time ratio split as time = search nodes x time per node, \
     geometric means over the puzzles timed in both with node counts (their product is the ratio); \
     a verdict says which moved more: the search tree (slower because the search grew) or the \
     time per node (slower per node)";

fn time_verdict(c: &Comparison, r: &PairResult) -> String {
    let v = r.time.verdict;
    let decided = matches!(v, TimeVerdict::Regression | TimeVerdict::Improvement);
    let words = if decided && !c.options.metric.gates_time() {
        format!("{} (not gating)", v.as_str())
    } else {
        v.words().into()
    };
    // What moved: the search tree, or the time per node.
    match (decided, r.work.and_then(|w| w.cause())) {
        (true, Some(Cause::Tree)) => format!("{words}: the search tree"),
        (true, Some(Cause::PerNode)) => format!("{words}: time per node"),
        _ => words,
    }
}

/// What the time interval holds and does not, and the floor: printed under
/// the time table.
pub fn floor_text(c: &Comparison) -> String {
    let floor = match c.options.floor {
        Some(f) if f > c.options.threshold => format!(
            "the floor given (--floor {}) is above the threshold: time verdicts use the floor",
            percent(f)
        ),
        Some(f) => format!("the floor given is --floor {}", percent(f)),
        None => "this floor is unknown here: measure it with `dlxbench ab --aa` (or two runs of \
                 the same code) and give it with --floor PCT"
            .into(),
    };
    format!(
        "the interval holds the noise within each run (blocks of {} puzzles solved back to back), \
         not the noise between the two runs (code layout, the machine's state): a time threshold \
         must exceed that run-to-run floor; {floor}",
        c.block
    )
}

/// Whether any corpus x solver compared mems (both runs recorded them):
/// only then do the tables show them.
fn any_mems(c: &Comparison) -> bool {
    c.results.iter().any(|r| r.counters.mems.is_some())
}

fn counters_table(c: &Comparison) -> Table {
    let mems = any_mems(c);
    let rows = c
        .results
        .iter()
        .map(|r| {
            let k = &r.counters;
            let recorded = |pair: Option<(u64, u64)>| match pair {
                Some((b, cur)) => (thousands(b), thousands(cur), pct_change(b, cur)),
                None => ("-".into(), "-".into(), "not recorded".into()),
            };
            let (nb, nc, nd) = recorded(k.nodes);
            let (ub, uc, ud) = recorded(k.updates);
            let mut row = vec![
                r.corpus.clone(),
                r.solver.clone(),
                thousands(k.counts.1.puzzles),
                nb,
                nc,
                nd,
                ub,
                uc,
                ud,
            ];
            if mems {
                let (mb, mc, md) = recorded(k.mems);
                row.extend([mb, mc, md]);
            }
            row.push(match k.scope {
                Scope::PerPuzzle => thousands(k.changes.puzzles_changed),
                Scope::Totals | Scope::NotCompared => "-".into(),
            });
            row.push(counter_verdict(c, k).into());
            row
        })
        .collect();
    let mut headers = vec![
        "corpus",
        "solver",
        "puzzles",
        "nodes before",
        "nodes now",
        "change",
        "updates before",
        "updates now",
        "change",
    ];
    if mems {
        headers.extend(["mems before", "mems now", "change"]);
    }
    headers.extend(["puzzles changed", "result"]);
    Table {
        title:
            "Deterministic counters (identical for the same corpus, solver and mode on any machine)"
                .into(),
        headers,
        text_columns: 2,
        rows,
    }
}

fn time_table(c: &Comparison) -> Table {
    let rows = c
        .results
        .iter()
        .map(|r| {
            let t = &r.time;
            let (est, interval, change) = match t.interval {
                Some(i) => (
                    format!("{:.3}", i.estimate),
                    format!("{:.3} - {:.3}", i.low, i.high),
                    format!("{:+.1}%", (i.estimate - 1.0) * 100.0),
                ),
                None => ("-".into(), "-".into(), "-".into()),
            };
            vec![
                r.corpus.clone(),
                r.solver.clone(),
                match t.method {
                    Some(Method::PairedBlocks) => "blocks".into(),
                    Some(Method::PairedPuzzles) => "puzzles+".into(),
                    Some(Method::RatioOfMeansNormal) => "means*".into(),
                    None => "-".into(),
                },
                thousands(t.puzzles),
                est,
                interval,
                change,
                ratio(r.reading.p50),
                ratio(r.reading.p99),
                ratio(r.reading.throughput),
                ratio(r.work.map(|w| w.nodes)),
                ratio(r.work.map(|w| w.per_node)),
                time_verdict(c, r),
            ]
        })
        .collect();
    Table {
        title: format!(
            "Time: current / baseline, geometric mean of per-puzzle times, {:.0}% interval from a bootstrap over blocks of {} lines ({} resamples, seed {})",
            c.options.confidence * 100.0,
            c.block,
            thousands(c.options.resamples as u64),
            c.options.seed
        ),
        headers: vec![
            "corpus",
            "solver",
            "method",
            "puzzles",
            "ratio",
            "interval",
            "change",
            "p50",
            "p99",
            "throughput",
            "tree",
            "per node",
            "verdict",
        ],
        text_columns: 3,
        rows,
    }
}

/// Lines describing the changed puzzles and counts of each changed
/// corpus x solver.
fn change_details(c: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    for r in c.results.iter().filter(|r| r.counters.changed()) {
        let k = &r.counters;
        let mut head = format!("{} x {}:", r.corpus, r.solver);
        let totals = [("nodes", k.nodes), ("updates", k.updates), ("mems", k.mems)];
        for (name, (b, cur)) in totals.into_iter().filter_map(|(n, t)| Some((n, t?))) {
            if b != cur {
                head.push_str(&format!(
                    " total {name} {} -> {} ({});",
                    thousands(b),
                    thousands(cur),
                    diff_and_pct(b, cur)
                ));
            }
        }
        if k.scope == Scope::PerPuzzle {
            // Mems are named only where both runs recorded them.
            let mems = match k.mems {
                Some(_) => format!(", mems {}", thousands(k.changes.mems_changed)),
                None => String::new(),
            };
            head.push_str(&format!(
                " {} of {} puzzles changed (nodes {}, updates {}{mems}, status or solutions {})",
                thousands(k.changes.puzzles_changed),
                thousands(k.changes.compared),
                thousands(k.changes.nodes_changed),
                thousands(k.changes.updates_changed),
                thousands(k.changes.outcome_changed)
            ));
        }
        out.push(head.trim_end_matches(';').to_string());
        let (b, cur) = (&k.counts.0, &k.counts.1);
        if b != cur {
            let parts: Vec<String> = (b.named().into_iter().zip(cur.named()))
                .filter(|((_, x), (_, y))| x != y)
                .map(|((name, x), (_, y))| format!("{name} {} -> {}", thousands(x), thousands(y)))
                .collect();
            out.push(format!("  outcomes: {}", parts.join(", ")));
        }
        if k.changes.only_in_baseline + k.changes.only_in_current > 0 {
            out.push(format!(
                "  puzzle lines only in the baseline: {}, only in the current run: {}",
                thousands(k.changes.only_in_baseline),
                thousands(k.changes.only_in_current)
            ));
        }
        out.extend(k.examples.iter().map(example_line));
        if k.changes.puzzles_changed > k.examples.len() as u64 {
            out.push(format!(
                "  ... and {} more",
                thousands(k.changes.puzzles_changed - k.examples.len() as u64)
            ));
        }
    }
    out
}

/// One changed puzzle's line: what differs between its two rows.
fn example_line(e: &PuzzleChange) -> String {
    let (x, y) = (&e.baseline, &e.current);
    let mut parts = Vec::new();
    if x.nodes != y.nodes {
        let shown = |n: Option<u64>| n.map_or_else(|| "not recorded".into(), thousands);
        parts.push(format!("nodes {} -> {}", shown(x.nodes), shown(y.nodes)));
    }
    if let (Some(u), Some(v)) = (x.updates, y.updates) {
        if u != v {
            parts.push(format!("updates {} -> {}", thousands(u), thousands(v)));
        }
    }
    if let (Some(u), Some(v)) = (x.mems, y.mems) {
        if u != v {
            parts.push(format!("mems {} -> {}", thousands(u), thousands(v)));
        }
    }
    if x.status != y.status {
        parts.push(format!(
            "status {} -> {}",
            x.status.as_str(),
            y.status.as_str()
        ));
    }
    if x.solutions != y.solutions {
        parts.push(format!("solutions {} -> {}", x.solutions, y.solutions));
    }
    format!("  line {}: {}", x.line, parts.join(", "))
}

/// `corpus (solver, solver), corpus (solver)`.
fn grouped(pairs: &[(String, String)]) -> String {
    let mut corpora: Vec<(&str, Vec<&str>)> = Vec::new();
    for (corpus, solver) in pairs {
        match corpora.iter_mut().find(|(c, _)| c == corpus) {
            Some((_, s)) => s.push(solver),
            None => corpora.push((corpus, vec![solver])),
        }
    }
    corpora
        .iter()
        .map(|(c, s)| format!("{c} ({})", s.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

fn side_text(s: &Side) -> String {
    let mut parts = Vec::new();
    if let Some(r) = &s.git_revision {
        parts.push(format!("rev {}", &r[..r.len().min(12)]));
    }
    if let Some(t) = &s.started {
        parts.push(t.clone());
    }
    if let Some(t) = s.threads {
        parts.push(format!("{t} threads"));
    }
    if parts.is_empty() {
        s.path.clone()
    } else {
        format!("{} ({})", s.path, parts.join(", "))
    }
}

fn gating_text(c: &Comparison) -> String {
    if !c.times_comparable() {
        return "nodes gate; times not comparable (another CPU): reported, not judged".into();
    }
    match c.options.metric {
        super::Metric::Both | super::Metric::Time => "nodes and time gate".into(),
        super::Metric::Nodes => "nodes gate; time is reported, not gating".into(),
    }
}

fn settings_line(c: &Comparison) -> String {
    format!(
        "mode {}; threshold {}; {}{}",
        c.mode.as_deref().unwrap_or("unknown"),
        threshold_text(c),
        gating_text(c),
        if c.options.allow_algorithm_change {
            "; algorithm changes allowed"
        } else {
            ""
        }
    )
}

fn outcome_line(c: &Comparison) -> String {
    let changes = c.algorithm_changes();
    let regressions = c.count(TimeVerdict::Regression);
    let improvements = c.count(TimeVerdict::Improvement);
    let counts = if !c.times_comparable() {
        format!(
            "{} algorithm change{}; times not comparable (another CPU)",
            changes,
            plural(changes)
        )
    } else if c.options.metric.gates_time() {
        format!(
            "{} algorithm change{}, {} time regression{}, {} improvement{}",
            changes,
            plural(changes),
            regressions,
            plural(regressions),
            improvements,
            plural(improvements)
        )
    } else {
        format!(
            "{} algorithm change{}; time not gating",
            changes,
            plural(changes)
        )
    };
    if c.failed() {
        let mut why = Vec::new();
        if c.algorithm_change_fails() {
            why.push("node counts changed: if intended, pass --allow-algorithm-change and refresh the baseline");
        }
        if c.time_regression_fails() {
            why.push("slower beyond the threshold");
        }
        format!("FAILED ({counts}): {}", why.join("; "))
    } else {
        format!("OK ({counts})")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn render_aligned(t: &Table, out: &mut String) {
    let mut w: Vec<usize> = t.headers.iter().map(|h| h.chars().count()).collect();
    for row in &t.rows {
        for (i, cell) in row.iter().enumerate() {
            w[i] = w[i].max(cell.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from(" ");
        for (i, cell) in cells.enumerate() {
            let fill = " ".repeat(w[i] - cell.chars().count());
            s.push(' ');
            // The last column is text too (the verdict).
            if i < t.text_columns || i + 1 == w.len() {
                s.push_str(cell);
                s.push_str(&fill);
            } else {
                s.push_str(&fill);
                s.push_str(cell);
            }
            s.push(' ');
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    out.push_str(&t.title);
    out.push('\n');
    out.push_str(&line(&mut t.headers.iter().copied()));
    for row in &t.rows {
        out.push_str(&line(&mut row.iter().map(String::as_str)));
    }
}

/// Whether any result's time interval was made by `method` (a footnote
/// says so).
fn uses(c: &Comparison, method: Method) -> bool {
    c.results.iter().any(|r| r.time.method == Some(method))
}

/// The terminal rendering.
pub fn text(c: &Comparison) -> String {
    let mut out = String::new();
    out.push_str(&format!("baseline: {}\n", side_text(&c.baseline)));
    out.push_str(&format!("current:  {}\n", side_text(&c.current)));
    out.push_str(&settings_line(c));
    out.push_str("\n\n");
    if c.results.is_empty() {
        out.push_str("No corpus x solver is present in both runs.\n\n");
    } else {
        render_aligned(&counters_table(c), &mut out);
        for l in change_details(c) {
            out.push_str("  ");
            out.push_str(&l);
            out.push('\n');
        }
        out.push('\n');
        render_aligned(&time_table(c), &mut out);
        if uses(c, Method::RatioOfMeansNormal) {
            out.push_str(
                "  * ratio of mean times with a normal-approximation interval: no per-puzzle times on one side\n",
            );
        }
        if uses(c, Method::PairedPuzzles) {
            out.push_str(&format!(
                "  + fewer puzzles than one block ({}): the interval is over puzzles, without the noise a block shares\n",
                c.block
            ));
        }
        out.push_str("  p50, p99: latency ratios; throughput: puzzles/s ratio (above 1 is faster); for reading only\n");
        out.push_str(&format!("  {WORK_NOTE}\n"));
        out.push_str(&format!("  Time: {}\n\n", floor_text(c)));
    }
    if !c.only_in_baseline.is_empty() {
        out.push_str(&format!(
            "Only in the baseline: {}\n",
            grouped(&c.only_in_baseline)
        ));
    }
    if !c.only_in_current.is_empty() {
        out.push_str(&format!(
            "Only in the current run: {}\n",
            grouped(&c.only_in_current)
        ));
    }
    for n in &c.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out.push_str(&outcome_line(c));
    out.push('\n');
    out
}

fn md_escape(cell: &str) -> String {
    cell.replace('|', "\\|")
}

fn render_markdown_table(t: &Table, out: &mut String) {
    out.push_str(&format!(
        "| {} |\n",
        t.headers
            .iter()
            .map(|h| md_escape(h))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    let align: Vec<&str> = (0..t.headers.len())
        .map(|i| {
            if i < t.text_columns || i + 1 == t.headers.len() {
                "---"
            } else {
                "---:"
            }
        })
        .collect();
    out.push_str(&format!("|{}|\n", align.join("|")));
    for row in &t.rows {
        out.push_str(&format!(
            "| {} |\n",
            row.iter()
                .map(|c| md_escape(c))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
}

/// GitHub Markdown, for a pull-request comment or `$GITHUB_STEP_SUMMARY`.
pub fn markdown(c: &Comparison) -> String {
    let mut out = String::from("## dlxbench compare\n\n");
    out.push_str(&format!("**{}**\n\n", md_escape(&outcome_line(c))));
    out.push_str(&format!(
        "- baseline: `{}`\n- current: `{}`\n- {}\n\n",
        side_text(&c.baseline),
        side_text(&c.current),
        settings_line(c)
    ));
    if !c.results.is_empty() {
        let t = counters_table(c);
        out.push_str(&format!("### {}\n\n", t.title));
        render_markdown_table(&t, &mut out);
        let details = change_details(c);
        if !details.is_empty() {
            out.push_str("\n```text\n");
            for l in details {
                out.push_str(&l);
                out.push('\n');
            }
            out.push_str("```\n");
        }
        out.push('\n');
        let t = time_table(c);
        out.push_str(&format!("### {}\n\n", t.title));
        render_markdown_table(&t, &mut out);
        out.push_str("\np50, p99: latency ratios; throughput: puzzles/s ratio (above 1 is faster); for reading only.");
        out.push_str(&format!("\n{WORK_NOTE}"));
        if uses(c, Method::RatioOfMeansNormal) {
            out.push_str(" \\* ratio of mean times with a normal-approximation interval (no per-puzzle times on one side).");
        }
        if uses(c, Method::PairedPuzzles) {
            out.push_str(&format!(
                " \\+ fewer puzzles than one block ({}): the interval is over puzzles, without the noise a block shares.",
                c.block
            ));
        }
        out.push_str(&format!("\n\nTime: {}.\n\n", md_escape(&floor_text(c))));
    }
    if !c.only_in_baseline.is_empty() {
        out.push_str(&format!(
            "- Only in the baseline: {}\n",
            md_escape(&grouped(&c.only_in_baseline))
        ));
    }
    if !c.only_in_current.is_empty() {
        out.push_str(&format!(
            "- Only in the current run: {}\n",
            md_escape(&grouped(&c.only_in_current))
        ));
    }
    for n in &c.notes {
        out.push_str(&format!("- Note: {}\n", md_escape(n)));
    }
    out
}

/// The JSON document ([`CompareJson`]; fields in the module
/// documentation).
pub fn json(c: &Comparison) -> CompareJson {
    CompareJson {
        format: COMPARE_FORMAT.into(),
        baseline: c.baseline.clone(),
        current: c.current.clone(),
        settings: Settings {
            threshold_pct: c.options.threshold * 100.0,
            floor_pct: c.options.floor.map(|f| f * 100.0),
            block: c.block as u64,
            metric: c.options.metric.as_str().into(),
            allow_algorithm_change: c.options.allow_algorithm_change,
            bootstrap_resamples: c.options.resamples as u64,
            seed: c.options.seed,
            confidence: c.options.confidence,
        },
        mode: c.mode.clone(),
        results: c.results.iter().map(pair_json).collect(),
        only_in_baseline: CorpusSolver::list(&c.only_in_baseline),
        only_in_current: CorpusSolver::list(&c.only_in_current),
        notes: c.notes.clone(),
        times_comparable: c.times_comparable(),
        other_cpu: c
            .other_cpu
            .clone()
            .map(|(baseline, current)| BaselineCurrent { baseline, current }),
        outcome: Outcome {
            algorithm_changes: c.algorithm_changes() as u64,
            time_regressions: c.count(TimeVerdict::Regression) as u64,
            time_improvements: c.count(TimeVerdict::Improvement) as u64,
            failed: c.failed(),
            exit_status: u8::from(c.failed()),
        },
    }
}

/// One corpus x solver of [`json()`].
fn pair_json(r: &PairResult) -> PairJson {
    PairJson {
        corpus: r.corpus.clone(),
        solver: r.solver.clone(),
        counters: counters_json(&r.counters),
        time: TimeJson {
            method: r.time.method.map(|m| m.as_str().into()),
            puzzles: r.time.puzzles,
            ratio: r.time.interval.map(|i| i.estimate),
            low: r.time.interval.map(|i| i.low),
            high: r.time.interval.map(|i| i.high),
            verdict: r.time.verdict.as_str().into(),
            work: r.work.as_ref().map(WorkSplit::json),
        },
        reading: ReadingJson {
            p50_ratio: r.reading.p50,
            p99_ratio: r.reading.p99,
            throughput_ratio: r.reading.throughput,
        },
    }
}

fn counters_json(k: &Counters) -> CountersJson {
    let scope = match k.scope {
        Scope::PerPuzzle => "per_puzzle",
        Scope::Totals => "totals",
        Scope::NotCompared => "not_compared",
    };
    CountersJson {
        scope: scope.into(),
        changed: k.changed(),
        nodes: k.nodes.map(CounterChange::of),
        updates: k.updates.map(CounterChange::of),
        mems: k.mems.map(CounterChange::of),
        counts: BaselineCurrent {
            baseline: k.counts.0,
            current: k.counts.1,
        },
        changes: k.changes,
        examples: k.examples.iter().map(example_json).collect(),
    }
}

fn example_json(e: &PuzzleChange) -> Example {
    let (x, y) = (&e.baseline, &e.current);
    Example {
        line: x.line,
        nodes: [x.nodes, y.nodes],
        updates: x.updates.zip(y.updates).map(|(u, v)| [u, v]),
        mems: x.mems.zip(y.mems).map(|(u, v)| [u, v]),
        status: [x.status.as_str().into(), y.status.as_str().into()],
        solutions: [x.solutions, y.solutions],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_keep_their_digits() {
        assert_eq!(pct_change(100, 100), "0");
        assert_eq!(pct_change(0, 5), "new");
        assert_eq!(pct_change(200, 150), "-25.00%");
        assert_eq!(pct_change(899_643, 899_646), "+3.3e-4%");
        assert_eq!(diff_and_pct(899_643, 899_646), "+3, +3.3e-4%");
        assert_eq!(diff_and_pct(10, 5), "-5, -50.00%");
    }
}
