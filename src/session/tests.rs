//! Sessions run without the command line: the files they leave, their
//! outcome, the output directory's rules, baselines and stops.

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::*;
use crate::corpus::NoPuzzles;
use crate::report::schema;
use crate::solvers::SolverSet;
use crate::sudoku::Grid;

/// The first `n` puzzles of the embedded corpus, as corpus `name`.
fn tiny(name: &str, n: usize) -> Corpus {
    let text: Vec<u8> = String::from_utf8_lossy(crate::datasets::DEFAULT_CORPUS)
        .lines()
        .take(n + 1)
        .flat_map(|l| format!("{l}\n").into_bytes())
        .collect();
    Corpus::from_vec(name, text).unwrap()
}

fn lineup() -> Lineup<Grid> {
    Lineup::new(
        SolverSet::<Grid>::builtin()
            .select(&["dlx".into(), "heuristic".into()])
            .unwrap(),
    )
}

fn setup(lineup: &Lineup<Grid>) -> Setup<Grid> {
    let mut setup = Setup::new(lineup.clone());
    setup.config_mut().threads = 1;
    setup
}

fn session<'a>(corpora: &'a [Corpus], setup: &'a Setup<Grid>, output: Output) -> Session<'a, Grid> {
    Session {
        corpora,
        setup,
        reference: "dlx".into(),
        command_line: vec!["test".into()],
        output,
        per_puzzle: true,
        plots: true,
        exports: Vec::new(),
        strict: false,
        announce: true,
        echo_program: None,
    }
}

/// A new directory to write to, `path` (an earlier run's refused).
fn new_dir(path: PathBuf) -> Output {
    Output::Dir { path, force: false }
}

/// Records what it is told; with `stop_after`, sets `stop` when that many
/// corpora have ended (as a display whose reader went away does).
#[derive(Default)]
struct Recorder<'a> {
    notices: Mutex<Vec<String>>,
    started: AtomicUsize,
    done: AtomicUsize,
    ends: AtomicUsize,
    stop_after: Option<(usize, &'a AtomicBool)>,
}

