//! Paired solve times of a run's solvers, puzzle by puzzle: what the
//! table's speed column is made of ([`Speed`]).
//!
//! A ratio of mean times compares two sums that a single stall can own,
//! over puzzle sets that may differ (one solver over budget on most of
//! them). The speed of solver `s` against the reference `r` is instead the
//! geometric mean of `ns_r / ns_s` over the puzzles *both* solved within
//! budget with a valid answer and the same solution count: each puzzle is
//! a pair, a stall moves one pair by its logarithm, not the whole sum.
//!
//! [`PairedTimes`] keeps, per block of [`PairedTimes::block`] consecutive
//! lines of the corpus and per pair of solvers, the sum and count of
//! `ln ns_i - ln ns_j`: a few numbers per block, whatever the corpus size,
//! added as each puzzle's records come in (outside the timed region; one
//! allocation per block of lines). The blocks are defined by line numbers
//! only, so shards of one run add up to exactly the unsharded run's blocks
//! (`dlxbench merge`). In a run that is not shuffled they are the
//! schedule's blocks (cut also where a chunk ends): the puzzles one solver
//! solved back to back, which a burst of load or a frequency change hits
//! together. The interval ([`block_bootstrap`]) therefore resamples
//! blocks, not puzzles.
//!
//! The same puzzle-by-puzzle records also feed each corpus's virtual best
//! solver ([`VirtualBestTally`], [`PairedTimes::virtual_best`]): which
//! solver was fastest on each puzzle; and each solver's work against its
//! cost per unit ([`UnitCostTally`], [`PairedTimes::unit_cost`]).

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::collections::BTreeMap;

use rayon::prelude::*;

pub use super::quantiles::{quantile, t_for, z_for};
use super::unit_cost::{UnitCostTally, Work};
use super::virtual_best::VirtualBestTally;
use super::Record;
use crate::rng::SplitMix;
use crate::solvers::Status;

/// Fewest puzzles both solvers must have solved for a speed ratio: below
/// it, [`NoRatio::TooFew`].
pub const MIN_COMMON: u64 = 10;

/// Resamples of the speed interval's bootstrap.
pub const SPEED_RESAMPLES: usize = 2000;

/// Seed of the speed interval's bootstrap (the same for every run, so the
/// same data gives the same interval).
pub const SPEED_SEED: u64 = 1;

/// Confidence of the speed interval.
pub const SPEED_CONFIDENCE: f64 = 0.95;

/// The sum and count of log-ratios of one block of puzzles.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BlockSum {
    /// Sum of the log-ratios.
    pub sum: f64,
    /// How many.
    pub count: u32,
}

/// One block of lines: per pair of solvers the sum of log-ratios, and per
/// solver the process that timed its solves there.
#[derive(Debug, Clone, PartialEq)]
struct PairBlock {
    /// `solvers x solvers` sums; entry `i * solvers + j` (`i < j`) sums
    /// `ln ns_i - ln ns_j`.
    sums: Vec<BlockSum>,
    /// Per solver, the process that timed the block's first counted solve
    /// ([`Record::host`]; `None`: in process).
    hosts: Vec<Option<u32>>,
}

impl PairBlock {
    fn new(solvers: usize) -> Self {
        PairBlock {
            sums: vec![BlockSum::default(); solvers * solvers],
            hosts: vec![None; solvers],
        }
    }
}

/// Whose effect a unit of the speed interval shares with others, on one
/// side of a pair: a block of lines (both solvers in this process), this
/// process, or a host process of the solver's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    /// A block of lines, its own unit.
    Block(u64),
    /// This process: the same for every unit.
    Here,
    /// A process of the solver's own.
    Host(u32),
}

/// The units of a speed interval ([`PairedTimes::pairs`]): each unit's
/// sums, and on each side of the pair which process (dense indices) its
/// effect belongs to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Units {
    /// Per unit, the sum and count of `ln(ns_reference / ns_solver)`.
    pub sums: Vec<BlockSum>,
    /// Per unit, the reference's process (or block).
    pub reference: Vec<usize>,
    /// Per unit, the solver's process (or block).
    pub solver: Vec<usize>,
}

