//! `dlxbench rate`: per-puzzle solver costs and a difficulty class, as CSV.
//!
//! One CSV row per readable puzzle, in input order:
//! `line,side,clues,status,dlx_nodes,dlx_guesses,dlx_updates,singles_nodes,
//! singles_guesses,naive_nodes,naive_finished,difficulty`. `status` is
//! `unique`, `multiple`, `none` or `budget` (the Dancing Links count, up to
//! 2); the naive columns are empty with `--naive-nodes 0`; `difficulty` is
//! empty unless the puzzle has exactly one solution. The classes and their
//! thresholds are in [`dlxbench::sudoku::rate`]. Puzzles are rated in batches on
//! all cores; unreadable ones are reported on standard error with their
//! line and skipped (exit status 1).
//!
//! The input policy of the puzzle subcommands ([`super::io`]): a UTF-8
//! byte-order mark at the start and CRLF line ends are fine; an input with
//! no readable puzzle (empty, only comments and blank lines, random bytes)
//! is an error, exit status 2, after the messages and the summary, and
//! nothing is written, not even the header. The input is opened (a
//! directory refused) before anything is written.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use dlxbench::budget::Budget;
use dlxbench::sudoku::rate::{Difficulty, ParallelRater, Rating};
use dlxbench::sudoku::{Alphabet, BoxShape, Grid, ParseOptions, PuzzleReader};
use hdrhistogram::Histogram;

use super::io::{errln, finish, inputs_of, puzzles, Counts, Input, Output};
use super::{BudgetArgs, EXIT_FAILURE, EXIT_OK};

/// Puzzles rated per parallel batch.
const BATCH: usize = 2048;

/// The CSV header.
pub const HEADER: &str = "line,side,clues,status,dlx_nodes,dlx_guesses,dlx_updates,\
singles_nodes,singles_guesses,naive_nodes,naive_finished,difficulty";

/// Arguments of `dlxbench rate`.
#[derive(clap::Args)]
pub struct Args {
    /// Node budget of the naive solver per puzzle; 0 skips it.
    #[arg(long, default_value_t = 100_000, value_name = "N")]
    naive_nodes: u64,
    /// Budget of the Dancing Links and singles searches per puzzle (its
    /// time bound also applies to naive). A puzzle that exhausts it gets
    /// status `budget` and no difficulty.
    #[command(flatten)]
    budget: BudgetArgs,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Symbols: `standard` (1-9, A-Z, a-z; `.` or `0` blank) or
    /// `zero-based` (0-9, A-Z; `.` blank).
    #[arg(long, default_value = "standard")]
    alphabet: Alphabet,
    /// Box shape ROWSxCOLS for grids whose side alone does not fix it.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// Write the CSV to FILE (atomically) instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Puzzle file (any format); `-` or nothing for standard input.
    file: Option<PathBuf>,
}

/// A count for the CSV: empty when not recorded.
fn count(n: Option<u64>) -> String {
    n.map_or_else(String::new, |n| n.to_string())
}

/// Writes one CSV row.
fn write_row(out: &mut dyn Write, line: usize, grid: &Grid, r: &Rating) -> io::Result<()> {
    let status = r.dlx.status(2);
    write!(
        out,
        "{line},{},{},{status},{},{},{},{},{},",
        grid.side(),
        r.clues,
        count(r.dlx.nodes),
        r.dlx.guesses,
        count(r.dlx.updates),
        count(r.singles.nodes),
        r.singles.guesses
    )?;
    if let Some(naive) = r.naive {
        write!(out, "{},{}", count(naive.nodes), !naive.budget_exceeded)?;
    } else {
        write!(out, ",")?;
    }
    match r.difficulty {
        Some(d) => writeln!(out, ",{d}"),
        None => writeln!(out, ","),
    }
}

/// Distributions of the unique puzzles' costs, for the summary.
struct Spread {
    guesses: Histogram<u64>,
    nodes: Histogram<u64>,
}

impl Spread {
    fn new() -> Self {
        let make = || Histogram::new_with_bounds(1, 1 << 50, 3).expect("valid histogram bounds");
        Spread {
            guesses: make(),
            nodes: make(),
        }
    }

    fn record(&mut self, r: &Rating) {
        if r.difficulty.is_some() {
            self.guesses.saturating_record(r.singles.guesses);
            if let Some(nodes) = r.dlx.nodes {
                self.nodes.saturating_record(nodes);
            }
        }
    }

    /// `p10 0, p25 1, ..., max 34` (values to 3 significant figures).
    fn line(h: &Histogram<u64>) -> String {
        let mut parts: Vec<String> = [10.0, 25.0, 50.0, 75.0, 90.0, 99.0]
            .iter()
            .map(|&p| format!("p{p} {}", h.value_at_quantile(p / 100.0)))
            .collect();
        parts.push(format!("max {}", h.max()));
        parts.join(", ")
    }
}

