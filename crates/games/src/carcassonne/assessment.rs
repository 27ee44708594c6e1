//! What Carcassonne tells a search about each move of a decision before searching it: the
//! move's gain in virtual score difference (the knowledge terminal `H`) and its features
//! (`G`, `O`, `M`, `F`, `R`, `L`, `T`; see `games::MOVE_FEATURE_SYMBOLS`).
//!
//! Definitions (before = the position at the decision, after = after the move; scale = the
//! reward's points per unit):
//! - `G`: the mover's virtual score after minus before, / scale;
//! - `O`: the opponent's virtual score after minus before, / scale (so `H = G − O`);
//! - `M`: 1 if the move places a meeple, else 0; `F`: 1 if that meeple stands on a field;
//! - `R`: the mover's meeples that come back to the supply through features the move
//!   completes (a meeple placed and returned on the same move counts);
//! - `L`: the mover's meeples in supply after the move, / 7;
//! - `T`: the turns played before the move, / 71.

use super::scoring::OccupiedValues;
use super::tiles::MAX_SEGMENTS;
use super::{FeatureKind, GameState, Move, MEEPLES_PER_PLAYER};
use crate::{MoveAssessment, MOVE_FEATURE_COUNT};

/// Turns of a full game: every tile but the start tile.
const TURNS_PER_GAME: f64 = 71.0;

/// What laying the drawn tile at one square and rotation does, tried once without a meeple:
/// a meeple choice of that placement follows from it when the meeple's feature holds no
/// other meeple after the placement. Such a meeple adds to the mover's score alone: the
/// completed value at once if the move completes its feature (and the meeple comes straight
/// back), else the feature's end-of-game value to the virtual score. A meeple may join an
/// occupied feature when its segment reaches the occupied part only through another segment
/// of the tile (move generation checks each segment's own neighbours); such a choice changes
/// a majority, so it is tried as a move of its own.
#[derive(Clone, Copy, Default)]
struct PlacementTrial {
    key: u32,
    /// Virtual scores after the placement without a meeple.
    after: [i32; 2],
    supply_after: u8,
    /// Per segment of the tile: the points a meeple of the mover there would add.
    segment_points: [i16; MAX_SEGMENTS],
    /// Bit s: the feature of segment s is complete after the placement.
    completed: u8,
    /// Bit s: segment s is on a field.
    field: u8,
    /// Bit s: a meeple on segment s would be alone on its feature, so `with_meeple` applies.
    alone: u8,
}

/// Distinct placements remembered per decision; further ones are tried move by move.
const PLACEMENT_SLOTS: usize = 64;

fn placement_key(mv: Move) -> u32 {
    u32::from(mv.x as u8) << 16 | u32::from(mv.y as u8) << 8 | u32::from(mv.rotation)
}

impl PlacementTrial {
    /// Tries `mv` without its meeple on `state` and takes it back, valuing the segments of
    /// `meeple_segments` (bit s: some move puts a meeple on segment s).
    fn try_on(
        state: &mut GameState,
        occupied: &OccupiedValues,
        mv: Move,
        meeple_segments: u8,
    ) -> PlacementTrial {
        let mover = state.to_move();
        let placement = state.placed_tiles().len();
        let save = state.try_move(Move { meeple: None, ..mv });
        let moved = &*state;
        let after = moved.virtual_scores_after(occupied, None);
        debug_assert_eq!(after, moved.virtual_scores(), "{mv:?}");
        let mut trial = PlacementTrial {
            key: placement_key(mv),
            after,
            supply_after: moved.supply(mover),
            ..PlacementTrial::default()
        };
        let f = moved.features();
        let mut segments = meeple_segments;
        while segments != 0 {
            let segment = segments.trailing_zeros() as usize;
            segments &= segments - 1;
            let root = f.find(GameState::node_of(placement, segment));
            let complete = f.is_complete(root);
            // A completed feature has given its meeples back; it held some if an occupied
            // feature of the position before joined it.
            let alone = if complete {
                !occupied.roots().any(|before| f.find(before) == root)
            } else {
                f.meeples(root) == [0, 0]
            };
            trial.alone |= u8::from(alone) << segment;
            let points = if complete {
                moved.completed_value(root)
            } else {
                moved.end_value(root)
            };
            trial.segment_points[segment] = points as i16;
            trial.completed |= u8::from(complete) << segment;
            trial.field |= u8::from(f.kind(root) == FeatureKind::Field) << segment;
        }
        state.take_back_trial(&save);
        trial
    }

    /// The virtual scores, the mover's supply and whether the meeple went to a field after
    /// this placement with `meeple`, or `None` when that meeple would share its feature.
    fn with_meeple(&self, mover: usize, meeple: Option<u8>) -> Option<([i32; 2], u8, bool)> {
        let mut after = self.after;
        let Some(segment) = meeple else {
            return Some((after, self.supply_after, false));
        };
        let bit = 1u8 << segment;
        if self.alone & bit == 0 {
            return None;
        }
        after[mover] += i32::from(self.segment_points[segment as usize]);
        let comes_back = u8::from(self.completed & bit != 0);
        Some((
            after,
            self.supply_after - 1 + comes_back,
            self.field & bit != 0,
        ))
    }
}

