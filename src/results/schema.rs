//! The layout of a result directory, in one place: the names of the files
//! `dlxbench bench` writes, and the columns of `summary.csv` and
//! `puzzles.csv` in their order.
//!
//! The writers ([`crate::report`]) and the readers ([`super::ResultDir`],
//! [`super::PuzzleReader`]) use these constants; the fields of
//! [`super::SummaryRow`] are the columns of `summary.csv` (a test checks
//! they agree), and [`puzzles::Column`] is the one list of the columns of
//! `puzzles.csv`, which its writer and its reader both go by; nothing else
//! spells a file or column name. The order of the columns is
//! part of the file format: a column added later goes last, so that readers
//! of older files by position keep working (`compare` finds columns by
//! name, and reads files without the later ones).

/// One row per corpus x solver: [`summary`].
pub const SUMMARY_CSV: &str = "summary.csv";
/// One row per puzzle x solver, streamed while the run goes: [`puzzles`].
pub const PUZZLES_CSV: &str = "puzzles.csv";
/// What was run, where and when.
pub const RUN_JSON: &str = "run.json";
/// Every latency histogram, encoded for exact merging later.
pub const HISTOGRAMS_JSON: &str = "histograms.json";
/// The terminal table in Markdown.
pub const SUMMARY_MD: &str = "summary.md";
/// Every problem the run found (solvers that disagreed, invalid answers),
/// one a line, as `bench` prints them: written only when there is one
/// (the terminal shows the first few of each corpus).
pub const PROBLEMS_TXT: &str = "problems.txt";
/// With `bench --images K`: one row per puzzle x solver x symmetry image
/// ([`images`]), written only by such a run.
pub const IMAGES_CSV: &str = "images.csv";

/// The ending of the per corpus x solver percentile files.
pub const HGRM_SUFFIX: &str = ".hgrm";
/// The run's pictures and tables in one page (`dlxbench plot`).
pub const REPORT_HTML: &str = "report.html";
/// The ending of the pictures (`<corpus>.<picture>.svg`).
pub const SVG_SUFFIX: &str = ".svg";

/// The pictures of one corpus, in the order `report.html` shows them:
/// `<stem>.<picture>.svg` ([`picture_file`]).
pub const PICTURES: [&str; 4] = ["percentiles", "latency", "cost", "speed"];

/// The files of a run whose names do not depend on its corpora and
/// solvers ([`PUZZLES_CSV`] only with per-puzzle rows, [`REPORT_HTML`]
/// only once drawn, [`PROBLEMS_TXT`] only when the run found problems,
/// [`IMAGES_CSV`] only with `--images`).
pub const FIXED_FILES: [&str; 8] = [
    SUMMARY_CSV,
    PUZZLES_CSV,
    RUN_JSON,
    HISTOGRAMS_JSON,
    SUMMARY_MD,
    REPORT_HTML,
    PROBLEMS_TXT,
    IMAGES_CSV,
];

/// Whether a file named `name` may be one a run writes: one of
/// [`FIXED_FILES`], or a name ending like a histogram or a picture. A
/// guess by name: which files a run wrote is what its `run.json` lists
/// ([`super::RunInfo::manifest`]).
pub fn is_result_file(name: &str) -> bool {
    FIXED_FILES.contains(&name) || name.ends_with(HGRM_SUFFIX) || name.ends_with(SVG_SUFFIX)
}

/// Whether `run.json` records a checksum of the file named `name` when a
/// run lists it ([`super::checksum`]): the data files (`summary.csv`,
/// `puzzles.csv`, `histograms.json`, `summary.md`, the `.hgrm` files); not
/// `run.json` itself, nor the pictures and `report.html`, which `plot`
/// redraws from the data at any time.
pub fn is_checksummed(name: &str) -> bool {
    is_result_file(name) && name != RUN_JSON && name != REPORT_HTML && !name.ends_with(SVG_SUFFIX)
}

