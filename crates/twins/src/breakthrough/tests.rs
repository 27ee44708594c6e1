//! Breakthrough's rules case by case (positions, action ids and texts as OpenSpiel 2.0.2 gives them), its refusals, its random player and its traces.

use super::*;
use evomcts_games::open_spiel_twin::{move_of_action, trace};

fn rules(rows: u8, columns: u8) -> BreakthroughRules {
    BreakthroughRules::new(rows, columns).expect("valid rules")
}

fn play(rows: u8, columns: u8, actions: &[u16]) -> BreakthroughState {
    BreakthroughState::from_moves(rules(rows, columns), actions).expect("legal moves")
}

fn legal(state: &BreakthroughState) -> Vec<u16> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.iter().map(|mv| mv.0).collect()
}

/// The default board's first moves, ids and texts as OpenSpiel 2.0.2 lists them.
#[test]
fn the_default_start_is_openspiels() {
    let mut state = BreakthroughState::default();
    assert_eq!(state.rules(), rules(8, 8));
    assert_eq!(state.piece_counts(), [16, 16]);
    let moves = legal(&state);
    assert_eq!(moves.len(), 22);
    assert_eq!(&moves[..6], [98, 100, 108, 110, 112, 120]);
    let texts: Vec<String> = moves[..6]
        .iter()
        .map(|&a| state.move_text(BreakthroughMove(a)))
        .collect();
    assert_eq!(texts, ["a7a6", "a7b6", "b7a6", "b7b6", "b7c6", "c7b6"]);
    assert_eq!(state.move_at(1, 0, 1), Some(BreakthroughMove(98)));
    assert_eq!(state.move_at(1, 0, 0), None, "off the board");
    state.apply_move(BreakthroughMove(98)).unwrap();
    assert_eq!(state.to_move(), 1);
    assert_eq!(&legal(&state)[..4], [584, 586, 594, 596]);
    assert_eq!(state.move_text(BreakthroughMove(586)), "a2b3");
    let expected = "8bbbbbbbb\n7.bbbbbbb\n6b.......\n5........\n4........\n\
                    3........\n2wwwwwwww\n1wwwwwwww\n abcdefgh\n";
    assert_eq!(state.render(), expected);
}

/// Fewer than 6 rows: one row of pieces each.
#[test]
fn small_boards_have_one_row_each() {
    let state = BreakthroughState::new(rules(3, 2)).unwrap();
    assert_eq!(state.render(), "3bb\n2..\n1ww\n ab\n");
    assert_eq!(legal(&state), [2, 4, 12, 14]);
    assert_eq!(state.piece_counts(), [2, 2]);
    assert_eq!(
        BreakthroughState::new(rules(6, 2)).unwrap().piece_counts(),
        [4, 4]
    );
}

#[test]
fn reaching_the_far_row_wins() {
    let mut state = play(3, 2, &[2, 68]);
    assert!(!state.is_over());
    state.apply_move(BreakthroughMove(28)).unwrap();
    assert!(state.is_over() && !state.at_decision());
    assert_eq!(state.winner(), Some(0));
    assert_eq!(state.scores(), [1, 0]);
    assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
    assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -1.0);
    assert!(legal(&state).is_empty());
    assert_eq!(
        state.random_move(&mut rand::SeedableRng::seed_from_u64(0)),
        None
    );
    assert_eq!(
        state.clone().apply_move(BreakthroughMove(0)),
        Err(BreakthroughError::GameOver)
    );
}

