//! Selection situations from a finished search: every sibling set of the tree that the tree
//! policy ranks, with the inputs each child shows it. Evolution fingerprints formulas on a
//! bank of them (`formula::fingerprint`, `evolve::hashing`).
//!
//! A set is recorded exactly as `selection::select_by_formula` builds its inputs (the parity
//! test below replays the policy on every set), so a formula's choice on a recorded set is
//! the child it would descend into there.

use super::settings::{Unvisited, UnvisitedQ};
use super::tree::{NodeId, NodeKind};
use super::MctsController;
use evomcts_formula::{SelectionInputs, SiblingSets};
use evomcts_games::Game;

impl<G: Game> MctsController<G> {
    /// Appends to `out` one sibling set per decision node of the last search's tree that the
    /// formula would rank now: nodes with at least 2 children, every child visited under the
    /// default `TriedFirst` rule, or any allocated node under first-play urgency (unvisited
    /// children then show the urgency's `Q` and `n`, as the policy sees them). `H` and `p` are
    /// the tree's when it computes knowledge, 0 otherwise. Nodes come in arena order, so the
    /// sets are a deterministic function of the search.
    pub fn sibling_sets(&self, out: &mut SiblingSets) {
        if !self.started {
            return;
        }
        for id in self.ranked_nodes() {
            out.push_set(self.child_inputs(id));
        }
    }

    /// The decision nodes the policy would rank (see `sibling_sets`).
    fn ranked_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        let tried_first = self.settings.unvisited == Unvisited::TriedFirst;
        self.core
            .tree
            .nodes()
            .iter()
            .enumerate()
            .filter(move |(_, node)| {
                node.kind == NodeKind::Decision
                    && node.child_count >= 2
                    && (!tried_first || node.expanded == node.child_count)
            })
            .map(|(id, _)| id as NodeId)
    }

    /// The inputs of every child of `parent`, in arena order; keep in step with
    /// `selection::select_by_formula`.
    fn child_inputs(&self, parent: NodeId) -> impl Iterator<Item = SelectionInputs> + '_ {
        let tree = &self.core.tree;
        let node = tree.get(parent);
        let unvisited = match self.settings.unvisited {
            Unvisited::TriedFirst => None,
            Unvisited::Ranked(urgency) => {
                let q = match urgency.q {
                    UnvisitedQ::ParentQ => node.q(),
                    UnvisitedQ::Constant(q) => q,
                };
                Some((q, urgency.n))
            }
        };
        // The parent's terminals; the child's are filled below, and any other stays 0.
        let base = SelectionInputs {
            parent_visits: node.visits as f64,
            c_e: self.settings.c_e,
            parent_q: node.q(),
            siblings: node.child_count as f64,
            ..SelectionInputs::default()
        };
        node.children().map(move |id| {
            let child = tree.get(id);
            let mut inputs = base;
            match unvisited {
                Some((q, n)) if child.visits == 0 => {
                    inputs.q = q;
                    inputs.child_visits = n;
                }
                _ => {
                    inputs.q = child.q();
                    inputs.child_visits = child.visits as f64;
                    inputs.reward_variance = child.variance();
                }
            }
            if tree.has_knowledge() {
                let known = tree.knowledge(id);
                inputs.heuristic = known.heuristic;
                inputs.prior = known.prior;
            }
            if tree.has_features() {
                inputs.features = *tree.features(id);
            }
            inputs
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::{FirstPlayUrgency, MctsSettings, Selection};
    use evomcts_formula::{first_argmax, CompiledFormula, Formula};
    use evomcts_games::pig::{sample_positions, PigRules};
    use rand::SeedableRng;

    fn pig_positions(count: usize, seed: u64) -> Vec<evomcts_games::pig::PigState> {
        sample_positions(PigRules::new(40).unwrap(), count, seed).unwrap()
    }

    /// Every recorded set, replayed through the real policy, gives the child the formula's
    /// first maximum on the recorded inputs names.
    fn assert_parity(settings: &MctsSettings, formula: &str, min_sets: usize) {
        let settings = MctsSettings {
            selection: Selection::Formula(formula.into()),
            ..settings.clone()
        };
        let compiled = CompiledFormula::new(&Formula::parse(formula).unwrap()).unwrap();
        let mut seen = 0;
        for (i, state) in pig_positions(6, 17).iter().enumerate() {
            let mut controller = MctsController::new(&settings, i as u64).unwrap();
            controller.try_choose_move(state).unwrap();
            let mut sets = SiblingSets::new();
            controller.sibling_sets(&mut sets);
            let nodes: Vec<NodeId> = controller.ranked_nodes().collect();
            assert_eq!(nodes.len(), sets.len());
            let mut rng = evomcts_games::GameRng::seed_from_u64(0);
            for (set, &id) in sets.iter().zip(&nodes) {
                let tree = &controller.core.tree;
                let picked = match settings.unvisited {
                    Unvisited::TriedFirst => {
                        controller.policy.select(tree, id, settings.c_e, &mut rng)
                    }
                    Unvisited::Ranked(urgency) => {
                        controller
                            .policy
                            .select_with_urgency(tree, id, settings.c_e, urgency)
                    }
                };
                let expected = tree.get(id).first_child
                    + first_argmax(set.iter().map(|x| compiled.eval(x))) as NodeId;
                assert_eq!(picked, expected, "{formula}: node {id}");
            }
            seen += sets.len();
        }
        assert!(seen >= min_sets, "{formula}: only {seen} sets");
    }

    #[test]
    fn recorded_sets_are_what_the_policy_ranks() {
        let plain = MctsSettings {
            sims: 120,
            ..MctsSettings::default()
        };
        assert_parity(&plain, "Q + 2*C*sqrt(2*ln(N)/n)", 3);
        assert_parity(&plain, "Q + V/n + 0.3*H/(n+1) + p", 3);
        let urgent = MctsSettings {
            sims: 40,
            unvisited: Unvisited::Ranked(FirstPlayUrgency::default()),
            ..MctsSettings::default()
        };
        // Under urgency every allocated node counts, visited or not.
        assert_parity(&urgent, "Q + 0.5*H/(n+1) + C*p*sqrt(N)/(1+n)", 12);
    }

    #[test]
    fn knowledge_shows_only_when_the_tree_computes_it() {
        let state = &pig_positions(1, 5)[0];
        let settings = |formula: &str| MctsSettings {
            sims: 120,
            selection: Selection::Formula(formula.into()),
            ..MctsSettings::default()
        };
        let heuristics = |formula: &str| {
            let mut controller = MctsController::new(&settings(formula), 1).unwrap();
            controller.try_choose_move(state).unwrap();
            let mut sets = SiblingSets::new();
            controller.sibling_sets(&mut sets);
            assert!(!sets.is_empty());
            let known = sets
                .iter()
                .flatten()
                .any(|x| x.heuristic != 0.0 || x.prior != 0.0);
            known
        };
        assert!(!heuristics("Q + C*sqrt(ln(N)/n)"));
        assert!(heuristics("Q + C*sqrt(ln(N)/n) + 0*H"));
    }
}
