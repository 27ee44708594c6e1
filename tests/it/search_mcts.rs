//! Proofs for the MCTS controllers: no peeking at the stack, the clearly best move found
//! for either seat, UCT through the formula engine identical to hand-coded UCT, the ES
//! step leaving the real tree untouched, ES-MCTS and ES-p-MCTS scoring candidates
//! differently, and the settings as a league spec writes them.

use evomcts::formula::Formula;
use evomcts::games::carcassonne::{
    draw_next, play_game, sample_positions, GameState, Move, Rules, TileKind, TileStack,
};
use evomcts::games::{GameRng, RandomController};
use evomcts::search::mcts::{
    EsMode, EsSettings, FinalMove, MctsSettings, Reward, SearchError, Selection,
};
use rand::SeedableRng;

type MctsController = evomcts::search::mcts::MctsController<GameState>;

fn settings(sims: u32) -> MctsSettings {
    MctsSettings {
        sims,
        ..MctsSettings::default()
    }
}

fn es_settings(sims: u32, mode: EsMode) -> MctsSettings {
    MctsSettings {
        sims,
        ..MctsSettings::es_paper(mode)
    }
}

// ---------------------------------------------------------------- no peeking

/// A stack whose first `shared` tiles are those of `TileStack::shuffled(seed)` and whose
/// rest is the same tiles in reverse order.
fn stack_with_other_future(seed: u64, shared: usize) -> (TileStack, Vec<TileKind>) {
    let mut stack = TileStack::shuffled(seed);
    let mut order = Vec::new();
    while let Some(tile) = stack.draw_for_test() {
        order.push(tile);
    }
    order[shared..].reverse();
    for &tile in &order {
        stack.put_back_for_test(tile);
    }
    (stack, order)
}

fn original_order(seed: u64) -> Vec<TileKind> {
    let mut stack = TileStack::shuffled(seed);
    std::iter::from_fn(|| stack.draw_for_test()).collect()
}

/// Plays `turns` decisions of `controllers` on `stack`; returns the moves and the last
/// decision's root statistics.
fn play_prefix(
    mut stack: TileStack,
    controllers: &mut [MctsController; 2],
    turns: usize,
) -> (Vec<Move>, GameState, Vec<(Move, u32, f64)>) {
    let mut state = GameState::new(Rules::default());
    let mut moves = Vec::new();
    let mut root = Vec::new();
    while moves.len() < turns && draw_next(&mut state, &mut stack).unwrap() {
        let player = state.to_move();
        let mv = controllers[player].try_choose_move(&state).unwrap();
        root = controllers[player]
            .root_children()
            .into_iter()
            .map(|c| (c.mv, c.visits, c.q))
            .collect();
        state.apply(mv).unwrap();
        moves.push(mv);
    }
    (moves, state, root)
}

fn check_no_peeking(settings: &MctsSettings) {
    let seed = 11;
    let shared = 12; // tiles drawn identically in both games
    let (other, other_order) = stack_with_other_future(seed, shared);
    let original = original_order(seed);
    assert_eq!(original[..shared], other_order[..shared]);
    assert_ne!(
        original[shared..],
        other_order[shared..],
        "the futures must differ for the test to mean anything"
    );

    let new_pair = || {
        [
            MctsController::new(settings, 1).unwrap(),
            MctsController::new(settings, 2).unwrap(),
        ]
    };
    let mut a = new_pair();
    let mut b = new_pair();
    // Every tile up to `shared` is the same, so up to that turn both games show the same
    // positions; only the order of the hidden rest differs.
    let (moves_a, state_a, root_a) = play_prefix(TileStack::shuffled(seed), &mut a, shared);
    let (moves_b, state_b, root_b) = play_prefix(other, &mut b, shared);
    assert_eq!(moves_a.len(), shared);
    assert_eq!(moves_a, moves_b, "decisions depend on the hidden order");
    assert_eq!(root_a, root_b, "root statistics depend on the hidden order");
    assert_eq!(state_a.hidden_counts(), state_b.hidden_counts());
    for player in 0..2 {
        assert_eq!(a[player].snapshot(), b[player].snapshot());
        assert_eq!(
            a[player].take_decision_records(),
            b[player].take_decision_records()
        );
    }
}

