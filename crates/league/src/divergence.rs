//! Whether a recorded league game reproduces: [`divergence`] compares a record with the game
//! played again from its seeds ([`super::play_league_game`]), for records of every kind
//! (Carcassonne's, Pig's and the history of every other game), and says where they first
//! differ. `replay` checks every game of a folder with it; it reads nothing and writes
//! nothing.

use super::LeagueGame;
use evomcts_arena::PlayedGame;

/// Where two games' moves first differ, as the line `replay` prints.
fn first_different_move<M: PartialEq + std::fmt::Display>(a: &[M], b: &[M]) -> Option<String> {
    let turn = a.iter().zip(b).position(|(x, y)| x != y)?;
    Some(format!(
        "turn {turn}: recorded {} but replay played {}",
        a[turn], b[turn]
    ))
}

/// How a game played again from its record's seeds differs from the record, as the line
/// `replay` prints (`None`: it reproduces): the first move that differs, the chance events,
/// the final scores, then anything else the record holds (ES formulas, metrics); the
/// OpenSpiel version a game was replayed with is not compared.
pub fn divergence(recorded: &LeagueGame, again: &LeagueGame) -> Option<String> {
    match (&recorded.game, &again.game) {
        (PlayedGame::Carcassonne(a), PlayedGame::Carcassonne(b)) => {
            if let Some(d) = first_different_move(&a.moves, &b.moves) {
                return Some(d);
            }
            if a.moves.len() != b.moves.len() || a.draws != b.draws {
                return Some("the sequence of tiles differs".into());
            }
        }
        (PlayedGame::Pig(a), PlayedGame::Pig(b)) => {
            if let Some(d) = first_different_move(&a.moves, &b.moves) {
                return Some(d);
            }
            if a.moves.len() != b.moves.len() || a.rolls != b.rolls {
                return Some("the sequence of rolls differs".into());
            }
        }
        (PlayedGame::History(a), PlayedGame::History(b)) => {
            if let Some(d) = first_different_move(&a.moves, &b.moves) {
                return Some(d);
            }
            if a.moves.len() != b.moves.len() || a.outcomes != b.outcomes {
                return Some("the sequence of chance outcomes differs".into());
            }
        }
        (a, b) => {
            return Some(format!(
                "recorded a game of {}, replay played {}",
                a.label(),
                b.label()
            ))
        }
    }
    let (a, b) = (recorded.game.final_scores(), again.game.final_scores());
    if a != b {
        return Some(format!(
            "final scores: recorded {} – {}, replayed {} – {}",
            a[0], a[1], b[0], b[1]
        ));
    }
    // The OpenSpiel version a game was replayed with is warned about once, not per game.
    let mut again = again.clone();
    if let (PlayedGame::History(a), PlayedGame::History(b)) = (&recorded.game, &mut again.game) {
        b.open_spiel.clone_from(&a.open_spiel);
    }
    (*recorded != again).then(|| "records differ outside the moves (ES formulas or metrics)".into())
}
