//! `dlxbench bisect`: on small git repositories made here, whose commits
//! build a C solver with a cheap command (`--build-cmd`), it names the
//! commit that changed the counts, steps over commits that do not build
//! (or names them when they stand next to the change), finds a planted
//! slow-down by time (the `flags` slow-down of `libdlxbench.so`, called
//! through a one-line shim that each commit builds), and hands over to
//! `git bisect run`. On the project's own history, with real cargo builds:
//! the ignored test at the end.

use crate::common;

use std::path::{Path, PathBuf};

use common::{binary, dlxbench, git, repo_path, stderr_text};
use dlxbench::results::output::BisectJson;

/// A repository in `dir` with one commit per entry of `commits` (its
/// message and the files it writes); the commits' full names, in order.
fn repository(dir: &Path, commits: &[(String, Vec<(&str, String)>)]) -> Vec<String> {
    git(dir, &["init", "-q", "-b", "main"]);
    commits
        .iter()
        .map(|(message, files)| {
            for (name, text) in files {
                std::fs::write(dir.join(name), text).unwrap();
            }
            git(dir, &["add", "-A"]);
            git(dir, &["commit", "-q", "--allow-empty", "-m", message]);
            git(dir, &["rev-parse", "HEAD"])
        })
        .collect()
}

/// The example C solver of `examples/c-solver/solver.c`, and the same
/// with its tie-break changed (the last of the cells with the fewest
/// candidates, not the first): other guesses on some puzzles.
fn solvers() -> (String, String) {
    let good = std::fs::read_to_string(repo_path("examples/c-solver/solver.c")).unwrap();
    let tie = "if (count < best_count) {";
    assert!(good.contains(tie), "the example's choice of cell moved");
    let changed = good.replace(tie, "if (count <= best_count) {");
    (good, changed)
}

/// The command that builds a commit's `solver.c`.
fn c_build() -> String {
    let cc = common::c_compiler();
    format!(
        "'{}' -O2 -shared -fPIC -o \"$DLXBENCH_BISECT_OUT\" solver.c",
        cc.path().display()
    )
}

/// A chain of `n` + 1 commits of the example solver: 0 good, the tie-break
/// changed at `plant`, `solver.c` broken (does not compile) at the commits
/// of `broken` (the next commit repairs it).
fn counts_repository(dir: &Path, n: usize, plant: usize, broken: &[usize]) -> Vec<String> {
    let (good, changed) = solvers();
    let commits: Vec<(String, Vec<(&str, String)>)> = (0..=n)
        .map(|i| {
            let source = if i >= plant { &changed } else { &good };
            let text = match broken.contains(&i) {
                true => format!("{source}\nthis does not compile\n"),
                false => source.clone(),
            };
            let what = match (i == plant, broken.contains(&i)) {
                (true, _) => "plant: the tie-break changed",
                (false, true) => "broken: does not compile",
                _ => "an unrelated change",
            };
            let files = vec![("solver.c", text), ("notes.txt", format!("commit {i}\n"))];
            (format!("commit {i}: {what}"), files)
        })
        .collect();
    repository(dir, &commits)
}

/// `dlxbench bisect ARGS` on the repository `repo` with the C build, the
/// cache in `cache`, the example's symbol, on the first 300 puzzles of the
/// embedded corpus (written to `corpus`).
fn bisect_c(repo: &Path, cache: &Path, corpus: &Path, args: &[&str]) -> std::process::Output {
    dlxbench()
        .arg("bisect")
        .args(args)
        .arg("--repo")
        .arg(repo)
        .arg("--cache")
        .arg(cache)
        .args([
            "--build-cmd",
            &c_build(),
            "--symbol",
            "example_solve",
            "--corpus",
        ])
        .arg(corpus)
        .output()
        .unwrap()
}

fn short(repo: &Path, sha: &str) -> String {
    git(repo, &["rev-parse", "--short", sha])
}