/// The longest corpus or solver part of a result file's name, bytes: a
/// longer name is cut and ends with a hash of the whole ([`file_part`]),
/// so that every result file's name stays far below the 255 bytes file
/// systems allow.
pub const MAX_PART: usize = 96;

/// A name safe in a file name: letters, digits, `-`, `_`, `.`, `+` kept,
/// anything else becomes `_`.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `name` as a part of a result file's name: [`file_safe`], and when that
/// is longer than [`MAX_PART`] bytes, its first 79 characters, `-` and the
/// first 16 hex digits of the SHA-256 of `name` (so that long names that
/// differ only at their end stay apart).
pub fn file_part(name: &str) -> String {
    use sha2::{Digest, Sha256};
    let safe = file_safe(name);
    if safe.len() <= MAX_PART {
        return safe;
    }
    let hash = Sha256::digest(name.as_bytes());
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    // `safe` is ASCII: any byte index is a character boundary.
    format!("{}-{hex}", &safe[..MAX_PART - 17])
}

/// The stem of each corpus's result files (`<stem>.<solver>.hgrm`,
/// `<stem>.<picture>.svg`), corpora named `names` in run order: its
/// [`file_part`], and when that is already taken by an earlier corpus
/// (ignoring case, as macOS and Windows file systems do) `-2`, `-3`, ...
/// after it: corpora `x y` and `x_y` get `x_y` and `x_y-2`. A run records
/// each in `run.json` (`corpora[i].file_stem`).
pub fn file_stems<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    names
        .iter()
        .map(|name| {
            let base = file_part(name.as_ref());
            let mut stem = base.clone();
            let mut n = 2;
            while !taken.insert(stem.to_ascii_lowercase()) {
                stem = format!("{base}-{n}");
                n += 1;
            }
            stem
        })
        .collect()
}

/// Whether `stem` is a stem [`file_stems`] can give: not empty, file-safe,
/// at most [`MAX_PART`] bytes and a few more for a `-N`.
pub fn is_file_stem(stem: &str) -> bool {
    !stem.is_empty() && stem.len() <= MAX_PART + 8 && file_safe(stem) == stem
}

/// The `.hgrm` file of corpus `stem` x `solver`.
pub fn hgrm_file(stem: &str, solver: &str) -> String {
    format!("{stem}.{}{HGRM_SUFFIX}", file_part(solver))
}

/// The file of corpus `stem`'s head-to-head scatter plot of the reference
/// against `solver`: `<stem>.<solver>.versus.svg`.
pub fn versus_file(stem: &str, solver: &str) -> String {
    format!("{stem}.{}.versus.svg", file_part(solver))
}

/// The file of corpus `stem`'s picture `picture` (one of [`PICTURES`]).
pub fn picture_file(stem: &str, picture: &str) -> String {
    format!("{stem}.{picture}{SVG_SUFFIX}")
}

