//! A bounded, reproducible sample of `puzzles.csv`: what the scatter plots
//! draw, read in one streaming pass whatever the file's size.
//!
//! Each puzzle line gets a fixed pseudo-random key (a hash of its line
//! number), and each corpus x solver keeps the rows with the smallest
//! keys. The sample is the same on every run of the same corpus,
//! and every solver of a corpus keeps the same puzzles, so their points
//! stand for the same puzzles.

use std::collections::BinaryHeap;
use std::path::Path;

use crate::results::{GroupIndex, PuzzleReader, PuzzleRow, ResultError};
use crate::solvers::Status;

/// The rows kept of one corpus x solver, in line order.
#[derive(Debug, Clone)]
pub struct Sampled {
    /// Corpus name.
    pub corpus: String,
    /// Solver name.
    pub solver: String,
    /// Rows read for this corpus x solver (in the file).
    pub rows: u64,
    /// The rows kept.
    pub kept: Vec<PuzzleRow>,
}

/// SplitMix64's finaliser: a well-mixed key for a line number.
fn key(line: u64) -> u64 {
    let mut z = line.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A heap entry: the largest key on top, so that it is the one dropped.
struct Entry(u64, PuzzleRow);

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.cmp(&o.0)
    }
}

/// Reads `path` (a `puzzles.csv`) and keeps, of each corpus, at most
/// `per_scatter` points in all: `per_scatter / solvers` rows of each of
/// its solvers. Memory holds at most `per_scatter` rows per corpus x
/// solver while reading.
pub fn sample(path: &Path, per_scatter: usize) -> Result<Vec<Sampled>, ResultError> {
    let mut reader = PuzzleReader::open(path)?;
    let mut groups = GroupIndex::default();
    let mut heaps: Vec<BinaryHeap<Entry>> = Vec::new();
    let mut rows: Vec<u64> = Vec::new();
    while let Some(record) = reader.next()? {
        let g = groups.of(record.corpus, record.solver);
        if heaps.len() <= g {
            heaps.resize_with(g + 1, BinaryHeap::new);
            rows.resize(g + 1, 0);
        }
        // Not run: nothing to draw.
        if record.status == Status::NotApplicable {
            continue;
        }
        rows[g] += 1;
        let k = key(record.line);
        let heap = &mut heaps[g];
        if heap.len() < per_scatter {
            heap.push(Entry(k, record.row()));
        } else if heap.peek().is_some_and(|top| k < top.0) {
            heap.pop();
            heap.push(Entry(k, record.row()));
        }
    }
    let groups = groups.names();
    let solvers_of = |corpus: &str| groups.iter().filter(|(c, _)| c == corpus).count();
    let share: Vec<usize> = groups
        .iter()
        .map(|(corpus, _)| (per_scatter / solvers_of(corpus).max(1)).max(1))
        .collect();
    Ok(groups
        .iter()
        .zip(heaps)
        .zip(rows)
        .zip(share)
        .map(|((((corpus, solver), heap), rows), share)| {
            // The smallest keys of the smallest keys: the same lines for
            // every solver of the corpus.
            let mut kept = heap.into_sorted_vec();
            kept.truncate(share);
            let mut kept: Vec<PuzzleRow> = kept.into_iter().map(|e| e.1).collect();
            kept.sort_unstable_by_key(|r| r.line);
            Sampled {
                corpus: corpus.clone(),
                solver: solver.clone(),
                rows,
                kept,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(rows: u64, solvers: &[&str]) -> tempfile::NamedTempFile {
        use std::io::Write;
        let mut f = tempfile::NamedTempFile::new().unwrap();
        writeln!(
            f,
            "corpus,line,solver,ns,solutions,nodes,guesses,status,updates"
        )
        .unwrap();
        for line in 1..=rows {
            for (i, s) in solvers.iter().enumerate() {
                writeln!(
                    f,
                    "c,{line},{s},{},1,{line},0,unique,",
                    100 * line + i as u64
                )
                .unwrap();
            }
        }
        f.flush().unwrap();
        f
    }

    #[test]
    fn each_corpus_keeps_its_share_of_the_same_lines_for_every_solver() {
        let f = csv(1000, &["a", "b", "c"]);
        let s = sample(f.path(), 300).unwrap();
        assert_eq!(s.len(), 3);
        for g in &s {
            assert_eq!(g.rows, 1000);
            assert_eq!(g.kept.len(), 100, "{}", g.solver);
            assert!(g.kept.windows(2).all(|w| w[0].line < w[1].line));
        }
        let lines = |i: usize| s[i].kept.iter().map(|r| r.line).collect::<Vec<_>>();
        assert_eq!(lines(0), lines(1));
        assert_eq!(lines(0), lines(2));
        // Spread over the file, not its first lines.
        assert!(lines(0).iter().any(|&l| l > 500));
        // Reproducible.
        let again = sample(f.path(), 300).unwrap();
        assert_eq!(again[0].kept, s[0].kept);
    }

    #[test]
    fn a_small_file_is_kept_whole() {
        let f = csv(10, &["a"]);
        let s = sample(f.path(), 300).unwrap();
        assert_eq!(s[0].kept.len(), 10);
    }
}
