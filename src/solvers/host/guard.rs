//! The host's protections around the C call: a solution buffer that ends
//! at a guard page, with canary bytes before it ([`GuardedBuffer`]); a
//! crash handler that tells an overflow into the guard page, or a crash
//! with the address space exhausted, from any other crash
//! ([`install_crash_handler`]); the address-space limit
//! ([`limit_address_space`]).
//!
//! The buffer's layout, at the end of a page:
//!
//! ```text
//! | ... input (82 bytes) ... | 81 solution bytes | SLACK allowed bytes | CANARY + extra bytes | guard page (PROT_NONE) |
//! ```
//!
//! A write into the slack is allowed (JSolve writes a NUL after the 81
//! characters, bb_sudoku a line feed and a NUL); a write into the canary
//! bytes is found after the call returns; a write that reaches the guard
//! page faults at once, and the crash handler reports it.
//!
//! The input (the puzzle's 81 characters and a NUL) lies in the same page,
//! at the start, or [`Placement::input_offset`] bytes into it; the
//! solution starts [`Placement::solution_offset`] bytes earlier than it
//! would, those bytes more canary ([`GuardedBuffer::placed`]), so a pass
//! of a run with a randomised layout moves both while the solution still
//! ends at its guard page.

use std::io;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::solvers::layout::Placement;

/// Bytes after the solution's 81 that a solver may write without it being
/// an overflow.
pub const SLACK: usize = 128;

/// Canary bytes between the slack and the guard page, checked after every
/// call.
pub const CANARY: usize = 64;

/// The value of every canary byte: not a digit, not a NUL, not a line feed.
const CANARY_BYTE: u8 = 0xA5;

/// The solution's 81 bytes, the slack and the canary.
const SPAN: usize = 81 + SLACK + CANARY;

/// The exit status of a host whose crash handler reported the crash on
/// standard output (an `error` line) before ending the process.
pub const EXIT_REPORTED: i32 = 70;

/// A solution buffer followed by a guard page: two anonymous pages, the
/// second inaccessible; the buffer (and its canary) ends where the second
/// begins. The input buffer lies in the first page too.
#[derive(Debug)]
pub struct GuardedBuffer {
    /// The first page.
    base: NonNull<u8>,
    /// The page size.
    page: usize,
    /// The input's offset in the first page.
    input: usize,
    /// Canary bytes beyond [`CANARY`].
    extra: usize,
}

impl GuardedBuffer {
    /// Maps the two pages and makes the second inaccessible; the input at
    /// the page's start, the solution [`SPAN`] bytes before its end.
    pub fn new() -> io::Result<GuardedBuffer> {
        GuardedBuffer::placed(&Placement::default())
    }

    /// [`GuardedBuffer::new`], the input [`Placement::input_offset`] bytes
    /// into the page and the solution [`Placement::solution_offset`] bytes
    /// earlier, those bytes more canary (both bounded so that the two never
    /// meet).
    pub fn placed(placement: &Placement) -> io::Result<GuardedBuffer> {
        // SAFETY: sysconf has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
            .ok()
            .filter(|&p| p >= SPAN)
            .unwrap_or(4096);
        // SAFETY: an anonymous private mapping of two pages, owned by the
        // value returned (unmapped on drop).
        let base = unsafe { map_anonymous(2 * page) };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        // The input before the solution, whatever the offsets asked for.
        let room = page - SPAN - 82;
        let extra = placement.solution_offset.min(room / 2);
        let input = placement.input_offset.min(room - extra);
        let buffer = GuardedBuffer {
            base: NonNull::new(base.cast()).expect("mmap returned a mapping"),
            page,
            input,
            extra,
        };
        // SAFETY: the second page of the mapping just made.
        if unsafe { libc::mprotect(base.cast::<u8>().add(page).cast(), page, libc::PROT_NONE) } != 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(buffer)
    }

    /// The guard page's first address and the address after it.
    pub fn guard(&self) -> (usize, usize) {
        let start = self.base.as_ptr() as usize + self.page;
        (start, start + self.page)
    }

    /// The solution's first byte: what the C function is given.
    pub fn solution_ptr(&mut self) -> *mut u8 {
        // SAFETY: SPAN + extra bytes before the end of the first page,
        // inside it.
        unsafe { self.base.as_ptr().add(self.page - SPAN - self.extra) }
    }

    /// The input's first byte: what the C function is given.
    pub fn input_ptr(&mut self) -> *mut u8 {
        // SAFETY: `input` + 82 bytes lie before the solution, in the page.
        unsafe { self.base.as_ptr().add(self.input) }
    }

    /// The input: the puzzle's 81 characters and a NUL.
    pub fn input(&mut self) -> &mut [u8; 82] {
        // SAFETY: as in `input_ptr`, readable and writable; `&mut self`
        // makes it exclusive.
        unsafe { &mut *self.input_ptr().cast::<[u8; 82]>() }
    }

