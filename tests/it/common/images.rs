//! `images.csv` (every symmetry image's solve of a `bench --images K` run)
//! read as plain CSV, the spread across a puzzle's images recomputed from
//! it with arithmetic of the tests' own (not the library's
//! `harness::images`), and the images notes of `bench` and `summary.md`
//! parsed. For `images_cli` and the real-corpora run of `versus_cli`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::read_csv;

/// One row of `images.csv`.
#[derive(Debug, Clone)]
pub struct Row {
    pub image: usize,
    pub seed: String,
    pub status: String,
    pub solutions: u64,
    pub nodes: Option<u64>,
    pub ns: f64,
}

/// solver -> line -> rows by image.
pub type Rows = BTreeMap<String, BTreeMap<u64, Vec<Row>>>;

/// The rows of `dir/images.csv` by corpus, in file order within a
/// puzzle.
pub fn rows_by_corpus(dir: &Path) -> BTreeMap<String, Rows> {
    let mut rows = BTreeMap::<String, Rows>::new();
    for r in read_csv(&dir.join("images.csv")) {
        rows.entry(r["corpus"].clone())
            .or_default()
            .entry(r["solver"].clone())
            .or_default()
            .entry(r["line"].parse().unwrap())
            .or_default()
            .push(Row {
                image: r["image"].parse().unwrap(),
                seed: r["seed"].clone(),
                status: r["status"].clone(),
                solutions: r["solutions"].parse().unwrap(),
                nodes: r["nodes"].parse().ok(),
                ns: r["ns"].parse().unwrap(),
            });
    }
    rows
}

/// The median (the mean of the two middle values for an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Standard deviation (dividing by the count) over the mean (0 for a
/// mean of 0).
pub fn cv(times: &[f64]) -> f64 {
    let n = times.len() as f64;
    let mean = times.iter().sum::<f64>() / n;
    if mean == 0.0 {
        return 0.0;
    }
    let var = times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / n;
    var.sqrt() / mean
}

/// What the notes say of one solver.
#[derive(Debug)]
pub struct Reported {
    pub puzzles: u64,
    pub left_out: u64,
    pub ratio: f64,
    pub cv: f64,
    /// (line, fewest, most nodes).
    pub widest: Vec<(u64, u64, u64)>,
}

fn number(s: &str) -> u64 {
    s.replace(',', "").parse().unwrap()
}

/// Parses the first line of `text` that is `  NAME: N puzzles (M left
/// out), median max/min nodes R, median time CV C; widest: line L: A-B,
/// ...` (`- NAME: ...` in `summary.md`).
pub fn reported(text: &str, solver: &str) -> Reported {
    reported_after(text, "", solver)
}

/// [`reported`] for the first such line after the one that starts the
/// images notes of `corpus` (`Symmetry images on CORPUS: `).
pub fn reported_on(text: &str, corpus: &str, solver: &str) -> Reported {
    reported_after(text, &format!("Symmetry images on {corpus}: "), solver)
}

fn reported_after(text: &str, header: &str, solver: &str) -> Reported {
    let prefix = format!("{solver}: ");
    let line = text
        .lines()
        .skip_while(|l| !l.trim_start_matches(['-', ' ']).starts_with(header))
        .map(|l| l.trim_start_matches(['-', ' ']))
        .find(|l| l.starts_with(&prefix) && l.contains(" left out)"))
        .unwrap_or_else(|| panic!("no note for {solver} after `{header}`:\n{text}"));
    let rest = &line[prefix.len()..];
    let (counts, rest) = rest.split_once(", median max/min nodes ").unwrap();
    let (puzzles, left) = counts.split_once(" puzzles (").unwrap();
    let left_out = left.strip_suffix(" left out)").unwrap();
    let (ratio, rest) = rest.split_once(", median time CV ").unwrap();
    let (cv, widest) = rest.split_once("; widest: ").unwrap();
    let widest = widest
        .split(", line ")
        .map(|w| {
            let w = w.trim_start_matches("line ");
            let (line, nodes) = w.split_once(": ").unwrap();
            let (lo, hi) = nodes.split_once('-').unwrap();
            (number(line), number(lo), number(hi))
        })
        .collect();
    Reported {
        puzzles: number(puzzles),
        left_out: number(left_out),
        ratio: ratio.parse().unwrap(),
        cv: cv.parse().unwrap(),
        widest,
    }
}

/// One solver's spread recomputed from its rows (`line -> rows by
/// image`).
#[derive(Debug)]
pub struct Recomputed {
    /// Puzzles with all `images` images solved within budget.
    pub puzzles: u64,
    /// The others.
    pub left_out: u64,
    /// The median over those puzzles of max/min nodes.
    pub ratio: f64,
    /// The median of the time's coefficient of variation.
    pub cv: f64,
    /// The five widest node spreads: (line, fewest, most), the largest
    /// ratio first, then by line.
    pub widest: Vec<(u64, u64, u64)>,
}

/// The spread of one solver over `lines`, K = `images`: a puzzle counts
/// when it has K rows, each with an answer within budget (a solution, or
/// none); the node ratio of a puzzle is most over fewest nodes (1 when
/// both are 0, none when only the fewest is: such a puzzle is in the time
/// CV's median, not in the ratio's nor among the widest).
pub fn recompute(lines: &BTreeMap<u64, Vec<Row>>, images: usize) -> Recomputed {
    let (mut puzzles, mut left_out) = (0, 0);
    let (mut ratios, mut cvs) = (Vec::new(), Vec::new());
    let mut spreads: Vec<(f64, u64, u64, u64)> = Vec::new();
    for (&line, rows) in lines {
        let answered =
            |r: &Row| ["unique", "multiple", "solved", "none"].contains(&r.status.as_str());
        if rows.len() != images || !rows.iter().all(answered) {
            left_out += 1;
            continue;
        }
        puzzles += 1;
        let nodes: Vec<u64> = rows.iter().map(|r| r.nodes.unwrap()).collect();
        let (lo, hi) = (*nodes.iter().min().unwrap(), *nodes.iter().max().unwrap());
        cvs.push(cv(&rows.iter().map(|r| r.ns).collect::<Vec<_>>()));
        let ratio = match (lo, hi) {
            (0, 0) => 1.0,
            (0, _) => continue,
            _ => hi as f64 / lo as f64,
        };
        ratios.push(ratio);
        spreads.push((ratio, line, lo, hi));
    }
    spreads.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
    Recomputed {
        puzzles,
        left_out,
        ratio: median(ratios),
        cv: median(cvs),
        widest: spreads.iter().take(5).map(|s| (s.1, s.2, s.3)).collect(),
    }
}

/// The notes say what [`recompute`] found (the medians as printed, to
/// three decimals).
pub fn check(r: &Reported, want: &Recomputed, at: &str) {
    assert_eq!(
        (r.puzzles, r.left_out),
        (want.puzzles, want.left_out),
        "{at}"
    );
    assert!(
        (r.ratio - want.ratio).abs() <= 0.0005 + 1e-9,
        "{at}: reported {} recomputed {}",
        r.ratio,
        want.ratio
    );
    assert!(
        (r.cv - want.cv).abs() <= 0.0005 + 1e-9,
        "{at}: reported {} recomputed {}",
        r.cv,
        want.cv
    );
    assert_eq!(r.widest, want.widest, "{at}");
}
