//! `libdlxbench.so`: dlxbench's built-in Sudoku solvers behind tdoku's C
//! solver interface, declared in `include/dlxbench.h`.
//!
//! Build it with `cargo build --release -p dlxbench-ffi`. Each function is
//! a one-line wrapper around [`dlxbench_lib::ffi`], which holds the logic
//! and its tests; the unmangled symbols are defined here, not in the
//! library, so that programs linking the library (the `dlxbench` binary,
//! the tests that load this one) do not define them too.

use std::ffi::{c_char, c_int};

use dlxbench_lib::ffi::{self, Export};

/// Defines the exported solve function `$name` for `$export`.
macro_rules! export {
    ($(#[$doc:meta])* $name:ident => $export:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// As [`dlxbench_lib::ffi::solve_raw`]: `input` null, 81 readable
        /// bytes or a shorter NUL-terminated string; `solution` null or 81
        /// writable bytes; `num_guesses` null or a writable `size_t`.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            input: *const c_char,
            limit: usize,
            flags: u32,
            solution: *mut c_char,
            num_guesses: *mut usize,
        ) -> usize {
            // SAFETY: the caller's promises are solve_raw's (above).
            unsafe { ffi::solve_raw($export, input, limit, flags, solution, num_guesses) }
        }
    };
}

export!(
    /// The `dlx` solver (Algorithm X on Dancing Links, fewest-options column).
    dlxbench_dlx => Export::Dlx
);
export!(
    /// The `dc` solver (Algorithm X on dancing cells, Knuth's sparse sets;
    /// the same encoding and search as `dlx` on another engine).
    dlxbench_dc => Export::Dc
);
export!(
    /// The `singles` solver (candidate bitmasks with naked and hidden singles,
    /// fewest-candidates guesses).
    dlxbench_singles => Export::Singles
);
export!(
    /// The `locked` solver (`singles` plus locked candidates).
    dlxbench_locked => Export::Locked
);
export!(
    /// The `heuristic` solver (bitmask backtracking, fewest candidates first).
    dlxbench_heuristic => Export::Heuristic
);
export!(
    /// The `naive` solver (plain backtracking), with its default budget of
    /// 100,000 nodes: see [`dlxbench_over_budget`].
    dlxbench_naive => Export::Naive
);

/// 1 if the calling thread's last call of a solve function stopped at its
/// solver's budget (its count is then a lower bound, and 0 means "gave up"
/// rather than "no solution"); 0 otherwise.
#[no_mangle]
pub extern "C" fn dlxbench_over_budget() -> c_int {
    c_int::from(ffi::last_over_budget())
}
