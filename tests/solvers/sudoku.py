#!/usr/bin/env python3
"""A 9x9 Sudoku solver speaking the dlxbench solver protocol, version 1,
with misbehaviours on demand for the tests of solvers in their own
processes (tests/it/solver_cmd.rs).

Options:
  --fail MODE=PUZZLE   misbehave on this puzzle (81 characters): MODE is
                       exit (exit 3), segv (killed by SIGSEGV), hang
                       (sleep for ever), garbage (print a malformed line),
                       overflow (answer `error overflow`), na (`n/a`).
  --always MODE        misbehave on every puzzle.
  --exit-after N       exit (status 0) after answering N requests.
  --slow-start SECS    sleep before printing the header.
  --ns                 report the own solve time (ns=).
  --mems K             report mems=K x (blank cells of the puzzle): a
                       stand-in count, deterministic per puzzle (K differs:
                       an algorithm change).
  --version V          print this protocol version in the header.
  --answers FILE       lines `PUZZLE SOLUTION` of puzzles with one solution:
                       answered from there (fast), others searched.
"""

import os
import signal
import sys
import time

ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
         for br in (0, 3, 6) for bc in (0, 3, 6)]
PEERS = []
for cell in range(81):
    r, c = divmod(cell, 9)
    b = (r // 3) * 3 + c // 3
    PEERS.append(sorted(set(ROWS[r] + COLS[c] + BOXES[b]) - {cell}))
ALL = 0x1FF


def count_solutions(grid, limit, first):
    """Counts solutions up to limit by backtracking on the most
    constrained cell; the first one goes into first. Returns (count, guesses)."""
    guesses = 0
    found = 0

    def search():
        nonlocal guesses, found
        best, best_mask, best_n = -1, 0, 10
        for cell in range(81):
            if grid[cell]:
                continue
            used = 0
            for p in PEERS[cell]:
                if grid[p]:
                    used |= 1 << (grid[p] - 1)
            mask = ALL & ~used
            n = bin(mask).count("1")
            if n < best_n:
                best, best_mask, best_n = cell, mask, n
                if n <= 1:
                    break
        if best < 0:
            if found == 0:
                first[:] = grid
            found += 1
            return found >= limit
        if best_n == 0:
            return False
        if best_n > 1:
            guesses += 1
        for d in range(9):
            if best_mask >> d & 1:
                grid[best] = d + 1
                if search():
                    grid[best] = 0
                    return True
                grid[best] = 0
        return False

    search()
    return found, guesses


def main():
    args = sys.argv[1:]
    fail = {}
    always = None
    exit_after = None
    slow = 0.0
    own_ns = False
    mems_per_blank = None
    version = "1"
    answers = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--fail":
            mode, puzzle = args[i + 1].split("=", 1)
            fail[puzzle] = mode
            i += 2
        elif a == "--always":
            always = args[i + 1]
            i += 2
        elif a == "--exit-after":
            exit_after = int(args[i + 1])
            i += 2
        elif a == "--slow-start":
            slow = float(args[i + 1])
            i += 2
        elif a == "--ns":
            own_ns = True
            i += 1
        elif a == "--mems":
            mems_per_blank = int(args[i + 1])
            i += 2
        elif a == "--version":
            version = args[i + 1]
            i += 2
        elif a == "--answers":
            with open(args[i + 1]) as f:
                for entry in f:
                    words = entry.split()
                    if len(words) == 2:
                        answers[words[0]] = words[1]
            i += 2
        else:
            sys.exit("unknown option " + a)
    if slow:
        time.sleep(slow)
    out = sys.stdout
    out.write("dlxbench-protocol %s sudoku.py\n" % version)
    out.flush()
    answered = 0
    for line in sys.stdin:
        words = line.split()
        if len(words) < 3 or words[0] != "solve":
            sys.stderr.write("bad request: %r\n" % line)
            sys.exit(2)
        limit, puzzle = int(words[1]), words[2]
        mode = always or fail.get(puzzle)
        sys.stderr.write("request %d\n" % (answered + 1))
        if mode == "exit":
            sys.exit(3)
        if mode == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "hang":
            sys.stderr.write("hanging\n")
            sys.stderr.flush()
            while True:
                time.sleep(60)
        if mode == "garbage":
            out.write("the answer is 42\n")
        elif mode == "overflow":
            out.write("error overflow wrote past the buffer\n")
        elif mode == "na" or len(puzzle) != 81:
            out.write("n/a 9x9 only\n")
        else:
            started = time.perf_counter_ns()
            if puzzle in answers:
                count, guesses, solution = 1, 0, answers[puzzle]
            else:
                grid = [0 if ch in ".0" else int(ch) for ch in puzzle]
                first = [0] * 81
                count, guesses = count_solutions(grid, limit, first)
                solution = "".join(map(str, first)) if count else "-"
            took = time.perf_counter_ns() - started
            extra = " ns=%d" % took if own_ns else ""
            if mems_per_blank is not None:
                blanks = sum(1 for ch in puzzle if ch in ".0")
                extra += " mems=%d" % (mems_per_blank * blanks)
            out.write("%d %s guesses=%d%s\n" % (count, solution, guesses, extra))
        out.flush()
        answered += 1
        if exit_after is not None and answered >= exit_after:
            sys.exit(0)


if __name__ == "__main__":
    main()
