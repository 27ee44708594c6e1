//! Positions of seeded random games of any game: what a search is run on when a caller needs
//! decisions a game really reaches (the fingerprint bank of `evolve::hashing`).
//!
//! [`random_game_position`] plays one random game from a start state with the random player's
//! moves and sampled chance outcomes, all drawn from one RNG seeded by the game's seed
//! ([`Game::play_out_randomly_observed`]), and returns one of its decisions with two or more
//! legal moves, drawn uniformly from the RNG once the game is over. It plays the game twice
//! (once to count the decisions, once to stop at the one drawn), so it copies one state; the
//! result is a pure function of the start state and the seed.

use rand::{Rng, SeedableRng};

use evomcts_games::{Game, GameRng};

/// One decision with two or more legal moves of the random game from `start` seeded by
/// `seed`, each such decision of the game equally likely; `None` when the game has none.
pub fn random_game_position<G: Game>(start: &G, seed: u64) -> Option<G> {
    let mut moves = Vec::new();
    let mut open = |state: &G| {
        state.legal_moves(&mut moves);
        moves.len() > 1
    };
    let mut rng = GameRng::seed_from_u64(seed);
    let mut decisions = 0usize;
    start
        .clone()
        .play_out_randomly_observed(&mut rng, |state, _| decisions += usize::from(open(state)));
    if decisions == 0 {
        return None;
    }
    let chosen = rng.gen_range(0..decisions);
    let mut rng = GameRng::seed_from_u64(seed);
    let mut seen = 0usize;
    let mut position = None;
    start
        .clone()
        .play_out_randomly_observed(&mut rng, |state, _| {
            if open(state) {
                if seen == chosen {
                    position = Some(state.clone());
                }
                seen += 1;
            }
        });
    position
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_games::connect_four::ConnectFourState;

    #[test]
    fn a_position_is_an_open_decision_of_its_seed_and_seeds_differ() {
        let start = ConnectFourState::new();
        let positions: Vec<ConnectFourState> = (0..40)
            .map(|seed| random_game_position(&start, seed).expect("Connect Four has decisions"))
            .collect();
        let mut moves = Vec::new();
        for (seed, p) in positions.iter().enumerate() {
            assert!(p.at_decision() && !p.is_over());
            p.legal_moves(&mut moves);
            assert!(moves.len() > 1);
            let again = random_game_position(&start, seed as u64).unwrap();
            assert_eq!(format!("{again:?}"), format!("{p:?}"));
        }
        // Drawn across the game, not always its first decision.
        let turns: std::collections::BTreeSet<usize> =
            positions.iter().map(|p| p.turns_played()).collect();
        assert!(turns.len() > 10, "{turns:?}");
    }
}
