//! Comparing algorithms puzzle by puzzle, from one run's `puzzles.csv`:
//! what `dlxbench versus` prints and what `report.html` draws beside the
//! run's table.
//!
//! * [`solved_within`]: per corpus and solver, how many of the corpus's
//!   puzzles were solved within a time (a "cactus" or survival curve),
//!   over **all** the corpus's puzzles: a puzzle over budget, failed,
//!   answered wrongly or not taken by the solver counts as not solved;
//! * [`head_to_head`]: two solvers paired puzzle by puzzle: wins, ties and
//!   losses (a tie within a band of [`DEFAULT_TIE`], or one measured from
//!   an A/A: [`tie_from_aa`]), the quantiles of the per-puzzle time
//!   ratios, and the puzzles where each wins most;
//! * [`virtual_best`]: per corpus, the virtual best solver (the fastest
//!   solver on each puzzle) against the single best solver, and each
//!   solver's share of the wins;
//! * [`unit_cost`]: per corpus, each solver's work against its cost per
//!   unit: time = nodes x time per node (and per update, per mem), over
//!   the puzzles it solved ([`crate::harness::unit_cost`]).
//!
//! Everything is computed from `puzzles.csv` rows read through the typed
//! reader of [`crate::results`] ([`PuzzleReader`]), which `merge`
//! reproduces exactly: a merge of shards gives the same figures as the
//! unsharded run. [`render`] writes them as text, Markdown and JSON.
//!
//! **Solved** means: a solution found within budget (status `unique`,
//! `multiple` or `solved`), or an answer of no solution (`none`) on a
//! puzzle for which no solver of the run found a solution (a proved
//! unsolvable puzzle, as on a corpus marked `ALLOWZERO`). Over budget,
//! `invalid`, a `none` that another solver contradicts, the failures of a
//! solver in its own process (`crashed`, `timeout`, `protocol-error`,
//! `skipped`) and a puzzle without a row for the solver (`n/a`) are not
//! solved. A solve is timed at `ns`, the minimum over the run's passes.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

pub mod render;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::harness::unit_cost::{SolverCost, UnitCostTally, Work};
use crate::harness::virtual_best::{found, solves, VirtualBestTally};
use crate::results::{schema, PuzzleReader, ResultDir, ResultError, Verify};
use crate::solvers::Status;

/// The default tie band: two times within a factor of 1.25 of each other
/// (either way) are a tie. Chosen from two A/A runs of the same code on
/// the project's 2-core machine (`docs/versus.md`, "The tie band"): the
/// 95th percentile of a solver's per-puzzle time ratio between two runs
/// was below it. Measure your machine's with [`tie_from_aa`] (`versus
/// --aa RUN2`).
pub const DEFAULT_TIE: f64 = 0.25;

/// The quantiles of per-puzzle ratios reported, in order.
pub const QUANTILES: [f64; 7] = [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99];

/// The puzzles listed where each solver wins most, by default.
pub const DEFAULT_EXAMPLES: usize = 5;

/// Why a run cannot be compared puzzle by puzzle.
#[derive(Debug, thiserror::Error)]
pub enum VersusError {
    /// The result directory could not be read.
    #[error(transparent)]
    Read(#[from] ResultError),
    /// The run has no `puzzles.csv` (`bench --no-per-puzzle`).
    #[error(
        "{}: no {}: the run was made with --no-per-puzzle, and puzzle-by-puzzle views need it",
        dir.display(),
        schema::PUZZLES_CSV
    )]
    NoRows {
        /// The directory.
        dir: PathBuf,
    },
    /// A solver asked for is not in the run.
    #[error("no solver `{name}` in {}: its solvers are {}", dir.display(), known.join(", "))]
    UnknownSolver {
        /// The name asked for.
        name: String,
        /// The directory.
        dir: PathBuf,
        /// The run's solvers.
        known: Vec<String>,
    },
    /// The same solver twice.
    #[error("`{0}` against itself: name two different solvers of the run")]
    SameSolver(String),
    /// An A/A run to measure the tie band from does not hold the solver.
    #[error("the A/A run {} has no puzzle that {solver} solved in both runs", dir.display())]
    NoAaPairs {
        /// The A/A run.
        dir: PathBuf,
        /// The solver.
        solver: String,
    },
}

