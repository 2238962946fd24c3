//! Cross-solver tests: every solver of the [`REGISTRY`] on the same puzzles,
//! checked against known answers, against each other, and against the rule
//! checker.

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use super::*;
use crate::solvers::{Budget, Outcome, Solver, SolverEntry, SolverSet, SolverSetError, Status};
use crate::sudoku::{self, check, is_solution_of, BoxShape, Grid, ParseOptions, Verdict};

const HARD: &str =
    ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
const HARD_SOLUTION: &str =
    "127954638536728491498163527961547382384291756275836914742315869813679245659482173";

/// A 9x9 grid from a one-line string.
fn parse9(line: &str) -> Grid {
    let mut grid = Grid::empty(BoxShape::NINE);
    sudoku::parse_line_into(line.as_bytes(), ParseOptions::default(), &mut grid).unwrap();
    assert_eq!(grid.shape(), BoxShape::NINE, "{line}");
    grid
}

/// The crate's seeded generator, so the tests fail the same way every run.
use crate::rng::SplitMix;

/// A random valid full grid: the shifting pattern, then symbols relabelled,
/// rows permuted within bands, bands permuted, columns within stacks and
/// stacks permuted (each keeps every row, column and box a permutation).
fn random_full(shape: BoxShape, rng: &mut SplitMix) -> Grid {
    let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.side());
    let mut labels: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut labels);
    // `c` bands of `r` rows; `r` stacks of `c` columns.
    let order = |rng: &mut SplitMix, groups: usize, size: usize| {
        let mut outer: Vec<usize> = (0..groups).collect();
        rng.shuffle(&mut outer);
        let mut all = Vec::with_capacity(n);
        for g in outer {
            let mut inner: Vec<usize> = (0..size).map(|i| g * size + i).collect();
            rng.shuffle(&mut inner);
            all.extend(inner);
        }
        all
    };
    let rows = order(rng, c, r);
    let cols = order(rng, r, c);
    let mut grid = Grid::empty(shape);
    for (new_row, &row) in rows.iter().enumerate() {
        for (new_col, &col) in cols.iter().enumerate() {
            let v = (c * (row % r) + row / r + col) % n;
            grid.set(new_row, new_col, labels[v]);
        }
    }
    assert_eq!(check(&grid), Verdict::Complete, "{shape}");
    grid
}

/// `full` with `blanks` distinct random cells blanked.
fn blank_cells(full: &Grid, blanks: usize, rng: &mut SplitMix) -> Grid {
    let mut cells: Vec<usize> = (0..full.shape().cells()).collect();
    rng.shuffle(&mut cells);
    let mut puzzle = full.clone();
    for &cell in &cells[..blanks] {
        puzzle.cells_mut()[cell] = 0;
    }
    puzzle
}

/// What one solver made of one puzzle.
struct Run {
    name: &'static str,
    outcome: Outcome,
    solution: Grid,
}

/// Every registered solver on `puzzle`, each with a fresh instance.
fn run_all(puzzle: &Grid, limit: u64, budget: impl Fn(&str) -> Budget) -> Vec<Run> {
    REGISTRY
        .iter()
        .map(|info| {
            let mut solver = (info.make)();
            let mut solution = Grid::empty(BoxShape::new(2, 2).unwrap());
            let outcome = solver.solve(puzzle, limit, budget(info.name), &mut solution);
            Run {
                name: info.name,
                outcome,
                solution,
            }
        })
        .collect()
}

/// Asserts that each run that found a solution returned a valid one that
/// keeps the clues, and that runs that finished within budget agree on the
/// count. Returns the agreed count.
fn assert_consistent(puzzle: &Grid, runs: &[Run]) -> u64 {
    let mut agreed = None;
    for run in runs {
        if run.outcome.solutions > 0 {
            assert!(
                is_solution_of(&run.solution, puzzle),
                "{}: returned a grid that is no solution",
                run.name
            );
        }
        if !run.outcome.budget_exceeded {
            let count = *agreed.get_or_insert(run.outcome.solutions);
            assert_eq!(count, run.outcome.solutions, "{} disagrees", run.name);
        }
        assert!(
            Some(run.outcome.guesses) <= run.outcome.nodes,
            "{}",
            run.name
        );
    }
    agreed.expect("at least one solver finished")
}

#[test]
fn registry_covers_the_solvers_with_unique_names() {
    let set = SolverSet::<Grid>::builtin();
    let names = set.names();
    for want in ["dlx", "dc", "naive", "heuristic", "singles", "locked"] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
        assert_eq!(set.by_name(want).unwrap().name(), want);
        assert!(!set.by_name(want).unwrap().description().is_empty());
    }
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    let error = set.by_name("nope").unwrap_err().to_string();
    assert_eq!(
        error,
        "unknown solver `nope` (known for sudoku: dlx, dc, heuristic, singles, locked, naive)"
    );
}

/// Gives up at once: a toy solver for the set's tests.
struct GiveUp;

impl Solver<Grid> for GiveUp {
    fn solve(&mut self, _: &Grid, _: u64, _: Budget, _: &mut Grid) -> Outcome {
        Outcome {
            budget_exceeded: true,
            ..Outcome::default()
        }
    }
}

