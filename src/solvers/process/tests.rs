//! Solvers in their own processes, driven directly: small `sh` scripts
//! that answer well, crash, hang, or talk nonsense.

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::puzzle::Puzzle;
use crate::solvers::Status;
use crate::sudoku::{self, BoxShape, Grid, ParseOptions};

const PUZZLE: &[u8] =
    b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn grid(text: &[u8]) -> Grid {
    let mut g = Grid::blank();
    sudoku::parse_line_into(text, ParseOptions::default(), &mut g).unwrap();
    g
}

/// The puzzle's solution, by the built-in `dlx`.
fn solution() -> String {
    let puzzle = grid(PUZZLE);
    let mut out = puzzle.clone();
    let mut solver = (crate::sudoku::solvers::dlx::INFO.make)();
    assert_eq!(
        solver
            .solve(&puzzle, 1, Budget::UNLIMITED, &mut out)
            .solutions,
        1
    );
    out.to_string()
}

/// A solver running `script` with `sh -c`.
fn solver(script: &str, options: ProcessOptions) -> Box<dyn Solver<Grid>> {
    entry::<Grid>(&CommandSpec::shell("t", script), options).make()
}

fn solve(s: &mut dyn Solver<Grid>, budget: Budget) -> (Outcome, Duration) {
    let mut out = Grid::blank();
    s.solve_timed(&grid(PUZZLE), 2, budget, &mut out)
}

const SECOND: Budget = Budget {
    max_nodes: u64::MAX,
    max_time: Some(Duration::from_secs(1)),
};

#[test]
fn a_good_answer_is_read_with_its_keys_and_own_time() {
    let script = format!(
        "echo dlxbench-protocol 1 test; while read cmd limit puzzle; do \
         echo \"1 {} guesses=4 nodes=9 mems=5140 ns=1234 colour=blue\"; done",
        solution()
    );
    let mut s = solver(&script, ProcessOptions::default());
    for _ in 0..3 {
        let mut out = Grid::blank();
        let (outcome, took) = s.solve_timed(&grid(PUZZLE), 2, SECOND, &mut out);
        assert_eq!(outcome.failure, None);
        assert_eq!(
            (outcome.solutions, outcome.nodes, outcome.guesses),
            (1, Some(9), 4)
        );
        assert_eq!((outcome.updates, outcome.mems), (None, Some(5140)));
        assert_eq!(outcome.status(2), Status::Unique);
        assert_eq!(took, Duration::from_nanos(1234));
        let Timing::Own {
            round_trip_ns,
            group: None,
        } = outcome.timing
        else {
            panic!("{:?}", outcome.timing)
        };
        assert!(round_trip_ns > 0);
        assert!(Grid::is_solution_of(&out, &grid(PUZZLE)));
    }
}

#[test]
fn without_its_own_time_the_round_trip_is_the_time() {
    let mut s = solver(
        "echo dlxbench-protocol 1; while read x; do echo '0 -'; done",
        ProcessOptions::default(),
    );
    let (outcome, took) = solve(s.as_mut(), SECOND);
    assert_eq!((outcome.solutions, outcome.timing), (0, Timing::RoundTrip));
    assert_eq!(outcome.mems, None);
    assert_eq!(outcome.status(2), Status::NoSolution);
    assert!(took > Duration::ZERO && took < Duration::from_secs(1));
}

#[test]
fn crashes_are_recorded_with_their_cause_and_the_process_restarts() {
    // Answers its first request, then exits 3; a fresh process answers again.
    let mut s = solver(
        "echo dlxbench-protocol 1; read x; echo '0 -'; read x; exit 3",
        ProcessOptions::default(),
    );
    let causes: Vec<_> = (0..4)
        .map(|_| solve(s.as_mut(), SECOND).0.failure)
        .collect();
    assert_eq!(
        causes,
        [None, Some(Failure::Exit(3)), None, Some(Failure::Exit(3))]
    );

    let mut s = solver(
        "echo dlxbench-protocol 1; read x; kill -SEGV $$",
        ProcessOptions::default(),
    );
    let (outcome, took) = solve(s.as_mut(), SECOND);
    assert_eq!(outcome.failure, Some(Failure::Signal(libc::SIGSEGV)));
    assert_eq!((outcome.status(2), took), (Status::Crashed, Duration::ZERO));

    let mut s = solver(
        "echo dlxbench-protocol 1; read x; echo 'error overflow 4096 bytes'; read x",
        ProcessOptions::default(),
    );
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, Some(Failure::Overflow));
}

