#![cfg(target_os = "linux")]
//! The built-in solvers exported through tdoku's C interface
//! (`libdlxbench.so`, the `dlxbench-ffi` crate; `dlxbench::ffi`): the
//! library is built with Cargo in this test's target directory and
//! profile, loaded through our own loader (`solvers::foreign`) and called
//! directly, and must agree with the built-in solvers, refuse bad input,
//! tolerate null pointers, report a search that gave up, and work from
//! several threads at once. The C and Python examples are run against it.

use crate::common;
use crate::common::ffi_build;

use std::ffi::{c_char, c_int};
use std::path::Path;
use std::process::{Command, Stdio};

use dlxbench::ffi::Export;
use dlxbench::solvers::foreign::{self, LibrarySpec, SolveFn};
use dlxbench::solvers::{Budget, Solver};
use dlxbench::sudoku::{self, BoxShape, Grid, ParseOptions};

use common::alloc::allocations;
use common::repo_path;
use ffi_build::libdlxbench;

/// One solution: an easy puzzle of the embedded generated corpus (naive
/// solves it well within its budget).
const UNIQUE: &str =
    "..7.28..1..2...47.6..4..5.2..8......26.9...3....6.1.........68.9...7......1......";
/// Two solutions or more: `UNIQUE` without its first clue.
const MULTIPLE: &str =
    "....28..1..2...47.6..4..5.2..8......26.9...3....6.1.........68.9...7......1......";
/// Clues that break no rule but leave cell 9 of row 1 no symbol: no
/// solution (a proof needs a search, not a rule check).
const NONE: &str =
    "12345678.........9.............................................................9.";

fn grid(line: &str) -> Grid {
    let mut g = Grid::empty(BoxShape::NINE);
    sudoku::parse_line_into(line.as_bytes(), ParseOptions::default(), &mut g).unwrap();
    g
}

/// The first `count` puzzles of the embedded generated corpus.
fn corpus(count: usize) -> Vec<Grid> {
    std::str::from_utf8(dlxbench::datasets::DEFAULT_CORPUS)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(count)
        .map(grid)
        .collect()
}

/// The interface's 81 characters for `grid`.
fn c81(grid: &Grid) -> String {
    grid.cells()
        .iter()
        .map(|&c| if c == 0 { '.' } else { char::from(b'0' + c) })
        .collect()
}

/// The known puzzles and the corpus.
fn puzzles() -> Vec<Grid> {
    let mut all: Vec<Grid> = [UNIQUE, MULTIPLE, NONE].into_iter().map(grid).collect();
    all.extend(corpus(1000));
    all
}

fn loaded(export: Export) -> Box<dyn Solver<Grid>> {
    let spec = LibrarySpec {
        path: libdlxbench().to_path_buf(),
        symbol: export.symbol().to_string(),
        flags: 0,
        name: format!("c-{}", export.solver_name()),
        count_only: false,
    };
    foreign::load::<Grid>(&spec).unwrap().make()
}

/// The raw functions, for what the loader never passes (nulls, bad input).
struct Raw {
    _library: libloading::Library,
    solve: [SolveFn; Export::ALL.len()],
    over_budget: unsafe extern "C" fn() -> c_int,
}

fn raw() -> Raw {
    // SAFETY: our own library, whose initialisers are Rust's.
    let library = unsafe { libloading::Library::new(libdlxbench()) }.unwrap();
    // SAFETY: these symbols are functions of the C interface's signature
    // (include/dlxbench.h).
    let solve =
        Export::ALL.map(|e| unsafe { *library.get::<SolveFn>(e.symbol().as_bytes()).unwrap() });
    // SAFETY: `int dlxbench_over_budget(void)`.
    let over_budget = unsafe {
        *library
            .get::<unsafe extern "C" fn() -> c_int>(b"dlxbench_over_budget")
            .unwrap()
    };
    Raw {
        _library: library,
        solve,
        over_budget,
    }
}

