//! The Dancing Links arena and Algorithm X search.
//!
//! # Layout
//!
//! The arena follows Knuth's DLX1 (TAOCP 7.2.2.1): [`NODE_BYTES`] bytes a
//! node, as one contiguous array of 8-byte `u32` link pairs (up, down) and a
//! parallel array of 4-byte columns (Knuth's `TOP`), plus a dense array of
//! column lengths instead of a horizontal (left/right) list of active
//! columns. (Splitting the column out of the node makes a node's address a
//! single scaled index: 12% fewer instructions on top1465 than 12-byte
//! nodes.)
//!
//! * Node `0` is unused; nodes `1..=N` are the column headers (the heads of
//!   the vertical lists).
//! * Then the rows, each stored contiguously, so a row's neighbours need no
//!   left/right links. Two layouts:
//!   * **Spacers** (Knuth's): a spacer node before every row and one after
//!     the last. Walking right is `p + 1`, and reaching a spacer jumps back
//!     to the row's first node (the spacer's `up` link); walking left
//!     reaches the previous spacer, whose `down` link points at the last
//!     node. A spacer's `top` is `-k` where `k` is the number of rows before
//!     it, so `top <= 0` marks a spacer.
//!   * **Uniform rows**: when every row has the same number `W` of nodes
//!     (2 to 8; Sudoku and N-queens have 4), no spacers at all: row `k` is
//!     nodes `B + k*W .. B + (k+1)*W`, and the walk around a row is
//!     arithmetic on the node index, compiled for each `W` (see
//!     [`with_width!`]). Where `p` sits in its row varies from node to node,
//!     so the spacer test is a branch the processor keeps mispredicting;
//!     the arithmetic walk has none. When `W` is a power of two, `B` is
//!     padded to a multiple of `W`, so that the other nodes of `p`'s row
//!     are `p ^ 1, p ^ 2, ..., p ^ (W - 1)`: one instruction each. That
//!     is not the cyclic order of the spacer walk (for a node in the second
//!     place, `p ^ j` visits the first, fourth and third). The order in
//!     which a row's columns are covered decides which forced column is
//!     taken next, so the two layouts find the same solutions with search
//!     trees that differ a little. Knuth's order measured 8% more
//!     instructions on top1465 (two bit operations a node instead of one).
//!
//! Where Knuth keeps the active primary columns in a doubly linked list,
//! this arena keeps one `u32` per column in a dense array (`lens`): the
//! column's length, with a flag bit set while the column is covered and
//! another for a secondary column. Covering and uncovering a column set
//! and clear its bit (and count the open primary columns); the column
//! choice reads the primary columns' entries four at a time with SSE2
//! instead of chasing a chain of dependent loads. A covered or secondary
//! column's entry is larger than any length, so "the shortest open column"
//! is the least entry and "open and at most one row" is `entry <= 1`, with
//! no test of the flags.
//!
//! # Column choice
//!
//! Minimum remaining values (Knuth's "S heuristic"), in three steps:
//!
//! 1. Most nodes of a Sudoku search are forced moves: some column is down
//!    to one row. The dance records each primary column whose length drops
//!    to 0 or 1 on a *forced-column stack* (written without a branch); the
//!    choice first reads the eight newest entries, whatever level made
//!    them, and takes the newest of length 0 (a dead end), else the newest
//!    of length 1. A fixed number of entries, rather than those made since
//!    the previous level, means a loop without an exit to mispredict (4.5%
//!    faster on top1465 and the 17-clue list, the same search within 0.1%
//!    of nodes); four entries found fewer forced columns (479 against 465
//!    nodes a puzzle on top1465), sixteen took twice as long.
//! 2. If none of them is still open and short, a scan of every column's
//!    entry stops at the first open column with at most one row.
//! 3. Otherwise this is a branch point: among the columns with the fewest
//!    rows, the choice takes the one with a row that *reaches* furthest,
//!    the row whose other columns hold the most rows between them (the rows
//!    that choosing it rules out, roughly); the first in column order on
//!    equal reach. The ties are gathered 64 columns at a time as a bit
//!    mask, and only the first [`TIE_LIMIT`] (16) in column order are
//!    weighed: a branch point can have dozens of ties, and weighing them
//!    all cost 10% of the instructions on top1465 (cachegrind) to save 3%
//!    of the nodes. Nodes and link updates a puzzle, against taking the
//!    first tied column, summing the reach of all the column's rows, and
//!    weighing every tie:
//!
//!    | tie-break | top1465 | forum hardest 1106 | `kr_16x16_100` | 17-clue |
//!    |---|---:|---:|---:|---:|
//!    | first tied column | 619.9 / 10,331 | 4,883 / 69,749 | 10,025 / 172,540 | 113.8 / 2,936 |
//!    | sum over the rows | 465.2 / 8,093 | 3,732 / 54,484 | 3,259 / 64,026 | 109.8 / 2,903 |
//!    | furthest row, every tie | 461.3 / 8,133 | 3,470 / 50,862 | 2,229 / 46,792 | 104.2 / 2,818 |
//!    | furthest row, first 16 ties (this) | 474.5 / 8,329 | 3,514 / 51,342 | 1,823 / 40,503 | 103.6 / 2,804 |
//!
//!    Weighing the first 4, 8, 12 or 24 ties instead made 544.8, 491.4,
//!    474.0 and 467.0 nodes a puzzle on top1465 (and 8,219, 2,362, 2,110 and
//!    2,018 on `kr_16x16_100`). In time, against kudoku in the same run
//!    (`dlx`/kudoku, single thread, limit 2), the first 16 gave 0.40 on
//!    top1465, 0.40-0.41 on the 17-clue list and 0.31-0.32 on the forum's
//!    hardest, where every tie gave 0.45, 0.44 and 0.36; 12 measured the
//!    same as 16 and 4 less well (0.44, 0.41, 0.34).
//!
//! Any open column is a correct choice, so all this changes which minimal
//! column is taken, never what is found.
//!
//! For a 9x9 Sudoku (729 rows, 4 columns each, 324 columns), uniform rows:
//! `1 + 324 + 3 + 2916 = 3244` nodes (3 of padding) of 12 bytes (38,928
//! bytes) and 389 column entries of 4 bytes (entry 0, unused, 324
//! columns and 64 of padding for the scan): 40,484 bytes.
//! [`Dlx::select_all`] keeps the rows of each column and a byte per row,
//! 13,732 bytes for 9x9. With the search's stacks (the forced-column stack
//! has room for an entry per node, 13,008 bytes; the levels' choices,
//! marks and alternatives, the selected rows and the solution buffer 8,121
//! more), a 9x9 arena holds 75,345 heap bytes in all ([`Dlx::heap_bytes`]):
//! 23 bytes a node, within a 2 MB L2 cache many times over.
//!
//! # Cost measures
//!
//! [`SearchStats::nodes`] counts rows tried (nodes of the search tree below
//! the root) and [`SearchStats::updates`] counts every removal of a node from a
//! column list, as Knuth's programs report them. Both are independent of the
//! machine and are what a regression gate can compare exactly.

