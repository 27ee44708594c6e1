//! How a Carcassonne position at a search horizon is valued, and the order in which the exact
//! searches try its moves.
//!
//! Both evaluations are differences from the searching player's view, so the search is
//! zero-sum. `score_difference_bound` and `evaluation_bound` give true bounds (L, U), derived
//! from the tile set, under which pruning provably leaves the result unchanged.

use super::{FeatureKind, GameState, Move, SegmentNode, TileKind, MEEPLES_PER_PLAYER};
use crate::Evaluation;
use std::sync::OnceLock;

/// Heyden's (2009) weighted features of a position: Carcassonne's own evaluation.
pub const HEYDEN: Evaluation = Evaluation::Own("Heyden");

/// A true bound B on `evaluation`: every value lies in [−B, B].
pub fn evaluation_bound(evaluation: Evaluation) -> f64 {
    let b = score_difference_bound();
    match evaluation {
        Evaluation::ScoreDifference => b,
        // Heyden's: 100·|Δscore| + 10·|Δincomplete| + 12.5·|Δcity| ≤ 122.5·B; meeples and fields ≤ 7.
        Evaluation::Own(_) => 122.5 * b + (10.0 + 40.0) * f64::from(MEEPLES_PER_PLAYER),
    }
}

/// The value of `state` for player `me` under `evaluation`.
#[inline]
pub fn evaluate(state: &GameState, me: usize, evaluation: Evaluation) -> f64 {
    match evaluation {
        Evaluation::ScoreDifference => {
            let v = state.virtual_scores();
            f64::from(v[me] - v[1 - me])
        }
        // Heyden's, the one evaluation of Carcassonne's own (`Game::offers` keeps the rest out).
        Evaluation::Own(_) => heyden(state, me),
    }
}

fn heyden(state: &GameState, me: usize) -> f64 {
    if state.is_over() {
        let v = state.virtual_scores();
        return 100.0 * f64::from(v[me] - v[1 - me]);
    }
    let features = state.features();
    // Per player: incomplete non-city value, incomplete city value, poor fields.
    let mut incomplete = [0i32; 2];
    let mut cities = [0i32; 2];
    let mut poor_fields = [0i32; 2];
    let mut seen: [SegmentNode; 2 * MEEPLES_PER_PLAYER as usize] =
        [0; 2 * MEEPLES_PER_PLAYER as usize];
    let mut n_seen = 0;
    for (p, tile) in state.placed_tiles().iter().enumerate() {
        let Some((segment, _)) = tile.meeple else {
            continue;
        };
        let root = features.find(GameState::node_of(p, segment as usize));
        if seen[..n_seen].contains(&root) {
            continue;
        }
        seen[n_seen] = root;
        n_seen += 1;
        let meeples = features.meeples(root);
        let top = meeples[0].max(meeples[1]);
        let value = state.end_value(root);
        for player in 0..2 {
            if meeples[player] != top {
                continue;
            }
            match features.kind(root) {
                FeatureKind::City => cities[player] += value,
                FeatureKind::Field => {
                    incomplete[player] += value;
                    poor_fields[player] += i32::from(value < 3 * 3);
                }
                FeatureKind::Road | FeatureKind::Monastery => incomplete[player] += value,
            }
        }
    }
    let d = |a: [i32; 2]| f64::from(a[me] - a[1 - me]);
    let supply = [i32::from(state.supply(0)), i32::from(state.supply(1))];
    100.0 * d(state.scores()) + 10.0 * d(supply) + 10.0 * d(incomplete) + 12.5 * d(cities)
        - 40.0 * d(poor_fields)
}

/// A true bound on a player's virtual score, hence on the score difference: every road tile
/// counts once per road segment, every city segment and pennant at most twice, each monastery
/// 9, and a field scores 3 per completed city it touches, which needs a field segment touching
/// that city's segment on some tile. Summed over the whole box.
pub fn score_difference_bound() -> f64 {
    static BOUND: OnceLock<f64> = OnceLock::new();
    *BOUND.get_or_init(|| {
        let mut total = 0u32;
        for kind in TileKind::ALL {
            let mut per_tile = 0u32;
            for s in &kind.def().segments {
                per_tile += match s.kind {
                    FeatureKind::Road => 1,
                    FeatureKind::City => 2 * (1 + u32::from(s.pennants)),
                    FeatureKind::Monastery => 9,
                    FeatureKind::Field => 3 * s.touches_cities.count_ones(),
                };
            }
            total += per_tile * u32::from(kind.count_in_box());
        }
        f64::from(total)
    })
}

/// The ordering class of a move of tile `kind`: 0 meeple on a city, 1 on a monastery, 2 on a
/// road, 3 no meeple, 4 on a field.
#[inline]
pub fn move_class(kind: TileKind, mv: Move) -> u8 {
    match mv.meeple {
        None => 3,
        Some(s) => match kind.def().segments[s as usize].kind {
            FeatureKind::City => 0,
            FeatureKind::Monastery => 1,
            FeatureKind::Road => 2,
            FeatureKind::Field => 4,
        },
    }
}

/// Writes `moves` (of tile `kind`) into `out` ordered by `move_class`, keeping the given order
/// within a class. One filtering pass per class present instead of a sort: no allocation once
/// `out` has grown.
pub fn order_moves(kind: TileKind, moves: &[Move], out: &mut Vec<Move>) {
    out.clear();
    let mut present = 0u8;
    for &mv in moves {
        present |= 1 << move_class(kind, mv);
    }
    for class in 0..5u8 {
        if present & (1 << class) != 0 {
            out.extend(moves.iter().filter(|&&mv| move_class(kind, mv) == class));
        }
    }
}
