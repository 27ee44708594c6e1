//! Playing one game between two controller specs, whichever game, and replaying a Pig record.
//! A seat may instead be played by a [`MoveSource`] (`source.rs`): a person, or a person's
//! recorded moves.

use super::choice::{GameChoice, GameTask, RecordKind};
use super::history::{play_history, replay_history, ReplayError, Stated, Step};
use super::record::{PigRecord, PlayedGame};
use super::source::{serialised, MoveSource, NoSource, Shown, Sitter};
use evomcts_games::carcassonne::{play_game, GameError, GameState, Move, Rules};
use evomcts_games::pig::{PigError, PigMove, PigRules, PigState};
use evomcts_games::{Controller, Game, GameRng};
use evomcts_search::mcts::EsDecisionRecord;
use evomcts_search::{Agent, ControllerSpec, SearchSummary};
use rand::SeedableRng;
use serde::Deserialize;
use std::cell::RefCell;

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The spec of the controller in seat `seat` could not be built.
    #[error("seat {seat}: {message}")]
    Controller { seat: usize, message: String },
    #[error(transparent)]
    Carcassonne(#[from] GameError),
    #[error(transparent)]
    Pig(#[from] PigError),
    /// A game without an error type of its own here refused a move or an outcome.
    #[error("{0}")]
    Game(String),
    /// The [`MoveSource`] of seat `seat` gave no move before the game ended.
    #[error("seat {seat}: no move came from outside the searches before the game ended")]
    Unfinished { seat: usize },
}

/// One game and what each seat's controller recorded while playing it.
pub struct SeatedPlay {
    pub game: PlayedGame,
    /// Each seat's ES decisions, in turn order.
    pub es: [Vec<EsDecisionRecord>; 2],
    /// Each seat's search summaries `(turns played before the decision, summary)` when asked
    /// for (`top`); kept for Carcassonne, whose moves the league's records hold.
    pub searches: [Vec<(usize, SearchSummary<Move>)>; 2],
}

/// What both seats of a game share: the source of a [`Sitter::Source`] seat, and the seat
/// whose source had no move. The play loops cannot be stopped by a controller, so from then
/// on both seats play the game's random moves (quick, as a rollout is) and the game is thrown
/// away.
struct Table<'s> {
    source: &'s mut dyn MoveSource,
    stopped: Option<usize>,
    /// The random moves after a stop.
    rng: GameRng,
}

impl Table<'_> {
    fn random<G: Game>(&mut self, state: &G) -> G::Move {
        // At a decision the random player always has a move; were it ever missing, the
        // placeholder move is refused by the game as an error, not a panic.
        state.random_move(&mut self.rng).unwrap_or_default()
    }
}

/// A seat: a controller, keeping the summaries of its searches when asked, or the table's
/// source.
struct Seat<'t, 's, G: Game> {
    seat: usize,
    /// `None`: the source plays this seat.
    agent: Option<Box<dyn Agent<G>>>,
    /// Root children kept per decision; `None`: nothing is kept.
    top: Option<usize>,
    searches: Vec<(usize, SearchSummary<G::Move>)>,
    table: &'t RefCell<Table<'s>>,
}

impl<'t, 's, G: Game> Seat<'t, 's, G> {
    fn build(
        sitter: Sitter,
        seed: u64,
        seat: usize,
        top: Option<usize>,
        table: &'t RefCell<Table<'s>>,
    ) -> Result<Self, PlayError> {
        let agent = match sitter {
            Sitter::Controller(spec) => {
                Some(spec.build::<G>(seed).map_err(|e| PlayError::Controller {
                    seat,
                    message: e.to_string(),
                })?)
            }
            Sitter::Source => None,
        };
        Ok(Seat {
            seat,
            agent,
            top,
            searches: Vec::new(),
            table,
        })
    }

    /// Both seats for `sitters`, each controller seeded with its seat's seed.
    fn both(
        sitters: [Sitter; 2],
        seat_seeds: [u64; 2],
        top: Option<usize>,
        table: &'t RefCell<Table<'s>>,
    ) -> Result<[Self; 2], PlayError> {
        Ok([
            Seat::build(sitters[0], seat_seeds[0], 0, top, table)?,
            Seat::build(sitters[1], seat_seeds[1], 1, top, table)?,
        ])
    }