#[test]
fn sets_take_new_entries_and_refuse_clashes() {
    let mut set = SolverSet::<Grid>::builtin();
    let toy = || SolverEntry::new("toy", "gives up", || Box::new(GiveUp));
    set.add(toy().with_default_budget(Budget::nodes(5)))
        .unwrap();
    assert_eq!(set.names().last(), Some(&"toy"));
    assert_eq!(
        set.by_name("toy").unwrap().default_budget(),
        Budget::nodes(5)
    );
    assert_eq!(set.add(toy()), Err(SolverSetError::Duplicate("toy".into())));
    for bad in ["", "a,b", "a b"] {
        let entry = SolverEntry::new(bad, "", || Box::new(GiveUp));
        assert_eq!(set.add(entry), Err(SolverSetError::BadName(bad.into())));
    }
    let picked = set.select(&[" toy".into(), "dlx".into()]).unwrap();
    let names: Vec<&str> = picked.iter().map(SolverEntry::name).collect();
    assert_eq!(names, ["toy", "dlx"]);
    assert_eq!(
        set.select(&["dlx".into(), "dlx".into()]).unwrap_err(),
        SolverSetError::Twice("dlx".into())
    );
    assert!(matches!(set.select(&[]), Err(SolverSetError::Empty(_))));
    let mut puzzle = Grid::empty(BoxShape::NINE);
    let outcome = picked[0]
        .make()
        .solve(&puzzle.clone(), 2, Budget::UNLIMITED, &mut puzzle);
    assert_eq!(outcome.status(2), Status::Budget);
}

#[test]
fn hard_puzzle_has_exactly_the_known_solution() {
    let puzzle = parse9(HARD);
    let expected = parse9(HARD_SOLUTION);
    for run in run_all(&puzzle, 2, |_| Budget::UNLIMITED) {
        assert_eq!(run.outcome.solutions, 1, "{}", run.name);
        assert_eq!(run.outcome.status(2), Status::Unique, "{}", run.name);
        assert!(!run.outcome.budget_exceeded, "{}", run.name);
        assert_eq!(run.solution, expected, "{}", run.name);
        // 63 cells to fill (18 clues): at least that many placements,
        // and a puzzle this hard needs guessing, unless locked candidates
        // crack it (they do, with exactly 63).
        assert!(run.outcome.nodes >= Some(63), "{}", run.name);
        assert!(
            run.outcome.guesses > 0 || run.name == "locked",
            "{}",
            run.name
        );
    }
}

#[test]
fn full_grid_is_its_own_solution() {
    let full = parse9(HARD_SOLUTION);
    // No placement needed, so even a zero budget suffices.
    for run in run_all(&full, 2, |_| Budget::nodes(0)) {
        assert_eq!(run.outcome.solutions, 1, "{}", run.name);
        assert_eq!(run.outcome.nodes, Some(0), "{}", run.name);
        assert!(!run.outcome.budget_exceeded, "{}", run.name);
        assert_eq!(run.solution, full, "{}", run.name);
    }
}

#[test]
fn every_size_from_4x4_to_25x25() {
    let mut rng = SplitMix::new(0x5EED_0001);
    // (box rows, box cols, cells to blank, naive's node budget)
    let cases = [
        (2, 2, 12, u64::MAX),
        (2, 3, 26, u64::MAX),
        (3, 2, 26, u64::MAX),
        (3, 3, 50, u64::MAX),
        (3, 4, 60, u64::MAX),
        (4, 4, 100, u64::MAX),
        (5, 5, 200, u64::MAX),
        // Harder: naive runs out of a budget here, dlx and heuristic agree.
        (4, 4, 140, 1_000_000),
    ];
    for (r, c, blanks, naive_budget) in cases {
        let shape = BoxShape::new(r, c).unwrap();
        for _ in 0..3 {
            let full = random_full(shape, &mut rng);
            let puzzle = blank_cells(&full, blanks, &mut rng);
            let budget = |name: &str| {
                if name == "naive" {
                    Budget::nodes(naive_budget)
                } else {
                    Budget::UNLIMITED
                }
            };
            let runs = run_all(&puzzle, 2, budget);
            let count = assert_consistent(&puzzle, &runs);
            assert!((1..=2).contains(&count), "{shape}: {count}");
            for run in &runs {
                // Only naive may run out, and only where it was given a budget.
                assert!(
                    !run.outcome.budget_exceeded || naive_budget != u64::MAX,
                    "{} on {shape}",
                    run.name
                );
                assert!(run.outcome.solutions > 0 || run.outcome.budget_exceeded);
            }
        }
    }
}

#[test]
fn an_81x81_grid_with_cells_blanked() {
    let shape = BoxShape::new(9, 9).unwrap();
    let mut rng = SplitMix::new(0x5EED_0081);
    let full = random_full(shape, &mut rng);
    let puzzle = blank_cells(&full, 120, &mut rng);
    let runs = run_all(&puzzle, 2, |_| Budget::nodes(10_000_000));
    let count = assert_consistent(&puzzle, &runs);
    assert!((1..=2).contains(&count));
    for run in &runs {
        assert!(!run.outcome.budget_exceeded, "{}", run.name);
        assert!(run.outcome.nodes >= Some(120), "{}", run.name);
    }
}

