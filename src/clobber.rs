//! No output over an input: every subcommand that writes files checks each
//! output path against what it reads, with one [`Inputs`], before it
//! writes anything, so a forgotten argument or a mistyped path can never
//! replace a corpus or a result file being read.
//!
//! Files are compared by identity, not by name: device and inode on Unix
//! (`x`, `./x`, a symbolic link to `x` and a hard link of `x` are one
//! file), the canonical path elsewhere. Standard input counts too when it
//! is a file (`< corpus.txt`). An output that does not exist yet cannot be
//! an input. An output directory must neither be an input nor hold one at
//! any depth: a run's files go into it, and `--force` or a baseline swap
//! replaces what is there.
//!
//! ```
//! use dlxbench::clobber::Inputs;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let corpus = dir.path().join("corpus.txt");
//! std::fs::write(&corpus, "1.3\n").unwrap();
//! let mut inputs = Inputs::new();
//! inputs.add(&corpus);
//! // The corpus, under another spelling of its name: refused.
//! assert!(inputs.check_file(&dir.path().join(".").join("corpus.txt")).is_err());
//! // The directory holding it: refused too.
//! assert!(inputs.check_dir(dir.path()).is_err());
//! // Another file: fine.
//! assert!(inputs.check_file(&dir.path().join("out.json")).is_ok());
//! ```

use std::fs;
use std::path::{Path, PathBuf};

/// An output path that would write over an input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Clash {
    /// The output is one of the inputs.
    #[error("{} is an input of this command{}: refusing to write over it", .output.display(), read_as(.output, .input))]
    Same {
        /// The output, as given.
        output: PathBuf,
        /// The input, as given.
        input: PathBuf,
    },
    /// The output directory holds an input.
    #[error("{} holds an input of this command ({}): refusing to write results there", .output.display(), .input.display())]
    Holds {
        /// The output directory, as given.
        output: PathBuf,
        /// The input, as given.
        input: PathBuf,
    },
}

/// ` (read as INPUT)` when the input was named otherwise than the output.
fn read_as(output: &Path, input: &Path) -> String {
    match output == input {
        true => String::new(),
        false => format!(" (read as {})", input.display()),
    }
}

/// A file's identity: device and inode on Unix.
type Id = (u64, u64);

/// The identity of the file `meta` describes (none off Unix).
fn id_of(meta: &fs::Metadata) -> Option<Id> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// One input: its name as given, canonical path and identity.
#[derive(Debug, Clone)]
struct Input {
    name: PathBuf,
    canonical: Option<PathBuf>,
    id: Option<Id>,
}

/// The inputs of a command, to check its outputs against.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    inputs: Vec<Input>,
}

impl Inputs {
    /// No inputs yet.
    pub fn new() -> Inputs {
        Inputs::default()
    }

    /// Adds `path`, a file or a directory; `-` is standard input
    /// ([`add_stdin`](Self::add_stdin)). A path that does not exist is not
    /// added: there is nothing there to protect.
    pub fn add(&mut self, path: &Path) -> &mut Inputs {
        if path == Path::new("-") {
            return self.add_stdin();
        }
        if let Ok(meta) = fs::metadata(path) {
            self.inputs.push(Input {
                name: path.to_path_buf(),
                canonical: fs::canonicalize(path).ok(),
                id: id_of(&meta),
            });
        }
        self
    }

