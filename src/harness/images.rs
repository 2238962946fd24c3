//! Robustness across equivalent puzzles (`bench --images K`): each puzzle
//! solved as K symmetry images, and per solver the spread of its nodes and
//! times across the images of one puzzle.
//!
//! A symmetry image (digits relabelled, bands, stacks, rows and columns
//! within them permuted, transposed: [`crate::puzzle::Puzzle::symmetry_image`])
//! is the same puzzle presented differently: it has as many solutions, and
//! a solver that does not depend on the presentation searches a tree of
//! the same shape. A solver tuned to a corpus's presentation (row order,
//! digit labels) searches very different trees on the images of one
//! puzzle.
//!
//! Image 0 is the image `--permute SEED` makes (the seed itself,
//! [`image_seed`]), so the run's table, `puzzles.csv` and histograms are
//! those of `--permute SEED`; images 1 to K-1 use seeds derived from it,
//! and are solved in the same chunk, block by block, after image 0. Every
//! image's solve of every puzzle is an [`ImageRow`] (`images.csv`).
//!
//! Per puzzle and solver ([`Spread::of`]), over the K images, when all K
//! were solved within budget (a solution found, or none: status `unique`,
//! `multiple`, `solved` or `none`): the node ratio `max / min` (1 when
//! both are 0; none when the solver reports no nodes or the least is 0
//! and the most is not) and the time's coefficient of variation, the
//! population standard deviation of the K times over their mean. Per
//! solver ([`SolverSpread::of`]): the median of each over the puzzles
//! (the mean of the two middle values for an even count), and the puzzles
//! with the widest node spread.
//!
//! The solution counts of the images must agree ([`check`]): a solver
//! whose count differs across the images of one puzzle (among the images
//! solved within budget with a valid answer) is a problem, reported like a
//! disagreement between solvers.

use super::{cross_check, Discrepancy, DiscrepancyKind, Record};
use crate::rng::SplitMix;
use crate::solvers::Status;

/// Puzzles with the widest node spread that a report lists per solver.
pub const WIDEST: usize = 5;

/// The symmetry-image seed of image `image` of a run permuted with
/// `seed`: the seed itself for image 0 (the image `--permute SEED`
/// makes), then a seed drawn from it per image.
pub fn image_seed(seed: u64, image: u32) -> u64 {
    match image {
        0 => seed,
        i => SplitMix::for_item(seed ^ 0x1AA6_E5ED_0000_0000, u64::from(i)).next_u64(),
    }
}

/// One solve of one image of one puzzle: a row of `images.csv`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageRow {
    /// 1-based line of the puzzle in its corpus.
    pub line: u64,
    /// The solver's index in the run.
    pub solver: u16,
    /// The image (0 to K-1).
    pub image: u32,
    /// The image's seed ([`image_seed`]).
    pub seed: u64,
    /// Its status.
    pub status: Status,
    /// Solutions found (capped by the limit).
    pub solutions: u64,
    /// Search nodes, for solvers that report them.
    pub nodes: Option<u64>,
    /// Solve time, ns (the minimum over passes).
    pub ns: u64,
}

impl ImageRow {
    /// Whether the image was solved within budget with a valid answer (a
    /// solution found, or none): its nodes and time are the whole search's.
    pub fn finished(&self) -> bool {
        matches!(
            self.status,
            Status::Solved | Status::Unique | Status::Multiple | Status::NoSolution
        )
    }
}

/// The spread of one solver on one puzzle across its images.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// The puzzle's line.
    pub line: u64,
    /// The fewest and most nodes over the images (none: no nodes reported).
    pub nodes: Option<(u64, u64)>,
    /// Most nodes over fewest ([`node_ratio`]).
    pub node_ratio: Option<f64>,
    /// The times' coefficient of variation ([`coefficient_of_variation`]).
    pub time_cv: f64,
}

/// `max / min` nodes: 1 when both are 0, none when only `min` is.
pub fn node_ratio(min: u64, max: u64) -> Option<f64> {
    match (min, max) {
        (0, 0) => Some(1.0),
        (0, _) => None,
        _ => Some(max as f64 / min as f64),
    }
}

/// The population standard deviation of `values` over their mean (0 for a
/// mean of 0 or fewer than two values).
pub fn coefficient_of_variation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    if values.len() < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return 0.0;
    }
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    var.sqrt() / mean
}

