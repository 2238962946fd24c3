// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use std::path::{Path, PathBuf};

use super::*;
use crate::harness::SolverStats;
use crate::solvers::Status;

/// The committed baseline: a result directory of this format's files.
fn baseline() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results/baseline")
}

/// A run written before `run.json` had a schema version: the committed
/// baseline of 2026-11-26 (5 solvers, 3 corpora), its `puzzles.csv` cut to
/// the first 1,000 rows.
fn old_run() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/unversioned-run")
}

/// A `run.json` with every field set.
fn info() -> RunInfo {
    RunInfo {
        schema_version: Some(SCHEMA_VERSION),
        dlxbench_version: Some("0.1.0".into()),
        rustc_version: "rustc 1.95.0".into(),
        os: "linux".into(),
        arch: "x86_64".into(),
        facts: RunFacts {
            git_revision: None,
            binary_sha256: Some("ab".repeat(32)),
            command_line: vec!["dlxbench".into(), "bench".into()],
            cpu_model: Some("AMD EPYC".into()),
            cores: Some(2),
            threads: Some(2),
            started: Some("2026-11-26T10:37:09Z".into()),
            finished: Some("2026-11-26T10:37:10Z".into()),
            duration_s: Some(1.25),
            shard: Some(ShardInfo {
                index: None,
                count: 4,
                indices: vec![1, 2],
                rule: "line n (from 1) is in shard ((n - 1) mod count) + 1".into(),
            }),
            merged_from: Some(vec![PartFacts {
                dir: "a".into(),
                facts: RunFacts {
                    threads: Some(1),
                    ..RunFacts::default()
                },
                throughput: vec![Throughput {
                    corpus: "c".into(),
                    solver: "dlx".into(),
                    puzzles: 3,
                    puzzles_per_s: None,
                    mean_ns: 12.5,
                    p50_ns: 12,
                }],
            }]),
        },
        kind: "sudoku".into(),
        mode: Some("unique".into()),
        limit: Some(2),
        passes: Some(1),
        warmup: Some(0),
        shuffle_seed: None,
        permute_seed: Some(7),
        images: None,
        schedule_block: Some(64),
        solvers: vec![SolverInfo {
            name: "dlx".into(),
            description: "Knuth's Algorithm X".into(),
            budget_nodes: None,
            budget_time_s: Some(10.0),
            log_file: None,
            log_dropped_bytes: None,
        }],
        reference: Some("dlx".into()),
        states_created: 2,
        clock_overhead_ns: 20.0,
        problems: 0,
        interrupted: false,
        state: Some(RunState::Complete),
        pid: Some(4242),
        corpora: vec![CorpusInfo {
            name: "c".into(),
            path: Some("datasets/c.txt".into()),
            bytes: 820,
            sha256: Some("04d7".into()),
            lines: 10,
            lines_done: 10,
            complete: true,
            workers: 2,
            puzzles: 10,
            malformed: 0,
            allow_zero: false,
            parse_ns: 737,
            scan_ns: 3027,
            reader_mb_per_s: 217.89,
            wall_s: 0.21,
            changed_on_disk: false,
            file_stem: Some("c".into()),
            state: Some(CorpusState::Done),
            failures: Vec::new(),
        }],
        per_puzzle: true,
        out_dir: "results/x".into(),
        files: vec!["run.json".into(), "c.dlx.hgrm".into()],
        file_sha256: Default::default(),
        round_trip_floor: Some(RoundTripFloor {
            p50_ns: 8100,
            mean_ns: 8712.5,
            requests: 1000,
        }),
    }
}

/// Statistics of three solves.
fn stats() -> SolverStats {
    let mut s = SolverStats::new("dlx");
    for (ns, guesses) in [(1_000u64, 0u64), (2_500, 3), (777_777, 40)] {
        s.puzzles += 1;
        s.solved += 1;
        s.sum_ns += u128::from(ns);
        s.sum_sq_ns += (ns as f64).powi(2);
        s.total_guesses += guesses;
        s.histogram.record(ns).unwrap();
    }
    s.total_nodes = Some(123);
    s
}