#[test]
fn counts_name_the_commit_that_changed_them_and_skip_commits_that_do_not_build() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, cache) = (dir.path().join("repo"), dir.path().join("cache"));
    std::fs::create_dir(&repo).unwrap();
    let corpus = common::gen_9x9_corpus(dir.path(), "corpus.txt", 300);
    // 16 commits after the good one; the change at 11; 8, the first
    // commit probed, does not build, and neither does 13.
    let shas = counts_repository(&repo, 16, 11, &[8, 13]);
    let output = bisect_c(&repo, &cache, &corpus, &[&shas[0], &shas[16]]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        stderr_text(&output),
    );
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let plant = short(&repo, &shas[11]);
    assert!(
        stdout.starts_with(&format!("first changed commit: {plant} commit 11: plant")),
        "{stdout}"
    );
    // The evidence: how many puzzles differ, the totals before and after,
    // the first puzzles with their counts, and the commit before it.
    assert!(stdout.contains("puzzles differ; guesses"), "{stdout}");
    assert!(stdout.contains("corpus line "), "{stdout}");
    assert!(
        stdout.contains(&format!("before it, {} same", short(&repo, &shas[10]))),
        "{stdout}"
    );
    // 8 was probed and skipped; a neighbour was probed instead.
    let broken = short(&repo, &shas[8]);
    assert!(
        stderr.contains(&format!("  {broken} skipped: does not build")),
        "{stderr}"
    );
    // The bad commit first, then at most log2(16) + 1 (the skip) probes.
    let probes = stderr.lines().filter(|l| l.starts_with("  ")).count();
    assert!((3..=6).contains(&probes), "{probes} probes:\n{stderr}");
    assert!(stdout.contains("skipped"), "{stdout}");
    // Every build that worked is now cached: a second run builds only
    // the commit that does not build (a failure is tried again).
    let json_path = dir.path().join("bisect.json");
    let json_arg = json_path.to_str().unwrap();
    let again = bisect_c(
        &repo,
        &cache,
        &corpus,
        &[&shas[0], &shas[16], "--json", json_arg],
    );
    let stderr = stderr_text(&again);
    assert!(again.status.success(), "{stderr}");
    let built: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("dlxbench: building"))
        .collect();
    assert_eq!(built.len(), 1, "{stderr}");
    assert!(
        built[0].starts_with(&format!("dlxbench: building {broken} commit 8: broken")),
        "{stderr}"
    );
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).lines().next(),
        stdout.lines().next()
    );
    // --json: the same outcome for machines.
    let json: BisectJson = common::typed(&std::fs::read_to_string(&json_path).unwrap());
    assert_eq!(json.format, "dlxbench-bisect/1");
    assert_eq!(
        (json.measure.as_str(), json.symbol.as_str()),
        ("counts", "example_solve")
    );
    assert_eq!((&json.good.sha, &json.bad.sha), (&shas[0], &shas[16]));
    assert_eq!(json.commits, 16);
    assert!(json.exact);
    let found: Vec<&str> = json.found.iter().map(|c| c.sha.as_str()).collect();
    assert_eq!(found, [shas[11].as_str()]);
    assert_eq!(json.probes[0].commit.sha, shas[16], "the bad commit first");
    for p in &json.probes {
        let at = shas.iter().position(|s| *s == p.commit.sha).unwrap();
        let want = match at {
            8 | 13 => "unknown",
            11.. => "changed",
            _ => "same",
        };
        assert_eq!(p.verdict, want, "commit {at}");
        assert_eq!(p.build_log.is_some(), want == "unknown", "commit {at}");
        assert!(p.time.is_none());
        if let Some(c) = &p.counts {
            assert_eq!(c.differ == 0, want == "same", "commit {at}");
            assert_eq!(c.before.puzzles, 300);
        }
        assert_eq!(
            p.cached,
            want != "unknown",
            "commit {at}: all but the broken cached"
        );
    }
    assert!(json.probes.iter().any(|p| p.build_log.is_some()));
}

