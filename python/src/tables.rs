//! The CSV tables of run folders read by the one reader the command line's `report`, `plot`
//! and resume paths use (`evomcts_records::csv`): `evomcts.study`, `evomcts.portfolio` and
//! `load_run` get a table checked field count by field count, an open quote or a file cut in
//! its last row refused naming the file, the row and the column, before pandas sees it.

use pyo3::prelude::*;
use std::path::{Path, PathBuf};

use evomcts_records::csv::{CsvError, Table};

/// The error as Python's readers word theirs: `FILE: row R, column `C` (field K): ...`, the
/// header being row 1, as a spreadsheet numbers rows.
fn raise(e: CsvError) -> PyErr {
    let message = match &e {
        CsvError::Io { .. } => e.to_string(),
        CsvError::Bad { file, line, .. } => {
            let place = match (e.column(), &e) {
                (Some(column), CsvError::Bad { field: Some(k), .. }) => format!(
                    "row {line}, column `{}` (field {k})",
                    evomcts_records::escape::terminal(column)
                ),
                _ if *line == 1 => "row 1 (the header)".to_string(),
                _ => format!("row {line}"),
            };
            format!("{file}: {place}: {}", e.message())
        }
    };
    crate::EvomctsError::new_err(message)
}

/// The header the writer of the run file `name` writes, for the files the Python readers
/// read; `None` for another.
fn known_header(name: &str) -> Option<String> {
    use evomcts::analysis::report;
    Some(match name {
        "logbook.csv" => evomcts_evolve::report::LOGBOOK_HEADER.to_string(),
        "hall_of_fame.csv" => evomcts_evolve::report::HALL_OF_FAME_HEADER.to_string(),
        "study.csv" => evomcts::study::STUDY_CSV_HEADER.to_string(),
        "portfolio.csv" => evomcts::portfolio::PORTFOLIO_CSV_HEADER.to_string(),
        "matrix.csv" => evomcts::portfolio::MATRIX_CSV_HEADER.to_string(),
        "general.csv" => evomcts::portfolio::general::GENERAL_CSV_HEADER.to_string(),
        "shared.csv" => report::SHARED_CSV_HEADER.to_string(),
        "correlations.csv" => report::CORRELATIONS_CSV_HEADER.to_string(),
        _ => return None,
    })
}

/// The table as Python takes it: its columns, then its rows' fields as text.
type Rows = (Vec<String>, Vec<Vec<String>>);

/// The CSV file `path` read by the command line's reader, with the header it has (the caller
/// checks its columns), every row checked against it: (columns, rows of text). A missing file
/// or one that does not read raises `EvomctsError` naming the file (and its row and column).
#[pyfunction]
fn read_csv(path: PathBuf) -> PyResult<Rows> {
    let text = evomcts_records::runfs::read_capped_text(
        &path,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a run's table",
    )
    .map_err(|e| {
        raise(CsvError::Io {
            file: path.display().to_string(),
            message: e.to_string(),
        })
    })?;
    let table = Table::parse_any(&path, &text).map_err(raise)?;
    Ok((table.columns().to_vec(), table.into_rows()))
}

/// The CSV text of the run file `file` checked as the command line reads it: against the
/// header its writer writes when `file` is one of the files Python reads (`logbook.csv`,
/// `hall_of_fame.csv`, `study.csv`, the portfolio's tables), else against its own header.
#[pyfunction]
fn check_csv(text: &str, file: PathBuf) -> PyResult<()> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match known_header(&name) {
        Some(header) => Table::parse(Path::new(&file), text, &header),
        None => Table::parse_any(Path::new(&file), text),
    }
    .map_err(raise)?;
    Ok(())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_csv, m)?)?;
    m.add_function(wrap_pyfunction!(check_csv, m)?)?;
    Ok(())
}
