//! Dancing cells: Algorithm X on sparse sets, after Knuth's SSXC.
//!
//! Knuth wrote SSXC (2023) "as an experiment in the use of so-called
//! sparse-set data structures instead of the dancing links structures";
//! the sparse set is Briggs and Torczon's (ACM LOPLAS 2, 1993). This is an
//! independent implementation of that idea on this crate's [`Problem`],
//! with the same API as [`Dlx`](super::Dlx) ([`Engine`]).
//!
//! # Layout
//!
//! * **Cells**: one per 1 of the matrix, numbered in row order, so a row's
//!   cells are consecutive (`opt_start[k]..opt_start[k + 1]`). Each cell
//!   knows its item (column), its row, and its *location*: where it sits
//!   in its item's set.
//! * **Item sets**: item `i` owns the slots `set_start[i]..set_start[i +
//!   1]` of one array `set`; the first `size[i]` of them are the cells of
//!   the rows still available in that item, in no particular order.
//!   Removing a cell swaps it with the last of the set and shrinks the
//!   size; putting it back is growing the size again (the cell is still
//!   there, just past the end), provided removals are undone in reverse
//!   order, as backtracking does. No links, no writes to undo.
//! * **Active items**: the open primary items are a sparse set too:
//!   `active[..n_active]`, with each item's place in `active_pos`.
//!   Covering an item swaps it out; uncovering grows the count back.
//!
//! Hiding a row takes its cells out of their items' sets (except the one
//! being covered); covering an item hides each row of its set and takes it
//! out of the active set; choosing a row covers its other items. These are
//! Dancing Links' operations, on sets instead of lists: in the same search
//! tree the two engines remove the same cells, so their
//! [`SearchStats::updates`] are equal as well as their nodes. What differs
//! is the order: a sparse set is permuted by its removals, so the rows of
//! an item are tried in an order that depends on the search's history.
//! Where a solution limit or a budget cuts the search short, the two
//! engines may then stop at different places; where they run to the end,
//! they make the same nodes under the same column choice
//! ([`ColumnChoice::LowestIndex`]).
//!
//! Every search starts from the same order: [`Dc::select_all`] and
//! [`Dc::reset`] rebuild each item's set in row order from the rows the
//! selection leaves (one pass over the cells, like `Dlx::select_all`), so
//! a puzzle's counts do not depend on which puzzles the arena solved
//! before.
//!
//! # Cost measures
//!
//! Besides nodes and updates, the search counts *mems*
//! ([`SearchStats::mems`]), memory accesses as Knuth's programs count
//! them: one for each read or write of a cell's, a set's or an item's
//! word that the algorithm needs (see `docs/engine.md` for the rule and
//! its check against SSXC).

use std::ops::ControlFlow;

use crate::budget::Meter;

use super::engine::{ColumnChoice, Engine, EngineKind, SearchOptions, SearchStats};
use super::{Problem, ProblemError};

/// Returned by the choice when every primary item is covered.
const NONE: u32 = u32::MAX;

/// `Dc::run`'s column choices (see [`ColumnChoice`]).
const TUNED: u8 = 0;
const FIRST: u8 = 1;
const LOWEST: u8 = 2;
const KNUTH: u8 = 3;

/// The largest problem the arena takes: cell and slot indices are `u32`.
const MAX_CELLS: usize = (1 << 31) - 1;

