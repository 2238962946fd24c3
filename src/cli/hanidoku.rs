//! `--kind hanidoku` for `solve`, `check` and `generate`: the same records,
//! summaries and exit codes as for Sudoku, on Hanidoku boards.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use dlxbench::hanidoku::generate::Generator;
use dlxbench::hanidoku::{self, solvers, Board, Puzzles, Verdict};
use dlxbench::solvers::SolverInfo;
use dlxbench::sudoku::{Alphabet, BoxShape, Format};

use super::check::CheckTally;
use super::solve::{budget, finish, read_input, solutions_note, SolveTally};
use super::{EXIT_FAILURE, EXIT_OK};

/// Fails on Sudoku-only options given with `--kind hanidoku`.
pub(crate) fn reject_sudoku_options(
    alphabet: Alphabet,
    shape: Option<BoxShape>,
) -> anyhow::Result<()> {
    if shape.is_some() {
        bail!("--box is for Sudoku; Hanidoku boards have one shape");
    }
    if alphabet != Alphabet::Standard {
        bail!("--alphabet is for Sudoku; Hanidoku uses 1-9 and '.' or '0' for blank");
    }
    Ok(())
}

/// A Hanidoku solver by name.
pub(crate) fn solver_by_name(name: &str) -> anyhow::Result<&'static SolverInfo<Board>> {
    solvers::by_name(name).with_context(|| {
        format!(
            "solver `{name}` does not solve Hanidoku: expected one of {}",
            solvers::names()
        )
    })
}

/// Writes `board` as one record in `format` (line, or grid followed by a
/// blank line).
fn write_board(out: &mut impl Write, board: &Board, format: Format) -> io::Result<()> {
    match format {
        Format::Grid => writeln!(out, "{}\n", board.hexagon()),
        _ => writeln!(out, "{board}"),
    }
}

/// `dlxbench solve --kind hanidoku`.
pub(crate) fn solve(
    solver: &str,
    limit: u64,
    max_nodes: u64,
    format: Format,
    file: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    if format == Format::Numeric {
        bail!("--format numeric is for Sudoku; Hanidoku prints `line` or `grid`");
    }
    let info = solver_by_name(solver)?;
    let (name, text) = read_input(file)?;
    let limit = if limit == 0 { u64::MAX } else { limit };
    let budget = budget(max_nodes);
    let mut solver = (info.make)();
    let mut solution = Board::EMPTY;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut tally = SolveTally::default();
    let result = (|| -> io::Result<u8> {
        for puzzle in Puzzles::new(&text) {
            let (line, board) = match puzzle {
                Ok(p) => p,
                Err(e) => {
                    tally.unreadable();
                    out.flush()?;
                    eprintln!("dlxbench: {name}: {e}");
                    writeln!(out, "# line {}: unreadable", e.line)?;
                    continue;
                }
            };
            let outcome = solver.solve(&board, limit, budget, &mut solution);
            let found = outcome.solutions;
            let gave_up = outcome.budget_exceeded.then_some(max_nodes);
            tally.solved(found, outcome.budget_exceeded);
            if let Some(note) = solutions_note(found, limit, gave_up) {
                writeln!(out, "# line {line}: {note}")?;
            }
            if found > 0 {
                write_board(&mut out, &solution, format)?;
            }
        }
        out.flush()?;
        Ok(tally.finish(&name, " (Hanidoku)", info.name, max_nodes > 0))
    })();
    finish(result)
}

/// `dlxbench check --kind hanidoku`.
pub(crate) fn check(file: Option<&Path>) -> anyhow::Result<ExitCode> {
    let (name, text) = read_input(file)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = (|| -> io::Result<u8> {
        let mut tally = CheckTally::default();
        for puzzle in Puzzles::new(&text) {
            match puzzle {
                Ok((line, board)) => {
                    let verdict = hanidoku::check(&board);
                    tally.verdict(
                        matches!(verdict, Verdict::Complete),
                        matches!(verdict, Verdict::Invalid { .. }),
                    );
                    writeln!(out, "line {line}: {verdict}")?;
                }
                Err(e) => {
                    tally.unreadable();
                    let line = e.line;
                    writeln!(out, "line {line}: unreadable: {}", e.at_line(0))?;
                }
            }
        }
        out.flush()?;
        Ok(tally.finish(&name, " (Hanidoku)"))
    })();
    finish(result)
}

/// `dlxbench generate --kind hanidoku`: `count` minimal unique puzzles from
/// `seed`, one line each after a `#` line holding the command.
pub(crate) fn generate(
    count: u64,
    seed: u64,
    out_path: Option<&PathBuf>,
) -> anyhow::Result<ExitCode> {
    let header = format!("dlxbench generate --kind hanidoku --count {count} --seed {seed}");
    let (mut out, temp): (Box<dyn Write>, Option<PathBuf>) = match out_path {
        Some(path) => {
            let temp = path.with_extension("generating.tmp");
            let file = fs::File::create(&temp)
                .with_context(|| format!("cannot create {}", temp.display()))?;
            (Box::new(BufWriter::new(file)), Some(temp))
        }
        None => (Box::new(BufWriter::new(io::stdout().lock())), None),
    };
    let started = Instant::now();
    let mut generator = Generator::new(seed);
    let (mut puzzle, mut solution) = (Board::EMPTY, Board::EMPTY);
    let mut clues = 0u64;
    let result = (|| -> anyhow::Result<()> {
        writeln!(out, "# {header}")?;
        for _ in 0..count {
            clues += generator.next_into(&mut puzzle, &mut solution)?.clues as u64;
            writeln!(out, "{puzzle}")?;
        }
        out.flush()?;
        Ok(())
    })();
    drop(out);
    if let Err(e) = result {
        if let Some(temp) = &temp {
            let _ = fs::remove_file(temp);
        }
        if e.downcast_ref::<hanidoku::generate::GenerateError>()
            .is_some()
        {
            eprintln!("dlxbench generate: {e:#}");
            return Ok(ExitCode::from(EXIT_FAILURE));
        }
        if e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
        {
            return Ok(ExitCode::from(EXIT_OK));
        }
        return Err(e);
    }
    if let (Some(temp), Some(path)) = (&temp, out_path) {
        fs::rename(temp, path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if count > 0 {
        eprintln!(
            "generated {count} Hanidoku puzzles, {:.1} clues on average, minimal and unique \
             (verified by the backtrack solver), in {:.2} s",
            clues as f64 / count as f64,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::from(EXIT_OK))
}
