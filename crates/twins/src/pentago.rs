//! Pentago, as OpenSpiel's `pentago`: two players take turns on a 6 by 6 board made of four 3
//! by 3 quadrants, player 0 first. A turn places a stone of the mover's colour on an empty
//! cell and then turns one quadrant (any of the four, occupied or not) a quarter turn
//! clockwise or counter-clockwise. Five stones of one colour in a row, horizontally,
//! vertically or diagonally, after the turn, win; if the turn gives both players a row, or the
//! board fills without one, the game is a draw.
//!
//! OpenSpiel's action id of a turn is `(row * 6 + column) * 8 + rotation`, where rotation `r`
//! turns quadrant `r / 2` (0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left)
//! counter-clockwise when `r` is even and clockwise when odd, as the board is drawn with row 0
//! at the top. OpenSpiel's only parameter (`ansi_color_output`) changes its text, not the
//! game.
//!
//! It has no chance events. Stones are bitboards (`u64`) laid out quadrant by quadrant, the 8
//! outer cells of each in clockwise order and its centre last, so a quarter turn is a rotation
//! of 8 bits by 2; the 32 rows of five are masks.
//!
//! Scores are 1 for the winner and 0 for the loser, 0 each for a draw.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// Cells along a side of the board.
pub const SIDE: u8 = 6;

/// Cells of the board.
pub const CELLS: u8 = SIDE * SIDE;

/// Rotations a turn chooses from: four quadrants, two senses.
pub const ROTATIONS: u16 = 8;

/// Distinct action ids: every cell with every rotation.
pub const ACTIONS: u16 = CELLS as u16 * ROTATIONS;

/// The ring position of a quadrant's cell (local column, local row), clockwise from the
/// top-left corner, the centre last.
const RING: [[u8; 3]; 3] = [[0, 1, 2], [7, 8, 3], [6, 5, 4]];

/// The bit of cell `row * 6 + column` in the layout: its quadrant's 9 bits, then its ring
/// position.
const BIT: [u8; CELLS as usize] = bits_of_cells();

/// The cell of each bit of the layout (the inverse of [`BIT`]).
const CELL: [u8; CELLS as usize] = cells_of_bits();

/// The 32 rows of five cells, as masks of the layout.
const LINES: [u64; 32] = lines();

const fn bits_of_cells() -> [u8; CELLS as usize] {
    let mut bits = [0; CELLS as usize];
    let mut cell = 0;
    while cell < CELLS as usize {
        let (row, column) = (cell / 6, cell % 6);
        let quadrant = match (row / 3, column / 3) {
            (0, 0) => 0,
            (0, _) => 1,
            (_, 1) => 2,
            _ => 3,
        };
        bits[cell] = quadrant * 9 + RING[row % 3][column % 3];
        cell += 1;
    }
    bits
}

const fn cells_of_bits() -> [u8; CELLS as usize] {
    let mut cells = [0; CELLS as usize];
    let mut cell = 0;
    while cell < CELLS as usize {
        cells[BIT[cell] as usize] = cell as u8;
        cell += 1;
    }
    cells
}

const fn lines() -> [u64; 32] {
    // (row step, column step) and the first cells of its rows of five.
    let mut lines = [0; 32];
    let mut n = 0;
    let directions: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut d = 0;
    while d < 4 {
        let (dr, dc) = directions[d];
        let mut row = 0;
        while row < 6 {
            let mut column = 0;
            while column < 6 {
                let (end_row, end_column) = (row + 4 * dr, column + 4 * dc);
                if end_row < 6 && end_column >= 0 && end_column < 6 {
                    let mut mask = 0u64;
                    let mut i = 0;
                    while i < 5 {
                        let cell = (row + i * dr) * 6 + column + i * dc;
                        mask |= 1 << BIT[cell as usize];
                        i += 1;
                    }
                    lines[n] = mask;
                    n += 1;
                }
                column += 1;
            }
            row += 1;
        }
        d += 1;
    }
    assert!(n == 32);
    lines
}

