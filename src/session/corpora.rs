//! Which corpora a session runs, the plan it announces before it starts,
//! and the run that only parses them.

// Duplicates (issue #42): the structs here are data (field lists, derives, serde attributes); where
// they match other modules' structs in shape, the fields differ: no logic to share.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::corpus::{self, Corpus, CorpusError};
use crate::datasets::{CATALOGUE, STANDARD_SET};
use crate::harness::{self, Config, HarnessError, Lineup, RunResult, Setup};
use crate::puzzle::Puzzle;
use crate::report;
use crate::shard::Shard;

/// Where the fetched corpora are, relative to the working directory
/// (`dlxbench datasets fetch` puts them there).
pub const DATASETS_DIR: &str = "datasets";

/// Whether `path` is a catalogued corpus of another kind than `P`.
fn of_other_kind<P: Puzzle>(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str());
    CATALOGUE
        .iter()
        .any(|c| Some(c.file) == name && c.puzzle_kind() != P::NAME)
}

/// Whether `path` is a corpus of the standard set ([`STANDARD_SET`]).
fn is_standard(path: &Path) -> bool {
    let name = path.file_stem().and_then(|n| n.to_str());
    STANDARD_SET.iter().any(|s| Some(*s) == name)
}

/// Opens the corpora named by `specs` (files, `-` for standard input;
/// directories give their corpora of the kind), or with no `specs` the
/// defaults: the fetched corpora of the standard set (with `all`, every
/// fetched corpus) of the kind under [`DATASETS_DIR`], else the kind's
/// embedded one; gives each a unique name (`name`, `name-2`, ...).
pub fn open_corpora<P: Puzzle>(specs: &[PathBuf], all: bool) -> Result<Vec<Corpus>, CorpusError> {
    let mut corpora = Vec::new();
    if specs.is_empty() {
        let dir = Path::new(DATASETS_DIR);
        let mut files = if dir.is_dir() {
            corpus::txt_files(dir)?
        } else {
            Vec::new()
        };
        files.retain(|f| !of_other_kind::<P>(f) && (all || is_standard(f)));
        if files.is_empty() {
            let embedded = P::embedded_corpus();
            corpora.push(Corpus::from_static(embedded.name, embedded.text)?);
        }
        for f in files {
            corpora.push(Corpus::open(&f)?);
        }
    } else {
        for spec in specs {
            let found = Corpus::resolve(spec)?;
            // A directory holds corpora of every kind: keep this kind's.
            corpora.extend(
                found
                    .into_iter()
                    .filter(|c| !spec.is_dir() || !c.path().is_some_and(of_other_kind::<P>)),
            );
        }
    }
    let mut seen = std::collections::HashSet::new();
    for c in &mut corpora {
        let base = c.name().to_string();
        let mut name = base.clone();
        let mut n = 2;
        while !seen.insert(name.clone()) {
            name = format!("{base}-{n}");
            n += 1;
        }
        c.set_name(name);
    }
    Ok(corpora)
}

/// What a session will run, announced before it starts
/// ([`super::Notice::Plan`]). Its `Display` is the line `bench` prints:
/// `2 corpora (a, b; about 1,000 lines) x 3 solvers (dlx, heuristic, naive)
/// on all cores`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The corpora's names, in run order.
    pub corpora: Vec<String>,
    /// Lines of all the corpora (newlines counted).
    pub lines: u64,
    /// The solvers' names, in report order.
    pub solvers: Vec<String>,
    /// Worker threads asked for (0: all cores).
    pub threads: usize,
    /// The shard run, if any.
    pub shard: Option<Shard>,
}

impl Plan {
    /// The plan of `lineup` over `corpora` with `config`.
    pub fn new<P: Puzzle>(corpora: &[Corpus], lineup: &Lineup<P>, config: &Config) -> Plan {
        Plan {
            corpora: corpora.iter().map(|c| c.name().to_string()).collect(),
            lines: total_lines(corpora),
            solvers: lineup.names().iter().map(|n| n.to_string()).collect(),
            threads: config.threads,
            shard: config.shard,
        }
    }
}

