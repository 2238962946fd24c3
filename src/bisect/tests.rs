use super::probe::{Counts, PuzzleCounts};
use super::search::{search, Found, Verdict};
use super::*;
use crate::compare::bootstrap::Interval;
use crate::solvers::Status;

/// The search on a chain of `n` commits whose first change is `first`,
/// with `skipped` commits unknown: what it found and the indices probed.
fn run(n: usize, first: usize, skipped: &[usize]) -> (Found, Vec<usize>) {
    let mut probed = Vec::new();
    let found = search(n, |i| {
        probed.push(i);
        Ok::<_, ()>(match i {
            i if skipped.contains(&i) => Verdict::Unknown,
            i if i >= first => Verdict::Changed,
            _ => Verdict::Same,
        })
    })
    .unwrap();
    (found, probed)
}

#[test]
fn the_search_finds_every_first_change_in_log2_probes() {
    for n in 1..=64 {
        for first in 1..=n {
            let (found, probed) = run(n, first, &[]);
            assert_eq!(found, Found::First(first), "n {n}, first {first}");
            let bound = (n as f64).log2().ceil() as usize;
            assert!(
                probed.len() <= bound,
                "n {n}: {} probes > {bound}",
                probed.len()
            );
            assert!(probed.iter().all(|&i| 0 < i && i < n), "{probed:?}");
        }
    }
}

#[test]
fn skipped_commits_are_stepped_around_or_named() {
    // A skipped commit away from the change: the answer is still exact.
    let (found, probed) = run(16, 11, &[8]);
    assert_eq!(found, Found::First(11));
    assert!(
        probed.contains(&8) && (probed.contains(&7) || probed.contains(&9)),
        "{probed:?}"
    );
    // Skipped commits just before the change: it may be any of them.
    assert_eq!(run(16, 11, &[9, 10]).0, Found::Among(vec![9, 10, 11]));
    // The changed commit itself skipped: the next one and it.
    assert_eq!(run(16, 11, &[11]).0, Found::Among(vec![11, 12]));
    // Every commit between skipped.
    let all: Vec<usize> = (1..8).collect();
    assert_eq!(run(8, 3, &all).0, Found::Among((1..=8).collect()));
}

#[test]
fn verdicts_are_git_bisect_runs_exit_statuses() {
    assert_eq!(Verdict::Same.exit_status(), 0);
    assert_eq!(Verdict::Changed.exit_status(), 1);
    assert_eq!(Verdict::Unknown.exit_status(), 125);
}

fn counts(rows: &[(u64, u64, u64)]) -> Counts {
    Counts {
        corpora: vec!["c".into()],
        puzzles: rows
            .iter()
            .map(|&(line, solutions, guesses)| {
                let status = if solutions == 1 {
                    Status::Unique
                } else {
                    Status::NoSolution
                };
                (
                    (0, line),
                    PuzzleCounts {
                        status,
                        solutions,
                        guesses,
                    },
                )
            })
            .collect(),
    }
}

#[test]
fn counts_compare_exactly_puzzle_by_puzzle() {
    let good = counts(&[(1, 1, 3), (2, 1, 0), (3, 0, 7)]);
    let same = CountsChange::between(&good, &good.clone());
    assert_eq!((same.differ, same.verdict()), (0, Verdict::Same));
    // Totals equal, two puzzles swapped their guesses: still a change.
    let swapped = counts(&[(1, 1, 0), (2, 1, 3), (3, 0, 7)]);
    let c = CountsChange::between(&good, &swapped);
    assert_eq!((c.differ, c.verdict()), (2, Verdict::Changed));
    assert_eq!(c.before, c.after);
    assert_eq!((c.examples[0].line, c.examples[1].line), (1, 2));
    // A puzzle missing from one side differs.
    let fewer = counts(&[(1, 1, 3), (2, 1, 0)]);
    let c = CountsChange::between(&good, &fewer);
    assert_eq!((c.differ, c.examples[0].after), (1, None));
}

