//! Mensch ärgere dich nicht for two players, as OpenSpiel's `maedn` with `players=2`: a race
//! game with one six-sided die on a cross-shaped track of 40 common fields, each player with 4
//! pieces and 4 goal fields of their own.
//!
//! Rules as implemented (OpenSpiel's, in its order of precedence):
//! - The board's 40 common fields are numbered from player 0's start field; player 0's goal
//!   fields follow as 40–43. OpenSpiel places the two players **opposite** each other by
//!   default (`twoPlayersOpposite=true`): player 1 starts on field 20 and enters the goal
//!   fields 48–51 after field 19. Side by side (`false`), player 1 starts on field 10 and
//!   enters 44–47 after field 9. Each piece moves along its player's 44 fields (40 common, 4
//!   goal), counted from its player's start field.
//! - The game starts with a roll for player 0. Every decision follows a roll; after a 6 the
//!   same player rolls again, otherwise the other player rolls (also after a forced pass).
//! - At a decision with die `d`: if the player has a piece off the board and one of their own
//!   pieces stands on their start field, that piece **must** move `d` on, unless an own piece
//!   blocks its target; with a 6 and a piece off the board, the player **must** bring a piece
//!   in onto a start field not held by an own piece; otherwise any own piece may move `d`
//!   fields if it stays on its 44 fields and does not land on an own piece; if nothing is
//!   possible the player passes.
//! - A piece landing on the opponent's piece (on the start field by bringing in, or by a move)
//!   sends it off the board. Pieces jump over each other, also in the goal fields.
//! - The first player with all four goal fields filled wins: OpenSpiel's returns are +1 for
//!   the winner and −1 for the loser (`players − 1` and −1); there is no draw and no move limit.
//!
//! A move *is* OpenSpiel's action id ([`MaednMove`]): 0 passes, 1 brings a piece in, `2 + f`
//! moves the piece on the mover's own field `f` (0–43, counted from the mover's start field).
//! A roll's face `d` (1–6) is the chance outcome of label `d`, in slot `d − 1`, OpenSpiel's
//! chance action `d − 1`. The decision's label is the die's face.
//!
//! Scores are 1 for the winner and 0 for the loser, so the score difference is the win-loss
//! result.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, Objective};

/// Faces of the die.
pub const FACES: u8 = 6;

/// Pieces per player.
pub const PIECES: u8 = 4;

/// Fields of the common track.
pub const COMMON_FIELDS: u8 = 40;

/// Fields a piece walks: the common track and the player's goal fields.
pub const TRACK: u8 = COMMON_FIELDS + PIECES;

/// Fields of OpenSpiel's board: the common track and the goal fields of four seats.
const FIELDS: usize = COMMON_FIELDS as usize + 4 * PIECES as usize;

/// OpenSpiel's action ids: pass, bring in, and the first of the field moves.
pub const PASS: u8 = 0;
pub const BRING_IN: u8 = 1;
const FIELD_OFFSET: u8 = 2;

/// Distinct actions (OpenSpiel's `NumDistinctActions`).
pub const DISTINCT_ACTIONS: u8 = FIELD_OFFSET + TRACK - 1;

/// The rules of a two-player game: where the players sit (OpenSpiel's only other parameter
/// besides `players`, which is 2 here). Every value is valid.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MaednRules {
    /// Whether the two players sit opposite each other (OpenSpiel's `twoPlayersOpposite`,
    /// true by default) rather than side by side.
    pub two_players_opposite: bool,
}

impl Default for MaednRules {
    fn default() -> Self {
        MaednRules {
            two_players_opposite: true,
        }
    }
}

impl MaednRules {
    /// The rules with the players opposite each other or side by side.
    pub const fn new(two_players_opposite: bool) -> Self {
        MaednRules {
            two_players_opposite,
        }
    }

    /// OpenSpiel's seat of `player`: 0 for player 0; player 1 sits at seat 2 when opposite,
    /// else at seat 1.
    pub const fn seat(&self, player: usize) -> usize {
        if player == 1 && self.two_players_opposite {
            2
        } else {
            player
        }
    }
}

/// A move: OpenSpiel's action id (0 pass, 1 bring in, `2 + f` move the piece on own field `f`).
/// Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MaednMove(pub u8);

impl fmt::Display for MaednMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            PASS => f.write_str("pass"),
            BRING_IN => f.write_str("bring in a piece"),
            a => write!(f, "move the piece on field {}", a - FIELD_OFFSET),
        }
    }
}

