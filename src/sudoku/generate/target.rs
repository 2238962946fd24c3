//! Clue and difficulty targets: a local search over minimal puzzles.
//!
//! With [`GenerateOptions::max_clues`] or [`GenerateOptions::difficulty`]
//! the generator does not stop at the first minimal puzzle. It measures how
//! far the puzzle is from the target, as a pair compared in order: clues
//! above the maximum, then the distance of its `singles` guesses
//! ([`Difficulty`]) from the class's range. Then it walks from puzzle to
//! puzzle with the same solution grid:
//!
//! 1. **Drop a clue.** A random clue `x` is blanked. The puzzle was minimal,
//!    so it now has other solutions, and each of them differs from the
//!    grid at `x`. One of them, `T`, is found by the `singles` solver with
//!    `x` set to another value.
//! 2. **Add a clue.** A random cell `y` where `T` differs from the grid is
//!    given its value from the grid; this rules out `T`. A move whose
//!    puzzle is still not unique is dropped.
//! 3. **Re-minimise.** Every other clue, in random order, is blanked if the
//!    puzzle stays unique. The result is minimal again, with as many clues
//!    as before or fewer.
//!
//! A move is kept when the new puzzle is no farther from the target (moves
//! to puzzles as far away let the search cross plateaus). After
//! [`STALE_STEPS`] moves without getting closer, the search starts again
//! from a fresh grid and a fresh minimal puzzle. (Keeping moves up to 3
//! guesses farther away made 35% more moves per extreme puzzle over 28
//! puzzles, so the walk only goes level or down.) It stops at the first
//! puzzle on target, or with [`GenerateError::TargetNotReached`] after
//! [`GenerateOptions::max_steps`] moves.
//!
//! Uniqueness is checked by the Dancing Links solver and only its solution
//! *counts* steer the search; the other solutions come from the `singles`
//! solver, whose search order is fixed. So the puzzles depend on the seed
//! alone, not on the engine's column-choice tie-breaks. A check of a 9x9
//! puzzle takes some 20 µs and a move about 25 of them, so the search makes
//! a few thousand moves a second.

use super::*;

/// Moves without getting closer to the target before a fresh start.
pub const STALE_STEPS: u32 = 500;

/// Working memory of the search, kept between puzzles.
#[derive(Debug, Clone)]
pub(super) struct Search {
    candidate: Grid,
    cells: Vec<usize>,
    values: Vec<u8>,
}

impl Search {
    pub(super) fn new(shape: BoxShape) -> Self {
        Search {
            candidate: Grid::empty(shape),
            cells: Vec::with_capacity(shape.cells()),
            values: Vec::with_capacity(shape.side()),
        }
    }
}

/// How far a puzzle is from the target: clues above the maximum, then
/// `singles` guesses outside the class's range. Zero is on target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Distance {
    clues: usize,
    guesses: u64,
}

impl Distance {
    const ZERO: Distance = Distance {
        clues: 0,
        guesses: 0,
    };
    const FAR: Distance = Distance {
        clues: usize::MAX,
        guesses: u64::MAX,
    };
}

/// True when `puzzle` has exactly one solution (Dancing Links count).
fn unique(dlx: &mut DlxSolver, scratch: &mut Grid, puzzle: &Grid) -> bool {
    dlx.solve(puzzle, 2, Budget::UNLIMITED, scratch).solutions == 1
}

/// The distance of `puzzle` from the target, and its `singles` guesses
/// (0 when no difficulty is asked for).
fn distance(
    options: &GenerateOptions,
    singles: &mut dyn Solver<Grid>,
    scratch: &mut Grid,
    puzzle: &Grid,
) -> (Distance, u64) {
    let clues = if options.max_clues > 0 {
        puzzle.clues().saturating_sub(options.max_clues)
    } else {
        0
    };
    let Some(class) = options.difficulty else {
        return (Distance { clues, guesses: 0 }, 0);
    };
    let guesses = singles.solve(puzzle, 2, Budget::UNLIMITED, scratch).guesses;
    let range = class.guesses();
    let gap = if guesses < *range.start() {
        range.start() - guesses
    } else {
        guesses.saturating_sub(*range.end())
    };
    (
        Distance {
            clues,
            guesses: gap,
        },
        guesses,
    )
}

