//! What `bench` does while a run goes: a progress bar that says which
//! corpus of how many, each corpus's table on standard output and its
//! result files as soon as the corpus ends, and a stop on Ctrl-C or
//! SIGTERM (a second one exits at once) or when standard output closes.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

use dlxbench::harness::{Config, Progress, RunResult};
use dlxbench::report::{self, RunMeta};

/// Set by the first Ctrl-C or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);
/// Signals received.
static SIGNALS: AtomicU32 = AtomicU32::new(0);

/// Exit status of a run stopped by a signal (128 + SIGINT).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Installs the Ctrl-C / SIGTERM handler: the first signal asks the run to
/// stop after the chunks in flight (results so far are kept), a second
/// exits at once.
pub(crate) fn handle_interrupts() {
    // Fails only when a handler is already installed (a second run in the
    // same process): the first one serves.
    let _ = ctrlc::set_handler(|| {
        if SIGNALS.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        STOP.store(true, Ordering::SeqCst);
        eprintln!(
            "\ndlxbench: stopping after the chunks in flight; their results are kept \
             (press Ctrl-C again to quit at once)"
        );
    });
}

/// Whether the run is to stop (a signal, or standard output closed).
fn stopping() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// Whether a Ctrl-C or SIGTERM came.
pub(crate) fn signalled() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// What went wrong while the run went on; the run itself continues.
#[derive(Default)]
struct Trouble {
    /// Writing the result files failed (the first error).
    files: Option<io::Error>,
    /// Standard output closed.
    stdout_closed: bool,
}

/// The run's observer.
pub(crate) struct Live<'a> {
    bar: Option<indicatif::ProgressBar>,
    /// Print each corpus's table (not `--quiet`).
    tables: bool,
    config: &'a Config,
    meta: &'a RunMeta,
    dir: &'a Path,
    trouble: Mutex<Trouble>,
}

impl<'a> Live<'a> {
    /// An observer writing into `dir`; a bar on standard error when it is a
    /// terminal and `quiet` is off.
    pub(crate) fn new(config: &'a Config, meta: &'a RunMeta, dir: &'a Path, quiet: bool) -> Self {
        let bar = (!quiet && io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{msg} [{bar:30}] {human_pos}/{human_len} lines, {per_sec}, ETA {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar
        });
        Live {
            bar,
            tables: !quiet,
            config,
            meta,
            dir,
            trouble: Mutex::new(Trouble::default()),
        }
    }

    /// Runs `f` with the bar hidden, so that its output is not garbled.
    fn quietly<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Writes every result file for `run` (the run so far), unless an
    /// earlier write failed; returns the paths written.
    pub(crate) fn write_files(&self, run: &RunResult) -> Option<Vec<PathBuf>> {
        let mut trouble = self.trouble.lock().unwrap_or_else(|e| e.into_inner());
        if trouble.files.is_some() {
            return None;
        }
        match report::write_all(run, self.config, self.meta, self.dir) {
            Ok(paths) => Some(paths),
            Err(e) => {
                trouble.files = Some(e);
                None
            }
        }
    }

    /// Prints `text` on standard output; a closed pipe stops the run.
    pub(crate) fn print(&self, text: &str) {
        let mut trouble = self.trouble.lock().unwrap_or_else(|e| e.into_inner());
        if trouble.stdout_closed {
            return;
        }
        let result = self.quietly(|| {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        });
        if result.is_err() {
            // A closed pipe (`| head`), or no standard output at all:
            // nobody reads the tables any more, so stop measuring.
            trouble.stdout_closed = true;
            STOP.store(true, Ordering::SeqCst);
        }
    }

    /// Clears the bar.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// The first write error of the result files, if any.
    pub(crate) fn files_error(&self) -> Option<io::Error> {
        self.trouble
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .files
            .take()
    }

    /// Whether standard output closed.
    pub(crate) fn stdout_closed(&self) -> bool {
        self.trouble
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .stdout_closed
    }

    /// Malformed lines and discrepancies of the corpus that just ended, on
    /// standard error.
    fn report_problems(&self, run: &RunResult) {
        let Some(c) = run.corpora.last() else {
            return;
        };
        self.quietly(|| {
            if c.malformed > 0 {
                let more = c.malformed > c.malformed_examples.len() as u64;
                eprintln!(
                    "{}: {} malformed line(s) skipped{}",
                    c.name,
                    c.malformed,
                    if more { ", first ones:" } else { ":" }
                );
                let file = c
                    .path
                    .as_ref()
                    .map_or_else(|| c.name.clone(), |p| p.display().to_string());
                for m in &c.malformed_examples {
                    eprintln!("  {file}: {}\n    {}", m.message, m.text);
                }
            }
            for d in run.discrepancies.iter().filter(|d| d.corpus == c.name) {
                eprintln!("PROBLEM: {d}");
            }
        });
    }
}

impl Progress for Live<'_> {
    fn start_corpus(&self, index: usize, count: usize, name: &str, lines: u64) {
        if let Some(bar) = &self.bar {
            bar.reset();
            bar.set_length(lines);
            bar.set_position(0);
            bar.set_message(format!("corpus {} of {count}: {name}", index + 1));
        }
    }

    fn advance(&self, lines: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(lines);
        }
    }

    fn finish_corpus(&self, run: &RunResult) {
        // Files first: what is computed is kept even if printing fails.
        self.write_files(run);
        self.report_problems(run);
        if self.tables {
            self.print(&report::table::render_last(run, self.config, self.meta));
        }
    }

    fn stop_requested(&self) -> bool {
        stopping()
    }
}
