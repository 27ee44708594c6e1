//! Pig (`games::pig`): the rules as the game interface plays them, the exact solution against
//! values derived by hand, an independent plain value iteration and the published first-player
//! win probability, and the seeded test positions.

use std::collections::HashSet;

use evomcts::games::pig::{
    sample_positions, solve, PigError, PigMove, PigRules, PigState, MAX_TARGET, SOLVER_TOLERANCE,
};
use evomcts::games::{AfterOutcome, ChanceOutcome, Evaluation, Game, GameRng};
use rand::SeedableRng;

fn rules(target: u16) -> PigRules {
    PigRules::new(target).unwrap()
}

fn start(target: u16) -> PigState {
    PigState::new(rules(target)).unwrap()
}

/// `state` after rolling `face`.
fn rolled(mut state: PigState, face: u8) -> PigState {
    state.apply_move(PigMove::Roll).unwrap();
    state.apply_outcome(face).unwrap();
    state
}

#[test]
fn hold_is_legal_only_with_a_positive_turn_total() {
    let mut state = start(100);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert_eq!(moves, [PigMove::Roll]);
    let refused = state.apply_move(PigMove::Hold).unwrap_err();
    assert_eq!(refused, PigError::HoldWithoutTurnTotal);
    assert!(refused.to_string().contains("turn total"), "{refused}");
    assert_eq!(state, start(100), "a refused move changes nothing");

    state = rolled(state, 4);
    state.legal_moves(&mut moves);
    assert_eq!(moves, [PigMove::Roll, PigMove::Hold]);
}

#[test]
fn a_one_passes_the_turn_and_loses_the_turn_total() {
    let state = rolled(rolled(start(100), 3), 5);
    assert_eq!((state.to_move(), state.turn_total()), (0, 8));
    assert!(state.at_decision());
    let state = rolled(state, 1);
    assert_eq!(state.to_move(), 1);
    assert_eq!(state.turn_total(), 0);
    assert_eq!(state.banked(), [0, 0]);
    assert_eq!(state.turns_played(), 3);
}

#[test]
fn hold_banks_the_turn_total_and_passes_the_turn() {
    let mut state = rolled(rolled(start(100), 6), 2);
    state.apply_move(PigMove::Hold).unwrap();
    assert_eq!(state.banked(), [8, 0]);
    assert_eq!((state.to_move(), state.turn_total()), (1, 0));
    assert_eq!(state.evaluate(0, Evaluation::ScoreDifference), 8.0);
    assert_eq!(state.evaluate(1, Evaluation::ScoreDifference), -8.0);
}

#[test]
fn reaching_the_target_ends_the_game_with_the_turn_total_banked() {
    let state = PigState::decision(rules(10), [4, 7], 5, 0).unwrap();
    let mut over = rolled(state, 6);
    assert!(over.is_over() && !over.at_decision());
    assert_eq!(over.winner(), Some(0));
    assert_eq!(over.scores(), [15, 7]);
    // The largest score any game to 10 reaches: the bound is attained.
    assert_eq!(over.evaluation_bound(Evaluation::ScoreDifference), 15.0);
    let mut moves = vec![PigMove::Roll];
    over.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(over.apply_move(PigMove::Roll), Err(PigError::GameOver));
    assert_eq!(over.random_move(&mut GameRng::seed_from_u64(1)), None);

    // Reaching the target exactly also ends it; a 1 at the brink does not.
    let exact = rolled(PigState::decision(rules(10), [8, 0], 0, 0).unwrap(), 2);
    assert_eq!((exact.winner(), exact.scores()), (Some(0), [10, 0]));
    let pig = rolled(PigState::decision(rules(10), [8, 0], 1, 0).unwrap(), 1);
    assert!(!pig.is_over());
    assert_eq!(pig.scores(), [8, 0]);
}

