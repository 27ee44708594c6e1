//! A game implemented outside Rust's type system: a state reached through a trait object
//! ([`ExternalState`], modelled one to one on OpenSpiel's `State`), and [`ExternalGame`], the
//! [`Game`] over it, so every search, league and record runs on such a game. This crate knows
//! no Python: a binding (pyo3 over `pyspiel`) implements `ExternalState` elsewhere.
//!
//! Decisions, as [`ExternalGame`] maps OpenSpiel's model onto [`Game`]:
//! - a move is an action ([`ExternalMove`]); legal moves are `legal_actions`, in its order;
//! - a chance outcome's label is its index in `chance_outcomes` (slot = label), so a chance
//!   node has at most [`MAX_CHANCE_OUTCOMES`]: a game that may have more is refused by
//!   [`ExternalGame::new`] (it asks `max_chance_outcomes`), and an outcome list longer than
//!   that at run time (a state breaking its promise) is an error of `apply_outcome` and a
//!   panic of `sample_chance`, never silently cut;
//! - `turns_played` counts the decisions taken through the wrapper (OpenSpiel's `move_number`
//!   counts chance outcomes too);
//! - `scores` are the returns rounded to whole numbers; the evaluation uses the exact returns;
//! - `to_move` away from a decision (OpenSpiel's chance and terminal players) is the player who
//!   took the last decision, 0 before any.
//!
//! Cost: every method calls the state through the trait object (for a binding, a call into
//! another language); `&self` methods that need a list use a per-thread buffer, so nothing
//! allocates on the searches' paths but a clone (`clone_box`) and `chance_outcomes`, which
//! clones and applies once per outcome to say what follows it (only exact searches call it).
//! `apply_move` checks the action against `legal_actions` first (OpenSpiel's `apply_action`
//! need not); rollouts skip that check for the actions they draw from the list.

use std::cell::RefCell;
use std::fmt::Debug;
use std::sync::Arc;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, Objective};
use ExternalErrorKind as Kind;

/// Who acts in a state: OpenSpiel's `current_player()`, whose chance (−1) and terminal (−4)
/// ids become variants.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExternalPlayer {
    /// A decision of player 0 or 1 (a two-player game; any other number breaks the contract).
    Player(usize),
    /// A chance node: `chance_outcomes` lists what may happen.
    Chance,
    /// The end: `returns` are final.
    Terminal,
}

/// A state of a two-player game with chance, sequential moves and integer actions, as an
/// OpenSpiel `State` exposes it; each method names the OpenSpiel method it is. A method
/// that fills a `Vec` gets it empty. The state must not change but by `apply_action`.
/// Searches run on several threads, each on its own clones: no method may rely on a lock
/// held by the caller (a Python binding takes the GIL in each one).
pub trait ExternalState: Send + Sync + Debug {
    /// An independent copy (OpenSpiel: `clone`).
    fn clone_box(&self) -> Box<dyn ExternalState>;
    /// Who acts now (OpenSpiel: `current_player`).
    fn current_player(&self) -> ExternalPlayer;
    /// At a decision, the legal actions in the game's order, each once; nothing elsewhere
    /// (OpenSpiel: `legal_actions`).
    fn legal_actions(&self, out: &mut Vec<i64>);
    /// Plays a legal action at a decision or a listed outcome at a chance node (OpenSpiel:
    /// `apply_action`); `Err` says why it was refused (a binding's exception, say).
    fn apply_action(&mut self, action: i64) -> Result<(), String>;
    /// At a chance node, the outcomes as (action, probability), summing to 1, in a fixed order
    /// (OpenSpiel: `chance_outcomes`).
    fn chance_outcomes(&self, out: &mut Vec<(i64, f64)>);
    /// Each player's return so far, final at the end (OpenSpiel: `returns`).
    fn returns(&self) -> [f64; 2];
    /// Actions and chance outcomes applied since the game's start (OpenSpiel: `move_number`).
    fn move_number(&self) -> usize;
    /// The state for people (OpenSpiel: `to_string`, Python's `str(state)`).
    fn text(&self) -> String;
    /// The most outcomes any chance node of the game has (OpenSpiel:
    /// `get_game().max_chance_outcomes()`); read once, by [`ExternalGame::new`].
    fn max_chance_outcomes(&self) -> usize;
    /// The game's name, for messages (OpenSpiel: `get_game().get_type().short_name`); read
    /// once, by [`ExternalGame::new`].
    fn game_name(&self) -> String;
    /// The sum every final result's returns have, when the game promises one (OpenSpiel's
    /// zero-sum and constant-sum games); `None` when results need not sum to a constant.
    fn constant_sum(&self) -> Option<f64> {
        None
    }
    /// Whether [`ExternalState::play_out_randomly`] is implemented; read once, by
    /// [`ExternalGame::new`].
    fn plays_out_randomly(&self) -> bool {
        false
    }
    /// Plays to the end in one call: uniformly random actions and outcomes drawn by their
    /// probabilities, every random choice from `seed` (OpenSpiel: `evaluate_bots` with
    /// uniform random bots, in C++). Called only when `plays_out_randomly`; otherwise
    /// [`ExternalGame`]'s rollout calls the state step by step.
    fn play_out_randomly(&mut self, _seed: u64) {
        unreachable!("play_out_randomly called on a state that says it cannot")
    }
}

