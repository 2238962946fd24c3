//! `puzzles.csv`: one row per puzzle x solver (columns in
//! [`schema::puzzles`](super::schema::puzzles), in the order of
//! [`PuzzleRecord`]'s fields).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::solvers::Status;

/// One row of `puzzles.csv`.
///
/// The run's writer ([`crate::report::puzzles_csv`]) streams these rows
/// without building one (its output is checked against this type's
/// serialization); `compare` and `merge` stream them back without
/// allocating per row, by the column names of
/// [`schema::puzzles`](super::schema::puzzles).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleRecord {
    /// Corpus name.
    pub corpus: String,
    /// 1-based line of the puzzle in its corpus.
    pub line: u64,
    /// Solver name.
    pub solver: String,
    /// Solve time, ns (the minimum over passes).
    pub ns: u64,
    /// Solutions found (capped by the mode's limit).
    pub solutions: u64,
    /// Search nodes (`None`: the solver does not report them).
    pub nodes: Option<u64>,
    /// Branch points.
    pub guesses: u64,
    /// The puzzle's status ([`Status::as_str`]).
    #[serde(serialize_with = "status_out", deserialize_with = "status_in")]
    pub status: Status,
    /// Link updates (`None`: the solver has none, or an older file).
    #[serde(default)]
    pub updates: Option<u64>,
    /// The round trip to a solver in its own process, ns (`None`: an
    /// in-process solver, or an older file).
    #[serde(default)]
    pub round_trip_ns: Option<u64>,
    /// Why the solve failed ([`crate::solvers::Failure::cause`]); `None`
    /// for a normal solve, or an older file.
    #[serde(default)]
    pub cause: Option<String>,
    /// Mems: memory accesses as Knuth's programs count them (`None`: the
    /// solver does not count them, or an older file).
    #[serde(default)]
    pub mems: Option<u64>,
    /// The process id of the process that timed the solve, for a solver in
    /// its own process (`None`: an in-process solver, or an older file).
    #[serde(default)]
    pub host: Option<u32>,
}

fn status_out<S: Serializer>(status: &Status, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(status.as_str())
}

fn status_in<'de, D: Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
    let name = String::deserialize(d)?;
    Status::from_name(&name)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown status `{name}`")))
}