/// A directory holding `run.json` (and `histograms.json`) as written.
fn written(info: &RunInfo, stats: Option<&SolverStats>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(schema::RUN_JSON), to_json(info).unwrap()).unwrap();
    if let Some(s) = stats {
        let set = HistogramSet {
            unit: "ns".into(),
            significant_figures: Some(3),
            encoding: "HdrHistogram V2+DEFLATE, base64".into(),
            histograms: vec![HistogramEntry::of("c", s)],
        };
        let path = dir.path().join(schema::HISTOGRAMS_JSON);
        std::fs::write(path, to_json(&set).unwrap()).unwrap();
    }
    dir
}

#[test]
fn a_round_trip_gives_the_values_written() {
    let info = info();
    let s = stats();
    let dir = written(&info, Some(&s));
    let read = ResultDir::open(dir.path()).unwrap();
    assert_eq!(read.run, info);
    assert_eq!(read.path, dir.path());
    assert!(read.histograms_json.is_some() && read.summary_csv.is_none());
    let back = read.stats().unwrap();
    assert_eq!(back.len(), 1);
    let (corpus, b) = &back[0];
    assert_eq!((corpus.as_str(), b.name.as_str()), ("c", "dlx"));
    assert_eq!(
        (b.puzzles, b.sum_ns, b.total_nodes, b.total_updates),
        (3, 781_277, Some(123), None)
    );
    assert_eq!(b.sum_sq_ns, s.sum_sq_ns);
    assert_eq!(b.histogram, s.histogram);
    // What the reader makes of it for the reports.
    let config = read.config().unwrap();
    assert_eq!(config.solvers(), ["dlx"]);
    assert_eq!(config.budgets()[0].max_nodes, u64::MAX);
    assert_eq!(
        (config.limit, config.permute, config.schedule.block),
        (2, Some(7), 64)
    );
    let result = read.run_result().unwrap();
    assert_eq!(result.corpora[0].solvers[0].histogram, s.histogram);
    assert_eq!((result.threads, result.corpora[0].workers), (2, 2));
}

#[test]
fn keys_are_written_sorted_with_nulls() {
    let text = to_json(&info()).unwrap();
    let keys: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  \"") && !l.starts_with("   "))
        .map(|l| l.trim().split('"').nth(1).unwrap())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(keys, sorted);
    assert!(keys.contains(&"git_revision") && keys.contains(&"schema_version"));
    assert!(text.contains("\"git_revision\": null"), "{text}");
    assert!(text.contains("\"shuffle_seed\": null"), "{text}");
}

#[test]
fn a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let e = ResultDir::open(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("no run.json: not the result directory of a run"),
        "{e}"
    );
    assert!(e.starts_with(&dir.path().display().to_string()), "{e}");
    let dir = written(&info(), None);
    let read = ResultDir::open(dir.path()).unwrap();
    let e = read.stats().unwrap_err();
    assert!(matches!(e, ResultError::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("histograms.json"), "{e}");
}

