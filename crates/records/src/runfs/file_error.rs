//! The one error of a run's own data files (a validation's `games.csv`, a tuning run's
//! `tune.csv`, a job step's files): what went wrong, always with the file's path, and, where a
//! file holds what it should not, its line. Validation, tuning and the job steps carry it
//! (`ValidateError::File`, `TuneError::File`, `StepError::File`) instead of each its own copy.

use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be read or written, or is missing.
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    /// The file holds what the run could not have written; it is left as it is.
    #[error("{file}:{line}: {message} (left untouched; remove the folder to start again)")]
    Corrupt {
        file: String,
        line: usize,
        message: String,
    },
}

impl FileError {
    /// `path` could not be read or written: `e` says why.
    pub fn io(path: &Path, e: impl std::fmt::Display) -> FileError {
        FileError::Io {
            file: path.display().to_string(),
            message: e.to_string(),
        }
    }

    /// `path` holds at `line` what a run could not have written: `message` says what.
    pub fn corrupt(path: &Path, line: usize, message: impl Into<String>) -> FileError {
        FileError::Corrupt {
            file: path.display().to_string(),
            line,
            message: message.into(),
        }
    }
}

/// Writes `text` to `path` whole or not at all (`write_atomically`), the error naming the file.
pub fn write_file(path: &Path, text: &str) -> Result<(), FileError> {
    super::write_atomically(path, text.as_bytes()).map_err(|e| FileError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_names_its_file() {
        let path = Path::new("runs/v/games.csv");
        assert_eq!(
            FileError::io(path, "no such file").to_string(),
            "runs/v/games.csv: no such file"
        );
        assert_eq!(
            FileError::corrupt(path, 3, "7 fields, expected 6").to_string(),
            "runs/v/games.csv:3: 7 fields, expected 6 (left untouched; remove the folder to start again)"
        );
        let folder =
            std::env::temp_dir().join(format!("evomcts-file-error-{}", std::process::id()));
        let err = write_file(&folder.join("missing").join("x.csv"), "a").unwrap_err();
        assert!(
            err.to_string().starts_with(&folder.display().to_string()),
            "{err}"
        );
    }
}
