//! The Star1/Star2/Star2.5 search itself: fail-soft alpha-beta at decision nodes, Ballard's
//! window arithmetic at chance nodes, and a probing phase that bounds each outcome by its
//! first moves.
//!
//! Values are from the searching player's view: decision nodes where that player moves
//! maximise, the opponent's minimise. Every search function honours the fail-soft contract:
//! for a window (α, β) a result r ≤ α means the true value is ≤ r, r ≥ β means it is ≥ r, and
//! anything between is exact. Chance values are sums of `count × value` in tile-type order
//! divided once by the total count, exactly as in `expectimax`, so the two agree bit for bit
//! when nothing is cut.
//!
//! States and move lists come from pools that grow to the search depth and are then reused: a
//! search allocates nothing per node once warm.

use super::{SearchResult, StarError, StarSettings};
use crate::game::evaluation::{evaluate, order_moves};
use crate::game::{GameError, GameState, Move, Reveal, TileKind, Unplaceable};

#[derive(Copy, Clone)]
struct Outcome {
    kind: TileKind,
    /// Hidden count of the type: its weight in the chance node.
    weight: f64,
    /// The type fits nowhere: drawing it discards it and the same player draws again.
    discarded: bool,
}

const NO_OUTCOME: Outcome = Outcome {
    kind: TileKind::A,
    weight: 0.0,
    discarded: false,
};

/// A reusable Star searcher: keeps its buffers between searches.
pub struct StarSearcher {
    settings: StarSettings,
    /// The searching player.
    me: usize,
    nodes: u64,
    generated: Vec<Move>,
    move_pool: Vec<Vec<Move>>,
    state_pool: Vec<Box<GameState>>,
}

impl StarSearcher {
    pub fn new(settings: &StarSettings) -> Result<Self, StarError> {
        settings.validate()?;
        Ok(StarSearcher {
            settings: settings.clone(),
            me: 0,
            nodes: 0,
            generated: Vec::with_capacity(256),
            move_pool: Vec::new(),
            state_pool: Vec::new(),
        })
    }

    pub fn settings(&self) -> &StarSettings {
        &self.settings
    }

