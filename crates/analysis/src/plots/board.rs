//! A picture of a game's board: every tile drawn from its features — fields as the ground,
//! cities with their pennants, roads, monasteries — and the meeples standing on it in their
//! players' colours, with the scores above.
//!
//! Shapes come from the tile tables, not from images: a city segment is drawn from the edges
//! it touches (a cap on one edge, a corner, a band across, all but one edge, or the whole
//! tile), a road from the edge centres it joins, and a meeple at a point inside its segment.
//! A farmer lies on its side, as in the board game, at the point of its field farthest from
//! the tile's cities, roads, monastery and border, found by filling the field from its edge
//! halves on a grid, so it never sits on a city or a road. So every tile type and rotation is
//! drawn correctly by construction, and the picture needs no asset besides the font.

use super::chart::{self, DrawResult, Figure};
use super::{PlotError, WrittenFigure};
use evomcts_games::carcassonne::tiles::tables;
use evomcts_games::carcassonne::{
    replay_observed, FeatureKind, GameRecord, GameState, PlacedTile, ReplayStep,
};
use evomcts_league::LeagueGame;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

mod geometry;
use geometry::*;

/// Player colours: player 1 red, player 2 blue.
pub const PLAYER_COLOURS: [RGBColor; 2] = [RGBColor(220, 40, 40), RGBColor(40, 95, 225)];
const FIELD: RGBColor = RGBColor(128, 178, 84);
const FIELD_EDGE: RGBColor = RGBColor(86, 128, 52);
const CITY: RGBColor = RGBColor(204, 160, 100);
const CITY_EDGE: RGBColor = RGBColor(120, 78, 36);
const ROAD: RGBColor = RGBColor(246, 240, 222);
const ROAD_EDGE: RGBColor = RGBColor(96, 84, 70);
/// An ivory shield with a dark outline: unlike either player's colour and unlike the city.
pub const PENNANT: RGBColor = RGBColor(250, 246, 234);
const BACKGROUND: RGBColor = RGBColor(244, 241, 232);

/// Tile side in pixels.
pub(crate) const TILE: i32 = 84;
const MARGIN: i32 = 30;
const HEADER: i32 = 96;
const FOOTER: i32 = 40;

/// Captions of a board picture.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardLabels {
    pub title: String,
    /// Player names (seat order) for the score line.
    pub names: [String; 2],
    /// A square to outline (the tile just placed).
    pub highlight: Option<(i8, i8)>,
}

impl BoardLabels {
    /// "Turn T" and "Player 1/2", highlighting the last tile laid.
    pub fn default_for(state: &GameState) -> BoardLabels {
        let last = state
            .placed_tiles()
            .last()
            .filter(|_| state.turns_played() > 0);
        BoardLabels {
            title: format!("Turn {}", state.turns_played()),
            names: ["Player 1".into(), "Player 2".into()],
            highlight: last.map(|t| (t.x, t.y)),
        }
    }
}

/// A board as a figure.
pub struct BoardFigure<'a> {
    pub state: &'a GameState,
    pub labels: BoardLabels,
}

impl BoardFigure<'_> {
    fn bounds(&self) -> (i32, i32, i32, i32) {
        self.state.placed_tiles().iter().fold(
            (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
            |(x0, x1, y0, y1), t| {
                (
                    x0.min(t.x as i32),
                    x1.max(t.x as i32),
                    y0.min(t.y as i32),
                    y1.max(t.y as i32),
                )
            },
        )
    }
}

/// The pixel of the point `p` of the unit square of a tile whose north-west corner is at
/// `origin`.
fn tile_px(origin: (i32, i32), p: P) -> (i32, i32) {
    (
        origin.0 + (p.0 * TILE as f64).round() as i32,
        origin.1 + (p.1 * TILE as f64).round() as i32,
    )
}

