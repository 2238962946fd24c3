//! The kind-neutral solver machinery: the [`Solver`] trait, the
//! [`SolverInfo`] registry entry, what a solve finds ([`Outcome`],
//! [`Status`]), the [`SolverSet`] a run chooses from, and solvers loaded
//! through the C interface ([`foreign`]). Nothing here depends on a
//! puzzle kind; each kind keeps its built-in solvers in its own module
//! ([`crate::sudoku::solvers`], [`crate::hanidoku::solvers`]).
//!
//! Every solver keeps its working memory between calls: after the first
//! puzzle of a given size, [`Solver::solve`] allocates nothing.
//!
//! ```
//! use dlxbench::solvers::{Budget, SolverSet};
//! use dlxbench::sudoku::{self, Grid, ParseOptions};
//!
//! let line = b".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
//! let mut puzzle = Grid::empty(sudoku::BoxShape::NINE);
//! sudoku::parse_line_into(line, ParseOptions::default(), &mut puzzle).unwrap();
//! let mut solution = puzzle.clone();
//! for entry in SolverSet::<Grid>::builtin().entries() {
//!     let mut solver = entry.make();
//!     let outcome = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
//!     assert_eq!(outcome.solutions, 1, "{}", entry.name());
//!     assert!(sudoku::is_solution_of(&solution, &puzzle));
//! }
//! ```
//!
//! # Adding a solver
//!
//! A built-in solver of a kind: write one file in the kind's `solvers`
//! folder (`src/sudoku/solvers/mine.rs`, `src/hanidoku/solvers/mine.rs`)
//! with a type implementing [`Solver`] for the kind's puzzle type and a
//! `pub const INFO: SolverInfo<Puzzle>` (name, description, constructor,
//! default budget), then add its module name to the kind's
//! `builtin_solvers!` list in that folder's `mod.rs`. The command line,
//! the harness and the cross-checking tests pick it up from there.
//!
//! A solver known only at run time (a library's own, one loaded from a
//! shared library): add a [`SolverEntry`] to a [`SolverSet`] before the run;
//! nothing else changes.

