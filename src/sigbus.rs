//! The `SIGBUS` handler: a memory-mapped corpus file truncated while it is
//! read (see [`crate::corpus`]) ends the process with a message naming the
//! cause and what is on disk ([`crate::exit_note`]), not a bare "Bus
//! error". (Ctrl-C and SIGTERM, which stop a run and keep its results, are
//! the command line's, through the `ctrlc` crate, whose handler runs on a
//! thread of its own once the signal has returned: a `SIGBUS` handler must
//! not return, or the faulting read runs again.)

/// Installs a `SIGBUS` handler that explains the likely cause (a mapped
/// corpus file truncated during the run), adds the note of what is on disk
/// ([`crate::exit_note`]) and exits with status 2. Unix only; elsewhere a
/// no-op. Idempotent.
pub fn install() {
    #[cfg(unix)]
    install_unix();
}

#[cfg(unix)]
extern "C" fn on_sigbus(_: libc::c_int) {
    const MSG: &[u8] = b"\ndlxbench: SIGBUS: a memory-mapped corpus file was truncated or \
removed while the benchmark read it; the run stops here. Copy the corpus or pipe it through \
standard input.\n";
    // SAFETY: write(2) and _exit(2) are async-signal-safe; the note is
    // a leaked buffer that is never freed (an atomic load to find it).
    unsafe {
        libc::write(2, MSG.as_ptr().cast(), MSG.len());
        let note = crate::exit_note::bytes();
        if !note.is_empty() {
            const HEAD: &[u8] = b"dlxbench: ";
            libc::write(2, HEAD.as_ptr().cast(), HEAD.len());
            libc::write(2, note.as_ptr().cast(), note.len());
            libc::write(2, b"\n".as_ptr().cast(), 1);
        }
        libc::_exit(2);
    }
}

#[cfg(unix)]
fn install_unix() {
    // SAFETY: installs a handler that only calls async-signal-safe
    // functions; the sigaction struct is fully initialised.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}
