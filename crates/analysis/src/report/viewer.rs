//! The data of a game viewer page: the board after every turn, the scores, the move and the
//! formula of each turn.
//!
//! The board is drawn by the same routine as `plot board` (`board::draw_tile`), but once per
//! distinct drawing rather than once per turn: a tile type in a rotation, bare or with one
//! player's meeple on one segment, is rendered by plotters' SVG backend into a fragment at the
//! origin, and the page places fragments by translation. A game then needs only the list of
//! its tiles and of the spans of turns in which each meeple stood, and every game of a report
//! shares one file of fragments (`tiles.js`).

use crate::plots::board::{draw_tile, draw_tile_letter, draw_tile_meeple, states_by_turn, TILE};
use crate::plots::{font, PlotError};
use evomcts_formula::typeset::pretty;
use evomcts_formula::Formula;
use evomcts_games::carcassonne::{
    replay_observed, FeatureKind, GameRecord, GameState, Move, PlacedTile, ReplayStep, Reveal,
};
use evomcts_league::LeagueGame;
use evomcts_search::SearchSummary;
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
    /// The candidates of the last generation with their fitness, in birth order, when the
    /// league recorded them (`es_detail: Full`).
    pub last_generation: Option<GenerationView>,
}

/// The candidates of one ES generation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationView {
    /// 1-based.
    pub generation: usize,
    pub candidates: Vec<CandidateView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CandidateView {
    pub formula: String,
    pub typeset: Option<String>,
    pub fitness: Option<f64>,
}

/// A root child of a recorded MCTS decision, placed on the board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChildView {
    /// The move as `Move`'s display writes it.
    pub label: String,
    /// Where its square lies, in pixels from the board's corner.
    pub left: i32,
    pub top: i32,
    pub visits: u32,
    /// Its visits over the decision's simulations.
    pub share: Option<f64>,
    pub q: f64,
    pub heuristic: Option<f64>,
    pub prior: Option<f64>,
    /// The move features `G`, `O`, `M`, `F`, `R`, `L`, `T`, when the search computed them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<evomcts_games::MoveFeatures>,
    /// The move the record plays.
    pub played: bool,
}

/// What the league recorded of the search behind a move (`search_detail`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchView {
    /// `mcts` or `star`.
    pub kind: &'static str,
    pub simulations: u64,
    pub es_simulations: u64,
    pub legal_moves: usize,
    /// Most visited first (MCTS).
    pub children: Vec<ChildView>,
    /// The searched value and the nodes visited (Star).
    pub value: Option<f64>,
    pub nodes: Option<u64>,
}

/// A tile revealed that fitted nowhere.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NotPlacedView {
    pub tile: char,
    /// `discarded` (out of the game) or `returned` (back under the stack).
    pub fate: &'static str,
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
    /// The search behind the move, when the league recorded it.
    pub search: Option<SearchView>,
    /// Tiles revealed before this turn's move that fitted nowhere, in order.
    pub not_placed: Vec<NotPlacedView>,
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
    /// Tiles revealed after the last move that fitted nowhere (the stack then ended).
    pub not_placed_at_end: Vec<NotPlacedView>,
    /// Per seat, the command that analyses a turn of this game with the seat's controller,
    /// but for the turn's number, which the viewer appends; `None` without a run folder.
    pub analyse_command: Option<[String; 2]>,
}

fn feature_name(kind: FeatureKind) -> &'static str {
    match kind {
        FeatureKind::Road => "road",
        FeatureKind::City => "city",
        FeatureKind::Monastery => "monastery",
        FeatureKind::Field => "field",
    }
}

fn typeset(formula: &str) -> Option<String> {
    formula.parse::<Formula>().ok().map(|f| pretty(&f))
}

fn es_view(game: &LeagueGame, player: usize, decision_turn: usize) -> Option<FormulaView> {
    let decision = game.es[player].iter().find(|d| d.turn == decision_turn)?;
    let last_generation = decision
        .full
        .as_ref()
        .and_then(|full| full.generations.last())
        .map(|g| GenerationView {
            generation: g.generation,
            candidates: g
                .candidates
                .iter()
                .map(|c| CandidateView {
                    formula: c.formula.clone(),
                    typeset: typeset(&c.formula),
                    fitness: Some(c.fitness).filter(|f| f.is_finite()),
                })
                .collect(),
        });
    Some(FormulaView {
        formula: decision.formula.clone(),
        typeset: decision.formula.as_deref().and_then(typeset),
        canonical: decision.canonical.clone(),
        fitness: decision.fitness.filter(|f| f.is_finite()),
        last_generation,
    })
}

/// Where the board's squares lie: the north-west square of the box around the final board and
/// every square a recorded root child names.
#[derive(Clone, Copy)]
struct Grid {
    x0: i32,
    y0: i32,
}

impl Grid {
    fn left(&self, x: i8) -> i32 {
        PADDING + (x as i32 - self.x0) * TILE
    }

    fn top(&self, y: i8) -> i32 {
        PADDING + (y as i32 - self.y0) * TILE
    }
}

