//! The searches on Connect Four, a game without chance: every controller is built from a
//! `ControllerSpec`, as leagues and evolution runs build them, and must play the game, not
//! merely run on it. MCTS beats the random player and sees a win or a loss one move away;
//! Star, with no chance node to average, is plain minimax: it finds a win at one ply and
//! blocks a loss at two.

use evomcts::games::connect_four::{ConnectFourMove, ConnectFourState};
use evomcts::games::Game;
use evomcts::search::mcts::{MctsSettings, Reward, Selection};
use evomcts::search::star::StarSettings;
use evomcts::search::{Agent, ControllerSpec, SearchSummary};

/// The main paper's MCTS (UCT, C_E = 2, the score difference as reward, highest Q): on
/// Connect Four its reward is the win-loss result.
fn mcts(sims: u32) -> ControllerSpec {
    ControllerSpec::Mcts(MctsSettings {
        sims,
        ..MctsSettings::default()
    })
}

/// Star1 to `depth` plies with the game's true bounds (±1).
fn star(depth: u32) -> ControllerSpec {
    ControllerSpec::Star(
        StarSettings {
            depth,
            ..StarSettings::star1()
        }
        .with_true_bounds(&ConnectFourState::new()),
    )
}

fn build(spec: &ControllerSpec, seed: u64) -> Box<dyn Agent<ConnectFourState>> {
    spec.validate_for::<ConnectFourState>().unwrap();
    spec.build(seed).unwrap()
}

fn position(columns: &[u8]) -> ConnectFourState {
    ConnectFourState::from_moves(columns).unwrap()
}

/// Plays one game, `players[p]` moving for player `p`; returns the winner, if any.
fn play(players: [&ControllerSpec; 2], seed: u64) -> Option<usize> {
    let mut agents = [build(players[0], seed), build(players[1], seed ^ 0xC4)];
    let mut state = ConnectFourState::new();
    while !state.is_over() {
        let mv = agents[state.to_move()].choose_move(&state);
        state.apply_move(mv).unwrap();
    }
    state.winner()
}

/// The move each of `seeds` makes at `state` under `spec`.
fn choices(spec: &ControllerSpec, state: &ConnectFourState, seeds: u64) -> Vec<u8> {
    (0..seeds)
        .map(|seed| build(spec, seed).choose_move(state).0)
        .collect()
}

/// The columns where the player to move makes a line at once.
fn winning_columns(state: &ConnectFourState) -> Vec<u8> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| {
            let mut after = state.clone();
            after.apply_move(mv).unwrap();
            after.winner().is_some()
        })
        .map(|mv| mv.0)
        .collect()
}

/// The columns after which the opponent has no line to make at once.
fn safe_columns(state: &ConnectFourState) -> Vec<u8> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| {
            let mut after = state.clone();
            after.apply_move(mv).unwrap();
            winning_columns(&after).is_empty()
        })
        .map(|mv| mv.0)
        .collect()
}

/// Positions (the columns played from the start) where the player to move has exactly one
/// winning column: vertical, horizontal into a gap, and a falling diagonal for player 1.
const WINS: [(&[u8], u8); 3] = [
    (&[6, 0, 6, 1, 6, 5], 6),
    (&[0, 0, 1, 1, 3, 3], 2),
    (&[0, 6, 5, 5, 4, 3, 4, 4, 3, 0, 3], 3),
];

/// Positions where the opponent threatens a line and exactly one column stops it (the player
/// to move has no win of its own): a vertical threat on the edge, a horizontal one into a gap.
const BLOCKS: [(&[u8], u8); 2] = [(&[3, 0, 3, 0, 6, 0], 0), (&[0, 6, 2, 6, 3], 1)];

#[test]
fn the_positions_are_what_they_claim() {
    for (columns, win) in WINS {
        assert_eq!(winning_columns(&position(columns)), [win], "{columns:?}");
    }
    for (columns, block) in BLOCKS {
        let state = position(columns);
        assert!(winning_columns(&state).is_empty(), "{columns:?}");
        assert_eq!(safe_columns(&state), [block], "{columns:?}");
    }
    assert_eq!(position(WINS[2].0).to_move(), 1);
    assert_eq!(position(BLOCKS[1].0).to_move(), 1);
}

