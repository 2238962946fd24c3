//! Where a series steps: exactly for node counts, against the noise for
//! time.
//!
//! **Node counts** are deterministic: the same code on the same corpus
//! searches the same nodes on any machine, so any change from one commit
//! to the next is a step ([`node_steps`]).
//!
//! **Time** is noisy. Each point carries its own interval (a run's mean
//! solve time and its 95% interval; several runs of one commit pooled),
//! and the method adds the A/A floor, the run-to-run difference that the
//! same code shows on the runner ([`time_steps`]):
//!
//! * the points are cut into segments left to right; a segment's level is
//!   the median of its points' means and its interval the medians of
//!   their bounds (one wild run moves neither);
//! * a point is *consistent* with a segment when their intervals overlap,
//!   or when it is within the floor of the segment's level: a step must
//!   both clear the runs' own noise and exceed what A/A runs differ by;
//! * a point that is not consistent starts a new segment (a step at that
//!   commit) only when the next point confirms it: consistent with it and
//!   not with the old segment. Otherwise it is an *outlier* (one noisy
//!   run; or the last point, a step not yet confirmed), left out of the
//!   segment.
//!
//! Under pure A/A noise the intervals of the same code overlap (they are
//! 95% intervals of the same quantity), and the floor absorbs the rest,
//! so no step is found; a change larger than both is placed at the commit
//! where it appears (the confirmation looks at the next point; it does not
//! move the step).

/// A point's time: its level and interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimePoint {
    /// The level (a mean solve time, ns).
    pub value: f64,
    /// The lower bound of its interval.
    pub low: f64,
    /// The upper bound.
    pub high: f64,
}

/// A step found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Index of the first point after the step.
    pub index: usize,
    /// The level before.
    pub before: f64,
    /// The level after.
    pub after: f64,
}

impl Step {
    /// The change in percent of `before` (`None` from 0).
    pub fn change_pct(&self) -> Option<f64> {
        (self.before != 0.0).then(|| 100.0 * (self.after - self.before) / self.before)
    }
}

/// The steps of node counts over points (`None`: not recorded, skipped):
/// one wherever a count differs from the last recorded one before it.
pub fn node_steps(counts: &[Option<u64>]) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut last: Option<u64> = None;
    for (index, count) in counts.iter().enumerate() {
        let Some(count) = *count else { continue };
        if let Some(before) = last.filter(|b| *b != count) {
            steps.push(Step {
                index,
                before: before as f64,
                after: count as f64,
            });
        }
        last = Some(count);
    }
    steps
}

/// A segment of consistent points: their level and interval.
#[derive(Debug, Default)]
struct Segment {
    values: Vec<f64>,
    lows: Vec<f64>,
    highs: Vec<f64>,
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n % 2 {
        1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

impl Segment {
    fn of(p: TimePoint) -> Segment {
        let mut s = Segment::default();
        s.push(p);
        s
    }

    fn push(&mut self, p: TimePoint) {
        self.values.push(p.value);
        self.lows.push(p.low);
        self.highs.push(p.high);
    }

    fn level(&self) -> f64 {
        median(&self.values)
    }

    /// Whether `p` is consistent with the segment: intervals overlap, or
    /// `p` is within `floor` (a fraction) of the level.
    fn consistent(&self, p: TimePoint, floor: f64) -> bool {
        let (low, high) = (median(&self.lows), median(&self.highs));
        let level = self.level();
        let overlap = p.low <= high && low <= p.high;
        overlap || (p.value - level).abs() <= floor * level
    }
}

/// The time steps and outliers over points (`None`: no time, skipped),
/// with the A/A floor `floor` (a fraction: 0.03 for 3%); the method is in
/// the module's documentation. Outliers are indices into `points`.
pub fn time_steps(points: &[Option<TimePoint>], floor: f64) -> (Vec<Step>, Vec<usize>) {
    let timed: Vec<(usize, TimePoint)> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.map(|p| (i, p)))
        .collect();
    let (mut steps, mut outliers) = (Vec::new(), Vec::new());
    let Some(&(_, first)) = timed.first() else {
        return (steps, outliers);
    };
    let mut segment = Segment::of(first);
    for (k, &(index, p)) in timed.iter().enumerate().skip(1) {
        if segment.consistent(p, floor) {
            segment.push(p);
            continue;
        }
        let confirmed = timed.get(k + 1).is_some_and(|&(_, next)| {
            Segment::of(p).consistent(next, floor) && !segment.consistent(next, floor)
        });
        if confirmed {
            steps.push(Step {
                index,
                before: segment.level(),
                after: p.value,
            });
            segment = Segment::of(p);
        } else {
            outliers.push(index);
        }
    }
    settle_levels(&mut steps, &timed, &outliers);
    (steps, outliers)
}

/// Sets each step's `after` to the level of the segment it starts (the
/// median of its points, outliers left out), which [`time_steps`] knows
/// only once the segment ends.
fn settle_levels(steps: &mut [Step], timed: &[(usize, TimePoint)], outliers: &[usize]) {
    let ends: Vec<usize> = steps
        .iter()
        .skip(1)
        .map(|s| s.index)
        .chain([usize::MAX])
        .collect();
    for (step, end) in steps.iter_mut().zip(ends) {
        let values: Vec<f64> = timed
            .iter()
            .filter(|(i, _)| *i >= step.index && *i < end && !outliers.contains(i))
            .map(|(_, p)| p.value)
            .collect();
        step.after = median(&values);
    }
}
