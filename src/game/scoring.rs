//! Scoring: features completed by a laid tile (cities, roads, monasteries, with majority
//! and ties, meeples returned), the end-of-game value of incomplete features and fields,
//! and the virtual scores at any moment.

use super::features::{Features, SegmentNode};
use super::state::GameState;
use super::tiles::{FeatureKind, MAX_SEGMENTS};

impl GameState {
    /// Scores every feature the tile at placement `p` completed: its cities and roads, its own
    /// monastery and the monasteries around it.
    pub(super) fn score_completed(&mut self, p: usize) {
        let (kind, x, y) = {
            let t = &self.placed[p];
            (t.kind, t.x, t.y)
        };
        let mut done: [SegmentNode; MAX_SEGMENTS] = [0; MAX_SEGMENTS];
        let mut n_done = 0;
        for (i, seg) in kind.def().segments.iter().enumerate() {
            if seg.kind == FeatureKind::Field || seg.kind == FeatureKind::Monastery {
                continue;
            }
            let root = self.features.find(Features::node(p, i));
            if self.features.open(root) == 0 && !done[..n_done].contains(&root) {
                done[n_done] = root;
                n_done += 1;
                self.score_on_completion(root);
            }
        }
        for i in 0..self.monasteries_len as usize {
            let q = self.monasteries[i] as usize;
            let node = if q == p {
                let m = kind
                    .def()
                    .monastery_segment()
                    .expect("listed as a monastery");
                Some(Features::node(q, m as usize))
            } else {
                self.monastery_node_near(q, x, y)
            };
            if let Some(node) = node {
                if self.features.open(node) == 0 {
                    self.score_on_completion(node);
                }
            }
        }
    }

    /// Scores a just-completed feature for its majority and returns its meeples.
    pub(super) fn score_on_completion(&mut self, root: SegmentNode) {
        let meeples = self.features.meeples(root);
        if meeples == [0, 0] {
            return;
        }
        let kind = self.features.kind(root);
        let points = self.completed_value(root);
        self.award(meeples, kind, points);
        let mut i = 0;
        while i < self.meeples_on_board_len as usize {
            let (node, player) = self.meeples_on_board[i];
            if self.features.find(node) == root {
                self.supply[player as usize] += 1;
                self.placed[Features::placement_of(node)].meeple = None;
                self.meeples_on_board_len -= 1;
                self.meeples_on_board[i] =
                    self.meeples_on_board[self.meeples_on_board_len as usize];
            } else {
                i += 1;
            }
        }
        self.features.clear_meeples(root);
    }

    pub(super) fn award(&mut self, meeples: [u8; 2], kind: FeatureKind, points: i32) {
        let top = meeples[0].max(meeples[1]);
        for (player, &m) in meeples.iter().enumerate() {
            if m == top {
                self.scores[player] += points;
                self.score_by_kind[player][kind as usize] += points;
            }
        }
    }

    /// Points of a feature completed during play.
    pub(super) fn completed_value(&self, root: SegmentNode) -> i32 {
        match self.features.kind(root) {
            FeatureKind::Road => self.features.tile_count(root) as i32,
            FeatureKind::City => {
                let tiles = self.features.tile_count(root) as i32;
                let pennants = self.features.pennants(root) as i32;
                if self.rules.two_tile_city_scores_two && tiles == 2 {
                    tiles + pennants
                } else {
                    2 * (tiles + pennants)
                }
            }
            FeatureKind::Monastery => 9,
            FeatureKind::Field => self.end_value(root),
        }
    }

    /// Points a feature would give if the game ended now.
    pub fn end_value(&self, root: SegmentNode) -> i32 {
        let f = &self.features;
        match f.kind(root) {
            FeatureKind::Road => f.tile_count(root) as i32,
            FeatureKind::City if f.open(root) == 0 => self.completed_value(root),
            FeatureKind::City => f.tile_count(root) as i32 + f.pennants(root) as i32,
            FeatureKind::Monastery => 1 + (8 - f.open(root) as i32),
            FeatureKind::Field => {
                let mut cities: [SegmentNode; 64] = [0; 64];
                let mut n = 0;
                for member in f.members(root) {
                    let p = Features::placement_of(member);
                    let def = self.placed[p].kind.def();
                    let mut touches = def.segments[Features::segment_of(member)].touches_cities;
                    while touches != 0 {
                        let s = touches.trailing_zeros() as usize;
                        touches &= touches - 1;
                        let city = f.find(Features::node(p, s));
                        if f.open(city) == 0 && !cities[..n].contains(&city) && n < cities.len() {
                            cities[n] = city;
                            n += 1;
                        }
                    }
                }
                3 * n as i32
            }
        }
    }

    /// The distinct features that hold meeples, with their meeples per player.
    pub(super) fn occupied_features(&self) -> ([(SegmentNode, [u8; 2]); 14], usize) {
        let mut roots = [(0, [0, 0]); 14];
        let mut n = 0;
        for &(node, _) in &self.meeples_on_board[..self.meeples_on_board_len as usize] {
            let root = self.features.find(node);
            if !roots[..n].iter().any(|&(r, _)| r == root) {
                roots[n] = (root, self.features.meeples(root));
                n += 1;
            }
        }
        (roots, n)
    }

    /// Each player's score plus what every incomplete feature and field would give them if the
    /// game ended now. After `finish` it equals the final score.
    pub fn virtual_scores(&self) -> [i32; 2] {
        if self.finished {
            return self.scores;
        }
        let mut v = self.scores;
        let (roots, n) = self.occupied_features();
        for &(root, meeples) in &roots[..n] {
            let points = self.end_value(root);
            let top = meeples[0].max(meeples[1]);
            for player in 0..2 {
                if meeples[player] == top {
                    v[player] += points;
                }
            }
        }
        v
    }

    /// The end-of-game scoring of incomplete features and fields. Call once the game is over;
    /// calling it again does nothing.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        let (roots, n) = self.occupied_features();
        for &(root, meeples) in &roots[..n] {
            let points = self.end_value(root);
            self.award(meeples, self.features.kind(root), points);
        }
        self.finished = true;
    }
}
