//! Nim, as OpenSpiel's `nim`: piles of objects; the players take turns, player 0 first, each
//! taking one or more objects from one pile. Whoever takes the last object wins in normal play
//! and **loses in misère play**, OpenSpiel's default (piles of 1, 3, 5 and 7, misère).
//!
//! It has no chance events; its parameters are the piles (1 to [`MAX_PILES`] piles of 0 to
//! [`MAX_PILE`] objects, at least one object in all) and whether play is misère. A move names
//! a pile and how many objects it takes; OpenSpiel's action id of taking `take` from pile
//! `pile` of `n` piles is `(take − 1) · n + pile`.
//!
//! Scores are 1 for the winner and 0 for the loser; there are no draws. The score difference
//! is the win-loss result once the game is over and 0 before (the game offers no knowledge of
//! nim-sums).

use std::fmt;

use rand::Rng;
use serde::{Deserialize, Serialize};

use evomcts_games::open_spiel_twin::{OpenSpielName, OpenSpielParam, OpenSpielTwin};
use evomcts_games::{Evaluation, Game, GameRng, Objective};

/// The most piles a game may have.
pub const MAX_PILES: usize = 16;

/// The most objects a pile may start with.
pub const MAX_PILE: u8 = 255;

/// OpenSpiel's default piles.
pub const DEFAULT_PILES: [u8; 4] = [1, 3, 5, 7];

/// The rules of a game of Nim: its piles at the start and whether the last object loses.
/// Checked when built or read; written as `(piles: [1, 3, 5, 7], misere: true)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "UncheckedNimRules", into = "UncheckedNimRules")]
pub struct NimRules {
    piles: [u8; MAX_PILES],
    count: u8,
    misere: bool,
}

impl Default for NimRules {
    /// OpenSpiel's default: piles of 1, 3, 5 and 7, misère.
    fn default() -> Self {
        NimRules::new(&DEFAULT_PILES, true).expect("the default piles are valid")
    }
}

impl NimRules {
    /// Rules with these piles (1 to [`MAX_PILES`] of them, each 0 to [`MAX_PILE`], at least
    /// one object in all) and misère play or not; an error says what is wrong.
    pub fn new(piles: &[u8], misere: bool) -> Result<Self, NimError> {
        if piles.is_empty() || piles.len() > MAX_PILES {
            return Err(NimError::InvalidPileCount { count: piles.len() });
        }
        if piles.iter().all(|&p| p == 0) {
            return Err(NimError::NoObjects);
        }
        let mut rules = NimRules {
            piles: [0; MAX_PILES],
            count: piles.len() as u8,
            misere,
        };
        rules.piles[..piles.len()].copy_from_slice(piles);
        Ok(rules)
    }

    /// The piles at the start.
    pub fn piles(&self) -> &[u8] {
        &self.piles[..usize::from(self.count)]
    }

    /// Whether the player who takes the last object loses.
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// The piles as OpenSpiel's `pile_sizes` parameter writes them: `1;3;5;7`.
    pub fn open_spiel_pile_sizes(&self) -> String {
        let sizes: Vec<String> = self.piles().iter().map(u8::to_string).collect();
        sizes.join(";")
    }
}

/// `NimRules` as read and written, before its fields are checked.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UncheckedNimRules {
    piles: Vec<u16>,
    misere: bool,
}

impl TryFrom<UncheckedNimRules> for NimRules {
    type Error = NimError;

    fn try_from(raw: UncheckedNimRules) -> Result<Self, NimError> {
        let mut piles = Vec::with_capacity(raw.piles.len());
        for (pile, &size) in raw.piles.iter().enumerate() {
            let size = u8::try_from(size).map_err(|_| NimError::InvalidPileSize { pile, size })?;
            piles.push(size);
        }
        NimRules::new(&piles, raw.misere)
    }
}

impl From<NimRules> for UncheckedNimRules {
    fn from(rules: NimRules) -> Self {
        UncheckedNimRules {
            piles: rules.piles().iter().map(|&p| u16::from(p)).collect(),
            misere: rules.misere,
        }
    }
}

/// A move: take `take` objects (at least 1) from pile `pile` (counted from 0).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NimMove {
    pub pile: u8,
    pub take: u8,
}

impl fmt::Display for NimMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {} from pile {}", self.take, self.pile)
    }
}

