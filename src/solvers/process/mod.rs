//! Solvers in their own processes, in any language: a command started once
//! per worker and kept running, speaking the solver line protocol
//! (version [`PROTOCOL_VERSION`], `docs/solver-protocol.md`) on its
//! standard input and output.
//!
//! The harness trusts such a solver's behaviour no more than its answers:
//!
//! * **Deadline.** Every call is bounded by the solver's time budget
//!   ([`Budget::max_time`]; by default [`Budget::SAFETY_TIME`], as for
//!   built-in solvers). Past it the process group is killed, the puzzle is
//!   [`Status::Timeout`](super::Status::Timeout) and a fresh process starts for the next one.
//! * **Crash.** A process that exits, is killed by a signal or closes its
//!   output when it owes an answer, or answers `error KIND`, makes the
//!   puzzle [`Status::Crashed`](super::Status::Crashed), with the cause ([`Failure`]); a fresh
//!   process starts for the next puzzle.
//! * **Protocol.** A line that is no response the protocol allows (or a
//!   solution of the wrong size, or a wrong header) is
//!   [`Status::ProtocolError`](super::Status::ProtocolError); the process is restarted.
//! * **Too many in a row.** After [`MAX_FAILURES_IN_A_ROW`] failures in a
//!   row on one worker, that worker's solver is stopped for the rest of the
//!   corpus: its remaining puzzles are [`Status::Skipped`](super::Status::Skipped) (cause
//!   `stopped`), not run. The next corpus tries it again.
//! * **Stop.** The wait for a response polls the stop flag
//!   ([`ProcessOptions::stop`]) every [`POLL_SLICE`]: once it is set, the
//!   call returns at once ([`Status::Skipped`](super::Status::Skipped), cause `interrupted`) and
//!   the process is killed, so an interrupted run keeps what it finished.
//!
//! Start-up (until the header line) is not timed and has its own deadline
//! ([`ProcessOptions::start_timeout`]). The process runs in a process
//! group of its own, so that a terminal's Ctrl-C does not reach it and a
//! kill reaches its children too. Its standard error is appended to the
//! entry's [`LogFile`] once placed (the bench session places it in the
//! result directory), discarded before.
//!
//! Time: the harness's round trip, from writing the request to reading the
//! response, is always measured; when the solver reports its own time
//! (`ns=`), that is the time recorded, the round trip beside it
//! ([`Timing`]).
//!
//! ```no_run
//! use dlxbench::solvers::process::{self, CommandSpec, ProcessOptions};
//! use dlxbench::solvers::Budget;
//! use dlxbench::sudoku::Grid;
//!
//! let spec: CommandSpec = "mine=python3 examples/solver.py".parse().unwrap();
//! let entry = process::entry::<Grid>(&spec, ProcessOptions::default());
//! assert_eq!(entry.name(), "mine");
//! assert_eq!(entry.default_budget(), Budget::UNLIMITED.with_time(Budget::SAFETY_TIME));
//! ```

mod batch;
mod child;
mod response;
pub mod ring;
mod stderr;

use std::ffi::OsString;
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::layout::Randomised;
use super::{Budget, Failure, LogFile, Outcome, Solver, SolverEntry, Timing};
use crate::puzzle::Puzzle;

pub use batch::{
    announces_batch, BATCH_WORD, MAX_BATCH, MAX_BATCH_BYTES, RENEW_AFTER_BLOCKS, RENEW_COST_FACTOR,
};
use child::{Child, ReadError, SpawnError};
pub use response::{parse_header, parse_response, Answer, Malformed, Response};

/// The protocol version this harness speaks: the header line a solver
/// prints first is `dlxbench-protocol 1`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Failures in a row (crashes, timeouts, protocol errors) after which a
/// worker's solver is stopped for the rest of the corpus.
pub const MAX_FAILURES_IN_A_ROW: u32 = 3;

