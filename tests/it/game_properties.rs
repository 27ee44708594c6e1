//! Properties of the engine over thousands of random games, and agreement with a slow model of
//! the rules on every turn of hundreds of them.

use crate::support::slow_model::SlowModel;
use evomcts::games::carcassonne::{
    GameState, Move, Reveal, Rules, TileKind, TileStack, Unplaceable, MEEPLES_PER_PLAYER,
};
use evomcts::games::{GameRng, RandomController};
use rand::{Rng, SeedableRng};

/// Plays a random game on the stack of `seed`, checking the engine against the slow model on
/// every turn when `with_model` is set, and the cheap invariants always.
fn check_game(seed: u64, rules: Rules, with_model: bool) {
    let mut rng = GameRng::seed_from_u64(seed ^ 0x5eed);
    let mut state = GameState::new(rules);
    let mut order = TileStack::shuffled(seed);
    let mut model = SlowModel::new();
    let mut moves = Vec::new();
    let mut last_scores = [0, 0];
    let mut draws = 0;
    while let Some(tile) = order.draw_for_test() {
        draws += 1;
        assert!(draws < 500, "seed {seed}: the stack does not run out");
        let player = state.to_move();
        let placeable = !with_model || !model.legal_moves(tile, player).is_empty();
        match state.reveal(tile).unwrap() {
            Reveal::Ready => assert!(placeable, "seed {seed}: {tile} fits nowhere but was kept"),
            Reveal::Discarded => {
                if with_model {
                    assert!(
                        model.legal_moves(tile, player).is_empty(),
                        "seed {seed}: {tile} fits"
                    );
                }
                assert_eq!(state.to_move(), player, "the same player draws again");
                continue;
            }
            Reveal::ReturnedToBottom => {
                order.put_back_for_test(tile);
                continue;
            }
        }
        state.legal_moves(&mut moves);
        assert!(!moves.is_empty());
        if with_model {
            let fast: std::collections::BTreeSet<_> = moves
                .iter()
                .map(|m| (m.x, m.y, m.rotation, m.meeple))
                .collect();
            assert_eq!(
                fast.len(),
                moves.len(),
                "seed {seed}: a move is offered twice"
            );
            let slow = model.legal_moves(tile, player);
            assert_eq!(
                fast,
                slow,
                "seed {seed}, turn {}: move sets differ",
                state.turns_played()
            );
        }
        let mv: Move = if rng.gen_bool(0.5) {
            state.random_move(&mut rng).unwrap()
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        assert!(moves.contains(&mv), "random_move offers a legal move");
        state.apply(mv).unwrap();
        if with_model {
            model.apply(tile, mv, player);
            assert!(model.same_board(&state), "seed {seed}: boards differ");
            assert_eq!(
                state.scores(),
                model.scores,
                "seed {seed}: scores differ after {mv}"
            );
            assert_eq!(
                state.virtual_scores(),
                model.virtual_scores(),
                "seed {seed}: virtual scores"
            );
            assert!(model.edges_match());
        }
        // Conservation: tiles and meeples.
        let on_board = state.placed_tiles().len();
        assert_eq!(on_board + state.hidden_total() + state.discards(), 72);
        for p in 0..2 {
            let standing = state
                .placed_tiles()
                .iter()
                .filter(|t| t.meeple.map(|(_, q)| q as usize == p).unwrap_or(false))
                .count();
            assert_eq!(
                standing + state.supply(p) as usize,
                MEEPLES_PER_PLAYER as usize
            );
        }
        let s = state.scores();
        assert!(
            s[0] >= last_scores[0] && s[1] >= last_scores[1],
            "scores never decrease"
        );
        last_scores = s;
    }
    assert!(state.is_over());
    let virtual_before = state.virtual_scores();
    state.finish();
    assert_eq!(
        state.scores(),
        virtual_before,
        "seed {seed}: final score = virtual score"
    );
    if with_model {
        assert_eq!(
            state.scores(),
            model.virtual_scores(),
            "seed {seed}: final scores"
        );
    }
    let by_kind = state.score_by_kind();
    for (kinds, score) in by_kind.iter().zip(state.scores()) {
        assert_eq!(kinds.iter().sum::<i32>(), score);
    }
}

#[test]
fn engine_agrees_with_the_slow_model_on_every_turn() {
    for seed in 0..10 {
        check_game(seed, Rules::default(), true);
    }
}

/// [`engine_agrees_with_the_slow_model_on_every_turn`] over 300 games.
#[test]
#[ignore = "heavy tier (60 s): .ci/run runs it with `cargo test -- --ignored`"]
fn engine_agrees_with_the_slow_model_on_every_turn_of_300_games() {
    for seed in 10..300 {
        check_game(seed, Rules::default(), true);
    }
}

#[test]
fn invariants_hold_over_thousands_of_random_games() {
    for seed in 1000..4000 {
        check_game(seed, Rules::default(), false);
    }
}

#[test]
fn bottom_of_stack_variant_keeps_the_invariants() {
    let rules = Rules {
        unplaceable: Unplaceable::BottomOfStack,
        ..Rules::default()
    };
    for seed in 0..500 {
        check_game(seed, rules, false);
    }
}

#[test]
fn same_tile_seed_gives_the_same_game() {
    let play = |seed| {
        let mut a = RandomController::new(7);
        let mut b = RandomController::new(8);
        evomcts::games::carcassonne::play_game(Rules::default(), seed, [&mut a, &mut b])
            .unwrap()
            .1
    };
    assert_eq!(play(42), play(42));
    assert_ne!(play(42).draws, play(43).draws);
}

#[test]
fn records_replay_to_the_same_final_state() {
    for seed in 0..50 {
        let mut a = RandomController::new(seed);
        let mut b = RandomController::new(seed + 100);
        let (state, record) =
            evomcts::games::carcassonne::play_game(Rules::default(), seed, [&mut a, &mut b])
                .unwrap();
        let replayed = evomcts::games::carcassonne::replay(&record).unwrap();
        assert_eq!(replayed.scores(), state.scores());
        assert_eq!(replayed.placed_tiles(), state.placed_tiles());
        assert_eq!(record.virtual_scores.len(), record.moves.len());
        assert_eq!(*record.virtual_scores.last().unwrap(), record.final_scores);
        assert_eq!(record.draws.len(), 71);
        assert_eq!(record.moves.len() + record.discards as usize, 71);
    }
}

#[test]
fn sampling_follows_the_hidden_counts() {
    let state = GameState::new(Rules::default());
    let mut rng = GameRng::seed_from_u64(3);
    let mut counts = [0u32; TileKind::COUNT];
    let n = 71_000;
    for _ in 0..n {
        counts[state.sample_hidden(&mut rng).unwrap().index()] += 1;
    }
    for k in TileKind::ALL {
        let expected = state.hidden_counts()[k.index()] as f64 / 71.0 * n as f64;
        let got = counts[k.index()] as f64;
        assert!(
            (got - expected).abs() < 5.0 * expected.sqrt() + 1.0,
            "{k}: {got} vs {expected}"
        );
    }
}
