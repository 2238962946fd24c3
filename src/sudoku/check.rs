//! The rule checker: is a grid complete, incomplete, or breaking a rule?

use super::{BoxShape, Grid, MAX_SIDE};

/// A unit of the grid: a row, a column or a box, numbered from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Row `i`, top to bottom.
    Row(usize),
    /// Column `i`, left to right.
    Column(usize),
    /// Box `i`, in reading order.
    Box(usize),
}

impl std::fmt::Display for Unit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

/// The checker's verdict on a grid.
// Shaped like Hanidoku's `Verdict` on purpose: each kind names its own
// broken unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every cell filled, no unit repeats a symbol: a solved grid.
    Complete,
    /// No unit repeats a symbol, but `blanks` cells are empty.
    Incomplete {
        /// Number of blank cells.
        blanks: usize,
    },
    /// `unit` holds `symbol` more than once (the first such unit found, rows
    /// before columns before boxes).
    Invalid {
        /// The unit that repeats a symbol.
        unit: Unit,
        /// The repeated symbol, `1..=n`.
        symbol: u8,
    },
}

impl Verdict {
    /// The rule an `Invalid` verdict breaks, as its `Display` writes it
    /// after `invalid: ` (`row 3 repeats 7`); nothing for other verdicts.
    pub(super) fn write_broken_rule(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Invalid { unit, symbol } => write!(f, "{unit} repeats {symbol}"),
            Verdict::Complete | Verdict::Incomplete { .. } => Ok(()),
        }
    }
}

/// Checks the grid against the rules.
///
/// ```
/// use dlxbench::sudoku::{check, BoxShape, Grid, Unit, Verdict};
/// let mut g = Grid::empty(BoxShape::new(2, 2).unwrap());
/// assert_eq!(check(&g), Verdict::Incomplete { blanks: 16 });
/// g.set(0, 0, 3);
/// g.set(1, 1, 3); // same 2x2 box
/// assert_eq!(check(&g), Verdict::Invalid { unit: Unit::Box(0), symbol: 3 });
/// ```
pub fn check(grid: &Grid) -> Verdict {
    let n = grid.side();
    let shape = grid.shape();
    // The cell index of the `i`-th cell of unit `u` of each kind.
    let cell = |unit: Unit, i: usize| match unit {
        Unit::Row(u) => u * n + i,
        Unit::Column(u) => i * n + u,
        Unit::Box(u) => {
            let (r, c) = (shape.box_rows(), shape.box_cols());
            ((u / r) * r + i / c) * n + (u % r) * c + i % c
        }
    };
    let mut seen = [false; MAX_SIDE + 1];
    let seen = &mut seen[..=n];
    let kinds: [fn(usize) -> Unit; 3] = [Unit::Row, Unit::Column, Unit::Box];
    for kind in kinds {
        for u in 0..n {
            seen.iter_mut().for_each(|s| *s = false);
            for i in 0..n {
                let v = grid.cells()[cell(kind(u), i)];
                if v != 0 && std::mem::replace(&mut seen[v as usize], true) {
                    return Verdict::Invalid {
                        unit: kind(u),
                        symbol: v,
                    };
                }
            }
        }
    }
    match grid.cells().iter().filter(|&&v| v == 0).count() {
        0 => Verdict::Complete,
        blanks => Verdict::Incomplete { blanks },
    }
}

/// True when `solution` is a complete, valid grid of the same shape that
/// keeps every clue of `puzzle`. Solvers' answers are validated with this,
/// outside any timed region.
///
/// The harness calls this for every solve, so it allocates nothing and
/// divides nothing per cell (unlike [`check`], which also says what is
/// wrong), and 9x9 grids have a version of their own.
pub fn is_solution_of(solution: &Grid, puzzle: &Grid) -> bool {
    let shape = solution.shape();
    if shape != puzzle.shape() {
        return false;
    }
    // Column and box masks for the grid's side only: zeroing masks for
    // the largest side (4 KiB) cost more than checking a 9x9 grid.
    match shape.side() {
        _ if shape == BoxShape::NINE => fits_nine(solution.cells(), puzzle.cells()),
        0..=32 => fits_small(solution, puzzle),
        _ => fits::<MAX_SIDE>(solution, puzzle),
    }
}

