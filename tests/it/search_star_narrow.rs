//! What the papers' bounds L = −100, U = 100 do. They are not true bounds of the score
//! difference (the true bound, `score_difference_bound`, is several hundred points), so the
//! pruning is no longer guaranteed to be exact. These tests prove the part that is guaranteed —
//! when every leaf of the tree lies in [L, U], the bounds are true for that tree and the result
//! must equal expectimax — and measure how often results differ otherwise (run with
//! `--nocapture` to see the figures).

use evomcts::games::carcassonne::evaluation::HEYDEN;
use evomcts::games::carcassonne::{draw_next, sample_positions, GameState, Rules, TileStack};
use evomcts::games::{Controller, RandomController};
use evomcts::search::star::{
    expectimax_with_leaf_range, search, Evaluation, StarController, StarSettings,
};

struct Tally {
    in_range: usize,
    out_of_range: usize,
    value_differs: [usize; 3],
    move_differs: [usize; 3],
    nodes: [u64; 3],
    plain_nodes: u64,
    /// The largest |leaf evaluation| met.
    widest_leaf: f64,
}

/// Star1/2/2.5 at depth 2 with bounds ±`bound` against expectimax on `positions`.
fn tally(positions: &[GameState], bound: f64, evaluation: Evaluation) -> Tally {
    let mut t = Tally {
        in_range: 0,
        out_of_range: 0,
        value_differs: [0; 3],
        move_differs: [0; 3],
        nodes: [0; 3],
        plain_nodes: 0,
        widest_leaf: 0.0,
    };
    for (p, state) in positions.iter().enumerate() {
        let (plain, [least, greatest]) = expectimax_with_leaf_range(state, 2, evaluation).unwrap();
        t.plain_nodes += plain.nodes;
        t.widest_leaf = t.widest_leaf.max(-least).max(greatest);
        let in_range = -bound <= least && greatest <= bound;
        if in_range {
            t.in_range += 1;
        } else {
            t.out_of_range += 1;
        }
        for (v, probing) in [0, 1, 4].into_iter().enumerate() {
            let settings = StarSettings {
                lower: -bound,
                upper: bound,
                probing,
                evaluation,
                ..StarSettings::star1()
            };
            let star = search(state, &settings).unwrap();
            t.nodes[v] += star.nodes;
            if in_range {
                // L and U bound every leaf of this tree, so they are true bounds here.
                assert_eq!(
                    star.value, plain.value,
                    "position {p}, f = {probing}, ±{bound}"
                );
                assert_eq!(
                    star.best, plain.best,
                    "position {p}, f = {probing}, ±{bound}"
                );
            }
            t.value_differs[v] += usize::from(star.value != plain.value);
            t.move_differs[v] += usize::from(star.best != plain.best);
        }
    }
    eprintln!(
        "{evaluation:?} ±{bound}: {} positions with every leaf in range, {} not; \
         root value differs (Star1, Star2, Star2.5) {:?}, move differs {:?}; \
         nodes {:?} vs expectimax {}; widest leaf ±{}",
        t.in_range,
        t.out_of_range,
        t.value_differs,
        t.move_differs,
        t.nodes,
        t.plain_nodes,
        t.widest_leaf
    );
    t
}

/// Late positions of games between a greedy Star (player 0) and the random player, where the
/// score difference grows large, one position per game after a turn in `turns`.
fn lopsided_positions(count: u64, seed: u64, turns: std::ops::Range<usize>) -> Vec<GameState> {
    let greedy = StarSettings {
        depth: 1,
        ..StarSettings::star1()
    };
    let mut out = Vec::new();
    for game in 0..count {
        let mut star = StarController::new(&greedy, 0).unwrap();
        let mut random = RandomController::new(seed + game);
        let stop = turns.start + (game as usize * 7) % turns.len();
        let mut state = GameState::new(Rules::default());
        let mut stack = TileStack::shuffled(seed + game);
        while draw_next(&mut state, &mut stack).unwrap() {
            if state.turns_played() >= stop {
                out.push(state);
                break;
            }
            let mv = if state.to_move() == 0 {
                star.choose_move(&state)
            } else {
                random.choose_move(&state)
            };
            state.apply(mv).unwrap();
        }
    }
    out
}

#[test]
fn papers_bounds_in_lopsided_games() {
    let positions = lopsided_positions(16, 104, 50..70);
    let t = tally(&positions, 100.0, Evaluation::ScoreDifference);
    assert!(t.in_range > 0, "no position to prove anything on");
    // Half the papers' bounds, to see what happens once they are exceeded.
    tally(&positions, 50.0, Evaluation::ScoreDifference);
}

#[test]
fn papers_bounds_on_the_score_difference() {
    // Late positions, where score differences can exceed 100 and the bounds can be wrong.
    let mut positions = sample_positions(12, 101, 10..45);
    positions.extend(sample_positions(12, 102, 45..68));
    let t = tally(&positions, 100.0, Evaluation::ScoreDifference);
    assert!(t.in_range > 0, "no position to prove anything on");
    // Narrow bounds can only cut more than the true ones did not: never more nodes than
    // expectimax.
    assert!(t.nodes.iter().all(|&n| n <= t.plain_nodes));
}

#[test]
fn bounds_far_too_narrow() {
    // ±10 on the score difference, and ±100 on Heyden's evaluation (a hundred times the score
    // scale): the bounds are wrong in most trees.
    let positions = sample_positions(12, 103, 10..60);
    tally(&positions, 10.0, Evaluation::ScoreDifference);
    tally(&positions[..6], 100.0, HEYDEN);
}
