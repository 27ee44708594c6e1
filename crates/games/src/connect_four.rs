//! Connect Four, as OpenSpiel's `connect_four`: two players drop discs into a board of 6 rows
//! and 7 columns, player 0 first; a disc falls to the lowest empty cell of its column; four of
//! one player's discs in a row, horizontally, vertically or diagonally, win; a full board
//! without a line is a draw.
//!
//! It has no chance events: every state is a decision or the end, so the searches never
//! reach the chance methods of [`Game`], which here only say that nothing is left to chance.
//! It gives the searches a game whose value rests on tactics rather than on luck.
//!
//! Scores are 1 for the winner and 0 for the loser (0 each for a draw), so the score
//! difference is the win-loss result.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::open_spiel_twin::{OpenSpielName, OpenSpielTwin};
use super::{Evaluation, Game, GameRng, Objective};

/// Rows of the board.
pub const ROWS: u8 = 6;

/// Columns of the board.
pub const COLUMNS: u8 = 7;

/// Bits per column of a bitboard: the rows plus one that stays empty, so that shifting a
/// line of discs off the top of a column or off the last column never lands on a disc.
const STRIDE: u8 = ROWS + 1;

/// The shifts from a cell to its neighbour along a line: vertical, horizontal and the two
/// diagonals.
const DIRECTIONS: [u8; 4] = [1, STRIDE, STRIDE - 1, STRIDE + 1];

/// A move: the column (0 to 6) the mover drops a disc into. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ConnectFourMove(pub u8);

impl fmt::Display for ConnectFourMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}", self.0)
    }
}

/// Why a move or an outcome is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConnectFourError {
    #[error("column {column} is not a column (0 to {})", COLUMNS - 1)]
    NotAColumn { column: u8 },
    #[error("column {column} is full")]
    ColumnFull { column: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("Connect Four has no chance events")]
    NoChanceEvents,
}

/// A position: each player's discs as a bitboard (bit `column * 7 + row`, row 0 at the
/// bottom), so a clone is a few words and a line is found by shifts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFourState {
    discs: [u64; 2],
    /// Discs in each column: where the next disc of the column lands.
    heights: [u8; COLUMNS as usize],
    /// Discs on the board; also whose turn it is (player 0 after an even count).
    played: u8,
    /// The player who made a line, kept so that the end needs no search of the board.
    winner: Option<u8>,
}

impl Default for ConnectFourState {
    fn default() -> Self {
        Self::new()
    }
}

impl ConnectFourState {
    /// The empty board, player 0 to move.
    pub fn new() -> Self {
        ConnectFourState {
            discs: [0, 0],
            heights: [0; COLUMNS as usize],
            played: 0,
            winner: None,
        }
    }

    /// The position after playing `columns` in turn from the start, or the first move's
    /// error.
    pub fn from_moves(columns: &[u8]) -> Result<Self, ConnectFourError> {
        let mut state = Self::new();
        for &column in columns {
            state.apply_move(ConnectFourMove(column))?;
        }
        Ok(state)
    }

    /// The player who made a line; `None` during the game and after a draw.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The player whose disc is at `row` (0 at the bottom) of `column`, if any.
    pub fn cell(&self, row: u8, column: u8) -> Option<usize> {
        if row >= ROWS || column >= COLUMNS {
            return None;
        }
        let bit = 1u64 << (column * STRIDE + row);
        (0..2).find(|&player| self.discs[player] & bit != 0)
    }

