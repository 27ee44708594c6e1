//! The tree's invariants, checked by replaying every edge from the root: node kinds match
//! the replayed states, visit counts add up, and every node's statistics are from the view
//! of the player who chose it. For tests on any game; a search never calls it.

use super::tree::{NodeId, NodeKind, ROOT};
use super::MctsController;
use evomcts_games::{Game, GameRng};
use rand::SeedableRng;

/// What [`MctsController::check_tree`] walked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeCheck {
    /// Reached nodes where the game was over.
    pub terminals: usize,
    /// Reached decision nodes below the root.
    pub deep_decisions: usize,
    /// Reached nodes of any kind.
    pub nodes: usize,
}

macro_rules! ensure {
    ($cond:expr, $($why:tt)+) => {
        if !$cond {
            return Err(format!($($why)+));
        }
    };
}

impl<G: Game> MctsController<G> {
    /// Replays the last search's tree and checks its invariants; the first one broken is
    /// the error. Before any decision the tree is empty and passes.
    pub fn check_tree(&self) -> Result<TreeCheck, String> {
        let mut checked = TreeCheck::default();
        if self.started {
            let root = self.root_state().clone();
            self.check_node(ROOT, &root, &mut checked)?;
        }
        Ok(checked)
    }

    fn check_node(&self, id: NodeId, state: &G, checked: &mut TreeCheck) -> Result<(), String> {
        let tree = &self.core.tree;
        let node = *tree.get(id);
        checked.nodes += 1;
        let children: Vec<NodeId> = node.children().collect();
        let reached: Vec<NodeId> = children
            .iter()
            .copied()
            .filter(|&ch| tree.get(ch).kind != NodeKind::Unexpanded)
            .collect();
        for &ch in &children {
            let child = tree.get(ch);
            ensure!(
                (child.kind != NodeKind::Unexpanded) == (child.visits > 0),
                "node {ch}: reached ({:?}) but {} visits",
                child.kind,
                child.visits
            );
        }
        // A node's own first rollout (every node but the root) plus its children's visits.
        let child_visits: u32 = reached.iter().map(|&ch| tree.get(ch).visits).sum();
        let own = u32::from(id != ROOT);
        if node.kind != NodeKind::Terminal && node.visits > 0 {
            ensure!(
                node.visits == own + child_visits,
                "node {id} ({:?}): {} visits, children and own rollout {}",
                node.kind,
                node.visits,
                own + child_visits
            );
        }
        // The same rewards, seen from each node's player: the node's sums are its children's
        // (negated where the child's player differs) plus its own first rollout.
        if id != ROOT && node.kind != NodeKind::Terminal {
            let signed: f64 = reached
                .iter()
                .map(|&ch| {
                    let child = tree.get(ch);
                    if child.player == node.player {
                        child.sum
                    } else {
                        -child.sum
                    }
                })
                .sum();
            let squares: f64 = reached.iter().map(|&ch| tree.get(ch).sum_sq).sum();
            let first = node.sum - signed;
            // Exact for integer rewards; scaled rewards carry rounding.
            let (own_square, rest) = (first * first, node.sum_sq - squares);
            let adds_up = (own_square - rest).abs() <= 1e-9 * node.sum_sq.max(1.0);
            ensure!(
                adds_up,
                "node {id}: the sums of squares do not add up ({own_square} against {rest})"
            );
        }
        match node.kind {
            NodeKind::Unexpanded => return Err(format!("node {id}: walked but unexpanded")),
            NodeKind::Terminal => {
                ensure!(state.is_terminal(), "node {id}: terminal, the game goes on");
                // Scoring a finished game draws nothing: any seed gives the final scores.
                let mut end = state.clone();
                end.play_out_randomly(&mut GameRng::seed_from_u64(0));
                let s = end.scores();
                let p = node.player as usize;
                let diff = s[p] - s[1 - p];
                // From the view of the player who chose the last move: a terminal's value is
                // exactly its final score difference (times its visits, one rollout each).
                if self.settings.rollouts_per_leaf == 1 {
                    let reward = self.reward.of_difference(diff);
                    ensure!(
                        node.sum == reward * node.visits as f64,
                        "terminal {id}: sum {} for {} visits of reward {reward}",
                        node.sum,
                        node.visits
                    );
                }
                checked.terminals += 1;
            }
            NodeKind::Decision => {
                ensure!(
                    state.at_decision(),
                    "node {id}: a decision node, no decision due"
                );
                if id != ROOT {
                    checked.deep_decisions += 1;
                }
                let mut legal = Vec::new();
                state.legal_moves(&mut legal);
                ensure!(
                    children.is_empty() || children.len() == legal.len(),
                    "node {id}: {} children for {} legal moves",
                    children.len(),
                    legal.len()
                );
                for &ch in &children {
                    let child = tree.get(ch);
                    ensure!(
                        child.player as usize == state.to_move(),
                        "node {ch}: a move is chosen by the player to move"
                    );
                    ensure!(legal.contains(&child.mv), "node {ch}: an illegal move");
                }
                for &ch in &reached {
                    let mut next = state.clone();
                    next.apply_move(tree.get(ch).mv)
                        .map_err(|err| format!("node {ch}: {err}"))?;
                    ensure!(
                        tree.get(ch).kind == expected_kind(&next),
                        "node {ch}: {:?}, the game says {:?}",
                        tree.get(ch).kind,
                        expected_kind(&next)
                    );
                    self.check_node(ch, &next, checked)?;
                }
            }
            NodeKind::Chance => {
                ensure!(
                    !state.at_decision(),
                    "node {id}: a chance node at a decision"
                );
                if !children.is_empty() {
                    let mut slots = Vec::new();
                    state.chance_slots(|label| slots.push(label));
                    let labels: Vec<u8> = children.iter().map(|&ch| tree.get(ch).tile).collect();
                    ensure!(labels == slots, "node {id}: one child per outcome slot");
                }
                for &ch in &reached {
                    let child = tree.get(ch);
                    let mut next = state.clone();
                    next.apply_outcome(child.tile)
                        .map_err(|err| format!("node {ch}: {err}"))?;
                    ensure!(
                        child.kind == expected_kind(&next),
                        "node {ch}: {:?}, the game says {:?}",
                        child.kind,
                        expected_kind(&next)
                    );
                    ensure!(
                        child.player as usize == next.to_move(),
                        "node {ch}: an outcome's node takes the view of the player to move"
                    );
                    self.check_node(ch, &next, checked)?;
                }
            }
        }
        Ok(())
    }
}

/// The kind of node the search gives a state it reaches.
fn expected_kind<G: Game>(state: &G) -> NodeKind {
    if state.at_decision() {
        NodeKind::Decision
    } else if state.is_terminal() {
        NodeKind::Terminal
    } else {
        NodeKind::Chance
    }
}