#[test]
fn errors_name_what_is_wrong() {
    for target in [0, MAX_TARGET + 1] {
        let message = PigRules::new(target).unwrap_err().to_string();
        assert!(
            message.starts_with("target:") && message.contains(&target.to_string()),
            "{message}"
        );
        let message = PigState::new(PigRules { target }).unwrap_err().to_string();
        assert!(message.starts_with("target:"), "{message}");
    }
    let read: Result<PigRules, _> = ron::from_str("(target: 0)");
    assert!(read.unwrap_err().to_string().contains("target"));
    let read: Result<PigRules, _> = ron::from_str("(target: 20, dice: 2)");
    assert!(read.unwrap_err().to_string().contains("dice"));
    let read: PigRules = ron::from_str(&ron::to_string(&rules(37)).unwrap()).unwrap();
    assert_eq!(read, rules(37));

    let mut state = start(100);
    assert_eq!(state.apply_outcome(3), Err(PigError::NoRollPending));
    state.apply_move(PigMove::Roll).unwrap();
    assert_eq!(state.apply_move(PigMove::Hold), Err(PigError::RollPending));
    let message = state.apply_outcome(7).unwrap_err().to_string();
    assert!(
        message.contains("face") && message.contains('7'),
        "{message}"
    );
    assert!(state.apply_outcome(0).is_err());

    let message = PigState::decision(rules(10), [4, 0], 6, 0)
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("turn total: 6"), "{message}");
    let message = PigState::decision(rules(10), [0, 10], 0, 0)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("banked score of player 1: 10"),
        "{message}"
    );
    let message = PigState::decision(rules(10), [0, 0], 0, 2)
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("player to move: 2"), "{message}");
}

#[test]
fn display_is_one_readable_line() {
    let mut state = rolled(PigState::decision(rules(50), [12, 30], 0, 1).unwrap(), 4);
    assert_eq!(
        state.to_string(),
        "Pig to 50: player 0 has 12, player 1 has 30; player 1 to move, turn total 4"
    );
    state.apply_move(PigMove::Roll).unwrap();
    assert!(state.to_string().ends_with(", die rolling"));
}

/// Plays a random game with the interface's random moves and sampled rolls, keeping the
/// scores apart by the rules as written; returns every state passed through.
fn random_game_checked(target: u16, seed: u64) -> Vec<PigState> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut state = start(target);
    let mut expected = [0u16; 2];
    let mut turn_total = 0;
    let mut states = vec![state];
    let bound = state.evaluation_bound(Evaluation::ScoreDifference);
    while !state.is_terminal() {
        assert!(
            states.len() < 1_000_000,
            "target {target} seed {seed}: the game ends"
        );
        let mover = state.to_move();
        if state.at_decision() {
            let mv = state.random_move(&mut rng).unwrap();
            state.apply_move(mv).unwrap();
            if mv == PigMove::Hold {
                expected[mover] += turn_total;
                turn_total = 0;
            }
        } else {
            let face = state.sample_chance(&mut rng).unwrap() as u8 + 1;
            if face == 1 {
                turn_total = 0;
            } else {
                turn_total += u16::from(face);
                if expected[mover] + turn_total >= target {
                    expected[mover] += turn_total;
                }
            }
        }
        assert!(state.evaluate(0, Evaluation::ScoreDifference).abs() <= bound);
        states.push(state);
    }
    let winner = state.winner().unwrap();
    assert_eq!(
        state.scores(),
        expected.map(i32::from),
        "target {target} seed {seed}"
    );
    assert!(state.scores()[winner] >= i32::from(target));
    assert!(state.scores()[1 - winner] < i32::from(target));
    states
}

#[test]
fn random_play_always_ends_and_the_scores_add_up() {
    for target in [1, 2, 7, 20, 100, MAX_TARGET] {
        let games = if target == MAX_TARGET { 3 } else { 200 };
        for seed in 0..games {
            random_game_checked(target, seed);
        }
    }
}

#[test]
fn seeded_random_games_are_deterministic() {
    assert_eq!(random_game_checked(50, 9), random_game_checked(50, 9));
    assert_ne!(random_game_checked(50, 9), random_game_checked(50, 10));
    let mut a = start(50);
    let mut b = start(50);
    a.play_out_randomly(&mut GameRng::seed_from_u64(3));
    b.play_out_randomly(&mut GameRng::seed_from_u64(3));
    assert_eq!(a, b);
    assert!(a.is_over());
}