/// The virtual scores, the mover's supply and whether the meeple went to a field after `mv`,
/// tried on `state` and taken back.
fn try_whole_move(
    state: &mut GameState,
    occupied: &OccupiedValues,
    mv: Move,
) -> ([i32; 2], u8, bool) {
    let mover = state.to_move();
    let placement = state.placed_tiles().len();
    let save = state.try_move(mv);
    let after = state.virtual_scores_after(occupied, mv.meeple);
    debug_assert_eq!(after, state.virtual_scores(), "{mv:?}");
    let supply = state.supply(mover);
    let on_field = mv.meeple.is_some_and(|segment| {
        let f = state.features();
        f.kind(f.find(GameState::node_of(placement, segment as usize))) == FeatureKind::Field
    });
    state.take_back_trial(&save);
    (after, supply, on_field)
}

/// Assesses `moves` (legal at `state`'s decision) into `out`, trying them on `state` and
/// taking them back (`game::trial`), so `state` ends as it began. The parts that are the same
/// for every sibling (the scores and supply before, the turn) are computed once, and each
/// placement of the tile is tried once, without a meeple ([`PlacementTrial`]). Moves come
/// from the search's own legal-move list, so they are played without the legality check.
pub(super) fn assess_moves(
    state: &mut GameState,
    moves: &[Move],
    scale: f64,
    features: bool,
    out: &mut Vec<MoveAssessment>,
) {
    #[cfg(debug_assertions)]
    let original = state.clone();
    out.clear();
    let mover = state.to_move();
    let opponent = 1 - mover;
    let before = state.virtual_scores();
    let occupied = state.occupied_values();
    let supply_before = i32::from(state.supply(mover));
    let turn = state.turns_played() as f64 / TURNS_PER_GAME;
    let mut trials = [PlacementTrial::default(); PLACEMENT_SLOTS];
    let mut tried = 0;
    for (i, &mv) in moves.iter().enumerate() {
        let key = placement_key(mv);
        // Without a meeple in supply every move is a placement of its own.
        let known = (supply_before > 0)
            .then(|| trials[..tried].iter().find(|t| t.key == key))
            .flatten();
        let trial = match known {
            Some(trial) => *trial,
            None if supply_before == 0 => PlacementTrial::try_on(state, &occupied, mv, 0),
            None => {
                let meeple_segments = moves[i..]
                    .iter()
                    .filter(|m| placement_key(**m) == key)
                    .filter_map(|m| m.meeple)
                    .fold(0u8, |mask, segment| mask | 1 << segment);
                let trial = PlacementTrial::try_on(state, &occupied, mv, meeple_segments);
                if tried < PLACEMENT_SLOTS {
                    trials[tried] = trial;
                    tried += 1;
                }
                trial
            }
        };
        let (after, supply_after, on_field) = match trial.with_meeple(mover, mv.meeple) {
            Some(outcome) => outcome,
            None => try_whole_move(state, &occupied, mv),
        };
        #[cfg(debug_assertions)]
        {
            let mut moved = original.clone();
            moved.apply(mv).expect("assessed moves are legal");
            debug_assert_eq!(moved.virtual_scores(), after, "{mv:?}");
            debug_assert_eq!(moved.supply(mover), supply_after, "{mv:?}");
        }
        let gain =
            f64::from(after[mover] - after[opponent]) - f64::from(before[mover] - before[opponent]);
        let mut assessment = MoveAssessment {
            gain,
            features: [0.0; MOVE_FEATURE_COUNT],
        };
        if features {
            let placed = i32::from(mv.meeple.is_some());
            let supply_after = i32::from(supply_after);
            assessment.features = [
                f64::from(after[mover] - before[mover]) / scale,
                f64::from(after[opponent] - before[opponent]) / scale,
                f64::from(placed),
                f64::from(u8::from(on_field)),
                f64::from(supply_after - supply_before + placed),
                f64::from(supply_after) / f64::from(MEEPLES_PER_PLAYER),
                turn,
            ];
        }
        out.push(assessment);
    }
    #[cfg(debug_assertions)]
    debug_assert!(*state == original, "a trial was not taken back");
}

#[cfg(test)]
mod tests {
    use super::super::{sample_positions_in, Rules, Unplaceable};
    use super::*;

    /// Every legal move of many positions (both unplaceable-tile rules, early to last turns),
    /// tried and taken back, leaves the state equal to a copy of it, byte for byte.
    #[test]
    fn a_trial_move_taken_back_leaves_the_state_as_it_was() {
        for unplaceable in [Unplaceable::Discard, Unplaceable::BottomOfStack] {
            let rules = Rules {
                unplaceable,
                ..Rules::default()
            };
            for state in sample_positions_in(rules, 150, 3, 0..71) {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let mut trial = state.clone();
                for mv in moves {
                    let save = trial.try_move(mv);
                    assert!(trial != state, "the move changed nothing");
                    trial.take_back_trial(&save);
                    assert!(trial == state, "{mv:?} at turn {}", state.turns_played());
                }
            }
        }
    }