/// Why a move or an outcome is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MaednError {
    #[error("the game is over")]
    GameOver,
    #[error("a die roll is pending: apply an outcome (face 1 to 6) first")]
    RollPending,
    #[error("no die roll is pending: apply a move first")]
    NoRollPending,
    #[error("die face: expected 1 to 6, found {face}")]
    InvalidFace { face: u8 },
    #[error("{mv} (action {}) is not legal with a {dice}", mv.0)]
    IllegalMove { mv: MaednMove, dice: u8 },
}

/// The legal moves of a decision: at most one per piece, or a single forced move.
#[derive(Clone, Copy)]
struct Legal {
    moves: [u8; PIECES as usize],
    len: usize,
}

impl Legal {
    fn as_slice(&self) -> &[u8] {
        &self.moves[..self.len]
    }

    fn push(&mut self, action: u8) {
        self.moves[self.len] = action;
        self.len += 1;
    }

    fn one(action: u8) -> Self {
        let mut legal = Legal {
            moves: [0; PIECES as usize],
            len: 0,
        };
        legal.push(action);
        legal
    }
}

/// A position, on OpenSpiel's board: each field holds 0 or the number (player + 1) of the
/// player whose piece stands there; a clone is a few words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MaednState {
    rules: MaednRules,
    board: [u8; FIELDS],
    /// Pieces of each player off the board.
    out: [u8; 2],
    /// The player to move; at a roll, the player who will move after it.
    player: u8,
    /// The die at a decision, 0 while a roll is pending.
    dice: u8,
    decisions: u32,
    winner: Option<u8>,
}

impl Default for MaednState {
    fn default() -> Self {
        Self::new(MaednRules::default())
    }
}

impl MaednState {
    /// The start: all pieces off the board, player 0 to roll.
    pub fn new(rules: MaednRules) -> Self {
        MaednState {
            rules,
            board: [0; FIELDS],
            out: [PIECES; 2],
            player: 0,
            dice: 0,
            decisions: 0,
            winner: None,
        }
    }

