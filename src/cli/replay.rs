//! `evomcts replay`: plays every recorded game of a run again from its seeds and checks that
//! it reproduces move for move; `--game K` shows one game turn by turn.

use anyhow::{bail, Context, Result};
use clap::Args;
use evomcts::game::render::render_board;
use evomcts::game::{GameState, Reveal};
use evomcts::league::{play_league_game, read_records, record_path, LeagueGame, LeagueSpec};
use rayon::prelude::*;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    /// A run folder (spec.ron and games.jsonl).
    run: PathBuf,
    /// Show game K (0-based, in schedule order) turn by turn instead of verifying all games.
    #[arg(long)]
    game: Option<usize>,
    /// Worker threads for verification [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let spec = LeagueSpec::from_file(args.run.join("spec.ron"))
        .with_context(|| format!("{} is not a league run folder", args.run.display()))?;
    let mut games = read_records(&record_path(&args.run))?.games;
    let order = evomcts::league::schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    games.sort_by_key(|g| order.iter().position(|j| j.id == g.id()));
    if let Some(k) = args.game {
        let Some(game) = games.get(k) else {
            bail!(
                "--game {k}: the run has {} recorded games (0 to {})",
                games.len(),
                games.len().saturating_sub(1)
            );
        };
        return show(game);
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
        game.names[0],
        game.names[1],
        r.tile_seed
    );
    let mut state = GameState::new(r.rules);
    let mut moves = r.moves.iter();
    for &tile in &r.draws {
        match state.reveal(tile)? {
            Reveal::Ready => {}
            other => {
                println!("tile {tile} drawn: {other:?}");
                continue;
            }
        }
        let turn = state.turns_played();
        let player = state.to_move();
        let mv = *moves
            .next()
            .context("the record has fewer moves than placeable draws")?;
        state.apply(mv)?;
        println!(
            "\nturn {} — {} (player {}) places {tile} at {mv}",
            turn + 1,
            game.names[player],
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
        print!("{}", render_board(&state));
    }
    state.finish();
    println!(
        "\nfinal scores: {} {} – {} {}",
        game.names[0],
        state.scores()[0],
        state.scores()[1],
        game.names[1]
    );
    Ok(())
}
