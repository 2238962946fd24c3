//! `dlxbench bench`: run solvers over corpora, print a table, write results.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};

use dlxbench::atomic::AtomicDir;
use dlxbench::corpus::{self, Corpus};
use dlxbench::export;
use dlxbench::harness::{self, Config, Lineup, Mode, RecordSink};
use dlxbench::kinds::{Kind, PuzzleKind};
use dlxbench::plot;
use dlxbench::puzzle::{Format, Puzzle};
use dlxbench::report::{self, puzzles_csv::PuzzlesCsv, RunMeta};
use dlxbench::shard::Shard;

use super::live::{self, Live};
use super::{NotationArgs, PerKind};

/// `--mode` values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// Stop at the first solution.
    First,
    /// Stop at the second solution, proving uniqueness (the default).
    #[default]
    Unique,
    /// Count all solutions, up to --limit.
    Count,
}

impl ModeArg {
    /// The harness's mode and solution limit, `limit` being `--limit`
    /// (for `count` only; none: no cap).
    pub(crate) fn with_limit(self, limit: Option<u64>) -> anyhow::Result<(Mode, u64)> {
        let (mode, limit) = match (self, limit) {
            (ModeArg::First, None) => (Mode::First, 1),
            (ModeArg::Unique, None) => (Mode::Unique, 2),
            (ModeArg::Count, limit) => (Mode::Count, limit.unwrap_or(u64::MAX)),
            (_, Some(_)) => bail!("--limit applies to --mode count only"),
        };
        if limit == 0 {
            bail!("--limit must be at least 1");
        }
        Ok((mode, limit))
    }
}

/// The end of `bench --help`, before the solvers.
const AFTER_HELP: &str = "\
With no CORPUS, runs the standard set that is fetched under ./datasets (top1465, the 17-clue list, \
the forum's hardest 1106; --all: every fetched corpus of the kind), or a small corpus embedded in \
the binary when there is none. Each corpus's table is printed, and its result files written, as \
it ends; Ctrl-C stops after the chunks in flight and keeps everything (a second Ctrl-C quits at \
once). Exit status: 0 ok; 1 solvers disagreed or returned an invalid solution (or, with --strict, \
malformed lines or unexpected unsolvable puzzles); 2 bad usage, unreadable input or result files \
that could not be written; 130 interrupted.";

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = format!("{AFTER_HELP}\n\n{}", super::solvers_help(true)))]
pub struct Args {
    /// Corpus files (one puzzle per line), directories (every *.txt in them of the kind) or `-` for
    /// standard input.
    #[arg(value_name = "CORPUS")]
    pub corpora: Vec<PathBuf>,
    /// Puzzle kind of the corpora: `sudoku` or `hanidoku` (61-symbol lines).
    #[arg(long, default_value = "sudoku")]
    pub kind: PuzzleKind,
    /// With no CORPUS: every fetched corpus of the kind under ./datasets, not only the standard set.
    #[arg(long, conflicts_with = "corpora")]
    pub all: bool,
    /// Solvers to run, comma-separated (default: all of the kind's, listed below, and every
    /// --solver-lib).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub solvers: Option<Vec<String>>,
    #[command(flatten)]
    pub solver_libs: super::SolverLibArgs,
    /// Loaded solvers (--solver-lib names) that return counts but no solution when asked for
    /// more than one (tdoku's fastest, with --mode unique): their counts are cross-checked,
    /// their solutions not read.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub count_only: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// How many solutions to look for.
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
    /// Solution cap for --mode count (default: no cap).
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    #[command(flatten)]
    pub budget: super::BudgetArgs,
    /// Solve the first N puzzles of each corpus untimed (validated) on every worker before measuring.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub warmup: usize,
    /// Run each chunk of the corpus K times and keep, per puzzle, the minimum time.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub passes: u32,
    /// Shuffle the puzzle order reproducibly (chunk order and order within chunks).
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// Replace each puzzle by a random symmetry image (Sudoku: relabel, permute bands/stacks, rows/columns,
    /// transpose; Hanidoku: the hexagon's rotations and reflections, and digits reversed).
    #[arg(long, value_name = "SEED")]
    pub permute: Option<u64>,
    /// Puzzles each solver solves in a row before the next solver takes the same ones (the
    /// first solver rotating from block to block); a block after another solver's starts with
    /// one untimed solve of its last puzzle. The default isolates the solvers' timings from
    /// each other; 1 solves each puzzle with every solver back to back.
    #[arg(long, value_name = "N", default_value_t = harness::Schedule::DEFAULT_BLOCK as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub block: u64,
    /// Run one part of every corpus: `K/N` is shard K of N (numbered from 1), line n going to
    /// shard ((n - 1) mod N) + 1; `dlxbench merge` joins the shards' result directories. `auto`
    /// reads the index from a Slurm job array (SLURM_ARRAY_TASK_ID and the array's size),
    /// `auto/N` also from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0).
    #[arg(long, value_name = "K/N|auto|auto/N")]
    pub shard: Option<String>,
    /// Solver that relative speeds are quoted against.
    #[arg(long, value_name = "SOLVER", default_value = "dlx")]
    pub reference: String,
    /// Output directory (default: results/<corpus-or-run-name>-<timestamp>). A directory
    /// holding an earlier run's results is refused unless --force.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace the results of an earlier run in --out (its result files are removed first, so
    /// the directory holds one run's files only).
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Write the results to results/NAME instead, atomically: into a temporary directory, swapped
    /// into place (replacing any previous results/NAME) only when the run succeeds.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["out", "parse_only"])]
    pub save_baseline: Option<String>,
    /// Do not write puzzles.csv.
    #[arg(long)]
    pub no_per_puzzle: bool,
    /// Do not draw the pictures and report.html (`dlxbench plot` draws them later).
    #[arg(long)]
    pub no_plots: bool,
    #[command(flatten)]
    pub export: super::ExportArgs,
    /// Fail (exit 1) on malformed lines and on unsolvable puzzles in corpora not marked ALLOWZERO.
    #[arg(long)]
    pub strict: bool,
    /// No progress bar and no table; problems and warnings still go to standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub notation: NotationArgs,
    /// Only find and parse the puzzles (no solver), print the reader's throughput, write nothing.
    #[arg(long, conflicts_with_all = ["solvers", "out", "reference"])]
    pub parse_only: bool,
}

