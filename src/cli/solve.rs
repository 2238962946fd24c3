//! `dlxbench solve`: solve every puzzle of a file and print the solutions.
//!
//! Standard output stays machine-readable: one record per puzzle, in input
//! order. A record is the solution in the chosen format (grid and numeric
//! records end with a blank line), preceded by a `#` comment line when the
//! puzzle has more than one solution (`# line 7: 2+ solutions; the first:`),
//! or is just a comment line when there is no solution (`# line 7: no
//! solution`), the puzzle could not be read (`# line 7: unreadable`) or the
//! node budget (`--max-nodes`) ran out first (`# line 7: undecided: ...`).
//! `#` lines are skipped when the output is read back, so it can be piped
//! into `dlxbench check`. Errors and a final summary go to standard error.

use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use dlxbench::harness::PuzzleKind;
use dlxbench::solvers::{self, Budget, SolverInfo};
use dlxbench::sudoku::{Alphabet, BoxShape, Format, Grid, ParseOptions, Puzzles};

use super::{EXIT_FAILURE, EXIT_OK};

/// Arguments of `dlxbench solve`.
#[derive(clap::Args)]
pub struct Args {
    /// Puzzle kind: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    kind: PuzzleKind,
    /// Solver to use (see the README's solver list; `dlx` or `backtrack`
    /// for Hanidoku).
    #[arg(
        long,
        default_value = "dlx",
        value_parser = clap::builder::PossibleValuesParser::new(
            solvers::REGISTRY
                .iter()
                .map(|info| clap::builder::PossibleValue::new(info.name))
                .chain(
                    // Hanidoku-only solvers: accepted, listed in the doc line.
                    dlxbench::hanidoku::solvers::REGISTRY
                        .iter()
                        .filter(|info| solvers::by_name(info.name).is_none())
                        .map(|info| clap::builder::PossibleValue::new(info.name).hide(true))
                )
        )
    )]
    solver: String,
    /// Count solutions up to N: 1 finds one, 2 (the default) also proves it
    /// unique, 0 counts them all.
    #[arg(long, default_value_t = 2, value_name = "N")]
    limit: u64,
    /// Give up on a puzzle after N search nodes (0, the default: never).
    /// A puzzle given up on without a solution counts as a failure.
    #[arg(long, default_value_t = 0, value_name = "N")]
    max_nodes: u64,
    /// Output format: `line`, `grid` or `numeric`.
    #[arg(long, default_value = "line")]
    format: Format,
    /// Symbols: `standard` (1-9, A-Z, a-z; `.` or `0` blank) or `zero-based`
    /// (0-9, A-Z; `.` blank), for input and output.
    #[arg(long, default_value = "standard")]
    alphabet: Alphabet,
    /// Box shape ROWSxCOLS for grids whose side alone does not fix it
    /// (e.g. `3x2` for 6x6 grids with boxes 3 rows tall).
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<BoxShape>,
    /// Puzzle file (one-line, grid or numeric format, mixed freely); `-` or
    /// nothing for standard input.
    file: Option<PathBuf>,
}

/// A solver of the registry by name.
pub(crate) fn solver_by_name(name: &str) -> anyhow::Result<&'static SolverInfo> {
    solvers::by_name(name).with_context(|| {
        format!(
            "unknown solver `{name}`: expected one of {}",
            solvers::names()
        )
    })
}

/// The input's name for messages and its bytes: `FILE`, or standard input
/// for `None` and `-`.
pub(crate) fn read_input(file: Option<&Path>) -> anyhow::Result<(String, Vec<u8>)> {
    match file {
        Some(path) if path != Path::new("-") => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Ok((path.display().to_string(), bytes))
        }
        _ => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
            Ok(("<stdin>".to_string(), bytes))
        }
    }
}

/// `1 puzzle`, `2 puzzles`.
pub(crate) fn puzzles(count: usize) -> String {
    match count {
        1 => "1 puzzle".to_string(),
        n => format!("{n} puzzles"),
    }
}

