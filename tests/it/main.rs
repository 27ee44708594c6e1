//! The integration tests, one crate so they link once: each module tests one part of the library
//! or the binary.

mod analysis_common;
mod analysis_formulas;
mod analysis_plots;
mod es_options;
mod evolve_bandit;
mod evolve_carcassonne;
mod evolve_racing;
mod evolve_reports;
mod evolve_resume;
mod formula_canonical;
mod formula_common;
mod formula_evolution;
mod formula_grammar;
mod formula_mutation;
mod formula_native;
mod formula_ops;
mod formula_text;
mod fuzz_parsers;
mod game_properties;
mod game_scoring;
mod league;
mod outputs;
mod presets;
mod progress;
mod reliability;
mod reliability_bounds;
mod reliability_exit;
mod reliability_records;
mod replication;
mod report;
mod search_mcts;
mod search_star;
mod search_star_narrow;
mod support;
mod validate;
