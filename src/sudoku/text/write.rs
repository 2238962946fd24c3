//! Writing grids: [`Formatted`] (from [`Grid::display`]), [`write_grid`]
//! and [`write_grid_io`].

use std::fmt;

use super::{Alphabet, Format, Grid};

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
/// newline). Buffer the writer: output goes out a few bytes at a time
/// (the spelled one-line format, one byte a cell, in pieces of up to
/// 256 bytes).
pub fn write_grid_io<W: std::io::Write + ?Sized>(
    out: &mut W,
    grid: &Grid,
    format: Format,
    alphabet: Alphabet,
) -> std::io::Result<()> {
    if format == Format::Line && grid.side() <= alphabet.max_side() {
        // What `Formatted` writes, a byte at a time here rather than a
        // `char` at a time through `fmt`: the protocol's requests and the
        // isolated host's answers are written this way, one a puzzle (the
        // `fmt` path took about 0.5 µs a 9x9 grid).
        let mut piece = [0u8; 256];
        for cells in grid.cells().chunks(piece.len()) {
            for (byte, &v) in piece.iter_mut().zip(cells) {
                *byte = alphabet.symbol(v).map_or(b'?', |c| c as u8);
            }
            out.write_all(&piece[..cells.len()])?;
        }
        return Ok(());
    }
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
