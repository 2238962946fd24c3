//! The exact-cover encoding of Sudoku: a grid shape's matrix, and the
//! mapping between its rows and (cell, symbol) placements.

use super::BoxShape;
use crate::exact_cover::Problem;

impl BoxShape {
    /// The exact-cover problem of an empty grid of this shape: row
    /// `cell * n + (symbol - 1)` places `symbol` in `cell`; its columns are
    /// cell, row-symbol, column-symbol and box-symbol, in that order, so
    /// there are `n^3` rows and `4 n^2` columns.
    pub fn exact_cover(self) -> Problem {
        let n = self.side();
        let n2 = n * n;
        let mut p = Problem::new(4 * n2, 0);
        p.reserve(n2 * n, 4 * n2 * n);
        for row in 0..n {
            for col in 0..n {
                let cell = row * n + col;
                let b = self.box_of(row, col);
                for d in 0..n {
                    p.add_row(&[
                        cell,
                        n2 + row * n + d,
                        2 * n2 + col * n + d,
                        3 * n2 + b * n + d,
                    ])
                    .expect("the Sudoku matrix is well formed");
                }
            }
        }
        p
    }

    /// The exact-cover row that places `symbol` (`1..=n`) in `cell`.
    #[inline]
    pub fn cover_row(self, cell: usize, symbol: u8) -> usize {
        cell * self.side() + symbol as usize - 1
    }

    /// The (cell, symbol) placed by exact-cover row `row`.
    #[inline]
    pub fn placement(self, row: usize) -> (usize, u8) {
        (row / self.side(), (row % self.side()) as u8 + 1)
    }
}