impl Observer for Recorder<'_> {
    fn notice(&self, notice: &Notice) {
        self.notices.lock().unwrap().push(notice.to_string());
    }
    fn start_corpus(&self, _: usize, count: usize, _: &str, _: u64) {
        assert!(count > 0);
        self.started.fetch_add(1, Ordering::SeqCst);
    }
    fn corpus_done(&self, run: &RunResult, meta: &RunMeta) {
        let n = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        assert_eq!(run.corpora.len(), n);
        // The corpus's files are written before it is told.
        assert!(meta.out_dir.join(schema::RUN_JSON).is_file());
        // And `run.json` vouches for them: every checksum matches.
        let read = ResultDir::open(&meta.out_dir).unwrap();
        assert!(read.run.has_checksums());
        assert_eq!(read.checksums, crate::results::Checksums::Verified);
        assert!(read.run.file_sha256.contains_key(schema::SUMMARY_CSV));
        if let Some((after, stop)) = self.stop_after {
            if n == after {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    fn run_done(&self) {
        self.ends.fetch_add(1, Ordering::SeqCst);
    }
}

fn names(files: &[PathBuf]) -> Vec<String> {
    let mut names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_session_writes_its_files_and_tells_what_it_came_to() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let corpora = [tiny("small", 20), tiny("other", 10)];
    let lineup = lineup();
    let setup = setup(&lineup);
    let mut s = session(&corpora, &setup, new_dir(out.clone()));
    let export = tmp.path().join("bmf.json");
    s.exports = vec![(export::format("bmf").unwrap(), export.clone())];
    let observer = Recorder::default();
    let outcome = s.run(&observer, &AtomicBool::new(false)).unwrap();

    assert!(outcome.complete() && !outcome.stopped() && outcome.problems.is_empty());
    assert!(outcome.lost.is_empty(), "{:?}", outcome.lost);
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    assert!(outcome.unreadable.is_empty() && outcome.baseline.is_none());
    assert_eq!(outcome.dir, out);
    assert_eq!(outcome.meta.out_dir, out);
    assert_eq!(
        outcome.kept(),
        format!("kept the results of small, other in {}", out.display())
    );
    // The last run.json has the checksum of every data file, verified.
    let read = ResultDir::open(&out).unwrap();
    assert_eq!(read.checksums, crate::results::Checksums::Verified);
    let mut summed: Vec<&str> = read.run.file_sha256.keys().map(String::as_str).collect();
    summed.sort_unstable();
    assert_eq!(
        summed,
        [
            "histograms.json",
            "other.dlx.hgrm",
            "other.heuristic.hgrm",
            "puzzles.csv",
            "small.dlx.hgrm",
            "small.heuristic.hgrm",
            "summary.csv",
            "summary.md"
        ]
    );
    let run = &outcome.run;
    assert_eq!(run.corpora.len(), 2);
    assert_eq!((run.corpora[0].puzzles, run.corpora[1].puzzles), (20, 10));

    // Every file listed exists, and the directory holds the whole run.
    assert!(
        outcome.files.iter().all(|f| f.is_file()),
        "{:?}",
        outcome.files
    );
    let listed = names(&outcome.files);
    for file in [
        schema::SUMMARY_CSV,
        schema::PUZZLES_CSV,
        schema::RUN_JSON,
        schema::HISTOGRAMS_JSON,
        schema::SUMMARY_MD,
        schema::REPORT_HTML,
        "small.dlx.hgrm",
        "other.heuristic.hgrm",
        "small.latency.svg",
        "bmf.json",
    ] {
        assert!(listed.iter().any(|n| n == file), "{file} not in {listed:?}");
    }
    assert_eq!(outcome.files.last(), Some(&export));
    let on_disk: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let written: Vec<&PathBuf> = outcome
        .files
        .iter()
        .filter(|f| f.starts_with(&out))
        .collect();
    assert_eq!(names(&on_disk).len(), written.len(), "{on_disk:?}");
    let summary = std::fs::read_to_string(out.join(schema::SUMMARY_CSV)).unwrap();
    assert_eq!(summary.lines().count(), 1 + 2 * 2, "{summary}");
    let puzzles = std::fs::read_to_string(out.join(schema::PUZZLES_CSV)).unwrap();
    assert_eq!(puzzles.lines().count(), 1 + 30 * 2);

    // The observer heard the plan, each corpus after its files, the end.
    let notices = observer.notices.lock().unwrap();
    assert_eq!(
        *notices,
        ["2 corpora (small, other; about 32 lines) x 2 solvers (dlx, heuristic) on 1 thread"]
    );
    assert_eq!(observer.started.load(Ordering::SeqCst), 2);
    assert_eq!(observer.done.load(Ordering::SeqCst), 2);
    assert_eq!(observer.ends.load(Ordering::SeqCst), 1);
}

#[test]
fn an_earlier_run_is_refused_or_replaced_with_force_and_leftovers_go() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let corpora = [tiny("small", 5)];
    let lineup = lineup();
    let setup = setup(&lineup);
    let dir = |force| Output::Dir {
        path: out.clone(),
        force,
    };
    let mut first = session(&corpora, &setup, dir(false));
    first.plots = false;
    let earlier = first.run(&(), &AtomicBool::new(false)).unwrap().files.len();
    let before = std::fs::read(out.join(schema::RUN_JSON)).unwrap();

    // A killed run's temporary file, and a file of the user's.
    let stale = out.join(format!("{}summary.csv.x.tmp", atomic::PREFIX));
    std::fs::write(&stale, "half").unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();

    let refused = session(&corpora, &setup, dir(false))
        .run(&(), &AtomicBool::new(false))
        .unwrap_err();
    let message = refused.to_string();
    assert!(
        matches!(refused, SessionError::EarlierRun { count, .. } if count == earlier),
        "{message}"
    );
    assert!(
        message.starts_with(&format!(
            "--out {}: holds the results of an earlier run ({earlier} files, e.g. ",
            out.display()
        )),
        "{message}"
    );
    assert!(message.ends_with("use --force to replace them, or another directory"));
    // Refused: the earlier run is untouched; the leftover is gone.
    assert_eq!(std::fs::read(out.join(schema::RUN_JSON)).unwrap(), before);
    assert!(!stale.exists());

    std::fs::write(&stale, "half").unwrap();
    let observer = Recorder::default();
    let mut forced = session(&corpora, &setup, dir(true));
    forced.per_puzzle = false;
    forced.plots = false;
    forced.announce = false;
    let outcome = forced.run(&observer, &AtomicBool::new(false)).unwrap();
    assert!(outcome.complete());
    assert_eq!(
        *observer.notices.lock().unwrap(),
        [format!(
            "removed 1 temporary file(s) an interrupted run left in {}",
            out.display()
        )]
    );
    // One run's files only: the earlier puzzles.csv went with the rest;
    // the user's file stays.
    let left = names(
        &std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect::<Vec<_>>(),
    );
    assert!(!left.iter().any(|n| n == schema::PUZZLES_CSV), "{left:?}");
    assert!(left.iter().any(|n| n == "notes.txt"));
    assert_eq!(left.len(), outcome.files.len() + 1, "{left:?}");
    assert_ne!(std::fs::read(out.join(schema::RUN_JSON)).unwrap(), before);
}

#[test]
fn a_named_directory_says_corpus_shard_and_time() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = [tiny("my corpus", 3)];
    let lineup = lineup();
    let mut setup = setup(&lineup);
    setup.config_mut().shard = crate::shard::Shard::new(2, 3);
    let mut s = session(
        &corpora,
        &setup,
        Output::Named {
            parent: tmp.path().to_path_buf(),
        },
    );
    s.plots = false;
    let outcome = s.run(&(), &AtomicBool::new(false)).unwrap();
    let name = outcome
        .dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(outcome.dir.parent(), Some(tmp.path()));
    assert!(name.starts_with("my_corpus-shard2of3-"), "{name}");
    assert!(outcome.dir.join(schema::RUN_JSON).is_file());
}