/// The columns of `summary.csv`: one row per corpus x solver.
pub mod summary {
    /// Corpus name.
    pub const CORPUS: &str = "corpus";
    /// Solver name.
    pub const SOLVER: &str = "solver";
    /// Puzzles run.
    pub const PUZZLES: &str = "puzzles";
    /// Puzzles with at least one solution within budget.
    pub const SOLVED: &str = "solved";
    /// Puzzles without solution.
    pub const UNSOLVABLE: &str = "unsolvable";
    /// Puzzles with two or more solutions (part of [`SOLVED`]).
    pub const MULTIPLE: &str = "multiple";
    /// Puzzles over the node budget.
    pub const BUDGET: &str = "budget";
    /// Lines of the corpus that did not parse.
    pub const MALFORMED: &str = "malformed";
    /// Returned grids that are not solutions.
    pub const INVALID: &str = "invalid";
    /// Mean solve time within budget, ns (exact).
    pub const MEAN_NS: &str = "mean_ns";
    /// Standard deviation of the solve times within budget, ns (exact).
    pub const STDDEV_NS: &str = "stddev_ns";
    /// Median solve time within budget, ns (HdrHistogram).
    pub const P50_NS: &str = "p50_ns";
    /// 90th percentile, ns.
    pub const P90_NS: &str = "p90_ns";
    /// 99th percentile, ns.
    pub const P99_NS: &str = "p99_ns";
    /// 99.9th percentile, ns.
    pub const P999_NS: &str = "p999_ns";
    /// Largest solve time within budget, ns.
    pub const MAX_NS: &str = "max_ns";
    /// Total search nodes (empty for solvers that do not report them).
    pub const TOTAL_NODES: &str = "total_nodes";
    /// Branch points per puzzle.
    pub const GUESSES_PER_PUZZLE: &str = "guesses_per_puzzle";
    /// Puzzles solved without a branch point, percent.
    pub const NO_GUESS_PCT: &str = "no_guess_pct";
    /// Puzzles x threads / total solve time (over-budget solves included).
    pub const PUZZLES_PER_S: &str = "puzzles_per_s";
    /// [`PUZZLES_PER_S`] over the reference solver's.
    pub const SPEED_VS_REFERENCE: &str = "speed_vs_reference";
    /// Worker threads.
    pub const THREADS: &str = "threads";
    /// Mode (`unique`, `first`, `count`).
    pub const MODE: &str = "mode";
    /// Node budget of the solver (empty: unlimited).
    pub const BUDGET_NODES: &str = "budget_nodes";
    /// The solver speeds are quoted against.
    pub const REFERENCE: &str = "reference";
    /// Dancing Links link updates (empty for solvers without them).
    pub const TOTAL_UPDATES: &str = "total_updates";
    /// Puzzles the solver does not take (a 9x9-only solver on 16x16
    /// grids): not run, not in [`PUZZLES`], no row in `puzzles.csv`.
    pub const NOT_APPLICABLE: &str = "not_applicable";
    /// Puzzles on which the solver's process crashed (in [`PUZZLES`], not
    /// timed).
    pub const CRASHED: &str = "crashed";
    /// Puzzles past the solver's deadline (in [`PUZZLES`], not timed).
    pub const TIMEOUT: &str = "timeout";
    /// Puzzles answered out of protocol (in [`PUZZLES`], not timed).
    pub const PROTOCOL_ERROR: &str = "protocol_error";
    /// Puzzles not run after the solver was stopped, or the run
    /// interrupted during its call (not in [`PUZZLES`]).
    pub const SKIPPED: &str = "skipped";
    /// What the latencies measured: `call`, `own`, `round-trip`, `mixed`.
    pub const LATENCY_SOURCE: &str = "latency_source";
    /// Mean round trip to a solver in its own process, ns (empty for
    /// in-process solvers).
    pub const MEAN_ROUND_TRIP_NS: &str = "mean_round_trip_ns";
    /// The paired speed against the reference (geometric mean of
    /// `ns_reference / ns_solver` over the puzzles both solved).
    pub const SPEED_VS: &str = "speed_vs";
    /// Lower bound of [`SPEED_VS`]'s 95% interval.
    pub const SPEED_LOW: &str = "speed_low";
    /// Upper bound of [`SPEED_VS`]'s 95% interval.
    pub const SPEED_HIGH: &str = "speed_high";
    /// Puzzles [`SPEED_VS`] is over.
    pub const SPEED_PUZZLES: &str = "speed_puzzles";
    /// `reference`, or why there is no [`SPEED_VS`].
    pub const SPEED_NOTE: &str = "speed_note";
    /// Total mems: memory accesses as Knuth's programs count them (empty
    /// for solvers that do not count them).
    pub const TOTAL_MEMS: &str = "total_mems";
    /// The share of a solver's round trips its own times (`ns=`) explain
    /// (about 1 when honest; empty for solvers not timed by their own
    /// report): [`crate::harness::own_time`].
    pub const OWN_TIME_EXPLAINED: &str = "own_time_explained";
    /// The round trips' median less the own times' median: what a request
    /// costs beyond the solver's own time, ns (pipe included).
    pub const OWN_OVERHEAD_NS: &str = "own_overhead_ns";

