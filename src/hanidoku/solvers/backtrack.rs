//! Bitmask backtracking for Hanidoku, independent of the exact-cover
//! engine.
//!
//! Each line keeps the set of digits placed in it (a `u16` bitmask). A line
//! of length `L` can only end up holding a window `a..=a+L-1` of digits
//! that contains every digit placed in it, so:
//!
//! 1. a cell's candidates are the digits that all three of its lines still
//!    allow: unused, and within `L - 1` of every digit already in the line;
//! 2. a window is still *feasible* for a line when it contains the line's
//!    digits and every other digit of it is a candidate of some blank cell
//!    of the line; candidates outside every feasible window of one of the
//!    cell's lines are dropped, and a line with no feasible window is a
//!    dead end;
//! 3. the digits in *every* feasible window (for an empty line, the
//!    compulsory `10-L..=L`) must still be placed in the line: a *required*
//!    line-digit with no cell left is a dead end.
//!
//! At every node the search branches on the smallest choice: a blank cell
//! and its candidates, or a required line-digit and the cells of the line
//! that can take it (minimum remaining values over both, as the Dancing
//! Links column choice does). The search is recursive (at most 61 levels
//! deep) and its state lives in fixed-size arrays, so a solve allocates
//! nothing.

use crate::hanidoku::{check, lines_of, Board, Verdict, CELLS, LINES};
use crate::solvers::{Budget, Meter, Outcome, Solver, SolverInfo};

/// Registry entry.
pub const INFO: SolverInfo<Board> = SolverInfo {
    name: "backtrack",
    description: "bitmask backtracking, minimum remaining values over cells and line-digit places",
    make: || Box::new(BacktrackSolver::new()),
    default_budget: Budget::SEARCH,
};

/// Digits 1-9 as bits 1-9.
const ALL: u16 = 0b11_1111_1110;