impl Raw {
    /// Calls `export` with `input` (which must be NUL-terminated or 81
    /// bytes long), a solution buffer and a guess counter.
    fn call(
        &self,
        export: Export,
        input: &[u8],
        limit: usize,
        flags: u32,
    ) -> (usize, [u8; 81], usize, bool) {
        assert!(input.len() >= 81 || input.contains(&0));
        let mut solution = [b'?'; 81];
        let mut guesses = usize::MAX;
        // SAFETY: the input is 81 bytes or NUL-terminated (checked above),
        // the solution buffer holds 81 bytes.
        let found = unsafe {
            (self.solve[export.index()])(
                input.as_ptr().cast(),
                limit,
                flags,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        // SAFETY: a function without arguments.
        let over = unsafe { (self.over_budget)() };
        (found, solution, guesses, over == 1)
    }
}

#[test]
fn the_library_exports_the_interface() {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(libdlxbench())
        .output();
    let Ok(out) = out else {
        eprintln!("SKIPPED: no `nm` here to list the library's symbols (they are looked up below)");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    for symbol in Export::ALL
        .map(Export::symbol)
        .iter()
        .chain(&["dlxbench_over_budget"])
    {
        assert!(
            text.lines().any(|l| l.ends_with(&format!(" T {symbol}"))),
            "{symbol} not exported:\n{text}"
        );
    }
}

#[test]
fn every_export_agrees_with_its_builtin_solver() {
    let puzzles = puzzles();
    for export in Export::ALL {
        let info = export.info().unwrap();
        let mut builtin = (info.make)();
        let mut c = loaded(export);
        let (mut want, mut got) = (puzzles[0].clone(), puzzles[0].clone());
        let mut over = 0;
        for (i, puzzle) in puzzles.iter().enumerate() {
            for limit in [1, 2] {
                let expected = builtin.solve(puzzle, limit, info.default_budget, &mut want);
                let outcome = c.solve(puzzle, limit, Budget::UNLIMITED, &mut got);
                let context = format!("{export:?}, puzzle {i}, limit {limit}");
                assert_eq!(outcome.solutions, expected.solutions, "{context}");
                assert_eq!(outcome.guesses, expected.guesses, "{context}");
                if outcome.solutions > 0 {
                    assert!(sudoku::is_solution_of(&got, puzzle), "{context}");
                    assert_eq!(got, want, "{context}: another first solution");
                }
                over += u64::from(expected.budget_exceeded);
            }
        }
        // The known puzzles: one, two and no solutions.
        let mut counts = Vec::new();
        for line in [UNIQUE, MULTIPLE, NONE] {
            counts.push(
                c.solve(&grid(line), 2, Budget::UNLIMITED, &mut got)
                    .solutions,
            );
        }
        assert_eq!(counts, [1, 2, 0], "{export:?}");
        if export != Export::Naive {
            assert_eq!(over, 0, "{export:?}");
        }
    }
}

#[test]
fn bad_input_gives_no_solution() {
    let raw = raw();
    let mut clash = UNIQUE.as_bytes().to_vec();
    clash[0] = b'2'; // the row already has a 2
    let mut letter = UNIQUE.as_bytes().to_vec();
    letter[40] = b'x';
    let zeros = UNIQUE.replace('.', "0");
    for export in Export::ALL {
        let eighty: Vec<u8> = UNIQUE.as_bytes()[..80].iter().copied().chain([0]).collect();
        for (what, input) in [
            ("empty", &b"\0"[..]),
            ("short", &b"..3.56789.56.89123\0"[..]),
            ("80 characters", &eighty[..]),
            ("a letter", &letter[..]),
            ("a clash", &clash[..]),
        ] {
            let (found, solution, guesses, over) = raw.call(export, input, 2, 0);
            assert_eq!((found, over), (0, false), "{export:?}: {what}");
            assert_eq!(solution, [b'?'; 81], "{export:?}: {what}: solution written");
            assert_ne!(
                guesses,
                usize::MAX,
                "{export:?}: {what}: guesses not written"
            );
        }
        // '0' blanks as well as '.'; extra characters after 81 are ignored.
        let (found, solution, _, _) = raw.call(export, zeros.as_bytes(), 2, 0);
        assert_eq!(found, 1, "{export:?}");
        let with_tail = format!("{UNIQUE}xyz\0");
        assert_eq!(raw.call(export, with_tail.as_bytes(), 2, 0).1, solution);
        // Limit 0; reserved flags are refused; a slow-down changes nothing
        // but the time.
        assert_eq!(raw.call(export, UNIQUE.as_bytes(), 0, 0).0, 0);
        let (found, _, guesses, _) = raw.call(export, UNIQUE.as_bytes(), 2, 1 << 16);
        assert_eq!((found, guesses), (0, 0), "{export:?}: flags 1 << 16");
        let plain = raw.call(export, UNIQUE.as_bytes(), 2, 0);
        assert_eq!(
            raw.call(export, UNIQUE.as_bytes(), 2, 100),
            plain,
            "{export:?}"
        );
    }
}

#[test]
fn a_short_input_is_not_read_past_its_nul() {
    // The input's NUL is the last byte before a page that may not be read:
    // reading one byte further would crash the test.
    // SAFETY: sysconf has no preconditions.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap();
    // SAFETY: a fresh anonymous private mapping of two pages.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            2 * page,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    assert_ne!(base, libc::MAP_FAILED);
    let base = base.cast::<u8>();
    // SAFETY: the second page of the mapping made above.
    assert_eq!(
        unsafe { libc::mprotect(base.add(page).cast(), page, libc::PROT_NONE) },
        0
    );
    let raw = raw();
    let eighty: Vec<u8> = [b'.'; 80].iter().copied().chain([0]).collect();
    for text in [&b"\0"[..], &b"..3.56789\0"[..], &eighty[..]] {
        // SAFETY: `text` fits in the first page, written at its end.
        let input = unsafe {
            let start = base.add(page - text.len());
            std::ptr::copy_nonoverlapping(text.as_ptr(), start, text.len());
            start
        };
        for solve in raw.solve {
            let mut guesses = 0;
            // SAFETY: a NUL-terminated input; a null solution pointer.
            let found = unsafe { solve(input.cast(), 2, 0, std::ptr::null_mut(), &mut guesses) };
            assert_eq!(found, 0);
        }
    }
    // SAFETY: the mapping made above, no longer used.
    assert_eq!(unsafe { libc::munmap(base.cast(), 2 * page) }, 0);
}

#[test]
fn null_pointers_are_tolerated() {
    let raw = raw();
    let input = format!("{MULTIPLE}\0");
    for (export, solve) in Export::ALL.into_iter().zip(raw.solve) {
        let mut guesses = 0usize;
        let mut solution = [0u8; 81];
        // SAFETY: a NUL-terminated input; null outputs, which the
        // interface allows.
        let found = unsafe {
            solve(
                input.as_ptr().cast(),
                2,
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(found, 2, "{export:?}");
        // SAFETY: a null solution pointer only.
        let found = unsafe {
            solve(
                input.as_ptr().cast(),
                2,
                0,
                std::ptr::null_mut(),
                &mut guesses,
            )
        };
        assert_eq!(found, 2, "{export:?}");
        assert!(guesses > 0, "{export:?}");
        // SAFETY: a null guess counter only.
        let found = unsafe {
            solve(
                input.as_ptr().cast(),
                1,
                0,
                solution.as_mut_ptr().cast(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(found, 1, "{export:?}");
        assert!(sudoku::is_solution_of(
            &grid(std::str::from_utf8(&solution).unwrap()),
            &grid(MULTIPLE)
        ));
        // SAFETY: a null input, which gives 0.
        let found = unsafe {
            solve(
                std::ptr::null::<c_char>(),
                1,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        };
        assert_eq!((found, guesses), (0, 0), "{export:?}");
    }
}

#[test]
fn a_search_that_gives_up_is_reported() {
    let raw = raw();
    let empty = [b'.'; 81];
    // Counting every solution of the empty grid: far over naive's 100,000
    // nodes.
    let (found, _, _, over) = raw.call(Export::Naive, &empty, usize::MAX, 0);
    assert!(
        over,
        "naive, empty grid: not over budget ({found} solutions)"
    );
    let naive = Export::Naive.info().unwrap();
    let mut builtin = (naive.make)();
    let mut solution = grid(UNIQUE);
    let expected = builtin.solve(
        &Grid::empty(BoxShape::NINE),
        u64::MAX,
        naive.default_budget,
        &mut solution,
    );
    assert!(expected.budget_exceeded);
    assert_eq!(found as u64, expected.solutions);
    // The flag is per call: a solve within budget clears it, as does a
    // refused one.
    let (found, _, _, over) = raw.call(Export::Naive, MULTIPLE.as_bytes(), 2, 0);
    assert_eq!((found, over), (2, false));
    assert!(raw.call(Export::Naive, &empty, usize::MAX, 0).3);
    assert!(!raw.call(Export::Naive, b"bad\0", 1, 0).3);
    // The other solvers stop at two solutions of the empty grid.
    for export in [
        Export::Dlx,
        Export::Dc,
        Export::Singles,
        Export::Locked,
        Export::Heuristic,
    ] {
        let (found, _, _, over) = raw.call(export, &empty, 2, 0);
        assert_eq!((found, over), (2, false), "{export:?}");
    }
}

#[test]
fn calls_from_several_threads_agree() {
    let puzzles: Vec<String> = corpus(300).iter().map(c81).collect();
    let raw = raw();
    let answers = |export: Export| -> Vec<(usize, [u8; 81], usize, bool)> {
        puzzles
            .iter()
            .map(|p| raw.call(export, p.as_bytes(), 2, 0))
            .collect()
    };
    let sequential: Vec<_> = Export::ALL.map(answers).into();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .flat_map(|round| Export::ALL.map(|e| (round, e)))
            .map(|(_, export)| s.spawn(move || (export, answers(export))))
            .collect();
        for handle in handles {
            let (export, got) = handle.join().unwrap();
            assert!(
                got == sequential[export.index()],
                "{export:?}: another answer from a thread"
            );
        }
    });
}

#[test]
fn after_the_first_call_a_thread_allocates_nothing() {
    // In this process, through the library's own entry point (the shared
    // library has its own allocator, which this test cannot count).
    // The known puzzles, a hard one, bad input and some of the corpus.
    let hard = ".2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....";
    let mut inputs: Vec<Vec<u8>> = [UNIQUE, MULTIPLE, NONE, hard, "bad"]
        .iter()
        .map(|l| l.bytes().chain([0]).collect())
        .collect();
    inputs.extend(corpus(50).iter().map(|g| c81(g).into_bytes()));
    let call = |export: Export, input: &[u8], limit: usize| {
        let mut solution = [0u8; 81];
        let mut guesses = 0usize;
        // SAFETY: a NUL-terminated input, an 81-byte output, a counter.
        unsafe {
            dlxbench::ffi::solve_raw(
                export,
                input.as_ptr().cast(),
                limit,
                0,
                solution.as_mut_ptr().cast(),
                &mut guesses,
            )
        }
    };
    for export in Export::ALL {
        call(export, &inputs[0], 2);
        let before = allocations();
        for input in &inputs {
            for limit in [1, 2, usize::MAX] {
                std::hint::black_box(call(export, input, limit));
            }
        }
        assert_eq!(allocations(), before, "{export:?} allocated");
    }
}

/// Compiles examples/ffi/solve.c against the library; the executable.
fn c_example(dir: &Path) -> std::path::PathBuf {
    let compiler = common::c_compiler();
    let lib_dir = libdlxbench().parent().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join("solve");
    let status = compiler
        .to_command()
        .arg("-I")
        .arg(root.join("include"))
        .arg(root.join("examples/ffi/solve.c"))
        .arg("-L")
        .arg(lib_dir)
        .arg("-ldlxbench")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("a C compiler");
    assert!(status.success(), "compiling examples/ffi/solve.c");
    exe
}

fn solved(line: &str) -> String {
    let mut solution = Grid::empty(BoxShape::NINE);
    let mut solver = (dlxbench::sudoku::solvers::dlx::INFO.make)();
    assert_eq!(
        solver
            .solve(&grid(line), 1, Budget::UNLIMITED, &mut solution)
            .solutions,
        1
    );
    solution
        .cells()
        .iter()
        .map(|&c| char::from(b'0' + c))
        .collect()
}

#[test]
fn the_c_example_solves_from_its_argument_and_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let exe = c_example(dir.path());
    let out = Command::new(&exe).arg(UNIQUE).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], solved(UNIQUE));
    assert!(lines[1].starts_with("solutions: 1, guesses: "), "{text}");
    // From standard input; two solutions; none.
    let mut child = Command::new(&exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(child.stdin.take().unwrap(), "{MULTIPLE}").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("solutions: 2 (or more)"), "{text}");
    let out = Command::new(&exe).arg(NONE).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "no solution\n");
}

#[test]
fn the_python_example_solves_with_every_export() {
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED: no python3 here: examples/ffi/solve.py was not run");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ffi/solve.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(UNIQUE)
        .arg(libdlxbench())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let want = solved(UNIQUE);
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["dlx", "dc", "singles", "heuristic", "naive"],
        "{text}"
    );
    for line in text.lines() {
        assert!(line.contains(&format!(" {want} solutions=1")), "{line}");
    }
}

/// `bench --solver-lib libdlxbench.so:dlxbench_dlx=dlx-lib` beside the
/// built-in `dlx` on `corpus`: the run passes its cross-check (every
/// count agrees, every solution validates) and both solve every puzzle.
fn bench_against_the_built_in(corpus: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let spec = format!(
        "--solver-lib={}:dlxbench_dlx=dlx-lib",
        libdlxbench().display()
    );
    let output = assert_cmd::Command::cargo_bin("dlxbench")
        .unwrap()
        .args(["bench", "-q", "--solvers=dlx,dlx-lib", &spec, "--out"])
        .arg(&out)
        .arg(corpus)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(summary.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2);
    let (a, b) = (&rows[0], &rows[1]);
    assert_eq!(
        (&a[column("solver")], &b[column("solver")]),
        ("dlx", "dlx-lib")
    );
    for name in ["puzzles", "solved", "unsolvable", "multiple", "invalid"] {
        assert_eq!(a[column(name)], b[column(name)], "{name}");
    }
    assert_eq!(&b[column("budget")], "0");
}

#[test]
fn the_library_dlx_agrees_with_the_built_in_one_through_bench() {
    bench_against_the_built_in(&repo_path("datasets/generated/gen_9x9_1000.txt"));
}

/// The same on top1465 (`cargo test -- --ignored` after `dlxbench datasets
/// fetch`, as CI does).
#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn the_library_dlx_agrees_with_the_built_in_one_on_top1465() {
    let corpus = repo_path("datasets/magictour_top1465.txt");
    assert!(
        corpus.is_file(),
        "fetch the corpora first: dlxbench datasets fetch"
    );
    bench_against_the_built_in(&corpus);
}