// Duplicates (issue #42): the signatures and unwinds alike in `Dc` (cells.rs) and the spacer walks
// alike in links.rs are deliberate: the same `Engine` trait, each engine's own hot loop, kept
// separate for inlining (no sharing without an `ab` run that shows no loss).

use std::hint::select_unpredictable;
use std::ops::ControlFlow;

use crate::budget::Meter;

use super::engine::{ColumnChoice, Engine, EngineKind, SearchOptions, SearchStats, Visit};

use super::links::{Forced, Links, Node, COVERED};
use super::scan::{Scanner, WORD as SCAN_WORD};
use super::Problem;

/// Size in bytes of one arena node: its 8 bytes of links and its 4-byte
/// column.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + std::mem::size_of::<i32>();

/// The widest uniform rows that get a specialised walk (see [`with_width!`]).
const MAX_UNIFORM_WIDTH: usize = 8;

/// `Dlx::run`'s column choices ([`ColumnChoice`]): the tuned MRV, the
/// first open column, and MRV with ties to the lowest column index.
const TUNED: u8 = 0;
const FIRST: u8 = 1;
const LOWEST: u8 = 2;
/// [`ColumnChoice::Forced`]: the choice `Dc` makes too.
const FORCED: u8 = 3;

/// How many of the newest forced-stack entries the column choice reads.
const LOOKBACK: usize = 8;

/// How many tied columns, the first in column order, a branch point's
/// tie-break weighs (see the module docs).
const TIE_LIMIT: u32 = 16;

/// Set in the entry of every secondary column (see the module docs).
const SECONDARY: u32 = super::scan::FLAGS;

/// The bits of a `Dlx::lens` entry that hold the length.
const LEN_MASK: u32 = SECONDARY - 1;

/// A Dancing Links arena built once from a [`Problem`] and reused.
///
/// Preselected rows ([`Dlx::select`]) stay in force across searches until
/// [`Dlx::reset`]; every search leaves the arena exactly as it found it.
///
/// ```
/// use dlxbench::exact_cover::{Dlx, Engine, Problem, SearchOptions};
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
    /// Per node, its column: the column of an ordinary node, the column
    /// itself for a header, or minus the row count for a spacer (0 for
    /// node 0 and padding).
    tops: Vec<i32>,
    /// Per column (`1..=N`), its length, plus [`SECONDARY`] for a
    /// secondary column and [`COVERED`] while it is covered; entry 0 is
    /// unused. Padded with [`SCAN_WORD`]
    /// covered entries, so that the column scan can read whole groups past
    /// the last primary column.
    lens: Vec<u32>,
    /// Number of primary columns; columns `1..=primary` are primary.
    primary: u32,
    /// Number of columns `N`; headers are nodes `1..=N`.
    columns: u32,
    /// How the column choice scans `lens`.
    scanner: Scanner,
    /// Uniform layout: the first node of row 0 (row `k` starts at
    /// `base + k * width`; a multiple of `width` when that is a power of
    /// two).
    base: u32,
    /// The number of nodes in every row when all rows have the same
    /// number, 0 when they differ (see [`with_width!`]).
    width: u32,
    /// Number of rows.
    rows: usize,
    /// Spacer layout only: `spacers[k]` is the spacer before row `k`,
    /// `spacers[rows]` the last. Empty for uniform rows.
    spacers: Vec<u32>,
    /// The row chosen at each search level (a node index).
    choices: Vec<u32>,
    /// Per level, the forced-column stack height before the level's column
    /// was covered and before its row was committed.
    marks: Vec<(u32, u32)>,
    /// The forced-column stack (see the module docs); room for one entry
    /// per node, as a node is removed at most once along a search path.
    forced: Vec<u32>,
    /// Height of the forced-column stack outside a search (entries made by
    /// selections).
    forced_len: usize,
    /// Rows selected with [`Dlx::select`], in order.
    selected: Vec<u32>,
    /// Scratch for reporting a solution's rows to the visitor.
    solution: Vec<usize>,
    /// Link updates made by selections since the last reset.
    select_updates: u64,
    /// True once a selection clashed: no solution until reset.
    conflict: bool,
    /// Rows were placed by [`Dlx::select_all`], which [`Dlx::reset`] undoes
    /// by relinking every row, not by uncovering.
    placed: bool,
    /// Per column (`1..=N`), the rows that have a node in it, in row order:
    /// `col_rows[col_starts[c - 1]..col_starts[c]]`. What
    /// [`Dlx::select_all`] marks as removed when it covers the column.
    col_rows: Vec<u32>,
    col_starts: Vec<u32>,
    /// Scratch for [`Dlx::select_all`]: a byte per row (rounded up to a
    /// multiple of 64), nonzero when the row has a covered column. Bytes,
    /// not bits: marking the rows of a column is then plain stores, not a
    /// chain of read-modify-writes of the same word.
    removed: Vec<u8>,
    /// Nodes in rows (`entries` of the problem).
    entries: u64,
    /// Per search level, whether its row had another after it in its
    /// column when it was tried (so backtracking to it has work to do).
    alternatives: Vec<bool>,
    /// Levels a [`Dlx::search_deferred`] left committed: undone by
    /// [`Dlx::settle`] before the arena is used again, or dropped when
    /// [`Dlx::select_all`] relinks it.
    pending: usize,
}

