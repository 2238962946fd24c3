//! The isolated host of a loaded C solver: a process of its own (the
//! `dlxbench` binary in a hidden host mode) that loads one library through
//! [`super::foreign::open`] and answers the solver line protocol,
//! version 1 (docs/solver-protocol.md), on its standard input and output.
//! The harness drives it as it drives any protocol solver; what the
//! library does cannot reach the harness's memory, and a crash, a hang or
//! an exit ends the host alone.
//!
//! For each request `solve LIMIT PUZZLE` the host reads the puzzle in the
//! kind's one-line notation, encodes it for the C interface (a puzzle
//! without a [`Puzzle::write_c81`] form is `n/a`), reads the clock around
//! the C call alone and answers `COUNT SOLUTION guesses=G ns=T`: the
//! solver's count, its first solution in the same notation (`-` when the
//! count is 0), its guesses and the call's time in nanoseconds. Offered
//! an answer ring ([`process::ring`]), it says so in its header and puts
//! the answers there instead of on its standard output (no `write(2)` per
//! answer), which then carries nothing after the header but the crash
//! handler's line.
//!
//! Protections ([`guard`]):
//!
//! - The solution buffer ends at a page boundary followed by an
//!   inaccessible guard page, with [`guard::SLACK`] bytes after the 81
//!   that the solver may write (JSolve writes a NUL, bb_sudoku a line
//!   feed and a NUL) and [`guard::CANARY`] canary bytes checked after the
//!   call. A write into the canary is answered `error overflow ...`; one
//!   that reaches the guard page faults, and the crash handler writes
//!   `error overflow ...` and ends the host. Either way nothing outside
//!   the host's buffer page was touched, and the harness starts a fresh
//!   host.
//! - With a memory limit, the host sets its address-space limit
//!   (`RLIMIT_AS`) before it loads the library. Detected as `error memory
//!   ...`: a crash (segfault, bus error, abort) during the call after an
//!   allocation in it failed (`errno` `ENOMEM`, as `malloc` leaves it) or
//!   while a 64 KiB mapping fails; a call that returns no solution after
//!   an allocation in it failed. Not detected: a solver that handles the
//!   failure and returns an answer (it is cross-checked like any other),
//!   one that exits on its own (`exit(1)` after a failed `malloc`: the
//!   harness sees the exit status), or a crash that leaves `errno` changed
//!   and memory to map (the harness sees the signal).
//! - Any other crash kills the host with its signal; the harness reports
//!   it.
//!
//! After an `error` answer the host ends ([`Served::failed`]): the harness
//! restarts it anyway.
//!
//! The crash handler ends the process itself (it writes its one line with
//! write(2) and calls `_exit`): the one place the library does, as a
//! signal handler must.

pub mod guard;

#[cfg(test)]
mod tests;

use std::io::{self, BufRead, Write};

use super::foreign::{self, ForeignError, LibrarySpec, Opened, SolveFn};
use super::layout::{Placement, Randomised, Spacer};
use super::process::ring::{AnswerRing, RING_WORD};
use super::process::{self, CommandSpec, ProcessOptions};
use super::{Budget, LogFile, Outcome, Solver, SolverEntry};
use crate::clock::{self, Instant};
use crate::puzzle::{Format, Notation, Puzzle};
use guard::{Call, GuardedBuffer};

/// The protocol version the host speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The hidden subcommand of the `dlxbench` binary that runs a host:
/// `dlxbench solver-host [--kind KIND] PATH:SYMBOL[@FLAGS] [--count-only]
/// [--memory-limit BYTES]` ([`HostCommand::args`] writes the arguments).
pub const SUBCOMMAND: &str = "solver-host";

/// How to start a host for a library: the program (the `dlxbench` binary,
/// which the caller supplies: this library does not assume which binary
/// it runs in) and what to pass it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostCommand {
    /// The program that has the [`SUBCOMMAND`] (the `dlxbench` binary).
    pub program: std::path::PathBuf,
    /// The library and symbol.
    pub spec: LibrarySpec,
    /// The kind's name (`--kind`).
    pub kind: &'static str,
    /// The address-space limit, in bytes.
    pub memory_limit: Option<u64>,
}

