use super::*;
use crate::sudoku::{check, Verdict};

/// A valid full grid of any shape by the shifting pattern, with a
/// scattering of blanks.
pub(crate) fn sample(shape: BoxShape, blank_every: usize) -> Grid {
    let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.side());
    let mut g = Grid::empty(shape);
    for row in 0..n {
        for col in 0..n {
            let v = (c * (row % r) + row / r + col) % n;
            g.set(row, col, v as u8 + 1);
        }
    }
    assert_eq!(check(&g), Verdict::Complete);
    if blank_every > 0 {
        for (i, cell) in g.cells_mut().iter_mut().enumerate() {
            if (i * 7 + 3) % blank_every == 0 {
                *cell = 0;
            }
        }
    }
    g
}

const SHAPES: [(usize, usize); 9] = [
    (2, 2),
    (2, 3),
    (3, 3),
    (3, 4),
    (4, 4),
    (5, 5),
    (6, 6),
    (8, 8),
    (9, 9),
];

fn parse(line: &str) -> Result<Grid, GridError> {
    let mut g = Grid::empty(BoxShape::NINE);
    parse_line_into(line.as_bytes(), ParseOptions::default(), &mut g).map(|()| g)
}

fn error(line: &str) -> GridError {
    parse(line).expect_err(line)
}

#[test]
fn line_round_trip_every_size() {
    let mut g = Grid::empty(BoxShape::NINE);
    for (r, c) in SHAPES {
        let shape = BoxShape::new(r, c).unwrap();
        for alphabet in [Alphabet::Standard, Alphabet::ZeroBased] {
            let original = sample(shape, 3);
            let text = original.display(Format::Line, alphabet).to_string();
            let n = shape.side();
            if n <= alphabet.max_side() {
                assert_eq!(text.len(), n * n, "{shape}");
            } else {
                assert_eq!(text.split(' ').count(), n * n, "{shape}: numbers");
            }
            let options = ParseOptions {
                alphabet,
                shape: None,
            };
            parse_line_into(text.as_bytes(), options, &mut g)
                .unwrap_or_else(|e| panic!("{shape} {alphabet:?}: {e}"));
            assert_eq!(g, original, "{shape} {alphabet:?}");
        }
    }
}

#[test]
fn the_hard_puzzle_and_its_symbols() {
    let g =
        parse(".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....")
            .unwrap();
    assert_eq!(g.shape(), BoxShape::NINE);
    assert_eq!(g.clues(), 18);
    assert_eq!(g.get(0, 1), 2);
    assert_eq!(g.get(8, 4), 8);
    // `0` is a blank too, and the output writes `.`.
    let zeros = parse(
        &"0".repeat(80)
            .replace("00", "50")
            .chars()
            .chain(['1'])
            .collect::<String>(),
    );
    let zeros = zeros.unwrap();
    assert_eq!(zeros.get(8, 8), 1);
    assert_eq!(zeros.to_string().matches('.').count(), 81 - zeros.clues());
    // 16x16 with 1-9 A-G, 25x25 up to P, case matters for 36x36.
    let mut line = "G".to_string() + &".".repeat(254) + "A";
    let g = parse(&line).unwrap();
    assert_eq!((g.side(), g.get(0, 0), g.get(15, 15)), (16, 16, 10));
    line = "P".to_string() + &".".repeat(624);
    assert_eq!(parse(&line).unwrap().get(0, 0), 25);
    line = "az".to_string() + &".".repeat(36 * 36 - 2);
    let e = error(&line);
    assert_eq!(e.column, 2, "{e}");
    assert!(
        e.message
            .starts_with("unexpected symbol 'z' (value 61 is above the side 36)"),
        "{e}"
    );
    assert_eq!(parse(&line.replace('z', "Z")).unwrap().get(0, 0), 36);
}