/// Two arenas are equal when their links, lengths and selections are: the
/// scratch buffers and counters of the last search do not count.
impl PartialEq for Dlx {
    fn eq(&self, other: &Self) -> bool {
        self.nodes == other.nodes
            && self.tops == other.tops
            && self.lens == other.lens
            && self.spacers == other.spacers
            && self.width == other.width
            && self.selected == other.selected
            && self.conflict == other.conflict
    }
}

impl Eq for Dlx {}

impl Dlx {
    /// Builds the arena. This is the only allocation the arena ever makes.
    ///
    /// # Panics
    /// If the problem needs more than 2^29 - 1 nodes (use
    /// [`Dlx::try_new`] to get an error instead).
    // The twin of `Dc::new`, kept inherent (not a provided method of
    // [`Engine`]) so that callers build an engine without the trait in scope.
    pub fn new(problem: &Problem) -> Self {
        match Self::try_new(problem) {
            Ok(dlx) => dlx,
            Err(e) => panic!("{e}"),
        }
    }

    /// An arena in the spacer layout whatever the rows, to test the two
    /// layouts against each other.
    #[cfg(test)]
    pub(super) fn with_spacers(problem: &Problem) -> Self {
        Self::build(problem, false).expect("small test problem")
    }

    // Over 100 lines, left whole: it lays out the whole arena in one pass,
    // part of the engine that solves are timed through; split it only with
    // an `ab` run that shows no loss.
    fn build(problem: &Problem, allow_uniform: bool) -> Result<Self, super::ProblemError> {
        let n = problem.columns();
        let rows = problem.rows();
        let width = match (0..rows).map(|k| problem.row(k).len()).min() {
            Some(w @ 2..=MAX_UNIFORM_WIDTH)
                if allow_uniform && (0..rows).all(|k| problem.row(k).len() == w) =>
            {
                w
            }
            _ => 0,
        };
        let spacer_count = if width > 0 { 0 } else { rows + 1 };
        let pad = if width.is_power_of_two() {
            (width - (n + 1) % width) % width
        } else {
            0
        };
        let total = 1 + n + pad + spacer_count + problem.entries();
        // A column's length must leave room for its flags in `lens`; no
        // column is longer than the arena.
        if total > LEN_MASK as usize {
            return Err(super::ProblemError::TooLarge { nodes: total });
        }
        let mut nodes = vec![Node::default(); total];
        let mut tops = vec![0i32; total];
        // Padding after the last column, so that the column scan can read
        // whole groups of lanes past the last primary column.
        let mut lens = vec![COVERED; n + 1 + SCAN_WORD];
        lens[..=n].fill(0);
        for c in 1..=n {
            nodes[c] = Node {
                up: c as u32,
                down: c as u32,
            };
            tops[c] = c as i32;
        }
        // Appends node `p` for column `c` at the bottom of the column's list.
        let mut append = |nodes: &mut [Node], tops: &mut [i32], p: usize, c: usize| {
            let header = c + 1;
            let tail = nodes[header].up as usize;
            nodes[p] = Node {
                up: tail as u32,
                down: header as u32,
            };
            tops[p] = header as i32;
            nodes[tail].down = p as u32;
            nodes[header].up = p as u32;
            lens[header] += 1;
        };
        let mut spacers = Vec::with_capacity(spacer_count);
        let mut p = n + pad;
        if width > 0 {
            for k in 0..rows {
                for c in problem.row(k) {
                    p += 1;
                    append(&mut nodes, &mut tops, p, c);
                }
            }
        } else {
            // The first spacer: `up` unused, `down` set when its row is laid out.
            p += 1;
            let mut last_spacer = p;
            tops[p] = 0;
            spacers.push(p as u32);
            for k in 0..rows {
                let first = p + 1;
                for c in problem.row(k) {
                    p += 1;
                    append(&mut nodes, &mut tops, p, c);
                }
                nodes[last_spacer].down = p as u32;
                p += 1;
                nodes[p] = Node {
                    up: first as u32,
                    down: 0,
                };
                tops[p] = -((k + 1) as i32);
                last_spacer = p;
                spacers.push(p as u32);
            }
        }
        debug_assert_eq!(p + 1, total);

        // The rows of each column, in row order (counting sort by column).
        let mut col_starts = vec![0u32; n + 1];
        for k in 0..rows {
            for c in problem.row(k) {
                col_starts[c + 1] += 1;
            }
        }
        for c in 1..=n {
            col_starts[c] += col_starts[c - 1];
        }
        let mut col_rows = vec![0u32; problem.entries()];
        let mut fill = col_starts.clone();
        for k in 0..rows {
            for c in problem.row(k) {
                col_rows[fill[c] as usize] = k as u32;
                fill[c] += 1;
            }
        }

        let primary = problem.primary();
        for len in &mut lens[primary + 1..=n] {
            *len |= SECONDARY;
        }

        Ok(Dlx {
            tops,
            primary: primary as u32,
            columns: n as u32,
            base: (n + 1 + pad) as u32,
            scanner: Scanner::detect(),
            width: width as u32,
            rows,
            spacers,
            choices: vec![0; primary + 1],
            marks: vec![(0, 0); primary + 1],
            // The bottom `LOOKBACK` entries name a padding column, which is
            // never short, so the choice can always read that many.
            forced: vec![(n + 1) as u32; total + LOOKBACK],
            forced_len: LOOKBACK,
            selected: Vec::with_capacity(primary),
            solution: Vec::with_capacity(primary + 1),
            select_updates: 0,
            conflict: false,
            placed: false,
            col_rows,
            col_starts,
            removed: vec![0; rows.div_ceil(64) * 64],
            entries: problem.entries() as u64,
            alternatives: vec![false; primary + 1],
            pending: 0,
            nodes,
            lens,
        })
    }

