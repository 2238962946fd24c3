//! What every subcommand shares: opening the input (a file or standard
//! input, streamed), the output (standard output or a file written
//! atomically), ending on a closed pipe, messages on standard error
//! (`errln!`), the input policy, and the per-file tallies of `solve` and
//! `check`.
//!
//! # Standard error
//! Every message goes through `errln!` (never `eprintln!`): its control
//! characters are escaped ([`dlxbench::terminal::escape_lines`]), so that
//! nothing from a corpus reaches the terminal raw, and a closed standard
//! error (`2>&1 | head -1`) is not an error: the message is dropped, and
//! so are the ones after it, and the command goes on to its usual end (a
//! closed standard output ends it quietly, as below).
//!
//! # Input policy
//! `solve`, `check`, `convert` and `rate` read their input alike (the rules
//! are the library's, [`dlxbench::corpus`]): a UTF-8 byte-order mark at the
//! start is skipped, CRLF line ends are fine, a line longer than
//! [`MAX_LINE_BYTES`](dlxbench::corpus::MAX_LINE_BYTES) is unreadable, and
//! an input read to its end without a readable puzzle (empty, only
//! comments, random bytes, another kind) is an error: exit 2 after the
//! per-puzzle messages and the summary ([`finish_input`],
//! [`check_readable`]). A directory is refused before anything is written
//! ([`Input::open`]).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context};
use dlxbench::atomic::AtomicFile;
use dlxbench::clobber::Inputs;
use dlxbench::corpus::check_readable;
use dlxbench::puzzle::Puzzle;
use dlxbench::terminal::escape_lines;

use super::{EXIT_FAILURE, EXIT_OK};

/// An opened input: its name for messages and a reader.
pub(crate) struct Input {
    /// `FILE` as given, or `<stdin>`.
    pub name: String,
    /// The bytes, streamed.
    pub reader: Box<dyn Read>,
}

impl Input {
    /// Opens `file`, or standard input for `None` and `-`. A directory is
    /// refused here, before the subcommand writes anything.
    pub(crate) fn open(file: Option<&Path>) -> anyhow::Result<Input> {
        match file {
            Some(path) if path != Path::new("-") => {
                let context = || format!("cannot read {}", path.display());
                let f = File::open(path).with_context(context)?;
                if f.metadata().with_context(context)?.is_dir() {
                    bail!("cannot read {}: it is a directory", path.display());
                }
                Ok(Input {
                    name: path.display().to_string(),
                    reader: Box::new(f),
                })
            }
            _ => Ok(Input {
                name: "<stdin>".to_string(),
                reader: Box::new(io::stdin().lock()),
            }),
        }
    }

    /// The whole input, for formats that need all of it at once.
    pub(crate) fn read_all(mut self) -> anyhow::Result<(String, Vec<u8>)> {
        let mut bytes = Vec::new();
        self.reader
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {}", self.name))?;
        Ok((self.name, bytes))
    }
}

/// The input of a subcommand that reads `file` (`-` or none: standard
/// input), for [`Output::create`] to check its `--out` against.
pub(crate) fn inputs_of(file: Option<&Path>) -> Inputs {
    let mut inputs = Inputs::new();
    match file {
        Some(path) => inputs.add(path),
        None => inputs.add_stdin(),
    };
    inputs
}

/// Where a subcommand writes: buffered standard output, or a file that
/// appears complete or not at all ([`AtomicFile`]).
pub(crate) enum Output {
    /// Standard output.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A file, renamed into place by [`Output::finish`].
    File(AtomicFile),
}

impl Output {
    /// `--out FILE` when given, else standard output. A FILE that is one
    /// of `inputs` ([`inputs_of`]) is refused, before anything is written.
    pub(crate) fn create(out: Option<&PathBuf>, inputs: &Inputs) -> anyhow::Result<Output> {
        match out {
            Some(path) => Ok(Output::File({
                super::check_output(inputs, "--out", path)?;
                AtomicFile::create(path)
                    .with_context(|| format!("cannot create {}", path.display()))?
            })),
            None => Ok(Output::Stdout(BufWriter::with_capacity(
                1 << 16,
                io::stdout().lock(),
            ))),
        }
    }