    /// The columns every `summary.csv` has, whatever its version (the
    /// others read as their default when a file lacks them).
    // Written out, not derived from COLUMNS (a const array); a test checks
    // that each is one of COLUMNS.
    pub const REQUIRED: [&str; 14] = [
        CORPUS,
        SOLVER,
        PUZZLES,
        SOLVED,
        UNSOLVABLE,
        MULTIPLE,
        BUDGET,
        INVALID,
        MEAN_NS,
        STDDEV_NS,
        P50_NS,
        P99_NS,
        PUZZLES_PER_S,
        TOTAL_NODES,
    ];

    /// Every column, in the file's order. Columns added later
    /// ([`TOTAL_UPDATES`], [`NOT_APPLICABLE`], then [`CRASHED`] to
    /// [`MEAN_ROUND_TRIP_NS`], then [`SPEED_VS`] to [`SPEED_NOTE`], then
    /// [`TOTAL_MEMS`], then [`OWN_TIME_EXPLAINED`] and [`OWN_OVERHEAD_NS`])
    /// come last, so that readers of older files by position keep working.
    // Its head repeats `REQUIRED` on purpose (see there).
    pub const COLUMNS: [&str; 41] = [
        CORPUS,
        SOLVER,
        PUZZLES,
        SOLVED,
        UNSOLVABLE,
        MULTIPLE,
        BUDGET,
        MALFORMED,
        INVALID,
        MEAN_NS,
        STDDEV_NS,
        P50_NS,
        P90_NS,
        P99_NS,
        P999_NS,
        MAX_NS,
        TOTAL_NODES,
        GUESSES_PER_PUZZLE,
        NO_GUESS_PCT,
        PUZZLES_PER_S,
        SPEED_VS_REFERENCE,
        THREADS,
        MODE,
        BUDGET_NODES,
        REFERENCE,
        TOTAL_UPDATES,
        NOT_APPLICABLE,
        CRASHED,
        TIMEOUT,
        PROTOCOL_ERROR,
        SKIPPED,
        LATENCY_SOURCE,
        MEAN_ROUND_TRIP_NS,
        SPEED_VS,
        SPEED_LOW,
        SPEED_HIGH,
        SPEED_PUZZLES,
        SPEED_NOTE,
        TOTAL_MEMS,
        OWN_TIME_EXPLAINED,
        OWN_OVERHEAD_NS,
    ];
}

/// The columns of `puzzles.csv`: one row per puzzle x solver.
pub mod puzzles {
    /// Corpus name and solver name: the same columns as in `summary.csv`.
    pub use super::summary::{CORPUS, SOLVER};

    /// 1-based line of the puzzle in its corpus.
    pub const LINE: &str = "line";
    /// Solve time, ns (the minimum over passes).
    pub const NS: &str = "ns";
    /// Solutions found (capped by the mode's limit).
    pub const SOLUTIONS: &str = "solutions";
    /// Search nodes (empty for solvers that do not report them).
    pub const NODES: &str = "nodes";
    /// Branch points.
    pub const GUESSES: &str = "guesses";
    /// The puzzle's status (`crate::solvers::Status::as_str`).
    pub const STATUS: &str = "status";
    /// Link updates (empty for solvers without them).
    pub const UPDATES: &str = "updates";
    /// The harness's round trip to a solver in its own process, ns (empty
    /// for in-process solvers); [`NS`] is the same unless the solver
    /// reported its own time.
    pub const ROUND_TRIP_NS: &str = "round_trip_ns";
    /// Why a solve failed (`signal 11`, `exit 3`, `deadline`, `response`,
    /// `stopped`, ...: `crate::solvers::Failure::cause`); empty otherwise.
    pub const CAUSE: &str = "cause";
    /// Mems: memory accesses as Knuth's programs count them (empty for
    /// solvers that do not count them).
    pub const MEMS: &str = "mems";
    /// The process id of the process that timed the solve, for a solver
    /// in its own process (empty for in-process solvers): the speed
    /// interval resamples the blocks of one host process together.
    pub const HOST: &str = "host";
    /// The line of the first puzzle of the group of answers whose round
    /// trips add up only together: in a batch, answers the harness found
    /// already waiting, with the next one it waited for; empty for an
    /// answer whose round trip is its own. The check of own times takes
    /// a group as one unit (`crate::harness::own_time`).
    pub const ROUND_TRIP_GROUP: &str = "round_trip_group";

