//! Classic exact-cover puzzles built with the library API: N-queens,
//! pentomino tilings and Langford pairings.
//!
//! Each builder returns a [`CoverPuzzle`]: the [`Problem`] and a name for
//! every column, so the same matrix can be searched in code with [`Dlx`] or
//! written out in the named text format ([`CoverPuzzle::write_named`]) for
//! `dlxbench cover`. The `queens`, `pentominoes` and `langford` examples
//! (`cargo run --release --example queens`) print counts and costs and have
//! an `--emit` option that prints that text.
//!
//! ```
//! use dlxbench::exact_cover::puzzles;
//! use dlxbench::exact_cover::{Dlx, Engine, SearchOptions};
//!
//! let eight = puzzles::queens(8).unwrap();
//! let stats = Dlx::new(&eight.problem).count(SearchOptions::default());
//! assert_eq!(stats.solutions, 92);
//! ```
//!
//! Known counts used by the tests, with their sources: N-queens for
//! n = 1..12 is OEIS A000170; pentominoes on the 6x10, 5x12, 4x15 and 3x20
//! rectangles have 2339, 1010, 368 and 2 solutions up to symmetry (Knuth,
//! *Dancing Links*, 2000; Haselgrove 1960), the 8x8 square without its
//! central 2x2 65 (Scott 1958); Langford pairings up to reversal are OEIS
//! A014552 (26 for n = 7, 150 for n = 8).
//!
//! [`Dlx`]: super::Dlx

use std::fmt;

use super::{Problem, ProblemError};

/// A puzzle's exact-cover matrix with the name of every column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoverPuzzle {
    /// The matrix: columns `0..problem.primary()` primary, the rest secondary.
    pub problem: Problem,
    /// One name per column, without whitespace, `#` or `|`.
    pub column_names: Vec<String>,
}

/// Errors from the puzzle builders.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// A size parameter out of the supported range.
    #[error("{what} must be in {min}..={max}, not {value}")]
    OutOfRange {
        /// The parameter.
        what: &'static str,
        /// The value given.
        value: usize,
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
    },
    /// A pentomino board that does not have the 60 cells the twelve pieces
    /// cover.
    #[error("a pentomino board needs 60 cells (12 pieces of 5), this one has {cells}")]
    BoardCells {
        /// Cells of the board.
        cells: usize,
    },
    /// A board description that could not be read.
    #[error("bad board `{text}`: {reason}")]
    BadBoard {
        /// The description.
        text: String,
        /// What was expected.
        reason: String,
    },
    /// The matrix could not be built (a bug in a builder).
    #[error(transparent)]
    Problem(#[from] ProblemError),
}

impl CoverPuzzle {
    fn new(primary: Vec<String>, secondary: Vec<String>) -> Self {
        let problem = Problem::new(primary.len(), secondary.len());
        let mut column_names = primary;
        column_names.extend(secondary);
        CoverPuzzle {
            problem,
            column_names,
        }
    }

    /// Writes the puzzle in the named format that `dlxbench cover` and
    /// [`Problem::parse`] read: `comment` lines prefixed with `# `, a header
    /// of the column names (with `|` before the secondary ones, if any),
    /// then one row per line.
    pub fn write_named<W: fmt::Write + ?Sized>(&self, out: &mut W, comment: &str) -> fmt::Result {
        for line in comment.lines() {
            writeln!(out, "# {line}")?;
        }
        let primary = self.problem.primary();
        for (i, name) in self.column_names.iter().enumerate() {
            if i > 0 {
                out.write_char(' ')?;
            }
            if i == primary && i > 0 {
                out.write_str("| ")?;
            }
            out.write_str(name)?;
        }
        out.write_char('\n')?;
        for row in 0..self.problem.rows() {
            for (i, column) in self.problem.row(row).enumerate() {
                if i > 0 {
                    out.write_char(' ')?;
                }
                out.write_str(&self.column_names[column])?;
            }
            out.write_char('\n')?;
        }
        Ok(())
    }

