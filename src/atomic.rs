//! Atomic writes: files and directories that appear at their destination
//! complete or not at all.
//!
//! Both are filled under a temporary name next to their destination (same
//! directory, so same file system) and renamed into place by `commit`;
//! dropped without commit, the temporary is removed. Temporary names start
//! with [`PREFIX`] followed by the start of the destination's name (at
//! most [`NAME_PART`] bytes, so that a temporary name stays short whatever
//! the destination's) and end with `.tmp`, so leftovers of a killed
//! process can be found and removed with [`remove_stale`].

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use tempfile::{Builder, NamedTempFile, TempDir};

/// How the names of this tool's temporary files and directories start:
/// `.dlxbench-<name>.<random>.tmp` for a file or directory being written
/// to `<name>`, `.dlxbench-<name>.<random>.tmp.old` for a directory
/// being replaced (`<name>` cut to [`NAME_PART`] bytes).
pub const PREFIX: &str = ".dlxbench-";

/// The most bytes of the destination's name in a temporary name.
pub const NAME_PART: usize = 32;

/// Suffix of a temporary file or directory being written.
const TMP_SUFFIX: &str = ".tmp";

/// Suffix of a replaced directory waiting to be deleted.
const OLD_SUFFIX: &str = ".old";

/// Size of [`AtomicFile`]'s write buffer.
const BUFFER: usize = 1 << 18;

/// The directory `dest` is in (`.` for a bare relative name).
fn parent_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The prefix of the temporary names for `dest`: [`PREFIX`], its file
/// name (its first [`NAME_PART`] bytes, cut at a character boundary) and a
/// dot.
fn prefix_for(dest: &Path) -> OsString {
    let name = dest.file_name().unwrap_or_default().to_string_lossy();
    let mut end = name.len().min(NAME_PART);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let mut prefix = OsString::from(PREFIX);
    prefix.push(&name[..end]);
    prefix.push(".");
    prefix
}

/// `temp`'s name next to `dest`: the temporary's path in the same form
/// (relative or absolute) as `dest` (tempfile makes it absolute).
fn beside(dest: &Path, temp: &Path) -> PathBuf {
    dest.with_file_name(temp.file_name().unwrap_or_default())
}

/// A builder of temporary names starting with `prefix`, created with Unix
/// mode `_mode` before the umask (`0o666` for a file, `0o777` for a
/// directory: what `File::create` and `create_dir` give).
fn builder<'a>(prefix: &'a OsString, _mode: u32) -> Builder<'a, 'static> {
    let mut builder = Builder::new();
    builder.prefix(prefix).suffix(TMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(_mode));
    }
    builder
}

/// A file written under a temporary name next to its destination and
/// renamed into place by [`AtomicFile::commit`]. Writes are buffered.
/// Dropped without commit, it removes the temporary file.
#[derive(Debug)]
pub struct AtomicFile {
    dest: PathBuf,
    temp: PathBuf,
    writer: BufWriter<NamedTempFile>,
}

impl AtomicFile {
    /// Creates `.dlxbench-<name>.<random>.tmp` next to `dest`.
    pub fn create(dest: &Path) -> io::Result<Self> {
        let prefix = prefix_for(dest);
        let file = builder(&prefix, 0o666).tempfile_in(parent_of(dest))?;
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            temp: beside(dest, file.path()),
            writer: BufWriter::with_capacity(BUFFER, file),
        })
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.dest
    }

    /// The temporary file being written (relative if `dest` is).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Flushes, syncs and renames into place (replacing any file there);
    /// returns the final path.
    pub fn commit(self) -> io::Result<PathBuf> {
        let file = self.writer.into_inner().map_err(|e| e.into_error())?;
        file.as_file().sync_all()?;
        let _: File = file.persist(&self.dest).map_err(io::Error::from)?;
        Ok(self.dest)
    }

    /// Appends the whole of the file at `path` (in the kernel where it can:
    /// `copy_file_range` on Linux).
    pub fn append_file(&mut self, path: &Path) -> io::Result<u64> {
        self.writer.flush()?;
        io::copy(&mut File::open(path)?, self.writer.get_mut().as_file_mut())
    }

    /// Appends everything written so far to `other` (from the start), and
    /// goes on writing after it; returns how many bytes.
    pub fn append_to(&mut self, other: &mut AtomicFile) -> io::Result<u64> {
        self.writer.flush()?;
        other.writer.flush()?;
        let from = self.writer.get_mut().as_file_mut();
        from.seek(SeekFrom::Start(0))?;
        let n = io::copy(from, other.writer.get_mut().as_file_mut());
        from.seek(SeekFrom::End(0))?;
        n
    }

    /// Writes `bytes` to `dest` atomically.
    pub fn write(dest: &Path, bytes: &[u8]) -> io::Result<PathBuf> {
        let mut f = AtomicFile::create(dest)?;
        f.write_all(bytes)?;
        f.commit()
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}

