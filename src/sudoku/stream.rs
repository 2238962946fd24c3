//! Reading puzzles from a stream in constant memory.
//!
//! [`PuzzleReader`] reads any [`Read`] (a file, standard input, a pipe) in
//! windows of a few MiB and hands every puzzle to a callback, in the formats
//! and with the error handling of [`Puzzles`]: one-line puzzles, multi-line
//! grids and numeric blocks, mixed freely, each error with its line and
//! column. Memory stays bounded by the window, whatever the input's size,
//! and one grid is reused for every puzzle.

use std::io::{self, Read};
use std::ops::ControlFlow;

use super::{BoxShape, Grid, GridError, ParseOptions, Puzzles};

/// Bytes of look-ahead kept past any puzzle the reader starts: a puzzle, with
/// the blank and comment lines before it, must fit in half of this (a
/// 128x128 numeric grid takes about 64 KiB).
pub const READER_WINDOW: usize = 1 << 20;

/// Reads puzzles from any [`Read`] in windows of [`READER_WINDOW`] bytes,
/// in constant memory, with the formats and errors of [`Puzzles`]; one
/// grid is reused for every puzzle.
///
/// ```
/// use std::ops::ControlFlow;
/// use dlxbench::sudoku::{ParseOptions, PuzzleReader};
///
/// let text = "# two puzzles and a bad line\n1..4..2..3..4..1\n12\n2\n1 0 0 4\n0 0 2 0\n0 3 0 0\n4 0 0 1\n";
/// let mut seen = Vec::new();
/// PuzzleReader::new(text.as_bytes(), ParseOptions::default())
///     .for_each(|item| {
///         seen.push(match item {
///             Ok((line, grid)) => format!("line {line}: {} clues", grid.clues()),
///             Err(e) => format!("error at line {}", e.line),
///         });
///         ControlFlow::Continue(())
///     })
///     .unwrap();
/// assert_eq!(seen, ["line 2: 6 clues", "error at line 3", "line 4: 6 clues"]);
/// ```
#[derive(Debug)]
pub struct PuzzleReader<R> {
    source: R,
    options: ParseOptions,
    buf: Vec<u8>,
    /// Bytes of `buf` already handed out.
    start: usize,
    /// The 1-based line number of `buf[start]`.
    line: usize,
    eof: bool,
    grid: Grid,
}

impl<R: Read> PuzzleReader<R> {
    /// A reader of `source`. Nothing is read before [`PuzzleReader::for_each`].
    pub fn new(source: R, options: ParseOptions) -> Self {
        PuzzleReader {
            source,
            options,
            buf: Vec::with_capacity(2 * READER_WINDOW + (64 << 10)),
            start: 0,
            line: 1,
            eof: false,
            grid: Grid::empty(BoxShape::NINE),
        }
    }