    /// Number of arena nodes (headers, spacers if any, and 1s).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held by the arena's node and column arrays.
    pub fn arena_bytes(&self) -> usize {
        self.nodes.len() * NODE_BYTES + self.lens.len() * std::mem::size_of::<u32>()
    }

    /// Bytes that [`Dlx::select_all`] uses besides the arena: the rows of
    /// each column, and a byte per row.
    pub fn placement_bytes(&self) -> usize {
        (self.col_rows.len() + self.col_starts.len()) * std::mem::size_of::<u32>()
            + self.removed.len()
    }

    /// Rows selected since the last reset, in order.
    pub fn selected(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.selected.iter().map(|&r| r as usize)
    }
}

/// Evaluates `$body` with `$W` bound, as a constant, to the arena's uniform
/// row width when it is one of the widths with a specialised row walk (2 to
/// 8 nodes: Sudoku and N-queens rows have 4, pentomino rows 6), else to 0,
/// the general spacer walk. See [`Links::hide`].
macro_rules! with_width {
    ($width:expr, $W:ident => $body:expr) => {
        match $width {
            2 => {
                const $W: usize = 2;
                $body
            }
            3 => {
                const $W: usize = 3;
                $body
            }
            4 => {
                const $W: usize = 4;
                $body
            }
            5 => {
                const $W: usize = 5;
                $body
            }
            6 => {
                const $W: usize = 6;
                $body
            }
            7 => {
                const $W: usize = 7;
                $body
            }
            8 => {
                const $W: usize = 8;
                $body
            }
            _ => {
                const $W: usize = 0;
                $body
            }
        }
    };
}

// The column choice (see the module docs) on the dance's links; the raw
// link operations themselves are in `links.rs`.
impl Links {
    /// Picks the column to branch on, or 0 when every primary column is
    /// covered (a solution). With MRV, first the [`LOOKBACK`] newest
    /// entries of the forced stack (a dead column of length 0 wins over a
    /// forced one), then a scan of every primary column. (Finding a
    /// solution by the scan, rather than by keeping a count of the open
    /// columns, spares every cover and uncover a read-modify-write of that
    /// count, one chained to the next: 2% fewer instructions.)
    ///
    /// `from` is the forced stack's height when the level above began
    /// (its column not yet covered), what [`ColumnChoice::Forced`] reads
    /// back to.
    #[inline(always)]
    unsafe fn choose<const CHOICE: u8, const W: usize>(self, forced: &Forced, from: usize) -> u32 {
        if CHOICE == FIRST {
            let mut c = 1;
            while c <= self.primary && *self.len(c) & COVERED != 0 {
                c += 1;
            }
            return if c <= self.primary { c } else { 0 };
        }
        if CHOICE == FORCED {
            return self.choose_forced::<W>(forced, from);
        }
        if CHOICE == LOWEST {
            // The first of the shortest in column order, stopping at an
            // empty column (which nothing beats). Covered columns' entries
            // are at least `COVERED`.
            let mut best = 0;
            let mut best_len = COVERED;
            let mut c = 1;
            while c <= self.primary {
                let len = *self.len(c);
                if len < best_len {
                    best = c;
                    best_len = len;
                    if len == 0 {
                        break;
                    }
                }
                c += 1;
            }
            return best;
        }
        // Newest first, without a branch: most entries are stale
        // (covered since, or grown back), in no pattern a predictor could
        // learn. A covered column's entry is at least `COVERED`, so "open
        // and short" is one comparison; the newest entry of the least
        // length wins.
        let mut best = 0;
        let mut best_len = 2;
        for k in 1..=LOOKBACK {
            let c = *forced.buf.add(forced.len - k);
            let len = *self.len(c);
            // `select_unpredictable`, not `if`: the compiler would make
            // branches, mispredicted on every other entry.
            best = select_unpredictable(len < best_len, c, best);
            best_len = best_len.min(len);
        }
        if best_len < 2 {
            return best;
        }
        self.choose_by_scan::<W>()
    }

