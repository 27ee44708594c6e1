//! Who plays whom, in which seat, on which tiles, with which seeds.
//!
//! Every ordered pair of entrants plays one match (A first against B second, and B first
//! against A second). Game `i` of (A, B) and game `i` of (B, A) draw the same tile sequence, so
//! the seatings are paired. Every seed is derived from the master seed and the game's identity
//! alone, never from the order in which games run, so results do not depend on threads.

use serde::{Deserialize, Serialize};

/// One game of the league: entrant indices in seat order and the game's number in its match.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameId {
    pub first: usize,
    pub second: usize,
    pub index: u32,
}

impl GameId {
    /// The game's number K in schedule order (0-based): the `K` of `replay --game K`, of
    /// `games.csv` and of the report's game pages. Depends only on the league's size, never
    /// on the order in which games finished.
    pub fn number(&self, entrants: usize, games_per_match: u32) -> usize {
        // Matches are ordered pairs in row-major order without the diagonal.
        let pair =
            self.first * (entrants - 1) + self.second - usize::from(self.second > self.first);
        pair * games_per_match as usize + self.index as usize
    }
}

/// Entrant indices and the game's number in its match, as `0 v 1 #3` (entrant 0 in the first
/// seat against entrant 1, game 3 of that match).
impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} v {} #{}", self.first, self.second, self.index)
    }
}

/// A scheduled game with its seeds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameJob {
    pub id: GameId,
    /// The seed of the game's chance events (Carcassonne's tile sequence, Pig's die rolls);
    /// records call it `tile_seed`.
    #[serde(rename = "tile_seed", with = "evomcts_games::carcassonne::seed_string")]
    pub seed: u64,
    /// Seeds of the controllers in seat order.
    #[serde(with = "evomcts_games::carcassonne::seed_string::pair")]
    pub controller_seeds: [u64; 2],
}

/// Seeds are derived in the shared run-folder layer, the same way for leagues and evolution.
pub use evomcts_records::runfs::derive_seed;

const TILES: u64 = 1;
const CONTROLLER: u64 = 2;

impl GameJob {
    pub fn new(master_seed: u64, id: GameId) -> GameJob {
        let (lo, hi) = (
            id.first.min(id.second) as u64,
            id.first.max(id.second) as u64,
        );
        let seed = derive_seed(master_seed, &[TILES, lo, hi, id.index as u64]);
        let seat_seed = |seat: u64, who: usize| {
            derive_seed(
                master_seed,
                &[
                    CONTROLLER,
                    id.first as u64,
                    id.second as u64,
                    id.index as u64,
                    seat,
                    who as u64,
                ],
            )
        };
        GameJob {
            id,
            seed,
            controller_seeds: [seat_seed(0, id.first), seat_seed(1, id.second)],
        }
    }
}

/// Every game of a league of `entrants` controllers, match by match (row-major over ordered
/// pairs), game by game.
pub fn schedule(master_seed: u64, entrants: usize, games_per_match: u32) -> Vec<GameJob> {
    let mut jobs = Vec::new();
    for first in 0..entrants {
        for second in 0..entrants {
            if first == second {
                continue;
            }
            for index in 0..games_per_match {
                jobs.push(GameJob::new(
                    master_seed,
                    GameId {
                        first,
                        second,
                        index,
                    },
                ));
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_seatings_of_a_pair_share_tiles_and_nothing_else_does() {
        let jobs = schedule(11, 3, 4);
        assert_eq!(jobs.len(), 3 * 2 * 4);
        for j in &jobs {
            let mirror = jobs
                .iter()
                .find(|k| {
                    k.id == GameId {
                        first: j.id.second,
                        second: j.id.first,
                        index: j.id.index,
                    }
                })
                .unwrap();
            assert_eq!(j.seed, mirror.seed);
            assert_ne!(j.controller_seeds, mirror.controller_seeds);
            let same_tiles = jobs.iter().filter(|k| k.seed == j.seed).count();
            assert_eq!(same_tiles, 2, "only the two seatings share a tile sequence");
        }
    }

    #[test]
    fn a_games_number_is_its_position_in_the_schedule() {
        for (entrants, games) in [(2, 1), (3, 4), (5, 2)] {
            for (k, job) in schedule(7, entrants, games).iter().enumerate() {
                assert_eq!(job.id.number(entrants, games), k, "{}", job.id);
            }
        }
        let id = GameId {
            first: 2,
            second: 0,
            index: 3,
        };
        assert_eq!(id.to_string(), "2 v 0 #3");
    }

    #[test]
    fn seeds_depend_on_the_master_seed() {
        assert_ne!(schedule(1, 2, 1)[0].seed, schedule(2, 2, 1)[0].seed);
        assert_eq!(schedule(1, 2, 3), schedule(1, 2, 3));
    }
}
