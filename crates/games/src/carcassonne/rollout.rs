//! The rollout: a game played to its end with random moves and tiles sampled from the hidden
//! ones, as the searches' simulations play it.

use rand::Rng;

use super::state::GameState;
use super::tiles::TileKind;
use super::types::Move;

impl GameState {
    /// Plays the game to its end with random moves and tiles sampled from the hidden ones, then
    /// scores it: a rollout.
    pub fn play_out_randomly<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        self.play_out_randomly_observed(rng, |_, _, _| {});
    }

    /// [`GameState::play_out_randomly`], calling `before_move(state, tile, move)` before each
    /// move is played (RAVE notes the moves of its rollouts this way). The random choices
    /// do not depend on the observer.
    #[inline]
    pub fn play_out_randomly_observed<R: Rng + ?Sized>(
        &mut self,
        rng: &mut R,
        mut before_move: impl FnMut(&GameState, TileKind, Move),
    ) {
        loop {
            if self.drawn.is_none() && self.reveal_sampled(rng).is_none() {
                break;
            }
            let kind = self.drawn.expect("a tile is drawn");
            let mv = self.random_move(rng).expect("a revealed tile fits");
            before_move(self, kind, mv);
            self.apply_unchecked(kind, mv);
        }
        self.finish();
    }
}
