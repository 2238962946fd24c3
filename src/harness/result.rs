//! What a run found: per corpus and over the run.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::time::{Duration, SystemTime};

use super::{images, Discrepancy, FailureNote, NoRatio, PairedTimes, SolverStats, Speed};

/// A malformed line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Malformed {
    /// 1-based line.
    pub line: u64,
    /// The parser's message (with line and column).
    pub message: String,
    /// The start of the line.
    pub text: String,
}

/// Malformed lines kept in full per corpus (all are counted).
pub const MALFORMED_EXAMPLES: usize = 5;

/// Results for one corpus.
#[derive(Debug, Clone)]
pub struct CorpusResult {
    /// Corpus name.
    pub name: String,
    /// [`Config::round_trip_floor_ns`] of the run (0 read back).
    pub round_trip_floor_ns: f64,
    /// File path, if any.
    pub path: Option<std::path::PathBuf>,
    /// Size in bytes.
    pub bytes: u64,
    /// Lines (including comments and blank lines).
    pub lines: u64,
    /// A leading comment said `ALLOWZERO`.
    pub allow_zero: bool,
    /// Puzzles parsed (malformed lines excluded).
    pub puzzles: u64,
    /// Malformed lines.
    pub malformed: u64,
    /// The first [`MALFORMED_EXAMPLES`] malformed lines.
    pub malformed_examples: Vec<Malformed>,
    /// Total parse time over all workers (first pass only), ns.
    pub parse_ns: u64,
    /// Total time spent finding lines (scanning chunks), ns.
    pub scan_ns: u64,
    /// Wall-clock time of the corpus, warm-up included.
    pub wall: Duration,
    /// Per solver, in [`Config::solvers`] order.
    pub solvers: Vec<SolverStats>,
    /// The file changed on disk during the run.
    pub changed_on_disk: bool,
    /// Worker threads that ran at least one chunk of the corpus: the
    /// parallelism its throughput figures assume.
    pub workers: usize,
    /// Lines of the corpus whose chunks were run (all of them unless the
    /// run was stopped).
    pub lines_done: u64,
    /// The first failed solves ([`Status::is_failure`]) of the corpus, by
    /// line: the first [`FAILURE_EXAMPLES`] crashes, timeouts and protocol
    /// errors, and for each solver stopped after failures in a row the
    /// first puzzle it skipped. The counts are in the solvers' statistics.
    pub failures: Vec<FailureNote>,
    /// The solvers' paired solve times, for their speed ratios
    /// ([`CorpusResult::speeds`]); empty for a run read back from files.
    pub paired: PairedTimes,
    /// The speed ratios as a result directory records them (read back
    /// from `summary.csv`), against its reference; `None`: computed from
    /// [`CorpusResult::paired`].
    pub recorded_speeds: Option<Vec<Speed>>,
    /// The speeds computed from [`CorpusResult::paired`] and the reference
    /// they are against, once ([`CorpusResult::speeds`]); empty until
    /// then (set `paired` before asking for them).
    pub speed_cache: std::sync::OnceLock<(usize, Vec<Speed>)>,
    /// With [`Config::images`] above 1: every image's solve of every
    /// puzzle, sorted by line, solver and image (`images.csv`); empty
    /// otherwise, and for a run read back from files.
    pub images: Vec<images::ImageRow>,
}

/// Everything a run found.
#[derive(Debug)]
pub struct RunResult {
    /// Per corpus.
    pub corpora: Vec<CorpusResult>,
    /// Disagreements and invalid solutions, sorted.
    pub discrepancies: Vec<Discrepancy>,
    /// Solver states created (threads x solvers).
    pub states_created: u64,
    /// Worker threads.
    pub threads: usize,
    /// Median cost of one pair of clock reads, ns.
    pub clock_overhead_ns: f64,
    /// Start time.
    pub started: SystemTime,
    /// End time.
    pub finished: SystemTime,
    /// The run was stopped ([`Progress::stop_requested`]) before the end:
    /// the last corpus may be partial ([`CorpusResult::complete`]) and
    /// later ones were not run.
    pub interrupted: bool,
    /// Writing the per-puzzle records failed ([`RecordSink`]); everything
    /// else of the run is complete.
    pub records_error: Option<std::io::Error>,
}

