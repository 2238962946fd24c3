//! Output formats of a [`Versus`]: aligned text for the terminal
//! ([`text`]), GitHub Markdown ([`markdown`]) and JSON ([`json()`]).
//!
//! # JSON
//! [`json()`] makes the document as a [`VersusJson`]: its fields are
//! documented there and in `docs/file-formats.md` (format tag
//! `dlxbench-versus/1`).

use std::fmt::Write as _;

use super::{Band, HeadToHead, Pair, Solve, TieSource, UnitCost, Versus, VirtualBest};
use crate::harness::unit_cost::{UnitSum, UNITS};
use crate::report::{human_ns, human_ns3, human_rate, thousands};
use crate::results::output::versus::{
    BandJson, HeadToHeadJson, PairJson, Quantile, RatioSummary, ShareJson, SolveJson,
    SolverCostJson, SolverWins, Tie, UnitCostJson, UnitJson, VersusCorpus, VersusJson,
    VirtualBestJson, VsSingleBest, VERSUS_FORMAT,
};

/// A titled table: headers and rows of cells, the first column text.
struct Table {
    title: String,
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn ratio_text(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}x")
    } else if r >= 10.0 {
        format!("{r:.1}x")
    } else {
        format!("{r:.3}x")
    }
}

fn pct(part: u64, whole: u64) -> String {
    match whole {
        0 => "-".into(),
        _ => format!("{:.1}%", 100.0 * part as f64 / whole as f64),
    }
}

fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "-".into(), f)
}

/// The tie band in words.
pub fn tie_text(v: &Versus) -> String {
    let band = format!(
        "a tie when the two times are within a factor {:.3} of each other",
        1.0 + v.tie
    );
    match &v.tie_source {
        TieSource::Default => format!(
            "{band} (the default, from an A/A on a 2-core machine; measure yours with --aa RUN2)"
        ),
        TieSource::Given => format!("{band} (--tie)"),
        TieSource::Aa { dir, puzzles: n } => format!(
            "{band} (from the A/A: the 95th percentile of {}'s per-puzzle time ratio between this \
             run and {}, over {} puzzles)",
            v.a,
            dir.display(),
            thousands(*n)
        ),
    }
}

fn solve_cells(s: Option<Solve>) -> [String; 2] {
    match s {
        None => ["n/a".into(), "-".into()],
        Some(s) => [
            match s.solved {
                true => human_ns(s.ns as f64),
                false => s.status.as_str().to_string(),
            },
            s.nodes.map_or("-".into(), thousands),
        ],
    }
}

fn examples(h: &HeadToHead, winner: &str, pairs: &[Pair]) -> Table {
    Table {
        title: format!("where {winner} wins most"),
        headers: vec![
            "line".into(),
            format!("{} time", h.a),
            format!("{} time", h.b),
            format!("{} nodes", h.a),
            format!("{} nodes", h.b),
            format!("{} / {}", h.b, h.a),
        ],
        rows: pairs
            .iter()
            .map(|p| {
                let [at, an] = solve_cells(p.a);
                let [bt, bn] = solve_cells(p.b);
                vec![
                    p.line.to_string(),
                    at,
                    bt,
                    an,
                    bn,
                    opt(p.ratio(), ratio_text),
                ]
            })
            .collect(),
    }
}

fn tables(h: &HeadToHead, vbs: &VirtualBest, costs: &UnitCost) -> Vec<Table> {
    let mut t = vec![Table {
        title: format!("{} against {}", h.a, h.b),
        headers: vec![
            format!("{} wins", h.a),
            "ties".into(),
            format!("{} wins", h.b),
            "neither solved".into(),
            "both solved".into(),
            format!("only {}", h.a),
            format!("only {}", h.b),
        ],
        rows: vec![[
            h.a_wins, h.ties, h.b_wins, h.neither, h.both, h.only_a, h.only_b,
        ]
        .iter()
        .map(|&n| format!("{} ({})", thousands(n), pct(n, h.puzzles)))
        .collect()],
    }];
    let mut headers: Vec<String> = h
        .quantiles
        .iter()
        .map(|(q, _)| format!("p{}", q * 100.0))
        .collect();
    headers.push("geometric mean".into());
    let mut row: Vec<String> = h.quantiles.iter().map(|&(_, r)| ratio_text(r)).collect();
    row.push(opt(h.geomean, ratio_text));
    t.push(Table {
        title: format!(
            "{} / {} per puzzle both solved ({}; above 1: {} faster)",
            h.b,
            h.a,
            thousands(h.both),
            h.a
        ),
        headers,
        rows: vec![row],
    });
    t.push(examples(h, &h.a, &h.a_best));
    t.push(examples(h, &h.b, &h.b_best));
    t.push(vbs_table(vbs));
    if let Some(b) = bands_table(vbs) {
        t.push(b);
    }
    t.push(unit_cost_table(costs));
    t
}

