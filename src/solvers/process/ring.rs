//! The answer ring: a byte stream in shared memory from an isolated host
//! to its worker, in place of the host's standard output for answers.
//!
//! Why: a host that writes each answer to the pipe pays a `write(2)` per
//! puzzle (with its wake-up bookkeeping, 6% of the CPU samples of a `-j2`
//! run of `dlx` on the 17-clue list, about a microsecond an answer), and
//! the worker a `poll(2)` and a `read(2)` per look. A write into shared
//! memory costs a copy and a store (docs/benchmarks.md, answers in shared
//! memory). It is as safe
//! against crashes as the pipe: an answer is published (the `written`
//! count stored) only once whole, and what was published stays readable in
//! the worker's mapping whatever happens to the host (a crash, a kill, an
//! `_exit` in the library), so the answers read tell the puzzle in flight
//! exactly, as they do from the pipe.
//!
//! Layout (a `memfd`, [`HEADER`] bytes then the ring's data): the count of
//! bytes ever written (`u64` at 0, stored by the host with release order
//! after the bytes), the count of bytes ever read (`u64` at 64, stored by
//! the worker after it copied them out, so that the host may reuse the
//! room). Byte `i` of the stream is at `HEADER + i % capacity`.
//!
//! The handshake: the worker creates the ring, lets the host inherit its
//! descriptor and names it in [`RING_ENV`]; a host that takes
//! it says [`RING_WORD`] in its header (written to the pipe, as are the
//! crash handler's last line and nothing else), and from then on every
//! answer goes into the ring. A host that does not say the word is read
//! from the pipe. The library in the host can write into the ring as into
//! any of the host's memory: a count that cannot be (more unread bytes
//! than the ring holds) is [`Corrupt`], read as the end of the host's
//! output; bytes written over are answers like any other, checked as any
//! other.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The environment variable that names the descriptor the host finds the
/// ring on.
pub const RING_ENV: &str = "DLXBENCH_ANSWER_RING";

/// The header word of a host that writes its answers into the ring.
pub const RING_WORD: &str = "+ring";

/// Bytes before the ring's data: the two counts, a cache line each.
pub const HEADER: usize = 128;

/// The ring's data, in bytes: far more than the answers a worker ever has
/// outstanding (two batches of 64 requests, each answer at most a few
/// hundred bytes for the C interface's 9x9 grids).
pub const CAPACITY: usize = 256 * 1024;

/// How long a host waits for room before it gives up ([`AnswerRing::write`]).
pub const ROOM_WAIT: Duration = Duration::from_secs(30);

/// The counts in the ring's header say more is unread than it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Corrupt;

/// One end of an answer ring: the worker's ([`AnswerRing::create`],
/// [`AnswerRing::read_into`]) or the host's ([`AnswerRing::open`],
/// [`AnswerRing::write`]).
pub struct AnswerRing {
    map: memmap2::MmapRaw,
    capacity: usize,
    /// The creator's descriptor (to hand to the host); `None` in the host,
    /// which closes it once mapped.
    fd: Option<OwnedFd>,
    /// Bytes this end has written (host) or read (worker): its own count,
    /// the shared one a copy of it.
    done: u64,
}

impl std::fmt::Debug for AnswerRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerRing")
            .field("capacity", &self.capacity)
            .field("done", &self.done)
            .finish()
    }
}

