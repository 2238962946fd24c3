//! A general exact-cover library: Knuth's Algorithm X on Dancing Links.
//!
//! An exact-cover problem is a 0/1 matrix. Its columns (Knuth's *items*) are
//! either **primary**, which a solution must cover exactly once, or
//! **secondary**, which a solution may cover at most once. A solution is a set
//! of rows (Knuth's *options*) that covers every primary column exactly once
//! and no secondary column twice. As in Knuth's DLX1, the search reaches rows
//! only through primary columns, so a row with no primary column is never
//! part of a solution.
//!
//! * [`Problem`] holds the matrix as sparse rows, built in code with
//!   [`Problem::add_row`] or read from text with [`Problem::parse`].
//! * [`Dlx`] is the search arena built from a problem once. It supports
//!   preselecting rows ([`Dlx::select`]), counting or visiting solutions up to a
//!   limit, a node budget, and it returns to its pristine state with
//!   [`Dlx::reset`], so one arena serves any number of searches without
//!   allocating.
//!
//! ```
//! use dlxbench::exact_cover::{Dlx, Engine, Problem, SearchOptions};
//!
//! // Knuth's example from "Dancing Links" (2000): 7 columns, 6 rows.
//! let problem = Problem::parse(
//!     "0010110\n1001001\n0110010\n1001000\n0100001\n0001101\n",
//! )
//! .unwrap()
//! .problem;
//! let mut dlx = Dlx::new(&problem);
//! let mut found = Vec::new();
//! let stats = dlx.search(SearchOptions::default(), |rows| {
//!     found = rows.to_vec();
//!     std::ops::ControlFlow::Continue(())
//! });
//! assert_eq!(stats.solutions, 1);
//! found.sort();
//! assert_eq!(found, [0, 3, 4]); // rows 1, 4 and 5 counting from one
//! ```

mod cells;
mod dlx;
mod engine;
mod links;
pub mod puzzles;
mod scan;
mod text;

pub use cells::Dc;
pub use dlx::{Dlx, NODE_BYTES};
pub use engine::{
    ColumnChoice, Engine, EngineKind, SearchOptions, SearchStats, TimedSearch, UnknownEngine, Visit,
};
pub use text::{NamedProblem, TextError};

/// Errors from building a [`Problem`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// A row named a column index at or past the number of columns.
    #[error("row {row}: column {column} is out of range (the problem has {columns} columns)")]
    ColumnOutOfRange {
        /// Index of the offending row.
        row: usize,
        /// The column it named.
        column: usize,
        /// How many columns the problem has.
        columns: usize,
    },
    /// A row named the same column twice.
    #[error("row {row}: column {column} appears twice")]
    DuplicateColumn {
        /// Index of the offending row.
        row: usize,
        /// The repeated column.
        column: usize,
    },
    /// A row had no columns at all; such a row can never be part of a cover.
    #[error("row {row} is empty")]
    EmptyRow {
        /// Index of the offending row.
        row: usize,
    },
    /// The problem is too large for the arena: it holds at most 2^29 - 1
    /// nodes (32-bit links, and column lengths that leave room for two
    /// flag bits).
    #[error("the problem is too large: {nodes} nodes exceed the arena's limit of 2^29 - 1")]
    TooLarge {
        /// How many nodes the arena would need.
        nodes: usize,
    },
}

/// Rows up to this many columns are checked for a repeated column pair by
/// pair, without allocating (the Sudoku and Hanidoku rows); wider ones by
/// sorting a copy, so that a row of a million columns takes no longer than
/// reading it.
const PAIRWISE_WIDTH: usize = 32;

/// The first position in `columns` whose column appeared before it.
fn first_repeat(columns: &[usize]) -> Option<usize> {
    if columns.len() <= PAIRWISE_WIDTH {
        return (1..columns.len()).find(|&i| columns[..i].contains(&columns[i]));
    }
    let mut sorted: Vec<(usize, usize)> = columns.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    // In each run of one column, its second position is where it repeats.
    sorted
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[1].1)
        .min()
}

