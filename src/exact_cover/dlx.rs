//! The Dancing Links arena and Algorithm X search.
//!
//! # Layout
//!
//! The arena follows Knuth's DLX1 (TAOCP 7.2.2.1): one contiguous array of
//! [`NODE_BYTES`]-byte nodes with `u32` links, and a separate array of column
//! headers for the horizontal (left/right) list of active columns.
//!
//! * Node `0` is unused; nodes `1..=N` are the column headers, whose `top`
//!   field holds the column's current length.
//! * Then, for every row, a **spacer** node followed by the row's nodes, and
//!   one final spacer. Rows are contiguous, so a row's neighbours need no
//!   left/right links: walking right is `p + 1`, and reaching a spacer jumps
//!   back to the row's first node (the spacer's `up` link); walking left
//!   reaches the previous spacer, whose `down` link points at the last node.
//! * A spacer's `top` is `-k` where `k` is the number of rows before it, so
//!   `top <= 0` marks a spacer and the row of any node is found by walking to
//!   the next spacer.
//!
//! For a 9x9 Sudoku (729 rows, 4 columns each, 324 columns) that is
//! `1 + 324 + 730 + 2916 = 3971` nodes, 47,652 bytes, plus 326 column headers
//! of 8 bytes.
//!
//! # Cost measures
//!
//! [`SearchStats::nodes`] counts rows tried (nodes of the search tree below
//! the root) and [`SearchStats::updates`] counts every removal of a node from a
//! column list, as Knuth's programs report them. Both are independent of the
//! machine and are what a regression gate can compare exactly.

use std::ops::ControlFlow;

use super::Problem;

/// One node of the arena. `top` is the column of an ordinary node, the length
/// of a column header, or minus the row count for a spacer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
struct Node {
    up: u32,
    down: u32,
    top: i32,
}

/// Size in bytes of one arena node.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// A column header's place in the horizontal list of active columns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
struct Item {
    left: u32,
    right: u32,
}

/// How the search picks the column to branch on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ColumnChoice {
    /// The active primary column with the fewest rows (Knuth's "S
    /// heuristic", minimum remaining values), stopping the scan at a column
    /// of length 0 or 1, which cannot be beaten.
    #[default]
    MinimumRemaining,
    /// The first active primary column, for comparison.
    First,
}

/// Limits and strategy for one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Stop after this many solutions. `u64::MAX` means all of them.
    pub limit: u64,
    /// Stop (and report [`SearchStats::budget_exceeded`]) rather than try more
    /// than this many rows. `u64::MAX` means no budget.
    pub max_nodes: u64,
    /// Column choice.
    pub choice: ColumnChoice,
}

impl Default for SearchOptions {
    /// All solutions, no budget, minimum-remaining-values choice.
    fn default() -> Self {
        SearchOptions {
            limit: u64::MAX,
            max_nodes: u64::MAX,
            choice: ColumnChoice::MinimumRemaining,
        }
    }
}

impl SearchOptions {
    /// Options that stop after `limit` solutions.
    pub fn with_limit(limit: u64) -> Self {
        SearchOptions {
            limit,
            ..SearchOptions::default()
        }
    }
}

/// What a search found and what it cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Solutions found (at most the limit).
    pub solutions: u64,
    /// Rows tried by the search (search-tree nodes below the root).
    pub nodes: u64,
    /// Branch points: columns chosen that had more than one row.
    pub guesses: u64,
    /// Link updates: nodes removed from column lists, preselection included.
    pub updates: u64,
    /// The search stopped because it would have tried more than
    /// [`SearchOptions::max_nodes`] rows; the count is then a lower bound.
    pub budget_exceeded: bool,
}

