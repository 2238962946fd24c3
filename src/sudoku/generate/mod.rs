//! A seeded puzzle generator: random full grids, then clue removal that
//! keeps the solution unique.
//!
//! 1. **Fill.** A randomised backtracking search fills an empty grid:
//!    it branches on the cell with the fewest candidates (first such cell in
//!    reading order) and tries that cell's candidates in a random order. A
//!    fill that needs more than a few nodes per cell is abandoned and
//!    restarted with fresh random choices, which keeps the rare bad start on
//!    large grids from thrashing.
//! 2. **Removal.** Cells (or, with [`GenerateOptions::symmetric`], pairs of
//!    cells mapped onto each other by a 180-degree rotation) are visited in a
//!    random order; each is blanked and kept blank when the Dancing Links
//!    solver ([`DlxSolver`], one instance reused for every check) still finds
//!    exactly one solution with a limit of 2. Removal stops early once the
//!    puzzle is down to [`GenerateOptions::min_clues`] clues. To save checks
//!    while most removals succeed, consecutive cells are tried in batches
//!    (a failed batch is bisected); this decides every cell exactly as
//!    one-at-a-time removal would, since a set of clues can go only if each
//!    of its subsets can.
//! 3. **Verification.** Every finished puzzle is solved again by a different
//!    solver ([`VERIFIER`], bitmask backtracking with hidden singles, which
//!    shares no code with the Dancing Links engine), which must find exactly
//!    one solution, equal to the filled grid; any disagreement is an error.
//!    It proves a generated 25x25 puzzle unique in milliseconds. Its solve
//!    is bounded by [`GenerateOptions::verify_nodes`] as a safety net; a
//!    puzzle whose verification runs out is counted as unverified
//!    ([`GenerateStats::unverified`]) rather than failed. (The plain
//!    `heuristic` solver, the verifier before, needs seconds to minutes per
//!    16x16 puzzle.)
//!
//! 4. **Targets.** [`GenerateOptions::minimal`] has the verifier also
//!    confirm that blanking any one clue leaves several solutions.
//!    [`GenerateOptions::max_clues`] and [`GenerateOptions::difficulty`]
//!    run a local search over minimal puzzles until one is on target; see
//!    [`target`].
//!
//! # Large grids
//!
//! A uniqueness check on a 9x9 puzzle takes microseconds whatever the clue
//! count, so puzzles up to 12x12 are *minimal*: every remaining clue is
//! needed. On 16x16 and 25x25 grids a check on a sparse puzzle can take
//! millions of search nodes. [`GenerateOptions::check_nodes`] bounds each
//! check: a check that runs out of nodes counts as "not proven unique", so
//! that clue stays. Puzzles are then still proven unique, only not
//! necessarily minimal (a few more clues than needed), and generation time
//! stays within seconds (about 0.1 s a 16x16 puzzle, 1 s a 25x25 one,
//! with the default bound of 1,000 nodes). With a node bound the output depends on the DLX
//! solver's node counts, which are deterministic but would change if the
//! solver's search order changed; without one (the default up to 12x12) it
//! depends on the random stream only.
//!
//! # Determinism
//!
//! All randomness comes from one [`ChaCha8Rng`] seeded with
//! [`SeedableRng::seed_from_u64`], and bounded integers are drawn from its
//! 32-bit outputs by a fixed rule ([`below`]), so a seed gives the same
//! puzzles on every platform. Nothing iterates over a hash map.
//!
//! ```
//! use dlxbench::sudoku::generate::{GenerateOptions, Generator};
//! use dlxbench::sudoku::{BoxShape, Grid};
//!
//! let options = GenerateOptions::new(BoxShape::new(2, 3).unwrap());
//! let mut generator = Generator::new(7, options).unwrap();
//! let (mut puzzle, mut solution) = (Grid::empty(options.shape), Grid::empty(options.shape));
//! generator.next_into(&mut puzzle, &mut solution).unwrap();
//! assert!(puzzle.clues() < 36 && solution.is_full());
//! ```

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::puzzle::GenerateError;
use crate::solvers::{Budget, Solver};
use crate::sudoku::rate::Difficulty;
use crate::sudoku::solvers::dlx::DlxSolver;
use crate::sudoku::solvers::singles::SinglesSolver;
use crate::sudoku::{BoxShape, Filler, Grid};

