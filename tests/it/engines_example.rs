//! `examples/engines.rs`, the comparison of the two exact-cover engines on
//! the exact-cover examples (docs/benchmarks.md): it runs, and its
//! deterministic columns say what the engines promise: the same solutions,
//! and under the lowest-index choice the same nodes and updates.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

/// The example program cargo built beside this test.
fn engines() -> Option<PathBuf> {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent()?.parent()?.join("examples").join("engines");
    path.is_file().then_some(path)
}

#[test]
fn the_engines_example_finds_the_same_tree_under_the_lowest_index_choice() {
    let Some(exe) = engines() else {
        common::skip(
            "the_engines_example_finds_the_same_tree_under_the_lowest_index_choice",
            "examples/engines.rs is not built (`cargo test` builds the examples)",
        );
        return;
    };
    let out = Command::new(exe).arg("--quick").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // | instance | choice | solutions | nodes dlx / dc | updates dlx / dc | mems | ...
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| {
            l.starts_with("| ") && !l.starts_with("| instance") && !l.starts_with("| arena")
        })
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    let runs: Vec<&Vec<&str>> = rows.iter().filter(|r| r.len() == 11).collect();
    assert_eq!(runs.len(), 6, "{text}");
    let expected = [
        ("queens 6", "4"),
        ("Langford 7", "26"),
        ("pentominoes 3x20", "2"),
    ];
    for (name, solutions) in expected {
        for choice in ["lowest", "mrv"] {
            let row = runs
                .iter()
                .find(|r| r[1] == name && r[2] == choice)
                .unwrap_or_else(|| panic!("no row {name} {choice}: {text}"));
            assert_eq!(row[3], solutions, "{name} {choice}");
            let pair = |cell: &str| -> (u64, u64) {
                let (a, b) = cell.split_once(" / ").unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            };
            let (nodes, updates) = (pair(row[4]), pair(row[5]));
            if choice == "lowest" {
                assert_eq!(nodes.0, nodes.1, "{name}");
                assert_eq!(updates.0, updates.1, "{name}");
            }
            assert!(row[6].parse::<u64>().unwrap() > 0, "dc counts mems: {name}");
        }
    }
    // The arenas: every Sudoku shape, Hanidoku and the instances.
    let arenas: Vec<&Vec<&str>> = rows.iter().filter(|r| r.len() == 6).collect();
    assert_eq!(arenas.len(), 4 + 1 + 3, "{text}");
    for r in arenas {
        assert!(r[3].parse::<u64>().unwrap() > 0 && r[4].parse::<u64>().unwrap() > 0);
    }
}
