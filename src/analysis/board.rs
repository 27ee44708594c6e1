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
use crate::game::tiles::{tables, Segment, NO_SEGMENT};
use crate::game::{
    replay_observed, FeatureKind, GameRecord, GameState, PlacedTile, ReplayStep, TileKind,
};
use crate::league::LeagueGame;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

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

type P = (f64, f64);

fn corner(i: usize) -> P {
    [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)][i % 4]
}

/// A point of the tile (unit square, y down): `along` side `s` from its clockwise-first corner,
/// moved `depth` towards the inside.
fn local(s: usize, along: f64, depth: f64) -> P {
    let (a, b) = (corner(s), corner(s + 1));
    let normal = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][s % 4];
    (
        a.0 + along * (b.0 - a.0) + depth * normal.0,
        a.1 + along * (b.1 - a.1) + depth * normal.1,
    )
}

const CENTRE: P = (0.5, 0.5);

fn lerp(a: P, b: P, t: f64) -> P {
    (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
}

/// The outline of a city segment touching the sides in `sides` (bit s = side s).
fn city_polygon(sides: u8) -> Vec<P> {
    let list: Vec<usize> = (0..4).filter(|s| sides & (1 << s) != 0).collect();
    match list.len() {
        1 => {
            let s = list[0];
            vec![
                local(s, 0.0, 0.0),
                local(s, 1.0, 0.0),
                local(s, 0.78, 0.22),
                local(s, 0.5, 0.28),
                local(s, 0.22, 0.22),
            ]
        }
        2 if (list[1] - list[0]) == 2 => {
            let a = list[0];
            vec![
                corner(a),
                corner(a + 1),
                local(a + 1, 0.5, 0.3),
                corner(a + 2),
                corner(a + 3),
                local(a + 3, 0.5, 0.3),
            ]
        }
        2 => {
            // Adjacent sides a and a+1 share corner a+1 (for N and W, a is W).
            let a = if list == [0, 3] { 3 } else { list[0] };
            vec![
                corner(a),
                corner(a + 1),
                corner(a + 2),
                lerp(CENTRE, corner(a + 1), 0.12),
            ]
        }
        3 => {
            let m = (0..4).find(|s| sides & (1 << s) == 0).unwrap_or(0);
            vec![
                corner(m + 1),
                corner(m + 2),
                corner(m + 3),
                corner(m),
                local(m, 0.22, 0.22),
                local(m, 0.5, 0.3),
                local(m, 0.78, 0.22),
            ]
        }
        _ => (0..4).map(corner).collect(),
    }
}

fn average(points: &[P]) -> P {
    let n = points.len().max(1) as f64;
    let (x, y) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0, y + p.1));
    (x / n, y / n)
}

/// The centre line of a road segment joining the edge centres in `sides`.
fn road_path(sides: u8) -> Vec<P> {
    let list: Vec<usize> = (0..4).filter(|s| sides & (1 << s) != 0).collect();
    match list.as_slice() {
        [s] => vec![local(*s, 0.5, 0.0), CENTRE],
        [a, b] if b - a == 2 => vec![local(*a, 0.5, 0.0), local(*b, 0.5, 0.0)],
        [a, b] => {
            let (p, q) = (local(*a, 0.5, 0.0), local(*b, 0.5, 0.0));
            (0..=12)
                .map(|i| {
                    let t = i as f64 / 12.0;
                    let u = 1.0 - t;
                    (
                        u * u * p.0 + 2.0 * u * t * CENTRE.0 + t * t * q.0,
                        u * u * p.1 + 2.0 * u * t * CENTRE.1 + t * t * q.1,
                    )
                })
                .collect()
        }
        _ => vec![CENTRE],
    }
}