/// [`is_solution_of`] for 9x9 grids with 3x3 boxes, which the harness
/// validates millions of times.
///
/// Each cell's symbol becomes a weight: `1 << (v - 1)` for 1..=9, 0 for
/// anything else. Nine weights sum to `0x1FF` exactly when they are the
/// nine distinct powers 1..=256: a sum of at most nine powers of two has at
/// most as many one bits as nonzero terms, and as many only when no two
/// terms are equal (no carry). So a unit is complete exactly when its
/// weights sum to `0x1FF`, and sums, unlike the ORs of a bit set, add up
/// four 16-bit lanes of a `u64` at once (SWAR, [`units_complete`]). The
/// weights come from a vector table lookup (`pshufb`, 16 cells an
/// instruction) where the processor has SSSE3, else from a table in
/// memory, a cell at a time; the clue check is a separate pass over the
/// bytes, which the compiler vectorises. No branch, no store but the
/// weights'. `cargo bench --bench harness -- is_solution_of_9x9` measured
/// 31.3-32.1 ns a grid with `pshufb` (three runs), 35-38 ns with the table
/// alone (three runs of that version), 52-53 ns for the version before,
/// which ORed a bit per cell into 27 unit masks; callgrind counts 427
/// instructions a call with `pshufb`, 560 with the table.
fn fits_nine(cells: &[u8], clues: &[u8]) -> bool {
    let (Ok(cells), Ok(clues)) = (<&[u8; 81]>::try_from(cells), <&[u8; 81]>::try_from(clues))
    else {
        return false;
    };
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") {
        // SAFETY: the processor has SSSE3.
        return unsafe { fits_nine_ssse3(cells, clues) };
    }
    fits_nine_table(cells, clues)
}

/// [`fits_nine`] with the weights looked up in memory, a cell at a time.
fn fits_nine_table(cells: &[u8; 81], clues: &[u8; 81]) -> bool {
    /// Symbol to weight: `1 << (v - 1)` for 1..=9, 0 for anything else.
    static WEIGHT: [u16; 256] = {
        let mut table = [0u16; 256];
        let mut v = 1;
        while v <= 9 {
            table[v] = 1 << (v - 1);
            v += 1;
        }
        table
    };
    let weight = |i: usize| u64::from(WEIGHT[usize::from(cells[i])]);
    let word =
        |i: usize| weight(i) | weight(i + 1) << 16 | weight(i + 2) << 32 | weight(i + 3) << 48;
    keeps_clues(cells, clues) & units_complete(word, weight)
}

/// [`fits_nine`] with the weights of 16 cells looked up at once, in a
/// register (`pshufb`), and stored as 16-bit lanes for [`units_complete`]
/// to read four at a time.
///
/// # Safety
/// The processor must have SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn fits_nine_ssse3(cells: &[u8; 81], clues: &[u8; 81]) -> bool {
    use std::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_min_epu8, _mm_set1_epi8, _mm_setr_epi8, _mm_shuffle_epi8,
        _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpacklo_epi8,
    };
    // Padded to whole vectors with blanks (weight 0, never read as a cell).
    let mut padded = [0u8; 96];
    padded[..81].copy_from_slice(cells);
    // Little-endian 16-bit weights, cell `i` at bytes `2i` and `2i + 1`.
    let mut weights = [0u8; 192];
    // Symbols above 9 clamp to 10, so that the table's index (the low four
    // bits) is the symbol itself; 0 and 10 weigh 0.
    let ten = _mm_set1_epi8(10);
    let low = _mm_setr_epi8(0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0);
    let high = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0);
    for (from, to) in padded.chunks_exact(16).zip(weights.chunks_exact_mut(32)) {
        // SAFETY: 16 bytes read from `from`, 32 written to `to`, unaligned
        // accesses, both in bounds.
        unsafe {
            let v = _mm_min_epu8(_mm_loadu_si128(from.as_ptr().cast::<__m128i>()), ten);
            let (lo, hi) = (_mm_shuffle_epi8(low, v), _mm_shuffle_epi8(high, v));
            let out = to.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(out, _mm_unpacklo_epi8(lo, hi));
            _mm_storeu_si128(out.add(1), _mm_unpackhi_epi8(lo, hi));
        }
    }
    let word = |i: usize| {
        let bytes: [u8; 8] = weights[2 * i..2 * i + 8].try_into().unwrap();
        u64::from_le_bytes(bytes)
    };
    let weight = |i: usize| u64::from(u16::from_le_bytes([weights[2 * i], weights[2 * i + 1]]));
    keeps_clues(cells, clues) & units_complete(word, weight)
}

