//! `evomcts step-worker`: one task of a job step that a driver (`evolve --srun`, `validate …
//! --srun`) started; plays its share of the step's games (see `slurm::steps`).

use anyhow::Result;
use clap::Args;
use evomcts::evolve::work::run_worker;
use evomcts::slurm::launch::SrunOptions;
use evomcts::slurm::steps::WorkerSlot;
use std::path::PathBuf;

#[derive(Args)]
pub struct StepWorkerArgs {
    /// The step's folder (RUN/steps/<hash>), holding work.json and todo.json.
    dir: PathBuf,
    /// Which worker this is, I/K [default: SLURM_PROCID/SLURM_NTASKS, or 0/1 outside Slurm].
    #[arg(long, value_name = "I/K")]
    worker: Option<String>,
    /// Worker threads [default: SLURM_CPUS_PER_TASK, or all cores; one for an OpenSpiel game].
    /// Results do not depend on it.
    #[arg(long, value_parser = super::run_args::parse_threads)]
    threads: Option<usize>,
}

pub fn run(args: StepWorkerArgs) -> Result<()> {
    let slot = match &args.worker {
        Some(text) => {
            let (i, k) = text
                .split_once('/')
                .ok_or_else(|| anyhow::anyhow!("--worker: expected I/K, got {text:?}"))?;
            let slot = WorkerSlot {
                index: i.trim().parse()?,
                count: k.trim().parse()?,
            };
            slot.check().map_err(anyhow::Error::msg)?;
            slot
        }
        None => WorkerSlot::from_env().map_err(anyhow::Error::msg)?,
    };
    // Unless told, the allocation's CPUs per task, or else the default of the step's game.
    let threads = args.threads.or_else(|| {
        std::env::var("SLURM_CPUS_PER_TASK")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .filter(|&t| evomcts::bounds::check_threads(Some(t)).is_ok())
    });
    let done = run_worker(&args.dir, slot, threads)?;
    evomcts::note!(
        "worker {}/{}: {} tasks in {:.1} s",
        slot.index,
        slot.count,
        done.tasks,
        done.seconds
    );
    Ok(())
}

/// The `--srun` options of a driver: this binary, the steps named after the run, a line per
/// step on stderr unless `--quiet`.
pub fn srun_options(on: bool, name: &str, progress: bool) -> Result<Option<SrunOptions>> {
    if !on {
        return Ok(None);
    }
    Ok(Some(SrunOptions {
        bin: super::command::this_binary("--srun")?,
        name: name.to_string(),
        progress,
    }))
}
