//! `bench --images K`: each puzzle solved as K symmetry images, and per
//! solver the spread of nodes and time across a puzzle's images. The
//! figures the run reports (the table's notes) are recomputed here from
//! `images.csv` alone, read as plain CSV, with arithmetic of the test's
//! own (not the library's `harness::images`).

use crate::common;
use crate::common::images;

use std::path::{Path, PathBuf};

use common::{bench_into, dlxbench, read_csv, read_json, repo_path, stdout_of, write_file};
use images::{cv, median, Rows};

const SOLVERS: [&str; 3] = ["dlx", "dc", "locked"];
const IMAGES: usize = 4;

/// The first `n` puzzles of the generated 9x9 corpus, as `c9.txt`.
fn corpus(dir: &Path, n: usize) -> PathBuf {
    common::gen_9x9_corpus(dir, "c9.txt", n)
}

/// Runs `bench --images 4 --permute 1` over 120 puzzles; returns the
/// result directory and the standard output.
fn run(tmp: &Path) -> (PathBuf, String) {
    let input = corpus(tmp, 120);
    let out = tmp.join("run");
    let stdout = stdout_of(&mut bench_into(
        &out,
        &[
            "-j1",
            "--solvers",
            &SOLVERS.join(","),
            "--images",
            "4",
            "--permute",
            "1",
            "--no-plots",
        ],
        &input,
    ));
    (out, stdout)
}

/// The rows of `dir/images.csv`, all of corpus `c9`.
fn rows_of(dir: &Path) -> Rows {
    let mut all = images::rows_by_corpus(dir);
    assert!(all.keys().all(|c| c == "c9"), "{:?}", all.keys());
    all.remove("c9").unwrap_or_default()
}

#[test]
fn the_reported_spread_is_recomputed_from_images_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, stdout) = run(tmp.path());
    assert!(
        stdout.contains("symmetry images (seed 1), 4 images per puzzle"),
        "{stdout}"
    );
    let rows = rows_of(&out);
    assert_eq!(rows.len(), SOLVERS.len());
    for solver in SOLVERS {
        let lines = &rows[solver];
        assert_eq!(lines.len(), 120, "{solver}");
        for (&line, images) in lines {
            let order: Vec<usize> = images.iter().map(|r| r.image).collect();
            assert_eq!(
                order,
                (0..IMAGES).collect::<Vec<_>>(),
                "{solver} line {line}"
            );
            // Image 0 is --permute 1's image: seed 1; the others differ.
            assert_eq!(images[0].seed, "1");
            for r in &images[1..] {
                assert_ne!(r.seed, "1");
            }
            assert!(images.iter().all(|r| r.status == "unique"));
            assert!(images.iter().all(|r| r.nodes.unwrap() > 0));
        }
        let want = images::recompute(lines, IMAGES);
        assert_eq!((want.puzzles, want.left_out), (120, 0), "{solver}");
        images::check(&images::reported(&stdout, solver), &want, solver);
    }
    // summary.md has the same notes.
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("Symmetry images on c9: 4 per puzzle"), "{md}");
    // run.json records the images and lists the file, with its checksum.
    let info = read_json(&out.join("run.json"));
    assert_eq!(info["images"], 4);
    assert_eq!(info["permute_seed"], 1);
    let files: Vec<&str> = info["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(files.contains(&"images.csv"), "{files:?}");
    assert!(info["file_sha256"]["images.csv"].is_string());
}

#[test]
fn the_solution_counts_agree_across_images_and_image_0_is_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = run(tmp.path());
    let rows = rows_of(&out);
    // Image 0's rows are puzzles.csv's: the run is --permute 1's.
    let mut puzzles = 0;
    for p in read_csv(&out.join("puzzles.csv")) {
        let line: u64 = p["line"].parse().unwrap();
        let image0 = &rows[&p["solver"]][&line][0];
        assert_eq!(image0.status, p["status"]);
        assert_eq!(image0.solutions.to_string(), p["solutions"]);
        assert_eq!(image0.nodes.unwrap().to_string(), p["nodes"]);
        assert_eq!(image0.ns.to_string(), p["ns"]);
        puzzles += 1;
    }
    assert_eq!(puzzles, 120 * SOLVERS.len());
    for (solver, lines) in &rows {
        for (line, images) in lines {
            let counts: Vec<u64> = images.iter().map(|r| r.solutions).collect();
            assert!(
                counts.iter().all(|&c| c == 1),
                "{solver} line {line}: {counts:?}"
            );
        }
    }
    // No problem was found: none reported.
    assert!(!out.join("problems.txt").exists());
}

