//! The driver's side of a step: write the work, start its workers (`srun`, or local worker
//! processes), wait, read the records back.
//!
//! Local workers ([`Launcher::Local`], `--workers N`) are N children of the driver, `RELAUNCH
//! step-worker --serve --worker i/N`, started at the run's first step and kept for every later
//! one (every phase of a study): each step's folder is sent to each worker on its standard
//! input, and each answers on its standard output once it has played its share, so a step
//! costs no process start (for `python -m evomcts`, loading Python, the package and OpenSpiel).
//! A worker that fails ends with its status and fails the step, as a failed `srun` step does;
//! the others finish their share, and the workers are then stopped and started afresh at the
//! next step.
//!
//! They are tied to the driver so that a killed driver leaves no writer behind in a folder a
//! resumed driver uses: a child inherits the driver's process group (Ctrl-C reaches both); it
//! ends when its standard input closes, which the driver's end does whatever ends it; it is
//! stopped and reaped when the driver drops its workers (after a failed step, at the run's
//! end, or when the driver unwinds); and, told the driver's process id (`--driver PID`), a
//! worker busy playing stops itself within a tenth of a second once its parent is another
//! process (the driver was killed, `kill -9` included; this needs no `PR_SET_PDEATHSIG`, hence
//! no unsafe code). In that tenth of a second it may still append a record: a valid one, a
//! function of its task alone, to a results file whose name is unique to its workers' start
//! ([`LAUNCH_ENV`]), so no two starts write one file and a torn last line is never followed by
//! another process's line.

use super::steps::{
    missing, read_results, recorded_seconds, write_todo, write_work, StepError, StepWork,
    LAUNCH_ENV, STEPS_DIR,
};
use evomcts_records::runfs::write_atomically;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Processes on this machine (`--workers N`).
    Local(LocalWorkers),
}

/// `workers` processes on this machine, `RELAUNCH step-worker --serve --worker i/workers`: the
/// evomcts binary, or `python -m evomcts` inside the Python package, where OpenSpiel's games
/// play. Started at the first step and shared by every clone (every phase of a run, every
/// step), stopped when the last clone is dropped.
#[derive(Clone)]
pub struct LocalWorkers {
    pub relaunch: Relaunch,
    pub workers: usize,
    /// Each worker's threads (`--threads T`); `None`: the game's default in each.
    pub threads: Option<usize>,
    /// The running workers, if started.
    running: Arc<Mutex<Option<Pool>>>,
}

impl LocalWorkers {
    pub fn new(relaunch: Relaunch, workers: usize, threads: Option<usize>) -> LocalWorkers {
        LocalWorkers {
            relaunch,
            workers,
            threads,
            running: Arc::new(Mutex::new(None)),
        }
    }
}

impl PartialEq for LocalWorkers {
    /// The same workers asked for (whether they are running is no part of the options).
    fn eq(&self, other: &LocalWorkers) -> bool {
        (&self.relaunch, self.workers, self.threads)
            == (&other.relaunch, other.workers, other.threads)
    }
}

impl std::fmt::Debug for LocalWorkers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalWorkers")
            .field("relaunch", &self.relaunch)
            .field("workers", &self.workers)
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
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
                evomcts_records::note!(
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
            Launcher::Local(local) => local.play_step(self.options.progress, dir),
        }
    }

    /// One `srun` step over the allocation's tasks.
    fn launch_srun(&self, bin: &Path, dir: &Path) -> Result<String, StepError> {
        let program = "srun";
        let mut command = Command::new(program);
        command.arg("--kill-on-bad-exit=0").arg(format!(
            "--job-name=evomcts-{}",
            evomcts_records::escape::slurm_job_name(&self.options.name, "run")
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
            evomcts_records::note!("{line}");
        }
        let stamped = format!("{} {line}\n", evomcts_records::runfs::utc_now());
        let _ = write_atomically(&self.run_dir.join(PROGRESS_FILE), stamped.as_bytes());
    }

    /// Removes the step folders once what they produced is written elsewhere.
    pub fn clear(&self) -> Result<(), StepError> {
        match std::fs::remove_dir_all(self.steps()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(evomcts_records::runfs::FileError::io(&self.steps(), e).into()),
        }
    }
}

