//! The external interface on a small dice game written against it.

use super::*;
use rand::SeedableRng;

/// The moves: the pot goes to the mover's score, or comes off the opponent's.
const KEEP: i64 = 7;
const SPITE: i64 = 42;
/// The die as chance actions: 1 and 2 fill the pot; the bonus adds 3 and rolls again
/// (once a turn: after it, the die shows 1 or 2 with the remaining probabilities).
const DIE: [(i64, f64); 3] = [(10, 0.5), (20, 0.3), (30, 0.2)];
const AFTER_BONUS: [(i64, f64); 2] = [(10, 0.625), (20, 0.375)];

/// Four turns, each a roll then a decision; returns are the scores times `scale`, so at
/// most 10 × `scale` (two pots of at most 5 kept, or spited by the opponent).
#[derive(Clone, Debug, Default)]
struct Dice {
    scores: [i32; 2],
    pot: i32,
    rolled: bool,
    bonus: bool,
    player: usize,
    decisions: usize,
    moves: usize,
    scale: f64,
    /// `(listed, promised)`: a die of `listed` equally likely faces worth 1, from a game
    /// that promises at most `promised` outcomes.
    wide: Option<(usize, usize)>,
}

fn dice(scale: f64) -> ExternalGame {
    let state = Dice {
        scale,
        ..Dice::default()
    };
    ExternalGame::new(Box::new(state), 10.0 * scale).unwrap()
}

fn wide(listed: usize, promised: usize) -> Result<ExternalGame, ExternalError> {
    let wide = Some((listed, promised));
    ExternalGame::new(
        Box::new(Dice {
            wide,
            ..Dice::default()
        }),
        10.0,
    )
}

impl ExternalState for Dice {
    fn clone_box(&self) -> Box<dyn ExternalState> {
        Box::new(self.clone())
    }
    fn current_player(&self) -> ExternalPlayer {
        match (self.decisions, self.rolled) {
            (4, _) => ExternalPlayer::Terminal,
            (_, false) => ExternalPlayer::Chance,
            _ => ExternalPlayer::Player(self.player),
        }
    }
    fn legal_actions(&self, out: &mut Vec<i64>) {
        if let ExternalPlayer::Player(_) = self.current_player() {
            out.extend([KEEP, SPITE]);
        }
    }
    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        let p = self.player;
        match (self.current_player(), action) {
            (ExternalPlayer::Chance, 10 | 20) => {
                (self.pot, self.rolled) = (self.pot + action as i32 / 10, true)
            }
            (ExternalPlayer::Chance, 30) if !self.bonus => (self.pot, self.bonus) = (3, true),
            (ExternalPlayer::Player(_), KEEP) => self.scores[p] += self.pot,
            (ExternalPlayer::Player(_), SPITE) => self.scores[1 - p] -= self.pot,
            _ => return Err(format!("{action} is not playable")),
        }
        if action == KEEP || action == SPITE {
            (self.pot, self.rolled, self.bonus) = (0, false, false);
            (self.player, self.decisions) = (1 - p, self.decisions + 1);
        }
        self.moves += 1;
        Ok(())
    }
    fn chance_outcomes(&self, out: &mut Vec<(i64, f64)>) {
        match (self.wide, self.bonus) {
            (Some((n, _)), _) => out.extend((0..n).map(|_| (10, 1.0 / n as f64))),
            (None, true) => out.extend_from_slice(&AFTER_BONUS),
            (None, false) => out.extend_from_slice(&DIE),
        }
    }
    fn returns(&self) -> [f64; 2] {
        self.scores.map(|s| f64::from(s) * self.scale)
    }
    fn move_number(&self) -> usize {
        self.moves
    }
    fn text(&self) -> String {
        let (scores, pot, player) = (self.scores, self.pot, self.player);
        format!("{scores:?}, pot {pot}, player {player}")
    }
    fn max_chance_outcomes(&self) -> usize {
        self.wide.map_or(3, |(_, promised)| promised)
    }
    fn game_name(&self) -> String {
        "dice".into()
    }
}

fn moves(game: &ExternalGame) -> Vec<i64> {
    let mut out = vec![ExternalMove(-1)];
    game.legal_moves(&mut out);
    out.iter().map(|mv| mv.0).collect()
}

fn slots(game: &ExternalGame) -> Vec<u8> {
    let mut out = Vec::new();
    game.chance_slots(|label| out.push(label));
    out
}

fn kind<T: Debug>(result: Result<T, ExternalError>) -> ExternalErrorKind {
    result.unwrap_err().kind
}

