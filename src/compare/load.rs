//! Reading one benchmark run: `summary.csv`, `puzzles.csv` and `run.json`
//! as `dlxbench bench` writes them.
//!
//! `puzzles.csv` can hold millions of rows: it is streamed by the one
//! reader of the file ([`PuzzleReader`]), and each row goes into a compact
//! [`PuzzleRow`] of its corpus x solver [`Group`] (found without
//! allocating: [`GroupIndex`]). Columns are found by name, so files from
//! older versions (without the `updates` and `total_updates` columns, or
//! `mems` and `total_mems`) read fine: their link updates (mems) are "not
//! recorded".

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::CompareError;
use crate::results::puzzles::csv_error;
use crate::results::schema::{self, puzzles as pc, summary as sc};
use crate::results::{
    Checksums, CorpusState, GroupIndex, PuzzleReader, ResultDir, RunInfo, SummaryFile, Verify,
};
use crate::solvers::Status;

/// One puzzle x solver row of `puzzles.csv`, without its names (the
/// result directory's type).
pub use crate::results::PuzzleRow;

/// One row of `summary.csv` (the result directory's type), read, or the
/// same figures computed from per-puzzle rows when a run has no
/// `summary.csv` ([`SummaryRow::from_rows`]).
pub use crate::results::SummaryRow;

impl SummaryRow {
    /// The figures of `rows` (exact quantiles) for a run of `threads`
    /// worker threads.
    pub fn from_rows(rows: &[PuzzleRow], threads: Option<u64>) -> SummaryRow {
        let mut s = SummaryRow {
            puzzles: rows.len() as u64,
            threads,
            ..SummaryRow::default()
        };
        let mut times = Vec::with_capacity(rows.len());
        for r in rows {
            if let Some(n) = r.nodes {
                *s.total_nodes.get_or_insert(0) += n;
            }
            if let Some(u) = r.updates {
                *s.total_updates.get_or_insert(0) += u;
            }
            if let Some(m) = r.mems {
                *s.total_mems.get_or_insert(0) += m;
            }
            match r.status {
                Status::Budget => {
                    s.budget += 1;
                    continue;
                }
                Status::NoSolution => s.unsolvable += 1,
                Status::Multiple => {
                    s.solved += 1;
                    s.multiple += 1;
                }
                Status::Solved | Status::Unique => s.solved += 1,
                Status::Invalid => s.invalid += 1,
                // Never read from a file (such puzzles have no row).
                Status::NotApplicable => continue,
                // Run, not timed.
                Status::Crashed => {
                    s.crashed += 1;
                    continue;
                }
                Status::Timeout => {
                    s.timeout += 1;
                    continue;
                }
                Status::ProtocolError => {
                    s.protocol_error += 1;
                    continue;
                }
                // Not run.
                Status::Skipped => {
                    s.skipped += 1;
                    s.puzzles -= 1;
                    continue;
                }
            }
            times.push(r.ns);
        }
        if !times.is_empty() {
            let n = times.len() as f64;
            let sum: f64 = times.iter().map(|&t| t as f64).sum();
            let mean = sum / n;
            s.mean_ns = Some(mean);
            s.stddev_ns = Some(if times.len() > 1 {
                let ss: f64 = times.iter().map(|&t| (t as f64 - mean).powi(2)).sum();
                (ss / (n - 1.0)).sqrt()
            } else {
                0.0
            });
            times.sort_unstable();
            let at = |q: f64| times[((q * n).ceil() as usize).clamp(1, times.len()) - 1] as f64;
            s.p50_ns = Some(at(0.5));
            s.p99_ns = Some(at(0.99));
        }
        // As the harness counts it: solves within budget over their time.
        let timed_ns: u128 = times.iter().map(|&t| u128::from(t)).sum();
        if timed_ns > 0 {
            s.puzzles_per_s =
                Some(times.len() as f64 * threads.unwrap_or(1) as f64 * 1e9 / timed_ns as f64);
        }
        s
    }
}

/// Everything one run holds for one corpus x solver.
#[derive(Debug, Clone)]
pub struct Group {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Its `summary.csv` row, if read.
    pub summary: Option<SummaryRow>,
    /// Its `puzzles.csv` rows, sorted by line, if read.
    pub puzzles: Option<Vec<PuzzleRow>>,
}

