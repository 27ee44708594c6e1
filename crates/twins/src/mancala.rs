//! Mancala in its Kalah form, as OpenSpiel's `mancala`: a board of 14 pits, six houses and a
//! store per player, 4 seeds in each house at the start, player 0 first.
//!
//! Rules as OpenSpiel plays them:
//! - Pits are numbered 0 to 13 counter-clockwise: 0 is player 1's store, 1 to 6 player 0's
//!   houses, 7 player 0's store, 8 to 13 player 1's houses. A move names the house it empties,
//!   which is OpenSpiel's action id.
//! - The mover takes every seed of one of its non-empty houses and sows them one by one into
//!   the following pits, skipping the opponent's store.
//! - If the last seed lands in the mover's own store, the mover moves again.
//! - If it lands in an empty house of the mover and the opposite house (`14 − pit`) holds
//!   seeds, that seed and the opposite house's go to the mover's store.
//! - The game ends as soon as either player's six houses are all empty, or after 1,001 moves
//!   (OpenSpiel's cap, `move number > 1000`; random play never comes near). Each player then
//!   counts the seeds of its store *and* of its houses; more wins, equal is a draw.
//!
//! It has no chance events and no parameters. Scores are 1 for the winner and 0 for the loser
//! (0 each for a draw); before the end the score difference is the difference in those counts
//! (store and houses, as the end would count them) as a share of the 48 seeds.

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// Houses per player.
pub const HOUSES: u8 = 6;

/// Pits of the board: each player's houses and store.
pub const PITS: usize = 2 * (HOUSES as usize + 1);

/// Seeds in each house at the start.
pub const SEEDS_PER_HOUSE: u8 = 4;

/// Seeds on the board.
pub const TOTAL_SEEDS: u8 = 2 * HOUSES * SEEDS_PER_HOUSE;

/// OpenSpiel's cap: the game is over once more than this many moves were played.
pub const MAX_GAME_LENGTH: u16 = 1000;

/// A player's store.
const fn store(player: usize) -> usize {
    if player == 0 {
        PITS / 2
    } else {
        0
    }
}

/// The first of a player's houses (the others follow).
const fn first_house(player: usize) -> usize {
    if player == 0 {
        1
    } else {
        PITS / 2 + 1
    }
}

/// A move: the house (1 to 6 for player 0, 8 to 13 for player 1) the mover sows from, which
/// is OpenSpiel's action id. Written as the plain number.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MancalaMove(pub u8);

impl fmt::Display for MancalaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pit {}", self.0)
    }
}

/// Why a move or an outcome is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MancalaError {
    #[error("pit {pit} is not a house of player {player} (player 0: 1 to 6, player 1: 8 to 13)")]
    NotOwnHouse { pit: u8, player: usize },
    #[error("house {pit} is empty")]
    EmptyHouse { pit: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("mancala has no chance events")]
    NoChanceEvents,
}

/// A position: the seeds of every pit, in OpenSpiel's numbering.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MancalaState {
    board: [u8; PITS],
    mover: u8,
    moves: u16,
}

impl Default for MancalaState {
    fn default() -> Self {
        Self::new()
    }
}

impl MancalaState {
    /// The start: 4 seeds in every house, empty stores, player 0 to move.
    pub fn new() -> Self {
        let mut board = [SEEDS_PER_HOUSE; PITS];
        board[store(0)] = 0;
        board[store(1)] = 0;
        MancalaState {
            board,
            mover: 0,
            moves: 0,
        }
    }

    /// The position after playing `pits` in turn from the start, or the first move's error.
    pub fn from_moves(pits: &[u8]) -> Result<Self, MancalaError> {
        let mut state = Self::new();
        for &pit in pits {
            state.apply_move(MancalaMove(pit))?;
        }
        Ok(state)
    }

    /// The seeds of every pit, in OpenSpiel's numbering (0: player 1's store, 7: player 0's).
    pub fn board(&self) -> [u8; PITS] {
        self.board
    }

