//! Hanidoku as a [`Puzzle`] and a [`Generate`] kind: every subcommand runs
//! it with `--kind hanidoku`.

use std::io::{self, BufRead};
use std::ops::ControlFlow;

use super::generate::{GenerateError as HanidokuGenerateError, Generator};
use super::{Board, ParseError, Verdict, CELLS};
use crate::puzzle::{
    Alphabet, EmbeddedCorpus, Format, Generate, GenerateError, GenerateRequest, Notation,
    NotationError, Puzzle, PuzzleGenerator,
};
use crate::rng::SplitMix;

crate::puzzle::text_traits!(error: ParseError, verdict: Verdict);

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
        loop {
            text.clear();
            if input.read_until(b'\n', &mut text)? == 0 {
                return Ok(());
            }
            number += 1;
            let line = match (number, text.strip_prefix(b"\xEF\xBB\xBF")) {
                (1, Some(rest)) => rest,
                _ => &text[..],
            };
            let body = line.trim_ascii();
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

/// The generator behind `dlxbench generate --kind hanidoku`, with its
/// running totals for the summary.
struct Seeded {
    generator: Generator,
    clues: u64,
}

impl PuzzleGenerator<Board> for Seeded {
    fn next_into(&mut self, puzzle: &mut Board, solution: &mut Board) -> Result<(), GenerateError> {
        let stats = self
            .generator
            .next_into(puzzle, solution)
            .map_err(|e: HanidokuGenerateError| GenerateError::Failed(e.to_string()))?;
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
             (verified by the backtrack solver), in {seconds:.2} s",
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
            return Err(GenerateError::Request(
                "--kind hanidoku takes --count, --seed and --out only (its puzzles are minimal)"
                    .into(),
            ));
        }
        Ok(Box::new(Seeded {
            generator: Generator::new(request.seed),
            clues: 0,
        }))
    }
}