/// The default start-up deadline: from starting the command to reading its
/// header line. Generous: a JVM with a cold cache takes seconds.
pub const START_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a process may take to exit once its input is closed (the end
/// of a run) or once it closed its output, before its group is killed.
pub const EXIT_GRACE: Duration = Duration::from_millis(500);

/// The longest wait between two looks at the stop flag during a call.
pub const POLL_SLICE: Duration = Duration::from_millis(50);

/// The room a response line has beyond its request's length (the solution
/// is as long as the puzzle word): the count and up to this many bytes of
/// keys. A longer line is a protocol error (`too-long`), found without
/// reading further.
pub const RESPONSE_KEYS_ALLOWANCE: usize = 1024;

/// The longest header line read, in bytes.
pub const MAX_HEADER_BYTES: usize = 4096;

/// The longest response to `request` (a request line, its `\n`
/// included): the puzzle word's length (a solution is no longer) plus
/// [`RESPONSE_KEYS_ALLOWANCE`]. For a 9x9 Sudoku, 1,115 bytes; for 61x61,
/// 4,755.
pub fn max_response_bytes(request: &[u8]) -> usize {
    request.len() + RESPONSE_KEYS_ALLOWANCE
}

/// How much of an offending line a message quotes: its first 120 bytes,
/// escaped.
const QUOTE_BYTES: usize = 120;

/// `bytes` for a message: escaped (control and non-ASCII bytes as `\n`,
/// `\xNN`), cut at [`QUOTE_BYTES`] with the length said.
///
/// ```
/// use dlxbench::solvers::process::quote;
///
/// assert_eq!(quote(b"debug: x=1\n"), "`debug: x=1\\n`");
/// assert_eq!(quote(&[b'a'; 500]).len(), 122 + " (500 bytes)".len());
/// ```
pub fn quote(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(QUOTE_BYTES)];
    let mut q = format!("`{}`", cut.escape_ascii());
    if cut.len() < bytes.len() {
        q.push_str(&format!(" ({} bytes)", bytes.len()));
    }
    q
}

/// A solver command: its name in the run and what to run.
///
/// The text form `NAME=COMMAND` (as `--solver-cmd` takes it,
/// [`CommandSpec::command`]): a plain COMMAND (words of letters, digits
/// and `-_./=:+,@%`, the first without `=`) is split into words at spaces
/// and run directly, so that a crash's signal is the solver's own; any
/// other (quotes, variables, redirections, pipes, `A=1 prog`, `cd x &&
/// prog`) runs through `sh -c`, where a crash may show as the shell's exit
/// status 128 + N rather than signal N. [`CommandSpec::new`] runs a
/// program with arguments directly.
///
/// ```
/// use dlxbench::solvers::process::CommandSpec;
///
/// let spec: CommandSpec = "py=python3 solver.py --fast".parse().unwrap();
/// assert_eq!(spec.name, "py");
/// assert_eq!(spec.program, "python3");
/// assert_eq!(spec.args, ["solver.py", "--fast"]);
/// assert_eq!(spec.to_string(), "py=python3 solver.py --fast");
/// let shell: CommandSpec = "js=cd examples && node solver.js".parse().unwrap();
/// assert_eq!(shell.program, "sh");
/// assert_eq!(shell.args, ["-c", "cd examples && node solver.js"]);
/// assert!("=python3 x.py".parse::<CommandSpec>().is_err());
/// assert!("py=".parse::<CommandSpec>().is_err());
/// assert!("no-name".parse::<CommandSpec>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    /// The solver's name in the run.
    pub name: String,
    /// The program started.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// The command as the user gave it (for descriptions and messages).
    pub text: String,
}

impl CommandSpec {
    /// Runs `program` with `args` directly (no shell).
    pub fn new(
        name: impl Into<String>,
        program: impl Into<OsString>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Self {
        let program = program.into();
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let mut text = program.to_string_lossy().into_owned();
        for a in &args {
            text.push(' ');
            text.push_str(&a.to_string_lossy());
        }
        CommandSpec {
            name: name.into(),
            program,
            args,
            text,
        }
    }

    /// Runs `command`: split into words and run directly when it is plain
    /// (words of letters, digits and `-_./=:+,@%`, the first without `=`),
    /// through `sh -c` otherwise.
    pub fn command(name: impl Into<String>, command: &str) -> Self {
        let plain = command
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " \t-_./=:+,@%".contains(c));
        let mut words = command.split_ascii_whitespace();
        match words.clone().next() {
            Some(first) if plain && !first.contains('=') => {
                let program = words.next().unwrap_or_default();
                let mut spec = CommandSpec::new(name, program, words);
                spec.text = command.trim().to_string();
                spec
            }
            _ => CommandSpec::shell(name, command),
        }
    }

