//! The comparison itself: checking that two runs are comparable, matching
//! their corpus x solver groups, merging per-puzzle rows into the counter
//! check, and the time check with its verdict.

use super::comparison::side_of;
use super::{
    bootstrap, or_none, ChangeCounts, CompareError, Comparison, Counters, Counts, Difference,
    Group, Interval, Method, Options, PairResult, PuzzleChange, PuzzleRow, RatioHistogram, Reading,
    Run, Scope, SummaryRow, TimeCheck, TimeVerdict, WorkSplit,
};
use crate::results::schema;

/// Checks that two runs measured the same thing.
pub fn check_compatible(baseline: &Run, current: &Run) -> Result<(), CompareError> {
    let mut diffs = Vec::new();
    if let (Some(b), Some(c)) = (baseline.mode(), current.mode()) {
        if b != c {
            diffs.push(Difference::Mode {
                baseline: b.to_string(),
                current: c.to_string(),
            });
        }
    }
    if let (Some(b), Some(c)) = (&baseline.run_json, &current.run_json) {
        if b.limit != c.limit && baseline.mode() == current.mode() {
            diffs.push(Difference::Limit {
                baseline: b.limit,
                current: c.limit,
            });
        }
        if b.permute_seed != c.permute_seed {
            diffs.push(Difference::Permute {
                baseline: b.permute_seed,
                current: c.permute_seed,
            });
        }
        for bc in &b.corpora {
            let Some(cc) = c.corpora.iter().find(|cc| cc.name == bc.name) else {
                continue;
            };
            for (side, corpus) in [("baseline", bc), ("current", cc)] {
                if corpus.changed_on_disk {
                    diffs.push(Difference::CorpusChanged {
                        corpus: corpus.name.clone(),
                        side,
                    });
                }
            }
            if let (Some(bs), Some(cs)) = (&bc.sha256, &cc.sha256) {
                if !bs.eq_ignore_ascii_case(cs) {
                    diffs.push(Difference::Checksum {
                        corpus: bc.name.clone(),
                        baseline: bs.clone(),
                        current: cs.clone(),
                    });
                }
            }
        }
    }
    let mut solvers: Vec<&str> = Vec::new();
    for g in &baseline.groups {
        if !solvers.contains(&g.solver.as_str())
            && current.groups.iter().any(|c| c.solver == g.solver)
        {
            solvers.push(&g.solver);
        }
    }
    for s in solvers {
        if let (Some(b), Some(c)) = (baseline.budget(s), current.budget(s)) {
            if b != c {
                diffs.push(Difference::Budget {
                    solver: s.to_string(),
                    baseline: b,
                    current: c,
                });
            }
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(CompareError::Incompatible(diffs))
    }
}

/// A note when a solver's times in either run are its own claims that
/// did not explain its round trips (`summary.csv` `speed_note`
/// `unverified`: [`crate::harness::own_time`]): its time comparison rests
/// on what it says of itself.
fn unverified_note(baseline: &Group, current: &Group) -> Option<String> {
    let explained = |g: &Group| {
        let s = g.summary.as_ref()?;
        (s.speed_note.as_deref() == Some("unverified")).then_some(s.own_time_explained)
    };
    let sides: Vec<String> = [("baseline", baseline), ("current run", current)]
        .iter()
        .filter_map(|(name, g)| {
            let e = explained(g)?;
            Some(match e {
                Some(e) => format!("{name}: they explain {:.0}% of its round trips", 100.0 * e),
                None => (*name).to_string(),
            })
        })
        .collect();
    (!sides.is_empty()).then(|| {
        format!(
            "{} x {}: its own reported times are UNVERIFIED ({}): its times are its own claims; \
             rerun with --latency round-trip to compare what the harness measured",
            current.corpus,
            current.solver,
            sides.join("; ")
        )
    })
}

/// Compares `current` against `baseline`.
pub fn compare(
    baseline: &Run,
    current: &Run,
    options: &Options,
) -> Result<Comparison, CompareError> {
    check_compatible(baseline, current)?;
    let (bt, ct) = (baseline.threads(), current.threads());
    let other_cpu = other_cpu(baseline, current);
    let mut notes = run_notes(baseline, current, other_cpu.as_ref());
    let block = [baseline, current]
        .iter()
        .find_map(|r| r.run_json.as_ref().and_then(|j| j.schedule_block))
        .unwrap_or(crate::harness::Schedule::DEFAULT_BLOCK)
        .max(1);
    let mut results = Vec::new();
    let mut only_in_baseline = Vec::new();
    for b in &baseline.groups {
        match current.group(&b.corpus, &b.solver) {
            Some(c) => {
                let partial =
                    baseline.partial.contains(&b.corpus) || current.partial.contains(&b.corpus);
                let mut r = compare_pair(b, c, bt, ct, options, partial, block);
                if other_cpu.is_some() && r.time.interval.is_some() {
                    r.time.verdict = TimeVerdict::NotComparable;
                }
                notes.extend(unverified_note(b, c));
                if partial {
                    notes.push(match r.counters.scope {
                        Scope::NotCompared => format!(
                            "{} x {}: one run ran the corpus in part and the other has no {}: \
                             counters not compared",
                            b.corpus,
                            b.solver,
                            schema::PUZZLES_CSV
                        ),
                        _ => format!(
                            "{} x {}: one run ran the corpus in part: compared only the {} \
                             puzzles both runs have",
                            b.corpus, b.solver, r.counters.changes.compared
                        ),
                    });
                }
                results.push(r);
            }
            None => only_in_baseline.push((b.corpus.clone(), b.solver.clone())),
        }
    }
    let only_in_current = current
        .groups
        .iter()
        .filter(|c| baseline.group(&c.corpus, &c.solver).is_none())
        .map(|c| (c.corpus.clone(), c.solver.clone()))
        .collect();
    let mode = baseline
        .mode()
        .or_else(|| current.mode())
        .map(str::to_string);
    Ok(Comparison {
        baseline: side_of(baseline),
        current: side_of(current),
        options: *options,
        mode,
        results,
        only_in_baseline,
        only_in_current,
        notes,
        block,
        other_cpu,
    })
}

/// What the comparison notes of the two runs themselves: missing files,
/// differing threads, CPUs (`other_cpu`), passes or order, an incomplete run.
fn run_notes(baseline: &Run, current: &Run, other_cpu: Option<&(String, String)>) -> Vec<String> {
    let mut notes = Vec::new();
    for (name, run) in [("baseline", baseline), ("current run", current)] {
        if run.run_json.is_none() {
            notes.push(format!(
                "no {} for the {name} ({}): corpus checksums and limits not checked",
                schema::RUN_JSON,
                run.source.display()
            ));
        }
        if !run.has_per_puzzle() {
            notes.push(format!(
                "no {} for the {name} ({}): counters compared as totals, times as a ratio of means with a normal-approximation interval",
                schema::PUZZLES_CSV,
                run.source.display()
            ));
        }
    }
    if let (Some(b), Some(c)) = (baseline.threads(), current.threads()) {
        if b != c {
            notes.push(format!(
                "thread counts differ (baseline {b}, current {c}): times were measured under different load"
            ));
        }
    }
    if let Some((bc, cc)) = other_cpu {
        notes.push(format!(
            "different CPUs (baseline {bc}, current {cc}): the times are not comparable (their \
             ratios measure the machines as well as the code), so no time regression or \
             improvement is called; node counts and outcomes are compared and gate as ever"
        ));
    }
    if let (Some(b), Some(c)) = (&baseline.run_json, &current.run_json) {
        if b.passes != c.passes {
            notes.push(format!(
                "passes differ (baseline {}, current {}): more passes keep smaller minimum times",
                or_none(b.passes.map(u64::from), "?"),
                or_none(c.passes.map(u64::from), "?")
            ));
        }
        if b.shuffle_seed != c.shuffle_seed {
            notes.push("the puzzle order differs (--shuffle); counters are unaffected".into());
        }
    }
    for (name, run) in [("baseline", baseline), ("current run", current)] {
        if let Some(w) = &run.incomplete {
            notes.push(format!("the {name} is not a complete run: {w}"));
        }
    }
    notes
}

/// The two runs' CPU models (`run.json`'s `cpu_model`) when both are known
/// and differ.
fn other_cpu(baseline: &Run, current: &Run) -> Option<(String, String)> {
    let model = |r: &Run| r.run_json.as_ref()?.facts.cpu_model.clone();
    match (model(baseline), model(current)) {
        (Some(b), Some(c)) if b != c => Some((b, c)),
        _ => None,
    }
}

/// FNV-1a of `corpus NUL solver`: each pair's bootstrap stream.
pub(super) fn pair_hash(corpus: &str, solver: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in corpus
        .as_bytes()
        .iter()
        .chain(&[0])
        .chain(solver.as_bytes())
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn compare_pair(
    b: &Group,
    c: &Group,
    bt: Option<u64>,
    ct: Option<u64>,
    options: &Options,
    partial: bool,
    block: usize,
) -> PairResult {
    let bs = b
        .summary_or_derived(bt)
        .expect("a group has a summary or rows");
    let cs = c
        .summary_or_derived(ct)
        .expect("a group has a summary or rows");
    let mut work = None;
    let (counters, log_ratios) = match (&b.puzzles, &c.puzzles) {
        // A corpus one run ran in part: the puzzles both have, only.
        (Some(br), Some(cr)) if partial => {
            let (br, cr) = common_lines(br, cr);
            work = work_split(&br, &cr);
            per_puzzle(&br, &cr, options.examples)
        }
        (Some(br), Some(cr)) => {
            work = work_split(br, cr);
            per_puzzle(br, cr, options.examples)
        }
        _ if partial => (
            Counters {
                scope: Scope::NotCompared,
                ..totals(&bs, &cs)
            },
            Vec::new(),
        ),
        _ => (totals(&bs, &cs), Vec::new()),
    };
    let seed = options.seed ^ pair_hash(&b.corpus, &b.solver);
    let time = if log_ratios.len() >= 2 {
        let blocks = bootstrap::blocks_of(&log_ratios, block);
        // One block only (a corpus smaller than a block): nothing to
        // resample but puzzles, and the output says so.
        let (interval, method) = if blocks.len() >= 2 {
            let i = bootstrap::blocks(&blocks, options.resamples, seed, options.confidence);
            (i, Method::PairedBlocks)
        } else {
            let d: Vec<f64> = log_ratios.iter().map(|&(_, d)| d).collect();
            let i = bootstrap::paired(&d, options.resamples, seed, options.confidence);
            (i, Method::PairedPuzzles)
        };
        TimeCheck {
            method: interval.map(|_| method),
            puzzles: log_ratios.len() as u64,
            interval,
            verdict: verdict(interval, options.time_threshold()),
        }
    } else {
        let moments = |s: &SummaryRow| bootstrap::Moments {
            mean: s.mean_ns.unwrap_or(0.0),
            stddev: s.stddev_ns.unwrap_or(0.0),
            count: s.timed(),
        };
        let interval = bootstrap::normal(moments(&bs), moments(&cs), options.confidence);
        TimeCheck {
            method: interval.map(|_| Method::RatioOfMeansNormal),
            puzzles: bs.timed().min(cs.timed()),
            interval,
            verdict: verdict(interval, options.time_threshold()),
        }
    };
    let ratio = |x: Option<f64>, y: Option<f64>| {
        let (x, y) = (x.unwrap_or(0.0), y.unwrap_or(0.0));
        (x > 0.0 && y > 0.0).then(|| y / x)
    };
    PairResult {
        corpus: b.corpus.clone(),
        solver: b.solver.clone(),
        counters,
        time,
        ratios: (!log_ratios.is_empty())
            .then(|| RatioHistogram::from_log_ratios(log_ratios.iter().map(|&(_, d)| d))),
        reading: Reading {
            p50: ratio(bs.p50_ns, cs.p50_ns),
            p99: ratio(bs.p99_ns, cs.p99_ns),
            throughput: ratio(bs.puzzles_per_s, cs.puzzles_per_s),
        },
        work,
    }
}

/// The time change of two line-sorted row lists split into the search
/// tree and the time per node, over the puzzles timed in both with node
/// counts on both sides ([`WorkSplit`]); `None` when there are none.
pub fn work_split(b: &[PuzzleRow], c: &[PuzzleRow]) -> Option<WorkSplit> {
    let mut puzzles = Vec::with_capacity(b.len().min(c.len()));
    let (mut i, mut j) = (0, 0);
    while i < b.len() && j < c.len() {
        let (x, y) = (&b[i], &c[j]);
        match x.line.cmp(&y.line) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if let (true, true, Some(nb), Some(nc)) = (x.timed(), y.timed(), x.nodes, y.nodes) {
                    puzzles.push(((y.ns as f64 / x.ns as f64).ln(), nb, nc));
                }
                i += 1;
                j += 1;
            }
        }
    }
    work_split_of(puzzles)
}