#[test]
fn multiple_solutions_are_capped_at_the_limit() {
    // The hard puzzle without its first four clues has more than one
    // solution.
    let mut puzzle = parse9(HARD);
    let mut removed = 0;
    for cell in puzzle.cells_mut() {
        if *cell != 0 && removed < 4 {
            *cell = 0;
            removed += 1;
        }
    }
    for run in run_all(&puzzle, 2, |_| Budget::UNLIMITED) {
        assert_eq!(run.outcome.solutions, 2, "{}", run.name);
        assert_eq!(run.outcome.status(2), Status::Multiple, "{}", run.name);
        assert!(is_solution_of(&run.solution, &puzzle), "{}", run.name);
    }
    // Limit 1 stops at the first.
    for run in run_all(&puzzle, 1, |_| Budget::UNLIMITED) {
        assert_eq!(run.outcome.solutions, 1, "{}", run.name);
        assert!(is_solution_of(&run.solution, &puzzle), "{}", run.name);
    }
}

#[test]
fn limit_zero_asks_for_nothing() {
    for run in run_all(&parse9(HARD), 0, |_| Budget::UNLIMITED) {
        let o = run.outcome;
        assert_eq!(
            (o.solutions, o.nodes, o.guesses, o.budget_exceeded),
            (0, Some(0), 0, false),
            "{}",
            run.name
        );
    }
}

#[test]
fn exact_counts_without_a_limit() {
    let shape = BoxShape::new(2, 2).unwrap();
    let empty = Grid::empty(shape);
    for run in run_all(&empty, u64::MAX, |_| Budget::UNLIMITED) {
        assert_eq!(run.outcome.solutions, 288, "{}", run.name);
        assert!(is_solution_of(&run.solution, &empty), "{}", run.name);
    }
    // One clue: by symmetry of relabelling, a quarter of them.
    let mut one = Grid::empty(shape);
    one.set(1, 2, 3);
    for run in run_all(&one, u64::MAX, |_| Budget::UNLIMITED) {
        assert_eq!(run.outcome.solutions, 72, "{}", run.name);
        assert_eq!(run.solution.get(1, 2), 3, "{}", run.name);
    }
    // Every solver agrees on a bigger exact count: a 6x6 with a full first
    // band of boxes.
    let mut rng = SplitMix::new(7);
    let full = random_full(BoxShape::new(2, 3).unwrap(), &mut rng);
    let mut band = full.clone();
    band.cells_mut()[12..].fill(0);
    let runs = run_all(&band, u64::MAX, |_| Budget::UNLIMITED);
    let count = assert_consistent(&band, &runs);
    assert!(count > 100, "{count}");
}

#[test]
fn no_solution_without_clashing_clues() {
    // Row 1 holds 1..8 and the 9 below its last cell rules out the only
    // symbol left for it.
    let shallow = parse9(
        "12345678.\
         ........9\
         .........\
         .........\
         .........\
         .........\
         .........\
         .........\
         .........",
    );
    // The hard puzzle with one extra clue that breaks no rule but differs
    // from the unique solution: only a deep search finds there is none.
    let hard = parse9(HARD);
    let expected = parse9(HARD_SOLUTION);
    let mut deep = hard.clone();
    let cell = deep.cells().iter().position(|&v| v == 0).unwrap();
    let wrong = (1..=9u8)
        .find(|&s| {
            let mut g = hard.clone();
            g.cells_mut()[cell] = s;
            s != expected.cells()[cell] && matches!(check(&g), Verdict::Incomplete { .. })
        })
        .unwrap();
    deep.cells_mut()[cell] = wrong;
    for puzzle in [shallow, deep] {
        assert!(matches!(check(&puzzle), Verdict::Incomplete { .. }));
        for run in run_all(&puzzle, 2, |_| Budget::UNLIMITED) {
            assert_eq!(run.outcome.solutions, 0, "{}", run.name);
            assert_eq!(run.outcome.status(2), Status::NoSolution, "{}", run.name);
        }
    }
}

#[test]
fn clashing_clues_give_no_solution() {
    let base = parse9(HARD);
    let mut puzzles = Vec::new();
    // Same row: the 2 of cell (0, 1) copied to cell (0, 0).
    let mut row = base.clone();
    row.set(0, 0, 2);
    puzzles.push(row);
    // Same column, far apart.
    let mut col = base.clone();
    col.set(0, 0, 4);
    col.set(8, 0, 4);
    puzzles.push(col);
    // Same box only.
    let mut bx = Grid::empty(BoxShape::NINE);
    bx.set(3, 3, 7);
    bx.set(5, 5, 7);
    puzzles.push(bx);
    // A clash between the last two cells of a 16x16.
    let mut big = Grid::empty(BoxShape::new(4, 4).unwrap());
    big.set(15, 14, 16);
    big.set(15, 15, 16);
    puzzles.push(big);
    // A clash in an otherwise complete grid.
    let mut full = parse9(HARD_SOLUTION);
    let v = full.get(4, 4);
    full.set(4, 5, v);
    puzzles.push(full);
    for puzzle in &puzzles {
        assert!(matches!(check(puzzle), Verdict::Invalid { .. }));
        for run in run_all(puzzle, 2, |_| Budget::UNLIMITED) {
            assert_eq!(run.outcome.solutions, 0, "{}", run.name);
            assert_eq!(run.outcome.status(2), Status::NoSolution, "{}", run.name);
            assert!(!run.outcome.budget_exceeded, "{}", run.name);
        }
    }
}

