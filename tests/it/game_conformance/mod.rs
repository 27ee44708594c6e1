//! A conformance suite for `games::Game`, in the spirit of OpenSpiel's random simulation test:
//! one call, [`check_game`], plays random games of any game through the trait alone and asserts
//! what the searches, the arena and the records take for granted without checking. A new game
//! gets the whole suite by one test that names how its games start.
//!
//! Everything is drawn from `GameRng`s seeded from the caller's seed, so a failure names the
//! game's seed (`new_game(seed)` starts it again) and the step, and reproduces exactly.

use evomcts::games::carcassonne::evaluation::HEYDEN;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::support::tiny_pig::TinyPig;
use evomcts::games::carcassonne::{GameState, Rules, Unplaceable};
use evomcts::games::connect_four::ConnectFourState;
use evomcts::games::pig::{PigError, PigMove, PigRules, PigState};
use evomcts::games::{
    AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng, MoveAssessment, MOVE_FEATURE_COUNT,
};
use evomcts::search::mcts::{MctsController, MctsSettings};
use rand::{Rng, SeedableRng};

/// Every evaluation the trait knows; a game is checked on those it offers.
const EVALUATIONS: [Evaluation; 2] = [Evaluation::ScoreDifference, HEYDEN];

/// Decisions plus chance events after which a random game counts as hung.
const MAX_STEPS: usize = 100_000;

/// Draws of a chance event when its frequencies are compared with its listed probabilities.
const SAMPLES: usize = 400;

/// The frequencies are compared at the first chance event of a game and every this many after.
const FREQUENCY_EVERY: usize = 8;

/// The first games of a call whose positions are searched (two per game).
const SEARCHED_GAMES: usize = 3;

/// Simulations of each search of a position: enough to grow a tree with chance nodes below the
/// root, little enough to keep the suite fast.
const SEARCH_SIMULATIONS: u32 = 50;

/// Scale (points per unit of the reward) the move features are asked in: not 1, so that a
/// game that ignores it shows.
const FEATURE_SCALE: f64 = 2.0;

/// Plays `games` random games of `G`, game `i` started by `new_game(seed_i)` with `seed_i`
/// drawn from `seed`, and asserts at every step that the game keeps the trait's promises:
///
/// 1. **It ends.** Random play (the game's random player at decisions; at chance events, a
///    sampled outcome or one picked by its listed weight) reaches `is_over` within
///    [`MAX_STEPS`], so rollouts and played games cannot hang. At every decision the legal
///    moves are non-empty and distinct, the random player's move is one of them, their
///    action keys are distinct (RAVE would merge two moves with one key), `order_moves` is a
///    permutation of them (an exact search must not lose or invent a move), and
///    `assess_moves` leaves the state as it was and reports each move's gain as the score
///    difference the move makes (the knowledge terminal `H` reads it).
/// 2. **Chance is a distribution the exact searches can trust.** At every chance event the
///    listed outcomes are non-empty with distinct labels and finite positive weights, each
///    applies to a copy and leads where its `then` says; the weights are proportional to the
///    probabilities (the trait's `ChanceOutcome::weight`), so "they sum to one" means the
///    listed outcomes carry all the probability the game samples: `sample_chance` never draws
///    an unlisted outcome, and its frequencies match the normalised weights (checked at some
///    events with [`SAMPLES`] draws). A sampled outcome is the listed outcome of its slot:
///    applying that label gives the same state, so a game recorded by labels replays.
/// 3. **A clone is independent.** A move or outcome applied to a clone leaves the original as
///    it was, and one applied to the original leaves the clone; `clone_from` into a buffer
///    that held another state gives the same state (the searches recycle their states).
///    States are compared by everything the trait lets a caller see: player to move, kind of
///    point, turns, label, scores, legal moves, chance slots and outcomes, evaluations.
/// 4. **A game replays.** The recorded moves and chance labels, replayed on a fresh
///    `new_game(seed_i)`, pass through the same observed states and end with the same scores:
///    what records and the league's replays rely on.
/// 5. **The end is an end.** At `is_over` no move is legal, nothing is left to sample, and the
///    final `scores` are the rollout's (`play_out_randomly` changes nothing) and the score
///    difference's, within the game's range and a result its `check_result` accepts (what
///    files reporting results are checked by); at every state each offered evaluation lies within its bound (a bound of
///    the game, the same in every state), and player 0's value is the negation of player 1's
///    (the search is zero-sum).
/// 6. **The search runs on it.** On two positions of each of the first [`SEARCHED_GAMES`]
///    games (one of them the last decision, so that simulations reach the end), a small
///    `MctsController` returns a legal move, its root's children are the legal moves, its tree
///    passes `check_tree` (node kinds, visit counts and rewards agree with the game replayed
///    along every edge), and a second controller with the same seed grows the same tree and
///    returns the same move; rollouts from there end at a terminal state, see only legal
///    moves, and are reproducible from their seed with or without an observer.
pub(crate) fn check_game<G: Game>(new_game: impl Fn(u64) -> G, games: usize, seed: u64) {
    assert!(
        G::offers(Evaluation::ScoreDifference),
        "every game offers the score difference (the searches' default evaluation)"
    );
    let mut seeds = GameRng::seed_from_u64(seed);
    for game in 0..games {
        let game_seed: u64 = seeds.gen();
        let context = format!("game {game} (seed {game_seed})");
        let mut rng = GameRng::seed_from_u64(game_seed ^ 0x5EED_C0DE);
        let played = play(&new_game, game_seed, &mut rng, &context);
        let searched = if game < SEARCHED_GAMES {
            positions_to_search(&played, &mut rng)
        } else {
            Vec::new()
        };
        replay(&new_game, game_seed, &played, &searched, &context);
    }
}

