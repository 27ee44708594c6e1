//! A game a person plays against a controller (`evomcts play`), kept as a league keeps its
//! games, so that `replay`, `report`, `table` and `analyse` read its folder as any league's.
//!
//! The league has two entrants, the person ([`PERSON`], `person: true`, see
//! [`super::Entrant::person`]) and the controller, and one game per match; the person plays
//! one of its two scheduled games, the one that seats them where they asked, with the seeds
//! the schedule gives it. The folder is written only once that game is over ([`record_game`]):
//! `spec.ron`, then the game appended to `games.jsonl` by the league's own writer, so a game
//! left unfinished leaves nothing on disk. Played again ([`replay_league_game`]), the person's
//! moves come from the record and the controller searches again from its seed: its moves must
//! be the recorded ones.

use super::records::{read_records, record_path, LeagueGame, RecordWriter};
use super::run::{play_league_game_with, write_spec_atomically, LeagueError};
use super::schedule::{schedule, GameJob};
use super::spec::{BonusRules, Entrant, EsDetail, LeagueSpec, SearchDetail, SpecFile};
use evomcts_arena::{GameChoice, RecordedMoves};
use evomcts_games::carcassonne::Rules;
use evomcts_records::runfs::{RunKind, RunLock};
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use std::path::Path;

/// The person's name among the entrants.
pub const PERSON: &str = "you";

/// A short name for a controller spec, for the entrant's name: `UCT 1000`, `formula 50`,
/// `ES-MCTS 200`, `Star depth 4`, `Random`.
pub fn controller_name(spec: &ControllerSpec) -> String {
    match spec {
        ControllerSpec::Random => "Random".into(),
        ControllerSpec::Star(star) => format!("Star depth {}", star.depth),
        ControllerSpec::Mcts(mcts) => {
            let kind = match (&mcts.es, &mcts.selection) {
                (Some(_), _) => "ES-MCTS",
                (
                    None,
                    Selection::Uct
                    | Selection::HandCodedUct
                    | Selection::OpenSpielUct
                    | Selection::TwoSigmaUct,
                ) => "UCT",
                (None, Selection::Greedy) => "greedy",
                (None, Selection::Ucb1Tuned) => "UCB1-Tuned",
                (None, Selection::Formula(_) | Selection::FormulaFile(_)) => "formula",
                (None, Selection::Rave { .. }) => "RAVE",
                (None, Selection::Thompson | Selection::ThompsonReshaped) => "Thompson",
            };
            format!("{kind} {}", mcts.sims)
        }
    }
}

/// The league of a person against `opponent` (a controller whose files are already read, see
/// `runfs::resolve_controller`) named `name`, at `game`, every seed from `seed`: the
/// person first, one game per match. A Carcassonne league records the `top` most visited root
/// children of every search (`search_detail`, which leagues keep for Carcassonne only), for
/// the report's viewer and `analyse`. An error names the spec's field and what is wrong, as a
/// league's spec file would.
pub fn person_league(
    game: GameChoice,
    opponent: ControllerSpec,
    name: &str,
    seed: u64,
    top: u16,
) -> Result<LeagueSpec, (String, String)> {
    let mut spec = LeagueSpec {
        name: "play".into(),
        description: format!("A person ({PERSON}) against {name} at {}", game.label()),
        games_per_match: 1,
        seed,
        game,
        rules: Rules::default(),
        bonus: BonusRules::default(),
        es_detail: EsDetail::Summary,
        search_detail: if game.is_carcassonne() {
            SearchDetail::RootChildren(top)
        } else {
            SearchDetail::Off
        },
        controllers: vec![
            Entrant {
                name: PERSON.into(),
                spec: ControllerSpec::Random,
                person: true,
            },
            Entrant {
                name: name.into(),
                spec: opponent,
                person: false,
            },
        ],
    };
    spec.fill_game_defaults();
    spec.check()?;
    Ok(spec)
}

/// The game of `spec` (a [`person_league`]) in which the person sits in `seat` (0 or 1).
pub fn person_job(spec: &LeagueSpec, seat: usize) -> Option<GameJob> {
    let person = spec.controllers.iter().position(|e| e.person)?;
    schedule(spec.seed, spec.controllers.len(), spec.games_per_match)
        .into_iter()
        .find(|job| [job.id.first, job.id.second].get(seat) == Some(&person))
}

/// That `dir` may receive a new game: not the folder of a run, nor inside one. Checked before
/// the game starts, so that no finished game is refused a place.
pub fn check_new_folder(dir: &Path) -> Result<(), LeagueError> {
    evomcts_records::runfs::check_output_folder(dir, &[]).map_err(LeagueError::Folder)
}

/// Records `game`, a finished game of `spec`, in `dir` as a league records its games: the
/// folder created and locked as a league's, `spec.ron` written whole, then the game appended
/// to `games.jsonl` and synced. A folder that holds a run already is refused, as it is by
/// [`check_new_folder`].
pub fn record_game(dir: &Path, spec: &LeagueSpec, game: &LeagueGame) -> Result<(), LeagueError> {
    check_new_folder(dir)?;
    let _lock = RunLock::open_run_folder(
        dir,
        RunKind::League,
        &format!("the game of `{}`", spec.name),
    )?;
    // Once more under the lock: another process may have written here meanwhile.
    let existing = read_records(&record_path(dir))?;
    if !existing.games.is_empty() || dir.join("spec.ron").exists() {
        return Err(LeagueError::AlreadyStarted {
            dir: dir.display().to_string(),
            games: existing.games.len(),
        });
    }
    write_spec_atomically(dir, spec).map_err(|source| LeagueError::Io {
        dir: dir.display().to_string(),
        source,
    })?;
    RecordWriter::open(&record_path(dir), 0)?.append(game)?;
    Ok(())
}

/// Plays `recorded`, a game of `spec`, again from its seeds ([`play_league_game_with`]), the
/// moves of a person's entrant taken from the record: what `replay` compares with the record
/// (for a league without a person, [`super::play_league_game`]).
pub fn replay_league_game(
    spec: &LeagueSpec,
    recorded: &LeagueGame,
    spec_hash: &str,
) -> Result<LeagueGame, LeagueError> {
    if !spec.controllers.iter().any(|e| e.person) {
        return super::play_league_game(spec, &recorded.job, spec_hash);
    }
    let mut moves = RecordedMoves::new(&recorded.game).map_err(|message| LeagueError::Game {
        game: recorded.id(),
        source: evomcts_arena::PlayError::Game(message),
    })?;
    play_league_game_with(spec, &recorded.job, spec_hash, &mut moves)
}
