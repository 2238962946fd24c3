//! What every exact-cover engine shares: the search's options and
//! statistics, the item choice, and the [`Engine`] trait that the solvers
//! and the `cover` subcommand are written against.
//!
//! Two engines implement it: [`Dlx`](super::Dlx), Knuth's Dancing Links
//! (doubly linked lists), and [`Dc`](super::Dc), his dancing cells (sparse
//! sets). [`EngineKind`] names them; adding an engine is adding it there.

// Duplicates (issue #42): the engines (cells.rs, dlx.rs) repeat the signatures of this trait's
// methods, as implementations do.

use std::fmt;
use std::ops::ControlFlow;
use std::str::FromStr;
use std::time::Duration;

use crate::budget::Budget;
use crate::clock::{self, Instant};

use super::{Problem, ProblemError};

/// A search's visitor of solutions ([`Engine::search`]), as the engines'
/// search loops take it: behind a pointer, so that each loop is compiled
/// once per column choice and row width, not once more for every caller's
/// closure (a call per solution, never per node; the unit tests' build
/// had 320 copies of `Dc::run` and 448 of `Dlx::run`, 28% of its LLVM IR).
pub type Visit<'a> = dyn FnMut(&[usize]) -> ControlFlow<()> + 'a;

/// How the search picks the primary column (item) to branch on.
///
/// Every choice is correct (any open primary column must be covered by
/// some row), so the choice changes the search tree, never what is found.
/// Two engines that choose the same column in the same state explore the
/// same tree; where the search is not cut short by a solution limit or a
/// budget (all solutions counted, or none or one found under a limit of
/// two), they then make the same number of nodes whatever order they try
/// a column's rows in. [`ColumnChoice::LowestIndex`] is such a choice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ColumnChoice {
    /// The engine's own minimum-remaining-values choice (Knuth's "S
    /// heuristic"): an open primary column with the fewest rows, ties
    /// broken as the engine finds fastest. [`Dlx`](super::Dlx): forced
    /// columns first, the newest of them, and a weighted tie-break (its
    /// module docs); [`Dc`](super::Dc): [`ColumnChoice::Forced`] (see its
    /// module docs for the alternatives measured).
    #[default]
    MinimumRemaining,
    /// The first open primary column in column order, for comparison.
    First,
    /// Minimum remaining values with the forced-column stack, made the
    /// same in every engine, so that they make the same tree (node for
    /// node): of the columns that the level above made short (one row
    /// or none), the open one with the fewest rows, then the lowest index;
    /// else the lowest-index open column of at most one row; else, at a
    /// branch point, [`Dlx`](super::Dlx)'s tie-break (the first 16 tied
    /// columns in index order weighed by the row that reaches furthest).
    /// The columns a level makes short are a set, whatever order an
    /// engine removes rows in; which of them is newest is not, so
    /// [`ColumnChoice::MinimumRemaining`] of `Dlx`, which takes the
    /// newest, makes a tree of its own.
    Forced,
    /// Minimum remaining values, ties broken by the lowest column index:
    /// a choice that depends on the state alone, so that every engine
    /// makes the same tree (used to check engines against each other node
    /// for node).
    LowestIndex,
    /// Minimum remaining values with the tie-break of Knuth's own program
    /// for the engine, to reconcile counts with it: the first of the
    /// fewest in the engine's list of active items. DLX1 keeps that list in
    /// column order (covering takes a column out and puts it back in
    /// place), so for [`Dlx`](super::Dlx) this is
    /// [`ColumnChoice::LowestIndex`]; SSXC keeps a sparse set, whose order
    /// changes as items are deactivated and reactivated, and so does
    /// [`Dc`](super::Dc).
    Knuth,
}

/// Limits and strategy for one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Stop after this many solutions. `u64::MAX` means all of them.
    pub limit: u64,
    /// Stop (and report [`SearchStats::budget_exceeded`]) rather than try more
    /// rows than its nodes, or search longer than its time.
    pub budget: Budget,
    /// Column choice.
    pub choice: ColumnChoice,
}

impl Default for SearchOptions {
    /// All solutions, no budget, minimum-remaining-values choice.
    fn default() -> Self {
        SearchOptions {
            limit: u64::MAX,
            budget: Budget::UNLIMITED,
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
    /// Updates: a node taken out of a column's list (DLX), a cell swapped
    /// out of an item's set (dancing cells), preselection included. The
    /// two engines make the same updates in the same search tree.
    pub updates: u64,
    /// Memory accesses counted as Knuth's programs count them ("mems"),
    /// for the engines that count them ([`Dc`](super::Dc)); the search
    /// alone, not the preselection.
    pub mems: Option<u64>,
    /// The search stopped because it would have tried more than
    /// [`SearchOptions::budget`] allows; the count is then a lower bound.
    pub budget_exceeded: bool,
}

/// A search's statistics and its time alone ([`Engine::timed_search`]):
/// from its start to its end, without building the arena (nor reading
/// the problem); with the visitor's own work, which runs inside it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimedSearch {
    /// What the search found and what it cost.
    pub stats: SearchStats,
    /// The search's time, read with [`crate::clock`].
    pub time: Duration,
}

impl TimedSearch {
    /// Nanoseconds a node ([`SearchStats::nodes`]), if the search tried
    /// any row.
    ///
    /// ```
    /// use dlxbench::exact_cover::{SearchStats, TimedSearch};
    /// use std::time::Duration;
    ///
    /// let stats = SearchStats { nodes: 4, mems: Some(8), ..SearchStats::default() };
    /// let timed = TimedSearch { stats, time: Duration::from_nanos(100) };
    /// assert_eq!(timed.ns_per_node(), Some(25.0));
    /// assert_eq!(timed.ns_per_mem(), Some(12.5));
    /// let none = TimedSearch { stats: SearchStats::default(), ..timed };
    /// assert_eq!((none.ns_per_node(), none.ns_per_mem()), (None, None));
    /// ```
    pub fn ns_per_node(&self) -> Option<f64> {
        per(self.time, self.stats.nodes)
    }