/// True when the CPU has a population-count instruction (POPCNT), so that
/// a bitmask solver may run its `popcnt_dispatch!` build. Read once per
/// solver, when it is made.
pub(crate) fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Defines, in an `impl` block, the search `fn $search<const K: bool>(&mut
/// self, args...)` given with its body (made `#[inline(always)]`), the
/// private `search_popcnt` that is that search compiled with the CPU's
/// population-count instruction, and `fn $solve<const K: bool>(&mut self,
/// popcnt: bool, args...)`, which runs the POPCNT build when `popcnt` is
/// true and the plain one otherwise. The baseline x86-64 target has no
/// POPCNT, and the bitmask solvers count candidates at every node. Callers
/// pass `popcnt` true only when [`has_popcnt`] said so.
macro_rules! popcnt_dispatch {
    (
        $(#[$solve_attr:meta])*
        fn $solve:ident;
        $(#[$attr:meta])*
        fn $search:ident<const $K:ident: bool>(&mut $self:ident, $($arg:ident: $ty:ty),* $(,)?)
            -> $out:ty $body:block
    ) => {
        $(#[$solve_attr])*
        fn $solve<const $K: bool>(&mut self, popcnt: bool, $($arg: $ty),*) -> $out {
            #[cfg(target_arch = "x86_64")]
            if popcnt {
                // SAFETY: `popcnt` is true only when the CPU was found to
                // support POPCNT (see the macro's docs).
                return unsafe { self.search_popcnt::<$K>($($arg),*) };
            }
            let _ = popcnt;
            self.$search::<$K>($($arg),*)
        }

        /// The search compiled with POPCNT (see `popcnt_dispatch!`).
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt")]
        fn search_popcnt<const $K: bool>(&mut self, $($arg: $ty),*) -> $out {
            self.$search::<$K>($($arg),*)
        }

        $(#[$attr])*
        #[inline(always)]
        fn $search<const $K: bool>(&mut $self, $($arg: $ty),*) -> $out $body
    };
}
pub(crate) use popcnt_dispatch;

/// Declares a kind's built-in solvers, in the order reports list them: for
/// each name a module `pub mod NAME;` (a file beside the invoking `mod.rs`)
/// holding the solver and its `pub const INFO`, the kind's `REGISTRY` of
/// those entries, and the kind's [`Builtin`] implementation. Registering a
/// solver is adding its name here.
macro_rules! builtin_solvers {
    ($puzzle:ty: $($module:ident),+ $(,)?) => {
        $(pub mod $module;)+

        /// The built-in solvers of this kind, in the order reports list them.
        pub const REGISTRY: &[$crate::solvers::SolverInfo<$puzzle>] = &[$($module::INFO),+];

        impl $crate::solvers::Builtin for $puzzle {
            const SOLVERS: &'static [$crate::solvers::SolverInfo<$puzzle>] = REGISTRY;
        }
    };
}
pub(crate) use builtin_solvers;

#[cfg(unix)]
pub mod echo;
mod elf;
pub mod foreign;
#[cfg(unix)]
pub mod host;
pub mod layout;
#[cfg(unix)]
pub mod process;
mod set;

pub use set::{Builtin, LogFile, LogUsage, SolverEntry, SolverSet, SolverSetError};

pub use crate::budget::{Budget, Meter};

use std::time::Duration;

use crate::clock::Instant;
use crate::exact_cover::SearchStats;

/// What one solve found and what it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// Search nodes: placements tried below the clues. Each solver counts
    /// its own kind of node, so compare nodes within a solver, not across.
    /// `None` for a solver that does not report them (one loaded through
    /// the C interface): not recorded, which is not zero.
    pub nodes: Option<u64>,
    /// Branch points: nodes at which the solver had more than one candidate
    /// to try.
    pub guesses: u64,
    /// Dancing Links link updates, for solvers that have them.
    pub updates: Option<u64>,
    /// Memory accesses counted as Knuth's programs count them ("mems"),
    /// for solvers that count them ([`SearchStats::mems`]); `None`: not
    /// counted, which is not zero.
    pub mems: Option<u64>,
    /// The solve stopped at its [`Budget`]; `solutions` is then a lower bound.
    pub budget_exceeded: bool,
    /// The solve did not end normally (a solver in its own process that
    /// crashed, overran its deadline, answered out of protocol, or declined
    /// the puzzle): the status is [`Failure::status`], and the counts above
    /// mean nothing. `None` for every normal solve.
    pub failure: Option<Failure>,
    /// What the time [`Solver::solve_timed`] returns measured: the call
    /// (in-process solvers), or for a solver in its own process the
    /// harness's round trip or the solver's own `ns=`.
    pub timing: Timing,
    /// The OS process id of the process the solve ran in, for a solver in
    /// its own process; `None`: this process. A process carries effects
    /// that last as long as it does (where its code and data landed in
    /// memory and the caches), so the table's speed interval resamples
    /// the blocks one process timed together
    /// ([`crate::harness::PairedTimes::pairs`]).
    pub host: Option<u32>,
}

/// What a solve's time measured ([`Outcome::timing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Timing {
    /// The call, read by the solver's code in this process (every built-in
    /// and loaded solver).
    #[default]
    Call,
    /// The harness's round trip to a solver in its own process: from
    /// writing the request to reading the response (the solver gave no
    /// `ns=`).
    RoundTrip,
    /// The solver's own measure of its solve (its `ns=`); the harness's
    /// round trip, in nanoseconds, beside it.
    Own {
        /// The round trip, ns.
        round_trip_ns: u64,
        /// The group of answers whose round trips add up only together,
        /// named by the [line](Block::line) of its first puzzle; `None` for
        /// an answer whose round trip is its own. In a batch (several
        /// requests written at once: [`process`]) an answer the harness
        /// found already waiting when it came to read it has a round trip
        /// too short (it came while the harness was away) and the one
        /// before it one too long: such answers are grouped with the next
        /// answer the harness waited for, and the check of own times
        /// ([`crate::harness::own_time`]) takes the group as one unit.
        group: Option<u64>,
    },
}

impl Timing {
    /// The round trip of a solve that took `ns` by this timing: `ns` itself
    /// for [`Timing::RoundTrip`], the one carried by [`Timing::Own`], none
    /// for a call.
    pub fn round_trip_ns(self, ns: u64) -> Option<u64> {
        match self {
            Timing::Call => None,
            Timing::RoundTrip => Some(ns),
            Timing::Own { round_trip_ns, .. } => Some(round_trip_ns),
        }
    }
}

/// Why a solve did not end normally: the cause of a [`Status::Crashed`],
/// [`Status::Timeout`], [`Status::ProtocolError`] or [`Status::Skipped`]
/// (or a solver in its own process that answered `n/a`), as result files
/// write it in their `cause` column ([`Failure::cause`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Failure {
    /// The process was ended by this signal (`signal 11`).
    Signal(i32),
    /// The process exited, with this status, when it owed an answer
    /// (`exit 3`).
    Exit(i32),
    /// The process closed its output (or its input) without exiting
    /// (`closed`).
    Closed,
    /// The command could not be started at all (`spawn`).
    Spawn,
    /// The solver reported writing past its solution buffer (`error
    /// overflow`; a guard page or canary caught it): `overflow`.
    Overflow,
    /// The solver ran out of memory under its limit (`error memory`):
    /// `memory`.
    Memory,
    /// The solver reported another error (`error KIND`): `error`.
    Error,
    /// The solve overran its deadline (the time budget) and the process
    /// was killed: `deadline`.
    Deadline,
    /// The process did not print its header within the start-up deadline:
    /// `start-up`.
    StartUp,
    /// The process's first line was not `dlxbench-protocol 1`: `header`.
    Header,
    /// A response that is not one the protocol allows (or a solution of
    /// the wrong size): `response`.
    Response,
    /// A line that came when no request was outstanding (a debug print, a
    /// second answer): `stray`.
    Stray,
    /// A response line longer than the longest legal one for the request:
    /// `too-long`.
    TooLong,
    /// The solver's own time (`ns=`) is longer than the round trip the
    /// harness measured around it: `clock`.
    Clock,
    /// Not run: the solver was stopped for the rest of the corpus after
    /// too many failures in a row: `stopped`.
    Stopped,
    /// Not run: the run was interrupted during the call: `interrupted`.
    Interrupted,
    /// The solver declined the puzzle (protocol `n/a`), or its notation
    /// cannot carry it: status `n/a`, cause `declined`.
    Declined,
}

impl Failure {
    /// The status a solve that failed this way gets.
    pub fn status(self) -> Status {
        match self {
            Failure::Signal(_)
            | Failure::Exit(_)
            | Failure::Closed
            | Failure::Spawn
            | Failure::Overflow
            | Failure::Memory
            | Failure::Error => Status::Crashed,
            // Over its time budget, as a built-in solver would be: not a
            // failure of the run.
            Failure::Deadline => Status::Budget,
            Failure::StartUp => Status::Timeout,
            Failure::Header
            | Failure::Response
            | Failure::Stray
            | Failure::TooLong
            | Failure::Clock => Status::ProtocolError,
            Failure::Stopped | Failure::Interrupted => Status::Skipped,
            Failure::Declined => Status::NotApplicable,
        }
    }

    /// Writes the cause as result files hold it: `signal 11`, `exit 3`,
    /// `closed`, `spawn`, `overflow`, `memory`, `error`, `deadline`, `start-up`,
    /// `header`, `response`, `stray`, `too-long`, `clock`, `stopped`,
    /// `interrupted`, `declined`.
    pub fn write_cause(self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        match self {
            Failure::Signal(n) => write!(out, "signal {n}"),
            Failure::Exit(n) => write!(out, "exit {n}"),
            other => out.write_str(other.word()),
        }
    }

    /// The cause as text ([`Failure::write_cause`]).
    pub fn cause(self) -> String {
        let mut s = String::new();
        let _ = self.write_cause(&mut s);
        s
    }

    /// The cause's word, without a number.
    fn word(self) -> &'static str {
        match self {
            Failure::Signal(_) => "signal",
            Failure::Exit(_) => "exit",
            Failure::Closed => "closed",
            Failure::Spawn => "spawn",
            Failure::Overflow => "overflow",
            Failure::Memory => "memory",
            Failure::Error => "error",
            Failure::Deadline => "deadline",
            Failure::StartUp => "start-up",
            Failure::Header => "header",
            Failure::Response => "response",
            Failure::Stray => "stray",
            Failure::TooLong => "too-long",
            Failure::Clock => "clock",
            Failure::Stopped => "stopped",
            Failure::Interrupted => "interrupted",
            Failure::Declined => "declined",
        }
    }

    /// The failure [`Failure::cause`] wrote.
    pub fn from_cause(text: &str) -> Option<Failure> {
        if let Some(n) = text.strip_prefix("signal ") {
            return n.parse().ok().map(Failure::Signal);
        }
        if let Some(n) = text.strip_prefix("exit ") {
            return n.parse().ok().map(Failure::Exit);
        }
        [
            // Listed again on purpose in the process tests, so that a variant this list drops fails
            // there.
            Failure::Closed,
            Failure::Spawn,
            Failure::Overflow,
            Failure::Memory,
            Failure::Error,
            Failure::Deadline,
            Failure::StartUp,
            Failure::Header,
            Failure::Response,
            Failure::Stray,
            Failure::TooLong,
            Failure::Clock,
            Failure::Stopped,
            Failure::Interrupted,
            Failure::Declined,
        ]
        .into_iter()
        .find(|f| f.word() == text)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write_cause(f)
    }
}