    fn take_decision_records(&mut self) -> Vec<EsDecisionRecord> {
        self.agent
            .as_mut()
            .map_or_else(Vec::new, |agent| agent.take_decision_records())
    }
}

impl<G: Game> Controller<G> for Seat<'_, '_, G> {
    fn choose_move(&mut self, state: &G) -> G::Move {
        let mut table = self.table.borrow_mut();
        if table.stopped.is_some() {
            return table.random(state);
        }
        let Some(agent) = &mut self.agent else {
            let chosen = table.source.choose(&Shown(state));
            return match chosen.and_then(|value| G::Move::deserialize(value).ok()) {
                Some(mv) => mv,
                None => {
                    table.stopped = Some(self.seat);
                    table.random(state)
                }
            };
        };
        let mv = agent.choose_move(state);
        if let Some(top) = self.top {
            if let Some(search) = agent.search_summary(top) {
                self.searches.push((state.turns_played(), search));
            }
        }
        if table.source.hears() {
            let shown = table.source.root_children();
            let search = (shown > 0).then(|| agent.search_summary(shown)).flatten();
            let search = search.map(|s| s.map_moves(serialised));
            table.source.answered(serialised(&mv), search.as_ref());
        }
        mv
    }
}

/// The result of a game's play loop, unless a source gave no move in it (whatever the loop
/// made of the random moves after that).
fn unless_stopped<T, E: Into<PlayError>>(
    result: Result<T, E>,
    table: &RefCell<Table>,
) -> Result<T, PlayError> {
    if let Some(seat) = table.borrow().stopped {
        return Err(PlayError::Unfinished { seat });
    }
    result.map_err(Into::into)
}

/// What each seat recorded: its ES decisions and its search summaries.
type SeatRecords<M> = (Vec<EsDecisionRecord>, Vec<(usize, SearchSummary<M>)>);

fn seat_records<G: Game>(seats: [Seat<G>; 2]) -> [SeatRecords<G::Move>; 2] {
    seats.map(|mut seat| (seat.take_decision_records(), seat.searches))
}

/// Plays one game of `game` (Carcassonne under `rules`) on the chance events of `seed`, the
/// controller of `specs[s]` seeded with `seat_seeds[s]` in seat `s`. Search summaries are kept
/// for Carcassonne when `top` asks (a spec asking for them for another game is refused where
/// it is read). A controller's illegal move is an error, not a panic.
pub fn play_seated(
    game: GameChoice,
    rules: Rules,
    seed: u64,
    specs: [&ControllerSpec; 2],
    seat_seeds: [u64; 2],
    top: Option<usize>,
) -> Result<SeatedPlay, PlayError> {
    let sitters = specs.map(Sitter::Controller);
    play_seated_with(game, rules, seed, sitters, seat_seeds, top, &mut NoSource)
}

/// [`play_seated`] where a seat may be played by `source` ([`Sitter::Source`]), which is also
/// told every move of a controller seat. A source that gives no move ends the game
/// unfinished ([`PlayError::Unfinished`]); a source's illegal move is an error, as a
/// controller's is.
pub fn play_seated_with(
    game: GameChoice,
    rules: Rules,
    seed: u64,
    sitters: [Sitter; 2],
    seat_seeds: [u64; 2],
    top: Option<usize>,
    source: &mut dyn MoveSource,
) -> Result<SeatedPlay, PlayError> {
    let table = RefCell::new(Table {
        source,
        stopped: None,
        rng: GameRng::seed_from_u64(seed),
    });
    match game.describe().record {
        RecordKind::Carcassonne => {
            let [mut first, mut second] =
                Seat::<GameState>::both(sitters, seat_seeds, top, &table)?;
            let played = play_game(rules, seed, [&mut first, &mut second]);
            let (_, record) = unless_stopped(played, &table)?;
            let [(es0, s0), (es1, s1)] = seat_records([first, second]);
            Ok(SeatedPlay {
                game: PlayedGame::Carcassonne(record),
                es: [es0, es1],
                searches: [s0, s1],
            })
        }
        RecordKind::Pig(pig) => {
            let [mut first, mut second] =
                Seat::<PigState>::both(sitters, seat_seeds, None, &table)?;
            let played = play_pig(pig, seed, [&mut first, &mut second]);
            let record = unless_stopped(played, &table)?;
            let [(es0, _), (es1, _)] = seat_records([first, second]);
            Ok(SeatedPlay {
                game: PlayedGame::Pig(record),
                es: [es0, es1],
                searches: [Vec::new(), Vec::new()],
            })
        }
        // Every other game keeps its history (`arena::history`).
        RecordKind::History => game
            .dispatch_with_rules(
                rules,
                PlayHistory {
                    choice: game,
                    seed,
                    sitters,
                    seat_seeds,
                    table: &table,
                },
            )
            .map_err(PlayError::Game)?,
    }
}

