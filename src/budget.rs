//! How much work one search may do: a [`Budget`] of search nodes and,
//! optionally, of time, and the [`Meter`] a search loop checks it with.
//!
//! A node budget is deterministic: the same puzzle, solver and budget stop
//! at the same node on every machine, so results stay comparable across
//! machines. A time budget is a safety net for what no node count bounds
//! well (a node of a 100x100 grid costs a thousand times one of a 9x9): the
//! search stops when either runs out, and the result is "over budget"
//! whatever the cause.
//!
//! Checking the time must not cost a clock read per node, nor per solve:
//! most solves take a few hundred nodes, and a clock read there would cost
//! as much as one of the two that time the solve. A [`Meter`] keeps one
//! checkpoint: the search compares its node count with it (one compare per
//! node, as a plain node budget needs anyway), and only at the checkpoint,
//! every [`Meter::CLOCK_INTERVAL`] nodes, reads the clock. The time bound
//! runs from the first checkpoint: a search's first
//! [`Meter::CLOCK_INTERVAL`] nodes are not counted against it.
//!
//! ```
//! use std::time::Duration;
//! use dlxbench::budget::{Budget, Meter};
//!
//! let budget = Budget::nodes(3);
//! let mut meter = Meter::start(budget);
//! let mut nodes = 0;
//! while !meter.exhausted(nodes) {
//!     nodes += 1; // a search would try a node here
//! }
//! assert_eq!(nodes, 3);
//!
//! // A time budget that has already run out stops the search at the next
//! // checkpoint, however many nodes the node budget allows.
//! let mut meter = Meter::start(Budget::UNLIMITED.with_time(Duration::ZERO));
//! let mut nodes = 0;
//! while !meter.exhausted(nodes) {
//!     nodes += 1;
//! }
//! assert_eq!(nodes, Meter::CLOCK_INTERVAL);
//! ```

use std::time::Duration;

use crate::clock::Instant;

/// A bound on the work one solve may do: search nodes and, optionally,
/// time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Most search nodes (placements tried) one solve may make.
    pub max_nodes: u64,
    /// Most time one solve may take, checked every
    /// [`Meter::CLOCK_INTERVAL`] nodes; `None` for no time bound.
    pub max_time: Option<Duration>,
}

impl Budget {
    /// The default bound of a search solver in `bench`: 10,000,000 nodes
    /// (about a second of search on a 9x9 grid for the slowest solver
    /// here) or [`Budget::SAFETY_TIME`], whichever comes first. Far above
    /// what any puzzle of the standard set needs, so it changes no count
    /// there, but an ill-posed puzzle or a 100x100 grid (whose nodes cost a
    /// thousand times more) is reported over budget instead of stalling the
    /// run.
    pub const SEARCH: Budget = Budget::nodes(10_000_000).with_time(Budget::SAFETY_TIME);

    /// The time bound of the default budgets in `bench`: a safety net that
    /// bounds a run's time on any corpus, ten times above the slowest solve
    /// of the standard set (measured on a loaded 2-core machine: 371 ms for
    /// `heuristic` on the 17-clue list, under 0.9 s for Hanidoku's `dlx`),
    /// so that counts stay the same on slower machines.
    pub const SAFETY_TIME: Duration = Duration::from_secs(10);

    /// No bound.
    pub const UNLIMITED: Budget = Budget::nodes(u64::MAX);

    /// At most `max_nodes` search nodes, no time bound.
    pub const fn nodes(max_nodes: u64) -> Self {
        Budget {
            max_nodes,
            max_time: None,
        }
    }

    /// This budget with a time bound as well (`None`: without one).
    pub const fn with_max_time(self, max_time: Option<Duration>) -> Self {
        Budget {
            max_nodes: self.max_nodes,
            max_time,
        }
    }

    /// This budget with a time bound of `max_time` as well.
    pub const fn with_time(self, max_time: Duration) -> Self {
        self.with_max_time(Some(max_time))
    }

    /// True when neither nodes nor time are bounded.
    pub fn is_unlimited(&self) -> bool {
        self.max_nodes == u64::MAX && self.max_time.is_none()
    }
}

impl Default for Budget {
    /// [`Budget::UNLIMITED`].
    fn default() -> Self {
        Budget::UNLIMITED
    }
}

/// A search's budget, started: says when the search must stop.
///
/// Start one per solve ([`Meter::start`] reads no clock) and call
/// [`Meter::exhausted`] with the node count before each node.
#[derive(Debug, Clone, Copy)]
pub struct Meter {
    /// The node count at which [`Meter::check`] next runs.
    checkpoint: u64,
    max_nodes: u64,
    max_time: Option<Duration>,
    /// When the time bound started: at the first checkpoint.
    started: Option<Instant>,
}

