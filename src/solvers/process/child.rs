//! One running solver process: started in a process group of its own, its
//! standard input and output as non-blocking-aware pipes, read and written
//! under deadlines that poll a stop flag.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Read, Write};
use std::ops::Range;
use std::os::unix::io::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::ring::{AnswerRing, RING_ENV};
use super::stderr::StderrLog;
use super::{CommandSpec, EXIT_GRACE, POLL_SLICE};
use crate::solvers::{Failure, LogFile};

/// Why a read or write did not complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The stop flag was set.
    Interrupted,
    /// The pipe ended (the process closed it or exited).
    Ended,
    /// A line longer than the limit given to [`Child::read_line`].
    TooLong,
}

/// Why a command could not be started: the OS error, for the message.
#[derive(Debug)]
pub(super) struct SpawnError(pub(super) std::io::Error);

/// A solver process.
pub(super) struct Child {
    process: std::process::Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Its process group (its own pid).
    pgid: libc::pid_t,
    /// Bytes read: `data[start..end]` not consumed yet, `data[end..]` room.
    data: Vec<u8>,
    start: usize,
    end: usize,
    /// `data[start..scanned]` holds no line feed.
    scanned: usize,
    /// Its standard error, drained into the log while the harness waits
    /// (`None`: discarded, no log placed).
    stderr: Option<StderrLog>,
    /// The answer ring offered to it ([`super::ring`]), read in place of
    /// its standard output once its header took it ([`Child::use_ring`]).
    ring: Option<AnswerRing>,
    ring_on: bool,
}

/// A descriptor made inheritable (its close-on-exec flag cleared) while
/// this lives. Made only under [`SPAWNING`], which every [`Child::spawn`]
/// holds while it starts its process: only the child spawned meanwhile
/// inherits it.
struct Inheritable {
    fd: std::os::fd::RawFd,
}

/// Held by [`Child::spawn`] around the spawn.
static SPAWNING: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Inheritable {
    fn new(fd: std::os::fd::RawFd) -> Inheritable {
        // SAFETY: fcntl on a descriptor the ring owns, open while this lives.
        unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
        Inheritable { fd }
    }
}

