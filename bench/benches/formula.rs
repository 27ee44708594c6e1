//! Speed of the formula engine: one child scored by a depth-8 formula, UCT through the
//! engine against a hand-written UCT, and a whole paper-sized ES run with a trivial
//! fitness (the overhead evolution adds at every MCTS decision, besides simulations).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use evomcts::formula::{
    mutate, EvolutionStrategy, Formula, Grammar, SelectionInputs, StrategyOptions,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// UCT written by hand, as a search without the formula engine would.
#[inline(never)]
fn hand_written_uct(inputs: &SelectionInputs) -> f64 {
    inputs.q + 2.0 * inputs.c_e * (2.0 * inputs.parent_visits.ln() / inputs.child_visits).sqrt()
}

/// A depth-8 formula reached by mutating UCT, as evolution would.
fn evolved_depth_8() -> Formula {
    let grammar = Grammar::paper();
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut formula = Formula::uct();
    loop {
        let child = mutate(&formula, &grammar, &mut rng);
        if child.depth() == 8 && child.size() >= 15 {
            return child;
        }
        if child.depth() <= 8 {
            formula = child;
        }
    }
}

fn inputs() -> SelectionInputs {
    SelectionInputs::new(0.4, 400.0, 37.0, 2.0)
}

fn child_evaluation(c: &mut Criterion) {
    let inputs = inputs();
    let uct_variant = Formula::parse("Q + 2*C*sqrt(2*ln(N)/(n + sqrt(n*ln(N))))").unwrap();
    assert_eq!(uct_variant.depth(), 8);
    let evolved = evolved_depth_8();
    eprintln!("uct variant: {uct_variant} (size {})", uct_variant.size());
    eprintln!("evolved:     {evolved} (size {})", evolved.size());

    let mut group = c.benchmark_group("formula/eval_one_child");
    for (name, formula) in [
        ("depth8_uct_variant", &uct_variant),
        ("depth8_evolved", &evolved),
    ] {
        let compiled = formula.compile().unwrap();
        group.bench_function(format!("{name}/compiled"), |b| {
            b.iter(|| compiled.eval(black_box(&inputs)))
        });
        let native = formula.compile_native().unwrap();
        // Without the `jit` feature this is the interpreter again; the name says which.
        let tier = if native.has_native_code() {
            "native"
        } else {
            "interpreted_via_native"
        };
        group.bench_function(format!("{name}/{tier}"), |b| {
            b.iter(|| native.eval(black_box(&inputs)))
        });
        group.bench_function(format!("{name}/tree"), |b| {
            b.iter(|| formula.eval(black_box(&inputs)))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("formula/uct");
    let compiled = Formula::uct().compile().unwrap();
    group.bench_function("hand_written", |b| {
        b.iter(|| hand_written_uct(black_box(&inputs)))
    });
    group.bench_function("engine", |b| b.iter(|| compiled.eval(black_box(&inputs))));
    let native = Formula::uct().compile_native().unwrap();
    let name = if native.has_native_code() {
        "engine_native"
    } else {
        "engine_interpreted_via_native"
    };
    group.bench_function(name, |b| b.iter(|| native.eval(black_box(&inputs))));
    group.finish();
}

fn evolution_run(c: &mut Criterion) {
    let grammar = Grammar::paper();
    let inputs = inputs();
    let mut group = c.benchmark_group("formula/es_run_1_4_20");
    for record in [true, false] {
        let es = EvolutionStrategy {
            record_history: record,
            ..EvolutionStrategy::paper()
        };
        let name = if record { "recorded" } else { "unrecorded" };
        let mut seed = 0;
        // Fitness: compile the candidate and score one child, the cheapest honest use.
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                es.run(
                    StrategyOptions::default(),
                    &Formula::uct(),
                    &grammar,
                    &mut rng,
                    |f| f.compile().map_or(f64::NEG_INFINITY, |p| p.eval(&inputs)),
                )
            })
        });
    }
    group.finish();

    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let uct = Formula::uct();
    c.bench_function("formula/mutate_uct", |b| {
        b.iter(|| mutate(black_box(&uct), &grammar, &mut rng))
    });
    c.bench_function("formula/compile_uct", |b| {
        b.iter(|| black_box(&uct).compile())
    });
    c.bench_function("formula/compile_native_uct", |b| {
        b.iter(|| black_box(&uct).compile_native())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = child_evaluation, evolution_run
}
criterion_main!(benches);
