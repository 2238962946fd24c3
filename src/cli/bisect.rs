//! `dlxbench bisect`: the first commit where a solver's counts or time
//! changed, over [`dlxbench::bisect`].

// Duplicates (issue #42): the clap argument structs of the commands are alike in shape
// (`#[arg(long, ...)]` fields) on purpose: each command's own flags and help.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use dlxbench::ab;
use dlxbench::bisect::{
    self, Builder, Direction, Event, Found, Measure, Options, Profile, Recipe, Repo,
};
use dlxbench::compare;
use dlxbench::session::open_corpora;
use dlxbench::sudoku::Grid;

use super::io::errln;
use super::ModeArg;

/// Exit status of `--probe` on an error: above 127, which stops `git
/// bisect run` (1-127 but 125 would mark the commit bad).
const EXIT_ABORT: u8 = 128;

/// Arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Each commit probed is built in a git worktree of it (cargo build --release -p dlxbench-ffi, by \
default without LTO: --profile; or --build-cmd) and cached by commit under --cache; its \
library's solver (--symbol) is compared with GOOD's on the corpora: every puzzle's status, \
solutions and guesses, exactly (the default), or with --time the time, both libraries in one \
paired `ab` run: changed when the whole interval lies beyond 1 + threshold, the same when it \
lies wholly below, else unknown. A commit that does not build, or whose time is unknown, is \
skipped, as `git bisect skip` does. The commits are BAD's first-parent chain after GOOD, about \
log2(n) of them probed. Exit status: 0 the first changed commit named; 1 only a set of commits \
it may be (skipped commits around it); 2 bad usage, or GOOD does not build, or BAD is not \
changed. With --probe COMMIT, one probe for `git bisect run`: 0 same as GOOD, 1 changed, 125 \
cannot tell (does not build, no time verdict), 128 an error (which stops git bisect run).")]
pub struct Args {
    /// A commit where the solver is as it should be.
    #[arg(value_name = "GOOD")]
    pub good: String,
    /// A later commit where it changed (a descendant of GOOD along first parents).
    #[arg(
        value_name = "BAD",
        required_unless_present = "probe",
        conflicts_with = "probe"
    )]
    pub bad: Option<String>,
    /// Judge this one commit against GOOD and exit 0, 1 or 125 (`git bisect run`).
    #[arg(long, value_name = "COMMIT")]
    pub probe: Option<String>,
    /// Compare time (paired ab runs) instead of counts.
    #[arg(long)]
    pub time: bool,
    /// With --time: look for a speed-up instead of a slow-down.
    #[arg(long, requires = "time")]
    pub faster: bool,
    /// The solver function in each commit's library.
    #[arg(long, value_name = "SYMBOL", default_value = "dlxbench_dlx")]
    pub symbol: String,
    /// The `flags` argument passed on every call.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub flags: u32,
    /// A corpus file or directory (repeatable; default: as `bench`).
    #[arg(long = "corpus", value_name = "PATH")]
    pub corpora: Vec<PathBuf>,
    /// The git repository.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub repo: PathBuf,
    /// Where the builds are kept, by commit, and cargo's shared target directories (default:
    /// REPO/target/dlxbench-bisect).
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// How cargo builds each commit: `fast` (release without LTO, 16 codegen units) or
    /// `release` (the commit's own release profile).
    #[arg(long, value_name = "PROFILE", default_value = "fast")]
    pub profile: Profile,
    /// Build each commit with this shell command instead of cargo, run in its worktree: it
    /// writes the library to $DLXBENCH_BISECT_OUT ($DLXBENCH_BISECT_COMMIT names the commit);
    /// a non-zero exit marks the commit as not building.
    #[arg(long, value_name = "COMMAND")]
    pub build_cmd: Option<String>,
    /// With --time: smallest change declared, in percent.
    #[arg(long, value_name = "PCT", default_value = "1%", value_parser = compare::parse_threshold)]
    pub threshold: f64,
    /// With --time: a noise floor measured before (ab --aa): judged at the larger of it and
    /// --threshold.
    #[arg(long, value_name = "PCT", value_parser = compare::parse_threshold)]
    pub floor: Option<f64>,
    /// With --time: each probe's ab run stops before this (`30s`, `2m`).
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = humantime::parse_duration)]
    pub max_time: Duration,
    /// With --time: no verdict before this many passes (warm-up included).
    #[arg(long, value_name = "N", default_value_t = ab::Options::default().min_passes, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_passes: u32,
    /// Worker threads.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: u64,
    /// How many solutions to look for.
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
    /// Load the libraries into this process instead of host processes.
    #[arg(long)]
    pub in_process: bool,
    /// No progress lines on standard error.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Also write the outcome as JSON (the commit found, every probe and its evidence;
    /// format dlxbench-bisect/1, docs/file-formats.md). Not with --probe
    #[arg(long, value_name = "FILE", conflicts_with = "probe")]
    pub json: Option<PathBuf>,
}