#[test]
fn mcts_beats_the_random_player_from_both_seats() {
    let (searcher, random) = (mcts(400), ControllerSpec::Random);
    let mut wins = [0; 2];
    for game in 0..40 {
        let seat = game % 2;
        let players = if seat == 0 {
            [&searcher, &random]
        } else {
            [&random, &searcher]
        };
        wins[seat] += usize::from(play(players, game as u64) == Some(seat));
    }
    println!(
        "MCTS won {} of 20 games first and {} of 20 second",
        wins[0], wins[1]
    );
    assert!(
        wins[0] + wins[1] >= 32,
        "MCTS won {wins:?} of 20 games each seat"
    );
}

#[test]
fn mcts_takes_an_immediate_win() {
    for (columns, win) in WINS {
        let chosen = choices(&mcts(400), &position(columns), 10);
        assert!(chosen.iter().all(|&c| c == win), "{columns:?}: {chosen:?}");
    }
}

/// With 400 simulations the paper's MCTS often answers the horizontal threat with a threat of
/// its own (column 6): random rollouts rarely find the opponent's winning reply, so only a
/// tree deep enough to hold that reply sees the loss (26 of 30 seeds block at 1000
/// simulations, all 30 at 2000).
#[test]
fn mcts_blocks_the_opponents_immediate_win() {
    for (columns, block) in BLOCKS {
        let chosen = choices(&mcts(4000), &position(columns), 8);
        assert!(
            chosen.iter().all(|&c| c == block),
            "{columns:?}: {chosen:?}"
        );
    }
}

/// The column Star chooses at `state`, and the value its search reports for it.
fn star_choice(depth: u32, state: &ConnectFourState) -> (u8, Option<f64>) {
    let mut agent = build(&star(depth), 0);
    let ConnectFourMove(column) = agent.choose_move(state);
    match agent.search_summary(0) {
        Some(SearchSummary::Star { value, .. }) => (column, value),
        other => panic!("not a Star summary: {other:?}"),
    }
}

#[test]
fn star_finds_an_immediate_win_and_needs_two_plies_to_block() {
    for (columns, win) in WINS {
        let state = position(columns);
        assert_eq!(star_choice(1, &state), (win, Some(1.0)), "{columns:?}");
        assert_eq!(star_choice(2, &state), (win, Some(1.0)), "{columns:?}");
    }
    for (columns, block) in BLOCKS {
        let state = position(columns);
        // One ply sees no difference between the columns and takes the first in the game's
        // order, the centre; the second ply sees the opponent's line.
        assert_eq!(star_choice(1, &state), (3, Some(0.0)), "{columns:?}");
        assert_eq!(star_choice(2, &state), (block, Some(0.0)), "{columns:?}");
    }
}

/// The share of a decision's simulations that went to `column`, under `selection`.
fn visit_share(selection: Selection, state: &ConnectFourState, column: u8, seed: u64) -> f64 {
    let spec = ControllerSpec::Mcts(MctsSettings {
        sims: 1000,
        // OpenSpiel's customary uct_c = 2 as evomcts's C_E: 2 / (2·sqrt 2).
        c_e: std::f64::consts::FRAC_1_SQRT_2,
        reward: Some(Reward::WinLoss),
        selection,
        ..MctsSettings::default()
    });
    let mut agent = build(&spec, seed);
    agent.choose_move(state);
    let Some(SearchSummary::Mcts(root)) = agent.search_summary(8) else {
        panic!("an MCTS decision has a summary");
    };
    let to_column: u32 = root
        .children
        .iter()
        .filter(|c| c.mv.0 == column)
        .map(|c| c.visits)
        .sum();
    f64::from(to_column) / root.simulations as f64
}

/// OpenSpiel's rule (`OpenSpielUct`) values a child where the game ends by its outcome alone,
/// without exploration: an immediate win then draws fewer simulations than under UCT, which
/// adds the exploration term to it as to every child (docs/openspiel.md measures what this
/// does to blocking).
#[test]
fn openspiels_rule_gives_an_immediate_win_fewer_simulations_than_uct() {
    for (columns, win) in WINS {
        let state = position(columns);
        let uct: f64 = (0..4)
            .map(|s| visit_share(Selection::HandCodedUct, &state, win, s))
            .sum();
        let rule: f64 = (0..4)
            .map(|s| visit_share(Selection::OpenSpielUct, &state, win, s))
            .sum();
        assert!(
            rule < uct,
            "{columns:?}: OpenSpiel's rule {rule}, UCT {uct}"
        );
    }
}
