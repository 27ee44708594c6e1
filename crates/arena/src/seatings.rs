//! Both seatings of one chance sequence (a tile sequence, a stream of die rolls) between a
//! candidate and another controller: a fitness sample of games, the games of a validation or a
//! sweep, and what a job step plays for either.

use super::choice::GameChoice;
use super::play::{play_seated, PlayError};
use super::record::PlayedGame;
use evomcts_games::carcassonne::Rules;
use evomcts_records::runfs::derive_seed;
use evomcts_search::ControllerSpec;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Final scores of both seatings of one chance sequence (a tile sequence, a stream of die
/// rolls) of `game`: `[(candidate, other); 2]`, the candidate first in game 0 and second in
/// game 1. Controller seeds follow the seat, not the controller: a candidate identical to the
/// other player plays the same two games mirrored.
pub fn play_both_seatings(
    game: GameChoice,
    rules: Rules,
    candidate: &ControllerSpec,
    other: &ControllerSpec,
    seed: u64,
) -> Result<[(f64, f64); 2], String> {
    let [(a, _), (b, _)] = play_both_seatings_recorded(game, rules, candidate, other, seed)?;
    Ok([a, b])
}

/// One game of a seating: (candidate's score, other's score) and the game's record.
pub type SeatedGame = ((f64, f64), PlayedGame);

/// `play_both_seatings` with each game's record, for comparing two candidates' games move by
/// move.
pub fn play_both_seatings_recorded(
    game: GameChoice,
    rules: Rules,
    candidate: &ControllerSpec,
    other: &ControllerSpec,
    seed: u64,
) -> Result<[SeatedGame; 2], String> {
    let seat_seeds = [derive_seed(seed, &[0]), derive_seed(seed, &[1])];
    let play = |candidate_seat: usize| {
        let specs = if candidate_seat == 0 {
            [candidate, other]
        } else {
            [other, candidate]
        };
        let played =
            play_seated(game, rules, seed, specs, seat_seeds, None).map_err(|e| match e {
                PlayError::Controller { seat, message } if seat == candidate_seat => {
                    format!("candidate: {message}")
                }
                PlayError::Controller { message, .. } => format!("baseline: {message}"),
                e => format!("game: {e}"),
            })?;
        let scores = played.game.final_scores();
        Ok::<_, String>((
            (
                scores[candidate_seat] as f64,
                scores[1 - candidate_seat] as f64,
            ),
            played.game,
        ))
    };
    Ok([play(0)?, play(1)?])
}

/// A game's final scores in seat order from the candidate's seat and the candidate's and the
/// other's scores, as a result is checked ([`GameChoice::check_result`]).
pub fn by_seat(candidate_seat: usize, (candidate, other): (f64, f64)) -> [f64; 2] {
    if candidate_seat == 0 {
        [candidate, other]
    } else {
        [other, candidate]
    }
}

/// One pairing of a set of games: a candidate against another controller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairing {
    pub label: String,
    pub candidate: ControllerSpec,
    pub other: ControllerSpec,
}

/// The candidate's and the other's score in each seating of one tile sequence.
pub type SeatingScores = [(f64, f64); 2];

/// Both seatings of each `(pairing, tile seed)` game of `games` on the current rayon pool, in
/// order, calling `on_start(k)` before and `on_done(k, scores)` after game k on the thread that
/// plays it (neither can change a result).
pub fn play_pairing_games(
    pairings: &[Pairing],
    game: GameChoice,
    rules: Rules,
    games: &[(usize, u64)],
    on_start: &(dyn Fn(usize) + Sync),
    on_done: &(dyn Fn(usize, &SeatingScores) + Sync),
) -> Vec<Result<SeatingScores, String>> {
    games
        .par_iter()
        .enumerate()
        .map(|(k, &(p, tile_seed))| {
            on_start(k);
            let result = play_both_seatings(
                game,
                rules,
                &pairings[p].candidate,
                &pairings[p].other,
                tile_seed,
            );
            if let Ok(scores) = &result {
                on_done(k, scores);
            }
            result
        })
        .collect()
}
