//! Hanidoku as a [`Puzzle`] and a [`Generate`] kind: every subcommand runs
//! it with `--kind hanidoku`.

use std::io::{self, BufRead};
use std::ops::ControlFlow;

use super::generate::{Generator, VERIFIER};
use super::{Board, ParseError, Verdict, CELLS};
use crate::corpus::{strip_bom, MAX_LINE_BYTES};
use crate::puzzle::{
    Alphabet, EmbeddedCorpus, Format, Generate, GenerateError, GenerateRequest, Notation,
    NotationError, Puzzle, PuzzleGenerator,
};
use crate::rng::SplitMix;

crate::puzzle::text_traits!(error: ParseError, verdict: Verdict);

// Forwards to the kind's own functions, as Sudoku's `Grid` does: the
// trait is the one place the two kinds meet.
// Alike to `impl Puzzle for Grid` (sudoku/puzzle.rs) on purpose: the trait's methods, each
// forwarding to its own puzzle's functions.
impl Puzzle for Board {
    const NAME: &'static str = "hanidoku";
    const TITLE: &'static str = "Hanidoku";
    type Shape = ();
    type Options = ();
    type Error = ParseError;
    type Verdict = Verdict;

    fn blank() -> Self {
        Board::EMPTY
    }

    fn options(notation: &Notation) -> Result<(), NotationError> {
        if notation.box_shape.is_some() {
            return Err(NotationError(
                "--box is for Sudoku; Hanidoku boards have one shape".into(),
            ));
        }
        if notation.alphabet != Alphabet::Standard {
            return Err(NotationError(
                "--alphabet is for Sudoku; Hanidoku uses 1-9 and '.' or '0' for blank".into(),
            ));
        }
        if notation.format == Format::Numeric {
            return Err(NotationError(
                "--format numeric is for Sudoku; Hanidoku prints `line` or `grid`".into(),
            ));
        }
        Ok(())
    }

    #[inline]
    fn parse_line(text: &[u8], _: (), into: &mut Self) -> Result<(), ParseError> {
        super::parse_line_into(text, into)
    }

    fn read_each<R, F>(input: R, _: (), mut each: F) -> io::Result<()>
    where
        R: io::Read,
        F: FnMut(Result<(usize, &Self), ParseError>) -> ControlFlow<()>,
    {
        // One board per line: a line buffer is all the state needed.
        let mut input = io::BufReader::with_capacity(1 << 16, input);
        let (mut text, mut board) = (Vec::with_capacity(128), Board::EMPTY);
        let mut number = 0usize;
        while let Some(whole) = read_line(&mut input, &mut text, MAX_LINE_BYTES)? {
            number += 1;
            let line = match number {
                1 => strip_bom(&text),
                _ => &text[..],
            };
            let body = line.trim_ascii();
            if !whole {
                // Too long to be a board: skipped without being held, after
                // it is reported (the rest may never end: `/dev/zero`).
                let comment = body.first() == Some(&b'#');
                if !comment && each(Err(ParseError::too_long(number))).is_break() {
                    return Ok(());
                }
                input.skip_until(b'\n')?;
                continue;
            }
            if body.is_empty() || body[0] == b'#' {
                continue;
            }
            let result = match super::parse_line_into(body, &mut board) {
                Ok(()) => Ok((number, &board)),
                Err(e) => Err(e.at_line(number)),
            };
            if each(result).is_break() {
                return Ok(());
            }
        }
        Ok(())
    }

    fn write(&self, out: &mut dyn io::Write, format: Format, _: &()) -> io::Result<()> {
        match format {
            Format::Grid => write!(out, "{}", self.hexagon()),
            Format::Line | Format::Numeric => write!(out, "{self}"),
        }
    }

    fn shape(&self) {}

    fn cells(&self) -> &[u8] {
        Board::cells(self)
    }

    fn load(&mut self, _: (), cells: &[u8]) {
        // The cells come from `cells()` of a parsed board: 61 digits 0-9.
        debug_assert_eq!(cells.len(), CELLS);
        self.cells.copy_from_slice(cells);
    }

    fn check(&self) -> Verdict {
        super::check(self)
    }

    fn is_solution_of(solution: &Self, puzzle: &Self) -> bool {
        super::is_solution_of(solution, puzzle)
    }

    fn symmetry_image(src: &Self, dst: &mut Self, rng: &mut SplitMix) {
        super::symmetry_image(src, dst, rng);
    }

    fn embedded_corpus() -> EmbeddedCorpus {
        EmbeddedCorpus {
            name: super::DEFAULT_CORPUS_NAME,
            text: super::DEFAULT_CORPUS,
        }
    }
}

/// Reads the next line of `input` into `text`, without its line end:
/// `None` at the end of the input, `Some(true)` for a whole line,
/// `Some(false)` when the line is longer than `max` bytes: `text` then
/// holds its first `max + 1` bytes and the rest is left in `input`.
fn read_line(input: &mut impl BufRead, text: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    text.clear();
    let mut limited = io::Read::take(&mut *input, max as u64 + 1);
    if limited.read_until(b'\n', text)? == 0 {
        return Ok(None);
    }
    if text.last() == Some(&b'\n') {
        text.pop();
        return Ok(Some(true));
    }
    Ok(Some(text.len() <= max))
}

/// The generator behind `dlxbench generate --kind hanidoku`, with its
/// running totals for the summary.
struct Seeded {
    generator: Generator,
    clues: u64,
}

