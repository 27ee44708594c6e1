//! Clobber, as OpenSpiel's `clobber` (parameters `rows` and `columns`, 5 and 6 by default): a
//! board of rows and columns starts full, in a checkerboard pattern of player 0's pieces (`o`,
//! "white", on the bottom-left corner) and player 1's (`x`); player 0 moves first.
//!
//! A move takes one of the mover's pieces to an orthogonally adjacent cell holding an
//! opponent's piece, which leaves the board ("clobbered"); the moved piece's cell is left
//! empty. Every move removes a piece, so a game has fewer moves than cells. The player who
//! cannot move loses, so the player who makes the last move wins; since adjacency is
//! symmetric, both players run out of moves at the same time, the moment no piece has an
//! opponent's piece next to it. There are no draws.
//!
//! It has no chance events. Scores are 1 for the winner and 0 for the loser, so the score
//! difference is the win-loss result.
//!
//! A move *is* OpenSpiel's action id: the mixed-radix number (row, column, direction) of bases
//! (rows, columns, 4), row 0 at the top as OpenSpiel prints it, direction 0 up (row − 1),
//! 1 right, 2 down, 3 left. The board is two bitboards (bit `row * columns + column`), so a
//! board has at most 64 cells.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// OpenSpiel's default rows and columns.
pub const DEFAULT_ROWS: u8 = 5;
pub const DEFAULT_COLUMNS: u8 = 6;

/// The fewest rows or columns: OpenSpiel's action encoding needs two of each (its mixed-radix
/// ranking refuses a base of 1, so a board of one row or column has no legal actions there).
pub const MIN_SIZE: u8 = 2;

/// The most columns: OpenSpiel names columns by the letters a to z.
pub const MAX_COLUMNS: u8 = 26;

/// The most cells a board has: one bit each in a `u64`.
pub const MAX_CELLS: u16 = 64;

/// Directions of OpenSpiel's action encoding: up, right, down, left.
const DIRECTIONS: u16 = 4;

/// The rules of a game of Clobber: the board's size, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedClobberRules")]
pub struct ClobberRules {
    /// Rows: at least 2; 5 by default.
    pub rows: u8,
    /// Columns: 2 to 26; 6 by default. Rows times columns is at most 64.
    pub columns: u8,
}

impl Default for ClobberRules {
    fn default() -> Self {
        ClobberRules {
            rows: DEFAULT_ROWS,
            columns: DEFAULT_COLUMNS,
        }
    }
}

impl ClobberRules {
    /// Rules for a board of `rows` and `columns`, or an error saying what is out of range.
    pub fn new(rows: u8, columns: u8) -> Result<Self, ClobberError> {
        let rules = ClobberRules { rows, columns };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), ClobberError> {
        let (rows, columns) = (self.rows, self.columns);
        if rows < MIN_SIZE
            || !(MIN_SIZE..=MAX_COLUMNS).contains(&columns)
            || self.cells() > MAX_CELLS
        {
            return Err(ClobberError::InvalidSize { rows, columns });
        }
        Ok(())
    }

    /// Cells of the board.
    pub fn cells(&self) -> u16 {
        u16::from(self.rows) * u16::from(self.columns)
    }

    /// OpenSpiel's number of distinct actions: rows × columns × 4 directions.
    pub fn actions(&self) -> u16 {
        self.cells() * DIRECTIONS
    }
}

/// `ClobberRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedClobberRules {
    rows: u8,
    columns: u8,
}

impl TryFrom<UncheckedClobberRules> for ClobberRules {
    type Error = ClobberError;

    fn try_from(raw: UncheckedClobberRules) -> Result<Self, ClobberError> {
        ClobberRules::new(raw.rows, raw.columns)
    }
}

/// A move: OpenSpiel's action id (see the module's documentation). Written as the plain
/// number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClobberMove(pub u16);

impl fmt::Display for ClobberMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "action {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClobberError {
    #[error(
        "a board of {rows} rows and {columns} columns: expected at least {MIN_SIZE} rows, \
         {MIN_SIZE} to {MAX_COLUMNS} columns, and at most {MAX_CELLS} cells"
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
    #[error("Clobber has no chance events")]
    NoChanceEvents,
}