/// The most outcomes a chance node of an [`ExternalGame`] may have: labels are `u8`, 0 to 255.
pub const MAX_CHANCE_OUTCOMES: usize = 1 << u8::BITS;

/// A move: an OpenSpiel action, written as the plain number.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ExternalMove(pub i64);

impl std::fmt::Display for ExternalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why a game is not wrapped, or a move or outcome not applied: `game: what`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{game}: {kind}")]
pub struct ExternalError {
    /// The game's name (`placeholder` for the placeholder).
    pub game: Arc<str>,
    pub kind: ExternalErrorKind,
}

/// What an [`ExternalError`] is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExternalErrorKind {
    #[error("returns bound: expected a finite positive number, found {0}")]
    InvalidBound(f64),
    #[error("constant sum of the returns: expected a finite number, found {0}")]
    InvalidConstantSum(f64),
    #[error(
        "up to {0} chance outcomes at a node; an external game may have at most \
         {MAX_CHANCE_OUTCOMES} (outcomes are labelled 0 to 255)"
    )]
    TooManyChanceOutcomes(usize),
    #[error("player {0} is to move; an external game has players 0 and 1")]
    NotTwoPlayers(usize),
    #[error("returns {returns:?} exceed the bound {bound} given for the game")]
    ReturnsOutOfBound { returns: [f64; 2], bound: f64 },
    #[error("no game in this placeholder state (clone a game into it first)")]
    Placeholder,
    #[error("the game is over")]
    GameOver,
    #[error("a chance event is pending: apply an outcome first")]
    ChancePending,
    #[error("no chance event is pending: apply a move first")]
    NoChancePending,
    #[error("action {0} is not legal here")]
    Illegal(i64),
    #[error("no chance outcome {label} (this event has {count}, labelled from 0)")]
    NoSuchOutcome { label: u8, count: usize },
    #[error(
        "this chance event has {count} outcomes, more than the {MAX_CHANCE_OUTCOMES} labels \
         can name (the game promised at most {promised})"
    )]
    OutcomesBeyondLabels { count: usize, promised: usize },
    #[error("action {action} refused: {why}")]
    Refused { action: i64, why: String },
}

/// [`Game`] over an [`ExternalState`]. Cloning clones the state (`clone_box`).
#[derive(Debug)]
pub struct ExternalGame {
    /// `None` only in [`Game::placeholder`], which acts as a finished game.
    state: Option<Box<dyn ExternalState>>,
    name: Arc<str>,
    /// Every |return| is at most this.
    returns_bound: f64,
    /// The game's promise, kept for messages.
    max_outcomes: usize,
    /// What every result's returns sum to, when the game promises it (read once).
    constant_sum: Option<f64>,
    /// Decisions taken through this wrapper.
    turns: usize,
    /// Who took the last decision (0 before any): `to_move` away from a decision.
    last_mover: usize,
    /// The state rolls out by itself ([`ExternalState::plays_out_randomly`]).
    plays_out: bool,
}