fn time(low: f64, high: f64, direction: Direction) -> TimeChange {
    TimeChange {
        interval: Some(Interval {
            estimate: (low + high) / 2.0,
            low,
            high,
        }),
        judged_at: 0.01,
        passes: 21,
        puzzles: 1000,
        stop: crate::ab::Stop::Time,
        outcome_changed: 0,
        problems: 0,
        direction,
    }
}

#[test]
fn time_is_changed_same_or_unknown_by_the_interval_and_the_threshold() {
    use Direction::*;
    assert_eq!(time(1.02, 1.06, Slower).verdict(), Verdict::Changed);
    assert_eq!(time(0.995, 1.008, Slower).verdict(), Verdict::Same);
    // Straddles 1 + threshold: neither ruled in nor out.
    assert_eq!(time(1.005, 1.03, Slower).verdict(), Verdict::Unknown);
    // A speed-up is the same when a slow-down is looked for.
    assert_eq!(time(0.90, 0.95, Slower).verdict(), Verdict::Same);
    assert_eq!(time(0.90, 0.95, Faster).verdict(), Verdict::Changed);
    assert_eq!(time(0.985, 1.02, Faster).verdict(), Verdict::Unknown);
    assert_eq!(time(0.995, 1.2, Faster).verdict(), Verdict::Same);
    let mut none = time(1.02, 1.06, Slower);
    none.interval = None;
    assert_eq!(none.verdict(), Verdict::Unknown);
    let mut problems = time(1.02, 1.06, Slower);
    problems.problems = 1;
    assert_eq!(problems.verdict(), Verdict::Unknown);
}

/// `git ARGS` in `dir`, which must succeed.
// The integration tests' `common::git` does the same; unit tests cannot
// reach `tests/it/common`, so this copy is deliberate.
fn git_in(dir: &std::path::Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[test]
fn two_bisects_building_into_one_cache_at_once_each_keep_their_own_commits_library() {
    let dir = tempfile::tempdir().unwrap();
    let repo_dir = dir.path().join("repo");
    std::fs::create_dir(&repo_dir).unwrap();
    git_in(&repo_dir, &["init", "-q"]);
    let mut commits = Vec::new();
    for k in 0..4 {
        std::fs::write(repo_dir.join("lib.txt"), format!("commit {k}\n")).unwrap();
        git_in(&repo_dir, &["add", "lib.txt"]);
        git_in(&repo_dir, &["commit", "-q", "-m", &format!("c{k}")]);
        let repo = Repo::open(&repo_dir).unwrap();
        commits.push(repo.commit("HEAD").unwrap());
    }
    // As cargo's builds share one target directory: the build writes its
    // output there, then the library is copied from it (a second build
    // running meanwhile would overwrite it).
    let shared = dir.path().join("target");
    std::fs::create_dir(&shared).unwrap();
    let recipe = Recipe::Command(format!(
        "cp lib.txt '{0}/lib' && sleep 0.2 && cp '{0}/lib' \"$DLXBENCH_BISECT_OUT\"",
        shared.display()
    ));
    let cache = dir.path().join("cache");
    // Two bisects at once (each its own Builder), each building every
    // commit: two builds of each commit, and of different commits, at once.
    let results: Vec<Vec<Built>> = std::thread::scope(|s| {
        let runs: Vec<_> = [false, true]
            .into_iter()
            .map(|reversed| {
                let builder = Builder::new(Repo::open(&repo_dir).unwrap(), &cache, recipe.clone());
                let mut order = commits.clone();
                if reversed {
                    order.reverse();
                }
                s.spawn(move || {
                    let mut built: Vec<Built> =
                        order.iter().map(|c| builder.build(c).unwrap()).collect();
                    if reversed {
                        built.reverse();
                    }
                    built
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (k, commit) in commits.iter().enumerate() {
        let mut fresh = 0;
        for built in &results {
            let Built::Library { path, cached } = &built[k] else {
                panic!("{:?}", built[k]);
            };
            fresh += usize::from(!cached);
            let text = std::fs::read_to_string(path).unwrap();
            assert_eq!(text, format!("commit {k}\n"), "{}", commit.short);
        }
        // One built it; the other, having waited, found it in the cache.
        assert_eq!(fresh, 1, "commit {k}");
    }
}
