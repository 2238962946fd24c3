//! What a probe measures of a commit's library against the good one's:
//! the counts of every puzzle (deterministic, compared exactly), or the
//! time, both libraries loaded in one paired `ab` run.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::{BisectError, Direction, Options, Verdict};
use crate::ab::{self, Stop};
use crate::compare::bootstrap::Interval;
use crate::corpus::Corpus;
use crate::harness::{self, Lineup, Record, RecordSink, Setup};
use crate::puzzle::Puzzle;
use crate::solvers::foreign::{self, LibrarySpec};
use crate::solvers::host::{self, HostCommand};
use crate::solvers::process::ProcessOptions;
use crate::solvers::{SolverEntry, Status};
use crate::sudoku::Grid;

/// One puzzle's counts through the C interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PuzzleCounts {
    /// Its status (solved, unique, multiple, none, invalid, ...).
    pub status: Status,
    /// Solutions found, up to the limit.
    pub solutions: u64,
    /// The solver's count of guesses (`*num_guesses`).
    pub guesses: u64,
}

/// Sums over a corpus's puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    /// Puzzles.
    pub puzzles: u64,
    /// Solutions.
    pub solutions: u64,
    /// Guesses.
    pub guesses: u64,
}

/// Every puzzle's counts of one library, by corpus and line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Counts {
    /// The corpora's names, in order.
    pub corpora: Vec<String>,
    /// Per (corpus index, line).
    pub puzzles: BTreeMap<(usize, u64), PuzzleCounts>,
}

impl Counts {
    /// The sums over every puzzle.
    pub fn totals(&self) -> Totals {
        self.puzzles
            .values()
            .fold(Totals::default(), |t, c| Totals {
                puzzles: t.puzzles + 1,
                solutions: t.solutions + c.solutions,
                guesses: t.guesses + c.guesses,
            })
    }
}

/// A puzzle whose counts differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// Its corpus.
    pub corpus: String,
    /// Its line.
    pub line: u64,
    /// The good commit's counts (`None`: not in its run).
    pub before: Option<PuzzleCounts>,
    /// The probed commit's (`None`: not in its run).
    pub after: Option<PuzzleCounts>,
}

/// How a commit's counts compare with the good commit's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountsChange {
    /// The good commit's sums.
    pub before: Totals,
    /// The probed commit's.
    pub after: Totals,
    /// Puzzles whose counts differ.
    pub differ: u64,
    /// The first few of them (at most [`CountsChange::EXAMPLES`]).
    pub examples: Vec<Difference>,
}

impl CountsChange {
    /// How many differing puzzles are named.
    pub const EXAMPLES: usize = 5;

    /// `after` against `before`, puzzle by puzzle.
    pub fn between(before: &Counts, after: &Counts) -> CountsChange {
        let mut keys: Vec<&(usize, u64)> =
            before.puzzles.keys().chain(after.puzzles.keys()).collect();
        keys.sort_unstable();
        keys.dedup();
        let mut change = CountsChange {
            before: before.totals(),
            after: after.totals(),
            differ: 0,
            examples: Vec::new(),
        };
        for key in keys {
            let (b, a) = (before.puzzles.get(key), after.puzzles.get(key));
            if b == a {
                continue;
            }
            change.differ += 1;
            if change.examples.len() < Self::EXAMPLES {
                let names = if b.is_some() {
                    &before.corpora
                } else {
                    &after.corpora
                };
                change.examples.push(Difference {
                    corpus: names.get(key.0).cloned().unwrap_or_default(),
                    line: key.1,
                    before: b.copied(),
                    after: a.copied(),
                });
            }
        }
        change
    }

    /// Same or changed.
    pub fn verdict(&self) -> Verdict {
        match self.differ {
            0 => Verdict::Same,
            _ => Verdict::Changed,
        }
    }
}

/// The paired time of a commit's library (B) against the good commit's
/// (A), from one `ab` run.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeChange {
    /// B/A and its 95% interval over pairs of passes (`None`: too few).
    pub interval: Option<Interval>,
    /// The threshold it was judged at.
    pub judged_at: f64,
    /// Passes, warm-up included.
    pub passes: u32,
    /// Puzzles timed by both in every measured pass.
    pub puzzles: usize,
    /// Why the passes stopped.
    pub stop: Stop,
    /// Puzzles whose status or solution count differs between A and B.
    pub outcome_changed: u64,
    /// Invalid answers, disagreements and failed solves, both sides.
    pub problems: u64,
    /// Which way the bisect looks.
    pub direction: Direction,
}

