//! The unplaceable-tile rule as one loop: tiles are revealed from a source until one can
//! be placed, a drawn tile that fits nowhere is discarded or goes back under the stack,
//! and a stack that has cycled without a placeable tile ends the game.
//!
//! The source is the referee's real [`super::TileStack`] or, in a searcher, a sample of
//! the hidden multiset ([`SampledTiles`]); both go through [`GameState::draw_from`].

use rand::Rng;

use super::state::GameState;
use super::tiles::TileKind;
use super::types::{GameError, Reveal};

/// Where the next tile comes from.
pub trait TileSource {
    /// The next tile, or `None` when no tile is left.
    fn take(&mut self, state: &GameState) -> Option<TileKind>;
    /// `tile` fitted nowhere and goes back under the stack (bottom-of-stack rule).
    fn put_back(&mut self, tile: TileKind);
    /// Whether `returned` tiles sent back in this draw prove that no hidden tile fits:
    /// the game then ends with the rest discarded instead of cycling forever.
    fn proves_nothing_fits(&self, returned: usize, state: &GameState) -> bool;
}

/// Tiles sampled from the hidden multiset in proportion to their counts, as searchers
/// draw them: they know which tiles are hidden, never their order.
pub struct SampledTiles<'r, R: Rng + ?Sized>(pub &'r mut R);

impl<R: Rng + ?Sized> TileSource for SampledTiles<'_, R> {
    fn take(&mut self, state: &GameState) -> Option<TileKind> {
        state.sample_hidden(self.0)
    }

    /// A returned tile stays in the hidden multiset; nothing to do.
    fn put_back(&mut self, _tile: TileKind) {}

    /// Sampling can return the same unplaceable tiles many times, so several passes'
    /// worth of returns are allowed before the (costlier) check of every hidden kind.
    fn proves_nothing_fits(&self, returned: usize, state: &GameState) -> bool {
        returned > 4 * state.hidden_total() && !state.any_hidden_placeable()
    }
}

/// When [`GameState::draw_from`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawUntil {
    /// At a tile ready to place (discarded tiles are passed over).
    Ready,
    /// At a tile ready to place or a discarded one: each is one chance outcome.
    ReadyOrDiscarded,
}

/// What a draw ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// This tile is drawn and waits to be placed.
    Ready(TileKind),
    /// This tile fitted nowhere and was discarded (only with [`DrawUntil::ReadyOrDiscarded`]).
    Discarded(TileKind),
    /// No tile is left, or none of those left can ever be placed (they are discarded).
    Exhausted,
}

impl GameState {
    /// Reveals tiles from `source` under the unplaceable-tile rule until `until` is met or
    /// the tiles run out.
    pub fn draw_from(
        &mut self,
        source: &mut impl TileSource,
        until: DrawUntil,
    ) -> Result<Drawn, GameError> {
        let mut returned = 0usize;
        while let Some(tile) = source.take(self) {
            match self.reveal(tile)? {
                Reveal::Ready => return Ok(Drawn::Ready(tile)),
                Reveal::Discarded => {
                    if until == DrawUntil::ReadyOrDiscarded {
                        return Ok(Drawn::Discarded(tile));
                    }
                }
                Reveal::ReturnedToBottom => {
                    source.put_back(tile);
                    returned += 1;
                    if source.proves_nothing_fits(returned, self) {
                        self.discard_unplaceable_rest();
                        return Ok(Drawn::Exhausted);
                    }
                }
            }
        }
        Ok(Drawn::Exhausted)
    }

    /// Draws a tile sampled from the hidden ones, applying the unplaceable-tile rule, until a
    /// tile is ready or the stack is empty. Returns the drawn tile. Used by searchers.
    pub fn reveal_sampled<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<TileKind> {
        match self
            .draw_from(&mut SampledTiles(rng), DrawUntil::Ready)
            .expect("sampled tiles are hidden")
        {
            Drawn::Ready(tile) => Some(tile),
            Drawn::Discarded(_) | Drawn::Exhausted => None,
        }
    }
}