thread_local! {
    /// Buffers for `&self` methods that need a list: one per thread, so no call allocates.
    static ACTIONS: RefCell<Vec<i64>> = const { RefCell::new(Vec::new()) };
    static OUTCOMES: RefCell<Vec<(i64, f64)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on this thread's buffer, emptied (a fresh one if the buffer is in use).
fn with_buffer<T, R>(
    key: &'static std::thread::LocalKey<RefCell<Vec<T>>>,
    f: impl FnOnce(&mut Vec<T>) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffer) => {
            buffer.clear();
            f(&mut buffer)
        }
        Err(_) => f(&mut Vec::new()),
    })
}

impl ExternalGame {
    /// Wraps `state`, whose returns never exceed `returns_bound` in absolute value (OpenSpiel:
    /// the larger of |`min_utility`| and |`max_utility`|). Refuses a bound that is not finite
    /// and positive, a game whose chance nodes may have more than [`MAX_CHANCE_OUTCOMES`]
    /// outcomes, and a state whose player to move or returns already break the contract.
    /// `turns_played` starts at 0: wrap the game's initial state to count the game's turns.
    pub fn new(state: Box<dyn ExternalState>, returns_bound: f64) -> Result<Self, ExternalError> {
        let game = ExternalGame {
            name: state.game_name().into(),
            max_outcomes: state.max_chance_outcomes(),
            constant_sum: state.constant_sum(),
            plays_out: state.plays_out_randomly(),
            state: Some(state),
            returns_bound,
            turns: 0,
            last_mover: 0,
        };
        let returns = game.returns();
        let refused = if !(returns_bound.is_finite() && returns_bound > 0.0) {
            Some(Kind::InvalidBound(returns_bound))
        } else if let Some(sum) = game.constant_sum.filter(|s| !s.is_finite()) {
            Some(Kind::InvalidConstantSum(sum))
        } else if game.max_outcomes > MAX_CHANCE_OUTCOMES {
            Some(Kind::TooManyChanceOutcomes(game.max_outcomes))
        } else if let ExternalPlayer::Player(player @ 2..) = game.player() {
            Some(Kind::NotTwoPlayers(player))
        } else if !returns.iter().all(|r| r.abs() <= returns_bound) {
            let bound = returns_bound;
            Some(Kind::ReturnsOutOfBound { returns, bound })
        } else {
            None
        };
        match refused {
            Some(kind) => Err(game.error(kind)),
            None => Ok(game),
        }
    }

    /// The wrapped state; `None` for the placeholder.
    pub fn state(&self) -> Option<&dyn ExternalState> {
        self.state.as_deref()
    }

    /// The game's name, as the state gave it.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn error(&self, kind: ExternalErrorKind) -> ExternalError {
        let game = self.name.clone();
        ExternalError { game, kind }
    }

    fn player(&self) -> ExternalPlayer {
        let state = self.state.as_ref();
        state.map_or(ExternalPlayer::Terminal, |s| s.current_player())
    }

    fn returns(&self) -> [f64; 2] {
        self.state.as_ref().map_or([0.0; 2], |s| s.returns())
    }

    /// The outcomes of this chance event (the caller checked it is one) in this thread's
    /// buffer, given to `f`.
    fn with_outcomes<R>(&self, f: impl FnOnce(&[(i64, f64)]) -> R) -> R {
        with_buffer(&OUTCOMES, |out| {
            if let Some(state) = &self.state {
                state.chance_outcomes(out);
            }
            f(out)
        })
    }

    /// Why a move (`at_chance` false) or an outcome cannot be applied now, if it cannot;
    /// else the player to move.
    fn check_applicable(&self, at_chance: bool) -> Result<usize, ExternalError> {
        let kind = match (self.state.is_some(), self.player(), at_chance) {
            (false, ..) => Kind::Placeholder,
            (_, ExternalPlayer::Terminal, _) => Kind::GameOver,
            (_, ExternalPlayer::Chance, false) => Kind::ChancePending,
            (_, ExternalPlayer::Player(_), true) => Kind::NoChancePending,
            (_, ExternalPlayer::Player(player), false) => return Ok(player),
            (_, ExternalPlayer::Chance, true) => return Ok(self.last_mover),
        };
        Err(self.error(kind))
    }

    /// Applies `action`, which the caller checked.
    fn apply(&mut self, action: i64) -> Result<(), ExternalError> {
        let state = self.state.as_deref_mut();
        let result = state.map_or(Err(String::new()), |s| s.apply_action(action));
        result.map_err(|why| self.error(Kind::Refused { action, why }))
    }
}

