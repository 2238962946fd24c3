//! Checksums of a run's result files: `run.json` records the SHA-256 of
//! each data file it lists (`file_sha256`), computed by the writer as it
//! writes `run.json`, and [`ResultDir::open`](super::ResultDir::open)
//! verifies them, so that a file edited, truncated, replaced or deleted
//! after the run is found before anything is read from it.
//!
//! Which files: the data ([`schema::is_checksummed`]): `summary.csv`,
//! `puzzles.csv`, `histograms.json`, `summary.md`, the `.hgrm` files. Not
//! `run.json` itself, and not the pictures and `report.html`, which
//! `dlxbench plot` redraws from the data at any time.
//!
//! A checksum catches accidents and hand edits, not a forger: whoever
//! rewrites a file can rewrite `run.json` too.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::schema;

/// The SHA-256 (lower-case hex) of the file at `path`, read in blocks.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Whether `text` is a SHA-256 as `run.json` records it: 64 lower-case
/// hex digits.
pub fn is_sha256(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The checksums of the files named `files` that are in `dir` and are
/// checksummed ([`schema::is_checksummed`]), by name: what `run.json`
/// records in `file_sha256`. A file not there (not written yet) has none.
pub fn checksums(dir: &Path, files: &[String]) -> std::io::Result<BTreeMap<String, String>> {
    let mut sums = BTreeMap::new();
    for name in files.iter().filter(|f| schema::is_checksummed(f)) {
        let path = dir.join(name);
        match sha256_file(&path) {
            Ok(sum) => {
                sums.insert(name.clone(), sum);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(sums)
}

/// How a result file differs from what `run.json` records of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Its SHA-256 is not the one recorded.
    Edited,
    /// It has a checksum but is not there.
    Missing,
    /// It is there, listed in `files`, but has no checksum (when the
    /// others have).
    Unrecorded,
}

/// A result file that does not match `run.json`'s record of it.
/// `Display`: `puzzles.csv does not match the checksum in run.json: edited
/// or truncated`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modified {
    /// The file's name in the directory.
    pub file: String,
    /// How it differs.
    pub change: Change,
}

impl std::fmt::Display for Modified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (file, run) = (&self.file, schema::RUN_JSON);
        match self.change {
            Change::Edited => write!(
                f,
                "{file} does not match the checksum in {run}: edited or truncated"
            ),
            Change::Missing => write!(
                f,
                "{file} has a checksum in {run} but is missing: deleted or moved"
            ),
            Change::Unrecorded => write!(
                f,
                "{file} has no checksum in {run}, which records the other files': added or \
                 replaced"
            ),
        }
    }
}

/// What the checksums of a directory say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checksums {
    /// Every file with a checksum matches it, and every data file present
    /// has one.
    Verified,
    /// `run.json` records none: written before checksums were (schema
    /// version below [`CHECKSUMS_FROM`](super::CHECKSUMS_FROM)); the files
    /// are read unverified.
    NotRecorded,
    /// These files do not match: accepted, when asked to
    /// ([`Verify::AcceptModified`]) or when the run's writer did not finish
    /// (it may have died between writing a file and `run.json`).
    Modified(Vec<Modified>),
}

/// How [`ResultDir::open_with`](super::ResultDir::open_with) treats a
/// result file that does not match its checksum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verify {
    /// Refuse the directory ([`ResultError::Modified`](super::ResultError::Modified)),
    /// unless its writer did not finish (then [`Checksums::Modified`]).
    #[default]
    Strict,
    /// Read it anyway: the differences are in [`Checksums::Modified`] for
    /// the caller to tell.
    AcceptModified,
}

/// Compares the files of `dir` with the checksums `recorded` (`file_sha256`
/// of its `run.json`) and the files it lists (`files`): the differences,
/// in name order.
pub fn verify(
    dir: &Path,
    recorded: &BTreeMap<String, String>,
    files: &[String],
) -> std::io::Result<Vec<Modified>> {
    let mut modified = Vec::new();
    for (name, sum) in recorded {
        match sha256_file(&dir.join(name)) {
            Ok(actual) if actual == *sum => {}
            Ok(_) => modified.push(Modified {
                file: name.clone(),
                change: Change::Edited,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => modified.push(Modified {
                file: name.clone(),
                change: Change::Missing,
            }),
            Err(e) => return Err(e),
        }
    }
    for name in files
        .iter()
        .filter(|f| schema::is_checksummed(f) && !recorded.contains_key(*f))
    {
        if dir.join(name).is_file() {
            modified.push(Modified {
                file: name.clone(),
                change: Change::Unrecorded,
            });
        }
    }
    modified.sort_by(|a, b| a.file.cmp(&b.file));
    modified.dedup();
    Ok(modified)
}
