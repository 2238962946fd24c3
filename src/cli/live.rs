//! What `bench` shows while a run goes: a progress bar that says which
//! corpus of how many, each corpus's problems and table as soon as the
//! corpus ends, and the stop flag that Ctrl-C or SIGTERM sets (a second one
//! exits at once), as does standard output closing. The session
//! ([`dlxbench::session`]) writes the files and reads the flag.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use dlxbench::harness::{Config, Discrepancy, RunResult};
use dlxbench::report::{self, schema, RunMeta};
use dlxbench::session::{Notice, Observer, Outcome};
use dlxbench::terminal::{escape_controls, escape_lines};

use super::io::errln;

/// Set by the first Ctrl-C or SIGTERM, or when standard output closes.
static STOP: AtomicBool = AtomicBool::new(false);
/// Signals received.
static SIGNALS: AtomicU32 = AtomicU32::new(0);

/// Exit status of a run stopped by a signal (128 + SIGINT).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// `PROBLEM` lines shown per corpus: a solver wrong on every puzzle would
/// otherwise print one per puzzle. The result directory's `problems.txt`
/// holds them all.
pub(crate) const PROBLEM_LINES: usize = 10;

/// Installs the Ctrl-C / SIGTERM handler: the first signal asks the run to
/// stop after the chunks in flight (results so far are kept), a second
/// exits at once.
pub(crate) fn handle_interrupts() {
    // Fails only when a handler is already installed (a second run in the
    // same process): the first one serves.
    let _ = ctrlc::set_handler(|| {
        if SIGNALS.fetch_add(1, Ordering::SeqCst) > 0 {
            // What is on disk now, as the session last noted it.
            match dlxbench::exit_note::get() {
                "" => errln!("\ndlxbench: quit at once"),
                note => errln!("\ndlxbench: quit at once; {note}"),
            }
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        STOP.store(true, Ordering::SeqCst);
        errln!(
            "\ndlxbench: stopping after the chunks in flight; their results are kept \
             (press Ctrl-C again to quit at once)"
        );
    });
}

/// The flag the session reads: set, the run stops after the chunks in
/// flight.
pub(crate) fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// Whether a Ctrl-C or SIGTERM came.
pub(crate) fn signalled() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// The session's observer: the bar, the notices, each corpus's table.
pub(crate) struct Live<'a> {
    bar: Option<indicatif::ProgressBar>,
    /// Print each corpus's table (not `--quiet`).
    tables: bool,
    config: &'a Config,
    /// Standard output closed.
    stdout_closed: AtomicBool,
    /// The result directory is kept when the run finds problems (not a
    /// baseline, which is then not saved): the problems beyond the first
    /// few can be pointed to in its `problems.txt`.
    problems_kept: bool,
}

impl<'a> Live<'a> {
    /// An observer; a bar on standard error when it is a terminal and
    /// `quiet` is off. `problems_kept`: the result directory stays when the
    /// run finds problems (false for a baseline).
    pub(crate) fn new(config: &'a Config, quiet: bool, problems_kept: bool) -> Self {
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
            stdout_closed: AtomicBool::new(false),
            problems_kept,
        }
    }

    /// Runs `f` with the bar hidden, so that its output is not garbled.
    fn quietly<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Prints `text` on standard output, its control characters escaped; a
    /// closed pipe stops the run.
    pub(crate) fn print(&self, text: &str) {
        if self.stdout_closed() {
            return;
        }
        let result = self.quietly(|| {
            let mut out = io::stdout().lock();
            out.write_all(escape_lines(text).as_bytes())
                .and_then(|()| out.flush())
        });
        if result.is_err() {
            // A closed pipe (`| head`), or no standard output at all:
            // nobody reads the tables any more, so stop measuring.
            self.stdout_closed.store(true, Ordering::SeqCst);
            STOP.store(true, Ordering::SeqCst);
        }
    }

    /// After the run: its notes and where the results are, on standard
    /// output; with `--quiet`, only a warning of a slow clock.
    pub(crate) fn end(&self, outcome: &Outcome) {
        let run = &outcome.run;
        if self.tables {
            let notes = report::table::render_notes(run, self.config, &outcome.meta);
            self.print(&format!("{notes}{}\n", outcome.results_line()));
        } else if report::clock_overhead_too_high(run) {
            errln!(
                "warning: clock overhead {:.0} ns exceeds 2% of the fastest median latency",
                run.clock_overhead_ns
            );
        }
    }

    /// Whether standard output closed.
    pub(crate) fn stdout_closed(&self) -> bool {
        self.stdout_closed.load(Ordering::SeqCst)
    }

    /// Malformed lines and discrepancies of the corpus that just ended, on
    /// standard error: the first [`PROBLEM_LINES`] discrepancies, and where
    /// the others are.
    fn report_problems(&self, run: &RunResult, meta: &RunMeta) {
        let Some(c) = run.corpora.last() else {
            return;
        };
        self.quietly(|| {
            if c.malformed > 0 {
                let more = c.malformed > c.malformed_examples.len() as u64;
                errln!(
                    "{}: {} malformed line(s) skipped{}",
                    escape_controls(&c.name),
                    c.malformed,
                    if more { ", first ones:" } else { ":" }
                );
                let file = c
                    .path
                    .as_ref()
                    .map_or_else(|| c.name.clone(), |p| p.display().to_string());
                for m in &c.malformed_examples {
                    errln!(
                        "  {}: {}\n    {}",
                        escape_controls(&file),
                        escape_controls(&m.message),
                        escape_controls(&m.text)
                    );
                }
            }
            let problems = run.discrepancies.iter().filter(|d| d.corpus == c.name);
            let file = meta.out_dir.join(schema::PROBLEMS_TXT);
            print_problems("PROBLEM: ", problems, |more, corpus| {
                match self.problems_kept {
                    true => format!(
                        "PROBLEM: ... {more} more in {corpus}, all in {}",
                        file.display()
                    ),
                    false => format!(
                        "PROBLEM: ... {more} more in {corpus} not shown (a run with problems \
                         saves no baseline: run with --out DIR to keep them all in DIR/{})",
                        schema::PROBLEMS_TXT
                    ),
                }
            });
            for (i, s) in c.solvers.iter().enumerate() {
                if s.failed() == 0 && s.skipped == 0 {
                    continue;
                }
                let mut counts = Vec::new();
                for (n, what) in [
                    (s.crashed, "crashed"),
                    (s.timeout, "timeout"),
                    (s.protocol_error, "protocol-error"),
                    (s.skipped, "skipped"),
                ] {
                    if n > 0 {
                        counts.push(format!("{n} {what}"));
                    }
                }
                let log = self
                    .config
                    .log_files()
                    .get(i)
                    .and_then(|l| l.as_ref())
                    .map_or(String::new(), |l| {
                        format!(" (its standard error: {})", escape_controls(l))
                    });
                let label = if s.failed() > 0 { "PROBLEM" } else { "note" };
                errln!(
                    "{label}: {}: {}: {}{log}",
                    escape_controls(&c.name),
                    escape_controls(&s.name),
                    counts.join(", ")
                );
            }
            for note in &c.failures {
                errln!(
                    "  {}: {}",
                    escape_controls(&c.name),
                    escape_controls(&note.to_string())
                );
            }
        });
    }
}

