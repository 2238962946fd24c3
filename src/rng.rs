//! Seeded randomness: SplitMix64, a small deterministic generator for
//! reproducible shuffles, symmetry images and bootstrap resamples; and
//! [`below`] and [`shuffle`] over ChaCha8 (`rand_chacha`, whose stream is
//! fixed across platforms and versions), which the puzzle generators and
//! the random grid fill draw from.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

/// SplitMix64: a tiny, fast, seedable generator. Not cryptographic; used for
/// reproducible shuffles and symmetry images.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// A generator for one item (a puzzle's byte offset, a chunk index) of a
    /// run seeded with `seed`: independent streams for different items.
    pub fn for_item(seed: u64, item: u64) -> Self {
        let mut g = SplitMix(seed ^ item.wrapping_mul(0xA24B_AED4_963E_E407));
        g.next_u64();
        g
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift (bias below 2^-50
    /// for the sizes used here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A uniform integer in `0..n` (`n >= 1`) from the 32-bit outputs of `rng`
/// (Lemire's multiply-and-reject method), so results do not depend on the
/// platform or on any crate's sampling code.
pub fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Shuffles `items` in place (Fisher-Yates, from the end).
pub fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_and_shuffle_stay_in_range() {
        let mut rng = SplitMix::new(1);
        let mut v: Vec<usize> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..50).collect::<Vec<_>>());
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }

    #[test]
    fn streams_are_deterministic_and_differ_by_item() {
        let a: Vec<u64> = (0..4)
            .map(|_| SplitMix::for_item(7, 1).next_u64())
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            SplitMix::for_item(7, 1).next_u64(),
            SplitMix::for_item(7, 2).next_u64()
        );
    }
}