impl Drop for Inheritable {
    fn drop(&mut self) {
        // SAFETY: as in `new`.
        unsafe { libc::fcntl(self.fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
}

/// The first nap of a wait on the answer ring, and the longest: a ring
/// cannot be waited on, so the worker looks again after each (its output
/// pipe, polled meanwhile, ends the nap at once when the host ends).
const RING_NAPS: (Duration, Duration) = (Duration::from_micros(20), Duration::from_millis(1));

impl Child {
    /// Starts `spec` with its standard error drained into `log` under
    /// its caps ([`StderrLog`]; discarded when the log is not placed), and
    /// `env` added to its environment; offered an answer ring when
    /// `offer_ring` (and one can be made: otherwise it is read from its
    /// pipe, as any solver).
    pub(super) fn spawn(
        spec: &CommandSpec,
        log: &LogFile,
        env: &[(&'static str, String)],
        offer_ring: bool,
    ) -> Result<Child, SpawnError> {
        let file = log
            .path()
            .and_then(|path| OpenOptions::new().create(true).append(true).open(path).ok());
        let mut command = Command::new(&spec.program);
        for (name, value) in env {
            command.env(name, value);
        }
        let ring = offer_ring.then(AnswerRing::create).and_then(Result::ok);
        // The ring's descriptor is inherited by this child alone (not by
        // one another worker starts meanwhile), without a pre_exec hook,
        // which would make the spawn a fork of the whole harness.
        let spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
        let inheriting = ring.as_ref().and_then(AnswerRing::raw_fd).map(|fd| {
            command.env(RING_ENV, fd.to_string());
            Inheritable::new(fd)
        });
        let process = command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if file.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .process_group(0)
            .spawn()
            .map_err(SpawnError);
        drop(inheriting);
        drop(spawning);
        let mut process = process?;
        let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
            let _ = process.kill();
            let _ = process.wait();
            return Err(SpawnError(std::io::Error::other("no pipes")));
        };
        let stderr = match (process.stderr.take(), file) {
            (Some(pipe), Some(file)) => Some(StderrLog::new(pipe, file, log.clone())),
            _ => None,
        };
        // Writes must not block past a deadline: a solver that reads
        // nothing fills the pipe.
        // SAFETY: fcntl on a descriptor this process owns.
        unsafe {
            let fd = stdin.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        let pgid = libc::pid_t::try_from(process.id()).unwrap_or(libc::pid_t::MAX);
        Ok(Child {
            process,
            stdin: Some(stdin),
            stdout,
            pgid,
            data: vec![0; 4096],
            start: 0,
            end: 0,
            scanned: 0,
            stderr,
            ring,
            ring_on: false,
        })
    }

    /// Reads its output from the answer ring from now on, if it was
    /// offered one (its header took it); drops the ring otherwise.
    pub(super) fn use_ring(&mut self, taken: bool) {
        self.ring_on = taken && self.ring.is_some();
        if !self.ring_on {
            self.ring = None;
        }
    }

    /// Bytes in the answer ring not read yet (0 without one); a corrupt
    /// ring counts as output (its read ends the process's output).
    fn ring_unread(&self) -> usize {
        match (&self.ring, self.ring_on) {
            (Some(ring), true) => ring.unread().unwrap_or(1),
            _ => 0,
        }
    }

    /// Its process id.
    pub(super) fn pid(&self) -> u32 {
        self.pgid as u32
    }

    /// The bytes of a line [`Child::read_line`] returned (valid until the
    /// next read).
    pub(super) fn line(&self, range: Range<usize>) -> &[u8] {
        &self.data[range]
    }

    /// Whether output the harness did not ask for is waiting: bytes beyond
    /// the last line read, or bytes in the pipe now (a solver that wrote
    /// more than one line for a request). Reads what the pipe holds, so
    /// that [`Child::leftover`] can quote it.
    pub(super) fn has_unsolicited(&mut self) -> bool {
        if self.start == self.end && self.ring_unread() > 0 {
            self.start = 0;
            self.end = 0;
            self.scanned = 0;
            if let Some(ring) = self.ring.as_mut() {
                self.end = ring.read_into(&mut self.data[..]).unwrap_or(0);
            }
        }
        if self.start == self.end {
            let mut pfd = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one pollfd, on the stack; a timeout of 0 does not wait.
            let ready = unsafe { libc::poll(&mut pfd, 1, 0) };
            if ready <= 0 || pfd.revents & libc::POLLIN == 0 {
                return false;
            }
            self.start = 0;
            self.end = 0;
            self.scanned = 0;
            match self.stdout.read(&mut self.data[..]) {
                Ok(n) => self.end = n,
                Err(_) => return false,
            }
        }
        self.start < self.end
    }

    /// Whether [`Child::read_line`] would return without waiting: a whole
    /// line read already, or output (or the end of it) in the pipe.
    pub(super) fn has_output(&self) -> bool {
        if memchr::memchr(b'\n', &self.data[self.scanned..self.end]).is_some() {
            return true;
        }
        if self.ring_unread() > 0 {
            return true;
        }
        let mut pfd = libc::pollfd {
            fd: self.stdout.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, on the stack; a timeout of 0 does not wait.
        let ready = unsafe { libc::poll(&mut pfd, 1, 0) };
        ready != 0
    }

    /// Reads what the process wrote to its standard error so far into its
    /// log, without waiting (a solver blocked on a full standard-error pipe
    /// would never answer).
    pub(super) fn drain_stderr(&mut self) {
        if let Some(e) = self.stderr.as_mut() {
            e.drain();
        }
    }

    /// The unread output [`Child::has_unsolicited`] found.
    pub(super) fn leftover(&self) -> &[u8] {
        &self.data[self.start..self.end]
    }

    /// Reads the next line (without its `\n`), waiting until `deadline`;
    /// a line longer than `max` bytes is [`ReadError::TooLong`], found
    /// without reading much further (the buffer stays under `2 * max`
    /// plus a page).
    pub(super) fn read_line(
        &mut self,
        max: usize,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<Range<usize>, ReadError> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.data[self.scanned..self.end]) {
                let line = self.start..self.scanned + i;
                self.start = line.end + 1;
                self.scanned = self.start;
                return Ok(line);
            }
            self.scanned = self.end;
            if self.end - self.start > max {
                return Err(ReadError::TooLong);
            }
            let fd = self.stdout.as_raw_fd();
            if !self.ring_on {
                wait_for(fd, libc::POLLIN, deadline, stop, self.stderr.as_mut())?;
            }
            if self.start > 0 {
                self.data.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.scanned -= self.start;
                self.start = 0;
            }
            if self.end == self.data.len() {
                self.data.resize(self.data.len() * 2, 0);
            }
            if self.ring_on {
                self.fill_from_ring(deadline, stop)?;
                continue;
            }
            match self.stdout.read(&mut self.data[self.end..]) {
                Ok(0) => return Err(ReadError::Ended),
                Ok(n) => self.end += n,
                Err(e) if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::WouldBlock) => {}
                Err(_) => return Err(ReadError::Ended),
            }
        }
    }

    /// Reads more into `data[end..]` (room there) from the answer ring,
    /// waiting until `deadline` in naps ([`RING_NAPS`]) while nothing is
    /// published; the pipe, polled during each nap, has the host's last
    /// line (its crash handler's) or its end, read once the ring has
    /// given all that was published before them.
    fn fill_from_ring(
        &mut self,
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<(), ReadError> {
        let mut nap = RING_NAPS.0;
        loop {
            let ring = self.ring.as_mut().expect("reading the ring");
            match ring.read_into(&mut self.data[self.end..]) {
                Ok(0) => {}
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(_corrupt) => return Err(ReadError::Ended),
            }
            let slice = next_slice(deadline, stop, nap)?;
            if self.pipe_ready(slice) {
                if self.ring_unread() > 0 {
                    continue;
                }
                match self.stdout.read(&mut self.data[self.end..]) {
                    Ok(0) => return Err(ReadError::Ended),
                    Ok(n) => {
                        self.end += n;
                        return Ok(());
                    }
                    Err(e)
                        if matches!(e.kind(), ErrorKind::Interrupted | ErrorKind::WouldBlock) => {}
                    Err(_) => return Err(ReadError::Ended),
                }
            }
            nap = (nap * 2).min(RING_NAPS.1);
        }
    }

    /// Waits up to `slice` for output (or its end) on the pipe, draining
    /// standard error into the log meanwhile: whether the pipe is ready
    /// (or polling it failed: the read then says how).
    fn pipe_ready(&mut self, slice: Duration) -> bool {
        let fd = self.stdout.as_raw_fd();
        poll_draining(fd, libc::POLLIN, slice, self.stderr.as_mut()).unwrap_or(true)
    }

    /// Writes all of `bytes`, waiting until `deadline`.
    pub(super) fn write_all(
        &mut self,
        bytes: &[u8],
        deadline: Option<Instant>,
        stop: Option<&AtomicBool>,
    ) -> Result<(), ReadError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(ReadError::Ended);
        };
        let mut at = 0;
        while at < bytes.len() {
            match stdin.write(&bytes[at..]) {
                Ok(0) => return Err(ReadError::Ended),
                Ok(n) => at += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => wait_for(
                    stdin.as_raw_fd(),
                    libc::POLLOUT,
                    deadline,
                    stop,
                    self.stderr.as_mut(),
                )?,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return Err(ReadError::Ended),
            }
        }
        Ok(())
    }

    /// Waits up to `grace` for the process to exit, without reaping it;
    /// true when it did.
    fn exited_within(&self, grace: Duration) -> bool {
        let until = Instant::now() + grace;
        loop {
            // SAFETY: waitid with WNOWAIT only looks at the child's state;
            // `info` is a zeroed siginfo_t it fills in.
            let exited = unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let r = libc::waitid(
                    libc::P_PID,
                    self.pgid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                r == 0 && info.si_pid() != 0
            };
            if exited {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the process group (the leader not yet reaped, so that its id
    /// cannot have been reused) and reaps the leader.
    fn kill_group_and_reap(mut self) -> std::process::ExitStatus {
        // SAFETY: a signal to the group this process started.
        unsafe {
            libc::killpg(self.pgid, libc::SIGKILL);
        }
        let status = match self.process.wait() {
            Ok(status) => status,
            Err(_) => std::process::ExitStatus::from_raw(libc::SIGKILL),
        };
        if let Some(stderr) = self.stderr.take() {
            stderr.finish();
        }
        status
    }

    /// Writes `text` to the solver's log (when placed), under its caps:
    /// the harness's own notes (a quoted protocol error).
    pub(super) fn note(&mut self, text: &str) {
        if let Some(stderr) = self.stderr.as_mut() {
            stderr.note(text);
        }
    }

    /// Closes the process's input (it is to exit on its own), keeping the
    /// process to [`Child::close`] later.
    pub(super) fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Kills the process and its group now.
    pub(super) fn kill(self) {
        self.kill_group_and_reap();
    }

    /// The process's output ended when it owed an answer: how it ended
    /// (its exit status or signal, given [`EXIT_GRACE`] to exit;
    /// [`Failure::Closed`] if it had not, and was killed).
    pub(super) fn reap(self) -> Failure {
        let exited = self.exited_within(EXIT_GRACE);
        let status = self.kill_group_and_reap();
        match (exited, status.signal(), status.code()) {
            (false, _, _) => Failure::Closed,
            (true, Some(signal), _) => Failure::Signal(signal),
            (true, None, Some(code)) => Failure::Exit(code),
            (true, None, None) => Failure::Closed,
        }
    }

    /// The end of a run: closes the process's input, gives it
    /// [`EXIT_GRACE`] to exit, then kills its group.
    pub(super) fn close(mut self) {
        self.stdin = None;
        self.exited_within(EXIT_GRACE);
        self.kill_group_and_reap();
    }
}

/// Waits until `fd` is ready for `events`, the deadline passes or the stop
/// flag is set (looked at every [`POLL_SLICE`]), draining the process's
/// standard error into its log meanwhile (a solver blocked on a full
/// standard-error pipe would never answer).
fn wait_for(
    fd: libc::c_int,
    events: libc::c_short,
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
    mut stderr: Option<&mut StderrLog>,
) -> Result<(), ReadError> {
    loop {
        let slice = next_slice(deadline, stop, POLL_SLICE)?;
        match poll_draining(fd, events, slice, stderr.as_deref_mut()) {
            Ok(true) => return Ok(()),
            Ok(false) => {}
            Err(()) => return Err(ReadError::Ended),
        }
    }
}

/// The next wait of a loop that waits until `deadline`, at most `most`;
/// `Err` once the stop flag is set or the deadline has passed.
fn next_slice(
    deadline: Option<Instant>,
    stop: Option<&AtomicBool>,
    most: Duration,
) -> Result<Duration, ReadError> {
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(ReadError::Interrupted);
    }
    match deadline {
        Some(d) => {
            let now = Instant::now();
            if now >= d {
                return Err(ReadError::Timeout);
            }
            Ok((d - now).min(most))
        }
        None => Ok(most),
    }
}

/// Polls `fd` for `events`, and the standard error's pipe (when there is
/// one) for input, up to `slice` (not 0: it would spin), draining standard
/// error into its log when it has some: whether `fd` is ready; `Err` when
/// polling failed (other than interrupted).
fn poll_draining(
    fd: libc::c_int,
    events: libc::c_short,
    slice: Duration,
    stderr: Option<&mut StderrLog>,
) -> Result<bool, ()> {
    let err_fd = stderr.as_ref().and_then(|e| e.fd());
    let mut pfds = [
        libc::pollfd {
            fd,
            events,
            revents: 0,
        },
        libc::pollfd {
            fd: err_fd.unwrap_or(-1),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    let n = if err_fd.is_some() { 2 } else { 1 };
    let timeout = libc::timespec {
        tv_sec: slice.as_secs() as libc::time_t,
        tv_nsec: slice.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `n` pollfds and a timespec, on the stack; no signal mask.
    let ready = unsafe { libc::ppoll(pfds.as_mut_ptr(), n, &timeout, std::ptr::null()) };
    if ready < 0 {
        return match std::io::Error::last_os_error().kind() {
            ErrorKind::Interrupted => Ok(false),
            _ => Err(()),
        };
    }
    if ready > 0 && pfds[1].revents != 0 {
        if let Some(e) = stderr {
            e.drain();
        }
    }
    Ok(ready > 0 && pfds[0].revents != 0)
}