#[test]
fn images_need_a_permute_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 3);
    dlxbench()
        .args(["bench", "-q", "--images", "4", "--no-plots"])
        .arg("--out")
        .arg(tmp.path().join("x"))
        .arg(&input)
        .assert()
        .failure()
        .code(2);
    // One image is the run without images: no images.csv.
    let out = tmp.path().join("one");
    stdout_of(&mut bench_into(
        &out,
        &["-q", "--images", "1", "--permute", "3", "--no-plots"],
        &input,
    ));
    assert!(!out.join("images.csv").exists());
    assert!(read_json(&out.join("run.json")).get("images").is_none());
}

/// The start of a solver wrapping the Python example (its path the first
/// argument): the example loaded as a module, its `answer` kept as
/// `honest`; the wrapper's `answer` follows, then [`WRAPPED_END`].
const WRAPPED_START: &str = r#"
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location("example", sys.argv[1])
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)
honest = example.answer
"#;

/// The end of a wrapper: its `answer` put in place of the example's, and
/// the example's loop run.
const WRAPPED_END: &str = r#"
example.answer = answer
example.HEADER = "dlxbench-protocol 1"
example.main()
"#;

/// Writes the wrapper of the Python example whose `answer` is `answer` to
/// `dir/NAME.py`; returns the `--solver-cmd=NAME=...` argument that runs
/// it, with `args` after the example's path.
fn wrapped_example(dir: &Path, name: &str, answer: &str, args: &str) -> String {
    let script = write_file(
        dir,
        &format!("{name}.py"),
        format!("{WRAPPED_START}{answer}{WRAPPED_END}"),
    );
    let example = repo_path("examples/solvers/python/solver.py");
    format!(
        "--solver-cmd={name}=python3 {} {}{args}",
        script.display(),
        example.display()
    )
}

/// A solver in its own process (the Python example's search) that answers
/// "no solution" whenever the puzzle's first cell is given: a solver that
/// depends on the presentation, whose counts differ across images.
const LIAR: &str = r#"
def answer(request):
    response = honest(request)
    puzzle = request.split(" ")[2]
    if puzzle[0] != "." and response[:1].isdigit():
        return "0 -"
    return response
"#;

#[test]
fn a_solver_whose_counts_differ_across_images_is_a_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 10);
    let liar = wrapped_example(tmp.path(), "liar", LIAR, "");
    let out = tmp.path().join("run");
    let output = bench_into(
        &out,
        &[
            "-q",
            "-j1",
            "--solvers",
            "dlx,liar",
            &liar,
            "--images",
            "4",
            "--permute",
            "1",
            "--no-plots",
        ],
        &input,
    )
    .output()
    .unwrap();
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let problems = std::fs::read_to_string(out.join("problems.txt")).unwrap();
    let rows = rows_of(&out);
    // Recomputed from images.csv: the lines where the liar's counts differ.
    let expected: Vec<u64> = rows["liar"]
        .iter()
        .filter(|(_, images)| images.iter().any(|r| r.solutions != images[0].solutions))
        .map(|(&line, _)| line)
        .collect();
    assert!(!expected.is_empty(), "the images all agree: {problems}");
    let reported: Vec<u64> = problems
        .lines()
        .filter(|l| l.contains("liar's solution counts differ across symmetry images"))
        .map(|l| {
            let rest = l.strip_prefix("c9 line ").unwrap();
            rest[..rest.find(':').unwrap()].parse().unwrap()
        })
        .collect();
    assert_eq!(reported, expected, "{problems}");
    assert!(
        !problems.contains("dlx's solution counts differ"),
        "{problems}"
    );
}

/// The Python example, with a request counter kept in a file (argv 2, so
/// that it survives the restart after a crash): request 13 and 26 crash
/// the process (exit 3), request 18 is answered with a grid of ones (an
/// invalid answer). Alone, on one worker, over 10 puzzles with 4 images,
/// requests 1 to 10 are image 0's, so those are solves of images 1 to 3.
const FAILING: &str = r#"
counter = sys.argv[2]

