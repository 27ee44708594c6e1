//! What a job step of an evolution or a validation plays (`slurm::steps` carries it to the
//! workers and their values back): fitness samples or pairing games. A worker reads it from a
//! file another process wrote, so it passes the checks and bounds of the spec it came from
//! before anything is played.

use super::fitness::{evaluate_all_reported, Request};
use super::spec::{FitnessSpec, MAX_RUN_PULLS, MAX_RUN_SAMPLES};
use evomcts_arena::{by_seat, play_pairing_games, GameChoice, Pairing};
use evomcts_formula::Formula;
use evomcts_games::carcassonne::Rules;
use evomcts_steps::steps::{self, StepError, StepWork, WorkerOutcome, WorkerSlot};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What one step plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Work {
    /// Fitness samples: `formula` on sample seed `seed`, as `fitness::sample` computes them.
    Fitness {
        fitness: Box<FitnessSpec>,
        tasks: Vec<FitnessTask>,
    },
    /// Both seatings of a tile sequence for a pairing, as `arena::play_pairing_games` plays
    /// them.
    Pairings {
        /// Carcassonne when left out.
        #[serde(default, skip_serializing_if = "GameChoice::is_carcassonne")]
        game: GameChoice,
        rules: Rules,
        pairings: Vec<Pairing>,
        tasks: Vec<PairingTask>,
    },
}