#[test]
fn legal_moves_are_the_actions_in_the_states_order() {
    let mut game = dice(1.0);
    assert!(!game.at_decision() && !game.is_over() && moves(&game).is_empty());
    assert_eq!(game.random_move(&mut GameRng::seed_from_u64(0)), None);
    assert_eq!(
        kind(game.apply_move(ExternalMove(KEEP))),
        Kind::ChancePending
    );
    game.apply_outcome(1).unwrap();
    assert!(game.at_decision() && game.to_move() == 0);
    assert_eq!(moves(&game), [KEEP, SPITE]);
    let mut rng = GameRng::seed_from_u64(1);
    let drawn: Vec<_> = (0..50)
        .map(|_| game.random_move(&mut rng).unwrap().0)
        .collect();
    assert!(drawn.contains(&KEEP) && drawn.contains(&SPITE));
    game.apply_move(ExternalMove(SPITE)).unwrap();
    // A chance event again: the player who took the last decision is to move; the state's
    // move number counts the chance outcome too.
    let (turns, mover, scores) = (game.turns_played(), game.to_move(), game.scores());
    assert_eq!((turns, mover, scores), (1, 0, [0, -2]));
    assert_eq!(game.state().unwrap().move_number(), 2);
}

#[test]
fn chance_outcomes_are_labelled_by_index_with_their_probabilities() {
    use AfterOutcome::{ChanceAgain, Decision};
    let mut game = dice(1.0);
    let listed = |game: &ExternalGame| -> Vec<(u8, f64, AfterOutcome)> {
        let mut outcomes = Vec::new();
        game.chance_outcomes(&mut outcomes);
        outcomes
            .iter()
            .map(|o| (o.label, o.weight, o.then))
            .collect()
    };
    let die = [
        (0, 0.5, Decision),
        (1, 0.3, Decision),
        (2, 0.2, ChanceAgain),
    ];
    assert_eq!((listed(&game), slots(&game)), (die.to_vec(), vec![0, 1, 2]));
    game.apply_outcome(2).unwrap();
    let after_bonus = vec![(0, 0.625, Decision), (1, 0.375, Decision)];
    assert_eq!((listed(&game), slots(&game)), (after_bonus, vec![0, 1]));
    game.apply_outcome(1).unwrap();
    assert_eq!(game.text().unwrap(), "[0, 0], pot 5, player 0");
    assert!(listed(&game).is_empty() && slots(&game).is_empty());
}

/// 10,000 draws: a frequency's standard deviation is at most √(0.25 / 10⁴) = 0.005, so
/// 0.02 is four of them (the seed is fixed: the test cannot flicker).
#[test]
fn sample_chance_draws_outcomes_by_their_probabilities() {
    let start = dice(1.0);
    let mut rng = GameRng::seed_from_u64(7);
    let (mut counts, mut probe, mut by_label) = ([0; 3], start.clone(), start.clone());
    for _ in 0..10_000 {
        probe.clone_from(&start);
        let slot = probe.sample_chance(&mut rng).unwrap();
        counts[slot] += 1;
        by_label.clone_from(&start);
        by_label.apply_outcome(slot as u8).unwrap();
        assert_eq!(probe.text(), by_label.text());
    }
    for (&(_, p), &n) in DIE.iter().zip(&counts) {
        assert!((f64::from(n) / 1e4 - p).abs() < 0.02, "{counts:?}");
    }
    probe.clone_from(&start);
    probe.apply_outcome(0).unwrap();
    assert_eq!(probe.sample_chance(&mut rng), None);
}

#[test]
fn a_clone_is_independent_and_clone_from_copies_everything() {
    let mut game = dice(1.0);
    game.apply_outcome(0).unwrap();
    let mut copy = game.clone();
    copy.apply_move(ExternalMove(KEEP)).unwrap();
    let seen = |g: &ExternalGame| (g.turns_played(), g.scores(), g.at_decision());
    assert_eq!(
        (seen(&game), seen(&copy)),
        ((0, [0, 0], true), (1, [1, 0], false))
    );
    let mut buffer = ExternalGame::placeholder();
    buffer.clone_from(&copy);
    assert_eq!((buffer.text(), seen(&buffer)), (copy.text(), seen(&copy)));
    buffer.apply_outcome(0).unwrap();
    assert!(buffer.at_decision() && !copy.at_decision());
    // The placeholder: a finished game without a state, refusing everything.
    buffer.clone_from(&ExternalGame::placeholder().clone());
    assert!(buffer.state().is_none() && buffer.is_over() && buffer.text().is_none());
    assert_eq!(
        kind(buffer.apply_move(ExternalMove(KEEP))),
        Kind::Placeholder
    );
    assert_eq!(
        (seen(&buffer), moves(&buffer)),
        ((0, [0, 0], false), vec![])
    );
}

