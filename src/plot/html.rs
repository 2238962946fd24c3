//! The HTML pages: one skeleton (styles for a light and a dark colour
//! scheme, nothing loaded from anywhere), and the run page's sections.

use std::fmt::Write as _;

use super::{picture_file, CorpusPictures, Recorded, MAX_POINTS, PICTURES};
use crate::report::{table, thousands};
use crate::results::{schema, CorpusState, DirState, ResultDir, RunInfo};

/// `text` with `&`, `<`, `>` and quotes escaped, for HTML text and
/// attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The styles: the system's colour scheme; the charts, drawn dark on white,
/// are inverted (hues kept) in a dark scheme.
const STYLE: &str = "\
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #5a5a5a; --rule: #d0d0d0; --head: #f2f2f2; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e6; --bg: #16181c; --muted: #a8a8a8; --rule: #3a3d44; --head: #22252b; }
  figure svg { filter: invert(0.92) hue-rotate(180deg); }
}
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--fg); background: var(--bg); margin: 2em auto; max-width: 1600px; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid var(--rule); padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .8em 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--rule); padding: .25em .6em; text-align: right; }
th { background: var(--head); } td:first-child, th:first-child { text-align: left; }
table.meta td { text-align: left; } table.meta td:first-child { color: var(--muted); }
code { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: .92em; }
.grid { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; max-width: 760px; flex: 1 1 560px; }
figure svg { width: 100%; height: auto; border: 1px solid var(--rule); }
figcaption, .muted { color: var(--muted); font-size: .9em; }
.problem { color: #c0392b; font-weight: 600; }
";

/// A whole page around `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"dlxbench {}\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n\
         </head>\n<body>\n{body}</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        escape(title)
    )
}

