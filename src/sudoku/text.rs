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

use std::fmt;

use super::{BoxShape, Grid, MAX_SIDE};
use crate::notation::{Alphabet, Format, NOT_A_SYMBOL};

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

/// The 1-based character column of byte `offset` of `line` (error path only).
pub(crate) fn column_of(line: &[u8], offset: usize) -> usize {
    let offset = offset.min(line.len());
    // Count the bytes that start a UTF-8 character.
    line[..offset].iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1
}

/// The character starting at byte `offset`, for messages (error path only).
pub(crate) fn char_at(line: &[u8], offset: usize) -> String {
    let rest = &line[offset.min(line.len())..];
    let end = rest.len().min(4);
    let text = String::from_utf8_lossy(&rest[..end]);
    match text.chars().next() {
        Some(c) if c.is_control() => format!("{:?}", c),
        Some(c) => format!("'{c}'"),
        None => "the end of the line".to_string(),
    }
}

fn trim(line: &[u8]) -> (usize, usize) {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |p| p + 1);
    (start, end)
}

/// The side, at least 4, with a box shape, whose `n*n` is nearest `count`.
fn nearest_side(count: usize, max: usize) -> usize {
    (4..=max)
        .filter(|&n| BoxShape::for_side(n).is_ok())
        .min_by_key(|&n| (n * n).abs_diff(count))
        .unwrap_or(4)
}

/// What a one-line puzzle of `count` cells is: its shape, or the message.
/// `what` names the cells ("symbols", "numbers"), `allowed` the cell text.
pub(crate) fn shape_for_cells(
    count: usize,
    shape: Option<BoxShape>,
    max_side: usize,
    what: &str,
    allowed: &dyn Fn(usize) -> String,
) -> Result<BoxShape, String> {
    if let Some(shape) = shape {
        if shape.cells() == count {
            return Ok(shape);
        }
        let n = shape.side();
        return Err(format!(
            "expected {} {what} ({}) for a {n}x{n} grid with {shape} boxes, found {count}",
            shape.cells(),
            allowed(n)
        ));
    }
    let n = count.isqrt();
    if n * n == count && n >= 4 {
        if n > max_side && max_side < MAX_SIDE {
            return Err(format!(
                "found {count} {what}, a {n}x{n} grid, but one-line {what} spell sides up \
                 to {max_side} only: write {n}x{n} grids as whitespace-separated numbers"
            ));
        }
        if n > MAX_SIDE {
            return Err(format!(
                "found {count} {what}, a {n}x{n} grid: sides above {MAX_SIDE} are not supported"
            ));
        }
        return BoxShape::for_side(n).map_err(|_| {
            format!(
                "found {count} {what}, a {n}x{n} grid, but no box shape fits a side of {n} \
                 (the side must be r*c with r, c >= 2); give the box shape"
            )
        });
    }
    let n = nearest_side(count, max_side);
    Err(format!(
        "expected {} {what} ({}) for a {n}x{n} grid, found {count}",
        n * n,
        allowed(n)
    ))
}

/// Parses one puzzle line into `grid`, reusing its buffer.
///
/// The line is either `n*n` symbols without spaces or `n*n`
/// whitespace-separated decimal numbers (see the [module docs](self)).
/// Nothing is allocated when `grid` already has `n*n` cells; symbol lines
/// are read in a single pass with one table look-up and one comparison per
/// cell, and need not be valid UTF-8.
///
/// The function knows nothing of line numbers: errors carry `line: 0` and
/// the 1-based character column in `line` (0 when the whole line is at
/// fault); use [`GridError::at_line`] to place them. On error `grid` is left
/// unspecified.
pub fn parse_line_into(
    line: &[u8],
    options: ParseOptions,
    grid: &mut Grid,
) -> Result<(), GridError> {
    let (start, end) = trim(line);
    let body = &line[start..end];
    if body.is_empty() {
        return Err(GridError::new(0, "expected a puzzle, found an empty line"));
    }
    let alphabet = options.alphabet;
    let count = body.len();
    let shape = match options.shape {
        Some(s) if s.cells() == count => s,
        None if count == grid.cells().len()
            && BoxShape::for_side(grid.side()) == Ok(grid.shape()) =>
        {
            grid.shape()
        }
        _ => match shape_for_cells(
            count,
            options.shape,
            MAX_SIDE.min(alphabet.max_side()),
            "symbols",
            &|n| alphabet.describe(n),
        ) {
            Ok(shape) => shape,
            Err(message) => return not_symbols(line, start, end, options, grid, message),
        },
    };
    if grid.shape() != shape {
        grid.reset(shape);
    }
    let n = grid.side() as u8;
    let bad = if alphabet == Alphabet::Standard && n <= 9 {
        digits_into(body, n, grid.cells_mut())
    } else {
        let table = alphabet.table();
        // Branch-free: whitespace and unknown bytes map above every side.
        let mut bad = false;
        for (&b, cell) in body.iter().zip(grid.cells_mut()) {
            let v = table[b as usize];
            bad |= v > n;
            *cell = v;
        }
        bad
    };
    if bad {
        return not_symbols(line, start, end, options, grid, String::new());
    }
    Ok(())
}