impl Units {
    /// Puzzles over all units.
    pub fn puzzles(&self) -> u64 {
        self.sums.iter().map(|b| u64::from(b.count)).sum()
    }
}

/// Per block of lines and pair of solvers, the paired log-ratios of solve
/// times; per pair, the puzzles both timed with different solution counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairedTimes {
    /// Solvers of the run (0: nothing added yet).
    solvers: usize,
    /// Lines per block.
    block: u64,
    /// Block index `(line - 1) / block` -> its sums and hosts.
    blocks: BTreeMap<u64, PairBlock>,
    /// `solvers x solvers` counts (`i < j`) of puzzles both timed whose
    /// solution counts differ.
    disagree: Vec<u64>,
    /// Per solver, the puzzle being added: `ln ns`, solutions and host,
    /// when it counts.
    scratch: Vec<Option<(f64, u64, Option<u32>)>>,
    /// The virtual best solver over the puzzles added.
    virtual_best: VirtualBestTally,
    /// The puzzle being added, for the virtual best: solver, status, ns.
    solves: Vec<(usize, Status, u64)>,
    /// Each solver's work and cost per unit over the puzzles added.
    unit_cost: UnitCostTally,
    /// The puzzle being added, for the cost per unit.
    work: Vec<Work>,
}

/// Whether a record is a solve within budget with a valid answer and a
/// time.
fn counts(r: &Record) -> bool {
    matches!(
        r.status,
        Status::Solved | Status::Unique | Status::Multiple | Status::NoSolution
    ) && r.ns > 0
        && r.ns != u64::MAX
}

impl PairedTimes {
    /// Empty, for `solvers` solvers and blocks of `block` lines (at least 1).
    pub fn new(solvers: usize, block: usize) -> Self {
        PairedTimes {
            solvers,
            block: block.max(1) as u64,
            blocks: BTreeMap::new(),
            disagree: vec![0; solvers * solvers],
            scratch: vec![None; solvers],
            virtual_best: VirtualBestTally::new(solvers),
            solves: Vec::with_capacity(solvers),
            unit_cost: UnitCostTally::new(solvers),
            work: Vec::with_capacity(solvers),
        }
    }

    /// Each solver's work and cost per unit over the puzzles added
    /// ([`UnitCostTally`]; with one solver too).
    pub fn unit_cost(&self) -> &UnitCostTally {
        &self.unit_cost
    }

    /// The virtual best solver of the puzzles added: on each, the fastest
    /// solver that solved it ([`VirtualBestTally`]).
    pub fn virtual_best(&self) -> &VirtualBestTally {
        &self.virtual_best
    }

    /// Lines per block.
    pub fn block(&self) -> u64 {
        self.block
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty() && self.disagree.iter().all(|&d| d == 0)
    }

    /// Clears everything (keeps the solver count and block size).
    pub fn reset(&mut self) {
        self.blocks.clear();
        self.disagree.iter_mut().for_each(|d| *d = 0);
        self.virtual_best = VirtualBestTally::new(self.solvers);
        self.unit_cost = UnitCostTally::new(self.solvers);
    }

    /// Adds the records of one puzzle, on line `line` (one per solver that
    /// ran it, each naming its solver; solvers without a record did not
    /// take the puzzle).
    pub fn add_puzzle(&mut self, line: u64, records: &[Record]) {
        let k = self.solvers;
        self.work.clear();
        self.work.extend(
            records
                .iter()
                .filter(|r| usize::from(r.solver) < k)
                .map(|r| Work {
                    solver: usize::from(r.solver),
                    status: r.status,
                    ns: r.ns,
                    counts: [r.nodes, r.updates, r.mems],
                }),
        );
        self.unit_cost.add(&self.work);
        if k < 2 {
            return;
        }
        self.solves.clear();
        self.solves.extend(
            records
                .iter()
                .filter(|r| usize::from(r.solver) < k)
                .map(|r| (usize::from(r.solver), r.status, r.ns)),
        );
        self.virtual_best.add(&self.solves);
        self.scratch.iter_mut().for_each(|s| *s = None);
        for r in records {
            let i = usize::from(r.solver);
            if i < k && counts(r) {
                self.scratch[i] = Some(((r.ns as f64).ln(), r.solutions, r.host));
            }
        }
        let block = line.saturating_sub(1) / self.block;
        let (blocks, disagree, scratch) = (&mut self.blocks, &mut self.disagree, &self.scratch);
        let mut entry: Option<&mut PairBlock> = None;
        for i in 0..k {
            let Some((li, si, hi)) = scratch[i] else {
                continue;
            };
            for j in i + 1..k {
                let Some((lj, sj, hj)) = scratch[j] else {
                    continue;
                };
                if si != sj {
                    disagree[i * k + j] += 1;
                    continue;
                }
                if entry.is_none() {
                    entry = Some(blocks.entry(block).or_insert_with(|| PairBlock::new(k)));
                }
                let Some(e) = entry.as_deref_mut() else {
                    continue;
                };
                e.hosts[i] = e.hosts[i].or(hi);
                e.hosts[j] = e.hosts[j].or(hj);
                let e = &mut e.sums[i * k + j];
                e.sum += li - lj;
                e.count += 1;
            }
        }
    }