/// The steps before which a game is searched: a decision drawn at random and the game's last
/// decision, whose simulations reach the end (terminal nodes in the tree). Decisions with a
/// choice where there are any: a forced move is not searched.
fn positions_to_search<G: Game>(played: &Played<G>, rng: &mut GameRng) -> Vec<usize> {
    let decisions = |least: usize| -> Vec<usize> {
        (0..played.steps.len())
            .filter(|&i| played.seen[i].legal_moves.len() >= least)
            .collect()
    };
    let mut candidates = decisions(2);
    if candidates.is_empty() {
        candidates = decisions(1);
    }
    let mut chosen = Vec::new();
    if let Some(&last) = candidates.last() {
        chosen.push(candidates[rng.gen_range(0..candidates.len())]);
        if !chosen.contains(&last) {
            chosen.push(last);
        }
    }
    chosen
}

/// One step of a game's history, as records keep it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step<M> {
    Move(M),
    /// A chance event resolved with the outcome of this label.
    Outcome(u8),
    /// A chance event that ended the game without an outcome (`sample_chance` gave `None`).
    NoOutcome,
}

/// A played game: its steps and the state observed before each, and at the end.
struct Played<G: Game> {
    steps: Vec<Step<G::Move>>,
    seen: Vec<Observation<G::Move>>,
}

/// Everything the trait lets a caller see of a state: two states that agree on it are the
/// same to every search.
#[derive(Clone, Debug, PartialEq)]
struct Observation<M> {
    to_move: usize,
    at_decision: bool,
    is_over: bool,
    is_terminal: bool,
    turns_played: usize,
    decision_label: u8,
    scores: [i32; 2],
    legal_moves: Vec<M>,
    /// Slots and outcomes of a chance event; empty elsewhere.
    chance_slots: Vec<u8>,
    chance_outcomes: Vec<ChanceOutcome>,
    /// Per offered evaluation: its bound and the values for players 0 and 1.
    evaluations: Vec<(Evaluation, f64, [f64; 2])>,
}

fn observe<G: Game>(state: &G) -> Observation<G::Move> {
    let mut legal_moves = Vec::new();
    state.legal_moves(&mut legal_moves);
    let (mut chance_slots, mut chance_outcomes) = (Vec::new(), Vec::new());
    if !state.at_decision() && !state.is_over() {
        state.chance_slots(|label| chance_slots.push(label));
        state.chance_outcomes(&mut chance_outcomes);
    }
    let evaluations = EVALUATIONS
        .into_iter()
        .filter(|&e| G::offers(e))
        .map(|e| {
            let bound = state.evaluation_bound(e);
            (e, bound, [state.evaluate(0, e), state.evaluate(1, e)])
        })
        .collect();
    Observation {
        to_move: state.to_move(),
        at_decision: state.at_decision(),
        is_over: state.is_over(),
        is_terminal: state.is_terminal(),
        turns_played: state.turns_played(),
        decision_label: state.decision_label(),
        scores: state.scores(),
        legal_moves,
        chance_slots,
        chance_outcomes,
        evaluations,
    }
}

