//! Checkers, as OpenSpiel's `checkers` (parameters `rows` and `columns`, 8 and 8 by default),
//! its rules exactly:
//!
//! - The pieces stand on the dark cells (row + column odd, row 0 at the top as OpenSpiel
//!   prints it): player 1 ("black", `+`) on the first three rows, player 0 ("white", `o`) on
//!   the last three (rows the first three already hold excepted). Player 0 moves first.
//! - A man moves one cell diagonally forward (player 0 towards row 0, player 1 towards the last
//!   row) to an empty cell, or captures forward: it jumps an adjacent opponent's piece (man or
//!   king) to the empty cell beyond, and the jumped piece leaves the board. A king (`8`, `*`)
//!   moves and captures in all four diagonal directions, one cell at a time (no flying kings).
//! - **Captures are forced**: when any piece of the mover can capture, only captures are legal.
//! - **A multi-jump is several actions by the same player**, as OpenSpiel encodes it: after a
//!   capture, if the piece that captured can capture again, the same player moves again, and
//!   only that piece's captures are legal; otherwise the turn passes.
//! - **Promotion**: a man that ends a move or a jump on the far row becomes a king, and a
//!   crowning jump ends the turn even if the new king could capture again.
//! - **The player to move with no legal move loses.**
//! - **Draw**: after 40 actions in a row without a capture (both players' actions counted,
//!   OpenSpiel's `kMaxMovesWithoutCapture`) no action is legal and the game is drawn.
//!
//! It has no chance events. Scores are 1 for the winner and 0 for the loser, 0 each for a
//! draw, so the score difference is the win-loss result.
//!
//! A move *is* OpenSpiel's action id: the mixed-radix number (row, column, direction, type) of
//! bases (rows, columns, 4, 2), direction 0 up-left (row − 1, column − 1), 1 up-right, 2
//! down-right, 3 down-left, type 0 a plain move and 1 a capture (a jump of two cells). The
//! board is bitboards (bit `row * columns + column`), so a board has at most 64 cells.
//!
//! Boards OpenSpiel does not play faithfully are refused: a start where player 0 has no
//! move (6×6 and every board of fewer than 7 rows: the rows of pieces meet; OpenSpiel's start
//! would be terminal, a draw without a move), and boards with more columns than rows
//! (OpenSpiel records the piece of a multi-jump as row × rows + column and reads it back
//! modulo rows, which names another cell, or aborts, once a column reaches the row count).

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// OpenSpiel's default rows and columns.
pub const DEFAULT_ROWS: u8 = 8;
pub const DEFAULT_COLUMNS: u8 = 8;

/// The fewest rows or columns: OpenSpiel's action encoding needs two of each.
pub const MIN_SIZE: u8 = 2;

/// The most cells a board has: one bit each in a `u64`.
pub const MAX_CELLS: u16 = 64;

/// Actions in a row without a capture after which the game is drawn.
pub const MAX_ACTIONS_WITHOUT_CAPTURE: u8 = 40;

/// Rows of pieces each player starts with.
const ROWS_OF_PIECES: u8 = 3;

/// Directions of OpenSpiel's action encoding.
const DIRECTIONS: u16 = 4;

/// The rules of a game of Checkers: the board's size, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedCheckersRules")]
pub struct CheckersRules {
    /// Rows: 8 by default; at least 7 in effect (a start with a move).
    pub rows: u8,
    /// Columns: 2 up to the rows; 8 by default. Rows times columns is at most 64.
    pub columns: u8,
}

impl Default for CheckersRules {
    fn default() -> Self {
        CheckersRules {
            rows: DEFAULT_ROWS,
            columns: DEFAULT_COLUMNS,
        }
    }
}

impl CheckersRules {
    /// Rules for a board of `rows` and `columns`, or an error saying why the board is
    /// refused.
    pub fn new(rows: u8, columns: u8) -> Result<Self, CheckersError> {
        let rules = CheckersRules { rows, columns };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the board is one the game is played on (the fields are public, so a caller
    /// may have set them): in range, no wider than tall, and a move for player 0 at the start.
    pub fn check(&self) -> Result<(), CheckersError> {
        let (rows, columns) = (self.rows, self.columns);
        if rows < MIN_SIZE || columns < MIN_SIZE || self.cells() > MAX_CELLS {
            return Err(CheckersError::InvalidSize { rows, columns });
        }
        if columns > rows {
            return Err(CheckersError::WiderThanTall { rows, columns });
        }
        if CheckersState::start(*self).move_sets().count() == 0 {
            return Err(CheckersError::StartIsTerminal { rows, columns });
        }
        Ok(())
    }

    /// Cells of the board.
    pub fn cells(&self) -> u16 {
        u16::from(self.rows) * u16::from(self.columns)
    }

    /// OpenSpiel's number of distinct actions: rows × columns × 4 directions × 2 types.
    pub fn actions(&self) -> u16 {
        self.cells() * DIRECTIONS * 2
    }
}

/// `CheckersRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedCheckersRules {
    rows: u8,
    columns: u8,
}

impl TryFrom<UncheckedCheckersRules> for CheckersRules {
    type Error = CheckersError;