/// The median of `values` (the mean of the two middle values for an even
/// count); none for none. Sorts `values`.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(match n % 2 {
        1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    })
}

impl Spread {
    /// The spread of the rows of one puzzle and solver, one per image,
    /// when `images` of them were all solved within budget; none otherwise.
    pub fn of(rows: &[ImageRow], images: u32) -> Option<Spread> {
        let first = rows.first()?;
        if rows.len() != images as usize || !rows.iter().all(ImageRow::finished) {
            return None;
        }
        let nodes = rows
            .iter()
            .map(|r| r.nodes)
            .collect::<Option<Vec<u64>>>()
            .map(|n| (*n.iter().min().unwrap_or(&0), *n.iter().max().unwrap_or(&0)));
        let times: Vec<f64> = rows.iter().map(|r| r.ns as f64).collect();
        Some(Spread {
            line: first.line,
            nodes,
            node_ratio: nodes.and_then(|(lo, hi)| node_ratio(lo, hi)),
            time_cv: coefficient_of_variation(&times),
        })
    }
}

/// One solver's spread over a corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverSpread {
    /// The solver's index in the run.
    pub solver: u16,
    /// Puzzles with every image solved within budget.
    pub puzzles: u64,
    /// Puzzles it ran with some image not solved within budget (left out).
    pub left_out: u64,
    /// The median over those puzzles of the node ratio (over the puzzles
    /// that have one).
    pub median_node_ratio: Option<f64>,
    /// The median of the time's coefficient of variation.
    pub median_time_cv: Option<f64>,
    /// The [`WIDEST`] puzzles with the largest node ratio, largest first
    /// (then by line).
    pub widest: Vec<Spread>,
}

impl SolverSpread {
    /// The spread of solver `solver` over `rows` (a corpus's rows of every
    /// solver, any order), with `images` images per puzzle.
    pub fn of(rows: &[ImageRow], solver: u16, images: u32) -> SolverSpread {
        let mut mine: Vec<ImageRow> = rows
            .iter()
            .filter(|r| r.solver == solver)
            .copied()
            .collect();
        mine.sort_by_key(|r| (r.line, r.image));
        let (mut puzzles, mut left_out) = (0u64, 0u64);
        let mut spreads = Vec::new();
        for group in mine.chunk_by(|a, b| a.line == b.line) {
            match Spread::of(group, images) {
                Some(s) => {
                    puzzles += 1;
                    spreads.push(s);
                }
                None => left_out += 1,
            }
        }
        let mut ratios: Vec<f64> = spreads.iter().filter_map(|s| s.node_ratio).collect();
        let mut cvs: Vec<f64> = spreads.iter().map(|s| s.time_cv).collect();
        let mut widest: Vec<Spread> = spreads
            .iter()
            .filter(|s| s.node_ratio.is_some())
            .copied()
            .collect();
        widest.sort_by(|a, b| {
            b.node_ratio
                .unwrap_or(0.0)
                .total_cmp(&a.node_ratio.unwrap_or(0.0))
                .then(a.line.cmp(&b.line))
        });
        widest.truncate(WIDEST);
        SolverSpread {
            solver,
            puzzles,
            left_out,
            median_node_ratio: median(&mut ratios),
            median_time_cv: median(&mut cvs),
            widest,
        }
    }
}

/// The problems of one puzzle's image rows of one solver (line `line` of
/// `corpus`, solver named `name`): a disagreement of the solution counts
/// across the images solved within budget with a valid answer (the count
/// of solutions does not depend on the presentation). Empty when all is
/// well.
pub fn check(corpus: &str, line: u64, name: &str, rows: &[ImageRow]) -> Option<Discrepancy> {
    let mut counts = rows.iter().filter(|r| r.finished()).map(|r| r.solutions);
    let first = counts.next()?;
    if counts.all(|c| c == first) {
        return None;
    }
    Some(Discrepancy {
        corpus: corpus.to_string(),
        line,
        image: None,
        kind: DiscrepancyKind::ImageDisagreement(name.to_string()),
        counts: rows
            .iter()
            .map(|r| (format!("image {}", r.image), r.solutions, r.status))
            .collect(),
    })
}

