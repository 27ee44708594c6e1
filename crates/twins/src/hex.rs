//! Hex, as OpenSpiel's `hex`: two players place stones of their colour on the empty cells of a
//! rhombus of hexagons, player 0 (black, `x`) first. Black wins by joining the top row to the
//! bottom row with a chain of black stones, white (`o`) by joining the left column to the right
//! column; the first chain ends the game. A full board always holds exactly one chain, so
//! there is no draw.
//!
//! The board has `rows` rows of `columns` cells (11 by 11 by default, OpenSpiel's
//! `board_size`; `num_rows` and `num_cols` make it a rectangle). Cell `row * columns + column`
//! touches the cells above, above-right, right, below, below-left and left of it.
//!
//! With the swap rule (OpenSpiel's `swap`, off by default, square boards only), white's first
//! decision may instead be the swap: black's stone leaves the board and a white stone takes
//! the mirrored cell (row and column exchanged), and black moves next.
//!
//! It has no chance events. Stones are bitboards (`u128`, at most 11 by 11); each player's
//! stones already joined to each of its two edges are kept as bitboards too, grown by a flood
//! of the new stone's group when it reaches an edge, so a win is found without searching the
//! board.
//!
//! Scores are 1 for the winner and 0 for the loser.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// The fewest rows or columns a board may have: on one row (or column) OpenSpiel's hex lets
/// neither player win.
pub const MIN_SIDE: u8 = 2;

/// The most rows or columns a board may have (the stones fit in a `u128`).
pub const MAX_SIDE: u8 = 11;

/// OpenSpiel's default `board_size`.
pub const DEFAULT_SIZE: u8 = 11;

/// The rules of a game of Hex: plain data, checked when built or read. A spec writes a square
/// board as `(size: 5)` or a rectangle as `(rows: 3, columns: 5)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedHexRules")]
pub struct HexRules {
    /// Rows of cells (OpenSpiel's `num_rows`): `MIN_SIDE..=MAX_SIDE`, 11 by default. Black
    /// joins the first row to the last.
    pub rows: u8,
    /// Cells in a row (OpenSpiel's `num_cols`): `MIN_SIDE..=MAX_SIDE`, 11 by default. White
    /// joins the first column to the last.
    pub columns: u8,
    /// Whether white's first decision may be the swap (OpenSpiel's `swap`): false by default;
    /// square boards only.
    pub swap: bool,
}

impl Default for HexRules {
    fn default() -> Self {
        HexRules {
            rows: DEFAULT_SIZE,
            columns: DEFAULT_SIZE,
            swap: false,
        }
    }
}

impl HexRules {
    /// A square board of `size` by `size` cells without the swap rule, or an error when the
    /// size is out of range.
    pub fn square(size: u8) -> Result<Self, HexError> {
        Self::new(size, size, false)
    }

    /// Rules with the given board and swap rule, or an error naming what is out of range.
    pub fn new(rows: u8, columns: u8, swap: bool) -> Result<Self, HexError> {
        let rules = HexRules {
            rows,
            columns,
            swap,
        };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), HexError> {
        for (what, value) in [("rows", self.rows), ("columns", self.columns)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&value) {
                return Err(HexError::InvalidSide { what, value });
            }
        }
        if self.swap && self.rows != self.columns {
            return Err(HexError::SwapNeedsSquare {
                rows: self.rows,
                columns: self.columns,
            });
        }
        Ok(())
    }

    /// Cells of the board.
    pub fn cells(&self) -> u8 {
        self.rows * self.columns
    }

    /// The action id of the swap (one past the last cell), legal only under the swap rule.
    pub fn swap_action(&self) -> u8 {
        self.cells()
    }
}

/// `HexRules` as read, before its fields are checked: `size` sets both sides, `rows` and
/// `columns` override it (as OpenSpiel's `num_rows` and `num_cols` override `board_size`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedHexRules {
    #[serde(default)]
    size: Option<u8>,
    #[serde(default)]
    rows: Option<u8>,
    #[serde(default)]
    columns: Option<u8>,
    #[serde(default)]
    swap: bool,
}