#[test]
fn a_malformed_field_is_named_with_its_file() {
    let dir = written(&info(), Some(&stats()));
    let path = dir.path().join(schema::RUN_JSON);
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = |from: &str, to: &str, field: &str| {
        assert!(text.contains(from), "{from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let e = ResultDir::open(dir.path()).unwrap_err();
        let message = e.to_string();
        assert!(
            matches!(&e, ResultError::Field { field: f, .. } if f == field),
            "{field}: {message}"
        );
        assert!(
            message.contains("run.json") && message.contains(field),
            "{message}"
        );
    };
    bad("\"bytes\": 820", "\"bytes\": \"820\"", "corpora[0].bytes");
    bad("\"limit\": 2", "\"limit\": -2", "limit");
    bad(
        "\"budget_time_s\": 10.0",
        "\"budget_time_s\": true",
        "solvers[0].budget_time_s",
    );
    // A field of the run's facts (written among the others).
    bad("\"threads\": 2", "\"threads\": \"two\"", "threads");
    bad("\"count\": 4", "\"count\": 4.5", "shard.count");
    // Names that would reach out of the directory.
    bad(
        "\"file_stem\": \"c\"",
        "\"file_stem\": \"../c\"",
        "corpora[0].file_stem",
    );
    bad("\"c.dlx.hgrm\"", "\"../c.dlx.hgrm\"", "files[1]");
    // Not JSON at all.
    std::fs::write(&path, "{not json").unwrap();
    let e = ResultDir::open(dir.path()).unwrap_err();
    assert!(matches!(e, ResultError::Json { .. }) && e.to_string().contains("run.json"));
    std::fs::write(&path, &text).unwrap();

    // histograms.json: an entry that does not hold its counted solves.
    let path = dir.path().join(schema::HISTOGRAMS_JSON);
    let text = std::fs::read_to_string(&path).unwrap();
    // The message of reading the statistics of `text`.
    let stats_error = |text: String| {
        std::fs::write(&path, text).unwrap();
        let read = ResultDir::open(dir.path()).unwrap();
        read.stats().unwrap_err().to_string()
    };
    let e = stats_error(text.replacen("\"puzzles\": 3", "\"puzzles\": 4", 1));
    assert!(
        e.contains("histograms.json") && e.contains("`histograms[0]`") && e.contains("holds 3"),
        "{e}"
    );
    let e = stats_error(text.replacen("\"no_guess\"", "\"no_guesses\"", 1));
    assert!(
        e.contains("histograms[0].stats") && e.contains("no_guess"),
        "{e}"
    );
}

/// The files of an earlier run are those its `run.json` lists, or those
/// its corpora and solvers imply, never a file by its ending alone.
#[test]
fn the_files_of_a_run_are_those_it_lists() {
    let names = |files: Vec<PathBuf>| -> Vec<String> {
        files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    let mut info = info();
    let dir = written(&info, None);
    for f in ["c.dlx.hgrm", "logo.svg", "notes.hgrm", "summary.csv"] {
        std::fs::write(dir.path().join(f), "x").unwrap();
    }
    std::fs::create_dir(dir.path().join("c.cost.svg")).unwrap();
    // As listed (summary.csv is not, here).
    assert_eq!(
        names(ResultDir::run_files(dir.path()).unwrap()),
        ["run.json", "c.dlx.hgrm"]
    );
    // A run.json from before the list: the names of its corpora and
    // solvers (not the directory named like a picture).
    info.files.clear();
    info.corpora[0].file_stem = None;
    std::fs::write(dir.path().join(schema::RUN_JSON), to_json(&info).unwrap()).unwrap();
    assert_eq!(
        info.result_files(),
        [
            "summary.csv",
            "puzzles.csv",
            "run.json",
            "histograms.json",
            "summary.md",
            "report.html",
            "c.dlx.hgrm",
            "c.percentiles.svg",
            "c.latency.svg",
            "c.cost.svg",
            "c.speed.svg"
        ]
    );
    assert_eq!(
        names(ResultDir::run_files(dir.path()).unwrap()),
        ["summary.csv", "run.json", "c.dlx.hgrm"]
    );
    // A run that found problems has them all in problems.txt.
    let mut troubled = info.clone();
    troubled.problems = 3;
    let mut expected = info.result_files();
    expected.insert(6, "problems.txt".to_string());
    assert_eq!(troubled.result_files(), expected);
    // No run.json that reads: the fixed names only.
    std::fs::write(dir.path().join(schema::RUN_JSON), "{broken").unwrap();
    assert_eq!(
        names(ResultDir::run_files(dir.path()).unwrap()),
        ["summary.csv", "run.json"]
    );
    assert!(ResultDir::run_files(&dir.path().join("missing"))
        .unwrap()
        .is_empty());
}

#[test]
fn stems_are_read_as_recorded_or_computed_for_old_files() {
    let mut info = info();
    info.corpora[0].file_stem = Some("c-2".into());
    let mut second = info.corpora[0].clone();
    second.name = "C".into();
    second.file_stem = None;
    info.corpora.push(second);
    // Recorded, else as the run would have named it.
    assert_eq!(info.file_stems(), ["c-2", "C-2"]);
    info.corpora[0].file_stem = None;
    assert_eq!(info.file_stems(), ["c", "C-2"]);
}

/// `rows` as a CSV file with its header.
/// `rows` as `puzzles.csv`, written by the one writer.
fn puzzles_text(rows: &[PuzzleRecord]) -> String {
    let mut out = Vec::new();
    super::puzzles::write_header(&mut out).unwrap();
    for r in rows {
        r.write_csv(&mut out);
    }
    String::from_utf8(out).unwrap()
}

/// The rows of the `puzzles.csv` at `path` (at most `max`), read by the
/// one reader.
fn read_puzzles(path: &Path, max: usize) -> Result<Vec<PuzzleRecord>, ResultError> {
    let mut reader = PuzzleReader::open(path)?;
    let mut rows = Vec::new();
    while rows.len() < max {
        match reader.next()? {
            Some(row) => rows.push(row.to_owned()),
            None => break,
        }
    }
    Ok(rows)
}

/// The rows of `text` as a `puzzles.csv`, read by the one reader.
fn read_puzzles_text(text: &str) -> Result<Vec<PuzzleRecord>, ResultError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(schema::PUZZLES_CSV);
    std::fs::write(&path, text).unwrap();
    read_puzzles(&path, usize::MAX)
}

fn csv_text<T: serde::Serialize>(rows: &[T]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// The committed baseline is a run of this version: its checksums verify
/// and every file is what these types write, byte for byte.
#[test]
fn the_committed_baseline_reads_and_writes_back_byte_for_byte() {
    let dir = ResultDir::open(&baseline()).unwrap();
    assert_eq!(dir.run.schema_version, Some(super::SCHEMA_VERSION));
    assert_eq!(dir.checksums, Checksums::Verified);
    assert_eq!(dir.run.facts.threads, Some(2));
    let solvers = dir.config().unwrap().solvers().len();
    assert_eq!(dir.stats().unwrap().len(), 3 * solvers);

    let text = std::fs::read_to_string(baseline().join(schema::RUN_JSON)).unwrap();
    let back = serde_json::to_value(&dir.run).unwrap();
    assert_eq!(serde_json::to_string_pretty(&back).unwrap(), text);
    let text = std::fs::read_to_string(baseline().join(schema::HISTOGRAMS_JSON)).unwrap();
    assert_eq!(to_json(&dir.histograms().unwrap()).unwrap(), text);
    let text = std::fs::read_to_string(baseline().join(schema::SUMMARY_CSV)).unwrap();
    let rows: Vec<SummaryRow> = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(csv_text(&rows), text);
    let path = baseline().join(schema::PUZZLES_CSV);
    let text = std::fs::read_to_string(&path).unwrap();
    let rows = read_puzzles(&path, usize::MAX).unwrap();
    assert_eq!(puzzles_text(&rows), text);
}

/// A run from before the schema version reads, and its files are what
/// these types write, byte for byte, but for the keys and columns added
/// since: no key, column or number format changed.
#[test]
fn an_unversioned_run_reads_and_writes_back_byte_for_byte() {
    let dir = ResultDir::open(&old_run()).unwrap();
    assert_eq!(dir.run.schema_version, None);
    assert_eq!(dir.run.facts.binary_sha256, None);
    assert_eq!(dir.run.facts.threads, Some(2));
    assert_eq!(dir.config().unwrap().solvers().len(), 5);
    assert_eq!(dir.stats().unwrap().len(), 15);

    let text = std::fs::read_to_string(old_run().join(schema::RUN_JSON)).unwrap();
    let mut back = serde_json::to_value(&dir.run).unwrap();
    // The keys this version adds.
    let object = back.as_object_mut().unwrap();
    object.remove("schema_version");
    object.remove("files");
    object.remove("binary_sha256");
    for corpus in object["corpora"].as_array_mut().unwrap() {
        corpus.as_object_mut().unwrap().remove("file_stem");
    }
    assert_eq!(serde_json::to_string_pretty(&back).unwrap(), text);

    let text = std::fs::read_to_string(old_run().join(schema::HISTOGRAMS_JSON)).unwrap();
    assert_eq!(to_json(&dir.histograms().unwrap()).unwrap(), text);

    let text = std::fs::read_to_string(old_run().join(schema::SUMMARY_CSV)).unwrap();
    let rows: Vec<SummaryRow> = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 15);
    // The columns this version adds (the speed ratio's) come last, empty
    // in a file from before them.
    let added = schema::summary::COLUMNS.len() - 33;
    assert_eq!(schema::summary::COLUMNS[33], schema::summary::SPEED_VS);
    assert!(rows
        .iter()
        .all(|r| r.speed_vs.is_none() && r.speed_note.is_none()));
    let back: String = csv_text(&rows)
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            if i > 0 {
                assert!(fields[fields.len() - added..].iter().all(|f| f.is_empty()));
            }
            format!("{}\n", fields[..fields.len() - added].join(","))
        })
        .collect();
    assert_eq!(back, text);
    assert_eq!(
        text.lines().next().unwrap(),
        schema::summary::COLUMNS[..33].join(",")
    );

    let path = old_run().join(schema::PUZZLES_CSV);
    let text = std::fs::read_to_string(&path).unwrap();
    // The baseline is from before `mems`: its columns are the schema's
    // first ones (up to `cause` at least), and the later ones read empty.
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let kept = header.len();
    let cause = schema::puzzles::COLUMNS
        .iter()
        .position(|c| *c == schema::puzzles::CAUSE)
        .unwrap();
    assert!(kept > cause, "{header:?}");
    assert_eq!(header, schema::puzzles::COLUMNS[..kept]);
    let rows = read_puzzles(&path, 1000).unwrap();
    if kept < schema::puzzles::COLUMNS.len() {
        assert!(rows.iter().all(|r| r.mems.is_none()));
    }
    let back: String = puzzles_text(&rows)
        .lines()
        .map(|line| {
            format!(
                "{}\n",
                line.split(',').take(kept).collect::<Vec<_>>().join(",")
            )
        })
        .collect();
    assert!(text.starts_with(&back));
}

