//! Memory layout randomised from pass to pass: fresh copies of loaded
//! libraries, fresh processes, buffers and padding at seeded random
//! offsets, so that where a solver's code and data happen to lie becomes
//! noise that repeated passes can see, not a fixed bias of one load
//! (Mytkowicz et al., ASPLOS 2009; Curtsinger and Berger, STABILIZER,
//! ASPLOS 2013).
//!
//! [`Layout::pass`] turns a lineup's entries into fresh ones for one pass:
//!
//! - a library loaded through the C interface ([`super::foreign`]) is
//!   copied to a new file in the layout's private temporary directory, so
//!   that the loader maps new pages of a new file (new page-cache pages,
//!   new physical addresses) at new addresses: `dlopen` of a path already
//!   open returns the same handle, a copy is a new library. In this process
//!   (`--in-process`) the copy is opened anew; isolated, every worker's
//!   host process ([`super::host`]) loads it, a fresh host per pass.
//! - the C call's input and solution buffers lie at random offsets
//!   ([`Placement::input_offset`], [`Placement::solution_offset`]); in a
//!   host the solution still ends at its guard page, after its slack and a
//!   canary that grows by the offset.
//! - a host allocates [`Placement::heap_pad`] bytes before it loads the
//!   library, which moves the heap the solver's `malloc` sees.
//! - every fresh process (a host, a `--solver-cmd` command) gets an
//!   environment variable [`PAD_VARIABLE`] of [`Placement::env_pad`]
//!   bytes, which moves its initial stack.
//!
//! The kernel's address-space layout randomisation (ASLR, on when
//! `/proc/sys/kernel/randomize_va_space` is 2) moves the load addresses,
//! the stack and the heap of each new process, and the mappings of each
//! new `dlopen`, on top of this ([`aslr`]).
//!
//! Not randomised: built-in solvers (compiled into this program, called in
//! its process: their code lies where the program was linked;
//! [`Randomised::Nothing`]); the program file of a `--solver-cmd` command
//! (it is not copied); the heap of a library loaded in this process (its
//! worker threads allocate from arenas of their own).
//!
//! Every choice comes from a seed and the pass number
//! ([`Placement::draw`]): a run with the same seed makes the same choices.
//! The temporary directory is removed when the [`Layout`] is dropped (at
//! the end of the run, on an error, or after an interruption that ends the
//! run normally; a process killed outright leaves it behind).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::SolverEntry;
use crate::rng::SplitMix;

/// The environment variable that pads a fresh process's environment.
pub const PAD_VARIABLE: &str = "DLXBENCH_LAYOUT_PAD";

/// Offsets and paddings step by this many bytes (the alignment `malloc`
/// gives): the buffers move between cache-line positions without being
/// misaligned for the solver.
pub const STEP: usize = 16;

/// The largest [`Placement::input_offset`].
pub const MAX_INPUT_OFFSET: usize = 1024;

/// The largest [`Placement::solution_offset`].
pub const MAX_SOLUTION_OFFSET: usize = 1008;

/// The largest [`Placement::heap_pad`] (below `malloc`'s mapping threshold,
/// so the padding comes from the heap it moves).
pub const MAX_HEAP_PAD: usize = 65520;

/// The largest [`Placement::env_pad`].
pub const MAX_ENV_PAD: usize = 4095;

/// The largest [`Placement::map_pad`], in pages.
pub const MAX_MAP_PAD: usize = 255;

