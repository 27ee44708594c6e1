//! Games played as job steps across a Slurm allocation, with the run folder as the only channel.
//!
//! A driver (the `evolve`, `validate carcassonne` or `validate sweep` process, given `--srun`)
//! decides what to play exactly as on one machine; only the "play these games" step differs.
//! It writes the work of one step, a [`Work`] (the fitness spec or the pairings, and the
//! tasks: a formula and a sample seed, or a pairing and a tile seed), to
//! `RUN/steps/<hash of the work>/work.json`, the list of tasks still without a record to
//! `todo.json`, and starts `srun evomcts step-worker THAT_FOLDER`. Task P of the step's K
//! (`SLURM_PROCID`, `SLURM_NTASKS`) plays every todo entry whose position is P mod K and appends
//! one JSON line per finished task to a file of its own, `results-<job>.<step>-<P>-<pid>.jsonl`,
//! synced before the next counts as done. When the step ends the driver reads every results
//! file of the folder and checks each line against the work (the task's number and what it
//! plays), so values reach the run in task order whatever the placement.
//!
//! Every value a task computes is a function of the task alone (its seeds come from the spec,
//! never from the placement) and travels as its IEEE bits, so the run's files are the bytes a
//! one-machine run writes. A task killed mid-step loses only its unfinished tasks: a torn last
//! line is ignored, the records kept, and the driver run again (`--resume`) finds the same
//! folder (its name is the work's hash) and plays only what is missing.

use super::fitness::{evaluate_all_reported, Request};
use super::spec::{FitnessSpec, MAX_RUN_PULLS, MAX_RUN_SAMPLES};
use crate::arena::{play_pairing_games, GameChoice, Pairing};
use crate::runfs::{fnv1a_hex, open_own, read_capped, read_capped_text, write_atomically};
use evomcts_formula::Formula;
use evomcts_games::carcassonne::Rules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

mod launch;
pub use launch::{SrunOptions, StepRunner};

/// The folder of a run that holds its steps.
pub const STEPS_DIR: &str = "steps";
const WORK_FILE: &str = "work.json";
const TODO_FILE: &str = "todo.json";
const RESULTS_PREFIX: &str = "results-";
const RESULTS_SUFFIX: &str = ".jsonl";

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

/// One finished task as a results file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskRecord {
    /// The task's number in the work.
    task: usize,
    /// What the task played ([`Work::label`]), checked against the work.
    label: String,
    /// The values, as IEEE bits: a fitness sample, or the candidate's and the other's score
    /// in each seating.
    values: Vec<u64>,
    /// Wall time of the task on its thread (for measuring; no result depends on it).
    seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    #[error("{file}:{line}: {message}; the step folder is not this run's: remove it to play its games again")]
    Corrupt {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{message}")]
    Worker { message: String },
    #[error("{dir}: {missing} of {total} tasks have no record after the step ({status}); the {recorded} recorded are kept: run the same command again with --resume to play the rest")]
    Incomplete {
        dir: String,
        missing: usize,
        total: usize,
        recorded: usize,
        status: String,
    },
    #[error("cannot start `{program}`: {message} (--srun needs Slurm's srun on the PATH, inside an allocation)")]
    Launch { program: String, message: String },
}

fn io(path: &Path, e: impl std::fmt::Display) -> StepError {
    StepError::Io {
        file: path.display().to_string(),
        message: e.to_string(),
    }
}