    /// A column of `puzzles.csv`: the one list of them, in the file's
    /// order ([`Column::ALL`]). The writer writes a row by matching on
    /// each and the reader finds each by its name in the header
    /// ([`crate::results::PuzzleRecord`], [`crate::results::PuzzleReader`]):
    /// a column is added here, and the compiler asks for it there.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Column {
        /// [`CORPUS`].
        Corpus,
        /// [`LINE`].
        Line,
        /// [`SOLVER`].
        Solver,
        /// [`NS`].
        Ns,
        /// [`SOLUTIONS`].
        Solutions,
        /// [`NODES`].
        Nodes,
        /// [`GUESSES`].
        Guesses,
        /// [`STATUS`].
        Status,
        /// [`UPDATES`].
        Updates,
        /// [`ROUND_TRIP_NS`].
        RoundTripNs,
        /// [`CAUSE`].
        Cause,
        /// [`MEMS`].
        Mems,
        /// [`HOST`].
        Host,
        /// [`ROUND_TRIP_GROUP`].
        RoundTripGroup,
    }

    impl Column {
        /// Every column, in the file's order. Columns added later
        /// ([`UPDATES`], then [`ROUND_TRIP_NS`] and [`CAUSE`], then
        /// [`MEMS`], then [`HOST`], then [`ROUND_TRIP_GROUP`]) come last, so that
        /// readers of older files by position keep working.
        pub const ALL: [Column; 14] = [
            Column::Corpus,
            Column::Line,
            Column::Solver,
            Column::Ns,
            Column::Solutions,
            Column::Nodes,
            Column::Guesses,
            Column::Status,
            Column::Updates,
            Column::RoundTripNs,
            Column::Cause,
            Column::Mems,
            Column::Host,
            Column::RoundTripGroup,
        ];

        /// The columns every `puzzles.csv` has, whatever its version: the
        /// first eight, up to [`STATUS`] (the later ones read as empty when
        /// a file lacks them).
        pub const REQUIRED: &'static [Column] = Column::ALL.split_at(8).0;

        /// The column's name in the header.
        pub const fn name(self) -> &'static str {
            match self {
                Column::Corpus => CORPUS,
                Column::Line => LINE,
                Column::Solver => SOLVER,
                Column::Ns => NS,
                Column::Solutions => SOLUTIONS,
                Column::Nodes => NODES,
                Column::Guesses => GUESSES,
                Column::Status => STATUS,
                Column::Updates => UPDATES,
                Column::RoundTripNs => ROUND_TRIP_NS,
                Column::Cause => CAUSE,
                Column::Mems => MEMS,
                Column::Host => HOST,
                Column::RoundTripGroup => ROUND_TRIP_GROUP,
            }
        }
    }

    /// Every column's name, in the file's order ([`Column::ALL`]).
    pub const COLUMNS: [&str; 14] = {
        let mut names = [""; 14];
        let mut i = 0;
        while i < names.len() {
            names[i] = Column::ALL[i].name();
            i += 1;
        }
        names
    };
}

