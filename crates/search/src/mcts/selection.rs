//! Tree policies at decision nodes: any formula through the compiled formula engine,
//! hand-coded UCT (the tests' reference), MCTS-RAVE, Thompson sampling and 2σ-UCT.
//!
//! By default every policy is called only once all children have been visited (unvisited
//! children are tried first, by the caller). Under first-play urgency a formula policy
//! ranks unvisited children too ([`Policy::select_with_urgency`]). Policies maximise the
//! children's statistics as stored: from the view of the player who chose them, who is
//! the player to move at the parent. Ties are broken by the settings' `tie_break`
//! ([`Tree::argmax`]): by default the first child in arena order, which is itself a random
//! order.

use rand::Rng;

use super::rave;
use super::settings::{FirstPlayUrgency, UnvisitedQ};
use super::thompson;
use super::tree::{NodeId, NodeKind, Tree};
use evomcts_formula::{CompiledFormula, SelectionInputs};

/// A resolved tree policy.
#[derive(Clone, Debug)]
pub(crate) enum Policy {
    Formula(CompiledFormula),
    HandCodedUct,
    /// `HandCodedUct` with a finished game's child valued by its outcome alone.
    OpenSpielUct,
    Rave {
        bias: f64,
    },
    Thompson {
        reshaped: bool,
    },
    /// `Q + 2σ·sqrt(ln(N)/n)`, σ from the tree's [`super::tree::QSpread`].
    TwoSigmaUct,
}

impl Policy {
    /// The child of `parent` to descend into.
    pub(crate) fn select<M: Copy, R: Rng + ?Sized>(
        &self,
        tree: &Tree<M>,
        parent: NodeId,
        c_e: f64,
        rng: &mut R,
    ) -> NodeId {
        let node = tree.get(parent);
        if node.child_count == 1 {
            return node.first_child;
        }
        match self {
            Policy::Formula(formula) => select_by_formula(formula, tree, parent, c_e, None),
            Policy::HandCodedUct => select_by_hand_coded_uct(tree, parent, c_e),
            Policy::OpenSpielUct => select_as_open_spiel(tree, parent, c_e),
            Policy::Rave { bias } => rave::select(tree, parent, c_e, *bias),
            Policy::Thompson { reshaped } => thompson::select(tree, parent, *reshaped, rng),
            Policy::TwoSigmaUct => select_by_two_sigma(tree, parent),
        }
    }

    /// The child of `parent` to descend into, visited or not: the formula ranks an
    /// unvisited child with the statistics `urgency` gives it. Only formula policies rank
    /// unvisited children (the settings' validation ensures it).
    pub(crate) fn select_with_urgency<M: Copy>(
        &self,
        tree: &Tree<M>,
        parent: NodeId,
        c_e: f64,
        urgency: FirstPlayUrgency,
    ) -> NodeId {
        let node = tree.get(parent);
        if node.child_count == 1 {
            return node.first_child;
        }
        match self {
            Policy::Formula(formula) => {
                select_by_formula(formula, tree, parent, c_e, Some(urgency))
            }
            _ => unreachable!("settings validation: first-play urgency needs a formula policy"),
        }
    }
}

fn select_by_formula<M: Copy>(
    formula: &CompiledFormula,
    tree: &Tree<M>,
    parent: NodeId,
    c_e: f64,
    urgency: Option<FirstPlayUrgency>,
) -> NodeId {
    let node = tree.get(parent);
    // The parent's terminals; the child's are filled below, and any other stays 0.
    let mut inputs = SelectionInputs {
        parent_visits: node.visits as f64,
        c_e,
        parent_q: node.q(),
        siblings: node.child_count as f64,
        ..SelectionInputs::default()
    };
    let unvisited = urgency.map(|urgency| {
        let q = match urgency.q {
            UnvisitedQ::ParentQ => node.q(),
            UnvisitedQ::Constant(q) => q,
        };
        (q, urgency.n)
    });
    let knowledge = tree.has_knowledge();
    let features = tree.has_features();
    tree.argmax(node.children(), |id| {
        let child = tree.get(id);
        match unvisited {
            Some((q, n)) if child.visits == 0 => {
                inputs.q = q;
                inputs.child_visits = n;
                inputs.reward_variance = 0.0;
            }
            _ => {
                inputs.q = child.q();
                inputs.child_visits = child.visits as f64;
                inputs.reward_variance = child.variance();
            }
        }
        if knowledge {
            let known = tree.knowledge(id);
            inputs.heuristic = known.heuristic;
            inputs.prior = known.prior;
        }
        if features {
            inputs.features = *tree.features(id);
        }
        formula.eval(&inputs)
    })
}