    /// Runs `command` through `sh -c`.
    pub fn shell(name: impl Into<String>, command: &str) -> Self {
        CommandSpec {
            name: name.into(),
            program: "sh".into(),
            args: vec!["-c".into(), command.into()],
            text: command.to_string(),
        }
    }
}

/// Why a `--solver-cmd` spec was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}`: expected NAME=COMMAND (a name for the solver, a command that speaks the dlxbench solver protocol)")]
pub struct CommandSpecError(pub String);

impl FromStr for CommandSpec {
    type Err = CommandSpecError;

    fn from_str(text: &str) -> Result<Self, CommandSpecError> {
        let malformed = || CommandSpecError(text.to_string());
        let (name, command) = text.split_once('=').ok_or_else(malformed)?;
        let name_ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c));
        if !name_ok || command.trim().is_empty() {
            return Err(malformed());
        }
        Ok(CommandSpec::command(name, command))
    }
}

impl fmt::Display for CommandSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.text)
    }
}

/// How solvers in their own processes are run: deadlines other than the
/// solve's, the stop flag, the failure limit.
#[derive(Debug, Clone, Copy)]
pub struct ProcessOptions {
    /// From starting the command to reading its header line.
    pub start_timeout: Duration,
    /// Failures in a row after which a worker's solver stops for the rest
    /// of the corpus (0: never stops).
    pub max_failures_in_a_row: u32,
    /// Once set, calls return at once (the puzzle [`Status::Skipped`](super::Status::Skipped),
    /// cause `interrupted`) and no more requests are sent: give the flag a
    /// run stops on (the command line's Ctrl-C flag).
    pub stop: Option<&'static AtomicBool>,
    /// Record the round trip as every puzzle's latency, even where the
    /// solver reports its own time (`--latency round-trip`); the own time
    /// is still checked against it. Requests then go one at a time (a
    /// batch has no round trip of its own per puzzle).
    pub round_trip_latency: bool,
    /// The most requests written at once to a solver that announces
    /// batches ([`BATCH_WORD`]; 1: one at a time, as to any other). By
    /// default [`MAX_BATCH`]. See [`batch`].
    pub batch: usize,
    /// Replace each process after it served this many blocks of the
    /// schedule, counted in blocks of [`MAX_BATCH`] puzzles (the
    /// schedule's default; a call may cover several blocks in a row)
    /// (`None`, the default: keep it for the run): each process
    /// is one draw of the per-process effects (memory layout, placement in
    /// the caches), so a run that replaces them spreads those effects over
    /// its blocks, where the table's interval sees them. See [`batch`].
    pub renew_after: Option<u32>,
    /// ... and only once it has run for this many times its own start-up
    /// (from starting the command to reading its header), so that the
    /// replacements cost at most 1/this of the wall clock. By default
    /// [`RENEW_COST_FACTOR`].
    pub renew_cost_factor: u32,
    /// Sleep through most of a batch's expected time rather than wake for
    /// each answer (see [`batch`]): for solvers whose answers carry a time
    /// the harness need not check against round trips (the isolated host
    /// of a C library, whose `ns=` is the harness's own reading in its
    /// process). False by default: a solver's own times are checked against
    /// each answer's round trip, which a late read would blur.
    pub sleep_through_batches: bool,
    /// Write a block's next batch before reading this one's answers, and
    /// the next block's first when the harness shows it (see [`batch`]),
    /// so that the solver finds the next requests waiting when it answers
    /// a batch's last: two batches in the pipe at most. For
    /// solvers whose answers' times are not checked against round trips
    /// (the isolated host, as [`Self::sleep_through_batches`]); false by
    /// default.
    pub pipeline: bool,
    /// Offer each process an answer ring ([`ring`]): shared memory its
    /// answers go into, in place of a `write(2)` each, when its header
    /// takes it ([`ring::RING_WORD`]). For the isolated host, which does;
    /// false by default.
    pub answer_ring: bool,
}