#[test]
fn chance_outcomes_and_sampled_rolls_agree() {
    let mut outcomes = vec![ChanceOutcome {
        label: 99,
        weight: 0.0,
        then: AfterOutcome::Repeat,
    }];
    let mut pending = PigState::decision(rules(30), [10, 20], 6, 1).unwrap();
    pending.apply_move(PigMove::Roll).unwrap();
    pending.chance_outcomes(&mut outcomes);
    let labels: Vec<u8> = outcomes.iter().map(|o| o.label).collect();
    assert_eq!(labels, [1, 2, 3, 4, 5, 6]);
    assert!(outcomes
        .iter()
        .all(|o| o.weight == 1.0 && o.then == AfterOutcome::Decision));
    let mut slots = Vec::new();
    pending.chance_slots(|label| slots.push(label));
    assert_eq!(slots, labels);

    let draws = 60_000;
    let mut counts = [0usize; 6];
    let mut rng = GameRng::seed_from_u64(27);
    for _ in 0..draws {
        let mut sampled = pending;
        let slot = sampled.sample_chance(&mut rng).unwrap();
        let face = slots[slot];
        assert!(labels.contains(&face));
        let mut applied = pending;
        applied.apply_outcome(face).unwrap();
        assert_eq!(
            sampled, applied,
            "the sampled slot names the face that was applied"
        );
        counts[slot] += 1;
    }
    for count in counts {
        // 1/6 ± 0.01: over six standard deviations at 60,000 draws.
        let frequency = count as f64 / draws as f64;
        assert!((frequency - 1.0 / 6.0).abs() < 0.01, "{counts:?}");
    }
    let mut decision = start(30);
    assert_eq!(decision.sample_chance(&mut rng), None);
    assert_eq!(decision, start(30));
}

#[test]
fn action_keys_tell_player_and_move_apart() {
    let first = rolled(start(30), 3);
    let second = rolled(rolled(start(30), 1), 3);
    let keys: HashSet<u32> = [first, second]
        .iter()
        .flat_map(|s| {
            let player = s.to_move() as u8;
            let key = |mv| PigState::action_key(player, s.decision_label(), mv);
            [key(PigMove::Roll), key(PigMove::Hold)]
        })
        .collect();
    assert_eq!(keys.len(), 4);
    assert_eq!(first.decision_label(), 0);
}

/// Every decision `(i, j, k)` of a game to `target`: banked scores below it, `i + k` too.
fn decision_coordinates(target: usize) -> impl Iterator<Item = (usize, usize, usize)> {
    (0..target)
        .flat_map(move |i| (0..target).flat_map(move |j| (0..target - i).map(move |k| (i, j, k))))
}

/// Plain value iteration over the published equations, every state updated from the previous
/// sweep's values, written apart from the solver: the reference at small targets.
fn plain_value_iteration(target: usize) -> Vec<Vec<Vec<f64>>> {
    let mut p = vec![vec![vec![0.0; target]; target]; target];
    let value = |p: &Vec<Vec<Vec<f64>>>, i: usize, j: usize, k: usize| {
        if i + k >= target {
            1.0
        } else {
            p[i][j][k]
        }
    };
    loop {
        let mut next = p.clone();
        let mut change: f64 = 0.0;
        for i in 0..target {
            for j in 0..target {
                for k in 0..target - i {
                    let roll = ((1.0 - p[j][i][0])
                        + (2..=6).map(|r| value(&p, i, j, k + r)).sum::<f64>())
                        / 6.0;
                    let hold = if k > 0 { 1.0 - p[j][i + k][0] } else { 0.0 };
                    next[i][j][k] = roll.max(hold);
                    change = change.max((next[i][j][k] - p[i][j][k]).abs());
                }
            }
        }
        p = next;
        if change < 1e-15 {
            return p;
        }
    }
}

#[test]
fn target_two_solved_by_hand() {
    // Every face but 1 wins at once, so from any decision P = 1/6·(1 − P_opponent) + 5/6,
    // and by symmetry every P(i, j, 0) = 6/7 (the first to roll a non-1 wins: (5/6)/(35/36)).
    // Holding 1 point (k = 1, reachable only in the table) gives the opponent 6/7.
    let solution = solve(rules(2)).unwrap();
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        assert!((solution.value(i, j, 0) - 6.0 / 7.0).abs() < 1e-12);
    }
    assert!((solution.first_player_win_probability() - 6.0 / 7.0).abs() < 1e-12);
    assert!((solution.value(0, 1, 1) - 6.0 / 7.0).abs() < 1e-12);
    let one_point = PigState::decision(rules(2), [0, 1], 1, 0).unwrap();
    assert_eq!(solution.best_move(&one_point), Ok(PigMove::Roll));
    let regret = solution.regret(&one_point, PigMove::Hold).unwrap();
    assert!((regret - 5.0 / 7.0).abs() < 1e-12, "{regret}");
}

