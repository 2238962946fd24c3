//! Candidate bitmasks with naked and hidden singles, and minimum-remaining-
//! values guesses: the classic fast design of a cell-based Sudoku solver.
//!
//! Every open cell keeps the bitmask of its candidates and every unit (row,
//! column, box) the symbols placed in it. A placement clears the symbol
//! from the cell's peers (the cells sharing a unit with it); a peer left
//! with one candidate is a *naked single* and joins the queue of
//! placements, one left with none is a dead end. When the queue is empty, a
//! pass over the units looks for *hidden singles* (a missing symbol with one
//! place left in a unit, queued) and for a missing symbol with no place (a
//! dead end). Only when neither rule applies does it guess: the open cell
//! with the fewest candidates (the first in reading order on a tie), its
//! lowest candidate first, after saving the candidate masks on a stack. A
//! wrong guess restores them, removes the guessed symbol from the cell and
//! propagates again, so the next guess is chosen afresh.
//!
//! No locked candidates (pointing and claiming), which some published
//! solvers of this design add: the name says what is measured.
//!
//! Nodes are placements below the clues, forced or guessed; guesses are
//! the guessed ones (branch points). The masks are `u16`, `u32`, `u64` or
//! `u128`, picked once per solve by the side, so every side up to
//! [`MAX_SIDE`](crate::sudoku::MAX_SIDE) works; a 9x9 grid runs on `u16`
//! with a 162-byte board that a guess copies whole. All working memory
//! (per shape: the peer and unit lists; per width: the board, the queue
//! and the stack) is kept between puzzles.

// Duplicates (issue #42): the search functions here take `Solver::solve`'s arguments (puzzle,
// limit, budget, solution) on purpose, as every solver's do; each solver keeps its own hot loop.

use super::heuristic::Mask;
use crate::solvers::{has_popcnt, popcnt_dispatch, Budget, Meter, Outcome, Solver, SolverInfo};
use crate::sudoku::{BoxShape, Grid};

/// Registry entry.
pub const INFO: SolverInfo<Grid> = SolverInfo {
    name: "singles",
    description: "candidate bitmasks with naked and hidden singles, \
                  minimum-remaining-values guesses",
    make: || Box::new(SinglesSolver::new()),
    default_budget: Budget::SEARCH,
};

/// The units and peers of one grid shape, built once per shape.
#[derive(Debug, Clone)]
struct Layout {
    shape: BoxShape,
    /// Per cell: its row, column and box as unit indices (rows `0..n`,
    /// columns `n..2n`, boxes `2n..3n`).
    units_of: Vec<[u16; 3]>,
    /// Per unit, its `n` cells.
    unit_cells: Vec<u16>,
    /// Per cell, the `peer_count` other cells that share a unit with it.
    peers: Vec<u16>,
    peer_count: usize,
    /// Per cell, its three units as bits of a `u64`, when the grid has at
    /// most 64 units (sides up to 21; 0 otherwise): placements mark the
    /// units they change, and the hidden-single pass reads only those.
    unit_bits: Vec<u64>,
    /// `unit_bits` is in use.
    tracked: bool,
}

