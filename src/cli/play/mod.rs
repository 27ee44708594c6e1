//! `evomcts play`: a person plays any native game against a controller named as a league names
//! one, at the terminal (each move read from standard input) or in a browser (`--serve`: a
//! small HTTP server on this machine, `browser.rs`). The game is played by the league's own
//! loop with the person's seat a `MoveSource` (`arena::play_seated_with`), and once it is over
//! it is recorded as a league's game (`league::person`), so `replay`, `report`, `table` and
//! `analyse` read its folder unchanged. A game left unfinished (the input ended, Ctrl-C) writes
//! nothing.

mod browser;
mod http;
mod server;
mod terminal;
mod view;

use anyhow::{anyhow, Result};
use clap::Args;
use evomcts::arena::{GameChoice, MoveSource};
use evomcts::escape;
use evomcts::league::person::{
    check_new_folder, controller_name, person_job, person_league, record_game,
};
use evomcts::league::spec::MAX_RECORDED_ROOT_CHILDREN;
use evomcts::league::{play_league_game_with, GameJob, LeagueError, LeagueSpec};
use evomcts::search::ControllerSpec;
use std::path::{Path, PathBuf};
use view::{Ending, Seating};

#[derive(Args)]
#[command(mut_arg("out", |a| a.help(
    "Folder the finished game is recorded in, as a league's run (spec.ron and games.jsonl) \
     [default: runs/play/N, the first N from 1 not taken]; a game left unfinished writes nothing"
)))]
pub struct PlayArgs {
    /// The game, as a league spec names it: `ConnectFour`, `TicTacToe`, `Hex(size: 5)`,
    /// `Pig(target: 100)`, `Carcassonne`, … (docs/games.md lists them).
    #[arg(long, default_value = "ConnectFour")]
    game: String,
    /// The controller you play against, as a league spec writes one: `Mcts(sims: 1000)` (UCT),
    /// `Mcts(sims: 200, selection: FormulaFile("populations/connect-four/champion.txt"))` (an
    /// evolved formula, its file read from the current folder), `Mcts(sims: 200, es: ())`,
    /// `Star(depth: 4, lower: -1.0, upper: 1.0)`, `Random`.
    #[arg(long, default_value = "Mcts(sims: 1000)")]
    opponent: String,
    /// Your seat: 1 moves first, 2 second.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    seat: u8,
    /// The seed of the league every random choice comes from: the game's chance events and the
    /// controller's searches (the same seed, seat and moves give the same game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Root children of the controller's search shown after each of its moves, most visited
    /// first (1 to 64); a Carcassonne game records them with each decision, as a league's
    /// `search_detail` does, for the report's viewer and `analyse`.
    #[arg(long, default_value_t = 5)]
    top: usize,
    #[command(flatten)]
    out: super::run_args::OutArg,
    /// Play in a browser instead of the terminal: serve the game on this machine at ADDR
    /// (`127.0.0.1:8000`, or a port alone) [default: 127.0.0.1 on any free port], print its
    /// address, and take the moves from the page; once the game is recorded the page shows
    /// the result and the server stays until Ctrl-C.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    serve: Option<String>,
}

/// The most root children `--top` may show: as many as a league records.
const MAX_TOP: u64 = MAX_RECORDED_ROOT_CHILDREN as u64;

/// A front end for the person: their moves, and the end of the game shown.
trait Front: MoveSource {
    /// Why the person gave no move: the input ended, or an error (reading, printing, the
    /// server).
    fn unfinished(&mut self) -> anyhow::Error;
    /// Shows the finished game, recorded as `recorded` says.
    fn finish(&mut self, ending: &Ending, recorded: &str) -> Result<()>;
}

/// Everything about the game to play, checked before it starts.
struct Setup {
    spec: LeagueSpec,
    job: GameJob,
    seating: Seating,
    out: PathBuf,
    /// The game's number K in the league's schedule (`replay --game K`).
    k: usize,
}

