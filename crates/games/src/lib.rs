//! Every game evomcts plays, and the interface between games and the searches: what a
//! two-player game with chance must tell a searcher, and nothing more. Each game is a module
//! of this crate (`carcassonne`, `pig`) implementing [`Game`]; MCTS, the *-minimax searches and
//! the random player (the `evomcts-search` crate) are written against the interface only.
//!
//! A state is at one of three kinds of point: a **decision** (the player to move picks one of
//! the legal moves), a **chance event** (the game draws an outcome: a tile, a die roll), or the
//! **end**. Hidden information stays hidden: a state exposes the probabilities of the outcomes
//! its player could know (Carcassonne's multiset of hidden tiles), never the order in which
//! they will come.
//!
//! Architecture invariant: this file (the interface) knows no game; the crate knows no formula,
//! no search and no run, and does no I/O.

pub mod carcassonne;
pub mod connect_four;
pub mod external;
pub mod open_spiel_twin;
pub mod pig;

use std::fmt::Debug;

use rand::Rng;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The RNG of every random choice in evomcts: small, fast, and the same stream on every
/// platform for a given seed.
pub type GameRng = rand_pcg::Pcg64Mcg;

/// How a position at a search horizon is valued, from one player's view. Every game offers
/// `ScoreDifference`; a game may offer evaluations of its own, which it names in
/// [`Game::OWN_EVALUATIONS`] (Carcassonne: `Heyden`). Specs write either by name
/// (`evaluation: Heyden`), as a plain identifier.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// Own score minus the opponent's, counting what the position would score if the game
    /// ended now (Carcassonne's virtual scores; Pig's banked scores): the papers' choice.
    #[default]
    ScoreDifference,
    /// The evaluation a game offers under this name; meaningful only to a game that lists it.
    Own(&'static str),
}

impl Evaluation {
    /// The name specs write.
    pub const fn name(&self) -> &'static str {
        match self {
            Evaluation::ScoreDifference => "ScoreDifference",
            Evaluation::Own(name) => name,
        }
    }
}

impl Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Evaluation {
    /// As the unit variant of its name, so `ScoreDifference` and a game's own names read and
    /// write as any enum's variants do.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let index = match self {
            Evaluation::ScoreDifference => 0,
            Evaluation::Own(_) => 1,
        };
        serializer.serialize_unit_variant("Evaluation", index, self.name())
    }
}

impl<'de> Deserialize<'de> for Evaluation {
    /// Any identifier: whether the game offers it is the game's to say ([`Game::offers`]),
    /// when a controller is built for it.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Named;
        impl<'de> serde::de::Visitor<'de> for Named {
            type Value = Evaluation;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an evaluation: ScoreDifference, or one the game offers (Heyden)")
            }
            fn visit_enum<A: serde::de::EnumAccess<'de>>(
                self,
                data: A,
            ) -> Result<Evaluation, A::Error> {
                use serde::de::VariantAccess;
                let (Identifier(name), variant) = data.variant()?;
                variant.unit_variant()?;
                evaluation_named(&name).map_err(serde::de::Error::custom)
            }
        }
        deserializer.deserialize_enum("Evaluation", &["ScoreDifference"], Named)
    }
}

/// A variant's name as the format writes identifiers (RON: bare, JSON: a string).
struct Identifier(String);

impl<'de> Deserialize<'de> for Identifier {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Identifier;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an identifier")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Identifier, E> {
                Ok(Identifier(v.to_owned()))
            }
        }
        deserializer.deserialize_identifier(Visit)
    }
}

/// The evaluation of a name, its name kept for the life of the program: each distinct name is
/// stored once, so reading many specs does not grow memory.
fn evaluation_named(name: &str) -> Result<Evaluation, String> {
    use std::sync::{Mutex, OnceLock};
    if name == "ScoreDifference" {
        return Ok(Evaluation::ScoreDifference);
    }
    let plain = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !plain {
        return Err(format!(
            "`{}` is not an evaluation's name (letters, digits and `_`, at most 64)",
            name.escape_debug()
        ));
    }
    static NAMES: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&known) = names.iter().find(|&&known| known == name) {
        return Ok(Evaluation::Own(known));
    }
    let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(kept);
    Ok(Evaluation::Own(kept))
}

