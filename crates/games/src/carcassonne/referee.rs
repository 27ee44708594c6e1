//! The referee: owns the shuffled stack, asks controllers for moves and keeps the per-game
//! record for analysis.
//!
//! The stack's order lives only here. Controllers receive a `&GameState`, which knows which
//! tiles are hidden but not in what order, so no controller can read the future even by
//! accident.

use super::draw::{DrawUntil, Drawn, TileSource};
use super::state::GameState;
use super::tiles::TileKind;
use super::types::{GameError, Move, Reveal, Rules};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::{Controller, GameRng};

/// The hidden stack of one game, shuffled from a tile-sequence seed. Two games with the same
/// seed draw the same sequence, which is how leagues pair games across seatings.
#[derive(Clone)]
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
    Ok(matches!(
        state.draw_from(stack, DrawUntil::Ready)?,
        Drawn::Ready(_)
    ))
}

impl TileSource for TileStack {
    fn take(&mut self, _state: &GameState) -> Option<TileKind> {
        self.draw()
    }

    fn put_back(&mut self, tile: TileKind) {
        self.put_bottom(tile)
    }

    /// A whole pass of the stack without a placeable tile: nothing will ever fit.
    fn proves_nothing_fits(&self, returned: usize, _state: &GameState) -> bool {
        returned > self.remaining()
    }
}

/// What a finished game leaves for analysis and replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    #[serde(with = "seed_string")]
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

    /// The first seat's score minus the second's, in 64 bits: a record read from disk may
    /// hold any two `i32` scores, whose difference need not fit in 32 bits. Every table
    /// computes margins through here, so a margin and `winner` always agree.
    pub fn score_difference(&self) -> i64 {
        i64::from(self.final_scores[0]) - i64::from(self.final_scores[1])
    }
}

/// Seeds in records as decimal strings (`"3968265725657940402"`): JSON readers that hold
/// numbers as doubles (JavaScript, jq 1.6) round 64-bit integers, and a rounded seed replays
/// another game. Reading accepts the string or a plain number, as older records hold.
/// Use with `#[serde(with = "seed_string")]` on a `u64`, or `seed_string::pair` on `[u64; 2]`.
pub mod seed_string {
    use serde::de::{self, Deserializer, Visitor};
    use serde::{Deserialize, Serializer};

    pub fn serialize<S: Serializer>(seed: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(seed)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(SeedVisitor)
    }

    /// A seed as a string, or as a whole number (older records).
    struct Seed(u64);

    impl<'de> Deserialize<'de> for Seed {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Seed, D::Error> {
            deserialize(deserializer).map(Seed)
        }
    }

    struct SeedVisitor;

    impl Visitor<'_> for SeedVisitor {
        type Value = u64;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a seed: a whole number from 0 to 2^64 - 1, as a decimal string")
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(format!("seed {v} is negative")))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            v.parse().map_err(|_| {
                E::custom(format!(
                    "seed \"{v}\" is not a whole number from 0 to 2^64 - 1"
                ))
            })
        }
    }

    /// The same for a pair of seeds (one per seat).
    pub mod pair {
        use super::Seed;
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(
            seeds: &[u64; 2],
            serializer: S,
        ) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeTuple;
            let mut tuple = serializer.serialize_tuple(2)?;
            for seed in seeds {
                tuple.serialize_element(&seed.to_string())?;
            }
            tuple.end()
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            deserializer: D,
        ) -> Result<[u64; 2], D::Error> {
            let [a, b] = <[Seed; 2]>::deserialize(deserializer)?;
            Ok([a.0, b.0])
        }
    }
}

/// Plays one game between two controllers (index = seat) on the stack of `tile_seed`.
/// A controller's illegal move is an error, not a panic.
pub fn play_game(
    rules: Rules,
    tile_seed: u64,
    controllers: [&mut dyn Controller<GameState>; 2],
) -> Result<(GameState, GameRecord), GameError> {
    play_game_observed(rules, tile_seed, controllers, |_, _| {})
}

/// `play_game`, calling `observe(state, move)` after every move (for turn-by-turn display).
pub fn play_game_observed(
    rules: Rules,
    tile_seed: u64,
    controllers: [&mut dyn Controller<GameState>; 2],
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
    replay_observed(record, |_, _| {})
}

