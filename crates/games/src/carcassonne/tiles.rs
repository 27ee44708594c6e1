//! The 24 tile types of the base game as plain data: edges, feature segments, pennants,
//! monasteries and farm adjacency, precomputed for all four rotations.
//!
//! Tiles are written once, unrotated, in a small text notation (see `TILE_SPECS`) that mirrors
//! the reference table, and expanded at start-up into lookup tables the move generator uses
//! without branching on tile shapes. Ports name where a feature touches an edge: ports 0..4 are
//! the centres of N, E, S, W (the city or road on that edge), ports 4..12 are the eight field
//! halves N1 N2 E1 E2 S1 S2 W1 W2, clockwise from the north-west corner. Rotating a tile a
//! quarter turn clockwise moves side `s` to `s + 1` and half `h` to `h + 2`, so ports rotate by
//! simple modular shifts.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

/// One of the 24 tile types, named by the letters of the reference table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum TileKind {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
    J,
    K,
    L,
    M,
    N,
    O,
    P,
    Q,
    R,
    S,
    T,
    U,
    V,
    W,
    X,
}

impl TileKind {
    pub const COUNT: usize = 24;
    pub const ALL: [TileKind; 24] = {
        use TileKind::*;
        [
            A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X,
        ]
    };

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> TileKind {
        Self::ALL[i]
    }

    pub fn letter(self) -> char {
        (b'A' + self as u8) as char
    }

    pub fn from_letter(c: char) -> Option<TileKind> {
        let c = c.to_ascii_uppercase();
        ('A'..='X')
            .contains(&c)
            .then(|| Self::ALL[(c as u8 - b'A') as usize])
    }

    /// How many copies the box holds (72 in all, the start tile included).
    pub fn count_in_box(self) -> u8 {
        tables().defs[self.index()].count
    }

    /// The unrotated definition of this tile type.
    pub fn def(self) -> &'static TileDef {
        &tables().defs[self.index()]
    }
}

impl fmt::Display for TileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What an edge of a tile shows. The discriminants are the 2-bit codes of `Rotated::edge_code`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Edge {
    Field = 1,
    Road = 2,
    City = 3,
}

impl Edge {
    fn from_code(code: u8) -> Edge {
        match code {
            1 => Edge::Field,
            2 => Edge::Road,
            _ => Edge::City,
        }
    }
}

/// The kind of feature a tile segment belongs to. Order is the scoring-table order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum FeatureKind {
    Road = 0,
    City = 1,
    Monastery = 2,
    Field = 3,
}

impl FeatureKind {
    pub const ALL: [FeatureKind; 4] = [
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Monastery,
        FeatureKind::Field,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Monastery => "monastery",
            FeatureKind::Field => "field",
        }
    }
}

/// The most segments one tile has (X: four roads and four fields).
pub const MAX_SEGMENTS: usize = 8;
/// Ports per tile: four edge centres and eight field halves.
pub const PORTS: usize = 12;
/// Marks a port no segment uses (a field half under a city edge, or a field edge's centre).
pub const NO_SEGMENT: u8 = u8::MAX;

/// One feature segment of a tile: the part of a city, road, field or monastery printed on it.
/// Segment indices are fixed per tile type and do not change with rotation; a meeple choice is
/// a segment index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub kind: FeatureKind,
    /// Pennants on this city segment (0 or 1).
    pub pennants: u8,
    /// Ports of the unrotated tile this segment occupies (bit i = port i).
    pub ports: u16,
    /// For a field: the city segments of the same tile it touches (bit i = segment i).
    pub touches_cities: u8,
}

impl Segment {
    /// Edge centres a city or road segment leaves open until a neighbour closes them.
    pub fn open_ends(&self) -> u8 {
        match self.kind {
            FeatureKind::City | FeatureKind::Road => (self.ports & 0xF).count_ones() as u8,
            _ => 0,
        }
    }
}

/// A tile type, unrotated.
#[derive(Clone, Debug)]
pub struct TileDef {
    pub kind: TileKind,
    pub count: u8,
    /// Edges N, E, S, W.
    pub edges: [Edge; 4],
    pub segments: Vec<Segment>,
    /// Rotations (quarter turns clockwise) that give pairwise different boards; symmetric tiles
    /// have fewer than four, so a placement is never offered twice.
    pub distinct_rotations: Vec<u8>,
}

