//! The evolution strategy on deterministic toy fitness functions: the comma strategy
//! drops a better parent, the plus strategy keeps it; records and lineage are complete;
//! runs are reproducible.

use evomcts::formula::{
    EvolutionStrategy, Formula, Grammar, InitialPopulation, Origin, StrategyError, StrategyOptions,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// UCT is the best possible formula; anything else scores 0.
fn uct_is_best(formula: &Formula) -> f64 {
    if *formula == Formula::uct() {
        1.0
    } else {
        0.0
    }
}

fn strategy(plus: bool, generations: usize) -> EvolutionStrategy {
    EvolutionStrategy {
        mu: 1,
        lambda: 4,
        generations,
        plus,
        initial: InitialPopulation::Seed,
        record_history: true,
    }
}

#[test]
fn comma_drops_a_better_parent_and_plus_keeps_it() {
    let grammar = Grammar::paper();
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let comma = strategy(false, 3).run(
        StrategyOptions::default(),
        &Formula::uct(),
        &grammar,
        &mut rng,
        uct_is_best,
    );
    assert_ne!(comma.best.formula, Formula::uct());
    assert_eq!(comma.best.fitness, Some(0.0));
    assert_eq!(comma.evaluations, 12);

    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let plus = strategy(true, 3).run(
        StrategyOptions::default(),
        &Formula::uct(),
        &grammar,
        &mut rng,
        uct_is_best,
    );
    assert_eq!(plus.best.formula, Formula::uct());
    assert_eq!(plus.best.fitness, Some(1.0));
    assert_eq!(plus.evaluations, 13);
    assert_eq!(plus.best_ever.unwrap().formula, Formula::uct());
}

#[test]
fn plus_never_gets_worse_and_comma_can() {
    // Fitness: shorter is better, exactly.
    let shorter = |f: &Formula| -(f.size() as f64);
    let grammar = Grammar::paper();
    for seed in 0..20 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let plus = strategy(true, 20).run(
            StrategyOptions::default(),
            &Formula::uct(),
            &grammar,
            &mut rng,
            shorter,
        );
        let history = plus.history.unwrap();
        let fitness_of = |id: usize| history.individuals[id].fitness.unwrap();
        let best_per_generation: Vec<f64> = history
            .survivors
            .iter()
            .map(|ids| fitness_of(ids[0]))
            .collect();
        assert!(
            best_per_generation.windows(2).all(|w| w[1] >= w[0]),
            "{best_per_generation:?}"
        );
    }
    let mut comma_got_worse = false;
    for seed in 0..20 {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let comma = strategy(false, 20).run(
            StrategyOptions::default(),
            &Formula::uct(),
            &grammar,
            &mut rng,
            shorter,
        );
        let history = comma.history.unwrap();
        let fitness: Vec<f64> = history.survivors[1..]
            .iter()
            .map(|ids| history.individuals[ids[0]].fitness.unwrap())
            .collect();
        comma_got_worse |= fitness.windows(2).any(|w| w[1] < w[0]);
    }
    assert!(comma_got_worse);
}

