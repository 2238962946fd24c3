//! One writer per directory: an exclusive lock on a result directory,
//! held by the run writing into it.
//!
//! The lock is an advisory lock (`flock` on Unix, `LockFileEx` on Windows,
//! through `fs4`) on the file [`LOCK_FILE`] in the directory, which holds
//! the holder's process id. The operating system releases it when the
//! holder ends, however it ends (a crash or `SIGKILL` too), so a lock is
//! never stale: a lock file nobody holds is only a leftover. A run that
//! ends normally removes the file as it releases the lock.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The lock file's name in a locked directory. It is not a result file:
/// `--force` does not remove it, and a run removes it when it ends.
pub const LOCK_FILE: &str = ".dlxbench.lock";

/// Why a directory could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock: another run is writing into the
    /// directory.
    #[error(
        "{}: another dlxbench run ({}) is writing into it; wait for it to end, or choose \
         another directory",
        dir.display(),
        pid.map_or_else(|| "process id unknown".to_string(), |p| format!("pid {p}"))
    )]
    Held {
        /// The directory.
        dir: PathBuf,
        /// The holder's process id, as its lock file says (`None`: not
        /// readable).
        pid: Option<u32>,
    },
    /// The lock file could not be created, locked or written.
    #[error("cannot lock {}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

/// Another process holding a directory's lock ([`holder`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    /// Its process id, as the lock file says (`None`: not readable).
    pub pid: Option<u32>,
}

/// The exclusive lock of a directory, held until dropped: dropping it
/// removes the lock file (if it is still the one locked) and releases the
/// lock.
#[derive(Debug)]
pub struct DirLock {
    file: File,
    path: PathBuf,
}

/// How often [`DirLock::acquire`] tries again when the lock file it
/// locked was removed meanwhile by the holder before it.
const ATTEMPTS: usize = 8;

impl DirLock {
    /// Takes the lock of the existing directory `dir`, without waiting:
    /// creates [`LOCK_FILE`] in it if missing, locks it and writes this
    /// process's id into it. Refused with [`LockError::Held`] when another
    /// process holds it.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        for _ in 0..ATTEMPTS {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(io)?;
            match fs4::FileExt::try_lock(&file) {
                Ok(()) => {}
                Err(fs4::TryLockError::WouldBlock) => {
                    return Err(LockError::Held {
                        dir: dir.to_path_buf(),
                        pid: read_pid(&path),
                    })
                }
                Err(fs4::TryLockError::Error(e)) => return Err(io(e)),
            }
            // The holder before may have removed the file between our open
            // and our lock: then the lock is on a file no one else sees.
            if !is_at(&file, &path).map_err(io)? {
                continue;
            }
            let mut lock = DirLock {
                file,
                path: path.clone(),
            };
            lock.write_pid().map_err(io)?;
            return Ok(lock);
        }
        Err(io(io::Error::other(
            "the lock file keeps being replaced by other processes",
        )))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write_pid(&mut self) -> io::Result<()> {
        self.file.set_len(0)?;
        let mut file = &self.file;
        writeln!(file, "{}", std::process::id())?;
        file.flush()
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Removed while still held, and only if the path is still this file
        // (a baseline's directory is swapped away under it); closing the
        // file then releases the lock.
        if is_at(&self.file, &self.path).unwrap_or(false) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether another process holds the lock of `dir`: `Some` with its id
/// when one does, `None` when none does (no lock file, or a leftover of a
/// process that ended). A live run's directory has a holder; a directory
/// whose run says it is still going but has none was left by a run that
/// died.
pub fn holder(dir: &Path) -> io::Result<Option<Holder>> {
    let path = dir.join(LOCK_FILE);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    match fs4::FileExt::try_lock_shared(&file) {
        // Closing the file releases the shared lock.
        Ok(()) => Ok(None),
        Err(fs4::TryLockError::WouldBlock) => Ok(Some(Holder {
            pid: read_pid(&path),
        })),
        Err(fs4::TryLockError::Error(e)) => Err(e),
    }
}

/// The process id in the lock file at `path`: a holder writes it just
/// after locking, so an empty file is read again a few times.
fn read_pid(path: &Path) -> Option<u32> {
    for _ in 0..5 {
        let mut text = String::new();
        let read = File::open(path).and_then(|mut f| f.read_to_string(&mut text));
        if read.is_ok() && !text.is_empty() {
            return text.trim().parse().ok();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// Whether `path` names the open `file` (the same file, not one created
/// in its place). `false` when `path` is gone.
fn is_at(file: &File, path: &Path) -> io::Result<bool> {
    let there = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let open = file.metadata()?;
        Ok(open.dev() == there.dev() && open.ino() == there.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = (file, there);
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holders_pid_until_the_first_goes() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(holder(dir.path()).unwrap(), None);
        let first = DirLock::acquire(dir.path()).unwrap();
        assert_eq!(first.path(), dir.path().join(LOCK_FILE));
        let text = std::fs::read_to_string(first.path()).unwrap();
        assert_eq!(text, format!("{}\n", std::process::id()));
        let pid = Some(std::process::id());
        assert_eq!(holder(dir.path()).unwrap(), Some(Holder { pid }));

        // flock locks belong to the open file: a second open conflicts
        // even in the same process.
        let refused = DirLock::acquire(dir.path()).unwrap_err();
        assert!(
            matches!(&refused, LockError::Held { pid: p, .. } if *p == pid),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "{}: another dlxbench run (pid {}) is writing into it; wait for it to end, or \
                 choose another directory",
                dir.path().display(),
                std::process::id()
            )
        );
        // The refusal leaves the holder's file as it was.
        assert_eq!(std::fs::read_to_string(first.path()).unwrap(), text);

        drop(first);
        assert!(!dir.path().join(LOCK_FILE).exists(), "removed at release");
        assert_eq!(holder(dir.path()).unwrap(), None);
        let again = DirLock::acquire(dir.path()).unwrap();
        drop(again);
    }

    #[test]
    fn a_leftover_lock_file_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        // A killed holder's file: its lock went with the process.
        std::fs::write(dir.path().join(LOCK_FILE), "4000000000\n").unwrap();
        assert_eq!(holder(dir.path()).unwrap(), None);
        let lock = DirLock::acquire(dir.path()).unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
    }

    #[test]
    fn a_lock_file_swapped_away_is_left_alone_at_release() {
        let dir = tempfile::tempdir().unwrap();
        let lock = DirLock::acquire(dir.path()).unwrap();
        // Another file now stands at the path (a directory swapped in).
        std::fs::remove_file(lock.path()).unwrap();
        std::fs::write(dir.path().join(LOCK_FILE), "other").unwrap();
        drop(lock);
        assert_eq!(
            std::fs::read_to_string(dir.path().join(LOCK_FILE)).unwrap(),
            "other"
        );
    }

    #[test]
    fn a_missing_directory_is_an_io_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing");
        let e = DirLock::acquire(&missing).unwrap_err();
        assert!(matches!(e, LockError::Io { .. }), "{e:?}");
    }
}