#[test]
fn zero_based_alphabet() {
    let zb = ParseOptions {
        alphabet: Alphabet::ZeroBased,
        shape: None,
    };
    let mut g = Grid::empty(BoxShape::NINE);
    let line = "0123456789ABCDEF".to_string() + &".".repeat(239) + "f";
    parse_line_into(line.as_bytes(), zb, &mut g).unwrap();
    assert_eq!(&g.cells()[..16], &(1..=16).collect::<Vec<u8>>()[..]);
    assert_eq!(g.get(15, 15), 16, "lower case reads as upper case");
    let out = g.display(Format::Line, Alphabet::ZeroBased).to_string();
    assert!(out.starts_with("0123456789ABCDEF...."), "{out}");
    assert!(out.ends_with('F'));
    // 'G' is 17: above the side.
    let e = parse_line_into(line.replace('f', "G").as_bytes(), zb, &mut g).unwrap_err();
    assert_eq!(e.column, 256);
    assert!(
        e.message.contains("'G' (value 17 is above the side 16)"),
        "{e}"
    );
    assert!(e.message.contains("0-9, A-F, '.' for blank"), "{e}");
}

#[test]
fn numeric_lines() {
    // The shared 36x36 files: numbers separated by single spaces, 0 blank,
    // and a trailing space.
    let shape = BoxShape::new(6, 6).unwrap();
    let original = sample(shape, 2);
    let mut text: String = original.cells().iter().map(|v| format!("{v} ")).collect();
    text.push_str("\r\n");
    let mut g = Grid::empty(BoxShape::NINE);
    parse_line_into(text.as_bytes(), ParseOptions::default(), &mut g).unwrap();
    assert_eq!(g, original);
    // 81x81 and 100x100 need numbers.
    for side in [81, 100] {
        let shape = BoxShape::for_side(side).unwrap();
        let original = sample(shape, 5);
        let text = original
            .display(Format::Line, Alphabet::Standard)
            .to_string();
        parse_line_into(text.as_bytes(), ParseOptions::default(), &mut g).unwrap();
        assert_eq!(g, original, "{side}");
    }
    // A 9x9 puzzle written as spaced digits, tabs and `.` allowed.
    let spaced: String = "0\t2 . 0 5 0 6 0 8 ".to_string() + &"0 ".repeat(72);
    let g = parse(&spaced).unwrap();
    assert_eq!(
        (g.side(), g.get(0, 1), g.get(0, 8), g.clues()),
        (9, 2, 8, 4)
    );
}

/// A hard puzzle, for the malformed-line tests to spoil.
const HARD: &str =
    ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";

#[test]
fn malformed_lines() {
    let hard = HARD;
    // Too short, too long: the nearest size is named.
    let e = error(&hard[1..]);
    assert_eq!(e.column, 0);
    assert_eq!(
        e.message,
        "expected 81 symbols (1-9, '.' or '0' for blank) for a 9x9 grid, found 80"
    );
    let e = error(&format!("{hard}."));
    assert!(e.message.contains("expected 81 symbols"), "{e}");
    assert!(e.message.ends_with("found 82"), "{e}");
    assert!(error("1234").message.contains("expected 16 symbols (1-4,"));
    // An unknown symbol, with its column (leading whitespace counts).
    let e = error(&format!("  {}x{}", &hard[..40], &hard[41..]));
    assert_eq!((e.line, e.column), (0, 43));
    assert!(
        e.message
            .starts_with("unexpected symbol 'x': expected 1-9, '.' or '0' for blank"),
        "{e}"
    );
    // A symbol above the side.
    let e = error(&format!("A{}", &hard[1..]));
    assert_eq!(e.column, 1);
    assert_eq!(
        e.message,
        "unexpected symbol 'A' (value 10 is above the side 9): expected 1-9, '.' or '0' for blank"
    );
    let e = error(&format!("{}?", &hard[1..]));
    assert_eq!(e.column, 81);
    assert_eq!(
        e.message,
        "unexpected symbol '?': expected 1-9, '.' or '0' for blank"
    );
}

