//! Checking the times a solver in its own process reports about itself
//! (`ns=`) against the round trips the harness measured around them.
//!
//! Per puzzle, an own time longer than its round trip is refused outright
//! (`clock`, in [`crate::solvers::process`]). Per corpus and solver, the
//! own times must also *explain* the round trips: a round trip is the
//! solve plus a per-request cost (the pipe, reading the line, writing the
//! answer) and, on a busy machine, waits for a core; neither grows with
//! the puzzle, so between easy and hard puzzles the round trip grows by
//! what the own time grows. The puzzles are ordered by their own time and
//! the fastest third compared with the slowest third, by medians (which a
//! machine busy a third of the time does not move):
//!
//! * `spread` = g / (g + h), where g is how much the own times' median
//!   grows from the fast third to the slow third, and h how much the
//!   median of what the round trip adds to the own time grows (about 0
//!   when honest, g when the solver reports half its time);
//! * `level` = own median / (own median + added median - the pipe's
//!   floor), for solvers whose times hardly vary;
//! * `explained` = the larger of the two; the own times are **verified**
//!   when it is at least [`VERIFIED`].
//!
//! An honest solver scores near 1 on `spread`, whatever its per-request
//! cost; one that reports `ns=1` scores near 0 on both, one that reports
//! half its time near 0.5. What no outside check can tell is a constant
//! taken off every puzzle: it looks like per-request cost, so that cost
//! is reported beside the verdict ([`OwnTimeCheck::overhead_ns`]).
//!
//! The unit compared is a puzzle or a group of puzzles whose round trips
//! add up only together. When a solver takes batches (several requests
//! written at once: `crate::solvers::process`), the round trip of an
//! answer is the time since the harness read the one before: an answer
//! the harness found already waiting when it came to read it (it was
//! away: busy, or not given a core) has a round trip too short, and the
//! answer before it one too long, by the time the harness was late. Such
//! answers are grouped with the next answer the harness waited for,
//! whose read ends the lateness (named by the group's first line:
//! [`crate::solvers::Timing::Own`]'s `group`, the `round_trip_group`
//! column of `puzzles.csv`), and a group's own times are summed against
//! its round trips summed. Answers the harness waited for stay units of
//! their own, so that the medians still shrug off a busy machine's
//! waits.
//!
//! The units are a sample: of each corpus the [`SAMPLE`] whose line
//! numbers (a group's first) hash lowest (a bottom-k sample), so that
//! workers' samples, and shards' rebuilt from `puzzles.csv` by `merge`,
//! combine into exactly the sample of the whole; it is kept in a buffer
//! allocated once.

use std::collections::BinaryHeap;

/// The least share of the round trips the own times must explain to be
/// believed (docs/solver-protocol.md gives the figures behind it).
pub const VERIFIED: f64 = 0.8;

/// Own-timed puzzles below which no verdict is given.
pub const MIN_PUZZLES: u64 = 20;

/// Puzzles kept per corpus and solver for the check.
pub const SAMPLE: usize = 4096;

/// A sample of the own times and round trips of one solver's own-timed
/// puzzles (or groups of them).
#[derive(Debug, Clone, Default)]
pub struct OwnTimes {
    /// (hash of the unit's line, own time, round trip), the largest hash
    /// on top.
    sample: BinaryHeap<(u64, u64, u64)>,
    /// The unit being added to: (its line, own time, round trip so far).
    open: Option<(u64, u64, u64)>,
    /// Puzzles added.
    puzzles: u64,
}

/// What [`OwnTimes::check`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnTimeCheck {
    /// The share of the round trips the own times explain (see the module
    /// docs): about 1 for an honest solver.
    pub explained: f64,
    /// The median of what the round trip adds to the own time, less the
    /// pipe's floor: what each request costs the solver beyond its own
    /// time, ns.
    pub overhead_ns: f64,
    /// `explained` is at least [`VERIFIED`].
    pub verified: bool,
    /// Own-timed puzzles.
    pub puzzles: u64,
}

/// The line's place in the sample: a 64-bit mix of its number.
fn hash(line: u64) -> u64 {
    let mut z = line.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The median of `v` (sorted here).
fn median(v: &mut [u64]) -> f64 {
    v.sort_unstable();
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2] as f64,
        n => (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0,
    }
}