impl Group {
    /// The summary row, or the figures computed from the per-puzzle rows.
    pub fn summary_or_derived(&self, threads: Option<u64>) -> Option<SummaryRow> {
        match (&self.summary, &self.puzzles) {
            (Some(s), _) => Some(s.clone()),
            (None, Some(rows)) => Some(SummaryRow::from_rows(rows, threads)),
            (None, None) => None,
        }
    }
}

/// One run, read from a result directory or from one of its files.
#[derive(Debug, Clone)]
pub struct Run {
    /// The path given (directory or file), for messages.
    pub source: PathBuf,
    /// The `summary.csv` read, if any.
    pub summary_path: Option<PathBuf>,
    /// The `puzzles.csv` read, if any.
    pub puzzles_path: Option<PathBuf>,
    /// The `run.json` read, if any.
    pub run_json_path: Option<PathBuf>,
    /// Its contents.
    pub run_json: Option<RunInfo>,
    /// Corpus x solver groups, in order of first appearance.
    pub groups: Vec<Group>,
    /// Why the run is not a complete one (interrupted, died, still
    /// going), from its `run.json` ([`ResultDir::warning`]); `None` for a
    /// complete run or one without `run.json`.
    pub incomplete: Option<String>,
    /// The corpora its `run.json` says ran only in part (`partial`).
    pub partial: Vec<String>,
    /// What the checksums of its `run.json` say of its files (`None`:
    /// no `run.json`). A run from before checksums
    /// ([`Checksums::NotRecorded`]) is read unverified, as before.
    pub checksums: Option<Checksums>,
}

impl Run {
    /// The group of `corpus` x `solver`.
    pub fn group(&self, corpus: &str, solver: &str) -> Option<&Group> {
        self.groups
            .iter()
            .find(|g| g.corpus == corpus && g.solver == solver)
    }

    /// The run's mode, from `run.json` or `summary.csv`.
    pub fn mode(&self) -> Option<&str> {
        self.run_json
            .as_ref()
            .and_then(|j| j.mode.as_deref())
            .or_else(|| {
                self.groups
                    .iter()
                    .find_map(|g| g.summary.as_ref().and_then(|s| s.mode.as_deref()))
            })
    }

    /// Worker threads, from `run.json` or `summary.csv`.
    pub fn threads(&self) -> Option<u64> {
        self.run_json
            .as_ref()
            .and_then(|j| j.facts.threads.map(|t| t as u64))
            .or_else(|| {
                self.groups
                    .iter()
                    .find_map(|g| g.summary.as_ref().and_then(|s| s.threads))
            })
    }

    /// The node budget of `solver` (`Some(None)`: unlimited; `None`:
    /// unknown), from `run.json` or `summary.csv`.
    pub fn budget(&self, solver: &str) -> Option<Option<u64>> {
        if let Some(j) = &self.run_json {
            if let Some(s) = j.solver(solver) {
                return Some(s.budget_nodes);
            }
        }
        let mut rows = self
            .groups
            .iter()
            .filter(|g| g.solver == solver)
            .filter_map(|g| g.summary.as_ref());
        rows.next().map(|s| s.budget_nodes)
    }

    /// Whether per-puzzle rows were read.
    pub fn has_per_puzzle(&self) -> bool {
        self.puzzles_path.is_some()
    }
}

/// What kind of CSV a file is, from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CsvKind {
    Summary,
    Puzzles,
}

/// Reads the run at `path`: a result directory (its `summary.csv`,
/// `puzzles.csv` and `run.json`, whichever exist, at least one CSV), a
/// `summary.csv` (with the `run.json` next to it; per-puzzle data is
/// deliberately not used), or a `puzzles.csv` (with the `summary.csv` and
/// `run.json` next to it, if there). A CSV file is recognised by its
/// header, whatever its name. The checksums its `run.json` records are
/// verified ([`ResultDir::open`]): a file that does not match is refused.
pub fn load(path: &Path) -> Result<Run, CompareError> {
    load_with(path, Verify::Strict)
}

