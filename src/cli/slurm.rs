//! `evomcts slurm`: writes a ready Slurm job array for a league (see `league::slurm`, which
//! writes and checks the scripts); this file only reads the arguments.

use anyhow::Result;
use clap::Args;
use evomcts::league::slurm::{submit_hint, write_slurm, SlurmOptions};
use evomcts::league::{schedule, LeagueSpec};
use evomcts::{escape, runfs};
use std::path::PathBuf;

#[derive(Args)]
pub struct SlurmArgs {
    /// The league spec (RON).
    spec: PathBuf,
    /// Array tasks, each playing one slice of the games.
    #[arg(long)]
    tasks: usize,
    /// Run folder; the slices go to OUT/shard-I-of-K, the merged tables to OUT
    /// [default: runs/<spec file name>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// CPUs per task; each task plays that many games at once.
    #[arg(long, default_value_t = 2)]
    cpus_per_task: usize,
    /// Memory per task (and for the merge job).
    #[arg(long, default_value = "2G")]
    mem: String,
    /// Wall-time limit per task (Slurm's --time).
    #[arg(long, default_value = "04:00:00")]
    time: String,
    /// Partition to submit to [default: the cluster's default].
    #[arg(long)]
    partition: Option<String>,
    /// The evomcts binary the jobs run; it must be reachable from the compute nodes
    /// [default: this binary].
    #[arg(long)]
    bin: Option<PathBuf>,
}

pub fn run(args: SlurmArgs) -> Result<()> {
    let spec = LeagueSpec::from_file(&args.spec)?;
    let stem = runfs::spec_file_stem(&args.spec);
    let out = match args.out {
        Some(out) => out,
        None => runfs::default_folder("runs", &args.spec).map_err(anyhow::Error::msg)?,
    };
    let bin = match args.bin {
        Some(b) => b,
        None => std::env::current_exe()?.canonicalize()?,
    };
    let opts = SlurmOptions {
        tasks: args.tasks,
        cpus_per_task: args.cpus_per_task,
        mem: args.mem,
        time: args.time,
        partition: args.partition,
        bin,
        out,
        job_name: stem,
    };
    let dir = write_slurm(&spec, &opts)?;
    let games = schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
    let shown = escape::terminal(&dir.display().to_string());
    println!("wrote {shown}/{{league.sbatch, merge.sbatch, submit.sh}}");
    println!(
        "{games} games in {} tasks of {} CPUs each",
        opts.tasks, opts.cpus_per_task
    );
    print!("{}", submit_hint(&dir));
    Ok(())
}
