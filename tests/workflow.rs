//! The example workflow (`.github/workflows/bench.yml`) names only flags
//! that exist: every `dlxbench SUBCOMMAND ...` command in it (joined over
//! `\` continuations) uses options its `--help` lists.

mod common;

use common::{dlxbench, repo_path};

/// The commands: `(subcommand, options)` of each `dlxbench` call.
fn commands(text: &str) -> Vec<(String, Vec<String>)> {
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
    joined
        .iter()
        .filter_map(|l| {
            // The binary, by its path (`./target/release/dlxbench`, the
            // base's in quotes).
            let at = l.find("release/dlxbench")?;
            let rest = l[at + "release/dlxbench".len()..].trim_start_matches('"');
            let mut words = rest.split_whitespace();
            let sub = words.next()?.to_string();
            let options = words
                .filter(|w| w.starts_with("--"))
                .map(|w| w.split('=').next().unwrap().to_string())
                .collect();
            Some((sub, options))
        })
        .collect()
}

#[test]
fn the_example_workflow_uses_existing_options() {
    let text = std::fs::read_to_string(repo_path(".github/workflows/bench.yml")).unwrap();
    let found = commands(&text);
    let subs: Vec<&str> = found.iter().map(|(s, _)| s.as_str()).collect();
    for expected in ["ab", "bench", "compare", "datasets"] {
        assert!(
            subs.contains(&expected),
            "no `dlxbench {expected}` in {subs:?}"
        );
    }
    for (sub, options) in &found {
        let out = dlxbench().args([sub, "--help"]).output().unwrap();
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
