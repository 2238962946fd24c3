//! A solver process's standard error, read by the harness and written to
//! the solver's log under caps, as runsolver's output limit does: the
//! first [`LogUsage::HEAD`] bytes of all the solver's processes are kept
//! whole, then each process's last [`LogUsage::TAIL`] bytes, written when
//! it ends with a line saying how much was dropped, while the file holds
//! less than [`LogUsage::MAX`]. A solver that writes 200 MB of standard
//! error per puzzle fills no disk, and the harness holds at most one tail
//! per running process in memory.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::io::AsRawFd;
use std::process::ChildStderr;
use std::sync::atomic::Ordering;

use crate::solvers::{LogFile, LogUsage};

/// The standard error of one process, being drained into its log.
pub(super) struct StderrLog {
    pipe: ChildStderr,
    file: File,
    log: LogFile,
    /// The head is used up: what is read now goes to the tail.
    in_tail: bool,
    /// The last bytes read past the head (at most [`LogUsage::TAIL`]).
    tail: VecDeque<u8>,
    /// Bytes of this process dropped so far (pushed out of the tail).
    dropped: u64,
    /// The pipe reached its end.
    eof: bool,
}

impl StderrLog {
    /// Drains `pipe` (made non-blocking here) into `file`, the placed
    /// `log`.
    pub(super) fn new(pipe: ChildStderr, file: File, log: LogFile) -> StderrLog {
        // SAFETY: fcntl on a descriptor this process owns.
        unsafe {
            let fd = pipe.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        StderrLog {
            pipe,
            file,
            log,
            in_tail: false,
            tail: VecDeque::new(),
            dropped: 0,
            eof: false,
        }
    }

    /// The descriptor to poll, until the pipe ends.
    pub(super) fn fd(&self) -> Option<libc::c_int> {
        (!self.eof).then(|| self.pipe.as_raw_fd())
    }

    fn usage(&self) -> &LogUsage {
        self.log.usage()
    }

    /// Reads what the pipe holds now (without waiting).
    pub(super) fn drain(&mut self) {
        let mut buf = [0u8; 16 * 1024];
        while !self.eof {
            match self.pipe.read(&mut buf) {
                Ok(0) => self.eof = true,
                Ok(n) => self.take(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => return,
                Err(_) => self.eof = true,
            }
        }
    }

    /// Writes the harness's own note (what it read from the solver's
    /// standard output, on a protocol error) among what the process wrote,
    /// under the same caps.
    pub(super) fn note(&mut self, text: &str) {
        self.drain();
        self.take(text.as_bytes());
    }

    /// Keeps `bytes`: in the head while it has room, in the tail after.
    fn take(&mut self, mut bytes: &[u8]) {
        if !self.in_tail {
            let want = bytes.len() as u64;
            let before = self.usage().head.fetch_add(want, Ordering::Relaxed);
            let fits = LogUsage::HEAD.saturating_sub(before).min(want) as usize;
            if fits > 0 {
                self.write(&bytes[..fits]);
            }
            bytes = &bytes[fits..];
            if bytes.is_empty() {
                return;
            }
            self.in_tail = true;
        }
        self.tail.extend(bytes);
        if self.tail.len() > LogUsage::TAIL {
            let excess = self.tail.len() - LogUsage::TAIL;
            self.tail.drain(..excess);
            self.dropped += excess as u64;
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        if self.file.write_all(bytes).is_ok() {
            let n = bytes.len() as u64;
            self.usage().written.fetch_add(n, Ordering::Relaxed);
        } else {
            self.dropped += bytes.len() as u64;
        }
    }

    /// The process has ended (or been killed): reads what is left without
    /// waiting (a grandchild may still hold the pipe), then writes the
    /// tail and what was dropped, while the file has room.
    pub(super) fn finish(mut self) {
        self.drain();
        if !self.in_tail {
            return;
        }
        let tail = std::mem::take(&mut self.tail);
        let room =
            self.usage().written.load(Ordering::Relaxed) + tail.len() as u64 <= LogUsage::MAX;
        let kept = if room { tail.len() } else { 0 };
        let dropped = self.dropped + (tail.len() - kept) as u64;
        let marker = format!(
            "\n[dlxbench: {dropped} bytes of this process's standard error dropped here; the log \
             keeps the first {} MiB of the solver's processes and the last {} KiB of each, up to \
             {} MiB]\n",
            LogUsage::HEAD >> 20,
            LogUsage::TAIL >> 10,
            LogUsage::MAX >> 20
        );
        // Markers stop too once the file is well past its cap.
        if self.usage().written.load(Ordering::Relaxed) < LogUsage::MAX + (1 << 20) {
            self.write(marker.as_bytes());
        }
        if kept > 0 {
            let (a, b) = tail.as_slices();
            self.write(a);
            self.write(b);
        }
        self.usage().dropped.fetch_add(dropped, Ordering::Relaxed);
    }
}