impl Observer for Live<'_> {
    fn notice(&self, notice: &Notice) {
        // Before the run: the bar is not drawn yet.
        errln!("dlxbench: {notice}");
    }

    fn run_starting(&self) {
        handle_interrupts();
    }

    fn start_corpus(&self, index: usize, count: usize, name: &str, lines: u64) {
        if let Some(bar) = &self.bar {
            bar.reset();
            bar.set_length(lines);
            bar.set_position(0);
            bar.set_message(format!(
                "corpus {} of {count}: {}",
                index + 1,
                escape_controls(name)
            ));
        }
    }

    fn advance(&self, lines: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(lines);
        }
    }

    fn corpus_done(&self, run: &RunResult, meta: &RunMeta) {
        self.report_problems(run, meta);
        if self.tables {
            self.print(&report::table::render_last(run, self.config, meta));
        }
    }

    fn run_done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `discrepancies` on standard error, each after `prefix`: the first
/// [`PROBLEM_LINES`] of each corpus (in their order), then, when it has
/// more, the line `more(COUNT, CORPUS)` gives for the rest (the count with
/// thousands separators, the corpus name escaped). What `bench` prints
/// after each corpus, and `ab` and `merge` after the run.
pub(crate) fn print_problems<'d>(
    prefix: &str,
    discrepancies: impl IntoIterator<Item = &'d Discrepancy>,
    more: impl Fn(&str, &str) -> String,
) {
    for line in problem_lines(prefix, discrepancies, more) {
        errln!("{line}");
    }
}

/// The lines [`print_problems`] prints.
pub(crate) fn problem_lines<'d>(
    prefix: &str,
    discrepancies: impl IntoIterator<Item = &'d Discrepancy>,
    more: impl Fn(&str, &str) -> String,
) -> Vec<String> {
    // Corpora in the order of their first discrepancy, with their counts.
    let mut corpora: Vec<(&str, usize)> = Vec::new();
    let mut lines = Vec::new();
    let mut shown: Vec<Vec<String>> = Vec::new();
    for d in discrepancies {
        let i = match corpora.iter().position(|(c, _)| *c == d.corpus) {
            Some(i) => i,
            None => {
                corpora.push((&d.corpus, 0));
                shown.push(Vec::new());
                corpora.len() - 1
            }
        };
        corpora[i].1 += 1;
        if corpora[i].1 <= PROBLEM_LINES {
            shown[i].push(format!("{prefix}{d}"));
        }
    }
    for ((corpus, count), text) in corpora.iter().zip(shown) {
        lines.extend(text);
        if *count > PROBLEM_LINES {
            lines.push(more(
                &report::thousands((count - PROBLEM_LINES) as u64),
                &escape_controls(corpus),
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use dlxbench::harness::DiscrepancyKind;

    fn problem(corpus: &str, line: u64) -> Discrepancy {
        Discrepancy {
            corpus: corpus.into(),
            line,
            image: None,
            kind: DiscrepancyKind::Disagreement,
            counts: Vec::new(),
        }
    }

    #[test]
    fn problem_lines_are_capped_per_corpus_with_a_count_of_the_rest() {
        let mut all: Vec<Discrepancy> = (1..=1234).map(|l| problem("a", l)).collect();
        all.extend((1..=3).map(|l| problem("b", l)));
        all.push(problem("a", 2000));
        let lines = problem_lines("P: ", &all, |more, corpus| {
            format!("P: ... {more} in {corpus}")
        });
        assert_eq!(lines.len(), PROBLEM_LINES + 1 + 3);
        let a: Vec<String> = all[..PROBLEM_LINES]
            .iter()
            .map(|d| format!("P: {d}"))
            .collect();
        assert_eq!(lines[..PROBLEM_LINES], a[..]);
        assert_eq!(lines[PROBLEM_LINES], "P: ... 1,225 in a");
        assert_eq!(lines[PROBLEM_LINES + 1], format!("P: {}", all[1234]));
        assert_eq!(lines.last().unwrap(), &format!("P: {}", all[1236]));
        assert!(problem_lines("P: ", &[], |_, _| unreachable!()).is_empty());
    }
}
