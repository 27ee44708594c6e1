//! Evolution runs: one selection formula evolved across many games (or bandit runs) and
//! kept for reuse, as Bravi et al. did for general video game playing, rather than a new
//! formula per decision as in the main paper's ES-MCTS.
//!
//! `spec` reads a run from RON (every type a spec is made of but racing's; the fitness domain
//! in `fitness_spec`, the games' fitness, one game or a mix of several, in `games_spec`); `bandit` is the
//! cheap Bernoulli-bandit fitness domain; `fitness` turns samples (bandit runs, or pairs of
//! games against a baseline on one seed) into estimates with intervals, in parallel; `spsa` is
//! the optimiser (shared with `tune`) with which `fitting` fits the best survivors' constants
//! on a generation's common samples;
//! `clop` is the model-based tuner of one to four constants (shared with `tune`, whose
//! `regret` measures it); `values` is what a generation file's values may be; `population` is the run's folder (a
//! file per generation, the champion); `run` is the generational loop; `resume` checks what a run finds in its folder (its stored spec, the
//! generations written) before it continues; `racing` spends a generation's games where they
//! decide something; `halving` races many candidates down to a few by successive halving and
//! tests the finalists against the seed on fresh samples, Holm-adjusted; `hashing` lets candidates that behave alike on a bank of selection
//! situations share their samples; `bank` (between `population` and `hashing`) records that bank
//! for any game or mix, move features included, and reads and writes its file; `champion` is the rule that crowns a generation's champion;
//! `reestimate` crowns the run's champion on fresh samples; `pareto` judges which candidates a
//! simpler one does not match (`pareto.csv`); `report` writes the logbook, hall
//! of fame and lineage; `progress` reports a generation's work as it goes; `namespace` keeps
//! the tile sequences of evolution, of the UCT sweep and of validation apart; `error` is what
//! stops a run; `work` is what a Slurm job step of an evolution or a validation plays
//! (`slurm::steps` carries it), with the same bytes as one machine; `independent` runs K
//! seeds of one spec into one folder and `tournament` crowns one of their champions (or the
//! seed formula) on fresh seeds.
//!
//! The modules import each other without a circle; lowest first, each importing only modules
//! before it: `racing`, `halving`, `namespace`, `spsa`, `clop`, `planted`, `fit_spec`,
//! `games_spec`, `enumerate_spec` → `fitness_spec` → `spec` → `bandit` → `fitness` → `fitting` →
//! `values` → `population` → `champion`, `report` → `reestimate`, `progress`, `work`,
//! `tournament` → `error` → `hashing`, `resume` → `pareto` → `run` → `independent`,
//! `enumeration_files` → `enumeration_report` → `enumeration`.
//!
//! Layering: uses `formula`, `game`, `search`, `arena`, `runfs` (seeds, spec files, atomic
//! writes, the run-folder lock) and `slurm`'s job steps; never `league` or `validation`, and
//! nothing below uses it.

pub mod bandit;
pub mod bank;
pub mod champion;
pub mod clop;
pub mod enumerate_spec;
pub mod enumeration;
pub mod enumeration_files;
mod enumeration_report;
pub mod error;
pub mod fit_spec;
pub mod fitness;
pub mod fitness_spec;
pub mod fitting;
pub mod games_spec;
pub mod halving;
pub mod hashing;
pub mod independent;
pub mod namespace;
pub mod pareto;
pub mod planted;
#[cfg(test)]
mod planted_table;
pub mod population;
mod progress;
pub mod racing;
pub mod reestimate;
pub mod report;
mod resume;
pub mod run;
pub mod spec;
pub mod spsa;
pub mod tournament;
pub mod values;
pub mod work;

pub use error::EvolveError;
pub use fitness::{Estimate, EvalError, Standing};
pub use fitting::Fitted;
pub use independent::{run_independent, IndependentError, IndependentOptions, IndependentOutcome};
pub use population::{Champion, Generation, HashingCounts, Member, PopulationError};
pub use racing::{RaceOutcome, RacingSpec};
pub use run::{run_evolution, RunOptions, RunOutcome};
pub use spec::{
    BanditSpec, ChampionRule, EvolveSpec, FitSpec, FitnessSpec, GamesSpec, HashingSpec, MixedSpec,
    NoiseSpec, ParetoSpec, PlantedSpec, Score, StrategySpec,
};
