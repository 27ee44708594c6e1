//! Gomoku (free-style), as OpenSpiel's `gomoku` and `mnk`: two players place stones of their
//! colour on the empty cells of a board, player 0 (black) first; the first to have `connect`
//! stones in a row, horizontally, vertically or diagonally, wins (a longer row wins too); a
//! full board without a row is a draw.
//!
//! The board is 15 by 15 with rows of 5 by default (OpenSpiel's `gomoku` and `mnk` defaults,
//! the same game). Cell (row, column) has action id `row * columns + column` in both. Two
//! options come from `gomoku`, on square boards only:
//! - `anti`: the player who makes the row loses (OpenSpiel's returns flipped);
//! - `wrap`: the board is a torus, rows run on across its edges. As OpenSpiel counts them, a
//!   row is counted from the new stone forward, then backward, up to `connect` steps, and on
//!   a torus smaller than `connect` the count may pass the new stone again (a full ring of
//!   `size` stones then makes a row of any length).
//!
//! A rectangle of `rows` by `columns` (OpenSpiel's `mnk` with n = rows, m = columns, k =
//! connect) is played as `mnk`. A square board without the options is the same game in both;
//! it names `gomoku`.
//!
//! It has no chance events. Stones are bitboards (`[u64; 6]` per player, at most 19 by 19);
//! only rows through the new stone are counted, as OpenSpiel does.
//!
//! Scores are 1 for the winner and 0 for the loser, 0 each for a draw.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// The fewest rows, columns or stones in a row.
pub const MIN_SIDE: u8 = 1;

/// The most rows or columns a board may have, and the longest row asked for.
pub const MAX_SIDE: u8 = 19;

/// OpenSpiel's default `size` (and `mnk`'s m and n).
pub const DEFAULT_SIZE: u8 = 15;

/// OpenSpiel's default `connect` (and `mnk`'s k).
pub const DEFAULT_CONNECT: u8 = 5;

/// Cells of the largest board.
const MAX_CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// Words of a bitboard.
const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A bitboard by action id.
type Bits = [u64; WORDS];

/// The directions a row is counted in, one of each opposite pair (OpenSpiel's canonical
/// directions): (row step, column step).
const DIRECTIONS: [(i16, i16); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];

/// The rules of a game of Gomoku: plain data, checked when built or read. A spec writes a
/// square board as `(size: 9, connect: 4)`, a rectangle as `(rows: 3, columns: 4, connect:
/// 3)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedGomokuRules")]
pub struct GomokuRules {
    /// Rows of the board: `MIN_SIDE..=MAX_SIDE`, 15 by default.
    pub rows: u8,
    /// Cells in a row of the board: `MIN_SIDE..=MAX_SIDE`, 15 by default.
    pub columns: u8,
    /// Stones in a row that end the game: `MIN_SIDE..=MAX_SIDE`, 5 by default.
    pub connect: u8,
    /// Whether making the row loses (square boards only): false by default.
    pub anti: bool,
    /// Whether rows run on across the edges (square boards only): false by default.
    pub wrap: bool,
}

impl Default for GomokuRules {
    fn default() -> Self {
        GomokuRules {
            rows: DEFAULT_SIZE,
            columns: DEFAULT_SIZE,
            connect: DEFAULT_CONNECT,
            anti: false,
            wrap: false,
        }
    }
}

impl GomokuRules {
    /// A square board of `size` with rows of `connect`, without the options, or an error
    /// naming what is out of range.
    pub fn square(size: u8, connect: u8) -> Result<Self, GomokuError> {
        Self::new(size, size, connect, false, false)
    }

