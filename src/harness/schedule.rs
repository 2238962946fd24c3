//! The order in which a worker's solvers take a chunk's puzzles.
//!
//! Solving each puzzle with every solver back to back lets the solvers
//! disturb each other's timings: a long solve by one evicts the caches and
//! the branch predictor's state that the next one would have found warm
//! (measured: `dlx` read 20-30% slower with `heuristic` in the run). Solving
//! a whole corpus with one solver, then the next, isolates them but lets the
//! machine drift between the solvers' measurements, minutes apart.
//!
//! The schedule sits between the two: a chunk's puzzles are cut into
//! blocks of [`Schedule::block`] puzzles; each solver solves a whole block
//! before the next solver takes the same block, so a solver's solves follow
//! its own; and the solver that goes first rotates from block to block (and
//! from pass to pass), so no solver always runs first or always after the
//! same neighbour. The blocks depend on the puzzles only, never on the
//! solvers: adding or removing a solver changes no other solver's blocks.
//! A block that follows another solver's starts with one untimed solve of
//! its last puzzle ([`Step::warm_up`]): without it, the block's first solve
//! ran cold and made the solver's mean depend on its company.
//!
//! ```
//! use dlxbench::harness::Schedule;
//!
//! let schedule = Schedule { block: 2 };
//! let steps: Vec<(usize, std::ops::Range<usize>)> = schedule
//!     .steps(5, 2, 0, 0)
//!     .map(|s| (s.solver, s.puzzles))
//!     .collect();
//! assert_eq!(
//!     steps,
//!     [(0, 0..2), (1, 0..2), (1, 2..4), (0, 2..4), (0, 4..5), (1, 4..5)]
//! );
//! ```

use std::ops::Range;

/// Block size of a run's schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Puzzles each solver solves in a row before the next solver takes
    /// the same puzzles (at least 1; a chunk's last block may be shorter).
    pub block: usize,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            block: Schedule::DEFAULT_BLOCK,
        }
    }
}

/// One step of a schedule: a solver and the puzzles (indices into the
/// chunk) it solves in a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Index of the solver in the run's lineup.
    pub solver: usize,
    /// The block's puzzles, indices into the chunk.
    pub puzzles: Range<usize>,
}

impl Step {
    /// The puzzle to solve untimed before this step's timed solves, when
    /// `previous`, the solver the worker ran last, is another solver: the
    /// block's last puzzle; `None` when the same solver ran last (nothing
    /// of it went cold) or the block has a single puzzle (`--block 1`, each
    /// puzzle with every solver back to back, stays as it was).
    ///
    /// Why: a solver's first solve after another solver's block ran cold,
    /// its data out of the caches and its branches out of the predictors
    /// (measured on the 17-clue list: 2.5 times its warm time for `dlx`, the
    /// next three solves 4-14% slower), which made its block mean depend on
    /// the company. After one untimed solve, the first timed solve measured
    /// 1.13-1.16 times in three runs, the next ones within 7%. The block's
    /// *last* puzzle, not its first: a solve repeated right away finds the
    /// predictors trained on that very search and measured 21% faster than
    /// warm, as biased as cold the other way; the last puzzle's timed solve
    /// comes after the block's others.
    ///
    /// ```
    /// use dlxbench::harness::Schedule;
    ///
    /// let step = Schedule { block: 4 }.steps(10, 2, 0, 0).next().unwrap();
    /// assert_eq!((step.solver, step.puzzles.clone()), (0, 0..4));
    /// assert_eq!(step.warm_up(Some(1)), Some(3));
    /// assert_eq!(step.warm_up(None), Some(3));
    /// assert_eq!(step.warm_up(Some(0)), None);
    /// ```
    pub fn warm_up(&self, previous: Option<usize>) -> Option<usize> {
        (previous != Some(self.solver) && self.puzzles.len() > 1).then(|| self.puzzles.end - 1)
    }
}

impl Schedule {
    /// The default block: 64 puzzles (see the README's "What is timed" for
    /// the measurements behind it).
    pub const DEFAULT_BLOCK: usize = 64;

    /// The steps of pass `pass` over chunk `chunk` (its index in the
    /// corpus) of `puzzles` puzzles with `solvers` solvers: block by block,
    /// every solver once per block, the first solver of block `b` being
    /// `(chunk + b + pass) mod solvers`, the others following in lineup
    /// order, wrapping around.
    pub fn steps(
        &self,
        puzzles: usize,
        solvers: usize,
        chunk: usize,
        pass: u32,
    ) -> impl Iterator<Item = Step> + use<> {
        let block = self.block.max(1);
        let blocks = puzzles.div_ceil(block);
        (0..blocks).flat_map(move |b| {
            let range = b * block..((b + 1) * block).min(puzzles);
            let first = (chunk + b + pass as usize) % solvers.max(1);
            (0..solvers).map(move |i| Step {
                solver: (first + i) % solvers,
                puzzles: range.clone(),
            })
        })
    }
}

