//! Backgammon's rules, edge by edge: the bar, bearing off, one die, doubles, the turn limit.

use super::*;
use evomcts_games::open_spiel_twin::trace;
use rand::SeedableRng;

fn legal(state: &BackgammonState) -> Vec<u16> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.iter().map(|m| m.0).collect()
}

/// A decision of `player` with `dice` in a game under way: the checkers on the points of
/// each player, then on the bar and borne off.
fn position(
    player: u8,
    dice: [u8; 2],
    x: &[(usize, u8)],
    o: &[(usize, u8)],
    bar: [u8; 2],
    off: [u8; 2],
) -> BackgammonState {
    let mut state = BackgammonState::default();
    state.checkers.points = [[0; POINTS]; 2];
    for (p, points) in [x, o].into_iter().enumerate() {
        for &(point, n) in points {
            state.checkers.points[p][point] = n;
        }
    }
    state.checkers.bar = bar;
    state.checkers.off = off;
    for p in 0..2 {
        let on_points: u8 = state.checkers.points[p].iter().sum();
        assert_eq!(
            on_points + bar[p] + off[p],
            CHECKERS,
            "player {p}'s checkers"
        );
    }
    state.player = player;
    state.dice = [dice[0].min(dice[1]), dice[0].max(dice[1])];
    state.turns = 1;
    state
}

#[test]
fn the_first_roll_has_no_doubles_and_its_parity_picks_the_starter() {
    let mut state = BackgammonState::default();
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 30);
    assert!(!state.at_decision() && !state.is_over());
    let mut x = state.clone();
    x.apply_outcome(0).unwrap();
    assert_eq!((x.to_move(), x.dice()), (0, Some([1, 2])));
    state.apply_outcome(29).unwrap();
    assert_eq!((state.to_move(), state.dice()), (1, Some([5, 6])));
    assert_eq!(state.decision_label(), 6 * 4 + 5);
    // The opening 6-5 of player 1: 23/17/12 is 23 → 17 → 12, either die first.
    let moves = legal(&state);
    assert!(
        moves.contains(&(17 * 26 + 23)),
        "6 first from 23, then 5 from 17"
    );
    assert!(
        !moves.contains(&(LOW_FIRST + 18 * 26 + 23)),
        "5 first from 23 lands on x's 18"
    );
    assert!(
        moves.contains(&(LOW_FIRST + 23 * 26 + 12)),
        "12/7, then 23/17"
    );
    state.apply_move(BackgammonMove(17 * 26 + 23)).unwrap();
    assert_eq!((state.checkers(1, 23), state.checkers(1, 12)), (1, 6));
    assert_eq!(state.to_move(), 0, "the other player rolls next");
    state.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 36);
    assert_eq!(
        state.apply_outcome(36),
        Err(BackgammonError::InvalidOutcome {
            label: 36,
            outcomes: 36
        })
    );
}

#[test]
fn a_checker_on_the_bar_enters_first_or_the_player_passes() {
    let blocked = position(
        0,
        [1, 3],
        &[(5, 14)],
        &[(0, 2), (2, 3), (10, 10)],
        [1, 0],
        [0, 0],
    );
    assert_eq!(legal(&blocked), [PASS.0]);
    let mut passed = blocked.clone();
    passed.apply_move(PASS).unwrap();
    assert_eq!(passed.checkers, blocked.checkers);
    assert_eq!(passed.to_move(), 1);
    // A lone checker on the entry point is hit; after entering any checker plays the 3.
    let mut state = position(
        0,
        [1, 3],
        &[(5, 14)],
        &[(0, 1), (2, 3), (10, 11)],
        [1, 0],
        [0, 0],
    );
    let enter_then = |from: u16| LOW_FIRST + from * 26 + u16::from(BAR_DIGIT);
    assert_eq!(legal(&state), [enter_then(0), enter_then(5)]);
    state.apply_move(BackgammonMove(enter_then(5))).unwrap();
    assert_eq!(
        (state.bar(0), state.checkers(0, 0), state.checkers(0, 8)),
        (0, 1, 1)
    );
    assert_eq!((state.bar(1), state.checkers(1, 0)), (1, 0));
}