    /// Nanoseconds a mem ([`SearchStats::mems`]), for an engine that
    /// counts them and a search that made any.
    pub fn ns_per_mem(&self) -> Option<f64> {
        per(self.time, self.stats.mems?)
    }
}

/// `time` over `count` in nanoseconds, unless `count` is 0.
fn per(time: Duration, count: u64) -> Option<f64> {
    (count > 0).then(|| time.as_nanos() as f64 / count as f64)
}

/// An exact-cover search arena: built once from a [`Problem`], reused for
/// any number of searches without allocating.
///
/// An engine implements its primitives (building, selecting, resetting,
/// and the search proper, [`Engine::run_search`]); [`Engine::count`],
/// [`Engine::search`] and [`Engine::search_deferred`] are written here
/// once, on top of them.
///
/// Preselected rows stay in force across searches until
/// [`Engine::reset`] or [`Engine::select_all`]; every search leaves the
/// arena as it found it (but see [`Engine::search_deferred`]).
///
/// ```
/// use dlxbench::exact_cover::{Dc, Dlx, Engine, Problem, SearchOptions};
///
/// fn count<E: Engine>(p: &Problem) -> u64 {
///     let mut arena = E::try_new(p).unwrap();
///     arena.count(SearchOptions::default()).solutions
/// }
/// let mut p = Problem::new(2, 0);
/// p.add_row(&[0]).unwrap();
/// p.add_row(&[1]).unwrap();
/// p.add_row(&[0, 1]).unwrap();
/// assert_eq!(count::<Dlx>(&p), 2);
/// assert_eq!(count::<Dc>(&p), 2);
/// ```
// `Dlx` and `Dc` repeat the signature of `run_search`: the trait's, not
// repeated logic.
pub trait Engine: Sized {
    /// The engine's name, as `cover --engine` and the solvers spell it.
    const KIND: EngineKind;

    /// Whether the engine counts [`SearchStats::mems`]: a search that
    /// tries nothing then reports 0 of them, not `None`.
    const COUNTS_MEMS: bool;

    /// Builds the arena, or reports that the problem is too large. This
    /// is the only allocation the arena makes.
    fn try_new(problem: &Problem) -> Result<Self, ProblemError>;

    /// Number of rows of the problem.
    fn rows(&self) -> usize;

    /// Every heap byte the arena holds.
    fn heap_bytes(&self) -> usize;

    /// Preselects row `row` (for instance a Sudoku clue): its columns are
    /// covered before any search, as if the search had chosen it. Returns
    /// `false`, selecting nothing, when the row clashes with an earlier
    /// selection; every later search then finds no solution until
    /// [`Engine::reset`].
    ///
    /// # Panics
    /// If `row >= self.rows()`.
    fn select(&mut self, row: usize) -> bool;

    /// Selects each of `rows` in turn, as [`Engine::select`] does; `false`
    /// when one clashed.
    fn select_rows(&mut self, rows: &[usize]) -> bool;

    /// Resets the arena and selects `rows`, as fast as the engine can: the
    /// same state, as far as what a search finds, as [`Engine::reset`]
    /// followed by [`Engine::select_rows`]. `false` when a row clashed.
    fn select_all(&mut self, rows: &[usize]) -> bool;

    /// Undoes every selection (and what a deferred search left).
    fn reset(&mut self);

    /// Undoes what a [`Engine::search_deferred`] left, if anything: the
    /// arena is then as the search found it.
    fn settle(&mut self);

    /// Primitive of [`Engine::search`]: puts the arena in the state a
    /// search starts from (undoing what a deferred search left) and
    /// returns `false` when a selection clashed, so that no search can
    /// find anything.
    fn prepare_search(&mut self) -> bool;

    /// Primitive of [`Engine::search`]: the updates the selections in force
    /// made, which every search's statistics include.
    fn select_updates(&self) -> u64;

    /// Primitive of [`Engine::search`]: Algorithm X from a prepared arena
    /// with a limit of at least one solution, as [`Engine::search`]
    /// (`defer` false) or [`Engine::search_deferred`] (`defer` true)
    /// describe it; the statistics of the search alone, without the
    /// selections' updates. Call those two instead. Not generic: the
    /// search loops are compiled once, in this library, whoever calls
    /// them (a generic one was compiled again in every crate that
    /// searched: each example, the tests, the binary).
    fn run_search(
        &mut self,
        defer: bool,
        options: SearchOptions,
        visit: &mut Visit<'_>,
    ) -> SearchStats;