/// Runs the subcommand.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.probe.clone() {
        None => bisect(args),
        Some(commit) => Ok(probe(args, &commit).unwrap_or_else(|e| {
            errln!("dlxbench: {e:#}");
            ExitCode::from(EXIT_ABORT)
        })),
    }
}

/// The repository, the builder, the corpora and the options the
/// arguments ask for.
fn setup(args: &Args) -> anyhow::Result<(Repo, Builder, Vec<dlxbench::corpus::Corpus>, Options)> {
    let repo = Repo::open(&args.repo)?;
    let cache = args
        .cache
        .clone()
        .unwrap_or_else(|| args.repo.join("target").join("dlxbench-bisect"));
    let recipe = match &args.build_cmd {
        Some(command) => Recipe::Command(command.clone()),
        None => Recipe::Cargo(args.profile),
    };
    let builder = Builder::new(repo.clone(), &cache, recipe);
    let corpora = open_corpora::<Grid>(&args.corpora, false)?;
    let (mode, limit) = args.mode.with_limit(None)?;
    let host_program = match args.in_process {
        true => None,
        false => Some(
            std::env::current_exe().context("the path of this program, to host the libraries")?,
        ),
    };
    let options = Options {
        measure: if args.time {
            Measure::Time
        } else {
            Measure::Counts
        },
        direction: if args.faster {
            Direction::Faster
        } else {
            Direction::Slower
        },
        symbol: args.symbol.clone(),
        flags: args.flags,
        threads: usize::try_from(args.threads).unwrap_or(usize::MAX),
        mode,
        limit,
        ab: ab::Options {
            threshold: args.threshold,
            floor: args.floor,
            max_time: args.max_time,
            min_passes: args.min_passes,
            ..ab::Options::default()
        },
        host_program,
    };
    Ok((repo, builder, corpora, options))
}

/// Progress on standard error.
fn progress(quiet: bool, recipe: &Recipe) -> impl FnMut(Event) + '_ {
    move |event| {
        if quiet {
            return;
        }
        match event {
            Event::Building(c) => errln!("dlxbench: building {} ({recipe})", c.line()),
            Event::Measuring(c) => errln!("dlxbench: measuring {}", c.short),
            Event::Probed(p) => errln!("{}", bisect::render::probe_line(p)),
        }
    }
}

fn bisect(args: Args) -> anyhow::Result<ExitCode> {
    let (repo, builder, corpora, options) = setup(&args)?;
    let good = repo.commit(&args.good)?;
    let bad = repo.commit(args.bad.as_deref().unwrap_or("HEAD"))?;
    let names: Vec<&str> = corpora.iter().map(|c| c.name()).collect();
    if !args.quiet {
        errln!(
            "dlxbench: bisect of {} on {} from {} (good) to {} (bad)",
            bisect::render::what(&options),
            names.join(", "),
            good.short,
            bad.short
        );
    }
    let mut on_event = progress(args.quiet, builder.recipe());
    let report = bisect::run(
        &repo,
        &builder,
        &corpora,
        &options,
        good,
        &bad,
        &mut on_event,
    )?;
    if let Some(path) = &args.json {
        let json = bisect::render::json(&report, &options);
        super::io::write_file(path, &super::io::json_text(&json)?)?;
    }
    let text = bisect::render::text(&report);
    write!(
        std::io::stdout().lock(),
        "{}",
        dlxbench::terminal::escape_lines(&text)
    )?;
    Ok(ExitCode::from(match report.found {
        Found::First(_) => super::EXIT_OK,
        Found::Among(_) => super::EXIT_FAILURE,
    }))
}

fn probe(args: Args, commit: &str) -> anyhow::Result<ExitCode> {
    let (repo, builder, corpora, options) = setup(&args)?;
    let good = repo.commit(&args.good)?;
    let commit = repo.commit(commit)?;
    let mut on_event = progress(true, builder.recipe());
    let probe = bisect::probe_one(&builder, &corpora, &options, good, &commit, &mut on_event)?;
    let line = bisect::render::probe_line(&probe);
    writeln!(
        std::io::stdout().lock(),
        "{}",
        dlxbench::terminal::escape_controls(line.trim_start())
    )?;
    Ok(ExitCode::from(probe.verdict().exit_status()))
}
