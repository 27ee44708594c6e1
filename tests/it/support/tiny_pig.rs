//! TinyPig: Pig with a three-sided die and target 6, written against `games::Game` alone, so
//! that tests of the searches and of the game interface have a game that is not one of the
//! library's. It has what Carcassonne lacks: a move (hold) after which the opponent decides at
//! once, with no chance event between, and an evaluation set without Heyden.

use evomcts::games::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng};
use rand::Rng;

pub const TARGET: u8 = 6;
pub const FACES: u8 = 3;
pub const HOLD: u8 = 0;
pub const ROLL: u8 = 1;

/// Pig: roll to add the face to the turn total (a 1 loses it and passes the turn), or hold to
/// bank it and pass the turn. Reaching the target banks at once and ends the game.
#[derive(Clone, Debug, PartialEq)]
pub struct TinyPig {
    banked: [u8; 2],
    turn_total: u8,
    player: usize,
    rolling: bool,
    turns: usize,
}

#[derive(Debug)]
pub struct Illegal;

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("illegal in this state")
    }
}

impl std::error::Error for Illegal {}

impl TinyPig {
    /// A decision of `player` with the given banked scores and turn total.
    pub fn at(banked: [u8; 2], turn_total: u8, player: usize) -> Self {
        TinyPig {
            banked,
            turn_total,
            player,
            rolling: false,
            turns: 0,
        }
    }
}

impl Game for TinyPig {
    type Move = u8;
    type Error = Illegal;
    const OBJECTIVE: evomcts::games::Objective = evomcts::games::Objective::WinLoss;

    fn placeholder() -> Self {
        TinyPig::at([0, 0], 0, 0)
    }
    fn to_move(&self) -> usize {
        self.player
    }
    fn at_decision(&self) -> bool {
        !self.rolling && !self.is_over()
    }
    fn is_over(&self) -> bool {
        self.banked.iter().any(|&b| b >= TARGET)
    }
    fn turns_played(&self) -> usize {
        self.turns
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.at_decision() {
            if self.turn_total > 0 {
                out.push(HOLD);
            }
            out.push(ROLL);
        }
    }
    fn apply_move(&mut self, mv: u8) -> Result<(), Illegal> {
        if !self.at_decision() || (mv == HOLD && self.turn_total == 0) || mv > ROLL {
            return Err(Illegal);
        }
        self.turns += 1;
        if mv == ROLL {
            self.rolling = true;
        } else {
            self.banked[self.player] += self.turn_total;
            self.turn_total = 0;
            self.player = 1 - self.player;
        }
        Ok(())
    }
    fn random_move(&self, rng: &mut GameRng) -> Option<u8> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
    }
    fn decision_label(&self) -> u8 {
        0
    }
    fn chance_slots(&self, mut visit: impl FnMut(u8)) {
        (1..=FACES).for_each(&mut visit);
    }
    fn sample_chance(&mut self, rng: &mut GameRng) -> Option<usize> {
        let face = rng.gen_range(1..=FACES);
        self.apply_outcome(face).ok()?;
        Some(usize::from(face - 1))
    }
    fn chance_outcomes(&self, out: &mut Vec<ChanceOutcome>) {
        out.clear();
        out.extend((1..=FACES).map(|label| ChanceOutcome {
            label,
            weight: 1.0,
            then: AfterOutcome::Decision,
        }));
    }
    fn apply_outcome(&mut self, face: u8) -> Result<(), Illegal> {
        if !self.rolling || !(1..=FACES).contains(&face) {
            return Err(Illegal);
        }
        self.rolling = false;
        if face == 1 {
            self.turn_total = 0;
            self.player = 1 - self.player;
        } else {
            self.turn_total += face;
            if self.banked[self.player] + self.turn_total >= TARGET {
                self.banked[self.player] += self.turn_total;
                self.turn_total = 0;
            }
        }
        Ok(())
    }
    fn scores(&self) -> [i32; 2] {
        self.banked.map(i32::from)
    }
    fn evaluate(&self, player: usize, _evaluation: Evaluation) -> f64 {
        f64::from(self.banked[player]) - f64::from(self.banked[1 - player])
    }
    fn evaluation_bound(&self, _evaluation: Evaluation) -> f64 {
        // A banked score stays below the target plus the largest face.
        f64::from(TARGET + FACES)
    }
    fn action_key(player: u8, _label: u8, mv: u8) -> u32 {
        (player as u32) << 8 | u32::from(mv)
    }
}