    /// Adds the directory `dir` and the files directly in it whose names
    /// `keep` accepts (a result directory that is read: its `run.json`,
    /// `summary.csv`, ...).
    pub fn add_dir_files(&mut self, dir: &Path, keep: impl Fn(&str) -> bool) -> &mut Inputs {
        self.add(dir);
        if let Ok(entries) = fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                if entry.file_type().is_ok_and(|t| !t.is_dir()) && name.to_str().is_some_and(&keep)
                {
                    self.add(&entry.path());
                }
            }
        }
        self
    }

    /// Adds standard input when it is a file (`< corpus.txt`); a terminal
    /// or a pipe is nothing that could be written over.
    pub fn add_stdin(&mut self) -> &mut Inputs {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let meta = std::io::stdin()
                .as_fd()
                .try_clone_to_owned()
                .map(fs::File::from)
                .and_then(|f| f.metadata());
            if let Some(meta) = meta.ok().filter(|m| m.is_file()) {
                self.inputs.push(Input {
                    name: PathBuf::from("<stdin>"),
                    canonical: None,
                    id: id_of(&meta),
                });
            }
        }
        self
    }

    /// Whether there are no inputs to protect.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Refuses the output file `output` when it is one of the inputs.
    pub fn check_file(&self, output: &Path) -> Result<(), Clash> {
        let Ok(meta) = fs::metadata(output) else {
            return Ok(());
        };
        let (id, canonical) = (id_of(&meta), fs::canonicalize(output).ok());
        let same = |input: &&Input| {
            (id.is_some() && input.id == id)
                || (canonical.is_some() && input.canonical == canonical)
        };
        match self.inputs.iter().find(same) {
            Some(input) => Err(Clash::Same {
                output: output.to_path_buf(),
                input: input.name.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Refuses the output directory `dir` when it is an input or holds one
    /// at any depth.
    pub fn check_dir(&self, dir: &Path) -> Result<(), Clash> {
        self.check_file(dir)?;
        let Ok(canonical) = fs::canonicalize(dir) else {
            return Ok(());
        };
        let inside = |input: &&Input| {
            input
                .canonical
                .as_ref()
                .is_some_and(|c| c.starts_with(&canonical))
        };
        match self.inputs.iter().find(inside) {
            Some(input) => Err(Clash::Holds {
                output: dir.to_path_buf(),
                input: input.name.clone(),
            }),
            None => Ok(()),
        }
    }
}

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.
#[cfg(test)]
mod tests {
    use super::*;

    /// A directory with `a.txt` and `sub/b.txt`.
    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a.txt"), "a\n").unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/b.txt"), "b\n").unwrap();
        dir
    }

    #[test]
    fn a_file_is_its_own_clash_under_any_name() {
        let dir = tree();
        let a = dir.path().join("a.txt");
        let mut inputs = Inputs::new();
        inputs.add(&a);
        let clash = inputs.check_file(&dir.path().join("sub/../a.txt"));
        assert_eq!(
            clash,
            Err(Clash::Same {
                output: dir.path().join("sub/../a.txt"),
                input: a.clone()
            })
        );
        assert!(clash
            .unwrap_err()
            .to_string()
            .contains("refusing to write over it"));
        assert!(inputs.check_file(&dir.path().join("sub/b.txt")).is_ok());
        assert!(inputs.check_file(&dir.path().join("new.json")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_the_same_file() {
        let dir = tree();
        let a = dir.path().join("a.txt");
        fs::hard_link(&a, dir.path().join("hard")).unwrap();
        std::os::unix::fs::symlink(&a, dir.path().join("soft")).unwrap();
        let mut inputs = Inputs::new();
        inputs.add(&a);
        assert!(inputs.check_file(&dir.path().join("hard")).is_err());
        assert!(inputs.check_file(&dir.path().join("soft")).is_err());
    }

    #[test]
    fn a_directory_holding_an_input_is_refused() {
        let dir = tree();
        let mut inputs = Inputs::new();
        inputs.add(&dir.path().join("sub/b.txt"));
        assert!(matches!(
            inputs.check_dir(dir.path()),
            Err(Clash::Holds { .. })
        ));
        assert!(inputs.check_dir(&dir.path().join("sub")).is_err());
        assert!(inputs.check_dir(&dir.path().join("other")).is_ok());
        fs::create_dir(dir.path().join("other")).unwrap();
        assert!(inputs.check_dir(&dir.path().join("other")).is_ok());
    }

    #[test]
    fn an_input_directory_and_its_files() {
        let dir = tree();
        let mut inputs = Inputs::new();
        fs::write(dir.path().join("sub/c.md"), "c\n").unwrap();
        inputs.add_dir_files(&dir.path().join("sub"), |name| name.ends_with(".txt"));
        assert!(matches!(
            inputs.check_dir(&dir.path().join("sub")),
            Err(Clash::Same { .. })
        ));
        assert!(inputs.check_file(&dir.path().join("sub/b.txt")).is_err());
        assert!(inputs.check_file(&dir.path().join("sub/c.md")).is_ok());
        assert!(inputs.check_file(&dir.path().join("a.txt")).is_ok());
    }

    #[test]
    fn missing_inputs_are_not_added() {
        let dir = tree();
        let mut inputs = Inputs::new();
        inputs.add(&dir.path().join("missing.txt"));
        assert!(inputs.is_empty());
    }
}