impl TryFrom<UncheckedHexRules> for HexRules {
    type Error = HexError;

    fn try_from(raw: UncheckedHexRules) -> Result<Self, HexError> {
        let size = raw.size.unwrap_or(DEFAULT_SIZE);
        HexRules::new(
            raw.rows.unwrap_or(size),
            raw.columns.unwrap_or(size),
            raw.swap,
        )
    }
}

/// A move: OpenSpiel's action id, the cell `row * columns + column`, or
/// [`HexRules::swap_action`] for the swap. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HexMove(pub u8);

impl fmt::Display for HexMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    #[error("{what}: expected a whole number from {MIN_SIDE} to {MAX_SIDE}, found {value}")]
    InvalidSide { what: &'static str, value: u8 },
    #[error("the swap rule needs a square board, not {rows} rows of {columns} cells")]
    SwapNeedsSquare { rows: u8, columns: u8 },
    #[error("action {action} is not a cell of the board (0 to {})", cells - 1)]
    NotACell { action: u8, cells: u8 },
    #[error("cell {action} is taken")]
    CellTaken { action: u8 },
    #[error("the swap is legal only as white's first decision under the swap rule")]
    SwapNotAllowed,
    #[error("the game is over")]
    GameOver,
    #[error("Hex has no chance events")]
    NoChanceEvents,
}

/// The board's masks.
#[derive(Clone, Copy)]
struct Geometry {
    columns: u32,
    board: u128,
    first_column: u128,
    last_column: u128,
    first_row: u128,
    last_row: u128,
}

/// The geometry of every board, by rows and columns (entries below `MIN_SIDE` unused).
const GEOMETRIES: [[Geometry; MAX_SIDE as usize + 1]; MAX_SIDE as usize + 1] = {
    let unused = Geometry {
        columns: 0,
        board: 0,
        first_column: 0,
        last_column: 0,
        first_row: 0,
        last_row: 0,
    };
    let mut table = [[unused; MAX_SIDE as usize + 1]; MAX_SIDE as usize + 1];
    let mut rows = MIN_SIDE as usize;
    while rows <= MAX_SIDE as usize {
        let mut columns = MIN_SIDE as usize;
        while columns <= MAX_SIDE as usize {
            table[rows][columns] = Geometry::build(rows as u32, columns as u32);
            columns += 1;
        }
        rows += 1;
    }
    table
};

impl Geometry {
    /// The geometry of the rules' board, from a table built at compile time.
    fn of(rules: &HexRules) -> Self {
        GEOMETRIES[usize::from(rules.rows)][usize::from(rules.columns)]
    }

    /// The masks of a board of `rows` by `columns` (2 to 11 each).
    const fn build(rows: u32, columns: u32) -> Self {
        let board = (1u128 << (rows * columns)) - 1;
        // One bit per row at column 0.
        let mut first_column = 0u128;
        let mut row = 0;
        while row < rows {
            first_column |= 1u128 << (row * columns);
            row += 1;
        }
        let first_row = (1u128 << columns) - 1;
        Geometry {
            columns,
            board,
            first_column,
            last_column: first_column << (columns - 1),
            first_row,
            last_row: first_row << ((rows - 1) * columns),
        }
    }

    /// The cells next to some cell of `set` (its six neighbours on the board).
    fn neighbours(&self, set: u128) -> u128 {
        let c = self.columns;
        let not_last = set & !self.last_column;
        let not_first = set & !self.first_column;
        ((set >> c)
            | (not_last >> (c - 1))
            | (not_last << 1)
            | (set << c)
            | (not_first << (c - 1))
            | (not_first >> 1))
            & self.board
    }

    /// The two edges `player` joins: black the first and last rows, white the first and last
    /// columns.
    fn edges(&self, player: usize) -> [u128; 2] {
        if player == 0 {
            [self.first_row, self.last_row]
        } else {
            [self.first_column, self.last_column]
        }
    }
}

