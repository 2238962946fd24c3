//! `dlxbench cover`: solve a general exact-cover problem.
//!
//! The input is read by [`Problem::parse`]: a dense 0/1 matrix (one row per
//! line, `secondary: K` first to make the last K columns secondary) or
//! named columns (a header line of names with `|` before the secondary
//! ones, then one row per line listing the names it covers); `#` starts a
//! comment. Each solution is printed as `solution K: rows A B C (lines D E
//! F)`: its rows numbered from 1 in input order, and the input lines they
//! are on (the two differ when there are comments or a header line). For
//! named input each row follows on its own line with its column names.
//! Then a line gives the count and the search statistics, and a last one
//! the time of the search alone (from its start to its end: not reading
//! the input nor building the arena), a node and a mem.
//!
//! The input policy of the puzzle subcommands, for one matrix: a UTF-8
//! byte-order mark at the start and CRLF line ends are fine; an empty input
//! (or only comments) and one that is not text or has a bad line (random
//! bytes) are errors with exit status 2. Unlike a puzzle file, where each
//! puzzle stands alone and a bad one is skipped (exit 1), a matrix is one
//! problem: any bad line makes the whole input unusable.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use dlxbench::budget::Budget;
use dlxbench::exact_cover::{
    ColumnChoice, Dc, Dlx, Engine, EngineKind, NamedProblem, Problem, SearchOptions, TimedSearch,
};
use dlxbench::report::human_ns3;
use dlxbench::terminal::escape_controls;

use super::io::{finish, Input};
use super::{EXIT_FAILURE, EXIT_OK};

/// Arguments of `dlxbench cover`.
#[derive(clap::Args)]
pub struct Args {
    /// Stop after N solutions; 0 (the default) finds them all.
    #[arg(long, default_value_t = 0, value_name = "N")]
    limit: u64,
    /// Branch on the first open column instead of the one with the fewest
    /// rows (for comparing search costs).
    #[arg(long, conflicts_with = "choice")]
    first_column: bool,
    /// The exact-cover engine: `dlx` (Dancing Links) or `dc` (dancing
    /// cells, sparse sets; its summary adds Knuth's mems).
    #[arg(long, default_value = "dlx", value_name = "ENGINE", value_parser = parse_engine)]
    engine: EngineKind,
    /// The column choice: `mrv` (the engine's own, the default), `first`
    /// (as --first-column), `lowest` (fewest rows, ties to the lowest
    /// column: the same tree in both engines), `forced` (fewest rows with
    /// the stack of forced columns and dlx's tie-break: the same tree in
    /// both engines) or `knuth` (the tie-break of Knuth's DLX1 or SSXC, to
    /// compare counts with his programs).
    #[arg(long, value_name = "CHOICE", value_parser = parse_choice)]
    choice: Option<ColumnChoice>,
    /// Only print the summary line, not the solutions.
    #[arg(long, short)]
    quiet: bool,
    /// Matrix file; `-` or nothing for standard input.
    file: Option<PathBuf>,
}

/// Writes one solution: its rows and their input lines, in order, and for
/// named input each row's column names.
fn write_solution(
    out: &mut impl Write,
    number: u64,
    rows: &mut [usize],
    named: &NamedProblem,
    dense: bool,
) -> io::Result<()> {
    rows.sort_unstable();
    write!(out, "solution {number}: rows")?;
    for &row in rows.iter() {
        write!(out, " {}", row + 1)?;
    }
    write!(out, " (lines")?;
    for &row in rows.iter() {
        write!(out, " {}", named.row_lines[row])?;
    }
    writeln!(out, ")")?;
    if !dense {
        for &row in rows.iter() {
            write!(out, "  row {} (line {}):", row + 1, named.row_lines[row])?;
            for column in named.problem.row(row) {
                // Names come from the input: escaped for the terminal.
                write!(out, " {}", escape_controls(&named.column_names[column]))?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

fn parse_engine(s: &str) -> Result<EngineKind, String> {
    s.parse().map_err(|e| format!("{e}"))
}

fn parse_choice(s: &str) -> Result<ColumnChoice, String> {
    match s {
        "mrv" => Ok(ColumnChoice::MinimumRemaining),
        "first" => Ok(ColumnChoice::First),
        "lowest" => Ok(ColumnChoice::LowestIndex),
        "knuth" => Ok(ColumnChoice::Knuth),
        "forced" => Ok(ColumnChoice::Forced),
        _ => Err(format!(
            "unknown choice {s:?} (known: mrv, first, lowest, forced, knuth)"
        )),
    }
}

/// Builds `E`'s arena and runs the search, timed on its own.
fn search_with<E: Engine>(
    problem: &Problem,
    options: SearchOptions,
    visit: impl FnMut(&[usize]) -> ControlFlow<()>,
) -> Result<TimedSearch, dlxbench::exact_cover::ProblemError> {
    Ok(E::try_new(problem)?.timed_search(options, visit))
}

/// The last line: `search 1.23 ms (442 ns/node, 1.74 ns/mem)`.
fn write_time(out: &mut impl Write, timed: &TimedSearch) -> io::Result<()> {
    write!(out, "search {}", human_ns3(timed.time.as_nanos() as f64))?;
    match (timed.ns_per_node(), timed.ns_per_mem()) {
        (Some(node), Some(mem)) => {
            writeln!(out, " ({}/node, {}/mem)", human_ns3(node), human_ns3(mem))
        }
        (Some(node), None) => writeln!(out, " ({}/node)", human_ns3(node)),
        (None, _) => writeln!(out),
    }
}

/// Runs `dlxbench cover`: exits 1 when there is no solution.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (name, bytes) = Input::open(args.file.as_deref())?.read_all()?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        anyhow!("{name}: line {line}: not UTF-8 text")
    })?;
    let named = Problem::parse(&text).with_context(|| name.clone())?;
    // Dense input numbers its columns 1, 2, ...: no names worth printing.
    let dense = named
        .column_names
        .iter()
        .enumerate()
        .all(|(i, n)| *n == (i + 1).to_string());
    let options = SearchOptions {
        limit: if args.limit == 0 {
            u64::MAX
        } else {
            args.limit
        },
        budget: Budget::UNLIMITED,
        choice: match (args.first_column, args.choice) {
            (true, _) => ColumnChoice::First,
            (false, choice) => choice.unwrap_or_default(),
        },
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut written = Ok(());
    let mut number = 0;
    let mut rows = Vec::new();
    let visit = |solution: &[usize]| {
        number += 1;
        if args.quiet {
            return ControlFlow::Continue(());
        }
        rows.clear();
        rows.extend_from_slice(solution);
        written = write_solution(&mut out, number, &mut rows, &named, dense);
        if written.is_ok() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    };
    let timed = match args.engine {
        EngineKind::Dlx => search_with::<Dlx>(&named.problem, options, visit),
        EngineKind::Dc => search_with::<Dc>(&named.problem, options, visit),
    }
    .with_context(|| name.clone())?;
    let stats = timed.stats;
    let result = written.and_then(|()| {
        let count = stats.solutions;
        let more = if count == options.limit {
            " (the limit: there may be more)"
        } else {
            ""
        };
        write!(
            out,
            "{count} solution{}{more}; {} nodes, {} updates",
            if count == 1 { "" } else { "s" },
            stats.nodes,
            stats.updates
        )?;
        match stats.mems {
            Some(mems) => writeln!(out, ", {mems} mems")?,
            None => writeln!(out)?,
        }
        write_time(&mut out, &timed)?;
        out.flush()?;
        Ok(if count == 0 { EXIT_FAILURE } else { EXIT_OK })
    });
    finish(result)
}
