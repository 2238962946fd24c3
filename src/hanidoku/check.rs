//! The rule checker: is a board complete, incomplete, or breaking a rule?

use super::{lines, Board, Line};

/// Why a line breaks the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The line holds this digit more than once.
    Repeats(u8),
    /// The line holds `low` and `high`, at least as far apart as the line is
    /// long, so its digits cannot be (or become) consecutive. For a full
    /// line of distinct digits this is exactly "not consecutive".
    NotConsecutive {
        /// The smallest digit of the line.
        low: u8,
        /// The largest digit of the line.
        high: u8,
    },
}

/// The checker's verdict on a board.
// Shaped like Sudoku's `Verdict` on purpose: each kind names its own
// broken unit (here a line, there a row, column or box).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Every cell filled, every line consecutive: a solved board.
    Complete,
    /// No line breaks the rules so far, but `blanks` cells are empty.
    Incomplete {
        /// Number of blank cells.
        blanks: usize,
    },
    /// `line` breaks the rules (the first such line by number: rows, then
    /// down-right, then down-left diagonals).
    Invalid {
        /// The offending line.
        line: Line,
        /// What is wrong with it.
        reason: Reason,
    },
}

impl Verdict {
    /// The rule an `Invalid` verdict breaks, as its `Display` writes it
    /// after `invalid: ` (`row 3 repeats 7`, `down-left diagonal 2 is not
    /// consecutive: it holds 1 and 7, too far apart for 6 cells`); nothing
    /// for other verdicts.
    pub(super) fn write_broken_rule(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Invalid {
                line,
                reason: Reason::Repeats(d),
            } => write!(f, "{line} repeats {d}"),
            Verdict::Invalid {
                line,
                reason: Reason::NotConsecutive { low, high },
            } => write!(
                f,
                "{line} is not consecutive: it holds {low} and {high}, \
                 too far apart for {} cells",
                line.length()
            ),
            Verdict::Complete | Verdict::Incomplete { .. } => Ok(()),
        }
    }
}

/// The first rule `line` breaks on `board`, if any: a repeated digit, or
/// two digits at least the line's length apart.
pub fn check_line(board: &Board, line: Line) -> Option<Reason> {
    let mut seen = 0u16;
    let (mut low, mut high) = (u8::MAX, 0u8);
    for &cell in line.cells() {
        let d = board.get(usize::from(cell));
        if d == 0 {
            continue;
        }
        if seen & (1 << d) != 0 {
            return Some(Reason::Repeats(d));
        }
        seen |= 1 << d;
        low = low.min(d);
        high = high.max(d);
    }
    (seen != 0 && usize::from(high - low) >= line.length())
        .then_some(Reason::NotConsecutive { low, high })
}

/// Checks the board against the rules.
///
/// A full line passes exactly when its digits are distinct and consecutive:
/// `L` distinct digits whose extremes differ by less than `L` fill an
/// interval of `L` digits. A line with blanks passes when its digits are
/// distinct and could still be completed to a consecutive line (they differ
/// by less than `L`); whether the whole board can be completed is the
/// solvers' business.
///
/// ```
/// use dlxbench::hanidoku::{check, Board, Line, Direction, Reason, Verdict};
/// let mut b = Board::EMPTY;
/// assert_eq!(check(&b), Verdict::Incomplete { blanks: 61 });
/// b.set(0, 1);
/// b.set(4, 6); // the same row of 5 cells: 1 and 6 cannot both be in it
/// let row = Line::new(Direction::Row, 0).unwrap();
/// assert_eq!(
///     check(&b),
///     Verdict::Invalid { line: row, reason: Reason::NotConsecutive { low: 1, high: 6 } }
/// );
/// ```
pub fn check(board: &Board) -> Verdict {
    for line in lines() {
        if let Some(reason) = check_line(board, line) {
            return Verdict::Invalid { line, reason };
        }
    }
    match board.cells().iter().filter(|&&v| v == 0).count() {
        0 => Verdict::Complete,
        blanks => Verdict::Incomplete { blanks },
    }
}

/// True when `solution` is a solved board that keeps every clue of
/// `puzzle`. Solvers' answers are validated with this, outside any timed
/// region.
pub fn is_solution_of(solution: &Board, puzzle: &Board) -> bool {
    puzzle
        .cells()
        .iter()
        .zip(solution.cells())
        .all(|(&p, &s)| p == 0 || p == s)
        && check(solution) == Verdict::Complete
}