    /// The best move for the player to move in `state`, which must have a drawn tile.
    pub fn search(&mut self, state: &GameState) -> Result<SearchResult, StarError> {
        if state.drawn().is_none() {
            return Err(if state.is_over() {
                GameError::GameOver
            } else {
                GameError::NothingDrawn
            }
            .into());
        }
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

    fn take_state(&mut self, from: &GameState) -> Box<GameState> {
        match self.state_pool.pop() {
            Some(mut s) => {
                (*s).clone_from(from);
                s
            }
            None => Box::new(from.clone()),
        }
    }

    /// The legal moves of the drawn tile in search order, in a pooled buffer the caller gives
    /// back to `move_pool`.
    fn ordered_moves(&mut self, state: &GameState) -> Vec<Move> {
        let mut out = self.move_pool.pop().unwrap_or_default();
        state.legal_moves(&mut self.generated);
        let kind = state.drawn().expect("a decision node has a drawn tile");
        order_moves(kind, &self.generated, &mut out);
        out
    }

    /// The value of playing `mv` at decision ply `ply`: an evaluated leaf at the horizon or
    /// when the stack is empty, else the chance node of the next draw.
    fn after_move(&mut self, state: &GameState, mv: Move, ply: u32, alpha: f64, beta: f64) -> f64 {
        let mut child = self.take_state(state);
        child.apply(mv).expect("generated moves are legal");
        let v = if ply >= self.settings.depth || child.is_over() {
            self.nodes += 1;
            evaluate(&child, self.me, self.settings.evaluation)
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
        state: &GameState,
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

    /// The outcomes of the next draw in tile-type order. Unplaceable types are outcomes of
    /// their own only where the discard changes what a deeper chance node sees (see the module
    /// documentation); elsewhere they are left out, which renormalises over the placeable ones.
    fn outcomes(&self, state: &GameState, next_ply: u32, out: &mut [Outcome; 24]) -> (usize, bool) {
        let exact_discards =
            state.rules().unplaceable == Unplaceable::Discard && next_ply < self.settings.depth;
        let mut n = 0;
        let mut any_placeable = false;
        for (i, &count) in state.hidden_counts().iter().enumerate() {
            if count == 0 {
                continue;
            }
            let kind = TileKind::from_index(i);
            let placeable = state.placement_count(kind) > 0;
            if placeable || exact_discards {
                out[n] = Outcome {
                    kind,
                    weight: f64::from(count),
                    discarded: !placeable,
                };
                n += 1;
            }
            any_placeable |= placeable;
        }
        (n, any_placeable)
    }

    /// A chance node: the player to move in `state` draws, then decides at ply `next_ply`.
    fn chance(&mut self, state: &GameState, next_ply: u32, alpha: f64, beta: f64) -> f64 {
        self.nodes += 1;
        let mut outcomes = [NO_OUTCOME; 24];
        let (n, any_placeable) = self.outcomes(state, next_ply, &mut outcomes);
        if !any_placeable {
            // Nothing hidden fits: every remaining tile is discarded and the game ends here.
            self.nodes += 1;
            return evaluate(state, self.me, self.settings.evaluation);
        }
        let outcomes = &outcomes[..n];
        let total: f64 = outcomes.iter().map(|o| o.weight).sum();
        let (alpha_w, beta_w) = (alpha * total, beta * total);
        let mut lo = [self.settings.lower; 24];
        let mut hi = [self.settings.upper; 24];
        let mut probed = [0usize; 24];
        // Probing bounds an outcome from the side of the player who moves after the draw.
        let maximising_children = state.to_move() == self.me;
        let weighted =
            |b: &[f64; 24]| -> f64 { outcomes.iter().zip(b).map(|(o, &x)| o.weight * x).sum() };

        // The bounds alone may already decide the node (L and U narrower than the window).
        let upper_all = weighted(&hi);
        if upper_all <= alpha_w {
            return (upper_all / total).min(alpha);
        }
        let lower_all = weighted(&lo);
        if lower_all >= beta_w {
            return (lower_all / total).max(beta);
        }

        if self.settings.probing > 0 {
            for (i, o) in outcomes.iter().enumerate() {
                if o.discarded {
                    continue;
                }
                let mut child = self.take_state(state);
                let revealed = child.reveal(o.kind).expect("outcome types are hidden");
                debug_assert_eq!(revealed, Reveal::Ready);
                let moves = self.ordered_moves(&child);
                let m = (self.settings.probing as usize).min(moves.len());
                let mut cut = None;
                for &mv in &moves[..m] {
                    if maximising_children {
                        let others = weighted(&lo) - o.weight * lo[i];
                        let b_i = (beta_w - others) / o.weight;
                        let r = self.after_move(&child, mv, next_ply, lo[i], b_i);
                        if r > lo[i] {
                            lo[i] = r;
                        }
                        if lo[i] >= b_i {
                            cut = Some((weighted(&lo) / total).max(beta));
                            break;
                        }
                    } else {
                        let others = weighted(&hi) - o.weight * hi[i];
                        let a_i = (alpha_w - others) / o.weight;
                        let r = self.after_move(&child, mv, next_ply, a_i, hi[i]);
                        if r < hi[i] {
                            hi[i] = r;
                        }
                        if hi[i] <= a_i {
                            cut = Some((weighted(&hi) / total).min(alpha));
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
        let upper_all = weighted(&hi);
        let lower_all = weighted(&lo);
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
            let revealed = child.reveal(o.kind).expect("outcome types are hidden");
            let v = if o.discarded {
                debug_assert_eq!(revealed, Reveal::Discarded);
                self.chance(&child, next_ply, a_i, b_i)
            } else {
                let init =
                    (probed[i] > 0).then_some(if maximising_children { lo[i] } else { hi[i] });
                self.decision(&child, next_ply, a_i, b_i, probed[i], init)
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
