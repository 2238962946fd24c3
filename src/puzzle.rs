//! What every puzzle kind provides, at the model level: the [`Puzzle`]
//! trait (parse, write, check, symmetry image, default corpus) and the
//! [`Generate`] trait (a seeded generator of puzzles with one solution).
//!
//! The harness, the reports and every subcommand are written once against
//! these traits; Sudoku ([`crate::sudoku::Grid`]) and Hanidoku implement
//! them in their own modules, and [`crate::kinds`] lists the kinds. Nothing
//! here depends on a particular kind.
//!
//! ```
//! use dlxbench::puzzle::{Notation, Puzzle, RuleVerdict};
//! use dlxbench::sudoku::Grid;
//!
//! let options = Grid::options(&Notation::default()).unwrap();
//! let mut grid = Grid::blank();
//! let line = b"...............................................................................12";
//! Grid::parse_line(line, options, &mut grid).unwrap();
//! let verdict = grid.check();
//! assert!(!verdict.is_complete() && !verdict.is_invalid());
//! assert_eq!(verdict.to_string(), "incomplete (79 blanks)");
//! ```

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::fmt;
use std::io;
use std::ops::ControlFlow;

pub use crate::notation::{Alphabet, Format};
use crate::rng::SplitMix;

/// How puzzles are written as text, as the command line gives it. Each kind
/// takes what applies to it and refuses the rest with a
/// [`NotationError`] ([`Puzzle::options`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Notation {
    /// The symbols of input and output.
    pub alphabet: Alphabet,
    /// A box shape, rows x columns, for kinds whose size it fixes.
    pub box_shape: Option<(usize, usize)>,
    /// The output format.
    pub format: Format,
}

impl Default for Notation {
    fn default() -> Self {
        Notation {
            alphabet: Alphabet::Standard,
            box_shape: None,
            format: Format::Line,
        }
    }
}

/// A notation setting that does not apply to a puzzle kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

/// A parse error that knows its 1-based line (0: unknown).
pub trait LineError: std::error::Error + Send + Sync + 'static {
    /// The line, 0 when unknown.
    fn line(&self) -> usize;
    /// The same error placed on line `line` (0: no line in the message).
    fn at_line(self, line: usize) -> Self;
}

/// A rule check's verdict on a puzzle: complete, incomplete, or invalid
/// (with the broken rule in its `Display`).
pub trait RuleVerdict: fmt::Display {
    /// Every cell filled and no rule broken: a solved puzzle.
    fn is_complete(&self) -> bool;
    /// Some rule is broken.
    fn is_invalid(&self) -> bool;
}

/// Implements [`LineError`] for a kind's parse error with a `line` field
/// and an inherent `at_line`, and [`RuleVerdict`] and `Display` for its
/// verdict enum with `Complete`, `Incomplete { blanks }` and `Invalid { .. }`
/// variants and an inherent `write_broken_rule` (what an `Invalid` verdict
/// says after `invalid: `): the same few lines for every kind, written
/// once.
macro_rules! text_traits {
    (error: $error:ty, verdict: $verdict:ident) => {
        impl $crate::puzzle::LineError for $error {
            fn line(&self) -> usize {
                self.line
            }
            fn at_line(self, line: usize) -> Self {
                <$error>::at_line(self, line)
            }
        }

        impl $crate::puzzle::RuleVerdict for $verdict {
            fn is_complete(&self) -> bool {
                matches!(self, $verdict::Complete)
            }
            fn is_invalid(&self) -> bool {
                matches!(self, $verdict::Invalid { .. })
            }
        }

        impl ::std::fmt::Display for $verdict {
            /// `complete`, `incomplete (12 blanks)`, or `invalid: ` and the
            /// broken rule (`invalid: row 3 repeats 7`).
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    $verdict::Complete => f.write_str("complete"),
                    $verdict::Incomplete { blanks: 1 } => f.write_str("incomplete (1 blank)"),
                    $verdict::Incomplete { blanks } => write!(f, "incomplete ({blanks} blanks)"),
                    $verdict::Invalid { .. } => {
                        f.write_str("invalid: ")?;
                        self.write_broken_rule(f)
                    }
                }
            }
        }
    };
}
pub(crate) use text_traits;

/// An embedded corpus: what `bench` runs for a kind when it is given no
/// corpus and none has been fetched.
#[derive(Debug, Clone, Copy)]
pub struct EmbeddedCorpus {
    /// Its name in reports.
    pub name: &'static str,
    /// Its text.
    pub text: &'static [u8],
}