/// True when every clue (a nonzero symbol of `clues`) is kept in `cells`.
#[inline(always)]
fn keeps_clues(cells: &[u8; 81], clues: &[u8; 81]) -> bool {
    let mut lost = 0u8;
    for (&v, &clue) in cells.iter().zip(clues) {
        lost |= u8::from(clue != 0) & u8::from(clue != v);
    }
    lost == 0
}

/// True when every row, column and box of a 9x9 grid sums to `0x1FF`
/// ([`fits_nine`]), given `word(i)`: the weights of cells `i..i + 4` in the
/// 16-bit lanes of a `u64`, cell `i` lowest; and `weight(i)`: cell `i`'s.
///
/// Each row is read as cells 0-3 and 4-7 in two words and cell 8 alone; the
/// words of a band's rows, added, hold its column sums, whose lanes make
/// its box sums; the bands', added, the grid's column sums. No lane ever
/// exceeds 2,304, so none carries into the next.
#[inline(always)]
fn units_complete(word: impl Fn(usize) -> u64, weight: impl Fn(usize) -> u64) -> bool {
    /// A one in each 16-bit lane.
    const LANES: u64 = 0x0001_0001_0001_0001;
    const FULL: u64 = 0x1FF;
    const LANE: u64 = 0xFFFF;
    // Any bit set: some unit's sum is not `FULL`.
    let mut wrong = 0u64;
    let (mut cols_0_3, mut cols_4_7, mut col_8) = (0u64, 0u64, 0u64);
    for band in 0..3 {
        let (mut b0, mut b1, mut b8) = (0u64, 0u64, 0u64);
        for row in band * 3..band * 3 + 3 {
            let (w0, w1, w8) = (word(row * 9), word(row * 9 + 4), weight(row * 9 + 8));
            // The four lanes of `w0 + w1` summed into the top one.
            wrong |= (((w0 + w1).wrapping_mul(LANES) >> 48) + w8) ^ FULL;
            b0 += w0;
            b1 += w1;
            b8 += w8;
        }
        wrong |= ((b0 + (b0 >> 16) + (b0 >> 32)) & LANE) ^ FULL;
        wrong |= ((b0 >> 48) + (b1 & LANE) + ((b1 >> 16) & LANE)) ^ FULL;
        wrong |= (((b1 >> 32) & LANE) + (b1 >> 48) + b8) ^ FULL;
        cols_0_3 += b0;
        cols_4_7 += b1;
        col_8 += b8;
    }
    wrong |= cols_0_3 ^ (FULL * LANES);
    wrong |= cols_4_7 ^ (FULL * LANES);
    wrong |= col_8 ^ FULL;
    wrong == 0
}

/// A 9x9 check: solution cells, puzzle cells.
#[cfg(test)]
type NineCheck = fn(&[u8; 81], &[u8; 81]) -> bool;

/// Every implementation of [`fits_nine`] this processor runs (for tests):
/// each must agree with the general check.
#[cfg(test)]
fn nine_checks() -> Vec<(&'static str, NineCheck)> {
    let mut all: Vec<(&'static str, NineCheck)> = vec![("table", fits_nine_table)];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") {
        // SAFETY: the processor has SSSE3.
        all.push(("ssse3", |c, k| unsafe { fits_nine_ssse3(c, k) }));
    }
    all
}

