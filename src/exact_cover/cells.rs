//! Dancing cells: Algorithm X on sparse sets, after Knuth's SSXC.
//!
//! Knuth wrote SSXC (2023) "as an experiment in the use of so-called
//! sparse-set data structures instead of the dancing links structures";
//! the sparse set is Briggs and Torczon's (ACM LOPLAS 2, 1993). This is an
//! independent implementation of that idea on this crate's [`Problem`],
//! with the same API as [`Dlx`](super::Dlx) ([`Engine`](super::Engine)).
//!
//! # Layout
//!
//! * **Cells**: one per 1 of the matrix, numbered in row order, so a row's
//!   cells are consecutive (`opt_start[k]..opt_start[k + 1]`). Each cell
//!   is 8 bytes, its item (column) and its *slot*, where it sits in the
//!   one array of the items' sets (not counted from its item's first
//!   slot, so a removal adds no offset), side by side since every removal
//!   reads both; its row is in a separate array, read only to walk a row
//!   of varying width and to report a solution.
//! * **Item sets**: item `i` owns the slots from `start[i]` up to the next
//!   item's start in one array `set`; the first `size[i]` of them are the
//!   cells of the rows still available in that item, in no particular
//!   order. Removing a cell swaps it with the last of the set and shrinks
//!   the size; putting it back is growing the size again (the cell is
//!   still there, just past the end), provided removals are undone in
//!   reverse order, as backtracking does. No links, no writes to undo.
//! * **Active items**: the open primary items are a sparse set too:
//!   `active[..n_active]`, with each item's place in `active_pos`.
//!   Covering an item swaps it out; uncovering grows the count back. A
//!   covered primary item's `size` also carries a flag bit, which makes it
//!   larger than any open item's.
//! * **Uniform rows**: when every row has the same number `W` of cells (2
//!   to 8: Sudoku and N-queens have 4, Langford pairs 3, pentominoes 6),
//!   row `k` is the cells `k * W..(k + 1) * W` and the walk around a row is
//!   arithmetic on the cell index, compiled for each `W`: no look-up of the
//!   row's bounds and a loop of known length. (Unlike `Dlx`'s, the walk
//!   keeps Knuth's cyclic order from the cell, which the mems and
//!   `ColumnChoice::Knuth`'s tree depend on.)
//!
//! # Tuning
//!
//! The search indexes its arrays without bounds checks, on the invariants
//! listed on [`Dc`] (debug builds check every index). The mems are counted
//! in a local counter, a whole row's worth at once (`1 + 8 (W - 1)` to
//! hide a row). The column choice is the costly part: Knuth's walk through
//! the active list reads each item's size through its entry, a dependent
//! load per item; `Dc` reads instead the dense array of sizes, where the
//! flag excludes covered items, in two branch-free passes the compiler
//! vectorises, and derives from them the item and the mems the walk would
//! have found (see `Dc::choose`); the passes are compiled for AVX2 as
//! well, and used when the processor has it (SSE2 has no unsigned 32-bit
//! minimum). The dense passes execute more instructions than the walk,
//! which stops early at an empty item, but no chain of dependent loads and
//! no branch to mispredict: they are faster. In cachegrind's count on
//! top1465 (the Sudoku solver's loop, [`ColumnChoice::LowestIndex`]):
//! 4.15 billion instructions untuned, 1.84 after the packing, unchecked
//! indexing, uniform-row walk and a branch-free walk of the active list
//! eight items at a time, 2.18 with the dense passes in SSE2, 1.30 with
//! them in AVX2 (`Dlx`: 2.59 in the same tree); the time went from 1.9
//! times `Dlx`'s in the same tree to about 0.8-0.9 on top1465 and
//! 1.0-1.2 on the 17-clue list (figures in `docs/benchmarks.md`).
//! [`Dc::select_all`] is one pass over the rows (a row that meets a taken
//! item is skipped as soon as it is seen), a third of the time on the
//! 17-clue puzzles, which need little search.
//!
//! Under the forced choice (below), the scans are explicit AVX2 (the
//! compiler's vectorisation of them built a mask entry by entry), a
//! removal pushes short items without checking that they are primary (the
//! reader skips the others), and a row of a power-of-two width wraps with
//! a mask: 415 million instructions in this module on the first 300 of
//! top1465 became 318 (cachegrind of `bench -j1`). Then (#43, second
//! round) 285: a cell holds its absolute slot (one add fewer a removal);
//! a cover counts its rows' mems after the loop over them, which is short
//! of registers (a running count there was spilled to the stack and
//! reloaded at every row); and `Dc::rebuild` reads whether a uniform row
//! meets a taken item from all its cells without a branch each. Tried
//! and not kept: the forced stack as a moving pointer instead of a base
//! and a height (one register fewer in the removal loop, but a `setb` and
//! an `lea` where `cmp`, `adc` bumps the height: 3% more instructions in
//! `Dc::run`).
//!
//! The default choice ([`ColumnChoice::MinimumRemaining`]) is
//! [`ColumnChoice::Forced`], the one `Dlx` makes alike: `Dlx`'s stack of
//! forced items (each removal that leaves an item one row or none pushes
//! it, without a branch), read back to where the level above began, and
//! at a branch point `Dlx`'s tie-break: among the first 16 tied items in
//! index order, the one whose furthest-reaching row reaches furthest
//! (`Dc::widest`). Before it, the default read the dense array of sizes
//! at every node (the fewest rows, the lowest index among them, the same
//! tie-break), two passes where the stack reads a few entries (figures in
//! `docs/benchmarks.md`). Ties to the lowest index alone (the tree of
//! [`ColumnChoice::LowestIndex`]) made twelve times `Dlx`'s nodes on 25x25
//! puzzles with many solutions. Stopping at the first item with one row
//! instead, as this engine did at first, reads fewer items but takes a
//! forced move where a dead end is waiting: on top1465 that made 927 nodes
//! a puzzle in the list's order and 822 with ties to the lowest index,
//! against 647; once the choice reads the dense array, stopping early
//! saves nothing.
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

// Duplicates (issue #42): the signatures and unwinds alike in `Dlx` (dlx.rs) are deliberate: the
// same `Engine` trait, each engine's own hot loop, kept separate so that each inlines its own
// arena's code (no sharing without an `ab` run that shows no loss). So are the scans' AVX2/plain
// dispatchers (`first_place`, `ties`, ...): one small inlined function per scan.