impl Layout {
    fn new(shape: BoxShape) -> Self {
        let n = shape.side();
        let mut units_of = Vec::with_capacity(n * n);
        let mut members: Vec<Vec<u16>> = vec![Vec::with_capacity(n); 3 * n];
        for row in 0..n {
            for col in 0..n {
                let cell = (row * n + col) as u16;
                let units = [row, n + col, 2 * n + shape.box_of(row, col)];
                for u in units {
                    members[u].push(cell);
                }
                units_of.push(units.map(|u| u as u16));
            }
        }
        let unit_cells: Vec<u16> = members.concat();
        let peer_count = 2 * (n - 1) + (shape.box_rows() - 1) * (shape.box_cols() - 1);
        let mut peers = Vec::with_capacity(n * n * peer_count);
        for (cell, units) in units_of.iter().enumerate() {
            let start = peers.len();
            for &u in units {
                let u = u as usize;
                for &q in &unit_cells[u * n..(u + 1) * n] {
                    if q as usize != cell && !peers[start..].contains(&q) {
                        peers.push(q);
                    }
                }
            }
            debug_assert_eq!(peers.len() - start, peer_count);
        }
        let tracked = 3 * n <= 64;
        let unit_bits = units_of
            .iter()
            .map(|units| {
                if tracked {
                    units.iter().fold(0, |bits, &u| bits | 1u64 << u)
                } else {
                    0
                }
            })
            .collect();
        Layout {
            shape,
            units_of,
            unit_bits,
            tracked,
            unit_cells,
            peers,
            peer_count,
        }
    }
}

/// A guess: the cell, its candidates not yet tried and the open-cell count
/// before it; the board and unit masks of that moment are on the save
/// stacks.
#[derive(Debug, Clone, Copy)]
struct Frame<M> {
    cell: u32,
    untried: M,
    remaining: u32,
}

/// Why propagation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// A fixpoint: no single left, no contradiction seen.
    Stable,
    /// A contradiction: a cell or a unit-symbol with no place.
    Dead,
    /// The node budget ran out.
    Budget,
}

/// The working memory for one mask width.
#[derive(Debug, Clone)]
struct Core<M> {
    /// Per cell, its candidates; 0 once the cell holds a symbol.
    board: Vec<M>,
    /// Per unit, the symbols placed in it.
    solved: Vec<M>,
    /// Per cell, the symbol placed (valid for every cell placed on the
    /// current path, so at a solution for all of them).
    value: Vec<M>,
    /// Open cells left.
    remaining: u32,
    /// The units whose cells changed since the last hidden-single pass
    /// (see [`Layout::unit_bits`]).
    dirty: u64,
    /// Placements waiting to be made.
    queue: Vec<(u32, M)>,
    frames: Vec<Frame<M>>,
    /// Scratch for locked candidates: the union of each line segment.
    segs: Vec<M>,
    saved_board: Vec<M>,
    saved_solved: Vec<M>,
}

impl<M> Default for Core<M> {
    fn default() -> Self {
        Core {
            board: Vec::new(),
            solved: Vec::new(),
            value: Vec::new(),
            remaining: 0,
            dirty: 0,
            queue: Vec::new(),
            frames: Vec::new(),
            segs: Vec::new(),
            saved_board: Vec::new(),
            saved_solved: Vec::new(),
        }
    }
}

/// Save stacks are reserved for the deepest possible search (a guess per
/// open cell) up to this many masks; beyond it (grids above 32x32) they
/// grow on demand.
const RESERVE_MASKS: usize = 1 << 20;

impl<M: Mask> Core<M> {
    popcnt_dispatch! {
        /// Runs the whole solve, compiled with POPCNT when `popcnt` says
        /// the CPU has it (the guess counts every open cell's candidates).
        fn solve;

        /// [`Core::search`] with the side and peer count as constants for
        /// 9x9, so that the loops over a cell's peers and a unit's cells
        /// unroll there.
        fn search_sized<const LOCKED: bool>(
            &mut self,
            layout: &Layout,
            puzzle: &Grid,
            limit: u64,
            budget: Budget,
            solution: &mut Grid,
        ) -> Outcome {
            if layout.shape == BoxShape::NINE {
                self.search::<LOCKED>(layout, (9, 20), puzzle, limit, budget, solution)
            } else {
                let sizes = (puzzle.side(), layout.peer_count);
                self.search::<LOCKED>(layout, sizes, puzzle, limit, budget, solution)
            }
        }
    }