/// The largest side the generator supports: candidate sets are `u64`.
pub const MAX_GENERATE_SIDE: usize = 64;

/// The solver that re-checks every generated puzzle (not the one that made it).
pub const VERIFIER: &str = "singles";

/// Default node bound of the verifying solve for sides above 12.
pub const VERIFY_NODES_LARGE: u64 = 10_000_000;

/// Largest side for clue and difficulty targets.
pub const TARGET_MAX_SIDE: usize = 12;

/// Default of [`GenerateOptions::max_steps`].
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

/// Options for [`Generator`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Grid shape.
    pub shape: BoxShape,
    /// Stop removing clues once the puzzle has this many (it may end with
    /// more when no further clue can go). `0`: remove all that can go.
    pub min_clues: usize,
    /// Remove cells in pairs that map onto each other under a 180-degree
    /// rotation, so the clue pattern is symmetric.
    pub symmetric: bool,
    /// Node bound for each uniqueness check (`u64::MAX`: none). A check that
    /// hits it keeps its clue.
    pub check_nodes: u64,
    /// Node bound of the verifying solve by [`VERIFIER`] (`u64::MAX`: none).
    /// A puzzle whose verification hits it is counted in
    /// [`GenerateStats::unverified`]; it is still proven unique by the DLX
    /// checks.
    pub verify_nodes: u64,
    /// Every clue is needed: removal runs to the end with unbounded checks,
    /// and [`VERIFIER`] confirms that blanking any one clue leaves two or
    /// more solutions.
    pub minimal: bool,
    /// Search until the puzzle has at most this many clues (`0`: no
    /// target); see [`target`].
    pub max_clues: usize,
    /// Search until the puzzle is of this [`Difficulty`] class (9x9 only);
    /// see [`target`].
    pub difficulty: Option<Difficulty>,
    /// With a clue or difficulty target: give up (with
    /// [`GenerateError::TargetNotReached`]) after this many local-search
    /// steps for one puzzle (`u64::MAX`: never).
    pub max_steps: u64,
}

impl GenerateOptions {
    /// Options for `shape` with the defaults: no clue target, no symmetry,
    /// and the check bound from [`GenerateOptions::default_check_nodes`].
    pub fn new(shape: BoxShape) -> Self {
        GenerateOptions {
            shape,
            min_clues: 0,
            symmetric: false,
            check_nodes: Self::default_check_nodes(shape),
            verify_nodes: Self::default_verify_nodes(shape),
            minimal: false,
            max_clues: 0,
            difficulty: None,
            max_steps: DEFAULT_MAX_STEPS,
        }
    }

    /// True when a clue or difficulty target asks for the local search.
    pub fn has_target(&self) -> bool {
        self.max_clues > 0 || self.difficulty.is_some()
    }