    /// The board for people, as OpenSpiel prints it: 6 lines of 7 characters, the top row
    /// first, `.` empty, `x` player 0, `o` player 1, each line ending in a newline.
    pub fn render(&self) -> String {
        let mut text = String::with_capacity(usize::from(ROWS * (COLUMNS + 1)));
        for row in (0..ROWS).rev() {
            for column in 0..COLUMNS {
                text.push(match self.cell(row, column) {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn is_full(&self) -> bool {
        self.played == ROWS * COLUMNS
    }

    fn open(&self, column: u8) -> bool {
        self.heights[usize::from(column)] < ROWS
    }

    /// The open columns, left to right; none once the game is over.
    fn open_columns(&self) -> impl Iterator<Item = u8> + '_ {
        let over = self.is_over();
        (0..COLUMNS).filter(move |&c| !over && self.open(c))
    }
}

/// Whether `discs` hold four in a row: for each direction, the cells whose neighbour also
/// holds a disc, paired again two steps on.
fn has_line(discs: u64) -> bool {
    DIRECTIONS.iter().any(|&d| {
        let pairs = discs & (discs >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

impl fmt::Display for ConnectFourState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for ConnectFourState {
    type Move = ConnectFourMove;
    type Error = ConnectFourError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::new()
    }

    fn to_move(&self) -> usize {
        usize::from(self.played % 2)
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    fn is_over(&self) -> bool {
        self.winner.is_some() || self.is_full()
    }

    /// Every disc on the board was one decision.
    fn turns_played(&self) -> usize {
        usize::from(self.played)
    }

    /// The open columns, left to right.
    fn legal_moves(&self, out: &mut Vec<ConnectFourMove>) {
        out.clear();
        out.extend(self.open_columns().map(ConnectFourMove));
    }

    fn apply_move(&mut self, mv: ConnectFourMove) -> Result<(), ConnectFourError> {
        let column = mv.0;
        if self.is_over() {
            return Err(ConnectFourError::GameOver);
        }
        if column >= COLUMNS {
            return Err(ConnectFourError::NotAColumn { column });
        }
        if !self.open(column) {
            return Err(ConnectFourError::ColumnFull { column });
        }
        let mover = self.to_move();
        let height = &mut self.heights[usize::from(column)];
        self.discs[mover] |= 1u64 << (column * STRIDE + *height);
        *height += 1;
        self.played += 1;
        // Only the mover's new disc can have made a line, so only the mover's discs are
        // looked at.
        if has_line(self.discs[mover]) {
            self.winner = Some(mover as u8);
        }
        Ok(())
    }

    /// Uniform among the open columns, without a buffer: rollouts call it at every move.
    fn random_move(&self, rng: &mut GameRng) -> Option<ConnectFourMove> {
        let open = self.open_columns().count();
        if open == 0 {
            return None;
        }
        let pick = rng.gen_range(0..open);
        self.open_columns().nth(pick).map(ConnectFourMove)
    }

    /// Every decision is the same kind: where to drop a disc.
    fn decision_label(&self) -> u8 {
        0
    }

    // No chance events: the trait's defaults for the other chance methods apply.
    fn apply_outcome(&mut self, _label: u8) -> Result<(), ConnectFourError> {
        Err(ConnectFourError::NoChanceEvents)
    }

    /// 1 for the player who made a line, 0 otherwise (a draw, or a game still going).
    fn scores(&self) -> [i32; 2] {
        match self.winner {
            Some(0) => [1, 0],
            Some(_) => [0, 1],
            None => [0, 0],
        }
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// One winner at most: 1 and 0, 0 and 1, or 0 and 0 for a draw.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of Connect Four has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result so far: ±1 once a line is made, 0 before (the game offers only
    /// `ScoreDifference`, with no knowledge of threats).
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    /// Scores are 0 or 1 and only one player scores.
    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// Centre columns first (3, 2, 4, 1, 5, 0, 6): they lie on the most lines, so an exact
    /// search meets its best moves early and cuts more.
    fn order_moves(&self, moves: &[ConnectFourMove], out: &mut Vec<ConnectFourMove>) {
        out.clear();
        out.extend_from_slice(moves);
        out.sort_by_key(|mv| (mv.0.abs_diff(COLUMNS / 2), mv.0));
    }

    /// The player and the column: a disc in a column is the same action whenever it is
    /// dropped, as RAVE's all-moves-as-first statistics want.
    fn action_key(player: u8, _label: u8, mv: ConnectFourMove) -> u32 {
        u32::from(player) * u32::from(COLUMNS) + u32::from(mv.0)
    }
}

/// OpenSpiel's `connect_four` (6 rows, 7 columns): action id = column; returns +1 to the
/// winner and −1 to the loser, 0 each for a draw.
impl OpenSpielTwin for ConnectFourState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "connect_four",
            params: Vec::new(),
        }
    }

    fn open_spiel_action(&self, mv: ConnectFourMove) -> i64 {
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

    fn play(columns: &[u8]) -> ConnectFourState {
        ConnectFourState::from_moves(columns).expect("the moves are legal")
    }

    /// The move before the last made no line, and the last one made the given player's.
    fn assert_won_by(columns: &[u8], player: usize) {
        let (last, before) = columns.split_last().unwrap();
        let mut state = play(before);
        assert!(!state.is_over(), "over before the last move:\n{state}");
        assert_eq!(state.to_move(), player);
        state.apply_move(ConnectFourMove(*last)).unwrap();
        assert!(state.is_over() && !state.at_decision());
        assert_eq!(state.winner(), Some(player), "\n{state}");
        let expected = if player == 0 { [1, 0] } else { [0, 1] };
        assert_eq!(state.scores(), expected);
        assert_eq!(state.evaluate(player, Evaluation::ScoreDifference), 1.0);
        assert_eq!(
            state.evaluate(1 - player, Evaluation::ScoreDifference),
            -1.0
        );
        let mut moves = vec![ConnectFourMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(
            state.random_move(&mut rand::SeedableRng::seed_from_u64(0)),
            None
        );
    }

    #[test]
    fn a_horizontal_line_wins() {
        assert_won_by(&[0, 0, 1, 1, 2, 2, 3], 0);
        // By player 1, on the right, while player 0 stacks a square on the left.
        assert_won_by(&[0, 3, 0, 4, 1, 5, 1, 6], 1);
    }

    #[test]
    fn a_vertical_line_wins() {
        assert_won_by(&[0, 1, 0, 1, 2, 1, 6, 1], 1);
        assert_won_by(&[6, 5, 6, 5, 6, 5, 6], 0);
    }

    #[test]
    fn a_rising_diagonal_wins() {
        // Player 0 on (0,0), (1,1), (2,2), (3,3) as (column, row).
        assert_won_by(&[0, 1, 1, 2, 3, 2, 2, 3, 6, 3, 3], 0);
    }

    #[test]
    fn a_falling_diagonal_wins() {
        // Player 1 on (3,3), (4,2), (5,1), (6,0).
        assert_won_by(&[0, 6, 5, 5, 4, 3, 4, 4, 3, 0, 3, 3], 1);
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        // Columns alternate discs upwards; the column pattern A A B B A A B (B starting with
        // player 1) never repeats a row four times, and has no alternating run of four
        // columns, which a diagonal would need.
        let columns: Vec<u8> = [0, 2, 1, 3, 4, 6, 5].repeat(6);
        assert_eq!(columns.len(), 42);
        let state = play(&columns);
        assert!(state.is_over() && !state.at_decision());
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
        assert_eq!(state.turns_played(), 42);
        assert!(!has_line(state.discs[0]) && !has_line(state.discs[1]));
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 0.0);
        let mut after = state.clone();
        assert_eq!(
            after.apply_move(ConnectFourMove(0)),
            Err(ConnectFourError::GameOver)
        );
        assert_eq!(after, state);
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let full = play(&[3; 6]);
        let mut state = full.clone();
        let refused = state.apply_move(ConnectFourMove(3)).unwrap_err();
        assert_eq!(refused, ConnectFourError::ColumnFull { column: 3 });
        assert_eq!(refused.to_string(), "column 3 is full");
        let refused = state.apply_move(ConnectFourMove(7)).unwrap_err();
        assert_eq!(refused, ConnectFourError::NotAColumn { column: 7 });
        assert_eq!(refused.to_string(), "column 7 is not a column (0 to 6)");
        assert_eq!(state, full);

        let mut over = play(&[0, 0, 1, 1, 2, 2, 3]);
        let refused = over.apply_move(ConnectFourMove(4)).unwrap_err();
        assert_eq!(refused.to_string(), "the game is over");
        assert_eq!(over.turns_played(), 7);
        let refused = over.apply_outcome(0).unwrap_err();
        assert_eq!(refused.to_string(), "Connect Four has no chance events");
        assert_eq!(
            ConnectFourState::from_moves(&[9]),
            Err(ConnectFourError::NotAColumn { column: 9 })
        );
    }

    #[test]
    fn legal_moves_are_the_open_columns_in_order() {
        let mut moves = Vec::new();
        ConnectFourState::new().legal_moves(&mut moves);
        assert_eq!(moves, (0..7).map(ConnectFourMove).collect::<Vec<_>>());
        let state = play(&[3, 3, 3, 3, 3, 3, 6, 6, 6, 6, 6, 6]);
        state.legal_moves(&mut moves);
        let open: Vec<u8> = moves.iter().map(|mv| mv.0).collect();
        assert_eq!(open, [0, 1, 2, 4, 5]);
        let mut ordered = Vec::new();
        state.order_moves(&moves, &mut ordered);
        let ordered: Vec<u8> = ordered.iter().map(|mv| mv.0).collect();
        assert_eq!(ordered, [2, 4, 1, 5, 0]);
        assert_eq!(state.to_move(), 0);
        assert_eq!(state.turns_played(), 12);
    }

    #[test]
    fn random_moves_are_uniform_over_the_open_columns() {
        let state = play(&[3; 6]);
        let mut rng: GameRng = rand::SeedableRng::seed_from_u64(1);
        let mut counts = [0; 7];
        for _ in 0..6000 {
            counts[usize::from(state.random_move(&mut rng).unwrap().0)] += 1;
        }
        assert_eq!(counts[3], 0);
        assert!(
            counts
                .iter()
                .enumerate()
                .all(|(c, &n)| c == 3 || (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn render_draws_the_board_top_row_first() {
        let state = play(&[3, 3, 2]);
        let expected = ".......\n.......\n.......\n.......\n...o...\n..xx...\n";
        assert_eq!(state.render(), expected);
        assert_eq!(state.to_string(), expected);
        assert_eq!(state.cell(0, 2), Some(0));
        assert_eq!(state.cell(1, 3), Some(1));
        assert_eq!(state.cell(2, 3), None);
    }

    #[test]
    fn moves_are_plain_numbers_and_keys_are_distinct() {
        assert_eq!(serde_json::to_string(&ConnectFourMove(4)).unwrap(), "4");
        let mv: ConnectFourMove = serde_json::from_str("6").unwrap();
        assert_eq!(mv, ConnectFourMove(6));
        let mut keys: Vec<u32> = (0..2u8)
            .flat_map(|p| {
                (0..7).map(move |c| ConnectFourState::action_key(p, 0, ConnectFourMove(c)))
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 14);
    }
}
