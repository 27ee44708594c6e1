//! Random games as fast as the engine allows: the engine benchmark's games and figures,
//! and the mid-game positions that the searchers' tests and benchmarks start from.

use super::referee::{draw_next, TileStack};
use super::state::GameState;
use super::types::{Move, Rules};
use crate::GameRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Plays one complete random game on the stack of `tile_seed` as fast as the engine allows
/// (no record): placement uniform among legal placements, then a meeple option uniform among
/// the options including none. `before_move(state, move)` sees each decision before it is
/// played; pass `|_, _| {}` to measure the engine alone.
pub fn play_random_game(
    rules: Rules,
    tile_seed: u64,
    rng: &mut GameRng,
    mut before_move: impl FnMut(&GameState, Move),
) -> GameState {
    let mut state = GameState::new(rules);
    let mut stack = TileStack::shuffled(tile_seed);
    while draw_next(&mut state, &mut stack).expect("stack tiles are hidden") {
        let kind = state.drawn().expect("a tile is drawn");
        let mv = state.random_move(rng).expect("a revealed tile fits");
        before_move(&state, mv);
        state.apply_unchecked(kind, mv);
    }
    state.finish();
    state
}

/// Positions from the middle of random games, each with a tile drawn and ready to place: the
/// test and benchmark positions of the searchers. Position `i` comes from the game of tile
/// seed `seed + i`, stopped after a number of turns drawn uniformly from `turns`.
pub fn sample_positions(count: usize, seed: u64, turns: std::ops::Range<usize>) -> Vec<GameState> {
    sample_positions_in(Rules::default(), count, seed, turns)
}

/// `sample_positions` under `rules`.
pub fn sample_positions_in(
    rules: Rules,
    count: usize,
    seed: u64,
    turns: std::ops::Range<usize>,
) -> Vec<GameState> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut i = 0u64;
    while out.len() < count {
        let stop = rng.gen_range(turns.clone());
        let mut state = GameState::new(rules);
        let mut stack = TileStack::shuffled(seed.wrapping_add(i));
        i += 1;
        while draw_next(&mut state, &mut stack).expect("stack tiles are hidden") {
            if state.turns_played() >= stop {
                out.push(state);
                break;
            }
            let mv = state.random_move(&mut rng).expect("a revealed tile fits");
            state.apply(mv).expect("random moves are legal");
        }
    }
    out
}

/// Figures of random games, the engine benchmark's output.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RandomGameStats {
    pub games: u64,
    pub decisions: u64,
    pub placements: u64,
    pub meeple_options: u64,
    pub moves: u64,
    pub discards: u64,
    pub meeples_played: u64,
    pub score_sum: [i64; 2],
    pub draws: u64,
}

impl RandomGameStats {
    /// Plays the same game as `play_random_game` and adds its figures.
    pub fn add_game(&mut self, rules: Rules, tile_seed: u64, rng: &mut GameRng) {
        let mut moves = Vec::new();
        let state = play_random_game(rules, tile_seed, rng, |state, mv| {
            let kind = state.drawn().expect("a tile is drawn");
            self.decisions += 1;
            self.placements += state.placement_count(kind) as u64;
            self.meeple_options +=
                state.meeple_options(kind, mv.placement()).count_ones() as u64 + 1;
            state.legal_moves(&mut moves);
            self.moves += moves.len() as u64;
        });
        let s = state.scores();
        self.games += 1;
        self.discards += state.discards() as u64;
        self.meeples_played += (state.meeples_played()[0] + state.meeples_played()[1]) as u64;
        self.score_sum[0] += s[0] as i64;
        self.score_sum[1] += s[1] as i64;
        self.draws += (s[0] == s[1]) as u64;
    }
}
