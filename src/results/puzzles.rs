//! `puzzles.csv`: one row per puzzle x solver, its columns those of
//! [`schema::puzzles::Column`] in their order.
//!
//! Written once ([`PuzzleRecord::write_csv`]: the run's writer
//! [`crate::report::puzzles_csv`] and `merge` write every row through it)
//! and read once ([`PuzzleReader`]: `compare`, `merge`, `plot` and
//! `versus` read every row through it). The file can hold millions of
//! rows: the reader streams it with one reused [`csv::StringRecord`] and
//! hands out each row borrowed from it ([`PuzzleRecord<&str>`]), parsing
//! numbers without allocating; [`PuzzleRow`] is the compact form a reader
//! keeps in memory, and [`GroupIndex`] finds a row's corpus x solver
//! without allocating.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::schema::puzzles::Column;
use super::ResultError;
use crate::harness::Record;
use crate::solvers::{Failure, Status, Timing};

/// One row of `puzzles.csv`: `S` is the text of its corpus and solver
/// names, `&str` for a row borrowed from a [`PuzzleReader`], `String` for
/// one kept ([`PuzzleRecord::to_owned`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleRecord<S = String> {
    /// Corpus name.
    pub corpus: S,
    /// 1-based line of the puzzle in its corpus.
    pub line: u64,
    /// Solver name.
    pub solver: S,
    /// Solve time, ns (the minimum over passes).
    pub ns: u64,
    /// Solutions found (capped by the mode's limit).
    pub solutions: u64,
    /// Search nodes (`None`: the solver does not report them).
    pub nodes: Option<u64>,
    /// Branch points.
    pub guesses: u64,
    /// The puzzle's status ([`Status::as_str`]).
    pub status: Status,
    /// Link updates (`None`: the solver has none, or an older file).
    pub updates: Option<u64>,
    /// The round trip to a solver in its own process, ns (`None`: an
    /// in-process solver, or an older file).
    pub round_trip_ns: Option<u64>,
    /// Why the solve failed ([`Failure::cause`]); `None` for a normal
    /// solve, or an older file.
    pub cause: Option<Failure>,
    /// Mems: memory accesses as Knuth's programs count them (`None`: the
    /// solver does not count them, or an older file).
    pub mems: Option<u64>,
    /// The process id of the process that timed the solve, for a solver in
    /// its own process (`None`: an in-process solver, or an older file).
    pub host: Option<u32>,
    /// The line of the first puzzle of the group of answers whose round
    /// trips add up only together ([`Timing::Own::group`]; `None`: an
    /// answer whose round trip is its own, or an older file).
    pub round_trip_group: Option<u64>,
}

impl<'a> PuzzleRecord<&'a str> {
    /// The row of the harness's `record` of `corpus` x `solver` (the
    /// record's solver is an index; `solver` is its name).
    pub fn of_record(corpus: &'a str, solver: &'a str, record: &Record) -> Self {
        PuzzleRecord {
            corpus,
            line: record.line,
            solver,
            ns: record.ns,
            solutions: record.solutions,
            nodes: record.nodes,
            guesses: record.guesses,
            status: record.status,
            updates: record.updates,
            round_trip_ns: record.timing.round_trip_ns(record.ns),
            cause: record.failure,
            mems: record.mems,
            host: record.host,
            round_trip_group: match record.timing {
                Timing::Own { group, .. } => group,
                _ => None,
            },
        }
    }

    /// The row with its names owned.
    pub fn to_owned(&self) -> PuzzleRecord {
        self.map_names(|name| name.to_string())
    }
}

impl<S> PuzzleRecord<S> {
    /// The same row, its names mapped by `f`.
    pub fn map_names<T>(&self, f: impl Fn(&S) -> T) -> PuzzleRecord<T> {
        PuzzleRecord {
            corpus: f(&self.corpus),
            line: self.line,
            solver: f(&self.solver),
            ns: self.ns,
            solutions: self.solutions,
            nodes: self.nodes,
            guesses: self.guesses,
            status: self.status,
            updates: self.updates,
            round_trip_ns: self.round_trip_ns,
            cause: self.cause,
            mems: self.mems,
            host: self.host,
            round_trip_group: self.round_trip_group,
        }
    }

