//! Hanidoku: the hexagonal puzzle, its rules, text format, exact-cover
//! encoding, two solvers and a generator.
//!
//! # The puzzle
//!
//! The board is a hexagon of side 5: 61 cells in rows of 5, 6, 7, 8, 9, 8,
//! 7, 6 and 5 cells. Cells lie on 27 straight **lines**: the 9 rows and the
//! 9 lines of each of the two diagonal directions ([`Direction`]). A line of
//! `L` cells must hold `L` different digits from 1-9 that are consecutive:
//! a line of 5 may hold 3 4 5 6 7 in any order but not 1 2 3 4 6, and the
//! middle lines, of 9 cells, hold all of 1-9.
//!
//! Cells are numbered 0-60 in reading order (rows top to bottom, left to
//! right). Internally a cell has cube coordinates `(x, y, z)` with
//! `x + y + z = 0`, each in `-4..=4`: `z` is the row (`z = row - 4`), and a
//! line is the set of cells sharing one coordinate (`z`: a row, `x`: a
//! down-right diagonal, `y`: a down-left one), so a line through the
//! coordinate value `c` has `9 - |c|` cells.
//!
//! The one-line text format has 61 symbols, `1-9` for a digit and `.` (or
//! `0`) for a blank, rows top to bottom ([`parse_line`], [`Board`]'s
//! `Display`); [`Board::hexagon`] draws the board as a hexagon.
//!
//! ```
//! use dlxbench::hanidoku::{self, Board, Verdict};
//!
//! // The first puzzle of the committed corpus (`DEFAULT_CORPUS`).
//! let puzzle: Board =
//!     ".6..........2..7...........3...........8.5...................".parse().unwrap();
//! assert_eq!(puzzle.clues(), 6);
//! let mut solver = hanidoku::solvers::dlx::DlxSolver::new();
//! let mut solution = Board::EMPTY;
//! use dlxbench::solvers::{Budget, Solver};
//! let outcome = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
//! assert_eq!(outcome.solutions, 1);
//! assert_eq!(hanidoku::check(&solution), Verdict::Complete);
//! assert!(hanidoku::is_solution_of(&solution, &puzzle));
//! ```
//!
//! # The exact-cover encoding
//!
//! [`exact_cover`] builds the matrix once; its row `9 * cell + digit - 1`
//! ([`cover_row`]) places `digit` in `cell`. The consecutiveness rule is not
//! a plain "each digit once" constraint, so it is split in three parts.
//!
//! For a line of length `L`, the valid digit sets are the windows
//! `a..=a+L-1` for `a` in `1..=10-L`. Every window contains
//! `10-L..=L` (the first window ends at `L`, the last starts at `10-L`), and
//! no other digit is in all of them, so these **compulsory** digits are in
//! every solved line; the remaining digits, `1..=9-L` and `L+1..=9`, are
//! **optional**. Every line has `L >= 5`, so every line has at least one
//! compulsory digit (5 for `L = 5`; all nine for `L = 9`).
//!
//! Columns ([`CoverColumn`]):
//!
//! * **cell** (primary, 61): every cell holds exactly one digit;
//! * **line-digit, compulsory** (primary, 123): each compulsory digit of
//!   each line is placed exactly once in the line;
//! * **line-digit, optional** (secondary, 120): each optional digit of each
//!   line is placed at most once in the line;
//! * **excluded pair** (secondary, 120): for each line and each pair of
//!   digits `d < e` with `e - d >= L`, at most one of them is in the line.
//!   The column is covered by every row that places `d` *or* `e` in a cell
//!   of the line. Such a pair is always of two optional digits (a
//!   compulsory `d >= 10-L` would need `e >= 10`).
//!
//! A row placing `d` in a cell covers the cell's column, and, for each of
//! the cell's three lines, the line-digit column of `d` and the pair columns
//! of `d` with every `e` that `|d - e| >= L` excludes. That is 549 rows and
//! 184 primary + 240 secondary columns ([`COVER_PRIMARY`],
//! [`COVER_SECONDARY`]).
//!
//! **Why this is exactly the rule.** Take a set of rows that is an exact
//! cover (every primary column once, no secondary column twice). Each cell
//! gets one digit (cell columns). In a line of length `L`, no digit repeats
//! (its line-digit column, primary or secondary, is covered at most once),
//! so the line holds `L` distinct digits; and no two of them differ by `L`
//! or more (their pair column would be covered twice). `L` distinct integers
//! whose largest and smallest differ by at most `L - 1` lie in an interval
//! of `L` integers and so fill it: the line is consecutive. Conversely, in a
//! solved board each line holds a window `a..=a+L-1`: every cell once, every
//! digit at most once, every compulsory digit exactly once (the window
//! contains them), and any two digits differ by at most `L - 1`, so no pair
//! column is covered twice. Solutions of the puzzle and exact covers
//! containing the clues' rows are therefore the same.
//!
//! The compulsory columns are implied by the other constraints (distinct
//! and close enough already forces a window, which contains them), so
//! making them primary changes no answer; it gives the search more to work
//! with: "where in this row does the 5 go" is a column it can branch on,
//! and a line with no place left for a compulsory digit fails at once.
//!
//! # Solvers and generator
//!
//! [`solvers`] holds two independent solvers behind
//! [`crate::solvers::Solver`]`<Board>`: `dlx` (the encoding above on a
//! reused [`crate::exact_cover::Dlx`] arena, clues as preselected rows) and
//! `backtrack` (bitmask backtracking that shares no code with the engine).
//! [`generate`] makes minimal unique puzzles, checked by both.