/// A Dancing Links arena built once from a [`Problem`] and reused.
///
/// Preselected rows ([`Dlx::select`]) stay in force across searches until
/// [`Dlx::reset`]; every search leaves the arena exactly as it found it.
///
/// ```
/// use dlxbench::exact_cover::{Dlx, Problem, SearchOptions};
///
/// let mut p = Problem::new(2, 0);
/// p.add_row(&[0]).unwrap();
/// p.add_row(&[1]).unwrap();
/// p.add_row(&[0, 1]).unwrap();
/// let mut dlx = Dlx::new(&p);
/// assert_eq!(dlx.count(SearchOptions::default()).solutions, 2);
/// assert!(dlx.select(0));
/// assert_eq!(dlx.count(SearchOptions::default()).solutions, 1);
/// assert!(!dlx.select(2), "row 2 clashes with row 0");
/// dlx.reset();
/// assert_eq!(dlx.count(SearchOptions::default()).solutions, 2);
/// ```
#[derive(Debug, Clone)]
pub struct Dlx {
    nodes: Vec<Node>,
    items: Vec<Item>,
    /// Number of columns `N`; headers are nodes `1..=N`.
    columns: u32,
    /// `spacers[k]` is the spacer before row `k`; `spacers[rows]` the last.
    spacers: Vec<u32>,
    /// The row chosen at each search level (a node index).
    choices: Vec<u32>,
    /// Rows selected with [`Dlx::select`], in order.
    selected: Vec<u32>,
    /// Scratch for reporting a solution's rows to the visitor.
    solution: Vec<usize>,
    /// Link updates made by selections since the last reset.
    select_updates: u64,
    /// Updates counter, bumped by `hide`.
    updates: u64,
    /// True once a selection clashed: no solution until reset.
    conflict: bool,
}

/// Two arenas are equal when their links, lengths and selections are: the
/// scratch buffers and counters of the last search do not count.
impl PartialEq for Dlx {
    fn eq(&self, other: &Self) -> bool {
        self.nodes == other.nodes
            && self.items == other.items
            && self.spacers == other.spacers
            && self.selected == other.selected
            && self.conflict == other.conflict
    }
}

impl Eq for Dlx {}

impl Dlx {
    /// Builds the arena. This is the only allocation the arena ever makes.
    ///
    /// # Panics
    /// If the problem needs more than `i32::MAX` nodes (use
    /// [`Dlx::try_new`] to get an error instead).
    pub fn new(problem: &Problem) -> Self {
        match Self::try_new(problem) {
            Ok(dlx) => dlx,
            Err(e) => panic!("{e}"),
        }
    }

    /// Builds the arena, or reports that the problem is too large.
    pub fn try_new(problem: &Problem) -> Result<Self, super::ProblemError> {
        let n = problem.columns();
        let rows = problem.rows();
        let total = 1 + n + (rows + 1) + problem.entries();
        if total > i32::MAX as usize {
            return Err(super::ProblemError::TooLarge { nodes: total });
        }
        let mut nodes = vec![Node::default(); total];
        for (c, node) in nodes.iter_mut().enumerate().take(n + 1).skip(1) {
            *node = Node {
                up: c as u32,
                down: c as u32,
                top: 0,
            };
        }
        let mut spacers = Vec::with_capacity(rows + 1);
        let mut p = n + 1;
        // The first spacer: `up` unused, `down` set when its row is laid out.
        let mut last_spacer = p;
        nodes[p].top = 0;
        spacers.push(p as u32);
        for k in 0..rows {
            let first = p + 1;
            for c in problem.row(k) {
                p += 1;
                let header = c + 1;
                let tail = nodes[header].up as usize;
                nodes[p] = Node {
                    up: tail as u32,
                    down: header as u32,
                    top: header as i32,
                };
                nodes[tail].down = p as u32;
                nodes[header].up = p as u32;
                nodes[header].top += 1;
            }
            nodes[last_spacer].down = p as u32;
            p += 1;
            nodes[p] = Node {
                up: first as u32,
                down: 0,
                top: -((k + 1) as i32),
            };
            last_spacer = p;
            spacers.push(p as u32);
        }
        debug_assert_eq!(p + 1, total);

        // Two circular lists of active columns: primary from item 0, secondary
        // from item N + 1 (never seen by column choice).
        let mut items = vec![Item::default(); n + 2];
        let primary = problem.primary();
        let link = |items: &mut Vec<Item>, head: usize, range: std::ops::Range<usize>| {
            let mut prev = head;
            for i in range {
                items[prev].right = i as u32;
                items[i].left = prev as u32;
                prev = i;
            }
            items[prev].right = head as u32;
            items[head].left = prev as u32;
        };
        link(&mut items, 0, 1..primary + 1);
        link(&mut items, n + 1, primary + 1..n + 1);

        Ok(Dlx {
            nodes,
            items,
            columns: n as u32,
            spacers,
            choices: vec![0; primary + 1],
            selected: Vec::with_capacity(primary),
            solution: Vec::with_capacity(primary + 1),
            select_updates: 0,
            updates: 0,
            conflict: false,
        })
    }

    /// Number of rows of the problem.
    pub fn rows(&self) -> usize {
        self.spacers.len() - 1
    }