    /// What the time measured: the round trip itself when it is the time,
    /// the solver's own time beside it when not, the call for a solver in
    /// this process.
    pub fn timing(&self) -> Timing {
        match self.round_trip_ns {
            None => Timing::Call,
            Some(rt) if rt == self.ns => Timing::RoundTrip,
            Some(round_trip_ns) => Timing::Own {
                round_trip_ns,
                group: self.round_trip_group,
            },
        }
    }

    /// The harness's record of the row, its solver the index `solver`.
    pub fn record(&self, solver: u16) -> Record {
        Record {
            line: self.line,
            solver,
            status: self.status,
            ns: self.ns,
            solutions: self.solutions,
            nodes: self.nodes,
            guesses: self.guesses,
            updates: self.updates,
            mems: self.mems,
            failure: self.cause,
            timing: self.timing(),
            host: self.host,
        }
    }

    /// The compact form of the row, without its names.
    pub fn row(&self) -> PuzzleRow {
        PuzzleRow {
            line: self.line,
            ns: self.ns,
            nodes: self.nodes,
            updates: self.updates,
            mems: self.mems,
            solutions: self.solutions,
            guesses: self.guesses,
            status: self.status,
        }
    }
}

impl<S: AsRef<str>> PuzzleRecord<S> {
    /// Appends the row to `line` as a line of `puzzles.csv`: each column
    /// of [`Column::ALL`] in order, an empty field for `None`, the names
    /// quoted where CSV needs it. (Into a buffer, written out by the
    /// caller: one write a row, or a batch.)
    pub fn write_csv(&self, line: &mut Vec<u8>) {
        let mut buf = itoa::Buffer::new();
        let mut number = |line: &mut Vec<u8>, v: Option<u64>| {
            if let Some(v) = v {
                line.extend_from_slice(buf.format(v).as_bytes());
            }
        };
        for (i, column) in Column::ALL.into_iter().enumerate() {
            if i > 0 {
                line.push(b',');
            }
            match column {
                Column::Corpus => write_text(line, self.corpus.as_ref()),
                Column::Line => number(line, Some(self.line)),
                Column::Solver => write_text(line, self.solver.as_ref()),
                Column::Ns => number(line, Some(self.ns)),
                Column::Solutions => number(line, Some(self.solutions)),
                Column::Nodes => number(line, self.nodes),
                Column::Guesses => number(line, Some(self.guesses)),
                Column::Status => line.extend_from_slice(self.status.as_str().as_bytes()),
                Column::Updates => number(line, self.updates),
                Column::RoundTripNs => number(line, self.round_trip_ns),
                // Words and numbers only: no quoting needed.
                Column::Cause => {
                    if let Some(failure) = self.cause {
                        line.extend_from_slice(failure.cause().as_bytes());
                    }
                }
                Column::Mems => number(line, self.mems),
                Column::Host => number(line, self.host.map(u64::from)),
                Column::RoundTripGroup => number(line, self.round_trip_group),
            }
        }
        line.push(b'\n');
    }
}

/// Writes the header line of `puzzles.csv`.
pub fn write_header<W: Write + ?Sized>(out: &mut W) -> io::Result<()> {
    writeln!(out, "{}", super::schema::puzzles::COLUMNS.join(","))
}

/// Appends `text` to `line` as a CSV field: quoted when it holds a comma,
/// a quote or a line end.
fn write_text(line: &mut Vec<u8>, text: &str) {
    let special = |b: &u8| matches!(b, b',' | b'"' | b'\n' | b'\r');
    if !text.as_bytes().iter().any(special) {
        return line.extend_from_slice(text.as_bytes());
    }
    line.push(b'"');
    line.extend_from_slice(text.replace('"', "\"\"").as_bytes());
    line.push(b'"');
}

/// One puzzle x solver row of `puzzles.csv` without its names: what a
/// reader keeps of millions of rows (in the vector of its corpus x
/// solver).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleRow {
    /// 1-based line of the puzzle in its corpus.
    pub line: u64,
    /// Solve time, ns.
    pub ns: u64,
    /// Search nodes (`None`: the solver does not report them).
    pub nodes: Option<u64>,
    /// Link updates, when the solver counts them and the file records them.
    pub updates: Option<u64>,
    /// Mems, when the solver counts them and the file records them.
    pub mems: Option<u64>,
    /// Solutions found (capped by the mode's limit).
    pub solutions: u64,
    /// Branch points (each solver counts its own kind).
    pub guesses: u64,
    /// Status.
    pub status: Status,
}