/// The columns of `images.csv` ([`IMAGES_CSV`]), in order: the corpus,
/// the puzzle's line, the solver, the image (0 to K-1) and its seed, then
/// the solve's status, solutions (capped), nodes (empty for solvers that
/// report none) and time (ns, the minimum over passes).
pub mod images {
    /// Column names, in order.
    pub const COLUMNS: [&str; 9] = [
        "corpus",
        "line",
        "solver",
        "image",
        "seed",
        "status",
        "solutions",
        "nodes",
        "ns",
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_unique(columns: &[&str]) {
        for (i, a) in columns.iter().enumerate() {
            assert!(!columns[..i].contains(a), "`{a}` twice");
        }
    }

    /// The header lines are the file format: this is the order the README
    /// and the report module document, which older readers rely on.
    #[test]
    fn summary_columns_are_unique_and_in_the_documented_order() {
        assert_unique(&summary::COLUMNS);
        assert_eq!(
            summary::COLUMNS.join(","),
            "corpus,solver,puzzles,solved,unsolvable,multiple,budget,malformed,invalid,\
             mean_ns,stddev_ns,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,total_nodes,\
             guesses_per_puzzle,no_guess_pct,puzzles_per_s,speed_vs_reference,threads,mode,\
             budget_nodes,reference,total_updates,not_applicable,crashed,timeout,\
             protocol_error,skipped,latency_source,mean_round_trip_ns,speed_vs,speed_low,\
             speed_high,speed_puzzles,speed_note,total_mems,own_time_explained,own_overhead_ns"
        );
        assert_eq!(summary::COLUMNS.last(), Some(&summary::OWN_OVERHEAD_NS));
    }

    /// `summary::REQUIRED`, written out, names columns of
    /// `summary::COLUMNS`, each once.
    #[test]
    fn summary_required_columns_are_columns() {
        assert_unique(&summary::REQUIRED);
        for c in summary::REQUIRED {
            assert!(summary::COLUMNS.contains(&c), "{c}");
        }
    }

    #[test]
    fn puzzles_columns_are_unique_and_in_the_documented_order() {
        assert_unique(&puzzles::COLUMNS);
        assert_eq!(
            puzzles::COLUMNS.join(","),
            "corpus,line,solver,ns,solutions,nodes,guesses,status,updates,round_trip_ns,cause,mems,host,round_trip_group"
        );
        assert_eq!(puzzles::COLUMNS.last(), Some(&puzzles::ROUND_TRIP_GROUP));
    }

    /// The reader keeps each column's position by the column's number:
    /// its place in the list.
    #[test]
    fn puzzle_columns_are_numbered_by_their_place() {
        for (i, c) in puzzles::Column::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i, "{c:?}");
        }
        assert_eq!(
            puzzles::Column::REQUIRED.last(),
            Some(&puzzles::Column::Status)
        );
    }

    #[test]
    fn file_stems_are_unique_ignoring_case_and_short() {
        assert_eq!(
            file_stems(&["x y", "x_y", "X_Y", "x_y-2", "a/b.c"]),
            ["x_y", "x_y-2", "X_Y-3", "x_y-2-2", "a_b.c"]
        );
        // Deterministic, and a prefix of the corpora gets a prefix.
        assert_eq!(file_stems(&["x y"]), ["x_y"]);
        let long = "é".repeat(120) + "z";
        let other = "é".repeat(120) + "y";
        let stems = file_stems(&[long.as_str(), other.as_str()]);
        assert_eq!(stems[0].len(), MAX_PART);
        assert_ne!(stems[0], stems[1], "the hash keeps them apart");
        assert!(stems[0].starts_with(&"_".repeat(79)) && stems[0].as_bytes()[79] == b'-');
        assert_eq!(stems, file_stems(&[long.as_str(), other.as_str()]));
        assert!(stems.iter().all(|s| is_file_stem(s)));
        assert!(!is_file_stem("../x") && !is_file_stem("") && !is_file_stem("a b"));
        let solver = "s".repeat(300);
        assert!(hgrm_file(&stems[0], &solver).len() < 255 - 32);
        assert_eq!(hgrm_file("x_y-2", "dlx"), "x_y-2.dlx.hgrm");
        assert_eq!(picture_file("x_y-2", "cost"), "x_y-2.cost.svg");
        assert_eq!(file_safe("a b/c.txt"), "a_b_c.txt");
    }

    #[test]
    fn file_names_are_distinct() {
        assert_unique(&[
            SUMMARY_CSV,
            PUZZLES_CSV,
            RUN_JSON,
            HISTOGRAMS_JSON,
            SUMMARY_MD,
            PROBLEMS_TXT,
            IMAGES_CSV,
        ]);
    }
}