#[test]
fn budget_stops_the_search() {
    let puzzle = parse9(HARD);
    for run in run_all(&puzzle, 2, |_| Budget::nodes(10)) {
        assert!(run.outcome.budget_exceeded, "{}", run.name);
        assert_eq!(run.outcome.status(2), Status::Budget, "{}", run.name);
        assert_eq!(run.outcome.nodes, Some(10), "{}", run.name);
        assert_eq!(run.outcome.solutions, 0, "{}", run.name);
    }
    // Exactly the nodes an unbounded search needs is enough.
    for info in REGISTRY {
        let mut solver = (info.make)();
        let mut solution = puzzle.clone();
        let free = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
        let nodes = free.nodes.expect("built-in solvers count nodes");
        let exact = solver.solve(&puzzle, 2, Budget::nodes(nodes), &mut solution);
        assert_eq!(exact, free, "{}", info.name);
        let short = solver.solve(&puzzle, 2, Budget::nodes(nodes - 1), &mut solution);
        assert!(short.budget_exceeded, "{}", info.name);
        assert_eq!(short.nodes, Some(nodes - 1), "{}", info.name);
    }
}

#[test]
fn state_is_reused_without_leaking_between_puzzles() {
    let a = parse9(HARD);
    let mut rng = SplitMix::new(0x16);
    // 55 blanks: every solver needs more than 50 placements.
    let b = blank_cells(&random_full(BoxShape::NINE, &mut rng), 55, &mut rng);
    let shape16 = BoxShape::new(4, 4).unwrap();
    let full16 = random_full(shape16, &mut rng);
    let c = blank_cells(&full16, 100, &mut rng);
    let mut clash = a.clone();
    clash.set(0, 0, 2);
    for info in REGISTRY {
        let mut solver = (info.make)();
        let mut solution = Grid::empty(BoxShape::NINE);
        let mut go = |puzzle: &Grid, budget: Budget| {
            let outcome = solver.solve(puzzle, 2, budget, &mut solution);
            (outcome, solution.clone())
        };
        let first = go(&a, Budget::UNLIMITED);
        let cut = go(&b, Budget::nodes(50));
        assert!(cut.0.budget_exceeded, "{}", info.name);
        go(&b, Budget::UNLIMITED);
        go(&clash, Budget::UNLIMITED);
        assert_eq!(go(&a, Budget::UNLIMITED), first, "{}: A, B, A", info.name);
        let big = go(&c, Budget::nodes(20_000_000));
        assert_eq!(
            go(&a, Budget::UNLIMITED),
            first,
            "{}: 9x9 after 16x16",
            info.name
        );
        assert_eq!(
            go(&c, Budget::nodes(20_000_000)),
            big,
            "{}: 16x16 again",
            info.name
        );
        if big.0.solutions > 0 {
            assert!(is_solution_of(&big.1, &c), "{}", info.name);
        }
    }
}

#[test]
fn placement_by_undo_agrees_with_relinking() {
    use crate::exact_cover::{ColumnChoice, Dc, Dlx};
    // Dancing Links: the same lists either way, so the same search.
    placement_agrees::<Dlx>(ColumnChoice::MinimumRemaining, true);
    // Dancing cells: the same sets, in another order (covering a clue
    // permutes them, relinking rebuilds them in row order), so the same
    // solutions, and the same tree where the choice does not depend on the
    // order and the search runs to its end.
    placement_agrees::<Dc>(ColumnChoice::MinimumRemaining, false);
    placement_agrees::<Dc>(ColumnChoice::LowestIndex, false);
    placement_agrees::<Dc>(ColumnChoice::Forced, false);
    placement_agrees::<Dlx>(ColumnChoice::Forced, true);
}

/// The puzzles of the placement and engine tests: a hard 9x9, the same
/// with a clashing clue, and random ones of several shapes.
fn mixed_puzzles(seed: u64) -> Vec<Grid> {
    let mut rng = SplitMix::new(seed);
    let mut puzzles = vec![parse9(HARD)];
    let mut clash = parse9(HARD);
    clash.set(0, 0, 2);
    puzzles.push(clash);
    for (r, c, blanks) in [(2, 2, 12), (2, 3, 26), (3, 3, 50), (3, 3, 60), (3, 4, 70)] {
        let shape = BoxShape::new(r, c).unwrap();
        for _ in 0..5 {
            puzzles.push(blank_cells(&random_full(shape, &mut rng), blanks, &mut rng));
        }
    }
    puzzles
}

