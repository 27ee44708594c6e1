//! `evomcts budgets`: how often an MCTS controller's tree policy decides anything, per budget,
//! on a game's random decisions (`evomcts::arena::budgets`, which says what is counted).

use anyhow::{anyhow, Result};
use clap::Args;
use evomcts::arena::budgets::{budget_profile, Budget, BudgetSpec};
use evomcts::arena::GameChoice;
use evomcts::search::mcts::MctsSettings;

#[derive(Args)]
pub struct BudgetsArgs {
    /// The game, as a spec names it: `ConnectFour`, `'Hex(size: 5)'`, `'Pig(target: 100)'`
    /// [default: Carcassonne].
    #[arg(long, value_parser = super::bench::search::parse_game)]
    game: Option<GameChoice>,
    /// Budgets, comma-separated: simulations (`100`) or multiples of the game's mean branching
    /// factor (`2b`).
    #[arg(long, value_delimiter = ',', value_parser = Budget::parse, default_value = "0.5b,2b,8b,32b")]
    budgets: Vec<Budget>,
    /// Random games whose every decision (forced moves left out) is searched at each budget.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Seed of the random games and the controllers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The MCTS controller as a spec writes its settings, e.g. `'(selection: Greedy)'` or
    /// `'(unvisited: Ranked((q: ParentQ, n: 1.0)))'`; its `sims` is each budget's [default:
    /// UCT].
    #[arg(long, value_parser = parse_settings)]
    controller: Option<MctsSettings>,
    /// Another MCTS controller, as `--controller` writes one: each decision is searched by both
    /// with the same seed, and the share of decisions at which they choose the same move is
    /// reported (e.g. `--controller '(selection: Greedy)' --against '(c_e: 0.1)'`).
    #[arg(long, value_parser = parse_settings)]
    against: Option<MctsSettings>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

fn parse_settings(text: &str) -> Result<MctsSettings, String> {
    let settings: MctsSettings = evomcts::runfs::ron_options()
        .from_str(text)
        .map_err(|e| format!("expected MCTS settings as a spec writes them: {e}"))?;
    settings.validate().map_err(|e| e.to_string())?;
    Ok(settings)
}

pub fn run(args: BudgetsArgs) -> Result<()> {
    crate::cli::check_count("--games", args.games as u64, 1, 100_000)?;
    crate::cli::check_count("--budgets (how many)", args.budgets.len() as u64, 1, 32)?;
    let game = args.game.unwrap_or(GameChoice::Carcassonne);
    let spec = BudgetSpec {
        games: args.games,
        seed: args.seed,
        settings: args.controller.unwrap_or_default(),
        against: args.against,
        budgets: args.budgets,
    };
    let profile = budget_profile(&game, &spec).map_err(|e| anyhow!("{}: {e}", game.label()))?;
    if args.json {
        outln!("{}", serde_json::to_string(&profile)?)?;
        return Ok(());
    }
    outln!(
        "{}: {} decisions of {} random games (seed {}; {} forced moves left out), mean branching factor {:.2}",
        game.label(),
        profile.decisions,
        profile.games,
        args.seed,
        profile.forced,
        profile.branching
    )?;
    let compared = profile.rows.iter().any(|r| r.agreement.is_some());
    outln!(
        "budget    sims  consulted [95% Wilson]     spare sims  policy choices/sim{}",
        if compared {
            "  same move as --against [95% Wilson]"
        } else {
            ""
        }
    )?;
    for row in &profile.rows {
        let agreement = row.agreement.map_or(String::new(), |a| {
            format!("  {:.3} [{:.3}, {:.3}]", a.share, a.low, a.high)
        });
        outln!(
            "{:<8} {:>5}  {:.3} [{:.3}, {:.3}]  {:>10.1}  {:>18.3}{agreement}",
            row.budget.to_string(),
            row.sims,
            row.consulted_share,
            row.consulted_low,
            row.consulted_high,
            row.spare_sims,
            row.policy_share
        )?;
    }
    Ok(())
}
