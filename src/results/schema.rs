//! The layout of a result directory, in one place: the names of the files
//! `dlxbench bench` writes, and the columns of `summary.csv` and
//! `puzzles.csv` in their order.
//!
//! The writers ([`crate::report`]) and the readers ([`super::ResultDir`],
//! and `compare`'s and `merge`'s streaming of the CSV files) use these
//! constants, and the fields of [`super::SummaryRow`] and
//! [`super::PuzzleRecord`] are the columns (a test checks they agree);
//! nothing else spells a file or column name. The order of the columns is
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

/// The ending of the per corpus x solver percentile files.
pub const HGRM_SUFFIX: &str = ".hgrm";
/// The run's pictures and tables in one page (`dlxbench plot`).
pub const REPORT_HTML: &str = "report.html";
/// The ending of the pictures (`<corpus>.<picture>.svg`).
pub const SVG_SUFFIX: &str = ".svg";

/// Whether a file named `name` is one a run writes: a directory holding
/// one holds the results of a run.
pub fn is_result_file(name: &str) -> bool {
    [
        SUMMARY_CSV,
        PUZZLES_CSV,
        RUN_JSON,
        HISTOGRAMS_JSON,
        SUMMARY_MD,
        REPORT_HTML,
    ]
    .contains(&name)
        || name.ends_with(HGRM_SUFFIX)
        || name.ends_with(SVG_SUFFIX)
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

    /// Every column, in the file's order. Columns added later
    /// ([`TOTAL_UPDATES`], [`NOT_APPLICABLE`]) come last, so that readers
    /// of older files by position keep working.
    pub const COLUMNS: [&str; 27] = [
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

    /// Every column, in the file's order. [`UPDATES`] came last, after
    /// [`STATUS`], so that readers of older files by position keep working.
    pub const COLUMNS: [&str; 9] = [
        CORPUS, LINE, SOLVER, NS, SOLUTIONS, NODES, GUESSES, STATUS, UPDATES,
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
             budget_nodes,reference,total_updates,not_applicable"
        );
        assert_eq!(summary::COLUMNS.last(), Some(&summary::NOT_APPLICABLE));
    }

    #[test]
    fn puzzles_columns_are_unique_and_in_the_documented_order() {
        assert_unique(&puzzles::COLUMNS);
        assert_eq!(
            puzzles::COLUMNS.join(","),
            "corpus,line,solver,ns,solutions,nodes,guesses,status,updates"
        );
        assert_eq!(puzzles::COLUMNS.last(), Some(&puzzles::UPDATES));
    }

    #[test]
    fn file_names_are_distinct() {
        assert_unique(&[
            SUMMARY_CSV,
            PUZZLES_CSV,
            RUN_JSON,
            HISTOGRAMS_JSON,
            SUMMARY_MD,
        ]);
    }
}