impl HostCommand {
    /// The arguments after the program: the subcommand, the kind, the
    /// library (`PATH:SYMBOL@FLAGS`, without the run's name for it), and
    /// the options.
    ///
    /// ```
    /// use dlxbench::solvers::host::HostCommand;
    ///
    /// let mut spec: dlxbench::solvers::foreign::LibrarySpec = "./libx.so:solve@2=fast".parse().unwrap();
    /// spec.count_only = true;
    /// let command = HostCommand { program: "dlxbench".into(), spec, kind: "sudoku", memory_limit: Some(1 << 30) };
    /// assert_eq!(command.args(), ["solver-host", "--kind", "sudoku", "./libx.so:solve@2",
    ///                             "--count-only", "--memory-limit", "1073741824"]);
    /// ```
    pub fn args(&self) -> Vec<std::ffi::OsString> {
        let mut library = self.spec.path.clone().into_os_string();
        library.push(format!(":{}", self.spec.symbol));
        if self.spec.flags != 0 {
            library.push(format!("@{}", self.spec.flags));
        }
        let mut args: Vec<std::ffi::OsString> = vec![
            SUBCOMMAND.into(),
            "--kind".into(),
            self.kind.into(),
            library,
        ];
        if self.spec.count_only {
            args.push("--count-only".into());
        }
        if let Some(bytes) = self.memory_limit {
            args.push("--memory-limit".into());
            args.push(bytes.to_string().into());
        }
        args
    }

    /// A command that starts the host, given this process's clock
    /// calibration ([`clock::handed_down`]).
    pub fn command(&self) -> std::process::Command {
        let mut command = std::process::Command::new(&self.program);
        command.args(self.args());
        if let Some(scale) = clock::handed_down() {
            command.env(clock::CALIBRATION_ENV, scale);
        }
        command
    }

    /// Runs the host once with `--check`: it sets its limits, loads the
    /// library and looks the symbol up ([`foreign::open`]), and ends. Ok
    /// when that worked; otherwise the host's own message (a missing
    /// symbol, a library the loader refuses, a memory limit too small to
    /// load it), so that a run can refuse the library before it starts, as
    /// it does in process. The library's initialisers run in that process,
    /// not in this one.
    pub fn check(&self) -> Result<(), HostCheckError> {
        let output = self
            .command()
            .arg("--check")
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| HostCheckError::Spawn {
                program: self.program.clone(),
                source: e,
            })?;
        if output.status.success() {
            return Ok(());
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        // The binary's own prefix (`dlxbench: `) is not part of the reason.
        let message = stderr
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .map(|l| l.strip_prefix("dlxbench: ").unwrap_or(l))
            .collect::<Vec<_>>()
            .join("; ");
        Err(HostCheckError::Refused {
            status: output.status.to_string(),
            message,
        })
    }
}

/// An entry for the library of `host.spec`, run isolated: each worker's
/// solver starts a host ([`HostCommand::command`]) at its first puzzle
/// and drives it through the protocol client ([`super::process`]), with
/// its deadlines, restarts and failure statuses. Like the library loaded in
/// process ([`foreign::load`]) it accepts only puzzles with a
/// [`Puzzle::write_c81`] form (others are not applicable: not sent, not
/// timed) and, when count-only, returns no solutions; its time is the
/// host's reading around the C call (`ns=`). Its default budget is the
/// client's ([`Budget::SAFETY_TIME`](super::Budget::SAFETY_TIME), the
/// deadline of each call); its standard error goes to the client's log
/// file.
///
/// Call [`HostCommand::check`] first for a library's errors before the
/// run; this does not load anything.
pub fn entry<P: Puzzle>(host: &HostCommand, options: ProcessOptions) -> SolverEntry<P> {
    let log = LogFile::new(process::log_file_name(&host.spec.name));
    entry_placed(host, host, options, None, log)
}

