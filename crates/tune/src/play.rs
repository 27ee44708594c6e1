//! A step's games: both seatings of each (pairing, sequence), on this machine's threads or as
//! one Slurm job step over an allocation (`slurm::steps`, the work `evolve::work::Work`
//! carries for validations), with the same scores either way.

use super::{TuneError, TuneSpec};
use evomcts_arena::{play_pairing_games, Pairing, SeatingScores};
use evomcts_evolve::work::{PairingTask, Work};
use evomcts_steps::launch::{SrunOptions, StepRunner};
use std::path::Path;

/// Where games are played.
pub(super) enum Player<'a> {
    Threads(&'a rayon::ThreadPool),
    Srun { dir: &'a Path, options: SrunOptions },
}

/// The scores of `games` (pairing, tile seed), in order, and the job step's runner whose
/// records are to be cleared once the rows are written (`None` on threads).
pub(super) fn play_games(
    spec: &TuneSpec,
    pairings: &[Pairing],
    games: &[(usize, u64)],
    step: usize,
    player: &Player<'_>,
) -> Result<(Vec<SeatingScores>, Option<StepRunner>), TuneError> {
    let (played, runner): (Vec<Result<SeatingScores, String>>, _) = match player {
        Player::Threads(pool) => (
            pool.install(|| {
                play_pairing_games(pairings, spec.game, spec.rules, games, &|_| {}, &|_, _| {})
            }),
            None,
        ),
        Player::Srun { dir, options } => {
            let work = Work::Pairings {
                game: spec.game,
                rules: spec.rules,
                pairings: pairings.to_vec(),
                tasks: games
                    .iter()
                    .map(|&(pairing, tile_seed)| PairingTask { pairing, tile_seed })
                    .collect(),
            };
            let runner = StepRunner::new(dir, options.clone());
            runner.set_context("tuning");
            let values = runner.play(&work, &|| {})?;
            let scores = values
                .into_iter()
                .map(|v| Ok([(v[0], v[1]), (v[2], v[3])]))
                .collect();
            (scores, Some(runner))
        }
    };
    let scores = games
        .iter()
        .zip(played)
        .map(|(&(_, tile_seed), result)| {
            result.map_err(|message| TuneError::Game {
                step,
                tile_seed,
                message,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((scores, runner))
}
