//! The base game of Carcassonne for two players: tiles, board, features, legal moves, scoring
//! and the referee that deals tiles. Knows nothing of search and does no I/O.
//!
//! Start reading at `state::GameState`. `types` holds the plain data (rules, moves, errors),
//! `tiles` the tile set, `features` the union-find that keeps scoring incremental,
//! `movegen` and `scoring` the state's move generation and scoring, `draw` the one loop of
//! the unplaceable-tile rule (it builds on `state`, never the reverse), `rollout` the random
//! playout, `referee` the stack, the game loop and the replay loop,
//! `random_games` the benchmark games and test positions, `render` the text board.

mod assessment;
pub mod draw;
pub mod evaluation;
pub mod features;
mod interface;
mod movegen;
pub mod random_games;
pub mod referee;
pub mod render;
mod rollout;
mod scoring;
pub mod state;
pub mod tiles;
mod trial;
pub mod types;

pub use draw::{DrawUntil, Drawn, SampledTiles, TileSource};
pub use features::{Features, SegmentNode};
pub use random_games::{play_random_game, sample_positions, sample_positions_in, RandomGameStats};
pub use referee::{
    draw_next, play_game, play_game_observed, replay, replay_observed, seed_string, GameRecord,
    ReplayStep, TileStack,
};
pub use state::GameState;
pub use tiles::{Edge, FeatureKind, TileKind};
pub use types::{
    GameError, Move, PlacedTile, Placement, Reveal, Rules, Unplaceable, MEEPLES_PER_PLAYER,
};