/// [`is_solution_of`] for sides up to 32, the common case, made cheap: the
/// harness validates every solve, and the general loop below cost 2.6% of
/// a `dlx` run on 9x9 grids (perf). `u32` masks, the box of each column
/// looked up, not divided, and the cell checks folded into one flag
/// instead of a branch each.
fn fits_small(solution: &Grid, puzzle: &Grid) -> bool {
    let shape = solution.shape();
    let n = shape.side();
    let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
    let full = u32::MAX >> (32 - n);
    let mut cols = [0u32; 32];
    let mut boxes = [0u32; 32];
    let mut box_of_col = [0u8; 32];
    for (c, b) in box_of_col.iter_mut().enumerate().take(n) {
        *b = (c / box_cols) as u8;
    }
    let mut bad = false;
    for (r, (row_cells, row_clues)) in solution
        .cells()
        .chunks_exact(n)
        .zip(puzzle.cells().chunks_exact(n))
        .enumerate()
    {
        let first_box = (r / box_rows) * box_rows;
        let mut row = 0u32;
        for c in 0..n {
            let (v, clue) = (row_cells[c], row_clues[c]);
            bad |= v == 0 || usize::from(v) > n || (clue != 0 && clue != v);
            // A bad `v` gives some bit; `bad` already says no.
            let bit = 1u32.wrapping_shl(u32::from(v).wrapping_sub(1));
            row |= bit;
            cols[c] |= bit;
            boxes[first_box + usize::from(box_of_col[c])] |= bit;
        }
        bad |= row != full;
    }
    !bad && cols[..n].iter().chain(&boxes[..n]).all(|&m| m == full)
}