impl TileDef {
    pub fn monastery_segment(&self) -> Option<u8> {
        self.segments
            .iter()
            .position(|s| s.kind == FeatureKind::Monastery)
            .map(|i| i as u8)
    }

    pub fn pennants(&self) -> u8 {
        self.segments.iter().map(|s| s.pennants).sum()
    }
}

/// A tile type under one rotation: what the move generator and the merger look up.
#[derive(Copy, Clone, Debug)]
pub struct Rotated {
    /// 2 bits per side (N at bits 0-1, then E, S, W) holding `Edge as u8`.
    pub edge_code: u8,
    /// Which segment occupies each port of the rotated tile.
    pub port_segment: [u8; PORTS],
}

impl Rotated {
    #[inline]
    pub fn edge(&self, side: usize) -> Edge {
        Edge::from_code((self.edge_code >> (2 * side)) & 3)
    }
}

/// All precomputed tables.
pub struct Tables {
    pub defs: Vec<TileDef>,
    /// `rotated[kind][rotation]`.
    pub rotated: [[Rotated; 4]; TileKind::COUNT],
    /// `fits[kind][constraint]`: bit r set when distinct rotation r of the tile matches every
    /// neighbour edge in the constraint code (2 bits per side, 0 = no neighbour).
    pub fits: Vec<[u8; 256]>,
}

/// The tables, built once on first use.
#[inline]
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

/// The tile set in the notation of the reference table:
/// `letter count edges(NESW) | cities | roads | farms | monastery`.
/// Cities and roads are separated by `,`, `+` marks a pennant; a farm lists its halves, then
/// `>` and the (0-based) indices of the cities it touches; farms are separated by `;`.
const TILE_SPECS: [&str; 24] = [
    "A 2 FFRF |        | S     | N1 N2 E1 E2 S1 S2 W1 W2                         | M",
    "B 4 FFFF |        |       | N1 N2 E1 E2 S1 S2 W1 W2                         | M",
    "C 1 CCCC | NESW+  |       |                                                 |",
    "D 4 CRFR | N      | EW    | E1 W2 >0 ; E2 S1 S2 W1                          |",
    "E 5 CFFF | N      |       | E1 E2 S1 S2 W1 W2 >0                            |",
    "F 2 FCFC | EW+    |       | N1 N2 >0 ; S1 S2 >0                             |",
    "G 1 FCFC | EW     |       | N1 N2 >0 ; S1 S2 >0                             |",
    "H 3 CFCF | N,S    |       | E1 E2 W1 W2 >0 1                                |",
    "I 2 CFFC | N,W    |       | E1 E2 S1 S2 >0 1                                |",
    "J 3 CRRF | N      | ES    | E1 S2 W1 W2 >0 ; E2 S1                          |",
    "K 3 CFRR | N      | SW    | E1 E2 S1 W2 >0 ; S2 W1                          |",
    "L 3 CRRR | N      | E,S,W | E1 W2 >0 ; E2 S1 ; S2 W1                        |",
    "M 2 CFFC | NW+    |       | E1 E2 S1 S2 >0                                  |",
    "N 3 CFFC | NW     |       | E1 E2 S1 S2 >0                                  |",
    "O 2 CRRC | NW+    | ES    | E1 S2 >0 ; E2 S1                                |",
    "P 3 CRRC | NW     | ES    | E1 S2 >0 ; E2 S1                                |",
    "Q 1 CCFC | NEW+   |       | S1 S2 >0                                        |",
    "R 3 CCFC | NEW    |       | S1 S2 >0                                        |",
    "S 2 CCRC | NEW+   | S     | S1 >0 ; S2 >0                                   |",
    "T 1 CCRC | NEW    | S     | S1 >0 ; S2 >0                                   |",
    "U 8 FRFR |        | EW    | W2 N1 N2 E1 ; E2 S1 S2 W1                       |",
    "V 9 FFRR |        | SW    | W2 N1 N2 E1 E2 S1 ; S2 W1                       |",
    "W 4 FRRR |        | E,S,W | W2 N1 N2 E1 ; E2 S1 ; S2 W1                     |",
    "X 1 RRRR |        | N,E,S,W | W2 N1 ; N2 E1 ; E2 S1 ; S2 W1                 |",
];

const HALF_NAMES: [&str; 8] = ["N1", "N2", "E1", "E2", "S1", "S2", "W1", "W2"];

fn side_of(c: char) -> usize {
    match c {
        'N' => 0,
        'E' => 1,
        'S' => 2,
        'W' => 3,
        _ => panic!("tile table: bad side {c}"),
    }
}