impl Generator {
    /// One move from the minimal `puzzle` (see the module docs) into
    /// `self.search.candidate`; false when the move is dropped.
    fn step(&mut self, puzzle: &Grid, solution: &Grid) -> bool {
        let n = puzzle.side();
        let Search {
            candidate,
            cells,
            values,
        } = &mut self.search;
        let (rng, dlx, scratch) = (&mut self.rng, &mut self.dlx, &mut self.scratch);
        let singles = self.verifier.as_mut();
        candidate.copy_from(puzzle);
        cells.clear();
        cells.extend((0..puzzle.cells().len()).filter(|&c| puzzle.cells()[c] != 0));
        if cells.is_empty() {
            return false;
        }
        // 1. Drop a clue; find another solution, with another value there.
        let x = cells[below(rng, cells.len() as u32) as usize];
        let keep = solution.cells()[x];
        values.clear();
        values.extend((1..=n as u8).filter(|&v| v != keep));
        shuffle(rng, values);
        let mut found = false;
        for &v in values.iter() {
            candidate.cells_mut()[x] = v;
            if singles
                .solve(candidate, 1, Budget::UNLIMITED, scratch)
                .solutions
                == 1
            {
                found = true;
                break;
            }
        }
        candidate.cells_mut()[x] = 0;
        if !found {
            return false; // `puzzle` was not minimal: cannot happen
        }
        // 2. Add a clue where that solution differs from the grid.
        cells.clear();
        cells.extend(
            (0..puzzle.cells().len())
                .filter(|&c| c != x && scratch.cells()[c] != solution.cells()[c]),
        );
        if cells.is_empty() {
            return false;
        }
        let y = cells[below(rng, cells.len() as u32) as usize];
        candidate.cells_mut()[y] = solution.cells()[y];
        if !unique(dlx, scratch, candidate) {
            return false;
        }
        // 3. Re-minimise: every other clue, in random order.
        cells.clear();
        cells.extend((0..candidate.cells().len()).filter(|&c| c != y && candidate.cells()[c] != 0));
        shuffle(rng, cells);
        for &c in cells.iter() {
            candidate.cells_mut()[c] = 0;
            if !unique(dlx, scratch, candidate) {
                candidate.cells_mut()[c] = solution.cells()[c];
            }
        }
        true
    }

    /// Generates puzzles until one meets the clue and difficulty targets.
    pub(super) fn search_target(
        &mut self,
        puzzle: &mut Grid,
        solution: &mut Grid,
        stats: &mut GenerateStats,
    ) -> Result<(), GenerateError> {
        // The closest puzzle so far: its distance, clues and guesses.
        let mut best = (Distance::FAR, 0, 0);
        loop {
            self.carve(puzzle, solution, stats);
            stats.starts += 1;
            let (mut here, mut guesses) = distance(
                &self.options,
                self.verifier.as_mut(),
                &mut self.scratch,
                puzzle,
            );
            let mut stale = 0;
            // The closest puzzle of this start.
            let mut closest = here;
            loop {
                if here < best.0 {
                    best = (here, puzzle.clues(), guesses);
                }
                if here == Distance::ZERO {
                    stats.guesses = guesses;
                    return Ok(());
                }
                if stale >= STALE_STEPS {
                    break;
                }
                if stats.steps >= self.options.max_steps {
                    return Err(GenerateError::TargetNotReached {
                        steps: stats.steps,
                        best_clues: best.1,
                        best_guesses: best.2,
                    });
                }
                stats.steps += 1;
                stale += 1;
                if !self.step(puzzle, solution) {
                    continue;
                }
                let (there, g) = distance(
                    &self.options,
                    self.verifier.as_mut(),
                    &mut self.scratch,
                    &self.search.candidate,
                );
                if there <= here {
                    if there < closest {
                        closest = there;
                        stale = 0;
                    }
                    puzzle.copy_from(&self.search.candidate);
                    (here, guesses) = (there, g);
                }
            }
        }
    }
}