/// `mems` is a column of `puzzles.csv` and `total_mems` the last of
/// `summary.csv`: each round-trips, empty when not recorded; in
/// `histograms.json` the total is there when recorded and absent (as in
/// files from before it) when not.
#[test]
fn mems_round_trip_in_every_file() {
    let record = |solver: &str, mems| PuzzleRecord {
        corpus: "c".into(),
        line: 3,
        solver: solver.into(),
        ns: 100,
        solutions: 1,
        nodes: Some(9),
        guesses: 0,
        status: Status::Unique,
        updates: Some(40),
        round_trip_ns: None,
        cause: None,
        mems,
        host: None,
        round_trip_group: None,
    };
    let rows = [record("dc", Some(5140)), record("dlx", None)];
    let text = puzzles_text(&rows);
    assert_eq!(
        text,
        format!(
            "{}\nc,3,dc,100,1,9,0,unique,40,,,5140,,\nc,3,dlx,100,1,9,0,unique,40,,,,,\n",
            schema::puzzles::COLUMNS.join(",")
        )
    );
    assert_eq!(read_puzzles_text(&text).unwrap(), rows);

    let summary = |total_mems| SummaryRow {
        corpus: "c".into(),
        solver: "dc".into(),
        total_mems,
        ..SummaryRow::default()
    };
    for total in [Some(5140), None] {
        let text = csv_text(&[summary(total)]);
        let (header, row) = text.split_once('\n').unwrap();
        assert_eq!(header, schema::summary::COLUMNS.join(","));
        let at = schema::summary::COLUMNS
            .iter()
            .position(|c| *c == schema::summary::TOTAL_MEMS)
            .unwrap();
        let field = row.trim_end().split(',').nth(at).unwrap();
        assert_eq!(field, total.map_or(String::new(), |t| t.to_string()));
        let back: Vec<SummaryRow> = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back[0].total_mems, total);
    }

    let mut s = stats();
    let json = to_json(&HistogramEntry::of("c", &s)).unwrap();
    assert!(!json.contains("total_mems"), "{json}");
    s.total_mems = Some(5140);
    let dir = written(&info(), Some(&s));
    let back = ResultDir::open(dir.path()).unwrap().stats().unwrap();
    assert_eq!(back[0].1.total_mems, Some(5140));
}

