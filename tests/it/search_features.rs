//! The move features `G`, `O`, `M`, `F`, `R`, `L`, `T`: each equals its definition on
//! constructed positions and on sampled ones (checked against an independent count of the
//! meeples on the board), they are computed once per child and only for formulas that read
//! them, and a game without features refuses formulas that read one.

use crate::support::lay;
use evomcts::games::carcassonne::{
    sample_positions, FeatureKind, GameState, Move, Reveal, Rules, TileKind,
};
use evomcts::games::pig::PigState;
use evomcts::search::mcts::{ChildStats, MctsController, MctsSettings, Reward, Selection};
use evomcts::search::ControllerSpec;
use FeatureKind::*;
use TileKind::*;

const SCALE: f64 = 50.0;

fn reading(formula: &str, sims: u32) -> MctsSettings {
    MctsSettings {
        sims,
        c_e: 0.01,
        reward: Some(Reward::ScaledScoreDiff(SCALE)),
        selection: Selection::Formula(formula.into()),
        ..MctsSettings::default()
    }
}

/// The root children of a search of `state` by a formula that reads every feature.
fn root_children(state: &GameState) -> Vec<ChildStats<Move>> {
    let settings = reading("Q + 0*(G + O + M + F + R + L + T)", 10);
    let mut controller = MctsController::new(&settings, 5).unwrap();
    controller.begin(state).unwrap();
    controller.root_children()
}

/// The mover's meeples on the board, counted tile by tile.
fn meeples_on_board(state: &GameState, player: usize) -> i32 {
    state
        .placed_tiles()
        .iter()
        .filter(|t| t.meeple.is_some_and(|(_, p)| usize::from(p) == player))
        .count() as i32
}

/// The features of `mv` at `state` by their definitions, computed apart from the engine's
/// assessment: scores from `virtual_scores`, returned meeples from the board's meeples.
fn by_definition(state: &GameState, mv: Move) -> [f64; 7] {
    let mover = state.to_move();
    let mut after = state.clone();
    after.apply(mv).unwrap();
    let (before_v, after_v) = (state.virtual_scores(), after.virtual_scores());
    let placed = i32::from(mv.meeple.is_some());
    let farmer = mv.meeple.is_some_and(|segment| {
        let tile = state.drawn().unwrap();
        tile.def().segments[segment as usize].kind == Field
    });
    let returned = meeples_on_board(state, mover) + placed - meeples_on_board(&after, mover);
    [
        f64::from(after_v[mover] - before_v[mover]) / SCALE,
        f64::from(after_v[1 - mover] - before_v[1 - mover]) / SCALE,
        f64::from(placed),
        f64::from(u8::from(farmer)),
        f64::from(returned),
        f64::from(after.supply(mover)) / 7.0,
        state.turns_played() as f64 / 71.0,
    ]
}

fn features_of(state: &GameState, mv: Move) -> [f64; 7] {
    let children = root_children(state);
    let child = children.iter().find(|c| c.mv == mv).expect("a legal move");
    child.features.expect("the formula reads features")
}

fn draw(state: &mut GameState, tile: TileKind) {
    assert_eq!(state.reveal(tile), Ok(Reveal::Ready));
}

fn with_meeple(
    tile: TileKind,
    x: i8,
    y: i8,
    rotation: u8,
    on: Option<(FeatureKind, usize)>,
) -> Move {
    Move {
        x,
        y,
        rotation,
        meeple: on.map(|(kind, nth)| crate::support::seg(tile, kind, nth)),
    }
}

#[test]
fn a_completing_move_returns_the_movers_meeple() {
    let mut g = GameState::new(Rules::default());
    lay(&mut g, M, 0, -1, 2, Some((City, 0))); // player 0's meeple on D's open city
    lay(&mut g, U, 1, 0, 0, None); // player 1
    draw(&mut g, E);
    let mv = with_meeple(E, 1, -1, 3, None); // closes the city: 8 points, the meeple back
    let features = features_of(&g, mv);
    assert_eq!(features, by_definition(&g, mv));
    assert_eq!(features[4], 1.0, "R");
    assert_eq!(features[2], 0.0, "M");
    assert_eq!(features[5], 7.0 / 7.0, "L: the supply is full again");
    assert_eq!(features[6], 2.0 / 71.0, "T");
    // G: the city was worth 4 on the board (incomplete, with its pennant... ) and 8 closed.
    let v_before = g.virtual_scores()[0];
    assert_eq!(features[0], f64::from(8 - v_before) / SCALE);
}

#[test]
fn a_meeple_placed_and_returned_on_the_same_move_counts() {
    let mut g = GameState::new(Rules::default());
    draw(&mut g, E);
    // E turned twice closes D's city with its own meeple on it.
    let mv = with_meeple(E, 0, -1, 2, Some((City, 0)));
    let features = features_of(&g, mv);
    assert_eq!(features, by_definition(&g, mv));
    assert_eq!(features[2], 1.0, "M");
    assert_eq!(features[3], 0.0, "F");
    assert_eq!(features[4], 1.0, "R");
    assert_eq!(features[5], 1.0, "L");
    assert_eq!(features[0], 4.0 / SCALE, "G: a two-tile city");
    assert_eq!(features[1], 0.0, "O");
    assert_eq!(features[6], 0.0, "T: the first turn");
}