#[test]
fn a_hung_call_is_over_budget_at_the_deadline_and_the_group_is_killed() {
    let mut s = solver(
        "echo dlxbench-protocol 1; read x; sleep 30; echo '0 -'",
        ProcessOptions::default(),
    );
    let budget = Budget::UNLIMITED.with_time(Duration::from_millis(300));
    let t = Instant::now();
    let (outcome, took) = solve(s.as_mut(), budget);
    assert_eq!(outcome.failure, Some(Failure::Deadline));
    // Over budget, as a built-in solver would be: no failure of the run.
    assert_eq!(outcome.status(2), Status::Budget);
    assert!(took >= Duration::from_millis(300), "{took:?}");
    let waited = t.elapsed();
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
}

#[test]
fn an_own_time_longer_than_the_round_trip_is_a_clock_error() {
    let mut s = solver(
        "echo dlxbench-protocol 1; while read x; do echo '0 - ns=5000000000'; done",
        ProcessOptions::default(),
    );
    let (outcome, _) = solve(s.as_mut(), SECOND);
    assert_eq!(outcome.failure, Some(Failure::Clock));
    assert!(s
        .take_detail()
        .unwrap()
        .contains("ns=5000000000 is longer than the round trip"));
}

#[test]
fn a_line_longer_than_the_longest_answer_is_refused_without_reading_it_all() {
    // 64 MiB without a newline: refused at about 1 KiB past the request's
    // length, long before the end.
    let mut s = solver(
        "echo dlxbench-protocol 1; read x; head -c 67108864 /dev/zero | tr '\\0' 1; sleep 30",
        ProcessOptions::default(),
    );
    let t = Instant::now();
    let (outcome, _) = solve(s.as_mut(), SECOND);
    assert_eq!(outcome.failure, Some(Failure::TooLong));
    assert!(
        t.elapsed() < Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    let detail = s.take_detail().unwrap();
    let max = max_response_bytes(&[0; 90]); // `solve 2 PUZZLE\n`
    assert!(
        detail.contains(&format!("longer than {max} bytes")),
        "{detail}"
    );
    assert!(detail.contains("`1111"), "{detail}");
}

#[test]
fn a_program_that_cannot_start_is_refused_by_check_with_the_os_reason() {
    let missing: CommandSpec = "t=pyhton3-not-here solver.py".parse().unwrap();
    let err = check(&missing, ProcessOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("not found") && err.contains("pyhton3-not-here solver.py"),
        "{err}"
    );
    let typo = CommandSpec::shell("t", "echo dlxbench-protocl 1");
    let err = check(&typo, ProcessOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("`dlxbench-protocl 1`"), "{err}");
    let good = CommandSpec::shell("t", "echo dlxbench-protocol 1; cat >/dev/null");
    assert_eq!(check(&good, ProcessOptions::default()), Ok(()));
}

#[test]
fn nonsense_is_a_protocol_error() {
    for (script, failure) in [
        (
            "echo dlxbench-protocol 1; while read x; do echo the answer is 42; done",
            Failure::Response,
        ),
        (
            "echo dlxbench-protocol 1; while read x; do echo 1 123; done",
            Failure::Response,
        ),
        (
            "echo dlxbench-protocol 1; while read x; do echo 3 -; done",
            Failure::Response,
        ),
        (
            "echo dlxbench-protocol 1; while read x; do echo 1 -; done",
            Failure::Response,
        ),
        (
            "echo dlxbench-protocol 2; while read x; do echo 0 -; done",
            Failure::Header,
        ),
        (
            "echo hello; while read x; do echo 0 -; done",
            Failure::Header,
        ),
    ] {
        let mut s = solver(script, ProcessOptions::default());
        let (outcome, _) = solve(s.as_mut(), SECOND);
        assert_eq!(outcome.failure, Some(failure), "{script}");
        assert!(outcome.status(2) == Status::ProtocolError, "{script}");
    }
}

#[test]
fn two_lines_in_one_write_are_a_stray_on_the_puzzle_they_answer() {
    let mut s = solver(
        "echo dlxbench-protocol 1; while read x; do printf '0 -\\n0 -\\n'; done",
        ProcessOptions::default(),
    );
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, Some(Failure::Stray));
    assert!(s
        .take_detail()
        .unwrap()
        .contains("`0 -\\n` followed the answer"));
    // Restarted: the next request is answered (and strays again).
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, Some(Failure::Stray));
}

#[test]
fn a_line_after_the_answer_fails_the_next_request_before_it_is_sent() {
    let mut s = solver(
        "echo dlxbench-protocol 1; while read x; do echo '0 -'; sleep 0.02; echo 'debug'; done",
        ProcessOptions::default(),
    );
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, None);
    // The second line arrives before the next request is written.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, Some(Failure::Stray));
    let detail = s.take_detail().unwrap();
    assert!(
        detail.contains("`debug\\n` came after the previous answer"),
        "{detail}"
    );
    // A fresh process answers the next one.
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, None);
}

