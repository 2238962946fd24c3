//! Combining the parts' `puzzles.csv` rows: a k-way merge in corpus and
//! line order, cross-checked.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::{BufWriter, Write};
use std::path::Path;

use super::check::differences;
use super::part::Part;
use super::MergeError;
use crate::atomic::AtomicFile;
use crate::harness::{self, Config, Discrepancy, PairedTimes, Record, RunResult, SolverStats};
use crate::report::schema;
use crate::results::puzzles::{self, PuzzleReader, PuzzleRecord};

/// One part's `puzzles.csv` being read.
pub(super) struct Rows {
    reader: PuzzleReader,
    /// The current row's corpus index and record.
    current: Option<(usize, Record)>,
    /// Rows per corpus x solver.
    counts: Vec<Vec<u64>>,
    /// The statistics of the rows read, per corpus x solver: at the end,
    /// what the part's `histograms.json` must say.
    stats: Vec<Vec<SolverStats>>,
}

impl Rows {
    pub(super) fn open(part: &Part, solvers: usize, corpora: usize) -> Result<Rows, MergeError> {
        Ok(Rows {
            reader: PuzzleReader::open(&part.dir.join(schema::PUZZLES_CSV))?,
            current: None,
            counts: vec![vec![0; solvers]; corpora],
            stats: (0..corpora)
                .map(|_| {
                    (0..solvers)
                        .map(|_| SolverStats::new(String::new()))
                        .collect()
                })
                .collect(),
        })
    }

    /// Reads the next row, counts it and adds it to the statistics of its
    /// corpus x solver; returns its corpus index and line, `None` at the
    /// end.
    pub(super) fn advance(
        &mut self,
        corpora: &HashMap<&str, usize>,
        solvers: &HashMap<&str, usize>,
    ) -> Result<Option<(usize, u64)>, MergeError> {
        let Some(row) = self.reader.next()? else {
            self.current = None;
            return Ok(None);
        };
        let (corpus, solver) = match (corpora.get(row.corpus), solvers.get(row.solver)) {
            (Some(&c), Some(&s)) => (c, s),
            (None, _) => {
                let message = format!("corpus `{}` is not in run.json", row.corpus);
                return Err(self.reader.error(message).into());
            }
            (_, None) => {
                let message = format!("solver `{}` is not in run.json", row.solver);
                return Err(self.reader.error(message).into());
            }
        };
        let record = row.record(solver as u16);
        self.counts[corpus][solver] += 1;
        self.stats[corpus][solver].add(&record);
        self.current = Some((corpus, record));
        Ok(Some((corpus, record.line)))
    }
}

pub(super) fn csv_error(path: &Path, e: csv::Error) -> MergeError {
    MergeError::Part {
        dir: path.to_path_buf(),
        what: format!("line {}: {e}", e.position().map_or(0, |p| p.line())),
    }
}

