//! Solvers loaded at run time from shared libraries, through the C
//! interface of tdoku's benchmark program, which about fifteen published
//! solvers implement:
//!
//! ```c
//! size_t solve(const char *input,      /* 81 chars, '1'-'9' clues, '.' blanks */
//!              size_t limit,           /* stop after this many solutions */
//!              uint32_t flags,         /* solver-specific, 0 by default */
//!              char *solution,         /* receives the first solution, 81 chars */
//!              size_t *num_guesses);   /* out: the solver's count of guesses */
//! /* returns the number of solutions found, at most limit */
//! ```
//!
//! A loaded solver is a [`SolverEntry`] like any other. The interface is
//! 9x9 only: for other puzzles ([`Puzzle::write_c81`] says which) the solver
//! does not [accept](Solver::accepts) them. What it returns is trusted no
//! more than a built-in solver: callers validate the solution and
//! cross-check the count. Loaded here ([`load`]), in the harness's own
//! process, the function is called from every worker thread, so it must be
//! reentrant (run a non-reentrant one with one thread), and it cannot be
//! interrupted: node and time budgets do not apply to it. The command line
//! loads libraries isolated instead, each worker's in a host process of its
//! own ([`super::host`]), where deadlines, crashes and overflows cost one
//! puzzle; [`open`] is the loading both share.
//!
//! Loading runs the library's initialisers: load only libraries you trust.

use std::ffi::{c_char, OsStr};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use super::layout::{LayoutError, Placement, Randomised, Spacer};
use super::{Budget, Outcome, Solver, SolverEntry};
use crate::clock::Instant;
use crate::puzzle::Puzzle;

/// The C function: `size_t solve(const char *, size_t, uint32_t, char *,
/// size_t *)`.
pub type SolveFn = unsafe extern "C" fn(
    input: *const c_char,
    limit: usize,
    flags: u32,
    solution: *mut c_char,
    num_guesses: *mut usize,
) -> usize;

/// Which solver to load: `PATH:SYMBOL[@FLAGS][=NAME]`, as `--solver-lib`
/// takes it.
///
/// ```
/// use dlxbench::solvers::foreign::LibrarySpec;
///
/// let spec: LibrarySpec = "lib/libtdoku.so:TdokuSolverBasic@1=tdoku-mrv".parse().unwrap();
/// assert_eq!(spec.path.to_str(), Some("lib/libtdoku.so"));
/// assert_eq!((spec.symbol.as_str(), spec.flags, spec.name.as_str()), ("TdokuSolverBasic", 1, "tdoku-mrv"));
/// let plain: LibrarySpec = "./libmine.so:solve".parse().unwrap();
/// assert_eq!((plain.name.as_str(), plain.flags), ("solve", 0));
/// assert!("no-symbol.so".parse::<LibrarySpec>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibrarySpec {
    /// The shared library.
    pub path: PathBuf,
    /// The function's symbol.
    pub symbol: String,
    /// The `flags` argument passed on every call.
    pub flags: u32,
    /// The solver's name in the run (default: the symbol).
    pub name: String,
    /// The function returns counts but no (usable) solution: its counts
    /// are cross-checked, its solution buffer is never read. Not part of
    /// the text form (`--count-only` sets it).
    pub count_only: bool,
}

impl FromStr for LibrarySpec {
    type Err = ForeignError;

    fn from_str(text: &str) -> Result<Self, ForeignError> {
        let malformed = || ForeignError::Malformed(text.to_string());
        // The symbol follows the last colon, so a path may hold colons.
        let (path, rest) = text.rsplit_once(':').ok_or_else(malformed)?;
        let (rest, name) = match rest.split_once('=') {
            Some((rest, name)) => (rest, Some(name)),
            None => (rest, None),
        };
        let (symbol, flags) = match rest.split_once('@') {
            Some((symbol, flags)) => (symbol, flags.parse::<u32>().map_err(|_| malformed())?),
            None => (rest, 0),
        };
        let identifier = |s: &str| {
            !s.is_empty()
                && !s.starts_with(|c: char| c.is_ascii_digit())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if path.is_empty() || !identifier(symbol) || name == Some("") {
            return Err(malformed());
        }
        Ok(LibrarySpec {
            path: PathBuf::from(path),
            symbol: symbol.to_string(),
            flags,
            name: name.unwrap_or(symbol).to_string(),
            count_only: false,
        })
    }
}

impl fmt::Display for LibrarySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.symbol)?;
        if self.flags != 0 {
            write!(f, "@{}", self.flags)?;
        }
        if self.name != self.symbol {
            write!(f, "={}", self.name)?;
        }
        Ok(())
    }
}