/// Each solver's work against its cost per unit: a header row and a row
/// per solver (`report.html` shows it beside the cost chart).
pub fn unit_cost_rows(u: &UnitCost) -> (String, Vec<String>, Vec<Vec<String>>) {
    let t = unit_cost_table(u);
    (t.title, t.headers, t.rows)
}

/// A unit's two cells: units per puzzle and time per unit, with the
/// puzzles they are over where that is not every puzzle solved.
fn unit_cells(sum: &UnitSum, solved: u64, unit: &str) -> [String; 2] {
    let Some(per_puzzle) = sum.per_puzzle() else {
        return ["not recorded".into(), "-".into()];
    };
    let over = match sum.puzzles == solved {
        true => String::new(),
        false => format!(" (over {})", thousands(sum.puzzles)),
    };
    [
        format!("{}{over}", human_rate(per_puzzle)),
        opt(sum.ns_per_unit(), |ns| format!("{}/{unit}", human_ns3(ns))),
    ]
}

fn unit_cost_table(u: &UnitCost) -> Table {
    // The units some solver recorded.
    let units: Vec<_> = UNITS
        .into_iter()
        .filter(|&unit| u.solvers.iter().any(|(_, s)| s.unit(unit).puzzles > 0))
        .collect();
    let mut headers = vec!["solver".to_string(), "solved".into(), "mean".into()];
    for unit in &units {
        headers.push(format!("{} per puzzle", unit.plural()));
        headers.push(format!("time per {}", unit.as_str()));
    }
    let rows = u
        .solvers
        .iter()
        .map(|(name, s)| {
            let mut row = vec![
                name.clone(),
                thousands(s.solved),
                opt(s.mean_ns(), human_ns),
            ];
            for &unit in &units {
                row.extend(unit_cells(s.unit(unit), s.solved, unit.as_str()));
            }
            row
        })
        .collect();
    Table {
        title: "work against cost per unit (over the puzzles each solver solved: time = units \
                per puzzle x time per unit, the sum of their times over the sum of their counts)"
            .into(),
        headers,
        rows,
    }
}

/// Each solver's work against its cost per unit as JSON (the `unit_cost`
/// object of [`json()`]).
pub fn unit_cost_json(u: &UnitCost) -> UnitCostJson {
    let sum_json = |sum: &UnitSum| {
        (sum.puzzles > 0).then(|| UnitJson {
            puzzles: sum.puzzles,
            ns: sum.ns,
            count: sum.count,
            per_puzzle: sum.per_puzzle(),
            ns_per_unit: sum.ns_per_unit(),
        })
    };
    UnitCostJson {
        definition: "over the puzzles each solver solved with a count of the unit: \
                     ns_per_unit = sum of ns / sum of counts, per_puzzle = sum of counts / puzzles"
            .into(),
        solvers: u
            .solvers
            .iter()
            .map(|(name, s)| {
                let [nodes, updates, mems] = UNITS.map(|unit| sum_json(s.unit(unit)));
                SolverCostJson {
                    solver: name.clone(),
                    solved: s.solved,
                    total_ns: s.total_ns,
                    mean_ns: s.mean_ns(),
                    nodes,
                    updates,
                    mems,
                }
            })
            .collect(),
    }
}

/// The virtual best solver's table: a header row and a row for the
/// virtual best and for each solver (`report.html` shows it too).
pub fn vbs_rows(v: &VirtualBest) -> (Vec<String>, Vec<Vec<String>>) {
    let t = vbs_table(v);
    (t.headers, t.rows)
}

/// Who is fastest per node-count band: a header row and a row per band
/// (`None` without bands).
pub fn band_rows(v: &VirtualBest) -> Option<(String, Vec<String>, Vec<Vec<String>>)> {
    let t = bands_table(v)?;
    Some((t.title, t.headers, t.rows))
}

