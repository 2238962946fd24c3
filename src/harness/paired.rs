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
//! solver was fastest on each puzzle.

use std::collections::BTreeMap;

use rayon::prelude::*;

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

/// Per block of lines and pair of solvers, the paired log-ratios of solve
/// times; per pair, the puzzles both timed with different solution counts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairedTimes {
    /// Solvers of the run (0: nothing added yet).
    solvers: usize,
    /// Lines per block.
    block: u64,
    /// Block index `(line - 1) / block` -> `solvers x solvers` sums; entry
    /// `i * solvers + j` (`i < j`) sums `ln ns_i - ln ns_j`.
    blocks: BTreeMap<u64, Vec<BlockSum>>,
    /// `solvers x solvers` counts (`i < j`) of puzzles both timed whose
    /// solution counts differ.
    disagree: Vec<u64>,
    /// Per solver, the puzzle being added: `ln ns` and solutions, when it
    /// counts.
    scratch: Vec<Option<(f64, u64)>>,
    /// The virtual best solver over the puzzles added.
    virtual_best: VirtualBestTally,
    /// The puzzle being added, for the virtual best: solver, status, ns.
    solves: Vec<(usize, Status, u64)>,
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
        }
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
    }

    /// Adds the records of one puzzle, on line `line` (one per solver that
    /// ran it, each naming its solver; solvers without a record did not
    /// take the puzzle).
    pub fn add_puzzle(&mut self, line: u64, records: &[Record]) {
        let k = self.solvers;
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
                self.scratch[i] = Some(((r.ns as f64).ln(), r.solutions));
            }
        }
        let block = line.saturating_sub(1) / self.block;
        let (blocks, disagree, scratch) = (&mut self.blocks, &mut self.disagree, &self.scratch);
        let mut sums: Option<&mut Vec<BlockSum>> = None;
        for i in 0..k {
            let Some((li, si)) = scratch[i] else {
                continue;
            };
            for j in i + 1..k {
                let Some((lj, sj)) = scratch[j] else {
                    continue;
                };
                if si != sj {
                    disagree[i * k + j] += 1;
                    continue;
                }
                if sums.is_none() {
                    sums = Some(
                        blocks
                            .entry(block)
                            .or_insert_with(|| vec![BlockSum::default(); k * k]),
                    );
                }
                let Some(entry) = sums.as_deref_mut() else {
                    continue;
                };
                let e = &mut entry[i * k + j];
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
        for (b, sums) in &other.blocks {
            let mine = self
                .blocks
                .entry(*b)
                .or_insert_with(|| vec![BlockSum::default(); sums.len()]);
            for (m, o) in mine.iter_mut().zip(sums) {
                m.sum += o.sum;
                m.count += o.count;
            }
        }
        for (m, o) in self.disagree.iter_mut().zip(&other.disagree) {
            *m += o;
        }
        self.virtual_best.merge(&other.virtual_best);
    }

    /// The blocks of `ln(ns_reference / ns_solver)`, in line order, those
    /// with at least one pair; and the puzzles whose solution counts
    /// differ between the two.
    pub fn pairs(&self, reference: usize, solver: usize) -> (Vec<BlockSum>, u64) {
        let k = self.solvers;
        if reference >= k || solver >= k || reference == solver {
            return (Vec::new(), 0);
        }
        let (i, j, sign) = if reference < solver {
            (reference, solver, 1.0)
        } else {
            (solver, reference, -1.0)
        };
        let blocks = self
            .blocks
            .values()
            .map(|s| s[i * k + j])
            .filter(|s| s.count > 0)
            .map(|s| BlockSum {
                sum: sign * s.sum,
                count: s.count,
            })
            .collect();
        (blocks, self.disagree[i * k + j])
    }
}

/// The ratio estimate `exp(sum / count)` over `blocks` and a percentile
/// bootstrap interval over blocks: `resamples` times, draw as many blocks
/// with replacement and take the pooled mean of their log-ratios; the
/// interval is the `(1 - confidence) / 2` and `(1 + confidence) / 2`
/// quantiles of those means, exponentiated. Resample `b` draws from its
/// own stream ([`SplitMix::for_item`]`(seed, b)`): the same data and seed
/// give the same interval whatever the thread count. `None` with fewer
/// than two blocks or no resamples.
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
    Some((
        estimate,
        quantile(&means, tail).exp(),
        quantile(&means, 1.0 - tail).exp(),
    ))
}

/// The `q` quantile of sorted `values`, interpolating linearly between
/// order statistics (the "type 7" definition).
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let h = (values.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (i, frac) = (h.floor() as usize, h - h.floor());
    match values.get(i + 1) {
        Some(&next) => values[i] + frac * (next - values[i]),
        None => values[i],
    }
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
        let (blocks, disagree) = paired.pairs(reference, solver);
        if disagree > 0 {
            return Speed::Missing(NoRatio::Disagrees);
        }
        let puzzles: u64 = blocks.iter().map(|b| u64::from(b.count)).sum();
        if puzzles < MIN_COMMON {
            return Speed::Missing(NoRatio::TooFew);
        }
        let interval = block_bootstrap(&blocks, SPEED_RESAMPLES, SPEED_SEED, SPEED_CONFIDENCE);
        let estimate = interval.map_or_else(
            || (blocks.iter().map(|b| b.sum).sum::<f64>() / puzzles as f64).exp(),
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
    use crate::solvers::Timing;

    fn record(line: u64, solver: u16, ns: u64, status: Status, solutions: u64) -> Record {
        Record {
            line,
            solver,
            status,
            ns,
            solutions,
            nodes: None,
            guesses: 0,
            updates: None,
            mems: None,
            failure: None,
            timing: Timing::Call,
        }
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
