//! The engines' counts against Knuth's own programs, SSXC0 (dancing cells)
//! and DLX1 (dancing links), on instances in his DLX format.
//!
//! His figures were read from his programs' output, built and run locally
//! (none of his code is in this repository; docs/engine.md says how the
//! figures were made and how his counts relate to ours). The instances are
//! ours: the committed examples (`examples/inputs/*.txt`, which his programs
//! read once the `#` comment lines are removed), the larger ones the examples
//! emit (`cargo run --release --example queens -- 12 --emit`, `langford -- 12
//! --emit`; [`emitted`] below) and Sudoku puzzles written
//! out in the layout of his SUDOKU-DLX generator by [`sudoku_dlx`] below.
//!
//! With the item choice of his programs ([`ColumnChoice::Knuth`]) the
//! engines make his search trees: `nodes + 1` is his node count (he counts
//! the root), `Dc`'s mems are SSXC0's, and the updates are his less the
//! updates he counts for items (SSXC0: one per primary item taken out of the
//! active list; DLX1: one per item unlinked), which the engines do not count.

use dlxbench::exact_cover::puzzles::{self, CoverPuzzle};
use dlxbench::exact_cover::{ColumnChoice, Dc, Dlx, Engine, Problem, SearchOptions, SearchStats};

/// One instance and Knuth's figures for it.
struct Case {
    name: &'static str,
    text: String,
    solutions: u64,
    /// SSXC0: nodes, updates, search mems, and the updates among them that
    /// are primary items taken out of the active list.
    ssxc0: (u64, u64, u64, u64),
    /// DLX1: nodes, updates, and the updates among them that are items
    /// unlinked.
    dlx1: (u64, u64, u64),
}

