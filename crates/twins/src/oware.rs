//! Oware (Abapa), as OpenSpiel's `oware`: two rows of houses, one per player, seeds sown
//! counter-clockwise and captured from the opponent's row; by default 6 houses a player with
//! 4 seeds each (48 seeds), player 0 first.
//!
//! Rules as OpenSpiel plays them:
//! - Houses are numbered counter-clockwise from player 0's first house: player 0 owns houses
//!   0 to `h − 1`, player 1 houses `h` to `2h − 1`. A move names one of the mover's houses by
//!   its place in the mover's row (0 to `h − 1`), which is OpenSpiel's action id.
//! - The mover takes every seed of one of its non-empty houses and sows them one by one into
//!   the following houses, skipping the house they came from.
//! - If the last seed lands in the opponent's row and makes that house hold 2 or 3, those
//!   seeds are captured, and so are those of the houses before it in that row, going back,
//!   while each holds 2 or 3. A move that would capture every seed of the opponent's row (a
//!   *grand slam*) is played but captures nothing.
//! - If the opponent's row is empty, the mover must play a house that reaches it.
//! - The game ends when a player has captured more than half the seeds, or each exactly half.
//!   It also ends when the mover has no legal move, or when a position (the seeds, the
//!   captures and the player to move) repeats since the last capture: each player then
//!   captures the seeds left in its own row.
//! - OpenSpiel plays at most 1,000 moves (it refuses the 1,001st); natively a game that
//!   reaches 1,000 moves ends there as a repetition does. Random play does not come near
//!   within the parameters' ranges (the longest of 2,000 random default games was 406
//!   moves; of 8 houses of 8 seeds, 692).
//!
//! Parameters: houses per player (1 to [`MAX_HOUSES_PER_PLAYER`]) and seeds per house (1 to
//! [`MAX_SEEDS_PER_HOUSE`]), as OpenSpiel's `num_houses_per_player` and `num_seeds_per_house`.
//!
//! It has no chance events. Scores are 1 for the winner and 0 for the loser (0 each for a
//! draw); before the end the score difference is the difference in captured seeds as a share
//! of all the seeds (the captures at stake, as Pig's banked scores are).
//!
//! The positions since the last capture are kept in the state, a fixed array of 1,001 boards
//! of 16 bytes; `clone_from` copies only those in use, so a search's copies stay cheap.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// The most houses a player may have: both rows fit the 16 bytes of a kept board.
pub const MAX_HOUSES_PER_PLAYER: u8 = 8;

/// The most seeds a house may start with: random games stay well inside OpenSpiel's 1,000
/// moves (the longest of 2,000 random games of 8 houses of 8 seeds took 692 moves; with 12
/// seeds a house, 6 of 2,000 reached the cap, with 15, a third).
pub const MAX_SEEDS_PER_HOUSE: u8 = 8;

/// OpenSpiel's cap on moves (`kMaxGameLength`).
pub const MAX_GAME_LENGTH: u16 = 1000;

/// Boards a game can pass through between two captures: the start and one per move.
const KEPT_BOARDS: usize = MAX_GAME_LENGTH as usize + 1;

/// Houses of both rows at most.
const MAX_HOUSES: usize = 2 * MAX_HOUSES_PER_PLAYER as usize;

/// The rules of a game of Oware: plain data, checked when built or read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedOwareRules")]
pub struct OwareRules {
    /// Houses in each player's row: 1 to [`MAX_HOUSES_PER_PLAYER`]; 6 by default.
    pub houses_per_player: u8,
    /// Seeds in each house at the start: 1 to [`MAX_SEEDS_PER_HOUSE`]; 4 by default.
    pub seeds_per_house: u8,
}

impl Default for OwareRules {
    /// OpenSpiel's default: 6 houses a player, 4 seeds each.
    fn default() -> Self {
        OwareRules {
            houses_per_player: 6,
            seeds_per_house: 4,
        }
    }
}

impl OwareRules {
    /// Rules with these sizes, or an error naming the field out of range.
    pub fn new(houses_per_player: u8, seeds_per_house: u8) -> Result<Self, OwareError> {
        let rules = OwareRules {
            houses_per_player,
            seeds_per_house,
        };
        rules.check()?;
        Ok(rules)
    }

    /// Whether the fields are in range (they are public, so a caller may have set them).
    pub fn check(&self) -> Result<(), OwareError> {
        if !(1..=MAX_HOUSES_PER_PLAYER).contains(&self.houses_per_player) {
            return Err(OwareError::InvalidHouses {
                houses: self.houses_per_player,
            });
        }
        if !(1..=MAX_SEEDS_PER_HOUSE).contains(&self.seeds_per_house) {
            return Err(OwareError::InvalidSeeds {
                seeds: self.seeds_per_house,
            });
        }
        Ok(())
    }

