//! # dlxbench
//!
//! A batch benchmark harness for Sudoku solvers, built around Knuth's
//! Dancing Links.
//!
//! * [`exact_cover`]: a general exact-cover engine (Algorithm X on Dancing
//!   Links) with primary and secondary columns, preselected rows, counting up
//!   to a limit, node budgets and machine-independent cost counters.
//! * [`sudoku`]: grids of every size from 4x4 to 128x128, text formats,
//!   the rule checker, and Sudoku's solvers ([`sudoku::solvers`]: `dlx`,
//!   `heuristic`, `singles`, `locked` and `naive`), seeded generator
//!   ([`sudoku::generate`], with minimal, few-clue and difficulty targets)
//!   and rater ([`sudoku::rate`]: per-puzzle solver costs and difficulty
//!   classes).
//! * [`notation`]: the symbol alphabets and output formats of the text
//!   notations.
//! * [`hanidoku`]: the hexagonal puzzle: board, rules, text format, its
//!   exact-cover encoding, two solvers and a generator.
//! * [`solvers`]: what every kind's solvers share: the [`solvers::Solver`]
//!   trait, outcomes and statuses, the [`solvers::SolverSet`] a run chooses
//!   from, and solvers loaded through tdoku's C interface.
//! * [`ffi`]: the built-in solvers behind tdoku's C interface, exported
//!   by the workspace's `dlxbench-ffi` crate as `libdlxbench.so`.
//! * [`corpus`]: memory-mapped corpus files, split into line-aligned chunks.
//! * [`harness`]: the batch runner behind `dlxbench bench` (rayon workers,
//!   per-worker solver states, latency histograms, cross-checking).
//! * [`report`]: the result files and the terminal table.
//! * [`compare`]: regression tracking between two runs (`dlxbench
//!   compare`): deterministic counters, and time ratios with bootstrap
//!   confidence intervals.
//! * [`ab`]: paired A/B of two solvers in one run (`dlxbench ab`), the
//!   time gate for noisy machines.
//! * [`versus`]: comparing algorithms puzzle by puzzle in one run
//!   (`dlxbench versus`): head-to-head, solved-within-time curves, the
//!   virtual best solver.
//! * [`plot`]: the pictures of a result directory and `report.html`, and
//!   the page of a comparison; [`export`]: results in the formats of the
//!   dashboards projects track performance with.
//! * [`session`]: a `bench` session around the harness run: the output
//!   directory, each corpus's result files as it ends, pictures, exports
//!   and baselines, and the outcome the command line reports.
//! * [`history`]: the history of runs over commits (`dlxbench history`):
//!   an SQLite database of runs, the steps of node counts and time, the
//!   dashboard.
//! * [`clock`]: the clock solves are timed with (the time-stamp counter
//!   where it is invariant).
//! * [`budget`]: search budgets (nodes, and time as a safety net) and the
//!   meter a search loop checks them with.
//! * [`atomic`]: files and directories written under a temporary name and
//!   renamed into place; [`dirlock`]: the lock that keeps one writer per
//!   result directory.
//! * [`terminal`]: text for a terminal, with control characters escaped.
//! * [`clobber`]: no output over an input; output paths checked against a
//!   command's inputs by file identity.
//! * [`exact_cover::puzzles`]: N-queens, pentominoes and Langford pairs
//!   built with the exact-cover API.

#![warn(missing_docs)]

// Unit tests: a folder module (`foo/mod.rs`) keeps its unit tests in
// `foo/tests.rs`, declared with `#[cfg(test)] mod tests;` at the end of
// `mod.rs`; a single-file module keeps them inline at its end, in
// `#[cfg(test)] mod tests { ... }`. End-to-end tests are in `tests/`.

pub mod ab;
pub mod atomic;
pub mod bisect;
pub mod budget;
pub mod clobber;
pub mod clock;
pub mod compare;
pub mod corpus;
pub mod datasets;
pub mod dirlock;
pub mod exact_cover;
pub mod exit_note;
pub mod export;
pub mod ffi;
pub mod hanidoku;
pub mod harness;
pub mod history;
pub mod kinds;
pub mod merge;
pub mod notation;
pub mod plot;
pub mod puzzle;
pub mod report;
pub mod results;
pub mod rng;
pub mod session;
pub mod shard;
pub mod sigbus;
pub mod solvers;
pub mod sudoku;
pub mod terminal;
pub mod versus;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The Rust examples of `docs/engine.md`, compiled and run as doctests
/// (every page of `docs/` with a Rust code block has one of these:
/// `tests/it/readme.rs` checks it).
#[cfg(doctest)]
#[doc = include_str!("../docs/engine.md")]
struct EngineDoctests;