impl PuzzleRow {
    /// Whether the solve was timed (within budget, not failed) with a
    /// usable time.
    pub fn timed(&self) -> bool {
        self.status != Status::Budget && !self.status.is_untimed() && self.ns > 0
    }
}

/// What a CSV file without a final line end is.
pub(crate) const CUT_SHORT: &str =
    "the last line has no line end: the file was cut short (an interrupted \
run, a full disk or a partial copy?)";

/// The read buffer of a [`PuzzleReader`], bytes: a merge holds one per
/// part.
const BUFFER: usize = 1 << 16;

/// The streaming reader of a `puzzles.csv`: [`PuzzleReader::next`] hands
/// out each row in file order, borrowed; memory does not grow with the
/// rows. Columns are found by name, so files of every version read (a
/// column a file is too old to have reads as empty), and each error names
/// the file and the line ([`ResultError::Csv`]). At the end of the file it
/// checks that the file ends with a line end: a file cut short (whose last
/// row may have lost digits and still parse) is refused.
#[derive(Debug)]
pub struct PuzzleReader {
    path: PathBuf,
    csv: csv::Reader<File>,
    /// The row last read (its UTF-8 checked once, as a whole).
    record: csv::StringRecord,
    /// Each column's position in the file ([`Column::ALL`]'s order).
    at: [Option<usize>; Column::ALL.len()],
    /// The file's header, for messages.
    header: Vec<String>,
    /// The line of the row last read (1: the header).
    line: u64,
}

