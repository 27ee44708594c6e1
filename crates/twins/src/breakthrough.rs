//! Breakthrough, as OpenSpiel's `breakthrough` (parameters `rows` and `columns`, 8 and 8 by
//! default): two players on a board of rows and columns, player 0 ("black", `b`) on the first
//! two rows (row 0 at the top, as OpenSpiel prints it) and player 1 ("white", `w`) on the last
//! two; on a board of fewer than 6 rows each player has one row. Player 0 moves first.
//!
//! A piece moves one row forward (player 0 towards higher rows, player 1 towards lower ones),
//! straight or diagonally, to an empty cell; it captures only diagonally, onto an opponent's
//! piece, which leaves the board. A player wins by bringing a piece to the far row, or by
//! capturing the opponent's last piece. There are no draws: every move advances a piece, so the
//! game ends, and a player always has a move (the most advanced piece's diagonal cells lie in a
//! row without its own pieces).
//!
//! It has no chance events. Scores are 1 for the winner and 0 for the loser, so the score
//! difference is the win-loss result.
//!
//! A move *is* OpenSpiel's action id: the mixed-radix number (row, column, direction, capture)
//! of bases (rows, columns, 6, 2), direction 0–2 player 0's (row + 1; column − 1, 0, + 1) and
//! 3–5 player 1's (row − 1; the same columns), capture 1 for a diagonal move onto an opponent's
//! piece. The board is two bitboards (bit `row * columns + column`), so a board has at most 64
//! cells.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// OpenSpiel's default rows and columns.
pub const DEFAULT_ROWS: u8 = 8;
pub const DEFAULT_COLUMNS: u8 = 8;

/// The fewest rows or columns a board has (OpenSpiel's own check).
pub const MIN_SIZE: u8 = 2;

/// The most cells a board has: one bit each in a `u64`.
pub const MAX_CELLS: u16 = 64;

/// Boards with at least this many rows start with two rows of pieces each, smaller ones with
/// one (OpenSpiel's `kNumRowsForFullPieces`).
const ROWS_FOR_TWO_ROWS: u8 = 6;

/// Directions of OpenSpiel's action encoding: three per player.
const DIRECTIONS: u16 = 6;

/// The rules of a game of Breakthrough: the board's size, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedBreakthroughRules")]
pub struct BreakthroughRules {
    /// Rows: at least 2; 8 by default.
    pub rows: u8,
    /// Columns: at least 2; 8 by default. Rows times columns is at most 64.
    pub columns: u8,
}

impl Default for BreakthroughRules {
    fn default() -> Self {
        BreakthroughRules {
            rows: DEFAULT_ROWS,
            columns: DEFAULT_COLUMNS,
        }
    }
}

impl BreakthroughRules {
    /// Rules for a board of `rows` and `columns`, or an error saying what is out of range.
    pub fn new(rows: u8, columns: u8) -> Result<Self, BreakthroughError> {
        let rules = BreakthroughRules { rows, columns };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), BreakthroughError> {
        let (rows, columns) = (self.rows, self.columns);
        if rows < MIN_SIZE || columns < MIN_SIZE || self.cells() > MAX_CELLS {
            return Err(BreakthroughError::InvalidSize { rows, columns });
        }
        Ok(())
    }

    /// Cells of the board.
    pub fn cells(&self) -> u16 {
        u16::from(self.rows) * u16::from(self.columns)
    }

    /// OpenSpiel's number of distinct actions: rows × columns × 6 directions × 2.
    pub fn actions(&self) -> u16 {
        self.cells() * DIRECTIONS * 2
    }
}

/// `BreakthroughRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedBreakthroughRules {
    rows: u8,
    columns: u8,
}

impl TryFrom<UncheckedBreakthroughRules> for BreakthroughRules {
    type Error = BreakthroughError;

    fn try_from(raw: UncheckedBreakthroughRules) -> Result<Self, BreakthroughError> {
        BreakthroughRules::new(raw.rows, raw.columns)
    }
}

/// A move: OpenSpiel's action id (see the module's documentation). Written as the plain
/// number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BreakthroughMove(pub u16);

impl fmt::Display for BreakthroughMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BreakthroughError {
    #[error(
        "a board of {rows} rows and {columns} columns: expected at least {MIN_SIZE} rows and \
         {MIN_SIZE} columns, and at most {MAX_CELLS} cells"
    )]
    InvalidSize { rows: u8, columns: u8 },
    #[error("action {action} is not an action of this board (0 to {})", actions - 1)]
    NotAnAction { action: u16, actions: u16 },
    #[error("action {action} ({text}) is not legal: {why}")]
    Illegal {
        action: u16,
        text: String,
        why: &'static str,
    },
    #[error("the game is over")]
    GameOver,
    #[error("Breakthrough has no chance events")]
    NoChanceEvents,
}