/// What one solve of one puzzle came to: the status written to result
/// files (`puzzles.csv`) and shown by every subcommand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// A solution was found (limit 1: uniqueness not checked).
    Solved,
    /// Exactly one solution (proved only when the limit was 2 or more).
    Unique,
    /// Two or more solutions (at least the limit, when counting).
    Multiple,
    /// No solution exists.
    NoSolution,
    /// The budget ran out before the search ended.
    Budget,
    /// The solver returned a grid that is not a solution of the puzzle
    /// (set by the validation after the solve, never by a solver).
    Invalid,
    /// The solver does not take puzzles like this one (a solver loaded
    /// through the 9x9 C interface, given a 16x16 grid): not run, not
    /// timed, left out of the statistics and the cross-check.
    NotApplicable,
    /// The solver's process crashed on this puzzle (a signal, an exit, an
    /// `error` answer: the cause says which); it was restarted. Not
    /// solved, not timed, left out of the cross-check.
    Crashed,
    /// The solve overran its deadline (the solver's time budget) and the
    /// solver's process was killed and restarted. Not solved, not timed.
    Timeout,
    /// The solver's process answered out of protocol (a malformed line, a
    /// solution of the wrong size, a wrong header); it was restarted. Not
    /// solved, not timed.
    ProtocolError,
    /// Not run: the solver was stopped for the rest of the corpus after
    /// failing on [`process::MAX_FAILURES_IN_A_ROW`] puzzles in a row, or
    /// the run was interrupted during its call. Not solved, not timed.
    Skipped,
}