/// One solver's solve of one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solve {
    /// Time, ns (the minimum over passes; 0 when not timed).
    pub ns: u64,
    /// Search nodes, when the solver reports them.
    pub nodes: Option<u64>,
    /// Link updates, when the solver counts them.
    pub updates: Option<u64>,
    /// Mems, when the solver counts them.
    pub mems: Option<u64>,
    /// The status in `puzzles.csv`.
    pub status: Status,
    /// Whether it counts as solved (see the [module](self) documentation).
    pub solved: bool,
}

/// One solver's rows of one corpus, by line.
#[derive(Debug, Clone, Default)]
pub struct SolverRows {
    /// Solver name.
    pub name: String,
    /// Its solves, by 1-based line.
    pub rows: BTreeMap<u64, Solve>,
}

impl SolverRows {
    /// The solved puzzles' times, sorted.
    pub fn solved_times(&self) -> Vec<u64> {
        let mut t: Vec<u64> = self
            .rows
            .values()
            .filter(|s| s.solved)
            .map(|s| s.ns)
            .collect();
        t.sort_unstable();
        t
    }
}

/// One corpus of a run, puzzle by puzzle.
#[derive(Debug, Clone, Default)]
pub struct CorpusRows {
    /// Corpus name.
    pub name: String,
    /// Its puzzles (lines that parsed and ran: `run.json`'s `puzzles`).
    pub puzzles: u64,
    /// Every solver of the run, in the run's order (a solver without rows
    /// on this corpus has none here).
    pub solvers: Vec<SolverRows>,
}

impl CorpusRows {
    /// The solvers with rows on this corpus, in the run's order.
    fn present(&self) -> Vec<&SolverRows> {
        self.solvers.iter().filter(|s| !s.rows.is_empty()).collect()
    }

    /// The rows of `solver`.
    pub fn solver(&self, name: &str) -> Option<&SolverRows> {
        self.solvers.iter().find(|s| s.name == name)
    }

    /// Every line some solver has a row for, in order.
    pub fn lines(&self) -> Vec<u64> {
        let mut lines: Vec<u64> = self
            .solvers
            .iter()
            .flat_map(|s| s.rows.keys().copied())
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }
}

/// A run read puzzle by puzzle.
#[derive(Debug, Clone)]
pub struct RunRows {
    /// The directory.
    pub dir: PathBuf,
    /// Its solvers, in the run's order.
    pub solvers: Vec<String>,
    /// The reference solver, if the run names one.
    pub reference: Option<String>,
    /// Its corpora with results, in the run's order.
    pub corpora: Vec<CorpusRows>,
}

impl RunRows {
    /// Checks that `name` is one of the run's solvers.
    pub fn check_solver(&self, name: &str) -> Result<(), VersusError> {
        match self.solvers.iter().any(|s| s == name) {
            true => Ok(()),
            false => Err(VersusError::UnknownSolver {
                name: name.to_string(),
                dir: self.dir.clone(),
                known: self.solvers.clone(),
            }),
        }
    }
}

/// Reads the run in the directory `dir` puzzle by puzzle (its checksums
/// verified as `verify` says).
pub fn read(dir: &Path, verify: Verify) -> Result<RunRows, VersusError> {
    let result = ResultDir::open_with(dir, verify)?;
    read_dir(&result)
}

