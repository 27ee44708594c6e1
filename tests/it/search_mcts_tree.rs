//! The MCTS tree's invariants on Carcassonne, replayed edge by edge
//! (`MctsController::check_tree`): node kinds match the game, visits and sums add up, and
//! every node's statistics take the view of the player who chose it.

use evomcts::games::carcassonne::{sample_positions, GameState, Rules, Unplaceable};
use evomcts::search::mcts::{MctsController, MctsSettings, Reward, Selection};

fn searched(settings: &MctsSettings, state: &GameState, seed: u64) -> MctsController<GameState> {
    let mut controller = MctsController::new(settings, seed).unwrap();
    controller.try_choose_move(state).unwrap();
    controller
}

#[test]
fn tree_invariants_hold_mid_game() {
    let settings = MctsSettings {
        sims: 3000,
        ..MctsSettings::default()
    };
    for seed in 0..3 {
        let state = &sample_positions(1, seed, 20..40)[0];
        let checked = searched(&settings, state, seed).check_tree().unwrap();
        assert!(checked.deep_decisions > 10, "{checked:?}");
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
        let state = &sample_positions(1, seed, 67..69)[0];
        terminals += searched(&settings, state, seed)
            .check_tree()
            .unwrap()
            .terminals;
    }
    assert!(terminals > 10, "only {terminals} terminal nodes reached");
}

#[test]
fn every_policy_and_reward_keeps_the_invariants() {
    let state = &sample_positions(1, 8, 30..40)[0];
    for (selection, reward) in [
        (Selection::ThompsonReshaped, Reward::WinLoss),
        (Selection::Rave { bias: 0.1 }, Reward::ScoreDiff),
        (Selection::Uct, Reward::ScaledScoreDiff(50.0)),
        (
            Selection::Formula("Q + 0.5*H/(n+1) + C*p*sqrt(N)/(1+n)".into()),
            Reward::ScaledScoreDiff(50.0),
        ),
    ] {
        let settings = MctsSettings {
            sims: 800,
            selection: selection.clone(),
            reward: Some(reward),
            ..MctsSettings::default()
        };
        let checked = searched(&settings, state, 3).check_tree();
        assert!(checked.is_ok(), "{selection:?}: {checked:?}");
    }
}

#[test]
fn the_bottom_of_stack_rule_keeps_the_invariants_near_the_end() {
    let rules = Rules {
        unplaceable: Unplaceable::BottomOfStack,
        ..Rules::default()
    };
    let settings = MctsSettings {
        sims: 1500,
        ..MctsSettings::default()
    };
    let mut terminals = 0;
    for seed in 0..3 {
        let state = &evomcts::games::carcassonne::sample_positions_in(rules, 1, seed, 66..69)[0];
        terminals += searched(&settings, state, seed)
            .check_tree()
            .unwrap()
            .terminals;
    }
    assert!(terminals > 0);
}