/// The board's shape as bit masks, computed once from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Geometry {
    rows: u8,
    columns: u8,
    /// Every cell.
    all: u64,
    /// Cells that have a column to their left (column > 0).
    has_left: u64,
    /// Cells that have a column to their right.
    has_right: u64,
    /// Each player's goal row: the last row for player 0, the first for player 1.
    goal: [u64; 2],
}

impl Geometry {
    fn new(rules: BreakthroughRules) -> Self {
        let (rows, columns) = (rules.rows, rules.columns);
        let cells = u32::from(rules.cells());
        let all = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        let mut first_column = 0u64;
        for row in 0..rows {
            first_column |= 1u64 << (u32::from(row) * u32::from(columns));
        }
        let last_column = first_column << (columns - 1);
        let first_row = (1u64 << columns) - 1;
        let last_row = first_row << (u32::from(rows - 1) * u32::from(columns));
        Geometry {
            rows,
            columns,
            all,
            has_left: all & !first_column,
            has_right: all & !last_column,
            goal: [last_row, first_row],
        }
    }

    /// How far a cell's bit moves forward in direction `o` (0: column − 1, 1: straight,
    /// 2: column + 1) for `player`: up by the returned amount for player 0, down for player 1.
    fn step(&self, player: usize, o: usize) -> u32 {
        let columns = u32::from(self.columns);
        match (player, o) {
            (0, 0) | (1, 2) => columns - 1,
            (_, 1) => columns,
            _ => columns + 1,
        }
    }
}

/// The legal moves of a decision as bitboards of their source cells: one set per direction
/// `o` for plain moves, and for the two diagonals one set of captures.
#[derive(Clone, Copy, Debug, Default)]
struct MoveSets {
    /// Indexed by `o * 2 + capture`; `[3]` (a straight capture) stays empty.
    sources: [u64; 6],
}

impl MoveSets {
    fn count(&self) -> u32 {
        self.sources.iter().map(|s| s.count_ones()).sum()
    }
}

/// A position: each player's pieces as a bitboard, the player to move, the winner once there
/// is one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BreakthroughState {
    rules: BreakthroughRules,
    geometry: Geometry,
    pieces: [u64; 2],
    to_move: u8,
    winner: Option<u8>,
    turns: u16,
}

impl Default for BreakthroughState {
    fn default() -> Self {
        Self::new(BreakthroughRules::default()).expect("the default rules are valid")
    }
}

impl BreakthroughState {
    /// The start of a game under `rules`, player 0 to move, or the rules' error.
    pub fn new(rules: BreakthroughRules) -> Result<Self, BreakthroughError> {
        rules.check()?;
        let geometry = Geometry::new(rules);
        let columns = u32::from(rules.columns);
        let depth = if rules.rows >= ROWS_FOR_TWO_ROWS {
            2
        } else {
            1
        };
        let home = (1u64 << (depth * columns)) - 1;
        let far = home << ((u32::from(rules.rows) - depth) * columns);
        Ok(BreakthroughState {
            rules,
            geometry,
            pieces: [home, far],
            to_move: 0,
            winner: None,
            turns: 0,
        })
    }