mod check;
mod cover;
pub mod generate;
mod puzzle;
pub mod solvers;
mod symmetry;
mod text;

pub use check::{check, is_solution_of, Reason, Verdict};
pub use cover::{
    cover_column, cover_row, exact_cover, placement, CoverColumn, COVER_PRIMARY, COVER_ROWS,
    COVER_SECONDARY,
};
pub use symmetry::{symmetry_image, Symmetry, SYMMETRIES};
pub use text::{parse_line, parse_line_into, Hexagon, ParseError, ParseErrorKind, Puzzles};

/// Number of cells.
pub const CELLS: usize = 61;
/// Number of lines: 9 rows and 9 lines in each diagonal direction.
pub const LINES: usize = 27;
/// Number of rows, and of lines in each direction.
pub const ROWS: usize = 9;
/// Cells in each row, top to bottom.
pub const ROW_LENGTHS: [usize; ROWS] = [5, 6, 7, 8, 9, 8, 7, 6, 5];

/// A committed corpus of generated Hanidoku puzzles, embedded in the binary:
/// what `dlxbench bench --kind hanidoku` runs when no corpus is given and
/// none was fetched. Its first line is the command that made it.
pub const DEFAULT_CORPUS: &[u8] =
    include_bytes!("../../datasets/generated/hanidoku/gen_hanidoku_100.txt");
/// The name of [`DEFAULT_CORPUS`] in reports.
pub const DEFAULT_CORPUS_NAME: &str = "gen_hanidoku_100";

/// The three directions of lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Rows, top to bottom; cells left to right.
    Row,
    /// Diagonals running from top left to bottom right, numbered left to
    /// right; cells top to bottom.
    DownRight,
    /// Diagonals running from top right to bottom left, numbered left to
    /// right; cells top to bottom.
    DownLeft,
}

/// A line of the board: a row or a diagonal. Lines are numbered 0-26: rows
/// 0-8, down-right diagonals 9-17, down-left diagonals 18-26.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Line(u8);

/// The board's geometry, computed at compile time.
struct Geometry {
    /// Cube coordinates `[x, y, z]` of every cell.
    coords: [[i8; 3]; CELLS],
    /// The three lines through every cell: its row, down-right and
    /// down-left diagonal.
    lines_of: [[u8; 3]; CELLS],
    /// The cells of every line (the first `len` entries), in order.
    cells: [[u8; 9]; LINES],
    /// The length of every line.
    len: [u8; LINES],
}

const fn build_geometry() -> Geometry {
    let mut g = Geometry {
        coords: [[0; 3]; CELLS],
        lines_of: [[0; 3]; CELLS],
        cells: [[0; 9]; LINES],
        len: [0; LINES],
    };
    let mut cell = 0;
    let mut row = 0;
    while row < ROWS {
        let z = row as i8 - 4;
        let mut x = if z < 0 { -4 - z } else { -4 };
        let hi = if z > 0 { 4 - z } else { 4 };
        while x <= hi {
            let y = -x - z;
            g.coords[cell] = [x, y, z];
            let ids = [row as u8, (9 + 4 + x) as u8, (18 + 4 - y) as u8];
            g.lines_of[cell] = ids;
            let mut k = 0;
            while k < 3 {
                let id = ids[k] as usize;
                g.cells[id][g.len[id] as usize] = cell as u8;
                g.len[id] += 1;
                k += 1;
            }
            cell += 1;
            x += 1;
        }
        row += 1;
    }
    g
}

static GEOMETRY: Geometry = build_geometry();

/// First cell of each row, and one past the last cell.
const ROW_STARTS: [usize; ROWS + 1] = [0, 5, 11, 18, 26, 35, 43, 50, 56, 61];

impl Line {
    /// The line numbered `id` (0-26), if any.
    pub fn from_id(id: usize) -> Option<Line> {
        (id < LINES).then_some(Line(id as u8))
    }

    /// The line of `direction` numbered `index` (0-8), if any.
    pub fn new(direction: Direction, index: usize) -> Option<Line> {
        let base = match direction {
            Direction::Row => 0,
            Direction::DownRight => 9,
            Direction::DownLeft => 18,
        };
        (index < ROWS).then_some(Line((base + index) as u8))
    }

    /// The line's number, 0-26.
    pub fn id(self) -> usize {
        usize::from(self.0)
    }

    /// Its direction.
    pub fn direction(self) -> Direction {
        match self.0 {
            0..=8 => Direction::Row,
            9..=17 => Direction::DownRight,
            _ => Direction::DownLeft,
        }
    }

