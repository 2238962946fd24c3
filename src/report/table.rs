//! The side-by-side table of solvers per corpus, for the terminal and (via
//! [`super::markdown`]) for Markdown.

use super::{
    describe_budget, human_ns, human_ns3, human_rate, reference_index, thousands, RunMeta,
};
use crate::harness::own_time::OwnTimeCheck;
use crate::harness::unit_cost::{SolverCost, UNITS};
use crate::harness::{Config, CorpusResult, NoRatio, RunResult, Speed, MIN_COMMON};
use crate::results::RoundTripFloor;

/// Corpora smaller than this get no reader throughput in the notes.
const READER_MIN_BYTES: u64 = 1 << 20;

/// Column headers.
pub const HEADERS: [&str; 14] = [
    "solver",
    "puzzles",
    "solved",
    "no solution",
    "multiple",
    "budget",
    "mean",
    "p50",
    "p90",
    "p99",
    "p99.9",
    "max",
    "puzzles/s",
    "speed",
];

/// One corpus's table: a title and rows of cells.
#[derive(Debug, Clone)]
pub struct CorpusTable {
    /// A line about the corpus.
    pub title: String,
    /// Header cells (the last one names the reference).
    pub headers: Vec<String>,
    /// One row per solver.
    pub rows: Vec<Vec<String>>,
}

/// Builds the tables, one per corpus.
pub fn tables(run: &RunResult, config: &Config, meta: &RunMeta) -> Vec<CorpusTable> {
    let reference = reference_index(config, meta);
    run.corpora
        .iter()
        .map(|c| corpus_table(c, reference, meta))
        .collect()
}

fn corpus_table(c: &CorpusResult, reference: usize, meta: &RunMeta) -> CorpusTable {
    let mut title = format!(
        "{}: {} puzzles, {} KiB",
        c.name,
        thousands(c.puzzles),
        thousands(c.bytes.div_ceil(1024))
    );
    if c.malformed > 0 {
        title.push_str(&format!(
            ", {} malformed lines skipped",
            thousands(c.malformed)
        ));
    }
    if c.allow_zero {
        title.push_str(", ALLOWZERO (unsolvable puzzles expected)");
    }
    if !c.complete() {
        title.push_str(&format!(
            " (interrupted: {} of {} lines run)",
            thousands(c.lines_done),
            thousands(c.lines)
        ));
    }
    let mut headers: Vec<String> = HEADERS.iter().map(|h| h.to_string()).collect();
    headers[13] = format!("vs {}", meta.reference);
    let speeds = c.speeds(reference);
    let rows = c
        .solvers
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let lat = |q: f64| {
                if s.timed() == 0 {
                    "-".to_string()
                } else {
                    human_ns(s.quantile_ns(q) as f64)
                }
            };
            let rate = s.puzzles_per_s(c.workers);
            vec![
                s.name.to_string(),
                // A solver that took none of the corpus's puzzles.
                if s.puzzles == 0 && s.not_applicable > 0 {
                    "n/a".into()
                } else {
                    thousands(s.puzzles)
                },
                thousands(s.solved),
                thousands(s.unsolvable),
                thousands(s.multiple),
                thousands(s.budget),
                if s.timed() == 0 {
                    "-".into()
                } else {
                    human_ns(s.mean_ns())
                },
                lat(0.5),
                lat(0.9),
                lat(0.99),
                lat(0.999),
                if s.timed() == 0 {
                    "-".into()
                } else {
                    human_ns(s.max_ns() as f64)
                },
                rate.map_or_else(|| "-".into(), human_rate),
                speeds.get(i).map_or_else(|| "-".into(), speed_cell),
            ]
        })
        .collect::<Vec<Vec<String>>>();
    let mut table = CorpusTable {
        title,
        headers,
        rows,
    };
    add_failure_columns(&mut table, c);
    table
}

