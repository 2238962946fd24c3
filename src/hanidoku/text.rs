//! The one-line text format and the hexagon drawing.

use std::fmt;

use super::{Board, CELLS, ROWS, ROW_LENGTHS};
use crate::corpus::MAX_LINE_BYTES;

/// What was wrong with a line of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// Not 61 symbols.
    Length {
        /// Characters found (after trimming surrounding whitespace).
        found: usize,
    },
    /// A character that is neither a digit nor a blank. `None` when the
    /// bytes there are not valid UTF-8.
    Symbol {
        /// The character found.
        found: Option<char>,
    },
    /// A line longer than `limit` bytes, which a streaming reader does not
    /// keep ([`crate::corpus::MAX_LINE_BYTES`]).
    TooLong {
        /// The longest line read.
        limit: usize,
    },
}

/// A line that is not a Hanidoku board, with where and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column (character position), 0 for the whole line.
    pub column: usize,
    /// What was expected and what was found.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// The same error, placed on 1-based line `line`.
    pub fn at_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }

    /// The error of line `line`, longer than [`MAX_LINE_BYTES`].
    pub(crate) fn too_long(line: usize) -> Self {
        ParseError {
            line,
            column: 0,
            kind: ParseErrorKind::TooLong {
                limit: MAX_LINE_BYTES,
            },
        }
    }
}

/// What a board's symbols may be, for messages.
const EXPECTED: &str = "1-9, '.' or '0' for blank";

impl fmt::Display for ParseError {
    /// `line 3, column 7: unexpected symbol 'x': expected 1-9, '.' or '0' for
    /// blank`; the parts that are 0 (unknown) are left out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, 0) => {}
            (0, c) => write!(f, "column {c}: ")?,
            (l, 0) => write!(f, "line {l}: ")?,
            (l, c) => write!(f, "line {l}, column {c}: ")?,
        }
        match self.kind {
            ParseErrorKind::Empty => f.write_str("expected a Hanidoku board, found an empty line"),
            ParseErrorKind::Length { found } => write!(
                f,
                "expected {CELLS} symbols ({EXPECTED}) for a Hanidoku board, found {found}"
            ),
            ParseErrorKind::Symbol { found: Some(c) } => {
                write!(f, "unexpected symbol {c:?}: expected {EXPECTED}")
            }
            ParseErrorKind::Symbol { found: None } => {
                write!(f, "unexpected bytes (not UTF-8): expected {EXPECTED}")
            }
            ParseErrorKind::TooLong { limit } => write!(
                f,
                "a line of more than {limit} bytes: expected {CELLS} symbols ({EXPECTED}) for \
                 a Hanidoku board"
            ),
        }
    }
}

/// True for a byte that starts a character (not a UTF-8 continuation byte).
fn starts_char(b: u8) -> bool {
    b & 0xC0 != 0x80
}

/// Parses one line in the one-line format into `board`: 61 symbols, `1-9`
/// for a digit, `.` or `0` for a blank, rows top to bottom. Surrounding
/// whitespace (a CR, a BOM-free indent) is ignored.
///
/// Errors carry `line: 0` and the 1-based character column of the first bad
/// symbol (0 when the whole line is at fault); place them with
/// [`ParseError::at_line`]. On error `board` is left unspecified.
pub fn parse_line_into(line: &[u8], board: &mut Board) -> Result<(), ParseError> {
    let body = line.trim_ascii();
    let error = |column, kind| ParseError {
        line: 0,
        column,
        kind,
    };
    if body.is_empty() {
        return Err(error(0, ParseErrorKind::Empty));
    }
    let chars = if body.is_ascii() {
        body.len()
    } else {
        body.iter().filter(|&&b| starts_char(b)).count()
    };
    if chars != CELLS {
        return Err(error(0, ParseErrorKind::Length { found: chars }));
    }
    for (i, (&b, cell)) in body.iter().zip(board.cells.iter_mut()).enumerate() {
        *cell = match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' => 0,
            _ => {
                // Every byte before this one was an ASCII symbol, so the
                // column is `i + 1` even when this is a multi-byte character.
                let end = (i + 4).min(body.len());
                let found = (i + 1..=end)
                    .find_map(|e| std::str::from_utf8(&body[i..e]).ok())
                    .and_then(|s| s.chars().next());
                return Err(error(i + 1, ParseErrorKind::Symbol { found }));
            }
        };
    }
    Ok(())
}

