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

use super::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use super::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, Objective};

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

/// The checkers: on the points, on the bar and borne off, per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Checkers {
    points: [[u8; POINTS]; 2],
    bar: [u8; 2],
    off: [u8; 2],
}

/// Where the checker moves of one die go: at most one from the bar per die, or one per point.
struct CheckerMoves {
    /// (starting digit, die).
    moves: [(u8, u8); 2 * POINTS],
    len: usize,
}

impl CheckerMoves {
    fn new() -> Self {
        CheckerMoves {
            moves: [(0, 0); 2 * POINTS],
            len: 0,
        }
    }

    fn push(&mut self, from: u8, die: u8) {
        self.moves[self.len] = (from, die);
        self.len += 1;
    }

    fn as_slice(&self) -> &[(u8, u8)] {
        &self.moves[..self.len]
    }
}

/// The point `die` pips on from `from` (a point or the bar) for `player`; `None` off the board.
fn target(player: usize, from: u8, die: u8) -> Option<usize> {
    let die = i16::from(die);
    let to = match (player, from) {
        (0, BAR_DIGIT) => die - 1,
        (_, BAR_DIGIT) => 24 - die,
        (0, p) => i16::from(p) + die,
        (_, p) => i16::from(p) - die,
    };
    (0..POINTS as i16).contains(&to).then_some(to as usize)
}

impl Checkers {
    fn start() -> Self {
        let mut points = [[0; POINTS]; 2];
        for (p, n) in [(0, 2), (11, 5), (16, 3), (18, 5)] {
            points[0][p] = n;
            points[1][POINTS - 1 - p] = n;
        }
        Checkers {
            points,
            bar: [0; 2],
            off: [0; 2],
        }
    }

    /// Whether all of `player`'s checkers are home or borne off.
    fn all_home(&self, player: usize) -> bool {
        let outside = if player == 0 { 0..18 } else { 6..POINTS };
        self.bar[player] == 0 && self.points[player][outside].iter().all(|&n| n == 0)
    }

    /// The home point with `player`'s checker furthest from off.
    fn furthest_home(&self, player: usize) -> Option<usize> {
        if player == 0 {
            (18..POINTS).find(|&p| self.points[0][p] > 0)
        } else {
            (0..6).rev().find(|&p| self.points[1][p] > 0)
        }
    }

    /// OpenSpiel's `LegalCheckerMoves`: the checker moves of `player` with each of `dice`
    /// (distinct values), bar first.
    fn moves(&self, player: usize, dice: &[u8]) -> CheckerMoves {
        let opponent = &self.points[1 - player];
        let mut out = CheckerMoves::new();
        if self.bar[player] > 0 {
            for &die in dice {
                let to = target(player, BAR_DIGIT, die).expect("entry is on the board");
                if opponent[to] <= 1 {
                    out.push(BAR_DIGIT, die);
                }
            }
            return out;
        }
        let home = self.all_home(player);
        let furthest = if home {
            self.furthest_home(player)
        } else {
            None
        };
        for from in 0..POINTS {
            if self.points[player][from] == 0 {
                continue;
            }
            for &die in dice {
                let bears_off_legally = || {
                    let exact = if player == 0 {
                        from + usize::from(die) == POINTS
                    } else {
                        usize::from(die) == from + 1
                    };
                    home && (exact || furthest == Some(from))
                };
                match target(player, from as u8, die) {
                    Some(to) if opponent[to] <= 1 => out.push(from as u8, die),
                    None if bears_off_legally() => out.push(from as u8, die),
                    _ => {}
                }
            }
        }
        out
    }

    /// Moves one checker of `player` from `from` (a point or the bar) by `die`, hitting a lone
    /// opposing checker.
    fn apply(&mut self, player: usize, from: u8, die: u8) {
        if from == BAR_DIGIT {
            self.bar[player] -= 1;
        } else {
            self.points[player][usize::from(from)] -= 1;
        }
        match target(player, from, die) {
            None => self.off[player] += 1,
            Some(to) => {
                self.points[player][to] += 1;
                let opponent = 1 - player;
                if self.points[opponent][to] == 1 {
                    self.points[opponent][to] = 0;
                    self.bar[opponent] += 1;
                }
            }
        }
    }
}

/// A set of action ids, one bit each.
#[derive(Clone, Copy)]
struct ActionSet([u64; ACTION_WORDS]);

const ACTION_WORDS: usize = (DISTINCT_ACTIONS as usize).div_ceil(64);

impl ActionSet {
    fn insert(&mut self, mv: BackgammonMove) {
        self.0[usize::from(mv.0 / 64)] |= 1 << (mv.0 % 64);
    }

    fn contains(&self, mv: BackgammonMove) -> bool {
        mv.0 < DISTINCT_ACTIONS && self.0[usize::from(mv.0 / 64)] & (1 << (mv.0 % 64)) != 0
    }

    fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members, ascending.
    fn iter(&self) -> impl Iterator<Item = BackgammonMove> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let bit = word.trailing_zeros();
                word &= word - 1;
                Some(BackgammonMove(i as u16 * 64 + bit as u16))
            })
        })
    }

    /// The `k`-th member, ascending.
    fn nth(&self, mut k: usize) -> Option<BackgammonMove> {
        for (i, &word) in self.0.iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                let mut word = word;
                for _ in 0..k {
                    word &= word - 1;
                }
                return Some(BackgammonMove(i as u16 * 64 + word.trailing_zeros() as u16));
            }
            k -= n;
        }
        None
    }
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
        let mut set = ActionSet([0; ACTION_WORDS]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::open_spiel_twin::trace;
    use rand::SeedableRng;

    fn legal(state: &BackgammonState) -> Vec<u16> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.iter().map(|m| m.0).collect()
    }

    /// A decision of `player` with `dice` in a game under way: the checkers on the points of
    /// each player, then on the bar and borne off.
    fn position(
        player: u8,
        dice: [u8; 2],
        x: &[(usize, u8)],
        o: &[(usize, u8)],
        bar: [u8; 2],
        off: [u8; 2],
    ) -> BackgammonState {
        let mut state = BackgammonState::default();
        state.checkers.points = [[0; POINTS]; 2];
        for (p, points) in [x, o].into_iter().enumerate() {
            for &(point, n) in points {
                state.checkers.points[p][point] = n;
            }
        }
        state.checkers.bar = bar;
        state.checkers.off = off;
        for p in 0..2 {
            let on_points: u8 = state.checkers.points[p].iter().sum();
            assert_eq!(
                on_points + bar[p] + off[p],
                CHECKERS,
                "player {p}'s checkers"
            );
        }
        state.player = player;
        state.dice = [dice[0].min(dice[1]), dice[0].max(dice[1])];
        state.turns = 1;
        state
    }

    #[test]
    fn the_first_roll_has_no_doubles_and_its_parity_picks_the_starter() {
        let mut state = BackgammonState::default();
        let mut outcomes = Vec::new();
        state.chance_outcomes(&mut outcomes);
        assert_eq!(outcomes.len(), 30);
        assert!(!state.at_decision() && !state.is_over());
        let mut x = state.clone();
        x.apply_outcome(0).unwrap();
        assert_eq!((x.to_move(), x.dice()), (0, Some([1, 2])));
        state.apply_outcome(29).unwrap();
        assert_eq!((state.to_move(), state.dice()), (1, Some([5, 6])));
        assert_eq!(state.decision_label(), 6 * 4 + 5);
        // The opening 6-5 of player 1: 23/17/12 is 23 → 17 → 12, either die first.
        let moves = legal(&state);
        assert!(
            moves.contains(&(17 * 26 + 23)),
            "6 first from 23, then 5 from 17"
        );
        assert!(
            !moves.contains(&(LOW_FIRST + 18 * 26 + 23)),
            "5 first from 23 lands on x's 18"
        );
        assert!(
            moves.contains(&(LOW_FIRST + 23 * 26 + 12)),
            "12/7, then 23/17"
        );
        state.apply_move(BackgammonMove(17 * 26 + 23)).unwrap();
        assert_eq!((state.checkers(1, 23), state.checkers(1, 12)), (1, 6));
        assert_eq!(state.to_move(), 0, "the other player rolls next");
        state.chance_outcomes(&mut outcomes);
        assert_eq!(outcomes.len(), 36);
        assert_eq!(
            state.apply_outcome(36),
            Err(BackgammonError::InvalidOutcome {
                label: 36,
                outcomes: 36
            })
        );
    }

    #[test]
    fn a_checker_on_the_bar_enters_first_or_the_player_passes() {
        let blocked = position(
            0,
            [1, 3],
            &[(5, 14)],
            &[(0, 2), (2, 3), (10, 10)],
            [1, 0],
            [0, 0],
        );
        assert_eq!(legal(&blocked), [PASS.0]);
        let mut passed = blocked.clone();
        passed.apply_move(PASS).unwrap();
        assert_eq!(passed.checkers, blocked.checkers);
        assert_eq!(passed.to_move(), 1);
        // A lone checker on the entry point is hit; after entering any checker plays the 3.
        let mut state = position(
            0,
            [1, 3],
            &[(5, 14)],
            &[(0, 1), (2, 3), (10, 11)],
            [1, 0],
            [0, 0],
        );
        let enter_then = |from: u16| LOW_FIRST + from * 26 + u16::from(BAR_DIGIT);
        assert_eq!(legal(&state), [enter_then(0), enter_then(5)]);
        state.apply_move(BackgammonMove(enter_then(5))).unwrap();
        assert_eq!(
            (state.bar(0), state.checkers(0, 0), state.checkers(0, 8)),
            (0, 1, 1)
        );
        assert_eq!((state.bar(1), state.checkers(1, 0)), (1, 0));
    }

    #[test]
    fn when_only_one_die_plays_it_is_the_larger_one_if_possible() {
        // x: one checker back on 0, the rest on 18 (not all home); o blocks 20 and 8.
        let o = [(20, 2), (8, 2), (12, 11)];
        let state = position(0, [2, 6], &[(0, 1), (18, 14)], &o, [0, 0], [0, 0]);
        assert_eq!(legal(&state), [u16::from(NO_MOVE_DIGIT) * 26]);
        // With 6 blocked too, only the 2 plays.
        let o = [(20, 2), (8, 2), (6, 2), (12, 9)];
        let state = position(0, [2, 6], &[(0, 1), (18, 14)], &o, [0, 0], [0, 0]);
        assert_eq!(legal(&state), [LOW_FIRST + u16::from(NO_MOVE_DIGIT) * 26]);
    }

    #[test]
    fn bearing_off_exactly_or_from_the_furthest_point() {
        // x home on 20 (2) and 22 (1) with a 5-6: only the furthest point bears off.
        let state = position(0, [5, 6], &[(20, 2), (22, 1)], &[(0, 15)], [0, 0], [12, 0]);
        assert_eq!(legal(&state), [20 * 26 + 20, LOW_FIRST + 20 * 26 + 20]);
        // o on 0 (1) and 3 (2) with a 1-4.
        let state = position(1, [1, 4], &[(23, 15)], &[(0, 1), (3, 2)], [0, 0], [0, 12]);
        assert_eq!(
            legal(&state),
            [3, 3 * 26 + 3, LOW_FIRST + 3 * 26, LOW_FIRST + 3 * 26 + 3]
        );
        // The last checker: with a 1-2 both dice bear it off, OpenSpiel keeps the larger.
        let mut state = position(0, [1, 2], &[(23, 1)], &[(0, 15)], [0, 0], [14, 0]);
        assert_eq!(legal(&state), [u16::from(NO_MOVE_DIGIT) * 26 + 23]);
        state.apply_move(BackgammonMove(673)).unwrap();
        assert!(state.is_over() && !state.at_decision());
        assert_eq!(state.winner(), Some(0));
        assert_eq!(state.scores(), [1, 0]);
        assert_eq!(state.open_spiel_returns(), [1.0, -1.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -1.0);
        assert!(legal(&state).is_empty());
        assert_eq!(state.apply_move(PASS), Err(BackgammonError::GameOver));
        assert_eq!(state.apply_outcome(0), Err(BackgammonError::GameOver));
    }

    #[test]
    fn a_double_is_two_decisions_of_one_turn() {
        let mut state = BackgammonState::default();
        state.apply_outcome(0).unwrap();
        let mut rng = GameRng::seed_from_u64(1);
        let mv = state.random_move(&mut rng).unwrap();
        state.apply_move(mv).unwrap();
        state.apply_outcome(32).unwrap(); // 3-3 for player 1
        assert_eq!((state.to_move(), state.dice()), (1, Some([3, 3])));
        let moves = legal(&state);
        assert!(
            moves.iter().all(|&m| m < LOW_FIRST),
            "a double plays the high die first"
        );
        state.apply_move(BackgammonMove(moves[0])).unwrap();
        assert!(state.at_decision() && state.double_turn);
        assert_eq!(
            (state.to_move(), state.dice(), state.player_turns()),
            (1, Some([3, 3]), 2)
        );
        let mv = state.random_move(&mut rng).unwrap();
        state.apply_move(mv).unwrap();
        assert!(!state.at_decision() && !state.double_turn);
        assert_eq!(
            (state.to_move(), state.player_turns(), state.turns_played()),
            (0, 2, 3)
        );
        // A double of which fewer than two checker moves play ends the turn at once: 0/6,
        // then 6/12 is blocked and 18 may not bear off.
        let o = [(12, 2), (5, 13)];
        let mut state = position(0, [6, 6], &[(0, 1), (18, 14)], &o, [0, 0], [0, 0]);
        let single = u16::from(NO_MOVE_DIGIT) * 26;
        assert_eq!(legal(&state), [single]);
        state.apply_move(BackgammonMove(single)).unwrap();
        assert!(!state.at_decision() && !state.double_turn && state.to_move() == 1);
        assert_eq!(state.checkers(0, 6), 1);
    }

    #[test]
    fn more_turns_than_the_limit_end_in_a_draw() {
        let rules = BackgammonRules::new(1).unwrap();
        let mut state = BackgammonState::new(rules).unwrap();
        let mut rng = GameRng::seed_from_u64(5);
        state.apply_outcome(2).unwrap();
        let mv = state.random_move(&mut rng).unwrap();
        state.apply_move(mv).unwrap();
        assert!(!state.is_over());
        state.apply_outcome(0).unwrap();
        let mv = state.random_move(&mut rng).unwrap();
        state.apply_move(mv).unwrap();
        assert!(state.is_over() && !state.at_decision());
        assert_eq!((state.winner(), state.scores()), (None, [0, 0]));
        assert_eq!(state.open_spiel_returns(), [0.0, 0.0]);
        assert!(state.check_result([0.0, 0.0]).is_ok());
        assert!(state.check_result([1.0, 1.0]).is_err());
    }

    #[test]
    fn rules_out_of_range_and_illegal_moves_are_refused() {
        assert_eq!(
            BackgammonRules::new(0),
            Err(BackgammonError::InvalidMaxPlayerTurns { turns: 0 })
        );
        assert!(BackgammonRules::new(MAX_MAX_PLAYER_TURNS + 1).is_err());
        let bad = BackgammonRules {
            max_player_turns: 0,
        };
        assert!(BackgammonState::new(bad).is_err());
        let rules: BackgammonRules = serde_json::from_str("{}").unwrap();
        assert_eq!(rules, BackgammonRules::default());
        let rules: BackgammonRules = serde_json::from_str(r#"{"max_player_turns":7}"#).unwrap();
        assert_eq!(rules.max_player_turns, 7);
        let refused = serde_json::from_str::<BackgammonRules>(r#"{"max_player_turns":0}"#);
        assert!(refused
            .unwrap_err()
            .to_string()
            .contains("max_player_turns"));
        assert!(serde_json::from_str::<BackgammonRules>(r#"{"hyper":true}"#).is_err());

        let mut state = BackgammonState::default();
        assert_eq!(state.apply_move(PASS), Err(BackgammonError::RollPending));
        state.apply_outcome(0).unwrap();
        assert_eq!(state.apply_outcome(0), Err(BackgammonError::NoRollPending));
        let before = state.clone();
        let refused = state.apply_move(PASS).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "action 1351 (pass) is not legal with the dice 1-2"
        );
        assert!(state.apply_move(BackgammonMove(5000)).is_err());
        assert_eq!(state, before);
    }

    #[test]
    fn moves_are_plain_numbers_and_keys_are_distinct() {
        assert_eq!(serde_json::to_string(&BackgammonMove(700)).unwrap(), "700");
        assert_eq!(BackgammonMove(700).digits(), (24, 0, false));
        assert_eq!(BackgammonMove::of(24, 0, false), BackgammonMove(700));
        let mut keys: Vec<u32> = (0..2u8)
            .flat_map(|p| {
                (0..36).flat_map(move |l| {
                    (0..DISTINCT_ACTIONS)
                        .map(move |a| BackgammonState::action_key(p, l, BackgammonMove(a)))
                })
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 2 * 36 * usize::from(DISTINCT_ACTIONS));
    }

    #[test]
    fn render_draws_openspiels_board() {
        let text = BackgammonState::default().render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "+------|------+");
        assert_eq!(lines[1], "|o...x.|x....o|");
        assert_eq!(lines[11], "|x...o.|o....x|");
        assert_eq!(lines[13], "Turn: *");
    }

    #[test]
    fn random_games_trace_and_end() {
        for rules in [
            BackgammonRules::default(),
            BackgammonRules::new(20).unwrap(),
        ] {
            let start = BackgammonState::new(rules).unwrap();
            for seed in 0..10 {
                let t = trace(&start, seed).unwrap();
                assert_eq!((t.steps[0].player, t.steps[0].chance.len()), (-1, 30));
                assert_eq!(t.returns[0], -t.returns[1]);
            }
            let mut state = start.clone();
            state.play_out_randomly(&mut GameRng::seed_from_u64(3));
            assert!(state.is_over());
        }
    }

    /// Random play's figures: `cargo test --release -p evomcts-games backgammon::tests::speed
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn speed() {
        let (games, mut decisions, mut moves) = (20_000, 0usize, 0usize);
        let mut rng = GameRng::seed_from_u64(1);
        let mut buffer = Vec::new();
        for _ in 0..2000 {
            let mut state = BackgammonState::default();
            state.play_out_randomly_observed(&mut rng, |s, _| {
                decisions += 1;
                s.legal_moves(&mut buffer);
                moves += buffer.len();
            });
        }
        let start = std::time::Instant::now();
        let mut state = BackgammonState::default();
        for _ in 0..games {
            state.clone_from(&BackgammonState::default());
            state.play_out_randomly(&mut rng);
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "backgammon: {:.1} decisions a game, {:.2} legal moves a decision, {:.0} random games a second",
            decisions as f64 / 2000.0,
            moves as f64 / decisions as f64,
            games as f64 / seconds
        );
    }
}