/// Draws one tile (with its meeple) with its north-west corner at `origin`.
pub(crate) fn draw_tile<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &PlacedTile,
    origin: (i32, i32),
) -> DrawResult<DB> {
    let to_px = |p: P| tile_px(origin, p);
    let px = |pts: &[P]| pts.iter().map(|p| to_px(*p)).collect::<Vec<_>>();
    let def = t.kind.def();
    let rot = &tables().rotated[t.kind.index()][t.rotation as usize];
    root.draw(&Rectangle::new(
        [origin, (origin.0 + TILE, origin.1 + TILE)],
        FIELD.filled(),
    ))?;
    // Roads first, so cities and monasteries cover their ends.
    let one_sided_roads = def
        .segments
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            s.kind == FeatureKind::Road && ports_of(&rot.port_segment, *i).0.count_ones() == 1
        })
        .count();
    for (i, seg) in def.segments.iter().enumerate() {
        if seg.kind != FeatureKind::Road {
            continue;
        }
        let path = px(&road_path(ports_of(&rot.port_segment, i).0));
        root.draw(&PathElement::new(
            path.clone(),
            ROAD_EDGE.stroke_width((TILE as f64 * 0.15) as u32),
        ))?;
        root.draw(&PathElement::new(
            path,
            ROAD.stroke_width((TILE as f64 * 0.09) as u32),
        ))?;
    }
    if one_sided_roads >= 3 {
        let c = to_px(CENTRE);
        let r = (TILE as f64 * 0.1) as i32;
        root.draw(&Rectangle::new(
            [(c.0 - r, c.1 - r), (c.0 + r, c.1 + r)],
            RGBColor(150, 120, 100).filled(),
        ))?;
        root.draw(&Rectangle::new(
            [(c.0 - r, c.1 - r), (c.0 + r, c.1 + r)],
            ROAD_EDGE,
        ))?;
    }
    for (i, seg) in def.segments.iter().enumerate() {
        match seg.kind {
            FeatureKind::City => {
                let (sides, _) = ports_of(&rot.port_segment, i);
                let mut poly = px(&city_polygon(sides));
                root.draw(&Polygon::new(poly.clone(), CITY.filled()))?;
                poly.push(poly[0]);
                root.draw(&PathElement::new(poly, CITY_EDGE.stroke_width(2)))?;
                if seg.pennants > 0 {
                    // Beside where the city's meeple would stand.
                    let anchor = segment_anchor(seg, sides);
                    draw_pennant(root, &to_px, city_polygon(sides), anchor)?;
                }
            }
            FeatureKind::Monastery => {
                let body = px(&[(0.34, 0.42), (0.66, 0.42), (0.66, 0.74), (0.34, 0.74)]);
                let roof = px(&[(0.28, 0.44), (0.5, 0.22), (0.72, 0.44)]);
                root.draw(&Polygon::new(
                    body.clone(),
                    RGBColor(236, 226, 204).filled(),
                ))?;
                let mut outline = body;
                outline.push(outline[0]);
                root.draw(&PathElement::new(outline, ROAD_EDGE.stroke_width(2)))?;
                root.draw(&Polygon::new(roof.clone(), RGBColor(178, 52, 40).filled()))?;
                let mut outline = roof;
                outline.push(outline[0]);
                root.draw(&PathElement::new(outline, ROAD_EDGE.stroke_width(2)))?;
            }
            _ => {}
        }
    }
    root.draw(&Rectangle::new(
        [origin, (origin.0 + TILE, origin.1 + TILE)],
        FIELD_EDGE,
    ))?;
    Ok(())
}

/// Draws a tile's meeple and letter, after every tile's ground, so no neighbour covers them.
fn draw_marks<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &PlacedTile,
    origin: (i32, i32),
) -> DrawResult<DB> {
    draw_tile_meeple(root, t, origin)?;
    draw_tile_letter(root, t, origin)
}

/// Draws the meeple standing on a tile, if any (lying down on a field).
pub(crate) fn draw_tile_meeple<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &PlacedTile,
    origin: (i32, i32),
) -> DrawResult<DB> {
    let to_px = |p: P| tile_px(origin, p);
    let def = t.kind.def();
    let rot = &tables().rotated[t.kind.index()][t.rotation as usize];
    if let Some((seg, player)) = t.meeple {
        let at = tile_anchors(t.kind, &rot.port_segment)
            .get(seg as usize)
            .copied()
            .unwrap_or(CENTRE);
        let lying = def
            .segments
            .get(seg as usize)
            .is_some_and(|s| s.kind == FeatureKind::Field);
        draw_meeple(root, to_px(at), PLAYER_COLOURS[player as usize % 2], lying)?;
    }
    Ok(())
}

