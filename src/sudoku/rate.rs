//! Rating puzzles by the work the solvers need: tdoku's "rate by
//! backtracks" for this crate's solvers.
//!
//! [`Rater`] solves a puzzle with each solver, counting solutions up to 2
//! (so the whole search tree is explored for a unique puzzle), and reports
//! the costs in a [`Rating`]: Dancing Links nodes and guesses, the `singles`
//! solver's nodes and guesses, and the `naive` solver's nodes within a
//! budget. The [`Difficulty`] class comes from the `singles` guesses:
//!
//! | class     | `singles` guesses | meaning                                                |
//! |-----------|-------------------|--------------------------------------------------------|
//! | `easy`    | 0                 | naked and hidden singles alone solve it                |
//! | `medium`  | 1 to 9            | a few guesses: most of `kr_1011_sudokus`               |
//! | `hard`    | 10 to 59          | most of magictour's `top1465`                          |
//! | `extreme` | 60 and more       | 98% of the forum's hardest (`tdoku_puzzles5`)          |
//!
//! The thresholds ([`MEDIUM_FROM`], [`HARD_FROM`], [`EXTREME_FROM`]) were
//! chosen from the distribution of `singles` guesses on the public corpora
//! (see the README's `rate` section for the table and the command). The
//! `singles` solver's guesses are used rather than the Dancing Links nodes
//! because its search order is fixed by the puzzle alone (minimum remaining
//! values over cells and unit places, ties by position), does not depend
//! on the engine's column-choice tie-breaks, and explores the whole tree
//! for limit 2, so the count does not depend on where the solution lies.
//! The classes are coarse on purpose: a change of a few guesses moves few
//! puzzles across a boundary.
//!
//! ```
//! use dlxbench::budget::Budget;
//! use dlxbench::sudoku::rate::{Difficulty, Rater};
//! use dlxbench::sudoku::{parse_line_into, BoxShape, Grid, ParseOptions};
//!
//! let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
//! let mut puzzle = Grid::empty(BoxShape::NINE);
//! parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
//! let rating = Rater::new(Some(1_000_000), Budget::UNLIMITED).rate(&puzzle);
//! assert_eq!((rating.clues, rating.solutions), (18, 1));
//! assert!(rating.difficulty.is_some());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::solvers::{Budget, Outcome, Solver};
use crate::sudoku::solvers::dlx::DlxSolver;
use crate::sudoku::solvers::naive::NaiveSolver;
use crate::sudoku::solvers::singles::SinglesSolver;
use crate::sudoku::{BoxShape, Grid};

/// Fewest `singles` guesses of a [`Difficulty::Medium`] puzzle.
pub const MEDIUM_FROM: u64 = 1;
/// Fewest `singles` guesses of a [`Difficulty::Hard`] puzzle.
pub const HARD_FROM: u64 = 10;
/// Fewest `singles` guesses of a [`Difficulty::Extreme`] puzzle.
pub const EXTREME_FROM: u64 = 60;

/// A difficulty class; see the [module docs](self) for the thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Singles alone solve it.
    Easy,
    /// A few guesses.
    Medium,
    /// Tens of guesses.
    Hard,
    /// More.
    Extreme,
}

impl Difficulty {
    /// Every class, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Extreme,
    ];

    /// The class of a unique puzzle whose full `singles` search (limit 2)
    /// made `guesses` guesses.
    pub fn from_guesses(guesses: u64) -> Difficulty {
        if guesses >= EXTREME_FROM {
            Difficulty::Extreme
        } else if guesses >= HARD_FROM {
            Difficulty::Hard
        } else if guesses >= MEDIUM_FROM {
            Difficulty::Medium
        } else {
            Difficulty::Easy
        }
    }

    /// The range of `singles` guesses of this class.
    pub fn guesses(self) -> std::ops::RangeInclusive<u64> {
        match self {
            Difficulty::Easy => 0..=MEDIUM_FROM - 1,
            Difficulty::Medium => MEDIUM_FROM..=HARD_FROM - 1,
            Difficulty::Hard => HARD_FROM..=EXTREME_FROM - 1,
            Difficulty::Extreme => EXTREME_FROM..=u64::MAX,
        }
    }

    /// Lower-case name, as on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Difficulty {
    type Err = String;
    /// `easy`, `medium`, `hard` or `extreme`.
    fn from_str(s: &str) -> Result<Self, String> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.as_str() == s)
            .ok_or_else(|| {
                format!("expected a difficulty `easy`, `medium`, `hard` or `extreme`, found `{s}`")
            })
    }
}

