//! The symmetries of Hanidoku: the hexagon's 12 rotations and reflections,
//! each with or without the digit reversal `d -> 10 - d`.

use super::{cell_at_coords, coords, Board, CELLS};
use crate::rng::SplitMix;

/// Number of symmetries: 12 of the hexagon, times 2 for the digit reversal.
pub const SYMMETRIES: usize = 24;

/// One symmetry of the board, numbered 0-23.
///
/// In cube coordinates a symmetry of the hexagon permutes `(x, y, z)` and
/// possibly negates all three (6 x 2 = 12: the six rotations and six
/// reflections). Lines are the sets of cells with one coordinate fixed, so
/// they map onto lines of the same length. Reversing the digits maps the
/// window `a..=a+L-1` onto `10-a-L+1..=10-a`, another window. So a
/// symmetry maps every solution of a puzzle onto a solution of its image,
/// one to one: the image has as many solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

/// The six orders of the three coordinates.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
];

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// Symmetry number `index` (0-23), if any.
    pub fn new(index: usize) -> Option<Symmetry> {
        (index < SYMMETRIES).then_some(Symmetry(index as u8))
    }

    /// Its number, 0-23.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Whether it reverses the digits.
    pub fn reverses_digits(self) -> bool {
        self.0 >= 12
    }

    /// The cell that `cell` moves to.
    ///
    /// # Panics
    /// If `cell >= CELLS`.
    pub fn map_cell(self, cell: usize) -> usize {
        let geometric = self.0 % 12;
        let order = ORDERS[usize::from(geometric % 6)];
        let sign = if geometric >= 6 { -1 } else { 1 };
        let c = coords(cell);
        let image = [c[order[0]], c[order[1]], c[order[2]]].map(|v| sign * v);
        cell_at_coords(image).expect("a symmetry maps the hexagon onto itself")
    }

    /// The digit that `digit` becomes (blank stays blank).
    pub fn map_digit(self, digit: u8) -> u8 {
        if digit != 0 && self.reverses_digits() {
            10 - digit
        } else {
            digit
        }
    }

    /// Writes the image of `src` into `dst`.
    pub fn apply(self, src: &Board, dst: &mut Board) {
        for cell in 0..CELLS {
            dst.cells[self.map_cell(cell)] = self.map_digit(src.cells[cell]);
        }
    }
}

/// Writes into `dst` the image of `src` by a random one of the 24
/// symmetries (drawn from `rng`). The image has exactly as many solutions
/// as `src`. Allocates nothing.
pub fn symmetry_image(src: &Board, dst: &mut Board, rng: &mut SplitMix) {
    Symmetry(rng.below(SYMMETRIES) as u8).apply(src, dst);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hanidoku::{lines, lines_of};
    use std::collections::HashSet;

    #[test]
    fn symmetries_are_distinct_permutations_that_keep_lines() {
        let mut seen = HashSet::new();
        for s in (0..SYMMETRIES).filter_map(Symmetry::new) {
            let map: Vec<usize> = (0..CELLS).map(|c| s.map_cell(c)).collect();
            let mut sorted = map.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                (0..CELLS).collect::<Vec<_>>(),
                "{s:?} is a permutation"
            );
            if !s.reverses_digits() {
                assert!(seen.insert(map.clone()), "{s:?} is new");
            }
            for line in lines() {
                let image: HashSet<usize> =
                    line.cells().iter().map(|&c| map[usize::from(c)]).collect();
                let target = lines_of(map[usize::from(line.cells()[0])])
                    .into_iter()
                    .find(|l| l.cells().iter().all(|&c| image.contains(&usize::from(c))));
                let target = target.unwrap_or_else(|| panic!("{s:?} breaks {line}"));
                assert_eq!(target.length(), line.length());
            }
        }
        assert_eq!(seen.len(), 12);
        assert_eq!(Symmetry::IDENTITY.map_cell(17), 17);
        assert_eq!(Symmetry::new(24), None);
    }
}
