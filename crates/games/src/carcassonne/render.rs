//! A text picture of the board: each tile is a 5×3 block showing its edges, its type letter
//! and the meeple standing on it.
//!
//! ```text
//! .###.   city edge on the north
//! =D1c=   road edges west and east; tile D; player 1's meeple on the city
//! .....   field edge on the south
//! ```

use super::state::GameState;
use super::tiles::{tables, Edge, FeatureKind};
use std::fmt::Write;

fn edge_chars(edge: Edge, vertical: bool) -> (char, [char; 3]) {
    match edge {
        Edge::City => ('#', ['#', '#', '#']),
        Edge::Road if vertical => ('|', ['.', '|', '.']),
        Edge::Road => ('=', ['.', '=', '.']),
        Edge::Field => ('.', ['.', '.', '.']),
    }
}

/// The board as text, followed by the scores and supplies.
pub fn render_board(state: &GameState) -> String {
    let tiles = state.placed_tiles();
    let (min_x, max_x) = tiles
        .iter()
        .fold((i8::MAX, i8::MIN), |(a, b), t| (a.min(t.x), b.max(t.x)));
    let (min_y, max_y) = tiles
        .iter()
        .fold((i8::MAX, i8::MIN), |(a, b), t| (a.min(t.y), b.max(t.y)));
    let width = (max_x as i32 - min_x as i32 + 1) as usize * 5;
    let height = (max_y as i32 - min_y as i32 + 1) as usize * 3;
    let mut canvas = vec![vec![' '; width]; height];
    for t in tiles {
        let rot = &tables().rotated[t.kind.index()][t.rotation as usize];
        let col = (t.x as i32 - min_x as i32) as usize * 5;
        let row = (t.y as i32 - min_y as i32) as usize * 3;
        let (_, north) = edge_chars(rot.edge(0), true);
        let (_, south) = edge_chars(rot.edge(2), true);
        let (west, _) = edge_chars(rot.edge(3), false);
        let (east, _) = edge_chars(rot.edge(1), false);
        let (player, on) = match t.meeple {
            Some((seg, player)) => {
                let kind = t.kind.def().segments[seg as usize].kind;
                let c = match kind {
                    FeatureKind::City => 'c',
                    FeatureKind::Road => 'r',
                    FeatureKind::Monastery => 'm',
                    FeatureKind::Field => 'f',
                };
                (char::from(b'1' + player), c)
            }
            None => (' ', ' '),
        };
        let top = ['.', north[0], north[1], north[2], '.'];
        let mid = [west, t.kind.letter(), player, on, east];
        let bottom = ['.', south[0], south[1], south[2], '.'];
        canvas[row][col..col + 5].copy_from_slice(&top);
        canvas[row + 1][col..col + 5].copy_from_slice(&mid);
        canvas[row + 2][col..col + 5].copy_from_slice(&bottom);
    }
    let mut out = String::new();
    for line in canvas {
        let s: String = line.into_iter().collect();
        let _ = writeln!(out, "{}", s.trim_end());
    }
    let scores = state.scores();
    let virt = state.virtual_scores();
    let _ = writeln!(
        out,
        "legend: # city, = | road, . field; letter = tile type; 1c = player 1's meeple on a city (r road, m monastery, f field)"
    );
    for p in 0..2 {
        let _ = writeln!(
            out,
            "player {}: score {} (virtual {}), meeples in supply {}",
            p + 1,
            scores[p],
            virt[p],
            state.supply(p)
        );
    }
    out
}