    /// Counts solutions up to `options.limit`.
    fn count(&mut self, options: SearchOptions) -> SearchStats {
        drive::<Self, false, _>(self, options, |_| ControlFlow::Continue(()))
    }

    /// Runs the search, calling `visit` with the rows of each solution
    /// (selected rows first, then the search's choices); the visitor may
    /// stop it with `ControlFlow::Break`. The arena holds the same rows in
    /// every column when this returns, selections kept (a [`Dc`](super::Dc)
    /// in an order the search may have changed, which the next search
    /// puts back first).
    fn search<F>(&mut self, options: SearchOptions, visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        drive::<Self, false, F>(self, options, visit)
    }

    /// [`Engine::search`], timed on its own: the clock is calibrated
    /// first and read at the search's start and end, so the time is the
    /// search's (its visits included), not building the arena.
    ///
    /// ```
    /// use dlxbench::exact_cover::{Dc, Engine, Problem, SearchOptions};
    ///
    /// let mut p = Problem::new(2, 0);
    /// for row in [&[0][..], &[1], &[0, 1]] {
    ///     p.add_row(row).unwrap();
    /// }
    /// let mut dc = Dc::new(&p);
    /// let timed = dc.timed_search(SearchOptions::default(), |_| std::ops::ControlFlow::Continue(()));
    /// assert_eq!(timed.stats, dc.count(SearchOptions::default()));
    /// assert!(timed.time < std::time::Duration::from_secs(1));
    /// ```
    fn timed_search<F>(&mut self, options: SearchOptions, visit: F) -> TimedSearch
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        clock::calibrate();
        let started = Instant::now();
        let stats = self.search(options, visit);
        TimedSearch {
            stats,
            time: started.elapsed(),
        }
    }

    /// [`Engine::search`], except that the search stops as soon as nothing
    /// is left to try, without undoing what the path it ended on covered
    /// (for a Sudoku solved without a guess, that is every cover it made:
    /// about half its updates). The arena undoes that ([`Engine::settle`])
    /// only when it is used again ([`Engine::select`], a search,
    /// [`Engine::reset`]); [`Engine::select_all`] rebuilds the columns and
    /// has nothing to undo, so a caller that places each problem with it
    /// never pays for it. The statistics are those of [`Engine::search`]
    /// (undoing removes nothing), except for the mems of the backtracking
    /// left undone.
    ///
    /// ```
    /// use dlxbench::exact_cover::{Dlx, Engine, Problem, SearchOptions};
    ///
    /// let mut p = Problem::new(2, 0);
    /// for row in [&[0][..], &[1], &[0, 1]] {
    ///     p.add_row(row).unwrap();
    /// }
    /// let mut dlx = Dlx::new(&p);
    /// let all = dlx.count(SearchOptions::default());
    /// let deferred = dlx.search_deferred(SearchOptions::default(), |_| std::ops::ControlFlow::Continue(()));
    /// assert_eq!(deferred, all);
    /// dlx.settle();
    /// assert_eq!(dlx, Dlx::new(&p));
    /// ```
    fn search_deferred<F>(&mut self, options: SearchOptions, visit: F) -> SearchStats
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        drive::<Self, true, F>(self, options, visit)
    }
}

/// The one search driver behind [`Engine::search`] and
/// [`Engine::search_deferred`]: the engine's primitives in order.
#[inline(always)]
fn drive<E: Engine, const DEFER: bool, F>(
    engine: &mut E,
    options: SearchOptions,
    mut visit: F,
) -> SearchStats
where
    F: FnMut(&[usize]) -> ControlFlow<()>,
{
    let ready = engine.prepare_search();
    let mut stats = if ready && options.limit > 0 {
        engine.run_search(DEFER, options, &mut visit)
    } else {
        SearchStats {
            mems: E::COUNTS_MEMS.then_some(0),
            ..SearchStats::default()
        }
    };
    stats.updates += engine.select_updates();
    stats
}

/// The exact-cover engines, by name.
///
/// ```
/// use dlxbench::exact_cover::EngineKind;
/// assert_eq!("dc".parse::<EngineKind>(), Ok(EngineKind::Dc));
/// assert_eq!(EngineKind::Dlx.to_string(), "dlx");
/// assert!("dl".parse::<EngineKind>().is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Dancing Links ([`Dlx`](super::Dlx)).
    #[default]
    Dlx,
    /// Dancing cells ([`Dc`](super::Dc)).
    Dc,
}

impl EngineKind {
    /// Every engine, in the order help texts list them.
    pub const ALL: [EngineKind; 2] = [EngineKind::Dlx, EngineKind::Dc];

    /// The engine's name: `dlx` or `dc`.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Dlx => "dlx",
            EngineKind::Dc => "dc",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An engine name that is not one of [`EngineKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine {0:?} (known: dlx, dc)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownEngine(s.to_string()))
    }
}