/// A kind of puzzle: parsed from text, written back, checked against its
/// rules, permuted by its symmetries. The harness's worker loop and every
/// subcommand are generic over it, so each kind runs with its own parser,
/// rule check and symmetries and no dispatch per solve.
pub trait Puzzle: Clone + Send + Sync + 'static {
    /// Lower-case name used on the command line and in files (`--kind`).
    const NAME: &'static str;
    /// Name in messages, capitalised.
    const TITLE: &'static str;
    /// What fixes the size of a parsed puzzle (a Sudoku's box shape).
    type Shape: Copy + Send + Sync;
    /// Parse and write options, from a [`Notation`].
    type Options: Copy + Default + Send + Sync + fmt::Debug;
    /// A parse error.
    type Error: LineError;
    /// The rule check's verdict.
    type Verdict: RuleVerdict;

    /// A blank puzzle to parse into.
    fn blank() -> Self;
    /// The options for `notation`, or why it does not apply to this kind.
    fn options(notation: &Notation) -> Result<Self::Options, NotationError>;
    /// Parses one corpus line into `into` (reusing its buffer).
    fn parse_line(text: &[u8], options: Self::Options, into: &mut Self) -> Result<(), Self::Error>;
    /// Reads every puzzle of `input` in order, streaming (memory does not
    /// grow with the input): `each` gets the 1-based line where a puzzle
    /// starts and the puzzle, or the error of one that could not be read
    /// (reading goes on after it), and may stop with `ControlFlow::Break`.
    /// A UTF-8 byte-order mark is skipped; comment lines (`#`) and blank
    /// lines are not puzzles; a line longer than
    /// [`MAX_LINE_BYTES`](crate::corpus::MAX_LINE_BYTES) is an error, and is
    /// not held in memory (the input policy, [`crate::corpus`]). Fails only
    /// when `input` cannot be read.
    fn read_each<R, F>(input: R, options: Self::Options, each: F) -> io::Result<()>
    where
        R: io::Read,
        F: FnMut(Result<(usize, &Self), Self::Error>) -> ControlFlow<()>;
    /// Writes the puzzle in `format` (no trailing newline).
    fn write(
        &self,
        out: &mut dyn io::Write,
        format: Format,
        options: &Self::Options,
    ) -> io::Result<()>;
    /// The size of this puzzle.
    fn shape(&self) -> Self::Shape;
    /// The cells in reading order (`0` blank).
    fn cells(&self) -> &[u8];
    /// Makes this a puzzle of `shape` with `cells`, as [`Puzzle::cells`]
    /// gave them for a puzzle of that shape, reusing its buffer.
    fn load(&mut self, shape: Self::Shape, cells: &[u8]);
    /// Checks the puzzle against the rules.
    fn check(&self) -> Self::Verdict;
    /// Whether `solution` solves `puzzle` (a rule check, outside any timed
    /// region).
    fn is_solution_of(solution: &Self, puzzle: &Self) -> bool;
    /// Writes a random symmetry image of `src` (same number of solutions)
    /// into `dst`.
    fn symmetry_image(src: &Self, dst: &mut Self, rng: &mut SplitMix);
    /// The corpus embedded for this kind.
    fn embedded_corpus() -> EmbeddedCorpus;

    /// Writes the puzzle in the 81-character form of the C solver
    /// interface that shared-library solvers implement
    /// (`crate::solvers::foreign`): `'1'`-`'9'` clues and `'.'` blanks, row
    /// by row. False, and `out` unspecified, for a puzzle with no such form
    /// (anything but a 9x9 Sudoku, the default): loaded solvers do not
    /// apply to it.
    fn write_c81(&self, _out: &mut [u8; 81]) -> bool {
        false
    }

    /// Appends the puzzle as a request of the solver line protocol carries
    /// it ([`crate::solvers::process`]): its one-line notation, as
    /// `convert --to line` writes it, then any `key=value` words the
    /// notation needs besides (a Sudoku whose box shape the side alone
    /// does not fix: ` box=RxC`). False, and `out` unspecified, when the
    /// puzzle has no one-word line form (a Sudoku of a side above 61,
    /// written as numbers between spaces): solvers in their own process
    /// do not take it.
    fn write_protocol(&self, out: &mut Vec<u8>) -> bool {
        let start = out.len();
        self.write(out, Format::Line, &Self::Options::default())
            .is_ok()
            && !out[start..].contains(&b' ')
    }

    /// Reads `text`, a solution of `puzzle` in the notation of
    /// [`Puzzle::write_protocol`] (without its keys), into `self`. False,
    /// and `self` unspecified, when `text` is no puzzle of `puzzle`'s size.
    fn read_protocol(&mut self, puzzle: &Self, text: &[u8]) -> bool {
        Self::parse_line(text, Self::Options::default(), self).is_ok()
            && self.cells().len() == puzzle.cells().len()
    }

    /// Reads `text`, a solution of `puzzle` in the form of
    /// [`Puzzle::write_c81`], into `self`. False, and `self` unspecified, when
    /// `text` is not 81 digits `'1'`-`'9'` or the kind has no such form.
    fn read_c81(&mut self, _puzzle: &Self, _text: &[u8; 81]) -> bool {
        false
    }
}