impl CorpusResult {
    /// Whether every line of the corpus was run.
    pub fn complete(&self) -> bool {
        self.lines_done == self.lines
    }

    /// Reader throughput in MB/s (10^6 bytes) per worker thread: corpus
    /// bytes over the time spent finding lines and parsing them.
    pub fn reader_mb_per_s(&self) -> f64 {
        match self.scan_ns + self.parse_ns {
            0 => 0.0,
            ns => self.bytes as f64 * 1e3 / ns as f64,
        }
    }

    /// Every solver's speed against solver `reference` (an index into
    /// [`CorpusResult::solvers`]), in their order: the recorded ones when
    /// the result was read back with them, else computed from
    /// [`CorpusResult::paired`] ([`Speed::of`]; its bootstrap takes a
    /// moment on a large corpus: compute once, use everywhere).
    pub fn speeds(&self, reference: usize) -> Vec<Speed> {
        if let Some(recorded) = &self.recorded_speeds {
            return recorded.clone();
        }
        let compute = || {
            let ref_invalid = self.solvers.get(reference).map_or(0, |s| s.invalid);
            // Times a solver reports about itself count only when they
            // explain its round trips (`own_time`).
            let floor = self.round_trip_floor_ns;
            let unverified = |s: &SolverStats| s.own_time_check(floor).is_some_and(|c| !c.verified);
            let ref_unverified = self.solvers.get(reference).is_some_and(unverified);
            self.solvers
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    match Speed::of(&self.paired, reference, i, (ref_invalid, s.invalid)) {
                        Speed::Ratio(_) if unverified(s) => Speed::Missing(NoRatio::Unverified),
                        Speed::Ratio(_) if ref_unverified => {
                            Speed::Missing(NoRatio::ReferenceUnverified)
                        }
                        speed => speed,
                    }
                })
                .collect::<Vec<_>>()
        };
        match self.speed_cache.get_or_init(|| (reference, compute())) {
            (r, speeds) if *r == reference => speeds.clone(),
            _ => compute(),
        }
    }
}

impl RunResult {
    /// A run that has measured nothing yet: started at `started`, on
    /// `threads` worker threads, with `clock_overhead_ns` the cost of a
    /// pair of clock reads.
    pub fn starting(threads: usize, clock_overhead_ns: f64, started: SystemTime) -> RunResult {
        RunResult {
            corpora: Vec::new(),
            discrepancies: Vec::new(),
            states_created: 0,
            threads,
            clock_overhead_ns,
            started,
            finished: started,
            interrupted: false,
            records_error: None,
        }
    }

    /// True when some corpus had malformed lines.
    pub fn has_malformed(&self) -> bool {
        self.corpora.iter().any(|c| c.malformed > 0)
    }

    /// True when some solver found a puzzle without solution in a corpus
    /// not marked `ALLOWZERO`.
    pub fn has_unexpected_unsolvable(&self) -> bool {
        self.corpora
            .iter()
            .any(|c| !c.allow_zero && c.solvers.iter().any(|s| s.unsolvable > 0))
    }

    /// Failed solves over the run: crashes, timeouts and protocol errors,
    /// in untimed warm-up solves and on symmetry images 1 to K-1 too
    /// (skipped puzzles are not counted: they follow failures or a stop).
    pub fn failed_solves(&self) -> u64 {
        self.corpora
            .iter()
            .flat_map(|c| &c.solvers)
            .map(|s| s.failed() + s.warm_up_failed + s.image_failed)
            .sum()
    }

    /// Whether the run failed (exit status 1): a disagreement, an invalid
    /// answer, a failed solve ([`RunResult::failed_solves`]) or a malformed
    /// line (the input policy); with `strict`, also unexpected unsolvable
    /// puzzles.
    pub fn failed(&self, strict: bool) -> bool {
        !self.discrepancies.is_empty()
            || self.failed_solves() > 0
            || self.has_malformed()
            || (strict && self.has_unexpected_unsolvable())
    }
}
