//! Connected features (cities, roads, fields, monasteries) as a union-find over tile segments,
//! with the per-feature counters scoring needs kept at each root.
//!
//! Node `8 * placement + segment` is segment `segment` of the `placement`-th tile laid, so a
//! node's tile and segment are recovered by division instead of being stored. Counters are
//! summed on union, and members form a circular list so scoring can walk a feature without
//! searching the board. Arrays are fixed-size: cloning a state is one copy, and nothing here
//! allocates.

use super::tiles::{FeatureKind, MAX_SEGMENTS};

/// Placements in one game, the start tile included.
pub const MAX_TILES: usize = 72;
pub const MAX_NODES: usize = MAX_TILES * MAX_SEGMENTS;

/// A segment of a laid tile as a union-find node: `placement * MAX_SEGMENTS + segment`.
pub type SegmentNode = u16;

// Copy so that `GameState`'s clone is one plain copy of plain data.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Features {
    parent: [SegmentNode; MAX_NODES],
    /// Next member of the same feature (a circular list spliced on union).
    next: [SegmentNode; MAX_NODES],
    kind: [FeatureKind; MAX_NODES],
    // Root-only counters:
    size: [u16; MAX_NODES],
    /// City and road ends not yet closed; for a monastery, neighbour squares still empty.
    open: [u8; MAX_NODES],
    pennants: [u8; MAX_NODES],
    meeples: [[u8; 2]; MAX_NODES],
}

/// One node's entries in every array, to be put back after a trial move.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct SavedNode {
    node: SegmentNode,
    parent: SegmentNode,
    next: SegmentNode,
    kind: FeatureKind,
    size: u16,
    open: u8,
    pennants: u8,
    meeples: [u8; 2],
}

impl SavedNode {
    pub(super) const NONE: SavedNode = SavedNode {
        node: 0,
        parent: 0,
        next: 0,
        kind: FeatureKind::Field,
        size: 0,
        open: 0,
        pennants: 0,
        meeples: [0, 0],
    };
}

/// The counters a feature keeps at its root.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct RootCounters {
    size: u16,
    open: u8,
    pennants: u8,
    meeples: [u8; 2],
}

impl Features {
    pub fn new() -> Features {
        Features {
            parent: [0; MAX_NODES],
            next: [0; MAX_NODES],
            kind: [FeatureKind::Field; MAX_NODES],
            size: [0; MAX_NODES],
            open: [0; MAX_NODES],
            pennants: [0; MAX_NODES],
            meeples: [[0; 2]; MAX_NODES],
        }
    }

    #[inline]
    pub fn node(placement: usize, segment: usize) -> SegmentNode {
        (placement * MAX_SEGMENTS + segment) as SegmentNode
    }

    #[inline]
    pub fn placement_of(node: SegmentNode) -> usize {
        node as usize / MAX_SEGMENTS
    }

    #[inline]
    pub fn segment_of(node: SegmentNode) -> usize {
        node as usize % MAX_SEGMENTS
    }

    /// A fresh single-segment feature.
    #[inline]
    pub fn init(&mut self, node: SegmentNode, kind: FeatureKind, open: u8, pennants: u8) {
        let n = node as usize;
        self.parent[n] = node;
        self.next[n] = node;
        self.kind[n] = kind;
        self.size[n] = 1;
        self.open[n] = open;
        self.pennants[n] = pennants;
        self.meeples[n] = [0, 0];
    }

    /// Everything the arrays hold for `node`.
    #[inline]
    pub(super) fn save_node(&self, node: SegmentNode) -> SavedNode {
        let n = node as usize;
        SavedNode {
            node,
            parent: self.parent[n],
            next: self.next[n],
            kind: self.kind[n],
            size: self.size[n],
            open: self.open[n],
            pennants: self.pennants[n],
            meeples: self.meeples[n],
        }
    }

    /// Puts back what `save_node` saved.
    #[inline]
    pub(super) fn restore_node(&mut self, saved: &SavedNode) {
        let n = saved.node as usize;
        self.parent[n] = saved.parent;
        self.next[n] = saved.next;
        self.kind[n] = saved.kind;
        self.size[n] = saved.size;
        self.open[n] = saved.open;
        self.pennants[n] = saved.pennants;
        self.meeples[n] = saved.meeples;
    }

    /// Whether `node` is the root of its feature.
    #[inline]
    pub(super) fn is_root(&self, node: SegmentNode) -> bool {
        self.parent[node as usize] == node
    }

    /// The counters kept at `root`: equal counters at the same root mean the same members.
    #[inline]
    pub(super) fn counters(&self, root: SegmentNode) -> RootCounters {
        let r = root as usize;
        RootCounters {
            size: self.size[r],
            open: self.open[r],
            pennants: self.pennants[r],
            meeples: self.meeples[r],
        }
    }

