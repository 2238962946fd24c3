//! Single-thread solver benchmarks, with the `dlx` crate (0.8) as the
//! reference Dancing Links implementation to beat on 9x9.
//!
//! Every solver runs a uniqueness check (solution limit 2) on every puzzle of
//! a fixed corpus; one criterion iteration is one pass over the corpus, and
//! the throughput setting makes criterion report puzzles per second.
//!
//! | group | corpus | needs |
//! |---|---|---|
//! | `top1465_first100` | first 100 puzzles of top1465 | fetched corpora |
//! | `sudoku17_first1000` | first 1,000 of the 49,158 17-clue puzzles | fetched corpora |
//! | `generated_16x16` | the committed `datasets/generated/gen_16x16_200.txt` | nothing |
//! | `top1465`, `sudoku17` | the whole corpora (`DLXBENCH_BENCH_FULL=1`) | fetched corpora |
//!
//! Corpora are read from `$DLXBENCH_DATASETS`, `datasets/` (fetch them with
//! `dlxbench datasets fetch`) or `../shared/datasets`; a missing corpus
//! skips its group with a message. `naive` runs with a node budget of
//! 1,000,000 on the first 100 of top1465 only (a pass over all of top1465
//! takes it most of a minute; on 17-clue puzzles most exceed any budget
//! worth waiting for); `heuristic` is left out of the full 17-clue group
//! (about 3 ms a puzzle: criterion's 10 passes would take half an hour)
//! and of the 16x16 group (seconds per uniqueness proof); the `dlx` crate
//! runs on 9x9 only. `dlx-undo` is the `dlx` solver placing clues by
//! Knuth's undo rather than by relinking the lists
//! (`sudoku::solvers::dlx::Placement`). `dlx-lowest` and `dc-lowest` are
//! `dlx` and `dc` under the lowest-index column choice, in which both
//! engines explore the same tree: the two data structures alone;
//! `dlx-forced` and `dc-forced` the same under the forced-column choice
//! (`ColumnChoice::Forced`, `dc`'s own), again one tree for both.
//!
//! ```text
//! cargo bench --bench solvers                              # small corpora
//! DLXBENCH_BENCH_FULL=1 cargo bench --bench solvers -- '^(top1465|sudoku17)/'
//! cargo bench --bench solvers -- --save-baseline main      # then, on a branch:
//! cargo bench --bench solvers -- --baseline main
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use dlxbench::exact_cover::{ColumnChoice, Dc, Dlx};
use dlxbench::solvers::{Budget, Solver};
use dlxbench::sudoku::solvers;
use dlxbench::sudoku::solvers::dlx::{DlxSolver, Placement};
use dlxbench::sudoku::solvers::engine::CoverSolver;
use dlxbench::sudoku::{self, Grid, ParseOptions};

/// Node budget for `naive` (placements tried per puzzle).
const NAIVE_BUDGET: u64 = 1_000_000;

fn corpus_path(file: &str) -> Option<PathBuf> {
    let dirs = [
        std::env::var_os("DLXBENCH_DATASETS").map(PathBuf::from),
        Some(PathBuf::from("datasets")),
        Some(PathBuf::from("datasets/generated")),
        Some(PathBuf::from("../shared/datasets")),
    ];
    dirs.into_iter()
        .flatten()
        .map(|d| d.join(file))
        .find(|p| p.is_file())
}

/// The first `limit` puzzles of a corpus file, parsed by the library.
fn load(file: &str, limit: usize) -> Option<Vec<Grid>> {
    let path = corpus_path(file)?;
    let text = std::fs::read(&path).ok()?;
    let mut grids = Vec::new();
    for (number, line) in text.split(|&b| b == b'\n').enumerate() {
        if grids.len() == limit {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) || line.first() == Some(&b'#') {
            continue;
        }
        let mut grid = Grid::empty(sudoku::BoxShape::NINE);
        match sudoku::parse_line_into(line, ParseOptions::default(), &mut grid) {
            Ok(()) => grids.push(grid),
            Err(e) => panic!("{}:{}: {e}", path.display(), number + 1),
        }
    }
    Some(grids)
}

/// The `dlx` crate, driven as its Sudoku example does: per puzzle, a matrix
/// of the candidates and constraints the clues leave open, MRV chooser,
/// counting solutions up to `limit`.
fn dlx_crate_count(puzzle: &Grid, limit: u64) -> u64 {
    use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
    use dlx::x::make_problem;
    use dlx::{OptOrder, Solver};

    let cells = puzzle.cells();
    // Which constraints the clues already satisfy.
    let mut row_used = [[false; 9]; 9];
    let mut col_used = [[false; 9]; 9];
    let mut box_used = [[false; 9]; 9];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let (r, c, d) = (i / 9, i % 9, v as usize - 1);
            row_used[r][d] = true;
            col_used[c][d] = true;
            box_used[(r / 3) * 3 + c / 3][d] = true;
        }
    }
    // Number the open constraints (items) densely, in the example's order:
    // all cells, then all row-digit, column-digit and box-digit items. The
    // crate's MRV takes the first shortest item, so this order decides its
    // ties and with them its search tree.
    let mut items: HashMap<usize, u64> = HashMap::new();
    let mut open = |key: usize, used: bool| {
        if !used {
            let n = items.len() as u64;
            items.insert(key, n);
        }
    };
    for (i, &v) in cells.iter().enumerate() {
        open(i, v != 0);
    }
    for (family, used) in [&row_used, &col_used, &box_used].into_iter().enumerate() {
        for (u, digits) in used.iter().enumerate() {
            for (d, &taken) in digits.iter().enumerate() {
                open(81 * (family + 1) + u * 9 + d, taken);
            }
        }
    }
    let mut options = Vec::new();
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            continue;
        }
        let (r, c) = (i / 9, i % 9);
        let b = (r / 3) * 3 + c / 3;
        for d in 0..9 {
            if !row_used[r][d] && !col_used[c][d] && !box_used[b][d] {
                options.push(vec![
                    items[&i],
                    items[&(81 + r * 9 + d)],
                    items[&(162 + c * 9 + d)],
                    items[&(243 + b * 9 + d)],
                ]);
            }
        }
    }
    if items.is_empty() {
        return 1; // a full grid
    }
    let mut problem = make_problem(items.len() as u64, 0, &options, OptOrder::Seq);
    let mut solver = Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut found = 0;
    while found < limit && solver.next_solution(&mut chooser) {
        found += 1;
    }
    found
}

