//! The state of a two-player game as a controller may see it: the board, features, scores,
//! meeple supplies, the tile just drawn and the multiset of tiles still hidden — never their
//! order, which only the referee's `TileStack` holds.
//!
//! The board is an 80×80 torus of cells. Every tile of a game lies within 72 squares of the
//! start in each direction, and the occupied squares plus their free neighbours never span more
//! than 74 columns or rows, so no two of them share a torus cell: the wrap never aliases, and
//! the board is a fixed-size array (cloning a state is one copy, and nothing allocates).
//! True coordinates, relative to the start tile at (0, 0), are what moves and records carry.

use super::features::{Features, SegmentNode, MAX_TILES};
use super::tiles::{facing_port, tables, FeatureKind, Rotated, TileKind, NO_SEGMENT};
use super::types::{GameError, Move, PlacedTile, Reveal, Rules, Unplaceable, MEEPLES_PER_PLAYER};
use rand::Rng;
use std::fmt;

pub(super) const GRID: usize = 80;
pub(super) const CELLS: usize = GRID * GRID;
pub(super) const EMPTY: u8 = u8::MAX;
/// Free squares next to the board: at most two per tile plus two.
pub(super) const MAX_FRONTIER: usize = 2 * MAX_TILES + 4;
/// Unit steps N, E, S, W (y grows to the south).
pub(super) const STEPS: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

#[inline]
pub(super) fn wrap(v: i8) -> usize {
    let v = v as i32 + GRID as i32;
    (if v >= GRID as i32 * 2 {
        v - 2 * GRID as i32
    } else if v >= GRID as i32 {
        v - GRID as i32
    } else {
        v
    }) as usize
}

#[inline]
pub(super) fn cell(x: i8, y: i8) -> usize {
    wrap(y) * GRID + wrap(x)
}

/// A free square next to the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct FrontierSquare {
    pub(super) x: i8,
    pub(super) y: i8,
    pub(super) cell: u16,
}

/// Equal states hold the same bytes in every field, unused array slots included: what a
/// trial move and its take-back must leave (`game::trial`).
#[derive(PartialEq, Eq)]
pub struct GameState {
    pub(super) rules: Rules,
    /// Index into `placed` of the tile on each cell, or `EMPTY`.
    pub(super) cell_tile: [u8; CELLS],
    /// For an empty cell, the edges its neighbours demand: 2 bits per side as in
    /// `Rotated::edge_code`, 0 where there is no neighbour. Non-zero exactly on the frontier.
    pub(super) cell_need: [u8; CELLS],
    pub(super) frontier: [FrontierSquare; MAX_FRONTIER],
    pub(super) frontier_len: u8,
    /// Placement indices of the monastery tiles on the board (six in the box).
    pub(super) monasteries: [u8; 8],
    pub(super) monasteries_len: u8,
    pub(super) placed: [PlacedTile; MAX_TILES],
    pub(super) placed_len: u8,
    pub(super) features: Features,
    /// Meeples on the board: (segment node, player).
    pub(super) meeples_on_board: [(SegmentNode, u8); 2 * MEEPLES_PER_PLAYER as usize],
    pub(super) meeples_on_board_len: u8,
    pub(super) supply: [u8; 2],
    pub(super) scores: [i32; 2],
    pub(super) score_by_kind: [[i32; 4]; 2],
    pub(super) hidden: [u8; TileKind::COUNT],
    pub(super) hidden_total: u8,
    pub(super) drawn: Option<TileKind>,
    pub(super) to_move: u8,
    pub(super) discards: u8,
    pub(super) meeples_played: [u16; 2],
    pub(super) turns_with_meeple_available: [u16; 2],
    pub(super) finished: bool,
}

/// Every field is plain data, so a clone is one copy. Not `Copy`: a state is large and should
/// only be copied where a clone says so. `clone_from` copies straight into `self` (the searches'
/// pooled states), never through a temporary.
impl Clone for GameState {
    #[inline]
    fn clone(&self) -> Self {
        GameState { ..*self }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        *self = GameState { ..*source };
    }
}

