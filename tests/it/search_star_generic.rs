//! Star on a game other than Carcassonne: a tiny Pig (a three-sided die, target 6) written
//! here against `games::Game` alone. It has what Carcassonne lacks: a move (hold) after which
//! the opponent decides at once, with no chance event between, and an evaluation set without
//! Heyden. With true bounds every Star variant must equal expectimax, and a small tree is
//! checked by hand.

use evomcts::games::{AfterOutcome, ChanceOutcome, Controller, Evaluation, Game, GameRng};
use evomcts::search::star::{expectimax, search, StarController, StarError, StarSettings};
use rand::Rng;

const TARGET: u8 = 6;
const FACES: u8 = 3;
const HOLD: u8 = 0;
const ROLL: u8 = 1;

/// Pig: roll to add the face to the turn total (a 1 loses it and passes the turn), or hold to
/// bank it and pass the turn. Reaching the target banks at once and ends the game.
#[derive(Clone, Debug, PartialEq)]
struct TinyPig {
    banked: [u8; 2],
    turn_total: u8,
    player: usize,
    rolling: bool,
    turns: usize,
}

#[derive(Debug)]
struct Illegal;

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("illegal in this state")
    }
}

impl std::error::Error for Illegal {}

impl TinyPig {
    fn at(banked: [u8; 2], turn_total: u8, player: usize) -> Self {
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

fn star(depth: u32, probing: u32, state: &TinyPig) -> StarSettings {
    StarSettings {
        depth,
        probing,
        ..StarSettings::star1()
    }
    .with_true_bounds(state)
}

#[test]
fn a_small_tree_by_hand() {
    // Ply 1: the only move is to roll. Face 1 passes the turn: the opponent rolls (ply 2), 0.
    // Faces 2 and 3: hold (ply 2) banks them. (0 + 2 + 3) / 3.
    let start = TinyPig::placeholder();
    let found = search(&start, &star(2, 0, &start)).unwrap();
    assert_eq!((found.best, found.value), (ROLL, 5.0 / 3.0));
    // With 5 in hand, holding banks 5 and the opponent decides at once (ply 2): it can only
    // roll, which banks nothing: 5. Rolling: face 1 passes the turn (the opponent rolls: 0);
    // faces 2 and 3 reach the target and end the game (7 and 8): 15 / 3 = 5 too, and the tie
    // goes to the first move in order, hold.
    let five = TinyPig::at([0, 0], 5, 0);
    for probing in [0, 1, 4] {
        let found = search(&five, &star(2, probing, &five)).unwrap();
        assert_eq!((found.best, found.value), (HOLD, 5.0), "f = {probing}");
    }
    let plain = expectimax(&five, 2, Evaluation::ScoreDifference).unwrap();
    assert_eq!((plain.best, plain.value), (HOLD, 5.0));
}

#[test]
fn every_variant_equals_expectimax() {
    let mut positions = Vec::new();
    for a in 0..TARGET {
        for b in 0..TARGET {
            for turn_total in [0, 2, 3, 5] {
                if a + turn_total < TARGET {
                    positions.push(TinyPig::at([a, b], turn_total, usize::from(a > b)));
                }
            }
        }
    }
    let mut holds = 0;
    for depth in 1..=5 {
        for state in &positions {
            let plain = expectimax(state, depth, Evaluation::ScoreDifference).unwrap();
            holds += usize::from(plain.best == HOLD);
            for probing in [0, 1, 4] {
                let found = search(state, &star(depth, probing, state)).unwrap();
                assert_eq!(
                    (found.best, found.value),
                    (plain.best, plain.value),
                    "{state:?}, depth {depth}, f = {probing}"
                );
                assert!(found.nodes <= plain.nodes, "{state:?}, depth {depth}");
            }
        }
    }
    assert!(holds > 0, "no position where holding is best");
}

#[test]
fn the_game_must_offer_the_evaluation() {
    let heyden = StarSettings {
        evaluation: Evaluation::Heyden,
        ..StarSettings::star1()
    };
    // Game-independent checks pass; the game does not offer Heyden's evaluation.
    assert!(heyden.validate().is_ok());
    match StarController::<TinyPig>::new(&heyden, 0) {
        Err(StarError::Setting { field, why }) => {
            assert_eq!(field, "evaluation");
            assert!(why.contains("Heyden"), "{why}");
        }
        Err(other) => panic!("expected a setting error, got {other}"),
        Ok(_) => panic!("Heyden accepted for a game that does not offer it"),
    }
    assert!(expectimax(&TinyPig::placeholder(), 2, Evaluation::Heyden).is_err());
    let mut rolling = TinyPig::placeholder();
    rolling.apply_move(ROLL).unwrap();
    assert_eq!(
        search(&rolling, &StarSettings::star1()),
        Err(StarError::NotAtDecision)
    );
}

#[test]
fn the_controller_plays_a_game_to_the_end() {
    let mut controller = StarController::<TinyPig>::new(&StarSettings::star25(), 0).unwrap();
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(7);
    let mut state = TinyPig::placeholder();
    while !state.is_over() {
        if state.at_decision() {
            let mv = controller.choose_move(&state);
            state.apply_move(mv).unwrap();
        } else {
            state.sample_chance(&mut rng).unwrap();
        }
    }
    assert!(controller.last_search().is_some());
}
