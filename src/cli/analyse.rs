//! `evomcts analyse`: a recorded game's position at a turn, searched again by the entrant that
//! played it (repeating its search) or by any controller, with the root statistics it found.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::escape;
use evomcts::league::analyse::{analyse_turn, search_table, Analysis, Analyst};
use evomcts::league::{load_runs, LeagueGame, LeagueSpec};
use evomcts::search::ControllerSpec;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct AnalyseArgs {
    /// A league run folder (spec.ron and games.jsonl).
    run: PathBuf,
    /// Game K in schedule order (as `replay --list` and the report number games).
    #[arg(long)]
    game: usize,
    /// Turn T, as the game viewer counts it: the position before the T-th move (from 1).
    #[arg(long)]
    turn: usize,
    /// The entrant's name, or a controller in the spec's RON (`Mcts(sims: 800)`). The entrant
    /// that played the turn repeats its recorded search (same seed, same numbers); any other
    /// controller searches the position afresh.
    #[arg(long)]
    controller: String,
    /// MCTS simulations, replacing the controller's own (the search is then a fresh one).
    #[arg(long)]
    sims: Option<u32>,
    /// Seed of a fresh controller [default: 0]; with an entrant's name, searches afresh
    /// instead of repeating the recorded search.
    #[arg(long)]
    seed: Option<u64>,
    /// Root children shown, most visited first.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Print the analysis as one JSON object.
    #[arg(long)]
    json: bool,
}

/// The most root children `--top` may ask for (a tile has at most a few hundred moves).
const MAX_TOP: u64 = 10_000;

/// Who analyses, from `--controller`, `--sims` and `--seed`.
fn analyst(args: &AnalyseArgs, spec: &LeagueSpec) -> Result<Analyst> {
    let entrant = spec.controllers.iter().find(|e| e.name == args.controller);
    let mut controller = match entrant {
        Some(e) => e.spec.clone(),
        None => {
            let mut parsed: ControllerSpec = evomcts::runfs::ron_options()
                .from_str(&args.controller)
                .map_err(|err| {
                    anyhow::anyhow!(
                        "--controller {}: neither an entrant of the league ({}) nor a controller spec: {}",
                        escape::shell(&escape::abbreviated(&args.controller, 80)),
                        spec.names()
                            .iter()
                            .map(|n| escape::terminal(n))
                            .collect::<Vec<_>>()
                            .join(", "),
                        // The parser's message may quote the text.
                        escape::abbreviated(&err.to_string(), 200)
                    )
                })?;
            evomcts::runfs::resolve_controller(&mut parsed, Path::new("."))
                .map_err(|(field, message)| anyhow::anyhow!("--controller: {field}: {message}"))?;
            parsed
        }
    };
    if let Some(sims) = args.sims {
        match &mut controller {
            ControllerSpec::Mcts(settings) => settings.sims = sims,
            _ => bail!("--sims {sims}: only an MCTS controller has simulations"),
        }
    }
    controller
        .validate()
        .map_err(|e| anyhow::anyhow!("--controller: {e}"))?;
    evomcts::bounds::check_decision_work(&controller)
        .map_err(|(field, message)| anyhow::anyhow!("--controller: {field}: {message}"))?;
    Ok(
        if entrant.is_some() && args.sims.is_none() && args.seed.is_none() {
            Analyst::Entrant(args.controller.clone())
        } else {
            Analyst::Fresh {
                spec: controller,
                seed: args.seed.unwrap_or(0),
            }
        },
    )
}

pub fn run(args: AnalyseArgs) -> Result<()> {
    super::check_count("--top", args.top as u64, 1, MAX_TOP)?;
    let (spec, games, merge) = load_runs(std::slice::from_ref(&args.run))?;
    for warning in merge.warnings() {
        evomcts::note!("{warning}");
    }
    let game = super::replay::find_game(&spec, &games, args.game, &args.run)?;
    let analyst = analyst(&args, &spec)?;
    let analysis = analyse_turn(&spec, game, args.turn, &analyst, args.top)?;
    if args.json {
        outln!("{}", serde_json::to_string(&analysis)?)?;
        return Ok(());
    }
    print_analysis(&args, &spec, game, &analysis)
}

fn print_analysis(
    args: &AnalyseArgs,
    spec: &LeagueSpec,
    game: &LeagueGame,
    analysis: &Analysis,
) -> Result<()> {
    let mover = &game.names[analysis.player];
    outln!(
        "game {} ({}), turn {}: {} (player {}) to move; the record plays {}",
        args.game,
        game.id(),
        analysis.turn,
        escape::terminal(mover),
        analysis.player + 1,
        analysis.played
    )?;
    let who = format!(
        "{} ({})",
        escape::abbreviated(&args.controller, 80),
        if analysis.repeats_decision {
            "the recorded decision searched again"
        } else {
            "a fresh search"
        }
    );
    match &analysis.search {
        Some(search) => out!(
            "\n{}",
            search_table(&who, search, &analysis.played, &analysis.chosen).to_text()
        )?,
        None => outln!("{who} chose {} (it does not search)", analysis.chosen)?,
    }
    match (&analysis.recorded, analysis.reproduces_record()) {
        (Some(_), Some(true)) => {
            outln!("\nthe league's record of this decision holds the same numbers")?
        }
        (Some(recorded), _) => out!(
            "\n{}",
            search_table(
                &format!("recorded for {}", escape::terminal(mover)),
                recorded,
                &analysis.played,
                &analysis.played
            )
            .to_text()
        )?,
        (None, _) if spec.search_detail.is_off() => {
            outln!("\n(the league recorded no search statistics: its spec has no `search_detail`)")?
        }
        (None, _) => {}
    }
    Ok(())
}