#[test]
fn puzzle_records_read_old_files_and_refuse_unknown_statuses() {
    let old = "corpus,line,solver,ns,solutions,nodes,guesses,status\nc,3,dlx,100,1,,0,budget\n";
    let rows = read_puzzles_text(old).unwrap();
    assert_eq!(
        rows,
        [PuzzleRecord {
            corpus: "c".into(),
            line: 3,
            solver: "dlx".into(),
            ns: 100,
            solutions: 1,
            nodes: None,
            guesses: 0,
            status: Status::Budget,
            updates: None,
            round_trip_ns: None,
            cause: None,
            mems: None,
            host: None,
            round_trip_group: None,
        }]
    );
    // Nor does one from before `mems` (up to `cause`).
    let before_mems =
        "corpus,line,solver,ns,solutions,nodes,guesses,status,updates,round_trip_ns,cause\n\
                       c,3,dlx,100,1,9,0,unique,40,,\n";
    let rows = read_puzzles_text(before_mems).unwrap();
    assert_eq!((rows[0].updates, rows[0].mems), (Some(40), None));
    let bad = old.replace("budget", "maybe");
    let e = read_puzzles_text(&bad).unwrap_err();
    assert!(e.to_string().contains("unknown status `maybe`"), "{e}");
}

/// A run whose `run.json` holds the checksums of its data files (one
/// histogram; a picture, not checksummed; `summary.csv` listed but not
/// there), and that `run.json`.
fn checksummed_run() -> (tempfile::TempDir, RunInfo) {
    let mut info = info();
    info.files = vec![
        "run.json".into(),
        "c.dlx.hgrm".into(),
        "summary.csv".into(),
        "c.cost.svg".into(),
    ];
    let dir = written(&info, None);
    std::fs::write(dir.path().join("c.dlx.hgrm"), "Value Percentile\n1.0 0.5\n").unwrap();
    std::fs::write(dir.path().join("c.cost.svg"), "<svg/>").unwrap();
    info.file_sha256 = checksum::checksums(dir.path(), &info.files).unwrap();
    let run_json = dir.path().join(schema::RUN_JSON);
    std::fs::write(&run_json, to_json(&info).unwrap()).unwrap();
    (dir, info)
}

