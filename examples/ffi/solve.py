#!/usr/bin/env python3
"""Solves a Sudoku with libdlxbench.so through ctypes.

    cargo build --release -p dlxbench-ffi
    python3 examples/ffi/solve.py PUZZLE [target/release/libdlxbench.so]

Prints each solver's first solution, count of solutions up to 2 and guesses.
"""
import ctypes
import sys

puzzle = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.readline().strip()
lib = ctypes.CDLL(sys.argv[2] if len(sys.argv) > 2 else "target/release/libdlxbench.so")

for name in ("dlx", "dc", "singles", "heuristic", "naive"):
    solve = getattr(lib, "dlxbench_" + name)
    solve.restype = ctypes.c_size_t
    solve.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32,
                      ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]
    solution = ctypes.create_string_buffer(82)
    guesses = ctypes.c_size_t(0)
    found = solve(puzzle.encode(), 2, 0, solution, ctypes.byref(guesses))
    over = " (over budget)" if lib.dlxbench_over_budget() else ""
    text = solution.value.decode() if found else "no solution"
    print(f"{name:9} {text} solutions={found}{over} guesses={guesses.value}")
