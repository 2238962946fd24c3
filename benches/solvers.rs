//! Single-thread solver benchmarks on real corpora, with the `dlx` crate
//! (0.8) as the reference Dancing Links implementation to beat.
//!
//! Every solver runs a uniqueness check (solution limit 2) on every puzzle of
//! the corpus; criterion reports time per corpus pass and, through its
//! throughput setting, puzzles per second. Corpora are read from
//! `datasets/` (fetch them with `dlxbench datasets fetch`), or from the
//! directory in `DLXBENCH_DATASETS`; a missing corpus skips its group.
//!
//! ```text
//! cargo bench --bench solvers                      # everything
//! cargo bench --bench solvers -- top1465           # one corpus
//! cargo bench --bench solvers -- --save-baseline main
//! ```

use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dlxbench::solvers::{self, Budget};
use dlxbench::sudoku::{BoxShape, Grid};

/// Node budget for `naive` (placements tried per puzzle).
const NAIVE_BUDGET: u64 = 1_000_000;

fn corpus_path(file: &str) -> Option<PathBuf> {
    let dirs = [
        std::env::var_os("DLXBENCH_DATASETS").map(PathBuf::from),
        Some(PathBuf::from("datasets")),
        Some(PathBuf::from("../shared/datasets")),
    ];
    dirs.into_iter()
        .flatten()
        .map(|d| d.join(file))
        .find(|p| p.is_file())
}

fn load(file: &str) -> Option<Vec<Grid>> {
    let path = corpus_path(file)?;
    let text = std::fs::read_to_string(&path).ok()?;
    let grids = text
        .lines()
        .map(str::trim)
        .filter(|l| l.len() == 81 && !l.starts_with('#'))
        .map(|l| {
            let cells = l
                .bytes()
                .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
                .collect();
            Grid::from_cells(BoxShape::NINE, cells).expect("81 cells")
        })
        .collect();
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
    // Number the open constraints (items) densely.
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
    for u in 0..9 {
        for d in 0..9 {
            open(81 + u * 9 + d, row_used[u][d]);
            open(162 + u * 9 + d, col_used[u][d]);
            open(243 + u * 9 + d, box_used[u][d]);
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

fn bench_corpus(c: &mut Criterion, name: &str, file: &str, with_naive: bool) {
    let Some(puzzles) = load(file) else {
        eprintln!("skipping {name}: {file} not found (run `dlxbench datasets fetch`)");
        return;
    };
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));

    for info in solvers::REGISTRY {
        let budget = match info.name {
            "naive" if !with_naive => continue,
            "naive" => Budget::nodes(NAIVE_BUDGET),
            _ => Budget::UNLIMITED,
        };
        group.bench_function(BenchmarkId::from_parameter(info.name), |b| {
            let mut solver = (info.make)();
            let mut solution = Grid::empty(BoxShape::NINE);
            b.iter(|| {
                let mut total = 0;
                for p in &puzzles {
                    total += solver
                        .solve(black_box(p), 2, budget, &mut solution)
                        .solutions;
                }
                total
            })
        });
    }
    group.bench_function(BenchmarkId::from_parameter("dlx-crate-0.8"), |b| {
        b.iter(|| {
            puzzles
                .iter()
                .map(|p| dlx_crate_count(black_box(p), 2))
                .sum::<u64>()
        })
    });
    group.finish();
}

fn corpora(c: &mut Criterion) {
    bench_corpus(c, "top1465", "magictour_top1465.txt", true);
    bench_corpus(c, "sudoku17", "sudoku17_all_49158.txt", false);
}

criterion_group!(benches, corpora);
criterion_main!(benches);