/// Whether `path` is a catalogued corpus of another kind than `P`.
fn of_other_kind<P: Puzzle>(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str());
    dlxbench::datasets::CATALOGUE
        .iter()
        .any(|c| Some(c.file) == name && c.puzzle_kind() != P::NAME)
}

/// Whether `path` is a corpus of the standard set
/// ([`dlxbench::datasets::STANDARD_SET`]).
fn is_standard(path: &Path) -> bool {
    let name = path.file_stem().and_then(|n| n.to_str());
    dlxbench::datasets::STANDARD_SET
        .iter()
        .any(|s| Some(*s) == name)
}

/// Opens the corpora named on the command line (directories give their
/// corpora of the kind), or the defaults: the fetched corpora of the
/// standard set (with `all`, every fetched corpus) of the kind, else the
/// kind's embedded one; gives each a unique name.
pub(crate) fn open_corpora<P: Puzzle>(specs: &[PathBuf], all: bool) -> anyhow::Result<Vec<Corpus>> {
    let mut corpora = Vec::new();
    if specs.is_empty() {
        let dir = Path::new("datasets");
        let mut files = if dir.is_dir() {
            corpus::txt_files(dir)?
        } else {
            Vec::new()
        };
        files.retain(|f| !of_other_kind::<P>(f) && (all || is_standard(f)));
        if files.is_empty() {
            let embedded = P::embedded_corpus();
            corpora.push(Corpus::from_static(embedded.name, embedded.text)?);
        }
        for f in files {
            corpora.push(Corpus::open(&f)?);
        }
    } else {
        for spec in specs {
            let found = Corpus::resolve(spec)?;
            // A directory holds corpora of every kind: keep this kind's.
            corpora.extend(
                found
                    .into_iter()
                    .filter(|c| !spec.is_dir() || !c.path().is_some_and(of_other_kind::<P>)),
            );
        }
    }
    let mut seen = std::collections::HashSet::new();
    for c in &mut corpora {
        let base = c.name().to_string();
        let mut name = base.clone();
        let mut n = 2;
        while !seen.insert(name.clone()) {
            name = format!("{base}-{n}");
            n += 1;
        }
        c.set_name(name);
    }
    Ok(corpora)
}