/// With failed solves in the corpus (solvers in their own processes), a
/// `failed` column after `budget` (crashed, timeout and protocol-error
/// puzzles), and a `skipped` one when some were skipped; without, the
/// table is as it always was.
fn add_failure_columns(table: &mut CorpusTable, c: &CorpusResult) {
    let failed = c.solvers.iter().any(|s| s.failed() > 0);
    let skipped = c.solvers.iter().any(|s| s.skipped > 0);
    let at = HEADERS.iter().position(|h| *h == "budget").unwrap_or(5) + 1;
    if skipped {
        table.headers.insert(at, "skipped".into());
        for (row, s) in table.rows.iter_mut().zip(&c.solvers) {
            row.insert(at, thousands(s.skipped));
        }
    }
    if failed || skipped {
        table.headers.insert(at, "failed".into());
        for (row, s) in table.rows.iter_mut().zip(&c.solvers) {
            row.insert(at, thousands(s.failed()));
        }
    }
}

/// The note on solvers in their own processes, if the run has any: what
/// their latencies are (their own reported time, or the round trip) and
/// their mean round trip, and the round-trip floor measured before the
/// run (`floor`), when there is one.
fn process_note(
    run: &RunResult,
    config: &Config,
    floor: Option<&RoundTripFloor>,
) -> Option<String> {
    let (mut parts, mut any_trips) = (Vec::new(), false);
    for (i, name) in config.solvers().iter().enumerate() {
        let (mut own, mut trips, mut sum, mut timed) = (0u64, 0u64, 0u128, 0u64);
        for c in &run.corpora {
            if let Some(s) = c.solvers.get(i) {
                own += s.own_timed;
                trips += s.round_trip_timed;
                sum += s.round_trip_ns;
                timed += s.histogram.len();
            }
        }
        let is_process = config.log_files().get(i).is_some_and(Option::is_some);
        if own + trips == 0 && !is_process {
            continue;
        }
        let source = match (own, trips) {
            // An isolated library: its host reads the clock around the
            // call, as in process (no round trips recorded).
            (0, 0) if timed > 0 => "each call's time as its host reads it".to_string(),
            (0, 0) => "nothing timed".to_string(),
            (_, 0) => "its own times (ns=)".to_string(),
            (0, _) => "round trips".to_string(),
            _ => format!("its own times (ns=) for {own} puzzles, round trips for {trips}"),
        };
        let checks = own_time_verdicts(run, i);
        any_trips |= own + trips > 0;
        match own + trips {
            0 => parts.push(format!("{name}: {source}")),
            n => parts.push(format!(
                "{name}: {source}{checks}, mean round trip {}",
                human_ns(sum as f64 / n as f64)
            )),
        }
    }
    (!parts.is_empty()).then(|| {
        let floor = floor.map_or(String::new(), |f| {
            format!(
                "; the pipe's floor here {} p50, {} mean, measured with a solver that answers \
                 at once over {} requests",
                human_ns(f.p50_ns as f64),
                human_ns(f.mean_ns),
                thousands(f.requests)
            )
        });
        // What a round trip is, where one is quoted (an isolated library's
        // host reads the call's time itself: none is).
        let trip = match any_trips || !floor.is_empty() {
            true => format!(" (round trip: request written to response read{floor})"),
            false => String::new(),
        };
        format!(
            "Solvers in their own processes: latencies are {}{trip}.",
            parts.join("; ")
        )
    })
}

/// The failed warm-up solves: untimed, without a record of their own, so
/// said here (and counted among the failed solves).
fn warm_up_notes(run: &RunResult) -> Vec<String> {
    let mut notes = Vec::new();
    for c in &run.corpora {
        for s in c.solvers.iter().filter(|s| s.warm_up_failed > 0) {
            notes.push(format!(
                "{}: {} failed {} untimed warm-up solve{} (counted among the failed solves; \
                 problems.txt has the first).",
                c.name,
                s.name,
                s.warm_up_failed,
                if s.warm_up_failed == 1 { "" } else { "s" }
            ));
        }
    }
    notes
}

