//! The run arguments, each declared and checked here once: `--threads` and `--quiet`, which
//! most commands that play games take, and the folder (`--out`, `--resume`), `--stop-after`,
//! `--workers` and `--srun` of the commands that write a run folder. A command flattens the
//! smallest set it takes (`#[command(flatten)]`), so that none takes a flag it should not. The
//! help below is the wording most commands show; where a flag says something of its own in a
//! command (its default folder, what a step is, what progress it prints), that command words
//! the help anew with `#[command(mut_arg("flag", |a| a.help(..)))]`, and nothing else.
//!
//! | set | flags | commands |
//! | --- | --- | --- |
//! | [`OutArg`] | `--out` | `play` |
//! | [`ThreadsArg`] | `--threads` | `exact`, `check-fingerprints`, `validate bandit` |
//! | [`ThreadsArg`], [`QuietArg`] | `--threads`, `--quiet` | `pareto`, `replay`, `replicate`, `step-worker` |
//! | [`RunFolderArgs`], [`QuietArg`] | `--out`, `--resume`, `--threads`, `--quiet` | `league`, `portfolio` |
//! | [`LocalRunArgs`] | those, `--stop-after`, `--workers` | `study` |
//! | [`RunArgs`] | those, `--srun` | `evolve`, `tune`, `validate carcassonne\|sweep` |

use anyhow::Result;
use clap::Args;
use evomcts::frame::RunOptions;
use evomcts::slurm::launch::{Launcher, LocalWorkers, SrunOptions};
use std::path::PathBuf;

/// `--threads`.
#[derive(Args, Clone, Debug)]
pub struct ThreadsArg {
    /// Worker threads [default: all cores; 1 for an OpenSpiel game]. Results do not depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// `--quiet`.
#[derive(Args, Clone, Debug)]
pub struct QuietArg {
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
}

impl QuietArg {
    /// Whether the command shows its progress (no `--quiet`).
    pub fn progress(&self) -> bool {
        !self.quiet
    }
}

/// `--out`, the folder of a run.
#[derive(Args, Clone, Debug)]
pub struct OutArg {
    /// Folder of the run [default: runs/<spec file name> for a league, populations/<spec
    /// name> for an evolution]. One process at a time works in a folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The folder of a run and its threads: `--out`, `--resume`, `--threads`.
#[derive(Args, Clone, Debug)]
pub struct RunFolderArgs {
    #[command(flatten)]
    pub out: OutArg,
    /// Continue an interrupted run in its folder.
    #[arg(long)]
    pub resume: bool,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

impl RunFolderArgs {
    /// `--out`, or else `default`.
    pub fn out_or(&self, default: impl FnOnce() -> PathBuf) -> PathBuf {
        self.out.out.clone().unwrap_or_else(default)
    }
}

/// A run whose games are played in steps on this machine: its folder, `--stop-after`,
/// `--quiet` and `--workers`.
#[derive(Args, Clone, Debug)]
pub struct LocalRunArgs {
    #[command(flatten)]
    pub folder: RunFolderArgs,
    /// Stop once N steps are written; continue later with --resume.
    #[arg(long, value_name = "N")]
    pub stop_after: Option<usize>,
    #[command(flatten)]
    pub quiet: QuietArg,
    /// Play every batch of games in N worker processes on this machine (`evomcts step-worker`,
    /// or `python -m evomcts step-worker` from Python, where OpenSpiel's games play), each on
    /// --threads threads [default: the game's default in each: all cores, one for an OpenSpiel
    /// game]: OpenSpiel's games, one thread a process, then use N cores. The files are the
    /// same bytes as without it. Not with --srun.
    #[arg(long, value_name = "N", value_parser = parse_workers)]
    pub workers: Option<usize>,
}

impl LocalRunArgs {
    /// `--out`, or else `default`.
    pub fn out_or(&self, default: impl FnOnce() -> PathBuf) -> PathBuf {
        self.folder.out_or(default)
    }