/// Why a solver could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ForeignError {
    /// The spec is not `PATH:SYMBOL[@FLAGS][=NAME]`.
    #[error("`{0}`: expected PATH:SYMBOL[@FLAGS][=NAME] (a shared library, the solver function's symbol, optional flags passed to it, an optional name)")]
    Malformed(String),
    /// No file at the path.
    #[error("{0}: no such file")]
    Missing(PathBuf),
    /// The file is not a shared library this process can load (not one at
    /// all, another architecture, missing dependencies).
    #[error("{path}: not a shared library this program can load ({reason})")]
    NotLoadable {
        /// The library.
        path: PathBuf,
        /// The loader's message.
        reason: String,
    },
    /// The library has no such symbol.
    #[error("{path}: no symbol `{symbol}` in it")]
    MissingSymbol {
        /// The library.
        path: PathBuf,
        /// The symbol asked for.
        symbol: String,
    },
    /// The path is not a regular file (a FIFO, on which the loader would
    /// wait forever; a directory; a device).
    #[error("{path}: {what}, not a regular file: --solver-lib takes a shared library file")]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is: `a FIFO`, `a directory`, ...
        what: &'static str,
    },
    /// The file is a shared library for another architecture (machine,
    /// word size or byte order) than this program's.
    #[error(
        "{path}: a shared library for {library}, another architecture: this program runs on \
         {this} and cannot load it (build the library for {this})"
    )]
    OtherArchitecture {
        /// The library.
        path: PathBuf,
        /// Its architecture, from its ELF header (`AArch64 (64-bit,
        /// little-endian)`).
        library: String,
        /// This program's.
        this: String,
    },
    /// The symbol is not a function: calling it would jump into data.
    #[error("{path}: `{symbol}` is {what}, not a function: give the symbol of the solve function")]
    NotAFunction {
        /// The library.
        path: PathBuf,
        /// The symbol.
        symbol: String,
        /// What it is instead: `data (a variable)`, ...
        what: &'static str,
    },
}

/// What a path that is not a regular file is, for [`ForeignError::NotRegular`].
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Checks the library of `spec` without loading it (nothing of it runs):
/// the path is a regular file (a FIFO would block the loader forever, a
/// directory or a device is no library); on Linux, the file is an ELF
/// shared library for this program's architecture (machine, word size, byte
/// order: the loader reports another machine's library as "No such file or
/// directory"), and the symbol, if the library itself defines it, is a
/// function and not data. [`load`] calls it first; a caller that hands the
/// library to another process to load calls it before, for the same clear
/// errors.
pub fn check_library(spec: &LibrarySpec) -> Result<(), ForeignError> {
    let meta = match std::fs::metadata(&spec.path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ForeignError::Missing(spec.path.clone()))
        }
        Err(e) => {
            return Err(ForeignError::NotLoadable {
                path: spec.path.clone(),
                reason: e.to_string(),
            })
        }
    };
    if !meta.is_file() {
        return Err(ForeignError::NotRegular {
            path: spec.path.clone(),
            what: file_kind(&meta),
        });
    }
    #[cfg(target_os = "linux")]
    check_elf(spec)?;
    Ok(())
}

