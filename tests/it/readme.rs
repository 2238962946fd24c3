//! The examples of the README and of the manual in `docs/` are real: every
//! `$ COMMAND` line in `README.md` and in each `docs/*.md` page (a "page"
//! below) is run (or skipped for a reason given in [`skip_reason`]), and
//! what it prints must be what the page shows under it. Every relative
//! link of a page leads to a file that exists, and its `#anchor` to a
//! heading of that file.
//!
//! - **What is compared.** The lines under the command, up to the next
//!   `$ ` line or the end of the block, are its standard output, except
//!   lines marked `(stderr)`, which are its standard error (compared when
//!   the page shows any), and an `exit N` line after `; echo "exit $?"`,
//!   which is its exit status (without one it must be 0). A `...` line
//!   stands for any number of lines; trailing blank lines are not compared,
//!   nor is the report of `time` (`real ...`), nor `bench`'s note on
//!   stalls (`Mean above p99 ...`, which depends on the machine).
//! - **Machine-dependent values** are masked on both sides before the
//!   comparison ([`Mask`]), for the commands that print them (`bench`,
//!   `compare`, `cover`, the `cargo run --example` programs, `time ...`) and for
//!   every standard error: quantities of time (`35.5 µs`, `in 0.06 s`),
//!   rates (`puzzles/s`, `GB/s`), thread counts (the cores), timestamps,
//!   git revisions, the time verdicts of `compare`, in `bench`'s line on
//!   the virtual best solver the single best, the throughput ratio and the
//!   shares of wins (decided by the times), and in tables with time
//!   columns (`bench`'s and `compare`'s time table, recognised by a `mean`
//!   or `ratio` header) the cells of those columns. Everything else
//!   (puzzle, solution and node counts, statuses, corpus and solver names,
//!   the deterministic columns) is compared, word for word. Other standard
//!   outputs are compared byte for byte.
//! - **Inputs.** Commands run from the repository's root: `echo`,
//!   `printf '...'`, `cat FILE` and `head -N FILE` before `|` feed standard
//!   input; `cat FILE` and `head -N FILE` alone print the file, so the
//!   page shows it as it is; `cargo run --release --example NAME -- ARGS`
//!   runs the example that `cargo test` built (skipped, with a note, when
//!   only this test was built; never in CI); `> FILE` means the output must
//!   be FILE's content. `bench` runs in an empty directory, as on a fresh
//!   clone: no fetched corpora there, so a bench without corpus runs the
//!   embedded one, and its results are written there. The `/tmp/readme-*`
//!   directories are made as the pages say they were ([`Fixtures`]).
//! - Examples on the **fetched corpora** (`datasets/*.txt` outside
//!   `datasets/generated/`) run in an ignored test, like
//!   `tests/it/real_corpora.rs`: `cargo test -- --include-ignored` after
//!   `dlxbench datasets fetch` (CI does).
//! - **Synopses** (a `text` block whose first line is `dlxbench SUBCOMMAND
//!   [...`) name exactly the options `dlxbench SUBCOMMAND --help` lists, and
//!   their value lists (`--mode first|unique|count`) the values it accepts.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use regex::Regex;

use common::{copy_dir, repo_path};
use dlxbench::kinds::PuzzleKind;

/// One `$ COMMAND` line of a page and what it shows under it.
#[derive(Debug)]
struct Example {
    /// The page, relative to the repository (`README.md`, `docs/bench.md`).
    page: String,
    /// 1-based line of the `$` in the page.
    line: usize,
    /// The command, without `$ `, a trailing `# comment` and
    /// `; echo "exit $?"`.
    command: String,
    stdout: Vec<String>,
    stderr: Vec<String>,
    exit: Option<i32>,
}

fn examples(page: &str, text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        let command = command.split("    #").next().unwrap().trim();
        let (command, wants_exit) = match command.strip_suffix("; echo \"exit $?\"") {
            Some(c) => (c, true),
            None => (command, false),
        };
        let body: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
            .copied()
            .collect();
        let stderr: Vec<String> = body
            .iter()
            .filter_map(|l| l.strip_prefix("(stderr) "))
            .map(String::from)
            .collect();
        let mut stdout: Vec<String> = body
            .iter()
            .filter(|l| !l.starts_with("(stderr)"))
            // `time`'s report, on the shell's standard error.
            .filter(|l| !(command.starts_with("time ") && l.starts_with("real")))
            // `bench`'s note on stalls, which depends on the machine.
            .filter(|l| !l.starts_with(STALL_NOTE))
            .map(|l| l.to_string())
            .collect();
        trim_blank_end(&mut stdout);
        let mut exit = None;
        if wants_exit {
            let last = stdout.pop().unwrap_or_default();
            exit = Some(
                last.strip_prefix("exit ")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| {
                        panic!("{page} line {}: `exit N` expected, found {last:?}", i + 1)
                    }),
            );
            trim_blank_end(&mut stdout);
        }
        found.push(Example {
            page: page.to_string(),
            line: i + 1,
            command: command.to_string(),
            stdout,
            stderr,
            exit,
        });
    }
    found
}