    /// The seeds a player would count if the game ended now: its store and its houses.
    pub fn count(&self, player: usize) -> u8 {
        let houses = first_house(player);
        self.board[store(player)]
            + self.board[houses..houses + usize::from(HOUSES)]
                .iter()
                .sum::<u8>()
    }

    /// The winner once the game is over (`None` for a draw or a game going on).
    pub fn winner(&self) -> Option<usize> {
        if !self.is_over() {
            return None;
        }
        let (a, b) = (self.count(0), self.count(1));
        (a != b).then_some(if a > b { 0 } else { 1 })
    }

    /// The board for people, as OpenSpiel draws it: player 1's houses from 13 down to 8 on
    /// top, the stores (player 1's on the left) in the middle, player 0's houses 1 to 6 below.
    pub fn render(&self) -> String {
        let row = |pits: &mut dyn Iterator<Item = usize>| -> String {
            let mut line = String::from("-");
            for pit in pits {
                line.push_str(&format!("{}-", self.board[pit]));
            }
            line
        };
        format!(
            "{}\n{}{}{}\n{}\n",
            row(&mut (8..PITS).rev()),
            self.board[store(1)],
            "-".repeat(2 * usize::from(HOUSES) - 1),
            self.board[store(0)],
            row(&mut (1..=usize::from(HOUSES))),
        )
    }

    fn houses_empty(&self, player: usize) -> bool {
        let houses = first_house(player);
        self.board[houses..houses + usize::from(HOUSES)]
            .iter()
            .all(|&s| s == 0)
    }

    /// The mover's non-empty houses, in order; none once the game is over.
    fn playable(&self) -> impl Iterator<Item = u8> + '_ {
        let houses = first_house(usize::from(self.mover));
        let over = self.is_over();
        (houses..houses + usize::from(HOUSES))
            .filter(move |&pit| !over && self.board[pit] > 0)
            .map(|pit| pit as u8)
    }
}

impl fmt::Display for MancalaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for MancalaState {
    type Move = MancalaMove;
    type Error = MancalaError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::new()
    }

    fn to_move(&self) -> usize {
        usize::from(self.mover)
    }

    fn at_decision(&self) -> bool {
        !self.is_over()
    }

    fn is_over(&self) -> bool {
        self.moves > MAX_GAME_LENGTH || self.houses_empty(0) || self.houses_empty(1)
    }

    fn turns_played(&self) -> usize {
        usize::from(self.moves)
    }

    /// The mover's non-empty houses, in order (ascending action ids).
    fn legal_moves(&self, out: &mut Vec<MancalaMove>) {
        out.clear();
        out.extend(self.playable().map(MancalaMove));
    }

    fn apply_move(&mut self, mv: MancalaMove) -> Result<(), MancalaError> {
        if self.is_over() {
            return Err(MancalaError::GameOver);
        }
        let player = usize::from(self.mover);
        let houses = first_house(player);
        let pit = usize::from(mv.0);
        if !(houses..houses + usize::from(HOUSES)).contains(&pit) {
            return Err(MancalaError::NotOwnHouse { pit: mv.0, player });
        }
        let seeds = self.board[pit];
        if seeds == 0 {
            return Err(MancalaError::EmptyHouse { pit: mv.0 });
        }
        self.board[pit] = 0;
        let skipped = store(1 - player);
        let mut at = pit;
        for _ in 0..seeds {
            at = (at + 1) % PITS;
            if at == skipped {
                at = (at + 1) % PITS;
            }
            self.board[at] += 1;
        }
        let own_house = (houses..houses + usize::from(HOUSES)).contains(&at);
        let opposite = PITS - at;
        if own_house && self.board[at] == 1 && self.board[opposite] > 0 {
            self.board[store(player)] += 1 + self.board[opposite];
            self.board[at] = 0;
            self.board[opposite] = 0;
        }
        if at != store(player) {
            self.mover = 1 - self.mover;
        }
        self.moves += 1;
        Ok(())
    }

    /// Uniform among the mover's non-empty houses, without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<MancalaMove> {
        let open = self.playable().count();
        if open == 0 {
            return None;
        }
        self.playable().nth(rng.gen_range(0..open)).map(MancalaMove)
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), MancalaError> {
        Err(MancalaError::NoChanceEvents)
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
            return Err("a game of mancala has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// At the end the win-loss result; before, the player's count (store and houses) minus
    /// the opponent's, over the 48 seeds: below 1 in size, since a player holding every seed
    /// would have ended the game.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        if self.is_over() {
            let scores = self.scores();
            return f64::from(scores[player] - scores[1 - player]);
        }
        let difference = i32::from(self.count(player)) - i32::from(self.count(1 - player));
        f64::from(difference) / f64::from(TOTAL_SEEDS)
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The house is the player's own, so the pit alone is distinct.
    fn action_key(player: u8, _label: u8, mv: MancalaMove) -> u32 {
        u32::from(player) * PITS as u32 + u32::from(mv.0)
    }
}