impl Status {
    /// Every status, in the order above.
    pub const ALL: [Status; 11] = [
        Status::Solved,
        Status::Unique,
        Status::Multiple,
        Status::NoSolution,
        Status::Budget,
        Status::Invalid,
        Status::NotApplicable,
        Status::Crashed,
        Status::Timeout,
        Status::ProtocolError,
        Status::Skipped,
    ];

    /// Lower-case name used in files and terminal output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::NoSolution => "none",
            Status::Budget => "budget",
            Status::Invalid => "invalid",
            Status::NotApplicable => "n/a",
            Status::Crashed => "crashed",
            Status::Timeout => "timeout",
            Status::ProtocolError => "protocol-error",
            Status::Skipped => "skipped",
        }
    }

    /// True for the statuses of a solve that did not end normally
    /// (crashed, timeout, protocol-error, skipped): never solved, never
    /// timed, left out of the cross-check, and a run with any fails.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Status::Crashed | Status::Timeout | Status::ProtocolError | Status::Skipped
        )
    }

    /// True when the solve has no time worth recording (n/a and the
    /// failures): left out of the latency statistics and the cross-check.
    pub fn is_untimed(self) -> bool {
        self == Status::NotApplicable || self.is_failure()
    }

    /// The status named `name` (as [`Status::as_str`] writes it).
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Outcome {
    /// Nothing found, at no cost: zero nodes (recorded), no updates or
    /// mems, no failure.
    fn default() -> Self {
        Outcome {
            solutions: 0,
            nodes: Some(0),
            guesses: 0,
            updates: None,
            mems: None,
            budget_exceeded: false,
            failure: None,
            timing: Timing::Call,
            host: None,
        }
    }
}

impl From<SearchStats> for Outcome {
    /// What an exact-cover search found, as a solve's outcome (nodes and
    /// link updates recorded, mems when the engine counts them).
    fn from(stats: SearchStats) -> Self {
        Outcome {
            solutions: stats.solutions,
            nodes: Some(stats.nodes),
            guesses: stats.guesses,
            updates: Some(stats.updates),
            mems: stats.mems,
            budget_exceeded: stats.budget_exceeded,
            ..Outcome::default()
        }
    }
}

