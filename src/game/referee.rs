//! The referee: owns the shuffled stack, asks controllers for moves and keeps the per-game
//! record for analysis.
//!
//! The stack's order lives only here. Controllers receive a `&GameState`, which knows which
//! tiles are hidden but not in what order, so no controller can read the future even by
//! accident.

use super::state::{GameError, GameState, Move, Reveal, Rules};
use super::tiles::TileKind;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The RNG of every random choice in evomcts: small, fast, and the same stream on every
/// platform for a given seed.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// Anything that picks a move for the player to move. Search controllers implement this.
pub trait Controller {
    /// A legal move for `state.drawn()`, played by `state.to_move()`.
    fn choose_move(&mut self, state: &GameState) -> Move;
}

/// A controller that plays the benchmarks' random player.
pub struct RandomController {
    rng: GameRng,
}

impl RandomController {
    pub fn new(seed: u64) -> Self {
        RandomController {
            rng: GameRng::seed_from_u64(seed),
        }
    }
}

impl Controller for RandomController {
    fn choose_move(&mut self, state: &GameState) -> Move {
        state
            .random_move(&mut self.rng)
            .expect("a drawn tile has a placement")
    }
}

/// The hidden stack of one game, shuffled from a tile-sequence seed. Two games with the same
/// seed draw the same sequence, which is how leagues pair games across seatings.
pub struct TileStack {
    tiles: Vec<TileKind>,
    next: usize,
}

impl TileStack {
    /// The 71 tiles besides the start tile, shuffled by `seed`.
    pub fn shuffled(seed: u64) -> TileStack {
        let mut tiles = Vec::with_capacity(71);
        for k in TileKind::ALL {
            let n = k.count_in_box() - u8::from(k == TileKind::D);
            tiles.extend(std::iter::repeat_n(k, n as usize));
        }
        tiles.shuffle(&mut GameRng::seed_from_u64(seed));
        TileStack { tiles, next: 0 }
    }

    pub fn remaining(&self) -> usize {
        self.tiles.len() - self.next
    }

    fn draw(&mut self) -> Option<TileKind> {
        let t = self.tiles.get(self.next).copied();
        self.next += t.is_some() as usize;
        t
    }

    fn put_bottom(&mut self, t: TileKind) {
        self.tiles.push(t);
    }

    /// Draws the next tile for a test that drives `GameState::reveal` itself. Controllers never
    /// see a `TileStack`, so this does not open a window on the future to them.
    #[doc(hidden)]
    pub fn draw_for_test(&mut self) -> Option<TileKind> {
        self.draw()
    }

    #[doc(hidden)]
    pub fn put_back_for_test(&mut self, t: TileKind) {
        self.put_bottom(t)
    }
}

/// Draws from the stack into `state` until a tile is ready to place, applying the
/// unplaceable-tile rule. Returns `false` when the stack ran out.
pub fn draw_next(state: &mut GameState, stack: &mut TileStack) -> Result<bool, GameError> {
    let mut returned_in_a_row = 0;
    while let Some(tile) = stack.draw() {
        match state.reveal(tile)? {
            Reveal::Ready => return Ok(true),
            Reveal::Discarded => {}
            Reveal::ReturnedToBottom => {
                stack.put_bottom(tile);
                returned_in_a_row += 1;
                // A whole pass of the stack without a placeable tile: nothing will ever fit.
                if returned_in_a_row > stack.remaining() {
                    state.discard_unplaceable_rest();
                    return Ok(false);
                }
            }
        }
    }
    Ok(false)
}

/// What a finished game leaves for analysis and replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub tile_seed: u64,
    pub rules: Rules,
    /// Tiles in the order they were revealed, discarded ones included.
    pub draws: Vec<TileKind>,
    pub moves: Vec<Move>,
    /// Both virtual scores after every turn.
    pub virtual_scores: Vec<[i32; 2]>,
    pub final_scores: [i32; 2],
    /// Final points by feature kind: road, city, monastery, field.
    pub score_by_kind: [[i32; 4]; 2],
    pub meeples_played: [u16; 2],
    pub turns_with_meeple_available: [u16; 2],
    pub turns: [u16; 2],
    pub discards: u16,
}

impl GameRecord {
    /// 0 or 1 for the winner, `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        use std::cmp::Ordering::*;
        match self.final_scores[0].cmp(&self.final_scores[1]) {
            Greater => Some(0),
            Less => Some(1),
            Equal => None,
        }
    }
}

/// Plays one game between two controllers (index = seat) on the stack of `tile_seed`.
/// A controller's illegal move is an error, not a panic.
pub fn play_game(
    rules: Rules,
    tile_seed: u64,
    controllers: [&mut dyn Controller; 2],
) -> Result<(GameState, GameRecord), GameError> {
    play_game_observed(rules, tile_seed, controllers, |_, _| {})
}

/// `play_game`, calling `observe(state, move)` after every move (for turn-by-turn display).
pub fn play_game_observed(
    rules: Rules,
    tile_seed: u64,
    controllers: [&mut dyn Controller; 2],
    mut observe: impl FnMut(&GameState, Move),
) -> Result<(GameState, GameRecord), GameError> {
    let mut state = GameState::new(rules);
    let mut stack = TileStack::shuffled(tile_seed);
    let mut record = GameRecord {
        tile_seed,
        rules,
        draws: Vec::with_capacity(72),
        moves: Vec::with_capacity(71),
        virtual_scores: Vec::with_capacity(71),
        final_scores: [0; 2],
        score_by_kind: [[0; 4]; 2],
        meeples_played: [0; 2],
        turns_with_meeple_available: [0; 2],
        turns: [0; 2],
        discards: 0,
    };
    loop {
        let before = stack.next;
        let more = draw_next(&mut state, &mut stack)?;
        record
            .draws
            .extend_from_slice(&stack.tiles[before..stack.next]);
        if !more {
            break;
        }
        let player = state.to_move();
        let mv = controllers[player].choose_move(&state);
        state.apply(mv)?;
        record.turns[player] += 1;
        record.moves.push(mv);
        record.virtual_scores.push(state.virtual_scores());
        observe(&state, mv);
    }
    state.finish();
    record.final_scores = state.scores();
    record.score_by_kind = state.score_by_kind();
    record.meeples_played = state.meeples_played();
    record.turns_with_meeple_available = state.turns_with_meeple_available();
    record.discards = state.discards() as u16;
    Ok((state, record))
}

/// Replays a record's draws and moves, checking each move is legal; returns the final state.
pub fn replay(record: &GameRecord) -> Result<GameState, GameError> {
    let mut state = GameState::new(record.rules);
    let mut moves = record.moves.iter();
    for &tile in &record.draws {
        match state.reveal(tile)? {
            Reveal::Ready => {
                let mv = *moves.next().ok_or(GameError::NothingDrawn)?;
                state.apply(mv)?;
            }
            Reveal::Discarded | Reveal::ReturnedToBottom => {}
        }
    }
    if state.hidden_total() > 0 && !state.any_hidden_placeable() {
        state.discard_unplaceable_rest();
    }
    state.finish();
    Ok(state)
}

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
    let mut rng = GameRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut i = 0u64;
    while out.len() < count {
        let stop = rng.gen_range(turns.clone());
        let mut state = GameState::new(Rules::default());
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
