//! The data of a game viewer page: the board after every turn, the scores, the move and the
//! formula of each turn.
//!
//! The board is drawn by the same routine as `plot board` (`board::draw_tile`), but once per
//! distinct drawing rather than once per turn: a tile type in a rotation, bare or with one
//! player's meeple on one segment, is rendered by plotters' SVG backend into a fragment at the
//! origin, and the page places fragments by translation. A game then needs only the list of
//! its tiles and of the spans of turns in which each meeple stood, and every game of a report
//! shares one file of fragments (`tiles.js`).

use crate::analysis::board::{draw_tile, draw_tile_letter, draw_tile_meeple, states_by_turn, TILE};
use crate::analysis::{font, PlotError};
use crate::formula::typeset::pretty;
use crate::formula::Formula;
use crate::game::{FeatureKind, GameState, PlacedTile};
use crate::league::LeagueGame;
use plotters::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// Blank space around the board, in pixels.
const PADDING: i32 = 12;

/// Every tile drawing the games of one report use, by key.
#[derive(Default)]
pub struct TileDrawings {
    drawings: BTreeMap<String, String>,
}

impl TileDrawings {
    /// The key of `tile`'s drawing (its position aside), rendering it the first time.
    pub fn key_of(&mut self, tile: &PlacedTile) -> Result<String, PlotError> {
        let key = match tile.meeple {
            None => format!("{}{}", tile.kind.letter(), tile.rotation),
            Some((segment, player)) => format!(
                "{}{}-s{segment}p{player}",
                tile.kind.letter(),
                tile.rotation
            ),
        };
        if !self.drawings.contains_key(&key) {
            // A bare tile is its ground and letter; a meeple is a small overlay drawn over
            // every tile, so no neighbour covers a meeple that overhangs its tile.
            let drawing = match tile.meeple {
                None => tile_elements(tile, Layer::Tile)?,
                Some(_) => tile_elements(tile, Layer::Meeple)?,
            };
            let placed = format!(
                "<g transform=\"translate(-{OVERHANG},-{OVERHANG})\">{}</g>",
                drawing.trim()
            );
            self.drawings.insert(key.clone(), placed);
        }
        Ok(key)
    }

    /// The drawings as a script that defines `TILE_DRAWINGS` (a page loads it with
    /// `<script src>`, which works from `file://` where reading a data file would not).
    pub fn to_script(&self) -> String {
        format!(
            "// Tile drawings (SVG fragments at the origin, {TILE}px a side) by key: tile letter and rotation for a bare tile; with -sSEGMENTpPLAYER, what a meeple adds to it.\nwindow.TILE_DRAWINGS = {};\n",
            script_json(&self.drawings)
        )
    }
}

/// JSON that can stand inside a `<script>` element: `<` is written as `\u003c`, so no string
/// in it can close the element or open a comment.
pub fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .expect("viewer data serialises")
        .replace('<', "\\u003c")
}

/// Room around a tile's drawing: plotters clips to the drawing area, and a meeple may stand
/// over the tile's edge.
const OVERHANG: i32 = TILE / 4;

/// What one drawing of `TILE_DRAWINGS` shows.
#[derive(Clone, Copy)]
enum Layer {
    /// The tile's ground and its letter, as `plot board` draws them.
    Tile,
    /// The meeple on the tile, alone.
    Meeple,
}

/// One layer of a tile drawn by `plot board`'s routines with the tile's north-west corner at
/// (`OVERHANG`, `OVERHANG`), as the SVG elements without their `<svg>` wrapper.
fn tile_elements(tile: &PlacedTile, layer: Layer) -> Result<String, PlotError> {
    font::register()?;
    let at_origin = PlacedTile {
        x: 0,
        y: 0,
        ..*tile
    };
    let side = (TILE + 2 * OVERHANG) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (side, side)).into_drawing_area();
        let origin = (OVERHANG, OVERHANG);
        match layer {
            Layer::Tile => draw_tile(&root, &at_origin, origin)
                .and_then(|_| draw_tile_letter(&root, &at_origin, origin)),
            Layer::Meeple => draw_tile_meeple(&root, &at_origin, origin),
        }
        .and_then(|_| root.present())
        .map_err(|e| PlotError::Data(format!("cannot draw tile {}: {e}", tile.kind)))?;
    }
    let start = svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|j| i + j + 1));
    let end = svg.rfind("</svg>");
    match (start, end) {
        (Some(start), Some(end)) if start <= end => Ok(svg[start..end].to_string()),
        _ => Err(PlotError::Data(format!(
            "the SVG backend wrote no <svg> element for tile {}",
            tile.kind
        ))),
    }
}

