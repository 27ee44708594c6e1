//! Moves from outside the searches: a seat of [`super::play_seated_with`] whose moves a
//! [`MoveSource`] gives, whichever game is played (a person at a terminal or in a browser, in
//! the command line; or the recorded moves of such a game, [`RecordedMoves`], when it is
//! played again from its seeds). The source is told every move of the other seat with what
//! that controller's search found, so a person can be shown it.

use super::record::PlayedGame;
use evomcts_games::Game;
use evomcts_search::{ControllerSpec, SearchSummary};
use serde::Deserialize;

/// Who plays a seat of [`super::play_seated_with`]: a controller built from its spec, or the
/// caller's [`MoveSource`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sitter<'a> {
    Controller(&'a ControllerSpec),
    Source,
}

/// The moves of a [`Sitter::Source`] seat, for any game: its methods are generic over the game
/// played, which only [`super::GameChoice::dispatch`] knows.
pub trait MoveSource {
    /// Root children of the other seat's searches that [`MoveSource::answered`] is given, most
    /// visited first (0: no summary is made).
    fn root_children(&self) -> usize {
        0
    }

    /// A legal move of `state`, a decision of the source's seat; `None` when the source has
    /// no more moves (a person left): the game then ends unfinished
    /// ([`super::PlayError::Unfinished`]).
    fn choose<G: Game>(&mut self, state: &G) -> Option<G::Move>;

    /// The other seat's controller chose `mv` at `state` (before the move), its search having
    /// found `search` (with [`MoveSource::root_children`] children; `None` for a controller
    /// that does not search).
    fn answered<G: Game>(
        &mut self,
        state: &G,
        mv: G::Move,
        search: Option<&SearchSummary<G::Move>>,
    ) {
        let _ = (state, mv, search);
    }
}

/// The source of a game without a [`Sitter::Source`] seat: never asked for a move.
pub struct NoSource;

impl MoveSource for NoSource {
    fn choose<G: Game>(&mut self, _state: &G) -> Option<G::Move> {
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
    fn choose<G: Game>(&mut self, _state: &G) -> Option<G::Move> {
        let value = self.moves.get(self.next)?;
        self.next += 1;
        G::Move::deserialize(value).ok()
    }

    fn answered<G: Game>(&mut self, _: &G, _: G::Move, _: Option<&SearchSummary<G::Move>>) {
        self.next += 1;
    }
}
