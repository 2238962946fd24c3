//! One module per subcommand. Each has an `Args` (clap) and a
//! `run(Args) -> anyhow::Result<ExitCode>`; errors returned from `run` are
//! printed by `main` and exit with [`EXIT_USAGE`].

pub mod bench;
pub mod check;
pub mod compare;
pub mod convert;
pub mod cover;
pub mod datasets;
pub mod generate;
pub mod hanidoku;
pub mod rate;
pub mod solve;

/// Success.
pub const EXIT_OK: u8 = 0;
/// Some puzzle had no solution or was invalid, or a run found a problem.
pub const EXIT_FAILURE: u8 = 1;
/// Bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;