fn parse_spec(spec: &str) -> TileDef {
    let parts: Vec<&str> = spec.split('|').map(str::trim).collect();
    let head: Vec<&str> = parts[0].split_whitespace().collect();
    let kind = TileKind::from_letter(head[0].chars().next().unwrap()).unwrap();
    let count: u8 = head[1].parse().unwrap();
    let edges: Vec<Edge> = head[2]
        .chars()
        .map(|c| match c {
            'C' => Edge::City,
            'R' => Edge::Road,
            _ => Edge::Field,
        })
        .collect();
    let mut segments = Vec::new();
    let mut city_segment = Vec::new();
    for city in parts[1].split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let mut ports = 0u16;
        let mut pennants = 0;
        for c in city.chars() {
            if c == '+' {
                pennants = 1;
            } else {
                ports |= 1 << side_of(c);
            }
        }
        city_segment.push(segments.len() as u8);
        segments.push(Segment {
            kind: FeatureKind::City,
            pennants,
            ports,
            touches_cities: 0,
        });
    }
    for road in parts[2].split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let ports = road.chars().fold(0u16, |p, c| p | 1 << side_of(c));
        segments.push(Segment {
            kind: FeatureKind::Road,
            pennants: 0,
            ports,
            touches_cities: 0,
        });
    }
    if parts[4] == "M" {
        segments.push(Segment {
            kind: FeatureKind::Monastery,
            pennants: 0,
            ports: 0,
            touches_cities: 0,
        });
    }
    for farm in parts[3].split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let (halves, cities) = farm.split_once('>').unwrap_or((farm, ""));
        let mut ports = 0u16;
        for h in halves.split_whitespace() {
            let i = HALF_NAMES.iter().position(|n| *n == h).unwrap();
            ports |= 1 << (4 + i);
        }
        let mut touches = 0u8;
        for c in cities.split_whitespace() {
            let ci: usize = c.parse().unwrap();
            touches |= 1 << city_segment[ci];
        }
        segments.push(Segment {
            kind: FeatureKind::Field,
            pennants: 0,
            ports,
            touches_cities: touches,
        });
    }
    TileDef {
        kind,
        count,
        edges: [edges[0], edges[1], edges[2], edges[3]],
        segments,
        distinct_rotations: Vec::new(),
    }
}

/// Port `p` of an unrotated tile, after `r` quarter turns clockwise.
#[inline]
pub fn rotate_port(p: usize, r: usize) -> usize {
    if p < 4 {
        (p + r) % 4
    } else {
        4 + (p - 4 + 2 * r) % 8
    }
}

/// The port on the neighbouring tile across the edge from port `p` (centre to centre, and a
/// half to the half on the same line: N1, the west half of N, meets S2, the west half of S).
#[inline]
pub fn facing_port(p: usize) -> usize {
    if p < 4 {
        (p + 2) % 4
    } else {
        let h = p - 4;
        let (side, j) = (h / 2, h % 2);
        4 + 2 * ((side + 2) % 4) + (1 - j)
    }
}

fn rotate(def: &TileDef, r: usize) -> Rotated {
    let mut edge_code = 0u8;
    for s in 0..4 {
        edge_code |= (def.edges[s] as u8) << (2 * ((s + r) % 4));
    }
    let mut port_segment = [NO_SEGMENT; PORTS];
    for (i, seg) in def.segments.iter().enumerate() {
        for p in 0..PORTS {
            if seg.ports & (1 << p) != 0 {
                port_segment[rotate_port(p, r)] = i as u8;
            }
        }
    }
    Rotated {
        edge_code,
        port_segment,
    }
}

/// A rotation's look, up to which segment index is which: two rotations with the same
/// signature put the same features in the same places.
fn signature(def: &TileDef, rot: &Rotated) -> Vec<(u8, u8, u8, u16)> {
    let mut sig: Vec<(u8, u8, u8, u16)> = def
        .segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let ports = (0..PORTS).fold(0u16, |acc, p| {
                acc | (((rot.port_segment[p] == i as u8) as u16) << p)
            });
            (
                s.kind as u8,
                s.pennants,
                s.touches_cities.count_ones() as u8,
                ports,
            )
        })
        .collect();
    sig.push((255, 0, 0, rot.edge_code as u16));
    sig.sort_unstable();
    sig
}