/// Draws a tile's letter on a small plate in its south-west corner; drawn after meeples and
/// pennants, so none hides it.
pub(crate) fn draw_tile_letter<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &PlacedTile,
    origin: (i32, i32),
) -> DrawResult<DB> {
    let corner = (origin.0 + 2, origin.1 + TILE - 15);
    root.draw(&Rectangle::new(
        [corner, (corner.0 + 11, corner.1 + 13)],
        RGBColor(236, 242, 226).mix(0.85).filled(),
    ))?;
    chart::draw_label(
        root,
        t.kind.letter().to_string(),
        (corner.0 + 6, corner.1 + 7),
        11.0,
        RGBColor(30, 50, 20),
        (HPos::Center, VPos::Center),
    )?;
    Ok(())
}

fn draw_pennant<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    to_px: &impl Fn(P) -> (i32, i32),
    city: Vec<P>,
    anchor: P,
) -> DrawResult<DB> {
    // Halfway from the meeple's spot to the nearest tile corner inside the city, so a
    // meeple and a pennant on one city do not overlap.
    let corners: Vec<P> = city
        .into_iter()
        .filter(|p| (p.0 == 0.0 || p.0 == 1.0) && (p.1 == 0.0 || p.1 == 1.0))
        .collect();
    let near = corners
        .into_iter()
        .min_by(|a, b| {
            let d = |p: &P| (p.0 - anchor.0).powi(2) + (p.1 - anchor.1).powi(2);
            d(a).total_cmp(&d(b))
        })
        .unwrap_or(corner(0));
    let c = lerp(anchor, near, 0.55);
    let s = 0.075;
    let shield: Vec<(i32, i32)> = [
        (c.0 - s, c.1 - s),
        (c.0 + s, c.1 - s),
        (c.0 + s, c.1 + 0.2 * s),
        (c.0, c.1 + 1.3 * s),
        (c.0 - s, c.1 + 0.2 * s),
    ]
    .into_iter()
    .map(to_px)
    .collect();
    root.draw(&Polygon::new(shield.clone(), PENNANT.filled()))?;
    let mut outline = shield;
    outline.push(outline[0]);
    root.draw(&PathElement::new(outline, CITY_EDGE.stroke_width(2)))
}

/// A meeple silhouette centred on `at`, in `colour` with a dark outline; a farmer (`lying`)
/// lies on its side, head to the left.
fn draw_meeple<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    colour: RGBColor,
    lying: bool,
) -> DrawResult<DB> {
    const SHAPE: [(f64, f64); 15] = [
        (-0.25, -1.0),
        (0.25, -1.0),
        (0.35, -0.6),
        (1.0, -0.35),
        (1.0, -0.1),
        (0.45, -0.1),
        (0.8, 1.0),
        (0.15, 1.0),
        (0.0, 0.55),
        (-0.15, 1.0),
        (-0.8, 1.0),
        (-0.45, -0.1),
        (-1.0, -0.1),
        (-1.0, -0.35),
        (-0.35, -0.6),
    ];
    let r = TILE as f64 * if lying { LYING_REACH } else { 0.12 };
    let pts: Vec<(i32, i32)> = SHAPE
        .iter()
        .map(|&(x, y)| if lying { (y, -x) } else { (x, y) })
        .map(|(x, y)| (at.0 + (x * r).round() as i32, at.1 + (y * r).round() as i32))
        .collect();
    root.draw(&Polygon::new(pts.clone(), colour.filled()))?;
    let mut outline = pts;
    outline.push(outline[0]);
    root.draw(&PathElement::new(outline, BLACK.stroke_width(2)))
}