/// [`entry`] for `host`, whose hosts run `running` (`host` with the path of
/// a copy of its library), with `placement` (`--layout`, and the
/// environment padding); its standard error going to `log`. Each pass of
/// a run with a randomised layout ([`super::layout`]) makes it afresh, with
/// a fresh copy and placement.
fn entry_placed<P: Puzzle>(
    host: &HostCommand,
    running: &HostCommand,
    options: ProcessOptions,
    placement: Option<Placement>,
    log: LogFile,
) -> SolverEntry<P> {
    let spec = &host.spec;
    let mut args = running.args();
    if let Some(placement) = placement {
        args.push("--layout".into());
        args.push(placement.to_string().into());
    }
    let command = CommandSpec::new(spec.name.clone(), running.program.as_os_str(), args);
    // The host's `ns=` is the harness's own reading, not checked against
    // round trips: the client may read its answers late, and write the
    // next batch before it reads them.
    // Its answers go into shared memory, not a write(2) each
    // (process::ring).
    let options = ProcessOptions {
        sleep_through_batches: true,
        pipeline: true,
        answer_ring: true,
        ..options
    };
    // The hosts time their calls on this process's scale, not a
    // calibration of their own at each start-up.
    let env = placement
        .map(|p| p.env())
        .into_iter()
        .chain(clock::handed_down().map(|scale| (clock::CALIBRATION_ENV, scale)))
        .collect();
    let inner =
        process::entry_placed::<P>(&command, options, String::new(), spec.count_only, log, env);
    let count_only = spec.count_only;
    let mut description = format!("loaded from {spec}");
    if count_only {
        description.push_str(", count-only (solutions not validated)");
    }
    description.push_str(", isolated (a host process per worker)");
    if let Some(bytes) = host.memory_limit {
        description.push_str(&format!(", memory limit {bytes} bytes"));
    }
    let budget = inner.default_budget();
    let log = inner.log_file().cloned();
    let original = host.clone();
    let log_again = log.clone();
    let entry = SolverEntry::new(spec.name.clone(), description, move || {
        Box::new(Isolated {
            inner: inner.make(),
            count_only,
        })
    })
    .with_default_budget(budget)
    .with_relayout(Randomised::Isolated, move |fresh| {
        let running = HostCommand {
            spec: LibrarySpec {
                path: fresh.copy(&original.spec.path)?,
                ..original.spec.clone()
            },
            ..original.clone()
        };
        let log = log_again
            .clone()
            .unwrap_or_else(|| LogFile::new(process::log_file_name(&original.spec.name)));
        Ok(entry_placed(
            &original,
            &running,
            options,
            Some(*fresh.placement()),
            log,
        ))
    });
    match log {
        Some(log) => entry.with_log_file(log),
        None => entry,
    }
}

/// A worker's isolated C solver: the protocol client's solver, with the C
/// interface's 9x9 filter and count-only flag.
struct Isolated<P> {
    inner: Box<dyn Solver<P>>,
    count_only: bool,
}

// Repeats the signatures of `Solver`'s methods, as every solver does (trait impl).
impl<P: Puzzle> Solver<P> for Isolated<P> {
    fn solve(&mut self, puzzle: &P, limit: u64, budget: Budget, solution: &mut P) -> Outcome {
        self.inner.solve(puzzle, limit, budget, solution)
    }

    fn solve_timed(
        &mut self,
        puzzle: &P,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) -> (Outcome, std::time::Duration) {
        let (outcome, took) = self.inner.solve_timed(puzzle, limit, budget, solution);
        (host_timed(outcome), took)
    }

    fn accepts(&self, puzzle: &P) -> bool {
        puzzle.write_c81(&mut [0; 81])
    }

    fn returns_solutions(&self) -> bool {
        !self.count_only
    }

    fn start_corpus(&mut self) {
        self.inner.start_corpus();
    }

    fn solves_blocks(&self) -> bool {
        self.inner.solves_blocks()
    }

    fn wants_warm_up(&self) -> bool {
        self.inner.wants_warm_up()
    }

    fn take_detail(&mut self) -> Option<String> {
        self.inner.take_detail()
    }

    fn solve_block(
        &mut self,
        block: &mut dyn super::Block<P>,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) {
        self.inner
            .solve_block(&mut HostTimed(block), limit, budget, solution);
    }
}

/// An outcome of the host: its `ns=` is no solver's claim about itself but
/// the host's own reading around the C call (the harness's code and clock,
/// in the host process), a call's time as in process
/// ([`Timing::Call`](super::Timing::Call)); there is nothing to check it
/// against the round trips for (a round trip's jitter, mostly the
/// harness's own wake-ups, would only blur it). The protocol client's
/// checks still apply (an own time longer than the round trip is `clock`).
fn host_timed(mut outcome: Outcome) -> Outcome {
    if let super::Timing::Own { .. } = outcome.timing {
        outcome.timing = super::Timing::Call;
    }
    outcome
}