#[test]
fn decisions_do_not_depend_on_the_order_of_the_hidden_stack() {
    check_no_peeking(&settings(150));
}

#[test]
fn es_decisions_do_not_depend_on_the_order_of_the_hidden_stack() {
    let mut es = es_settings(150, EsMode::Integrated);
    es.es.as_mut().unwrap().generations = 3;
    check_no_peeking(&es);
}

// ---------------------------------------------------------------- clearly best moves

/// A move that completes a feature for at least 10 points and leads every other move by
/// at least 12 in the mover's virtual score difference.
fn clearly_best(state: &GameState) -> Option<Move> {
    let player = state.to_move();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut values: Vec<(i32, i32, Move)> = moves
        .iter()
        .map(|&mv| {
            let mut after = state.clone();
            after.apply(mv).unwrap();
            let v = after.virtual_scores();
            let gain = after.scores()[player] - state.scores()[player];
            (v[player] - v[1 - player], gain, mv)
        })
        .collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.0));
    let (best, gain, mv) = values[0];
    let runner_up = values.get(1).map_or(i32::MIN, |v| v.0);
    (gain >= 10 && best - runner_up >= 12).then_some(mv)
}

/// Positions from random games where `player` has a clearly best move.
fn positions_with_clear_best(player: usize, count: usize) -> Vec<(GameState, Move)> {
    let mut found = Vec::new();
    for seed in 0..2000u64 {
        let mut state = GameState::new(Rules::default());
        let mut stack = TileStack::shuffled(seed);
        let mut rng = GameRng::seed_from_u64(seed);
        while draw_next(&mut state, &mut stack).unwrap() {
            if state.to_move() == player && state.turns_played() >= 6 {
                if let Some(mv) = clearly_best(&state) {
                    found.push((state.clone(), mv));
                    break;
                }
            }
            let mv = state.random_move(&mut rng).unwrap();
            state.apply(mv).unwrap();
        }
        if found.len() == count {
            return found;
        }
    }
    panic!("only {} positions found for player {player}", found.len());
}

fn check_finds_clear_best(settings: &MctsSettings, per_seat: usize) {
    for player in 0..2 {
        for (i, (state, best)) in positions_with_clear_best(player, per_seat)
            .into_iter()
            .enumerate()
        {
            let mut controller = MctsController::new(settings, 100 + i as u64).unwrap();
            let chosen = controller.try_choose_move(&state).unwrap();
            assert_eq!(
                chosen,
                best,
                "player {player}, position {i} (turn {}): chose {chosen}, best is {best}",
                state.turns_played()
            );
        }
    }
}

#[test]
fn mcts_with_2000_simulations_finds_the_clearly_best_move_for_either_seat() {
    check_finds_clear_best(&settings(2000), 4);
}

#[test]
fn most_visits_final_move_also_finds_it() {
    let mut s = settings(2000);
    s.final_move = Some(FinalMove::MostVisits);
    check_finds_clear_best(&s, 2);
}

#[test]
fn rave_thompson_and_the_baselines_find_it_too() {
    for selection in [
        Selection::Rave { bias: 0.1 },
        Selection::Thompson,
        Selection::ThompsonReshaped,
        Selection::TwoSigmaUct,
        Selection::Greedy,
    ] {
        let s = MctsSettings {
            selection,
            ..settings(2000)
        };
        check_finds_clear_best(&s, 2);
    }
}

// ---------------------------------------------------------------- formula engine = hand UCT