    /// The solve: `(n, peer_count)` are the grid's side and
    /// [`Layout::peer_count`].
    #[inline(always)]
    fn search<const LOCKED: bool>(
        &mut self,
        layout: &Layout,
        (n, peer_count): (usize, usize),
        puzzle: &Grid,
        limit: u64,
        budget: Budget,
        solution: &mut Grid,
    ) -> Outcome {
        let mut out = Outcome::default();
        let cells = n * n;
        let full = M::full(n);
        let Some(mut alive) = self.load(layout, puzzle, full) else {
            return out;
        };
        let open = self.remaining as usize;
        self.frames.clear();
        self.frames.reserve(open);
        self.saved_board.clear();
        self.saved_solved.clear();
        if open * cells <= RESERVE_MASKS {
            self.saved_board.reserve(open * cells);
            self.saved_solved.reserve(open * 3 * n);
        }
        let mut meter = Meter::start(budget);
        let mut nodes = 0u64;
        loop {
            if alive {
                let sizes = (n, peer_count);
                match self.propagate::<LOCKED>(layout, sizes, full, &mut nodes, &mut meter) {
                    Step::Stable => {}
                    Step::Dead => alive = false,
                    Step::Budget => {
                        out.budget_exceeded = true;
                        break;
                    }
                }
            }
            if alive {
                if self.remaining == 0 {
                    out.solutions += 1;
                    if out.solutions == 1 {
                        self.write_solution(puzzle, solution);
                    }
                    if out.solutions >= limit {
                        break;
                    }
                } else {
                    out.guesses += 1;
                    self.guess(layout, peer_count);
                    continue;
                }
            }
            // Back to the deepest guess with a candidate left.
            let Some(frame) = self.frames.pop() else {
                break;
            };
            let b = self.saved_board.len() - cells;
            self.board.copy_from_slice(&self.saved_board[b..]);
            self.saved_board.truncate(b);
            let s = self.saved_solved.len() - 3 * n;
            self.solved.copy_from_slice(&self.saved_solved[s..]);
            self.saved_solved.truncate(s);
            self.remaining = frame.remaining;
            // The board saved was a fixpoint: only the guessed cell's units
            // change.
            self.dirty = layout.unit_bits[frame.cell as usize];
            self.queue.clear();
            if frame.untried.without_lowest() == M::ZERO {
                self.queue.push((frame.cell, frame.untried));
            } else {
                self.board[frame.cell as usize] = frame.untried;
            }
            alive = true;
        }
        out.nodes = Some(nodes);
        out
    }