impl GameState {
    /// A new game: the start tile D at (0, 0), 71 tiles hidden, player 0 to draw.
    pub fn new(rules: Rules) -> GameState {
        let start = PlacedTile {
            kind: TileKind::D,
            x: 0,
            y: 0,
            rotation: 0,
            meeple: None,
        };
        let mut hidden = [0u8; TileKind::COUNT];
        for k in TileKind::ALL {
            hidden[k.index()] = k.count_in_box();
        }
        hidden[TileKind::D.index()] -= 1;
        let mut state = GameState {
            rules,
            cell_tile: [EMPTY; CELLS],
            cell_need: [0; CELLS],
            frontier: [FrontierSquare {
                x: 0,
                y: 0,
                cell: 0,
            }; MAX_FRONTIER],
            frontier_len: 0,
            monasteries: [0; 8],
            monasteries_len: 0,
            placed: [start; MAX_TILES],
            placed_len: 0,
            features: Features::new(),
            meeples_on_board: [(0, 0); 2 * MEEPLES_PER_PLAYER as usize],
            meeples_on_board_len: 0,
            supply: [MEEPLES_PER_PLAYER; 2],
            scores: [0; 2],
            score_by_kind: [[0; 4]; 2],
            hidden,
            hidden_total: hidden.iter().sum(),
            drawn: None,
            to_move: 0,
            discards: 0,
            meeples_played: [0; 2],
            turns_with_meeple_available: [0; 2],
            finished: false,
        };
        state.lay_tile(TileKind::D, 0, 0, 0);
        state
    }

    // ----- what a controller may read -----

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player (0 or 1) who places the drawn tile.
    #[inline]
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    #[inline]
    pub fn drawn(&self) -> Option<TileKind> {
        self.drawn
    }

    /// How many tiles of each type are still hidden (the drawn tile is not among them).
    #[inline]
    pub fn hidden_counts(&self) -> &[u8; TileKind::COUNT] {
        &self.hidden
    }

    #[inline]
    pub fn hidden_total(&self) -> usize {
        self.hidden_total as usize
    }

    /// A tile type drawn at random from what is hidden, weighted by the counts: how a searcher
    /// samples the future without knowing the stack.
    pub fn sample_hidden<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<TileKind> {
        if self.hidden_total == 0 {
            return None;
        }
        let mut k = rng.gen_range(0..self.hidden_total as u32) as i32;
        for (i, &c) in self.hidden.iter().enumerate() {
            k -= c as i32;
            if k < 0 {
                return Some(TileKind::from_index(i));
            }
        }
        unreachable!("hidden_total is the sum of hidden counts")
    }

    /// Tiles on the board, in the order they were laid (the start tile first).
    pub fn placed_tiles(&self) -> &[PlacedTile] {
        &self.placed[..self.placed_len as usize]
    }

    /// Turns played so far (tiles laid after the start tile).
    pub fn turns_played(&self) -> usize {
        self.placed_len as usize - 1
    }

    /// Points scored so far (after `finish`, the final scores).
    pub fn scores(&self) -> [i32; 2] {
        self.scores
    }

    /// Points of each player by feature kind, indexed by `FeatureKind as usize`.
    pub fn score_by_kind(&self) -> [[i32; 4]; 2] {
        self.score_by_kind
    }

    pub fn supply(&self, player: usize) -> u8 {
        self.supply[player]
    }

    pub fn discards(&self) -> usize {
        self.discards as usize
    }

    pub fn meeples_played(&self) -> [u16; 2] {
        self.meeples_played
    }

    pub fn turns_with_meeple_available(&self) -> [u16; 2] {
        self.turns_with_meeple_available
    }