#[test]
fn uct_through_the_formula_engine_equals_hand_coded_uct() {
    let hand = MctsSettings {
        selection: Selection::HandCodedUct,
        ..settings(400)
    };
    let written = MctsSettings {
        selection: Selection::Formula("Q + 2*C*sqrt(2*ln(N)/n)".into()),
        ..settings(400)
    };
    for (i, state) in sample_positions(8, 5, 5..60).iter().enumerate() {
        let mut by_hand = MctsController::new(&hand, i as u64).unwrap();
        let mut engine = MctsController::new(&settings(400), i as u64).unwrap();
        let mut parsed = MctsController::new(&written, i as u64).unwrap();
        let mv = by_hand.try_choose_move(state).unwrap();
        assert_eq!(engine.try_choose_move(state).unwrap(), mv);
        assert_eq!(parsed.try_choose_move(state).unwrap(), mv);
        // Not only the move: every node of the trees agrees.
        assert_eq!(engine.snapshot(), by_hand.snapshot());
        assert_eq!(parsed.snapshot(), by_hand.snapshot());
    }
    // A different formula does change the search, so the comparison can fail.
    let other = MctsSettings {
        selection: Selection::Formula("Q + C*sqrt(ln(N)/n)".into()),
        ..settings(400)
    };
    let state = &sample_positions(1, 5, 30..31)[0];
    let mut by_hand = MctsController::new(&hand, 0).unwrap();
    let mut different = MctsController::new(&other, 0).unwrap();
    by_hand.try_choose_move(state).unwrap();
    different.try_choose_move(state).unwrap();
    assert_ne!(by_hand.snapshot(), different.snapshot());
}

#[test]
fn whole_games_with_formula_uct_and_hand_coded_uct_are_identical() {
    let hand = MctsSettings {
        selection: Selection::HandCodedUct,
        ..settings(60)
    };
    let engine = settings(60);
    let play = |s: &MctsSettings| {
        let mut first = MctsController::new(s, 7).unwrap();
        let mut second = MctsController::new(s, 8).unwrap();
        play_game(Rules::default(), 3, [&mut first, &mut second])
            .unwrap()
            .1
    };
    assert_eq!(play(&hand), play(&engine));
}

// ---------------------------------------------------------------- the ES step

fn es_on_position(mode: EsMode, extra_sims: u64) {
    let state = &sample_positions(1, 21, 30..40)[0];
    let mut controller = MctsController::new(&es_settings(400, mode), 3).unwrap();
    controller.begin(state).unwrap();
    let mut sims = 0;
    while !controller.root_fully_expanded() {
        controller.run_simulations(1).unwrap();
        sims += 1;
    }
    // The decision runs the ES right here; more simulations first make the tree deeper,
    // so candidates descend through decision and chance nodes too.
    controller.run_simulations(extra_sims).unwrap();
    let before = controller.snapshot();
    assert!(before.total_visits() > 0);
    let record = controller.run_es_step().unwrap().unwrap();
    let after = controller.snapshot();
    assert_eq!(before, after, "{mode:?}: the ES step changed the real tree");

    assert_eq!(record.es_simulations, 20 * 4 * 10);
    assert_eq!(record.generations.len(), 20);
    for (g, generation) in record.generations.iter().enumerate() {
        assert_eq!(generation.generation, g + 1);
        assert_eq!(generation.candidates.len(), 4);
        for c in &generation.candidates {
            assert!(c.fitness.is_finite());
            Formula::parse(&c.formula).unwrap();
            Formula::parse(&c.canonical).unwrap();
        }
    }
    // (1, 4)-ES: the winner is the best offspring of the last generation.
    let chosen = record.chosen.clone().unwrap();
    let last = &record.generations[19].candidates;
    let best = last
        .iter()
        .map(|c| c.fitness)
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(chosen.fitness, best);
    assert!(last.iter().any(|c| c.formula == chosen.formula));
    assert!(sims > 1);
}

#[test]
fn the_es_step_never_touches_the_real_tree() {
    for mode in [EsMode::Integrated, EsMode::Partial] {
        es_on_position(mode, 0);
        es_on_position(mode, 300);
    }
}