    fn try_from(raw: UncheckedCheckersRules) -> Result<Self, CheckersError> {
        CheckersRules::new(raw.rows, raw.columns)
    }
}

/// A move: OpenSpiel's action id (see the module's documentation). Written as the plain
/// number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CheckersMove(pub u16);

impl fmt::Display for CheckersMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckersError {
    #[error(
        "a board of {rows} rows and {columns} columns: expected at least {MIN_SIZE} rows and \
         {MIN_SIZE} columns, and at most {MAX_CELLS} cells"
    )]
    InvalidSize { rows: u8, columns: u8 },
    #[error(
        "a board of {rows} rows and {columns} columns: more columns than rows is refused, since \
         OpenSpiel's checkers records the piece of a multi-jump as row × rows + column and so \
         names another cell (or aborts) on such a board"
    )]
    WiderThanTall { rows: u8, columns: u8 },
    #[error(
        "a board of {rows} rows and {columns} columns: player 0 has no legal move at the start \
         (the three rows of pieces each side leave no room; OpenSpiel's game would be over \
         before the first move)"
    )]
    StartIsTerminal { rows: u8, columns: u8 },
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
    #[error("Checkers has no chance events")]
    NoChanceEvents,
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Outcome {
    Playing,
    Won(u8),
    /// Drawn by the 40 actions without a capture.
    Drawn,
}

/// The board's shape as bit masks, computed once from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Geometry {
    columns: u8,
    /// Every cell.
    all: u64,
    /// Per direction, the cells from which a step in it stays on the board's columns, and
    /// from which a jump does.
    step_ok: [u64; 4],
    jump_ok: [u64; 4],
    /// Each player's crowning row: the first row for player 0, the last for player 1.
    crown: [u64; 2],
}

impl Geometry {
    fn new(rules: CheckersRules) -> Self {
        let (rows, columns) = (u32::from(rules.rows), u32::from(rules.columns));
        let all = if rows * columns == 64 {
            u64::MAX
        } else {
            (1u64 << (rows * columns)) - 1
        };
        let mut column_mask = [0u64; 2];
        let column_at =
            |column: u32| (0..rows).fold(0u64, |m, r| m | 1u64 << (r * columns + column));
        for column in 0..columns.min(2) {
            column_mask[column as usize] = column_at(column);
        }
        let (first, second) = (column_mask[0], column_mask[1]);
        let last = first << (columns - 1);
        let before_last = first << (columns - 2);
        let left = all & !first;
        let left2 = left & !second;
        let right = all & !last;
        let right2 = right & !before_last;
        let first_row = (1u64 << columns) - 1;
        Geometry {
            columns: rules.columns,
            all,
            // Directions: up-left, up-right, down-right, down-left.
            step_ok: [left, right, right, left],
            jump_ok: [left2, right2, right2, left2],
            crown: [first_row, first_row << ((rows - 1) * columns)],
        }
    }

    /// The bit distance of one diagonal step in `direction`, and whether it moves to higher
    /// bits (down the board).
    fn step(&self, direction: usize) -> (u32, bool) {
        let columns = u32::from(self.columns);
        match direction {
            0 => (columns + 1, false),
            1 => (columns - 1, false),
            2 => (columns + 1, true),
            _ => (columns - 1, true),
        }
    }

    /// `bits` moved `times` steps in `direction`.
    fn forward(&self, bits: u64, direction: usize, times: u32) -> u64 {
        let (distance, down) = self.step(direction);
        if down {
            bits << (distance * times)
        } else {
            bits >> (distance * times)
        }
    }

    /// The cells from which `times` steps in `direction` reach a cell of `targets`.
    fn back(&self, targets: u64, direction: usize, times: u32) -> u64 {
        let (distance, down) = self.step(direction);
        if down {
            targets >> (distance * times)
        } else {
            targets << (distance * times)
        }
    }
}