    /// The solution, the slack and the canary (with its extra bytes).
    fn span(&self) -> &[u8] {
        let len = SPAN + self.extra;
        // SAFETY: inside the first page, readable and writable.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(self.page - len), len) }
    }

    /// As [`GuardedBuffer::span`], writable.
    fn span_mut(&mut self) -> &mut [u8] {
        let len = SPAN + self.extra;
        // SAFETY: as in `span`; `&mut self` makes it exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr().add(self.page - len), len) }
    }

    /// Before a call: zeros in the solution and the slack (a solver that
    /// writes nothing leaves no stale answer), the canary in place.
    pub fn prepare(&mut self) {
        let span = self.span_mut();
        span[..81 + SLACK].fill(0);
        span[81 + SLACK..].fill(CANARY_BYTE);
    }

    /// The solution's 81 bytes as the solver left them.
    pub fn answer(&self) -> &[u8; 81] {
        self.span()[..81].try_into().expect("81 bytes")
    }

    /// After a call: how far past the solution's 81 bytes the solver wrote,
    /// when it wrote into the canary (counting from the solution's end, so
    /// the slack's last byte is [`SLACK`]); `None` when the canary is
    /// intact.
    pub fn overflow(&self) -> Option<usize> {
        let canary = &self.span()[81 + SLACK..];
        canary
            .iter()
            .rposition(|&b| b != CANARY_BYTE)
            .map(|i| SLACK + i + 1)
    }
}