/// Lines of all of `corpora` (newlines counted).
pub(super) fn total_lines(corpora: &[Corpus]) -> u64 {
    corpora
        .iter()
        .map(|c| corpus::count_newlines(c.bytes()))
        .sum()
}

/// `line` / `2nd line` / `3rd line` / `11th line`: which lines a shard of
/// `count` takes.
fn nth(count: u32) -> String {
    let suffix = match (count % 10, count % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    match count {
        1 => "line".to_string(),
        n => format!("{n}{suffix} line"),
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = &self.corpora;
        let shown = match names.len() {
            0..=4 => names.join(", "),
            n => format!("{}, ... and {} more", names[..3].join(", "), n - 3),
        };
        let threads = match self.threads {
            0 => "all cores".to_string(),
            1 => "1 thread".to_string(),
            n => format!("{n} threads"),
        };
        let shard = self.shard.map_or(String::new(), |s| {
            format!(", shard {s}: every {}", nth(s.count()))
        });
        write!(
            f,
            "{} corp{} ({shown}; about {} lines{shard}) x {} solver{} ({}) on {threads}",
            names.len(),
            if names.len() == 1 { "us" } else { "ora" },
            report::thousands(self.lines),
            self.solvers.len(),
            if self.solvers.len() == 1 { "" } else { "s" },
            self.solvers.join(", "),
        )
    }
}

/// Finds and parses the puzzles of `corpora` with `setup`'s threads and
/// parse options, running no solver and writing nothing: the reader's
/// throughput (`bench --parse-only`, [`Throughput`]).
pub fn parse_only<P: Puzzle>(
    corpora: &[Corpus],
    setup: &Setup<P>,
) -> Result<RunResult, HarnessError> {
    let no_solvers = Lineup::<P> {
        solvers: Vec::new(),
        options: setup.lineup().options,
    };
    let setup = Setup::with_settings(no_solvers, setup.config());
    harness::run(corpora, &setup, None, None)
}

/// The reader's throughput on each corpus of a [`parse_only`] run.
/// `Display`: a line per corpus, `NAME: 1000 puzzles, 0 malformed, 0.1 MB
/// in 0.002 s on 2 thread(s): 40 MB/s wall, 25 MB/s per thread (find lines
/// + parse)`.
#[derive(Debug, Clone, Copy)]
pub struct Throughput<'a>(pub &'a RunResult);

impl fmt::Display for Throughput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.0.corpora {
            let secs = c.wall.as_secs_f64();
            writeln!(
                f,
                "{}: {} puzzles, {} malformed, {:.1} MB in {:.3} s on {} thread(s): {:.0} MB/s wall, {:.0} MB/s per thread (find lines + parse)",
                c.name,
                c.puzzles,
                c.malformed,
                c.bytes as f64 / 1e6,
                secs,
                self.0.threads,
                c.bytes as f64 / 1e6 / secs,
                c.reader_mb_per_s()
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_line_of_a_shard() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111]
            .into_iter()
            .map(nth)
            .collect();
        assert_eq!(
            got,
            [
                "line",
                "2nd line",
                "3rd line",
                "4th line",
                "11th line",
                "12th line",
                "13th line",
                "21st line",
                "22nd line",
                "23rd line",
                "111th line"
            ]
        );
    }

    #[test]
    fn plan_line() {
        let plan = Plan {
            corpora: vec!["a".into(), "b".into(), "c".into(), "d".into(), "e".into()],
            lines: 12_345,
            solvers: vec!["dlx".into()],
            threads: 1,
            shard: Shard::new(2, 3),
        };
        assert_eq!(
            plan.to_string(),
            "5 corpora (a, b, c, ... and 2 more; about 12,345 lines, shard 2/3: every 3rd line) \
             x 1 solver (dlx) on 1 thread"
        );
    }
}
