//! `problems.txt`: every problem the run found, one a line, as `bench`
//! prints them (`corpus line N: solvers disagree: ...`), without the cap
//! the terminal has. Written only when there is one: a run without
//! problems has no such file.

use std::path::{Path, PathBuf};

use super::{schema, Report, RunMeta};
use crate::harness::{Config, RunResult};

/// Writes `problems.txt`.
#[derive(Debug, Clone, Copy)]
pub struct ProblemsTxt;

/// The file's text: each discrepancy's message and a line feed, then the
/// failed solves kept per corpus (`CORPUS line 12: py protocol-error
/// (stray): ...`, with what the harness saw); empty for none.
pub fn render(run: &RunResult) -> String {
    let mut out = String::new();
    for d in &run.discrepancies {
        out.push_str(&d.to_string());
        out.push('\n');
    }
    for c in &run.corpora {
        for note in &c.failures {
            out.push_str(&format!("{} {note}\n", c.name));
        }
    }
    out
}

// Repeats the signature of `Report::write`, as every format does (see the trait).
impl Report for ProblemsTxt {
    fn write(
        &self,
        run: &RunResult,
        _config: &Config,
        _meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let text = render(run);
        if text.is_empty() {
            return Ok(Vec::new());
        }
        super::write_one(dir, schema::PROBLEMS_TXT, &text)
    }
}
