//! The library's modules form layers, and code only reaches down: a model
//! module never imports the harness, the harness never imports a report,
//! and so on. This test reads `src/` and checks every `crate::` and
//! `super::` path in the library's own (non-test) code against the table
//! below, and the modules of one parent (`solvers::foreign`,
//! `solvers::layout`) for a loop among them, so an import loop or an
//! upward import fails the build's tests instead of creeping in. The
//! table of `docs/development.md` is checked against the one here.
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
    ("kinds", 6),
    // Measuring.
    ("harness", 7),
    // The result directory as types, and its one reader.
    ("results", 8),
    // Writing result files; comparing measurements.
    ("report", 9),
    ("compare", 10),
    // Merging shards' result directories.
    ("merge", 10),
    // Paired A/B: the harness and compare's bootstrap.
    ("ab", 11),
    // Algorithms compared puzzle by puzzle in one run: the result
    // directory's rows.
    ("versus", 11),
    // Pictures and dashboard exports of runs, comparisons and A/Bs.
    ("plot", 12),
    ("export", 12),
    // Bisect over commits: each commit's library built in a worktree,
    // probed by counts or by a paired A/B.
    ("bisect", 12),
    // A bench session: the output directory, result files, pictures,
    // exports and baselines around a harness run.
    ("session", 13),
    // The history of runs over commits: the database, steps, dashboard.
    ("history", 13),
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

/// A module path from the crate root: `["solvers", "layout"]`.
type ModPath = Vec<String>;

/// Whether byte `at` of `code` ends an identifier or a path (`a::`), so
/// that a `crate::` or `super::` starting there is part of a longer path.
fn continues_path(code: &str, at: usize) -> bool {
    let before = code[..at].trim_end();
    before.ends_with("::")
        || (before.len() == at
            && before
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// The paths of a use tree at the start of `text`: `a::b` gives `[a, b]`,
/// `a::{b, c::d}` gives `[a, b]` and `[a, c, d]`, `a::*` and
/// `a::{self}` give `[a]`; a path in an expression (`a::f(x)`) ends at
/// its last segment.
fn use_tree(text: &str) -> Vec<ModPath> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        // Split the group's top level at commas.
        let mut paths = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (j, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    paths.extend(use_tree(&group[start..j]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    paths.extend(use_tree(&group[start..j]));
                    start = j + 1;
                }
                _ => {}
            }
        }
        return paths;
    }
    let ident: String = text
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    // `*`, `self` and an empty item (`{a, }`) name the path so far.
    if ident.is_empty() || ident == "self" {
        return vec![Vec::new()];
    }
    match text[ident.len()..].trim_start().strip_prefix("::") {
        Some(rest) => use_tree(rest)
            .into_iter()
            .map(|tail| std::iter::once(ident.clone()).chain(tail).collect())
            .collect(),
        None => vec![vec![ident]],
    }
}

/// Every path that `code` (from [`code_only`]), the code of module `at`,
/// names from `crate::` or `super::`, resolved from the crate root:
/// `crate::a::b` gives `[a, b]`, `super::x` in `[s, f]` gives `[s, x]`,
/// `super::super::x` in `[s, t, f]` gives `[s, x]`, and a group
/// `crate::{a, b::c}` gives each of its paths.
fn resolved_paths(code: &str, at: &[String]) -> BTreeSet<ModPath> {
    let mut found = BTreeSet::new();
    let mut i = 0;
    while let Some(n) = code[i..].find(['c', 's']) {
        let start = i + n;
        i = start + 1;
        let (mut rest, mut base) = match &code[start..] {
            r if r.starts_with("crate::") => (&r["crate::".len()..], Vec::new()),
            r if r.starts_with("super::") => (r, at.to_vec()),
            _ => continue,
        };
        if continues_path(code, start) {
            continue;
        }
        while let Some(after) = rest.strip_prefix("super::") {
            base.pop();
            rest = after.trim_start();
        }
        for tail in use_tree(rest) {
            found.insert(base.iter().cloned().chain(tail).collect());
        }
    }
    found.remove(&Vec::new());
    found
}

/// The top-level modules the `crate::` paths of `code` (from
/// [`code_only`]) name: `crate::a::X` gives `a`, and a group
/// `crate::{a, b::c, d::{e}}` gives `a`, `b` and `d`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    resolved_paths(code, &[])
        .into_iter()
        .map(|path| path[0].clone())
        .collect()
}

/// The crate modules one source file's own (non-test) code uses.
fn imports(text: &str) -> BTreeSet<String> {
    crate_paths(&without_test_modules(&code_only(text)))
}

/// `code` of module `at` split into its inline modules (`mod NAME { .. }`,
/// test modules already gone): the module's own code, with the inline
/// modules' bodies blanked, then each inline module's, in the same way.
fn inline_modules(code: &str, at: &[String]) -> Vec<(ModPath, String)> {
    let b = code.as_bytes();
    let mut own = String::with_capacity(code.len());
    let mut inner = Vec::new();
    let mut i = 0;
    let mut from = 0;
    while let Some(n) = code[i..].find("mod ") {
        let start = i + n;
        i = start + 4;
        let before = b.get(start.wrapping_sub(1));
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            continue;
        }
        let rest = &code[i..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = i + (rest.len() - after.len());
        let end = matching_brace(b, open);
        let mut path = at.to_vec();
        path.push(name);
        inner.extend(inline_modules(&code[open + 1..end - 1], &path));
        own.push_str(&code[from..open]);
        own.extend(code[open..end].chars().filter(|&c| c == '\n'));
        from = end;
        i = end;
    }
    own.push_str(&code[from..]);
    let mut all = vec![(at.to_vec(), own)];
    all.extend(inner);
    all
}