fn trim_blank_end(lines: &mut Vec<String>) {
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
}

/// The start of `bench`'s note on solvers whose mean is above their p99
/// (a few stalls): whether it shows depends on the machine, so it is
/// compared on neither side.
const STALL_NOTE: &str = "Mean above p99";

/// Why an example is not run, or `None`.
fn skip_reason(command: &str) -> Option<&'static str> {
    if command.starts_with("dlxbench datasets ") {
        // `fetch` copies or downloads; `list` shows what this checkout has.
        return Some("its output is the state of this checkout's datasets/");
    }
    None
}

/// A path in a page under `datasets/` that is fetched, not committed.
fn is_fetched(path: &str) -> bool {
    path.starts_with("datasets/") && !path.starts_with("datasets/generated/")
}

/// How to run an example.
#[derive(Debug)]
enum Program {
    /// The dlxbench binary.
    Dlxbench,
    /// An example program built by cargo (`examples/NAME.rs`).
    CargoExample(String),
    /// The first `lines` lines of a file (all for `None`): `cat`, `head`.
    File(String, Option<usize>),
}

#[derive(Debug)]
struct Run {
    program: Program,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    /// `> FILE`: standard output must be FILE's content.
    redirect: Option<String>,
    /// Times or other machine-dependent values in the output.
    timed: bool,
    /// Paths the command reads, relative to the repository.
    reads: Vec<String>,
}

/// The `head -N FILE` or `cat FILE` of a command, as a program.
fn file_program(words: &[&str]) -> Option<Program> {
    match words {
        ["cat", file] => Some(Program::File(file.to_string(), None)),
        ["head", n, file] => {
            let n = n.strip_prefix('-')?.parse().ok()?;
            Some(Program::File(file.to_string(), Some(n)))
        }
        _ => None,
    }
}

fn read_lines(file: &str, lines: Option<usize>) -> Vec<u8> {
    // A fetched corpus that is not here (a fresh clone): the example reads
    // it, so only the test on fetched corpora runs it, after a fetch.
    if is_fetched(file) && !repo_path(file).exists() {
        return Vec::new();
    }
    let text = std::fs::read_to_string(repo_path(file))
        .unwrap_or_else(|e| panic!("{file}: {e} (a fetched corpus? dlxbench datasets fetch)"));
    let mut out = String::new();
    for line in text.lines().take(lines.unwrap_or(usize::MAX)) {
        out.push_str(line);
        out.push('\n');
    }
    out.into_bytes()
}

/// `printf`'s escapes in a single-quoted format.
fn printf(format: &str) -> Vec<u8> {
    format
        .replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\\", "\\")
        .into_bytes()
}

fn parse(example: &Example) -> Run {
    let at = |what: &str| {
        format!(
            "{} line {}: {what}: `{}`",
            example.page, example.line, example.command
        )
    };
    let mut command = example.command.as_str();
    let mut timed = false;
    if let Some(rest) = command.strip_prefix("time ") {
        command = rest;
        timed = true;
    }
    let mut reads = Vec::new();
    // Standard input from `echo`, `printf '...'`, `cat` or `head`.
    let mut stdin = None;
    if let Some(rest) = command.strip_prefix("printf '") {
        let (format, rest) = rest
            .split_once('\'')
            .unwrap_or_else(|| panic!("{}", at("unclosed quote")));
        stdin = Some(printf(format));
        command = rest
            .strip_prefix(" | ")
            .unwrap_or_else(|| panic!("{}", at("`printf` without a pipe")));
    } else if let Some((feed, rest)) = command.split_once(" | ") {
        let words: Vec<&str> = feed.split_whitespace().collect();
        stdin = Some(if let Some(text) = feed.strip_prefix("echo ") {
            format!("{text}\n").into_bytes()
        } else if let Some(Program::File(file, lines)) = file_program(&words) {
            reads.push(file.clone());
            read_lines(&file, lines)
        } else {
            panic!("{}", at("unsupported input"))
        });
        command = rest;
    }
    let (command, redirect) = match command.split_once(" > ") {
        Some((c, file)) => (c, Some(file.trim().to_string())),
        None => (command, None),
    };
    let command = command.strip_suffix(" 2>/dev/null").unwrap_or(command);
    assert!(
        !command.contains(['|', '>', '<', '\'', '"', ';', '$']),
        "{}",
        at("unsupported shell syntax")
    );
    let words: Vec<&str> = command.split_whitespace().collect();
    let (program, args) = if let Some(program) = file_program(&words) {
        if let Program::File(file, _) = &program {
            reads.push(file.clone());
        }
        (program, &[][..])
    } else if words.first() == Some(&"dlxbench") {
        (Program::Dlxbench, &words[1..])
    } else if let ["cargo", "run", "--release", "--example", name, rest @ ..] = words.as_slice() {
        timed = true;
        let rest = match rest {
            ["--", args @ ..] => args,
            [] => rest,
            _ => panic!("{}", at("arguments go after `--`")),
        };
        (Program::CargoExample(name.to_string()), rest)
    } else {
        panic!("{}", at("not a command this test can run"))
    };
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    if matches!(program, Program::Dlxbench) {
        timed |= matches!(args[0].as_str(), "bench" | "compare" | "cover");
    }
    reads.extend(
        args.iter()
            .filter(|a| a.contains('/') && !a.starts_with('/') && !a.starts_with("../"))
            .cloned(),
    );
    Run {
        program,
        args,
        stdin,
        redirect,
        timed,
        reads,
    }
}

