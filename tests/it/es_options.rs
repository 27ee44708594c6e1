//! The ES options of ES-MCTS, each shown on constructed positions: `write_back` adds
//! exactly the ES simulations to the root, `common_random_numbers` gives two copies of one
//! formula the same fitness, `acceptance` keeps the seed when nothing beats it on the same
//! draws, `BestEver` returns the scored seed when every offspring scores lower,
//! `start_after` delays the ES, `Recommendation` values candidates on the real tree, and
//! the semantic rule discards offspring that behave like their parent.

use evomcts::formula::{
    EvolutionStrategy, Formula, Grammar, InitialPopulation, Scored, StrategyOptions,
};
use evomcts::games::carcassonne::{sample_positions, GameState};
use evomcts::games::GameRng;
use evomcts::search::mcts::{
    EsDecisionRecord, EsFitness, EsMode, EsResult, EsSettings, EsStrategy, MctsSettings, Reward,
};
use rand::SeedableRng;

type MctsController = evomcts::search::mcts::MctsController<GameState>;

fn es(sims: u32, es: EsSettings) -> MctsSettings {
    MctsSettings {
        sims,
        es: Some(es),
        ..MctsSettings::default()
    }
}

/// Runs MCTS on `state` until the root is fully expanded plus `extra` simulations, then
/// the ES step; returns the record.
fn es_step(controller: &mut MctsController, state: &GameState, extra: u64) -> EsDecisionRecord {
    controller.begin(state).unwrap();
    while !controller.root_fully_expanded() {
        controller.run_simulations(1).unwrap();
    }
    controller.run_simulations(extra).unwrap();
    controller.run_es_step().unwrap().unwrap()
}

fn root_visits(controller: &MctsController) -> u32 {
    controller.root_children().iter().map(|c| c.visits).sum()
}

#[test]
fn write_back_adds_exactly_the_es_simulations_to_the_root() {
    let state = &sample_positions(1, 21, 30..40)[0];
    for mode in [EsMode::Integrated, EsMode::Partial] {
        for write_back in [false, true] {
            let settings = es(
                400,
                EsSettings {
                    mode,
                    generations: 5,
                    write_back,
                    ..EsSettings::default()
                },
            );
            let mut controller = MctsController::new(&settings, 3).unwrap();
            controller.begin(state).unwrap();
            while !controller.root_fully_expanded() {
                controller.run_simulations(1).unwrap();
            }
            controller.run_simulations(50).unwrap();
            let before = controller.root_children();
            let visits = root_visits(&controller);
            let record = controller.run_es_step().unwrap().unwrap();
            assert_eq!(record.es_simulations, 5 * 4 * 10);
            let after = controller.root_children();
            let added = root_visits(&controller) - visits;
            if write_back {
                assert_eq!(added as u64, record.es_simulations, "{mode:?}");
                // Only visit counts and sums of root children move; no child is created.
                assert_eq!(before.len(), after.len());
                assert!(before.iter().zip(&after).any(|(b, a)| b.q != a.q));
            } else {
                assert_eq!(added, 0, "{mode:?}");
                assert_eq!(before, after);
            }
        }
    }
    // A whole decision: 400 MCTS simulations plus the 800 of the ES at the root.
    let settings = es(
        400,
        EsSettings {
            write_back: true,
            ..EsSettings::default()
        },
    );
    let mut controller = MctsController::new(&settings, 1).unwrap();
    controller.try_choose_move(state).unwrap();
    assert_eq!(controller.last_decision().es_simulations, 800);
    assert_eq!(root_visits(&controller), 1200);
}

/// Pairs of candidates of one generation with the same formula text: (fitness, fitness).
fn twin_fitnesses(records: &[EsDecisionRecord]) -> Vec<(f64, f64)> {
    let mut twins = Vec::new();
    for record in records {
        for generation in &record.generations {
            let c = &generation.candidates;
            for i in 0..c.len() {
                for j in i + 1..c.len() {
                    if c[i].formula == c[j].formula {
                        twins.push((c[i].fitness, c[j].fitness));
                    }
                }
            }
        }
    }
    twins
}

#[test]
fn common_random_numbers_give_two_copies_of_one_formula_the_same_fitness() {
    let positions = sample_positions(12, 50, 10..50);
    for crn in [true, false] {
        let settings = es(
            300,
            EsSettings {
                lambda: 16,
                generations: 5,
                common_random_numbers: crn,
                ..EsSettings::default()
            },
        );
        let mut records = Vec::new();
        for (i, state) in positions.iter().enumerate() {
            let mut controller = MctsController::new(&settings, i as u64).unwrap();
            records.push(es_step(&mut controller, state, 30));
        }
        let twins = twin_fitnesses(&records);
        assert!(
            twins.len() >= 3,
            "too few twins to show anything: {twins:?}"
        );
        if crn {
            for (a, b) in &twins {
                assert_eq!(
                    a, b,
                    "copies of one formula scored differently on common numbers"
                );
            }
        } else {
            assert!(
                twins.iter().any(|(a, b)| a != b),
                "independent streams should separate some copies: {twins:?}"
            );
        }
    }
}

