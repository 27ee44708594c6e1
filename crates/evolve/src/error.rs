//! What stops an evolution run, or a reading of one's folder: its spec, a file of its folder,
//! a sample that cannot be played, the lock, a job step; and what a folder holds that the
//! spec given does not explain.

use super::fitness::EvalError;
use super::population::PopulationError;
use evomcts_records::runfs::{LockError, SpecFileError};
use evomcts_steps::steps::StepError;

#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error(transparent)]
    Population(#[from] PopulationError),
    #[error(transparent)]
    Eval(#[from] EvalError),
    #[error("{dir} already holds generations up to gen-{last:03}.ron; pass --resume to continue it, or choose another --out")]
    AlreadyStarted { dir: String, last: usize },
    #[error("{dir} was started with a different spec (hash {old}, now {new}); resume it with its own spec ({dir}/spec.ron) or choose another --out")]
    SpecChanged {
        dir: String,
        old: String,
        new: String,
    },
    #[error(
        "{file}: written by a different spec (hash {found}, expected {expected}) (left untouched)"
    )]
    ForeignGeneration {
        file: String,
        found: String,
        expected: String,
    },
    #[error("{dir} holds generations up to gen-{last:03}.ron, more than the {asked} the spec asks for; resume it with at least {last} generations (nothing was changed)")]
    FewerGenerations {
        dir: String,
        last: usize,
        asked: usize,
    },
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error("{0}")]
    Threads(String),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Steps(#[from] StepError),
    #[error(transparent)]
    Halving(#[from] super::halving::HalvingError),
    /// An enumeration run that cannot go on (a space too large, a folder already holding one).
    #[error("{0}")]
    Enumeration(String),
}
