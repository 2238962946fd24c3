//! Harness overhead: DLX over the same puzzles in a bare loop (pre-parsed
//! grids, one reused solver) and through `harness::run` on one thread
//! (chunking, parsing, timing, validation, statistics; no output files).
//!
//! Corpus: `$DLXBENCH_BENCH_CORPUS`, else `datasets/sudoku17_all_49158.txt`
//! if fetched, else the embedded generated corpus; the first 10,000 puzzles.
//!
//! ```text
//! cargo bench --bench harness
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};

use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, Config, Lineup};
use dlxbench::solvers::SolverSet;
use dlxbench::sudoku::{BoxShape, Grid};

const PUZZLES: usize = 10_000;

fn corpus_bytes() -> Vec<u8> {
    let path = std::env::var("DLXBENCH_BENCH_CORPUS")
        .unwrap_or_else(|_| "datasets/sudoku17_all_49158.txt".into());
    let all = std::fs::read(&path).unwrap_or_else(|_| dlxbench::datasets::DEFAULT_CORPUS.to_vec());
    let mut out = Vec::new();
    for line in all
        .split(|&b| b == b'\n')
        .filter(|l| l.len() == 81)
        .take(PUZZLES)
    {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

fn grid(line: &[u8]) -> Grid {
    let cells = line
        .iter()
        .map(|&b| if b.is_ascii_digit() { b - b'0' } else { 0 })
        .collect();
    Grid::from_cells(BoxShape::NINE, cells).unwrap()
}

fn overhead(c: &mut Criterion) {
    let bytes = corpus_bytes();
    let grids: Vec<Grid> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(grid)
        .collect();
    let dlx = SolverSet::<Grid>::builtin().by_name("dlx").unwrap().clone();
    let mut group = c.benchmark_group("dlx_over_corpus");
    group.sample_size(10);
    // The harness's budget (nodes and the time safety net), so that both
    // sides meter the search alike.
    let budget = dlx.default_budget();
    group.bench_function("bare_loop", |b| {
        let mut solution = Grid::empty(BoxShape::NINE);
        b.iter(|| {
            // A fresh solver per run, as the harness makes one per run.
            let mut solver = dlx.make();
            for g in &grids {
                black_box(solver.solve(g, 2, budget, &mut solution));
            }
        })
    });
    let corpus = Corpus::from_vec("bench", bytes.clone()).unwrap();
    let lineup = Lineup::new(vec![dlx]);
    let mut config = Config::new(&lineup);
    config.threads = 1;
    group.bench_function("harness_1_thread", |b| {
        b.iter(|| {
            let corpora = std::slice::from_ref(&corpus);
            black_box(harness::run(corpora, &config, &lineup, None, None).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, overhead);
criterion_main!(benches);
