//! The exact-cover encoding of Hanidoku (see the module docs of
//! [`crate::hanidoku`] for why it is exact).

use super::{lines_of, Line, CELLS, LINES};
use crate::exact_cover::Problem;

/// Rows of the matrix: one per (cell, digit).
pub const COVER_ROWS: usize = CELLS * 9;
/// Primary columns: 61 cells and 123 compulsory line-digits.
pub const COVER_PRIMARY: usize = CELLS + COMPULSORY;
/// Secondary columns: 120 optional line-digits and 120 excluded pairs.
pub const COVER_SECONDARY: usize = OPTIONAL + PAIRS;

/// Compulsory (line, digit) columns: `2L - 9` per line of length `L`.
const COMPULSORY: usize = 123;
/// Optional (line, digit) columns: `2 (9 - L)` per line.
const OPTIONAL: usize = 120;
/// Excluded-pair columns: `k (k + 1) / 2` per line, `k = 9 - L`.
const PAIRS: usize = 120;
const COLUMNS: usize = COVER_PRIMARY + COVER_SECONDARY;

/// What a column of the matrix stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoverColumn {
    /// Primary: the cell holds exactly one digit.
    Cell(usize),
    /// The digit is placed once in the line: exactly once (primary) when it
    /// is compulsory for the line's length, at most once (secondary)
    /// otherwise.
    Digit {
        /// The line.
        line: Line,
        /// The digit, 1-9.
        digit: u8,
        /// Whether the column is primary.
        compulsory: bool,
    },
    /// Secondary: at most one of `low` and `high` is in the line, as they
    /// differ by at least its length.
    Pair {
        /// The line.
        line: Line,
        /// The smaller digit.
        low: u8,
        /// The larger digit.
        high: u8,
    },
}

/// Column numbers, computed at compile time.
struct Layout {
    /// Column of (line, digit); index 0 unused.
    digit: [[u16; 10]; LINES],
    /// Column of (line, low, high) for an excluded pair, else `u16::MAX`.
    pair: [[[u16; 10]; 10]; LINES],
    /// What each column is: (kind, line, a, b) with kind 0 cell (`a` the
    /// cell), 1 digit (`a` the digit, `b` 1 if compulsory), 2 pair.
    columns: [(u8, u8, u8, u8); COLUMNS],
}

/// The length of line `id` (as [`Line::length`], usable in a `const fn`).
const fn line_length(id: usize) -> usize {
    let c = (id % 9) as isize - 4;
    9 - c.unsigned_abs()
}

const fn build_layout() -> Layout {
    let mut layout = Layout {
        digit: [[0; 10]; LINES],
        pair: [[[u16::MAX; 10]; 10]; LINES],
        columns: [(0, 0, 0, 0); COLUMNS],
    };
    let mut next = 0;
    while next < CELLS {
        layout.columns[next] = (0, 0, next as u8, 0);
        next += 1;
    }
    // Compulsory digits (primary), then optional ones (secondary).
    let mut pass = 0;
    while pass < 2 {
        let mut line = 0;
        while line < LINES {
            let len = line_length(line) as u8;
            let mut d = 1u8;
            while d <= 9 {
                let compulsory = d >= 10 - len && d <= len;
                if compulsory == (pass == 0) {
                    layout.digit[line][d as usize] = next as u16;
                    layout.columns[next] = (1, line as u8, d, compulsory as u8);
                    next += 1;
                }
                d += 1;
            }
            line += 1;
        }
        pass += 1;
    }
    let mut line = 0;
    while line < LINES {
        let len = line_length(line) as u8;
        let mut low = 1u8;
        while low <= 9 {
            let mut high = low + len;
            while high <= 9 {
                layout.pair[line][low as usize][high as usize] = next as u16;
                layout.columns[next] = (2, line as u8, low, high);
                next += 1;
                high += 1;
            }
            low += 1;
        }
        line += 1;
    }
    assert!(next == COLUMNS);
    layout
}

static LAYOUT: Layout = build_layout();

/// The matrix row that places `digit` (1-9) in `cell`: `9 * cell + digit - 1`.
#[inline]
pub fn cover_row(cell: usize, digit: u8) -> usize {
    cell * 9 + usize::from(digit) - 1
}

/// The (cell, digit) that matrix row `row` places.
#[inline]
pub fn placement(row: usize) -> (usize, u8) {
    (row / 9, (row % 9) as u8 + 1)
}

/// What column `column` of [`exact_cover`]'s matrix stands for (`None` past
/// the last column). Columns are: the 61 cells, the compulsory line-digits
/// (by line, then digit), then the secondary columns: optional line-digits,
/// then excluded pairs.
pub fn cover_column(column: usize) -> Option<CoverColumn> {
    let &(kind, line, a, b) = LAYOUT.columns.get(column)?;
    let line_of = || Line::from_id(usize::from(line)).expect("a valid line id");
    Some(match kind {
        0 => CoverColumn::Cell(usize::from(a)),
        1 => CoverColumn::Digit {
            line: line_of(),
            digit: a,
            compulsory: b == 1,
        },
        _ => CoverColumn::Pair {
            line: line_of(),
            low: a,
            high: b,
        },
    })
}