    /// No tile hidden and none waiting: only the end-of-game scoring remains.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.hidden_total == 0 && self.drawn.is_none()
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The features, for scoring and rendering.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// The tile at true coordinates (x, y), if any.
    pub fn tile_at(&self, x: i8, y: i8) -> Option<&PlacedTile> {
        if !(-74..=74).contains(&x) || !(-74..=74).contains(&y) {
            return None;
        }
        let t = self.cell_tile[cell(x, y)];
        (t != EMPTY)
            .then(|| &self.placed[t as usize])
            .filter(|p| p.x == x && p.y == y)
    }

    /// The feature node of segment `segment` of the `placement`-th tile laid.
    pub fn node_of(placement: usize, segment: usize) -> SegmentNode {
        Features::node(placement, segment)
    }

    #[inline]
    pub(super) fn rotated_of(&self, p: usize) -> &'static Rotated {
        let t = &self.placed[p];
        &tables().rotated[t.kind.index()][t.rotation as usize]
    }

    // ----- chance -----

    /// Draws `kind` from the hidden tiles. If it fits nowhere, the rules decide what happens to
    /// it and the same player draws again.
    pub fn reveal(&mut self, kind: TileKind) -> Result<Reveal, GameError> {
        if self.finished {
            return Err(GameError::GameOver);
        }
        if self.drawn.is_some() {
            return Err(GameError::AlreadyDrawn);
        }
        if self.hidden[kind.index()] == 0 {
            return Err(GameError::NotHidden(kind));
        }
        self.hidden[kind.index()] -= 1;
        self.hidden_total -= 1;
        if self.has_placement(kind) {
            self.drawn = Some(kind);
            return Ok(Reveal::Ready);
        }
        match self.rules.unplaceable {
            Unplaceable::Discard => {
                self.discards += 1;
                Ok(Reveal::Discarded)
            }
            Unplaceable::BottomOfStack => {
                self.hidden[kind.index()] += 1;
                self.hidden_total += 1;
                Ok(Reveal::ReturnedToBottom)
            }
        }
    }

    /// Whether any hidden tile fits somewhere (the bottom-of-stack variant ends the game when
    /// none does, see `discard_unplaceable_rest`).
    pub fn any_hidden_placeable(&self) -> bool {
        TileKind::ALL
            .iter()
            .any(|&k| self.hidden[k.index()] > 0 && self.has_placement(k))
    }

    /// Removes every hidden tile: the way out of the bottom-of-stack variant when no hidden
    /// tile fits anywhere (otherwise the stack would cycle forever).
    pub fn discard_unplaceable_rest(&mut self) {
        self.discards += self.hidden_total;
        self.hidden = [0; TileKind::COUNT];
        self.hidden_total = 0;
    }

    // ----- playing -----

    /// Plays `mv` for the player to move: lays the drawn tile, places the meeple, scores what
    /// the tile completed and passes the turn.
    pub fn apply(&mut self, mv: Move) -> Result<(), GameError> {
        let kind = self.check_move(mv)?;
        self.apply_unchecked(kind, mv);
        Ok(())
    }

    /// `apply` without the legality check, for moves the engine generated itself.
    #[inline]
    pub(crate) fn apply_unchecked(&mut self, kind: TileKind, mv: Move) {
        let player = self.to_move as usize;
        if self.supply[player] > 0 {
            self.turns_with_meeple_available[player] += 1;
        }
        let p = self.lay_tile(kind, mv.x, mv.y, mv.rotation);
        if let Some(s) = mv.meeple {
            let node = Features::node(p, s as usize);
            let root = self.features.find(node);
            self.features.add_meeple(root, player);
            self.supply[player] -= 1;
            self.meeples_played[player] += 1;
            self.placed[p].meeple = Some((s, player as u8));
            self.meeples_on_board[self.meeples_on_board_len as usize] = (node, player as u8);
            self.meeples_on_board_len += 1;
        }
        self.score_completed(p);
        self.drawn = None;
        self.to_move ^= 1;
    }

    /// Lays a tile (already known to fit) and joins its segments to the neighbours' features.
    /// Returns its placement index.
    pub(super) fn lay_tile(&mut self, kind: TileKind, x: i8, y: i8, rotation: u8) -> usize {
        let p = self.placed_len as usize;
        self.placed[p] = PlacedTile {
            kind,
            x,
            y,
            rotation,
            meeple: None,
        };
        self.placed_len += 1;
        let def = kind.def();
        let rot = &tables().rotated[kind.index()][rotation as usize];
        let c = cell(x, y);
        self.cell_tile[c] = p as u8;
        if let Some(i) = self.frontier().iter().position(|f| f.cell as usize == c) {
            self.frontier_len -= 1;
            self.frontier[i] = self.frontier[self.frontier_len as usize];
        }

        for (i, seg) in def.segments.iter().enumerate() {
            let open = if seg.kind == FeatureKind::Monastery {
                8 - self.neighbours_present(x, y)
            } else {
                seg.open_ends()
            };
            self.features
                .init(Features::node(p, i), seg.kind, open, seg.pennants);
        }

        for (side, &(dx, dy)) in STEPS.iter().enumerate() {
            let (nx, ny) = (x + dx, y + dy);
            let nc = cell(nx, ny);
            let q = self.cell_tile[nc];
            if q == EMPTY {
                if self.cell_need[nc] == 0 {
                    self.frontier[self.frontier_len as usize] = FrontierSquare {
                        x: nx,
                        y: ny,
                        cell: nc as u16,
                    };
                    self.frontier_len += 1;
                }
                let edge = (rot.edge_code >> (2 * side)) & 3;
                self.cell_need[nc] |= edge << (2 * ((side + 2) % 4));
                continue;
            }
            let theirs = self.rotated_of(q as usize);
            for port in [side, 4 + 2 * side, 5 + 2 * side] {
                let mine = rot.port_segment[port];
                if mine == NO_SEGMENT {
                    continue;
                }
                let other = theirs.port_segment[facing_port(port)];
                let root = self.features.union(
                    Features::node(p, mine as usize),
                    Features::node(q as usize, other as usize),
                );
                if port < 4 {
                    self.features.close(root, 2);
                }
            }
        }

        // The new tile is a neighbour of every monastery around it.
        for i in 0..self.monasteries_len as usize {
            let q = self.monasteries[i] as usize;
            if let Some(node) = self.monastery_node_near(q, x, y) {
                self.features.close(node, 1);
            }
        }
        if def.monastery_segment().is_some() {
            self.monasteries[self.monasteries_len as usize] = p as u8;
            self.monasteries_len += 1;
        }
        p
    }

    /// The monastery node of placement `q` if that tile is one of the eight neighbours of
    /// (x, y).
    #[inline]
    pub(super) fn monastery_node_near(&self, q: usize, x: i8, y: i8) -> Option<SegmentNode> {
        let t = &self.placed[q];
        let near = (t.x - x).abs() <= 1 && (t.y - y).abs() <= 1 && (t.x, t.y) != (x, y);
        let m = t.kind.def().monastery_segment()?;
        near.then(|| Features::node(q, m as usize))
    }

    pub(super) fn neighbours_present(&self, x: i8, y: i8) -> u8 {
        let mut n = 0;
        for dy in -1i8..=1 {
            for dx in -1i8..=1 {
                if (dx, dy) != (0, 0) && self.cell_tile[cell(x + dx, y + dy)] != EMPTY {
                    n += 1;
                }
            }
        }
        n
    }
}

impl fmt::Debug for GameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameState")
            .field("turns_played", &self.turns_played())
            .field("to_move", &self.to_move)
            .field("drawn", &self.drawn)
            .field("scores", &self.scores)
            .field("supply", &self.supply)
            .field("hidden_total", &self.hidden_total)
            .finish()
    }
}