/// A tile of the game: where it lies (in pixels from the board's corner) and which drawing
/// shows it bare. Tiles are listed in the order they were laid: tile `t` was laid at turn `t`
/// (tile 0 is the start tile).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TileView {
    pub left: i32,
    pub top: i32,
    pub drawing: String,
}

/// A meeple that stood on tile `tile` from the board after turn `from` up to, not including,
/// the board after turn `until`; `drawing` is drawn over the bare tile to show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeepleSpan {
    pub tile: usize,
    pub from: usize,
    pub until: usize,
    pub drawing: String,
}

/// The meeple a move placed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeepleView {
    /// Segment index in the tile's definition, as `games.jsonl` records it.
    pub segment: u8,
    pub feature: &'static str,
}

/// The move of a turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveView {
    /// Seat of the mover: 0 (player 1) or 1 (player 2).
    pub player: usize,
    pub tile: char,
    pub x: i8,
    pub y: i8,
    /// Quarter turns clockwise.
    pub rotation: u8,
    pub meeple: Option<MeepleView>,
}

/// The ES decision behind a move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormulaView {
    /// The formula as recorded, `None` when the ES did not run (UCT selected).
    pub formula: Option<String>,
    /// The same typeset for reading.
    pub typeset: Option<String>,
    pub canonical: Option<String>,
    pub fitness: Option<f64>,
}

/// The board after turn `turn` (0: the start tile alone).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnView {
    pub turn: usize,
    /// The move of this turn; `None` for turn 0.
    #[serde(rename = "move")]
    pub mv: Option<MoveView>,
    pub scores: [i32; 2],
    /// What each player would have if the game ended now.
    pub virtual_scores: [i32; 2],
    /// Meeples each player has left.
    pub supply: [u8; 2],
    /// Whether end-of-game scoring is done (the last turn).
    pub finished: bool,
    /// Set when the mover is an ES controller.
    pub es: Option<FormulaView>,
}

/// Everything a viewer page shows of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    /// K: the game's number in schedule order.
    pub number: usize,
    /// The game's identity, as `0 v 1 #3`.
    pub id: String,
    /// Controllers in seat order.
    pub names: [String; 2],
    /// A string: a 64-bit seed does not survive JavaScript's numbers.
    pub tile_seed: String,
    pub tile_side: i32,
    pub width: i32,
    pub height: i32,
    pub tiles: Vec<TileView>,
    pub meeples: Vec<MeepleSpan>,
    pub turns: Vec<TurnView>,
}

fn feature_name(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::Road => "road",
        FeatureKind::City => "city",
        FeatureKind::Monastery => "monastery",
        FeatureKind::Field => "field",
    }
}

fn es_view(game: &LeagueGame, player: usize, decision_turn: usize) -> Option<FormulaView> {
    let decision = game.es[player].iter().find(|d| d.turn == decision_turn)?;
    let typeset = decision
        .formula
        .as_deref()
        .and_then(|f| f.parse::<Formula>().ok())
        .map(|f| pretty(&f));
    Some(FormulaView {
        formula: decision.formula.clone(),
        typeset,
        canonical: decision.canonical.clone(),
        fitness: decision.fitness.filter(|f| f.is_finite()),
    })
}

