//! `evomcts league`: runs or resumes a league and prints its tables.

use anyhow::Result;
use clap::Args;
use evomcts::league::{report, run_league_with_tables, schedule, LeagueSpec, RunOptions, Shard};
use evomcts::{escape, runfs};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// The league the README's main command runs when no spec is given.
pub const BUILT_IN_QUICK: &str = include_str!("../../runs/quick.ron");

#[derive(Args)]
#[command(mut_arg("quiet", |a| a.help(
    "No progress bar and no standings on stderr while the games run. Without it, the top of \
     the standings is printed every tenth of the games (at least once a minute). Either way \
     the run folder's standings.live.txt holds the standings so far, rewritten every tenth of \
     the games and at least every 10 s (`watch cat RUN/standings.live.txt`)"
)))]
pub struct LeagueArgs {
    /// The league spec (RON). Without it, the built-in quick league (runs/quick.ron).
    spec: Option<PathBuf>,
    #[command(flatten)]
    run: super::run_args::RunFolderArgs,
    #[command(flatten)]
    quiet: super::run_args::QuietArg,
    /// Play only slice I of K disjoint slices of the games (0 <= I < K), e.g. one task of a
    /// Slurm job array; merge the slices' folders with `evomcts table`.
    #[arg(long, value_parser = Shard::parse)]
    shard: Option<Shard>,
}

pub fn run(args: LeagueArgs) -> Result<()> {
    let (spec, spec_path) = match &args.spec {
        Some(path) => (LeagueSpec::from_file(path)?, path.clone()),
        None => (
            LeagueSpec::from_ron(BUILT_IN_QUICK, "runs/quick.ron (built in)")?,
            PathBuf::from("quick.ron"),
        ),
    };
    let out = match args.run.out.out {
        Some(out) => out,
        None => {
            let folder = runfs::default_folder("runs", &spec_path).map_err(anyhow::Error::msg)?;
            match args.shard {
                Some(s) => folder.join(format!("shard-{}-of-{}", s.index, s.count)),
                None => folder,
            }
        }
    };
    let mut jobs = schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    if let Some(shard) = args.shard {
        jobs = shard.select(&jobs);
    }
    let total = jobs.len();
    let opts = RunOptions {
        out_dir: out.clone(),
        resume: args.run.resume,
        threads: args.run.threads.threads,
        progress: args.quiet.progress(),
        max_games: None,
        shard: args.shard,
    };
    let slice = match args.shard {
        Some(s) => format!(", slice {} of {}", s.index, s.count),
        None => String::new(),
    };
    evomcts::note!(
        "league `{}`: {} controllers, {} matches of {} games ({total} games{slice}) -> {}",
        escape::terminal(&spec.name),
        spec.controllers.len(),
        spec.controllers.len() * (spec.controllers.len() - 1),
        spec.games_per_match,
        escape::path(&out)
    );
    evomcts::note!(
        "standings so far: {}",
        escape::path(&out.join(evomcts::league::run::LIVE_STANDINGS_FILE))
    );
    let start = std::time::Instant::now();
    let (outcome, tables) = run_league_with_tables(&spec, &opts, &AtomicBool::new(false))?;
    if outcome.duplicates > 0 {
        evomcts::note!(
            "{} games were recorded more than once (identically) and are counted once",
            outcome.duplicates
        );
    }
    if outcome.dropped_torn_line {
        evomcts::note!("a game cut off mid-write was dropped and played again");
    }
    evomcts::note!(
        "{} games played now, {} already recorded, in {:.1} s",
        outcome.played_now,
        outcome.already_recorded,
        start.elapsed().as_secs_f64()
    );
    out!("{}", report::to_text(&tables))?;
    evomcts::note!("tables written to {}", escape::path(&out));
    Ok(())
}