impl Drop for GuardedBuffer {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`, not used after this.
        unsafe { libc::munmap(self.base.as_ptr().cast(), 2 * self.page) };
    }
}

/// The guard page of the buffer the crash handler watches: start, end
/// (0, 0: none).
static GUARD_START: AtomicUsize = AtomicUsize::new(0);
static GUARD_END: AtomicUsize = AtomicUsize::new(0);
/// The solution's first byte, for the offset in the overflow message.
static SOLUTION_START: AtomicUsize = AtomicUsize::new(0);
/// True while the C function runs: only then is a crash the solver's.
static IN_CALL: AtomicBool = AtomicBool::new(false);

/// The signals the handler takes: faults (an overflow into the guard page,
/// or any other bad access) and abort (a C++ `std::bad_alloc` ends there).
const HANDLED: [libc::c_int; 3] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGABRT];

/// The size of the handler's own stack (a stack overflow in the solver
/// leaves none to run on).
const ALT_STACK: usize = 64 * 1024;

/// Installs the crash handler for `buffer`, on a stack of its own. A fault
/// in the buffer's guard page writes `error overflow ...` to standard
/// output and ends the process ([`EXIT_REPORTED`]). Any other fault, or an
/// abort, during a call ([`Call`]) with the address space exhausted (the
/// call's allocation failed, `errno` `ENOMEM`, or a 64 KiB mapping fails
/// with `ENOMEM` in the handler) writes `error memory ...` and ends the
/// process the same way. Any other crash is left to kill the process with
/// its signal, as it would without the handler.
///
/// Call once, with the buffer the host keeps for its life: the handler
/// watches that buffer's guard page.
pub fn install_crash_handler(buffer: &mut GuardedBuffer) -> io::Result<()> {
    let (start, end) = buffer.guard();
    SOLUTION_START.store(buffer.solution_ptr() as usize, Ordering::Relaxed);
    GUARD_START.store(start, Ordering::Relaxed);
    GUARD_END.store(end, Ordering::Relaxed);
    // SAFETY: an anonymous mapping for the alternate stack, kept for the
    // process's life (never unmapped); sigaltstack and sigaction with
    // initialised structures.
    unsafe {
        let stack = map_anonymous(ALT_STACK);
        if stack == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let alt = libc::stack_t {
            ss_sp: stack,
            ss_flags: 0,
            ss_size: ALT_STACK,
        };
        if libc::sigaltstack(&alt, ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
        for signal in HANDLED {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_crash as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Marks the C call: from [`Call::start`] to its drop, a crash is the
/// solver's, and `errno` starts at 0 so that an allocation failure in the
/// call is seen.
#[derive(Debug)]
pub struct Call(());

impl Call {
    /// The call starts.
    #[inline(always)]
    pub fn start() -> Call {
        set_errno(0);
        IN_CALL.store(true, Ordering::Relaxed);
        std::sync::atomic::compiler_fence(Ordering::SeqCst);
        Call(())
    }

    /// The call has returned: true when an allocation failed in it
    /// (`errno` is `ENOMEM`).
    #[inline(always)]
    pub fn end(self) -> bool {
        std::sync::atomic::compiler_fence(Ordering::SeqCst);
        IN_CALL.store(false, Ordering::Relaxed);
        errno() == libc::ENOMEM
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        IN_CALL.store(false, Ordering::Relaxed);
    }
}

/// This thread's `errno`.
fn errno_location() -> *mut libc::c_int {
    // SAFETY: the C library's accessor of the calling thread's errno.
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "emscripten"))]
    unsafe {
        libc::__errno_location()
    }
    // SAFETY: as above.
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    unsafe {
        libc::__error()
    }
    // SAFETY: as above.
    #[cfg(any(target_os = "openbsd", target_os = "netbsd"))]
    unsafe {
        libc::__errno()
    }
}

fn errno() -> libc::c_int {
    // SAFETY: the calling thread's errno, always valid.
    unsafe { *errno_location() }
}

fn set_errno(value: libc::c_int) {
    // SAFETY: as in `errno`.
    unsafe { *errno_location() = value }
}

/// Sets the address-space limit (`RLIMIT_AS`) of this process to `bytes`:
/// a mapping or an allocation past it fails.
pub fn limit_address_space(bytes: u64) -> io::Result<()> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit with an initialised structure.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_AS, &mut limit) != 0 {
            return Err(io::Error::last_os_error());
        }
        let wanted = bytes as libc::rlim_t;
        if limit.rlim_max != libc::RLIM_INFINITY && wanted > limit.rlim_max {
            return Err(io::Error::other(format!(
                "above this process's hard limit of {} bytes",
                limit.rlim_max
            )));
        }
        limit.rlim_cur = wanted;
        if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Writes `parts` to standard output with write(2) (async-signal-safe).
fn write_out(parts: &[&[u8]]) {
    for part in parts {
        let mut rest = *part;
        while !rest.is_empty() {
            // SAFETY: writing initialised bytes to file descriptor 1.
            let n = unsafe { libc::write(1, rest.as_ptr().cast(), rest.len()) };
            if n <= 0 {
                return;
            }
            rest = &rest[n as usize..];
        }
    }
}

/// `n` in decimal, into `buf`; returns the digits (async-signal-safe).
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// The handler: only async-signal-safe calls (write, mmap, munmap,
/// sigaction, raise, _exit).
extern "C" fn on_crash(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    // First thing: the errno the crash left (the calls below change it).
    let saved_errno = errno();
    let in_call = IN_CALL.load(Ordering::Relaxed);
    let mut digits = [0u8; 20];
    if signal != libc::SIGABRT && !info.is_null() {
        // SAFETY: the kernel's siginfo for a fault; si_code > 0 says the
        // kernel raised it (not kill), so si_addr is the faulting address.
        let (code, address) = unsafe { ((*info).si_code, (*info).si_addr() as usize) };
        let (start, end) = (
            GUARD_START.load(Ordering::Relaxed),
            GUARD_END.load(Ordering::Relaxed),
        );
        if code > 0 && (start..end).contains(&address) {
            let offset = address.wrapping_sub(SOLUTION_START.load(Ordering::Relaxed)) as u64;
            write_out(&[
                b"error overflow the solver wrote past its solution buffer: a fault at byte ",
                decimal(offset, &mut digits),
                b" from the solution's start, in the guard page after its 81 characters and 128 bytes of slack\n",
            ]);
            // SAFETY: ends the process at once.
            unsafe { libc::_exit(EXIT_REPORTED) };
        }
    }
    if in_call && (saved_errno == libc::ENOMEM || address_space_exhausted()) {
        let name: &[u8] = match signal {
            libc::SIGSEGV => b"SIGSEGV",
            libc::SIGBUS => b"SIGBUS",
            _ => b"SIGABRT",
        };
        write_out(&[
            b"error memory the solver crashed (",
            name,
            b") after an allocation failed: out of memory under the host's limit\n",
        ]);
        // SAFETY: ends the process at once.
        unsafe { libc::_exit(EXIT_REPORTED) };
    }
    // Any other crash: die of the signal, as without the handler.
    // SAFETY: restoring the default action and raising the signal again;
    // it is delivered when the handler returns.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, ptr::null_mut());
        libc::raise(signal);
    }
}

/// A private anonymous read-write mapping of `len` bytes, or
/// `MAP_FAILED` (its `errno` set).
///
/// # Safety
/// The caller owns the mapping: it unmaps it, or keeps it for the
/// process's life.
unsafe fn map_anonymous(len: usize) -> *mut libc::c_void {
    libc::mmap(
        ptr::null_mut(),
        len,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
        -1,
        0,
    )
}

/// True when a 64 KiB mapping fails with `ENOMEM`: the address space is
/// used up (or the limit is nearly reached).
fn address_space_exhausted() -> bool {
    const PROBE: usize = 64 * 1024;
    // SAFETY: an anonymous mapping, unmapped at once.
    unsafe {
        let probe = map_anonymous(PROBE);
        if probe == libc::MAP_FAILED {
            return errno() == libc::ENOMEM;
        }
        libc::munmap(probe, PROBE);
        false
    }
}
