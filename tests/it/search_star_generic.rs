//! Star on a game other than Carcassonne: a tiny Pig (a three-sided die, target 6, in
//! `support::tiny_pig`) written against `games::Game` alone. It has what Carcassonne lacks: a
//! move (hold) after which the opponent decides at once, with no chance event between, and an
//! evaluation set without Heyden. With true bounds every Star variant must equal expectimax,
//! and a small tree is checked by hand.

use crate::support::tiny_pig::{TinyPig, HOLD, ROLL, TARGET};
use evomcts::games::carcassonne::evaluation::HEYDEN;
use evomcts::games::{Controller, Evaluation, Game, GameRng};
use evomcts::search::star::{expectimax, search, StarController, StarError, StarSettings};

fn star(depth: u32, probing: u32, state: &TinyPig) -> StarSettings {
    StarSettings {
        depth,
        probing,
        ..StarSettings::star1()
    }
    .with_true_bounds(state)
}

#[test]
fn a_small_tree_by_hand() {
    // Ply 1: the only move is to roll. Face 1 passes the turn: the opponent rolls (ply 2), 0.
    // Faces 2 and 3: hold (ply 2) banks them. (0 + 2 + 3) / 3.
    let start = TinyPig::placeholder();
    let found = search(&start, &star(2, 0, &start)).unwrap();
    assert_eq!((found.best, found.value), (ROLL, 5.0 / 3.0));
    // With 5 in hand, holding banks 5 and the opponent decides at once (ply 2): it can only
    // roll, which banks nothing: 5. Rolling: face 1 passes the turn (the opponent rolls: 0);
    // faces 2 and 3 reach the target and end the game (7 and 8): 15 / 3 = 5 too, and the tie
    // goes to the first move in order, hold.
    let five = TinyPig::at([0, 0], 5, 0);
    for probing in [0, 1, 4] {
        let found = search(&five, &star(2, probing, &five)).unwrap();
        assert_eq!((found.best, found.value), (HOLD, 5.0), "f = {probing}");
    }
    let plain = expectimax(&five, 2, Evaluation::ScoreDifference).unwrap();
    assert_eq!((plain.best, plain.value), (HOLD, 5.0));
}

#[test]
fn every_variant_equals_expectimax() {
    let mut positions = Vec::new();
    for a in 0..TARGET {
        for b in 0..TARGET {
            for turn_total in [0, 2, 3, 5] {
                if a + turn_total < TARGET {
                    positions.push(TinyPig::at([a, b], turn_total, usize::from(a > b)));
                }
            }
        }
    }
    let mut holds = 0;
    for depth in 1..=5 {
        for state in &positions {
            let plain = expectimax(state, depth, Evaluation::ScoreDifference).unwrap();
            holds += usize::from(plain.best == HOLD);
            for probing in [0, 1, 4] {
                let found = search(state, &star(depth, probing, state)).unwrap();
                assert_eq!(
                    (found.best, found.value),
                    (plain.best, plain.value),
                    "{state:?}, depth {depth}, f = {probing}"
                );
                assert!(found.nodes <= plain.nodes, "{state:?}, depth {depth}");
            }
        }
    }
    assert!(holds > 0, "no position where holding is best");
}

#[test]
fn the_game_must_offer_the_evaluation() {
    let heyden = StarSettings {
        evaluation: HEYDEN,
        ..StarSettings::star1()
    };
    // Game-independent checks pass; the game does not offer Heyden's evaluation.
    assert!(heyden.validate().is_ok());
    match StarController::<TinyPig>::new(&heyden, 0) {
        Err(StarError::Setting { field, why }) => {
            assert_eq!(field, "evaluation");
            assert!(why.contains("Heyden"), "{why}");
        }
        Err(other) => panic!("expected a setting error, got {other}"),
        Ok(_) => panic!("Heyden accepted for a game that does not offer it"),
    }
    assert!(expectimax(&TinyPig::placeholder(), 2, HEYDEN).is_err());
    let mut rolling = TinyPig::placeholder();
    rolling.apply_move(ROLL).unwrap();
    assert_eq!(
        search(&rolling, &StarSettings::star1()),
        Err(StarError::NotAtDecision)
    );
}

#[test]
fn the_controller_plays_a_game_to_the_end() {
    let mut controller = StarController::<TinyPig>::new(&StarSettings::star25(), 0).unwrap();
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(7);
    let mut state = TinyPig::placeholder();
    while !state.is_over() {
        if state.at_decision() {
            let mv = controller.choose_move(&state);
            state.apply_move(mv).unwrap();
        } else {
            state.sample_chance(&mut rng).unwrap();
        }
    }
    assert!(controller.last_search().is_some());
}
