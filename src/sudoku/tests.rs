// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use super::*;

#[test]
fn shapes_for_every_supported_side() {
    for (side, r, c) in [
        (4, 2, 2),
        (6, 2, 3),
        (8, 2, 4),
        (9, 3, 3),
        (10, 2, 5),
        (12, 3, 4),
        (16, 4, 4),
        (25, 5, 5),
        (36, 6, 6),
        (64, 8, 8),
        (81, 9, 9),
        (100, 10, 10),
    ] {
        let s = BoxShape::for_side(side).unwrap();
        assert_eq!((s.box_rows(), s.box_cols(), s.side()), (r, c, side));
    }
    for bad in [0, 1, 2, 3, 5, 7, 11, 13, 129] {
        assert!(BoxShape::for_side(bad).is_err(), "{bad}");
    }
    // The table against the definition: the most square r x c, r <= c.
    for side in 0..=MAX_SIDE + 1 {
        let best = (2..=side)
            .filter(|&r| r * r <= side && side % r == 0)
            .max()
            .map(|r| (r, side / r));
        let got = BoxShape::for_side(side)
            .ok()
            .map(|s| (s.box_rows(), s.box_cols()));
        assert_eq!(got, best.filter(|_| side <= MAX_SIDE), "side {side}");
    }
    assert!(BoxShape::new(1, 9).is_err());
    assert!(BoxShape::new(12, 11).is_err());
    // Each error says what is wrong with the box, not with the side.
    for (r, c) in [(1, 81), (81, 1), (0, 4), (1, 1)] {
        let e = BoxShape::new(r, c).unwrap_err();
        assert_eq!(e, ShapeError::NarrowBox { rows: r, cols: c });
        assert_eq!(
            e.to_string(),
            format!("a {r}x{c} box: box rows and columns must each be at least 2")
        );
    }
    let e = BoxShape::new(16, 9).unwrap_err().to_string();
    assert_eq!(
        e,
        "a 16x9 box gives a side of 144, above the largest supported side 128"
    );
    let huge = usize::MAX / 2;
    assert!(BoxShape::new(huge, huge).is_err());
    assert_eq!(
        "1x81".parse::<BoxShape>().unwrap_err(),
        "a 1x81 box: box rows and columns must each be at least 2"
    );
    assert_eq!(
        "2x3".parse::<BoxShape>(),
        BoxShape::new(2, 3).map_err(|e| e.to_string())
    );
    assert!("3by3".parse::<BoxShape>().is_err());
}

#[test]
fn boxes_of_a_6x6_grid() {
    let s = BoxShape::new(2, 3).unwrap();
    // Boxes are 2 rows by 3 columns: 3 bands of 2 boxes.
    let boxes: Vec<usize> = (0..6).map(|r| s.box_of(r, 4)).collect();
    assert_eq!(boxes, [1, 1, 3, 3, 5, 5]);
    assert_eq!(s.box_of(5, 0), 4);
    // Every box has exactly 6 cells.
    let mut count = [0; 6];
    for r in 0..6 {
        for c in 0..6 {
            count[s.box_of(r, c)] += 1;
        }
    }
    assert_eq!(count, [6; 6]);
}

#[test]
fn cover_rows_round_trip() {
    let s = BoxShape::new(3, 4).unwrap();
    let p = s.exact_cover();
    assert_eq!(p.rows(), 12 * 12 * 12);
    assert_eq!(p.columns(), 4 * 144);
    for cell in [0, 17, 143] {
        for sym in [1u8, 7, 12] {
            let row = s.cover_row(cell, sym);
            assert_eq!(s.placement(row), (cell, sym));
            assert_eq!(p.row(row).next(), Some(cell));
        }
    }
}

#[test]
fn grid_construction_checks_cells() {
    let s = BoxShape::new(2, 2).unwrap();
    assert!(Grid::from_cells(s, vec![0; 15]).is_err());
    let e = Grid::from_cells(s, [vec![5], vec![0; 15]].concat()).unwrap_err();
    assert!(e.to_string().contains("holds 5"), "{e}");
    let mut g = Grid::from_cells(s, vec![1; 16]).unwrap();
    assert!(g.is_full());
    g.reset(BoxShape::NINE);
    assert_eq!(g.cells().len(), 81);
    assert_eq!(g.clues(), 0);
}
