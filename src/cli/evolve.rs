//! `evomcts evolve`: runs or resumes an evolution of one reusable selection formula and
//! prints the champion, ready to paste into a league spec.

use anyhow::Result;
use clap::Args;
use evomcts::escape;
use evomcts::evolve::{run_evolution, EvolveSpec, RunOptions};
use std::path::PathBuf;

#[derive(Args)]
pub struct EvolveArgs {
    /// The evolution spec (RON), e.g. runs/evolve/bandit.ron.
    spec: PathBuf,
    #[command(flatten)]
    run: super::run_args::RunFolderArgs,
    /// Stop once generation N is written (generation 0 is the initial population); continue
    /// later with --resume.
    #[arg(long, value_name = "N")]
    stop_after: Option<usize>,
    /// No progress on stderr. Without it, a line per generation (best and mean fitness, the
    /// champion, the run's ETA) and, at most every 10 s within a generation, the games (or
    /// bandit runs) evaluated of its total with the generation's and the run's ETA.
    #[arg(long)]
    quiet: bool,
    /// Play every batch of games as a Slurm job step over the allocation's tasks (run inside
    /// `sbatch`; `evomcts slurm SPEC --kind evolve` writes the script); the run folder must be
    /// on a file system the tasks share. The files are the same bytes as without it.
    #[arg(long)]
    srun: bool,
}

pub fn run(args: EvolveArgs) -> Result<()> {
    let spec = EvolveSpec::from_file(&args.spec)?;
    let out = args
        .run
        .out
        .unwrap_or_else(|| PathBuf::from("populations").join(&spec.name));
    evomcts::note!(
        "evolve `{}`: ({}{}{})-ES, {} generations, {} samples per evaluation -> {}",
        escape::terminal(&spec.name),
        spec.strategy.mu,
        if spec.strategy.plus { " + " } else { ", " },
        spec.strategy.lambda,
        spec.strategy.generations,
        spec.noise.samples,
        escape::path(&out)
    );
    let outcome = run_evolution(
        &spec,
        &RunOptions {
            out_dir: out.clone(),
            resume: args.run.resume,
            threads: args.run.threads,
            progress: !args.quiet,
            stop_after: args.stop_after,
            srun: super::step_worker::srun_options(args.srun, &spec.name, !args.quiet)?,
        },
    )?;
    let last = &outcome.last;
    if let Some(g) = outcome.resumed_from {
        evomcts::note!("resumed after generation {g}");
    }
    outln!(
        "generation {} of {}; {} fitness samples spent",
        last.generation,
        spec.strategy.generations,
        last.samples_spent
    )?;
    outln!(
        "reference #{} {}: {}",
        last.reference.id,
        last.reference.fitness,
        last.reference.formula
    )?;
    outln!(
        "champion  #{} {}: {}",
        last.champion.id,
        last.champion.fitness,
        last.champion.formula
    )?;
    if let Some((rows, crowned)) = &outcome.reestimated {
        outln!(
            "re-estimate on fresh samples ({}):",
            out.join(evomcts::evolve::reestimate::REESTIMATE_CSV)
                .display()
        )?;
        for (i, row) in rows.iter().enumerate() {
            outln!(
                "  {} #{} evolution {} -> fresh {}: {}",
                if i == *crowned { "*" } else { " " },
                row.member.id,
                row.member.fitness,
                row.fresh,
                row.member.formula
            )?;
        }
        let crowned = &rows[*crowned].member;
        outln!(
            "champion by the re-estimate: #{}: {}",
            crowned.id,
            crowned.formula
        )?;
    }
    outln!(
        "use it in a league: Mcts(selection: FormulaFile({:?}))",
        out.join("champion.txt").display().to_string()
    )?;
    Ok(())
}
