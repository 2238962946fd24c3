//! `dlxbench merge`: join the result directories of shards into one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use dlxbench::atomic::AtomicDir;
use dlxbench::clobber::{Clash, Inputs};
use dlxbench::dirlock::{self, DirLock};
use dlxbench::export;
use dlxbench::merge::{self, Options};
use dlxbench::plot;
use dlxbench::report;
use dlxbench::results::{ResultDir, ResultError};
use dlxbench::terminal::escape_lines;

use super::io::errln;

/// The end of `merge --help`.
const AFTER_HELP: &str = "\
The parts must be runs of the same corpora (SHA-256), kind, mode, limit, passes, warm-up, seeds, \
schedule block, solvers, budgets and dlxbench version, each finished (not interrupted), and \
together every shard of one --shard K/N partition once. Counts and sums are added, histograms \
merged exactly (histograms.json), puzzles.csv merged in line order (streaming), every puzzle's \
rows cross-checked again; the other files are written anew. The result is written atomically: \
--out appears complete or not at all. A merged directory can be merged again (see --partial). \
Exit status: 0 ok; 1 solvers disagreed or returned an invalid solution; 2 the parts cannot be \
merged (the message names the difference) or the files cannot be read or written.";

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Result directories of `bench --shard K/N` runs (or of earlier merges), in any order.
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub parts: Vec<PathBuf>,
    /// Directory to write the merged results into. It must not exist or be empty, unless --force.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Replace the results of an earlier run or merge in --out.
    #[arg(long)]
    pub force: bool,
    /// Merge a subset of the shards (to merge with the others later), instead of refusing
    /// missing ones.
    #[arg(long)]
    pub partial: bool,
    /// Print only problems, not the table.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Do not draw the pictures and report.html (`dlxbench plot` draws them later).
    #[arg(long)]
    pub no_plots: bool,
    /// Merge parts whose files do not match the checksums in their run.json (edited, e.g. by a
    /// line-ending conversion), each named in a warning, instead of refusing them.
    #[arg(long)]
    pub accept_modified: bool,
    #[command(flatten)]
    pub export: super::ExportArgs,
}

