//! The git repository a bisect walks: commits named and resolved, the
//! first-parent chain between two of them, and worktrees to build a
//! commit in. Every call runs the `git` program (`git -C REPO ...`).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::BisectError;

/// One commit of the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// The full object name.
    pub sha: String,
    /// Its abbreviation (`git rev-parse --short`).
    pub short: String,
    /// The first line of its message.
    pub subject: String,
}

impl Commit {
    /// `1a2b3c4 subject`, the subject cut to 72 characters.
    pub fn line(&self) -> String {
        let subject: String = self.subject.chars().take(72).collect();
        let more = if subject.len() < self.subject.len() {
            "..."
        } else {
            ""
        };
        format!("{} {subject}{more}", self.short)
    }
}

/// A git repository (its work tree or any directory in it).
#[derive(Debug, Clone)]
pub struct Repo {
    dir: PathBuf,
}

impl Repo {
    /// The repository at `dir`, checked to be one.
    pub fn open(dir: &Path) -> Result<Repo, BisectError> {
        let repo = Repo {
            dir: dir.to_path_buf(),
        };
        repo.git(&["rev-parse", "--git-dir"])?;
        Ok(repo)
    }

    /// The directory given to [`Repo::open`].
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs `git -C DIR ARGS` and returns its standard output, trimmed;
    /// a failure is [`BisectError::Git`] with git's own message.
    pub fn git(&self, args: &[&str]) -> Result<String, BisectError> {
        let output = Command::new("git")
            .arg("-C")
            .arg(&self.dir)
            .args(args)
            .output()
            .map_err(|e| BisectError::Git {
                args: args.join(" "),
                message: format!("cannot run git: {e}"),
            })?;
        if !output.status.success() {
            return Err(BisectError::Git {
                args: args.join(" "),
                message: String::from_utf8_lossy(&output.stderr).trim().to_string(),
            });
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    /// The commit `name` names (a revision: `HEAD`, `main~3`, a tag, an
    /// abbreviated object name).
    pub fn commit(&self, name: &str) -> Result<Commit, BisectError> {
        let sha = self.git(&[
            "rev-parse",
            "--verify",
            "--end-of-options",
            &format!("{name}^{{commit}}"),
        ])?;
        let short = self.git(&["rev-parse", "--short", &sha])?;
        let subject = self.git(&["log", "-1", "--format=%s", &sha])?;
        Ok(Commit {
            sha,
            short,
            subject,
        })
    }

    /// The commits after `good` up to `bad`, oldest first, along `bad`'s
    /// first parents: the first one's first parent is `good`, the last is
    /// `bad` ([`BisectError::NotOnFirstParents`] otherwise; an empty range
    /// is [`BisectError::EmptyRange`]).
    pub fn first_parent_range(
        &self,
        good: &Commit,
        bad: &Commit,
    ) -> Result<Vec<Commit>, BisectError> {
        let range = format!("{}..{}", good.sha, bad.sha);
        let list = self.git(&["rev-list", "--first-parent", "--reverse", &range])?;
        let shas: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
        let Some(first) = shas.first() else {
            return Err(BisectError::EmptyRange {
                good: good.short.clone(),
                bad: bad.short.clone(),
            });
        };
        let parent = self.git(&["rev-parse", &format!("{first}^1")]).ok();
        if parent.as_deref() != Some(good.sha.as_str()) {
            return Err(BisectError::NotOnFirstParents {
                good: good.short.clone(),
                bad: bad.short.clone(),
            });
        }
        shas.iter().map(|sha| self.commit(sha)).collect()
    }

    /// Checks `commit` out, detached, in a new worktree at `path` (what
    /// was there is removed first).
    pub fn add_worktree(&self, path: &Path, commit: &Commit) -> Result<(), BisectError> {
        if path.exists() {
            self.remove_worktree(path);
        }
        let path_text = path.to_string_lossy();
        self.git(&[
            "worktree",
            "add",
            "--detach",
            "--force",
            &path_text,
            &commit.sha,
        ])?;
        Ok(())
    }

    /// Removes the worktree at `path` (its files and git's record of it);
    /// a failure leaves at worst a directory that `git worktree prune`
    /// clears once it is gone.
    pub fn remove_worktree(&self, path: &Path) {
        let path_text = path.to_string_lossy();
        if self
            .git(&["worktree", "remove", "--force", &path_text])
            .is_err()
        {
            let _ = std::fs::remove_dir_all(path);
            let _ = self.git(&["worktree", "prune"]);
        }
    }
}
