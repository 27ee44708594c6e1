//! CLOP's evaluations as a tuning run would play and replay them: groundwork for a
//! `method: Clop` of `evomcts tune`, which no spec can select yet (a spec field needs the one
//! place outside this crate that builds a `TuneSpec` field by field, the study's, to name it).
//!
//! - Evaluation `step` plays the point CLOP asks for ([`Clop::next_point`], mapped to natural
//!   units by `Parameter::natural`, so log ranges geometrically) against the opponent on the
//!   step's `seeds_per_step` sweep sequences (`step_seed`, the tile seeds SPSA's step would
//!   play), both seatings: one game pair a sequence, one `tune.csv` row each, side `point`.
//! - CLOP is told each pair's score ([`pair_score`]): the mean over the two seatings of 1 for
//!   a game the candidate won (scored above the opponent), ½ for a tie, 0 for a loss, so a
//!   game scored in points counts as won or lost, as CLOP's outcomes are.
//! - [`replay`] rebuilds CLOP from the rows of complete evaluations, checking each row is the
//!   one the schedule plays (step, side, values, tile seed); since every point CLOP draws
//!   comes from its seed and the scores it was told, the optimiser after a replay is the one
//!   that played them, so a run resumed from `tune.csv` continues as if never stopped.
//!
//! Guarantees: CLOP's seed derives from the spec's master seed alone (domain [`CLOP_DOMAIN`]);
//! no file I/O, no games played here.

use super::rows::{Row, Side};
use super::run::{natural, step_seed};
use super::{TuneError, TuneSpec};
use crate::clop::{Clop, ClopError, Settings};
use evomcts_arena::SeatingScores;
use evomcts_records::runfs::{derive_seed, FileError};
use std::path::Path;

/// Domain tag of CLOP's seed ("clopseed" in ASCII).
pub const CLOP_DOMAIN: u64 = 0x636c_6f70_7365_6564;

/// CLOP at the start of `spec`'s run: its parameters' count (1 to 4), its seed from the spec's.
pub fn start_clop(spec: &TuneSpec, settings: Settings) -> Result<Clop, ClopError> {
    Clop::new(
        spec.parameters.len(),
        derive_seed(spec.seed, &[CLOP_DOMAIN]),
        settings,
    )
}

/// A row the schedule plays: (side, values in natural units, tile seed).
pub type Planned = (Side, Vec<f64>, u64);

/// The point of evaluation `step` (drawn from `clop`, scaled) and its rows in order, one per
/// sequence.
pub fn schedule(spec: &TuneSpec, step: usize, clop: &mut Clop) -> (Vec<f64>, Vec<Planned>) {
    let x = clop.next_point();
    let values = natural(spec, &x);
    let rows = (0..spec.seeds_per_step)
        .map(|j| (Side::Point, values.clone(), step_seed(spec, step, j)))
        .collect();
    (x, rows)
}

/// A game pair's score for CLOP: the mean over its two seatings of 1 (the candidate scored
/// above the opponent), ½ (a tie) or 0.
pub fn pair_score(scores: &SeatingScores) -> f64 {
    let outcome = |(c, o): &(f64, f64)| {
        if c > o {
            1.0
        } else if c == o {
            0.5
        } else {
            0.0
        }
    };
    scores.iter().map(outcome).sum::<f64>() / 2.0
}

/// Tells `clop` the pairs played at `x` (scaled), in the rows' order.
pub fn observe(clop: &mut Clop, x: &[f64], rows: &[Row]) {
    for row in rows {
        clop.observe(x, pair_score(&row.scores));
    }
}