/// A game OpenSpiel ends by player 1 capturing player 0's last piece, away from its goal
/// row.
#[test]
fn capturing_the_last_piece_wins() {
    let actions = [12, 176, 40, 154, 26, 139, 62, 131, 2];
    let mut state = play(5, 3, &actions);
    assert!(!state.is_over());
    assert_eq!(state.piece_counts()[0], 1);
    state.apply_move(BreakthroughMove(91)).unwrap();
    assert_eq!(state.piece_counts()[0], 0);
    assert_eq!(state.winner(), Some(1));
    assert_eq!(state.render(), "5...\n4w..\n3..w\n2...\n1.w.\n abc\n");
    assert_eq!(state.scores(), [0, 1]);
    assert_eq!(state.turns_played(), 10);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let start = BreakthroughState::default();
    let mut state = start.clone();
    let refused = state.apply_move(BreakthroughMove(768)).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "action 768 is not an action of this board (0 to 767)"
    );
    // A straight move forward onto the mover's own piece (a8a7).
    let refused = state.apply_move(BreakthroughMove(2)).unwrap_err();
    assert!(
        refused
            .to_string()
            .starts_with("action 2 (a8a7) is not legal"),
        "{refused}"
    );
    // Player 1's direction for player 0.
    let refused = state.apply_move(BreakthroughMove(104)).unwrap_err();
    assert!(
        refused.to_string().contains("the other player's"),
        "{refused}"
    );
    // A capture flag onto an empty cell, and a move from an empty cell.
    assert!(state.apply_move(BreakthroughMove(99)).is_err());
    assert!(state.apply_move(BreakthroughMove(24 * 12 + 2)).is_err());
    assert_eq!(state, start);
    assert_eq!(
        state.apply_outcome(0).unwrap_err().to_string(),
        "Breakthrough has no chance events"
    );
}

#[test]
fn bad_sizes_are_refused() {
    for (rows, columns) in [(1, 8), (8, 1), (0, 0), (9, 8), (33, 2)] {
        let refused = BreakthroughRules::new(rows, columns).unwrap_err();
        assert_eq!(refused, BreakthroughError::InvalidSize { rows, columns });
    }
    assert!(BreakthroughRules::new(2, 32).is_ok());
    assert_eq!(
        BreakthroughRules::new(9, 8).unwrap_err().to_string(),
        "a board of 9 rows and 8 columns: expected at least 2 rows and 2 columns, and at \
         most 64 cells"
    );
    let read: Result<BreakthroughRules, _> = serde_json::from_str(r#"{"rows":1,"columns":5}"#);
    assert!(read.unwrap_err().to_string().contains("at least 2 rows"));
    let read: BreakthroughRules = serde_json::from_str(r#"{"rows":6,"columns":6}"#).unwrap();
    assert_eq!(read, rules(6, 6));
    let bad = BreakthroughRules {
        rows: 1,
        columns: 1,
    };
    assert!(BreakthroughState::new(bad).is_err());
}

#[test]
fn random_moves_are_uniform_over_the_legal_moves() {
    let state = play(6, 6, &[]);
    let moves = legal(&state);
    let mut rng: GameRng = rand::SeedableRng::seed_from_u64(3);
    let mut counts = std::collections::HashMap::new();
    let draws = 1000 * moves.len();
    for _ in 0..draws {
        *counts
            .entry(state.random_move(&mut rng).unwrap().0)
            .or_insert(0) += 1;
    }
    assert_eq!(counts.len(), moves.len());
    assert!(
        counts.values().all(|&n| (850..1150).contains(&n)),
        "{counts:?}"
    );
}

#[test]
fn ordered_moves_put_wins_and_captures_first() {
    let state = play(3, 2, &[2, 68]);
    let moves: Vec<BreakthroughMove> = legal(&state).into_iter().map(BreakthroughMove).collect();
    let mut ordered = Vec::new();
    state.order_moves(&moves, &mut ordered);
    assert_eq!(state.move_text(ordered[0]), "a2b1");
    assert_eq!(ordered.len(), moves.len());
}

#[test]
fn traces_replay_and_keys_are_distinct() {
    for rules in [rules(8, 8), rules(6, 6), rules(2, 2)] {
        let start = BreakthroughState::new(rules).unwrap();
        let t = trace(&start, 11).unwrap();
        assert_eq!(trace(&start, 11).unwrap(), t);
        assert!(t.returns == [1.0, -1.0] || t.returns == [-1.0, 1.0]);
        for (i, s) in t.steps.iter().enumerate() {
            assert_eq!(s.player, (i % 2) as i64);
            assert!(s.legal.contains(&s.action));
        }
    }
    let start = BreakthroughState::default();
    assert_eq!(move_of_action(&start, 98), Some(BreakthroughMove(98)));
    assert_eq!(move_of_action(&start, 2), None);
    assert_ne!(
        BreakthroughState::action_key(0, 0, BreakthroughMove(98)),
        BreakthroughState::action_key(1, 0, BreakthroughMove(98))
    );
    assert_eq!(serde_json::to_string(&BreakthroughMove(98)).unwrap(), "98");
}
