//! Which game a spec plays: the registry of games. [`GameChoice`] lists every game the tool
//! plays and [`GameChoice::dispatch`] is the one `match` that turns a choice into its start
//! state, a generic `G: Game`; everything else the runs do with a game goes through it, so a
//! new game is registered by a variant and an arm here (docs/new-game.md).

use evomcts_games::carcassonne::GameState;
use evomcts_games::carcassonne::Rules;
use evomcts_games::connect_four::ConnectFourState;
use evomcts_games::pig::{PigRules, PigState};
use evomcts_games::Game;
use evomcts_search::ControllerSpec;
use serde::{Deserialize, Serialize};

/// The game of a league, an evolution run or a validation: `Carcassonne` (the default, whose
/// rules are the spec's `rules` field), `Pig(target: 100)` or `ConnectFour`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameChoice {
    #[default]
    Carcassonne,
    Pig(PigRules),
    ConnectFour,
}

/// Work on one game whatever the game: [`GameChoice::dispatch`] calls `run` with the game's
/// start state.
pub trait GameTask {
    type Output;
    fn run<G: Game>(self, start: G) -> Self::Output;
}

impl GameChoice {
    /// Whether this is the default, which specs leave out.
    pub fn is_carcassonne(&self) -> bool {
        *self == GameChoice::Carcassonne
    }

    /// Runs `task` on the game's start state (Carcassonne under `rules`): the one place that
    /// lists the games. An error says why the game's parameters give no start state.
    pub fn dispatch<T: GameTask>(&self, rules: Rules, task: T) -> Result<T::Output, String> {
        Ok(match *self {
            GameChoice::Carcassonne => task.run(GameState::new(rules)),
            GameChoice::Pig(pig) => task.run(PigState::new(pig).map_err(|e| e.to_string())?),
            GameChoice::ConnectFour => task.run(ConnectFourState::new()),
        })
    }

    /// The game's name for tables and messages: `Carcassonne`, `Pig to 100`, `Connect Four`.
    pub fn label(&self) -> String {
        match self {
            GameChoice::Carcassonne => "Carcassonne".into(),
            GameChoice::Pig(rules) => format!("Pig to {}", rules.target),
            GameChoice::ConnectFour => "Connect Four".into(),
        }
    }

    /// What the seed of a game's chance events is called in tables and messages.
    pub fn seed_name(&self) -> &'static str {
        match self {
            GameChoice::Carcassonne => "tile seed",
            GameChoice::Pig(_) => "dice seed",
            _ => "seed",
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
        struct Offers;
        impl GameTask for Offers {
            type Output = bool;
            fn run<G: Game>(self, _: G) -> bool {
                G::OFFERS_MOVE_FEATURES
            }
        }
        self.dispatch(Rules::default(), Offers).unwrap_or(false)
    }

    /// That the game offers what a controller asks of it (a Star evaluation), the message
    /// naming the setting.
    pub fn check_controller(&self, spec: &ControllerSpec) -> Result<(), String> {
        struct Check<'a>(&'a ControllerSpec);
        impl GameTask for Check<'_> {
            type Output = Result<(), String>;
            fn run<G: Game>(self, _: G) -> Result<(), String> {
                match self.0 {
                    ControllerSpec::Star(star) => {
                        star.validate_for::<G>().map_err(|e| e.to_string())
                    }
                    // A game that gives every move feature leaves nothing of an MCTS spec to
                    // check here; its formula files are read and checked with the spec.
                    _ if G::OFFERS_MOVE_FEATURES => Ok(()),
                    spec => spec.validate_for::<G>().map_err(|e| e.to_string()),
                }
            }
        }
        self.dispatch(Rules::default(), Check(spec))?
            .map_err(|e| format!("{e} (in {})", self.label()))
    }

    /// The highest final score a player can reach ([`Game::max_score`]).
    pub fn max_score(&self) -> f64 {
        struct MaxScore;
        impl GameTask for MaxScore {
            type Output = f64;
            fn run<G: Game>(self, start: G) -> f64 {
                start.max_score()
            }
        }
        self.dispatch(Rules::default(), MaxScore)
            .unwrap_or(f64::from(i32::MAX))
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
        struct Build<'a>(&'a ControllerSpec);
        impl GameTask for Build<'_> {
            type Output = Result<(), String>;
            fn run<G: Game>(self, _: G) -> Result<(), String> {
                self.0.build::<G>(0).map(drop).map_err(|e| e.to_string())
            }
        }
        self.dispatch(Rules::default(), Build(spec))?
    }
}