    /// [`CoverPuzzle::write_named`] into a new string.
    pub fn to_named_text(&self, comment: &str) -> String {
        let mut text = String::new();
        self.write_named(&mut text, comment)
            .expect("writing to a String cannot fail");
        text
    }
}

// --- N-queens ----------------------------------------------------------------

/// Largest board side [`queens`] builds.
pub const MAX_QUEENS: usize = 64;

/// `value` of the parameter `what` if it is in `1..=max`, else
/// [`PuzzleError::OutOfRange`].
fn in_range(what: &'static str, value: usize, max: usize) -> Result<usize, PuzzleError> {
    match (1..=max).contains(&value) {
        true => Ok(value),
        false => Err(PuzzleError::OutOfRange {
            what,
            value,
            min: 1,
            max,
        }),
    }
}

/// The N-queens problem on an `n` x `n` board (`1..=64`).
///
/// Columns `r0..` (ranks) and `c0..` (files) are primary: every rank and
/// file holds exactly one queen. The diagonals `a0..a{2n-2}` (`r + c`
/// constant) and `b0..` (`r - c` constant) are secondary: at most one
/// queen each. Row `r * n + c` puts a queen on rank `r`, file `c`.
///
/// ```
/// let q4 = dlxbench::exact_cover::puzzles::queens(4).unwrap();
/// assert_eq!(q4.problem.rows(), 16);
/// assert_eq!((q4.problem.primary(), q4.problem.secondary()), (8, 14));
/// assert_eq!(q4.column_names[8], "a0");
/// ```
pub fn queens(n: usize) -> Result<CoverPuzzle, PuzzleError> {
    in_range("the board side", n, MAX_QUEENS)?;
    let diagonals = 2 * n - 1;
    let primary = (0..n)
        .map(|r| format!("r{r}"))
        .chain((0..n).map(|c| format!("c{c}")))
        .collect();
    let secondary = (0..diagonals)
        .map(|d| format!("a{d}"))
        .chain((0..diagonals).map(|d| format!("b{d}")))
        .collect();
    let mut puzzle = CoverPuzzle::new(primary, secondary);
    puzzle.problem.reserve(n * n, 4 * n * n);
    for r in 0..n {
        for c in 0..n {
            let a = 2 * n + r + c;
            let b = 2 * n + diagonals + (r + n - 1 - c);
            puzzle.problem.add_row(&[r, n + c, a, b])?;
        }
    }
    Ok(puzzle)
}

// --- Pentominoes -------------------------------------------------------------

/// The twelve pentominoes in their conventional letters, each drawn in one
/// orientation (`#` a cell).
pub const PENTOMINOES: [(char, &str); 12] = [
    ('F', ".##/##./.#."),
    ('I', "#####"),
    ('L', "####/#..."),
    ('N', "##../.###"),
    ('P', "##/##/#."),
    ('T', "###/.#./.#."),
    ('U', "#.#/###"),
    ('V', "#../#../###"),
    ('W', "#../##./.##"),
    ('X', ".#./###/.#."),
    ('Y', "####/.#.."),
    ('Z', "##./.#./.##"),
];

/// The order in which [`pentominoes`] tries pieces for the symmetry
/// reduction: X first (its few placements, restricted, prune the search
/// most), then the others. F, L, N, P and Y always qualify.
const SYMMETRY_PREFERENCE: &str = "XFLNPYTUVWZI";

/// A cell as (row, column).
type Cell = (i32, i32);

/// One of the eight symmetries of the square applied to a cell:
/// `t & 3` quarter turns, then a mirror image when `t & 4`.
fn transform(t: usize, (r, c): Cell) -> Cell {
    let (mut r, mut c) = (r, c);
    for _ in 0..t & 3 {
        (r, c) = (c, -r);
    }
    if t & 4 != 0 {
        c = -c;
    }
    (r, c)
}