/// A block whose outcomes are [`host_timed`].
struct HostTimed<'a, P>(&'a mut dyn super::Block<P>);

impl<P> super::Block<P> for HostTimed<'_, P> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn puzzle(&mut self, index: usize) -> Option<&P> {
        self.0.puzzle(index)
    }

    fn line(&self, index: usize) -> u64 {
        self.0.line(index)
    }

    fn done(
        &mut self,
        index: usize,
        outcome: &Outcome,
        took: std::time::Duration,
        solution: &P,
        detail: Option<String>,
    ) {
        self.0
            .done(index, &host_timed(*outcome), took, solution, detail);
    }

    fn key(&self) -> Option<u64> {
        self.0.key()
    }

    fn upcoming(&mut self) -> Option<&mut dyn super::Upcoming<P>> {
        self.0.upcoming()
    }
}

/// Why [`HostCommand::check`] failed.
#[derive(Debug, thiserror::Error)]
pub enum HostCheckError {
    /// The host program could not be started.
    #[error("could not start the solver host {}: {source}", program.display())]
    Spawn {
        /// The program.
        program: std::path::PathBuf,
        /// Why not.
        #[source]
        source: io::Error,
    },
    /// The host could not load the library.
    #[error("{message}")]
    Refused {
        /// How the host ended.
        status: String,
        /// What it said on its standard error.
        message: String,
    },
}

/// Why a host could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The guard page or the crash handler could not be set up.
    #[error("could not set up the solution buffer's guard page and crash handler: {0}")]
    Setup(#[source] io::Error),
    /// The memory limit could not be set.
    #[error("could not limit the address space to {bytes} bytes: {source}")]
    MemoryLimit {
        /// The limit asked for.
        bytes: u64,
        /// Why not.
        #[source]
        source: io::Error,
    },
    /// The library could not be loaded.
    #[error(transparent)]
    Load(#[from] ForeignError),
    /// The kind's notation has no default options (a bug).
    #[error("{0}")]
    Notation(String),
    /// Reading a request or writing an answer failed.
    #[error("the protocol's pipes: {0}")]
    Io(#[from] io::Error),
}

/// How a host's session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Served {
    /// Requests answered.
    pub requests: u64,
    /// The last answer was an `error` line (the host stopped after it).
    pub failed: bool,
}

/// The set-up of a host before its library is loaded: the guarded
/// solution buffer, the crash handler, the memory limit. Separate from
/// [`serve`] so that the protections are in place before the library's
/// initialisers run.
#[derive(Debug)]
pub struct Prepared {
    buffer: GuardedBuffer,
    /// Allocated before the library is loaded, kept for the host's life.
    heap_pad: Vec<u8>,
    /// Reserved until the library is loaded.
    spacer: Spacer,
}

/// Sets up the guard page and the crash handler, then the address-space
/// limit (`memory_limit` bytes). Call once per process.
pub fn prepare(memory_limit: Option<u64>) -> Result<Prepared, HostError> {
    prepare_placed(memory_limit, &Placement::default())
}

/// [`prepare`], the buffers placed by `placement`
/// ([`GuardedBuffer::placed`]) and [`Placement::heap_pad`] bytes allocated
/// (and kept) before the library is loaded: what a pass of a run with a
/// randomised layout gives a host (`--layout`).
pub fn prepare_placed(
    memory_limit: Option<u64>,
    placement: &Placement,
) -> Result<Prepared, HostError> {
    let heap_pad = vec![0u8; placement.heap_pad];
    let mut buffer = GuardedBuffer::placed(placement).map_err(HostError::Setup)?;
    guard::install_crash_handler(&mut buffer).map_err(HostError::Setup)?;
    // Calibrated before any request: not in the first solve.
    clock::calibrate();
    if let Some(bytes) = memory_limit {
        guard::limit_address_space(bytes)
            .map_err(|source| HostError::MemoryLimit { bytes, source })?;
    }
    let spacer = Spacer::reserve(placement.map_pad);
    Ok(Prepared {
        buffer,
        heap_pad,
        spacer,
    })
}

/// Loads the library of `spec` ([`foreign::open`]) into a [`prepare`]d
/// host, as [`serve`] does, and answers nothing: what `solver-host
/// --check` does ([`HostCommand::check`]).
pub fn check(prepared: Prepared, spec: &LibrarySpec) -> Result<(), HostError> {
    let _opened = foreign::open(spec)?;
    drop(prepared);
    Ok(())
}

/// Loads the library of `spec` ([`foreign::open`]) into a [`prepare`]d
/// host and answers requests from `input` on `output` until `input` ends
/// (Ok) or an answer is an `error` (Ok, [`Served::failed`]). The header
/// line is written first. `output` must be the process's standard output
/// for the crash handler's lines to reach the harness. With `ring` (the
/// harness offered one: [`AnswerRing::from_env`]) the header says
/// [`RING_WORD`] and the answers go into the ring, each published whole
/// (no write to `output` after the header but the crash handler's).
pub fn serve<P: Puzzle>(
    prepared: Prepared,
    spec: &LibrarySpec,
    mut input: impl BufRead,
    mut output: impl Write,
    mut ring: Option<AnswerRing>,
) -> Result<Served, HostError> {
    let Opened { library, function } = foreign::open(spec)?;
    drop(prepared.spacer);
    let options = P::options(&Notation::default()).map_err(|e| HostError::Notation(e.0))?;
    let mut host = Host::<P> {
        _library: library,
        function,
        flags: spec.flags,
        count_only: spec.count_only,
        buffer: prepared.buffer,
        _heap_pad: prepared.heap_pad,
        puzzle: P::blank(),
        solution: P::blank(),
        options,
        answer: Vec::with_capacity(256),
    };
    let ring_word = match ring {
        Some(_) => [" ", RING_WORD].concat(),
        None => String::new(),
    };
    writeln!(
        output,
        "dlxbench-protocol {PROTOCOL_VERSION} {}{ring_word} dlxbench-solver-host {}",
        process::BATCH_WORD,
        spec.name
    )?;
    output.flush()?;
    let mut line = Vec::with_capacity(256);
    let mut served = Served {
        requests: 0,
        failed: false,
    };
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(served);
        }
        let request = line.strip_suffix(b"\n").unwrap_or(&line);
        host.answer.clear();
        let failed = host.answer_to(request);
        match ring.as_mut() {
            Some(ring) => ring.write(&host.answer)?,
            None => {
                output.write_all(&host.answer)?;
                output.flush()?;
            }
        }
        served.requests += 1;
        if failed {
            served.failed = true;
            return Ok(served);
        }
    }
}