impl PuzzleGenerator<Board> for Seeded {
    fn next_into(&mut self, puzzle: &mut Board, solution: &mut Board) -> Result<(), GenerateError> {
        let stats = self.generator.next_into(puzzle, solution)?;
        self.clues += stats.clues as u64;
        Ok(())
    }

    fn header_options(&self) -> String {
        String::new()
    }

    fn format(&self) -> Format {
        Format::Line
    }

    fn summary(&self, count: u64, seconds: f64) -> Vec<String> {
        if count == 0 {
            return Vec::new();
        }
        vec![format!(
            "generated {count} Hanidoku puzzles, {:.1} clues on average, minimal and unique \
             (verified by the {VERIFIER} solver), in {seconds:.2} s",
            self.clues as f64 / count as f64,
        )]
    }
}

impl Generate for Board {
    fn generator(
        request: &GenerateRequest,
    ) -> Result<Box<dyn PuzzleGenerator<Board>>, GenerateError> {
        // Its puzzles are minimal: `--minimal` asks for nothing more.
        let plain = GenerateRequest {
            minimal: request.minimal,
            ..GenerateRequest::new(request.seed)
        };
        let nine = GenerateRequest {
            box_shape: Some((3, 3)),
            ..plain.clone()
        };
        if *request != plain && *request != nine {
            return Err(GenerateError::Unsupported {
                kind: Self::NAME,
                takes: "--count, --seed and --out only (its puzzles are minimal)",
            });
        }
        Ok(Box::new(Seeded {
            generator: Generator::new(request.seed),
            clues: 0,
        }))
    }
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;
    use crate::puzzle::testing::{assert_endless_line_is_reported_at_once, describe};

    /// A board of the committed corpus.
    const BOARD: &[u8] = b".6..........2..7...........3...........8.5...................";

    /// Every item of `input` as `line: clues` or its error.
    fn items(input: impl Read) -> Vec<String> {
        let mut seen = Vec::new();
        Board::read_each(input, (), |item| {
            seen.push(describe(item));
            ControlFlow::Continue(())
        })
        .unwrap();
        seen
    }

    #[test]
    fn a_byte_order_mark_and_crlf_are_fine_at_the_start_only() {
        let text = [b"\xEF\xBB\xBF", BOARD, b"\r\n\xEF\xBB\xBF", BOARD, b"\r\n"].concat();
        let seen = items(&text[..]);
        assert_eq!(seen[0], "1: 6 clues");
        assert!(
            seen[1].starts_with("line 2: expected 61 symbols"),
            "{seen:?}"
        );
    }

    #[test]
    fn a_line_too_long_for_a_board_is_reported_and_skipped_in_bounded_memory() {
        let long = 64 << 20; // 64 MiB, never all in memory
        let first = [BOARD, b"\n"].concat();
        let input = (&first[..])
            .chain(io::repeat(b'1').take(long))
            .chain(&b"\n  # a long comment: "[..])
            .chain(io::repeat(b'c').take(long))
            .chain(&b"\n"[..])
            .chain(BOARD)
            .chain(&b"\n"[..])
            .chain(io::repeat(0).take(2 * MAX_LINE_BYTES as u64));
        let too_long = |line| {
            format!(
                "line {line}: a line of more than {MAX_LINE_BYTES} bytes: expected 61 symbols \
                 (1-9, '.' or '0' for blank) for a Hanidoku board"
            )
        };
        assert_eq!(
            items(input),
            [
                "1: 6 clues".to_string(),
                too_long(2),
                "4: 6 clues".to_string(),
                too_long(5)
            ]
        );
        // What is kept of a long line: its first bytes only.
        let mut input = io::BufReader::new(io::repeat(b'1').take(long));
        let mut text = Vec::new();
        assert_eq!(read_line(&mut input, &mut text, 1000).unwrap(), Some(false));
        assert_eq!(text.len(), 1001);
        input.skip_until(b'\n').unwrap();
        assert_eq!(read_line(&mut input, &mut text, 1000).unwrap(), None);
    }

    #[test]
    fn long_lines_read_the_same_streamed_and_whole() {
        let long = vec![b'7'; 2 * MAX_LINE_BYTES];
        let text = [
            BOARD, b"\n", &long, b"\n  # ", &long, b"\n", BOARD, b"\n", &long,
        ]
        .concat();
        let whole: Vec<String> = super::super::Puzzles::new(&text)
            .map(|item| {
                describe(
                    item.as_ref()
                        .map(|(line, board)| (*line, board))
                        .map_err(|e| *e),
                )
            })
            .collect();
        assert_eq!(items(&text[..]), whole);
        assert_eq!(whole.len(), 4);
    }

    #[test]
    fn an_endless_line_is_reported_at_once() {
        assert_endless_line_is_reported_at_once::<Board>(());
    }

    #[test]
    fn lines_are_read_whole_up_to_the_bound() {
        let mut text = Vec::new();
        for len in [MAX_LINE_BYTES - 1, MAX_LINE_BYTES, MAX_LINE_BYTES + 1] {
            let mut line = vec![b' '; len - BOARD.len()];
            line.extend_from_slice(BOARD);
            text.extend_from_slice(&line);
            text.push(b'\n');
        }
        let seen = items(&text[..]);
        assert_eq!(seen[..2], ["1: 6 clues", "2: 6 clues"]);
        assert!(
            seen[2].starts_with("line 3: a line of more than"),
            "{seen:?}"
        );
    }
}
