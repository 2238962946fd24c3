//! `dlxbench datasets`: list the known corpora, fetch and verify them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use dlxbench::datasets::{self, Corpus, Downloader, Fetched, Presence, CATALOGUE};

use super::io::errln;
use super::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE};

/// Arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Fetch corpora into the datasets directory: download them from their
    /// public sources, rebuild derived ones from their source corpora, or copy
    /// them from a mirror with --from; each SHA-256 is verified before the
    /// file is moved into place.
    Fetch(FetchArgs),
    /// List the known corpora: size, kind, where each can be had from
    /// (`download`: a public URL; `derived:NAME`: rebuilt from corpus NAME;
    /// `mirror-only`: no public source, copy it from a mirror with --from),
    /// whether present and verified.
    List(ListArgs),
}

#[derive(Debug, clap::Args)]
struct FetchArgs {
    /// Corpora to fetch (names from `datasets list`); default: all.
    names: Vec<String>,
    /// Copy from this local mirror directory instead of downloading
    /// (e.g. `../shared/datasets`).
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    /// The datasets directory.
    #[arg(long, value_name = "DIR", default_value = "datasets")]
    dir: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ListArgs {
    /// The datasets directory.
    #[arg(long, value_name = "DIR", default_value = "datasets")]
    dir: PathBuf,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Fetch(args) => fetch(args),
        Command::List(args) => list(&args.dir),
    }
}

fn fetch(args: FetchArgs) -> anyhow::Result<ExitCode> {
    let mut chosen: Vec<&'static Corpus> = Vec::new();
    for name in &args.names {
        match datasets::by_name(name) {
            Some(c) if !chosen.contains(&c) => chosen.push(c),
            Some(_) => {}
            None => anyhow::bail!("unknown corpus `{name}`; known: {}", datasets::names()),
        }
    }
    if args.names.is_empty() {
        chosen.extend(CATALOGUE);
    }
    if let Some(from) = &args.from {
        if !from.is_dir() {
            anyhow::bail!("--from {}: not a directory", from.display());
        }
        // Copying a directory onto itself: nothing to gain, a file to lose.
        let mut inputs = dlxbench::clobber::Inputs::new();
        inputs.add(from);
        super::check_output(&inputs, "--dir", &args.dir)?;
    }
    let width = chosen.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let mut out = std::io::stdout().lock();
    let mut downloader = Downloader::new(&args.dir);
    let mut failed = 0;
    for corpus in &chosen {
        let result = match &args.from {
            Some(from) => datasets::install_from_dir(corpus, from, &args.dir),
            None => downloader.download(corpus, &args.dir),
        };
        let name = corpus.name;
        match result {
            Ok(Fetched::Installed { replaced: false }) => writeln!(out, "{name:width$}  fetched")?,
            Ok(Fetched::Installed { replaced: true }) => writeln!(
                out,
                "{name:width$}  fetched (replaced a file with a bad checksum)"
            )?,
            Ok(Fetched::UpToDate) => writeln!(out, "{name:width$}  up to date")?,
            Err(e) => {
                failed += 1;
                writeln!(out, "{name:width$}  failed: {e}")?;
            }
        }
    }
    if failed > 0 {
        errln!(
            "dlxbench datasets fetch: {failed} of {} corpora failed{}",
            chosen.len(),
            if args.from.is_none() {
                "; corpora without a public source (`mirror-only` in `datasets list`), or on a \
                 machine without internet access, can be copied from a mirror with --from DIR"
            } else {
                ""
            }
        );
        return Ok(ExitCode::from(EXIT_FAILURE));
    }
    Ok(ExitCode::from(EXIT_OK))
}

fn list(dir: &Path) -> anyhow::Result<ExitCode> {
    let width = CATALOGUE.iter().map(|c| c.name.len()).max().unwrap_or(0);
    let sources: Vec<String> = CATALOGUE.iter().map(|c| c.origin.label()).collect();
    let source_width = sources.iter().map(String::len).max().unwrap_or(0);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:width$}  {:>11}  {:>7}  {:14}  {:source_width$}  {:7}  checksum",
        "name", "grid", "puzzles", "kind", "source", "present"
    )?;
    let mut code = EXIT_OK;
    for (c, source) in CATALOGUE.iter().zip(&sources) {
        let (present, checksum) = match datasets::presence(c, dir) {
            Ok(Presence::Missing) => ("no", "-".to_string()),
            Ok(Presence::Verified) => ("yes", "ok".to_string()),
            Ok(Presence::BadChecksum) => {
                code = EXIT_FAILURE;
                ("yes", "MISMATCH".to_string())
            }
            Err(e) => {
                code = EXIT_USAGE;
                ("?", format!("unreadable: {e}"))
            }
        };
        writeln!(
            out,
            "{:width$}  {:>11}  {:>7}  {:14}  {source:source_width$}  {:7}  {checksum}",
            c.name,
            c.grid,
            c.puzzles,
            c.kind.as_str(),
            present
        )?;
    }
    Ok(ExitCode::from(code))
}
