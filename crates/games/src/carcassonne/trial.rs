//! Trying a move and taking it back: what a search does for every child when it assesses a
//! decision's moves (`game::assessment`). A trial saves what laying the tile and scoring it
//! can write, a few hundred bytes, and puts it back, so a state is never copied whole.

use super::features::{Features, SavedNode, SegmentNode};
use super::state::{cell, FrontierSquare, GameState, EMPTY, MAX_FRONTIER, STEPS};
use super::tiles::{facing_port, MAX_SEGMENTS, NO_SEGMENT};
use super::types::{Move, PlacedTile, MEEPLES_PER_PLAYER};

/// Union-find nodes a move can write: the new tile's, the roots of three ports on each of
/// four sides, and at most eight monasteries around.
const NODES_A_MOVE_WRITES: usize = MAX_SEGMENTS + 12 + 8;

/// Everything a move can write, saved before it is tried.
pub(super) struct TrialSave {
    nodes: [SavedNode; NODES_A_MOVE_WRITES],
    nodes_len: usize,
    cell: usize,
    cell_tile: u8,
    /// The laid cell's need and its four neighbours'.
    cell_need: [u8; 5],
    /// The frontier up to four squares past its end: a move removes its own square and adds
    /// at most four.
    frontier: [FrontierSquare; MAX_FRONTIER],
    frontier_len: u8,
    monasteries: [u8; 8],
    monasteries_len: u8,
    /// The slot the new tile takes; the meeples the move may return are restored from
    /// `meeples_on_board`.
    placed_slot: PlacedTile,
    placed_len: u8,
    meeples_on_board: [(SegmentNode, u8); 2 * MEEPLES_PER_PLAYER as usize],
    meeples_on_board_len: u8,
    supply: [u8; 2],
    scores: [i32; 2],
    score_by_kind: [[i32; 4]; 2],
    drawn: Option<super::TileKind>,
    to_move: u8,
    meeples_played: [u16; 2],
    turns_with_meeple_available: [u16; 2],
}

/// The frontier slots a move can write when the frontier has `len` squares.
fn frontier_written(len: u8) -> usize {
    (len as usize + 4).min(MAX_FRONTIER)
}

impl GameState {
    /// Plays the drawn tile as `mv`, legal here, without the legality check, and returns what
    /// [`GameState::take_back_trial`] needs to make this state what it was, byte for byte.
    pub(super) fn try_move(&mut self, mv: Move) -> TrialSave {
        let save = self.save_for_trial(mv.x, mv.y);
        let kind = self.drawn.expect("a trial move is played at a decision");
        self.apply_unchecked(kind, mv);
        save
    }

    /// Makes this state what it was before the trial that returned `save`.
    pub(super) fn take_back_trial(&mut self, save: &TrialSave) {
        for saved in save.nodes[..save.nodes_len].iter().rev() {
            self.features.restore_node(saved);
        }
        let (x, y) = (
            self.placed[save.placed_len as usize].x,
            self.placed[save.placed_len as usize].y,
        );
        self.cell_tile[save.cell] = save.cell_tile;
        self.cell_need[save.cell] = save.cell_need[0];
        for (i, (dx, dy)) in STEPS.into_iter().enumerate() {
            self.cell_need[cell(x + dx, y + dy)] = save.cell_need[i + 1];
        }
        let written = frontier_written(save.frontier_len);
        self.frontier[..written].copy_from_slice(&save.frontier[..written]);
        self.frontier_len = save.frontier_len;
        self.monasteries = save.monasteries;
        self.monasteries_len = save.monasteries_len;
        self.placed[save.placed_len as usize] = save.placed_slot;
        self.placed_len = save.placed_len;
        self.meeples_on_board = save.meeples_on_board;
        self.meeples_on_board_len = save.meeples_on_board_len;
        for &(node, player) in &save.meeples_on_board[..save.meeples_on_board_len as usize] {
            let segment = Features::segment_of(node) as u8;
            self.placed[Features::placement_of(node)].meeple = Some((segment, player));
        }
        self.supply = save.supply;
        self.scores = save.scores;
        self.score_by_kind = save.score_by_kind;
        self.drawn = save.drawn;
        self.to_move = save.to_move;
        self.meeples_played = save.meeples_played;
        self.turns_with_meeple_available = save.turns_with_meeple_available;
    }

    /// Saves what laying a tile at (x, y) and scoring it can write. Of the union-find, that is
    /// the new tile's nodes, the roots of the features of the four neighbours' facing
    /// segments (the only roots a join, a close, a meeple or a completion touches) and the
    /// monasteries around: a few dozen nodes instead of every node laid so far. Nothing else
    /// (the hidden tiles, the discards, the rules) changes on a move.
    fn save_for_trial(&self, x: i8, y: i8) -> TrialSave {
        let f = &self.features;
        let p = self.placed_len as usize;
        let mut nodes = [SavedNode::NONE; NODES_A_MOVE_WRITES];
        let mut n = 0;
        let mut save_node = |node: SegmentNode| {
            nodes[n] = f.save_node(node);
            n += 1;
        };
        for segment in 0..MAX_SEGMENTS {
            save_node(Features::node(p, segment));
        }
        for (side, &(dx, dy)) in STEPS.iter().enumerate() {
            let q = self.cell_tile[cell(x + dx, y + dy)];
            if q == EMPTY {
                continue;
            }
            let theirs = self.rotated_of(q as usize);
            for port in [side, 4 + 2 * side, 5 + 2 * side] {
                let other = theirs.port_segment[facing_port(port)];
                if other != NO_SEGMENT {
                    save_node(f.find(Features::node(q as usize, other as usize)));
                }
            }
        }
        for i in 0..self.monasteries_len as usize {
            if let Some(node) = self.monastery_node_near(self.monasteries[i] as usize, x, y) {
                save_node(node);
            }
        }
        let c = cell(x, y);
        let mut cell_need = [self.cell_need[c]; 5];
        for (i, (dx, dy)) in STEPS.into_iter().enumerate() {
            cell_need[i + 1] = self.cell_need[cell(x + dx, y + dy)];
        }
        let mut frontier = [self.frontier[0]; MAX_FRONTIER];
        let written = frontier_written(self.frontier_len);
        frontier[..written].copy_from_slice(&self.frontier[..written]);
        TrialSave {
            nodes,
            nodes_len: n,
            cell: c,
            cell_tile: self.cell_tile[c],
            cell_need,
            frontier,
            frontier_len: self.frontier_len,
            monasteries: self.monasteries,
            monasteries_len: self.monasteries_len,
            placed_slot: self.placed[self.placed_len as usize],
            placed_len: self.placed_len,
            meeples_on_board: self.meeples_on_board,
            meeples_on_board_len: self.meeples_on_board_len,
            supply: self.supply,
            scores: self.scores,
            score_by_kind: self.score_by_kind,
            drawn: self.drawn,
            to_move: self.to_move,
            meeples_played: self.meeples_played,
            turns_with_meeple_available: self.turns_with_meeple_available,
        }
    }
}
