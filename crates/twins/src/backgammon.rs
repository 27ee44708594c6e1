//! Backgammon, as OpenSpiel's `backgammon` with its default `scoring_type=winloss_scoring` and
//! `hyper_backgammon=false`: two players race 15 checkers each around 24 points and bear them
//! off, with two dice, hitting lone checkers onto the bar. No doubling cube.
//!
//! Rules as implemented (OpenSpiel's backgammon.cc):
//! - Player 0 (`x`) moves from point 0 towards 23 and bears off past 23; its home is 18–23 and
//!   it enters from the bar onto points 0–5 (die `d` onto `d − 1`). Player 1 (`o`) moves from 23
//!   towards 0, home 0–5, entering onto 18–23 (`24 − d`). The start: `x` 2 on 0, 5 on 11, 3 on
//!   16, 5 on 18; `o` 2 on 23, 5 on 12, 3 on 7, 5 on 5.
//! - **The first roll** is a chance event of 30 equally likely outcomes (OpenSpiel's chance
//!   actions 0–29: the 15 non-double rolls, each once for either starter): an even action starts
//!   player 0, an odd one player 1, who plays that roll. Every later roll has 36 equally likely
//!   outcomes (actions 0–35: the 30 ordered non-doubles, then the doubles 1-1 to 6-6), for the
//!   player after the one who moved last.
//! - A checker moves the pips of one die onto a point holding at most one opposing checker; a
//!   lone opposing checker there is hit onto the bar. A player with checkers on the bar must
//!   enter them first. With all checkers home a die bears a checker off from the point exactly
//!   that far from off, or from the furthest point if the die is larger and no checker is
//!   further.
//! - **A decision plays two checker moves** (one die each): both dice must be played if
//!   possible; if only one can be, the larger one if possible; if none, the player passes.
//!   **Doubles** are two decisions of the same player: after two checker moves of a double the
//!   same player plays the same double again (a third or fourth die not playable ends the turn,
//!   as does a first decision of a double that plays fewer than two).
//! - The first player to bear off all 15 wins (+1, the loser −1). OpenSpiel counts player turns
//!   (a double's two decisions are one turn); **once more than `max_player_turns` turns (500 by
//!   default) have been played the game ends as a draw** (0 each).
//!
//! A move *is* OpenSpiel's action id ([`BackgammonMove`]): with `a` and `b` the starting points
//! of the first and second checker move (0–23, 24 the bar, 25 no move), the id is `b · 26 + a`
//! if the first move uses the higher die (always for doubles), else `676 + b · 26 + a`; the pass
//! is 1351. The two orders of the same two checker moves are two legal actions, as in OpenSpiel.
//! A roll's chance label is OpenSpiel's chance action id, in slot = label. The decision's label
//! is the dice, `6 · (low − 1) + high − 1`.
//!
//! Scores are 1 for the winner and 0 for the loser, 0 each for a draw by the turn limit.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, Objective};

mod checkers;
#[cfg(test)]
mod tests;

use checkers::{ActionSet, Checkers};

/// Points of the board.
pub const POINTS: usize = 24;

/// Checkers per player.
pub const CHECKERS: u8 = 15;

/// OpenSpiel's default turn limit.
pub const DEFAULT_MAX_PLAYER_TURNS: u16 = 500;

/// The largest turn limit the rules accept: random games end long before (a few hundred
/// turns at most), and a trace stays far inside its step limit.
pub const MAX_MAX_PLAYER_TURNS: u16 = 10_000;

/// Distinct actions (OpenSpiel's `NumDistinctActions`): two base-26 digits, twice.
pub const DISTINCT_ACTIONS: u16 = 1352;

/// The action of a player who cannot move.
pub const PASS: BackgammonMove = BackgammonMove(DISTINCT_ACTIONS - 1);

/// The digit of a checker move from the bar, and of no checker move.
const BAR_DIGIT: u8 = 24;
const NO_MOVE_DIGIT: u8 = 25;
/// Added to an action whose first checker move uses the lower die.
const LOW_FIRST: u16 = 676;

/// Outcomes of the first roll (non-doubles only) and of every other roll.
pub const FIRST_ROLL_OUTCOMES: u8 = 30;
pub const ROLL_OUTCOMES: u8 = 36;