    /// Its number within its direction, 0-8.
    pub fn index(self) -> usize {
        usize::from(self.0) % ROWS
    }

    /// Its number of cells, 5-9.
    pub fn length(self) -> usize {
        usize::from(GEOMETRY.len[self.id()])
    }

    /// Its cells: a row left to right, a diagonal top to bottom.
    pub fn cells(self) -> &'static [u8] {
        &GEOMETRY.cells[self.id()][..self.length()]
    }

    /// The digits every solved line of this length holds, `10-L..=L`.
    pub fn compulsory(self) -> std::ops::RangeInclusive<u8> {
        let len = self.length() as u8;
        10 - len..=len
    }
}

impl std::fmt::Display for Line {
    /// `row 3`, `down-right diagonal 1`, `down-left diagonal 9` (1-based).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.direction() {
            Direction::Row => "row",
            Direction::DownRight => "down-right diagonal",
            Direction::DownLeft => "down-left diagonal",
        };
        write!(f, "{kind} {}", self.index() + 1)
    }
}

/// Every line, by number.
pub fn lines() -> impl ExactSizeIterator<Item = Line> {
    (0..LINES as u8).map(Line)
}

/// The three lines through `cell`: its row, down-right and down-left
/// diagonal.
///
/// # Panics
/// If `cell >= CELLS`.
pub fn lines_of(cell: usize) -> [Line; 3] {
    GEOMETRY.lines_of[cell].map(Line)
}

/// The cell at `position` (0-based) of row `row`, if the row has it.
pub fn cell_at(row: usize, position: usize) -> Option<usize> {
    (row < ROWS && position < ROW_LENGTHS[row]).then(|| ROW_STARTS[row] + position)
}

/// The row of `cell` and its position in the row, both 0-based.
///
/// # Panics
/// If `cell >= CELLS`.
pub fn row_and_position(cell: usize) -> (usize, usize) {
    assert!(cell < CELLS, "cell {cell} out of range");
    let row = ROW_STARTS.partition_point(|&s| s <= cell) - 1;
    (row, cell - ROW_STARTS[row])
}

/// The cube coordinates `[x, y, z]` of `cell` (`x + y + z = 0`, each in
/// `-4..=4`; `z` is the row minus 4).
///
/// # Panics
/// If `cell >= CELLS`.
pub fn coords(cell: usize) -> [i8; 3] {
    GEOMETRY.coords[cell]
}

/// The cell with cube coordinates `[x, y, z]`, if there is one.
pub fn cell_at_coords([x, y, z]: [i8; 3]) -> Option<usize> {
    if x + y + z != 0 || [x, y, z].iter().any(|c| c.abs() > 4) {
        return None;
    }
    let row = (z + 4) as usize;
    let first_x = if z < 0 { -4 - z } else { -4 };
    cell_at(row, (x - first_x) as usize)
}

/// Errors building a [`Board`] from cell values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not 61 cells.
    #[error("expected {CELLS} cells for a Hanidoku board, found {found}")]
    CellCount {
        /// Cells given.
        found: usize,
    },
    /// A value above 9.
    #[error("cell {cell} holds {value}, but Hanidoku uses digits 1-9 (0 for blank)")]
    ValueOutOfRange {
        /// Index of the cell in reading order.
        cell: usize,
        /// Its value.
        value: u8,
    },
}

/// A Hanidoku board: 61 cells in reading order, `0` for a blank, `1..=9` for
/// a digit. The rules are not enforced here; see [`check`]. A board is a
/// plain array, so copying one never allocates.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; CELLS],
}

impl Default for Board {
    fn default() -> Self {
        Board::EMPTY
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({self})")
    }
}

impl Board {
    /// The all-blank board.
    pub const EMPTY: Board = Board { cells: [0; CELLS] };

    /// A board from 61 values in reading order (`0` blank).
    pub fn from_cells(cells: &[u8]) -> Result<Board, BoardError> {
        let cells: [u8; CELLS] = cells
            .try_into()
            .map_err(|_| BoardError::CellCount { found: cells.len() })?;
        if let Some((cell, &value)) = cells.iter().enumerate().find(|(_, &v)| v > 9) {
            return Err(BoardError::ValueOutOfRange { cell, value });
        }
        Ok(Board { cells })
    }

    /// The cells in reading order.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of `cell`, `0` for blank.
    ///
    /// # Panics
    /// If `cell >= CELLS`.
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets `cell` to `value` (`0` to blank it).
    ///
    /// # Panics
    /// If `cell >= CELLS` or `value > 9`.
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value <= 9, "value {value} out of range");
        self.cells[cell] = value;
    }

    /// Number of filled cells.
    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is blank.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The board drawn as a hexagon: one text line per row, indented so the
    /// cells of neighbouring rows interleave, `.` for a blank.
    pub fn hexagon(&self) -> Hexagon<'_> {
        Hexagon(self)
    }
}

#[cfg(test)]
mod tests;
