//! Sudoku as a [`Puzzle`]: the kind every subcommand runs by default.

use std::io;
use std::ops::ControlFlow;

use super::{BoxShape, Grid, GridError, ParseOptions, PuzzleReader, Verdict};
use crate::puzzle::{EmbeddedCorpus, Format, Notation, NotationError, Puzzle};
use crate::rng::SplitMix;

crate::puzzle::text_traits!(error: GridError, verdict: Verdict);

// Forwards to the kind's own functions, as Hanidoku's `Board` does: the
// trait is the one place the two kinds meet.
// Alike to `impl Puzzle for Board` (hanidoku/puzzle.rs) on purpose: the trait's methods, each
// forwarding to its own puzzle's functions.
impl Puzzle for Grid {
    const NAME: &'static str = "sudoku";
    const TITLE: &'static str = "Sudoku";
    type Shape = BoxShape;
    type Options = ParseOptions;
    type Error = GridError;
    type Verdict = Verdict;

    fn blank() -> Self {
        Grid::empty(BoxShape::NINE)
    }

    fn options(notation: &Notation) -> Result<ParseOptions, NotationError> {
        let shape = notation
            .box_shape
            .map(|(rows, cols)| BoxShape::new(rows, cols))
            .transpose()
            .map_err(|e| NotationError(e.to_string()))?;
        Ok(ParseOptions {
            alphabet: notation.alphabet,
            shape,
        })
    }

    #[inline]
    fn parse_line(text: &[u8], options: ParseOptions, into: &mut Self) -> Result<(), GridError> {
        super::parse_line_into(text, options, into)
    }

    fn read_each<R, F>(input: R, options: ParseOptions, each: F) -> io::Result<()>
    where
        R: io::Read,
        F: FnMut(Result<(usize, &Self), GridError>) -> ControlFlow<()>,
    {
        PuzzleReader::new(input, options).for_each(each)
    }

    fn write(
        &self,
        out: &mut dyn io::Write,
        format: Format,
        options: &ParseOptions,
    ) -> io::Result<()> {
        super::write_grid_io(out, self, format, options.alphabet)
    }

    fn shape(&self) -> BoxShape {
        Grid::shape(self)
    }

    fn cells(&self) -> &[u8] {
        Grid::cells(self)
    }

    fn load(&mut self, shape: BoxShape, cells: &[u8]) {
        self.reset(shape);
        self.cells_mut().copy_from_slice(cells);
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

    fn write_protocol(&self, out: &mut Vec<u8>) -> bool {
        use std::io::Write;
        let start = out.len();
        let options = ParseOptions::default();
        if super::write_grid_io(out, self, Format::Line, options.alphabet).is_err()
            || out[start..].contains(&b' ')
        {
            return false;
        }
        let shape = self.shape();
        if BoxShape::for_side(shape.side()).ok() != Some(shape) {
            let _ = write!(out, " box={}x{}", shape.box_rows(), shape.box_cols());
        }
        true
    }

    fn read_protocol(&mut self, puzzle: &Self, text: &[u8]) -> bool {
        let options = ParseOptions {
            shape: Some(puzzle.shape()),
            ..ParseOptions::default()
        };
        super::parse_line_into(text, options, self).is_ok() && self.shape() == puzzle.shape()
    }

    fn write_c81(&self, out: &mut [u8; 81]) -> bool {
        if self.shape() != BoxShape::NINE {
            return false;
        }
        for (o, &c) in out.iter_mut().zip(self.cells()) {
            *o = if c == 0 { b'.' } else { b'0' + c };
        }
        true
    }

    fn read_c81(&mut self, puzzle: &Self, text: &[u8; 81]) -> bool {
        if puzzle.shape() != BoxShape::NINE {
            return false;
        }
        self.reset(BoxShape::NINE);
        for (cell, &c) in self.cells_mut().iter_mut().zip(text) {
            if !(b'1'..=b'9').contains(&c) {
                return false;
            }
            *cell = c - b'0';
        }
        true
    }

    fn embedded_corpus() -> EmbeddedCorpus {
        EmbeddedCorpus {
            name: crate::datasets::DEFAULT_CORPUS_NAME,
            text: crate::datasets::DEFAULT_CORPUS,
        }
    }
}
