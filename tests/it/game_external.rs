//! `ExternalGame`, the game over a state behind a trait object (what OpenSpiel games will be
//! played through), on the library's own games wrapped as external states: it keeps every
//! promise of the conformance suite, and MCTS plays through it exactly as on the native game.

use evomcts::games::connect_four::{ConnectFourMove, ConnectFourState};
use evomcts::games::external::{ExternalGame, ExternalMove, ExternalPlayer, ExternalState};
use evomcts::games::pig::{PigMove, PigRules, PigState};
use evomcts::games::Game;
use evomcts::search::mcts::{MctsController, MctsSettings, Selection};

use crate::game_conformance::{check_game, check_immediate_wins};

/// Connect Four as an OpenSpiel state: actions are columns, returns the scores (1 for a line);
/// or, when zero-sum (the second field), as OpenSpiel gives it: +1 and −1 for a win, 0 each
/// for a draw, with the promise that they sum to 0 (`constant_sum`).
#[derive(Clone, Debug)]
struct ConnectFour(ConnectFourState, bool);

impl ExternalState for ConnectFour {
    fn clone_box(&self) -> Box<dyn ExternalState> {
        Box::new(self.clone())
    }
    fn current_player(&self) -> ExternalPlayer {
        if self.0.is_over() {
            ExternalPlayer::Terminal
        } else {
            ExternalPlayer::Player(self.0.to_move())
        }
    }
    fn legal_actions(&self, out: &mut Vec<i64>) {
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        out.extend(moves.iter().map(|mv| i64::from(mv.0)));
    }
    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        let column = u8::try_from(action).map_err(|_| format!("no column {action}"))?;
        self.0
            .apply_move(ConnectFourMove(column))
            .map_err(|e| e.to_string())
    }
    fn chance_outcomes(&self, _: &mut Vec<(i64, f64)>) {}
    fn returns(&self) -> [f64; 2] {
        let [a, b] = self.0.scores().map(f64::from);
        if self.1 {
            [a - b, b - a]
        } else {
            [a, b]
        }
    }
    fn move_number(&self) -> usize {
        self.0.turns_played()
    }
    fn constant_sum(&self) -> Option<f64> {
        self.1.then_some(0.0)
    }
    fn text(&self) -> String {
        self.0.render()
    }
    fn max_chance_outcomes(&self) -> usize {
        0
    }
    fn game_name(&self) -> String {
        "connect_four".into()
    }
}

fn connect_four(state: ConnectFourState) -> ExternalGame {
    ExternalGame::new(Box::new(ConnectFour(state, false)), 1.0).expect("Connect Four fits")
}

/// Pig as an OpenSpiel state: roll is action 0, hold 1; a roll's faces are the chance
/// actions 1 to 6, each with probability 1/6; returns are the banked scores.
#[derive(Clone, Debug)]
struct Pig {
    state: PigState,
    moves: usize,
}

impl ExternalState for Pig {
    fn clone_box(&self) -> Box<dyn ExternalState> {
        Box::new(self.clone())
    }
    fn current_player(&self) -> ExternalPlayer {
        match (self.state.is_over(), self.state.roll_pending()) {
            (true, _) => ExternalPlayer::Terminal,
            (_, true) => ExternalPlayer::Chance,
            _ => ExternalPlayer::Player(self.state.to_move()),
        }
    }
    fn legal_actions(&self, out: &mut Vec<i64>) {
        let mut moves = Vec::new();
        self.state.legal_moves(&mut moves);
        out.extend(moves.iter().map(|&mv| i64::from(mv == PigMove::Hold)));
    }
    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        let applied = match (self.current_player(), action) {
            (ExternalPlayer::Chance, 1..=6) => self.state.apply_outcome(action as u8),
            (ExternalPlayer::Player(_), 0) => self.state.apply_move(PigMove::Roll),
            (ExternalPlayer::Player(_), 1) => self.state.apply_move(PigMove::Hold),
            _ => return Err(format!("action {action} is not playable")),
        };
        self.moves += 1;
        applied.map_err(|e| e.to_string())
    }
    fn chance_outcomes(&self, out: &mut Vec<(i64, f64)>) {
        out.extend((1..=6).map(|face| (face, 1.0 / 6.0)));
    }
    fn returns(&self) -> [f64; 2] {
        self.state.scores().map(f64::from)
    }
    fn move_number(&self) -> usize {
        self.moves
    }
    fn text(&self) -> String {
        self.state.to_string()
    }
    fn max_chance_outcomes(&self) -> usize {
        6
    }
    fn game_name(&self) -> String {
        "pig".into()
    }
}