/// The ELF checks of [`check_library`].
#[cfg(target_os = "linux")]
fn check_elf(spec: &LibrarySpec) -> Result<(), ForeignError> {
    use super::elf;
    let not_loadable = |reason: String| ForeignError::NotLoadable {
        path: spec.path.clone(),
        reason,
    };
    let file = std::fs::File::open(&spec.path).map_err(|e| not_loadable(e.to_string()))?;
    // Mapped rather than read: the checks touch the header, the section
    // headers and the dynamic symbols, a few pages of a file that can be
    // megabytes (reading all of a 4 MB library took half of an isolated
    // host's start-up, each host reading it again).
    // SAFETY: the file is only read, as the loader maps it anyway; one
    // truncated meanwhile would fault here as it would in the loader.
    let mapped = unsafe { memmap2::Mmap::map(&file) };
    let read;
    let bytes: &[u8] = match &mapped {
        Ok(map) => map,
        Err(_) => {
            // Not mappable (empty, or a file system that cannot): read.
            read = std::fs::read(&spec.path).map_err(|e| not_loadable(e.to_string()))?;
            &read
        }
    };
    let header = elf::header(bytes).ok_or_else(|| not_loadable("not an ELF file".into()))?;
    if let Some(host) = elf::host() {
        if (header.machine, header.bits64, header.little_endian)
            != (host.machine, host.bits64, host.little_endian)
        {
            return Err(ForeignError::OtherArchitecture {
                path: spec.path.clone(),
                library: elf::describe(&header),
                this: elf::describe(&host),
            });
        }
    }
    match header.kind {
        elf::ET_DYN => {}
        elf::ET_REL => {
            return Err(not_loadable(
                "an object file (.o): link it with -shared".into(),
            ))
        }
        elf::ET_EXEC => return Err(not_loadable("an executable".into())),
        other => return Err(not_loadable(format!("ELF file of type {other}"))),
    }
    let what = match elf::defined_symbol(bytes, &spec.symbol) {
        Some(elf::SymbolKind::Data) => "data (a variable)",
        Some(elf::SymbolKind::ThreadLocal) => "thread-local data",
        _ => return Ok(()),
    };
    Err(ForeignError::NotAFunction {
        path: spec.path.clone(),
        symbol: spec.symbol.clone(),
        what,
    })
}

/// A library opened and its solver function found: what [`open`] gives.
pub struct Opened {
    /// Keeps the library mapped while the function may be called.
    pub library: Arc<libloading::Library>,
    /// The solver function.
    pub function: SolveFn,
}

impl fmt::Debug for Opened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Opened").finish_non_exhaustive()
    }
}

/// Opens the library of `spec` and looks its symbol up: the one place a
/// library is loaded, in this process ([`load`]) or in an isolated host
/// ([`super::host`]). Loading runs the library's initialisers.
///
/// The library is [checked](check_library) before it is loaded, and the
/// symbol found must lie in executable memory (a variable is refused with
/// [`ForeignError::NotAFunction`] rather than called).
pub fn open(spec: &LibrarySpec) -> Result<Opened, ForeignError> {
    check_library(spec)?;
    // A bare file name would be searched for on the library path: make it
    // a path, so the file named is the file loaded.
    let path = match spec.path.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new(".").join(&spec.path),
        _ => spec.path.clone(),
    };
    // SAFETY: loading runs the library's initialisers; the user asked for
    // this library (the module docs say to load only trusted ones).
    let library = unsafe { libloading::Library::new(OsStr::new(&path)) }.map_err(|e| {
        // The loader's own words ("wrong ELF class", "invalid ELF header")
        // are in the error's source.
        let reason = match std::error::Error::source(&e) {
            Some(cause) => cause.to_string(),
            None => e.to_string(),
        };
        ForeignError::NotLoadable {
            path: spec.path.clone(),
            reason,
        }
    })?;
    // SAFETY: the symbol is taken to be a function of the interface's
    // signature, which is what `--solver-lib` promises.
    let function: SolveFn = unsafe { library.get::<SolveFn>(spec.symbol.as_bytes()) }
        .map(|symbol| *symbol)
        .map_err(|_| ForeignError::MissingSymbol {
            path: spec.path.clone(),
            symbol: spec.symbol.clone(),
        })?;
    // A symbol the ELF check could not type (one of a dependency's, or an
    // untyped one): where it points decides.
    if super::elf::executable_address(function as usize) == Some(false) {
        return Err(ForeignError::NotAFunction {
            path: spec.path.clone(),
            symbol: spec.symbol.clone(),
            what: "not in executable memory (data)",
        });
    }
    Ok(Opened {
        library: Arc::new(library),
        function,
    })
}

