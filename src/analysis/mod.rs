//! Analysis of league runs for people: which formulas the ES chose (`formulas`), how a league
//! went (`league_plots`), how games unfolded and how the ES behaved (`curves`), and pictures of
//! boards (`board`). Every figure is written as PNG and SVG with an embedded font (`font`,
//! `chart`), so plots render on a machine with no system fonts or libraries.
//!
//! Layering: analysis reads league records and uses the game, formula and league layers;
//! nothing below it uses analysis.

pub mod board;
pub mod chart;
pub mod curves;
pub mod font;
pub mod formulas;
pub mod league_plots;
pub mod replication;
pub mod report;

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
}

/// Writes a text file into `dir` (created if needed) through a temporary name, so a reader
/// never sees half a table.
pub fn write_text(dir: &Path, name: &str, text: &str) -> Result<PathBuf, PlotError> {
    let io = |path: &Path, source| PlotError::Io {
        path: path.display().to_string(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    let path = dir.join(name);
    crate::runfs::write_atomically(&path, text.as_bytes()).map_err(|e| io(&path, e))?;
    Ok(path)
}