/// Removes the step folders a run killed while it played on workers (or an allocation) left
/// in `run_dir`, when it resumes without them (`srun` is `None`): their tasks are played on
/// threads now, so the folder ends as an uninterrupted run's. With `srun` they are kept: a
/// rerun plays only what they lack. Every run kind that plays steps calls it when it opens its
/// folder.
pub fn clear_left_steps(run_dir: &Path, srun: Option<&SrunOptions>) -> Result<(), StepError> {
    if srun.is_some() {
        return Ok(());
    }
    let steps = run_dir.join(STEPS_DIR);
    match std::fs::remove_dir_all(&steps) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(evomcts_records::runfs::FileError::io(&steps, e).into()),
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

/// What a serving worker writes on its standard output when it has played its share of a
/// step (other lines there, should a game print any, are skipped).
pub const SERVE_DONE: &str = "evomcts step-worker: done";

/// How long a worker told to stop (its standard input closed) may take before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// One running worker and its pipes.
struct Worker {
    child: Child,
    /// Closed (`None`) to tell the worker to stop.
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

/// The running workers: stopped and reaped when dropped (standard input closed, then killed
/// if a worker has not ended within [`STOP_GRACE`]), so a driver that fails, ends or unwinds
/// leaves none of them behind.
struct Pool {
    workers: Vec<Worker>,
}

impl Drop for Pool {
    fn drop(&mut self) {
        for w in &mut self.workers {
            w.stdin = None;
        }
        let until = Instant::now() + STOP_GRACE;
        for w in &mut self.workers {
            while matches!(w.child.try_wait(), Ok(None)) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = w.child.kill();
            let _ = w.child.wait();
        }
    }
}

impl LocalWorkers {
    /// Starts the workers: each `RELAUNCH step-worker --serve --worker i/N --driver PID`, with
    /// a name of this start in [`LAUNCH_ENV`]. A worker that cannot start is named; the ones
    /// already started are stopped.
    fn start(&self, progress: bool) -> Result<Pool, StepError> {
        let id = launch_id();
        let n = self.workers;
        let mut pool = Pool {
            workers: Vec::with_capacity(n),
        };
        for i in 0..n {
            let mut command = self.relaunch.command("step-worker");
            command
                .arg("--serve")
                .arg("--worker")
                .arg(format!("{i}/{n}"))
                .arg("--driver")
                .arg(std::process::id().to_string())
                .env(LAUNCH_ENV, &id)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped());
            if let Some(t) = self.threads {
                command.arg("--threads").arg(t.to_string());
            }
            if !progress {
                command.arg("--quiet");
            }
            let mut child = command.spawn().map_err(|e| StepError::Launch {
                program: self.relaunch.display(),
                message: e.to_string(),
                hint: format!("for worker {i} of --workers {n}"),
            })?;
            let stdin = child.stdin.take().expect("piped");
            let stdout = BufReader::new(child.stdout.take().expect("piped"));
            pool.workers.push(Worker {
                child,
                stdin: Some(stdin),
                stdout,
            });
        }
        Ok(pool)
    }

    /// Plays the step in `dir` on the workers (started first if they are not running) and
    /// waits for every one; the step ended well when every worker played its share, else the
    /// message names each worker that ended and how, and the workers are stopped (the next
    /// step starts them afresh).
    fn play_step(&self, progress: bool, dir: &Path) -> Result<String, StepError> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.is_none() {
            *running = Some(self.start(progress)?);
        }
        let pool = running.as_mut().expect("started above");
        let n = pool.workers.len();
        // The folder, ended by a NUL (a path holds none; it may hold a line break).
        let mut message = dir.as_os_str().as_encoded_bytes().to_vec();
        message.push(0);
        let sent: Vec<bool> = pool
            .workers
            .iter_mut()
            .map(|w| {
                w.stdin
                    .as_mut()
                    .is_some_and(|s| s.write_all(&message).and_then(|()| s.flush()).is_ok())
            })
            .collect();
        let mut failed = Vec::new();
        for (i, (w, sent)) in pool.workers.iter_mut().zip(sent).enumerate() {
            if sent && answered(&mut w.stdout) {
                continue;
            }
            // The worker ended (or closed its output): its status says how.
            w.stdin = None;
            failed.push(match w.child.wait() {
                Ok(status) => format!("worker {i}/{n} ended with {status}"),
                Err(e) => format!(
                    "worker {i}/{n} (`{}`) could not be waited for: {e}",
                    self.relaunch.display()
                ),
            });
        }
        if failed.is_empty() {
            return Ok("the step succeeded".into());
        }
        *running = None;
        Ok(failed.join(", "))
    }
}

/// Whether a worker answered that it played its share (false: its output ended first).
fn answered(stdout: &mut BufReader<ChildStdout>) -> bool {
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdout.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return false,
            Ok(_) if line.trim_ascii_end() == SERVE_DONE.as_bytes() => return true,
            Ok(_) => {}
        }
    }
}

/// How to start this command line again in another process: the `evomcts` binary, or the
/// Python that runs `python -m evomcts` (where OpenSpiel's games are playable). Studies run
/// their games in local worker processes through it, and a portfolio its studies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relaunch {
    /// The program: the binary, or the Python interpreter.
    pub program: PathBuf,
    /// The arguments before the subcommand (`-m evomcts` for Python; none for the binary).
    pub prefix: Vec<std::ffi::OsString>,
}

impl Relaunch {
    /// The binary at `bin`.
    pub fn binary(bin: PathBuf) -> Relaunch {
        Relaunch {
            program: bin,
            prefix: Vec::new(),
        }
    }

    /// `python -m evomcts` with the interpreter at `python`.
    pub fn python(python: PathBuf) -> Relaunch {
        Relaunch {
            program: python,
            prefix: vec!["-m".into(), "evomcts".into()],
        }
    }

    /// A command for `subcommand` (its arguments to be added by the caller).
    pub fn command(&self, subcommand: &str) -> std::process::Command {
        let mut command = std::process::Command::new(&self.program);
        command.args(&self.prefix).arg(subcommand);
        command
    }

    /// The command as a person would type it, for messages.
    pub fn display(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.prefix.iter().map(|a| a.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