impl Meter {
    /// Nodes between two clock reads when the budget has a time bound: at
    /// 10 to 1,000 ns a node, a clock read (about 10 ns) every 1,024 nodes
    /// costs under 0.1% of the search. The bound is overrun by at most
    /// twice 1,024 nodes' time (the first 1,024 before the bound starts,
    /// and up to 1,024 after it ends): about two milliseconds on 9x9 grids,
    /// tens of milliseconds where a node costs tens of microseconds
    /// (`singles` on 100x100).
    pub const CLOCK_INTERVAL: u64 = 1024;

    /// Starts `budget`.
    pub fn start(budget: Budget) -> Meter {
        let checkpoint = match budget.max_time {
            Some(_) => budget.max_nodes.min(Self::CLOCK_INTERVAL),
            None => budget.max_nodes,
        };
        Meter {
            checkpoint,
            max_nodes: budget.max_nodes,
            max_time: budget.max_time,
            started: None,
        }
    }

    /// A meter that never runs out.
    pub const fn unlimited() -> Meter {
        Meter {
            checkpoint: u64::MAX,
            max_nodes: u64::MAX,
            max_time: None,
            started: None,
        }
    }

    /// True when a search that has made `nodes` nodes must stop before
    /// making another one. `nodes` must not decrease between calls.
    #[inline(always)]
    pub fn exhausted(&mut self, nodes: u64) -> bool {
        nodes >= self.checkpoint && self.check(nodes)
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, nodes: u64) -> bool {
        if nodes >= self.max_nodes {
            return true;
        }
        let Some(max_time) = self.max_time else {
            self.checkpoint = self.max_nodes;
            return false;
        };
        // The first checkpoint starts the time bound.
        let started = *self.started.get_or_insert_with(Instant::now);
        if started.elapsed() >= max_time {
            return true;
        }
        self.checkpoint = nodes
            .saturating_add(Self::CLOCK_INTERVAL)
            .min(self.max_nodes);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes_until_stop(budget: Budget, cap: u64) -> u64 {
        let mut meter = Meter::start(budget);
        let mut nodes = 0;
        while nodes < cap && !meter.exhausted(nodes) {
            nodes += 1;
        }
        nodes
    }

    #[test]
    fn node_budget_stops_at_exactly_max_nodes() {
        for max in [0, 1, 2, 1023, 1024, 1025, 5000] {
            assert_eq!(nodes_until_stop(Budget::nodes(max), u64::MAX), max);
            // A generous time bound changes nothing.
            let timed = Budget::nodes(max).with_time(Duration::from_secs(3600));
            assert_eq!(nodes_until_stop(timed, u64::MAX), max);
        }
    }

    #[test]
    fn unlimited_never_stops() {
        assert_eq!(nodes_until_stop(Budget::UNLIMITED, 100_000), 100_000);
        let mut meter = Meter::unlimited();
        assert!(!meter.exhausted(u64::MAX - 1));
    }

    #[test]
    fn spent_time_budget_stops_at_the_first_checkpoint() {
        let spent = Budget::UNLIMITED.with_time(Duration::ZERO);
        assert_eq!(nodes_until_stop(spent, u64::MAX), Meter::CLOCK_INTERVAL);
        // The node budget still wins when it comes first.
        assert_eq!(
            nodes_until_stop(Budget::nodes(10).with_time(Duration::ZERO), u64::MAX),
            10
        );
    }

    #[test]
    fn time_budget_stops_a_long_search() {
        let budget = Budget::UNLIMITED.with_time(Duration::from_millis(20));
        let started = Instant::now();
        let mut meter = Meter::start(budget);
        let mut nodes = 0u64;
        while !meter.exhausted(nodes) {
            nodes += 1;
            std::hint::black_box(nodes);
        }
        // It stopped (the loop ended) and not before the deadline.
        assert!(started.elapsed() >= Duration::from_millis(20));
        assert_eq!(nodes % Meter::CLOCK_INTERVAL, 0);
    }

    #[test]
    fn time_bound_runs_from_the_first_checkpoint() {
        // More than the bound passes before the first node, yet the search
        // goes on past the first checkpoint: the bound starts there (so a
        // short solve reads no clock at all).
        let budget = Budget::UNLIMITED.with_time(Duration::from_millis(200));
        let mut meter = Meter::start(budget);
        std::thread::sleep(Duration::from_millis(250));
        let mut nodes = 0;
        while nodes < 4 * Meter::CLOCK_INTERVAL && !meter.exhausted(nodes) {
            nodes += 1;
        }
        assert_eq!(nodes, 4 * Meter::CLOCK_INTERVAL);
    }

    #[test]
    fn huge_time_budget_is_no_bound() {
        let budget = Budget::nodes(5000).with_time(Duration::MAX);
        assert_eq!(nodes_until_stop(budget, u64::MAX), 5000);
        assert!(!Budget::nodes(1).is_unlimited());
        assert!(Budget::UNLIMITED.is_unlimited());
        assert!(!Budget::UNLIMITED.with_time(Duration::MAX).is_unlimited());
    }
}
