//! A seeded generator of minimal Hanidoku puzzles.
//!
//! 1. **Fill.** The `backtrack` solver's search, run on the empty board with
//!    its options in random order, gives a random solved board (a fill that
//!    runs past a node bound is restarted with fresh random choices).
//! 2. **Removal.** The 61 cells are visited in random order; each is blanked
//!    and stays blank when the `dlx` solver (one arena, reused) still finds
//!    exactly one solution with a limit of 2. One pass makes the puzzle
//!    **minimal**: a clue that could not go when it was tried cannot go
//!    later either, since blanking more cells only adds solutions.
//! 3. **Verification.** The `backtrack` solver, which shares no code with
//!    the exact-cover engine, must find exactly one solution, equal to the
//!    filled board, and with each remaining clue blanked in turn at least
//!    two: uniqueness and minimality are both proved by a second solver.
//!    Any disagreement is an error.
//!
//! All randomness comes from one ChaCha8 stream seeded with the seed, with
//! bounded integers drawn by [`crate::rng::below`], so a seed gives the
//! same puzzles on every platform.
//!
//! ```
//! use dlxbench::hanidoku::{generate::Generator, Board};
//! let mut generator = Generator::new(7);
//! let (mut puzzle, mut solution) = (Board::EMPTY, Board::EMPTY);
//! let stats = generator.next_into(&mut puzzle, &mut solution).unwrap();
//! assert_eq!(stats.clues, puzzle.clues());
//! assert!(solution.is_full());
//! ```

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::solvers::backtrack::{BacktrackSolver, Order};
use super::solvers::dlx::DlxSolver;
use super::{Board, CELLS};
use crate::puzzle::GenerateError;
use crate::rng::shuffle;
use crate::solvers::{Budget, Solver};

/// The solver that re-checks every generated puzzle (not the one that
/// removed its clues).
pub const VERIFIER: &str = "backtrack";

/// Node bound of one attempt at a random fill; a fill that goes well needs
/// about one node per cell.
const FILL_NODES: u64 = 20 * CELLS as u64;

/// Work done for one puzzle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GenerateStats {
    /// Restarts of the random fill.
    pub fill_restarts: u32,
    /// Uniqueness checks by the `dlx` solver.
    pub checks: u32,
    /// Clues in the finished puzzle.
    pub clues: usize,
}

/// Options in random order, drawn from the generator's stream.
struct Shuffled<'a>(&'a mut ChaCha8Rng);

impl Order for Shuffled<'_> {
    fn order(&mut self, options: &mut [u8]) {
        shuffle(self.0, options);
    }
}

/// Generates minimal unique Hanidoku puzzles from one seed. Working memory
/// (the DLX arena, the backtracking states) is kept between puzzles.
pub struct Generator {
    rng: ChaCha8Rng,
    filler: BacktrackSolver,
    dlx: DlxSolver,
    verifier: BacktrackSolver,
    order: [u8; CELLS],
    scratch: Board,
    produced: u64,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("produced", &self.produced)
            .finish()
    }
}

/// True when `puzzle` has exactly one solution for `solver` and blanking any
/// one of its clues gives two or more.
pub fn is_minimal_unique(puzzle: &Board, solver: &mut dyn Solver<Board>) -> bool {
    let mut scratch = Board::EMPTY;
    solver
        .solve(puzzle, 2, Budget::UNLIMITED, &mut scratch)
        .solutions
        == 1
        && removable_clue(puzzle, solver).is_none()
}

/// The first clue of `puzzle` (a puzzle with a unique solution) whose
/// removal leaves the solution unique for `solver`, if any.
fn removable_clue(puzzle: &Board, solver: &mut dyn Solver<Board>) -> Option<usize> {
    let mut scratch = Board::EMPTY;
    let mut cut = *puzzle;
    for cell in 0..CELLS {
        let clue = puzzle.get(cell);
        if clue == 0 {
            continue;
        }
        cut.set(cell, 0);
        let solutions = solver
            .solve(&cut, 2, Budget::UNLIMITED, &mut scratch)
            .solutions;
        cut.set(cell, clue);
        if solutions < 2 {
            return Some(cell);
        }
    }
    None
}

/// A random solved board, from the random fill seeded with `seed` (the
/// generator's first step).
pub fn solved_board(seed: u64) -> Board {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut filler = BacktrackSolver::new();
    loop {
        if let Some(full) = filler.fill(&mut Shuffled(&mut rng), FILL_NODES) {
            return full;
        }
    }
}