/// A dancing-cells arena built once from a [`Problem`] and reused.
///
/// ```
/// use dlxbench::exact_cover::{Dc, Problem, SearchOptions};
///
/// let mut p = Problem::new(2, 0);
/// p.add_row(&[0]).unwrap();
/// p.add_row(&[1]).unwrap();
/// p.add_row(&[0, 1]).unwrap();
/// let mut dc = Dc::new(&p);
/// assert_eq!(dc.count(SearchOptions::default()).solutions, 2);
/// assert!(dc.select(0));
/// assert_eq!(dc.count(SearchOptions::default()).solutions, 1);
/// assert!(!dc.select(2), "row 2 clashes with row 0");
/// dc.reset();
/// assert_eq!(dc.count(SearchOptions::default()).solutions, 2);
/// ```
#[derive(Debug, Clone)]
pub struct Dc {
    /// Number of primary items; items `0..primary` are primary.
    primary: u32,
    /// Number of rows.
    rows: usize,
    /// Per cell: its item.
    cell_item: Vec<u32>,
    /// Per cell: its row.
    cell_row: Vec<u32>,
    /// Per cell: its place in its item's set (an offset from the item's
    /// `set_start`).
    cell_loc: Vec<u32>,
    /// Per row `k`, its first cell; `opt_start[rows]` is the cell count.
    opt_start: Vec<u32>,
    /// The item sets, item `i` in `set_start[i]..set_start[i + 1]`.
    set: Vec<u32>,
    /// Per item, where its set starts; one more entry for the end.
    set_start: Vec<u32>,
    /// Per item, the size of its set.
    size: Vec<u32>,
    /// The active primary items: `active[..n_active]`.
    active: Vec<u32>,
    /// Per primary item, its place in `active`.
    active_pos: Vec<u32>,
    /// How many primary items are active.
    n_active: u32,
    /// Per item, covered by a selection (outside any search).
    taken: Vec<bool>,
    /// Per row, scratch for [`Dc::select_all`]: the row meets a taken item.
    removed: Vec<bool>,
    /// Rows selected since the last reset, in order.
    selected: Vec<u32>,
    /// Updates made by selections since the last reset.
    select_updates: u64,
    /// True once a selection clashed: no solution until reset.
    conflict: bool,
    /// Per search level, the item covered.
    level_item: Vec<u32>,
    /// Per search level, the place in that item's set of the row tried.
    level_pos: Vec<u32>,
    /// Per search level, whether its row had another after it in its item
    /// (for [`Dc::search_deferred`]).
    alternatives: Vec<bool>,
    /// Levels a deferred search left committed (see [`Dc::settle`]).
    pending: usize,
    /// Scratch for reporting a solution's rows to the visitor.
    solution: Vec<usize>,
}

/// Two arenas are equal when the same rows are available in every open
/// item, the same items are active and the same rows selected: the order
/// inside the sets (which the search permutes), the sets of the items a
/// selection covered (never read again) and the scratch do not count.
impl PartialEq for Dc {
    fn eq(&self, other: &Self) -> bool {
        let sets = |dc: &Dc| -> Vec<Vec<u32>> {
            (0..dc.size.len())
                .map(|i| {
                    if dc.taken[i] {
                        // Covered by a selection: its set is never read.
                        return Vec::new();
                    }
                    let start = dc.set_start[i] as usize;
                    let mut s = dc.set[start..start + dc.size[i] as usize].to_vec();
                    s.sort_unstable();
                    s
                })
                .collect()
        };
        let active = |dc: &Dc| {
            let mut a = dc.active[..dc.n_active as usize].to_vec();
            a.sort_unstable();
            a
        };
        self.cell_item == other.cell_item
            && self.opt_start == other.opt_start
            && self.primary == other.primary
            && sets(self) == sets(other)
            && active(self) == active(other)
            && self.taken == other.taken
            && self.selected == other.selected
            && self.conflict == other.conflict
    }
}

impl Eq for Dc {}

impl Dc {
    /// Builds the arena. This is the only allocation the arena ever makes.
    ///
    /// # Panics
    /// If the problem has 2^31 cells or more (use [`Dc::try_new`] to get
    /// an error instead).
    pub fn new(problem: &Problem) -> Self {
        match Self::try_new(problem) {
            Ok(dc) => dc,
            Err(e) => panic!("{e}"),
        }
    }