/// Ends a run: a write to a closed pipe (`| head`) is not a failure.
pub(crate) fn finish(result: io::Result<u8>) -> anyhow::Result<ExitCode> {
    match result {
        Ok(code) => Ok(code.into()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(EXIT_OK.into()),
        Err(e) => Err(e).context("cannot write the output"),
    }
}

/// The note for a puzzle with `found` solutions when counting up to
/// `limit`, or `None` when there is nothing to say beyond the solution.
/// `gave_up` is the node budget when the search hit it.
pub(crate) fn solutions_note(found: u64, limit: u64, gave_up: Option<u64>) -> Option<String> {
    match (found, gave_up) {
        (0, Some(nodes)) => Some(format!("undecided: no solution within {nodes} nodes")),
        (n, Some(nodes)) => Some(format!(
            "{n}+ solutions (search stopped at {nodes} nodes); the first:"
        )),
        (0, None) => Some("no solution".to_string()),
        (1, None) => None,
        (n, None) if n >= limit => Some(format!("{n}+ solutions; the first:")),
        (n, None) => Some(format!("{n} solutions; the first:")),
    }
}

/// What `solve` found over a file, for its summary line and exit status;
/// shared by every puzzle kind.
#[derive(Debug, Default)]
pub(crate) struct SolveTally {
    solved: usize,
    multiple: usize,
    none: usize,
    unreadable: usize,
    undecided: usize,
}

impl SolveTally {
    /// Counts a puzzle with `found` solutions; `gave_up` when the node
    /// budget stopped the search.
    pub(crate) fn solved(&mut self, found: u64, gave_up: bool) {
        match (found, gave_up) {
            (0, true) => self.undecided += 1,
            (0, false) => self.none += 1,
            (1, _) => self.solved += 1,
            _ => self.multiple += 1,
        }
    }

    /// Counts a line that did not parse.
    pub(crate) fn unreadable(&mut self) {
        self.unreadable += 1;
    }

    /// Prints the summary line of file `name` (`kind` after the puzzle
    /// count, e.g. ` (Hanidoku)`) and returns the exit status: failure when
    /// a puzzle had no solution, was unreadable or undecided. `bounded`: a
    /// node budget was set, so "undecided" is always shown.
    pub(crate) fn finish(&self, name: &str, kind: &str, solver: &str, bounded: bool) -> u8 {
        let Self {
            solved,
            multiple,
            none,
            unreadable,
            undecided,
        } = *self;
        let undecided_note = if undecided > 0 || bounded {
            format!(", {undecided} undecided")
        } else {
            String::new()
        };
        eprintln!(
            "dlxbench: {name}: {}{kind}: {solved} solved, {multiple} with several solutions, \
             {none} without solution, {unreadable} unreadable{undecided_note} ({solver} solver)",
            puzzles(solved + multiple + none + unreadable + undecided),
        );
        if none + unreadable + undecided > 0 {
            EXIT_FAILURE
        } else {
            EXIT_OK
        }
    }
}

/// The budget for `--max-nodes N` (0: none).
pub(crate) fn budget(max_nodes: u64) -> Budget {
    match max_nodes {
        0 => Budget::UNLIMITED,
        n => Budget::nodes(n),
    }
}

/// Runs `dlxbench solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.kind == PuzzleKind::Hanidoku {
        super::hanidoku::reject_sudoku_options(args.alphabet, args.shape)?;
        return super::hanidoku::solve(
            &args.solver,
            args.limit,
            args.max_nodes,
            args.format,
            args.file.as_deref(),
        );
    }
    let info = solver_by_name(&args.solver)?;
    let (name, text) = read_input(args.file.as_deref())?;
    let options = ParseOptions {
        alphabet: args.alphabet,
        shape: args.shape,
    };
    let limit = if args.limit == 0 {
        u64::MAX
    } else {
        args.limit
    };
    let mut solver = (info.make)();
    let mut solution = Grid::empty(BoxShape::NINE);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let budget = budget(args.max_nodes);
    let mut tally = SolveTally::default();
    let result = (|| -> io::Result<u8> {
        for puzzle in Puzzles::from_bytes(&text, options) {
            let (line, grid) = match puzzle {
                Ok(p) => p,
                Err(e) => {
                    tally.unreadable();
                    out.flush()?;
                    eprintln!("dlxbench: {name}: {e}");
                    writeln!(out, "# line {}: unreadable", e.line)?;
                    continue;
                }
            };
            let outcome = solver.solve(&grid, limit, budget, &mut solution);
            let found = outcome.solutions;
            let gave_up = outcome.budget_exceeded.then_some(args.max_nodes);
            tally.solved(found, outcome.budget_exceeded);
            if let Some(note) = solutions_note(found, limit, gave_up) {
                writeln!(out, "# line {line}: {note}")?;
            }
            if found > 0 {
                let shown = solution.display(args.format, args.alphabet);
                match args.format {
                    Format::Line => writeln!(out, "{shown}")?,
                    Format::Grid | Format::Numeric => writeln!(out, "{shown}\n")?,
                }
            }
        }
        out.flush()?;
        Ok(tally.finish(&name, "", info.name, args.max_nodes > 0))
    })();
    finish(result)
}

#[cfg(test)]
mod tests {
    use super::solutions_note;

    #[test]
    fn notes() {
        assert_eq!(solutions_note(0, 2, None).unwrap(), "no solution");
        assert_eq!(solutions_note(1, 2, None), None);
        assert_eq!(
            solutions_note(2, 2, None).unwrap(),
            "2+ solutions; the first:"
        );
        assert_eq!(
            solutions_note(5, 5, None).unwrap(),
            "5+ solutions; the first:"
        );
        assert_eq!(
            solutions_note(2, u64::MAX, None).unwrap(),
            "2 solutions; the first:"
        );
        assert_eq!(
            solutions_note(0, 2, Some(10)).unwrap(),
            "undecided: no solution within 10 nodes"
        );
        assert_eq!(
            solutions_note(1, 2, Some(10)).unwrap(),
            "1+ solutions (search stopped at 10 nodes); the first:"
        );
    }
}
