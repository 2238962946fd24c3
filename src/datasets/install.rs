//! Checksums, presence checks and installing a corpus: write a temporary
//! file beside the destination, verify its SHA-256, then rename it into
//! place.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{io_err, Corpus, DatasetError, Fetched, Presence};
use crate::atomic::AtomicFile;

/// The SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(2 * digest.len());
    for b in digest {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The SHA-256 of the file at `path`, lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, DatasetError> {
    let mut file = fs::File::open(path).map_err(io_err(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf).map_err(io_err(path))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// The path of `corpus` in `dir`.
pub fn path_in(corpus: &Corpus, dir: &Path) -> PathBuf {
    dir.join(corpus.file)
}

/// Checks whether `corpus` is present in `dir` with the right checksum.
pub fn presence(corpus: &Corpus, dir: &Path) -> Result<Presence, DatasetError> {
    let path = path_in(corpus, dir);
    if !path.exists() {
        return Ok(Presence::Missing);
    }
    Ok(if sha256_file(&path)? == corpus.sha256 {
        Presence::Verified
    } else {
        Presence::BadChecksum
    })
}

/// Writes `bytes` to a temporary file beside the destination, verifies the
/// checksum, then renames it into place. A mismatch leaves the destination
/// as it was.
pub fn install_bytes(corpus: &Corpus, bytes: &[u8], dir: &Path) -> Result<Fetched, DatasetError> {
    install_with(corpus, dir, |out, hasher| {
        hasher.update(bytes);
        out.write_all(bytes)
    })
}

/// Copies `corpus` from the mirror directory `from` into `dir`, verifying
/// it; a file already in `dir` with the right checksum is left alone.
pub fn install_from_dir(corpus: &Corpus, from: &Path, dir: &Path) -> Result<Fetched, DatasetError> {
    if presence(corpus, dir)? == Presence::Verified {
        return Ok(Fetched::UpToDate);
    }
    let src = path_in(corpus, from);
    let mut input = fs::File::open(&src).map_err(io_err(&src))?;
    install_with(corpus, dir, |out, hasher| {
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = input.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            hasher.update(&buf[..n]);
            out.write_all(&buf[..n])?;
        }
    })
}

fn install_with(
    corpus: &Corpus,
    dir: &Path,
    write: impl FnOnce(&mut AtomicFile, &mut Sha256) -> io::Result<()>,
) -> Result<Fetched, DatasetError> {
    let dest = path_in(corpus, dir);
    let replaced = match presence(corpus, dir)? {
        Presence::Verified => return Ok(Fetched::UpToDate),
        Presence::BadChecksum => true,
        Presence::Missing => false,
    };
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let mut out = AtomicFile::create(&dest).map_err(io_err(&dest))?;
    let temp = out.temp_path().to_path_buf();
    let mut hasher = Sha256::new();
    write(&mut out, &mut hasher).map_err(io_err(&temp))?;
    out.flush().map_err(io_err(&temp))?;
    let found = hex(&hasher.finalize());
    if found != corpus.sha256 {
        // `out` is dropped: the temporary file goes, `dest` is untouched.
        return Err(DatasetError::ChecksumMismatch {
            path: temp,
            found,
            expected: corpus.sha256.to_string(),
        });
    }
    out.commit().map_err(io_err(&dest))?;
    Ok(Fetched::Installed { replaced })
}