/// Why rules, a move or an outcome are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NimError {
    #[error("piles: expected 1 to {MAX_PILES} piles, found {count}")]
    InvalidPileCount { count: usize },
    #[error("piles: pile {pile} has {size} objects; a pile holds 0 to {MAX_PILE}")]
    InvalidPileSize { pile: usize, size: u16 },
    #[error("piles: every pile is empty, so the game would be over before it began")]
    NoObjects,
    #[error("pile {pile} is not a pile (0 to {})", count - 1)]
    NotAPile { pile: u8, count: u8 },
    #[error("cannot take {take} from pile {pile}, which holds {held} (a move takes 1 or more)")]
    CannotTake { pile: u8, take: u8, held: u8 },
    #[error("the game is over")]
    GameOver,
    #[error("Nim has no chance events")]
    NoChanceEvents,
}

/// A position: the piles, whose turn it is, and the winner once the last object is taken.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NimState {
    rules: NimRules,
    piles: [u8; MAX_PILES],
    /// Objects left in all piles: the number of legal moves.
    left: u16,
    mover: u8,
    turns: u16,
    winner: Option<u8>,
}

impl Default for NimState {
    fn default() -> Self {
        Self::new(NimRules::default())
    }
}

impl NimState {
    /// The start of a game under `rules`, player 0 to move.
    pub fn new(rules: NimRules) -> Self {
        NimState {
            rules,
            piles: rules.piles,
            left: rules.piles.iter().map(|&p| u16::from(p)).sum(),
            mover: 0,
            turns: 0,
            winner: None,
        }
    }

    /// The position after playing `moves` (pile, take) in turn from the start of `rules`.
    pub fn from_moves(rules: NimRules, moves: &[(u8, u8)]) -> Result<Self, NimError> {
        let mut state = Self::new(rules);
        for &(pile, take) in moves {
            state.apply_move(NimMove { pile, take })?;
        }
        Ok(state)
    }

    pub fn rules(&self) -> NimRules {
        self.rules
    }

    /// The objects in each pile now.
    pub fn piles(&self) -> &[u8] {
        &self.piles[..usize::from(self.rules.count)]
    }

    /// The winner once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The piles for people, as OpenSpiel prints a state: `(player to move): 1 3 5 7`.
    pub fn render(&self) -> String {
        let sizes: Vec<String> = self.piles().iter().map(u8::to_string).collect();
        format!("({}): {}\n", self.mover, sizes.join(" "))
    }

    fn largest_pile(&self) -> u8 {
        self.piles().iter().copied().max().unwrap_or(0)
    }
}

impl fmt::Display for NimState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl Game for NimState {
    type Move = NimMove;
    type Error = NimError;
    const OBJECTIVE: Objective = Objective::WinLoss;

    fn placeholder() -> Self {
        Self::default()
    }

    fn to_move(&self) -> usize {
        usize::from(self.mover)
    }

    fn at_decision(&self) -> bool {
        self.left > 0
    }

    fn is_over(&self) -> bool {
        self.left == 0
    }

    fn turns_played(&self) -> usize {
        usize::from(self.turns)
    }

    /// Every (pile, take) with `take` at most the pile, in OpenSpiel's order of action ids:
    /// by `take`, then by pile.
    fn legal_moves(&self, out: &mut Vec<NimMove>) {
        out.clear();
        for take in 1..=self.largest_pile() {
            for (pile, &held) in self.piles().iter().enumerate() {
                if held >= take {
                    out.push(NimMove {
                        pile: pile as u8,
                        take,
                    });
                }
            }
        }
    }

    fn apply_move(&mut self, mv: NimMove) -> Result<(), NimError> {
        if self.is_over() {
            return Err(NimError::GameOver);
        }
        let count = self.rules.count;
        if mv.pile >= count {
            return Err(NimError::NotAPile {
                pile: mv.pile,
                count,
            });
        }
        let held = &mut self.piles[usize::from(mv.pile)];
        if mv.take == 0 || mv.take > *held {
            return Err(NimError::CannotTake {
                pile: mv.pile,
                take: mv.take,
                held: *held,
            });
        }
        *held -= mv.take;
        self.left -= u16::from(mv.take);
        self.turns += 1;
        if self.left == 0 {
            self.winner = Some(if self.rules.misere {
                1 - self.mover
            } else {
                self.mover
            });
        }
        self.mover = 1 - self.mover;
        Ok(())
    }

