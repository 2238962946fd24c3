//! The built-in Sudoku solvers behind tdoku's C interface, the one
//! [`crate::solvers::foreign`] loads, so that other harnesses (tdoku's
//! benchmark program, this one through its loader) can call them from a
//! shared library:
//!
//! ```c
//! size_t solve(const char *input,      /* 81 chars, '1'-'9' clues, '.' or '0' blanks */
//!              size_t limit,           /* stop after this many solutions */
//!              uint32_t flags,         /* 0; 1-65535: a known slow-down */
//!              char *solution,         /* receives the first solution, 81 chars */
//!              size_t *num_guesses);   /* out: the solver's count of guesses */
//! /* returns the number of solutions found, at most limit */
//! ```
//!
//! This module holds the logic; the `ffi/` crate of the workspace
//! (`dlxbench-ffi`) builds `libdlxbench.so`, whose exported functions
//! (`dlxbench_dlx`, `dlxbench_dc`, `dlxbench_singles`, `dlxbench_locked`,
//! `dlxbench_heuristic`, `dlxbench_naive`, `dlxbench_over_budget`) are one-line wrappers around
//! [`solve_raw`] and [`last_over_budget`]. `include/dlxbench.h` declares
//! them for C.
//!
//! Each thread keeps its own solver states, made on its first call of each
//! export and reused afterwards: calls from several threads at once are
//! safe, and after a thread's first call of an export, its calls allocate
//! nothing. Each solver runs with its default budget
//! ([`SolverInfo::default_budget`]): [`last_over_budget`] tells a search
//! that gave up from one that found nothing.
//!
//! Nothing here panics on any input: bad input gives 0 solutions. A panic
//! would be a bug; [`solve_raw`] still catches it (when built with
//! `panic = "unwind"`: the release profile aborts instead) so that none
//! crosses the C boundary.
//!
//! ```
//! use dlxbench::ffi::{self, Export};
//!
//! let puzzle = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....\0";
//! let mut solution = [0u8; 81];
//! let mut guesses = 0usize;
//! // SAFETY: a NUL-terminated input, an 81-byte output and a counter.
//! let found = unsafe {
//!     ffi::solve_raw(Export::Dlx, puzzle.as_ptr().cast(), 2, 0,
//!                    solution.as_mut_ptr().cast(), &mut guesses)
//! };
//! assert_eq!(found, 1);
//! assert!(solution.iter().all(u8::is_ascii_digit));
//! assert!(!ffi::last_over_budget());
//! ```

use std::cell::{Cell, RefCell};
use std::ffi::c_char;
use std::panic::{self, AssertUnwindSafe};

use crate::puzzle::Puzzle;
use crate::solvers::{Solver, SolverInfo};
use crate::sudoku::{BoxShape, Grid};

/// A built-in solver offered through the C interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Export {
    /// `dlx`, as `dlxbench_dlx`.
    Dlx,
    /// `singles`, as `dlxbench_singles`.
    Singles,
    /// `heuristic`, as `dlxbench_heuristic`.
    Heuristic,
    /// `naive`, as `dlxbench_naive` (with its default node budget).
    Naive,
    /// `locked`, as `dlxbench_locked`.
    Locked,
    /// `dc`, as `dlxbench_dc`.
    Dc,
}

impl Export {
    /// Every export, in the order of [`Export::index`].
    pub const ALL: [Export; 6] = [
        Export::Dlx,
        Export::Singles,
        Export::Heuristic,
        Export::Naive,
        Export::Locked,
        Export::Dc,
    ];

    /// The built-in solver's name (in [`crate::sudoku::solvers::REGISTRY`]).
    pub fn solver_name(self) -> &'static str {
        match self {
            Export::Dlx => "dlx",
            Export::Singles => "singles",
            Export::Heuristic => "heuristic",
            Export::Naive => "naive",
            Export::Locked => "locked",
            Export::Dc => "dc",
        }
    }

    /// The exported function's symbol in `libdlxbench.so`.
    pub fn symbol(self) -> &'static str {
        match self {
            Export::Dlx => "dlxbench_dlx",
            Export::Singles => "dlxbench_singles",
            Export::Heuristic => "dlxbench_heuristic",
            Export::Naive => "dlxbench_naive",
            Export::Locked => "dlxbench_locked",
            Export::Dc => "dlxbench_dc",
        }
    }

    /// The solver's registry entry (constructor and default budget), or
    /// `None` if the registry no longer has it.
    pub fn info(self) -> Option<&'static SolverInfo<Grid>> {
        crate::sudoku::solvers::REGISTRY
            .iter()
            .find(|info| info.name == self.solver_name())
    }

    /// Its position in [`Export::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What one call found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Answer {
    /// Solutions found, at most the limit.
    pub solutions: u64,
    /// The solver's count of guesses (branch points).
    pub guesses: u64,
    /// The search stopped at the solver's default budget: `solutions` is
    /// then a lower bound.
    pub over_budget: bool,
    /// Search nodes (for [`SLOW_DOWN`]).
    pub nodes: u64,
}

