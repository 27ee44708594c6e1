//! `evomcts bench engine`: complete random games on one thread, the engine's speed figure.

use anyhow::Result;
use clap::Args;
use evomcts::games::carcassonne::Rules;
use evomcts::speed::engine::{random_game_rates, random_game_stats};

/// The most games one benchmark plays: about 40 minutes at 42,000 games a second.
const MAX_GAMES: u64 = 100_000_000;

#[derive(Args)]
pub struct EngineArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Seed of the tile sequences and the random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Repetitions; the games-per-second figure is their median.
    #[arg(long, default_value_t = 3)]
    repeats: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: EngineArgs) -> Result<()> {
    crate::cli::check_count("--games", args.games, 1, MAX_GAMES)?;
    crate::cli::check_count("--repeats", args.repeats.into(), 1, 100)?;
    // The figures play the games once more, untimed.
    crate::cli::check_work(
        "--games × (--repeats + 1)",
        u128::from(args.games) * (u128::from(args.repeats) + 1),
        MAX_GAMES,
        "games",
    )?;
    let rules = Rules::default();
    let mut rates = random_game_rates(rules, args.games, args.seed, args.repeats);
    // The same games again, untimed, for their figures.
    let stats = random_game_stats(rules, args.games, args.seed);
    rates.sort_by(|a, b| a.total_cmp(b));
    let median = rates[rates.len() / 2];
    let g = stats.games as f64;
    let d = stats.decisions as f64;
    let report = serde_json::json!({
        "games": stats.games,
        "repeats": args.repeats,
        "seed": args.seed,
        "random_games_per_sec": median.round(),
        "random_games_per_sec_all": rates.iter().map(|r| r.round()).collect::<Vec<_>>(),
        "mean_decisions_per_game": d / g,
        "mean_placements_per_decision": stats.placements as f64 / d,
        "mean_meeple_options": stats.meeple_options as f64 / d,
        "mean_moves_per_decision": stats.moves as f64 / d,
        "mean_discards_per_game": stats.discards as f64 / g,
        "mean_meeples_played_per_game": stats.meeples_played as f64 / g,
        "mean_score_p1": stats.score_sum[0] as f64 / g,
        "mean_score_p2": stats.score_sum[1] as f64 / g,
        "draw_rate": stats.draws as f64 / g,
        "threads": 1,
    });
    if args.json {
        outln!("{report}")?;
    } else {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}