    /// Number of arena nodes (headers, spacers and 1s).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held by the arena's node and header arrays.
    pub fn arena_bytes(&self) -> usize {
        self.nodes.len() * NODE_BYTES + self.items.len() * std::mem::size_of::<Item>()
    }

    /// Rows selected since the last reset, in order.
    pub fn selected(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.selected.iter().map(|&s| self.row_of_spacer(s))
    }

    // --- raw access --------------------------------------------------------
    //
    // Every index below comes from a link stored in the arena or from a
    // header index `1..=N`, and `try_new` builds all links to point inside
    // `nodes` / `items`; the search only ever writes values it read from the
    // arena. So the indices are in bounds by construction, and the hot loops
    // skip the bounds checks (checked in debug builds).

    #[inline(always)]
    fn node(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: see the note above: arena links are always in bounds.
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len());
        // SAFETY: as for `node`.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn item(&self, i: u32) -> &Item {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: item indices are 0..=N+1, the length of `items`.
        unsafe { self.items.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn item_mut(&mut self, i: u32) -> &mut Item {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: as for `item`.
        unsafe { self.items.get_unchecked_mut(i as usize) }
    }

    // --- the dance ---------------------------------------------------------

    /// Removes the other nodes of `p`'s row from their columns.
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { up, down, top } = *self.node(q);
            if top <= 0 {
                q = up;
            } else {
                self.node_mut(up).down = down;
                self.node_mut(down).up = up;
                self.node_mut(top as u32).top -= 1;
                self.updates += 1;
                q += 1;
            }
        }
    }

    /// Undoes `hide(p)`, in reverse order.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { up, down, top } = *self.node(q);
            if top <= 0 {
                q = down;
            } else {
                self.node_mut(up).down = q;
                self.node_mut(down).up = q;
                self.node_mut(top as u32).top += 1;
                q -= 1;
            }
        }
    }

    /// Removes column `c` from the active list and every row that meets it.
    #[inline(always)]
    fn cover(&mut self, c: u32) {
        let mut p = self.node(c).down;
        while p != c {
            self.hide(p);
            p = self.node(p).down;
        }
        let Item { left, right } = *self.item(c);
        self.item_mut(left).right = right;
        self.item_mut(right).left = left;
    }

    /// Undoes `cover(c)`.
    #[inline(always)]
    fn uncover(&mut self, c: u32) {
        let Item { left, right } = *self.item(c);
        self.item_mut(left).right = c;
        self.item_mut(right).left = c;
        let mut p = self.node(c).up;
        while p != c {
            self.unhide(p);
            p = self.node(p).up;
        }
    }

    /// Covers the columns of `p`'s row other than `p`'s own, left to right.
    #[inline(always)]
    fn commit(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { up, top, .. } = *self.node(q);
            if top <= 0 {
                q = up;
            } else {
                self.cover(top as u32);
                q += 1;
            }
        }
    }

    /// Undoes `commit(p)`, right to left.
    #[inline(always)]
    fn uncommit(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { down, top, .. } = *self.node(q);
            if top <= 0 {
                q = down;
            } else {
                self.uncover(top as u32);
                q -= 1;
            }
        }
    }

    #[inline(always)]
    fn is_active(&self, c: u32) -> bool {
        // A covered column's neighbours were relinked past it, and while it is
        // out no list operation can point them back at it; so its left
        // neighbour's right link is itself exactly while it is in the list.
        self.item(self.item(c).left).right == c
    }

    /// The row that node `p` belongs to.
    fn row_of(&self, mut p: u32) -> usize {
        while self.node(p).top > 0 {
            p += 1;
        }
        (-self.node(p).top - 1) as usize
    }

    /// The row that starts after spacer `s`.
    fn row_of_spacer(&self, s: u32) -> usize {
        (-self.node(s).top) as usize
    }

    // --- public operations -------------------------------------------------

    /// Preselects row `row` (for instance a Sudoku clue): its columns are
    /// covered before any search, as if the search had chosen it.
    ///
    /// Returns `false`, selecting nothing, when the row clashes with an
    /// earlier selection; every later search then finds no solution until
    /// [`Dlx::reset`].
    ///
    /// # Panics
    /// If `row >= self.rows()`.
    pub fn select(&mut self, row: usize) -> bool {
        assert!(row < self.rows(), "row {row} out of range");
        let spacer = self.spacers[row];
        let end = self.spacers[row + 1];
        let clash = (spacer + 1..end).any(|q| !self.is_active(self.node(q).top as u32));
        if clash {
            self.conflict = true;
            return false;
        }
        let before = self.updates;
        for q in spacer + 1..end {
            self.cover(self.node(q).top as u32);
        }
        self.select_updates += self.updates - before;
        self.selected.push(spacer);
        true
    }

    /// Undoes every selection, returning the arena to the state
    /// [`Dlx::new`] built. Costs time proportional to what the selections
    /// covered, not to the arena's size.
    pub fn reset(&mut self) {
        while let Some(spacer) = self.selected.pop() {
            let end = self.spacers[self.row_of_spacer(spacer) + 1];
            for q in (spacer + 1..end).rev() {
                self.uncover(self.node(q).top as u32);
            }
        }
        self.conflict = false;
        self.select_updates = 0;
        self.updates = 0;
    }

    /// Counts solutions up to `options.limit`.
    pub fn count(&mut self, options: SearchOptions) -> SearchStats {
        self.search(options, |_| ControlFlow::Continue(()))
    }

    /// Runs the search, calling `visit` with the rows of each solution
    /// (selected rows first, then the search's choices). The visitor may stop
    /// the search early with `ControlFlow::Break`. The arena is back in its
    /// pre-search state (selections kept) when this returns.
    pub fn search<F>(&mut self, options: SearchOptions, mut visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        self.updates = 0;
        let mut stats = SearchStats::default();
        if !self.conflict && options.limit > 0 {
            stats = match options.choice {
                ColumnChoice::MinimumRemaining => self.run::<true, F>(options, &mut visit),
                ColumnChoice::First => self.run::<false, F>(options, &mut visit),
            };
        }
        stats.updates = self.select_updates + self.updates;
        stats
    }

    /// Picks the column to branch on; `None` when no primary column is left.
    #[inline(always)]
    fn choose<const MRV: bool>(&self) -> u32 {
        let first = self.item(0).right;
        if !MRV {
            return first;
        }
        let mut best = first;
        let mut best_len = self.node(first).top;
        let mut c = self.item(first).right;
        while best_len > 1 && c != 0 {
            let len = self.node(c).top;
            if len < best_len {
                best = c;
                best_len = len;
            }
            c = self.item(c).right;
        }
        best
    }

    /// Algorithm X, iterative. `level` rows are committed at every point of
    /// the loop; `choices[l]` is the row tried at level `l`.
    fn run<const MRV: bool, F>(&mut self, options: SearchOptions, visit: &mut F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut stats = SearchStats::default();
        let mut level = 0usize;
        let mut descend = true;
        loop {
            let p = if descend {
                if self.item(0).right == 0 {
                    stats.solutions += 1;
                    let stop = self.report(level, visit).is_break();
                    if stop || stats.solutions >= options.limit {
                        break;
                    }
                    descend = false;
                    continue;
                }
                let c = self.choose::<MRV>();
                let len = self.node(c).top;
                if len == 0 {
                    descend = false;
                    continue;
                }
                stats.guesses += u64::from(len > 1);
                self.cover(c);
                self.node(c).down
            } else {
                if level == 0 {
                    break;
                }
                level -= 1;
                // SAFETY: `level` < depth reached, and depth <= primary
                // columns < `choices.len()`, as each level covers one.
                let p = unsafe { *self.choices.get_unchecked(level) };
                self.uncommit(p);
                self.node(p).down
            };
            // Try row `p` of column `c`; back at the header means exhausted.
            if p <= self.columns {
                self.uncover(p);
                descend = false;
                continue;
            }
            if stats.nodes == options.max_nodes {
                self.uncover(self.node(p).top as u32);
                stats.budget_exceeded = true;
                break;
            }
            stats.nodes += 1;
            // SAFETY: as above.
            unsafe { *self.choices.get_unchecked_mut(level) = p };
            self.commit(p);
            level += 1;
            descend = true;
        }
        // Unwind whatever is still committed (early stop).
        while level > 0 {
            level -= 1;
            let p = self.choices[level];
            self.uncommit(p);
            self.uncover(self.node(p).top as u32);
        }
        stats
    }

    #[cold]
    fn report<F>(&mut self, level: usize, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut rows = std::mem::take(&mut self.solution);
        rows.clear();
        rows.extend(self.selected.iter().map(|&s| self.row_of_spacer(s)));
        rows.extend(self.choices[..level].iter().map(|&p| self.row_of(p)));
        let flow = visit(&rows);
        self.solution = rows;
        flow
    }
}