    /// Reads until `buf[start..]` holds more than [`READER_WINDOW`] bytes of
    /// complete lines, or to the end of the input. Returns the end of the
    /// complete lines (the whole buffer at the end of the input).
    fn fill(&mut self) -> io::Result<usize> {
        if self.start >= READER_WINDOW {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        loop {
            let limit = if self.eof {
                self.buf.len()
            } else {
                memchr::memrchr(b'\n', &self.buf[self.start..])
                    .map_or(self.start, |i| self.start + i + 1)
            };
            if self.eof || limit - self.start > READER_WINDOW {
                return Ok(limit);
            }
            let len = self.buf.len();
            self.buf.resize(len + (256 << 10), 0);
            match self.source.read(&mut self.buf[len..]) {
                Ok(0) => {
                    self.buf.truncate(len);
                    self.eof = true;
                }
                Ok(k) => self.buf.truncate(len + k),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => self.buf.truncate(len),
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        }
    }

    /// Calls `each` with every puzzle in order: `Ok((line, grid))` with the
    /// 1-based line where it starts, or the error of a puzzle that could not
    /// be read (reading goes on after it). `each` may stop the reading with
    /// `ControlFlow::Break`. Fails only when the input cannot be read.
    pub fn for_each<F>(&mut self, mut each: F) -> io::Result<()>
    where
        F: FnMut(Result<(usize, &Grid), GridError>) -> ControlFlow<()>,
    {
        loop {
            let limit = self.fill()?;
            if self.start == limit {
                return Ok(());
            }
            let window = &self.buf[self.start..limit];
            // A puzzle that ends past `safe` might have been cut short by the
            // end of the window: read it again from a fresh window.
            let safe = window.len().saturating_sub(READER_WINDOW / 2);
            let mut puzzles = Puzzles::from_bytes(window, self.options);
            let (mut offset, mut line) = (0, 1);
            loop {
                let Some(result) = puzzles.next_into(&mut self.grid) else {
                    offset = window.len();
                    line = puzzles.next_line();
                    break;
                };
                if !self.eof && puzzles.offset() > safe && offset > 0 {
                    break;
                }
                let base = self.line - 1;
                let flow = each(match result {
                    Ok(at) => Ok((base + at, &self.grid)),
                    Err(e) => {
                        let at = e.line;
                        Err(e.at_line(base + at))
                    }
                });
                offset = puzzles.offset();
                line = puzzles.next_line();
                if flow.is_break() {
                    self.start += offset;
                    self.line += line - 1;
                    return Ok(());
                }
            }
            self.start += offset;
            self.line += line - 1;
            if self.eof && self.start == self.buf.len() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out at most `step` bytes a call.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let k = self.data.len().min(self.step).min(out.len());
            out[..k].copy_from_slice(&self.data[..k]);
            self.data = &self.data[k..];
            Ok(k)
        }
    }

    fn collect(reader: impl Read) -> Vec<Result<(usize, Grid), GridError>> {
        let mut out = Vec::new();
        PuzzleReader::new(reader, ParseOptions::default())
            .for_each(|item| {
                out.push(item.map(|(line, grid)| (line, grid.clone())));
                ControlFlow::Continue(())
            })
            .unwrap();
        out
    }

    /// Text larger than several windows, with one-line puzzles, multi-line
    /// grids, numeric blocks, comments and bad lines.
    fn big_text() -> String {
        let line =
            ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
        let grid = "1 . | . 4\n. . | 2 .\n----+----\n. 3 | . .\n4 . | . 1\n";
        let numeric = "2\n1 0 0 4\n0 0 2 0\n0 3 0 0\n4 0 0 1\n";
        let mut text = String::from("\u{feff}# header\n");
        let mut k = 0;
        while text.len() < 3 * READER_WINDOW + 12345 {
            match k % 7 {
                0 => text += grid,
                1 => text += numeric,
                2 => text += "12x\n",
                3 => text += "# a comment\n\n",
                _ => {
                    text += line;
                    text += "\n";
                }
            }
            k += 1;
        }
        text += line; // no final newline
        text
    }

    #[test]
    fn streaming_matches_the_whole_text_parser() {
        let text = big_text();
        let expected: Vec<_> = Puzzles::new(&text, ParseOptions::default()).collect();
        assert!(expected.len() > 50_000);
        assert_eq!(collect(text.as_bytes()), expected);
        for step in [1 << 20, 4099] {
            let trickle = Trickle {
                data: text.as_bytes(),
                step,
            };
            assert_eq!(collect(trickle), expected, "step {step}");
        }
    }

    #[test]
    fn stopping_early_and_empty_input() {
        assert!(collect(&b""[..]).is_empty());
        assert!(collect(&b"\n# only comments\n\n"[..]).is_empty());
        let text = big_text();
        let mut reader = PuzzleReader::new(text.as_bytes(), ParseOptions::default());
        let mut seen = 0;
        reader
            .for_each(|_| {
                seen += 1;
                if seen == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .unwrap();
        assert_eq!(seen, 3);
    }

    #[test]
    fn read_errors_are_returned() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = PuzzleReader::new(Failing, ParseOptions::default())
            .for_each(|_| ControlFlow::Continue(()))
            .unwrap_err();
        assert_eq!(e.to_string(), "disk on fire");
    }
}
