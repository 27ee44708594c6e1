//! `evomcts replay`: plays every recorded game of a run again from its seeds and checks that
//! it reproduces move for move (a person's moves, in a game of `evomcts play`, from the
//! record); `--list` lists the games with their number K; `--game K` shows
//! one game turn by turn.

use anyhow::{bail, Result};
use clap::Args;
use evomcts::analysis::plots::board::{draw_game_boards, BoardTurns};
use evomcts::analysis::report::history::history_rows;
use evomcts::analysis::report::pig::decision_rows;
use evomcts::arena::{HistoryRecord, PigRecord, PlayedGame};
use evomcts::escape;
use evomcts::games::carcassonne::render::render_board;
use evomcts::games::carcassonne::{replay_observed, GameState, ReplayStep, Reveal};
use evomcts::league::report::TextTable;
use evomcts::league::run::GameProgress;
use evomcts::league::{
    divergence, load_runs, replay_league_game, schedule, GameRow, LeagueGame, LeagueSpec,
};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

#[derive(Args)]
#[command(mut_arg("quiet", |a| a.help("No progress bar while verifying")))]
pub struct ReplayArgs {
    /// A run folder (spec.ron and games.jsonl).
    run: PathBuf,
    /// List the recorded games in schedule order, one a line: K, the players in seat order,
    /// the final scores, the winner and the tile seed. Nothing is replayed.
    #[arg(long, conflicts_with = "game")]
    list: bool,
    /// Show game K turn by turn instead of verifying all games. K counts every game of the
    /// schedule from 0, match by match (as `--list` shows it), whatever order games finished in.
    #[arg(long)]
    game: Option<usize>,
    /// With --game: also draw the board after every turn into this folder (PNG and SVG).
    #[arg(long, requires = "game")]
    pictures: Option<PathBuf>,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
    #[command(flatten)]
    quiet: super::run_args::QuietArg,
}

/// A game's number K in the schedule.
fn number(spec: &LeagueSpec, game: &LeagueGame) -> usize {
    game.id()
        .number(spec.controllers.len(), spec.games_per_match)
}

/// `game K (0 v 1 #3)`: the number people use and the identity records hold.
fn game_label(spec: &LeagueSpec, game: &LeagueGame) -> String {
    format!("game {} ({})", number(spec, game), game.id())
}

pub fn run(args: ReplayArgs) -> Result<()> {
    if let Some(dir) = &args.pictures {
        evomcts::runfs::check_output_folder(dir, std::slice::from_ref(&args.run))
            .map_err(anyhow::Error::msg)?;
    }
    let (spec, games, merge) = load_runs(std::slice::from_ref(&args.run))?;
    for warning in merge.warnings() {
        evomcts::note!("{warning}");
    }
    let recorded_open_spiel = games.iter().find_map(|g| match &g.game {
        PlayedGame::History(r) => r.open_spiel.as_deref(),
        _ => None,
    });
    if let Some(warning) = evomcts::arena::open_spiel::version_warning(recorded_open_spiel) {
        evomcts::note!("warning: {warning}");
    }
    if args.list {
        out!("{}", games_list(&spec, &games).to_text())?;
        let scheduled = schedule(spec.seed, spec.controllers.len(), spec.games_per_match).len();
        if games.len() < scheduled {
            evomcts::note!(
                "{} of the {scheduled} scheduled games are recorded",
                games.len()
            );
        }
        return Ok(());
    }
    spec.game.check_playable_here().map_err(|why| {
        anyhow::anyhow!(
            "{}: its games cannot be replayed by this program: {why}",
            escape::path(&args.run)
        )
    })?;
    if let Some(k) = args.game {
        let game = find_game(&spec, &games, k, &args.run)?;
        show(&spec, game)?;
        if let Some(dir) = &args.pictures {
            draw_every_turn(game, k, dir)?;
        }
        // The moves shown are legal (the replay checks each); whether the record is the
        // game its seeds play is checked as `replay` of the folder checks it.
        let again = replay_league_game(&spec, game, &spec.hash())?;
        if let Some(d) = divergence(game, &again) {
            bail!(
                "{}: the record shown does not reproduce: {d}",
                game_label(&spec, game)
            );
        }
        return Ok(());
    }
    let pool = evomcts::frame::RunPool::new(args.threads.threads, Some(&spec.game))?;
    let hash = spec.hash();
    let jobs: Vec<_> = games.iter().map(|g| g.job).collect();
    let progress = Mutex::new(GameProgress::new(
        &spec,
        &jobs,
        &HashSet::new(),
        pool.current_num_threads(),
        args.quiet.progress(),
    ));
    let problems: Vec<String> = pool.install(|| {
        games
            .par_iter()
            .filter_map(|recorded| {
                let started = Instant::now();
                let again = replay_league_game(&spec, recorded, &hash);
                if let Ok(mut p) = progress.lock() {
                    p.finished(recorded.id(), started.elapsed().as_secs_f64());
                }
                let label = game_label(&spec, recorded);
                match again {
                    Ok(again) => divergence(recorded, &again).map(|d| format!("{label}: {d}")),
                    Err(e) => Some(format!("{label}: {e}")),
                }
            })
            .collect()
    });
    if let Ok(p) = progress.lock() {
        p.finish();
    }
    for p in &problems {
        outln!("{p}")?;
    }
    outln!(
        "{} games replayed, {} reproduced, {} diverged",
        games.len(),
        games.len() - problems.len(),
        problems.len()
    )?;
    if !problems.is_empty() {
        bail!("{} recorded games did not reproduce", problems.len());
    }
    Ok(())
}