    /// [`ColumnChoice::Forced`]: of the columns the level above made short
    /// (the forced stack's entries from `from`), the open one of the least
    /// length, then of the lowest index; else [`Links::choose_by_scan`].
    /// The entries are a set that both engines make alike, whatever order
    /// they remove rows in, so the choice is theirs alike.
    #[inline(always)]
    unsafe fn choose_forced<const W: usize>(self, forced: &Forced, from: usize) -> u32 {
        // Length and column in one key: the least is the choice, and a
        // covered column's length is at least `COVERED`.
        let mut best = u64::MAX;
        for k in from..forced.len {
            let c = *forced.buf.add(k);
            best = best.min(u64::from(*self.len(c)) << 32 | u64::from(c));
        }
        if best >> 32 < 2 {
            return best as u32;
        }
        self.choose_by_scan::<W>()
    }

    /// The rest of the tuned choice: the first open column of at most one
    /// row, else a branch point's tie-break (see the module docs), or 0
    /// for a solution.
    #[inline(always)]
    unsafe fn choose_by_scan<const W: usize>(self) -> u32 {
        let best_len = match self.scanner.min(self.lens, self.primary) {
            // Every primary column covered: a solution.
            Ok(len) if len >= SECONDARY => return 0,
            Ok(len) => len,
            Err(short) => return short,
        };
        // A branch point. Break the tie for the column with the row that
        // reaches furthest (the first such column in column order). See the
        // module docs for what it saves.
        // Only the first `TIE_LIMIT` ties are weighed: the rest are not
        // worth their reach's loads.
        let mut best = 0;
        let mut best_reach = 0;
        let mut left = TIE_LIMIT;
        let mut word = 1;
        'words: while word <= self.primary {
            let mut ties = self.scanner.ties(self.lens, word, best_len);
            while ties != 0 {
                let c = word + ties.trailing_zeros();
                let reach = self.reach::<W>(c, best_len);
                best = select_unpredictable((reach > best_reach) | (best == 0), c, best);
                best_reach = best_reach.max(reach);
                ties &= ties - 1;
                left -= 1;
                if left == 0 {
                    break 'words;
                }
            }
            word += SCAN_WORD as u32;
        }
        best
    }

    /// How far the furthest-reaching of column `c`'s `len` rows reaches:
    /// the most, over its rows, of the summed lengths of the row's other
    /// columns (secondary columns counted without their flag), that is,
    /// roughly, of the rows that choosing it rules out.
    #[inline(always)]
    unsafe fn reach<const W: usize>(self, c: u32, len: u32) -> u32 {
        let mut reach = 0u32;
        let mut p = (*self.node(c)).down;
        for _ in 0..len {
            let mut row = 0;
            if W > 0 {
                let slot = self.slot_of::<W>(p);
                for j in 1..W as u32 {
                    let q = Self::other::<W>(p, slot, j);
                    row += *self.len(self.top(q) as u32) & LEN_MASK;
                }
            } else {
                // The spacer walk of `hide` (links.rs), inlined here on
                // purpose: this one sums lengths, that one unlinks, both
                // on the search's hot path.
                let mut q = p + 1;
                while q != p {
                    let (up, top) = ((*self.node(q)).up, self.top(q));
                    if top <= 0 {
                        q = up;
                    } else {
                        row += *self.len(top as u32) & LEN_MASK;
                        q += 1;
                    }
                }
            }
            reach = reach.max(row);
            p = (*self.node(p)).down;
        }
        reach
    }
}

impl Dlx {
    #[inline(always)]
    fn links(&mut self) -> Links {
        Links {
            nodes: self.nodes.as_mut_ptr(),
            tops: self.tops.as_ptr(),
            lens: self.lens.as_mut_ptr(),
            primary: self.primary,
            base: self.base,
            scanner: self.scanner,
            #[cfg(debug_assertions)]
            node_count: self.nodes.len(),
            #[cfg(debug_assertions)]
            col_count: self.lens.len(),
        }
    }

    fn top(&self, p: u32) -> i32 {
        self.tops[p as usize]
    }

    fn is_active(&self, c: u32) -> bool {
        self.lens[c as usize] & COVERED == 0
    }

    fn forced(&mut self) -> Forced {
        Forced {
            buf: self.forced.as_mut_ptr(),
            len: self.forced_len,
        }
    }

    /// The row that node `p` belongs to.
    fn row_of(&self, mut p: u32) -> usize {
        if let Some(row) = (p - self.base).checked_div(self.width) {
            return row as usize;
        }
        while self.top(p) > 0 {
            p += 1;
        }
        (-self.top(p) - 1) as usize
    }

    /// The nodes of row `row`.
    fn row_nodes(&self, row: usize) -> std::ops::Range<u32> {
        if self.width > 0 {
            let start = self.base + row as u32 * self.width;
            start..start + self.width
        } else {
            self.spacers[row] + 1..self.spacers[row + 1]
        }
    }

    // --- public operations -------------------------------------------------

    /// Links every row not marked in `removed` at the bottom of its
    /// columns' lists, in row order. Returns the kept rows' nodes less one
    /// a row (what hiding them would have removed).
    fn link_kept_rows<const W: usize>(&mut self) -> u64 {
        let mut kept = 0u64;
        let node_count = self.nodes.len();
        let col_count = self.lens.len();
        let nodes = self.nodes.as_mut_ptr();
        let lens = self.lens.as_mut_ptr();
        let tops = &self.tops;
        // Appends node `q` at the bottom of its column's list.
        let append = |q: u32| {
            let c = tops[q as usize] as u32;
            debug_assert!((q as usize) < node_count && c > 0 && (c as usize) < col_count);
            // SAFETY: `q` is a row's node (in bounds of `tops`, as long as
            // `nodes`) and `c` its column; a column's `up` link is a node.
            unsafe {
                let header = nodes.add(c as usize);
                let tail = (*header).up;
                *nodes.add(q as usize) = Node { up: tail, down: c };
                (*nodes.add(tail as usize)).down = q;
                (*header).up = q;
                *lens.add(c as usize) += 1;
            }
        };
        for (w, marks) in self.removed.chunks_exact(64).enumerate() {
            let mut keep = !removed_bits(marks);
            if (w + 1) * 64 > self.rows {
                keep &= u64::MAX >> ((w + 1) * 64 - self.rows);
            }
            while keep != 0 {
                let k = w * 64 + keep.trailing_zeros() as usize;
                keep &= keep - 1;
                if W > 0 {
                    let start = self.base + (k * W) as u32;
                    for q in start..start + W as u32 {
                        append(q);
                    }
                    kept += W as u64 - 1;
                } else {
                    let range = self.spacers[k] + 1..self.spacers[k + 1];
                    kept += u64::from(range.end - range.start) - 1;
                    for q in range {
                        append(q);
                    }
                }
            }
        }
        kept
    }