impl Figure for BoardFigure<'_> {
    fn title(&self) -> String {
        self.labels.title.clone()
    }

    fn size(&self) -> (u32, u32) {
        let (x0, x1, y0, y1) = self.bounds();
        let w = (x1 - x0 + 1) * TILE + 2 * MARGIN;
        let h = (y1 - y0 + 1) * TILE + 2 * MARGIN + HEADER + FOOTER;
        // Wide enough for the title and the score lines (names can be long).
        let text = (chart::text_width(&self.labels.title, 22.0) + 40).max(
            chart::widest(
                self.labels
                    .names
                    .iter()
                    .map(|n| format!("{n}: 000 points (virtual 000), 7 meeples in supply")),
                16.0,
            ) + 70,
        );
        (w.max(720).max(text) as u32, h as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&BACKGROUND)?;
        let (x0, x1, y0, _) = self.bounds();
        let (w, _) = self.size();
        let board_w = (x1 - x0 + 1) * TILE;
        let left = (w as i32 - board_w) / 2;
        let top = HEADER + MARGIN;
        let s = self.state;
        root.draw(&Text::new(
            self.labels.title.clone(),
            (20, 14),
            chart::text(22.0).color(&BLACK),
        ))?;
        let (scores, virt) = (s.scores(), s.virtual_scores());
        for p in 0..2 {
            let y = 52 + p as i32 * 24;
            draw_meeple_small(root, (30, y), PLAYER_COLOURS[p])?;
            root.draw(&Text::new(
                format!(
                    "{}: {} points{}, {} in supply",
                    self.labels.names[p],
                    scores[p],
                    if s.is_finished() {
                        " (final)".to_string()
                    } else {
                        format!(" (virtual {})", virt[p])
                    },
                    match s.supply(p) {
                        1 => "1 meeple".to_string(),
                        m => format!("{m} meeples"),
                    }
                ),
                (46, y),
                chart::text(16.0)
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
        }
        for t in s.placed_tiles() {
            let origin = (
                left + (t.x as i32 - x0) * TILE,
                top + (t.y as i32 - y0) * TILE,
            );
            draw_tile(root, t, origin)?;
        }
        for t in s.placed_tiles() {
            let origin = (
                left + (t.x as i32 - x0) * TILE,
                top + (t.y as i32 - y0) * TILE,
            );
            draw_marks(root, t, origin)?;
        }
        if let Some((hx, hy)) = self.labels.highlight {
            let o = (
                left + (hx as i32 - x0) * TILE,
                top + (hy as i32 - y0) * TILE,
            );
            root.draw(&Rectangle::new(
                [(o.0 - 1, o.1 - 1), (o.0 + TILE + 1, o.1 + TILE + 1)],
                RGBColor(255, 215, 0).stroke_width(4),
            ))?;
        }
        let (_, h) = self.size();
        root.draw(&Text::new(
            "tan: city (shield: pennant) · light lines: roads · green: fields · red roof: monastery · lying meeple: farmer · letter: tile type · outlined: last tile".to_string(),
            (20, h as i32 - 26),
            chart::text(13.0).color(&RGBColor(70, 70, 70)),
        ))
    }
}

fn draw_meeple_small<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    colour: RGBColor,
) -> DrawResult<DB> {
    draw_meeple(root, at, colour, false)
}

/// Every tile type in its four rotations, one row per type: a check of the tile drawings.
pub struct TileGallery;

impl Figure for TileGallery {
    fn title(&self) -> String {
        "The 24 tile types in their four rotations".to_string()
    }

    fn size(&self) -> (u32, u32) {
        let rows = 12;
        (
            (2 * (4 * (TILE + 8) + 40) + 2 * MARGIN) as u32,
            (HEADER + rows * (TILE + 8) + MARGIN) as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&BACKGROUND)?;
        chart::titles(
            root,
            "The 24 tile types, rotations 0–3 (quarter turns clockwise)",
            "tan: city · shield: pennant · light lines: roads · green: fields · red roof: monastery",
        )?;
        for kind in evomcts_games::carcassonne::TileKind::ALL {
            let (block, row) = (kind.index() / 12, (kind.index() % 12) as i32);
            let left = MARGIN + block as i32 * (4 * (TILE + 8) + 40);
            let top = HEADER + row * (TILE + 8);
            chart::draw_label(
                root,
                kind.letter().to_string(),
                (left + 10, top + TILE / 2),
                20.0,
                BLACK,
                (HPos::Center, VPos::Center),
            )?;
            for rotation in 0..4u8 {
                let t = PlacedTile {
                    kind,
                    x: 0,
                    y: 0,
                    rotation,
                    meeple: None,
                };
                let origin = (left + 30 + rotation as i32 * (TILE + 8), top);
                draw_tile(root, &t, origin)?;
                draw_marks(root, &t, origin)?;
            }
        }
        Ok(())
    }
}

/// Draws `state`'s board into `png` and `svg`, titled with its turn, the last tile outlined.
pub fn draw_board(state: &GameState, png: &Path, svg: &Path) -> Result<(), PlotError> {
    draw_board_labelled(state, &BoardLabels::default_for(state), png, svg)
}

