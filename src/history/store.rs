//! The database: opening it (busy timeout, foreign keys), its schema
//! version and the migrations that bring an older database up to date.
//!
//! The schema is the list [`MIGRATIONS`]: migration `i` (1-based) takes a
//! database from version `i - 1` to version `i`. The version is the one
//! row of the table `schema_version`; a database without that table is
//! new (version 0). Opening runs the missing migrations in one immediate
//! transaction each, so two processes opening an old database at once
//! migrate it once: the second waits for the first's lock, then finds the
//! version already bumped. A database of a newer version than this build
//! knows is refused ([`HistoryError::Newer`]): its tables may mean what
//! this build cannot read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior};

use super::HistoryError;

/// How long a writer waits for another's lock before giving up: long
/// enough for another CI job's import of a large run.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(120);

/// The migrations, in order: the `i`-th (1-based) takes a database to
/// version `i`. Never edit one that has shipped: add another.
pub const MIGRATIONS: &[&str] = &[
    // 1: runs and their per corpus x solver figures.
    "CREATE TABLE schema_version (version INTEGER NOT NULL);
     INSERT INTO schema_version (version) VALUES (0);
     CREATE TABLE runs (
         id INTEGER PRIMARY KEY,
         run_key TEXT NOT NULL UNIQUE,
         git_revision TEXT,
         started TEXT,
         finished TEXT,
         dlxbench_version TEXT,
         cpu_model TEXT,
         cores INTEGER,
         threads INTEGER,
         kind TEXT NOT NULL,
         mode TEXT,
         command_line TEXT NOT NULL,
         merged_parts INTEGER NOT NULL,
         source_dir TEXT NOT NULL,
         added TEXT NOT NULL
     );
     CREATE TABLE summaries (
         run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
         corpus TEXT NOT NULL,
         corpus_sha256 TEXT,
         solver TEXT NOT NULL,
         puzzles INTEGER NOT NULL,
         solved INTEGER NOT NULL,
         unsolvable INTEGER NOT NULL,
         multiple INTEGER NOT NULL,
         budget INTEGER NOT NULL,
         invalid INTEGER NOT NULL,
         failed INTEGER NOT NULL,
         skipped INTEGER NOT NULL,
         timed INTEGER NOT NULL,
         mean_ns REAL,
         stddev_ns REAL,
         p50_ns REAL,
         p99_ns REAL,
         puzzles_per_s REAL,
         total_nodes INTEGER,
         total_updates INTEGER,
         total_mems INTEGER,
         PRIMARY KEY (run_id, corpus, solver)
     );",
    // 2: per-puzzle rows (`history add --puzzles`).
    "CREATE TABLE puzzles (
         run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
         corpus TEXT NOT NULL,
         solver TEXT NOT NULL,
         line INTEGER NOT NULL,
         ns INTEGER NOT NULL,
         nodes INTEGER,
         solutions INTEGER NOT NULL,
         status TEXT NOT NULL
     );
     CREATE INDEX puzzles_of_run ON puzzles (run_id, corpus, solver);",
];

/// The schema version this build writes: the number of [`MIGRATIONS`].
pub fn current_version() -> u32 {
    MIGRATIONS.len() as u32
}

/// An open history database.
#[derive(Debug)]
pub struct Store {
    /// The database file.
    pub path: PathBuf,
    pub(super) conn: Connection,
}

/// The error of `error` on the database `path`.
pub(super) fn sql(path: &Path) -> impl Fn(rusqlite::Error) -> HistoryError + '_ {
    move |error| HistoryError::Sqlite {
        path: path.to_path_buf(),
        error,
    }
}

impl Store {
    /// Opens the database `path`, creating it when `create` and it is not
    /// there, and migrates it to [`current_version`]. Refuses a missing
    /// file when not `create`, and a database of a newer version.
    pub fn open(path: &Path, create: bool) -> Result<Store, HistoryError> {
        let mut store = Store::connect(path, create)?;
        store.migrate(current_version())?;
        Ok(store)
    }

    /// Opens the database `path` as [`Store::open`] does, without
    /// migrating it.
    pub(super) fn connect(path: &Path, create: bool) -> Result<Store, HistoryError> {
        if !create && !path.is_file() {
            return Err(HistoryError::Missing {
                path: path.to_path_buf(),
            });
        }
        let conn = Connection::open(path).map_err(sql(path))?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(sql(path))?;
        conn.execute_batch("PRAGMA foreign_keys = ON;")
            .map_err(sql(path))?;
        Ok(Store {
            path: path.to_path_buf(),
            conn,
        })
    }

    /// The database's schema version (0: new).
    pub fn version(&self) -> Result<u32, HistoryError> {
        read_version(&self.conn).map_err(sql(&self.path))
    }

    /// Runs the migrations from the database's version up to `target`,
    /// each in an immediate transaction of its own (the version read
    /// again under the lock).
    pub fn migrate(&mut self, target: u32) -> Result<(), HistoryError> {
        let path = self.path.clone();
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(sql(&path))?;
            let version = read_version(&tx).map_err(sql(&path))?;
            if version > current_version() {
                return Err(HistoryError::Newer {
                    path,
                    found: version,
                    known: current_version(),
                });
            }
            if version >= target {
                return Ok(());
            }
            tx.execute_batch(MIGRATIONS[version as usize])
                .map_err(sql(&path))?;
            tx.execute("UPDATE schema_version SET version = ?1", [version + 1])
                .map_err(sql(&path))?;
            tx.commit().map_err(sql(&path))?;
        }
    }
}

/// The version in `schema_version` (0 without the table).
fn read_version(conn: &Connection) -> rusqlite::Result<u32> {
    let exists: Option<String> = conn
        .query_row(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    match exists {
        None => Ok(0),
        Some(_) => conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0)),
    }
}