/// The dice of each chance action, as OpenSpiel lists them.
#[rustfmt::skip]
const OUTCOME_DICE: [(u8, u8); ROLL_OUTCOMES as usize] = [
    (1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1),
    (1, 5), (5, 1), (1, 6), (6, 1), (2, 3), (3, 2),
    (2, 4), (4, 2), (2, 5), (5, 2), (2, 6), (6, 2),
    (3, 4), (4, 3), (3, 5), (5, 3), (3, 6), (6, 3),
    (4, 5), (5, 4), (4, 6), (6, 4), (5, 6), (6, 5),
    (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6),
];

/// The rules: OpenSpiel's turn limit. Plain data, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedBackgammonRules")]
pub struct BackgammonRules {
    /// Player turns after which the game is a draw (OpenSpiel's `max_player_turns`):
    /// 1..=[`MAX_MAX_PLAYER_TURNS`], 500 by default.
    pub max_player_turns: u16,
}

impl Default for BackgammonRules {
    fn default() -> Self {
        BackgammonRules {
            max_player_turns: DEFAULT_MAX_PLAYER_TURNS,
        }
    }
}

impl BackgammonRules {
    /// Rules with the given turn limit, or an error when it is out of range.
    pub fn new(max_player_turns: u16) -> Result<Self, BackgammonError> {
        let rules = BackgammonRules { max_player_turns };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), BackgammonError> {
        if (1..=MAX_MAX_PLAYER_TURNS).contains(&self.max_player_turns) {
            Ok(())
        } else {
            Err(BackgammonError::InvalidMaxPlayerTurns {
                turns: self.max_player_turns,
            })
        }
    }
}

/// `BackgammonRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedBackgammonRules {
    #[serde(default = "default_max_player_turns")]
    max_player_turns: u16,
}

fn default_max_player_turns() -> u16 {
    DEFAULT_MAX_PLAYER_TURNS
}

impl TryFrom<UncheckedBackgammonRules> for BackgammonRules {
    type Error = BackgammonError;

    fn try_from(raw: UncheckedBackgammonRules) -> Result<Self, BackgammonError> {
        BackgammonRules::new(raw.max_player_turns)
    }
}

/// A move: OpenSpiel's action id (0–1351), two checker moves in one number. Written as the
/// plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BackgammonMove(pub u16);

impl BackgammonMove {
    /// The starting digits of the first and second checker move (0–23 a point, 24 the bar, 25
    /// none) and whether the first uses the higher die.
    pub fn digits(self) -> (u8, u8, bool) {
        let high_first = self.0 < LOW_FIRST;
        let rest = self.0 % LOW_FIRST;
        ((rest % 26) as u8, (rest / 26) as u8, high_first)
    }

    fn of(first: u8, second: u8, high_first: bool) -> Self {
        let id = u16::from(second) * 26 + u16::from(first);
        BackgammonMove(if high_first { id } else { id + LOW_FIRST })
    }
}

impl fmt::Display for BackgammonMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == PASS {
            return f.write_str("pass");
        }
        let (a, b, high_first) = self.digits();
        let from = |d: u8| match d {
            BAR_DIGIT => "bar".to_string(),
            NO_MOVE_DIGIT => "-".to_string(),
            p => p.to_string(),
        };
        write!(
            f,
            "{} then {} ({} die first)",
            from(a),
            from(b),
            if high_first { "high" } else { "low" }
        )
    }
}

/// Why a move, an outcome or rules are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackgammonError {
    #[error(
        "max_player_turns: expected a whole number from 1 to {MAX_MAX_PLAYER_TURNS}, found {turns}"
    )]
    InvalidMaxPlayerTurns { turns: u16 },
    #[error("the game is over")]
    GameOver,
    #[error("a roll is pending: apply an outcome first")]
    RollPending,
    #[error("no roll is pending: apply a move first")]
    NoRollPending,
    #[error("roll: expected an outcome from 0 to {}, found {label}", outcomes - 1)]
    InvalidOutcome { label: u8, outcomes: u8 },
    #[error("action {} ({mv}) is not legal with the dice {low}-{high}", mv.0)]
    IllegalMove {
        mv: BackgammonMove,
        low: u8,
        high: u8,
    },
}

