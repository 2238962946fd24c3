//! The column scans of the minimum-remaining-values choice, over the dense
//! array of column entries (`Dlx::lens`): a length, plus flag bits that make
//! a covered or secondary column's entry larger than any length.
//!
//! Three implementations give the same answers: AVX2 (eight entries a step,
//! chosen at run time when the processor has it), SSE2 (four a step, every
//! x86-64 processor) and plain Rust elsewhere. The callers guarantee that
//! the entries can be read in whole groups of [`WORD`] past the last
//! primary column (the array is padded with covered entries).

// Duplicates (issue #42): the SSE2 and AVX2 kernels are alike on purpose: one each for a vector
// width, with its own intrinsics.

/// Columns whose ties [`Scanner::ties`] reports in one bit mask.
pub(super) const WORD: usize = 64;

/// Every entry at or above this is a flagged (covered or secondary) column.
pub(super) const FLAGS: u32 = 1 << 29;

/// Which instructions the scans use, decided once when an arena is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scanner {
    /// Eight 32-bit entries a step.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// Four 32-bit entries a step.
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// One entry a step. (On x86-64 only the tests use it, as the
    /// reference the others must agree with.)
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))]
    Plain,
}

impl Scanner {
    /// The fastest scanner this processor runs.
    pub(super) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                return Scanner::Avx2;
            }
            Scanner::Sse2
        }
        #[cfg(not(target_arch = "x86_64"))]
        Scanner::Plain
    }

    /// Every scanner this processor runs (for tests).
    #[cfg(test)]
    pub(super) fn all() -> Vec<Self> {
        let mut all = vec![Scanner::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            all.push(Scanner::Sse2);
            if std::arch::is_x86_feature_detected!("avx2") {
                all.push(Scanner::Avx2);
            }
        }
        all
    }

    /// Over the entries `lens[1..=primary]`, in column order: the first
    /// column whose entry is at most 1 (an open column that cannot be
    /// beaten) as `Err`, else the least entry as `Ok`. The vector scans
    /// read past `primary` too, so when every entry is at least [`FLAGS`]
    /// (no open column) the answer is only known to be at least that.
    ///
    /// # Safety
    /// `lens` must be readable up to `1 + primary` rounded up to a multiple
    /// of [`WORD`], and every entry past `primary` must be at least
    /// [`FLAGS`]. Entries are below 2^31.
    #[inline(always)]
    pub(super) unsafe fn min(self, lens: *const u32, primary: u32) -> Result<u32, u32> {
        match self {
            #[cfg(target_arch = "x86_64")]
            Scanner::Avx2 => min_avx2(lens, primary),
            #[cfg(target_arch = "x86_64")]
            Scanner::Sse2 => min_sse2(lens, primary),
            Scanner::Plain => min_plain(lens, primary),
        }
    }

    /// A mask of the columns `word..word + WORD` whose entry is `len`
    /// (bit `i` for column `word + i`).
    ///
    /// # Safety
    /// `lens` must be readable up to `word + WORD`.
    #[inline(always)]
    pub(super) unsafe fn ties(self, lens: *const u32, word: u32, len: u32) -> u64 {
        match self {
            #[cfg(target_arch = "x86_64")]
            Scanner::Avx2 => ties_avx2(lens, word, len),
            #[cfg(target_arch = "x86_64")]
            Scanner::Sse2 => ties_sse2(lens, word, len),
            Scanner::Plain => ties_plain(lens, word, len),
        }
    }
}

// The plain, SSE2 and AVX2 scans below are alike on purpose: one body per
// instruction set (the vector width and intrinsics differ), each inlined
// whole into the search's column choice.
#[inline(always)]
unsafe fn min_plain(lens: *const u32, primary: u32) -> Result<u32, u32> {
    let mut min = u32::MAX;
    for c in 1..=primary {
        let len = *lens.add(c as usize);
        if len <= 1 {
            return Err(c);
        }
        min = min.min(len);
    }
    Ok(min)
}

#[inline(always)]
unsafe fn ties_plain(lens: *const u32, word: u32, len: u32) -> u64 {
    let mut ties = 0u64;
    for k in 0..WORD {
        ties |= u64::from(*lens.add(word as usize + k) == len) << k;
    }
    ties
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn min_sse2(lens: *const u32, primary: u32) -> Result<u32, u32> {
    use std::arch::x86_64::*;
    // SSE2 has no unsigned 32-bit minimum; entries stay below 2^31, so the
    // signed comparison orders them the same.
    let two = _mm_set1_epi32(2);
    let mut min = _mm_set1_epi32(i32::MAX);
    let mut c = 1;
    while c <= primary {
        let v = _mm_loadu_si128(lens.add(c as usize) as *const __m128i);
        let short = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(v, two)));
        if short != 0 {
            return Err(c + short.trailing_zeros());
        }
        let less = _mm_cmplt_epi32(v, min);
        min = _mm_or_si128(_mm_and_si128(less, v), _mm_andnot_si128(less, min));
        c += 4;
    }
    let mut lanes = [0u32; 4];
    _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, min);
    let min = lanes[0].min(lanes[1]).min(lanes[2].min(lanes[3]));
    // No entry read (no primary column): the same answer as the others.
    Ok(if min == i32::MAX as u32 {
        u32::MAX
    } else {
        min
    })
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn ties_sse2(lens: *const u32, word: u32, len: u32) -> u64 {
    use std::arch::x86_64::*;
    let key = _mm_set1_epi32(len as i32);
    let mut ties = 0u64;
    for k in (0..WORD).step_by(4) {
        let v = _mm_loadu_si128(lens.add(word as usize + k) as *const __m128i);
        let hits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, key)));
        ties |= (hits as u64) << k;
    }
    ties
}