    /// The writer.
    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(w) => w,
            Output::File(f) => f,
        }
    }

    /// Flushes standard output, or moves the file into place; with `keep`
    /// false a file is dropped instead (nothing is written).
    pub(crate) fn finish(self, keep: bool) -> io::Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush(),
            Output::File(f) if keep => f.commit().map(drop),
            Output::File(_) => Ok(()),
        }
    }
}

/// Set once a write to standard error failed (it closed): nothing more is
/// written there.
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `message` and a line break on standard error, its control
/// characters escaped; a failed write (standard error closed) is ignored,
/// and later messages are dropped. Called by `errln!`.
pub(crate) fn write_stderr(message: std::fmt::Arguments<'_>) {
    if STDERR_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut text = escape_lines(&message.to_string()).into_owned();
    text.push('\n');
    let mut err = io::stderr().lock();
    if err.write_all(text.as_bytes()).is_err() {
        STDERR_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// `eprintln!` for the command line: a message on standard error with its
/// control characters escaped, and no panic when standard error is closed
/// ([`write_stderr`]).
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::io::write_stderr(format_args!($($arg)*))
    };
}
pub(crate) use errln;

/// Whether `error` is a write to a closed pipe (`| head`), which ends a
/// subcommand quietly and successfully.
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Ends a subcommand whose output went to standard output: a write to a
/// closed pipe is not a failure.
pub(crate) fn finish(result: io::Result<u8>) -> anyhow::Result<ExitCode> {
    match result {
        Ok(code) => Ok(code.into()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(EXIT_OK.into()),
        Err(e) => Err(e).context("cannot write the output"),
    }
}

/// Puzzles read from an input and puzzles (or lines) that could not be.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Counts {
    /// Puzzles read.
    pub read: u64,
    /// Puzzles that could not be read.
    pub unreadable: u64,
}

impl Counts {
    /// The input policy's verdict on an input read to its end: an error
    /// naming it (exit 2) when it held no readable puzzle.
    pub(crate) fn check(self, name: &str) -> anyhow::Result<()> {
        check_readable(self.read, self.unreadable).with_context(|| name.to_string())
    }
}

/// [`finish`] for a subcommand that read the input `name` to its end
/// (unless the output closed first): the input policy applies too.
pub(crate) fn finish_input(
    name: &str,
    counts: Counts,
    result: io::Result<u8>,
) -> anyhow::Result<ExitCode> {
    if result.is_ok() {
        counts.check(name)?;
    }
    finish(result)
}

/// `1 puzzle`, `2 puzzles`.
pub(crate) fn puzzles(count: usize) -> String {
    match count {
        1 => "1 puzzle".to_string(),
        n => format!("{n} puzzles"),
    }
}

/// What `solve` found over a file, for its summary line and exit status.
#[derive(Debug, Default)]
pub(crate) struct SolveTally {
    solved: usize,
    multiple: usize,
    none: usize,
    unreadable: usize,
    undecided: usize,
    /// Puzzles the solver does not take (a 9x9-only solver, another size).
    not_applicable: usize,
    /// Failed solves (a solver in its own process that crashed, timed out
    /// or broke the protocol).
    failed: usize,
}

impl SolveTally {
    /// Puzzles read and unreadable, for the input policy.
    pub(crate) fn counts(&self) -> Counts {
        Counts {
            read: (self.solved
                + self.multiple
                + self.none
                + self.undecided
                + self.not_applicable
                + self.failed) as u64,
            unreadable: self.unreadable as u64,
        }
    }

    /// Counts a puzzle with `found` solutions; `gave_up` when the node
    /// budget stopped the search.
    pub(crate) fn solved(&mut self, found: u64, gave_up: bool) {
        match (found, gave_up) {
            (0, true) => self.undecided += 1,
            (0, false) => self.none += 1,
            (1, _) => self.solved += 1,
            _ => self.multiple += 1,
        }
    }

    /// Counts a puzzle the solver does not take.
    pub(crate) fn not_applicable(&mut self) {
        self.not_applicable += 1;
    }

    /// Counts a line that did not parse.
    pub(crate) fn unreadable(&mut self) {
        self.unreadable += 1;
    }

    /// Counts a failed solve.
    pub(crate) fn failed(&mut self) {
        self.failed += 1;
    }