/// Sides (bit s) and field halves (bit h) of segment `seg` on a rotated tile.
fn ports_of(port_segment: &[u8; 12], seg: usize) -> (u8, u8) {
    let mut sides = 0u8;
    let mut halves = 0u8;
    for (p, &owner) in port_segment.iter().enumerate() {
        if owner != NO_SEGMENT && owner as usize == seg {
            if p < 4 {
                sides |= 1 << p;
            } else {
                halves |= 1 << (p - 4);
            }
        }
    }
    (sides, halves)
}

/// Field half `h` (N1 N2 E1 E2 S1 S2 W1 W2) as a point just inside its edge.
fn half_point(h: usize) -> P {
    local(h / 2, if h.is_multiple_of(2) { 0.25 } else { 0.75 }, 0.13)
}

/// Where a meeple on a city, road or monastery segment stands (unit square); fields are
/// placed by `field_anchor`, which needs the whole tile.
fn segment_anchor(segment: &Segment, sides: u8) -> P {
    match segment.kind {
        FeatureKind::City if sides.count_ones() == 4 => CENTRE,
        FeatureKind::City => {
            let poly = city_polygon(sides);
            let a = average(&poly);
            if sides.count_ones() == 1 {
                lerp(a, CENTRE, 0.1)
            } else {
                a
            }
        }
        FeatureKind::Road => {
            let path = road_path(sides);
            match path.len() {
                _ if sides.count_ones() == 1 => lerp(path[0], CENTRE, 0.55),
                // A straight road: its middle, not its far end.
                2 => lerp(path[0], path[1], 0.5),
                n => path[n / 2],
            }
        }
        FeatureKind::Monastery | FeatureKind::Field => (0.5, 0.56),
    }
}

/// Whether `p` is inside the polygon `poly` (even-odd rule).
fn inside(poly: &[P], p: P) -> bool {
    let mut c = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            c = !c;
        }
    }
    c
}

fn distance_to_path(path: &[P], p: P) -> f64 {
    let segment = |a: P, b: P| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 {
            0.0
        } else {
            (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
        };
        ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
    };
    match path {
        [only] => segment(*only, *only),
        _ => path
            .windows(2)
            .map(|w| segment(w[0], w[1]))
            .fold(f64::INFINITY, f64::min),
    }
}

/// How far a lying farmer's outline reaches from its anchor, as a share of the tile.
const LYING_REACH: f64 = 0.1;
/// Half the drawn width of a road (its dark edge included), as a share of the tile.
const ROAD_HALF_WIDTH: f64 = 0.075;
/// The monastery's drawing (body and roof) lies within this box.
const MONASTERY_BOX: (P, P) = ((0.28, 0.22), (0.72, 0.74));
/// The crossing square drawn where three or more roads end.
const CROSSING_BOX: (P, P) = ((0.4, 0.4), (0.6, 0.6));

/// What a farmer must not stand on: the drawn cities, roads, monastery and crossing of a tile.
struct Obstacles {
    cities: Vec<Vec<P>>,
    roads: Vec<Vec<P>>,
    boxes: Vec<(P, P)>,
}

impl Obstacles {
    fn of(kind: TileKind, port_segment: &[u8; 12]) -> Obstacles {
        let def = kind.def();
        let mut o = Obstacles {
            cities: Vec::new(),
            roads: Vec::new(),
            boxes: Vec::new(),
        };
        let mut one_sided_roads = 0;
        for (i, seg) in def.segments.iter().enumerate() {
            let (sides, _) = ports_of(port_segment, i);
            match seg.kind {
                FeatureKind::City => o.cities.push(city_polygon(sides)),
                FeatureKind::Road => {
                    one_sided_roads += usize::from(sides.count_ones() == 1);
                    o.roads.push(road_path(sides));
                }
                FeatureKind::Monastery => o.boxes.push(MONASTERY_BOX),
                FeatureKind::Field => {}
            }
        }
        if one_sided_roads >= 3 {
            o.boxes.push(CROSSING_BOX);
        }
        o
    }

