//! `evomcts portfolio`: many games' studies, each its own process, then the dataset
//! (`portfolio.csv`), the generalisation matrix (`matrix.csv`), what the champions share
//! (`shared.csv`, `correlations.csv`) and `portfolio.md`; prints the dataset's table.

use anyhow::Result;
use clap::Args;
use evomcts::escape;
use evomcts::portfolio::{
    run_job, run_portfolio, Part, PortfolioOptions, PortfolioSpec, PORTFOLIO_MD,
};
use std::path::PathBuf;

#[derive(Args)]
#[command(
    mut_arg("out", |a| a.help(
        "Folder of the portfolio [default: runs/portfolio/<spec name>]; each game's study is in \
         studies/LABEL, the matrix's cells in matrix/. One driver at a time works in a folder"
    )),
    mut_arg("resume", |a| a.help(
        "Continue an interrupted portfolio in its folder (the same bytes as one never stopped)"
    )),
    mut_arg("threads", |a| a.help(
        "Worker threads of each job [default: the game's default, the cores divided among the \
         jobs for a native game; 1 for an OpenSpiel game]. Results do not depend on it"
    ))
)]
pub struct PortfolioArgs {
    /// The portfolio spec (RON), e.g. runs/portfolio/portfolio12.ron.
    spec: PathBuf,
    #[command(flatten)]
    run: super::run_args::RunFolderArgs,
    /// Jobs (processes) at once: each game's study, then each game's column of the matrix
    /// [default: the cores].
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Run one job in this process, the one the driver starts: the game labelled LABEL (with
    /// --part). Not needed by hand, except to run a job elsewhere (a Slurm job per game).
    #[arg(long, value_name = "LABEL")]
    only: Option<String>,
    /// With --only: `study` (the game's properties and study) or `matrix` (its column of the
    /// matrix, once every study is finished); alone, `general` (the general formula, once every
    /// study is finished).
    #[arg(long, value_name = "PART")]
    part: Option<String>,
    #[command(flatten)]
    quiet: super::run_args::QuietArg,
    /// With --only: end when stdin closes (the driver starts its jobs so, holding their stdin
    /// open, so a killed driver leaves no job behind).
    #[arg(long, hide = true)]
    exit_with_driver: bool,
}

pub fn run(args: PortfolioArgs) -> Result<()> {
    let spec = PortfolioSpec::from_file(&args.spec)?;
    let out = args
        .run
        .out_or(|| PathBuf::from("runs/portfolio").join(&spec.name));
    if args.only.is_some() || args.part.is_some() {
        if args.exit_with_driver {
            exit_when_stdin_closes();
        }
        let part_name = args.part.as_deref().unwrap_or("study");
        let part = Part::from_name(part_name).ok_or_else(|| {
            anyhow::anyhow!("--part: expected `study`, `matrix` or `general`, got {part_name:?}")
        })?;
        let label = match (part, &args.only) {
            (Part::General, None) => evomcts::portfolio::GENERAL_LABEL.to_string(),
            (Part::General, Some(_)) => anyhow::bail!("--part general takes no --only"),
            (_, Some(label)) => label.clone(),
            (_, None) => anyhow::bail!("--part {part_name} needs --only LABEL"),
        };
        run_job(
            &spec,
            &out,
            &label,
            part,
            args.run.threads.threads,
            args.quiet.progress(),
        )?;
        return Ok(());
    }
    let jobs = match args.jobs {
        Some(j) => {
            super::check_count("--jobs", j as u64, 1, 1024)?;
            j
        }
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    evomcts::note!(
        "portfolio `{}`: {} games, budgets {:?}, {jobs} jobs at a time -> {}",
        escape::terminal(&spec.name),
        spec.games.len(),
        spec.budgets(),
        escape::path(&out)
    );
    let outcome = run_portfolio(
        &spec,
        &PortfolioOptions {
            out_dir: out.clone(),
            resume: args.run.resume,
            jobs,
            threads: args.run.threads.threads,
            progress: args.quiet.progress(),
            relaunch: super::command::relaunch()?,
            spec_file: args.spec.clone(),
        },
    )?;
    outln!(
        "{} of {} studies and {} matrix columns finished; {}",
        outcome.studies_done,
        outcome.games,
        outcome.columns_done,
        escape::path(&out.join(PORTFOLIO_MD))
    )?;
    Ok(())
}

/// Ends the process once stdin reaches its end (the driver holding it open has ended). The
/// job's files are each written whole, so ending at any moment is as safe as kill -9, which
/// a resumed portfolio already survives.
fn exit_when_stdin_closes() {
    std::thread::spawn(|| {
        let mut sink = [0u8; 64];
        let mut stdin = std::io::stdin();
        loop {
            match std::io::Read::read(&mut stdin, &mut sink) {
                Ok(0) | Err(_) => std::process::exit(3),
                Ok(_) => {}
            }
        }
    });
}