/// Reads the `puzzles.csv` of a result directory already opened.
pub fn read_dir(dir: &ResultDir) -> Result<RunRows, VersusError> {
    let path = dir.puzzles_csv.clone().ok_or_else(|| VersusError::NoRows {
        dir: dir.path.clone(),
    })?;
    let solvers: Vec<String> = dir.run.solvers.iter().map(|s| s.name.clone()).collect();
    let mut corpora: Vec<CorpusRows> = dir
        .run
        .corpora
        .iter()
        .map(|c| CorpusRows {
            name: c.name.clone(),
            puzzles: c.puzzles,
            solvers: solvers
                .iter()
                .map(|s| SolverRows {
                    name: s.clone(),
                    rows: BTreeMap::new(),
                })
                .collect(),
        })
        .collect();
    let mut reader = PuzzleReader::open(&path)?;
    let mut corpus_at = 0usize;
    while let Some(r) = reader.next()? {
        if corpora.get(corpus_at).is_none_or(|c| c.name != r.corpus) {
            let Some(at) = corpora.iter().position(|c| c.name == r.corpus) else {
                let message = format!("corpus `{}` is not in run.json", r.corpus);
                return Err(reader.error(message).into());
            };
            corpus_at = at;
        }
        let corpus = &mut corpora[corpus_at];
        let Some(solver) = corpus.solvers.iter_mut().find(|s| s.name == r.solver) else {
            let message = format!("solver `{}` is not in run.json", r.solver);
            return Err(reader.error(message).into());
        };
        if r.status == Status::NotApplicable {
            continue;
        }
        solver.rows.insert(
            r.line,
            Solve {
                ns: r.ns,
                nodes: r.nodes,
                updates: r.updates,
                mems: r.mems,
                status: r.status,
                solved: found(r.status),
            },
        );
    }
    // A `none` counts as solved where no solver found a solution.
    for corpus in &mut corpora {
        let contradicted: std::collections::BTreeSet<u64> = corpus
            .solvers
            .iter()
            .flat_map(|s| s.rows.iter())
            .filter(|(_, s)| found(s.status))
            .map(|(&line, _)| line)
            .collect();
        for s in &mut corpus.solvers {
            for (line, solve) in s.rows.iter_mut() {
                solve.solved = solves(solve.status, contradicted.contains(line));
            }
        }
    }
    Ok(RunRows {
        dir: dir.path.clone(),
        solvers,
        reference: dir.run.reference.clone(),
        corpora,
    })
}

/// One solver's "solved within a time" curve on one corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct SolvedWithin {
    /// Solver name.
    pub solver: String,
    /// The corpus's puzzles: the curve's whole (100%).
    pub puzzles: u64,
    /// The solved puzzles' times, ns, sorted.
    pub times: Vec<u64>,
}

impl SolvedWithin {
    /// Puzzles solved within `ns` (time at most `ns`).
    pub fn within(&self, ns: u64) -> u64 {
        self.times.partition_point(|&t| t <= ns) as u64
    }

    /// Puzzles solved at all.
    pub fn solved(&self) -> u64 {
        self.times.len() as u64
    }

    /// The curve as steps (ns, puzzles solved within it), at most about
    /// `max` points, each exact: every `k`-th solve and the last one.
    pub fn steps(&self, max: usize) -> Vec<(u64, u64)> {
        let n = self.times.len();
        let every = n.div_ceil(max.max(1)).max(1);
        let mut points: Vec<(u64, u64)> = (0..n)
            .filter(|i| (i + 1) % every == 0 || i + 1 == n)
            .map(|i| (self.times[i], self.within(self.times[i])))
            .collect();
        points.dedup_by_key(|p| p.0);
        points
    }
}

/// Per corpus (in the run's order), each solver's solved-within curve.
pub fn solved_within(run: &RunRows) -> Vec<(String, Vec<SolvedWithin>)> {
    run.corpora
        .iter()
        .map(|c| {
            let curves = c
                .solvers
                .iter()
                .filter(|s| !s.rows.is_empty())
                .map(|s| SolvedWithin {
                    solver: s.name.clone(),
                    puzzles: c.puzzles,
                    times: s.solved_times(),
                })
                .collect();
            (c.name.clone(), curves)
        })
        .collect()
}

/// The nearest-rank quantile `q` of the sorted `values` (the smallest
/// value with at least `q` of them at or below it).
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len();
    let rank = ((q * n as f64).ceil() as usize).clamp(1, n);
    Some(sorted[rank - 1])
}

/// Who won one puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A solved it and B did not, or both did and A was faster beyond the
    /// tie band.
    A,
    /// Both solved it within the tie band of each other.
    Tie,
    /// B solved it and A did not, or B was faster beyond the band.
    B,
    /// Neither solved it.
    Neither,
}

/// One puzzle of a head-to-head.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    /// 1-based line in the corpus.
    pub line: u64,
    /// A's solve (`None`: no row, the solver did not take the puzzle).
    pub a: Option<Solve>,
    /// B's solve.
    pub b: Option<Solve>,
}

impl Pair {
    fn solved(s: Option<Solve>) -> Option<Solve> {
        s.filter(|s| s.solved)
    }

