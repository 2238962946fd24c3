//! N-queens with the exact-cover library: ranks and files are primary
//! columns, diagonals secondary ones (at most one queen each).
//!
//! ```text
//! cargo run --release --example queens              # n = 1..=12: counts, nodes, updates, time
//! cargo run --release --example queens -- 8         # one board, and its first solution
//! cargo run --release --example queens -- 8 --emit  # the input for `dlxbench cover`
//! cargo run --release --example queens -- --engine dc # on dancing cells (also mems)
//! ```

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use dlxbench::exact_cover::puzzles::{queens, CoverPuzzle};
use dlxbench::exact_cover::{Dc, Dlx, Engine, EngineKind, SearchOptions};

mod common;

const USAGE: &str =
    "usage: queens [N] [--emit] [--engine dlx|dc]   (N in 1..=64; no N: n = 1..=12)";

/// Counts the solutions and prints one line; with `show`, the first
/// solution as a board too (`Q` a queen, `.` an empty square).
fn count<E: Engine>(
    out: &mut impl Write,
    n: usize,
    puzzle: &CoverPuzzle,
    show: bool,
) -> io::Result<()> {
    let mut dlx = E::try_new(&puzzle.problem).map_err(io::Error::other)?;
    let started = Instant::now();
    let stats = dlx.count(SearchOptions::default());
    let elapsed = started.elapsed();
    writeln!(
        out,
        "n = {n:2}: {:6} solutions, {:9} nodes, {:10} updates, {:8.2} ms{}",
        stats.solutions,
        stats.nodes,
        stats.updates,
        elapsed.as_secs_f64() * 1e3,
        common::mems(&stats)
    )?;
    if show {
        let mut board = vec![vec!['.'; n]; n];
        dlx.search(SearchOptions::with_limit(1), |rows| {
            for &row in rows {
                board[row / n][row % n] = 'Q';
            }
            ControlFlow::Break(())
        });
        for rank in board {
            writeln!(out, "{}", rank.into_iter().collect::<String>())?;
        }
    }
    Ok(())
}

fn run(mut args: Vec<String>) -> Result<(), String> {
    let engine = common::take_engine(&mut args)?;
    let emit = args.iter().any(|a| a == "--emit");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--emit").collect();
    let sides: Vec<usize> = match rest.as_slice() {
        [] if !emit => (1..=12).collect(),
        [n] => vec![n
            .parse()
            .map_err(|_| format!("expected a board side, found `{n}`\n{USAGE}"))?],
        _ => return Err(USAGE.to_string()),
    };
    let mut out = io::stdout().lock();
    for &n in &sides {
        let puzzle = queens(n).map_err(|e| e.to_string())?;
        let written = if emit {
            let comment = format!(
                "{n}-queens: ranks r*, files c* primary; diagonals a* (r+c), b* (r-c) secondary\n\
                 made by: cargo run --release --example queens -- {n} --emit"
            );
            out.write_all(puzzle.to_named_text(&comment).as_bytes())
        } else {
            let show = sides.len() == 1;
            match engine {
                EngineKind::Dlx => count::<Dlx>(&mut out, n, &puzzle, show),
                EngineKind::Dc => count::<Dc>(&mut out, n, &puzzle, show),
            }
        };
        match written {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            other => other.map_err(|e| format!("cannot write: {e}"))?,
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("queens: {e}");
            ExitCode::from(2)
        }
    }
}