#[test]
fn a_commit_that_does_not_build_next_to_the_change_is_named_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, cache) = (dir.path().join("repo"), dir.path().join("cache"));
    std::fs::create_dir(&repo).unwrap();
    let corpus = common::gen_9x9_corpus(dir.path(), "corpus.txt", 300);
    // The commit before the change does not build: git bisect's "only
    // skipped commits left": the change is in one of the two.
    let shas = counts_repository(&repo, 8, 5, &[4]);
    let output = bisect_c(&repo, &cache, &corpus, &[&shas[0], &shas[8]]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}\n{}",
        stderr_text(&output)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("the first changed commit is one of these 2"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(&format!("  {} commit 4: broken", short(&repo, &shas[4]))),
        "{stdout}"
    );
    assert!(lines[1].contains("skipped: does not build"), "{stdout}");
    assert!(
        lines[2].starts_with(&format!("  {} commit 5: plant", short(&repo, &shas[5]))),
        "{stdout}"
    );
    assert!(lines[2].contains("(changed: "), "{stdout}");
}

#[test]
fn refusals_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, cache) = (dir.path().join("repo"), dir.path().join("cache"));
    std::fs::create_dir(&repo).unwrap();
    let corpus = common::gen_9x9_corpus(dir.path(), "corpus.txt", 50);
    let shas = counts_repository(&repo, 3, 9, &[0]);
    // GOOD does not build.
    let output = bisect_c(&repo, &cache, &corpus, &[&shas[0], &shas[3]]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_text(&output).contains("does not build"),
        "{}",
        stderr_text(&output)
    );
    // BAD is the same as GOOD: nothing to bisect.
    let output = bisect_c(&repo, &cache, &corpus, &[&shas[1], &shas[3]]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_text(&output).contains("is not changed against the good one (its probe: same"),
        "{}",
        stderr_text(&output)
    );
    // BAD before GOOD.
    let output = bisect_c(&repo, &cache, &corpus, &[&shas[3], &shas[1]]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_text(&output).contains("no commits from"),
        "{}",
        stderr_text(&output)
    );
}

#[test]
fn probes_exit_as_git_bisect_run_expects_and_git_bisect_run_finds_the_change() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, cache) = (dir.path().join("repo"), dir.path().join("cache"));
    std::fs::create_dir(&repo).unwrap();
    let corpus = common::gen_9x9_corpus(dir.path(), "corpus.txt", 300);
    let shas = counts_repository(&repo, 8, 6, &[3]);
    for (commit, status) in [(1, 0), (3, 125), (6, 1), (8, 1)] {
        let output = bisect_c(
            &repo,
            &cache,
            &corpus,
            &[&shas[0], "--probe", &shas[commit]],
        );
        assert_eq!(
            output.status.code(),
            Some(status),
            "commit {commit}: {}",
            stderr_text(&output)
        );
    }
    // An error (no such commit) stops git bisect run: above 127.
    let output = bisect_c(
        &repo,
        &cache,
        &corpus,
        &[&shas[0], "--probe", "no-such-commit"],
    );
    assert_eq!(output.status.code(), Some(128), "{}", stderr_text(&output));
    // The hand-over, as docs/bisect.md writes it (GOOD and BAD the
    // commits, `dlxbench` this binary), with this repository's build,
    // symbol, cache and corpus: git bisect run probes HEAD, git checks it
    // out.
    let extra = [
        "--cache".to_string(),
        cache.to_string_lossy().into_owned(),
        "--build-cmd".to_string(),
        c_build(),
        "--symbol".to_string(),
        "example_solve".to_string(),
        "--corpus".to_string(),
        corpus.to_string_lossy().into_owned(),
    ];
    let bin = binary().to_string_lossy().into_owned();
    let mut log = String::new();
    for line in recipe_lines("docs/bisect.md", "git bisect run") {
        let mut words: Vec<String> = line
            .split_whitespace()
            .map(|w| match w {
                "GOOD" => shas[0].clone(),
                "BAD" => shas[8].clone(),
                "dlxbench" => bin.clone(),
                w => w.to_string(),
            })
            .collect();
        assert_eq!(words[0], "git", "{line}");
        if words[1] == "bisect" && words[2] == "run" {
            words.extend(extra.iter().cloned());
        }
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        log.push_str(&git(&repo, &args));
    }
    assert!(
        log.contains(&format!("{} is the first bad commit", shas[6])),
        "{log}"
    );
    // The recipe ends the bisect: HEAD is back on main.
    assert_eq!(git(&repo, &["rev-parse", "HEAD"]), shas[8]);
}