    /// Sets the masks from the clues and queues the naked singles they
    /// leave. `None` when two clues clash; `Some(false)` when an open cell
    /// has no candidate.
    // Its clue check is the heuristic solver's `load` on purpose: each on
    // its own masks (one array of units here, rows, columns and boxes
    // there), both on the path every solve is timed through.
    fn load(&mut self, layout: &Layout, puzzle: &Grid, full: M) -> Option<bool> {
        let n = puzzle.side();
        let cells = n * n;
        self.board.clear();
        self.board.resize(cells, full);
        self.solved.clear();
        self.solved.resize(3 * n, M::ZERO);
        self.value.clear();
        self.value.resize(cells, M::ZERO);
        self.queue.clear();
        // A cell can be queued once as a naked single and, per unit pass,
        // once for each of its three units, before the queue is emptied.
        self.queue.reserve(4 * cells + 8);
        self.segs.reserve(cells);
        let mut remaining = cells as u32;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let bit = M::symbol(v);
                let [r, c, b] = layout.units_of[cell].map(usize::from);
                let used = self.solved[r] | self.solved[c] | self.solved[b];
                if used & bit != M::ZERO {
                    return None;
                }
                self.solved[r] |= bit;
                self.solved[c] |= bit;
                self.solved[b] |= bit;
                self.board[cell] = M::ZERO;
                self.value[cell] = bit;
                remaining -= 1;
            }
        }
        self.remaining = remaining;
        self.dirty = u64::MAX >> (64 - (3 * n).min(64));
        let mut alive = true;
        for (cell, units) in layout.units_of.iter().enumerate() {
            if self.board[cell] != M::ZERO {
                let [r, c, b] = units.map(usize::from);
                let set = full & !(self.solved[r] | self.solved[c] | self.solved[b]);
                self.board[cell] = set;
                if set == M::ZERO {
                    alive = false;
                } else if set.without_lowest() == M::ZERO {
                    self.queue.push((cell as u32, set));
                }
            }
        }
        Some(alive)
    }

    /// Makes the queued placements and those they force, then looks for
    /// hidden singles (and with `LOCKED`, locked candidates), until none
    /// of them finds anything.
    #[inline(always)]
    fn propagate<const LOCKED: bool>(
        &mut self,
        layout: &Layout,
        (n, peer_count): (usize, usize),
        full: M,
        nodes: &mut u64,
        meter: &mut Meter,
    ) -> Step {
        loop {
            let step = self.place_queued(layout, peer_count, nodes, meter);
            if step != Step::Stable || self.remaining == 0 {
                return step;
            }
            if !self.hidden_singles(layout, n, full) {
                return Step::Dead;
            }
            if self.queue.is_empty() {
                if !LOCKED {
                    return Step::Stable;
                }
                match self.locked_candidates(layout) {
                    None => return Step::Dead,
                    Some(false) => return Step::Stable,
                    Some(true) => {}
                }
            }
        }
    }

    /// Removes locked candidates: a symbol whose places in a row (or
    /// column) all lie in one box is removed from the box's other cells
    /// (claiming), and one whose places in a box all lie in one row (or
    /// column) from the line's other cells (pointing). Each line is cut
    /// into the segments it shares with boxes; the union of a segment's
    /// candidates is compared with those of the line's other segments and
    /// of the box's other segments. True when something was removed;
    /// `None` when a cell was left with no candidate.
    fn locked_candidates(&mut self, layout: &Layout) -> Option<bool> {
        // 9x9 on its own pass, with fixed arrays (this generic one took a
        // third of `locked`'s time on top1465, perf).
        if layout.shape == BoxShape::NINE {
            return self.locked_candidates_nine(layout);
        }
        let (br, bc) = (layout.shape.box_rows(), layout.shape.box_cols());
        let n = br * bc;
        let mut changed = false;
        // Rows: `br` segments of `bc` cells; columns: `bc` segments of
        // `br` cells. `cell(line, i)` is the line's `i`th cell.
        for columns in [false, true] {
            let (segments, width, band) = if columns { (bc, br, bc) } else { (br, bc, br) };
            let cell = |line: usize, i: usize| {
                if columns {
                    i * n + line
                } else {
                    line * n + i
                }
            };
            self.segs.clear();
            for line in 0..n {
                for k in 0..segments {
                    let mut union = M::ZERO;
                    for i in k * width..(k + 1) * width {
                        union |= self.board[cell(line, i)];
                    }
                    self.segs.push(union);
                }
            }
            for line in 0..n {
                let first = line / band * band;
                for k in 0..segments {
                    let here = self.segs[line * segments + k];
                    if here == M::ZERO {
                        continue;
                    }
                    let mut line_others = M::ZERO;
                    for j in (0..segments).filter(|&j| j != k) {
                        line_others |= self.segs[line * segments + j];
                    }
                    let mut box_others = M::ZERO;
                    for other in (first..first + band).filter(|&l| l != line) {
                        box_others |= self.segs[other * segments + k];
                    }
                    let pointing = here & !box_others & line_others;
                    let claiming = here & !line_others & box_others;
                    if pointing != M::ZERO {
                        for j in (0..segments).filter(|&j| j != k) {
                            for i in j * width..(j + 1) * width {
                                changed |= self.eliminate(layout, cell(line, i), pointing)?;
                            }
                        }
                    }
                    if claiming != M::ZERO {
                        for other in (first..first + band).filter(|&l| l != line) {
                            for i in k * width..(k + 1) * width {
                                changed |= self.eliminate(layout, cell(other, i), claiming)?;
                            }
                        }
                    }
                }
            }
        }
        Some(changed)
    }

    /// [`Core::locked_candidates`] for 9x9: the same rules, the same
    /// eliminations in the same order (so the same search), with the
    /// segments in a fixed array and each segment's two line neighbours and
    /// two box neighbours named rather than filtered.
    #[inline(always)]
    fn locked_candidates_nine(&mut self, layout: &Layout) -> Option<bool> {
        let mut changed = false;
        for columns in [false, true] {
            let cell = |line: usize, i: usize| if columns { i * 9 + line } else { line * 9 + i };
            let mut segs = [M::ZERO; 27];
            for (s, seg) in segs.iter_mut().enumerate() {
                let (line, k) = (s / 3, s % 3);
                *seg = self.board[cell(line, 3 * k)]
                    | self.board[cell(line, 3 * k + 1)]
                    | self.board[cell(line, 3 * k + 2)];
            }
            for line in 0..9 {
                let first = line / 3 * 3;
                // The band's other two lines, in order.
                let (a, b) = match line - first {
                    0 => (first + 1, first + 2),
                    1 => (first, first + 2),
                    _ => (first, first + 1),
                };
                for k in 0..3 {
                    let here = segs[line * 3 + k];
                    let (j1, j2) = match k {
                        0 => (1, 2),
                        1 => (0, 2),
                        _ => (0, 1),
                    };
                    let line_others = segs[line * 3 + j1] | segs[line * 3 + j2];
                    let box_others = segs[a * 3 + k] | segs[b * 3 + k];
                    let pointing = here & !box_others & line_others;
                    let claiming = here & !line_others & box_others;
                    if pointing != M::ZERO {
                        for j in [j1, j2] {
                            for i in 3 * j..3 * j + 3 {
                                changed |= self.eliminate(layout, cell(line, i), pointing)?;
                            }
                        }
                    }
                    if claiming != M::ZERO {
                        for other in [a, b] {
                            for i in 3 * k..3 * k + 3 {
                                changed |= self.eliminate(layout, cell(other, i), claiming)?;
                            }
                        }
                    }
                }
            }
        }
        Some(changed)
    }

    /// Removes `symbols` from `cell`'s candidates: whether any were there,
    /// `None` when none is left.
    #[inline(always)]
    fn eliminate(&mut self, layout: &Layout, cell: usize, symbols: M) -> Option<bool> {
        let set = self.board[cell];
        if set & symbols == M::ZERO {
            return Some(false);
        }
        let left = set & !symbols;
        self.board[cell] = left;
        self.dirty |= layout.unit_bits[cell];
        if left == M::ZERO {
            return None;
        }
        if left.without_lowest() == M::ZERO {
            self.queue.push((cell as u32, left));
        }
        Some(true)
    }

    /// Makes the queued placements, and the naked singles they leave.
    #[inline(always)]
    fn place_queued(
        &mut self,
        layout: &Layout,
        count: usize,
        nodes: &mut u64,
        meter: &mut Meter,
    ) -> Step {
        let Core {
            board,
            solved,
            value,
            remaining,
            dirty,
            queue,
            ..
        } = self;
        let mut i = 0;
        while i < queue.len() {
            let (cell, bit) = queue[i];
            i += 1;
            let cell = cell as usize;
            let set = board[cell];
            if set == M::ZERO {
                // Placed already (queued twice).
                continue;
            }
            if set & bit == M::ZERO {
                queue.clear();
                return Step::Dead;
            }
            if meter.exhausted(*nodes) {
                queue.clear();
                return Step::Budget;
            }
            *nodes += 1;
            board[cell] = M::ZERO;
            value[cell] = bit;
            *remaining -= 1;
            *dirty |= layout.unit_bits[cell];
            for u in layout.units_of[cell] {
                solved[u as usize] |= bit;
            }
            // Branching on whether the peer has the symbol measured faster
            // than a branch-free loop writing every peer and queue entry
            // (p50 on top1465 36 against 42 µs).
            let mut dead = false;
            let mut len = queue.len();
            let mut marks = 0u64;
            let tail = queue.as_mut_ptr();
            debug_assert!(len + count < queue.capacity());
            for &p in &layout.peers[cell * count..(cell + 1) * count] {
                let p = p as usize;
                // SAFETY: peers are cells (built by `Layout::new` for this
                // shape, and the board has a mask per cell); `load`
                // reserved room for every entry a round of placements can
                // queue, so the entry written at `len` is within the
                // capacity (counted only when it is a single, not a dead
                // end).
                unsafe {
                    let slot = board.get_unchecked_mut(p);
                    let set = *slot;
                    if set & bit != M::ZERO {
                        let left = set & !bit;
                        *slot = left;
                        marks |= *layout.unit_bits.get_unchecked(p);
                        if left.without_lowest() == M::ZERO {
                            dead |= left == M::ZERO;
                            tail.add(len).write((p as u32, left));
                            len += usize::from(left != M::ZERO);
                        }
                    }
                }
            }
            // SAFETY: the entries up to `len` were written above.
            unsafe { queue.set_len(len) };
            *dirty |= marks;
            if dead {
                queue.clear();
                return Step::Dead;
            }
        }
        queue.clear();
        Step::Stable
    }

    /// Queues every hidden single. False when a unit has a missing symbol
    /// with no place, or one cell is the only place of two symbols.
    #[inline(always)]
    fn hidden_singles(&mut self, layout: &Layout, n: usize, full: M) -> bool {
        if layout.tracked {
            let mut dirty = std::mem::take(&mut self.dirty);
            while dirty != 0 {
                let u = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                if !self.unit(layout, n, full, u) {
                    return false;
                }
            }
            true
        } else {
            (0..3 * n).all(|u| self.unit(layout, n, full, u))
        }
    }

    /// The hidden-single check of unit `u`.
    #[inline(always)]
    fn unit(&mut self, layout: &Layout, n: usize, full: M, u: usize) -> bool {
        let board = &self.board[..];
        let members = &layout.unit_cells[u * n..(u + 1) * n];
        let (mut once, mut twice) = (M::ZERO, M::ZERO);
        for &c in members {
            let set = board[c as usize];
            twice |= once & set;
            once |= set;
        }
        if (once | self.solved[u]) != full {
            return false;
        }
        let single = once & !twice;
        if single != M::ZERO {
            for &c in members {
                let here = board[c as usize] & single;
                if here != M::ZERO {
                    if here.without_lowest() != M::ZERO {
                        return false;
                    }
                    self.queue.push((u32::from(c), here));
                }
            }
        }
        true
    }

    /// Guesses the lowest candidate of the open cell with the fewest,
    /// saving the board first. Among cells with equally few, the one with
    /// the most open peers (the first in reading order on a tie): on
    /// top1465 that took 30.6 guesses a puzzle instead of 46.0 for the
    /// first cell in reading order, on the forum's hardest 194 instead of 373.
    // Inlined into the search, so that `count` is one POPCNT where the
    // CPU has it (compiled apart, it was the bit-twiddling fallback).
    #[inline(always)]
    fn guess(&mut self, layout: &Layout, peer_count: usize) {
        // The fewest candidates (two is the least an open cell has here)...
        let mut first = 0;
        let mut fewest = u32::MAX;
        for (cell, &set) in self.board.iter().enumerate() {
            let count = set.count();
            if set != M::ZERO && count < fewest {
                first = cell;
                fewest = count;
                if count <= 2 {
                    break;
                }
            }
        }
        // ...then the most open peers among the cells with that many.
        let mut best = first;
        let mut best_score = 0;
        for (cell, &set) in self.board.iter().enumerate().skip(first) {
            if set != M::ZERO && set.count() == fewest {
                let mut score = 0;
                for &p in &layout.peers[cell * peer_count..(cell + 1) * peer_count] {
                    score += u32::from(self.board[p as usize] != M::ZERO);
                }
                if score > best_score {
                    best = cell;
                    best_score = score;
                }
            }
        }
        let set = self.board[best];
        let bit = M::symbol(set.lowest());
        self.frames.push(Frame {
            cell: best as u32,
            untried: set & !bit,
            remaining: self.remaining,
        });
        self.saved_board.extend_from_slice(&self.board);
        self.saved_solved.extend_from_slice(&self.solved);
        self.queue.push((best as u32, bit));
    }

    #[cold]
    fn write_solution(&self, puzzle: &Grid, solution: &mut Grid) {
        solution.reset(puzzle.shape());
        for (out, &bit) in solution.cells_mut().iter_mut().zip(&self.value) {
            *out = bit.lowest();
        }
    }
}