/// [`load()`], with files that do not match their checksums refused or
/// accepted as `verify` says ([`ResultDir::open_with`]; accepted ones are
/// in [`Run::checksums`]).
pub fn load_with(path: &Path, verify: Verify) -> Result<Run, CompareError> {
    let meta = std::fs::metadata(path).map_err(|e| CompareError::Missing {
        path: path.to_path_buf(),
        what: if e.kind() == std::io::ErrorKind::NotFound {
            "no such file or directory".into()
        } else {
            e.to_string()
        },
    })?;
    let (dir, summary, puzzles) = if meta.is_dir() {
        let s = path.join(schema::SUMMARY_CSV);
        let p = path.join(schema::PUZZLES_CSV);
        let (s, p) = (s.is_file().then_some(s), p.is_file().then_some(p));
        if s.is_none() && p.is_none() {
            return Err(CompareError::Missing {
                path: path.to_path_buf(),
                what: format!(
                    "no {} or {}: not a result directory of `dlxbench bench`",
                    schema::SUMMARY_CSV,
                    schema::PUZZLES_CSV
                ),
            });
        }
        (path.to_path_buf(), s, p)
    } else {
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        match csv_kind(path)? {
            CsvKind::Summary => (dir, Some(path.to_path_buf()), None),
            CsvKind::Puzzles => {
                let s = dir.join(schema::SUMMARY_CSV);
                (dir, s.is_file().then_some(s), Some(path.to_path_buf()))
            }
        }
    };
    let run_json_path = Some(dir.join(schema::RUN_JSON)).filter(|p| p.is_file());
    let (run_json, incomplete, partial, checksums) = match run_json_path {
        Some(_) => {
            let read = ResultDir::open_with(&dir, verify)?;
            let partial = read
                .run
                .corpora_in(CorpusState::Partial)
                .map(|c| c.name.clone())
                .collect();
            let incomplete = read.warning();
            (Some(read.run), incomplete, partial, Some(read.checksums))
        }
        None => (None, None, Vec::new(), None),
    };
    let mut groups: Vec<Group> = Vec::new();
    if let Some(s) = summary.as_deref() {
        for row in SummaryFile::read(s)?.rows {
            groups.push(Group {
                corpus: row.corpus.clone(),
                solver: row.solver.clone(),
                summary: Some(row),
                puzzles: None,
            });
        }
    }
    if let Some(p) = puzzles.as_deref() {
        read_puzzles(p, &mut groups)?;
        if let Some(s) = summary.as_deref() {
            check_counts(p, s, &groups)?;
        }
    }
    Ok(Run {
        source: path.to_path_buf(),
        summary_path: summary,
        puzzles_path: puzzles,
        run_json_path,
        run_json,
        groups,
        incomplete,
        partial,
        checksums,
    })
}