/// What a command line asks of a generator. Each kind takes the settings
/// that apply to it and refuses the others ([`Generate::generator`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateRequest {
    /// The seed: the same seed gives the same puzzles on every platform.
    pub seed: u64,
    /// A box shape, rows x columns.
    pub box_shape: Option<(usize, usize)>,
    /// Stop removing clues at this many clues (0: no floor).
    pub min_clues: usize,
    /// Remove clues in symmetric pairs.
    pub symmetric: bool,
    /// Minimal puzzles: no clue can go without losing uniqueness.
    pub minimal: bool,
    /// Search until a puzzle has at most this many clues.
    pub max_clues: Option<usize>,
    /// Search until a puzzle is of this difficulty class.
    pub difficulty: Option<String>,
    /// Local-search moves allowed per puzzle with a target.
    pub max_steps: Option<u64>,
    /// Node bound of each uniqueness check (0: none).
    pub check_nodes: Option<u64>,
    /// Node bound of the independent verification (0: none).
    pub verify_nodes: Option<u64>,
    /// The output format.
    pub format: Format,
}

impl GenerateRequest {
    /// Nothing asked but the seed.
    pub fn new(seed: u64) -> Self {
        GenerateRequest {
            seed,
            box_shape: None,
            min_clues: 0,
            symmetric: false,
            minimal: false,
            max_clues: None,
            difficulty: None,
            max_steps: None,
            check_nodes: None,
            verify_nodes: None,
            format: Format::Line,
        }
    }
}

/// Why a generator could not be made or could not make a puzzle: one type
/// for every kind. [`GenerateError::is_failure`] tells a refused request
/// from a generator that failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The puzzle is larger than the kind's generator supports.
    #[error("the generator supports sides up to {max}, not {side}")]
    TooLarge {
        /// The side asked for.
        side: usize,
        /// The largest side the generator supports.
        max: usize,
    },
    /// The request sets something the kind does not take.
    #[error("--kind {kind} takes {takes}")]
    Unsupported {
        /// The kind's name.
        kind: &'static str,
        /// What it takes, e.g. `--count, --seed and --out only`.
        takes: &'static str,
    },
    /// Settings that do not go together, or a value out of range: the
    /// message says which and why.
    #[error("{0}")]
    BadOptions(String),
    /// The verifying solver disagreed with the generator: a bug.
    #[error(
        "puzzle {index}: the {verifier} solver found {solutions} solution(s) \
         (expected exactly 1, equal to the generated {filled}{})",
        if *.differs { "; its solution differs" } else { "" }
    )]
    VerifyFailed {
        /// 0-based index of the puzzle in this generator's output.
        index: u64,
        /// The verifying solver's name.
        verifier: &'static str,
        /// What the generator filled: `grid`, `board`.
        filled: &'static str,
        /// Solutions the verifier counted (limit 2).
        solutions: u64,
        /// The verifier's solution differed from the generated one.
        differs: bool,
    },
    /// A puzzle meant to be minimal has a clue that can go, according to
    /// the verifying solver: a bug.
    #[error(
        "puzzle {index}: not minimal: the {verifier} solver finds a unique solution \
         without the clue in cell {cell}"
    )]
    NotMinimal {
        /// 0-based index of the puzzle in this generator's output.
        index: u64,
        /// The verifying solver's name.
        verifier: &'static str,
        /// The clue that is not needed (0-based cell in reading order).
        cell: usize,
    },
    /// The local search gave up on a clue or difficulty target.
    #[error(
        "no puzzle met the target within {steps} local-search steps \
         (best: {best_clues} clues, {best_guesses} singles guesses)"
    )]
    TargetNotReached {
        /// Steps made.
        steps: u64,
        /// Clues of the closest puzzle found.
        best_clues: usize,
        /// `singles` guesses of the closest puzzle found.
        best_guesses: u64,
    },
}