/// A position: the checkers, the dice and whose turn it is; plain data, one copy to clone.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BackgammonState {
    rules: BackgammonRules,
    checkers: Checkers,
    /// The player to move; at a roll, the player who will move after it (0 before the first
    /// roll, which decides it).
    player: u8,
    /// The dice at a decision, low first; `[0, 0]` while a roll is pending.
    dice: [u8; 2],
    /// Whether this decision is the second of a double.
    double_turn: bool,
    /// OpenSpiel's player turns: −1 before the first roll.
    turns: i16,
    decisions: u32,
}

impl Default for BackgammonState {
    fn default() -> Self {
        Self::new(BackgammonRules::default()).expect("the default rules are valid")
    }
}

impl BackgammonState {
    /// The start: the first roll (which decides who starts) is pending.
    pub fn new(rules: BackgammonRules) -> Result<Self, BackgammonError> {
        rules.check()?;
        Ok(BackgammonState {
            rules,
            checkers: Checkers::start(),
            player: 0,
            dice: [0, 0],
            double_turn: false,
            turns: -1,
            decisions: 0,
        })
    }

    pub fn rules(&self) -> BackgammonRules {
        self.rules
    }

    /// `player`'s checkers on `point` (0–23).
    pub fn checkers(&self, player: usize, point: usize) -> u8 {
        self.checkers.points[player][point]
    }

    /// `player`'s checkers on the bar.
    pub fn bar(&self, player: usize) -> u8 {
        self.checkers.bar[player]
    }

    /// `player`'s checkers borne off.
    pub fn borne_off(&self, player: usize) -> u8 {
        self.checkers.off[player]
    }

    /// The dice at a decision, low first.
    pub fn dice(&self) -> Option<[u8; 2]> {
        (self.dice[0] != 0).then_some(self.dice)
    }

    /// OpenSpiel's player turns played (−1 before the first roll).
    pub fn player_turns(&self) -> i16 {
        self.turns
    }

