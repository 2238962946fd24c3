//! Combining the parts' `images.csv` rows.

use std::collections::HashMap;

use super::part::Part;
use super::rows::csv_error;
use super::MergeError;
use crate::harness::images::{self, ImageRow};
use crate::harness::{Config, Discrepancy, RunResult};
use crate::report::schema;
use crate::solvers::Status;

/// The columns of `images.csv` a merge reads, by position.
pub(super) struct ImageColumns {
    corpus: usize,
    line: usize,
    solver: usize,
    image: usize,
    seed: usize,
    status: usize,
    solutions: usize,
    nodes: usize,
    ns: usize,
}

impl ImageColumns {
    /// The positions of the columns in a file whose header is `header`
    /// (none: a column is missing).
    pub(super) fn of(header: &csv::StringRecord) -> Option<ImageColumns> {
        let at = |name: &str| header.iter().position(|h| h == name);
        Some(ImageColumns {
            corpus: at("corpus")?,
            line: at("line")?,
            solver: at("solver")?,
            image: at("image")?,
            seed: at("seed")?,
            status: at("status")?,
            solutions: at("solutions")?,
            nodes: at("nodes")?,
            ns: at("ns")?,
        })
    }
}

/// Reads the parts' `images.csv` into the corpora of `result` (each
/// corpus's rows sorted by line, solver and image, as a run keeps them)
/// and checks every puzzle's image rows as the run does
/// ([`images::check_line`]); returns what the checks found. A line held by
/// two parts is an overlap; a row naming a corpus or solver the run does
/// not have, or an image outside 0 to K-1, is refused.
pub(super) fn merge_images(
    parts: &[Part],
    config: &Config,
    result: &mut RunResult,
) -> Result<Vec<Discrepancy>, MergeError> {
    // Per corpus: its rows, and the part each line came from.
    let mut owners: Vec<HashMap<u64, usize>> = vec![HashMap::new(); result.corpora.len()];
    for c in &mut result.corpora {
        c.images.clear();
    }
    for (i, part) in parts.iter().enumerate() {
        for (c, row) in read_images(part, config, result)? {
            let owner = *owners[c].entry(row.line).or_insert(i);
            if owner != i {
                return Err(MergeError::Overlap {
                    corpus: result.corpora[c].name.clone(),
                    line: row.line,
                    first: parts[owner].dir.clone(),
                    second: part.dir.clone(),
                });
            }
            result.corpora[c].images.push(row);
        }
    }
    let name = |s: u16| config.solvers()[usize::from(s)].as_str();
    let mut found = Vec::new();
    for c in &mut result.corpora {
        c.images
            .sort_unstable_by_key(|r| (r.line, r.solver, r.image));
        for puzzle in c.images.chunk_by(|a, b| a.line == b.line) {
            let line = puzzle[0].line;
            found.extend(images::check_line(
                &c.name,
                line,
                config.limit,
                puzzle,
                name,
            ));
        }
    }
    Ok(found)
}

/// The rows of one part's `images.csv`, each with its corpus's index in
/// `result`.
pub(super) fn read_images(
    part: &Part,
    config: &Config,
    result: &RunResult,
) -> Result<Vec<(usize, ImageRow)>, MergeError> {
    let path = part.dir.join(schema::IMAGES_CSV);
    let mut reader = csv::Reader::from_path(&path).map_err(|e| csv_error(&path, e))?;
    let bad = |what: String| MergeError::Part {
        dir: part.dir.clone(),
        what: format!("{}: {what}", schema::IMAGES_CSV),
    };
    let header = reader.headers().map_err(|e| csv_error(&path, e))?.clone();
    let columns = ImageColumns::of(&header)
        .ok_or_else(|| bad(format!("not the header of the file: {header:?}")))?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(&path, e))?;
        let at = record.position().map_or(0, |p| p.line());
        let row = image_row(&record, &columns, config, result)
            .ok_or_else(|| bad(format!("line {at}: not a row a run of this part writes")))?;
        rows.push(row);
    }
    Ok(rows)
}

/// One row of `images.csv` with its corpus's index; none when a field is
/// not what a run of `config` writes.
pub(super) fn image_row(
    record: &csv::StringRecord,
    columns: &ImageColumns,
    config: &Config,
    result: &RunResult,
) -> Option<(usize, ImageRow)> {
    let field = |i: usize| record.get(i);
    let corpus = result
        .corpora
        .iter()
        .position(|c| Some(c.name.as_str()) == field(columns.corpus))?;
    let solver = config
        .solvers()
        .iter()
        .position(|s| Some(s.as_str()) == field(columns.solver))?;
    let image: u32 = field(columns.image)?.parse().ok()?;
    if image >= config.images {
        return None;
    }
    let nodes = match field(columns.nodes)? {
        "" => None,
        n => Some(n.parse().ok()?),
    };
    Some((
        corpus,
        ImageRow {
            line: field(columns.line)?.parse().ok()?,
            solver: u16::try_from(solver).ok()?,
            image,
            seed: field(columns.seed)?.parse().ok()?,
            status: Status::from_name(field(columns.status)?)?,
            solutions: field(columns.solutions)?.parse().ok()?,
            nodes,
            ns: field(columns.ns)?.parse().ok()?,
        },
    ))
}
