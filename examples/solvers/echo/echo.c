/*
 * The trivial solver of the solver line protocol, version 1
 * (docs/solver-protocol.md): it does no work, so what a run measures with
 * it is the round trip alone, the floor under every solver in its own
 * process on this machine.
 *
 * It answers a full grid (no blank: `.` or `0`) with itself, `1 PUZZLE`,
 * which is right, and anything else with `n/a`: bench it on solutions.
 *
 *   cc -O2 -o echo-solver examples/solvers/echo/echo.c
 *   dlxbench solve CORPUS > solved.txt
 *   dlxbench bench solved.txt --solvers dlx,echo --solver-cmd echo=./echo-solver -j1
 */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char line[1 << 16];
    fputs("dlxbench-protocol 1 echo\n", stdout);
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {
        /* `solve LIMIT PUZZLE[ box=RxC]` */
        char *limit = strchr(line, ' ');
        char *puzzle = limit ? strchr(limit + 1, ' ') : NULL;
        if (!puzzle) {
            fputs("error request not `solve LIMIT PUZZLE`\n", stdout);
        } else {
            puzzle++;
            puzzle[strcspn(puzzle, " \r\n")] = '\0';
            if (strpbrk(puzzle, ".0"))
                fputs("n/a full grids only\n", stdout);
            else
                printf("1 %s\n", puzzle);
        }
        fflush(stdout); /* every line, or the harness waits for ever */
    }
    return 0;
}
