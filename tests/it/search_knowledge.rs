//! The knowledge terminals and first-play urgency: `H` equals its definition and is
//! computed once per child, `p` is the softmax of the siblings' `H`, only policies that read
//! them pay for them, unvisited children are ranked as the settings say, and the hand-made
//! baselines' formulas equal their written definitions.

use evomcts::formula::{Formula, SelectionInputs};
use evomcts::games::carcassonne::evaluation::evaluate;
use evomcts::games::carcassonne::{sample_positions, GameState};
use evomcts::games::Evaluation;
use evomcts::runfs::SpecFile;
use evomcts::search::mcts::{
    EsMode, FirstPlayUrgency, MctsController, MctsSettings, Reward, Selection, Unvisited,
    UnvisitedQ,
};
use evomcts::validation::sweep::SweepSpec;

fn knowing(formula: &str, sims: u32, reward: Reward, unvisited: Unvisited) -> MctsSettings {
    MctsSettings {
        sims,
        c_e: 0.01,
        reward: Some(reward),
        selection: Selection::Formula(formula.into()),
        unvisited,
        ..MctsSettings::default()
    }
}

fn positions() -> Vec<GameState> {
    sample_positions(6, 91, 3..50)
}

#[test]
fn h_is_the_moves_change_of_the_movers_virtual_score_difference_in_qs_unit() {
    for (reward, points) in [
        (Reward::ScoreDiff, 1.0),
        (Reward::ScaledScoreDiff(50.0), 50.0),
        (Reward::WinLoss, 50.0),
    ] {
        for state in positions() {
            let settings = knowing("Q + H", 30, reward, Unvisited::TriedFirst);
            let mut controller = MctsController::new(&settings, 5).unwrap();
            controller.begin(&state).unwrap();
            let mover = state.to_move();
            let before = evaluate(&state, mover, Evaluation::ScoreDifference);
            let mut moved_something = false;
            for child in controller.root_children() {
                let mut after = state.clone();
                after.apply(child.mv).unwrap();
                let expected =
                    (evaluate(&after, mover, Evaluation::ScoreDifference) - before) / points;
                assert_eq!(child.heuristic, Some(expected), "{:?}", child.mv);
                moved_something |= expected != 0.0;
            }
            // Meeples on incomplete features change virtual scores, so H is not all zero.
            assert!(moved_something || controller.root_children().len() == 1);
        }
    }
}

