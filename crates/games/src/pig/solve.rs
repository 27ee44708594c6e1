//! Pig's exact solution: the win probability of the player to move under optimal play by
//! both, at every decision, by value iteration (Neller & Presser 2004).
//!
//! With `i` the mover's banked score, `j` the opponent's and `k` the turn total (`i + k <
//! target`), the win probability `P(i, j, k)` is the larger of
//! - roll: `(1/6)·[(1 − P(j, i, 0)) + Σ_{r=2..6} P(i, j, k + r)]`, a term whose `i + k + r`
//!   reaches the target being 1 (the game ends won), and
//! - hold (`k ≥ 1`): `1 − P(j, i + k, 0)`.
//!
//! The equations are solved block by block in decreasing order of `i + j`, as in the paper: a
//! hold leads to a larger sum, so when a block is iterated every value outside it is already
//! final, and only the block's own cycle (a 1 passes the turn between `(i, j)` and `(j, i)`)
//! needs iterating. Within a block the sweeps are Gauss–Seidel (turn totals from high to low,
//! so the rolls' successors are fresh) until no value changes by `SOLVER_TOLERANCE` or more.
//! Since max and averaging move a value by at most the largest change of its inputs, the
//! Bellman residual of the result is below the tolerance at every state.

use super::{Game, PigError, PigMove, PigRules, PigState, FACES};

/// The sweeps stop once no value of a block changes by this much.
pub const SOLVER_TOLERANCE: f64 = 1e-12;

/// The largest target tabulated: about target³/2 values (4 million, 32 MB, at 200).
pub const MAX_SOLVED_TARGET: u16 = 200;

/// A block's sweeps contract by at least the chance that both players' turns end with a 1,
/// so a few hundred suffice at any target solved; the cap only turns a defect into an error.
const MAX_SWEEPS_PER_BLOCK: usize = 100_000;

/// The win probabilities of every decision of a game to one target.
#[derive(Clone, Debug)]
pub struct PigSolution {
    target: u16,
    /// Where the values of mover's banked score `i` start; `(j, k)` follow as `j·(target − i) + k`.
    row_start: Vec<usize>,
    values: Vec<f64>,
    sweeps: usize,
}

/// Solves the game of `rules` exactly (to `SOLVER_TOLERANCE`).
pub fn solve(rules: PigRules) -> Result<PigSolution, PigError> {
    rules.check()?;
    let target = rules.target;
    if target > MAX_SOLVED_TARGET {
        return Err(PigError::TargetTooLargeToSolve { target });
    }
    let t = usize::from(target);
    let mut row_start = Vec::with_capacity(t);
    let mut next = 0;
    for i in 0..t {
        row_start.push(next);
        next += t * (t - i);
    }
    let mut solution = PigSolution {
        target,
        values: vec![0.0; next],
        row_start,
        sweeps: 0,
    };
    for sum in (0..=2 * (t - 1)).rev() {
        let movers = sum.saturating_sub(t - 1)..=sum.min(t - 1);
        let mut block_sweeps = 0;
        loop {
            let mut largest_change: f64 = 0.0;
            for i in movers.clone() {
                let j = sum - i;
                for k in (0..t - i).rev() {
                    let updated = solution.optimal_value(i, j, k);
                    let index = solution.index(i, j, k);
                    largest_change = largest_change.max((updated - solution.values[index]).abs());
                    solution.values[index] = updated;
                }
            }
            block_sweeps += 1;
            if largest_change < SOLVER_TOLERANCE {
                break;
            }
            if block_sweeps >= MAX_SWEEPS_PER_BLOCK {
                return Err(PigError::NotConverged {
                    sweeps: block_sweeps,
                });
            }
        }
        solution.sweeps += block_sweeps;
    }
    Ok(solution)
}

impl PigSolution {
    /// The target solved.
    pub fn target(&self) -> u16 {
        self.target
    }

    /// The number of decision states tabulated.
    pub fn state_count(&self) -> usize {
        self.values.len()
    }

    /// Sweeps over a block taken in all, summed over the blocks.
    pub fn sweeps(&self) -> usize {
        self.sweeps
    }

    /// The largest Bellman residual `|max(roll, hold) − P|` over every state, recomputed.
    pub fn bellman_residual(&self) -> f64 {
        let t = usize::from(self.target);
        let mut largest: f64 = 0.0;
        for i in 0..t {
            for j in 0..t {
                for k in 0..t - i {
                    let residual =
                        (self.optimal_value(i, j, k) - self.values[self.index(i, j, k)]).abs();
                    largest = largest.max(residual);
                }
            }
        }
        largest
    }