/// `Relink` and `Undo` on engine `E`: the same outcome (all of it when
/// `exact`, else the solutions, and the tree when the search ran to its
/// end under the lowest-index choice), and each the same outcome for a
/// puzzle whatever was solved before.
fn placement_agrees<E: crate::exact_cover::Engine + Send>(
    choice: crate::exact_cover::ColumnChoice,
    exact: bool,
) {
    use super::engine::{CoverSolver, Placement};
    let puzzles = mixed_puzzles(0x0d0);
    let mut relink = CoverSolver::<E>::with_choice(choice).with_placement(Placement::Relink);
    let mut undo = CoverSolver::<E>::with_choice(choice).with_placement(Placement::Undo);
    let (mut s1, mut s2) = (Grid::empty(BoxShape::NINE), Grid::empty(BoxShape::NINE));
    let mut firsts = Vec::new();
    let tree = |o: &Outcome| (o.solutions, o.nodes, o.updates, o.guesses);
    for (i, puzzle) in puzzles.iter().enumerate() {
        let a = relink.solve(puzzle, 2, Budget::UNLIMITED, &mut s1);
        let b = undo.solve(puzzle, 2, Budget::UNLIMITED, &mut s2);
        let at = format!("{:?} {choice:?}: {puzzle}", E::KIND);
        // Clashing clues included (both skip the row that clashes).
        if exact {
            assert_eq!(a, b, "{at}");
        } else if matches!(
            choice,
            crate::exact_cover::ColumnChoice::LowestIndex
                | crate::exact_cover::ColumnChoice::Forced
        ) && a.solutions < 2
        {
            assert_eq!(tree(&a), tree(&b), "{at}");
        } else {
            assert_eq!(a.solutions, b.solutions, "{at}");
        }
        if i == 1 {
            assert_eq!((a.solutions, a.nodes), (0, Some(0)));
        } else if exact || a.solutions == 1 {
            assert_eq!(s1, s2, "{at}");
        }
        for (o, s) in [(a, &s1), (b, &s2)] {
            if o.solutions > 0 {
                assert!(is_solution_of(s, puzzle), "{at}");
            }
        }
        // A search cut by its budget must leave nothing behind either.
        undo.solve(puzzle, 2, Budget::nodes(3), &mut s2);
        relink.solve(puzzle, 2, Budget::nodes(3), &mut s1);
        firsts.push((a, b));
    }
    // Second round, in reverse: each puzzle's outcome and statistics are
    // what they were, whatever was solved in between.
    for (puzzle, (a, b)) in puzzles.iter().zip(&firsts).rev() {
        assert_eq!(
            relink.solve(puzzle, 2, Budget::UNLIMITED, &mut s1),
            *a,
            "{puzzle}"
        );
        assert_eq!(
            undo.solve(puzzle, 2, Budget::UNLIMITED, &mut s2),
            *b,
            "{puzzle}"
        );
    }
}

/// Under the lowest-index choice and the forced-stack one `dlx` and `dc`
/// make the same tree: the same nodes, updates and guesses wherever the
/// search runs to its end (fewer solutions than the limit), and the same
/// count of solutions (up to the limit) everywhere.
#[test]
fn dc_and_dlx_make_the_same_tree_under_the_shared_choices() {
    use crate::exact_cover::ColumnChoice;
    same_tree_under(ColumnChoice::LowestIndex);
    same_tree_under(ColumnChoice::Forced);
}

fn same_tree_under(choice: crate::exact_cover::ColumnChoice) {
    use super::engine::CoverSolver;
    use crate::exact_cover::{Dc, Dlx};
    let mut dlx = CoverSolver::<Dlx>::with_choice(choice);
    let mut dc = CoverSolver::<Dc>::with_choice(choice);
    let (mut s1, mut s2) = (Grid::empty(BoxShape::NINE), Grid::empty(BoxShape::NINE));
    let mut rng = SplitMix::new(0xdc);
    let mut puzzles = mixed_puzzles(0xdc);
    // Many solutions: counted to the end under no limit.
    for (r, c, blanks) in [(2, 2, 16), (2, 3, 30), (3, 3, 58)] {
        let shape = BoxShape::new(r, c).unwrap();
        puzzles.push(blank_cells(&random_full(shape, &mut rng), blanks, &mut rng));
    }
    let (mut ended, mut most) = (0, 0);
    for puzzle in &puzzles {
        // Up to 100,000 solutions, not all: three of the 21-clue puzzles
        // have 1.4 to 1.9 million (17 to 26 million nodes each), which
        // took 97 of the unit tests' seconds. The trees still end below it
        // on 6,776 solutions and fewer.
        for limit in [2, 100_000] {
            let a = dlx.solve(puzzle, limit, Budget::UNLIMITED, &mut s1);
            let b = dc.solve(puzzle, limit, Budget::UNLIMITED, &mut s2);
            assert_eq!(a.solutions, b.solutions, "{puzzle}");
            if a.solutions < limit {
                let counts = |o: &Outcome| (o.nodes, o.updates, o.guesses);
                assert_eq!(
                    counts(&a),
                    counts(&b),
                    "{puzzle} (limit {limit}, {choice:?})"
                );
                ended += 1;
                most = most.max(a.solutions);
            }
            if b.solutions > 0 {
                assert!(is_solution_of(&s2, puzzle), "{puzzle}");
            }
        }
    }
    // Every search to 100,000 ends but the three's, one after thousands
    // of solutions.
    assert!(ended >= puzzles.len() - 3, "{ended}");
    assert!(most > 5000, "{most}");
    // Under their default choices each makes its own tree, with the same
    // counts of solutions.
    let (mut dlx, mut dc) = (dlx::DlxSolver::new(), dc::DcSolver::new());
    for puzzle in &puzzles {
        let a = dlx.solve(puzzle, 2, Budget::UNLIMITED, &mut s1);
        let b = dc.solve(puzzle, 2, Budget::UNLIMITED, &mut s2);
        assert_eq!(a.solutions, b.solutions, "{puzzle}");
    }
}

