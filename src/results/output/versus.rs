//! `versus --format json`: [`VersusJson`].

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use serde::{Deserialize, Serialize};

/// The value of [`VersusJson::format`].
pub const VERSUS_FORMAT: &str = "dlxbench-versus/1";

/// Two solvers of one run puzzle by puzzle, for machines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersusJson {
    /// [`VERSUS_FORMAT`].
    pub format: String,
    /// The result directory read.
    pub run: String,
    /// Solver A.
    pub a: String,
    /// Solver B.
    pub b: String,
    /// Puzzles listed per side at most (`a_best`, `b_best`).
    pub examples: u64,
    /// The tie band and where it came from.
    pub tie: Tie,
    /// Per corpus.
    pub corpora: Vec<VersusCorpus>,
}

/// The tie band: two times within a factor `1 + band` either way tie.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tie {
    /// The band, a fraction.
    pub band: f64,
    /// `default`, `option` (`--tie`) or `aa` (measured by `--aa RUN2`).
    pub source: String,
    /// With `aa`: the A/A run; else `null`.
    pub aa_run: Option<String>,
    /// With `aa`: the puzzles it measured the band on; else `null`.
    pub aa_puzzles: Option<u64>,
}

/// One corpus: head to head and the virtual best solver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersusCorpus {
    /// Corpus name.
    pub corpus: String,
    /// Its puzzles.
    pub puzzles: u64,
    /// A against B.
    pub head_to_head: HeadToHeadJson,
    /// The virtual best solver of all the run's solvers.
    pub virtual_best: VirtualBestJson,
    /// Work against cost per unit of each of the run's solvers.
    pub unit_cost: UnitCostJson,
}

/// Work against cost per unit of one corpus's solvers: time = units x
/// time per unit (`crate::harness::unit_cost`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitCostJson {
    /// How the figures are computed, in words.
    pub definition: String,
    /// Each solver with rows on the corpus, in the run's order.
    pub solvers: Vec<SolverCostJson>,
}

/// One solver's work and cost per unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SolverCostJson {
    /// Solver name.
    pub solver: String,
    /// Puzzles it solved.
    pub solved: u64,
    /// Sum of their times, ns.
    pub total_ns: u64,
    /// Mean time per puzzle solved, ns (`null` with none solved).
    pub mean_ns: Option<f64>,
    /// Per search node (`null`: no count recorded).
    pub nodes: Option<UnitJson>,
    /// Per link update (`null`: no count recorded).
    pub updates: Option<UnitJson>,
    /// Per mem (`null`: no count recorded).
    pub mems: Option<UnitJson>,
}

/// One unit's sums over the solved puzzles that reported a count of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitJson {
    /// Puzzles.
    pub puzzles: u64,
    /// Sum of their times, ns.
    pub ns: u64,
    /// Sum of their counts.
    pub count: u64,
    /// `count / puzzles`.
    pub per_puzzle: Option<f64>,
    /// `ns / count` (`null` when the count is 0).
    pub ns_per_unit: Option<f64>,
}

/// A against B on one corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeadToHeadJson {
    /// Puzzles A solved faster, beyond the tie band (or B did not solve).
    pub a_wins: u64,
    /// Puzzles both solved within the tie band.
    pub ties: u64,
    /// Puzzles B solved faster, likewise.
    pub b_wins: u64,
    /// Puzzles neither solved.
    pub neither: u64,
    /// Puzzles both solved.
    pub both_solved: u64,
    /// Puzzles only A solved.
    pub only_a: u64,
    /// Puzzles only B solved.
    pub only_b: u64,
    /// The ratio B / A over the puzzles both solved.
    pub ratio: RatioSummary,
    /// The puzzles where A is furthest ahead.
    pub a_best: Vec<PairJson>,
    /// The puzzles where B is furthest ahead.
    pub b_best: Vec<PairJson>,
}

/// The ratio B / A of the puzzles both solved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioSummary {
    /// `b_ns / a_ns`.
    pub definition: String,
    /// Their geometric mean; `null` without such a puzzle.
    pub geometric_mean: Option<f64>,
    /// Quantiles of the ratio.
    pub quantiles: Vec<Quantile>,
}

/// A quantile of a ratio.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quantile {
    /// The fraction below (0.5: the median).
    pub q: f64,
    /// The ratio there.
    pub ratio: f64,
}

/// One puzzle as both solvers solved it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairJson {
    /// Its line in the corpus (1-based).
    pub line: u64,
    /// A's solve; `null` without a row (n/a).
    pub a: Option<SolveJson>,
    /// B's solve, likewise.
    pub b: Option<SolveJson>,
    /// B's time over A's; `null` unless both solved it.
    pub ratio: Option<f64>,
}

/// One solver's solve of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolveJson {
    /// Time, ns (the minimum over passes; 0 when not timed).
    pub ns: u64,
    /// Search nodes; `null` when the solver reports none.
    pub nodes: Option<u64>,
    /// The status in `puzzles.csv`.
    pub status: String,
    /// Whether it counts as solved.
    pub solved: bool,
}

/// The virtual best solver of one corpus: on each puzzle, the fastest
/// solver that solved it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VirtualBestJson {
    /// Puzzles some solver solved.
    pub solved: u64,
    /// The sum of the best time of each of those puzzles, ns.
    pub total_ns: u64,
    /// Its mean time per puzzle solved, ns.
    pub mean_ns: Option<f64>,
    /// Puzzles solved per second of solve time on one worker.
    pub per_s: Option<f64>,
    /// The single best solver (most solved, then least total time).
    pub single_best: Option<String>,
    /// The single best against the virtual best; `null` without them.
    pub vs_single_best: Option<VsSingleBest>,
    /// The solver whose node counts band the puzzles (the run's
    /// reference); `null` when it reports none.
    pub band_solver: Option<String>,
    /// Per band of `band_solver`'s search nodes, who was fastest.
    pub bands: Vec<BandJson>,
    /// Each solver's part, in the run's order.
    pub solvers: Vec<ShareJson>,
}

/// The single best solver against the virtual best.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct VsSingleBest {
    /// The single best's mean over the virtual best's (above 1: the
    /// virtual best is faster).
    pub mean_ratio: f64,
    /// The virtual best's puzzles per second over the single best's.
    pub per_s_ratio: f64,
}

/// The puzzles of one node-count band of a corpus, and who was fastest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BandJson {
    /// The band's smallest node count (1, 10, 100, ...; 0 alone).
    pub nodes_from: u64,
    /// The band's largest node count.
    pub nodes_to: u64,
    /// Puzzles in the band that some solver solved.
    pub puzzles: u64,
    /// Per solver, the band's puzzles it was fastest on.
    pub wins: Vec<SolverWins>,
    /// The solver fastest most often in the band; `null` when none.
    pub winner: Option<String>,
}

/// A solver's wins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverWins {
    /// Solver name.
    pub solver: String,
    /// Puzzles on which it was the fastest.
    pub wins: u64,
}

/// One solver's part of the virtual best.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareJson {
    /// Solver name.
    pub solver: String,
    /// Puzzles it solved.
    pub solved: u64,
    /// The sum of its solved puzzles' times, ns.
    pub total_ns: u64,
    /// Its mean time per puzzle solved, ns.
    pub mean_ns: Option<f64>,
    /// Puzzles solved per second of solve time on one worker.
    pub per_s: Option<f64>,
    /// Puzzles on which it is the fastest solver.
    pub wins: u64,
    /// Its wins over the puzzles some solver solved; `null` when none was.
    pub win_share: Option<f64>,
}