/// The recorded games, one row each in schedule order: the rows of `games.csv`.
fn games_list(spec: &LeagueSpec, games: &[LeagueGame]) -> TextTable {
    let rows = games
        .iter()
        .map(|g| {
            let row = GameRow::new(g, spec.controllers.len(), spec.games_per_match);
            vec![
                row.k.to_string(),
                format!("{} v {}", row.first, row.second),
                g.id().to_string(),
                format!("{} – {}", row.score_first, row.score_second),
                row.winner,
                row.tile_seed.to_string(),
            ]
        })
        .collect();
    TextTable {
        title: format!(
            "Games of `{}` in schedule order (K is the number of `replay --game K`)",
            spec.name
        ),
        headers: ["K", "Player 1 v player 2", "Game", "Score", "Winner"]
            .map(String::from)
            .into_iter()
            .chain([escape::capitalised(spec.game.seed_name())])
            .collect(),
        rows,
    }
}

/// Game `k` of the schedule, or an error saying what K can be.
pub fn find_game<'g>(
    spec: &LeagueSpec,
    games: &'g [LeagueGame],
    k: usize,
    run: &Path,
) -> Result<&'g LeagueGame> {
    if let Some(game) = games.iter().find(|g| number(spec, g) == k) {
        return Ok(game);
    }
    let jobs = schedule(spec.seed, spec.controllers.len(), spec.games_per_match);
    let Some(job) = jobs.get(k) else {
        bail!(
            "--game {k}: the schedule of {} has {} games, numbered 0 to {} (see `evomcts replay {} --list`)",
            run.display(),
            jobs.len(),
            jobs.len() - 1,
            run.display()
        );
    };
    bail!(
        "--game {k}: game {k} ({}: {} v {}) is not recorded in {} yet ({} of {} games are; see `evomcts replay {} --list`)",
        job.id,
        escape::terminal(&spec.controllers[job.id.first].name),
        escape::terminal(&spec.controllers[job.id.second].name),
        run.display(),
        games.len(),
        jobs.len(),
        run.display()
    )
}

fn show(spec: &LeagueSpec, game: &LeagueGame) -> Result<()> {
    let r = match &game.game {
        PlayedGame::Carcassonne(r) => r,
        PlayedGame::Pig(r) => return show_pig(spec, game, r),
        PlayedGame::History(r) => return show_history(spec, game, r),
    };
    outln!(
        "{}: {} (player 1) vs {} (player 2), tile seed {}",
        game_label(spec, game),
        escape::terminal(&game.names[0]),
        escape::terminal(&game.names[1]),
        r.tile_seed
    )?;
    // The replay's callback cannot return an error: the first failed print is kept, and the
    // rest of the game is not printed.
    let mut printed = Ok(());
    let state = replay_observed(r, |state, step| {
        if printed.is_ok() {
            printed = show_step(game, state, step);
        }
    })?;
    printed?;
    outln!(
        "\nfinal scores: {} {} – {} {}",
        escape::terminal(&game.names[0]),
        state.scores()[0],
        state.scores()[1],
        escape::terminal(&game.names[1])
    )?;
    Ok(())
}

