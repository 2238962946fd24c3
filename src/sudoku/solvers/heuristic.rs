//! Backtracking with candidate bitmasks and minimum-remaining-values cell
//! choice (the "DFS with heuristic" baseline).
//!
//! Every row, column and box keeps a bitmask of the symbols it holds; the
//! candidates of an empty cell are the symbols none of its three units
//! holds. At each step the solver scans the open cells from the front, picks
//! the first one with the fewest candidates (stopping early at a cell with
//! none or one), swaps it to the front of the open cells and tries its
//! candidates lowest symbol first. The swaps are never undone, so the order
//! of the open cells drifts with the search.
//!
//! That is the search of tdoku's basic solver with its
//! minimum-remaining-values flag (`TdokuSolverBasic`, flags 1), cell for
//! cell: the open cells start in reading order, ties go to the first, a cell
//! with no candidates is swapped to the front like any other. On every
//! puzzle of top1465, the forum's hardest and the 17-clue list, our
//! placements after which another candidate was left to try (tdoku's guess
//! count) equal tdoku's guesses (checked with a build that counted so). Our counters: `nodes` are placements; `guesses` are the
//! branch points, cells chosen with two or more candidates (tdoku counts
//! `k - 1` per cell of `k` candidates tried to the end).
//!
//! Two cores run this search. 9x9 grids have their own (`Nine`: the free
//! symbols of all 27 units in one table, a blank cell as four bytes, a
//! fixed stack), the size most benchmarks use; every other side runs on the
//! generic core, with the mask width ([`u32`], [`u64`], [`u128`]) picked
//! once per solve so every side up to [`MAX_SIDE`](crate::sudoku::MAX_SIDE)
//! fits. Both give the same nodes and guesses on 9x9 (tested). With the
//! cell choice turned off the same cores are [`naive`](super::naive).
//!
//! The search is iterative over an explicit stack; all working memory
//! lives in the solver and is reused, so after the first puzzle of a given
//! size a solve allocates nothing. The budget is checked once per node (one
//! compare of the node count with the meter's next checkpoint).

// Duplicates (issue #42): the search functions here take `Solver::solve`'s arguments (puzzle,
// limit, budget, solution) on purpose, as every solver's do; each solver keeps its own hot loop.

use std::ops::{BitAnd, BitOr, BitOrAssign, BitXorAssign, Not};

use crate::solvers::{has_popcnt, popcnt_dispatch, Budget, Meter, Outcome, Solver, SolverInfo};
use crate::sudoku::{BoxShape, Grid};

