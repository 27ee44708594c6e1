//! The driver's side of a step: write the work, start its workers (`srun`, or local worker
//! processes), wait, read the records back.
//!
//! Local workers ([`Launcher::Local`], `--workers N`) are N children of the driver, `RELAUNCH
//! step-worker DIR --worker i/N`, waited for together. They are tied to the driver so that a
//! killed driver leaves no writer behind in a folder a resumed driver uses: a child inherits
//! the driver's process group (Ctrl-C reaches both), is killed and reaped if the driver fails
//! or unwinds while it runs, and, told the driver's process id (`--driver PID`), stops itself
//! within a tenth of a second once its parent is another process (the driver was killed,
//! `kill -9` included; this needs no `PR_SET_PDEATHSIG`, hence no unsafe code). In that tenth
//! of a second it may still append a record: a valid one, a function of its task alone, to a
//! results file whose name is unique to its launch ([`LAUNCH_ENV`]), so no two launches write
//! one file and a torn last line is never followed by another process's line.

use super::steps::{
    missing, read_results, recorded_seconds, write_todo, write_work, StepError, StepWork,
    LAUNCH_ENV, STEPS_DIR,
};
use crate::frame::Relaunch;
use crate::runfs::write_atomically;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// How steps are started and where their workers run.
#[derive(Clone, Debug, PartialEq)]
pub struct SrunOptions {
    /// `srun` over a Slurm allocation, or worker processes on this machine.
    pub launcher: Launcher,
    /// Names the steps in `squeue --steps` (`evomcts-<name>`).
    pub name: String,
    /// A line on stderr per step (its tasks, the step's and the merge's wall time).
    pub progress: bool,
}

/// Who starts a step's workers.
#[derive(Clone, Debug, PartialEq)]
pub enum Launcher {
    /// `srun BIN step-worker DIR` over the allocation's tasks (`--srun`).
    Srun {
        /// The evomcts binary the workers run (this one: the allocation shares its file
        /// system).
        bin: PathBuf,
    },
    /// `workers` processes on this machine, `RELAUNCH step-worker DIR --worker i/workers`
    /// (`--workers N`): the evomcts binary, or `python -m evomcts` inside the Python package,
    /// where OpenSpiel's games play.
    Local {
        relaunch: Relaunch,
        workers: usize,
        /// Each worker's threads (`--threads T`); `None`: the game's default in each.
        threads: Option<usize>,
    },
}

/// The progress line a driver keeps in the run folder, rewritten after every step.
pub const PROGRESS_FILE: &str = "steps-progress.txt";

/// Plays work as job steps in the run folder `run_dir`.
pub struct StepRunner {
    run_dir: PathBuf,
    options: SrunOptions,
    /// What the steps are part of (e.g. `generation 3`), for the progress line.
    context: std::sync::Mutex<String>,
}

impl StepRunner {
    pub fn new(run_dir: &Path, options: SrunOptions) -> StepRunner {
        StepRunner {
            run_dir: run_dir.to_path_buf(),
            options,
            context: std::sync::Mutex::new(String::new()),
        }
    }

    /// Names what the next steps are part of in the progress line.
    pub fn set_context(&self, context: &str) {
        *self.context.lock().expect("the context") = context.to_string();
    }

    fn steps(&self) -> PathBuf {
        self.run_dir.join(STEPS_DIR)
    }

    /// Every task's values, in task order: the ones already recorded in the work's folder
    /// (a rerun after a failed step), the others played by one `srun` step. `on_value` is
    /// called once per task, after the step (for progress).
    pub fn play(
        &self,
        work: &impl StepWork,
        on_value: &dyn Fn(),
    ) -> Result<Vec<Vec<f64>>, StepError> {
        if work.is_empty() {
            return Ok(Vec::new());
        }
        let started = Instant::now();
        let dir = write_work(&self.steps(), work)?;
        let before = read_results(&dir, work)?;
        let todo = missing(&before);
        let mut status = "no step was needed".to_string();
        let mut step_seconds = 0.0;
        if !todo.is_empty() {
            write_todo(&dir, &todo)?;
            if todo.len() < work.len() {
                crate::note!(
                    "{}: {} of {} tasks already recorded, playing the other {}",
                    dir.display(),
                    work.len() - todo.len(),
                    work.len(),
                    todo.len()
                );
            }
            let step = Instant::now();
            status = self.launch(&dir)?;
            step_seconds = step.elapsed().as_secs_f64();
        }
        let merge = Instant::now();
        let after = read_results(&dir, work)?;
        let left = missing(&after);
        if !left.is_empty() {
            return Err(StepError::Incomplete {
                dir: dir.display().to_string(),
                missing: left.len(),
                total: work.len(),
                recorded: work.len() - left.len(),
                status,
            });
        }
        let merge_seconds = merge.elapsed().as_secs_f64();
        for _ in 0..work.len() {
            on_value();
        }
        self.write_progress(
            &dir,
            work.len(),
            todo.len(),
            step_seconds,
            merge_seconds,
            started,
        );
        Ok(after
            .into_iter()
            .map(|v| v.expect("checked above"))
            .collect())
    }