#[test]
fn a_baseline_is_saved_only_when_the_run_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = [tiny("a", 5), tiny("b", 5)];
    let lineup = lineup();
    let setup = setup(&lineup);
    let baseline = |name: &str| Output::Baseline {
        parent: tmp.path().to_path_buf(),
        name: name.into(),
    };
    let dest = tmp.path().join("base");

    let mut s = session(&corpora, &setup, baseline("base"));
    s.plots = false;
    let saved = s.run(&(), &AtomicBool::new(false)).unwrap();
    assert!(matches!(saved.baseline, Some(Baseline::Saved)));
    assert_eq!(saved.dir, dest);
    assert_eq!(saved.meta.out_dir, dest);
    let before = std::fs::read(dest.join(schema::RUN_JSON)).unwrap();

    // Stopped after the first corpus: not saved, the earlier one stays,
    // and no temporary directory is left.
    let stop = AtomicBool::new(false);
    let observer = Recorder {
        stop_after: Some((1, &stop)),
        ..Recorder::default()
    };
    let mut s = session(&corpora, &setup, baseline("base"));
    s.plots = false;
    let stopped = s.run(&observer, &stop).unwrap();
    assert!(stopped.stopped() && !stopped.complete());
    assert!(stopped.kept().starts_with("kept the results of a in "));
    let not_saved = stopped.baseline.as_ref().unwrap();
    assert!(matches!(
        not_saved,
        Baseline::NotSaved {
            problems: false,
            ..
        }
    ));
    assert_eq!(
        not_saved.to_string(),
        format!(
            "baseline not saved: the run did not complete; {} is unchanged",
            dest.display()
        )
    );
    assert_eq!(std::fs::read(dest.join(schema::RUN_JSON)).unwrap(), before);
    let entries: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "{entries:?}");

    let bad = session(&corpora, &setup, baseline(".hidden"))
        .run(&(), &AtomicBool::new(false))
        .unwrap_err();
    assert!(matches!(bad, SessionError::BaselineName(_)), "{bad}");
}

