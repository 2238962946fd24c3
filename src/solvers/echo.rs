//! The round-trip floor: what the pipe to a solver in its own process
//! costs, measured with a trivial solver that answers at once.
//!
//! The echo solver ([`serve`]; the `dlxbench` binary's hidden
//! [`SUBCOMMAND`]) speaks the solver line protocol, version
//! [`PROTOCOL_VERSION`](super::process::PROTOCOL_VERSION): it prints the
//! header `dlxbench-protocol 1 echo`, then answers every request line at
//! once with `0 -`, solving nothing (the answer is a well-formed
//! response; what it says does not matter; it reports no time of its own,
//! so that as a `--solver-cmd` its latencies are the round trips). [`measure`] starts it, sends
//! [`WARMUP_REQUESTS`] untimed requests and then [`REQUESTS`] timed ones
//! (a 9x9 puzzle each, as a Sudoku run's requests), and reads the clock
//! around each: from writing the request to reading the response, as the
//! protocol client times a solver's round trip. A few milliseconds in all.
//!
//! ```
//! let mut out = Vec::new();
//! let answered = dlxbench::solvers::echo::serve(&b"solve 2 ...\nsolve 2 ...\n"[..], &mut out).unwrap();
//! assert_eq!(answered, 2);
//! assert_eq!(String::from_utf8(out).unwrap(), "dlxbench-protocol 1 echo\n0 -\n0 -\n");
//! ```

use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::clock::{self, Instant};

/// The hidden subcommand of the `dlxbench` binary that runs the echo
/// solver: `dlxbench solver-echo`.
pub const SUBCOMMAND: &str = "solver-echo";

/// Untimed requests sent first (the process's pages and caches warm).
pub const WARMUP_REQUESTS: usize = 100;

/// Timed requests of a measurement.
pub const REQUESTS: usize = 1_000;

/// The request sent: a solution limit of 2 and a 9x9 puzzle (norvig's
/// first), the size of a Sudoku run's requests.
const REQUEST: &str =
    "solve 2 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";

/// Answers every request line on `input` with `0 -` on `output`, after
/// the header, until `input` ends: the echo solver. Returns the number of
/// requests answered.
pub fn serve(input: impl BufRead, mut output: impl Write) -> io::Result<u64> {
    writeln!(
        output,
        "dlxbench-protocol {} echo",
        super::process::PROTOCOL_VERSION
    )?;
    output.flush()?;
    let mut answered = 0;
    for line in input.lines() {
        line?;
        output.write_all(b"0 -\n")?;
        output.flush()?;
        answered += 1;
    }
    Ok(answered)
}

/// The round-trip floor measured ([`measure`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floor {
    /// The median round trip, ns.
    pub p50_ns: u64,
    /// The mean round trip, ns.
    pub mean_ns: f64,
    /// Timed requests.
    pub requests: u64,
}

/// Why the floor could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum FloorError {
    /// The echo process could not be started.
    #[error("cannot start {} {SUBCOMMAND}: {source}", program.display())]
    Spawn {
        /// The program.
        program: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// Writing to or reading from the echo process failed.
    #[error("the echo solver's pipe: {0}")]
    Io(#[from] io::Error),
    /// The echo process answered something else than the echo solver
    /// does, or closed its output.
    #[error("the echo solver answered {0:?}")]
    Unexpected(String),
}

/// Measures the round-trip floor: starts `program` (the `dlxbench` binary:
/// the caller gives its path, this library does not assume which binary
/// it runs in) with [`SUBCOMMAND`], waits for its header (not timed),
/// sends [`WARMUP_REQUESTS`] requests, then `requests` timed ones, and
/// ends the process (closes its input, waits for it).
pub fn measure(program: &Path, requests: usize) -> Result<Floor, FloorError> {
    let mut child = Command::new(program)
        .arg(SUBCOMMAND)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|source| FloorError::Spawn {
            program: program.to_path_buf(),
            source,
        })?;
    let result = exchange(&mut child, requests);
    // Closing its input ends it; a process that misbehaved is killed.
    drop(child.stdin.take());
    if result.is_err() {
        let _ = child.kill();
    }
    let _ = child.wait();
    result
}

/// The header, the warm-up and the timed requests.
fn exchange(child: &mut std::process::Child, requests: usize) -> Result<Floor, FloorError> {
    let (Some(stdin), Some(stdout)) = (child.stdin.as_mut(), child.stdout.take()) else {
        return Err(FloorError::Unexpected("no pipes".into()));
    };
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    let mut read = |line: &mut String| -> Result<(), FloorError> {
        line.clear();
        if reader.read_line(line)? == 0 {
            return Err(FloorError::Unexpected("nothing (its output closed)".into()));
        }
        Ok(())
    };
    read(&mut line)?;
    if super::process::parse_header(line.trim_end().as_bytes()).is_err() {
        return Err(FloorError::Unexpected(line.trim_end().to_string()));
    }
    clock::calibrate();
    let mut times = Vec::with_capacity(requests);
    for i in 0..WARMUP_REQUESTS + requests {
        let start = Instant::now();
        stdin.write_all(REQUEST.as_bytes())?;
        stdin.flush()?;
        read(&mut line)?;
        let ns = start.elapsed().as_nanos() as u64;
        if !line.starts_with("0 -") {
            return Err(FloorError::Unexpected(line.trim_end().to_string()));
        }
        if i >= WARMUP_REQUESTS {
            times.push(ns);
        }
    }
    times.sort_unstable();
    let mean_ns = match times.len() {
        0 => 0.0,
        n => times.iter().map(|&t| t as f64).sum::<f64>() / n as f64,
    };
    Ok(Floor {
        p50_ns: times.get(times.len() / 2).copied().unwrap_or(0),
        mean_ns,
        requests: times.len() as u64,
    })
}
