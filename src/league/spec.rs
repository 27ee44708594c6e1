//! A league as a researcher writes it: a RON file naming the controllers, the games per match,
//! the master seed, the rules and the bonus-point thresholds.
//!
//! Specs are parsed with the `unwrap_variant_newtypes` and `implicit_some` extensions so that
//! `Mcts(c_e: 1.0, es: (mode: Partial))` reads naturally. Errors name the file, the line and
//! column (syntax) or the field (meaning).

use crate::game::Rules;
use crate::search::ControllerSpec;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Match points and their bonus thresholds (Table III of the main paper). A match's winner is
/// the controller that won more of its games; the winner's share is its wins over all games of
/// the match (draws included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BonusRules {
    pub win_points: u32,
    pub draw_points: u32,
    pub loss_points: u32,
    /// A bonus win point when the winner's share exceeds this (0.75 in the paper; the paper's
    /// public code used 0.70 with `>=`).
    pub bonus_win_share: f64,
    /// Strictly above (`true`, the paper) or at least (`false`).
    pub bonus_win_strict: bool,
    /// A bonus loss point to the loser when the winner's share is at most this (0.55).
    pub bonus_loss_share: f64,
    /// Strictly below (`true`) or at most (`false`, the paper).
    pub bonus_loss_strict: bool,
}

impl Default for BonusRules {
    fn default() -> Self {
        BonusRules {
            win_points: 4,
            draw_points: 2,
            loss_points: 0,
            bonus_win_share: 0.75,
            bonus_win_strict: true,
            bonus_loss_share: 0.55,
            bonus_loss_strict: false,
        }
    }
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entrant {
    pub name: String,
    pub spec: ControllerSpec,
}

/// What to keep of each ES decision in the records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EsDetail {
    /// The chosen formula and each generation's best and mean fitness.
    #[default]
    Summary,
    /// Every candidate of every generation as well (large: ~80 formulas per decision).
    Full,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub games_per_match: u32,
    pub seed: u64,
    #[serde(default)]
    pub rules: Rules,
    #[serde(default)]
    pub bonus: BonusRules,
    #[serde(default)]
    pub es_detail: EsDetail,
    pub controllers: Vec<Entrant>,
}

#[derive(Debug, thiserror::Error)]
pub enum SpecFileError {
    #[error("cannot read {file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{file}: field `{field}`: {message}")]
    Invalid {
        file: String,
        field: String,
        message: String,
    },
}

/// The RON dialect of every spec file (leagues, evolution runs).
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(
        ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
            | ron::extensions::Extensions::IMPLICIT_SOME,
    )
}

/// Reads a spec file's text; the error names the file.
pub fn read_spec_text(path: &Path) -> Result<String, SpecFileError> {
    std::fs::read_to_string(path).map_err(|source| SpecFileError::Io {
        file: path.display().to_string(),
        source,
    })
}

/// Parses a spec from RON and validates it with `validate` (which returns the bad field and
/// what is wrong); errors name `file` and the line and column or the field.
pub fn parse_spec<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &str,
    validate: impl FnOnce(&T) -> Result<(), (String, String)>,
) -> Result<T, SpecFileError> {
    let spec: T = ron_options()
        .from_str(text)
        .map_err(|e| SpecFileError::Syntax {
            file: file.to_string(),
            line: e.position.line,
            column: e.position.col,
            message: e.code.to_string(),
        })?;
    validate(&spec).map_err(|(field, message)| SpecFileError::Invalid {
        file: file.to_string(),
        field,
        message,
    })?;
    Ok(spec)
}

impl LeagueSpec {
    pub fn from_file(path: impl AsRef<Path>) -> Result<LeagueSpec, SpecFileError> {
        let path = path.as_ref();
        Self::from_ron(&read_spec_text(path)?, &path.display().to_string())
    }

    /// Parses and validates a spec; `file` names it in errors.
    pub fn from_ron(text: &str, file: &str) -> Result<LeagueSpec, SpecFileError> {
        parse_spec(text, file, LeagueSpec::validate)
    }

    /// The spec as RON, in the form `from_ron` reads.
    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default();
        ron_options()
            .to_string_pretty(self, pretty)
            .expect("a spec serialises")
    }

    /// The first problem found, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((f.to_string(), m));
        if self.name.trim().is_empty() {
            return err("name", "must not be empty".into());
        }
        if self.games_per_match == 0 {
            return err("games_per_match", "must be at least 1".into());
        }
        if self.controllers.len() < 2 {
            return err(
                "controllers",
                format!(
                    "needs at least 2 entrants, found {}",
                    self.controllers.len()
                ),
            );
        }
        for (i, c) in self.controllers.iter().enumerate() {
            if c.name.trim().is_empty() {
                return err(
                    &format!("controllers[{i}].name"),
                    "must not be empty".into(),
                );
            }
            if self.controllers[..i].iter().any(|d| d.name == c.name) {
                return err(
                    &format!("controllers[{i}].name"),
                    format!("`{}` is used twice", c.name),
                );
            }
            if let Err(e) = c.spec.validate() {
                return err(
                    &format!("controllers[{i}].spec ({})", c.name),
                    e.to_string(),
                );
            }
        }
        let b = &self.bonus;
        for (f, v) in [
            ("bonus.bonus_win_share", b.bonus_win_share),
            ("bonus.bonus_loss_share", b.bonus_loss_share),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return err(f, format!("must be a share in [0, 1], found {v}"));
            }
        }
        Ok(())
    }

    /// A hash of everything that determines the league's games and tables: a run refuses to
    /// resume under a spec whose hash differs. FNV-1a over the canonical RON text, stable
    /// across platforms and Rust versions.
    pub fn hash(&self) -> String {
        let text = self.to_ron();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    pub fn names(&self) -> Vec<String> {
        self.controllers.iter().map(|c| c.name.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"(
        name: "tiny",
        games_per_match: 2,
        seed: 7,
        controllers: [
            (name: "Random", spec: Random),
            (name: "MCTS", spec: Mcts(sims: 50, c_e: 1.0)),
        ],
    )"#;

    #[test]
    fn a_spec_round_trips_through_ron_and_keeps_its_hash() {
        let spec = LeagueSpec::from_ron(GOOD, "tiny.ron").unwrap();
        let again = LeagueSpec::from_ron(&spec.to_ron(), "again.ron").unwrap();
        assert_eq!(spec, again);
        assert_eq!(spec.hash(), again.hash());
        let mut other = spec.clone();
        other.seed = 8;
        assert_ne!(spec.hash(), other.hash());
    }

    #[test]
    fn syntax_errors_name_file_line_and_column() {
        let bad = GOOD.replace("games_per_match: 2,", "games_per_match: two,");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("tiny.ron:3:"), "{msg}");
    }

    #[test]
    fn invalid_fields_are_named() {
        let bad = GOOD.replace("c_e: 1.0", "c_e: -1.0");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("controllers[1].spec (MCTS)") && msg.contains("c_e"),
            "{msg}"
        );
        let bad = GOOD.replace("\"MCTS\"", "\"Random\"");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.contains("used twice"), "{msg}");
        let bad = GOOD.replace("games_per_match: 2", "games_per_match: 0");
        let msg = LeagueSpec::from_ron(&bad, "tiny.ron")
            .unwrap_err()
            .to_string();
        assert!(msg.contains("games_per_match"), "{msg}");
    }
}