/// Parses one line in the one-line format; see [`parse_line_into`].
pub fn parse_line(line: &[u8]) -> Result<Board, ParseError> {
    let mut board = Board::EMPTY;
    parse_line_into(line, &mut board)?;
    Ok(board)
}

impl std::str::FromStr for Board {
    type Err = ParseError;
    /// The one-line format.
    fn from_str(s: &str) -> Result<Board, ParseError> {
        parse_line(s.as_bytes())
    }
}

impl fmt::Display for Board {
    /// The one-line format: 61 symbols, `.` for a blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [b'.'; CELLS];
        for (t, &v) in text.iter_mut().zip(&self.cells) {
            if v != 0 {
                *t = b'0' + v;
            }
        }
        // Only ASCII digits and dots were written.
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

/// A [`Board`] drawn as a hexagon ([`Board::hexagon`]): nine text lines,
/// each row indented by `9 - length` spaces, cells separated by a space, so
/// each diagonal is a straight line of characters.
#[derive(Debug, Clone, Copy)]
pub struct Hexagon<'a>(pub(super) &'a Board);

impl fmt::Display for Hexagon<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut cells = self.0.cells.iter();
        for (row, &len) in ROW_LENGTHS.iter().enumerate() {
            write!(f, "{:indent$}", "", indent = 9 - len)?;
            for i in 0..len {
                let v = cells.next().copied().unwrap_or(0);
                let sep = if i == 0 { "" } else { " " };
                match v {
                    0 => write!(f, "{sep}.")?,
                    v => write!(f, "{sep}{v}")?,
                }
            }
            if row + 1 < ROWS {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

/// The boards of a text, one per line, with their 1-based line numbers.
/// Blank lines and `#` comment lines are skipped; a byte-order mark at the
/// start and CRLF line ends are fine. Bad lines give a [`ParseError`]
/// placed on its line, and reading goes on; a line longer than
/// [`MAX_LINE_BYTES`] is one, as in the streaming reader.
#[derive(Debug, Clone)]
pub struct Puzzles<'a> {
    lines: Lines<'a>,
}

/// The numbered lines of a text.
type Lines<'a> = std::iter::Enumerate<std::slice::Split<'a, u8, fn(&u8) -> bool>>;

impl<'a> Puzzles<'a> {
    /// The boards of `text`.
    pub fn new(text: &'a [u8]) -> Self {
        let text = crate::corpus::strip_bom(text);
        let newline: fn(&u8) -> bool = |&b| b == b'\n';
        Puzzles {
            lines: text.split(newline).enumerate(),
        }
    }
}

impl Iterator for Puzzles<'_> {
    type Item = Result<(usize, Board), ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        for (i, line) in self.lines.by_ref() {
            let body = line.trim_ascii();
            if body.is_empty() || body[0] == b'#' {
                continue;
            }
            if line.len() > MAX_LINE_BYTES {
                // As the streaming reader, which does not hold such a line.
                return Some(Err(ParseError::too_long(i + 1)));
            }
            return Some(
                parse_line(body)
                    .map(|board| (i + 1, board))
                    .map_err(|e| e.at_line(i + 1)),
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first puzzle of the committed generated corpus.
    const LINE: &str = ".6..........2..7...........3...........8.5...................";

    #[test]
    fn one_line_round_trip() {
        let board = parse_line(LINE.as_bytes()).unwrap();
        assert_eq!(board.clues(), 6);
        assert_eq!(board.get(1), 6);
        assert_eq!(board.get(39), 8);
        assert_eq!(board.get(60), 0);
        assert_eq!(board.to_string(), LINE);
        let zeros = LINE.replace('.', "0");
        assert_eq!(parse_line(zeros.as_bytes()).unwrap(), board);
        assert_eq!(parse_line(format!("  {LINE}\r").as_bytes()).unwrap(), board);
    }

    #[test]
    fn errors_say_where_and_what() {
        let mut bad = LINE.to_string();
        bad.replace_range(40..41, "x");
        let e = parse_line(bad.as_bytes()).unwrap_err().at_line(3);
        assert_eq!((e.line, e.column), (3, 41));
        assert_eq!(
            e.to_string(),
            "line 3, column 41: unexpected symbol 'x': expected 1-9, '.' or '0' for blank"
        );
        // A non-ASCII character counts as one column.
        let mut accented = LINE[..60].to_string();
        accented.insert(10, 'é');
        let e = parse_line(accented.as_bytes()).unwrap_err();
        assert_eq!(e.column, 11);
        assert_eq!(e.kind, ParseErrorKind::Symbol { found: Some('é') });
        let mut short = LINE[..59].to_string();
        short.insert(10, 'é');
        assert_eq!(
            parse_line(short.as_bytes()).unwrap_err().kind,
            ParseErrorKind::Length { found: 60 },
            "60 characters in 61 bytes"
        );
        let e = parse_line(&LINE.as_bytes()[..60]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected 61 symbols (1-9, '.' or '0' for blank) for a Hanidoku board, found 60"
        );
        let sudoku = ".".repeat(81);
        assert_eq!(
            parse_line(sudoku.as_bytes()).unwrap_err().kind,
            ParseErrorKind::Length { found: 81 }
        );
        assert_eq!(parse_line(b" \t").unwrap_err().kind, ParseErrorKind::Empty);
    }

    #[test]
    fn puzzles_skip_comments_and_report_bad_lines() {
        let text = format!("\u{feff}# a comment\n{LINE}\r\n\n{}\n{LINE}", &LINE[1..]);
        let items: Vec<_> = Puzzles::new(text.as_bytes()).collect();
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].as_ref().unwrap().0, 2);
        let e = items[1].unwrap_err();
        assert_eq!((e.line, e.column), (4, 0));
        assert_eq!(items[2].as_ref().unwrap().0, 5);
    }

    #[test]
    fn hexagon_drawing() {
        let board = parse_line(LINE.as_bytes()).unwrap();
        let drawn = board.hexagon().to_string();
        let rows: Vec<&str> = drawn.lines().collect();
        assert_eq!(rows.len(), 9);
        assert_eq!(rows[0], "    . 6 . . .");
        assert_eq!(rows[2], "  . 2 . . 7 . .");
        assert_eq!(rows[4], ". 3 . . . . . . .");
        assert_eq!(rows[5], " . . . . 8 . 5 .");
        assert_eq!(rows[8], "    . . . . .");
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn format_then_parse_is_the_identity(cells in proptest::collection::vec(0u8..=9, CELLS)) {
                let board = Board::from_cells(&cells).unwrap();
                let text = board.to_string();
                prop_assert_eq!(text.len(), CELLS);
                prop_assert_eq!(parse_line(text.as_bytes()).unwrap(), board);
            }

            #[test]
            fn any_bad_byte_is_reported_at_its_column(
                cells in proptest::collection::vec(0u8..=9, CELLS),
                at in 0..CELLS,
                bad in prop::sample::select(b"xA-+/:a ,".to_vec()),
            ) {
                let mut text = Board::from_cells(&cells).unwrap().to_string().into_bytes();
                text[at] = bad;
                // A space at either end is trimmed; the line is then short.
                let trimmed = bad == b' ' && (at == 0 || at == CELLS - 1);
                let e = parse_line(&text).unwrap_err();
                if trimmed {
                    prop_assert_eq!(e.kind, ParseErrorKind::Length { found: CELLS - 1 });
                } else {
                    prop_assert_eq!(e.column, at + 1);
                    prop_assert_eq!(e.kind, ParseErrorKind::Symbol { found: Some(bad as char) });
                }
            }
        }
    }
}
