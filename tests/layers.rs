//! The library's modules form layers, and code only reaches down: a model
//! module never imports the harness, the harness never imports a report,
//! and so on. This test reads `src/` and checks every `crate::` path in the
//! library's own (non-test) code against the table below, so an import
//! loop or an upward import fails the build's tests instead of creeping in.
//!
//! Unit tests (`tests.rs` files and `#[cfg(test)]` modules, which sit at
//! the end of their file) may use anything and are not checked.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and its layer: a module may use modules of lower
/// layers only. Same-layer modules are independent of each other.
const LAYERS: &[(&str, u32)] = &[
    // The leaf under the budget: no crate imports.
    ("clock", 0),
    // Leaves but for the clock.
    ("atomic", 1),
    ("budget", 1),
    ("corpus", 1),
    ("notation", 1),
    ("rng", 1),
    ("shard", 1),
    // The exact-cover engine (it counts against a budget), the puzzle-kind
    // traits, and the corpus catalogue.
    ("exact_cover", 2),
    ("puzzle", 2),
    ("datasets", 2),
    // Sudoku, the default kind.
    ("sudoku", 3),
    // Solvers (the trait and set, and Sudoku's solvers).
    ("solvers", 4),
    // What is built on solvers: ratings, generators, other kinds.
    ("rate", 5),
    // The built-in solvers behind the C interface.
    ("ffi", 5),
    ("generate", 6),
    ("hanidoku", 6),
    // The list of kinds.
    ("kinds", 7),
    // Measuring.
    ("harness", 8),
    // Reporting and comparing measurements.
    ("report", 9),
    ("compare", 10),
    // Merging shards' result directories.
    ("merge", 10),
    // Paired A/B: the harness and compare's bootstrap.
    ("ab", 11),
    // Pictures and dashboard exports of runs, comparisons and A/Bs.
    ("plot", 12),
    ("export", 12),
    // A bench session: the output directory, result files, pictures,
    // exports and baselines around a harness run.
    ("session", 13),
];

fn layer(module: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .unwrap_or_else(|| panic!("module `{module}` is not in the LAYERS table"))
        .1
}

/// The `crate::X` modules named in `text` (comments removed).
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let tail = &rest[at + "crate::".len()..];
            let name: String = tail
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
            rest = tail;
        }
    }
    found
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn modules_only_import_from_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        // The binary and the crate root are above every layer.
        if ["main", "lib", "cli"].contains(&module.as_str()) || rel.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for used in crate_paths(code) {
            if used != module {
                edges.entry(module.clone()).or_default().insert(used);
            }
        }
    }
    let mut upward = Vec::new();
    for (module, used) in &edges {
        for target in used {
            if layer(target) >= layer(module) {
                upward.push(format!(
                    "{module} (layer {}) -> {target} (layer {})",
                    layer(module),
                    layer(target)
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not go down a layer:\n{}",
        upward.join("\n")
    );
    // Every module of lib.rs is in the table, and nothing else.
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    let table: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    assert_eq!(declared, table);
}

#[test]
fn the_scanner_sees_paths_and_skips_comments() {
    let text = "use crate::solvers::{Budget};\n// crate::harness in a comment\nlet x = crate::rng::SplitMix::new(1);";
    let found: Vec<String> = crate_paths(text).into_iter().collect();
    assert_eq!(found, ["rng", "solvers"]);
}
