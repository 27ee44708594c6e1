//! The state of a two-player game as a controller may see it: the board, features, scores,
//! meeple supplies, the tile just drawn and the multiset of tiles still hidden — never their
//! order, which only the referee's `TileStack` holds.
//!
//! The board is an 80×80 torus of cells. Every tile of a game lies within 72 squares of the
//! start in each direction, and the occupied squares plus their free neighbours never span more
//! than 74 columns or rows, so no two of them share a torus cell: the wrap never aliases, and
//! the board is a fixed-size array (cloning a state is one copy, and nothing allocates).
//! True coordinates, relative to the start tile at (0, 0), are what moves and records carry.

use super::features::{Features, NodeId, MAX_TILES};
use super::tiles::{facing_port, tables, FeatureKind, Rotated, TileKind, MAX_SEGMENTS, NO_SEGMENT};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

const GRID: usize = 80;
const CELLS: usize = GRID * GRID;
const EMPTY: u8 = u8::MAX;
/// Free squares next to the board: at most two per tile plus two.
const MAX_FRONTIER: usize = 2 * MAX_TILES + 4;
pub const MEEPLES_PER_PLAYER: u8 = 7;
/// Unit steps N, E, S, W (y grows to the south).
const STEPS: [(i8, i8); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// What happens to a drawn tile that fits nowhere.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unplaceable {
    /// Official rule: the tile leaves the game and the same player draws again.
    #[default]
    Discard,
    /// Ameneyro et al.: the tile goes back under the stack.
    BottomOfStack,
}

/// Rule options. The defaults are the current official rules.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Rules {
    pub unplaceable: Unplaceable,
    /// First-edition rule of Müller's engine: a completed city of two tiles scores 1 per tile
    /// and pennant instead of 2.
    pub two_tile_city_scores_two: bool,
}

/// Where a tile goes, without the meeple choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    pub x: i8,
    pub y: i8,
    /// Quarter turns clockwise.
    pub rotation: u8,
}

/// A complete turn: the drawn tile's placement and the meeple choice (a segment index of the
/// tile's definition, or none).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub x: i8,
    pub y: i8,
    pub rotation: u8,
    pub meeple: Option<u8>,
}

impl Move {
    pub fn placement(self) -> Placement {
        Placement {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
        }
    }

    pub fn with_meeple(p: Placement, meeple: Option<u8>) -> Move {
        Move {
            x: p.x,
            y: p.y,
            rotation: p.rotation,
            meeple,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{}) r{}", self.x, self.y, self.rotation)?;
        match self.meeple {
            Some(s) => write!(f, " meeple@{s}"),
            None => write!(f, " no meeple"),
        }
    }
}

/// A tile on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTile {
    pub kind: TileKind,
    pub x: i8,
    pub y: i8,
    pub rotation: u8,
    /// The meeple still standing on this tile: (segment, player).
    pub meeple: Option<(u8, u8)>,
}

/// The outcome of revealing a drawn tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reveal {
    /// The tile fits somewhere: the player to move now chooses a move.
    Ready,
    /// It fits nowhere and left the game; the same player draws again.
    Discarded,
    /// It fits nowhere and went back under the stack (bottom-of-stack variant).
    ReturnedToBottom,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over")]
    GameOver,
    #[error("a tile is already drawn and waits to be placed")]
    AlreadyDrawn,
    #[error("no tile has been drawn")]
    NothingDrawn,
    #[error("no tile of type {0} is hidden")]
    NotHidden(TileKind),
    #[error("illegal move {mv} for tile {tile}: {why}")]
    IllegalMove {
        mv: Move,
        tile: TileKind,
        why: &'static str,
    },
}

