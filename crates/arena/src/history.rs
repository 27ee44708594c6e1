//! The record of a game that has no record of its own: its history, as OpenSpiel keeps one.
//! A game registered in [`GameChoice`] gets it with no code of its own: the seed of its chance
//! events, every move as the game serialises it, every chance outcome by its label
//! ([`Game::chance_outcomes`]), the final scores and each seat's decisions. Replaying the
//! history on the game's start state gives the end back; the one replay loop,
//! [`replay_history`], also replays Pig's own records.

use super::choice::GameChoice;
use evomcts_games::carcassonne::seed_string;
use evomcts_games::{ChanceOutcome, Controller, Game, GameRng};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// A finished game of a game without a record type of its own. Told apart from other
/// records by its `game` field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryRecord {
    /// The game and its parameters, as the spec names it.
    pub game: GameChoice,
    /// The seed of the chance events.
    #[serde(with = "seed_string")]
    pub seed: u64,
    /// Every decision's move, in order, as the game serialises its moves.
    pub moves: Vec<serde_json::Value>,
    /// Every chance outcome's label, in order (empty for a game without chance).
    pub outcomes: Vec<u8>,
    pub final_scores: [i32; 2],
    /// Decisions each seat took.
    pub turns: [u16; 2],
    /// The version of OpenSpiel that played an OpenSpiel game (absent for native games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_spiel: Option<String>,
}

/// What the play and replay loops report after each step (`play_sampled`, [`replay_history`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<M> {
    Moved {
        player: usize,
        mv: M,
    },
    /// A chance event resolved with `outcome` (its label, as [`Game::apply_outcome`] takes
    /// it).
    Chance {
        outcome: u8,
    },
}

/// Why a recorded history does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the record's rules: {0}")]
    Rules(String),
    #[error("the record ends before the game does: no {0} left")]
    RunsOut(&'static str),
    #[error(
        "the game ends with {moves} moves and {outcomes} chance outcomes of the record unplayed"
    )]
    Unplayed { moves: usize, outcomes: usize },
    #[error("move {index}: {message}")]
    Move { index: usize, message: String },
    #[error("chance outcome {index}: {message}")]
    Outcome { index: usize, message: String },
    #[error("the replayed final scores {replayed:?} differ from the recorded {recorded:?} (field `final_scores`)")]
    Scores {
        replayed: [i32; 2],
        recorded: [i32; 2],
    },
    #[error("the replayed moves give each seat {replayed:?} decisions, but the record states {recorded:?} (field `turns`)")]
    Turns {
        replayed: [u16; 2],
        recorded: [u16; 2],
    },
}

/// What a record states of its game's end beside its moves, which the replay must reproduce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stated {
    pub final_scores: [i32; 2],
    /// Decisions each seat took.
    pub turns: [u16; 2],
}

/// One game from `start` between `controllers`, its chance outcomes drawn one at a time from
/// the exact weights of [`Game::chance_outcomes`] with one RNG seeded by `seed`, so both
/// seatings of a seed meet the same outcomes as long as the games do not diverge, and every
/// outcome is in the history. An error says what the game refused.
pub fn play_history<G: Game>(
    choice: GameChoice,
    start: G,
    seed: u64,
    controllers: [&mut dyn Controller<G>; 2],
) -> Result<HistoryRecord, String> {
    let mut state = start;
    let mut chance = GameRng::seed_from_u64(seed);
    let mut weighted: Vec<ChanceOutcome> = Vec::new();
    let mut record = HistoryRecord {
        game: choice,
        seed,
        moves: Vec::new(),
        outcomes: Vec::new(),
        final_scores: [0; 2],
        turns: [0; 2],
        open_spiel: choice.open_spiel_version(),
    };
    let failed = |e: G::Error| e.to_string();
    while !state.is_over() {
        if state.at_decision() {
            let player = state.to_move();
            let mv = controllers[player].choose_move(&state);
            state.apply_move(mv).map_err(failed)?;
            record
                .moves
                .push(serde_json::to_value(mv).map_err(|e| format!("the move {mv:?}: {e}"))?);
            record.turns[player] = record.turns[player].saturating_add(1);
        } else {
            state.chance_outcomes(&mut weighted);
            let outcome = evomcts_games::draw_weighted(&weighted, &mut chance)
                .ok_or_else(|| "a chance event with no outcome".to_string())?;
            state.apply_outcome(outcome).map_err(failed)?;
            record.outcomes.push(outcome);
        }
    }
    record.final_scores = state.scores();
    Ok(record)
}

/// Replays a history from `start`: each move and chance outcome in turn, checked legal, and
/// the replayed final scores and decisions per seat compared with what the record states;
/// `observe(state, step)` is called after each. Returns the final state. The one replay loop
/// of every game but Carcassonne (whose referee replays its stack).
pub fn replay_history<G: Game>(
    start: G,
    moves: impl IntoIterator<Item = Result<G::Move, String>>,
    outcomes: &[u8],
    stated: Stated,
    mut observe: impl FnMut(&G, Step<G::Move>),
) -> Result<G, ReplayError> {
    let mut state = start;
    let mut turns = [0u16; 2];
    let mut moves = moves.into_iter().enumerate();
    let mut outcomes = outcomes.iter().enumerate();
    while !state.is_over() {
        if state.at_decision() {
            let (index, mv) = moves.next().ok_or(ReplayError::RunsOut("move"))?;
            let mv = mv.map_err(|message| ReplayError::Move { index, message })?;
            let player = state.to_move();
            state.apply_move(mv).map_err(|e| ReplayError::Move {
                index,
                message: e.to_string(),
            })?;
            turns[player] = turns[player].saturating_add(1);
            observe(&state, Step::Moved { player, mv });
        } else {
            let (index, &outcome) = outcomes
                .next()
                .ok_or(ReplayError::RunsOut("chance outcome"))?;
            state
                .apply_outcome(outcome)
                .map_err(|e| ReplayError::Outcome {
                    index,
                    message: e.to_string(),
                })?;
            observe(&state, Step::Chance { outcome });
        }
    }
    let (moves, outcomes) = (moves.count(), outcomes.count());
    if moves + outcomes > 0 {
        return Err(ReplayError::Unplayed { moves, outcomes });
    }
    if state.scores() != stated.final_scores {
        return Err(ReplayError::Scores {
            replayed: state.scores(),
            recorded: stated.final_scores,
        });
    }
    if turns != stated.turns {
        return Err(ReplayError::Turns {
            replayed: turns,
            recorded: stated.turns,
        });
    }
    Ok(state)
}

impl HistoryRecord {
    /// What it states of its game's end beside its moves.
    pub fn stated(&self) -> Stated {
        Stated {
            final_scores: self.final_scores,
            turns: self.turns,
        }
    }
}

/// A history record's moves, decoded as `G`'s moves.
pub fn history_moves<G: Game>(
    record: &HistoryRecord,
) -> impl Iterator<Item = Result<G::Move, String>> + '_ {
    record
        .moves
        .iter()
        .map(|v| G::Move::deserialize(v).map_err(|e| format!("`{v}` is not a move: {e}")))
}
