//! Rebuilding the corpora the project derived from other corpora of the
//! catalogue, byte for byte ([`derive`]).
//!
//! The constructions are those the mirror's files were made with: Python's
//! `random` module with a fixed seed (reproduced by [`PyRandom`]) choosing one
//! clue to add per puzzle, or a recorded list of one-clue changes. Each needs
//! the source puzzles' solutions, found by a small backtracking solver here
//! (the catalogue sits below the solvers in the crate's layers).

use super::pyrandom::PyRandom;
use super::{Corpus, DatasetError, Derivation, Origin};

/// The 20 cells sharing a row, column or box with each cell of a 9x9 grid.
fn peers() -> [[usize; 20]; 81] {
    let mut all = [[0; 20]; 81];
    for (cell, list) in all.iter_mut().enumerate() {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        for other in 0..81 {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                list[n] = other;
                n += 1;
            }
        }
    }
    all
}

/// A 9x9 grid's cells: 0 for a blank, else the digit.
type Cells = [u8; 81];

/// Parses one normalised 81-character line (`1-9`, `.`).
fn parse(line: &[u8]) -> Option<Cells> {
    if line.len() != 81 {
        return None;
    }
    let mut cells = [0; 81];
    for (cell, &b) in cells.iter_mut().zip(line) {
        *cell = match b {
            b'.' => 0,
            b'1'..=b'9' => b - b'0',
            _ => return None,
        };
    }
    Some(cells)
}

fn write(cells: &Cells, out: &mut Vec<u8>) {
    out.extend(cells.iter().map(|&d| if d == 0 { b'.' } else { b'0' + d }));
    out.push(b'\n');
}

/// The first solution of a 9x9 puzzle (bitmask backtracking, fewest
/// candidates first), or `None` when it has none or its clues clash.
fn solve(puzzle: &Cells) -> Option<Cells> {
    fn unit_masks(grid: &Cells) -> Option<([u16; 9], [u16; 9], [u16; 9])> {
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        for (cell, &d) in grid.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let (r, c, b) = (cell / 9, cell % 9, cell / 27 * 3 + cell % 9 / 3);
            let bit = 1 << d;
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return None;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        Some((rows, cols, boxes))
    }
    fn search(
        grid: &mut Cells,
        rows: &mut [u16; 9],
        cols: &mut [u16; 9],
        boxes: &mut [u16; 9],
    ) -> bool {
        let mut best: Option<(usize, u16)> = None;
        for (cell, &digit) in grid.iter().enumerate() {
            if digit != 0 {
                continue;
            }
            let (r, c, b) = (cell / 9, cell % 9, cell / 27 * 3 + cell % 9 / 3);
            let free = !(rows[r] | cols[c] | boxes[b]) & 0b11_1111_1110;
            if best.is_none_or(|(_, m)| free.count_ones() < m.count_ones()) {
                best = Some((cell, free));
                if free.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, free)) = best else {
            return true;
        };
        let (r, c, b) = (cell / 9, cell % 9, cell / 27 * 3 + cell % 9 / 3);
        for d in 1..=9u8 {
            let bit = 1 << d;
            if free & bit == 0 {
                continue;
            }
            grid[cell] = d;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
            if search(grid, rows, cols, boxes) {
                return true;
            }
            rows[r] &= !bit;
            cols[c] &= !bit;
            boxes[b] &= !bit;
        }
        grid[cell] = 0;
        false
    }
    let mut grid = *puzzle;
    let (mut rows, mut cols, mut boxes) = unit_masks(&grid)?;
    search(&mut grid, &mut rows, &mut cols, &mut boxes).then_some(grid)
}

/// Rebuilds the derived corpus `corpus` from `source`, the bytes of its
/// source corpus's normalised file (as installed, checksum verified). The
/// result has the catalogue's checksum when the source does; the caller
/// verifies it on installing.
pub fn derive(corpus: &Corpus, source: &[u8]) -> Result<Vec<u8>, DatasetError> {
    let Origin::Derived { from, how } = corpus.origin else {
        return Err(DatasetError::Derive {
            name: corpus.name,
            from: "-",
            detail: "not a derived corpus".into(),
        });
    };
    let fail = |detail: String| DatasetError::Derive {
        name: corpus.name,
        from,
        detail,
    };
    let puzzles = source
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            parse(l).ok_or_else(|| fail(format!("line {}: not a 9x9 puzzle line", i + 1)))
        })
        .collect::<Result<Vec<Cells>, _>>()?;
    let mut out = Vec::with_capacity(82 * puzzles.len());
    match how {
        Derivation::NoSolution { seed, sample } => {
            let mut rng = PyRandom::new(seed);
            let chosen: Vec<usize> = match sample {
                Some(k) if k > puzzles.len() => {
                    return Err(fail(format!(
                        "{k} to sample from {} puzzles",
                        puzzles.len()
                    )))
                }
                Some(k) => rng.sample(puzzles.len(), k),
                None => (0..puzzles.len()).collect(),
            };
            let peers = peers();
            for i in chosen {
                let mut puzzle = puzzles[i];
                let solution =
                    solve(&puzzle).ok_or_else(|| fail(format!("line {}: no solution", i + 1)))?;
                let mut blanks: Vec<usize> = (0..81).filter(|&c| puzzle[c] == 0).collect();
                rng.shuffle(&mut blanks);
                let added = blanks.iter().find_map(|&cell| {
                    let digits: Vec<u8> = (1..=9u8)
                        .filter(|&d| {
                            d != solution[cell] && peers[cell].iter().all(|&p| puzzle[p] != d)
                        })
                        .collect();
                    (!digits.is_empty()).then(|| (cell, *rng.choice(&digits)))
                });
                let (cell, digit) =
                    added.ok_or_else(|| fail(format!("line {}: no clue can be added", i + 1)))?;
                puzzle[cell] = digit;
                write(&puzzle, &mut out);
            }
        }
        Derivation::Edits { edits } => {
            let lines = edits
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
            for (n, line) in lines.enumerate() {
                let bad = || fail(format!("edit {}: `{line}`", n + 1));
                let fields: Vec<usize> = line
                    .split_whitespace()
                    .map(|f| f.parse().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?;
                let [i, cell, digit] = fields[..] else {
                    return Err(bad());
                };
                if i >= puzzles.len() || cell >= 81 || !(1..=9).contains(&digit) {
                    return Err(bad());
                }
                let mut puzzle = puzzles[i];
                puzzle[cell] = digit as u8;
                write(&puzzle, &mut out);
            }
        }
    }
    Ok(out)
}
