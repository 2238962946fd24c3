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
//!
//! (`cargo test --bench harness` runs each criterion function once, as a
//! test, and skips the paired measurement.)
//!
//! Two measurements taken one after the other carry the machine's drift
//! in their difference, and on a shared machine that drift is as large as
//! the overhead. So before criterion's two groups, a paired measurement:
//! [`ROUNDS`] rounds, each timing one bare pass and one harness pass over
//! the same puzzles back to back, in alternating order; a process's
//! overhead is the median of the rounds' ratios, with its 95% confidence
//! interval (distribution-free: the order statistics a binomial count puts
//! around the middle rank), and beside it the fastest harness pass over the
//! fastest bare pass (a shared machine's interference only ever adds time,
//! so each side's fastest pass is its least disturbed one). Then the same
//! for the two steps from the bare loop towards the harness that any
//! harness must take: timing each solve, then also validating each
//! solution. What remains between those and the harness is its own
//! plumbing (finding and parsing lines, records, statistics).
//!
//! Instructions rather than time: with `DLXBENCH_BENCH_PASSES=bare:N` (or
//! `harness:N`) the bench calibrates the clock, then makes N passes of that
//! side in `counted_passes` and nothing else, to run under `valgrind
//! --tool=callgrind --collect-atstart=no --toggle-collect='*counted_passes*'
//! --toggle-collect='*StackJob*execute*'` (the second for the harness's
//! worker thread, whose job is a rayon `StackJob`). Only the passes are
//! counted: not the set-up, nor the clock's calibration, a loop bounded by
//! time whose count valgrind's slowness makes vary. N+1 passes minus N is
//! one pass, without first-pass costs.
//!
//! On Linux the bench first pins itself to the CPU it started on, and the
//! harness's worker thread inherits that: otherwise the bare loop (on the
//! main thread) and the harness (on a worker thread) may run on different
//! cores, which a shared machine's other tenants slow down unequally.
//!
//! One process's ratio is not the overhead either: within a process the
//! rounds agree closely, but two processes differ by more than their
//! confidence intervals (medians of 1.023 and 0.997 in two runs a minute
//! apart), most likely because where the solver's arena, the grids and the
//! harness's buffers land in memory (and so in the caches' sets) changes
//! from process to process and stays put within one. So the paired
//! measurement runs in
//! [`PROCESSES`] fresh processes one after the other (the bench runs itself
//! again, `DLXBENCH_BENCH_PROCESSES=N` to change how many) and reports the
//! median of their medians, with each process's, as layout-randomising
//! benchmark methods do (Mytkowicz et al., "Producing Wrong Data Without
//! Doing Anything Obviously Wrong!", ASPLOS 2009).

use std::hint::black_box;
use std::time::Instant;

use criterion::{criterion_group, Criterion};

use dlxbench::compare::bootstrap::quantile;
use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, Lineup};
use dlxbench::solvers::{SolverEntry, SolverSet};
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

/// Rounds of the paired measurement, per process.
const ROUNDS: usize = 51;

/// Processes of the paired measurement (see the module docs).
const PROCESSES: usize = 5;

/// Set in the processes the paired measurement runs in.
const CHILD: &str = "DLXBENCH_BENCH_PAIRED_CHILD";

/// The 95% confidence interval of the median of `sorted`, without
/// assuming a distribution: the ranks `n/2 ± 0.98 √n` (a binomial count's
/// 1.96 standard deviations around the middle).
fn median_interval(sorted: &[f64]) -> (f64, f64) {
    let n = sorted.len() as f64;
    let j = ((n - 1.96 * n.sqrt()) / 2.0).floor().max(0.0) as usize;
    (sorted[j], sorted[sorted.len() - 1 - j])
}

