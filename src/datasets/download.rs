//! Fetching corpora from their public sources with `curl` (and `unzip`),
//! and normalising the downloaded files.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{install_bytes, io_err, presence, Corpus, DatasetError, Fetched, Layout, Presence};

/// Normalises a downloaded 9x9 corpus into one 81-character line per
/// puzzle (`1-9`, `.` for blank, LF), as the catalogue's checksums expect.
pub fn normalise(text: &[u8], layout: Layout) -> Vec<u8> {
    fn cell(b: u8) -> Option<u8> {
        match b {
            b'1'..=b'9' => Some(b),
            b'0' | b'.' => Some(b'.'),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(text.len());
    let lines = text
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .filter(|l| !l.is_empty() && l[0] != b'#');
    match layout {
        Layout::Lines => {
            for line in lines {
                let token = line
                    .split(|b| b.is_ascii_whitespace() || matches!(b, b',' | b';' | b':' | b'|'))
                    .next()
                    .unwrap_or_default();
                if token.len() == 81 && token.iter().all(|&b| cell(b).is_some()) {
                    out.extend(token.iter().filter_map(|&b| cell(b)));
                    out.push(b'\n');
                }
            }
        }
        Layout::Blocks => {
            let mut rows = 0;
            for line in lines {
                if line.len() == 9 && line.iter().all(|&b| cell(b).is_some()) {
                    out.extend(line.iter().filter_map(|&b| cell(b)));
                    rows += 1;
                    if rows == 9 {
                        out.push(b'\n');
                        rows = 0;
                    }
                }
            }
        }
    }
    out
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

    /// Downloads `corpus` from its public source into `dir`: fetch,
    /// extract, normalise, then verify and install as [`install_bytes`]
    /// does. A file already in `dir` with the right checksum is left alone.
    pub fn download(&mut self, corpus: &Corpus, dir: &Path) -> Result<Fetched, DatasetError> {
        let Some(source) = corpus.download else {
            return Err(DatasetError::NoDownload { name: corpus.name });
        };
        if presence(corpus, dir)? == Presence::Verified {
            return Ok(Fetched::UpToDate);
        }
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
        install_bytes(corpus, &normalise(&raw, source.layout), dir)
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