/// The viewer's data of `game`, number `number` in schedule order. Tile drawings go into
/// `drawings`, shared with the other games of the report.
pub fn game_view(
    game: &LeagueGame,
    number: usize,
    drawings: &mut TileDrawings,
) -> Result<GameView, PlotError> {
    let states = states_by_turn(&game.game)
        .map_err(|e| PlotError::Data(format!("game {number} ({}): {e}", game.id())))?;
    let last = states.len() - 1;
    let final_board = states[last].placed_tiles();
    let (x0, x1, y0, y1) = final_board.iter().fold(
        (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
        |(x0, x1, y0, y1), t| {
            let (x, y) = (t.x as i32, t.y as i32);
            (x0.min(x), x1.max(x), y0.min(y), y1.max(y))
        },
    );
    let mut tiles = Vec::with_capacity(final_board.len());
    for t in final_board {
        tiles.push(TileView {
            left: PADDING + (t.x as i32 - x0) * TILE,
            top: PADDING + (t.y as i32 - y0) * TILE,
            drawing: drawings.key_of(&PlacedTile { meeple: None, ..*t })?,
        });
    }
    let meeples = meeple_spans(&states, drawings)?;
    let turns = states
        .iter()
        .enumerate()
        .map(|(turn, state)| turn_view(game, &states, turn, state, turn == last))
        .collect();
    Ok(GameView {
        number,
        id: game.id().to_string(),
        names: game.names.clone(),
        tile_seed: game.game.tile_seed.to_string(),
        tile_side: TILE,
        width: (x1 - x0 + 1) * TILE + 2 * PADDING,
        height: (y1 - y0 + 1) * TILE + 2 * PADDING,
        tiles,
        meeples,
        turns,
    })
}

fn turn_view(
    game: &LeagueGame,
    states: &[GameState],
    turn: usize,
    state: &GameState,
    finished: bool,
) -> TurnView {
    let mv = (turn > 0).then(|| {
        let player = states[turn - 1].to_move();
        let placed = state.placed_tiles()[turn];
        let meeple = game.game.moves[turn - 1].meeple.map(|segment| MeepleView {
            segment,
            feature: placed
                .kind
                .def()
                .segments
                .get(segment as usize)
                .map_or("unknown", |s| feature_name(s.kind)),
        });
        MoveView {
            player,
            tile: placed.kind.letter(),
            x: placed.x,
            y: placed.y,
            rotation: placed.rotation,
            meeple,
        }
    });
    let es = mv.as_ref().and_then(|m| es_view(game, m.player, turn - 1));
    TurnView {
        turn,
        mv,
        scores: state.scores(),
        virtual_scores: state.virtual_scores(),
        supply: [state.supply(0), state.supply(1)],
        finished,
        es,
    }
}

/// Each meeple with the turns it stood: a tile's meeple appears when the tile is laid and
/// leaves when its feature is scored, so one pass over the boards finds every span.
fn meeple_spans(
    states: &[GameState],
    drawings: &mut TileDrawings,
) -> Result<Vec<MeepleSpan>, PlotError> {
    let mut spans: Vec<MeepleSpan> = Vec::new();
    let mut open: BTreeMap<usize, usize> = BTreeMap::new();
    for (turn, state) in states.iter().enumerate() {
        let tiles = state.placed_tiles();
        for (tile, placed) in tiles.iter().enumerate() {
            let standing = placed.meeple.is_some();
            match (open.get(&tile).copied(), standing) {
                (None, true) => {
                    open.insert(tile, spans.len());
                    spans.push(MeepleSpan {
                        tile,
                        from: turn,
                        until: states.len(),
                        drawing: drawings.key_of(placed)?,
                    });
                }
                (Some(span), false) => {
                    spans[span].until = turn;
                    open.remove(&tile);
                }
                _ => {}
            }
        }
    }
    Ok(spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tiles::TileKind;

    #[test]
    fn a_meeple_overlay_draws_the_meeple_and_a_bare_tile_its_letter() {
        let mut drawings = TileDrawings::default();
        let bare = PlacedTile {
            kind: TileKind::from_letter('E').unwrap(),
            x: 3,
            y: -2,
            rotation: 1,
            meeple: None,
        };
        let with_meeple = PlacedTile {
            meeple: Some((0, 1)),
            ..bare
        };
        let bare_key = drawings.key_of(&bare).unwrap();
        let meeple_key = drawings.key_of(&with_meeple).unwrap();
        assert_ne!(bare_key, meeple_key);
        let bare_svg = &drawings.drawings[&bare_key];
        let meeple_svg = &drawings.drawings[&meeple_key];
        assert!(
            bare_svg.contains("<text") && bare_svg.contains("\nE\n"),
            "the letter is drawn: {bare_svg}"
        );
        assert!(
            meeple_svg.contains("<polygon") || meeple_svg.contains("<path"),
            "the overlay draws a shape: {meeple_svg}"
        );
        assert!(
            !meeple_svg.contains("<text"),
            "the overlay holds the meeple alone"
        );
    }
}