/// The import problems among the library's `files` (each a module path,
/// `a::b`, and its text): an import of a top-level module that is not in
/// a lower layer, and an import loop among the modules of one parent
/// (`a::b` uses `a::c`, which uses `a::b`), whether written with
/// `crate::` or `super::` paths.
fn upward_imports<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut modules: Vec<(ModPath, String)> = Vec::new();
    for (module, text) in files {
        let at: ModPath = module.split("::").map(String::from).collect();
        modules.extend(inline_modules(&without_test_modules(&code_only(text)), &at));
    }
    let known: BTreeSet<ModPath> = modules.iter().map(|(m, _)| m.clone()).collect();
    let mut upward = BTreeSet::new();
    let mut siblings: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (at, code) in &modules {
        for path in resolved_paths(code, at) {
            let (module, target) = (&at[0], &path[0]);
            if target != module {
                if layer(target) >= layer(module) {
                    upward.insert(format!(
                        "{module} (layer {}) -> {target} (layer {})",
                        layer(module),
                        layer(target)
                    ));
                }
                continue;
            }
            // Within one top-level module: the children of the deepest
            // common parent, when neither is the other's ancestor.
            let common = at.iter().zip(&path).take_while(|(a, b)| a == b).count();
            if common < at.len() && common < path.len() && known.contains(&path[..=common]) {
                siblings
                    .entry(at[..=common].to_vec())
                    .or_default()
                    .insert(path[..=common].to_vec());
            }
        }
    }
    let mut problems: Vec<String> = upward.into_iter().collect();
    problems.extend(loops(&siblings));
    problems
}

/// Every loop in `edges` (a module and the modules it uses), once, as
/// `import loop: a::b -> a::c -> a::b`, starting at its smallest module.
fn loops(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<String> {
    let name = |m: &ModPath| m.join("::");
    let mut found = BTreeSet::new();
    for start in edges.keys() {
        // Depth-first from `start`, through modules after it only, so
        // that each loop is found once, from its smallest module.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((at, trail)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    let names: Vec<String> = trail.iter().chain([start]).map(name).collect();
                    found.insert(format!("import loop: {}", names.join(" -> ")));
                } else if next > start && !trail.contains(next) {
                    let mut longer = trail.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    found.into_iter().collect()
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

/// The module path of the source file `rel` (relative to `src/`):
/// `solvers/foreign.rs` and `solvers/foreign/mod.rs` give
/// `solvers::foreign`.
fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts.join("::")
}

#[test]
fn modules_only_import_from_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut texts = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let module = module_of(rel);
        let top = module.split("::").next().unwrap();
        // The binary and the crate root are above every layer; `tests.rs`
        // files are unit tests, which may use anything.
        if ["main", "lib", "cli"].contains(&top) || rel.ends_with("tests.rs") {
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

#[test]
fn the_layers_are_numbered_without_a_gap() {
    let numbers: BTreeSet<u32> = LAYERS.iter().map(|(_, n)| *n).collect();
    let max = *numbers.last().unwrap();
    assert_eq!(numbers, (0..=max).collect());
}

/// The layer table of `docs/development.md`: each row's layer and the
/// modules it names in backquotes.
fn documented_layers() -> BTreeSet<(String, u32)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/development.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut rows = BTreeSet::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(n) = cells.get(1).and_then(|c| c.parse::<u32>().ok()) else {
            continue;
        };
        for name in cells[2].split(',') {
            rows.insert((name.trim().trim_matches('`').to_string(), n));
        }
    }
    rows
}

#[test]
fn docs_development_md_shows_this_table() {
    let table: BTreeSet<(String, u32)> = LAYERS
        .iter()
        .map(|(name, n)| (name.to_string(), *n))
        .collect();
    assert_eq!(documented_layers(), table);
}

#[test]
fn an_import_loop_through_super_paths_fails() {
    let foreign = "use super::layout::{Placement, Spacer};\nuse super::{Budget, Outcome};\n";
    let layout = "use super::foreign::ForeignError;\nuse super::SolverEntry;\n";
    let set = "use crate::solvers::layout::Fresh;\n";
    let files = [
        ("solvers", "mod foreign;\npub use foreign::load;\n"),
        ("solvers::foreign", foreign),
        ("solvers::layout", layout),
        ("solvers::set", set),
    ];
    assert_eq!(
        upward_imports(files),
        ["import loop: solvers::foreign -> solvers::layout -> solvers::foreign"]
    );
    // One way only: no loop.
    let files = [
        ("solvers::foreign", foreign),
        ("solvers::layout", "use super::SolverEntry;\n"),
    ];
    assert!(upward_imports(files).is_empty());
}

#[test]
fn a_loop_through_crate_paths_and_inline_modules_fails() {
    // `super::` in an inline module is its file's module.
    let a = "mod inner {\n    use super::super::b::X;\n}\n";
    let b = "pub fn f() { crate::harness::a::g(); }\n";
    let loops = upward_imports([("harness::a", a), ("harness::b", b)]);
    assert_eq!(
        loops,
        ["import loop: harness::a -> harness::b -> harness::a"]
    );
}

#[test]
fn super_paths_resolve_from_their_module() {
    let code = "use super::{a, b::{c, self}};\nlet x = super::super::d::E;\n";
    let at: ModPath = ["m", "n", "o"].map(String::from).to_vec();
    let paths: Vec<String> = resolved_paths(code, &at)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(paths, ["m::d::E", "m::n::a", "m::n::b", "m::n::b::c"]);
}