use std::ops::ControlFlow;

use crate::budget::Meter;

use super::engine::{ColumnChoice, Engine, EngineKind, SearchOptions, SearchStats, Visit};
use super::{Problem, ProblemError};

/// Returned by the choice when every primary item is covered.
const NONE: u32 = u32::MAX;

/// `Dc::run`'s column choices (see [`ColumnChoice`]).
const FIRST: u8 = 1;
const LOWEST: u8 = 2;
const KNUTH: u8 = 3;
const FORCED: u8 = 4;

/// The largest problem the arena takes: cell and slot indices are `u32`.
const MAX_CELLS: usize = (1 << 31) - 1;

/// The widest uniform rows that get their own compiled walk (see
/// [`dc_width!`]).
const MAX_UNIFORM_WIDTH: usize = 8;

/// `slice[index]` without the bounds check, for the search's hot path.
///
/// Every use is in range by one of the invariants listed on [`Dc`], which
/// [`Dc::try_new`] establishes and every operation keeps; the call sites
/// name the invariant they rely on. Debug builds check each index.
macro_rules! at {
    ($slice:expr, $index:expr) => {{
        let index = $index as usize;
        let slice = &$slice[..];
        debug_assert!(index < slice.len(), "index {index} of {}", slice.len());
        // SAFETY: `index < slice.len()` by the invariant the call site
        // names (one of those documented on `Dc`); checked in debug builds.
        unsafe { *slice.get_unchecked(index) }
    }};
}

/// `&mut slice[index]` without the bounds check; see [`at!`].
macro_rules! at_mut {
    ($slice:expr, $index:expr) => {{
        let index = $index as usize;
        let slice = &mut $slice[..];
        debug_assert!(index < slice.len(), "index {index} of {}", slice.len());
        // SAFETY: `index < slice.len()` by the invariant the call site
        // names (one of those documented on `Dc`); checked in debug builds.
        unsafe { slice.get_unchecked_mut(index) }
    }};
}

/// Runs `$body` with `$W` a constant: the rows' common width when it is
/// 2 to [`MAX_UNIFORM_WIDTH`], else 0 (rows of any width).
macro_rules! dc_width {
    ($width:expr, $W:ident => $body:expr) => {
        match $width {
            2 => {
                const $W: u32 = 2;
                $body
            }
            3 => {
                const $W: u32 = 3;
                $body
            }
            4 => {
                const $W: u32 = 4;
                $body
            }
            5 => {
                const $W: u32 = 5;
                $body
            }
            6 => {
                const $W: u32 = 6;
                $body
            }
            7 => {
                const $W: u32 = 7;
                $body
            }
            8 => {
                const $W: u32 = 8;
                $body
            }
            _ => {
                const $W: u32 = 0;
                $body
            }
        }
    };
}

/// A cell: its item and its slot in `Dc::set` (a place in the item's
/// set, counted from the set's first slot of `set`, not from the item's:
/// a removal then adds no offset), side by side since every removal reads
/// both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
struct Cell {
    item: u32,
    slot: u32,
}

/// The forced-item stack of a search ([`ColumnChoice::Forced`]): the
/// items whose sets a removal left with one cell or none, pushed without
/// a branch (secondary items too, which the reader skips). `on` is a constant of the search (the other choices do not
/// read the stack), so that the pushes compile away when it is false.
struct Forced {
    buf: *mut u32,
    len: usize,
    on: bool,
    /// The buffer's length, to check pushes in debug builds.
    #[cfg(debug_assertions)]
    cap: usize,
}

impl Forced {
    /// No stack: what a selection outside a search covers with.
    fn off() -> Self {
        Forced {
            buf: std::ptr::null_mut(),
            len: 0,
            on: false,
            #[cfg(debug_assertions)]
            cap: 0,
        }
    }
}

/// How many tied items the default choice weighs at a branch point (as
/// `Dlx`'s does: the rest are not worth their reads).
const TIE_LIMIT: u32 = 16;

/// The flag of a covered primary item's size ([`Dc::size`]): larger than
/// any size, so that the least entry is the open item with the fewest rows.
const COVERED: u32 = 1 << 31;

/// The least of `sizes`.
#[inline(always)]
fn least_plain(sizes: &[u32]) -> u32 {
    let mut m = u32::MAX;
    for &s in sizes {
        m = m.min(s);
    }
    m
}

/// The least of `places` whose entry of `sizes` is `m`.
#[inline(always)]
fn first_place_plain(sizes: &[u32], places: &[u32], m: u32) -> u32 {
    let mut first = u32::MAX;
    for (&s, &p) in sizes.iter().zip(places) {
        first = first.min(if s == m { p } else { u32::MAX });
    }
    first
}

/// [`least_plain`] compiled for AVX2 (`vpminud`: eight entries an
/// instruction, where SSE2 has no unsigned minimum to vectorise with).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn least_avx2(sizes: &[u32]) -> u32 {
    least_plain(sizes)
}

/// [`first_place_plain`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn first_place_avx2(sizes: &[u32], places: &[u32], m: u32) -> u32 {
    first_place_plain(sizes, places, m)
}

/// The least of `sizes`, with AVX2 when `avx2` (which [`Dc::try_new`]
/// sets only when the processor has it).
// This and the dispatchers below (`first_place`, `ties`, `first_index`)
// share their shape on purpose: each is inlined into the hot loop, one
// call to its own AVX2 or plain body.
#[inline(always)]
fn least(avx2: bool, sizes: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only when the processor runs AVX2
        // (`is_x86_feature_detected!` in `Dc::try_new`).
        return unsafe { least_avx2(sizes) };
    }
    let _ = avx2;
    least_plain(sizes)
}

/// The least of `places` whose size is `m`, with AVX2 when `avx2`.
#[inline(always)]
fn first_place(avx2: bool, sizes: &[u32], places: &[u32], m: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: as in `least`.
        return unsafe { first_place_avx2(sizes, places, m) };
    }
    let _ = avx2;
    first_place_plain(sizes, places, m)
}