    /// Builds the arena, or reports that the problem is too large.
    pub fn try_new(problem: &Problem) -> Result<Self, ProblemError> {
        let cells = problem.entries();
        if cells > MAX_CELLS {
            return Err(ProblemError::TooLarge { nodes: cells });
        }
        let items = problem.columns();
        let primary = problem.primary();
        let rows = problem.rows();
        let mut cell_item = Vec::with_capacity(cells);
        let mut cell_row = Vec::with_capacity(cells);
        let mut opt_start = Vec::with_capacity(rows + 1);
        let mut set_start = vec![0u32; items + 1];
        for k in 0..rows {
            opt_start.push(cell_item.len() as u32);
            for c in problem.row(k) {
                cell_item.push(c as u32);
                cell_row.push(k as u32);
                set_start[c + 1] += 1;
            }
        }
        opt_start.push(cells as u32);
        for i in 0..items {
            set_start[i + 1] += set_start[i];
        }
        let mut dc = Dc {
            primary: primary as u32,
            rows,
            cell_item,
            cell_row,
            cell_loc: vec![0; cells],
            opt_start,
            set: vec![0; cells],
            set_start,
            size: vec![0; items],
            active: (0..primary as u32).collect(),
            active_pos: (0..primary as u32).collect(),
            n_active: primary as u32,
            taken: vec![false; items],
            removed: vec![false; rows],
            selected: Vec::with_capacity(primary),
            select_updates: 0,
            conflict: false,
            level_item: vec![0; primary + 1],
            level_pos: vec![0; primary + 1],
            alternatives: vec![false; primary + 1],
            pending: 0,
            solution: Vec::with_capacity(primary + 1),
        };
        dc.select_all(&[]);
        Ok(dc)
    }

    /// Number of rows of the problem.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of cells (1s of the matrix).
    pub fn cells(&self) -> usize {
        self.cell_item.len()
    }

    /// Bytes held by the cells, the sets and the items' arrays: what the
    /// search reads and writes ([`Dc::heap_bytes`] adds the scratch).
    pub fn arena_bytes(&self) -> usize {
        4 * (self.cell_item.len()
            + self.cell_row.len()
            + self.cell_loc.len()
            + self.opt_start.len()
            + self.set.len()
            + self.set_start.len()
            + self.size.len()
            + self.active.len()
            + self.active_pos.len())
    }