#[test]
fn es_mcts_backpropagates_into_its_copy_and_es_p_mcts_does_not() {
    let state = &sample_positions(1, 33, 25..35)[0];
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert!(moves.len() >= 12, "the position needs a wide root");
    // Prefers the least visited child: whether visits change is plainly visible.
    let least_visited = Formula::parse("1/n").unwrap();
    let mut traces = Vec::new();
    for mode in [EsMode::Integrated, EsMode::Partial] {
        let mut controller = MctsController::new(&es_settings(400, mode), 9).unwrap();
        controller.begin(state).unwrap();
        controller
            .run_simulations(moves.len() as u64 + 100)
            .unwrap();
        let before = controller.snapshot();
        let root_visits = moves.len() as u32 + 100;
        let trace = controller
            .evaluate_candidate(&least_visited, mode, 10)
            .unwrap();
        assert_eq!(controller.snapshot(), before);
        let mean = trace.rewards.iter().sum::<f64>() / 10.0;
        assert!((trace.fitness - mean).abs() < 1e-9);
        match mode {
            EsMode::Integrated => {
                // Each simulation is backpropagated into the copy: the root's count
                // grows and the candidate moves on to another least-visited child.
                let expected: Vec<u32> = (1..=10).map(|i| root_visits + i).collect();
                assert_eq!(trace.root_visits, expected);
                let mut distinct = trace.root_children.clone();
                distinct.sort();
                distinct.dedup();
                assert!(distinct.len() > 5, "{:?}", trace.root_children);
            }
            EsMode::Partial => {
                // Nothing is backpropagated: the statistics, hence the choice, never move.
                assert_eq!(trace.root_visits, vec![root_visits; 10]);
                assert!(trace
                    .root_children
                    .iter()
                    .all(|&c| c == trace.root_children[0]));
            }
        }
        traces.push(trace);
    }
    assert_ne!(traces[0].fitness, traces[1].fitness);
}

#[test]
fn es_decisions_are_recorded_and_counted_apart_from_the_budget() {
    for mode in [EsMode::Integrated, EsMode::Partial] {
        let mut s = es_settings(300, mode);
        s.es.as_mut().unwrap().generations = 5;
        let mut es = MctsController::new(&s, 4).unwrap();
        let mut random = RandomController::new(5);
        let (_, game) = play_game(Rules::default(), 12, [&mut es, &mut random]).unwrap();
        let records = es.take_decision_records();
        assert_eq!(records.len(), game.turns[0] as usize);
        assert!(es.take_decision_records().is_empty());
        let mut ran = 0;
        for (r, turn) in records.iter().zip((0..).step_by(2)) {
            assert_eq!(r.player, 0);
            assert_eq!(r.mode, mode);
            assert!(r.turn >= turn);
            match &r.skipped {
                None => {
                    ran += 1;
                    assert_eq!(r.generations.len(), 5);
                    assert_eq!(r.es_simulations, 5 * 4 * 10);
                    assert_eq!(r.mcts_simulations, 300);
                    assert!(r.chosen.is_some());
                }
                Some(_) => {
                    assert!(r.generations.is_empty());
                    assert_eq!(r.es_simulations, 0);
                    assert!(r.chosen.is_none());
                }
            }
        }
        assert!(ran > records.len() / 2);
        // Serialises for the league's game store.
        let json = serde_json::to_string(&records).unwrap();
        let back: Vec<evomcts::search::mcts::EsDecisionRecord> =
            serde_json::from_str(&json).unwrap();
        assert_eq!(back, records);
    }
}

#[test]
fn a_decision_reports_its_es_simulations_apart() {
    let state = &sample_positions(1, 40, 20..30)[0];
    let mut controller = MctsController::new(&es_settings(400, EsMode::Integrated), 1).unwrap();
    controller.try_choose_move(state).unwrap();
    let stats = controller.last_decision();
    assert_eq!(stats.mcts_simulations, 400);
    assert_eq!(stats.es_simulations, 800);
    assert!(stats.es_ran);
    let root_visits: u32 = controller.root_children().iter().map(|c| c.visits).sum();
    assert_eq!(
        root_visits, 400,
        "the real tree holds the MCTS simulations only"
    );
}

// ---------------------------------------------------------------- play and settings