/// The lines of the `sh` block of `page` that holds `needle`.
fn recipe_lines(page: &str, needle: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo_path(page)).unwrap();
    let mut blocks = text
        .split("```sh\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap());
    let block = blocks
        .find(|b| b.contains(needle))
        .unwrap_or_else(|| panic!("{page}: no sh block with `{needle}`"));
    block
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// A chain of `n` + 1 commits of a shim over `lib` (`libdlxbench.so`):
/// `shim_dlx` calls its `dlxbench_dlx` with flags 0, and from `plant` on
/// with `flags`, that many sixteenths of a busy-loop iteration per search
/// node (`include/dlxbench.h`). The build command links each commit's shim.
fn time_repository(
    dir: &Path,
    lib: &Path,
    n: usize,
    plant: usize,
    flags: u32,
) -> (Vec<String>, String) {
    let shim = |flags: u32| {
        format!(
            "#include <stddef.h>\n#include <stdint.h>\n\
             size_t dlxbench_dlx(const char *, size_t, uint32_t, char *, size_t *);\n\
             size_t shim_dlx(const char *in, size_t limit, uint32_t flags, char *out, size_t *g) {{\n\
             \x20   return dlxbench_dlx(in, limit, flags + {flags}u, out, g);\n}}\n"
        )
    };
    let commits: Vec<(String, Vec<(&str, String)>)> = (0..=n)
        .map(|i| {
            let what = if i == plant {
                "plant: slower"
            } else {
                "an unrelated change"
            };
            let source = shim(if i >= plant { flags } else { 0 });
            (
                format!("commit {i}: {what}"),
                vec![("shim.c", source), ("notes.txt", format!("{i}\n"))],
            )
        })
        .collect();
    let libdir = lib.parent().unwrap().display().to_string();
    let build = format!(
        "'{}' -O2 -shared -fPIC -o \"$DLXBENCH_BISECT_OUT\" shim.c -L'{libdir}' -ldlxbench -Wl,-rpath,'{libdir}'",
        common::c_compiler().path().display()
    );
    (repository(dir, &commits), build)
}

/// A slow-down far beyond the noise of a loaded machine (flags 480, about
/// +50%; the other tests of this binary run beside it) judged at 20%, so
/// that a probe of 10 s decides every commit whatever the load: the
/// mechanism, every run. The +5% of the issue is the ignored test below,
/// to run alone.
#[test]
fn a_planted_slow_down_is_found_by_time() {
    planted_slow_down_is_found(480, "20%");
}

/// The planted +5% (flags 47) at a 2% threshold: decided in 10 s on a
/// machine with nothing else running (docs/benchmarks.md), not beside
/// other tests. `cargo test --test it -- --ignored --nocapture
/// bisect::a_planted_five_percent`.
#[test]
#[ignore = "timing: +5% at a 2% threshold needs the machine to itself; run alone"]
fn a_planted_five_percent_slow_down_is_found_by_time_when_run_alone() {
    planted_slow_down_is_found(SLOW_DOWN, "2%");
}

/// Bisects a chain of 7 commits whose commit 4 plants `flags` by time at
/// `threshold`: commit 4 must be named, its B/A reported and commit 3
/// found the same.
fn planted_slow_down_is_found(flags: u32, threshold: &str) {
    let lib = common::ffi_build::libdlxbench();
    let dir = tempfile::tempdir().unwrap();
    let (repo, cache) = (dir.path().join("repo"), dir.path().join("cache"));
    std::fs::create_dir(&repo).unwrap();
    let corpus = common::gen_9x9_corpus(dir.path(), "corpus.txt", 1000);
    let (shas, build) = time_repository(&repo, lib, 6, 4, flags);
    let output = dlxbench()
        .args([
            "bisect",
            &shas[0],
            &shas[6],
            "--time",
            "--threshold",
            threshold,
            "--max-time",
            "10s",
        ])
        .args(["--symbol", "shim_dlx", "--build-cmd", &build, "--repo"])
        .arg(&repo)
        .arg("--cache")
        .arg(&cache)
        .arg("--corpus")
        .arg(&corpus)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        stderr_text(&output),
    );
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let plant = short(&repo, &shas[4]);
    assert!(
        stdout.starts_with(&format!("first changed commit: {plant} commit 4: plant")),
        "{stdout}\n{stderr}"
    );
    assert!(stdout.contains("  slower: B/A 1."), "{stdout}");
    assert!(
        stdout.contains(&format!("before it, {} same: B/A ", short(&repo, &shas[3]))),
        "{stdout}\n{stderr}"
    );
    eprintln!("{stderr}{stdout}");
}

