use super::guard::{GuardedBuffer, CANARY, SLACK};
use super::*;

#[test]
fn requests_are_solve_limit_puzzle() {
    assert_eq!(parse_request(b"solve 2 ..1"), Some((2, &b"..1"[..])));
    assert_eq!(
        parse_request(b"solve 18446744073709551615 x"),
        Some((u64::MAX, &b"x"[..]))
    );
    for bad in [
        &b"solve 2"[..],
        b"solve  x",
        b"solve -1 x",
        b"solve 2 ",
        b"SOLVE 2 x",
        b"",
        b"quit",
    ] {
        assert_eq!(parse_request(bad), None, "{}", String::from_utf8_lossy(bad));
    }
}

#[test]
fn the_buffer_allows_the_slack_and_catches_the_canary() {
    let mut buffer = GuardedBuffer::new().unwrap();
    buffer.prepare();
    assert_eq!(buffer.answer(), &[0; 81]);
    assert_eq!(buffer.overflow(), None);
    let start = buffer.solution_ptr();
    // SAFETY: inside the solution and its slack.
    unsafe { std::ptr::write_bytes(start, b'7', 81 + SLACK) };
    assert_eq!(buffer.answer(), &[b'7'; 81]);
    assert_eq!(buffer.overflow(), None);
    // SAFETY: the canary's 10th byte, inside the page.
    unsafe { start.add(81 + SLACK + 9).write(0) };
    assert_eq!(buffer.overflow(), Some(SLACK + 10));
    buffer.prepare();
    assert_eq!(buffer.overflow(), None);
    // SAFETY: the canary's last byte, the page's last.
    unsafe { start.add(81 + SLACK + CANARY - 1).write(0) };
    assert_eq!(buffer.overflow(), Some(SLACK + CANARY));
    // The guard page begins right after the canary.
    let (guard_start, guard_end) = buffer.guard();
    assert_eq!(start as usize + 81 + SLACK + CANARY, guard_start);
    assert!(guard_end > guard_start);
}

#[test]
fn a_placed_buffer_still_ends_at_its_guard_page_and_moves_the_input() {
    use crate::solvers::layout::Placement;
    let placement: Placement = "input=48,solution=160,heap=0,map=0".parse().unwrap();
    let mut buffer = GuardedBuffer::placed(&placement).unwrap();
    let mut plain = GuardedBuffer::new().unwrap();
    let page_of = |p: *mut u8| p as usize & !4095;
    let (start, input) = (buffer.solution_ptr(), buffer.input_ptr());
    // The solution starts 160 bytes earlier in its page than the default;
    // the input 48 bytes into its page.
    assert_eq!(
        plain.solution_ptr() as usize - page_of(plain.solution_ptr()),
        start as usize - page_of(start) + 160
    );
    assert_eq!(input as usize - page_of(input), 48);
    assert_eq!(plain.input_ptr() as usize - page_of(plain.input_ptr()), 0);
    // Solution, slack, canary and the extra canary end at the guard page.
    let (guard_start, _) = buffer.guard();
    assert_eq!(start as usize + 81 + SLACK + CANARY + 160, guard_start);
    buffer.prepare();
    buffer.input()[..81].fill(b'.');
    assert_eq!(buffer.overflow(), None);
    assert_eq!(buffer.answer(), &[0; 81]);
    // SAFETY: the extra canary's last byte, the page's last.
    unsafe { start.add(81 + SLACK + CANARY + 159).write(0) };
    assert_eq!(buffer.overflow(), Some(SLACK + CANARY + 160));
    // The input is not in the solution's way.
    assert!(input as usize + 82 <= start as usize);
}

#[test]
fn sizes() {
    assert_eq!(parse_size("1k"), Ok(1024));
    assert_eq!(parse_size("3 MB"), Ok(3 << 20));
    assert_eq!(parse_size("1T"), Ok(1 << 40));
    for bad in [
        "",
        "M",
        "1X",
        "1.2.3G",
        "-1",
        "99999999999999999999",
        "20000000T",
    ] {
        assert!(parse_size(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_host_command_passes_the_library_and_options() {
    let command = HostCommand {
        program: "/bin/dlxbench".into(),
        spec: "/lib/a:b.so:solve".parse().unwrap(),
        kind: "sudoku",
        memory_limit: None,
    };
    let args: Vec<String> = command
        .args()
        .into_iter()
        .map(|a| a.into_string().unwrap())
        .collect();
    assert_eq!(
        args,
        ["solver-host", "--kind", "sudoku", "/lib/a:b.so:solve"]
    );
    // What the host is given parses back to the same library and symbol.
    let back: LibrarySpec = args[3].parse().unwrap();
    assert_eq!(
        (back.path, back.symbol),
        (command.spec.path, command.spec.symbol)
    );
}