/// Cells shifted to start at row 0 and column 0, sorted.
fn normalise(cells: &mut [Cell]) {
    let r0 = cells.iter().map(|p| p.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|p| p.1).min().unwrap_or(0);
    for p in cells.iter_mut() {
        *p = (p.0 - r0, p.1 - c0);
    }
    cells.sort_unstable();
}

fn image(t: usize, cells: &[Cell]) -> Vec<Cell> {
    let mut out: Vec<Cell> = cells.iter().map(|&p| transform(t, p)).collect();
    normalise(&mut out);
    out
}

fn shape_cells(drawing: &str) -> Vec<Cell> {
    let mut cells = Vec::new();
    for (r, line) in drawing.split('/').enumerate() {
        for (c, ch) in line.chars().enumerate() {
            if ch == '#' {
                cells.push((r as i32, c as i32));
            }
        }
    }
    normalise(&mut cells);
    cells
}

/// The distinct orientations of a piece (1, 2, 4 or 8), normalised, in the
/// order of the symmetries that first produce them.
pub fn orientations(drawing: &str) -> Vec<Vec<(i32, i32)>> {
    let base = shape_cells(drawing);
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for t in 0..8 {
        let o = image(t, &base);
        if !out.contains(&o) {
            out.push(o);
        }
    }
    out
}

/// A board for pentomino tilings: a rectangle with some cells removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PentominoBoard {
    width: usize,
    height: usize,
    /// `open[r * width + c]`: the cell is to be covered.
    open: Vec<bool>,
}

impl PentominoBoard {
    /// A rectangle of `rows` x `cols` cells, each side `1..=64`.
    pub fn rectangle(rows: usize, cols: usize) -> Result<PentominoBoard, PuzzleError> {
        let (height, width) = (rows, cols);
        for (what, value) in [("the board's rows", rows), ("the board's columns", cols)] {
            in_range(what, value, 64)?;
        }
        Ok(PentominoBoard {
            width,
            height,
            open: vec![true; width * height],
        })
    }