    /// Checks that the options go together; [`Generator::new`] calls it.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let side = self.shape.side();
        if side > MAX_GENERATE_SIDE {
            return Err(GenerateError::TooLarge {
                side,
                max: MAX_GENERATE_SIDE,
            });
        }
        let bad = |message: String| Err(GenerateError::BadOptions(message));
        let target = if self.max_clues > 0 {
            "a clue target (--max-clues)"
        } else {
            "a difficulty target (--difficulty)"
        };
        if self.has_target() || self.minimal {
            let what = if self.has_target() {
                target
            } else {
                "minimal puzzles (--minimal)"
            };
            if self.symmetric {
                return bad(format!(
                    "{what} cannot be combined with --symmetric: single clues are added \
                     and removed, which breaks the symmetry"
                ));
            }
            if self.min_clues > 0 {
                return bad(format!(
                    "{what} cannot be combined with --min-clues, which stops removal early"
                ));
            }
            if self.check_nodes != u64::MAX {
                return bad(format!(
                    "{what} needs unbounded uniqueness checks (--check-nodes 0): a check \
                     that runs out of nodes keeps a clue that may not be needed"
                ));
            }
        }
        if self.has_target() && side > TARGET_MAX_SIDE {
            return bad(format!(
                "{target} is supported up to {TARGET_MAX_SIDE}x{TARGET_MAX_SIDE} grids, \
                 where a uniqueness check takes microseconds; this grid is {side}x{side}"
            ));
        }
        if self.difficulty.is_some() && self.shape != BoxShape::NINE {
            return bad(format!(
                "difficulty classes are calibrated on 9x9 corpora; this grid is {side}x{side}"
            ));
        }
        if self.shape == BoxShape::NINE && self.max_clues > 0 && self.max_clues < 17 {
            return bad(format!(
                "no 9x9 puzzle with fewer than 17 clues has a unique solution \
                 (McGuire, Tugemann and Civario, 2012): --max-clues {} cannot be met",
                self.max_clues
            ));
        }
        Ok(())
    }

    /// The default node bound of the verifying solve: none up to side 12;
    /// above, [`VERIFY_NODES_LARGE`], far more than the committed 16x16 and
    /// 25x25 corpora need (all of them verify), but a bound on the rare
    /// puzzle that would take minutes.
    pub fn default_verify_nodes(shape: BoxShape) -> u64 {
        if shape.side() <= 12 {
            u64::MAX
        } else {
            VERIFY_NODES_LARGE
        }
    }

    /// The default node bound of a uniqueness check: none up to side 12;
    /// 1,000 for larger grids (about a millisecond a check). Measured on
    /// 25x25: bounds of 1,000 / 5,000 / 20,000 nodes gave 277 / 277 / 276
    /// clues on average at 1 / 2.5 / 7.5 s a puzzle; on 16x16 95 / 94 / 93.5
    /// clues at 0.06 / 0.13 / 0.29 s, against 92.5 clues at 1.9 s unbounded.
    pub fn default_check_nodes(shape: BoxShape) -> u64 {
        if shape.side() <= 12 {
            u64::MAX
        } else {
            1_000
        }
    }
}

/// Work done for one puzzle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GenerateStats {
    /// Restarts of the random fill.
    pub fill_restarts: u32,
    /// Uniqueness checks run.
    pub checks: u32,
    /// Checks that hit the node bound (their clue stayed).
    pub checks_over_budget: u32,
    /// Clues in the finished puzzle.
    pub clues: usize,
    /// The verifying solve hit [`GenerateOptions::verify_nodes`] before
    /// finishing, so the puzzle was not independently verified.
    pub unverified: bool,
    /// With a target: minimal puzzles made from fresh grids.
    pub starts: u32,
    /// With a target: local-search steps (moves tried).
    pub steps: u64,
    /// The `singles` guesses of the finished puzzle, when a difficulty
    /// target or [`GenerateOptions::minimal`] measured them (else 0).
    pub guesses: u64,
}

pub use crate::rng::{below, shuffle};
pub use crate::sudoku::random_full_grid;

/// The clue-removal state of one puzzle.
struct Removal<'a> {
    puzzle: &'a mut Grid,
    /// The filled grid: the value of every clue.
    solution: &'a Grid,
    dlx: &'a mut DlxSolver,
    scratch: &'a mut Grid,
    budget: Budget,
    symmetric: bool,
    clues: usize,
    stats: &'a mut GenerateStats,
}