#[test]
fn a_farmer_and_a_move_without_meeple() {
    let mut g = GameState::new(Rules::default());
    draw(&mut g, E);
    let farmer = with_meeple(E, 0, -1, 2, Some((Field, 0)));
    let features = features_of(&g, farmer);
    assert_eq!(features, by_definition(&g, farmer));
    assert_eq!((features[2], features[3], features[4]), (1.0, 1.0, 0.0));
    assert_eq!(features[5], 6.0 / 7.0);
    let plain = with_meeple(E, 0, -1, 2, None);
    let features = features_of(&g, plain);
    assert_eq!(features, by_definition(&g, plain));
    assert_eq!((features[2], features[3], features[4]), (0.0, 0.0, 0.0));
    assert_eq!(features[5], 1.0);
}

/// Sampled mid-game positions hold every case the constructed ones do not: two meeples
/// returned by one move, the last meeple placed, the opponent's gains.
#[test]
fn every_feature_equals_its_definition_on_sampled_positions() {
    let (mut two_returned, mut last_meeple, mut opponent_gains) = (0, 0, 0);
    for state in sample_positions(150, 17, 5..70) {
        for child in root_children(&state) {
            let expected = by_definition(&state, child.mv);
            let features = child.features.unwrap();
            assert_eq!(
                features,
                expected,
                "{:?} at turn {}",
                child.mv,
                state.turns_played()
            );
            // H is the difference's change, G − O its parts' changes: equal up to rounding.
            let h = child.heuristic.unwrap();
            assert!((h - (features[0] - features[1])).abs() < 1e-12);
            two_returned += usize::from(features[4] >= 2.0);
            last_meeple += usize::from(features[2] == 1.0 && features[5] == 0.0);
            opponent_gains += usize::from(features[1] != 0.0);
        }
    }
    assert!(two_returned > 0, "no move returned two meeples");
    assert!(last_meeple > 0, "no move placed the last meeple");
    assert!(opponent_gains > 0, "no move changed the opponent's score");
}

#[test]
fn features_are_computed_once_per_child_and_only_for_formulas_that_read_them() {
    let state = &sample_positions(3, 23, 10..40)[2];
    let settings = reading("Q + 0.1*(R - M*F)", 200);
    let mut controller = MctsController::new(&settings, 9).unwrap();
    controller.try_choose_move(state).unwrap();
    let tree = controller.snapshot();
    assert_eq!(
        controller.last_decision().knowledge_evaluations,
        tree.move_children() as u64
    );
    assert!(controller
        .root_children()
        .iter()
        .all(|c| c.features.is_some()));
    let mut h_only = MctsController::new(&reading("Q + 0.1*H", 200), 9).unwrap();
    h_only.try_choose_move(state).unwrap();
    assert!(h_only.root_children().iter().all(|c| c.features.is_none()));
    assert!(h_only.root_children().iter().all(|c| c.heuristic.is_some()));
}

/// Features the formula does not read never change a search: `Q + H` and `Q + H + 0*G` grow
/// the same tree from the same seed.
#[test]
fn a_zero_weight_feature_leaves_the_search_unchanged() {
    let state = &sample_positions(5, 29, 10..60)[4];
    let mut a = MctsController::new(&reading("Q + 2*C*sqrt(2*ln(N)/n) + H", 150), 3).unwrap();
    let mut b = MctsController::new(&reading("Q + 2*C*sqrt(2*ln(N)/n) + H + 0*G", 150), 3).unwrap();
    assert_eq!(a.try_choose_move(state), b.try_choose_move(state));
    assert_eq!(a.snapshot(), b.snapshot());
}

#[test]
fn a_game_without_features_refuses_formulas_that_read_one() {
    let spec = ControllerSpec::Mcts(reading("Q + 0.1*R", 50));
    let error = spec.validate_for::<PigState>().unwrap_err().to_string();
    assert!(error.contains("move feature"), "{error}");
    assert!(error.contains("selection"), "{error}");
    assert!(spec.validate_for::<GameState>().is_ok());
    assert!(ControllerSpec::Mcts(reading("Q + 0.1*H", 50))
        .validate_for::<PigState>()
        .is_ok());
}

/// `evomcts analyse` shows the features beside `Q`, `H` and `p` when the search computed them,
/// and its table is as before for a search that did not.
#[test]
fn the_analyse_table_shows_the_features_only_when_computed() {
    use evomcts::league::analyse::search_table;
    use evomcts::search::SearchSummary;
    let state = &sample_positions(2, 31, 10..40)[1];
    let table = |formula: &str| {
        let mut controller = MctsController::new(&reading(formula, 50), 1).unwrap();
        let chosen = controller.try_choose_move(state).unwrap();
        let summary = SearchSummary::Mcts(controller.root_summary(5).unwrap());
        search_table("decision", &summary, &chosen, &chosen)
    };
    let with = table("Q + 0.1*(H - M*F)");
    assert_eq!(
        with.headers,
        ["rank", "move", "visits", "share", "Q", "H", "p", "G", "O", "M", "F", "R", "L", "T", ""]
    );
    assert!(with.rows.iter().all(|row| row.len() == with.headers.len()));
    let without = table("Q + 0.1*H");
    assert_eq!(
        without.headers,
        ["rank", "move", "visits", "share", "Q", "H", "p", ""]
    );
}
