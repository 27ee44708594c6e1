//! Othello, as OpenSpiel's `othello`: two players on an 8 by 8 board, player 0 (black, `x`)
//! first, from the four centre discs (white on d4 and e5, black on e4 and d5). A move places a
//! disc of the mover's colour on an empty cell so that one or more straight lines of the
//! opponent's discs, in any of the 8 directions, lie between it and another of the mover's
//! discs; those discs turn to the mover's colour. A player with no such move must pass (and
//! may pass only then). The game ends when neither player can move; the player with more
//! discs wins, equal counts draw.
//!
//! OpenSpiel's action id is the cell `row * 8 + column` (row 0 at the top, a1 = 0), and 64 for
//! the pass. As in OpenSpiel, the end is found after each placement (a pass never ends the
//! game), and the pass is a decision of its own.
//!
//! It has no chance events. Discs are bitboards (`u64`); the moves and flips of all 8
//! directions are found by shifts, and the player to move's moves are kept with the state.
//!
//! Scores are 1 for the winner and 0 for the loser, 0 each for a draw. The score difference
//! during the game is the disc difference over 64 (what the count would say if the game ended
//! now, scaled into (−1, 1)), and ±1 or 0 once it is over.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// Cells along a side of the board.
pub const SIDE: u8 = 8;

/// Cells of the board.
pub const CELLS: u8 = SIDE * SIDE;

/// The pass's action id (one past the last cell).
pub const PASS: u8 = CELLS;

/// Every cell but those of column 0 (column `h`'s right neighbour wraps to it).
const NOT_FIRST_COLUMN: u64 = 0xFEFE_FEFE_FEFE_FEFE;

/// Every cell but those of column 7.
const NOT_LAST_COLUMN: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The eight directions as a shift of the bitboard: left by `shift` when positive, right
/// when negative, then masked so nothing wraps from one row's edge to the next row.
const DIRECTIONS: [(i8, u64); 8] = [
    (1, NOT_FIRST_COLUMN),  // right
    (-1, NOT_LAST_COLUMN),  // left
    (8, u64::MAX),          // down
    (-8, u64::MAX),         // up
    (9, NOT_FIRST_COLUMN),  // down-right
    (7, NOT_LAST_COLUMN),   // down-left
    (-7, NOT_FIRST_COLUMN), // up-right
    (-9, NOT_LAST_COLUMN),  // up-left
];

fn shift(bits: u64, (by, mask): (i8, u64)) -> u64 {
    if by > 0 {
        (bits << by) & mask
    } else {
        (bits >> -by) & mask
    }
}

/// The empty cells where `own` can move against `theirs`.
fn moves_of(own: u64, theirs: u64) -> u64 {
    let empty = !(own | theirs);
    let mut moves = 0;
    for dir in DIRECTIONS {
        let mut run = shift(own, dir) & theirs;
        for _ in 0..5 {
            run |= shift(run, dir) & theirs;
        }
        moves |= shift(run, dir) & empty;
    }
    moves
}

/// The opponent's discs a disc on `at` turns.
fn flips(own: u64, theirs: u64, at: u64) -> u64 {
    let mut flipped = 0;
    for dir in DIRECTIONS {
        let mut line = 0;
        let mut next = shift(at, dir);
        while next & theirs != 0 {
            line |= next;
            next = shift(next, dir);
        }
        if next & own != 0 {
            flipped |= line;
        }
    }
    flipped
}

/// A move: OpenSpiel's action id, the cell `row * 8 + column`, or [`PASS`]. Written as the
/// plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OthelloMove(pub u8);

impl OthelloMove {
    pub const PASS: OthelloMove = OthelloMove(PASS);
}

impl fmt::Display for OthelloMove {
    /// As OpenSpiel writes it: the column letter and row number (`d3`), or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == PASS {
            f.write_str("pass")
        } else {
            write!(
                f,
                "{}{}",
                char::from(b'a' + self.0 % SIDE),
                self.0 / SIDE + 1
            )
        }
    }
}

/// Why a move or an outcome is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OthelloError {
    #[error("action {action} is not a cell (0 to 63) or the pass (64)")]
    NotAnAction { action: u8 },
    #[error("{mv} turns no disc (or its cell is taken)")]
    NoFlip { mv: OthelloMove },
    #[error("a player may pass only without another move")]
    PassWithMoves,
    #[error("the game is over")]
    GameOver,
    #[error("Othello has no chance events")]
    NoChanceEvents,
}

