//! The driver's side of a step: write the work, start `srun`, wait, read the records back.

use super::steps::{
    missing, read_results, recorded_seconds, write_todo, write_work, StepError, StepWork, STEPS_DIR,
};
use crate::runfs::write_atomically;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// How steps are started (`--srun`).
#[derive(Clone, Debug, PartialEq)]
pub struct SrunOptions {
    /// The evomcts binary the workers run (this one: the allocation shares its file system).
    pub bin: PathBuf,
    /// Names the steps in `squeue --steps` (`evomcts-<name>`).
    pub name: String,
    /// A line on stderr per step (its tasks, the step's and the merge's wall time).
    pub progress: bool,
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

    /// Starts one step over the allocation's tasks and waits for it; returns how it ended
    /// (an error only when it could not start).
    fn launch(&self, dir: &Path) -> Result<String, StepError> {
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
        command.arg(&self.options.bin).arg("step-worker").arg(dir);
        let status = command.status().map_err(|e| StepError::Launch {
            program: program.into(),
            message: e.to_string(),
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