/// The samples of every request, in request order, played as job steps by `runner` (one
/// task per formula and seed); `on_value` is called once per sample, for progress.
pub fn play_fitness_steps(
    runner: &evomcts_steps::launch::StepRunner,
    fitness: &FitnessSpec,
    requests: &[Request<'_>],
    on_value: &dyn Fn(),
) -> Result<Vec<Vec<f64>>, StepError> {
    let work = Work::Fitness {
        fitness: Box::new(fitness.clone()),
        tasks: requests
            .iter()
            .flat_map(|r| {
                r.seeds.iter().map(|&seed| FitnessTask {
                    formula: r.formula.to_string(),
                    seed,
                })
            })
            .collect(),
    };
    let values = runner.play(&work, on_value)?;
    let mut rest = values.into_iter();
    Ok(requests
        .iter()
        .map(|r| rest.by_ref().take(r.seeds.len()).map(|v| v[0]).collect())
        .collect())
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitnessTask {
    pub formula: String,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingTask {
    pub pairing: usize,
    pub tile_seed: u64,
}

impl StepWork for Work {
    fn len(&self) -> usize {
        match self {
            Work::Fitness { tasks, .. } => tasks.len(),
            Work::Pairings { tasks, .. } => tasks.len(),
        }
    }

    fn width(&self) -> usize {
        match self {
            Work::Fitness { .. } => 1,
            Work::Pairings { .. } => 4,
        }
    }

    fn label(&self, k: usize) -> String {
        match self {
            Work::Fitness { tasks, .. } => {
                format!("{} on sample seed {}", tasks[k].formula, tasks[k].seed)
            }
            Work::Pairings {
                pairings, tasks, ..
            } => format!(
                "{} on tile seed {}",
                pairings[tasks[k].pairing].label, tasks[k].tile_seed
            ),
        }
    }

    /// A fitness sample, or the candidate's and the other's final scores in each seating,
    /// each pair a result of the game.
    fn check_values(&self, values: &[f64]) -> Result<(), String> {
        match self {
            Work::Fitness { fitness, .. } => values
                .iter()
                .try_for_each(|&value| fitness.check_sample(value)),
            Work::Pairings { game, .. } => {
                values
                    .chunks(2)
                    .enumerate()
                    .try_for_each(|(seat, pair)| match *pair {
                        [candidate, other] => game
                            .check_result(by_seat(seat, (candidate, other)))
                            .map_err(|m| {
                                format!("the seating with the candidate in seat {seat}: {m}")
                            }),
                        [..] => Err(format!("{} values, expected pairs", values.len())),
                    })
            }
        }
    }

    /// The same checks and bounds as the spec passed: the fitness or each pairing's
    /// controllers, the work of one decision, the work of the whole step.
    fn check(&self) -> Result<(), String> {
        let field = |(f, m): (String, String)| {
            if f.is_empty() {
                m
            } else {
                format!("{f}: {m}")
            }
        };
        if self.len() as u64 > MAX_RUN_SAMPLES {
            return Err(format!(
                "{} tasks, more than the {MAX_RUN_SAMPLES} one run may play",
                self.len()
            ));
        }
        match self {
            Work::Fitness { fitness, tasks } => {
                fitness.validate().map_err(field)?;
                if let FitnessSpec::Bandit(b) = &**fitness {
                    let pulls = tasks.len() as u128 * u128::from(b.horizon);
                    if pulls > u128::from(MAX_RUN_PULLS) {
                        return Err(format!(
                            "{} tasks × horizon {} = {pulls} arm pulls, more than the \
                             {MAX_RUN_PULLS} one run may make",
                            tasks.len(),
                            b.horizon
                        ));
                    }
                }
                for (k, task) in tasks.iter().enumerate() {
                    let formula: Formula = task
                        .formula
                        .parse()
                        .map_err(|e| format!("task {k}: formula `{}`: {e}", task.formula))?;
                    evomcts_records::bounds::check_c_e(&formula)
                        .map_err(|m| format!("task {k}: formula `{}`: {m}", task.formula))?;
                }
            }
            Work::Pairings {
                game,
                rules,
                pairings,
                tasks,
            } => {
                game.check_rules(rules).map_err(field)?;
                for (p, pairing) in pairings.iter().enumerate() {
                    for (role, controller) in
                        [("candidate", &pairing.candidate), ("other", &pairing.other)]
                    {
                        let named = |m: String| format!("pairing {p}, {role}: {m}");
                        evomcts_records::bounds::check_controller(controller)
                            .map_err(|e| named(field(e)))?;
                        game.check_controller(controller).map_err(named)?;
                    }
                }
                if let Some(t) = tasks.iter().find(|t| t.pairing >= pairings.len()) {
                    return Err(format!(
                        "a task names pairing {}, of {}",
                        t.pairing,
                        pairings.len()
                    ));
                }
            }
        }
        Ok(())
    }

    fn play(
        &self,
        tasks: &[usize],
        on_start: &(dyn Fn(usize) + Sync),
        on_done: &(dyn Fn(usize, Vec<f64>) + Sync),
    ) -> Result<(), String> {
        match self {
            Work::Fitness {
                fitness,
                tasks: all,
            } => {
                let formulas: Vec<Formula> = tasks
                    .iter()
                    .map(|&k| {
                        all[k]
                            .formula
                            .parse()
                            .map_err(|e| format!("task {k}: formula `{}`: {e}", all[k].formula))
                    })
                    .collect::<Result<_, _>>()?;
                let seeds: Vec<[u64; 1]> = tasks.iter().map(|&k| [all[k].seed]).collect();
                let requests: Vec<Request<'_>> = formulas
                    .iter()
                    .zip(&seeds)
                    .map(|(formula, seeds)| Request { formula, seeds })
                    .collect();
                evaluate_all_reported(fitness, &requests, &|i, _| on_start(i), &|i, _, value| {
                    on_done(i, vec![value])
                })
                .map_err(|e| e.to_string())?;
            }
            Work::Pairings {
                game,
                rules,
                pairings,
                tasks: all,
            } => {
                let games: Vec<(usize, u64)> = tasks
                    .iter()
                    .map(|&k| (all[k].pairing, all[k].tile_seed))
                    .collect();
                let results =
                    play_pairing_games(pairings, *game, *rules, &games, on_start, &|i, scores| {
                        let [(a, b), (c, d)] = *scores;
                        on_done(i, vec![a, b, c, d])
                    });
                if let Some((i, Err(message))) =
                    results.iter().enumerate().find(|(_, r)| r.is_err())
                {
                    return Err(format!(
                        "task {}: {}: {message}",
                        tasks[i],
                        self.label(tasks[i])
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Work {
    /// The game the step's pool is made for (`None` for bandit runs; in a mix, its first
    /// OpenSpiel game or else its first: `FitnessSpec::pool_game`).
    pub fn game(&self) -> Option<GameChoice> {
        match self {
            Work::Fitness { fitness, .. } => fitness.pool_game(),
            Work::Pairings { game, .. } => Some(*game),
        }
    }
}

/// Plays this worker's share of the step in `dir` (see `slurm::steps::run_worker`) on
/// `threads` workers (`None`: the default of the step's game), the pool built as a run's is
/// (`frame::RunPool`): what the `step-worker` command runs.
pub fn run_worker(
    dir: &Path,
    slot: WorkerSlot,
    threads: Option<usize>,
) -> Result<WorkerOutcome, StepError> {
    let work: Work = steps::read_work(dir)?;
    let pool = evomcts_steps::frame::RunPool::new(threads, work.game().as_ref()).map_err(|e| {
        StepError::Worker {
            message: format!("starting the worker threads: {e}"),
        }
    })?;
    pool.install(|| steps::run_worker::<Work>(dir, slot))
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_steps::steps::{read_results, write_todo, write_work};

    fn work() -> Work {
        Work::Fitness {
            fitness: Box::new(FitnessSpec::Bandit(Default::default())),
            tasks: (0..5)
                .map(|s| FitnessTask {
                    formula: "Q + 2/n".into(),
                    seed: s,
                })
                .collect(),
        }
    }

    // Issue 43, cause 2: a job step's pairing values are checked as results in seat order:
    // the candidate's and the other's scores of each seating.
    #[test]
    fn pairing_values_are_checked_as_results_of_the_game() {
        let work = Work::Pairings {
            game: GameChoice::Pig(evomcts_games::pig::PigRules::new(10).unwrap()),
            rules: Rules::default(),
            pairings: Vec::new(),
            tasks: Vec::new(),
        };
        assert_eq!(work.check_values(&[10.0, 3.0, 4.0, 12.0]), Ok(()));
        for bad in [
            [10.0, 10.0, 4.0, 12.0],
            [10.0, 3.0, 4.0, 9.0],
            [11.0, 3.0, 2.0, 16.0],
        ] {
            let why = work.check_values(&bad).unwrap_err();
            assert!(why.contains("seat"), "{bad:?}: {why}");
        }
    }

    #[test]
    fn work_round_trips_through_json() {
        let w = work();
        let back: Work = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn workers_split_the_todo_list_and_every_value_comes_back_exactly() {
        let dir = std::env::temp_dir().join(format!("evomcts-steps-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let w = work();
        let folder = write_work(&dir, &w).unwrap();
        write_todo(&folder, &[0, 1, 2, 3, 4]).unwrap();
        for index in 0..2 {
            let done = run_worker(&folder, WorkerSlot { index, count: 2 }, Some(2)).unwrap();
            assert_eq!(done.tasks, [3, 2][index]);
        }
        let values = read_results(&folder, &w).unwrap();
        let Work::Fitness { fitness, .. } = &w else {
            unreachable!()
        };
        let formula: Formula = "Q + 2/n".parse().unwrap();
        let seeds: Vec<u64> = (0..5).collect();
        let local = super::super::fitness::evaluate_all(
            fitness,
            &[Request {
                formula: &formula,
                seeds: &seeds,
            }],
        )
        .unwrap();
        let got: Vec<f64> = values.into_iter().map(|v| v.unwrap()[0]).collect();
        assert_eq!(
            got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            local[0].iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