    /// Rewrites the forced-column stack above the look-back padding as the
    /// open primary columns of length 0 or 1, in column order, whatever
    /// order the covers recorded them in.
    fn list_short_columns(&mut self) {
        let mut short = LOOKBACK;
        for c in 1..=self.primary {
            self.forced[short] = c;
            short += usize::from(self.lens[c as usize] <= 1);
        }
        self.forced_len = short;
    }

    /// Algorithm X, iterative. `level` rows are committed at every point of
    /// the loop; `choices[l]` is the row tried at level `l`.
    // Over 100 lines on purpose: Algorithm X's loop, the engine's hot path,
    // one function the compiler sees whole; split it only with an `ab` run
    // that shows no loss.
    fn run<const CHOICE: u8, const W: usize, const DEFER: bool>(
        &mut self,
        options: SearchOptions,
        visit: &mut Visit<'_>,
    ) -> SearchStats {
        let links = self.links();
        let mut forced = self.forced();
        let columns = self.columns;
        let mut stats = SearchStats::default();
        let mut meter = Meter::start(options.budget);
        let mut updates = 0u64;
        let mut level = 0usize;
        let mut descend = true;
        // With `DEFER`: the levels below `level` whose row had another
        // after it (see `alternatives`).
        let mut open = 0usize;
        // SAFETY (all blocks below): `links` indices as documented on
        // `Links`; `level` never exceeds the number of primary columns, the
        // length of `choices` minus one, as every level covers one of them.
        unsafe {
            loop {
                let p = if descend {
                    // Where the level above began on the forced stack
                    // (nothing to read back at the root).
                    let from = match level.checked_sub(1) {
                        Some(above) => self.marks.get_unchecked(above).0 as usize,
                        None => forced.len,
                    };
                    let c = links.choose::<CHOICE, W>(&forced, from);
                    if c == 0 {
                        stats.solutions += 1;
                        let stop = self.report(level, visit).is_break();
                        if stop || stats.solutions >= options.limit {
                            break;
                        }
                        descend = false;
                        continue;
                    }
                    let len = *links.len(c);
                    if len == 0 {
                        descend = false;
                        continue;
                    }
                    stats.guesses += u64::from(len > 1);
                    let before = forced.len as u32;
                    updates += links.cover::<W>(c, &mut forced);
                    *self.marks.get_unchecked_mut(level) = (before, forced.len as u32);
                    (*links.node(c)).down
                } else {
                    if level == 0 {
                        break;
                    }
                    level -= 1;
                    if DEFER {
                        let alternative = *self.alternatives.get_unchecked(level);
                        open -= usize::from(alternative);
                        if open == 0 && !alternative {
                            // Nothing left to try at any level: the rest
                            // would only undo. Leave it pending.
                            level += 1;
                            break;
                        }
                    }
                    let p = *self.choices.get_unchecked(level);
                    links.uncommit::<W>(p);
                    forced.len = self.marks.get_unchecked(level).1 as usize;
                    (*links.node(p)).down
                };
                // Try row `p`; back at the column header means exhausted.
                if p <= columns {
                    links.uncover::<W>(p);
                    forced.len = self.marks.get_unchecked(level).0 as usize;
                    descend = false;
                    continue;
                }
                if meter.exhausted(stats.nodes) {
                    links.uncover::<W>(links.top(p) as u32);
                    stats.budget_exceeded = true;
                    break;
                }
                stats.nodes += 1;
                if DEFER {
                    let alternative = (*links.node(p)).down > columns;
                    *self.alternatives.get_unchecked_mut(level) = alternative;
                    open += usize::from(alternative);
                }
                *self.choices.get_unchecked_mut(level) = p;
                updates += links.commit::<W>(p, &mut forced);
                level += 1;
                descend = true;
            }
            if DEFER {
                self.pending = level;
                level = 0;
            }
            // Unwind whatever is still committed (early stop).
            while level > 0 {
                level -= 1;
                let p = self.choices[level];
                links.uncommit::<W>(p);
                links.uncover::<W>(links.top(p) as u32);
            }
        }
        stats.updates = updates;
        stats
    }

    #[cold]
    fn report(&mut self, level: usize, visit: &mut Visit<'_>) -> ControlFlow<()> {
        let mut rows = std::mem::take(&mut self.solution);
        rows.clear();
        rows.extend(self.selected.iter().map(|&r| r as usize));
        rows.extend(self.choices[..level].iter().map(|&p| self.row_of(p)));
        let flow = visit(&rows);
        self.solution = rows;
        flow
    }
}