/// The singles solver. Working memory is kept and reused between puzzles.
///
/// ```
/// use dlxbench::solvers::{Budget, Solver};
/// use dlxbench::sudoku::solvers::singles::SinglesSolver;
/// use dlxbench::sudoku::{BoxShape, Grid};
///
/// let puzzle = Grid::empty(BoxShape::new(2, 2).unwrap());
/// let mut solution = Grid::empty(puzzle.shape());
/// let outcome = SinglesSolver::new().solve(&puzzle, u64::MAX, Budget::UNLIMITED, &mut solution);
/// assert_eq!(outcome.solutions, 288); // all 4x4 Sudoku grids
/// ```
#[derive(Debug, Clone)]
pub struct SinglesSolver {
    /// One layout per shape seen, most recent first.
    layouts: Vec<Layout>,
    narrow: Core<u16>,
    small: Core<u32>,
    medium: Core<u64>,
    wide: Core<u128>,
    /// The CPU has a population-count instruction.
    popcnt: bool,
    /// Also removes locked candidates: the [`locked`](super::locked)
    /// solver.
    locked: bool,
}

impl SinglesSolver {
    /// A solver with no working memory yet.
    pub fn new() -> Self {
        SinglesSolver {
            layouts: Vec::new(),
            narrow: Core::default(),
            small: Core::default(),
            medium: Core::default(),
            wide: Core::default(),
            popcnt: has_popcnt(),
            locked: false,
        }
    }

