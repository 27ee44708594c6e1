//! `evomcts bench star`: Star1, Star2 and Star2.5 decisions on mid-game positions, one thread:
//! the time per decision (median over positions) and the nodes searched per second.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::games::carcassonne::{sample_positions, GameState};
use evomcts::search::star::{expectimax, StarSearcher, StarSettings};
use serde_json::{json, Value};
use std::time::Instant;

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

/// Per-decision times (ms) and node counts of one variant.
struct Timings {
    millis: Vec<f64>,
    nodes: u64,
}

impl Timings {
    fn report(mut self, name: &str, settings: Option<&StarSettings>) -> Value {
        self.millis.sort_by(|a, b| a.total_cmp(b));
        let n = self.millis.len();
        let total_ms: f64 = self.millis.iter().sum();
        let at = |q: f64| self.millis[((n - 1) as f64 * q).round() as usize];
        json!({
            "name": name,
            "depth": settings.map(|s| s.depth),
            "probing": settings.map(|s| s.probing),
            "lower": settings.map(|s| s.lower),
            "upper": settings.map(|s| s.upper),
            "positions": n,
            "median_ms": round3(at(0.5)),
            "mean_ms": round3(total_ms / n as f64),
            "p90_ms": round3(at(0.9)),
            "max_ms": round3(self.millis[n - 1]),
            "mean_nodes": (self.nodes as f64 / n as f64).round(),
            "nodes_per_sec": (self.nodes as f64 / (total_ms / 1000.0)).round(),
        })
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn time_star(positions: &[GameState], settings: &StarSettings) -> Result<Timings> {
    let mut searcher = StarSearcher::new(settings)?;
    // One untimed search warms the pools, as in a controller that has already played.
    searcher.search(&positions[0])?;
    let mut t = Timings {
        millis: Vec::with_capacity(positions.len()),
        nodes: 0,
    };
    for state in positions {
        let start = Instant::now();
        let r = std::hint::black_box(searcher.search(state)?);
        t.millis.push(start.elapsed().as_secs_f64() * 1000.0);
        t.nodes += r.nodes;
    }
    Ok(t)
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
        let mut t = Timings {
            millis: Vec::new(),
            nodes: 0,
        };
        for state in &positions {
            let start = Instant::now();
            let r = std::hint::black_box(expectimax(state, 2, evaluation)?);
            t.millis.push(start.elapsed().as_secs_f64() * 1000.0);
            t.nodes += r.nodes;
        }
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