/// One solver's random choices for one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Placement {
    /// Where the C call's input (81 characters and a NUL) starts in its
    /// buffer region, in bytes (a multiple of [`STEP`], at most
    /// [`MAX_INPUT_OFFSET`]).
    pub input_offset: usize,
    /// How far before the end of its region the solution buffer (its 81
    /// bytes, slack and canary) ends, in bytes (a multiple of [`STEP`], at
    /// most [`MAX_SOLUTION_OFFSET`]). In a host the region ends at the guard
    /// page and these bytes are more canary.
    pub solution_offset: usize,
    /// Bytes a host allocates, and keeps, before it loads the library (a
    /// multiple of [`STEP`], at most [`MAX_HEAP_PAD`]).
    pub heap_pad: usize,
    /// Bytes of the [`PAD_VARIABLE`] value in a fresh process's
    /// environment (at most [`MAX_ENV_PAD`]).
    pub env_pad: usize,
    /// Pages of address space reserved just before the library is loaded
    /// and released after ([`Spacer`]): the loader maps it elsewhere, by
    /// that many pages, than it would (at most [`MAX_MAP_PAD`]).
    pub map_pad: usize,
}

impl Placement {
    /// The choices for the solver at `index` of the lineup in pass `pass`
    /// (from 0) of a run seeded with `seed`: the same arguments, the same
    /// choices.
    pub fn draw(seed: u64, pass: u32, index: usize) -> Placement {
        // A stream of its own: not the bootstrap's, which uses the seed too.
        const SALT: u64 = 0x6c61_796f_7574_0001;
        let item = (u64::from(pass) << 16) | (index as u64 & 0xffff);
        let mut g = SplitMix::for_item(seed ^ SALT, item);
        Placement {
            input_offset: STEP * g.below(MAX_INPUT_OFFSET / STEP + 1),
            solution_offset: STEP * g.below(MAX_SOLUTION_OFFSET / STEP + 1),
            heap_pad: STEP * g.below(MAX_HEAP_PAD / STEP + 1),
            env_pad: g.below(MAX_ENV_PAD + 1),
            map_pad: g.below(MAX_MAP_PAD + 1),
        }
    }

    /// The environment variable of a fresh process: [`PAD_VARIABLE`] and
    /// [`Placement::env_pad`] bytes.
    pub fn env(&self) -> (&'static str, String) {
        (PAD_VARIABLE, "x".repeat(self.env_pad))
    }
}

/// `input=N,solution=N,heap=N,map=N` (the environment padding is not
/// part of it: a process is given it in its environment).
impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "input={},solution={},heap={},map={}",
            self.input_offset, self.solution_offset, self.heap_pad, self.map_pad
        )
    }
}

/// Why a placement's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}`: expected input=N,solution=N,heap=N,map=N (bytes, multiples of 16, at most 1024, \
     1008 and 65520; pages, at most 255)"
)]
pub struct PlacementError(pub String);

impl FromStr for Placement {
    type Err = PlacementError;

    /// Reads what [`Placement`]'s `Display` writes; every value a multiple
    /// of [`STEP`] within its bound.
    ///
    /// ```
    /// use dlxbench::solvers::layout::Placement;
    ///
    /// let p: Placement = "input=32,solution=16,heap=4096,map=3".parse().unwrap();
    /// assert_eq!((p.input_offset, p.solution_offset, p.heap_pad, p.map_pad), (32, 16, 4096, 3));
    /// assert_eq!(p.to_string(), "input=32,solution=16,heap=4096,map=3");
    /// assert!("input=3,solution=0,heap=0,map=0".parse::<Placement>().is_err());
    /// assert!("input=0,solution=2048,heap=0,map=0".parse::<Placement>().is_err());
    /// assert!("input=0,solution=0,heap=0".parse::<Placement>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Self, PlacementError> {
        let bad = || PlacementError(text.to_string());
        let mut placement = Placement::default();
        let mut seen = [false; 4];
        for part in text.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(bad)?;
            let value: usize = value.parse().map_err(|_| bad())?;
            let (slot, max, step, i) = match key {
                "input" => (&mut placement.input_offset, MAX_INPUT_OFFSET, STEP, 0),
                "solution" => (&mut placement.solution_offset, MAX_SOLUTION_OFFSET, STEP, 1),
                "heap" => (&mut placement.heap_pad, MAX_HEAP_PAD, STEP, 2),
                "map" => (&mut placement.map_pad, MAX_MAP_PAD, 1, 3),
                _ => return Err(bad()),
            };
            if seen[i] || !value.is_multiple_of(step) || value > max {
                return Err(bad());
            }
            seen[i] = true;
            *slot = value;
        }
        match seen {
            [true, true, true, true] => Ok(placement),
            _ => Err(bad()),
        }
    }
}

