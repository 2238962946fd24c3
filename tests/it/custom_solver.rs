//! A solver added at run time, with no edit of a registry, measured and
//! cross-checked by the same harness and reports as `dlxbench bench`
//! (the code of `examples/custom_solver.rs`).

#[path = "../../examples/custom_solver.rs"]
#[allow(dead_code)]
mod example;

use dlxbench::corpus::Corpus;
use dlxbench::harness::{self, Lineup, Setup};
use dlxbench::report::{self, RunMeta};

#[test]
fn a_solver_added_at_run_time_runs_through_bench() {
    let set = example::solver_set();
    assert_eq!(
        set.names(),
        [
            "dlx",
            "dc",
            "heuristic",
            "singles",
            "locked",
            "naive",
            "backtrack"
        ]
    );
    let text = std::fs::read("datasets/generated/gen_6x6_100.txt").unwrap();
    let corpus = Corpus::from_vec("gen_6x6_100", text).unwrap();
    let lineup = Lineup::new(set.select(&["dlx".into(), "backtrack".into()]).unwrap());
    let mut setup = Setup::new(lineup);
    setup.config_mut().threads = 2;
    let result = harness::run(&[corpus], &setup, None, None).unwrap();
    assert!(
        result.discrepancies.is_empty(),
        "{:?}",
        result.discrepancies
    );
    let c = &result.corpora[0];
    assert_eq!(c.puzzles, 100);
    let toy = &c.solvers[1];
    assert_eq!(toy.name, "backtrack");
    assert_eq!((toy.puzzles, toy.solved, toy.invalid), (100, 100, 0));
    assert!(toy.total_nodes > Some(0) && toy.total_guesses > 0);

    let dir = tempfile::tempdir().unwrap();
    let meta = RunMeta {
        command_line: vec!["test".into()],
        reference: "dlx".into(),
        sha256: vec![String::new()],
        out_dir: dir.path().to_path_buf(),
        per_puzzle: false,
        merged: None,
        binary_sha256: None,
        progress: None,
        round_trip_floor: None,
        logs: Vec::new(),
    };
    report::write_all(&result, setup.config(), &meta, dir.path()).unwrap();
    let summary = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let row = summary
        .lines()
        .find(|l| l.starts_with("gen_6x6_100,backtrack,"))
        .expect("a summary row for the added solver");
    assert!(
        row.starts_with("gen_6x6_100,backtrack,100,100,0,0,0,0,0,"),
        "{row}"
    );
    let table = report::table::render_text(&result, setup.config(), &meta);
    assert!(table.contains("backtrack"), "{table}");
}
