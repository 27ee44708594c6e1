//! Figures of runs, and the drawing every figure shares: which formulas the ES chose
//! (`formulas`, Table XI's counts and the drift measure, as tables and bar charts), how a
//! league went (`league_plots`), how games unfolded and how the ES behaved (`curves`),
//! pictures of boards (`board`), how an evolution run went (`evolution_plots`), the front between simple and strong of
//! one (`pareto_plot`), how a
//! tuning run moved its constants (`tune_plots`) and a portfolio's generalisation matrix as a
//! heat map per budget (`matrix_plot`).
//! `run_figures` draws every figure of a run folder of either kind (`write_run_figures`).
//! Every figure is written as PNG and SVG with an embedded font (`font`, `chart`), so plots
//! render on a machine with no system fonts or libraries.
//!
//! Imports: the layers below analysis and plotters, never `report` or `studies`: both draw
//! through here, so a figure looks the same wherever it is shown.

pub mod board;
pub mod chart;
pub mod curves;
pub mod evolution_plots;
pub mod font;
pub mod formulas;
pub mod league_plots;
pub mod matrix_plot;
pub mod pareto_plot;
pub mod run_figures;
pub mod tune_plots;

pub use run_figures::{write_run_figures, RunFolder, Written, DEFAULT_TOP};

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: cannot draw the figure: {message}")]
    Draw { path: String, message: String },
    #[error("the embedded font could not be loaded")]
    Font,
    #[error("{0}")]
    Data(String),
    #[error(transparent)]
    League(#[from] evomcts_league::LoadError),
    #[error(transparent)]
    Evolution(#[from] evomcts_evolve::PopulationError),
    /// A table of the run that does not read (`records::csv`): its file, line and field.
    #[error(transparent)]
    Csv(#[from] evomcts_records::csv::CsvError),
}

/// One figure on disk: its title and its two files.
#[derive(Clone, Debug, PartialEq)]
pub struct WrittenFigure {
    pub title: String,
    pub svg: PathBuf,
    pub png: PathBuf,
}

/// Writes a text file into `dir` (created if needed) through a temporary name, so a reader
/// never sees half a table.
pub fn write_text(dir: &Path, name: &str, text: &str) -> Result<PathBuf, PlotError> {
    let io = |path: &Path, source| PlotError::Io {
        path: path.display().to_string(),
        source,
    };
    evomcts_records::runfs::create_folder(dir).map_err(|e| io(dir, e))?;
    let path = dir.join(name);
    evomcts_records::runfs::write_atomically(&path, text.as_bytes()).map_err(|e| io(&path, e))?;
    Ok(path)
}