def answer(request):
    n = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
    with open(counter, "w") as f:
        f.write(str(n))
    if n in (13, 26):
        os._exit(3)
    if n == 18:
        return "1 " + "1" * len(request.split(" ")[2])
    return honest(request)
"#;

#[test]
fn failures_on_the_other_images_are_counted_as_image_0_failures_are() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 10);
    let counter = tmp.path().join("requests");
    let odd = wrapped_example(
        tmp.path(),
        "odd",
        FAILING,
        &format!(" {}", counter.display()),
    );
    let out = tmp.path().join("run");
    let output = bench_into(
        &out,
        &[
            "-j1",
            "--solvers",
            "odd",
            &odd,
            "--images",
            "4",
            "--permute",
            "1",
            "--no-plots",
        ],
        &input,
    )
    .output()
    .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // A failure on any image fails the run, as one on image 0 does.
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    // Image 0 (puzzles.csv) is all well: the failures are the images'.
    let image0 = read_csv(&out.join("puzzles.csv"));
    assert_eq!(image0.len(), 10);
    assert!(image0.iter().all(|r| r["status"] == "unique"), "{image0:?}");
    // images.csv's status says what happened to each image's solve.
    let rows = rows_of(&out);
    let with = |status: &str| -> Vec<(u64, usize)> {
        let mut v: Vec<(u64, usize)> = rows["odd"]
            .iter()
            .flat_map(|(&line, images)| {
                images
                    .iter()
                    .filter(|r| r.status == status)
                    .map(move |r| (line, r.image))
            })
            .collect();
        v.sort();
        v
    };
    let crashed = with("crashed");
    let invalid = with("invalid");
    assert_eq!(crashed.len(), 2, "{rows:?}");
    assert_eq!(invalid.len(), 1, "{rows:?}");
    assert!(crashed.iter().chain(&invalid).all(|&(_, image)| image > 0));
    // Counted among the failed solves: run.json, the table's note.
    let info = read_json(&out.join("run.json"));
    let failures = &info["corpora"][0]["failures"][0];
    assert_eq!(failures["solver"], "odd");
    assert_eq!(failures["crashed"], 0);
    assert_eq!(failures["image_failed"], crashed.len());
    assert!(
        stdout.contains("c9: odd failed 2 solves of symmetry images other than image 0"),
        "{stdout}"
    );
    // problems.txt names each failure with its image, and the invalid
    // answer as a problem of its image.
    let problems = std::fs::read_to_string(out.join("problems.txt")).unwrap();
    for (line, image) in &crashed {
        let prefix = format!("c9 line {line}: odd crashed");
        let suffix = format!("on symmetry image {image}");
        assert!(
            problems
                .lines()
                .any(|l| l.starts_with(&prefix) && l.contains(&suffix)),
            "{prefix} ... {suffix}:\n{problems}"
        );
    }
    let (line, image) = invalid[0];
    assert!(
        problems.contains(&format!(
            "c9 line {line}, symmetry image {image}: odd returned an invalid solution: odd=1 \
             (invalid)"
        )),
        "{problems}"
    );
    // The puzzles with a failed image are left out of the spread.
    let mut lines: Vec<u64> = crashed.iter().chain(&invalid).map(|f| f.0).collect();
    lines.sort();
    lines.dedup();
    let prefix = "  odd: ";
    // The images' line (a line of work against cost per unit also starts
    // with the solver's name).
    let note = stdout
        .lines()
        .find(|l| l.starts_with(prefix) && l.contains(" left out)"))
        .unwrap();
    assert!(
        note.starts_with(&format!(
            "  odd: {} puzzles ({} left out)",
            10 - lines.len(),
            lines.len()
        )),
        "{note}"
    );
}

/// `images.csv` with its `ns` column emptied (the times of two runs
/// differ; everything else is the code's).
fn without_times(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("images.csv")).unwrap();
    text.lines()
        .map(|l| match l.rsplit_once(',') {
            Some((rest, _)) => format!("{rest},\n"),
            None => format!("{l}\n"),
        })
        .collect()
}

