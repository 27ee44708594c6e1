//! The Star1/Star2/Star2.5 search itself: fail-soft alpha-beta at decision nodes, Ballard's
//! window arithmetic at chance nodes, and a probing phase that bounds each outcome by its
//! first moves.
//!
//! Values are from the searching player's view: decision nodes where that player moves
//! maximise, the opponent's minimise. Every search function honours the fail-soft contract:
//! for a window (α, β) a result r ≤ α means the true value is ≤ r, r ≥ β means it is ≥ r, and
//! anything between is exact. Chance values are sums of `weight × value` in the game's outcome
//! order divided once by the total weight, exactly as in `expectimax`, so the two agree bit for
//! bit when nothing is cut.
//!
//! States, move lists and chance nodes' buffers come from pools that grow to the search depth
//! and are then reused: a search allocates nothing per node once warm.

use super::{SearchResult, StarError, StarSettings};
use evomcts_games::{AfterOutcome, ChanceOutcome, Game};

/// The buffers of one chance node, pooled like the states: the outcomes searched and, per
/// outcome, its bounds and how many of its moves probing searched.
#[derive(Default)]
struct ChanceBuffers {
    outcomes: Vec<ChanceOutcome>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    probed: Vec<usize>,
}

/// A reusable Star searcher: keeps its buffers between searches.
pub struct StarSearcher<G: Game> {
    settings: StarSettings,
    /// The searching player.
    me: usize,
    nodes: u64,
    generated: Vec<G::Move>,
    move_pool: Vec<Vec<G::Move>>,
    state_pool: Vec<Box<G>>,
    chance_pool: Vec<ChanceBuffers>,
}

impl<G: Game> StarSearcher<G> {
    /// Fails if the settings are invalid or `G` does not offer their evaluation.
    pub fn new(settings: &StarSettings) -> Result<Self, StarError> {
        settings.validate_for::<G>()?;
        Ok(StarSearcher {
            settings: settings.clone(),
            me: 0,
            nodes: 0,
            generated: Vec::with_capacity(256),
            move_pool: Vec::new(),
            state_pool: Vec::new(),
            chance_pool: Vec::new(),
        })
    }

    pub fn settings(&self) -> &StarSettings {
        &self.settings
    }

    /// The best move for the player to move in `state`, which must be at a decision.
    pub fn search(&mut self, state: &G) -> Result<SearchResult<G::Move>, StarError> {
        StarError::check_root(state)?;
        self.me = state.to_move();
        self.nodes = 1;
        let moves = self.ordered_moves(state);
        let mut best = moves[0];
        let mut best_value = f64::NEG_INFINITY;
        for &mv in &moves {
            let v = self.after_move(state, mv, 1, best_value, f64::INFINITY);
            if v > best_value {
                best_value = v;
                best = mv;
            }
        }
        self.move_pool.push(moves);
        Ok(SearchResult {
            best,
            value: best_value,
            nodes: self.nodes,
        })
    }

    fn take_state(&mut self, from: &G) -> Box<G> {
        match self.state_pool.pop() {
            Some(mut s) => {
                (*s).clone_from(from);
                s
            }
            None => Box::new(from.clone()),
        }
    }

    /// The legal moves of a decision in search order, in a pooled buffer the caller gives
    /// back to `move_pool`.
    fn ordered_moves(&mut self, state: &G) -> Vec<G::Move> {
        let mut out = self.move_pool.pop().unwrap_or_default();
        state.legal_moves(&mut self.generated);
        state.order_moves(&self.generated, &mut out);
        out
    }

    /// The value of playing `mv` at decision ply `ply`: an evaluated leaf at the horizon or
    /// when the game is over, else the node of ply `ply + 1`: a chance node, or a decision
    /// node when the next player decides at once.
    fn after_move(&mut self, state: &G, mv: G::Move, ply: u32, alpha: f64, beta: f64) -> f64 {
        let mut child = self.take_state(state);
        child.apply_move(mv).expect("generated moves are legal");
        let v = if ply >= self.settings.depth || child.is_over() {
            self.nodes += 1;
            child.evaluate(self.me, self.settings.evaluation)
        } else if child.at_decision() {
            self.decision(&child, ply + 1, alpha, beta, 0, None)
        } else {
            self.chance(&child, ply + 1, alpha, beta)
        };
        self.state_pool.push(child);
        v
    }