/// A position: each player's stones, and of them those joined to each of its edges.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HexState {
    rules: HexRules,
    stones: [u128; 2],
    /// `linked[player][edge]`: the player's stones with a chain to that edge (black: top,
    /// bottom; white: left, right). Every group touching an edge is in it whole.
    linked: [[u128; 2]; 2],
    /// Decisions taken (stones placed, and the swap); whose turn it is (black after an even
    /// count).
    turns: u8,
    winner: Option<u8>,
}

impl Default for HexState {
    fn default() -> Self {
        Self::new(HexRules::default())
    }
}

impl HexState {
    /// The empty board of `rules`, black to move.
    pub fn new(rules: HexRules) -> Self {
        HexState {
            rules,
            stones: [0, 0],
            linked: [[0, 0], [0, 0]],
            turns: 0,
            winner: None,
        }
    }

    /// The position after playing `actions` in turn from the start, or the first refusal.
    pub fn from_moves(rules: HexRules, actions: &[u8]) -> Result<Self, HexError> {
        let mut state = Self::new(rules);
        for &action in actions {
            state.apply_move(HexMove(action))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> HexRules {
        self.rules
    }

    /// The player who made a chain; `None` while the game goes on.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The player whose stone is on `row`, `column`, if any.
    pub fn cell(&self, row: u8, column: u8) -> Option<usize> {
        if row >= self.rules.rows || column >= self.rules.columns {
            return None;
        }
        let bit = 1u128 << (u32::from(row) * u32::from(self.rules.columns) + u32::from(column));
        (0..2).find(|&player| self.stones[player] & bit != 0)
    }

    /// The board for people, as OpenSpiel prints it: a row per line, each row one space
    /// further right, `.` empty, `x` black, `o` white, each cell followed by a space.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for row in 0..self.rules.rows {
            if row > 0 {
                text.push('\n');
                text.extend(std::iter::repeat_n(' ', usize::from(row)));
            }
            for column in 0..self.rules.columns {
                text.push(match self.cell(row, column) {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => '.',
                });
                text.push(' ');
            }
        }
        text
    }

    fn empty(&self) -> u128 {
        Geometry::of(&self.rules).board & !(self.stones[0] | self.stones[1])
    }

    /// Whether the swap is legal now: the rule is on and white has its first decision.
    fn swap_open(&self) -> bool {
        self.rules.swap && self.turns == 1 && self.winner.is_none()
    }

    /// Places a stone of `player` on `bit` and brings its group into the edges it reaches.
    fn place(&mut self, player: usize, bit: u128) {
        let geometry = Geometry::of(&self.rules);
        self.stones[player] |= bit;
        let around = geometry.neighbours(bit);
        let edges = geometry.edges(player);
        let reached = [0, 1].map(|e| bit & edges[e] != 0 || around & self.linked[player][e] != 0);
        if reached == [true, true] {
            self.winner = Some(player as u8);
            return;
        }
        let Some(edge) = reached.iter().position(|&r| r) else {
            return;
        };
        // The new stone's group: it and every own stone joined to it not yet linked.
        let own = self.stones[player] & !self.linked[player][edge];
        let mut group = bit;
        loop {
            let grown = group | (geometry.neighbours(group) & own);
            if grown == group {
                break;
            }
            group = grown;
        }
        self.linked[player][edge] |= group;
    }

    /// The swap: black's stone leaves and white takes the mirrored cell.
    fn swap(&mut self) {
        let first = self.stones[0].trailing_zeros();
        let columns = u32::from(self.rules.columns);
        let (row, column) = (first / columns, first % columns);
        self.stones[0] = 0;
        self.linked[0] = [0, 0];
        self.place(1, 1u128 << (column * columns + row));
    }
}

/// The `k`-th (from 0) set bit of `bits`, which has more than `k`.
fn nth_set_bit(bits: u128, k: u32) -> u32 {
    let low = bits as u64;
    let below = low.count_ones();
    if k < below {
        crate::bits::nth_set_bit(low, k)
    } else {
        64 + crate::bits::nth_set_bit((bits >> 64) as u64, k - below)
    }
}

