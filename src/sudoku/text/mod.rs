//! Text formats for grids: one-line, pretty multi-line, numeric.
//!
//! # Reading
//!
//! [`parse_line_into`] is the fast path for corpus files with one puzzle per
//! line. It accepts:
//!
//! * **symbols**: `n*n` symbols with no spaces between them. With the
//!   [`Alphabet::Standard`] alphabet the values `1..` are written `1-9`,
//!   then `A-Z` (10 to 35), then `a-z` (36 to 61): case matters; a blank is
//!   `.` or `0`. With [`Alphabet::ZeroBased`] the values `1..` are written
//!   `0-9` then `A-Z` (`a-z` are read as `A-Z`), as many 16x16 files write
//!   `0-9A-F`; a blank is `.` only.
//! * **numbers**: `n*n` decimal numbers separated by whitespace, `0` (or `.`)
//!   for a blank. Any line with whitespace between its characters is read
//!   this way; it is the only one-line format for sides above 61.
//!
//! The side is inferred from the number of cells (81 -> 9x9, 256 -> 16x16)
//! and the box shape from the side ([`BoxShape::for_side`]) unless
//! [`ParseOptions::shape`] fixes it. Surrounding whitespace and a trailing
//! `\r` are ignored.
//!
//! [`Puzzles`] reads a whole text in any of the formats, one puzzle after the
//! other: one-line puzzles, multi-line grids as people paste them, and
//! numeric blocks with a box-shape header.
//!
//! # Writing
//!
//! [`Grid::display`] (and [`write_grid`], [`write_grid_io`]) write a grid in
//! each [`Format`] without allocating:
//!
//! * [`Format::Line`]: `n*n` symbols, `.` for blank. For sides the alphabet
//!   cannot spell (above 61 for standard, 36 for zero-based), `n*n` numbers
//!   separated by single spaces, `0` for blank, which reads back the same.
//! * [`Format::Grid`]: one line per row, cells separated by spaces, `|`
//!   between boxes and `-+-` lines between bands of boxes; cells are numbers
//!   (right-aligned, `.` for blank) when the alphabet cannot spell the side.
//! * [`Format::Numeric`]: a first line with the box shape (`3` for 3x3
//!   boxes, `2x3` otherwise), then `n` lines of `n` numbers, `0` for blank.
//!
//! ```
//! use dlxbench::sudoku::{parse_line_into, Alphabet, Format, Grid, BoxShape, ParseOptions};
//!
//! let mut grid = Grid::empty(BoxShape::NINE);
//! parse_line_into(b"1.3.......2.....4.", ParseOptions::default(), &mut grid)
//!     .expect_err("18 symbols is no grid");
//! parse_line_into(b"12.4\r\n", ParseOptions::default(), &mut grid)
//!     .expect_err("4 symbols is no grid either");
//! parse_line_into(b"1..4..2..3..4..1", ParseOptions::default(), &mut grid).unwrap();
//! assert_eq!(grid.side(), 4);
//! assert_eq!(grid.display(Format::Line, Alphabet::Standard).to_string(), "1..4..2..3..4..1");
//! assert_eq!(
//!     grid.display(Format::Grid, Alphabet::Standard).to_string(),
//!     "1 . | . 4\n. . | 2 .\n----+----\n. 3 | . .\n4 . | . 1"
//! );
//! ```

mod parse;
mod read;
mod write;

use std::fmt;

use super::{BoxShape, Grid};
use crate::notation::{Alphabet, Format};

pub use parse::{parse_line_into, ParseOptions};
pub use read::Puzzles;
pub(crate) use read::{is_comment, too_long};
pub use write::{write_grid, write_grid_io, Formatted};

/// A parse error with its 1-based line and column.
///
/// [`parse_line_into`] knows nothing of line numbers and leaves `line` at 0;
/// callers attach it with [`GridError::at_line`]. [`Puzzles`] fills both.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct GridError {
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column (character position), 0 for the whole line.
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

impl GridError {
    fn new(column: usize, message: impl Into<String>) -> Self {
        GridError {
            line: 0,
            column,
            message: message.into(),
        }
    }

    /// The same error, placed on 1-based line `line`.
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }
}

impl fmt::Display for GridError {
    /// `line 3, column 7: message`; the parts that are 0 (unknown) are left
    /// out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, 0) => f.write_str(&self.message),
            (0, c) => write!(f, "column {c}: {}", self.message),
            (l, 0) => write!(f, "line {l}: {}", self.message),
            (l, c) => write!(f, "line {l}, column {c}: {}", self.message),
        }
    }
}

#[cfg(test)]
mod tests;