#[test]
fn a_stop_before_the_start_keeps_nothing_but_writes_the_files() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = [tiny("a", 5)];
    let lineup = lineup();
    let setup = setup(&lineup);
    let mut s = session(&corpora, &setup, new_dir(tmp.path().join("run")));
    s.plots = false;
    let outcome = s.run(&(), &AtomicBool::new(true)).unwrap();
    assert!(outcome.stopped());
    assert!(outcome.run.corpora.iter().all(|c| c.lines_done == 0));
    assert!(tmp.path().join("run").join(schema::RUN_JSON).is_file());
}

#[test]
fn failures_after_the_run_are_warnings_and_a_corpus_of_noise_is_unreadable() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = [
        tiny("a", 3),
        Corpus::from_vec("noise", b"hello\nworld\n".to_vec()).unwrap(),
    ];
    let lineup = lineup();
    let setup = setup(&lineup);
    let mut s = session(&corpora, &setup, new_dir(tmp.path().join("run")));
    s.plots = false;
    let missing = tmp.path().join("no such dir").join("bmf.json");
    s.exports = vec![(export::format("bmf").unwrap(), missing.clone())];
    let outcome = s.run(&(), &AtomicBool::new(false)).unwrap();
    // The noise's lines are malformed (a problem: the input policy); with
    // no puzzle at all it is unreadable, not "mostly malformed".
    assert!(outcome.complete());
    assert_eq!(outcome.problems, [Problem::Malformed(2)]);
    assert!(outcome.mostly_malformed.is_empty());
    assert_eq!(outcome.warnings.len(), 1);
    let warning = outcome.warnings[0].to_string();
    assert!(
        warning.starts_with(&format!("--export bmf={}: ", missing.display())),
        "{warning}"
    );
    assert!(warning.ends_with("; the results are kept"), "{warning}");
    assert!(!outcome.files.contains(&missing));
    assert_eq!(
        outcome.unreadable,
        [Unreadable {
            file: "noise".into(),
            error: NoPuzzles::NoneReadable { unreadable: 2 }
        }]
    );
}

#[test]
fn a_locked_directory_is_refused_before_anything_in_it_is_touched() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    std::fs::create_dir(&out).unwrap();
    // Another run's temporary file, in a directory that run holds.
    let live = out.join(format!("{}puzzles.csv.x.tmp", atomic::PREFIX));
    std::fs::write(&live, "rows").unwrap();
    let held = DirLock::acquire(&out).unwrap();
    let corpora = [tiny("a", 3)];
    let lineup = lineup();
    let setup = setup(&lineup);
    let dir = Output::Dir {
        path: out.clone(),
        force: true,
    };
    let refused = session(&corpora, &setup, dir.clone())
        .run(&(), &AtomicBool::new(false))
        .unwrap_err();
    assert!(
        matches!(&refused, SessionError::Locked(LockError::Held { pid: Some(p), .. }) if *p == std::process::id()),
        "{refused}"
    );
    assert!(live.exists(), "the holder's temporary file stays");
    assert!(!out.join(schema::RUN_JSON).exists());

    // A baseline whose destination is held: refused, nothing left.
    let dest = tmp.path().join("base");
    std::fs::create_dir(&dest).unwrap();
    let held_base = DirLock::acquire(&dest).unwrap();
    let baseline = Output::Baseline {
        parent: tmp.path().to_path_buf(),
        name: "base".into(),
    };
    let refused = session(&corpora, &setup, baseline.clone())
        .run(&(), &AtomicBool::new(false))
        .unwrap_err();
    assert!(matches!(refused, SessionError::Locked(_)), "{refused}");
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 2);

    // Released: both run, and leave no lock file behind.
    drop((held, held_base));
    std::fs::remove_dir(&dest).unwrap();
    let mut s = session(&corpora, &setup, dir);
    s.plots = false;
    assert!(s.run(&(), &AtomicBool::new(false)).unwrap().complete());
    assert!(!live.exists(), "a leftover once no one holds the directory");
    assert!(!out.join(crate::dirlock::LOCK_FILE).exists());
    let mut s = session(&corpora, &setup, baseline);
    s.plots = false;
    let saved = s.run(&(), &AtomicBool::new(false)).unwrap();
    assert!(matches!(saved.baseline, Some(Baseline::Saved)));
    assert!(dest.join(schema::RUN_JSON).is_file());
    assert!(!dest.join(crate::dirlock::LOCK_FILE).exists());
}

