//! Backtracking with candidate bitmasks and minimum-remaining-values cell
//! choice (the "DFS with heuristic" baseline).
//!
//! Every row, column and box keeps a bitmask of the symbols it holds; the
//! candidates of an empty cell are the symbols none of its three units
//! holds. At each step the solver scans the open cells, picks the one with
//! the fewest candidates (stopping early at a cell with none or one), and
//! tries its candidates lowest symbol first.
//!
//! The core is generic over the mask width ([`u32`], [`u64`], [`u128`]) and
//! the side picks one once per solve, so a 9x9 grid runs on `u32` and every
//! side up to [`MAX_SIDE`](crate::sudoku::MAX_SIDE) fits. The open cells are
//! kept in a compact array: choosing a cell swap-removes it, and undoing the
//! choice just grows the array back by one. The search is iterative over an
//! explicit stack; all working memory lives in the solver and is reused, so
//! after the first puzzle of a given size a solve allocates nothing.

use std::ops::{BitAnd, BitOr, BitOrAssign, BitXorAssign, Not};

use super::{Budget, Meter, Outcome, Solver, SolverInfo};
use crate::sudoku::Grid;

/// Registry entry.
pub const INFO: SolverInfo = SolverInfo {
    name: "heuristic",
    description:
        "backtracking with row/column/box bitmasks and minimum-remaining-values cell choice",
    make: || Box::new(HeuristicSolver::new()),
    default_budget: Budget::SEARCH,
};

/// A set of symbols as a bitmask: bit `s - 1` stands for symbol `s`
/// (shared with [`singles`](super::singles)).
pub(super) trait Mask:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXorAssign
    + Not<Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// Width in bits: the largest side this mask serves.
    const BITS: u32;
    /// The set of symbols `1..=n`.
    fn full(n: usize) -> Self;
    /// `{s}` for symbol `s` in `1..=BITS`.
    fn symbol(s: u8) -> Self;
    /// Number of symbols in the set.
    fn count(self) -> u32;
    /// The lowest symbol of a non-empty set.
    fn lowest(self) -> u8;
    /// The set without its lowest symbol.
    fn without_lowest(self) -> Self;
}

macro_rules! impl_mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn full(n: usize) -> Self {
                if n as u32 >= Self::BITS {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline(always)]
            fn symbol(s: u8) -> Self {
                1 << (s - 1)
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u8 {
                self.trailing_zeros() as u8 + 1
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

impl_mask!(u16);
impl_mask!(u32);
impl_mask!(u64);
impl_mask!(u128);

/// An open cell and its three units. Unit indices are `u8` and the mask
/// tables have 256 entries, so indexing them needs no bounds check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Slot {
    cell: u16,
    row: u8,
    col: u8,
    bx: u8,
}

/// One level of the search: the cell chosen, its candidates not yet tried,
/// and the symbol placed in it now.
#[derive(Debug, Clone, Copy)]
struct Frame<M> {
    slot: Slot,
    untried: M,
    placed: M,
}

/// The mask tables and the stack for one mask width.
#[derive(Debug, Clone)]
struct Core<M> {
    rows: [M; 256],
    cols: [M; 256],
    boxes: [M; 256],
    stack: Vec<Frame<M>>,
}

impl<M: Mask> Default for Core<M> {
    fn default() -> Self {
        Core {
            rows: [M::ZERO; 256],
            cols: [M::ZERO; 256],
            boxes: [M::ZERO; 256],
            stack: Vec::new(),
        }
    }
}

impl<M: Mask> Core<M> {
    /// Runs the whole solve with `slots` as the scratch list of open cells,
    /// using the CPU's population-count instruction when `popcnt` says it
    /// has one.
    fn solve(
        &mut self,
        popcnt: bool,
        slots: &mut Vec<Slot>,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if popcnt {
            // SAFETY: `popcnt` is true only when the CPU was found to
            // support POPCNT (see `HeuristicSolver::new`).
            return unsafe { self.search_popcnt(slots, puzzle, limit, budget, solution) };
        }
        let _ = popcnt;
        self.search(slots, puzzle, limit, budget, solution)
    }

    /// [`Core::search`] compiled with POPCNT: the minimum-remaining-values
    /// scan counts candidates of every open cell at every node, and the
    /// baseline x86-64 target has no population-count instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn search_popcnt(
        &mut self,
        slots: &mut Vec<Slot>,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        self.search(slots, puzzle, limit, budget, solution)
    }

    /// The search itself.
    #[inline(always)]
    fn search(
        &mut self,
        slots: &mut Vec<Slot>,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        let mut out = Outcome::default();
        if !self.load(slots, puzzle) {
            return out;
        }
        let mut meter = Meter::start(budget);
        // Counted here, not in `out`: a plain integer in the hot loop.
        let mut nodes = 0u64;
        let n = puzzle.side();
        debug_assert!(n <= M::BITS as usize, "mask too narrow for side {n}");
        let full = M::full(n);
        let Core {
            rows,
            cols,
            boxes,
            stack,
        } = self;
        stack.clear();
        stack.reserve(slots.len());
        let slots = &mut slots[..];
        // slots[..open] are the open cells; slots[open..] are the cells on
        // the stack, deepest first.
        let mut open = slots.len();

        'search: loop {
            // Descend: pick the open cell with the fewest candidates.
            let mut backtrack = true;
            if open == 0 {
                out.solutions += 1;
                if out.solutions == 1 {
                    write_solution(puzzle, stack, solution);
                }
                if out.solutions >= limit {
                    break;
                }
            } else {
                let mut best = 0;
                let mut best_count = u32::MAX;
                let mut best_set = M::ZERO;
                for (i, s) in slots[..open].iter().enumerate() {
                    let used = rows[s.row as usize] | cols[s.col as usize] | boxes[s.bx as usize];
                    let set = !used & full;
                    let count = set.count();
                    if count < best_count {
                        best = i;
                        best_count = count;
                        best_set = set;
                        if count <= 1 {
                            break;
                        }
                    }
                }
                if best_count > 0 {
                    out.guesses += u64::from(best_count > 1);
                    open -= 1;
                    slots.swap(best, open);
                    stack.push(Frame {
                        slot: slots[open],
                        untried: best_set,
                        placed: M::ZERO,
                    });
                    backtrack = false;
                }
            }
            if backtrack {
                // Unplace the deepest symbol; drop exhausted levels.
                loop {
                    let Some(top) = stack.last_mut() else {
                        break 'search;
                    };
                    let s = top.slot;
                    rows[s.row as usize] ^= top.placed;
                    cols[s.col as usize] ^= top.placed;
                    boxes[s.bx as usize] ^= top.placed;
                    top.placed = M::ZERO;
                    if top.untried != M::ZERO {
                        break;
                    }
                    stack.pop();
                    open += 1;
                }
            }
            // Place the next candidate of the deepest level.
            let top = stack.last_mut().expect("a level is open here");
            if meter.exhausted(nodes) {
                out.budget_exceeded = true;
                break;
            }
            nodes += 1;
            let bit = M::symbol(top.untried.lowest());
            top.untried = top.untried.without_lowest();
            top.placed = bit;
            let s = top.slot;
            rows[s.row as usize] |= bit;
            cols[s.col as usize] |= bit;
            boxes[s.bx as usize] |= bit;
        }
        out.nodes = Some(nodes);
        out
    }

    /// Sets the masks from the clues and lists the open cells. False when
    /// two clues clash.
    fn load(&mut self, slots: &mut Vec<Slot>, puzzle: &Grid) -> bool {
        let shape = puzzle.shape();
        let n = shape.side();
        self.rows[..n].fill(M::ZERO);
        self.cols[..n].fill(M::ZERO);
        self.boxes[..n].fill(M::ZERO);
        slots.clear();
        let mut cell = 0;
        for row in 0..n {
            for col in 0..n {
                let bx = shape.box_of(row, col);
                // Sides are at most 128: units fit in u8, cells in u16.
                let slot = Slot {
                    cell: cell as u16,
                    row: row as u8,
                    col: col as u8,
                    bx: bx as u8,
                };
                let v = puzzle.cells()[cell];
                if v == 0 {
                    slots.push(slot);
                } else {
                    let bit = M::symbol(v);
                    let used = self.rows[row] | self.cols[col] | self.boxes[bx];
                    if used & bit != M::ZERO {
                        return false;
                    }
                    self.rows[row] |= bit;
                    self.cols[col] |= bit;
                    self.boxes[bx] |= bit;
                }
                cell += 1;
            }
        }
        true
    }
}