/// The batch being filled: grids (reused) and their lines.
struct Batch {
    grids: Vec<Grid>,
    lines: Vec<usize>,
    len: usize,
    ratings: Vec<Rating>,
    /// Whether the CSV header is written: with the first rows, so that an
    /// input without a puzzle writes nothing.
    header: bool,
}

impl Batch {
    /// Rates the batch and writes its rows (after the header, the first
    /// time); counts the classes.
    fn flush(
        &mut self,
        rater: &ParallelRater,
        out: &mut dyn Write,
        classes: &mut [u64; 5],
        spread: &mut Spread,
    ) -> io::Result<()> {
        if !self.header {
            writeln!(out, "{HEADER}")?;
            self.header = true;
        }
        rater.rate_all(&self.grids[..self.len], &mut self.ratings);
        for ((grid, &line), rating) in self.grids.iter().zip(&self.lines).zip(&self.ratings) {
            classes[rating.difficulty.map_or(4, |d| d as usize)] += 1;
            spread.record(rating);
            write_row(out, line, grid, rating)?;
        }
        self.len = 0;
        self.lines.clear();
        Ok(())
    }
}

/// The closing lines on standard error: the puzzles of input `name` rated
/// per class, the unreadable ones, the time and threads, and the spread of
/// the unique puzzles' guesses and nodes.
fn tell_summary(
    name: &str,
    classes: &[u64; 5],
    spread: &Spread,
    unreadable: u64,
    seconds: f64,
    threads: usize,
) {
    let rated: u64 = classes.iter().sum();
    let class_counts: Vec<String> = Difficulty::ALL
        .iter()
        .map(|d| format!("{} {d}", classes[*d as usize]))
        .collect();
    errln!(
        "dlxbench: {name}: {} rated ({}, {} not unique or undecided), {} unreadable, \
         in {seconds:.2} s on {} threads",
        puzzles(rated as usize),
        class_counts.join(", "),
        classes[4],
        unreadable,
        threads
    );
    if !spread.guesses.is_empty() {
        errln!(
            "  unique puzzles: singles guesses {}\n                  dlx nodes       {}",
            Spread::line(&spread.guesses),
            Spread::line(&spread.nodes)
        );
    }
}

/// Runs `dlxbench rate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let rater = ParallelRater::new(
        args.threads.unwrap_or(0),
        (args.naive_nodes > 0).then_some(args.naive_nodes),
        args.budget.budget(Budget::UNLIMITED),
    )?;
    let Input {
        name,
        reader: input,
    } = Input::open(args.file.as_deref())?;
    let mut output = Output::create(args.out.as_ref(), &inputs_of(args.file.as_deref()))?;
    let out = output.writer();
    let options = ParseOptions {
        alphabet: args.alphabet,
        shape: args.shape,
    };
    let started = Instant::now();
    let mut batch = Batch {
        grids: Vec::new(),
        lines: Vec::with_capacity(BATCH),
        len: 0,
        ratings: Vec::with_capacity(BATCH),
        header: false,
    };
    let mut classes = [0u64; 5]; // easy, medium, hard, extreme, unclassified
    let mut spread = Spread::new();
    let mut counts = Counts::default();
    let mut written = Ok(());
    let read = PuzzleReader::new(input, options).for_each(|item| {
        match item {
            Ok((line, grid)) => {
                counts.read += 1;
                if batch.len == batch.grids.len() {
                    batch.grids.push(grid.clone());
                } else {
                    batch.grids[batch.len].copy_from(grid);
                }
                batch.lines.push(line);
                batch.len += 1;
                if batch.len == BATCH && written.is_ok() {
                    written = batch.flush(&rater, out, &mut classes, &mut spread);
                }
            }
            Err(e) => {
                counts.unreadable += 1;
                errln!("dlxbench: {name}: {e}");
            }
        }
        if written.is_err() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    read.with_context(|| format!("cannot read {name}"))?;
    // The input policy, for an input read to its end: nothing readable,
    // nothing written (not even the header, nor an `--out` file).
    let refusal = match written.is_ok() {
        true => counts.check(&name).err(),
        false => None,
    };
    let result = written
        .and_then(|()| match refusal {
            None => batch.flush(&rater, out, &mut classes, &mut spread),
            Some(_) => Ok(()),
        })
        .and_then(|()| output.finish(refusal.is_none()));
    if let (Err(e), Some(path)) = (&result, &args.out) {
        bail!("cannot write {}: {e}", path.display());
    }
    let seconds = started.elapsed().as_secs_f64();
    tell_summary(
        &name,
        &classes,
        &spread,
        counts.unreadable,
        seconds,
        rater.threads(),
    );
    if let Some(e) = refusal {
        return Err(e);
    }
    finish(result.map(|()| match counts.unreadable {
        0 => EXIT_OK,
        _ => EXIT_FAILURE,
    }))
}