/// Digits `lo..=hi` as bits (empty when `lo > hi`).
#[inline]
fn span(lo: i32, hi: i32) -> u16 {
    if lo > hi {
        0
    } else {
        (((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)) as u16
    }
}

/// The digits a line of length `len` holding `used` may still receive.
#[inline]
fn allowed(used: u16, len: i32) -> u16 {
    if used == 0 {
        return ALL;
    }
    let low = used.trailing_zeros() as i32;
    let high = 15 - used.leading_zeros() as i32;
    span((high - len + 1).max(1), (low + len - 1).min(9)) & !used
}

/// How the options of a choice are ordered: as found (solving) or
/// shuffled (the generator's random fill).
pub(crate) trait Order {
    /// Reorders the options of one choice.
    fn order(&mut self, options: &mut [u8]);
}

/// Options in their natural order.
struct Natural;

impl Order for Natural {
    #[inline]
    fn order(&mut self, _: &mut [u8]) {}
}

/// The search state.
#[derive(Debug, Clone)]
struct State {
    cells: [u8; CELLS],
    /// Digits placed in each line.
    used: [u16; LINES],
    /// Blank cells left in each line.
    open: [u8; LINES],
    /// Lengths of the lines.
    len: [u8; LINES],
    /// Lines of each cell.
    lines_of: [[u8; 3]; CELLS],
    /// Cells of each line.
    line_cells: [[u8; 9]; LINES],
    blanks: usize,
    limit: u64,
    meter: Meter,
    solutions: u64,
    nodes: u64,
    guesses: u64,
    budget_exceeded: bool,
    first: Board,
}

impl State {
    fn new() -> Self {
        let mut len = [0u8; LINES];
        let mut line_cells = [[0u8; 9]; LINES];
        for line in crate::hanidoku::lines() {
            len[line.id()] = line.length() as u8;
            line_cells[line.id()][..line.length()].copy_from_slice(line.cells());
        }
        let mut lines = [[0u8; 3]; CELLS];
        for (cell, l) in lines.iter_mut().enumerate() {
            *l = lines_of(cell).map(|line| line.id() as u8);
        }
        State {
            cells: [0; CELLS],
            used: [0; LINES],
            open: [0; LINES],
            len,
            lines_of: lines,
            line_cells,
            blanks: 0,
            limit: 0,
            meter: Meter::unlimited(),
            solutions: 0,
            nodes: 0,
            guesses: 0,
            budget_exceeded: false,
            first: Board::EMPTY,
        }
    }

    /// Loads `puzzle`; false when its clues break a rule.
    fn load(&mut self, puzzle: &Board, limit: u64, budget: Budget) -> bool {
        self.limit = limit;
        self.meter = Meter::start(budget);
        self.solutions = 0;
        self.nodes = 0;
        self.guesses = 0;
        self.budget_exceeded = false;
        if matches!(check(puzzle), Verdict::Invalid { .. }) {
            return false;
        }
        self.cells = *puzzle.cells();
        self.used = [0; LINES];
        self.open = self.len;
        self.blanks = CELLS;
        for cell in 0..CELLS {
            let d = self.cells[cell];
            if d != 0 {
                self.cells[cell] = 0;
                self.place(cell, d);
            }
        }
        true
    }

    #[inline]
    fn place(&mut self, cell: usize, d: u8) {
        self.cells[cell] = d;
        self.blanks -= 1;
        for &l in &self.lines_of[cell] {
            self.used[usize::from(l)] |= 1 << d;
            self.open[usize::from(l)] -= 1;
        }
    }

    #[inline]
    fn unplace(&mut self, cell: usize, d: u8) {
        self.cells[cell] = 0;
        self.blanks += 1;
        for &l in &self.lines_of[cell] {
            self.used[usize::from(l)] &= !(1 << d);
            self.open[usize::from(l)] += 1;
        }
    }

    /// Searches below the current state; true when the search must stop
    /// (limit reached or budget exhausted).
    // Over 100 lines on purpose: the search loop is the solver's hot path, one
    // function the compiler sees whole; split it only with an `ab` run that
    // shows no loss.
    fn search<O: Order>(&mut self, order: &mut O) -> bool {
        if self.blanks == 0 {
            self.solutions += 1;
            if self.solutions == 1 {
                self.first = Board { cells: self.cells };
            }
            return self.solutions >= self.limit;
        }
        let mut allow = [0u16; LINES];
        for (l, a) in allow.iter_mut().enumerate() {
            *a = allowed(self.used[l], i32::from(self.len[l]));
        }
        let mut cand = [0u16; CELLS];
        // The best choice so far: its option count, and either a cell
        // (line == NONE) or a (line, digit).
        const NONE: usize = usize::MAX;
        let (mut best, mut best_cell, mut best_line, mut best_digit) = (u32::MAX, 0, NONE, 0u8);
        for (cell, slot) in cand.iter_mut().enumerate() {
            if self.cells[cell] != 0 {
                continue;
            }
            let [a, b, c] = self.lines_of[cell];
            let set = allow[usize::from(a)] & allow[usize::from(b)] & allow[usize::from(c)];
            *slot = set;
            let count = set.count_ones();
            if count < best {
                (best, best_cell) = (count, cell);
                if count <= 1 {
                    break;
                }
            }
        }
        if best == 0 {
            return false;
        }
        if best > 1 {
            // The windows each line can still hold: containing its digits,
            // within what its blank cells can still take.
            let mut within = [ALL; LINES];
            let mut must = [0u16; LINES];
            for l in 0..LINES {
                if self.open[l] == 0 {
                    continue;
                }
                let len = i32::from(self.len[l]);
                let used = self.used[l];
                let mut reach = used;
                for &c in &self.line_cells[l][..self.len[l] as usize] {
                    reach |= cand[usize::from(c)];
                }
                let (mut union, mut common) = (0u16, ALL);
                for a in 1..=10 - len {
                    let window = span(a, a + len - 1);
                    if window & used == used && window & !reach == 0 {
                        union |= window;
                        common &= window;
                    }
                }
                if union == 0 {
                    return false;
                }
                within[l] = union;
                must[l] = common & !used;
            }
            best = u32::MAX;
            for (cell, slot) in cand.iter_mut().enumerate() {
                if self.cells[cell] != 0 {
                    continue;
                }
                let [a, b, c] = self.lines_of[cell].map(usize::from);
                *slot &= within[a] & within[b] & within[c];
                let count = slot.count_ones();
                if count < best {
                    (best, best_cell) = (count, cell);
                }
            }
            if best == 0 {
                return false;
            }
            'lines: for (l, &must) in must.iter().enumerate() {
                let mut must = must;
                while must != 0 && best > 1 {
                    let d = must.trailing_zeros() as u8;
                    must &= must - 1;
                    let places = self.line_cells[l][..usize::from(self.len[l])]
                        .iter()
                        .filter(|&&c| cand[usize::from(c)] & (1 << d) != 0)
                        .count() as u32;
                    if places < best {
                        (best, best_line, best_digit) = (places, l, d);
                        if places <= 1 {
                            break 'lines;
                        }
                    }
                }
            }
            if best == 0 {
                return false;
            }
        }
        if best > 1 {
            self.guesses += 1;
        }
        // The options: digits for a cell, or cells for a line's digit.
        let mut options = [0u8; 9];
        let mut n = 0;
        if best_line == NONE {
            let mut set = cand[best_cell];
            while set != 0 {
                options[n] = set.trailing_zeros() as u8;
                n += 1;
                set &= set - 1;
            }
        } else {
            for &c in &self.line_cells[best_line][..usize::from(self.len[best_line])] {
                if cand[usize::from(c)] & (1 << best_digit) != 0 {
                    options[n] = c;
                    n += 1;
                }
            }
        }
        order.order(&mut options[..n]);
        for &option in &options[..n] {
            let (cell, d) = if best_line == NONE {
                (best_cell, option)
            } else {
                (usize::from(option), best_digit)
            };
            if self.meter.exhausted(self.nodes) {
                self.budget_exceeded = true;
                return true;
            }
            self.nodes += 1;
            self.place(cell, d);
            let stop = self.search(order);
            self.unplace(cell, d);
            if stop {
                return true;
            }
        }
        false
    }
}

