//! `evomcts replay`: plays every recorded game of a run again from its seeds and checks that
//! it reproduces move for move; `--game K` shows one game turn by turn.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::analysis::board::{draw_game_boards, BoardTurns};
use evomcts::escape;
use evomcts::game::render::render_board;
use evomcts::game::{replay_observed, ReplayStep};
use evomcts::league::{load_runs, play_league_game, LeagueGame};
use rayon::prelude::*;
use std::path::Path;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    /// A run folder (spec.ron and games.jsonl).
    run: PathBuf,
    /// Show game K (0-based, in schedule order) turn by turn instead of verifying all games.
    #[arg(long)]
    game: Option<usize>,
    /// With --game: also draw the board after every turn into this folder (PNG and SVG).
    #[arg(long, requires = "game")]
    pictures: Option<PathBuf>,
    /// Worker threads for verification [default: all cores].
    #[arg(long, value_parser = super::run_args::parse_threads)]
    threads: Option<usize>,
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let (spec, games, merge) = load_runs(std::slice::from_ref(&args.run))?;
    for warning in merge.warnings() {
        eprintln!("{warning}");
    }
    if let Some(k) = args.game {
        let Some(game) = games.get(k) else {
            bail!(
                "--game {k}: the run has {} recorded games (0 to {})",
                games.len(),
                games.len().saturating_sub(1)
            );
        };
        show(game)?;
        if let Some(dir) = &args.pictures {
            draw_every_turn(game, k, dir)?;
        }
        return Ok(());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let hash = spec.hash();
    let problems: Vec<String> = pool.install(|| {
        games
            .par_iter()
            .filter_map(|recorded| {
                let again = match play_league_game(&spec, &recorded.job, &hash) {
                    Ok(g) => g,
                    Err(e) => return Some(format!("game {:?}: {e}", recorded.id())),
                };
                divergence(recorded, &again).map(|d| format!("game {:?}: {d}", recorded.id()))
            })
            .collect()
    });
    for p in &problems {
        println!("{p}");
    }
    println!(
        "{} games replayed, {} reproduced, {} diverged",
        games.len(),
        games.len() - problems.len(),
        problems.len()
    );
    if !problems.is_empty() {
        bail!("{} recorded games did not reproduce", problems.len());
    }
    Ok(())
}

fn divergence(recorded: &LeagueGame, again: &LeagueGame) -> Option<String> {
    let (a, b) = (&recorded.game, &again.game);
    if let Some(turn) = a.moves.iter().zip(&b.moves).position(|(x, y)| x != y) {
        return Some(format!(
            "turn {turn}: recorded {} but replay played {}",
            a.moves[turn], b.moves[turn]
        ));
    }
    if a.moves.len() != b.moves.len() || a.draws != b.draws {
        return Some("the sequence of tiles differs".into());
    }
    if a.final_scores != b.final_scores {
        return Some(format!(
            "final scores {:?} vs {:?}",
            a.final_scores, b.final_scores
        ));
    }
    (recorded != again).then(|| "records differ outside the moves (ES formulas or metrics)".into())
}

fn show(game: &LeagueGame) -> Result<()> {
    let r = &game.game;
    println!(
        "game {:?}: {} (player 1) vs {} (player 2), tile seed {}",
        game.id(),
        escape::terminal(&game.names[0]),
        escape::terminal(&game.names[1]),
        r.tile_seed
    );
    let state = replay_observed(r, |state, step| match step {
        ReplayStep::NotPlaced { tile, reveal } => println!("tile {tile} drawn: {reveal:?}"),
        ReplayStep::Moved {
            turn,
            player,
            tile,
            mv,
        } => {
            println!(
                "\nturn {} — {} (player {}) places {tile} at {mv}",
                turn + 1,
                escape::terminal(&game.names[player]),
                player + 1
            );
            if let Some(es) = game.es[player].iter().find(|d| d.turn == turn) {
                match &es.formula {
                    Some(f) => println!(
                        "selection formula: {f}   (canonical: {})",
                        es.canonical.as_deref().unwrap_or(f)
                    ),
                    None => println!("selection formula: UCT (the ES did not run)"),
                }
            }
            print!("{}", render_board(state));
        }
    })?;
    println!(
        "\nfinal scores: {} {} – {} {}",
        escape::terminal(&game.names[0]),
        state.scores()[0],
        state.scores()[1],
        escape::terminal(&game.names[1])
    );
    Ok(())
}

/// One picture of the board after every turn, the final board numbered like the others.
fn draw_every_turn(game: &LeagueGame, k: usize, dir: &Path) -> Result<()> {
    let figures = draw_game_boards(game, k, BoardTurns::Every, dir)?;
    eprintln!(
        "{} pictures ({} files, PNG and SVG) written to {}",
        figures.len(),
        2 * figures.len(),
        dir.display()
    );
    Ok(())
}
