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

/// The environment variable through which a process hands its clock's
/// calibration to the processes it starts ([`handed_down`]): the
/// nanoseconds of 2^40 time-stamp counter ticks, in decimal. A process
/// that finds it (and a counter [`quanta`] would use) takes that scale
/// instead of calibrating its own: an isolated host
/// ([`crate::solvers::host`]) then starts without quanta's calibration, a
/// busy loop of at least half a millisecond and up to 200 ms when the
/// process is preempted in it (15-57 ms a host measured at load 8, its
/// reads of the monotonic clock the most of a host's start-up), and
/// times its calls on the harness's own scale.
pub const CALIBRATION_ENV: &str = "DLXBENCH_CLOCK_CALIBRATION";

/// The bits of the fixed-point scale handed down ([`CALIBRATION_ENV`]).
const HANDED_SHIFT: u32 = 40;

/// The process's clock: quanta's, or the counter on a scale handed down.
enum Clock {
    Quanta(quanta::Clock),
    /// The time-stamp counter; nanoseconds per 2^[`HANDED_SHIFT`] ticks.
    Handed(u64),
}

impl Clock {
    /// A raw reading.
    #[inline(always)]
    fn raw(&self) -> u64 {
        match self {
            Clock::Quanta(clock) => clock.raw(),
            Clock::Handed(_) => counter(),
        }
    }

    /// The nanoseconds from raw reading `start` to `end` (0 if `end` is
    /// not later).
    #[inline]
    fn delta_as_nanos(&self, start: u64, end: u64) -> u64 {
        match self {
            Clock::Quanta(clock) => clock.delta_as_nanos(start, end),
            Clock::Handed(_) if end <= start => 0,
            Clock::Handed(scale) => {
                let nanos = (u128::from(end - start) * u128::from(*scale)) >> HANDED_SHIFT;
                u64::try_from(nanos).unwrap_or(u64::MAX)
            }
        }
    }
}

/// The process's clock, made (and calibrated, unless a scale was handed
/// down: [`CALIBRATION_ENV`]) on first use.
fn clock() -> &'static Clock {
    static CLOCK: OnceLock<Clock> = OnceLock::new();
    CLOCK.get_or_init(|| {
        let handed = std::env::var(CALIBRATION_ENV)
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&scale| scale > 0 && counter_supported());
        match handed {
            Some(scale) => Clock::Handed(scale),
            None => Clock::Quanta(quanta::Clock::new()),
        }
    })
}

/// This process's calibration, to hand to a process it starts on the same
/// machine (the value of [`CALIBRATION_ENV`]): `None` where the clock is
/// no time-stamp counter (calibrates it first, if it was not).
pub fn handed_down() -> Option<String> {
    if !counter_supported() {
        return None;
    }
    let scale = match clock() {
        Clock::Quanta(clock) => clock.delta_as_nanos(0, 1 << HANDED_SHIFT),
        Clock::Handed(scale) => *scale,
    };
    (scale > 0).then(|| scale.to_string())
}

/// Whether quanta reads the time-stamp counter here: an invariant counter
/// and `rdtscp`, its own test (`has_counter_support`), on x86-64 (only
/// there is a calibration handed down).
fn counter_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use std::arch::x86_64::__cpuid;
        // SAFETY: `cpuid` exists on every x86-64 processor; the extended
        // leaves are read only below the highest one it reports. (Safe to
        // call in later Rust versions.)
        #[allow(unused_unsafe)]
        unsafe {
            let highest = __cpuid(0x8000_0000).eax;
            if highest < 0x8000_0007 {
                return false;
            }
            let rdtscp = __cpuid(0x8000_0001).edx & (1 << 27) != 0;
            let invariant = __cpuid(0x8000_0007).edx & (1 << 8) != 0;
            rdtscp && invariant
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        false
    }
}

/// The time-stamp counter, read as quanta reads it (no fence).
#[inline(always)]
fn counter() -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `rdtsc` exists on every x86-64 processor.
        unsafe { std::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        unreachable!("a calibration is handed down on x86-64 only")
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scale_handed_down_times_as_the_calibration_it_came_from() {
        // One nanosecond a tick: the raw difference.
        let one = Clock::Handed(1 << HANDED_SHIFT);
        assert_eq!(one.delta_as_nanos(5, 1_005), 1_000);
        assert_eq!(one.delta_as_nanos(1_005, 5), 0);
        let Some(scale) = handed_down() else {
            // No time-stamp counter here: nothing is handed down.
            assert!(!counter_supported());
            return;
        };
        let handed = Clock::Handed(scale.parse().unwrap());
        let Clock::Quanta(own) = clock() else {
            panic!("this process calibrated its own clock");
        };
        // A millisecond's ticks, a second's, a minute's (at most 10 GHz):
        // within a nanosecond of quanta's scaling.
        for ticks in [10_000_000u64, 10_000_000_000, 600_000_000_000] {
            let (a, b) = (
                own.delta_as_nanos(7, 7 + ticks),
                handed.delta_as_nanos(7, 7 + ticks),
            );
            assert!(
                a.abs_diff(b) <= 1 + a / 1_000_000_000,
                "{ticks} ticks: {a} and {b} ns"
            );
        }
    }
}