/// Opens the library of `spec` and looks its symbol up ([`open`]), in
/// this process: an entry for a solver of puzzles `P` (it accepts only
/// those with a [`Puzzle::write_c81`] form). Its buffers lie at the start
/// and the end of a region of their own; each pass of a run with a
/// randomised layout ([`super::layout`]) opens a fresh copy of the library
/// with the buffers at random offsets in it.
pub fn load<P: Puzzle>(spec: &LibrarySpec) -> Result<SolverEntry<P>, ForeignError> {
    load_placed(spec, spec, Placement::default())
}

/// Opens the library at `path` (a copy of `spec`'s, or `spec`'s own), as
/// [`load`] does, with the buffers placed by `placement`; the entry is
/// described by `spec`.
fn load_placed<P: Puzzle>(
    spec: &LibrarySpec,
    path: &LibrarySpec,
    placement: Placement,
) -> Result<SolverEntry<P>, ForeignError> {
    let spacer = Spacer::reserve(placement.map_pad);
    let Opened { library, function } = open(path)?;
    drop(spacer);
    let (flags, count_only) = (spec.flags, spec.count_only);
    let description = match spec.count_only {
        false => format!("loaded from {spec}"),
        true => format!("loaded from {spec}, count-only (solutions not validated)"),
    };
    let original = spec.clone();
    Ok(SolverEntry::new(spec.name.clone(), description, move || {
        Box::new(ForeignSolver {
            _library: Arc::clone(&library),
            function,
            flags,
            count_only,
            buffers: Buffers::new(placement),
        })
    })
    .with_relayout(Randomised::InProcess, move |fresh| {
        let copy = LibrarySpec {
            path: fresh.copy(&original.path)?,
            ..original.clone()
        };
        load_placed(&original, &copy, *fresh.placement()).map_err(|e| LayoutError::Load(e.into()))
    }))
}

/// The bytes of the region that holds a loaded solver's buffers.
const REGION: usize = 4096;

/// A loaded solver's input and solution buffers, in a region of their
/// own: the input [`Placement::input_offset`] bytes from its start, the
/// solution (and its slack) ending [`Placement::solution_offset`] bytes
/// before its end.
struct Buffers {
    region: Box<[u8]>,
    input: usize,
    output: usize,
}

impl Buffers {
    fn new(placement: Placement) -> Self {
        let input = placement.input_offset.min(REGION / 2 - 82);
        let output =
            REGION - OUTPUT_BYTES - placement.solution_offset.min(REGION / 2 - OUTPUT_BYTES);
        Buffers {
            region: vec![0; REGION].into_boxed_slice(),
            input,
            output,
        }
    }

    /// The puzzle's 81 characters and a NUL.
    fn input(&mut self) -> &mut [u8; 82] {
        (&mut self.region[self.input..self.input + 82])
            .try_into()
            .expect("82 bytes")
    }

    /// The first solution's 81 characters, and slack.
    fn output(&mut self) -> &mut [u8; OUTPUT_BYTES] {
        (&mut self.region[self.output..self.output + OUTPUT_BYTES])
            .try_into()
            .expect("the output's bytes")
    }

    /// The input's first byte and the solution's, for the call (from one
    /// borrow of the region).
    fn pointers(&mut self) -> (*const u8, *mut u8) {
        let base = self.region.as_mut_ptr();
        // SAFETY: both offsets leave their buffers inside the region.
        unsafe { (base.add(self.input).cast_const(), base.add(self.output)) }
    }

    /// The solution's 81 characters.
    fn answer(&self) -> &[u8; 81] {
        self.region[self.output..self.output + 81]
            .try_into()
            .expect("81 bytes")
    }
}