/// What holds of every state, whatever kind of point it is at: the kinds of point exclude each
/// other, moves exist exactly at decisions, and every evaluation is a bounded difference.
fn check_state<G: Game>(state: &G, seen: &Observation<G::Move>, bounds: &[f64], at: &str) {
    assert!(seen.to_move < 2, "{at}: player to move {}", seen.to_move);
    if seen.at_decision {
        assert!(
            !seen.is_over && !seen.is_terminal,
            "{at}: a decision at a state that is over or terminal"
        );
        assert!(
            !seen.legal_moves.is_empty(),
            "{at}: a decision without legal moves"
        );
    } else {
        assert!(
            seen.legal_moves.is_empty(),
            "{at}: legal moves away from a decision"
        );
        assert!(
            state.random_move(&mut GameRng::seed_from_u64(0)).is_none(),
            "{at}: the random player moves away from a decision"
        );
    }
    if seen.is_over {
        assert!(seen.is_terminal, "{at}: over but not terminal");
    }
    for (&(evaluation, bound, [v0, v1]), &first_bound) in seen.evaluations.iter().zip(bounds) {
        assert!(
            bound == first_bound,
            "{at}: the bound of {evaluation:?} moved from {first_bound} to {bound}; it is a bound of the game, not of the position"
        );
        for (player, v) in [(0, v0), (1, v1)] {
            assert!(
                v.is_finite() && v.abs() <= bound,
                "{at}: {evaluation:?} for player {player} is {v}, outside [-{bound}, {bound}]"
            );
        }
        assert!(
            (v0 + v1).abs() <= 1e-9 * v0.abs().max(1.0),
            "{at}: {evaluation:?} is {v0} for player 0 and {v1} for player 1: not zero-sum"
        );
    }
}

/// What a step does, chosen before it is applied so that a clone can take the same step.
#[derive(Clone, Copy, Debug)]
enum Action<M> {
    Move(M),
    Outcome(u8),
    Sample,
}

/// Applies `action`; a sample draws from `rng`. Returns the step as the history records it.
fn take<G: Game>(
    state: &mut G,
    action: Action<G::Move>,
    rng: &mut GameRng,
    at: &str,
) -> Step<G::Move> {
    match action {
        Action::Move(mv) => {
            if let Err(e) = state.apply_move(mv) {
                panic!("{at}: the legal move {mv:?} is refused: {e}");
            }
            Step::Move(mv)
        }
        Action::Outcome(label) => {
            if let Err(e) = state.apply_outcome(label) {
                panic!("{at}: the listed outcome {label} is refused: {e}");
            }
            Step::Outcome(label)
        }
        Action::Sample => {
            let mut slots = Vec::new();
            state.chance_slots(|label| slots.push(label));
            match state.sample_chance(rng) {
                Some(slot) => {
                    assert!(
                        slot < slots.len(),
                        "{at}: sampled slot {slot} of {} slots",
                        slots.len()
                    );
                    Step::Outcome(slots[slot])
                }
                None => Step::NoOutcome,
            }
        }
    }
}

