//! The example workflow (`.github/workflows/bench.yml`) names only flags
//! that exist: every `dlxbench SUBCOMMAND ...` command in it (joined over
//! `\` continuations) uses options its `--help` lists.

use crate::common;

use common::{assert_options_exist, dlxbench_commands, repo_path};

#[test]
fn the_example_workflow_uses_existing_options() {
    let text = std::fs::read_to_string(repo_path(".github/workflows/bench.yml")).unwrap();
    let found = dlxbench_commands(&text);
    let subs: Vec<&str> = found.iter().map(|(s, _)| s.as_str()).collect();
    for expected in ["ab", "bench", "compare", "datasets"] {
        assert!(
            subs.contains(&expected),
            "no `dlxbench {expected}` in {subs:?}"
        );
    }
    assert_options_exist(&found);
}