/// The solution buffer's size: 81 characters, and slack for solvers that
/// write more (JSolve writes a NUL after the 81 characters; bb_sudoku,
/// through tdoku's benchmark wrapper, a line feed and a NUL).
const OUTPUT_BYTES: usize = 128;

/// A loaded C solver: the function, and the buffers it reads and writes.
struct ForeignSolver {
    /// Keeps the library mapped while the function may be called.
    _library: Arc<libloading::Library>,
    function: SolveFn,
    flags: u32,
    /// Its solutions are not read ([`LibrarySpec::count_only`]).
    count_only: bool,
    /// The input and the solution.
    buffers: Buffers,
}

impl ForeignSolver {
    /// Encodes `puzzle` into the input buffer; false when the interface
    /// cannot take it.
    fn encode<P: Puzzle>(&mut self, puzzle: &P) -> bool {
        let input = self.buffers.input();
        input[81] = 0;
        let c81: &mut [u8; 81] = (&mut input[..81]).try_into().expect("81 bytes");
        let accepted = puzzle.write_c81(c81);
        // No stale answer: a solver that writes nothing leaves zeros, which
        // validation rejects.
        self.buffers.output().fill(0);
        accepted
    }

    /// The call itself: the encoded input in, the answer in the output
    /// buffer; returns the count and the guesses.
    #[inline]
    fn call(&mut self, limit: u64) -> (u64, u64) {
        let mut guesses = 0usize;
        // SAFETY: the buffers are as large as the interface says (81 bytes
        // in, 81 out; NUL-terminated input for solvers that read it as a
        // string); the function is the one `load` found.
        let (input, output) = self.buffers.pointers();
        let found = unsafe {
            (self.function)(
                input.cast(),
                usize::try_from(limit).unwrap_or(usize::MAX),
                self.flags,
                output.cast(),
                &mut guesses,
            )
        };
        (found as u64, guesses as u64)
    }

    /// The outcome of a call that returned `found` and `guesses`, with the
    /// first solution decoded into `solution`. Nodes, updates and mems are
    /// not recorded: the interface does not report them.
    fn decode<P: Puzzle>(&self, puzzle: &P, found: u64, guesses: u64, solution: &mut P) -> Outcome {
        let output = self.buffers.answer();
        if found > 0 && !self.count_only && !solution.read_c81(puzzle, output) {
            // Not a grid of digits: hand back the puzzle itself, which
            // validation then rejects (unless it was already full).
            *solution = puzzle.clone();
        }
        Outcome {
            solutions: found,
            nodes: None,
            guesses,
            ..Outcome::default()
        }
    }
}

// Repeats the signatures of `Solver`'s methods, as every solver does (trait impl).
impl<P: Puzzle> Solver<P> for ForeignSolver {
    /// Encodes the puzzle, calls the function, decodes its answer. A puzzle
    /// the solver does not [accept](Solver::accepts) gets no call and no
    /// solution.
    fn solve(&mut self, puzzle: &P, limit: u64, budget: Budget, solution: &mut P) -> Outcome {
        self.solve_timed(puzzle, limit, budget, solution).0
    }

    /// Times the C call alone: the puzzle is encoded before the clock
    /// starts and the answer decoded after it stops.
    fn solve_timed(
        &mut self,
        puzzle: &P,
        limit: u64,
        _budget: Budget,
        solution: &mut P,
    ) -> (Outcome, Duration) {
        if limit == 0 || !self.encode(puzzle) {
            return (Outcome::default(), Duration::ZERO);
        }
        let started = Instant::now();
        let (found, guesses) = self.call(limit);
        let took = started.elapsed();
        (self.decode(puzzle, found, guesses, solution), took)
    }

    fn accepts(&self, puzzle: &P) -> bool {
        puzzle.write_c81(&mut [0; 81])
    }

    fn returns_solutions(&self) -> bool {
        !self.count_only
    }

    /// The C interface takes no budget: the harness counts a call that
    /// took longer than the time budget as over budget.
    fn applies_budget(&self) -> bool {
        false
    }
}