impl Work {
    pub fn len(&self) -> usize {
        match self {
            Work::Fitness { tasks, .. } => tasks.len(),
            Work::Pairings { tasks, .. } => tasks.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Values one task yields.
    fn width(&self) -> usize {
        match self {
            Work::Fitness { .. } => 1,
            Work::Pairings { .. } => 4,
        }
    }

    /// What task `k` plays, in words: the key its record is checked by.
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

    fn to_json(&self) -> String {
        serde_json::to_string(self).expect("work serialises")
    }

    /// The step folder of this work under `steps`: named by its content, so the same work
    /// (a rerun of an interrupted step) finds its records again.
    pub fn folder(&self, steps: &Path) -> PathBuf {
        steps.join(fnv1a_hex(&self.to_json()))
    }

    /// That one task's values are what its task can produce: a fitness sample, or four final
    /// scores of the game played.
    fn check_values(&self, values: &[f64]) -> Result<(), String> {
        values.iter().try_for_each(|&value| match self {
            Work::Fitness { fitness, .. } => fitness.check_sample(value),
            Work::Pairings { game, .. } => game.check_final_score(value),
        })
    }

    /// Checks what a work file says before any task is played from it: it was written by a
    /// driver from a checked spec, but it is a file another process reads, so it passes the
    /// same checks and bounds as the spec did (the fitness or each pairing's controllers, the
    /// work of one decision, the work of the whole step) before anything is played.
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
                    crate::runfs::check_c_e(&formula)
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
                        crate::runfs::check_controller(controller).map_err(|e| named(field(e)))?;
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
}

/// Every task's values read back from the results files of `dir`: `None` where no record is.
/// A last line without its newline (a task killed while writing) is ignored; any other line
/// must be a record of this work, and a task recorded twice must be recorded identically.
pub fn read_results(dir: &Path, work: &Work) -> Result<Vec<Option<Vec<f64>>>, StepError> {
    let mut out: Vec<Option<Vec<u64>>> = vec![None; work.len()];
    let files = results_files(dir).map_err(|e| io(dir, e))?;
    for path in &files {
        let bytes = read_capped(
            path,
            crate::runfs::MAX_RECORD_FILE_BYTES,
            "a step's results",
        )
        .map_err(|e| io(path, e))?;
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        for (i, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let corrupt = |message: String| StepError::Corrupt {
                file: path.display().to_string(),
                line: i + 1,
                message,
            };
            let record: TaskRecord = serde_json::from_slice(line)
                .map_err(|e| corrupt(format!("not a task record ({e})")))?;
            if record.task >= work.len() {
                return Err(corrupt(format!(
                    "task {} is not in the step's {} tasks",
                    record.task,
                    work.len()
                )));
            }
            if record.label != work.label(record.task) {
                return Err(corrupt(format!(
                    "task {} played `{}`, the work says `{}`",
                    record.task,
                    record.label,
                    work.label(record.task)
                )));
            }
            if record.values.len() != work.width() {
                return Err(corrupt(format!(
                    "task {} holds {} values, expected {}",
                    record.task,
                    record.values.len(),
                    work.width()
                )));
            }
            let values: Vec<f64> = record.values.iter().map(|&v| f64::from_bits(v)).collect();
            work.check_values(&values)
                .map_err(|m| corrupt(format!("task {}: {m}", record.task)))?;
            match &out[record.task] {
                Some(earlier) if *earlier != record.values => {
                    return Err(corrupt(format!(
                        "task {} is recorded twice with different values: the workers did not run the same code",
                        record.task
                    )))
                }
                _ => out[record.task] = Some(record.values),
            }
        }
    }
    Ok(out
        .into_iter()
        .map(|v| v.map(|bits| bits.into_iter().map(f64::from_bits).collect()))
        .collect())
}

/// The results files of a step folder, sorted by name (none when the folder is not there).
fn results_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .flatten()
            .filter(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with(RESULTS_PREFIX) && name.ends_with(RESULTS_SUFFIX)
            })
            .map(|e| e.path())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    files.sort();
    Ok(files)
}

/// Reads (and checks) the work file of a step folder.
fn read_work(dir: &Path) -> Result<Work, StepError> {
    let path = dir.join(WORK_FILE);
    let text = read_capped_text(&path, crate::runfs::MAX_DATA_FILE_BYTES, "a step's work")
        .map_err(|e| io(&path, e))?;
    let work: Work = serde_json::from_str(&text).map_err(|e| StepError::Corrupt {
        file: path.display().to_string(),
        line: e.line(),
        message: format!("not a step's work ({e})"),
    })?;
    work.check().map_err(|message| StepError::Corrupt {
        file: path.display().to_string(),
        line: 1,
        message,
    })?;
    Ok(work)
}

