//! Carcassonne behind the searches' game interface (`games::Game`): what the searches read
//! agrees with the game's own rules.

use evomcts::games::carcassonne::{sample_positions, GameState, Move, TileKind};
use evomcts::games::{AfterOutcome, Game, GameRng};
use rand::SeedableRng;

#[test]
fn action_keys_distinguish_every_field() {
    let mv = Move {
        x: -3,
        y: 5,
        rotation: 2,
        meeple: Some(1),
    };
    let key = <GameState as Game>::action_key;
    let base = key(1, 7, mv);
    assert_ne!(base, key(0, 7, mv));
    assert_ne!(base, key(1, 8, mv));
    assert_ne!(base, key(1, 7, Move { x: -2, ..mv }));
    assert_ne!(base, key(1, 7, Move { y: 4, ..mv }));
    assert_ne!(base, key(1, 7, Move { rotation: 3, ..mv }));
    assert_ne!(base, key(1, 7, Move { meeple: None, ..mv }));
    assert_ne!(
        base,
        key(
            1,
            7,
            Move {
                meeple: Some(0),
                ..mv
            }
        )
    );
}

/// After each position's move, the chance event the searches see: the slots are the hidden
/// kinds, the outcomes carry their hidden counts, and a sampled draw lands on a slot whose
/// kind it drew.
#[test]
fn chance_outcomes_slots_and_samples_agree() {
    let mut rng = GameRng::seed_from_u64(3);
    for state in sample_positions(12, 5, 5..60) {
        let mut after = state.clone();
        let mv = Game::random_move(&after, &mut rng).unwrap();
        after.apply_move(mv).unwrap();
        if after.is_terminal() {
            continue;
        }
        assert!(!after.at_decision());
        let mut slots = Vec::new();
        after.chance_slots(|label| slots.push(label));
        let mut outcomes = Vec::new();
        after.chance_outcomes(&mut outcomes);
        let labels: Vec<u8> = outcomes.iter().map(|o| o.label).collect();
        assert_eq!(slots, labels);
        for o in &outcomes {
            let kind = TileKind::from_index(o.label as usize);
            assert_eq!(o.weight, f64::from(after.hidden_counts()[kind.index()]));
            assert_eq!(
                o.then == AfterOutcome::Decision,
                after.placement_count(kind) > 0
            );
            let mut revealed = after.clone();
            revealed.apply_outcome(o.label).unwrap();
            assert_eq!(
                revealed.at_decision(),
                o.then == AfterOutcome::Decision,
                "{kind:?}"
            );
        }
        for _ in 0..5 {
            let mut sampled = after.clone();
            let slot = sampled.sample_chance(&mut rng).unwrap();
            let drawn = sampled.drawn().map(|t| t.index() as u8);
            if let Some(drawn) = drawn {
                assert_eq!(slots[slot], drawn);
            }
        }
    }
}