    /// Rules with every field given, or an error naming what is out of range.
    pub fn new(
        rows: u8,
        columns: u8,
        connect: u8,
        anti: bool,
        wrap: bool,
    ) -> Result<Self, GomokuError> {
        let rules = GomokuRules {
            rows,
            columns,
            connect,
            anti,
            wrap,
        };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), GomokuError> {
        for (what, value) in [
            ("rows", self.rows),
            ("columns", self.columns),
            ("connect", self.connect),
        ] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&value) {
                return Err(GomokuError::OutOfRange { what, value });
            }
        }
        if (self.anti || self.wrap) && self.rows != self.columns {
            return Err(GomokuError::OptionNeedsSquare {
                rows: self.rows,
                columns: self.columns,
            });
        }
        Ok(())
    }

    /// Cells of the board.
    pub fn cells(&self) -> u16 {
        u16::from(self.rows) * u16::from(self.columns)
    }

    /// OpenSpiel's `mnk` of this board, where it is one (no `anti`, no `wrap`).
    pub fn mnk_name(&self) -> Option<OpenSpielName> {
        (!self.anti && !self.wrap).then(|| OpenSpielName {
            name: "mnk",
            params: vec![
                ("m", OpenSpielParam::Int(i64::from(self.columns))),
                ("n", OpenSpielParam::Int(i64::from(self.rows))),
                ("k", OpenSpielParam::Int(i64::from(self.connect))),
            ],
        })
    }
}

/// `GomokuRules` as read, before its fields are checked: `size` sets both sides, `rows` and
/// `columns` override it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedGomokuRules {
    #[serde(default)]
    size: Option<u8>,
    #[serde(default)]
    rows: Option<u8>,
    #[serde(default)]
    columns: Option<u8>,
    #[serde(default)]
    connect: Option<u8>,
    #[serde(default)]
    anti: bool,
    #[serde(default)]
    wrap: bool,
}

impl TryFrom<UncheckedGomokuRules> for GomokuRules {
    type Error = GomokuError;

    fn try_from(raw: UncheckedGomokuRules) -> Result<Self, GomokuError> {
        let size = raw.size.unwrap_or(DEFAULT_SIZE);
        GomokuRules::new(
            raw.rows.unwrap_or(size),
            raw.columns.unwrap_or(size),
            raw.connect.unwrap_or(DEFAULT_CONNECT),
            raw.anti,
            raw.wrap,
        )
    }
}

/// A move: the action id `row * columns + column` of the cell. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GomokuMove(pub u16);

impl fmt::Display for GomokuMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GomokuError {
    #[error("{what}: expected a whole number from {MIN_SIDE} to {MAX_SIDE}, found {value}")]
    OutOfRange { what: &'static str, value: u8 },
    #[error("anti and wrap need a square board, not {rows} rows of {columns} cells")]
    OptionNeedsSquare { rows: u8, columns: u8 },
    #[error("action {action} is not a cell of the board (0 to {})", cells - 1)]
    NotACell { action: u16, cells: u16 },
    #[error("cell {action} is taken")]
    CellTaken { action: u16 },
    #[error("the game is over")]
    GameOver,
    #[error("Gomoku has no chance events")]
    NoChanceEvents,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    /// This player made a row.
    Row(u8),
    /// The board filled without a row.
    Full,
}

/// A position: each player's stones.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GomokuState {
    rules: GomokuRules,
    stones: [Bits; 2],
    /// Stones placed: decisions taken, and whose turn it is (player 0 after an even count).
    placed: u16,
    end: Option<End>,
}

impl Default for GomokuState {
    fn default() -> Self {
        Self::new(GomokuRules::default())
    }
}

impl GomokuState {
    /// The empty board of `rules`, player 0 to move.
    pub fn new(rules: GomokuRules) -> Self {
        GomokuState {
            rules,
            stones: [[0; WORDS]; 2],
            placed: 0,
            end: None,
        }
    }