/// [`parse_line_into`] for sides up to 9 in the standard alphabet (`1-9`,
/// `.` or `0` blank), the common case: arithmetic instead of a table
/// lookup, written so that the compiler turns it into vector code (16 or 32
/// bytes a step). Returns whether some byte was not a symbol of the side.
#[inline]
fn digits_into(body: &[u8], n: u8, cells: &mut [u8]) -> bool {
    let mut bad = false;
    for (&b, cell) in body.iter().zip(cells) {
        let d = b.wrapping_sub(b'0'); // '0' -> 0 (blank), '.' -> 254
        let dot = b == b'.';
        bad |= (d > n) & !dot;
        *cell = if dot { 0 } else { d };
    }
    bad
}

/// The slow path of [`parse_line_into`]: a line of numbers, or an error
/// (`count_error` when the symbol count was wrong, else a bad symbol).
#[cold]
fn not_symbols(
    line: &[u8],
    start: usize,
    end: usize,
    options: ParseOptions,
    grid: &mut Grid,
    count_error: String,
) -> Result<(), GridError> {
    let body = &line[start..end];
    let alphabet = options.alphabet;
    if body.iter().any(u8::is_ascii_whitespace) {
        return parse_numbers(line, start, end, options.shape, grid);
    }
    if count_error.is_empty() {
        let n = grid.side() as u8;
        let table = alphabet.table();
        let i = body
            .iter()
            .position(|&b| table[b as usize] > n)
            .expect("a bad symbol");
        return Err(symbol_error(
            line,
            start + i,
            table[body[i] as usize],
            n as usize,
            alphabet,
        ));
    }
    match body.iter().position(|b| !b.is_ascii()) {
        // Bytes are not characters here: name the culprit instead.
        Some(i) => {
            let chars = String::from_utf8_lossy(body).chars().count();
            let side = options
                .shape
                .map_or_else(|| nearest_side(chars, alphabet.max_side()), BoxShape::side);
            Err(symbol_error(line, start + i, NOT_A_SYMBOL, side, alphabet))
        }
        None => Err(GridError::new(0, count_error)),
    }
}

#[cold]
fn symbol_error(
    line: &[u8],
    offset: usize,
    value: u8,
    side: usize,
    alphabet: Alphabet,
) -> GridError {
    let column = column_of(line, offset);
    let found = char_at(line, offset);
    // Lower-case letters are values only in grids that use them: in a 9x9
    // grid `x` is just a wrong symbol, `A` a value too big.
    let above = if value == NOT_A_SYMBOL || (value > 35 && side <= 35) {
        String::new()
    } else {
        format!(" (value {value} is above the side {side})")
    };
    GridError::new(
        column,
        format!(
            "unexpected symbol {found}{above}: expected {}",
            alphabet.describe(side)
        ),
    )
}

/// Parses one whitespace-separated number (or `.`) starting at `offset`;
/// returns its value, capped at 1000, or the error.
pub(crate) fn number_at(line: &[u8], offset: usize, token: &[u8]) -> Result<u32, GridError> {
    if token == b"." {
        return Ok(0);
    }
    let mut value = 0u32;
    for (i, &b) in token.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err(GridError::new(
                column_of(line, offset + i),
                format!(
                    "unexpected symbol {} in a number: expected decimal digits (0 for blank)",
                    char_at(line, offset + i)
                ),
            ));
        }
        value = (value * 10 + (b - b'0') as u32).min(1000);
    }
    Ok(value)
}