/// Streams the parts' `puzzles.csv` into `into/puzzles.csv`, in corpus
/// (run order) and line order, cross-checking each puzzle's rows; checks
/// each part's row counts against its statistics. Returns the rows written,
/// the discrepancies and each corpus's paired times (the same puzzles and
/// blocks of lines as the unsharded run: its speed ratios).
pub(super) fn merge_rows(
    parts: &[Part],
    config: &Config,
    result: &RunResult,
    into: &Path,
) -> Result<(u64, Vec<Discrepancy>, Vec<PairedTimes>), MergeError> {
    let corpus_index: HashMap<&str, usize> = result
        .corpora
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let solver_index: HashMap<&str, usize> = config
        .solvers()
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let (mut readers, mut heap) = open_parts(parts, config, result, &corpus_index, &solver_index)?;
    let path = into.join(schema::PUZZLES_CSV);
    let io = |source| MergeError::Io {
        path: path.clone(),
        source,
    };
    let file = AtomicFile::create(&path).map_err(io)?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    puzzles::write_header(&mut out).map_err(io)?;
    let mut rows = 0u64;
    // The line of the row being written.
    let mut line_buf = Vec::with_capacity(256);
    let mut discrepancies = Vec::new();
    let mut paired: Vec<PairedTimes> = result
        .corpora
        .iter()
        .map(|_| PairedTimes::new(config.solvers().len(), config.schedule.block))
        .collect();
    let mut pair = |puzzle: Option<(usize, u64, usize)>, records: &[Record]| {
        if let Some((c, line, _)) = puzzle {
            paired[c].add_puzzle(line, records);
        }
    };
    // The puzzle whose rows are being gathered: key, part, records.
    let mut current: Option<(usize, u64, usize)> = None;
    let mut records: Vec<Record> = Vec::with_capacity(config.solvers().len());
    let name = |s: u16| config.solvers()[usize::from(s)].as_str();
    // The cross-check of the puzzle whose rows were gathered, if any.
    let check = |puzzle: Option<(usize, u64, usize)>, records: &[Record]| match puzzle {
        Some((c, line, _)) => {
            harness::cross_check(&result.corpora[c].name, line, config.limit, records, name)
        }
        None => Vec::new(),
    };
    while let Some(Reverse((c, line, i))) = heap.pop() {
        match current {
            Some((pc, pl, pi)) if (pc, pl) == (c, line) && pi != i => {
                return Err(MergeError::Overlap {
                    corpus: result.corpora[c].name.clone(),
                    line,
                    first: parts[pi].dir.clone(),
                    second: parts[i].dir.clone(),
                });
            }
            Some((pc, pl, _)) if (pc, pl) == (c, line) => {}
            _ => {
                discrepancies.extend(check(current, &records));
                pair(current, &records);
                records.clear();
                current = Some((c, line, i));
            }
        }
        let r = &mut readers[i];
        let (_, record) = r.current.expect("a row read");
        records.push(record);
        // As the run writes it (a part from before the later columns gets
        // them, empty).
        let solver = config.solvers()[usize::from(record.solver)].as_str();
        line_buf.clear();
        PuzzleRecord::of_record(&result.corpora[c].name, solver, &record).write_csv(&mut line_buf);
        out.write_all(&line_buf).map_err(io)?;
        rows += 1;
        if let Some((c, line)) = r.advance(&corpus_index, &solver_index)? {
            heap.push(Reverse((c, line, i)));
        }
    }
    discrepancies.extend(check(current, &records));
    pair(current, &records);
    check_counts(parts, &readers, config, result)?;
    let mut file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.flush().map_err(io)?;
    file.commit().map_err(io)?;
    Ok((rows, discrepancies, paired))
}

/// The keys of the parts' current rows, smallest first: corpus, line, part.
type Heap = BinaryHeap<Reverse<(usize, u64, usize)>>;

/// Opens every part's `puzzles.csv` and reads its first row: the readers,
/// and the heap of their rows' keys the merge pops.
fn open_parts(
    parts: &[Part],
    config: &Config,
    result: &RunResult,
    corpus_index: &HashMap<&str, usize>,
    solver_index: &HashMap<&str, usize>,
) -> Result<(Vec<Rows>, Heap), MergeError> {
    let mut readers: Vec<Rows> = parts
        .iter()
        .map(|p| Rows::open(p, config.solvers().len(), result.corpora.len()))
        .collect::<Result<_, _>>()?;
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        if let Some((c, line)) = r.advance(corpus_index, solver_index)? {
            heap.push(Reverse((c, line, i)));
        }
    }
    Ok((readers, heap))
}

/// Checks each part's rows, as read, against its `histograms.json`: as
/// many per corpus x solver, adding up to the same statistics.
fn check_counts(
    parts: &[Part],
    readers: &[Rows],
    config: &Config,
    result: &RunResult,
) -> Result<(), MergeError> {
    for (part, r) in parts.iter().zip(readers) {
        for (c, corpus) in result.corpora.iter().enumerate() {
            for (s, solver) in config.solvers().iter().enumerate() {
                let stats = part.stats(&corpus.name, solver)?;
                // Skipped puzzles have rows, and are not among `puzzles`.
                if r.counts[c][s] != stats.puzzles + stats.skipped {
                    return Err(MergeError::Part {
                    dir: part.dir.clone(),
                    what: format!(
                        "{} holds {} rows of {} x {solver}, {} says {} puzzles: a file was cut short or changed",
                        schema::PUZZLES_CSV,
                        r.counts[c][s],
                        corpus.name,
                        schema::HISTOGRAMS_JSON,
                        stats.puzzles + stats.skipped
                    ),
                });
                }
                if let Some(what) = differences(&r.stats[c][s], stats) {
                    return Err(MergeError::Part {
                        dir: part.dir.clone(),
                        what: format!(
                            "the rows of {} x {solver} in {} add up to other figures than {} \
                         records ({what}): a file was changed",
                            corpus.name,
                            schema::PUZZLES_CSV,
                            schema::HISTOGRAMS_JSON,
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}