impl Outcome {
    /// The status of this outcome when solutions were counted up to
    /// `limit`: with limit 1 a found solution is only `Solved`.
    #[inline]
    pub fn status(&self, limit: u64) -> Status {
        if let Some(failure) = self.failure {
            return failure.status();
        }
        match (self.budget_exceeded, self.solutions) {
            (true, _) => Status::Budget,
            (false, 0) => Status::NoSolution,
            (false, _) if limit == 1 => Status::Solved,
            (false, 1) => Status::Unique,
            (false, _) => Status::Multiple,
        }
    }
}

/// A solver that the harness can drive, for puzzles of type `P` (a kind's
/// puzzle type: [`crate::sudoku::Grid`], [`crate::hanidoku::Board`]).
// Its implementations repeat the signatures of `solve` and `solve_timed`
// (and `Block`'s of `done`): the trait's, not repeated logic.
// Every solver repeats the signatures of these methods (trait impls: host, process, foreign,
// Hanidoku's).
pub trait Solver<P>: Send {
    /// Solves `puzzle`, counting solutions up to `limit` (`u64::MAX` for all)
    /// within `budget`. The first solution found, if any, is written into
    /// `solution` (reusing its buffer); otherwise `solution` is left
    /// unspecified.
    ///
    /// Clues that break the rules give zero solutions, never a panic.
    fn solve(&mut self, puzzle: &P, limit: u64, budget: Budget, solution: &mut P) -> Outcome;

    /// [`Solver::solve`], and how long the solve itself took: what a
    /// benchmark reports. By default the whole call. A solver with work
    /// around its search that is not the algorithm's (encoding the puzzle
    /// for a foreign interface and decoding its answer) times the search
    /// alone. The clock is read inside the solver's own code, after the
    /// dynamic dispatch, so the call's overhead is not timed either.
    #[inline]
    fn solve_timed(
        &mut self,
        puzzle: &P,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) -> (Outcome, Duration) {
        let started = Instant::now();
        let outcome = self.solve(puzzle, limit, budget, solution);
        (outcome, started.elapsed())
    }

    /// What the harness saw of the last failure ([`Outcome::failure`]), once:
    /// the offending line of a protocol error, quoted; the OS error of a
    /// command that could not start. `None` by default (and for solvers
    /// in this process, which do not fail that way).
    fn take_detail(&mut self) -> Option<String> {
        None
    }

    /// False when this solver cannot take puzzles like `puzzle` at all (a
    /// solver loaded through the 9x9 C interface, given a 16x16 grid):
    /// callers then leave it out for that puzzle instead of calling
    /// [`Solver::solve`]. True by default.
    fn accepts(&self, _puzzle: &P) -> bool {
        true
    }

    /// False for a solver that returns solution counts but no solution (a
    /// loaded solver marked count-only: some C solvers write no solution
    /// when asked for more than one). Callers then validate nothing but
    /// still cross-check the count. True by default.
    fn returns_solutions(&self) -> bool {
        true
    }

    /// False for a solver that takes no [`Budget`] and cannot be stopped
    /// (one loaded through the C interface): the harness then applies the
    /// time budget after the call, counting a solve that took longer as
    /// over budget. True by default: the solver stops at its budget itself.
    fn applies_budget(&self) -> bool {
        true
    }

    /// A new corpus starts (the harness calls this on every worker's
    /// solvers before the corpus's first puzzle). A solver in its own
    /// process that was stopped after failing too often in a row is tried
    /// again. Does nothing by default.
    fn start_corpus(&mut self) {}

    /// True for a solver that gains from being handed a whole block of
    /// puzzles at once ([`Solver::solve_block`]): one in its own process,
    /// which can have them all in its pipe instead of paying a round trip
    /// per puzzle. The harness then calls `solve_block` for each of its
    /// blocks; for the others (false, the default: every built-in solver)
    /// it calls [`Solver::solve_timed`] puzzle by puzzle, as always.
    fn solves_blocks(&self) -> bool {
        false
    }

    /// True when the solver is to be warmed up (an untimed solve of the
    /// block's last puzzle) before its next block even though it solved
    /// the block before: a solver in its own process whose process was
    /// just replaced ([`process::ProcessOptions::renew_after`]). False by
    /// default.
    fn wants_warm_up(&self) -> bool {
        false
    }

