//! Checkers' rules case by case (positions and action ids from OpenSpiel 2.0.2's random games), its refusals, its random player and its traces.

use super::*;
use evomcts_games::open_spiel_twin::{move_of_action, trace};

fn rules(rows: u8, columns: u8) -> CheckersRules {
    CheckersRules::new(rows, columns).expect("valid rules")
}

fn play(actions: &[u16]) -> CheckersState {
    CheckersState::from_moves(CheckersRules::default(), actions).expect("legal moves")
}

fn legal(state: &CheckersState) -> Vec<u16> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.iter().map(|mv| mv.0).collect()
}

/// OpenSpiel 2.0.2's random game of seed 0 (Python's `random`) up to its first multi-jump.
const MULTI_JUMP: [u16; 19] = [
    370, 158, 426, 84, 352, 213, 411, 156, 297, 103, 338, 213, 466, 359, 496, 28, 424, 172, 313,
];

/// Seed 3 up to a crowning jump (f6d8) after which the new king could jump again.
const CROWNING_JUMP: [u16; 24] = [
    336, 172, 352, 158, 267, 85, 231, 409, 118, 370, 62, 480, 142, 440, 197, 341, 498, 480, 467,
    30, 352, 174, 313, 169,
];

/// Seed 1474: player 1 is left with a man that cannot move.
const BLOCKED: [u16; 31] = [
    322, 158, 267, 103, 370, 172, 313, 119, 440, 214, 337, 62, 368, 229, 427, 28, 498, 190, 313,
    169, 46, 29, 171, 84, 195, 156, 82, 230, 353, 12, 31,
];

/// Seed 793: drawn by 40 actions without a capture.
const DRAWN: [u16; 78] = [
    370, 172, 313, 101, 354, 247, 425, 142, 496, 86, 336, 197, 409, 28, 466, 156, 283, 169, 142,
    440, 197, 409, 190, 370, 12, 31, 69, 267, 46, 313, 169, 116, 394, 190, 426, 244, 480, 319, 450,
    62, 30, 118, 322, 428, 264, 174, 86, 228, 140, 300, 208, 498, 138, 446, 194, 374, 336, 498,
    408, 428, 136, 440, 80, 372, 392, 440, 338, 496, 152, 370, 264, 424, 280, 352, 210, 318, 322,
    284,
];

#[test]
fn the_default_start_is_openspiels() {
    let state = CheckersState::default();
    assert_eq!(state.rules(), rules(8, 8));
    assert_eq!(state.piece_counts(), [12, 12]);
    let expected = "8.+.+.+.+\n7+.+.+.+.\n6.+.+.+.+\n5........\n4........\n3o.o.o.o.\n\
                    2.o.o.o.o\n1o.o.o.o.\n abcdefgh\n";
    assert_eq!(state.render(), expected);
    let moves = legal(&state);
    assert_eq!(moves, [322, 336, 338, 352, 354, 368, 370]);
    let texts: Vec<String> = moves
        .iter()
        .map(|&a| state.move_text(CheckersMove(a)))
        .collect();
    assert_eq!(
        texts,
        ["a3b4", "c3b4", "c3d4", "e3d4", "e3f4", "g3f4", "g3h4"]
    );
    assert_eq!(
        legal(&CheckersState::new(rules(8, 6)).unwrap()),
        [242, 256, 258, 272, 274]
    );
    assert_eq!(
        legal(&CheckersState::new(rules(7, 7)).unwrap()),
        [232, 234, 248, 250, 264, 266]
    );
}

/// A capture after which the capturing piece can capture again: the same player moves
/// again, with only that piece's captures legal; captures are forced.
#[test]
fn a_multi_jump_is_several_actions_of_one_player() {
    let (last, before) = MULTI_JUMP.split_last().unwrap();
    let mut state = play(before);
    assert_eq!(state.to_move(), 0);
    assert_eq!(legal(&state), [313], "the only capture is forced");
    let refused = state.clone().apply_move(CheckersMove(312)).unwrap_err();
    assert!(
        refused.to_string().contains("captures are forced"),
        "{refused}"
    );
    assert_eq!(state.move_text(CheckersMove(*last)), "h4f6");
    let counts = state.piece_counts();
    state.apply_move(CheckersMove(*last)).unwrap();
    assert_eq!(state.piece_counts(), [counts[0], counts[1] - 1]);
    assert_eq!(state.to_move(), 0, "the same player jumps again");
    assert!(state.in_multi_jump());
    assert_eq!(legal(&state), [169]);
    assert_eq!(state.move_text(CheckersMove(169)), "f6d8");
    assert_eq!(state.actions_since_capture(), 0);
    let expected = "8.+...+.+\n7+...+.+.\n6.+...o.+\n5........\n4........\n3o...o.o.\n\
                    2.o.....o\n1o.*.o...\n abcdefgh\n";
    assert_eq!(state.render(), expected);
    // A man elsewhere may not move in the middle of the jump.
    let refused = state.clone().apply_move(CheckersMove(322)).unwrap_err();
    assert!(refused.to_string().contains("is not legal"), "{refused}");
}

/// A man that jumps onto the far row is crowned, and its turn ends even though the king
/// could jump again.
#[test]
fn a_crowning_jump_ends_the_turn() {
    let (last, before) = CROWNING_JUMP.split_last().unwrap();
    let mut state = play(before);
    assert!(state.in_multi_jump());
    assert_eq!(legal(&state), [169, 171]);
    state.apply_move(CheckersMove(*last)).unwrap();
    assert_eq!(state.cell(0, 3), Some((0, true)), "crowned on d8");
    assert_eq!(state.to_move(), 1);
    assert!(!state.in_multi_jump());
    assert_eq!(legal(&state), [231]);
    let expected = "8.+.8.+..\n7+.+...+.\n6.......+\n5....+...\n4...o....\n3o.....o.\n\
                    2.o...o.o\n1o.......\n abcdefgh\n";
    assert_eq!(state.render(), expected);
}