#[test]
fn malformed_lines_bytes_empty_and_shapeless() {
    let hard = HARD;
    // Not UTF-8, and a multi-byte character: columns count characters.
    let mut bytes = hard.as_bytes().to_vec();
    bytes[5] = 0xFF;
    let mut g = Grid::empty(BoxShape::NINE);
    let e = parse_line_into(&bytes, ParseOptions::default(), &mut g).unwrap_err();
    assert_eq!(e.column, 6);
    let e = error(&format!("é{}", &hard[2..]));
    assert_eq!(e.column, 1);
    assert!(e.message.starts_with("unexpected symbol 'é'"), "{e}");
    let e = error(&format!("é{}", &hard[1..]));
    assert_eq!(e.column, 1, "a bad symbol before a bad count");
    let e = error(&format!("{}é.", &hard[..79]));
    assert_eq!(e.column, 80);
    assert!(e.message.starts_with("unexpected symbol 'é'"), "{e}");
    // Empty, 7x7 (no box shape), too big for symbols.
    assert!(error("  \r\n").message.contains("empty line"));
    let e = error(&".".repeat(49));
    assert!(e.message.contains("no box shape fits a side of 7"), "{e}");
    let e = error(&".".repeat(64 * 64));
    assert!(e.message.contains("sides up to 61"), "{e}");
}

#[test]
fn malformed_lines_of_numbers() {
    // Numbers: wrong count, bad token, value too big, negative.
    let nums = |s: &str| s.to_string() + &" 0".repeat(80);
    assert!(parse(&nums("1")).is_ok());
    let e = error(&nums("1 2"));
    assert_eq!(
        e.message,
        "expected 81 numbers (0-9, 0 for blank) for a 9x9 grid, found 82"
    );
    let e = error(&nums("12"));
    assert_eq!(e.column, 1);
    assert_eq!(
        e.message,
        "value 12 is above the side 9: expected 0-9, 0 for blank"
    );
    let e = error(&nums("  3x"));
    assert_eq!(e.column, 4);
    assert!(
        e.message.starts_with("unexpected symbol 'x' in a number"),
        "{e}"
    );
    let e = error(&nums("-1"));
    assert_eq!(e.column, 1);
    // Numbers too large for any integer type are quoted as written.
    for (big, shown) in [
        ("99999999999999999999", "value 99999999999999999999"),
        ("1000", "value 1000"),
        ("0010", "value 0010"),
        (&"9".repeat(300)[..], "a number of 300 digits"),
    ] {
        let e = error(&nums(big));
        assert_eq!(
            e.message,
            format!("{shown} is above the side 9: expected 0-9, 0 for blank"),
        );
    }
    // The same in a numeric block's rows.
    let mut rows: Vec<String> = (0..16).map(|_| vec!["0"; 16].join(" ")).collect();
    rows[5] = format!("0 0 99999999999999999999 {}", vec!["0"; 13].join(" "));
    let text = format!("4x4\n{}\n", rows.join("\n"));
    let e = Puzzles::new(&text, ParseOptions::default())
        .next()
        .unwrap()
        .unwrap_err();
    assert_eq!((e.line, e.column), (7, 5), "{e}");
    assert_eq!(
        e.message,
        "value 99999999999999999999 is above the side 16: expected 0-16, 0 for blank"
    );
}

#[test]
fn explicit_shapes() {
    let tall = BoxShape::new(3, 2).unwrap();
    let options = ParseOptions {
        alphabet: Alphabet::Standard,
        shape: Some(tall),
    };
    let original = sample(tall, 4);
    let text = original.to_string();
    let mut g = Grid::empty(BoxShape::NINE);
    parse_line_into(text.as_bytes(), options, &mut g).unwrap();
    assert_eq!(g, original);
    assert_eq!(g.shape(), tall);
    // Without the option the same line is 2x3, even in a reused 3x2 grid.
    parse_line_into(text.as_bytes(), ParseOptions::default(), &mut g).unwrap();
    assert_eq!(g.shape(), BoxShape::new(2, 3).unwrap());
    let e = parse_line_into(&text.as_bytes()[1..], options, &mut g).unwrap_err();
    assert_eq!(
        e.message,
        "expected 36 symbols (1-6, '.' or '0' for blank) for a 6x6 grid with 3x2 boxes, found 35"
    );
}

#[test]
fn reuse_does_not_allocate() {
    let mut g = Grid::empty(BoxShape::NINE);
    let before = g.cells().as_ptr();
    for line in [
        ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....",
        "127954638536728491498163527961547382384291756275836914742315869813679245659482173",
    ] {
        parse_line_into(line.as_bytes(), ParseOptions::default(), &mut g).unwrap();
        assert_eq!(g.cells().as_ptr(), before);
    }
    assert!(g.is_full());
}