/// Which solvers a group runs.
#[derive(Clone, Copy)]
struct Lineup {
    naive: bool,
    heuristic: bool,
    dlx_crate: bool,
}

/// One benchmark: `solver` over every puzzle, limit 2, per iteration.
fn bench_solver(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: &str,
    mut solver: Box<dyn Solver<Grid>>,
    puzzles: &[Grid],
    budget: Budget,
) {
    let mut solution = Grid::empty(puzzles[0].shape());
    group.bench_function(BenchmarkId::from_parameter(id), |b| {
        b.iter(|| {
            let mut total = 0;
            for p in puzzles {
                total += solver
                    .solve(black_box(p), 2, budget, &mut solution)
                    .solutions;
            }
            total
        })
    });
}

fn bench_corpus(c: &mut Criterion, name: &str, file: &str, limit: usize, lineup: Lineup) {
    let Some(puzzles) = load(file, limit) else {
        eprintln!("skipping {name}: {file} not found (run `dlxbench datasets fetch`)");
        return;
    };
    let shape = puzzles[0].shape();
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));

    // The `dlx` crate runs right after `dlx`, so that the ratio the target
    // is about compares two measurements a few seconds apart: this shared
    // machine's speed drifts by tens of percent over minutes.
    for info in solvers::REGISTRY {
        let budget = match info.name {
            "naive" if !lineup.naive => continue,
            "heuristic" if !lineup.heuristic => continue,
            "naive" => Budget::nodes(NAIVE_BUDGET),
            _ => Budget::UNLIMITED,
        };
        bench_solver(&mut group, info.name, (info.make)(), &puzzles, budget);
        if info.name == "dlx" && lineup.dlx_crate && shape.side() == 9 {
            // Both sides must do the same work: equal capped counts on every
            // puzzle (checked once, outside the timed passes).
            let mut solver = (info.make)();
            let mut solution = Grid::empty(shape);
            for (i, p) in puzzles.iter().enumerate() {
                let ours = solver.solve(p, 2, budget, &mut solution).solutions;
                let theirs = dlx_crate_count(p, 2);
                assert_eq!(
                    ours,
                    theirs,
                    "{name}: puzzle {}: dlx and the dlx crate disagree",
                    i + 1
                );
            }
            group.bench_function(BenchmarkId::from_parameter("dlx-crate-0.8"), |b| {
                b.iter(|| {
                    puzzles
                        .iter()
                        .map(|p| dlx_crate_count(black_box(p), 2))
                        .sum::<u64>()
                })
            });
        }
        if info.name == "dlx" {
            // The same engine placing clues by undo instead of by
            // relinking (see `sudoku::solvers::dlx::Placement`).
            let undo = DlxSolver::new().with_placement(Placement::Undo);
            bench_solver(&mut group, "dlx-undo", Box::new(undo), &puzzles, budget);
        }
        if info.name == "dc" {
            // Both engines in the same search tree: under the lowest-index
            // choice (their data structures alone, in a slow tree) and
            // under the forced-column choice (the same, in the fast tree
            // that `dc` ships with).
            let same: [(&str, Box<dyn Solver<Grid>>); 4] = [
                (
                    "dlx-lowest",
                    Box::new(CoverSolver::<Dlx>::with_choice(ColumnChoice::LowestIndex)),
                ),
                (
                    "dc-lowest",
                    Box::new(CoverSolver::<Dc>::with_choice(ColumnChoice::LowestIndex)),
                ),
                (
                    "dlx-forced",
                    Box::new(CoverSolver::<Dlx>::with_choice(ColumnChoice::Forced)),
                ),
                (
                    "dc-forced",
                    Box::new(CoverSolver::<Dc>::with_choice(ColumnChoice::Forced)),
                ),
            ];
            for (label, solver) in same {
                bench_solver(&mut group, label, solver, &puzzles, budget);
            }
        }
    }
    group.finish();
}

fn corpora(c: &mut Criterion) {
    let all = Lineup {
        naive: true,
        heuristic: true,
        dlx_crate: true,
    };
    let no_naive = Lineup {
        naive: false,
        ..all
    };
    bench_corpus(c, "top1465_first100", "magictour_top1465.txt", 100, all);
    bench_corpus(
        c,
        "sudoku17_first1000",
        "sudoku17_all_49158.txt",
        1000,
        no_naive,
    );
    let dlx_only = Lineup {
        heuristic: false,
        ..no_naive
    };
    bench_corpus(
        c,
        "generated_16x16",
        "gen_16x16_200.txt",
        usize::MAX,
        dlx_only,
    );
    if std::env::var_os("DLXBENCH_BENCH_FULL").is_some() {
        bench_corpus(c, "top1465", "magictour_top1465.txt", usize::MAX, no_naive);
        bench_corpus(
            c,
            "sudoku17",
            "sudoku17_all_49158.txt",
            usize::MAX,
            dlx_only,
        );
    }
}

criterion_group!(benches, corpora);
criterion_main!(benches);