/// `state`'s board as the text of an SVG picture, titled and outlined as [`draw_board`] draws it.
pub fn board_svg(state: &GameState) -> Result<String, PlotError> {
    chart::svg_text(&BoardFigure {
        state,
        labels: BoardLabels::default_for(state),
    })
    .map_err(PlotError::Data)
}

pub fn draw_board_labelled(
    state: &GameState,
    labels: &BoardLabels,
    png: &Path,
    svg: &Path,
) -> Result<(), PlotError> {
    chart::save(
        &BoardFigure {
            state,
            labels: labels.clone(),
        },
        png,
        svg,
    )
}

/// Which boards of a game to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardTurns {
    /// The final board.
    Final,
    /// The board after turn T (0 = the start tile alone).
    Turn(usize),
    /// The board after every turn, from the start to the final board.
    Every,
}

/// The title of game `k`'s board after `turn` of `last` turns: the game's number K, its
/// place in the schedule, the players and the tile seed, so a picture names its game.
pub fn board_title(game: &LeagueGame, k: usize, turn: usize, last: usize) -> String {
    let when = if turn == last {
        format!("final board after {turn} turns")
    } else {
        format!("after turn {turn}")
    };
    format!(
        "Game {k} ({}): {} vs {}, tile seed {} — {when}",
        game.id(),
        game.names[0],
        game.names[1],
        game.game.seed()
    )
}

/// Draws the boards `turns` of `game` (number `k` in schedule order) into `dir` as
/// `board_game<K>_turn<TT>.png` and `.svg`, the final board numbered like every other turn.
pub fn draw_game_boards(
    game: &LeagueGame,
    k: usize,
    turns: BoardTurns,
    dir: &Path,
) -> Result<Vec<WrittenFigure>, PlotError> {
    let record = game.game.carcassonne().ok_or_else(|| {
        PlotError::Data(format!(
            "game {k} is a game of {}: boards are drawn for Carcassonne only",
            game.game.label()
        ))
    })?;
    let states = states_by_turn(record).map_err(|e| PlotError::Data(format!("game {k}: {e}")))?;
    let last = states.len() - 1;
    let wanted: Vec<usize> = match turns {
        BoardTurns::Every => (0..=last).collect(),
        BoardTurns::Turn(t) if t > last => {
            return Err(PlotError::Data(format!(
                "turn {t}: game {k} has {last} turns (0 to {last})"
            )))
        }
        BoardTurns::Turn(t) => vec![t],
        BoardTurns::Final => vec![last],
    };
    let mut written = Vec::with_capacity(wanted.len());
    for t in wanted {
        let state = &states[t];
        let mut labels = BoardLabels::default_for(state);
        labels.names = game.names.clone();
        labels.title = board_title(game, k, t, last);
        if t == last {
            labels.highlight = None;
        }
        written.push(chart::save_in(
            &BoardFigure { state, labels },
            dir,
            &format!("board_game{k}_turn{t:02}"),
        )?);
    }
    Ok(written)
}

/// The states of a recorded game after each turn: element 0 is the start, element `t` the
/// board after turn `t`; the last is finished (end-of-game scoring applied).
pub fn states_by_turn(record: &GameRecord) -> Result<Vec<GameState>, PlotError> {
    let mut out = vec![GameState::new(record.rules)];
    let last = replay_observed(record, |state, step| {
        if let ReplayStep::Moved { .. } = step {
            out.push(state.clone());
        }
    })
    .map_err(|e| PlotError::Data(format!("the record does not replay: {e}")))?;
    if let Some(final_state) = out.last_mut() {
        *final_state = last;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pennant_is_neither_players_colour_nor_the_city() {
        let far = |a: RGBColor, b: RGBColor| {
            let d = |x: u8, y: u8| (x as i32 - y as i32).pow(2);
            d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2) > 100 * 100
        };
        for c in PLAYER_COLOURS.into_iter().chain([CITY]) {
            assert!(far(PENNANT, c), "{c:?}");
        }
    }

    #[test]
    fn the_board_as_svg_text_is_one_picture_titled_with_its_turn() {
        let state = evomcts_games::carcassonne::sample_positions(1, 3, 5..6).remove(0);
        let svg = board_svg(&state).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert_eq!(svg.matches("<svg").count(), 1);
        assert!(svg.contains(&format!("Turn {}", state.turns_played())));
    }
}