    /// Starts one step's workers and waits for them; returns how the step ended (an error
    /// only when it could not start).
    fn launch(&self, dir: &Path) -> Result<String, StepError> {
        match &self.options.launcher {
            Launcher::Srun { bin } => self.launch_srun(bin, dir),
            Launcher::Local {
                relaunch,
                workers,
                threads,
            } => launch_local(relaunch, *workers, *threads, self.options.progress, dir),
        }
    }

    /// One `srun` step over the allocation's tasks.
    fn launch_srun(&self, bin: &Path, dir: &Path) -> Result<String, StepError> {
        let program = "srun";
        let mut command = Command::new(program);
        command.arg("--kill-on-bad-exit=0").arg(format!(
            "--job-name=evomcts-{}",
            crate::escape::slurm_job_name(&self.options.name, "run")
        ));
        // Steps do not inherit the allocation's CPUs per task (Slurm 22.05 and later).
        if let Some(cpus) = std::env::var("SLURM_CPUS_PER_TASK")
            .ok()
            .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit()))
        {
            command.arg(format!("--cpus-per-task={cpus}"));
        }
        command.arg(bin).arg("step-worker").arg(dir);
        let status = command.status().map_err(|e| StepError::Launch {
            program: program.into(),
            message: e.to_string(),
            hint: SRUN_HINT.into(),
        })?;
        Ok(if status.success() {
            "the step succeeded".into()
        } else {
            format!("the step ended with {status}")
        })
    }

    /// The step's line in the run folder's progress file (for people; no result reads it).
    fn write_progress(
        &self,
        dir: &Path,
        tasks: usize,
        played: usize,
        step_seconds: f64,
        merge_seconds: f64,
        started: Instant,
    ) {
        let context = self.context.lock().expect("the context").clone();
        let line = format!(
            "{context} step {}: {tasks} tasks ({played} played in this step, {:.3} s of task time recorded), step {step_seconds:.3} s, merge {merge_seconds:.3} s, {:.3} s in all",
            dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            recorded_seconds(dir),
            started.elapsed().as_secs_f64()
        );
        if self.options.progress {
            crate::note!("{line}");
        }
        let stamped = format!("{} {line}\n", crate::runfs::utc_now());
        let _ = write_atomically(&self.run_dir.join(PROGRESS_FILE), stamped.as_bytes());
    }

    /// Removes the step folders once what they produced is written elsewhere.
    pub fn clear(&self) -> Result<(), StepError> {
        match std::fs::remove_dir_all(self.steps()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(crate::runfs::FileError::io(&self.steps(), e).into()),
        }
    }
}

/// What a failed start of `srun` adds to its message.
const SRUN_HINT: &str = "--srun needs Slurm's srun on the PATH, inside an allocation";

/// Launches of this process so far, for [`launch_id`].
static LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// A name for one local launch, unique on this machine: the driver's process id, the time and
/// a counter (letters and digits only, as results file names take it).
fn launch_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{}t{nanos}n{}",
        std::process::id(),
        LAUNCHES.fetch_add(1, Ordering::Relaxed)
    )
}

/// Children not yet reaped: killed and reaped when dropped, so a driver that fails or unwinds
/// while its workers run leaves none of them playing.
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `workers` local processes over the step in `dir`, waited for together; the step ended
/// well when every worker did, else its message names each worker that failed and how.
fn launch_local(
    relaunch: &Relaunch,
    workers: usize,
    threads: Option<usize>,
    progress: bool,
    dir: &Path,
) -> Result<String, StepError> {
    let id = launch_id();
    let mut children = Children(Vec::with_capacity(workers));
    for i in 0..workers {
        let mut command = relaunch.command("step-worker");
        command
            .arg(dir)
            .arg("--worker")
            .arg(format!("{i}/{workers}"))
            .arg("--driver")
            .arg(std::process::id().to_string())
            .env(LAUNCH_ENV, &id)
            .stdin(Stdio::null());
        if let Some(t) = threads {
            command.arg("--threads").arg(t.to_string());
        }
        if !progress {
            command.arg("--quiet");
        }
        let child = command.spawn().map_err(|e| StepError::Launch {
            program: relaunch.display(),
            message: e.to_string(),
            hint: format!("for worker {i} of --workers {workers}"),
        })?;
        children.0.push(child);
    }
    let mut failed = Vec::new();
    // Reaped one by one; what is left is killed if waiting fails.
    while !children.0.is_empty() {
        let i = workers - children.0.len();
        let status = children.0[0].wait().map_err(|e| StepError::Worker {
            message: format!(
                "waiting for worker {i} of --workers {workers} (`{}`): {e}; the workers still running are stopped",
                relaunch.display()
            ),
        })?;
        children.0.remove(0);
        if !status.success() {
            failed.push(format!("worker {i}/{workers} ended with {status}"));
        }
    }
    Ok(if failed.is_empty() {
        "the step succeeded".into()
    } else {
        failed.join(", ")
    })
}