    pub fn rules(&self) -> MaednRules {
        self.rules
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The die at a decision (1–6), `None` while a roll is pending or after the end.
    pub fn dice(&self) -> Option<u8> {
        (self.dice != 0).then_some(self.dice)
    }

    /// Pieces of `player` off the board.
    pub fn pieces_out(&self, player: usize) -> u8 {
        self.out[player]
    }

    /// The player whose piece stands on OpenSpiel's board field `field` (0–39 common, 40–55
    /// goal fields of seats 0 to 3), if any.
    pub fn at_field(&self, field: usize) -> Option<usize> {
        match self.board.get(field) {
            Some(&p) if p > 0 => Some(usize::from(p - 1)),
            _ => None,
        }
    }

    /// The board field of `player`'s own field `relative` (0–43).
    fn field(&self, player: usize, relative: u8) -> usize {
        let seat = self.rules.seat(player);
        if relative < COMMON_FIELDS {
            (usize::from(relative) + 10 * seat) % usize::from(COMMON_FIELDS)
        } else {
            usize::from(PIECES) * seat + usize::from(relative)
        }
    }

    /// The legal moves at a decision, in OpenSpiel's rules' order of precedence (and ascending).
    fn legal(&self) -> Legal {
        let player = usize::from(self.player);
        let me = self.player + 1;
        let dice = self.dice;
        let start = self.field(player, 0);
        if self.out[player] > 0 {
            if self.board[start] == me && self.board[start + usize::from(dice)] != me {
                return Legal::one(FIELD_OFFSET);
            }
            if dice == 6 && self.board[start] != me {
                return Legal::one(BRING_IN);
            }
        }
        let mut legal = Legal {
            moves: [0; PIECES as usize],
            len: 0,
        };
        if self.out[player] < PIECES {
            let mut found = 0;
            let on_board = PIECES - self.out[player];
            for source in 0..TRACK {
                if self.board[self.field(player, source)] != me {
                    continue;
                }
                found += 1;
                let target = source + dice;
                if target < TRACK && self.board[self.field(player, target)] != me {
                    legal.push(source + FIELD_OFFSET);
                }
                if found == on_board {
                    break;
                }
            }
        }
        if legal.len == 0 {
            legal.push(PASS);
        }
        legal
    }

    /// Whether all of `player`'s goal fields are filled.
    fn all_in_goal(&self, player: usize) -> bool {
        let first = self.field(player, COMMON_FIELDS);
        self.board[first..first + usize::from(PIECES)]
            .iter()
            .all(|&p| p != 0)
    }

    /// Plays a legal action.
    fn play(&mut self, action: u8) {
        let player = usize::from(self.player);
        let me = self.player + 1;
        let thrown = match action {
            PASS => 0,
            BRING_IN => {
                let start = self.field(player, 0);
                let thrown = self.board[start];
                self.board[start] = me;
                self.out[player] -= 1;
                thrown
            }
            _ => {
                let source = action - FIELD_OFFSET;
                let from = self.field(player, source);
                let to = self.field(player, source + self.dice);
                self.board[from] = 0;
                let thrown = self.board[to];
                self.board[to] = me;
                thrown
            }
        };
        if thrown > 0 {
            self.out[usize::from(thrown - 1)] += 1;
        }
        self.decisions += 1;
        if action != PASS && self.all_in_goal(player) {
            self.winner = Some(self.player);
        } else if self.dice != 6 {
            self.player = 1 - self.player;
        }
        self.dice = 0;
    }

    fn roll(&mut self, face: u8) -> Result<(), MaednError> {
        if !(1..=FACES).contains(&face) {
            return Err(MaednError::InvalidFace { face });
        }
        if self.winner.is_some() {
            return Err(MaednError::GameOver);
        }
        if self.dice != 0 {
            return Err(MaednError::NoRollPending);
        }
        self.dice = face;
        Ok(())
    }

    /// The board as OpenSpiel prints it (11 lines; `1` player 0, `2` player 1, pieces off the
    /// board in their seat's corner, `S` start fields, `o` empty fields), then the player to
    /// move (`*` at a roll) and the die.
    pub fn render(&self) -> String {
        /// OpenSpiel's (column, line) of each board field, then of the four places off the
        /// board of each seat.
        #[rustfmt::skip]
        const AT: [(u8, u8); FIELDS + 16] = [
            (0, 4), (2, 4), (4, 4), (6, 4), (8, 4), (8, 3), (8, 2), (8, 1),
            (8, 0), (10, 0), (12, 0), (12, 1), (12, 2), (12, 3), (12, 4), (14, 4),
            (16, 4), (18, 4), (20, 4), (20, 5), (20, 6), (18, 6), (16, 6), (14, 6),
            (12, 6), (12, 7), (12, 8), (12, 9), (12, 10), (10, 10), (8, 10), (8, 9),
            (8, 8), (8, 7), (8, 6), (6, 6), (4, 6), (2, 6), (0, 6), (0, 5),
            (2, 5), (4, 5), (6, 5), (8, 5), (10, 1), (10, 2), (10, 3), (10, 4),
            (18, 5), (16, 5), (14, 5), (12, 5), (10, 9), (10, 8), (10, 7), (10, 6),
            (0, 0), (2, 0), (2, 1), (0, 1), (18, 0), (20, 0), (20, 1), (18, 1),
            (18, 10), (20, 10), (20, 9), (18, 9), (0, 10), (2, 10), (2, 9), (0, 9),
        ];
        let mut lines: Vec<Vec<u8>> = [
            ". .     o-o-S     . .",
            ". .     o . o     . .",
            "        o . o        ",
            "        o . o        ",
            "S-o-o-o-o . o-o-o-o-o",
            "o . . . .   . . . . o",
            "o-o-o-o-o . o-o-o-o-S",
            "        o . o        ",
            "        o . o        ",
            ". .     o . o     . .",
            ". .     S-o-o     . .",
        ]
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
        for (field, &p) in self.board.iter().enumerate() {
            if p > 0 {
                let (x, y) = AT[field];
                lines[usize::from(y)][usize::from(x)] = b'0' + p;
            }
        }
        for player in 0..2 {
            let offset = FIELDS + 4 * self.rules.seat(player);
            for i in 0..usize::from(self.out[player]) {
                let (x, y) = AT[offset + i];
                lines[usize::from(y)][usize::from(x)] = b'1' + player as u8;
            }
        }
        let mut text = String::new();
        for line in lines {
            text.push_str(&String::from_utf8_lossy(&line));
            text.push('\n');
        }
        let turn = match (self.winner, self.dice) {
            (Some(_), _) => "T".to_string(),
            (None, 0) => "*".to_string(),
            (None, _) => (self.player + 1).to_string(),
        };
        let dice = if self.dice == 0 {
            String::new()
        } else {
            self.dice.to_string()
        };
        text.push_str(&format!("Turn: {turn}\nDice: {dice}\n"));
        text
    }
}

impl fmt::Display for MaednState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for MaednState {
    type Move = MaednMove;
    type Error = MaednError;
    /// The first home wins; how far the other got means nothing.
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.player)
    }

    fn at_decision(&self) -> bool {
        self.winner.is_none() && self.dice != 0
    }

    fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    fn turns_played(&self) -> usize {
        self.decisions as usize
    }

    /// Ascending by action id: the one forced move, the movable pieces from the mover's start
    /// field on, or the pass.
    fn legal_moves(&self, out: &mut Vec<MaednMove>) {
        out.clear();
        if self.at_decision() {
            out.extend(self.legal().as_slice().iter().map(|&a| MaednMove(a)));
        }
    }

    fn apply_move(&mut self, mv: MaednMove) -> Result<(), MaednError> {
        if self.winner.is_some() {
            return Err(MaednError::GameOver);
        }
        if self.dice == 0 {
            return Err(MaednError::RollPending);
        }
        if !self.legal().as_slice().contains(&mv.0) {
            return Err(MaednError::IllegalMove {
                mv,
                dice: self.dice,
            });
        }
        self.play(mv.0);
        Ok(())
    }

    /// Uniform among the legal moves.
    fn random_move(&self, rng: &mut GameRng) -> Option<MaednMove> {
        if !self.at_decision() {
            return None;
        }
        let legal = self.legal();
        Some(MaednMove(legal.moves[rng.gen_range(0..legal.len)]))
    }

    /// The die's face.
    fn decision_label(&self) -> u8 {
        self.dice
    }

    /// The faces 1 to 6, in order.
    fn chance_slots(&self, mut visit: impl FnMut(u8)) {
        for face in 1..=FACES {
            visit(face);
        }
    }

    /// Rolls the die: the slot is `face − 1`.
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        if self.at_decision() || self.winner.is_some() {
            return None;
        }
        let face = rng.gen_range(1..=FACES);
        self.roll(face).expect("a pending roll takes any face");
        Some(usize::from(face - 1))
    }

    /// Six faces of weight 1, each followed by a decision (a pass when nothing moves).
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
        out.extend((1..=FACES).map(|face| ChanceOutcome {
            label: face,
            weight: 1.0,
            then: AfterOutcome::Decision,
        }));
    }

    fn apply_outcome(&mut self, label: u8) -> Result<(), MaednError> {
        self.roll(label)
    }

    /// 1 for the winner, 0 for the loser (0 each before the end).
    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// Exactly one winner: the game has no draw.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores != [1.0, 0.0] && scores != [0.0, 1.0] {
            return Err("a game of Mensch ärgere dich nicht has exactly one winner".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result: ±1 once a player is home, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player, the die and the action id.
    fn action_key(player: u8, label: u8, mv: MaednMove) -> u32 {
        (u32::from(player) * u32::from(FACES + 1) + u32::from(label)) * u32::from(DISTINCT_ACTIONS)
            + u32::from(mv.0)
    }
}