    /// Prints the summary line of file `name` (`kind` after the puzzle
    /// count, e.g. ` (Hanidoku)`) and returns the exit status: failure when
    /// a puzzle had no solution, was unreadable or undecided. `bounded`: a
    /// node budget was set, so "undecided" is always shown.
    pub(crate) fn finish(&self, name: &str, kind: &str, solver: &str, bounded: bool) -> u8 {
        let Self {
            solved,
            multiple,
            none,
            unreadable,
            undecided,
            not_applicable,
            failed,
        } = *self;
        let mut notes = String::new();
        if undecided > 0 || bounded {
            notes.push_str(&format!(", {undecided} undecided"));
        }
        if not_applicable > 0 {
            notes.push_str(&format!(", {not_applicable} not taken by the solver"));
        }
        if failed > 0 {
            notes.push_str(&format!(", {failed} failed"));
        }
        errln!(
            "dlxbench: {name}: {}{kind}: {solved} solved, {multiple} with several solutions, \
             {none} without solution, {unreadable} unreadable{notes} ({solver} solver)",
            puzzles(solved + multiple + none + unreadable + undecided + not_applicable + failed),
        );
        if none + unreadable + undecided + not_applicable + failed > 0 {
            EXIT_FAILURE
        } else {
            EXIT_OK
        }
    }
}

/// What `check` found over a file, for its summary line and exit status.
#[derive(Debug, Default)]
pub(crate) struct CheckTally {
    complete: usize,
    incomplete: usize,
    invalid: usize,
    unreadable: usize,
}

impl CheckTally {
    /// Puzzles read and unreadable, for the input policy.
    pub(crate) fn counts(&self) -> Counts {
        Counts {
            read: (self.complete + self.incomplete + self.invalid) as u64,
            unreadable: self.unreadable as u64,
        }
    }

    /// Counts a verdict: complete, invalid, or (neither) incomplete.
    pub(crate) fn verdict(&mut self, complete: bool, invalid: bool) {
        match (complete, invalid) {
            (true, _) => self.complete += 1,
            (false, true) => self.invalid += 1,
            (false, false) => self.incomplete += 1,
        }
    }

    /// Counts a line that did not parse.
    pub(crate) fn unreadable(&mut self) {
        self.unreadable += 1;
    }

    /// Prints the summary line of file `name` (`kind` after the puzzle
    /// count) and returns the exit status: failure when a puzzle was invalid
    /// or unreadable.
    pub(crate) fn finish(&self, name: &str, kind: &str) -> u8 {
        let Self {
            complete,
            incomplete,
            invalid,
            unreadable,
        } = *self;
        errln!(
            "dlxbench: {name}: {}{kind}: {complete} complete, {incomplete} incomplete, \
             {invalid} invalid, {unreadable} unreadable",
            puzzles(complete + incomplete + invalid + unreadable)
        );
        if invalid + unreadable > 0 {
            EXIT_FAILURE
        } else {
            EXIT_OK
        }
    }
}

/// Reads every puzzle of `input` (streaming) and hands each to `each` until
/// it fails to write. A read error is an error naming the input; the write
/// result comes back for [`finish`] (a closed pipe is not a failure).
pub(crate) fn for_each_puzzle<P, F>(
    input: Input,
    options: P::Options,
    mut each: F,
) -> anyhow::Result<io::Result<()>>
where
    P: Puzzle,
    F: FnMut(Result<(usize, &P), P::Error>) -> io::Result<()>,
{
    let mut written = Ok(());
    P::read_each(input.reader, options, |item| {
        written = each(item);
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(_) => ControlFlow::Break(()),
        }
    })
    .with_context(|| format!("cannot read {}", input.name))?;
    Ok(written)
}

/// `value` as the JSON documents are written ([`dlxbench::results::to_json`]),
/// with a final newline.
pub(crate) fn json_text<T: serde::Serialize>(value: &T) -> anyhow::Result<String> {
    let mut text = dlxbench::results::to_json(value)?;
    text.push('\n');
    Ok(text)
}

/// Writes `text` to `path` atomically ([`AtomicFile`]).
pub(crate) fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    AtomicFile::write(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A report's text: to `out` ([`write_file`]), or to standard output with
/// control characters escaped.
pub(crate) fn write_report(out: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match out {
        Some(path) => write_file(path, text),
        None => {
            let mut stdout = io::stdout().lock();
            stdout.write_all(escape_lines(text).as_bytes())?;
            Ok(stdout.flush()?)
        }
    }
}
