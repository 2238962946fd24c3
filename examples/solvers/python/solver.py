#!/usr/bin/env python3
"""A Sudoku solver that speaks dlxbench's solver line protocol, version 1.

    dlxbench bench --solvers dlx --solver-cmd py="python3 examples/solvers/python/solver.py"

The protocol is in docs/solver-protocol.md. In short: print the header line
`dlxbench-protocol 1`, then answer each request `solve LIMIT PUZZLE` with one
line `COUNT SOLUTION guesses=N ns=N` (or `n/a REASON`), flushing standard
output after every line.

The search: bitmask backtracking (a mask of the values placed in each row,
column and box). At each step it places a forced value when there is one
(a cell with one candidate, or a value with one place left in a row,
column or box), and otherwise branches on the open cell with the fewest
candidates. Any box shape whose side is at most 61 (the one-symbol-per-cell
notation): the side n is the square root of the puzzle's length, the boxes
r rows by c columns as a `box=RxC` word after the puzzle says, or else with
r the largest divisor of n whose square is at most n; r, c >= 2. Standard library only.
"""

import sys
import time

HEADER = "dlxbench-protocol 1 +batch python-example"
SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
VALUE_OF = {symbol: value for value, symbol in enumerate(SYMBOLS)}
VALUE_OF["0"] = 0

_geometries = {}


class NotApplicable(Exception):
    """A puzzle this solver does not take: answered with `n/a REASON`."""


def default_box_rows(side):
    """The rows of a box when the request gives no `box=RxC`: the most
    square shape, r the largest divisor of the side whose square is at most
    the side."""
    return max(r for r in range(1, side + 1) if side % r == 0 and r * r <= side)


