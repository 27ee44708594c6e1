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

use super::{FeatureKind, GameState, Move, MEEPLES_PER_PLAYER};
use crate::games::{MoveAssessment, MOVE_FEATURE_COUNT};

/// Turns of a full game: every tile but the start tile.
const TURNS_PER_GAME: f64 = 71.0;

/// Assesses `moves` (legal at `state`'s decision) into `out`, trying each on `scratch`. The
/// parts that are the same for every sibling (the scores and supply before, the turn) are
/// computed once. Moves come from the search's own legal-move list, so they are played
/// without the legality check.
pub(super) fn assess_moves(
    state: &GameState,
    moves: &[Move],
    scale: f64,
    features: bool,
    scratch: &mut GameState,
    out: &mut Vec<MoveAssessment>,
) {
    out.clear();
    let mover = state.to_move();
    let opponent = 1 - mover;
    let before = state.virtual_scores();
    let supply_before = i32::from(state.supply(mover));
    let turn = state.turns_played() as f64 / TURNS_PER_GAME;
    // One whole copy per node; each move is then tried and taken back, which copies back a
    // fraction of the state (`undo_trial_move`).
    scratch.clone_from(state);
    for &mv in moves {
        scratch.apply_trial_move(mv);
        let after = scratch.virtual_scores();
        let gain =
            f64::from(after[mover] - after[opponent]) - f64::from(before[mover] - before[opponent]);
        let mut assessment = MoveAssessment {
            gain,
            features: [0.0; MOVE_FEATURE_COUNT],
        };
        if features {
            let placed = i32::from(mv.meeple.is_some());
            let supply_after = i32::from(scratch.supply(mover));
            assessment.features = [
                f64::from(after[mover] - before[mover]) / scale,
                f64::from(after[opponent] - before[opponent]) / scale,
                f64::from(placed),
                f64::from(u8::from(on_field(scratch, mv))),
                f64::from(supply_after - supply_before + placed),
                f64::from(supply_after) / f64::from(MEEPLES_PER_PLAYER),
                turn,
            ];
        }
        out.push(assessment);
        scratch.undo_trial_move(state);
        debug_assert!(scratch == state, "the trial of {mv:?} was not taken back");
    }
}

/// Whether `mv`, just played on `after`, put its meeple on a field.
fn on_field(after: &GameState, mv: Move) -> bool {
    let Some(segment) = mv.meeple else {
        return false;
    };
    let placement = after.placed_tiles().len() - 1;
    let features = after.features();
    let root = features.find(GameState::node_of(placement, segment as usize));
    features.kind(root) == FeatureKind::Field
}

#[cfg(test)]
mod tests {
    use super::super::{sample_positions_in, Rules, Unplaceable};

    /// Every legal move of many positions (both unplaceable-tile rules, early to last turns),
    /// tried and taken back, leaves the state equal to a copy of it, byte for byte.
    #[test]
    fn a_trial_move_taken_back_leaves_the_state_as_it_was() {
        for unplaceable in [Unplaceable::Discard, Unplaceable::BottomOfStack] {
            let rules = Rules {
                unplaceable,
                ..Rules::default()
            };
            for state in sample_positions_in(rules, 40, 3, 0..71) {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                let mut scratch = state.clone();
                for mv in moves {
                    scratch.apply_trial_move(mv);
                    assert!(scratch != state, "the move changed nothing");
                    scratch.undo_trial_move(&state);
                    assert!(scratch == state, "{mv:?} at turn {}", state.turns_played());
                }
            }
        }
    }
}