/// The player to move without a legal move loses, with pieces left.
#[test]
fn a_player_without_a_move_loses() {
    let (last, before) = BLOCKED.split_last().unwrap();
    let mut state = play(before);
    assert!(!state.is_over());
    state.apply_move(CheckersMove(*last)).unwrap();
    assert!(state.is_over() && !state.at_decision());
    assert_eq!(state.piece_counts()[1], 1);
    assert_eq!(state.winner(), Some(0));
    assert_eq!(state.scores(), [1, 0]);
    assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
    assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -1.0);
    assert_eq!(
        state.render(),
        "8.......8\n7+.......\n6.8......\n5..o.....\n4........\n3........\n2.o.o...o\n\
         1o.o.o...\n abcdefgh\n"
    );
    assert!(legal(&state).is_empty());
    assert_eq!(
        state.random_move(&mut rand::SeedableRng::seed_from_u64(0)),
        None
    );
    assert_eq!(
        state.clone().apply_move(CheckersMove(0)),
        Err(CheckersError::GameOver)
    );
}

#[test]
fn forty_actions_without_a_capture_draw() {
    let (last, before) = DRAWN.split_last().unwrap();
    let mut state = play(before);
    assert_eq!(
        state.actions_since_capture(),
        MAX_ACTIONS_WITHOUT_CAPTURE - 1
    );
    assert!(!legal(&state).is_empty());
    state.apply_move(CheckersMove(*last)).unwrap();
    assert!(state.is_over() && state.is_drawn());
    assert_eq!(state.winner(), None);
    assert_eq!(state.scores(), [0, 0]);
    assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
    assert_eq!(state.turns_played(), 78);
    assert!(state.check_result([0.0, 0.0]).is_ok());
    assert!(state.check_result([1.0, 1.0]).is_err());
}

#[test]
fn bad_boards_are_refused() {
    let refused = CheckersRules::new(6, 6).unwrap_err();
    assert_eq!(
        refused,
        CheckersError::StartIsTerminal {
            rows: 6,
            columns: 6
        }
    );
    assert!(
        refused.to_string().contains("no legal move at the start"),
        "{refused}"
    );
    for (rows, columns) in [(1, 1), (8, 1), (9, 8), (33, 2)] {
        assert_eq!(
            CheckersRules::new(rows, columns).unwrap_err(),
            CheckersError::InvalidSize { rows, columns }
        );
    }
    for (rows, columns) in [(7, 9), (7, 8)] {
        let refused = CheckersRules::new(rows, columns).unwrap_err();
        assert_eq!(refused, CheckersError::WiderThanTall { rows, columns });
        assert!(refused.to_string().contains("row × rows + column"));
    }
    for rows in 2..7 {
        for columns in 2..=rows {
            assert!(
                CheckersRules::new(rows, columns).is_err(),
                "{rows}x{columns}"
            );
        }
    }
    assert!(CheckersRules::new(7, 2).is_ok() && CheckersRules::new(21, 3).is_ok());
    let read: Result<CheckersRules, _> = serde_json::from_str(r#"{"rows":6,"columns":6}"#);
    assert!(read.unwrap_err().to_string().contains("no legal move"));
    let read: CheckersRules = serde_json::from_str(r#"{"rows":8,"columns":6}"#).unwrap();
    assert_eq!(read, rules(8, 6));
    assert!(CheckersState::new(CheckersRules {
        rows: 6,
        columns: 6
    })
    .is_err());
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let start = CheckersState::default();
    let mut state = start.clone();
    let refused = state.apply_move(CheckersMove(512)).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "action 512 is not an action of this board (0 to 511)"
    );
    // From an empty cell; a man backwards; onto a taken cell; a capture of nothing.
    for action in [0, 324, 306, 323] {
        let refused = state.apply_move(CheckersMove(action)).unwrap_err();
        assert!(
            matches!(refused, CheckersError::Illegal { .. }),
            "{refused}"
        );
    }
    assert_eq!(state, start);
    assert_eq!(
        state.apply_outcome(0).unwrap_err().to_string(),
        "Checkers has no chance events"
    );
}

#[test]
fn random_moves_are_uniform_over_the_legal_moves() {
    let state = CheckersState::default();
    let mut rng: GameRng = rand::SeedableRng::seed_from_u64(3);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..7000 {
        *counts
            .entry(state.random_move(&mut rng).unwrap().0)
            .or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 7);
    assert!(
        counts.values().all(|&n| (850..1150).contains(&n)),
        "{counts:?}"
    );
}

#[test]
fn traces_replay_and_keys_are_distinct() {
    for rules in [rules(8, 8), rules(8, 6), rules(7, 7)] {
        let start = CheckersState::new(rules).unwrap();
        for seed in 0..5 {
            let t = trace(&start, seed).unwrap();
            assert_eq!(trace(&start, seed).unwrap(), t);
            assert_eq!(t.returns[0], -t.returns[1]);
            assert!(t.steps.iter().all(|s| s.legal.contains(&s.action)));
        }
    }
    let start = CheckersState::default();
    assert_eq!(move_of_action(&start, 322), Some(CheckersMove(322)));
    assert_eq!(move_of_action(&start, 0), None);
    assert_ne!(
        CheckersState::action_key(0, 0, CheckersMove(322)),
        CheckersState::action_key(1, 0, CheckersMove(322))
    );
    assert_eq!(serde_json::to_string(&CheckersMove(322)).unwrap(), "322");
}