    /// The same solver, also removing locked candidates (pointing and
    /// claiming) before each guess: the [`locked`](super::locked) solver.
    pub fn with_locked_candidates() -> Self {
        SinglesSolver {
            locked: true,
            ..SinglesSolver::new()
        }
    }
}

impl Default for SinglesSolver {
    fn default() -> Self {
        SinglesSolver::new()
    }
}

impl Solver<Grid> for SinglesSolver {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        if limit == 0 {
            return Outcome::default();
        }
        let shape = puzzle.shape();
        let layout = match self.layouts.iter().position(|l| l.shape == shape) {
            Some(0) => &self.layouts[0],
            Some(i) => {
                self.layouts.swap(0, i);
                &self.layouts[0]
            }
            None => {
                self.layouts.push(Layout::new(shape));
                let last = self.layouts.len() - 1;
                self.layouts.swap(0, last);
                &self.layouts[0]
            }
        };
        let popcnt = self.popcnt;
        macro_rules! run {
            ($core:expr) => {
                if self.locked {
                    $core.solve::<true>(popcnt, layout, puzzle, limit, budget, solution)
                } else {
                    $core.solve::<false>(popcnt, layout, puzzle, limit, budget, solution)
                }
            };
        }
        match shape.side() {
            0..=16 => run!(self.narrow),
            17..=32 => run!(self.small),
            33..=64 => run!(self.medium),
            _ => run!(self.wide),
        }
    }
}