/// Turns quadrant `quadrant` of `stones` a quarter turn, clockwise or not.
fn rotate(stones: u64, quadrant: u16, clockwise: bool) -> u64 {
    let shift = 9 * u32::from(quadrant);
    let ring = 0xFFu64 << shift;
    let inside = stones & ring;
    let turned = if clockwise {
        ((inside << 2) | (inside >> 6)) & ring
    } else {
        ((inside >> 2) | (inside << 6)) & ring
    };
    (stones & !ring) | turned
}

/// A turn: OpenSpiel's action id `(row * 6 + column) * 8 + rotation`. Written as the plain
/// number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PentagoMove(pub u16);

impl PentagoMove {
    /// The turn placing on `row`, `column` and turning `quadrant` (0 to 3), clockwise or not.
    pub fn new(row: u8, column: u8, quadrant: u8, clockwise: bool) -> Self {
        let cell = u16::from(row) * u16::from(SIDE) + u16::from(column);
        PentagoMove(cell * ROTATIONS + u16::from(quadrant) * 2 + u16::from(clockwise))
    }

    /// The cell `row * 6 + column` the stone goes on.
    pub fn cell(self) -> u8 {
        (self.0 / ROTATIONS) as u8
    }

    /// The quadrant turned (0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left).
    pub fn quadrant(self) -> u8 {
        (self.0 % ROTATIONS / 2) as u8
    }

    /// Whether the quadrant turns clockwise.
    pub fn clockwise(self) -> bool {
        self.0 % 2 == 1
    }
}

impl fmt::Display for PentagoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = self.cell();
        write!(
            f,
            "{}{} turning quadrant {} {}",
            char::from(b'a' + cell % SIDE),
            cell / SIDE + 1,
            self.quadrant(),
            if self.clockwise() {
                "clockwise"
            } else {
                "counter-clockwise"
            }
        )
    }
}

/// Why a move or an outcome is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PentagoError {
    #[error("action {action} is not a turn (0 to {})", ACTIONS - 1)]
    NotAnAction { action: u16 },
    #[error("cell {cell} is taken")]
    CellTaken { cell: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("Pentago has no chance events")]
    NoChanceEvents,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum End {
    Won(u8),
    Draw,
}

/// A position: each player's stones in the quadrant layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PentagoState {
    stones: [u64; 2],
    /// Turns played; whose turn it is (player 0 after an even count).
    placed: u8,
    end: Option<End>,
}

impl Default for PentagoState {
    fn default() -> Self {
        Self::new()
    }
}

impl PentagoState {
    /// The empty board, player 0 to move.
    pub fn new() -> Self {
        PentagoState {
            stones: [0, 0],
            placed: 0,
            end: None,
        }
    }

    /// The position after playing `actions` in turn from the start, or the first refusal.
    pub fn from_moves(actions: &[u16]) -> Result<Self, PentagoError> {
        let mut state = Self::new();
        for &action in actions {
            state.apply_move(PentagoMove(action))?;
        }
        Ok(state)
    }