pub fn run(args: PlayArgs) -> Result<()> {
    super::check_count("--top", args.top as u64, 1, MAX_TOP)?;
    let setup = setup(&args)?;
    outln!(
        "{}, league seed {}: {} against {}",
        setup.spec.game.label(),
        setup.spec.seed,
        setup.seating.who(setup.seating.person),
        setup.seating.who(setup.seating.controller())
    )?;
    match &args.serve {
        Some(addr) => {
            let mut front = browser::Browser::start(addr, &setup, args.top)?;
            play_and_record(&setup, &mut front)
        }
        None => {
            outln!(
                "type a move's letter or the move itself; the end of the input (Ctrl-D) leaves \
                 the game unrecorded"
            )?;
            let input = std::io::stdin().lock();
            let mut front = terminal::Terminal::new(input, setup.seating.clone(), args.top);
            play_and_record(&setup, &mut front)
        }
    }
}

/// The game of the arguments: its league, the person's game in it, the folder.
fn setup(args: &PlayArgs) -> Result<Setup> {
    let options = evomcts::runfs::ron_options();
    let game: GameChoice = options.from_str(&args.game).map_err(|e| {
        anyhow!(
            "--game {}: not a game as a league spec names one: {}",
            escape::shell(&escape::abbreviated(&args.game, 80)),
            escape::abbreviated(&e.to_string(), 300)
        )
    })?;
    game.check_playable_here()
        .map_err(|why| anyhow!("--game: {why}"))?;
    let opponent = opponent(&args.opponent)?;
    let name = controller_name(&opponent);
    // `--top` is at most MAX_RECORDED_ROOT_CHILDREN, checked first.
    let top = u16::try_from(args.top).unwrap_or(MAX_RECORDED_ROOT_CHILDREN);
    let spec =
        person_league(game, opponent, &name, args.seed, top).map_err(|(field, message)| {
            if field.starts_with("controllers[1].spec") {
                anyhow!("--opponent: {message}")
            } else {
                anyhow!("--game: {field}: {message}")
            }
        })?;
    spec.game
        .check_builds(&spec.controllers[1].spec)
        .map_err(|message| anyhow!("--opponent: {message}"))?;
    let person = usize::from(args.seat - 1);
    let job = person_job(&spec, person).ok_or_else(|| {
        anyhow!(
            "the league of the game has no game with you in seat {}",
            args.seat
        )
    })?;
    let out = match &args.out.out {
        Some(out) => out.clone(),
        None => free_folder(Path::new("runs/play"))?,
    };
    check_new_folder(&out)?;
    let names = [job.id.first, job.id.second].map(|i| spec.controllers[i].name.clone());
    Ok(Setup {
        k: job.id.number(spec.controllers.len(), spec.games_per_match),
        seating: Seating { names, person },
        spec,
        job,
        out,
    })
}

/// The controller of `--opponent`, the files it names read from the current folder.
fn opponent(text: &str) -> Result<ControllerSpec> {
    let mut spec: ControllerSpec = evomcts::runfs::ron_options().from_str(text).map_err(|e| {
        anyhow!(
            "--opponent {}: not a controller as a league spec writes one: {}",
            escape::shell(&escape::abbreviated(text, 80)),
            escape::abbreviated(&e.to_string(), 300)
        )
    })?;
    evomcts::runfs::resolve_controller(&mut spec, Path::new("."))
        .map_err(|(field, message)| anyhow!("--opponent: {field}: {message}"))?;
    Ok(spec)
}

/// The first `parent/N` (N from 1) that does not exist.
fn free_folder(parent: &Path) -> Result<PathBuf> {
    (1..=100_000)
        .map(|n| parent.join(n.to_string()))
        .find(|dir| !dir.exists())
        .ok_or_else(|| anyhow!("{} holds no free folder: pass --out", escape::path(parent)))
}

/// Plays the game with `front` in the person's seat and records it once it is over.
fn play_and_record<F: Front>(setup: &Setup, front: &mut F) -> Result<()> {
    let played = play_league_game_with(&setup.spec, &setup.job, &setup.spec.hash(), front);
    let game = match played {
        Ok(game) => game,
        Err(LeagueError::Unfinished { .. }) => return Err(front.unfinished()),
        Err(e) => return Err(e.into()),
    };
    record_game(&setup.out, &setup.spec, &game)?;
    let dir = escape::path(&setup.out);
    let recorded = format!(
        "recorded in {dir} as game {k}: `evomcts replay {dir} --game {k}` shows it, `evomcts \
         report {dir}` writes its pages",
        k = setup.k
    );
    front.finish(&Ending::new(&setup.seating, &game.game), &recorded)
}