/// One step of a replayed Carcassonne game, as `replay --game` prints it.
fn show_step(game: &LeagueGame, state: &GameState, step: ReplayStep) -> Result<()> {
    match step {
        ReplayStep::ToMove { .. } => {}
        ReplayStep::NotPlaced { tile, reveal } => {
            let what = match reveal {
                Reveal::Discarded => "fits nowhere and leaves the game",
                Reveal::ReturnedToBottom => "fits nowhere and goes back under the stack",
                Reveal::Ready => "fits",
            };
            outln!("tile {tile} drawn: {what}")?;
        }
        ReplayStep::Moved {
            turn,
            player,
            tile,
            mv,
        } => {
            outln!(
                "\nturn {} — {} (player {}) places {tile} at {mv}",
                turn + 1,
                escape::terminal(&game.names[player]),
                player + 1
            )?;
            if let Some(es) = game.es[player].iter().find(|d| d.turn == turn) {
                match &es.formula {
                    Some(f) => outln!(
                        "selection formula: {f}   (canonical: {})",
                        es.canonical.as_deref().unwrap_or(f)
                    )?,
                    None => outln!("selection formula: UCT (the ES did not run)")?,
                }
            }
            out!("{}", render_board(state))?;
        }
    }
    Ok(())
}

fn show_pig(spec: &LeagueSpec, game: &LeagueGame, record: &PigRecord) -> Result<()> {
    outln!(
        "{}: {} (player 1) vs {} (player 2), Pig to {}, dice seed {}\n",
        game_label(spec, game),
        escape::terminal(&game.names[0]),
        escape::terminal(&game.names[1]),
        record.pig.target,
        record.dice_seed
    )?;
    let rows =
        decision_rows(record).map_err(|e| anyhow::anyhow!("the game does not replay: {e}"))?;
    for (i, row) in rows.iter().enumerate() {
        outln!(
            "decision {} — {} (player {}) at {} – {}, turn total {}: {} ({})",
            i + 1,
            escape::terminal(&game.names[row.player]),
            row.player + 1,
            row.banked[0],
            row.banked[1],
            row.turn_total,
            row.mv,
            row.outcome
        )?;
    }
    print_final_scores(game)
}

fn show_history(spec: &LeagueSpec, game: &LeagueGame, record: &HistoryRecord) -> Result<()> {
    outln!(
        "{}: {} (player 1) vs {} (player 2), {}, seed {}\n",
        game_label(spec, game),
        escape::terminal(&game.names[0]),
        escape::terminal(&game.names[1]),
        record.game.label(),
        record.seed
    )?;
    let rows =
        history_rows(record).map_err(|e| anyhow::anyhow!("the game does not replay: {e}"))?;
    for (i, row) in rows.iter().enumerate() {
        match row.player {
            Some(p) => outln!(
                "step {} — {} (player {}): {}",
                i + 1,
                escape::terminal(&game.names[p]),
                p + 1,
                row.step
            )?,
            None => outln!("step {} — {}", i + 1, row.step)?,
        }
        for line in row.state.iter().flat_map(|text| text.lines()) {
            outln!("    {}", escape::terminal(line))?;
        }
    }
    print_final_scores(game)
}

/// The last line of a game shown step by step: each player's final score.
fn print_final_scores(game: &LeagueGame) -> Result<()> {
    let scores = game.game.final_scores();
    outln!(
        "\nfinal scores: {} {} – {} {}",
        escape::terminal(&game.names[0]),
        scores[0],
        scores[1],
        escape::terminal(&game.names[1])
    )?;
    Ok(())
}

/// One picture of the board after every turn, the final board numbered like the others.
fn draw_every_turn(game: &LeagueGame, k: usize, dir: &Path) -> Result<()> {
    let figures = draw_game_boards(game, k, BoardTurns::Every, dir)?;
    evomcts::note!(
        "{} pictures ({} files, PNG and SVG) written to {}",
        figures.len(),
        2 * figures.len(),
        escape::path(dir)
    );
    Ok(())
}
