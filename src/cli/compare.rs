//! `dlxbench compare`: regression tracking between two runs of `bench`.

// Duplicates (issue #42): the clap argument structs of the commands are alike in shape
// (`#[arg(long, ...)]` fields) on purpose: each command's own flags and help.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;

use dlxbench::clobber::Inputs;
use dlxbench::compare::{self, render, Metric, Options};
use dlxbench::export;
use dlxbench::plot::compare_page;
use dlxbench::results::{Checksums, ResultError, Verify};

use super::io::errln;

/// `--metric` values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MetricArg {
    /// Time regressions fail too (as `both`).
    Time,
    /// Only changed node or update counts or outcomes fail (the default).
    #[default]
    Nodes,
    /// Algorithm changes and time regressions fail.
    Both,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Aligned tables for the terminal.
    #[default]
    Table,
    /// GitHub Markdown (pull-request comment, CI job summary); also `md`.
    #[value(alias = "md")]
    Markdown,
    /// JSON for machines.
    Json,
}

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
BASELINE and CURRENT are result directories of `dlxbench bench` (or their summary.csv or \
puzzles.csv). Node and link-update counts and outcomes must be identical (they do not depend on \
the machine): a difference is an algorithm change, which fails unless --allow-algorithm-change \
(the same rule as `ab`). Time is the ratio CURRENT/BASELINE of the geometric mean of per-puzzle \
times, with a seeded 95% interval from a bootstrap over blocks of consecutive puzzles; it gates \
only with --metric time|both, a regression only when the whole interval lies above 1 + the \
larger of --threshold and --floor. The interval does not hold the noise between two runs (code \
layout, machine state): measure that floor with `ab --aa` and give it with --floor. \
Exit status: 0 nothing regressed; 1 something did (an algorithm change, or a time regression \
under --metric time|both); 2 unusable input (missing or unreadable files, different modes, \
limits, budgets or corpus checksums).")]
pub struct Args {
    /// The reference run: a result directory, or its summary.csv or puzzles.csv.
    #[arg(value_name = "BASELINE")]
    pub baseline: PathBuf,
    /// The run to check against it.
    #[arg(value_name = "CURRENT")]
    pub current: PathBuf,
    /// Smallest change declared, always in percent, `%` optional: `5%` and `5` are five percent, `0.5` half a percent.
    #[arg(long, value_name = "PCT", default_value = "5%", value_parser = compare::parse_threshold)]
    pub threshold: f64,
    /// What decides the exit status: `nodes` (the default) the deterministic counters only;
    /// `time` or `both` time regressions too. Both are always reported.
    #[arg(long, value_enum, default_value_t)]
    pub metric: MetricArg,
    /// The run-to-run noise floor, in percent (from `dlxbench ab --aa`, or two runs of the same
    /// code): a time verdict needs the whole interval beyond the larger of it and --threshold.
    #[arg(long, value_name = "PCT", value_parser = compare::parse_threshold)]
    pub floor: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: FormatArg,
    /// Report changed node counts but do not fail on them (an intended algorithm change).
    #[arg(long)]
    pub allow_algorithm_change: bool,
    /// Bootstrap resamples.
    #[arg(long, value_name = "N", default_value_t = compare::DEFAULT_RESAMPLES,
          value_parser = clap::value_parser!(u32).range(100..=1_000_000).map(|n| n as usize))]
    pub bootstrap: usize,
    /// Bootstrap seed (the same seed gives the same intervals).
    #[arg(long, value_name = "SEED", default_value_t = compare::DEFAULT_SEED)]
    pub seed: u64,
    /// Changed puzzles listed per corpus x solver.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub examples: usize,
    /// Write the report to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write the comparison as a page with the distribution of per-puzzle ratios.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Read runs whose files do not match the checksums in their run.json (edited, e.g. by a
    /// line-ending conversion), each named in a warning, instead of refusing them.
    #[arg(long)]
    pub accept_modified: bool,
    #[command(flatten)]
    pub export: super::ExportArgs,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // No output over an input: the two sides (a directory and its files,
    // or a file) are inputs.
    let mut inputs = Inputs::new();
    for side in [&args.baseline, &args.current] {
        super::add_results(&mut inputs, side);
    }
    args.export.targets(&inputs)?;
    for (flag, path) in [("--out", &args.out), ("--html", &args.html)] {
        if let Some(path) = path {
            super::check_output(&inputs, flag, path)?;
        }
    }
    let verify = match args.accept_modified {
        true => Verify::AcceptModified,
        false => Verify::Strict,
    };
    let load = |path: &std::path::Path, what: &str| {
        compare::load_with(path, verify).map_err(|e| {
            let modified = matches!(
                e,
                compare::CompareError::Result(ResultError::Modified { .. })
            );
            super::modified_hint(
                anyhow::Error::from(e).context(format!("reading the {what}")),
                modified,
            )
        })
    };
    let baseline = load(&args.baseline, "baseline")?;
    let current = load(&args.current, "current run")?;
    for (name, run) in [("baseline", &baseline), ("current run", &current)] {
        if let (Some(Checksums::Modified(modified)), false) =
            (&run.checksums, run.incomplete.is_some())
        {
            for m in modified {
                errln!(
                    "dlxbench: warning: the {name}, {}: {m}; read anyway, as asked",
                    run.source.display()
                );
            }
        }
        if let Some(w) = &run.incomplete {
            errln!("dlxbench: warning: the {name} is not a complete run: {w}");
        }
    }
    let options = Options {
        threshold: args.threshold,
        metric: match args.metric {
            MetricArg::Time => Metric::Time,
            MetricArg::Nodes => Metric::Nodes,
            MetricArg::Both => Metric::Both,
        },
        allow_algorithm_change: args.allow_algorithm_change,
        floor: args.floor,
        resamples: args.bootstrap,
        seed: args.seed,
        examples: args.examples,
        ..Options::default()
    };
    let comparison = compare::compare(&baseline, &current, &options)?;
    let text = match args.format {
        FormatArg::Table => render::text(&comparison),
        FormatArg::Markdown => render::markdown(&comparison),
        FormatArg::Json => super::io::json_text(&render::json(&comparison))?,
    };
    super::io::write_report(args.out.as_deref(), &text)?;
    if let Some(path) = &args.html {
        compare_page::write(path, &compare_page::comparison(&comparison)?)?;
    }
    args.export
        .write(&inputs, &export::of_comparison(&comparison))?;
    Ok(ExitCode::from(if comparison.failed() {
        super::EXIT_FAILURE
    } else {
        super::EXIT_OK
    }))
}