    /// B's time over A's (above 1: A faster), when both solved it.
    pub fn ratio(&self) -> Option<f64> {
        let (a, b) = (Self::solved(self.a)?, Self::solved(self.b)?);
        Some(b.ns.max(1) as f64 / a.ns.max(1) as f64)
    }

    /// Who won, with the tie band `tie` (0.25: within a factor 1.25).
    pub fn verdict(&self, tie: f64) -> Verdict {
        match (Self::solved(self.a), Self::solved(self.b)) {
            (None, None) => Verdict::Neither,
            (Some(_), None) => Verdict::A,
            (None, Some(_)) => Verdict::B,
            (Some(_), Some(_)) => {
                let r = self.ratio().unwrap_or(1.0);
                if r > 1.0 + tie {
                    Verdict::A
                } else if r < 1.0 / (1.0 + tie) {
                    Verdict::B
                } else {
                    Verdict::Tie
                }
            }
        }
    }
}

/// Two solvers of one corpus, puzzle by puzzle.
#[derive(Debug, Clone)]
pub struct HeadToHead {
    /// Corpus name.
    pub corpus: String,
    /// The corpus's puzzles.
    pub puzzles: u64,
    /// Solver A (the reference of the ratios).
    pub a: String,
    /// Solver B.
    pub b: String,
    /// The tie band (0.25: within a factor 1.25 either way).
    pub tie: f64,
    /// Every puzzle either solver has a row for, by line.
    pub pairs: Vec<Pair>,
    /// Puzzles A won (including those only A solved).
    pub a_wins: u64,
    /// Ties.
    pub ties: u64,
    /// Puzzles B won.
    pub b_wins: u64,
    /// Puzzles neither solved (those neither has a row for included).
    pub neither: u64,
    /// Puzzles both solved.
    pub both: u64,
    /// Puzzles only A solved.
    pub only_a: u64,
    /// Puzzles only B solved.
    pub only_b: u64,
    /// The geometric mean of B's time over A's over the puzzles both
    /// solved (above 1: A faster).
    pub geomean: Option<f64>,
    /// The ratios' quantiles at [`QUANTILES`] (nearest rank).
    pub quantiles: Vec<(f64, f64)>,
    /// The puzzles where A wins most: first those only A solved (by B's
    /// status, then line), then by ratio, largest first.
    pub a_best: Vec<Pair>,
    /// The puzzles where B wins most, likewise.
    pub b_best: Vec<Pair>,
}

/// A and B of `corpus` paired puzzle by puzzle, with the tie band `tie`
/// and `examples` puzzles listed for each.
pub fn head_to_head(
    corpus: &CorpusRows,
    a: &str,
    b: &str,
    tie: f64,
    examples: usize,
) -> HeadToHead {
    let empty = SolverRows::default();
    let (ra, rb) = (
        corpus.solver(a).unwrap_or(&empty),
        corpus.solver(b).unwrap_or(&empty),
    );
    let pairs: Vec<Pair> = corpus
        .lines()
        .into_iter()
        .map(|line| Pair {
            line,
            a: ra.rows.get(&line).copied(),
            b: rb.rows.get(&line).copied(),
        })
        .filter(|p| p.a.is_some() || p.b.is_some())
        .collect();
    let mut h = HeadToHead {
        corpus: corpus.name.clone(),
        puzzles: corpus.puzzles,
        a: a.to_string(),
        b: b.to_string(),
        tie,
        a_wins: 0,
        ties: 0,
        b_wins: 0,
        neither: 0,
        both: 0,
        only_a: 0,
        only_b: 0,
        geomean: None,
        quantiles: Vec::new(),
        a_best: Vec::new(),
        b_best: Vec::new(),
        pairs: Vec::new(),
    };
    for p in &pairs {
        match p.verdict(tie) {
            Verdict::A => h.a_wins += 1,
            Verdict::B => h.b_wins += 1,
            Verdict::Tie => h.ties += 1,
            Verdict::Neither => {}
        }
        match (Pair::solved(p.a), Pair::solved(p.b)) {
            (Some(_), Some(_)) => h.both += 1,
            (Some(_), None) => h.only_a += 1,
            (None, Some(_)) => h.only_b += 1,
            (None, None) => {}
        }
    }
    h.neither = corpus.puzzles.saturating_sub(h.a_wins + h.b_wins + h.ties);
    let mut ratios: Vec<f64> = pairs.iter().filter_map(Pair::ratio).collect();
    ratios.sort_by(f64::total_cmp);
    if !ratios.is_empty() {
        let mean = ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64;
        h.geomean = Some(mean.exp());
    }
    h.quantiles = QUANTILES
        .iter()
        .filter_map(|&q| quantile(&ratios, q).map(|v| (q, v)))
        .collect();
    // Wins, most decisive first: an unsolved other side, then the ratio.
    let best = |winner: Verdict| {
        let mut won: Vec<Pair> = pairs
            .iter()
            .filter(|p| p.verdict(tie) == winner)
            .copied()
            .collect();
        let key = |p: &Pair| match p.ratio() {
            None => f64::INFINITY,
            Some(r) if winner == Verdict::A => r,
            Some(r) => 1.0 / r,
        };
        won.sort_by(|x, y| key(y).total_cmp(&key(x)).then(x.line.cmp(&y.line)));
        won.truncate(examples);
        won
    };
    h.a_best = best(Verdict::A);
    h.b_best = best(Verdict::B);
    h.pairs = pairs;
    h
}