#[test]
fn a_new_baseline_not_saved_leaves_no_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let corpora = [tiny("a", 3)];
    let lineup = lineup();
    let setup = setup(&lineup);
    let mut s = session(
        &corpora,
        &setup,
        Output::Baseline {
            parent: tmp.path().to_path_buf(),
            name: "base".into(),
        },
    );
    s.plots = false;
    let stopped = s.run(&(), &AtomicBool::new(true)).unwrap();
    assert!(matches!(stopped.baseline, Some(Baseline::NotSaved { .. })));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn malformed_lines_are_a_problem_and_a_mostly_malformed_corpus_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let good = String::from_utf8_lossy(crate::datasets::DEFAULT_CORPUS)
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let prose = format!("{good}\nSome prose.\nMore prose.\n");
    let few = format!("{good}\n{good}\n{good}\nnot a puzzle\n");
    let corpora = [
        Corpus::from_vec("prose", prose.into_bytes()).unwrap(),
        Corpus::from_vec("few", few.into_bytes()).unwrap(),
    ];
    let lineup = lineup();
    let setup = setup(&lineup);
    let out = new_dir(tmp.path().join("run"));
    let outcome = session(&corpora, &setup, out)
        .run(&(), &AtomicBool::new(false))
        .unwrap();
    // Not only with --strict: the input policy.
    assert_eq!(outcome.problems, [Problem::Malformed(3)]);
    assert!(outcome.run.failed(false));
    assert_eq!(
        outcome.mostly_malformed,
        [MostlyMalformed {
            file: "prose".into(),
            puzzles: 1,
            malformed: 2
        }]
    );
    assert!(outcome.mostly_malformed[0]
        .to_string()
        .starts_with("prose: 2 of its 3 puzzle lines are malformed (1 read): most likely not"));
    assert!(outcome.unreadable.is_empty());
    // What bench tells at the end: the suspect corpus, then the lines.
    let told = outcome.closing_messages();
    assert_eq!(told.len(), 2, "{told:?}");
    assert_eq!(told[0], outcome.mostly_malformed[0].to_string());
    assert!(told[1].starts_with("3 malformed line(s) skipped: a line that is not a puzzle"));
}

/// The note of what is on disk names the directory, the corpora kept and
/// every other one with its state, escaped; a baseline's says the
/// baseline is unchanged.
#[test]
fn the_exit_note_says_what_run_json_says() {
    let corpus = |name: &str, state| CorpusInfo {
        name: name.into(),
        lines: 20,
        lines_done: 10,
        state: Some(state),
        ..CorpusInfo::default()
    };
    let mut info = RunInfo {
        corpora: vec![
            corpus("a", CorpusState::Done),
            corpus("b\x1b[2J", CorpusState::Running),
            corpus("c", CorpusState::NotStarted),
        ],
        ..RunInfo::default()
    };
    let dir = Path::new("out");
    assert_eq!(
        exit_note(dir, None, &info),
        "out keeps the results of a; its run.json reads as a run that died (b\\x1b[2J \
         running: its results are lost, c not started)"
    );
    info.corpora[1].state = Some(CorpusState::Partial);
    info.corpora[0].state = Some(CorpusState::NotStarted);
    assert_eq!(
        exit_note(dir, Some(Path::new("results/base")), &info),
        "the baseline results/base is unchanged; out keeps no corpus's results; its run.json \
         reads as a run that died (a not started, b\\x1b[2J partial: 10 of 20 lines, c not \
         started)"
    );
}
