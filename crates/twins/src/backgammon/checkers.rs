//! The checkers of a backgammon position and OpenSpiel's checker moves, and a set of action
//! ids: what the legal moves are generated with, without allocating.

use super::{BackgammonMove, BAR_DIGIT, DISTINCT_ACTIONS, POINTS};

/// The checkers: on the points, on the bar and borne off, per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Checkers {
    pub(super) points: [[u8; POINTS]; 2],
    pub(super) bar: [u8; 2],
    pub(super) off: [u8; 2],
}

/// Where the checker moves of one die go: at most one from the bar per die, or one per point.
pub(super) struct CheckerMoves {
    /// (starting digit, die).
    moves: [(u8, u8); 2 * POINTS],
    pub(super) len: usize,
}

impl CheckerMoves {
    fn new() -> Self {
        CheckerMoves {
            moves: [(0, 0); 2 * POINTS],
            len: 0,
        }
    }

    fn push(&mut self, from: u8, die: u8) {
        self.moves[self.len] = (from, die);
        self.len += 1;
    }

    pub(super) fn as_slice(&self) -> &[(u8, u8)] {
        &self.moves[..self.len]
    }
}

/// The point `die` pips on from `from` (a point or the bar) for `player`; `None` off the board.
pub(super) fn target(player: usize, from: u8, die: u8) -> Option<usize> {
    let die = i16::from(die);
    let to = match (player, from) {
        (0, BAR_DIGIT) => die - 1,
        (_, BAR_DIGIT) => 24 - die,
        (0, p) => i16::from(p) + die,
        (_, p) => i16::from(p) - die,
    };
    (0..POINTS as i16).contains(&to).then_some(to as usize)
}

impl Checkers {
    pub(super) fn start() -> Self {
        let mut points = [[0; POINTS]; 2];
        for (p, n) in [(0, 2), (11, 5), (16, 3), (18, 5)] {
            points[0][p] = n;
            points[1][POINTS - 1 - p] = n;
        }
        Checkers {
            points,
            bar: [0; 2],
            off: [0; 2],
        }
    }

    /// Whether all of `player`'s checkers are home or borne off.
    fn all_home(&self, player: usize) -> bool {
        let outside = if player == 0 { 0..18 } else { 6..POINTS };
        self.bar[player] == 0 && self.points[player][outside].iter().all(|&n| n == 0)
    }

    /// The home point with `player`'s checker furthest from off.
    fn furthest_home(&self, player: usize) -> Option<usize> {
        if player == 0 {
            (18..POINTS).find(|&p| self.points[0][p] > 0)
        } else {
            (0..6).rev().find(|&p| self.points[1][p] > 0)
        }
    }

    /// OpenSpiel's `LegalCheckerMoves`: the checker moves of `player` with each of `dice`
    /// (distinct values), bar first.
    pub(super) fn moves(&self, player: usize, dice: &[u8]) -> CheckerMoves {
        let opponent = &self.points[1 - player];
        let mut out = CheckerMoves::new();
        if self.bar[player] > 0 {
            for &die in dice {
                let to = target(player, BAR_DIGIT, die).expect("entry is on the board");
                if opponent[to] <= 1 {
                    out.push(BAR_DIGIT, die);
                }
            }
            return out;
        }
        let home = self.all_home(player);
        let furthest = if home {
            self.furthest_home(player)
        } else {
            None
        };
        for from in 0..POINTS {
            if self.points[player][from] == 0 {
                continue;
            }
            for &die in dice {
                let bears_off_legally = || {
                    let exact = if player == 0 {
                        from + usize::from(die) == POINTS
                    } else {
                        usize::from(die) == from + 1
                    };
                    home && (exact || furthest == Some(from))
                };
                match target(player, from as u8, die) {
                    Some(to) if opponent[to] <= 1 => out.push(from as u8, die),
                    None if bears_off_legally() => out.push(from as u8, die),
                    _ => {}
                }
            }
        }
        out
    }

    /// Moves one checker of `player` from `from` (a point or the bar) by `die`, hitting a lone
    /// opposing checker.
    pub(super) fn apply(&mut self, player: usize, from: u8, die: u8) {
        if from == BAR_DIGIT {
            self.bar[player] -= 1;
        } else {
            self.points[player][usize::from(from)] -= 1;
        }
        match target(player, from, die) {
            None => self.off[player] += 1,
            Some(to) => {
                self.points[player][to] += 1;
                let opponent = 1 - player;
                if self.points[opponent][to] == 1 {
                    self.points[opponent][to] = 0;
                    self.bar[opponent] += 1;
                }
            }
        }
    }
}

/// A set of action ids, one bit each.
#[derive(Clone, Copy)]
pub(super) struct ActionSet([u64; ACTION_WORDS]);

const ACTION_WORDS: usize = (DISTINCT_ACTIONS as usize).div_ceil(64);

impl ActionSet {
    pub(super) fn empty() -> Self {
        ActionSet([0; ACTION_WORDS])
    }

    pub(super) fn insert(&mut self, mv: BackgammonMove) {
        self.0[usize::from(mv.0 / 64)] |= 1 << (mv.0 % 64);
    }

    pub(super) fn contains(&self, mv: BackgammonMove) -> bool {
        mv.0 < DISTINCT_ACTIONS && self.0[usize::from(mv.0 / 64)] & (1 << (mv.0 % 64)) != 0
    }

    pub(super) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members, ascending.
    pub(super) fn iter(&self) -> impl Iterator<Item = BackgammonMove> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let bit = word.trailing_zeros();
                word &= word - 1;
                Some(BackgammonMove(i as u16 * 64 + bit as u16))
            })
        })
    }

    /// The `k`-th member, ascending.
    pub(super) fn nth(&self, mut k: usize) -> Option<BackgammonMove> {
        for (i, &word) in self.0.iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                let mut word = word;
                for _ in 0..k {
                    word &= word - 1;
                }
                return Some(BackgammonMove(i as u16 * 64 + word.trailing_zeros() as u16));
            }
            k -= n;
        }
        None
    }
}