impl fmt::Display for HexState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for HexState {
    type Move = HexMove;
    type Error = HexError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.turns % 2)
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    /// A chain ends the game; a full board always has one.
    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn turns_played(&self) -> usize {
        usize::from(self.turns)
    }

    /// The empty cells in ascending order, then the swap where it is legal.
    fn legal_moves(&self, out: &mut Vec<HexMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let mut empty = self.empty();
        while empty != 0 {
            out.push(HexMove(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
        if self.swap_open() {
            out.push(HexMove(self.rules.swap_action()));
        }
    }

    fn apply_move(&mut self, mv: HexMove) -> Result<(), HexError> {
        if self.is_over() {
            return Err(HexError::GameOver);
        }
        let action = mv.0;
        let cells = self.rules.cells();
        if self.rules.swap && action == cells {
            if !self.swap_open() {
                return Err(HexError::SwapNotAllowed);
            }
            self.swap();
        } else {
            if action >= cells {
                return Err(HexError::NotACell { action, cells });
            }
            let bit = 1u128 << action;
            if (self.stones[0] | self.stones[1]) & bit != 0 {
                return Err(HexError::CellTaken { action });
            }
            self.place(self.to_move(), bit);
        }
        self.turns += 1;
        Ok(())
    }

    /// Uniform among the legal moves, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<HexMove> {
        if self.is_over() {
            return None;
        }
        let empty = self.empty();
        let cells = empty.count_ones();
        let choices = cells + u32::from(self.swap_open());
        let pick = rng.gen_range(0..choices);
        if pick == cells {
            return Some(HexMove(self.rules.swap_action()));
        }
        Some(HexMove(nth_set_bit(empty, pick) as u8))
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), HexError> {
        Err(HexError::NoChanceEvents)
    }

    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// Exactly one winner: Hex has no draw.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 0.0] || scores == [0.0, 1.0] {
            Ok(())
        } else {
            Err("a game of Hex has exactly one winner".into())
        }
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result: ±1 once a chain is made, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the action id: a stone on a cell is the same action whenever placed.
    fn action_key(player: u8, _label: u8, mv: HexMove) -> u32 {
        u32::from(player) * 256 + u32::from(mv.0)
    }
}

/// OpenSpiel's `hex` with `num_rows`, `num_cols` (and `board_size` for a square board) and
/// `swap`: action id = cell, or `rows * columns` for the swap; returns +1 to the winner and −1
/// to the loser.
impl OpenSpielTwin for HexState {
    fn open_spiel_name(&self) -> OpenSpielName {
        let HexRules {
            rows,
            columns,
            swap,
        } = self.rules;
        let mut params = Vec::new();
        if rows == columns {
            params.push(("board_size", OpenSpielParam::Int(i64::from(rows))));
        }
        params.push(("num_cols", OpenSpielParam::Int(i64::from(columns))));
        params.push(("num_rows", OpenSpielParam::Int(i64::from(rows))));
        params.push(("swap", OpenSpielParam::Bool(swap)));
        OpenSpielName {
            name: "hex",
            params,
        }
    }