    /// The position after playing `actions` in turn from the start, or the first refusal.
    pub fn from_moves(rules: GomokuRules, actions: &[u16]) -> Result<Self, GomokuError> {
        let mut state = Self::new(rules);
        for &action in actions {
            state.apply_move(GomokuMove(action))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> GomokuRules {
        self.rules
    }

    /// The player who made a row, if one did (under `anti`, the loser).
    pub fn row_maker(&self) -> Option<usize> {
        match self.end {
            Some(End::Row(player)) => Some(usize::from(player)),
            _ => None,
        }
    }

    /// The winner: the row's maker, or under `anti` its opponent; `None` during the game and
    /// after a draw.
    pub fn winner(&self) -> Option<usize> {
        self.row_maker()
            .map(|maker| if self.rules.anti { 1 - maker } else { maker })
    }

    /// The player whose stone is on `row`, `column`, if any.
    pub fn cell(&self, row: u8, column: u8) -> Option<usize> {
        if row >= self.rules.rows || column >= self.rules.columns {
            return None;
        }
        let id = u16::from(row) * u16::from(self.rules.columns) + u16::from(column);
        (0..2).find(|&player| get(&self.stones[player], id))
    }

    /// The board for people, as OpenSpiel's `gomoku` prints it: `B` or `W` for the player to
    /// move, then a line per row, `b` player 0, `w` player 1, `.` empty.
    pub fn render(&self) -> String {
        let mut text = String::new();
        text.push(if self.to_move() == 0 { 'B' } else { 'W' });
        text.push('\n');
        for row in 0..self.rules.rows {
            for column in 0..self.rules.columns {
                text.push(match self.cell(row, column) {
                    Some(0) => 'b',
                    Some(_) => 'w',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn empty_count(&self) -> u32 {
        u32::from(self.rules.cells()) - u32::from(self.placed)
    }

    /// The empty cells (words past the board stay 0).
    fn empty(&self) -> Bits {
        let cells = usize::from(self.rules.cells());
        let mut empty = [0u64; WORDS];
        for (w, e) in empty.iter_mut().enumerate() {
            let start = w * 64;
            if start >= cells {
                break;
            }
            let on_board = if cells - start >= 64 {
                u64::MAX
            } else {
                (1u64 << (cells - start)) - 1
            };
            *e = on_board & !(self.stones[0][w] | self.stones[1][w]);
        }
        empty
    }

    /// One step from (row, column) along (dr, dc): on a torus it always lands, otherwise
    /// `None` off the board.
    fn step(&self, row: i16, column: i16, (dr, dc): (i16, i16)) -> Option<(i16, i16)> {
        let (rows, columns) = (i16::from(self.rules.rows), i16::from(self.rules.columns));
        let (r, c) = (row + dr, column + dc);
        if self.rules.wrap {
            Some((r.rem_euclid(rows), c.rem_euclid(columns)))
        } else if (0..rows).contains(&r) && (0..columns).contains(&c) {
            Some((r, c))
        } else {
            None
        }
    }

    /// Whether the stone just placed on `id` by `player` is in a row of `connect`, counted
    /// as OpenSpiel counts it: forward from the stone, then backward, `connect` stones at most.
    fn makes_row(&self, player: usize, id: u16) -> bool {
        let connect = u16::from(self.rules.connect);
        let columns = u16::from(self.rules.columns);
        let own = &self.stones[player];
        let start = ((id / columns) as i16, (id % columns) as i16);
        let stone_at = |(r, c): (i16, i16)| get(own, r as u16 * columns + c as u16);
        DIRECTIONS.iter().any(|&(dr, dc)| {
            let mut count = 1;
            for dir in [(dr, dc), (-dr, -dc)] {
                let mut at = start;
                while count < connect {
                    match self.step(at.0, at.1, dir) {
                        Some(next) if stone_at(next) => {
                            count += 1;
                            at = next;
                        }
                        _ => break,
                    }
                }
            }
            count >= connect
        })
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

impl fmt::Display for GomokuState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for GomokuState {
    type Move = GomokuMove;
    type Error = GomokuError;
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

    fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn turns_played(&self) -> usize {
        usize::from(self.placed)
    }

    /// The empty cells by ascending action id.
    fn legal_moves(&self, out: &mut Vec<GomokuMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        for (w, mut word) in self.empty().into_iter().enumerate() {
            while word != 0 {
                out.push(GomokuMove((w * 64) as u16 + word.trailing_zeros() as u16));
                word &= word - 1;
            }
        }
    }

    fn apply_move(&mut self, mv: GomokuMove) -> Result<(), GomokuError> {
        if self.is_over() {
            return Err(GomokuError::GameOver);
        }
        let (action, cells) = (mv.0, self.rules.cells());
        if action >= cells {
            return Err(GomokuError::NotACell { action, cells });
        }
        if get(&self.stones[0], action) || get(&self.stones[1], action) {
            return Err(GomokuError::CellTaken { action });
        }
        let player = self.to_move();
        set(&mut self.stones[player], action);
        self.placed += 1;
        if self.makes_row(player, action) {
            self.end = Some(End::Row(player as u8));
        } else if self.placed == cells {
            self.end = Some(End::Full);
        }
        Ok(())
    }

    /// Uniform among the empty cells, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<GomokuMove> {
        if self.is_over() {
            return None;
        }
        let pick = rng.gen_range(0..self.empty_count());
        Some(GomokuMove(nth_set_bit(&self.empty(), pick)))
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), GomokuError> {
        Err(GomokuError::NoChanceEvents)
    }

    /// 1 for the winner (under `anti`, the opponent of the row's maker), 0 otherwise.
    fn scores(&self) -> [i32; 2] {
        match self.winner() {
            Some(0) => [1, 0],
            Some(_) => [0, 1],
            None => [0, 0],
        }
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// One winner at most.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of Gomoku has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result: ±1 once a row is made, 0 before and after a draw.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the action id.
    fn action_key(player: u8, _label: u8, mv: GomokuMove) -> u32 {
        u32::from(player) * 1024 + u32::from(mv.0)
    }
}

/// OpenSpiel's `gomoku` (`size`, `connect`, `anti`, `wrap`, `dims` 2) on a square board,
/// `mnk` (m = columns, n = rows, k = connect) on a rectangle: action id = cell; returns +1 to
/// the winner and −1 to the loser, 0 each for a draw.
impl OpenSpielTwin for GomokuState {
    fn open_spiel_name(&self) -> OpenSpielName {
        let rules = self.rules;
        if rules.rows != rules.columns {
            if let Some(name) = rules.mnk_name() {
                return name;
            }
        }
        OpenSpielName {
            name: "gomoku",
            params: vec![
                ("size", OpenSpielParam::Int(i64::from(rules.rows))),
                ("connect", OpenSpielParam::Int(i64::from(rules.connect))),
                ("anti", OpenSpielParam::Bool(rules.anti)),
                ("wrap", OpenSpielParam::Bool(rules.wrap)),
                ("dims", OpenSpielParam::Int(2)),
            ],
        }
    }

    fn open_spiel_action(&self, mv: GomokuMove) -> i64 {
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

    fn square(size: u8, connect: u8) -> GomokuRules {
        GomokuRules::square(size, connect).unwrap()
    }

    fn play(rules: GomokuRules, actions: &[u16]) -> GomokuState {
        GomokuState::from_moves(rules, actions).expect("the moves are legal")
    }

    /// The move before the last left the game going; the last one made a row for `maker`.
    fn assert_row_by(rules: GomokuRules, actions: &[u16], maker: usize) -> GomokuState {
        let (last, before) = actions.split_last().unwrap();
        let mut state = play(rules, before);
        assert!(!state.is_over(), "over before the last move:\n{state}");
        assert_eq!(state.to_move(), maker);
        state.apply_move(GomokuMove(*last)).unwrap();
        assert_eq!(state.row_maker(), Some(maker), "\n{state}");
        let mut moves = vec![GomokuMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(state.random_move(&mut GameRng::seed_from_u64(0)), None);
        assert_eq!(state.apply_move(GomokuMove(0)), Err(GomokuError::GameOver));
        state
    }

    #[test]
    fn rows_in_every_direction_win() {
        let r = GomokuRules::default();
        // Horizontal, black on row 7 columns 2 to 6; white on row 0.
        let state = assert_row_by(r, &[108, 0, 109, 1, 110, 2, 111, 3, 107], 0);
        assert_eq!(state.winner(), Some(0));
        assert_eq!(state.scores(), [1, 0]);
        assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
        // Vertical for white down column 14, black scattered.
        assert_row_by(r, &[0, 14, 2, 29, 4, 44, 6, 59, 8, 74], 1);
        // Diagonal down-right from (0,0), placed out of order, closing in the middle.
        assert_row_by(r, &[0, 1, 16, 2, 48, 3, 64, 4, 32], 0);
        // Diagonal down-left from (0,14).
        assert_row_by(r, &[14, 0, 28, 1, 42, 2, 56, 3, 70], 0);
    }

    #[test]
    fn a_longer_row_wins_and_a_short_one_does_not() {
        // Rows of 3 on 5 by 5: two separate pairs joined into five.
        let r = square(5, 3);
        assert_row_by(r, &[0, 5, 1, 6, 2], 0);
        let r = square(5, 5);
        let state = play(r, &[0, 5, 1, 6, 3, 7, 4, 8]);
        assert!(!state.is_over());
        assert_row_by(r, &[0, 5, 1, 6, 3, 7, 4, 8, 2], 0);
        // Rows do not run across the edge without wrap: 3, 4 then 5 (next row) make no row.
        let state = play(square(5, 3), &[3, 10, 4, 11, 5]);
        assert!(!state.is_over());
    }

    #[test]
    fn a_full_board_without_a_row_is_a_draw() {
        // 3 by 3 with rows of 4: never a row.
        let state = play(square(3, 4), &[0, 1, 2, 4, 3, 5, 7, 6, 8]);
        assert!(state.is_over());
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
        assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 0.0);
        // A row made by the last stone wins even though the board is full.
        // b w b / w b w / w b b: the diagonal, by black's fifth stone.
        let state = assert_row_by(square(3, 3), &[0, 1, 2, 3, 4, 5, 7, 6, 8], 0);
        assert_eq!(state.turns_played(), 9);
    }

    #[test]
    fn anti_gives_the_row_to_its_maker_as_a_loss() {
        let r = GomokuRules::new(5, 5, 3, true, false).unwrap();
        let state = assert_row_by(r, &[0, 10, 1, 11, 2], 0);
        assert_eq!(state.winner(), Some(1));
        assert_eq!(state.scores(), [0, 1]);
        assert_eq!(state.open_spiel_returns(), [-1.0, 1.0]);
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), -1.0);
    }

    #[test]
    fn wrap_runs_rows_across_the_edges() {
        let r = GomokuRules::new(5, 5, 3, false, true).unwrap();
        // (0,4), (0,0) and (0,1) in a row across the right edge.
        assert_row_by(r, &[0, 10, 4, 11, 1], 0);
        // Diagonally across a corner: (4,4), (0,0), (1,1).
        assert_row_by(r, &[24, 10, 0, 13, 6], 0);
        // A ring of 4 on a torus of 4 counts as a row of 5 (the new stone counted twice).
        let r = GomokuRules::new(4, 4, 5, false, true).unwrap();
        assert_row_by(r, &[0, 4, 1, 5, 2, 6, 3], 0);
    }

    #[test]
    fn rectangles_are_mnk() {
        // 3 rows of 4, rows of 3: a vertical row in column 3.
        let r = GomokuRules::new(3, 4, 3, false, false).unwrap();
        assert_row_by(r, &[3, 0, 7, 1, 11], 0);
        let name = GomokuState::new(r).open_spiel_name();
        assert_eq!(name.name, "mnk");
        assert_eq!(
            name.params,
            vec![
                ("m", OpenSpielParam::Int(4)),
                ("n", OpenSpielParam::Int(3)),
                ("k", OpenSpielParam::Int(3))
            ]
        );
        assert_eq!(GomokuState::default().open_spiel_name().name, "gomoku");
        assert!(GomokuRules::default().mnk_name().is_some());
        assert!(GomokuRules::new(5, 5, 3, true, false)
            .unwrap()
            .mnk_name()
            .is_none());
    }

    #[test]
    fn rules_out_of_range_are_refused() {
        assert_eq!(
            GomokuRules::square(20, 5).unwrap_err().to_string(),
            "rows: expected a whole number from 1 to 19, found 20"
        );
        assert!(matches!(
            GomokuRules::square(9, 0),
            Err(GomokuError::OutOfRange {
                what: "connect",
                value: 0
            })
        ));
        assert_eq!(
            GomokuRules::new(4, 5, 3, false, true)
                .unwrap_err()
                .to_string(),
            "anti and wrap need a square board, not 4 rows of 5 cells"
        );
        let read: GomokuRules = serde_json::from_str(r#"{"size": 9, "connect": 4}"#).unwrap();
        assert_eq!(read, square(9, 4));
        let read: GomokuRules = serde_json::from_str("{}").unwrap();
        assert_eq!(read, GomokuRules::default());
        let written = serde_json::to_string(&GomokuRules::new(7, 7, 4, true, true).unwrap());
        let back: GomokuRules = serde_json::from_str(&written.unwrap()).unwrap();
        assert_eq!(back, GomokuRules::new(7, 7, 4, true, true).unwrap());
        assert!(serde_json::from_str::<GomokuRules>(r#"{"rows": 3, "anti": true}"#).is_err());
        assert!(serde_json::from_str::<GomokuRules>(r#"{"dims": 3}"#).is_err());
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let before = play(square(3, 3), &[4]);
        let mut state = before.clone();
        assert_eq!(
            state.apply_move(GomokuMove(4)),
            Err(GomokuError::CellTaken { action: 4 })
        );
        assert_eq!(
            state.apply_move(GomokuMove(9)).unwrap_err().to_string(),
            "action 9 is not a cell of the board (0 to 8)"
        );
        assert_eq!(state.apply_outcome(0), Err(GomokuError::NoChanceEvents));
        assert_eq!(state, before);
    }

    #[test]
    fn legal_and_random_moves_cover_the_empty_cells() {
        let state = play(square(19, 5), &[0, 360, 64, 200]);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert_eq!(moves.len(), 357);
        assert_eq!(moves[0], GomokuMove(1));
        assert_eq!(moves.last(), Some(&GomokuMove(359)));
        let small = play(square(2, 3), &[2]);
        let mut rng = GameRng::seed_from_u64(4);
        let mut counts = [0; 4];
        for _ in 0..3000 {
            counts[usize::from(small.random_move(&mut rng).unwrap().0)] += 1;
        }
        assert_eq!(counts[2], 0);
        assert!(
            [0, 1, 3].iter().all(|&c| (850..1150).contains(&counts[c])),
            "{counts:?}"
        );
    }

    #[test]
    fn render_and_keys() {
        let state = play(square(3, 3), &[0, 4]);
        assert_eq!(state.render(), "B\nb..\n.w.\n...\n");
        let keys: std::collections::HashSet<u32> = (0..2u8)
            .flat_map(|p| (0..361).map(move |a| GomokuState::action_key(p, 0, GomokuMove(a))))
            .collect();
        assert_eq!(keys.len(), 722);
    }

    #[test]
    fn traces_are_seeded_and_alternate() {
        let start = GomokuState::new(square(7, 4));
        let t = trace(&start, 9).unwrap();
        assert_eq!(trace(&start, 9).unwrap(), t);
        for (i, step) in t.steps.iter().enumerate() {
            assert_eq!(step.player, (i % 2) as i64);
            assert_eq!(step.legal.len(), 49 - i);
        }
    }
}
