//! The Sudoku kind: grids of every size from 4x4 to 128x128, text formats,
//! a rule checker, the mapping of a grid to an exact-cover problem, and
//! Sudoku's solvers, generator and rater.
//!
//! A grid of side `n = r * c` is divided into boxes of `r` rows by `c`
//! columns ([`BoxShape`]). Cells hold `0` for a blank or a symbol `1..=n`.
//!
//! ```
//! use dlxbench::sudoku::{BoxShape, Grid};
//!
//! let shape = BoxShape::new(2, 3).unwrap(); // 6x6, boxes 2 rows by 3 columns
//! assert_eq!(shape.side(), 6);
//! let mut grid = Grid::empty(shape);
//! grid.set(0, 5, 4);
//! assert_eq!(grid.get(0, 5), 4);
//! assert_eq!(shape.box_of(3, 4), 3);
//! assert_eq!(grid.clues(), 1);
//! ```
//!
//! # Solvers, generator and rater
//!
//! [`solvers`] holds the built-in solvers behind
//! [`crate::solvers::Solver`]`<Grid>` (`dlx`, `heuristic`, `singles`,
//! `locked`, `naive`); [`generate`] makes seeded puzzles with one solution
//! (minimal, few-clue and difficulty targets), verified by a second
//! solver; [`rate`] rates puzzles by the work the solvers need and sorts
//! them into difficulty classes.

mod check;
mod cover;
pub mod fill;
pub mod generate;
mod puzzle;
pub mod rate;
pub mod solvers;
mod stream;
mod symmetry;
mod text;

pub use crate::notation::{Alphabet, Format};
pub use check::{check, is_solution_of, Unit, Verdict};
pub use fill::{random_full_grid, Filler};
pub use stream::{PuzzleReader, READER_WINDOW};
pub use symmetry::symmetry_image;
pub use text::{
    parse_line_into, write_grid, write_grid_io, Formatted, GridError, ParseOptions, Puzzles,
};

/// The largest supported side: cell values are `u8` and the bitmask solver
/// uses `u128` candidate sets.
pub const MAX_SIDE: usize = 128;

/// [`BoxShape::for_side`] for every side up to [`MAX_SIDE`]: the most square
/// factorisation `r x c` with `2 <= r <= c`, computed at compile time.
const SHAPE_FOR_SIDE: [Option<BoxShape>; MAX_SIDE + 1] = {
    let mut table = [None; MAX_SIDE + 1];
    let mut side = 4;
    while side <= MAX_SIDE {
        let mut r = 2;
        while r * r <= side {
            if side % r == 0 {
                table[side] = Some(BoxShape {
                    rows: r as u8,
                    cols: (side / r) as u8,
                });
            }
            r += 1;
        }
        side += 1;
    }
    table
};

/// The shape of a box: `rows` by `cols` cells, so the grid's side is
/// `rows * cols`. A 9x9 Sudoku has 3x3 boxes, a 6x6 one 2x3, a 12x12 one 3x4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoxShape {
    rows: u8,
    cols: u8,
}

/// Errors constructing a [`BoxShape`] or a [`Grid`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A box less than 2 rows or 2 columns wide (a 1-wide box would make
    /// boxes repeat rows or columns).
    #[error("a {rows}x{cols} box: box rows and columns must each be at least 2")]
    NarrowBox {
        /// Box rows asked for.
        rows: usize,
        /// Box columns asked for.
        cols: usize,
    },
    /// The box dimensions give a side above [`MAX_SIDE`].
    #[error(
        "a {rows}x{cols} box gives a side of {side}, above the largest supported side {max}",
        side = rows.saturating_mul(*cols),
        max = MAX_SIDE
    )]
    BadBox {
        /// Box rows asked for.
        rows: usize,
        /// Box columns asked for.
        cols: usize,
    },
    /// A random fill of a grid larger than [`fill::MAX_FILL_SIDE`].
    #[error("the random fill supports sides up to {max}, not {side}", max = fill::MAX_FILL_SIDE)]
    TooLarge {
        /// The side asked for.
        side: usize,
    },
    /// No box shape fits the side (a prime side, for instance).
    #[error("no box shape fits a side of {side}: the side must be r*c with r, c >= 2")]
    NoShapeForSide {
        /// The side asked for.
        side: usize,
    },
    /// Cells do not match the shape.
    #[error("expected {expected} cells for a {side}x{side} grid, found {found}")]
    CellCount {
        /// Cells a grid of this shape has.
        expected: usize,
        /// Cells given.
        found: usize,
        /// The side.
        side: usize,
    },
    /// A cell value above the side.
    #[error("cell {cell} holds {value}, but a {side}x{side} grid uses symbols 1..={side}")]
    ValueOutOfRange {
        /// Index of the cell in reading order.
        cell: usize,
        /// Its value.
        value: u8,
        /// The side.
        side: usize,
    },
}

