//! Random full grids: the randomised backtracking fill that the generator
//! starts every puzzle from, and that tests use for random puzzles.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::{BoxShape, Grid, ShapeError};
use crate::rng::shuffle;

/// The largest side the fill handles (a bit per symbol in a `u64`).
pub const MAX_FILL_SIDE: usize = 64;

/// A random full grid of `shape`: the generator's first step alone (a
/// randomised backtracking fill, see the module docs), seeded with `seed`.
///
/// Unlike relabelling and permuting the rows and columns of one pattern
/// grid, which reaches only that grid's symmetry class, the fill can reach
/// any valid grid. Tests use it for random puzzles.
///
/// ```
/// use dlxbench::sudoku::random_full_grid;
/// use dlxbench::sudoku::{self, BoxShape, Verdict};
///
/// let grid = random_full_grid(BoxShape::NINE, 42).unwrap();
/// assert_eq!(sudoku::check(&grid), Verdict::Complete);
/// assert_ne!(grid, random_full_grid(BoxShape::NINE, 43).unwrap());
/// ```
pub fn random_full_grid(shape: BoxShape, seed: u64) -> Result<Grid, ShapeError> {
    if shape.side() > MAX_FILL_SIDE {
        return Err(ShapeError::TooLarge { side: shape.side() });
    }
    let mut grid = Grid::empty(shape);
    Filler::new(shape).fill(&mut ChaCha8Rng::seed_from_u64(seed), &mut grid);
    Ok(grid)
}

/// The randomised backtracking fill, with its working memory.
#[derive(Debug, Clone)]
pub struct Filler {
    shape: BoxShape,
    cells: Vec<u8>,
    rows: Vec<u64>,
    cols: Vec<u64>,
    boxes: Vec<u64>,
    /// Box index of every cell.
    box_of: Vec<usize>,
    nodes: u64,
    max_nodes: u64,
}

impl Filler {
    /// A fill for grids of `shape` (side at most 64).
    pub fn new(shape: BoxShape) -> Self {
        let n = shape.side();
        let box_of = (0..n * n).map(|i| shape.box_of(i / n, i % n)).collect();
        Filler {
            shape,
            cells: vec![0; n * n],
            rows: vec![0; n],
            cols: vec![0; n],
            boxes: vec![0; n],
            box_of,
            nodes: 0,
            // Generous: a fill that goes well needs one node per cell.
            max_nodes: 50 * (n * n) as u64,
        }
    }

    /// Fills a random full grid into `out`; returns the number of restarts.
    pub fn fill(&mut self, rng: &mut ChaCha8Rng, out: &mut Grid) -> u32 {
        let mut restarts = 0;
        loop {
            self.cells.fill(0);
            self.rows.fill(0);
            self.cols.fill(0);
            self.boxes.fill(0);
            self.nodes = 0;
            if self.search(rng) {
                break;
            }
            restarts += 1;
        }
        out.reset(self.shape);
        out.cells_mut().copy_from_slice(&self.cells);
        restarts
    }

    fn candidates(&self, cell: usize, full: u64) -> u64 {
        let n = self.shape.side();
        full & !(self.rows[cell / n] | self.cols[cell % n] | self.boxes[self.box_of[cell]])
    }

    /// Fills the remaining blanks; false when stuck or out of nodes.
    fn search(&mut self, rng: &mut ChaCha8Rng) -> bool {
        let n = self.shape.side();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        // Minimum remaining values: the first blank with the fewest candidates.
        let mut best = None;
        let mut best_count = u32::MAX;
        for cell in 0..self.cells.len() {
            if self.cells[cell] == 0 {
                let count = self.candidates(cell, full).count_ones();
                if count < best_count {
                    best = Some(cell);
                    best_count = count;
                    if count <= 1 {
                        break;
                    }
                }
            }
        }
        let Some(cell) = best else {
            return true; // no blank left
        };
        let mut set = self.candidates(cell, full);
        let mut order = [0u8; MAX_FILL_SIDE];
        let mut len = 0;
        while set != 0 {
            order[len] = set.trailing_zeros() as u8;
            len += 1;
            set &= set - 1;
        }
        shuffle(rng, &mut order[..len]);
        let (r, c, b) = (cell / n, cell % n, self.box_of[cell]);
        for &d in &order[..len] {
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                return false;
            }
            let bit = 1u64 << d;
            self.cells[cell] = d + 1;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            if self.search(rng) {
                return true;
            }
            self.rows[r] &= !bit;
            self.cols[c] &= !bit;
            self.boxes[b] &= !bit;
            self.cells[cell] = 0;
            if self.nodes > self.max_nodes {
                return false;
            }
        }
        false
    }
}