/// Plays one random game from `new_game(game_seed)`, checking every step (checks 1, 2, 3, 5).
fn play<G: Game>(
    new_game: &impl Fn(u64) -> G,
    game_seed: u64,
    rng: &mut GameRng,
    context: &str,
) -> Played<G> {
    let mut state = new_game(game_seed);
    // A buffer that held another state, as the searches' pooled states do.
    let mut buffer = G::placeholder();
    let mut played = Played {
        steps: Vec::new(),
        seen: Vec::new(),
    };
    let mut seen = observe(&state);
    let bounds: Vec<f64> = seen.evaluations.iter().map(|&(_, b, _)| b).collect();
    let mut chance_events = 0;
    let mut decisions = 0;
    while !seen.is_over {
        let step = played.steps.len();
        let at = format!("{context}, step {step}");
        assert!(
            step < MAX_STEPS,
            "{at}: random play has not ended after {MAX_STEPS} steps ({seen:?})"
        );
        check_state(&state, &seen, &bounds, &at);
        buffer.clone_from(&state);
        assert_eq!(
            observe(&buffer),
            seen,
            "{at}: clone_from differs from its source"
        );
        let mut twin = state.clone();
        assert_eq!(
            observe(&twin),
            seen,
            "{at}: a clone differs from its source"
        );

        let action = if seen.at_decision {
            decisions += 1;
            check_decision(&mut state, &seen, decisions, &at);
            assert_eq!(
                observe(&state),
                seen,
                "{at}: assess_moves changed the state"
            );
            let mv = state
                .random_move(rng)
                .unwrap_or_else(|| panic!("{at}: the random player has no move at a decision"));
            assert!(
                seen.legal_moves.contains(&mv),
                "{at}: the random player's move {mv:?} is not legal"
            );
            Action::Move(mv)
        } else {
            check_chance(&state, &seen, chance_events, rng, &at);
            chance_events += 1;
            // Picking a listed outcome could repeat forever at a terminal event (every
            // outcome a repeat); only sampling ends it.
            if seen.is_terminal || rng.gen_bool(0.5) {
                Action::Sample
            } else {
                Action::Outcome(pick(&seen.chance_outcomes, rng))
            }
        };

        let twin_step = take(&mut twin, action, &mut rng.clone(), &at);
        assert_eq!(
            observe(&state),
            seen,
            "{at}: {action:?} on a clone changed the original"
        );
        let taken = take(&mut state, action, rng, &at);
        let now = observe(&state);
        assert_eq!(
            observe(&twin),
            now,
            "{at}: {action:?} on a clone and on the original end in different states"
        );
        assert_eq!(
            twin_step, taken,
            "{at}: the same draw on a clone gave another outcome"
        );
        assert_eq!(
            observe(&buffer),
            seen,
            "{at}: {action:?} on the original changed a clone"
        );
        match taken {
            Step::Move(_) => assert_eq!(
                now.turns_played,
                seen.turns_played + 1,
                "{at}: a move counts one decision"
            ),
            _ => assert_eq!(
                now.turns_played, seen.turns_played,
                "{at}: a chance event counts no decision"
            ),
        }
        match taken {
            Step::Outcome(label) if matches!(action, Action::Sample) => {
                // The sampled outcome is the listed one of its slot: replaying the label on
                // the state before gives the state after.
                let mut by_label = buffer.clone();
                by_label
                    .apply_outcome(label)
                    .unwrap_or_else(|e| panic!("{at}: sampled outcome {label} is refused: {e}"));
                assert_eq!(
                    observe(&by_label),
                    now,
                    "{at}: sampling drew outcome {label}, but applying it gives another state"
                );
            }
            Step::NoOutcome => assert!(
                seen.is_terminal && now.is_over,
                "{at}: a chance event without an outcome at a state that was not terminal or is not over"
            ),
            _ => {}
        }
        if seen.is_terminal {
            assert!(!now.at_decision, "{at}: a decision after a terminal state");
        }
        played.steps.push(taken);
        played.seen.push(seen);
        seen = now;
    }
    let at = format!("{context}, at the end");
    check_state(&state, &seen, &bounds, &at);
    check_end(&state, &seen, &at);
    played.seen.push(seen);
    played
}

/// A listed outcome drawn by its weight.
fn pick(outcomes: &[ChanceOutcome], rng: &mut GameRng) -> u8 {
    let total: f64 = outcomes.iter().map(|o| o.weight).sum();
    let mut x = rng.gen_range(0.0..total);
    for o in outcomes {
        if x < o.weight {
            return o.label;
        }
        x -= o.weight;
    }
    outcomes.last().expect("checked non-empty").label
}

