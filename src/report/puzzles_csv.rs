//! `puzzles.csv`: one row per puzzle x solver, streamed by the harness's
//! writer thread (a [`RecordSink`]) into a temporary file per corpus. At
//! each corpus's end its rows are added to `puzzles.csv`, which is
//! rewritten atomically (the rows so far copied, in the kernel where it
//! can, then the corpus's): at any moment `puzzles.csv` holds every
//! finished corpus's rows complete, so a run that dies loses at most the
//! corpus in flight. Memory stays flat whatever the corpus size.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::schema;
use crate::atomic::AtomicFile;
use crate::harness::{Record, RecordSink};
use crate::results::puzzles::{self, PuzzleRecord};
use crate::solvers::Status;

/// Column names, in order: [`schema::puzzles::COLUMNS`].
pub use super::schema::puzzles::COLUMNS;

/// The streaming writer.
#[derive(Debug)]
pub struct PuzzlesCsv {
    /// The rows of the corpus in flight, under a temporary name.
    rows: Option<AtomicFile>,
    /// Whether `rows` holds any.
    pending: bool,
    /// Whether `puzzles.csv` was written (the header and the rows of the
    /// corpora finished so far).
    kept: bool,
    dest: PathBuf,
    solvers: Vec<String>,
    /// The lines of the batch being written (kept between batches).
    batch: Vec<u8>,
}

impl PuzzlesCsv {
    /// Starts `dir/puzzles.csv`: the first corpus's rows go to a
    /// temporary file. `solvers` are the names in the config's order. The
    /// file appears under its final name ([`PuzzlesCsv::path`]) with the
    /// first corpus's end ([`RecordSink::end_corpus`]), and grows at each
    /// later one and at [`RecordSink::finish`].
    pub fn create(dir: &Path, solvers: &[&str]) -> std::io::Result<Self> {
        let dest = Self::path(dir);
        Ok(PuzzlesCsv {
            rows: Some(AtomicFile::create(&dest)?),
            pending: false,
            kept: false,
            dest,
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            batch: Vec::new(),
        })
    }

    /// Rewrites `puzzles.csv` atomically with the rows pending added (the
    /// header first when it is new), and starts a new temporary file for
    /// the next corpus's.
    fn keep(&mut self) -> std::io::Result<()> {
        let mut rows = self.rows.take().expect("open until finish");
        if self.kept && !self.pending {
            self.rows = Some(rows);
            return Ok(());
        }
        let mut file = AtomicFile::create(&self.dest)?;
        match self.kept {
            true => {
                file.append_file(&self.dest)?;
            }
            false => puzzles::write_header(&mut file)?,
        }
        rows.append_to(&mut file)?;
        file.commit()?;
        self.kept = true;
        drop(rows);
        self.rows = Some(AtomicFile::create(&self.dest)?);
        self.pending = false;
        Ok(())
    }

    /// The final path of the file in `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(schema::PUZZLES_CSV)
    }
}

impl RecordSink for PuzzlesCsv {
    fn write_batch(&mut self, corpus: &str, records: &[Record]) -> std::io::Result<()> {
        self.pending |= !records.is_empty();
        let f = self.rows.as_mut().expect("open until finish");
        self.batch.clear();
        // A puzzle the solver does not take has no row: nothing was run.
        for r in records.iter().filter(|r| r.status != Status::NotApplicable) {
            let solver = &self.solvers[usize::from(r.solver)];
            PuzzleRecord::of_record(corpus, solver, r).write_csv(&mut self.batch);
        }
        f.write_all(&self.batch)
    }

    fn end_corpus(&mut self, _corpus: &str) -> std::io::Result<()> {
        self.keep()
    }

