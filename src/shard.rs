//! Shards: a deterministic partition of every corpus into `N` disjoint
//! parts whose union is the corpus, so that a run too large for one machine
//! becomes `N` normal runs (one per machine, array task or pod) and an exact
//! merge.
//!
//! Line `n` of a corpus (1-based, as `puzzles.csv` numbers it) belongs to
//! shard `((n - 1) mod N) + 1`. The rule depends on nothing but the line
//! number and `N`: the same on every machine, whatever the chunking or the
//! thread count. Dealing lines round-robin balances the shards by lines
//! (each holds `⌊L/N⌋` or `⌈L/N⌉` of the `L` lines; only comment or blank
//! lines make the puzzle counts differ), and gives every shard an even
//! share of a corpus sorted by difficulty, so that their run times match too.
//!
//! ```
//! use dlxbench::shard::Shard;
//! let s: Shard = "2/3".parse().unwrap();
//! let lines: Vec<u64> = (1..=9).filter(|&n| s.contains(n)).collect();
//! assert_eq!(lines, [2, 5, 8]);
//! assert!("0/3".parse::<Shard>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// One of `count` shards, numbered from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A shard specification that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not `K/N` with `1 <= K <= N`.
    #[error(
        "{0:?}: expected K/N with 1 <= K <= N (shards are numbered from 1), `auto` or `auto/N`"
    )]
    Malformed(String),
    /// `auto` found no engine's variables.
    #[error(
        "--shard auto: no shard index in the environment (SLURM_ARRAY_TASK_ID, or \
         JOB_COMPLETION_INDEX with auto/N); pass K/N instead"
    )]
    NotFound,
    /// `auto` found an engine's variables that do not make a shard.
    #[error("--shard auto: {0}")]
    Environment(String),
}