/// [`is_solution_of`] for grids of side at most `K`, of one shape.
#[inline]
fn fits<const K: usize>(solution: &Grid, puzzle: &Grid) -> bool {
    let shape = solution.shape();
    let n = shape.side();
    let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
    let full = u128::MAX >> (128 - n);
    let mut cols = [0u128; K];
    let mut boxes = [0u128; K];
    let cells = solution.cells();
    let clues = puzzle.cells();
    for r in 0..n {
        let mut row = 0u128;
        let mut b = (r / box_rows) * box_rows;
        let mut in_box = 0;
        for c in 0..n {
            let (v, clue) = (cells[r * n + c], clues[r * n + c]);
            if v == 0 || usize::from(v) > n || (clue != 0 && clue != v) {
                return false;
            }
            let bit = 1u128 << (v - 1);
            row |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
            in_box += 1;
            if in_box == box_cols {
                in_box = 0;
                b += 1;
            }
        }
        // n cells and every symbol: each once.
        if row != full {
            return false;
        }
    }
    cols[..n].iter().chain(&boxes[..n]).all(|&m| m == full)
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::BoxShape;

    fn pattern(shape: BoxShape) -> Grid {
        Grid::shifted_pattern(shape)
    }

    #[test]
    fn pattern_grids_are_complete_for_all_shapes() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 4),
            (5, 5),
            (9, 9),
        ] {
            let g = pattern(BoxShape::new(r, c).unwrap());
            assert_eq!(check(&g), Verdict::Complete, "{r}x{c}");
        }
    }

    #[test]
    fn finds_the_repeating_unit() {
        let mut g = pattern(BoxShape::NINE);
        // Swap two cells of row 0 in different boxes: columns repeat, row ok.
        let (a, b) = (g.get(0, 0), g.get(0, 4));
        g.set(0, 0, b);
        g.set(0, 4, a);
        assert_eq!(
            check(&g),
            Verdict::Invalid {
                unit: Unit::Column(0),
                symbol: b
            }
        );
        let mut g = pattern(BoxShape::NINE);
        let v = g.get(4, 4);
        g.set(4, 5, v);
        assert!(
            matches!(check(&g), Verdict::Invalid { unit: Unit::Row(4), symbol } if symbol == v)
        );
        let shape = BoxShape::new(2, 3).unwrap();
        let mut g = Grid::empty(shape);
        g.set(2, 3, 5);
        g.set(3, 5, 5);
        assert_eq!(
            check(&g),
            Verdict::Invalid {
                unit: Unit::Box(3),
                symbol: 5
            }
        );
    }

    /// The slow definition the fast check must agree with.
    fn reference(solution: &Grid, puzzle: &Grid) -> bool {
        solution.shape() == puzzle.shape()
            && puzzle
                .cells()
                .iter()
                .zip(solution.cells())
                .all(|(&p, &s)| p == 0 || p == s)
            && check(solution) == Verdict::Complete
    }

    #[test]
    fn fast_solution_check_agrees_with_the_rule_checker() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (3, 4),
            (4, 4),
            (5, 5),
            (4, 8),
            (6, 6),
            (8, 8),
            (8, 16),
        ] {
            let shape = BoxShape::new(r, c).unwrap();
            let full = pattern(shape);
            let n = shape.side();
            let empty = Grid::empty(shape);
            assert!(is_solution_of(&full, &empty), "{r}x{c}");
            for _ in 0..200 {
                let mut g = full.clone();
                match next(4) {
                    // Two cells swapped: a row stays complete, a column or box may not.
                    0 => {
                        let (a, b) = (next(n * n), next(n * n));
                        g.cells_mut().swap(a, b);
                    }
                    // A symbol changed (maybe to blank).
                    1 => g.cells_mut()[next(n * n)] = next(n + 1) as u8,
                    // A symbol out of range (which `check` does not take).
                    2 if next(2) == 0 => {
                        g.cells_mut()[next(n * n)] = [n + 1, 33, 255][next(3)] as u8;
                        assert!(!is_solution_of(&g, &empty), "{r}x{c}");
                        continue;
                    }
                    // Two whole rows swapped: still valid when within a band.
                    2 => {
                        let (a, b) = (next(n), next(n));
                        for col in 0..n {
                            let (x, y) = (g.get(a, col), g.get(b, col));
                            g.set(a, col, y);
                            g.set(b, col, x);
                        }
                    }
                    _ => {}
                }
                let mut puzzle = full.clone();
                for cell in puzzle.cells_mut() {
                    if next(3) > 0 {
                        *cell = 0;
                    }
                }
                assert_eq!(
                    is_solution_of(&g, &puzzle),
                    reference(&g, &puzzle),
                    "{r}x{c}"
                );
                assert_eq!(is_solution_of(&g, &empty), reference(&g, &empty), "{r}x{c}");
            }
        }
    }

    mod nine {
        use super::*;
        use proptest::prelude::*;

        /// A solved grid less regular than [`pattern`]'s, where moving
        /// whole rows or columns between bands or stacks breaks boxes.
        fn solved() -> Grid {
            let text = b"534678912672195348198342567859761423426853791\
                         713924856961537284287419635345286179";
            Grid::from_cells(BoxShape::NINE, text.iter().map(|b| b - b'0').collect()).unwrap()
        }

        /// The cells of a 9x9 grid.
        fn nine(g: &Grid) -> &[u8; 81] {
            g.cells().try_into().unwrap()
        }

        /// The edits that can break one kind of unit only, at every place:
        /// each 9x9 check must say what the general check and `check` say,
        /// and each kind must break some grid. (No edit breaks one box
        /// alone, or column 8 alone: the rows and a band's other two boxes
        /// imply the third, the rows and columns 0-7 imply column 8.)
        #[test]
        fn the_nine_check_catches_every_fault_of_one_unit_kind() {
            let full = solved();
            let empty = Grid::empty(BoxShape::NINE);
            assert!(fits_nine(full.cells(), empty.cells()));
            // Per kind of edit: grids tried, and grids found broken.
            let mut tally = [(0, 0); 3];
            let mut judge = |kind: usize, g: &Grid| {
                let valid = reference(g, &empty);
                for (name, fits) in nine_checks() {
                    assert_eq!(fits(nine(g), nine(&empty)), valid, "{name}: {g:?}");
                }
                assert_eq!(fits_small(g, &empty), valid, "{g:?}");
                tally[kind].0 += 1;
                tally[kind].1 += usize::from(!valid);
            };
            for a in 0..81 {
                let (row, col) = (a / 9, a % 9);
                for k in 0..9 {
                    // Two cells of a column in one box: only rows break.
                    if k / 3 == row / 3 && k != row {
                        let mut g = full.clone();
                        g.cells_mut().swap(a, k * 9 + col);
                        judge(0, &g);
                    }
                    // Two cells of a row in one box: only columns break.
                    if k / 3 == col / 3 && k != col {
                        let mut g = full.clone();
                        g.cells_mut().swap(a, row * 9 + k);
                        judge(1, &g);
                    }
                }
            }
            for (a, b) in (0..9).flat_map(|a| (0..9).map(move |b| (a, b))) {
                if a / 3 == b / 3 {
                    continue;
                }
                // Two rows of different bands, two columns of different
                // stacks: only boxes can break.
                let (mut rows, mut cols) = (full.clone(), full.clone());
                for i in 0..9 {
                    rows.cells_mut().swap(a * 9 + i, b * 9 + i);
                    cols.cells_mut().swap(i * 9 + a, i * 9 + b);
                }
                judge(2, &rows);
                judge(2, &cols);
            }
            // Swaps within a unit always break the crossing units.
            assert_eq!(tally[0], (162, 162));
            assert_eq!(tally[1], (162, 162));
            assert_eq!(tally[2].0, 108);
            assert!(tally[2].1 > 0, "{tally:?}");
        }

        proptest! {
            /// The 9x9 check's sums must say what the general check's bit
            /// sets say, on valid grids and on grids a few edits away. The
            /// edits include those that break one kind of unit only: two
            /// cells of a column swapped within a box (rows), of a row
            /// within a box (columns), two rows of different bands or two
            /// columns of different stacks (boxes); and any symbol,
            /// including 0 and out-of-range ones. Clues are random.
            #[test]
            fn the_nine_check_agrees_with_the_general_one(
                digits in Just((1..=9u8).collect::<Vec<_>>()).prop_shuffle(),
                edits in proptest::collection::vec((0usize..8, 0usize..81, 0usize..81, any::<u8>()), 0..4),
                clues in proptest::collection::vec(any::<bool>(), 81),
            ) {
                let mut g = pattern(BoxShape::NINE);
                for cell in g.cells_mut() {
                    *cell = digits[usize::from(*cell) - 1];
                }
                let mut puzzle = g.clone();
                for (cell, &keep) in puzzle.cells_mut().iter_mut().zip(&clues) {
                    if !keep {
                        *cell = 0;
                    }
                }
                let cells = g.cells_mut();
                for &(kind, a, k, v) in &edits {
                    let (row, col) = (a / 9, a % 9);
                    match kind {
                        0 => cells.swap(a, k),
                        1 => cells.swap(a, (row / 3 * 3 + k % 3) * 9 + col),
                        2 => cells.swap(a, row * 9 + col / 3 * 3 + k % 3),
                        3 => (0..9).for_each(|c| cells.swap(row * 9 + c, k % 9 * 9 + c)),
                        4 => (0..9).for_each(|r| cells.swap(r * 9 + col, r * 9 + k % 9)),
                        5 => cells[a] = v % 11,
                        6 => cells[a] = v,
                        _ => cells[a] = cells[k],
                    }
                }
                let expected = fits_small(&g, &puzzle);
                for (name, fits) in nine_checks() {
                    prop_assert_eq!(fits(nine(&g), nine(&puzzle)), expected, "{}", name);
                }
                // `check` takes no symbol out of range.
                if g.cells().iter().all(|&v| v <= 9) {
                    prop_assert_eq!(expected, reference(&g, &puzzle));
                }
            }
        }
    }

    #[test]
    fn solution_must_keep_clues() {
        let full = pattern(BoxShape::NINE);
        let mut puzzle = full.clone();
        puzzle.set(0, 0, 0);
        assert!(is_solution_of(&full, &puzzle));
        let mut other = puzzle.clone();
        other.set(8, 8, if full.get(8, 8) == 1 { 2 } else { 1 });
        assert!(!is_solution_of(&full, &other));
        assert!(
            !is_solution_of(&puzzle, &puzzle),
            "incomplete is no solution"
        );
    }
}