/// The failed solves of symmetry images 1 to K-1 (`--images`): rows of
/// `images.csv`, not of the table, so said here (and counted among the
/// failed solves).
fn image_failure_notes(run: &RunResult) -> Vec<String> {
    let mut notes = Vec::new();
    for c in &run.corpora {
        for s in c.solvers.iter().filter(|s| s.image_failed > 0) {
            notes.push(format!(
                "{}: {} failed {} solve{} of symmetry images other than image 0 (in images.csv; \
                 counted among the failed solves; problems.txt has the first).",
                c.name,
                s.name,
                thousands(s.image_failed),
                if s.image_failed == 1 { "" } else { "s" }
            ));
        }
    }
    notes
}

/// What the check of solver `i`'s own times found on each corpus
/// ([`crate::harness::own_time`]), for the process note: `` (checked
/// against the round trips)``, or where they do not, `` (UNVERIFIED
/// on top1465: they explain 3% of the round trips, 80% needed; no ratio
/// quoted)``; empty when not checked.
fn own_time_verdicts(run: &RunResult, i: usize) -> String {
    let checks: Vec<(&str, OwnTimeCheck)> = run
        .corpora
        .iter()
        .filter_map(|c| {
            let check = c.solvers.get(i)?.own_time_check(c.round_trip_floor_ns)?;
            Some((c.name.as_str(), check))
        })
        .collect();
    if checks.is_empty() {
        return String::new();
    }
    let pct = |c: &OwnTimeCheck| format!("{:.0}%", 100.0 * c.explained.min(1.0));
    let bad: Vec<String> = checks
        .iter()
        .filter(|(_, c)| !c.verified)
        .map(|(name, c)| format!("{name}: they explain {} of the round trips", pct(c)))
        .collect();
    if bad.is_empty() {
        return " (checked against the round trips)".into();
    }
    format!(
        " (UNVERIFIED on {}; {:.0}% needed: no speed ratio quoted; `--latency round-trip` \
         ranks on round trips)",
        bad.join(", "),
        100.0 * crate::harness::own_time::VERIFIED
    )
}

/// Lines printed under the tables: settings, caveats, warnings.
pub fn notes(run: &RunResult, config: &Config, meta: &RunMeta) -> Vec<String> {
    let mut notes = Vec::new();
    let budgets: Vec<String> = config
        .solvers()
        .iter()
        .zip(config.budgets())
        .filter(|(_, b)| !b.is_unlimited())
        .map(|(s, b)| format!("{s} {}", describe_budget(*b)))
        .collect();
    notes.push(settings(run, config));
    if let Some(m) = &meta.merged {
        notes.push(format!(
            "Merged from {} part{} ({} of {} shards): threads and workers are the parts' added \
             up, so puzzles/s is what they would do together if equally fast; each part's own \
             figures are in run.json (merged_from).",
            m.parts.len(),
            if m.parts.len() == 1 { "" } else { "s" },
            m.indices.len(),
            m.shard_count
        ));
    }
    notes.push(format!(
        "Latencies are per solve call; mean and percentiles exclude over-budget solves{}.",
        if budgets.is_empty() {
            String::new()
        } else {
            format!(" (budget: {})", budgets.join(", "))
        }
    ));
    if let Some(note) = process_note(run, config, meta.round_trip_floor.as_ref()) {
        notes.push(note);
    }
    notes.extend(warm_up_notes(run));
    notes.extend(image_failure_notes(run));
    notes.push(
        "puzzles/s = puzzles within budget x workers / their solve time (parsing and validation excluded).".into(),
    );
    notes.extend(speed_notes(run, config, meta));
    notes.extend(run.corpora.iter().filter_map(virtual_best_note));
    notes.extend(run.corpora.iter().flat_map(corpus_unit_cost_notes));
    notes.extend(images_notes(run, config));
    notes.extend(clock_notes(run));
    notes.extend(run.corpora.iter().flat_map(corpus_notes));
    if !run.discrepancies.is_empty() {
        notes.push(format!(
            "PROBLEMS: {} findings of disagreeing solvers or invalid answers (the first of each corpus on standard error; all in problems.txt and summary.md).",
            thousands(run.discrepancies.len() as u64)
        ));
    }
    notes
}