/// The problems of one puzzle (line `line` of `corpus`, solved with the
/// solution limit `limit`) found in `rows`, its image rows of every solver
/// (any order; `name` gives a solver's name): per solver, counts that
/// differ across its images ([`check`]); on each image 1 to K-1, what the
/// cross-check between solvers finds on image 0 ([`cross_check`], tagged
/// with the image): an invalid answer, and a disagreement between solvers
/// unless one was found on the puzzle already (on image 0, across a
/// solver's images or on an earlier image: one fault, told once). Image
/// 0's own problems are the run's cross-check's, not repeated here.
/// `bench` and `merge` both check with it, so shards add up to the run.
// Takes `discrepancy::cross_check`'s arguments on purpose: the same check of one puzzle, over its
// images' rows.
pub fn check_line<'n>(
    corpus: &str,
    line: u64,
    limit: u64,
    rows: &[ImageRow],
    name: impl Fn(u16) -> &'n str,
) -> Vec<Discrepancy> {
    let mut rows = rows.to_vec();
    rows.sort_unstable_by_key(|r| (r.solver, r.image));
    let mut found: Vec<Discrepancy> = rows
        .chunk_by(|a, b| a.solver == b.solver)
        .filter_map(|solver| check(corpus, line, name(solver[0].solver), solver))
        .collect();
    rows.sort_by_key(|r| (r.image, r.solver));
    let mut disagreed = !found.is_empty();
    for image in rows.chunk_by(|a, b| a.image == b.image) {
        let records: Vec<Record> = image.iter().map(ImageRow::record).collect();
        let problems = cross_check(corpus, line, limit, &records, &name);
        let disagree = |d: &Discrepancy| d.kind == DiscrepancyKind::Disagreement;
        if image[0].image == 0 {
            disagreed |= problems.iter().any(disagree);
            continue;
        }
        for mut d in problems {
            if disagree(&d) {
                if disagreed {
                    continue;
                }
                disagreed = true;
            }
            d.image = Some(image[0].image);
            found.push(d);
        }
    }
    found
}

impl ImageRow {
    /// The row as the record of a solve, for [`cross_check`] (what the
    /// row does not hold is empty).
    fn record(&self) -> Record {
        Record {
            nodes: self.nodes,
            ..Record::new(self.line, self.solver, self.status, self.ns, self.solutions)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(line: u64, image: u32, nodes: u64, ns: u64) -> ImageRow {
        ImageRow {
            line,
            solver: 0,
            image,
            seed: image_seed(1, image),
            status: Status::Unique,
            solutions: 1,
            nodes: Some(nodes),
            ns,
        }
    }

    #[test]
    fn spread_arithmetic() {
        // Nodes 10, 40, 20, 30: ratio 4. Times 100, 200, 300, 400: mean
        // 250, population variance (150² + 50² + 50² + 150²) / 4 = 12,500,
        // sd 111.80..., CV 0.44721...
        let rows = [
            row(7, 0, 10, 100),
            row(7, 1, 40, 200),
            row(7, 2, 20, 300),
            row(7, 3, 30, 400),
        ];
        let s = Spread::of(&rows, 4).unwrap();
        assert_eq!(s.nodes, Some((10, 40)));
        assert_eq!(s.node_ratio, Some(4.0));
        assert!((s.time_cv - 12_500f64.sqrt() / 250.0).abs() < 1e-12);
        assert!((s.time_cv - 0.447_213_595_5).abs() < 1e-9);
        // Not every image: no spread; one over budget: none either.
        assert_eq!(Spread::of(&rows[..3], 4), None);
        let mut over = rows;
        over[2].status = Status::Budget;
        assert_eq!(Spread::of(&over, 4), None);
        // Equal times: CV 0; zero nodes.
        assert_eq!(coefficient_of_variation(&[5.0, 5.0, 5.0]), 0.0);
        assert_eq!(node_ratio(0, 0), Some(1.0));
        assert_eq!(node_ratio(0, 3), None);
        assert_eq!(node_ratio(3, 9), Some(3.0));
        // Medians, odd and even.
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&mut []), None);
    }