    /// Seeds in the game.
    pub fn total_seeds(&self) -> u8 {
        2 * self.houses_per_player * self.seeds_per_house
    }
}

/// `OwareRules` as read, before its fields are checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedOwareRules {
    houses_per_player: u8,
    seeds_per_house: u8,
}

impl TryFrom<UncheckedOwareRules> for OwareRules {
    type Error = OwareError;

    fn try_from(raw: UncheckedOwareRules) -> Result<Self, OwareError> {
        OwareRules::new(raw.houses_per_player, raw.seeds_per_house)
    }
}

/// A move: the house the mover sows from, by its place in the mover's row (0 to `h − 1`),
/// which is OpenSpiel's action id. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OwareMove(pub u8);

impl fmt::Display for OwareMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "house {}", self.0)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OwareError {
    #[error("houses per player: expected 1 to {MAX_HOUSES_PER_PLAYER}, found {houses}")]
    InvalidHouses { houses: u8 },
    #[error("seeds per house: expected 1 to {MAX_SEEDS_PER_HOUSE}, found {seeds}")]
    InvalidSeeds { seeds: u8 },
    #[error("house {house} is not a house of the row (0 to {})", houses - 1)]
    NotAHouse { house: u8, houses: u8 },
    #[error("house {house} is empty")]
    EmptyHouse { house: u8 },
    #[error("house {house} does not reach the opponent's empty row, and a move must")]
    MustFeed { house: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("Oware has no chance events")]
    NoChanceEvents,
}

/// A position: the seeds of every house, the captures, the player to move, and the boards
/// since the last capture (to see a repetition).
pub struct OwareState {
    rules: OwareRules,
    seeds: [u8; MAX_HOUSES],
    captured: [u8; 2],
    mover: u8,
    moves: u16,
    /// The boards (seeds of both rows, a byte per house) since the last capture, the one
    /// after it first; the player to move alternates from `kept_mover` at the first.
    kept: [u128; KEPT_BOARDS],
    kept_len: u16,
    kept_mover: u8,
}

impl Clone for OwareState {
    fn clone(&self) -> Self {
        let mut copy = OwareState {
            kept: [0; KEPT_BOARDS],
            ..*self
        };
        copy.copy_kept(self);
        copy
    }

    /// Copies only the boards in use.
    fn clone_from(&mut self, source: &Self) {
        self.rules = source.rules;
        self.seeds = source.seeds;
        self.captured = source.captured;
        self.mover = source.mover;
        self.moves = source.moves;
        self.kept_mover = source.kept_mover;
        self.copy_kept(source);
    }
}

impl PartialEq for OwareState {
    /// The same position with the same boards since the last capture.
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.seeds == other.seeds
            && self.captured == other.captured
            && self.mover == other.mover
            && self.moves == other.moves
            && self.kept_mover == other.kept_mover
            && self.kept_boards() == other.kept_boards()
    }
}

impl Eq for OwareState {}

impl fmt::Debug for OwareState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwareState")
            .field("rules", &self.rules)
            .field("seeds", &self.row_seeds())
            .field("captured", &self.captured)
            .field("mover", &self.mover)
            .field("moves", &self.moves)
            .field("kept_since_capture", &self.kept_len)
            .finish()
    }
}

impl Default for OwareState {
    fn default() -> Self {
        Self::new(OwareRules::default())
    }
}

impl OwareState {
    /// The start of a game under `rules`: every house full, nothing captured, player 0 to
    /// move.
    pub fn new(rules: OwareRules) -> Self {
        let houses = 2 * usize::from(rules.houses_per_player);
        let mut seeds = [0; MAX_HOUSES];
        seeds[..houses].fill(rules.seeds_per_house);
        let mut state = OwareState {
            rules,
            seeds,
            captured: [0, 0],
            mover: 0,
            moves: 0,
            kept: [0; KEPT_BOARDS],
            kept_len: 0,
            kept_mover: 0,
        };
        state.keep_from_now();
        state
    }

    /// The position after playing `houses` in turn from the start of `rules`.
    pub fn from_moves(rules: OwareRules, houses: &[u8]) -> Result<Self, OwareError> {
        let mut state = Self::new(rules);
        for &house in houses {
            state.apply_move(OwareMove(house))?;
        }
        Ok(state)
    }

