//! Playing one game between two controller specs, whichever game, and replaying a Pig record.

use super::choice::{GameChoice, GameTask, RecordKind};
use super::history::{play_history, replay_history, ReplayError, Step};
use super::record::{PigRecord, PlayedGame};
use evomcts_games::carcassonne::{play_game, GameError, GameState, Move, Rules};
use evomcts_games::pig::{PigError, PigMove, PigRules, PigState};
use evomcts_games::{Controller, Game, GameRng};
use evomcts_search::mcts::EsDecisionRecord;
use evomcts_search::{Agent, ControllerSpec, SearchSummary};
use rand::SeedableRng;

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

/// A controller in its seat, keeping the summaries of its searches when asked.
struct Seat<G: Game> {
    agent: Box<dyn Agent<G>>,
    /// Root children kept per decision; `None`: nothing is kept.
    top: Option<usize>,
    searches: Vec<(usize, SearchSummary<G::Move>)>,
}

impl<G: Game> Seat<G> {
    fn build(
        spec: &ControllerSpec,
        seed: u64,
        seat: usize,
        top: Option<usize>,
    ) -> Result<Self, PlayError> {
        let agent = spec.build::<G>(seed).map_err(|e| PlayError::Controller {
            seat,
            message: e.to_string(),
        })?;
        Ok(Seat {
            agent,
            top,
            searches: Vec::new(),
        })
    }
}

impl<G: Game> Controller<G> for Seat<G> {
    fn choose_move(&mut self, state: &G) -> G::Move {
        let mv = self.agent.choose_move(state);
        if let Some(top) = self.top {
            if let Some(search) = self.agent.search_summary(top) {
                self.searches.push((state.turns_played(), search));
            }
        }
        mv
    }
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
    match game.describe().record {
        RecordKind::Carcassonne => {
            let mut first = Seat::<GameState>::build(specs[0], seat_seeds[0], 0, top)?;
            let mut second = Seat::<GameState>::build(specs[1], seat_seeds[1], 1, top)?;
            let (_, record) = play_game(rules, seed, [&mut first, &mut second])?;
            Ok(SeatedPlay {
                game: PlayedGame::Carcassonne(record),
                es: [
                    first.agent.take_decision_records(),
                    second.agent.take_decision_records(),
                ],
                searches: [first.searches, second.searches],
            })
        }
        RecordKind::Pig(pig) => {
            let mut first = Seat::<PigState>::build(specs[0], seat_seeds[0], 0, None)?;
            let mut second = Seat::<PigState>::build(specs[1], seat_seeds[1], 1, None)?;
            let record = play_pig(pig, seed, [&mut first, &mut second])?;
            Ok(SeatedPlay {
                game: PlayedGame::Pig(record),
                es: [
                    first.agent.take_decision_records(),
                    second.agent.take_decision_records(),
                ],
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
                    specs,
                    seat_seeds,
                },
            )
            .map_err(PlayError::Game)?,
    }
}

/// [`play_seated`] for a game recorded by its history.
struct PlayHistory<'a> {
    choice: GameChoice,
    seed: u64,
    specs: [&'a ControllerSpec; 2],
    seat_seeds: [u64; 2],
}

impl GameTask for PlayHistory<'_> {
    type Output = Result<SeatedPlay, PlayError>;
    fn run<G: Game>(self, start: G) -> Self::Output {
        let mut first = Seat::<G>::build(self.specs[0], self.seat_seeds[0], 0, None)?;
        let mut second = Seat::<G>::build(self.specs[1], self.seat_seeds[1], 1, None)?;
        let record = play_history(self.choice, start, self.seed, [&mut first, &mut second])
            .map_err(PlayError::Game)?;
        Ok(SeatedPlay {
            game: PlayedGame::History(record),
            es: [
                first.agent.take_decision_records(),
                second.agent.take_decision_records(),
            ],
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
        record.final_scores,
        observe,
    )
}
