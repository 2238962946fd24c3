//! The clock every solve is timed with, and every time budget checked
//! against.
//!
//! The harness times each solve on its own, so it reads the clock twice per
//! puzzle and solver (a time budget reads it only every
//! [`crate::budget::Meter::CLOCK_INTERVAL`] nodes of a long search). On this
//! project's 2-core KVM machine a `std::time::Instant` pair (the kernel's
//! monotonic clock through the vDSO) costs about 50 ns, 0.6% of a typical
//! `dlx` solve on the 17-clue list; reading the CPU's time-stamp counter
//! directly costs about 19 ns a pair. So solve times come from
//! [`quanta`]: the time-stamp counter where the CPU says it is invariant
//! (constant rate, running in every power state), scaled by a factor
//! calibrated once per process against the monotonic clock, and the
//! monotonic clock itself on any other machine.
//!
//! The counter is read without a fence, so the processor may start a few
//! instructions of the solve before the first read or finish a few after
//! the second: tens of cycles at most, about the same for every solver. A
//! fenced read (`lfence; rdtsc`) measured 38 ns a pair here against 19: the
//! fence would add that to every time instead.
//!
//! An [`Instant`] holds the raw reading; it is scaled to time only when
//! two are subtracted, after the second read, so neither the scaling nor
//! `quanta`'s per-read check for a thread's mock clock (which
//! `quanta::Instant::now` makes on every read) lands inside a timed region.
//! Under callgrind, a timed solve's clock work (two reads, the scaling)
//! went from 86 instructions with `quanta::Instant` to 33. A pair of reads
//! in a tight loop costs the same either way, 19.1 ns here (10,000,000
//! pairs, three times): the counter's own latency.
//!
//! ```
//! use dlxbench::clock::{self, Instant};
//!
//! clock::calibrate();
//! let started = Instant::now();
//! let took = started.elapsed();
//! assert!(took < std::time::Duration::from_secs(1));
//! assert!(Instant::now() >= started);
//! assert!(clock::overhead_ns() >= 0.0);
//! ```

use std::sync::OnceLock;
use std::time::Duration;

/// The process's clock, made (and calibrated) on first use.
fn clock() -> &'static quanta::Clock {
    static CLOCK: OnceLock<quanta::Clock> = OnceLock::new();
    CLOCK.get_or_init(quanta::Clock::new)
}

/// A reading of the clock: monotonic, comparable, and turned into a
/// [`Duration`] by subtracting an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Instant(u64);

impl Instant {
    /// The clock now.
    #[inline(always)]
    pub fn now() -> Instant {
        Instant(clock().raw())
    }

    /// The time since `self`: the clock is read first, then scaled.
    #[inline(always)]
    pub fn elapsed(self) -> Duration {
        Instant::now().duration_since(self)
    }

    /// The time from `earlier` to `self` (zero if `earlier` is later).
    #[inline]
    pub fn duration_since(self, earlier: Instant) -> Duration {
        Duration::from_nanos(clock().delta_as_nanos(earlier.0, self.0))
    }
}

/// Calibrates the clock now, if it was not already: once per process,
/// about a millisecond (at most 200 ms). The first [`Instant::now`] does
/// this otherwise, so callers about to time anything call it first, to keep
/// the calibration out of the first timed solve.
pub fn calibrate() {
    let _ = Instant::now();
}

/// Median cost of one [`Instant::now`] and [`Instant::elapsed`] pair, in
/// nanoseconds: what the clock adds to each timed solve. Measured once per
/// process, after calibrating the clock (tens of microseconds that a
/// harness run would otherwise pay each time, and `ab` makes dozens).
pub fn overhead_ns() -> f64 {
    static OVERHEAD: OnceLock<f64> = OnceLock::new();
    *OVERHEAD.get_or_init(|| {
        calibrate();
        // 2,001 pairs: a stable median in tens of microseconds.
        let mut samples = [0u32; 2_001];
        for s in samples.iter_mut() {
            let t = Instant::now();
            *s = t.elapsed().as_nanos() as u32;
        }
        samples.sort_unstable();
        f64::from(samples[samples.len() / 2])
    })
}
