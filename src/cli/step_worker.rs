//! `evomcts step-worker`: one task of a job step that a driver (`evolve`, `validate`, `tune`
//! or `study` with `--srun` or `--workers N`) started; plays its share of the step's games
//! (see `slurm::steps` and `slurm::launch`).

use anyhow::Result;
use clap::Args;
use evomcts::evolve::work::run_worker;
use evomcts::slurm::launch::SERVE_DONE;
use evomcts::slurm::steps::WorkerSlot;
use std::path::PathBuf;

#[derive(Args)]
#[command(
    mut_arg("threads", |a| a.help(
        "Worker threads [default: SLURM_CPUS_PER_TASK, or all cores; one for an OpenSpiel \
         game]. Results do not depend on it"
    )),
    mut_arg("quiet", |a| a.help(
        "No line on stderr when the worker's share is played (errors are still printed)"
    ))
)]
pub struct StepWorkerArgs {
    /// The step's folder (RUN/steps/<hash>), holding work.json and todo.json.
    #[arg(required_unless_present = "serve", conflicts_with = "serve")]
    dir: Option<PathBuf>,
    /// Play step after step: each step's folder is read from standard input (ended by a NUL
    /// byte), and a line `evomcts step-worker: done` is written on standard output once this
    /// worker's share is played; ends at the end of its input, or with status 2 at the first
    /// error. How `--workers N` runs its workers.
    #[arg(long)]
    serve: bool,
    /// Which worker this is, I/K [default: SLURM_PROCID/SLURM_NTASKS, or 0/1 outside Slurm].
    #[arg(long, value_name = "I/K")]
    worker: Option<String>,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
    /// The process id of the driver that started this worker (`--workers N`): the worker stops
    /// (status 2) as soon as its parent is another process, i.e. once the driver was killed.
    #[arg(long, value_name = "PID")]
    driver: Option<u32>,
    #[command(flatten)]
    quiet: super::run_args::QuietArg,
}

pub fn run(args: StepWorkerArgs) -> Result<()> {
    if let Some(pid) = args.driver {
        watch_driver(pid)?;
    }
    let slot = match &args.worker {
        Some(text) => {
            let (i, k) = text
                .split_once('/')
                .ok_or_else(|| anyhow::anyhow!("--worker: expected I/K, got {text:?}"))?;
            let number = |part: &str| {
                part.trim().parse::<usize>().map_err(|_| {
                    anyhow::anyhow!("--worker: expected I/K of whole numbers, got {text:?}")
                })
            };
            let slot = WorkerSlot {
                index: number(i)?,
                count: number(k)?,
            };
            slot.check().map_err(|m| anyhow::anyhow!("--worker: {m}"))?;
            slot
        }
        None => WorkerSlot::from_env().map_err(anyhow::Error::msg)?,
    };
    // Unless told, the allocation's CPUs per task, or else the default of the step's game.
    let threads = args.threads.threads.or_else(|| {
        std::env::var("SLURM_CPUS_PER_TASK")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .filter(|&t| evomcts::bounds::check_threads(Some(t)).is_ok())
    });
    let play = |dir: &std::path::Path| -> Result<()> {
        let done = run_worker(dir, slot, threads)?;
        if args.quiet.progress() {
            evomcts::note!(
                "worker {}/{}: {} tasks in {:.1} s",
                slot.index,
                slot.count,
                done.tasks,
                done.seconds
            );
        }
        Ok(())
    };
    let Some(dir) = &args.dir else {
        return serve(&play);
    };
    play(dir)
}

/// `--serve`: the step folders on standard input, each played and answered with
/// [`SERVE_DONE`], until the input ends.
fn serve(play: &dyn Fn(&std::path::Path) -> Result<()>) -> Result<()> {
    use std::io::BufRead;
    for item in std::io::stdin().lock().split(0) {
        let bytes = item.map_err(|e| anyhow::anyhow!("--serve: reading standard input: {e}"))?;
        play(&folder(bytes)?)?;
        outln!("{SERVE_DONE}")?;
    }
    Ok(())
}

/// A step folder as the driver sent it (its path's bytes).
#[cfg(unix)]
fn folder(bytes: Vec<u8>) -> Result<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn folder(bytes: Vec<u8>) -> Result<PathBuf> {
    String::from_utf8(bytes)
        .map(PathBuf::from)
        .map_err(|e| anyhow::anyhow!("--serve: a step folder that is not UTF-8: {e}"))
}

/// How often a local worker looks whether its driver is still its parent.
const DRIVER_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// Refuses to start unless `driver` is this process's parent, then watches it from a thread of
/// its own and ends the process (status 2) once the parent is another one: a killed driver
/// (`kill -9` included) leaves no worker writing into a folder a resumed driver uses. Without
/// `PR_SET_PDEATHSIG`, which needs unsafe code; the worker may finish the record it is
/// writing during the poll's tenth of a second (docs/slurm.md, "Local worker processes").
#[cfg(unix)]
fn watch_driver(driver: u32) -> Result<()> {
    use std::os::unix::process::parent_id;
    if parent_id() != driver {
        anyhow::bail!(
            "--driver {driver}: this worker's parent is process {}, not the driver (it has ended); nothing played",
            parent_id()
        );
    }
    std::thread::spawn(move || loop {
        std::thread::sleep(DRIVER_POLL);
        if parent_id() != driver {
            evomcts::note!("error: step-worker: the driver (process {driver}) has ended; stopping");
            std::process::exit(2);
        }
    });
    Ok(())
}

#[cfg(not(unix))]
fn watch_driver(_driver: u32) -> Result<()> {
    Ok(())
}