impl GenerateError {
    /// True when a generator that was made could not make a puzzle (a
    /// verification that disagreed, a target not reached); false when the
    /// request was refused.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            GenerateError::VerifyFailed { .. }
                | GenerateError::NotMinimal { .. }
                | GenerateError::TargetNotReached { .. }
        )
    }
}

/// A seeded generator of puzzles with exactly one solution.
pub trait PuzzleGenerator<P>: Send {
    /// Makes the next puzzle and its solution.
    fn next_into(&mut self, puzzle: &mut P, solution: &mut P) -> Result<(), GenerateError>;
    /// The command-line options after `--count N --seed S` that make the
    /// same puzzles again (for the output's `#` header), with a leading
    /// space each.
    fn header_options(&self) -> String;
    /// The format to write puzzles in.
    fn format(&self) -> Format;
    /// Lines for standard error once `count` puzzles were made in
    /// `seconds`.
    fn summary(&self, count: u64, seconds: f64) -> Vec<String>;
}

/// A kind that has a generator.
pub trait Generate: Puzzle {
    /// A generator for `request`, or why the request does not apply.
    fn generator(
        request: &GenerateRequest,
    ) -> Result<Box<dyn PuzzleGenerator<Self>>, GenerateError>;
}

/// Helpers for the kinds' unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use std::io;
    use std::ops::ControlFlow;

    use super::{LineError, Puzzle};

    /// An endless line (`/dev/zero`, `yes 7`) is reported as soon as it is
    /// too long for a puzzle, not when it ends: [`Puzzle::read_each`] hands
    /// out the error of line 1, and stops when asked.
    pub(crate) fn assert_endless_line_is_reported_at_once<P: Puzzle>(options: P::Options) {
        let mut errors = 0;
        P::read_each(io::repeat(b'7'), options, |item| {
            assert_eq!(item.err().map(|e| e.line()), Some(1));
            errors += 1;
            ControlFlow::Break(())
        })
        .unwrap();
        assert_eq!(errors, 1);
    }

    /// An item of [`Puzzle::read_each`] as text: `LINE: N clues`, or the
    /// error.
    pub(crate) fn describe<P: Puzzle>(item: Result<(usize, &P), P::Error>) -> String {
        match item {
            Ok((line, puzzle)) => {
                let clues = puzzle.cells().iter().filter(|&&v| v != 0).count();
                format!("{line}: {clues} clues")
            }
            Err(e) => e.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GenerateError;

    #[test]
    fn generate_errors_say_what_failed_and_which_are_failures() {
        let verify = |filled, differs| GenerateError::VerifyFailed {
            index: 3,
            verifier: "singles",
            filled,
            solutions: 2,
            differs,
        };
        assert_eq!(
            verify("grid", false).to_string(),
            "puzzle 3: the singles solver found 2 solution(s) \
             (expected exactly 1, equal to the generated grid)"
        );
        assert_eq!(
            verify("board", true).to_string(),
            "puzzle 3: the singles solver found 2 solution(s) \
             (expected exactly 1, equal to the generated board; its solution differs)"
        );
        let not_minimal = GenerateError::NotMinimal {
            index: 0,
            verifier: "backtrack",
            cell: 12,
        };
        assert_eq!(
            not_minimal.to_string(),
            "puzzle 0: not minimal: the backtrack solver finds a unique solution \
             without the clue in cell 12"
        );
        let unsupported = GenerateError::Unsupported {
            kind: "hanidoku",
            takes: "--count only",
        };
        assert_eq!(
            unsupported.to_string(),
            "--kind hanidoku takes --count only"
        );
        let too_large = GenerateError::TooLarge { side: 81, max: 64 };
        assert_eq!(
            too_large.to_string(),
            "the generator supports sides up to 64, not 81"
        );
        let target = GenerateError::TargetNotReached {
            steps: 5,
            best_clues: 20,
            best_guesses: 1,
        };
        for (error, failure) in [
            (verify("grid", false), true),
            (not_minimal, true),
            (target, true),
            (unsupported, false),
            (too_large, false),
            (GenerateError::BadOptions("no".into()), false),
        ] {
            assert_eq!(error.is_failure(), failure, "{error}");
        }
    }
}