fn example(file: &str) -> String {
    let path = format!("{}/examples/inputs/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What an example's `--emit` writes, less its `#` comment lines (the
/// text his programs read).
fn emitted(puzzle: CoverPuzzle) -> String {
    puzzle.to_named_text("")
}

/// A 9x9 Sudoku (81 characters, `.` or `0` blank) as exact cover in the
/// layout of Knuth's SUDOKU-DLX: items `pRC` (cell R,C filled) for the blank
/// cells, then `rRD`, `cCD`, `bXD` (digit D in row R, column C, box X) for
/// the digits the clues leave open, all primary; one option `pRC rRD cCD
/// bXD` per blank cell and digit that no clue rules out, cell by cell and
/// digit by digit. A `|` comment line first, as his generators write.
fn sudoku_dlx(puzzle: &str) -> String {
    let digits: Vec<usize> = puzzle
        .bytes()
        .map(|b| {
            if b.is_ascii_digit() {
                usize::from(b - b'0')
            } else {
                0
            }
        })
        .collect();
    assert_eq!(digits.len(), 81, "{puzzle}");
    let box_of = |r: usize, c: usize| r / 3 * 3 + c / 3;
    let (mut row, mut col, mut bx) = ([[false; 10]; 9], [[false; 10]; 9], [[false; 10]; 9]);
    for (i, &d) in digits.iter().enumerate() {
        if d > 0 {
            let (r, c) = (i / 9, i % 9);
            row[r][d] = true;
            col[c][d] = true;
            bx[box_of(r, c)][d] = true;
        }
    }
    let mut items = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        if d == 0 {
            items.push(format!("p{}{}", i / 9, i % 9));
        }
    }
    for (prefix, used) in [("r", &row), ("c", &col), ("b", &bx)] {
        for (u, used) in used.iter().enumerate() {
            for (d, _) in used.iter().enumerate().skip(1).filter(|(_, &u)| !u) {
                items.push(format!("{prefix}{u}{d}"));
            }
        }
    }
    let mut text = format!("| sudoku {puzzle}\n{}\n", items.join(" "));
    for (i, &v) in digits.iter().enumerate() {
        let (r, c) = (i / 9, i % 9);
        let x = box_of(r, c);
        for d in 1..=9 {
            if v == 0 && !row[r][d] && !col[c][d] && !bx[x][d] {
                text.push_str(&format!("p{r}{c} r{r}{d} c{c}{d} b{x}{d}\n"));
            }
        }
    }
    text
}

fn cases() -> Vec<Case> {
    let hard = example("hard.txt");
    vec![
        Case {
            name: "queens8.txt",
            text: example("queens8.txt"),
            solutions: 92,
            ssxc0: (1_085, 16_913, 236_833, 1_865),
            dlx1: (1_199, 21_375, 4_701),
        },
        Case {
            name: "queens 12 (queens -- 12 --emit)",
            text: emitted(puzzles::queens(12).unwrap()),
            solutions: 14_200,
            ssxc0: (290_527, 4_790_093, 67_514_105, 503_849),
            dlx1: (327_813, 6_285_452, 1_297_049),
        },
        Case {
            name: "langford7.txt",
            text: example("langford7.txt"),
            solutions: 26,
            ssxc0: (357, 4_828, 68_082, 954),
            dlx1: (374, 5_090, 1_094),
        },
        Case {
            name: "langford8_all.txt",
            text: example("langford8_all.txt"),
            solutions: 300,
            ssxc0: (2_887, 37_594, 528_222, 7_782),
            dlx1: (2_789, 37_241, 8_065),
        },
        Case {
            name: "Langford 12 (langford -- 12 --emit)",
            text: emitted(puzzles::langford(12, true).unwrap()),
            solutions: 108_144,
            ssxc0: (1_558_459, 21_189_386, 301_885_506, 4_219_948),
            dlx1: (1_564_533, 21_839_525, 4_585_453),
        },
        Case {
            name: "pentominoes_3x20.txt",
            text: example("pentominoes_3x20.txt"),
            solutions: 2,
            ssxc0: (15_768, 5_354_947, 63_867_294, 83_442),
            dlx1: (16_032, 5_385_810, 96_185),
        },
        Case {
            name: "Sudoku hard.txt",
            text: sudoku_dlx(hard.trim()),
            solutions: 1,
            ssxc0: (1_384, 28_118, 756_879, 5_414),
            dlx1: (12_715, 239_802, 50_856),
        },
        Case {
            name: "Sudoku Easter Monster",
            text: sudoku_dlx(
                "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
            ),
            solutions: 1,
            ssxc0: (2_277, 40_655, 1_168_963, 8_975),
            dlx1: (5_166, 91_913, 20_660),
        },
        Case {
            name: "Sudoku AI Escargot",
            text: sudoku_dlx(
                "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
            ),
            solutions: 1,
            ssxc0: (1_895, 31_754, 886_438, 7_469),
            dlx1: (1_379, 23_083, 5_512),
        },
    ]
}

fn knuth() -> SearchOptions {
    SearchOptions {
        choice: ColumnChoice::Knuth,
        ..SearchOptions::default()
    }
}

fn check_dc(case: &Case, stats: SearchStats) {
    let (nodes, updates, mems, item_updates) = case.ssxc0;
    assert_eq!(stats.solutions, case.solutions, "{}", case.name);
    assert_eq!(stats.nodes + 1, nodes, "{}: SSXC0 nodes", case.name);
    assert_eq!(
        stats.updates,
        updates - item_updates,
        "{}: SSXC0 updates",
        case.name
    );
    assert_eq!(stats.mems, Some(mems), "{}: SSXC0 mems", case.name);
}

fn check_dlx(case: &Case, stats: SearchStats) {
    let (nodes, updates, item_updates) = case.dlx1;
    assert_eq!(stats.solutions, case.solutions, "{}", case.name);
    assert_eq!(stats.nodes + 1, nodes, "{}: DLX1 nodes", case.name);
    assert_eq!(
        stats.updates,
        updates - item_updates,
        "{}: DLX1 updates",
        case.name
    );
}

#[test]
fn dancing_cells_counts_as_ssxc0_does() {
    for case in cases() {
        let problem = Problem::parse(&case.text).unwrap().problem;
        check_dc(&case, Dc::new(&problem).count(knuth()));
    }
}

#[test]
fn dancing_links_counts_as_dlx1_does() {
    for case in cases() {
        let problem = Problem::parse(&case.text).unwrap().problem;
        check_dlx(&case, Dlx::new(&problem).count(knuth()));
    }
}

/// The 6x10 pentominoes: 3.7 billion mems (a second or two each).
#[test]
#[ignore = "slow: run with --ignored"]
fn pentominoes_6x10_counts_as_knuths_programs_do() {
    let case = Case {
        name: "pentominoes_6x10.txt",
        text: example("pentominoes_6x10.txt"),
        solutions: 2_339,
        ssxc0: (910_081, 310_931_372, 3_694_857_092, 4_851_582),
        dlx1: (909_153, 310_816_489, 5_452_574),
    };
    let problem = Problem::parse(&case.text).unwrap().problem;
    check_dc(&case, Dc::new(&problem).count(knuth()));
    check_dlx(&case, Dlx::new(&problem).count(knuth()));
}

/// The Sudoku text has the size Knuth's SSXC0 reported when it read the
/// same text: "(297 options, 252+0 items, 1485 entries successfully read)"
/// (his entries count a spacer per option).
#[test]
fn sudoku_dlx_layout_has_the_size_ssxc0_read() {
    let hard = example("hard.txt");
    let named = Problem::parse(&sudoku_dlx(hard.trim())).unwrap();
    let p = &named.problem;
    assert_eq!((p.rows(), p.primary(), p.secondary()), (297, 252, 0));
    assert_eq!(p.entries() + p.rows(), 1485);
    // 18 clues: 63 blank cells first, then the open digits.
    assert!(named.column_names[..63].iter().all(|n| n.starts_with('p')));
    assert_eq!(named.column_names[63], "r01");
    assert_eq!(named.row_lines[0], 3, "a comment and the item names first");
}
