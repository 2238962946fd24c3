//! The process's exit note: one sentence saying what is on disk should the
//! process end now, without its last writes (a `SIGBUS`, a second Ctrl-C).
//! A bench session keeps it true ([`set`]); whatever ends the process
//! prints it ([`get`]; a signal handler reads it through [`bytes`], which
//! allocates nothing and takes no lock).

/// The note of what is on disk should the process end now (a `SIGBUS`, a
/// second Ctrl-C): its bytes, leaked so that a signal handler can read
/// them at any moment (a note is small and set a few times per run).
static EXIT_NOTE: std::sync::atomic::AtomicPtr<Vec<u8>> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// Sets the sentence that tells what is on disk should the process end
/// now, without its last writes (the `SIGBUS` handler prints it; see
/// [`get`]); an empty `note` clears it. A bench session keeps it
/// true as each corpus ends.
pub fn set(note: &str) {
    let new = match note.is_empty() {
        true => std::ptr::null_mut(),
        false => Box::into_raw(Box::new(note.as_bytes().to_vec())),
    };
    // The old note is leaked, not freed: a handler may be reading it.
    EXIT_NOTE.swap(new, std::sync::atomic::Ordering::SeqCst);
}

/// The note [`set`] set last (empty when none).
pub fn get() -> &'static str {
    // SAFETY: a non-null pointer is a leaked `Box<Vec<u8>>` of UTF-8 bytes
    // (from `set`), never freed.
    let bytes = unsafe { bytes() };
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// The bytes of the current exit note; readable in a signal handler.
///
/// # Safety
/// Only pointers from [`set`] are ever stored, and never freed.
pub(crate) unsafe fn bytes() -> &'static [u8] {
    let p = EXIT_NOTE.load(std::sync::atomic::Ordering::SeqCst);
    match p.is_null() {
        true => &[],
        // SAFETY: see the function's contract.
        false => unsafe { (*p).as_slice() },
    }
}
