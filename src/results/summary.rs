//! `summary.csv`: one row per corpus x solver (columns in
//! [`schema::summary`](super::schema::summary), in the order of
//! [`SummaryRow`]'s fields).

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::puzzles::{csv_error, cut_short, read_error, CUT_SHORT};
use super::schema::summary as columns;
use super::ResultError;

/// One row of `summary.csv`.
///
/// Written by [`crate::report::summary_csv`]; read by [`SummaryFile::read`]
/// (for `compare`, `merge` and [`super::ResultDir::run_result`]); `compare`
/// also computes one from per-puzzle rows when a run has no `summary.csv`.
/// Columns a file from an older version may lack read as their default
/// (`None`, 0); latencies and rates are `None` (an empty field) where
/// nothing was timed.
// `results::output::history::ExportSummary` repeats these fields on purpose: the export's schema,
// versioned on its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Puzzles run.
    pub puzzles: u64,
    /// Puzzles with at least one solution within budget.
    pub solved: u64,
    /// Puzzles without solution.
    pub unsolvable: u64,
    /// Puzzles with two or more solutions (part of `solved`).
    pub multiple: u64,
    /// Puzzles over the node budget.
    pub budget: u64,
    /// Lines of the corpus that did not parse.
    #[serde(default)]
    pub malformed: u64,
    /// Returned grids that are not solutions.
    pub invalid: u64,
    /// Mean solve time within budget, ns (exact).
    #[serde(serialize_with = "fixed::<_, 1>")]
    pub mean_ns: Option<f64>,
    /// Standard deviation of the solve times within budget, ns (exact).
    #[serde(serialize_with = "fixed::<_, 1>")]
    pub stddev_ns: Option<f64>,
    /// Median solve time within budget, ns (HdrHistogram).
    #[serde(serialize_with = "fixed::<_, 0>")]
    pub p50_ns: Option<f64>,
    /// 90th percentile, ns.
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub p90_ns: Option<f64>,
    /// 99th percentile, ns.
    #[serde(serialize_with = "fixed::<_, 0>")]
    pub p99_ns: Option<f64>,
    /// 99.9th percentile, ns.
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub p999_ns: Option<f64>,
    /// Largest solve time within budget, ns.
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub max_ns: Option<f64>,
    /// Total search nodes (`None`: not recorded).
    pub total_nodes: Option<u64>,
    /// Branch points per puzzle.
    #[serde(default, serialize_with = "fixed::<_, 3>")]
    pub guesses_per_puzzle: Option<f64>,
    /// Puzzles solved without a branch point, percent.
    #[serde(default, serialize_with = "fixed::<_, 2>")]
    pub no_guess_pct: Option<f64>,
    /// Throughput (puzzles within budget x workers / their solve time).
    #[serde(serialize_with = "fixed::<_, 1>")]
    pub puzzles_per_s: Option<f64>,
    /// `puzzles_per_s` over the reference solver's.
    #[serde(default, serialize_with = "fixed::<_, 4>")]
    pub speed_vs_reference: Option<f64>,
    /// Worker threads, if known.
    #[serde(default)]
    pub threads: Option<u64>,
    /// Mode (`unique`, `first`, `count`), if known.
    #[serde(default)]
    pub mode: Option<String>,
    /// Node budget of the solver (`None`: unlimited or unknown).
    #[serde(default)]
    pub budget_nodes: Option<u64>,
    /// The solver speeds are quoted against, if known.
    #[serde(default)]
    pub reference: Option<String>,
    /// Total link updates (`None`: not recorded).
    #[serde(default)]
    pub total_updates: Option<u64>,
    /// Puzzles the solver does not take: not run, not in `puzzles`.
    #[serde(default)]
    pub not_applicable: u64,
    /// Puzzles on which the solver's process crashed (in `puzzles`, not
    /// timed).
    #[serde(default)]
    pub crashed: u64,
    /// Puzzles past the solver's deadline (in `puzzles`, not timed).
    #[serde(default)]
    pub timeout: u64,
    /// Puzzles answered out of protocol (in `puzzles`, not timed).
    #[serde(default)]
    pub protocol_error: u64,
    /// Puzzles not run: the solver was stopped after failures in a row,
    /// or the run interrupted during its call (not in `puzzles`).
    #[serde(default)]
    pub skipped: u64,
    /// What the latencies measured: `call` (in-process), `own` (a solver
    /// in its own process, its own `ns=`), `round-trip` (the harness's
    /// round trip to it), `mixed`. `None`: an older file (`call`).
    #[serde(default)]
    pub latency_source: Option<String>,
    /// Mean round trip to a solver in its own process, ns (`None` for
    /// in-process solvers).
    #[serde(default, serialize_with = "fixed::<_, 1>")]
    pub mean_round_trip_ns: Option<f64>,
    /// The paired speed against the reference: the geometric mean of
    /// `ns_reference / ns_solver` over the puzzles both solved within
    /// budget with the same valid answer (above 1: faster); 1 for the
    /// reference; empty when there is no ratio (`speed_note` says why) or
    /// in an older file.
    #[serde(default, serialize_with = "fixed::<_, 6>")]
    pub speed_vs: Option<f64>,
    /// Lower bound of its 95% interval (a bootstrap over blocks of lines).
    #[serde(default, serialize_with = "fixed::<_, 6>")]
    pub speed_low: Option<f64>,
    /// Upper bound of its 95% interval.
    #[serde(default, serialize_with = "fixed::<_, 6>")]
    pub speed_high: Option<f64>,
    /// Puzzles the ratio is over (both solved).
    #[serde(default)]
    pub speed_puzzles: Option<u64>,
    /// `reference` for the reference; why there is no ratio (`invalid`,
    /// `ref invalid`, `disagrees`, `too few`, `no data`, `unverified`: its
    /// own times do not explain its round trips, `ref unverified`); empty
    /// otherwise.
    #[serde(default)]
    pub speed_note: Option<String>,
    /// Total mems: memory accesses as Knuth's programs count them (`None`:
    /// not recorded, or an older file).
    #[serde(default)]
    pub total_mems: Option<u64>,
    /// The share of the round trips the solver's own times explain
    /// ([`crate::harness::own_time`]); below 0.8 its times are unverified
    /// (`speed_note` `unverified`). Empty for solvers not timed by their
    /// own report, and in older files.
    #[serde(default, serialize_with = "fixed::<_, 3>")]
    pub own_time_explained: Option<f64>,
    /// What a request costs beyond the solver's own time, ns (the round
    /// trips' median less the own times'; pipe included).
    #[serde(default, serialize_with = "fixed::<_, 0>")]
    pub own_overhead_ns: Option<f64>,
}