fn search_view(
    game: &LeagueGame,
    record: &GameRecord,
    player: usize,
    decision_turn: usize,
    grid: Grid,
) -> Option<SearchView> {
    let decision = game.search[player]
        .iter()
        .find(|d| d.turn == decision_turn)?;
    let played = record.moves.get(decision_turn).copied();
    Some(match &decision.search {
        SearchSummary::Mcts(root) => SearchView {
            kind: "mcts",
            simulations: root.simulations,
            es_simulations: root.es_simulations,
            legal_moves: root.legal_moves,
            children: root
                .children
                .iter()
                .map(|c| ChildView {
                    label: c.mv.to_string(),
                    left: grid.left(c.mv.x),
                    top: grid.top(c.mv.y),
                    visits: c.visits,
                    share: (root.simulations > 0)
                        .then(|| f64::from(c.visits) / root.simulations as f64),
                    q: c.q,
                    heuristic: c.heuristic,
                    prior: c.prior,
                    features: c.features,
                    played: Some(c.mv) == played,
                })
                .collect(),
            value: None,
            nodes: None,
        },
        SearchSummary::Star { value, nodes } => SearchView {
            kind: "star",
            simulations: 0,
            es_simulations: 0,
            legal_moves: 0,
            children: Vec::new(),
            value: *value,
            nodes: Some(*nodes),
        },
    })
}

/// The squares of every recorded root child's move.
fn recorded_moves(game: &LeagueGame) -> impl Iterator<Item = Move> + '_ {
    game.search
        .iter()
        .flatten()
        .filter_map(|d| match &d.search {
            SearchSummary::Mcts(root) => Some(root.children.iter().map(|c| c.mv)),
            SearchSummary::Star { .. } => None,
        })
        .flatten()
}

/// Per turn (from 0, the start tile alone), the tiles revealed before its move that fitted
/// nowhere; one entry more holds those revealed after the last move.
fn not_placed_by_turn(record: &GameRecord) -> Vec<Vec<NotPlacedView>> {
    let mut out = vec![Vec::new(), Vec::new()];
    // The record replayed already when the boards were built, so this pass cannot fail.
    let _ = replay_observed(record, |_, step| match step {
        ReplayStep::NotPlaced { tile, reveal } => {
            out.last_mut().expect("never empty").push(NotPlacedView {
                tile: tile.letter(),
                fate: match reveal {
                    Reveal::ReturnedToBottom => "returned",
                    Reveal::Discarded | Reveal::Ready => "discarded",
                },
            })
        }
        ReplayStep::Moved { .. } => out.push(Vec::new()),
        ReplayStep::ToMove { .. } => {}
    });
    out
}

/// The viewer's data of `game`, number `number` in schedule order. Tile drawings go into
/// `drawings`, shared with the other games of the report. With `run`, the folder the game was
/// read from, the viewer shows the `evomcts analyse` command of the turn on display.
pub fn game_view(
    game: &LeagueGame,
    number: usize,
    drawings: &mut TileDrawings,
    run: Option<&std::path::Path>,
) -> Result<GameView, PlotError> {
    let record = game.game.carcassonne().ok_or_else(|| {
        PlotError::Data(format!(
            "game {number} ({}) is a game of {}: the board viewer shows Carcassonne games",
            game.id(),
            game.game.label()
        ))
    })?;
    let states = states_by_turn(record)
        .map_err(|e| PlotError::Data(format!("game {number} ({}): {e}", game.id())))?;
    let last = states.len() - 1;
    let final_board = states[last].placed_tiles();
    let squares = final_board
        .iter()
        .map(|t| (t.x, t.y))
        .chain(recorded_moves(game).map(|mv| (mv.x, mv.y)));
    let (x0, x1, y0, y1) = squares.fold(
        (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
        |(x0, x1, y0, y1), (x, y)| {
            let (x, y) = (x as i32, y as i32);
            (x0.min(x), x1.max(x), y0.min(y), y1.max(y))
        },
    );
    let grid = Grid { x0, y0 };
    let mut tiles = Vec::with_capacity(final_board.len());
    for t in final_board {
        tiles.push(TileView {
            left: grid.left(t.x),
            top: grid.top(t.y),
            drawing: drawings.key_of(&PlacedTile { meeple: None, ..*t })?,
        });
    }
    let meeples = meeple_spans(&states, drawings)?;
    let mut not_placed = not_placed_by_turn(record);
    let not_placed_at_end = not_placed.pop().unwrap_or_default();
    let turns = states
        .iter()
        .enumerate()
        .map(|(turn, state)| {
            let mut view = turn_view(game, record, &states, turn, state, turn == last, grid);
            view.not_placed = not_placed.get(turn).cloned().unwrap_or_default();
            view
        })
        .collect();
    let analyse_command = run.map(|run| {
        game.names.clone().map(|name| {
            format!(
                "evomcts analyse {} --game {number} --controller {} --turn ",
                evomcts_records::escape::shell(&run.display().to_string()),
                evomcts_records::escape::shell(&name)
            )
        })
    });
    Ok(GameView {
        number,
        id: game.id().to_string(),
        names: game.names.clone(),
        tile_seed: record.tile_seed.to_string(),
        tile_side: TILE,
        width: (x1 - x0 + 1) * TILE + 2 * PADDING,
        height: (y1 - y0 + 1) * TILE + 2 * PADDING,
        tiles,
        meeples,
        turns,
        not_placed_at_end,
        analyse_command,
    })
}

fn turn_view(
    game: &LeagueGame,
    record: &GameRecord,
    states: &[GameState],
    turn: usize,
    state: &GameState,
    finished: bool,
    grid: Grid,
) -> TurnView {
    let mv = (turn > 0).then(|| {
        let player = states[turn - 1].to_move();
        let placed = state.placed_tiles()[turn];
        let meeple = record.moves[turn - 1].meeple.map(|segment| MeepleView {
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
    let search = mv
        .as_ref()
        .and_then(|m| search_view(game, record, m.player, turn - 1, grid));
    TurnView {
        turn,
        mv,
        scores: state.scores(),
        virtual_scores: state.virtual_scores(),
        supply: [state.supply(0), state.supply(1)],
        finished,
        es,
        search,
        not_placed: Vec::new(),
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
    use evomcts_games::carcassonne::tiles::TileKind;

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
