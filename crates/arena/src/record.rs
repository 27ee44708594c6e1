//! What a finished game leaves for tables, replay and analysis, whichever game it was.
//!
//! A Carcassonne record is written exactly as `carcassonne::GameRecord` always was (no tag),
//! so records made before games could be chosen read and write unchanged; a Pig record is told
//! apart by its `pig` field (its rules), and the history of any other game
//! (`arena::history`) by its `game` field.

use super::choice::GameChoice;
use super::history::HistoryRecord;
use evomcts_games::carcassonne::{seed_string, GameRecord};
use evomcts_games::pig::{PigMove, PigRules};
use serde::{Deserialize, Deserializer, Serialize};

/// A finished game of Pig: its dice seed, rules, every decision and every face rolled, in
/// order, and the final scores. Replaying the moves and faces (`arena::replay_pig`) gives the
/// final state back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PigRecord {
    #[serde(with = "seed_string")]
    pub dice_seed: u64,
    pub pig: PigRules,
    pub moves: Vec<PigMove>,
    /// The faces rolled (1–6), one per `Roll`.
    pub rolls: Vec<u8>,
    pub final_scores: [i32; 2],
    /// Decisions each seat took.
    pub turns: [u16; 2],
}

/// A finished game of any game the tool plays.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PlayedGame {
    Carcassonne(GameRecord),
    Pig(PigRecord),
    /// A game without a record of its own: its history.
    History(HistoryRecord),
}

impl<'de> Deserialize<'de> for PlayedGame {
    /// By the `pig` field (Pig) or the `game` field (a history): untagged matching would answer a damaged Carcassonne record with
    /// "matches no variant" instead of naming what is wrong with it. The record's text is kept
    /// raw and probed for the field without building a tree of it, which keeps reading records
    /// nearly as fast as reading Carcassonne's alone.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, IgnoredAny};
        #[derive(Deserialize)]
        struct Probe {
            #[serde(default)]
            pig: Option<IgnoredAny>,
            #[serde(default)]
            game: Option<IgnoredAny>,
        }
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        // Not an object at all: Carcassonne's parser says what was expected.
        let probe = serde_json::from_str::<Probe>(raw.get()).ok();
        let (is_pig, is_history) =
            probe.map_or((false, false), |p| (p.pig.is_some(), p.game.is_some()));
        let game = if is_pig {
            serde_json::from_str(raw.get()).map(PlayedGame::Pig)
        } else if is_history {
            serde_json::from_str(raw.get()).map(PlayedGame::History)
        } else {
            serde_json::from_str(raw.get()).map(PlayedGame::Carcassonne)
        };
        // The inner parser's position counts from the start of the game's object; the outer
        // one, which the caller sees, places the error in the whole line.
        game.map_err(|e| {
            let message = e.to_string();
            let message = message
                .rfind(" at line ")
                .map_or(message.as_str(), |at| &message[..at]);
            D::Error::custom(format!("in `game`: {message}"))
        })
    }
}

impl PlayedGame {
    pub fn final_scores(&self) -> [i32; 2] {
        match self {
            PlayedGame::Carcassonne(r) => r.final_scores,
            PlayedGame::Pig(r) => r.final_scores,
            PlayedGame::History(r) => r.final_scores,
        }
    }

    /// 0 or 1 for the winner, `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        use std::cmp::Ordering::*;
        let [a, b] = self.final_scores();
        match a.cmp(&b) {
            Greater => Some(0),
            Less => Some(1),
            Equal => None,
        }
    }

    /// The first seat's score minus the second's, in 64 bits (see
    /// `GameRecord::score_difference`).
    pub fn score_difference(&self) -> i64 {
        let [a, b] = self.final_scores();
        i64::from(a) - i64::from(b)
    }

    /// The seed of the game's chance events: Carcassonne's tile seed, Pig's dice seed, a
    /// history's seed.
    pub fn seed(&self) -> u64 {
        match self {
            PlayedGame::Carcassonne(r) => r.tile_seed,
            PlayedGame::Pig(r) => r.dice_seed,
            PlayedGame::History(r) => r.seed,
        }
    }

    /// Where the seed is in a record's line, for messages.
    pub fn seed_field(&self) -> &'static str {
        match self {
            PlayedGame::Carcassonne(_) => "game.tile_seed",
            PlayedGame::Pig(_) => "game.dice_seed",
            PlayedGame::History(_) => "game.seed",
        }
    }

    /// Decisions taken in the game.
    pub fn decisions(&self) -> usize {
        match self {
            PlayedGame::Carcassonne(r) => r.moves.len(),
            PlayedGame::Pig(r) => r.moves.len(),
            PlayedGame::History(r) => r.moves.len(),
        }
    }

    /// The game this is a record of, as a spec names it.
    pub fn choice(&self) -> GameChoice {
        match self {
            PlayedGame::Carcassonne(_) => GameChoice::Carcassonne,
            PlayedGame::Pig(r) => GameChoice::Pig(r.pig),
            PlayedGame::History(r) => r.game,
        }
    }

    /// The game's name: `Carcassonne`, `Pig to 100`.
    pub fn label(&self) -> String {
        self.choice().label()
    }

    pub fn carcassonne(&self) -> Option<&GameRecord> {
        match self {
            PlayedGame::Carcassonne(r) => Some(r),
            _ => None,
        }
    }

    pub fn carcassonne_mut(&mut self) -> Option<&mut GameRecord> {
        match self {
            PlayedGame::Carcassonne(r) => Some(r),
            _ => None,
        }
    }
}
