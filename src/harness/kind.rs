//! Puzzle kinds: what the harness needs to know about Sudoku and Hanidoku
//! to parse, solve, validate and permute them.

use super::permute::{symmetry_image, SplitMix};
use crate::hanidoku::{self, Board};
use crate::solvers::{Solver, SolverInfo};
use crate::sudoku::{self, BoxShape, Grid, ParseOptions};

/// The kind of puzzle a run solves. A corpus holds one kind; Hanidoku runs
/// are asked for explicitly (`--kind hanidoku`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum PuzzleKind {
    /// Sudoku of any size ([`Grid`]).
    #[default]
    Sudoku,
    /// Hanidoku ([`Board`]).
    Hanidoku,
}

impl PuzzleKind {
    /// Lower-case name used on the command line and in files.
    pub fn as_str(self) -> &'static str {
        match self {
            PuzzleKind::Sudoku => "sudoku",
            PuzzleKind::Hanidoku => "hanidoku",
        }
    }
}

impl std::fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PuzzleKind {
    type Err = String;
    /// `sudoku` or `hanidoku` (any case).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "sudoku" => Ok(PuzzleKind::Sudoku),
            "hanidoku" => Ok(PuzzleKind::Hanidoku),
            _ => Err(format!("expected sudoku or hanidoku, found `{s}`")),
        }
    }
}

/// How to make a solver of a run, by puzzle kind.
#[derive(Clone, Copy)]
pub enum MakeSolver {
    /// A Sudoku solver.
    Sudoku(fn() -> Box<dyn Solver>),
    /// A Hanidoku solver.
    Hanidoku(fn() -> Box<dyn Solver<Board>>),
}

/// A solver of a run: its name (as the reports show it) and constructor.
#[derive(Clone, Copy)]
pub struct RunSolver {
    /// Name used in reports and result files.
    pub name: &'static str,
    /// Constructor.
    pub make: MakeSolver,
}

impl RunSolver {
    /// The kind of puzzle the solver solves.
    pub fn kind(&self) -> PuzzleKind {
        match self.make {
            MakeSolver::Sudoku(_) => PuzzleKind::Sudoku,
            MakeSolver::Hanidoku(_) => PuzzleKind::Hanidoku,
        }
    }
}

impl std::fmt::Debug for RunSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunSolver")
            .field("name", &self.name)
            .field("kind", &self.kind())
            .finish()
    }
}

impl From<SolverInfo> for RunSolver {
    fn from(info: SolverInfo) -> Self {
        RunSolver {
            name: info.name,
            make: MakeSolver::Sudoku(info.make),
        }
    }
}

impl From<SolverInfo<Board>> for RunSolver {
    fn from(info: SolverInfo<Board>) -> Self {
        RunSolver {
            name: info.name,
            make: MakeSolver::Hanidoku(info.make),
        }
    }
}

/// A kind of puzzle the harness can run: [`Grid`] (Sudoku) and [`Board`]
/// (Hanidoku). The worker loop is generic over it, so each kind runs with
/// its own parser, validation and symmetries and no dispatch per solve.
pub trait Puzzle: Clone + Send + 'static {
    /// The kind.
    const KIND: PuzzleKind;
    /// What fixes the size of a parsed puzzle (the box shape of a Sudoku).
    type Shape: Copy + Send;
    /// A parse error.
    type Error: std::fmt::Display;

    /// A blank puzzle to parse into.
    fn blank() -> Self;
    /// Parses one corpus line into `into` (reusing its buffer).
    fn parse_line(text: &[u8], options: ParseOptions, into: &mut Self) -> Result<(), Self::Error>;
    /// The message of `error` placed on 1-based line `line`.
    fn message(error: Self::Error, line: u64) -> String;
    /// The size of this puzzle.
    fn shape(&self) -> Self::Shape;
    /// The cells in reading order (`0` blank).
    fn cells(&self) -> &[u8];
    /// Makes this a puzzle of `shape` with `cells` (as [`Puzzle::cells`]
    /// gave them), reusing its buffer.
    fn load(&mut self, shape: Self::Shape, cells: &[u8]);
    /// Whether `solution` solves `puzzle` (a rule check, outside any timed
    /// region).
    fn is_solution_of(solution: &Self, puzzle: &Self) -> bool;
    /// Writes a random symmetry image of `src` (same number of solutions)
    /// into `dst`.
    fn symmetry_image(src: &Self, dst: &mut Self, rng: &mut SplitMix);
    /// The solver of `solver`, if it solves this kind.
    fn make(solver: &RunSolver) -> Option<Box<dyn Solver<Self>>>;
    /// The run's view of a registry entry.
    fn run_solver(info: SolverInfo<Self>) -> RunSolver;
}

