//! `evomcts bench search`: its options, checked, and its report printed; the timed loops are
//! `evomcts_speed::search`'s (crates/speed), which says what is timed and how.

use anyhow::Result;
use clap::Args;
use evomcts::arena::GameChoice;
use evomcts::speed::search::SearchBench;

#[derive(Args)]
pub struct SearchBenchArgs {
    /// Positions sampled from the middle of random games.
    #[arg(long, default_value_t = 20)]
    positions: usize,
    /// Seed of the positions and of the controllers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Runs per position and controller; the position's time is their median.
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// MCTS simulations per decision.
    #[arg(long, default_value_t = 400)]
    sims: u32,
    /// Also time RAVE and Thompson sampling decisions.
    #[arg(long)]
    all_policies: bool,
    /// Time only this controller (mcts, es-mcts, es-p-mcts, mcts-knowledge: UCT that
    /// also computes the knowledge terminals H and p, or mcts-features: UCT that also
    /// computes H, p and the move features G O M F R L T), e.g. under a profiler.
    #[arg(long)]
    only: Option<String>,
    /// Print one JSON object instead of indented text.
    #[arg(long)]
    json: bool,
    /// The game, as a spec names it: `ConnectFour`, `'Pig(target: 100)'`, or OpenSpiel's
    /// (`'OpenSpiel(name: "hex")'`, under `python -m evomcts`) [default: Carcassonne].
    #[arg(long, value_parser = parse_game)]
    game: Option<GameChoice>,
}

/// A `--game` value: a game as a spec's `game:` field writes it.
pub(crate) fn parse_game(text: &str) -> Result<GameChoice, String> {
    evomcts::runfs::ron_options()
        .from_str(text)
        .map_err(|e| format!("expected a game as a spec names it (ConnectFour, Pig(target: 100), OpenSpiel(name: \"hex\"), Carcassonne): {e}"))
}

pub fn run(args: SearchBenchArgs) -> Result<()> {
    crate::cli::check_count("--positions", args.positions as u64, 1, 10_000)?;
    crate::cli::check_count("--repeats", args.repeats as u64, 1, 100)?;
    crate::cli::check_count("--sims", args.sims.into(), 1, 1_000_000)?;
    // About 25 minutes of plain MCTS; the ES variants cost a few times more.
    crate::cli::check_work(
        "--positions × --repeats × --sims",
        args.positions as u128 * args.repeats as u128 * u128::from(args.sims),
        100_000_000,
        "simulations per policy",
    )?;
    let report = evomcts::speed::search::run(&SearchBench {
        positions: args.positions,
        seed: args.seed,
        repeats: args.repeats,
        sims: args.sims,
        all_policies: args.all_policies,
        only: args.only,
        game: args.game,
    })?;
    if args.json {
        outln!("{report}")?;
    } else {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
    }
    Ok(())
}