/// What [`Layout::pass`] randomises for an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Randomised {
    /// Nothing: a built-in solver (or one added at run time without a way
    /// to make it afresh) runs in this process, where its code lies as the
    /// program was linked.
    Nothing,
    /// A library loaded in this process: a fresh copy opened per pass, its
    /// buffers at random offsets.
    InProcess,
    /// A library in host processes: a fresh copy per pass loaded by fresh
    /// hosts, its buffers at random offsets, heap and environment padding.
    Isolated,
    /// A command in its own processes: fresh processes per pass, with
    /// environment padding (its program file is not copied).
    Command,
}

impl Randomised {
    /// Words for people.
    pub fn words(self) -> &'static str {
        match self {
            Randomised::Nothing => "not randomised (built in: runs in this process)",
            Randomised::InProcess => {
                "a fresh copy of the library opened per pass, buffers at random offsets"
            }
            Randomised::Isolated => {
                "a fresh copy of the library per pass in fresh host processes, buffers at \
                 random offsets, heap and environment padding"
            }
            Randomised::Command => "fresh processes per pass with environment padding",
        }
    }
}

/// Why a pass's fresh entries could not be made.
#[derive(Debug, thiserror::Error)]
pub enum LayoutError {
    /// The private temporary directory could not be made.
    #[error("could not make a temporary directory for the libraries' copies: {0}")]
    TempDir(#[source] std::io::Error),
    /// A library could not be copied.
    #[error("could not copy {} to {}: {source}", from.display(), to.display())]
    Copy {
        /// The library.
        from: PathBuf,
        /// The copy's path.
        to: PathBuf,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// A copy could not be loaded: the loader's error (a
    /// [`super::foreign::ForeignError`] for a library loaded in this
    /// process). Boxed, so that the layout, which the loaders use, does
    /// not depend on them.
    #[error(transparent)]
    Load(Box<dyn std::error::Error + Send + Sync>),
}

/// Makes an entry afresh for one pass ([`SolverEntry::with_relayout`]).
pub type Relayout<P> = dyn Fn(&Fresh<'_>) -> Result<SolverEntry<P>, LayoutError> + Send + Sync;

/// What an entry's relayout function is given: the solver's choices for
/// the pass and a place for its copies.
#[derive(Debug)]
pub struct Fresh<'a> {
    placement: Placement,
    dir: &'a Path,
    index: usize,
}

impl Fresh<'_> {
    /// The solver's random choices for the pass.
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// Copies the file at `path` (a library) into the pass's directory
    /// and returns the copy's path: a new file (a new inode, new
    /// page-cache pages) of the same name, in a directory of the solver's
    /// own.
    pub fn copy(&self, path: &Path) -> Result<PathBuf, LayoutError> {
        let dir = self.dir.join(format!("solver-{}", self.index));
        let name = path.file_name().unwrap_or(path.as_os_str());
        let to = dir.join(name);
        let copied = std::fs::create_dir_all(&dir).and_then(|()| std::fs::copy(path, &to));
        match copied {
            Ok(_) => Ok(to),
            Err(source) => Err(LayoutError::Copy {
                from: path.to_path_buf(),
                to,
                source,
            }),
        }
    }
}

/// One solver's layout over a run, for reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SolverLayout {
    /// The solver's name.
    pub name: String,
    /// What is randomised for it.
    pub randomised: Randomised,
}

/// What a run's [`Layout`] randomised, for reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LayoutSummary {
    /// The seed of the choices.
    pub seed: u64,
    /// Each solver, in the lineup's order.
    pub solvers: Vec<SolverLayout>,
    /// Whether the kernel randomises address spaces ([`aslr`]); `None`
    /// when it could not be read.
    pub aslr: Option<bool>,
}

