//! `dlxbench history`: the history of runs over commits (`add`, `show`,
//! `export`), over [`dlxbench::history`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use dlxbench::clobber::Inputs;
use dlxbench::history::{self, AddOptions, Added, Format};
use dlxbench::results::Verify;

use super::compare::FormatArg;
use super::io::{errln, Output};

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
The history is an SQLite database file (docs/history.md): `add` puts result directories of \
`dlxbench bench` (or `merge`) into it, each run once; `show` prints each corpus x solver's \
figures over commits with the steps found (node counts: any change; time: beyond the runs' \
intervals and the A/A floor) and draws the dashboard; `export` writes the database as CSV or \
JSON.")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Add result directories to the history (created if missing); a run already there is skipped.
    Add(AddArgs),
    /// Each corpus x solver's figures over commits, the steps marked; the dashboard with --html.
    Show(ShowArgs),
    /// The history's runs as CSV or JSON.
    Export(ExportArgs),
}

/// `history add`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each RUN is added in one transaction, whole or not at all, and only once (a run is known by \
its key: the SHA-256 of its start and end times, revision, binary, command line, CPU and file \
checksums in run.json); writers at once wait for each other. Only complete runs are added. \
Exit status: 0 every run added or already there; 2 a run could not be read or added (the \
others are added).")]
pub struct AddArgs {
    /// The history database.
    #[arg(value_name = "DB")]
    pub db: PathBuf,
    /// Result directories of `dlxbench bench` or `merge`.
    #[arg(value_name = "RUN", required = true)]
    pub runs: Vec<PathBuf>,
    /// Also keep each run's per-puzzle rows (its puzzles.csv).
    #[arg(long)]
    pub puzzles: bool,
    /// Add runs whose files do not match the checksums in their run.json.
    #[arg(long)]
    pub accept_modified: bool,
}

/// `history show`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
One point per commit, in the order of each commit's first run. A node-count step is any change \
from one commit to the next; a time step a commit whose 95% interval does not overlap the \
segment before and whose mean is off its level by more than the A/A floor, confirmed by the \
next commit (an unconfirmed one is an outlier). Exit status: 0 shown; 2 unusable input.")]
pub struct ShowArgs {
    /// The history database.
    #[arg(value_name = "DB")]
    pub db: PathBuf,
    /// Output format (md: markdown).
    #[arg(long, value_enum, default_value_t)]
    pub format: FormatArg,
    /// The A/A floor: a time change within this percentage is never a step.
    #[arg(long, value_name = "PCT", value_parser = dlxbench::compare::parse_threshold,
          default_value = "3%")]
    pub floor: f64,
    /// Also write the dashboard to FILE (one offline HTML page).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the report to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `history export` formats.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// One row per run x corpus x solver.
    #[default]
    Csv,
    /// The runs with their figures.
    Json,
}

/// `history export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The history database.
    #[arg(value_name = "DB")]
    pub db: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: ExportFormat,
    /// Write to FILE (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Add(a) => add(a),
        Command::Show(a) => show(a),
        Command::Export(a) => export(a),
    }
}

fn add(args: AddArgs) -> anyhow::Result<ExitCode> {
    let options = AddOptions {
        puzzles: args.puzzles,
        verify: match args.accept_modified {
            true => Verify::AcceptModified,
            false => Verify::Strict,
        },
    };
    let outcomes = history::add_runs(&args.db, &args.runs, &options)?;
    let mut status = super::EXIT_OK;
    for (dir, outcome) in args.runs.iter().zip(outcomes) {
        match outcome {
            Ok(Added::New {
                key,
                summaries,
                puzzles,
            }) => errln!(
                "dlxbench: {}: added (run {}, {summaries} corpus x solver rows, {puzzles} puzzle rows)",
                dir.display(),
                &key[..12]
            ),
            Ok(Added::Already { key }) => errln!(
                "dlxbench: {}: already in the history (run {}): nothing added",
                dir.display(),
                &key[..12]
            ),
            Err(e) => {
                errln!("dlxbench: {e}");
                status = super::EXIT_USAGE;
            }
        }
    }
    Ok(ExitCode::from(status))
}

fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let mut inputs = Inputs::new();
    inputs.add(&args.db);
    if let Some(html) = &args.html {
        super::check_output(&inputs, "--html", html)?;
    }
    let format = match args.format {
        FormatArg::Table => Format::Text,
        FormatArg::Markdown => Format::Markdown,
        FormatArg::Json => Format::Json,
    };
    let text = history::show(&args.db, format, args.floor, args.html.as_deref())?;
    write_out(args.out.as_ref(), &inputs, &text)
}

fn export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let mut inputs = Inputs::new();
    inputs.add(&args.db);
    let text = history::export(&args.db, args.format == ExportFormat::Csv)?;
    write_out(args.out.as_ref(), &inputs, &text)
}

/// `text` to `--out FILE` (atomically) or standard output.
fn write_out(out: Option<&PathBuf>, inputs: &Inputs, text: &str) -> anyhow::Result<ExitCode> {
    let mut output = Output::create(out, inputs)?;
    let text = match out {
        Some(_) => text.to_string(),
        None => dlxbench::terminal::escape_lines(text).into_owned(),
    };
    output
        .writer()
        .write_all(text.as_bytes())
        .context("cannot write the report")?;
    output.finish(true).context("cannot write the report")?;
    Ok(ExitCode::from(super::EXIT_OK))
}