/// The index of an outcome drawn by probability from `x` uniform in [0, 1); outcomes whose
/// probability is not positive are never drawn. `None` when none is positive.
fn draw(outcomes: &[(i64, f64)], x: f64) -> Option<usize> {
    let weight = |p: f64| if p > 0.0 { p } else { 0.0 };
    let last = outcomes.iter().rposition(|&(_, p)| p > 0.0)?;
    let mut x = x * outcomes.iter().map(|&(_, p)| weight(p)).sum::<f64>();
    for (i, &(_, p)) in outcomes.iter().enumerate() {
        if p > 0.0 && x < p {
            return Some(i);
        }
        x -= weight(p);
    }
    // Rounding left `x` at or past the total: the last possible outcome.
    Some(last)
}

impl Clone for ExternalGame {
    fn clone(&self) -> Self {
        ExternalGame {
            state: self.state.as_ref().map(|s| s.clone_box()),
            name: self.name.clone(),
            ..*self
        }
    }

    /// As `clone`: the state's box cannot be reused.
    fn clone_from(&mut self, source: &Self) {
        *self = source.clone();
    }
}

impl Game for ExternalGame {
    type Move = ExternalMove;
    type Error = ExternalError;
    /// OpenSpiel's games are mostly won or lost (returns +1/0/-1), and its `MCTSBot` picks
    /// the most visited move; a game scored by points still gets the sign of its margin.
    const OBJECTIVE: Objective = Objective::WinLoss;

    /// No state: a finished game, refusing every move, until a game is cloned into it.
    fn placeholder() -> Self {
        ExternalGame {
            state: None,
            name: Arc::from("placeholder"),
            returns_bound: 1.0,
            max_outcomes: 0,
            constant_sum: None,
            turns: 0,
            last_mover: 0,
            plays_out: false,
        }
    }

    /// At a decision its player; elsewhere the player who took the last decision.
    fn to_move(&self) -> usize {
        match self.player() {
            ExternalPlayer::Player(p) => p,
            _ => self.last_mover,
        }
    }

    fn at_decision(&self) -> bool {
        matches!(self.player(), ExternalPlayer::Player(_))
    }

    fn is_over(&self) -> bool {
        self.player() == ExternalPlayer::Terminal
    }

    /// Decisions taken through this wrapper (`apply_move`), chance outcomes not counted.
    fn turns_played(&self) -> usize {
        self.turns
    }

    fn legal_moves(&self, out: &mut Vec<ExternalMove>) {
        out.clear();
        if let (Some(state), true) = (&self.state, self.at_decision()) {
            with_buffer(&ACTIONS, |actions| {
                state.legal_actions(actions);
                out.extend(actions.iter().map(|&a| ExternalMove(a)));
            });
        }
    }

    /// Refuses an action `legal_actions` does not list before the state sees it.
    fn apply_move(&mut self, mv: ExternalMove) -> Result<(), ExternalError> {
        let player = self.check_applicable(false)?;
        let state = self.state.as_ref();
        let legal = with_buffer(&ACTIONS, |actions| {
            state.inspect(|s| s.legal_actions(actions));
            actions.contains(&mv.0)
        });
        if !legal {
            return Err(self.error(Kind::Illegal(mv.0)));
        }
        self.apply(mv.0)?;
        self.turns += 1;
        self.last_mover = player;
        Ok(())
    }

    /// Without asking `legal_actions` first: a call fewer for each step a search takes down
    /// its tree.
    fn apply_legal_move(&mut self, mv: ExternalMove) -> Result<(), ExternalError> {
        let player = self.check_applicable(false)?;
        self.apply(mv.0)?;
        self.turns += 1;
        self.last_mover = player;
        Ok(())
    }

