//! `summary.md`: the terminal table as Markdown.

use std::path::{Path, PathBuf};

use super::table::{notes, tables};
use super::{schema, Report, RunMeta};
use crate::harness::{Config, RunResult};

/// Writes `summary.md`.
#[derive(Debug, Clone, Copy)]
pub struct Markdown;

/// The Markdown text.
pub fn render(run: &RunResult, config: &Config, meta: &RunMeta) -> String {
    let mut out = String::from("# dlxbench results\n\n");
    for t in tables(run, config, meta) {
        out.push_str(&format!("## {}\n\n", t.title));
        out.push_str(&format!("| {} |\n", t.headers.join(" | ")));
        let align: Vec<&str> = (0..t.headers.len())
            .map(|i| if i == 0 { "---" } else { "---:" })
            .collect();
        out.push_str(&format!("|{}|\n", align.join("|")));
        for row in &t.rows {
            out.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        out.push('\n');
    }
    for n in notes(run, config, meta) {
        out.push_str(&list_item(&n));
    }
    if !run.discrepancies.is_empty() {
        out.push_str("\n## Problems\n\n");
        for p in &run.discrepancies {
            out.push_str(&format!("- {p}\n"));
        }
    }
    out
}

/// A note as a Markdown list item: a note indented under the one before
/// (a solver's line under its corpus's, as the terminal shows them) is
/// nested in it.
fn list_item(note: &str) -> String {
    match note.strip_prefix("  ") {
        Some(sub) => format!("  - {}\n", sub.trim_start()),
        None => format!("- {note}\n"),
    }
}

// Repeats the signature of `Report::write`, as every format does (see the trait).
impl Report for Markdown {
    fn write(
        &self,
        run: &RunResult,
        config: &Config,
        meta: &RunMeta,
        dir: &Path,
    ) -> std::io::Result<Vec<PathBuf>> {
        let text = render(run, config, meta);
        super::write_one(dir, schema::SUMMARY_MD, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::list_item;

    #[test]
    fn indented_notes_nest_under_the_note_before() {
        let md: String = ["Symmetry images on c9: ...", "  dlx: 300 puzzles", "Clock."]
            .iter()
            .map(|n| list_item(n))
            .collect();
        assert_eq!(
            md,
            "- Symmetry images on c9: ...\n  - dlx: 300 puzzles\n- Clock.\n"
        );
    }
}