    /// Uniform among the legal moves: one per object left (the `k`-th object of a pile is
    /// taking `k`), without a buffer.
    fn random_move(&self, rng: &mut GameRng) -> Option<NimMove> {
        if self.left == 0 {
            return None;
        }
        let mut pick = rng.gen_range(0..self.left);
        for (pile, &held) in self.piles().iter().enumerate() {
            if pick < u16::from(held) {
                return Some(NimMove {
                    pile: pile as u8,
                    take: pick as u8 + 1,
                });
            }
            pick -= u16::from(held);
        }
        unreachable!("the piles hold `left` objects")
    }

    fn decision_label(&self) -> u8 {
        0
    }

    fn apply_outcome(&mut self, _label: u8) -> Result<(), NimError> {
        Err(NimError::NoChanceEvents)
    }

    /// 1 for the winner, 0 otherwise (and 0 each during the game).
    fn scores(&self) -> [i32; 2] {
        crate::bits::win_loss_scores(self.winner)
    }

    fn max_score(&self) -> f64 {
        1.0
    }

    /// One winner at most (a finished game has exactly one).
    fn check_result(&self, scores: [f64; 2]) -> Result<(), String> {
        if scores == [1.0, 1.0] {
            return Err("a game of Nim has one winner at most".into());
        }
        Ok(())
    }

    fn text(&self) -> Option<String> {
        Some(self.render())
    }

    /// The win-loss result once over, 0 before.
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        let scores = self.scores();
        f64::from(scores[player] - scores[1 - player])
    }

    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        1.0
    }

    /// The player, the pile and the number taken.
    fn action_key(player: u8, _label: u8, mv: NimMove) -> u32 {
        (u32::from(player) << 12) | (u32::from(mv.pile % 16) << 8) | u32::from(mv.take)
    }
}

/// OpenSpiel's `nim` with `pile_sizes` (the piles joined by `;`) and `is_misere`: action id
/// `(take − 1) · piles + pile`; returns +1 to the winner and −1 to the loser.
impl OpenSpielTwin for NimState {
    fn open_spiel_name(&self) -> OpenSpielName {
        OpenSpielName {
            name: "nim",
            params: vec![
                (
                    "pile_sizes",
                    OpenSpielParam::Str(self.rules.open_spiel_pile_sizes()),
                ),
                ("is_misere", OpenSpielParam::Bool(self.rules.misere)),
            ],
        }
    }