/// The exact-cover matrix of an empty Hanidoku board: [`COVER_ROWS`] rows
/// (row [`cover_row`]`(cell, digit)`), [`COVER_PRIMARY`] primary and
/// [`COVER_SECONDARY`] secondary columns ([`cover_column`]). A row covers
/// its cell, then for each of the cell's three lines its digit's column and
/// the excluded pairs it belongs to. Build it once; a puzzle's clues are
/// preselected rows.
pub fn exact_cover() -> Problem {
    let mut p = Problem::new(COVER_PRIMARY, COVER_SECONDARY);
    let mut columns = Vec::with_capacity(32);
    for cell in 0..CELLS {
        for digit in 1..=9u8 {
            columns.clear();
            columns.push(cell);
            for line in lines_of(cell) {
                let id = line.id();
                columns.push(usize::from(LAYOUT.digit[id][usize::from(digit)]));
                for other in 1..=9u8 {
                    let (low, high) = (digit.min(other), digit.max(other));
                    let pair = LAYOUT.pair[id][usize::from(low)][usize::from(high)];
                    if pair != u16::MAX {
                        columns.push(usize::from(pair));
                    }
                }
            }
            let row = p
                .add_row(&columns)
                .expect("the Hanidoku matrix is well formed");
            debug_assert_eq!(row, cover_row(cell, digit));
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hanidoku::{lines, Direction};

    #[test]
    fn column_counts_match_the_docs() {
        let p = exact_cover();
        assert_eq!(p.rows(), 549);
        assert_eq!((p.primary(), p.secondary()), (184, 240));
        let mut kinds = [0usize; 4]; // cell, compulsory, optional, pair
        for c in 0..p.columns() {
            let k = match cover_column(c).unwrap() {
                CoverColumn::Cell(_) => 0,
                CoverColumn::Digit {
                    compulsory: true, ..
                } => 1,
                CoverColumn::Digit { .. } => 2,
                CoverColumn::Pair { .. } => 3,
            };
            assert_eq!(k <= 1, c < COVER_PRIMARY, "column {c}");
            kinds[k] += 1;
        }
        assert_eq!(kinds, [61, 123, 120, 120]);
        assert_eq!(cover_column(p.columns()), None);
        for line in lines() {
            assert_eq!(line_length(line.id()), line.length());
        }
    }

    #[test]
    fn rows_cover_what_they_should() {
        let p = exact_cover();
        for cell in [0, 4, 30, 60] {
            for digit in 1..=9 {
                let row = cover_row(cell, digit);
                assert_eq!(placement(row), (cell, digit));
                let cols: Vec<CoverColumn> = p.row(row).map(|c| cover_column(c).unwrap()).collect();
                assert_eq!(cols[0], CoverColumn::Cell(cell));
                let digits = cols
                    .iter()
                    .filter(|c| matches!(c, CoverColumn::Digit { digit: d, .. } if *d == digit))
                    .count();
                assert_eq!(digits, 3, "one line-digit column per line");
                for c in &cols {
                    if let CoverColumn::Pair { line, low, high } = *c {
                        assert!(low == digit || high == digit);
                        assert!(usize::from(high - low) >= line.length());
                        assert!(line.cells().contains(&(cell as u8)));
                    }
                }
            }
        }
        // The middle of the board: every line has 9 cells, no pair at all.
        assert_eq!(p.row(cover_row(30, 5)).count(), 4);
        // Cell 0: a row and a down-left diagonal of 5, a down-right one of 9.
        // Digit 1 is excluded with 6..=9 in a line of 5: 4 + 4 pairs.
        assert_eq!(p.row(cover_row(0, 1)).count(), 1 + 3 + 8);
    }

    /// The constraints the matrix puts on one line, checked against the
    /// rule itself for every filling of a line of 5 and of 6 cells: the
    /// rows of a filling cover no column twice and each of the line's
    /// compulsory columns once exactly when the digits are distinct and
    /// consecutive.
    #[test]
    fn a_line_passes_the_matrix_exactly_when_it_is_consecutive() {
        let p = exact_cover();
        for (line, len) in [
            (Line::new(Direction::Row, 0).unwrap(), 5),
            (Line::new(Direction::DownLeft, 7).unwrap(), 6),
        ] {
            assert_eq!(line.length(), len);
            // The line's own compulsory columns: primary line-digit columns.
            let own: Vec<usize> = (CELLS..COVER_PRIMARY)
                .filter(|&c| matches!(cover_column(c), Some(CoverColumn::Digit { line: l, .. }) if l == line))
                .collect();
            assert_eq!(own.len(), 2 * len - 9);
            let cells = line.cells();
            let mut digits = vec![1u8; len];
            let mut passing = 0;
            loop {
                let mut times = vec![0u8; p.columns()];
                for (&cell, &d) in cells.iter().zip(&digits) {
                    for c in p.row(cover_row(usize::from(cell), d)) {
                        times[c] += 1;
                    }
                }
                let matrix_ok = times.iter().all(|&t| t <= 1) && own.iter().all(|&c| times[c] == 1);
                let mut sorted = digits.clone();
                sorted.sort_unstable();
                let rule_ok = sorted.windows(2).all(|w| w[1] == w[0] + 1);
                assert_eq!(matrix_ok, rule_ok, "{line}: {digits:?}");
                passing += usize::from(rule_ok);
                // Next filling, like an odometer.
                let mut i = 0;
                while i < len && digits[i] == 9 {
                    digits[i] = 1;
                    i += 1;
                }
                if i == len {
                    break;
                }
                digits[i] += 1;
            }
            // (10 - L) windows, L! orders each.
            let factorial: usize = (1..=len).product();
            assert_eq!(passing, (10 - len) * factorial);
        }
    }
}
