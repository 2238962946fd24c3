//! `dlxbench generate`: seeded random puzzles with unique solutions, for
//! every puzzle kind.

// Duplicates (issue #42): the clap argument structs of the commands are alike in shape
// (`#[arg(long, ...)]` fields) on purpose: each command's own flags and help.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::puzzle::{Format, GenerateError, GenerateRequest};
use dlxbench::sudoku::BoxShape;

use dlxbench::clobber::Inputs;

use super::io::{errln, is_broken_pipe, Output};
use super::{PerKind, EXIT_FAILURE, EXIT_OK};

/// Output formats of generated puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormat {
    /// One puzzle per line: `n*n` symbols (`1-9`, then `A-Z`), `.` for blank.
    Line,
    /// Per puzzle: a box-shape line, then `n` lines of `n` numbers, `0` blank.
    Numeric,
}

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Puzzle kind: `sudoku` or `hanidoku` (minimal unique puzzles; only
    /// --count, --seed and --out apply).
    #[arg(long, default_value = "sudoku")]
    pub kind: PuzzleKind,
    /// Number of puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Seed of the random stream (ChaCha8): the same seed gives the same
    /// puzzles on every platform. Without it a seed is taken from the clock
    /// and printed to stderr.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Box shape, rows x columns: 2x2 (4x4 grid), 2x3 (6x6), 3x3 (9x9, the
    /// default), 3x4 (12x12), 4x4 (16x16), 5x5 (25x25), ...
    #[arg(long = "box", value_name = "RxC")]
    pub shape: Option<BoxShape>,
    /// Stop removing clues at this many clues (the puzzle may keep more when
    /// no further clue can go without losing uniqueness).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub min_clues: usize,
    /// Remove clues in pairs symmetric under a 180-degree rotation.
    #[arg(long)]
    pub symmetric: bool,
    /// Require a unique solution. This is always the case (clues are only
    /// removed while the solution stays unique); the flag is accepted so
    /// scripts can say so.
    #[arg(long)]
    pub unique: bool,
    /// Node bound of each uniqueness check; a check that hits it keeps its
    /// clue, so puzzles stay unique but may not be minimal. Default: none
    /// up to 12x12, 1000 above.
    #[arg(long, value_name = "N")]
    pub check_nodes: Option<u64>,
    /// Node bound of the independent verification by the `singles`
    /// solver (0: none). Default: none up to 12x12, 10000000 above; puzzles
    /// whose verification runs out are reported as unverified.
    #[arg(long, value_name = "N")]
    pub verify_nodes: Option<u64>,
    /// Minimal puzzles: removing any one clue leaves several solutions
    /// (checked again by the `singles` solver). Uniqueness checks are then
    /// unbounded on every size.
    #[arg(long)]
    pub minimal: bool,
    /// Keep searching until the puzzle has at most K clues (a local search
    /// over minimal puzzles; sides up to 12).
    #[arg(long, value_name = "K")]
    pub max_clues: Option<usize>,
    /// Keep searching until the puzzle is of this class (9x9 only; the
    /// classes of `dlxbench rate`, by the singles solver's guesses).
    #[arg(long, value_name = "CLASS", value_parser = ["easy", "medium", "hard", "extreme"])]
    pub difficulty: Option<String>,
    /// With --max-clues or --difficulty: fail after N local-search moves
    /// for one puzzle (default: 10000000).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Line)]
    pub format: OutFormat,
    /// Write to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl Args {
    /// What the arguments ask of the generator.
    fn request(&self, seed: u64) -> GenerateRequest {
        GenerateRequest {
            seed,
            box_shape: self.shape.map(|s| (s.box_rows(), s.box_cols())),
            min_clues: self.min_clues,
            symmetric: self.symmetric,
            minimal: self.minimal,
            max_clues: self.max_clues,
            difficulty: self.difficulty.clone(),
            max_steps: self.max_steps,
            check_nodes: self.check_nodes,
            verify_nodes: self.verify_nodes,
            format: match self.format {
                OutFormat::Line => Format::Line,
                OutFormat::Numeric => Format::Numeric,
            },
        }
    }
}

/// A seed from the clock and the process, when none is given.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        let seed = self.seed.unwrap_or_else(fresh_seed);
        let mut generator = P::generator(&self.request(seed))?;
        if self.seed.is_none() {
            errln!("dlxbench generate: --seed {seed}");
        }
        let kind = match self.kind == PuzzleKind::default() {
            true => String::new(),
            false => format!(" --kind {}", P::NAME),
        };
        let header = format!(
            "dlxbench generate{kind} --count {} --seed {seed}{}",
            self.count,
            generator.header_options()
        );
        let mut output = Output::create(self.out.as_ref(), &Inputs::new())?;
        let started = Instant::now();
        let (mut puzzle, mut solution) = (P::blank(), P::blank());
        let format = generator.format();
        let options = P::Options::default();
        // A write error names where it went.
        let target = match &self.out {
            Some(path) => format!("cannot write {}", path.display()),
            None => "cannot write the output".to_string(),
        };
        let write_error = |e: std::io::Error| anyhow::Error::new(e).context(target.clone());
        let result = (|| -> anyhow::Result<()> {
            let out = output.writer();
            writeln!(out, "# {header}").map_err(write_error)?;
            for _ in 0..self.count {
                generator.next_into(&mut puzzle, &mut solution)?;
                puzzle
                    .write(out, format, &options)
                    .and_then(|()| out.write_all(b"\n"))
                    .map_err(write_error)?;
            }
            Ok(())
        })();
        // Nothing is kept of a file whose puzzles did not all come out.
        let result = result.and_then(|()| output.finish(true).map_err(write_error));
        match result {
            Ok(()) => {}
            Err(e) if is_broken_pipe(&e) => return Ok(ExitCode::from(EXIT_OK)),
            Err(e) => match e.downcast_ref::<GenerateError>() {
                Some(failed) if failed.is_failure() => {
                    errln!("dlxbench generate: {e:#}");
                    return Ok(ExitCode::from(EXIT_FAILURE));
                }
                _ => return Err(e),
            },
        }
        for line in generator.summary(self.count, started.elapsed().as_secs_f64()) {
            errln!("{line}");
        }
        Ok(ExitCode::from(EXIT_OK))
    }
}