    /// The winner: the player who bore off all checkers.
    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| self.checkers.off[p] == CHECKERS)
    }

    fn at_first_roll(&self) -> bool {
        self.turns < 0
    }

    fn outcomes(&self) -> u8 {
        if self.at_first_roll() {
            FIRST_ROLL_OUTCOMES
        } else {
            ROLL_OUTCOMES
        }
    }

    /// OpenSpiel's `RecLegalMoves` and `ProcessLegalMoves`: every sequence of two checker moves
    /// if any, else every single checker move of the highest die that has one, else the pass.
    fn legal(&self) -> ActionSet {
        let mut set = ActionSet::empty();
        let player = usize::from(self.player);
        let [low, high] = self.dice;
        let both = [low, high];
        let dice: &[u8] = if low == high { &both[..1] } else { &both };
        let firsts = self.checkers.moves(player, dice);
        if firsts.len == 0 {
            set.insert(PASS);
            return set;
        }
        let mut two = false;
        let mut highest_single = 0;
        for &(from, die) in firsts.as_slice() {
            let mut after = self.checkers;
            after.apply(player, from, die);
            let other = if die == low { high } else { low };
            let seconds = after.moves(player, &[other]);
            let high_first = die == high;
            if seconds.len > 0 {
                two = true;
                for &(second, _) in seconds.as_slice() {
                    set.insert(BackgammonMove::of(from, second, high_first));
                }
            } else if !two {
                highest_single = highest_single.max(die);
            }
        }
        if !two {
            for &(from, die) in firsts.as_slice() {
                if die == highest_single {
                    set.insert(BackgammonMove::of(from, NO_MOVE_DIGIT, die == high));
                }
            }
        }
        set
    }

    /// Plays a legal action: its checker moves, then the same player again after the first
    /// decision of a double that played two, else the next roll.
    fn play(&mut self, mv: BackgammonMove) {
        let player = usize::from(self.player);
        let (first, second, high_first) = mv.digits();
        let [low, high] = self.dice;
        let (first_die, second_die) = if high_first { (high, low) } else { (low, high) };
        let mut played = 0;
        for (from, die) in [(first, first_die), (second, second_die)] {
            if from != NO_MOVE_DIGIT {
                self.checkers.apply(player, from, die);
                played += 1;
            }
        }
        self.decisions += 1;
        if !self.double_turn {
            self.turns += 1;
        }
        if !self.double_turn && low == high && played == 2 {
            self.double_turn = true;
        } else {
            self.double_turn = false;
            self.dice = [0, 0];
            self.player = 1 - self.player;
        }
    }

    fn roll(&mut self, label: u8) -> Result<(), BackgammonError> {
        if self.is_over() {
            return Err(BackgammonError::GameOver);
        }
        if self.dice[0] != 0 {
            return Err(BackgammonError::NoRollPending);
        }
        let outcomes = self.outcomes();
        if label >= outcomes {
            return Err(BackgammonError::InvalidOutcome { label, outcomes });
        }
        let (a, b) = OUTCOME_DICE[usize::from(label)];
        self.dice = [a.min(b), a.max(b)];
        if self.at_first_roll() {
            self.player = label % 2;
            self.turns = 0;
        }
        Ok(())
    }

    /// The board as OpenSpiel draws it (13 lines: points 12–23 along the top, 11–0 along the
    /// bottom, `x` player 0, `o` player 1, counts above 5 as digits), then the player to move,
    /// the dice, the bar and the checkers borne off.
    pub fn render(&self) -> String {
        let mut lines: Vec<Vec<u8>> = (0..13)
            .map(|row| match row {
                0 | 12 => b"+------|------+".to_vec(),
                6 => b"|      |      |".to_vec(),
                _ => b"|......|......|".to_vec(),
            })
            .collect();
        for pos in 0..POINTS {
            let owner = if self.checkers.points[0][pos] > 0 {
                0
            } else {
                1
            };
            let n = usize::from(self.checkers.points[owner][pos]);
            if n == 0 {
                continue;
            }
            let (start, down) = if pos < 12 { (11, false) } else { (1, true) };
            let column = match pos {
                0..=5 => 13 - pos,
                6..=11 => 12 - pos,
                12..=17 => pos - 11,
                _ => pos - 10,
            };
            let row = |i: usize| if down { start + i } else { start - i };
            let piece = if owner == 0 { b'x' } else { b'o' };
            for i in 0..n.min(5) {
                lines[row(i)][column] = piece;
            }
            if n >= 10 {
                let (tens, ones) = if down { (0, 1) } else { (1, 0) };
                lines[row(tens)][column] = b'1';
                lines[row(ones)][column] = b'0' + (n % 10) as u8;
            } else if n > 5 {
                lines[start][column] = b'0' + n as u8;
            }
        }
        let mut text = String::new();
        for line in lines {
            text.push_str(&String::from_utf8_lossy(&line));
            text.push('\n');
        }
        let turn = if self.is_over() {
            "T"
        } else if self.dice[0] == 0 {
            "*"
        } else if self.player == 0 {
            "x"
        } else {
            "o"
        };
        let dice = match self.dice() {
            Some([a, b]) => format!("{a}{b}"),
            None => String::new(),
        };
        let bar: String = "x".repeat(usize::from(self.checkers.bar[0]))
            + &"o".repeat(usize::from(self.checkers.bar[1]));
        text.push_str(&format!(
            "Turn: {turn}\nDice: {dice}\nBar: {bar}\nScores, X: {}, O: {}\n",
            self.checkers.off[0], self.checkers.off[1]
        ));
        text
    }
}