/// Bit `i` set when byte `i` of the 64 is nonzero (a [`Dlx::select_all`]
/// mark, `0xff`).
#[inline(always)]
fn removed_bits(marks: &[u8]) -> u64 {
    debug_assert_eq!(marks.len(), 64);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_loadu_si128, _mm_movemask_epi8};
        let mut bits = 0u64;
        for (i, chunk) in marks.chunks_exact(16).enumerate() {
            // SAFETY: SSE2 is part of x86_64; the load reads the chunk's
            // 16 bytes, unaligned.
            let lanes = unsafe { _mm_movemask_epi8(_mm_loadu_si128(chunk.as_ptr().cast())) };
            bits |= u64::from(lanes as u16) << (16 * i);
        }
        bits
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        marks
            .iter()
            .enumerate()
            .fold(0, |bits, (i, &m)| bits | u64::from(m != 0) << i)
    }
}

/// The Dancing Links engine: the selections undone cover by cover (or
/// relinked, after [`Engine::select_all`]), the search in [`Dlx::run`].
impl Engine for Dlx {
    const KIND: EngineKind = EngineKind::Dlx;
    const COUNTS_MEMS: bool = false;

    /// Builds the arena, or reports that the problem is too large.
    fn try_new(problem: &Problem) -> Result<Self, super::ProblemError> {
        Self::build(problem, true)
    }

    /// Number of rows of the problem.
    fn rows(&self) -> usize {
        self.rows
    }

