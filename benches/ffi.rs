//! The cost of calling the built-in solvers through the C interface
//! (`libdlxbench.so`, built here by Cargo in this bench's target directory
//! and profile) against calling them directly.
//!
//! For each solver, one iteration is a uniqueness check (limit 2) of each
//! of the first 100 puzzles of the embedded generated corpus, three ways:
//!
//! | bench | what is called |
//! |---|---|
//! | `builtin` | [`Solver::solve`] on a parsed grid, in this process |
//! | `c-call` | the exported function through its pointer, on the puzzle's 81 characters |
//! | `loader` | the loaded solver as the harness drives it (`solvers::foreign`: the grid encoded to 81 characters, the call, the solution decoded) |
//!
//! `call/limit-0` is the cost of the call alone: an exported function
//! given limit 0 reads its input and returns without searching.
//!
//! ```text
//! cargo bench --bench ffi
//! ```

#[path = "../tests/it/common/ffi_build.rs"]
mod ffi_build;

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dlxbench::ffi::Export;
use dlxbench::solvers::foreign::{self, LibrarySpec, SolveFn};
use dlxbench::solvers::Budget;
use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};

/// Puzzles per iteration.
const PUZZLES: usize = 100;

/// The first [`PUZZLES`] puzzles of the embedded corpus, as grids and as
/// the interface's 81 characters.
fn puzzles() -> Vec<(Grid, [u8; 81])> {
    std::str::from_utf8(dlxbench::datasets::DEFAULT_CORPUS)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(PUZZLES)
        .map(|line| {
            let mut grid = Grid::empty(BoxShape::NINE);
            sudoku::parse_line_into(line.as_bytes(), ParseOptions::default(), &mut grid).unwrap();
            let text: [u8; 81] = line.as_bytes().try_into().unwrap();
            (grid, text)
        })
        .collect()
}

fn spec(export: Export) -> LibrarySpec {
    LibrarySpec {
        path: ffi_build::libdlxbench().to_path_buf(),
        symbol: export.symbol().to_string(),
        flags: 0,
        name: export.solver_name().to_string(),
        count_only: false,
    }
}

fn ffi(c: &mut Criterion) {
    let puzzles = puzzles();
    let library = ffi_build::libdlxbench();
    // SAFETY: our own library, whose initialisers are Rust's.
    let lib = unsafe { libloading::Library::new(library) }.unwrap();
    for export in Export::ALL {
        let info = export.info().unwrap();
        // SAFETY: the symbol is a function of the interface's signature.
        let function: SolveFn = unsafe { *lib.get::<SolveFn>(export.symbol().as_bytes()).unwrap() };
        let mut group = c.benchmark_group(export.solver_name());
        group.throughput(Throughput::Elements(PUZZLES as u64));
        group.measurement_time(Duration::from_secs(3));
        group.warm_up_time(Duration::from_secs(1));

        let mut builtin = (info.make)();
        let mut solution = Grid::empty(BoxShape::NINE);
        group.bench_function(BenchmarkId::from_parameter("builtin"), |b| {
            b.iter(|| {
                let mut found = 0;
                for (grid, _) in &puzzles {
                    found += builtin
                        .solve(black_box(grid), 2, info.default_budget, &mut solution)
                        .solutions;
                }
                found
            })
        });

        let mut out = [0u8; 82];
        group.bench_function(BenchmarkId::from_parameter("c-call"), |b| {
            b.iter(|| {
                let mut found = 0;
                for (_, text) in &puzzles {
                    let mut guesses = 0usize;
                    // SAFETY: 81 bytes in, 82 out, a counter.
                    found += unsafe {
                        function(
                            black_box(text).as_ptr().cast(),
                            2,
                            0,
                            out.as_mut_ptr().cast(),
                            &mut guesses,
                        )
                    };
                }
                found
            })
        });

        let mut loaded = foreign::load::<Grid>(&spec(export)).unwrap().make();
        group.bench_function(BenchmarkId::from_parameter("loader"), |b| {
            b.iter(|| {
                let mut found = 0;
                for (grid, _) in &puzzles {
                    found += loaded
                        .solve(black_box(grid), 2, Budget::UNLIMITED, &mut solution)
                        .solutions;
                }
                found
            })
        });
        group.finish();
    }

    // The call alone: limit 0 returns before any search.
    // SAFETY: as above.
    let function: SolveFn = unsafe { *lib.get::<SolveFn>(b"dlxbench_dlx").unwrap() };
    let text = puzzles[0].1;
    let mut out = [0u8; 82];
    c.bench_function("call/limit-0", |b| {
        b.iter(|| {
            let mut guesses = 0usize;
            // SAFETY: 81 bytes in, 82 out, a counter.
            unsafe {
                function(
                    black_box(&text).as_ptr().cast(),
                    black_box(0),
                    0,
                    out.as_mut_ptr().cast(),
                    &mut guesses,
                )
            }
        })
    });
}

criterion_group!(benches, ffi);
criterion_main!(benches);