impl BoxShape {
    /// A box of `rows` by `cols` cells; both at least 2 (a 1-wide box would
    /// make boxes repeat rows or columns), side at most [`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Self, ShapeError> {
        if rows < 2 || cols < 2 {
            return Err(ShapeError::NarrowBox { rows, cols });
        }
        if rows.saturating_mul(cols) > MAX_SIDE {
            return Err(ShapeError::BadBox { rows, cols });
        }
        Ok(BoxShape {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// The usual shape for a side: the most square factorisation `r x c`
    /// with `r <= c` (9 -> 3x3, 6 -> 2x3, 12 -> 3x4, 10 -> 2x5).
    pub fn for_side(side: usize) -> Result<Self, ShapeError> {
        // A table: the parser asks for every puzzle.
        match SHAPE_FOR_SIDE.get(side) {
            Some(&Some(shape)) => Ok(shape),
            _ => Err(ShapeError::NoShapeForSide { side }),
        }
    }

    /// The standard 9x9 shape.
    pub const NINE: BoxShape = BoxShape { rows: 3, cols: 3 };

    /// Rows of cells in a box.
    pub fn box_rows(self) -> usize {
        self.rows as usize
    }

    /// Columns of cells in a box.
    pub fn box_cols(self) -> usize {
        self.cols as usize
    }

    /// The side `n`: rows, columns, boxes and symbols of the grid.
    pub fn side(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// Number of cells, `n * n`.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// Index of the box holding cell (`row`, `col`), boxes in reading order.
    #[inline]
    pub fn box_of(self, row: usize, col: usize) -> usize {
        let (r, c) = (self.rows as usize, self.cols as usize);
        // There are `c` bands of boxes (each `r` rows tall) and `r` stacks.
        (row / r) * r + col / c
    }
}

impl std::fmt::Display for BoxShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl std::str::FromStr for BoxShape {
    type Err = String;
    /// `RxC` (box rows by box columns), e.g. `3x3`, `2x3`, `4x4`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (r, c) = s
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("expected a box shape like 3x3, found `{s}`"))?;
        let parse = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("expected a box shape like 3x3, found `{s}`"))
        };
        BoxShape::new(parse(r)?, parse(c)?).map_err(|e| e.to_string())
    }
}

/// A Sudoku grid: a [`BoxShape`] and `n * n` cells in reading order, `0` for
/// blank, `1..=n` for a symbol. The rules are not enforced here; see
/// [`check`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: BoxShape,
    cells: Vec<u8>,
}

impl Grid {
    /// An all-blank grid.
    pub fn empty(shape: BoxShape) -> Self {
        Grid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// A grid from cells in reading order.
    pub fn from_cells(shape: BoxShape, cells: Vec<u8>) -> Result<Self, ShapeError> {
        let side = shape.side();
        if cells.len() != shape.cells() {
            return Err(ShapeError::CellCount {
                expected: shape.cells(),
                found: cells.len(),
                side,
            });
        }
        if let Some((cell, &value)) = cells.iter().enumerate().find(|(_, &v)| v as usize > side) {
            return Err(ShapeError::ValueOutOfRange { cell, value, side });
        }
        Ok(Grid { shape, cells })
    }

    /// Makes this grid a blank grid of `shape`, reusing its buffer.
    pub fn reset(&mut self, shape: BoxShape) {
        self.shape = shape;
        self.cells.clear();
        self.cells.resize(shape.cells(), 0);
    }

    /// Makes this grid a copy of `other`, reusing its buffer (no allocation
    /// when the sizes match).
    pub fn copy_from(&mut self, other: &Grid) {
        self.shape = other.shape;
        self.cells.clear();
        self.cells.extend_from_slice(&other.cells);
    }

    /// The box shape.
    pub fn shape(&self) -> BoxShape {
        self.shape
    }

    /// The side `n`.
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The cells in reading order.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cells, mutable. Values must stay within `0..=n`.
    pub fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// The value at (`row`, `col`), `0` for blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.side() + col]
    }

    /// Sets (`row`, `col`) to `value` (`0` to blank it).
    ///
    /// # Panics
    /// If the value is above the side.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        assert!(value as usize <= self.side(), "value {value} out of range");
        let n = self.side();
        self.cells[row * n + col] = value;
    }

    /// Number of filled cells.
    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is blank.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// A valid full grid of any shape, by the classic shifting pattern
    /// (row `i` of band `b` is the first row shifted by `i x cols + b`):
    /// where tests and examples start from.
    ///
    /// ```
    /// use dlxbench::sudoku::{check, BoxShape, Grid, Verdict};
    /// let grid = Grid::shifted_pattern(BoxShape::new(2, 3).unwrap());
    /// assert_eq!(check(&grid), Verdict::Complete);
    /// ```
    pub fn shifted_pattern(shape: BoxShape) -> Grid {
        let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.side());
        let mut grid = Grid::empty(shape);
        for row in 0..n {
            for col in 0..n {
                grid.set(row, col, ((c * (row % r) + row / r + col) % n) as u8 + 1);
            }
        }
        grid
    }
}

#[cfg(test)]
mod tests;