    /// Adds `other`'s blocks and counts (the same solvers and block size;
    /// anything else is ignored).
    pub fn merge(&mut self, other: &PairedTimes) {
        if other.solvers != self.solvers || other.block != self.block {
            return;
        }
        for (b, theirs) in &other.blocks {
            let mine = self
                .blocks
                .entry(*b)
                .or_insert_with(|| PairBlock::new(self.solvers));
            for (m, o) in mine.sums.iter_mut().zip(&theirs.sums) {
                m.sum += o.sum;
                m.count += o.count;
            }
            for (m, o) in mine.hosts.iter_mut().zip(&theirs.hosts) {
                *m = m.or(*o);
            }
        }
        for (m, o) in self.disagree.iter_mut().zip(&other.disagree) {
            *m += o;
        }
        self.virtual_best.merge(&other.virtual_best);
        self.unit_cost.merge(&other.unit_cost);
    }

    /// The units the speed interval resamples, each the sum of
    /// `ln(ns_reference / ns_solver)` over its pairs (those with at least
    /// one), in a fixed order; and the puzzles whose solution counts differ
    /// between the two.
    ///
    /// A unit is a block of lines when both solvers ran in this process.
    /// When either ran in processes of its own, a unit is every block the
    /// two timed in the same pair of processes: a process keeps, for its
    /// whole life, effects that move all its times together (where its
    /// code, stack and heap landed, and so which cache sets they share),
    /// so its blocks are not independent of each other. An A/A run of one
    /// library loaded twice, isolated, measured it (docs/benchmarks.md):
    /// resampling blocks, 74 of 100 intervals held 1.0; the hosts' blocks
    /// together, see there. Hosts replaced every few blocks
    /// (`--renew-hosts`) make the units many.
    pub fn pairs(&self, reference: usize, solver: usize) -> (Units, u64) {
        let k = self.solvers;
        if reference >= k || solver >= k || reference == solver {
            return (Units::default(), 0);
        }
        let (i, j, sign) = if reference < solver {
            (reference, solver, 1.0)
        } else {
            (solver, reference, -1.0)
        };
        let mut units: BTreeMap<(Side, Side), BlockSum> = BTreeMap::new();
        for (&b, block) in &self.blocks {
            let s = block.sums[i * k + j];
            if s.count == 0 {
                continue;
            }
            let (hr, hs) = match reference < solver {
                true => (block.hosts[i], block.hosts[j]),
                false => (block.hosts[j], block.hosts[i]),
            };
            let key = match (hr, hs) {
                (None, None) => (Side::Block(b), Side::Here),
                (hr, hs) => (
                    hr.map_or(Side::Here, Side::Host),
                    hs.map_or(Side::Here, Side::Host),
                ),
            };
            let u = units.entry(key).or_default();
            u.sum += sign * s.sum;
            u.count += s.count;
        }
        let dense = |side: fn(&(Side, Side)) -> Side| {
            let mut seen: Vec<Side> = units.keys().map(side).collect();
            seen.sort_unstable();
            seen.dedup();
            units
                .keys()
                .map(|key| seen.binary_search(&side(key)).unwrap_or(0))
                .collect::<Vec<usize>>()
        };
        let out = Units {
            reference: dense(|key| key.0),
            solver: dense(|key| key.1),
            sums: units.values().copied().collect(),
        };
        (out, self.disagree[i * k + j])
    }
}

