//! Result files of a benchmark run, one module per format behind one trait
//! ([`Report`]), and the terminal table.
//!
//! Every file is written atomically: to a temporary name in the output
//! directory, then renamed ([`AtomicFile`]).
//!
//! # Files and columns
//! * `summary.csv` ([`summary_csv`]): one row per corpus x solver. Columns:
//!   `corpus`, `solver`; counts `puzzles`, `solved` (at least one solution
//!   within budget), `unsolvable`, `multiple` (two or more solutions, part of
//!   `solved`), `budget` (over the node budget), `malformed` (lines of the
//!   corpus that did not parse), `invalid` (returned grids that are not
//!   solutions); latencies in nanoseconds over the puzzles within budget:
//!   `mean_ns`, `stddev_ns` (exact), `p50_ns`, `p90_ns`, `p99_ns`, `p999_ns`,
//!   `max_ns` (HdrHistogram, 3 significant figures); `total_nodes`,
//!   `guesses_per_puzzle`, `no_guess_pct` (puzzles solved without a branch
//!   point, percent); `puzzles_per_s` (puzzles x threads / total solve time,
//!   over-budget solves included: the throughput of the pool spending all
//!   its time in this solver, parsing and validation excluded);
//!   `speed_vs_reference` (`puzzles_per_s` over the reference solver's);
//!   `threads`; `mode`; `budget_nodes` (empty: unlimited); `reference`;
//!   `total_updates` (Dancing Links link updates; empty for solvers that
//!   have none).
//! * `puzzles.csv` ([`puzzles_csv`]): one row per puzzle x solver: `corpus`,
//!   `line` (1-based), `solver`, `ns` (solve time; minimum over passes),
//!   `solutions` (capped by the mode's limit), `nodes`, `guesses`, `status`
//!   (`unique`, `multiple`, `solved` in mode `first`, `none`, `budget`,
//!   `invalid`), `updates` (link updates; empty for solvers without them).
//!   Streamed while the run goes; rows are in corpus order, or the seeded
//!   shuffled order with `--shuffle`.
//! * `<corpus>.<solver>.hgrm` ([`hgrm`]): HdrHistogram percentile
//!   distribution, values in microseconds.
//! * `histograms.json` ([`histograms_json`]): every histogram (nanoseconds)
//!   as HdrHistogram V2+DEFLATE, base64, for exact merging later.
//! * `summary.md` ([`markdown`]): the terminal table in Markdown.
//! * `run.json` ([`run_json`]): what was run, where and when.

pub mod hgrm;
pub mod histograms_json;
pub mod markdown;
pub mod puzzles_csv;
pub mod run_json;
pub mod schema;
pub mod summary_csv;
pub mod table;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::harness::{Config, RunResult};

/// What the reports need besides the results.
#[derive(Debug, Clone)]
pub struct RunMeta {
    /// The command line, argument by argument.
    pub command_line: Vec<String>,
    /// The solver speeds are quoted against (a name in the config).
    pub reference: &'static str,
    /// SHA-256 (hex) of each corpus, in run order.
    pub sha256: Vec<String>,
    /// The output directory.
    pub out_dir: PathBuf,
    /// Whether `puzzles.csv` was written.
    pub per_puzzle: bool,
}

/// One output format.
pub trait Report {
    /// Writes the format's file(s) into `dir`; returns the paths written.
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>>;
}

/// Every file format except the streamed `puzzles.csv`.
pub fn all_reports() -> Vec<Box<dyn Report>> {
    vec![
        Box::new(summary_csv::SummaryCsv),
        Box::new(hgrm::Hgrm),
        Box::new(histograms_json::HistogramsJson),
        Box::new(markdown::Markdown),
        Box::new(run_json::RunJson),
    ]
}

/// Writes every report into `dir`; returns the paths written.
pub fn write_all(
    run: &RunResult,
    config: &Config,
    meta: &RunMeta,
    dir: &Path,
) -> std::io::Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    for report in all_reports() {
        paths.extend(report.write(run, config, meta, dir)?);
    }
    Ok(paths)
}

