//! The dance itself: the arena's raw link operations (take a node out of
//! its column and put it back, hide and unhide a row, cover and uncover a
//! column, commit and uncommit a row), on base pointers, and why they stay
//! in bounds.
//!
//! [`Dlx`](super::Dlx) builds the arena and runs the search with them; see
//! its module for the layout.

// Duplicates (issue #42): the spacer walks of `hide`, `unhide` and `Dlx`'s row-length sum (dlx.rs)
// are alike on purpose: each on the search's hot path, inlined where it runs.

use super::scan::Scanner;

/// The links of one node of the arena. Its column (Knuth's `TOP`) is kept
/// in a parallel array (`Dlx::tops`): with 8-byte links a node's address is
/// one scaled index (`base + 8 * i`), where a 12-byte node costs an extra
/// instruction at every one of the dance's many node accesses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub(super) struct Node {
    pub(super) up: u32,
    pub(super) down: u32,
}

/// Set in a column's entry of `Dlx::lens` while the column is covered.
pub(super) const COVERED: u32 = 1 << 30;

/// The arena seen through its base pointers, for the dance itself.
///
/// Holding the pointers in a `Copy` value keeps them in registers: stores
/// through them cannot be mistaken for writes to the `Vec` headers in
/// [`Dlx`](super::Dlx), which would force a reload of the base pointers
/// after every store in the innermost loops.
///
/// Every index used comes from a link or column stored in the arena, or is
/// a column index `0..=N` (the scans read `lens` in whole groups into its
/// padding); [`Dlx::try_new`](super::Dlx::try_new) builds every link and
/// column inside `nodes` and `lens`, and the dance only ever stores values
/// it read from the arena. So all accesses are in bounds by construction
/// (checked in debug builds).
#[derive(Clone, Copy)]
pub(super) struct Links {
    pub(super) nodes: *mut Node,
    pub(super) tops: *const i32,
    /// `Dlx::lens`.
    pub(super) lens: *mut u32,
    pub(super) primary: u32,
    /// The first node of row 0 in the uniform layout (row `k` starts at
    /// `base + k * W`).
    pub(super) base: u32,
    /// How the column choice scans `lens`.
    pub(super) scanner: Scanner,
    #[cfg(debug_assertions)]
    pub(super) node_count: usize,
    #[cfg(debug_assertions)]
    pub(super) col_count: usize,
}

/// The top of the forced-column stack, kept in a register during a search.
pub(super) struct Forced {
    pub(super) buf: *mut u32,
    pub(super) len: usize,
}

// The accessors `node`, `top` and `len` are alike on purpose: one per
// array, each checking its own bound in debug builds only.
impl Links {
    #[inline(always)]
    pub(super) unsafe fn node(self, i: u32) -> *mut Node {
        #[cfg(debug_assertions)]
        assert!((i as usize) < self.node_count);
        self.nodes.add(i as usize)
    }

    /// The column of node `i` (see `Dlx::tops`).
    #[inline(always)]
    pub(super) unsafe fn top(self, i: u32) -> i32 {
        #[cfg(debug_assertions)]
        assert!((i as usize) < self.node_count);
        *self.tops.add(i as usize)
    }

    /// Column `c`'s entry of `Dlx::lens`.
    #[inline(always)]
    pub(super) unsafe fn len(self, c: u32) -> *mut u32 {
        #[cfg(debug_assertions)]
        assert!((c as usize) < self.col_count);
        self.lens.add(c as usize)
    }

    /// Marks column `c` covered.
    #[inline(always)]
    unsafe fn deactivate(self, c: u32) {
        *self.len(c) |= COVERED;
    }

    /// Undoes `deactivate(c)`.
    #[inline(always)]
    unsafe fn reactivate(self, c: u32) {
        *self.len(c) &= !COVERED;
    }

    /// Where node `p` sits in its row, and the row's first node, in the
    /// uniform layout with `W` nodes a row.
    #[inline(always)]
    fn row_slot<const W: usize>(self, p: u32) -> (u32, u32) {
        let pos = (p - self.base) % W as u32;
        (pos, p - pos)
    }

    /// The `j`-th other node (`1 <= j < W`) of `p`'s row in the uniform
    /// layout: `p ^ j` when `W` is a power of two (rows are aligned to `W`
    /// nodes); otherwise the node `j` places right of `p`, cyclically (a
    /// conditional move, not a branch). `slot` is `row_slot(p)`, which the
    /// power-of-two case does not need.
    #[inline(always)]
    pub(super) fn other<const W: usize>(p: u32, (k, start): (u32, u32), j: u32) -> u32 {
        if W.is_power_of_two() {
            return p ^ j;
        }
        let s = k + j;
        start + if s >= W as u32 { s - W as u32 } else { s }
    }

    /// `row_slot(p)`, computed only where [`Links::other`] needs it.
    #[inline(always)]
    pub(super) fn slot_of<const W: usize>(self, p: u32) -> (u32, u32) {
        if W.is_power_of_two() {
            (0, 0)
        } else {
            self.row_slot::<W>(p)
        }
    }