/// The speed interval over `units` ([`PairedTimes::pairs`]). When one
/// side of every unit is the same process (a block, this process, or a
/// solver's one host), the effects are one-way: [`block_bootstrap`] over
/// the units. When both solvers ran in several processes of their own,
/// each unit shares its reference's process with some units and its
/// solver's with others (the two are replaced at different blocks), and
/// resampling the units as if independent misses both effects: Owen's
/// pigeonhole bootstrap ("The pigeonhole bootstrap", Annals of Applied
/// Statistics, 2007) draws the reference's processes and the solver's
/// independently, with replacement, and weights each unit by the product
/// of its two processes' draws. It is known to be mildly conservative. In
/// 100 A/A runs of one library loaded twice, isolated (docs/benchmarks.md),
/// it held 1.0 in 97 and 100 of 100, where units resampled as
/// independent held it in 84 to 89.
pub fn unit_bootstrap(
    units: &Units,
    resamples: usize,
    seed: u64,
    confidence: f64,
) -> Option<(f64, f64, f64)> {
    let count = |side: &[usize]| side.iter().max().map_or(0, |&m| m + 1);
    let (nr, ns) = (count(&units.reference), count(&units.solver));
    let total = units.puzzles();
    if nr < 2 || ns < 2 || resamples == 0 || total == 0 {
        return block_bootstrap(&units.sums, resamples, seed, confidence);
    }
    let estimate = (units.sums.iter().map(|b| b.sum).sum::<f64>() / total as f64).exp();
    let mut means: Vec<f64> = (0..resamples as u64)
        .into_par_iter()
        .map(|b| {
            let mut rng = SplitMix::for_item(seed, b);
            let mut weights = vec![0u64; nr + ns];
            let (wr, ws) = weights.split_at_mut(nr);
            (0..nr).for_each(|_| wr[rng.below(nr)] += 1);
            (0..ns).for_each(|_| ws[rng.below(ns)] += 1);
            let (mut sum, mut count) = (0.0f64, 0u64);
            for (u, s) in units.sums.iter().enumerate() {
                let w = wr[units.reference[u]] * ws[units.solver[u]];
                sum += w as f64 * s.sum;
                count += w * u64::from(s.count);
            }
            // A draw that meets no unit (its processes never overlapped:
            // rare) counts as the estimate.
            match count {
                0 => estimate.ln(),
                _ => sum / count as f64,
            }
        })
        .collect();
    means.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some((
        estimate,
        quantile(&means, tail).exp(),
        quantile(&means, 1.0 - tail).exp(),
    ))
}

/// The ratio estimate `exp(sum / count)` over `blocks` and a percentile
/// bootstrap interval over blocks: `resamples` times, draw as many blocks
/// with replacement and take the pooled mean of their log-ratios; the
/// interval is the `(1 - confidence) / 2` and `(1 + confidence) / 2`
/// quantiles of those means, widened about the estimate by
/// `t_for(confidence, n - 1) / z_for(confidence) * sqrt(n / (n - 1))`,
/// exponentiated. Resample `b` draws from its own stream
/// ([`SplitMix::for_item`]`(seed, b)`): the same data and seed give the
/// same interval whatever the thread count. `None` with fewer than two
/// blocks or no resamples.
///
/// Why the widening: a bootstrap over `n` units spreads like a standard
/// error computed with `n` in the denominator where `n - 1` belongs, and
/// its percentiles are normal ones where the spread is estimated from `n`
/// units; both make a percentile interval over few units too narrow (the
/// small-sample correction of cluster-robust intervals: `n / (n - 1)` and
/// Student's t with `n - 1` degrees of freedom). Over hundreds of blocks
/// it widens by well under 1%; over a dozen units (one solver's host
/// processes) by about 17%; over the 23 blocks of top1465, 8%.
pub fn block_bootstrap(
    blocks: &[BlockSum],
    resamples: usize,
    seed: u64,
    confidence: f64,
) -> Option<(f64, f64, f64)> {
    let n = blocks.len();
    let total: u64 = blocks.iter().map(|b| u64::from(b.count)).sum();
    if n < 2 || resamples == 0 || total == 0 {
        return None;
    }
    let estimate = (blocks.iter().map(|b| b.sum).sum::<f64>() / total as f64).exp();
    let mut means: Vec<f64> = (0..resamples as u64)
        .into_par_iter()
        .map(|b| {
            let mut rng = SplitMix::for_item(seed, b);
            let (mut sum, mut count) = (0.0f64, 0u64);
            for _ in 0..n {
                let x = blocks[rng.below(n)];
                sum += x.sum;
                count += u64::from(x.count);
            }
            sum / count.max(1) as f64
        })
        .collect();
    means.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    let widen =
        t_for(confidence, n as u64 - 1) / z_for(confidence) * (n as f64 / (n - 1) as f64).sqrt();
    let centre = estimate.ln();
    let low = centre - (centre - quantile(&means, tail)) * widen;
    let high = centre + (quantile(&means, 1.0 - tail) - centre) * widen;
    Some((estimate, low.exp(), high.exp()))
}

