//! A native game that is the same game as one of OpenSpiel's, and the trace that proves it.
//!
//! A game with an OpenSpiel equivalent implements [`OpenSpielTwin`]: the name and parameters
//! `pyspiel.load_game` takes, OpenSpiel's action id of each legal move and of each chance
//! outcome, and OpenSpiel's returns at the end. [`trace`] plays one seeded random game through
//! the [`Game`] interface and writes down, at every step, what OpenSpiel must agree with: the
//! player to move (−1 at a chance event, as `pyspiel.PlayerId.CHANCE`), the legal action ids,
//! the chance outcomes with their probabilities, the action taken; and at the end the returns.
//! The Python suite replays each trace in OpenSpiel and compares step by step
//! (`python/tests/test_native_oracle.py`); the command line prints traces
//! (`evomcts oracle`).
//!
//! The random player of a trace picks uniformly among the legal moves and draws chance
//! outcomes by their weights, from one `GameRng` seeded by the trace's seed, so a failure
//! names the seed and the step and reproduces exactly.
//!
//! Architecture invariant: no I/O; the trace is data for a front end to print.

use rand::{Rng, SeedableRng};
use serde::Serialize;

use super::{draw_weighted, ChanceOutcome, Game, GameRng};

/// A parameter of an OpenSpiel game, as `pyspiel.load_game(name, {key: value})` takes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum OpenSpielParam {
    Int(i64),
    Bool(bool),
    Double(f64),
    Str(String),
}

/// Which OpenSpiel game a native game is: its registered name and the parameters that make
/// it this variant (only those that differ from OpenSpiel's defaults need be listed, but
/// listing them all is clearer).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenSpielName {
    pub name: &'static str,
    pub params: Vec<(&'static str, OpenSpielParam)>,
}

/// The map from a native game to its OpenSpiel equivalent. Every method is pure and cheap;
/// the trace checks that the action ids of a decision's legal moves are distinct, so a move
/// is found again from its id ([`move_of_action`]).
pub trait OpenSpielTwin: Game {
    /// OpenSpiel's game (name and parameters) this state's game is.
    fn open_spiel_name(&self) -> OpenSpielName;

    /// OpenSpiel's action id of `mv`, a legal move of this decision.
    fn open_spiel_action(&self, mv: Self::Move) -> i64;

    /// OpenSpiel's action id of the chance outcome `label` (one of
    /// [`Game::chance_outcomes`] of this chance event).
    fn open_spiel_outcome(&self, label: u8) -> i64;

    /// OpenSpiel's returns of a finished game, player 0 first.
    fn open_spiel_returns(&self) -> [f64; 2];
}

/// The legal move of this decision whose OpenSpiel action id is `action`, if any.
pub fn move_of_action<G: OpenSpielTwin>(state: &G, action: i64) -> Option<G::Move> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .find(|&mv| state.open_spiel_action(mv) == action)
}

/// One step of a trace: the state before the action, as OpenSpiel must see it too.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStep {
    /// The player to move, or −1 at a chance event.
    pub player: i64,
    /// The legal action ids, ascending (empty at a chance event).
    pub legal: Vec<i64>,
    /// The chance outcomes as (action id, probability), ascending by id (empty at a
    /// decision).
    pub chance: Vec<(i64, f64)>,
    /// The action id taken.
    pub action: i64,
}

/// A seeded random game as OpenSpiel must play it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Trace {
    pub seed: u64,
    pub steps: Vec<TraceStep>,
    /// OpenSpiel's returns at the end, player 0 first.
    pub returns: [f64; 2],
}

/// Steps after which a trace counts as hung (no game of the repository comes near).
pub const MAX_TRACE_STEPS: usize = 100_000;