/// An exact-cover matrix stored as sparse rows.
///
/// Columns `0..primary` are primary, columns `primary..primary + secondary`
/// are secondary.
///
/// ```
/// use dlxbench::exact_cover::Problem;
/// let mut p = Problem::new(3, 1);
/// assert_eq!(p.add_row(&[0, 1]).unwrap(), 0);
/// assert_eq!(p.add_row(&[2, 3]).unwrap(), 1);
/// assert!(p.add_row(&[4]).is_err()); // only 4 columns
/// assert_eq!(p.rows(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    primary: usize,
    secondary: usize,
    /// Column indices of all rows, concatenated.
    entries: Vec<u32>,
    /// `row_ends[k]` is the end of row `k` in `entries`.
    row_ends: Vec<usize>,
}

impl Problem {
    /// An empty problem with the given numbers of primary and secondary columns.
    pub fn new(primary: usize, secondary: usize) -> Self {
        Problem {
            primary,
            secondary,
            entries: Vec::new(),
            row_ends: Vec::new(),
        }
    }

    /// Reserves room for `rows` more rows holding `entries` more 1s in all.
    pub fn reserve(&mut self, rows: usize, entries: usize) {
        self.row_ends.reserve(rows);
        self.entries.reserve(entries);
    }

    /// Adds a row covering the given columns and returns its index.
    ///
    /// The order of the columns is kept: it is the order in which the search
    /// covers them when the row is chosen.
    pub fn add_row(&mut self, columns: &[usize]) -> Result<usize, ProblemError> {
        let row = self.row_ends.len();
        if columns.is_empty() {
            return Err(ProblemError::EmptyRow { row });
        }
        let total = self.columns();
        // The first bad entry in row order decides the error.
        let out_of_range = columns.iter().position(|&c| c >= total);
        match (out_of_range, first_repeat(columns)) {
            (Some(i), repeat) if repeat.is_none_or(|j| i < j) => {
                return Err(ProblemError::ColumnOutOfRange {
                    row,
                    column: columns[i],
                    columns: total,
                });
            }
            (_, Some(j)) => {
                return Err(ProblemError::DuplicateColumn {
                    row,
                    column: columns[j],
                });
            }
            _ => {}
        }
        self.entries.extend(columns.iter().map(|&c| c as u32));
        self.row_ends.push(self.entries.len());
        Ok(row)
    }

    /// Number of primary columns.
    pub fn primary(&self) -> usize {
        self.primary
    }

    /// Number of secondary columns.
    pub fn secondary(&self) -> usize {
        self.secondary
    }

    /// Number of columns, primary and secondary.
    pub fn columns(&self) -> usize {
        self.primary + self.secondary
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.row_ends.len()
    }

    /// Number of 1s in the matrix.
    pub fn entries(&self) -> usize {
        self.entries.len()
    }

    /// The columns of row `row`, in the order they were given.
    ///
    /// # Panics
    /// If `row >= self.rows()`.
    pub fn row(&self, row: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        let start = if row == 0 { 0 } else { self.row_ends[row - 1] };
        self.entries[start..self.row_ends[row]]
            .iter()
            .map(|&c| c as usize)
    }

    /// Parses a problem from text, dense or named; see [`NamedProblem`].
    pub fn parse(text: &str) -> Result<NamedProblem, TextError> {
        text::parse(text)
    }

    /// Checks that `rows` is an exact cover: every primary column covered
    /// exactly once, no secondary column more than once, and every row
    /// holding a primary column. Used to validate
    /// solutions outside any timed region.
    pub fn is_exact_cover(&self, rows: &[usize]) -> bool {
        let mut seen = vec![false; self.columns()];
        for &r in rows {
            if r >= self.rows() || self.row(r).all(|c| c >= self.primary) {
                return false;
            }
            for c in self.row(r) {
                if std::mem::replace(&mut seen[c], true) {
                    return false;
                }
            }
        }
        seen[..self.primary].iter().all(|&s| s)
    }
}

#[cfg(test)]
mod tests;