/// The tie band an A/A measures: the 95th percentile (nearest rank) of
/// `|ln(t2 / t1)|` over the puzzles `solver` solved in both runs, `t1` its
/// time in `run` and `t2` in `other` (two runs of the same code), as a
/// fraction (`exp(q) - 1`), with the puzzles it is over.
pub fn tie_from_aa(
    run: &RunRows,
    other: &RunRows,
    solver: &str,
) -> Result<(f64, u64), VersusError> {
    let mut logs = Vec::new();
    for c in &run.corpora {
        let Some(d) = other.corpora.iter().find(|d| d.name == c.name) else {
            continue;
        };
        let (Some(x), Some(y)) = (c.solver(solver), d.solver(solver)) else {
            continue;
        };
        for (line, s) in &x.rows {
            if let Some(t) = y.rows.get(line) {
                if s.solved && t.solved {
                    logs.push((t.ns.max(1) as f64 / s.ns.max(1) as f64).ln().abs());
                }
            }
        }
    }
    logs.sort_by(f64::total_cmp);
    let q = quantile(&logs, 0.95).ok_or_else(|| VersusError::NoAaPairs {
        dir: other.dir.clone(),
        solver: solver.to_string(),
    })?;
    Ok((q.exp() - 1.0, logs.len() as u64))
}

/// One solver's part in a corpus's virtual best solver.
#[derive(Debug, Clone, PartialEq)]
pub struct Share {
    /// Solver name.
    pub solver: String,
    /// Puzzles it solved.
    pub solved: u64,
    /// Sum of its solved puzzles' times, ns.
    pub total_ns: u64,
    /// Puzzles on which it is the fastest solver (ties to the earlier
    /// solver of the run).
    pub wins: u64,
}

/// The virtual best solver of one corpus: on each puzzle, the fastest
/// solver that solved it.
#[derive(Debug, Clone, PartialEq)]
pub struct VirtualBest {
    /// Corpus name.
    pub corpus: String,
    /// The corpus's puzzles.
    pub puzzles: u64,
    /// Puzzles some solver solved.
    pub solved: u64,
    /// The sum of the best time of each of those puzzles, ns.
    pub total_ns: u64,
    /// Each solver, in the run's order.
    pub shares: Vec<Share>,
    /// The single best solver: the one that solved most, then the least
    /// total time.
    pub single_best: Option<String>,
    /// The solver whose node counts band the puzzles (the run's reference,
    /// when it reports nodes).
    pub band_solver: Option<String>,
    /// Per band of `band_solver`'s search nodes (1-9, 10-99, ...), which
    /// solver is fastest how often, over the puzzles some solver solved.
    pub bands: Vec<Band>,
}

