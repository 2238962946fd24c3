//! Fetching corpora from their public sources with `curl` (and `unzip`),
//! and normalising the downloaded files.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{
    by_name, derive, install_bytes, io_err, path_in, presence, sha256_hex, Corpus, DatasetError,
    Download, Fetched, Layout, Origin, Presence,
};

/// Normalises a downloaded file into the catalogue's format (one puzzle per
/// line, LF line ends, no comment lines), as the checksums expect.
pub fn normalise(text: &[u8], layout: Layout) -> Vec<u8> {
    fn digit(b: u8) -> Option<u8> {
        match b {
            b'1'..=b'9' => Some(b),
            b'0' | b'.' => Some(b'.'),
            _ => None,
        }
    }
    fn symbol(b: u8) -> Option<u8> {
        match b {
            b'A'..=b'Z' => Some(b),
            _ => digit(b),
        }
    }
    /// A line's first field.
    fn first_token(line: &[u8]) -> &[u8] {
        line.split(|b| b.is_ascii_whitespace() || matches!(b, b',' | b';' | b':' | b'|'))
            .next()
            .unwrap_or_default()
    }
    /// The line's first field when it is a puzzle of `width` cells.
    fn puzzle(line: &[u8], width: usize, cell: fn(u8) -> Option<u8>) -> Option<Vec<u8>> {
        let token = first_token(line);
        (token.len() == width && token.iter().all(|&b| cell(b).is_some()))
            .then(|| token.iter().filter_map(|&b| cell(b)).collect())
    }
    let mut out = Vec::with_capacity(text.len());
    let lines = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| !l.is_empty() && l[0] != b'#');
    match layout {
        Layout::Lines | Layout::Cells(_) => {
            let (width, cell): (usize, fn(u8) -> Option<u8>) = match layout {
                Layout::Cells(width) => (width, symbol),
                _ => (81, digit),
            };
            for p in lines.filter_map(|l| puzzle(l, width, cell)) {
                out.extend(p);
                out.push(b'\n');
            }
        }
        Layout::Blocks => {
            let mut rows = 0;
            for row in lines.filter_map(|l| (l.len() == 9).then(|| puzzle(l, 9, digit)).flatten()) {
                out.extend(row);
                rows += 1;
                if rows == 9 {
                    out.push(b'\n');
                    rows = 0;
                }
            }
        }
        Layout::Numbers(cells) | Layout::NumberCells(cells) => {
            let numbers: Vec<&[u8]> = lines
                .flat_map(|l| l.split(|&b| b.is_ascii_whitespace() || b == b','))
                .filter(|t| !t.is_empty())
                .collect();
            for puzzle in numbers.chunks_exact(cells.max(1)) {
                if let Layout::NumberCells(_) = layout {
                    for n in puzzle {
                        out.push(number_symbol(n));
                    }
                } else {
                    out.extend(puzzle.join(&b' '));
                }
                out.push(b'\n');
            }
        }
    }
    out
}

/// The one-line alphabet's symbol for a number (`.` for 0, `1-9`, `A` for
/// 10 up to `Z` for 35), `?` for anything else (which fails the checksum).
fn number_symbol(n: &[u8]) -> u8 {
    const SYMBOLS: &[u8] = b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::str::from_utf8(n)
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .and_then(|n| SYMBOLS.get(n).copied())
        .unwrap_or(b'?')
}

/// Downloads URLs with `curl`, keeping each file for the rest of the run so
/// an archive holding several corpora is fetched once.
#[derive(Debug)]
pub struct Downloader {
    dir: PathBuf,
    /// (URL, downloaded file or why the download failed), in order.
    cache: Vec<(&'static str, Result<PathBuf, String>)>,
}

impl Downloader {
    /// A downloader keeping its files in `dir` (removed on drop).
    pub fn new(dir: &Path) -> Self {
        Downloader {
            dir: dir.to_path_buf(),
            cache: Vec::new(),
        }
    }

    /// The downloaded file of `url`, downloading it on first use (a failure
    /// is remembered too, so an unreachable archive is tried once a run).
    fn get(&mut self, url: &'static str) -> Result<PathBuf, DatasetError> {
        let index = match self.cache.iter().position(|(u, _)| *u == url) {
            Some(i) => i,
            None => {
                let result = self.fetch(url);
                self.cache.push((url, result));
                self.cache.len() - 1
            }
        };
        self.cache[index]
            .1
            .clone()
            .map_err(|detail| DatasetError::Download {
                what: format!("curl {url}"),
                detail,
                url,
            })
    }