/// A position: each player's discs, and the moves of the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OthelloState {
    discs: [u64; 2],
    /// The cells where the player to move can place (0: it must pass, or the game is over).
    moves: u64,
    to_move: u8,
    /// Decisions taken, passes included.
    turns: u8,
    over: bool,
}

impl Default for OthelloState {
    fn default() -> Self {
        Self::new()
    }
}

impl OthelloState {
    /// The opening position: white on d4 and e5, black on e4 and d5, black to move.
    pub fn new() -> Self {
        let bit = |row: u8, column: u8| 1u64 << (row * SIDE + column);
        let discs = [bit(3, 4) | bit(4, 3), bit(3, 3) | bit(4, 4)];
        OthelloState {
            discs,
            moves: moves_of(discs[0], discs[1]),
            to_move: 0,
            turns: 0,
            over: false,
        }
    }

    /// The position after playing `actions` in turn from the start, or the first refusal.
    pub fn from_moves(actions: &[u8]) -> Result<Self, OthelloError> {
        let mut state = Self::new();
        for &action in actions {
            state.apply_move(OthelloMove(action))?;
        }
        Ok(state)
    }

    /// Each player's discs on the board.
    pub fn disc_counts(&self) -> [u32; 2] {
        self.discs.map(u64::count_ones)
    }

    /// The player with more discs once the game is over; `None` before and after a draw.
    pub fn winner(&self) -> Option<usize> {
        let [a, b] = self.disc_counts();
        match (self.over, a.cmp(&b)) {
            (true, std::cmp::Ordering::Greater) => Some(0),
            (true, std::cmp::Ordering::Less) => Some(1),
            _ => None,
        }
    }

    /// The player whose disc is on `row`, `column`, if any.
    pub fn cell(&self, row: u8, column: u8) -> Option<usize> {
        if row >= SIDE || column >= SIDE {
            return None;
        }
        let bit = 1u64 << (row * SIDE + column);
        (0..2).find(|&player| self.discs[player] & bit != 0)
    }

    /// The board for people, as OpenSpiel draws it without its heading line: column
    /// letters, then a numbered line per row, `x` black, `o` white, `-` empty.
    pub fn render(&self) -> String {
        let mut text = String::from("  a b c d e f g h  \n");
        for row in 0..SIDE {
            text.push(char::from(b'1' + row));
            text.push(' ');
            for column in 0..SIDE {
                text.push(match self.cell(row, column) {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => '-',
                });
                text.push(' ');
            }
            text.push(char::from(b'1' + row));
            text.push('\n');
        }
        text.push_str("  a b c d e f g h  ");
        text
    }
}

impl fmt::Display for OthelloState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for OthelloState {
    type Move = OthelloMove;
    type Error = OthelloError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::new()
    }

    fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    fn at_decision(&self) -> bool {
        !self.over
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn turns_played(&self) -> usize {
        usize::from(self.turns)
    }

    /// The cells that turn a disc, ascending; the pass alone when there are none.
    fn legal_moves(&self, out: &mut Vec<OthelloMove>) {
        out.clear();
        if self.over {
            return;
        }
        if self.moves == 0 {
            out.push(OthelloMove::PASS);
            return;
        }
        let mut moves = self.moves;
        while moves != 0 {
            out.push(OthelloMove(moves.trailing_zeros() as u8));
            moves &= moves - 1;
        }
    }

    fn apply_move(&mut self, mv: OthelloMove) -> Result<(), OthelloError> {
        if self.over {
            return Err(OthelloError::GameOver);
        }
        let mover = usize::from(self.to_move);
        let opponent = 1 - mover;
        if mv.0 == PASS {
            if self.moves != 0 {
                return Err(OthelloError::PassWithMoves);
            }
            self.to_move = opponent as u8;
            self.moves = moves_of(self.discs[opponent], self.discs[mover]);
            self.turns += 1;
            return Ok(());
        }
        if mv.0 > PASS {
            return Err(OthelloError::NotAnAction { action: mv.0 });
        }
        let at = 1u64 << mv.0;
        if self.moves & at == 0 {
            return Err(OthelloError::NoFlip { mv });
        }
        let flipped = flips(self.discs[mover], self.discs[opponent], at);
        self.discs[mover] |= at | flipped;
        self.discs[opponent] &= !flipped;
        self.turns += 1;
        self.to_move = opponent as u8;
        self.moves = moves_of(self.discs[opponent], self.discs[mover]);
        if self.moves == 0 && moves_of(self.discs[mover], self.discs[opponent]) == 0 {
            self.over = true;
        }
        Ok(())
    }

    /// Uniform among the legal moves, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<OthelloMove> {
        if self.over {
            return None;
        }
        if self.moves == 0 {
            return Some(OthelloMove::PASS);
        }
        let pick = rng.gen_range(0..self.moves.count_ones());
        Some(OthelloMove(crate::bits::nth_set_bit(self.moves, pick) as u8))
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), OthelloError> {
        Err(OthelloError::NoChanceEvents)
    }

    /// 1 for the player with more discs at the end, 0 otherwise (a draw, or a game still
    /// going).
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
            return Err("a game of Othello has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result once over; before, the disc difference over 64.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        if self.over {
            let scores = self.scores();
            return f64::from(scores[player] - scores[1 - player]);
        }
        let counts = self.disc_counts();
        (f64::from(counts[player]) - f64::from(counts[1 - player])) / f64::from(CELLS)
    }

    /// The result is ±1 at most, the disc difference over 64 less than 1.
    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the action id.
    fn action_key(player: u8, _label: u8, mv: OthelloMove) -> u32 {
        u32::from(player) * 128 + u32::from(mv.0)
    }
}

