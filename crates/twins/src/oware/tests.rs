//! Oware's rules on constructed positions, its parameters and its trace.

use super::*;
use evomcts_games::open_spiel_twin::trace;

fn default_board(seeds: [u8; 12], captured: [u8; 2], mover: usize) -> OwareState {
    OwareState::from_board(OwareRules::default(), &seeds, captured, mover)
        .expect("a position of the default game")
}

fn legal(state: &OwareState) -> Vec<u8> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.into_iter().map(|m| m.0).collect()
}

#[test]
fn sowing_goes_counter_clockwise_and_captures_twos_and_threes_backwards() {
    // Player 0 sows house 5's 3 seeds into 6, 7, 8 (player 1's row): 8 then holds 2, 7
    // holds 3, 6 holds 2: all three are captured (7 seeds).
    let mut state = default_board([4, 4, 4, 4, 4, 3, 1, 2, 1, 4, 4, 4], [9, 0], 0);
    state.apply_move(OwareMove(5)).unwrap();
    assert_eq!(state.row_seeds(), [4, 4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4]);
    assert_eq!(state.captured(), [16, 0]);
    assert_eq!(state.to_move(), 1);
    assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 16.0 / 48.0);
    assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -16.0 / 48.0);
}

#[test]
fn a_capture_stops_at_a_house_outside_two_and_three() {
    // House 5's 3 seeds into 6, 7, 8: 8 holds 3, 7 holds 4 (not captured), 6 holds 2.
    let mut state = default_board([4, 4, 4, 4, 4, 3, 1, 3, 2, 4, 4, 0], [11, 0], 0);
    state.apply_move(OwareMove(5)).unwrap();
    assert_eq!(state.row_seeds(), [4, 4, 4, 4, 4, 0, 2, 4, 0, 4, 4, 0]);
    assert_eq!(state.captured(), [14, 0]);
}

#[test]
fn a_grand_slam_captures_nothing() {
    // Player 1's whole row would be captured: the move is played, nothing taken.
    let mut state = default_board([4, 4, 4, 4, 4, 6, 1, 1, 1, 1, 1, 1], [8, 8], 0);
    state.apply_move(OwareMove(5)).unwrap();
    assert_eq!(state.row_seeds(), [4, 4, 4, 4, 4, 0, 2, 2, 2, 2, 2, 2]);
    assert_eq!(state.captured(), [8, 8]);
}

#[test]
fn a_sowing_of_twelve_or_more_skips_its_own_house() {
    let mut state = default_board([12, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4], [6, 6], 0);
    state.apply_move(OwareMove(0)).unwrap();
    // 11 seeds to houses 1..=11, then house 0 is skipped and the last lands in 1.
    assert_eq!(state.row_seeds(), [0, 2, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5]);
    assert_eq!(state.captured(), [6, 6]);
}

#[test]
fn a_player_must_feed_an_empty_row() {
    // Player 1's row is empty: only houses whose seeds reach it are legal (from place p,
    // more than 5 − p seeds).
    let state = default_board([1, 3, 4, 3, 2, 0, 0, 0, 0, 0, 0, 0], [18, 17], 0);
    assert_eq!(legal(&state), [2, 3, 4]);
    let mut refused = state.clone();
    assert_eq!(
        refused.apply_move(OwareMove(1)),
        Err(OwareError::MustFeed { house: 1 })
    );
    assert_eq!(
        refused.apply_move(OwareMove(5)),
        Err(OwareError::EmptyHouse { house: 5 })
    );
    assert_eq!(refused, state);
    // A position where no house can feed has no move: not a position to play.
    let none = [1, 3, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0];
    assert!(OwareState::from_board(OwareRules::default(), &none, [20, 20], 0).is_none());
}

#[test]
fn every_seed_is_captured_at_the_end() {
    let mut rng: GameRng = rand::SeedableRng::seed_from_u64(0);
    for rules in [OwareRules::default(), OwareRules::new(2, 2).unwrap()] {
        for _ in 0..200 {
            let mut state = OwareState::new(rules);
            state.play_out_randomly(&mut rng);
            let [a, b] = state.captured();
            assert_eq!(a + b, rules.total_seeds());
            assert!(state.row_seeds().iter().all(|&s| s == 0));
            assert_eq!(state.scores() == [0, 0], a == b);
        }
    }
}

#[test]
fn no_legal_move_collects_the_rows() {
    // Player 0 sows its last seed into house 6, which then holds 2, the only seeds of
    // player 1's row: a grand slam, nothing captured. Player 1's 2 seeds cannot reach
    // player 0's empty row, so it has no move: the game ends and player 1 collects.
    let mut state = default_board([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], [23, 23], 0);
    state.apply_move(OwareMove(5)).unwrap();
    assert_eq!(state.captured(), [23, 25], "player 1 collects its row");
    assert!(state.is_over());
    assert_eq!(state.winner(), Some(1));
    assert_eq!(state.scores(), [0, 1]);
    assert_eq!(state.open_spiel_returns(), [-1.0, 1.0]);
    assert!(legal(&state).is_empty());
    assert_eq!(state.apply_move(OwareMove(0)), Err(OwareError::GameOver));
}

