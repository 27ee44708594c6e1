//! `evomcts slurm`: writes a ready Slurm job array for a league, the driver job of an
//! evolution or validation whose games are job steps over one allocation, for `replicate`, a
//! job array per league and the report's job after all of them, or, for a portfolio, its
//! study and matrix arrays and the job writing its outputs (see `slurm::scripts` and
//! `slurm::portfolio`, which write and check the scripts); this file only reads the arguments.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::evolve::EvolveSpec;
use evomcts::league::{schedule, LeagueSpec};
use evomcts::portfolio::PortfolioSpec;
use evomcts::runfs::SpecFile;
use evomcts::slurm::portfolio::write_portfolio;
use evomcts::slurm::scripts::{
    submit_hint, write_allocation, write_league_set, write_slurm, FinalJob, SlurmOptions,
};
use evomcts::validation::sweep::SweepSpec;
use evomcts::validation::ValidateSpec;
use evomcts::{escape, runfs};
use std::path::{Path, PathBuf};

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
    /// `evomcts replicate` (no SPEC): a job array per paper preset and master seed, then a
    /// job writing the report (`replicate --report-only --shards K`) once all succeeded.
    Replicate,
    /// A portfolio (`evomcts portfolio`; no --tasks): a job array with a task per game for
    /// the studies, then one for the matrix's columns, then a job writing the outputs.
    Portfolio,
}

#[derive(Args)]
pub struct SlurmArgs {
    /// The spec (RON): a league's, or with --kind an evolution's, a validation's or a
    /// portfolio's (none with --kind replicate).
    spec: Option<PathBuf>,
    /// Array tasks each playing one slice of a league's games (of every league, with --kind
    /// replicate); for evolve, validate and sweep, the allocation's tasks, over which every
    /// step's games are spread; not with --kind portfolio (a task per game).
    #[arg(long)]
    tasks: Option<usize>,
    /// What the spec describes.
    #[arg(long, value_enum, default_value_t = Kind::League)]
    kind: Kind,
    /// Run folder; a league's slices go to OUT/shard-I-of-K, the merged tables to OUT
    /// [default: runs/<spec file name>; populations/<name> for an evolution,
    /// runs/validate/<name> for a validation or sweep, runs/replication for a replication,
    /// runs/portfolio/<name> for a portfolio].
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
    /// [default: this binary]. For a portfolio with OpenSpiel's games, a program that runs
    /// the command line with them (e.g. a script running `python -m evomcts "$@"`).
    #[arg(long)]
    bin: Option<PathBuf>,
    /// With --kind evolve: the driver runs `evolve --runs K` (K independent runs into
    /// OUT/run-1 … OUT/run-K, then their tournament).
    #[arg(long, value_name = "K")]
    runs: Option<usize>,
    /// With --kind evolve and --runs: `evolve --tournament-samples N`.
    #[arg(long, value_name = "N", requires = "runs")]
    tournament_samples: Option<usize>,
    #[command(flatten)]
    replicate: ReplicateFlags,
}

/// `replicate`'s own flags, for --kind replicate only; the report's job passes them on.
#[derive(Args)]
#[command(next_help_heading = "With --kind replicate (as for `evomcts replicate`)")]
struct ReplicateFlags {
    /// Master seeds per preset [default: 5].
    #[arg(long)]
    seeds: Option<u64>,
    /// Folder of the presets and of published.ron [default: runs/paper].
    #[arg(long)]
    presets: Option<PathBuf>,
    /// The report written [default: docs/replication.md].
    #[arg(long)]
    report: Option<PathBuf>,
    /// Also the finalists league, once.
    #[arg(long)]
    finalists: bool,
    /// The Star decision comparison's spacing (0 skips it) [default: 40].
    #[arg(long)]
    star_every: Option<usize>,
    /// A sentence under the report's heading.
    #[arg(long)]
    note: Option<String>,
}