/// OpenSpiel's `othello` (no parameters): action id = cell, 64 for the pass; returns +1 to the
/// winner and −1 to the loser, 0 each for a draw.
impl OpenSpielTwin for OthelloState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "othello",
            params: Vec::new(),
        }
    }

    fn open_spiel_action(&self, mv: OthelloMove) -> i64 {
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

    /// The cell of a name such as `d3`.
    fn at(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[1] - b'1') * SIDE + (b[0] - b'a')
    }

    fn state_of(discs: [u64; 2], to_move: u8) -> OthelloState {
        let mover = usize::from(to_move);
        OthelloState {
            discs,
            moves: moves_of(discs[mover], discs[1 - mover]),
            to_move,
            turns: 10,
            over: false,
        }
    }

    fn bits(cells: &[&str]) -> u64 {
        cells.iter().fold(0, |b, c| b | 1 << at(c))
    }

    #[test]
    fn the_opening_has_four_moves_and_a_move_turns_its_line() {
        let start = OthelloState::new();
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        assert_eq!(start.disc_counts(), [2, 2]);
        let state = OthelloState::from_moves(&[at("d3")]).unwrap();
        assert_eq!(state.cell(3, 3), Some(0), "d4 turned black\n{state}");
        assert_eq!(state.disc_counts(), [4, 1]);
        assert_eq!(state.to_move(), 1);
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 3.0 / 64.0);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -3.0 / 64.0);
    }

    #[test]
    fn a_move_turns_every_line_it_closes_and_no_other() {
        // Black plays c3: lines of white run from it to black discs on a1, c8, h3 and e1,
        // and one (b4) to the empty a5.
        let black = bits(&["a1", "c8", "h3", "e1"]);
        let white = bits(&[
            "b2", "c7", "c6", "c5", "c4", "d3", "g3", "f3", "e3", "d2", "b4",
        ]);
        let mut state = state_of([black, white], 0);
        state.apply_move(OthelloMove(at("c3"))).unwrap();
        // Turned: b2 (to a1), c4..c7 (to c8), d3..g3 (to h3), d2 (to e1).
        for cell in ["b2", "c4", "c5", "c6", "c7", "d3", "e3", "f3", "g3", "d2"] {
            assert_eq!(state.discs[0] >> at(cell) & 1, 1, "{cell}\n{state}");
        }
        // b4 lies on the line to a5, which is empty: it stays white.
        assert_eq!(state.discs[1], 1 << at("b4"));
    }

    #[test]
    fn a_player_without_a_move_passes_and_only_then() {
        // Black takes white's last disc: neither can move, the game ends.
        let black = bits(&["a1", "a2"]);
        let white = bits(&["a3"]);
        let mut state = state_of([black, white], 0);
        state.apply_move(OthelloMove(at("a4"))).unwrap();
        assert!(state.is_over());
        assert_eq!(state.winner(), Some(0));
        assert_eq!(state.scores(), [1, 0]);
        assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 1.0);
        let mut moves = vec![OthelloMove(0)];
        state.legal_moves(&mut moves);
        assert!(moves.is_empty());
        assert_eq!(state.random_move(&mut GameRng::seed_from_u64(0)), None);

        // White (to move) has no move; black has: white passes.
        let black = bits(&["a1", "b1"]);
        let white = bits(&["c1", "h8"]);
        let mut state = state_of([black, white], 1);
        state.legal_moves(&mut moves);
        assert_eq!(moves, [OthelloMove::PASS]);
        assert_eq!(
            state.random_move(&mut GameRng::seed_from_u64(0)),
            Some(OthelloMove::PASS)
        );
        state.apply_move(OthelloMove::PASS).unwrap();
        assert!(!state.is_over());
        assert_eq!(state.to_move(), 0);
        assert_eq!(state.turns_played(), 11);
        state.legal_moves(&mut moves);
        assert_eq!(moves, [OthelloMove(at("d1"))]);
        assert_eq!(
            state.apply_move(OthelloMove::PASS),
            Err(OthelloError::PassWithMoves)
        );
        state.apply_move(OthelloMove(at("d1"))).unwrap();
        // White keeps only h8 and cannot move; neither can black: black wins 4 to 1.
        assert!(state.is_over());
        assert_eq!(state.disc_counts(), [4, 1]);
        assert_eq!(state.winner(), Some(0));
    }

    #[test]
    fn equal_counts_draw() {
        // Black's c1 turns b1: black a1 b1 c1 h1, white e8 to h8, and no move is left.
        let black = bits(&["a1", "h1"]);
        let white = bits(&["b1", "e8", "f8", "g8", "h8"]);
        let mut state = state_of([black, white], 0);
        state.apply_move(OthelloMove(at("c1"))).unwrap();
        assert!(state.is_over(), "\n{state}");
        assert_eq!(state.disc_counts(), [4, 4]);
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
        assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 0.0);
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let start = OthelloState::new();
        let mut state = start.clone();
        assert_eq!(
            state.apply_move(OthelloMove(0)).unwrap_err().to_string(),
            "a1 turns no disc (or its cell is taken)"
        );
        assert!(state.apply_move(OthelloMove(at("d4"))).is_err());
        assert_eq!(
            state.apply_move(OthelloMove::PASS),
            Err(OthelloError::PassWithMoves)
        );
        assert_eq!(
            state.apply_move(OthelloMove(65)),
            Err(OthelloError::NotAnAction { action: 65 })
        );
        assert_eq!(state.apply_outcome(0), Err(OthelloError::NoChanceEvents));
        assert_eq!(state, start);
    }

    #[test]
    fn random_games_end_and_moves_are_uniform() {
        let mut rng = GameRng::seed_from_u64(7);
        let mut passes = 0;
        for _ in 0..300 {
            let mut state = OthelloState::new();
            state.play_out_randomly_observed(&mut rng, |_, mv| {
                passes += usize::from(mv == OthelloMove::PASS);
            });
            assert!(state.is_over());
            assert!(state.turns_played() <= 128);
            assert!(state.check_result(state.scores().map(f64::from)).is_ok());
        }
        assert!(passes > 0);
        let start = OthelloState::new();
        let mut counts = [0; 64];
        for _ in 0..4000 {
            counts[usize::from(start.random_move(&mut rng).unwrap().0)] += 1;
        }
        for cell in ["d3", "c4", "f5", "e6"] {
            assert!(
                (850..1150).contains(&counts[usize::from(at(cell))]),
                "{counts:?}"
            );
        }
    }

    #[test]
    fn render_names_and_keys() {
        let text = OthelloState::new().render();
        assert!(text.starts_with("  a b c d e f g h  \n1 - - - - - - - - 1\n"));
        assert!(text.contains("\n4 - - - o x - - - 4\n5 - - - x o - - - 5\n"));
        assert_eq!(OthelloMove::PASS.to_string(), "pass");
        let keys: std::collections::HashSet<u32> = (0..2u8)
            .flat_map(|p| (0..=64).map(move |a| OthelloState::action_key(p, 0, OthelloMove(a))))
            .collect();
        assert_eq!(keys.len(), 130);
        assert_eq!(OthelloState::new().open_spiel_name().name, "othello");
    }

    #[test]
    fn traces_are_seeded() {
        let t = trace(&OthelloState::new(), 4).unwrap();
        assert_eq!(trace(&OthelloState::new(), 4).unwrap(), t);
        assert_eq!(t.steps[0].legal, vec![19, 26, 37, 44]);
    }
}
