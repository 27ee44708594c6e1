//! Plain expectimax without pruning: the reference the Star searches are proven against.
//!
//! Deliberately written apart from `searcher` and as simply as possible: it follows the draw
//! rules through `GameState::reveal` itself, tries every move, and shares only the move order
//! (so ties go to the same move) and the evaluation.

use super::{SearchResult, StarError, MAX_DEPTH};
use crate::game::evaluation::{evaluate, order_moves};
use crate::game::{GameError, GameState, Reveal, TileKind, Unplaceable};
use crate::games::Evaluation;

struct Expectimax {
    depth: u32,
    evaluation: Evaluation,
    me: usize,
    nodes: u64,
    leaf_range: [f64; 2],
}

/// The expectimax value and best move of `state` (with a drawn tile) searched to `depth`
/// decision plies, the root being ply 1; the same tree as the Star searches.
pub fn expectimax(
    state: &GameState,
    depth: u32,
    evaluation: Evaluation,
) -> Result<SearchResult, StarError> {
    expectimax_with_leaf_range(state, depth, evaluation).map(|(r, _)| r)
}

/// `expectimax`, plus the least and greatest evaluation met at any leaf: L and U at or beyond
/// these are true bounds for this tree, so a Star search with them must agree.
pub fn expectimax_with_leaf_range(
    state: &GameState,
    depth: u32,
    evaluation: Evaluation,
) -> Result<(SearchResult, [f64; 2]), StarError> {
    if depth == 0 || depth > MAX_DEPTH {
        return Err(StarError::Setting {
            field: "depth",
            why: format!("{depth} is not in 1..={MAX_DEPTH}"),
        });
    }
    if state.drawn().is_none() {
        return Err(GameError::NothingDrawn.into());
    }
    let mut x = Expectimax {
        depth,
        evaluation,
        me: state.to_move(),
        nodes: 1,
        leaf_range: [f64::INFINITY, f64::NEG_INFINITY],
    };
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for mv in x.moves(state) {
        let v = x.after_move(state, mv, 1);
        if v > best_value {
            best_value = v;
            best = Some(mv);
        }
    }
    let result = SearchResult {
        best: best.expect("a drawn tile has a move"),
        value: best_value,
        nodes: x.nodes,
    };
    Ok((result, x.leaf_range))
}

impl Expectimax {
    fn leaf(&mut self, state: &GameState) -> f64 {
        self.nodes += 1;
        let v = evaluate(state, self.me, self.evaluation);
        self.leaf_range = [self.leaf_range[0].min(v), self.leaf_range[1].max(v)];
        v
    }

    fn moves(&self, state: &GameState) -> Vec<crate::game::Move> {
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let mut ordered = Vec::new();
        order_moves(state.drawn().expect("drawn"), &legal, &mut ordered);
        ordered
    }

    fn after_move(&mut self, state: &GameState, mv: crate::game::Move, ply: u32) -> f64 {
        let mut child = state.clone();
        child.apply(mv).expect("legal move");
        if ply >= self.depth || child.is_over() {
            self.leaf(&child)
        } else {
            self.chance(&child, ply + 1)
        }
    }

    fn decision(&mut self, state: &GameState, ply: u32) -> f64 {
        self.nodes += 1;
        let maximising = state.to_move() == self.me;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for mv in self.moves(state) {
            let v = self.after_move(state, mv, ply);
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
            }
        }
        best
    }

    fn chance(&mut self, state: &GameState, next_ply: u32) -> f64 {
        self.nodes += 1;
        if !TileKind::ALL
            .iter()
            .any(|&k| state.hidden_counts()[k.index()] > 0 && state.placement_count(k) > 0)
        {
            return self.leaf(state);
        }
        // A discard only matters when a chance node below the next decision sees the counts.
        let follow_discards =
            state.rules().unplaceable == Unplaceable::Discard && next_ply < self.depth;
        let mut sum = 0.0;
        let mut total = 0.0;
        for kind in TileKind::ALL {
            let count = f64::from(state.hidden_counts()[kind.index()]);
            if count == 0.0 {
                continue;
            }
            let mut child = state.clone();
            match child.reveal(kind).expect("hidden type") {
                Reveal::Ready => {
                    sum += count * self.decision(&child, next_ply);
                    total += count;
                }
                Reveal::Discarded if follow_discards => {
                    sum += count * self.chance(&child, next_ply);
                    total += count;
                }
                Reveal::Discarded | Reveal::ReturnedToBottom => {}
            }
        }
        sum / total
    }
}
