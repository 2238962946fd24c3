//! Langford pairings with the exact-cover library: place two copies of
//! each of 1..=n in 2n slots so that the two ks have k slots between them.
//!
//! ```text
//! cargo run --release --example langford               # n = 1..=12, up to reversal
//! cargo run --release --example langford -- 7          # one order, and its first pairing
//! cargo run --release --example langford -- 7 --all    # count a pairing and its reversal apart
//! cargo run --release --example langford -- 7 --emit   # the input for `dlxbench cover`
//! cargo run --release --example langford -- --engine dc # on dancing cells (also mems)
//! ```

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use dlxbench::exact_cover::puzzles::{langford, langford_sequence, CoverPuzzle};
use dlxbench::exact_cover::{Dc, Dlx, Engine, EngineKind, SearchOptions};

mod common;

const USAGE: &str =
    "usage: langford [N] [--all] [--emit] [--engine dlx|dc]   (N in 1..=64; no N: n = 1..=12)";

/// Counts the pairings and prints one line; with `show`, the first one too.
fn count<E: Engine>(
    out: &mut impl Write,
    n: usize,
    puzzle: &CoverPuzzle,
    what: &str,
    show: bool,
) -> io::Result<()> {
    let mut dlx = E::try_new(&puzzle.problem).map_err(io::Error::other)?;
    let started = Instant::now();
    let stats = dlx.count(SearchOptions::default());
    let elapsed = started.elapsed();
    writeln!(
        out,
        "n = {n:2}: {:7} pairings {what}, {:4} rows, {:10} nodes, {:11} updates, {:9.2} ms{}",
        stats.solutions,
        puzzle.problem.rows(),
        stats.nodes,
        stats.updates,
        elapsed.as_secs_f64() * 1e3,
        common::mems(&stats)
    )?;
    if show {
        let mut first = Vec::new();
        dlx.search(SearchOptions::with_limit(1), |rows| {
            first = langford_sequence(puzzle, rows);
            ControlFlow::Break(())
        });
        let text: Vec<String> = first.iter().map(|k| k.to_string()).collect();
        writeln!(out, "first: {}", text.join(" "))?;
    }
    Ok(())
}

fn run(mut args: Vec<String>) -> Result<(), String> {
    let engine = common::take_engine(&mut args)?;
    let all = args.iter().any(|a| a == "--all");
    let emit = args.iter().any(|a| a == "--emit");
    let rest: Vec<&String> = args
        .iter()
        .filter(|a| *a != "--all" && *a != "--emit")
        .collect();
    let orders: Vec<usize> = match rest.as_slice() {
        [] if !emit => (1..=12).collect(),
        [n] if !n.starts_with('-') => vec![n
            .parse()
            .map_err(|_| format!("expected an order, found `{n}`\n{USAGE}"))?],
        _ => return Err(USAGE.to_string()),
    };
    let what = if all { "in all" } else { "up to reversal" };
    let mut out = io::stdout().lock();
    for &n in &orders {
        let puzzle = langford(n, !all).map_err(|e| e.to_string())?;
        let written = if emit {
            let flag = if all { " --all" } else { "" };
            let comment = format!(
                "Langford pairs, n = {n}, {what}: numbers v*, slots s*\n\
                 made by: cargo run --release --example langford -- {n}{flag} --emit"
            );
            out.write_all(puzzle.to_named_text(&comment).as_bytes())
        } else {
            let show = orders.len() == 1;
            match engine {
                EngineKind::Dlx => count::<Dlx>(&mut out, n, &puzzle, what, show),
                EngineKind::Dc => count::<Dc>(&mut out, n, &puzzle, what, show),
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
            eprintln!("langford: {e}");
            ExitCode::from(2)
        }
    }
}
