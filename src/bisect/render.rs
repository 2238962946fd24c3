//! A bisect's report as text: a line per probe, and the commit found with
//! its evidence; and as JSON ([`json`]).

use std::fmt::Write;

use super::probe::{Difference, PuzzleCounts, Totals};
use super::{
    Commit, Direction, Evidence, Found, Measure, Options, Probe, Report, TimeChange, Verdict,
};
use crate::report::thousands;
use crate::results::output::bisect::{
    BisectJson, CommitJson, CountsJson, ProbeJson, TimeJson, TotalsJson, BISECT_FORMAT,
};

/// What is compared, in words: `dlxbench_dlx's counts (status, solutions
/// and guesses of every puzzle)` or `dlxbench_dlx's time (paired ab runs,
/// a slow-down beyond 1%)`.
pub fn what(options: &Options) -> String {
    let symbol = match options.flags {
        0 => options.symbol.clone(),
        f => format!("{}@{f}", options.symbol),
    };
    match options.measure {
        Measure::Counts => {
            format!("{symbol}'s counts (status, solutions and guesses of every puzzle)")
        }
        Measure::Time => {
            let way = match options.direction {
                Direction::Slower => "a slow-down",
                Direction::Faster => "a speed-up",
            };
            let t = options.ab.judged_at() * 100.0;
            format!("{symbol}'s time (paired ab runs against the good commit's build, {way} beyond {t}%)")
        }
    }
}

/// `guesses 12,345, solutions 1,000 over 1,000 puzzles`.
fn totals(t: &Totals) -> String {
    format!(
        "guesses {}, solutions {} over {} puzzles",
        thousands(t.guesses),
        thousands(t.solutions),
        thousands(t.puzzles)
    )
}

/// `unique, 1 solution, 12 guesses`, or `not run`.
fn puzzle(c: Option<&PuzzleCounts>) -> String {
    match c {
        None => "not run".to_string(),
        Some(c) => format!(
            "{}, {} solutions, {} guesses",
            c.status.as_str(),
            c.solutions,
            thousands(c.guesses)
        ),
    }
}

/// The interval and the run: `B/A 1.0504 [1.0401, 1.0610] (13 passes,
/// 1,000 puzzles, judged at 1%)`.
fn interval(t: &TimeChange) -> String {
    let run = format!(
        "{} passes, {} puzzles, judged at {}%; stopped: {}",
        t.passes,
        thousands(t.puzzles as u64),
        t.judged_at * 100.0,
        t.stop.words()
    );
    match t.interval {
        Some(i) => format!(
            "B/A {:.4} [{:.4}, {:.4}] ({run})",
            i.estimate, i.low, i.high
        ),
        None => format!("no interval ({run})"),
    }
}

/// A probe's evidence on one line.
pub fn evidence(e: &Evidence) -> String {
    match e {
        Evidence::BuildFailed { log, reason } => {
            format!("does not build: {reason} (log: {})", log.display())
        }
        Evidence::Counts(c) => match c.differ {
            0 => format!("counts as the good commit's ({})", totals(&c.after)),
            n => format!(
                "{} of {} puzzles differ; {} (good: {})",
                thousands(n),
                thousands(c.before.puzzles.max(c.after.puzzles)),
                totals(&c.after),
                totals(&c.before)
            ),
        },
        Evidence::Time(t) => {
            let mut s = interval(t);
            if t.outcome_changed > 0 {
                let _ = write!(
                    s,
                    "; {} puzzles' outcomes differ",
                    thousands(t.outcome_changed)
                );
            }
            if t.problems > 0 {
                let _ = write!(
                    s,
                    "; {} problems (invalid answers or failed solves)",
                    thousands(t.problems)
                );
            }
            s
        }
    }
}

/// What a verdict means for the way looked: `same`, `slower`, `faster`,
/// `changed`, `skipped`.
fn verdict_word(v: Verdict, e: &Evidence) -> &'static str {
    match (v, e) {
        (Verdict::Same, _) => "same",
        (Verdict::Unknown, _) => "skipped",
        (Verdict::Changed, Evidence::Time(t)) => match t.direction {
            Direction::Slower => "slower",
            Direction::Faster => "faster",
        },
        (Verdict::Changed, _) => "changed",
    }
}

/// A probe's line: `  1a2b3c4 same: counts as the good commit's (...)`.
pub fn probe_line(p: &Probe) -> String {
    let cached = if p.cached { " (build cached)" } else { "" };
    let why = match (&p.evidence, p.verdict()) {
        (Evidence::Time(_), Verdict::Unknown) => " (no time verdict either way)",
        _ => "",
    };
    format!(
        "  {} {}{why}: {}{cached}",
        p.commit.short,
        verdict_word(p.verdict(), &p.evidence),
        evidence(&p.evidence)
    )
}

