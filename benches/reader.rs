//! The corpus reader: finding puzzle lines in a byte buffer and parsing
//! them into grids, in bytes per second. The throughput is declared as
//! `Throughput::BytesDecimal`, so criterion prints MB/s and GB/s (10^6 and
//! 10^9 bytes, like `bench --parse-only`) rather than MiB/s.
//!
//! The input is the embedded generated corpus repeated to about 8 MiB, held
//! in memory, so the figure is the scan-and-parse cost without disk I/O
//! (the `bench --parse-only` subcommand measures the same on a mapped file).
//!
//! ```text
//! cargo bench --bench reader
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use dlxbench::corpus::Corpus;
use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};

const TARGET_BYTES: usize = 8 << 20;

fn corpus() -> Corpus {
    let one = dlxbench::datasets::DEFAULT_CORPUS;
    let mut bytes = Vec::with_capacity(TARGET_BYTES + one.len());
    while bytes.len() < TARGET_BYTES {
        bytes.extend_from_slice(one);
    }
    Corpus::from_vec("reader-bench", bytes).expect("a non-empty corpus")
}

fn reader(c: &mut Criterion) {
    let corpus = corpus();
    let mut group = c.benchmark_group("reader");
    group.throughput(Throughput::BytesDecimal(corpus.bytes().len() as u64));
    group.sample_size(20);
    group.bench_function("scan", |b| {
        b.iter(|| corpus.all_lines().map(|l| l.text.len()).sum::<usize>())
    });
    group.bench_function("scan_and_parse", |b| {
        let mut grid = Grid::empty(BoxShape::NINE);
        b.iter(|| {
            let mut parsed = 0usize;
            for line in corpus.all_lines() {
                if sudoku::parse_line_into(line.text, ParseOptions::default(), &mut grid).is_ok() {
                    parsed += black_box(&grid).clues();
                }
            }
            parsed
        })
    });
    group.finish();
}

criterion_group!(benches, reader);
criterion_main!(benches);
