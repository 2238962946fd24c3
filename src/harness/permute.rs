//! Seeded randomness: a small deterministic generator, and random symmetry
//! images of a puzzle (as tdoku's benchmark uses to remove dataset bias).

use crate::sudoku::Grid;

/// SplitMix64: a tiny, fast, seedable generator. Not cryptographic; used for
/// reproducible shuffles and symmetry images.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// A generator for one item (a puzzle's byte offset, a chunk index) of a
    /// run seeded with `seed`: independent streams for different items.
    pub fn for_item(seed: u64, item: u64) -> Self {
        let mut g = SplitMix(seed ^ item.wrapping_mul(0xA24B_AED4_963E_E407));
        g.next_u64();
        g
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift (bias below 2^-50
    /// for the sizes used here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Writes into `dst` a random symmetry image of `src`: symbols relabelled,
/// bands and stacks permuted, rows within bands and columns within stacks
/// permuted, and (for square boxes) transposed half of the time. The image
/// has exactly as many solutions as `src`, and the same difficulty for any
/// solver that is not biased by position or symbol. Allocates nothing when
/// `dst` already has the size of `src`.
pub fn symmetry_image(src: &Grid, dst: &mut Grid, rng: &mut SplitMix) {
    let shape = src.shape();
    let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.side());
    let mut symbols = [0u8; 129];
    let mut rows = [0u8; 128];
    let mut cols = [0u8; 128];
    for (v, s) in symbols[..=n].iter_mut().enumerate() {
        *s = v as u8;
    }
    rng.shuffle(&mut symbols[1..=n]);
    // Rows: n / r bands of r rows; columns: n / c stacks of c columns.
    permute_groups(&mut rows[..n], r, rng);
    permute_groups(&mut cols[..n], c, rng);
    let transpose = r == c && rng.next_u64() & 1 == 1;
    dst.reset(shape);
    let cells = src.cells();
    let out = dst.cells_mut();
    for (row, &from_row) in rows[..n].iter().enumerate() {
        for (col, &from_col) in cols[..n].iter().enumerate() {
            let from = from_row as usize * n + from_col as usize;
            let to = if transpose {
                col * n + row
            } else {
                row * n + col
            };
            out[to] = symbols[cells[from] as usize];
        }
    }
}

/// Fills `map` (length a multiple of `group`) with a permutation that keeps
/// groups of `group` consecutive indices together: groups are permuted, and
/// indices within each group.
fn permute_groups(map: &mut [u8], group: usize, rng: &mut SplitMix) {
    let groups = map.len() / group;
    let mut order = [0u8; 128];
    for (i, o) in order[..groups].iter_mut().enumerate() {
        *o = i as u8;
    }
    rng.shuffle(&mut order[..groups]);
    for (g, &from) in order[..groups].iter().enumerate() {
        let slot = &mut map[g * group..(g + 1) * group];
        for (i, s) in slot.iter_mut().enumerate() {
            *s = (from as usize * group + i) as u8;
        }
        rng.shuffle(slot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{check, BoxShape, Verdict};

    fn pattern(shape: BoxShape) -> Grid {
        let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.side());
        let mut g = Grid::empty(shape);
        for row in 0..n {
            for col in 0..n {
                g.set(row, col, ((c * (row % r) + row / r + col) % n) as u8 + 1);
            }
        }
        g
    }

    #[test]
    fn images_of_solved_grids_are_solved_and_vary() {
        for (r, c) in [(3, 3), (2, 3), (4, 4), (3, 4)] {
            let g = pattern(BoxShape::new(r, c).unwrap());
            let mut out = Grid::empty(g.shape());
            let mut seen = std::collections::HashSet::new();
            for seed in 0..20 {
                symmetry_image(&g, &mut out, &mut SplitMix::new(seed));
                assert_eq!(check(&out), Verdict::Complete, "{r}x{c} seed {seed}");
                seen.insert(out.clone());
            }
            assert!(seen.len() > 15, "images differ");
        }
    }

    #[test]
    fn image_keeps_clue_count_and_is_deterministic() {
        let mut g = pattern(BoxShape::NINE);
        for i in (0..81).step_by(3) {
            g.cells_mut()[i] = 0;
        }
        let (mut a, mut b) = (Grid::empty(g.shape()), Grid::empty(g.shape()));
        symmetry_image(&g, &mut a, &mut SplitMix::for_item(7, 1234));
        symmetry_image(&g, &mut b, &mut SplitMix::for_item(7, 1234));
        assert_eq!(a, b);
        assert_eq!(a.clues(), g.clues());
    }

    #[test]
    fn below_and_shuffle_stay_in_range() {
        let mut rng = SplitMix::new(1);
        let mut v: Vec<usize> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }
}
