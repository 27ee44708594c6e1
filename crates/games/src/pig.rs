//! Pig, the jeopardy dice game (Neller & Presser, "Optimal Play of the Dice Game Pig", The UMAP
//! Journal 25(1), 2004), for two players with one six-sided die: a game with chance small
//! enough that its exact value is known in every state (`solve`), so searches can be measured
//! against the truth.
//!
//! Rules as implemented:
//! - Each player has a banked score; the player to move also has a turn total. Both start at 0
//!   and player 0 moves first.
//! - At a decision the player to move rolls or holds. **Hold is legal only with a positive turn
//!   total**: holding at 0 would pass the turn unchanged, and two passes in a row return the
//!   game to the same state, a cycle that is dominated (rolling first is never worse, since a
//!   1 passes the turn exactly as the pass would and any other face only adds to the turn
//!   total) and would give rollouts an endless game to wander in.
//! - **Roll** is a chance event: a 1 loses the turn total and passes the turn; 2–6 add the face
//!   to the turn total and the same player decides again.
//! - **Hold** banks the turn total and passes the turn.
//! - **The game ends as soon as the mover's banked score plus turn total reaches the target**;
//!   that player wins with the turn total banked. In the published rules the player would
//!   still have to hold; holding is then always legal (the turn total is positive) and wins at
//!   once, so it is optimal, and ending at once removes only a dominated choice. The values of
//!   every other state are the published ones.
//! - Final scores are the banked scores (the winner's including the final turn total).
//!
//! A decision takes one of the searches' decision steps (`Game::turns_played`); a roll's face
//! is the chance outcome, labelled by the face (1–6) in slot `face − 1`.

pub mod positions;
pub mod solve;

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, Objective};

pub use positions::sample_positions;
pub use solve::{solve, PigSolution, MAX_SOLVED_TARGET, SOLVER_TOLERANCE};

/// The faces of the die.
pub const FACES: u8 = 6;

/// The largest target the rules accept: scores stay far inside `u16`, and random play still
/// ends in a few thousand decisions.
pub const MAX_TARGET: u16 = 1000;

/// The target of the published game (Neller & Presser), the default.
pub const DEFAULT_TARGET: u16 = 100;

/// The rules of a game of Pig: plain data, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedPigRules")]
pub struct PigRules {
    /// The score that wins: 1..=`MAX_TARGET`; 100 by default, the published game.
    pub target: u16,
}

impl Default for PigRules {
    fn default() -> Self {
        PigRules {
            target: DEFAULT_TARGET,
        }
    }
}

impl PigRules {
    /// Rules with the given target, or an error naming the field when it is out of range.
    pub fn new(target: u16) -> Result<Self, PigError> {
        let rules = PigRules { target };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), PigError> {
        if (1..=MAX_TARGET).contains(&self.target) {
            Ok(())
        } else {
            Err(PigError::InvalidTarget {
                target: self.target,
            })
        }
    }
}

/// `PigRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedPigRules {
    target: u16,
}

impl TryFrom<UncheckedPigRules> for PigRules {
    type Error = PigError;

    fn try_from(raw: UncheckedPigRules) -> Result<Self, PigError> {
        PigRules::new(raw.target)
    }
}

/// A move of the player to move (`Default`: `Roll`, the placeholder search trees need).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PigMove {
    /// Roll the die (a chance event follows).
    #[default]
    Roll,
    /// Bank the turn total and pass the turn (legal with a positive turn total).
    Hold,
}

impl fmt::Display for PigMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PigMove::Roll => "roll",
            PigMove::Hold => "hold",
        })
    }
}

/// Why a move, an outcome, rules or a position are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PigError {
    #[error("target: expected a whole number from 1 to {MAX_TARGET}, found {target}")]
    InvalidTarget { target: u16 },
    #[error("the game is over")]
    GameOver,
    #[error("a die roll is pending: apply an outcome (face 1 to 6) first")]
    RollPending,
    #[error("no die roll is pending: apply a move first")]
    NoRollPending,
    #[error("hold needs a positive turn total; the turn total is 0, so the only move is roll")]
    HoldWithoutTurnTotal,
    #[error("die face: expected 1 to 6, found {face}")]
    InvalidFace { face: u8 },
    #[error("{what}: {value} is not a position of a game to {target}: {why}")]
    InvalidPosition {
        what: &'static str,
        value: u16,
        target: u16,
        why: &'static str,
    },
    #[error("this solution is for target {solved}; the state's target is {state}")]
    RulesMismatch { solved: u16, state: u16 },
    #[error("target: {target} is above {MAX_SOLVED_TARGET}, the largest the solver tabulates")]
    TargetTooLargeToSolve { target: u16 },
    #[error("value iteration did not reach the tolerance within {sweeps} sweeps of one block")]
    NotConverged { sweeps: usize },
}

