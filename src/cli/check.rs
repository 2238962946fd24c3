//! `dlxbench check`: one verdict per puzzle.
//!
//! Standard output has one line per puzzle, `line N: VERDICT`, where the
//! verdict is `complete`, `incomplete (K blanks)`, `invalid: row 3 repeats
//! 7` or `unreadable: column C: MESSAGE`. A summary goes to standard error.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use dlxbench::harness::PuzzleKind;
use dlxbench::sudoku::{self, Alphabet, BoxShape, GridError, ParseOptions, Puzzles, Verdict};

use super::solve::{finish, read_input};
use super::{EXIT_FAILURE, EXIT_OK};

/// Arguments of `dlxbench check`.
#[derive(clap::Args)]
pub struct Args {
    /// Puzzle kind: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    kind: PuzzleKind,
    /// Symbols: `standard` (1-9, A-Z, a-z; `.` or `0` blank) or `zero-based`
    /// (0-9, A-Z; `.` blank).
    #[arg(long, default_value = "standard")]
    alphabet: Alphabet,
    /// Box shape ROWSxCOLS for grids whose side alone does not fix it.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// Puzzle file (one-line, grid or numeric format); `-` or nothing for
    /// standard input.
    file: Option<PathBuf>,
}

/// Runs `dlxbench check`: exits 1 when any puzzle is invalid or unreadable.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.kind == PuzzleKind::Hanidoku {
        super::hanidoku::reject_sudoku_options(args.alphabet, args.shape)?;
        return super::hanidoku::check(args.file.as_deref());
    }
    let (name, text) = read_input(args.file.as_deref())?;
    let options = ParseOptions {
        alphabet: args.alphabet,
        shape: args.shape,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = (|| -> io::Result<u8> {
        let mut tally = CheckTally::default();
        for puzzle in Puzzles::from_bytes(&text, options) {
            match puzzle {
                Ok((line, grid)) => {
                    let verdict = sudoku::check(&grid);
                    tally.verdict(
                        matches!(verdict, Verdict::Complete),
                        matches!(verdict, Verdict::Invalid { .. }),
                    );
                    writeln!(out, "line {line}: {verdict}")?;
                }
                Err(e) => {
                    tally.unreadable();
                    // The message is on standard output already.
                    let line = e.line;
                    let at = GridError { line: 0, ..e };
                    writeln!(out, "line {line}: unreadable: {at}")?;
                }
            }
        }
        out.flush()?;
        Ok(tally.finish(&name, ""))
    })();
    finish(result)
}

/// What `check` found over a file, for its summary line and exit status;
/// shared by every puzzle kind.
#[derive(Debug, Default)]
pub(crate) struct CheckTally {
    complete: usize,
    incomplete: usize,
    invalid: usize,
    unreadable: usize,
}

impl CheckTally {
    /// Counts a verdict: complete, invalid, or (neither) incomplete.
    pub(crate) fn verdict(&mut self, complete: bool, invalid: bool) {
        match (complete, invalid) {
            (true, _) => self.complete += 1,
            (false, true) => self.invalid += 1,
            (false, false) => self.incomplete += 1,
        }
    }

    /// Counts a line that did not parse.
    pub(crate) fn unreadable(&mut self) {
        self.unreadable += 1;
    }

    /// Prints the summary line of file `name` (`kind` after the puzzle
    /// count) and returns the exit status: failure when a puzzle was invalid
    /// or unreadable.
    pub(crate) fn finish(&self, name: &str, kind: &str) -> u8 {
        let Self {
            complete,
            incomplete,
            invalid,
            unreadable,
        } = *self;
        eprintln!(
            "dlxbench: {name}: {}{kind}: {complete} complete, {incomplete} incomplete, \
             {invalid} invalid, {unreadable} unreadable",
            super::solve::puzzles(complete + incomplete + invalid + unreadable)
        );
        if invalid + unreadable > 0 {
            EXIT_FAILURE
        } else {
            EXIT_OK
        }
    }
}