/// `steps` with each run of consecutive steps of one solver over
/// consecutive puzzles made one step, for the solvers `joined` says
/// (the solvers in their own process, [`Solver::solves_blocks`]: a block
/// is one call to them, and the process that answers a batch waits for
/// the next call's requests; one call over the run keeps it busy). With
/// one solver, a chunk's pass is one step; with several, the rotation
/// gives a solver two blocks in a row every other block.
///
/// ```
/// use dlxbench::harness::{join_runs, Schedule};
///
/// let steps = Schedule { block: 2 }.steps(5, 2, 0, 0);
/// let joined: Vec<(usize, std::ops::Range<usize>)> = join_runs(steps, |solver| solver == 1)
///     .map(|s| (s.solver, s.puzzles))
///     .collect();
/// assert_eq!(joined, [(0, 0..2), (1, 0..4), (0, 2..4), (0, 4..5), (1, 4..5)]);
/// ```
///
/// [`Solver::solves_blocks`]: crate::solvers::Solver::solves_blocks
pub fn join_runs(
    steps: impl Iterator<Item = Step>,
    joined: impl Fn(usize) -> bool,
) -> impl Iterator<Item = Step> {
    let mut steps = steps.peekable();
    std::iter::from_fn(move || {
        let mut step = steps.next()?;
        if joined(step.solver) {
            while let Some(next) =
                steps.next_if(|n| n.solver == step.solver && n.puzzles.start == step.puzzles.end)
            {
                step.puzzles.end = next.puzzles.end;
            }
        }
        Some(step)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (solver, puzzle) pairs in the order a pass solves them.
    fn order(
        schedule: Schedule,
        puzzles: usize,
        solvers: usize,
        chunk: usize,
        pass: u32,
    ) -> Vec<(usize, usize)> {
        schedule
            .steps(puzzles, solvers, chunk, pass)
            .flat_map(|s| s.puzzles.map(move |p| (s.solver, p)))
            .collect()
    }

    #[test]
    fn every_solver_solves_every_puzzle_exactly_once_per_pass() {
        for block in [1, 2, 3, 7, 64, 1000] {
            for puzzles in [0, 1, 5, 64, 65, 200] {
                for solvers in [1, 2, 3, 4] {
                    for pass in 0..3 {
                        let mut seen = order(Schedule { block }, puzzles, solvers, 5, pass);
                        seen.sort_unstable();
                        let all: Vec<_> = (0..solvers)
                            .flat_map(|s| (0..puzzles).map(move |p| (s, p)))
                            .collect();
                        assert_eq!(
                            seen, all,
                            "block {block}, {puzzles} puzzles, {solvers} solvers"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_solver_solves_a_whole_block_before_the_next_takes_it() {
        let steps: Vec<Step> = Schedule { block: 4 }.steps(10, 3, 0, 0).collect();
        assert_eq!(steps.len(), 3 * 3);
        for block in steps.chunks(3) {
            // One block, three solvers, each over the same puzzles.
            assert!(block.iter().all(|s| s.puzzles == block[0].puzzles));
            let mut solvers: Vec<_> = block.iter().map(|s| s.solver).collect();
            solvers.sort_unstable();
            assert_eq!(solvers, [0, 1, 2]);
        }
        assert_eq!(steps[8].puzzles, 8..10);
    }

    #[test]
    fn the_first_solver_rotates_by_block_chunk_and_pass() {
        let firsts = |chunk, pass| -> Vec<usize> {
            Schedule { block: 1 }
                .steps(6, 3, chunk, pass)
                .step_by(3)
                .map(|s| s.solver)
                .collect()
        };
        assert_eq!(firsts(0, 0), [0, 1, 2, 0, 1, 2]);
        assert_eq!(firsts(1, 0), [1, 2, 0, 1, 2, 0]);
        assert_eq!(firsts(0, 1), [1, 2, 0, 1, 2, 0]);
        // Two solvers: A B, then B A, and so on.
        let ab: Vec<usize> = Schedule { block: 1 }
            .steps(4, 2, 0, 0)
            .map(|s| s.solver)
            .collect();
        assert_eq!(ab, [0, 1, 1, 0, 0, 1, 1, 0]);
    }

    #[test]
    fn adding_a_solver_changes_no_other_solvers_blocks() {
        let blocks = |solvers: usize, solver: usize| -> Vec<Range<usize>> {
            Schedule { block: 3 }
                .steps(11, solvers, 2, 0)
                .filter(|s| s.solver == solver)
                .map(|s| s.puzzles)
                .collect()
        };
        for solver in 0..2 {
            assert_eq!(blocks(2, solver), blocks(3, solver));
            assert_eq!(blocks(2, solver), blocks(4, solver));
        }
    }

    /// The warm-ups of a worker running the steps one after the other.
    fn warm_ups(schedule: Schedule, puzzles: usize, solvers: usize) -> Vec<Option<usize>> {
        let mut last = None;
        schedule
            .steps(puzzles, solvers, 0, 0)
            .map(|s| {
                let w = s.warm_up(last);
                last = Some(s.solver);
                w
            })
            .collect()
    }

    #[test]
    fn a_block_warms_up_on_its_last_puzzle_only_after_another_solver() {
        // Blocks 0..3, 3..6, 6..8 with two solvers: A B, B A, A B. B goes
        // on after itself in the second block, A in the third.
        assert_eq!(
            warm_ups(Schedule { block: 3 }, 8, 2),
            [Some(2), Some(2), None, Some(5), None, Some(7)]
        );
        // One solver: only its first block, after nothing.
        assert_eq!(warm_ups(Schedule { block: 3 }, 8, 1), [Some(2), None, None]);
        // One-puzzle blocks (each puzzle back to back) never.
        assert!(warm_ups(Schedule { block: 1 }, 5, 3)
            .iter()
            .all(Option::is_none));
    }

    #[test]
    fn a_zero_block_is_taken_as_one() {
        assert_eq!(Schedule { block: 0 }.steps(3, 1, 0, 0).count(), 3);
    }
}
