//! `evomcts slurm`: writes a ready Slurm job array for a league, or the driver job of an
//! evolution or validation whose games are job steps over one allocation (see `league::slurm`,
//! which writes and checks the scripts); this file only reads the arguments.

use anyhow::Result;
use clap::Args;
use evomcts::evolve::sweep::SweepSpec;
use evomcts::evolve::validate::ValidateSpec;
use evomcts::evolve::EvolveSpec;
use evomcts::league::slurm::{submit_hint, write_allocation, write_slurm, SlurmOptions};
use evomcts::league::{schedule, LeagueSpec};
use evomcts::runfs::SpecFile;
use evomcts::{escape, runfs};
use std::path::PathBuf;

/// What the spec is a spec of.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
enum Kind {
    /// A job array of league slices and a merge job.
    League,
    /// One driver job (`evolve --srun`) whose racing batches are job steps.
    Evolve,
    /// One driver job (`validate carcassonne --srun`).
    Validate,
    /// One driver job (`validate sweep --srun`).
    Sweep,
}

#[derive(Args)]
pub struct SlurmArgs {
    /// The spec (RON): a league's, or with --kind an evolution's or a validation's.
    spec: PathBuf,
    /// Array tasks each playing one slice of a league's games; for the other kinds, the
    /// allocation's tasks, over which every step's games are spread.
    #[arg(long)]
    tasks: usize,
    /// What the spec describes.
    #[arg(long, value_enum, default_value_t = Kind::League)]
    kind: Kind,
    /// Run folder; a league's slices go to OUT/shard-I-of-K, the merged tables to OUT
    /// [default: runs/<spec file name>; populations/<name> for an evolution,
    /// runs/validate/<name> for a validation or sweep].
    #[arg(long)]
    out: Option<PathBuf>,
    /// CPUs per task; each task plays that many games at once.
    #[arg(long, default_value_t = 2)]
    cpus_per_task: usize,
    /// Memory per task (and for the merge job); for the driver job of the other kinds, per node.
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
    if args.kind != Kind::League {
        return allocation(args);
    }
    let spec = LeagueSpec::from_file(&args.spec)?;
    let stem = runfs::spec_file_stem(&args.spec);
    let out = match args.out.clone() {
        Some(out) => out,
        None => runfs::default_folder("runs", &args.spec).map_err(anyhow::Error::msg)?,
    };
    let opts = options(args, out, stem)?;
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

/// The scripts' options from the flags, for the run folder `out`, jobs named after `job_name`.
fn options(args: SlurmArgs, out: PathBuf, job_name: String) -> Result<SlurmOptions> {
    let bin = match args.bin {
        Some(b) => b,
        None => std::env::current_exe()?.canonicalize()?,
    };
    Ok(SlurmOptions {
        tasks: args.tasks,
        cpus_per_task: args.cpus_per_task,
        mem: args.mem,
        time: args.time,
        partition: args.partition,
        bin,
        out,
        job_name,
    })
}

/// The driver job of an evolution, validation or sweep.
fn allocation(args: SlurmArgs) -> Result<()> {
    let (name, text, command, default): (String, String, &[&str], PathBuf) = match args.kind {
        Kind::Evolve => {
            let spec = EvolveSpec::from_file(&args.spec)?;
            let out = PathBuf::from("populations").join(&spec.name);
            (spec.name.clone(), spec.to_ron(), &["evolve"], out)
        }
        Kind::Validate => {
            let spec = ValidateSpec::from_file(&args.spec)?;
            let out = PathBuf::from("runs/validate").join(&spec.name);
            (
                spec.name.clone(),
                spec.to_ron(),
                &["validate", "carcassonne"],
                out,
            )
        }
        Kind::Sweep => {
            let spec = SweepSpec::from_file(&args.spec)?;
            let out = PathBuf::from("runs/validate").join(&spec.name);
            (
                spec.name.clone(),
                spec.to_ron(),
                &["validate", "sweep"],
                out,
            )
        }
        Kind::League => unreachable!("leagues are job arrays"),
    };
    let out = args.out.clone().unwrap_or(default);
    let opts = options(args, out, name.clone())?;
    let what = format!("{} `{name}`", command.join(" "));
    let dir = write_allocation(&opts, &text, &what, command)?;
    let shown = escape::terminal(&dir.display().to_string());
    println!("wrote {shown}/{{run.sbatch, submit.sh}}");
    println!(
        "one driver; every step's games spread over {} tasks of {} CPUs each",
        opts.tasks, opts.cpus_per_task
    );
    println!(
        "submit with:\n    bash {}\nfollow it with squeue --steps and {}",
        escape::shell(&dir.join("submit.sh").to_string_lossy()),
        escape::shell(&dir.with_file_name("steps-progress.txt").to_string_lossy())
    );
    Ok(())
}
