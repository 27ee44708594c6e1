//! Tic-tac-toe, as OpenSpiel's `tic_tac_toe`: two players mark the empty cells of a 3 × 3
//! board in turn, player 0 (`x`) first; three of one player's marks in a row, a column or a
//! diagonal win; a full board without a line is a draw.
//!
//! It has no chance events and no parameters: every state is a decision or the end. A cell is
//! numbered `row * 3 + column` from the top left, which is OpenSpiel's action id of marking it.
//!
//! Scores are 1 for the winner and 0 for the loser (0 each for a draw), so the score
//! difference is the win-loss result.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// Cells of the board.
pub const CELLS: u8 = 9;

/// Every cell's bit.
const FULL: u16 = (1 << CELLS) - 1;

/// The eight lines: three rows, three columns, two diagonals, as masks of cells.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A move: the cell (0 to 8, `row * 3 + column`) the mover marks. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TicTacToeMove(pub u8);

impl fmt::Display for TicTacToeMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cell {} (row {}, column {})",
            self.0,
            self.0 / 3,
            self.0 % 3
        )
    }
}

/// Why a move or an outcome is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TicTacToeError {
    #[error("cell {cell} is not a cell (0 to {})", CELLS - 1)]
    NotACell { cell: u8 },
    #[error("cell {cell} is taken")]
    CellTaken { cell: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("tic-tac-toe has no chance events")]
    NoChanceEvents,
}

/// A position: each player's marks as 9 bits (bit `row * 3 + column`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToeState {
    marks: [u16; 2],
    /// The player who made a line.
    winner: Option<u8>,
}

impl Default for TicTacToeState {
    fn default() -> Self {
        Self::new()
    }
}

impl TicTacToeState {
    /// The empty board, player 0 (`x`) to move.
    pub fn new() -> Self {
        TicTacToeState {
            marks: [0, 0],
            winner: None,
        }
    }

    /// The position after playing `cells` in turn from the start, or the first move's error.
    pub fn from_moves(cells: &[u8]) -> Result<Self, TicTacToeError> {
        let mut state = Self::new();
        for &cell in cells {
            state.apply_move(TicTacToeMove(cell))?;
        }
        Ok(state)
    }

    /// The player who made a line; `None` during the game and after a draw.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The player whose mark is at `cell`, if any.
    pub fn cell(&self, cell: u8) -> Option<usize> {
        if cell >= CELLS {
            return None;
        }
        (0..2).find(|&player| self.marks[player] & (1 << cell) != 0)
    }

    /// The board for people, as OpenSpiel prints it: 3 lines of 3 characters, `.` empty, `x`
    /// player 0, `o` player 1, each line ending in a newline.
    pub fn render(&self) -> String {
        let mut text = String::with_capacity(12);
        for cell in 0..CELLS {
            text.push(match self.cell(cell) {
                Some(0) => 'x',
                Some(_) => 'o',
                None => '.',
            });
            if cell % 3 == 2 {
                text.push('\n');
            }
        }
        text
    }

    fn occupied(&self) -> u16 {
        self.marks[0] | self.marks[1]
    }

    fn played(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The empty cells as bits; none once the game is over.
    fn empty(&self) -> u16 {
        if self.winner.is_some() {
            0
        } else {
            !self.occupied() & FULL
        }
    }
}

/// The cells of the set bits of `bits`, lowest first.
fn cells_of(mut bits: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let cell = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            cell
        })
    })
}

fn has_line(marks: u16) -> bool {
    LINES.iter().any(|&line| line & !marks == 0)
}

impl fmt::Display for TicTacToeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for TicTacToeState {
    type Move = TicTacToeMove;
    type Error = TicTacToeError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::new()
    }

    fn to_move(&self) -> usize {
        (self.played() % 2) as usize
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    fn is_over(&self) -> bool {
        self.winner.is_some() || self.occupied() == FULL
    }

    /// Every mark on the board was one decision.
    fn turns_played(&self) -> usize {
        self.played() as usize
    }

    /// The empty cells, in order.
    fn legal_moves(&self, out: &mut Vec<TicTacToeMove>) {
        out.clear();
        out.extend(cells_of(self.empty()).map(TicTacToeMove));
    }

    fn apply_move(&mut self, mv: TicTacToeMove) -> Result<(), TicTacToeError> {
        let cell = mv.0;
        if self.is_over() {
            return Err(TicTacToeError::GameOver);
        }
        if cell >= CELLS {
            return Err(TicTacToeError::NotACell { cell });
        }
        if self.occupied() & (1 << cell) != 0 {
            return Err(TicTacToeError::CellTaken { cell });
        }
        let mover = self.to_move();
        self.marks[mover] |= 1 << cell;
        if has_line(self.marks[mover]) {
            self.winner = Some(mover as u8);
        }
        Ok(())
    }

    /// Uniform among the empty cells, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<TicTacToeMove> {
        let empty = self.empty();
        let open = empty.count_ones();
        if open == 0 {
            return None;
        }
        cells_of(empty)
            .nth(rng.gen_range(0..open) as usize)
            .map(TicTacToeMove)
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), TicTacToeError> {
        Err(TicTacToeError::NoChanceEvents)
    }

    /// 1 for the player who made a line, 0 otherwise (a draw, or a game still going).
    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// One winner at most.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of tic-tac-toe has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result so far: ±1 once a line is made, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The centre first, then the corners, then the edges: the cells on most lines first.
    fn order_moves(&self, moves: &[TicTacToeMove], out: &mut Vec<TicTacToeMove>) {
        const LINES_THROUGH: [u8; 9] = [3, 2, 3, 2, 4, 2, 3, 2, 3];
        out.clear();
        out.extend_from_slice(moves);
        out.sort_by_key(|mv| {
            (
                std::cmp::Reverse(LINES_THROUGH[usize::from(mv.0 % 9)]),
                mv.0,
            )
        });
    }

    /// The player and the cell.
    fn action_key(player: u8, _label: u8, mv: TicTacToeMove) -> u32 {
        u32::from(player) * u32::from(CELLS) + u32::from(mv.0)
    }
}