/// `run.json` vouches for the data files with their SHA-256: a file edited,
/// deleted or added later is refused, naming it, unless accepted.
#[test]
fn checksums_are_verified_by_the_reader() {
    let (dir, info) = checksummed_run();
    let hgrm = dir.path().join("c.dlx.hgrm");
    // Only the data files there get one (not run.json, not a picture, not
    // summary.csv which is not there).
    assert_eq!(info.file_sha256.keys().collect::<Vec<_>>(), ["c.dlx.hgrm"]);
    assert_eq!(
        info.file_sha256["c.dlx.hgrm"],
        checksum::sha256_file(&hgrm).unwrap()
    );
    let read = ResultDir::open(dir.path()).unwrap();
    assert_eq!(read.checksums, Checksums::Verified);
    assert_eq!(read.run.file_sha256, info.file_sha256);
    // A picture redrawn is no change.
    std::fs::write(dir.path().join("c.cost.svg"), "<svg>other</svg>").unwrap();
    ResultDir::open(dir.path()).unwrap();

    // Edited (one byte), then truncated.
    std::fs::write(&hgrm, "Value Percentile\n1.0 0.6\n").unwrap();
    let e = ResultDir::open(dir.path()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: c.dlx.hgrm does not match the checksum in run.json: edited or truncated",
            dir.path().display()
        )
    );
    std::fs::write(&hgrm, "Value Percentile\n").unwrap();
    assert!(matches!(
        ResultDir::open(dir.path()),
        Err(ResultError::Modified { .. })
    ));
    // Accepted knowingly: read, the difference said.
    let read = ResultDir::open_with(dir.path(), Verify::AcceptModified).unwrap();
    assert_eq!(
        read.modified(),
        [Modified {
            file: "c.dlx.hgrm".into(),
            change: checksum::Change::Edited
        }]
    );
    // Deleted; and a data file there that run.json has no checksum of.
    std::fs::remove_file(&hgrm).unwrap();
    std::fs::write(dir.path().join("summary.csv"), "corpus\n").unwrap();
    let e = ResultDir::open(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains("c.dlx.hgrm has a checksum in run.json but is missing: deleted or moved; summary.csv has no checksum in run.json"),
        "{e}"
    );
}