/// The legal moves of a decision as the source cells of each direction; all captures or all
/// plain moves (captures are forced).
#[derive(Clone, Copy, Debug, Default)]
struct MoveSets {
    sources: [u64; 4],
    capture: bool,
}

impl MoveSets {
    fn count(&self) -> u32 {
        self.sources.iter().map(|s| s.count_ones()).sum()
    }
}

/// A position: each player's pieces and the kings among them as bitboards, the player to move,
/// the piece in the middle of a multi-jump, the actions since the last capture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CheckersState {
    rules: CheckersRules,
    geometry: Geometry,
    pieces: [u64; 2],
    kings: u64,
    to_move: u8,
    /// The cell of the piece that must capture again (a multi-jump under way).
    jumping: Option<u8>,
    since_capture: u8,
    outcome: Outcome,
    turns: u16,
}

impl Default for CheckersState {
    fn default() -> Self {
        Self::new(CheckersRules::default()).expect("the default rules are valid")
    }
}

impl CheckersState {
    /// The start of a game under `rules`, player 0 to move, or the rules' error (a board
    /// whose start has no move is refused: [`CheckersError::StartIsTerminal`]).
    pub fn new(rules: CheckersRules) -> Result<Self, CheckersError> {
        rules.check()?;
        Ok(Self::start(rules))
    }

    /// The start of sizes already in range, unchecked otherwise.
    fn start(rules: CheckersRules) -> Self {
        let geometry = Geometry::new(rules);
        let mut pieces = [0u64; 2];
        for row in 0..rules.rows {
            for column in 0..rules.columns {
                if (row + column) % 2 == 1 {
                    let bit =
                        1u64 << (u32::from(row) * u32::from(rules.columns) + u32::from(column));
                    if row < ROWS_OF_PIECES {
                        pieces[1] |= bit;
                    } else if row >= rules.rows - ROWS_OF_PIECES {
                        pieces[0] |= bit;
                    }
                }
            }
        }
        CheckersState {
            rules,
            geometry,
            pieces,
            kings: 0,
            to_move: 0,
            jumping: None,
            since_capture: 0,
            outcome: Outcome::Playing,
            turns: 0,
        }
    }

    /// The position after playing `actions` in turn from the start, or the first error.
    pub fn from_moves(rules: CheckersRules, actions: &[u16]) -> Result<Self, CheckersError> {
        let mut state = Self::new(rules)?;
        for &action in actions {
            state.apply_move(CheckersMove(action))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> CheckersRules {
        self.rules
    }

    /// The winner once the game is over; `None` during the game and after a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.outcome {
            Outcome::Won(p) => Some(usize::from(p)),
            _ => None,
        }
    }

    /// Whether the game ended drawn (40 actions without a capture).
    pub fn is_drawn(&self) -> bool {
        self.outcome == Outcome::Drawn
    }

    /// Actions since the last capture (or the start).
    pub fn actions_since_capture(&self) -> u8 {
        self.since_capture
    }

    /// Whether the player to move is in the middle of a multi-jump (must capture again with
    /// the piece that just captured).
    pub fn in_multi_jump(&self) -> bool {
        self.jumping.is_some()
    }

    /// The piece at `row` (0 at the top) and `column`: its player and whether it is a king.
    pub fn cell(&self, row: u8, column: u8) -> Option<(usize, bool)> {
        if row >= self.rules.rows || column >= self.rules.columns {
            return None;
        }
        let bit = 1u64 << (u32::from(row) * u32::from(self.rules.columns) + u32::from(column));
        (0..2)
            .find(|&p| self.pieces[p] & bit != 0)
            .map(|p| (p, self.kings & bit != 0))
    }

    /// Pieces each player has on the board, kings included.
    pub fn piece_counts(&self) -> [u32; 2] {
        self.pieces.map(u64::count_ones)
    }

    /// OpenSpiel's text of a move (`ActionToString`): from and to cells as column letter and
    /// row number (row 1 at the bottom): `a3b4`, a capture `c3e5`.
    pub fn move_text(&self, mv: CheckersMove) -> String {
        let (cell, direction, capture) = decode(mv);
        let columns = i32::from(self.rules.columns);
        let (row, column) = (cell as i32 / columns, cell as i32 % columns);
        let (dr, dc) = [(-1, -1), (-1, 1), (1, 1), (1, -1)][direction];
        let reach = if capture { 2 } else { 1 };
        let label = |r: i32, c: i32| {
            let letter = u8::try_from(c).map_or('?', |c| char::from(b'a' + c));
            format!("{letter}{}", i32::from(self.rules.rows) - r)
        };
        format!(
            "{}{}",
            label(row, column),
            label(row + dr * reach, column + dc * reach)
        )
    }