    /// Every heap byte this arena holds.
    pub fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.cell_item)
            + bytes(&self.cell_row)
            + bytes(&self.cell_loc)
            + bytes(&self.opt_start)
            + bytes(&self.set)
            + bytes(&self.set_start)
            + bytes(&self.size)
            + bytes(&self.active)
            + bytes(&self.active_pos)
            + bytes(&self.taken)
            + bytes(&self.removed)
            + bytes(&self.selected)
            + bytes(&self.level_item)
            + bytes(&self.level_pos)
            + bytes(&self.alternatives)
            + bytes(&self.solution)
    }

    /// Rows selected since the last reset, in order.
    pub fn selected(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.selected.iter().map(|&r| r as usize)
    }

    /// The cells of row `row`.
    fn row_cells(&self, row: usize) -> std::ops::Range<u32> {
        self.opt_start[row]..self.opt_start[row + 1]
    }

    // --- the dance ----------------------------------------------------------

    /// Takes cell `z` out of its item's set: swaps it with the set's last
    /// cell and shrinks the set.
    #[inline(always)]
    fn remove(&mut self, z: u32, mems: &mut u64) {
        let k = self.cell_item[z as usize] as usize;
        let p = self.cell_loc[z as usize];
        let start = self.set_start[k] as usize;
        let s = self.size[k] - 1;
        let y = self.set[start + s as usize];
        self.set[start + p as usize] = y;
        self.cell_loc[y as usize] = p;
        self.set[start + s as usize] = z;
        self.cell_loc[z as usize] = s;
        self.size[k] = s;
        // SSXC0: z's item and place (one word), the size read and
        // written, the last cell read, two slots and two places written.
        *mems += 8;
    }

    /// Takes the other cells of `x`'s row out of their items' sets, left
    /// to right cyclically from `x`; returns how many.
    #[inline(always)]
    fn hide(&mut self, x: u32, mems: &mut u64) -> u64 {
        let row = self.cell_row[x as usize] as usize;
        let (start, end) = (self.opt_start[row], self.opt_start[row + 1]);
        // SSXC0 walks the row cyclically and meets its spacer once.
        *mems += 1;
        for z in (x + 1..end).chain(start..x) {
            self.remove(z, mems);
        }
        u64::from(end - start - 1)
    }

    /// Undoes [`Dc::hide`], right to left.
    #[inline(always)]
    fn unhide(&mut self, x: u32, mems: &mut u64) {
        let row = self.cell_row[x as usize] as usize;
        let (start, end) = (self.opt_start[row], self.opt_start[row + 1]);
        *mems += 1;
        for z in (start..x).rev().chain((x + 1..end).rev()) {
            let k = self.cell_item[z as usize] as usize;
            self.size[k] += 1;
            // The cell's item, the size read and written.
            *mems += 3;
        }
    }

    /// Hides every row of item `i`'s set and takes `i` out of the active
    /// items; returns the updates.
    #[inline(always)]
    fn cover(&mut self, i: u32, mems: &mut u64) -> u64 {
        let start = self.set_start[i as usize];
        let n = self.size[i as usize];
        *mems += 2;
        let mut removed = 0;
        for t in start..start + n {
            let x = self.set[t as usize];
            *mems += 1;
            removed += self.hide(x, mems);
        }
        if i < self.primary {
            let p = self.active_pos[i as usize];
            let last_pos = self.n_active - 1;
            let last = self.active[last_pos as usize];
            self.active[p as usize] = last;
            self.active_pos[last as usize] = p;
            self.active[last_pos as usize] = i;
            self.active_pos[i as usize] = last_pos;
            self.n_active = last_pos;
            // The last active item read, two entries and two places
            // written.
            *mems += 5;
        }
        removed
    }

    /// Undoes [`Dc::cover`].
    #[inline(always)]
    fn uncover(&mut self, i: u32, mems: &mut u64) {
        if i < self.primary {
            self.n_active += 1;
        }
        let start = self.set_start[i as usize];
        let n = self.size[i as usize];
        *mems += 2;
        for t in (start..start + n).rev() {
            let x = self.set[t as usize];
            *mems += 1;
            self.unhide(x, mems);
        }
    }

    /// Covers the items of `x`'s row other than `x`'s own, left to right
    /// cyclically from `x`; returns the updates.
    #[inline(always)]
    fn commit(&mut self, x: u32, mems: &mut u64) -> u64 {
        let row = self.cell_row[x as usize] as usize;
        let (start, end) = (self.opt_start[row], self.opt_start[row + 1]);
        *mems += 1;
        let mut removed = 0;
        for z in (x + 1..end).chain(start..x) {
            let k = self.cell_item[z as usize];
            *mems += 1;
            removed += self.cover(k, mems);
        }
        removed
    }

    /// Undoes [`Dc::commit`], right to left.
    #[inline(always)]
    fn uncommit(&mut self, x: u32, mems: &mut u64) {
        let row = self.cell_row[x as usize] as usize;
        let (start, end) = (self.opt_start[row], self.opt_start[row + 1]);
        *mems += 1;
        for z in (start..x).rev().chain((x + 1..end).rev()) {
            let k = self.cell_item[z as usize];
            *mems += 1;
            self.uncover(k, mems);
        }
    }

    /// The primary item to branch on, or [`NONE`] when every one is
    /// covered (see [`ColumnChoice`]).
    #[inline(always)]
    fn choose<const CHOICE: u8>(&self, mems: &mut u64) -> u32 {
        let active = &self.active[..self.n_active as usize];
        if active.is_empty() {
            return NONE;
        }
        match CHOICE {
            FIRST => {
                *mems += active.len() as u64;
                *active.iter().min().expect("not empty")
            }
            LOWEST => {
                let mut best = NONE;
                let mut best_size = u32::MAX;
                for &i in active {
                    let s = self.size[i as usize];
                    *mems += 2;
                    if s < best_size || (s == best_size && i < best) {
                        best = i;
                        best_size = s;
                        if s == 0 {
                            break;
                        }
                    }
                }
                best
            }
            _ => {
                // The first of the fewest in the active set's order,
                // stopping at an empty item (Knuth) or at one row (TUNED).
                let stop = if CHOICE == KNUTH { 0 } else { 1 };
                let mut best = NONE;
                let mut best_size = u32::MAX;
                for &i in active {
                    let s = self.size[i as usize];
                    *mems += 2;
                    if s < best_size {
                        best = i;
                        best_size = s;
                        if s <= stop {
                            break;
                        }
                    }
                }
                best
            }
        }
    }

    // --- public operations --------------------------------------------------

    /// Preselects row `row`: its items are covered before any search, as
    /// if the search had chosen it. Returns `false`, selecting nothing,
    /// when the row clashes with an earlier selection; every later search
    /// then finds no solution until [`Dc::reset`].
    ///
    /// # Panics
    /// If `row >= self.rows()`.
    pub fn select(&mut self, row: usize) -> bool {
        assert!(row < self.rows, "row {row} out of range");
        self.settle();
        let cells = self.row_cells(row);
        if cells
            .clone()
            .any(|z| self.taken[self.cell_item[z as usize] as usize])
        {
            self.conflict = true;
            return false;
        }
        let mut mems = 0;
        for z in cells {
            let k = self.cell_item[z as usize];
            self.taken[k as usize] = true;
            self.select_updates += self.cover(k, &mut mems);
        }
        self.selected.push(row as u32);
        true
    }

    /// Selects each of `rows` in turn, as [`Dc::select`] does.
    ///
    /// # Panics
    /// If a row is out of range.
    pub fn select_rows(&mut self, rows: &[usize]) -> bool {
        let mut ok = true;
        for &row in rows {
            ok &= self.select(row);
        }
        ok
    }

    /// Resets the arena and selects `rows` (a row that clashes with an
    /// earlier one is skipped, as [`Dc::select`] does, and every search
    /// then finds no solution until the next `select_all` or `reset`).
    ///
    /// Rather than covering the rows' items cell by cell, it marks the rows
    /// that meet them as removed and rebuilds every other item's set from
    /// the rows left, in row order: the same sets as the covers would leave,
    /// in a fixed order, with the same [`SearchStats::updates`]. Its cost is
    /// one pass over the cells.
    ///
    /// # Panics
    /// If a row is out of range.
    ///
    /// ```
    /// use dlxbench::exact_cover::{Dc, Problem, SearchOptions};
    ///
    /// let mut p = Problem::new(3, 0);
    /// for row in [&[0, 1][..], &[2], &[0], &[1, 2]] {
    ///     p.add_row(row).unwrap();
    /// }
    /// let mut dc = Dc::new(&p);
    /// assert!(dc.select_all(&[1]));
    /// assert_eq!(dc.count(SearchOptions::default()).solutions, 1); // rows 0, 1
    /// assert!(!dc.select_all(&[0, 2]), "rows 0 and 2 share column 0");
    /// assert_eq!(dc.count(SearchOptions::default()).solutions, 0);
    /// dc.reset();
    /// assert_eq!(dc.count(SearchOptions::default()).solutions, 2);
    /// ```
    pub fn select_all(&mut self, rows: &[usize]) -> bool {
        for &row in rows {
            assert!(row < self.rows, "row {row} out of range");
        }
        self.pending = 0;
        self.taken.fill(false);
        self.selected.clear();
        let mut conflict = false;
        for &row in rows {
            let cells = self.row_cells(row);
            if cells
                .clone()
                .any(|z| self.taken[self.cell_item[z as usize] as usize])
            {
                conflict = true;
                continue;
            }
            for z in cells {
                self.taken[self.cell_item[z as usize] as usize] = true;
            }
            self.selected.push(row as u32);
        }
        // The rows that meet a taken item are removed: every cell, in row
        // order, marks its row.
        self.removed.fill(false);
        for (z, &k) in self.cell_item.iter().enumerate() {
            if self.taken[k as usize] {
                self.removed[self.cell_row[z] as usize] = true;
            }
        }
        // Each item's set: the cells of the rows left, in row order (cells
        // are numbered in row order). Sizes are counted first.
        self.size.fill(0);
        let mut updates = 0u64;
        for row in 0..self.rows {
            let cells = self.opt_start[row]..self.opt_start[row + 1];
            if self.removed[row] {
                updates += u64::from(cells.end - cells.start) - 1;
                continue;
            }
            for z in cells {
                let k = self.cell_item[z as usize] as usize;
                let s = self.size[k];
                self.set[(self.set_start[k] + s) as usize] = z;
                self.cell_loc[z as usize] = s;
                self.size[k] = s + 1;
            }
        }
        // A taken item's set is never read again before the next rebuild;
        // empty, it cannot be mistaken for an open one.
        for (size, &taken) in self.size.iter_mut().zip(&self.taken) {
            if taken {
                *size = 0;
            }
        }
        // The active items: the open primary ones in item order, then the
        // taken ones.
        let mut open = 0;
        for i in 0..self.primary {
            if !self.taken[i as usize] {
                self.active[open as usize] = i;
                self.active_pos[i as usize] = open;
                open += 1;
            }
        }
        self.n_active = open;
        let mut p = open;
        for i in 0..self.primary {
            if self.taken[i as usize] {
                self.active[p as usize] = i;
                self.active_pos[i as usize] = p;
                p += 1;
            }
        }
        self.select_updates = updates;
        self.conflict = conflict;
        !conflict
    }

    /// Undoes every selection (and what a [`Dc::search_deferred`] left):
    /// the arena as [`Dc::new`] built it. One pass over the cells.
    pub fn reset(&mut self) {
        self.select_all(&[]);
        self.conflict = false;
    }

    /// Counts solutions up to `options.limit`.
    pub fn count(&mut self, options: SearchOptions) -> SearchStats {
        self.search(options, |_| ControlFlow::Continue(()))
    }

    /// Runs the search, calling `visit` with the rows of each solution
    /// (selected rows first, then the search's choices). The visitor may
    /// stop the search early with `ControlFlow::Break`. The arena holds the
    /// same rows in every item when this returns (selections kept), in an
    /// order the search may have changed.
    pub fn search<F>(&mut self, options: SearchOptions, visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        self.search_with::<false, F>(options, visit)
    }

    /// [`Dc::search`], except that the search stops as soon as nothing is
    /// left to try, leaving what the path it ended on covered; the arena
    /// undoes it ([`Dc::settle`]) only when it is used again, and
    /// [`Dc::select_all`] rebuilds the sets without undoing anything. The
    /// same statistics as [`Dc::search`], except for the mems of the
    /// backtracking left undone.
    pub fn search_deferred<F>(&mut self, options: SearchOptions, visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        self.search_with::<true, F>(options, visit)
    }

    /// Undoes what a [`Dc::search_deferred`] left covered, if anything.
    pub fn settle(&mut self) {
        let mut mems = 0;
        while self.pending > 0 {
            self.pending -= 1;
            let level = self.pending;
            let i = self.level_item[level];
            let x = self.set[(self.set_start[i as usize] + self.level_pos[level]) as usize];
            self.uncommit(x, &mut mems);
            self.uncover(i, &mut mems);
        }
    }

    fn search_with<const DEFER: bool, F>(
        &mut self,
        options: SearchOptions,
        mut visit: F,
    ) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        self.settle();
        let mut stats = SearchStats::default();
        if !self.conflict && options.limit > 0 {
            stats = match options.choice {
                ColumnChoice::MinimumRemaining => self.run::<TUNED, DEFER, F>(options, &mut visit),
                ColumnChoice::First => self.run::<FIRST, DEFER, F>(options, &mut visit),
                ColumnChoice::LowestIndex => self.run::<LOWEST, DEFER, F>(options, &mut visit),
                ColumnChoice::Knuth => self.run::<KNUTH, DEFER, F>(options, &mut visit),
            };
        } else {
            stats.mems = Some(0);
        }
        stats.updates += self.select_updates;
        stats
    }

    /// Algorithm X, iterative: `level` rows are committed at every point of
    /// the loop; `level_item[l]` is the item covered at level `l` and
    /// `level_pos[l]` the place in its set of the row tried.
    fn run<const CHOICE: u8, const DEFER: bool, F>(
        &mut self,
        options: SearchOptions,
        visit: &mut F,
    ) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut stats = SearchStats::default();
        let mut meter = Meter::start(options.budget);
        let mut mems = 0u64;
        let mut updates = 0u64;
        let mut level = 0usize;
        let mut descend = true;
        // With `DEFER`: the levels below `level` whose row had another
        // after it.
        let mut open = 0usize;
        // The level just tried found a solution: SSXC0 backs up from it
        // without rereading its choice.
        let mut solved = false;
        loop {
            let (i, t) = if descend {
                let i = self.choose::<CHOICE>(&mut mems);
                if i == NONE {
                    stats.solutions += 1;
                    let stop = self.report(level, visit).is_break();
                    if stop || stats.solutions >= options.limit {
                        break;
                    }
                    solved = true;
                    descend = false;
                    continue;
                }
                let len = self.size[i as usize];
                if len == 0 {
                    descend = false;
                    continue;
                }
                stats.guesses += u64::from(len > 1);
                updates += self.cover(i, &mut mems);
                self.level_item[level] = i;
                // SSXC0 takes the first row without a size check.
                mems -= 1;
                (i, 0)
            } else {
                if level == 0 {
                    break;
                }
                level -= 1;
                if DEFER {
                    let alternative = self.alternatives[level];
                    open -= usize::from(alternative);
                    if open == 0 && !alternative {
                        // Nothing left to try at any level: the rest would
                        // only undo. Leave it pending.
                        level += 1;
                        break;
                    }
                }
                let i = self.level_item[level];
                let t = self.level_pos[level];
                let x = self.set[(self.set_start[i as usize] + t) as usize];
                if !std::mem::take(&mut solved) {
                    mems += 2;
                }
                self.uncommit(x, &mut mems);
                (i, t + 1)
            };
            // Try the row at place `t` of item `i`'s set; past the end
            // means exhausted.
            let len = self.size[i as usize];
            mems += 1;
            if t >= len {
                self.uncover(i, &mut mems);
                descend = false;
                continue;
            }
            if meter.exhausted(stats.nodes) {
                self.uncover(i, &mut mems);
                stats.budget_exceeded = true;
                break;
            }
            stats.nodes += 1;
            if DEFER {
                let alternative = t + 1 < len;
                self.alternatives[level] = alternative;
                open += usize::from(alternative);
            }
            self.level_pos[level] = t;
            let x = self.set[(self.set_start[i as usize] + t) as usize];
            mems += 2;
            updates += self.commit(x, &mut mems);
            level += 1;
            descend = true;
        }
        if DEFER {
            self.pending = level;
            level = 0;
        }
        // Unwind whatever is still committed (early stop); not counted.
        let mut unwind = 0;
        while level > 0 {
            level -= 1;
            let i = self.level_item[level];
            let x = self.set[(self.set_start[i as usize] + self.level_pos[level]) as usize];
            self.uncommit(x, &mut unwind);
            self.uncover(i, &mut unwind);
        }
        stats.updates = updates;
        stats.mems = Some(mems);
        stats
    }

    #[cold]
    fn report<F>(&mut self, level: usize, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut rows = std::mem::take(&mut self.solution);
        rows.clear();
        rows.extend(self.selected.iter().map(|&r| r as usize));
        for l in 0..level {
            let i = self.level_item[l] as usize;
            let x = self.set[(self.set_start[i] + self.level_pos[l]) as usize];
            rows.push(self.cell_row[x as usize] as usize);
        }
        let flow = visit(&rows);
        self.solution = rows;
        flow
    }
}

impl Engine for Dc {
    const KIND: EngineKind = EngineKind::Dc;

    fn try_new(problem: &Problem) -> Result<Self, ProblemError> {
        Dc::try_new(problem)
    }

    fn rows(&self) -> usize {
        Dc::rows(self)
    }

    fn heap_bytes(&self) -> usize {
        Dc::heap_bytes(self)
    }

    fn select(&mut self, row: usize) -> bool {
        Dc::select(self, row)
    }

    fn select_rows(&mut self, rows: &[usize]) -> bool {
        Dc::select_rows(self, rows)
    }

    fn select_all(&mut self, rows: &[usize]) -> bool {
        Dc::select_all(self, rows)
    }

    fn reset(&mut self) {
        Dc::reset(self)
    }

    fn search<F>(&mut self, options: SearchOptions, visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        Dc::search(self, options, visit)
    }

    fn search_deferred<F>(&mut self, options: SearchOptions, visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        Dc::search_deferred(self, options, visit)
    }

    fn settle(&mut self) {
        Dc::settle(self)
    }

    fn count(&mut self, options: SearchOptions) -> SearchStats {
        Dc::count(self, options)
    }
}

#[cfg(test)]
mod tests;
