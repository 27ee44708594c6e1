//! A fixed, seeded set of Pig positions for measuring searches against the exact solution.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};

use super::{Game, GameRng, PigError, PigRules, PigState};

/// Random games played per position asked for before `sample_positions` settles for fewer: a
/// small target has fewer distinct positions than a large count asks for.
const GAMES_PER_POSITION: usize = 50;

/// Up to `count` distinct decisions with a choice (turn total > 0, so both moves are legal),
/// each drawn uniformly from the decisions of one random game from the start (`Game`'s
/// rollout, uniform moves); positions seen before (same scores, turn total and mover) are
/// skipped. The same arguments give the same positions in the same order. Fewer than `count`
/// come back only when `GAMES_PER_POSITION · count` games found no more.
pub fn sample_positions(
    rules: PigRules,
    count: usize,
    seed: u64,
) -> Result<Vec<PigState>, PigError> {
    let start = PigState::new(rules)?;
    let mut rng = GameRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut positions = Vec::with_capacity(count);
    let mut decisions = Vec::new();
    for _ in 0..count.saturating_mul(GAMES_PER_POSITION) {
        if positions.len() == count {
            break;
        }
        decisions.clear();
        let mut game = start;
        game.play_out_randomly_observed(&mut rng, |state, _| {
            if state.turn_total() > 0 {
                decisions.push(*state);
            }
        });
        if decisions.is_empty() {
            continue;
        }
        let pick = decisions[rng.gen_range(0..decisions.len())];
        if seen.insert((pick.banked(), pick.turn_total(), pick.to_move())) {
            positions.push(pick);
        }
    }
    Ok(positions)
}
