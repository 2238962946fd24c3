//! Pentomino tilings with the exact-cover library: twelve piece columns and
//! sixty cell columns, one row per placement of a piece.
//!
//! ```text
//! cargo run --release --example pentominoes                    # 6x10 and 3x20, reduced and in all
//! cargo run --release --example pentominoes -- 5x12            # one board (RxC or 8x8-hole)
//! cargo run --release --example pentominoes -- 6x10 --all      # without the symmetry reduction
//! cargo run --release --example pentominoes -- 3x20 --emit     # the input for `dlxbench cover`
//! cargo run --release --example pentominoes -- --engine dc      # on dancing cells (also mems)
//! ```
//!
//! The reduction keeps one piece (X on 6x10, F on 3x20) in one placement
//! out of each set of placements the board's symmetries map onto each
//! other, so every tiling counted stands for exactly as many tilings as the
//! board has symmetries.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Instant;

use dlxbench::exact_cover::puzzles::{pentominoes, symmetry_piece, PentominoBoard, PENTOMINOES};
use dlxbench::exact_cover::{Dc, Dlx, Engine, EngineKind, SearchOptions};

mod common;

const USAGE: &str =
    "usage: pentominoes [RxC | 8x8-hole] [--all] [--emit] [--engine dlx|dc]   (no board: 6x10 and 3x20)";

/// Counts the tilings of `board` and prints one line; with `show`, the
/// first tiling too, as a picture of piece letters.
fn count(
    out: &mut impl Write,
    engine: EngineKind,
    board: &PentominoBoard,
    reduce: bool,
    show: bool,
) -> Result<(), String> {
    match engine {
        EngineKind::Dlx => count_with::<Dlx>(out, board, reduce, show),
        EngineKind::Dc => count_with::<Dc>(out, board, reduce, show),
    }
}

/// [`count`] on engine `E`.
fn count_with<E: Engine>(
    out: &mut impl Write,
    board: &PentominoBoard,
    reduce: bool,
    show: bool,
) -> Result<(), String> {
    let puzzle = pentominoes(board, reduce).map_err(|e| e.to_string())?;
    let mut dlx = E::try_new(&puzzle.problem).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let stats = dlx.count(SearchOptions::default());
    let elapsed = started.elapsed();
    let what = if reduce {
        format!(
            "up to symmetry ({} symmetries, {} restricted)",
            board.symmetries().len(),
            symmetry_piece(board)
        )
    } else {
        "in all".to_string()
    };
    let mut text = format!(
        "{board}: {} tilings {what}; {} rows, {} nodes, {} updates, {:.1} ms{}\n",
        stats.solutions,
        puzzle.problem.rows(),
        stats.nodes,
        stats.updates,
        elapsed.as_secs_f64() * 1e3,
        common::mems(&stats)
    );
    if show {
        let open: Vec<(usize, usize)> = (0..board.height())
            .flat_map(|r| (0..board.width()).map(move |c| (r, c)))
            .filter(|&(r, c)| board.is_open(r as i32, c as i32))
            .collect();
        let mut picture = vec![vec![' '; board.width()]; board.height()];
        dlx.search(SearchOptions::with_limit(1), |rows| {
            for &row in rows {
                let mut columns = puzzle.problem.row(row);
                let piece = PENTOMINOES[columns.next().unwrap_or(0)].0;
                for column in columns {
                    let (r, c) = open[column - PENTOMINOES.len()];
                    picture[r][c] = piece;
                }
            }
            ControlFlow::Break(())
        });
        for line in picture {
            text.extend(line);
            text.push('\n');
        }
    }
    write_out(out, &text)
}

/// Writes `text`; a closed pipe (`| head`) is not an error.
fn write_out(out: &mut impl Write, text: &str) -> Result<(), String> {
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(format!("cannot write: {e}")),
        _ => Ok(()),
    }
}

fn run(mut args: Vec<String>) -> Result<(), String> {
    let engine = common::take_engine(&mut args)?;
    let all = args.iter().any(|a| a == "--all");
    let emit = args.iter().any(|a| a == "--emit");
    let rest: Vec<&String> = args
        .iter()
        .filter(|a| *a != "--all" && *a != "--emit")
        .collect();
    let mut out = io::stdout().lock();
    let spec = match rest.as_slice() {
        [] if !emit => {
            for spec in ["6x10", "3x20"] {
                let board = PentominoBoard::parse(spec).map_err(|e| e.to_string())?;
                count(&mut out, engine, &board, true, false)?;
                count(&mut out, engine, &board, false, false)?;
            }
            return Ok(());
        }
        [spec] if !spec.starts_with('-') => spec,
        _ => return Err(USAGE.to_string()),
    };
    let board = PentominoBoard::parse(spec).map_err(|e| format!("{e}\n{USAGE}"))?;
    if !emit {
        return count(&mut out, engine, &board, !all, true);
    }
    let puzzle = pentominoes(&board, !all).map_err(|e| e.to_string())?;
    let (what, flag) = if all {
        ("in all".to_string(), " --all")
    } else {
        (
            format!("up to symmetry ({} restricted)", symmetry_piece(&board)),
            "",
        )
    };
    let comment = format!(
        "pentominoes on the {board} board, {what}: pieces F..Z, cells rRcC\n\
         made by: cargo run --release --example pentominoes -- {board}{flag} --emit"
    );
    write_out(&mut out, &puzzle.to_named_text(&comment))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pentominoes: {e}");
            ExitCode::from(2)
        }
    }
}
