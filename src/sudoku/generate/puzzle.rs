//! The Sudoku generator behind the generic [`Generate`] trait: the
//! command line's settings turned into [`GenerateOptions`], the canonical
//! header, and the summary.

use super::{GenerateOptions, Generator, DEFAULT_MAX_STEPS, VERIFIER};
use crate::puzzle::{Format, Generate, GenerateError, GenerateRequest, PuzzleGenerator};
use crate::sudoku::{BoxShape, Grid};

/// A Sudoku generator and its running totals.
struct Seeded {
    generator: Generator,
    /// `--box` and the other settings as given, for the header.
    request: GenerateRequest,
    clues: u64,
    starts: u64,
    steps: u64,
    unverified: u64,
}

/// The options for `request`: the defaults of the shape, then what was
/// asked (`0` node bounds mean none).
fn options(request: &GenerateRequest) -> Result<GenerateOptions, GenerateError> {
    let bad = GenerateError::BadOptions;
    let shape = match request.box_shape {
        Some((rows, cols)) => BoxShape::new(rows, cols).map_err(|e| bad(e.to_string()))?,
        None => BoxShape::NINE,
    };
    let mut options = GenerateOptions::new(shape);
    options.min_clues = request.min_clues;
    options.symmetric = request.symmetric;
    options.minimal = request.minimal;
    options.max_clues = match request.max_clues {
        Some(0) => return Err(bad("--max-clues must be at least 1".into())),
        Some(k) => k,
        None => 0,
    };
    options.difficulty = request
        .difficulty
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(bad)?;
    options.max_steps = request.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    if options.minimal || options.has_target() {
        // Only unbounded checks prove that a clue is needed.
        options.check_nodes = u64::MAX;
    }
    let unbounded = |nodes| if nodes == 0 { u64::MAX } else { nodes };
    if let Some(nodes) = request.check_nodes {
        options.check_nodes = unbounded(nodes);
    }
    if let Some(nodes) = request.verify_nodes {
        options.verify_nodes = unbounded(nodes);
    }
    Ok(options)
}

impl Seeded {
    fn options(&self) -> &GenerateOptions {
        self.generator.options()
    }
}

impl PuzzleGenerator<Grid> for Seeded {
    fn next_into(&mut self, puzzle: &mut Grid, solution: &mut Grid) -> Result<(), GenerateError> {
        let stats = self.generator.next_into(puzzle, solution)?;
        self.clues += stats.clues as u64;
        self.starts += u64::from(stats.starts);
        self.steps += stats.steps;
        self.unverified += u64::from(stats.unverified);
        Ok(())
    }

    /// ` --box 3x3` and every setting that differs from its default, in a
    /// fixed order: running the header again gives the same bytes.
    fn header_options(&self) -> String {
        let options = self.options();
        let mut s = format!(" --box {}", options.shape);
        if options.min_clues > 0 {
            s += &format!(" --min-clues {}", options.min_clues);
        }
        if options.symmetric {
            s += " --symmetric";
        }
        if options.minimal {
            s += " --minimal";
        }
        if options.max_clues > 0 {
            s += &format!(" --max-clues {}", options.max_clues);
        }
        if let Some(d) = options.difficulty {
            s += &format!(" --difficulty {d}");
        }
        let searches = options.has_target();
        if searches && options.max_steps != DEFAULT_MAX_STEPS {
            s += &format!(" --max-steps {}", options.max_steps);
        }
        let default_check = if options.minimal || searches {
            u64::MAX
        } else {
            GenerateOptions::default_check_nodes(options.shape)
        };
        if options.check_nodes != default_check {
            s += &format!(" --check-nodes {}", options.check_nodes);
        }
        if self.request.format == Format::Numeric {
            s += " --format numeric";
        }
        s
    }

    fn format(&self) -> Format {
        self.request.format
    }

    fn summary(&self, count: u64, seconds: f64) -> Vec<String> {
        let options = self.options();
        let mut lines = Vec::new();
        if count > 0 {
            let search = if options.has_target() {
                format!(
                    " ({} minimal puzzles from fresh grids, {} local-search moves)",
                    self.starts, self.steps
                )
            } else {
                String::new()
            };
            let side = options.shape.side();
            lines.push(format!(
                "generated {count} {side}x{side} puzzles, {:.1} clues on average, in \
                 {seconds:.2} s{search}",
                self.clues as f64 / count as f64,
            ));
        }
        if self.unverified > 0 {
            lines.push(format!(
                "{} of {count} puzzles not verified by the {VERIFIER} solver within {} nodes \
                 (--verify-nodes 0 to wait for it); their uniqueness rests on the DLX checks",
                self.unverified, options.verify_nodes
            ));
        }
        lines
    }
}

impl Generate for Grid {
    fn generator(
        request: &GenerateRequest,
    ) -> Result<Box<dyn PuzzleGenerator<Grid>>, GenerateError> {
        let options = options(request)?;
        let generator = Generator::new(request.seed, options)?;
        Ok(Box::new(Seeded {
            generator,
            request: request.clone(),
            clues: 0,
            starts: 0,
            steps: 0,
            unverified: 0,
        }))
    }
}
