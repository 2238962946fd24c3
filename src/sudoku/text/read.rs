//! The multi-line reader, [`Puzzles`]: one-line puzzles, grids and
//! numeric blocks in any mix.

use super::parse::{nearest_side, number_at, symbol_error, trim, value_error};
use super::{parse_line_into, Alphabet, BoxShape, Grid, GridError, ParseOptions};
use crate::corpus::MAX_LINE_BYTES;

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
/// Euler 96) are skipped. A line longer than
/// [`MAX_LINE_BYTES`](crate::corpus::MAX_LINE_BYTES) is an error (a `#`
/// comment that long is skipped), as in the streaming reader. A 16-symbol (or 36-symbol) line that starts 16
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

/// The whitespace- (or `|`-) separated tokens of a row, as byte ranges.
fn row_tokens(line: &[u8]) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let (mut i, end) = trim(line);
    std::iter::from_fn(move || {
        while i < end && is_row_space(line[i]) {
            i += 1;
        }
        let from = i;
        while i < end && !is_row_space(line[i]) {
            i += 1;
        }
        (from < i).then_some(from..i)
    })
}

/// How the cells of a row are written and how many there are.
fn classify_row(line: &[u8]) -> (Cells, usize) {
    let mut symbols = 0;
    let mut tokens = 0usize;
    let mut numeric = true;
    let mut long_token = false;
    for range in row_tokens(line) {
        let token = &line[range];
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
    let mut count = 0;
    for token in row_tokens(line) {
        let mut at = token.start;
        while at < token.end {
            // A cell: the whole token for numbers, one character for symbols.
            let from = at;
            at = match cells {
                Cells::Numbers => token.end,
                Cells::Symbols if line[from].is_ascii() => from + 1,
                // Step over the rest of a multi-byte character.
                Cells::Symbols => {
                    from + 1
                        + line[from + 1..token.end]
                            .iter()
                            .take_while(|&&b| b & 0xC0 == 0x80)
                            .count()
                }
            };
            if count < n {
                out[count] = match cells {
                    Cells::Symbols => {
                        let v = alphabet.table()[line[from] as usize];
                        if v as usize > n {
                            return Err(symbol_error(line, from, v, n, alphabet));
                        }
                        v
                    }
                    Cells::Numbers => {
                        let v = number_at(line, from, &line[from..at])?;
                        if v as usize > n {
                            return Err(value_error(line, from, &line[from..at], n));
                        }
                        v as u8
                    }
                };
            }
            count += 1;
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

/// Whether `line` is a `#` comment.
pub(crate) fn is_comment(line: &[u8]) -> bool {
    line.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'#')
}

/// The error of line `line`, longer than [`MAX_LINE_BYTES`]: no puzzle is
/// written on a line that long, and a streaming reader does not hold it.
pub(crate) fn too_long(line: usize) -> GridError {
    GridError::new(
        0,
        format!(
            "a line of more than {MAX_LINE_BYTES} bytes: no puzzle is written on a line that \
             long"
        ),
    )
    .at_line(line)
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
    /// A leading UTF-8 byte-order mark is skipped
    /// ([`strip_bom`](crate::corpus::strip_bom)).
    pub fn from_bytes(text: &'a [u8], options: ParseOptions) -> Self {
        let body = crate::corpus::strip_bom(text);
        Puzzles {
            skipped: text.len() - body.len(),
            ..Puzzles::continuing(body, options)
        }
    }

    /// Puzzles of a text that continues another one (a window of a stream
    /// after its first): a byte-order mark is not skipped there.
    pub(crate) fn continuing(text: &'a [u8], options: ParseOptions) -> Self {
        Puzzles {
            text,
            skipped: 0,
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
            if line.len() > MAX_LINE_BYTES {
                match is_comment(line) {
                    true => continue,
                    false => return Some(Err(too_long(line_no))),
                }
            }
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
