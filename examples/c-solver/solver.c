/*
 * A small Sudoku solver behind the C interface dlxbench loads with
 * --solver-lib (the one tdoku's benchmark program drives): bitmask
 * backtracking, branching on the open cell with the fewest candidates.
 *
 *   cc -O2 -shared -fPIC -o libexample_solver.so examples/c-solver/solver.c
 *   dlxbench bench --solver-lib ./libexample_solver.so:example_solve=c-example --solvers dlx,c-example
 *
 * Reentrant: all state is on the stack. `flags` is unused.
 */
#include <stddef.h>
#include <stdint.h>

struct search {
    uint16_t rows[9], cols[9], boxes[9];
    uint8_t grid[81];
    size_t limit, found, guesses;
    char *solution;
};

static int box_of(int cell) { return (cell / 27) * 3 + (cell % 9) / 3; }

static void place(struct search *s, int cell, int digit) {
    uint16_t bit = (uint16_t)(1u << digit);
    s->rows[cell / 9] |= bit;
    s->cols[cell % 9] |= bit;
    s->boxes[box_of(cell)] |= bit;
    s->grid[cell] = (uint8_t)digit;
}

static void unplace(struct search *s, int cell, int digit) {
    uint16_t bit = (uint16_t)(1u << digit);
    s->rows[cell / 9] &= (uint16_t)~bit;
    s->cols[cell % 9] &= (uint16_t)~bit;
    s->boxes[box_of(cell)] &= (uint16_t)~bit;
    s->grid[cell] = 0;
}

/* Returns 1 to stop (the limit is reached). */
static int search(struct search *s) {
    int best = -1, best_count = 10;
    uint16_t best_free = 0;
    for (int cell = 0; cell < 81; cell++) {
        if (s->grid[cell]) continue;
        uint16_t free = (uint16_t)(~(s->rows[cell / 9] | s->cols[cell % 9] | s->boxes[box_of(cell)]) & 0x3FE);
        int count = __builtin_popcount(free);
        if (count < best_count) {
            best = cell, best_count = count, best_free = free;
            if (count <= 1) break;
        }
    }
    if (best < 0) {
        if (s->found++ == 0)
            for (int i = 0; i < 81; i++) s->solution[i] = (char)('0' + s->grid[i]);
        return s->found >= s->limit;
    }
    if (best_count > 1) s->guesses++;
    for (int digit = 1; digit <= 9; digit++) {
        if (!(best_free & (1u << digit))) continue;
        place(s, best, digit);
        int stop = search(s);
        unplace(s, best, digit);
        if (stop) return 1;
    }
    return 0;
}

size_t example_solve(const char *input, size_t limit, uint32_t flags, char *solution,
                     size_t *num_guesses) {
    (void)flags;
    struct search s = {0};
    s.limit = limit;
    s.solution = solution;
    if (limit == 0) return 0;
    for (int cell = 0; cell < 81; cell++) {
        char c = input[cell];
        if (c >= '1' && c <= '9') {
            int digit = c - '0';
            uint16_t bit = (uint16_t)(1u << digit);
            if ((s.rows[cell / 9] | s.cols[cell % 9] | s.boxes[box_of(cell)]) & bit) return 0;
            place(&s, cell, digit);
        }
    }
    search(&s);
    if (num_guesses) *num_guesses = s.guesses;
    return s.found;
}