#[test]
fn a_repetition_since_the_last_capture_ends_the_game() {
    // One house a player with 1 seed each: nothing can be captured (2 in the opponent's
    // only house is a grand slam), so the seeds go round until a board repeats: player 0
    // sows into house 1 (0, 2); player 1 sows 2, skipping its own house, both into house
    // 0 (2, 0); player 0 sows them into house 1 (0, 2) with player 1 to move again: a
    // repetition, and player 1 collects its row.
    let rules = OwareRules::new(1, 1).unwrap();
    let mut state = OwareState::new(rules);
    let mut moves = 0;
    while !state.is_over() {
        state.apply_move(OwareMove(0)).unwrap();
        moves += 1;
    }
    assert_eq!(moves, 3);
    assert_eq!(state.captured(), [0, 2]);
    assert_eq!(state.winner(), Some(1));
    assert_eq!(state.turns_played(), 3);
}

#[test]
fn a_kept_board_repeats_only_with_the_same_player_to_move() {
    let mut state = OwareState::default();
    let key = state.board_key();
    state.kept_len = 2;
    state.kept[1] = 0;
    // Index 0 had player 0 to move; the next kept board (index 2) has player 0 too.
    assert!(state.keep_and_find_repetition(), "index 2 against index 0");
    state.keep_from_now();
    state.kept[0] = 7;
    state.kept[1] = key;
    state.kept_len = 2;
    assert!(
        !state.keep_and_find_repetition(),
        "index 2 against index 1 only"
    );
}

#[test]
fn the_game_ends_at_openspiels_cap() {
    let mut state = OwareState::new(OwareRules::default());
    state.moves = MAX_GAME_LENGTH - 1;
    // House 2's seeds go to 3, 4, 5 and 6: player 0's row keeps 23.
    state.apply_move(OwareMove(2)).unwrap();
    assert!(state.is_over());
    assert_eq!(state.captured(), [23, 25]);
    assert_eq!(state.winner(), Some(1));
}

#[test]
fn bad_rules_are_refused() {
    assert_eq!(
        OwareRules::new(0, 4),
        Err(OwareError::InvalidHouses { houses: 0 })
    );
    assert_eq!(
        OwareRules::new(9, 4).unwrap_err().to_string(),
        "houses per player: expected 1 to 8, found 9"
    );
    assert_eq!(
        OwareRules::new(6, 9),
        Err(OwareError::InvalidSeeds { seeds: 9 })
    );
    assert!(OwareRules::new(6, 0).is_err());
    let read: Result<OwareRules, _> =
        serde_json::from_str(r#"{"houses_per_player":6,"seeds_per_house":0}"#);
    assert!(read.is_err());
    let read: OwareRules =
        serde_json::from_str(r#"{"houses_per_player":4,"seeds_per_house":3}"#).unwrap();
    assert_eq!(read, OwareRules::new(4, 3).unwrap());
    assert!(OwareState::from_board(OwareRules::default(), &[4; 11], [0, 0], 0).is_none());
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let start = OwareState::from_moves(OwareRules::default(), &[2]).unwrap();
    let mut state = start.clone();
    assert_eq!(
        state.apply_move(OwareMove(6)).unwrap_err().to_string(),
        "house 6 is not a house of the row (0 to 5)"
    );
    let mut after = state.clone();
    after.apply_move(OwareMove(2)).unwrap();
    assert_eq!(
        after.apply_move(OwareMove(2)),
        Err(OwareError::EmptyHouse { house: 2 })
    );
    assert_eq!(state, start);
    assert_eq!(state.apply_outcome(0), Err(OwareError::NoChanceEvents));
}

#[test]
fn clone_from_copies_the_kept_boards_in_use() {
    let rules = OwareRules::default();
    let long = OwareState::from_moves(rules, &[0, 1, 2, 3, 4, 5]).unwrap();
    let short = OwareState::new(rules);
    let mut buffer = long.clone();
    assert_eq!(buffer, long);
    buffer.clone_from(&short);
    assert_eq!(buffer, short);
    assert_eq!(buffer.kept_boards(), short.kept_boards());
    buffer.clone_from(&long);
    assert_eq!(buffer, long);
}

#[test]
fn the_start_renders_as_openspiel_draws_it() {
    let expected = "Player 1 score = 0\n  f  e  d  c  b  a\n  4  4  4  4  4  4\n  4  4  4  4  4  4\n  A  B  C  D  E  F\nPlayer 0 score = 0 [PLAYING]\n";
    assert_eq!(OwareState::default().render(), expected);
}

#[test]
fn traces_end_with_opposite_returns() {
    for rules in [OwareRules::default(), OwareRules::new(4, 3).unwrap()] {
        let start = OwareState::new(rules);
        for seed in 0..20 {
            let t = trace(&start, seed).unwrap();
            for (i, s) in t.steps.iter().enumerate() {
                assert_eq!(s.player, (i % 2) as i64);
            }
            assert_eq!(t.returns[0], -t.returns[1]);
        }
    }
}
