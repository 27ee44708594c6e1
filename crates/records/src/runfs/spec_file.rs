//! Spec files: RON in one dialect for every kind of run, validated on reading, and every file a
//! spec names (a formula file, a grammar file) read then and its content put in the spec, so
//! the spec's hash covers what is played and later edits of those files cannot change a run.

use super::read::{read_capped_text, MAX_SPEC_FILE_BYTES};
use evomcts_formula::{Grammar, RonSyntaxError};
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use serde::{de::DeserializeOwned, Serialize};
use std::path::Path;

/// Why a spec file (league, evolution run) or a file it names could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SpecFileError {
    #[error("cannot read {file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Syntax(RonSyntaxError),
    #[error("{file}: field `{field}`: {message}")]
    Invalid {
        file: String,
        field: String,
        message: String,
    },
}

impl From<evomcts_formula::GrammarError> for SpecFileError {
    fn from(err: evomcts_formula::GrammarError) -> Self {
        use evomcts_formula::GrammarError as G;
        match err {
            G::Io { file, source } => SpecFileError::Io { file, source },
            G::Syntax(syntax) => SpecFileError::Syntax(syntax),
            G::Invalid {
                file,
                line,
                column,
                field,
                message,
            } => SpecFileError::Syntax(RonSyntaxError {
                file,
                line,
                column,
                message: format!("field `{field}`: {message}"),
            }),
            G::NotResolved(name) => SpecFileError::Invalid {
                file: String::new(),
                field: "grammar".into(),
                message: format!("`{name}` was not read as a grammar file"),
            },
        }
    }
}

/// The RON dialect of every spec file (leagues, evolution runs).
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(
            ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                | ron::extensions::Extensions::IMPLICIT_SOME,
        )
        // Deeply nested input fails with a syntax error instead of exhausting the stack.
        .with_recursion_limit(128)
}

/// Reads a text file a spec consists of or names; the error names the file.
pub fn read_spec_text(path: &Path) -> Result<String, SpecFileError> {
    read_capped_text(path, MAX_SPEC_FILE_BYTES, "a spec").map_err(|source| SpecFileError::Io {
        file: path.display().to_string(),
        source,
    })
}

/// Parses a spec from RON and validates it with `validate` (which returns the bad field and
/// what is wrong); errors name `file` and the line and column or the field.
pub fn parse_spec<T: DeserializeOwned>(
    text: &str,
    file: &str,
    validate: impl FnOnce(&T) -> Result<(), (String, String)>,
) -> Result<T, SpecFileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let spec: T = ron_options()
        .from_str(text)
        .map_err(|e| SpecFileError::Syntax(RonSyntaxError::new(file, &e)))?;
    validate(&spec).map_err(|(field, message)| SpecFileError::Invalid {
        file: file.to_string(),
        field,
        message,
    })?;
    Ok(spec)
}

/// A spec file kind (league, evolution run): RON in the shared dialect, validated on reading,
/// with the files it names resolved relative to the spec file's folder and what its
/// controllers leave to the game (reward, final move) filled in from the spec's game, on
/// reading and in the text it writes: a stored spec names every value it plays with.
pub trait SpecFile: Serialize + DeserializeOwned + Clone {
    /// The first problem found, as (field, message).
    fn check(&self) -> Result<(), (String, String)>;

    /// Replaces every file the spec names by that file's content, reading paths relative to
    /// `base`; a spec that names no file is unchanged.
    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)>;

    /// Fills what the spec's MCTS controllers leave to the game (`reward`, `final_move`) with
    /// the defaults of the spec's game (`GameChoice::objective`).
    fn fill_game_defaults(&mut self);

    /// Parses and validates a spec as it is, without reading any file it names; `file` names
    /// it in errors. This is how a run's stored `spec.ron` is read.
    fn from_ron(text: &str, file: &str) -> Result<Self, SpecFileError> {
        let mut spec: Self = parse_spec(text, file, |_| Ok(()))?;
        spec.fill_game_defaults();
        spec.check()
            .map_err(|(field, message)| SpecFileError::Invalid {
                file: file.to_string(),
                field,
                message,
            })?;
        Ok(spec)
    }

    /// Reads a spec file and resolves the files it names relative to the spec file's folder.
    fn from_file(path: impl AsRef<Path>) -> Result<Self, SpecFileError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        // Validation waits for the named files: it checks their content.
        let mut spec: Self = parse_spec(&read_spec_text(path)?, &file, |_| Ok(()))?;
        spec.fill_game_defaults();
        let base = path.parent().unwrap_or(Path::new(""));
        spec.resolve_files(base)
            .map_err(|(field, message)| SpecFileError::Invalid {
                file: file.clone(),
                field,
                message,
            })?;
        spec.check()
            .map_err(|(field, message)| SpecFileError::Invalid {
                file,
                field,
                message,
            })?;
        Ok(spec)
    }

    /// The spec as RON, in the form `from_ron` reads, with the game's defaults written out
    /// (also for a spec built in code), so its text and hash are those of what it plays.
    fn to_ron(&self) -> String {
        let mut filled = self.clone();
        filled.fill_game_defaults();
        ron_options()
            .to_string_pretty(&filled, ron::ser::PrettyConfig::default())
            .expect("a spec serialises")
    }
}

/// Whether a grammar setting already holds a grammar's content rather than a name or path.
pub fn is_inline_grammar(name: &str) -> bool {
    Grammar::is_inline(name)
}

/// Reads a grammar file.
pub fn read_grammar(path: impl AsRef<Path>) -> Result<Grammar, evomcts_formula::GrammarError> {
    let path = path.as_ref();
    let file = path.display().to_string();
    let text = read_capped_text(path, MAX_SPEC_FILE_BYTES, "a grammar").map_err(|source| {
        evomcts_formula::GrammarError::Io {
            file: file.clone(),
            source,
        }
    })?;
    Grammar::from_ron(&text, &file)
}

/// A grammar setting resolved: built-in names and inline content stay, a path (relative to
/// `base`) is replaced by the grammar's content, validated.
pub fn resolve_grammar(name: &str, base: &Path) -> Result<String, String> {
    if matches!(name, "paper" | "ucb1_tuned") || is_inline_grammar(name) {
        return Ok(name.to_string());
    }
    let path = base.join(name);
    let text = read_spec_text(&path).map_err(|e| e.to_string())?;
    let grammar =
        Grammar::from_ron(&text, &path.display().to_string()).map_err(|e| e.to_string())?;
    Ok(grammar.to_ron())
}

/// A controller with every file it names (formula file, ES grammar file) read relative to
/// `base` and put in place as content, so building it reads no file.
pub fn resolve_controller(spec: &mut ControllerSpec, base: &Path) -> Result<(), (String, String)> {
    let ControllerSpec::Mcts(settings) = spec else {
        return Ok(());
    };
    if let Selection::FormulaFile(name) = &settings.selection {
        let path = base.join(name);
        let text = read_spec_text(&path).map_err(|e| ("selection".to_string(), e.to_string()))?;
        settings.selection = Selection::Formula(text.trim().to_string());
    }
    if let Some(es) = &mut settings.es {
        es.grammar = resolve_grammar(&es.grammar, base).map_err(|e| ("es.grammar".into(), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_is_dropped() {
        let parsed: Result<(u32,), _> = parse_spec("\u{feff}(7)", "bom.ron", |_| Ok(()));
        assert_eq!(parsed.unwrap(), (7,));
    }
}