/// The flags of the planted +5%: 47 sixteenths of a busy-loop iteration
/// per node, +4% to +6% on `dlx` in the test build (docs/benchmarks.md).
const SLOW_DOWN: u32 = 47;

/// On the project's own history, with cargo's builds of `libdlxbench.so`
/// (minutes each): `dc`'s counts changed at 5f6c0f1 ("dc: Dlx's
/// tie-break at a branch point", which re-pinned `results/baseline/` for
/// it). Bisects, in a clone, the 9 first-parent commits from 3d7d95d (the
/// commit that pinned `dc`'s counts in the baseline before it) to the
/// sixth commit after 5f6c0f1. Run: `cargo test --test it -- --ignored
/// bisect::real_history` (`BISECT_CACHE=DIR` keeps the builds between
/// runs).
#[test]
#[ignore = "builds about 5 historic commits of the project with cargo: many minutes"]
fn real_history_names_the_commit_that_changed_dc() {
    let dir = tempfile::tempdir().unwrap();
    let clone = dir.path().join("clone");
    let source = repo_path(".");
    git(
        dir.path(),
        &[
            "clone",
            "-q",
            "--no-checkout",
            &source.to_string_lossy(),
            &clone.to_string_lossy(),
        ],
    );
    let change = "5f6c0f1";
    let good = git(&clone, &["rev-parse", "3d7d95d"]);
    let chain = git(
        &clone,
        &[
            "rev-list",
            "--first-parent",
            &format!("{change}..origin/HEAD"),
        ],
    );
    let bad = chain
        .lines()
        .rev()
        .nth(5)
        .expect("6 commits after the change")
        .to_string();
    let cache =
        std::env::var_os("BISECT_CACHE").map_or_else(|| dir.path().join("cache"), PathBuf::from);
    let output = dlxbench()
        .args(["bisect", &good, &bad, "--symbol", "dlxbench_dc", "--repo"])
        .arg(&clone)
        .arg("--cache")
        .arg(&cache)
        .arg("--corpus")
        .arg(repo_path(common::GEN_9X9))
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        stderr_text(&output),
    );
    eprintln!("{stderr}{stdout}");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let full = git(&clone, &["rev-parse", "--short", change]);
    assert!(
        stdout.starts_with(&format!("first changed commit: {full} dc: Dlx's tie-break")),
        "{stdout}"
    );
}