    /// Uniform over the legal actions: one `gen_range(0..count)` draw.
    fn random_move(&self, rng: &mut GameRng) -> Option<ExternalMove> {
        let state = self.state.as_ref().filter(|_| self.at_decision())?;
        with_buffer(&ACTIONS, |actions| {
            state.legal_actions(actions);
            (!actions.is_empty()).then(|| ExternalMove(actions[rng.gen_range(0..actions.len())]))
        })
    }

    /// One call to the state when it rolls out by itself ([`ExternalState::
    /// play_out_randomly`], seeded by one `gen::<u64>()`): for a binding, one call into the
    /// other language instead of three a step. Otherwise [`Game::play_out_randomly_observed`]
    /// without an observer. The decisions of a rollout in one call are not counted in
    /// `turns_played`.
    fn play_out_randomly(&mut self, rng: &mut GameRng) {
        match self.state.as_deref_mut() {
            Some(state) if self.plays_out => state.play_out_randomly(rng.gen::<u64>()),
            _ => self.play_out_randomly_observed(rng, |_, _| {}),
        }
    }

    /// The trait's rollout with the same random draws, calling the state less: one
    /// `current_player` and one `legal_actions` a decision, the drawn action applied unchecked.
    ///
    /// # Panics
    /// If the state breaks its contract: a decision without legal actions, or a legal action
    /// refused (as the trait's rollout does).
    fn play_out_randomly_observed(
        &mut self,
        rng: &mut GameRng,
        mut before_move: impl FnMut(&Self, ExternalMove),
    ) {
        loop {
            let player = match self.player() {
                ExternalPlayer::Terminal => break,
                ExternalPlayer::Chance => match self.sample_chance(rng) {
                    Some(_) => continue,
                    None => break,
                },
                ExternalPlayer::Player(player) => player,
            };
            let state = self.state.as_deref();
            let drawn = with_buffer(&ACTIONS, |actions| {
                state.inspect(|s| s.legal_actions(actions));
                (!actions.is_empty()).then(|| actions[rng.gen_range(0..actions.len())])
            });
            let Some(action) = drawn else {
                panic!("{}: a decision without legal actions", self.name)
            };
            before_move(self, ExternalMove(action));
            if let Err(e) = self.apply(action) {
                panic!("{e} (a legal action, in a rollout)");
            }
            self.turns += 1;
            self.last_mover = player;
        }
    }

    /// Every decision is the same kind: an action.
    fn decision_label(&self) -> u8 {
        0
    }

    /// The indices of the outcome list, 0 to n − 1 (n at most [`MAX_CHANCE_OUTCOMES`]:
    /// a longer list, which `new` made the game promise never to give, is cut there).
    fn chance_slots(&self, mut visit: impl FnMut(u8)) {
        if self.player() != ExternalPlayer::Chance {
            return;
        }
        let count = self.with_outcomes(|outcomes| outcomes.len());
        (0..count.min(MAX_CHANCE_OUTCOMES)).for_each(|i| visit(i as u8));
    }

