//! Helpers shared by the integration tests: running the binary, files and
//! directories in a temporary place, reading the result files back, and the
//! shifting-pattern grids the fixtures are made of; in submodules, the
//! binary's counting allocator, the build of `libdlxbench.so`, the reading
//! of `images.csv` and a private Slurm cluster.

pub mod alloc;
#[cfg(target_os = "linux")]
pub mod ffi_build;
pub mod images;
#[cfg(unix)]
pub mod slurm;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The `dlxbench` binary that Cargo built for the tests.
pub fn dlxbench() -> Command {
    Command::cargo_bin("dlxbench").unwrap()
}

/// Runs `dlxbench bench ARGS --out OUT INPUT`; the caller asserts on it.
/// `INPUT` may be `-` (standard input) or a directory.
pub fn bench_into(out: &Path, args: &[&str], input: impl AsRef<Path>) -> Command {
    let mut cmd = dlxbench();
    cmd.arg("bench")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg(input.as_ref());
    cmd
}

/// The standard output of a command that must succeed (its standard error
/// is in the failure message).
pub fn stdout_of(cmd: &mut Command) -> String {
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "{}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// A temporary file holding `text`, removed when dropped.
pub fn file_with(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

/// Writes `contents` to `dir/name`; returns that path.
pub fn write_file(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// A path in the repository, from its root.
pub fn repo_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The names of the entries of `dir`, sorted.
pub fn dir_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// No temporary file (a name starting with `.`) is left in `dir`.
pub fn assert_no_temporaries(dir: &Path) {
    let hidden: Vec<String> = dir_entries(dir)
        .into_iter()
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "left in {}: {hidden:?}", dir.display());
}

/// A CSV file with a header line, as one map column name -> value per row.
pub fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// A JSON file.
pub fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `text`, a JSON document dlxbench wrote, as its typed schema `T`
/// (`dlxbench::results::output`), checked to be all of it: written back
/// (as dlxbench writes JSON, `dlxbench::results::to_json`), it is `text`
/// again, so a key the type lacks or spells otherwise fails here.
pub fn typed<T: serde::Serialize + serde::de::DeserializeOwned>(text: &str) -> T {
    let value: T = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("not the typed schema ({e}):\n{text}"));
    let again = dlxbench::results::to_json(&value).unwrap();
    assert_eq!(
        again.trim_end(),
        text.trim_end(),
        "the type lost or changed a field"
    );
    value
}

/// The puzzle lines of a corpus or of generator output: `#` comments and
/// blank lines dropped.
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
}

/// The generated 9x9 corpus the tests take their puzzles from.
pub const GEN_9X9: &str = "datasets/generated/gen_9x9_1000.txt";

/// The puzzle lines of [`GEN_9X9`], in order.
pub fn gen_9x9_puzzles() -> Vec<String> {
    let text = std::fs::read_to_string(repo_path(GEN_9X9)).unwrap();
    puzzle_lines(&text).map(str::to_string).collect()
}

/// The first `n` puzzles of [`GEN_9X9`], one a line, written to
/// `dir/name`; returns that path.
pub fn gen_9x9_corpus(dir: &Path, name: &str, n: usize) -> PathBuf {
    let lines: String = gen_9x9_puzzles()
        .iter()
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect();
    write_file(dir, name, lines)
}

/// The `dlxbench` binary's path, for `std::process::Command`.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_dlxbench"))
}

/// `git ARGS` in `dir`, which must succeed (a throwaway identity, no
/// signing, no system configuration): its standard output, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", stderr_text(&out));
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A finished process's standard error, as text.
pub fn stderr_text(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The committed generated corpus at `path` is what the command in its
/// first line (`# dlxbench ARGS`) prints, byte for byte.
pub fn assert_regenerates(path: &Path) {
    let committed = std::fs::read_to_string(path).unwrap();
    let header = committed.lines().next().unwrap();
    let command = header
        .strip_prefix("# dlxbench ")
        .unwrap_or_else(|| panic!("{}: header `{header}`", path.display()));
    let fresh = stdout_of(dlxbench().args(command.split(' ')));
    assert!(
        fresh == committed,
        "{} differs from `{command}`",
        path.display()
    );
}

/// A valid full grid of side `r*c` (boxes `r` rows by `c` columns), values
/// 1..=n row by row: the shifting pattern.
pub fn pattern(r: usize, c: usize) -> Vec<u8> {
    let n = r * c;
    (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            ((c * (row % r) + row / r + col) % n) as u8 + 1
        })
        .collect()
}

/// Blanks one cell per row of the side-`n` grid `cells`: the one in column
/// `column(row)`. Each blank is then forced by its row.
pub fn blank_one_per_row(cells: &mut [u8], n: usize, mut column: impl FnMut(usize) -> usize) {
    for row in 0..n {
        cells[row * n + column(row)] = 0;
    }
}