/// Writes the clues plus the placements on the stack into `solution`.
#[cold]
fn write_solution<M: Mask>(puzzle: &Grid, stack: &[Frame<M>], solution: &mut Grid) {
    solution.copy_from(puzzle);
    let cells = solution.cells_mut();
    for frame in stack {
        cells[frame.slot.cell as usize] = frame.placed.lowest();
    }
}

/// The bitmask + minimum-remaining-values backtracking solver.
#[derive(Debug, Clone)]
pub struct HeuristicSolver {
    /// Open cells, then the cells on the stack (shared by all widths).
    slots: Vec<Slot>,
    narrow: Core<u32>,
    medium: Core<u64>,
    wide: Core<u128>,
    /// The CPU has a population-count instruction.
    popcnt: bool,
}

impl HeuristicSolver {
    /// A solver with no working memory yet.
    pub fn new() -> Self {
        #[cfg(target_arch = "x86_64")]
        let popcnt = std::arch::is_x86_feature_detected!("popcnt");
        #[cfg(not(target_arch = "x86_64"))]
        let popcnt = false;
        HeuristicSolver {
            slots: Vec::new(),
            narrow: Core::default(),
            medium: Core::default(),
            wide: Core::default(),
            popcnt,
        }
    }
}

#[cfg(test)]
impl HeuristicSolver {
    /// Solves with a chosen mask width (32, 64 or 128 bits, at least the
    /// side) and with or without POPCNT, so tests can compare the variants
    /// the side and the CPU would not pick.
    pub(super) fn solve_with(
        &mut self,
        width: u32,
        popcnt: bool,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        assert!(puzzle.side() <= width as usize);
        let popcnt = popcnt && self.popcnt;
        let slots = &mut self.slots;
        match width {
            32 => self
                .narrow
                .solve(popcnt, slots, puzzle, limit, budget, solution),
            64 => self
                .medium
                .solve(popcnt, slots, puzzle, limit, budget, solution),
            _ => self
                .wide
                .solve(popcnt, slots, puzzle, limit, budget, solution),
        }
    }
}

impl Solver for HeuristicSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        if limit == 0 {
            return Outcome::default();
        }
        let n = puzzle.side();
        let (slots, popcnt) = (&mut self.slots, self.popcnt);
        if n <= 32 {
            self.narrow
                .solve(popcnt, slots, puzzle, limit, budget, solution)
        } else if n <= 64 {
            self.medium
                .solve(popcnt, slots, puzzle, limit, budget, solution)
        } else {
            self.wide
                .solve(popcnt, slots, puzzle, limit, budget, solution)
        }
    }
}

impl Default for HeuristicSolver {
    fn default() -> Self {
        HeuristicSolver::new()
    }
}