/// A solver's speed against the reference, as the table shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Speed {
    /// The reference itself.
    Reference,
    /// A paired ratio.
    Ratio(SpeedRatio),
    /// No ratio, and why.
    Missing(NoRatio),
}

/// The geometric mean of `ns_reference / ns_solver` over the puzzles both
/// solved (above 1: the solver is faster) and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedRatio {
    /// The estimate.
    pub estimate: f64,
    /// Lower bound (`None`: fewer than two blocks, no interval).
    pub low: Option<f64>,
    /// Upper bound.
    pub high: Option<f64>,
    /// Puzzles both solved.
    pub puzzles: u64,
}

/// Why a solver has no speed ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRatio {
    /// It returned invalid answers.
    Invalid,
    /// The reference returned invalid answers.
    ReferenceInvalid,
    /// Its solution counts differ from the reference's on some puzzles.
    Disagrees,
    /// Fewer than [`MIN_COMMON`] puzzles both solved.
    TooFew,
    /// No paired data (a run read back from files without it).
    NoData,
    /// Its own reported times do not explain its round trips
    /// ([`super::own_time`]): not believed, no ratio quoted.
    Unverified,
    /// The reference's own times do not explain its round trips.
    ReferenceUnverified,
}

impl NoRatio {
    /// The word the table and `summary.csv` show.
    pub fn as_str(self) -> &'static str {
        match self {
            NoRatio::Invalid => "invalid",
            NoRatio::ReferenceInvalid => "ref invalid",
            NoRatio::Disagrees => "disagrees",
            NoRatio::TooFew => "too few",
            NoRatio::NoData => "no data",
            NoRatio::Unverified => "unverified",
            NoRatio::ReferenceUnverified => "ref unverified",
        }
    }

    /// The reason named `name` ([`NoRatio::as_str`]).
    pub fn from_name(name: &str) -> Option<NoRatio> {
        [
            NoRatio::Invalid,
            NoRatio::ReferenceInvalid,
            NoRatio::Disagrees,
            NoRatio::TooFew,
            NoRatio::NoData,
            NoRatio::Unverified,
            NoRatio::ReferenceUnverified,
        ]
        .into_iter()
        .find(|r| r.as_str() == name)
    }
}

impl Speed {
    /// The speed of solver `solver` against `reference` from `paired`,
    /// given each one's count of invalid answers.
    pub fn of(paired: &PairedTimes, reference: usize, solver: usize, invalid: (u64, u64)) -> Speed {
        let (ref_invalid, invalid) = invalid;
        if invalid > 0 {
            return Speed::Missing(NoRatio::Invalid);
        }
        if solver == reference {
            return Speed::Reference;
        }
        if ref_invalid > 0 {
            return Speed::Missing(NoRatio::ReferenceInvalid);
        }
        if paired.is_empty() {
            return Speed::Missing(NoRatio::NoData);
        }
        let (units, disagree) = paired.pairs(reference, solver);
        if disagree > 0 {
            return Speed::Missing(NoRatio::Disagrees);
        }
        let puzzles = units.puzzles();
        if puzzles < MIN_COMMON {
            return Speed::Missing(NoRatio::TooFew);
        }
        let interval = unit_bootstrap(&units, SPEED_RESAMPLES, SPEED_SEED, SPEED_CONFIDENCE);
        let estimate = interval.map_or_else(
            || (units.sums.iter().map(|b| b.sum).sum::<f64>() / puzzles as f64).exp(),
            |i| i.0,
        );
        Speed::Ratio(SpeedRatio {
            estimate,
            low: interval.map(|i| i.1),
            high: interval.map(|i| i.2),
            puzzles,
        })
    }