impl PuzzleReader {
    /// Opens the `puzzles.csv` at `path` and reads its header, which must
    /// have the [`Column::REQUIRED`] columns.
    pub fn open(path: &Path) -> Result<PuzzleReader, ResultError> {
        let file = File::open(path).map_err(|error| ResultError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let mut csv = csv::ReaderBuilder::new()
            .buffer_capacity(BUFFER)
            .from_reader(file);
        let header: Vec<String> = csv
            .byte_headers()
            .map_err(|e| csv_error(path, e))?
            .iter()
            .map(|h| String::from_utf8_lossy(h).into_owned())
            .collect();
        let at = Column::ALL.map(|c| header.iter().position(|h| h == c.name()));
        if let Some(missing) = Column::REQUIRED.iter().find(|c| at[**c as usize].is_none()) {
            return Err(ResultError::Csv {
                path: path.to_path_buf(),
                line: 1,
                message: format!("missing column `{}`", missing.name()),
            });
        }
        Ok(PuzzleReader {
            path: path.to_path_buf(),
            csv,
            record: csv::StringRecord::new(),
            at,
            header,
            line: 1,
        })
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file has `column` (files from older versions lack the
    /// later ones).
    pub fn has(&self, column: Column) -> bool {
        self.at[column as usize].is_some()
    }

    /// The line of the row last read (1 before the first row: the header).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// An error at the row last read: `message` with the file and line.
    pub fn error(&self, message: impl Into<String>) -> ResultError {
        ResultError::Csv {
            path: self.path.clone(),
            line: self.line,
            message: message.into(),
        }
    }

    /// The next row, `None` at the end of the file (which must end with a
    /// line end).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<PuzzleRecord<&str>>, ResultError> {
        let more = self
            .csv
            .read_record(&mut self.record)
            .map_err(|e| read_error(&self.path, e))?;
        if !more {
            return match cut_short(&self.path)? {
                true => Err(self.error(CUT_SHORT)),
                false => Ok(None),
            };
        }
        self.line = self.record.position().map_or(0, |p| p.line());
        self.parse().map(Some)
    }

    /// The field of `column` in the row last read; empty when the file
    /// does not have the column.
    fn field(&self, column: Column) -> &str {
        match self.at[column as usize] {
            Some(i) => &self.record[i],
            None => "",
        }
    }

    /// The row last read, typed.
    fn parse(&self) -> Result<PuzzleRecord<&str>, ResultError> {
        // The fast path returns no error (a small `Option` a field, not a
        // `Result` with the error's room): which field is wrong is found
        // again only when one is.
        self.try_parse().ok_or_else(|| self.explain())
    }

    fn try_parse(&self) -> Option<PuzzleRecord<&str>> {
        let int = |c: Column| parse_u64(self.field(c));
        let optional = |c: Column| match self.field(c) {
            "" => Some(None),
            field => parse_u64(field).map(Some),
        };
        Some(PuzzleRecord {
            corpus: self.field(Column::Corpus),
            line: int(Column::Line)?,
            solver: self.field(Column::Solver),
            ns: int(Column::Ns)?,
            solutions: int(Column::Solutions)?,
            nodes: optional(Column::Nodes)?,
            guesses: int(Column::Guesses)?,
            status: Status::from_name(self.field(Column::Status))?,
            updates: optional(Column::Updates)?,
            round_trip_ns: optional(Column::RoundTripNs)?,
            cause: match self.field(Column::Cause) {
                "" => None,
                field => Some(Failure::from_cause(field)?),
            },
            mems: optional(Column::Mems)?,
            host: match optional(Column::Host)? {
                None => None,
                Some(h) => Some(u32::try_from(h).ok()?),
            },
            round_trip_group: optional(Column::RoundTripGroup)?,
        })
    }

    /// What is wrong with the row last read: its first field that does
    /// not read, in the file's order of the columns.
    fn explain(&self) -> ResultError {
        for column in Column::ALL {
            let field = self.field(column);
            let wrong = match column {
                Column::Corpus | Column::Solver => false,
                Column::Line | Column::Ns | Column::Solutions | Column::Guesses => {
                    parse_u64(field).is_none()
                }
                Column::Nodes
                | Column::Updates
                | Column::RoundTripNs
                | Column::Mems
                | Column::RoundTripGroup => !field.is_empty() && parse_u64(field).is_none(),
                Column::Host => {
                    !field.is_empty()
                        && parse_u64(field)
                            .and_then(|h| u32::try_from(h).ok())
                            .is_none()
                }
                Column::Status => match self.status() {
                    Ok(_) => false,
                    Err(e) => return e,
                },
                Column::Cause => match self.cause() {
                    Ok(_) => false,
                    Err(e) => return e,
                },
            };
            if wrong {
                return self.not_a_number(column);
            }
        }
        self.error("a row that does not read")
    }

    fn status(&self) -> Result<Status, ResultError> {
        let field = self.field(Column::Status);
        Status::from_name(field).ok_or_else(|| {
            let names: Vec<&str> = Status::ALL
                .iter()
                .filter(|s| **s != Status::NotApplicable)
                .map(|s| s.as_str())
                .collect();
            self.error(format!(
                "column `{}`: unknown status `{field}` (expected {})",
                Column::Status.name(),
                names.join(", ")
            ))
        })
    }

    fn cause(&self) -> Result<Option<Failure>, ResultError> {
        match self.field(Column::Cause) {
            "" => Ok(None),
            field => Failure::from_cause(field).map(Some).ok_or_else(|| {
                self.error(format!(
                    "column `{}`: unknown cause `{field}`",
                    Column::Cause.name()
                ))
            }),
        }
    }

    fn not_a_number(&self, column: Column) -> ResultError {
        self.error(format!(
            "column `{}`: `{}` is not a number",
            column.name(),
            self.field(column)
        ))
    }

    /// The file's header, as read.
    pub fn header(&self) -> &[String] {
        &self.header
    }
}

/// A decimal `u64`, without allocating.
pub(crate) fn parse_u64(field: &str) -> Option<u64> {
    if field.is_empty() || field.len() > 20 {
        return None;
    }
    let mut v = 0u64;
    for &b in field.as_bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
    }
    Some(v)
}

/// Whether a CSV file does not end with a line end: it was cut short (a
/// run interrupted while writing it, a full disk, a partial copy), and its
/// last row may have lost digits and still parse.
pub(crate) fn cut_short(path: &Path) -> Result<bool, ResultError> {
    use std::io::{Read, Seek, SeekFrom};
    let io = |error| ResultError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len == 0 {
        return Ok(false);
    }
    let mut last = [0u8];
    file.seek(SeekFrom::Start(len - 1))
        .and_then(|_| file.read_exact(&mut last))
        .map_err(io)?;
    Ok(last[0] != b'\n')
}

/// A `csv` error while reading `path`, which says so when the file was
/// also cut short (a row cut in two has too few fields).
pub(crate) fn read_error(path: &Path, e: csv::Error) -> ResultError {
    let mut error = csv_error(path, e);
    if let ResultError::Csv { message, .. } = &mut error {
        if cut_short(path).unwrap_or(false) {
            message.push_str("; ");
            message.push_str(CUT_SHORT);
        }
    }
    error
}

/// A `csv` error as a [`ResultError::Csv`] naming the file and line.
pub(crate) fn csv_error(path: &Path, e: csv::Error) -> ResultError {
    let line = e.position().map_or(0, |p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::Io(io) => io.to_string(),
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        csv::ErrorKind::Utf8 { err, .. } => format!("not UTF-8: {err}"),
        _ => e.to_string(),
    };
    ResultError::Csv {
        path: path.to_path_buf(),
        line,
        message,
    }
}

/// The corpus x solver groups of a `puzzles.csv`, each an index, found for
/// each row without allocating: rows come in runs of the same corpus, and
/// a corpus has a handful of solvers.
#[derive(Debug, Clone, Default)]
pub struct GroupIndex {
    /// Every group's corpus and solver, by index.
    names: Vec<(String, String)>,
    /// Groups by name, for corpora seen again later.
    index: HashMap<(String, String), usize>,
    /// The corpus of the last row.
    current: String,
    /// The current corpus's solvers and their groups.
    solvers: Vec<(String, usize)>,
}

impl GroupIndex {
    /// An index that starts with the groups `names` (indices 0, 1, ...).
    pub fn new(names: impl IntoIterator<Item = (String, String)>) -> GroupIndex {
        let mut groups = GroupIndex::default();
        for (corpus, solver) in names {
            groups.insert(corpus, solver);
        }
        groups
    }