#[test]
fn when_only_one_die_plays_it_is_the_larger_one_if_possible() {
    // x: one checker back on 0, the rest on 18 (not all home); o blocks 20 and 8.
    let o = [(20, 2), (8, 2), (12, 11)];
    let state = position(0, [2, 6], &[(0, 1), (18, 14)], &o, [0, 0], [0, 0]);
    assert_eq!(legal(&state), [u16::from(NO_MOVE_DIGIT) * 26]);
    // With 6 blocked too, only the 2 plays.
    let o = [(20, 2), (8, 2), (6, 2), (12, 9)];
    let state = position(0, [2, 6], &[(0, 1), (18, 14)], &o, [0, 0], [0, 0]);
    assert_eq!(legal(&state), [LOW_FIRST + u16::from(NO_MOVE_DIGIT) * 26]);
}

#[test]
fn bearing_off_exactly_or_from_the_furthest_point() {
    // x home on 20 (2) and 22 (1) with a 5-6: only the furthest point bears off.
    let state = position(0, [5, 6], &[(20, 2), (22, 1)], &[(0, 15)], [0, 0], [12, 0]);
    assert_eq!(legal(&state), [20 * 26 + 20, LOW_FIRST + 20 * 26 + 20]);
    // o on 0 (1) and 3 (2) with a 1-4.
    let state = position(1, [1, 4], &[(23, 15)], &[(0, 1), (3, 2)], [0, 0], [0, 12]);
    assert_eq!(
        legal(&state),
        [3, 3 * 26 + 3, LOW_FIRST + 3 * 26, LOW_FIRST + 3 * 26 + 3]
    );
    // The last checker: with a 1-2 both dice bear it off, OpenSpiel keeps the larger.
    let mut state = position(0, [1, 2], &[(23, 1)], &[(0, 15)], [0, 0], [14, 0]);
    assert_eq!(legal(&state), [u16::from(NO_MOVE_DIGIT) * 26 + 23]);
    state.apply_move(BackgammonMove(673)).unwrap();
    assert!(state.is_over() && !state.at_decision());
    assert_eq!(state.winner(), Some(0));
    assert_eq!(state.scores(), [1, 0]);
    assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
    assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -1.0);
    assert!(legal(&state).is_empty());
    assert_eq!(state.apply_move(PASS), Err(BackgammonError::GameOver));
    assert_eq!(state.apply_outcome(0), Err(BackgammonError::GameOver));
}

#[test]
fn a_double_is_two_decisions_of_one_turn() {
    let mut state = BackgammonState::default();
    state.apply_outcome(0).unwrap();
    let mut rng = GameRng::seed_from_u64(1);
    let mv = state.random_move(&mut rng).unwrap();
    state.apply_move(mv).unwrap();
    state.apply_outcome(32).unwrap(); // 3-3 for player 1
    assert_eq!((state.to_move(), state.dice()), (1, Some([3, 3])));
    let moves = legal(&state);
    assert!(
        moves.iter().all(|&m| m < LOW_FIRST),
        "a double plays the high die first"
    );
    state.apply_move(BackgammonMove(moves[0])).unwrap();
    assert!(state.at_decision() && state.double_turn);
    assert_eq!(
        (state.to_move(), state.dice(), state.player_turns()),
        (1, Some([3, 3]), 2)
    );
    let mv = state.random_move(&mut rng).unwrap();
    state.apply_move(mv).unwrap();
    assert!(!state.at_decision() && !state.double_turn);
    assert_eq!(
        (state.to_move(), state.player_turns(), state.turns_played()),
        (0, 2, 3)
    );
    // A double of which fewer than two checker moves play ends the turn at once: 0/6,
    // then 6/12 is blocked and 18 may not bear off.
    let o = [(12, 2), (5, 13)];
    let mut state = position(0, [6, 6], &[(0, 1), (18, 14)], &o, [0, 0], [0, 0]);
    let single = u16::from(NO_MOVE_DIGIT) * 26;
    assert_eq!(legal(&state), [single]);
    state.apply_move(BackgammonMove(single)).unwrap();
    assert!(!state.at_decision() && !state.double_turn && state.to_move() == 1);
    assert_eq!(state.checkers(0, 6), 1);
}

