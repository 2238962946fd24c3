//! Text formats for grids: one-line, pretty multi-line, numeric.
//! (To be completed: see the module's public items.)

use super::{BoxShape, Grid};

/// Symbols used for cell values in one-line and grid formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Alphabet {
    /// `1-9`, then `A-Z`, then `a-z` (sides up to 61); blanks `.` or `0`.
    #[default]
    Standard,
    /// `0-9` then `A-Z` for values 1.. (so `0` is a symbol, blank is `.`),
    /// as many 16x16 files write `0-9A-F`.
    ZeroBased,
}

/// Output formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Format {
    /// `n*n` symbols on one line, `.` for blank.
    #[default]
    Line,
    /// Rows on separate lines with box separators.
    Grid,
    /// A shape line, then `n` lines of `n` numbers, `0` for blank.
    Numeric,
}

/// Options for parsing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Symbol alphabet.
    pub alphabet: Alphabet,
    /// Box shape when the side alone does not fix it (default: the most
    /// square factorisation, [`BoxShape::for_side`]).
    pub shape: Option<BoxShape>,
}

/// A parse error with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct GridError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (character position), 0 for the whole line.
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

/// Parses one puzzle line into `grid`, reusing its buffer.
pub fn parse_line_into(
    _line: &[u8],
    _options: ParseOptions,
    _grid: &mut Grid,
) -> Result<(), GridError> {
    todo!()
}

/// Iterator over the puzzles of a text.
pub struct Puzzles<'a> {
    _text: &'a str,
}