#[test]
fn scores_are_the_rounded_returns_and_the_evaluation_the_exact_ones() {
    let mut game = dice(0.75);
    // Player 0 keeps 2, player 1 keeps 1, player 0 spites 2, player 1 keeps 1.
    for (label, mv) in [(1, KEEP), (0, KEEP), (1, SPITE), (0, KEEP)] {
        game.apply_outcome(label).unwrap();
        game.apply_move(ExternalMove(mv)).unwrap();
    }
    assert!(game.is_over() && !game.at_decision() && game.to_move() == 1);
    assert_eq!(
        (game.state().unwrap().returns(), game.scores()),
        ([1.5, 0.0], [2, 0])
    );
    let value = |player| game.evaluate(player, Evaluation::ScoreDifference);
    assert_eq!((value(0), value(1)), (1.5, -1.5));
    let bound = game.evaluation_bound(Evaluation::ScoreDifference);
    assert_eq!((game.max_score(), bound), (8.0, 15.0));
    assert_eq!(
        (game.turns_played(), game.state().unwrap().move_number()),
        (4, 8)
    );
    assert_eq!(kind(game.apply_move(ExternalMove(KEEP))), Kind::GameOver);
    assert_eq!(kind(game.apply_outcome(0)), Kind::GameOver);
    assert_eq!(game.sample_chance(&mut GameRng::seed_from_u64(0)), None);
    let mut rolled_out = dice(1.0);
    rolled_out.play_out_randomly(&mut GameRng::seed_from_u64(3));
    assert!(rolled_out.is_over() && rolled_out.turns_played() == 4);
}

#[test]
fn a_wrong_label_or_move_is_an_error_and_changes_nothing() {
    let mut game = dice(1.0);
    let refused = game.apply_outcome(3).unwrap_err();
    let message = "dice: no chance outcome 3 (this event has 3, labelled from 0)";
    assert_eq!(refused.to_string(), message);
    let none = |label, count| Kind::NoSuchOutcome { label, count };
    assert_eq!(kind(game.apply_outcome(255)), none(255, 3));
    game.apply_outcome(2).unwrap();
    assert_eq!(kind(game.apply_outcome(2)), none(2, 2));
    game.apply_outcome(0).unwrap();
    let before = game.text();
    assert_eq!(kind(game.apply_outcome(0)), Kind::NoChancePending);
    let refused = game.apply_move(ExternalMove(8)).unwrap_err();
    assert_eq!(refused.to_string(), "dice: action 8 is not legal here");
    let seen = (game.text(), game.turns_played(), game.at_decision());
    assert_eq!(seen, (before, 0, true));
}

#[test]
fn a_game_with_more_outcomes_than_labels_is_refused() {
    let refused = wide(300, 300).unwrap_err();
    assert_eq!(refused.kind, Kind::TooManyChanceOutcomes(300));
    assert!(refused
        .to_string()
        .starts_with("dice: up to 300 chance outcomes"));
    // 256 outcomes: labels 0 to 255, every one applies.
    let mut full = wide(256, 256).unwrap();
    assert_eq!(slots(&full), (0..=255).collect::<Vec<u8>>());
    full.apply_outcome(255).unwrap();
    assert!(full.at_decision());
    // A state breaking its promise: applying refuses, sampling panics, nothing is cut
    // silently.
    let mut liar = wide(300, 3).unwrap();
    let (count, promised) = (300, 3);
    let beyond = Kind::OutcomesBeyondLabels { count, promised };
    assert_eq!(kind(liar.apply_outcome(0)), beyond);
    let sampled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        liar.sample_chance(&mut GameRng::seed_from_u64(0))
    }));
    let message = *sampled.unwrap_err().downcast::<String>().unwrap();
    assert!(
        message.contains("300 outcomes, more than the 256"),
        "{message}"
    );
}

#[test]
fn a_bound_or_a_start_that_breaks_the_contract_is_refused() {
    for bound in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let refused = kind(ExternalGame::new(Box::new(Dice::default()), bound));
        assert!(matches!(refused, Kind::InvalidBound(_)), "{refused:?}");
    }
    let scores = [11, 0];
    let refused = ExternalGame::new(
        Box::new(Dice {
            scores,
            scale: 1.0,
            ..Dice::default()
        }),
        10.0,
    );
    let message = "dice: returns [11.0, 0.0] exceed the bound 10 given for the game";
    assert_eq!(refused.unwrap_err().to_string(), message);
    let (rolled, player) = (true, 2);
    let third = Box::new(Dice {
        rolled,
        player,
        ..Dice::default()
    });
    assert_eq!(kind(ExternalGame::new(third, 10.0)), Kind::NotTwoPlayers(2));
}