impl OwnTimes {
    /// Adds a puzzle's own time and round trip, ns, to the unit named
    /// `unit`: the puzzle's line, or the first line of its group. A
    /// group's answers come one after another.
    pub fn add(&mut self, unit: u64, own_ns: u64, round_trip_ns: u64) {
        self.puzzles += 1;
        match &mut self.open {
            Some((line, own, trip)) if *line == unit => {
                *own = own.saturating_add(own_ns);
                *trip = trip.saturating_add(round_trip_ns);
            }
            open => {
                if let Some(done) = open.replace((unit, own_ns, round_trip_ns)) {
                    self.close(done);
                }
            }
        }
    }

    /// Offers a whole unit to the sample.
    fn close(&mut self, (line, own, trip): (u64, u64, u64)) {
        self.offer((hash(line), own, trip));
    }

    /// The sample with the open unit closed.
    fn closed(&self) -> std::borrow::Cow<'_, Self> {
        match self.open {
            None => std::borrow::Cow::Borrowed(self),
            Some(unit) => {
                let mut all = self.clone();
                all.open = None;
                all.close(unit);
                std::borrow::Cow::Owned(all)
            }
        }
    }

    fn offer(&mut self, item: (u64, u64, u64)) {
        if self.sample.capacity() == 0 {
            self.sample.reserve_exact(SAMPLE);
        }
        if self.sample.len() < SAMPLE {
            self.sample.push(item);
        } else if self.sample.peek().is_some_and(|top| item.0 < top.0) {
            self.sample.pop();
            self.sample.push(item);
        }
    }

    /// Adds another worker's (or shard's): its units are none of this
    /// one's.
    pub fn merge(&mut self, other: &OwnTimes) {
        self.puzzles += other.puzzles;
        if let Some(unit) = self.open.take() {
            self.close(unit);
        }
        for &item in other.sample.iter() {
            self.offer(item);
        }
        if let Some(unit) = other.open {
            self.close(unit);
        }
    }

    /// Clears (keeps the memory).
    pub fn reset(&mut self) {
        self.sample.clear();
        self.open = None;
        self.puzzles = 0;
    }

    /// The verdict, given the pipe's floor (`floor_ns`: its median round
    /// trip, 0 when not measured); `None` under [`MIN_PUZZLES`].
    pub fn check(&self, floor_ns: f64) -> Option<OwnTimeCheck> {
        if self.puzzles < MIN_PUZZLES {
            return None;
        }
        let all = self.closed();
        let mut pairs: Vec<(u64, u64)> = all.sample.iter().map(|&(_, o, r)| (o, r)).collect();
        pairs.sort_unstable();
        let third = pairs.len() / 3;
        let (fast, slow) = (&pairs[..third], &pairs[pairs.len() - third..]);
        // Medians of the own time and of what the round trip adds to it
        // (the median of a sum is not the sum of the medians).
        let medians = |part: &[(u64, u64)]| {
            let mut own: Vec<u64> = part.iter().map(|p| p.0).collect();
            let mut extra: Vec<u64> = part.iter().map(|p| p.1.saturating_sub(p.0)).collect();
            (median(&mut own), median(&mut extra))
        };
        let ((own_fast, extra_fast), (own_slow, extra_slow)) = (medians(fast), medians(slow));
        let grown = own_slow - own_fast;
        let spread = match grown + (extra_slow - extra_fast) > 0.0 {
            true => (grown / (grown + (extra_slow - extra_fast))).min(1.0),
            false => 0.0,
        };
        let (own, extra) = medians(&pairs);
        // At most 1: round trips that carry less than the floor (a batch's
        // answers, which wait for no pipe) leave nothing unexplained.
        let level = own / (own + extra - floor_ns).max(own).max(1.0);
        let explained = spread.max(level).max(0.0);
        Some(OwnTimeCheck {
            explained,
            overhead_ns: (extra - floor_ns).max(0.0),
            verified: explained >= VERIFIED,
            puzzles: self.puzzles,
        })
    }
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;

    /// Round trips of 2,000 puzzles whose solves take 50 µs to 2 ms, with
    /// 20 µs of overhead per request and, on a third of them, a wait for a
    /// core of up to 5 ms (a busy machine).
    fn run(report: impl Fn(u64) -> u64) -> OwnTimeCheck {
        let mut t = OwnTimes::default();
        for i in 0..2000u64 {
            let solve = 50_000 + (i * 7919 % 1000) * 1950;
            let stall = if i % 3 == 0 {
                (i * 104_729) % 5_000_000
            } else {
                0
            };
            t.add(i, report(solve), solve + 20_000 + stall);
        }
        t.check(8_000.0).expect("enough puzzles")
    }

    #[test]
    fn honest_times_are_verified_and_lies_are_not() {
        let honest = run(|ns| ns);
        assert!(honest.verified && honest.explained > 0.95, "{honest:?}");
        // 20 µs less the floor, and what the waits add to the median.
        assert!(
            honest.overhead_ns > 11_000.0 && honest.overhead_ns < 500_000.0,
            "{honest:?}"
        );
        let one = run(|_| 1);
        assert!(!one.verified && one.explained < 0.01, "{one:?}");
        let half = run(|ns| ns / 2);
        assert!(
            !half.verified && (half.explained - 0.5).abs() < 0.05,
            "{half:?}"
        );
    }

    /// The same solves in batches of 64 read late: the harness reads each
    /// batch's first answer when the whole batch is done (it carries the
    /// batch's time) and the rest at once (100 ns each): one group.
    fn batched(report: impl Fn(u64) -> u64, unit: impl Fn(u64) -> u64) -> OwnTimeCheck {
        let mut t = OwnTimes::default();
        for first in (0..2048u64).step_by(64) {
            let solves: Vec<u64> = (first..first + 64)
                .map(|i| 50_000 + (i * 7919 % 1000) * 1950)
                .collect();
            let whole: u64 = solves.iter().map(|s| s + 20_000).sum::<u64>() + 8_000;
            for (k, &solve) in solves.iter().enumerate() {
                let trip = if k == 0 { whole - 63 * 100 } else { 100 };
                t.add(unit(first + k as u64), report(solve), trip);
            }
        }
        t.check(8_000.0).expect("enough puzzles")
    }

    #[test]
    fn answers_read_late_are_judged_as_one_group() {
        let by_batch = |report: fn(u64) -> u64| batched(report, |line| line - line % 64);
        let honest = by_batch(|ns| ns);
        assert!(honest.verified && honest.explained > 0.95, "{honest:?}");
        assert_eq!(honest.puzzles, 2048);
        let one = by_batch(|_| 1);
        assert!(!one.verified && one.explained < 0.01, "{one:?}");
        let half = by_batch(|ns| ns / 2);
        assert!(
            !half.verified && (half.explained - 0.5).abs() < 0.1,
            "{half:?}"
        );
        // Batches dealt to two workers in turn: merged, the same sample
        // as one worker's.
        let (mut a, mut b, mut whole) = (
            OwnTimes::default(),
            OwnTimes::default(),
            OwnTimes::default(),
        );
        for line in 0..640u64 {
            let worker = if (line / 64) % 2 == 0 { &mut a } else { &mut b };
            worker.add(line - line % 64, line * 3, line * 5);
            whole.add(line - line % 64, line * 3, line * 5);
        }
        let mut merged = a.clone();
        merged.merge(&b);
        assert_eq!(merged.check(0.0), whole.check(0.0));
        assert_eq!(merged.closed().sample.len(), 10);
    }

    #[test]
    fn a_constant_time_solver_is_judged_on_its_level() {
        let mut t = OwnTimes::default();
        for i in 0..100u64 {
            // 30 µs each, the round trip 30 µs + the floor + jitter.
            t.add(i, 30_000, 38_000 + (i % 7) * 500);
        }
        let c = t.check(8_000.0).unwrap();
        assert!(c.verified, "{c:?}");
        let mut liar = OwnTimes::default();
        for i in 0..100u64 {
            liar.add(i, 1, 20_000_000 + (i % 7) * 500);
        }
        assert!(!liar.check(8_000.0).unwrap().verified);
        assert_eq!(OwnTimes::default().check(0.0), None);
        // Round trips under the one-request floor (answers of a batch)
        // explain everything, and no more.
        let mut batched = OwnTimes::default();
        for i in 0..100u64 {
            batched.add(i, 30_000, 31_000 + (i % 7) * 100);
        }
        assert_eq!(batched.check(8_000.0).unwrap().explained, 1.0);
    }

    #[test]
    fn samples_merge_into_exactly_the_sample_of_the_whole() {
        let (mut whole, mut a, mut b) = (
            OwnTimes::default(),
            OwnTimes::default(),
            OwnTimes::default(),
        );
        for line in 1..=20_000u64 {
            let (own, trip) = (line * 13 % 7_001, line * 13 % 7_001 + 900);
            whole.add(line, own, trip);
            match line % 3 {
                0 => a.add(line, own, trip),
                _ => b.add(line, own, trip),
            }
        }
        a.merge(&b);
        let sorted = |t: &OwnTimes| {
            let mut v: Vec<_> = t.sample.iter().copied().collect();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&a), sorted(&whole));
        assert_eq!(a.sample.len(), SAMPLE);
        assert_eq!(a.check(0.0), whole.check(0.0));
    }
}
