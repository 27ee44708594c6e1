//! The base game of Carcassonne for two players: tiles, board, features, legal moves, scoring
//! and the referee that deals tiles. Knows nothing of search.
//!
//! Start reading at `state::GameState`; `tiles` holds the tile set, `features` the union-find
//! that keeps scoring incremental, `referee` the stack and the game loop, `render` the text
//! board.

pub mod features;
pub mod referee;
pub mod render;
pub mod state;
pub mod tiles;

pub use features::{Features, NodeId};
pub use referee::{
    draw_next, play_game, play_game_observed, play_random_game, replay, sample_positions,
    Controller, GameRecord, GameRng, RandomController, RandomGameStats, TileStack,
};
pub use state::{
    GameError, GameState, Move, PlacedTile, Placement, Reveal, Rules, Unplaceable,
    MEEPLES_PER_PLAYER,
};
pub use tiles::{Edge, FeatureKind, TileKind};