def geometry(side, box_rows):
    """The units of a grid of this side with boxes of `box_rows` rows:
    (units of each cell, cells of each unit).

    Units 0..side-1 are the rows, then the columns, then the boxes.
    """
    key = (side, box_rows)
    if key not in _geometries:
        box_cols = side // box_rows
        if box_rows < 2 or box_cols < 2 or box_rows * box_cols != side:
            raise NotApplicable(f"no {box_rows}-row boxes for side {side}")
        units_of = []
        cells_of = [[] for _ in range(3 * side)]
        for cell in range(side * side):
            row, col = divmod(cell, side)
            box = (row // box_rows) * box_rows + col // box_cols
            units = (row, side + col, 2 * side + box)
            units_of.append(units)
            for unit in units:
                cells_of[unit].append(cell)
        _geometries[key] = (units_of, cells_of)
    return _geometries[key]


def parse(puzzle):
    """The side and the cell values (0 for blank) of a one-line puzzle."""
    side = int(len(puzzle) ** 0.5 + 0.5)
    if side * side != len(puzzle) or side > 61:
        raise NotApplicable(f"not a square grid of side 4 to 61 ({len(puzzle)} symbols)")
    cells = []
    for symbol in puzzle:
        value = VALUE_OF.get(symbol)
        if value is None or value > side:
            raise NotApplicable(f"symbol {symbol!r} in a grid of side {side}")
        cells.append(value)
    return side, cells


def solve(side, box_rows, cells, limit):
    """Counts the solutions up to `limit` (0: all of them).

    Returns (count, first solution as a list of values or None, guesses):
    a guess is each value tried in a cell that had two candidates or more
    when no move was forced.
    """
    units_of, cells_of = geometry(side, box_rows)
    full = (1 << side) - 1
    used = [0] * (3 * side)  # the values placed in each unit
    grid = list(cells)
    free_of = [0] * len(grid)  # candidates of the open cells, as last computed
    empties = []
    for cell, value in enumerate(grid):
        if value == 0:
            empties.append(cell)
            continue
        bit = 1 << (value - 1)
        a, b, c = units_of[cell]
        if (used[a] | used[b] | used[c]) & bit:
            return 0, None, 0  # two equal clues in a unit
        used[a] |= bit
        used[b] |= bit
        used[c] |= bit

    total = len(empties)
    all_units = range(3 * side)
    state = {"count": 0, "first": None, "guesses": 0}

    def search(depth):
        """Fills empties[depth:]; returns True when the limit is reached."""
        if depth == total:
            state["count"] += 1
            if state["first"] is None:
                state["first"] = list(grid)
            return state["count"] == limit
        # The open cell with the fewest candidates (a naked single ends the scan).
        best, best_free, best_count = depth, 0, side + 1
        for j in range(depth, total):
            cell = empties[j]
            a, b, c = units_of[cell]
            free = full & ~(used[a] | used[b] | used[c])
            free_of[cell] = free
            count = free.bit_count()
            if count < best_count:
                best, best_free, best_count = j, free, count
                if count <= 1:
                    break
        if best_count == 0:
            return False
        guessing = best_count > 1
        if guessing:
            # A value with one place left in a unit is forced (a hidden
            # single); one with no place left is a dead end.
            for unit in all_units:
                once = twice = 0
                for cell in cells_of[unit]:
                    if grid[cell] == 0:
                        m = free_of[cell]
                        twice |= once & m
                        once |= m
                if full & ~used[unit] & ~once:
                    return False
                single = once & ~twice
                if single:
                    bit = single & -single
                    for cell in cells_of[unit]:
                        if grid[cell] == 0 and free_of[cell] & bit:
                            break
                    best, best_free, guessing = empties.index(cell, depth), bit, False
                    break
        empties[depth], empties[best] = empties[best], empties[depth]
        cell = empties[depth]
        a, b, c = units_of[cell]
        free = best_free
        while free:
            bit = free & -free
            free ^= bit
            if guessing:
                state["guesses"] += 1
            used[a] |= bit
            used[b] |= bit
            used[c] |= bit
            grid[cell] = bit.bit_length()
            stop = search(depth + 1)
            used[a] ^= bit
            used[b] ^= bit
            used[c] ^= bit
            grid[cell] = 0
            if stop:
                return True
        return False

    search(0)
    return state["count"], state["first"], state["guesses"]


def answer(request):
    """The response line (without its newline) to one request line."""
    parts = request.split(" ", 2)
    if len(parts) != 3 or parts[0] != "solve" or not parts[1].isdigit():
        return "error request not `solve LIMIT PUZZLE`"
    limit = int(parts[1])
    # PUZZLE, then words: `box=RxC` when the side alone does not tell the
    # box shape; others are ignored.
    words = parts[2].split(" ")
    try:
        side, cells = parse(words[0])
        box_rows = default_box_rows(side)
        for word in words[1:]:
            if word.startswith("box="):
                rows, _, cols = word[4:].partition("x")
                if not (rows.isdigit() and cols.isdigit() and int(rows) * int(cols) == side):
                    raise NotApplicable(f"box shape {word[4:]} for side {side}")
                box_rows = int(rows)
        geometry(side, box_rows)
    except NotApplicable as reason:
        return f"n/a {reason}"
    start = time.perf_counter_ns()
    try:
        count, first, guesses = solve(side, box_rows, cells, limit)
    except MemoryError:
        return "error memory out of memory"
    elapsed = time.perf_counter_ns() - start
    solution = "".join(SYMBOLS[v] for v in first) if first else "-"
    return f"{count} {solution} guesses={guesses} ns={elapsed}"


def main():
    # A 61x61 grid recurses once per open cell.
    sys.setrecursionlimit(10_000)
    out = sys.stdout
    out.write(HEADER + "\n")
    out.flush()  # the harness waits for this line: never leave it in a buffer
    while True:
        line = sys.stdin.readline()
        if not line:  # the harness closed our standard input: the end
            return
        try:
            response = answer(line.rstrip("\r\n"))
        except Exception as error:  # noqa: BLE001 - reported, not hidden
            message = f"{type(error).__name__}: {error}".replace("\n", " ")
            response = f"error other {message}"
        out.write(response + "\n")
        out.flush()


if __name__ == "__main__":
    main()
