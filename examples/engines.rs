//! Dancing Links against dancing cells on the exact-cover examples, and the
//! size of each engine's arena for every puzzle the harness solves.
//!
//! ```text
//! cargo run --release --example engines               # every instance, 7 rounds
//! cargo run --release --example engines -- --runs 15  # more rounds
//! cargo run --release --example engines -- --quick   # small instances, 3 rounds (the tests)
//! ```
//!
//! Each instance is counted to the end (all its solutions) under two column
//! choices: `lowest` (minimum remaining values, ties to the lowest index),
//! in which both engines explore the same tree (the example checks that
//! their nodes and updates are equal), and each engine's own `mrv`. A round
//! times one search of each engine, alternately `dlx` first and `dc` first;
//! the table gives the median over the rounds of each engine's time and of
//! the ratio dc/dlx within a round (above 1: `dc` slower), with the lowest
//! and highest of those ratios, so that load that comes and goes moves a
//! round's two times together rather than the ratio.

use std::process::ExitCode;
use std::time::Instant;

use dlxbench::exact_cover::puzzles::{langford, pentominoes, queens, CoverPuzzle, PentominoBoard};
use dlxbench::exact_cover::{
    ColumnChoice, Dc, Dlx, Engine, Problem, ProblemError, SearchOptions, SearchStats,
};
use dlxbench::sudoku::BoxShape;

const USAGE: &str = "usage: engines [--runs N] [--quick]";

/// A built arena and one search on it, timed.
fn timed<E: Engine>(arena: &mut E, choice: ColumnChoice) -> (SearchStats, f64) {
    let options = SearchOptions {
        choice,
        ..SearchOptions::default()
    };
    let started = Instant::now();
    let stats = arena.count(options);
    (stats, started.elapsed().as_secs_f64())
}

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Times `runs` rounds of both engines on `problem` under `choice` and
/// prints one row.
fn compare(name: &str, problem: &Problem, choice: ColumnChoice, runs: usize) -> Result<(), String> {
    let err = |e: ProblemError| e.to_string();
    let mut dlx = Dlx::try_new(problem).map_err(err)?;
    let mut dc = Dc::try_new(problem).map_err(err)?;
    let (mut t_dlx, mut t_dc, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut s_dlx, mut s_dc) = (SearchStats::default(), SearchStats::default());
    for round in 0..runs {
        let ((a, ta), (b, tb)) = if round % 2 == 0 {
            let a = timed(&mut dlx, choice);
            (a, timed(&mut dc, choice))
        } else {
            let b = timed(&mut dc, choice);
            (timed(&mut dlx, choice), b)
        };
        if round > 0 && (a != s_dlx || b != s_dc) {
            return Err(format!("{name}: a search's counts changed between rounds"));
        }
        (s_dlx, s_dc) = (a, b);
        t_dlx.push(ta);
        t_dc.push(tb);
        ratios.push(tb / ta);
    }
    if s_dlx.solutions != s_dc.solutions {
        return Err(format!(
            "{name}: dlx found {} solutions, dc {}",
            s_dlx.solutions, s_dc.solutions
        ));
    }
    let same_tree = (s_dlx.nodes, s_dlx.updates) == (s_dc.nodes, s_dc.updates);
    if choice == ColumnChoice::LowestIndex && !same_tree {
        return Err(format!(
            "{name}: not the same tree under the lowest-index choice"
        ));
    }
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(0.0, f64::max);
    let choice_name = match choice {
        ColumnChoice::LowestIndex => "lowest",
        _ => "mrv",
    };
    println!(
        "| {name} | {choice_name} | {} | {} / {} | {} / {} | {} | {:.2} | {:.2} | {:.2} ({lo:.2}-{hi:.2}) |",
        s_dlx.solutions,
        s_dlx.nodes,
        s_dc.nodes,
        s_dlx.updates,
        s_dc.updates,
        s_dc.mems.unwrap_or(0),
        median(&mut t_dlx) * 1e3,
        median(&mut t_dc) * 1e3,
        median(&mut ratios),
    );
    Ok(())
}

fn run(args: &[String]) -> Result<(), String> {
    let mut runs = 7;
    let mut quick = false;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--quick" => quick = true,
            "--runs" => {
                runs = rest
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--runs needs a positive number\n{USAGE}"))?
            }
            _ => return Err(USAGE.to_string()),
        }
    }
    if quick {
        runs = runs.min(3);
    }
    let board = |s: &str| PentominoBoard::parse(s).map_err(|e| e.to_string());
    let mut instances: Vec<(String, CoverPuzzle)> = Vec::new();
    let e = |e: dlxbench::exact_cover::puzzles::PuzzleError| e.to_string();
    let (queens_n, langford_n, boards): (&[usize], &[usize], &[&str]) = if quick {
        (&[6], &[7], &["3x20"])
    } else {
        (&[10, 11, 12], &[11, 12], &["6x10", "5x12", "4x15", "3x20"])
    };
    for &n in queens_n {
        instances.push((format!("queens {n}"), queens(n).map_err(e)?));
    }
    for &n in langford_n {
        instances.push((format!("Langford {n}"), langford(n, true).map_err(e)?));
    }
    for &b in boards {
        let puzzle = pentominoes(&board(b)?, true).map_err(e)?;
        instances.push((format!("pentominoes {b}"), puzzle));
    }
    println!("{runs} rounds a row; times in ms, medians; dc/dlx: the median ratio within a round (lowest-highest)");
    println!();
    println!("| instance | choice | solutions | nodes dlx / dc | updates dlx / dc | mems (dc) | dlx ms | dc ms | dc/dlx |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, puzzle) in &instances {
        for choice in [ColumnChoice::LowestIndex, ColumnChoice::MinimumRemaining] {
            compare(name, &puzzle.problem, choice, runs)?;
        }
    }
    println!();
    println!("| arena | rows | dlx bytes | dc bytes |");
    println!("|---|---|---|---|");
    let mut arenas: Vec<(String, Problem)> = Vec::new();
    for side in [3, 4, 5, 6] {
        let shape = BoxShape::new(side, side).map_err(|e| e.to_string())?;
        let n = side * side;
        arenas.push((format!("Sudoku {n}x{n}"), shape.exact_cover()));
    }
    arenas.push(("Hanidoku".to_string(), dlxbench::hanidoku::exact_cover()));
    for (name, puzzle) in &instances {
        arenas.push((name.clone(), puzzle.problem.clone()));
    }
    for (name, problem) in &arenas {
        let dlx = Dlx::try_new(problem).map_err(|e| e.to_string())?;
        let dc = Dc::try_new(problem).map_err(|e| e.to_string())?;
        println!(
            "| {name} | {} | {} | {} |",
            problem.rows(),
            Engine::heap_bytes(&dlx),
            Engine::heap_bytes(&dc)
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engines: {e}");
            ExitCode::from(2)
        }
    }
}