/// Check 1 at a decision: the moves, their keys and order, and what the game knows of them.
fn check_decision<G: Game>(state: &mut G, seen: &Observation<G::Move>, decision: usize, at: &str) {
    let moves = &seen.legal_moves;
    let player = seen.to_move as u8;
    let label = seen.decision_label;
    let mut keys: Vec<(u32, usize)> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| (G::action_key(player, label, mv), i))
        .collect();
    keys.sort_unstable();
    for pair in keys.windows(2) {
        let (a, b) = (moves[pair[0].1], moves[pair[1].1]);
        assert!(a != b, "{at}: the legal move {a:?} is listed twice");
        assert!(
            pair[0].0 != pair[1].0,
            "{at}: the legal moves {a:?} and {b:?} share the action key {}",
            pair[0].0
        );
    }

    let mut ordered = Vec::new();
    state.order_moves(moves, &mut ordered);
    let mut ordered_keys: Vec<u32> = ordered
        .iter()
        .map(|&mv| G::action_key(player, label, mv))
        .collect();
    ordered_keys.sort_unstable();
    let keys: Vec<u32> = keys.iter().map(|&(k, _)| k).collect();
    assert!(
        ordered.iter().all(|mv| moves.contains(mv)) && ordered_keys == keys,
        "{at}: order_moves is not a permutation of the legal moves"
    );

    // Features on every other decision of a game that gives them, so both answers are seen.
    let features = G::OFFERS_MOVE_FEATURES && decision.is_multiple_of(2);
    let mut scratch = G::placeholder();
    let mut assessed: Vec<MoveAssessment> = Vec::new();
    state.assess_moves(moves, FEATURE_SCALE, features, &mut scratch, &mut assessed);
    assert_eq!(
        assessed.len(),
        moves.len(),
        "{at}: assess_moves gave {} assessments for {} moves",
        assessed.len(),
        moves.len()
    );
    let mover = seen.to_move;
    let before = state.evaluate(mover, Evaluation::ScoreDifference);
    for (&mv, a) in moves.iter().zip(&assessed) {
        let mut after = state.clone();
        after
            .apply_move(mv)
            .unwrap_or_else(|e| panic!("{at}: legal move {mv:?} refused: {e}"));
        let gain = after.evaluate(mover, Evaluation::ScoreDifference) - before;
        assert!(
            (a.gain - gain).abs() <= 1e-9 * gain.abs().max(1.0),
            "{at}: {mv:?} is assessed a gain of {}, but it changes the score difference by {gain}",
            a.gain
        );
        check_features(mv, a, features, at);
    }
}

/// The move features mean what `MOVE_FEATURE_SYMBOLS` promises, and are all 0 when not asked
/// for (a formula that reads them would otherwise see noise).
fn check_features<M: std::fmt::Debug>(mv: M, a: &MoveAssessment, asked: bool, at: &str) {
    let f = a.features;
    if !asked {
        assert_eq!(
            f, [0.0; MOVE_FEATURE_COUNT],
            "{at}: {mv:?} has features though none were asked for"
        );
        return;
    }
    let [g, o, m, farm, r, l, t] = f;
    assert!(
        f.iter().all(|x| x.is_finite()),
        "{at}: {mv:?} features {f:?}"
    );
    assert!(
        ((g - o) * FEATURE_SCALE - a.gain).abs() <= 1e-9 * a.gain.abs().max(1.0),
        "{at}: {mv:?}: G − O = {} in units of {FEATURE_SCALE} points, but the gain is {}",
        g - o,
        a.gain
    );
    assert!(m == 0.0 || m == 1.0, "{at}: {mv:?}: M = {m}");
    assert!(
        farm == 0.0 || farm == m,
        "{at}: {mv:?}: F = {farm} with M = {m}"
    );
    assert!(r >= 0.0 && r.fract() == 0.0, "{at}: {mv:?}: R = {r}");
    assert!((0.0..=1.0).contains(&l), "{at}: {mv:?}: L = {l}");
    assert!((0.0..=1.0).contains(&t), "{at}: {mv:?}: T = {t}");
}