#[test]
fn grid_and_numeric_output() {
    let g =
        parse("127954638536728491498163527961547382384291756275836914742315869813679245659482173")
            .unwrap();
    let pretty = g.display(Format::Grid, Alphabet::Standard).to_string();
    let lines: Vec<&str> = pretty.lines().collect();
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[0], "1 2 7 | 9 5 4 | 6 3 8");
    assert_eq!(lines[3], "------+-------+------");
    assert_eq!(lines[10], "6 5 9 | 4 8 2 | 1 7 3");
    let numeric = g.display(Format::Numeric, Alphabet::Standard).to_string();
    let lines: Vec<&str> = numeric.lines().collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "3");
    assert_eq!(lines[1], "1 2 7 9 5 4 6 3 8");
    // 6x6 with 2x3 boxes: bands of two rows, stacks of three columns.
    let six = sample(BoxShape::new(2, 3).unwrap(), 5);
    let pretty = six.display(Format::Grid, Alphabet::Standard).to_string();
    let lines: Vec<&str> = pretty.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[2], "------+------");
    assert_eq!(lines[0].len(), 13);
    assert_eq!(&lines[0][5..8], " | ");
    let numeric = six.display(Format::Numeric, Alphabet::Standard).to_string();
    assert!(numeric.starts_with("2x3\n"), "{numeric}");
    assert!(numeric.lines().nth(1).unwrap().contains(" 0") || six.get(0, 0) == 0);
    // 81x81 in grid format: numbers right-aligned, `.` for blank.
    let big = sample(BoxShape::new(9, 9).unwrap(), 3);
    let pretty = big.display(Format::Grid, Alphabet::Standard).to_string();
    let first = pretty.lines().next().unwrap();
    assert_eq!(first.split(" | ").count(), 9);
    assert_eq!(first.split_whitespace().filter(|t| *t != "|").count(), 81);
    assert!(pretty.lines().nth(9).unwrap().starts_with("---"));
    // fmt::Write and io::Write give the same text.
    let mut s = String::new();
    write_grid(&mut s, &big, Format::Grid, Alphabet::Standard).unwrap();
    let mut v = Vec::new();
    write_grid_io(&mut v, &big, Format::Grid, Alphabet::Standard).unwrap();
    assert_eq!(s.as_bytes(), v);
    assert_eq!(s, pretty);
}

#[test]
fn the_one_line_format_is_the_same_through_io_and_fmt() {
    // `write_grid_io` spells one-line grids itself (in pieces of 256
    // bytes); `Formatted` is the reference.
    let shapes = [(3, 3), (2, 3), (4, 4), (6, 6), (5, 7), (7, 7)];
    for (r, c) in shapes {
        let shape = BoxShape::new(r, c).unwrap();
        for alphabet in [Alphabet::Standard, Alphabet::ZeroBased] {
            for blank_every in [0, 2, 5] {
                let g = sample(shape, blank_every);
                let mut v = Vec::new();
                write_grid_io(&mut v, &g, Format::Line, alphabet).unwrap();
                let expected = g.display(Format::Line, alphabet).to_string();
                assert_eq!(
                    String::from_utf8(v).unwrap(),
                    expected,
                    "{r}x{c} {alphabet:?}"
                );
            }
        }
    }
}

#[test]
fn grid_errors_name_line_and_column() {
    let e = GridError::new(4, "bad").at_line(7);
    assert_eq!(e.to_string(), "line 7, column 4: bad");
    assert_eq!(
        GridError::new(0, "bad").at_line(2).to_string(),
        "line 2: bad"
    );
}

fn read_all(text: &str) -> Vec<Result<(usize, Grid), GridError>> {
    Puzzles::new(text, ParseOptions::default()).collect()
}