/// The first note: the run's settings.
fn settings(run: &RunResult, config: &Config) -> String {
    let mut settings = format!(
        "{} thread{}, mode {} (limit {}), {} pass{}",
        run.threads,
        if run.threads == 1 { "" } else { "s" },
        config.mode.as_str(),
        if config.limit == u64::MAX {
            "none".to_string()
        } else {
            config.limit.to_string()
        },
        config.passes,
        if config.passes == 1 {
            ""
        } else {
            "es, minimum kept"
        }
    );
    if config.warmup > 0 {
        settings.push_str(&format!(", warm-up {} puzzles", config.warmup));
    }
    if let Some(seed) = config.shuffle {
        settings.push_str(&format!(", shuffled (seed {seed})"));
    }
    if let Some(seed) = config.permute {
        settings.push_str(&format!(", symmetry images (seed {seed})"));
        if config.images > 1 {
            settings.push_str(&format!(", {} images per puzzle", config.images));
        }
    }
    if config.kind() != crate::kinds::PuzzleKind::default().name() {
        settings.push_str(&format!(", {} puzzles", config.kind()));
    }
    if let Some(shard) = config.shard {
        settings.push_str(&format!(", shard {shard}"));
    }
    settings
}

/// The clock's overhead and the reader's rate, and a warning when the
/// overhead inflates short latencies.
fn clock_notes(run: &RunResult) -> Vec<String> {
    // The reader's rate on a small corpus is mostly page faults and timer
    // noise: quote it only where there is enough to measure.
    let reader: Vec<String> = run
        .corpora
        .iter()
        .filter(|c| c.bytes >= READER_MIN_BYTES)
        .map(|c| format!("{} {:.0} MB/s", c.name, c.reader_mb_per_s()))
        .collect();
    let mut notes = vec![if reader.is_empty() {
        format!(
            "Clock overhead: {:.0} ns per timestamp pair.",
            run.clock_overhead_ns
        )
    } else {
        format!(
            "Clock overhead: {:.0} ns per timestamp pair. Reader (find lines + parse, per thread): {}.",
            run.clock_overhead_ns,
            reader.join(", ")
        )
    }];
    if super::clock_overhead_too_high(run) {
        notes.push(format!(
            "WARNING: the clock overhead ({:.0} ns) exceeds 2% of the fastest median latency ({}); short latencies are inflated.",
            run.clock_overhead_ns,
            human_ns(super::fastest_median_ns(run).unwrap_or(0) as f64)
        ));
    }
    notes
}

/// What one corpus's results call for: unsolvable puzzles not allowed,
/// puzzles a solver does not take, a file that changed during the run.
fn corpus_notes(c: &CorpusResult) -> Vec<String> {
    let mut notes = Vec::new();
    let unsolvable = c.solvers.iter().map(|s| s.unsolvable).max().unwrap_or(0);
    if unsolvable > 0 && !c.allow_zero {
        notes.push(format!(
            "{}: {} puzzles have no solution, and the corpus is not marked ALLOWZERO (a leading `# ALLOWZERO` comment).",
            c.name,
            thousands(unsolvable)
        ));
    }
    for s in c.solvers.iter().filter(|s| s.not_applicable > 0) {
        notes.push(format!(
            "{}: {} does not take {} of its puzzles (n/a: not run, not timed, not cross-checked).",
            c.name,
            s.name,
            if s.puzzles == 0 {
                "any".to_string()
            } else {
                thousands(s.not_applicable)
            }
        ));
    }
    if c.changed_on_disk {
        notes.push(format!(
            "WARNING: {} changed on disk during the run; its recorded SHA-256 may not match what was measured.",
            c.name
        ));
    }
    notes
}