/// Pins this thread, and every thread it creates from now on, to the CPU
/// it runs on (Linux only; elsewhere nothing). Returns that CPU.
fn pin_to_current_cpu() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on this thread's own affinity, with a
        // zeroed set of the size the call is told.
        unsafe {
            let cpu = usize::try_from(libc::sched_getcpu()).ok()?;
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            let size = std::mem::size_of::<libc::cpu_set_t>();
            (libc::sched_setaffinity(0, size, &set) == 0).then_some(cpu)
        }
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The puzzles, as text and as grids.
fn puzzles() -> (Vec<u8>, Vec<Grid>) {
    let bytes = corpus_bytes();
    let grids: Vec<Grid> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(grid)
        .collect();
    (bytes, grids)
}

/// What every measurement here runs: the puzzles as grids and as a
/// corpus, `dlx`, and the harness configured for one thread.
struct Setup {
    grids: Vec<Grid>,
    dlx: SolverEntry<Grid>,
    corpus: Corpus,
    setup: harness::Setup<Grid>,
}

impl Setup {
    fn new() -> Self {
        let (bytes, grids) = puzzles();
        let dlx = SolverSet::<Grid>::builtin().by_name("dlx").unwrap().clone();
        let corpus = Corpus::from_vec("bench", bytes).unwrap();
        let lineup = Lineup::new(vec![dlx.clone()]);
        let mut setup = harness::Setup::new(lineup);
        setup.config_mut().threads = 1;
        Setup {
            grids,
            dlx,
            corpus,
            setup,
        }
    }

    /// One pass of the harness over the corpus.
    fn harness_pass(&self) {
        let corpora = std::slice::from_ref(&self.corpus);
        black_box(harness::run(corpora, &self.setup, None, None).unwrap());
    }
}

/// One bare pass: a fresh solver (the harness makes one per run), every
/// grid solved within the harness's budget (nodes and the time safety net,
/// so that both sides meter the search alike).
fn bare_pass(dlx: &SolverEntry<Grid>, grids: &[Grid], solution: &mut Grid) {
    let budget = dlx.default_budget();
    let mut solver = dlx.make();
    for g in grids {
        black_box(solver.solve(g, 2, budget, solution));
    }
}

/// The bare pass plus what no harness can skip: each solve timed as the
/// harness times it (two clock reads), and, with `validate`, its solution
/// checked as the harness checks it. The steps from the bare loop to the
/// harness, so that its overhead can be told apart.
fn timed_pass(dlx: &SolverEntry<Grid>, grids: &[Grid], solution: &mut Grid, validate: bool) {
    let budget = dlx.default_budget();
    let mut solver = dlx.make();
    let (mut total, mut valid) = (0u128, 0usize);
    for g in grids {
        let (out, took) = solver.solve_timed(g, 2, budget, solution);
        total += took.as_nanos();
        if validate {
            valid += usize::from(dlxbench::sudoku::is_solution_of(solution, g));
        }
        black_box(out);
    }
    black_box((total, valid));
}

/// One process's paired measurement of a candidate against the bare loop.
struct Paired {
    /// Median of the rounds' ratios, with its 95% confidence interval.
    median: f64,
    low: f64,
    high: f64,
    /// The fastest candidate pass over the fastest bare pass.
    fastest: f64,
}

impl Paired {
    /// The line a child process prints for its parent.
    fn to_line(&self, name: &str) -> String {
        format!(
            "{CHILD} {name} {} {} {} {}",
            self.median, self.low, self.high, self.fastest
        )
    }

    /// Reads a [`Paired::to_line`] line: the name and the measurement.
    fn from_line(line: &str) -> Option<(String, Paired)> {
        let mut words = line.strip_prefix(CHILD)?.split_whitespace();
        let name = words.next()?.to_string();
        let mut number = || words.next()?.parse::<f64>().ok();
        let paired = Paired {
            median: number()?,
            low: number()?,
            high: number()?,
            fastest: number()?,
        };
        Some((name, paired))
    }
}