    fn finish(&mut self) -> std::io::Result<()> {
        // The rows of a corpus a stop cut short, if any.
        self.keep()?;
        self.rows = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::PuzzleReader;

    /// The streamed rows are the records given, as the one reader reads
    /// them.
    #[test]
    fn rows_are_puzzle_records() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = PuzzlesCsv::create(dir.path(), &["dlx", "odd,name"]).unwrap();
        let record = |line, solver, status, nodes, updates, mems| Record {
            line,
            solver,
            status,
            ns: 1234 + line,
            solutions: 1,
            nodes,
            guesses: 2,
            updates,
            mems,
            failure: (status == Status::Crashed).then_some(crate::solvers::Failure::Signal(11)),
            timing: match line {
                1 => crate::solvers::Timing::Call,
                2 => crate::solvers::Timing::Own {
                    round_trip_ns: 5000,
                    group: None,
                },
                _ => crate::solvers::Timing::Own {
                    round_trip_ns: 5000,
                    group: Some(3),
                },
            },
            host: (line > 1).then_some(4242),
        };
        let records = [
            record(1, 0, Status::Unique, Some(10), Some(99), Some(4321)),
            record(1, 1, Status::Budget, None, None, None),
            record(2, 1, Status::NotApplicable, None, None, None),
            record(3, 1, Status::Crashed, None, None, None),
            record(4, 1, Status::Unique, None, Some(7), Some(70)),
        ];
        w.write_batch("c \"q\"", &records).unwrap();
        // Nothing under the final name before the corpus ends.
        assert!(!PuzzlesCsv::path(dir.path()).exists());
        w.end_corpus("c \"q\"").unwrap();
        w.finish().unwrap();
        let text = std::fs::read_to_string(PuzzlesCsv::path(dir.path())).unwrap();

        // Read back by the one reader: the rows taken, in order, each
        // column as the record has it.
        let mut reader = PuzzleReader::open(&PuzzlesCsv::path(dir.path())).unwrap();
        for r in records.iter().filter(|r| r.status != Status::NotApplicable) {
            let row = reader.next().unwrap().unwrap();
            assert_eq!(row.corpus, "c \"q\"");
            assert_eq!(row.solver, ["dlx", "odd,name"][usize::from(r.solver)]);
            assert_eq!(row.record(r.solver), *r);
        }
        assert!(reader.next().unwrap().is_none());
        assert!(
            text.contains("\n\"c \"\"q\"\"\",4,\"odd,name\",1238,1,,2,unique,7,5000,,70,4242,3\n")
        );
    }

    /// At each corpus's end `puzzles.csv` holds every finished corpus's
    /// rows, complete; the rows of the corpus in flight are not there until
    /// it ends (or the run finishes, for one a stop cut short).
    #[test]
    fn each_finished_corpus_is_kept_as_it_ends() {
        let dir = tempfile::tempdir().unwrap();
        let path = PuzzlesCsv::path(dir.path());
        let mut w = PuzzlesCsv::create(dir.path(), &["dlx"]).unwrap();
        let record = |line| Record {
            nodes: Some(1),
            ..Record::new(line, 0, Status::Unique, 10, 1)
        };
        let header = format!("{}\n", COLUMNS.join(","));
        w.write_batch("a", &[record(1), record(2)]).unwrap();
        w.end_corpus("a").unwrap();
        let a = format!("{header}a,1,dlx,10,1,1,0,unique,,,,,,\na,2,dlx,10,1,1,0,unique,,,,,,\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), a);
        w.write_batch("b", &[record(1)]).unwrap();
        w.write_batch("b", &[record(2)]).unwrap();
        // b in flight: a only, complete.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), a);
        w.end_corpus("b").unwrap();
        let ab = format!("{a}b,1,dlx,10,1,1,0,unique,,,,,,\nb,2,dlx,10,1,1,0,unique,,,,,,\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), ab);
        // c cut short by a stop: its rows come with finish.
        w.write_batch("c", &[record(1)]).unwrap();
        w.finish().unwrap();
        let abc = format!("{ab}c,1,dlx,10,1,1,0,unique,,,,,,\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), abc);
        // No temporary file is left.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }
}