/// A state of a game of Pig: plain data, one copy to clone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    rules: PigRules,
    banked: [u16; 2],
    turn_total: u16,
    to_move: u8,
    roll_pending: bool,
    /// The winner once the game is over (then also `to_move`).
    winner: Option<u8>,
    decisions: u32,
}

impl PigState {
    /// The start of a game: both scores 0, player 0 to move.
    pub fn new(rules: PigRules) -> Result<Self, PigError> {
        rules.check()?;
        Ok(PigState {
            rules,
            banked: [0, 0],
            turn_total: 0,
            to_move: 0,
            roll_pending: false,
            winner: None,
            decisions: 0,
        })
    }

    /// A decision of `to_move` with the given banked scores and turn total (as if reached by
    /// play with no decisions counted), or an error naming the value that no game reaches
    /// undecided: every banked score and the mover's banked score plus turn total stay below
    /// the target.
    pub fn decision(
        rules: PigRules,
        banked: [u16; 2],
        turn_total: u16,
        to_move: usize,
    ) -> Result<Self, PigError> {
        rules.check()?;
        let target = rules.target;
        let invalid = |what, value, why| PigError::InvalidPosition {
            what,
            value,
            target,
            why,
        };
        if to_move > 1 {
            return Err(invalid(
                "player to move",
                to_move as u16,
                "players are 0 and 1",
            ));
        }
        for (what, score) in [
            ("banked score of player 0", banked[0]),
            ("banked score of player 1", banked[1]),
        ] {
            if score >= target {
                return Err(invalid(
                    what,
                    score,
                    "a banked score at the target ends the game",
                ));
            }
        }
        if u32::from(banked[to_move]) + u32::from(turn_total) >= u32::from(target) {
            return Err(invalid(
                "turn total",
                turn_total,
                "the mover's banked score plus turn total reaching the target ends the game",
            ));
        }
        Ok(PigState {
            rules,
            banked,
            turn_total,
            to_move: to_move as u8,
            roll_pending: false,
            winner: None,
            decisions: 0,
        })
    }

    pub fn rules(&self) -> PigRules {
        self.rules
    }

    /// The banked scores of players 0 and 1.
    pub fn banked(&self) -> [u16; 2] {
        self.banked
    }

    /// The mover's points of this turn, not yet banked.
    pub fn turn_total(&self) -> u16 {
        self.turn_total
    }

    /// Whether the mover has rolled and the die's face is still to come.
    pub fn roll_pending(&self) -> bool {
        self.roll_pending
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    fn mover(&self) -> usize {
        usize::from(self.to_move)
    }

    fn pass_turn(&mut self) {
        self.turn_total = 0;
        self.to_move = 1 - self.to_move;
    }

    /// The die shows `face` (1..=6) for the mover's pending roll.
    fn resolve_roll(&mut self, face: u8) -> Result<(), PigError> {
        if !(1..=FACES).contains(&face) {
            return Err(PigError::InvalidFace { face });
        }
        if self.winner.is_some() {
            return Err(PigError::GameOver);
        }
        if !self.roll_pending {
            return Err(PigError::NoRollPending);
        }
        self.roll_pending = false;
        if face == 1 {
            self.pass_turn();
            return Ok(());
        }
        self.turn_total += u16::from(face);
        let mover = self.mover();
        if self.banked[mover] + self.turn_total >= self.rules.target {
            self.banked[mover] += self.turn_total;
            self.turn_total = 0;
            self.winner = Some(self.to_move);
        }
        Ok(())
    }
}

impl fmt::Display for PigState {
    /// One line: the target, both banked scores, then whose turn it is and what it holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Pig to {}: player 0 has {}, player 1 has {}; ",
            self.rules.target, self.banked[0], self.banked[1]
        )?;
        match self.winner {
            Some(winner) => write!(f, "player {winner} won"),
            None => {
                write!(
                    f,
                    "player {} to move, turn total {}",
                    self.to_move, self.turn_total
                )?;
                if self.roll_pending {
                    f.write_str(", die rolling")?;
                }
                Ok(())
            }
        }
    }
}