fn bands_table(v: &VirtualBest) -> Option<Table> {
    let by = v.band_solver.as_ref()?;
    if v.bands.is_empty() {
        return None;
    }
    let mut headers = vec![format!("{by}'s nodes"), "puzzles".to_string()];
    headers.extend(v.shares.iter().map(|s| s.solver.clone()));
    headers.push("fastest most often".into());
    let rows = v
        .bands
        .iter()
        .map(|b| {
            let mut row = vec![
                match b.nodes_from == b.nodes_to {
                    true => thousands(b.nodes_from),
                    false => format!("{}-{}", thousands(b.nodes_from), thousands(b.nodes_to)),
                },
                thousands(b.puzzles),
            ];
            row.extend(b.wins.iter().map(|&w| thousands(w)));
            row.push(
                b.winner()
                    .map_or("-".into(), |i| v.shares[i].solver.clone()),
            );
            row
        })
        .collect();
    Some(Table {
        title: format!(
            "fastest solver per band of {by}'s search nodes (puzzles some solver solved)"
        ),
        headers,
        rows,
    })
}

fn vbs_table(v: &VirtualBest) -> Table {
    let mut rows = vec![vec![
        "virtual best".to_string(),
        format!("{} ({})", thousands(v.solved), pct(v.solved, v.puzzles)),
        opt(v.mean_ns(), human_ns),
        opt(v.per_s(), |x| thousands(x.round() as u64)),
        "-".into(),
    ]];
    for s in &v.shares {
        let best = v.single_best.as_deref() == Some(s.solver.as_str());
        rows.push(vec![
            match best {
                true => format!("{} (single best)", s.solver),
                false => s.solver.clone(),
            },
            format!("{} ({})", thousands(s.solved), pct(s.solved, v.puzzles)),
            opt(s.mean_ns(), human_ns),
            opt(s.per_s(), |x| thousands(x.round() as u64)),
            format!("{} ({})", thousands(s.wins), pct(s.wins, v.solved)),
        ]);
    }
    Table {
        title: "virtual best solver (the fastest solver on each puzzle)".into(),
        headers: vec![
            "solver".into(),
            "solved".into(),
            "mean".into(),
            "puzzles/s".into(),
            "fastest on".into(),
        ],
        rows,
    }
}

/// What the virtual best gains over the single best, in words.
pub fn vbs_note(v: &VirtualBest) -> Option<String> {
    let best = v.best()?;
    let (vm, bm) = (v.mean_ns()?, best.mean_ns()?);
    Some(format!(
        "the virtual best solves {} puzzles ({} more than {}, the single best), at a mean of {} \
         against {} ({} as fast) and {} puzzles/s against {}",
        thousands(v.solved),
        thousands(v.solved - best.solved),
        best.solver,
        human_ns(vm),
        human_ns(bm),
        ratio_text(bm / vm),
        opt(v.per_s(), |x| thousands(x.round() as u64)),
        opt(best.per_s(), |x| thousands(x.round() as u64)),
    ))
}

