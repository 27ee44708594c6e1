//! Where two controllers meet over a game: which game a league, an evolution run or a
//! validation plays (`GameChoice`), what a finished game leaves (`PlayedGame`), the play
//! and replay loops that make and check those records (`play`), a seat played by moves from
//! outside the searches (`source`: a person, or a person's recorded moves), and both seatings
//! of a chance sequence between a candidate and another controller (`seatings`).
//!
//! Carcassonne is played by its own referee (`game::referee`: a shuffled tile stack, the
//! official and bottom-of-stack rules); every other game by one loop over [`evomcts_games::Game`]
//! whose chance outcomes come, in order, from one RNG seeded by the game's seed, so the two
//! seatings of a seed meet the same stream of outcomes.
//!
//! Architecture invariant: above `game`, `games` and `search` (and `runfs`'s seed derivation),
//! below `league` and `evolve`; no file I/O. A spec that names no game plays Carcassonne, and
//! the choice is then left out of the stored spec, so specs, hashes and records made before
//! games could be chosen are unchanged.

pub mod budgets;
pub mod choice;
pub mod history;
pub mod open_spiel;
pub mod play;
pub mod positions;
pub mod record;
pub mod seatings;
pub mod source;

pub use choice::{GameChoice, GameTask, GameType, RecordKind};
pub use history::{
    history_moves, play_history, replay_history, HistoryRecord, ReplayError, Stated, Step,
};
pub use open_spiel::{OpenSpielGame, OpenSpielSpec};
pub use play::{
    play_pig, play_sampled, play_seated, play_seated_with, replay_pig, replay_pig_observed,
    PigReplayError, PlayError, SeatedPlay,
};
pub use positions::random_game_position;
pub use record::{PigRecord, PlayedGame};
pub use seatings::{
    by_seat, play_both_seatings, play_both_seatings_recorded, play_pairing_games, Pairing,
    SeatedGame, SeatingScores,
};
pub use source::{MoveSource, NoSource, Position, RecordedMoves, Sitter};