/// Check 2 at a chance event: the listed outcomes form the distribution the game samples.
fn check_chance<G: Game>(
    state: &G,
    seen: &Observation<G::Move>,
    event: usize,
    rng: &mut GameRng,
    at: &str,
) {
    let outcomes = &seen.chance_outcomes;
    assert!(
        !outcomes.is_empty(),
        "{at}: a chance event without outcomes"
    );
    for (i, o) in outcomes.iter().enumerate() {
        assert!(
            o.weight.is_finite() && o.weight > 0.0,
            "{at}: outcome {} has weight {}: every listed outcome has a positive probability",
            o.label,
            o.weight
        );
        assert!(
            outcomes[..i].iter().all(|p| p.label != o.label),
            "{at}: outcome {} is listed twice",
            o.label
        );
        if o.then != AfterOutcome::Repeat {
            assert!(
                seen.chance_slots.contains(&o.label),
                "{at}: outcome {} has no slot in the MCTS tree",
                o.label
            );
        }
        let mut after = state.clone();
        if let Err(e) = after.apply_outcome(o.label) {
            panic!("{at}: the listed outcome {} is refused: {e}", o.label);
        }
        let now = observe(&after);
        let leads_where_it_says = match o.then {
            AfterOutcome::Decision => now.at_decision || now.is_over,
            AfterOutcome::ChanceAgain => !now.at_decision,
            AfterOutcome::Repeat => now == *seen,
        };
        assert!(
            leads_where_it_says,
            "{at}: outcome {} is listed as followed by {:?}, but leads to {now:?}",
            o.label, o.then
        );
    }
    let total: f64 = outcomes.iter().map(|o| o.weight).sum();
    let sum: f64 = outcomes.iter().map(|o| o.weight / total).sum();
    assert!(
        (sum - 1.0).abs() <= 1e-9,
        "{at}: the normalised probabilities sum to {sum}"
    );
    if event.is_multiple_of(FREQUENCY_EVERY) && !seen.is_terminal {
        check_frequencies(state, seen, rng, at);
    }
}

/// `sample_chance` draws only listed outcomes (repeats aside, which leave the state as it was
/// and are drawn again), each with its normalised weight's probability: the listed
/// probabilities sum to one. A frequency is accepted within five standard deviations.
fn check_frequencies<G: Game>(state: &G, seen: &Observation<G::Move>, rng: &mut GameRng, at: &str) {
    let live: Vec<&ChanceOutcome> = seen
        .chance_outcomes
        .iter()
        .filter(|o| o.then != AfterOutcome::Repeat)
        .collect();
    if live.is_empty() {
        return;
    }
    let total: f64 = live.iter().map(|o| o.weight).sum();
    let mut counts = vec![0usize; live.len()];
    let mut probe = state.clone();
    for _ in 0..SAMPLES {
        probe.clone_from(state);
        let slot = probe
            .sample_chance(rng)
            .unwrap_or_else(|| panic!("{at}: sample_chance drew nothing at a non-terminal event"));
        assert!(
            slot < seen.chance_slots.len(),
            "{at}: sampled slot {slot} of {} slots",
            seen.chance_slots.len()
        );
        let label = seen.chance_slots[slot];
        match live.iter().position(|o| o.label == label) {
            Some(i) => counts[i] += 1,
            None => panic!(
                "{at}: sample_chance drew outcome {label}, which chance_outcomes does not list as \
                 one that changes the state: the listed probabilities do not sum to one"
            ),
        }
    }
    let n = SAMPLES as f64;
    for (o, &count) in live.iter().zip(&counts) {
        let (p, f) = (o.weight / total, count as f64 / n);
        let tolerance = 5.0 * (p * (1.0 - p) / n).sqrt() + 2.0 / n;
        assert!(
            (f - p).abs() <= tolerance,
            "{at}: outcome {} is drawn {count} times in {SAMPLES} ({f}), but listed with \
             probability {p}: the listed probabilities are not the game's",
            o.label
        );
    }
}

/// Check 5 at the end: nothing is left to do, and the scores are final.
fn check_end<G: Game>(state: &G, seen: &Observation<G::Move>, at: &str) {
    assert!(
        seen.is_over && seen.is_terminal && !seen.at_decision,
        "{at}: {seen:?}"
    );
    assert!(
        seen.legal_moves.is_empty(),
        "{at}: legal moves after the end"
    );
    let mut probe = state.clone();
    assert_eq!(
        probe.sample_chance(&mut GameRng::seed_from_u64(0)),
        None,
        "{at}: a chance event after the end"
    );
    assert_eq!(
        observe(&probe),
        *seen,
        "{at}: sampling after the end changed the state"
    );
    let mut rolled_out = state.clone();
    rolled_out.play_out_randomly(&mut GameRng::seed_from_u64(0));
    assert_eq!(
        rolled_out.scores(),
        seen.scores,
        "{at}: the scores at the end are not the rollout's result (what a search would score)"
    );
    assert_eq!(
        observe(&rolled_out),
        *seen,
        "{at}: a rollout from the end changed the state"
    );
    let [s0, s1] = seen.scores;
    let (min, max) = (state.min_score(), state.max_score());
    let result = seen.scores.map(f64::from);
    assert!(
        result.iter().all(|s| (min..=max).contains(s)),
        "{at}: the final scores {result:?} are outside the game's range {min} to {max}"
    );
    if let Err(why) = state.check_result(result) {
        panic!("{at}: the game's check refuses its own result {result:?}: {why}");
    }
    for (player, own, other) in [(0, s0, s1), (1, s1, s0)] {
        let difference = state.evaluate(player, Evaluation::ScoreDifference);
        assert_eq!(
            difference,
            f64::from(own - other),
            "{at}: the score difference for player {player} at the end is not the final scores' ({:?})",
            seen.scores
        );
    }
}