/// OpenSpiel's `tic_tac_toe` (no parameters): action id = cell; returns +1 to the winner and
/// −1 to the loser, 0 each for a draw.
impl OpenSpielTwin for TicTacToeState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "tic_tac_toe",
            params: Vec::new(),
        }
    }

    fn open_spiel_action(&self, mv: TicTacToeMove) -> i64 {
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

    fn play(cells: &[u8]) -> TicTacToeState {
        TicTacToeState::from_moves(cells).expect("the moves are legal")
    }

    fn assert_won_by(cells: &[u8], player: usize) {
        let (last, before) = cells.split_last().unwrap();
        let mut state = play(before);
        assert!(!state.is_over(), "over before the last move:\n{state}");
        assert_eq!(state.to_move(), player);
        state.apply_move(TicTacToeMove(*last)).unwrap();
        assert!(state.is_over() && !state.at_decision());
        assert_eq!(state.winner(), Some(player), "\n{state}");
        assert_eq!(state.evaluate(player, Evaluation::ScoreDifference), 1.0);
        assert_eq!(
            state.evaluate(1 - player, Evaluation::ScoreDifference),
            -1.0
        );
        let mut moves = vec![TicTacToeMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(
            state.random_move(&mut rand::SeedableRng::seed_from_u64(0)),
            None
        );
        let returns = state.open_spiel_returns();
        assert_eq!(returns[player], 1.0);
        assert_eq!(returns[1 - player], -1.0);
    }

    #[test]
    fn every_line_wins() {
        assert_won_by(&[0, 3, 1, 4, 2], 0);
        assert_won_by(&[0, 3, 8, 4, 1, 5], 1);
        assert_won_by(&[6, 0, 7, 1, 8], 0);
        assert_won_by(&[0, 1, 3, 2, 6], 0);
        assert_won_by(&[0, 1, 3, 4, 8, 7], 1);
        assert_won_by(&[2, 0, 5, 1, 8], 0);
        assert_won_by(&[0, 1, 4, 2, 8], 0);
        assert_won_by(&[0, 2, 1, 4, 8, 6], 1);
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        // x o x / x o o / o x x
        let state = play(&[0, 1, 2, 4, 3, 5, 7, 6, 8]);
        assert!(state.is_over());
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
        assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
        assert_eq!(state.turns_played(), 9);
        assert_eq!(state.render(), "xox\nxoo\noxx\n");
    }

    #[test]
    fn a_line_on_the_last_cell_wins_not_draws() {
        // x o x / o o x / o x x: the ninth mark completes x's right column.
        let state = play(&[0, 1, 2, 3, 5, 4, 7, 6, 8]);
        assert_eq!(state.winner(), Some(0), "\n{state}");
        assert_eq!(state.render(), "xox\noox\noxx\n");
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let before = play(&[4]);
        let mut state = before.clone();
        assert_eq!(
            state.apply_move(TicTacToeMove(4)),
            Err(TicTacToeError::CellTaken { cell: 4 })
        );
        let refused = state.apply_move(TicTacToeMove(9)).unwrap_err();
        assert_eq!(refused.to_string(), "cell 9 is not a cell (0 to 8)");
        assert_eq!(state, before);
        let mut over = play(&[0, 3, 1, 4, 2]);
        assert_eq!(
            over.apply_move(TicTacToeMove(8)),
            Err(TicTacToeError::GameOver)
        );
        assert_eq!(over.apply_outcome(0), Err(TicTacToeError::NoChanceEvents));
    }

    #[test]
    fn legal_moves_random_moves_and_order() {
        let state = play(&[4, 0]);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert_eq!(
            moves.iter().map(|m| m.0).collect::<Vec<_>>(),
            [1, 2, 3, 5, 6, 7, 8]
        );
        let mut ordered = Vec::new();
        state.order_moves(&moves, &mut ordered);
        assert_eq!(
            ordered.iter().map(|m| m.0).collect::<Vec<_>>(),
            [2, 6, 8, 1, 3, 5, 7]
        );
        let mut rng: GameRng = rand::SeedableRng::seed_from_u64(3);
        let mut counts = [0; 9];
        for _ in 0..7000 {
            counts[usize::from(state.random_move(&mut rng).unwrap().0)] += 1;
        }
        assert_eq!((counts[0], counts[4]), (0, 0));
        assert!(counts
            .iter()
            .enumerate()
            .all(|(c, &n)| c == 0 || c == 4 || (850..1150).contains(&n)));
    }

    #[test]
    fn keys_are_distinct_and_moves_plain_numbers() {
        let mut keys: Vec<u32> = (0..2u8)
            .flat_map(|p| (0..9).map(move |c| TicTacToeState::action_key(p, 0, TicTacToeMove(c))))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 18);
        assert_eq!(serde_json::to_string(&TicTacToeMove(5)).unwrap(), "5");
    }

    #[test]
    fn traces_alternate_and_end() {
        let start = TicTacToeState::new();
        for seed in 0..20 {
            let t = trace(&start, seed).unwrap();
            assert!((5..=9).contains(&t.steps.len()));
            for (i, s) in t.steps.iter().enumerate() {
                assert_eq!(s.player, (i % 2) as i64);
                assert_eq!(s.legal.len(), 9 - i);
            }
            assert_eq!(t.returns[0], -t.returns[1]);
        }
    }
}
