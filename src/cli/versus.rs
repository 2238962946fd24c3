//! `dlxbench versus`: two solvers of one run, puzzle by puzzle.

use std::path::PathBuf;
use std::process::ExitCode;

use dlxbench::clobber::Inputs;
use dlxbench::results::Verify;
use dlxbench::versus::{self, render};

use super::compare::FormatArg;

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
RUN is a result directory of `dlxbench bench` with its puzzles.csv. Per corpus: A against B \
puzzle by puzzle (wins, ties, losses; the quantiles of B's time over A's; the puzzles where \
each wins most), and the virtual best solver of all the run's solvers (the fastest solver on \
each puzzle) against the single best. Solved: a solution within budget, or no solution where \
no solver found one; over budget, failed, wrong and not taken count as not solved. \
Exit status: 0 the report was written; 2 unusable input (no puzzles.csv, an unknown solver, \
files that do not match their checksums).")]
pub struct Args {
    /// The run: a result directory.
    #[arg(value_name = "RUN")]
    pub run: PathBuf,
    /// Solver A (the reference of the ratios: B's time over A's).
    #[arg(value_name = "A")]
    pub a: String,
    /// Solver B.
    #[arg(value_name = "B")]
    pub b: String,
    /// The tie band, in percent (`25%`: within a factor 1.25 either way is a tie). Default 25%,
    /// or with --aa the band measured there.
    #[arg(long, value_name = "PCT", value_parser = dlxbench::compare::parse_threshold, conflicts_with = "aa")]
    pub tie: Option<f64>,
    /// A second run of the same code and corpora (an A/A): the tie band is the 95th percentile
    /// of A's per-puzzle time ratio between the two runs.
    #[arg(long, value_name = "RUN2")]
    pub aa: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: FormatArg,
    /// Puzzles listed where each solver wins most.
    #[arg(long, value_name = "N", default_value_t = versus::DEFAULT_EXAMPLES)]
    pub examples: usize,
    /// Write the report to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Read runs whose files do not match the checksums in their run.json.
    #[arg(long)]
    pub accept_modified: bool,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut inputs = Inputs::new();
    super::add_results(&mut inputs, &args.run);
    if let Some(aa) = &args.aa {
        super::add_results(&mut inputs, aa);
    }
    if let Some(path) = &args.out {
        super::check_output(&inputs, "--out", path)?;
    }
    let options = versus::Options {
        tie: args.tie,
        aa: args.aa.clone(),
        examples: args.examples,
        verify: match args.accept_modified {
            true => Verify::AcceptModified,
            false => Verify::Strict,
        },
    };
    let report = versus::versus(&args.run, &args.a, &args.b, &options)?;
    let text = match args.format {
        FormatArg::Table => render::text(&report),
        FormatArg::Markdown => render::markdown(&report),
        FormatArg::Json => super::io::json_text(&render::json(&report))?,
    };
    super::io::write_report(args.out.as_deref(), &text)?;
    Ok(ExitCode::from(super::EXIT_OK))
}