    /// The ratio, when there is one (1 for the reference).
    pub fn ratio(&self) -> Option<f64> {
        match self {
            Speed::Reference => Some(1.0),
            Speed::Ratio(r) => Some(r.estimate),
            Speed::Missing(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(line: u64, solver: u16, ns: u64, status: Status, solutions: u64) -> Record {
        Record::new(line, solver, status, ns, solutions)
    }

    /// 200 puzzles: the reference (0) takes 10-30 µs, solver 1 twice as
    /// long, solver 2 half as long; `stall` puzzles of the reference take
    /// 10 ms instead.
    fn quiet_run(stall: &[u64]) -> (PairedTimes, [u128; 3]) {
        let mut p = PairedTimes::new(3, 64);
        let mut sums = [0u128; 3];
        for line in 1..=200u64 {
            let base = 10_000 + (line * 7919 % 20_000);
            let r = if stall.contains(&line) {
                10_000_000
            } else {
                base
            };
            let ns = [r, 2 * base, base / 2];
            for (s, n) in ns.iter().enumerate() {
                sums[s] += u128::from(*n);
            }
            let recs: Vec<Record> = ns
                .iter()
                .enumerate()
                .map(|(s, &n)| record(line, s as u16, n, Status::Unique, 1))
                .collect();
            p.add_puzzle(line, &recs);
        }
        (p, sums)
    }

    fn ratio(speed: Speed) -> SpeedRatio {
        match speed {
            Speed::Ratio(r) => r,
            other => panic!("no ratio: {other:?}"),
        }
    }

    #[test]
    fn a_stall_in_the_references_column_keeps_the_quiet_ranking() {
        let (quiet, _) = quiet_run(&[]);
        let q = ratio(Speed::of(&quiet, 0, 1, (0, 0)));
        assert!((q.estimate - 0.5).abs() < 1e-9, "{q:?}");
        assert_eq!(q.puzzles, 200);
        // One 10 ms solve of the reference.
        let (stalled, sums) = quiet_run(&[77]);
        // A ratio of means would now call solver 1 faster than the
        // reference: the stall owns the reference's sum.
        assert!(sums[0] > sums[1], "{sums:?}");
        let s = ratio(Speed::of(&stalled, 0, 1, (0, 0)));
        assert!(s.estimate < 1.0, "ranking kept: {s:?}");
        assert!(s.high.unwrap() < 1.0, "{s:?}");
        let fast = ratio(Speed::of(&stalled, 0, 2, (0, 0)));
        assert!(fast.estimate > 1.0 && fast.low.unwrap() > 1.0, "{fast:?}");
        assert_eq!(Speed::of(&stalled, 0, 0, (0, 0)), Speed::Reference);
        // And the other direction: reference 1 against 0.
        let back = ratio(Speed::of(&quiet, 1, 0, (0, 0)));
        assert!((back.estimate - 2.0).abs() < 1e-9, "{back:?}");
    }

    /// A/A pairs over 40 blocks of 8 lines: solver 1 runs in four host
    /// processes of 10 blocks each, one of them 20% slower throughout (a
    /// process effect). In process, every block is a unit; with hosts,
    /// every host's blocks are one unit, and the interval widens to cover
    /// the slow host, which blocks resampled one by one do not.
    #[test]
    fn the_blocks_of_one_host_process_are_resampled_together() {
        let run = |hosts: bool| {
            let mut p = PairedTimes::new(2, 8);
            for line in 1..=320u64 {
                let block = (line - 1) / 8;
                let host = 1000 + (block / 10) as u32;
                let jitter = 1.0 + 0.02 * ((line * 7919 % 11) as f64 - 5.0) / 5.0;
                let slow = if host == 1001 { 1.2 } else { 1.0 };
                let mut b = record(
                    line,
                    1,
                    (10_000.0 * jitter * slow) as u64,
                    Status::Unique,
                    1,
                );
                b.host = hosts.then_some(host);
                let recs = [record(line, 0, 10_000, Status::Unique, 1), b];
                p.add_puzzle(line, &recs);
            }
            p
        };
        let (blocks, _) = run(false).pairs(0, 1);
        assert_eq!(blocks.sums.len(), 40);
        let (units, _) = run(true).pairs(0, 1);
        assert_eq!(units.sums.len(), 4);
        assert_eq!(units.solver, [0, 1, 2, 3]);
        assert_eq!(units.reference, [0, 0, 0, 0]);
        assert_eq!(units.puzzles(), 320);
        let width = |units: &Units| {
            let (_, low, high) = unit_bootstrap(units, 2000, 1, 0.95).unwrap();
            high / low
        };
        assert!(
            width(&units) > 1.0 + 2.0 * (width(&blocks) - 1.0),
            "{units:?}"
        );
        // Shards keep the hosts: a merge of two halves has the same units.
        let mut halves = [PairedTimes::new(2, 8), PairedTimes::new(2, 8)];
        for line in 1..=320u64 {
            let block = (line - 1) / 8;
            let mut b = record(line, 1, 10_000, Status::Unique, 1);
            b.host = Some(1000 + (block / 10) as u32);
            let recs = [record(line, 0, 9_000, Status::Unique, 1), b];
            halves[usize::from(line > 160)].add_puzzle(line, &recs);
        }
        let [mut first, second] = halves;
        first.merge(&second);
        assert_eq!(first.pairs(0, 1).0.sums.len(), 4);
    }

    /// Both solvers in processes of their own, replaced at different
    /// blocks: a unit shares its reference's process with some units and
    /// its solver's with others. One slow process on each side: the
    /// pigeonhole interval is wider than one over the units as if they
    /// were independent, and contains the truth (1.0) where that does not.
    #[test]
    fn crossed_host_processes_are_resampled_on_both_sides() {
        let mut p = PairedTimes::new(2, 8);
        for line in 1..=480u64 {
            let block = (line - 1) / 8;
            // The reference's hosts last 12 blocks, the solver's 8.
            let (ha, hb) = (100 + (block / 12) as u32, 200 + (block / 8) as u32);
            let jitter = 1.0 + 0.01 * ((line * 7919 % 11) as f64 - 5.0) / 5.0;
            let slow_a = if ha == 100 { 1.15 } else { 1.0 };
            let slow_b = if hb == 203 { 1.15 } else { 1.0 };
            let mut a = record(line, 0, (10_000.0 * slow_a) as u64, Status::Unique, 1);
            let mut b = record(
                line,
                1,
                (10_000.0 * jitter * slow_b) as u64,
                Status::Unique,
                1,
            );
            a.host = Some(ha);
            b.host = Some(hb);
            p.add_puzzle(line, &[a, b]);
        }
        let (units, _) = p.pairs(0, 1);
        assert_eq!(units.reference.iter().max(), Some(&4));
        assert_eq!(units.solver.iter().max(), Some(&7));
        let (e, low, high) = unit_bootstrap(&units, 2000, 1, 0.95).unwrap();
        let (_, flat_low, flat_high) = block_bootstrap(&units.sums, 2000, 1, 0.95).unwrap();
        assert!(
            high / low > flat_high / flat_low,
            "{low} {high} {flat_low} {flat_high}"
        );
        assert!(low <= 1.0 && 1.0 <= high, "{e} ({low}-{high})");
        // The reference seen from the solver: the same interval, inverted.
        let (back, _) = p.pairs(1, 0);
        let (e2, low2, high2) = unit_bootstrap(&back, 2000, 1, 0.95).unwrap();
        assert!((e * e2 - 1.0).abs() < 1e-9);
        assert!(low2 > 0.0 && high2 >= e2 && low2 <= e2);
    }

    #[test]
    fn no_ratio_for_invalid_answers_disagreements_or_too_few_puzzles() {
        let mut p = PairedTimes::new(4, 64);
        for line in 1..=100u64 {
            let recs = [
                record(line, 0, 1000, Status::Unique, 1),
                // Answers "no solution" to everything.
                record(line, 1, 10, Status::NoSolution, 0),
                // Over budget but on 5 puzzles.
                if line <= 5 {
                    record(line, 2, 5000, Status::Unique, 1)
                } else {
                    record(line, 2, 9000, Status::Budget, 0)
                },
                record(line, 3, 500, Status::Unique, 1),
            ];
            p.add_puzzle(line, &recs);
        }
        assert_eq!(
            Speed::of(&p, 0, 1, (0, 0)),
            Speed::Missing(NoRatio::Disagrees)
        );
        assert_eq!(Speed::of(&p, 0, 2, (0, 0)), Speed::Missing(NoRatio::TooFew));
        assert_eq!(
            Speed::of(&p, 0, 3, (0, 2)),
            Speed::Missing(NoRatio::Invalid)
        );
        assert_eq!(
            Speed::of(&p, 0, 3, (1, 0)),
            Speed::Missing(NoRatio::ReferenceInvalid)
        );
        let r = ratio(Speed::of(&p, 0, 3, (0, 0)));
        assert!((r.estimate - 2.0).abs() < 1e-9);
        // The same ratio on every puzzle: a point interval.
        assert!((r.low.unwrap() - 2.0).abs() < 1e-9 && (r.high.unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(
            Speed::of(&PairedTimes::new(4, 64), 0, 3, (0, 0)),
            Speed::Missing(NoRatio::NoData)
        );
        for why in [
            NoRatio::Invalid,
            NoRatio::ReferenceInvalid,
            NoRatio::Disagrees,
            NoRatio::TooFew,
            NoRatio::NoData,
        ] {
            assert_eq!(NoRatio::from_name(why.as_str()), Some(why));
        }
    }

    #[test]
    fn shards_add_up_to_the_whole_run() {
        let (whole, _) = quiet_run(&[5, 150]);
        // Two shards, lines dealt round-robin, added in another order.
        let mut parts = [PairedTimes::new(3, 64), PairedTimes::new(3, 64)];
        for line in (1..=200u64).rev() {
            let base = 10_000 + (line * 7919 % 20_000);
            let r = if [5, 150].contains(&line) {
                10_000_000
            } else {
                base
            };
            let recs: Vec<Record> = [r, 2 * base, base / 2]
                .iter()
                .enumerate()
                .map(|(s, &n)| record(line, s as u16, n, Status::Unique, 1))
                .collect();
            parts[(line % 2) as usize].add_puzzle(line, &recs);
        }
        let mut merged = PairedTimes::new(3, 64);
        merged.merge(&parts[1]);
        merged.merge(&parts[0]);
        for s in 1..3 {
            let (a, b) = (
                ratio(Speed::of(&whole, 0, s, (0, 0))),
                ratio(Speed::of(&merged, 0, s, (0, 0))),
            );
            assert_eq!(a.puzzles, b.puzzles);
            for (x, y) in [
                (a.estimate, b.estimate),
                (a.low.unwrap(), b.low.unwrap()),
                (a.high.unwrap(), b.high.unwrap()),
            ] {
                assert!((x - y).abs() < 1e-12, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_block_shift_widens_the_interval_beyond_a_puzzle_bootstrap() {
        // Blocks of 10 puzzles, each block shifted by its own factor (a
        // burst of load) and the puzzles within a block identical: the
        // interval over blocks must reflect the spread between blocks.
        let blocks: Vec<BlockSum> = (0..40)
            .map(|b| BlockSum {
                sum: 10.0 * if b % 2 == 0 { 0.1 } else { -0.1 },
                count: 10,
            })
            .collect();
        let (e, low, high) = block_bootstrap(&blocks, 2000, 1, 0.95).unwrap();
        assert!((e - 1.0).abs() < 1e-12);
        assert!(low < 0.98 && high > 1.02, "{low} {high}");
        assert_eq!(
            block_bootstrap(&blocks, 2000, 1, 0.95),
            block_bootstrap(&blocks, 2000, 1, 0.95)
        );
        assert!(block_bootstrap(&blocks[..1], 2000, 1, 0.95).is_none());
    }
}