impl Removal<'_> {
    /// The cell paired with `cell` (itself when not symmetric).
    fn partner(&self, cell: usize) -> usize {
        if self.symmetric {
            self.puzzle.cells().len() - 1 - cell
        } else {
            cell
        }
    }

    /// Cells a unit removes: 2 for a symmetric pair, 1 otherwise.
    fn unit_size(&self, cell: usize) -> usize {
        if self.partner(cell) == cell {
            1
        } else {
            2
        }
    }

    /// Blanks every unit of `units` at once and keeps them blank if the
    /// solution stays unique; otherwise restores them and tries each half in
    /// turn, down to single units. Returns true when the whole batch went.
    ///
    /// This decides every unit exactly as trying them one at a time in order
    /// would: removing a set of clues keeps a unique solution only if
    /// removing any subset of it does, so a batch goes whole exactly when
    /// each of its units would go in turn. `known_fail` says the batch is
    /// known not to go whole (its check would be wasted).
    fn remove(&mut self, units: &[usize], known_fail: bool) -> bool {
        if !known_fail {
            let mut removed = 0;
            for &cell in units {
                let partner = self.partner(cell);
                self.puzzle.cells_mut()[cell] = 0;
                self.puzzle.cells_mut()[partner] = 0;
                removed += self.unit_size(cell);
            }
            let outcome = self.dlx.solve(self.puzzle, 2, self.budget, self.scratch);
            self.stats.checks += 1;
            if outcome.budget_exceeded {
                self.stats.checks_over_budget += 1;
            }
            if outcome.solutions == 1 && !outcome.budget_exceeded {
                self.clues -= removed;
                return true;
            }
            for &cell in units {
                let partner = self.partner(cell);
                self.puzzle.cells_mut()[cell] = self.solution.cells()[cell];
                self.puzzle.cells_mut()[partner] = self.solution.cells()[partner];
            }
        }
        if units.len() == 1 {
            return false;
        }
        let (first, second) = units.split_at(units.len() / 2);
        let first_went = self.remove(first, false);
        // If the first half went whole, the second cannot: together they
        // did not.
        self.remove(second, first_went);
        false
    }
}

/// Generates puzzles of one shape from one seed. Working memory (the fill
/// state, the DLX arena, the verifier) is kept between puzzles, so after the
/// first puzzle generation allocates nothing.
pub struct Generator {
    options: GenerateOptions,
    rng: ChaCha8Rng,
    filler: Filler,
    dlx: DlxSolver,
    verifier: Box<dyn Solver<Grid>>,
    /// Cells to try removing (the first of each rotation pair when symmetric).
    order: Vec<usize>,
    scratch: Grid,
    produced: u64,
    /// Working memory of the local search for clue and difficulty targets.
    search: target::Search,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("options", &self.options)
            .field("produced", &self.produced)
            .finish()
    }
}

impl Generator {
    /// A generator for `options`, seeded with `seed`.
    pub fn new(seed: u64, options: GenerateOptions) -> Result<Self, GenerateError> {
        options.validate()?;
        let cells = options.shape.cells();
        let order = if options.symmetric {
            // A cell and its image `cells - 1 - i`; the centre (odd side) is
            // its own image.
            (0..cells.div_ceil(2)).collect()
        } else {
            (0..cells).collect()
        };
        Ok(Generator {
            options,
            rng: ChaCha8Rng::seed_from_u64(seed),
            filler: Filler::new(options.shape),
            dlx: DlxSolver::new(),
            verifier: Box::new(SinglesSolver::new()),
            order,
            scratch: Grid::empty(options.shape),
            produced: 0,
            search: target::Search::new(options.shape),
        })
    }

    /// The options.
    pub fn options(&self) -> &GenerateOptions {
        &self.options
    }

