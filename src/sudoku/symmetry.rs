//! Random symmetry images of a Sudoku (as tdoku's benchmark uses to remove
//! dataset bias): the same number of solutions, another position.

use super::Grid;
use crate::rng::SplitMix;

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
    use crate::rng::SplitMix;
    use crate::sudoku::{check, BoxShape, Verdict};

    fn pattern(shape: BoxShape) -> Grid {
        Grid::shifted_pattern(shape)
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
}