impl fmt::Display for BackgammonState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for BackgammonState {
    type Move = BackgammonMove;
    type Error = BackgammonError;
    /// OpenSpiel's default scoring: a win is a win, gammons count nothing.
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.player)
    }

    fn at_decision(&self) -> bool {
        self.dice[0] != 0 && !self.is_over()
    }

    /// All of one player's checkers borne off, or more than the turn limit played.
    fn is_over(&self) -> bool {
        self.checkers.off[0] == CHECKERS
            || self.checkers.off[1] == CHECKERS
            || self.turns > self.rules.max_player_turns as i16
    }

    fn turns_played(&self) -> usize {
        self.decisions as usize
    }

    /// Ascending by action id, as OpenSpiel sorts them.
    fn legal_moves(&self, out: &mut Vec<BackgammonMove>) {
        out.clear();
        if self.at_decision() {
            out.extend(self.legal().iter());
        }
    }

    fn apply_move(&mut self, mv: BackgammonMove) -> Result<(), BackgammonError> {
        if self.is_over() {
            return Err(BackgammonError::GameOver);
        }
        if self.dice[0] == 0 {
            return Err(BackgammonError::RollPending);
        }
        if !self.legal().contains(mv) {
            let [low, high] = self.dice;
            return Err(BackgammonError::IllegalMove { mv, low, high });
        }
        self.play(mv);
        Ok(())
    }

    /// Skips the legality check, which costs a generation of the legal moves.
    fn apply_legal_move(&mut self, mv: BackgammonMove) -> Result<(), BackgammonError> {
        if !self.at_decision() || mv.0 >= DISTINCT_ACTIONS {
            return self.apply_move(mv);
        }
        self.play(mv);
        Ok(())
    }

    /// The trait's rollout, with the random player's moves played without a second check of
    /// their legality (half the cost of a rollout); the same random choices and states.
    fn play_out_randomly_traced(
        &mut self,
        rng: &mut GameRng,
        mut before_move: impl FnMut(&Self, Self::Move),
        mut on_chance: impl FnMut(),
    ) {
        while !self.is_over() {
            if !self.at_decision() {
                self.sample_chance(rng);
                on_chance();
                continue;
            }
            let mv = self.random_move(rng).expect("a decision has a move");
            before_move(self, mv);
            self.play(mv);
        }
    }

    /// Uniform among the legal actions.
    fn random_move(&self, rng: &mut GameRng) -> Option<BackgammonMove> {
        if !self.at_decision() {
            return None;
        }
        let legal = self.legal();
        legal.nth(rng.gen_range(0..legal.len()))
    }

    /// The dice: `6 · (low − 1) + high − 1`.
    fn decision_label(&self) -> u8 {
        match self.dice {
            [0, _] => 0,
            [low, high] => 6 * (low - 1) + high - 1,
        }
    }

    /// OpenSpiel's chance actions in order: 0–29 at the first roll, 0–35 after.
    fn chance_slots(&self, mut visit: impl FnMut(u8)) {
        for label in 0..self.outcomes() {
            visit(label);
        }
    }

    /// Rolls uniformly among OpenSpiel's outcomes: the slot is the label.
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        if self.at_decision() || self.is_over() {
            return None;
        }
        let label = rng.gen_range(0..self.outcomes());
        self.roll(label).expect("a pending roll takes any outcome");
        Some(usize::from(label))
    }

    /// Every outcome of weight 1 (30 at the first roll, 36 after), each followed by a decision.
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
        out.extend((0..self.outcomes()).map(|label| ChanceOutcome {
            label,
            weight: 1.0,
            then: AfterOutcome::Decision,
        }));
    }

    fn apply_outcome(&mut self, label: u8) -> Result<(), BackgammonError> {
        self.roll(label)
    }

    /// 1 for the player who bore off all checkers, 0 otherwise (the loser, a draw).
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

    /// One winner at most: 1 and 0, 0 and 1, or 0 and 0 for a draw by the turn limit.
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of backgammon has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result: ±1 once a player has borne off all checkers, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player, the dice and the action id.
    fn action_key(player: u8, label: u8, mv: BackgammonMove) -> u32 {
        (u32::from(player) * u32::from(ROLL_OUTCOMES) + u32::from(label))
            * u32::from(DISTINCT_ACTIONS)
            + u32::from(mv.0)
    }
}

/// OpenSpiel's `backgammon` (`hyper_backgammon=false`, `scoring_type=winloss_scoring`,
/// `max_player_turns` as the rules say): action id = the move, chance action = the label;
/// returns +1 to the winner and −1 to the loser, 0 each for a draw by the turn limit.
impl OpenSpielTwin for BackgammonState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "backgammon",
            params: vec![
                ("hyper_backgammon", OpenSpielParam::Bool(false)),
                (
                    "scoring_type",
                    OpenSpielParam::Str("winloss_scoring".to_string()),
                ),
                (
                    "max_player_turns",
                    OpenSpielParam::Int(i64::from(self.rules.max_player_turns)),
                ),
            ],
        }
    }

    fn open_spiel_action(&self, mv: BackgammonMove) -> i64 {
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