/// Tokens separated by ASCII whitespace, with their byte offsets.
pub(crate) fn tokens(
    line: &[u8],
    start: usize,
    end: usize,
) -> impl Iterator<Item = (usize, &[u8])> {
    let mut pos = start;
    std::iter::from_fn(move || {
        while pos < end && line[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos >= end {
            return None;
        }
        let from = pos;
        while pos < end && !line[pos].is_ascii_whitespace() {
            pos += 1;
        }
        Some((from, &line[from..pos]))
    })
}

fn parse_numbers(
    line: &[u8],
    start: usize,
    end: usize,
    shape: Option<BoxShape>,
    grid: &mut Grid,
) -> Result<(), GridError> {
    let count = tokens(line, start, end).count();
    let shape = shape_for_cells(count, shape, MAX_SIDE, "numbers", &|n| {
        format!("0-{n}, 0 for blank")
    })
    .map_err(|m| GridError::new(0, m))?;
    if grid.shape() != shape || grid.cells().len() != shape.cells() {
        grid.reset(shape);
    }
    let n = shape.side();
    for ((offset, token), cell) in tokens(line, start, end).zip(grid.cells_mut()) {
        let v = number_at(line, offset, token)?;
        if v as usize > n {
            return Err(GridError::new(
                column_of(line, offset),
                format!("value {v} is above the side {n}: expected 0-{n}, 0 for blank"),
            ));
        }
        *cell = v as u8;
    }
    Ok(())
}

/// A grid with a format and an alphabet, ready to print with `{}`.
///
/// Made by [`Grid::display`]; writes no trailing newline.
#[derive(Debug, Clone, Copy)]
pub struct Formatted<'a> {
    grid: &'a Grid,
    format: Format,
    alphabet: Alphabet,
    blank: char,
}

impl Formatted<'_> {
    /// The same with `blank` written for empty cells in the line and grid
    /// formats (default `.`; `0` reads back with the standard alphabet
    /// only). Lines of numbers and the numeric format always write `0`.
    ///
    /// ```
    /// use dlxbench::sudoku::{Alphabet, BoxShape, Format, Grid};
    /// let grid = Grid::empty(BoxShape::new(2, 2).unwrap());
    /// let line = grid.display(Format::Line, Alphabet::Standard).with_blank('0');
    /// assert_eq!(line.to_string(), "0000000000000000");
    /// ```
    pub fn with_blank(self, blank: char) -> Self {
        Formatted { blank, ..self }
    }
}

impl Grid {
    /// The grid in `format` and `alphabet`, for `{}` (no trailing newline,
    /// nothing allocated).
    pub fn display(&self, format: Format, alphabet: Alphabet) -> Formatted<'_> {
        Formatted {
            grid: self,
            format,
            alphabet,
            blank: '.',
        }
    }
}

impl fmt::Display for Grid {
    /// The one-line format with the standard alphabet.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.display(Format::Line, Alphabet::Standard).fmt(f)
    }
}

/// Writes `grid` in `format` into a [`fmt::Write`] (no trailing newline).
pub fn write_grid<W: fmt::Write + ?Sized>(
    out: &mut W,
    grid: &Grid,
    format: Format,
    alphabet: Alphabet,
) -> fmt::Result {
    write!(out, "{}", grid.display(format, alphabet))
}

/// Writes `grid` in `format` into a [`std::io::Write`] (no trailing
/// newline). Buffer the writer: output goes out a few bytes at a time.
pub fn write_grid_io<W: std::io::Write + ?Sized>(
    out: &mut W,
    grid: &Grid,
    format: Format,
    alphabet: Alphabet,
) -> std::io::Result<()> {
    write!(out, "{}", grid.display(format, alphabet))
}

fn digits(mut n: usize) -> usize {
    let mut d = 1;
    while n >= 10 {
        n /= 10;
        d += 1;
    }
    d
}