/// `clop` (as [`start_clop`] made it) after the complete evaluations of `rows` (`file` names
/// them in errors), each row checked against the schedule; and the number of rows kept (those
/// of complete evaluations, at most `evaluations`).
pub fn replay(
    spec: &TuneSpec,
    mut clop: Clop,
    evaluations: usize,
    rows: &[Row],
    file: &Path,
) -> Result<(Clop, usize), TuneError> {
    let per_step = spec.seeds_per_step;
    let done = (rows.len() / per_step).min(evaluations);
    for step in 0..done {
        let these = &rows[step * per_step..(step + 1) * per_step];
        let (x, expected) = schedule(spec, step, &mut clop);
        for (k, (row, (side, values, seed))) in these.iter().zip(expected).enumerate() {
            if row.step != step || row.side != side || row.values != values || row.tile_seed != seed
            {
                return Err(FileError::corrupt(
                    file,
                    step * per_step + k + 2,
                    "does not belong to this spec's schedule",
                )
                .into());
            }
        }
        observe(&mut clop, &x, these);
    }
    Ok((clop, done * per_step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_records::runfs::SpecFile;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    const SPEC: &str = r#"(
        name: "clop-tiny",
        seed: 9,
        game: ConnectFour,
        controller: (sims: 10, c_e: 0.5, reward: WinLoss),
        parameters: [(name: "C_E", low: 0.05, high: 5.0, log: true)],
        budget: 400,
        seeds_per_step: 2,
        spsa: (a: 0.1),
        recommend_blocks: 1,
        reestimate_sequences: 2,
    )"#;

    fn start(spec: &TuneSpec) -> Clop {
        start_clop(spec, Settings::default()).unwrap()
    }

    /// A live run of `n` evaluations with simulated pair scores (the candidate wins more near
    /// C_E = 0.5): CLOP after them and the rows written.
    fn live(spec: &TuneSpec, n: usize) -> (Clop, Vec<Row>) {
        let mut clop = start(spec);
        let mut games = Pcg64Mcg::seed_from_u64(4);
        let mut written = Vec::new();
        for step in 0..n {
            let (x, schedule) = schedule(spec, step, &mut clop);
            let rows: Vec<Row> = schedule
                .into_iter()
                .map(|(side, values, tile_seed)| {
                    let p = 0.6 - 0.3 * (values[0].ln() - 0.5f64.ln()).powi(2) / 10.0;
                    let mut game = || {
                        if games.gen::<f64>() < p {
                            (1.0, 0.0)
                        } else {
                            (0.0, 1.0)
                        }
                    };
                    Row {
                        step,
                        side,
                        values,
                        tile_seed,
                        scores: [game(), game()],
                    }
                })
                .collect();
            observe(&mut clop, &x, &rows);
            written.extend(rows);
        }
        (clop, written)
    }

    /// Replaying the rows of 60 evaluations (and a part evaluation, dropped) gives the CLOP
    /// that wrote them: the same games, recommendation and next point; the points played are
    /// on the log range, and every evaluation plays the step's tile seeds.
    #[test]
    fn a_replay_is_the_optimiser_that_played() {
        let spec = TuneSpec::from_ron(SPEC, "clop-tiny.ron").unwrap();
        let (mut played, mut rows) = live(&spec, 60);
        assert!(rows
            .iter()
            .all(|r| (0.05..=5.0).contains(&r.values[0]) && r.side == Side::Point));
        assert_eq!(rows[7].tile_seed, step_seed(&spec, 3, 1));
        rows.push(rows[0].clone());
        let file = Path::new("tune.csv");
        let (mut replayed, kept) = replay(&spec, start(&spec), 100, &rows, file).unwrap();
        assert_eq!(kept, 120);
        assert_eq!(replayed.games(), played.games());
        assert_eq!(replayed.recommend(), played.recommend());
        assert_eq!(replayed.next_point(), played.next_point());
        let (capped, kept) = replay(&spec, start(&spec), 10, &rows, file).unwrap();
        assert_eq!((capped.games(), kept), (20, 20));
    }

    /// A row whose values, tile seed or side is not the schedule's is refused, naming its line.
    #[test]
    fn a_row_off_the_schedule_is_refused_with_its_line() {
        let spec = TuneSpec::from_ron(SPEC, "clop-tiny.ron").unwrap();
        let (_, rows) = live(&spec, 10);
        let edits: [fn(&mut Row); 3] = [
            |r| r.values[0] *= 1.01,
            |r| r.tile_seed ^= 1,
            |r| r.side = Side::Plus,
        ];
        for edit in edits {
            let mut bad = rows.clone();
            edit(&mut bad[5]);
            let e = replay(&spec, start(&spec), 10, &bad, Path::new("tune.csv"))
                .unwrap_err()
                .to_string();
            assert!(e.contains("tune.csv:7:"), "{e}");
            assert!(e.contains("schedule"), "{e}");
        }
    }

    /// A pair's score is the mean of its seatings' outcomes: wins, ties and losses by the
    /// score, whatever its scale (points too).
    #[test]
    fn a_pair_scores_its_outcomes() {
        assert_eq!(pair_score(&[(1.0, 0.0), (1.0, 0.0)]), 1.0);
        assert_eq!(pair_score(&[(0.5, 0.5), (0.0, 1.0)]), 0.25);
        assert_eq!(pair_score(&[(31.0, 40.0), (52.0, 17.0)]), 0.5);
    }
}