#[test]
fn an_answer_repeated_where_the_next_is_due_is_never_taken_for_it() {
    let script = format!(
        "echo dlxbench-protocol 1; while read x; do echo '1 {0}'; sleep 0.02; echo '1 {0}'; done",
        solution()
    );
    let mut s = solver(&script, ProcessOptions::default());
    let mut out = Grid::blank();
    let first = s.solve_timed(&grid(PUZZLE), 2, SECOND, &mut out).0;
    assert_eq!(first.failure, None);
    // The next puzzle at once: the repeated line comes where its answer is
    // due (or before its request, whatever the timing); it is a stray line
    // either way, never this puzzle's answer.
    let mut other = PUZZLE.to_vec();
    other[0] = b'5';
    let second = s.solve_timed(&grid(&other), 2, SECOND, &mut out).0;
    assert_eq!(second.failure, Some(Failure::Stray), "{second:?}");
    assert_eq!(second.status(2), Status::ProtocolError);
}

#[test]
fn a_slow_start_is_not_timed_but_has_its_own_deadline() {
    let mut s = solver(
        "sleep 0.5; echo dlxbench-protocol 1; while read x; do echo '0 -'; done",
        ProcessOptions::default(),
    );
    // The solve's deadline (100 ms) does not cover the start-up.
    let budget = Budget::UNLIMITED.with_time(Duration::from_millis(100));
    let (outcome, took) = solve(s.as_mut(), budget);
    assert_eq!(outcome.failure, None);
    assert!(took < Duration::from_millis(100), "{took:?}");

    let options = ProcessOptions {
        start_timeout: Duration::from_millis(200),
        ..ProcessOptions::default()
    };
    let mut s = solver("sleep 5; echo dlxbench-protocol 1", options);
    let t = Instant::now();
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, Some(Failure::StartUp));
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn failures_in_a_row_stop_the_solver_until_the_next_corpus() {
    let mut s = solver(
        "echo dlxbench-protocol 1; exit 4",
        ProcessOptions::default(),
    );
    let mut failures: Vec<_> = (0..5)
        .map(|_| solve(s.as_mut(), SECOND).0.failure)
        .collect();
    let expected = Some(Failure::Exit(4));
    assert_eq!(
        failures,
        [
            expected,
            expected,
            expected,
            Some(Failure::Stopped),
            Some(Failure::Stopped)
        ]
    );
    assert_eq!(
        solve(s.as_mut(), SECOND).0.status(2),
        Status::Skipped,
        "not run"
    );
    s.start_corpus();
    failures = (0..1)
        .map(|_| solve(s.as_mut(), SECOND).0.failure)
        .collect();
    assert_eq!(failures, [expected], "tried again");
}

#[test]
fn the_stop_flag_ends_a_hung_call_at_once() {
    static STOP: AtomicBool = AtomicBool::new(false);
    let options = ProcessOptions {
        stop: Some(&STOP),
        ..ProcessOptions::default()
    };
    let mut s = solver("echo dlxbench-protocol 1; read x; sleep 30", options);
    let setter = std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(300));
        STOP.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let t = Instant::now();
    let (outcome, _) = solve(s.as_mut(), Budget::UNLIMITED);
    setter.join().unwrap();
    assert_eq!(outcome.failure, Some(Failure::Interrupted));
    assert_eq!(outcome.status(2), Status::Skipped);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    // Later calls return at once, without starting anything.
    assert_eq!(
        solve(s.as_mut(), SECOND).0.failure,
        Some(Failure::Interrupted)
    );
}

#[test]
fn declined_puzzles_are_not_applicable() {
    let mut s = solver(
        "echo dlxbench-protocol 1; while read x; do echo 'n/a 16x16 only'; done",
        ProcessOptions::default(),
    );
    let (outcome, took) = solve(s.as_mut(), SECOND);
    assert_eq!(outcome.failure, Some(Failure::Declined));
    assert_eq!(
        (outcome.status(2), took),
        (Status::NotApplicable, Duration::ZERO)
    );
}

#[test]
fn a_command_that_cannot_start_is_a_crash() {
    let spec = CommandSpec::new("t", "/nonexistent/solver", ["x"]);
    let mut s = entry::<Grid>(&spec, ProcessOptions::default()).make();
    assert_eq!(solve(s.as_mut(), SECOND).0.failure, Some(Failure::Spawn));
    let mut s = solver("exec /nonexistent/solver", ProcessOptions::default());
    assert_eq!(
        solve(s.as_mut(), SECOND).0.failure,
        Some(Failure::Exit(127))
    );
}

