//! Playing one game between two controller specs, whichever game, and replaying a Pig record.

use super::choice::GameChoice;
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
    match game {
        GameChoice::Carcassonne => {
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
        GameChoice::Pig(pig) => {
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
    }
}

/// What [`play_sampled`] reports after each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<M> {
    Moved {
        player: usize,
        mv: M,
    },
    /// A chance event resolved with the outcome in `slot` of [`Game::chance_slots`].
    Chance {
        slot: usize,
    },
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
    while !state.is_over() {
        if state.at_decision() {
            let player = state.to_move();
            let mv = controllers[player].choose_move(&state);
            state.apply_move(mv)?;
            observe(&state, Step::Moved { player, mv });
        } else {
            match state.sample_chance(&mut chance) {
                Some(slot) => observe(&state, Step::Chance { slot }),
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
            // Pig's slots are the faces in order: slot s is face s + 1.
            Step::Chance { slot } => record.rolls.push(slot as u8 + 1),
        },
    )?;
    record.final_scores = end.scores();
    Ok(record)
}

/// Why a Pig record does not replay.
#[derive(Debug, thiserror::Error)]
pub enum PigReplayError {
    #[error("the record's rules: {0}")]
    Rules(PigError),
    #[error("the record ends before the game does: no {0} left")]
    RunsOut(&'static str),
    #[error("the game ends with {moves} moves and {rolls} rolls of the record unplayed")]
    Unplayed { moves: usize, rolls: usize },
    #[error("move {index}: {source}")]
    Move { index: usize, source: PigError },
    #[error("roll {index}: {source}")]
    Roll { index: usize, source: PigError },
    #[error("the replayed final scores {replayed:?} differ from the recorded {recorded:?}")]
    Scores {
        replayed: [i32; 2],
        recorded: [i32; 2],
    },
}

/// Replays a Pig record's moves and rolls, checking each is legal and that the replayed final
/// scores are the recorded ones; returns the final state.
pub fn replay_pig(record: &PigRecord) -> Result<PigState, PigReplayError> {
    replay_pig_observed(record, |_, _| {})
}

/// [`replay_pig`], calling `observe(state, step)` after every move and roll.
pub fn replay_pig_observed(
    record: &PigRecord,
    mut observe: impl FnMut(&PigState, Step<PigMove>),
) -> Result<PigState, PigReplayError> {
    let mut state = PigState::new(record.pig).map_err(PigReplayError::Rules)?;
    let (mut moves, mut rolls) = (
        record.moves.iter().enumerate(),
        record.rolls.iter().enumerate(),
    );
    while !state.is_over() {
        if state.at_decision() {
            let (index, &mv) = moves.next().ok_or(PigReplayError::RunsOut("move"))?;
            let player = state.to_move();
            state
                .apply_move(mv)
                .map_err(|source| PigReplayError::Move { index, source })?;
            observe(&state, Step::Moved { player, mv });
        } else {
            let (index, &face) = rolls.next().ok_or(PigReplayError::RunsOut("roll"))?;
            state
                .apply_outcome(face)
                .map_err(|source| PigReplayError::Roll { index, source })?;
            observe(
                &state,
                Step::Chance {
                    slot: usize::from(face.saturating_sub(1)),
                },
            );
        }
    }
    let (moves, rolls) = (moves.count(), rolls.count());
    if moves + rolls > 0 {
        return Err(PigReplayError::Unplayed { moves, rolls });
    }
    if state.scores() != record.final_scores {
        return Err(PigReplayError::Scores {
            replayed: state.scores(),
            recorded: record.final_scores,
        });
    }
    Ok(state)
}