impl Default for ProcessOptions {
    /// [`START_TIMEOUT`], [`MAX_FAILURES_IN_A_ROW`], no stop flag, own
    /// times, batches of up to [`MAX_BATCH`], processes kept for the run.
    fn default() -> Self {
        ProcessOptions {
            start_timeout: START_TIMEOUT,
            max_failures_in_a_row: MAX_FAILURES_IN_A_ROW,
            stop: None,
            round_trip_latency: false,
            batch: MAX_BATCH,
            renew_after: None,
            renew_cost_factor: RENEW_COST_FACTOR,
            sleep_through_batches: false,
            pipeline: false,
            answer_ring: false,
        }
    }
}

/// The file name of the standard-error log of the solver named `name`:
/// `solver-NAME.log`, with characters other than letters, digits, `-`,
/// `_`, `.` and `+` replaced by `_`.
pub fn log_file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() || "-_.+".contains(c) {
            true => c,
            false => '_',
        })
        .collect();
    format!("solver-{safe}.log")
}

/// An entry for the solver `spec` runs, for puzzles of type `P`: each
/// worker's solver starts the command at its first puzzle and keeps it
/// running. Its default budget is [`Budget::SAFETY_TIME`] (the deadline of
/// each call) and no node bound; its log file is [`log_file_name`].
pub fn entry<P: Puzzle>(spec: &CommandSpec, options: ProcessOptions) -> SolverEntry<P> {
    let description = format!(
        "command `{}` (solver protocol {PROTOCOL_VERSION})",
        spec.text
    );
    entry_with(spec, options, description, false)
}

/// [`entry`] with its own `description` (for `run.json` and `--help`),
/// and, when `count_only`, a solver whose solutions are not read (its
/// counts are cross-checked; `-` or anything else in place of the
/// solution is accepted: [`Solver::returns_solutions`] is false).
pub fn entry_with<P: Puzzle>(
    spec: &CommandSpec,
    options: ProcessOptions,
    description: String,
    count_only: bool,
) -> SolverEntry<P> {
    let log = LogFile::new(log_file_name(&spec.name));
    let entry = entry_placed(
        spec,
        options,
        description.clone(),
        count_only,
        log.clone(),
        Vec::new(),
    );
    let spec = spec.clone();
    // Each pass of a run with a randomised layout: the same command, its
    // environment padded ([`super::layout`]); the processes are fresh
    // anyway (each worker's solver starts its own).
    entry.with_relayout(Randomised::Command, move |fresh| {
        Ok(entry_placed(
            &spec,
            options,
            description.clone(),
            count_only,
            log.clone(),
            vec![fresh.placement().env()],
        ))
    })
}

