//! `dlxbench generate`: seeded random puzzles with unique solutions.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use dlxbench::generate::{GenerateOptions, Generator};
use dlxbench::harness::PuzzleKind;
use dlxbench::sudoku::{self, Alphabet, BoxShape, Format, Grid};

use super::{EXIT_FAILURE, EXIT_OK};

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
    /// Box shape, rows x columns: 2x2 (4x4 grid), 2x3 (6x6), 3x3 (9x9),
    /// 3x4 (12x12), 4x4 (16x16), 5x5 (25x25), ...
    #[arg(long = "box", value_name = "RxC", default_value = "3x3")]
    pub shape: BoxShape,
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
    /// for one puzzle.
    #[arg(long, value_name = "N", default_value_t = dlxbench::generate::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Line)]
    pub format: OutFormat,
    /// Write to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl Args {
    /// The canonical command line for these arguments, written as the
    /// output's `#` header: running it again gives the same bytes.
    fn command_line(&self, seed: u64, options: &GenerateOptions) -> String {
        let mut s = format!(
            "dlxbench generate --count {} --seed {seed} --box {}",
            self.count, self.shape
        );
        if self.min_clues > 0 {
            s += &format!(" --min-clues {}", self.min_clues);
        }
        if self.symmetric {
            s += " --symmetric";
        }
        if self.minimal {
            s += " --minimal";
        }
        if options.max_clues > 0 {
            s += &format!(" --max-clues {}", options.max_clues);
        }
        if let Some(d) = options.difficulty {
            s += &format!(" --difficulty {d}");
        }
        let searches = options.max_clues > 0 || options.difficulty.is_some();
        if searches && options.max_steps != dlxbench::generate::DEFAULT_MAX_STEPS {
            s += &format!(" --max-steps {}", options.max_steps);
        }
        let unbounded = self.minimal || searches;
        let default_check = if unbounded {
            u64::MAX
        } else {
            GenerateOptions::default_check_nodes(self.shape)
        };
        if options.check_nodes != default_check {
            s += &format!(" --check-nodes {}", options.check_nodes);
        }
        if self.format == OutFormat::Numeric {
            s += " --format numeric";
        }
        s
    }
}

/// Writes `grid` in `format` (the standard alphabet), with a trailing newline.
fn write_puzzle(out: &mut impl Write, grid: &Grid, format: OutFormat) -> io::Result<()> {
    let format = match format {
        OutFormat::Line => Format::Line,
        OutFormat::Numeric => Format::Numeric,
    };
    sudoku::write_grid_io(out, grid, format, Alphabet::Standard)?;
    out.write_all(b"\n")
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0);
            nanos ^ u64::from(std::process::id()).rotate_left(32)
        }
    };
    if args.kind == PuzzleKind::Hanidoku {
        if args.shape != BoxShape::NINE
            || args.min_clues > 0
            || args.symmetric
            || args.check_nodes.is_some()
            || args.verify_nodes.is_some()
            || args.format != OutFormat::Line
        {
            anyhow::bail!(
                "--kind hanidoku takes --count, --seed and --out only (its puzzles are minimal)"
            );
        }
        if args.seed.is_none() {
            eprintln!("dlxbench generate: --seed {seed}");
        }
        return super::hanidoku::generate(args.count, seed, args.out.as_ref());
    }
    let mut options = GenerateOptions::new(args.shape);
    options.min_clues = args.min_clues;
    options.symmetric = args.symmetric;
    options.minimal = args.minimal;
    options.max_clues = args.max_clues.unwrap_or(0);
    if args.max_clues == Some(0) {
        anyhow::bail!("--max-clues must be at least 1");
    }
    options.difficulty = args
        .difficulty
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    options.max_steps = args.max_steps;
    if options.minimal || options.has_target() {
        // Only unbounded checks prove that a clue is needed.
        options.check_nodes = u64::MAX;
    }
    if let Some(nodes) = args.check_nodes {
        options.check_nodes = if nodes == 0 { u64::MAX } else { nodes };
    }
    if let Some(nodes) = args.verify_nodes {
        options.verify_nodes = if nodes == 0 { u64::MAX } else { nodes };
    }
    let mut generator = Generator::new(seed, options)?;
    if args.seed.is_none() {
        eprintln!("dlxbench generate: --seed {seed}");
    }
    let header = args.command_line(seed, &options);

    let (mut out, temp): (Box<dyn Write>, Option<PathBuf>) = match &args.out {
        Some(path) => {
            let temp = path.with_extension("generating.tmp");
            let file = fs::File::create(&temp)
                .with_context(|| format!("cannot create {}", temp.display()))?;
            (Box::new(BufWriter::new(file)), Some(temp))
        }
        None => (Box::new(BufWriter::new(io::stdout().lock())), None),
    };
    let started = Instant::now();
    let mut puzzle = Grid::empty(args.shape);
    let mut solution = Grid::empty(args.shape);
    let mut clues = 0u64;
    let mut unverified = 0u64;
    let (mut starts, mut steps) = (0u64, 0u64);
    let result = (|| -> anyhow::Result<()> {
        writeln!(out, "# {header}")?;
        for _ in 0..args.count {
            let stats = generator.next_into(&mut puzzle, &mut solution)?;
            clues += stats.clues as u64;
            unverified += u64::from(stats.unverified);
            starts += u64::from(stats.starts);
            steps += stats.steps;
            write_puzzle(&mut out, &puzzle, args.format)?;
        }
        out.flush()?;
        Ok(())
    })();
    drop(out);
    if let Err(e) = result {
        if let Some(temp) = &temp {
            let _ = fs::remove_file(temp);
        }
        if e.downcast_ref::<dlxbench::generate::GenerateError>()
            .is_some()
        {
            eprintln!("dlxbench generate: {e:#}");
            return Ok(ExitCode::from(EXIT_FAILURE));
        }
        return Err(e);
    }
    if let (Some(temp), Some(path)) = (&temp, &args.out) {
        fs::rename(temp, path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.count > 0 {
        let search = if options.has_target() {
            format!(" ({starts} minimal puzzles from fresh grids, {steps} local-search moves)")
        } else {
            String::new()
        };
        eprintln!(
            "generated {} {}x{} puzzles, {:.1} clues on average, in {:.2} s{search}",
            args.count,
            args.shape.side(),
            args.shape.side(),
            clues as f64 / args.count as f64,
            started.elapsed().as_secs_f64()
        );
    }
    if unverified > 0 {
        eprintln!(
            "{unverified} of {} puzzles not verified by the {} solver within {} nodes \
             (--verify-nodes 0 to wait for it); their uniqueness rests on the DLX checks",
            args.count,
            dlxbench::generate::VERIFIER,
            options.verify_nodes
        );
    }
    Ok(ExitCode::from(EXIT_OK))
}
