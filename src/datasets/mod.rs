//! The catalogue of known public Sudoku corpora, and fetching them with
//! SHA-256 verification.
//!
//! The project does not ship copies of third-party corpora. [`CATALOGUE`]
//! names each known corpus with its size, kind, provenance, the SHA-256 of
//! its normalised file and, where one exists, a public download location.
//! [`install_from_dir`] copies a corpus from a local mirror and
//! [`Downloader::download`] fetches it from its public source; both write a temporary
//! file next to the destination, verify its checksum, and only then rename
//! it into place, so a bad download never replaces a good file.
//!
//! Facts (counts, solution counts, checksums, provenance) are from the
//! corpus mirror's README and `SHA256SUMS` (`../shared/datasets` in the
//! project's CI), which record the repository and commit each file came from.
//!
//! The generated corpus embedded in the library, [`DEFAULT_CORPUS`], is
//! what `bench` runs when it is given no corpus and none has been fetched.

mod catalogue;
mod download;
mod install;

use std::io;
use std::path::{Path, PathBuf};

pub use catalogue::{by_name, names, CATALOGUE, STANDARD_SET};
pub use download::{normalise, Downloader};
pub use install::{install_bytes, install_from_dir, path_in, presence, sha256_file, sha256_hex};

/// Name of the embedded default corpus (its file stem in
/// `datasets/generated/`).
pub const DEFAULT_CORPUS_NAME: &str = "gen_9x9_1000";

/// The embedded default corpus: 1,000 generated 9x9 puzzles with unique
/// solutions, one per line, after one `#` comment line naming the command
/// that made it.
pub const DEFAULT_CORPUS: &[u8] = include_bytes!("../../datasets/generated/gen_9x9_1000.txt");

/// What a corpus is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Proper puzzles (one solution each) that are easy or medium.
    Easy,
    /// Proper puzzles collected as hard ones.
    Hard,
    /// Proper puzzles with 17 clues, the fewest a proper 9x9 puzzle can have.
    AllSeventeenClue,
    /// Proper puzzles whose difficulty is not documented.
    Unique,
    /// Puzzles with two or more solutions.
    MultiSolution,
    /// Puzzles with no solution.
    Unsolvable,
    /// A mix of puzzles with no, one and several solutions.
    Mixed,
    /// Solution counts not checked (very large or non-standard grids).
    Unchecked,
}

impl Kind {
    /// Short name for tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Easy => "easy",
            Kind::Hard => "hard",
            Kind::AllSeventeenClue => "17-clue",
            Kind::Unique => "unique",
            Kind::MultiSolution => "multi-solution",
            Kind::Unsolvable => "unsolvable",
            Kind::Mixed => "mixed",
            Kind::Unchecked => "unchecked",
        }
    }
}

/// How the puzzles of a corpus split by solution count (as counted with a
/// limit of 2 by an independent solver for the mirror's README).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolutionCounts {
    /// Puzzles with no solution.
    pub none: usize,
    /// Puzzles with exactly one solution.
    pub unique: usize,
    /// Puzzles with two or more.
    pub multiple: usize,
    /// Puzzles the counter left undecided at its node limit.
    pub undecided: usize,
}

/// How a downloaded file is laid out, and so how it is normalised into one
/// 81-character line per puzzle (`1-9`, `.` for a blank, LF line ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One puzzle per line, possibly followed by other fields; `#` lines and
    /// lines without an 81-character puzzle are skipped, `0` means blank.
    Lines,
    /// Nine lines of nine digits per puzzle (`0` blank), with separator or
    /// title lines between puzzles, as in Norvig's `easy50.txt`.
    Blocks,
}

/// A public download location of a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Download {
    /// The URL.
    pub url: &'static str,
    /// The member to extract when the URL is a zip archive (extracted with
    /// the `unzip` program).
    pub zip_member: Option<&'static str>,
    /// The file's layout.
    pub layout: Layout,
}

/// A known corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corpus {
    /// Name: the file stem.
    pub name: &'static str,
    /// File name in the datasets directory.
    pub file: &'static str,
    /// Grid size, e.g. `9x9`, or `hanidoku-61`.
    pub grid: &'static str,
    /// Number of puzzles (lines).
    pub puzzles: usize,
    /// What it is.
    pub kind: Kind,
    /// Solution counts, where they were checked.
    pub solutions: Option<SolutionCounts>,
    /// Original source and author, and where the mirrored copy came from.
    pub source: &'static str,
    /// SHA-256 of the normalised file, lower-case hex.
    pub sha256: &'static str,
    /// Where users can download it, if anywhere.
    pub download: Option<Download>,
}

impl Corpus {
    /// The puzzle kind's name (`--kind`): the part of [`Corpus::grid`]
    /// before a `-` when there is one (`hanidoku-61`), else `sudoku` (a
    /// Sudoku grid size such as `9x9`).
    pub fn puzzle_kind(&self) -> &'static str {
        match self.grid.split_once('-') {
            Some((kind, _)) => kind,
            None => "sudoku",
        }
    }
}

/// Errors fetching or checking a corpus.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// Reading or writing a file failed. The message includes the
    /// operating system's error, which is therefore not also the error's
    /// source (a chain printed in full would repeat it).
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
    /// The file does not have the catalogue's checksum.
    #[error(
        "{path}: SHA-256 is {found}, expected {expected}; the file was not installed \
         (a changed or corrupt copy)"
    )]
    ChecksumMismatch {
        /// The rejected file.
        path: PathBuf,
        /// Its checksum.
        found: String,
        /// The catalogue's checksum.
        expected: String,
    },
    /// The corpus has no known public download location.
    #[error(
        "{name} has no public download location; copy it from a mirror with \
         `dlxbench datasets fetch {name} --from DIR`"
    )]
    NoDownload {
        /// The corpus.
        name: &'static str,
    },
    /// An external program (`curl`, `unzip`) could not run or failed.
    #[error(
        "{what} failed: {detail}; check the internet connection (and that curl and unzip \
         are installed), or copy the corpus from a mirror with `--from DIR`"
    )]
    Download {
        /// What was run.
        what: String,
        /// Its error output or status.
        detail: String,
        /// The URL.
        url: &'static str,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DatasetError + '_ {
    move |error| DatasetError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Whether a corpus is present in a datasets directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// No file.
    Missing,
    /// The file is there and its checksum matches.
    Verified,
    /// The file is there but its checksum does not match.
    BadChecksum,
}

/// What fetching one corpus did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetched {
    /// The file was installed (`replaced`: over a file with a bad checksum).
    Installed {
        /// An existing file with the wrong checksum was replaced.
        replaced: bool,
    },
    /// The file was already present with the right checksum.
    UpToDate,
}

#[cfg(test)]
mod tests;