    /// Takes node `q` out of its column, and records the column on the
    /// forced stack when it drops to length 0 or 1. The stack entry is
    /// written unconditionally and kept by bumping the height by 0 or 1:
    /// whether a column becomes forced is data-dependent and mispredicts as
    /// a branch. (There is room: the stack holds one entry per node.)
    #[inline(always)]
    unsafe fn unlink(self, q: u32, forced: &mut Forced) {
        let Node { up, down } = *self.node(q);
        let top = self.top(q);
        (*self.node(up)).down = down;
        (*self.node(down)).up = up;
        let len = *self.len(top as u32) - 1;
        *self.len(top as u32) = len;
        // Secondary columns carry their flag, so only primary ones count.
        *forced.buf.add(forced.len) = top as u32;
        forced.len += usize::from(len <= 1);
    }

    /// Puts node `q` back into its column (undoes [`Links::unlink`]).
    #[inline(always)]
    unsafe fn relink(self, q: u32) {
        let Node { up, down } = *self.node(q);
        let top = self.top(q);
        (*self.node(up)).down = q;
        (*self.node(down)).up = q;
        *self.len(top as u32) += 1;
    }

    /// Removes the other nodes of `p`'s row from their columns, left to
    /// right starting after `p`; returns how many it removed.
    ///
    /// `W == 0` walks any row by its spacers; `W > 0` requires every row to
    /// have `W` nodes and walks by arithmetic, without the spacer test that
    /// the branch predictor cannot learn (where `p` sits in its row varies).
    #[inline(always)]
    unsafe fn hide<const W: usize>(self, p: u32, forced: &mut Forced) -> u64 {
        if W > 0 {
            let slot = self.slot_of::<W>(p);
            for j in 1..W as u32 {
                self.unlink(Self::other::<W>(p, slot, j), forced);
            }
            return W as u64 - 1;
        }
        let mut removed = 0;
        let mut q = p + 1;
        while q != p {
            let (up, top) = ((*self.node(q)).up, self.top(q));
            if top <= 0 {
                q = up;
            } else {
                self.unlink(q, forced);
                removed += 1;
                q += 1;
            }
        }
        removed
    }

    /// Undoes `hide(p)`, in reverse order.
    #[inline(always)]
    unsafe fn unhide<const W: usize>(self, p: u32) {
        if W > 0 {
            let slot = self.slot_of::<W>(p);
            for j in (1..W as u32).rev() {
                self.relink(Self::other::<W>(p, slot, j));
            }
            return;
        }
        let mut q = p - 1;
        while q != p {
            let (down, top) = ((*self.node(q)).down, self.top(q));
            if top <= 0 {
                q = down;
            } else {
                self.relink(q);
                q -= 1;
            }
        }
    }

    /// Marks column `c` covered and removes every row that meets it from the
    /// other columns; returns the number of link updates.
    #[inline(always)]
    pub(super) unsafe fn cover<const W: usize>(self, c: u32, forced: &mut Forced) -> u64 {
        let mut removed = 0;
        let mut p = (*self.node(c)).down;
        while p != c {
            // The next row first: hiding `p` leaves its links in this column
            // alone, but the compiler cannot know that the stores miss them.
            let next = (*self.node(p)).down;
            removed += self.hide::<W>(p, forced);
            p = next;
        }
        self.deactivate(c);
        removed
    }

    /// Undoes `cover(c)`.
    #[inline(always)]
    pub(super) unsafe fn uncover<const W: usize>(self, c: u32) {
        let mut p = (*self.node(c)).up;
        self.reactivate(c);
        while p != c {
            let next = (*self.node(p)).up;
            self.unhide::<W>(p);
            p = next;
        }
    }

    /// Covers the columns of `p`'s row other than `p`'s own, left to right.
    #[inline(always)]
    pub(super) unsafe fn commit<const W: usize>(self, p: u32, forced: &mut Forced) -> u64 {
        let mut removed = 0;
        if W > 0 {
            // The columns first (see `cover` on reads before stores).
            let slot = self.slot_of::<W>(p);
            let mut cols = [0; W];
            for (j, col) in cols.iter_mut().enumerate().skip(1) {
                *col = self.top(Self::other::<W>(p, slot, j as u32)) as u32;
            }
            for &c in &cols[1..] {
                removed += self.cover::<W>(c, forced);
            }
            return removed;
        }
        let mut q = p + 1;
        while q != p {
            let (up, top) = ((*self.node(q)).up, self.top(q));
            if top <= 0 {
                q = up;
            } else {
                removed += self.cover::<W>(top as u32, forced);
                q += 1;
            }
        }
        removed
    }

    /// Undoes `commit(p)`, right to left.
    #[inline(always)]
    pub(super) unsafe fn uncommit<const W: usize>(self, p: u32) {
        if W > 0 {
            let slot = self.slot_of::<W>(p);
            let mut cols = [0; W];
            for (j, col) in cols.iter_mut().enumerate().skip(1) {
                *col = self.top(Self::other::<W>(p, slot, j as u32)) as u32;
            }
            for &c in cols[1..].iter().rev() {
                self.uncover::<W>(c);
            }
            return;
        }
        let mut q = p - 1;
        while q != p {
            let (down, top) = ((*self.node(q)).down, self.top(q));
            if top <= 0 {
                q = down;
            } else {
                self.uncover::<W>(top as u32);
                q -= 1;
            }
        }
    }
}
