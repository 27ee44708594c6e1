//! `evomcts bench threads`: how much faster a league runs on 2 worker threads than on 1.

use anyhow::{Context, Result};
use clap::Args;
use evomcts::league::{run_league, LeagueSpec, RunOptions};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct ThreadsBenchArgs {
    /// The league (default: the built-in quick league).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// Games per ordered pair, replacing the spec's (default 8: 240 games of the quick league).
    #[arg(long, default_value_t = 8)]
    games_per_match: u32,
    /// The thread counts compared; the speed-up is the first one's time over the last one's.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    threads: Vec<usize>,
    /// Repetitions; each figure is their median.
    #[arg(long, default_value_t = 3)]
    repeats: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: ThreadsBenchArgs) -> Result<()> {
    crate::cli::check_count("--games-per-match", args.games_per_match.into(), 1, 1000)?;
    crate::cli::check_count("--repeats", args.repeats.into(), 1, 100)?;
    anyhow::ensure!(
        (1..=16).contains(&args.threads.len())
            && args.threads.iter().all(|&t| (1..=1024).contains(&t)),
        "--threads: expected 1 to 16 thread counts, each from 1 to 1024, got {:?}",
        args.threads
    );
    let mut spec = match &args.spec {
        Some(path) => LeagueSpec::from_file(path)?,
        None => LeagueSpec::from_ron(
            crate::cli::league::BUILT_IN_QUICK,
            "runs/quick.ron (built in)",
        )?,
    };
    spec.games_per_match = args.games_per_match;
    spec.validate()
        .map_err(|(field, message)| anyhow::anyhow!("--games-per-match: {field}: {message}"))?;
    let games =
        spec.controllers.len() * (spec.controllers.len() - 1) * spec.games_per_match as usize;
    let scratch =
        std::env::temp_dir().join(format!("evomcts-bench-threads-{}", std::process::id()));
    let mut medians = Vec::new();
    for &threads in &args.threads {
        let mut seconds = Vec::new();
        for repeat in 0..args.repeats {
            let out = scratch.join(format!("t{threads}-r{repeat}"));
            let opts = RunOptions {
                out_dir: out.clone(),
                resume: false,
                threads: Some(threads),
                progress: false,
                max_games: None,
                shard: None,
            };
            let started = Instant::now();
            run_league(&spec, &opts)?;
            seconds.push(started.elapsed().as_secs_f64());
            std::fs::remove_dir_all(&out).with_context(|| format!("removing {}", out.display()))?;
        }
        seconds.sort_by(f64::total_cmp);
        let median = seconds[seconds.len() / 2];
        if !args.json {
            outln!(
                "{threads} thread(s): {median:.2} s median wall for {games} games ({:.1} games/s; runs: {})",
                games as f64 / median,
                seconds.iter().map(|s| format!("{s:.2}")).collect::<Vec<_>>().join(" / ")
            )?;
        }
        medians.push((threads, median, seconds));
    }
    let _ = std::fs::remove_dir(&scratch);
    let speedup = medians[0].1 / medians[medians.len() - 1].1;
    if args.json {
        let rows: Vec<_> = medians
            .iter()
            .map(|(t, m, s)| serde_json::json!({"threads": t, "median_seconds": m, "seconds": s}))
            .collect();
        outln!(
            "{}",
            serde_json::json!({"league": spec.name, "games": games, "runs": rows, "speedup": speedup})
        )?;
    } else {
        outln!(
            "speed-up {} -> {} threads: {speedup:.2}x (median over median)",
            medians[0].0,
            medians[medians.len() - 1].0
        )?;
    }
    Ok(())
}