/// The costs of one puzzle; see [`Rater::rate`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rating {
    /// Filled cells of the puzzle.
    pub clues: usize,
    /// Solutions found by the Dancing Links solver, counting up to 2.
    pub solutions: u64,
    /// Dancing Links search: nodes, guesses, link updates.
    pub dlx: Outcome,
    /// The `singles` solver's search.
    pub singles: Outcome,
    /// The `naive` solver's search, when asked for; `budget_exceeded` says
    /// it stopped at its budget.
    pub naive: Option<Outcome>,
    /// The class, for a puzzle with exactly one solution whose `singles`
    /// search finished; `None` otherwise.
    pub difficulty: Option<Difficulty>,
}

/// Rates puzzles; keeps each solver's working memory between puzzles, so
/// after the first puzzle of a size rating allocates nothing.
pub struct Rater {
    dlx: DlxSolver,
    singles: SinglesSolver,
    naive: NaiveSolver,
    naive_budget: Option<u64>,
    budget: Budget,
    scratch: Grid,
}

impl fmt::Debug for Rater {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rater")
            .field("naive_budget", &self.naive_budget)
            .field("budget", &self.budget)
            .finish()
    }
}

impl Rater {
    /// A rater. `naive_budget`: run the `naive` solver with this node
    /// budget (`None`: not at all) and `budget`'s time bound. `budget`: the
    /// budget of the Dancing Links and `singles` searches; a puzzle that
    /// exhausts it gets no difficulty.
    pub fn new(naive_budget: Option<u64>, budget: Budget) -> Self {
        Rater {
            dlx: DlxSolver::new(),
            singles: SinglesSolver::new(),
            naive: NaiveSolver::new(),
            naive_budget,
            budget,
            scratch: Grid::empty(BoxShape::NINE),
        }
    }

    /// Rates `puzzle`: every solver counts solutions up to 2.
    pub fn rate(&mut self, puzzle: &Grid) -> Rating {
        let budget = self.budget;
        let dlx = self.dlx.solve(puzzle, 2, budget, &mut self.scratch);
        let singles = self.singles.solve(puzzle, 2, budget, &mut self.scratch);
        let naive = self.naive_budget.map(|nodes| {
            self.naive.solve(
                puzzle,
                2,
                Budget::nodes(nodes).with_max_time(budget.max_time),
                &mut self.scratch,
            )
        });
        let decided = !dlx.budget_exceeded && !singles.budget_exceeded;
        Rating {
            clues: puzzle.clues(),
            solutions: dlx.solutions,
            dlx,
            singles,
            naive,
            difficulty: (decided && dlx.solutions == 1)
                .then(|| Difficulty::from_guesses(singles.guesses)),
        }
    }

    /// Only the difficulty measure: the `singles` guesses of a full search
    /// (limit 2), and the solutions it found, for the generator's
    /// difficulty targets.
    pub fn singles_guesses(&mut self, puzzle: &Grid) -> (u64, u64) {
        let o = self
            .singles
            .solve(puzzle, 2, self.budget, &mut self.scratch);
        (o.guesses, o.solutions)
    }
}

/// Rates batches of puzzles on a rayon pool, one [`Rater`] per worker
/// thread (made once), results in input order.
pub struct ParallelRater {
    pool: rayon::ThreadPool,
    raters: Vec<std::sync::Mutex<Rater>>,
}

impl fmt::Debug for ParallelRater {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParallelRater")
            .field("threads", &self.raters.len())
            .finish()
    }
}