/// [`entry_with`], its standard error going to `log`, with `env` added to
/// its processes' environment; no relayout function (the caller adds its
/// own).
pub(crate) fn entry_placed<P: Puzzle>(
    spec: &CommandSpec,
    options: ProcessOptions,
    description: String,
    count_only: bool,
    log: LogFile,
    env: Vec<(&'static str, String)>,
) -> SolverEntry<P> {
    let shared = Arc::new(Shared {
        spec: spec.clone(),
        options,
        log: log.clone(),
        count_only,
        env,
    });
    SolverEntry::new(spec.name.clone(), description, move || {
        Box::new(ProcessSolver::<P>::new(Arc::clone(&shared)))
    })
    .with_default_budget(Budget::UNLIMITED.with_time(Budget::SAFETY_TIME))
    .with_log_file(log)
    .with_own_times()
}

/// Why [`check`] refused a command: what was seen, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CheckError(pub String);

/// Starts `spec` once and reads its header (within
/// [`ProcessOptions::start_timeout`]), then closes it: a program that
/// cannot be found or executed, one that exits or prints another first
/// line, is refused with what was seen ("not found", "permission denied",
/// the line quoted) before any run.
pub fn check(spec: &CommandSpec, options: ProcessOptions) -> Result<(), CheckError> {
    let shared = Shared {
        spec: spec.clone(),
        options,
        log: LogFile::new(log_file_name(&spec.name)),
        count_only: false,
        env: Vec::new(),
    };
    match start(&shared) {
        Ok((child, _)) => {
            child.close();
            Ok(())
        }
        Err((failure, detail)) => Err(CheckError(format!(
            "{} ({failure}): {detail}",
            failure.status()
        ))),
    }
}

/// What every worker's solver of one entry shares.
#[derive(Debug)]
struct Shared {
    spec: CommandSpec,
    options: ProcessOptions,
    log: LogFile,
    /// Solutions are not read.
    count_only: bool,
    /// Added to the processes' environment.
    env: Vec<(&'static str, String)>,
}

/// One worker's solver: the process (once started) and reused buffers.
pub struct ProcessSolver<P> {
    shared: Arc<Shared>,
    child: Option<Child>,
    /// The request line being sent.
    request: Vec<u8>,
    /// Failures in a row.
    failures: u32,
    /// Stopped for the rest of the corpus.
    stopped: bool,
    /// What the last failure saw ([`Solver::take_detail`]).
    detail: Option<String>,
    /// The last response line (reused buffer): an answer repeated when
    /// it does not fit the next puzzle is a stray line.
    last_response: Vec<u8>,
    /// The request in flight: its range of [`Self::request`], without the
    /// newline (a batch holds several).
    current: std::ops::Range<usize>,
    /// The running process announced batches ([`BATCH_WORD`]).
    batching: bool,
    /// The puzzles of the batch in flight: index into the block, and the
    /// range of its request in [`Self::request`] (without the newline).
    pending: Vec<(usize, usize, usize)>,
    /// Blocks served by the running process ([`ProcessOptions::renew_after`]).
    blocks: u32,
    /// The process last replaced, exiting.
    retiring: batch::Retiring,
    /// The process was replaced after its blocks; the next one is not
    /// started yet ([`Solver::wants_warm_up`]).
    renewed: bool,
    /// When the running process was started, and how long it took to
    /// print its header.
    life: Option<(std::time::Instant, Duration)>,
    /// The median own time of an answer in the last batch, ns
    /// ([`ProcessOptions::sleep_through_batches`]).
    answer_ns: u64,
    /// Their mean, ns (the same, with a batch written ahead).
    answer_mean_ns: u64,
    /// The own times of the batch being read (a buffer kept).
    own_times: Vec<u64>,
    /// The batch written ahead ([`ProcessOptions::pipeline`]).
    ahead: batch::Ahead,
    _puzzle: PhantomData<fn(&P)>,
}

impl<P> fmt::Debug for ProcessSolver<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProcessSolver")
            .field("command", &self.shared.spec.text)
            .field("running", &self.child.is_some())
            .field("failures", &self.failures)
            .field("stopped", &self.stopped)
            .finish()
    }
}

impl<P: Puzzle> ProcessSolver<P> {
    fn new(shared: Arc<Shared>) -> Self {
        ProcessSolver {
            shared,
            child: None,
            request: Vec::with_capacity(256),
            failures: 0,
            stopped: false,
            detail: None,
            last_response: Vec::with_capacity(256),
            current: 0..0,
            batching: false,
            pending: Vec::with_capacity(MAX_BATCH),
            blocks: 0,
            retiring: batch::Retiring::default(),
            renewed: false,
            life: None,
            answer_ns: 0,
            answer_mean_ns: 0,
            own_times: Vec::with_capacity(MAX_BATCH),
            ahead: batch::Ahead::default(),
            _puzzle: PhantomData,
        }
    }

