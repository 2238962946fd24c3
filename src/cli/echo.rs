//! `dlxbench solver-echo`: hidden; the trivial solver the harness measures
//! the round-trip floor with (`dlxbench::solvers::echo`): it answers every
//! request at once, solving nothing.

use std::process::ExitCode;

/// Arguments of `dlxbench solver-echo`: none.
#[derive(clap::Args)]
pub struct Args {}

/// Answers requests until standard input ends: exit 0.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    dlxbench::solvers::echo::serve(std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(super::EXIT_OK.into())
}
