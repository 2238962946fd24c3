//! `dlxbench plot`: (re)draw the pictures and `report.html` of result
//! directories from their files ([`dlxbench::plot`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;

use dlxbench::plot;
use dlxbench::report::{schema, thousands};

use super::io::errln;

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Per corpus: latency by percentile (the HdrHistogram plot, from histograms.json), the latency \
distribution, time against search nodes per puzzle (a sample of puzzles.csv: at most 10,000 \
points per corpus, the same puzzles for every solver) and speed relative to the reference. \
Each picture is an SVG file beside report.html, which shows them inline with the run's facts \
and tables: one file that opens offline, in a light or a dark colour scheme. `bench` and \
`merge` draw them too (unless --no-plots); this redraws them for older, merged or copied runs.")]
pub struct Args {
    /// Result directories of `dlxbench bench` or `dlxbench merge`.
    #[arg(value_name = "RESULT_DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Print nothing but errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    for dir in &args.dirs {
        let started = Instant::now();
        let drawn = plot::draw_run(dir)
            .with_context(|| format!("cannot draw the pictures of {}", dir.display()))?;
        if let Some(w) = &drawn.warning {
            errln!("dlxbench: warning: {w}");
        }
        if !args.quiet {
            // A closed standard output: a broken pipe, which main ends
            // quietly (exit 0), where `println!` would abort.
            writeln!(
                std::io::stdout().lock(),
                "{}: {} files ({} rows of {} read, {} points drawn) in {:.2} s",
                dlxbench::terminal::escape_controls(
                    &dir.join(schema::REPORT_HTML).display().to_string()
                ),
                drawn.files.len(),
                thousands(drawn.rows_read),
                schema::PUZZLES_CSV,
                thousands(drawn.points as u64),
                started.elapsed().as_secs_f64()
            )?;
        }
    }
    Ok(ExitCode::from(super::EXIT_OK))
}
