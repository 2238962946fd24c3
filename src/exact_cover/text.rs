//! Text formats for exact-cover problems.
//!
//! Two formats are accepted; [`Problem::parse`] tells them apart by the first
//! line that is not blank and not a comment. A comment is `#` to the end of
//! the line, or a whole line whose first character other than blanks is `|`
//! (the comment lines of Knuth's DLX format, so that his files read as they
//! are). A UTF-8 byte-order mark at the start and `\r\n` line ends are fine.
//!
//! **Dense**: one row per line, written with `0` and `1` (spaces between
//! them are ignored). Every row has the same length. A line
//! `secondary: K` before the first row makes the last `K` columns secondary.
//!
//! ```text
//! # Knuth's 6x7 example: the only cover is rows 1, 4 and 5.
//! 0010110
//! 1001001
//! 0110010
//! 1001000
//! 0100001
//! 0001101
//! ```
//!
//! **Named** (Knuth's DLX format, the input of his DLX1 and SSXC): the first
//! line lists the column names, separated by spaces, with a `|` between the
//! primary names and the secondary ones; each further line is a row listing
//! the names it covers. A file in that format reads as it is, `|` comment
//! lines included; this reader is laxer than Knuth's (names of any length,
//! `#` comments, rows of secondary columns only kept rather than dropped).
//!
//! ```text
//! # 2 queens on a 2x2 board have no solution; rN/cN primary, diagonals secondary
//! r0 r1 c0 c1 | a0 a1 a2 b0 b1 b2
//! r0 c0 a0 b1
//! r0 c1 a1 b2
//! r1 c0 a1 b0
//! r1 c1 a2 b1
//! ```

use std::collections::HashMap;

use super::{Problem, ProblemError};

/// A problem read from text, with the names of its columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedProblem {
    /// The matrix.
    pub problem: Problem,
    /// One name per column: the given names, or `1`, `2`, ... for dense input.
    pub column_names: Vec<String>,
    /// For each row, the 1-based line of the text it came from.
    pub row_lines: Vec<usize>,
}

/// An error in exact-cover text, with the 1-based line it was found on.
///
/// Displayed as `line N: what was wrong`, or just the message when the
/// text as a whole is at fault (no rows at all).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *.line > 0 { format!("line {}: ", .line) } else { String::new() })]
pub struct TextError {
    /// 1-based line number (0 when the text as a whole is at fault).
    pub line: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> TextError {
    TextError {
        line,
        message: message.into(),
    }
}

/// Lines without comments, numbered from 1, blank ones dropped: `#` to the
/// end of a line, and whole lines that start with `|` (Knuth's comments).
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.split('#').next().unwrap_or("").trim();
        (!line.is_empty() && !line.starts_with('|')).then_some((i + 1, line))
    })
}

pub(super) fn parse(text: &str) -> Result<NamedProblem, TextError> {
    // A byte-order mark at the start, as some editors write (`\r\n` line
    // ends are taken care of by `lines`).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = content_lines(text)
        .next()
        .ok_or_else(|| err(0, "no matrix: the input has no rows"))?;
    let dense = first.1.starts_with("secondary:")
        || first
            .1
            .chars()
            .all(|ch| ch == '0' || ch == '1' || ch == ' ' || ch == '\t');
    if dense {
        parse_dense(text)
    } else {
        parse_named(text)
    }
}

fn row_error(line: usize, e: ProblemError) -> TextError {
    err(line, e.to_string())
}

fn parse_dense(text: &str) -> Result<NamedProblem, TextError> {
    let mut secondary = 0usize;
    let mut width: Option<usize> = None;
    let mut rows: Vec<(usize, Vec<usize>)> = Vec::new();
    for (line_no, line) in content_lines(text) {
        if let Some(rest) = line.strip_prefix("secondary:") {
            if width.is_some() {
                return Err(err(line_no, "`secondary:` must come before the first row"));
            }
            secondary = rest.trim().parse().map_err(|_| {
                err(
                    line_no,
                    format!("expected `secondary: K` with a whole number K, found `{line}`"),
                )
            })?;
            continue;
        }
        let mut columns = Vec::new();
        let mut len = 0;
        for (col, ch) in line.chars().filter(|ch| !ch.is_whitespace()).enumerate() {
            match ch {
                '0' => {}
                '1' => columns.push(col),
                other => {
                    return Err(err(
                        line_no,
                        format!("expected `0` or `1` in a dense row, found `{other}`"),
                    ))
                }
            }
            len = col + 1;
        }
        match width {
            None => width = Some(len),
            Some(w) if w != len => {
                return Err(err(
                    line_no,
                    format!("row has {len} columns, but the first row has {w}"),
                ))
            }
            _ => {}
        }
        rows.push((line_no, columns));
    }
    let width = width.ok_or_else(|| err(0, "no matrix: the input has no rows"))?;
    if secondary > width {
        return Err(err(
            0,
            format!("`secondary: {secondary}` but the rows have only {width} columns"),
        ));
    }
    let mut problem = Problem::new(width - secondary, secondary);
    let mut row_lines = Vec::with_capacity(rows.len());
    for (line_no, columns) in rows {
        problem
            .add_row(&columns)
            .map_err(|e| row_error(line_no, e))?;
        row_lines.push(line_no);
    }
    Ok(NamedProblem {
        problem,
        column_names: (1..=width).map(|c| c.to_string()).collect(),
        row_lines,
    })
}

fn parse_named(text: &str) -> Result<NamedProblem, TextError> {
    let mut lines = content_lines(text);
    let (header_line, header) = lines
        .next()
        .ok_or_else(|| err(0, "no matrix: the input has no rows"))?;
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut primary = None;
    for token in header.split_whitespace() {
        if token == "|" {
            if primary.is_some() {
                return Err(err(header_line, "more than one `|` in the column names"));
            }
            primary = Some(names.len());
            continue;
        }
        if index.insert(token, names.len()).is_some() {
            return Err(err(header_line, format!("column `{token}` is named twice")));
        }
        names.push(token.to_string());
    }
    let primary = primary.unwrap_or(names.len());
    if primary == 0 {
        return Err(err(header_line, "there are no primary columns before `|`"));
    }
    let mut problem = Problem::new(primary, names.len() - primary);
    let mut row_lines = Vec::new();
    let mut columns = Vec::new();
    for (line_no, line) in lines {
        columns.clear();
        for token in line.split_whitespace() {
            let &c = index.get(token).ok_or_else(|| {
                err(
                    line_no,
                    format!("`{token}` is not one of the column names on line {header_line}"),
                )
            })?;
            columns.push(c);
        }
        problem
            .add_row(&columns)
            .map_err(|e| row_error(line_no, e))?;
        row_lines.push(line_no);
    }
    if problem.rows() == 0 {
        return Err(err(0, "no matrix: the input names columns but has no rows"));
    }
    Ok(NamedProblem {
        problem,
        column_names: names,
        row_lines,
    })
}