#[test]
fn grid_and_numeric_round_trip_every_size() {
    let mut shapes: Vec<BoxShape> = SHAPES
        .iter()
        .map(|&(r, c)| BoxShape::new(r, c).unwrap())
        .collect();
    shapes.push(BoxShape::new(10, 10).unwrap());
    for shape in shapes {
        let original = sample(shape, 4);
        for format in [Format::Line, Format::Grid, Format::Numeric] {
            // Two copies back to back, the second after a blank line.
            let one = original.display(format, Alphabet::Standard).to_string();
            let text = format!("{one}\n\n{one}\n");
            let got = read_all(&text);
            assert_eq!(got.len(), 2, "{shape} {format:?}:\n{text}");
            for (i, puzzle) in got.into_iter().enumerate() {
                let (line, grid) = puzzle.unwrap_or_else(|e| panic!("{shape} {format:?}: {e}"));
                assert_eq!(line, 1 + i * (one.lines().count() + 1));
                assert_eq!(grid, original, "{shape} {format:?}");
            }
        }
    }
    // Boxes other than the default shape need the numeric block.
    let tall = sample(BoxShape::new(3, 2).unwrap(), 3);
    let text = tall
        .display(Format::Numeric, Alphabet::Standard)
        .to_string();
    assert!(text.starts_with("3x2\n"));
    assert_eq!(read_all(&text)[0].as_ref().unwrap().1, tall);
    let text = text.replacen("3x2", "3 2", 1);
    assert_eq!(read_all(&text)[0].as_ref().unwrap().1, tall);
}

#[test]
fn a_mixed_file() {
    let text = "\
# comments and blank lines are skipped

.2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....
Grid 01
003020600
900305001
001806400
008102900
700000008
006708200
002609500
800203009
005010300
=========
4 . . | . . . | 8 . 5
. 3 . | . . . | . . .
. . . | 7 . . | . . .
------+-------+------
. 2 . | . . . | . 6 .
. . . | . 8 . | 4 . .
. . . | . 1 . | . . .
------+-------+------
. . . | 6 . 3 | . 7 .
5 . . | 2 . . | . . .
1 . 4 | . . . | . . .
1234
";
    let got = read_all(text);
    assert_eq!(got.len(), 4, "{got:?}");
    let lines: Vec<usize> = got
        .iter()
        .map(|r| match r {
            Ok((l, _)) => *l,
            Err(e) => e.line,
        })
        .collect();
    assert_eq!(lines, [3, 5, 15, 26]);
    let euler = &got[1].as_ref().unwrap().1;
    assert_eq!(
        (euler.get(0, 2), euler.get(8, 8), euler.clues()),
        (3, 0, 32)
    );
    let norvig = &got[2].as_ref().unwrap().1;
    assert_eq!(
        (norvig.get(0, 0), norvig.get(0, 8), norvig.get(8, 2)),
        (4, 5, 4)
    );
    let e = got[3].as_ref().unwrap_err();
    assert!(e.message.contains("expected 16 symbols"), "{e}");
}

#[test]
fn errors_in_grids_name_line_and_column_and_do_not_stop_reading() {
    let text = "\
1 . | . 4
. . | 2 .
----+----
. 3 | 9 .
4 . | . 1
1..4..2..3..4..1
1 . | . 4
. . | 2 .

2x2
1 0 0 4
0 0 2 0 7
0 3 0 0
4 0 0 1
1..4..2..3..4.1
1..4..2..3..4..1
";
    let got = read_all(text);
    assert_eq!(got.len(), 6, "{got:#?}");
    let e = got[0].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (4, 7));
    assert!(e
        .message
        .contains("unexpected symbol '9' (value 9 is above the side 4)"));
    assert_eq!(got[1].as_ref().unwrap().0, 6);
    let e = got[2].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (7, 0));
    assert!(
        e.message
            .contains("has 2 rows (ending at line 8): expected 4"),
        "{e}"
    );
    let e = got[3].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (12, 0));
    assert_eq!(
        e.message,
        "expected a row of 4 numbers (0-4, 0 for blank) for a 4x4 grid, found 5"
    );
    let e = got[4].as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (15, 0));
    assert_eq!(got[5].as_ref().unwrap().0, 16);
}