/// One outcome of a chance event, as the exact searches (expectimax, Star) enumerate them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceOutcome {
    /// Which outcome: what [`Game::apply_outcome`] takes and [`Game::sample_chance`] reports.
    pub label: u8,
    /// Proportional to its probability (Carcassonne: the hidden count of the tile kind).
    pub weight: f64,
    /// What follows the outcome.
    pub then: AfterOutcome,
}

/// What an outcome leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterOutcome {
    /// A decision of the player to move then (or the end).
    Decision,
    /// Another chance event on a changed state (Carcassonne's official rule: an unplaceable
    /// tile is discarded and the same player draws again).
    ChanceAgain,
    /// Nothing changes and the event repeats (Carcassonne's bottom-of-stack rule: the tile
    /// goes back): leaving the outcome out renormalises the others exactly.
    Repeat,
}

/// How many move features a game can give a move ([`Game::assess_moves`]).
pub const MOVE_FEATURE_COUNT: usize = 7;

/// The move features in their fixed order, by the symbol a selection formula reads each under
/// (the formula terminals of the same names). What each means is the game's to define within
/// the meaning the symbol promises:
///
/// - `G`: the mover's own gain in score the move makes, in the reward's unit;
/// - `O`: the opponent's gain in score the move makes (which it may take over), in that unit;
/// - `M`: 1 if the move commits a piece, else 0;
/// - `F`: 1 if that piece goes where it stays until the end (Carcassonne: a farmer), else 0;
/// - `R`: the mover's pieces the move brings back to its supply;
/// - `L`: the mover's supply after the move, as a share of a full supply;
/// - `T`: the share of the game's turns played before the move.
pub const MOVE_FEATURE_SYMBOLS: [&str; MOVE_FEATURE_COUNT] = ["G", "O", "M", "F", "R", "L", "T"];

/// A move's features, in the order of [`MOVE_FEATURE_SYMBOLS`].
pub type MoveFeatures = [f64; MOVE_FEATURE_COUNT];

/// What a game knows of one legal move of a decision before any search of it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveAssessment {
    /// The change the move makes to the mover's score difference as the game values it now
    /// ([`Evaluation::ScoreDifference`]), in points.
    pub gain: f64,
    /// The move's features (all 0 when the game offers none or none was asked for).
    pub features: MoveFeatures,
}

/// What a game's players play for, as its final scores say it: the notion a search takes its
/// defaults from (how a finished simulation is rewarded, how the move is picked), so a spec
/// that names neither plays each game as the game is meant to be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Points: the final score difference is the result, and a league counts it
    /// (Carcassonne, as the papers play it).
    Points,
    /// Winning: only who won counts, however large the margin (Connect Four, Pig, OpenSpiel's
    /// games, whose returns are mostly +1/0/-1).
    WinLoss,
}