#[test]
fn p_is_the_softmax_of_the_siblings_h_at_the_stated_temperature() {
    for temperature in [0.01, 0.5] {
        for state in positions() {
            let settings = MctsSettings {
                prior_temperature: temperature,
                ..knowing(
                    "Q + p",
                    30,
                    Reward::ScaledScoreDiff(50.0),
                    Unvisited::TriedFirst,
                )
            };
            let mut controller = MctsController::new(&settings, 5).unwrap();
            controller.begin(&state).unwrap();
            let children = controller.root_children();
            let h: Vec<f64> = children.iter().map(|c| c.heuristic.unwrap()).collect();
            let total: f64 = h.iter().map(|h| (h / temperature).exp()).sum();
            let mut sum = 0.0;
            for (child, h) in children.iter().zip(&h) {
                let expected = (h / temperature).exp() / total;
                let prior = child.prior.unwrap();
                assert!((prior - expected).abs() < 1e-12, "{prior} vs {expected}");
                sum += prior;
            }
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn h_is_computed_once_per_child_and_only_for_policies_that_read_it() {
    let state = &positions()[2];
    for formula in ["Q + 0.1*H", "Q + C*p*sqrt(N)/(1 + n)"] {
        let settings = knowing(
            formula,
            200,
            Reward::ScaledScoreDiff(50.0),
            Unvisited::TriedFirst,
        );
        let mut controller = MctsController::new(&settings, 9).unwrap();
        controller.try_choose_move(state).unwrap();
        let tree = controller.snapshot();
        assert!(tree.move_children() > controller.root_children().len());
        assert_eq!(
            controller.last_decision().knowledge_evaluations,
            tree.move_children() as u64
        );
    }
    for selection in [Selection::Uct, Selection::Formula("Q + n".into())] {
        let settings = MctsSettings {
            sims: 200,
            selection,
            ..MctsSettings::default()
        };
        let mut controller = MctsController::new(&settings, 9).unwrap();
        controller.try_choose_move(state).unwrap();
        assert_eq!(controller.last_decision().knowledge_evaluations, 0);
        assert!(controller
            .root_children()
            .iter()
            .all(|c| c.heuristic.is_none()));
    }
}

/// Knowledge the formula does not read never changes a search: the same seed plays the
/// same tree with and without a zero-weight `H` term.
#[test]
fn a_zero_weight_h_term_leaves_the_search_unchanged() {
    let state = &positions()[4];
    let plain = knowing(
        "Q + 2*C*sqrt(2*ln(N)/n)",
        150,
        Reward::ScaledScoreDiff(50.0),
        Unvisited::TriedFirst,
    );
    let with_h = knowing(
        "Q + 2*C*sqrt(2*ln(N)/n) + 0*H",
        150,
        Reward::ScaledScoreDiff(50.0),
        Unvisited::TriedFirst,
    );
    let mut a = MctsController::new(&plain, 3).unwrap();
    let mut b = MctsController::new(&with_h, 3).unwrap();
    assert_eq!(a.try_choose_move(state), b.try_choose_move(state));
    assert_eq!(a.snapshot(), b.snapshot());
}

fn urgency(q: UnvisitedQ, n: f64) -> Unvisited {
    Unvisited::Ranked(FirstPlayUrgency { q, n })
}

fn root_visits(settings: &MctsSettings, state: &GameState) -> Vec<u32> {
    let mut controller = MctsController::new(settings, 4).unwrap();
    controller.try_choose_move(state).unwrap();
    controller
        .root_children()
        .iter()
        .map(|c| c.visits)
        .collect()
}

#[test]
fn first_play_urgency_ranks_unvisited_children_by_the_stated_q() {
    let state = positions()
        .into_iter()
        .find(|s| {
            let mut c = MctsController::new(&MctsSettings::default(), 1).unwrap();
            c.begin(s).unwrap();
            c.root_children().len() >= 6
        })
        .unwrap();
    let reward = Reward::ScaledScoreDiff(50.0);
    // An unvisited child worth more than any reward is always taken first: every root
    // child is tried once before any is tried twice.
    let eager = knowing("Q", 0, reward, urgency(UnvisitedQ::Constant(1e6), 1.0));
    let k = root_visits(
        &MctsSettings {
            sims: 1,
            ..eager.clone()
        },
        &state,
    )
    .len() as u32;
    let visits = root_visits(&MctsSettings { sims: k, ..eager }, &state);
    assert!(visits.iter().all(|&v| v == 1), "{visits:?}");
    // One worth less than any reward is never taken once a child has a value: the root keeps
    // its first child.
    let lazy = knowing("Q", 60, reward, urgency(UnvisitedQ::Constant(-1e6), 1.0));
    let visits = root_visits(&lazy, &state);
    assert_eq!(visits.iter().filter(|&&v| v > 0).count(), 1, "{visits:?}");
    assert_eq!(visits.iter().sum::<u32>(), 60);
}

#[test]
fn first_play_urgency_tries_the_child_the_formula_ranks_first_not_the_next_in_arena_order() {
    for state in positions() {
        let settings = knowing(
            "H",
            1,
            Reward::ScaledScoreDiff(50.0),
            urgency(UnvisitedQ::ParentQ, 0.0),
        );
        let mut controller = MctsController::new(&settings, 8).unwrap();
        controller.try_choose_move(&state).unwrap();
        let children = controller.root_children();
        let best_h = children
            .iter()
            .map(|c| c.heuristic.unwrap())
            .fold(f64::NEG_INFINITY, f64::max);
        let tried: Vec<_> = children.iter().filter(|c| c.visits > 0).collect();
        assert_eq!(tried.len(), 1);
        assert_eq!(tried[0].heuristic, Some(best_h));
    }
}

/// The urgency's `n` reaches the formula: under `-n`, unvisited children shown with n = 0
/// beat every visited one, so every child is tried before any is tried twice; shown with
/// n = 100, they lose to any child visited fewer than 100 times, so 40 simulations stay on
/// the first child tried.
#[test]
fn the_urgencys_visit_count_reaches_the_formula() {
    let state = &positions()[1];
    let reward = Reward::ScaledScoreDiff(50.0);
    let visits = root_visits(
        &knowing("-n", 40, reward, urgency(UnvisitedQ::ParentQ, 0.0)),
        state,
    );
    let max = *visits.iter().max().unwrap();
    let min = *visits.iter().min().unwrap();
    assert!(max - min <= 1, "{visits:?}");
    let visits = root_visits(
        &knowing("-n", 40, reward, urgency(UnvisitedQ::ParentQ, 100.0)),
        state,
    );
    assert_eq!(visits.iter().filter(|&&v| v > 0).count(), 1, "{visits:?}");
    assert_eq!(visits.iter().sum::<u32>(), 40);
}

#[test]
fn urgency_and_temperature_are_validated_and_default_settings_keep_their_text() {
    let base = knowing(
        "Q + H",
        10,
        Reward::ScaledScoreDiff(50.0),
        urgency(UnvisitedQ::ParentQ, 1.0),
    );
    assert!(base.validate().is_ok());
    for (settings, field) in [
        (
            MctsSettings {
                selection: Selection::Thompson,
                ..base.clone()
            },
            "unvisited",
        ),
        (
            MctsSettings {
                es: MctsSettings::es_paper(EsMode::Integrated).es,
                ..base.clone()
            },
            "unvisited",
        ),
        (
            MctsSettings {
                unvisited: urgency(UnvisitedQ::Constant(f64::NAN), 1.0),
                ..base.clone()
            },
            "unvisited",
        ),
        (
            MctsSettings {
                unvisited: urgency(UnvisitedQ::ParentQ, -1.0),
                ..base.clone()
            },
            "unvisited",
        ),
        (
            MctsSettings {
                prior_temperature: 0.0,
                ..base.clone()
            },
            "prior_temperature",
        ),
    ] {
        assert_eq!(settings.validate().unwrap_err().field, field);
    }
    let text = ron::to_string(&MctsSettings::default()).unwrap();
    assert!(
        !text.contains("unvisited") && !text.contains("prior_temperature"),
        "{text}"
    );
}

/// The baselines' formulas, as the committed sweep specs write them with `{W}` filled in,
/// equal their written definitions: progressive bias `Q + 2·C·√(2 ln N / n) + W·H/(n + 1)`
/// and PUCT `Q + C·p·√N/(1 + n)`.
#[test]
fn the_baselines_formulas_equal_their_written_definitions() {
    let spec_of = |name: &str| {
        let path = format!("{}/runs/validate/{name}.ron", env!("CARGO_MANIFEST_DIR"));
        SweepSpec::from_file(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    // (Q, N, n, C, H, p)
    let inputs = [
        (0.3, 40.0, 5.0, 0.01, 0.12, 0.2),
        (-0.7, 7.0, 1.0, 0.03, -0.05, 0.01),
        (0.05, 400.0, 37.0, 0.003, 0.4, 0.9),
    ];
    // The formula `text` equals `definition` on every input.
    let check = |text: &str, definition: &dyn Fn(f64, f64, f64, f64, f64, f64) -> f64| {
        let formula = Formula::parse(text).unwrap();
        for &(q, big_n, n, c, h, p) in &inputs {
            let value = formula.eval(&SelectionInputs {
                q,
                parent_visits: big_n,
                child_visits: n,
                c_e: c,
                heuristic: h,
                prior: p,
                ..SelectionInputs::default()
            });
            let expected = definition(q, big_n, n, c, h, p);
            assert!(
                (value - expected).abs() < 1e-12,
                "{text}: {value} vs {expected}"
            );
        }
    };
    let pb = spec_of("baseline-sweep-100-pb-fpu");
    for point in pb.points() {
        let Selection::Formula(text) = pb.settings_at(&point).selection else {
            panic!("a formula")
        };
        let w = point.w.unwrap();
        check(&text, &|q, big_n, n, c, h, _| {
            q + 2.0 * c * (2.0 * f64::ln(big_n) / n).sqrt() + w * h / (n + 1.0)
        });
    }
    let puct = spec_of("baseline-sweep-100-puct");
    let Selection::Formula(text) = &puct.settings.selection else {
        panic!("a formula")
    };
    check(text, &|q, big_n, n, c, _, p| {
        q + c * p * big_n.sqrt() / (1.0 + n)
    });
}
