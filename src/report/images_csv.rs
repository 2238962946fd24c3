//! `images.csv` (with `bench --images K`): one row per puzzle x solver x
//! symmetry image ([`crate::harness::images`]), the corpora in run order,
//! each sorted by line, solver and image. Written only by a run with
//! images; rewritten with every corpus's end, as the other files are.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{schema, Report, RunMeta};
use crate::harness::{Config, RunResult};

/// Column names, in order: [`schema::images::COLUMNS`].
pub use super::schema::images::COLUMNS;

/// Writes `images.csv`.
#[derive(Debug, Clone, Copy)]
pub struct ImagesCsv;

/// A CSV field, quoted when it needs to be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The file's text: the header, then every corpus's image rows.
pub fn render(run: &RunResult, config: &Config) -> String {
    let mut out = COLUMNS.join(",");
    out.push('\n');
    for c in &run.corpora {
        let corpus = field(&c.name);
        for r in &c.images {
            let solver = config
                .solvers()
                .get(usize::from(r.solver))
                .map_or(String::new(), |s| field(s));
            let nodes = r.nodes.map_or(String::new(), |n| n.to_string());
            let _ = writeln!(
                out,
                "{corpus},{},{solver},{},{},{},{},{nodes},{}",
                r.line, r.image, r.seed, r.status, r.solutions, r.ns
            );
        }
    }
    out
}

impl Report for ImagesCsv {
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        _meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        if config.permute.is_none() || config.images <= 1 {
            return Ok(Vec::new());
        }
        let text = render(run, config);
        super::write_one(dir, schema::IMAGES_CSV, &text)
    }
}