impl ParallelRater {
    /// `threads` workers (0: one per core), each with a
    /// `Rater::new(naive_budget, budget)`.
    pub fn new(
        threads: usize,
        naive_budget: Option<u64>,
        budget: Budget,
    ) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let raters = (0..pool.current_num_threads())
            .map(|_| std::sync::Mutex::new(Rater::new(naive_budget, budget)))
            .collect();
        Ok(ParallelRater { pool, raters })
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.raters.len()
    }

    /// Rates `puzzles` into `ratings` (cleared first), in order.
    pub fn rate_all(&self, puzzles: &[Grid], ratings: &mut Vec<Rating>) {
        use rayon::prelude::*;
        ratings.clear();
        ratings.resize(puzzles.len(), Rating::default());
        let raters = &self.raters;
        self.pool.install(|| {
            ratings
                .par_iter_mut()
                .zip(puzzles.par_iter())
                .with_min_len(16)
                .for_each(|(rating, puzzle)| {
                    let index = rayon::current_thread_index().unwrap_or(0) % raters.len();
                    // Each worker uses its own rater: the lock is never
                    // contended (a poisoned one is still usable).
                    let mut rater = raters[index]
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    *rating = rater.rate(puzzle);
                });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{parse_line_into, ParseOptions};

    #[test]
    fn parallel_ratings_are_the_sequential_ones_in_order() {
        let solved =
            "127954638536728491498163527961547382384291756275836914742315869813679245659482173";
        let puzzles: Vec<Grid> = (0..200)
            .map(|k| {
                let mut line: Vec<u8> = solved.bytes().collect();
                // Blank a different set of cells in each.
                for (i, cell) in line.iter_mut().enumerate() {
                    if (i * 7 + k * 13) % 5 < 3 {
                        *cell = b'.';
                    }
                }
                grid(std::str::from_utf8(&line).unwrap())
            })
            .collect();
        let pool = ParallelRater::new(2, Some(5000), Budget::UNLIMITED).unwrap();
        let mut ratings = Vec::new();
        pool.rate_all(&puzzles, &mut ratings);
        let mut one = Rater::new(Some(5000), Budget::UNLIMITED);
        let expected: Vec<Rating> = puzzles.iter().map(|p| one.rate(p)).collect();
        assert_eq!(ratings, expected);
        assert!(ratings.iter().any(|r| r.solutions == 2));
    }

    fn grid(line: &str) -> Grid {
        let mut g = Grid::empty(BoxShape::NINE);
        parse_line_into(line.as_bytes(), ParseOptions::default(), &mut g).unwrap();
        g
    }

    #[test]
    fn classes_partition_the_guesses() {
        for g in 0..200 {
            let d = Difficulty::from_guesses(g);
            assert!(d.guesses().contains(&g), "{g} {d}");
            for other in Difficulty::ALL {
                assert_eq!(other.guesses().contains(&g), other == d);
            }
        }
        for d in Difficulty::ALL {
            assert_eq!(d.as_str().parse::<Difficulty>(), Ok(d));
        }
        assert!("trivial".parse::<Difficulty>().is_err());
        assert!(Difficulty::Easy < Difficulty::Extreme);
    }

    #[test]
    fn a_singles_puzzle_is_easy_and_a_hard_one_is_not() {
        // The solution with every cell of the first row blanked: singles
        // finish it.
        let solved =
            "127954638536728491498163527961547382384291756275836914742315869813679245659482173";
        let easy = format!("{}{}", ".".repeat(9), &solved[9..]);
        let r = Rater::new(Some(1000), Budget::UNLIMITED).rate(&grid(&easy));
        assert_eq!(r.clues, 72);
        assert_eq!(r.solutions, 1);
        assert_eq!(r.singles.guesses, 0);
        assert_eq!(r.difficulty, Some(Difficulty::Easy));
        assert_eq!(r.naive.unwrap().solutions, 1);
        let hard =
            ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
        let r = Rater::new(Some(1000), Budget::UNLIMITED).rate(&grid(hard));
        assert!(r.singles.guesses >= 1);
        assert!(r.difficulty > Some(Difficulty::Easy));
        let naive = r.naive.unwrap();
        assert!(
            naive.budget_exceeded && naive.nodes == Some(1000),
            "{naive:?}"
        );
    }

    #[test]
    fn no_class_without_exactly_one_solution() {
        let mut r = Rater::new(None, Budget::UNLIMITED);
        let empty = Grid::empty(BoxShape::NINE);
        let rating = r.rate(&empty);
        assert_eq!((rating.solutions, rating.difficulty), (2, None));
        assert_eq!(rating.naive, None);
        let clash = grid(&format!("11{}", ".".repeat(79)));
        let rating = r.rate(&clash);
        assert_eq!((rating.solutions, rating.difficulty), (0, None));
        // A budget too small to finish: no class either.
        let hard =
            ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
        let rating = Rater::new(None, Budget::nodes(3)).rate(&grid(hard));
        assert!(rating.dlx.budget_exceeded);
        assert_eq!(rating.difficulty, None);
    }
}