    fn insert(&mut self, corpus: String, solver: String) -> usize {
        let key = (corpus, solver);
        if let Some(&g) = self.index.get(&key) {
            return g;
        }
        self.names.push(key.clone());
        self.index.insert(key, self.names.len() - 1);
        self.names.len() - 1
    }

    /// The index of `corpus` x `solver`, a new group's when there is none.
    pub fn of(&mut self, corpus: &str, solver: &str) -> usize {
        if self.current != corpus {
            self.current.clear();
            self.current.push_str(corpus);
            self.solvers.clear();
        }
        if let Some(&(_, g)) = self.solvers.iter().find(|(s, _)| s == solver) {
            return g;
        }
        let g = self.insert(corpus.to_string(), solver.to_string());
        self.solvers.push((solver.to_string(), g));
        g
    }

    /// Every group's corpus and solver, by index.
    pub fn names(&self) -> &[(String, String)] {
        &self.names
    }
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::schema::puzzles::COLUMNS;

    fn write(dir: &Path, text: &str) -> PathBuf {
        let p = dir.join("puzzles.csv");
        std::fs::write(&p, text).unwrap();
        p
    }

    fn read_all(path: &Path) -> Result<Vec<PuzzleRecord>, ResultError> {
        let mut r = PuzzleReader::open(path)?;
        let mut out = Vec::new();
        while let Some(row) = r.next()? {
            out.push(row.to_owned());
        }
        Ok(out)
    }

    fn record(line: u64) -> PuzzleRecord {
        PuzzleRecord {
            corpus: "c \"q\", d".into(),
            line,
            solver: "dlx".into(),
            ns: 1234,
            solutions: 1,
            nodes: Some(10),
            guesses: 2,
            status: Status::Crashed,
            updates: Some(99),
            round_trip_ns: Some(5000),
            cause: Some(Failure::Signal(11)),
            mems: Some(4321),
            host: Some(4242),
            round_trip_group: Some(1),
        }
    }