/// Refuses an `--out` that would lose something: a part or a directory
/// holding one (`inputs`: the parts and their files), a directory with
/// other files, or earlier results without `force`.
fn check_out(out: &Path, inputs: &Inputs, force: bool) -> anyhow::Result<()> {
    match inputs.check_dir(out) {
        Ok(()) => {}
        Err(Clash::Same { .. }) => bail!(
            "--out {}: is one of the parts; write the merge elsewhere",
            out.display()
        ),
        Err(clash) => return Err(clash).with_context(|| format!("--out {}", out.display())),
    }
    if !out.exists() {
        return Ok(());
    }
    // An earlier run's files are those its run.json lists, not any `.svg`.
    let earlier = ResultDir::run_files(out).with_context(|| format!("--out {}", out.display()))?;
    let mut results = 0;
    for entry in std::fs::read_dir(out).with_context(|| format!("--out {}", out.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if earlier.contains(&entry.path()) {
            results += 1;
        } else if name == dirlock::LOCK_FILE {
            // Held by this merge (or a leftover of a run that died).
        } else {
            bail!(
                "--out {}: holds other files than results (e.g. {name}); the merge replaces the \
                 whole directory, so choose another",
                out.display()
            );
        }
    }
    if results > 0 && !force {
        bail!(
            "--out {}: holds the results of an earlier run ({results} files); use --force to \
             replace them, or another directory",
            out.display()
        );
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Nothing written over a part: the parts and their files are inputs.
    let mut inputs = Inputs::new();
    for part in &args.parts {
        super::add_results(&mut inputs, part);
    }
    args.export.targets(&inputs)?;
    // One writer per directory: an --out a run is writing into is refused.
    let _lock = match args.out.is_dir() {
        true => Some(DirLock::acquire(&args.out)?),
        false => None,
    };
    check_out(&args.out, &inputs, args.force)?;
    let started = std::time::Instant::now();
    let dir = AtomicDir::create(&args.out).with_context(|| {
        format!(
            "cannot create a temporary directory for {}",
            args.out.display()
        )
    })?;
    let options = Options {
        partial: args.partial,
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        out_dir: args.out.clone(),
        accept_modified: args.accept_modified,
    };
    let mut merged = merge::merge(&args.parts, dir.path(), &options).map_err(|e| {
        let modified = matches!(e, merge::MergeError::Read(ResultError::Modified { .. }));
        super::modified_hint(e.into(), modified)
    })?;
    for note in &merged.notes {
        errln!("dlxbench: warning: {note}");
    }
    // Drawn inside the temporary directory: the merge appears whole.
    if !args.no_plots {
        let drawn = plot::draw_run(dir.path()).context("cannot draw the pictures")?;
        merged.written.extend(drawn.files);
    }
    merged.written.extend(
        args.export
            .write(&inputs, &export::of_run(&merged.result))?,
    );
    let out = dir
        .commit()
        .with_context(|| format!("cannot move the merge into {}", args.out.display()))?;
    let took = started.elapsed();
    let file = args.out.join(dlxbench::report::schema::PROBLEMS_TXT);
    super::live::print_problems(
        "dlxbench: ",
        &merged.result.discrepancies,
        |more, corpus| {
            format!(
                "dlxbench: ... {more} more in {corpus}, all in {}",
                file.display()
            )
        },
    );
    let failed = merged.result.failed_solves();
    if failed > 0 {
        errln!(
            "dlxbench: the parts have {failed} failed solves (crashed, timeout or protocol-error)"
        );
    }
    if !args.quiet {
        print_summary(args.parts.len(), &merged, took, &out)?;
    }
    if merged.result.discrepancies.is_empty() && failed == 0 {
        Ok(ExitCode::from(super::EXIT_OK))
    } else {
        Ok(ExitCode::from(super::EXIT_FAILURE))
    }
}

/// The merged run's table on standard output, and what was merged of
/// `parts` parts, in `took`, into `out`.
fn print_summary(
    parts: usize,
    merged: &merge::Merge,
    took: std::time::Duration,
    out: &Path,
) -> anyhow::Result<()> {
    let shards = merged.meta.merged.as_ref().map_or(String::new(), |m| {
        format!(
            ", shard{} {} of {}",
            if m.indices.len() == 1 { "" } else { "s" },
            ranges(&m.indices),
            m.shard_count
        )
    });
    // A closed standard output ends the command quietly (main maps
    // the broken pipe to exit 0), where `print!` would abort.
    let mut stdout = std::io::stdout().lock();
    write!(
        stdout,
        "{}",
        escape_lines(&report::table::render_text(
            &merged.result,
            &merged.config,
            &merged.meta
        ))
    )?;
    writeln!(
        stdout,
        "Merged {} part{}{shards}: {} puzzle rows in {:.2} s\nResults: {} ({} files)",
        parts,
        if parts == 1 { "" } else { "s" },
        report::thousands(merged.rows),
        took.as_secs_f64(),
        dlxbench::terminal::escape_controls(&out.display().to_string()),
        merged.written.len()
    )?;
    Ok(())
}

/// `1-4, 6` for `[1, 2, 3, 4, 6]`.
fn ranges(indices: &[u32]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        out.push(match j > i {
            true => format!("{}-{}", indices[i], indices[j]),
            false => indices[i].to_string(),
        });
        i = j + 1;
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranges() {
        assert_eq!(super::ranges(&[1, 2, 3, 4, 6]), "1-4, 6");
        assert_eq!(super::ranges(&[2]), "2");
        assert_eq!(super::ranges(&[1, 3, 4]), "1, 3-4");
    }
}