    /// Draws an outcome by its probability (one `gen::<f64>()`), applies it and returns its
    /// index. `None` away from a chance node.
    ///
    /// # Panics
    /// If the state breaks its contract: a chance node with no outcome of positive
    /// probability, more outcomes than [`MAX_CHANCE_OUTCOMES`] (which `new` made it promise
    /// never to give), or its own outcome refused.
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        if self.player() != ExternalPlayer::Chance {
            return None;
        }
        let x = rng.gen::<f64>();
        let (count, drawn) = self.with_outcomes(|outcomes| {
            let drawn = draw(outcomes, x).map(|i| (i, outcomes[i].0));
            (outcomes.len(), drawn)
        });
        let Some((index, action)) = drawn else {
            panic!("{}: a chance event without a possible outcome", self.name)
        };
        let result = if count > MAX_CHANCE_OUTCOMES {
            let promised = self.max_outcomes;
            Err(self.error(Kind::OutcomesBeyondLabels { count, promised }))
        } else {
            self.apply(action)
        };
        if let Err(e) = result {
            panic!("{e} (sampling a chance event)");
        }
        Some(index)
    }

    /// Each outcome with a positive probability, labelled by its index, weighted by its
    /// probability; `then` comes from applying it to a clone (`ChanceAgain` if another chance
    /// node follows, else `Decision`; never `Repeat`). An outcome the clone refuses is listed
    /// as `Decision`: `apply_outcome` then reports the refusal.
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
        let at_chance = self.player() == ExternalPlayer::Chance;
        let Some(state) = self.state.as_ref().filter(|_| at_chance) else {
            return;
        };
        self.with_outcomes(|outcomes| {
            for (i, &(action, p)) in outcomes.iter().enumerate().take(MAX_CHANCE_OUTCOMES) {
                if p > 0.0 {
                    let mut after = state.clone_box();
                    let again = after.apply_action(action).is_ok()
                        && after.current_player() == ExternalPlayer::Chance;
                    out.push(ChanceOutcome {
                        label: i as u8,
                        weight: p,
                        then: if again {
                            AfterOutcome::ChanceAgain
                        } else {
                            AfterOutcome::Decision
                        },
                    });
                }
            }
        });
    }

    /// Applies the outcome at index `label` of `chance_outcomes`; refuses an index past the
    /// list, one of probability 0, and any outcome of a list longer than the labels reach.
    fn apply_outcome(&mut self, label: u8) -> Result<(), ExternalError> {
        self.check_applicable(true)?;
        let promised = self.max_outcomes;
        let action = self.with_outcomes(|outcomes| {
            let count = outcomes.len();
            match outcomes.get(usize::from(label)) {
                _ if count > MAX_CHANCE_OUTCOMES => {
                    Err(Kind::OutcomesBeyondLabels { count, promised })
                }
                Some(&(action, p)) if p > 0.0 => Ok(action),
                _ => Err(Kind::NoSuchOutcome { label, count }),
            }
        });
        self.apply(action.map_err(|kind| self.error(kind))?)
    }

    /// The returns rounded to whole numbers (half away from zero; non-finite saturate, NaN
    /// is 0): OpenSpiel's returns are the scores, and the searches' rollouts read these.
    fn scores(&self) -> [i32; 2] {
        self.returns().map(|r| r.round() as i32)
    }

    /// The returns bound, rounded as the scores are: no rounded return exceeds it.
    fn max_score(&self) -> f64 {
        self.returns_bound.round()
    }

    /// Minus [`Game::max_score`]: returns are signed.
    fn min_score(&self) -> f64 {
        -self.max_score()
    }

    /// For a game whose returns sum to a constant c: scores (each return rounded half away
    /// from zero) sum to c when c is whole (rounding x and c − x gives c − round(x) for the
    /// second), and to within 1 of c otherwise (each rounding moves at most ½).
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        let Some(sum) = self.constant_sum else {
            return Ok(());
        };
        let total = scores[0] + scores[1];
        let possible = if sum.fract() == 0.0 {
            total == sum
        } else {
            (total - sum).abs() < 1.0
        };
        if !possible {
            return Err(format!(
                "the returns of every game of {} sum to {sum}, so its final scores (the \
                 returns rounded) sum to {}",
                self.name,
                if sum.fract() == 0.0 {
                    format!("{sum}")
                } else {
                    format!("{} or {}", sum.floor(), sum.ceil())
                }
            ));
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        self.state.as_ref().map(|s| s.text())
    }

    /// The exact returns' difference (for most OpenSpiel games 0 before the end).
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let returns = self.returns();
        returns[player] - returns[1 - player]
    }

    /// Twice the returns bound.
    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        2.0 * self.returns_bound
    }

    /// `action << 1 | player` for actions in 0..2³¹ (OpenSpiel's are 0..num_distinct_actions),
    /// so unique per (player, action); other actions are folded into 31 bits first (xor of
    /// their 31-bit pieces) and may share a key.
    fn action_key(player: u8, _label: u8, mv: ExternalMove) -> u32 {
        let a = mv.0 as u64;
        let folded = (a ^ (a >> 31) ^ (a >> 62)) & 0x7FFF_FFFF;
        (folded as u32) << 1 | u32::from(player & 1)
    }
}

#[cfg(test)]
mod tests;