/// `Q + 2*C*sqrt(2*ln(N)/n)` with the operations in the order the formula engine
/// performs them, so the values agree bit for bit (N ≥ n ≥ 1 here, where the engine's
/// protections do not change anything).
fn select_by_hand_coded_uct<M: Copy>(tree: &Tree<M>, parent: NodeId, c_e: f64) -> NodeId {
    let node = tree.get(parent);
    let ln_parent = (node.visits as f64).ln();
    tree.argmax(node.children(), |child| {
        let child = tree.get(child);
        child.q() + (2.0 * c_e) * ((2.0 * ln_parent) / child.visits as f64).sqrt()
    })
}

/// 2σ-UCT: UCB1's `Q + λ·sqrt(ln(N)/n)` with λ twice the standard deviation of the Q values
/// of every visited move in the tree.
fn select_by_two_sigma<M: Copy>(tree: &Tree<M>, parent: NodeId) -> NodeId {
    let node = tree.get(parent);
    let lambda = 2.0 * tree.spread().expect("2σ-UCT tracks the spread").sigma();
    let ln_parent = (node.visits as f64).ln();
    tree.argmax(node.children(), |child| {
        let child = tree.get(child);
        child.q() + lambda * (ln_parent / child.visits as f64).sqrt()
    })
}

/// OpenSpiel's `SearchNode::UCTValue` (`open_spiel/algorithms/mcts.cc`), line by line:
/// a child whose `outcome` is set (OpenSpiel sets it when a simulation reaches the end of the
/// game there, so here: a terminal child, which has been reached) is valued by that outcome
/// alone, without exploration (its mean here: every simulation through it ends the same);
/// an unvisited child by +∞; every other child by UCT, computed as
/// `select_by_hand_coded_uct` computes it. Ties go to the first child in arena order, a
/// random order, as OpenSpiel's strict `>` over its shuffled children. OpenSpiel's other half
/// of the rule, that the final move prefers a proven outcome, is
/// `SearchCore::best_root_child` with `outcomes_first`. OpenSpiel's solver (`solve=true`,
/// which also gives non-terminal nodes an outcome) is not reproduced.
fn select_as_open_spiel<M: Copy>(tree: &Tree<M>, parent: NodeId, c_e: f64) -> NodeId {
    let node = tree.get(parent);
    let ln_parent = (node.visits as f64).ln();
    tree.argmax(node.children(), |child| {
        let child = tree.get(child);
        if child.kind == NodeKind::Terminal {
            child.q()
        } else if child.visits == 0 {
            f64::INFINITY
        } else {
            child.q() + (2.0 * c_e) * ((2.0 * ln_parent) / child.visits as f64).sqrt()
        }
    })
}

impl Policy {
    /// Whether the final move ranks a root child whose game is over by its outcome before
    /// the final-move rule (OpenSpiel's `SearchNode::CompareFinal`): only `OpenSpielUct`,
    /// whose tree policy starves such a child of visits once tried.
    pub(crate) fn final_move_ranks_outcomes_first(&self) -> bool {
        matches!(self, Policy::OpenSpielUct)
    }
}

#[cfg(test)]
mod tests {
    use evomcts_formula::Terminal;
    use evomcts_games::MOVE_FEATURE_SYMBOLS;

    /// The search copies a game's move features into the formula's inputs as one array, so
    /// the game's order must be the table's.
    #[test]
    fn the_games_move_features_are_the_formulas_in_order() {
        assert_eq!(
            Terminal::MOVE_FEATURES.map(Terminal::symbol),
            MOVE_FEATURE_SYMBOLS
        );
    }
}