impl LayoutSummary {
    /// The names of the solvers whose layout is not randomised.
    pub fn fixed(&self) -> Vec<&str> {
        self.solvers
            .iter()
            .filter(|s| s.randomised == Randomised::Nothing)
            .map(|s| s.name.as_str())
            .collect()
    }
}

/// Fresh entries pass after pass, and the temporary copies they load:
/// one per run.
///
/// ```no_run
/// use dlxbench::solvers::layout::Layout;
/// use dlxbench::solvers::SolverSet;
/// use dlxbench::sudoku::Grid;
///
/// let set = SolverSet::<Grid>::builtin();
/// let mut layout = Layout::new(7);
/// for pass in 0..3 {
///     let fresh = layout.pass(pass, set.entries()).unwrap();
///     // ... run the pass with `fresh` ...
/// }
/// // Dropping the layout removes its copies.
/// ```
pub struct Layout {
    seed: u64,
    /// Made at the first pass that copies anything.
    root: Option<tempfile::TempDir>,
    /// The last pass's directory (removed when the next pass starts).
    last: Option<PathBuf>,
    /// The last pass's entries, kept until the next pass's are made, so
    /// that a library loaded in this process stays mapped while its
    /// successor is loaded, which then cannot take its place.
    previous: Option<Box<dyn std::any::Any + Send>>,
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layout")
            .field("seed", &self.seed)
            .field("dir", &self.dir())
            .finish_non_exhaustive()
    }
}