/// A table of `headers` and `rows` (cells as text, escaped here).
pub fn table(out: &mut String, class: Option<&str>, headers: &[String], rows: &[Vec<String>]) {
    match class {
        Some(c) => out.push_str(&format!("<table class=\"{c}\">\n")),
        None => out.push_str("<table>\n"),
    }
    if !headers.is_empty() {
        out.push_str("<tr>");
        for h in headers {
            let _ = write!(out, "<th>{}</th>", escape(h));
        }
        out.push_str("</tr>\n");
    }
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            match class {
                Some("meta") => {
                    let _ = write!(out, "<td>{}</td>", escape(cell));
                }
                _ => {
                    let _ = write!(out, "<td>{}</td>", escape(&bind_numbers(cell)));
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// `cell` with each space after a digit made a no-break space: a number
/// stays on one line with its unit or share (`77.2 µs`, `1,465 (100.0%)`)
/// when a narrow window wraps the table's cells.
fn bind_numbers(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len() + 4);
    let mut after_digit = false;
    for c in cell.chars() {
        out.push(match (c, after_digit) {
            (' ', true) => '\u{a0}',
            _ => c,
        });
        after_digit = c.is_ascii_digit();
    }
    out
}

/// An SVG chart inline, with a caption linking to its file (when it has
/// one beside the page).
pub fn figure(out: &mut String, svg: &str, caption: &str, file: Option<&str>) {
    out.push_str("<figure>\n");
    // The XML declaration, if any, does not belong inside HTML.
    let body = match svg.find("<svg") {
        Some(at) => &svg[at..],
        None => svg,
    };
    out.push_str(body);
    let _ = write!(out, "\n<figcaption>{}", escape(caption));
    if let Some(f) = file {
        let _ = write!(out, " (<a href=\"{0}\">{0}</a>)", escape(f));
    }
    out.push_str("</figcaption>\n</figure>\n");
}

/// `words` as a POSIX shell command line that pastes back: a word with
/// anything but letters, digits and `-_./=:,+@%` in it is single-quoted
/// (a `'` inside written `'\''`), an empty word is `''`.
pub fn shell_line(words: &[String]) -> String {
    words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
            match plain {
                true => w.clone(),
                false => format!("'{}'", w.replace('\'', "'\\''")),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The run's facts from `run.json`, as rows of a two-column table (a
/// fact the run does not have has no row).
fn metadata(run: &RunInfo) -> Vec<Vec<String>> {
    let facts = &run.facts;
    let rows = [
        ("dlxbench", version_text(run)),
        ("command line", Some(shell_line(&facts.command_line))),
        ("machine", facts.cpu_model.clone()),
        ("cores, threads", cores_text(run)),
        ("rustc", Some(run.rustc_version.clone())),
        ("kind, mode", Some(mode_text(run))),
        ("passes, warm-up, block", Some(passes_text(run))),
        ("shuffle seed", run.shuffle_seed.map(|s| s.to_string())),
        ("permute seed", run.permute_seed.map(|s| s.to_string())),
        ("shard", shard_text(run)),
        (
            "merged from",
            facts
                .merged_from
                .as_ref()
                .map(|a| format!("{} parts", a.len())),
        ),
        ("solvers", Some(solvers_text(run))),
        ("reference", run.reference.clone()),
        ("corpora", Some(corpora_text(run))),
        (
            "time",
            match (&facts.started, &facts.finished) {
                (Some(s), Some(f)) => Some(format!("{s} to {f}")),
                _ => None,
            },
        ),
    ];
    rows.into_iter()
        .filter_map(|(name, value)| value.map(|v| vec![name.to_string(), v]))
        .collect()
}

/// The dlxbench version of [`metadata`], with its git revision.
fn version_text(run: &RunInfo) -> Option<String> {
    run.dlxbench_version
        .clone()
        .map(|v| match &run.facts.git_revision {
            Some(rev) => format!("{v} ({rev})"),
            None => v,
        })
}

/// The cores and threads of [`metadata`], as far as they are known.
fn cores_text(run: &RunInfo) -> Option<String> {
    match (run.facts.cores, run.facts.threads) {
        (Some(c), Some(t)) => Some(format!("{c} cores, {t} threads")),
        (None, Some(t)) => Some(format!("{t} threads")),
        _ => None,
    }
}

/// The kind, mode and limit of [`metadata`].
fn mode_text(run: &RunInfo) -> String {
    let limit = run
        .limit
        .map_or("no limit".into(), |l| format!("limit {l}"));
    format!(
        "{}, {} ({limit})",
        run.kind,
        run.mode.as_deref().unwrap_or_default()
    )
}

/// The passes, warm-up and schedule block of [`metadata`].
fn passes_text(run: &RunInfo) -> String {
    format!(
        "{} passes, {} warm-up puzzles, blocks of {}",
        run.passes.unwrap_or(1),
        run.warmup.unwrap_or(0),
        run.schedule_block.map_or("?".into(), |b| b.to_string())
    )
}

/// The shard of [`metadata`]: its indices of its count.
fn shard_text(run: &RunInfo) -> Option<String> {
    run.facts.shard.as_ref().map(|s| {
        format!(
            "{} of {}",
            s.indices
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            s.count
        )
    })
}

/// The solvers of [`metadata`], each with its description.
fn solvers_text(run: &RunInfo) -> String {
    run.solvers
        .iter()
        .map(|s| format!("{} ({})", s.name, s.description))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The corpora of [`metadata`], each with its SHA-256.
fn corpora_text(run: &RunInfo) -> String {
    run.corpora
        .iter()
        .map(|c| {
            format!(
                "{} (SHA-256 {})",
                c.path.as_deref().unwrap_or(&c.name),
                c.sha256.as_deref().unwrap_or("?")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `report.html` of a run.
pub(super) fn run_page(run: &Recorded, corpora: &[CorpusPictures], no_rows: bool) -> String {
    let names: Vec<&str> = run.result.corpora.iter().map(|c| c.name.as_str()).collect();
    let title = format!("dlxbench: {}", names.join(", "));
    let mut body = format!("<h1>{}</h1>\n", escape(&title));
    if let Some(state) = run_state(&run.dir) {
        let _ = writeln!(
            body,
            "<p class=\"problem\" id=\"run-state\">{}</p>",
            escape(&state)
        );
    }
    problem_notes(&mut body, run);
    table(&mut body, Some("meta"), &[], &metadata(&run.dir.run));
    let tables = table::tables(&run.result, &run.config, &run.meta);
    let complete = run.dir.state.complete();
    for ((t, pictures), info) in tables.iter().zip(corpora).zip(&run.dir.run.corpora) {
        let _ = write!(body, "<h2>{}", escape(&t.title));
        if !complete || info.state() != CorpusState::Done {
            let _ = write!(body, " {}", state_badge(info.state()));
        }
        body.push_str("</h2>\n");
        if info.state() == CorpusState::Partial {
            let _ = writeln!(
                body,
                "<p class=\"problem\">Partial: {} of {} lines were run before the run stopped; \
                 the figures are of those lines only.</p>",
                thousands(info.lines_done),
                thousands(info.lines)
            );
        }
        table(&mut body, None, &t.headers, &t.rows);
        body.push_str("<div class=\"grid\">\n");
        for (name, svg) in PICTURES.iter().zip(&pictures.svgs) {
            if let Some(svg) = svg {
                let file = picture_file(&pictures.stem, name);
                figure(
                    &mut body,
                    svg,
                    caption(name, pictures.solved_from_rows),
                    Some(&file),
                );
            }
        }
        body.push_str("</div>\n");
        if let Some(costs) = &pictures.unit_cost {
            unit_cost_section(&mut body, costs);
        }
        if let Some(vbs) = &pictures.virtual_best {
            virtual_best_section(&mut body, vbs);
        }
        versus_section(&mut body, pictures, &run.meta.reference);
    }
    for info in &run.dir.not_run {
        let _ = writeln!(
            body,
            "<h2>{} {}</h2>\n<p class=\"problem\">{}</p>",
            escape(&info.name),
            state_badge(info.state()),
            match info.state() {
                CorpusState::Running =>
                    "No results: the corpus was in flight when the run \
                                         ended, and nothing of it was kept.",
                _ => "No results: the run ended before this corpus started.",
            }
        );
    }
    body.push_str("<h2>Notes</h2>\n<ul>\n");
    for n in table::notes(&run.result, &run.config, &run.meta) {
        let _ = writeln!(body, "<li>{}</li>", escape(&n));
    }
    let _ = writeln!(
        body,
        "<li>{}</li>",
        escape(&if no_rows {
            "No puzzles.csv: the scatter plots are left out.".to_string()
        } else {
            format!(
                "The scatter plots draw at most {} puzzles per corpus, shared among its \
                 solvers: the same puzzles for each, chosen by a fixed hash of their line numbers.",
                thousands(MAX_POINTS as u64)
            )
        })
    );
    body.push_str("</ul>\n");
    page(&title, &body)
}

/// The top of a run's page: the problems it found, the solves that failed.
fn problem_notes(body: &mut String, run: &Recorded) {
    if let Some(n) = Some(run.dir.run.problems).filter(|&n| n > 0) {
        let _ = writeln!(
            body,
            "<p class=\"problem\">The run found {n} problem(s) (solvers that disagreed or returned wrong solutions): see the terminal output or <code>summary.md</code>.</p>"
        );
    }
    let failed: u64 = run
        .result
        .corpora
        .iter()
        .flat_map(|c| &c.solvers)
        .map(|s| s.failed())
        .sum();
    if failed > 0 {
        let _ = writeln!(
            body,
            "<p class=\"problem\">{} solve(s) failed (a solver in its own process crashed, \
             timed out or broke the protocol): never counted as solved nor timed; each \
             puzzle's status and cause are in <code>puzzles.csv</code>, the solver's standard \
             error in its <code>solver-NAME.log</code>.</p>",
            thousands(failed)
        );
    }
}

/// A corpus's virtual best solver: its table, note and bands.
fn virtual_best_section(body: &mut String, vbs: &crate::versus::VirtualBest) {
    let _ = writeln!(
        body,
        "<h3>Virtual best solver: the fastest solver on each puzzle</h3>"
    );
    let (headers, rows) = crate::versus::render::vbs_rows(vbs);
    table(body, None, &headers, &rows);
    if let Some(note) = crate::versus::render::vbs_note(vbs) {
        let _ = writeln!(body, "<p class=\"muted\">{}.</p>", escape(&note));
    }
    if let Some((title, headers, rows)) = crate::versus::render::band_rows(vbs) {
        let _ = writeln!(body, "<p>{}</p>", escape(&title));
        table(body, None, &headers, &rows);
    }
}

/// A corpus's `reference`-against-each-solver scatter plots, if any.
fn versus_section(body: &mut String, pictures: &CorpusPictures, reference: &str) {
    if pictures.versus.is_empty() {
        return;
    }
    let _ = writeln!(
        body,
        "<h3>{} against each solver, puzzle by puzzle</h3>\n<div class=\"grid\">",
        escape(reference)
    );
    for (solver, svg) in &pictures.versus {
        let file = schema::versus_file(&pictures.stem, solver);
        let text = format!(
            "Each point a puzzle both solved: {reference}'s time across, {solver}'s up \
             (below the diagonal: {solver} faster; shaded: a tie, within a factor \
             {}). Puzzles only one solved are on the frame, not dropped. \
             `dlxbench versus RUN {reference} {solver}` gives the figures.",
            1.0 + crate::versus::DEFAULT_TIE,
        );
        figure(body, svg, &text, Some(&file));
    }
    body.push_str("</div>\n");
}

/// What the page says at its top of a run that is not complete (`None`
/// for a complete one): its state and every corpus asked for.
fn run_state(dir: &ResultDir) -> Option<String> {
    let what = match dir.state {
        DirState::Complete => return None,
        DirState::Interrupted => {
            "This run was interrupted (Ctrl-C or SIGTERM) before its end.".to_string()
        }
        DirState::Running { .. } => format!(
            "This run was still going when this page was drawn ({}): its results are those \
             of the corpora finished so far.",
            dir.state
        ),
        DirState::Died { .. } => format!(
            "This run died before its end ({}: a crash, a kill, or an exit inside a solver): \
             only the corpora done have results.",
            dir.state
        ),
    };
    let corpora: Vec<String> = dir
        .run
        .corpora
        .iter()
        .chain(&dir.not_run)
        .map(|c| match c.state() {
            CorpusState::Partial => format!(
                "{} partial ({} of {} lines)",
                c.name,
                thousands(c.lines_done),
                thousands(c.lines)
            ),
            CorpusState::Running => format!("{} running when it ended (no results)", c.name),
            CorpusState::NotStarted => format!("{} not started (no results)", c.name),
            CorpusState::Done => format!("{} done", c.name),
        })
        .collect();
    Some(format!("{what} Corpora: {}.", corpora.join("; ")))
}

/// A corpus's state beside its heading.
fn state_badge(state: CorpusState) -> String {
    let class = match state {
        CorpusState::Done => "muted",
        _ => "problem",
    };
    format!("<span class=\"{class}\">({})</span>", state.as_str())
}

/// Each solver's work against its cost per unit, under the cost chart
/// ([`crate::versus::unit_cost`]).
fn unit_cost_section(body: &mut String, costs: &crate::versus::UnitCost) {
    let (title, headers, rows) = crate::versus::render::unit_cost_rows(costs);
    let _ = writeln!(body, "<h3>Work against cost per unit</h3>");
    let _ = writeln!(body, "<p class=\"muted\">{}.</p>", escape(&title));
    table(body, None, &headers, &rows);
}

fn caption(picture: &str, solved_from_rows: bool) -> &'static str {
    match picture {
        "percentiles" => "Latency by percentile (HdrHistogram, exact over every timed puzzle).",
        "latency" if solved_from_rows => {
            "Puzzles solved within a time, of all the corpus's puzzles (puzzles.csv): over \
             budget, failed, wrong or not taken counts as not solved, so a curve that stops \
             below the dashed line left puzzles unsolved."
        }
        "latency" => {
            "Puzzles timed within a time, of all the corpus's puzzles (histograms: no \
             puzzles.csv, so every timed solve counts, answers of no solution and invalid \
             ones included)."
        }
        "cost" => {
            "Each point a puzzle: its search cost and its time (a sample); the table of work \
             against cost per unit below gives each solver's time per node over the puzzles it \
             solved."
        }
        _ => {
            "Speed relative to the reference: bars from the paired speed ratio (the table's \
             `vs` column, over the puzzles both solved) with its 95% interval, dots from the \
             latency percentiles."
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_stay_with_their_units() {
        assert_eq!(super::bind_numbers("77.2 µs"), "77.2\u{a0}µs");
        assert_eq!(super::bind_numbers("1,465 (100.0%)"), "1,465\u{a0}(100.0%)");
        // After a unit or a word, a line may still break.
        assert_eq!(
            super::bind_numbers("0.57x (0.55-0.60)"),
            "0.57x (0.55-0.60)"
        );
        assert_eq!(
            super::bind_numbers("locked (single best)"),
            "locked (single best)"
        );
    }

    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn command_lines_paste_back_into_a_shell() {
        let words: Vec<String> = [
            "dlxbench",
            "bench",
            "--solver-cmd",
            "py=python3 solver.py",
            "it's",
            "",
            "a/b.txt",
        ]
        .map(String::from)
        .to_vec();
        let line = shell_line(&words);
        assert_eq!(
            line,
            "dlxbench bench --solver-cmd 'py=python3 solver.py' 'it'\\''s' '' a/b.txt"
        );
        // A real shell reads the words back.
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' {line}"))
            .output()
            .unwrap();
        let back: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(back, words);
    }

    #[test]
    fn a_page_loads_nothing_from_anywhere() {
        let p = page("t <1>", "<p>x</p>\n");
        assert!(p.starts_with("<!DOCTYPE html>"));
        assert!(p.contains("<title>t &lt;1&gt;</title>"));
        assert!(!p.contains("http://") && !p.contains("https://"));
        assert!(!p.contains("<script") && !p.contains("<link"));
    }
}
