//! Move generation: where a drawn tile fits, which meeple placements each fit allows, the
//! legal moves in a deterministic order, uniformly random moves, and the legality check of
//! a proposed move. Reads the state; changes nothing.

use super::features::Features;
use super::state::{cell, FrontierSquare, GameState, EMPTY, MAX_FRONTIER, STEPS};
use super::tiles::{facing_port, tables, TileKind, NO_SEGMENT};
use super::types::{GameError, Move, Placement};
use rand::Rng;

impl GameState {
    /// Rotations of `kind` that fit on frontier square `i`, as a bit mask.
    #[inline]
    pub(super) fn fits_at(&self, kind: TileKind, i: usize) -> u8 {
        tables().fits[kind.index()][self.cell_need[self.frontier[i].cell as usize] as usize]
    }

    #[inline]
    pub(super) fn frontier(&self) -> &[FrontierSquare] {
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
    pub(super) fn for_each_placement(&self, kind: TileKind, mut f: impl FnMut(Placement)) {
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
    pub(super) fn occupied_segments(&self, kind: TileKind, p: Placement) -> u8 {
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
}