/// A position near the end where one player's lead cannot be caught: under the win/loss
/// reward every simulation returns the same value, whatever the formula.
fn decided_endgame() -> GameState {
    for (i, state) in sample_positions(40, 77, 66..70).into_iter().enumerate() {
        let settings = MctsSettings {
            sims: 300,
            reward: Some(Reward::WinLoss),
            ..MctsSettings::default()
        };
        let mut controller = MctsController::new(&settings, i as u64).unwrap();
        if controller.try_choose_move(&state).is_err() {
            continue;
        }
        let children = controller.root_children();
        let first = children[0].q;
        if children.len() >= 3 && first.abs() == 1.0 && children.iter().all(|c| c.q == first) {
            return state;
        }
    }
    panic!("no decided endgame among the sampled positions");
}

#[test]
fn acceptance_keeps_the_seed_when_no_candidate_beats_it_on_the_same_draws() {
    let state = decided_endgame();
    let settings = MctsSettings {
        sims: 300,
        reward: Some(Reward::WinLoss),
        es: Some(EsSettings {
            generations: 5,
            acceptance: true,
            ..EsSettings::default()
        }),
        ..MctsSettings::default()
    };
    let mut controller = MctsController::new(&settings, 5).unwrap();
    let record = es_step(&mut controller, &state, 20);
    let acceptance = record.acceptance.clone().expect("acceptance is recorded");
    assert_eq!(acceptance.evolved_rescored, acceptance.seed_rescored);
    assert!(!acceptance.accepted);
    let uct = Formula::uct().to_string();
    assert_eq!(
        record.chosen.unwrap().formula,
        uct,
        "the seed keeps selecting"
    );
    assert_eq!(record.es_simulations, 5 * 4 * 10 + 2 * 10);

    // On ordinary positions the record follows the rule, both ways.
    let mut outcomes = [0usize; 2];
    let settings = es(
        300,
        EsSettings {
            generations: 5,
            acceptance: true,
            ..EsSettings::default()
        },
    );
    for (i, state) in sample_positions(12, 90, 10..50).iter().enumerate() {
        let mut controller = MctsController::new(&settings, i as u64).unwrap();
        let record = es_step(&mut controller, state, 30);
        let a = record.acceptance.unwrap();
        assert_eq!(
            a.accepted,
            a.evolved_rescored - a.seed_rescored > a.margin,
            "{a:?}"
        );
        let chosen = record.chosen.unwrap().formula;
        if a.accepted {
            assert_eq!(chosen, a.evolved.formula);
        } else {
            assert_eq!(chosen, uct);
        }
        outcomes[a.accepted as usize] += 1;
    }
    assert!(outcomes[0] > 0, "no rejection seen: {outcomes:?}");
}

#[test]
fn best_ever_returns_the_seed_when_every_offspring_scores_lower() {
    let uct = Formula::uct().to_string();
    let mut seen = [0usize; 2];
    for strategy in [EsStrategy::Comma, EsStrategy::Plus] {
        let settings = es(
            300,
            EsSettings {
                lambda: 2,
                generations: 1,
                strategy,
                initial: InitialPopulation::Seed,
                result: EsResult::BestEver,
                ..EsSettings::default()
            },
        );
        for (i, state) in sample_positions(12, 61, 10..50).iter().enumerate() {
            let mut controller = MctsController::new(&settings, i as u64).unwrap();
            let record = es_step(&mut controller, state, 30);
            assert_eq!(record.initial.len(), 1, "the seed is scored");
            assert_eq!(record.es_simulations, 3 * 10);
            let seed = &record.initial[0];
            assert_eq!(seed.formula, uct);
            let offspring = &record.generations[0].candidates;
            let best_offspring = offspring
                .iter()
                .map(|c| c.fitness)
                .fold(f64::NEG_INFINITY, f64::max);
            let chosen = record.chosen.unwrap();
            if offspring.iter().all(|c| c.fitness < seed.fitness) {
                assert_eq!(chosen, *seed);
                seen[0] += 1;
            } else {
                assert_eq!(chosen.fitness, best_offspring.max(seed.fitness));
                if best_offspring > seed.fitness {
                    assert_ne!(chosen.formula, uct);
                    seen[1] += 1;
                }
            }
        }
    }
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "both cases must occur: {seen:?}"
    );
}