impl Layout {
    /// A layout whose choices come from `seed`.
    pub fn new(seed: u64) -> Self {
        Layout {
            seed,
            root: None,
            last: None,
            previous: None,
        }
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The private temporary directory, once made.
    pub fn dir(&self) -> Option<&Path> {
        self.root.as_ref().map(tempfile::TempDir::path)
    }

    /// What is randomised for each of `entries`.
    pub fn summary<P>(&self, entries: &[SolverEntry<P>]) -> LayoutSummary {
        LayoutSummary {
            seed: self.seed,
            solvers: entries
                .iter()
                .map(|e| SolverLayout {
                    name: e.name().to_string(),
                    randomised: e.randomised(),
                })
                .collect(),
            aslr: aslr(),
        }
    }

    /// Fresh entries for pass `pass` (from 0), one for each of `entries`
    /// in order: an entry with a relayout function
    /// ([`SolverEntry::with_relayout`]) made afresh with its
    /// [`Placement::draw`] for (seed, pass, its index), others cloned. The
    /// previous pass's copies are removed first (a library still mapped
    /// stays mapped: its file is only unlinked); the layout keeps the
    /// previous pass's entries until the new ones are made.
    pub fn pass<P: 'static>(
        &mut self,
        pass: u32,
        entries: &[SolverEntry<P>],
    ) -> Result<Vec<SolverEntry<P>>, LayoutError> {
        if let Some(last) = self.last.take() {
            let _ = std::fs::remove_dir_all(last);
        }
        if entries
            .iter()
            .all(|e| e.randomised() == Randomised::Nothing)
        {
            return Ok(entries.to_vec());
        }
        if self.root.is_none() {
            let root = tempfile::Builder::new()
                .prefix("dlxbench-layout-")
                .tempdir()
                .map_err(LayoutError::TempDir)?;
            self.root = Some(root);
        }
        let root = self.root.as_ref().expect("made above").path();
        let dir = root.join(format!("pass-{pass}"));
        std::fs::create_dir_all(&dir).map_err(LayoutError::TempDir)?;
        self.last = Some(dir.clone());
        let fresh = entries
            .iter()
            .enumerate()
            .map(|(index, entry)| match entry.relayout_fn() {
                None => Ok(entry.clone()),
                Some(relayout) => relayout(&Fresh {
                    placement: Placement::draw(self.seed, pass, index),
                    dir: &dir,
                    index,
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        // The last pass's entries go now that the new ones are made.
        self.previous = Some(Box::new(fresh.clone()));
        Ok(fresh)
    }

    /// Removes the temporary directory now, saying whether that worked
    /// (dropping the layout removes it too, silently).
    pub fn close(mut self) -> std::io::Result<()> {
        match self.root.take() {
            Some(root) => root.close(),
            None => Ok(()),
        }
    }
}

/// Address space reserved (inaccessible, no memory behind it) while a
/// library is loaded, so that the loader places it elsewhere by
/// [`Placement::map_pad`] pages; released on drop.
#[derive(Debug)]
pub struct Spacer {
    #[cfg(unix)]
    mapping: Option<(std::ptr::NonNull<libc::c_void>, usize)>,
}

impl Spacer {
    /// Reserves `pages` pages (none for 0, or where reserving fails: the
    /// padding is then only missing).
    pub fn reserve(pages: usize) -> Spacer {
        #[cfg(unix)]
        {
            // SAFETY: sysconf has no preconditions.
            let page =
                usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
            let len = pages * page;
            if len == 0 {
                return Spacer { mapping: None };
            }
            // SAFETY: an anonymous private inaccessible mapping, owned by
            // the value returned (unmapped on drop).
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            let mapping = match base == libc::MAP_FAILED {
                true => None,
                false => std::ptr::NonNull::new(base).map(|b| (b, len)),
            };
            Spacer { mapping }
        }
        #[cfg(not(unix))]
        {
            let _ = pages;
            Spacer {}
        }
    }
}

impl Drop for Spacer {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some((base, len)) = self.mapping.take() {
            // SAFETY: the mapping made in `reserve`, not used otherwise.
            unsafe { libc::munmap(base.as_ptr(), len) };
        }
    }
}

/// Whether the kernel randomises the layout of address spaces (Linux:
/// `/proc/sys/kernel/randomize_va_space` is 1 or 2; 2 randomises the heap's
/// start too); `None` when it cannot be read (another system).
pub fn aslr() -> Option<bool> {
    let text = std::fs::read_to_string("/proc/sys/kernel/randomize_va_space").ok()?;
    text.trim().parse::<u32>().ok().map(|v| v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::Grid;
    use std::sync::{Arc, Mutex};

    /// What a relayout function saw, pass after pass.
    type Seen = Arc<Mutex<Vec<(PathBuf, Placement)>>>;

    /// An entry (the built-in dlx) whose relayout copies `file` and notes
    /// the copy and the placement.
    fn noting(name: &str, file: &Path, seen: &Seen) -> SolverEntry<Grid> {
        let (file, seen) = (file.to_path_buf(), Arc::clone(seen));
        let make = || (crate::sudoku::solvers::dlx::INFO.make)();
        SolverEntry::new(name, "noted", make).with_relayout(Randomised::InProcess, move |fresh| {
            let copy = fresh.copy(&file)?;
            seen.lock().unwrap().push((copy, *fresh.placement()));
            Ok(SolverEntry::new("fresh", "made afresh", make))
        })
    }

    #[test]
    fn each_pass_gets_its_own_copies_and_placements_and_they_are_removed() {
        let source = tempfile::tempdir().unwrap();
        let file = source.path().join("libsolver.so");
        std::fs::write(&file, b"not really a library").unwrap();
        let seen: Seen = Arc::default();
        let builtin = SolverEntry::<Grid>::from(&crate::sudoku::solvers::dlx::INFO);
        let entries = vec![
            noting("a", &file, &seen),
            noting("b", &file, &seen),
            builtin,
        ];
        let mut layout = Layout::new(11);
        let first = layout.pass(0, &entries).unwrap();
        assert_eq!(first.len(), 3);
        // Made afresh, or (the built-in) cloned.
        assert_eq!(first[0].name(), "fresh");
        assert_eq!(first[2].name(), "dlx");
        let root = layout.dir().unwrap().to_path_buf();
        let pass0: Vec<_> = seen.lock().unwrap().clone();
        assert_eq!(pass0.len(), 2);
        // A and B: the same file, two copies, each a file of its own.
        assert_ne!(pass0[0].0, pass0[1].0);
        for (copy, _) in &pass0 {
            assert!(copy.starts_with(&root), "{}", copy.display());
            assert_eq!(copy.file_name().unwrap(), "libsolver.so");
            assert_eq!(std::fs::read(copy).unwrap(), b"not really a library");
        }
        layout.pass(1, &entries).unwrap();
        let pass1: Vec<_> = seen.lock().unwrap()[2..].to_vec();
        assert_ne!(pass0[0].0, pass1[0].0);
        assert_ne!(pass0[0].1, pass1[0].1);
        assert_ne!(pass1[0].1, pass1[1].1);
        // The last pass's copies are gone, this pass's are there.
        assert!(!pass0[0].0.exists() && !pass0[1].0.exists());
        assert!(pass1[0].0.exists() && pass1[1].0.exists());
        // Each placement is what the seed, the pass and the index draw.
        assert_eq!(pass1[1].1, Placement::draw(11, 1, 1));
        drop(layout);
        assert!(!root.exists());
        // The original is untouched.
        assert!(file.exists());
    }

    #[test]
    fn the_same_seed_makes_the_same_choices() {
        let draws = |seed| -> Vec<Placement> {
            (0..20)
                .flat_map(|pass| (0..2).map(move |i| Placement::draw(seed, pass, i)))
                .collect()
        };
        assert_eq!(draws(5), draws(5));
        assert_ne!(draws(5), draws(6));
        let all = draws(5);
        // Different from pass to pass, and within bounds.
        let distinct: std::collections::HashSet<_> = all
            .iter()
            .map(|p| (p.input_offset, p.solution_offset))
            .collect();
        assert!(distinct.len() > 30, "{distinct:?}");
        for p in &all {
            assert!(p.input_offset <= MAX_INPUT_OFFSET && p.input_offset % STEP == 0);
            assert!(p.solution_offset <= MAX_SOLUTION_OFFSET && p.solution_offset % STEP == 0);
            assert!(p.heap_pad <= MAX_HEAP_PAD && p.heap_pad % STEP == 0);
            assert!(p.env_pad <= MAX_ENV_PAD && p.map_pad <= MAX_MAP_PAD);
            assert_eq!(
                p.to_string().parse::<Placement>().unwrap().to_string(),
                p.to_string()
            );
            assert_eq!(p.env().1.len(), p.env_pad);
        }
    }

    type SolverSetOf = crate::solvers::SolverSet<Grid>;

    #[test]
    fn built_in_solvers_only_need_no_directory() {
        let entries = SolverSetOf::builtin().entries().to_vec();
        let mut layout = Layout::new(1);
        let fresh = layout.pass(0, &entries).unwrap();
        assert_eq!(fresh.len(), entries.len());
        assert!(layout.dir().is_none());
        let summary = layout.summary(&entries);
        assert_eq!(summary.fixed().len(), entries.len());
        assert_eq!(summary.seed, 1);
    }

    #[test]
    fn a_failed_copy_says_which_file() {
        let mut layout = Layout::new(1);
        let seen: Seen = Arc::default();
        let missing = Path::new("/nonexistent/libnothing.so");
        let err = layout.pass(0, &[noting("a", missing, &seen)]).unwrap_err();
        assert!(
            matches!(&err, LayoutError::Copy { from, .. } if from == missing),
            "{err}"
        );
    }

    #[test]
    fn a_spacer_reserves_address_space_and_gives_it_back() {
        let spacer = Spacer::reserve(3);
        #[cfg(unix)]
        assert!(spacer.mapping.is_some());
        drop(spacer);
        #[cfg(unix)]
        assert!(Spacer::reserve(0).mapping.is_none());
    }
}