/// The puzzles of one node-count band of a corpus, and who was fastest.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The band's smallest node count (1, 10, 100, ...; 0 for puzzles
    /// solved without a node).
    pub nodes_from: u64,
    /// The band's largest node count.
    pub nodes_to: u64,
    /// Puzzles in the band that some solver solved.
    pub puzzles: u64,
    /// Per solver (in [`VirtualBest::shares`]'s order), the band's puzzles
    /// it was fastest on.
    pub wins: Vec<u64>,
}

impl Band {
    /// The solver fastest most often in the band (its index in the
    /// shares), the earlier one on a tie.
    pub fn winner(&self) -> Option<usize> {
        let most = *self.wins.iter().max()?;
        (most > 0).then(|| self.wins.iter().position(|&w| w == most))?
    }
}

/// The band of a node count: `(from, to)`, decades (0 alone).
pub fn node_band(nodes: u64) -> (u64, u64) {
    if nodes == 0 {
        return (0, 0);
    }
    let mut from = 1u64;
    while from.saturating_mul(10) <= nodes {
        from *= 10;
    }
    (from, from.saturating_mul(10) - 1)
}

impl VirtualBest {
    /// The virtual best's mean time per puzzle it solved, ns.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.total_ns as f64 / self.solved as f64)
    }

    /// Its throughput: puzzles solved per second of solve time (one
    /// worker).
    pub fn per_s(&self) -> Option<f64> {
        (self.total_ns > 0).then(|| self.solved as f64 * 1e9 / self.total_ns as f64)
    }

    /// The share of the single best solver.
    pub fn best(&self) -> Option<&Share> {
        let name = self.single_best.as_ref()?;
        self.shares.iter().find(|s| &s.solver == name)
    }
}

impl Share {
    /// Mean time per puzzle solved, ns.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.total_ns as f64 / self.solved as f64)
    }

    /// Puzzles solved per second of solve time (one worker).
    pub fn per_s(&self) -> Option<f64> {
        (self.total_ns > 0).then(|| self.solved as f64 * 1e9 / self.total_ns as f64)
    }
}

/// The virtual best solver of `corpus` over all its solvers, its puzzles
/// banded by the node counts of `band_by` (the run's reference), when that
/// solver reports nodes.
pub fn virtual_best(corpus: &CorpusRows, band_by: Option<&str>) -> VirtualBest {
    let band_rows = band_by
        .and_then(|name| corpus.solver(name))
        .filter(|r| !r.rows.is_empty() && r.rows.values().all(|s| s.nodes.is_some()));
    // The solvers with rows on this corpus, each by its index among them
    // (the order of the run, which ties go by).
    let present = corpus.present();
    let mut tally = VirtualBestTally::new(present.len());
    let mut bands: BTreeMap<(u64, u64), Vec<u64>> = BTreeMap::new();
    let mut puzzle = Vec::with_capacity(present.len());
    for line in corpus.lines() {
        puzzle.clear();
        puzzle.extend(
            present
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.rows.get(&line).map(|r| (i, r.status, r.ns))),
        );
        let Some(i) = tally.add(&puzzle) else {
            continue;
        };
        let nodes = band_rows.and_then(|r| r.rows.get(&line)?.nodes);
        if let Some(nodes) = nodes {
            let wins = bands
                .entry(node_band(nodes))
                .or_insert_with(|| vec![0; present.len()]);
            wins[i] += 1;
        }
    }
    let shares: Vec<Share> = present
        .iter()
        .zip(&tally.solvers)
        .map(|(s, t)| Share {
            solver: s.name.clone(),
            solved: t.solved,
            total_ns: t.total_ns,
            wins: t.wins,
        })
        .collect();
    VirtualBest {
        corpus: corpus.name.clone(),
        puzzles: corpus.puzzles,
        solved: tally.solved,
        total_ns: tally.total_ns,
        single_best: tally.single_best(|_| true).map(|i| present[i].name.clone()),
        shares,
        band_solver: band_rows.map(|r| r.name.clone()),
        bands: bands
            .into_iter()
            .map(|((from, to), wins)| Band {
                nodes_from: from,
                nodes_to: to,
                puzzles: wins.iter().sum(),
                wins,
            })
            .collect(),
    }
}

/// Each solver's work against its cost per unit on one corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitCost {
    /// Corpus name.
    pub corpus: String,
    /// Each solver with rows on the corpus, in the run's order, and its
    /// figures.
    pub solvers: Vec<(String, SolverCost)>,
}