/// The one-line text of a grid of side `n`: the standard alphabet (`.` for
/// blank, 1-9, then A-Z and a-z) up to side 61, numbers separated by spaces
/// above.
pub fn line_of(cells: &[u8], n: usize) -> String {
    const SYMBOLS: &[u8] = b".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    if n <= 61 {
        cells.iter().map(|&v| SYMBOLS[v as usize] as char).collect()
    } else {
        cells
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Copies the files of `from` (not subdirectories) into `to`, created if
/// missing.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// The C compiler the `cc` crate finds for this machine, at `-O2`.
pub fn c_compiler() -> cc::Tool {
    let target = format!("{}-unknown-linux-gnu", std::env::consts::ARCH);
    cc::Build::new()
        .target(&target)
        .host(&target)
        .opt_level(2)
        .cargo_metadata(false)
        .get_compiler()
}

/// Compiles `source` into a shared library `lib{name}.so` in `dir`.
pub fn shared_library(dir: &Path, name: &str, source: &Path) -> PathBuf {
    let out = dir.join(format!("lib{name}.so"));
    let status = c_compiler()
        .to_command()
        .args(["-shared", "-fPIC", "-o"])
        .arg(&out)
        .arg(source)
        .status()
        .expect("a C compiler");
    assert!(status.success(), "compiling {}", source.display());
    out
}

/// The `dlxbench` calls in a script or workflow: `(subcommand, options)`
/// of each, lines joined over `\` continuations and comments skipped. A
/// call is a word that is `dlxbench` or a path ending in `/dlxbench`
/// (quotes and `"$DLXBENCH"`-style variables named for it included),
/// followed by the subcommand (`history add`: with its own subcommand).
pub fn dlxbench_commands(text: &str) -> Vec<(String, Vec<String>)> {
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if let Some(head) = line.strip_suffix('\\') {
            current.push_str(head);
            current.push(' ');
            continue;
        }
        current.push_str(line);
        joined.push(std::mem::take(&mut current));
    }
    let is_binary = |w: &str| {
        // `"$dlxbench"`, `--wrap="$dlxbench`: the last quoted or assigned part.
        let w = w.rsplit(['"', '=']).find(|p| !p.is_empty()).unwrap_or("");
        w == "dlxbench" || w.ends_with("/dlxbench") || w == "$dlxbench"
    };
    let mut found = Vec::new();
    for line in &joined {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            if !is_binary(w) {
                continue;
            }
            let Some(sub) = words.get(i + 1) else {
                continue;
            };
            // An option, or an assignment (`dlxbench=$dlxbench out=$out sbatch`).
            if sub.starts_with('-') || sub.contains('=') {
                continue;
            }
            // `history add`: a subcommand with subcommands of its own.
            let (sub, rest) = match (sub.trim_matches('"'), words.get(i + 2)) {
                ("history", Some(action)) => (format!("history {action}"), i + 3),
                (sub, _) => (sub.to_string(), i + 2),
            };
            let options = words[rest.min(words.len())..]
                .iter()
                .take_while(|w| !is_binary(w) && !matches!(**w, "|" | "&&" | ";" | "||"))
                .filter(|w| w.starts_with("--"))
                .map(|w| w.split('=').next().unwrap().to_string())
                .collect();
            found.push((sub, options));
        }
    }
    found
}

/// Every option of `commands` is one its subcommand's `--help` lists.
pub fn assert_options_exist(commands: &[(String, Vec<String>)]) {
    for (sub, options) in commands {
        let out = dlxbench()
            .args(sub.split(' '))
            .arg("--help")
            .output()
            .unwrap();
        assert!(out.status.success(), "dlxbench {sub} --help");
        let help = String::from_utf8(out.stdout).unwrap();
        for option in options {
            assert!(
                help.contains(&format!("{option} ")) || help.contains(&format!("{option}\n")),
                "`dlxbench {sub}` has no option {option}"
            );
        }
    }
}

/// The 64 bytes of a minimal little-endian 64-bit ELF header of a shared
/// object (`ET_DYN`) for machine `machine` (`e_machine`: 62 x86-64, 183
/// AArch64): no sections, no code; enough for a loader to read what
/// architecture the file is for.
pub fn tiny_elf(machine: u16) -> Vec<u8> {
    let mut b = vec![0u8; 64];
    b[..4].copy_from_slice(b"\x7fELF");
    b[4] = 2; // ELFCLASS64
    b[5] = 1; // ELFDATA2LSB
    b[6] = 1; // EV_CURRENT
    b[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
    b[18..20].copy_from_slice(&machine.to_le_bytes());
    b[20..24].copy_from_slice(&1u32.to_le_bytes()); // e_version
    b[52..54].copy_from_slice(&64u16.to_le_bytes()); // e_ehsize
    b
}

/// A FIFO (named pipe) at `dir/name`, made with `mkfifo`; returns its path.
#[cfg(unix)]
pub fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
    path
}

