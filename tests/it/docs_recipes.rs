//! The recipes of the manual that set up a checkout work on a fresh clone.
//!
//! `docs/ab.md`'s "this commit against its base" recipe builds the base in
//! a git worktree. On a fresh clone `main` is the branch checked out, and
//! `git worktree add DIR main` refuses it ("'main' is already used by
//! worktree"); the recipe's form must work there. This test clones this
//! repository into a temporary directory, puts it on `main` as a fresh
//! clone is, and runs the recipe's `git` commands as written. The `cargo
//! build` lines are not run (two release builds of the workspace take
//! minutes): the test checks what they name instead (the manifest in the
//! new worktree, the package), and that the `dlxbench` command's options
//! exist.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::repo_path;

/// The `sh` block of `page` that contains `needle`, as its lines, with
/// `\` continuations joined.
fn recipe(page: &str, needle: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo_path(page)).unwrap();
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```sh") => current = Some(Vec::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(block), _) => block.push(line),
            (None, _) => {}
        }
    }
    let block = blocks
        .into_iter()
        .find(|b| b.iter().any(|l| l.contains(needle)))
        .unwrap_or_else(|| panic!("{page}: no `sh` block with `{needle}`"));
    let mut lines = Vec::new();
    let mut current = String::new();
    for line in block {
        let line = line.split("  #").next().unwrap().trim();
        match line.strip_suffix('\\') {
            Some(head) => current.push_str(head),
            None => {
                current.push_str(line);
                lines.push(std::mem::take(&mut current));
            }
        }
    }
    lines.retain(|l| !l.is_empty());
    lines
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git")
}

fn git_ok(dir: &Path, args: &[&str]) -> String {
    let out = git(dir, args);
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The value after `flag` in `words`.
fn after<'a>(words: &[&'a str], flag: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|w| *w == flag)
        .and_then(|i| words.get(i + 1).copied())
}

#[test]
fn the_ab_worktree_recipe_works_on_a_fresh_clone() {
    let lines = recipe("docs/ab.md", "git worktree add");
    let tmp = tempfile::tempdir().unwrap();
    let clone = tmp.path().join("dlxbench");
    let source = env!("CARGO_MANIFEST_DIR");
    git_ok(
        tmp.path(),
        &["clone", "--quiet", source, clone.to_str().unwrap()],
    );
    // A fresh clone of the project has `main` checked out.
    git_ok(&clone, &["checkout", "--quiet", "-B", "main"]);
    let main = git_ok(&clone, &["rev-parse", "HEAD"]);

    // The form the recipe replaced fails there, which is why it changed.
    let old = git(&clone, &["worktree", "add", "../old-form", "main"]);
    assert!(!old.status.success(), "`git worktree add DIR main` worked");
    assert!(
        String::from_utf8_lossy(&old.stderr).contains("already"),
        "{}",
        String::from_utf8_lossy(&old.stderr)
    );

    let mut ran_git = 0;
    let mut built = Vec::new();
    let mut ab = Vec::new();
    for line in &lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("git") => {
                git_ok(&clone, &words[1..]);
                ran_git += 1;
            }
            Some("cargo") => {
                assert_eq!(words.get(1), Some(&"build"), "docs/ab.md: `{line}`");
                // Not run (minutes); what it names must be there.
                let manifest = after(&words, "--manifest-path").unwrap_or("Cargo.toml");
                let manifest = clone.join(manifest);
                assert!(
                    manifest.exists(),
                    "docs/ab.md: `{line}`: no {}",
                    manifest.display()
                );
                if let Some(package) = after(&words, "-p") {
                    let member = manifest.parent().unwrap().join("ffi/Cargo.toml");
                    let text = std::fs::read_to_string(&member).unwrap();
                    assert!(
                        text.contains(&format!("name = \"{package}\"")),
                        "docs/ab.md: `{line}`: no package {package}"
                    );
                }
                built.push(manifest);
            }
            Some("dlxbench") => ab.push(line.clone()),
            _ => panic!("docs/ab.md: a recipe line this test cannot check: `{line}`"),
        }
    }
    assert!(ran_git >= 1, "docs/ab.md: the recipe runs no git command");
    assert_eq!(
        built.len(),
        2,
        "docs/ab.md: the base and the head are built"
    );
    assert_eq!(ab.len(), 1, "docs/ab.md: one `dlxbench ab` command");

    // The worktree holds the base, `main`, and the clone stays on `main`.
    let worktrees = git_ok(&clone, &["worktree", "list", "--porcelain"]);
    let base = worktrees
        .lines()
        .filter_map(|l| l.strip_prefix("worktree "))
        .map(Path::new)
        .find(|p| *p != clone.canonicalize().unwrap() && *p != clone)
        .expect("a second worktree")
        .to_path_buf();
    assert_eq!(git_ok(&base, &["rev-parse", "HEAD"]), main);
    assert_eq!(
        git_ok(&clone, &["rev-parse", "--abbrev-ref", "HEAD"]),
        "main"
    );
    assert!(built.iter().any(|m| m.starts_with(&base)
        || m.canonicalize()
            .unwrap()
            .starts_with(base.canonicalize().unwrap())));

    // The `ab` command names options `dlxbench ab` has, and the libraries
    // the two builds make.
    let commands = common::dlxbench_commands(&ab[0]);
    assert_eq!(commands[0].0, "ab");
    common::assert_options_exist(&commands);
    assert!(ab[0].contains("target/release/libdlxbench.so:dlxbench_"));
}