    /// The 8x8 square without its central 2x2 (Dana Scott's 1958 problem).
    pub fn square_with_centre_hole() -> PentominoBoard {
        let mut board = PentominoBoard::rectangle(8, 8).expect("8x8 is in range");
        for (r, c) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
            board.open[r * 8 + c] = false;
        }
        board
    }

    /// Reads `RxC` (a rectangle of R rows and C columns, e.g. `6x10`) or
    /// `8x8-hole` (the square without its centre).
    pub fn parse(text: &str) -> Result<PentominoBoard, PuzzleError> {
        let bad = |reason: &str| PuzzleError::BadBoard {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        if text == "8x8-hole" {
            return Ok(PentominoBoard::square_with_centre_hole());
        }
        let expected = "expected ROWSxCOLUMNS such as 6x10, or 8x8-hole";
        let (r, c) = text.split_once(['x', 'X']).ok_or_else(|| bad(expected))?;
        let number = |t: &str| t.parse::<usize>().map_err(|_| bad(expected));
        PentominoBoard::rectangle(number(r)?, number(c)?)
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells to cover.
    pub fn cells(&self) -> usize {
        self.open.iter().filter(|&&o| o).count()
    }

    /// True when cell (`row`, `col`) is on the board and to be covered.
    pub fn is_open(&self, row: i32, col: i32) -> bool {
        row >= 0
            && col >= 0
            && (row as usize) < self.height
            && (col as usize) < self.width
            && self.open[row as usize * self.width + col as usize]
    }

    fn open_cells(&self) -> Vec<Cell> {
        (0..self.height as i32)
            .flat_map(|r| (0..self.width as i32).map(move |c| (r, c)))
            .filter(|&(r, c)| self.is_open(r, c))
            .collect()
    }

    /// The symmetries of the square (as in [`orientations`], `0..8`, 0 the
    /// identity) that map the board onto itself. A rectangle has 4, a
    /// square 8.
    pub fn symmetries(&self) -> Vec<usize> {
        let cells = self.open_cells();
        let mut base = cells.clone();
        normalise(&mut base);
        (0..8).filter(|&t| image(t, &cells) == base).collect()
    }
}

/// A symmetry of a board as a map of cells: symmetry `t` of the square
/// (see [`orientations`]), then a shift back onto the board.
#[derive(Debug, Clone, Copy)]
struct CellMap {
    t: usize,
    shift: Cell,
}

impl CellMap {
    fn apply(self, cell: Cell) -> Cell {
        let (r, c) = transform(self.t, cell);
        (r + self.shift.0, c + self.shift.1)
    }
}

impl PentominoBoard {
    /// The board's symmetries as maps of its cells.
    fn cell_maps(&self) -> Vec<CellMap> {
        let open = self.open_cells();
        let corner = |cells: &mut dyn Iterator<Item = Cell>| {
            cells.fold((i32::MAX, i32::MAX), |m, p| (m.0.min(p.0), m.1.min(p.1)))
        };
        let base = corner(&mut open.iter().copied());
        self.symmetries()
            .into_iter()
            .map(|t| {
                let moved = corner(&mut open.iter().map(|&p| transform(t, p)));
                CellMap {
                    t,
                    shift: (base.0 - moved.0, base.1 - moved.1),
                }
            })
            .collect()
    }
}

/// Every placement of every piece on `board`: per piece, the sorted cell
/// lists, orientation by orientation, anchors in reading order.
fn placements(board: &PentominoBoard) -> Vec<Vec<Vec<Cell>>> {
    let open = board.open_cells();
    PENTOMINOES
        .iter()
        .map(|&(_, drawing)| {
            let mut out = Vec::new();
            for orientation in orientations(drawing) {
                for &(r0, c0) in &open {
                    // Anchor the orientation's first cell on (r0, c0).
                    let (dr, dc) = (r0 - orientation[0].0, c0 - orientation[0].1);
                    let cells: Vec<Cell> =
                        orientation.iter().map(|&(r, c)| (r + dr, c + dc)).collect();
                    if cells.iter().all(|&(r, c)| board.is_open(r, c)) {
                        out.push(cells);
                    }
                }
            }
            out
        })
        .collect()
}

/// A placement's image under a board symmetry, sorted.
fn mapped(map: CellMap, cells: &[Cell]) -> Vec<Cell> {
    let mut out: Vec<Cell> = cells.iter().map(|&p| map.apply(p)).collect();
    out.sort_unstable();
    out
}

/// The piece [`pentominoes`] restricts to remove `board`'s symmetries: the
/// first of X, F, L, N, P, Y, ... none of whose placements is mapped onto
/// itself by a symmetry other than the identity. On the 6x10 rectangle
/// that is X; on 3x20, where X on the middle row is its own mirror image,
/// and on the holed 8x8 square, F.
pub fn symmetry_piece(board: &PentominoBoard) -> char {
    let maps = board.cell_maps();
    let all = placements(board);
    SYMMETRY_PREFERENCE
        .chars()
        .find(|&name| {
            let piece = PENTOMINOES.iter().position(|p| p.0 == name).unwrap_or(0);
            all[piece].iter().all(|p| {
                maps.iter()
                    .filter(|m| m.t != 0)
                    .all(|&m| mapped(m, p) != *p)
            })
        })
        .unwrap_or('F')
}

impl fmt::Display for PentominoBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == PentominoBoard::square_with_centre_hole() {
            f.write_str("8x8-hole")
        } else {
            write!(f, "{}x{}", self.height, self.width)
        }
    }
}

