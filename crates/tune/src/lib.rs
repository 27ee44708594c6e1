//! Tuning a controller's named constants (`evomcts tune SPEC`): C_E, a formula's placeholders
//! `{W1}` … `{Wk}`, the prior's temperature and first-play urgency's constants, jointly,
//! against one opponent on sweep sequences (evolution's namespace, never validation's), by
//! SPSA over common random numbers; then a pessimistic recommendation among the last iterates
//! and a re-estimate of it (and of the starting values) on fresh sweep sequences.
//!
//! `spec` reads and checks the run's RON; `spsa` is the optimiser (pure, seeded, no
//! dependency); `recommend` picks the recommendation; `rows` is `tune.csv`, every evaluation;
//! `play` plays a step's games on this machine's threads or as a Slurm job step; `run` is the
//! loop (folder, lock, resume by replaying `tune.csv`, progress); `reestimate` measures the
//! recommendation on fresh sequences; `outputs` writes `trajectory.csv`, `summary.md` and
//! `tuned.ron`.
//!
//! Guarantees: every sequence and every perturbation derives from the spec's master seed and
//! the step, so results do not depend on the thread count or on where games run; a run stopped
//! at any point and resumed writes the same bytes as one never stopped (the optimiser's state
//! is replayed from `tune.csv`, whose every row is checked against the schedule); tuning and
//! re-estimate sequences never meet (distinct indices of the sweep's derivation), and none is a
//! validation sequence (`evolve::namespace`).
//!
//! Layering: above `validation` (its placeholder filling, paired games and summaries),
//! `evolve` (seed namespaces, the work of a job step), `arena`, `slurm`'s job steps, `runfs`
//! and `stats`; nothing below uses it.

pub use evomcts_evolve::clop;
pub mod clop_steps;
mod outputs;
mod play;
pub mod recommend;
mod reestimate;
pub mod regret;
pub mod rows;
mod run;
pub mod spec;
pub mod spsa;
pub mod widen;

pub use outputs::{is_tune_run, read_trajectory, TrajectoryPoint, TRAJECTORY_CSV, TUNED_RON};
pub use reestimate::{reestimate_seed, Reestimate, REESTIMATE_FIRST, REESTIMATE_FOLDER};
pub use rows::TUNE_CSV;
pub use run::{run_tune, run_tune_until, step_seed, TuneOptions, TuneOutcome, TuneResult};
pub use spec::{Parameter, SpsaSpec, TuneSpec};

use evomcts_records::runfs::{FileError, SpecFileError};
use evomcts_steps::steps::StepError;
use evomcts_validation::ValidateError;
use std::path::Path;

/// What stops a tuning run.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{dir} holds a tuning run of a different spec; resume it with its own spec ({dir}/spec.ron) or choose another --out")]
    SpecChanged { dir: String },
    #[error("{dir} holds evaluations (tune.csv) but no spec.ron, so nothing says which spec played them: put its spec.ron back, or choose another --out")]
    SpecMissing { dir: String },
    #[error(
        "{dir} already holds a tuning run; pass --resume to continue, or choose another --out"
    )]
    AlreadyStarted { dir: String },
    #[error("step {step}, tile seed {tile_seed}: {message}")]
    Game {
        step: usize,
        tile_seed: u64,
        message: String,
    },
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error(transparent)]
    Steps(#[from] StepError),
    #[error(transparent)]
    Lock(#[from] evomcts_records::runfs::LockError),
    #[error("the re-estimate: {0}")]
    Reestimate(#[from] ValidateError),
}

fn io_error(file: &Path, e: impl std::fmt::Display) -> TuneError {
    FileError::io(file, e).into()
}

/// Writes `text` to `path` whole or not at all (`runfs::write_file`).
fn write_file(path: &Path, text: &str) -> Result<(), TuneError> {
    Ok(evomcts_records::runfs::write_file(path, text)?)
}