/// Plays one random game from `start`, seeded by `seed`, and returns its trace. An error
/// names the step where the game broke its own interface: two legal moves with one action
/// id, a move or an outcome it refuses, a chance event without outcomes, a game that does
/// not end.
pub fn trace<G: OpenSpielTwin>(start: &G, seed: u64) -> Result<Trace, String> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut state = start.clone();
    let mut steps = Vec::new();
    let mut moves = Vec::new();
    let mut outcomes: Vec<ChanceOutcome> = Vec::new();
    while !state.is_over() {
        let at = steps.len();
        if at == MAX_TRACE_STEPS {
            return Err(format!("seed {seed}: no end after {at} steps"));
        }
        let step = if state.at_decision() {
            decision_step(&mut state, &mut moves, &mut rng)
        } else {
            chance_step(&mut state, &mut outcomes, &mut rng)
        }
        .map_err(|e| format!("seed {seed}, step {at}: {e}"))?;
        steps.push(step);
    }
    Ok(Trace {
        seed,
        steps,
        returns: state.open_spiel_returns(),
    })
}

/// A decision: the legal moves' ids, one picked uniformly and played.
fn decision_step<G: OpenSpielTwin>(
    state: &mut G,
    moves: &mut Vec<G::Move>,
    rng: &mut GameRng,
) -> Result<TraceStep, String> {
    moves.clear();
    state.legal_moves(moves);
    if moves.is_empty() {
        return Err("a decision without legal moves".into());
    }
    let mut legal: Vec<i64> = moves
        .iter()
        .map(|&mv| state.open_spiel_action(mv))
        .collect();
    legal.sort_unstable();
    if let Some(twice) = legal.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("two legal moves map to action {}", twice[0]));
    }
    let mv = moves[rng.gen_range(0..moves.len())];
    let action = state.open_spiel_action(mv);
    if move_of_action(state, action) != Some(mv) {
        return Err(format!("action {action} does not map back to {mv:?}"));
    }
    let step = TraceStep {
        player: state.to_move() as i64,
        legal,
        chance: Vec::new(),
        action,
    };
    state
        .apply_move(mv)
        .map_err(|e| format!("legal move {mv:?} refused: {e}"))?;
    Ok(step)
}

/// A chance event: its outcomes' ids and probabilities, one drawn by weight and applied.
fn chance_step<G: OpenSpielTwin>(
    state: &mut G,
    outcomes: &mut Vec<ChanceOutcome>,
    rng: &mut GameRng,
) -> Result<TraceStep, String> {
    state.chance_outcomes(outcomes);
    let total: f64 = outcomes.iter().map(|o| o.weight).sum();
    if outcomes.is_empty() || total <= 0.0 || !total.is_finite() {
        return Err("a chance event without outcomes".into());
    }
    let mut chance: Vec<(i64, f64)> = outcomes
        .iter()
        .map(|o| (state.open_spiel_outcome(o.label), o.weight / total))
        .collect();
    chance.sort_by_key(|&(id, _)| id);
    let label = draw_weighted(outcomes, rng).ok_or("a chance event without outcomes")?;
    let action = state.open_spiel_outcome(label);
    state
        .apply_outcome(label)
        .map_err(|e| format!("outcome {label} refused: {e}"))?;
    Ok(TraceStep {
        player: -1,
        legal: Vec::new(),
        chance,
        action,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect_four::{ConnectFourMove, ConnectFourState};

    /// A trace of Connect Four: player 0 first, alternating, ends with ±1 or a draw, every
    /// step's action among its legal ones.
    #[test]
    fn connect_four_traces() {
        let t = trace(&ConnectFourState::new(), 7).unwrap();
        assert!(t.steps.len() >= 7);
        for (i, s) in t.steps.iter().enumerate() {
            assert_eq!(s.player, (i % 2) as i64);
            assert!(s.legal.contains(&s.action));
            assert!(s.chance.is_empty());
        }
        assert_eq!(t.returns[0], -t.returns[1]);
        assert_eq!(trace(&ConnectFourState::new(), 7).unwrap(), t, "seeded");
        let start = ConnectFourState::new();
        assert_eq!(move_of_action(&start, 3), Some(ConnectFourMove(3)));
        assert_eq!(move_of_action(&start, 9), None);
    }
}