    /// The feature's root. Union by size keeps trees shallow (depth ≤ log2 of 576), so no path
    /// compression is needed and lookups work on a shared reference.
    #[inline]
    pub fn find(&self, mut node: SegmentNode) -> SegmentNode {
        while self.parent[node as usize] != node {
            node = self.parent[node as usize];
        }
        node
    }

    /// Joins the features of `a` and `b` and returns the new root.
    #[inline]
    pub fn union(&mut self, a: SegmentNode, b: SegmentNode) -> SegmentNode {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        let (x, y) = (ra as usize, rb as usize);
        self.parent[y] = ra;
        self.size[x] += self.size[y];
        self.open[x] += self.open[y];
        self.pennants[x] += self.pennants[y];
        self.meeples[x][0] += self.meeples[y][0];
        self.meeples[x][1] += self.meeples[y][1];
        self.next.swap(x, y);
        ra
    }

    #[inline]
    pub fn kind(&self, node: SegmentNode) -> FeatureKind {
        self.kind[node as usize]
    }

    #[inline]
    pub fn open(&self, root: SegmentNode) -> u8 {
        self.open[root as usize]
    }

    /// Closes `n` ends of the feature at `root` (two per matched edge, one per neighbour square
    /// of a monastery).
    #[inline]
    pub fn close(&mut self, root: SegmentNode, n: u8) {
        self.open[root as usize] -= n;
    }

    #[inline]
    pub fn pennants(&self, root: SegmentNode) -> u8 {
        self.pennants[root as usize]
    }

    #[inline]
    pub fn meeples(&self, root: SegmentNode) -> [u8; 2] {
        self.meeples[root as usize]
    }

    #[inline]
    pub fn is_occupied(&self, node: SegmentNode) -> bool {
        let m = self.meeples[self.find(node) as usize];
        m[0] + m[1] > 0
    }

    #[inline]
    pub fn add_meeple(&mut self, root: SegmentNode, player: usize) {
        self.meeples[root as usize][player] += 1;
    }

    #[inline]
    pub fn clear_meeples(&mut self, root: SegmentNode) {
        self.meeples[root as usize] = [0, 0];
    }

    /// A city or road whose every end is closed. Fields never complete; monasteries complete
    /// when all eight neighbours are present.
    #[inline]
    pub fn is_complete(&self, root: SegmentNode) -> bool {
        self.kind[root as usize] != FeatureKind::Field && self.open[root as usize] == 0
    }

    /// Every member node of the feature containing `node`, starting at `node`.
    #[inline]
    pub fn members(&self, node: SegmentNode) -> Members<'_> {
        Members {
            features: self,
            start: node,
            current: Some(node),
        }
    }

    /// Distinct tiles of the feature: a tile counts once even when two of its segments joined.
    pub fn tile_count(&self, node: SegmentNode) -> u32 {
        let mut seen = 0u128;
        for m in self.members(node) {
            seen |= 1u128 << Self::placement_of(m);
        }
        seen.count_ones()
    }
}

impl Default for Features {
    fn default() -> Self {
        Self::new()
    }
}

pub struct Members<'a> {
    features: &'a Features,
    start: SegmentNode,
    current: Option<SegmentNode>,
}

impl Iterator for Members<'_> {
    type Item = SegmentNode;

    #[inline]
    fn next(&mut self) -> Option<SegmentNode> {
        let cur = self.current?;
        let nxt = self.features.next[cur as usize];
        self.current = (nxt != self.start).then_some(nxt);
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_sums_counters_and_joins_member_lists() {
        let mut f = Features::new();
        f.init(0, FeatureKind::City, 2, 1);
        f.init(8, FeatureKind::City, 1, 0);
        f.init(16, FeatureKind::City, 1, 1);
        f.add_meeple(8, 1);
        let r = f.union(0, 8);
        let r = f.union(r, 16);
        assert_eq!(f.open(r), 4);
        assert_eq!(f.pennants(r), 2);
        assert_eq!(f.meeples(r), [0, 1]);
        let mut members: Vec<_> = f.members(16).collect();
        members.sort();
        assert_eq!(members, vec![0, 8, 16]);
        assert_eq!(f.tile_count(0), 3);
    }

    #[test]
    fn two_segments_of_one_tile_count_as_one_tile() {
        let mut f = Features::new();
        f.init(Features::node(3, 0), FeatureKind::City, 1, 0);
        f.init(Features::node(3, 1), FeatureKind::City, 1, 0);
        f.init(Features::node(4, 0), FeatureKind::City, 2, 0);
        f.union(Features::node(3, 0), Features::node(4, 0));
        f.union(Features::node(3, 1), Features::node(4, 0));
        assert_eq!(f.tile_count(Features::node(4, 0)), 2);
    }
}