/// The board's shape as bit masks, computed once from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Geometry {
    columns: u8,
    /// Every cell.
    all: u64,
    /// Cells that have a column to their left (column > 0).
    has_left: u64,
    /// Cells that have a column to their right.
    has_right: u64,
}

impl Geometry {
    fn new(rules: ClobberRules) -> Self {
        let cells = u32::from(rules.cells());
        let all = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        let mut first_column = 0u64;
        for row in 0..rules.rows {
            first_column |= 1u64 << (u32::from(row) * u32::from(rules.columns));
        }
        let last_column = first_column << (rules.columns - 1);
        Geometry {
            columns: rules.columns,
            all,
            has_left: all & !first_column,
            has_right: all & !last_column,
        }
    }

    /// The cells of `own` with a cell of `other` next to them in each direction (up, right,
    /// down, left): the sources of the moves from `own` onto `other`.
    fn sources(&self, own: u64, other: u64) -> [u64; 4] {
        let columns = u32::from(self.columns);
        [
            own & (other << columns),
            own & self.has_right & (other >> 1),
            own & (other >> columns),
            own & self.has_left & (other << 1),
        ]
    }

    /// The signed offset of a cell's neighbour in `direction`.
    fn offset(&self, direction: u32) -> i32 {
        let columns = i32::from(self.columns);
        [-columns, 1, columns, -1][direction as usize]
    }
}

/// A position: each player's pieces as a bitboard, the player to move, the winner once there
/// is one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClobberState {
    rules: ClobberRules,
    geometry: Geometry,
    pieces: [u64; 2],
    to_move: u8,
    winner: Option<u8>,
    turns: u16,
}

impl Default for ClobberState {
    fn default() -> Self {
        Self::new(ClobberRules::default()).expect("the default rules are valid")
    }
}

impl ClobberState {
    /// The start of a game under `rules`, player 0 to move, or the rules' error. Every board
    /// the rules accept has a move at the start (it has two adjacent cells).
    pub fn new(rules: ClobberRules) -> Result<Self, ClobberError> {
        rules.check()?;
        let geometry = Geometry::new(rules);
        let mut white = 0u64;
        for row in 0..rules.rows {
            for column in 0..rules.columns {
                // OpenSpiel: white where row + (rows − 1) and column have the same parity.
                if (u32::from(row) + u32::from(rules.rows) - 1 + u32::from(column)) % 2 == 0 {
                    white |=
                        1u64 << (u32::from(row) * u32::from(rules.columns) + u32::from(column));
                }
            }
        }
        Ok(ClobberState {
            rules,
            geometry,
            pieces: [white, geometry.all & !white],
            to_move: 0,
            winner: None,
            turns: 0,
        })
    }

