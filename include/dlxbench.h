/*
 * dlxbench's built-in Sudoku solvers behind tdoku's C solver interface.
 *
 * Build the library with `cargo build --release -p dlxbench-ffi`, which
 * makes target/release/libdlxbench.so; link with -ldlxbench or dlopen it.
 *
 * Every solve function has the interface's signature:
 *
 *   input        81 characters in reading order: '1'-'9' a clue, '.' or '0'
 *                a blank. Read up to 81 bytes or the first NUL: a NUL
 *                earlier (a short string) is bad input. NULL: bad input.
 *   limit        stop after this many solutions (SIZE_MAX: count them all;
 *                0: nothing is searched, 0 is returned).
 *   flags        0 for normal use. 1-65535: a known slow-down, that many
 *                sixteenths of an iteration of a busy loop per search node,
 *                inside the call (for measuring a time gate's power:
 *                results/gate-power).
 *                Higher bits are reserved: a value with any of them set is
 *                refused (0 returned, *num_guesses set to 0, solution not
 *                written).
 *   solution     receives the first solution, 81 characters '1'-'9' (no
 *                NUL), when one is found; untouched otherwise. May be NULL.
 *   num_guesses  receives the solver's count of guesses (branch points).
 *                May be NULL.
 *
 * and returns the number of solutions found, at most limit. Bad input (a
 * short string, another character, clues that break the rules) gives 0,
 * never a crash.
 *
 * Each solver runs within its default budget (naive: 100,000 nodes; the
 * others: 10,000,000 nodes; every one: 10 seconds): when a search stops
 * there, the count returned is a lower bound and dlxbench_over_budget()
 * returns 1.
 *
 * Reentrancy: the functions are thread-safe. Each thread has its own
 * solver states, made on its first call of each function and reused
 * afterwards (later calls allocate nothing), so calls from several threads
 * at once neither share nor lock anything.
 */
#ifndef DLXBENCH_H
#define DLXBENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Knuth's Algorithm X on Dancing Links, fewest-options column choice. */
size_t dlxbench_dlx(const char *input, size_t limit, uint32_t flags,
                    char *solution, size_t *num_guesses);

/* Knuth's dancing cells (Algorithm X on sparse sets): the encoding and
 * search of dlxbench_dlx on another engine. */
size_t dlxbench_dc(const char *input, size_t limit, uint32_t flags,
                   char *solution, size_t *num_guesses);

/* Candidate bitmasks with naked and hidden singles propagated before
 * each guess, fewest-candidates cell guessed. */
size_t dlxbench_singles(const char *input, size_t limit, uint32_t flags,
                        char *solution, size_t *num_guesses);

/* dlxbench_singles plus locked candidates (pointing and claiming). */
size_t dlxbench_locked(const char *input, size_t limit, uint32_t flags,
                       char *solution, size_t *num_guesses);

/* Bitmask backtracking, fewest-candidates cell first. */
size_t dlxbench_heuristic(const char *input, size_t limit, uint32_t flags,
                          char *solution, size_t *num_guesses);

/* Plain backtracking in reading order: a baseline, with a budget of
 * 100,000 nodes (check dlxbench_over_budget()). */
size_t dlxbench_naive(const char *input, size_t limit, uint32_t flags,
                      char *solution, size_t *num_guesses);

/* 1 if the calling thread's last solve call stopped at its solver's budget
 * (its count is a lower bound: 0 then means "gave up", not "no solution");
 * 0 otherwise, and after a refused call (bad input, nonzero flags). */
int dlxbench_over_budget(void);

#ifdef __cplusplus
}
#endif

#endif /* DLXBENCH_H */