/// Masks machine-dependent values (times, rates, thread counts,
/// timestamps, revisions, time verdicts; time columns of tables) so that
/// only what the code decides is compared.
struct Mask {
    time: Regex,
    rate: Regex,
    threads: Regex,
    stamp: Regex,
    rev: Regex,
    verdict: Regex,
    cells: Regex,
    /// In `bench`'s line on the virtual best solver: the single best
    /// (chosen by total time when solvers solve as many), the throughput
    /// ratio and the shares of wins, which depend on the times.
    virtual_best: Regex,
    share: Regex,
}

impl Mask {
    fn new() -> Self {
        let number = r"\d[\d,]*(?:\.\d+)?(?:e-?\d+)?";
        Mask {
            time: Regex::new(&format!(r"{number} ?(?:ns|µs|ms|s)\b")).unwrap(),
            rate: Regex::new(&format!(r"{number} ?(puzzles/s|[kMG]B/s)")).unwrap(),
            threads: Regex::new(r"\b\d+ threads?\b").unwrap(),
            stamp: Regex::new(r"\d{8}T\d{6}Z|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ").unwrap(),
            rev: Regex::new(r"\brev [0-9a-f]{7,40}\b").unwrap(),
            verdict: Regex::new(
                r"\b(?:OK|FAILED) \((\d+) algorithm changes?, \d+ time regressions?, \d+ improvements?\)(?:: [^*]*)?",
            )
            .unwrap(),
            cells: Regex::new(r"\s{2,}").unwrap(),
            virtual_best: Regex::new(
                r"(the single best, )\S+(: .* the virtual best )\d+(?:\.\d+)?x( its throughput)",
            )
            .unwrap(),
            share: Regex::new(r"\b\d+(?:\.\d+)?%").unwrap(),
        }
    }

    /// Whether a table column holds times, or rates or ratios of times.
    fn timed_column(name: &str) -> bool {
        matches!(
            name,
            "mean"
                | "p50"
                | "p90"
                | "p99"
                | "p99.9"
                | "max"
                | "puzzles/s"
                | "ratio"
                | "interval"
                | "change"
                | "throughput"
                | "verdict"
        ) || name.starts_with("vs ")
    }

    fn line(&self, line: &str) -> String {
        let vb: String;
        let line = match line.starts_with("Virtual best solver on ") {
            true => {
                let masked = self.virtual_best.replace(line, "$1<solver>$2<ratio>x$3");
                vb = self.share.replace_all(&masked, "<share>").into_owned();
                &vb
            }
            false => line,
        };
        let line = self.time.replace_all(line, "<time>");
        let line = self.rate.replace_all(&line, "<rate> $1");
        let line = self.threads.replace_all(&line, "<n> threads");
        let line = self.stamp.replace_all(&line, "<timestamp>");
        let line = self.rev.replace_all(&line, "rev <rev>");
        let line = self
            .verdict
            .replace_all(&line, "<verdict> ($1 algorithm changes, <time verdicts>)");
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// `lines` masked; in table rows of the solvers in `timed_out`, the
    /// outcome counts too.
    fn lines(&self, lines: &[String], timed_out: &BTreeSet<String>) -> Vec<String> {
        let mut header: Option<Vec<String>> = None;
        let mut out = Vec::with_capacity(lines.len());
        for line in lines {
            if line.trim().is_empty() {
                header = None;
                out.push(String::new());
                continue;
            }
            let cells: Vec<&str> = self.cells.split(line.trim()).collect();
            if cells.iter().any(|c| *c == "mean" || *c == "ratio") {
                header = Some(cells.iter().map(|c| c.to_string()).collect());
            } else if let Some(names) = header.as_ref().filter(|h| h.len() == cells.len()) {
                let row: Vec<String> = names
                    .iter()
                    .zip(&cells)
                    .map(|(name, cell)| {
                        let outcome = OUTCOME_COLUMNS.contains(&name.as_str());
                        match Self::timed_column(name) || outcome && timed_out.contains(cells[0]) {
                            true => "<masked>".to_string(),
                            false => self.line(cell),
                        }
                    })
                    .collect();
                out.push(row.join(" | "));
                continue;
            }
            out.push(self.line(line));
        }
        out
    }
}

/// The columns of `bench`'s table that count outcomes: a puzzle that runs
/// out of time (a time budget) moves from one of them to `budget`.
const OUTCOME_COLUMNS: &[&str] = &["solved", "no solution", "multiple", "budget"];

/// The solvers of the `bench` runs whose result directories are under
/// `dir/results` that ran out of time on some puzzle (status `budget` with
/// fewer nodes than their node budget): their outcome counts depend on the
/// machine's speed that time, not only on the code.
fn timed_out_solvers(dir: &Path) -> BTreeSet<String> {
    let mut solvers = BTreeSet::new();
    let Ok(runs) = std::fs::read_dir(dir.join("results")) else {
        return solvers;
    };
    for run in runs {
        let run = run.unwrap().path();
        let budgets: Vec<_> = common::read_csv(&run.join("summary.csv"))
            .into_iter()
            .map(|r| {
                let nodes = r["budget_nodes"].parse().unwrap_or(u64::MAX);
                ((r["corpus"].clone(), r["solver"].clone()), nodes)
            })
            .collect();
        let puzzles = run.join("puzzles.csv");
        if !puzzles.exists() {
            continue;
        }
        for row in common::read_csv(&puzzles) {
            let key = (row["corpus"].clone(), row["solver"].clone());
            let budget = budgets.iter().find(|(k, _)| *k == key).map(|(_, b)| *b);
            // Empty for solvers that do not report nodes (loaded ones).
            let nodes: Option<u64> = row["nodes"].parse().ok();
            if row["status"] == "budget" && budget.is_some_and(|b| nodes.is_some_and(|n| n < b)) {
                solvers.insert(key.1);
            }
        }
    }
    solvers
}

/// Whether `actual` is `expected`, where a `...` line of `expected` stands
/// for any number of lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| a == first && matches(rest, more)),
    }
}