impl Puzzle for Grid {
    const KIND: PuzzleKind = PuzzleKind::Sudoku;
    type Shape = BoxShape;
    type Error = sudoku::GridError;

    fn blank() -> Self {
        Grid::empty(BoxShape::NINE)
    }
    #[inline]
    fn parse_line(text: &[u8], options: ParseOptions, into: &mut Self) -> Result<(), Self::Error> {
        sudoku::parse_line_into(text, options, into)
    }
    fn message(error: Self::Error, line: u64) -> String {
        error.at_line(line as usize).to_string()
    }
    fn shape(&self) -> BoxShape {
        Grid::shape(self)
    }
    fn cells(&self) -> &[u8] {
        Grid::cells(self)
    }
    fn load(&mut self, shape: BoxShape, cells: &[u8]) {
        self.reset(shape);
        self.cells_mut().copy_from_slice(cells);
    }
    fn is_solution_of(solution: &Self, puzzle: &Self) -> bool {
        sudoku::is_solution_of(solution, puzzle)
    }
    fn symmetry_image(src: &Self, dst: &mut Self, rng: &mut SplitMix) {
        symmetry_image(src, dst, rng);
    }
    fn make(solver: &RunSolver) -> Option<Box<dyn Solver<Self>>> {
        match solver.make {
            MakeSolver::Sudoku(make) => Some(make()),
            MakeSolver::Hanidoku(_) => None,
        }
    }
    fn run_solver(info: SolverInfo<Self>) -> RunSolver {
        info.into()
    }
}

impl Puzzle for Board {
    const KIND: PuzzleKind = PuzzleKind::Hanidoku;
    type Shape = ();
    type Error = hanidoku::ParseError;

    fn blank() -> Self {
        Board::EMPTY
    }
    #[inline]
    fn parse_line(text: &[u8], _: ParseOptions, into: &mut Self) -> Result<(), Self::Error> {
        hanidoku::parse_line_into(text, into)
    }
    fn message(error: Self::Error, line: u64) -> String {
        error.at_line(line as usize).to_string()
    }
    fn shape(&self) {}
    fn cells(&self) -> &[u8] {
        Board::cells(self)
    }
    fn load(&mut self, _: (), cells: &[u8]) {
        *self = Board::from_cells(cells).unwrap_or(Board::EMPTY);
    }
    fn is_solution_of(solution: &Self, puzzle: &Self) -> bool {
        hanidoku::is_solution_of(solution, puzzle)
    }
    fn symmetry_image(src: &Self, dst: &mut Self, rng: &mut SplitMix) {
        hanidoku::symmetry_image(src, dst, rng);
    }
    fn make(solver: &RunSolver) -> Option<Box<dyn Solver<Self>>> {
        match solver.make {
            MakeSolver::Hanidoku(make) => Some(make()),
            MakeSolver::Sudoku(_) => None,
        }
    }
    fn run_solver(info: SolverInfo<Self>) -> RunSolver {
        info.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_and_print() {
        for kind in [PuzzleKind::Sudoku, PuzzleKind::Hanidoku] {
            assert_eq!(kind.to_string().parse::<PuzzleKind>(), Ok(kind));
        }
        assert_eq!("HANIDOKU".parse::<PuzzleKind>(), Ok(PuzzleKind::Hanidoku));
        assert!("kakuro"
            .parse::<PuzzleKind>()
            .unwrap_err()
            .contains("expected sudoku or hanidoku"));
    }

    #[test]
    fn solvers_are_made_for_their_own_kind_only() {
        let sudoku: RunSolver = crate::solvers::REGISTRY[0].into();
        let hani: RunSolver = hanidoku::solvers::REGISTRY[1].into();
        assert_eq!(sudoku.kind(), PuzzleKind::Sudoku);
        assert_eq!(hani.kind(), PuzzleKind::Hanidoku);
        assert!(<Grid as Puzzle>::make(&sudoku).is_some());
        assert!(<Grid as Puzzle>::make(&hani).is_none());
        assert_eq!(<Board as Puzzle>::make(&hani).unwrap().name(), "backtrack");
        assert!(<Board as Puzzle>::make(&sudoku).is_none());
    }
}