impl Generator {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        let mut order = [0u8; CELLS];
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u8;
        }
        Generator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            filler: BacktrackSolver::new(),
            dlx: DlxSolver::new(),
            verifier: BacktrackSolver::new(),
            order,
            scratch: Board::EMPTY,
            produced: 0,
        }
    }

    /// Writes the next puzzle into `puzzle` and its unique solution into
    /// `solution`.
    // Same signature as the Sudoku generator's `next_into` on purpose: one generator per puzzle
    // kind, each on its own board.
    pub fn next_into(
        &mut self,
        puzzle: &mut Board,
        solution: &mut Board,
    ) -> Result<GenerateStats, GenerateError> {
        let mut stats = GenerateStats::default();
        *solution = loop {
            match self.filler.fill(&mut Shuffled(&mut self.rng), FILL_NODES) {
                Some(full) => break full,
                None => stats.fill_restarts += 1,
            }
        };
        *puzzle = *solution;
        shuffle(&mut self.rng, &mut self.order);
        for &cell in &self.order {
            let cell = usize::from(cell);
            puzzle.set(cell, 0);
            stats.checks += 1;
            let outcome = self
                .dlx
                .solve(puzzle, 2, Budget::UNLIMITED, &mut self.scratch);
            if outcome.solutions != 1 {
                puzzle.set(cell, solution.get(cell));
            }
        }
        stats.clues = puzzle.clues();
        let index = self.produced;
        let outcome = self
            .verifier
            .solve(puzzle, 2, Budget::UNLIMITED, &mut self.scratch);
        let differs = outcome.solutions >= 1 && self.scratch != *solution;
        if outcome.solutions != 1 || differs {
            return Err(GenerateError::VerifyFailed {
                index,
                verifier: VERIFIER,
                filled: "board",
                solutions: outcome.solutions,
                differs,
            });
        }
        if let Some(cell) = removable_clue(puzzle, &mut self.verifier) {
            return Err(GenerateError::NotMinimal {
                index,
                verifier: VERIFIER,
                cell,
            });
        }
        self.produced += 1;
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hanidoku::{check, is_solution_of, solvers, Verdict};

    #[test]
    fn same_seed_same_puzzles_and_they_are_minimal() {
        let run = |seed| {
            let mut g = Generator::new(seed);
            (0..3)
                .map(|_| {
                    let (mut p, mut s) = (Board::EMPTY, Board::EMPTY);
                    let stats = g.next_into(&mut p, &mut s).unwrap();
                    assert_eq!(stats.clues, p.clues());
                    (p, s)
                })
                .collect::<Vec<_>>()
        };
        let a = run(11);
        assert_eq!(a, run(11));
        assert_ne!(a, run(12));
        for (puzzle, solution) in &a {
            assert_eq!(check(solution), Verdict::Complete);
            assert!(is_solution_of(solution, puzzle));
            for info in solvers::REGISTRY {
                let mut solver = (info.make)();
                assert!(
                    is_minimal_unique(puzzle, solver.as_mut()),
                    "{} on {puzzle}",
                    info.name
                );
            }
        }
    }

    #[test]
    fn minimality_check_fails_on_a_puzzle_with_a_spare_clue() {
        let mut g = Generator::new(5);
        let (mut p, mut s) = (Board::EMPTY, Board::EMPTY);
        g.next_into(&mut p, &mut s).unwrap();
        let spare = (0..CELLS).find(|&c| p.get(c) == 0).unwrap();
        p.set(spare, s.get(spare));
        let mut solver = solvers::backtrack::BacktrackSolver::new();
        assert!(!is_minimal_unique(&p, &mut solver));
        // Some clue can go now (the spare one, or one it makes redundant).
        let cell = removable_clue(&p, &mut solver).expect("a spare clue");
        let mut cut = p;
        cut.set(cell, 0);
        let mut scratch = Board::EMPTY;
        assert_eq!(
            solver
                .solve(&cut, 2, Budget::UNLIMITED, &mut scratch)
                .solutions,
            1
        );
        p.set(spare, 0);
        let cell = (0..CELLS).find(|&c| p.get(c) != 0).unwrap();
        p.set(cell, 0);
        assert!(!is_minimal_unique(&p, &mut solver), "not unique");
    }
}
