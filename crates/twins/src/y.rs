//! The game of Y, as OpenSpiel's `y`: two players place stones of their colour on the empty
//! cells of a triangle of hexagons, player 0 first. The first player whose stones join all
//! three sides of the triangle with one group wins (a corner cell lies on two sides). A full
//! board always holds such a group, so there is no draw.
//!
//! The triangle has `size` cells along each side (19 by default, OpenSpiel's `board_size`).
//! Cell (x, y) with x + y < size has OpenSpiel's action id `x + y * size` (the ids of the
//! cut-off corner, x + y ≥ size, are never legal), and touches the cells (x, y−1), (x+1, y−1),
//! (x+1, y), (x, y+1), (x−1, y+1) and (x−1, y) that are on the board. Its sides are x = 0,
//! y = 0 and x + y = size − 1.
//!
//! It has no chance events. The stones are bitboards (`[u64; 6]` per player, by action id);
//! groups are kept by a union-find in fixed arrays (parents, and the sides each group's root
//! reaches), joined as each stone is placed, so a win is found in a few steps and nothing is
//! allocated.
//!
//! Scores are 1 for the winner and 0 for the loser.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// The smallest board: one cell, on all three sides, so the first stone wins.
pub const MIN_SIZE: u8 = 1;

/// The largest board (OpenSpiel's default; the arrays are sized for it).
pub const MAX_SIZE: u8 = 19;

/// OpenSpiel's default `board_size`.
pub const DEFAULT_SIZE: u8 = 19;

/// Action ids of the largest board, the cut-off corner included.
const MAX_IDS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Words of a bitboard by action id.
const WORDS: usize = MAX_IDS.div_ceil(64);

/// A bitboard over action ids.
type Bits = [u64; WORDS];

/// All three sides, as the bits of [`side_bits`].
const ALL_SIDES: u8 = 0b111;

/// The rules of a game of Y: plain data, checked when built or read (`(size: 9)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedYRules")]
pub struct YRules {
    /// Cells along each side of the triangle (OpenSpiel's `board_size`):
    /// `MIN_SIZE..=MAX_SIZE`, 19 by default.
    pub size: u8,
}

impl Default for YRules {
    fn default() -> Self {
        YRules { size: DEFAULT_SIZE }
    }
}

impl YRules {
    /// Rules with the given size, or an error when it is out of range.
    pub fn new(size: u8) -> Result<Self, YError> {
        let rules = YRules { size };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), YError> {
        if (MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            Ok(())
        } else {
            Err(YError::InvalidSize { size: self.size })
        }
    }

    /// Cells of the triangle: size · (size + 1) / 2, the length of the longest game.
    pub fn cells(&self) -> usize {
        let s = usize::from(self.size);
        s * (s + 1) / 2
    }
}

/// `YRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedYRules {
    #[serde(default = "default_size")]
    size: u8,
}

fn default_size() -> u8 {
    DEFAULT_SIZE
}

impl TryFrom<UncheckedYRules> for YRules {
    type Error = YError;

    fn try_from(raw: UncheckedYRules) -> Result<Self, YError> {
        YRules::new(raw.size)
    }
}

/// A move: OpenSpiel's action id `x + y * size` of the cell. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct YMove(pub u16);

impl fmt::Display for YMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YError {
    #[error("size: expected a whole number from {MIN_SIZE} to {MAX_SIZE}, found {size}")]
    InvalidSize { size: u8 },
    #[error("action {action} is not a cell of a board of size {size}")]
    NotACell { action: u16, size: u8 },
    #[error("cell {action} is taken")]
    CellTaken { action: u16 },
    #[error("the game is over")]
    GameOver,
    #[error("Y has no chance events")]
    NoChanceEvents,
}

/// The sides cell (x, y) lies on: bit 0 for x = 0, bit 1 for y = 0, bit 2 for
/// x + y = size − 1.
fn side_bits(x: u16, y: u16, size: u16) -> u8 {
    u8::from(x == 0) | u8::from(y == 0) << 1 | u8::from(x + y == size - 1) << 2
}

/// The neighbour offsets, as OpenSpiel lists them (clockwise).
const NEIGHBOURS: [(i16, i16); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

/// A position: each player's stones, and the union-find of their groups.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct YState {
    rules: YRules,
    /// The action ids of the triangle's cells.
    board: Bits,
    stones: [Bits; 2],
    /// A stone's parent in its group's tree (itself at the root); meaningless on empty cells.
    parent: [u16; MAX_IDS],
    /// At a group's root: the sides the group touches.
    sides: [u8; MAX_IDS],
    /// Stones placed: decisions taken, and whose turn it is (player 0 after an even count).
    placed: u16,
    winner: Option<u8>,
}