impl ReplicateFlags {
    /// The first flag given, if any.
    fn given(&self) -> Option<&'static str> {
        [
            (self.seeds.is_some(), "--seeds"),
            (self.presets.is_some(), "--presets"),
            (self.report.is_some(), "--report"),
            (self.finalists, "--finalists"),
            (self.star_every.is_some(), "--star-every"),
            (self.note.is_some(), "--note"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }
}

pub fn run(args: SlurmArgs) -> Result<()> {
    if args.kind == Kind::Portfolio {
        if args.tasks.is_some() {
            bail!("--kind portfolio takes no --tasks: each job array has one task per game");
        }
    } else if args.tasks.is_none() {
        bail!("--tasks is needed with --kind {}", kind_name(args.kind));
    }
    if args.kind == Kind::Replicate {
        return replication(args);
    }
    if let Some(flag) = args.replicate.given() {
        bail!("{flag} is a flag of --kind replicate only");
    }
    let Some(spec_path) = args.spec.clone() else {
        bail!("a SPEC file is needed with --kind {}", kind_name(args.kind));
    };
    if args.runs.is_some() && args.kind != Kind::Evolve {
        bail!("--runs is a flag of --kind evolve only");
    }
    if args.kind == Kind::Portfolio {
        return portfolio(args, &spec_path);
    }
    if args.kind != Kind::League {
        return allocation(args, &spec_path);
    }
    let spec = LeagueSpec::from_file(&spec_path)?;
    check_playable(&spec.game, &spec_path)?;
    let stem = runfs::spec_file_stem(&spec_path);
    let out = match args.out.clone() {
        Some(out) => out,
        None => runfs::default_folder("runs", &spec_path).map_err(anyhow::Error::msg)?,
    };
    check_out(&out, args.kind, false)?;
    let opts = options(args, out, stem)?;
    let dir = write_slurm(&spec, &opts)?;
    let games = schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
    let shown = escape::terminal(&dir.display().to_string());
    outln!("wrote {shown}/{{league.sbatch, merge.sbatch, submit.sh}}")?;
    outln!(
        "{games} games in {} tasks of {} CPUs each",
        opts.tasks,
        opts.cpus_per_task
    )?;
    out!("{}", submit_hint(&dir))?;
    Ok(())
}

impl Kind {
    /// The kind of run folder its jobs write (`runs`: `evolve --runs`).
    fn run_kind(self, runs: bool) -> runfs::RunKind {
        match self {
            Kind::League => runfs::RunKind::League,
            Kind::Evolve if runs => runfs::RunKind::EvolutionRuns,
            Kind::Evolve => runfs::RunKind::Evolution,
            Kind::Validate | Kind::Sweep => runfs::RunKind::Validation,
            Kind::Replicate => runfs::RunKind::Replication,
            Kind::Portfolio => runfs::RunKind::Portfolio,
        }
    }
}

/// Refuses an `--out` that holds another kind of run than the jobs would write, before any
/// script is written into it.
fn check_out(out: &Path, kind: Kind, runs: bool) -> Result<()> {
    let what = format!("slurm --kind {}", kind_name(kind));
    runfs::check_folder_kind(out, kind.run_kind(runs), &what)?;
    Ok(())
}

/// The flag's spelling of `kind`.
fn kind_name(kind: Kind) -> String {
    clap::ValueEnum::to_possible_value(&kind)
        .map_or_else(|| format!("{kind:?}"), |v| v.get_name().to_string())
}

/// The scripts' options from the flags, for the run folder `out`, jobs named after `job_name`.
fn options(args: SlurmArgs, out: PathBuf, job_name: String) -> Result<SlurmOptions> {
    let bin = match args.bin {
        Some(b) => b,
        None => super::command::this_binary("evomcts slurm without --bin")?,
    };
    Ok(SlurmOptions {
        tasks: args.tasks.unwrap_or(1),
        cpus_per_task: args.cpus_per_task,
        mem: args.mem,
        time: args.time,
        partition: args.partition,
        bin,
        out,
        job_name,
    })
}

/// That the jobs this program would write can play the spec's game: every job runs this
/// binary, which cannot play OpenSpiel's games, so such a spec is refused before anything is
/// written, naming `python -m evomcts`.
fn check_playable(game: &evomcts::arena::GameChoice, spec_path: &Path) -> Result<()> {
    game.check_playable_here().map_err(|why| {
        anyhow::anyhow!(
            "{}: game: the jobs `slurm` writes run this program, which cannot play the game: \
             {why}; OpenSpiel's games run on one machine",
            escape::path(spec_path)
        )
    })
}

/// The driver job of an evolution, validation or sweep.
fn allocation(args: SlurmArgs, spec_path: &Path) -> Result<()> {
    let (name, text, command, default): (String, String, Vec<String>, PathBuf) = match args.kind {
        Kind::Evolve => {
            let spec = EvolveSpec::from_file(spec_path)?;
            for games in spec.fitness.games() {
                check_playable(&games.game, spec_path)?;
            }
            let out = PathBuf::from("populations").join(&spec.name);
            let mut command = vec!["evolve".to_string()];
            if let Some(k) = args.runs {
                let max = evomcts::evolve::independent::MAX_RUNS;
                if k == 0 || k > max {
                    bail!("--runs must be between 1 and {max}, got {k}");
                }
                command.extend(["--runs".to_string(), k.to_string()]);
            }
            if let Some(n) = args.tournament_samples {
                command.extend(["--tournament-samples".to_string(), n.to_string()]);
            }
            (spec.name.clone(), spec.to_ron(), command, out)
        }
        Kind::Validate => {
            let spec = ValidateSpec::from_file(spec_path)?;
            check_playable(&spec.game, spec_path)?;
            let out = PathBuf::from("runs/validate").join(&spec.name);
            (
                spec.name.clone(),
                spec.to_ron(),
                vec!["validate".into(), "carcassonne".into()],
                out,
            )
        }
        Kind::Sweep => {
            let spec = SweepSpec::from_file(spec_path)?;
            check_playable(&spec.game, spec_path)?;
            let out = PathBuf::from("runs/validate").join(&spec.name);
            (
                spec.name.clone(),
                spec.to_ron(),
                vec!["validate".into(), "sweep".into()],
                out,
            )
        }
        Kind::League | Kind::Replicate | Kind::Portfolio => unreachable!("job arrays"),
    };
    let out = args.out.clone().unwrap_or(default);
    check_out(&out, args.kind, args.runs.is_some())?;
    let opts = options(args, out, name.clone())?;
    let what = format!("{} `{name}`", command.join(" "));
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    let dir = write_allocation(&opts, &text, &what, &words)?;
    let shown = escape::terminal(&dir.display().to_string());
    outln!("wrote {shown}/{{run.sbatch, submit.sh}}")?;
    outln!(
        "one driver; every step's games spread over {} tasks of {} CPUs each",
        opts.tasks,
        opts.cpus_per_task
    )?;
    outln!(
        "submit with:\n    bash {}\nfollow it with squeue --steps and {}",
        escape::shell(&dir.join("submit.sh").to_string_lossy()),
        escape::shell(&dir.with_file_name("steps-progress.txt").to_string_lossy())
    )?;
    Ok(())
}

/// A replication: every league's job array and the report's job after them.
fn replication(args: SlurmArgs) -> Result<()> {
    use super::replicate::{self as rep, replication_leagues};
    if args.spec.is_some() {
        bail!("--kind replicate takes no SPEC: it plays the presets of --presets");
    }
    let flags = &args.replicate;
    let seeds = flags.seeds.unwrap_or(rep::DEFAULT_SEEDS);
    super::check_count("--seeds", seeds, 1, rep::MAX_SEEDS)?;
    let out = args.out.clone().unwrap_or(PathBuf::from(rep::DEFAULT_OUT));
    check_out(&out, args.kind, false)?;
    let presets = flags.presets.clone().unwrap_or(rep::DEFAULT_PRESETS.into());
    let report = flags.report.clone().unwrap_or(rep::DEFAULT_REPORT.into());
    let star_every = flags.star_every.unwrap_or(rep::DEFAULT_STAR_EVERY);
    let leagues = replication_leagues(&presets, &out, seeds, flags.finalists)?;
    let mut report_args: Vec<String> = vec!["replicate".into(), "--report-only".into()];
    let text = |p: &Path| {
        p.to_str()
            .map(str::to_string)
            .ok_or_else(|| anyhow::anyhow!("{} is not UTF-8", escape::path(p)))
    };
    for (flag, value) in [
        ("--shards", args.tasks.unwrap_or(1).to_string()),
        ("--seeds", seeds.to_string()),
        ("--out", text(&out)?),
        ("--presets", text(&presets)?),
        ("--report", text(&report)?),
        ("--star-every", star_every.to_string()),
    ] {
        report_args.extend([flag.to_string(), value]);
    }
    if flags.finalists {
        report_args.push("--finalists".into());
    }
    if let Some(note) = &flags.note {
        report_args.extend(["--note".into(), note.clone()]);
    }
    report_args.push("--quiet".into());
    let final_job = FinalJob {
        name: "replicate-report".into(),
        what: format!(
            "The replication report {} from {} leagues",
            report.display(),
            leagues.len()
        ),
        args: report_args,
        cwd: std::env::current_dir()?,
    };
    let opts = options(args, out, "replicate".into())?;
    let sets: Vec<(LeagueSpec, SlurmOptions)> = leagues
        .into_iter()
        .map(|l| {
            let league = SlurmOptions {
                out: l.dir,
                job_name: format!("{}-seed-{}", l.preset, l.spec.seed),
                ..opts.clone()
            };
            (l.spec, league)
        })
        .collect();
    let games: usize = sets
        .iter()
        .map(|(s, _)| schedule(s.seed, s.controllers.len(), s.games_per_match).len())
        .sum();
    let dir = write_league_set(&sets, &final_job, &opts)?;
    outln!(
        "wrote a job array per league (<out>/<preset>/seed-<s>/slurm/league.sbatch) and {}",
        escape::terminal(&dir.join("replicate-report.sbatch").display().to_string())
    )?;
    outln!(
        "{} leagues, {games} games, each league in {} tasks of {} CPUs each; the report's job \
         gathers the slices and writes {}",
        sets.len(),
        opts.tasks,
        opts.cpus_per_task,
        escape::path(&report)
    )?;
    outln!(
        "submit with:\n    bash {}",
        escape::shell(&dir.join("submit.sh").to_string_lossy())
    )?;
    Ok(())
}

/// A portfolio: the study array, the matrix array and the outputs job. The jobs run `--bin`
/// or this binary, which cannot play OpenSpiel's games: a portfolio holding one is refused
/// unless `--bin` names a program that can (a wrapper around `python -m evomcts`).
fn portfolio(args: SlurmArgs, spec_path: &Path) -> Result<()> {
    let spec = PortfolioSpec::from_file(spec_path)?;
    if args.bin.is_none() {
        for (i, g) in spec.games.iter().enumerate() {
            if g.game.describe().open_spiel {
                bail!(
                    "{}: games[{i}].game: `{}` is OpenSpiel's, and the jobs `slurm` writes run \
                     this program, which cannot play it: name with --bin a program that runs \
                     the command line with OpenSpiel's games (e.g. a script running \
                     `python -m evomcts \"$@\"`), reachable from the compute nodes",
                    escape::path(spec_path),
                    escape::terminal(&g.label)
                );
            }
        }
    }
    let out = match args.out.clone() {
        Some(out) => out,
        None => PathBuf::from("runs/portfolio").join(&spec.name),
    };
    check_out(&out, args.kind, false)?;
    let opts = options(args, out, spec.name.clone())?;
    let dir = write_portfolio(&spec, &opts)?;
    let shown = escape::terminal(&dir.display().to_string());
    let matrix = if spec.matrix.games > 0 {
        "matrix.sbatch, "
    } else {
        ""
    };
    outln!("wrote {shown}/{{study.sbatch, {matrix}outputs.sbatch, submit.sh}}")?;
    outln!(
        "{} games: each job array has a task per game, of {} CPUs each",
        spec.games.len(),
        opts.cpus_per_task
    )?;
    if spec.general.is_some() {
        outln!(
            "the general formula is not a Slurm job yet: the outputs job's driver runs it on \
             its own {} CPUs",
            opts.cpus_per_task
        )?;
    }
    outln!(
        "submit with:\n    bash {}",
        escape::shell(&dir.join("submit.sh").to_string_lossy())
    )?;
    Ok(())
}
