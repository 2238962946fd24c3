//! Confidence intervals for a ratio of solve times.
//!
//! * [`paired`]: the ratio of geometric means of paired per-puzzle times,
//!   `exp(mean(d))` with `d_i = ln(current_i / baseline_i)`, and a
//!   percentile bootstrap interval over puzzles: `resamples` times, draw
//!   `n` of the `d_i` with replacement and take their mean; the interval is
//!   the `(1 - confidence) / 2` and `(1 + confidence) / 2` quantiles of
//!   those means (linear interpolation between order statistics),
//!   exponentiated. Resample `b` draws from its own SplitMix64 stream
//!   ([`SplitMix::for_item`]`(seed, b)`), so the interval depends only on
//!   the data, the seed and the count, not on the thread count: resamples
//!   are spread over rayon's pool. Nothing is allocated per resample.
//! * [`student_t`]: the mean of a few replicate log-ratios (one per pass
//!   or pair of passes of `ab`, the level where the noise lives) with a
//!   Student-t interval: `exp(mean +- t(n - 1) s / sqrt(n))`. With few
//!   replicates a percentile bootstrap over them is too narrow (it uses
//!   about `z sqrt((n - 1) / n)` where `t(n - 1)` is due); the t interval
//!   is exact for normal replicates, and a replicate that is itself the
//!   mean of hundreds of puzzles is close to normal.
//! * [`blocks`]: the same ratio with a percentile bootstrap over *blocks*
//!   of consecutive lines ([`blocks_of`]): what `compare` uses. A burst of
//!   load or a frequency change hits the puzzles a solver solved back to
//!   back together, so they are not independent; a block of the schedule
//!   is the finest unit that carries such bursts, and one run's
//!   `puzzles.csv` holds nothing finer (passes keep only each puzzle's
//!   minimum). The noise between the two runs (code layout, the machine's
//!   state) is in no interval made of two runs: see `ab --aa`.
//! * [`normal`]: when per-puzzle times are missing on one side, the ratio
//!   of the arithmetic means with a normal-approximation interval on its
//!   logarithm (delta method): `se = sqrt(s_b^2 / (n_b m_b^2) + s_c^2 /
//!   (n_c m_c^2))`, interval `ratio * exp(+-z se)`.

use rayon::prelude::*;

use crate::harness::block_bootstrap;
pub use crate::harness::{quantile, t_for, z_for, BlockSum};
use crate::rng::SplitMix;

/// An estimate and its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub estimate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