#[inline]
fn wrap(v: i8) -> usize {
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
fn cell(x: i8, y: i8) -> usize {
    wrap(y) * GRID + wrap(x)
}

/// A free square next to the board.
#[derive(Copy, Clone, Debug)]
struct FrontierSquare {
    x: i8,
    y: i8,
    cell: u16,
}

#[derive(Clone)]
pub struct GameState {
    rules: Rules,
    /// Index into `placed` of the tile on each cell, or `EMPTY`.
    cell_tile: [u8; CELLS],
    /// For an empty cell, the edges its neighbours demand: 2 bits per side as in
    /// `Rotated::edge_code`, 0 where there is no neighbour. Non-zero exactly on the frontier.
    cell_need: [u8; CELLS],
    frontier: [FrontierSquare; MAX_FRONTIER],
    frontier_len: u8,
    /// Placement indices of the monastery tiles on the board (six in the box).
    monasteries: [u8; 8],
    monasteries_len: u8,
    placed: [PlacedTile; MAX_TILES],
    placed_len: u8,
    features: Features,
    /// Meeples on the board: (segment node, player).
    meeples_on_board: [(NodeId, u8); 2 * MEEPLES_PER_PLAYER as usize],
    meeples_on_board_len: u8,
    supply: [u8; 2],
    scores: [i32; 2],
    score_by_kind: [[i32; 4]; 2],
    hidden: [u8; TileKind::COUNT],
    hidden_total: u8,
    drawn: Option<TileKind>,
    to_move: u8,
    discards: u8,
    meeples_played: [u16; 2],
    turns_with_meeple_available: [u16; 2],
    finished: bool,
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
    pub fn node_of(placement: usize, segment: usize) -> NodeId {
        Features::node(placement, segment)
    }

    #[inline]
    fn rotated_of(&self, p: usize) -> &'static Rotated {
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

    /// Draws a tile sampled from the hidden ones, applying the unplaceable-tile rule, until a
    /// tile is ready or the stack is empty. Returns the drawn tile. Used by searchers.
    pub fn reveal_sampled<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Option<TileKind> {
        let mut returned = 0usize;
        while let Some(kind) = self.sample_hidden(rng) {
            match self.reveal(kind).expect("sampled tile is hidden") {
                Reveal::Ready => return Some(kind),
                Reveal::Discarded => {}
                Reveal::ReturnedToBottom => {
                    returned += 1;
                    if returned > 4 * self.hidden_total() && !self.any_hidden_placeable() {
                        self.discard_unplaceable_rest();
                    }
                }
            }
        }
        None
    }

    // ----- move generation -----

    /// Rotations of `kind` that fit on frontier square `i`, as a bit mask.
    #[inline]
    fn fits_at(&self, kind: TileKind, i: usize) -> u8 {
        tables().fits[kind.index()][self.cell_need[self.frontier[i].cell as usize] as usize]
    }

    #[inline]
    fn frontier(&self) -> &[FrontierSquare] {
        &self.frontier[..self.frontier_len as usize]
    }

    /// Whether the tile fits anywhere (stops at the first fit).
    pub fn has_placement(&self, kind: TileKind) -> bool {
        let fits = &tables().fits[kind.index()];
        self.frontier()
            .iter()
            .any(|f| fits[self.cell_need[f.cell as usize] as usize] != 0)
    }

    /// How many placements the tile has (symmetric rotations counted once).
    pub fn placement_count(&self, kind: TileKind) -> usize {
        let fits = &tables().fits[kind.index()];
        self.frontier()
            .iter()
            .map(|f| fits[self.cell_need[f.cell as usize] as usize].count_ones() as usize)
            .sum()
    }

    /// Calls `f` with every placement of `kind`, in a deterministic order (frontier squares in
    /// the order they joined the frontier, rotations ascending).
    #[inline]
    fn for_each_placement(&self, kind: TileKind, mut f: impl FnMut(Placement)) {
        for i in 0..self.frontier_len as usize {
            let mut mask = self.fits_at(kind, i);
            let FrontierSquare { x, y, .. } = self.frontier[i];
            while mask != 0 {
                let rotation = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                f(Placement { x, y, rotation });
            }
        }
    }

    /// Every placement of `kind`, in a deterministic order.
    pub fn placements(&self, kind: TileKind, out: &mut Vec<Placement>) {
        out.clear();
        self.for_each_placement(kind, |p| out.push(p));
    }

    /// Segments of `kind` at `p` whose feature, once the tile joins its neighbours, already
    /// holds a meeple (bit i = segment i).
    fn occupied_segments(&self, kind: TileKind, p: Placement) -> u8 {
        let rot = &tables().rotated[kind.index()][p.rotation as usize];
        let mut occupied = 0u8;
        for (side, &(dx, dy)) in STEPS.iter().enumerate() {
            let q = self.cell_tile[cell(p.x + dx, p.y + dy)];
            if q == EMPTY {
                continue;
            }
            let theirs = self.rotated_of(q as usize);
            for port in [side, 4 + 2 * side, 5 + 2 * side] {
                let mine = rot.port_segment[port];
                if mine == NO_SEGMENT || occupied & (1 << mine) != 0 {
                    continue;
                }
                let other = theirs.port_segment[facing_port(port)];
                if self
                    .features
                    .is_occupied(Features::node(q as usize, other as usize))
                {
                    occupied |= 1 << mine;
                }
            }
        }
        occupied
    }

    /// Segments of the drawn tile at `p` that may take a meeple of the player to move (bit i =
    /// segment i); 0 when the supply is empty.
    pub fn meeple_options(&self, kind: TileKind, p: Placement) -> u8 {
        if self.supply[self.to_move as usize] == 0 {
            return 0;
        }
        let all = ((1u16 << kind.def().segments.len()) - 1) as u8;
        all & !self.occupied_segments(kind, p)
    }

    /// Every legal move for the drawn tile: each placement without a meeple, then with a meeple
    /// on each free segment. Empty when no tile is drawn.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let Some(kind) = self.drawn else { return };
        self.for_each_placement(kind, |p| {
            out.push(Move::with_meeple(p, None));
            let mut options = self.meeple_options(kind, p);
            while options != 0 {
                let s = options.trailing_zeros() as u8;
                options &= options - 1;
                out.push(Move::with_meeple(p, Some(s)));
            }
        });
    }

    /// A placement of the drawn tile uniformly among all placements, then a meeple option
    /// uniformly among the options including none: the random player of the benchmarks.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let kind = self.drawn?;
        let fits = &tables().fits[kind.index()];
        let frontier = self.frontier();
        // One pass to count, keeping each square's fitting rotations for the second.
        let mut masks = [0u8; MAX_FRONTIER];
        let mut total = 0u32;
        for (m, f) in masks.iter_mut().zip(frontier) {
            *m = fits[self.cell_need[f.cell as usize] as usize];
            total += m.count_ones();
        }
        if total == 0 {
            return None;
        }
        let mut k = rng.gen_range(0..total);
        for (&mask, f) in masks.iter().zip(frontier) {
            let mut mask = mask;
            let n = mask.count_ones();
            if k >= n {
                k -= n;
                continue;
            }
            let (x, y) = (f.x, f.y);
            for _ in 0..k {
                mask &= mask - 1;
            }
            let p = Placement {
                x,
                y,
                rotation: mask.trailing_zeros() as u8,
            };
            let mut options = self.meeple_options(kind, p);
            let n_options = options.count_ones() + 1;
            let pick = rng.gen_range(0..n_options);
            if pick == 0 {
                return Some(Move::with_meeple(p, None));
            }
            for _ in 1..pick {
                options &= options - 1;
            }
            return Some(Move::with_meeple(p, Some(options.trailing_zeros() as u8)));
        }
        unreachable!("k < total")
    }

    /// Whether `mv` is legal for the drawn tile; the reason when it is not.
    pub fn check_move(&self, mv: Move) -> Result<TileKind, GameError> {
        let kind = self.drawn.ok_or(if self.is_over() {
            GameError::GameOver
        } else {
            GameError::NothingDrawn
        })?;
        let illegal = |why| {
            Err(GameError::IllegalMove {
                mv,
                tile: kind,
                why,
            })
        };
        if mv.rotation >= 4 {
            return illegal("rotation must be 0..=3");
        }
        let Some(i) = self
            .frontier()
            .iter()
            .position(|f| (f.x, f.y) == (mv.x, mv.y))
        else {
            return illegal("the square is not free and next to the board");
        };
        if self.fits_at(kind, i) & (1 << mv.rotation) == 0 {
            return illegal("the edges do not match (or the rotation repeats a symmetric one)");
        }
        if let Some(s) = mv.meeple {
            if s as usize >= kind.def().segments.len() {
                return illegal("the tile has no such segment");
            }
            if self.supply[self.to_move as usize] == 0 {
                return illegal("no meeple left in supply");
            }
            if self.occupied_segments(kind, mv.placement()) & (1 << s) != 0 {
                return illegal("the feature already holds a meeple");
            }
        }
        Ok(kind)
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
    fn lay_tile(&mut self, kind: TileKind, x: i8, y: i8, rotation: u8) -> usize {
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
    fn monastery_node_near(&self, q: usize, x: i8, y: i8) -> Option<NodeId> {
        let t = &self.placed[q];
        let near = (t.x - x).abs() <= 1 && (t.y - y).abs() <= 1 && (t.x, t.y) != (x, y);
        let m = t.kind.def().monastery_segment()?;
        near.then(|| Features::node(q, m as usize))
    }

    fn neighbours_present(&self, x: i8, y: i8) -> u8 {
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

    /// Scores every feature the tile at placement `p` completed: its cities and roads, its own
    /// monastery and the monasteries around it.
    fn score_completed(&mut self, p: usize) {
        let (kind, x, y) = {
            let t = &self.placed[p];
            (t.kind, t.x, t.y)
        };
        let mut done: [NodeId; MAX_SEGMENTS] = [0; MAX_SEGMENTS];
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
    fn score_on_completion(&mut self, root: NodeId) {
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

    fn award(&mut self, meeples: [u8; 2], kind: FeatureKind, points: i32) {
        let top = meeples[0].max(meeples[1]);
        for (player, &m) in meeples.iter().enumerate() {
            if m == top {
                self.scores[player] += points;
                self.score_by_kind[player][kind as usize] += points;
            }
        }
    }

    /// Points of a feature completed during play.
    fn completed_value(&self, root: NodeId) -> i32 {
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
    pub fn end_value(&self, root: NodeId) -> i32 {
        let f = &self.features;
        match f.kind(root) {
            FeatureKind::Road => f.tile_count(root) as i32,
            FeatureKind::City if f.open(root) == 0 => self.completed_value(root),
            FeatureKind::City => f.tile_count(root) as i32 + f.pennants(root) as i32,
            FeatureKind::Monastery => 1 + (8 - f.open(root) as i32),
            FeatureKind::Field => {
                let mut cities: [NodeId; 64] = [0; 64];
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
    fn occupied_features(&self) -> ([(NodeId, [u8; 2]); 14], usize) {
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

    /// Plays the game to its end with random moves and tiles sampled from the hidden ones, then
    /// scores it: a rollout.
    pub fn play_out_randomly<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        loop {
            if self.drawn.is_none() && self.reveal_sampled(rng).is_none() {
                break;
            }
            let kind = self.drawn.expect("a tile is drawn");
            let mv = self.random_move(rng).expect("a revealed tile fits");
            self.apply_unchecked(kind, mv);
        }
        self.finish();
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