    /// The board as OpenSpiel prints it: the top row first, each row labelled by its number
    /// (the bottom row is 1, aligned on boards of 10 rows or more), `o` and `8` player 0's man
    /// and king, `+` and `*` player 1's, `.` empty, then the column letters.
    pub fn render(&self) -> String {
        let (rows, columns) = (self.rules.rows, self.rules.columns);
        let mut text = String::new();
        for row in 0..rows {
            if rows - row < 10 && rows >= 10 {
                text.push(' ');
            }
            text.push_str(&(rows - row).to_string());
            for column in 0..columns {
                text.push(match self.cell(row, column) {
                    Some((0, false)) => 'o',
                    Some((0, true)) => '8',
                    Some((_, false)) => '+',
                    Some((_, true)) => '*',
                    None => '.',
                });
            }
            text.push('\n');
        }
        if rows >= 10 {
            text.push(' ');
        }
        text.push(' ');
        for column in 0..columns {
            text.push(char::from(b'a' + column));
        }
        text.push('\n');
        text
    }

    /// The mover's pieces that may move in each direction: kings in all four, men forward.
    fn movers(&self, own: u64) -> [u64; 4] {
        let kings = own & self.kings;
        if self.to_move == 0 {
            [own, own, kings, kings]
        } else {
            [kings, kings, own, own]
        }
    }

    /// The captures of `movers` (per direction) onto the opponent's pieces.
    fn captures(&self, movers: [u64; 4]) -> [u64; 4] {
        let g = &self.geometry;
        let opponent = self.pieces[1 - usize::from(self.to_move)];
        let empty = g.all & !(self.pieces[0] | self.pieces[1]);
        let mut sources = [0u64; 4];
        for d in 0..4 {
            sources[d] = movers[d] & g.jump_ok[d] & g.back(opponent, d, 1) & g.back(empty, d, 2);
        }
        sources
    }

    /// The legal moves of the player to move (none once the game is over or drawn).
    fn move_sets(&self) -> MoveSets {
        if self.outcome != Outcome::Playing || self.since_capture >= MAX_ACTIONS_WITHOUT_CAPTURE {
            return MoveSets::default();
        }
        let own = self.pieces[usize::from(self.to_move)];
        let own = match self.jumping {
            Some(cell) => own & 1u64 << cell,
            None => own,
        };
        let movers = self.movers(own);
        let captures = self.captures(movers);
        if captures.iter().any(|&s| s != 0) || self.jumping.is_some() {
            return MoveSets {
                sources: captures,
                capture: true,
            };
        }
        let g = &self.geometry;
        let empty = g.all & !(self.pieces[0] | self.pieces[1]);
        let mut sources = [0u64; 4];
        for d in 0..4 {
            sources[d] = movers[d] & g.step_ok[d] & g.back(empty, d, 1);
        }
        MoveSets {
            sources,
            capture: false,
        }
    }

    fn action(cell: u32, direction: usize, capture: bool) -> CheckersMove {
        let id = (cell * u32::from(DIRECTIONS) + direction as u32) * 2 + u32::from(capture);
        CheckersMove(id as u16)
    }

    fn illegal(&self, mv: CheckersMove, why: &'static str) -> CheckersError {
        CheckersError::Illegal {
            action: mv.0,
            text: self.move_text(mv),
            why,
        }
    }
}

/// (cell, direction, capture) of an action id.
fn decode(mv: CheckersMove) -> (u32, usize, bool) {
    let id = u32::from(mv.0);
    (
        id / (2 * u32::from(DIRECTIONS)),
        ((id / 2) % u32::from(DIRECTIONS)) as usize,
        id % 2 == 1,
    )
}

impl fmt::Display for CheckersState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for CheckersState {
    type Move = CheckersMove;
    type Error = CheckersError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    fn at_decision(&self) -> bool {
        self.outcome == Outcome::Playing
    }

    fn is_over(&self) -> bool {
        self.outcome != Outcome::Playing
    }

    /// Every action is a decision, each jump of a multi-jump included.
    fn turns_played(&self) -> usize {
        usize::from(self.turns)
    }

    /// The legal moves by ascending action id (the order of OpenSpiel's `LegalActions`).
    fn legal_moves(&self, out: &mut Vec<CheckersMove>) {
        out.clear();
        let sets = self.move_sets();
        let mut sources = sets.sources.iter().fold(0, |a, s| a | s);
        while sources != 0 {
            let cell = sources.trailing_zeros();
            sources &= sources - 1;
            for (direction, set) in sets.sources.iter().enumerate() {
                if set & (1u64 << cell) != 0 {
                    out.push(Self::action(cell, direction, sets.capture));
                }
            }
        }
    }