fn assert_lines(what: &str, expected: &[String], actual: &[String]) {
    assert!(
        matches(expected, actual),
        "{what}\n--- the page shows:\n{}\n--- the command printed:\n{}\n",
        expected.join("\n"),
        actual.join("\n")
    );
}

fn text_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = String::from_utf8_lossy(bytes)
        .lines()
        .map(String::from)
        .collect();
    trim_blank_end(&mut lines);
    lines
}

/// The `/tmp/readme-*` directories of the pages' `compare` examples,
/// made in a temporary directory as the pages say they were.
struct Fixtures {
    dir: tempfile::TempDir,
}

impl Fixtures {
    fn new() -> Self {
        Fixtures {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The directory standing in for `name` (`/tmp/readme-a`), made now
    /// if it is not there yet; `example` is the one that uses it.
    fn get(&self, name: &str, example: &Example) -> PathBuf {
        let path = self.dir.path().join(name.trim_start_matches("/tmp/"));
        if path.exists() {
            return path;
        }
        let baseline = repo_path("results/baseline");
        let corpus = repo_path("datasets/generated/gen_9x9_1000.txt");
        match name {
            // Two runs of `results/make-baseline --out`, one after the
            // other: their node counts are the committed baseline's (CI
            // checks that the code still makes them) and their times are
            // masked, so copies of the baseline stand in for them.
            "/tmp/readme-a" | "/tmp/readme-b" => copy_dir(&baseline, &path),
            // A copy of the baseline with one `puzzles.csv` row edited, as
            // the example's own report says: `CORPUS x SOLVER: ...` and
            // `line L: nodes A -> B, updates C -> D`.
            "/tmp/readme-edited" => {
                copy_dir(&baseline, &path);
                edit_baseline_row(&path.join("puzzles.csv"), example);
            }
            // `bench` on gen_9x9_1000.txt without its last line.
            "/tmp/readme-alt" => {
                let text = std::fs::read_to_string(&corpus).unwrap();
                let mut lines: Vec<&str> = text.lines().collect();
                lines.pop();
                let input = self.dir.path().join("alt/gen_9x9_1000.txt");
                std::fs::create_dir_all(input.parent().unwrap()).unwrap();
                std::fs::write(&input, lines.join("\n") + "\n").unwrap();
                bench(&path, &[], &input);
            }
            // `bench --mode first` on gen_9x9_1000.txt.
            "/tmp/readme-first" => bench(&path, &["--mode", "first"], &corpus),
            // The C example solver, compiled as `docs/own-solver.md` says.
            "/tmp/readme-lib" => {
                std::fs::create_dir_all(&path).unwrap();
                common::shared_library(&path, "example", &repo_path("examples/c-solver/solver.c"));
            }
            _ => panic!(
                "{} line {}: no fixture for {name}",
                example.page, example.line
            ),
        }
        path
    }
}

fn bench(out: &Path, args: &[&str], corpus: &Path) {
    common::bench_into(
        out,
        &[&["--solvers", "dlx", "--quiet"], args].concat(),
        corpus,
    )
    .assert()
    .success();
}

/// Edits the row of `puzzles.csv` that the example's report names, from
/// its "before" counts (which must be the baseline's) to its "now" counts.
fn edit_baseline_row(puzzles: &Path, example: &Example) {
    let group = Regex::new(r"^\s*(\S+) x (\S+): total nodes").unwrap();
    let change =
        Regex::new(r"^\s*line (\d+): nodes ([\d,]+) -> ([\d,]+), updates ([\d,]+) -> ([\d,]+)$")
            .unwrap();
    let find = |re: &Regex| {
        example
            .stdout
            .iter()
            .find_map(|l| re.captures(l))
            .unwrap_or_else(|| panic!("{} line {}: no `{re}` line", example.page, example.line))
    };
    let (group, change) = (find(&group), find(&change));
    let number = |i: usize| change[i].replace(',', "");
    let text = std::fs::read_to_string(puzzles).unwrap();
    let mut rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let columns = rows[0].clone();
    let column = |name: &str| columns.iter().position(|c| c == name).unwrap();
    let (corpus, line, solver) = (column("corpus"), column("line"), column("solver"));
    let (nodes, updates) = (column("nodes"), column("updates"));
    let row = rows
        .iter_mut()
        .find(|r| r[corpus] == group[1] && r[solver] == group[2] && r[line] == change[1])
        .unwrap_or_else(|| panic!("no row {} in {}", &change[0], puzzles.display()));
    assert_eq!(
        (row[nodes].as_str(), row[updates].as_str()),
        (number(2).as_str(), number(4).as_str()),
        "{} line {}: the counts before are not the committed baseline's",
        example.page,
        example.line
    );
    row[nodes] = number(3);
    row[updates] = number(5);
    let edited: Vec<String> = rows.iter().map(|r| r.join(",")).collect();
    std::fs::write(puzzles, edited.join("\n") + "\n").unwrap();
}

/// The example program `name` that cargo built beside this test, if there
/// is one newer than its source and the library's (an older one would
/// print what older code did).
fn cargo_example(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent()?.parent()?;
    let path = profile.join("examples").join(name);
    let built = std::fs::metadata(&path).ok()?.modified().ok()?;
    let source = repo_path(&format!("examples/{name}.rs"));
    let newest = newest_change(&repo_path("src")).max(newest_change(&source));
    (built >= newest).then_some(path)
}

/// When `path`, or the newest file under it, last changed.
fn newest_change(path: &Path) -> std::time::SystemTime {
    let meta = std::fs::metadata(path).unwrap();
    if !meta.is_dir() {
        return meta.modified().unwrap();
    }
    std::fs::read_dir(path)
        .unwrap()
        .map(|e| newest_change(&e.unwrap().path()))
        .max()
        .unwrap_or(std::time::UNIX_EPOCH)
}

/// Runs `example`; `false` when it was skipped.
fn check(example: &Example, mask: &Mask, fixtures: &Fixtures) -> bool {
    let run = parse(example);
    let at = format!(
        "{} line {}: `{}`",
        example.page, example.line, example.command
    );
    let repo = repo_path("");
    let workdir = tempfile::tempdir().unwrap();
    let mut substitutions: Vec<(String, String)> = Vec::new();
    let mut args = run.args.clone();
    for arg in &mut args {
        if arg.starts_with("/tmp/readme-") {
            // The fixture is the directory; a path may go on inside it.
            let end = arg[5..].find('/').map_or(arg.len(), |i| i + 5);
            let (name, rest) = arg.split_at(end);
            let path = fixtures.get(name, example).display().to_string();
            substitutions.push((path.clone(), name.to_string()));
            *arg = format!("{path}{rest}");
        }
    }
    let output: Output = match &run.program {
        Program::File(file, lines) => Output {
            status: std::process::ExitStatus::default(),
            stdout: read_lines(file, *lines),
            stderr: vec![],
        },
        program => {
            let mut cmd = match program {
                Program::Dlxbench => common::dlxbench(),
                Program::CargoExample(name) => match cargo_example(name) {
                    Some(path) => Command::new(path),
                    None if std::env::var_os("CI").is_some() => {
                        panic!("{at}: examples/{name}.rs is not built, or older than its sources (cargo test builds it)")
                    }
                    None => {
                        eprintln!("{at}: skipped: examples/{name}.rs is not built, or older than its sources (`cargo test` builds the examples)");
                        return false;
                    }
                },
                Program::File(..) => unreachable!(),
            };
            // `bench` in an empty directory, as on a fresh clone.
            let cwd: &Path = if args.first().is_some_and(|a| a == "bench") {
                for arg in &mut args {
                    if repo.join(arg.as_str()).exists() && !arg.starts_with('-') {
                        *arg = repo.join(arg.as_str()).display().to_string();
                    }
                }
                workdir.path()
            } else {
                &repo
            };
            cmd.args(&args).current_dir(cwd);
            cmd.write_stdin(run.stdin.clone().unwrap_or_default());
            cmd.output().unwrap()
        }
    };
    let unsubstitute = |bytes: &[u8]| {
        let mut text = String::from_utf8_lossy(bytes).into_owned();
        for (path, name) in &substitutions {
            text = text.replace(path.as_str(), name);
        }
        text_lines(text.as_bytes())
    };
    let mut stdout = unsubstitute(&output.stdout);
    stdout.retain(|l| !l.starts_with(STALL_NOTE));
    let stderr = unsubstitute(&output.stderr);
    let expected_stdout = match &run.redirect {
        Some(file) => {
            assert!(example.stdout.is_empty(), "{at}: output shown for `> FILE`");
            text_lines(&read_lines(file, None))
        }
        None => example.stdout.clone(),
    };
    let timed_out = timed_out_solvers(workdir.path());
    if !timed_out.is_empty() {
        eprintln!("{at}: {timed_out:?} ran out of time on some puzzles: their outcome counts are not compared");
    }
    if run.timed {
        assert_lines(
            &format!("{at}: standard output (masked)"),
            &mask.lines(&expected_stdout, &timed_out),
            &mask.lines(&stdout, &timed_out),
        );
    } else {
        assert_lines(&format!("{at}: standard output"), &expected_stdout, &stdout);
    }
    if !example.stderr.is_empty() {
        assert_lines(
            &format!("{at}: standard error (masked)"),
            &mask.lines(&example.stderr, &timed_out),
            &mask.lines(&stderr, &timed_out),
        );
    }
    assert_eq!(
        output.status.code(),
        Some(example.exit.unwrap_or(0)),
        "{at}: exit status; standard error:\n{}",
        stderr.join("\n")
    );
    true
}

/// The pages: `README.md`, then every `docs/*.md` by name, each as its
/// path relative to the repository and its text.
fn pages() -> Vec<(String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(repo_path("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    names.sort();
    names.insert(0, "README.md".to_string());
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(repo_path(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// Runs the pages' examples that `fetched` selects by whether they read
/// fetched corpora; returns the commands run.
fn run_examples(fetched: bool) -> Vec<String> {
    let mask = Mask::new();
    let fixtures = Fixtures::new();
    let mut ran = Vec::new();
    let all: Vec<Example> = pages()
        .iter()
        .flat_map(|(page, text)| examples(page, text))
        .collect();
    for example in all {
        if let Some(reason) = skip_reason(&example.command) {
            eprintln!(
                "{} line {}: `{}` not run: {reason}",
                example.page, example.line, example.command
            );
            continue;
        }
        if parse(&example).reads.iter().any(|p| is_fetched(p)) != fetched {
            continue;
        }
        if check(&example, &mask, &fixtures) {
            ran.push(example.command.clone());
        }
    }
    ran
}

#[test]
fn readme_examples_print_what_the_readme_shows() {
    let ran = run_examples(false);
    for needed in [
        "solve", "check", "cover", "bench", "compare", "generate", "convert",
    ] {
        assert!(
            ran.iter()
                .any(|c| c.contains(&format!("dlxbench {needed}"))),
            "no `{needed}` example was run"
        );
    }
    assert!(ran.len() >= 25, "only {} examples were run", ran.len());
}

#[test]
#[ignore = "needs fetched corpora: dlxbench datasets fetch"]
fn readme_examples_on_fetched_corpora() {
    let ran = run_examples(true);
    for needed in ["rate", "convert", "bench"] {
        assert!(
            ran.iter()
                .any(|c| c.contains(&format!("dlxbench {needed}"))),
            "no `{needed}` example on a fetched corpus was run"
        );
    }
}

/// The options of `dlxbench SUBCOMMAND --help`: every long name (aliases
/// included) and, per option, the text of its entry.
fn help_options(subcommand: &str) -> Vec<(String, Vec<String>, String)> {
    let help = common::stdout_of(common::dlxbench().args([subcommand, "--help"]));
    let option = Regex::new(r"^\s+(?:-\w, )?--([a-z][a-z-]*)").unwrap();
    let alias = Regex::new(r"--([a-z][a-z-]*)").unwrap();
    let aliases = Regex::new(r"\[alias(?:es)?: ([^\]]*)\]").unwrap();
    let mut options: Vec<(String, Vec<String>, String)> = Vec::new();
    for line in help.lines() {
        if let Some(c) = option.captures(line) {
            options.push((c[1].to_string(), vec![], String::new()));
        }
        if let Some((_, names, text)) = options.last_mut() {
            text.push_str(line);
            text.push('\n');
            for c in aliases.captures_iter(line) {
                names.extend(alias.captures_iter(&c[1]).map(|a| a[1].to_string()));
            }
        }
    }
    options.retain(|(name, ..)| name != "help" && name != "version");
    options
}

/// The values an option's help entry lists: clap's possible values, else
/// the words it quotes in backticks.
fn help_values(text: &str) -> (bool, BTreeSet<String>) {
    let listed = Regex::new(r"\[possible values: ([^\]]*)\]").unwrap();
    if let Some(c) = listed.captures(text) {
        return (true, c[1].split(", ").map(String::from).collect());
    }
    let item = Regex::new(r"(?m)^\s+- ([a-z][a-z-]*):").unwrap();
    let items: BTreeSet<String> = item.captures_iter(text).map(|c| c[1].to_string()).collect();
    if !items.is_empty() {
        return (true, items);
    }
    let quoted = Regex::new(r"`([^`\s]+)`").unwrap();
    (
        false,
        quoted
            .captures_iter(text)
            .map(|c| c[1].to_string())
            .collect(),
    )
}

#[test]
fn readme_synopses_match_the_help() {
    let flag = Regex::new(r"--([a-z][a-z-]*)").unwrap();
    let valued = Regex::new(r"--([a-z][a-z-]*) ([^\s\[\]]*\|[^\s\[\]]*)").unwrap();
    let mut checked = Vec::new();
    for (page, text) in pages() {
        let lines: Vec<&str> = text.lines().collect();
        for (i, pair) in lines.windows(2).enumerate() {
            let Some(rest) = pair[1].strip_prefix("dlxbench ") else {
                continue;
            };
            if pair[0] != "```text" {
                continue;
            }
            let subcommand = rest.split_whitespace().next().unwrap();
            let block = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("```"))
                .copied()
                .collect::<Vec<_>>()
                .join("\n");
            let at = format!("{page} line {}: the synopsis of `{subcommand}`", i + 2);
            let options = help_options(subcommand);
            let shown: BTreeSet<String> = flag
                .captures_iter(&block)
                .map(|c| c[1].to_string())
                .collect();
            for name in &shown {
                assert!(
                    options
                        .iter()
                        .any(|(o, aliases, _)| o == name || aliases.contains(name)),
                    "{at}: --{name} is not an option of `dlxbench {subcommand}`"
                );
            }
            for (name, ..) in &options {
                assert!(
                    shown.contains(name),
                    "{at}: --{name} (in `dlxbench {subcommand} --help`) is missing"
                );
            }
            for c in valued.captures_iter(&block) {
                let name = &c[1];
                let values: BTreeSet<String> = c[2].split('|').map(String::from).collect();
                if name == "kind" {
                    let kinds: BTreeSet<String> = PuzzleKind::ALL
                        .iter()
                        .map(|k| k.name().to_string())
                        .collect();
                    assert_eq!(values, kinds, "{at}: --kind");
                }
                let (_, _, text) = options.iter().find(|(o, ..)| o == name).unwrap();
                let (exact, accepted) = help_values(text);
                if exact {
                    assert_eq!(values, accepted, "{at}: the values of --{name}");
                } else {
                    assert!(
                        values.is_subset(&accepted),
                        "{at}: --{name} {values:?}, the help names {accepted:?}"
                    );
                }
            }
            checked.push(subcommand.to_string());
        }
    }
    for needed in [
        "solve", "bench", "compare", "generate", "convert", "rate", "merge",
    ] {
        assert!(
            checked.iter().any(|c| c == needed),
            "no synopsis of `{needed}` found"
        );
    }
}

/// [`timed_out_solvers`] tells time-outs (fewer nodes than the node
/// budget) from node-budget outs, which the code alone decides.
#[test]
fn time_outs_are_told_from_node_budget_outs() {
    let corpus = repo_path("datasets/generated/hanidoku/gen_hanidoku_100.txt");
    for (budget, expected) in [
        (["--budget-time", "1ns", "--budget-nodes", "0"], vec!["dlx"]),
        (["--budget-time", "0", "--budget-nodes", "1000"], vec![]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("results/run");
        let args = [
            &["--kind", "hanidoku", "--solvers", "dlx", "--quiet"][..],
            &budget,
        ]
        .concat();
        common::bench_into(&out, &args, &corpus).assert().success();
        let over = common::read_csv(&out.join("summary.csv"))[0]["budget"].clone();
        assert_ne!(over, "0", "{budget:?}: no puzzle over budget");
        let found: Vec<String> = timed_out_solvers(dir.path()).into_iter().collect();
        assert_eq!(found, expected, "{budget:?}");
    }
}

/// The lines of `text` outside fenced code blocks, with their 1-based
/// numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut code = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            code = !code;
            continue;
        }
        if !code {
            out.push((i + 1, line));
        }
    }
    out
}

/// GitHub's anchor for a heading: lowercase, punctuation other than `-`
/// and `_` dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings, as GitHub makes them (a
/// repeated heading's anchor gets `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let heading = Regex::new(r"^#{1,6} +(.*?)#*\s*$").unwrap();
    let mut found = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let Some(c) = heading.captures(line) else {
            continue;
        };
        let base = slug(&c[1]);
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("`dlxbench bench`"), "dlxbench-bench");
    assert_eq!(
        slug("The published solvers, measured here"),
        "the-published-solvers-measured-here"
    );
    assert_eq!(slug("Time, in one run: `ab`"), "time-in-one-run-ab");
    assert_eq!(slug("file_formats and x-y"), "file_formats-and-x-y");
    let text = "# A\n```\n# not a heading\n```\n## A\n";
    let expected: BTreeSet<String> = ["a", "a-1"].iter().map(|s| s.to_string()).collect();
    assert_eq!(anchors(text), expected);
}

/// Every relative link of README.md and docs/*.md (`[text](docs/x.md)`,
/// `[text](x.md#anchor)`, `[text](#anchor)`, images too) leads to a file
/// or directory that exists and, with an anchor, to a heading of that
/// Markdown file.
#[test]
fn links_between_pages_resolve() {
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut checked = 0;
    for (page, text) in pages() {
        let dir = Path::new(&page).parent().unwrap().to_path_buf();
        for (line, prose) in prose_lines(&text) {
            for c in link.captures_iter(prose) {
                let target = &c[1];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let at = format!("{page} line {line}: link `{target}`");
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target, None),
                };
                let file = if path.is_empty() {
                    PathBuf::from(&page)
                } else {
                    dir.join(path)
                };
                let full = repo_path(file.to_str().unwrap());
                assert!(full.exists(), "{at}: {} does not exist", file.display());
                if let Some(anchor) = anchor {
                    assert!(
                        file.extension().is_some_and(|e| e == "md"),
                        "{at}: an anchor into a file that is not Markdown"
                    );
                    let target_text = std::fs::read_to_string(&full).unwrap();
                    let known = anchors(&target_text);
                    assert!(
                        known.contains(anchor),
                        "{at}: no heading `#{anchor}` in {}; its anchors: {known:?}",
                        file.display()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "only {checked} links checked");
}

/// The README is the front door: short, with the two set-up commands in
/// its first screen and a table of contents that names every page of
/// `docs/`.
#[test]
fn the_readme_is_a_front_door() {
    let readme = std::fs::read_to_string(repo_path("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() <= 500, "README.md has {} lines", lines.len());
    let first_screen = lines[..lines.len().min(60)].join("\n");
    for command in ["cargo install --locked --path .", "dlxbench bench"] {
        assert!(
            first_screen.contains(command),
            "`{command}` is not in the README's first screen"
        );
    }
    // --locked: the versions tested, which the committed lock file pins.
    assert!(repo_path("Cargo.lock").is_file());
    for (page, _) in pages().iter().skip(1) {
        let name = page.trim_start_matches("docs/");
        assert!(
            readme.contains(&format!("(docs/{name})")),
            "the README's table of contents does not link {page}"
        );
    }
}

/// Every page with a Rust code block is compiled as doctests: `src/lib.rs`
/// includes it (`#[doc = include_str!("../docs/PAGE.md")]`).
#[test]
fn pages_with_rust_blocks_are_doctests() {
    let lib = std::fs::read_to_string(repo_path("src/lib.rs")).unwrap();
    let mut included = 0;
    for (page, text) in pages() {
        if text.lines().any(|l| l.trim_start() == "```rust") {
            assert!(
                lib.contains(&format!("include_str!(\"../{page}\")")),
                "{page} has Rust code blocks, but src/lib.rs does not include it as doctests"
            );
            included += 1;
        }
    }
    assert!(included >= 1, "no page with a Rust code block");
}

/// The `sh` blocks of the pages (recipes with placeholders, commands on
/// corpora or libraries not at hand) are not run, but every `dlxbench`
/// command in them names only options its subcommand has.
#[test]
fn recipe_commands_name_existing_options() {
    let mut commands = Vec::new();
    for (page, text) in pages() {
        let mut block: Option<String> = None;
        for line in text.lines() {
            match (&mut block, line.trim_start()) {
                (None, "```sh") => block = Some(String::new()),
                (Some(b), "```") => {
                    commands.extend(
                        common::dlxbench_commands(b)
                            .into_iter()
                            // `datasets` takes its options after `fetch`;
                            // `DLXBENCH=.../dlxbench JOBS=2 script` sets a
                            // variable, it does not call dlxbench.
                            .filter(|(sub, _)| {
                                sub != "datasets"
                                    && sub.chars().all(|c| c.is_ascii_lowercase() || c == ' ')
                            })
                            .map(|c| (page.clone(), c)),
                    );
                    block = None;
                }
                (Some(b), _) => {
                    // Without its trailing `# comment`.
                    b.push_str(line.split(" #").next().unwrap());
                    b.push('\n');
                }
                (None, _) => {}
            }
        }
    }
    assert!(
        commands.len() >= 20,
        "only {} commands found",
        commands.len()
    );
    let subcommands: BTreeSet<&str> = commands.iter().map(|(_, (s, _))| s.as_str()).collect();
    for needed in ["bench", "ab", "compare", "merge", "plot"] {
        assert!(
            subcommands.contains(needed),
            "no `dlxbench {needed}` recipe"
        );
    }
    for (page, command) in &commands {
        eprintln!("{page}: dlxbench {} {:?}", command.0, command.1);
    }
    common::assert_options_exist(&commands.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
}

/// The pages that name the baseline's solvers name those of
/// `results/make-baseline`, the one place that defines them.
#[test]
fn the_baseline_s_solvers_are_named_as_make_baseline_runs_them() {
    let script = std::fs::read_to_string(repo_path("results/make-baseline")).unwrap();
    let solvers = script
        .lines()
        .find_map(|l| l.strip_prefix("SOLVERS="))
        .expect("SOLVERS= in results/make-baseline");
    for page in [
        "README.md",
        "docs/regression-tracking.md",
        "results/README.md",
    ] {
        let text = std::fs::read_to_string(repo_path(page)).unwrap();
        assert!(text.contains(solvers), "{page} does not name {solvers}");
    }
}