/// The split over per-puzzle pairs `(ln(time_c / time_b), nodes_b,
/// nodes_c)` (a puzzle solved without a node counts 1): what
/// [`work_split`] computes once it has paired two runs' rows, and what
/// `ab` computes from its per-puzzle mean log-ratios over the measured
/// passes ([`crate::ab::AbResult::work`]). `None` without puzzles.
pub fn work_split_of(puzzles: impl IntoIterator<Item = (f64, u64, u64)>) -> Option<WorkSplit> {
    let (mut n, mut time, mut nodes) = (0u64, 0f64, 0f64);
    for (d, nb, nc) in puzzles {
        n += 1;
        time += d;
        nodes += (nc.max(1) as f64 / nb.max(1) as f64).ln();
    }
    (n > 0).then(|| {
        let (time, nodes) = ((time / n as f64).exp(), (nodes / n as f64).exp());
        WorkSplit {
            puzzles: n,
            time,
            nodes,
            per_node: time / nodes,
        }
    })
}

/// The time verdict for a ratio `interval` (current / baseline, or B / A)
/// and a `threshold` (0.05 for 5%): a regression when the whole interval
/// lies above `1 + threshold`, an improvement when it lies below
/// `1 - threshold`.
pub fn verdict(interval: Option<Interval>, threshold: f64) -> TimeVerdict {
    match interval {
        None => TimeVerdict::NotEnoughData,
        Some(i) if i.low > 1.0 + threshold => TimeVerdict::Regression,
        Some(i) if i.high < 1.0 - threshold => TimeVerdict::Improvement,
        Some(_) => TimeVerdict::NoChange,
    }
}

