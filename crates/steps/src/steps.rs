//! Games played as job steps across a Slurm allocation, with the run folder as the only channel.
//!
//! A driver (the `evolve`, `validate`, `tune` or `study` process, given `--srun` or
//! `--workers N`) decides what to play exactly as on one machine; only the "play these games"
//! step differs.
//! It writes the work of one step (a [`StepWork`]: for evolution and validation
//! `evolve::work::Work`, the fitness spec or the pairings, and the tasks: a formula and a
//! sample seed, or a pairing and a tile seed), to `RUN/steps/<hash of the work>/work.json`, the
//! list of tasks still without a record to `todo.json`, and starts `srun evomcts step-worker
//! THAT_FOLDER` (or, with `--workers K`, K local processes `evomcts step-worker THAT_FOLDER
//! --worker P/K`: `slurm::launch`). Task P of the step's K (`SLURM_PROCID`, `SLURM_NTASKS`, or
//! `--worker P/K`) plays every todo entry
//! whose position is P mod K and appends one JSON line per finished task to a file of its own,
//! `results-<job>.<step>-<P>-<pid>.jsonl`, synced before the next counts as done. When the step
//! ends the driver reads every results file of the folder and checks each line against the work
//! (the task's number and what it plays), so values reach the run in task order whatever the
//! placement.
//!
//! Every value a task computes is a function of the task alone (its seeds come from the spec,
//! never from the placement) and travels as its IEEE bits, so the run's files are the bytes a
//! one-machine run writes. A task killed mid-step loses only its unfinished tasks: a torn last
//! line is ignored, the records kept, and the driver run again (`--resume`) finds the same
//! folder (its name is the work's hash) and plays only what is missing.
//!
//! This module knows tasks and values, not games: what a task plays is the work's, so the runs
//! whose games are steps (`evolve`, `validation`) use it and it uses none of them.