/// The index of the first entry of `sizes` at most `m`, or `sizes.len()`:
/// one branch for each 16 entries (a mask the compiler vectorises), not
/// one for each entry.
#[inline(always)]
fn first_index_plain(sizes: &[u32], m: u32) -> usize {
    let mut base = 0;
    for chunk in sizes.chunks(16) {
        let mut mask = 0u32;
        for (i, &s) in chunk.iter().enumerate() {
            mask |= u32::from(s <= m) << i;
        }
        if mask != 0 {
            return base + mask.trailing_zeros() as usize;
        }
        base += chunk.len();
    }
    sizes.len()
}

/// [`first_index_plain`] in AVX2: `s <= m` is `min(s, m) == s`
/// (`vpminud`, `vpcmpeqd`), 32 entries a branch. The compiler's
/// vectorisation of the plain loop built the mask entry by entry: this
/// executes about a fifth of its instructions (cachegrind on top1465).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn first_index_avx2(sizes: &[u32], m: u32) -> usize {
    use std::arch::x86_64::{
        __m256i, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_min_epu32,
        _mm256_movemask_ps, _mm256_or_si256, _mm256_set1_epi32, _mm256_testz_si256,
    };
    let n = sizes.len();
    let p = sizes.as_ptr();
    let mv = _mm256_set1_epi32(m as i32);
    // The lanes of the 8 entries from `j` that are at most `m`; `j + 8 <= n`.
    let at_most = |j: usize| {
        // SAFETY: `j + 8 <= n`: eight entries of `sizes`, read unaligned.
        let v = unsafe { _mm256_loadu_si256(p.add(j).cast::<__m256i>()) };
        _mm256_cmpeq_epi32(_mm256_min_epu32(v, mv), v)
    };
    let bits = |e: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(e)) as u32;
    let mut j = 0;
    while j + 32 <= n {
        let (a, b, c, d) = (at_most(j), at_most(j + 8), at_most(j + 16), at_most(j + 24));
        let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if _mm256_testz_si256(any, any) == 0 {
            let mask = bits(a) | bits(b) << 8 | bits(c) << 16 | bits(d) << 24;
            return j + mask.trailing_zeros() as usize;
        }
        j += 32;
    }
    while j + 8 <= n {
        let mask = bits(at_most(j));
        if mask != 0 {
            return j + mask.trailing_zeros() as usize;
        }
        j += 8;
    }
    j + first_index_plain(&sizes[j..], m)
}

/// The first `out.len()` indices of `sizes` whose entry is `m`, in order,
/// into `out`; returns how many.
#[inline(always)]
fn ties_plain(sizes: &[u32], m: u32, out: &mut [u32]) -> usize {
    let mut found = 0;
    for (i, &s) in sizes.iter().enumerate() {
        if found == out.len() {
            break;
        }
        if s == m {
            out[found] = i as u32;
            found += 1;
        }
    }
    found
}

/// [`ties_plain`] in AVX2: eight entries a compare, a branch only for each
/// match.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn ties_avx2(sizes: &[u32], m: u32, out: &mut [u32]) -> usize {
    use std::arch::x86_64::{
        __m256i, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps,
        _mm256_set1_epi32,
    };
    let n = sizes.len();
    let p = sizes.as_ptr();
    let mv = _mm256_set1_epi32(m as i32);
    let mut found = 0;
    let mut j = 0;
    while j + 8 <= n {
        // SAFETY: `j + 8 <= n`: eight entries of `sizes`, read unaligned.
        let v = unsafe { _mm256_loadu_si256(p.add(j).cast::<__m256i>()) };
        let mut mask = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, mv))) as u32;
        while mask != 0 {
            if found == out.len() {
                return found;
            }
            out[found] = (j + mask.trailing_zeros() as usize) as u32;
            found += 1;
            mask &= mask - 1;
        }
        j += 8;
    }
    let rest = ties_plain(&sizes[j..], m, &mut out[found..]);
    for t in &mut out[found..found + rest] {
        *t += j as u32;
    }
    found + rest
}

/// [`ties_plain`], with AVX2 when `avx2`.
#[inline(always)]
fn ties(avx2: bool, sizes: &[u32], m: u32, out: &mut [u32]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: as in `least`.
        return unsafe { ties_avx2(sizes, m, out) };
    }
    let _ = avx2;
    ties_plain(sizes, m, out)
}

/// The index of the first entry of `sizes` at most `m`, with AVX2 when
/// `avx2`.
#[inline(always)]
fn first_index(avx2: bool, sizes: &[u32], m: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: as in `least`.
        return unsafe { first_index_avx2(sizes, m) };
    }
    let _ = avx2;
    first_index_plain(sizes, m)
}

