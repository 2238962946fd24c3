//! Work against cost per unit: a solver's time split into how much work
//! it did (search nodes, link updates, mems) and what each unit of work
//! cost, per corpus, tallied puzzle by puzzle.
//!
//! Over the puzzles a solver **solved** (the rule of the virtual best
//! solver, [`solves`]: a solution found within budget, or an answer of no
//! solution that no solver of the run contradicts) and that it reported a
//! count of the unit for, the **time per unit** is the sum of their times
//! over the sum of their counts (ns per node, per update, per mem), and
//! the **work** the count per puzzle; their product is the mean time of
//! those puzzles, exactly:
//!
//! ```text
//! mean time = (sum ns) / puzzles = (sum count / puzzles) x (sum ns / sum count)
//! ```
//!
//! A ratio of sums, not a mean of per-puzzle ratios: the puzzles that take
//! long weigh as much as their time, as they do in the mean. A solver that
//! reports no count of a unit (a solver in its own process that says
//! nothing of its nodes) gets no figure for it, not a zero.
//!
//! [`UnitCostTally`] is what the run's table notes and `summary.md` quote:
//! [`PairedTimes`](super::PairedTimes) feeds it every puzzle's records as
//! they come in, and `merge` feeds it the merged rows, so shards add up to
//! the unsharded run's figures. `dlxbench versus` and `report.html`
//! compute the same tally from `puzzles.csv`.

use super::virtual_best::{found, solves};
use crate::solvers::Status;

/// The units of work a solver may count, in the order of
/// [`SolverCost::units`].
pub const UNITS: [Unit; 3] = [Unit::Node, Unit::Update, Unit::Mem];

/// A unit of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A search node.
    Node,
    /// A Dancing Links link update.
    Update,
    /// A mem: a memory access as Knuth's programs count them.
    Mem,
}

impl Unit {
    /// Its name, singular (`node`, `update`, `mem`).
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Node => "node",
            Unit::Update => "update",
            Unit::Mem => "mem",
        }
    }

    /// Its name, plural (`nodes`, `updates`, `mems`): the `puzzles.csv`
    /// column.
    pub fn plural(self) -> &'static str {
        match self {
            Unit::Node => "nodes",
            Unit::Update => "updates",
            Unit::Mem => "mems",
        }
    }
}

/// One solve of a puzzle, as the tally takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    /// The solver's index in the run.
    pub solver: usize,
    /// Its status.
    pub status: Status,
    /// Its time, ns.
    pub ns: u64,
    /// Its counts, in the order of [`UNITS`] (`None`: not reported).
    pub counts: [Option<u64>; 3],
}

/// The solved puzzles of one solver that reported one unit's count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnitSum {
    /// Puzzles.
    pub puzzles: u64,
    /// Sum of their times, ns.
    pub ns: u64,
    /// Sum of their counts.
    pub count: u64,
}

impl UnitSum {
    /// Time per unit, ns: the sum of times over the sum of counts (`None`
    /// without a count).
    pub fn ns_per_unit(&self) -> Option<f64> {
        (self.count > 0).then(|| self.ns as f64 / self.count as f64)
    }

    /// Units per puzzle (`None` without a puzzle).
    pub fn per_puzzle(&self) -> Option<f64> {
        (self.puzzles > 0).then(|| self.count as f64 / self.puzzles as f64)
    }

    /// Mean time of the puzzles, ns: `per_puzzle x ns_per_unit`.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.puzzles > 0).then(|| self.ns as f64 / self.puzzles as f64)
    }

    fn add(&mut self, ns: u64, count: u64) {
        self.puzzles += 1;
        self.ns += ns;
        self.count += count;
    }

    fn merge(&mut self, other: &UnitSum) {
        self.puzzles += other.puzzles;
        self.ns += other.ns;
        self.count += other.count;
    }
}

/// One solver's work and cost per unit on a corpus.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SolverCost {
    /// Puzzles it solved.
    pub solved: u64,
    /// Sum of their times, ns.
    pub total_ns: u64,
    /// Per unit ([`UNITS`]), the solved puzzles that reported a count.
    pub units: [UnitSum; 3],
}

impl SolverCost {
    /// The sums of `unit`.
    pub fn unit(&self, unit: Unit) -> &UnitSum {
        &self.units[unit as usize]
    }

    /// Mean time per puzzle solved, ns.
    pub fn mean_ns(&self) -> Option<f64> {
        (self.solved > 0).then(|| self.total_ns as f64 / self.solved as f64)
    }

    fn merge(&mut self, other: &SolverCost) {
        self.solved += other.solved;
        self.total_ns += other.total_ns;
        for (m, o) in self.units.iter_mut().zip(&other.units) {
            m.merge(o);
        }
    }
}

/// Per solver of a corpus, its work and cost per unit, puzzle by puzzle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitCostTally {
    /// Per solver, by its index in the run.
    pub solvers: Vec<SolverCost>,
}