fn build_tables() -> Tables {
    let mut defs: Vec<TileDef> = TILE_SPECS.iter().map(|s| parse_spec(s)).collect();
    let placeholder = Rotated {
        edge_code: 0,
        port_segment: [NO_SEGMENT; PORTS],
    };
    let mut rotated = [[placeholder; 4]; TileKind::COUNT];
    for (def, rotations) in defs.iter_mut().zip(rotated.iter_mut()) {
        let mut seen = Vec::new();
        for (r, slot) in rotations.iter_mut().enumerate() {
            *slot = rotate(def, r);
            let sig = signature(def, slot);
            if !seen.contains(&sig) {
                seen.push(sig);
                def.distinct_rotations.push(r as u8);
            }
        }
    }
    let mut fits = vec![[0u8; 256]; TileKind::COUNT];
    for (k, def) in defs.iter().enumerate() {
        for (code, slot) in fits[k].iter_mut().enumerate() {
            let mut mask = 0u8;
            for &r in &def.distinct_rotations {
                let ec = rotated[k][r as usize].edge_code as usize;
                let ok = (0..4).all(|s| {
                    let need = (code >> (2 * s)) & 3;
                    need == 0 || need == (ec >> (2 * s)) & 3
                });
                if ok {
                    mask |= 1 << r;
                }
            }
            *slot = mask;
        }
    }
    Tables {
        defs,
        rotated,
        fits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_totals_match_the_reference() {
        let t = tables();
        let tiles: u32 = t.defs.iter().map(|d| d.count as u32).sum();
        let pennants: u32 = t
            .defs
            .iter()
            .map(|d| d.count as u32 * d.pennants() as u32)
            .sum();
        let monasteries: u32 = t
            .defs
            .iter()
            .filter(|d| d.monastery_segment().is_some())
            .map(|d| d.count as u32)
            .sum();
        assert_eq!(tiles, 72);
        assert_eq!(pennants, 10);
        assert_eq!(monasteries, 6);
    }

    #[test]
    fn every_port_of_every_rotation_is_covered_consistently() {
        let t = tables();
        for (k, def) in t.defs.iter().enumerate() {
            assert!(def.segments.len() <= MAX_SEGMENTS);
            for r in 0..4 {
                let rot = &t.rotated[k][r];
                for s in 0..4 {
                    let centre = rot.port_segment[s];
                    let halves = [rot.port_segment[4 + 2 * s], rot.port_segment[5 + 2 * s]];
                    match rot.edge(s) {
                        Edge::City => {
                            assert_eq!(def.segments[centre as usize].kind, FeatureKind::City);
                            assert_eq!(halves, [NO_SEGMENT; 2], "{:?} r{r} side {s}", def.kind);
                        }
                        Edge::Road => {
                            assert_eq!(def.segments[centre as usize].kind, FeatureKind::Road);
                            for h in halves {
                                assert_eq!(def.segments[h as usize].kind, FeatureKind::Field);
                            }
                            // Only A's road stops at its monastery, so one field wraps round it.
                            if def.kind != TileKind::A {
                                assert_ne!(halves[0], halves[1], "a road separates its halves");
                            }
                        }
                        Edge::Field => {
                            assert_eq!(centre, NO_SEGMENT);
                            for h in halves {
                                assert_eq!(def.segments[h as usize].kind, FeatureKind::Field);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn symmetric_tiles_have_fewer_distinct_rotations() {
        use TileKind::*;
        for k in TileKind::ALL {
            let n = k.def().distinct_rotations.len();
            let expected = match k {
                B | C | X => 1,
                F | G | H | U => 2,
                _ => 4,
            };
            assert_eq!(n, expected, "tile {k}");
        }
    }

    #[test]
    fn facing_ports_pair_up() {
        for p in 0..PORTS {
            assert_eq!(facing_port(facing_port(p)), p);
        }
        // N1 (port 4) meets S2 (port 9); E1 (6) meets W2 (11).
        assert_eq!(facing_port(4), 9);
        assert_eq!(facing_port(6), 11);
        assert_eq!(facing_port(0), 2);
    }

    #[test]
    fn rotation_moves_edges_clockwise() {
        // D is C R F R; a quarter turn puts the city on the east.
        let d = &tables().rotated[TileKind::D.index()];
        assert_eq!(d[1].edge(1), Edge::City);
        assert_eq!(d[1].edge(0), Edge::Road);
        assert_eq!(d[2].edge(2), Edge::City);
    }
}
