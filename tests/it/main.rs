//! The integration tests: one binary, each file a module (the command line
//! through the built `dlxbench`, the library through its public API, the
//! docs' examples, the source's layering). One binary links the library
//! and its dependencies once, where a binary per file linked them once per
//! file (docs/development.md has the figures). A test's name starts with
//! its file's: `cargo test --test it bench_cli::`.

mod common;

mod ab_cli;
mod ab_layout;
mod batch;
mod bench_cli;
mod bench_live;
mod bisect;
mod cli;
mod clobber_cli;
mod cluster;
mod cluster_slurm;
mod compare_cli;
mod custom_solver;
mod datasets_cli;
mod docs_recipes;
mod engines_example;
mod ffi;
mod foreign;
mod hanidoku_alloc;
mod hanidoku_cli;
mod history;
mod images_cli;
mod input_policy;
mod isolation;
mod knuth_counts;
mod layers;
mod merge_cli;
mod out_dir;
mod plot_cli;
mod provenance_cli;
mod puzzles_cli;
mod readme;
mod real_corpora;
mod round_trip_floor;
mod run_state;
mod solver_answers;
mod solver_cmd;
mod solver_examples;
mod solver_host;
mod speed_column;
mod terminal_cli;
mod tools_cli;
mod versus_cli;
mod workflow;