impl Default for YState {
    fn default() -> Self {
        Self::new(YRules::default())
    }
}

impl YState {
    /// The empty board of `rules`, player 0 to move.
    pub fn new(rules: YRules) -> Self {
        let size = u16::from(rules.size);
        let mut board = [0; WORDS];
        for y in 0..size {
            for x in 0..size - y {
                set(&mut board, x + y * size);
            }
        }
        YState {
            rules,
            board,
            stones: [[0; WORDS]; 2],
            parent: [0; MAX_IDS],
            sides: [0; MAX_IDS],
            placed: 0,
            winner: None,
        }
    }

    /// The position after playing `actions` in turn from the start, or the first refusal.
    pub fn from_moves(rules: YRules, actions: &[u16]) -> Result<Self, YError> {
        let mut state = Self::new(rules);
        for &action in actions {
            state.apply_move(YMove(action))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> YRules {
        self.rules
    }

    /// The player whose group joined the three sides; `None` while the game goes on.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The player whose stone is on cell (x, y), if any.
    pub fn cell(&self, x: u8, y: u8) -> Option<usize> {
        if u16::from(x) + u16::from(y) >= u16::from(self.rules.size) {
            return None;
        }
        let id = u16::from(x) + u16::from(y) * u16::from(self.rules.size);
        (0..2).find(|&player| get(&self.stones[player], id))
    }

    /// The board for people, as OpenSpiel prints it without its last-move marks: column
    /// letters, then a row per line, numbered and shifted right, `O` player 0, `@` player 1,
    /// `.` empty.
    pub fn render(&self) -> String {
        let size = self.rules.size;
        let mut text = String::from(" ");
        for x in 0..size {
            text.push(' ');
            text.push(char::from(b'a' + x));
        }
        text.push('\n');
        for y in 0..size {
            let lead = usize::from(y) + usize::from(y + 1 < 10);
            text.extend(std::iter::repeat_n(' ', lead));
            text.push_str(&(u16::from(y) + 1).to_string());
            for x in 0..size - y {
                text.push(' ');
                text.push(match self.cell(x, y) {
                    Some(0) => 'O',
                    Some(_) => '@',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn empty(&self) -> Bits {
        let mut empty = self.board;
        for (w, e) in empty.iter_mut().enumerate() {
            *e &= !(self.stones[0][w] | self.stones[1][w]);
        }
        empty
    }

    /// The root of the group of stone `id`, halving the path on the way.
    fn root(&mut self, mut id: u16) -> u16 {
        while self.parent[usize::from(id)] != id {
            let grand = self.parent[usize::from(self.parent[usize::from(id)])];
            self.parent[usize::from(id)] = grand;
            id = grand;
        }
        id
    }

    /// Places a stone of the player to move on `id` and joins it to its neighbours' groups.
    fn place(&mut self, id: u16) {
        let player = usize::from(self.placed % 2);
        let size = u16::from(self.rules.size);
        let (x, y) = (id % size, id / size);
        set(&mut self.stones[player], id);
        self.parent[usize::from(id)] = id;
        let mut sides = side_bits(x, y, size);
        let root = id;
        for (dx, dy) in NEIGHBOURS {
            let (nx, ny) = (x as i16 + dx, y as i16 + dy);
            if nx < 0 || ny < 0 || nx + ny >= size as i16 {
                continue;
            }
            let neighbour = nx as u16 + ny as u16 * size;
            if !get(&self.stones[player], neighbour) {
                continue;
            }
            let other = self.root(neighbour);
            if other != root {
                sides |= self.sides[usize::from(other)];
                self.parent[usize::from(other)] = root;
            }
        }
        // The new stone is the root: its neighbours' roots now point to it.
        self.sides[usize::from(root)] = sides;
        self.placed += 1;
        if sides == ALL_SIDES {
            self.winner = Some(player as u8);
        }
    }
}

fn get(bits: &Bits, id: u16) -> bool {
    bits[usize::from(id / 64)] >> (id % 64) & 1 != 0
}

fn set(bits: &mut Bits, id: u16) {
    bits[usize::from(id / 64)] |= 1 << (id % 64);
}

/// The `k`-th (from 0) set bit of `bits`, which has more than `k`.
fn nth_set_bit(bits: &Bits, mut k: u32) -> u16 {
    for (w, &word) in bits.iter().enumerate() {
        let count = word.count_ones();
        if k < count {
            return (w * 64) as u16 + crate::bits::nth_set_bit(word, k) as u16;
        }
        k -= count;
    }
    unreachable!("fewer set bits than asked for")
}

impl fmt::Display for YState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for YState {
    type Move = YMove;
    type Error = YError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.placed % 2)
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    /// A group on all three sides ends the game; a full board always has one.
    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn turns_played(&self) -> usize {
        usize::from(self.placed)
    }

    /// The empty cells by ascending action id.
    fn legal_moves(&self, out: &mut Vec<YMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        for (w, mut word) in self.empty().into_iter().enumerate() {
            while word != 0 {
                out.push(YMove((w * 64) as u16 + word.trailing_zeros() as u16));
                word &= word - 1;
            }
        }
    }

    fn apply_move(&mut self, mv: YMove) -> Result<(), YError> {
        if self.is_over() {
            return Err(YError::GameOver);
        }
        let action = mv.0;
        if usize::from(action) >= MAX_IDS || !get(&self.board, action) {
            return Err(YError::NotACell {
                action,
                size: self.rules.size,
            });
        }
        if get(&self.stones[0], action) || get(&self.stones[1], action) {
            return Err(YError::CellTaken { action });
        }
        self.place(action);
        Ok(())
    }

    /// Uniform among the empty cells, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<YMove> {
        if self.is_over() {
            return None;
        }
        let empty = self.empty();
        let count: u32 = empty.iter().map(|w| w.count_ones()).sum();
        Some(YMove(nth_set_bit(&empty, rng.gen_range(0..count))))
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), YError> {
        Err(YError::NoChanceEvents)
    }

    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// Exactly one winner: Y has no draw.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 0.0] || scores == [0.0, 1.0] {
            Ok(())
        } else {
            Err("a game of Y has exactly one winner".into())
        }
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result: ±1 once a group joins the sides, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the action id.
    fn action_key(player: u8, _label: u8, mv: YMove) -> u32 {
        u32::from(player) * 1024 + u32::from(mv.0)
    }
}

/// OpenSpiel's `y` with `board_size`: action id = `x + y * size`; returns +1 to the winner
/// and −1 to the loser.
impl OpenSpielTwin for YState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "y",
            params: vec![(
                "board_size",
                OpenSpielParam::Int(i64::from(self.rules.size)),
            )],
        }
    }

    fn open_spiel_action(&self, mv: YMove) -> i64 {
        i64::from(mv.0)
    }

    fn open_spiel_outcome(&self, label: u8) -> i64 {
        i64::from(label)
    }

    fn open_spiel_returns(&self) -> [f64; 2] {
        let [a, b] = self.scores();
        [f64::from(a - b), f64::from(b - a)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evomcts_games::open_spiel_twin::trace;
    use rand::SeedableRng;

    fn rules(size: u8) -> YRules {
        YRules::new(size).unwrap()
    }

    /// The id of cell (x, y) on a board of `size`.
    fn at(x: u16, y: u16, size: u16) -> u16 {
        x + y * size
    }

    /// The move before the last left the game going; the last one won it for `player`.
    fn assert_won_by(size: u8, actions: &[u16], player: usize) {
        let (last, before) = actions.split_last().unwrap();
        let mut state = YState::from_moves(rules(size), before).unwrap();
        assert!(!state.is_over(), "over before the last move:\n{state}");
        assert_eq!(state.to_move(), player);
        state.apply_move(YMove(*last)).unwrap();
        assert_eq!(state.winner(), Some(player), "\n{state}");
        let mut moves = vec![YMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(state.random_move(&mut GameRng::seed_from_u64(0)), None);
        assert_eq!(state.evaluate(player, Evaluation::ScoreDifference), 1.0);
        let mut returns = [-1.0; 2];
        returns[player] = 1.0;
        assert_eq!(state.open_spiel_returns(), returns);
        assert_eq!(state.apply_move(YMove(0)), Err(YError::GameOver));
    }

    #[test]
    fn a_group_on_the_three_sides_wins() {
        // Size 4: player 0 along the side y = 0 (on x = 0 and, at (3, 0), on x + y = 3).
        let s = 4;
        let p0 = [at(0, 0, s), at(1, 0, s), at(2, 0, s), at(3, 0, s)];
        let p1 = [at(0, 1, s), at(1, 1, s), at(0, 2, s)];
        assert_won_by(4, &[p0[0], p1[0], p0[1], p1[1], p0[2], p1[2], p0[3]], 0);
        // Player 1 joins the sides with a bent chain through the middle: (0,2), (1,1),
        // (1,0) and (2,1) on the long side.
        let actions = [
            at(0, 0, s),
            at(1, 1, s),
            at(3, 0, s),
            at(0, 2, s),
            at(0, 3, s),
            at(1, 0, s),
            at(2, 0, s),
            at(2, 1, s),
        ];
        assert_won_by(4, &actions, 1);
    }

    #[test]
    fn two_groups_join_into_a_winner() {
        // Size 3: player 0 holds (0,0) (sides x = 0 and y = 0) and (0,2) (x = 0 and the long
        // side), then (0,1) joins them; player 1's (2,0) and (1,1) touch two sides only.
        let s = 3;
        let actions = [
            at(0, 0, s),
            at(2, 0, s),
            at(0, 2, s),
            at(1, 1, s),
            at(0, 1, s),
        ];
        assert_won_by(3, &actions, 0);
    }

    #[test]
    fn the_single_cell_board_is_won_by_the_first_stone() {
        assert_won_by(1, &[0], 0);
    }

    #[test]
    fn random_games_end_with_one_winner() {
        let mut rng = GameRng::seed_from_u64(5);
        for size in [2, 5, 10, 19] {
            for _ in 0..50 {
                let mut state = YState::new(rules(size));
                state.play_out_randomly(&mut rng);
                assert!(state.winner().is_some());
                assert!(state.turns_played() <= rules(size).cells());
                assert!(state.check_result(state.scores().map(f64::from)).is_ok());
            }
        }
        assert!(YState::new(rules(3)).check_result([0.0, 0.0]).is_err());
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let before = YState::from_moves(rules(5), &[6]).unwrap();
        let mut state = before.clone();
        assert_eq!(
            state.apply_move(YMove(6)),
            Err(YError::CellTaken { action: 6 })
        );
        // (4, 1) is in the cut-off corner of a board of size 5.
        assert_eq!(
            state.apply_move(YMove(9)).unwrap_err().to_string(),
            "action 9 is not a cell of a board of size 5"
        );
        assert!(state.apply_move(YMove(25)).is_err());
        assert!(state.apply_move(YMove(u16::MAX)).is_err());
        assert_eq!(state.apply_outcome(1), Err(YError::NoChanceEvents));
        assert_eq!(state, before);
    }

    #[test]
    fn legal_moves_are_the_triangle_cells_in_order() {
        let state = YState::from_moves(rules(3), &[1]).unwrap();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert_eq!(moves, [0, 2, 3, 4, 6].map(YMove));
        let mut rng = GameRng::seed_from_u64(2);
        let mut counts = [0; 9];
        for _ in 0..5000 {
            counts[usize::from(state.random_move(&mut rng).unwrap().0)] += 1;
        }
        for (id, &n) in counts.iter().enumerate() {
            if [0, 2, 3, 4, 6].contains(&id) {
                assert!((850..1150).contains(&n), "{counts:?}");
            } else {
                assert_eq!(n, 0);
            }
        }
        let default = YState::default();
        default.legal_moves(&mut moves);
        assert_eq!(moves.len(), 190);
        assert_eq!(moves.last(), Some(&YMove(18 * 19)));
    }

    #[test]
    fn rules_out_of_range_are_refused() {
        assert_eq!(
            YRules::new(0).unwrap_err().to_string(),
            "size: expected a whole number from 1 to 19, found 0"
        );
        assert!(YRules::new(20).is_err());
        let read: YRules = serde_json::from_str(r#"{"size": 7}"#).unwrap();
        assert_eq!(read, rules(7));
        assert_eq!(
            serde_json::from_str::<YRules>("{}").unwrap(),
            YRules::default()
        );
        assert!(serde_json::from_str::<YRules>(r#"{"size": 30}"#).is_err());
        assert!(serde_json::from_str::<YRules>(r#"{"board": 3}"#).is_err());
    }

    #[test]
    fn render_names_and_keys() {
        let state = YState::from_moves(rules(3), &[0, 4]).unwrap();
        assert_eq!(state.render(), "  a b c\n 1 O . .\n  2 . @\n   3 .\n");
        let name = state.open_spiel_name();
        assert_eq!(name.name, "y");
        assert_eq!(name.params, vec![("board_size", OpenSpielParam::Int(3))]);
        let keys: std::collections::HashSet<u32> = (0..2u8)
            .flat_map(|p| (0..361).map(move |a| YState::action_key(p, 0, YMove(a))))
            .collect();
        assert_eq!(keys.len(), 722);
    }

    #[test]
    fn traces_are_seeded_and_alternate() {
        let start = YState::new(rules(5));
        let t = trace(&start, 3).unwrap();
        assert_eq!(trace(&start, 3).unwrap(), t);
        for (i, step) in t.steps.iter().enumerate() {
            assert_eq!(step.player, (i % 2) as i64);
            assert_eq!(step.legal.len(), 15 - i);
        }
    }
}
