//! Evolution runs: one selection formula evolved across many games (or bandit runs) and
//! kept for reuse, as Bravi et al. did for general video game playing, rather than a new
//! formula per decision as in the main paper's ES-MCTS.
//!
//! `spec` reads a run from RON; `bandit` is the cheap Bernoulli-bandit fitness domain;
//! `fitness` turns samples (bandit runs, or pairs of Carcassonne games against a baseline
//! on one tile seed) into estimates with intervals, in parallel; `population` is the
//! run's folder (a file per generation, the champion); `run` is the generational loop
//! with resume; `racing` spends a generation's games where they decide something;
//! `hashing` lets candidates that behave alike on a bank of selection situations share
//! their samples; `champion` is the rule that crowns a generation's champion;
//! `report` writes the logbook, hall of fame and lineage; `namespace` keeps the tile
//! sequences of evolution, of the UCT sweep and of validation apart; `validate` plays a
//! formula against a tuned baseline on unseen sequences and measures the bandit baselines;
//! `sweep` tunes a baseline's constants (C_E, a formula weight, the prior's temperature, the
//! final-move rule) on sweep sequences; `steps` plays the games of any of them as Slurm job
//! steps across an allocation, through the run folder, with the same bytes as one machine.
//!
//! Layering: uses `formula`, `game`, `search`, `runfs` (seeds, spec files, atomic writes, the
//! run-folder lock) and `stats`; never `league`, and nothing below uses it.

pub mod bandit;
pub mod champion;
pub mod fitness;
pub mod hashing;
pub mod namespace;
pub mod population;
mod progress;
pub mod racing;
pub mod reestimate;
pub mod report;
pub mod run;
pub mod spec;
pub mod steps;
pub mod sweep;
pub mod validate;

pub use champion::ChampionRule;
pub use fitness::{Estimate, EvalError};
pub use hashing::{HashingCounts, HashingSpec};
pub use population::{Champion, Generation, Member, PopulationError};
pub use racing::{RaceOutcome, RacingSpec};
pub use run::{run_evolution, EvolveError, RunOptions, RunOutcome};
pub use spec::{
    BanditSpec, CarcassonneSpec, EvolveSpec, FitnessSpec, NoiseSpec, Score, StrategySpec,
};