impl Interval {
    /// Whether `x` lies within the interval (bounds included).
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// The ratio `exp(mean(d))` of replicate log-ratios `d` (each one a whole
/// replicate's `ln(B / A)`: a pass's, a pair of passes'), with the
/// Student-t interval `exp(mean +- t_for(confidence, n - 1) s / sqrt(n))`,
/// `s` the sample standard deviation. `None` with fewer than two values.
pub fn student_t(d: &[f64], confidence: f64) -> Option<Interval> {
    let n = d.len();
    if n < 2 {
        return None;
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t_for(confidence, n as u64 - 1) * (var / n as f64).sqrt();
    Some(Interval {
        estimate: mean.exp(),
        low: (mean - half).exp(),
        high: (mean + half).exp(),
    })
}

/// The ratio of geometric means of paired times from their log-ratios
/// `d` (`ln(current / baseline)` per puzzle), with a percentile bootstrap
/// interval from `resamples` resamples seeded with `seed`. `None` when `d`
/// has fewer than two values or `resamples` is 0.
pub fn paired(d: &[f64], resamples: usize, seed: u64, confidence: f64) -> Option<Interval> {
    let n = d.len();
    if n < 2 || resamples == 0 {
        return None;
    }
    let estimate = (d.iter().sum::<f64>() / n as f64).exp();
    let mut means = vec![0.0f64; resamples];
    // Chunks of resamples per task; each resample has its own stream, so
    // the result does not depend on how they are split.
    means
        .par_chunks_mut(64)
        .enumerate()
        .for_each(|(chunk, out)| {
            for (k, slot) in out.iter_mut().enumerate() {
                let b = (chunk * 64 + k) as u64;
                *slot = resample_mean(d, &mut SplitMix::for_item(seed, b));
            }
        });
    means.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some(Interval {
        estimate,
        low: quantile(&means, tail).exp(),
        high: quantile(&means, 1.0 - tail).exp(),
    })
}

/// The log-ratios `d` (line, log-ratio; sorted by line) summed per block of
/// `block` consecutive lines (`(line - 1) / block`), in line order.
pub fn blocks_of(d: &[(u64, f64)], block: usize) -> Vec<BlockSum> {
    let block = block.max(1) as u64;
    let mut out: Vec<(u64, BlockSum)> = Vec::new();
    for &(line, x) in d {
        let b = line.saturating_sub(1) / block;
        match out.last_mut() {
            Some((last, sum)) if *last == b => {
                sum.sum += x;
                sum.count += 1;
            }
            _ => out.push((b, BlockSum { sum: x, count: 1 })),
        }
    }
    out.into_iter().map(|(_, s)| s).collect()
}

/// The ratio of geometric means `exp(sum / count)` over `blocks` with a
/// percentile bootstrap interval that resamples blocks
/// ([`crate::harness::block_bootstrap`], the one the table's speed column
/// uses). `None` with fewer than two blocks or no resamples.
pub fn blocks(
    blocks: &[BlockSum],
    resamples: usize,
    seed: u64,
    confidence: f64,
) -> Option<Interval> {
    block_bootstrap(blocks, resamples, seed, confidence).map(|(estimate, low, high)| Interval {
        estimate,
        low,
        high,
    })
}

/// The mean of `d.len()` values drawn from `d` with replacement. Each
/// 64-bit random number gives two indices (multiply-shift on its 32-bit
/// halves; the selection probabilities differ from uniform by less than
/// `n / 2^32` relative, 2.3e-4 for a million puzzles), and four independent
/// sums keep the additions from forming one dependency chain.
#[inline]
fn resample_mean(d: &[f64], rng: &mut SplitMix) -> f64 {
    let n = d.len();
    let Ok(n32) = u32::try_from(n) else {
        return d.iter().map(|_| d[rng.below(n)]).sum::<f64>() / n as f64;
    };
    let n64 = u64::from(n32);
    let pick = |r: u64| (((r & 0xFFFF_FFFF) * n64) >> 32) as usize;
    let mut acc = [0.0f64; 4];
    for _ in 0..n / 4 {
        let (r, s) = (rng.next_u64(), rng.next_u64());
        acc[0] += d[pick(r)];
        acc[1] += d[pick(r >> 32)];
        acc[2] += d[pick(s)];
        acc[3] += d[pick(s >> 32)];
    }
    for _ in 0..n % 4 {
        acc[0] += d[pick(rng.next_u64())];
    }
    (acc[0] + acc[1] + acc[2] + acc[3]) / n as f64
}

/// Mean, standard deviation and count of one side's solve times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// Mean, ns.
    pub mean: f64,
    /// Sample standard deviation, ns.
    pub stddev: f64,
    /// Number of times.
    pub count: u64,
}

/// The ratio `current.mean / baseline.mean` with a normal-approximation
/// interval on its logarithm. `None` when a side has fewer than two times
/// or a zero mean.
pub fn normal(baseline: Moments, current: Moments, confidence: f64) -> Option<Interval> {
    if baseline.count < 2 || current.count < 2 || baseline.mean <= 0.0 || current.mean <= 0.0 {
        return None;
    }
    let rel = |m: Moments| (m.stddev / m.mean).powi(2) / m.count as f64;
    let se = (rel(baseline) + rel(current)).sqrt();
    let ratio = current.mean / baseline.mean;
    let z = z_for(confidence);
    Some(Interval {
        estimate: ratio,
        low: ratio * (-z * se).exp(),
        high: ratio * (z * se).exp(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Log-ratios of `n` (even) puzzles whose times scale by `ratio` with
    /// uniform multiplicative noise of width `noise` on the logarithm
    /// (seeded), in antithetic pairs `+u`, `-u`: the sample's geometric
    /// mean ratio is exactly `ratio`.
    fn noisy(n: usize, ratio: f64, noise: f64, seed: u64) -> Vec<f64> {
        let mut rng = SplitMix::new(seed);
        let mut d = Vec::with_capacity(n);
        for _ in 0..n / 2 {
            let u = rng.next_u64() as f64 / u64::MAX as f64 - 0.5;
            d.push(ratio.ln() + noise * u);
            d.push(ratio.ln() - noise * u);
        }
        rng.shuffle(&mut d);
        d
    }

    #[test]
    fn same_seed_same_interval_other_seed_other_interval() {
        let d = noisy(500, 1.1, 0.4, 3);
        let a = paired(&d, 1000, 7, 0.95).unwrap();
        let b = paired(&d, 1000, 7, 0.95).unwrap();
        assert_eq!(a, b);
        let c = paired(&d, 1000, 8, 0.95).unwrap();
        assert_eq!(a.estimate, c.estimate);
        assert_ne!((a.low, a.high), (c.low, c.high));
        // Bounds differ by resampling noise only.
        assert!((a.low - c.low).abs() < 0.01 && (a.high - c.high).abs() < 0.01);
    }

    #[test]
    fn interval_covers_the_true_ratio_and_shrinks_with_more_puzzles() {
        for (seed, ratio) in [(1, 1.0), (2, 1.5), (3, 0.7)] {
            let small = paired(&noisy(100, ratio, 0.5, seed), 2000, 1, 0.95).unwrap();
            let large = paired(&noisy(10_000, ratio, 0.5, seed), 2000, 1, 0.95).unwrap();
            assert!((small.estimate - ratio).abs() < 1e-9, "{ratio}: {small:?}");
            assert!(small.contains(ratio), "{ratio}: {small:?}");
            assert!(large.contains(ratio), "{ratio}: {large:?}");
            assert!(small.low < small.estimate && small.estimate < small.high);
            assert!(large.high - large.low < (small.high - small.low) / 5.0);
        }
    }

    #[test]
    fn width_matches_the_standard_error() {
        // Uniform noise of width 1 has standard deviation 1/sqrt(12); the
        // 95% interval of the mean of n is about +-1.96 sd / sqrt(n).
        let n = 4000;
        let d = noisy(n, 1.0, 1.0, 11);
        let i = paired(&d, 4000, 5, 0.95).unwrap();
        let mean = i.estimate.ln();
        let half = 1.96 / 12f64.sqrt() / (n as f64).sqrt();
        assert!(((i.high.ln() - mean) / half - 1.0).abs() < 0.15, "{i:?}");
        assert!(((mean - i.low.ln()) / half - 1.0).abs() < 0.15, "{i:?}");
    }

    #[test]
    fn constant_ratio_gives_a_point_interval() {
        let d = vec![1.5f64.ln(); 50];
        let i = paired(&d, 200, 1, 0.95).unwrap();
        for x in [i.estimate, i.low, i.high] {
            assert!((x - 1.5).abs() < 1e-12, "{i:?}");
        }
        assert!(paired(&d[..1], 200, 1, 0.95).is_none());
    }

    #[test]
    fn student_t_interval() {
        // Mean 0.02, sd 0.01 over 5: half-width 2.776 * 0.01 / sqrt(5).
        let d = [0.01, 0.02, 0.03, 0.01, 0.03].map(|x: f64| x);
        let sd = (d.iter().map(|x| (x - 0.02f64).powi(2)).sum::<f64>() / 4.0).sqrt();
        let i = student_t(&d, 0.95).unwrap();
        let half = 2.776_4 * sd / 5f64.sqrt();
        assert!((i.estimate.ln() - 0.02).abs() < 1e-12);
        assert!((i.high.ln() - 0.02 - half).abs() < 1e-5, "{i:?}");
        assert!((0.02 - i.low.ln() - half).abs() < 1e-5, "{i:?}");
        assert!(student_t(&d[..1], 0.95).is_none());
        // Coverage: 2000 samples of 6 normal-ish replicates around 0.
        let mut rng = SplitMix::new(9);
        let mut covered = 0;
        for _ in 0..2000 {
            let d: Vec<f64> = (0..6)
                .map(|_| {
                    (0..12)
                        .map(|_| rng.next_u64() as f64 / u64::MAX as f64)
                        .sum::<f64>()
                        - 6.0
                })
                .collect();
            covered += usize::from(student_t(&d, 0.95).unwrap().contains(1.0));
        }
        assert!((1860..=1940).contains(&covered), "{covered}");
    }

    #[test]
    fn normal_interval() {
        let b = Moments {
            mean: 100.0,
            stddev: 50.0,
            count: 100,
        };
        let c = Moments { mean: 150.0, ..b };
        let i = normal(b, c, 0.95).unwrap();
        assert!((i.estimate - 1.5).abs() < 1e-12);
        // se = sqrt(0.25/100 + (1/3)^2/100)
        let se = (0.0025f64 + (1.0f64 / 9.0) / 100.0).sqrt();
        assert!((i.high / 1.5 - (1.96 * se).exp()).abs() < 1e-3);
        assert!(i.low > 1.0);
        assert!(normal(Moments { count: 1, ..b }, c, 0.95).is_none());
    }
}