#[test]
fn heuristic_mask_widths_and_popcount_agree() {
    let mut rng = SplitMix::new(0xB175);
    let mut puzzles = vec![parse9(HARD)];
    for (r, c, blanks) in [(3, 3, 55), (4, 4, 110), (5, 6, 300)] {
        let shape = BoxShape::new(r, c).unwrap();
        puzzles.push(blank_cells(&random_full(shape, &mut rng), blanks, &mut rng));
    }
    let mut solver = heuristic::HeuristicSolver::new();
    let mut dlx = dlx::DlxSolver::new();
    let mut solution = Grid::empty(BoxShape::NINE);
    for puzzle in &puzzles {
        let reference = dlx.solve(puzzle, 2, Budget::UNLIMITED, &mut solution);
        // With and without minimum remaining values (heuristic, naive);
        // 9x9 grids on the dedicated core too.
        for mrv in [true, false] {
            let mut outcomes = Vec::new();
            let nine = puzzle.shape() == BoxShape::NINE;
            for width in [9, 32, 64, 128].into_iter().filter(|&w| w != 9 || nine) {
                for popcnt in [false, true] {
                    let o = solver.solve_with(
                        width,
                        popcnt,
                        mrv,
                        puzzle,
                        2,
                        Budget::UNLIMITED,
                        &mut solution,
                    );
                    assert!(is_solution_of(&solution, puzzle), "{width} {popcnt} {mrv}");
                    outcomes.push(o);
                }
            }
            assert_eq!(outcomes[0].solutions, reference.solutions);
            assert!(outcomes.iter().all(|o| *o == outcomes[0]), "{outcomes:?}");
        }
    }
    // Sides above 32 and 64 take the wider masks.
    let mut rng = SplitMix::new(0x36);
    for (r, c, blanks) in [(6, 6, 400), (8, 9, 600)] {
        let shape = BoxShape::new(r, c).unwrap();
        let puzzle = blank_cells(&random_full(shape, &mut rng), blanks, &mut rng);
        let reference = dlx.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
        let o = solver.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
        assert_eq!(o.solutions, reference.solutions, "{shape}");
        assert!(is_solution_of(&solution, &puzzle), "{shape}");
        let wide = solver.solve_with(
            128,
            true,
            true,
            &puzzle,
            2,
            Budget::UNLIMITED,
            &mut solution,
        );
        assert_eq!(wide, o, "{shape}");
    }
}

#[test]
fn the_9x9_core_and_the_generic_core_search_alike_under_budgets() {
    // Stopping at every node budget up to the whole search gives the same
    // outcome on both cores, for both cell orders.
    let puzzle = parse9(HARD);
    let mut solver = heuristic::HeuristicSolver::new();
    let mut solution = Grid::empty(BoxShape::NINE);
    for mrv in [true, false] {
        let full = solver.solve_with(9, true, mrv, &puzzle, 2, Budget::UNLIMITED, &mut solution);
        let total = full.nodes.unwrap();
        for max in (0..=total)
            .step_by((total as usize / 50).max(1))
            .chain([total - 1, total])
        {
            let budget = Budget::nodes(max);
            let nine = solver.solve_with(9, true, mrv, &puzzle, 2, budget, &mut solution);
            let generic = solver.solve_with(32, true, mrv, &puzzle, 2, budget, &mut solution);
            assert_eq!(nine, generic, "{mrv} {max}");
            assert_eq!(nine.budget_exceeded, max < total, "{mrv} {max}");
        }
    }
}

/// The node and guess counts of `heuristic` and `naive` on [`HARD`] (limit
/// 2), pinned: a change in either search shows here and in
/// `results/baseline`. `heuristic` follows tdoku's basic solver with its
/// minimum-remaining-values flag cell for cell (first cell of fewest
/// candidates from the front of the open cells, swapped to the front,
/// swaps never undone); `naive` is its reading order.
#[test]
fn heuristic_and_naive_node_counts_are_pinned() {
    let puzzle = parse9(HARD);
    let mut solution = Grid::empty(BoxShape::NINE);
    let mut heuristic = heuristic::HeuristicSolver::new();
    let o = heuristic.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
    assert_eq!(
        (o.solutions, o.nodes, o.guesses),
        (1, Some(HEURISTIC_HARD.0), HEURISTIC_HARD.1)
    );
    let mut naive = naive::NaiveSolver::new();
    let o = naive.solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
    assert_eq!(
        (o.solutions, o.nodes, o.guesses),
        (1, Some(NAIVE_HARD.0), NAIVE_HARD.1)
    );
}

const HEURISTIC_HARD: (u64, u64) = (27_710, 3_095);
const NAIVE_HARD: (u64, u64) = (1_809_560, 474_130);