    /// The options of the run of `name` in `out_dir`.
    pub fn options(&self, out_dir: PathBuf, name: &str) -> Result<RunOptions> {
        self.options_with(false, out_dir, name)
    }

    /// The options of the run of `name` in `out_dir`, its steps played over a Slurm
    /// allocation when `srun`.
    fn options_with(&self, srun: bool, out_dir: PathBuf, name: &str) -> Result<RunOptions> {
        let threads = self.folder.threads.threads;
        Ok(RunOptions {
            out_dir,
            resume: self.folder.resume,
            threads,
            progress: self.quiet.progress(),
            stop_after: self.stop_after,
            srun: steps_options(srun, self.workers, threads, name, self.quiet.progress())?,
        })
    }
}

/// Every run argument: a run whose games are played in steps on this machine
/// ([`LocalRunArgs`]) or over a Slurm allocation (`--srun`).
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub local: LocalRunArgs,
    /// Play every batch of games as a Slurm job step over the allocation's tasks (run inside
    /// `sbatch`; `evomcts slurm SPEC --kind evolve|validate|sweep` writes the script); the run
    /// folder must be on a file system the tasks share. The files are the same bytes as without
    /// it.
    #[arg(long, conflicts_with = "workers")]
    pub srun: bool,
}

impl RunArgs {
    /// `--out`, or else `default`.
    pub fn out_or(&self, default: impl FnOnce() -> PathBuf) -> PathBuf {
        self.local.out_or(default)
    }

    /// The options of the run of `name` in `out_dir`.
    pub fn options(&self, out_dir: PathBuf, name: &str) -> Result<RunOptions> {
        self.local.options_with(self.srun, out_dir, name)
    }
}

/// The options of a run for a library whose options hold [`RunOptions`]'s fields in a type of
/// their own (`StudyOptions`, `evolve::IndependentOptions`): `run_options!(OPTIONS => Type {
/// steps, field: value, … })` copies them from `OPTIONS`, names the field of the steps'
/// launcher (`RunOptions::srun`) `steps`, and sets the type's other fields.
macro_rules! run_options {
    ($options:expr => $ty:path { $steps:ident $(, $field:ident: $value:expr)* $(,)? }) => {{
        let options: evomcts::frame::RunOptions = $options;
        $ty {
            out_dir: options.out_dir,
            resume: options.resume,
            threads: options.threads,
            progress: options.progress,
            stop_after: options.stop_after,
            $steps: options.srun,
            $($field: $value,)*
        }
    }};
}
pub(crate) use run_options;

/// Where a driver's steps run: `--srun` (this binary over a Slurm allocation), `--workers N`
/// (N local processes of this command line, each on `threads` threads), or neither (`None`:
/// the run's own threads). Clap refuses the two flags together; a line per step on stderr
/// unless `--quiet`.
fn steps_options(
    srun: bool,
    workers: Option<usize>,
    threads: Option<usize>,
    name: &str,
    progress: bool,
) -> Result<Option<SrunOptions>> {
    let launcher = match (srun, workers) {
        (true, Some(_)) => anyhow::bail!("--srun and --workers cannot be used together"),
        (true, None) => Launcher::Srun {
            bin: super::command::this_binary("--srun")?,
        },
        (false, Some(workers)) => Launcher::Local(LocalWorkers::new(
            super::command::relaunch()?,
            workers,
            threads,
        )),
        (false, None) => return Ok(None),
    };
    Ok(Some(SrunOptions {
        launcher,
        name: name.to_string(),
        progress,
    }))
}

/// A `--threads` value: a whole number from 1 to `bounds::MAX_THREADS`.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number, got {text:?}"))?;
    evomcts::bounds::check_threads(Some(n))?;
    Ok(n)
}

/// A `--workers` value: a whole number from 1 to `bounds::MAX_THREADS`.
pub fn parse_workers(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a whole number, got {text:?}"))?;
    if n == 0 || n > evomcts::bounds::MAX_THREADS {
        return Err(format!(
            "expected a number of worker processes from 1 to {}, got {n}",
            evomcts::bounds::MAX_THREADS
        ));
    }
    Ok(n)
}
