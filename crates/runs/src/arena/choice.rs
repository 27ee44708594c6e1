//! Which game a spec plays.

use evomcts_games::carcassonne::GameState;
use evomcts_games::carcassonne::Rules;
use evomcts_games::pig::{PigRules, PigState};
use evomcts_games::Game;
use evomcts_search::ControllerSpec;
use serde::{Deserialize, Serialize};

/// The game of a league, an evolution run or a validation: `Carcassonne` (the default, whose
/// rules are the spec's `rules` field) or `Pig(target: 100)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameChoice {
    #[default]
    Carcassonne,
    Pig(PigRules),
}

impl GameChoice {
    /// Whether this is the default, which specs leave out.
    pub fn is_carcassonne(&self) -> bool {
        *self == GameChoice::Carcassonne
    }

    /// The game's name for tables and messages: `Carcassonne`, `Pig to 100`.
    pub fn label(&self) -> String {
        match self {
            GameChoice::Carcassonne => "Carcassonne".into(),
            GameChoice::Pig(rules) => format!("Pig to {}", rules.target),
        }
    }

    /// A spec's Carcassonne `rules` are meaningful only when it plays Carcassonne: another game
    /// with rules other than the default is an error naming the field, not a silent no-op.
    pub fn check_rules(&self, rules: &Rules) -> Result<(), (String, String)> {
        if !self.is_carcassonne() && *rules != Rules::default() {
            return Err((
                "rules".into(),
                format!(
                    "Carcassonne's rules, but the spec plays {}: leave `rules` out",
                    self.label()
                ),
            ));
        }
        Ok(())
    }

    /// Whether the game gives moves features (the formula terminals `G` … `T`).
    pub fn offers_move_features(&self) -> bool {
        match self {
            GameChoice::Carcassonne => <GameState as Game>::OFFERS_MOVE_FEATURES,
            GameChoice::Pig(_) => <PigState as Game>::OFFERS_MOVE_FEATURES,
        }
    }

    /// That the game offers what a controller asks of it (a Star evaluation), the message
    /// naming the setting.
    pub fn check_controller(&self, spec: &ControllerSpec) -> Result<(), String> {
        match self {
            GameChoice::Carcassonne => Ok(()),
            GameChoice::Pig(_) => spec
                .validate_for::<PigState>()
                .map_err(|e| format!("{e} (in {})", self.label())),
        }
    }

    /// The highest final score a player can reach. Pig: a banked score below the target plus
    /// one last roll of at most 6. Carcassonne: a bound far above what its 72 tiles can score
    /// (a few hundred points), so no game is refused and NaN, infinities and `1e308` are.
    pub fn max_score(&self) -> f64 {
        match self {
            GameChoice::Carcassonne => 10_000.0,
            GameChoice::Pig(rules) => f64::from(rules.target) + 5.0,
        }
    }

    /// That `score` is a final score a game of this game can end with: a whole number from 0
    /// to [`Self::max_score`]. What a file or another process reports as a score (a
    /// validation's rows, a job step's results) is checked here before it is counted.
    pub fn check_final_score(&self, score: f64) -> Result<(), String> {
        let max = self.max_score();
        if !(score.is_finite() && score.fract() == 0.0 && (0.0..=max).contains(&score)) {
            return Err(format!(
                "a final score of {} is a whole number from 0 to {max}, got {}",
                self.label(),
                crate::escape::number(score)
            ));
        }
        Ok(())
    }

    /// Builds the controller of `spec` for this game once and drops it: what a run does before
    /// it touches the disk, so a spec that cannot be played leaves nothing behind.
    pub fn check_builds(&self, spec: &ControllerSpec) -> Result<(), String> {
        let built = match self {
            GameChoice::Carcassonne => spec.build::<GameState>(0).map(drop),
            GameChoice::Pig(_) => spec.build::<PigState>(0).map(drop),
        };
        built.map_err(|e| e.to_string())
    }
}