    /// The virtual scores after a move, computed from the features the move changed, equal
    /// the ones summed over every occupied feature, on every legal move of many positions
    /// (completions with farmers beside them, merges of occupied features, last turns).
    #[test]
    fn virtual_scores_after_a_move_equal_the_whole_sum() {
        let mut checked = 0;
        for unplaceable in [Unplaceable::Discard, Unplaceable::BottomOfStack] {
            let rules = Rules {
                unplaceable,
                ..Rules::default()
            };
            for state in sample_positions_in(rules, 150, 5, 0..71) {
                let occupied = state.occupied_values();
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                for mv in moves {
                    let mut after = state.clone();
                    after.try_move(mv);
                    assert_eq!(
                        after.virtual_scores_after(&occupied, mv.meeple),
                        after.virtual_scores(),
                        "{mv:?} at turn {}",
                        state.turns_played()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked} moves");
    }

    /// Positions of random games in which a player places a meeple on one move in eight, so
    /// supplies last and meeples meet on features more often than in random play.
    fn frugal_positions(rules: Rules, count: usize, seed: u64) -> Vec<GameState> {
        use super::super::referee::{draw_next, TileStack};
        use crate::GameRng;
        use rand::{Rng, SeedableRng};
        let mut rng = GameRng::seed_from_u64(seed);
        let mut out = Vec::with_capacity(count);
        let mut moves = Vec::new();
        let mut game = 0;
        while out.len() < count {
            let stop = rng.gen_range(10..71);
            let mut state = GameState::new(rules);
            let mut stack = TileStack::shuffled(seed + game);
            game += 1;
            while draw_next(&mut state, &mut stack).unwrap() {
                if state.turns_played() >= stop {
                    out.push(state);
                    break;
                }
                state.legal_moves(&mut moves);
                let with_meeple = rng.gen_ratio(1, 8);
                let pool: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.meeple.is_some() == with_meeple)
                    .collect();
                let pool = if pool.is_empty() { &moves } else { &pool };
                let mv = pool[rng.gen_range(0..pool.len())];
                state.apply(mv).unwrap();
            }
        }
        out
    }

    /// Every move's assessment, with its meeple choice derived from the placement tried once,
    /// equals the features computed from their definitions on the position after the move,
    /// bit for bit.
    #[test]
    fn assessments_equal_the_definitions_on_the_position_after_each_move() {
        let scale = 50.0;
        let mut checked = 0;
        // Meeples that joined an occupied feature through another segment of their tile.
        let mut shared = 0;
        let mut out = Vec::new();
        for unplaceable in [Unplaceable::Discard, Unplaceable::BottomOfStack] {
            let rules = Rules {
                unplaceable,
                ..Rules::default()
            };
            let mut positions = sample_positions_in(rules, 150, 7, 0..71);
            positions.extend(frugal_positions(rules, 150, 8));
            for state in positions {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let mut assessed = state.clone();
                assess_moves(&mut assessed, &moves, scale, true, &mut out);
                assert!(assessed == state);
                let mover = state.to_move();
                let before = state.virtual_scores();
                for (&mv, got) in moves.iter().zip(&out) {
                    let mut after_state = state.clone();
                    after_state.apply(mv).unwrap();
                    let after = after_state.virtual_scores();
                    let on_field = mv.meeple.is_some_and(|segment| {
                        let f = after_state.features();
                        let node = GameState::node_of(state.placed_tiles().len(), segment as usize);
                        f.kind(f.find(node)) == FeatureKind::Field
                    });
                    shared += usize::from(mv.meeple.is_some_and(|segment| {
                        let f = after_state.features();
                        let node = GameState::node_of(state.placed_tiles().len(), segment as usize);
                        let m = f.meeples(f.find(node));
                        m[0] + m[1] > 1
                    }));
                    let placed = i32::from(mv.meeple.is_some());
                    let supply = |s: &GameState| i32::from(s.supply(mover));
                    let want = [
                        f64::from(after[mover] - before[mover]) / scale,
                        f64::from(after[1 - mover] - before[1 - mover]) / scale,
                        f64::from(placed),
                        f64::from(u8::from(on_field)),
                        f64::from(supply(&after_state) - supply(&state) + placed),
                        f64::from(supply(&after_state)) / 7.0,
                        state.turns_played() as f64 / 71.0,
                    ];
                    let gain = f64::from(after[mover] - after[1 - mover])
                        - f64::from(before[mover] - before[1 - mover]);
                    assert_eq!(got.gain.to_bits(), gain.to_bits(), "{mv:?}");
                    for (g, w) in got.features.iter().zip(want) {
                        assert_eq!(
                            g.to_bits(),
                            w.to_bits(),
                            "{mv:?}: {:?} vs {want:?}",
                            got.features
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked} moves");
        assert!(
            shared > 0,
            "no meeple shared its feature in {checked} moves"
        );
    }
}