/// A directory filled under a temporary name next to its destination and
/// swapped into place by [`AtomicDir::commit`], so that readers never see a
/// half-written directory. Dropped without commit, it removes the
/// temporary directory and everything in it.
#[derive(Debug)]
pub struct AtomicDir {
    tmp: TempDir,
    /// `tmp`'s path in the same form as `dest`.
    path: PathBuf,
    dest: PathBuf,
}

impl AtomicDir {
    /// Creates `.dlxbench-<name>.<random>.tmp` next to `dest` (creating
    /// `dest`'s parent if needed).
    pub fn create(dest: &Path) -> io::Result<Self> {
        if dest.file_name().is_none() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: not a directory name", dest.display()),
            ));
        }
        let parent = parent_of(dest);
        std::fs::create_dir_all(parent)?;
        let prefix = prefix_for(dest);
        let tmp = builder(&prefix, 0o777).tempdir_in(parent)?;
        Ok(AtomicDir {
            path: beside(dest, tmp.path()),
            tmp,
            dest: dest.to_path_buf(),
        })
    }

    /// The temporary directory, to write into (relative if `dest` is).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The final path.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Moves the temporary directory to the destination; returns the final
    /// path. An existing destination is first renamed away (to the
    /// temporary name followed by `.old`), then deleted once the new
    /// directory is in place (and renamed back if that fails).
    pub fn commit(self) -> io::Result<PathBuf> {
        let AtomicDir { tmp, dest, .. } = self;
        if dest.exists() {
            let mut old = tmp.path().as_os_str().to_owned();
            old.push(OLD_SUFFIX);
            let old = PathBuf::from(old);
            if old.exists() {
                std::fs::remove_dir_all(&old)?;
            }
            std::fs::rename(&dest, &old)?;
            if let Err(e) = std::fs::rename(tmp.path(), &dest) {
                let _ = std::fs::rename(&old, &dest);
                return Err(e);
            }
            let _ = tmp.keep();
            std::fs::remove_dir_all(&old)?;
        } else {
            std::fs::rename(tmp.path(), &dest)?;
            let _ = tmp.keep();
        }
        Ok(dest)
    }
}

/// Whether `name` is one of this tool's temporary names.
fn is_temporary(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with(PREFIX) && (name.ends_with(TMP_SUFFIX) || name.ends_with(OLD_SUFFIX))
}