/// Tiling `board` with the twelve pentominoes, each used once.
///
/// Columns: the twelve pieces (`F`, `I`, ...), then the board's cells
/// (`r{row}c{col}`), all primary. Each row places one piece in one
/// orientation at one position.
///
/// With `reduce_symmetry`, the placements of one piece
/// ([`symmetry_piece`]) are cut down to one out of each set of placements
/// that the board's symmetries map onto each other (the least, as sorted
/// cell lists). That piece is chosen so that no symmetry but the identity
/// maps any of its placements onto itself, so the symmetries of any
/// tiling are all different tilings and exactly one of them keeps the
/// piece in a kept placement: the count is the number of tilings up to
/// symmetry, the full count divided by `board.symmetries().len()`.
///
/// ```
/// use dlxbench::exact_cover::puzzles::{pentominoes, PentominoBoard};
/// use dlxbench::exact_cover::{Dlx, Engine, SearchOptions};
///
/// let board = PentominoBoard::rectangle(3, 20).unwrap();
/// let reduced = pentominoes(&board, true).unwrap();
/// assert_eq!(Dlx::new(&reduced.problem).count(SearchOptions::default()).solutions, 2);
/// ```
pub fn pentominoes(
    board: &PentominoBoard,
    reduce_symmetry: bool,
) -> Result<CoverPuzzle, PuzzleError> {
    let cells = board.cells();
    if cells != 60 {
        return Err(PuzzleError::BoardCells { cells });
    }
    let open = board.open_cells();
    let index_of = |cell: &Cell| {
        open.binary_search(cell)
            .expect("placements stay on open cells")
    };
    let primary = PENTOMINOES
        .iter()
        .map(|(name, _)| name.to_string())
        .chain(open.iter().map(|(r, c)| format!("r{r}c{c}")))
        .collect();
    let mut puzzle = CoverPuzzle::new(primary, Vec::new());
    let maps = board.cell_maps();
    let restricted = reduce_symmetry.then(|| symmetry_piece(board));
    let mut columns = Vec::with_capacity(6);
    for (piece, placements) in placements(board).into_iter().enumerate() {
        let restrict = restricted == Some(PENTOMINOES[piece].0);
        for cells in placements {
            let mut sorted = cells.clone();
            sorted.sort_unstable();
            if restrict && maps.iter().any(|&m| mapped(m, &sorted) < sorted) {
                continue;
            }
            columns.clear();
            columns.push(piece);
            columns.extend(cells.iter().map(|cell| 12 + index_of(cell)));
            puzzle.problem.add_row(&columns)?;
        }
    }
    Ok(puzzle)
}

// --- Langford pairs ----------------------------------------------------------

/// Largest `n` [`langford`] builds.
pub const MAX_LANGFORD: usize = 64;

/// Langford pairings of order `n` (`1..=64`): place two copies of each of
/// `1..=n` in `2n` slots so that the two `k`s have exactly `k` slots between
/// them.
///
/// Columns `v1..vn` (the numbers) and `s0..s{2n-1}` (the slots), all
/// primary; a row puts both copies of `k` at slots `i` and `i + k + 1`.
/// With `reduce_symmetry` the `1`s keep only first slots `i <= n - 2`: the
/// reversal maps slot `i` of the 1s to `2n - 3 - i`, never to itself, so
/// exactly one of each pairing and its reversal is counted.
///
/// ```
/// use dlxbench::exact_cover::puzzles::langford;
/// use dlxbench::exact_cover::{Dlx, Engine, SearchOptions};
///
/// let three = langford(3, false).unwrap(); // 312132 and 231213
/// assert_eq!(Dlx::new(&three.problem).count(SearchOptions::default()).solutions, 2);
/// ```
pub fn langford(n: usize, reduce_symmetry: bool) -> Result<CoverPuzzle, PuzzleError> {
    in_range("the Langford order n", n, MAX_LANGFORD)?;
    let slots = 2 * n;
    let primary = (1..=n)
        .map(|k| format!("v{k}"))
        .chain((0..slots).map(|i| format!("s{i}")))
        .collect();
    let mut puzzle = CoverPuzzle::new(primary, Vec::new());
    for k in 1..=n {
        for i in 0..slots.saturating_sub(k + 1) {
            if reduce_symmetry && k == 1 && i + 2 > n {
                continue;
            }
            puzzle.problem.add_row(&[k - 1, n + i, n + i + k + 1])?;
        }
    }
    Ok(puzzle)
}