/// The solvers and the harness configuration from the arguments, and the
/// reference solver's name.
fn lineup<P: Kind>(args: &Args) -> anyhow::Result<(Lineup<P>, Config, String)> {
    let set = args.solver_libs.solver_set::<P>(&args.count_only)?;
    let solvers = match &args.solvers {
        Some(names) => set.select(names)?,
        None => set.entries().to_vec(),
    };
    let options = P::options(&args.notation.notation(Format::Line))?;
    let lineup = Lineup { solvers, options };
    let mut config = Config::new(&lineup);
    let names = lineup.names();
    let reference = match names.iter().find(|n| **n == args.reference) {
        Some(n) => n.to_string(),
        None if args.reference == "dlx" => names[0].to_string(),
        None => bail!(
            "--reference {}: not among the selected solvers ({})",
            args.reference,
            names.join(", ")
        ),
    };
    for budget in &mut config.budgets {
        *budget = args.budget.budget(*budget);
    }
    config.threads = args.threads.unwrap_or(0);
    if args.threads == Some(0) {
        bail!("--threads must be at least 1");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if config.threads > cores {
        eprintln!(
            "warning: --threads {} is more than the {cores} cores: workers share cores, so \
             their solve times include waiting for one",
            config.threads
        );
    }
    (config.mode, config.limit) = args.mode.with_limit(args.limit)?;
    config.warmup = args.warmup;
    config.passes = args.passes;
    config.shuffle = args.shuffle;
    config.permute = args.permute;
    config.schedule = harness::Schedule {
        block: usize::try_from(args.block).unwrap_or(usize::MAX),
    };
    if let Some(spec) = &args.shard {
        let (shard, from) =
            Shard::resolve(spec, |name| std::env::var(name).ok()).context("--shard")?;
        if let Some(from) = from {
            eprintln!("dlxbench: shard {shard}, from {from}");
        }
        config.shard = Some(shard);
    }
    Ok((lineup, config, reference))
}

/// `--parse-only`: scan and parse every corpus, report MB/s.
fn parse_only<P: Kind>(
    args: &Args,
    mut lineup: Lineup<P>,
    mut config: Config,
    corpora: &[Corpus],
) -> anyhow::Result<ExitCode> {
    lineup.solvers.clear();
    config.solvers.clear();
    config.descriptions.clear();
    config.budgets.clear();
    let result = harness::run(corpora, &config, &lineup, None, None)?;
    let mut out = std::io::stdout().lock();
    for c in &result.corpora {
        let secs = c.wall.as_secs_f64();
        writeln!(
            out,
            "{}: {} puzzles, {} malformed, {:.1} MB in {:.3} s on {} thread(s): {:.0} MB/s wall, {:.0} MB/s per thread (find lines + parse)",
            c.name,
            c.puzzles,
            c.malformed,
            c.bytes as f64 / 1e6,
            secs,
            result.threads,
            c.bytes as f64 / 1e6 / secs,
            c.reader_mb_per_s()
        )?;
    }
    let strict_fail = args.strict && result.has_malformed();
    Ok(ExitCode::from(if strict_fail {
        super::EXIT_FAILURE
    } else {
        super::EXIT_OK
    }))
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    super::run_per_kind(args.kind, args)
}

impl PerKind for Args {
    fn run<P: Kind>(self) -> anyhow::Result<ExitCode> {
        bench::<P>(self)
    }
}

/// `dlxbench bench` on puzzles of type `P`.
fn bench<P: Kind>(args: Args) -> anyhow::Result<ExitCode> {
    let (lineup, config, reference) = lineup::<P>(&args)?;
    args.export.targets()?;
    corpus::install_sigbus_handler();
    let corpora = open_corpora::<P>(&args.corpora, args.all)?;
    if args.parse_only {
        return parse_only(&args, lineup, config, &corpora);
    }
    let sha256: Vec<String> = corpora.iter().map(Corpus::sha256_hex).collect();

    let baseline = match &args.save_baseline {
        Some(name) => {
            if name.is_empty() || name.starts_with('.') || report::file_safe(name) != *name {
                bail!(
                    "--save-baseline {name:?}: use a plain directory name (letters, digits, `-`, `_`, `.`, `+`; not starting with `.`)"
                );
            }
            let dest = Path::new("results").join(name);
            Some(AtomicDir::create(&dest).with_context(|| {
                format!("cannot create a temporary directory for {}", dest.display())
            })?)
        }
        None => None,
    };
    let out_dir = match (&args.out, &baseline) {
        (_, Some(dir)) => dir.path().to_path_buf(),
        (Some(dir), None) => dir.clone(),
        (None, None) => {
            let name = match corpora.as_slice() {
                [one] => one.name().to_string(),
                _ => "bench".to_string(),
            };
            let stamp = report::run_json::compact_timestamp(std::time::SystemTime::now());
            let shard = config.shard.map_or(String::new(), |s| {
                format!("-shard{}of{}", s.index(), s.count())
            });
            Path::new("results").join(format!("{}{shard}-{stamp}", report::file_safe(&name)))
        }
    };
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create output directory {}", out_dir.display()))?;
    prepare_out_dir(&out_dir, args.force)?;

    let solver_names = lineup.names();
    let sink: Option<Box<dyn RecordSink>> = if args.no_per_puzzle {
        None
    } else {
        let csv = PuzzlesCsv::create(&out_dir, &solver_names)
            .with_context(|| format!("cannot write in {}", out_dir.display()))?;
        Some(Box::new(csv))
    };

    let meta = RunMeta {
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        reference,
        sha256,
        out_dir: baseline
            .as_ref()
            .map_or_else(|| out_dir.clone(), |b| b.dest().to_path_buf()),
        per_puzzle: !args.no_per_puzzle,
        merged: None,
    };
    if !args.quiet {
        eprintln!("{}", plan(&corpora, &lineup, &config));
        // Worth a moment only when the run is long enough to wonder about.
        let lines: u64 = corpora
            .iter()
            .map(|c| corpus::count_newlines(c.bytes()))
            .sum();
        if lines >= ESTIMATE_FROM_LINES {
            if let Some(e) = harness::estimate(&corpora, &config, &lineup, ESTIMATE_ALLOWANCE) {
                eprintln!("dlxbench: estimated solving time {e}");
            }
        }
    }
    live::handle_interrupts();
    let live = Live::new(&config, &meta, &out_dir, args.quiet);
    let result = harness::run(&corpora, &config, &lineup, sink, Some(&live))?;
    live.finish();
    // The last write carries the run's end time (and, after a stop, the
    // partial corpus); each corpus's files were written as it ended.
    let mut written = live.write_files(&result).unwrap_or_default();
    let per_puzzle = !args.no_per_puzzle && result.records_error.is_none();
    if per_puzzle {
        written.push(PuzzlesCsv::path(&out_dir));
    }
    let files_error = live.files_error();
    // Pictures and exports come from what was kept: a failure here loses
    // no result, so it is a warning.
    if !args.no_plots && files_error.is_none() {
        match plot::draw_run(&out_dir) {
            Ok(drawn) => written.extend(drawn.files),
            Err(e) => eprintln!(
                "dlxbench: cannot draw the pictures: {e}; the results are kept (`dlxbench plot` draws them later)"
            ),
        }
    }
    match args.export.write(&export::of_run(&result)) {
        Ok(files) => written.extend(files),
        Err(e) => eprintln!("dlxbench: {e:#}; the results are kept"),
    }
    let interrupted = result.interrupted && live::signalled();
    let failed = result.failed(args.strict);
    let complete = files_error.is_none() && result.records_error.is_none() && !result.interrupted;
    let shown_dir = match baseline {
        Some(dir) if !failed && complete => dir
            .commit()
            .with_context(|| format!("cannot move the results into {}", meta.out_dir.display()))?,
        Some(dir) => {
            let why = if failed {
                "the run found problems"
            } else {
                "the run did not complete"
            };
            eprintln!(
                "baseline not saved: {why}; {} is unchanged",
                dir.dest().display()
            );
            drop(dir);
            out_dir.clone()
        }
        None => out_dir.clone(),
    };
    if !args.quiet {
        let saved = if args.save_baseline.is_some() && (failed || !complete) {
            "Results: not saved\n".to_string()
        } else {
            format!(
                "Results: {} ({} files)\n",
                shown_dir.display(),
                written.len()
            )
        };
        live.print(&(report::table::render_notes(&result, &config, &meta) + &saved));
    } else if report::clock_overhead_too_high(&result) {
        eprintln!(
            "warning: clock overhead {:.0} ns exceeds 2% of the fastest median latency",
            result.clock_overhead_ns
        );
    }
    let mut lost = false;
    if let Some(e) = &files_error {
        eprintln!(
            "dlxbench: cannot write the result files in {}: {e}; the tables above are \
             complete, the files are not (no temporary file is left)",
            out_dir.display()
        );
        lost = true;
    }
    if let Some(e) = &result.records_error {
        eprintln!(
            "dlxbench: cannot write {}: {e}; it was not kept, the other results were",
            PuzzlesCsv::path(&out_dir).display()
        );
        lost = true;
    }
    if interrupted {
        let done: Vec<String> = result
            .corpora
            .iter()
            .map(|c| match c.complete() {
                true => c.name.clone(),
                false => format!(
                    "{} (partial: {} of {} lines)",
                    c.name, c.lines_done, c.lines
                ),
            })
            .collect();
        eprintln!(
            "dlxbench: interrupted; kept the results of {} in {}",
            if done.is_empty() {
                "nothing".to_string()
            } else {
                done.join(", ")
            },
            shown_dir.display()
        );
        return Ok(ExitCode::from(live::EXIT_INTERRUPTED));
    }
    // The input policy of every subcommand: a corpus with no readable
    // puzzle (empty of puzzles, random bytes, another kind) is an error.
    for c in result.corpora.iter().filter(|c| c.complete()) {
        if let Err(e) = corpus::check_readable(c.puzzles, c.malformed) {
            let file = c
                .path
                .as_ref()
                .map_or_else(|| c.name.clone(), |p| p.display().to_string());
            eprintln!("dlxbench: {file}: {e}");
            lost = true;
        }
    }
    if lost {
        return Ok(ExitCode::from(super::EXIT_USAGE));
    }
    if live.stdout_closed() && result.interrupted {
        // `| head`: the reader went away; a quiet, successful end.
        return Ok(ExitCode::from(super::EXIT_OK));
    }
    if failed {
        if args.strict && result.has_malformed() {
            eprintln!("--strict: malformed lines found");
        }
        if args.strict && result.has_unexpected_unsolvable() {
            eprintln!("--strict: unsolvable puzzles in a corpus not marked ALLOWZERO");
        }
        return Ok(ExitCode::from(super::EXIT_FAILURE));
    }
    Ok(ExitCode::from(super::EXIT_OK))
}

/// Clears `dir` for a run: leftovers of a killed run (this tool's
/// temporary files) go; an earlier run's result files are refused, or
/// removed with `force`, so that the directory never mixes two runs.
fn prepare_out_dir(dir: &Path, force: bool) -> anyhow::Result<()> {
    let stale = dlxbench::atomic::remove_stale(dir)
        .with_context(|| format!("cannot clean {}", dir.display()))?;
    if stale > 0 {
        eprintln!(
            "dlxbench: removed {stale} temporary file(s) an interrupted run left in {}",
            dir.display()
        );
    }
    let mut old = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        if report::schema::is_result_file(&entry.file_name().to_string_lossy()) {
            old.push(entry.path());
        }
    }
    if old.is_empty() {
        return Ok(());
    }
    if !force {
        bail!(
            "--out {}: holds the results of an earlier run ({} files, e.g. {}); use --force to \
             replace them, or another directory",
            dir.display(),
            old.len(),
            old[0].file_name().unwrap_or_default().to_string_lossy()
        );
    }
    for path in old {
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    Ok(())
}

/// Runs of this many lines or more get a time estimate before they start.
const ESTIMATE_FROM_LINES: u64 = 10_000;
/// Time spent sampling for the estimate.
const ESTIMATE_ALLOWANCE: std::time::Duration = std::time::Duration::from_millis(500);

/// `line` / `2nd line` / `3rd line` / `11th line`: which lines a shard of
/// `count` takes.
fn nth(count: u32) -> String {
    let suffix = match (count % 10, count % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    match count {
        1 => "line".to_string(),
        n => format!("{n}{suffix} line"),
    }
}

/// What will run, for standard error before the run starts.
fn plan<P: Kind>(corpora: &[Corpus], lineup: &Lineup<P>, config: &Config) -> String {
    let lines: u64 = corpora
        .iter()
        .map(|c| corpus::count_newlines(c.bytes()))
        .sum();
    let names: Vec<&str> = corpora.iter().map(Corpus::name).collect();
    let shown = match names.len() {
        0..=4 => names.join(", "),
        n => format!("{}, ... and {} more", names[..3].join(", "), n - 3),
    };
    let threads = match config.threads {
        0 => "all cores".to_string(),
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    let shard = config.shard.map_or(String::new(), |s| {
        format!(", shard {s}: every {}", nth(s.count()))
    });
    format!(
        "dlxbench: {} corp{} ({shown}; about {} lines{shard}) x {} solver{} ({}) on {threads}",
        corpora.len(),
        if corpora.len() == 1 { "us" } else { "ora" },
        report::thousands(lines),
        lineup.solvers.len(),
        if lineup.solvers.len() == 1 { "" } else { "s" },
        lineup.names().join(", "),
    )
}
