//! Scoring rules on constructed positions: the facts of the reference table, majority and ties,
//! meeples refused on occupied features, merges, monasteries and discarded tiles.

use crate::support::{lay, seg};
use evomcts::games::carcassonne::{
    FeatureKind, GameState, Move, Reveal, Rules, TileKind, Unplaceable,
};
use FeatureKind::*;
use TileKind::*;

fn new_game() -> GameState {
    GameState::new(Rules::default())
}

#[test]
fn completed_three_tile_city_with_a_pennant_scores_eight() {
    let mut g = new_game();
    // D's city opens north; M turned twice has its pennant city on S and E.
    lay(&mut g, M, 0, -1, 2, Some((City, 0)));
    assert_eq!(g.supply(0), 6);
    // E turned three times closes the city from the east.
    lay(&mut g, E, 1, -1, 3, None);
    assert_eq!(g.scores(), [8, 0]);
    assert_eq!(g.score_by_kind()[0][City as usize], 8);
    assert_eq!(g.supply(0), 7, "the meeple returns");
    assert!(g.placed_tiles().iter().all(|t| t.meeple.is_none()));
}

#[test]
fn the_same_city_incomplete_at_game_end_scores_four() {
    let mut g = new_game();
    lay(&mut g, M, 0, -1, 2, Some((City, 0)));
    lay(&mut g, G, 1, -1, 0, None); // G continues the city to the east, still open.
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!(g.virtual_scores(), [4, 0]);
    g.finish();
    assert_eq!(g.scores(), [4, 0]);
}

#[test]
fn two_tile_city_variant_scores_two() {
    let mut g = GameState::new(Rules {
        two_tile_city_scores_two: true,
        ..Rules::default()
    });
    lay(&mut g, E, 0, -1, 2, Some((City, 0))); // closes D's city: two tiles, no pennant.
    assert_eq!(g.scores(), [2, 0]);
    let mut g = new_game();
    lay(&mut g, E, 0, -1, 2, Some((City, 0)));
    assert_eq!(g.scores(), [4, 0]);
}

/// The board of the monastery facts: B south of the start tile, with neighbours around it.
fn monastery_with_five_neighbours() -> GameState {
    let mut g = new_game();
    lay(&mut g, B, 0, 1, 0, Some((Monastery, 0))); // player 0
    lay(&mut g, U, 1, 0, 0, None); // player 1: road continues D's road east
    lay(&mut g, U, -1, 0, 0, None); // player 0
    lay(&mut g, E, 1, 1, 2, None); // player 1: city south
    lay(&mut g, E, -1, 1, 2, None); // player 0
    g
}

#[test]
fn monastery_with_five_of_eight_neighbours_scores_six_at_game_end() {
    let mut g = monastery_with_five_neighbours();
    assert_eq!(g.virtual_scores()[0], 6);
    g.finish();
    assert_eq!(g.scores()[0], 6);
    assert_eq!(g.score_by_kind()[0][Monastery as usize], 6);
}

#[test]
fn monastery_completed_by_a_later_tile_scores_nine() {
    let mut g = monastery_with_five_neighbours();
    lay(&mut g, E, -1, 2, 0, None); // closes the city of (-1, 1)
    lay(&mut g, E, 0, 2, 1, None);
    assert_eq!(g.scores()[0], 0);
    assert_eq!(g.supply(0), 6);
    lay(&mut g, N, 1, 2, 0, None); // eighth neighbour
    assert_eq!(g.scores()[0], 9);
    assert_eq!(g.supply(0), 7);
}

#[test]
fn field_touching_two_completed_cities_and_one_incomplete_scores_six() {
    let mut g = new_game();
    // E turned twice below D: its field joins D's southern field; its city opens south.
    lay(&mut g, E, 0, 1, 2, Some((Field, 0))); // player 0 farms
    lay(&mut g, E, 0, 2, 0, None); // closes the city (0,1)-(0,2)
    lay(&mut g, E, 1, 1, 1, None); // city east, field joins
    lay(&mut g, E, 2, 1, 3, None); // closes (1,1)-(2,1)
    lay(&mut g, E, -1, 1, 3, None); // city west, left open
    assert_eq!(
        g.scores(),
        [8, 0].map(|_: i32| 0),
        "completed cities held no meeple"
    );
    assert_eq!(g.virtual_scores(), [6, 0]);
    g.finish();
    assert_eq!(g.scores(), [6, 0]);
    assert_eq!(g.score_by_kind()[0][Field as usize], 6);
}

#[test]
fn field_of_one_tile_touching_two_completed_cities_scores_six() {
    let mut g = new_game();
    // H (separate cities N and S) above D: its south city closes D's city at once.
    lay(&mut g, H, 0, -1, 0, Some((Field, 0)));
    assert_eq!(
        g.virtual_scores(),
        [3, 0],
        "one completed city touched so far"
    );
    lay(&mut g, E, 0, -2, 2, None); // closes H's north city
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!(g.virtual_scores(), [6, 0]);
    g.finish();
    assert_eq!(g.scores(), [6, 0]);
}

#[test]
fn tied_meeples_both_score_the_full_city() {
    let mut g = new_game();
    lay(&mut g, G, 0, -1, 1, Some((City, 0))); // player 0: city through N and S
    lay(&mut g, E, 1, -1, 0, Some((City, 0))); // player 1: a separate city opening north
    lay(&mut g, N, 1, -2, 3, None); // player 0: turns player 1's city west
    assert_eq!(g.scores(), [0, 0]);
    // One tile joins both occupied cities and closes them: 5 tiles, no pennant, a tie.
    lay(&mut g, N, 0, -2, 2, None); // player 1
    assert_eq!(g.scores(), [10, 10]);
    assert_eq!((g.supply(0), g.supply(1)), (7, 7));
}

