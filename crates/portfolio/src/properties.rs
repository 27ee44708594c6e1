//! A game's properties, measured the same way for every game: random games from the start
//! (the trait's random rollout, seeded), counting the decisions, the legal moves at each and
//! the chance events. The portfolio's dataset puts them beside each game's result, so a reader
//! can ask whether evolution's gains follow a property.

use evomcts_arena::{GameChoice, GameTask};
use evomcts_games::carcassonne::Rules;
use evomcts_games::{Game, GameRng};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// Random games a measurement plays.
pub const PROPERTY_GAMES: usize = 100;

/// What random play shows of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Properties {
    /// Whether any of the random games met a chance event.
    pub chance: bool,
    /// Mean legal moves at a decision (over every decision of every game).
    pub branching: f64,
    /// Mean decisions (moves by a player) per game.
    pub length: f64,
    /// Mean chance events per game.
    pub chance_events: f64,
    /// The random games played.
    pub games: usize,
    /// OpenSpiel's name of the game with its parameters, or `native` for evomcts's own.
    pub game_type: String,
}

struct Measure {
    games: usize,
    seed: u64,
}

impl GameTask for Measure {
    type Output = (usize, usize, usize);

    fn run<G: Game>(self, start: G) -> (usize, usize, usize) {
        let (mut decisions, mut moves, mut chance) = (0usize, 0usize, 0usize);
        let mut legal = Vec::new();
        for g in 0..self.games {
            let mut rng =
                GameRng::seed_from_u64(evomcts_records::runfs::derive_seed(self.seed, &[g as u64]));
            let mut state = start.clone();
            state.play_out_randomly_traced(
                &mut rng,
                |s, _| {
                    legal.clear();
                    s.legal_moves(&mut legal);
                    decisions += 1;
                    moves += legal.len();
                },
                || chance += 1,
            );
        }
        (decisions, moves, chance)
    }
}

/// Measures `game` (Carcassonne under `rules`) on `games` random games from `seed`.
pub fn measure(
    game: &GameChoice,
    rules: Rules,
    seed: u64,
    games: usize,
) -> Result<Properties, String> {
    let (decisions, moves, chance) = game.dispatch_with_rules(rules, Measure { games, seed })?;
    let per_game = |n: usize| n as f64 / games.max(1) as f64;
    Ok(Properties {
        chance: chance > 0,
        branching: moves as f64 / decisions.max(1) as f64,
        length: per_game(decisions),
        chance_events: per_game(chance),
        games,
        game_type: game_type(game),
    })
}

/// What `game_type` says of `game`: OpenSpiel's name of it with its parameters, or `native`.
pub fn game_type(game: &GameChoice) -> String {
    if let GameChoice::OpenSpiel(g) = game {
        g.spec().shown()
    } else {
        "native".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connect Four has no chance, at most 7 moves a decision and at most 42 decisions; Pig
    /// rolls dice; the same seed measures the same.
    #[test]
    fn connect_four_and_pig_measure_as_their_rules_say() {
        let c4 = measure(&GameChoice::ConnectFour, Rules::default(), 7, 50).unwrap();
        assert!(!c4.chance);
        assert_eq!(c4.chance_events, 0.0);
        assert!(c4.branching > 4.0 && c4.branching <= 7.0, "{c4:?}");
        assert!(c4.length >= 7.0 && c4.length <= 42.0, "{c4:?}");
        let pig = GameChoice::Pig(evomcts_games::pig::PigRules { target: 20 });
        let p = measure(&pig, Rules::default(), 7, 50).unwrap();
        assert!(p.chance && p.chance_events > 1.0, "{p:?}");
        assert_eq!(p, measure(&pig, Rules::default(), 7, 50).unwrap());
        assert_ne!(p, measure(&pig, Rules::default(), 8, 50).unwrap());
    }
}