#[test]
fn every_policy_beats_the_random_player() {
    let policies = [
        ("uct", settings(100)),
        (
            "win-loss",
            MctsSettings {
                reward: Some(Reward::WinLoss),
                c_e: 0.5,
                ..settings(100)
            },
        ),
        (
            "scaled",
            MctsSettings {
                reward: Some(Reward::ScaledScoreDiff(50.0)),
                c_e: 0.25,
                ..settings(100)
            },
        ),
        (
            "rave",
            MctsSettings {
                selection: Selection::Rave { bias: 0.1 },
                ..settings(100)
            },
        ),
        (
            "thompson",
            MctsSettings {
                selection: Selection::Thompson,
                ..settings(100)
            },
        ),
        (
            "thompson-reshaped",
            MctsSettings {
                selection: Selection::ThompsonReshaped,
                ..settings(100)
            },
        ),
        (
            "two rollouts",
            MctsSettings {
                rollouts_per_leaf: 2,
                ..settings(60)
            },
        ),
    ];
    for (name, s) in policies {
        for seat in 0..2 {
            let mut mcts = MctsController::new(&s, 1).unwrap();
            let mut random = RandomController::new(2);
            let result = if seat == 0 {
                play_game(Rules::default(), 30, [&mut mcts, &mut random])
            } else {
                play_game(Rules::default(), 31, [&mut random, &mut mcts])
            };
            let (_, game) = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            let score = game.final_scores;
            assert!(
                score[seat] > score[1 - seat],
                "{name} in seat {seat} lost to random: {score:?}"
            );
        }
    }
}

#[test]
fn settings_read_as_a_league_spec_writes_them() {
    let s: MctsSettings =
        ron::from_str("(sims: 400, c_e: 2.0, reward: ScoreDiff, final_move: HighestQ)").unwrap();
    // The defaults with Carcassonne's reward and final move, which a game played for points
    // gives a spec that leaves them out.
    let mut paper = MctsSettings::default();
    paper.fill_defaults(evomcts::games::Objective::Points);
    assert_eq!(s, paper);
    // Left out, they stay left to the game, and are written as left out.
    let left: MctsSettings = ron::from_str("(sims: 400)").unwrap();
    assert_eq!((left.reward, left.final_move), (None, None));
    assert!(!ron::to_string(&left).unwrap().contains("reward"));
    let s: MctsSettings = ron::from_str("MctsSettings(c_e: 0.5)").unwrap();
    assert_eq!(s.c_e, 0.5);
    assert_eq!(s.sims, 400);
    let s: MctsSettings = ron::from_str(
        "(sims: 200, reward: ScaledScoreDiff(50.0), final_move: MostVisits, rollouts_per_leaf: 2, \
         selection: Formula(\"Q + C*sqrt(ln(N)/n)\"), es: Some((mode: Partial, generations: 10)))",
    )
    .unwrap();
    assert_eq!(s.reward, Some(Reward::ScaledScoreDiff(50.0)));
    assert_eq!(
        s.es,
        Some(EsSettings {
            mode: EsMode::Partial,
            generations: 10,
            ..EsSettings::default()
        })
    );
    let rave: MctsSettings = ron::from_str("(selection: Rave(bias: 0.1))").unwrap();
    assert_eq!(rave.selection, Selection::Rave { bias: 0.1 });
    let text = ron::to_string(&s).unwrap();
    assert_eq!(ron::from_str::<MctsSettings>(&text).unwrap(), s);
    assert!(ron::from_str::<MctsSettings>("(simulations: 400)").is_err());
}