#[test]
fn the_solver_agrees_with_plain_value_iteration_at_small_targets() {
    for target in 1..=9 {
        let solution = solve(rules(target)).unwrap();
        let t = usize::from(target);
        let reference = plain_value_iteration(t);
        for (i, j, k) in decision_coordinates(t) {
            let (ours, theirs) = (solution.value(i, j, k), reference[i][j][k]);
            assert!(
                (ours - theirs).abs() < 1e-10,
                "target {target} P({i},{j},{k}): {ours} vs {theirs}"
            );
        }
    }
}

/// The residual, the range and the monotonicity of a solution, at every state.
fn check_solution(target: u16) -> f64 {
    let solution = solve(rules(target)).unwrap();
    let residual = solution.bellman_residual();
    assert!(
        residual <= SOLVER_TOLERANCE,
        "target {target}: residual {residual}"
    );
    let t = usize::from(target);
    assert_eq!(solution.state_count(), t * t * (t + 1) / 2);
    for (i, j, k) in decision_coordinates(t) {
        let p = solution.value(i, j, k);
        assert!((0.0..=1.0).contains(&p), "P({i},{j},{k}) = {p}");
        // More banked is never worse for the mover, and never better for the opponent.
        assert!(solution.value(i + 1, j, k) >= p - 1e-9, "P({i},{j},{k})");
        assert!(solution.value(i, j + 1, k) <= p + 1e-9, "P({i},{j},{k})");
    }
    let first = solution.first_player_win_probability();
    println!(
        "target {target}: the first player wins {first:.6} under optimal play ({} states, {} sweeps, residual {residual:.1e})",
        solution.state_count(),
        solution.sweeps()
    );
    first
}

#[test]
fn solutions_have_no_residual_and_are_monotonic() {
    for target in [1, 2, 3, 10, 25, 50] {
        let first = check_solution(target);
        assert!(first > 0.5, "moving first is an advantage");
    }
}

/// Neller & Presser (2004) report that an optimal first player wins 53.06% against an optimal
/// opponent in the game to 100. Their rules let a player hold with a turn total of 0 and
/// require a hold to win; both choices are dominated (see `games::pig`), so the value of the
/// start is the same under ours.
#[test]
fn the_first_player_wins_the_published_share_at_target_100() {
    let first = check_solution(100);
    assert!((first - 0.5306).abs() < 5e-5, "{first}");
}

#[test]
fn win_probabilities_agree_with_the_rules_and_regret_is_never_negative() {
    let target = 30;
    let solution = solve(rules(target)).unwrap();
    let positions = sample_positions(rules(target), 300, 5).unwrap();
    assert_eq!(positions.len(), 300);
    for state in positions {
        let best = solution.best_move(&state).unwrap();
        assert_eq!(solution.regret(&state, best), Ok(0.0));
        let win = solution.win_probability(&state).unwrap();
        for mv in [PigMove::Roll, PigMove::Hold] {
            assert!(solution.regret(&state, mv).unwrap() >= 0.0);
            let value = solution.move_value(&state, mv).unwrap();
            assert!(value <= win + SOLVER_TOLERANCE);
            // A move's value is the win probability of what follows, from the mover's view.
            let mut after = state;
            after.apply_move(mv).unwrap();
            let next = solution.win_probability(&after).unwrap();
            let from_mover = if after.to_move() == state.to_move() {
                next
            } else {
                1.0 - next
            };
            assert!((value - from_mover).abs() < 1e-12, "{state}: {mv}");
        }
        // The table holds the fixed point to the tolerance; a move's value is one step of
        // the equations from it.
        let best_value = solution.move_value(&state, best).unwrap();
        assert!((best_value - win).abs() <= SOLVER_TOLERANCE);
        // A pending roll's value is the average over the faces.
        let mut pending = state;
        pending.apply_move(PigMove::Roll).unwrap();
        let average: f64 = (1..=6)
            .map(|face| {
                let mut after = pending;
                after.apply_outcome(face).unwrap();
                let next = solution.win_probability(&after).unwrap();
                if after.to_move() == state.to_move() {
                    next
                } else {
                    1.0 - next
                }
            })
            .sum::<f64>()
            / 6.0;
        assert!((solution.win_probability(&pending).unwrap() - average).abs() < 1e-12);
    }
}

