//! Benchmark a solver of your own against the built-in ones, with no edit
//! to dlxbench: add it to a [`SolverSet`] at run time and run the same
//! harness and reports as `dlxbench bench`.
//!
//! ```text
//! cargo run --release --example custom_solver -- [CORPUS] [OUT_DIR]
//! ```
//!
//! With no corpus it runs the 1,000 generated puzzles embedded in the
//! library. The solver here is deliberately simple: backtracking over the
//! cells in reading order with bitmasks of the symbols each row, column and
//! box holds (any grid up to 63x63).

use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, Lineup, Setup};
use dlxbench::puzzle::Puzzle;
use dlxbench::report::{self, RunMeta};
use dlxbench::solvers::{Budget, Outcome, Solver, SolverEntry, SolverSet};
use dlxbench::sudoku::Grid;

/// Backtracking in cell order with bitmask candidates. It keeps its
/// working memory between puzzles, as every solver should: after the first
/// puzzle of a size it allocates nothing.
#[derive(Default)]
pub struct Backtrack {
    /// Per row, column and box: the symbols placed (bit `v`).
    rows: Vec<u64>,
    cols: Vec<u64>,
    boxes: Vec<u64>,
    /// The grid being filled.
    cells: Vec<u8>,
    /// Cells to fill, and for each its box.
    blanks: Vec<(usize, usize)>,
    /// The first solution found.
    first: Vec<u8>,
    /// Search nodes of the current solve.
    nodes: u64,
}

impl Solver<Grid> for Backtrack {
    fn solve(&mut self, puzzle: &Grid, limit: u64, budget: Budget, solution: &mut Grid) -> Outcome {
        let (n, shape) = (puzzle.side(), puzzle.shape());
        let mut outcome = Outcome::default();
        if limit == 0 || n > 63 {
            return outcome;
        }
        for masks in [&mut self.rows, &mut self.cols, &mut self.boxes] {
            masks.clear();
            masks.resize(n, 0);
        }
        self.cells.clear();
        self.cells.extend_from_slice(puzzle.cells());
        self.blanks.clear();
        for (i, &v) in puzzle.cells().iter().enumerate() {
            let (r, c, b) = (i / n, i % n, shape.box_of(i / n, i % n));
            if v == 0 {
                self.blanks.push((i, b));
                continue;
            }
            let bit = 1u64 << v;
            if (self.rows[r] | self.cols[c] | self.boxes[b]) & bit != 0 {
                return outcome; // the clues break a rule: no solution
            }
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
        }
        let all = ((1u64 << n) - 1) << 1;
        self.nodes = 0;
        self.search(0, n, all, limit, budget, &mut outcome);
        outcome.nodes = Some(self.nodes);
        if outcome.solutions > 0 {
            solution.load(shape, &self.first);
        }
        outcome
    }
}

impl Backtrack {
    /// Fills blanks from `k` on (symbols `all`, a bit each); counts
    /// solutions into `outcome`. True when the search should stop.
    fn search(
        &mut self,
        k: usize,
        n: usize,
        all: u64,
        limit: u64,
        budget: Budget,
        outcome: &mut Outcome,
    ) -> bool {
        let Some(&(i, b)) = self.blanks.get(k) else {
            if outcome.solutions == 0 {
                self.first.clear();
                self.first.extend_from_slice(&self.cells);
            }
            outcome.solutions += 1;
            return outcome.solutions >= limit;
        };
        let (r, c) = (i / n, i % n);
        let mut free = all & !(self.rows[r] | self.cols[c] | self.boxes[b]);
        if free.count_ones() > 1 {
            outcome.guesses += 1;
        }
        while free != 0 {
            if self.nodes >= budget.max_nodes {
                outcome.budget_exceeded = true;
                return true;
            }
            self.nodes += 1;
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.rows[r] |= bit;
            self.cols[c] |= bit;
            self.boxes[b] |= bit;
            self.cells[i] = bit.trailing_zeros() as u8;
            let stop = self.search(k + 1, n, all, limit, budget, outcome);
            self.rows[r] ^= bit;
            self.cols[c] ^= bit;
            self.boxes[b] ^= bit;
            self.cells[i] = 0;
            if stop {
                return true;
            }
        }
        false
    }
}

/// The built-in solvers plus `backtrack`, added at run time.
pub fn solver_set() -> SolverSet<Grid> {
    let mut set = SolverSet::<Grid>::builtin();
    let entry = SolverEntry::new(
        "backtrack",
        "cell-order bitmask backtracking (example)",
        || Box::new(Backtrack::default()),
    )
    .with_default_budget(Budget::nodes(10_000_000));
    set.add(entry).expect("a new name");
    set
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let corpus = match args.first() {
        Some(path) => Corpus::open(std::path::Path::new(path))?,
        None => {
            let embedded = Grid::embedded_corpus();
            Corpus::from_static(embedded.name, embedded.text)?
        }
    };
    let out_dir = std::path::PathBuf::from(args.get(1).map_or("results/custom", String::as_str));
    let set = solver_set();
    let lineup = Lineup::new(set.select(&["dlx".into(), "backtrack".into()])?);
    let mut setup = Setup::new(lineup);
    setup.config_mut().threads = 1;
    let sha256 = vec![corpus.sha256_hex()];
    let result = harness::run(std::slice::from_ref(&corpus), &setup, None, None)?;
    let meta = RunMeta {
        command_line: std::env::args().collect(),
        reference: "dlx".into(),
        sha256,
        out_dir: out_dir.clone(),
        per_puzzle: false,
        merged: None,
        binary_sha256: report::run_json::binary_sha256(),
        progress: None,
        round_trip_floor: None,
        logs: Vec::new(),
    };
    std::fs::create_dir_all(&out_dir)?;
    report::write_all(&result, setup.config(), &meta, &out_dir)?;
    print!(
        "{}",
        report::table::render_text(&result, setup.config(), &meta)
    );
    for d in &result.discrepancies {
        eprintln!("PROBLEM: {d}");
    }
    Ok(())
}
