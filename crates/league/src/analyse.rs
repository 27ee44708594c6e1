//! `evomcts analyse`: the position of a recorded decision, rebuilt through the one replay loop
//! (`game::replay_observed`), searched again by a controller, with what its search found.
//!
//! A controller keeps its random stream from one decision to the next, so the entrant that
//! played a decision repeats its search only after its earlier decisions of the game: it is
//! built with its seat's seed and taken through each of them (each must choose the recorded
//! move), then searches the position. Any other controller searches the position fresh.

use super::records::LeagueGame;
use super::report::TextTable;
use super::spec::LeagueSpec;
use evomcts_games::carcassonne::{
    replay_observed, GameError, GameRecord, GameState, Move, ReplayStep,
};
use evomcts_games::MOVE_FEATURE_SYMBOLS;
use evomcts_search::mcts::RootSummary;
use evomcts_search::{Agent, ControllerSpec, SearchSummary};
use serde::Serialize;

/// Who searches the position.
#[derive(Clone, Debug, PartialEq)]
pub enum Analyst {
    /// An entrant of the league, by name. The entrant that played the decision searches as it
    /// played it (its seat's seed, its earlier decisions of the game, the same search); any
    /// other entrant searches afresh with seed 0.
    Entrant(String),
    /// Any controller, built afresh with `seed`, searching the position once.
    Fresh { spec: ControllerSpec, seed: u64 },
}

/// What a controller's search found in a recorded position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// The turn as the viewer counts it: the position before the turn's move (from 1).
    pub turn: usize,
    /// The seat to move, 0 or 1.
    pub player: usize,
    /// Whether the search repeated the recorded decision (the entrant that played it, with
    /// its seat's seed after its earlier decisions), rather than a fresh search.
    pub repeats_decision: bool,
    /// The move the record holds.
    pub played: Move,
    /// The move the analysing controller chose.
    pub chosen: Move,
    /// What its search found (`None` for a controller that does not search).
    pub search: Option<SearchSummary<evomcts_games::carcassonne::Move>>,
    /// What the league recorded of the decision's search (with `search_detail`).
    pub recorded: Option<SearchSummary<evomcts_games::carcassonne::Move>>,
}

impl Analysis {
    /// Whether the search found what the record holds: the same simulations and the same
    /// root children as far as both keep them. `None` without a record to compare.
    pub fn reproduces_record(&self) -> Option<bool> {
        let recorded = self.recorded.as_ref()?;
        let found = self.search.as_ref()?;
        Some(match (recorded, found) {
            (SearchSummary::Mcts(r), SearchSummary::Mcts(f)) => {
                r.simulations == f.simulations
                    && r.es_simulations == f.es_simulations
                    && r.legal_moves == f.legal_moves
                    && {
                        let shown = r.children.len().min(f.children.len());
                        r.children[..shown] == f.children[..shown]
                    }
            }
            (r, f) => r == f,
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    #[error("--turn {turn}: game {game} has turns 1 to {moves} (turn T is the position before the T-th move)")]
    NoSuchTurn {
        game: String,
        turn: usize,
        moves: usize,
    },
    #[error("game {game} does not replay: {source}")]
    Replay { game: String, source: GameError },
    #[error("`{0}` is not an entrant of the league")]
    NoSuchEntrant(String),
    #[error(
        "game {game} is a game of {label}: decisions are analysed in Carcassonne leagues only"
    )]
    NotCarcassonne { game: String, label: String },
    #[error("controller `{name}` could not be built: {message}")]
    Controller { name: String, message: String },
    #[error("`{name}` is a person, who played without a search to repeat: name a controller (`--controller 'Mcts(sims: 1000)'`) to search the position")]
    Person { name: String },
    #[error("game {game}: at turn {turn} `{name}` chose {chosen}, but the record holds {recorded}: the controller no longer plays as recorded (different code or spec)")]
    Diverged {
        game: String,
        name: String,
        turn: usize,
        chosen: Move,
        recorded: Move,
    },
}

/// The positions of every decision up to and including turn `turn` (from 1), with their
/// turn (from 0) and mover.
fn decision_positions(
    game: &LeagueGame,
    record: &GameRecord,
    turn: usize,
) -> Result<Vec<(usize, usize, GameState)>, AnalyseError> {
    let mut positions = Vec::with_capacity(turn);
    replay_observed(record, |state, step| {
        if let ReplayStep::ToMove {
            turn: at, player, ..
        } = step
        {
            if at < turn {
                positions.push((at, player, state.clone()));
            }
        }
    })
    .map_err(|source| AnalyseError::Replay {
        game: game.id().to_string(),
        source,
    })?;
    Ok(positions)
}

/// Searches the position before move `turn` (from 1) of `game`, a game of the league `spec`,
/// with `analyst`, keeping the `top` most visited root children.
pub fn analyse_turn(
    spec: &LeagueSpec,
    game: &LeagueGame,
    turn: usize,
    analyst: &Analyst,
    top: usize,
) -> Result<Analysis, AnalyseError> {
    let record = game
        .game
        .carcassonne()
        .ok_or_else(|| AnalyseError::NotCarcassonne {
            game: game.id().to_string(),
            label: game.game.label(),
        })?;
    let moves = record.moves.len();
    if turn == 0 || turn > moves {
        return Err(AnalyseError::NoSuchTurn {
            game: game.id().to_string(),
            turn,
            moves,
        });
    }
    let positions = decision_positions(game, record, turn)?;
    let (decision, player, position) = positions.last().expect("turn is within the game");
    let (decision, player) = (*decision, *player);
    let mover = &spec.controllers[[game.id().first, game.id().second][player]];
    let build = |spec: &ControllerSpec, name: &str, seed: u64| {
        spec.build(seed).map_err(|err| AnalyseError::Controller {
            name: name.to_string(),
            message: err.to_string(),
        })
    };
    let repeats_decision = matches!(analyst, Analyst::Entrant(name) if *name == mover.name);
    if repeats_decision && mover.person {
        return Err(AnalyseError::Person {
            name: mover.name.clone(),
        });
    }
    let mut agent: Box<dyn Agent<evomcts_games::carcassonne::GameState>> = match analyst {
        Analyst::Entrant(_) if repeats_decision => {
            let mut agent = build(&mover.spec, &mover.name, game.job.controller_seeds[player])?;
            for (at, _, earlier) in positions
                .iter()
                .filter(|(at, mover, _)| *mover == player && *at < decision)
            {
                let chosen = agent.choose_move(earlier);
                if chosen != record.moves[*at] {
                    return Err(AnalyseError::Diverged {
                        game: game.id().to_string(),
                        name: mover.name.clone(),
                        turn: at + 1,
                        chosen,
                        recorded: record.moves[*at],
                    });
                }
            }
            agent
        }
        Analyst::Entrant(name) => {
            let entrant = spec
                .controllers
                .iter()
                .find(|e| e.name == *name)
                .ok_or_else(|| AnalyseError::NoSuchEntrant(name.clone()))?;
            build(&entrant.spec, name, 0)?
        }
        Analyst::Fresh { spec, seed } => build(spec, "--controller", *seed)?,
    };
    let chosen = agent.choose_move(position);
    Ok(Analysis {
        turn,
        player,
        repeats_decision,
        played: record.moves[decision],
        chosen,
        search: agent.search_summary(top),
        // Shown like the search: its `top` most visited children (the record may keep more).
        recorded: game.search[player]
            .iter()
            .find(|d| d.turn == decision)
            .map(|d| match &d.search {
                SearchSummary::Mcts(root) => SearchSummary::Mcts(RootSummary {
                    children: root.children.iter().take(top).cloned().collect(),
                    ..root.clone()
                }),
                other => other.clone(),
            }),
    })
}

/// A number for people: three decimals, `-` when absent.
fn decimals(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.3}"))
}