/// A two-player, zero-sum game with chance, as the searches see it.
///
/// Architecture invariant: every method is pure game logic: no I/O, no clock, and every random
/// choice comes from the `GameRng` passed in, so a search is reproducible from its seed.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// A move of the player to move. Stored in search trees and records; `Default` is a
    /// placeholder for tree nodes no move leads to.
    type Move: Copy
        + Default
        + PartialEq
        + Debug
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + 'static;
    /// Why a move or outcome cannot be applied.
    type Error: std::error::Error + Send + Sync + 'static;

    /// What the players play for; every game says it (no default), since searches take their
    /// defaults from it.
    const OBJECTIVE: Objective;

    /// A blank state for buffers that are overwritten (`clone_from`) before use.
    fn placeholder() -> Self;

    /// The player to move (0 or 1), at a decision or at a chance event.
    fn to_move(&self) -> usize;

    /// Whether the player to move must pick a move now.
    fn at_decision(&self) -> bool;

    /// Whether the game has ended as the rules stand (no move and no chance event is left).
    fn is_over(&self) -> bool;

    /// Whether no decision can ever come again from this state, so its value is its final
    /// score. At least `is_over`; a game may know it earlier (Carcassonne's bottom-of-stack
    /// rule once no hidden tile fits anywhere).
    fn is_terminal(&self) -> bool {
        self.is_over()
    }

    /// Decisions taken so far in the game.
    fn turns_played(&self) -> usize;

    /// The legal moves at a decision, in the game's fixed order; empty elsewhere.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays `move` for the player to move.
    fn apply_move(&mut self, mv: Self::Move) -> Result<(), Self::Error>;

    /// [`Game::apply_move`] for a move the caller took from `legal_moves` of this very
    /// position (MCTS replaying its tree): a game whose legality check costs a call elsewhere
    /// may skip it here. The same state results; by default it is `apply_move`.
    fn apply_legal_move(&mut self, mv: Self::Move) -> Result<(), Self::Error> {
        self.apply_move(mv)
    }

    /// A move drawn by the game's random player (rollouts and the `Random` controller).
    /// `None` when not at a decision.
    fn random_move(&self, rng: &mut GameRng) -> Option<Self::Move>;

    /// What the decision is about, as a small label the search keeps with its nodes and
    /// RAVE's action keys (Carcassonne: the drawn tile kind); 0 where there is nothing.
    fn decision_label(&self) -> u8;

    /// The chance outcomes the MCTS tree gives a node, in a fixed order: `visit(label)` once
    /// each. [`Game::sample_chance`] reports the slot of the outcome it drew in this order.
    /// The chance methods have defaults for a game without chance events, which never reaches
    /// one: no slots, nothing sampled, no outcomes.
    fn chance_slots(&self, visit: impl FnMut(u8)) {
        let _ = visit;
    }

    /// Resolves the chance event with a sampled outcome (and any that follow before a
    /// decision, as the game's rules chain them). Returns the slot of the first outcome drawn
    /// among [`Game::chance_slots`], or `None` when the game ended without one (Carcassonne's
    /// bottom-of-stack rule with nothing placeable left). An outcome may itself end the game
    /// (Pig's winning roll): the caller asks the state what follows.
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        let _ = rng;
        None
    }

    /// The outcomes of the chance event with their weights, for exact searches: `out` is
    /// cleared first. Every outcome with a positive probability is listed once.
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
    }

    /// Applies one outcome of [`Game::chance_outcomes`]; a game without chance refuses every
    /// label.
    fn apply_outcome(&mut self, label: u8) -> Result<(), Self::Error>;

    /// Final scores once the game is over (the rollout's result).
    fn scores(&self) -> [i32; 2];

    /// The highest final score a player can reach in this state's game (its rules, not its
    /// position): what a score a file or another process reports is checked against. By
    /// default no bound beyond `i32`.
    fn max_score(&self) -> f64 {
        f64::from(i32::MAX)
    }

    /// The lowest final score a player can end with: 0 by default (points won); a game whose
    /// scores are signed returns (OpenSpiel's −1/0/+1) says so.
    fn min_score(&self) -> f64 {
        0.0
    }

    /// Whether `scores`, each a whole number from [`Game::min_score`] to [`Game::max_score`],
    /// can be the final scores of one game of this state's game (its rules, not its position):
    /// `Err` says what every result of the game has that this pair lacks (Connect Four: at
    /// most one winner). What a file or another process reports as a result is checked here.
    /// By default every such pair is one.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        let _ = scores;
        Ok(())
    }

    /// The state as text for people (a report page shows it after each step of a game), where
    /// the game offers one.
    fn text(&self) -> Option<String> {
        None
    }

    /// Plays to the end with the random player's moves and sampled outcomes: a rollout.
    fn play_out_randomly(&mut self, rng: &mut GameRng) {
        self.play_out_randomly_observed(rng, |_, _| {});
    }

    /// [`Game::play_out_randomly`], calling `before_move(state, move)` before each move is
    /// played. The random choices do not depend on the observer.
    fn play_out_randomly_observed(
        &mut self,
        rng: &mut GameRng,
        before_move: impl FnMut(&Self, Self::Move),
    ) {
        self.play_out_randomly_traced(rng, before_move, || {});
    }

    /// [`Game::play_out_randomly_observed`], also calling `on_chance()` after each chance
    /// event is sampled (how a portfolio measures a game's properties). The random choices
    /// do not depend on the observers.
    fn play_out_randomly_traced(
        &mut self,
        rng: &mut GameRng,
        mut before_move: impl FnMut(&Self, Self::Move),
        mut on_chance: impl FnMut(),
    ) {
        loop {
            if self.is_terminal() {
                break;
            }
            if !self.at_decision() {
                if self.sample_chance(rng).is_none() {
                    break;
                }
                on_chance();
                continue;
            }
            let mv = self.random_move(rng).expect("a decision has a move");
            before_move(self, mv);
            self.apply_move(mv)
                .expect("the random player's move is legal");
        }
    }

    /// The names of the evaluations the game offers besides `ScoreDifference`.
    const OWN_EVALUATIONS: &'static [&'static str] = &[];

    /// Whether the game offers `evaluation`.
    fn offers(evaluation: Evaluation) -> bool {
        match evaluation {
            Evaluation::ScoreDifference => true,
            Evaluation::Own(name) => Self::OWN_EVALUATIONS.contains(&name),
        }
    }

    /// The value of this state for `player` under `evaluation` (one the game offers):
    /// a difference, so the search is zero-sum.
    fn evaluate(&self, player: usize, evaluation: Evaluation) -> f64;

    /// A true bound B: every value of `evaluation` lies in [−B, B] in every state of this
    /// state's game (its rules and size, not its position).
    fn evaluation_bound(&self, evaluation: Evaluation) -> f64;

    /// The moves in the order an exact search should try them (best first by the game's
    /// knowledge); `out` is cleared first. By default the order of `moves`.
    fn order_moves(&self, moves: &[Self::Move], out: &mut Vec<Self::Move>) {
        out.clear();
        out.extend_from_slice(moves);
    }

    /// Whether the game gives moves features ([`MOVE_FEATURE_SYMBOLS`]); a game without them
    /// refuses formulas that read one.
    const OFFERS_MOVE_FEATURES: bool = false;

    /// Assesses every move of `moves` (legal moves of this decision) into `out`, in order:
    /// `out` is cleared first. `scale` is the points per unit of the reward, the unit of the
    /// features `G` and `O`; `features` says whether they are wanted at all. `scratch` is a
    /// buffer the game may overwrite. A game may try the moves on this state itself if it
    /// leaves it as it was, byte for byte. By default a move is tried on a copy of the state
    /// and its gain read from the score difference, and no features are given.
    fn assess_moves(
        &mut self,
        moves: &[Self::Move],
        scale: f64,
        features: bool,
        scratch: &mut Self,
        out: &mut Vec<MoveAssessment>,
    ) {
        let _ = (scale, features);
        out.clear();
        let mover = self.to_move();
        let before = self.evaluate(mover, Evaluation::ScoreDifference);
        for &mv in moves {
            scratch.clone_from(self);
            scratch.apply_move(mv).expect("assessed moves are legal");
            let after = scratch.evaluate(mover, Evaluation::ScoreDifference);
            out.push(MoveAssessment {
                gain: after - before,
                features: [0.0; MOVE_FEATURE_COUNT],
            });
        }
    }

    /// A move packed with the player who plays it and its decision's label
    /// ([`Game::decision_label`]) into one number: the identity of an action for RAVE's
    /// all-moves-as-first statistics. A game has few enough distinct actions per game that
    /// a simulation's set of them stays small (Carcassonne: at most 72 moves a game).
    fn action_key(player: u8, label: u8, mv: Self::Move) -> u32;
}