#[test]
fn optimal_play_wins_as_often_as_the_solution_says() {
    let target = 12;
    let solution = solve(rules(target)).unwrap();
    let games = 20_000;
    let mut rng = GameRng::seed_from_u64(12);
    let mut first_wins = 0;
    for _ in 0..games {
        let mut state = start(target);
        while !state.is_over() {
            if state.at_decision() {
                state
                    .apply_move(solution.best_move(&state).unwrap())
                    .unwrap();
            } else {
                state.sample_chance(&mut rng);
            }
        }
        first_wins += usize::from(state.winner() == Some(0));
    }
    let p = solution.first_player_win_probability();
    let observed = first_wins as f64 / games as f64;
    let sd = (p * (1.0 - p) / games as f64).sqrt();
    assert!(
        (observed - p).abs() < 4.5 * sd,
        "observed {observed}, exact {p}"
    );
}

#[test]
fn the_solver_refuses_what_it_cannot_answer() {
    assert!(matches!(
        solve(rules(201)),
        Err(PigError::TargetTooLargeToSolve { target: 201 })
    ));
    let solution = solve(rules(10)).unwrap();
    assert_eq!(
        solution.win_probability(&start(11)),
        Err(PigError::RulesMismatch {
            solved: 10,
            state: 11
        })
    );
    assert_eq!(
        solution.move_value(&start(10), PigMove::Hold),
        Err(PigError::HoldWithoutTurnTotal)
    );
    let mut pending = start(10);
    pending.apply_move(PigMove::Roll).unwrap();
    assert_eq!(solution.best_move(&pending), Err(PigError::RollPending));
    let over = rolled(PigState::decision(rules(10), [0, 9], 0, 1).unwrap(), 6);
    assert_eq!(solution.win_probability(&over), Ok(1.0));
    assert_eq!(
        solution.regret(&over, PigMove::Roll),
        Err(PigError::GameOver)
    );
}

#[test]
fn sample_positions_are_fixed_distinct_choices() {
    let positions = sample_positions(rules(100), 200, 42).unwrap();
    assert_eq!(positions.len(), 200);
    assert_eq!(positions, sample_positions(rules(100), 200, 42).unwrap());
    assert_ne!(positions, sample_positions(rules(100), 200, 43).unwrap());
    let keys: HashSet<_> = positions
        .iter()
        .map(|s| (s.banked(), s.turn_total(), s.to_move()))
        .collect();
    assert_eq!(keys.len(), positions.len());
    assert!(positions
        .iter()
        .all(|s| s.at_decision() && s.turn_total() > 0));
    assert!(keys.iter().any(|&(_, _, mover)| mover == 1));

    // A target with few positions gives what exists, and stops.
    let few = sample_positions(rules(3), 1000, 1).unwrap();
    assert!(!few.is_empty() && few.len() < 1000);
    assert!(sample_positions(PigRules { target: 0 }, 5, 1).is_err());
}

/// A record whose rules are out of range (its fields are public) is refused for its rules,
/// not blamed on its first move.
#[test]
fn a_record_with_rules_out_of_range_is_refused_for_its_rules() {
    let record = evomcts::arena::record::PigRecord {
        dice_seed: 1,
        pig: evomcts::games::pig::PigRules { target: 0 },
        moves: Vec::new(),
        rolls: Vec::new(),
        final_scores: [0, 0],
        turns: [0, 0],
    };
    let error = evomcts::arena::play::replay_pig(&record).unwrap_err();
    assert!(
        matches!(error, evomcts::arena::play::PigReplayError::Rules(_)),
        "{error}"
    );
    assert!(
        error.to_string().starts_with("the record's rules"),
        "{error}"
    );
}
