//! A validation's games read as an equivalence question and with a p-value that its sequential
//! stop does not void (`evomcts validate equivalence RUN…`): from the records alone, so it
//! applies to every validation ever played, the committed ones included.
//!
//! The unit is the seed pair, both seatings of one sequence, in sequence order (the order the
//! sequential test reads them). For a game played to win a pair is its score rate minus ½
//! (win 1, draw ½, loss 0, the mean of its two games), in [−½, ½], and the margin is in win
//! rate; for a game played for points it is the mean of its two seatings' score differences,
//! and the margin is in points.
//!
//! - **TOST** (`records::equivalence`): equivalent when the (1 − 2α) interval of the mean lies
//!   inside ±margin; a fixed-sample test, exact for a validation that played its fixed number of
//!   sequences and only approximate for one an SPRT stopped.
//! - **The anytime-valid p-value** (`records::anytime`) of a zero mean, valid at any stopping
//!   time, the SPRT's included, so Holm's adjustment over several validations holds. It needs a
//!   bound on a pair's |difference| fixed beforehand: ½ for games played to win; for games
//!   played for points the caller states it, else no anytime p-value is given.

use std::path::Path;

use super::{complete_sequences, p_text, sprt::read_records, GameRow, ValidateError};
use evomcts_games::Objective;
use evomcts_records::anytime::{anytime_p_value, AnytimeError};
use evomcts_records::equivalence::{tost, Tost, TostError};

/// What to test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EquivalenceChoice {
    /// The equivalence margin: win rate for games played to win, points for games played for
    /// points.
    pub margin: f64,
    /// The level of each one-sided test.
    pub alpha: f64,
    /// The largest |pair difference| of a game played for points, for the anytime p-value.
    pub points_bound: Option<f64>,
}

/// One validation's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Equivalence {
    pub run: String,
    pub objective: Objective,
    /// The pairs, in sequence order.
    pub pairs: Vec<f64>,
    pub tost: Tost,
    /// The anytime-valid p-value of a zero mean, where a bound is known.
    pub anytime_p: Option<f64>,
}

/// Why a validation's records cannot be tested.
#[derive(Debug, thiserror::Error)]
pub enum EquivalenceError {
    #[error(transparent)]
    Records(#[from] ValidateError),
    #[error("{run}: {source}")]
    Tost { run: String, source: TostError },
    #[error("{run}: {source}")]
    Anytime { run: String, source: AnytimeError },
}

/// The pairs of `rows` (pairing 0, complete sequences only, in sequence order) in the unit of
/// `objective`.
pub fn pairs(rows: &[GameRow], objective: Objective) -> Vec<f64> {
    complete_sequences(rows, 0)
        .iter()
        .map(|games| {
            let per_game = |g: &&GameRow| match objective {
                Objective::WinLoss => match g.candidate_score.total_cmp(&g.other_score) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                },
                Objective::Points => g.candidate_score - g.other_score,
            };
            let mean = games.iter().map(per_game).sum::<f64>() / 2.0;
            match objective {
                Objective::WinLoss => mean - 0.5,
                Objective::Points => mean,
            }
        })
        .collect()
}

/// The tests of the validation in `dir`.
pub fn equivalence_of(
    dir: &Path,
    choice: &EquivalenceChoice,
) -> Result<Equivalence, EquivalenceError> {
    let (spec, rows) = read_records(dir)?;
    let run = dir.display().to_string();
    let objective = spec.game.describe().objective;
    let pairs = pairs(&rows, objective);
    let tost =
        tost(&pairs, choice.margin, choice.alpha).map_err(|source| EquivalenceError::Tost {
            run: run.clone(),
            source,
        })?;
    let bound = match objective {
        Objective::WinLoss => Some(0.5),
        Objective::Points => choice.points_bound,
    };
    let anytime_p = bound
        .map(|bound| anytime_p_value(&pairs, bound))
        .transpose()
        .map_err(|source| EquivalenceError::Anytime {
            run: run.clone(),
            source,
        })?;
    Ok(Equivalence {
        run,
        objective,
        pairs,
        tost,
        anytime_p,
    })
}

/// The table of `tested`, one row per validation, with the anytime p-values Holm-adjusted over
/// the rows that have one.
pub fn equivalence_table(tested: &[Equivalence], choice: &EquivalenceChoice) -> String {
    let given: Vec<f64> = tested.iter().filter_map(|t| t.anytime_p).collect();
    let mut adjusted = evomcts_records::stats::holm(&given).into_iter();
    let mut out = format!(
        "| validation | pairs | mean (unit) | {:.0}% interval | TOST p (margin ±{}) | verdict | anytime p | Holm over {} |\n|---|---|---|---|---|---|---|---|\n",
        100.0 * (1.0 - 2.0 * choice.alpha),
        choice.margin,
        given.len()
    );
    for t in tested {
        let unit = match t.objective {
            Objective::WinLoss => "win rate − ½",
            Objective::Points => "points",
        };
        let (anytime, holm) = match t.anytime_p {
            Some(p) => (p_text(p), p_text(adjusted.next().unwrap_or(1.0))),
            None => ("no bound".to_string(), "–".to_string()),
        };
        out.push_str(&format!(
            "| {} | {} | {:+.3} ({unit}) | [{:+.3}, {:+.3}] | {} | {} | {anytime} | {holm} |\n",
            evomcts_records::escape::markdown(&t.run),
            t.tost.n,
            t.tost.mean,
            t.tost.low,
            t.tost.high,
            p_text(t.tost.p_tost),
            t.tost.verdict.as_str(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(sequence: usize, seat: usize, candidate: f64, other: f64) -> GameRow {
        GameRow {
            pairing: 0,
            sequence,
            tile_seed: sequence as u64,
            candidate_seat: seat,
            candidate_score: candidate,
            other_score: other,
        }
    }

    /// A pair is its score rate minus ½ for games played to win, its mean score difference for
    /// games played for points; an incomplete sequence is left out; sequence order is kept.
    #[test]
    fn pairs_are_in_the_games_unit_and_in_sequence_order() {
        let rows = [
            row(1, 0, 1.0, -1.0),
            row(0, 0, -1.0, 1.0),
            row(0, 1, 0.0, 0.0),
            row(1, 1, 1.0, -1.0),
            row(2, 0, 1.0, -1.0),
        ];
        assert_eq!(pairs(&rows, Objective::WinLoss), [-0.25, 0.5]);
        assert_eq!(pairs(&rows, Objective::Points), [-1.0, 2.0]);
    }
}
