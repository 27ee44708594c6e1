//! A portfolio (`evomcts portfolio SPEC`): many games' studies, each its own process, then the
//! dataset of where the evolved champion beats tuned UCT (per game and budget, with the games'
//! properties and Holm-adjusted p), the generalisation matrix (each champion on every other
//! game, against that game's tuned UCT), and what the champions share.
//!
//! `spec` reads and checks the portfolio's RON and builds each game's study spec and each
//! matrix cell's validation spec from it; `run` is the driver (folder, lock, one process per
//! job, at most `--jobs` at a time) and the job each process runs (`--only LABEL --part
//! study|matrix`); `properties` measures a game by random play; `check` reads the jobs' result
//! files and refuses any that no job of this spec wrote from the folders it summarises;
//! `outputs`, `shared` and `markdown` write the CSVs and `portfolio.md` from the checked results.
//!
//! Guarantees: each game's study seed derives from the portfolio's master seed and the game's
//! label; a matrix cell plays the first sequences of the target game's own validation
//! namespace, which neither tuning nor evolution ever plays. Every job writes its result file
//! last and whole, and everything it plays resumes byte for byte, so a portfolio stopped at
//! any point (kill -9 included) and resumed writes the same bytes as one never stopped,
//! whatever `--jobs` and `--threads` (the logs in `logs/` aside, which are for people).
//!
//! Layering: above `study` and `validation`; nothing below uses it.

pub mod check;
pub mod general;
mod markdown;
pub mod outputs;
pub mod properties;
mod run;
pub mod shared;
pub mod spec;

pub use check::{read_checked, Results};
pub use outputs::{
    CORRELATIONS_CSV, MATRIX_CSV, MATRIX_CSV_HEADER, PORTFOLIO_CSV, PORTFOLIO_CSV_HEADER,
    PORTFOLIO_MD, SHARED_CSV,
};
pub use run::{
    read_results, result_file, run_job, run_portfolio, Part, PortfolioOptions, PortfolioOutcome,
    GAMES_DIR, GENERAL_LABEL, LOGS_DIR, MATRIX_DIR, PORTFOLIO_RON, STUDIES_DIR, TIMINGS_CSV,
};
pub use spec::{PortfolioGame, PortfolioSpec};

use evomcts_records::runfs::SpecFileError;
use evomcts_study::StudyError;
use evomcts_validation::ValidateError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// What stops a portfolio.
#[derive(Debug, thiserror::Error)]
pub enum PortfolioError {
    #[error(transparent)]
    Spec(#[from] SpecFileError),
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}: {message} (left untouched; remove the folder to start again)")]
    Corrupt { file: String, message: String },
    /// A job's result file that no job of this spec wrote from these folders (see `check`).
    #[error("{file}: {field}: {message} (left untouched)")]
    BadResult {
        file: String,
        field: String,
        message: String,
    },
    #[error("{dir} holds a portfolio of a different spec; resume it with its own spec ({dir}/portfolio.ron) or choose another --out")]
    SpecChanged { dir: String },
    #[error("{dir} already holds a portfolio; pass --resume to continue, or choose another --out")]
    AlreadyStarted { dir: String },
    #[error("--jobs must be at least 1")]
    NoJobs,
    #[error(transparent)]
    Lock(#[from] evomcts_records::runfs::LockError),
    #[error("the portfolio lists no game labelled `{label}`")]
    NoSuchGame { label: String },
    #[error("`{label}`: {message}")]
    Game { label: String, message: String },
    #[error("the study of `{label}`: {source}")]
    Study {
        label: String,
        source: Box<StudyError>,
    },
    #[error("the matrix column of `{label}` at {budget} simulations: {source}")]
    Cell {
        label: String,
        budget: u32,
        source: Box<ValidateError>,
    },
    #[error("the matrix needs every study finished; {finished} of {games} are")]
    StudiesUnfinished { finished: usize, games: usize },
    #[error("the general formula at {budget} simulations: {message}")]
    General { budget: u32, message: String },
    #[error("could not start `{command}`: {message}")]
    Start { command: String, message: String },
    /// The log's last lines are the cause: kept as lines on the terminal
    /// (`progress::terminal_error_message`).
    #[error("the {part} job of `{label}` failed ({status}); its log, {log}, ends:{tail}resume the portfolio with --resume once the cause is fixed")]
    JobFailed {
        label: String,
        part: &'static str,
        status: String,
        log: String,
        #[source]
        tail: evomcts_records::progress::QuotedLines,
    },
}

fn io_error(file: &Path, e: impl std::fmt::Display) -> PortfolioError {
    PortfolioError::Io {
        file: file.display().to_string(),
        message: e.to_string(),
    }
}

/// Writes `text` to `path` whole or not at all.
fn write_file(path: &Path, text: &str) -> Result<(), PortfolioError> {
    evomcts_records::runfs::write_atomically(path, text.as_bytes()).map_err(|e| io_error(path, e))
}

fn write_ron<T: Serialize>(path: &Path, value: &T) -> Result<(), PortfolioError> {
    let text = ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default())
        .expect("results serialise");
    write_file(path, &format!("{text}\n"))
}

fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, PortfolioError> {
    let text = evomcts_records::runfs::read_capped_text(
        path,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a portfolio's result",
    )
    .map_err(|e| io_error(path, e))?;
    evomcts_records::runfs::ron_options()
        .from_str(&text)
        .map_err(|e| PortfolioError::Corrupt {
            file: path.display().to_string(),
            message: e.to_string(),
        })
}

/// Checks the stored spec against this one, or writes it into a new folder.
fn check_stored_spec(dir: &Path, text: &str, resume: bool) -> Result<(), PortfolioError> {
    let file = dir.join(PORTFOLIO_RON);
    let name = dir.display().to_string();
    match evomcts_records::runfs::read_capped_text(
        &file,
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a spec",
    ) {
        Ok(old) if old != text => Err(PortfolioError::SpecChanged { dir: name }),
        Ok(_) if !resume => Err(PortfolioError::AlreadyStarted { dir: name }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error(&file, e)),
        Err(_) => write_file(&file, text),
    }
}

/// Makes `dir` and writes `spec` into it as `portfolio.ron`, or checks that the portfolio
/// already there is of this spec (so a resubmission resumes it), under the folder's lock (so
/// not while a driver works in it): what `evomcts slurm --kind portfolio` does before any job
/// runs, so that no two of its jobs race to write the spec.
pub fn store_spec(spec: &PortfolioSpec, dir: &Path) -> Result<(), PortfolioError> {
    let _lock = evomcts_records::runfs::RunLock::open_run_folder(
        dir,
        evomcts_records::runfs::RunKind::Portfolio,
        &format!("portfolio `{}`", spec.name),
    )?;
    check_stored_spec(dir, &spec.to_ron(), true)
}

/// Whether `dir` holds a portfolio (its `portfolio.ron`).
pub fn is_portfolio(dir: &Path) -> bool {
    evomcts_records::runfs::folder_kind(dir)
        .is_some_and(|f| f.kind == Some(evomcts_records::runfs::RunKind::Portfolio))
}