    /// What the writer writes, the reader reads back, every column.
    #[test]
    fn rows_written_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let none = PuzzleRecord {
            nodes: None,
            updates: None,
            round_trip_ns: None,
            cause: None,
            mems: None,
            host: None,
            round_trip_group: None,
            status: Status::Unique,
            ..record(2)
        };
        let rows = [record(1), none];
        let mut text = Vec::new();
        write_header(&mut text).unwrap();
        for r in &rows {
            r.write_csv(&mut text);
        }
        let text = String::from_utf8(text).unwrap();
        assert_eq!(
            text.lines().nth(2),
            Some("\"c \"\"q\"\", d\",2,dlx,1234,1,,2,unique,,,,,,")
        );
        let p = write(dir.path(), &text);
        assert_eq!(read_all(&p).unwrap(), rows);
        // Timing and record.
        assert_eq!(
            rows[0].timing(),
            Timing::Own {
                round_trip_ns: 5000,
                group: Some(1)
            }
        );
        assert_eq!(rows[1].timing(), Timing::Call);
        let back = rows[0].record(3);
        assert_eq!((back.solver, back.failure), (3, Some(Failure::Signal(11))));
        assert_eq!(
            PuzzleRecord::of_record("c \"q\", d", "dlx", &back).to_owned(),
            rows[0]
        );
    }

    /// A file from before the later columns (here without `updates` and
    /// after), its columns in another order: read by name, the missing
    /// ones empty.
    #[test]
    fn columns_are_found_by_name_and_later_ones_are_optional() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(
            dir.path(),
            "line,corpus,solver,ns,solutions,nodes,guesses,status\n7,c,dlx,5,1,,0,budget\n",
        );
        let mut r = PuzzleReader::open(&p).unwrap();
        assert!(!r.has(Column::Updates) && r.has(Column::Nodes));
        let row = r.next().unwrap().unwrap();
        assert_eq!(
            (row.corpus, row.line, row.nodes, row.updates, row.status),
            ("c", 7, None, None, Status::Budget)
        );
        assert_eq!(r.line(), 2);
        assert!(r.next().unwrap().is_none());
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let head = COLUMNS.join(",");
        let good = "c,1,dlx,100,1,10,0,unique,,,,,,";
        let cases = [
            (
                format!("{head}\n{good}\nc,2,dlx,2x0,1,10,0,unique,,,,,,\n"),
                ":3: column `ns`: `2x0` is not a number",
            ),
            (
                format!("{head}\nc,2,dlx,1,1,10,0,maybe,,,,,,\n"),
                ":2: column `status`: unknown status `maybe`",
            ),
            (
                format!("{head}\nc,2,dlx,1,1,10,0,crashed,,,sig,,,\n"),
                ":2: column `cause`: unknown cause `sig`",
            ),
            (
                format!("{head}\nc,2,dlx,1,1,10,0,unique,,,,,99999999999,\n"),
                ":2: column `host`",
            ),
            (
                format!("{head}\nc,2,dlx,1\n"),
                ":2: 4 fields where the header has 14",
            ),
            (
                format!("{head}\n{good}"),
                ":2: the last line has no line end",
            ),
            (
                "corpus,line,solver\n".to_string(),
                ":1: missing column `ns`",
            ),
        ];
        for (text, expected) in cases {
            let p = write(dir.path(), &text);
            let e = read_all(&p).unwrap_err().to_string();
            assert!(e.starts_with(&p.display().to_string()), "{e}");
            assert!(e.contains(expected), "{expected:?} in {e}");
        }
        let e = PuzzleReader::open(&dir.path().join("nope")).unwrap_err();
        assert!(matches!(e, ResultError::Io { .. }), "{e}");
    }

    #[test]
    fn groups_are_found_again_and_new_ones_added() {
        let mut g = GroupIndex::new([("a".to_string(), "x".to_string())]);
        assert_eq!(g.of("a", "y"), 1);
        assert_eq!(g.of("a", "x"), 0);
        assert_eq!(g.of("b", "x"), 2);
        // A corpus seen again later: its groups as before.
        assert_eq!(g.of("a", "y"), 1);
        assert_eq!(g.names().len(), 3);
        assert_eq!(g.names()[2], ("b".to_string(), "x".to_string()));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_u64("0"), Some(0));
        assert_eq!(parse_u64("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64("18446744073709551616"), None);
        assert_eq!(parse_u64(""), None);
        assert_eq!(parse_u64("-1"), None);
    }
}