#[test]
fn settings_round_trip_through_a_league_controller_spec() {
    #[derive(Debug, PartialEq, serde::Deserialize)]
    enum ControllerSpec {
        Mcts(MctsSettings),
    }
    let options = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
    let spec: ControllerSpec = options
        .from_str("Mcts(sims: 400, c_e: 2.0, reward: ScoreDiff, final_move: HighestQ)")
        .unwrap();
    let mut paper = MctsSettings::default();
    paper.fill_defaults(evomcts::games::Objective::Points);
    assert_eq!(spec, ControllerSpec::Mcts(paper));
    let spec: ControllerSpec = options
        .from_str("Mcts(c_e: 1.0, es: Some((mode: Partial)))")
        .unwrap();
    let ControllerSpec::Mcts(s) = spec;
    assert_eq!(s.es.unwrap().mode, EsMode::Partial);
    // Without the extension RON wants the struct in its own parentheses.
    let spec: ControllerSpec = ron::from_str("Mcts((sims: 10))").unwrap();
    let ControllerSpec::Mcts(s) = spec;
    assert_eq!(s.sims, 10);
}

#[test]
fn bad_settings_name_the_field() {
    let field = |s: MctsSettings| MctsController::new(&s, 0).err().unwrap().field;
    assert_eq!(field(settings(0)), "sims");
    assert_eq!(
        field(MctsSettings {
            c_e: f64::NAN,
            ..settings(10)
        }),
        "c_e"
    );
    assert_eq!(
        field(MctsSettings {
            reward: Some(Reward::ScaledScoreDiff(0.0)),
            ..settings(10)
        }),
        "reward"
    );
    assert_eq!(
        field(MctsSettings {
            rollouts_per_leaf: 0,
            ..settings(10)
        }),
        "rollouts_per_leaf"
    );
    assert_eq!(
        field(MctsSettings {
            selection: Selection::Formula("Q + * n".into()),
            ..settings(10)
        }),
        "selection"
    );
    assert_eq!(
        field(MctsSettings {
            selection: Selection::FormulaFile("/nonexistent/formula.txt".into()),
            ..settings(10)
        }),
        "selection"
    );
    assert_eq!(
        field(MctsSettings {
            selection: Selection::Rave { bias: -1.0 },
            ..settings(10)
        }),
        "selection"
    );
    let with_es = |f: fn(&mut EsSettings)| {
        let mut s = es_settings(10, EsMode::Integrated);
        f(s.es.as_mut().unwrap());
        s
    };
    assert_eq!(field(with_es(|e| e.lambda = 0)), "es.lambda");
    assert_eq!(field(with_es(|e| e.mu = 0)), "es.mu");
    assert_eq!(field(with_es(|e| e.generations = 0)), "es.generations");
    assert_eq!(
        field(with_es(|e| e.sims_per_fitness = 0)),
        "es.sims_per_fitness"
    );
    assert_eq!(
        field(with_es(|e| e.grammar = "/nonexistent/grammar.ron".into())),
        "es.grammar"
    );
    let mut thompson_es = es_settings(10, EsMode::Partial);
    thompson_es.selection = Selection::Thompson;
    assert_eq!(field(thompson_es), "es");
    // Checked without building a controller too, as a spec validator does.
    let bad_formula = MctsSettings {
        selection: Selection::Formula("Q + (n".into()),
        ..settings(10)
    };
    assert_eq!(bad_formula.validate().unwrap_err().field, "selection");
    let err = MctsController::new(&settings(0), 0).err().unwrap();
    assert!(err.to_string().contains("`sims`"), "{err}");
}