    /// Downloads `url` with curl; the error is curl's message.
    fn fetch(&mut self, url: &'static str) -> Result<PathBuf, String> {
        fs::create_dir_all(&self.dir).map_err(|e| format!("{}: {e}", self.dir.display()))?;
        let path = self.dir.join(format!(
            ".download{}-{}.tmp",
            self.cache.len(),
            std::process::id()
        ));
        let output = Command::new("curl")
            .args(["--fail", "--silent", "--show-error", "--location"])
            .args(["--retry", "2", "--connect-timeout", "20", "--output"])
            .arg(&path)
            .arg(url)
            .output()
            .map_err(|e| format!("cannot run curl: {e}"))?;
        if !output.status.success() {
            let _ = fs::remove_file(&path);
            return Err(last_line(&output.stderr));
        }
        Ok(path)
    }

    /// Fetches `corpus` into `dir`: downloads it from its public source, or
    /// derives it from its source corpus (see [`Origin`]), then verifies and
    /// installs it as [`install_bytes`] does. A file already in `dir` with the
    /// right checksum is left alone. A mirror-only corpus is a
    /// [`DatasetError::NoDownload`].
    pub fn download(&mut self, corpus: &Corpus, dir: &Path) -> Result<Fetched, DatasetError> {
        if presence(corpus, dir)? == Presence::Verified {
            return Ok(Fetched::UpToDate);
        }
        let bytes = self.bytes(corpus, dir)?;
        install_bytes(corpus, &bytes, dir)
    }

    /// The normalised bytes of `corpus` (not yet verified): downloaded, or
    /// derived from its source, which is read from `dir` when it is there
    /// with the right checksum and downloaded otherwise.
    fn bytes(&mut self, corpus: &Corpus, dir: &Path) -> Result<Vec<u8>, DatasetError> {
        match corpus.origin {
            Origin::Public { parts, .. } => {
                let mut bytes = Vec::new();
                for part in parts {
                    bytes.extend(self.part(part)?);
                }
                Ok(bytes)
            }
            Origin::Derived { from, .. } => {
                let source = by_name(from).ok_or(DatasetError::Derive {
                    name: corpus.name,
                    from,
                    detail: "not in the catalogue".into(),
                })?;
                let text = if presence(source, dir)? == Presence::Verified {
                    let path = path_in(source, dir);
                    fs::read(&path).map_err(io_err(&path))?
                } else {
                    let text = self.bytes(source, dir)?;
                    let found = sha256_hex(&text);
                    if found != source.sha256 {
                        return Err(DatasetError::ChecksumMismatch {
                            path: path_in(source, dir),
                            found,
                            expected: source.sha256.to_string(),
                        });
                    }
                    text
                };
                derive(corpus, &text)
            }
            Origin::MirrorOnly => Err(DatasetError::NoDownload { name: corpus.name }),
        }
    }

    /// One downloaded part, extracted and normalised.
    fn part(&mut self, source: &Download) -> Result<Vec<u8>, DatasetError> {
        let file = self.get(source.url)?;
        let raw = match source.zip_member {
            None => fs::read(&file).map_err(io_err(&file))?,
            Some(member) => {
                let output = Command::new("unzip")
                    .arg("-p")
                    .arg(&file)
                    .arg(member)
                    .output()
                    .map_err(|e| DatasetError::Download {
                        what: "running unzip".into(),
                        detail: e.to_string(),
                        url: source.url,
                    })?;
                if !output.status.success() {
                    return Err(DatasetError::Download {
                        what: format!("unzip -p {} {member}", file.display()),
                        detail: last_line(&output.stderr),
                        url: source.url,
                    });
                }
                output.stdout
            }
        };
        Ok(normalise(&raw, source.layout))
    }
}

impl Drop for Downloader {
    fn drop(&mut self) {
        for (_, result) in &self.cache {
            if let Ok(path) = result {
                let _ = fs::remove_file(path);
            }
        }
    }
}

/// The last non-empty line of a program's error output (curl repeats its
/// message on every retry).
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no error output")
        .trim()
        .to_string()
}
