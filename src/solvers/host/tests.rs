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
