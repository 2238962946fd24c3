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
//!
//! The input policy of the puzzle subcommands ([`super::io`]): a UTF-8
//! byte-order mark at the start and CRLF line ends are fine; an input with
//! no readable puzzle (empty, only comments and blank lines, random bytes,
//! puzzles of another kind) is an error, exit status 2, after its records
//! and the summary.

use std::path::PathBuf;
use std::process::ExitCode;

use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::puzzle::{Format, LineError};
use dlxbench::report::describe_budget;
use dlxbench::solvers::{Budget, Failure};

use dlxbench::clobber::Inputs;

use super::io::{errln, finish_input, for_each_puzzle, Input, Output, SolveTally};
use super::lineup::SolverArgs;
use super::{kind_note, PerKind};

/// Arguments of `dlxbench solve`.
#[derive(clap::Args)]
#[command(after_help = super::solvers_help(false))]
pub struct Args {
    /// Puzzle kind: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    kind: PuzzleKind,
    /// Solver to use: one of the kind's solvers (listed below), or one
    /// loaded with --solver-lib.
    #[arg(long, default_value = "dlx")]
    solver: String,
    #[command(flatten)]
    solvers: SolverArgs,
    /// Count solutions up to N: 1 finds one, 2 (the default) also proves it
    /// unique, 0 counts them all.
    #[arg(long, default_value_t = 2, value_name = "N")]
    limit: u64,
    /// Output format: `line`, `grid` or `numeric`.
    #[arg(long, default_value = "line")]
    format: Format,
    /// Puzzle file (one-line, grid or numeric format, mixed freely); `-` or
    /// nothing for standard input.
    file: Option<PathBuf>,
}

/// The note for a puzzle with `found` solutions when counting up to
/// `limit`, or `None` when there is nothing to say beyond the solution.
/// `gave_up` describes the budget when the search ran out of it.
pub(crate) fn solutions_note(found: u64, limit: u64, gave_up: Option<&str>) -> Option<String> {
    match (found, gave_up) {
        (0, Some(budget)) => Some(format!("undecided: no solution within {budget}")),
        (n, Some(budget)) => Some(format!(
            "{n}+ solutions (search stopped at its budget, {budget}); the first:"
        )),
        (0, None) => Some("no solution".to_string()),
        (1, None) => None,
        (n, None) if n >= limit => Some(format!("{n}+ solutions; the first:")),
        (n, None) => Some(format!("{n} solutions; the first:")),
    }
}

/// Runs `dlxbench solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        let options = self.solvers.options::<P>(self.format)?;
        let set = self.solvers.solver_set::<P>(&[])?;
        let entry = set.by_name(&self.solver)?;
        let input = Input::open(self.file.as_deref())?;
        let name = input.name.clone();
        let limit = if self.limit == 0 {
            u64::MAX
        } else {
            self.limit
        };
        // A solver in its own process keeps its deadline (the safety time):
        // a hung one must not hang `solve`.
        let base = match entry.log_file() {
            Some(_) => entry.default_budget(),
            None => Budget::UNLIMITED,
        };
        // A puzzle given up on (its budget ran out) without a solution
        // counts as a failure.
        let budget = self.solvers.budget.budget(base);
        let budget_text = describe_budget(budget);
        let mut solver = entry.make();
        let mut solution = P::blank();
        let mut output = Output::create(None, &Inputs::new())?;
        let out = output.writer();
        let mut tally = SolveTally::default();
        let separator = match self.format {
            Format::Line => "\n",
            Format::Grid | Format::Numeric => "\n\n",
        };
        let written = for_each_puzzle::<P, _>(input, options, |item| {
            let (line, puzzle) = match item {
                Ok(p) => p,
                Err(e) => {
                    tally.unreadable();
                    out.flush()?;
                    errln!("dlxbench: {name}: {e}");
                    return writeln!(out, "# line {}: unreadable", e.line());
                }
            };
            if !solver.accepts(puzzle) {
                tally.not_applicable();
                return writeln!(
                    out,
                    "# line {line}: not applicable: the {} solver does not take this puzzle",
                    entry.name()
                );
            }
            let outcome = solver.solve(puzzle, limit, budget, &mut solution);
            match outcome.failure {
                Some(Failure::Declined) => {
                    tally.not_applicable();
                    return writeln!(
                        out,
                        "# line {line}: not applicable: the {} solver declined this puzzle",
                        entry.name()
                    );
                }
                Some(failure) => {
                    tally.failed();
                    return writeln!(out, "# line {line}: {} ({failure})", outcome.status(limit));
                }
                None => {}
            }
            let found = outcome.solutions;
            let gave_up = outcome.budget_exceeded.then_some(budget_text.as_str());
            tally.solved(found, outcome.budget_exceeded);
            if let Some(note) = solutions_note(found, limit, gave_up) {
                writeln!(out, "# line {line}: {note}")?;
            }
            if found > 0 {
                solution.write(out, self.format, &options)?;
                out.write_all(separator.as_bytes())?;
            }
            Ok(())
        })?;
        let result = written.and_then(|()| output.finish(true)).map(|()| {
            tally.finish(
                &name,
                &kind_note::<P>(),
                entry.name(),
                !budget.is_unlimited(),
            )
        });
        finish_input(&name, tally.counts(), result)
    }
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
            solutions_note(0, 2, Some("10 nodes")).unwrap(),
            "undecided: no solution within 10 nodes"
        );
        assert_eq!(
            solutions_note(1, 2, Some("10 nodes or 1s")).unwrap(),
            "1+ solutions (search stopped at its budget, 10 nodes or 1s); the first:"
        );
    }
}