impl SummaryRow {
    /// Puzzles timed within budget (not failed).
    pub fn timed(&self) -> u64 {
        self.puzzles
            .saturating_sub(self.budget)
            .saturating_sub(self.failed())
    }

    /// Puzzles run that failed: crashed, timeout, protocol error.
    pub fn failed(&self) -> u64 {
        self.crashed + self.timeout + self.protocol_error
    }
}

/// A `summary.csv`, read: its header and its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryFile {
    /// The file.
    pub path: PathBuf,
    /// Its columns, as its header names them.
    pub header: Vec<String>,
    /// Its rows, in file order (one per corpus x solver).
    pub rows: Vec<SummaryRow>,
}

impl SummaryFile {
    /// Reads the `summary.csv` at `path`, the one reader of the file:
    /// columns found by name (a column an older file lacks reads as its
    /// default, the [`columns::REQUIRED`] ones must be there), each field
    /// checked, no corpus x solver twice, and the file must end with a line
    /// end (not cut short). Errors name the file, the line and the column
    /// ([`ResultError::Csv`]).
    pub fn read(path: &Path) -> Result<SummaryFile, ResultError> {
        let file = std::fs::File::open(path).map_err(|error| ResultError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let mut reader = csv::Reader::from_reader(file);
        let headers = reader
            .byte_headers()
            .map_err(|e| csv_error(path, e))?
            .clone();
        let header: Vec<String> = headers
            .iter()
            .map(|h| String::from_utf8_lossy(h).into_owned())
            .collect();
        let bad = |line: u64, message: String| ResultError::Csv {
            path: path.to_path_buf(),
            line,
            message,
        };
        if let Some(missing) = columns::REQUIRED
            .iter()
            .find(|c| !header.contains(&c.to_string()))
        {
            return Err(bad(1, format!("missing column `{missing}`")));
        }
        let mut rows: Vec<SummaryRow> = Vec::new();
        let mut record = csv::ByteRecord::new();
        let mut line = 1;
        while reader
            .read_byte_record(&mut record)
            .map_err(|e| read_error(path, e))?
        {
            line = record.position().map_or(0, |p| p.line());
            let row: SummaryRow = record
                .deserialize(Some(&headers))
                .map_err(|e| field_error(path, line, &header, &record, e))?;
            if rows
                .iter()
                .any(|r| r.corpus == row.corpus && r.solver == row.solver)
            {
                return Err(bad(
                    line,
                    format!(
                        "a second row for corpus `{}` and solver `{}`",
                        row.corpus, row.solver
                    ),
                ));
            }
            rows.push(row);
        }
        if cut_short(path)? {
            return Err(bad(line, CUT_SHORT.to_string()));
        }
        Ok(SummaryFile {
            path: path.to_path_buf(),
            header,
            rows,
        })
    }

    /// Whether the file has the column `name` (files from older versions
    /// lack the later ones).
    pub fn has(&self, name: &str) -> bool {
        self.header.iter().any(|h| h == name)
    }

    /// The row of `corpus` x `solver`, if any.
    pub fn row(&self, corpus: &str, solver: &str) -> Option<&SummaryRow> {
        self.rows
            .iter()
            .find(|r| r.corpus == corpus && r.solver == solver)
    }
}

/// A field of `record` that is not what its column holds, as an error
/// naming the column.
fn field_error(
    path: &Path,
    line: u64,
    header: &[String],
    record: &csv::ByteRecord,
    e: csv::Error,
) -> ResultError {
    let csv::ErrorKind::Deserialize { err, .. } = e.kind() else {
        return csv_error(path, e);
    };
    let bad = |message: String| ResultError::Csv {
        path: path.to_path_buf(),
        line,
        message,
    };
    let Some(i) = err
        .field()
        .map(|i| i as usize)
        .filter(|&i| i < record.len() && i < header.len())
    else {
        return bad(err.to_string());
    };
    let name = &header[i];
    match err.kind() {
        csv::DeserializeErrorKind::InvalidUtf8(_) => bad(format!("column `{name}` is not UTF-8")),
        csv::DeserializeErrorKind::ParseInt(_)
        | csv::DeserializeErrorKind::ParseFloat(_)
        | csv::DeserializeErrorKind::ParseBool(_) => bad(format!(
            "column `{name}`: `{}` is not a number",
            String::from_utf8_lossy(&record[i])
        )),
        _ => bad(format!("column `{name}`: {err}")),
    }
}

/// A figure with `DECIMALS` decimals; empty when `None`.
fn fixed<S: serde::Serializer, const DECIMALS: usize>(
    v: &Option<f64>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.serialize_str(&format!("{v:.DECIMALS$}")),
        None => s.serialize_str(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) -> PathBuf {
        let p = dir.join("summary.csv");
        std::fs::write(&p, text).unwrap();
        p
    }

    /// The required columns and one row of `corpus` x `solver`.
    fn text(rows: &[(&str, &str)]) -> String {
        let mut text = format!("{}\n", columns::REQUIRED.join(","));
        for (corpus, solver) in rows {
            text += &format!("{corpus},{solver},2,2,0,0,0,0,1.5,0,1,1,1,7\n");
        }
        text
    }

    #[test]
    fn an_old_file_reads_with_defaults_for_the_later_columns() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), &text(&[("c", "dlx"), ("c", "dc")]));
        let file = SummaryFile::read(&p).unwrap();
        assert_eq!(file.rows.len(), 2);
        let row = file.row("c", "dc").unwrap();
        assert_eq!(
            (row.puzzles, row.mean_ns, row.total_nodes),
            (2, Some(1.5), Some(7))
        );
        assert_eq!((row.total_mems, row.speed_note.as_deref()), (None, None));
        assert!(file.has(columns::TOTAL_NODES) && !file.has(columns::SPEED_NOTE));
        assert!(file.row("c", "x").is_none());
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let good = text(&[("c", "dlx")]);
        let cases = [
            (
                good.replace(",7\n", ",7x\n"),
                ":2: column `total_nodes`: `7x` is not a number",
            ),
            (
                text(&[("c", "dlx"), ("c", "dlx")]),
                ":3: a second row for corpus `c` and solver `dlx`",
            ),
            (
                good.trim_end().to_string(),
                ":2: the last line has no line end",
            ),
            (
                good.replace(",7\n", "\n"),
                ":2: 13 fields where the header has 14",
            ),
            (
                good.replace("total_nodes", "nodes"),
                ":1: missing column `total_nodes`",
            ),
        ];
        for (text, expected) in cases {
            let p = write(dir.path(), &text);
            let e = SummaryFile::read(&p).unwrap_err().to_string();
            assert!(e.starts_with(&p.display().to_string()), "{e}");
            assert!(e.contains(expected), "{expected:?} in {e}");
        }
    }
}