impl TimeChange {
    /// Changed: the whole interval beyond `1 + judged_at` (slower) or below
    /// `1 - judged_at` (faster), ab's verdict rule; the same: the whole
    /// interval on the near side of that bound (a change of that size is
    /// ruled out); unknown otherwise, and when the run had problems.
    pub fn verdict(&self) -> Verdict {
        let Some(i) = self.interval else {
            return Verdict::Unknown;
        };
        if self.problems > 0 {
            return Verdict::Unknown;
        }
        let t = self.judged_at;
        let (changed, same) = match self.direction {
            Direction::Slower => (i.low > 1.0 + t, i.high < 1.0 + t),
            Direction::Faster => (i.high < 1.0 - t, i.low > 1.0 - t),
        };
        match (changed, same) {
            (true, _) => Verdict::Changed,
            (false, true) => Verdict::Same,
            (false, false) => Verdict::Unknown,
        }
    }
}

/// The solver `spec` as an entry: loaded in this process, or run in host
/// processes of `host_program` (the `dlxbench` binary) when given.
pub fn entry(
    spec: &LibrarySpec,
    host_program: Option<&Path>,
) -> Result<SolverEntry<Grid>, BisectError> {
    match host_program {
        None => Ok(foreign::load::<Grid>(spec)?),
        Some(program) => {
            let command = HostCommand {
                program: program.to_path_buf(),
                spec: spec.clone(),
                kind: Grid::NAME,
                memory_limit: None,
            };
            command.check()?;
            Ok(host::entry::<Grid>(&command, ProcessOptions::default()))
        }
    }
}

/// A run's records, by corpus name, in the order handed over.
type Batches = Vec<(String, Vec<Record>)>;

/// The records of a run, by corpus, as the harness hands them over.
struct Collector(Arc<Mutex<Batches>>);

impl RecordSink for Collector {
    fn write_batch(&mut self, corpus: &str, records: &[Record]) -> std::io::Result<()> {
        let mut batches = self.0.lock().unwrap_or_else(|e| e.into_inner());
        batches.push((corpus.to_string(), records.to_vec()));
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every puzzle's counts of `solver` over `corpora`, one pass.
pub fn counts(
    corpora: &[Corpus],
    solver: SolverEntry<Grid>,
    options: &Options,
) -> Result<Counts, BisectError> {
    let setup = setup(Lineup::new(vec![solver]), options);
    let batches = Arc::new(Mutex::new(Vec::new()));
    let sink = Box::new(Collector(Arc::clone(&batches)));
    harness::run(corpora, &setup, Some(sink), None)?;
    let names: Vec<String> = corpora.iter().map(|c| c.name().to_string()).collect();
    let mut counts = Counts {
        corpora: names.clone(),
        puzzles: BTreeMap::new(),
    };
    let batches = std::mem::take(&mut *batches.lock().unwrap_or_else(|e| e.into_inner()));
    for (corpus, records) in batches {
        let Some(c) = names.iter().position(|n| *n == corpus) else {
            continue;
        };
        for r in records {
            let puzzle = PuzzleCounts {
                status: r.status,
                solutions: r.solutions,
                guesses: r.guesses,
            };
            counts.puzzles.insert((c, r.line), puzzle);
        }
    }
    Ok(counts)
}

/// The paired time of `probe` against `good` over `corpora`: one `ab` run.
pub fn time(
    corpora: &[Corpus],
    good: SolverEntry<Grid>,
    probe: SolverEntry<Grid>,
    options: &Options,
) -> Result<TimeChange, BisectError> {
    let setup = setup(Lineup::new(vec![good, probe]), options);
    let result = ab::run(corpora, &setup, &options.ab, None, &mut |_| {})?;
    Ok(TimeChange {
        interval: result.overall.interval,
        judged_at: result.judged_at,
        passes: result.passes,
        puzzles: result.overall.puzzles,
        stop: result.stop,
        outcome_changed: result.nodes.outcome_changed,
        problems: result.discrepancies.len() as u64 + result.failed_solves,
        direction: options.direction,
    })
}

/// The harness's settings for `lineup`: the mode and threads of
/// `options`, each solver's default budget.
fn setup(lineup: Lineup<Grid>, options: &Options) -> Setup<Grid> {
    let mut setup = Setup::new(lineup);
    let config = setup.config_mut();
    config.threads = options.threads;
    (config.mode, config.limit) = (options.mode, options.limit);
    setup
}