// The AVX2 scans are separate functions compiled for AVX2 (they cannot be
// inlined into the search, which is compiled for the baseline): a call per
// scan, a few dozen a puzzle.

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn min_avx2(lens: *const u32, primary: u32) -> Result<u32, u32> {
    use std::arch::x86_64::*;
    let two = _mm256_set1_epi32(2);
    let mut min = _mm256_set1_epi32(-1);
    let mut c = 1;
    while c <= primary {
        let v = _mm256_loadu_si256(lens.add(c as usize) as *const __m256i);
        let short = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(two, v)));
        if short != 0 {
            return Err(c + short.trailing_zeros());
        }
        min = _mm256_min_epu32(min, v);
        c += 8;
    }
    let mut lanes = [0u32; 8];
    _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, min);
    Ok(lanes.into_iter().min().unwrap_or(u32::MAX))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn ties_avx2(lens: *const u32, word: u32, len: u32) -> u64 {
    use std::arch::x86_64::*;
    let key = _mm256_set1_epi32(len as i32);
    let mut ties = 0u64;
    for k in (0..WORD).step_by(8) {
        let v = _mm256_loadu_si256(lens.add(word as usize + k) as *const __m256i);
        let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, key)));
        ties |= (hits as u64) << k;
    }
    ties
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency on `rand` here).
    fn lcg(state: &mut u64) -> u32 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*state >> 33) as u32
    }

    #[test]
    fn every_scanner_agrees_with_the_plain_one() {
        let mut state = 7;
        for primary in [0u32, 1, 3, 4, 7, 8, 9, 63, 64, 65, 200, 324] {
            for round in 0..200 {
                // Entries as the arena holds them: short and long lengths,
                // covered columns, padding after the primary columns.
                let total = 1 + primary as usize + 2 * WORD;
                let mut lens = vec![1u32 << 30; total];
                for len in &mut lens[1..=primary as usize] {
                    let r = lcg(&mut state);
                    *len = match r % 8 {
                        0 => (1 << 30) | ((r >> 8) % 9),
                        // Fewer short columns in later rounds, so that
                        // scans also run to the end.
                        1 if round % 2 == 0 => (r >> 8) % 2,
                        _ => 2 + (r >> 8) % 6,
                    };
                }
                let expected = unsafe { Scanner::Plain.min(lens.as_ptr(), primary) };
                for scanner in Scanner::all() {
                    let got = unsafe { scanner.min(lens.as_ptr(), primary) };
                    match (got, expected) {
                        // No open column: any flagged value will do.
                        (Ok(a), Ok(b)) if b >= FLAGS => assert!(a >= FLAGS, "{scanner:?}"),
                        _ => assert_eq!(got, expected, "{scanner:?} min, primary {primary}"),
                    }
                    let Ok(min) = expected else { continue };
                    if min >= FLAGS {
                        continue;
                    }
                    let mut word = 1;
                    while word <= primary {
                        let plain = unsafe { Scanner::Plain.ties(lens.as_ptr(), word, min) };
                        let got = unsafe { scanner.ties(lens.as_ptr(), word, min) };
                        assert_eq!(got, plain, "{scanner:?} ties at {word}, primary {primary}");
                        word += WORD as u32;
                    }
                }
            }
        }
    }

    #[test]
    fn short_columns_are_found_in_column_order() {
        let mut lens = vec![1u32 << 30; 1 + 20 + WORD];
        for (c, len) in lens.iter_mut().enumerate().take(21).skip(1) {
            *len = 3 + c as u32 % 4;
        }
        lens[13] = 1;
        lens[17] = 0;
        for scanner in Scanner::all() {
            assert_eq!(unsafe { scanner.min(lens.as_ptr(), 20) }, Err(13));
        }
        lens[13] = 2;
        lens[17] = 2;
        for scanner in Scanner::all() {
            assert_eq!(unsafe { scanner.min(lens.as_ptr(), 20) }, Ok(2));
            let ties = unsafe { scanner.ties(lens.as_ptr(), 1, 2) };
            assert_eq!(ties, (1 << 12) | (1 << 16));
        }
    }
}