/// A host's state: the function, its buffers, the puzzle and solution.
struct Host<P: Puzzle> {
    /// Keeps the library mapped.
    _library: std::sync::Arc<libloading::Library>,
    function: SolveFn,
    flags: u32,
    count_only: bool,
    /// The input and solution buffers.
    buffer: GuardedBuffer,
    /// Padding allocated before the library was loaded.
    _heap_pad: Vec<u8>,
    puzzle: P,
    solution: P,
    options: P::Options,
    /// The answer line being written.
    answer: Vec<u8>,
}

impl<P: Puzzle> Host<P> {
    /// Writes the answer to `request` (with its line feed) into
    /// `self.answer`; true when it is an `error`.
    fn answer_to(&mut self, request: &[u8]) -> bool {
        let Some((limit, puzzle)) = parse_request(request) else {
            self.answer
                .extend_from_slice(b"error request not `solve LIMIT PUZZLE` (protocol 1)\n");
            return true;
        };
        if let Err(e) = P::parse_line(puzzle, self.options, &mut self.puzzle) {
            let _ = writeln!(self.answer, "n/a not a puzzle of this kind: {e}");
            return false;
        }
        let input = self.buffer.input();
        let c81: &mut [u8; 81] = (&mut input[..81]).try_into().expect("81 bytes");
        if !self.puzzle.write_c81(c81) {
            self.answer
                .extend_from_slice(b"n/a the C interface takes 9x9 Sudoku only\n");
            return false;
        }
        input[81] = 0;
        if limit == 0 {
            self.answer.extend_from_slice(b"0 - guesses=0 ns=0\n");
            return false;
        }
        self.buffer.prepare();
        let input = self.buffer.input_ptr();
        let solution = self.buffer.solution_ptr();
        let mut guesses = 0usize;
        let call = Call::start();
        let started = Instant::now();
        // SAFETY: a NUL-terminated 81-character input; a solution buffer of
        // 81 bytes and slack (a write past it faults in the guard page and
        // ends this process); the function is the one `open` found.
        let found = unsafe {
            (self.function)(
                input.cast_const().cast(),
                usize::try_from(limit).unwrap_or(usize::MAX),
                self.flags,
                solution.cast(),
                &mut guesses,
            )
        };
        let took = started.elapsed();
        let allocation_failed = call.end();
        if let Some(past) = self.buffer.overflow() {
            let _ = writeln!(
                self.answer,
                "error overflow the solver wrote {past} bytes past its solution's 81 characters \
                 ({} allowed)",
                guard::SLACK
            );
            return true;
        }
        if found == 0 && allocation_failed {
            self.answer.extend_from_slice(
                b"error memory the solver found nothing after an allocation failed: out of memory under the host's limit\n",
            );
            return true;
        }
        let mut digits = itoa::Buffer::new();
        self.answer
            .extend_from_slice(digits.format(found as u64).as_bytes());
        self.answer.push(b' ');
        if found == 0 || self.count_only {
            // Count-only: the harness reads no solution, so none is
            // written (formatting the grid took 8% of a host's time on
            // tdoku's 4 µs solves).
            self.answer.push(b'-');
        } else {
            let readable = self.solution.read_c81(&self.puzzle, self.buffer.answer());
            // Not a grid of digits (or not read): the puzzle itself, which
            // validation rejects unless it was already full, as in-process.
            let written = if readable {
                &self.solution
            } else {
                &self.puzzle
            };
            written
                .write(&mut self.answer, Format::Line, &self.options)
                .expect("writing to memory");
        }
        self.answer.extend_from_slice(b" guesses=");
        self.answer
            .extend_from_slice(digits.format(guesses as u64).as_bytes());
        self.answer.extend_from_slice(b" ns=");
        self.answer
            .extend_from_slice(digits.format(took.as_nanos()).as_bytes());
        self.answer.push(b'\n');
        false
    }
}