/// The sequence of a Langford solution: slot `i` holds `sequence[i]`.
/// `rows` are rows of [`langford`]`(n, _)`'s problem.
pub fn langford_sequence(puzzle: &CoverPuzzle, rows: &[usize]) -> Vec<usize> {
    let n = puzzle.problem.primary() / 3;
    let mut sequence = vec![0; 2 * n];
    for &row in rows {
        let mut columns = puzzle.problem.row(row);
        let k = columns.next().map_or(0, |v| v + 1);
        for slot in columns {
            sequence[slot - n] = k;
        }
    }
    sequence
}

#[cfg(test)]
mod tests {
    use super::super::{Dlx, Engine, SearchOptions};
    use super::*;
    use std::ops::ControlFlow;

    fn count(puzzle: &CoverPuzzle) -> u64 {
        Dlx::new(&puzzle.problem)
            .count(SearchOptions::default())
            .solutions
    }

    #[test]
    fn queens_counts_match_oeis_a000170() {
        let known = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
        for (n, &expected) in (1..).zip(known.iter()) {
            assert_eq!(count(&queens(n).unwrap()), expected, "n = {n}");
        }
        assert!(queens(0).is_err());
        assert!(queens(65).is_err());
    }

    #[test]
    fn queens_solutions_are_non_attacking() {
        let p = queens(6).unwrap();
        let mut dlx = Dlx::new(&p.problem);
        let mut seen = 0;
        dlx.search(SearchOptions::default(), |rows| {
            let squares: Vec<(usize, usize)> = rows.iter().map(|&r| (r / 6, r % 6)).collect();
            for (i, a) in squares.iter().enumerate() {
                for b in &squares[i + 1..] {
                    assert_ne!(a.0, b.0);
                    assert_ne!(a.1, b.1);
                    assert_ne!(a.0.abs_diff(b.0), a.1.abs_diff(b.1), "{squares:?}");
                }
            }
            seen += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(seen, 4);
    }

    #[test]
    fn named_text_reads_back_as_the_same_problem() {
        for puzzle in [
            queens(5).unwrap(),
            langford(4, true).unwrap(),
            pentominoes(&PentominoBoard::rectangle(3, 20).unwrap(), false).unwrap(),
        ] {
            let text = puzzle.to_named_text("a comment\nover two lines");
            assert!(text.starts_with("# a comment\n# over two lines\n"));
            let parsed = Problem::parse(&text).unwrap();
            assert_eq!(parsed.problem, puzzle.problem);
            assert_eq!(parsed.column_names, puzzle.column_names);
        }
        let text = queens(2).unwrap().to_named_text("");
        assert_eq!(
            text.lines().next().unwrap(),
            "r0 r1 c0 c1 | a0 a1 a2 b0 b1 b2"
        );
    }

    #[test]
    fn pentomino_orientations() {
        let counts: Vec<usize> = PENTOMINOES
            .iter()
            .map(|(_, d)| orientations(d).len())
            .collect();
        // F I L N P T U V W X Y Z
        assert_eq!(counts, [8, 2, 8, 8, 8, 4, 4, 4, 4, 1, 8, 4]);
        assert_eq!(counts.iter().sum::<usize>(), 63);
        for (name, drawing) in PENTOMINOES {
            assert_eq!(shape_cells(drawing).len(), 5, "{name}");
        }
    }

    #[test]
    fn board_symmetries() {
        assert_eq!(
            PentominoBoard::rectangle(6, 10).unwrap().symmetries().len(),
            4
        );
        assert_eq!(
            PentominoBoard::rectangle(3, 20).unwrap().symmetries().len(),
            4
        );
        assert_eq!(
            PentominoBoard::square_with_centre_hole().symmetries().len(),
            8
        );
        assert_eq!(
            symmetry_piece(&PentominoBoard::rectangle(6, 10).unwrap()),
            'X'
        );
        assert_eq!(
            symmetry_piece(&PentominoBoard::rectangle(3, 20).unwrap()),
            'F'
        );
        assert_eq!(
            symmetry_piece(&PentominoBoard::square_with_centre_hole()),
            'F'
        );
        // Every symmetry maps the board's cells onto its cells.
        let b = PentominoBoard::rectangle(5, 12).unwrap();
        for m in b.cell_maps() {
            for cell in b.open_cells() {
                let (r, c) = m.apply(cell);
                assert!(b.is_open(r, c), "{m:?} {cell:?}");
            }
        }
        let b = PentominoBoard::parse("6x10").unwrap();
        assert_eq!((b.height(), b.width(), b.cells()), (6, 10, 60));
        assert_eq!(b.to_string(), "6x10");
        assert_eq!(PentominoBoard::parse("8x8-hole").unwrap().cells(), 60);
        assert!(PentominoBoard::parse("6by10").is_err());
        assert!(PentominoBoard::parse("0x10").is_err());
        assert_eq!(
            pentominoes(&PentominoBoard::rectangle(5, 5).unwrap(), false),
            Err(PuzzleError::BoardCells { cells: 25 })
        );
    }

    #[test]
    fn pentominoes_3x20_two_up_to_symmetry_eight_in_all() {
        let board = PentominoBoard::rectangle(3, 20).unwrap();
        assert_eq!(count(&pentominoes(&board, true).unwrap()), 2);
        assert_eq!(count(&pentominoes(&board, false).unwrap()), 8);
    }

    #[test]
    fn pentomino_solutions_tile_the_board() {
        let board = PentominoBoard::rectangle(3, 20).unwrap();
        let p = pentominoes(&board, false).unwrap();
        let mut dlx = Dlx::new(&p.problem);
        dlx.search(SearchOptions::default(), |rows| {
            assert!(p.problem.is_exact_cover(rows));
            assert_eq!(rows.len(), 12);
            ControlFlow::Continue(())
        });
    }

    #[test]
    #[ignore = "counts 9,356 + 2,339 + 520 tilings: seconds in release, slow in debug"]
    fn pentominoes_6x10_and_the_holed_square() {
        let board = PentominoBoard::rectangle(6, 10).unwrap();
        assert_eq!(count(&pentominoes(&board, true).unwrap()), 2339);
        assert_eq!(count(&pentominoes(&board, false).unwrap()), 9356);
        let square = PentominoBoard::square_with_centre_hole();
        assert_eq!(count(&pentominoes(&square, true).unwrap()), 65);
        assert_eq!(count(&pentominoes(&square, false).unwrap()), 520);
    }

    #[test]
    fn langford_counts_match_oeis_a014552() {
        // Up to reversal, n = 1..=8.
        let known = [0, 0, 1, 1, 0, 0, 26, 150];
        for (n, &expected) in (1..).zip(known.iter()) {
            assert_eq!(count(&langford(n, true).unwrap()), expected, "n = {n}");
            assert_eq!(count(&langford(n, false).unwrap()), 2 * expected, "n = {n}");
        }
        assert!(langford(0, false).is_err());
    }

    #[test]
    fn langford_solutions_are_langford_sequences() {
        let p = langford(7, false).unwrap();
        let mut dlx = Dlx::new(&p.problem);
        let mut sequences = Vec::new();
        dlx.search(SearchOptions::default(), |rows| {
            sequences.push(langford_sequence(&p, rows));
            ControlFlow::Continue(())
        });
        assert_eq!(sequences.len(), 52);
        for s in &sequences {
            for k in 1..=7 {
                let at: Vec<usize> = (0..14).filter(|&i| s[i] == k).collect();
                assert_eq!(at.len(), 2, "{s:?}");
                assert_eq!(at[1] - at[0], k + 1, "{s:?}");
            }
            // The reversal is a solution too, and a different one.
            let reversed: Vec<usize> = s.iter().rev().copied().collect();
            assert_ne!(&reversed, s);
            assert!(sequences.contains(&reversed));
        }
    }
}