/// The bitmask backtracking Hanidoku solver.
#[derive(Debug, Clone)]
pub struct BacktrackSolver {
    state: State,
}

impl Default for BacktrackSolver {
    fn default() -> Self {
        BacktrackSolver::new()
    }
}

impl BacktrackSolver {
    /// A solver with its tables built.
    pub fn new() -> Self {
        BacktrackSolver {
            state: State::new(),
        }
    }

    /// Fills an empty board with options in the order `order` gives, within
    /// `max_nodes`; the full board, or `None` when the budget ran out.
    pub(crate) fn fill<O: Order>(&mut self, order: &mut O, max_nodes: u64) -> Option<Board> {
        let s = &mut self.state;
        s.load(&Board::EMPTY, 1, Budget::nodes(max_nodes));
        s.search(order);
        (s.solutions == 1).then_some(s.first)
    }
}

// Repeats the signatures of `Solver`'s methods, as every solver does (trait impl).
impl Solver<Board> for BacktrackSolver {
    fn solve(
        &mut self,
        puzzle: &Board,
        limit: u64,
        budget: Budget,
        solution: &mut Board,
    ) -> Outcome {
        let s = &mut self.state;
        if s.load(puzzle, limit, budget) && limit > 0 {
            s.search(&mut Natural);
        }
        if s.solutions > 0 {
            *solution = s.first;
        }
        Outcome {
            solutions: s.solutions,
            nodes: Some(s.nodes),
            guesses: s.guesses,
            updates: None,
            budget_exceeded: s.budget_exceeded,
            ..Outcome::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(span(3, 5), 0b11_1000);
        assert_eq!(span(5, 4), 0);
        assert_eq!(allowed(0, 5), ALL);
        // 3 in a line of 5: windows 1-5, 2-6, 3-7.
        assert_eq!(allowed(1 << 3, 5), span(1, 7) & !(1 << 3));
        // 1 and 5 in a line of 5: only 1-5 is left.
        let used = (1 << 1) | (1 << 5);
        assert_eq!(allowed(used, 5), span(2, 4));
        assert_eq!(allowed(1 << 9, 6), span(4, 8));
    }
}