/// The images note of `solver` in `summary.md` without its time CV: the
/// puzzles, left out, median node ratio and widest spreads.
fn node_figures(dir: &Path, solver: &str) -> String {
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    let line = md
        .lines()
        .find(|l| {
            // A nested list item of summary.md: `  - dlx: ...`.
            let l = l.trim_start_matches(['-', ' ']);
            l.starts_with(&format!("{solver}: ")) && l.contains("left out")
        })
        .unwrap_or_else(|| panic!("no images note for {solver}:\n{md}"));
    let (nodes, rest) = line.split_once(", median time CV ").unwrap();
    let widest = rest.split_once("; widest: ").map_or("", |w| w.1);
    format!("{nodes}; {widest}")
}

#[test]
fn shards_run_with_images_merge_to_the_unsharded_run() {
    let tmp = tempfile::tempdir().unwrap();
    let input = corpus(tmp.path(), 30);
    let cmd = wrapped_example(tmp.path(), "liar", LIAR, "");
    let run = |name: &str, extra: &[&str]| -> PathBuf {
        let out = tmp.path().join(name);
        let mut args = vec![
            "-q",
            "-j1",
            "--solvers",
            "dlx,liar",
            &cmd,
            "--permute",
            "1",
            "--no-plots",
        ];
        args.extend(extra);
        let output = bench_into(&out, &args, &input).output().unwrap();
        // The liar's counts depend on the presentation: problems, exit 1.
        assert_eq!(
            output.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        out
    };
    let whole = run("whole", &["--images", "4"]);
    let parts = [
        run("s1", &["--images", "4", "--shard", "1/2"]),
        run("s2", &["--images", "4", "--shard", "2/2"]),
    ];
    let merged = tmp.path().join("merged");
    let output = dlxbench()
        .arg("merge")
        .args(&parts)
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(merged.join("images.csv").exists(), "{stderr}");
    // The shards' rows, gathered in line order: the unsharded run's rows
    // (times apart), and each row as its shard wrote it.
    assert_eq!(without_times(&merged), without_times(&whole));
    let mut from_parts: Vec<String> = parts
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p.join("images.csv")).unwrap();
            text.lines().skip(1).map(str::to_string).collect::<Vec<_>>()
        })
        .collect();
    let key = |l: &String| {
        let f: Vec<u64> = l.split(',').map(|x| x.parse().unwrap_or(0)).collect();
        // line, solver (dlx before liar), image
        (f[1], !l.contains(",dlx,"), f[3])
    };
    from_parts.sort_by_key(key);
    let merged_text = std::fs::read_to_string(merged.join("images.csv")).unwrap();
    let merged_rows: Vec<String> = merged_text.lines().skip(1).map(str::to_string).collect();
    assert_eq!(merged_rows, from_parts);
    // The same problems, found again from the merged rows, in the same
    // order: those of image 0 and those across and on the other images.
    let problems = std::fs::read_to_string(merged.join("problems.txt")).unwrap();
    assert_eq!(
        problems,
        std::fs::read_to_string(whole.join("problems.txt")).unwrap()
    );
    assert!(
        problems.contains("liar's solution counts differ across symmetry images"),
        "{problems}"
    );
    // The notes: the node figures are the unsharded run's; the time CV is
    // recomputed from the merged rows.
    assert_eq!(node_figures(&merged, "dlx"), node_figures(&whole, "dlx"));
    let rows = rows_of(&merged);
    let cvs: Vec<f64> = rows["dlx"]
        .values()
        .map(|images| cv(&images.iter().map(|r| r.ns).collect::<Vec<_>>()))
        .collect();
    let md = std::fs::read_to_string(merged.join("summary.md")).unwrap();
    assert!(
        md.contains(&format!("median time CV {:.3}", median(cvs))),
        "{md}"
    );
    let info = read_json(&merged.join("run.json"));
    assert_eq!(info["images"], 4);
    assert!(info["file_sha256"]["images.csv"].is_string());
    // Parts run with another K are not merged.
    let other = run("other", &["--images", "3", "--shard", "2/2"]);
    let refused = dlxbench()
        .arg("merge")
        .arg(&parts[0])
        .arg(&other)
        .arg("--out")
        .arg(tmp.path().join("refused"))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("the parts differ in symmetry images"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}