use evomcts_records::runfs::{
    fnv1a_hex, open_own, read_capped, read_capped_text, write_atomically,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// The folder of a run that holds its steps.
pub const STEPS_DIR: &str = "steps";
const WORK_FILE: &str = "work.json";
const TODO_FILE: &str = "todo.json";
const RESULTS_PREFIX: &str = "results-";
const RESULTS_SUFFIX: &str = ".jsonl";

/// What one step plays: numbered tasks, each yielding [`StepWork::width`] values that are a
/// function of the task alone. It travels as JSON in the step's folder, which is named by that
/// JSON's hash.
pub trait StepWork: Serialize + DeserializeOwned + PartialEq + Sync {
    /// The number of tasks.
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Values one task yields.
    fn width(&self) -> usize;

    /// What task `k` plays, in words: the key its record is checked by.
    fn label(&self, k: usize) -> String;

    /// Checks what a work file says before any task is played from it: it was written by a
    /// driver from a checked spec, but it is a file another process reads.
    fn check(&self) -> Result<(), String>;

    /// That one task's values are what its task can produce.
    fn check_values(&self, values: &[f64]) -> Result<(), String>;

    /// Plays `tasks` (task numbers) on the current rayon pool, calling `on_start(i)` before and
    /// `on_done(i, values)` after the `i`-th of them on the thread that plays it; the error
    /// names the task that failed.
    fn play(
        &self,
        tasks: &[usize],
        on_start: &(dyn Fn(usize) + Sync),
        on_done: &(dyn Fn(usize, Vec<f64>) + Sync),
    ) -> Result<(), String>;
}

/// One finished task as a results file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskRecord {
    /// The task's number in the work.
    task: usize,
    /// What the task played ([`StepWork::label`]), checked against the work.
    label: String,
    /// The values, as IEEE bits: a fitness sample, or the candidate's and the other's score
    /// in each seating.
    values: Vec<u64>,
    /// Wall time of the task on its thread (for measuring; no result depends on it).
    seconds: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    File(#[from] evomcts_records::runfs::FileError),
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
    #[error("cannot start `{program}`: {message} ({hint})")]
    Launch {
        program: String,
        message: String,
        /// What the launcher needs (`srun` on the PATH), or which local worker it was.
        hint: String,
    },
}

fn io(path: &Path, e: impl std::fmt::Display) -> StepError {
    evomcts_records::runfs::FileError::io(path, e).into()
}

fn work_json(work: &impl StepWork) -> String {
    serde_json::to_string(work).expect("work serialises")
}

/// The step folder of `work` under `steps`: named by its content, so the same work (a rerun of
/// an interrupted step) finds its records again.
pub fn work_folder(steps: &Path, work: &impl StepWork) -> PathBuf {
    steps.join(fnv1a_hex(&work_json(work)))
}

/// Every task's values read back from the results files of `dir`: `None` where no record is.
/// A last line without its newline (a task killed while writing) is ignored; any other line
/// must be a record of this work, and a task recorded twice must be recorded identically.
pub fn read_results(dir: &Path, work: &impl StepWork) -> Result<Vec<Option<Vec<f64>>>, StepError> {
    let mut out: Vec<Option<Vec<u64>>> = vec![None; work.len()];
    let files = results_files(dir).map_err(|e| io(dir, e))?;
    for path in &files {
        let bytes = read_capped(
            path,
            evomcts_records::runfs::MAX_RECORD_FILE_BYTES,
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
pub fn read_work<W: StepWork>(dir: &Path) -> Result<W, StepError> {
    let path = dir.join(WORK_FILE);
    let text = read_capped_text(
        &path,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a step's work",
    )
    .map_err(|e| io(&path, e))?;
    let work: W = serde_json::from_str(&text).map_err(|e| StepError::Corrupt {
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
pub fn write_work<W: StepWork>(steps: &Path, work: &W) -> Result<PathBuf, StepError> {
    let dir = work_folder(steps, work);
    evomcts_records::runfs::create_folder(&dir).map_err(|e| io(&dir, e))?;
    let path = dir.join(WORK_FILE);
    let text = work_json(work);
    if path.exists() {
        if read_work::<W>(&dir)? != *work {
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

/// Set by a local launch (`--workers N`) in its workers' environment: a name of that launch,
/// unique on the machine (letters and digits), which names the results files in place of
/// Slurm's job and step.
pub const LAUNCH_ENV: &str = "EVOMCTS_STEP_LAUNCH";

/// The results file of this process: unique to the Slurm job, step, task and process, or, in
/// a local launch, to the launch ([`LAUNCH_ENV`]: `results-local.<launch>-<task>-<pid>.jsonl`),
/// so a worker of a later launch never appends to a file an earlier one left a torn line in.
fn results_path(dir: &Path, slot: WorkerSlot) -> PathBuf {
    let env = |name: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| v.chars().all(|c| c.is_ascii_alphanumeric()) && !v.is_empty())
    };
    let (job, step) = match env(LAUNCH_ENV) {
        Some(launch) => ("local".to_string(), launch),
        None => (
            env("SLURM_JOB_ID").unwrap_or_else(|| "local".into()),
            env("SLURM_STEP_ID").unwrap_or_else(|| "local".into()),
        ),
    };
    dir.join(format!(
        "{RESULTS_PREFIX}{job}.{step}-{}-{}{RESULTS_SUFFIX}",
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
pub fn run_worker<W: StepWork>(dir: &Path, slot: WorkerSlot) -> Result<WorkerOutcome, StepError> {
    slot.check()
        .map_err(|message| StepError::Worker { message })?;
    let started = Instant::now();
    let work: W = read_work(dir)?;
    let todo_path = dir.join(TODO_FILE);
    let todo: Vec<usize> = serde_json::from_str(
        &read_capped_text(
            &todo_path,
            evomcts_records::runfs::MAX_DATA_FILE_BYTES,
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
    work.play(&mine, &begin, &record)
        .map_err(|message| StepError::Worker { message })?;
    let (file, status) = writer.into_inner().expect("the results file");
    status
        .and_then(|()| evomcts_records::runfs::check_still_in_place(&file, &path))
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
            evomcts_records::runfs::MAX_RECORD_FILE_BYTES,
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
