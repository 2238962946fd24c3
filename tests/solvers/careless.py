#!/usr/bin/env python3
# A solver the way a hurried user writes one: it "solves" by looking the
# answer up (answers.txt: PUZZLE SOLUTION lines), sleeps to stand for work,
# and misbehaves the way real ones do. Used by tests/it/solver_cmd.rs.
#
#   careless.py ANSWERS MODE [N]
#
# MODE: liar (works 2-20 ms, says ns=1), half (says half its time), honest
# (says its time), and on the puzzle of line N of ANSWERS: stray (a debug
# print before the answer), double (prints the answer twice), noisy (40 MB
# of stderr), nonewline (50 MB without a newline), closed (closes stdout
# and keeps going), sigstop (stops itself), grandchild (leaves a child
# holding stdout and exits), bigcount (a count above 2^64); typo prints
# "dlxbench-protocl 1". MODE+batch: the same, announcing batches (+batch).
import os, sys, time, signal, subprocess, zlib

answers = {}
order = []
for l in open(sys.argv[1]):
    p, s = l.split()
    answers[p] = s
    order.append(p)
mode = sys.argv[2]
batch = mode.endswith("+batch")
mode = mode.removesuffix("+batch")
n = int(sys.argv[3]) if len(sys.argv) > 3 else 5
target = order[n - 1]

if mode == "typo":
    print("dlxbench-protocl 1", flush=True)
else:
    print("dlxbench-protocol 1" + (" +batch" if batch else "") + " careless", flush=True)
for line in sys.stdin:
    words = line.split()
    puzzle = words[2]
    sol = answers.get(puzzle)
    t0 = time.perf_counter_ns()
    # "work": 2-20 ms, different per puzzle
    time.sleep((2 + zlib.crc32(puzzle.encode()) % 19) / 1000)
    took = time.perf_counter_ns() - t0
    ans = "1 " + sol if sol else "0 -"
    if mode == "liar":
        print(ans + " ns=1", flush=True)
    elif mode == "half":
        print(ans + " ns=" + str(took // 2), flush=True)
    elif mode == "honest":
        print(ans + " ns=" + str(took), flush=True)
    elif mode == "stray" and puzzle == target:
        print("debug: solving", puzzle, flush=True)
        print(ans, flush=True)
    elif mode == "double" and puzzle == target:
        print(ans, flush=True)
        time.sleep(0.001)
        print(ans, flush=True)
    elif mode == "noisy" and puzzle == target:
        for i in range(40):
            sys.stderr.write("x" * (1 << 20))
        sys.stderr.flush()
        print(ans, flush=True)
    elif mode == "nonewline" and puzzle == target:
        sys.stdout.write("1" * (50 << 20))
        sys.stdout.flush()
        time.sleep(60)
    elif mode == "closed" and puzzle == target:
        os.close(1)
        time.sleep(60)
    elif mode == "sigstop" and puzzle == target:
        os.kill(os.getpid(), signal.SIGSTOP)
        print(ans, flush=True)
    elif mode == "grandchild" and puzzle == target:
        subprocess.Popen(["sleep", "600"])
        os._exit(0)
    elif mode == "bigcount" and puzzle == target:
        print("99999999999999999999999 " + sol, flush=True)
    else:
        print(ans, flush=True)