/// Check 4: replays the history on a fresh game, searching the positions before the steps in
/// `searched` (check 6) on the way.
fn replay<G: Game>(
    new_game: &impl Fn(u64) -> G,
    game_seed: u64,
    played: &Played<G>,
    searched: &[usize],
    context: &str,
) {
    let mut state = new_game(game_seed);
    for (step, (&taken, seen)) in played.steps.iter().zip(&played.seen).enumerate() {
        let at = format!("{context}, replayed step {step}");
        assert_eq!(
            observe(&state),
            *seen,
            "{at}: the replay differs from the game"
        );
        if searched.contains(&step) {
            check_search(&state, game_seed ^ step as u64, &at);
        }
        match taken {
            Step::Move(mv) => state
                .apply_move(mv)
                .unwrap_or_else(|e| panic!("{at}: the recorded move {mv:?} is refused: {e}")),
            Step::Outcome(label) => state
                .apply_outcome(label)
                .unwrap_or_else(|e| panic!("{at}: the recorded outcome {label} is refused: {e}")),
            Step::NoOutcome => assert_eq!(
                state.sample_chance(&mut GameRng::seed_from_u64(0)),
                None,
                "{at}: the recorded end without an outcome does not replay"
            ),
        }
    }
    let end = played.seen.last().expect("the end is observed");
    assert_eq!(
        observe(&state),
        *end,
        "{context}: the replayed game ends elsewhere"
    );
    assert_eq!(
        state.scores(),
        end.scores,
        "{context}: the replayed scores differ"
    );
}

/// Check 6 on one decision: the search picks a legal move, reproducibly, with a sound tree;
/// rollouts end and are reproducible.
fn check_search<G: Game>(state: &G, seed: u64, at: &str) {
    let settings = MctsSettings {
        sims: SEARCH_SIMULATIONS,
        ..MctsSettings::default()
    };
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut searches = Vec::new();
    for _ in 0..2 {
        let mut controller = MctsController::<G>::new(&settings, seed)
            .unwrap_or_else(|e| panic!("{at}: the default settings are refused: {e}"));
        let mv = controller
            .try_choose_move(state)
            .unwrap_or_else(|e| panic!("{at}: the search failed: {e}"));
        assert!(
            moves.contains(&mv),
            "{at}: the search chose {mv:?}, not a legal move"
        );
        let tree = controller
            .check_tree()
            .unwrap_or_else(|why| panic!("{at}: the search's tree is unsound: {why}"));
        let children = controller.root_children();
        assert!(
            children.len() == moves.len()
                && moves.iter().all(|mv| children.iter().any(|c| c.mv == *mv)),
            "{at}: the root's children are not the legal moves"
        );
        searches.push((mv, tree, children));
    }
    assert_eq!(
        searches[0], searches[1],
        "{at}: two searches with seed {seed} chose or grew differently"
    );

    let mut plain = state.clone();
    plain.play_out_randomly(&mut GameRng::seed_from_u64(seed));
    assert!(
        plain.is_terminal(),
        "{at}: a rollout stopped before a terminal state"
    );
    let mut observed = state.clone();
    let mut legal = Vec::new();
    observed.play_out_randomly_observed(&mut GameRng::seed_from_u64(seed), |before, mv| {
        before.legal_moves(&mut legal);
        assert!(
            legal.contains(&mv),
            "{at}: a rollout played {mv:?}, not a legal move"
        );
    });
    assert_eq!(
        observe(&observed),
        observe(&plain),
        "{at}: a rollout with an observer ends elsewhere than one without, from the same seed"
    );
}

mod games;
mod immediate_wins;

pub(crate) use immediate_wins::check_immediate_wins;
