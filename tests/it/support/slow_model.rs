//! A slow model of the rules, written for the tests without the engine's tables or union-find:
//! features are found by flood fill over a hash map of tiles, every turn from scratch.

use evomcts::games::carcassonne::{Edge, FeatureKind, GameState, Move, TileKind};
use std::collections::{BTreeSet, HashMap, HashSet};

const STEPS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// The edge on side `side` of `tile` turned `rot` quarter turns clockwise.
pub fn edge(tile: TileKind, rot: u8, side: usize) -> Edge {
    tile.def().edges[(side + 4 - rot as usize) % 4]
}

/// The segment at port `port` (0..4 edge centres, 4..12 field halves) of a rotated tile.
pub fn segment_at(tile: TileKind, rot: u8, port: usize) -> Option<usize> {
    let unrotated = if port < 4 {
        (port + 4 - rot as usize) % 4
    } else {
        4 + (port - 4 + 8 - 2 * rot as usize) % 8
    };
    tile.def()
        .segments
        .iter()
        .position(|s| s.ports & (1 << unrotated) != 0)
}

/// The ports along side `side` and the ports facing them on the neighbour.
fn port_pairs(side: usize) -> [(usize, usize); 3] {
    let opp = (side + 2) % 4;
    [
        (side, opp),
        (4 + 2 * side, 4 + 2 * opp + 1),
        (4 + 2 * side + 1, 4 + 2 * opp),
    ]
}

pub type Node = ((i32, i32), usize);

#[derive(Debug)]
pub struct Feature {
    pub kind: FeatureKind,
    pub members: Vec<Node>,
    pub tiles: usize,
    pub pennants: usize,
    pub complete: bool,
    pub meeples: [usize; 2],
}

#[derive(Clone, Default)]
pub struct SlowModel {
    pub tiles: HashMap<(i32, i32), (TileKind, u8)>,
    pub meeples: HashMap<Node, u8>,
    pub scores: [i32; 2],
    pub supply: [u8; 2],
}

impl SlowModel {
    pub fn new() -> Self {
        let mut m = SlowModel {
            supply: [7, 7],
            ..Default::default()
        };
        m.tiles.insert((0, 0), (TileKind::D, 0));
        m
    }