    fn open_spiel_action(&self, mv: NimMove) -> i64 {
        (i64::from(mv.take) - 1) * i64::from(self.rules.count) + i64::from(mv.pile)
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

    fn rules(piles: &[u8], misere: bool) -> NimRules {
        NimRules::new(piles, misere).unwrap()
    }

    #[test]
    fn the_last_object_loses_in_misere_play_and_wins_in_normal_play() {
        for misere in [true, false] {
            let mut state = NimState::from_moves(rules(&[1, 2], misere), &[(1, 1)]).unwrap();
            assert_eq!(state.to_move(), 1);
            state.apply_move(NimMove { pile: 0, take: 1 }).unwrap();
            assert!(!state.is_over());
            state.apply_move(NimMove { pile: 1, take: 1 }).unwrap();
            assert!(state.is_over() && !state.at_decision());
            // Player 0 took the last object.
            let winner = if misere { 1 } else { 0 };
            assert_eq!(state.winner(), Some(winner));
            assert_eq!(state.evaluate(winner, Evaluation::ScoreDifference), 1.0);
            assert_eq!(
                state.evaluate(1 - winner, Evaluation::ScoreDifference),
                -1.0
            );
            assert_eq!(state.open_spiel_returns()[winner], 1.0);
            let mut moves = vec![NimMove::default()];
            state.legal_moves(&mut moves);
            assert!(moves.is_empty());
            assert_eq!(state.turns_played(), 3);
        }
    }

    #[test]
    fn legal_moves_follow_open_spiels_action_ids() {
        let state = NimState::new(NimRules::default());
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        assert_eq!(moves.len(), 16);
        let ids: Vec<i64> = moves.iter().map(|&m| state.open_spiel_action(m)).collect();
        assert_eq!(
            ids,
            [0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 14, 15, 18, 19, 23, 27]
        );
        assert_eq!(
            move_of_action(&state, 27),
            Some(NimMove { pile: 3, take: 7 })
        );
        assert_eq!(move_of_action(&state, 4), None, "pile 0 holds 1");
        // An empty pile gives no moves; its index still counts in the ids.
        let state = NimState::new(rules(&[0, 3], false));
        state.legal_moves(&mut moves);
        let ids: Vec<i64> = moves.iter().map(|&m| state.open_spiel_action(m)).collect();
        assert_eq!(ids, [1, 3, 5]);
    }

    #[test]
    fn random_moves_are_uniform_over_the_objects() {
        let state = NimState::new(rules(&[1, 0, 2], true));
        let mut rng: GameRng = rand::SeedableRng::seed_from_u64(2);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..3000 {
            *counts
                .entry(state.random_move(&mut rng).unwrap())
                .or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 3);
        assert!(
            counts.values().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn illegal_moves_are_refused_and_change_nothing() {
        let start = NimState::default();
        let mut state = start.clone();
        let refused = state.apply_move(NimMove { pile: 4, take: 1 }).unwrap_err();
        assert_eq!(refused.to_string(), "pile 4 is not a pile (0 to 3)");
        let refused = state.apply_move(NimMove { pile: 1, take: 4 }).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "cannot take 4 from pile 1, which holds 3 (a move takes 1 or more)"
        );
        assert!(state.apply_move(NimMove { pile: 1, take: 0 }).is_err());
        assert_eq!(state, start);
        assert_eq!(state.apply_outcome(0), Err(NimError::NoChanceEvents));
        let mut over = NimState::from_moves(rules(&[2], false), &[(0, 2)]).unwrap();
        assert_eq!(over.winner(), Some(0));
        assert_eq!(
            over.apply_move(NimMove { pile: 0, take: 1 }),
            Err(NimError::GameOver)
        );
    }

    #[test]
    fn bad_rules_are_refused() {
        assert_eq!(
            NimRules::new(&[], true),
            Err(NimError::InvalidPileCount { count: 0 })
        );
        assert_eq!(
            NimRules::new(&[1; 17], true),
            Err(NimError::InvalidPileCount { count: 17 })
        );
        assert_eq!(NimRules::new(&[0, 0], false), Err(NimError::NoObjects));
        let read: Result<NimRules, _> = serde_json::from_str(r#"{"piles":[3,256],"misere":false}"#);
        let why = read.unwrap_err().to_string();
        assert!(why.contains("pile 1 has 256 objects"), "{why}");
        let read: Result<NimRules, _> = serde_json::from_str(r#"{"piles":[],"misere":false}"#);
        assert!(read.is_err());
        let written = serde_json::to_string(&NimRules::default()).unwrap();
        assert_eq!(written, r#"{"piles":[1,3,5,7],"misere":true}"#);
        let read: NimRules = serde_json::from_str(&written).unwrap();
        assert_eq!(read, NimRules::default());
    }

    #[test]
    fn open_spiel_names_the_variant() {
        let name = NimState::new(rules(&[2, 3, 5], false)).open_spiel_name();
        assert_eq!(name.name, "nim");
        assert_eq!(
            name.params,
            vec![
                ("pile_sizes", OpenSpielParam::Str("2;3;5".into())),
                ("is_misere", OpenSpielParam::Bool(false)),
            ]
        );
        assert_eq!(NimState::default().render(), "(0): 1 3 5 7\n");
    }

    #[test]
    fn keys_are_distinct() {
        let mut keys = Vec::new();
        for player in 0..2u8 {
            for pile in 0..MAX_PILES as u8 {
                for take in 1..=MAX_PILE {
                    keys.push(NimState::action_key(player, 0, NimMove { pile, take }));
                }
            }
        }
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn traces_alternate_and_end() {
        let start = NimState::default();
        for seed in 0..20 {
            let t = trace(&start, seed).unwrap();
            assert!((4..=16).contains(&t.steps.len()));
            for (i, s) in t.steps.iter().enumerate() {
                assert_eq!(s.player, (i % 2) as i64);
            }
            // Misère: whoever took the last object lost.
            let last = (t.steps.len() - 1) % 2;
            assert_eq!(t.returns[last], -1.0);
        }
    }
}
