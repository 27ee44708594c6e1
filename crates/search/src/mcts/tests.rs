//! Properties of the tree's statistics after real searches, written for any game and run on
//! Pig; every search also passes `verify`'s replayed invariants (run on Carcassonne in
//! `tests/it/search_mcts_tree.rs`).

use super::tree::ROOT;
use super::*;
use evomcts_games::pig::{sample_positions, PigRules, PigState};

/// Pig decisions with a real choice, to a target small enough that simulations reach the end.
fn pig_positions(count: usize, seed: u64) -> Vec<PigState> {
    sample_positions(PigRules::new(30).unwrap(), count, seed).unwrap()
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
        reward: Some(Reward::WinLoss),
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

#[test]
fn thompson_successes_follow_the_sign_of_the_score_difference_in_pig() {
    for state in pig_positions(3, 1) {
        thompson_successes_follow_the_sign_of_the_score_difference(&state);
    }
}

#[test]
fn rave_counts_each_move_at_least_where_it_was_played_in_pig() {
    for state in pig_positions(3, 2) {
        rave_counts_each_move_at_least_where_it_was_played(&state);
    }
}

#[test]
fn several_rollouts_per_leaf_back_up_their_mean_in_pig() {
    for state in pig_positions(3, 3) {
        several_rollouts_per_leaf_back_up_their_mean(&state);
    }
}

#[test]
fn pig_trees_keep_their_invariants_with_moves_that_lead_straight_to_decisions() {
    let settings = MctsSettings {
        sims: 2000,
        ..MctsSettings::default()
    };
    let mut terminals = 0;
    let mut decisions = 0;
    for (i, state) in pig_positions(4, 4).iter().enumerate() {
        let mut c = MctsController::new(&settings, i as u64).unwrap();
        c.try_choose_move(state).unwrap();
        let checked = c.check_tree().unwrap();
        terminals += checked.terminals;
        decisions += checked.deep_decisions;
    }
    assert!(
        terminals > 0 && decisions > 100,
        "{terminals} terminals, {decisions} decisions"
    );
}

/// A controller whose settings name no reward or final move plays with its game's: Pig,
/// Connect Four and OpenSpiel's games are won or lost (`WinLoss`, most visits), Carcassonne is played for points
/// (the paper's score difference and highest Q); what the settings name is kept.
#[test]
fn reward_and_final_move_left_out_are_the_games() {
    use evomcts_games::carcassonne::GameState;
    use evomcts_games::connect_four::ConnectFourState;
    fn built<G: Game>(settings: &MctsSettings) -> (Option<Reward>, Option<FinalMove>) {
        let controller = MctsController::<G>::new(settings, 0).unwrap();
        let s = controller.settings();
        (s.reward, s.final_move)
    }
    let left_out = MctsSettings::default();
    let win_loss = (Some(Reward::WinLoss), Some(FinalMove::MostVisits));
    let points = (Some(Reward::ScoreDiff), Some(FinalMove::HighestQ));
    assert_eq!(built::<PigState>(&left_out), win_loss);
    assert_eq!(built::<ConnectFourState>(&left_out), win_loss);
    // OpenSpiel's games, as `OpenSpielController` plays them.
    assert_eq!(
        built::<evomcts_games::external::ExternalGame>(&left_out),
        win_loss
    );
    assert_eq!(built::<GameState>(&left_out), points);
    let named = MctsSettings {
        reward: Some(Reward::ScaledScoreDiff(5.0)),
        final_move: Some(FinalMove::HighestQ),
        ..MctsSettings::default()
    };
    let kept = (named.reward, named.final_move);
    assert_eq!(built::<ConnectFourState>(&named), kept);
    assert_eq!(built::<GameState>(&named), kept);
}

/// Under the default `unvisited: TriedFirst`, the root asks its policy in exactly the
/// simulations beyond its legal moves: none at a budget of at most the seven columns of Connect
/// Four's empty board, `sims - 7` above it; nodes deeper in the tree ask it too, never more
/// often than the simulations. Under first-play urgency every simulation asks it at the root.
#[test]
fn the_root_asks_its_policy_once_every_move_was_tried() {
    use evomcts_games::connect_four::ConnectFourState;
    let state = ConnectFourState::new();
    for (sims, at_root) in [(3, 0), (7, 0), (8, 1), (50, 43), (400, 393)] {
        let settings = MctsSettings {
            sims,
            ..MctsSettings::default()
        };
        let stats = searched(&settings, &state, 5).last_decision().clone();
        assert_eq!(stats.root_policy_choices, at_root, "{sims} simulations");
        assert!(stats.policy_choices >= stats.root_policy_choices);
        assert!(stats.policy_choices <= sims as u64 * 42, "{stats:?}");
        if sims >= 50 {
            assert!(
                stats.policy_choices > stats.root_policy_choices,
                "{stats:?}"
            );
        }
    }
    let ranked = MctsSettings {
        sims: 5,
        unvisited: Unvisited::Ranked(FirstPlayUrgency::default()),
        ..MctsSettings::default()
    };
    let stats = searched(&ranked, &state, 5).last_decision().clone();
    assert_eq!(stats.root_policy_choices, 5);
}

/// The named baselines are the formulas they stand for: `Greedy` searches exactly as
/// `Formula("Q")`, `Ucb1Tuned` exactly as its formula, node for node.
#[test]
fn greedy_and_ucb1_tuned_search_as_their_formulas() {
    for (named, text) in [
        (Selection::Greedy, GREEDY),
        (Selection::Ucb1Tuned, UCB1_TUNED),
    ] {
        for (i, state) in pig_positions(3, 6).iter().enumerate() {
            let settings = |selection| MctsSettings {
                sims: 300,
                selection,
                ..MctsSettings::default()
            };
            let a = searched(&settings(named.clone()), state, i as u64);
            let b = searched(&settings(Selection::Formula(text.into())), state, i as u64);
            assert_eq!(a.core.tree.nodes(), b.core.tree.nodes(), "{named:?}");
        }
    }
}

/// 2σ-UCT's σ, kept up to date simulation by simulation, is the population standard deviation
/// of the Q values of every visited move of the finished tree, recomputed from scratch.
#[test]
fn two_sigma_uct_keeps_the_spread_of_the_trees_move_values() {
    let settings = MctsSettings {
        sims: 600,
        selection: Selection::TwoSigmaUct,
        ..MctsSettings::default()
    };
    for (i, state) in pig_positions(3, 7).iter().enumerate() {
        let c = searched(&settings, state, i as u64);
        let tree = &c.core.tree;
        let values: Vec<f64> = tree
            .nodes()
            .iter()
            .filter(|node| node.kind == tree::NodeKind::Decision)
            .flat_map(|node| node.children())
            .map(|id| tree.get(id))
            .filter(|child| child.visits > 0)
            .map(|child| child.q())
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let sigma =
            (values.iter().map(|q| (q - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt();
        let kept = tree.spread().unwrap().sigma();
        assert!(values.len() > 20, "{} moves", values.len());
        assert!(sigma > 0.1, "σ {sigma}");
        assert!(
            (kept - sigma).abs() < 1e-9,
            "kept {kept}, recomputed {sigma}"
        );
    }
}