impl Shard {
    /// Shard `index` of `count` (1-based), if `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// The shard's number, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many shards there are.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether line `number` (1-based) belongs to this shard.
    #[inline]
    pub fn contains(self, number: u64) -> bool {
        number.wrapping_sub(1) % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// The shard a `--shard` value names: `K/N`, or `auto` / `auto/N` read
    /// from the batch engine's environment through `var`. Returns the shard
    /// and, for `auto`, the variables it came from (to say so).
    ///
    /// `auto` knows Slurm job arrays (`SLURM_ARRAY_TASK_ID`, with
    /// `SLURM_ARRAY_TASK_MIN`/`_MAX`/`_STEP` or `SLURM_ARRAY_TASK_COUNT`;
    /// `auto/N` overrides the count) and Kubernetes Indexed Jobs
    /// (`JOB_COMPLETION_INDEX`, 0-based; the count must be given as
    /// `auto/N`, since the pod is not told it).
    ///
    /// ```
    /// use dlxbench::shard::Shard;
    /// let env = |name: &str| match name {
    ///     "JOB_COMPLETION_INDEX" => Some("0".to_string()),
    ///     _ => None,
    /// };
    /// let (shard, from) = Shard::resolve("auto/4", env).unwrap();
    /// assert_eq!((shard.index(), shard.count()), (1, 4));
    /// assert_eq!(from.as_deref(), Some("JOB_COMPLETION_INDEX=0 (Kubernetes Indexed Job), count 4 from --shard"));
    /// ```
    pub fn resolve(
        spec: &str,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<(Shard, Option<String>), ShardError> {
        let malformed = || ShardError::Malformed(spec.to_string());
        let (head, count) = match spec.split_once('/') {
            Some((head, count)) => (head, Some(count.parse::<u32>().map_err(|_| malformed())?)),
            None => (spec, None),
        };
        if head != "auto" {
            let index = head.parse::<u32>().map_err(|_| malformed())?;
            let shard = Shard::new(index, count.ok_or_else(malformed)?).ok_or_else(malformed)?;
            return Ok((shard, None));
        }
        if count == Some(0) {
            return Err(malformed());
        }
        let (shard, from) = from_slurm(count, &var)
            .or_else(|| from_kubernetes(count, &var))
            .ok_or(ShardError::NotFound)??;
        Ok((shard, Some(from)))
    }
}

/// A number from variable `name`, if set.
fn number(var: &impl Fn(&str) -> Option<String>, name: &str) -> Option<Result<u64, ShardError>> {
    let text = var(name)?;
    Some(
        text.trim()
            .parse()
            .map_err(|_| ShardError::Environment(format!("{name}={text:?} is not a number"))),
    )
}

type Found = Result<(Shard, String), ShardError>;

/// A Slurm job array task: index `(ID - MIN) / STEP`, count from
/// `auto/N`, `MIN`/`MAX`/`STEP`, or `SLURM_ARRAY_TASK_COUNT`.
fn from_slurm(count: Option<u32>, var: &impl Fn(&str) -> Option<String>) -> Option<Found> {
    let id = number(var, "SLURM_ARRAY_TASK_ID")?;
    Some((|| {
        let id = id?;
        let min = number(var, "SLURM_ARRAY_TASK_MIN")
            .transpose()?
            .unwrap_or(0);
        let step = number(var, "SLURM_ARRAY_TASK_STEP")
            .transpose()?
            .unwrap_or(1)
            .max(1);
        if id < min || (id - min) % step != 0 {
            return Err(ShardError::Environment(format!(
                "SLURM_ARRAY_TASK_ID={id} is not on the array's grid (min {min}, step {step})"
            )));
        }
        let index = (id - min) / step;
        let mut from = format!("SLURM_ARRAY_TASK_ID={id}");
        if min != 0 {
            from += &format!(", SLURM_ARRAY_TASK_MIN={min}");
        }
        if step != 1 {
            from += &format!(", SLURM_ARRAY_TASK_STEP={step}");
        }
        let total = match count {
            Some(n) => {
                from += &format!(", count {n} from --shard");
                u64::from(n)
            }
            None => match (
                number(var, "SLURM_ARRAY_TASK_MAX").transpose()?,
                number(var, "SLURM_ARRAY_TASK_COUNT").transpose()?,
            ) {
                (Some(max), _) if max >= min => {
                    from += &format!(", SLURM_ARRAY_TASK_MAX={max}");
                    (max - min) / step + 1
                }
                (_, Some(n)) => {
                    from += &format!(", SLURM_ARRAY_TASK_COUNT={n}");
                    n
                }
                _ => {
                    return Err(ShardError::Environment(
                        "SLURM_ARRAY_TASK_ID is set but not the array's size \
                         (SLURM_ARRAY_TASK_MAX or SLURM_ARRAY_TASK_COUNT); pass auto/N"
                            .into(),
                    ))
                }
            },
        };
        shard_of(index, total, &from).map(|s| (s, format!("{from} (Slurm job array)")))
    })())
}

/// A Kubernetes Indexed Job pod: `JOB_COMPLETION_INDEX` (0-based), count
/// from `auto/N`.
fn from_kubernetes(count: Option<u32>, var: &impl Fn(&str) -> Option<String>) -> Option<Found> {
    let index = number(var, "JOB_COMPLETION_INDEX")?;
    Some((|| {
        let index = index?;
        let from = format!("JOB_COMPLETION_INDEX={index}");
        let Some(n) = count else {
            return Err(ShardError::Environment(format!(
                "{from}: an Indexed Job does not tell its pods the completion count; pass auto/N"
            )));
        };
        shard_of(index, n.into(), &from).map(|s| {
            (
                s,
                format!("{from} (Kubernetes Indexed Job), count {n} from --shard"),
            )
        })
    })())
}

/// Shard `index + 1` of `count`, or why not.
fn shard_of(index: u64, count: u64, from: &str) -> Result<Shard, ShardError> {
    u32::try_from(index + 1)
        .ok()
        .zip(u32::try_from(count).ok())
        .and_then(|(k, n)| Shard::new(k, n))
        .ok_or_else(|| {
            ShardError::Environment(format!(
                "{from}: index {index} (from 0) is not below the count {count}"
            ))
        })
}

impl FromStr for Shard {
    type Err = ShardError;

    /// `K/N` only (`auto` needs [`Shard::resolve`]).
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        match Shard::resolve(s, |_| None) {
            Ok((shard, None)) => Ok(shard),
            _ => Err(ShardError::Malformed(s.to_string())),
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!("1/1".parse::<Shard>(), Ok(Shard::new(1, 1).unwrap()));
        assert_eq!("8/8".parse::<Shard>().unwrap().to_string(), "8/8");
        for bad in [
            "0/4", "5/4", "1/0", "1", "/4", "a/4", "1/4/2", "auto", "-1/4", "",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn slurm_arrays() {
        // --array=1-8
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "8"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        let (s, from) = Shard::resolve("auto", env(&vars)).unwrap();
        assert_eq!(s.to_string(), "3/8");
        assert!(from.unwrap().contains("SLURM_ARRAY_TASK_ID=3"));
        // --array=0-14:2 (8 tasks)
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "14"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "14"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(
            Shard::resolve("auto", env(&vars)).unwrap().0.to_string(),
            "8/8"
        );
        // Only the count.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(
            Shard::resolve("auto", env(&vars)).unwrap().0.to_string(),
            "1/4"
        );
        // Off the grid, past the count, no size.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_MAX", "6"),
        ];
        assert!(matches!(
            Shard::resolve("auto", env(&vars)),
            Err(ShardError::Environment(_))
        ));
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(Shard::resolve("auto", env(&vars)).is_err());
        let vars = [("SLURM_ARRAY_TASK_ID", "1")];
        assert!(Shard::resolve("auto", env(&vars)).is_err());
        assert_eq!(
            Shard::resolve("auto/2", env(&vars)).unwrap().0.to_string(),
            "2/2"
        );
    }

    #[test]
    fn kubernetes_and_nothing() {
        let vars = [("JOB_COMPLETION_INDEX", "7")];
        assert_eq!(
            Shard::resolve("auto/8", env(&vars)).unwrap().0.to_string(),
            "8/8"
        );
        assert!(Shard::resolve("auto", env(&vars)).is_err());
        assert!(Shard::resolve("auto/7", env(&vars)).is_err());
        let vars = [("JOB_COMPLETION_INDEX", "x")];
        assert!(Shard::resolve("auto/8", env(&vars)).is_err());
        assert_eq!(Shard::resolve("auto", env(&[])), Err(ShardError::NotFound));
        assert!(Shard::resolve("auto/0", env(&[])).is_err());
    }

    proptest! {
        /// Every line is in exactly one shard, and shard sizes differ by at
        /// most one.
        #[test]
        fn partition(count in 1u32..40, lines in 0u64..500) {
            let shards: Vec<Shard> = (1..=count).map(|k| Shard::new(k, count).unwrap()).collect();
            for n in 1..=lines {
                prop_assert_eq!(shards.iter().filter(|s| s.contains(n)).count(), 1);
            }
            let sizes: Vec<usize> = shards
                .iter()
                .map(|s| (1..=lines).filter(|&n| s.contains(n)).count())
                .collect();
            prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        }
    }
}