#[test]
fn majority_takes_a_city_merged_from_three_occupied_ones() {
    let mut g = new_game();
    lay(&mut g, U, 1, 0, 0, None); // player 0
    lay(&mut g, G, 0, -1, 1, Some((City, 0))); // player 1 holds D+G
    lay(&mut g, B, 1, -1, 0, None); // player 0
    lay(&mut g, B, -1, -1, 0, None); // player 1
    lay(&mut g, E, 1, -2, 3, Some((City, 0))); // player 0: city opening west
    lay(&mut g, U, -1, 0, 0, None); // player 1
    lay(&mut g, E, -1, -2, 1, Some((City, 0))); // player 0: city opening east
    assert_eq!((g.supply(0), g.supply(1)), (5, 6));
    // R turned twice joins all three and closes them: 5 tiles; player 0 has 2 meeples to 1.
    lay(&mut g, R, 0, -2, 2, None); // player 1
    assert_eq!(g.scores(), [10, 0]);
    assert_eq!(
        (g.supply(0), g.supply(1)),
        (7, 7),
        "every meeple of the city returns"
    );
}

#[test]
fn a_meeple_is_refused_on_an_occupied_feature() {
    let mut g = new_game();
    lay(&mut g, G, 0, -1, 1, Some((City, 0))); // player 0 holds the city D+G
    assert_eq!(g.reveal(E), Ok(Reveal::Ready));
    let closing = Move {
        x: 0,
        y: -2,
        rotation: 2,
        meeple: Some(seg(E, City, 0)),
    };
    let err = g.apply(closing).unwrap_err().to_string();
    assert!(err.contains("already holds a meeple"), "{err}");
    let options = g.meeple_options(E, closing.placement());
    assert_eq!(options & (1 << seg(E, City, 0)), 0);
    assert_ne!(options & (1 << seg(E, Field, 0)), 0, "the field is free");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(!moves.contains(&closing));
    g.apply(Move {
        meeple: None,
        ..closing
    })
    .unwrap();
    assert_eq!(g.scores(), [6, 0], "D + G + E closed: 3 tiles");
}

#[test]
fn an_unplaceable_tile_is_discarded_and_the_same_player_draws_again() {
    let mut g = new_game();
    lay(&mut g, E, 0, -1, 2, None); // closes D's city: no open city edge remains
    assert_eq!(g.to_move(), 1);
    let hidden_c = g.hidden_counts()[C.index()];
    assert_eq!(g.placement_count(C), 0);
    assert_eq!(g.reveal(C), Ok(Reveal::Discarded));
    assert_eq!(g.discards(), 1);
    assert_eq!(g.hidden_counts()[C.index()], hidden_c - 1);
    assert_eq!(g.to_move(), 1);
    assert_eq!(g.drawn(), None);
    assert_eq!(g.reveal(U), Ok(Reveal::Ready));
    assert_eq!(g.to_move(), 1);
}

#[test]
fn bottom_of_stack_variant_returns_the_tile_to_the_hidden_ones() {
    let mut g = GameState::new(Rules {
        unplaceable: Unplaceable::BottomOfStack,
        ..Rules::default()
    });
    lay(&mut g, E, 0, -1, 2, None);
    let hidden = g.hidden_total();
    assert_eq!(g.reveal(C), Ok(Reveal::ReturnedToBottom));
    assert_eq!(g.hidden_total(), hidden);
    assert_eq!(g.discards(), 0);
}

#[test]
fn illegal_moves_are_errors_not_panics() {
    let mut g = new_game();
    assert!(
        g.apply(Move {
            x: 0,
            y: -1,
            rotation: 0,
            meeple: None
        })
        .is_err(),
        "nothing drawn"
    );
    g.reveal(E).unwrap();
    for mv in [
        Move {
            x: 0,
            y: 0,
            rotation: 2,
            meeple: None,
        }, // occupied
        Move {
            x: 5,
            y: 5,
            rotation: 2,
            meeple: None,
        }, // not adjacent
        Move {
            x: 0,
            y: -1,
            rotation: 0,
            meeple: None,
        }, // field meets city
        Move {
            x: 0,
            y: -1,
            rotation: 7,
            meeple: None,
        }, // no such rotation
        Move {
            x: 0,
            y: -1,
            rotation: 2,
            meeple: Some(9),
        }, // no such segment
        Move {
            x: 80,
            y: -1,
            rotation: 2,
            meeple: None,
        }, // aliases (0,-1) on the torus
    ] {
        assert!(g.apply(mv).is_err(), "{mv} should be refused");
    }
    assert_eq!(g.turns_played(), 0);
    assert!(g.reveal(E).is_err(), "a tile is already drawn");
}

#[test]
fn symmetric_placements_are_offered_once() {
    let mut g = new_game();
    g.reveal(U).unwrap(); // straight road, two distinct rotations
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let east: Vec<_> = moves
        .iter()
        .filter(|m| (m.x, m.y) == (1, 0) && m.meeple.is_none())
        .collect();
    assert_eq!(
        east.len(),
        1,
        "only the east-west rotation fits, and only once"
    );
}