    /// The position after playing `actions` in turn from the start, or the first error.
    pub fn from_moves(rules: ClobberRules, actions: &[u16]) -> Result<Self, ClobberError> {
        let mut state = Self::new(rules)?;
        for &action in actions {
            state.apply_move(ClobberMove(action))?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> ClobberRules {
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

    /// The move from (`row`, `column`) in `direction` (0 up, 1 right, 2 down, 3 left) as
    /// OpenSpiel encodes it, whether legal or not; `None` for a cell off the board.
    pub fn move_at(&self, row: u8, column: u8, direction: u8) -> Option<ClobberMove> {
        if row >= self.rules.rows || column >= self.rules.columns || direction > 3 {
            return None;
        }
        let cell = u16::from(row) * u16::from(self.rules.columns) + u16::from(column);
        Some(ClobberMove(cell * DIRECTIONS + u16::from(direction)))
    }

    /// OpenSpiel's text of a move (`ActionToString`): from and to cells as column letter and
    /// row number (row 1 at the bottom): `a5b5`.
    pub fn move_text(&self, mv: ClobberMove) -> String {
        let cell = i32::from(mv.0 / DIRECTIONS);
        let columns = i32::from(self.rules.columns);
        let (row, column) = (cell / columns, cell % columns);
        let (dr, dc) = [(-1, 0), (0, 1), (1, 0), (0, -1)][usize::from(mv.0 % DIRECTIONS)];
        let label = |r: i32, c: i32| {
            let letter = u8::try_from(c).map_or('?', |c| char::from(b'a' + c));
            format!("{letter}{}", i32::from(self.rules.rows) - r)
        };
        format!("{}{}", label(row, column), label(row + dr, column + dc))
    }

    /// The board as OpenSpiel prints it: the top row first, each row labelled by its number
    /// (the bottom row is 1, aligned on boards of 10 rows or more), `o` player 0, `x` player
    /// 1, `.` empty, then the column letters.
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
                    Some(0) => 'o',
                    Some(_) => 'x',
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

    /// The sources of the mover's legal moves per direction (none once the game is over).
    fn move_sets(&self) -> [u64; 4] {
        if self.winner.is_some() {
            return [0; 4];
        }
        let player = usize::from(self.to_move);
        self.geometry
            .sources(self.pieces[player], self.pieces[1 - player])
    }

    fn action(cell: u32, direction: usize) -> ClobberMove {
        ClobberMove((cell * u32::from(DIRECTIONS) + direction as u32) as u16)
    }
}

impl fmt::Display for ClobberState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for ClobberState {
    type Move = ClobberMove;
    type Error = ClobberError;
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
    fn legal_moves(&self, out: &mut Vec<ClobberMove>) {
        out.clear();
        let sets = self.move_sets();
        let mut sources = sets.iter().fold(0, |a, s| a | s);
        while sources != 0 {
            let cell = sources.trailing_zeros();
            sources &= sources - 1;
            for (direction, set) in sets.iter().enumerate() {
                if set & (1u64 << cell) != 0 {
                    out.push(Self::action(cell, direction));
                }
            }
        }
    }

    fn apply_move(&mut self, mv: ClobberMove) -> Result<(), ClobberError> {
        if self.winner.is_some() {
            return Err(ClobberError::GameOver);
        }
        let actions = self.rules.actions();
        if mv.0 >= actions {
            return Err(ClobberError::NotAnAction {
                action: mv.0,
                actions,
            });
        }
        let cell = u32::from(mv.0 / DIRECTIONS);
        let direction = u32::from(mv.0 % DIRECTIONS);
        let from = 1u64 << cell;
        if self.move_sets()[direction as usize] & from == 0 {
            return Err(ClobberError::Illegal {
                action: mv.0,
                text: self.move_text(mv),
                why: "a move takes one of the mover's pieces onto an adjacent opponent's piece",
            });
        }
        let to = 1u64 << (cell as i32 + self.geometry.offset(direction));
        let player = usize::from(self.to_move);
        self.pieces[player] ^= from | to;
        self.pieces[1 - player] &= !to;
        let [white, black] = self.pieces;
        if self.geometry.sources(white, black).iter().all(|&s| s == 0) {
            self.winner = Some(player as u8);
        }
        self.to_move = 1 - self.to_move;
        self.turns += 1;
        Ok(())
    }

    /// Uniform among the legal moves, without a buffer: a move is picked by its index among
    /// the source sets' bits.
    fn random_move(&self, rng: &mut GameRng) -> Option<ClobberMove> {
        let sets = self.move_sets();
        let count: u32 = sets.iter().map(|s| s.count_ones()).sum();
        if count == 0 {
            return None;
        }
        let mut pick = rng.gen_range(0..count);
        for (direction, &set) in sets.iter().enumerate() {
            let n = set.count_ones();
            if pick < n {
                return Some(Self::action(crate::bits::nth_set_bit(set, pick), direction));
            }
            pick -= n;
        }
        unreachable!("the pick is below the count")
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), ClobberError> {
        Err(ClobberError::NoChanceEvents)
    }

    /// 1 for the winner, 0 for the loser (0 each while the game goes on).
    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// Exactly one winner: 1 and 0, or 0 and 1 (Clobber has no draws).
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores[0] + scores[1] != 1.0 {
            return Err("a game of Clobber has exactly one winner".into());
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

    /// The player and the action id: the same capture from the same cell is the same action
    /// whenever it is played.
    fn action_key(player: u8, _label: u8, mv: ClobberMove) -> u32 {
        u32::from(player) << 16 | u32::from(mv.0)
    }
}

/// OpenSpiel's `clobber` with `rows` and `columns`: action id = the move; returns +1 to the
/// winner and −1 to the loser.
impl OpenSpielTwin for ClobberState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "clobber",
            params: vec![
                ("rows", OpenSpielParam::Int(i64::from(self.rules.rows))),
                (
                    "columns",
                    OpenSpielParam::Int(i64::from(self.rules.columns)),
                ),
            ],
        }
    }

    fn open_spiel_action(&self, mv: ClobberMove) -> i64 {
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
    use evomcts_games::open_spiel_twin::{move_of_action, trace};

    fn rules(rows: u8, columns: u8) -> ClobberRules {
        ClobberRules::new(rows, columns).expect("valid rules")
    }

    fn legal(state: &ClobberState) -> Vec<u16> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.iter().map(|mv| mv.0).collect()
    }

    /// The default board's first moves, ids and texts as OpenSpiel 2.0.2 lists them.
    #[test]
    fn the_default_start_is_openspiels() {
        let mut state = ClobberState::default();
        assert_eq!(state.rules(), rules(5, 6));
        assert_eq!(state.piece_counts(), [15, 15]);
        let expected = "5oxoxox\n4xoxoxo\n3oxoxox\n2xoxoxo\n1oxoxox\n abcdef\n";
        assert_eq!(state.render(), expected);
        let moves = legal(&state);
        assert_eq!(moves.len(), 49);
        assert_eq!(&moves[..6], [1, 2, 9, 10, 11, 17]);
        let texts: Vec<String> = moves[..6]
            .iter()
            .map(|&a| state.move_text(ClobberMove(a)))
            .collect();
        assert_eq!(texts, ["a5b5", "a5a4", "c5d5", "c5c4", "c5b5", "e5f5"]);
        assert_eq!(state.move_at(0, 0, 1), Some(ClobberMove(1)));
        state.apply_move(ClobberMove(1)).unwrap();
        assert_eq!(
            state.render(),
            "5.ooxox\n4xoxoxo\n3oxoxox\n2xoxoxo\n1oxoxox\n abcdef\n"
        );
        let moves = legal(&state);
        assert_eq!(moves.len(), 45);
        assert_eq!(&moves[..4], [13, 14, 15, 22]);
        assert_eq!(state.move_text(ClobberMove(15)), "d5c5");
    }

    /// A game of OpenSpiel's on 2×3: four moves, the last by player 1, who wins with no
    /// pieces left next to each other.
    #[test]
    fn the_last_mover_wins() {
        let mut state = ClobberState::new(rules(2, 3)).unwrap();
        assert_eq!(
            legal(&ClobberState::new(rules(2, 2)).unwrap()),
            [6, 7, 8, 9]
        );
        for (i, &action) in [13, 10, 17].iter().enumerate() {
            assert_eq!(state.to_move(), i % 2);
            state.apply_move(ClobberMove(action)).unwrap();
            assert!(!state.is_over());
        }
        state.apply_move(ClobberMove(1)).unwrap();
        assert!(state.is_over() && !state.at_decision());
        assert_eq!(state.winner(), Some(1));
        assert_eq!(state.render(), "2.x.\n1..o\n abc\n");
        assert_eq!(state.scores(), [0, 1]);
        assert_eq!(state.open_spiel_returns(), [-1.0, 1.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 1.0);
        assert_eq!(state.turns_played(), 4);
        assert!(legal(&state).is_empty());
        assert_eq!(
            state.random_move(&mut rand::SeedableRng::seed_from_u64(0)),
            None
        );
        assert_eq!(
            state.clone().apply_move(ClobberMove(0)),
            Err(ClobberError::GameOver)
        );
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let start = ClobberState::default();
        let mut state = start.clone();
        let refused = state.apply_move(ClobberMove(120)).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "action 120 is not an action of this board (0 to 119)"
        );
        // Up off the board, left off the board, and a piece of the opponent's.
        for action in [0, 3, 5] {
            let refused = state.apply_move(ClobberMove(action)).unwrap_err();
            assert!(matches!(refused, ClobberError::Illegal { .. }), "{refused}");
        }
        assert_eq!(
            state.apply_move(ClobberMove(0)).unwrap_err().to_string(),
            "action 0 (a5a6) is not legal: a move takes one of the mover's pieces onto an \
             adjacent opponent's piece"
        );
        assert_eq!(state, start);
        assert_eq!(
            state.apply_outcome(0).unwrap_err().to_string(),
            "Clobber has no chance events"
        );
    }

    #[test]
    fn bad_sizes_are_refused() {
        for (rows, columns) in [(1, 2), (2, 1), (1, 1), (0, 5), (2, 27), (9, 8), (33, 2)] {
            let refused = ClobberRules::new(rows, columns).unwrap_err();
            assert_eq!(refused, ClobberError::InvalidSize { rows, columns });
        }
        assert_eq!(
            ClobberRules::new(1, 1).unwrap_err().to_string(),
            "a board of 1 rows and 1 columns: expected at least 2 rows, 2 to 26 columns, and at \
             most 64 cells"
        );
        assert!(ClobberRules::new(2, 26).is_ok() && ClobberRules::new(32, 2).is_ok());
        let read: Result<ClobberRules, _> = serde_json::from_str(r#"{"rows":1,"columns":1}"#);
        assert!(read.unwrap_err().to_string().contains("at least 2 rows"));
        let read: ClobberRules = serde_json::from_str(r#"{"rows":4,"columns":4}"#).unwrap();
        assert_eq!(read, rules(4, 4));
        assert!(ClobberState::new(ClobberRules {
            rows: 1,
            columns: 1
        })
        .is_err());
    }

    /// Row labels of two digits are aligned as OpenSpiel aligns them.
    #[test]
    fn tall_boards_render_aligned() {
        let state = ClobberState::new(rules(12, 2)).unwrap();
        let expected = "12xo\n11ox\n10xo\n 9ox\n 8xo\n 7ox\n 6xo\n 5ox\n 4xo\n 3ox\n 2xo\n \
                        1ox\n  ab\n";
        assert_eq!(state.render(), expected);
    }

    #[test]
    fn random_moves_are_uniform_over_the_legal_moves() {
        let state = ClobberState::new(rules(3, 3)).unwrap();
        let moves = legal(&state);
        assert_eq!(moves.len(), 12);
        let mut rng: GameRng = rand::SeedableRng::seed_from_u64(3);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..12_000 {
            *counts
                .entry(state.random_move(&mut rng).unwrap().0)
                .or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 12);
        assert!(
            counts.values().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn traces_replay_and_keys_are_distinct() {
        for rules in [rules(5, 6), rules(4, 4), rules(2, 2), rules(8, 8)] {
            let start = ClobberState::new(rules).unwrap();
            let t = trace(&start, 11).unwrap();
            assert_eq!(trace(&start, 11).unwrap(), t);
            assert!(t.returns == [1.0, -1.0] || t.returns == [-1.0, 1.0]);
            assert!(t.steps.len() < usize::from(rules.cells()));
            for (i, s) in t.steps.iter().enumerate() {
                assert_eq!(s.player, (i % 2) as i64);
                assert!(s.legal.contains(&s.action));
            }
        }
        let start = ClobberState::default();
        assert_eq!(move_of_action(&start, 2), Some(ClobberMove(2)));
        assert_eq!(move_of_action(&start, 0), None);
        assert_ne!(
            ClobberState::action_key(0, 0, ClobberMove(1)),
            ClobberState::action_key(1, 0, ClobberMove(1))
        );
        assert_eq!(serde_json::to_string(&ClobberMove(17)).unwrap(), "17");
    }
}
