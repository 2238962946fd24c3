//! The history of runs over commits: an embedded SQLite database that
//! `dlxbench history add` fills from result directories and `history show`
//! reads back as tables, JSON and a dashboard with the steps marked.
//!
//! * [`store`]: opening the database, its schema version and migrations;
//! * [`import`]: adding a run, once, whole or not at all;
//! * [`series`]: the database read back per corpus x solver over commits;
//! * [`steps`]: where node counts (exactly) and times (against the noise)
//!   step;
//! * [`render`]: text, Markdown and JSON; [`dashboard`]: the HTML page;
//! * [`export`]: the database as CSV or JSON.
//!
//! `docs/history.md` has the commands, how a team shares the database and
//! its limits.

pub mod dashboard;
pub mod export;
pub mod import;
pub mod render;
pub mod series;
pub mod steps;
pub mod store;

use std::path::{Path, PathBuf};

pub use import::{add, run_key, AddOptions, Added};
pub use series::{load, Series};
pub use store::Store;

use crate::atomic::AtomicFile;
use crate::plot::chart::DrawError;
use crate::results::ResultError;

/// The A/A floor `history show` uses unless told: a time change within 3%
/// of the level is never a step (`docs/history.md` says why).
pub const DEFAULT_FLOOR: f64 = 0.03;

/// Why the history could not be read or written: each names the file.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// SQLite's error on the database.
    #[error("{}: {error}", path.display())]
    Sqlite {
        /// The database.
        path: PathBuf,
        /// SQLite's error.
        error: rusqlite::Error,
    },
    /// The database is not there (only `history add` creates one).
    #[error("{}: no such history database (`dlxbench history add` creates one)", path.display())]
    Missing {
        /// The database.
        path: PathBuf,
    },
    /// The database was written by a newer dlxbench.
    #[error(
        "{}: schema version {found}, written by a newer dlxbench (this one reads up to {known})",
        path.display()
    )]
    Newer {
        /// The database.
        path: PathBuf,
        /// Its version.
        found: u32,
        /// The newest this build knows.
        known: u32,
    },
    /// A result directory could not be read.
    #[error(transparent)]
    Result(#[from] ResultError),
    /// A run that did not finish.
    #[error("{}: the run is {state}, not complete: only complete runs are added", dir.display())]
    NotComplete {
        /// The result directory.
        dir: PathBuf,
        /// Its state, in words.
        state: String,
    },
    /// A run without `summary.csv`.
    #[error("{}: no summary.csv: expected the result directory of a complete run", dir.display())]
    NoSummary {
        /// The result directory.
        dir: PathBuf,
    },
    /// The CSV export could not be written.
    #[error("CSV export: {0}")]
    Csv(String),
    /// A chart could not be drawn.
    #[error(transparent)]
    Draw(#[from] DrawError),
    /// An output file could not be written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

/// The output formats of `history show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text tables.
    #[default]
    Text,
    /// Markdown tables (a CI job summary).
    Markdown,
    /// [`HistoryJson`](crate::results::output::HistoryJson).
    Json,
}

/// Adds the runs in the result directories `dirs` to the database `db`
/// (created if missing), each on its own: what each did, in order. Fails
/// as a whole only when the database cannot be opened.
pub fn add_runs(
    db: &Path,
    dirs: &[PathBuf],
    options: &AddOptions,
) -> Result<Vec<Result<Added, HistoryError>>, HistoryError> {
    let mut store = Store::open(db, true)?;
    Ok(dirs
        .iter()
        .map(|dir| add(&mut store, dir, options))
        .collect())
}

/// `history show`: the database `db` in `format`, with the dashboard
/// written to `html` (atomically) when given; steps at the A/A floor
/// `floor` (a fraction).
pub fn show(
    db: &Path,
    format: Format,
    floor: f64,
    html: Option<&Path>,
) -> Result<String, HistoryError> {
    let store = Store::open(db, false)?;
    let series = load(&store, floor)?;
    let name = db.display().to_string();
    if let Some(path) = html {
        let page = dashboard::page(&name, &series, floor)?;
        write(path, &page)?;
    }
    Ok(match format {
        Format::Text => render::text(&series, floor),
        Format::Markdown => render::markdown(&series, floor),
        Format::Json => json_text(&render::json(&name, store.version()?, &series, floor)),
    })
}

/// `history export`: every run of `db` as CSV (`csv`) or JSON.
pub fn export(db: &Path, csv: bool) -> Result<String, HistoryError> {
    let store = Store::open(db, false)?;
    let doc = export::runs(&store)?;
    match csv {
        true => export::csv(&doc),
        false => Ok(json_text(&doc)),
    }
}

/// `value` as the JSON outputs are written: sorted keys, pretty, a final
/// line end.
fn json_text<T: serde::Serialize>(value: &T) -> String {
    let mut s = crate::results::to_json(value).unwrap_or_default();
    s.push('\n');
    s
}

/// Writes `text` to `path` atomically.
pub fn write(path: &Path, text: &str) -> Result<(), HistoryError> {
    AtomicFile::write(path, text.as_bytes())
        .map(|_| ())
        .map_err(|error| HistoryError::Io {
            path: path.to_path_buf(),
            error,
        })
}

#[cfg(test)]
mod tests;
