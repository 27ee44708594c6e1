//! A study (`evomcts study SPEC`): the whole protocol for one game, at every budget its spec
//! names: UCT's constant C_E tuned on sweep sequences (`tune`, SPSA and its re-estimate),
//! evolution seeded with UCT at the tuned constant and played against it (`evolve`, raced,
//! its champion re-estimated on fresh samples), and the champion validated against tuned UCT
//! on validation sequences, both seatings, stopped by the sequential test or its cap
//! (`validation`). Each phase is an ordinary run in its own folder (`sims-B/tune`,
//! `sims-B/evolve`, `sims-B/validate`), so `report`, `table` and `validate sequential` read
//! them as they read any run; the study adds `study.csv`, `study.md` and `phases.ron` (and, when
//! the spec names `consulted`, `consulted.csv`: how often the champion's policy decides).
//!
//! `spec` reads and checks the study's RON and builds each phase's spec from it; `run` is the
//! loop over budgets and phases (folder, lock, resume, progress with an ETA across phases);
//! `outputs` writes `study.csv` and `study.md`.
//!
//! Guarantees: every phase's seed derives from the study's master seed, the phase and the
//! budget; tuning plays sweep sequences, evolution its own samples, validation the validation
//! namespace, which neither of the others ever plays (`evolve::namespace`). A study stopped at
//! any point (kill -9 included) and resumed with `--resume` writes the same bytes as one never
//! stopped: each phase resumes byte for byte on its own, a phase is entered only once the one
//! before it is finished, and `phases.ron` records each finished phase (a finished evolution
//! is not asked again, so its re-estimate is not replayed).
//!
//! Layering: above `tune`, `evolve`, `validation` and `runfs`; nothing below uses it.

mod outputs;
mod run;
pub mod spec;

pub use outputs::quoted;
pub use outputs::{
    BudgetRow, Phase, CONSULTED_CSV, CONSULTED_CSV_HEADER, PHASES_RON, STUDY_CSV, STUDY_CSV_HEADER,
    STUDY_MD, STUDY_RON,
};
pub use run::champion_of;
pub use run::phase_dir;
pub use run::{run_study, StudyOptions, StudyOutcome};
pub use spec::StudySpec;

use evomcts_evolve::{EvolveError, IndependentError};
use evomcts_records::runfs::SpecFileError;
use evomcts_tune::TuneError;
use evomcts_validation::ValidateError;
use std::path::Path;

/// What stops a study.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}: {message} (left untouched; remove the folder to start again)")]
    Corrupt { file: String, message: String },
    #[error("{dir} holds a study of a different spec; resume it with its own spec ({dir}/study.ron) or choose another --out")]
    SpecChanged { dir: String },
    #[error("{dir} already holds a study; pass --resume to continue, or choose another --out")]
    AlreadyStarted { dir: String },
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error(transparent)]
    Lock(#[from] evomcts_records::runfs::LockError),
    #[error("the tuning at {budget} simulations: {source}")]
    Tune { budget: u32, source: TuneError },
    #[error("the evolution at {budget} simulations: {source}")]
    Evolve { budget: u32, source: EvolveError },
    #[error("the independent evolution runs at {budget} simulations: {source}")]
    Independent {
        budget: u32,
        source: IndependentError,
    },
    #[error("the independent evolution runs at {budget} simulations did not all finish, so no tournament was played; resume the study")]
    Unfinished { budget: u32 },
    #[error("the validation at {budget} simulations: {source}")]
    Validate { budget: u32, source: ValidateError },
    #[error("how often the formula is asked at {budget} simulations (consulted): {message}")]
    Consulted { budget: u32, message: String },
}

fn io_error(file: &Path, e: impl std::fmt::Display) -> StudyError {
    StudyError::Io {
        file: file.display().to_string(),
        message: e.to_string(),
    }
}

/// Writes `text` to `path` whole or not at all.
fn write_file(path: &Path, text: &str) -> Result<(), StudyError> {
    evomcts_records::runfs::write_atomically(path, text.as_bytes()).map_err(|e| io_error(path, e))
}

/// Whether `dir` holds a study (its `study.ron`).
pub fn is_study(dir: &Path) -> bool {
    evomcts_records::runfs::folder_kind(dir)
        .is_some_and(|f| f.kind == Some(evomcts_records::runfs::RunKind::Study))
}
