//! `evomcts bench star`: Star1, Star2 and Star2.5 decisions on mid-game positions, one thread:
//! the time per decision (median over positions) and the nodes searched per second.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::games::carcassonne::sample_positions;
use evomcts::search::star::StarSettings;
use evomcts::speed::star::{time_expectimax, time_star};
use serde_json::json;

#[derive(Args)]
pub struct StarBenchArgs {
    /// Mid-game positions searched by each depth-2 variant.
    #[arg(long, default_value_t = 40)]
    positions: usize,
    /// Seed of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions are taken after a number of turns in first..last: the first turn.
    #[arg(long, default_value_t = 20)]
    first_turn: usize,
    /// The end of that range (exclusive, at most 70).
    #[arg(long, default_value_t = 50)]
    last_turn: usize,
    /// Also search Ameneyro et al.'s Star2.5 (depth 3, f = 5) on this many of the positions.
    #[arg(long, default_value_t = 0)]
    depth3_positions: usize,
    /// True bounds of the evaluation for L and U instead of the papers' ±100.
    #[arg(long)]
    true_bounds: bool,
    /// Also time plain expectimax at depth 2, the unpruned baseline.
    #[arg(long)]
    expectimax: bool,
    /// Print one JSON object instead of pretty text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: StarBenchArgs) -> Result<()> {
    // Depth 2 takes a few milliseconds per decision, depth 3 about a second.
    crate::cli::check_count("--positions", args.positions as u64, 1, 10_000)?;
    crate::cli::check_count("--depth3-positions", args.depth3_positions as u64, 0, 1_000)?;
    if args.first_turn >= args.last_turn || args.last_turn > 70 {
        bail!("--first-turn must be below --last-turn, which must be at most 70");
    }
    let positions = sample_positions(args.positions, args.seed, args.first_turn..args.last_turn);
    let bounded = |s: StarSettings| {
        if args.true_bounds {
            s.with_true_bounds(&positions[0])
        } else {
            s
        }
    };
    let mut variants = Vec::new();
    for (name, settings) in [
        ("Star1", StarSettings::star1()),
        ("Star2", StarSettings::star2()),
        ("Star2.5", StarSettings::star25()),
    ] {
        let settings = bounded(settings);
        variants.push(time_star(&positions, &settings)?.report(name, Some(&settings)));
    }
    if args.depth3_positions > 0 {
        let n = args.depth3_positions.min(positions.len());
        let settings = bounded(StarSettings::ameneyro());
        let t = time_star(&positions[..n], &settings)?;
        variants.push(t.report("Star2.5 depth 3 f=5", Some(&settings)));
    }
    if args.expectimax {
        let evaluation = StarSettings::star1().evaluation;
        let t = time_expectimax(&positions, evaluation)?;
        variants.push(t.report("expectimax depth 2", None));
    }
    let mean_moves = positions
        .iter()
        .map(|s| {
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            moves.len() as f64
        })
        .sum::<f64>()
        / positions.len() as f64;
    let report = json!({
        "seed": args.seed,
        "turns": [args.first_turn, args.last_turn],
        "true_bounds": args.true_bounds,
        "mean_root_moves": (mean_moves * 10.0).round() / 10.0,
        "threads": 1,
        "variants": variants,
    });
    if args.json {
        outln!("{report}")?;
    } else {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}
