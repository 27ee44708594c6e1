//! The geometry of a tile, in the unit square (y down): the outline of a city segment from the
//! edges it touches, a road's path through the edge centres it joins, and where a meeple
//! stands on each segment (a farmer at the point of its field farthest from everything it
//! must not stand on). The drawing in `board` scales these shapes to pixels.

use evomcts_games::carcassonne::tiles::{Segment, NO_SEGMENT};
use evomcts_games::carcassonne::{FeatureKind, TileKind};

pub(super) type P = (f64, f64);

pub(super) fn corner(i: usize) -> P {
    [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)][i % 4]
}

/// A point of the tile (unit square, y down): `along` side `s` from its clockwise-first corner,
/// moved `depth` towards the inside.
pub(super) fn local(s: usize, along: f64, depth: f64) -> P {
    let (a, b) = (corner(s), corner(s + 1));
    let normal = [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][s % 4];
    (
        a.0 + along * (b.0 - a.0) + depth * normal.0,
        a.1 + along * (b.1 - a.1) + depth * normal.1,
    )
}

pub(super) const CENTRE: P = (0.5, 0.5);

pub(super) fn lerp(a: P, b: P, t: f64) -> P {
    (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
}

/// The outline of a city segment touching the sides in `sides` (bit s = side s).
pub(super) fn city_polygon(sides: u8) -> Vec<P> {
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

pub(super) fn average(points: &[P]) -> P {
    let n = points.len().max(1) as f64;
    let (x, y) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.0, y + p.1));
    (x / n, y / n)
}

/// The centre line of a road segment joining the edge centres in `sides`.
pub(super) fn road_path(sides: u8) -> Vec<P> {
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
pub(super) fn ports_of(port_segment: &[u8; 12], seg: usize) -> (u8, u8) {
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
pub(super) fn half_point(h: usize) -> P {
    local(h / 2, if h.is_multiple_of(2) { 0.25 } else { 0.75 }, 0.13)
}

/// Where a meeple on a city, road or monastery segment stands (unit square); fields are
/// placed by `field_anchor`, which needs the whole tile.
pub(super) fn segment_anchor(segment: &Segment, sides: u8) -> P {
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
pub(super) fn inside(poly: &[P], p: P) -> bool {
    let mut c = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            c = !c;
        }
    }
    c
}

pub(super) fn distance_to_path(path: &[P], p: P) -> f64 {
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
pub(super) const LYING_REACH: f64 = 0.1;
/// Half the drawn width of a road (its dark edge included), as a share of the tile.
pub(super) const ROAD_HALF_WIDTH: f64 = 0.075;
/// The monastery's drawing (body and roof) lies within this box.
pub(super) const MONASTERY_BOX: (P, P) = ((0.28, 0.22), (0.72, 0.74));
/// The crossing square drawn where three or more roads end.
pub(super) const CROSSING_BOX: (P, P) = ((0.4, 0.4), (0.6, 0.6));

/// What a farmer must not stand on: the drawn cities, roads, monastery and crossing of a tile.
pub(super) struct Obstacles {
    cities: Vec<Vec<P>>,
    roads: Vec<Vec<P>>,
    boxes: Vec<(P, P)>,
}

impl Obstacles {
    pub(super) fn of(kind: TileKind, port_segment: &[u8; 12]) -> Obstacles {
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
    pub(super) fn clearance(&self, p: P) -> f64 {
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

    pub(super) fn blocks(&self, p: P) -> bool {
        self.clearance(p) <= 0.0
    }
}

/// Where a farmer on the field with edge halves `halves` lies: the point of the field (the
/// grid cells reachable from its halves without crossing a city, road or monastery) farthest
/// from every obstacle and from the tile's border; on ties, the one nearest the halves.
pub(super) fn field_anchor(obstacles: &Obstacles, halves: u8) -> P {
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
pub(super) fn tile_anchors(kind: TileKind, port_segment: &[u8; 12]) -> Vec<P> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_games::carcassonne::tiles::tables;

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
}