    /// A position with these seeds in the houses (player 0's row first), these captures and
    /// this player to move, as if a capture had just been made (nothing before it is kept).
    /// `None` if the counts do not make a position of `rules` (the wrong number of houses or
    /// of seeds), or if it is over or has no legal move (OpenSpiel's test boards).
    pub fn from_board(
        rules: OwareRules,
        seeds: &[u8],
        captured: [u8; 2],
        mover: usize,
    ) -> Option<Self> {
        let houses = 2 * usize::from(rules.houses_per_player);
        let total: u32 = seeds.iter().map(|&s| u32::from(s)).sum::<u32>()
            + u32::from(captured[0])
            + u32::from(captured[1]);
        if seeds.len() != houses || total != u32::from(rules.total_seeds()) || mover > 1 {
            return None;
        }
        let mut state = Self::new(rules);
        state.seeds[..houses].copy_from_slice(seeds);
        state.captured = captured;
        state.mover = mover as u8;
        state.keep_from_now();
        (!state.is_over() && state.playable().next().is_some()).then_some(state)
    }

    pub fn rules(&self) -> OwareRules {
        self.rules
    }

    /// The seeds of every house, player 0's row first.
    pub fn row_seeds(&self) -> &[u8] {
        &self.seeds[..self.houses()]
    }

    /// The seeds each player has captured.
    pub fn captured(&self) -> [u8; 2] {
        self.captured
    }

    /// The winner once the game is over (`None` for a draw or a game going on).
    pub fn winner(&self) -> Option<usize> {
        let [a, b] = self.captured;
        (self.is_over() && a != b).then_some(if a > b { 0 } else { 1 })
    }

    /// The board for people, as OpenSpiel draws it: player 1's captures and row (its houses
    /// labelled `a`…, right to left), then player 0's row (`A`…) and captures.
    pub fn render(&self) -> String {
        let h = usize::from(self.rules.houses_per_player);
        let mut text = String::new();
        if self.is_over() {
            text.push_str("[FINISHED]\n");
        }
        let score_line = |player: usize| {
            let playing = !self.is_over() && usize::from(self.mover) == player;
            format!(
                "Player {player} score = {}{}\n",
                self.captured[player],
                if playing { " [PLAYING]" } else { "" }
            )
        };
        text.push_str(&score_line(1));
        for action in (0..h).rev() {
            text.push_str(&format!("{:>3}", (b'a' + action as u8) as char));
        }
        text.push('\n');
        for house in (h..2 * h).rev() {
            text.push_str(&format!("{:>3}", self.seeds[house]));
        }
        text.push('\n');
        for house in 0..h {
            text.push_str(&format!("{:>3}", self.seeds[house]));
        }
        text.push('\n');
        for action in 0..h {
            text.push_str(&format!("{:>3}", (b'A' + action as u8) as char));
        }
        text.push('\n');
        text.push_str(&score_line(0));
        text
    }

    fn houses(&self) -> usize {
        2 * usize::from(self.rules.houses_per_player)
    }

    fn kept_boards(&self) -> &[u128] {
        &self.kept[..usize::from(self.kept_len)]
    }

    fn copy_kept(&mut self, source: &Self) {
        let n = usize::from(source.kept_len);
        self.kept[..n].copy_from_slice(&source.kept[..n]);
        self.kept_len = source.kept_len;
    }

    fn board_key(&self) -> u128 {
        u128::from_le_bytes(self.seeds)
    }

    /// Forgets the boards kept and keeps this one (after a capture, and at the start).
    fn keep_from_now(&mut self) {
        self.kept[0] = self.board_key();
        self.kept_len = 1;
        self.kept_mover = self.mover;
    }

    /// Keeps this board; whether it was seen since the last capture (with the same player
    /// to move: the captures have not changed since).
    fn keep_and_find_repetition(&mut self) -> bool {
        let key = self.board_key();
        let len = usize::from(self.kept_len);
        // Boards `len − 2`, `len − 4`, … had the same player to move as this one.
        let repeated = (0..len)
            .rev()
            .skip(1)
            .step_by(2)
            .any(|i| self.kept[i] == key);
        if len < KEPT_BOARDS {
            self.kept[len] = key;
            self.kept_len += 1;
        }
        repeated
    }

    /// Each player captures the seeds of its own row; the game is over.
    fn collect_and_end(&mut self) {
        let h = usize::from(self.rules.houses_per_player);
        for house in 0..self.houses() {
            self.captured[house / h] += self.seeds[house];
            self.seeds[house] = 0;
        }
    }

    fn row_total(&self, player: usize) -> u8 {
        let h = usize::from(self.rules.houses_per_player);
        self.seeds[player * h..(player + 1) * h].iter().sum()
    }

    /// The mover's legal houses (places in its row), in order; none once over.
    fn playable(&self) -> impl Iterator<Item = u8> + '_ {
        let h = self.rules.houses_per_player;
        let lower = usize::from(self.mover) * usize::from(h);
        let over = self.is_over();
        let must_feed = self.row_total(1 - usize::from(self.mover)) == 0;
        (0..h).filter(move |&place| {
            let seeds = self.seeds[lower + usize::from(place)];
            // From place `p`, the first `h − 1 − p` seeds stay in the mover's row.
            !over && seeds > 0 && (!must_feed || seeds > h - 1 - place)
        })
    }

    fn should_capture(seeds: u8) -> bool {
        (2..=3).contains(&seeds)
    }

    /// Whether capturing from `last` (in the opponent's row) would take every seed of that
    /// row.
    fn is_grand_slam(&self, last: usize) -> bool {
        let h = usize::from(self.rules.houses_per_player);
        let lower = last / h * h;
        let upper = lower + h - 1;
        self.seeds[last + 1..=upper].iter().all(|&s| s == 0)
            && self.seeds[lower..=last]
                .iter()
                .all(|&s| Self::should_capture(s))
    }
}