/// Pads cells to column widths: text left-aligned in the first column,
/// numbers right-aligned elsewhere.
fn widths(headers: &[String], rows: &[Vec<String>]) -> Vec<usize> {
    let mut w: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            w[i] = w[i].max(cell.chars().count());
        }
    }
    w
}

fn pad(cell: &str, width: usize, left: bool) -> String {
    let n = cell.chars().count();
    let fill = " ".repeat(width.saturating_sub(n));
    if left {
        format!("{cell}{fill}")
    } else {
        format!("{fill}{cell}")
    }
}

/// The terminal rendering: per corpus a title and an aligned table, then
/// the notes.
pub fn render_text(run: &RunResult, config: &Config, meta: &RunMeta) -> String {
    let mut out = String::new();
    for t in tables(run, config, meta) {
        out.push_str(&render_table(&t));
    }
    out.push_str(&render_notes(run, config, meta));
    out
}

/// The terminal rendering of the last corpus of `run` (printed as it
/// ends, before the others are run).
pub fn render_last(run: &RunResult, config: &Config, meta: &RunMeta) -> String {
    let reference = reference_index(config, meta);
    run.corpora
        .last()
        .map(|c| render_table(&corpus_table(c, reference, meta)))
        .unwrap_or_default()
}

/// The notes under the tables, one per line.
pub fn render_notes(run: &RunResult, config: &Config, meta: &RunMeta) -> String {
    let mut out = String::new();
    for n in notes(run, config, meta) {
        out.push_str(&n);
        out.push('\n');
    }
    out
}

