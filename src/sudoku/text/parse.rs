//! The one-line parser, [`parse_line_into`], and the helpers the
//! multi-line reader shares with it.

use super::{Alphabet, BoxShape, Grid, GridError};
use crate::notation::NOT_A_SYMBOL;
use crate::sudoku::MAX_SIDE;

/// Options for parsing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Symbol alphabet.
    pub alphabet: Alphabet,
    /// Box shape when the side alone does not fix it (default: the most
    /// square factorisation, [`BoxShape::for_side`]).
    pub shape: Option<BoxShape>,
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

pub(super) fn trim(line: &[u8]) -> (usize, usize) {
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
pub(super) fn nearest_side(count: usize, max: usize) -> usize {
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
/// whitespace-separated decimal numbers (the formats of [`crate::sudoku`]).
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
pub(super) fn symbol_error(
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

/// A number above the side `n`, `token` at byte `offset` of `line`: the
/// number is quoted as written (a long one by its length), never as the
/// capped value [`number_at`] returns.
#[cold]
pub(crate) fn value_error(line: &[u8], offset: usize, token: &[u8], n: usize) -> GridError {
    let value = match token.len() {
        0..=20 => format!("value {}", String::from_utf8_lossy(token)),
        digits => format!("a number of {digits} digits"),
    };
    GridError::new(
        column_of(line, offset),
        format!("{value} is above the side {n}: expected 0-{n}, 0 for blank"),
    )
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
            return Err(value_error(line, offset, token, n));
        }
        *cell = v as u8;
    }
    Ok(())
}