fn io_error(path: &Path, error: std::io::Error) -> CompareError {
    CompareError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Every corpus x solver of `puzzles.csv` has as many rows as the
/// `puzzles` count of its `summary.csv` row, and every summary row with
/// puzzles has rows: a file cut at a row boundary, or files of two runs,
/// disagree here.
fn check_counts(puzzles: &Path, summary: &Path, groups: &[Group]) -> Result<(), CompareError> {
    for g in groups {
        let rows = g.puzzles.as_ref().map_or(0, |p| p.len() as u64);
        let counted = g.summary.as_ref().map(|s| s.puzzles);
        if counted != Some(rows) && (rows > 0 || counted.is_some_and(|n| n > 0)) {
            return Err(CompareError::Inconsistent {
                puzzles: puzzles.to_path_buf(),
                summary: summary.to_path_buf(),
                corpus: g.corpus.clone(),
                solver: g.solver.clone(),
                rows,
                counted,
            });
        }
    }
    Ok(())
}

fn bad(path: &Path, line: u64, message: impl Into<String>) -> CompareError {
    CompareError::Csv {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

fn csv_kind(path: &Path) -> Result<CsvKind, CompareError> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    let mut r = csv::Reader::from_reader(file);
    let headers = r.byte_headers().map_err(|e| csv_error(path, e))?;
    let has = |names: &[&str]| {
        names
            .iter()
            .all(|name| headers.iter().any(|h| h == name.as_bytes()))
    };
    // The columns that tell the two files apart.
    const PUZZLES: [&str; 3] = [pc::LINE, pc::NS, pc::NODES];
    const SUMMARY: [&str; 2] = [sc::PUZZLES, sc::TOTAL_NODES];
    if has(&PUZZLES) {
        Ok(CsvKind::Puzzles)
    } else if has(&SUMMARY) {
        Ok(CsvKind::Summary)
    } else {
        let list = |names: &[&str]| {
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(bad(
            path,
            1,
            format!(
                "neither a {} nor a {} of `dlxbench bench` (header lacks {} and {})",
                schema::SUMMARY_CSV,
                schema::PUZZLES_CSV,
                list(&PUZZLES),
                list(&SUMMARY)
            ),
        ))
    }
}

/// Streams the rows of the `puzzles.csv` at `path`, in file order
/// ([`PuzzleReader`]): each row goes to `visit` with the index of its
/// corpus x solver in `groups` and its line in the file (for messages) (a
/// group is added for a pair not there yet, with neither summary nor rows).
/// Rows of puzzles a solver did not take (`n/a`) are skipped. Memory does
/// not grow with the rows.
pub fn for_each_puzzle(
    path: &Path,
    groups: &mut Vec<Group>,
    mut visit: impl FnMut(usize, u64, PuzzleRow),
) -> Result<(), CompareError> {
    let mut reader = PuzzleReader::open(path)?;
    let mut index = GroupIndex::new(groups.iter().map(|g| (g.corpus.clone(), g.solver.clone())));
    while let Some(record) = reader.next()? {
        let g = index.of(record.corpus, record.solver);
        if record.status == Status::NotApplicable {
            // Not run (a later writer may list such puzzles): nothing to
            // compare.
            continue;
        }
        let row = record.row();
        visit(g, reader.line(), row);
    }
    for (corpus, solver) in &index.names()[groups.len()..] {
        groups.push(Group {
            corpus: corpus.clone(),
            solver: solver.clone(),
            summary: None,
            puzzles: None,
        });
    }
    Ok(())
}

fn read_puzzles(path: &Path, groups: &mut Vec<Group>) -> Result<(), CompareError> {
    // Per-puzzle rows land in these vectors first; groups get them at the end.
    let mut rows: Vec<Vec<PuzzleRow>> = vec![Vec::new(); groups.len()];
    // Each group's first line in the file, for a message about the group.
    let mut first_line: Vec<u64> = vec![0; groups.len()];
    for_each_puzzle(path, groups, |g, line, row| {
        if g >= rows.len() {
            rows.resize_with(g + 1, Vec::new);
            first_line.resize(g + 1, 0);
        }
        if first_line[g] == 0 {
            first_line[g] = line;
        }
        rows[g].push(row);
    })?;
    for (g, mut list) in rows.into_iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        list.sort_unstable_by_key(|r| r.line);
        if let Some(w) = list.windows(2).find(|w| w[0].line == w[1].line) {
            return Err(bad(
                path,
                first_line[g],
                format!(
                    "corpus `{}`, solver `{}`: line {} appears twice",
                    groups[g].corpus, groups[g].solver, w[0].line
                ),
            ));
        }
        list.shrink_to_fit();
        groups[g].puzzles = Some(list);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    const PUZZLES: &str = "corpus,line,solver,ns,solutions,nodes,guesses,status,updates\n\
        c,3,dlx,100,1,10,0,unique,55\n\
        c,3,heuristic,90,1,12,1,unique,\n\
        c,2,dlx,200,1,20,2,unique,66\n\
        c,2,heuristic,80,2,8,0,multiple,\n\
        d,1,dlx,50,0,5,0,budget,7\n";

    #[test]
    fn puzzles_csv_is_grouped_sorted_and_optional_columns_are_optional() {
        let dir = tempfile::tempdir().unwrap();
        let p = write(dir.path(), "puzzles.csv", PUZZLES);
        let run = load(&p).unwrap();
        assert!(run.summary_path.is_none() && run.run_json.is_none());
        assert_eq!(run.groups.len(), 3);
        let dlx = run.group("c", "dlx").unwrap().puzzles.as_ref().unwrap();
        assert_eq!(
            dlx.iter().map(|r| (r.line, r.updates)).collect::<Vec<_>>(),
            [(2, Some(66)), (3, Some(55))]
        );
        let h = run
            .group("c", "heuristic")
            .unwrap()
            .puzzles
            .as_ref()
            .unwrap();
        assert_eq!(h[0].status, Status::Multiple);
        assert_eq!(h[0].updates, None);
        let d = &run.group("d", "dlx").unwrap().puzzles.as_ref().unwrap()[0];
        assert!(!d.timed());
        // A file from before `mems`: not recorded.
        assert!(dlx.iter().all(|r| r.mems.is_none()));
        let derived = run.group("c", "dlx").unwrap().summary_or_derived(None);
        assert_eq!(derived.unwrap().total_mems, None);

        // An older file without `updates`.
        let old: String = PUZZLES
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
            .collect();
        let p = write(dir.path(), "old.csv", &old);
        let run = load(&p).unwrap();
        let dlx = run.group("c", "dlx").unwrap();
        assert!(dlx
            .puzzles
            .as_ref()
            .unwrap()
            .iter()
            .all(|r| r.updates.is_none()));
        assert_eq!(dlx.summary_or_derived(None).unwrap().total_updates, None);
    }

    #[test]
    fn mems_are_read_per_puzzle_and_totalled_where_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "{}\n\
             c,2,dc,100,1,10,0,unique,55,,,5140,,\n\
             c,2,dlx,100,1,10,0,unique,55,,,,,\n\
             c,1,dc,100,1,10,0,budget,55,,,60,,\n",
            pc::COLUMNS.join(",")
        );
        let p = write(dir.path(), "puzzles.csv", &text);
        let run = load(&p).unwrap();
        let dc = run.group("c", "dc").unwrap();
        let rows = dc.puzzles.as_ref().unwrap();
        assert_eq!(
            rows.iter().map(|r| (r.line, r.mems)).collect::<Vec<_>>(),
            [(1, Some(60)), (2, Some(5140))]
        );
        assert_eq!(dc.summary_or_derived(None).unwrap().total_mems, Some(5200));
        let dlx = run.group("c", "dlx").unwrap();
        assert_eq!(dlx.puzzles.as_ref().unwrap()[0].mems, None);
        assert_eq!(dlx.summary_or_derived(None).unwrap().total_mems, None);
        let bad = text.replace("5140", "5x40");
        let p = write(dir.path(), "bad.csv", &bad);
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("bad.csv:2:") && e.contains("`mems`"), "{e}");
    }

    #[test]
    fn derived_summary_counts_and_quantiles() {
        let rows: Vec<PuzzleRow> = (1..=100)
            .map(|i| PuzzleRow {
                line: i,
                ns: i * 10,
                nodes: Some(1),
                updates: None,
                mems: None,
                solutions: 1,
                guesses: 0,
                status: if i == 100 {
                    Status::Budget
                } else {
                    Status::Unique
                },
            })
            .collect();
        let s = SummaryRow::from_rows(&rows, Some(2));
        assert_eq!((s.puzzles, s.solved, s.budget, s.timed()), (100, 99, 1, 99));
        assert_eq!(s.p50_ns, Some(500.0));
        assert_eq!(s.p99_ns, Some(990.0));
        assert!((s.mean_ns.unwrap() - 500.0).abs() < 1e-9);
        assert_eq!(s.total_nodes, Some(100));
        // 99 puzzles within budget x 2 threads over their 49,500 ns (the
        // over-budget one is kept out, as the harness does).
        assert!((s.puzzles_per_s.unwrap() - 198.0 * 1e9 / 49_500.0).abs() < 1e-6);
    }

    #[test]
    fn bad_input_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let text = PUZZLES.replace("c,2,dlx,200", "c,2,dlx,2x0");
        let p = write(dir.path(), "puzzles.csv", &text);
        let e = load(&p).unwrap_err().to_string();
        assert!(
            e.contains("puzzles.csv:4:") && e.contains("`ns`") && e.contains("2x0"),
            "{e}"
        );

        let text = PUZZLES.replace("multiple", "maybe");
        let p = write(dir.path(), "puzzles.csv", &text);
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains(":5:") && e.contains("maybe"), "{e}");

        let text = PUZZLES.replace("c,3,dlx,100,1,10,0,unique,55", "c,3,dlx,100");
        let p = write(dir.path(), "puzzles.csv", &text);
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("puzzles.csv:2:") && e.contains("fields"), "{e}");

        let text = PUZZLES.replace("c,2,dlx,200", "c,3,dlx,200");
        let p = write(dir.path(), "puzzles.csv", &text);
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("line 3 appears twice"), "{e}");

        let p = write(dir.path(), "other.csv", "a,b\n1,2\n");
        let e = load(&p).unwrap_err().to_string();
        assert!(e.contains("other.csv:1:"), "{e}");

        let e = load(&dir.path().join("nope")).unwrap_err().to_string();
        assert!(e.contains("nope") && e.contains("no such file"), "{e}");
        // An unreadable file: the operating system's error once, as `main`
        // prints the whole chain.
        let os = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let cause = os.to_string();
        let full = format!("{:#}", anyhow::Error::new(io_error(&p, os)));
        assert!(full.starts_with(&format!("{}: ", p.display())), "{full}");
        assert_eq!(full.matches(&cause).count(), 1, "{full}");

        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let e = load(&empty).unwrap_err().to_string();
        assert!(e.contains("no summary.csv or puzzles.csv"), "{e}");

        let run_dir = dir.path().join("run");
        std::fs::create_dir(&run_dir).unwrap();
        write(&run_dir, "puzzles.csv", PUZZLES);
        write(&run_dir, "run.json", "{not json");
        let e = load(&run_dir).unwrap_err().to_string();
        assert!(e.contains("run.json"), "{e}");
    }

    /// A `summary.csv` with the required columns and the given
    /// `(corpus, solver, puzzles)` rows.
    fn summary(rows: &[(&str, &str, u64)]) -> String {
        let mut text = format!("{}\n", sc::REQUIRED.join(","));
        for (corpus, solver, puzzles) in rows {
            text += &format!("{corpus},{solver},{puzzles},{puzzles},0,0,0,0,1,0,1,1,1,1\n");
        }
        text
    }

    #[test]
    fn a_file_cut_short_is_refused_at_its_last_line() {
        let dir = tempfile::tempdir().unwrap();
        // The last row lost the end of its `updates` field and its line end:
        // it still parses, with updates 7 -> nothing.
        let cut = &PUZZLES[..PUZZLES.len() - 2];
        let p = write(dir.path(), "puzzles.csv", cut);
        let e = load(&p).unwrap_err().to_string();
        assert!(
            e.contains("puzzles.csv:6: ") && e.contains("cut short"),
            "{e}"
        );
        // The whole file minus its final line end only: refused too.
        let p = write(dir.path(), "puzzles.csv", PUZZLES.trim_end());
        assert!(load(&p).unwrap_err().to_string().contains("cut short"));
        let s = summary(&[("c", "dlx", 2)]);
        let p = write(dir.path(), "summary.csv", s.trim_end());
        let e = load(&p).unwrap_err().to_string();
        assert!(
            e.contains("summary.csv:2: ") && e.contains("cut short"),
            "{e}"
        );
    }

    #[test]
    fn row_counts_must_agree_with_the_summary() {
        let dir = tempfile::tempdir().unwrap();
        let counts = [("c", "dlx", 2), ("c", "heuristic", 2), ("d", "dlx", 1)];
        write(dir.path(), "summary.csv", &summary(&counts));
        let p = write(dir.path(), "puzzles.csv", PUZZLES);
        let run = load(dir.path()).unwrap();
        assert_eq!(
            run.group("c", "dlx")
                .unwrap()
                .puzzles
                .as_ref()
                .unwrap()
                .len(),
            2
        );
        assert!(load(&p).is_ok());

        // Cut at a row boundary: the last group lost its row.
        let cut = PUZZLES
            .lines()
            .take(5)
            .map(|l| format!("{l}\n"))
            .collect::<String>();
        write(dir.path(), "puzzles.csv", &cut);
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("puzzles.csv: corpus `d`, solver `dlx`: 0 rows")
                && e.contains("summary.csv counts 1 puzzles"),
            "{e}"
        );
        // One row too few in a group.
        let fewer: String = PUZZLES
            .lines()
            .filter(|l| !l.starts_with("c,2,heuristic"))
            .map(|l| format!("{l}\n"))
            .collect();
        write(dir.path(), "puzzles.csv", &fewer);
        let e = load(&p).unwrap_err().to_string();
        assert!(
            e.contains("corpus `c`, solver `heuristic`: 1 rows, but")
                && e.contains("counts 2 puzzles"),
            "{e}"
        );
        // A group the summary does not have.
        write(dir.path(), "summary.csv", &summary(&counts[..2]));
        write(dir.path(), "puzzles.csv", PUZZLES);
        let e = load(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("corpus `d`, solver `dlx`: 1 rows") && e.contains("has no row"),
            "{e}"
        );
        // The summary alone is not checked against anything.
        assert!(load(&dir.path().join("summary.csv")).is_ok());
    }
}