/// `naive` as it was before it ran on the bitmask engine: validity by
/// scanning the row, column and box. Kept as the reference its node counts
/// must match at every size and budget.
fn scanning_naive(puzzle: &Grid, limit: u64, max_nodes: u64) -> (u64, u64, bool) {
    let shape = puzzle.shape();
    let n = shape.side();
    let mut grid = puzzle.cells().to_vec();
    let blanks: Vec<usize> = (0..n * n).filter(|&c| grid[c] == 0).collect();
    let fits = |grid: &[u8], cell: usize, symbol: u8| {
        let (row, col) = (cell / n, cell % n);
        let b = shape.box_of(row, col);
        let (br, bc) = (
            b / shape.box_rows() * shape.box_rows(),
            b % shape.box_rows() * shape.box_cols(),
        );
        (0..n).all(|i| {
            grid[row * n + i] != symbol
                && grid[i * n + col] != symbol
                && grid[(br + i / shape.box_cols()) * n + bc + i % shape.box_cols()] != symbol
        })
    };
    let (mut solutions, mut nodes, mut k) = (0, 0, 0usize);
    loop {
        if k == blanks.len() {
            solutions += 1;
            if solutions >= limit || k == 0 {
                return (solutions, nodes, false);
            }
            k -= 1;
            continue;
        }
        let cell = blanks[k];
        let previous = grid[cell];
        grid[cell] = 0;
        match (previous + 1..=n as u8).find(|&s| fits(&grid, cell, s)) {
            Some(s) => {
                if nodes == max_nodes {
                    return (solutions, nodes, true);
                }
                nodes += 1;
                grid[cell] = s;
                k += 1;
            }
            None if k == 0 => return (solutions, nodes, false),
            None => k -= 1,
        }
    }
}

#[test]
fn naive_searches_like_the_scanning_reference() {
    let mut rng = SplitMix::new(0x5CA7);
    let mut puzzles = vec![parse9(HARD)];
    for (r, c, blanks) in [
        (2, 2, 16),
        (2, 3, 30),
        (3, 3, 50),
        (3, 3, 81),
        (3, 4, 70),
        (4, 4, 90),
    ] {
        let shape = BoxShape::new(r, c).unwrap();
        puzzles.push(blank_cells(&random_full(shape, &mut rng), blanks, &mut rng));
    }
    let mut naive = naive::NaiveSolver::new();
    let mut solution = Grid::empty(BoxShape::NINE);
    for puzzle in &puzzles {
        for (limit, max_nodes) in [(2, 300_000), (1, 300_000), (u64::MAX, 5_000), (2, 37)] {
            let (solutions, nodes, over) = scanning_naive(puzzle, limit, max_nodes);
            let o = naive.solve(puzzle, limit, Budget::nodes(max_nodes), &mut solution);
            assert_eq!(
                (o.solutions, o.nodes, o.budget_exceeded),
                (solutions, Some(nodes), over),
                "{puzzle} limit {limit} budget {max_nodes}"
            );
        }
    }
}

/// Counts heap allocations made by the current thread, so a test can check
/// that solving allocates nothing once a solver has warmed up (tests run on
/// parallel threads; other threads' allocations are not counted).
mod alloc_count {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    fn bump() {
        // `try_with`: the slot may be gone while the thread shuts down.
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }

    struct Counting;

    // SAFETY: every call is forwarded unchanged to the system allocator.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            bump();
            System.alloc(layout)
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            bump();
            System.alloc_zeroed(layout)
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            bump();
            System.realloc(ptr, layout, new_size)
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            System.dealloc(ptr, layout)
        }
    }

    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// Allocations made by this thread so far.
    pub fn allocations() -> u64 {
        COUNT.with(|c| c.get())
    }
}