/// `solve LIMIT PUZZLE`: the limit and the puzzle's text.
fn parse_request(request: &[u8]) -> Option<(u64, &[u8])> {
    let rest = request.strip_prefix(b"solve ")?;
    let space = rest.iter().position(|&b| b == b' ')?;
    let limit = std::str::from_utf8(&rest[..space]).ok()?.parse().ok()?;
    let puzzle = &rest[space + 1..];
    (!puzzle.is_empty()).then_some((limit, puzzle))
}

/// A memory size as `--memory-limit` takes it: bytes, or a number with a
/// binary suffix `K`, `M`, `G`, `T` (powers of 1024; `KiB`, `MB` and the
/// like are read the same way).
///
/// ```
/// use dlxbench::solvers::host::parse_size;
///
/// assert_eq!(parse_size("4096"), Ok(4096));
/// assert_eq!(parse_size("512M"), Ok(512 << 20));
/// assert_eq!(parse_size("2GiB"), Ok(2 << 30));
/// assert_eq!(parse_size("1.5g"), Ok(3 << 29));
/// assert!(parse_size("lots").is_err());
/// assert!(parse_size("0").is_err());
/// ```
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad =
        || format!("`{text}`: expected a size in bytes, or with a suffix K, M, G or T (512M, 2G)");
    let trimmed = text.trim();
    let digits = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, suffix) = trimmed.split_at(digits);
    let suffix = suffix.trim().to_ascii_lowercase();
    let unit = suffix
        .strip_suffix("ib")
        .or_else(|| suffix.strip_suffix('b'))
        .unwrap_or(&suffix);
    let shift = match unit {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => return Err(bad()),
    };
    let bytes = if number.contains('.') {
        let value: f64 = number.parse().map_err(|_| bad())?;
        let bytes = value * (1u64 << shift) as f64;
        (bytes.is_finite() && bytes < u64::MAX as f64).then_some(bytes.round() as u64)
    } else {
        let value: u64 = number.parse().map_err(|_| bad())?;
        value.checked_mul(1 << shift)
    }
    .ok_or_else(bad)?;
    if bytes == 0 {
        return Err(format!(
            "`{text}`: a memory limit must be more than 0 bytes"
        ));
    }
    Ok(bytes)
}
