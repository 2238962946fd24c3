//! The virtual best solver of a corpus, tallied puzzle by puzzle: on each
//! puzzle, the fastest solver that solved it.
//!
//! A portfolio that picked the right solver for every puzzle would take
//! the virtual best's time; how far that is from the single best solver's
//! (the one that solved the most puzzles, then in the least total time)
//! says how much the solvers complement each other, and each solver's
//! share of the wins which of them the portfolio needs.
//!
//! **Solved** means a solution found within budget (status `unique`,
//! `multiple` or `solved`), or an answer of no solution (`none`) on a
//! puzzle for which no solver found a solution ([`solves`]); a solved
//! puzzle's time is its solve time (the minimum over passes). The fastest
//! solver that solved a puzzle wins it; a tie goes to the solver earlier in
//! the run.
//!
//! [`VirtualBestTally`] is what the run's table notes and `summary.md`
//! quote: [`PairedTimes`](super::PairedTimes) feeds it every puzzle's
//! records as they come in, and `merge` feeds it the merged rows, so
//! shards add up to the unsharded run's figures. `dlxbench versus`
//! computes its virtual best with the same tally, from `puzzles.csv`.

use crate::solvers::Status;

/// Whether `status` is a solution found within budget.
pub fn found(status: Status) -> bool {
    matches!(status, Status::Solved | Status::Unique | Status::Multiple)
}

/// Whether a solve of status `status` counts as solving its puzzle, when
/// `found_any` says whether some solver of the run found a solution to it:
/// a solution found, or an answer of no solution that no solver
/// contradicts.
pub fn solves(status: Status, found_any: bool) -> bool {
    found(status) || (status == Status::NoSolution && !found_any)
}

/// One solver's part of a corpus's virtual best solver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolverTally {
    /// Puzzles it solved.
    pub solved: u64,
    /// Sum of its solved puzzles' times, ns.
    pub total_ns: u64,
    /// Puzzles on which it is the fastest solver.
    pub wins: u64,
}

impl SolverTally {
    /// Mean time per puzzle solved, ns.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.total_ns as f64 / self.solved as f64)
    }

    /// Puzzles solved per second of solve time (one worker).
    pub fn per_s(&self) -> Option<f64> {
        (self.total_ns > 0).then(|| self.solved as f64 * 1e9 / self.total_ns as f64)
    }
}

/// The virtual best solver of a corpus, puzzle by puzzle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VirtualBestTally {
    /// Per solver, by its index in the run.
    pub solvers: Vec<SolverTally>,
    /// Puzzles some solver solved.
    pub solved: u64,
    /// The sum of the best time of each of those puzzles, ns.
    pub total_ns: u64,
}

impl VirtualBestTally {
    /// Empty, for `solvers` solvers.
    pub fn new(solvers: usize) -> Self {
        VirtualBestTally {
            solvers: vec![SolverTally::default(); solvers],
            solved: 0,
            total_ns: 0,
        }
    }

    /// Adds one puzzle: each solver that ran it as `(index in the run,
    /// status, time in ns)`. Returns the winner's index, if some solver
    /// solved it.
    pub fn add(&mut self, solves_of_puzzle: &[(usize, Status, u64)]) -> Option<usize> {
        let found_any = solves_of_puzzle.iter().any(|&(_, s, _)| found(s));
        let mut best: Option<(u64, usize)> = None;
        for &(i, status, ns) in solves_of_puzzle {
            if !solves(status, found_any) {
                continue;
            }
            if i >= self.solvers.len() {
                self.solvers.resize(i + 1, SolverTally::default());
            }
            let s = &mut self.solvers[i];
            s.solved += 1;
            s.total_ns += ns;
            if best.is_none_or(|b| (ns, i) < b) {
                best = Some((ns, i));
            }
        }
        let (ns, i) = best?;
        self.solved += 1;
        self.total_ns += ns;
        self.solvers[i].wins += 1;
        Some(i)
    }

    /// Adds `other`'s puzzles (the same solvers; disjoint puzzles, as the
    /// workers' or the shards' are).
    pub fn merge(&mut self, other: &VirtualBestTally) {
        if other.solvers.len() > self.solvers.len() {
            self.solvers
                .resize(other.solvers.len(), SolverTally::default());
        }
        for (m, o) in self.solvers.iter_mut().zip(&other.solvers) {
            m.solved += o.solved;
            m.total_ns += o.total_ns;
            m.wins += o.wins;
        }
        self.solved += other.solved;
        self.total_ns += other.total_ns;
    }

    /// The virtual best's mean time per puzzle it solved, ns.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.total_ns as f64 / self.solved as f64)
    }

    /// Its throughput: puzzles solved per second of solve time (one
    /// worker).
    pub fn per_s(&self) -> Option<f64> {
        (self.total_ns > 0).then(|| self.solved as f64 * 1e9 / self.total_ns as f64)
    }

    /// The single best solver among those `take` keeps (by index): the one
    /// that solved the most puzzles, then in the least total time (the
    /// later one on an exact tie).
    pub fn single_best(&self, take: impl Fn(usize) -> bool) -> Option<usize> {
        self.solvers
            .iter()
            .enumerate()
            .filter(|&(i, _)| take(i))
            .max_by(|(_, x), (_, y)| x.solved.cmp(&y.solved).then(y.total_ns.cmp(&x.total_ns)))
            .map(|(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_solver_that_solved_a_puzzle_wins_it() {
        let u = Status::Unique;
        let mut t = VirtualBestTally::new(3);
        // Solver 1 is fastest; solver 2 over budget (not solved).
        assert_eq!(
            t.add(&[(0, u, 30), (1, u, 10), (2, Status::Budget, 5)]),
            Some(1)
        );
        // A tie goes to the earlier solver.
        assert_eq!(t.add(&[(0, u, 20), (1, u, 20)]), Some(0));
        // `none` where another solver found a solution: not solved.
        assert_eq!(t.add(&[(0, Status::NoSolution, 1), (2, u, 40)]), Some(2));
        // `none` where no solver found one: solved.
        assert_eq!(
            t.add(&[(0, Status::NoSolution, 7), (1, Status::NoSolution, 6)]),
            Some(1)
        );
        // Nobody solved it.
        assert_eq!(
            t.add(&[(0, Status::Invalid, 1), (1, Status::Budget, 9)]),
            None
        );
        assert_eq!((t.solved, t.total_ns), (4, 10 + 20 + 40 + 6));
        let wins: Vec<u64> = t.solvers.iter().map(|s| s.wins).collect();
        assert_eq!(wins, [1, 2, 1]);
        assert_eq!(t.solvers[0].solved, 3);
        assert_eq!(t.solvers[0].total_ns, 30 + 20 + 7);
        // Solvers 0 and 1 solved 3 each: the least total time wins.
        assert_eq!(t.solvers[1].total_ns, 10 + 20 + 6);
        assert_eq!(t.single_best(|_| true), Some(1));
        assert_eq!(t.single_best(|i| i != 1), Some(0));
        let mut halves = VirtualBestTally::new(3);
        halves.merge(&t);
        halves.merge(&t);
        assert_eq!(halves.solved, 8);
        assert_eq!(halves.solvers[1].wins, 4);
    }
}
