//! Plain expectimax without pruning: the reference the Star searches are proven against.
//!
//! Deliberately written apart from `searcher` and as simply as possible: it tries every move
//! and every outcome, checks that each outcome leads where the game says it does, and shares
//! only the move order (so ties go to the same move) and the evaluation.

use super::{SearchResult, StarError, MAX_DEPTH};
use evomcts_games::{AfterOutcome, Evaluation, Game};

struct Expectimax {
    depth: u32,
    evaluation: Evaluation,
    me: usize,
    nodes: u64,
    leaf_range: [f64; 2],
}

/// The expectimax value and best move of `state` (at a decision) searched to `depth` decision
/// plies, the root being ply 1; the same tree as the Star searches.
pub fn expectimax<G: Game>(
    state: &G,
    depth: u32,
    evaluation: Evaluation,
) -> Result<SearchResult<G::Move>, StarError> {
    expectimax_with_leaf_range(state, depth, evaluation).map(|(r, _)| r)
}

/// `expectimax`, plus the least and greatest evaluation met at any leaf: L and U at or beyond
/// these are true bounds for this tree, so a Star search with them must agree.
pub fn expectimax_with_leaf_range<G: Game>(
    state: &G,
    depth: u32,
    evaluation: Evaluation,
) -> Result<(SearchResult<G::Move>, [f64; 2]), StarError> {
    if depth == 0 || depth > MAX_DEPTH {
        return Err(StarError::Setting {
            field: "depth",
            why: format!("{depth} is not in 1..={MAX_DEPTH}"),
        });
    }
    if !G::offers(evaluation) {
        return Err(StarError::Setting {
            field: "evaluation",
            why: format!("{evaluation:?} is not offered by this game"),
        });
    }
    StarError::check_root(state)?;
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
        best: best.expect("a decision has a move"),
        value: best_value,
        nodes: x.nodes,
    };
    Ok((result, x.leaf_range))
}

impl Expectimax {
    fn leaf<G: Game>(&mut self, state: &G) -> f64 {
        self.nodes += 1;
        let v = state.evaluate(self.me, self.evaluation);
        self.leaf_range = [self.leaf_range[0].min(v), self.leaf_range[1].max(v)];
        v
    }

    fn moves<G: Game>(&self, state: &G) -> Vec<G::Move> {
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let mut ordered = Vec::new();
        state.order_moves(&legal, &mut ordered);
        ordered
    }

    fn after_move<G: Game>(&mut self, state: &G, mv: G::Move, ply: u32) -> f64 {
        let mut child = state.clone();
        child.apply_move(mv).expect("legal move");
        if ply >= self.depth || child.is_over() {
            self.leaf(&child)
        } else if child.at_decision() {
            self.decision(&child, ply + 1)
        } else {
            self.chance(&child, ply + 1)
        }
    }

    fn decision<G: Game>(&mut self, state: &G, ply: u32) -> f64 {
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

    fn chance<G: Game>(&mut self, state: &G, next_ply: u32) -> f64 {
        self.nodes += 1;
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        if !outcomes.iter().any(|o| o.then == AfterOutcome::Decision) {
            return self.leaf(state);
        }
        // Another chance event only matters when a chance node below the next decision sees
        // the changed state.
        let follow_chance_again = next_ply < self.depth;
        let mut sum = 0.0;
        let mut total = 0.0;
        for o in outcomes {
            let mut child = state.clone();
            child.apply_outcome(o.label).expect("listed outcome");
            match o.then {
                AfterOutcome::Decision if child.is_over() => {
                    sum += o.weight * self.leaf(&child);
                    total += o.weight;
                }
                AfterOutcome::Decision => {
                    assert!(child.at_decision(), "{o:?} leads to a decision");
                    sum += o.weight * self.decision(&child, next_ply);
                    total += o.weight;
                }
                AfterOutcome::ChanceAgain if follow_chance_again => {
                    assert!(!child.at_decision(), "{o:?} leads to another chance event");
                    sum += o.weight * self.chance(&child, next_ply);
                    total += o.weight;
                }
                AfterOutcome::ChanceAgain | AfterOutcome::Repeat => {}
            }
        }
        sum / total
    }
}