/// OpenSpiel's `mancala` (no parameters): action id = pit; returns +1 to the winner and −1 to
/// the loser, 0 each for a draw.
impl OpenSpielTwin for MancalaState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "mancala",
            params: Vec::new(),
        }
    }

    fn open_spiel_action(&self, mv: MancalaMove) -> i64 {
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

    fn play(pits: &[u8]) -> MancalaState {
        MancalaState::from_moves(pits).expect("the moves are legal")
    }

    fn legal(state: &MancalaState) -> Vec<u8> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves.into_iter().map(|m| m.0).collect()
    }

    #[test]
    fn the_start_and_its_rendering() {
        let state = MancalaState::new();
        assert_eq!(legal(&state), [1, 2, 3, 4, 5, 6]);
        assert_eq!(
            state.render(),
            "-4-4-4-4-4-4-\n0-----------0\n-4-4-4-4-4-4-\n"
        );
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 0.0);
    }

    #[test]
    fn a_last_seed_in_the_own_store_moves_again() {
        // House 3's 4 seeds go to 4, 5, 6 and the store (7).
        let state = play(&[3]);
        assert_eq!(state.board()[7], 1);
        assert_eq!(state.to_move(), 0);
        assert_eq!(legal(&state), [1, 2, 4, 5, 6]);
        // House 1's then lands in 5: the turn passes.
        let state = play(&[3, 1]);
        assert_eq!(state.to_move(), 1);
        assert_eq!(legal(&state), [8, 9, 10, 11, 12, 13]);
        assert_eq!(state.turns_played(), 2);
    }

    #[test]
    fn sowing_skips_the_opponents_store() {
        // A lap from player 0: with 13 seeds the store of player 1 (pit 0) gets none.
        let mut state = MancalaState::new();
        state.board = [0, 0, 0, 0, 0, 0, 13, 0, 1, 1, 1, 1, 1, 1];
        state.apply_move(MancalaMove(6)).unwrap();
        // 13 seeds from house 6: 7..13 (7 seeds), skip 0, 1..6 (6 seeds): the last lands in
        // house 6, empty before, and captures the opposite house 8 (1 + 1 sown = 2).
        assert_eq!(state.board()[0], 0);
        assert_eq!(state.board()[6], 0);
        assert_eq!(state.board()[8], 0);
        assert_eq!(state.board()[7], 1 + 1 + 2);
        assert_eq!(state.to_move(), 1);
        let seeds: u8 = state.board().iter().sum();
        assert_eq!(seeds, 19);
    }

    #[test]
    fn a_last_seed_in_an_empty_own_house_captures_the_opposite() {
        let mut state = MancalaState::new();
        // Player 0: house 2 holds 1, house 3 is empty; opposite of 3 is 11.
        state.board = [0, 0, 1, 0, 4, 4, 4, 0, 4, 4, 4, 7, 4, 4];
        state.apply_move(MancalaMove(2)).unwrap();
        assert_eq!(state.board()[3], 0);
        assert_eq!(state.board()[11], 0);
        assert_eq!(state.board()[7], 8);
        assert_eq!(state.to_move(), 1);
        // Nothing is captured when the opposite house is empty.
        let mut state = MancalaState::new();
        state.board = [0, 0, 1, 0, 4, 4, 4, 0, 4, 4, 4, 0, 4, 4];
        state.apply_move(MancalaMove(2)).unwrap();
        assert_eq!(state.board()[3], 1);
        assert_eq!(state.board()[7], 0);
        // Nor when the last seed lands in an empty house of the opponent.
        let mut state = MancalaState::new();
        state.mover = 1;
        state.board = [0, 0, 0, 0, 4, 4, 4, 0, 4, 4, 4, 4, 4, 1];
        state.apply_move(MancalaMove(13)).unwrap();
        assert_eq!(state.board()[0], 1, "the store, and player 1 moves again");
        assert_eq!(state.to_move(), 1);
    }

    #[test]
    fn the_game_ends_when_a_side_is_empty_and_houses_count() {
        let mut state = MancalaState::new();
        // Player 0 sows its last seed into its store: its houses are empty, the game is over,
        // and player 1's houses count for player 1: 10 + 0 against 20 + 18.
        state.board = [20, 0, 0, 0, 0, 0, 1, 9, 3, 3, 3, 3, 3, 3];
        state.apply_move(MancalaMove(6)).unwrap();
        assert!(state.is_over() && !state.at_decision());
        assert_eq!((state.count(0), state.count(1)), (10, 38));
        assert_eq!(state.winner(), Some(1));
        assert_eq!(state.scores(), [0, 1]);
        assert_eq!(state.open_spiel_returns(), [-1.0, 1.0]);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 1.0);
        assert!(legal(&state).is_empty());
        assert_eq!(
            state.apply_move(MancalaMove(8)),
            Err(MancalaError::GameOver)
        );
        // A draw: 24 each.
        state.board = [24, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0];
        assert!(state.is_over());
        assert_eq!(state.winner(), None);
        assert_eq!(state.scores(), [0, 0]);
    }

    #[test]
    fn the_game_ends_after_openspiels_cap() {
        let mut state = MancalaState::new();
        state.moves = MAX_GAME_LENGTH;
        assert!(!state.is_over());
        state.moves = MAX_GAME_LENGTH + 1;
        assert!(state.is_over());
        assert_eq!(state.winner(), None, "24 against 24");
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let start = play(&[3]);
        let mut state = start.clone();
        assert_eq!(
            state.apply_move(MancalaMove(3)),
            Err(MancalaError::EmptyHouse { pit: 3 })
        );
        let refused = state.apply_move(MancalaMove(8)).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "pit 8 is not a house of player 0 (player 0: 1 to 6, player 1: 8 to 13)"
        );
        assert!(state.apply_move(MancalaMove(7)).is_err());
        assert!(state.apply_move(MancalaMove(14)).is_err());
        assert_eq!(state, start);
        assert_eq!(state.apply_outcome(0), Err(MancalaError::NoChanceEvents));
    }

    #[test]
    fn the_evaluation_is_the_count_difference_before_the_end() {
        let state = play(&[1]);
        // House 1's 4 seeds go to 2..5: player 0 still counts 24.
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 0.0);
        let state = play(&[6]);
        // 7, 8, 9, 10: three seeds cross to player 1, one reaches the store: 21 against 27.
        assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), -6.0 / 48.0);
        assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), 6.0 / 48.0);
    }

    #[test]
    fn keys_are_distinct() {
        let mut keys: Vec<u32> = (0..2u8)
            .flat_map(|p| (0..14).map(move |c| MancalaState::action_key(p, 0, MancalaMove(c))))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 28);
    }

    #[test]
    fn traces_end_with_opposite_returns() {
        let start = MancalaState::new();
        for seed in 0..20 {
            let t = trace(&start, seed).unwrap();
            assert!(t.steps.len() > 5);
            for s in &t.steps {
                let own = if s.player == 0 { 1..=6 } else { 8..=13 };
                assert!(s.legal.iter().all(|a| own.contains(a)));
            }
            assert_eq!(t.returns[0], -t.returns[1]);
        }
    }
}