    fn neighbours_present(&self, (x, y): (i32, i32)) -> usize {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) && self.tiles.contains_key(&(x + dx, y + dy)) {
                    n += 1;
                }
            }
        }
        n
    }

    /// All features of the board by flood fill.
    pub fn features(&self) -> Vec<Feature> {
        let mut seen: HashSet<Node> = HashSet::new();
        let mut out = Vec::new();
        for (&pos, &(tile, _)) in &self.tiles {
            for s in 0..tile.def().segments.len() {
                if seen.contains(&(pos, s)) {
                    continue;
                }
                let kind = tile.def().segments[s].kind;
                let mut stack = vec![(pos, s)];
                seen.insert((pos, s));
                let mut members = Vec::new();
                let mut complete = true;
                while let Some(node @ (p, seg)) = stack.pop() {
                    members.push(node);
                    let (t, rot) = self.tiles[&p];
                    if kind == FeatureKind::Monastery {
                        complete = self.neighbours_present(p) == 8;
                        continue;
                    }
                    for (side, step) in STEPS.iter().enumerate() {
                        let q = (p.0 + step.0, p.1 + step.1);
                        for (mine, theirs) in port_pairs(side) {
                            if segment_at(t, rot, mine) != Some(seg) {
                                continue;
                            }
                            match self.tiles.get(&q) {
                                Some(&(qt, qr)) => {
                                    let other = segment_at(qt, qr, theirs).expect("edges match");
                                    if seen.insert((q, other)) {
                                        stack.push((q, other));
                                    }
                                }
                                None => {
                                    if mine < 4 {
                                        complete = false;
                                    }
                                }
                            }
                        }
                    }
                }
                let tiles: HashSet<(i32, i32)> = members.iter().map(|m| m.0).collect();
                let pennants = members
                    .iter()
                    .map(|&(p, s)| self.tiles[&p].0.def().segments[s].pennants as usize)
                    .sum();
                let mut meeples = [0; 2];
                for m in &members {
                    if let Some(&pl) = self.meeples.get(m) {
                        meeples[pl as usize] += 1;
                    }
                }
                if kind == FeatureKind::Field {
                    complete = false;
                }
                out.push(Feature {
                    kind,
                    members,
                    tiles: tiles.len(),
                    pennants,
                    complete,
                    meeples,
                });
            }
        }
        out
    }

    fn end_value(&self, f: &Feature, all: &[Feature]) -> i32 {
        match f.kind {
            FeatureKind::Road => f.tiles as i32,
            FeatureKind::City if f.complete => 2 * (f.tiles + f.pennants) as i32,
            FeatureKind::City => (f.tiles + f.pennants) as i32,
            FeatureKind::Monastery => 1 + self.neighbours_present(f.members[0].0) as i32,
            FeatureKind::Field => {
                let mut cities = BTreeSet::new();
                for &(p, s) in &f.members {
                    let def = self.tiles[&p].0.def();
                    for c in 0..def.segments.len() {
                        if def.segments[s].touches_cities & (1 << c) != 0 {
                            let idx = all
                                .iter()
                                .position(|g| g.members.contains(&(p, c)))
                                .unwrap();
                            if all[idx].complete {
                                cities.insert(idx);
                            }
                        }
                    }
                }
                3 * cities.len() as i32
            }
        }
    }

    fn majority(meeples: [usize; 2]) -> [bool; 2] {
        let top = meeples[0].max(meeples[1]);
        [top > 0 && meeples[0] == top, top > 0 && meeples[1] == top]
    }

    /// Scores and virtual scores as the rules define them, from scratch.
    pub fn virtual_scores(&self) -> [i32; 2] {
        let all = self.features();
        let mut v = self.scores;
        for f in &all {
            let winners = Self::majority(f.meeples);
            for p in 0..2 {
                if winners[p] {
                    v[p] += self.end_value(f, &all);
                }
            }
        }
        v
    }

    /// Plays a move the way the rule book says.
    pub fn apply(&mut self, tile: TileKind, mv: Move, player: usize) {
        let pos = (mv.x as i32, mv.y as i32);
        self.tiles.insert(pos, (tile, mv.rotation));
        if let Some(s) = mv.meeple {
            self.meeples.insert((pos, s as usize), player as u8);
            self.supply[player] -= 1;
        }
        let all = self.features();
        for f in &all {
            if f.complete && f.meeples != [0, 0] {
                let winners = Self::majority(f.meeples);
                for (p, &wins) in winners.iter().enumerate() {
                    if wins {
                        self.scores[p] += self.end_value(f, &all);
                    }
                }
                for m in &f.members {
                    if let Some(pl) = self.meeples.remove(m) {
                        self.supply[pl as usize] += 1;
                    }
                }
            }
        }
    }

    /// Rotations of `tile` that look alike are one move: keep the smallest of each look.
    fn distinct_rotations(tile: TileKind) -> Vec<u8> {
        let mut looks = Vec::new();
        let mut keep = Vec::new();
        for rot in 0..4u8 {
            let mut labels: Vec<Option<usize>> = Vec::new();
            let mut look = Vec::new();
            for port in 0..12 {
                let s = segment_at(tile, rot, port);
                let label = s.map(|s| match labels.iter().position(|&l| l == Some(s)) {
                    Some(i) => i,
                    None => {
                        labels.push(Some(s));
                        labels.len() - 1
                    }
                });
                let info = s.map(|s| {
                    let seg = &tile.def().segments[s];
                    (seg.kind, seg.pennants, seg.touches_cities.count_ones())
                });
                look.push((label, info));
            }
            if !looks.contains(&look) {
                looks.push(look);
                keep.push(rot);
            }
        }
        keep
    }

    /// Every legal move of `tile` for `player`, from the rule book.
    pub fn legal_moves(&self, tile: TileKind, player: usize) -> BTreeSet<(i8, i8, u8, Option<u8>)> {
        let mut candidates = HashSet::new();
        for &(x, y) in self.tiles.keys() {
            for (dx, dy) in STEPS {
                if !self.tiles.contains_key(&(x + dx, y + dy)) {
                    candidates.insert((x + dx, y + dy));
                }
            }
        }
        let all = self.features();
        let occupied = |node: Node| {
            all.iter()
                .any(|f| f.members.contains(&node) && f.meeples != [0, 0])
        };
        let mut moves = BTreeSet::new();
        for pos in candidates {
            for rot in Self::distinct_rotations(tile) {
                let fits = (0..4).all(|side| {
                    let q = (pos.0 + STEPS[side].0, pos.1 + STEPS[side].1);
                    match self.tiles.get(&q) {
                        Some(&(qt, qr)) => edge(qt, qr, (side + 2) % 4) == edge(tile, rot, side),
                        None => true,
                    }
                });
                if !fits {
                    continue;
                }
                let m = (pos.0 as i8, pos.1 as i8, rot, None);
                moves.insert(m);
                if self.supply[player] == 0 {
                    continue;
                }
                for s in 0..tile.def().segments.len() {
                    let mut taken = false;
                    for (side, step) in STEPS.iter().enumerate() {
                        let q = (pos.0 + step.0, pos.1 + step.1);
                        let Some(&(qt, qr)) = self.tiles.get(&q) else {
                            continue;
                        };
                        for (mine, theirs) in port_pairs(side) {
                            if segment_at(tile, rot, mine) == Some(s) {
                                let other = segment_at(qt, qr, theirs).unwrap();
                                taken |= occupied((q, other));
                            }
                        }
                    }
                    if !taken {
                        moves.insert((m.0, m.1, rot, Some(s as u8)));
                    }
                }
            }
        }
        moves
    }

    /// Every pair of adjacent tiles shows the same edge on both sides.
    pub fn edges_match(&self) -> bool {
        self.tiles.iter().all(|(&(x, y), &(t, r))| {
            (0..4).all(
                |side| match self.tiles.get(&(x + STEPS[side].0, y + STEPS[side].1)) {
                    Some(&(qt, qr)) => edge(qt, qr, (side + 2) % 4) == edge(t, r, side),
                    None => true,
                },
            )
        })
    }

    /// Whether the model agrees with the engine on the board and the meeples on it.
    pub fn same_board(&self, state: &GameState) -> bool {
        let tiles = state.placed_tiles();
        tiles.len() == self.tiles.len()
            && tiles.iter().all(|t| {
                self.tiles.get(&(t.x as i32, t.y as i32)) == Some(&(t.kind, t.rotation))
                    && t.meeple
                        .map(|(s, p)| {
                            self.meeples.get(&((t.x as i32, t.y as i32), s as usize)) == Some(&p)
                        })
                        .unwrap_or(true)
            })
            && tiles.iter().filter(|t| t.meeple.is_some()).count() == self.meeples.len()
    }
}