    /// Solves the puzzles of `block` in order, each counting solutions up
    /// to `limit` within `budget`, and tells the block each one's outcome
    /// and time ([`Block::done`], with the solution in `solution`) as it
    /// ends. Every puzzle [`Block::puzzle`] gives is solved and reported
    /// exactly once, with its own time, as [`Solver::solve_timed`] would
    /// have timed it alone; validation is the block's, outside the timed
    /// region. By default [`solve_each`]: `solve_timed` puzzle by puzzle.
    fn solve_block(
        &mut self,
        block: &mut dyn Block<P>,
        limit: u64,
        budget: Budget,
        solution: &mut P,
    ) {
        solve_each(self, block, limit, budget, solution);
    }
}

/// A block of puzzles handed to [`Solver::solve_block`]: the puzzles, and
/// where each one's outcome goes.
// `BlockView` (harness/worker.rs) and `HostTimed` repeat these signatures (trait impls).
pub trait Block<P> {
    /// Puzzles in the block (some may be left out: [`Block::puzzle`]).
    fn len(&self) -> usize;

    /// True when the block has no puzzles.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The puzzle at `index` (below [`Block::len`]), or `None` when the
    /// solver is not to solve it (it does not [accept](Solver::accepts)
    /// it). May be asked for more than once.
    fn puzzle(&mut self, index: usize) -> Option<&P>;

    /// The line in its corpus of the puzzle at `index`: a name for it,
    /// unique in the run's corpus ([`Timing::Own::group`]).
    fn line(&self, index: usize) -> u64;

    /// The solve of the puzzle at `index` ended: what it found, how long
    /// it took (as [`Solver::solve_timed`] returns it), and its solution
    /// (when it found one), and for a failure what the solver saw of it
    /// ([`Solver::take_detail`]).
    fn done(
        &mut self,
        index: usize,
        outcome: &Outcome,
        took: Duration,
        solution: &P,
        detail: Option<String>,
    );

    /// A name for this block, unique in the run, when the harness may have
    /// shown it before as [`Block::upcoming`]: a solver that wrote
    /// requests ahead for an upcoming block finds out with it whether this
    /// is that block. `None` (the default): no block was announced.
    fn key(&self) -> Option<u64> {
        None
    }

    /// The block the solver will be handed next, when the harness knows it
    /// already (the next chunk's, with one solver in its own process in
    /// the run): a solver in its own process may write its first requests
    /// while the last of this block are answered, so that its process does
    /// not idle between the two. `None` by default.
    fn upcoming(&mut self) -> Option<&mut dyn Upcoming<P>> {
        None
    }
}

/// The puzzles of the block a solver will be handed next
/// ([`Block::upcoming`]): read-only, for writing requests ahead; their
/// outcomes are told to that block when it comes.
pub trait Upcoming<P> {
    /// The [`Block::key`] the block will have.
    fn key(&self) -> u64;

    /// Puzzles in it.
    fn len(&self) -> usize;

    /// True when it has no puzzles.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The puzzle at `index`, or `None` when the solver is not to solve it,
    /// as [`Block::puzzle`] will say.
    fn puzzle(&mut self, index: usize) -> Option<&P>;
}

/// [`Solver::solve_block`] one puzzle at a time: [`Solver::solve_timed`]
/// for each puzzle the block gives, in order.
pub fn solve_each<P, S: Solver<P> + ?Sized>(
    solver: &mut S,
    block: &mut dyn Block<P>,
    limit: u64,
    budget: Budget,
    solution: &mut P,
) {
    for index in 0..block.len() {
        let Some(puzzle) = block.puzzle(index) else {
            continue;
        };
        let (outcome, took) = solver.solve_timed(puzzle, limit, budget, solution);
        let detail = outcome.failure.and_then(|_| solver.take_detail());
        block.done(index, &outcome, took, solution, detail);
    }
}

/// A registry entry: a name, a one-line description and a constructor (for
/// solvers of puzzles of type `P`).
pub struct SolverInfo<P: 'static> {
    /// Name used on the command line and in result files.
    pub name: &'static str,
    /// One line for `--help` and the README.
    pub description: &'static str,
    /// Makes a fresh solver (with empty working memory).
    pub make: fn() -> Box<dyn Solver<P>>,
    /// The node budget the harness gives it when none is asked for:
    /// [`Budget::UNLIMITED`] for a solver that finishes any corpus, a bound
    /// for an exhaustive baseline that could run for minutes on one puzzle.
    pub default_budget: Budget,
}

impl<P> Clone for SolverInfo<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for SolverInfo<P> {}

impl<P> std::fmt::Debug for SolverInfo<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverInfo")
            .field("name", &self.name)
            .field("default_budget", &self.default_budget)
            .finish()
    }
}

#[cfg(test)]
mod tests;
