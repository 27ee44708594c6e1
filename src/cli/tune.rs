//! `evomcts tune`: tunes a controller's named constants (C_E, a formula's `{W1}` … `{Wk}`,
//! the prior's temperature, first-play urgency's constants) against an opponent on sweep
//! sequences by SPSA, re-estimates the recommendation on fresh ones and prints it, ready to
//! paste into a spec.

use anyhow::Result;
use clap::Args;
use evomcts::escape;
use evomcts::runfs::SpecFile;
use evomcts::tune::{run_tune, TuneOptions, TuneSpec, TUNED_RON};
use evomcts::validation::{p_text, summary_table};
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    /// The tuning spec (RON), e.g. runs/validate/features/tune-100.ron.
    spec: PathBuf,
    /// Folder of the run [default: runs/tune/<spec name>]. One process at a time works in a
    /// folder.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue an interrupted run in its folder.
    #[arg(long)]
    resume: bool,
    /// Worker threads [default: all cores; 1 for an OpenSpiel game]. Results do not depend on it.
    #[arg(long, value_parser = super::run_args::parse_threads)]
    threads: Option<usize>,
    /// Stop once N steps are written; continue later with --resume.
    #[arg(long, value_name = "N")]
    stop_after: Option<usize>,
    /// No progress on stderr (without it: a line at most every 10 s with the steps, games,
    /// rate and ETA, and the re-estimate's games).
    #[arg(long)]
    quiet: bool,
    /// Play each step's games (and the re-estimate's) as a Slurm job step over the
    /// allocation's tasks (run inside `sbatch`); the files are the same bytes as without it.
    #[arg(long)]
    srun: bool,
    /// Play every batch of games in N worker processes on this machine (`evomcts step-worker`,
    /// or `python -m evomcts step-worker` from Python, where OpenSpiel's games play), each on
    /// --threads threads [default: the game's default in each: all cores, one for an OpenSpiel
    /// game]: OpenSpiel's games, one thread a process, then use N cores. The files are the
    /// same bytes as without it. Not with --srun.
    #[arg(long, value_name = "N", value_parser = super::run_args::parse_workers, conflicts_with = "srun")]
    workers: Option<usize>,
}

pub fn run(args: TuneArgs) -> Result<()> {
    let spec = TuneSpec::from_file(&args.spec)?;
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from("runs/tune").join(&spec.name));
    evomcts::note!(
        "tune `{}`: {} parameters, {} steps of {} games, then {} fresh sequences -> {}",
        escape::terminal(&spec.name),
        spec.parameters.len(),
        spec.steps(),
        spec.games_per_step(),
        spec.reestimate_sequences,
        escape::path(&out)
    );
    let outcome = run_tune(
        &spec,
        &TuneOptions {
            out_dir: out.clone(),
            resume: args.resume,
            threads: args.threads,
            progress: !args.quiet,
            stop_after: args.stop_after,
            srun: super::step_worker::steps_options(
                args.srun,
                args.workers,
                args.threads,
                &spec.name,
                !args.quiet,
            )?,
        },
    )?;
    outln!(
        "step {} of {} ({} played now)",
        outcome.steps_done,
        outcome.steps,
        outcome.played_now
    )?;
    let Some(result) = &outcome.result else {
        outln!("continue with --resume")?;
        return Ok(());
    };
    for (i, p) in spec.parameters.iter().enumerate() {
        outln!(
            "{}: start {} -> tuned {}",
            p.name,
            escape::number(result.start[i]),
            escape::number(result.tuned[i])
        )?;
    }
    let r = &result.reestimate;
    out!("{}", summary_table(&r.summaries))?;
    outln!(
        "paired difference tuned - start: {:+.2} [{:+.2}, {:+.2}], Wilcoxon p = {} (n = {})",
        r.paired_mean,
        r.paired_low,
        r.paired_high,
        p_text(r.paired_p),
        r.paired_n
    )?;
    outln!("tuned controller: {}", escape::path(&out.join(TUNED_RON)))?;
    Ok(())
}
