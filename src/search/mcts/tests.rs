//! Properties of the tree's statistics after real searches, on any game. The positions come
//! from `positions`; the replayed invariants of every node are `verify`'s, also run on
//! Carcassonne in `tests/it/search_mcts_tree.rs`.

use super::tree::ROOT;
use super::*;

/// Positions to search: mid-game decisions of a game the searches were not written for.
fn positions<G: Game>(count: usize, seed: u64, sample: impl Fn(usize, u64) -> Vec<G>) -> Vec<G> {
    sample(count, seed)
}

fn searched<G: Game>(settings: &MctsSettings, state: &G, seed: u64) -> MctsController<G> {
    let mut controller = MctsController::new(settings, seed).unwrap();
    controller.try_choose_move(state).unwrap();
    controller.check_tree().unwrap();
    controller
}

fn thompson_successes_follow_the_sign_of_the_score_difference<G: Game>(state: &G) {
    // With +1/0/-1 rewards and one rollout per leaf, the reward sum is wins - losses =
    // (wins_x2/2) - (visits - wins_x2/2) = wins_x2 - visits, at every node.
    let settings = MctsSettings {
        sims: 800,
        reward: Reward::WinLoss,
        selection: Selection::ThompsonReshaped,
        ..MctsSettings::default()
    };
    let c = searched(&settings, state, 8);
    let mut checked = 0;
    for node in c.core.tree.nodes() {
        if node.visits > 0 {
            assert_eq!(node.sum, node.wins_x2 as f64 - node.visits as f64);
            assert!(node.wins_x2 <= 2 * node.visits);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} nodes visited");
}

fn rave_counts_each_move_at_least_where_it_was_played<G: Game>(state: &G) {
    let settings = MctsSettings {
        sims: 1000,
        selection: Selection::Rave { bias: 0.1 },
        ..MctsSettings::default()
    };
    let c = searched(&settings, state, 4);
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
}

fn several_rollouts_per_leaf_back_up_their_mean<G: Game>(state: &G) {
    let settings = MctsSettings {
        sims: 300,
        rollouts_per_leaf: 4,
        ..MctsSettings::default()
    };
    let c = searched(&settings, state, 2);
    let root = c.core.tree.get(ROOT);
    assert_eq!(root.visits, 300);
    // Means of 4 integer differences are multiples of 1/4.
    for node in c.core.tree.nodes() {
        assert_eq!((node.sum * 4.0).fract(), 0.0);
    }
}
