//! The textbook baseline: plain depth-first backtracking.
//!
//! Empty cells are filled in reading order; each takes the symbols `1..=n`
//! in order, and a symbol is accepted when scanning the cell's row, column
//! and box finds no copy of it. There are no candidate sets and no cell
//! choice heuristic: this is the solver the others are measured against.
//!
//! The search is iterative (no recursion limit, grids up to 128x128). The
//! working grid and the list of empty cells live in the solver and are
//! reused, so after the first puzzle of a given size a solve allocates
//! nothing.

use super::{Budget, Meter, Outcome, Solver, SolverInfo};
use crate::sudoku::{BoxShape, Grid};

/// Node budget the harness gives `naive` unless told otherwise: plain
/// backtracking takes minutes on some hard puzzles and hours over the
/// 17-clue list; 100,000 nodes is a few milliseconds of it (measured:
/// 1,000,000 nodes take about 50 ms here), which bounds a default run of
/// `naive` on the 49,158 17-clue puzzles to minutes. Puzzles it cannot
/// solve within that are reported over budget, apart from the timings.
pub const DEFAULT_BUDGET: u64 = 100_000;

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "naive",
    description:
        "plain backtracking: cells in reading order, symbols in order, row/column/box scans",
    make: || Box::new(NaiveSolver::new()),
    default_budget: Budget::nodes(DEFAULT_BUDGET).with_time(Budget::SAFETY_TIME),
};

/// An empty cell and where its units start, computed once per puzzle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Slot {
    /// Index of the cell in reading order.
    cell: u16,
    /// Index of the first cell of its row.
    row_start: u16,
    /// Its column.
    col: u16,
    /// Index of the top-left cell of its box.
    box_start: u16,
}

/// The plain backtracking Sudoku solver.
#[derive(Debug, Clone, Default)]
pub struct NaiveSolver {
    /// The grid being filled.
    grid: Vec<u8>,
    /// The empty cells of the puzzle, in reading order.
    slots: Vec<Slot>,
    /// `second[k]`: the current visit of `slots[k]` has gone on to a second
    /// symbol (counted once as a guess).
    second: Vec<bool>,
    /// Scratch for the up-front clue check: one flag per (unit, symbol).
    seen: Vec<bool>,
}

impl NaiveSolver {
    /// A solver with no working memory yet.
    pub fn new() -> Self {
        NaiveSolver::default()
    }

    /// True when no row, column or box of `cells` repeats a symbol.
    fn clues_consistent(&mut self, shape: BoxShape, cells: &[u8]) -> bool {
        let n = shape.side();
        self.seen.clear();
        self.seen.resize(3 * n * n, false);
        for (cell, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (row, col) = (cell / n, cell % n);
            let s = v as usize - 1;
            let keys = [
                row * n + s,
                n * n + col * n + s,
                2 * n * n + shape.box_of(row, col) * n + s,
            ];
            for key in keys {
                if std::mem::replace(&mut self.seen[key], true) {
                    return false;
                }
            }
        }
        true
    }

    /// True when `symbol` appears nowhere in the row, column or box of
    /// `slot` (the slot's own cell is blank while this is asked).
    #[inline]
    fn fits(grid: &[u8], shape: BoxShape, slot: Slot, symbol: u8) -> bool {
        let n = shape.side();
        let row = &grid[slot.row_start as usize..][..n];
        if row.contains(&symbol) {
            return false;
        }
        let col = slot.col as usize;
        if grid[col..].iter().step_by(n).any(|&v| v == symbol) {
            return false;
        }
        let (r, c) = (shape.box_rows(), shape.box_cols());
        let mut start = slot.box_start as usize;
        for _ in 0..r {
            if grid[start..][..c].contains(&symbol) {
                return false;
            }
            start += n;
        }
        true
    }
}

impl Solver for NaiveSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        let shape = puzzle.shape();
        let n = shape.side();
        let mut out = Outcome::default();
        if limit == 0 || !self.clues_consistent(shape, puzzle.cells()) {
            return out;
        }
        let mut meter = Meter::start(budget);
        // Counted here, not in `out`: a plain integer in the hot loop.
        let mut nodes = 0u64;

        self.grid.clear();
        self.grid.extend_from_slice(puzzle.cells());
        self.slots.clear();
        for (cell, _) in puzzle.cells().iter().enumerate().filter(|(_, &v)| v == 0) {
            let (row, col) = (cell / n, cell % n);
            let box_row = row - row % shape.box_rows();
            let box_col = col - col % shape.box_cols();
            // Cells number at most 128 * 128, so every index fits in u16.
            self.slots.push(Slot {
                cell: cell as u16,
                row_start: (row * n) as u16,
                col: col as u16,
                box_start: (box_row * n + box_col) as u16,
            });
        }
        self.second.clear();
        self.second.resize(self.slots.len(), false);

        let grid = &mut self.grid[..];
        let slots = &self.slots[..];
        let second = &mut self.second[..];
        let top = n as u8;
        // Invariant: slots[..k] hold a symbol, slots[k..] are blank, except
        // that on entry to a level the slot may hold the symbol last tried.
        let mut k = 0usize;
        loop {
            if k == slots.len() {
                out.solutions += 1;
                if out.solutions == 1 {
                    solution.reset(shape);
                    solution.cells_mut().copy_from_slice(grid);
                }
                if out.solutions >= limit || k == 0 {
                    break;
                }
                k -= 1;
                continue;
            }
            let slot = slots[k];
            let cell = slot.cell as usize;
            let previous = grid[cell];
            if previous == 0 {
                second[k] = false;
            }
            grid[cell] = 0;
            let mut placed = false;
            let mut stop = false;
            for symbol in previous + 1..=top {
                if Self::fits(grid, shape, slot, symbol) {
                    if meter.exhausted(nodes) {
                        out.budget_exceeded = true;
                        stop = true;
                        break;
                    }
                    nodes += 1;
                    if previous != 0 && !second[k] {
                        second[k] = true;
                        out.guesses += 1;
                    }
                    grid[cell] = symbol;
                    placed = true;
                    break;
                }
            }
            if stop {
                break;
            }
            if placed {
                k += 1;
            } else if k == 0 {
                break;
            } else {
                k -= 1;
            }
        }
        out.nodes = Some(nodes);
        out
    }
}
