//! The distribution of per-puzzle time ratios, kept in fixed bins so that
//! a comparison of millions of puzzles carries it in a few kilobytes: what
//! the comparison pictures draw.

/// Bins per doubling: each bin spans a ratio of 2^(1/32), about 2.2%, fine
/// enough to show a 2-3% shift, coarse enough for a few hundred puzzles.
pub const BINS_PER_DOUBLING: u32 = 32;

/// Doublings each side of 1: ratios from 1/16 to 16 get their own bins;
/// the rest are counted below or above the range.
pub const DOUBLINGS: u32 = 4;

const BINS: usize = (2 * DOUBLINGS * BINS_PER_DOUBLING) as usize;

/// The lower edge of bin `i` (the upper edge of bin `i - 1`).
fn edge(i: usize) -> f64 {
    ((i as f64 - f64::from(DOUBLINGS * BINS_PER_DOUBLING)) / f64::from(BINS_PER_DOUBLING)).exp2()
}

/// Per-puzzle ratios (current over baseline, or B over A) in log-spaced
/// bins from 1/16 to 16.
///
/// ```
/// use dlxbench::compare::RatioHistogram;
///
/// // Three puzzles 5% slower, one twice as fast.
/// let logs = [1.05f64.ln(), 1.05f64.ln(), 1.05f64.ln(), 0.5f64.ln()];
/// let h = RatioHistogram::from_log_ratios(logs.iter().copied());
/// assert_eq!(h.count(), 4);
/// let fullest = h.bins().max_by_key(|b| b.count).unwrap();
/// assert!(fullest.low <= 1.05 && 1.05 < fullest.high);
/// assert_eq!(fullest.count, 3);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatioHistogram {
    counts: Vec<u64>,
    below: u64,
    above: u64,
}

/// One bin: the ratios in `low..high`, and how many puzzles had one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bin {
    /// The smallest ratio of the bin.
    pub low: f64,
    /// The bin's end (not included).
    pub high: f64,
    /// Puzzles whose ratio fell in it.
    pub count: u64,
}

impl RatioHistogram {
    /// The histogram of the ratios whose natural logarithms are `logs`
    /// (non-finite values are left out).
    pub fn from_log_ratios(logs: impl IntoIterator<Item = f64>) -> RatioHistogram {
        let mut h = RatioHistogram {
            counts: vec![0; BINS],
            below: 0,
            above: 0,
        };
        let per_ln = f64::from(BINS_PER_DOUBLING) / std::f64::consts::LN_2;
        let offset = f64::from(DOUBLINGS * BINS_PER_DOUBLING);
        for d in logs.into_iter().filter(|d| d.is_finite()) {
            let at = (d * per_ln + offset).floor();
            if at < 0.0 {
                h.below += 1;
            } else if at >= BINS as f64 {
                h.above += 1;
            } else {
                h.counts[at as usize] += 1;
            }
        }
        h
    }

    /// Puzzles counted, in the bins or outside them.
    pub fn count(&self) -> u64 {
        self.counts.iter().sum::<u64>() + self.below + self.above
    }

    /// Puzzles whose ratio was below 1/16, and above 16.
    pub fn outside(&self) -> (u64, u64) {
        (self.below, self.above)
    }