#[test]
fn requests_carry_the_line_notation_and_a_box_key_when_needed() {
    let mut out = Vec::new();
    assert!(grid(PUZZLE).write_protocol(&mut out));
    assert_eq!(out, PUZZLE);
    // 6x6 with 3x2 boxes: the side alone would give 2x3.
    let mut g = Grid::empty(BoxShape::new(3, 2).unwrap());
    g.cells_mut()[0] = 1;
    out.clear();
    assert!(g.write_protocol(&mut out));
    assert_eq!(out, b"1................................... box=3x2");
    let mut back = Grid::blank();
    assert!(back.read_protocol(&g, &out[..36]));
    assert_eq!(back.shape(), g.shape());
    // Sides above 61 have no one-word line form.
    let big = Grid::empty(BoxShape::new(8, 8).unwrap());
    assert!(!big.write_protocol(&mut out));
    // A solution of the wrong size is refused.
    assert!(!back.read_protocol(&grid(PUZZLE), b"123"));
}

#[test]
fn causes_read_back_and_map_to_statuses() {
    // Every failure listed again on purpose, apart from `from_cause`'s own
    // list: a variant that list drops fails here.
    for f in [
        Failure::Signal(11),
        Failure::Exit(3),
        Failure::Closed,
        Failure::Spawn,
        Failure::Overflow,
        Failure::Memory,
        Failure::Error,
        Failure::Deadline,
        Failure::StartUp,
        Failure::Header,
        Failure::Response,
        Failure::Stray,
        Failure::TooLong,
        Failure::Clock,
        Failure::Stopped,
        Failure::Interrupted,
        Failure::Declined,
    ] {
        assert_eq!(Failure::from_cause(&f.cause()), Some(f));
    }
    assert_eq!(Failure::Signal(9).cause(), "signal 9");
    assert_eq!(Failure::Deadline.status(), Status::Budget);
    assert_eq!(Failure::StartUp.status(), Status::Timeout);
    assert_eq!(Failure::Clock.status(), Status::ProtocolError);
    assert_eq!(Failure::Memory.status(), Status::Crashed);
    assert_eq!(Failure::from_cause("nonsense"), None);
    assert!(Status::ALL.iter().filter(|s| s.is_failure()).count() == 4);
    assert_eq!(log_file_name("my solver/1"), "solver-my_solver_1.log");
}

#[test]
fn hanidoku_boards_go_as_their_line_and_come_back_validated() {
    use crate::hanidoku::Board;
    let text = std::str::from_utf8(Board::embedded_corpus().text).unwrap();
    let line = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap();
    let mut board = Board::blank();
    Board::parse_line(line.as_bytes(), (), &mut board).unwrap();
    let mut request = Vec::new();
    assert!(board.write_protocol(&mut request));
    assert!(!request.contains(&b' '), "one word");
    let mut reread = Board::blank();
    Board::parse_line(&request, (), &mut reread).unwrap();
    assert_eq!(reread.cells(), board.cells());
    // A solver that answers with the solution `dlx` finds.
    let mut solved = board;
    let mut dlx = (crate::hanidoku::solvers::REGISTRY[0].make)();
    assert_eq!(
        dlx.solve(&board, 1, Budget::UNLIMITED, &mut solved)
            .solutions,
        1
    );
    let mut answer = Vec::new();
    assert!(solved.write_protocol(&mut answer));
    let script = format!(
        "echo dlxbench-protocol 1; while read x; do echo \"1 {} ns=10\"; done",
        String::from_utf8(answer).unwrap()
    );
    let mut s = entry::<Board>(&CommandSpec::shell("t", &script), ProcessOptions::default()).make();
    let mut out = Board::blank();
    let (outcome, _) = s.solve_timed(&board, 1, SECOND, &mut out);
    assert_eq!((outcome.failure, outcome.solutions), (None, 1));
    assert!(Board::is_solution_of(&out, &board));
}

#[test]
fn a_count_only_solver_is_not_asked_for_its_solution() {
    let spec = CommandSpec::shell(
        "t",
        "echo dlxbench-protocol 1; while read x; do echo '1 - ns=5'; done",
    );
    let e = entry_with::<Grid>(&spec, ProcessOptions::default(), "counts".into(), true);
    assert_eq!(e.description(), "counts");
    let mut s = e.make();
    assert!(!s.returns_solutions());
    let (outcome, _) = solve(s.as_mut(), SECOND);
    assert_eq!((outcome.failure, outcome.solutions), (None, 1));
}