/// Pig to a target from 1 to 30, by seed: short games, some ending on the first roll.
fn pig(seed: u64) -> ExternalGame {
    let rules = PigRules::new(1 + (seed % 30) as u16).expect("a valid target");
    let bound = rules.target as f64 + 5.0;
    let state = PigState::new(rules).unwrap();
    ExternalGame::new(Box::new(Pig { state, moves: 0 }), bound).expect("Pig fits")
}

#[test]
fn connect_four_through_the_external_interface_conforms() {
    check_game(|_| connect_four(ConnectFourState::new()), 100, 7);
}

/// A search through the adapter plays an immediate win among siblings, under both UCT rules
/// (`game_conformance::check_immediate_wins`); Pig through it has none, as natively.
#[test]
fn immediate_wins_through_the_external_interface_are_played() {
    assert_eq!(
        check_immediate_wins(|_| connect_four(ConnectFourState::new()), 10, 13),
        10
    );
    assert_eq!(check_immediate_wins(pig, 5, 14), 0);
}

/// Chance events: sampled and listed outcomes, what follows them, and the search's chance
/// nodes, through the adapter.
#[test]
fn pig_through_the_external_interface_conforms() {
    check_game(pig, 60, 8);
}

/// The same search on both sides draws the same random numbers: the adapter lists the legal
/// actions in the native order (the tree shuffles them with one draw each), and its random
/// player draws `gen_range(0..count)` once per move as Connect Four's does; Connect Four has
/// no chance event (where the adapter samples by probability and the native game would not
/// draw alike). So the trees, not only the chosen moves, agree.
#[test]
fn mcts_through_the_external_interface_searches_as_on_the_native_game() {
    // The start, a win for each player (vertical; falling diagonal) and a forced block (which
    // needs 2000 simulations: game_connect_four.rs), with the column the search must find.
    let positions: [(&[u8], u32, Option<u8>); 4] = [
        (&[], 400, None),
        (&[6, 0, 6, 1, 6, 5], 400, Some(6)),
        (&[0, 6, 5, 5, 4, 3, 4, 4, 3, 0, 3], 400, Some(3)),
        (&[0, 6, 2, 6, 3], 2000, Some(1)),
    ];
    for (columns, sims, best) in positions {
        let native = ConnectFourState::from_moves(columns).unwrap();
        let external = connect_four(native.clone());
        for (selection, seed) in [Selection::Uct, Selection::Rave { bias: 0.1 }]
            .into_iter()
            .flat_map(|s| [(s.clone(), 0), (s, 1)])
        {
            let at = format!("{columns:?}, {selection:?}, seed {seed}");
            let settings = MctsSettings {
                sims,
                selection,
                ..MctsSettings::default()
            };
            let mut on_native = MctsController::<ConnectFourState>::new(&settings, seed).unwrap();
            let mut on_external = MctsController::<ExternalGame>::new(&settings, seed).unwrap();
            let chosen = on_native.try_choose_move(&native).unwrap();
            let through = on_external.try_choose_move(&external).unwrap();
            assert_eq!(ExternalMove(i64::from(chosen.0)), through, "{at}");
            assert!(
                best.is_none_or(|best| chosen.0 == best),
                "{at}: chose {chosen:?}"
            );
            let native_root: Vec<_> = on_native
                .root_children()
                .iter()
                .map(|c| (i64::from(c.mv.0), c.visits, c.q))
                .collect();
            let external_root: Vec<_> = on_external
                .root_children()
                .iter()
                .map(|c| (c.mv.0, c.visits, c.q))
                .collect();
            assert_eq!(native_root, external_root, "{at}");
            on_external
                .check_tree()
                .unwrap_or_else(|why| panic!("{at}: {why}"));
        }
    }
}

// Issue 43, cause 2: a game that promises its returns sum to a constant refuses results that
// do not (both players winning a zero-sum game); its own results pass (the conformance suite
// checks every played game's result), and a game without the promise accepts any pair.
#[test]
fn a_zero_sum_external_game_refuses_results_that_do_not_sum_to_zero() {
    let zero_sum = || {
        let state = ConnectFour(ConnectFourState::new(), true);
        ExternalGame::new(Box::new(state), 1.0).expect("Connect Four fits")
    };
    check_game(|_| zero_sum(), 40, 3);
    let game = zero_sum();
    for ok in [[1.0, -1.0], [-1.0, 1.0], [0.0, 0.0]] {
        assert_eq!(game.check_result(ok), Ok(()), "{ok:?}");
    }
    for bad in [[1.0, 1.0], [-1.0, -1.0], [1.0, 0.0]] {
        let why = game.check_result(bad).unwrap_err();
        assert!(why.contains("sum to 0"), "{bad:?}: {why}");
    }
    assert_eq!(
        connect_four(ConnectFourState::new()).check_result([1.0, 1.0]),
        Ok(())
    );
}
