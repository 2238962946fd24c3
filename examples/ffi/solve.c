/*
 * Solves a Sudoku with libdlxbench.so, through include/dlxbench.h.
 *
 *   cargo build --release -p dlxbench-ffi
 *   cc -O2 -Iinclude examples/ffi/solve.c -Ltarget/release -ldlxbench \
 *      -Wl,-rpath,"$PWD/target/release" -o solve
 *   ./solve .2..5.6.8...7..4.....1.3....6..4....3......5........1.7..3.5.........2......8....
 *   echo PUZZLE | ./solve        # or from standard input
 *
 * Prints the first solution (or "no solution"), then the count of
 * solutions up to 2 (a uniqueness check) and the guesses dlx made.
 */
#include <stdio.h>
#include <string.h>

#include "dlxbench.h"

int main(int argc, char **argv) {
    char line[256] = {0};
    if (argc > 1) {
        strncpy(line, argv[1], sizeof line - 1);
    } else if (!fgets(line, sizeof line, stdin)) {
        fprintf(stderr, "usage: %s PUZZLE (81 characters, or on standard input)\n", argv[0]);
        return 2;
    }
    line[strcspn(line, "\r\n")] = '\0';

    char solution[82] = {0};
    size_t guesses = 0;
    size_t found = dlxbench_dlx(line, 2, 0, solution, &guesses);
    if (found == 0) {
        printf("no solution%s\n", dlxbench_over_budget() ? " (over budget)" : "");
        return 1;
    }
    printf("%s\n", solution);
    printf("solutions: %zu%s, guesses: %zu\n", found, found == 2 ? " (or more)" : "", guesses);
    return 0;
}