    /// `P(i, j, k)`: the win probability of a mover with banked score `i`, turn total `k`,
    /// against banked score `j`; 1 once `i + k` reaches the target, 0 once `j` has.
    pub fn value(&self, mover_banked: usize, opponent_banked: usize, turn_total: usize) -> f64 {
        let t = usize::from(self.target);
        if mover_banked + turn_total >= t {
            1.0
        } else if opponent_banked >= t {
            0.0
        } else {
            self.values[self.index(mover_banked, opponent_banked, turn_total)]
        }
    }

    /// The win probability of player 0 at the start of the game.
    pub fn first_player_win_probability(&self) -> f64 {
        self.value(0, 0, 0)
    }

    /// The win probability of the player to move (`Game::to_move`) under optimal play: at a
    /// decision its value, at a pending roll the expectation over the faces, at the end 1 (the
    /// winner stays the player to move).
    pub fn win_probability(&self, state: &PigState) -> Result<f64, PigError> {
        self.check_rules(state)?;
        if state.is_over() {
            return Ok(1.0);
        }
        let (i, j, k) = Self::coordinates(state);
        if state.roll_pending() {
            Ok(self.roll_value(i, j, k))
        } else {
            Ok(self.value(i, j, k))
        }
    }

    /// The win probability of the mover after playing `mv` at the decision `state` and playing
    /// optimally after; an error when `state` is not at a decision or `mv` is illegal there.
    pub fn move_value(&self, state: &PigState, mv: PigMove) -> Result<f64, PigError> {
        self.check_rules(state)?;
        if state.is_over() {
            return Err(PigError::GameOver);
        }
        if state.roll_pending() {
            return Err(PigError::RollPending);
        }
        let (i, j, k) = Self::coordinates(state);
        match mv {
            PigMove::Roll => Ok(self.roll_value(i, j, k)),
            PigMove::Hold if k == 0 => Err(PigError::HoldWithoutTurnTotal),
            PigMove::Hold => Ok(self.hold_value(i, j, k)),
        }
    }

    /// The optimal move at the decision `state`: Hold when it is strictly better, else Roll.
    pub fn best_move(&self, state: &PigState) -> Result<PigMove, PigError> {
        let roll = self.move_value(state, PigMove::Roll)?;
        if state.turn_total() > 0 && self.move_value(state, PigMove::Hold)? > roll {
            Ok(PigMove::Hold)
        } else {
            Ok(PigMove::Roll)
        }
    }

    /// The win probability `mv` loses against the best move at the decision `state`: 0 for an
    /// optimal move, positive otherwise.
    pub fn regret(&self, state: &PigState, mv: PigMove) -> Result<f64, PigError> {
        let chosen = self.move_value(state, mv)?;
        let best = self.move_value(state, self.best_move(state)?)?;
        Ok(best - chosen)
    }

    fn check_rules(&self, state: &PigState) -> Result<(), PigError> {
        let target = state.rules().target;
        if target == self.target {
            Ok(())
        } else {
            Err(PigError::RulesMismatch {
                solved: self.target,
                state: target,
            })
        }
    }

    /// (mover's banked, opponent's banked, turn total).
    fn coordinates(state: &PigState) -> (usize, usize, usize) {
        let mover = state.to_move();
        let banked = state.banked();
        (
            usize::from(banked[mover]),
            usize::from(banked[1 - mover]),
            usize::from(state.turn_total()),
        )
    }

    fn index(&self, i: usize, j: usize, k: usize) -> usize {
        self.row_start[i] + j * (usize::from(self.target) - i) + k
    }

    fn roll_value(&self, i: usize, j: usize, k: usize) -> f64 {
        let pig = 1.0 - self.value(j, i, 0);
        let gains: f64 = (2..=usize::from(FACES))
            .map(|r| self.value(i, j, k + r))
            .sum();
        (pig + gains) / f64::from(FACES)
    }

    fn hold_value(&self, i: usize, j: usize, k: usize) -> f64 {
        1.0 - self.value(j, i + k, 0)
    }

    /// The right-hand side of the equations at `(i, j, k)` under the current values.
    fn optimal_value(&self, i: usize, j: usize, k: usize) -> f64 {
        let roll = self.roll_value(i, j, k);
        if k == 0 {
            roll
        } else {
            roll.max(self.hold_value(i, j, k))
        }
    }
}
