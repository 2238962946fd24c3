//! The library's modules form layers, and code only reaches down: a model
//! module never imports the harness, the harness never imports a report,
//! and so on. This test reads `src/` and checks every `crate::` path in the
//! library's own (non-test) code against the table below, so an import
//! loop or an upward import fails the build's tests instead of creeping in.
//!
//! Whole files are read, with comments and literals blanked; unit tests
//! (`tests.rs` files and `#[cfg(test)] mod` blocks, wherever they stand)
//! may use anything and are not checked, and `use crate::{a, b::c}`
//! groups count every module they name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and its layer: a module may use modules of lower
/// layers only. Same-layer modules are independent of each other.
const LAYERS: &[(&str, u32)] = &[
    // The leaf under the budget: no crate imports.
    ("clock", 0),
    // The note of what is on disk, should the process die now.
    ("exit_note", 0),
    // Text for a terminal, escaped.
    ("terminal", 0),
    // Leaves but for the clock.
    ("atomic", 1),
    ("budget", 1),
    ("clobber", 1),
    ("corpus", 1),
    ("dirlock", 1),
    ("notation", 1),
    ("rng", 1),
    ("shard", 1),
    // The SIGBUS handler: it prints the exit note.
    ("sigbus", 1),
    // The exact-cover engine (it counts against a budget), the puzzle-kind
    // traits, and the corpus catalogue.
    ("exact_cover", 2),
    ("puzzle", 2),
    ("datasets", 2),
    // The kind-neutral solver machinery: the trait, outcomes, the set,
    // loaded solvers.
    ("solvers", 3),
    // The puzzle kinds side by side, each with its solvers and generator
    // (Sudoku, the default, also with its rater).
    ("sudoku", 4),
    ("hanidoku", 4),
    // The built-in solvers behind the C interface.
    ("ffi", 5),
    // The list of kinds.
    ("kinds", 7),
    // Measuring.
    ("harness", 8),
    // The result directory as types, and its one reader.
    ("results", 9),
    // Writing result files; comparing measurements.
    ("report", 10),
    ("compare", 11),
    // Merging shards' result directories.
    ("merge", 11),
    // Paired A/B: the harness and compare's bootstrap.
    ("ab", 12),
    // Algorithms compared puzzle by puzzle in one run: the result
    // directory's rows.
    ("versus", 12),
    // Pictures and dashboard exports of runs, comparisons and A/Bs.
    ("plot", 13),
    ("export", 13),
    // A bench session: the output directory, result files, pictures,
    // exports and baselines around a harness run.
    ("session", 14),
];

fn layer(module: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .unwrap_or_else(|| panic!("module `{module}` is not in the LAYERS table"))
        .1
}

/// `text` with comments, string literals and character literals blanked
/// (newlines kept), so that neither braces nor `crate::` inside them count.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, bytes: &[u8]| {
        out.extend(bytes.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }))
    };
    let mut i = 0;
    while i < b.len() {
        let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if b[i..].starts_with(b"//") {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |n| i + n);
            blank(&mut out, &b[i..end]);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &b[i..j]);
            i = j;
        } else if !ident_before && (b[i] == b'r' || b[i..].starts_with(b"br")) && {
            let k = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[k..].iter().take_while(|&&c| c == b'#').count();
            b.get(k + hashes) == Some(&b'"')
        } {
            // Raw string: r"..", r#".."#, br"..".
            let k = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[k..].iter().take_while(|&&c| c == b'#').count();
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = k + hashes + 1;
            let end = (body..=b.len() - close.len().min(b.len()))
                .find(|&j| b[j..].starts_with(&close))
                .map_or(b.len(), |j| j + close.len());
            blank(&mut out, &b[i..end]);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            blank(&mut out, &b[i..end]);
            i = end;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{7b}'), or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|n| i + 2 + n + 1)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 2 + ch)
            };
            match end {
                Some(end) => {
                    blank(&mut out, &b[i..end]);
                    i = end;
                }
                None => {
                    out.push(b[i]);
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII was replaced")
}

/// The index just past the `}` that closes the `{` at `open`.
fn matching_brace(code: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (j, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// `code` (from [`code_only`]) without its test modules: every
/// `#[cfg(test)]` followed by `mod NAME { ... }` or `mod NAME;`, wherever
/// it stands in the file. Other `#[cfg(test)]` items are kept and checked.
fn without_test_modules(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while let Some(at) = code[i..].find("#[cfg(test)]").map(|n| i + n) {
        let after = at + "#[cfg(test)]".len();
        let rest = code[after..].trim_start();
        let item = after + (code[after..].len() - rest.len());
        let is_mod = rest
            .strip_prefix("pub(crate) ")
            .or(rest.strip_prefix("pub "))
            .unwrap_or(rest)
            .starts_with("mod ");
        let end = match (is_mod, rest.find(['{', ';'])) {
            (true, Some(n)) if rest.as_bytes()[n] == b'{' => matching_brace(b, item + n),
            (true, Some(n)) => item + n + 1,
            _ => after,
        };
        out.push_str(&code[i..at]);
        // Keep the line structure, so that nothing after moves.
        out.extend(code[at..end].chars().filter(|&c| c == '\n'));
        i = end;
    }
    out.push_str(&code[i..]);
    out
}

/// The top-level modules `crate::` paths in `code` (from [`code_only`])
/// name: `crate::a::X` gives `a`, and a group `crate::{a, b::c, d::{e}}`
/// gives `a`, `b` and `d`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at + "crate::".len()..];
        rest = tail;
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let tail_trim = tail.trim_start();
        if let Some(group) = tail_trim.strip_prefix('{') {
            // Split the group's top level at commas.
            let (mut depth, mut start) = (0, 0);
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        found.insert(ident(&group[start..j]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(ident(&group[start..j]));
                        start = j + 1;
                    }
                    _ => {}
                }
            }
        } else {
            found.insert(ident(tail));
        }
    }
    // `crate::{a, }`: a trailing comma leaves an empty item.
    found.remove("");
    found
}