fn totals(b: &SummaryRow, c: &SummaryRow) -> Counters {
    Counters {
        scope: Scope::Totals,
        nodes: b.total_nodes.zip(c.total_nodes),
        updates: b.total_updates.zip(c.total_updates),
        mems: b.total_mems.zip(c.total_mems),
        counts: (Counts::from(b), Counts::from(c)),
        changes: ChangeCounts::default(),
        examples: Vec::new(),
    }
}

/// The rows of two line-sorted lists whose line is in both.
fn common_lines(b: &[PuzzleRow], c: &[PuzzleRow]) -> (Vec<PuzzleRow>, Vec<PuzzleRow>) {
    let (mut kb, mut kc) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < b.len() && j < c.len() {
        match b[i].line.cmp(&c[j].line) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                kb.push(b[i]);
                kc.push(c[j]);
                i += 1;
                j += 1;
            }
        }
    }
    (kb, kc)
}

/// Merges two line-sorted row lists: the counters, and the lines and
/// log-ratios of the puzzles timed in both.
pub(super) fn per_puzzle(
    b: &[PuzzleRow],
    c: &[PuzzleRow],
    examples: usize,
) -> (Counters, Vec<(u64, f64)>) {
    let bs = SummaryRow::from_rows(b, None);
    let cs = SummaryRow::from_rows(c, None);
    // The totals, then the puzzle-by-puzzle figures on top.
    let mut k = Counters {
        scope: Scope::PerPuzzle,
        updates: None,
        mems: None,
        ..totals(&bs, &cs)
    };
    // Updates (mems) are compared when every row of both sides recorded
    // them.
    let recorded = |rows: &[PuzzleRow], count: fn(&PuzzleRow) -> Option<u64>| {
        !rows.is_empty() && rows.iter().all(|r| count(r).is_some())
    };
    let updates = recorded(b, |r| r.updates) && recorded(c, |r| r.updates);
    if updates {
        k.updates = bs.total_updates.zip(cs.total_updates);
    }
    let mems = recorded(b, |r| r.mems) && recorded(c, |r| r.mems);
    if mems {
        k.mems = bs.total_mems.zip(cs.total_mems);
    }
    let mut d = Vec::with_capacity(b.len().min(c.len()));
    let (mut i, mut j) = (0, 0);
    while i < b.len() && j < c.len() {
        let (x, y) = (&b[i], &c[j]);
        if x.line < y.line {
            k.changes.only_in_baseline += 1;
            i += 1;
            continue;
        }
        if y.line < x.line {
            k.changes.only_in_current += 1;
            j += 1;
            continue;
        }
        k.changes.compared += 1;
        let nodes = x.nodes != y.nodes;
        let upd = updates && x.updates != y.updates;
        let mem = mems && x.mems != y.mems;
        let outcome = x.status != y.status || x.solutions != y.solutions;
        k.changes.nodes_changed += u64::from(nodes);
        k.changes.updates_changed += u64::from(upd);
        k.changes.mems_changed += u64::from(mem);
        k.changes.outcome_changed += u64::from(outcome);
        if nodes || upd || mem || outcome {
            k.changes.puzzles_changed += 1;
            if k.examples.len() < examples {
                k.examples.push(PuzzleChange {
                    baseline: *x,
                    current: *y,
                });
            }
        }
        if x.timed() && y.timed() {
            d.push((x.line, (y.ns as f64 / x.ns as f64).ln()));
        }
        i += 1;
        j += 1;
    }
    k.changes.only_in_baseline += (b.len() - i) as u64;
    k.changes.only_in_current += (c.len() - j) as u64;
    (k, d)
}
