//! `dlxbench check`: one verdict per puzzle.
//!
//! Standard output has one line per puzzle, `line N: VERDICT`, where the
//! verdict is `complete`, `incomplete (K blanks)`, `invalid: row 3 repeats
//! 7` or `unreadable: column C: MESSAGE`. A summary goes to standard error.
//!
//! The input policy of the puzzle subcommands ([`super::io`]): a UTF-8
//! byte-order mark at the start and CRLF line ends are fine; an input with
//! no readable puzzle (empty, only comments and blank lines, random bytes,
//! puzzles of another kind) is an error, exit status 2, after its verdicts
//! and the summary.

use std::path::PathBuf;
use std::process::ExitCode;

use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::puzzle::{Format, LineError, RuleVerdict};

use dlxbench::clobber::Inputs;

use super::io::{finish_input, for_each_puzzle, CheckTally, Input, Output};
use super::{kind_note, NotationArgs, PerKind};

/// Arguments of `dlxbench check`.
#[derive(clap::Args)]
pub struct Args {
    /// Puzzle kind: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    kind: PuzzleKind,
    #[command(flatten)]
    notation: NotationArgs,
    /// Puzzle file (one-line, grid or numeric format); `-` or nothing for
    /// standard input.
    file: Option<PathBuf>,
}

/// Runs `dlxbench check`: exits 1 when any puzzle is invalid or unreadable.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        let options = P::options(&self.notation.notation(Format::Line))?;
        let input = Input::open(self.file.as_deref())?;
        let name = input.name.clone();
        let mut output = Output::create(None, &Inputs::new())?;
        let out = output.writer();
        let mut tally = CheckTally::default();
        let written = for_each_puzzle::<P, _>(input, options, |item| match item {
            Ok((line, puzzle)) => {
                let verdict = puzzle.check();
                tally.verdict(verdict.is_complete(), verdict.is_invalid());
                writeln!(out, "line {line}: {verdict}")
            }
            Err(e) => {
                tally.unreadable();
                // The message goes to standard output, with the line in
                // front rather than inside it.
                let line = e.line();
                writeln!(out, "line {line}: unreadable: {}", e.at_line(0))
            }
        })?;
        let result = written
            .and_then(|()| output.finish(true))
            .map(|()| tally.finish(&name, &kind_note::<P>()));
        finish_input(&name, tally.counts(), result)
    }
}