/// The paired measurement of `candidate` against the bare loop: [`ROUNDS`]
/// rounds of one pass each, back to back in alternating order; the median
/// of the rounds' ratios and the fastest candidate pass over the fastest
/// bare pass.
fn paired(setup: &Setup, candidate: &mut dyn FnMut()) -> Paired {
    let mut solution = Grid::empty(BoxShape::NINE);
    let mut bare = || bare_pass(&setup.dlx, &setup.grids, &mut solution);
    // One of each first, untimed: page faults, pool start-up.
    bare();
    candidate();
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let mut ratios = Vec::with_capacity(ROUNDS);
    let (mut fastest_bare, mut fastest) = (f64::INFINITY, f64::INFINITY);
    for round in 0..ROUNDS {
        let (b, c) = if round % 2 == 0 {
            let b = time(&mut bare);
            (b, time(candidate))
        } else {
            let c = time(candidate);
            (time(&mut bare), c)
        };
        ratios.push(c / b);
        fastest_bare = fastest_bare.min(b);
        fastest = fastest.min(c);
    }
    ratios.sort_unstable_by(f64::total_cmp);
    let (low, high) = median_interval(&ratios);
    Paired {
        median: quantile(&ratios, 0.5),
        low,
        high,
        fastest: fastest / fastest_bare,
    }
}

/// What the paired measurement sets against the bare loop.
#[derive(Debug, Clone, Copy)]
enum Candidate {
    Harness,
    Timed,
    TimedValidated,
}

impl Candidate {
    const ALL: [Candidate; 3] = [
        Candidate::Harness,
        Candidate::Timed,
        Candidate::TimedValidated,
    ];

    /// The name printed, as criterion would.
    fn name(self) -> &'static str {
        match self {
            Candidate::Harness => "paired",
            Candidate::Timed => "paired_timed",
            Candidate::TimedValidated => "paired_timed_validated",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Candidate::Harness => "harness",
            Candidate::Timed => "bare loop timing each solve",
            Candidate::TimedValidated => "bare loop timing and validating each solve",
        }
    }

    /// One pass of the candidate over the puzzles.
    fn pass(self, setup: &Setup, solution: &mut Grid) {
        match self {
            Candidate::Harness => setup.harness_pass(),
            Candidate::Timed => timed_pass(&setup.dlx, &setup.grids, solution, false),
            Candidate::TimedValidated => timed_pass(&setup.dlx, &setup.grids, solution, true),
        }
    }
}

/// In a child process: the paired measurements of the harness and of the
/// two steps towards it, printed for the parent.
fn paired_child() {
    let cpu = pin_to_current_cpu();
    let setup = Setup::new();
    let mut solution = Grid::empty(BoxShape::NINE);
    for candidate in Candidate::ALL {
        let measured = paired(&setup, &mut || candidate.pass(&setup, &mut solution));
        println!("{}", measured.to_line(candidate.name()));
    }
    let pinned = cpu.map_or("not pinned".to_string(), |cpu| {
        format!("pinned to CPU {cpu}")
    });
    println!("{CHILD} {} puzzles, {pinned}", setup.grids.len());
}

/// The paired measurements, each in `processes` fresh processes one after
/// the other: per candidate, the median of the processes' medians, their
/// range, and each process's median with its confidence interval.
fn paired_all(processes: usize) {
    let exe = std::env::current_exe().expect("the bench's own executable");
    let mut by_candidate: Vec<Vec<Paired>> = Candidate::ALL.iter().map(|_| Vec::new()).collect();
    for process in 0..processes {
        let out = std::process::Command::new(&exe)
            .arg("--bench")
            .env(CHILD, "1")
            .output()
            .expect("the bench runs itself");
        assert!(
            out.status.success(),
            "a paired-measurement process failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text.lines() {
            if let Some((name, paired)) = Paired::from_line(line) {
                let i = Candidate::ALL
                    .iter()
                    .position(|c| c.name() == name)
                    .expect("a candidate's name");
                by_candidate[i].push(paired);
            } else if let Some(pinning) = line.strip_prefix(CHILD) {
                println!("dlx_over_corpus: process {}:{pinning}", process + 1);
            }
        }
    }
    for (candidate, measured) in Candidate::ALL.iter().zip(&by_candidate) {
        let (name, what) = (candidate.name(), candidate.what());
        let mut medians: Vec<f64> = measured.iter().map(|p| p.median).collect();
        medians.sort_unstable_by(f64::total_cmp);
        let mut fastest: Vec<f64> = measured.iter().map(|p| p.fastest).collect();
        fastest.sort_unstable_by(f64::total_cmp);
        let each: Vec<String> = measured
            .iter()
            .map(|p| format!("{:.4} ({:.4}-{:.4})", p.median, p.low, p.high))
            .collect();
        println!(
            "dlx_over_corpus/{name}: {what} / bare loop, {processes} \
             processes of {ROUNDS} rounds in alternating order: median of the processes' \
             medians {:.4} (range {:.4}-{:.4}); fastest pass over fastest pass, median {:.4}; \
             each process's median (95% CI): {}",
            quantile(&medians, 0.5),
            medians[0],
            medians[medians.len() - 1],
            quantile(&fastest, 0.5),
            each.join(", "),
        );
    }
}

