//! Scoring: features completed by a laid tile (cities, roads, monasteries, with majority
//! and ties, meeples returned), the end-of-game value of incomplete features and fields,
//! and the virtual scores at any moment.

use super::features::{Features, RootCounters, SegmentNode};
use super::state::GameState;
use super::tiles::{FeatureKind, MAX_SEGMENTS};

/// The occupied features of a position: (root, meeples per player, end-of-game points).
pub(super) struct OccupiedValues {
    entries: [(SegmentNode, [u8; 2], i32); 14],
    /// Each entry's root counters, to tell after a move whether the feature changed.
    counters: [RootCounters; 14],
    len: usize,
}

/// Adds `points` to the players with the most meeples (both on a tie), as scoring does.
fn add_majority_points(scores: &mut [i32; 2], meeples: [u8; 2], points: i32) {
    let top = meeples[0].max(meeples[1]);
    for (score, &m) in scores.iter_mut().zip(&meeples) {
        if m == top {
            *score += points;
        }
    }
}

impl OccupiedValues {
    /// The roots of the occupied features.
    pub(super) fn roots(&self) -> impl Iterator<Item = SegmentNode> + '_ {
        self.entries[..self.len].iter().map(|&(root, _, _)| root)
    }
}

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
            add_majority_points(&mut v, meeples, self.end_value(root));
        }
        v
    }

    /// The occupied features with their meeples and end-of-game points: what
    /// `virtual_scores` sums, kept so that the virtual scores after each move of a decision
    /// are computed from the features the move changed alone
    /// ([`GameState::virtual_scores_after`]).
    pub(super) fn occupied_values(&self) -> OccupiedValues {
        let (roots, len) = self.occupied_features();
        let mut values = OccupiedValues {
            entries: [(0, [0, 0], 0); 14],
            counters: [RootCounters::default(); 14],
            len,
        };
        for (i, &(root, meeples)) in roots[..len].iter().enumerate() {
            values.entries[i] = (root, meeples, self.end_value(root));
            values.counters[i] = self.features.counters(root);
        }
        values
    }

    /// `virtual_scores()` of this state, one move after the position whose occupied features
    /// `occupied` holds (`occupied_values`): a feature the move did not change keeps its
    /// points (a root with the same counters has the same members), and only the features it
    /// joined, extended, closed or scored, and the one its meeple went to, are valued again.
    /// A field's points also change when the move completes a city, so then every occupied
    /// field is valued again. Equal to `virtual_scores()` (tested on every move of sampled
    /// positions).
    pub(super) fn virtual_scores_after(
        &self,
        occupied: &OccupiedValues,
        meeple: Option<u8>,
    ) -> [i32; 2] {
        if self.finished {
            return self.scores;
        }
        let f = &self.features;
        let p = self.placed_len as usize - 1;
        let segments = &self.placed[p].kind.def().segments;
        let city_completed = segments.iter().enumerate().any(|(i, seg)| {
            seg.kind == FeatureKind::City && f.open(f.find(Features::node(p, i))) == 0
        });
        let mut v = self.scores;
        // At most one changed root per occupied feature before, and the new meeple's.
        let mut changed: [SegmentNode; 15] = [0; 15];
        let mut n = 0;
        let entries = occupied.entries[..occupied.len].iter();
        for (&(root, meeples, points), &counters) in entries.zip(&occupied.counters) {
            let revalue = city_completed && f.kind(root) == FeatureKind::Field;
            if !revalue && f.is_root(root) && f.counters(root) == counters {
                add_majority_points(&mut v, meeples, points);
            } else {
                let now = f.find(root);
                if !changed[..n].contains(&now) {
                    changed[n] = now;
                    n += 1;
                }
            }
        }
        if let Some(segment) = meeple {
            let now = f.find(Features::node(p, segment as usize));
            if !changed[..n].contains(&now) {
                changed[n] = now;
                n += 1;
            }
        }
        for &root in &changed[..n] {
            let meeples = f.meeples(root);
            if meeples != [0, 0] {
                add_majority_points(&mut v, meeples, self.end_value(root));
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