impl fmt::Display for Formatted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        let grid = self.grid;
        let n = grid.side();
        let shape = grid.shape();
        let spell = n <= self.alphabet.max_side();
        let symbol = |v: u8| match v {
            0 => self.blank,
            _ => self.alphabet.symbol(v).unwrap_or('?'),
        };
        match self.format {
            Format::Line if spell => {
                for &v in grid.cells() {
                    f.write_char(symbol(v))?;
                }
            }
            Format::Line => {
                for (i, &v) in grid.cells().iter().enumerate() {
                    if i > 0 {
                        f.write_char(' ')?;
                    }
                    write!(f, "{v}")?;
                }
            }
            Format::Numeric => {
                if shape.box_rows() == shape.box_cols() {
                    write!(f, "{}", shape.box_rows())?;
                } else {
                    write!(f, "{shape}")?;
                }
                for row in grid.cells().chunks(n) {
                    f.write_char('\n')?;
                    for (i, &v) in row.iter().enumerate() {
                        if i > 0 {
                            f.write_char(' ')?;
                        }
                        write!(f, "{v}")?;
                    }
                }
            }
            Format::Grid => {
                let (r, c) = (shape.box_rows(), shape.box_cols());
                let width = if spell { 1 } else { digits(n) };
                // Characters of one box's cells: c cells and c-1 spaces.
                let box_width = c * width + c - 1;
                let stacks = n / c;
                for (row, cells) in grid.cells().chunks(n).enumerate() {
                    if row > 0 {
                        f.write_char('\n')?;
                        if row % r == 0 {
                            for stack in 0..stacks {
                                if stack > 0 {
                                    f.write_char('+')?;
                                }
                                let dashes = box_width
                                    + usize::from(stack > 0)
                                    + usize::from(stack + 1 < stacks);
                                for _ in 0..dashes {
                                    f.write_char('-')?;
                                }
                            }
                            f.write_char('\n')?;
                        }
                    }
                    for (col, &v) in cells.iter().enumerate() {
                        if col > 0 {
                            f.write_str(if col % c == 0 { " | " } else { " " })?;
                        }
                        if spell {
                            f.write_char(symbol(v))?;
                        } else if v == 0 {
                            write!(f, "{:>width$}", self.blank)?;
                        } else {
                            write!(f, "{v:>width$}")?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Iterator over the puzzles of a text, in any mix of the formats.
///
/// Yields `Ok((line, grid))` with the 1-based line where the puzzle starts,
/// or a [`GridError`] with its line and column; after an error it goes on
/// with the next puzzle. Each puzzle's format is detected on its own:
///
/// * **one-line**: a line that [`parse_line_into`] reads: `n*n` symbols or
///   `n*n` whitespace-separated numbers;
/// * **grid**: `n` lines of `n` cells each (symbols, or whitespace-separated
///   numbers), with optional separators: `|` and spaces inside rows, lines
///   of `-`, `=`, `+` and `|` between bands. The first row's cell count
///   gives the side. Consecutive grids need nothing between them;
/// * **numeric block**: a line with the box shape (`3` for 3x3 boxes, `2x3`
///   or `2 3` for 2-row by 3-column boxes), then `n` lines of `n`
///   whitespace-separated numbers, `0` for blank. Needed for sides above
///   61 and for box shapes other than the default.
///
/// Blank lines, lines starting with `#` and `Grid 01`-style labels (Project
/// Euler 96) are skipped. A 16-symbol (or 36-symbol) line that starts 16
/// (36) lines of the same width, not all of which read as one-line puzzles,
/// is taken as a grid's first row.
///
/// ```
/// use dlxbench::sudoku::{ParseOptions, Puzzles};
/// let text = "\
/// ## a one-line 4x4 puzzle, then the same as a grid, then a numeric block
/// 1..4..2..3..4..1
///
/// 1 . | . 4
/// . . | 2 .
/// ----+----
/// . 3 | . .
/// 4 . | . 1
/// 2
/// 1 0 0 4
/// 0 0 2 0
/// 0 3 0 0
/// 4 0 0 x
/// ";
/// let puzzles: Vec<_> = Puzzles::new(text, ParseOptions::default()).collect();
/// assert_eq!(puzzles.len(), 3);
/// let (line, first) = puzzles[0].as_ref().unwrap();
/// assert_eq!(*line, 2);
/// assert_eq!(puzzles[1].as_ref().unwrap(), &(4, first.clone()));
/// let e = puzzles[2].as_ref().unwrap_err();
/// assert_eq!((e.line, e.column), (13, 7));
/// ```
#[derive(Debug, Clone)]
pub struct Puzzles<'a> {
    text: &'a [u8],
    /// Bytes skipped before `text` (a byte-order mark).
    skipped: usize,
    at: Cursor,
    options: ParseOptions,
    scratch: Grid,
}

#[derive(Debug, Clone, Copy)]
struct Cursor {
    pos: usize,
    /// 1-based number of the next line.
    line: usize,
}

/// What a line of a multi-format text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Comment,
    Separator,
    Header(BoxShape),
    Row,
}

/// How a row's cells are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cells {
    Symbols,
    Numbers,
}

fn is_row_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'|'
}

fn line_kind(line: &[u8]) -> LineKind {
    let (start, end) = trim(line);
    let body = &line[start..end];
    let Some(&first) = body.first() else {
        return LineKind::Blank;
    };
    if first == b'#'
        || (body.len() > 5
            && body[..4].eq_ignore_ascii_case(b"grid")
            && (body[4] == b' ' || body[4].is_ascii_digit()))
    {
        return LineKind::Comment;
    }
    if body
        .iter()
        .all(|&b| matches!(b, b'-' | b'=' | b'+' | b'|') || b.is_ascii_whitespace())
        && body.iter().any(|&b| b == b'-' || b == b'=')
    {
        return LineKind::Separator;
    }
    if let Some(shape) = header_shape(body) {
        return LineKind::Header(shape);
    }
    LineKind::Row
}

/// `3` (3x3 boxes), `2x3` or `2 3`.
fn header_shape(body: &[u8]) -> Option<BoxShape> {
    if body.len() > 9 || !body[0].is_ascii_digit() {
        return None;
    }
    let text = std::str::from_utf8(body).ok()?;
    let number = |t: &str| -> Option<usize> {
        let t = t.trim();
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    let (r, c) = match text.split_once(['x', 'X']) {
        Some((r, c)) => (number(r)?, number(c)?),
        None => match text.split_once(|c: char| c.is_ascii_whitespace()) {
            Some((r, c)) => (number(r)?, number(c)?),
            None => {
                let k = number(text)?;
                (k, k)
            }
        },
    };
    BoxShape::new(r, c).ok()
}

/// How the cells of a row are written and how many there are.
fn classify_row(line: &[u8]) -> (Cells, usize) {
    let (start, end) = trim(line);
    let mut symbols = 0;
    let mut tokens = 0usize;
    let mut numeric = true;
    let mut long_token = false;
    let mut i = start;
    while i < end {
        if is_row_space(line[i]) {
            i += 1;
            continue;
        }
        let from = i;
        while i < end && !is_row_space(line[i]) {
            i += 1;
        }
        let token = &line[from..i];
        tokens += 1;
        symbols += token.len();
        long_token |= token.len() > 1;
        numeric &= token == b"." || token.iter().all(u8::is_ascii_digit);
    }
    if numeric && long_token && tokens >= 2 {
        let square = tokens.isqrt().pow(2) == tokens;
        if square || BoxShape::for_side(tokens).is_ok() {
            return (Cells::Numbers, tokens);
        }
    }
    (Cells::Symbols, symbols)
}

/// Reads the cells of one grid row into `out` (`n` cells).
fn parse_row(
    line: &[u8],
    cells: Cells,
    alphabet: Alphabet,
    out: &mut [u8],
) -> Result<(), GridError> {
    let n = out.len();
    let (start, end) = trim(line);
    let mut count = 0;
    let mut i = start;
    while i < end {
        if is_row_space(line[i]) {
            i += 1;
            continue;
        }
        let from = i;
        match cells {
            Cells::Symbols => i += 1,
            Cells::Numbers => {
                while i < end && !is_row_space(line[i]) {
                    i += 1;
                }
            }
        }
        if count < n {
            let v = match cells {
                Cells::Symbols => {
                    let v = alphabet.table()[line[from] as usize];
                    if v as usize > n {
                        return Err(symbol_error(line, from, v, n, alphabet));
                    }
                    v
                }
                Cells::Numbers => {
                    let v = number_at(line, from, &line[from..i])?;
                    if v as usize > n {
                        return Err(GridError::new(
                            column_of(line, from),
                            format!("value {v} is above the side {n}: expected 0-{n}, 0 for blank"),
                        ));
                    }
                    v as u8
                }
            };
            out[count] = v;
        }
        count += 1;
        if cells == Cells::Symbols && !line[from].is_ascii() {
            // Step over the rest of a multi-byte character.
            while i < end && line[i] & 0xC0 == 0x80 {
                i += 1;
            }
        }
    }
    if count != n {
        let what = match cells {
            Cells::Symbols => format!("symbols ({})", alphabet.describe(n)),
            Cells::Numbers => format!("numbers (0-{n}, 0 for blank)"),
        };
        return Err(GridError::new(
            0,
            format!("expected a row of {n} {what} for a {n}x{n} grid, found {count}"),
        ));
    }
    Ok(())
}

/// The next line at `at` (without its `\n`) and its number; advances `at`.
fn read_line<'a>(text: &'a [u8], at: &mut Cursor) -> Option<(usize, &'a [u8])> {
    if at.pos >= text.len() {
        return None;
    }
    let rest = &text[at.pos..];
    let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let line = (at.line, &rest[..len]);
    at.pos += (len + 1).min(rest.len());
    at.line += 1;
    Some(line)
}

impl<'a> Puzzles<'a> {
    /// Puzzles of a text.
    pub fn new(text: &'a str, options: ParseOptions) -> Self {
        Puzzles::from_bytes(text.as_bytes(), options)
    }

    /// Puzzles of a text that need not be UTF-8 (errors quote bad bytes).
    /// A leading UTF-8 byte-order mark is skipped.
    pub fn from_bytes(text: &'a [u8], options: ParseOptions) -> Self {
        let body = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
        Puzzles {
            text: body,
            skipped: text.len() - body.len(),
            at: Cursor { pos: 0, line: 1 },
            options,
            scratch: Grid::empty(BoxShape::NINE),
        }
    }

    /// Whether the next `count` lines after the cursor are contiguous rows
    /// (separators and comments between them allowed) of `n` cells written
    /// as `cells`: `None` if not, else whether any of them fails
    /// `parse_line_into` as a one-line puzzle. Allocates nothing.
    fn rows_ahead(&mut self, count: usize, n: usize, cells: Cells) -> Option<bool> {
        let mut at = self.at;
        let mut rows = 0;
        let mut any_fails = false;
        while rows < count {
            let (_, line) = read_line(self.text, &mut at)?;
            match line_kind(line) {
                LineKind::Comment | LineKind::Separator => {}
                LineKind::Row if classify_row(line) == (cells, n) => {
                    rows += 1;
                    any_fails = any_fails
                        || parse_line_into(line, self.options, &mut self.scratch).is_err();
                }
                _ => return None,
            }
        }
        Some(any_fails)
    }

    fn shape_for(&self, n: usize) -> Result<BoxShape, String> {
        match self.options.shape {
            Some(shape) if shape.side() == n => Ok(shape),
            _ => BoxShape::for_side(n).map_err(|e| e.to_string()),
        }
    }

    /// Reads a puzzle whose first content line is `first` (a row) into `out`.
    fn puzzle_from_row(
        &mut self,
        line_no: usize,
        line: &'a [u8],
        out: &mut Grid,
    ) -> Result<(), GridError> {
        let (cells, m) = classify_row(line);
        let has_bar = line.contains(&b'|');
        let row_side = m >= 4
            && BoxShape::for_side(m).is_ok()
            && (cells == Cells::Numbers || m <= self.options.alphabet.max_side());
        if !has_bar {
            let one_line = parse_line_into(line, self.options, out);
            let grid = match one_line {
                Ok(()) if row_side && m <= 61 => {
                    // 16 or 36 cells: a one-line puzzle or a grid's first row.
                    let is_grid = self.rows_ahead(m - 1, m, cells) == Some(true);
                    if !is_grid {
                        return Ok(());
                    }
                    None
                }
                Ok(()) => return Ok(()),
                Err(e) => Some(e),
            };
            if let Some(e) = grid {
                if !row_side || self.rows_ahead(1, m, cells).is_none() {
                    return Err(e.at_line(line_no));
                }
            }
        } else if !row_side {
            let n = nearest_side(m, 61);
            let e = match parse_row(line, cells, self.options.alphabet, &mut vec![0; n]) {
                Err(e) if e.column > 0 => e,
                _ => GridError::new(
                    0,
                    format!("a grid row with {m} cells: no grid has a side of {m}"),
                ),
            };
            return Err(e.at_line(line_no));
        }
        let shape = self
            .shape_for(m)
            .map_err(|m| GridError::new(0, m).at_line(line_no))?;
        self.read_rows(line_no, Some(line), shape, cells, out)
    }

    /// Reads the rows of a grid of `shape`, starting with `first` if given,
    /// then from the cursor; consumes the whole grid even after an error.
    fn read_rows(
        &mut self,
        start_line: usize,
        first: Option<&'a [u8]>,
        shape: BoxShape,
        cells: Cells,
        grid: &mut Grid,
    ) -> Result<(), GridError> {
        let n = shape.side();
        let alphabet = self.options.alphabet;
        grid.reset(shape);
        let mut error: Option<GridError> = None;
        let mut rows = 0;
        let mut note = |result: Result<(), GridError>, line_no: usize| {
            if let Err(e) = result {
                error.get_or_insert(e.at_line(line_no));
            }
        };
        if let Some(line) = first {
            note(
                parse_row(line, cells, alphabet, &mut grid.cells_mut()[..n]),
                start_line,
            );
            rows = 1;
        }
        let mut last_line = start_line;
        while rows < n {
            let mut at = self.at;
            let Some((line_no, line)) = read_line(self.text, &mut at) else {
                break;
            };
            match line_kind(line) {
                LineKind::Comment | LineKind::Separator => {}
                LineKind::Row => {
                    let out = &mut grid.cells_mut()[rows * n..(rows + 1) * n];
                    note(parse_row(line, cells, alphabet, out), line_no);
                    rows += 1;
                }
                LineKind::Blank | LineKind::Header(_) => break,
            }
            self.at = at;
            last_line = line_no;
        }
        if rows < n {
            note(
                Err(GridError::new(
                    0,
                    format!(
                        "the {n}x{n} grid starting here has {rows} rows (ending at line \
                         {last_line}): expected {n}"
                    ),
                )),
                start_line,
            );
        }
        match error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Puzzles<'_> {
    /// The next puzzle, read into `grid` (reusing its buffer): `Some(Ok(line))`
    /// with the 1-based line where it starts, `Some(Err(_))` for a puzzle
    /// that could not be read (reading goes on after it), `None` at the
    /// end. This is [`Iterator::next`] without a new grid per puzzle: after
    /// the first puzzle of a size it allocates nothing.
    pub fn next_into(&mut self, grid: &mut Grid) -> Option<Result<usize, GridError>> {
        loop {
            let mut at = self.at;
            let (line_no, line) = read_line(self.text, &mut at)?;
            self.at = at;
            let result = match line_kind(line) {
                LineKind::Blank | LineKind::Comment | LineKind::Separator => continue,
                LineKind::Header(shape) => {
                    self.read_rows(line_no, None, shape, Cells::Numbers, grid)
                }
                LineKind::Row => self.puzzle_from_row(line_no, line, grid),
            };
            return Some(result.map(|()| line_no));
        }
    }

    /// Bytes of the text read so far, a byte-order mark included (the
    /// next puzzle, or the blank and comment lines before it, starts here).
    pub fn offset(&self) -> usize {
        self.skipped + self.at.pos
    }

    /// The 1-based number of the next line to read.
    pub fn next_line(&self) -> usize {
        self.at.line
    }
}

impl Iterator for Puzzles<'_> {
    type Item = Result<(usize, Grid), GridError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut grid = Grid::empty(self.scratch.shape());
        self.next_into(&mut grid)
            .map(|result| result.map(|line| (line, grid)))
    }
}

#[cfg(test)]
mod tests;