/// A writer that died may have written a file and not run.json: the run
/// reads, the files named in the warning.
#[test]
fn a_died_writer_reads_with_the_differences_in_its_warning() {
    let (dir, info) = checksummed_run();
    std::fs::remove_file(dir.path().join("c.dlx.hgrm")).unwrap();
    std::fs::write(dir.path().join("summary.csv"), "corpus\n").unwrap();
    let mut died = info.clone();
    died.state = Some(RunState::Running);
    died.pid = None;
    let run_json = dir.path().join(schema::RUN_JSON);
    std::fs::write(&run_json, to_json(&died).unwrap()).unwrap();
    let read = ResultDir::open(dir.path()).unwrap();
    assert!(matches!(read.state, DirState::Died { .. }));
    assert_eq!(read.modified().len(), 2);
    let w = read.warning().unwrap();
    assert!(
        w.contains("c.dlx.hgrm, summary.csv not as run.json records"),
        "{w}"
    );
}

/// A run from before checksums reads unverified.
#[test]
fn a_run_from_before_checksums_reads_unverified() {
    let (dir, info) = checksummed_run();
    let run_json = dir.path().join(schema::RUN_JSON);
    let mut old = info.clone();
    old.schema_version = Some(1);
    old.file_sha256.clear();
    std::fs::write(&run_json, to_json(&old).unwrap()).unwrap();
    assert_eq!(
        ResultDir::open(dir.path()).unwrap().checksums,
        Checksums::NotRecorded
    );
    old.schema_version = None;
    std::fs::write(&run_json, to_json(&old).unwrap()).unwrap();
    assert_eq!(
        ResultDir::open(dir.path()).unwrap().checksums,
        Checksums::NotRecorded
    );
    // The baseline of 2026-11-26 is such a run.
    assert_eq!(
        ResultDir::open(&old_run()).unwrap().checksums,
        Checksums::NotRecorded
    );
}

/// A checksum that is not one, or of a name that is not a data file, is
/// refused.
#[test]
fn a_malformed_checksum_is_refused() {
    let (dir, info) = checksummed_run();
    let run_json = dir.path().join(schema::RUN_JSON);
    let mut bad = info.clone();
    bad.file_sha256.insert("summary.csv".into(), "XYZ".into());
    std::fs::write(&run_json, to_json(&bad).unwrap()).unwrap();
    let e = ResultDir::open(dir.path()).unwrap_err();
    assert!(
        matches!(&e, ResultError::Field { field, .. } if field == "file_sha256.summary.csv"),
        "{e}"
    );
    let mut bad = info.clone();
    bad.file_sha256.insert("../x.csv".into(), "ab".repeat(32));
    std::fs::write(&run_json, to_json(&bad).unwrap()).unwrap();
    assert!(matches!(
        ResultDir::open(dir.path()),
        Err(ResultError::Field { .. })
    ));
}

/// Parts merged carry their failure notes, kept as a run keeps them: the
/// first ones by line over all the parts.
#[test]
fn merged_parts_carry_their_failure_notes() {
    let text = |line: u64| format!("line {line}: dlx crashed (signal 11): stderr `boom`");
    let part = |lines: &[u64]| {
        let mut info = info();
        info.corpora[0].failures = vec![FailureCounts {
            solver: "dlx".into(),
            crashed: lines.len() as u64,
            notes: lines.iter().map(|&l| text(l)).collect(),
            ..FailureCounts::default()
        }];
        written(&info, Some(&stats()))
    };
    let (a, b) = (part(&[1, 3, 7, 9]), part(&[2, 4, 6]));
    let parts = [
        ResultDir::open(a.path()).unwrap(),
        ResultDir::open(b.path()).unwrap(),
    ];
    let config = parts[0].config().unwrap();
    let merged = ResultDir::merged(&parts, &config).unwrap();
    let notes: Vec<String> = merged.corpora[0]
        .failures
        .iter()
        .map(ToString::to_string)
        .collect();
    let expected: Vec<String> = [1, 2, 3, 4, 6].into_iter().map(text).collect();
    assert_eq!(notes, expected);
    // A single directory read back has its own.
    let one = parts[1].run_result().unwrap();
    assert_eq!(one.corpora[0].failures.len(), 3);
}