#[test]
fn a_formula_file_and_a_grammar_file_are_read_with_the_spec_not_by_the_search() {
    let dir = crate::support::scratch("mcts", "files");
    std::fs::create_dir_all(&dir).unwrap();
    let formula = dir.join("formula.txt");
    std::fs::write(&formula, "Q + 2*C*sqrt(2*ln(N)/n)\n").unwrap();
    let grammar = dir.join("grammar.ron");
    std::fs::write(&grammar, evomcts::formula::Grammar::paper().to_ron()).unwrap();
    let s = MctsSettings {
        selection: Selection::FormulaFile(formula.display().to_string()),
        es: Some(EsSettings {
            grammar: grammar.display().to_string(),
            generations: 2,
            ..EsSettings::default()
        }),
        ..settings(100)
    };
    // The search reads no file: names of files are refused until a spec reader resolves them.
    assert!(MctsController::new(&s, 6).is_err());
    let mut spec = evomcts::search::ControllerSpec::Mcts(s);
    evomcts::runfs::resolve_controller(&mut spec, std::path::Path::new("")).unwrap();
    let evomcts::search::ControllerSpec::Mcts(s) = spec else {
        unreachable!()
    };
    let mut from_files = MctsController::new(&s, 6).unwrap();
    let mut built_in = MctsController::new(
        &MctsSettings {
            selection: Selection::Uct,
            es: Some(EsSettings {
                generations: 2,
                ..EsSettings::default()
            }),
            ..settings(100)
        },
        6,
    )
    .unwrap();
    let state = &sample_positions(1, 2, 20..30)[0];
    assert_eq!(
        from_files.try_choose_move(state).unwrap(),
        built_in.try_choose_move(state).unwrap()
    );
    assert_eq!(from_files.snapshot(), built_in.snapshot());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn asking_without_a_drawn_tile_is_an_error() {
    let mut controller = MctsController::new(&settings(10), 0).unwrap();
    let state = GameState::new(Rules::default());
    assert_eq!(
        controller.try_choose_move(&state),
        Err(SearchError::NoDecision)
    );
    // Step-by-step use before any decision is an error too, not a panic.
    assert_eq!(controller.run_simulations(5), Err(SearchError::NotStarted));
    assert_eq!(controller.run_es_step(), Err(SearchError::NotStarted));
    assert!(controller.chosen_move().is_none());
    assert!(controller.root_children().is_empty());
    assert!(!controller.root_fully_expanded());
}

#[test]
fn controllers_can_move_to_league_threads() {
    fn assert_send<T: Send + 'static>() {}
    assert_send::<MctsController>();
    let controller = MctsController::new(&settings(20), 0).unwrap();
    let state = sample_positions(1, 3, 10..20).remove(0);
    let position = state.clone();
    let mv = std::thread::spawn(move || {
        let mut controller = controller;
        controller.try_choose_move(&state).unwrap()
    })
    .join()
    .unwrap();
    position.check_move(mv).unwrap();
}

#[test]
fn games_under_the_bottom_of_stack_rule_play_to_the_end() {
    let rules = Rules {
        unplaceable: evomcts::games::carcassonne::Unplaceable::BottomOfStack,
        ..Rules::default()
    };
    for seed in 0..3 {
        let mut first = MctsController::new(&settings(40), seed).unwrap();
        let mut second = MctsController::new(&es_settings(60, EsMode::Integrated), seed).unwrap();
        let (state, _) = play_game(rules, seed, [&mut first, &mut second]).unwrap();
        assert!(state.is_finished());
    }
}

/// The tie-break and the named baselines read from a spec; a spec that names no tie-break
/// writes none, so every spec written before the setting existed keeps its text and hash.
#[test]
fn the_tie_break_and_the_baselines_read_and_the_default_is_not_written() {
    use evomcts::search::mcts::TieBreak;
    let s: MctsSettings =
        ron::from_str("(sims: 50, selection: TwoSigmaUct, tie_break: MoreVisited)").unwrap();
    assert_eq!(s.tie_break, TieBreak::MoreVisited);
    assert_eq!(s.selection, Selection::TwoSigmaUct);
    s.validate().unwrap();
    let written = ron::to_string(&s).unwrap();
    assert!(written.contains("tie_break:MoreVisited"), "{written}");
    let default = ron::to_string(&MctsSettings::default()).unwrap();
    assert!(!default.contains("tie_break"), "{default}");
    for text in [
        "(selection: Greedy)",
        "(selection: Ucb1Tuned)",
        "(tie_break: LessVisited)",
    ] {
        ron::from_str::<MctsSettings>(text)
            .unwrap()
            .validate()
            .unwrap();
    }
    // 2σ-UCT is no formula: first-play urgency and the in-search ES refuse it by field.
    let ranked: MctsSettings =
        ron::from_str("(selection: TwoSigmaUct, unvisited: Ranked((q: ParentQ, n: 1.0)))").unwrap();
    assert_eq!(ranked.validate().unwrap_err().field, "unvisited");
}