#[test]
fn the_paper_strategy_records_every_individual() {
    let grammar = Grammar::paper();
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let es = EvolutionStrategy::paper();
    assert_eq!(
        (es.mu, es.lambda, es.generations, es.plus),
        (1, 4, 20, false)
    );
    let result = es.run(
        StrategyOptions::default(),
        &Formula::uct(),
        &grammar,
        &mut rng,
        |f| -(f.depth() as f64),
    );
    assert_eq!(result.evaluations, 80);
    assert_eq!(es.evaluations_per_run(), 80);
    let history = result.history.unwrap();
    // Seed, one initial (mutated UCT, not evaluated), 80 offspring.
    assert_eq!(history.individuals.len(), 82);
    assert_eq!(history.individuals[0].origin, Origin::Seed);
    assert_eq!(history.individuals[0].formula, Formula::uct());
    assert_eq!(history.individuals[1].origin, Origin::Initial);
    assert_ne!(history.individuals[1].formula, Formula::uct());
    assert_eq!(history.individuals[1].fitness, None);
    assert_eq!(history.survivors.len(), 21);
    for generation in 1..=20 {
        let born: Vec<_> = history.generation(generation).collect();
        assert_eq!(born.len(), 4);
        let parent = history.survivors[generation - 1][0];
        for record in born {
            assert_eq!(record.parent, Some(parent));
            assert_eq!(record.size, record.formula.size());
            assert_eq!(record.depth, record.formula.depth());
            assert!(record.fitness.is_some());
            assert_eq!(grammar.admits(&record.formula), Ok(()));
        }
    }
    let last = history.survivors[20][0];
    assert_eq!(result.best.id, last);
    let graph = history.lineage();
    assert_eq!(graph.node_count(), 82);
    assert_eq!(graph.edge_count(), 81);
    let dot = history.to_dot();
    assert!(dot.starts_with("digraph lineage {"));
    assert!(dot.contains("n0 -> n1;"));
    assert!(dot.contains("Q + 2*C*sqrt(2*ln(N)/n)"));
    // The history serialises (formulas as text).
    let json = serde_json::to_string(&history).unwrap();
    assert!(json.contains("\"Q + 2*C*sqrt(2*ln(N)/n)\""));
}

#[test]
fn runs_are_reproducible_and_recording_is_optional() {
    let grammar = Grammar::paper();
    let fitness = |f: &Formula| {
        f.eval(&evomcts::formula::SelectionInputs::new(
            0.5, 100.0, 10.0, 2.0,
        ))
    };
    let run = |seed, record| {
        let mut es = EvolutionStrategy::paper();
        es.record_history = record;
        es.run(
            StrategyOptions::default(),
            &Formula::uct(),
            &grammar,
            &mut Pcg64Mcg::seed_from_u64(seed),
            fitness,
        )
    };
    assert_eq!(run(9, true), run(9, true));
    let without = run(9, false);
    assert!(without.history.is_none());
    assert_eq!(without.best, run(9, true).best);
}

#[test]
fn larger_populations_and_validation() {
    let grammar = Grammar::paper();
    let es = EvolutionStrategy {
        mu: 3,
        lambda: 7,
        generations: 5,
        plus: false,
        initial: InitialPopulation::MutatedSeed,
        record_history: true,
    };
    let result = es.run(
        StrategyOptions::default(),
        &Formula::uct(),
        &grammar,
        &mut Pcg64Mcg::seed_from_u64(3),
        |f| f.size() as f64,
    );
    let history = result.history.unwrap();
    assert!(history.survivors.iter().all(|ids| ids.len() == 3));
    assert_eq!(result.evaluations, 35);

    let bad = EvolutionStrategy {
        mu: 5,
        lambda: 4,
        ..EvolutionStrategy::paper()
    };
    assert_eq!(
        bad.validate(),
        Err(StrategyError::TooFewOffspring { mu: 5, lambda: 4 })
    );
    assert!(EvolutionStrategy { plus: true, ..bad }.validate().is_ok());
    let ron_text = ron::to_string(&EvolutionStrategy::paper()).unwrap();
    let back: EvolutionStrategy = ron::from_str(&ron_text).unwrap();
    assert_eq!(back, EvolutionStrategy::paper());
}

#[test]
fn nan_fitness_ranks_last() {
    let grammar = Grammar::paper();
    let mut calls = 0;
    let result = strategy(false, 1).run(
        StrategyOptions::default(),
        &Formula::uct(),
        &grammar,
        &mut Pcg64Mcg::seed_from_u64(4),
        |_| {
            calls += 1;
            if calls == 1 {
                f64::NAN
            } else {
                calls as f64
            }
        },
    );
    assert_eq!(result.best.fitness, Some(4.0));
}
