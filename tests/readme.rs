//! The README's examples are real: every `$ dlxbench ...` line in it whose
//! output does not depend on the machine (no timings) and whose input files
//! are in the repository is run, and its standard output must be the lines
//! the README shows under it (lines marked `(stderr)` are standard error
//! and are not compared; an `exit N` line after `; echo "exit $?"` is the
//! exit status; trailing blank lines are not compared).

mod common;

use std::path::Path;

use common::{dlxbench, repo_path};

/// Subcommands whose output holds timings or needs fetched corpora.
const MACHINE_DEPENDENT: &[&str] = &["bench", "compare", "datasets"];

struct Example {
    line: usize,
    args: Vec<String>,
    stdin: Option<String>,
    expected: String,
    exit: Option<i32>,
}

fn examples(readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        // `echo TEXT | dlxbench ...` feeds TEXT on standard input.
        let (stdin, command) = match command.split_once(" | ") {
            Some((feed, rest)) if feed.starts_with("echo ") && !feed.contains(['\'', '"']) => {
                (Some(format!("{}\n", &feed[5..])), rest)
            }
            _ => (None, command),
        };
        let Some(command) = command.strip_prefix("dlxbench ") else {
            continue;
        };
        let command = command.split("    #").next().unwrap().trim();
        let (command, wants_exit) = match command.strip_suffix("; echo \"exit $?\"") {
            Some(c) => (c, true),
            None => (command, false),
        };
        let command = command.strip_suffix(" 2>/dev/null").unwrap_or(command);
        let args: Vec<String> = command.split_whitespace().map(String::from).collect();
        if MACHINE_DEPENDENT.contains(&args[0].as_str())
            || args.iter().any(|a| a.contains(['|', '>', '\'', '"']))
        {
            continue;
        }
        // Only inputs that are in the repository.
        if args
            .iter()
            .any(|a| a.ends_with(".txt") && !Path::new(a).exists())
        {
            continue;
        }
        let mut body: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
            .filter(|l| !l.starts_with("(stderr)"))
            .copied()
            .collect();
        let mut exit = None;
        if wants_exit {
            let last = body.pop().expect("an exit line");
            exit = Some(
                last.strip_prefix("exit ")
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| {
                        panic!("README line {}: `exit N` expected, found {last:?}", i + 1)
                    }),
            );
        }
        while body.last() == Some(&"") {
            body.pop();
        }
        let mut expected = body.join("\n");
        expected.push('\n');
        found.push(Example {
            line: i + 1,
            args,
            stdin,
            expected,
            exit,
        });
    }
    found
}

#[test]
fn readme_examples_print_what_the_readme_shows() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let readme = std::fs::read_to_string(repo_path("README.md")).unwrap();
    let found = examples(&readme);
    let subcommands: Vec<&str> = found.iter().map(|e| e.args[0].as_str()).collect();
    for needed in ["solve", "check", "cover", "generate"] {
        assert!(
            subcommands.contains(&needed),
            "no `{needed}` example found in the README"
        );
    }
    assert!(found.len() >= 10, "only {} examples found", found.len());
    for example in &found {
        let mut cmd = dlxbench();
        cmd.args(&example.args);
        cmd.write_stdin(example.stdin.clone().unwrap_or_default());
        let output = cmd.output().unwrap();
        // Trailing blank lines (the separator after a grid) are not shown.
        let stdout = format!(
            "{}\n",
            String::from_utf8_lossy(&output.stdout).trim_end_matches('\n')
        );
        assert_eq!(
            stdout,
            example.expected,
            "README line {}: `dlxbench {}` printed something else",
            example.line,
            example.args.join(" ")
        );
        if let Some(code) = example.exit {
            assert_eq!(
                output.status.code(),
                Some(code),
                "README line {}",
                example.line
            );
        }
    }
}
