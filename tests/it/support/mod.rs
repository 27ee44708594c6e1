//! Helpers shared by the game tests, and a slow, obviously-correct model of the rules that the
//! fast engine is checked against.

#![allow(dead_code)]

pub mod slow_model;

use evomcts::game::{FeatureKind, GameState, Move, Reveal, TileKind};

/// The index of the `nth` segment of kind `kind` on tile `tile` (segment order is fixed per
/// tile type).
pub fn seg(tile: TileKind, kind: FeatureKind, nth: usize) -> u8 {
    tile.def()
        .segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == kind)
        .nth(nth)
        .map(|(i, _)| i as u8)
        .unwrap_or_else(|| panic!("tile {tile} has no {kind:?} #{nth}"))
}

/// Draws `tile` and plays it at (x, y) with `rotation`, optionally with a meeple on the `nth`
/// feature of a kind. Panics with the engine's reason when the move is illegal.
pub fn lay(
    state: &mut GameState,
    tile: TileKind,
    x: i8,
    y: i8,
    rotation: u8,
    meeple: Option<(FeatureKind, usize)>,
) {
    assert_eq!(state.reveal(tile), Ok(Reveal::Ready), "drawing {tile}");
    let meeple = meeple.map(|(k, n)| seg(tile, k, n));
    state
        .apply(Move {
            x,
            y,
            rotation,
            meeple,
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