#[test]
fn warm_solvers_allocate_nothing() {
    let a = parse9(HARD);
    let mut cut = a.clone();
    cut.cells_mut()[0] = 0;
    let mut clash = a.clone();
    clash.set(0, 0, 2);
    let mut rng = SplitMix::new(0xA110C);
    let full16 = random_full(BoxShape::new(4, 4).unwrap(), &mut rng);
    let big = blank_cells(&full16, 100, &mut rng);
    let puzzles = [&big, &a, &cut, &clash, &full16];
    let undo: Box<dyn Solver<Grid>> =
        Box::new(dlx::DlxSolver::new().with_placement(dlx::Placement::Undo));
    let dc_undo: Box<dyn Solver<Grid>> =
        Box::new(dc::DcSolver::new().with_placement(dlx::Placement::Undo));
    let solvers = REGISTRY
        .iter()
        .map(|info| (info.name, (info.make)()))
        .chain([("dlx (undo)", undo), ("dc (undo)", dc_undo)]);
    for (name, mut solver) in solvers {
        let mut solution = Grid::empty(BoxShape::NINE);
        // Warm up on the largest size first: buffers then fit every puzzle.
        for p in puzzles {
            solver.solve(p, 2, Budget::UNLIMITED, &mut solution);
        }
        let before = alloc_count::allocations();
        for p in puzzles {
            for (limit, budget) in [(2, Budget::UNLIMITED), (u64::MAX, Budget::nodes(500))] {
                std::hint::black_box(solver.solve(p, limit, budget, &mut solution));
            }
        }
        let made = alloc_count::allocations() - before;
        assert_eq!(made, 0, "{name} allocated {made} times once warm");
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// A puzzle: a random full grid of a small shape (filled by the
    /// generator's randomised backtracking, so any valid grid can come up)
    /// with random cells blanked; 9x9 keeps at least 25 clues so naive
    /// stays quick.
    fn puzzle() -> impl Strategy<Value = Grid> {
        (0usize..4, any::<u64>(), any::<u64>(), 0.0f64..1.0).prop_map(
            |(kind, grid_seed, blank_seed, fraction)| {
                let (r, c) = [(2, 2), (2, 3), (3, 2), (3, 3)][kind];
                let shape = BoxShape::new(r, c).unwrap();
                let full = crate::sudoku::random_full_grid(shape, grid_seed).unwrap();
                assert_eq!(check(&full), Verdict::Complete, "{shape}");
                let cells = shape.cells();
                let most = if cells == 81 { 81 - 25 } else { cells };
                let blanks = (fraction * most as f64) as usize;
                blank_cells(&full, blanks, &mut SplitMix::new(blank_seed))
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Every solution, not only the first: the engine's visitor sees
        /// up to 50 of them on the Sudoku cover, each must be a distinct
        /// valid grid that keeps the clues, and every solver must count
        /// the same number with that limit.
        #[test]
        fn every_solution_is_valid_and_counts_agree(puzzle in puzzle()) {
            use crate::exact_cover::{Dlx, Engine, SearchOptions};
            use std::ops::ControlFlow;
            const LIMIT: u64 = 50;
            let shape = puzzle.shape();
            let mut dlx = Dlx::new(&shape.exact_cover());
            let clues: Vec<usize> = puzzle
                .cells()
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0)
                .map(|(cell, &v)| shape.cover_row(cell, v))
                .collect();
            prop_assert!(dlx.select_all(&clues));
            let mut seen: Vec<Grid> = Vec::new();
            let stats = dlx.search(SearchOptions::with_limit(LIMIT), |rows| {
                let mut grid = Grid::empty(shape);
                for &row in rows {
                    let (cell, symbol) = shape.placement(row);
                    grid.cells_mut()[cell] = symbol;
                }
                seen.push(grid);
                ControlFlow::Continue(())
            });
            prop_assert_eq!(stats.solutions, seen.len() as u64);
            for (i, grid) in seen.iter().enumerate() {
                prop_assert!(is_solution_of(grid, &puzzle), "solution {} is not one", i + 1);
                prop_assert!(!seen[..i].contains(grid), "solution {} repeats", i + 1);
            }
            // naive takes too long to enumerate 50 solutions of a sparse
            // 9x9; the others agree on every puzzle.
            let budget = |name: &str| if name == "naive" { Budget::nodes(2_000_000) } else { Budget::UNLIMITED };
            for run in run_all(&puzzle, LIMIT, budget) {
                if run.outcome.budget_exceeded {
                    prop_assert_eq!(run.name, "naive");
                    continue;
                }
                prop_assert_eq!(run.outcome.solutions, stats.solutions, "{}", run.name);
            }
        }

        #[test]
        fn solvers_agree_on_random_puzzles(puzzle in puzzle()) {
            let runs = run_all(&puzzle, 2, |_| Budget::UNLIMITED);
            let count = runs[0].outcome.solutions;
            prop_assert!((1..=2).contains(&count));
            for run in &runs {
                prop_assert!(!run.outcome.budget_exceeded);
                prop_assert_eq!(run.outcome.solutions, count, "{}", run.name);
                prop_assert!(is_solution_of(&run.solution, &puzzle), "{}", run.name);
            }
        }
    }
}

#[test]
fn locked_candidates_spare_the_guesses_of_singles() {
    // HARD needs guesses with naked and hidden singles alone; pointing and
    // claiming solve it outright.
    let puzzle = parse9(HARD);
    let mut solution = Grid::empty(BoxShape::NINE);
    let singles = singles::SinglesSolver::new().solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
    let locked = singles::SinglesSolver::with_locked_candidates().solve(
        &puzzle,
        2,
        Budget::UNLIMITED,
        &mut solution,
    );
    assert_eq!((singles.solutions, locked.solutions), (1, 1));
    assert!(singles.guesses > 0);
    assert_eq!((locked.guesses, locked.nodes), (0, Some(63)));
    assert_eq!(solution, parse9(HARD_SOLUTION));
    // Other box shapes, square and not: the same counts.
    let mut rng = SplitMix::new(0x10C);
    for (r, c, blanks) in [(2, 3, 24), (3, 4, 90), (4, 4, 150), (3, 5, 140)] {
        let shape = BoxShape::new(r, c).unwrap();
        let puzzle = blank_cells(&random_full(shape, &mut rng), blanks, &mut rng);
        let a = singles::SinglesSolver::new().solve(&puzzle, 2, Budget::UNLIMITED, &mut solution);
        let b = singles::SinglesSolver::with_locked_candidates().solve(
            &puzzle,
            2,
            Budget::UNLIMITED,
            &mut solution,
        );
        assert_eq!(a.solutions, b.solutions, "{shape}");
        assert!(is_solution_of(&solution, &puzzle), "{shape}");
    }
}