impl AnswerRing {
    /// A new ring of [`CAPACITY`] bytes in a `memfd`, close-on-exec (the
    /// worker clears the flag while it spawns the host that gets it).
    pub fn create() -> io::Result<AnswerRing> {
        // SAFETY: a NUL-terminated name and valid flags.
        let fd = unsafe { libc::memfd_create(c"dlxbench-answers".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a descriptor just created, owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let file = File::from(fd.try_clone()?);
        file.set_len((HEADER + CAPACITY) as u64)?;
        let map = memmap2::MmapOptions::new().map_raw(&file)?;
        Ok(AnswerRing {
            map,
            capacity: CAPACITY,
            fd: Some(fd),
            done: 0,
        })
    }

    /// Maps the ring the worker gave this process on `fd` and closes `fd`
    /// (the mapping stays; nothing the library starts inherits it).
    pub fn open(fd: RawFd) -> io::Result<AnswerRing> {
        // SAFETY: the descriptor the worker placed for this process
        // (RING_ENV names it); taken over, closed when `file` drops.
        let file = unsafe { File::from_raw_fd(fd) };
        let len = usize::try_from(file.metadata()?.len()).unwrap_or(0);
        if len <= HEADER {
            return Err(io::Error::other(format!(
                "the answer ring on descriptor {fd} has {len} bytes"
            )));
        }
        let map = memmap2::MmapOptions::new().map_raw(&file)?;
        Ok(AnswerRing {
            map,
            capacity: len - HEADER,
            fd: None,
            done: 0,
        })
    }

    /// The ring the worker gave this process, if [`RING_ENV`] names one
    /// (the variable is removed: the library's children do not see it).
    pub fn from_env() -> io::Result<Option<AnswerRing>> {
        let Some(value) = std::env::var_os(RING_ENV) else {
            return Ok(None);
        };
        std::env::remove_var(RING_ENV);
        let fd = value
            .to_str()
            .and_then(|v| v.parse::<RawFd>().ok())
            .filter(|&fd| fd >= 0)
            .ok_or_else(|| io::Error::other(format!("{RING_ENV}={value:?}: not a descriptor")))?;
        AnswerRing::open(fd).map(Some)
    }

    /// The descriptor to hand to a child; `None` in the host.
    pub fn raw_fd(&self) -> Option<RawFd> {
        self.fd.as_ref().map(|fd| fd.as_raw_fd())
    }

    fn count(&self, offset: usize) -> &AtomicU64 {
        // SAFETY: the mapping is page-aligned and at least HEADER bytes
        // long; offsets 0 and 64 hold the two counts, u64-aligned, accessed
        // only atomically by both processes.
        unsafe { &*self.map.as_mut_ptr().add(offset).cast::<AtomicU64>() }
    }

    fn written(&self) -> &AtomicU64 {
        self.count(0)
    }

    fn read(&self) -> &AtomicU64 {
        self.count(64)
    }

    fn data(&self) -> *mut u8 {
        // SAFETY: HEADER is within the mapping.
        unsafe { self.map.as_mut_ptr().add(HEADER) }
    }

    /// Bytes published and not yet read (worker's end).
    pub fn unread(&self) -> Result<usize, Corrupt> {
        let written = self.written().load(Ordering::Acquire);
        match written.checked_sub(self.done) {
            Some(n) if n <= self.capacity as u64 => Ok(n as usize),
            _ => Err(Corrupt),
        }
    }

    /// Copies what is published and unread into `buf` (as much as fits)
    /// and frees its room for the host: the bytes copied.
    pub fn read_into(&mut self, buf: &mut [u8]) -> Result<usize, Corrupt> {
        let n = self.unread()?.min(buf.len());
        if n == 0 {
            return Ok(0);
        }
        let at = (self.done % self.capacity as u64) as usize;
        let first = n.min(self.capacity - at);
        // SAFETY: `at + first` and `n - first` are within the data; these
        // bytes were published (written before the count, release/acquire)
        // and the host does not reuse them until `read` says so, below.
        unsafe {
            std::ptr::copy_nonoverlapping(self.data().add(at), buf.as_mut_ptr(), first);
            std::ptr::copy_nonoverlapping(self.data(), buf.as_mut_ptr().add(first), n - first);
        }
        self.done += n as u64;
        self.read().store(self.done, Ordering::Release);
        Ok(n)
    }

    /// Appends `bytes` and publishes them (host's end), waiting for room
    /// while the worker has not read enough (never, in practice: the
    /// worker reads before it writes more requests than the ring holds
    /// answers for), up to [`ROOM_WAIT`].
    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if bytes.len() > self.capacity {
            return Err(io::Error::other("an answer larger than the answer ring"));
        }
        let since = Instant::now();
        loop {
            let read = self.read().load(Ordering::Acquire);
            let used = self.done.saturating_sub(read);
            if used <= (self.capacity - bytes.len()) as u64 {
                break;
            }
            if since.elapsed() > ROOM_WAIT {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the harness read no answers from the answer ring",
                ));
            }
            std::thread::sleep(Duration::from_micros(50));
        }
        let at = (self.done % self.capacity as u64) as usize;
        let first = bytes.len().min(self.capacity - at);
        // SAFETY: within the data, in room the worker has read (above).
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.data().add(at), first);
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr().add(first),
                self.data(),
                bytes.len() - first,
            );
        }
        self.done += bytes.len() as u64;
        self.written().store(self.done, Ordering::Release);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host's end of `ring`: the same memory through a second mapping,
    /// as in the host process.
    fn host_end(ring: &AnswerRing) -> AnswerRing {
        // SAFETY: dup of a descriptor the ring owns.
        let fd = unsafe { libc::dup(ring.raw_fd().expect("worker's end")) };
        assert!(fd >= 0);
        AnswerRing::open(fd).expect("maps")
    }

    #[test]
    fn bytes_written_are_read_in_order_across_the_wrap() {
        let mut worker = AnswerRing::create().unwrap();
        let mut host = host_end(&worker);
        let mut out = Vec::new();
        let mut buf = vec![0u8; 1000];
        let mut expected = Vec::new();
        // 14,000 lines of 36-110 bytes: several times round the ring.
        for i in 0..14_000u32 {
            let line = format!("{i} {}\n", "x".repeat((i % 75) as usize + 30));
            host.write(line.as_bytes()).unwrap();
            expected.extend_from_slice(line.as_bytes());
            if i % 3 == 0 {
                loop {
                    let n = worker.read_into(&mut buf).unwrap();
                    if n == 0 {
                        break;
                    }
                    out.extend_from_slice(&buf[..n]);
                }
            }
        }
        loop {
            let n = worker.read_into(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        assert!(expected.len() > 3 * CAPACITY);
        assert_eq!(out, expected);
    }

    #[test]
    fn a_host_waits_for_room_and_never_overwrites_unread_bytes() {
        let mut worker = AnswerRing::create().unwrap();
        let mut host = host_end(&worker);
        let chunk = vec![b'a'; CAPACITY / 4];
        for _ in 0..4 {
            host.write(&chunk).unwrap();
        }
        let writer = std::thread::spawn(move || {
            host.write(b"b\n").unwrap();
            host
        });
        std::thread::sleep(Duration::from_millis(20));
        assert!(
            !writer.is_finished(),
            "the ring was full: the write must wait"
        );
        let mut buf = vec![0u8; 10];
        assert_eq!(worker.read_into(&mut buf), Ok(10));
        let _host = writer.join().unwrap();
        let mut rest = vec![0u8; CAPACITY];
        let n = worker.read_into(&mut rest).unwrap();
        assert_eq!(n, CAPACITY - 10 + 2);
        assert!(rest[..n - 2].iter().all(|&b| b == b'a'));
        assert_eq!(&rest[n - 2..n], b"b\n");
    }

    #[test]
    fn a_count_that_cannot_be_is_corrupt() {
        let mut worker = AnswerRing::create().unwrap();
        let host = host_end(&worker);
        host.written().store(CAPACITY as u64 + 1, Ordering::Release);
        assert_eq!(worker.read_into(&mut [0; 8]), Err(Corrupt));
        let mut worker2 = AnswerRing::create().unwrap();
        worker2.done = 10;
        assert_eq!(worker2.unread(), Err(Corrupt), "written behind read");
    }

    #[test]
    fn without_the_variable_there_is_no_ring() {
        // Only the parse: the variable is process-wide, so no test sets it.
        assert!(std::env::var_os(RING_ENV).is_none());
        assert!(AnswerRing::from_env().unwrap().is_none());
    }
}