fn aligned(out: &mut String, t: &Table) {
    let _ = writeln!(out, "  {}", t.title);
    let cols = t.headers.len();
    let width: Vec<usize> = (0..cols)
        .map(|i| {
            t.rows
                .iter()
                .map(|r| r[i].chars().count())
                .chain([t.headers[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::from("   ");
        for (i, c) in cells.iter().enumerate() {
            let pad = width[i] - c.chars().count();
            s.push_str("  ");
            if i == 0 {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        s.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(&t.headers));
    for r in &t.rows {
        let _ = writeln!(out, "{}", line(r));
    }
}

/// The report as aligned text.
pub fn text(v: &Versus) -> String {
    let mut out = format!("versus: {} ({} against {})\n", v.dir.display(), v.a, v.b);
    let _ = writeln!(out, "tie band: {}", tie_text(v));
    for ((h, vbs), costs) in v.corpora.iter().zip(&v.unit_costs) {
        let _ = writeln!(out, "\n{}: {} puzzles", h.corpus, thousands(h.puzzles));
        for t in tables(h, vbs, costs) {
            aligned(&mut out, &t);
        }
        if let Some(note) = vbs_note(vbs) {
            let _ = writeln!(out, "  {note}");
        }
    }
    out
}

/// The report as GitHub Markdown.
pub fn markdown(v: &Versus) -> String {
    let mut out = format!(
        "## dlxbench versus: {} against {}\n\n- run: `{}`\n- tie band: {}\n",
        v.a,
        v.b,
        v.dir.display(),
        tie_text(v)
    );
    for ((h, vbs), costs) in v.corpora.iter().zip(&v.unit_costs) {
        let _ = writeln!(out, "\n### {}: {} puzzles", h.corpus, thousands(h.puzzles));
        for t in tables(h, vbs, costs) {
            let _ = writeln!(out, "\n**{}**\n", t.title);
            let _ = writeln!(out, "| {} |", t.headers.join(" | "));
            let align: Vec<&str> = (0..t.headers.len())
                .map(|i| if i == 0 { "---" } else { "---:" })
                .collect();
            let _ = writeln!(out, "|{}|", align.join("|"));
            for r in &t.rows {
                let _ = writeln!(out, "| {} |", r.join(" | "));
            }
        }
        if let Some(note) = vbs_note(vbs) {
            let _ = writeln!(out, "\n{note}.");
        }
    }
    out
}

fn solve_json(s: Option<Solve>) -> Option<SolveJson> {
    s.map(|s| SolveJson {
        ns: s.ns,
        nodes: s.nodes,
        status: s.status.as_str().into(),
        solved: s.solved,
    })
}

fn pairs_json(pairs: &[Pair]) -> Vec<PairJson> {
    pairs
        .iter()
        .map(|p| PairJson {
            line: p.line,
            a: solve_json(p.a),
            b: solve_json(p.b),
            ratio: p.ratio(),
        })
        .collect()
}

/// The virtual best solver of a corpus as JSON (the `virtual_best` object
/// of [`json()`]).
pub fn vbs_json(v: &VirtualBest) -> VirtualBestJson {
    let best = v.best();
    VirtualBestJson {
        solved: v.solved,
        total_ns: v.total_ns,
        mean_ns: v.mean_ns(),
        per_s: v.per_s(),
        single_best: v.single_best.clone(),
        vs_single_best: best.and_then(|b| {
            Some(VsSingleBest {
                mean_ratio: b.mean_ns()? / v.mean_ns()?,
                per_s_ratio: v.per_s()? / b.per_s()?,
            })
        }),
        band_solver: v.band_solver.clone(),
        bands: v.bands.iter().map(|b| band_json(v, b)).collect(),
        solvers: v
            .shares
            .iter()
            .map(|s| ShareJson {
                solver: s.solver.clone(),
                solved: s.solved,
                total_ns: s.total_ns,
                mean_ns: s.mean_ns(),
                per_s: s.per_s(),
                wins: s.wins,
                win_share: (v.solved > 0).then(|| s.wins as f64 / v.solved as f64),
            })
            .collect(),
    }
}

/// One node-count band of [`vbs_json`].
fn band_json(v: &VirtualBest, b: &Band) -> BandJson {
    BandJson {
        nodes_from: b.nodes_from,
        nodes_to: b.nodes_to,
        puzzles: b.puzzles,
        wins: v
            .shares
            .iter()
            .zip(&b.wins)
            .map(|(s, &wins)| SolverWins {
                solver: s.solver.clone(),
                wins,
            })
            .collect(),
        winner: b.winner().map(|i| v.shares[i].solver.clone()),
    }
}

/// The report as JSON ([`VersusJson`]; fields in the [module](self)
/// documentation).
pub fn json(v: &Versus) -> VersusJson {
    let (source, aa_run, aa_puzzles) = match &v.tie_source {
        TieSource::Aa { dir, puzzles } => ("aa", Some(dir.display().to_string()), Some(*puzzles)),
        TieSource::Default => ("default", None, None),
        TieSource::Given => ("option", None, None),
    };
    VersusJson {
        format: VERSUS_FORMAT.into(),
        run: v.dir.display().to_string(),
        a: v.a.clone(),
        b: v.b.clone(),
        examples: v.examples as u64,
        tie: Tie {
            band: v.tie,
            source: source.into(),
            aa_run,
            aa_puzzles,
        },
        corpora: v
            .corpora
            .iter()
            .zip(&v.unit_costs)
            .map(|((h, vbs), costs)| VersusCorpus {
                corpus: h.corpus.clone(),
                puzzles: h.puzzles,
                head_to_head: head_to_head_json(h),
                virtual_best: vbs_json(vbs),
                unit_cost: unit_cost_json(costs),
            })
            .collect(),
    }
}

/// The `head_to_head` object of one corpus of [`json()`].
fn head_to_head_json(h: &HeadToHead) -> HeadToHeadJson {
    HeadToHeadJson {
        a_wins: h.a_wins,
        ties: h.ties,
        b_wins: h.b_wins,
        neither: h.neither,
        both_solved: h.both,
        only_a: h.only_a,
        only_b: h.only_b,
        ratio: RatioSummary {
            definition: "b_ns / a_ns".into(),
            geometric_mean: h.geomean,
            quantiles: h
                .quantiles
                .iter()
                .map(|&(q, ratio)| Quantile { q, ratio })
                .collect(),
        },
        a_best: pairs_json(&h.a_best),
        b_best: pairs_json(&h.b_best),
    }
}