/// Writes `work` into its folder under `steps` (or checks the one there holds the same work)
/// and returns the folder.
pub fn write_work(steps: &Path, work: &Work) -> Result<PathBuf, StepError> {
    let dir = work.folder(steps);
    crate::runfs::create_folder(&dir).map_err(|e| io(&dir, e))?;
    let path = dir.join(WORK_FILE);
    let text = work.to_json();
    if path.exists() {
        if read_work(&dir)? != *work {
            return Err(StepError::Corrupt {
                file: path.display().to_string(),
                line: 1,
                message: "holds other work than its folder's name says".into(),
            });
        }
    } else {
        write_atomically(&path, text.as_bytes()).map_err(|e| io(&path, e))?;
    }
    Ok(dir)
}

/// Writes the tasks still to play, which every worker of the next step reads.
pub fn write_todo(dir: &Path, todo: &[usize]) -> Result<(), StepError> {
    let path = dir.join(TODO_FILE);
    let text = serde_json::to_string(todo).expect("a list serialises");
    write_atomically(&path, text.as_bytes()).map_err(|e| io(&path, e))
}

/// Which worker of a step this process is: `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkerSlot {
    pub index: usize,
    pub count: usize,
}

impl WorkerSlot {
    /// From Slurm's `SLURM_PROCID` and `SLURM_NTASKS`, or the only worker outside Slurm.
    pub fn from_env() -> Result<WorkerSlot, String> {
        let var = |name: &str| -> Result<Option<usize>, String> {
            match std::env::var(name) {
                Ok(v) => v
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| format!("{name} must be a whole number, got {v:?}")),
                Err(_) => Ok(None),
            }
        };
        let slot = match (var("SLURM_PROCID")?, var("SLURM_NTASKS")?) {
            (Some(index), Some(count)) => WorkerSlot { index, count },
            (None, None) => WorkerSlot { index: 0, count: 1 },
            _ => return Err("SLURM_PROCID and SLURM_NTASKS must be set together".into()),
        };
        slot.check()?;
        Ok(slot)
    }

    pub fn check(&self) -> Result<(), String> {
        if self.count == 0 || self.index >= self.count {
            return Err(format!(
                "worker {} of {}: expected an index below a count of at least 1",
                self.index, self.count
            ));
        }
        Ok(())
    }
}

/// The results file of this process: unique to the Slurm job, step, task and process.
fn results_path(dir: &Path, slot: WorkerSlot) -> PathBuf {
    let env = |name: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| v.chars().all(|c| c.is_ascii_alphanumeric()) && !v.is_empty())
            .unwrap_or_else(|| "local".into())
    };
    dir.join(format!(
        "{RESULTS_PREFIX}{}.{}-{}-{}{RESULTS_SUFFIX}",
        env("SLURM_JOB_ID"),
        env("SLURM_STEP_ID"),
        slot.index,
        std::process::id()
    ))
}

/// What a worker did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorkerOutcome {
    pub tasks: usize,
    pub seconds: f64,
}

