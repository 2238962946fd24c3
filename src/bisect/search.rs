//! The binary search over a chain of commits, with commits that cannot be
//! judged skipped as `git bisect skip` skips them.

/// What a probe says of a commit, against the good one: `git bisect`'s
/// good, bad and skip (the exit statuses 0, 1 and 125 of `git bisect run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// As the good commit.
    Same,
    /// Changed.
    Changed,
    /// Cannot tell: the commit does not build, or the measurement
    /// decided neither way.
    Unknown,
}

impl Verdict {
    /// `git bisect run`'s exit status: 0, 1 or 125.
    pub fn exit_status(self) -> u8 {
        match self {
            Verdict::Same => 0,
            Verdict::Changed => 1,
            Verdict::Unknown => 125,
        }
    }

    /// `same`, `changed` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Same => "same",
            Verdict::Changed => "changed",
            Verdict::Unknown => "unknown",
        }
    }
}

/// Where the search ended, as indices into the chain (0 the good commit,
/// `n` the bad one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The first changed commit: its predecessor is the same as the good
    /// commit (or is it).
    First(usize),
    /// Skipped commits stand between the last same and the first changed
    /// one: the first change is one of these (the skipped ones, then the
    /// changed one), in order.
    Among(Vec<usize>),
}

/// Finds the first changed commit of the chain `0..=n`, where 0 is known
/// the same and `n` changed, calling `probe` on the indices in between
/// that it needs, near the middle of what is left each time: about
/// log2(n) probes. An [`Verdict::Unknown`] index is skipped (the next
/// probe is the nearest unskipped index to the middle); with only skipped
/// indices left between the last same and the first changed, the answer
/// is [`Found::Among`]. Errors of `probe` end the search.
pub fn search<E>(n: usize, mut probe: impl FnMut(usize) -> Result<Verdict, E>) -> Result<Found, E> {
    let (mut same, mut changed) = (0, n);
    let mut skipped = Vec::new();
    loop {
        let middle = (same + changed) / 2;
        let next = (same + 1..changed)
            .filter(|i| !skipped.contains(i))
            .min_by_key(|&i| (i.abs_diff(middle), i));
        let Some(i) = next else {
            break;
        };
        match probe(i)? {
            Verdict::Same => same = i,
            Verdict::Changed => changed = i,
            Verdict::Unknown => skipped.push(i),
        }
    }
    Ok(match changed - same {
        1 => Found::First(changed),
        _ => Found::Among((same + 1..=changed).collect()),
    })
}
