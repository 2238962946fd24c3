//! Sudoku as exact cover on a reused arena, on either engine: the solver
//! behind `dlx` ([`Dlx`](crate::exact_cover::Dlx)) and `dc`
//! ([`Dc`](crate::exact_cover::Dc)), one code path so that the two differ
//! in their engine alone.
//!
//! One arena per grid shape is built the first time that shape is seen and
//! kept; every later puzzle of that shape reuses it, with no allocation.
//! The clues are preset rows, placed before the search so that every
//! candidate a clue rules out is gone when it starts; then Algorithm X runs
//! ([`Engine::search_deferred`]: the search stops when nothing is left to
//! try, leaving its last path covered, since the next puzzle's placement
//! replaces or undoes the arena anyway). The clues are placed in one of two
//! ways ([`Placement`]).

use std::ops::ControlFlow;

use crate::exact_cover::{ColumnChoice, Engine, SearchOptions};
use crate::solvers::{Budget, Outcome, Solver};
use crate::sudoku::{BoxShape, Grid};

/// How the clues are placed and the arena returned to its pristine state
/// between puzzles (see [`super::dlx`] for what each costs on `dlx`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// Undo the previous search and clues ([`Engine::reset`]), then cover
    /// the new clues' columns ([`Engine::select_rows`]).
    Undo,
    /// Rebuild the arena from the rows the clues leave
    /// ([`Engine::select_all`]); nothing to undo.
    #[default]
    Relink,
}

/// The exact-cover Sudoku solver on engine `E` (`dlx`: [`super::dlx::DlxSolver`],
/// `dc`: [`super::dc::DcSolver`]).
///
/// ```
/// use dlxbench::exact_cover::{ColumnChoice, Dc, Dlx};
/// use dlxbench::sudoku::solvers::engine::{CoverSolver, Placement};
/// use dlxbench::solvers::{Budget, Solver};
/// use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};
///
/// let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
/// let mut puzzle = Grid::empty(BoxShape::NINE);
/// sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
/// let mut solution = Grid::empty(BoxShape::NINE);
/// // The same tree on both engines under the lowest-index choice.
/// let mut dlx = CoverSolver::<Dlx>::with_choice(ColumnChoice::LowestIndex);
/// let mut dc = CoverSolver::<Dc>::with_choice(ColumnChoice::LowestIndex)
///     .with_placement(Placement::Undo);
/// let a = dlx.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
/// let b = dc.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
/// assert_eq!((a.solutions, a.nodes, a.updates), (1, b.nodes, b.updates));
/// assert!(sudoku::is_solution_of(&solution, &puzzle));
/// ```
#[derive(Debug, Clone)]
pub struct CoverSolver<E> {
    /// One arena per shape seen, most recent first.
    arenas: Vec<(BoxShape, E)>,
    choice: ColumnChoice,
    placement: Placement,
    /// The clues' rows of the current puzzle (capacity kept between puzzles).
    clue_rows: Vec<usize>,
}

impl<E: Engine> Default for CoverSolver<E> {
    fn default() -> Self {
        CoverSolver {
            arenas: Vec::new(),
            choice: ColumnChoice::default(),
            placement: Placement::default(),
            clue_rows: Vec::new(),
        }
    }
}

impl<E: Engine> CoverSolver<E> {
    /// A solver with no arena yet, minimum-remaining-values choice.
    pub fn new() -> Self {
        Self::default()
    }

    /// A solver that picks columns with `choice` (the first open column,
    /// for comparison; the lowest index, for a tree every engine shares).
    pub fn with_choice(choice: ColumnChoice) -> Self {
        CoverSolver {
            choice,
            ..Self::default()
        }
    }

    /// This solver, placing clues as `placement` says.
    pub fn with_placement(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    /// Number of arenas built so far (one per grid shape seen).
    pub fn arenas(&self) -> usize {
        self.arenas.len()
    }

    /// Heap bytes held by the arenas built so far.
    pub fn heap_bytes(&self) -> usize {
        self.arenas.iter().map(|(_, e)| e.heap_bytes()).sum()
    }

    fn arena(&mut self, shape: BoxShape) -> &mut E {
        let index = match self.arenas.iter().position(|(s, _)| *s == shape) {
            Some(i) => i,
            None => {
                let arena = E::try_new(&shape.exact_cover())
                    .unwrap_or_else(|e| panic!("{shape:?} exact cover: {e}"));
                self.arenas.push((shape, arena));
                self.arenas.len() - 1
            }
        };
        &mut self.arenas[index].1
    }
}

impl<E: Engine + Send> Solver<Grid> for CoverSolver<E> {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        let shape = puzzle.shape();
        let options = SearchOptions {
            limit,
            budget,
            choice: self.choice,
        };
        self.clue_rows.clear();
        for (cell, &symbol) in puzzle.cells().iter().enumerate() {
            if symbol != 0 {
                self.clue_rows.push(shape.cover_row(cell, symbol));
            }
        }
        let rows = std::mem::take(&mut self.clue_rows);
        let placement = self.placement;
        let arena = self.arena(shape);
        // Clues that clash leave the arena with no solution.
        match placement {
            Placement::Relink => {
                arena.select_all(&rows);
            }
            Placement::Undo => {
                arena.reset();
                arena.select_rows(&rows);
            }
        }
        let mut first = true;
        // The next puzzle's placement starts over (`select_all`) or undoes
        // what this search left (`reset`), so it need not undo it itself.
        let stats = arena.search_deferred(options, |rows| {
            if std::mem::take(&mut first) {
                solution.reset(shape);
                let cells = solution.cells_mut();
                for &row in rows {
                    let (cell, symbol) = shape.placement(row);
                    cells[cell] = symbol;
                }
            }
            ControlFlow::Continue(())
        });
        self.clue_rows = rows;
        Outcome::from(stats)
    }
}