/// Makes the checksums in `dir/run.json` (`file_sha256`) those of the
/// files as they are now, as if the run had written them: for tests that
/// edit a result file to stand for another run (not for tampering, which
/// the checksums are there to catch). A file gone loses its checksum.
pub fn vouch(dir: &Path) {
    let path = dir.join("run.json");
    let mut run = read_json(&path);
    if let Some(sums) = run["file_sha256"].as_object_mut() {
        let names: Vec<String> = sums.keys().cloned().collect();
        for name in names {
            match dlxbench::results::checksum::sha256_file(&dir.join(&name)) {
                Ok(sum) => sums[&name] = sum.into(),
                Err(_) => {
                    sums.remove(&name);
                }
            }
        }
    }
    std::fs::write(&path, serde_json::to_string_pretty(&run).unwrap()).unwrap();
}

/// The deterministic columns of a result directory's `puzzles.csv`, in file
/// order: what must be equal between a merge of shards and the whole run
/// (times are not).
pub fn deterministic_puzzle_rows(dir: &Path) -> Vec<Vec<String>> {
    const KEEP: [&str; 9] = [
        "corpus",
        "line",
        "solver",
        "solutions",
        "nodes",
        "guesses",
        "status",
        "updates",
        "mems",
    ];
    read_csv(&dir.join("puzzles.csv"))
        .into_iter()
        .map(|r| KEEP.iter().map(|k| r[*k].clone()).collect())
        .collect()
}

/// The deterministic columns of a result directory's `summary.csv` (every
/// count and counter; no time).
pub fn deterministic_summary_rows(dir: &Path) -> Vec<Vec<String>> {
    const KEEP: [&str; 15] = [
        "corpus",
        "solver",
        "puzzles",
        "solved",
        "unsolvable",
        "multiple",
        "budget",
        "malformed",
        "invalid",
        "total_nodes",
        "guesses_per_puzzle",
        "no_guess_pct",
        "total_updates",
        "not_applicable",
        "total_mems",
    ];
    read_csv(&dir.join("summary.csv"))
        .into_iter()
        .map(|r| KEEP.iter().map(|k| r[*k].clone()).collect())
        .collect()
}

/// Says why test `test` did not run: on standard error (past the test
/// harness's capture, so it shows even when the test passes), or, under CI
/// (`CI` set), as a failure: `.ci/run` installs what the tests need
/// (Slurm, the Kubernetes schemas, the solvers' runtimes).
pub fn skip(test: &str, reason: &str) {
    let message = format!("SKIPPED: {test} did not run: {reason}");
    if std::env::var_os("CI").is_some() {
        panic!("{message} (under CI it must run: .ci/run installs what it needs)");
    }
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// The geometric means of the time and node ratios current / baseline of
/// `solver` on `corpus`, recomputed from the two `puzzles.csv` files
/// (nodes 0 as 1), over the puzzles timed in both; and their count.
pub fn work_means(base: &Path, cur: &Path, corpus: &str, solver: &str) -> (f64, f64, u64) {
    let rows = |dir: &Path| -> std::collections::BTreeMap<u64, (f64, f64)> {
        read_csv(&dir.join("puzzles.csv"))
            .into_iter()
            .filter(|r| r["corpus"] == corpus && r["solver"] == solver && r["status"] != "budget")
            .map(|r| {
                let nodes: f64 = r["nodes"].parse::<f64>().unwrap().max(1.0);
                (
                    r["line"].parse().unwrap(),
                    (r["ns"].parse().unwrap(), nodes),
                )
            })
            .collect()
    };
    let (b, c) = (rows(base), rows(cur));
    let (mut t, mut n, mut k) = (0.0, 0.0, 0u64);
    for (line, (bt, bn)) in &b {
        let Some((ct, cn)) = c.get(line) else {
            continue;
        };
        if *bt > 0.0 && *ct > 0.0 {
            t += (ct / bt).ln();
            n += (cn / bn).ln();
            k += 1;
        }
    }
    ((t / k as f64).exp(), (n / k as f64).exp(), k)
}

/// An HTML page that loads nothing: no script, link, import or URL but the
/// SVG namespace (an identifier, not a load).
pub fn assert_offline(html: &str, what: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"), "{what}");
    for bad in ["http://", "https://", "<script", "<link", "@import", "url("] {
        let found = html
            .match_indices(bad)
            .any(|(at, _)| !html[at..].starts_with("http://www.w3.org/2000/svg"));
        assert!(!found, "{what} has {bad}");
    }
}