#[test]
fn start_after_delays_the_es() {
    let state = &sample_positions(1, 21, 30..40)[0];
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert!(moves.len() < 250);
    for (start_after, expected) in [(None, moves.len() as u64), (Some(250), 250)] {
        let settings = es(
            400,
            EsSettings {
                generations: 2,
                start_after,
                ..EsSettings::default()
            },
        );
        let mut controller = MctsController::new(&settings, 2).unwrap();
        controller.try_choose_move(state).unwrap();
        assert_eq!(controller.last_decision().es_started_at, Some(expected));
        assert_eq!(controller.last_decision().mcts_simulations, 400);
    }
}

#[test]
fn recommendation_values_each_candidate_on_the_real_tree() {
    let state = &sample_positions(1, 33, 25..35)[0];
    let settings = es(
        400,
        EsSettings {
            generations: 5,
            fitness: EsFitness::Recommendation,
            ..EsSettings::default()
        },
    );
    let mut controller = MctsController::new(&settings, 4).unwrap();
    controller.begin(state).unwrap();
    controller.run_simulations(200).unwrap();
    let before = controller.snapshot();
    let real: Vec<f64> = controller
        .root_children()
        .iter()
        .filter(|c| c.visits > 0)
        .map(|c| c.q)
        .collect();
    let record = controller.run_es_step().unwrap().unwrap();
    assert_eq!(controller.snapshot(), before, "the real tree is untouched");
    let mut distinct = Vec::new();
    for c in record.generations.iter().flat_map(|g| &g.candidates) {
        assert!(
            real.contains(&c.fitness),
            "{} is not the real mean of any root child",
            c.fitness
        );
        if !distinct.contains(&c.fitness) {
            distinct.push(c.fitness);
        }
    }
    assert!(distinct.len() > 1, "candidates recommended different moves");
}

#[test]
fn semantic_selection_discards_offspring_that_behave_like_their_parent() {
    let grammar = Grammar::paper();
    let seed = Formula::uct();
    let strategy = EvolutionStrategy {
        plus: true,
        initial: InitialPopulation::Seed,
        ..EvolutionStrategy::paper()
    };
    // Bigger formulas score higher; `same` decides whether behaviour (semantics) differs.
    let run = |semantic: bool, same: bool| {
        let options = StrategyOptions {
            score_initial: true,
            semantic,
        };
        let mut rng = GameRng::seed_from_u64(8);
        strategy.run(options, &seed, &grammar, &mut rng, |f| Scored {
            fitness: f.size() as f64,
            semantics: vec![if same { 1.0 } else { f.size() as f64 }],
        })
    };
    // Every offspring behaves like its parent: none may displace it.
    assert_eq!(run(true, true).best.formula, seed);
    // Without the rule, or with differing behaviour, evolution moves on.
    assert_ne!(run(false, true).best.formula, seed);
    assert_ne!(run(true, false).best.formula, seed);
}

#[test]
fn new_options_are_read_validated_and_not_written_when_default() {
    let text =
        "(sims: 400, es: Some((strategy: Plus, initial: Seed, result: BestEver, write_back: true, \
                start_after: Some(100), common_random_numbers: true, fitness: Recommendation, \
                acceptance: true, semantic: true)))";
    let s: MctsSettings = ron::from_str(text).unwrap();
    let e = s.es.clone().unwrap();
    assert_eq!(e.strategy, EsStrategy::Plus);
    assert_eq!(e.initial, InitialPopulation::Seed);
    assert_eq!(e.result, EsResult::BestEver);
    assert!(e.write_back && e.common_random_numbers && e.acceptance && e.semantic);
    assert_eq!(e.start_after, Some(100));
    assert_eq!(e.fitness, EsFitness::Recommendation);
    s.validate().unwrap();

    let field = |es: EsSettings| MctsController::new(&super_es(es), 0).err().map(|e| e.field);
    fn super_es(es: EsSettings) -> MctsSettings {
        MctsSettings {
            sims: 400,
            es: Some(es),
            ..MctsSettings::default()
        }
    }
    assert_eq!(
        field(EsSettings {
            start_after: Some(400),
            ..EsSettings::default()
        }),
        Some("es.start_after")
    );
    assert_eq!(
        field(EsSettings {
            mode: EsMode::Partial,
            fitness: EsFitness::Recommendation,
            ..EsSettings::default()
        }),
        Some("es.fitness")
    );
    assert_eq!(
        field(EsSettings {
            semantic: true,
            ..EsSettings::default()
        }),
        Some("es.semantic")
    );
    // Specs written before the options existed keep their text (and league spec hash).
    let written = ron::to_string(&EsSettings::default()).unwrap();
    for name in [
        "strategy",
        "initial",
        "result",
        "write_back",
        "start_after",
        "common_random_numbers",
        "fitness",
        "acceptance",
        "semantic",
    ] {
        assert!(!written.contains(&format!(",{name}:")), "{written}");
    }
}