    /// A decision node. `skip` leading moves were already searched by probing and their best
    /// value is `init`.
    fn decision(
        &mut self,
        state: &G,
        ply: u32,
        mut alpha: f64,
        mut beta: f64,
        skip: usize,
        init: Option<f64>,
    ) -> f64 {
        self.nodes += 1;
        let maximising = state.to_move() == self.me;
        let mut best = init.unwrap_or(if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
        if maximising {
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        } else {
            if best <= alpha {
                return best;
            }
            beta = beta.min(best);
        }
        let moves = self.ordered_moves(state);
        for &mv in moves.iter().skip(skip) {
            let v = self.after_move(state, mv, ply, alpha, beta);
            if maximising {
                if v > best {
                    best = v;
                    if best >= beta {
                        break;
                    }
                    alpha = alpha.max(best);
                }
            } else if v < best {
                best = v;
                if best <= alpha {
                    break;
                }
                beta = beta.min(best);
            }
        }
        self.move_pool.push(moves);
        best
    }

    /// The outcomes of the chance event in `state` in the game's order, into `out`. Outcomes
    /// followed by another chance event are outcomes of their own only where the changed state
    /// matters to a deeper chance node (see the module documentation); elsewhere they are left
    /// out, as are repeats, which renormalises over the others. Returns whether any outcome
    /// leads to a decision.
    fn outcomes(&self, state: &G, next_ply: u32, out: &mut Vec<ChanceOutcome>) -> bool {
        let exact_chance_again = next_ply < self.settings.depth;
        state.chance_outcomes(out);
        out.retain(|o| match o.then {
            AfterOutcome::Decision => true,
            AfterOutcome::ChanceAgain => exact_chance_again,
            AfterOutcome::Repeat => false,
        });
        out.iter().any(|o| o.then == AfterOutcome::Decision)
    }

    /// A chance node: the player to move in `state` meets the chance event, then decides at
    /// ply `next_ply`.
    fn chance(&mut self, state: &G, next_ply: u32, alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        let mut buffers = self.chance_pool.pop().unwrap_or_default();
        let v = self.chance_with(&mut buffers, state, next_ply, alpha, beta);
        self.chance_pool.push(buffers);
        v
    }

    /// The body of `chance`, with the node's buffers.
    fn chance_with(
        &mut self,
        buffers: &mut ChanceBuffers,
        state: &G,
        next_ply: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let ChanceBuffers {
            outcomes,
            lo,
            hi,
            probed,
        } = buffers;
        if !self.outcomes(state, next_ply, outcomes) {
            // No outcome leads to a decision (Carcassonne: nothing hidden fits, every remaining
            // tile is discarded): the game ends here.
            self.nodes += 1;
            return state.evaluate(self.me, self.settings.evaluation);
        }
        let outcomes: &[ChanceOutcome] = outcomes;
        let n = outcomes.len();
        lo.clear();
        lo.resize(n, self.settings.lower);
        hi.clear();
        hi.resize(n, self.settings.upper);
        probed.clear();
        probed.resize(n, 0);
        let total: f64 = outcomes.iter().map(|o| o.weight).sum();
        let (alpha_w, beta_w) = (alpha * total, beta * total);
        // Probing bounds an outcome from the side of the player who moves after the event.
        let maximising_children = state.to_move() == self.me;
        let weighted =
            |b: &[f64]| -> f64 { outcomes.iter().zip(b).map(|(o, &x)| o.weight * x).sum() };

        // The bounds alone may already decide the node (L and U narrower than the window).
        let upper_all = weighted(hi);
        if upper_all <= alpha_w {
            return (upper_all / total).min(alpha);
        }
        let lower_all = weighted(lo);
        if lower_all >= beta_w {
            return (lower_all / total).max(beta);
        }

        if self.settings.probing > 0 {
            for (i, o) in outcomes.iter().enumerate() {
                if o.then != AfterOutcome::Decision {
                    continue;
                }
                let mut child = self.take_state(state);
                child.apply_outcome(o.label).expect("listed outcomes apply");
                // An outcome that ends the game has no moves to probe.
                debug_assert!(child.at_decision() || child.is_over());
                let moves = self.ordered_moves(&child);
                let m = (self.settings.probing as usize).min(moves.len());
                let mut cut = None;
                for &mv in &moves[..m] {
                    if maximising_children {
                        let others = weighted(lo) - o.weight * lo[i];
                        let b_i = (beta_w - others) / o.weight;
                        let r = self.after_move(&child, mv, next_ply, lo[i], b_i);
                        if r > lo[i] {
                            lo[i] = r;
                        }
                        if lo[i] >= b_i {
                            cut = Some((weighted(lo) / total).max(beta));
                            break;
                        }
                    } else {
                        let others = weighted(hi) - o.weight * hi[i];
                        let a_i = (alpha_w - others) / o.weight;
                        let r = self.after_move(&child, mv, next_ply, a_i, hi[i]);
                        if r < hi[i] {
                            hi[i] = r;
                        }
                        if hi[i] <= a_i {
                            cut = Some((weighted(hi) / total).min(alpha));
                            break;
                        }
                    }
                }
                probed[i] = m;
                self.move_pool.push(moves);
                self.state_pool.push(child);
                if let Some(v) = cut {
                    return v;
                }
            }
        }

        // Probing tightened the bounds of the probed side; the probes' cut tests already
        // compared them with the window.
        let upper_all = weighted(hi);
        let lower_all = weighted(lo);
        // Bounds of the outcomes after the current one.
        let mut rest_hi = upper_all;
        let mut rest_lo = lower_all;
        let mut sum = 0.0;
        for (i, o) in outcomes.iter().enumerate() {
            rest_hi -= o.weight * hi[i];
            rest_lo -= o.weight * lo[i];
            let a_i = (alpha_w - sum - rest_hi) / o.weight;
            let b_i = (beta_w - sum - rest_lo) / o.weight;
            let mut child = self.take_state(state);
            child.apply_outcome(o.label).expect("listed outcomes apply");
            let v = if o.then == AfterOutcome::Decision && child.is_over() {
                // The outcome ended the game (a roll that reaches the target).
                self.nodes += 1;
                child.evaluate(self.me, self.settings.evaluation)
            } else if o.then == AfterOutcome::Decision {
                debug_assert!(child.at_decision());
                let init =
                    (probed[i] > 0).then_some(if maximising_children { lo[i] } else { hi[i] });
                self.decision(&child, next_ply, a_i, b_i, probed[i], init)
            } else {
                debug_assert!(!child.at_decision());
                self.chance(&child, next_ply, a_i, b_i)
            };
            self.state_pool.push(child);
            if v <= a_i {
                return ((sum + o.weight * v + rest_hi) / total).min(alpha);
            }
            if v >= b_i {
                return ((sum + o.weight * v + rest_lo) / total).max(beta);
            }
            sum += o.weight * v;
        }
        sum / total
    }
}