/// One step of a replayed game, as [`replay_observed`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayStep {
    /// Turn `turn` (0-based) is about to be played: `player` has drawn `tile`; the state is
    /// the position the player decided in.
    ToMove {
        turn: usize,
        player: usize,
        tile: TileKind,
    },
    /// A revealed tile that fitted nowhere (discarded, or returned under the stack).
    NotPlaced { tile: TileKind, reveal: Reveal },
    /// Turn `turn` (0-based): `player` placed `tile` with `mv`; the state is after the move.
    Moved {
        turn: usize,
        player: usize,
        tile: TileKind,
        mv: Move,
    },
}

/// The one replay loop: [`replay`], calling `observe(state, step)` before every move (the
/// decision's position), after every reveal that placed nothing and after every move. The returned state is finished (end-of-game
/// scoring done); the observer never sees that last scoring.
pub fn replay_observed(
    record: &GameRecord,
    mut observe: impl FnMut(&GameState, ReplayStep),
) -> Result<GameState, GameError> {
    let mut state = GameState::new(record.rules);
    let mut moves = record.moves.iter();
    let mut virtual_scores = Vec::with_capacity(record.moves.len());
    let mut turns = [0u16; 2];
    for &tile in &record.draws {
        match state.reveal(tile)? {
            Reveal::Ready => {
                let mv = *moves.next().ok_or(GameError::MovesRunOut)?;
                let (turn, player) = (state.turns_played(), state.to_move());
                observe(&state, ReplayStep::ToMove { turn, player, tile });
                state.apply(mv)?;
                turns[player] = turns[player].saturating_add(1);
                virtual_scores.push(state.virtual_scores());
                observe(
                    &state,
                    ReplayStep::Moved {
                        turn,
                        player,
                        tile,
                        mv,
                    },
                );
            }
            reveal @ (Reveal::Discarded | Reveal::ReturnedToBottom) => {
                observe(&state, ReplayStep::NotPlaced { tile, reveal })
            }
        }
    }
    if state.hidden_total() > 0 && !state.any_hidden_placeable() {
        state.discard_unplaceable_rest();
    }
    state.finish();
    check_stated(record, &state, moves.len(), &virtual_scores, turns)?;
    Ok(state)
}

/// That the replayed game is the one `record` states beside its draws and moves: every move
/// played, and the same decisions per seat, running scores, final scores, points by kind,
/// meeples, turns with a meeple at hand and discards.
fn check_stated(
    record: &GameRecord,
    end: &GameState,
    unplayed: usize,
    virtual_scores: &[[i32; 2]],
    turns: [u16; 2],
) -> Result<(), GameError> {
    let differs = |field: &'static str, replayed: String, recorded: String| {
        Err(GameError::Stated {
            field,
            replayed,
            recorded,
        })
    };
    if unplayed > 0 {
        return differs(
            "moves",
            format!("{} moves", record.moves.len() - unplayed),
            format!("{} moves", record.moves.len()),
        );
    }
    let stated: [(&'static str, String, String); 7] = [
        ("turns", format!("{turns:?}"), format!("{:?}", record.turns)),
        (
            "virtual_scores",
            format!("{virtual_scores:?}"),
            format!("{:?}", record.virtual_scores),
        ),
        (
            "final_scores",
            format!("{:?}", end.scores()),
            format!("{:?}", record.final_scores),
        ),
        (
            "score_by_kind",
            format!("{:?}", end.score_by_kind()),
            format!("{:?}", record.score_by_kind),
        ),
        (
            "meeples_played",
            format!("{:?}", end.meeples_played()),
            format!("{:?}", record.meeples_played),
        ),
        (
            "turns_with_meeple_available",
            format!("{:?}", end.turns_with_meeple_available()),
            format!("{:?}", record.turns_with_meeple_available),
        ),
        (
            "discards",
            end.discards().to_string(),
            record.discards.to_string(),
        ),
    ];
    for (field, replayed, recorded) in stated {
        if replayed != recorded {
            return differs(field, replayed, recorded);
        }
    }
    Ok(())
}
