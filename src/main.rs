//! The `dlxbench` command line: a thin front end over the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

/// Batch benchmark harness for Sudoku solvers, built around Dancing Links.
#[derive(Parser)]
#[command(name = "dlxbench", version = version(), about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `dlxbench --version`: the package's version and, when built from a git
/// checkout, the revision `run.json` records (`results/make-baseline`
/// takes a `dlxbench` on PATH only when it is the checkout's).
fn version() -> &'static str {
    static LINE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LINE.get_or_init(|| {
        let version = env!("CARGO_PKG_VERSION");
        match dlxbench::report::run_json::git_revision() {
            Some(revision) => format!("{version} ({revision})"),
            None => version.to_string(),
        }
    })
}

#[derive(Subcommand)]
enum Command {
    /// Benchmark solvers over puzzle corpora: table, CSV, histograms.
    Bench(cli::bench::Args),
    /// Compare two benchmark runs: node counts must match, time ratios with confidence intervals.
    Compare(cli::compare::Args),
    /// Merge the result directories of `bench --shard K/N` runs into one, exactly.
    Merge(cli::merge::Args),
    /// Paired A/B of two solvers in one run: is B slower than A? A time gate for noisy machines.
    Ab(cli::ab::Args),
    /// Two solvers of one run puzzle by puzzle: wins, ties, ratios, the virtual best solver.
    Versus(cli::versus::Args),
    /// The history of runs over commits: add runs, show the figures and steps, a dashboard.
    History(cli::history::Args),
    /// The first commit where a solver's counts or time changed: builds and probes O(log n) commits.
    Bisect(cli::bisect::Args),
    /// Draw the pictures and report.html of result directories, from their files.
    Plot(cli::plot::Args),
    /// Solve puzzles and print their solutions.
    Solve(cli::solve::Args),
    /// Check puzzles or grids against the rules: complete, incomplete or invalid.
    Check(cli::check::Args),
    /// Solve a general exact-cover problem (dense 0/1 matrix or named columns).
    Cover(cli::cover::Args),
    /// List the known public corpora; fetch and verify them.
    Datasets(cli::datasets::Args),
    /// Generate random puzzles with unique solutions from a seed.
    Generate(cli::generate::Args),
    /// Convert puzzles between the one-line, grid and numeric formats.
    Convert(cli::convert::Args),
    /// Rate puzzles: solver costs and a difficulty class per puzzle, as CSV.
    Rate(cli::rate::Args),
    /// The isolated host of a loaded C solver (started by the harness).
    #[cfg(unix)]
    #[command(name = "solver-host", hide = true)]
    SolverHost(cli::host::Args),
    /// The trivial solver that measures the round-trip floor (started by the harness).
    #[cfg(unix)]
    #[command(name = "solver-echo", hide = true)]
    SolverEcho(cli::echo::Args),
}

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|e| {
        let args: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        cli::explain_parse_error(e, &args).exit()
    });
    let result = match cli.command {
        Command::Bench(args) => cli::bench::run(args),
        Command::Compare(args) => cli::compare::run(args),
        Command::Merge(args) => cli::merge::run(args),
        Command::Ab(args) => cli::ab::run(args),
        Command::Versus(args) => cli::versus::run(args),
        Command::History(args) => cli::history::run(args),
        Command::Bisect(args) => cli::bisect::run(args),
        Command::Plot(args) => cli::plot::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::Check(args) => cli::check::run(args),
        Command::Cover(args) => cli::cover::run(args),
        Command::Datasets(args) => cli::datasets::run(args),
        Command::Generate(args) => cli::generate::run(args),
        Command::Convert(args) => cli::convert::run(args),
        Command::Rate(args) => cli::rate::run(args),
        #[cfg(unix)]
        Command::SolverHost(args) => cli::host::run(args),
        #[cfg(unix)]
        Command::SolverEcho(args) => cli::echo::run(args),
    };
    match result {
        Ok(code) => code,
        // `| head`: the reader went away; not a failure.
        Err(e) if cli::io::is_broken_pipe(&e) => cli::EXIT_OK.into(),
        Err(e) => {
            cli::io::errln!("dlxbench: {e:#}");
            cli::EXIT_USAGE.into()
        }
    }
}