impl UnitCostTally {
    /// Empty, for `solvers` solvers.
    pub fn new(solvers: usize) -> Self {
        UnitCostTally {
            solvers: vec![SolverCost::default(); solvers],
        }
    }

    /// Adds one puzzle: each solver that ran it.
    pub fn add(&mut self, solves_of_puzzle: &[Work]) {
        let found_any = solves_of_puzzle.iter().any(|w| found(w.status));
        for w in solves_of_puzzle {
            if !solves(w.status, found_any) {
                continue;
            }
            if w.solver >= self.solvers.len() {
                self.solvers.resize(w.solver + 1, SolverCost::default());
            }
            let s = &mut self.solvers[w.solver];
            s.solved += 1;
            s.total_ns += w.ns;
            for (sum, count) in s.units.iter_mut().zip(w.counts) {
                if let Some(count) = count {
                    sum.add(w.ns, count);
                }
            }
        }
    }

    /// Adds `other`'s puzzles (the same solvers; disjoint puzzles, as the
    /// workers' or the shards' are).
    pub fn merge(&mut self, other: &UnitCostTally) {
        if other.solvers.len() > self.solvers.len() {
            self.solvers
                .resize(other.solvers.len(), SolverCost::default());
        }
        for (m, o) in self.solvers.iter_mut().zip(&other.solvers) {
            m.merge(o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work(solver: usize, status: Status, ns: u64, counts: [Option<u64>; 3]) -> Work {
        Work {
            solver,
            status,
            ns,
            counts,
        }
    }

    #[test]
    fn time_per_unit_is_the_solved_puzzles_time_over_their_count() {
        let u = Status::Unique;
        let mut t = UnitCostTally::new(3);
        // Solver 0 counts nodes and updates, solver 1 nothing, solver 2
        // nodes on one puzzle only.
        t.add(&[
            work(0, u, 100, [Some(10), Some(40), None]),
            work(1, u, 50, [None; 3]),
            work(2, u, 70, [Some(7), None, None]),
        ]);
        t.add(&[
            work(0, u, 300, [Some(20), Some(60), None]),
            work(1, u, 30, [None; 3]),
            work(2, u, 90, [None; 3]),
        ]);
        // Over budget and invalid: not solved, not counted.
        t.add(&[
            work(0, Status::Budget, 9_000, [Some(1_000), Some(1), None]),
            work(2, Status::Invalid, 5, [Some(1), None, None]),
        ]);
        // `none` where another found a solution: not counted; where none
        // did: counted.
        t.add(&[
            work(0, Status::NoSolution, 1, [Some(1), Some(1), None]),
            work(1, u, 10, [None; 3]),
        ]);
        t.add(&[work(
            0,
            Status::NoSolution,
            200,
            [Some(30), Some(100), None],
        )]);
        let s0 = t.solvers[0];
        assert_eq!((s0.solved, s0.total_ns), (3, 600));
        let nodes = s0.unit(Unit::Node);
        assert_eq!((nodes.puzzles, nodes.ns, nodes.count), (3, 600, 60));
        assert_eq!(nodes.ns_per_unit(), Some(10.0));
        assert_eq!(nodes.per_puzzle(), Some(20.0));
        // Work x cost per unit is the mean time.
        assert_eq!(
            nodes
                .per_puzzle()
                .zip(nodes.ns_per_unit())
                .map(|(w, c)| w * c),
            s0.mean_ns()
        );
        assert_eq!(s0.unit(Unit::Update).ns_per_unit(), Some(3.0));
        assert_eq!(s0.unit(Unit::Mem).ns_per_unit(), None);
        // No counts: no figure, not a zero.
        let s1 = t.solvers[1];
        assert_eq!(s1.solved, 3);
        assert!(UNITS.iter().all(|&u| s1.unit(u).ns_per_unit().is_none()));
        // Nodes on one of its two solved puzzles: that puzzle's time only.
        let s2 = t.solvers[2];
        assert_eq!((s2.solved, s2.total_ns), (2, 160));
        assert_eq!(s2.unit(Unit::Node).ns_per_unit(), Some(10.0));
        assert_eq!(s2.unit(Unit::Node).puzzles, 1);

        let mut twice = UnitCostTally::new(1);
        twice.merge(&t);
        twice.merge(&t);
        assert_eq!(twice.solvers[0].unit(Unit::Node).count, 120);
        assert_eq!(twice.solvers[0].unit(Unit::Node).ns_per_unit(), Some(10.0));
        assert_eq!(twice.solvers[2].solved, 4);
    }

    #[test]
    fn a_zero_count_gives_no_time_per_unit() {
        let mut t = UnitCostTally::new(1);
        t.add(&[work(0, Status::Unique, 40, [Some(0), None, None])]);
        let nodes = t.solvers[0].unit(Unit::Node);
        assert_eq!(nodes.per_puzzle(), Some(0.0));
        assert_eq!(nodes.ns_per_unit(), None);
    }
}
