//! Moves from outside the searches: a seat of [`super::play_seated_with`] whose moves a
//! [`MoveSource`] gives, whichever game is played (a person at a terminal or in a browser, in
//! the command line; or the recorded moves of such a game, [`RecordedMoves`], when it is
//! played again from its seeds). The source is told every move of the other seat with what
//! that controller's search found, so a person can be shown it.

use super::record::PlayedGame;
use evomcts_games::Game;
use evomcts_search::{ControllerSpec, SearchSummary};

/// Who plays a seat of [`super::play_seated_with`]: a controller built from its spec, or the
/// caller's [`MoveSource`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sitter<'a> {
    Controller(&'a ControllerSpec),
    Source,
}

/// A decision of a [`Sitter::Source`] seat as the source sees it, whichever game is played:
/// the game is erased here, so [`super::play_seated_with`] is compiled once, in this crate,
/// and not again for every source type in every crate that plays games (issue 54's build
/// time). Moves are in the game's serialised form, as its records hold them.
pub trait Position {
    /// The position as text for people, where the game offers one ([`Game::text`]).
    fn text(&self) -> Option<String>;
    /// The legal moves, serialised, in the game's order.
    fn moves(&self) -> Vec<serde_json::Value>;
}

/// The moves of a [`Sitter::Source`] seat, for any game.
pub trait MoveSource {
    /// Root children of the other seat's searches that [`MoveSource::answered`] is given, most
    /// visited first (0: no summary is made).
    fn root_children(&self) -> usize {
        0
    }

    /// Whether [`MoveSource::answered`] is to be told the other seat's moves (a source that
    /// never plays does not need them serialised).
    fn hears(&self) -> bool {
        true
    }

    /// A legal move of `at`, a decision of the source's seat, serialised; `None` when the
    /// source has no more moves (a person left): the game then ends unfinished
    /// ([`super::PlayError::Unfinished`]). A value that is no move of the game is also `None`;
    /// a move that is not legal is an error, as a controller's is.
    fn choose(&mut self, at: &dyn Position) -> Option<serde_json::Value>;

    /// The other seat's controller chose `mv` (serialised), its search having found `search`
    /// (with [`MoveSource::root_children`] children, moves serialised; `None` for a controller
    /// that does not search).
    fn answered(
        &mut self,
        mv: serde_json::Value,
        search: Option<&SearchSummary<serde_json::Value>>,
    ) {
        let _ = (mv, search);
    }
}

/// A state shown to a source.
pub(crate) struct Shown<'a, G>(pub(crate) &'a G);

impl<G: Game> Position for Shown<'_, G> {
    fn text(&self) -> Option<String> {
        self.0.text()
    }

    fn moves(&self) -> Vec<serde_json::Value> {
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves.iter().map(serialised).collect()
    }
}

/// A move as its game serialises it (a move that does not serialise, which no game's does,
/// shows the error in its place).
pub(crate) fn serialised<M: serde::Serialize>(mv: &M) -> serde_json::Value {
    serde_json::to_value(mv).unwrap_or_else(|e| serde_json::Value::String(format!("<{e}>")))
}

/// The source of a game without a [`Sitter::Source`] seat: never asked for a move.
pub struct NoSource;

impl MoveSource for NoSource {
    fn hears(&self) -> bool {
        false
    }

    fn choose(&mut self, _at: &dyn Position) -> Option<serde_json::Value> {
        None
    }
}

/// A finished game's moves as a [`MoveSource`]: asked for a move, it gives the record's move of
/// that decision, so a game a person played is played again from its seeds with the person's
/// moves and the controller's searches repeated (`league::replay_league_game`).
pub struct RecordedMoves {
    /// Every decision's move in order, as the game serialises its moves.
    moves: Vec<serde_json::Value>,
    /// Decisions taken so far, by either seat.
    next: usize,
}

impl RecordedMoves {
    /// The moves of `game`, every decision's in order.
    pub fn new(game: &PlayedGame) -> Result<RecordedMoves, String> {
        fn values<M: serde::Serialize>(moves: &[M]) -> Result<Vec<serde_json::Value>, String> {
            moves
                .iter()
                .map(|mv| serde_json::to_value(mv).map_err(|e| e.to_string()))
                .collect()
        }
        let moves = match game {
            PlayedGame::Carcassonne(r) => values(&r.moves)?,
            PlayedGame::Pig(r) => values(&r.moves)?,
            PlayedGame::History(r) => r.moves.clone(),
        };
        Ok(RecordedMoves { moves, next: 0 })
    }
}

impl MoveSource for RecordedMoves {
    /// The record's move of this decision; `None` once the record has no more, or when it is
    /// no move of the game (the game then ends unfinished, which the caller reports).
    fn choose(&mut self, _at: &dyn Position) -> Option<serde_json::Value> {
        let value = self.moves.get(self.next)?.clone();
        self.next += 1;
        Some(value)
    }

    fn answered(&mut self, _: serde_json::Value, _: Option<&SearchSummary<serde_json::Value>>) {
        self.next += 1;
    }
}