/// Plays this worker's share of the step in `dir` (the todo entries at positions
/// `slot.index` mod `slot.count`) on the current rayon pool, appending each task's record as
/// it finishes.
pub fn run_worker(dir: &Path, slot: WorkerSlot) -> Result<WorkerOutcome, StepError> {
    slot.check()
        .map_err(|message| StepError::Worker { message })?;
    let started = Instant::now();
    let work = read_work(dir)?;
    let todo_path = dir.join(TODO_FILE);
    let todo: Vec<usize> = serde_json::from_str(
        &read_capped_text(
            &todo_path,
            crate::runfs::MAX_DATA_FILE_BYTES,
            "a step's todo list",
        )
        .map_err(|e| io(&todo_path, e))?,
    )
    .map_err(|e| StepError::Corrupt {
        file: todo_path.display().to_string(),
        line: e.line(),
        message: format!("not a list of task numbers ({e})"),
    })?;
    if todo.len() > work.len() {
        return Err(StepError::Corrupt {
            file: todo_path.display().to_string(),
            line: 1,
            message: format!(
                "{} entries, more than the step's {} tasks",
                todo.len(),
                work.len()
            ),
        });
    }
    if let Some(&k) = todo.iter().find(|&&k| k >= work.len()) {
        return Err(StepError::Corrupt {
            file: todo_path.display().to_string(),
            line: 1,
            message: format!("task {k} is not in the step's {} tasks", work.len()),
        });
    }
    let mine: Vec<usize> = todo
        .iter()
        .enumerate()
        .filter(|(i, _)| i % slot.count == slot.index)
        .map(|(_, &k)| k)
        .collect();
    if mine.is_empty() {
        return Ok(WorkerOutcome {
            tasks: 0,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    let path = results_path(dir, slot);
    let file = open_own(&path, std::fs::OpenOptions::new().create(true).append(true))
        .map_err(|e| io(&path, e))?;
    let writer = Mutex::new((file, Ok::<(), std::io::Error>(())));
    let task_started: Vec<Mutex<Option<Instant>>> = mine.iter().map(|_| Mutex::new(None)).collect();
    let record = |i: usize, values: Vec<f64>| {
        let seconds = task_started[i]
            .lock()
            .expect("a timer")
            .map_or(0.0, |t| t.elapsed().as_secs_f64());
        let line = TaskRecord {
            task: mine[i],
            label: work.label(mine[i]),
            values: values.into_iter().map(f64::to_bits).collect(),
            seconds,
        };
        let mut text = serde_json::to_vec(&line).expect("a record serialises");
        text.push(b'\n');
        let mut guard = writer.lock().expect("the results file");
        let (file, status) = &mut *guard;
        if status.is_ok() {
            *status = file.write_all(&text).and_then(|()| file.sync_data());
        }
    };
    let begin = |i: usize| *task_started[i].lock().expect("a timer") = Some(Instant::now());
    match &work {
        Work::Fitness { fitness, tasks } => {
            let formulas: Vec<Formula> = mine
                .iter()
                .map(|&k| {
                    tasks[k].formula.parse().map_err(|e| StepError::Worker {
                        message: format!("task {k}: formula `{}`: {e}", tasks[k].formula),
                    })
                })
                .collect::<Result<_, _>>()?;
            let seeds: Vec<[u64; 1]> = mine.iter().map(|&k| [tasks[k].seed]).collect();
            let requests: Vec<Request<'_>> = formulas
                .iter()
                .zip(&seeds)
                .map(|(formula, seeds)| Request { formula, seeds })
                .collect();
            evaluate_all_reported(fitness, &requests, &|i, _| begin(i), &|i, _, value| {
                record(i, vec![value])
            })
            .map_err(|e| StepError::Worker {
                message: e.to_string(),
            })?;
        }
        Work::Pairings {
            game,
            rules,
            pairings,
            tasks,
        } => {
            let games: Vec<(usize, u64)> = mine
                .iter()
                .map(|&k| (tasks[k].pairing, tasks[k].tile_seed))
                .collect();
            let results =
                play_pairing_games(pairings, *game, *rules, &games, &begin, &|i, scores| {
                    let [(a, b), (c, d)] = *scores;
                    record(i, vec![a, b, c, d])
                });
            if let Some((i, Err(message))) = results.iter().enumerate().find(|(_, r)| r.is_err()) {
                return Err(StepError::Worker {
                    message: format!("task {}: {}: {message}", mine[i], work.label(mine[i])),
                });
            }
        }
    }
    let (file, status) = writer.into_inner().expect("the results file");
    status
        .and_then(|()| crate::runfs::check_still_in_place(&file, &path))
        .map_err(|e| io(&path, e))?;
    Ok(WorkerOutcome {
        tasks: mine.len(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The tasks of `values` without a record, in task order.
pub fn missing(values: &[Option<Vec<f64>>]) -> Vec<usize> {
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| k)
        .collect()
}

/// The wall time of every recorded task of `dir`, summed (for the progress line; a task
/// recorded twice counts once).
pub fn recorded_seconds(dir: &Path) -> f64 {
    let mut by_task: BTreeMap<usize, f64> = BTreeMap::new();
    for path in results_files(dir).unwrap_or_default() {
        let Ok(bytes) = read_capped(
            &path,
            crate::runfs::MAX_RECORD_FILE_BYTES,
            "a step's results",
        ) else {
            continue;
        };
        for line in bytes.split(|&b| b == b'\n') {
            if let Ok(r) = serde_json::from_slice::<TaskRecord>(line) {
                by_task.insert(r.task, r.seconds);
            }
        }
    }
    by_task.values().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn work_round_trips_through_json() {
        let w = work();
        let back: Work = serde_json::from_str(&w.to_json()).unwrap();
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
            let done = run_worker(&folder, WorkerSlot { index, count: 2 }).unwrap();
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