/// An outcome's label drawn in proportion to the weights (`None` when no outcome has any): the
/// one weighted draw of the histories (`arena::history`) and the oracle's traces.
pub fn draw_weighted(outcomes: &[ChanceOutcome], rng: &mut GameRng) -> Option<u8> {
    let total: f64 = outcomes.iter().map(|o| o.weight).sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    let mut x = rng.gen::<f64>() * total;
    for o in outcomes {
        if x < o.weight {
            return Some(o.label);
        }
        x -= o.weight;
    }
    // Rounding left `x` at the very top: the last outcome with a weight.
    outcomes
        .iter()
        .rev()
        .find(|o| o.weight > 0.0)
        .map(|o| o.label)
}

/// Anything that picks a move for the player to move. Search controllers implement this.
pub trait Controller<G: Game> {
    /// A legal move of `state`, which is at a decision.
    fn choose_move(&mut self, state: &G) -> G::Move;
}

/// The game's random player, seeded.
pub struct RandomController {
    rng: GameRng,
}

impl RandomController {
    pub fn new(seed: u64) -> Self {
        use rand::SeedableRng;
        RandomController {
            rng: GameRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Controller<G> for RandomController {
    fn choose_move(&mut self, state: &G) -> G::Move {
        state
            .random_move(&mut self.rng)
            .expect("the random player is asked only at decisions")
    }
}