/// The work against cost per unit of `corpus`'s solvers, from its rows,
/// with the tally the run's notes come from
/// ([`crate::harness::UnitCostTally`]) and the solved rule of the rows.
pub fn unit_cost(corpus: &CorpusRows) -> UnitCost {
    let present = corpus.present();
    let mut tally = UnitCostTally::new(present.len());
    let mut puzzle = Vec::with_capacity(present.len());
    for line in corpus.lines() {
        puzzle.clear();
        puzzle.extend(present.iter().enumerate().filter_map(|(i, s)| {
            s.rows.get(&line).map(|r| Work {
                solver: i,
                status: r.status,
                ns: r.ns,
                counts: [r.nodes, r.updates, r.mems],
            })
        }));
        tally.add(&puzzle);
    }
    UnitCost {
        corpus: corpus.name.clone(),
        solvers: present
            .iter()
            .zip(tally.solvers)
            .map(|(s, cost)| (s.name.clone(), cost))
            .collect(),
    }
}

/// What `dlxbench versus` reports: per corpus, the head-to-head of A and
/// B and the virtual best solver of the run.
#[derive(Debug, Clone)]
pub struct Versus {
    /// The run's directory.
    pub dir: PathBuf,
    /// Solver A.
    pub a: String,
    /// Solver B.
    pub b: String,
    /// The tie band.
    pub tie: f64,
    /// The most puzzles listed where each wins most.
    pub examples: usize,
    /// Where the band comes from.
    pub tie_source: TieSource,
    /// Per corpus, the head-to-head and the virtual best solver.
    pub corpora: Vec<(HeadToHead, VirtualBest)>,
    /// Per corpus (in the order of `corpora`), each solver's work against
    /// its cost per unit.
    pub unit_costs: Vec<UnitCost>,
}

/// Where a tie band comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum TieSource {
    /// [`DEFAULT_TIE`].
    Default,
    /// Given (`--tie`).
    Given,
    /// Measured from an A/A ([`tie_from_aa`]).
    Aa {
        /// The A/A run.
        dir: PathBuf,
        /// The puzzles measured.
        puzzles: u64,
    },
}

/// How to run [`versus`].
#[derive(Debug, Clone)]
pub struct Options {
    /// The tie band (`None`: [`DEFAULT_TIE`], or the A/A's).
    pub tie: Option<f64>,
    /// An A/A run to measure the tie band from (A's times in it against
    /// the run's).
    pub aa: Option<PathBuf>,
    /// Puzzles listed where each wins most.
    pub examples: usize,
    /// Checksums: refuse modified files, or read them.
    pub verify: Verify,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tie: None,
            aa: None,
            examples: DEFAULT_EXAMPLES,
            verify: Verify::Strict,
        }
    }
}

/// `dlxbench versus RUN A B`: A against B on every corpus of the run in
/// `dir`, and each corpus's virtual best solver.
pub fn versus(dir: &Path, a: &str, b: &str, options: &Options) -> Result<Versus, VersusError> {
    let run = read(dir, options.verify)?;
    run.check_solver(a)?;
    run.check_solver(b)?;
    if a == b {
        return Err(VersusError::SameSolver(a.to_string()));
    }
    let (tie, tie_source) = match (options.tie, &options.aa) {
        (Some(t), _) => (t, TieSource::Given),
        (None, Some(aa)) => {
            let other = read(aa, options.verify)?;
            let (t, puzzles) = tie_from_aa(&run, &other, a)?;
            (
                t,
                TieSource::Aa {
                    dir: aa.clone(),
                    puzzles,
                },
            )
        }
        (None, None) => (DEFAULT_TIE, TieSource::Default),
    };
    let corpora = run
        .corpora
        .iter()
        .map(|c| {
            (
                head_to_head(c, a, b, tie, options.examples),
                virtual_best(c, run.reference.as_deref()),
            )
        })
        .collect();
    let unit_costs = run.corpora.iter().map(unit_cost).collect();
    Ok(Versus {
        dir: dir.to_path_buf(),
        a: a.to_string(),
        b: b.to_string(),
        tie,
        examples: options.examples,
        tie_source,
        corpora,
        unit_costs,
    })
}

#[cfg(test)]
mod tests;