/// The `flags` bits that ask for a known slow-down: `flags & SLOW_DOWN`
/// sixteenths of an iteration of a busy loop per search node (K nodes x
/// K / 16 iterations, rounded down, over the whole search), after the
/// search and inside the call. Sixteenths, because one iteration per node
/// costs about 1.3% of `dlxbench_dlx`'s time on top1465: too coarse to set
/// a slow-down of 2 or 3% near enough. A slowed copy of a solver whose extra cost is known and
/// proportional to its work, for measuring a time gate's power
/// (`results/gate-power`): the same library, the same code, the same call
/// path, only slower. The other bits are reserved.
pub const SLOW_DOWN: u32 = 0xFFFF;

/// `iterations` rounds of work the optimiser cannot remove.
#[inline(never)]
fn busy(iterations: u64) {
    let mut x = 0u64;
    for i in 0..iterations {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    std::hint::black_box(x);
}

/// Reads the interface's input, 81 characters in reading order (`'1'`-`'9'`
/// a clue, `'.'` or `'0'` a blank), into `grid`, a 9x9 grid afterwards.
/// False, and `grid` unspecified, for any other character.
///
/// ```
/// use dlxbench::ffi::parse_c81;
/// use dlxbench::sudoku::{BoxShape, Grid};
///
/// let mut grid = Grid::empty(BoxShape::NINE);
/// let mut text = [b'.'; 81];
/// text[0] = b'5';
/// text[80] = b'0';
/// assert!(parse_c81(&text, &mut grid));
/// assert_eq!((grid.get(0, 0), grid.clues()), (5, 1));
/// text[1] = b'x';
/// assert!(!parse_c81(&text, &mut grid));
/// ```
pub fn parse_c81(text: &[u8; 81], grid: &mut Grid) -> bool {
    if grid.shape() != BoxShape::NINE {
        grid.reset(BoxShape::NINE);
    }
    for (cell, &c) in grid.cells_mut().iter_mut().zip(text) {
        *cell = match c {
            b'1'..=b'9' => c - b'0',
            b'.' | b'0' => 0,
            _ => return false,
        };
    }
    true
}

/// One thread's working memory: the puzzle, the solution, and a solver per
/// export, made on first use.
struct State {
    puzzle: Grid,
    solution: Grid,
    solvers: [Option<Box<dyn Solver<Grid>>>; Export::ALL.len()],
}

impl State {
    fn new() -> Self {
        State {
            puzzle: Grid::empty(BoxShape::NINE),
            solution: Grid::empty(BoxShape::NINE),
            solvers: std::array::from_fn(|_| None),
        }
    }
}

thread_local! {
    /// This thread's state (`None` until its first call).
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
    /// Whether this thread's last [`solve_raw`] stopped at its budget.
    static OVER_BUDGET: Cell<bool> = const { Cell::new(false) };
}

/// Solves the puzzle `text` (as [`parse_c81`] reads it) with `export`'s
/// solver on this thread's state, counting solutions up to `limit` within
/// the solver's default budget, and writes the first solution, if any, into
/// `solution` (81 characters `'1'`-`'9'`; left as it was when none is
/// found).
///
/// Input that is not a puzzle (a character other than `'1'`-`'9'`, `'.'`
/// and `'0'`) or whose clues break the rules gives 0 solutions, as does
/// limit 0. The first call of an export on a thread makes its solver and
/// warms it (a solve of the empty grid, which sizes its working memory for
/// any puzzle); the following calls allocate nothing. A call made while the same thread is
/// already inside one (impossible from C) gives 0 solutions.
pub fn solve_c81(
    export: Export,
    text: &[u8; 81],
    limit: u64,
    solution: Option<&mut [u8; 81]>,
) -> Answer {
    let Some(info) = export.info() else {
        return Answer::default();
    };
    if limit == 0 {
        return Answer::default();
    }
    STATE
        .try_with(|cell| {
            let Ok(mut guard) = cell.try_borrow_mut() else {
                return Answer::default();
            };
            let state = guard.get_or_insert_with(State::new);
            if !parse_c81(text, &mut state.puzzle) {
                return Answer::default();
            }
            let solver = state.solvers[export.index()].get_or_insert_with(|| {
                // Warmed on the empty grid, the deepest search: its working
                // memory then has the size any later puzzle needs.
                let mut solver = (info.make)();
                let empty = Grid::empty(BoxShape::NINE);
                solver.solve(&empty, 1, info.default_budget, &mut state.solution);
                solver
            });
            let outcome = solver.solve(
                &state.puzzle,
                limit,
                info.default_budget,
                &mut state.solution,
            );
            if outcome.solutions > 0 {
                if let Some(out) = solution {
                    if !state.solution.write_c81(out) {
                        // Not a 9x9 grid: a solver bug, reported as no
                        // solution rather than as a wrong one.
                        return Answer::default();
                    }
                }
            }
            Answer {
                solutions: outcome.solutions.min(limit),
                guesses: outcome.guesses,
                over_budget: outcome.budget_exceeded,
                nodes: outcome.nodes.unwrap_or(0),
            }
        })
        // The thread is being torn down: its state is gone.
        .unwrap_or_default()
}

/// The C interface's function for `export`: reads `input`, solves with
/// [`solve_c81`], writes the first solution to `solution` and the count of
/// guesses to `*num_guesses`, records whether the search stopped at its
/// budget (see [`last_over_budget`]) and returns the number of solutions
/// found, at most `limit`.
///
/// * `input`: read up to 81 bytes, stopping at a NUL: a NUL among the first
///   81 bytes is a short input, 0 solutions. A null `input`: 0 solutions.
/// * `flags`: 0, or in its low 16 bits ([`SLOW_DOWN`]) a known
///   slow-down. The other bits are reserved: a value with any of them set
///   is an error, 0 solutions, nothing written but `*num_guesses = 0` (so
///   that a caller built for a later version's flags is not silently given
///   something else).
/// * `solution`, `num_guesses`: may be null (then not written). `solution`
///   is written only when a solution is found.
///
/// # Safety
///
/// `input` must be null or point to 81 readable bytes, or to a
/// NUL-terminated string shorter than that. `solution` must be null or
/// point to 81 writable bytes, and `num_guesses` null or point to a
/// writable `size_t`. None of them may be written by another thread during
/// the call.
pub unsafe fn solve_raw(
    export: Export,
    input: *const c_char,
    limit: usize,
    flags: u32,
    solution: *mut c_char,
    num_guesses: *mut usize,
) -> usize {
    let _ = OVER_BUDGET.try_with(|b| b.set(false));
    let body = AssertUnwindSafe(|| {
        if flags & !SLOW_DOWN != 0 || input.is_null() {
            return Answer::default();
        }
        let mut text = [0u8; 81];
        for (i, byte) in text.iter_mut().enumerate() {
            // SAFETY: the caller promises 81 readable bytes or a NUL before
            // them; the loop stops at the first NUL, so it never reads past
            // one, and never past 81 bytes.
            let b = unsafe { input.add(i).read() } as u8;
            if b == 0 {
                return Answer::default();
            }
            *byte = b;
        }
        let mut out = [0u8; 81];
        let answer = solve_c81(
            export,
            &text,
            u64::try_from(limit).unwrap_or(u64::MAX),
            Some(&mut out),
        );
        busy(u64::from(flags & SLOW_DOWN) * answer.nodes / 16);
        if answer.solutions > 0 && !solution.is_null() {
            // SAFETY: the caller promises 81 writable bytes at a non-null
            // `solution`, written by no one else during the call; `out` is
            // a local array, so the two do not overlap.
            unsafe { std::ptr::copy_nonoverlapping(out.as_ptr(), solution.cast::<u8>(), 81) };
        }
        answer
    });
    // A panic here would be a bug (nothing above panics on any input); with
    // `panic = "abort"`, the release profile's setting, it aborts before
    // reaching this guard.
    let answer = panic::catch_unwind(body).unwrap_or_else(|_| {
        // The solver may have been left mid-search: start afresh.
        let _ = STATE.try_with(|cell| cell.try_borrow_mut().map(|mut s| *s = None));
        Answer::default()
    });
    if !num_guesses.is_null() {
        // SAFETY: the caller promises a writable `size_t` at a non-null
        // `num_guesses`.
        unsafe { num_guesses.write(usize::try_from(answer.guesses).unwrap_or(usize::MAX)) };
    }
    let _ = OVER_BUDGET.try_with(|b| b.set(answer.over_budget));
    usize::try_from(answer.solutions).unwrap_or(usize::MAX)
}

/// Whether this thread's last [`solve_raw`] stopped at its solver's budget
/// (its count is then a lower bound: 0 means "gave up", not "no
/// solution"). False before the first call, and after one that was refused
/// (bad input, nonzero flags).
pub fn last_over_budget() -> bool {
    OVER_BUDGET.try_with(Cell::get).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C header says what the slow-down flags count, as the code does
    /// (it once said whole iterations).
    #[test]
    fn the_header_says_the_flags_count_sixteenths() {
        let header = include_str!("../include/dlxbench.h");
        let flags = header
            .split("flags        ")
            .nth(1)
            .and_then(|rest| rest.split("solution     ").next())
            .expect("the header documents flags before solution");
        // The comment's words, without its margin of asterisks.
        let words: Vec<&str> = flags.split_whitespace().filter(|w| *w != "*").collect();
        assert!(
            words
                .windows(4)
                .any(|w| w == ["that", "many", "sixteenths", "of"]),
            "{flags}"
        );
        assert_eq!(SLOW_DOWN, 0xFFFF, "the header says 1-65535");
        assert!(flags.contains("1-65535"), "{flags}");
    }

    /// Easy enough for naive's budget.
    const PUZZLE: &[u8; 81] =
        b"..7.28..1..2...47.6..4..5.2..8......26.9...3....6.1.........68.9...7......1......";

    #[test]
    fn every_export_names_a_registered_solver() {
        for export in Export::ALL {
            assert_eq!(Export::ALL[export.index()], export);
            let info = export.info().unwrap();
            assert_eq!(info.name, export.solver_name());
            assert_eq!(export.symbol(), format!("dlxbench_{}", info.name));
        }
    }

    #[test]
    fn the_safe_call_solves_and_refuses() {
        for export in Export::ALL {
            let mut out = [0u8; 81];
            let answer = solve_c81(export, PUZZLE, 2, Some(&mut out));
            assert_eq!(answer.solutions, 1, "{export:?}");
            let mut puzzle = Grid::empty(BoxShape::NINE);
            let mut solved = Grid::empty(BoxShape::NINE);
            assert!(parse_c81(PUZZLE, &mut puzzle) && parse_c81(&out, &mut solved));
            assert!(crate::sudoku::is_solution_of(&solved, &puzzle));
            // Limit 0, bad characters, a clash.
            assert_eq!(solve_c81(export, PUZZLE, 0, None), Answer::default());
            let mut bad = *PUZZLE;
            bad[0] = b'x';
            assert_eq!(solve_c81(export, &bad, 2, None), Answer::default());
            bad[0] = b'7'; // the row has a 7
            assert_eq!(solve_c81(export, &bad, 2, None).solutions, 0);
        }
    }

    #[test]
    fn the_raw_call_tolerates_nulls_and_stops_at_nul() {
        let mut guesses = 7usize;
        // SAFETY: null pointers, which solve_raw accepts.
        let found = unsafe {
            solve_raw(
                Export::Dlx,
                PUZZLE.as_ptr().cast(),
                1,
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(found, 1);
        // SAFETY: a null input.
        let found = unsafe {
            solve_raw(
                Export::Dlx,
                std::ptr::null(),
                1,
                0,
                std::ptr::null_mut(),
                &mut guesses,
            )
        };
        assert_eq!((found, guesses), (0, 0));
        // A short input: 10 bytes and a NUL (reading further would be out
        // of bounds, which Miri would catch).
        let short = b"123456789\0";
        // SAFETY: a NUL-terminated input.
        let found = unsafe {
            solve_raw(
                Export::Dlx,
                short.as_ptr().cast(),
                1,
                0,
                std::ptr::null_mut(),
                &mut guesses,
            )
        };
        assert_eq!(found, 0);
        // Reserved flags: refused.
        // SAFETY: an 81-byte input.
        let found = unsafe {
            solve_raw(
                Export::Dlx,
                PUZZLE.as_ptr().cast(),
                1,
                SLOW_DOWN + 1,
                std::ptr::null_mut(),
                &mut guesses,
            )
        };
        assert_eq!((found, guesses), (0, 0));
    }
}