/// The root children a search found, most visited first, as a table: the move, its visits and
/// their share of the simulations, its mean reward Q, the knowledge terminals when the policy
/// reads them, and which move was played and chosen. Moves of any game that shows them
/// (`evomcts play` shows a game's moves in its own notation).
pub fn search_table<M: std::fmt::Display + PartialEq>(
    title: &str,
    summary: &SearchSummary<M>,
    played: &M,
    chosen: &M,
) -> TextTable {
    let mark = |mv: &M| match (mv == played, mv == chosen) {
        (true, true) => "played, chosen",
        (true, false) => "played",
        (false, true) => "chosen",
        (false, false) => "",
    };
    match summary {
        SearchSummary::Mcts(root) => {
            let with_features = root.children.iter().any(|c| c.features.is_some());
            TextTable {
                title: format!(
                    "{title}: {} simulations{}, {} legal moves, the {} most visited",
                    root.simulations,
                    if root.es_simulations > 0 {
                        format!(" (+{} scoring ES candidates)", root.es_simulations)
                    } else {
                        String::new()
                    },
                    root.legal_moves,
                    root.children.len()
                ),
                // The move features' columns only when the search computed them.
                headers: ["rank", "move", "visits", "share", "Q", "H", "p"]
                    .into_iter()
                    .chain(
                        with_features
                            .then_some(MOVE_FEATURE_SYMBOLS)
                            .into_iter()
                            .flatten(),
                    )
                    .chain([""])
                    .map(String::from)
                    .collect(),
                rows: root
                    .children
                    .iter()
                    .enumerate()
                    .map(|(i, child)| {
                        let share = (root.simulations > 0)
                            .then(|| 100.0 * f64::from(child.visits) / root.simulations as f64);
                        let mut row = vec![
                            (i + 1).to_string(),
                            child.mv.to_string(),
                            child.visits.to_string(),
                            share.map_or_else(|| "-".into(), |s| format!("{s:.1}%")),
                            decimals(Some(child.q)),
                            decimals(child.heuristic),
                            decimals(child.prior),
                        ];
                        if with_features {
                            let features = child.features.map(|f| f.map(Some));
                            row.extend(features.unwrap_or_default().map(decimals));
                        }
                        row.push(mark(&child.mv).to_string());
                        row
                    })
                    .collect(),
            }
        }
        SearchSummary::Star { value, nodes } => TextTable {
            title: format!("{title}: *-minimax"),
            headers: ["move", "value", "nodes", ""].map(String::from).to_vec(),
            rows: vec![vec![
                chosen.to_string(),
                decimals(*value),
                nodes.to_string(),
                mark(chosen).to_string(),
            ]],
        },
    }
}
