//! Invariants of the tree after real searches, checked by replaying every edge from the
//! root: node kinds match the replayed states, visit counts add up, and every node's
//! statistics are from the view of the player who chose it.

use super::tree::{Node, NodeId, NodeKind, ROOT};
use super::*;
use crate::game::{sample_positions, Reveal, TileKind};

fn searched(settings: &MctsSettings, turns: std::ops::Range<usize>, seed: u64) -> MctsController {
    let state = &sample_positions(1, seed, turns)[0];
    let mut controller = MctsController::new(settings, seed).unwrap();
    controller.try_choose_move(state).unwrap();
    controller
}

struct Checked {
    terminals: usize,
    deep_decisions: usize,
}

/// Walks the tree depth first with the state of each node, checking the invariants.
fn check_node(c: &MctsController, id: NodeId, state: &GameState, checked: &mut Checked) {
    let tree = &c.core.tree;
    let node: Node = *tree.get(id);
    let children: Vec<NodeId> = node.children().collect();
    let reached: Vec<NodeId> = children
        .iter()
        .copied()
        .filter(|&ch| tree.get(ch).kind != NodeKind::Unexpanded)
        .collect();
    for &ch in &children {
        let child = tree.get(ch);
        assert_eq!(
            child.kind != NodeKind::Unexpanded,
            child.visits > 0,
            "reached exactly when visited"
        );
    }
    // A node's own first rollout (every node but the root) plus its children's visits.
    let child_visits: u32 = reached.iter().map(|&ch| tree.get(ch).visits).sum();
    let own = u32::from(id != ROOT);
    if node.kind != NodeKind::Terminal && node.visits > 0 {
        assert_eq!(node.visits, own + child_visits, "node {id} {:?}", node.kind);
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
        assert_eq!(first * first, node.sum_sq - squares, "node {id}");
    }
    match node.kind {
        NodeKind::Unexpanded => unreachable!("only reached nodes are walked"),
        NodeKind::Terminal => {
            let mut end = state.clone();
            assert!(end.is_over());
            end.finish();
            let s = end.scores();
            let p = node.player as usize;
            let diff = (s[p] - s[1 - p]) as f64;
            // From the view of the player who chose the last move: a terminal's value
            // is exactly its final score difference.
            assert_eq!(node.sum, diff * node.visits as f64, "terminal {id}");
            checked.terminals += 1;
        }
        NodeKind::Decision => {
            assert_eq!(node.player as usize, state.to_move());
            assert_eq!(Some(node.tile as usize), state.drawn().map(TileKind::index));
            if id != ROOT {
                checked.deep_decisions += 1;
            }
            for &ch in &children {
                let child = tree.get(ch);
                assert_eq!(child.player, node.player, "a move is chosen by the mover");
                state.check_move(child.mv).unwrap();
            }
            for &ch in &reached {
                let mut next = state.clone();
                next.apply(tree.get(ch).mv).unwrap();
                assert_eq!(tree.get(ch).kind == NodeKind::Terminal, next.is_over());
                check_node(c, ch, &next, checked);
            }
        }
        NodeKind::Chance => {
            assert!(state.drawn().is_none());
            let hidden: Vec<usize> = (0..TileKind::COUNT)
                .filter(|&k| state.hidden_counts()[k] > 0)
                .collect();
            if !children.is_empty() {
                let kinds: Vec<usize> = children
                    .iter()
                    .map(|&ch| tree.get(ch).tile as usize)
                    .collect();
                assert_eq!(kinds, hidden, "one outcome per hidden kind");
            }
            for &ch in &reached {
                let child = tree.get(ch);
                let mut next = state.clone();
                let reveal = next
                    .reveal(TileKind::from_index(child.tile as usize))
                    .unwrap();
                let expected = match reveal {
                    Reveal::Ready => NodeKind::Decision,
                    _ if next.is_over() => NodeKind::Terminal,
                    _ => NodeKind::Chance,
                };
                assert_eq!(child.kind, expected);
                assert_eq!(child.player as usize, next.to_move());
                check_node(c, ch, &next, checked);
            }
        }
    }
}

fn check_tree(c: &MctsController) -> Checked {
    let mut checked = Checked {
        terminals: 0,
        deep_decisions: 0,
    };
    let root = c.root_state().clone();
    check_node(c, ROOT, &root, &mut checked);
    checked
}

#[test]
fn tree_invariants_hold_mid_game() {
    let settings = MctsSettings {
        sims: 3000,
        ..MctsSettings::default()
    };
    for seed in 0..3 {
        let c = searched(&settings, 20..40, seed);
        let checked = check_tree(&c);
        assert!(checked.deep_decisions > 10);
    }
}

#[test]
fn terminal_values_are_from_the_view_of_the_player_who_chose() {
    // Near the end, simulations reach the end of the game inside the tree.
    let settings = MctsSettings {
        sims: 2000,
        ..MctsSettings::default()
    };
    let mut terminals = 0;
    for seed in 0..4 {
        let c = searched(&settings, 67..69, seed);
        terminals += check_tree(&c).terminals;
    }
    assert!(terminals > 10, "only {terminals} terminal nodes reached");
}

#[test]
fn thompson_successes_follow_the_sign_of_the_score_difference() {
    // With +1/0/-1 rewards and one rollout per leaf, the reward sum is wins - losses =
    // (wins_x2/2) - (visits - wins_x2/2) = wins_x2 - visits, at every node.
    let settings = MctsSettings {
        sims: 800,
        reward: Reward::WinLoss,
        selection: Selection::ThompsonReshaped,
        ..MctsSettings::default()
    };
    let c = searched(&settings, 30..40, 8);
    let mut checked = 0;
    for node in c.core.tree.nodes() {
        if node.visits > 0 {
            assert_eq!(node.sum, node.wins_x2 as f64 - node.visits as f64);
            assert!(node.wins_x2 <= 2 * node.visits);
            checked += 1;
        }
    }
    assert!(checked > 400);
    check_tree(&c);
}

#[test]
fn rave_counts_each_move_at_least_where_it_was_played() {
    let settings = MctsSettings {
        sims: 1000,
        selection: Selection::Rave { bias: 0.1 },
        ..MctsSettings::default()
    };
    let c = searched(&settings, 20..40, 4);
    let tree = &c.core.tree;
    let mut extra = 0;
    for id in tree.get(ROOT).children() {
        let (node, amaf) = (tree.get(id), tree.amaf(id));
        // Every simulation through a child played its move first.
        assert!(amaf.visits >= node.visits);
        extra += amaf.visits - node.visits;
    }
    // And the same moves played later in simulations count too.
    assert!(extra > 0);
    check_tree(&c);
}

#[test]
fn several_rollouts_per_leaf_back_up_their_mean() {
    let settings = MctsSettings {
        sims: 300,
        rollouts_per_leaf: 4,
        ..MctsSettings::default()
    };
    let c = searched(&settings, 20..40, 2);
    let root = c.core.tree.get(ROOT);
    assert_eq!(root.visits, 300);
    // Means of 4 integer differences are multiples of 1/4.
    for node in c.core.tree.nodes() {
        assert_eq!((node.sum * 4.0).fract(), 0.0);
    }
}