/// Whether the processor runs AVX2.
fn detect_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The cell `i` places right of cell `x` in its row, cyclically (the row
/// is the `len` cells from `start`, and `0 < i < len`). `W` is the rows'
/// common width or 0, as in [`Dc::span`]: when it is a power of two (4 for
/// Sudoku), a row's first cell is a multiple of it and the wrap is a mask.
#[inline(always)]
fn right<const W: u32>(x: u32, i: u32, start: u32, len: u32) -> u32 {
    if W.is_power_of_two() {
        // (R): `start` is `x` rounded down to a multiple of `W == len`.
        return start | ((x + i) & (W - 1));
    }
    let z = x + i;
    if z >= start + len {
        z - len
    } else {
        z
    }
}

/// A dancing-cells arena built once from a [`Problem`] and reused.
///
/// ```
/// use dlxbench::exact_cover::{Dc, Engine, Problem, SearchOptions};
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
///
/// # Invariants
///
/// The search indexes its arrays without bounds checks (debug builds
/// check them) on the strength of these, which [`Dc::try_new`] establishes
/// from the problem (whose rows are non-empty, with distinct columns in
/// range) and every operation keeps, since the dance only swaps values
/// within a set and moves sizes within their capacity:
///
/// * **(C)** `cells.len() == set.len() == cell_row.len()`, and every cell
///   index the search handles (a value of `set`, a cell of a row's span,
///   a level's chosen cell) is less than that.
/// * **(I)** every `Cell::item`, every entry of `active` and of
///   `level_item` is less than `size.len() == start.len() == taken.len()`.
/// * **(S)** item `k`'s slots are `start[k]..` up to the next item's
///   start (`cells` for the last); `size[k]` stays within that count
///   and every `Cell::slot` of its cells within those slots, so the slot
///   and `start + size - 1` (for a set that is not empty, the only ones
///   a removal touches) are slots of `set`.
/// * **(A)** `active.len() == active_pos.len() == primary`,
///   `n_active <= primary`, and their entries are less than `primary`.
/// * **(L)** the search is at most `primary` levels deep (each level
///   covers a distinct primary item); the level arrays have `primary + 1`
///   entries.
/// * **(R)** `opt_start.len() == rows + 1`, every `cell_row` entry is less
///   than `rows`, and when `width > 0` row `k` is the cells
///   `k * width..(k + 1) * width`.
#[derive(Debug, Clone)]
pub struct Dc {
    /// Number of primary items; items `0..primary` are primary.
    primary: u32,
    /// Number of rows.
    rows: usize,
    /// The common width of the rows, when every row has the same number of
    /// cells, 2 to [`MAX_UNIFORM_WIDTH`]; else 0.
    width: u32,
    /// Per cell: its item and its place in its item's set.
    cells: Vec<Cell>,
    /// Per cell: its row.
    cell_row: Vec<u32>,
    /// Per row `k`, its first cell; `opt_start[rows]` is the cell count.
    opt_start: Vec<u32>,
    /// The item sets: item `i`'s slots start at `start[i]`.
    set: Vec<u32>,
    /// Per item, its first slot in `set`.
    start: Vec<u32>,
    /// Per item, the size of its set; a covered primary item's has the
    /// [`COVERED`] flag, so that the choice reads this dense array alone.
    size: Vec<u32>,
    /// The active primary items: `active[..n_active]`.
    active: Vec<u32>,
    /// Per primary item, its place in `active`.
    active_pos: Vec<u32>,
    /// How many primary items are active.
    n_active: u32,
    /// The processor runs AVX2: the choice's passes use it.
    avx2: bool,
    /// Per item, covered by a selection (outside any search).
    taken: Vec<bool>,
    /// Rows selected since the last reset, in order.
    selected: Vec<u32>,
    /// Updates made by selections since the last reset.
    select_updates: u64,
    /// True once a selection clashed: no solution until reset.
    conflict: bool,
    /// The sets are not in the order [`Dc::select_all`] builds them (a
    /// search or a [`Dc::select`] permuted them): the next search rebuilds
    /// them first.
    dirty: bool,
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
    /// The forced-item stack's buffer ([`Forced`]): room for an entry per
    /// cell, as a search path removes a cell at most once, and one more
    /// for the branch-free write past the top.
    forced: Vec<u32>,
    /// Per search level, the forced stack's height before its item was
    /// covered and after.
    level_mark: Vec<(u32, u32)>,
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
                    let start = dc.start[i] as usize;
                    let size = (dc.size[i] & !COVERED) as usize;
                    let mut s = dc.set[start..start + size].to_vec();
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
        let items = |dc: &Dc| dc.cells.iter().map(|c| c.item).collect::<Vec<_>>();
        items(self) == items(other)
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
    // The twin of `Dlx::new`, kept inherent (not a provided method of
    // [`Engine`]) so that callers build an engine without the trait in scope.
    pub fn new(problem: &Problem) -> Self {
        match Self::try_new(problem) {
            Ok(dc) => dc,
            Err(e) => panic!("{e}"),
        }
    }

    /// Number of cells (1s of the matrix).
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// Bytes held by the cells, the sets and the items' arrays: what the
    /// search reads and writes ([`Dc::heap_bytes`] adds the scratch).
    pub fn arena_bytes(&self) -> usize {
        std::mem::size_of::<Cell>() * self.cells.len()
            + 4 * (self.start.len()
                + self.size.len()
                + self.cell_row.len()
                + self.opt_start.len()
                + self.set.len()
                + self.active.len()
                + self.active_pos.len())
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

    /// The row of cell `x`: its first cell and its number of cells. `W` is
    /// the rows' common width, or 0 to look the row up.
    #[inline(always)]
    fn span<const W: u32>(&self, x: u32) -> (u32, u32) {
        if W > 0 {
            // (R): uniform rows of `W` cells.
            (x - x % W, W)
        } else {
            // (C) and (R).
            let row = at!(self.cell_row, x);
            let start = at!(self.opt_start, row);
            (start, at!(self.opt_start, row + 1) - start)
        }
    }

    /// Takes cell `z` out of its item's set: swaps it with the set's last
    /// cell and shrinks the set. (Its mems are counted by the caller.)
    #[inline(always)]
    fn remove(&mut self, z: u32, forced: &mut Forced) {
        // (C): `z` is a cell; (I): its item is an item.
        let Cell { item: k, slot: q } = at!(self.cells, z);
        // `z` is in its item's set, so the set is not empty, and the item
        // is open (a covered item's rows are all hidden): no flag.
        let s = at!(self.size, k) - 1;
        *at_mut!(self.size, k) = s;
        if forced.on {
            #[cfg(debug_assertions)]
            assert!(forced.len < forced.cap);
            // SAFETY: a search path removes each cell at most once, and
            // the buffer has room for an entry per cell and one more.
            unsafe { *forced.buf.add(forced.len) = k };
            // Secondary items are pushed too, and skipped by the reader
            // (`Dc::choose_forced`): one compare fewer per removal.
            forced.len += usize::from(s <= 1);
        }
        // (S): `q` and `last` are slots of the set; (C) for `y`.
        let last = at!(self.start, k) + s;
        let y = at!(self.set, last);
        *at_mut!(self.set, q) = y;
        at_mut!(self.cells, y).slot = q;
        *at_mut!(self.set, last) = z;
        at_mut!(self.cells, z).slot = last;
    }

    /// Takes the other cells of `x`'s row out of their items' sets, left
    /// to right cyclically from `x`; returns how many. (Its mems are
    /// counted by [`Dc::cover`], outside the loop over the rows.)
    #[inline(always)]
    fn hide<const W: u32>(&mut self, x: u32, forced: &mut Forced) -> u32 {
        let (start, len) = self.span::<W>(x);
        for i in 1..len {
            self.remove(right::<W>(x, i, start, len), forced);
        }
        len - 1
    }

    /// Undoes [`Dc::hide`], right to left.
    #[inline(always)]
    fn unhide<const W: u32>(&mut self, x: u32, mems: &mut u64) {
        let (start, len) = self.span::<W>(x);
        // The spacer, and for each cell its item, the size read and
        // written.
        *mems += 1 + 3 * u64::from(len - 1);
        for i in (1..len).rev() {
            let z = right::<W>(x, i, start, len);
            // (C) and (I).
            let k = at!(self.cells, z).item;
            *at_mut!(self.size, k) += 1;
        }
    }

    /// Hides every row of item `i`'s set and takes `i` out of the active
    /// items; returns the updates.
    #[inline(always)]
    fn cover<const W: u32>(&mut self, i: u32, mems: &mut u64, forced: &mut Forced) -> u64 {
        // (I); `i` is open, its size not flagged.
        let (start, n) = (at!(self.start, i), at!(self.size, i));
        let mut removed = 0u64;
        // Hiding a row of `i` takes cells out of other items only (a row
        // meets an item once): the set of `i` stays as it is.
        for t in start..start + n {
            // (S): a slot of the set; (C) for its cell.
            let x = at!(self.set, t);
            removed += u64::from(self.hide::<W>(x, forced));
        }
        // The place in the active list and the size; one per row read.
        // SSXC0 walks each row cyclically and meets its spacer once; each
        // removal costs 8: z's item and place (one word), the size read
        // and written, the last cell read, two slots and two places
        // written. Counted here, not in the loop, which is short of
        // registers.
        *mems += 2 + 2 * u64::from(n) + 8 * removed;
        if i < self.primary {
            // (A): `i` is primary and active, so `n_active >= 1`.
            let p = at!(self.active_pos, i);
            let last_pos = self.n_active - 1;
            let last = at!(self.active, last_pos);
            *at_mut!(self.active, p) = last;
            *at_mut!(self.active_pos, last) = p;
            *at_mut!(self.active, last_pos) = i;
            *at_mut!(self.active_pos, i) = last_pos;
            self.n_active = last_pos;
            *at_mut!(self.size, i) = n | COVERED;
            // The last active item read, two entries and two places
            // written.
            *mems += 5;
        }
        removed
    }

    /// Undoes [`Dc::cover`].
    #[inline(always)]
    fn uncover<const W: u32>(&mut self, i: u32, mems: &mut u64) {
        // (I).
        let (start, n) = (at!(self.start, i), at!(self.size, i) & !COVERED);
        if i < self.primary {
            self.n_active += 1;
            *at_mut!(self.size, i) = n;
        }
        *mems += 2 + u64::from(n);
        for t in (start..start + n).rev() {
            // (S) and (C).
            let x = at!(self.set, t);
            self.unhide::<W>(x, mems);
        }
    }

    /// Covers the items of `x`'s row other than `x`'s own, left to right
    /// cyclically from `x`; returns the updates.
    #[inline(always)]
    fn commit<const W: u32>(&mut self, x: u32, mems: &mut u64, forced: &mut Forced) -> u64 {
        let (start, len) = self.span::<W>(x);
        // The spacer, and each cell's item.
        *mems += u64::from(len);
        let mut removed = 0;
        for i in 1..len {
            // (C): a cell of the row; (I): its item.
            let k = at!(self.cells, right::<W>(x, i, start, len)).item;
            removed += self.cover::<W>(k, mems, forced);
        }
        removed
    }

    /// Undoes [`Dc::commit`], right to left.
    #[inline(always)]
    fn uncommit<const W: u32>(&mut self, x: u32, mems: &mut u64) {
        let (start, len) = self.span::<W>(x);
        *mems += u64::from(len);
        for i in (1..len).rev() {
            // (C) and (I).
            let k = at!(self.cells, right::<W>(x, i, start, len)).item;
            self.uncover::<W>(k, mems);
        }
    }

    /// The primary item to branch on, or [`NONE`] when every one is
    /// covered (see [`ColumnChoice`]).
    ///
    /// `LOWEST` and `KNUTH` are defined by a walk through the active list
    /// that stops at an item with no rows, else takes the fewest (ties: the
    /// lowest index, or the first in the list), at 2 mems an item read.
    /// Rather than walk the list (a dependent load per item), the choice
    /// reads the dense array of sizes, where a covered item's flag makes
    /// it larger than any open one: its least entry `m` is the fewest
    /// rows; then the item to take is the first with `m` rows in item order
    /// (`LOWEST`, `m > 0`) or in the list's order (the least `active_pos`
    /// among them); the walk would have stopped there when `m == 0`, and
    /// read the whole list otherwise: the same item and the same mems.
    /// Both passes are branch-free loops the compiler vectorises.
    ///
    /// `FORCED` ([`ColumnChoice::Forced`], and the default) is `Dlx`'s:
    /// see [`Dc::choose_forced`].
    #[inline(always)]
    fn choose<const CHOICE: u8, const W: u32>(
        &self,
        mems: &mut u64,
        forced: &Forced,
        from: usize,
    ) -> u32 {
        let n = self.n_active as usize;
        if n == 0 {
            return NONE;
        }
        if CHOICE == FORCED {
            return self.choose_forced::<W>(mems, forced, from);
        }
        if CHOICE == FIRST {
            *mems += n as u64;
            return self.active[..n].iter().copied().min().expect("not empty");
        }
        let primary = self.primary as usize;
        let sizes = &self.size[..primary];
        let positions = &self.active_pos[..primary];
        let m = least(self.avx2, sizes);
        // `n > 0`: some item is open, so `m` is a size (no flag).
        if CHOICE != KNUTH && m > 0 {
            *mems += 2 * n as u64;
            // (A): `m` is the size of some primary item, so the index is
            // one's.
            return first_index(self.avx2, sizes, m) as u32;
        }
        let first = first_place(self.avx2, sizes, positions, m);
        *mems += 2 * if m == 0 { first as u64 + 1 } else { n as u64 };
        // (A): `first` is the place of an active item.
        at!(self.active, first)
    }

    /// [`ColumnChoice::Forced`], as `Dlx` makes it: of the items the level
    /// above made short (the forced stack from `from`), the open one of
    /// the fewest rows, then the lowest index; else the first open item of
    /// one row or none; else [`Dc::widest`]. Two mems for each entry read
    /// (the item and its size), two for each item a pass reads.
    #[inline(always)]
    fn choose_forced<const W: u32>(&self, mems: &mut u64, forced: &Forced, from: usize) -> u32 {
        // Size and item in one key: the least is the choice, and a covered
        // item's size is at least `COVERED`.
        let mut best = u64::MAX;
        let mut read = 0u64;
        for k in from..forced.len {
            // SAFETY: `from..forced.len` are entries the search pushed.
            let i = unsafe { *forced.buf.add(k) };
            // A secondary entry is not on `Dlx`'s stack: neither read nor
            // counted.
            let primary = i < self.primary;
            read += u64::from(primary);
            // (I): an entry is an item.
            let key = u64::from(at!(self.size, i)) << 32 | u64::from(i);
            best = best.min(if primary { key } else { u64::MAX });
        }
        *mems += 2 * read;
        if best >> 32 < 2 {
            return best as u32;
        }
        let sizes = &self.size[..self.primary as usize];
        *mems += 2 * u64::from(self.n_active);
        let short = first_index(self.avx2, sizes, 1);
        if short < sizes.len() {
            return short as u32;
        }
        // No item is short, so the least size is a branch point's.
        let m = least(self.avx2, sizes);
        *mems += 2 * u64::from(self.n_active);
        self.widest::<W>(m, mems)
    }

    /// Among the first [`TIE_LIMIT`] open primary items with `m` rows, in
    /// item order, the one whose furthest-reaching row reaches furthest
    /// (the first such): `Dlx`'s tie-break, on the same state. `m > 1` is
    /// the size of some open primary item.
    #[inline(always)]
    fn widest<const W: u32>(&self, m: u32, mems: &mut u64) -> u32 {
        let mut tied = [0u32; TIE_LIMIT as usize];
        let n = ties(self.avx2, &self.size[..self.primary as usize], m, &mut tied);
        let mut best = NONE;
        let mut best_reach = 0;
        for &i in &tied[..n] {
            let reach = self.reach::<W>(i, mems);
            if best == NONE || reach > best_reach {
                best = i;
                best_reach = reach;
            }
        }
        best
    }

    /// How far the furthest-reaching row of open item `i` reaches: the most,
    /// over its rows, of the summed sizes of the row's other items (a
    /// covered item's without its flag), roughly what choosing the row
    /// rules out. One mem for each row read, two for each other cell (its
    /// item and that item's size).
    #[inline(always)]
    fn reach<const W: u32>(&self, i: u32, mems: &mut u64) -> u32 {
        // (I): `i` is an item; its size is not flagged (open).
        let (start, n) = (at!(self.start, i), at!(self.size, i));
        let mut reach = 0;
        for t in start..start + n {
            // (S), then (C).
            let x = at!(self.set, t);
            let (first, len) = self.span::<W>(x);
            *mems += 1 + 2 * u64::from(len - 1);
            let mut row = 0u32;
            for j in 1..len {
                // (C) and (I).
                let k = at!(self.cells, right::<W>(x, j, first, len)).item;
                row += at!(self.size, k) & !COVERED;
            }
            reach = reach.max(row);
        }
        reach
    }

    // --- public operations --------------------------------------------------

    /// Rebuilds the sets, the active items and the selection's updates
    /// from `taken` alone: each open item's set holds the cells of the
    /// rows that meet no taken item, in row order; the active items are
    /// the open primary ones in item order, then the taken ones. Whatever
    /// a search or a deferred search left is replaced, not undone.
    fn rebuild(&mut self) {
        self.pending = 0;
        self.size.fill(0);
        let updates = dc_width!(self.width, W => self.fill_sets::<W>());
        let taken = &self.taken;
        // A taken item's set is never read again before the next rebuild:
        // empty, and flagged if primary, it cannot be mistaken for an open
        // one.
        for (k, (size, &taken)) in self.size.iter_mut().zip(taken).enumerate() {
            if taken {
                *size = if k < self.primary as usize {
                    COVERED
                } else {
                    0
                };
            }
        }
        // The active items: the open primary ones in item order, then the
        // taken ones.
        let mut open = 0;
        for i in 0..self.primary {
            if !taken[i as usize] {
                self.active[open as usize] = i;
                self.active_pos[i as usize] = open;
                open += 1;
            }
        }
        self.n_active = open;
        let mut p = open;
        for i in 0..self.primary {
            if taken[i as usize] {
                self.active[p as usize] = i;
                self.active_pos[i as usize] = p;
                p += 1;
            }
        }
        self.select_updates = updates;
        self.dirty = false;
    }

    /// Fills each item's set with the cells of the rows that meet no taken
    /// item, in row order (cells are numbered in row order), in one pass
    /// over the rows, from sizes of 0; returns the updates that hiding the
    /// other rows would have made. `W` is the rows' common width, or 0:
    /// with uniform rows, whether a row meets a taken item is read from all
    /// its cells without a branch.
    #[inline(always)]
    fn fill_sets<const W: u32>(&mut self) -> u64 {
        let taken = &self.taken;
        if W == 0 {
            let mut updates = 0u64;
            for row in 0..self.rows {
                let (first, end) = (self.opt_start[row], self.opt_start[row + 1]);
                let cells = &mut self.cells[first as usize..end as usize];
                if cells.iter().any(|c| taken[c.item as usize]) {
                    updates += u64::from(end - first) - 1;
                    continue;
                }
                for (z, cell) in (first..end).zip(cells) {
                    let k = cell.item as usize;
                    let s = self.size[k];
                    let slot = self.start[k] + s;
                    self.set[slot as usize] = z;
                    cell.slot = slot;
                    self.size[k] = s + 1;
                }
            }
            return updates;
        }
        let mut skipped = 0u64;
        // (R): row `k` is the cells `k * W..(k + 1) * W`.
        for (row, cells) in self.cells.chunks_exact_mut(W as usize).enumerate() {
            let mut meets = false;
            for cell in cells.iter() {
                // (I).
                meets |= at!(taken, cell.item);
            }
            if meets {
                skipped += 1;
                continue;
            }
            let first = row as u32 * W;
            for (z, cell) in (first..).zip(cells.iter_mut()) {
                // (I); (S): the item's set holds at most its cells.
                let k = cell.item;
                let s = at!(self.size, k);
                let slot = at!(self.start, k) + s;
                *at_mut!(self.set, slot) = z;
                cell.slot = slot;
                *at_mut!(self.size, k) = s + 1;
            }
        }
        skipped * u64::from(W - 1)
    }

    /// Algorithm X, iterative: `level` rows are committed at every point of
    /// the loop; `level_item[l]` is the item covered at level `l` and
    /// `level_pos[l]` the place in its set of the row tried. `W` is the
    /// rows' common width, or 0. Never inlined: in the one function with
    /// every variant of it (the caller's match on the choice and width)
    /// the search measured 4.6% slower on top1465 (`ab`).
    // Over 100 lines on purpose: Algorithm X's loop, the engine's hot path,
    // one function the compiler sees whole; split it only with an `ab` run
    // that shows no loss.
    #[inline(never)]
    fn run<const CHOICE: u8, const DEFER: bool, const W: u32>(
        &mut self,
        options: SearchOptions,
        visit: &mut Visit<'_>,
    ) -> SearchStats {
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
        let mut forced = Forced {
            buf: self.forced.as_mut_ptr(),
            len: 0,
            on: CHOICE == FORCED,
            #[cfg(debug_assertions)]
            cap: self.forced.len(),
        };
        loop {
            let (i, t, len) = if descend {
                // Where the level above began on the forced stack (nothing
                // to read back at the root); (L).
                let from = match level.checked_sub(1) {
                    Some(above) => at!(self.level_mark, above).0 as usize,
                    None => forced.len,
                };
                let i = self.choose::<CHOICE, W>(&mut mems, &forced, from);
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
                // (I): a chosen item is an item.
                let len = at!(self.size, i);
                if len == 0 {
                    descend = false;
                    continue;
                }
                stats.guesses += u64::from(len > 1);
                let before = forced.len as u32;
                updates += self.cover::<W>(i, &mut mems, &mut forced);
                // (L): at most `primary` levels.
                *at_mut!(self.level_item, level) = i;
                *at_mut!(self.level_mark, level) = (before, forced.len as u32);
                // SSXC0 takes the first row without a size check.
                (i, 0, len)
            } else {
                if level == 0 {
                    break;
                }
                level -= 1;
                if DEFER {
                    // (L).
                    let alternative = at!(self.alternatives, level);
                    open -= usize::from(alternative);
                    if open == 0 && !alternative {
                        // Nothing left to try at any level: the rest would
                        // only undo. Leave it pending.
                        level += 1;
                        break;
                    }
                }
                // (L), (I), (S) and (C).
                let i = at!(self.level_item, level);
                let t = at!(self.level_pos, level);
                let x = at!(self.set, at!(self.start, i) + t);
                if !std::mem::take(&mut solved) {
                    mems += 2;
                }
                self.uncommit::<W>(x, &mut mems);
                forced.len = at!(self.level_mark, level).1 as usize;
                // Checking for another row reads the size.
                mems += 1;
                (i, t + 1, at!(self.size, i) & !COVERED)
            };
            // Try the row at place `t` of item `i`'s set; past the end
            // means exhausted.
            if t >= len {
                self.uncover::<W>(i, &mut mems);
                forced.len = at!(self.level_mark, level).0 as usize;
                descend = false;
                continue;
            }
            if meter.exhausted(stats.nodes) {
                self.uncover::<W>(i, &mut mems);
                stats.budget_exceeded = true;
                break;
            }
            stats.nodes += 1;
            if DEFER {
                let alternative = t + 1 < len;
                // (L).
                *at_mut!(self.alternatives, level) = alternative;
                open += usize::from(alternative);
            }
            // (L), then (S) and (C): `t < len` is a place in the set.
            *at_mut!(self.level_pos, level) = t;
            let x = at!(self.set, at!(self.start, i) + t);
            mems += 2;
            updates += self.commit::<W>(x, &mut mems, &mut forced);
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
            let x = self.set[(self.start[i as usize] + self.level_pos[level]) as usize];
            self.uncommit::<W>(x, &mut unwind);
            self.uncover::<W>(i, &mut unwind);
        }
        stats.updates = updates;
        stats.mems = Some(mems);
        stats
    }

    #[cold]
    fn report(&mut self, level: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        let mut rows = std::mem::take(&mut self.solution);
        rows.clear();
        rows.extend(self.selected.iter().map(|&r| r as usize));
        for l in 0..level {
            let i = self.level_item[l] as usize;
            let x = self.set[(self.start[i] + self.level_pos[l]) as usize];
            rows.push(self.cell_row[x as usize] as usize);
        }
        let flow = visit(&rows);
        self.solution = rows;
        flow
    }
}

/// The dancing-cells engine: the selections rebuilt rather than undone
/// ([`Dc::rebuild`]), the search in [`Dc::run`].
impl Engine for Dc {
    const KIND: EngineKind = EngineKind::Dc;
    const COUNTS_MEMS: bool = true;

    /// Builds the arena, or reports that the problem is too large.
    fn try_new(problem: &Problem) -> Result<Self, ProblemError> {
        let n_cells = problem.entries();
        if n_cells > MAX_CELLS {
            return Err(ProblemError::TooLarge { nodes: n_cells });
        }
        let n_items = problem.columns();
        let primary = problem.primary();
        let rows = problem.rows();
        let mut cells = Vec::with_capacity(n_cells);
        let mut cell_row = Vec::with_capacity(n_cells);
        let mut opt_start = Vec::with_capacity(rows + 1);
        let mut counts = vec![0u32; n_items];
        let mut width = None;
        for k in 0..rows {
            opt_start.push(cells.len() as u32);
            let row = problem.row(k);
            let len = row.len();
            width = match width {
                None => Some(len),
                Some(w) if w == len => Some(w),
                Some(_) => Some(0),
            };
            for c in row {
                cells.push(Cell {
                    item: c as u32,
                    slot: 0,
                });
                cell_row.push(k as u32);
                counts[c] += 1;
            }
        }
        opt_start.push(n_cells as u32);
        let width = match width {
            Some(w) if (2..=MAX_UNIFORM_WIDTH).contains(&w) => w as u32,
            _ => 0,
        };
        let mut start = Vec::with_capacity(n_items);
        let mut first = 0;
        for count in counts {
            start.push(first);
            first += count;
        }
        let mut dc = Dc {
            primary: primary as u32,
            rows,
            width,
            cells,
            cell_row,
            opt_start,
            set: vec![0; n_cells],
            start,
            size: vec![0; n_items],
            active: (0..primary as u32).collect(),
            active_pos: (0..primary as u32).collect(),
            n_active: primary as u32,
            avx2: detect_avx2(),
            taken: vec![false; n_items],
            selected: Vec::with_capacity(primary),
            select_updates: 0,
            conflict: false,
            dirty: true,
            level_item: vec![0; primary + 1],
            level_pos: vec![0; primary + 1],
            alternatives: vec![false; primary + 1],
            pending: 0,
            solution: Vec::with_capacity(primary + 1),
            forced: vec![0; n_cells + 1],
            level_mark: vec![(0, 0); primary + 1],
        };
        dc.select_all(&[]);
        Ok(dc)
    }

    /// Number of rows of the problem.
    fn rows(&self) -> usize {
        self.rows
    }

    /// Every heap byte this arena holds.
    fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.cells)
            + bytes(&self.cell_row)
            + bytes(&self.opt_start)
            + bytes(&self.set)
            + bytes(&self.start)
            + bytes(&self.size)
            + bytes(&self.active)
            + bytes(&self.active_pos)
            + bytes(&self.taken)
            + bytes(&self.selected)
            + bytes(&self.level_item)
            + bytes(&self.level_pos)
            + bytes(&self.alternatives)
            + bytes(&self.solution)
            + bytes(&self.forced)
            + bytes(&self.level_mark)
    }

    /// Preselects row `row`: its items are covered before any search, as
    /// if the search had chosen it. Returns `false`, selecting nothing,
    /// when the row clashes with an earlier selection; every later search
    /// then finds no solution until [`Dc::reset`].
    ///
    /// # Panics
    /// If `row >= self.rows()`.
    fn select(&mut self, row: usize) -> bool {
        assert!(row < self.rows, "row {row} out of range");
        self.settle();
        let cells = self.row_cells(row);
        if cells
            .clone()
            .any(|z| self.taken[self.cells[z as usize].item as usize])
        {
            self.conflict = true;
            return false;
        }
        let mut mems = 0;
        for z in cells {
            let k = self.cells[z as usize].item;
            self.taken[k as usize] = true;
            self.select_updates += self.cover::<0>(k, &mut mems, &mut Forced::off());
        }
        self.selected.push(row as u32);
        // The covers permuted the sets: the next search starts from the
        // order `select_all` would build.
        self.dirty = true;
        true
    }

    /// Selects each of `rows` in turn, as [`Dc::select`] does.
    ///
    /// # Panics
    /// If a row is out of range.
    fn select_rows(&mut self, rows: &[usize]) -> bool {
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
    /// Rather than covering the rows' items cell by cell, it marks their
    /// items taken and rebuilds every other item's set from the rows that
    /// meet no taken item, in row order: the same sets as the covers would
    /// leave, in a fixed order, with the same [`SearchStats::updates`]. Its
    /// cost is one pass over the rows.
    ///
    /// # Panics
    /// If a row is out of range.
    ///
    /// ```
    /// use dlxbench::exact_cover::{Dc, Engine, Problem, SearchOptions};
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
    fn select_all(&mut self, rows: &[usize]) -> bool {
        for &row in rows {
            assert!(row < self.rows, "row {row} out of range");
        }
        self.taken.fill(false);
        self.selected.clear();
        let mut conflict = false;
        for &row in rows {
            let cells = self.row_cells(row);
            if cells
                .clone()
                .any(|z| self.taken[self.cells[z as usize].item as usize])
            {
                conflict = true;
                continue;
            }
            for z in cells {
                self.taken[self.cells[z as usize].item as usize] = true;
            }
            self.selected.push(row as u32);
        }
        self.rebuild();
        self.conflict = conflict;
        !conflict
    }

    /// Undoes every selection (and what a [`Dc::search_deferred`] left):
    /// the arena as [`Dc::new`] built it. One pass over the cells.
    fn reset(&mut self) {
        self.select_all(&[]);
        self.conflict = false;
    }

    /// Undoes what a [`Dc::search_deferred`] left covered, if anything.
    fn settle(&mut self) {
        let mut mems = 0;
        while self.pending > 0 {
            self.pending -= 1;
            let level = self.pending;
            let i = self.level_item[level];
            let x = self.set[(self.start[i as usize] + self.level_pos[level]) as usize];
            self.uncommit::<0>(x, &mut mems);
            self.uncover::<0>(i, &mut mems);
        }
    }

    fn prepare_search(&mut self) -> bool {
        if self.dirty {
            // A search permuted the sets (and may have left a path
            // covered): start from the selection's sets in row order, so
            // that every search makes the same tree.
            self.rebuild();
        }
        !self.conflict
    }

    fn select_updates(&self) -> u64 {
        self.select_updates
    }

    /// [`Engine::search`] (`defer` false) or [`Engine::search_deferred`]
    /// (`defer` true): a search loop compiled for each, chosen here, in
    /// the library, so that no caller compiles the loops again.
    // The same dispatch as `Dlx`'s, deliberately: written in each impl it
    // is a concrete function compiled in this library; as a provided trait
    // method it would be instantiated again in every crate that searches.
    fn run_search(
        &mut self,
        defer: bool,
        options: SearchOptions,
        visit: &mut Visit<'_>,
    ) -> SearchStats {
        if defer {
            self.run_compiled::<true>(options, visit)
        } else {
            self.run_compiled::<false>(options, visit)
        }
    }
}

impl Dc {
    /// Algorithm X ([`Dc::run`]) compiled for the column choice and the
    /// row width.
    fn run_compiled<const DEFER: bool>(
        &mut self,
        options: SearchOptions,
        visit: &mut Visit<'_>,
    ) -> SearchStats {
        self.dirty = true;
        dc_width!(self.width, W => match options.choice {
            // The forced stack is this engine's fastest choice too.
            ColumnChoice::MinimumRemaining => self.run::<FORCED, DEFER, W>(options, visit),
            ColumnChoice::First => self.run::<FIRST, DEFER, W>(options, visit),
            ColumnChoice::LowestIndex => self.run::<LOWEST, DEFER, W>(options, visit),
            ColumnChoice::Knuth => self.run::<KNUTH, DEFER, W>(options, visit),
            ColumnChoice::Forced => self.run::<FORCED, DEFER, W>(options, visit),
        })
    }
}

#[cfg(test)]
mod tests;