/// OpenSpiel's `maedn` with `players=2` and `twoPlayersOpposite` as the rules say: action id =
/// the move; chance action = face − 1; returns +1 to the winner and −1 to the loser.
impl OpenSpielTwin for MaednState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "maedn",
            params: vec![
                ("players", OpenSpielParam::Int(2)),
                (
                    "twoPlayersOpposite",
                    OpenSpielParam::Bool(self.rules.two_players_opposite),
                ),
            ],
        }
    }

    fn open_spiel_action(&self, mv: MaednMove) -> i64 {
        i64::from(mv.0)
    }

    fn open_spiel_outcome(&self, label: u8) -> i64 {
        i64::from(label) - 1
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

    fn legal(state: &MaednState) -> Vec<u8> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.iter().map(|m| m.0).collect()
    }

    fn roll(state: &mut MaednState, face: u8) {
        state.apply_outcome(face).unwrap();
    }

    fn mv(state: &mut MaednState, action: u8) {
        state.apply_move(MaednMove(action)).unwrap();
    }

    /// A decision of `player` with `dice` and the given pieces: `fields[p]` are the board
    /// fields of player `p`'s pieces on the board; the rest are off.
    fn position(rules: MaednRules, player: u8, dice: u8, fields: [&[usize]; 2]) -> MaednState {
        let mut state = MaednState::new(rules);
        for (p, fs) in fields.iter().enumerate() {
            for &f in fs.iter() {
                state.board[f] = p as u8 + 1;
                state.out[p] -= 1;
            }
        }
        state.player = player;
        state.dice = dice;
        state
    }

    #[test]
    fn the_first_roll_is_player_0s_and_a_six_brings_a_piece_in() {
        let mut state = MaednState::default();
        assert!(!state.at_decision() && !state.is_over());
        assert_eq!(state.to_move(), 0);
        roll(&mut state, 3);
        assert_eq!(legal(&state), [PASS]);
        mv(&mut state, PASS);
        assert_eq!(state.to_move(), 1, "no six: the other player rolls");
        roll(&mut state, 6);
        assert_eq!(legal(&state), [BRING_IN]);
        mv(&mut state, BRING_IN);
        // Opposite seats: player 1's start field is 20.
        assert_eq!(state.at_field(20), Some(1));
        assert_eq!(state.pieces_out(1), 3);
        assert_eq!(state.to_move(), 1, "a six: the same player rolls again");
        roll(&mut state, 2);
        assert_eq!(
            legal(&state),
            [FIELD_OFFSET],
            "the start field must be cleared"
        );
        mv(&mut state, FIELD_OFFSET);
        assert_eq!(state.at_field(22), Some(1));
        assert_eq!(state.to_move(), 0);
        assert_eq!(state.turns_played(), 3);
    }

    #[test]
    fn side_by_side_player_1_starts_on_field_10() {
        let mut state = MaednState::new(MaednRules::new(false));
        roll(&mut state, 1);
        mv(&mut state, PASS);
        roll(&mut state, 6);
        mv(&mut state, BRING_IN);
        assert_eq!(state.at_field(10), Some(1));
        assert_eq!(MaednRules::new(false).seat(1), 1);
        assert_eq!(MaednRules::default().seat(1), 2);
    }

    #[test]
    fn a_blocked_start_piece_frees_the_others_and_a_six_must_bring_in() {
        let rules = MaednRules::default();
        // Player 0 on start (0) and on 3; with a 3 the start piece is blocked: any piece.
        let state = position(rules, 0, 3, [&[0, 3], &[]]);
        assert_eq!(legal(&state), [3 + FIELD_OFFSET]);
        // With a 6 and the start free of own pieces, bringing in is forced.
        let state = position(rules, 0, 6, [&[5], &[]]);
        assert_eq!(legal(&state), [BRING_IN]);
        // With a 6 and the start piece able to move, clearing the start comes first.
        let state = position(rules, 0, 6, [&[0], &[]]);
        assert_eq!(legal(&state), [FIELD_OFFSET]);
        // With all pieces on the board, a 6 is an ordinary move.
        let state = position(rules, 0, 6, [&[0, 1, 2, 4], &[]]);
        assert_eq!(legal(&state), [2, 3, 4, 6]);
    }

    #[test]
    fn landing_on_the_opponent_sends_it_off_and_own_pieces_block() {
        let rules = MaednRules::default();
        let mut state = position(rules, 0, 4, [&[10, 14], &[30]]);
        assert_eq!(legal(&state), [14 + FIELD_OFFSET], "10 + 4 is own");
        mv(&mut state, 14 + FIELD_OFFSET);
        assert_eq!(state.at_field(18), Some(0));
        // Player 1 from own field 10 (board field 30) with a 6 onto board field 36.
        roll(&mut state, 6);
        assert_eq!(state.to_move(), 1);
        state.board[36] = 1;
        state.out[0] -= 1;
        assert_eq!(legal(&state), [BRING_IN]);
        let mut all_in = position(rules, 1, 6, [&[36], &[30, 20, 21, 22]]);
        assert_eq!(legal(&all_in), [2, 3, 4, 12]);
        mv(&mut all_in, 12);
        assert_eq!(all_in.at_field(36), Some(1));
        assert_eq!(all_in.pieces_out(0), 4);
        // Bringing in onto an opponent on the start field sends it off.
        let mut state = position(rules, 0, 6, [&[5], &[0]]);
        mv(&mut state, BRING_IN);
        assert_eq!((state.at_field(0), state.pieces_out(1)), (Some(0), 4));
    }

    #[test]
    fn pieces_enter_and_jump_in_the_goal_and_four_home_win() {
        let rules = MaednRules::default();
        // Player 1 (seat 2) has goal fields 48–51 (own 40–43); own field 39 is board field 19.
        let mut state = position(rules, 1, 4, [&[0], &[19, 48, 50, 51]]);
        // Own 39 + 4 = 43 (own), 40 + 4 off the track, 42 + 4 and 43 + 4 off the track.
        assert_eq!(legal(&state), [PASS]);
        state.dice = 2;
        // 39 + 2 = 41 is free; 40 + 2 = 42 own; 42, 43 off.
        assert_eq!(legal(&state), [39 + FIELD_OFFSET]);
        mv(&mut state, 39 + FIELD_OFFSET);
        assert!(state.is_over() && !state.at_decision());
        assert_eq!(state.winner(), Some(1));
        assert_eq!(state.scores(), [0, 1]);
        assert_eq!(state.open_spiel_returns(), [-1.0, 1.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 1.0);
        assert!(legal(&state).is_empty());
        assert_eq!(state.apply_move(MaednMove(PASS)), Err(MaednError::GameOver));
        assert_eq!(state.apply_outcome(1), Err(MaednError::GameOver));
        // Jumping over a piece in the goal: 40 + 2 over 41.
        let state = position(rules, 0, 2, [&[40, 41, 5, 6], &[]]);
        assert_eq!(legal(&state), [7, 8, 40 + FIELD_OFFSET, 41 + FIELD_OFFSET]);
    }

    #[test]
    fn illegal_moves_and_outcomes_are_refused() {
        let mut state = MaednState::default();
        assert_eq!(
            state.apply_move(MaednMove(PASS)),
            Err(MaednError::RollPending)
        );
        assert_eq!(
            state.apply_outcome(0),
            Err(MaednError::InvalidFace { face: 0 })
        );
        assert_eq!(
            state.apply_outcome(7),
            Err(MaednError::InvalidFace { face: 7 })
        );
        roll(&mut state, 5);
        assert_eq!(state.apply_outcome(5), Err(MaednError::NoRollPending));
        let before = state.clone();
        let refused = state.apply_move(MaednMove(BRING_IN)).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "bring in a piece (action 1) is not legal with a 5"
        );
        assert_eq!(state, before);
        assert_eq!(state.decision_label(), 5);
    }

    #[test]
    fn scores_results_and_keys() {
        let state = MaednState::default();
        assert!(state.check_result([1.0, 0.0]).is_ok());
        assert!(state.check_result([0.0, 1.0]).is_ok());
        assert!(state.check_result([1.0, 1.0]).is_err());
        assert!(state.check_result([0.0, 0.0]).is_err());
        let mut keys: Vec<u32> = (0..2u8)
            .flat_map(|p| {
                (1..=6).flat_map(move |d| {
                    (0..DISTINCT_ACTIONS).map(move |a| MaednState::action_key(p, d, MaednMove(a)))
                })
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 2 * 6 * 45);
        assert_eq!(serde_json::to_string(&MaednMove(7)).unwrap(), "7");
        let rules: MaednRules = serde_json::from_str("{}").unwrap();
        assert_eq!(rules, MaednRules::default());
        assert!(serde_json::from_str::<MaednRules>(r#"{"players":3}"#).is_err());
    }

    #[test]
    fn render_draws_openspiels_board() {
        let mut state = MaednState::default();
        roll(&mut state, 6);
        mv(&mut state, BRING_IN);
        let text = state.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "1 1     o-o-S     . .");
        assert_eq!(lines[1], ". 1     o . o     . .");
        assert_eq!(lines[4], "1-o-o-o-o . o-o-o-o-o");
        assert_eq!(lines[9], ". .     o . o     2 2");
        assert_eq!(lines[11], "Turn: *");
        assert_eq!(lines[12], "Dice: ");
    }

    #[test]
    fn random_games_trace_and_end_with_one_winner() {
        for rules in [MaednRules::new(true), MaednRules::new(false)] {
            for seed in 0..20 {
                let t = trace(&MaednState::new(rules), seed).unwrap();
                assert_eq!(t.steps[0].player, -1);
                assert_eq!(t.steps[0].chance.len(), 6);
                assert!(t.returns == [1.0, -1.0] || t.returns == [-1.0, 1.0]);
            }
            let mut state = MaednState::new(rules);
            state.play_out_randomly(&mut GameRng::seed_from_u64(3));
            assert!(state.is_over());
        }
    }
}