    /// Every heap byte this arena holds: [`Dlx::arena_bytes`],
    /// [`Dlx::placement_bytes`] and the search's own stacks (the
    /// forced-column stack has room for an entry per node; the choices and
    /// marks one per column, the deepest a search can go).
    fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.nodes)
            + bytes(&self.tops)
            + bytes(&self.lens)
            + bytes(&self.spacers)
            + bytes(&self.choices)
            + bytes(&self.marks)
            + bytes(&self.forced)
            + bytes(&self.selected)
            + bytes(&self.solution)
            + bytes(&self.col_rows)
            + bytes(&self.col_starts)
            + bytes(&self.removed)
            + bytes(&self.alternatives)
    }

    /// Preselects row `row` (for instance a Sudoku clue): its columns are
    /// covered before any search, as if the search had chosen it.
    ///
    /// Returns `false`, selecting nothing, when the row clashes with an
    /// earlier selection; every later search then finds no solution until
    /// [`Dlx::reset`].
    ///
    /// # Panics
    /// If `row >= self.rows()`.
    fn select(&mut self, row: usize) -> bool {
        assert!(row < self.rows(), "row {row} out of range");
        self.settle();
        let nodes = self.row_nodes(row);
        let clash = nodes.clone().any(|q| !self.is_active(self.top(q) as u32));
        if clash {
            self.conflict = true;
            return false;
        }
        let links = self.links();
        let mut forced = self.forced();
        for q in nodes {
            let c = self.top(q) as u32;
            // SAFETY: `q` is a node of the row, so its `top` is a column.
            self.select_updates += with_width!(self.width, W => unsafe {
                links.cover::<W>(c, &mut forced)
            });
        }
        self.forced_len = forced.len;
        self.selected.push(row as u32);
        true
    }

    /// Resets the arena and selects `rows`: the same state as [`Dlx::reset`]
    /// followed by [`Dlx::select`] of each row, so the same solutions, up
    /// to one order that only decides where the search breaks ties: the
    /// forced-column stack lists the short columns in column order.
    ///
    /// Rather than uncovering the previous selection and covering the new
    /// one link by link, it empties every column list, marks the rows of
    /// the rows' columns as removed, and links the other rows back in row
    /// order: the lists exactly as the covers would have left them, so the
    /// search is the same, with the same [`SearchStats::updates`] (each
    /// removed row counts the nodes hiding it would have removed). Its cost
    /// is the rows kept plus the rows of the covered columns, not the
    /// removals and their undoing (for a 17-clue 9x9 Sudoku, about 300 rows
    /// linked against about 430 hidden and restored), and there is nothing
    /// to undo afterwards, not even what a [`Dlx::search_deferred`] left.
    ///
    /// Returns `false` when a row shares a column with an earlier one (that
    /// row is skipped, as [`Dlx::select`] does); every search then finds no
    /// solution until the next `select_all` or `reset`.
    ///
    /// # Panics
    /// If a row is out of range.
    ///
    /// ```
    /// use dlxbench::exact_cover::{Dlx, Engine, Problem, SearchOptions};
    ///
    /// let mut p = Problem::new(3, 0);
    /// for row in [&[0, 1][..], &[2], &[0], &[1, 2]] {
    ///     p.add_row(row).unwrap();
    /// }
    /// let mut dlx = Dlx::new(&p);
    /// assert!(dlx.select_all(&[1]));
    /// assert_eq!(dlx.count(SearchOptions::default()).solutions, 1); // rows 0, 1
    /// assert!(!dlx.select_all(&[0, 2]), "rows 0 and 2 share column 0");
    /// assert_eq!(dlx.count(SearchOptions::default()).solutions, 0);
    /// dlx.reset();
    /// assert_eq!(dlx.count(SearchOptions::default()).solutions, 2);
    /// ```
    fn select_all(&mut self, rows: &[usize]) -> bool {
        for &row in rows {
            assert!(row < self.rows(), "row {row} out of range");
        }
        // Whatever a deferred search left is relinked below.
        self.pending = 0;
        // Every column open and empty (secondary flags kept)...
        let columns = self.columns as usize;
        for (c, (node, len)) in self.nodes[1..=columns]
            .iter_mut()
            .zip(&mut self.lens[1..=columns])
            .enumerate()
        {
            let c = c as u32 + 1;
            *node = Node { up: c, down: c };
            *len &= SECONDARY;
        }
        self.removed.fill(0);
        // ...then the rows' columns covered, skipping a row that clashes
        // with an earlier one, as `select` does, and the rows of every
        // covered column marked as removed...
        let mut conflict = false;
        for &row in rows {
            let nodes = self.row_nodes(row);
            if nodes.clone().any(|q| !self.is_active(self.top(q) as u32)) {
                conflict = true;
                continue;
            }
            let (removed, col_rows) = (&mut self.removed[..], &self.col_rows[..]);
            for q in nodes {
                let c = self.tops[q as usize] as usize;
                self.lens[c] |= COVERED;
                let span = self.col_starts[c - 1] as usize..self.col_starts[c] as usize;
                for &k in &col_rows[span] {
                    removed[k as usize] = 0xff;
                }
            }
        }
        // ...and the other rows linked back, in row order: the lists
        // exactly as covering would have left them. Each removed row would
        // have been hidden once, its other nodes removed from their lists.
        let kept = with_width!(self.width, W => self.link_kept_rows::<W>());
        self.selected.clear();
        self.selected.extend(rows.iter().map(|&r| r as u32));
        self.list_short_columns();
        self.select_updates = self.entries - self.rows as u64 - kept;
        self.conflict = conflict;
        self.placed = !rows.is_empty();
        !conflict
    }

    /// Selects each of `rows` in turn, as [`Dlx::select`] does (undone by
    /// [`Dlx::reset`], in time proportional to what they covered), then
    /// lists the short columns in column order as [`Dlx::select_all`] does.
    /// After a reset, the arena is then exactly as `select_all(rows)` leaves
    /// it, so the search that follows is the same, node for node.
    ///
    /// Returns `false` when a row clashes with an earlier selection (that
    /// row is skipped; every search then finds no solution until the next
    /// reset).
    ///
    /// # Panics
    /// If a row is out of range.
    ///
    /// ```
    /// use dlxbench::exact_cover::{Dlx, Engine, Problem, SearchOptions};
    ///
    /// let mut p = Problem::new(3, 0);
    /// for row in [&[0, 1][..], &[2], &[0], &[1, 2]] {
    ///     p.add_row(row).unwrap();
    /// }
    /// let mut dlx = Dlx::new(&p);
    /// assert!(dlx.select_rows(&[1]));
    /// let undo = dlx.count(SearchOptions::default());
    /// dlx.reset();
    /// let pristine = dlx.clone();
    /// assert!(dlx.select_all(&[1]));
    /// assert_eq!(dlx.count(SearchOptions::default()), undo);
    /// dlx.reset();
    /// assert_eq!(dlx, pristine);
    /// ```
    fn select_rows(&mut self, rows: &[usize]) -> bool {
        let mut ok = true;
        for &row in rows {
            ok &= self.select(row);
        }
        self.list_short_columns();
        ok
    }

    /// Undoes every selection (and what a [`Dlx::search_deferred`] left),
    /// returning the arena to the state [`Dlx::new`] built. Costs time
    /// proportional to what the selections covered, not to the arena's
    /// size, unless rows were placed with [`Dlx::select_all`]: then it
    /// relinks every row.
    fn reset(&mut self) {
        if self.placed {
            self.select_all(&[]);
        }
        self.settle();
        while let Some(row) = self.selected.pop() {
            let links = self.links();
            for q in self.row_nodes(row as usize).rev() {
                let c = self.top(q) as u32;
                // SAFETY: as in `select`, whose covers this undoes in reverse.
                with_width!(self.width, W => unsafe { links.uncover::<W>(c) });
            }
        }
        self.conflict = false;
        self.select_updates = 0;
        self.forced_len = LOOKBACK;
    }

    /// Undoes what a [`Dlx::search_deferred`] left covered, if anything:
    /// the arena is then as the search found it.
    fn settle(&mut self) {
        if self.pending == 0 {
            return;
        }
        let links = self.links();
        while self.pending > 0 {
            self.pending -= 1;
            let p = self.choices[self.pending];
            // SAFETY: as in `run`, whose commits and covers these undo in
            // reverse order.
            with_width!(self.width, W => unsafe {
                links.uncommit::<W>(p);
                links.uncover::<W>(links.top(p) as u32);
            });
        }
    }

    fn prepare_search(&mut self) -> bool {
        self.settle();
        !self.conflict
    }

    fn select_updates(&self) -> u64 {
        self.select_updates
    }

    /// [`Engine::search`] (`defer` false) or [`Engine::search_deferred`]
    /// (`defer` true): a search loop compiled for each, chosen here, in
    /// the library, so that no caller compiles the loops again.
    // The same dispatch as `Dc`'s, deliberately: written in each impl it
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

impl Dlx {
    /// Algorithm X ([`Dlx::run`]) compiled for the column choice and the
    /// row width. Under [`Engine::search_deferred`], what the path the
    /// search ended on covered is left for [`Engine::settle`] (for a
    /// Sudoku solved without a guess, about half its link operations).
    fn run_compiled<const DEFER: bool>(
        &mut self,
        options: SearchOptions,
        visit: &mut Visit<'_>,
    ) -> SearchStats {
        with_width!(self.width, W => match options.choice {
            ColumnChoice::MinimumRemaining => self.run::<TUNED, W, DEFER>(options, visit),
            ColumnChoice::First => self.run::<FIRST, W, DEFER>(options, visit),
            ColumnChoice::Forced => self.run::<FORCED, W, DEFER>(options, visit),
            // DLX1's list of active columns is in column order.
            ColumnChoice::LowestIndex | ColumnChoice::Knuth => {
                self.run::<LOWEST, W, DEFER>(options, visit)
            }
        })
    }
}