/// [`play_seated_with`] for a game recorded by its history.
struct PlayHistory<'a, 't, 's> {
    choice: GameChoice,
    seed: u64,
    sitters: [Sitter<'a>; 2],
    seat_seeds: [u64; 2],
    table: &'t RefCell<Table<'s>>,
}

impl GameTask for PlayHistory<'_, '_, '_> {
    type Output = Result<SeatedPlay, PlayError>;
    fn run<G: Game>(self, start: G) -> Self::Output {
        let [mut first, mut second] =
            Seat::<G>::both(self.sitters, self.seat_seeds, None, self.table)?;
        let played = play_history(self.choice, start, self.seed, [&mut first, &mut second])
            .map_err(PlayError::Game);
        let record = unless_stopped(played, self.table)?;
        let [(es0, _), (es1, _)] = seat_records([first, second]);
        Ok(SeatedPlay {
            game: PlayedGame::History(record),
            es: [es0, es1],
            searches: [Vec::new(), Vec::new()],
        })
    }
}

/// The play loop of a game whose chance events are sampled: decisions go to the controller of
/// the player to move, chance events draw from one RNG seeded with `seed`, so both seatings of
/// a seed meet the same stream of outcomes (common random numbers). Ends when the game is
/// over, or when a chance event ends it without an outcome.
pub fn play_sampled<G: Game>(
    mut state: G,
    seed: u64,
    controllers: [&mut dyn Controller<G>; 2],
    mut observe: impl FnMut(&G, Step<G::Move>),
) -> Result<G, G::Error> {
    let mut chance = GameRng::seed_from_u64(seed);
    let mut labels = Vec::new();
    while !state.is_over() {
        if state.at_decision() {
            let player = state.to_move();
            let mv = controllers[player].choose_move(&state);
            state.apply_move(mv)?;
            observe(&state, Step::Moved { player, mv });
        } else {
            labels.clear();
            state.chance_slots(|label| labels.push(label));
            match state.sample_chance(&mut chance) {
                Some(slot) => observe(
                    &state,
                    Step::Chance {
                        outcome: labels[slot],
                    },
                ),
                None => break,
            }
        }
    }
    Ok(state)
}

/// One game of Pig on the dice of `seed`.
pub fn play_pig(
    rules: PigRules,
    seed: u64,
    controllers: [&mut dyn Controller<PigState>; 2],
) -> Result<PigRecord, PigError> {
    let mut record = PigRecord {
        dice_seed: seed,
        pig: rules,
        moves: Vec::new(),
        rolls: Vec::new(),
        final_scores: [0; 2],
        turns: [0; 2],
    };
    let end = play_sampled(
        PigState::new(rules)?,
        seed,
        controllers,
        |_, step| match step {
            Step::Moved { player, mv } => {
                record.moves.push(mv);
                record.turns[player] = record.turns[player].saturating_add(1);
            }
            Step::Chance { outcome } => record.rolls.push(outcome),
        },
    )?;
    record.final_scores = end.scores();
    Ok(record)
}

/// Why a Pig record does not replay.
pub type PigReplayError = ReplayError;

/// Replays a Pig record's moves and rolls, checking each is legal and that the replayed final
/// scores are the recorded ones; returns the final state.
pub fn replay_pig(record: &PigRecord) -> Result<PigState, PigReplayError> {
    replay_pig_observed(record, |_, _| {})
}

/// [`replay_pig`], calling `observe(state, step)` after every move and roll.
pub fn replay_pig_observed(
    record: &PigRecord,
    observe: impl FnMut(&PigState, Step<PigMove>),
) -> Result<PigState, PigReplayError> {
    let start = PigState::new(record.pig).map_err(|e| ReplayError::Rules(e.to_string()))?;
    replay_history(
        start,
        record.moves.iter().map(|&mv| Ok(mv)),
        &record.rolls,
        Stated {
            final_scores: record.final_scores,
            turns: record.turns,
        },
        observe,
    )
}
