//! Disagreements between solvers and invalid answers: what they are and
//! how one puzzle's records are cross-checked.

use super::Record;
use crate::solvers::Status;

/// What went wrong with one puzzle.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum DiscrepancyKind {
    /// Solvers returned different capped solution counts.
    Disagreement,
    /// The named solver returned a grid that is not a solution.
    InvalidSolution(String),
    /// The named solver's solution counts differ across the symmetry
    /// images of one puzzle (`--images`: [`images::check`]).
    ImageDisagreement(String),
    /// The named solver returned a count above the limit it was asked to
    /// count up to: no answer a solver may give (its record is `invalid`).
    CountAboveLimit {
        /// The solver.
        solver: String,
        /// The limit it was given.
        limit: u64,
    },
}

/// A disagreement between solvers or an invalid solution.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Discrepancy {
    /// Corpus name.
    pub corpus: String,
    /// 1-based line.
    pub line: u64,
    /// The symmetry image (`--images`, 1 to K-1) whose solves it was found
    /// in ([`images::check_line`]); none for the puzzle as the run's table
    /// has it (image 0) and across a solver's images.
    pub image: Option<u32>,
    /// What went wrong.
    pub kind: DiscrepancyKind,
    /// Every solver's capped solution count and status for the puzzle.
    pub counts: Vec<(String, u64, Status)>,
}

impl std::fmt::Display for Discrepancy {
    /// `c9 line 12: solvers disagree: dlx=1 (unique), ...`; found on a
    /// symmetry image, `c9 line 12, symmetry image 2: ...`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}", self.corpus, self.line)?;
        if let Some(image) = self.image {
            write!(f, ", symmetry image {image}")?;
        }
        match &self.kind {
            DiscrepancyKind::Disagreement => write!(f, ": solvers disagree:")?,
            DiscrepancyKind::InvalidSolution(s) => {
                write!(f, ": {s} returned an invalid solution:")?
            }
            DiscrepancyKind::ImageDisagreement(s) => {
                write!(f, ": {s}'s solution counts differ across symmetry images:")?
            }
            DiscrepancyKind::CountAboveLimit { solver, limit } => write!(
                f,
                ": {solver} returned a count above the limit of {limit} it was given:"
            )?,
        }
        for (i, (name, count, status)) in self.counts.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{name}={count} ({status})")?;
        }
        Ok(())
    }
}

/// The cross-check of one puzzle (line `line` of `corpus`, solved with
/// solution limit `limit`): its records, one per solver (`name` gives a
/// record's solver name). Reports a solver that returned an invalid answer
/// (a grid that is not a solution, or a count above `limit`), and a
/// disagreement on the capped solution count among the solvers that
/// finished within budget, took the puzzle and gave a count within the
/// limit. Empty when all is well. `dlxbench merge` checks merged rows with
/// it too.
// `images::check_line` takes the same arguments on purpose: the same check, over images' rows.
pub fn cross_check<'n>(
    corpus: &str,
    line: u64,
    limit: u64,
    records: &[Record],
    name: impl Fn(u16) -> &'n str,
) -> Vec<Discrepancy> {
    let mut agreed: Option<u64> = None;
    let mut disagree = false;
    let mut invalid: Option<&Record> = None;
    for r in records {
        if r.status == Status::Invalid {
            invalid.get_or_insert(r);
        }
        if r.status == Status::Budget || r.status.is_untimed() || r.solutions > limit {
            continue;
        }
        match agreed {
            None => agreed = Some(r.solutions),
            Some(c) if c != r.solutions => disagree = true,
            Some(_) => {}
        }
    }
    if !disagree && invalid.is_none() {
        return Vec::new();
    }
    let counts: Vec<_> = records
        .iter()
        .map(|r| (name(r.solver).to_string(), r.solutions, r.status))
        .collect();
    let mut found = Vec::new();
    if let Some(r) = invalid {
        let solver = name(r.solver).to_string();
        found.push(Discrepancy {
            corpus: corpus.to_string(),
            line,
            image: None,
            kind: match r.solutions > limit {
                true => DiscrepancyKind::CountAboveLimit { solver, limit },
                false => DiscrepancyKind::InvalidSolution(solver),
            },
            counts: counts.clone(),
        });
    }
    if disagree {
        found.push(Discrepancy {
            corpus: corpus.to_string(),
            line,
            image: None,
            kind: DiscrepancyKind::Disagreement,
            counts,
        });
    }
    found
}

/// Sorts discrepancies and keeps one per (corpus, line, image, kind): a warm-up
/// finding is repeated by the measured pass, which lists every solver's
/// count, so that one is kept.
pub(crate) fn sort_discrepancies(discrepancies: &mut Vec<Discrepancy>) {
    discrepancies.sort_by(|a, b| {
        (
            &a.corpus,
            a.line,
            a.image,
            &a.kind,
            std::cmp::Reverse(a.counts.len()),
        )
            .cmp(&(
                &b.corpus,
                b.line,
                b.image,
                &b.kind,
                std::cmp::Reverse(b.counts.len()),
            ))
    });
    discrepancies.dedup_by(|later, first| {
        later.corpus == first.corpus
            && later.line == first.line
            && later.image == first.image
            && later.kind == first.kind
    });
}
