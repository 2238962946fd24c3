//! Reading the solver's lines: the header and the responses (protocol
//! version 1).

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::ops::Range;

use super::PROTOCOL_VERSION;
use crate::solvers::Failure;

/// A line that is not what the protocol allows there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("not a line of the dlxbench solver protocol {PROTOCOL_VERSION}")]
pub struct Malformed;

/// A response to `solve LIMIT PUZZLE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Response {
    /// `COUNT SOLUTION [key=value ...]`.
    Answer(Answer),
    /// `n/a [reason]`: the solver does not take this puzzle.
    NotApplicable,
    /// `error KIND [message]`: [`Failure::Overflow`] for `overflow`,
    /// [`Failure::Memory`] for `memory`, [`Failure::Error`] for any other
    /// kind.
    Error(Failure),
}

/// `COUNT SOLUTION [key=value ...]`, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Solutions found.
    pub count: u64,
    /// Where the solution's word is in the line (`-` when COUNT is 0).
    pub solution: Range<usize>,
    /// `guesses=N`.
    pub guesses: Option<u64>,
    /// `nodes=N`.
    pub nodes: Option<u64>,
    /// `mems=N`: memory accesses, as Knuth's programs count them.
    pub mems: Option<u64>,
    /// `ns=N`: the solver's own time of the solve.
    pub ns: Option<u64>,
}

/// The words of `line` (split at spaces and tabs, a trailing `\r`
/// dropped), as ranges.
fn words(line: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut at = 0;
    std::iter::from_fn(move || {
        let blank = |b: &u8| *b == b' ' || *b == b'\t';
        while at < line.len() && blank(&line[at]) {
            at += 1;
        }
        if at == line.len() {
            return None;
        }
        let start = at;
        while at < line.len() && !blank(&line[at]) {
            at += 1;
        }
        Some(start..at)
    })
}

/// A decimal `u64` (digits only).
fn number(text: &[u8]) -> Option<u64> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// Checks the header line: `dlxbench-protocol 1`, anything after another
/// space ignored.
///
/// ```
/// use dlxbench::solvers::process::parse_header;
///
/// assert!(parse_header(b"dlxbench-protocol 1").is_ok());
/// assert!(parse_header(b"dlxbench-protocol 1 my-solver 0.3\r").is_ok());
/// assert!(parse_header(b"dlxbench-protocol 2").is_err());
/// assert!(parse_header(b"hello").is_err());
/// ```
pub fn parse_header(line: &[u8]) -> Result<(), Malformed> {
    let mut w = words(line);
    let magic = w.next().map(|r| &line[r]);
    let version = w.next().map(|r| &line[r]);
    match (magic, version.and_then(number)) {
        (Some(b"dlxbench-protocol"), Some(v)) if v == u64::from(PROTOCOL_VERSION) => Ok(()),
        _ => Err(Malformed),
    }
}

/// Reads a response to a request with solution limit `limit`. A missing
/// solution word or a known key with no number are malformed; unknown keys
/// are ignored. A count above the limit is read as given: it is a wrong
/// answer, not a malformed line, and the harness reports it as one (an
/// `invalid` count, as for a solver in this process). (Whether the solution word is
/// a solution of the right size, and not `-` when COUNT is above 0, is the
/// caller's to check: a count-only solver's is not read.)
///
/// ```
/// use dlxbench::solvers::process::{parse_response, Response};
/// use dlxbench::solvers::Failure;
///
/// let line = b"1 534678912 guesses=3 ns=1200 colour=blue";
/// let Ok(Response::Answer(a)) = parse_response(line, 2) else { panic!() };
/// assert_eq!((a.count, &line[a.solution.clone()]), (1, &b"534678912"[..]));
/// assert_eq!((a.guesses, a.nodes, a.ns), (Some(3), None, Some(1200)));
/// let Ok(Response::Answer(a)) = parse_response(b"1 534678912 nodes=9 mems=5140", 2) else { panic!() };
/// assert_eq!((a.nodes, a.mems), (Some(9), Some(5140)));
/// assert!(parse_response(b"1 534678912 mems=many", 2).is_err());
/// assert_eq!(parse_response(b"n/a 9x9 only", 2), Ok(Response::NotApplicable));
/// assert_eq!(parse_response(b"error overflow wrote 4096 bytes", 2), Ok(Response::Error(Failure::Overflow)));
/// assert_eq!(parse_response(b"error segv", 2), Ok(Response::Error(Failure::Error)));
/// // A count-only solver may give no solution; the caller decides.
/// assert!(matches!(parse_response(b"1 -", 2), Ok(Response::Answer(_))));
/// // A count above the limit is the solver's wrong answer, told as such.
/// assert!(matches!(parse_response(b"3 534678912", 2), Ok(Response::Answer(a)) if a.count == 3));
/// assert!(parse_response(b"1", 2).is_err());
/// assert!(parse_response(b"hello world", 2).is_err());
/// ```
pub fn parse_response(line: &[u8], _limit: u64) -> Result<Response, Malformed> {
    let mut w = words(line);
    let first = w.next().ok_or(Malformed)?;
    match &line[first.clone()] {
        b"n/a" => return Ok(Response::NotApplicable),
        b"error" => {
            let kind = w.next().map(|r| &line[r]);
            return Ok(Response::Error(match kind {
                Some(b"overflow") => Failure::Overflow,
                Some(b"memory") => Failure::Memory,
                _ => Failure::Error,
            }));
        }
        _ => {}
    }
    let count = number(&line[first]).ok_or(Malformed)?;
    let solution = w.next().ok_or(Malformed)?;
    let mut answer = Answer {
        count,
        solution,
        guesses: None,
        nodes: None,
        mems: None,
        ns: None,
    };
    for r in w {
        let word = &line[r];
        let Some(eq) = word.iter().position(|&b| b == b'=') else {
            continue;
        };
        let (key, value) = (&word[..eq], &word[eq + 1..]);
        let slot = match key {
            b"guesses" => &mut answer.guesses,
            b"nodes" => &mut answer.nodes,
            b"mems" => &mut answer.mems,
            b"ns" => &mut answer.ns,
            _ => continue,
        };
        *slot = Some(number(value).ok_or(Malformed)?);
    }
    Ok(Response::Answer(answer))
}