    /// Writes the next puzzle into `puzzle` and its unique solution into
    /// `solution` (reusing both buffers).
    // Same signature as the Hanidoku generator's `next_into` on purpose: one generator per puzzle
    // kind, each on its own board.
    pub fn next_into(
        &mut self,
        puzzle: &mut Grid,
        solution: &mut Grid,
    ) -> Result<GenerateStats, GenerateError> {
        let mut stats = GenerateStats::default();
        if self.options.has_target() {
            self.search_target(puzzle, solution, &mut stats)?;
        } else {
            self.carve(puzzle, solution, &mut stats);
        }
        self.verify(puzzle, solution, &mut stats)?;
        self.produced += 1;
        Ok(stats)
    }

    /// A random full grid into `solution`, and clues removed from it into
    /// `puzzle` as the options say.
    fn carve(&mut self, puzzle: &mut Grid, solution: &mut Grid, stats: &mut GenerateStats) {
        stats.fill_restarts += self.filler.fill(&mut self.rng, solution);
        puzzle.copy_from(solution);
        let cells = self.options.shape.cells();
        shuffle(&mut self.rng, &mut self.order);
        let mut removal = Removal {
            puzzle,
            solution,
            dlx: &mut self.dlx,
            scratch: &mut self.scratch,
            budget: Budget::nodes(self.options.check_nodes),
            symmetric: self.options.symmetric,
            clues: cells,
            stats,
        };
        // Units are tried in batches that grow while whole batches go and
        // shrink when they fail; see `Removal::remove`.
        let units = self.order.len();
        let mut batch = (units / 8).max(1);
        let mut pos = 0;
        while pos < units && removal.clues > self.options.min_clues {
            let room = removal.clues - self.options.min_clues;
            let mut end = pos;
            let mut size = 0;
            while end < units && end - pos < batch {
                let unit = removal.unit_size(self.order[end]);
                if size + unit > room {
                    break;
                }
                size += unit;
                end += 1;
            }
            if end == pos {
                // This unit alone would go below the target, now and later.
                pos += 1;
                continue;
            }
            if removal.remove(&self.order[pos..end], false) {
                batch *= 2;
            } else {
                batch = 1;
            }
            pos = end;
        }
    }

    /// The independent checks of a finished puzzle: [`VERIFIER`] must find
    /// exactly its solution, and with [`GenerateOptions::minimal`] two or
    /// more solutions once any clue is blanked.
    fn verify(
        &mut self,
        puzzle: &mut Grid,
        solution: &Grid,
        stats: &mut GenerateStats,
    ) -> Result<(), GenerateError> {
        stats.clues = puzzle.clues();
        let outcome = self.verifier.solve(
            puzzle,
            2,
            Budget::nodes(self.options.verify_nodes),
            &mut self.scratch,
        );
        // The first solution found is checked even when the budget ran out.
        let differs = outcome.solutions >= 1 && self.scratch != *solution;
        stats.unverified = outcome.budget_exceeded;
        if differs || outcome.solutions >= 2 || (!outcome.budget_exceeded && outcome.solutions != 1)
        {
            return Err(GenerateError::VerifyFailed {
                index: self.produced,
                verifier: VERIFIER,
                filled: "grid",
                solutions: outcome.solutions,
                differs,
            });
        }
        if self.options.minimal {
            let budget = Budget::nodes(self.options.verify_nodes);
            for cell in 0..puzzle.cells().len() {
                let clue = puzzle.cells()[cell];
                if clue == 0 {
                    continue;
                }
                puzzle.cells_mut()[cell] = 0;
                let outcome = self.verifier.solve(puzzle, 2, budget, &mut self.scratch);
                puzzle.cells_mut()[cell] = clue;
                stats.unverified |= outcome.budget_exceeded;
                if outcome.solutions < 2 && !outcome.budget_exceeded {
                    return Err(GenerateError::NotMinimal {
                        index: self.produced,
                        verifier: VERIFIER,
                        cell,
                    });
                }
            }
        }
        Ok(())
    }
}

mod puzzle;
pub mod target;

#[cfg(test)]
mod tests;