impl fmt::Display for OwareState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for OwareState {
    type Move = OwareMove;
    type Error = OwareError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.mover)
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    /// More than half the seeds captured by one player, or half by each (which a repetition,
    /// a player without a move and the cap always bring about, capturing every seed left).
    fn is_over(&self) -> bool {
        let limit = self.rules.total_seeds() / 2;
        let [a, b] = self.captured;
        a > limit || b > limit || (a == limit && b == limit)
    }

    fn turns_played(&self) -> usize {
        usize::from(self.moves)
    }

    /// The mover's legal houses, in order (ascending action ids).
    fn legal_moves(&self, out: &mut Vec<OwareMove>) {
        out.clear();
        out.extend(self.playable().map(OwareMove));
    }

    fn apply_move(&mut self, mv: OwareMove) -> Result<(), OwareError> {
        if self.is_over() {
            return Err(OwareError::GameOver);
        }
        let h = self.rules.houses_per_player;
        if mv.0 >= h {
            return Err(OwareError::NotAHouse {
                house: mv.0,
                houses: h,
            });
        }
        if self.playable().all(|place| place != mv.0) {
            let start = usize::from(self.mover) * usize::from(h) + usize::from(mv.0);
            return Err(if self.seeds[start] == 0 {
                OwareError::EmptyHouse { house: mv.0 }
            } else {
                OwareError::MustFeed { house: mv.0 }
            });
        }
        let houses = self.houses();
        let h = usize::from(h);
        let start = usize::from(self.mover) * h + usize::from(mv.0);
        let mut sow = self.seeds[start];
        self.seeds[start] = 0;
        let mut last = start;
        while sow > 0 {
            last = (last + 1) % houses;
            if last != start {
                self.seeds[last] += 1;
                sow -= 1;
            }
        }
        let mut captured_any = false;
        if last / h != usize::from(self.mover) && !self.is_grand_slam(last) {
            let lower = last / h * h;
            let mut captured = 0;
            for house in (lower..=last).rev() {
                if !Self::should_capture(self.seeds[house]) {
                    break;
                }
                captured += self.seeds[house];
                self.seeds[house] = 0;
            }
            self.captured[usize::from(self.mover)] += captured;
            captured_any = captured > 0;
        }
        self.mover = 1 - self.mover;
        self.moves += 1;
        if captured_any {
            self.keep_from_now();
        } else if self.keep_and_find_repetition() {
            self.collect_and_end();
        }
        if self.playable().next().is_none() || self.moves == MAX_GAME_LENGTH {
            self.collect_and_end();
        }
        Ok(())
    }

    /// Uniform among the mover's legal houses, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<OwareMove> {
        let open = self.playable().count();
        if open == 0 {
            return None;
        }
        self.playable().nth(rng.gen_range(0..open)).map(OwareMove)
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), OwareError> {
        Err(OwareError::NoChanceEvents)
    }

    /// 1 for the winner at the end, 0 otherwise.
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

    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of Oware has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// At the end the win-loss result; before, the player's captures minus the opponent's
    /// over all the seeds (at most 1/2 in size: neither has more than half yet).
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        if self.is_over() {
            let scores = self.scores();
            return f64::from(scores[player] - scores[1 - player]);
        }
        let difference = i32::from(self.captured[player]) - i32::from(self.captured[1 - player]);
        f64::from(difference) / f64::from(self.rules.total_seeds())
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player and the house's place in its row.
    fn action_key(player: u8, _label: u8, mv: OwareMove) -> u32 {
        u32::from(player) * 256 + u32::from(mv.0)
    }
}

/// OpenSpiel's `oware` with `num_houses_per_player` and `num_seeds_per_house`: action id =
/// the house's place in the mover's row; returns +1 to the winner and −1 to the loser, 0 each
/// for a draw.
impl OpenSpielTwin for OwareState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "oware",
            params: vec![
                (
                    "num_houses_per_player",
                    OpenSpielParam::Int(i64::from(self.rules.houses_per_player)),
                ),
                (
                    "num_seeds_per_house",
                    OpenSpielParam::Int(i64::from(self.rules.seeds_per_house)),
                ),
            ],
        }
    }

    fn open_spiel_action(&self, mv: OwareMove) -> i64 {
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