    fn apply_move(&mut self, mv: CheckersMove) -> Result<(), CheckersError> {
        if self.outcome != Outcome::Playing {
            return Err(CheckersError::GameOver);
        }
        let actions = self.rules.actions();
        if mv.0 >= actions {
            return Err(CheckersError::NotAnAction {
                action: mv.0,
                actions,
            });
        }
        let (cell, direction, capture) = decode(mv);
        let from = 1u64 << cell;
        let sets = self.move_sets();
        if sets.sources[direction] & from == 0 || sets.capture != capture {
            let why = if self.pieces[usize::from(self.to_move)] & from == 0 {
                "the mover has no piece on the cell it moves from"
            } else if sets.capture && !capture {
                "a capture is possible, and captures are forced"
            } else if self.jumping.is_some() {
                "a multi-jump is under way: only the jumping piece's captures are legal"
            } else {
                "the piece cannot move so (men move forward; a move goes to an empty cell, a \
                 capture jumps an opponent's piece to an empty cell)"
            };
            return Err(self.illegal(mv, why));
        }
        let g = self.geometry;
        let player = usize::from(self.to_move);
        let to = g.forward(from, direction, if capture { 2 } else { 1 });
        let king = self.kings & from != 0;
        self.pieces[player] ^= from | to;
        if king {
            self.kings ^= from | to;
        }
        let crowned = !king && to & g.crown[player] != 0;
        if crowned {
            self.kings |= to;
        }
        self.jumping = None;
        let mut again = false;
        if capture {
            let jumped = g.forward(from, direction, 1);
            self.pieces[1 - player] &= !jumped;
            self.kings &= !jumped;
            self.since_capture = 0;
            if !crowned {
                let movers = self.movers(to);
                again = self.captures(movers).iter().any(|&s| s != 0);
            }
        } else {
            self.since_capture += 1;
        }
        if again {
            self.jumping = Some(to.trailing_zeros() as u8);
        } else {
            self.to_move = 1 - self.to_move;
        }
        self.turns += 1;
        if self.move_sets().count() == 0 {
            self.outcome = if self.since_capture >= MAX_ACTIONS_WITHOUT_CAPTURE {
                Outcome::Drawn
            } else {
                Outcome::Won(1 - self.to_move)
            };
        }
        Ok(())
    }

    /// Uniform among the legal moves, without a buffer: a move is picked by its index among
    /// the source sets' bits.
    fn random_move(&self, rng: &mut GameRng) -> Option<CheckersMove> {
        let sets = self.move_sets();
        let count = sets.count();
        if count == 0 {
            return None;
        }
        let mut pick = rng.gen_range(0..count);
        for (direction, &set) in sets.sources.iter().enumerate() {
            let n = set.count_ones();
            if pick < n {
                return Some(Self::action(
                    crate::bits::nth_set_bit(set, pick),
                    direction,
                    sets.capture,
                ));
            }
            pick -= n;
        }
        unreachable!("the pick is below the count")
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), CheckersError> {
        Err(CheckersError::NoChanceEvents)
    }

    /// 1 for the winner, 0 for the loser, 0 each for a draw (and while the game goes on).
    fn scores(&self) -> [i32; 2] {
        match self.outcome {
            Outcome::Won(0) => [1, 0],
            Outcome::Won(_) => [0, 1],
            _ => [0, 0],
        }
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// One winner at most: 1 and 0, 0 and 1, or 0 and 0 for a draw.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of Checkers has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result so far: ±1 once won, 0 before and after a draw.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the action id: the same move from the same cell is the same action
    /// whenever it is played.
    fn action_key(player: u8, _label: u8, mv: CheckersMove) -> u32 {
        u32::from(player) << 16 | u32::from(mv.0)
    }
}

/// OpenSpiel's `checkers` with `rows` and `columns` (`egocentric` changes only observations):
/// action id = the move; returns +1 to the winner and −1 to the loser, 0 each for a draw.
impl OpenSpielTwin for CheckersState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "checkers",
            params: vec![
                ("rows", OpenSpielParam::Int(i64::from(self.rules.rows))),
                (
                    "columns",
                    OpenSpielParam::Int(i64::from(self.rules.columns)),
                ),
            ],
        }
    }

    fn open_spiel_action(&self, mv: CheckersMove) -> i64 {
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