    fn stop_requested(&self) -> bool {
        self.shared
            .options
            .stop
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// [`ProcessSolver::fail`], with what the harness saw (`detail`: a
    /// quoted line, an OS error), kept for [`Solver::take_detail`] and
    /// written to the solver's log.
    fn fail_with(&mut self, failure: Failure, detail: String) -> (Outcome, Duration) {
        if let Some(child) = self.child.as_mut() {
            child.note(&format!(
                "\n[dlxbench: {} ({failure}) on request {}: {detail}]\n",
                failure.status(),
                quote(self.request.get(self.current.clone()).unwrap_or_default()),
            ));
        }
        self.detail = Some(detail);
        self.fail(failure)
    }

    /// An outcome of `failure`, which counts towards the limit in a row
    /// unless it is an interruption; the process is killed.
    fn fail(&mut self, failure: Failure) -> (Outcome, Duration) {
        if let Some(child) = self.child.take() {
            child.kill();
        }
        self.last_response.clear();
        if failure != Failure::Interrupted {
            self.failures += 1;
            let limit = self.shared.options.max_failures_in_a_row;
            if limit > 0 && self.failures >= limit {
                self.stopped = true;
            }
        }
        (failed(failure), Duration::ZERO)
    }

    /// The failure of a process whose output ended: how it exited.
    fn ended(&mut self) -> (Outcome, Duration) {
        let failure = match self.child.take() {
            Some(child) => child.reap(),
            None => Failure::Closed,
        };
        self.fail(failure)
    }

    /// Output of the running process that no request asked for, quoted.
    fn unsolicited(&mut self) -> Option<String> {
        let child = self.child.as_mut()?;
        child.has_unsolicited().then(|| quote(child.leftover()))
    }

    /// Starts the command and reads its header; on failure, what was seen.
    /// The start-up is timed (what a replacement costs).
    fn start(&mut self) -> Result<(), (Failure, String)> {
        let started = std::time::Instant::now();
        let (child, batching) = start(&self.shared)?;
        self.life = Some((started, started.elapsed()));
        self.child = Some(child);
        self.batching = batching;
        self.blocks = 0;
        self.renewed = false;
        Ok(())
    }

    /// The failure of a write or read that did not complete, `elapsed`
    /// after the request was written; `max` the longest legal answer.
    fn read_failed(
        &mut self,
        error: ReadError,
        max: usize,
        elapsed: Duration,
    ) -> (Outcome, Duration) {
        match error {
            ReadError::Ended => self.ended(),
            ReadError::Timeout => {
                // Over its budget: the elapsed time is what it cost.
                let (outcome, _) = self.fail(Failure::Deadline);
                (outcome, elapsed)
            }
            ReadError::Interrupted => self.fail(Failure::Interrupted),
            ReadError::TooLong => {
                let child = self.child.as_ref().expect("running");
                let detail = format!(
                    "a response line longer than {max} bytes (the longest legal one for this \
                     request) starting {}",
                    quote(child.leftover())
                );
                self.fail_with(Failure::TooLong, detail)
            }
        }
    }

    /// Reads the response line at `range` to the request for `puzzle`,
    /// `round_trip_ns` after it was sent (one request at a time) or after
    /// the answer before it (in a batch). An own time above `most_own_ns`
    /// (the round trip, one at a time; what the batch's time since its
    /// write leaves after the own times before it, in a batch) is a
    /// protocol error (`clock`): no solver solves faster than the harness
    /// sees it answer.
    fn answer(
        &mut self,
        range: std::ops::Range<usize>,
        puzzle: &P,
        limit: u64,
        solution: &mut P,
        round_trip_ns: u64,
        most_own_ns: u64,
    ) -> (Outcome, Duration) {
        let child = self.child.as_ref().expect("running");
        let line = child.line(range);
        let response = match parse_response(line, limit) {
            Ok(r) => r,
            Err(_) => {
                let detail = format!("{} is not a response", quote(line));
                return self.fail_with(Failure::Response, detail);
            }
        };
        let answer = match response {
            Response::NotApplicable => None,
            Response::Error(failure) => {
                let detail = format!("answered {}", quote(line));
                return self.fail_with(failure, detail);
            }
            Response::Answer(answer) => Some(answer),
        };
        if let Some(a) = answer.as_ref().filter(|a| a.count > 0) {
            let text = &line[a.solution.clone()];
            if !self.shared.count_only && !solution.read_protocol(puzzle, text) {
                let detail = format!("{} is no solution of the puzzle's size", quote(text));
                return self.fail_with(Failure::Response, detail);
            }
            // The last answer again, late, where this puzzle's was due (a
            // solver that answered twice): not this puzzle's answer.
            if line == self.last_response.as_slice()
                && !self.shared.count_only
                && !P::is_solution_of(solution, puzzle)
            {
                let detail = format!(
                    "{} repeats the previous answer and does not solve this puzzle",
                    quote(line)
                );
                return self.fail_with(Failure::Stray, detail);
            }
        }
        self.last_response.clear();
        self.last_response.extend_from_slice(line);
        let Some(answer) = answer else {
            self.failures = 0;
            return (failed(Failure::Declined), Duration::ZERO);
        };
        if let Some(ns) = answer.ns.filter(|&ns| ns > most_own_ns) {
            let detail = match most_own_ns == round_trip_ns {
                true => format!(
                    "its own time ns={ns} is longer than the round trip the harness measured \
                     around it ({round_trip_ns} ns)"
                ),
                false => format!(
                    "its own time ns={ns} is longer than the batch's time since it was written \
                     leaves after the own times of the answers before it ({most_own_ns} ns)"
                ),
            };
            return self.fail_with(Failure::Clock, detail);
        }
        self.failures = 0;
        let (took, timing) = match answer.ns {
            Some(ns) if !self.shared.options.round_trip_latency => (
                Duration::from_nanos(ns),
                Timing::Own {
                    round_trip_ns,
                    group: None,
                },
            ),
            _ => (Duration::from_nanos(round_trip_ns), Timing::RoundTrip),
        };
        let outcome = Outcome {
            solutions: answer.count,
            nodes: answer.nodes,
            guesses: answer.guesses.unwrap_or(0),
            updates: None,
            mems: answer.mems,
            budget_exceeded: false,
            failure: None,
            timing,
            host: self.child.as_ref().map(Child::pid),
        };
        (outcome, took)
    }
}

/// Appends the `solve` request for `puzzle` (counting up to `limit`) to
/// `request`, newline included; false (nothing appended) when the puzzle
/// has no protocol form.
fn write_request<P: Puzzle>(request: &mut Vec<u8>, puzzle: &P, limit: u64) -> bool {
    let mark = request.len();
    request.extend_from_slice(b"solve ");
    let mut digits = itoa::Buffer::new();
    request.extend_from_slice(digits.format(limit).as_bytes());
    request.push(b' ');
    if !puzzle.write_protocol(request) {
        request.truncate(mark);
        return false;
    }
    request.push(b'\n');
    true
}

/// Starts `shared`'s command and reads its header: the process, and
/// whether it announced batches; on failure, what was seen.
fn start(shared: &Shared) -> Result<(Child, bool), (Failure, String)> {
    let mut child = Child::spawn(
        &shared.spec,
        &shared.log,
        &shared.env,
        shared.options.answer_ring,
    )
    .map_err(|SpawnError(e)| (Failure::Spawn, spawn_message(&shared.spec, &e)))?;
    let deadline = std::time::Instant::now() + shared.options.start_timeout;
    let header = child.read_line(MAX_HEADER_BYTES, Some(deadline), shared.options.stop);
    let failure = match header {
        Ok(range) => match parse_header(child.line(range.clone())) {
            Ok(()) => {
                let batching = announces_batch(child.line(range.clone()));
                let ring = batch::announces(child.line(range), ring::RING_WORD);
                child.use_ring(ring);
                return Ok((child, batching));
            }
            Err(_) => (
                Failure::Header,
                format!(
                    "the first line is {}, not `dlxbench-protocol {PROTOCOL_VERSION} ...`",
                    quote(child.line(range))
                ),
            ),
        },
        Err(ReadError::Timeout) => (
            Failure::StartUp,
            format!(
                "no header line within {:?} of starting",
                shared.options.start_timeout
            ),
        ),
        Err(ReadError::Interrupted) => (Failure::Interrupted, "interrupted".into()),
        Err(ReadError::TooLong) => (
            Failure::Header,
            format!("a first line longer than {MAX_HEADER_BYTES} bytes"),
        ),
        Err(ReadError::Ended) => {
            let failure = child.reap();
            return Err((failure, format!("it ended before its header ({failure})")));
        }
    };
    child.kill();
    Err(failure)
}

/// The message for a command that could not be started: the OS's reason
/// in words ("not found", "permission denied") and the command as given.
fn spawn_message(spec: &CommandSpec, e: &std::io::Error) -> String {
    let reason = match e.kind() {
        std::io::ErrorKind::NotFound => "not found".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    format!(
        "cannot start `{}` ({}: {reason})",
        spec.text,
        spec.program.to_string_lossy()
    )
}

/// An outcome that is `failure`.
fn failed(failure: Failure) -> Outcome {
    Outcome {
        failure: Some(failure),
        nodes: None,
        ..Outcome::default()
    }
}

// Repeats the signatures of `Solver`'s methods, as every solver does (trait impl).
impl<P: Puzzle> Solver<P> for ProcessSolver<P> {
    fn solve(&mut self, puzzle: &P, limit: u64, budget: Budget, solution: &mut P) -> Outcome {
        self.solve_timed(puzzle, limit, budget, solution).0
    }

    /// Sends the request, waits for the response within the budget's time,
    /// reads it; the time is the solver's own `ns=` when it gives one, the
    /// round trip otherwise.
    fn solve_timed(
        &mut self,
        puzzle: &P,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) -> (Outcome, Duration) {
        // A batch written ahead for a block (none in a call of its own).
        self.drop_ahead();
        if self.stop_requested() {
            return self.fail(Failure::Interrupted);
        }
        if self.stopped {
            return (failed(Failure::Stopped), Duration::ZERO);
        }
        self.request.clear();
        if !write_request(&mut self.request, puzzle, limit) {
            return (failed(Failure::Declined), Duration::ZERO);
        }
        self.current = 0..self.request.len() - 1;
        if self.child.is_none() {
            if let Err((failure, detail)) = self.start() {
                self.detail = Some(detail);
                return self.fail(failure);
            }
        }
        if let Some(stray) = self.unsolicited() {
            // Output that came after the last answer, before this request:
            // out of protocol. Failing this puzzle (the process is
            // restarted) keeps it from being read as this puzzle's answer.
            return self.fail_with(
                Failure::Stray,
                format!("{stray} came after the previous answer, before this request"),
            );
        }
        let stop = self.shared.options.stop;
        let max = max_response_bytes(&self.request);
        let child = self.child.as_mut().expect("started");
        let deadline = budget.max_time.map(|t| std::time::Instant::now() + t);
        let started = crate::clock::Instant::now();
        let sent = child.write_all(&self.request, deadline, stop);
        let read = sent.and_then(|()| child.read_line(max, deadline, stop));
        let round_trip = started.elapsed();
        let range = match read {
            Ok(range) => range,
            Err(e) => return self.read_failed(e, max, round_trip),
        };
        let round_trip_ns = u64::try_from(round_trip.as_nanos()).unwrap_or(u64::MAX);
        let (outcome, took) =
            self.answer(range, puzzle, limit, solution, round_trip_ns, round_trip_ns);
        if outcome.failure.is_none_or(|f| f == Failure::Declined) {
            if let Some(stray) = self.unsolicited() {
                // More than one line for this request.
                let detail = format!("{stray} followed the answer");
                return self.fail_with(Failure::Stray, detail);
            }
        }
        (outcome, took)
    }

    fn wants_warm_up(&self) -> bool {
        self.renewed
    }

    fn take_detail(&mut self) -> Option<String> {
        self.detail.take()
    }

    fn returns_solutions(&self) -> bool {
        !self.shared.count_only
    }

    fn start_corpus(&mut self) {
        self.drop_ahead();
        self.stopped = false;
        self.failures = 0;
    }

    fn solves_blocks(&self) -> bool {
        true
    }

    /// Batches ([`batch`]) when the process announced them; one request at
    /// a time otherwise.
    fn solve_block(
        &mut self,
        block: &mut dyn super::Block<P>,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) {
        self.solve_block_batched(block, limit, budget, solution);
    }
}

impl<P> Drop for ProcessSolver<P> {
    /// Closes the process's input and gives it [`EXIT_GRACE`] to exit, then
    /// kills its group.
    fn drop(&mut self) {
        if let Some(child) = self.child.take() {
            child.close();
        }
    }
}

#[cfg(test)]
mod tests;