/// Removes the temporary files and directories this tool left in `dir`
/// (names starting with [`PREFIX`] and ending with `.tmp` or `.old`), as a
/// killed process leaves them; returns how many were removed. A missing
/// `dir` has none. Not to be called while another process may be writing
/// into `dir`: its temporaries would go too.
pub fn remove_stale(dir: &Path) -> io::Result<usize> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry?;
        if !is_temporary(&entry.file_name()) {
            continue;
        }
        if entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        } else {
            std::fs::remove_file(entry.path())?;
        }
        removed += 1;
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn file_commit_writes_the_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("x.txt");
        let mut f = AtomicFile::create(&dest).unwrap();
        assert_eq!(f.path(), dest);
        assert!(f.temp_path().is_file());
        f.write_all(b"hello").unwrap();
        assert!(!dest.exists());
        assert_eq!(f.commit().unwrap(), dest);
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        assert_eq!(names(dir.path()), ["x.txt"]);
        // Over an existing file.
        AtomicFile::write(&dest, b"again").unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"again");
        assert_eq!(names(dir.path()), ["x.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn file_gets_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        File::create(&plain).unwrap();
        let atomic = AtomicFile::write(&dir.path().join("atomic"), b"").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&atomic), mode(&plain));
    }

    #[test]
    fn file_dropped_without_commit_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut f = AtomicFile::create(&dir.path().join("y.txt")).unwrap();
        f.write_all(b"never").unwrap();
        assert_eq!(names(dir.path()).len(), 1);
        drop(f);
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn dir_replaces_the_old_one_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("results").join("base");
        let a = AtomicDir::create(&dest).unwrap();
        assert_eq!(a.dest(), dest);
        std::fs::write(a.path().join("one.txt"), "1").unwrap();
        assert!(!dest.exists());
        a.commit().unwrap();
        assert_eq!(names(&dest), ["one.txt"]);

        // Dropped without commit: the old directory stays, the temporary goes.
        let b = AtomicDir::create(&dest).unwrap();
        std::fs::write(b.path().join("two.txt"), "2").unwrap();
        drop(b);
        assert_eq!(names(&dest), ["one.txt"]);
        assert_eq!(names(dest.parent().unwrap()), ["base"]);

        // Committed: replaces the old one entirely.
        let c = AtomicDir::create(&dest).unwrap();
        std::fs::write(c.path().join("two.txt"), "2").unwrap();
        assert_eq!(c.commit().unwrap(), dest);
        assert_eq!(names(&dest), ["two.txt"]);
        assert_eq!(names(dest.parent().unwrap()), ["base"]);
    }

    #[test]
    fn temporaries_are_named_like_their_destination() {
        // A relative destination (the directory is in the current one) has
        // relative temporaries.
        let dir = tempfile::tempdir_in(".").unwrap();
        let rel = Path::new(dir.path().file_name().unwrap());
        let f = AtomicFile::create(&rel.join("x.txt")).unwrap();
        let name = f.temp_path().file_name().unwrap().to_string_lossy();
        assert!(name.starts_with(".dlxbench-x.txt.") && name.ends_with(".tmp"));
        assert_eq!(f.temp_path().parent(), Some(rel));
        assert!(f.temp_path().is_file());
        let d = AtomicDir::create(&rel.join("base")).unwrap();
        let name = d.path().file_name().unwrap().to_string_lossy();
        assert!(name.starts_with(".dlxbench-base.") && name.ends_with(".tmp"));
        assert_eq!(d.path().parent(), Some(rel));
        assert!(d.path().is_dir());
    }

    #[test]
    fn temporaries_of_long_names_are_short() {
        let dir = tempfile::tempdir().unwrap();
        // 250 bytes: the longest names a file system takes are 255.
        let long = "é".repeat(100) + &"x".repeat(40) + ".hgrm";
        let f = AtomicFile::create(&dir.path().join(&long)).unwrap();
        let name = f.temp_path().file_name().unwrap().to_string_lossy();
        assert!(name.starts_with(&format!(".dlxbench-{}.", "é".repeat(16))));
        assert!(name.len() < 64, "{name}");
        assert_eq!(f.commit().unwrap(), dir.path().join(&long));
        assert_eq!(names(dir.path()), [long.as_str()]);
        let d = AtomicDir::create(&dir.path().join("d".repeat(250))).unwrap();
        assert!(d.path().file_name().unwrap().len() < 64);
        d.commit().unwrap();
    }

    #[test]
    fn dir_needs_a_name() {
        let e = AtomicDir::create(Path::new("/")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn remove_stale_removes_only_prefixed_entries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        // Leftovers of a killed run: a file, a directory, a replaced one.
        let file = AtomicFile::create(&p.join("a.csv")).unwrap();
        std::mem::forget(file);
        let tmp = AtomicDir::create(&p.join("base")).unwrap();
        std::fs::write(tmp.path().join("inner.txt"), "x").unwrap();
        std::mem::forget(tmp);
        std::fs::create_dir(p.join(".dlxbench-base.abc123.tmp.old")).unwrap();
        // Not ours.
        for keep in [
            "a.csv",
            ".hidden",
            ".dlxbench-notes",
            "dlxbench-x.tmp",
            ".other-x.tmp",
        ] {
            std::fs::write(p.join(keep), "").unwrap();
        }
        std::fs::create_dir(p.join("base")).unwrap();
        assert_eq!(names(p).len(), 9);
        assert_eq!(remove_stale(p).unwrap(), 3);
        assert_eq!(
            names(p),
            [
                ".dlxbench-notes",
                ".hidden",
                ".other-x.tmp",
                "a.csv",
                "base",
                "dlxbench-x.tmp"
            ]
        );
        assert_eq!(remove_stale(p).unwrap(), 0);
        assert_eq!(remove_stale(&p.join("missing")).unwrap(), 0);
    }
}