/// A file written under a temporary name and renamed into place by
/// [`AtomicFile::commit`]. Dropped without commit, it removes the
/// temporary.
#[derive(Debug)]
pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    writer: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates `.<name>.tmp-<pid>` next to `dest`.
    pub fn create(dest: &Path) -> std::io::Result<Self> {
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dest.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let file = File::create(&tmp)?;
        Ok(AtomicFile {
            tmp,
            dest: dest.to_path_buf(),
            writer: Some(BufWriter::with_capacity(1 << 18, file)),
        })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.dest
    }

    /// Flushes, syncs and renames into place.
    pub fn commit(mut self) -> std::io::Result<PathBuf> {
        let writer = self.writer.take().expect("not committed yet");
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.dest)?;
        Ok(self.dest.clone())
    }

    /// Writes `bytes` to `dest` atomically.
    pub fn write(dest: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
        let mut f = AtomicFile::create(dest)?;
        f.write_all(bytes)?;
        f.commit()
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.as_mut().expect("open").write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.writer.as_mut().expect("open").write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.as_mut().expect("open").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A directory filled under a temporary name next to its destination and
/// swapped into place by [`AtomicDir::commit`], so that readers never see a
/// half-written directory. Dropped without commit, it removes the
/// temporary directory and everything in it.
#[derive(Debug)]
pub struct AtomicDir {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl AtomicDir {
    /// Creates `.<name>.tmp-<pid>` next to `dest` (creating `dest`'s parent
    /// if needed; a stale temporary of the same name is removed first).
    pub fn create(dest: &Path) -> std::io::Result<Self> {
        let tmp = Self::sibling(dest, "tmp")?;
        if tmp.exists() {
            std::fs::remove_dir_all(&tmp)?;
        }
        std::fs::create_dir_all(&tmp)?;
        Ok(AtomicDir {
            tmp,
            dest: dest.to_path_buf(),
            committed: false,
        })
    }

    /// `.<name>.<what>-<pid>` next to `dest`.
    fn sibling(dest: &Path, what: &str) -> std::io::Result<PathBuf> {
        let name = dest.file_name().ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{}: not a directory name", dest.display()),
            )
        })?;
        Ok(dest.with_file_name(format!(
            ".{}.{what}-{}",
            name.to_string_lossy(),
            std::process::id()
        )))
    }

    /// The temporary directory, to write into.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// The final path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Moves the temporary directory to the destination. An existing
    /// destination is first renamed away, then deleted once the new
    /// directory is in place (and renamed back if that fails).
    pub fn commit(mut self) -> std::io::Result<PathBuf> {
        if self.dest.exists() {
            let old = Self::sibling(&self.dest, "old")?;
            if old.exists() {
                std::fs::remove_dir_all(&old)?;
            }
            std::fs::rename(&self.dest, &old)?;
            if let Err(e) = std::fs::rename(&self.tmp, &self.dest) {
                let _ = std::fs::rename(&old, &self.dest);
                return Err(e);
            }
            self.committed = true;
            std::fs::remove_dir_all(&old)?;
        } else {
            std::fs::rename(&self.tmp, &self.dest)?;
            self.committed = true;
        }
        Ok(self.dest.clone())
    }
}

impl Drop for AtomicDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.tmp);
        }
    }
}

/// A name safe in a file name: letters, digits, `-`, `_`, `.`, `+` kept,
/// anything else becomes `_`.
pub fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A duration in nanoseconds for people: `850 ns`, `12.3 µs`, `4.56 ms`,
/// `1.23 s`, three significant figures.
pub fn human_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    if unit == "ns" || v >= 100.0 {
        format!("{v:.0} {unit}")
    } else if v >= 10.0 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.2} {unit}")
    }
}

/// A rate for people: `1,234,567` or `12.3`.
pub fn human_rate(r: f64) -> String {
    if r >= 100.0 {
        thousands(r.round() as u64)
    } else {
        format!("{r:.1}")
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Index of the reference solver in the config (the first if absent).
pub(crate) fn reference_index(config: &Config, meta: &RunMeta) -> usize {
    config
        .solvers
        .iter()
        .position(|s| s.name == meta.reference)
        .unwrap_or(0)
}

/// Smallest median latency over every corpus x solver with timed solves.
pub fn fastest_median_ns(run: &RunResult) -> Option<u64> {
    run.corpora
        .iter()
        .flat_map(|c| &c.solvers)
        .filter(|s| s.timed() > 0)
        .map(|s| s.quantile_ns(0.5))
        .min()
}

/// True when one clock-read pair costs more than 2% of the fastest median.
pub fn clock_overhead_too_high(run: &RunResult) -> bool {
    fastest_median_ns(run).is_some_and(|m| run.clock_overhead_ns > 0.02 * m as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_formats() {
        assert_eq!(human_ns(850.0), "850 ns");
        assert_eq!(human_ns(12_345.0), "12.3 µs");
        assert_eq!(human_ns(4_560_000.0), "4.56 ms");
        assert_eq!(human_ns(123_000_000_000.0), "123 s");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(human_rate(12.34), "12.3");
        assert_eq!(file_safe("a b/c.txt"), "a_b_c.txt");
    }

    #[test]
    fn atomic_file_appears_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("x.txt");
        let mut f = AtomicFile::create(&dest).unwrap();
        f.write_all(b"hello").unwrap();
        assert!(!dest.exists());
        f.commit().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        let g = AtomicFile::create(&dir.path().join("y.txt")).unwrap();
        drop(g);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "temp removed"
        );
    }

    #[test]
    fn atomic_dir_replaces_the_old_one_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("results").join("base");
        let names = |p: &Path| {
            let mut v: Vec<String> = std::fs::read_dir(p)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        let a = AtomicDir::create(&dest).unwrap();
        std::fs::write(a.path().join("one.txt"), "1").unwrap();
        assert!(!dest.exists());
        a.commit().unwrap();
        assert_eq!(names(&dest), ["one.txt"]);

        // Dropped without commit: the old directory stays, the temporary goes.
        let b = AtomicDir::create(&dest).unwrap();
        std::fs::write(b.path().join("two.txt"), "2").unwrap();
        drop(b);
        assert_eq!(names(&dest), ["one.txt"]);
        assert_eq!(names(dest.parent().unwrap()), ["base"]);

        // Committed: replaces the old one entirely.
        let c = AtomicDir::create(&dest).unwrap();
        std::fs::write(c.path().join("two.txt"), "2").unwrap();
        c.commit().unwrap();
        assert_eq!(names(&dest), ["two.txt"]);
        assert_eq!(names(dest.parent().unwrap()), ["base"]);
    }
}