    fn open_spiel_action(&self, mv: HexMove) -> i64 {
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

    fn rules(rows: u8, columns: u8) -> HexRules {
        HexRules::new(rows, columns, false).unwrap()
    }

    fn play(rules: HexRules, actions: &[u8]) -> HexState {
        HexState::from_moves(rules, actions).expect("the moves are legal")
    }

    /// The move before the last left the game going; the last one won it for `player`.
    fn assert_won_by(rules: HexRules, actions: &[u8], player: usize) {
        let (last, before) = actions.split_last().unwrap();
        let mut state = play(rules, before);
        assert!(!state.is_over(), "over before the last move:\n{state}");
        assert_eq!(state.to_move(), player);
        state.apply_move(HexMove(*last)).unwrap();
        assert_eq!(state.winner(), Some(player), "\n{state}");
        assert!(state.is_over() && !state.at_decision());
        let mut moves = vec![HexMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(state.random_move(&mut GameRng::seed_from_u64(0)), None);
        assert_eq!(state.evaluate(player, Evaluation::ScoreDifference), 1.0);
        assert_eq!(
            state.evaluate(1 - player, Evaluation::ScoreDifference),
            -1.0
        );
        let mut returns = [-1.0; 2];
        returns[player] = 1.0;
        assert_eq!(state.open_spiel_returns(), returns);
        assert_eq!(state.apply_move(HexMove(0)), Err(HexError::GameOver));
    }

    #[test]
    fn black_joins_top_to_bottom() {
        // 3 by 3: black down column 1 (cells 1, 4, 7), white on 0, 3.
        assert_won_by(rules(3, 3), &[1, 0, 4, 3, 7], 0);
        // Down the diagonal that hex cells allow: 2, 4, 6 (above-right neighbours).
        assert_won_by(rules(3, 3), &[2, 0, 4, 1, 6], 0);
    }

    #[test]
    fn white_joins_left_to_right() {
        // 3 rows of 4: white along row 1 (cells 4..8), black wherever it cannot win.
        assert_won_by(rules(3, 4), &[0, 4, 1, 5, 2, 6, 8, 7], 1);
    }

    #[test]
    fn a_chain_made_of_two_linked_groups_wins_where_they_meet() {
        // 5 by 5: black has 0 and 5 (top) and 20, 15 (bottom), then joins them at 10.
        let actions = [0, 1, 5, 2, 20, 3, 15, 4, 10];
        assert_won_by(rules(5, 5), &actions, 0);
        // Stones linked through a group that reached the edge later: 12 then 7 then 2 links
        // the three, 17, 22 reach the bottom.
        let actions = [12, 0, 17, 1, 7, 3, 22, 4, 2];
        assert_won_by(rules(5, 5), &actions, 0);
    }

    #[test]
    fn cells_not_adjacent_on_a_hex_board_do_not_join() {
        // 2 by 2: black 0 and 3 are on the other diagonal (below-right is no neighbour), so
        // no chain; white 1 and 2 join left to right (1 is above-right of 2).
        let mut state = play(rules(2, 2), &[0, 1, 3]);
        assert!(!state.is_over());
        state.apply_move(HexMove(2)).unwrap();
        assert_eq!(state.winner(), Some(1));
    }

    #[test]
    fn a_full_board_has_a_winner_and_random_games_end_by_a_chain() {
        let mut rng = GameRng::seed_from_u64(3);
        for rules in [rules(5, 5), rules(2, 7), rules(11, 11), rules(7, 3)] {
            for _ in 0..50 {
                let mut state = HexState::new(rules);
                state.play_out_randomly(&mut rng);
                assert!(state.winner().is_some());
                assert!(state.check_result(state.scores().map(f64::from)).is_ok());
                assert!(state.turns_played() <= usize::from(rules.cells()));
            }
        }
    }

    #[test]
    fn the_swap_mirrors_black_stone_as_white() {
        let rules = HexRules::new(3, 3, true).unwrap();
        let mut state = play(rules, &[1]);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert_eq!(moves.last(), Some(&HexMove(9)));
        assert_eq!(moves.len(), 9);
        state.apply_move(HexMove(9)).unwrap();
        assert_eq!(state.cell(0, 1), None);
        assert_eq!(state.cell(1, 0), Some(1));
        assert_eq!(state.to_move(), 0);
        assert_eq!(state.turns_played(), 2);
        state.legal_moves(&mut moves);
        assert_eq!(moves.len(), 8);
        assert!(!moves.contains(&HexMove(9)) && !moves.contains(&HexMove(3)));
        assert_eq!(state.render(), ". . . \n o . . \n  . . . ");
        // The white stone on the left edge counts as joined to it: white wins along row 1.
        let mut won = state.clone();
        for action in [0, 4, 2, 5] {
            won.apply_move(HexMove(action)).unwrap();
        }
        assert_eq!(won.winner(), Some(1));
        // Once only, and only for white's first decision.
        assert_eq!(state.apply_move(HexMove(9)), Err(HexError::SwapNotAllowed));
        let mut fresh = HexState::new(rules);
        assert_eq!(fresh.apply_move(HexMove(9)), Err(HexError::SwapNotAllowed));
        // Without the rule, action 9 is no cell.
        let mut plain = play(self::rules(3, 3), &[1]);
        assert_eq!(
            plain.apply_move(HexMove(9)),
            Err(HexError::NotACell {
                action: 9,
                cells: 9
            })
        );
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let before = play(rules(3, 3), &[4]);
        let mut state = before.clone();
        assert_eq!(
            state.apply_move(HexMove(4)),
            Err(HexError::CellTaken { action: 4 })
        );
        assert_eq!(
            state.apply_move(HexMove(12)).unwrap_err().to_string(),
            "action 12 is not a cell of the board (0 to 8)"
        );
        assert_eq!(state.apply_outcome(0), Err(HexError::NoChanceEvents));
        assert_eq!(state, before);
    }

    #[test]
    fn rules_out_of_range_are_refused() {
        assert_eq!(
            HexRules::square(1).unwrap_err().to_string(),
            "rows: expected a whole number from 2 to 11, found 1"
        );
        assert!(matches!(
            HexRules::new(5, 12, false),
            Err(HexError::InvalidSide {
                what: "columns",
                value: 12
            })
        ));
        assert_eq!(
            HexRules::new(3, 4, true),
            Err(HexError::SwapNeedsSquare {
                rows: 3,
                columns: 4
            })
        );
        let read: HexRules = serde_json::from_str(r#"{"size": 5}"#).unwrap();
        assert_eq!(read, HexRules::square(5).unwrap());
        let read: HexRules = serde_json::from_str(r#"{"rows": 3, "columns": 6}"#).unwrap();
        assert_eq!(read, rules(3, 6));
        let read: HexRules = serde_json::from_str("{}").unwrap();
        assert_eq!(read, HexRules::default());
        let written = serde_json::to_string(&rules(4, 7)).unwrap();
        assert_eq!(
            serde_json::from_str::<HexRules>(&written).unwrap(),
            rules(4, 7)
        );
        assert!(serde_json::from_str::<HexRules>(r#"{"size": 0}"#).is_err());
        assert!(serde_json::from_str::<HexRules>(r#"{"side": 5}"#).is_err());
    }

    #[test]
    fn random_moves_are_uniform_over_the_legal_moves() {
        let rules = HexRules::new(2, 2, true).unwrap();
        let state = play(rules, &[0]);
        let mut rng = GameRng::seed_from_u64(1);
        let mut counts = [0; 5];
        for _ in 0..4000 {
            counts[usize::from(state.random_move(&mut rng).unwrap().0)] += 1;
        }
        assert_eq!(counts[0], 0);
        assert!(
            counts[1..].iter().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
        assert_eq!(nth_set_bit(1u128 << 100 | 1 << 70 | 1 << 3, 2), 100);
        assert_eq!(nth_set_bit(u128::MAX, 127), 127);
    }

    #[test]
    fn names_and_keys() {
        let name = HexState::new(HexRules::square(5).unwrap()).open_spiel_name();
        assert_eq!(name.name, "hex");
        assert_eq!(name.params[0], ("board_size", OpenSpielParam::Int(5)));
        let keys: std::collections::HashSet<u32> = (0..2u8)
            .flat_map(|p| (0..=121).map(move |a| HexState::action_key(p, 0, HexMove(a))))
            .collect();
        assert_eq!(keys.len(), 2 * 122);
        assert_eq!(serde_json::to_string(&HexMove(17)).unwrap(), "17");
    }

    #[test]
    fn traces_are_seeded_and_alternate() {
        let start = HexState::new(HexRules::square(5).unwrap());
        let t = trace(&start, 11).unwrap();
        assert_eq!(trace(&start, 11).unwrap(), t);
        for (i, step) in t.steps.iter().enumerate() {
            assert_eq!(step.player, (i % 2) as i64);
            assert_eq!(step.legal.len(), 25 - i);
        }
        assert_eq!(t.returns[0], -t.returns[1]);
    }
}