/// Registry entry.
pub const INFO: SolverInfo<Grid> = SolverInfo {
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
    /// The set without its lowest symbol (the empty set for the empty set).
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
    popcnt_dispatch! {
        /// Runs the whole solve with `slots` as the scratch list of open
        /// cells, using the CPU's population-count instruction when `popcnt`
        /// says it has one (the minimum-remaining-values scan counts the
        /// candidates of every open cell at every node).
        fn solve;

        /// The search itself.
        // Over 100 lines on purpose: the search loop, the solver's hot path,
        // one function the compiler sees whole; split it only with an `ab`
        // run that shows no loss.
        fn search<const MRV: bool>(
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
            // The open cells are slots[depth..]; the others are on the stack,
            // shallowest first. tdoku's order: the chosen cell is swapped to the
            // front of the open ones (a dead one too), the swaps never undone.
            let len = slots.len();
            let mut depth = 0;

            'search: loop {
                // Descend: pick the open cell with the fewest candidates.
                let mut backtrack = true;
                if depth == len {
                    out.solutions += 1;
                    if out.solutions == 1 {
                        write_solution(puzzle, stack, solution);
                    }
                    if out.solutions >= limit {
                        break;
                    }
                } else {
                    let (lo, hi) = (depth, len);
                    let dest = lo;
                    let mut best = lo;
                    let mut best_count = u32::MAX;
                    let mut best_set = M::ZERO;
                    if MRV {
                        for (i, s) in slots[lo..hi].iter().enumerate() {
                            let used =
                                rows[s.row as usize] | cols[s.col as usize] | boxes[s.bx as usize];
                            let set = !used & full;
                            let count = set.count();
                            if count < best_count {
                                best = lo + i;
                                best_count = count;
                                best_set = set;
                                if count <= 1 {
                                    break;
                                }
                            }
                        }
                    } else {
                        // Reading order: the next blank cell, whatever its count.
                        let s = slots[lo];
                        best_set =
                            !(rows[s.row as usize] | cols[s.col as usize] | boxes[s.bx as usize])
                                & full;
                        best_count = best_set.count();
                    }
                    slots.swap(dest, best);
                    if best_count > 0 {
                        out.guesses += u64::from(best_count > 1);
                        stack.push(Frame {
                            slot: slots[dest],
                            untried: best_set,
                            placed: M::ZERO,
                        });
                        depth += 1;
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
                        depth -= 1;
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
    }

    /// Sets the masks from the clues and lists the open cells. False when
    /// two clues clash.
    // Its clue check is the singles solver's `load` on purpose (each on
    // its own masks, on the timed path).
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

/// The 9x9 core: the same search as [`Core`] with `u32` masks, laid out
/// for the one size most benchmarks use. The masks hold each unit's *free*
/// symbols (a cell's candidates are one AND of three), all 27 units sit in
/// one small table, and a blank cell is four bytes: its three unit indices
/// into that table and its cell index. The stack is two fixed arrays.
#[derive(Debug, Clone)]
struct Nine {
    /// Free symbols per unit (bit `s - 1` for symbol `s`): rows at 0..9,
    /// columns at 9..18, boxes at 18..27. 256 entries, so a `u8` index
    /// needs no bounds check (and no masking: each index is one byte load).
    free: [u32; 256],
    /// The blank cells as `[row unit, column unit, box unit, cell]`:
    /// `cells[..depth]` are on the stack in depth order, the rest are open.
    cells: [[u8; 4]; 81],
    /// Number of blank cells.
    len: usize,
    /// Per depth: the candidates not yet tried.
    untried: [u32; 81],
    /// Per depth: the symbol placed now.
    placed: [u32; 81],
}

impl Default for Nine {
    fn default() -> Self {
        Nine {
            free: [0; 256],
            cells: [[0; 4]; 81],
            len: 0,
            untried: [0; 81],
            placed: [0; 81],
        }
    }
}

impl Nine {
    popcnt_dispatch! {
        /// Runs the whole solve, with the CPU's population-count
        /// instruction when `popcnt` says it has one.
        fn solve;

        /// The search: the loop of [`Core::search`] (without places), on this
        /// layout.
        // Over 100 lines on purpose: the search loop, the solver's hot path,
        // one function the compiler sees whole; split it only with an `ab`
        // run that shows no loss.
        fn search<const MRV: bool>(
            &mut self,
            puzzle: &Grid,
            limit: u64,
            budget: Budget,
            solution: &mut Grid,
        ) -> Outcome {
            let mut out = Outcome::default();
            if !self.load(puzzle) {
                return out;
            }
            let mut meter = Meter::start(budget);
            let mut nodes = 0u64;
            let Nine {
                free,
                cells,
                len,
                untried,
                placed,
            } = self;
            let cells = &mut cells[..*len];
            let untried = &mut untried[..cells.len()];
            let placed = &mut placed[..cells.len()];
            let candidates = |free: &[u32; 256], [r, c, b, _]: [u8; 4]| {
                free[r as usize] & free[c as usize] & free[b as usize]
            };
            // cells[..depth] are on the stack; depth == cells.len(): all placed.
            let mut depth = 0;
            let mut guesses = 0u64;
            'search: loop {
                // Descend: choose the next cell; `top` is the level whose next
                // candidate is placed below, `old` the symbol it replaces there.
                let mut next = None;
                if depth == cells.len() {
                    out.solutions += 1;
                    if out.solutions == 1 {
                        write_nine(puzzle, cells, placed, solution);
                    }
                    if out.solutions >= limit {
                        break;
                    }
                } else {
                    let mut set = candidates(free, cells[depth]);
                    if MRV {
                        let mut best = depth;
                        let mut best_count = set.count_ones();
                        if best_count > 1 {
                            for (i, &cell) in cells.iter().enumerate().skip(depth + 1) {
                                let here = candidates(free, cell);
                                let count = here.count_ones();
                                if count < best_count {
                                    best = i;
                                    best_count = count;
                                    set = here;
                                    if count <= 1 {
                                        break;
                                    }
                                }
                            }
                        }
                        // As in `Core::search`: the swap is never undone.
                        cells.swap(depth, best);
                    }
                    if set != 0 {
                        guesses += u64::from(set & (set - 1) != 0);
                        untried[depth] = set;
                        depth += 1;
                        next = Some(0);
                    }
                }
                // Backtrack: unplace exhausted levels up to one with a candidate
                // left; its symbol is swapped for the next one in the same
                // masks update below.
                let old = match next {
                    Some(old) => old,
                    None => loop {
                        if depth == 0 {
                            break 'search;
                        }
                        let top = depth - 1;
                        if untried[top] != 0 {
                            break placed[top];
                        }
                        let [r, c, b, _] = cells[top];
                        let bit = placed[top];
                        free[r as usize] ^= bit;
                        free[c as usize] ^= bit;
                        free[b as usize] ^= bit;
                        depth -= 1;
                    },
                };
                // Place the next candidate of the deepest level.
                let top = depth - 1;
                if meter.exhausted(nodes) {
                    out.budget_exceeded = true;
                    break;
                }
                nodes += 1;
                let set = untried[top];
                let bit = set & set.wrapping_neg();
                untried[top] = set ^ bit;
                placed[top] = bit;
                let [r, c, b, _] = cells[top];
                let change = old ^ bit;
                free[r as usize] ^= change;
                free[c as usize] ^= change;
                free[b as usize] ^= change;
            }
            out.guesses = guesses;
            out.nodes = Some(nodes);
            out
        }
    }

    /// Sets the free masks from the clues and lists the blank cells in
    /// reading order. False when two clues clash.
    fn load(&mut self, puzzle: &Grid) -> bool {
        self.free = [0; 256];
        self.free[..27].fill(0x1ff);
        self.len = 0;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            let (row, col) = (cell / 9, cell % 9);
            let bx = row / 3 * 3 + col / 3;
            let units = [row as u8, 9 + col as u8, 18 + bx as u8, cell as u8];
            if v == 0 {
                self.cells[self.len] = units;
                self.len += 1;
            } else {
                let bit = 1u32 << (v - 1);
                let [r, c, b, _] = units.map(usize::from);
                if self.free[r] & self.free[c] & self.free[b] & bit == 0 {
                    return false;
                }
                self.free[r] ^= bit;
                self.free[c] ^= bit;
                self.free[b] ^= bit;
            }
        }
        true
    }
}

/// Writes the clues plus the placements of the 9x9 core into `solution`.
#[cold]
fn write_nine(puzzle: &Grid, cells: &[[u8; 4]], placed: &[u32], solution: &mut Grid) {
    solution.copy_from(puzzle);
    let out = solution.cells_mut();
    for (&[_, _, _, cell], &bit) in cells.iter().zip(placed) {
        out[cell as usize] = bit.trailing_zeros() as u8 + 1;
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

/// The bitmask + minimum-remaining-values backtracking solver; with the
/// cell choice turned off, also the engine of [`naive`](super::naive).
#[derive(Debug, Clone)]
pub struct HeuristicSolver {
    /// Open cells, then the cells on the stack (shared by all widths).
    slots: Vec<Slot>,
    /// 9x9 grids without places (`heuristic`, `naive`).
    nine: Nine,
    narrow: Core<u32>,
    medium: Core<u64>,
    wide: Core<u128>,
    /// The CPU has a population-count instruction.
    popcnt: bool,
}

impl HeuristicSolver {
    /// A solver with no working memory yet.
    pub fn new() -> Self {
        HeuristicSolver {
            slots: Vec::new(),
            nine: Nine::default(),
            narrow: Core::default(),
            medium: Core::default(),
            wide: Core::default(),
            popcnt: has_popcnt(),
        }
    }
}

#[cfg(test)]
impl HeuristicSolver {
    /// Solves with a chosen core: `width` 9 is the 9x9 core, 32, 64 or 128
    /// the generic one with masks that wide (at least the side); with or
    /// without POPCNT and minimum-remaining-values choice (`mrv`), so
    /// tests can compare the variants the side and the CPU would not pick.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve_with(
        &mut self,
        width: u32,
        popcnt: bool,
        mrv: bool,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        let popcnt = popcnt && self.popcnt;
        let slots = &mut self.slots;
        macro_rules! go {
            ($core:expr) => {
                if mrv {
                    $core.solve::<true>(popcnt, slots, puzzle, limit, budget, solution)
                } else {
                    $core.solve::<false>(popcnt, slots, puzzle, limit, budget, solution)
                }
            };
        }
        match width {
            9 => {
                assert_eq!(puzzle.shape(), BoxShape::NINE);
                if mrv {
                    self.nine
                        .solve::<true>(popcnt, puzzle, limit, budget, solution)
                } else {
                    self.nine
                        .solve::<false>(popcnt, puzzle, limit, budget, solution)
                }
            }
            32 => go!(self.narrow),
            64 => go!(self.medium),
            _ => go!(self.wide),
        }
    }
}

impl HeuristicSolver {
    /// Solves with the cell choice (`MRV`: fewest candidates first, else
    /// reading order) chosen by the caller: `naive` is the search without
    /// minimum remaining values.
    pub(super) fn solve_mode<const MRV: bool>(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        if limit == 0 {
            return Outcome::default();
        }
        let n = puzzle.side();
        let (slots, popcnt) = (&mut self.slots, self.popcnt);
        if puzzle.shape() == BoxShape::NINE {
            self.nine
                .solve::<MRV>(popcnt, puzzle, limit, budget, solution)
        } else if n <= 32 {
            self.narrow
                .solve::<MRV>(popcnt, slots, puzzle, limit, budget, solution)
        } else if n <= 64 {
            self.medium
                .solve::<MRV>(popcnt, slots, puzzle, limit, budget, solution)
        } else {
            self.wide
                .solve::<MRV>(popcnt, slots, puzzle, limit, budget, solution)
        }
    }
}

impl Default for HeuristicSolver {
    fn default() -> Self {
        HeuristicSolver::new()
    }
}

impl Solver<Grid> for HeuristicSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        self.solve_mode::<true>(puzzle, limit, budget, solution)
    }
}
