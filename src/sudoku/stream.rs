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

use super::text::{is_comment, too_long};
use super::{BoxShape, Grid, GridError, ParseOptions, Puzzles};
use crate::corpus::MAX_LINE_BYTES;

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
    /// Whether a window was read: a byte-order mark is skipped only at
    /// the start of the input.
    started: bool,
    grid: Grid,
}

/// Bytes asked of the source per read.
const READ_SIZE: usize = 256 << 10;

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
            started: false,
            grid: Grid::empty(BoxShape::NINE),
        }
    }

    /// Reads up to [`READ_SIZE`] more bytes at the end of `buf`; sets `eof`
    /// at the end of the input.
    fn read_more(&mut self) -> io::Result<()> {
        let len = self.buf.len();
        self.buf.resize(len + READ_SIZE, 0);
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
        Ok(())
    }

    /// Whether the line after the complete lines (they end at `limit`) is
    /// longer than [`MAX_LINE_BYTES`]: it can be no puzzle.
    fn overlong_tail(&self, limit: usize) -> bool {
        !self.eof && self.buf.len() - limit > MAX_LINE_BYTES
    }

    /// Reads until `buf[start..]` holds more than [`READER_WINDOW`] bytes of
    /// complete lines, or to the end of the input, or until the line after
    /// the complete ones is too long to be a puzzle. Returns the end of the
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
            if self.eof || limit - self.start > READER_WINDOW || self.overlong_tail(limit) {
                return Ok(limit);
            }
            self.read_more()?;
        }
    }

    /// Drops the line at `start`, which is longer than [`MAX_LINE_BYTES`],
    /// through its line end, reading (and forgetting) as much of the input
    /// as that takes.
    fn skip_long_line(&mut self) -> io::Result<()> {
        self.buf.truncate(self.start);
        loop {
            self.read_more()?;
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.start..]) {
                self.buf.drain(self.start..=self.start + i);
                break;
            }
            self.buf.truncate(self.start);
            if self.eof {
                break;
            }
        }
        self.line += 1;
        Ok(())
    }

    /// Calls `each` with every puzzle in order: `Ok((line, grid))` with the
    /// 1-based line where it starts, or the error of a puzzle that could not
    /// be read (reading goes on after it). A line longer than
    /// [`MAX_LINE_BYTES`] is such an error (a `#` comment that long is
    /// skipped), and is not held in memory. `each` may stop the reading
    /// with `ControlFlow::Break`. Fails only when the input cannot be read.
    pub fn for_each<F>(&mut self, mut each: F) -> io::Result<()>
    where
        F: FnMut(Result<(usize, &Grid), GridError>) -> ControlFlow<()>,
    {
        loop {
            let limit = self.fill()?;
            if self.start == limit {
                if self.eof {
                    return Ok(());
                }
                // Only a line too long to be a puzzle is left in the buffer:
                // reported (unless a comment) before it is skipped, which
                // may take long (`/dev/zero` has no line end).
                if !is_comment(&self.buf[self.start..]) && each(Err(too_long(self.line))).is_break()
                {
                    return Ok(());
                }
                self.skip_long_line()?;
                continue;
            }
            // No puzzle runs on into a line too long to be one: the window
            // is complete, as at the end of the input.
            let complete = self.eof || self.overlong_tail(limit);
            let window = &self.buf[self.start..limit];
            // A puzzle that ends past `safe` might have been cut short by the
            // end of the window: read it again from a fresh window.
            let safe = window.len().saturating_sub(READER_WINDOW / 2);
            let mut puzzles = if self.started {
                Puzzles::continuing(window, self.options)
            } else {
                Puzzles::from_bytes(window, self.options)
            };
            self.started = true;
            let (mut offset, mut line) = (0, 1);
            loop {
                let Some(result) = puzzles.next_into(&mut self.grid) else {
                    offset = window.len();
                    line = puzzles.next_line();
                    break;
                };
                if !complete && puzzles.offset() > safe && offset > 0 {
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

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::testing::{assert_endless_line_is_reported_at_once, describe};

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

    /// Every item as `line: clues` or `line: error`.
    fn summary(reader: &mut PuzzleReader<impl Read>) -> Vec<String> {
        let mut seen = Vec::new();
        reader
            .for_each(|item| {
                seen.push(describe(item));
                ControlFlow::Continue(())
            })
            .unwrap();
        seen
    }

    #[test]
    fn a_line_too_long_for_a_puzzle_is_reported_and_skipped_in_bounded_memory() {
        const PUZZLE: &[u8] = b"1..4..2..3..4..1\n";
        let long = 64 << 20; // 64 MiB of NUL bytes, never all in memory
        let input = PUZZLE
            .chain(io::repeat(0).take(long))
            .chain(&b"\n# a comment\n"[..])
            .chain(&b"  # a long comment, indented: "[..])
            .chain(io::repeat(b'c').take(3 * MAX_LINE_BYTES as u64))
            .chain(&b"\n"[..])
            .chain(PUZZLE)
            .chain(io::repeat(b'1').take(2 * MAX_LINE_BYTES as u64));
        let mut reader = PuzzleReader::new(input, ParseOptions::default());
        let too_long = |line| {
            format!(
                "line {line}: a line of more than {MAX_LINE_BYTES} bytes: no puzzle is \
                 written on a line that long"
            )
        };
        assert_eq!(
            summary(&mut reader),
            [
                "1: 6 clues".to_string(),
                too_long(2),
                "5: 6 clues".to_string(),
                too_long(6)
            ]
        );
        let bound = 2 * READER_WINDOW + MAX_LINE_BYTES + 2 * READ_SIZE;
        assert!(reader.buf.capacity() <= bound, "{}", reader.buf.capacity());
        // Lines just within the bound are read as usual (and fail as
        // usual): a line of numbers with a lot of space around it.
        let mut line = vec![b' '; MAX_LINE_BYTES - 100];
        line[1000..1000 + 31].copy_from_slice(b"1 0 0 4 0 0 2 0 0 3 0 0 4 0 0 1");
        line.push(b'\n');
        let mut reader = PuzzleReader::new(&line[..], ParseOptions::default());
        assert_eq!(summary(&mut reader), ["1: 6 clues"]);
    }

    #[test]
    fn long_lines_read_the_same_streamed_and_whole() {
        let puzzle = "1..4..2..3..4..1\n";
        let long = "7".repeat(2 * MAX_LINE_BYTES);
        let comment = format!("  # {long}\n");
        for text in [
            format!("{puzzle}{long}\n{comment}{puzzle}"),
            format!("{long}{puzzle}{comment}"),
            format!("{puzzle}{long}"),
            format!("{}\n{puzzle}", &long[..MAX_LINE_BYTES + 1]),
            format!("{}\n{puzzle}", &long[..MAX_LINE_BYTES]),
        ] {
            let expected: Vec<_> = Puzzles::new(&text, ParseOptions::default()).collect();
            assert_eq!(collect(text.as_bytes()), expected);
            let trickle = Trickle {
                data: text.as_bytes(),
                step: 4099,
            };
            assert_eq!(collect(trickle), expected);
        }
    }

    #[test]
    fn an_endless_line_is_reported_at_once() {
        // `convert --strict /dev/zero`: the error comes before the line ends.
        assert_endless_line_is_reported_at_once::<Grid>(ParseOptions::default());
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let puzzle = "1..4..2..3..4..1";
        let text = format!("\u{feff}{puzzle}\r\n\u{feff}{puzzle}\r\n");
        let mut reader = PuzzleReader::new(text.as_bytes(), ParseOptions::default());
        let seen = summary(&mut reader);
        assert_eq!(seen[0], "1: 6 clues");
        assert!(seen[1].starts_with("line 2, column 1: "), "{seen:?}");
        // And the same when the second one starts a window of its own.
        let filler = format!("{puzzle}\n").repeat(READER_WINDOW / 17 + 1);
        let text = format!("\u{feff}{filler}\u{feff}{puzzle}\n");
        let expected: Vec<_> = Puzzles::new(&text, ParseOptions::default()).collect();
        assert_eq!(collect(text.as_bytes()), expected);
        assert!(expected.last().unwrap().is_err());
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