/// One corpus's title and aligned table, and a blank line.
fn render_table(t: &CorpusTable) -> String {
    let mut out = String::new();
    {
        let w = widths(&t.headers, &t.rows);
        out.push_str(&t.title);
        out.push('\n');
        let line = |cells: &[String]| {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| pad(c, w[i], i == 0))
                .collect::<Vec<_>>()
                .join("  ")
        };
        out.push_str("  ");
        out.push_str(&line(&t.headers));
        out.push('\n');
        for row in &t.rows {
            out.push_str("  ");
            out.push_str(&line(row));
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

/// The speed column's cell: `0.612x (0.598-0.627)`, the reference's
/// `1.00x`, or why there is no ratio (`invalid`, `disagrees`, `too few`;
/// `-` without data).
fn speed_cell(speed: &Speed) -> String {
    match speed {
        Speed::Reference => speed_ratio(1.0),
        Speed::Ratio(r) => match (r.low, r.high) {
            (Some(low), Some(high)) => {
                format!("{} ({}-{})", speed_ratio(r.estimate), sig3(low), sig3(high))
            }
            _ => speed_ratio(r.estimate),
        },
        Speed::Missing(NoRatio::NoData) => "-".into(),
        Speed::Missing(why) => why.as_str().into(),
    }
}

/// What the speed column is, and the solvers whose mean a few slow solves
/// dominate: lines under the tables.
fn speed_notes(run: &RunResult, config: &Config, meta: &RunMeta) -> Vec<String> {
    let reference = reference_index(config, meta);
    let r = &meta.reference;
    let mut notes = vec![format!(
        "vs {r}: the geometric mean of {r}'s solve time over the solver's (above 1: faster), paired over \
         the puzzles both solved within budget with the same valid answer, and its 95% interval (a \
         bootstrap over blocks of {} consecutive lines); no ratio for a solver with invalid answers, \
         with answers that differ from {r}'s (disagrees), or with fewer than {} puzzles in common (too few).",
        config.schedule.block.max(1),
        MIN_COMMON
    )];
    let mut fewer = Vec::new();
    let mut stalls = Vec::new();
    for c in &run.corpora {
        let all = c.solvers.get(reference).map_or(0, |s| s.puzzles);
        for (s, speed) in c.solvers.iter().zip(c.speeds(reference)) {
            if let Speed::Ratio(x) = speed {
                if x.puzzles < all {
                    fewer.push(format!(
                        "{} x {}: {} of {}",
                        c.name,
                        s.name,
                        thousands(x.puzzles),
                        thousands(all)
                    ));
                }
            }
            if s.timed() > 0 {
                let (mean, p99) = (s.mean_ns(), s.quantile_ns(0.99) as f64);
                if mean > p99 {
                    stalls.push(format!(
                        "{} x {} (mean {}, p99 {})",
                        c.name,
                        s.name,
                        human_ns(mean),
                        human_ns(p99)
                    ));
                }
            }
        }
    }
    if !fewer.is_empty() {
        notes.push(format!(
            "Speed over fewer puzzles than {r} ran (the others over budget or failed for one of the two): {}.",
            fewer.join(", ")
        ));
    }
    if !stalls.is_empty() {
        notes.push(format!(
            "Mean above p99, a few stalls dominate it (and puzzles/s; not the paired speed): {}.",
            stalls.join(", ")
        ));
    }
    notes
}

/// The virtual best solver of a corpus on which two solvers or more timed
/// solves ([`crate::harness::VirtualBestTally`]): its mean and throughput
/// against the single best solver's, and each solver's share of the wins.
/// `None` for a corpus with fewer, or without the puzzle-by-puzzle tally
/// (a run read back from its files).
pub fn virtual_best_note(c: &CorpusResult) -> Option<String> {
    if c.solvers.iter().filter(|s| s.timed() > 0).count() < 2 {
        return None;
    }
    let vb = c.paired.virtual_best();
    let (mean, per_s) = (vb.mean_ns()?, vb.per_s()?);
    let ran = |i: usize| c.solvers.get(i).is_some_and(|s| s.puzzles > 0);
    let best = vb.single_best(ran)?;
    let b = vb.solvers[best];
    let (best_mean, best_per_s) = (b.mean_ns()?, b.per_s()?);
    let shares: Vec<String> = c
        .solvers
        .iter()
        .enumerate()
        .filter(|&(i, _)| ran(i))
        .map(|(i, s)| {
            let wins = vb.solvers.get(i).map_or(0, |t| t.wins);
            format!("{} {:.1}%", s.name, 100.0 * wins as f64 / vb.solved as f64)
        })
        .collect();
    Some(format!(
        "Virtual best solver on {} (the fastest solver on each puzzle): {} of {} puzzles solved, \
         mean {}, {} puzzles/s on one worker; the single best, {}: {} solved, mean {}, {} \
         puzzles/s: the virtual best {} its throughput; fastest on: {}.",
        c.name,
        thousands(vb.solved),
        thousands(c.puzzles),
        human_ns(mean),
        human_rate(per_s),
        c.solvers[best].name,
        thousands(b.solved),
        human_ns(best_mean),
        human_rate(best_per_s),
        speed_ratio(per_s / best_per_s),
        shares.join(", ")
    ))
}

/// The work against cost per unit of a corpus's solvers as the run
/// tallied it ([`crate::harness::UnitCostTally`]): [`unit_cost_notes`] of
/// the solvers that ran it. None for a run read back from its files
/// (without the puzzle-by-puzzle tally) or where no solver solved a
/// puzzle.
fn corpus_unit_cost_notes(c: &CorpusResult) -> Vec<String> {
    let tally = c.paired.unit_cost();
    let solvers: Vec<(&str, SolverCost)> = c
        .solvers
        .iter()
        .enumerate()
        .filter(|(_, s)| s.puzzles > 0)
        .map(|(i, s)| {
            let cost = tally.solvers.get(i).copied().unwrap_or_default();
            (s.name.as_str(), cost)
        })
        .collect();
    unit_cost_notes(&c.name, &solvers)
}

/// Work against cost per unit on `corpus`, one line for the corpus and
/// one (indented) for each solver: `time = work x time per unit` for each
/// unit it reports ([`crate::harness::unit_cost`]). A solver that reports
/// no count gets no figure, and the line says so. Empty when no solver
/// solved a puzzle: `bench`'s and `merge`'s notes and `summary.md`
/// (`dlxbench versus` and `report.html` show the same figures as a table).
pub fn unit_cost_notes(corpus: &str, solvers: &[(&str, SolverCost)]) -> Vec<String> {
    if solvers.iter().all(|(_, s)| s.solved == 0) {
        return Vec::new();
    }
    let mut notes = vec![format!(
        "Work against cost per unit on {corpus}: per solver, over the puzzles it solved (as \
         for the virtual best) with a count of the unit, time = units per puzzle x time per \
         unit, the time per unit being the sum of their times over the sum of their counts:"
    )];
    notes.extend(
        solvers
            .iter()
            .map(|(name, s)| format!("  {name}: {}", unit_cost_line(s))),
    );
    notes
}

/// One solver's part of [`unit_cost_notes`], after its name.
pub fn unit_cost_line(s: &SolverCost) -> String {
    let Some(mean) = s.mean_ns() else {
        return "no puzzle solved: no figure".to_string();
    };
    let mut line = format!("{} solved, mean {}", thousands(s.solved), human_ns(mean));
    let mut counted = false;
    for unit in UNITS {
        let sum = s.unit(unit);
        let (Some(per_puzzle), Some(unit_mean)) = (sum.per_puzzle(), sum.mean_ns()) else {
            continue;
        };
        counted = true;
        if sum.puzzles != s.solved {
            line.push_str(&format!(
                "; over the {} with {} counts, mean {}",
                thousands(sum.puzzles),
                unit.as_str(),
                human_ns(unit_mean)
            ));
        }
        line.push_str(&format!(
            " = {} {} x {}",
            human_rate(per_puzzle),
            unit.plural(),
            sum.ns_per_unit().map_or(
                format!("no time per {} (none counted)", unit.as_str()),
                |ns| format!("{}/{}", human_ns3(ns), unit.as_str())
            )
        ));
    }
    if !counted {
        line.push_str("; no nodes, updates or mems recorded: no time per unit");
    }
    line
}

/// With `--images K`: per corpus and solver, the spread of its nodes and
/// times across the K symmetry images of a puzzle
/// ([`crate::harness::images`]): the puzzles counted, the median max/min
/// node ratio and time coefficient of variation, and the puzzles with the
/// widest node spread (line, fewest and most nodes).
pub fn images_notes(run: &RunResult, config: &Config) -> Vec<String> {
    use crate::harness::images::SolverSpread;
    let (Some(seed), true) = (config.permute, config.images > 1) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for c in run.corpora.iter().filter(|c| !c.images.is_empty()) {
        notes.push(format!(
            "Symmetry images on {}: {} per puzzle (image 0 of seed {seed}, the others of seeds \
             drawn from it; every image's solve in images.csv); per solver, over the puzzles \
             whose images were all solved within budget, the median of max/min nodes across a \
             puzzle's images and of the coefficient of variation of its times, and the \
             puzzles with the widest node spread (line: fewest-most nodes):",
            c.name, config.images
        ));
        for (i, name) in config.solvers().iter().enumerate() {
            let s = SolverSpread::of(&c.images, i as u16, config.images);
            if s.puzzles + s.left_out == 0 {
                continue;
            }
            let ratio = s
                .median_node_ratio
                .map_or("no nodes".to_string(), |r| format!("{r:.3}"));
            let cv = s
                .median_time_cv
                .map_or("-".to_string(), |v| format!("{v:.3}"));
            let widest: Vec<String> = s
                .widest
                .iter()
                .filter_map(|w| w.nodes.map(|(lo, hi)| (w.line, lo, hi)))
                .map(|(line, lo, hi)| format!("line {line}: {}-{}", thousands(lo), thousands(hi)))
                .collect();
            notes.push(format!(
                "  {name}: {} puzzles ({} left out), median max/min nodes {ratio}, median time \
             CV {cv}{}",
                thousands(s.puzzles),
                thousands(s.left_out),
                match widest.is_empty() {
                    true => String::new(),
                    false => format!("; widest: {}", widest.join(", ")),
                }
            ));
        }
    }
    notes
}

/// Three significant figures in plain decimals, as [`speed_ratio`]
/// without its `x`.
fn sig3(v: f64) -> String {
    let s = speed_ratio(v);
    s.strip_suffix('x').unwrap_or(&s).to_string()
}

/// A speed ratio with three significant figures, in plain decimals, so
/// that a solver hundreds of times slower than the reference does not show
/// as `0.00x` (nor in scientific notation).
fn speed_ratio(ratio: f64) -> String {
    if ratio >= 10.0 {
        format!("{ratio:.1}x")
    } else if ratio >= 0.1 || ratio <= 0.0 || !ratio.is_finite() {
        format!("{ratio:.2}x")
    } else {
        // 0.0355: two zeros after the point are not significant figures.
        let decimals = (-ratio.log10()).floor() as usize + 3;
        format!("{ratio:.*}x", decimals.min(12))
    }
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::{speed_ratio, unit_cost_line, unit_cost_notes};
    use crate::harness::unit_cost::{SolverCost, UnitSum};

    #[test]
    fn a_solver_without_counts_gets_no_time_per_unit_not_a_zero() {
        let counted = UnitSum {
            puzzles: 2,
            ns: 3_000,
            count: 40,
        };
        let dlx = SolverCost {
            solved: 2,
            total_ns: 3_000,
            units: [counted, counted, UnitSum::default()],
        };
        assert_eq!(
            unit_cost_line(&dlx),
            "2 solved, mean 1.50 µs = 20.0 nodes x 75.0 ns/node = 20.0 updates x 75.0 ns/update"
        );
        let foreign = SolverCost {
            solved: 2,
            total_ns: 3_000,
            units: Default::default(),
        };
        let line = unit_cost_line(&foreign);
        assert!(line.ends_with("no nodes, updates or mems recorded: no time per unit"));
        assert!(!line.contains(" x "), "{line}");
        // Nodes on one of its two puzzles: over that one, said.
        let partial = SolverCost {
            units: [
                UnitSum {
                    puzzles: 1,
                    ns: 1_000,
                    count: 0,
                },
                UnitSum::default(),
                UnitSum::default(),
            ],
            ..foreign
        };
        assert_eq!(
            unit_cost_line(&partial),
            "2 solved, mean 1.50 µs; over the 1 with node counts, mean 1.00 µs = 0.0 nodes x \
             no time per node (none counted)"
        );
        let notes = unit_cost_notes("c", &[("dlx", dlx), ("foreign", foreign)]);
        assert_eq!(notes.len(), 3);
        assert!(notes[2].starts_with("  foreign: 2 solved"));
        assert!(unit_cost_notes("c", &[("x", SolverCost::default())]).is_empty());
    }

    #[test]
    fn small_ratios_keep_their_digits() {
        assert_eq!(speed_ratio(1.0), "1.00x");
        assert_eq!(speed_ratio(12.34), "12.3x");
        assert_eq!(speed_ratio(0.00219), "0.00219x");
        assert_eq!(speed_ratio(0.0355), "0.0355x");
        assert_eq!(speed_ratio(0.05), "0.0500x");
        assert_eq!(speed_ratio(0.0999), "0.0999x");
        assert_eq!(speed_ratio(0.0), "0.00x");
    }
}