#[test]
fn moves_are_plain_numbers_and_keys_distinct_per_player_and_action() {
    assert_eq!(serde_json::to_string(&ExternalMove(42)).unwrap(), "42");
    let read: ExternalMove = serde_json::from_str("-3").unwrap();
    assert_eq!(read, ExternalMove(-3));
    assert_eq!(ExternalGame::action_key(1, 0, ExternalMove(7)), 15);
    let actions = [0, 1, 7, 42, 1 << 20, (1 << 31) - 1];
    let key = |p, a| ExternalGame::action_key(p, 0, ExternalMove(a));
    let mut keys: Vec<u32> = (0..2).flat_map(|p| actions.map(|a| key(p, a))).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), 2 * actions.len());
}

/// [`Dice`] that rolls out by itself, counting the calls.
#[derive(Clone, Debug)]
struct SelfRolling(Dice, Arc<std::sync::atomic::AtomicUsize>);

impl ExternalState for SelfRolling {
    fn clone_box(&self) -> Box<dyn ExternalState> {
        Box::new(self.clone())
    }
    fn current_player(&self) -> ExternalPlayer {
        self.0.current_player()
    }
    fn legal_actions(&self, out: &mut Vec<i64>) {
        self.0.legal_actions(out)
    }
    fn apply_action(&mut self, action: i64) -> Result<(), String> {
        self.0.apply_action(action)
    }
    fn chance_outcomes(&self, out: &mut Vec<(i64, f64)>) {
        self.0.chance_outcomes(out)
    }
    fn returns(&self) -> [f64; 2] {
        self.0.returns()
    }
    fn move_number(&self) -> usize {
        self.0.move_number()
    }
    fn text(&self) -> String {
        self.0.text()
    }
    fn max_chance_outcomes(&self) -> usize {
        self.0.max_chance_outcomes()
    }
    fn game_name(&self) -> String {
        "self-rolling dice".into()
    }
    fn plays_out_randomly(&self) -> bool {
        true
    }
    fn play_out_randomly(&mut self, seed: u64) {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut game = ExternalGame::new(Box::new(self.0.clone()), 10.0).unwrap();
        game.play_out_randomly_observed(&mut GameRng::seed_from_u64(seed), |_, _| {});
        let state = game.state.as_deref().unwrap();
        self.0.scores = state.returns().map(|r| r as i32);
        self.0.decisions = 4;
    }
}

#[test]
fn a_state_that_rolls_out_by_itself_is_called_once_per_rollout_and_seeded_by_the_rng() {
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let start = SelfRolling(
        Dice {
            scale: 1.0,
            ..Dice::default()
        },
        calls.clone(),
    );
    let game = ExternalGame::new(Box::new(start), 10.0).unwrap();
    let ends: Vec<[i32; 2]> = (0..2)
        .map(|_| {
            let mut g = game.clone();
            g.play_out_randomly(&mut GameRng::seed_from_u64(5));
            assert!(g.is_over());
            g.scores()
        })
        .collect();
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 2);
    assert_eq!(ends[0], ends[1], "the same generator, the same rollout");
    let differs = (0..20).any(|seed| {
        let mut g = game.clone();
        g.play_out_randomly(&mut GameRng::seed_from_u64(seed));
        g.scores() != ends[0]
    });
    assert!(differs, "the rollout follows the generator");
    // The observed rollout (RAVE's) still calls the state step by step.
    let before = calls.load(std::sync::atomic::Ordering::Relaxed);
    let mut g = game.clone();
    g.play_out_randomly_observed(&mut GameRng::seed_from_u64(1), |_, _| {});
    assert!(g.is_over());
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), before);
}

#[test]
fn a_legal_move_applied_without_the_check_gives_the_same_state_and_the_same_refusals() {
    let mut rng = GameRng::seed_from_u64(3);
    let mut checked = dice(1.0);
    let mut unchecked = dice(1.0);
    // A chance event first: both refuse a move there, and the placeholder refuses one too.
    assert_eq!(
        checked.apply_move(ExternalMove(KEEP)).unwrap_err().kind,
        ExternalErrorKind::ChancePending
    );
    assert_eq!(
        unchecked
            .apply_legal_move(ExternalMove(KEEP))
            .unwrap_err()
            .kind,
        ExternalErrorKind::ChancePending
    );
    assert!(ExternalGame::placeholder()
        .apply_legal_move(ExternalMove(KEEP))
        .is_err());
    while !checked.is_over() {
        if checked.at_decision() {
            let mv = checked.random_move(&mut rng).unwrap();
            checked.apply_move(mv).unwrap();
            unchecked.apply_legal_move(mv).unwrap();
        } else {
            let label = checked.sample_chance(&mut rng).unwrap() as u8;
            unchecked.apply_outcome(label).unwrap();
        }
        assert_eq!(checked.text(), unchecked.text());
        assert_eq!(
            (checked.to_move(), checked.turns_played(), checked.is_over()),
            (
                unchecked.to_move(),
                unchecked.turns_played(),
                unchecked.is_over()
            )
        );
    }
    assert_eq!(checked.scores(), unchecked.scores());
}