    /// How far `p` is from the nearest obstacle (negative inside one).
    fn clearance(&self, p: P) -> f64 {
        let edge_distance = |poly: &[P]| {
            let mut closed = poly.to_vec();
            closed.push(poly[0]);
            distance_to_path(&closed, p)
        };
        let cities = self.cities.iter().map(|c| {
            let d = edge_distance(c);
            if inside(c, p) {
                -d
            } else {
                d
            }
        });
        let roads = self
            .roads
            .iter()
            .map(|r| distance_to_path(r, p) - ROAD_HALF_WIDTH);
        let boxes = self.boxes.iter().map(|(a, b)| {
            let dx = (a.0 - p.0).max(p.0 - b.0);
            let dy = (a.1 - p.1).max(p.1 - b.1);
            if dx <= 0.0 && dy <= 0.0 {
                dx.max(dy)
            } else {
                (dx.max(0.0).powi(2) + dy.max(0.0).powi(2)).sqrt()
            }
        });
        cities
            .chain(roads)
            .chain(boxes)
            .fold(f64::INFINITY, f64::min)
    }

    fn blocks(&self, p: P) -> bool {
        self.clearance(p) <= 0.0
    }
}

/// Where a farmer on the field with edge halves `halves` lies: the point of the field (the
/// grid cells reachable from its halves without crossing a city, road or monastery) farthest
/// from every obstacle and from the tile's border; on ties, the one nearest the halves.
fn field_anchor(obstacles: &Obstacles, halves: u8) -> P {
    const N: usize = 24;
    let centre_of = |i: usize| (i % N) as f64 / N as f64 + 0.5 / N as f64;
    let point = |i: usize| (centre_of(i % N), centre_of(i / N));
    let free: Vec<bool> = (0..N * N).map(|i| !obstacles.blocks(point(i))).collect();
    let seeds: Vec<P> = (0..8)
        .filter(|h| halves & (1 << h) != 0)
        .map(half_point)
        .collect();
    if seeds.is_empty() {
        return CENTRE;
    }
    let distance = |a: P, b: P| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let mut region = vec![false; N * N];
    let mut queue = std::collections::VecDeque::new();
    for s in &seeds {
        let nearest = (0..N * N)
            .filter(|&i| free[i])
            .min_by(|&a, &b| distance(point(a), *s).total_cmp(&distance(point(b), *s)));
        if let Some(i) = nearest.filter(|&i| distance(point(i), *s) < 0.25) {
            if !region[i] {
                region[i] = true;
                queue.push_back(i);
            }
        }
    }
    while let Some(i) = queue.pop_front() {
        let (x, y) = (i % N, i / N);
        let neighbours = [
            (x > 0).then(|| i - 1),
            (x + 1 < N).then(|| i + 1),
            (y > 0).then(|| i - N),
            (y + 1 < N).then(|| i + N),
        ];
        for j in neighbours.into_iter().flatten() {
            if free[j] && !region[j] {
                region[j] = true;
                queue.push_back(j);
            }
        }
    }
    let mean = average(&seeds);
    let clearance = |p: P| {
        let border = p.0.min(1.0 - p.0).min(p.1).min(1.0 - p.1);
        obstacles.clearance(p).min(border)
    };
    (0..N * N)
        .filter(|&i| region[i])
        .map(|i| {
            let p = point(i);
            // Clearance in steps of 0.02 tile, so that among about equally clear points the
            // one nearest the field's halves wins.
            ((clearance(p) / 0.02).floor() as i64, -distance(p, mean), p)
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .map(|(_, _, p)| p)
        .unwrap_or(seeds[0])
}

/// Where a meeple stands on each segment of a tile type in one rotation (unit square).
fn tile_anchors(kind: TileKind, port_segment: &[u8; 12]) -> Vec<P> {
    let obstacles = Obstacles::of(kind, port_segment);
    kind.def()
        .segments
        .iter()
        .enumerate()
        .map(|(i, seg)| {
            let (sides, halves) = ports_of(port_segment, i);
            match seg.kind {
                FeatureKind::Field => field_anchor(&obstacles, halves),
                _ => segment_anchor(seg, sides),
            }
        })
        .collect()
}

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

/// Draws one tile (with its meeple) with its north-west corner at `origin`.
pub(crate) fn draw_tile<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &PlacedTile,
    origin: (i32, i32),
) -> DrawResult<DB> {
    let to_px = |p: P| {
        (
            origin.0 + (p.0 * TILE as f64).round() as i32,
            origin.1 + (p.1 * TILE as f64).round() as i32,
        )
    };
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
    let to_px = |p: P| {
        (
            origin.0 + (p.0 * TILE as f64).round() as i32,
            origin.1 + (p.1 * TILE as f64).round() as i32,
        )
    };
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
    root.draw(&Text::new(
        t.kind.letter().to_string(),
        (corner.0 + 6, corner.1 + 7),
        chart::text(11.0)
            .color(&RGBColor(30, 50, 20))
            .pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
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
        for kind in crate::game::TileKind::ALL {
            let (block, row) = (kind.index() / 12, (kind.index() % 12) as i32);
            let left = MARGIN + block as i32 * (4 * (TILE + 8) + 40);
            let top = HEADER + row * (TILE + 8);
            root.draw(&Text::new(
                kind.letter().to_string(),
                (left + 10, top + TILE / 2),
                chart::text(20.0)
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
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
        game.game.tile_seed
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
    let states =
        states_by_turn(&game.game).map_err(|e| PlotError::Data(format!("game {k}: {e}")))?;
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
    fn city_shapes_cover_their_edges_and_meeples_stand_inside_their_segment() {
        for sides in 1u8..16 {
            let poly = city_polygon(sides);
            for s in 0..4 {
                let mid_inside = inside(&poly, local(s, 0.5, 0.02));
                assert_eq!(
                    mid_inside,
                    sides & (1 << s) != 0,
                    "sides {sides:04b}, edge {s}"
                );
            }
            let seg = Segment {
                kind: FeatureKind::City,
                pennants: 0,
                ports: 0,
                touches_cities: 0,
            };
            assert!(inside(&poly, segment_anchor(&seg, sides)), "{sides:04b}");
        }
    }

    #[test]
    fn farmers_lie_inside_their_field_clear_of_cities_roads_and_monasteries() {
        let reach = LYING_REACH;
        for kind in TileKind::ALL {
            for rotation in 0..4 {
                let rot = &tables().rotated[kind.index()][rotation];
                let obstacles = Obstacles::of(kind, &rot.port_segment);
                let anchors = tile_anchors(kind, &rot.port_segment);
                for (i, seg) in kind.def().segments.iter().enumerate() {
                    if seg.kind != FeatureKind::Field {
                        continue;
                    }
                    let p = anchors[i];
                    let name = format!("{} rotation {rotation} field {i} at {p:?}", kind.letter());
                    assert!(p.0 > 0.0 && p.0 < 1.0 && p.1 > 0.0 && p.1 < 1.0, "{name}");
                    for (dx, dy) in [
                        (0.0, 0.0),
                        (-reach, 0.0),
                        (reach, 0.0),
                        (0.0, -reach * 0.6),
                        (0.0, reach * 0.6),
                    ] {
                        assert!(
                            !obstacles.blocks((p.0 + dx, p.1 + dy)),
                            "{name}: the farmer touches a city, road or monastery"
                        );
                    }
                    // The anchor lies in the part of the tile its own halves reach: the other
                    // fields' halves are farther than its own nearest half or walled off.
                    let (_, halves) = ports_of(&rot.port_segment, i);
                    for (j, other) in kind.def().segments.iter().enumerate() {
                        if j == i || other.kind != FeatureKind::Field {
                            continue;
                        }
                        let (_, theirs) = ports_of(&rot.port_segment, j);
                        let mine = field_anchor(&obstacles, halves);
                        let yours = field_anchor(&obstacles, theirs);
                        assert_ne!(mine, yours, "{name}: two fields share a spot");
                    }
                }
            }
        }
    }

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
}
