//! Complete random games of Carcassonne on one thread (`evomcts bench engine`), the engine's
//! speed figure.

use evomcts_games::carcassonne::{play_random_game, RandomGameStats, Rules};
use evomcts_games::GameRng;
use rand::SeedableRng;
use std::time::Instant;

/// Random games per second of each of `repeats` runs of `games` games (game `g` on tile seed
/// `seed + g`, the moves from one stream seeded with `seed`).
pub fn random_game_rates(rules: Rules, games: u64, seed: u64, repeats: u32) -> Vec<f64> {
    let mut rates = Vec::new();
    for _ in 0..repeats {
        let mut rng = GameRng::seed_from_u64(seed);
        let start = Instant::now();
        for g in 0..games {
            std::hint::black_box(play_random_game(
                rules,
                seed.wrapping_add(g),
                &mut rng,
                |_, _| {},
            ));
        }
        rates.push(games as f64 / start.elapsed().as_secs_f64());
    }
    rates
}

/// The figures of the same games as [`random_game_rates`], untimed.
pub fn random_game_stats(rules: Rules, games: u64, seed: u64) -> RandomGameStats {
    let mut stats = RandomGameStats::default();
    let mut rng = GameRng::seed_from_u64(seed);
    for g in 0..games {
        stats.add_game(rules, seed.wrapping_add(g), &mut rng);
    }
    stats
}