/// The differing puzzles named, a line each.
fn differences(out: &mut String, examples: &[Difference], differ: u64) {
    for d in examples {
        let _ = writeln!(
            out,
            "    {} line {}: {} -> {}",
            d.corpus,
            d.line,
            puzzle(d.before.as_ref()),
            puzzle(d.after.as_ref())
        );
    }
    let more = differ.saturating_sub(examples.len() as u64);
    if more > 0 {
        let _ = writeln!(out, "    ... {} more", thousands(more));
    }
}

/// The report: the commit found (or the commits it may be), the change
/// and the evidence before and after it, and what the probes cost.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    match &report.found {
        Found::First(i) => {
            let commit = &report.chain[i - 1];
            let _ = writeln!(out, "first changed commit: {}", commit.line());
            if let Some(p) = report.probe_of(*i) {
                let _ = writeln!(
                    out,
                    "  {}: {}",
                    verdict_word(p.verdict(), &p.evidence),
                    evidence(&p.evidence)
                );
                if let Evidence::Counts(c) = &p.evidence {
                    differences(&mut out, &c.examples, c.differ);
                }
            }
            let _ = match report.probe_of(i - 1) {
                Some(p) => writeln!(
                    out,
                    "  before it, {} {}: {}",
                    p.commit.short,
                    verdict_word(p.verdict(), &p.evidence),
                    evidence(&p.evidence)
                ),
                None => writeln!(out, "  before it: the good commit {}", report.good.short),
            };
        }
        Found::Among(indices) => {
            let _ = writeln!(
                out,
                "the first changed commit is one of these {} (skipped commits stand between the last same and the first changed one):",
                indices.len()
            );
            for &i in indices {
                let commit = &report.chain[i - 1];
                let what = match report.probe_of(i) {
                    Some(p) => format!(
                        "{}: {}",
                        verdict_word(p.verdict(), &p.evidence),
                        evidence(&p.evidence)
                    ),
                    None => "not probed".to_string(),
                };
                let _ = writeln!(out, "  {} ({what})", commit.line());
            }
        }
    }
    let built = report
        .probes
        .iter()
        .filter(|p| !p.cached && !matches!(p.evidence, Evidence::BuildFailed { .. }))
        .count();
    let skipped = report
        .probes
        .iter()
        .filter(|p| p.verdict() == Verdict::Unknown)
        .count();
    let _ = writeln!(
        out,
        "{} probes of {} commits after the good one {} ({built} built, {} from the cache), {skipped} skipped",
        report.probes.len(),
        report.chain.len(),
        report.good.short,
        report.probes.iter().filter(|p| p.cached).count()
    );
    out
}

/// The report as its JSON document (`bisect --json`).
pub fn json(report: &Report, options: &Options) -> BisectJson {
    let commit = |c: &Commit| CommitJson {
        sha: c.sha.clone(),
        short: c.short.clone(),
        subject: c.subject.clone(),
    };
    let bad = report.chain.last().unwrap_or(&report.good);
    BisectJson {
        format: BISECT_FORMAT.to_string(),
        what: what(options),
        measure: match options.measure {
            Measure::Counts => "counts",
            Measure::Time => "time",
        }
        .to_string(),
        symbol: options.symbol.clone(),
        flags: options.flags,
        good: commit(&report.good),
        bad: commit(bad),
        commits: report.chain.len() as u64,
        exact: matches!(report.found, Found::First(_)),
        found: report.found_commits().into_iter().map(commit).collect(),
        probes: report
            .probes
            .iter()
            .map(|p| probe_json(p, commit(&p.commit)))
            .collect(),
    }
}

/// One probe as JSON.
fn probe_json(p: &Probe, commit: CommitJson) -> ProbeJson {
    let totals = |t: &Totals| TotalsJson {
        puzzles: t.puzzles,
        solutions: t.solutions,
        guesses: t.guesses,
    };
    let (mut build_log, mut counts, mut time) = (None, None, None);
    match &p.evidence {
        Evidence::BuildFailed { log, .. } => build_log = Some(log.display().to_string()),
        Evidence::Counts(c) => {
            counts = Some(CountsJson {
                differ: c.differ,
                before: totals(&c.before),
                after: totals(&c.after),
            })
        }
        Evidence::Time(t) => {
            time = Some(TimeJson {
                ratio: t.interval.map(|i| i.estimate),
                low: t.interval.map(|i| i.low),
                high: t.interval.map(|i| i.high),
                judged_at: t.judged_at,
                passes: t.passes,
                puzzles: t.puzzles as u64,
                stop: t.stop.as_str().to_string(),
                outcome_changed: t.outcome_changed,
                problems: t.problems,
            })
        }
    }
    ProbeJson {
        commit,
        verdict: p.verdict().as_str().to_string(),
        cached: p.cached,
        evidence: evidence(&p.evidence),
        build_log,
        counts,
        time,
    }
}