/// The crate modules one source file's own (non-test) code uses.
fn imports(text: &str) -> BTreeSet<String> {
    crate_paths(&without_test_modules(&code_only(text)))
}

/// The imports among `files` (module, text) that do not go down a layer.
fn upward_imports<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, text) in files {
        for used in imports(text) {
            if used != module {
                edges.entry(module.to_string()).or_default().insert(used);
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
    upward
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
    let mut texts = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        // The binary and the crate root are above every layer; `tests.rs`
        // files are unit tests, which may use anything.
        if ["main", "lib", "cli"].contains(&module.as_str()) || rel.ends_with("tests.rs") {
            continue;
        }
        texts.push((module, std::fs::read_to_string(file).unwrap()));
    }
    let upward = upward_imports(texts.iter().map(|(m, t)| (m.as_str(), t.as_str())));
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
fn the_scanner_sees_paths_and_skips_comments_and_strings() {
    let text = "use crate::solvers::{Budget};\n// crate::harness in a comment\n\
                /* crate::plot /* nested */ crate::ab */\n\
                let s = \"crate::report {\"; let r = r#\"crate::merge\"#; let c = '{';\n\
                let x = crate::rng::SplitMix::new(1); fn f<'a>(x: &'a str) {}";
    let found: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(found, ["rng", "solvers"]);
}

#[test]
fn brace_groups_name_every_module() {
    let text = "use crate::{clock, budget::Budget, sudoku::{Grid, check}, };\n\
                use crate::{\n    atomic::AtomicFile,\n};";
    let found: Vec<String> = imports(text).into_iter().collect();
    assert_eq!(found, ["atomic", "budget", "clock", "sudoku"]);
}

/// The line [`upward_imports`] gives for `module` importing `target`.
fn flagged(module: &str, target: &str) -> String {
    format!(
        "{module} (layer {}) -> {target} (layer {})",
        layer(module),
        layer(target)
    )
}

#[test]
fn an_upward_import_in_a_brace_group_fails() {
    let upward = upward_imports([("budget", "use crate::{clock, plot::Chart};\n")]);
    assert_eq!(upward, [flagged("budget", "plot")]);
}

#[test]
fn an_upward_import_after_a_test_module_fails() {
    let text = "use crate::clock::Instant;\n\
                #[cfg(test)]\nmod tests {\n    use crate::plot::Chart;\n    fn f() { let s = \"}\"; }\n}\n\
                pub fn later() { crate::harness::run(); }\n";
    let upward = upward_imports([("budget", text)]);
    assert_eq!(upward, [flagged("budget", "harness")]);
    // The test module alone may use anything; a declared one too.
    let tests_only = "#[cfg(test)]\nmod tests {\n    use crate::plot::Chart;\n}\n\
                      #[cfg(test)]\nmod more;\nuse crate::clock::Instant;\n";
    assert!(upward_imports([("budget", tests_only)]).is_empty());
}

#[test]
fn other_test_only_items_are_checked() {
    let text = "#[cfg(test)]\nfn helper() { crate::report::x(); }\n";
    assert_eq!(
        upward_imports([("budget", text)]),
        [flagged("budget", "report")]
    );
}