    #[test]
    fn a_solver_spread_takes_medians_and_the_widest() {
        let mut rows = Vec::new();
        // Line 1: ratio 2, line 2: ratio 8, line 3: ratio 1, line 4: an
        // image over budget (left out).
        for (line, nodes) in [(1, [5, 10]), (2, [1, 8]), (3, [6, 6]), (4, [2, 3])] {
            for (i, n) in nodes.into_iter().enumerate() {
                rows.push(row(line, i as u32, n, 100 * (i as u64 + 1)));
            }
        }
        rows[7].status = Status::Budget;
        // Another solver's rows are not counted.
        let mut other = row(1, 0, 1, 1);
        other.solver = 1;
        rows.push(other);
        let s = SolverSpread::of(&rows, 0, 2);
        assert_eq!((s.puzzles, s.left_out), (3, 1));
        assert_eq!(s.median_node_ratio, Some(2.0));
        // Times 100 and 200 on each: CV 1/3.
        assert!((s.median_time_cv.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        let lines: Vec<u64> = s.widest.iter().map(|w| w.line).collect();
        assert_eq!(lines, [2, 1, 3]);
    }

    #[test]
    fn counts_that_differ_across_images_are_a_problem() {
        let mut rows = [row(3, 0, 1, 1), row(3, 1, 1, 1), row(3, 2, 1, 1)];
        assert!(check("c", 3, "dlx", &rows).is_none());
        // Over budget: its count is a lower bound, not compared.
        rows[1].status = Status::Budget;
        rows[1].solutions = 0;
        assert!(check("c", 3, "dlx", &rows).is_none());
        rows[2].solutions = 2;
        rows[2].status = Status::Multiple;
        let d = check("c", 3, "dlx", &rows).unwrap();
        assert_eq!(d.kind, DiscrepancyKind::ImageDisagreement("dlx".into()));
        assert_eq!(
            d.to_string(),
            "c line 3: dlx's solution counts differ across symmetry images: \
             image 0=1 (unique), image 1=0 (budget), image 2=2 (multiple)"
        );
    }

    #[test]
    fn image_0_is_the_permute_image() {
        assert_eq!(image_seed(42, 0), 42);
        assert_ne!(image_seed(42, 1), image_seed(42, 2));
        assert_ne!(image_seed(42, 1), 42);
    }

    #[test]
    fn a_line_is_checked_on_every_image_each_fault_told_once() {
        let name = |s: u16| ["a", "b"][usize::from(s)];
        let both = |image: u32, a: (Status, u64), b: (Status, u64)| {
            let mut ra = row(9, image, 1, 1);
            (ra.status, ra.solutions) = a;
            let mut rb = ra;
            rb.solver = 1;
            (rb.status, rb.solutions) = b;
            [ra, rb]
        };
        let unique = (Status::Unique, 1);
        // All well.
        let rows: Vec<ImageRow> = (0..3).flat_map(|i| both(i, unique, unique)).collect();
        assert!(check_line("c", 9, 2, &rows, name).is_empty());
        // An invalid answer on image 2: a problem of image 2 (and not one
        // of the counts across images: an invalid answer is not compared).
        let mut rows: Vec<ImageRow> = (0..3).flat_map(|i| both(i, unique, unique)).collect();
        rows[5].status = Status::Invalid;
        let found = check_line("c", 9, 2, &rows, name);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].image, Some(2));
        assert_eq!(found[0].kind, DiscrepancyKind::InvalidSolution("b".into()));
        assert!(found[0]
            .to_string()
            .starts_with("c line 9, symmetry image 2: b returned an invalid solution"));
        // b over budget on image 0, then counting 2 on images 1 and 2 where
        // a counts 1: no count differs across a solver's images, so the
        // disagreement between solvers is told, once, on image 1.
        let mut rows: Vec<ImageRow> = both(0, unique, (Status::Budget, 0)).to_vec();
        for i in 1..3 {
            rows.extend(both(i, unique, (Status::Multiple, 2)));
        }
        let found = check_line("c", 9, 2, &rows, name);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].image, &found[0].kind),
            (Some(1), &DiscrepancyKind::Disagreement)
        );
        // b's count differs across its images: that is the fault, told
        // once (not again as disagreements on images 1 and 2).
        let mut rows: Vec<ImageRow> = both(0, unique, unique).to_vec();
        for i in 1..3 {
            rows.extend(both(i, unique, (Status::Multiple, 2)));
        }
        let found = check_line("c", 9, 2, &rows, name);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].kind,
            DiscrepancyKind::ImageDisagreement("b".into())
        );
        assert_eq!(found[0].image, None);
    }
}