#[test]
fn sixteen_symbol_lines_one_line_puzzles_or_a_grid() {
    // Sixteen 4x4 puzzles in a row are sixteen puzzles...
    let small = sample(BoxShape::new(2, 2).unwrap(), 3).to_string();
    let text = format!("{small}\n").repeat(16);
    let got = read_all(&text);
    assert_eq!(got.len(), 16);
    assert!(got.iter().all(|r| r.as_ref().unwrap().1.side() == 4));
    // ...but a 16x16 grid, even one whose first row is blank, is one grid.
    let mut big = sample(BoxShape::new(4, 4).unwrap(), 3);
    big.cells_mut()[..16].fill(0);
    let text: String = big
        .cells()
        .chunks(16)
        .map(|row| {
            let mut g = Grid::empty(BoxShape::NINE);
            g.reset(BoxShape::new(4, 4).unwrap());
            g.cells_mut()[..16].copy_from_slice(row);
            format!("{}\n", &g.to_string()[..16])
        })
        .collect();
    let got = read_all(&text);
    assert_eq!(got.len(), 1, "{text}");
    assert_eq!(got[0].as_ref().unwrap().1, big);
}

#[test]
fn numeric_grids_without_header_and_zero_based_rows() {
    let twelve = sample(BoxShape::new(3, 4).unwrap(), 5);
    let text: String = twelve
        .cells()
        .chunks(12)
        .map(|row| {
            let words: Vec<String> = row.iter().map(u8::to_string).collect();
            words.join(" ") + "\n"
        })
        .collect();
    let got = read_all(&text);
    assert_eq!(got.len(), 1, "{text}");
    assert_eq!(got[0].as_ref().unwrap().1, twelve);
    let zb = ParseOptions {
        alphabet: Alphabet::ZeroBased,
        shape: None,
    };
    let hex = sample(BoxShape::new(4, 4).unwrap(), 5);
    let text = hex.display(Format::Grid, Alphabet::ZeroBased).to_string();
    assert!(text.contains('0') && text.contains('F'));
    let got: Vec<_> = Puzzles::new(&text, zb).collect();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].as_ref().unwrap().1, hex);
}

#[test]
fn byte_order_mark_and_crlf() {
    let text = "\u{feff}1 . | . 4\r\n. . | 2 .\r\n----+----\r\n. 3 | . .\r\n4 . | . 1\r\n";
    let got = read_all(text);
    assert_eq!(got.len(), 1);
    let (line, grid) = got[0].as_ref().unwrap();
    assert_eq!((*line, grid.to_string().as_str()), (1, "1..4..2..3..4..1"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any text: errors or grids, never a panic; grids hold values within
    /// their side.
    #[test]
    fn no_text_makes_a_panic(
        text in "([0-9.ABGxz| +#=\t-]{0,20}(\r?\n)?|1 . \\| . 4\n|2x2\n|4\n|[1-4.]{16}\n|[1-9.]{81}\n|[0-9]{1,3} |\u{e9}){0,40}"
    ) {
        for (_, grid) in Puzzles::new(&text, ParseOptions::default()).flatten() {
            let n = grid.side();
            proptest::prop_assert!(grid.cells().iter().all(|&v| v as usize <= n));
        }
        for line in text.lines() {
            let mut g = Grid::empty(BoxShape::NINE);
            if parse_line_into(line.as_bytes(), ParseOptions::default(), &mut g).is_ok() {
                proptest::prop_assert!(g.cells().iter().all(|&v| v as usize <= g.side()));
            }
        }
    }
}

#[test]
fn digit_fast_path_matches_the_table() {
    // Every byte in every position of a 4x4 and a 9x9 line: the arithmetic
    // path (standard alphabet, sides up to 9) must accept and reject exactly
    // what the table does, with the same values.
    for side in [4usize, 9] {
        let cells = side * side;
        let base: Vec<u8> = std::iter::repeat_n(b'.', cells).collect();
        for pos in [0, cells / 2, cells - 1] {
            for byte in 0..=255u8 {
                if byte == b'\n' || byte == b'\r' || byte == b' ' || byte == b'\t' {
                    continue; // trimmed or a separator: other paths
                }
                let mut line = base.clone();
                line[pos] = byte;
                let mut grid = Grid::empty(BoxShape::for_side(side).unwrap());
                let fast = parse_line_into(&line, ParseOptions::default(), &mut grid);
                let table = Alphabet::Standard.table()[byte as usize];
                let expected_ok = table <= side as u8;
                assert_eq!(fast.is_ok(), expected_ok, "side {side}, byte {byte}");
                if expected_ok {
                    assert_eq!(grid.cells()[pos], table, "side {side}, byte {byte}");
                }
            }
        }
    }
}