fn overhead(c: &mut Criterion) {
    let setup = Setup::new();
    let grids = &setup.grids;
    let mut group = c.benchmark_group("dlx_over_corpus");
    group.sample_size(10);
    group.bench_function("bare_loop", |b| {
        let mut solution = Grid::empty(BoxShape::NINE);
        b.iter(|| bare_pass(&setup.dlx, grids, &mut solution))
    });
    group.bench_function("harness_1_thread", |b| b.iter(|| setup.harness_pass()));
    group.finish();

    // The validation every timed solve is followed by, on the same grids:
    // its cost per call beside a solve's.
    let mut solver = setup.dlx.make();
    let solved: Vec<Grid> = grids
        .iter()
        .map(|g| {
            let mut s = Grid::empty(BoxShape::NINE);
            solver.solve(g, 1, dlxbench::solvers::Budget::UNLIMITED, &mut s);
            s
        })
        .collect();
    c.bench_function("is_solution_of_9x9", |b| {
        b.iter(|| {
            solved
                .iter()
                .zip(grids)
                .filter(|(s, g)| dlxbench::sudoku::is_solution_of(black_box(s), black_box(g)))
                .count()
        })
    });
}

criterion_group!(benches, overhead);

/// `DLXBENCH_BENCH_PASSES=SIDE:N`: N passes of one side (`bare` or
/// `harness`), for an instruction count; nothing else.
fn passes_only(spec: &str) {
    let (side, n) = spec
        .split_once(':')
        .and_then(|(side, n)| Some((side, n.parse::<usize>().ok()?)))
        .expect("DLXBENCH_BENCH_PASSES is SIDE:N, SIDE bare or harness");
    let setup = Setup::new();
    let mut solution = Grid::empty(BoxShape::NINE);
    dlxbench::clock::calibrate();
    let mut pass = || match side {
        "bare" => bare_pass(&setup.dlx, &setup.grids, &mut solution),
        "harness" => setup.harness_pass(),
        _ => panic!("DLXBENCH_BENCH_PASSES: the side is bare or harness, not {side}"),
    };
    counted_passes(n, &mut pass);
}

/// `n` calls of `pass`: what callgrind counts (see the module docs).
#[inline(never)]
fn counted_passes(n: usize, pass: &mut dyn FnMut()) {
    for _ in 0..n {
        pass();
    }
}

fn main() {
    if let Ok(spec) = std::env::var("DLXBENCH_BENCH_PASSES") {
        passes_only(&spec);
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        paired_child();
        return;
    }
    let processes = std::env::var("DLXBENCH_BENCH_PROCESSES")
        .map(|n| {
            n.parse::<usize>()
                .expect("DLXBENCH_BENCH_PROCESSES is a number")
        })
        .unwrap_or(PROCESSES);
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and
    // then criterion runs each function once, as a test: no paired minutes.
    if processes > 0 && std::env::args().any(|a| a == "--bench") {
        paired_all(processes);
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
