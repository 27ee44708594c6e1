//! Test support: the figures of a game's random play that a portfolio describes a game by
//! (mean length, mean branching factor) and its speed, measured by the `#[ignore]`d `speed`
//! test of each game's module:
//!
//!     cargo test --release -p evomcts-games speed -- --ignored --nocapture

use std::time::Instant;

use rand::SeedableRng;

use super::{Game, GameRng};

/// Plays `games` random games from `start` for the mean number of decisions and of legal
/// moves per decision, then random games for about a second for the games per second, and
/// prints the three under `name`.
pub(crate) fn report<G: Game>(name: &str, start: &G, games: usize) {
    let mut rng = GameRng::seed_from_u64(1);
    let (mut decisions, mut moves) = (0usize, 0usize);
    let mut legal = Vec::new();
    for _ in 0..games {
        let mut state = start.clone();
        state.play_out_randomly_observed(&mut rng, |s, _| {
            s.legal_moves(&mut legal);
            decisions += 1;
            moves += legal.len();
        });
    }
    let mut state = start.clone();
    let clock = Instant::now();
    let mut played = 0u64;
    while clock.elapsed().as_secs_f64() < 1.0 {
        for _ in 0..100 {
            state.clone_from(start);
            state.play_out_randomly(&mut rng);
        }
        played += 100;
    }
    let per_second = played as f64 / clock.elapsed().as_secs_f64();
    eprintln!(
        "{name}: mean length {:.2} decisions, mean branching factor {:.2}, {:.0} random games a second",
        decisions as f64 / games as f64,
        moves as f64 / decisions as f64,
        per_second
    );
}
