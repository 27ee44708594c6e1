//! `evomcts slurm`: writes a ready Slurm job array for a league — K tasks, each playing one
//! slice of the games (`league --shard I/K`), and a merge job that runs after all of them
//! succeed (`table` over the slices' folders) — plus a script that submits both.

use anyhow::{bail, Context, Result};
use clap::Args;
use evomcts::league::{schedule, LeagueSpec};
use std::path::{Path, PathBuf};

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

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

pub fn run(args: SlurmArgs) -> Result<()> {
    let spec = LeagueSpec::from_file(&args.spec)?;
    let games = schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
    if args.tasks == 0 || args.tasks > games {
        bail!(
            "--tasks must be between 1 and the league's {games} games, found {}",
            args.tasks
        );
    }
    if args.cpus_per_task == 0 {
        bail!("--cpus-per-task must be at least 1");
    }
    let stem = args
        .spec
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "league".into());
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from("runs").join(&stem));
    std::fs::create_dir_all(out.join("slurm").join("logs"))
        .with_context(|| format!("creating {}", out.join("slurm").display()))?;
    let out = out.canonicalize()?;
    let dir = out.join("slurm");
    let bin = match args.bin {
        Some(b) => b,
        None => std::env::current_exe()?.canonicalize()?,
    };
    // The jobs read a frozen copy of the spec, so editing the original later cannot mix specs.
    let spec_copy = dir.join("spec.ron");
    std::fs::write(&spec_copy, spec.to_ron())?;
    let k = args.tasks;
    let partition = args
        .partition
        .map(|p| format!("#SBATCH --partition={p}\n"))
        .unwrap_or_default();
    let league = format!(
        "#!/bin/bash\n\
         # League `{name}`: {games} games in {k} slices, one per array task.\n\
         #SBATCH --job-name=evomcts-{stem}\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --mem={mem}\n\
         #SBATCH --time={time}\n\
         {partition}\
         #SBATCH --output={logs}/shard-%a.out\n\
         set -euo pipefail\n\
         # --resume: a requeued task continues its slice instead of starting again.\n\
         exec {bin} league {spec} --shard \"$SLURM_ARRAY_TASK_ID/{k}\" \\\n    \
         --out {out}/shard-\"$SLURM_ARRAY_TASK_ID\"-of-{k} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" --resume --quiet\n",
        name = spec.name,
        last = k - 1,
        cpus = args.cpus_per_task,
        mem = args.mem,
        time = args.time,
        logs = quote(&dir.join("logs")),
        bin = quote(&bin),
        spec = quote(&spec_copy),
        out = quote(&out),
    );
    let merge = format!(
        "#!/bin/bash\n\
         # Merges the {k} slices of league `{name}` into its tables; runs after every slice succeeded.\n\
         #SBATCH --job-name=evomcts-{stem}-merge\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --mem={mem}\n\
         #SBATCH --time=00:30:00\n\
         {partition}\
         #SBATCH --output={logs}/merge.out\n\
         set -euo pipefail\n\
         exec {bin} table {out}/shard-*-of-{k} --out {out}\n",
        name = spec.name,
        mem = args.mem,
        logs = quote(&dir.join("logs")),
        bin = quote(&bin),
        out = quote(&out),
    );
    let submit = format!(
        "#!/bin/bash\n\
         # Submits the league's job array and its merge job.\n\
         set -euo pipefail\n\
         cd {dir}\n\
         array=$(sbatch --parsable league.sbatch)\n\
         merge=$(sbatch --parsable --dependency=afterok:\"${{array%%;*}}\" --kill-on-invalid-dep=yes merge.sbatch)\n\
         echo \"array job $array, merge job $merge; tables will be in {out}\"\n",
        dir = quote(&dir),
        out = out.display(),
    );
    for (name, text) in [
        ("league.sbatch", league),
        ("merge.sbatch", merge),
        ("submit.sh", submit),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    println!(
        "wrote {}/{{league.sbatch, merge.sbatch, submit.sh}}",
        dir.display()
    );
    println!(
        "{games} games in {k} tasks of {} CPUs each",
        args.cpus_per_task
    );
    println!("submit with:\n    bash {}", dir.join("submit.sh").display());
    println!("or by hand:\n    sbatch --parsable {0}/league.sbatch   # prints the array job id\n    sbatch --dependency=afterok:<id> {0}/merge.sbatch", dir.display());
    Ok(())
}
