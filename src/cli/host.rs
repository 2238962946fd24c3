//! `dlxbench solver-host`: hidden; the isolated host of a loaded C solver
//! (`dlxbench::solvers::host`), started by the harness, speaking the
//! solver line protocol on standard input and output.

use std::process::ExitCode;

use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::solvers::foreign::LibrarySpec;
use dlxbench::solvers::host;
use dlxbench::solvers::process::ring::AnswerRing;

use super::PerKind;

/// Arguments of `dlxbench solver-host`.
#[derive(clap::Args)]
pub struct Args {
    /// Puzzle kind of the requests.
    #[arg(long, default_value = "sudoku")]
    kind: PuzzleKind,
    /// The library and its solver function.
    #[arg(value_name = "PATH:SYMBOL[@FLAGS]")]
    library: LibrarySpec,
    /// Read counts only, never the solution buffer.
    #[arg(long)]
    count_only: bool,
    /// Address-space limit of the host (RLIMIT_AS), set before the library
    /// is loaded.
    #[arg(long, value_name = "SIZE", value_parser = host::parse_size)]
    memory_limit: Option<u64>,
    /// Place the input and solution buffers and pad the heap before the
    /// library is loaded (a pass of a run with a randomised layout).
    #[arg(long, value_name = "input=N,solution=N,heap=N")]
    layout: Option<dlxbench::solvers::layout::Placement>,
    /// Load the library and end (exit 0), or say why it cannot be loaded
    /// (exit 2): answers no requests.
    #[arg(long)]
    check: bool,
}

/// Runs the host until its input ends: exit 0; 1 after an `error` answer;
/// 2 when it cannot start (the reason on standard error, no header).
/// With `--check`, loads the library and ends: 0, or 2 with the reason.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        let mut spec = self.library;
        spec.count_only = self.count_only;
        let placement = self.layout.unwrap_or_default();
        let prepared = host::prepare_placed(self.memory_limit, &placement)?;
        if self.check {
            host::check(prepared, &spec)?;
            return Ok(super::EXIT_OK.into());
        }
        let ring = AnswerRing::from_env()?;
        let stdin = std::io::stdin().lock();
        let stdout = std::io::stdout().lock();
        let served = host::serve::<P>(prepared, &spec, stdin, stdout, ring)?;
        Ok(match served.failed {
            true => super::EXIT_FAILURE,
            false => super::EXIT_OK,
        }
        .into())
    }
}
