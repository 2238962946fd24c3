//! The catalogue of known public Sudoku corpora, and fetching them with
//! SHA-256 verification.
//!
//! The project does not ship copies of third-party corpora. [`CATALOGUE`]
//! names each known corpus with its size, kind, provenance, the SHA-256 of
//! its normalised file and its [`Origin`]: public URLs pinned to a commit, a
//! derivation from another corpus of the catalogue (rebuilt locally by
//! [`derive`]), or none but a mirror. [`install_from_dir`] copies a corpus
//! from a local mirror and [`Downloader::download`] downloads or derives it;
//! both write a temporary file next to the destination, verify its checksum,
//! and only then rename it into place, so a bad download never replaces a
//! good file. `docs/datasets-sources.md` lists every source and what was
//! verified.
//!
//! Facts (counts, solution counts, checksums, provenance) are from the
//! corpus mirror's README and `SHA256SUMS` (`../shared/datasets` in the
//! project's CI), which record the repository and commit each file came from.
//!
//! The generated corpus embedded in the library, [`DEFAULT_CORPUS`], is
//! what `bench` runs when it is given no corpus and none has been fetched.

mod catalogue;
mod derive;
mod download;
mod install;
mod pyrandom;

use std::io;
use std::path::{Path, PathBuf};

pub use catalogue::{by_name, names, CATALOGUE, STANDARD_SET};
pub use derive::derive;
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

/// How a downloaded file is laid out, and so how it is normalised into the
/// catalogue's format: one puzzle per line, LF line ends, no comment lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One 9x9 puzzle per line, possibly followed by other fields; `#` lines and
    /// lines without an 81-character puzzle are skipped, `0` means blank.
    Lines,
    /// Nine lines of nine digits per puzzle (`0` blank), with separator or
    /// title lines between puzzles, as in Norvig's `easy50.txt`.
    Blocks,
    /// One puzzle of this many cells per line in the one-line alphabet
    /// (`1-9`, `A-Z`, `.` or `0` for a blank, written `.`), possibly followed
    /// by other fields; other lines are skipped. For 16x16 and 25x25 grids
    /// (256, 625 cells) and Hanidoku (61).
    Cells(usize),
    /// Whitespace-separated numbers (`0` blank), this many to a puzzle, over
    /// any number of lines; each puzzle is written as one line of numbers
    /// separated by single spaces (commas also separate numbers). For the
    /// numeric format of 36x36 and larger grids.
    Numbers(usize),
    /// Numbers as in [`Layout::Numbers`] (commas also separate them), each
    /// puzzle written as one line in the one-line alphabet (`1-9`, then `A`
    /// for 10 up to `Z` for 35; `.` for `0`, a blank). For 16x16 and 25x25
    /// grids published as comma-separated numbers.
    NumberCells(usize),
}

/// A public download location of a corpus, or of one part of it.
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

/// How a corpus the project made is rebuilt from another corpus of the
/// catalogue (see `docs/datasets-sources.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derivation {
    /// Each puzzle of the source plus one clue that contradicts its unique
    /// solution without repeating a digit in a unit: for each puzzle in
    /// order, its blank cells shuffled, the first with such digits gets one
    /// of them chosen at random. The random choices are Python's `random`
    /// module (Mersenne Twister) seeded with `seed`, reproduced bit for bit.
    NoSolution {
        /// The seed of the random stream.
        seed: u32,
        /// When set, the puzzles are first sampled from the source: this many
        /// (the source's line numbers drawn by Python's `random.sample`).
        sample: Option<usize>,
    },
    /// Recorded one-clue changes: each line of `edits` (after `#` comment
    /// lines) is `LINE CELL DIGIT`, the output puzzle being the source's
    /// line `LINE` (0-based) with cell `CELL` (0-80, row by row) set to
    /// `DIGIT`.
    Edits {
        /// The edit list.
        edits: &'static str,
    },
}

/// Where a corpus can be had from, other than a mirror (every corpus can be
/// copied from a mirror with `datasets fetch --from DIR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Downloaded from public URLs: each part is fetched and normalised, and
    /// the parts in order make the file.
    Public {
        /// The parts (usually one).
        parts: &'static [Download],
        /// Whether the project checked, on a copy of the source repository at
        /// the URL's commit, that the normalised parts have the catalogue's
        /// checksum (`docs/datasets-sources.md` says how and when).
        verified: bool,
    },
    /// Rebuilt from another corpus of the catalogue, which is taken from the
    /// datasets directory when it is there and verified, else downloaded.
    Derived {
        /// The source corpus's name.
        from: &'static str,
        /// The construction.
        how: Derivation,
    },
    /// No public source is known: the corpus can only be copied from a mirror.
    MirrorOnly,
}

impl Origin {
    /// A short label for tables: `download`, `derived:SOURCE` or
    /// `mirror-only`.
    pub fn label(&self) -> String {
        match self {
            Origin::Public { .. } => "download".to_string(),
            Origin::Derived { from, .. } => format!("derived:{from}"),
            Origin::MirrorOnly => "mirror-only".to_string(),
        }
    }
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
    /// Where it can be had from besides a mirror.
    pub origin: Origin,
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
    /// The corpus has no known public source.
    #[error(
        "{name} has no public source: ask the project for a copy of its corpus mirror, \
         then copy it with `dlxbench datasets fetch {name} --from DIR`"
    )]
    NoDownload {
        /// The corpus.
        name: &'static str,
    },
    /// A derived corpus's source could not be read as its derivation needs
    /// (a puzzle that is not a proper 9x9 puzzle, an edit out of range).
    #[error("deriving {name} from {from}: {detail}")]
    Derive {
        /// The derived corpus.
        name: &'static str,
        /// Its source corpus.
        from: &'static str,
        /// What was wrong.
        detail: String,
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
