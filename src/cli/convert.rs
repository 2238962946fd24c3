//! `dlxbench convert`: rewrite puzzles in another format.
//!
//! Reads puzzles in any mix of the input formats (one-line, pasted grids,
//! numeric blocks; see [`Puzzles`](dlxbench::sudoku::Puzzles)) and writes
//! each in the chosen format: `line` (one puzzle per line), `grid` (rows
//! with box separators, a blank line after each puzzle) or `numeric` (a
//! box-shape line, then rows of numbers, a blank line after each puzzle).
//! The input is streamed ([`PuzzleReader`]) and the output buffered, so
//! memory stays constant on corpora of millions of lines. A puzzle that
//! cannot be read is reported on standard error with its line and skipped
//! (exit status 1); `--strict` stops at the first one.
//!
//! The input policy of the puzzle subcommands ([`super::io`]): a UTF-8
//! byte-order mark at the start and CRLF line ends are fine; an input with
//! no readable puzzle (empty, only comments and blank lines, random bytes)
//! is an error, exit status 2, after the messages and the summary, and no
//! `--out` file is written. (`--strict` stops at the first unreadable
//! puzzle: exit 1, whatever follows it.)

use std::fmt;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use dlxbench::sudoku::{Alphabet, BoxShape, Format, Grid, ParseOptions, PuzzleReader};

use super::io::{errln, finish, inputs_of, puzzles, Counts, Input, Output};
use super::{EXIT_FAILURE, EXIT_OK};

/// Arguments of `dlxbench convert`.
#[derive(clap::Args)]
pub struct Args {
    /// Output format: `line`, `grid` (with box separators) or `numeric`.
    #[arg(long, default_value = "line")]
    to: Format,
    /// Character for an empty cell in the line and grid formats: `.` or
    /// `0` (`0` only with the standard output alphabet). Lines of numbers
    /// (sides above 61) and the numeric format always write `0`.
    #[arg(long, default_value = ".", value_parser = ["." , "0"])]
    blank: String,
    /// Input symbols: `standard` (1-9, A-Z, a-z; `.` or `0` blank) or
    /// `zero-based` (0-9, A-Z; `.` blank).
    #[arg(long, default_value = "standard")]
    alphabet: Alphabet,
    /// Output symbols (default: the input alphabet).
    #[arg(long, value_name = "ALPHABET")]
    to_alphabet: Option<Alphabet>,
    /// Box shape ROWSxCOLS for grids whose side alone does not fix it.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// Stop at the first puzzle that cannot be read (nothing is written to
    /// `--out` then).
    #[arg(long)]
    strict: bool,
    /// Write to FILE (atomically: complete or not at all) instead of
    /// standard output.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Puzzle file; `-` or nothing for standard input.
    file: Option<PathBuf>,
}

/// Writes one puzzle and its record separator.
fn write_one(
    out: &mut dyn Write,
    grid: &Grid,
    format: Format,
    alphabet: Alphabet,
    blank: char,
    line: &mut Vec<u8>,
) -> io::Result<()> {
    let n = grid.side();
    if format == Format::Line && n <= alphabet.max_side() {
        // The common case, byte by byte without the formatting machinery.
        line.clear();
        line.extend(grid.cells().iter().map(|&v| match v {
            0 => blank as u8,
            v => alphabet.symbol(v).map_or(b'?', |c| c as u8),
        }));
        line.push(b'\n');
        return out.write_all(line);
    }
    // Formatted into a reused buffer first: one write per puzzle instead of
    // one per character.
    let mut text = String::from_utf8(std::mem::take(line)).unwrap_or_default();
    text.clear();
    let shown = grid.display(format, alphabet).with_blank(blank);
    let end = match format {
        Format::Line => "\n",
        Format::Grid | Format::Numeric => "\n\n",
    };
    fmt::Write::write_fmt(&mut text, format_args!("{shown}{end}"))
        .map_err(|_| io::Error::other("formatting failed"))?;
    let result = out.write_all(text.as_bytes());
    *line = text.into_bytes();
    result
}

/// Runs `dlxbench convert`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let to_alphabet = args.to_alphabet.unwrap_or(args.alphabet);
    let blank = if args.blank == "0" { '0' } else { '.' };
    if blank == '0' && to_alphabet == Alphabet::ZeroBased {
        bail!("--blank 0 cannot be read back with the zero-based alphabet, where 0 is a symbol");
    }
    let Input {
        name,
        reader: input,
    } = Input::open(args.file.as_deref())?;
    let mut output = Output::create(args.out.as_ref(), &inputs_of(args.file.as_deref()))?;
    let options = ParseOptions {
        alphabet: args.alphabet,
        shape: args.shape,
    };
    let started = Instant::now();
    let (mut converted, mut bad) = (0u64, 0u64);
    let mut written: io::Result<()> = Ok(());
    let mut scratch = Vec::new();
    let read = PuzzleReader::new(input, options).for_each(|item| match item {
        Ok((_, grid)) => {
            written = write_one(
                output.writer(),
                grid,
                args.to,
                to_alphabet,
                blank,
                &mut scratch,
            );
            converted += 1;
            if written.is_err() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
        Err(e) => {
            bad += 1;
            errln!("dlxbench: {name}: {e}");
            if args.strict {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    });
    read.with_context(|| format!("cannot read {name}"))?;
    let stopped = args.strict && bad > 0;
    // The input policy, for an input read to its end: with nothing to
    // convert, no `--out` file either.
    let counts = Counts {
        read: converted,
        unreadable: bad,
    };
    let refusal = match !stopped && written.is_ok() {
        true => counts.check(&name).err(),
        false => None,
    };
    let result = written.and_then(|()| output.finish(!stopped && refusal.is_none()));
    if let (Err(e), Some(path)) = (&result, &args.out) {
        bail!("cannot write {}: {e}", path.display());
    }
    let seconds = started.elapsed().as_secs_f64();
    let note = if stopped { " (stopped: --strict)" } else { "" };
    errln!(
        "dlxbench: {name}: {} converted, {bad} unreadable{note}, in {seconds:.3} s \
         ({:.0} puzzles/s)",
        puzzles(converted as usize),
        converted as f64 / seconds.max(1e-9)
    );
    if let Some(e) = refusal {
        return Err(e);
    }
    finish(result.map(|()| if bad > 0 { EXIT_FAILURE } else { EXIT_OK }))
}