impl Game for PigState {
    type Move = PigMove;
    /// The first to the target wins; the margin means nothing.
    const OBJECTIVE: Objective = Objective::WinLoss;
    type Error = PigError;

    /// A fresh game to the default target.
    fn placeholder() -> Self {
        PigState::new(PigRules::default()).expect("the default rules are valid")
    }

    /// The one line of its `Display`: the target, both banked scores, whose turn it is and the
    /// turn total.
    fn text(&self) -> Option<String> {
        Some(self.to_string())
    }

    fn to_move(&self) -> usize {
        self.mover()
    }

    fn at_decision(&self) -> bool {
        self.winner.is_none() && !self.roll_pending
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn turns_played(&self) -> usize {
        self.decisions as usize
    }

    /// Roll, then Hold when the turn total is positive.
    fn legal_moves(&self, out: &mut Vec<PigMove>) {
        out.clear();
        if !self.at_decision() {
            return;
        }
        out.push(PigMove::Roll);
        if self.turn_total > 0 {
            out.push(PigMove::Hold);
        }
    }

    fn apply_move(&mut self, mv: PigMove) -> Result<(), PigError> {
        if self.winner.is_some() {
            return Err(PigError::GameOver);
        }
        if self.roll_pending {
            return Err(PigError::RollPending);
        }
        match mv {
            PigMove::Roll => self.roll_pending = true,
            PigMove::Hold => {
                if self.turn_total == 0 {
                    return Err(PigError::HoldWithoutTurnTotal);
                }
                let mover = self.mover();
                self.banked[mover] += self.turn_total;
                self.pass_turn();
            }
        }
        self.decisions += 1;
        Ok(())
    }

    /// Uniform among the legal moves.
    fn random_move(&self, rng: &mut GameRng) -> Option<PigMove> {
        if !self.at_decision() {
            return None;
        }
        if self.turn_total > 0 && rng.gen_bool(0.5) {
            Some(PigMove::Hold)
        } else {
            Some(PigMove::Roll)
        }
    }

    fn decision_label(&self) -> u8 {
        0
    }

    /// The faces 1..=6, in order.
    fn chance_slots(&self, mut visit: impl FnMut(u8)) {
        for face in 1..=FACES {
            visit(face);
        }
    }

    /// Rolls the die: the slot is `face − 1`. `None` (and nothing changes) when no roll is
    /// pending.
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        if !self.roll_pending || self.winner.is_some() {
            return None;
        }
        let face: u8 = rng.gen_range(1..=FACES);
        self.resolve_roll(face)
            .expect("a pending roll takes any face");
        Some(usize::from(face - 1))
    }

    /// Six faces of weight 1; each leads to a decision (or the end).
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
        out.extend((1..=FACES).map(|face| ChanceOutcome {
            label: face,
            weight: 1.0,
            then: AfterOutcome::Decision,
        }));
    }

    fn apply_outcome(&mut self, label: u8) -> Result<(), PigError> {
        self.resolve_roll(label)
    }

    fn scores(&self) -> [i32; 2] {
        self.banked.map(i32::from)
    }

    /// A banked score below the target plus one last roll of at most 6.
    fn max_score(&self) -> f64 {
        f64::from(self.rules().target) + 5.0
    }

    /// Exactly one player reaches the target: the game ends the moment one does.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        let target = f64::from(self.rules().target);
        if scores.iter().filter(|&&s| s >= target).count() != 1 {
            return Err(format!(
                "a game of Pig to {target} ends when one player reaches the target, so \
                 exactly one final score is {target} or more"
            ));
        }
        Ok(())
    }

    /// Own banked score minus the opponent's (Pig offers only `ScoreDifference`).
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        f64::from(self.banked[player]) - f64::from(self.banked[1 - player])
    }

    /// target + 5: a banked score below the target grows only by a held turn total that
    /// keeps it below the target, or by the winning roll, which starts from at most
    /// target − 1 and adds at most 6; the other score is at least 0.
    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        f64::from(self.rules.target) + f64::from(FACES - 1)
    }

    /// The player and the move.
    fn action_key(player: u8, _label: u8, mv: PigMove) -> u32 {
        let mv = match mv {
            PigMove::Roll => 0,
            PigMove::Hold => 1,
        };
        u32::from(player) << 1 | mv
    }
}