#[test]
fn more_turns_than_the_limit_end_in_a_draw() {
    let rules = BackgammonRules::new(1).unwrap();
    let mut state = BackgammonState::new(rules).unwrap();
    let mut rng = GameRng::seed_from_u64(5);
    state.apply_outcome(2).unwrap();
    let mv = state.random_move(&mut rng).unwrap();
    state.apply_move(mv).unwrap();
    assert!(!state.is_over());
    state.apply_outcome(0).unwrap();
    let mv = state.random_move(&mut rng).unwrap();
    state.apply_move(mv).unwrap();
    assert!(state.is_over() && !state.at_decision());
    assert_eq!((state.winner(), state.scores()), (None, [0, 0]));
    assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
    assert!(state.check_result([0.0, 0.0]).is_ok());
    assert!(state.check_result([1.0, 1.0]).is_err());
}

#[test]
fn rules_out_of_range_and_illegal_moves_are_refused() {
    assert_eq!(
        BackgammonRules::new(0),
        Err(BackgammonError::InvalidMaxPlayerTurns { turns: 0 })
    );
    assert!(BackgammonRules::new(MAX_MAX_PLAYER_TURNS + 1).is_err());
    let bad = BackgammonRules {
        max_player_turns: 0,
    };
    assert!(BackgammonState::new(bad).is_err());
    let rules: BackgammonRules = serde_json::from_str("{}").unwrap();
    assert_eq!(rules, BackgammonRules::default());
    let rules: BackgammonRules = serde_json::from_str(r#"{"max_player_turns":7}"#).unwrap();
    assert_eq!(rules.max_player_turns, 7);
    let refused = serde_json::from_str::<BackgammonRules>(r#"{"max_player_turns":0}"#);
    assert!(refused
        .unwrap_err()
        .to_string()
        .contains("max_player_turns"));
    assert!(serde_json::from_str::<BackgammonRules>(r#"{"hyper":true}"#).is_err());

    let mut state = BackgammonState::default();
    assert_eq!(state.apply_move(PASS), Err(BackgammonError::RollPending));
    state.apply_outcome(0).unwrap();
    assert_eq!(state.apply_outcome(0), Err(BackgammonError::NoRollPending));
    let before = state.clone();
    let refused = state.apply_move(PASS).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "action 1351 (pass) is not legal with the dice 1-2"
    );
    assert!(state.apply_move(BackgammonMove(5000)).is_err());
    assert_eq!(state, before);
}

#[test]
fn moves_are_plain_numbers_and_keys_are_distinct() {
    assert_eq!(serde_json::to_string(&BackgammonMove(700)).unwrap(), "700");
    assert_eq!(BackgammonMove(700).digits(), (24, 0, false));
    assert_eq!(BackgammonMove::of(24, 0, false), BackgammonMove(700));
    let mut keys: Vec<u32> = (0..2u8)
        .flat_map(|p| {
            (0..36).flat_map(move |l| {
                (0..DISTINCT_ACTIONS)
                    .map(move |a| BackgammonState::action_key(p, l, BackgammonMove(a)))
            })
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 2 * 36 * usize::from(DISTINCT_ACTIONS));
}

#[test]
fn render_draws_openspiels_board() {
    let text = BackgammonState::default().render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "+------|------+");
    assert_eq!(lines[1], "|o...x.|x....o|");
    assert_eq!(lines[11], "|x...o.|o....x|");
    assert_eq!(lines[13], "Turn: *");
}

#[test]
fn random_games_trace_and_end() {
    for rules in [
        BackgammonRules::default(),
        BackgammonRules::new(20).unwrap(),
    ] {
        let start = BackgammonState::new(rules).unwrap();
        for seed in 0..10 {
            let t = trace(&start, seed).unwrap();
            assert_eq!((t.steps[0].player, t.steps[0].chance.len()), (-1, 30));
            assert_eq!(t.returns[0], -t.returns[1]);
        }
        let mut state = start.clone();
        state.play_out_randomly(&mut GameRng::seed_from_u64(3));
        assert!(state.is_over());
    }
}