    /// The bins, from the smallest ratio up.
    pub fn bins(&self) -> impl Iterator<Item = Bin> + '_ {
        self.counts.iter().enumerate().map(|(i, &count)| Bin {
            low: edge(i),
            high: edge(i + 1),
            count,
        })
    }

    /// The range of ratios holding the central `share` of the puzzles (0.99:
    /// all but the lowest and highest half percent), from bin edges, and
    /// how many puzzles lie outside it (`None` when there are none).
    pub fn central(&self, share: f64) -> Option<((f64, f64), u64)> {
        let (first, last) = self.central_bins(share)?;
        Some(self.span(first, last))
    }

    /// The range a chart draws: [`RatioHistogram::central`] `share`,
    /// narrowed to the quartiles widened by three interquartile ranges (in
    /// bins, at least [`BINS_PER_DOUBLING`] / 2, a ratio of 1.41) each side,
    /// and how many puzzles lie outside it. On a small corpus the central
    /// 99% is every puzzle, and one solve slowed tenfold by the machine
    /// would stretch the axis until the others sat in a sliver at its edge.
    ///
    /// ```
    /// use dlxbench::compare::RatioHistogram;
    ///
    /// // 59 puzzles within 3% of 1, one ten times slower.
    /// let mut logs: Vec<f64> = (0..59).map(|i| (0.97f64 + 0.001 * i as f64).ln()).collect();
    /// logs.push(10f64.ln());
    /// let h = RatioHistogram::from_log_ratios(logs);
    /// assert!(h.central(0.99).unwrap().0 .1 > 10.0);
    /// let ((low, high), outside) = h.drawn(0.99).unwrap();
    /// assert!(low <= 0.97 && 1.03 < high && high < 2.0, "{low} {high}");
    /// assert_eq!(outside, 1);
    /// ```
    pub fn drawn(&self, share: f64) -> Option<((f64, f64), u64)> {
        let (first, last) = self.central_bins(share)?;
        let total = self.count();
        let (q1, q3) = (self.bin_of_rank(total / 4), self.bin_of_rank(total * 3 / 4));
        let reach = (3 * (q3 - q1)).max(BINS_PER_DOUBLING as usize / 2);
        let first = first.max(q1.saturating_sub(reach));
        let last = last.min(q3 + reach).max(first);
        Some(self.span(first, last))
    }

    /// The first and last bin of the central `share` of the puzzles
    /// (`None` when every puzzle lies outside the bins).
    fn central_bins(&self, share: f64) -> Option<(usize, usize)> {
        let total = self.count();
        if total == 0 || self.below + self.above == total {
            return None;
        }
        let tail = ((1.0 - share) / 2.0 * total as f64).floor() as u64;
        // First bin whose cumulative count (with those below) passes the tail.
        let first = self.bin_of_rank(tail);
        let mut after = self.above;
        let mut last = BINS - 1;
        while last > first && after + self.counts[last] <= tail {
            after += self.counts[last];
            last -= 1;
        }
        Some((first, last))
    }

    /// The bin holding the puzzle of rank `rank` (from 0, the smallest
    /// ratio first, those below the bins counted), clamped to the bins.
    fn bin_of_rank(&self, rank: u64) -> usize {
        let mut seen = self.below;
        for (i, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen > rank {
                return i;
            }
        }
        BINS - 1
    }

    /// The ratios from bin `first` to bin `last`, and how many puzzles lie
    /// outside them.
    fn span(&self, first: usize, last: usize) -> ((f64, f64), u64) {
        let inside: u64 = self.counts[first..=last].iter().sum();
        ((edge(first), edge(last + 1)), self.count() - inside)
    }

    /// The bins that hold puzzles, widened by one empty bin each side:
    /// the range worth drawing (`None` when every ratio fell outside).
    pub fn occupied(&self) -> Option<(f64, f64)> {
        let first = self.counts.iter().position(|&c| c > 0)?;
        let last = self.counts.iter().rposition(|&c| c > 0)?;
        let bins: Vec<Bin> = self.bins().collect();
        Some((
            bins[first.saturating_sub(1)].low,
            bins[(last + 1).min(BINS - 1)].high,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ratio_is_counted_once_in_the_bin_that_holds_it() {
        let ratios = [0.01, 0.5, 0.99, 1.0, 1.01, 1.03, 2.0, 15.9, 16.0, 100.0];
        let h = RatioHistogram::from_log_ratios(ratios.iter().map(|r: &f64| r.ln()));
        assert_eq!(h.count(), ratios.len() as u64);
        assert_eq!(h.outside(), (1, 2));
        for r in ratios.iter().filter(|&&r| (1.0 / 16.0..16.0).contains(&r)) {
            let holding: Vec<Bin> = h
                .bins()
                .filter(|b| b.low <= *r * (1.0 + 1e-12) && *r < b.high * (1.0 + 1e-12))
                .collect();
            assert!(!holding.is_empty(), "{r}");
            assert!(holding.iter().any(|b| b.count > 0), "{r}");
        }
        let (low, high) = h.occupied().unwrap();
        assert!(low < 0.5 && high > 15.9);
    }

    #[test]
    fn the_central_range_leaves_out_the_tails() {
        let mut logs: Vec<f64> = vec![1.0f64.ln(); 980];
        logs.extend(std::iter::repeat_n(8.0f64.ln(), 10));
        logs.extend(std::iter::repeat_n(0.125f64.ln(), 10));
        let h = RatioHistogram::from_log_ratios(logs);
        let ((lo, hi), outside) = h.central(0.98).unwrap();
        assert!(lo <= 1.0 && 1.0 < hi && hi < 1.1 && lo > 0.9, "{lo} {hi}");
        assert_eq!(outside, 20);
        let ((lo, hi), outside) = h.central(1.0).unwrap();
        assert!(lo <= 0.125 && hi > 8.0);
        assert_eq!(outside, 0);
    }

    #[test]
    fn the_drawn_range_trims_far_outliers_only() {
        // A wide distribution (ratios 0.5 to 2) keeps its central 99%.
        let wide: Vec<f64> = (0..1000)
            .map(|i| (f64::from(i) / 500.0 - 1.0) * 2f64.ln())
            .collect();
        let h = RatioHistogram::from_log_ratios(wide);
        assert_eq!(h.drawn(0.99), h.central(0.99));
        // Two puzzles 8 and 12 times slower beside 200 near 1 are left out.
        let mut logs: Vec<f64> = (0..200)
            .map(|i| (1.0 + 0.0002 * f64::from(i)).ln())
            .collect();
        logs.extend([8f64.ln(), 12f64.ln()]);
        let h = RatioHistogram::from_log_ratios(logs);
        let ((low, high), outside) = h.drawn(0.99).unwrap();
        assert!(low <= 1.0 && 1.04 < high && high < 2.0, "{low} {high}");
        assert_eq!(outside, 2);
    }

    #[test]
    fn bins_tile_the_range_without_gaps() {
        let h = RatioHistogram::from_log_ratios([f64::NAN, f64::INFINITY]);
        assert_eq!(h.count(), 0);
        assert_eq!(h.occupied(), None);
        let bins: Vec<Bin> = h.bins().collect();
        assert_eq!(bins.len(), BINS);
        assert!((bins[0].low - 1.0 / 16.0).abs() < 1e-12);
        assert!((bins[BINS - 1].high - 16.0).abs() < 1e-9);
        for w in bins.windows(2) {
            assert_eq!(w[0].high, w[1].low);
        }
    }
}