    /// The position after playing `actions` in turn from the start, or the first error.
    pub fn from_moves(
        rules: BreakthroughRules,
        actions: &[u16],
    ) -> Result<Self, BreakthroughError> {
        let mut state = Self::new(rules)?;
        for &action in actions {
            state.apply_move(BreakthroughMove(action))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> BreakthroughRules {
        self.rules
    }

    /// The winner once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The player whose piece is at `row` (0 at the top) and `column`, if any.
    pub fn cell(&self, row: u8, column: u8) -> Option<usize> {
        if row >= self.rules.rows || column >= self.rules.columns {
            return None;
        }
        let bit = 1u64 << (u32::from(row) * u32::from(self.rules.columns) + u32::from(column));
        (0..2).find(|&p| self.pieces[p] & bit != 0)
    }

    /// Pieces each player has on the board.
    pub fn piece_counts(&self) -> [u32; 2] {
        self.pieces.map(u64::count_ones)
    }

    /// The move from (`row`, `column`) in direction `o` (0: to the column on the left,
    /// 1: straight, 2: to the right) for the player to move, as OpenSpiel encodes it (whether
    /// it captures is read from the board); `None` off the board.
    pub fn move_at(&self, row: u8, column: u8, o: u8) -> Option<BreakthroughMove> {
        if row >= self.rules.rows || column >= self.rules.columns || o > 2 {
            return None;
        }
        let player = self.to_move;
        let to_row = if player == 0 {
            row.checked_add(1)?
        } else {
            row.checked_sub(1)?
        };
        let to_column = (column + o).checked_sub(1)?;
        if to_row >= self.rules.rows || to_column >= self.rules.columns {
            return None;
        }
        let capture =
            u16::from(matches!(self.cell(to_row, to_column), Some(p) if p != usize::from(player)));
        let cell = u16::from(row) * u16::from(self.rules.columns) + u16::from(column);
        let dir = u16::from(player) * 3 + u16::from(o);
        Some(BreakthroughMove((cell * DIRECTIONS + dir) * 2 + capture))
    }

    /// OpenSpiel's text of a move (`ActionToString`): from and to cells as column letter and
    /// row number (row 1 at the bottom), `*` for a capture: `a2b3*`.
    pub fn move_text(&self, mv: BreakthroughMove) -> String {
        let (cell, dir, capture) = self.decode(mv);
        let columns = i32::from(self.rules.columns);
        let (row, column) = (cell as i32 / columns, cell as i32 % columns);
        let to_row = row + if dir < 3 { 1 } else { -1 };
        let to_column = column + (dir % 3) as i32 - 1;
        let label = |r: i32, c: i32| {
            format!(
                "{}{}",
                char::from(b'a' + c.clamp(0, 25) as u8),
                i32::from(self.rules.rows) - r
            )
        };
        let star = if capture { "*" } else { "" };
        format!("{}{}{star}", label(row, column), label(to_row, to_column))
    }

    /// The board as OpenSpiel prints it: the top row first, each row labelled by its number
    /// (the bottom row is 1), `b` player 0, `w` player 1, `.` empty, then the column letters.
    pub fn render(&self) -> String {
        let (rows, columns) = (self.rules.rows, self.rules.columns);
        let mut text = String::new();
        for row in 0..rows {
            text.push_str(&(rows - row).to_string());
            for column in 0..columns {
                text.push(match self.cell(row, column) {
                    Some(0) => 'b',
                    Some(_) => 'w',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text.push(' ');
        for column in 0..columns {
            text.push(char::from(b'a' + column));
        }
        text.push('\n');
        text
    }

    /// (cell, direction 0–5, capture) of an action id of this board.
    fn decode(&self, mv: BreakthroughMove) -> (u32, u32, bool) {
        let id = u32::from(mv.0);
        let capture = id % 2 == 1;
        let dir = (id / 2) % u32::from(DIRECTIONS);
        (id / (2 * u32::from(DIRECTIONS)), dir, capture)
    }

    /// The legal moves of the player to move as source sets (empty once the game is over).
    fn move_sets(&self) -> MoveSets {
        let mut sets = MoveSets::default();
        if self.winner.is_some() {
            return sets;
        }
        let g = &self.geometry;
        let player = usize::from(self.to_move);
        let own = self.pieces[player];
        let opponent = self.pieces[1 - player];
        let empty = g.all & !(own | opponent);
        // The sources whose target (forward by `step`) is in `targets`.
        let back = |targets: u64, step: u32| {
            if player == 0 {
                targets >> step
            } else {
                targets << step
            }
        };
        for o in 0..3 {
            let movers = match o {
                0 => own & g.has_left,
                1 => own,
                _ => own & g.has_right,
            };
            let step = g.step(player, o);
            sets.sources[o * 2] = movers & back(empty, step);
            if o != 1 {
                sets.sources[o * 2 + 1] = movers & back(opponent, step);
            }
        }
        sets
    }

    fn action(&self, cell: u32, o: usize, capture: usize) -> BreakthroughMove {
        let dir = u32::from(self.to_move) * 3 + o as u32;
        BreakthroughMove(((cell * u32::from(DIRECTIONS) + dir) * 2 + capture as u32) as u16)
    }

    fn illegal(&self, mv: BreakthroughMove, why: &'static str) -> BreakthroughError {
        BreakthroughError::Illegal {
            action: mv.0,
            text: self.move_text(mv),
            why,
        }
    }
}

impl fmt::Display for BreakthroughState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for BreakthroughState {
    type Move = BreakthroughMove;
    type Error = BreakthroughError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    fn at_decision(&self) -> bool {
        self.winner.is_none()
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn turns_played(&self) -> usize {
        usize::from(self.turns)
    }

    /// The legal moves by ascending action id (the order of OpenSpiel's `LegalActions`).
    fn legal_moves(&self, out: &mut Vec<BreakthroughMove>) {
        out.clear();
        let sets = self.move_sets();
        let mut sources = sets.sources.iter().fold(0, |a, s| a | s);
        while sources != 0 {
            let cell = sources.trailing_zeros();
            sources &= sources - 1;
            let bit = 1u64 << cell;
            for (index, set) in sets.sources.iter().enumerate() {
                if set & bit != 0 {
                    out.push(self.action(cell, index / 2, index % 2));
                }
            }
        }
    }

    fn apply_move(&mut self, mv: BreakthroughMove) -> Result<(), BreakthroughError> {
        if self.winner.is_some() {
            return Err(BreakthroughError::GameOver);
        }
        let actions = self.rules.actions();
        if mv.0 >= actions {
            return Err(BreakthroughError::NotAnAction {
                action: mv.0,
                actions,
            });
        }
        let (cell, dir, capture) = self.decode(mv);
        let player = usize::from(self.to_move);
        if dir / 3 != player as u32 {
            return Err(self.illegal(mv, "the direction is the other player's"));
        }
        let o = (dir % 3) as usize;
        let from = 1u64 << cell;
        if self.pieces[player] & from == 0 {
            return Err(self.illegal(mv, "the mover has no piece on the cell it moves from"));
        }
        let sets = self.move_sets();
        if sets.sources[o * 2 + usize::from(capture)] & from == 0 {
            return Err(self.illegal(
                mv,
                "the target is off the board, taken, or not the opponent's (captures are \
                 diagonal, onto an opponent's piece; other moves go to an empty cell)",
            ));
        }
        let step = self.geometry.step(player, o);
        let to = if player == 0 {
            from << step
        } else {
            from >> step
        };
        self.pieces[player] ^= from | to;
        self.pieces[1 - player] &= !to;
        if to & self.geometry.goal[player] != 0 || self.pieces[1 - player] == 0 {
            self.winner = Some(player as u8);
        }
        self.to_move = 1 - self.to_move;
        self.turns += 1;
        Ok(())
    }

    fn apply_legal_move(&mut self, mv: BreakthroughMove) -> Result<(), BreakthroughError> {
        self.apply_move(mv)
    }

    /// Uniform among the legal moves, without a buffer: a move is picked by its index among
    /// the source sets' bits.
    fn random_move(&self, rng: &mut GameRng) -> Option<BreakthroughMove> {
        let sets = self.move_sets();
        let count = sets.count();
        if count == 0 {
            return None;
        }
        let mut pick = rng.gen_range(0..count);
        for (index, &set) in sets.sources.iter().enumerate() {
            let n = set.count_ones();
            if pick < n {
                return Some(self.action(
                    crate::bits::nth_set_bit(set, pick),
                    index / 2,
                    index % 2,
                ));
            }
            pick -= n;
        }
        unreachable!("the pick is below the count")
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), BreakthroughError> {
        Err(BreakthroughError::NoChanceEvents)
    }

    /// 1 for the winner, 0 for the loser (0 each while the game goes on).
    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// Exactly one winner: 1 and 0, or 0 and 1 (Breakthrough has no draws).
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores[0] + scores[1] != 1.0 {
            return Err("a game of Breakthrough has exactly one winner".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result so far: ±1 once won, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// Moves onto the goal row first, then captures, then the rest, each by action id.
    fn order_moves(&self, moves: &[BreakthroughMove], out: &mut Vec<BreakthroughMove>) {
        out.clear();
        out.extend_from_slice(moves);
        let player = usize::from(self.to_move);
        let columns = u32::from(self.rules.columns);
        let goal_row = if player == 0 {
            u32::from(self.rules.rows) - 1
        } else {
            0
        };
        out.sort_by_key(|&mv| {
            let (cell, _, capture) = self.decode(mv);
            let from_row = cell / columns;
            let to_row = if player == 0 {
                from_row + 1
            } else {
                from_row.wrapping_sub(1)
            };
            (to_row != goal_row, !capture, mv.0)
        });
    }

    /// The player and the action id: the same move from the same cell is the same action
    /// whenever it is played.
    fn action_key(player: u8, _label: u8, mv: BreakthroughMove) -> u32 {
        u32::from(player) << 16 | u32::from(mv.0)
    }
}

/// OpenSpiel's `breakthrough` with `rows` and `columns`: action id = the move; returns +1 to
/// the winner and −1 to the loser.
impl OpenSpielTwin for BreakthroughState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "breakthrough",
            params: vec![
                ("rows", OpenSpielParam::Int(i64::from(self.rules.rows))),
                (
                    "columns",
                    OpenSpielParam::Int(i64::from(self.rules.columns)),
                ),
            ],
        }
    }

    fn open_spiel_action(&self, mv: BreakthroughMove) -> i64 {
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
mod tests;