    /// The winner; `None` during the game and after a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.end {
            Some(End::Won(player)) => Some(usize::from(player)),
            _ => None,
        }
    }

    /// The player whose stone is on `row`, `column`, if any.
    pub fn cell(&self, row: u8, column: u8) -> Option<usize> {
        if row >= SIDE || column >= SIDE {
            return None;
        }
        let bit = 1u64 << BIT[usize::from(row * SIDE + column)];
        (0..2).find(|&player| self.stones[player] & bit != 0)
    }

    /// The board for people: column letters, then a numbered line per row, `O` player 0, `@`
    /// player 1 (OpenSpiel's symbols), `.` empty.
    pub fn render(&self) -> String {
        let mut text = String::from("  a b c d e f\n");
        for row in 0..SIDE {
            text.push(char::from(b'1' + row));
            for column in 0..SIDE {
                text.push(' ');
                text.push(match self.cell(row, column) {
                    Some(0) => 'O',
                    Some(_) => '@',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text
    }

    fn empty(&self) -> u64 {
        ((1u64 << CELLS) - 1) & !(self.stones[0] | self.stones[1])
    }
}

/// Whether `stones` hold a row of five.
fn has_row(stones: u64) -> bool {
    LINES.iter().any(|&line| line & !stones == 0)
}

impl fmt::Display for PentagoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for PentagoState {
    type Move = PentagoMove;
    type Error = PentagoError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::new()
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

    /// Every empty cell with each of the 8 rotations, by ascending action id.
    fn legal_moves(&self, out: &mut Vec<PentagoMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let empty = self.empty();
        for cell in 0..CELLS {
            if empty >> BIT[usize::from(cell)] & 1 != 0 {
                let first = u16::from(cell) * ROTATIONS;
                out.extend((first..first + ROTATIONS).map(PentagoMove));
            }
        }
    }

    fn apply_move(&mut self, mv: PentagoMove) -> Result<(), PentagoError> {
        if self.is_over() {
            return Err(PentagoError::GameOver);
        }
        if mv.0 >= ACTIONS {
            return Err(PentagoError::NotAnAction { action: mv.0 });
        }
        let cell = mv.cell();
        let bit = 1u64 << BIT[usize::from(cell)];
        if (self.stones[0] | self.stones[1]) & bit != 0 {
            return Err(PentagoError::CellTaken { cell });
        }
        let player = self.to_move();
        self.stones[player] |= bit;
        let (quadrant, clockwise) = (u16::from(mv.quadrant()), mv.clockwise());
        self.stones = self.stones.map(|s| rotate(s, quadrant, clockwise));
        self.placed += 1;
        self.end = match (has_row(self.stones[0]), has_row(self.stones[1])) {
            (true, true) => Some(End::Draw),
            (true, false) => Some(End::Won(0)),
            (false, true) => Some(End::Won(1)),
            (false, false) if self.placed == CELLS => Some(End::Draw),
            (false, false) => None,
        };
        Ok(())
    }

    /// Uniform among the legal turns, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<PentagoMove> {
        if self.is_over() {
            return None;
        }
        let empty = self.empty();
        let pick = rng.gen_range(0..empty.count_ones() * u32::from(ROTATIONS));
        let bit = crate::bits::nth_set_bit(empty, pick / u32::from(ROTATIONS));
        let cell = u16::from(CELL[bit as usize]);
        Some(PentagoMove(
            cell * ROTATIONS + (pick % u32::from(ROTATIONS)) as u16,
        ))
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), PentagoError> {
        Err(PentagoError::NoChanceEvents)
    }

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
            return Err("a game of Pentago has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result: ±1 once one player alone has a row, 0 before and after a draw.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the action id.
    fn action_key(player: u8, _label: u8, mv: PentagoMove) -> u32 {
        u32::from(player) * 512 + u32::from(mv.0)
    }
}

/// OpenSpiel's `pentago`: action id as [`PentagoMove`]; returns +1 to the winner and −1 to the
/// loser, 0 each for a draw.
impl OpenSpielTwin for PentagoState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "pentago",
            params: Vec::new(),
        }
    }

    fn open_spiel_action(&self, mv: PentagoMove) -> i64 {
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

    /// A turn on (row, column) that turns quadrant `quadrant` clockwise.
    fn turn(row: u8, column: u8, quadrant: u8) -> u16 {
        PentagoMove::new(row, column, quadrant, true).0
    }

    /// Turning a quadrant clockwise and back; four turns are the identity.
    #[test]
    fn quarter_turns_move_the_stones_around_their_quadrant() {
        // A stone on the top-left corner of the top-left quadrant, turned clockwise, lands on
        // its top-right corner (row 0, column 2); counter-clockwise, on its bottom-left.
        let state = PentagoState::from_moves(&[PentagoMove::new(0, 0, 0, true).0]).unwrap();
        assert_eq!(state.cell(0, 2), Some(0));
        assert_eq!(state.cell(0, 0), None);
        let state = PentagoState::from_moves(&[PentagoMove::new(0, 0, 0, false).0]).unwrap();
        assert_eq!(state.cell(2, 0), Some(0));
        // The bottom-right quadrant: (3, 4), its top edge's middle, goes to its right edge's
        // middle (4, 5) clockwise.
        let state = PentagoState::from_moves(&[PentagoMove::new(3, 4, 2, true).0]).unwrap();
        assert_eq!(state.cell(4, 5), Some(0));
        // The centre stays; another quadrant's stones do not move.
        let state = PentagoState::from_moves(&[
            PentagoMove::new(4, 1, 3, true).0,
            PentagoMove::new(0, 5, 3, false).0,
        ])
        .unwrap();
        assert_eq!(state.cell(4, 1), Some(0));
        assert_eq!(state.cell(0, 5), Some(1));
        let mut stones = 0x9_1234_5678u64;
        for quadrant in 0..4 {
            assert_eq!(
                rotate(rotate(stones, quadrant, true), quadrant, false),
                stones
            );
            let mut turned = stones;
            for _ in 0..4 {
                turned = rotate(turned, quadrant, true);
            }
            assert_eq!(turned, stones);
            stones = stones.rotate_left(7) & ((1 << 36) - 1);
        }
    }

    #[test]
    fn five_in_a_row_after_the_turn_wins() {
        // Player 0 along row 5, player 1 on the top-right quadrant; both turn the empty
        // top-left quadrant, which changes nothing.
        let mut actions = Vec::new();
        let theirs = [(0, 3), (0, 4), (0, 5), (1, 3)];
        for column in 0..5 {
            actions.push(turn(5, column, 0));
            if let Some(&(row, column)) = theirs.get(usize::from(column)) {
                actions.push(turn(row, column, 0));
            }
        }
        let (last, before) = actions.split_last().unwrap();
        let mut state = PentagoState::from_moves(before).unwrap();
        assert!(!state.is_over(), "\n{state}");
        state.apply_move(PentagoMove(*last)).unwrap();
        assert_eq!(state.winner(), Some(0), "\n{state}");
        assert_eq!(state.scores(), [1, 0]);
        assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -1.0);
        let mut moves = vec![PentagoMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(state.random_move(&mut GameRng::seed_from_u64(0)), None);
        assert_eq!(
            state.apply_move(PentagoMove(0)),
            Err(PentagoError::GameOver)
        );
    }

    /// Player 1 holds column 0 of the bottom-left quadrant and (3,3), (3,4): turning that
    /// quadrant clockwise brings the column to row 3, a row of five for player 1.
    fn before_the_turn(player_0: &[(u8, u8)]) -> PentagoState {
        let at = |&(row, column): &(u8, u8)| 1u64 << BIT[usize::from(row * SIDE + column)];
        let mut state = PentagoState::new();
        state.stones[0] = player_0.iter().map(at).fold(0, |a, b| a | b);
        state.stones[1] = [(3, 0), (4, 0), (5, 0), (3, 3), (3, 4)]
            .iter()
            .map(at)
            .fold(0, |a, b| a | b);
        state.placed = 10;
        assert!(!has_row(state.stones[0]) && !has_row(state.stones[1]));
        state
    }

    #[test]
    fn a_turn_that_makes_the_opponent_a_row_loses_and_both_rows_draw() {
        let turn_bottom_left = |row, column| PentagoMove::new(row, column, 3, true);
        // Player 0 places elsewhere and turns the quadrant: player 1 wins.
        let mut state = before_the_turn(&[(0, 0), (0, 1), (0, 2), (1, 1), (2, 2)]);
        state.apply_move(turn_bottom_left(5, 5)).unwrap();
        assert_eq!(state.cell(3, 2), Some(1));
        assert_eq!(state.winner(), Some(1));
        // Player 0 completes row 0 with the same turn: both have a row, a draw.
        let mut state = before_the_turn(&[(0, 0), (0, 1), (0, 2), (0, 4), (1, 1)]);
        state.apply_move(turn_bottom_left(0, 3)).unwrap();
        assert!(has_row(state.stones[0]) && has_row(state.stones[1]));
        assert!(state.is_over());
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
        assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
        assert!(state.check_result([1.0, 1.0]).is_err());
    }

    #[test]
    fn a_full_board_without_a_row_is_a_draw_and_random_games_end() {
        let mut rng = GameRng::seed_from_u64(8);
        let (mut draws, mut full) = (0, 0);
        for _ in 0..300 {
            let mut state = PentagoState::new();
            state.play_out_randomly(&mut rng);
            assert!(state.is_over());
            if state.winner().is_none() {
                draws += 1;
                if state.turns_played() == 36 {
                    full += 1;
                    assert_eq!(state.empty(), 0);
                }
            }
            assert!(state.check_result(state.scores().map(f64::from)).is_ok());
        }
        assert!(
            full > 0 && draws >= full,
            "{draws} draws, {full} full boards"
        );
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let before = PentagoState::from_moves(&[turn(2, 2, 1)]).unwrap();
        let mut state = before.clone();
        assert_eq!(
            state.apply_move(PentagoMove::new(2, 2, 0, false)),
            Err(PentagoError::CellTaken { cell: 14 })
        );
        assert_eq!(
            state.apply_move(PentagoMove(288)).unwrap_err().to_string(),
            "action 288 is not a turn (0 to 287)"
        );
        assert_eq!(state.apply_outcome(0), Err(PentagoError::NoChanceEvents));
        assert_eq!(state, before);
    }

    #[test]
    fn legal_and_random_moves() {
        let mut moves = Vec::new();
        PentagoState::new().legal_moves(&mut moves);
        assert_eq!(moves, (0..288).map(PentagoMove).collect::<Vec<_>>());
        // (1,1) is the centre of the top-left quadrant: it stays put under any turn.
        let state = PentagoState::from_moves(&[turn(1, 1, 0)]).unwrap();
        state.legal_moves(&mut moves);
        assert_eq!(moves.len(), 280);
        assert!(moves.iter().all(|mv| mv.cell() != 7));
        let mut rng = GameRng::seed_from_u64(6);
        let mut counts = [0u32; 288];
        for _ in 0..28_000 {
            counts[usize::from(state.random_move(&mut rng).unwrap().0)] += 1;
        }
        assert!(counts[56..64].iter().all(|&n| n == 0));
        assert!(
            moves
                .iter()
                .all(|mv| (50..150).contains(&counts[usize::from(mv.0)])),
            "{counts:?}"
        );
    }

    #[test]
    fn moves_render_and_keys() {
        let mv = PentagoMove::new(3, 4, 2, false);
        assert_eq!(mv.0, (3 * 6 + 4) * 8 + 4);
        assert_eq!((mv.cell(), mv.quadrant(), mv.clockwise()), (22, 2, false));
        assert_eq!(mv.to_string(), "e4 turning quadrant 2 counter-clockwise");
        let state = PentagoState::from_moves(&[PentagoMove::new(1, 1, 0, true).0]).unwrap();
        assert_eq!(
            state.render(),
            "  a b c d e f\n1 . . . . . .\n2 . O . . . .\n3 . . . . . .\n\
             4 . . . . . .\n5 . . . . . .\n6 . . . . . .\n"
        );
        let keys: std::collections::HashSet<u32> = (0..2u8)
            .flat_map(|p| (0..288).map(move |a| PentagoState::action_key(p, 0, PentagoMove(a))))
            .collect();
        assert_eq!(keys.len(), 576);
    }

    #[test]
    fn traces_are_seeded_and_alternate() {
        let t = trace(&PentagoState::new(), 2).unwrap();
        assert_eq!(trace(&PentagoState::new(), 2).unwrap(), t);
        for (i, step) in t.steps.iter().enumerate() {
            assert_eq!(step.player, (i % 2) as i64);
            assert_eq!(step.legal.len(), 8 * (36 - i));
        }
    }
}
