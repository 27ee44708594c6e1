//! Mutation over many draws: one change per offspring, never a copy of the parent,
//! only grammar material, depth cap respected, reproducible from the seed.

use evomcts::formula::{mutate, random_formula, Expr, Formula, Grammar, Terminal};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The smallest pair of corresponding subtrees outside which the two trees agree
/// (`None` when the trees are equal).
fn replaced_subtree<'a>(a: &'a Expr, b: &'a Expr) -> Option<(&'a Expr, &'a Expr)> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Expr::Unary(f, x), Expr::Unary(g, y)) if f == g => replaced_subtree(x, y),
        (Expr::Binary(f, x1, x2), Expr::Binary(g, y1, y2)) if f == g => {
            match (replaced_subtree(x1, y1), replaced_subtree(x2, y2)) {
                (Some(inner), None) | (None, Some(inner)) => Some(inner),
                _ => Some((a, b)),
            }
        }
        _ => Some((a, b)),
    }
}

/// Depth of a tree whose leaves all sit at the same depth ("full" growth).
fn full_depth(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Const(_) | Expr::Term(_) => Some(0),
        Expr::Unary(_, x) => full_depth(x).map(|d| d + 1),
        Expr::Binary(_, a, b) => match (full_depth(a), full_depth(b)) {
            (Some(x), Some(y)) if x == y => Some(x + 1),
            _ => None,
        },
    }
}

fn check_many_draws(grammar: &Grammar, draws: usize, seed: u64) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut parent = Formula::uct();
    let mut subtree = 0;
    let mut point = 0;
    for i in 0..draws {
        if i % 50 == 0 {
            let depth = rng.gen_range(0..=grammar.depth_cap());
            parent = random_formula(grammar, depth, &mut rng);
        }
        let child = mutate(&parent, grammar, &mut rng);
        assert_ne!(child, parent, "offspring equals parent");
        assert!(
            child.depth() <= grammar.depth_cap(),
            "{child} deeper than the cap"
        );
        assert_eq!(grammar.admits(&child), Ok(()), "{child}");
        // One change: a leaf became another leaf (point mutation), or some subtree
        // became part of a freshly grown full tree (subtree mutation), or only the C_E
        // value was redrawn.
        match replaced_subtree(parent.expr(), child.expr()) {
            None => assert_ne!(child.c_e(), parent.c_e(), "{parent} -> {child}"),
            Some((old, new)) if old.is_leaf() && new.is_leaf() => point += 1,
            Some((_, new)) => {
                let depth = full_depth(new);
                assert!(
                    depth.is_some_and(|d| d <= grammar.subtree_depth().max),
                    "{parent} -> {child}: {new} is not a grown subtree"
                );
                subtree += 1;
            }
        }
        if child.c_e().is_some() {
            assert!(child.uses(Terminal::ExplorationConstant));
            assert!(grammar.c_e_values().contains(&child.c_e().unwrap()));
        }
        // Walk on so parents of all shapes are tried.
        parent = child;
    }
    assert!(
        subtree > draws / 2 && point > draws / 50,
        "subtree {subtree}, point {point}"
    );
}

#[test]
fn paper_grammar_over_many_draws() {
    check_many_draws(&Grammar::paper(), 20_000, 1);
}

#[test]
fn extra_terminal_grammar_over_many_draws() {
    check_many_draws(&Grammar::ucb1_tuned(), 20_000, 2);
}

#[test]
fn a_low_depth_cap_is_respected() {
    let mut spec = Grammar::paper().to_spec();
    spec.depth_cap = 3;
    spec.subtree_depth.max = 3;
    check_many_draws(&Grammar::from_spec(spec).unwrap(), 10_000, 3);
}

#[test]
fn a_seed_deeper_than_the_cap_never_grows() {
    let mut spec = Grammar::paper().to_spec();
    spec.depth_cap = 5;
    let grammar = Grammar::from_spec(spec).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let uct = Formula::uct();
    for _ in 0..5000 {
        let child = mutate(&uct, &grammar, &mut rng);
        assert!(child.depth() <= uct.depth(), "{child}");
        assert_ne!(child, uct);
    }
}

#[test]
fn point_mutation_of_c_draws_from_the_set() {
    let mut spec = Grammar::paper().to_spec();
    spec.internal_node_probability = 0.0;
    let grammar = Grammar::from_spec(spec).unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let parent = Formula::parse("C").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let child = mutate(&parent, &grammar, &mut rng);
        if let Some(c_e) = child.c_e() {
            assert_eq!(child.expr(), parent.expr());
            seen.insert((c_e * 100.0) as i64);
        }
    }
    assert_eq!(seen.len(), 8, "every C_E value is drawn: {seen:?}");
}

#[test]
fn same_seed_same_offspring() {
    let grammar = Grammar::paper();
    let draw = |seed| {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        (0..100)
            .map(|_| mutate(&Formula::uct(), &grammar, &mut rng).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(7), draw(7));
    assert_ne!(draw(7), draw(8));
}

#[test]
fn a_grammar_with_a_single_choice_falls_back_deterministically() {
    let text = r#"Grammar(name: "tiny", functions: ["sqrt"], terminals: ["Q"], constants: [],
        c_e_values: [], depth_cap: 2, subtree_depth: (min: 1, max: 1), internal_node_probability: 0.5)"#;
    let grammar = Grammar::from_ron(text, "tiny").unwrap();
    let mut rng = Pcg64Mcg::seed_from_u64(6);
    // sqrt(Q) can only become sqrt(Q) or Q-less variants that do not exist: the
    // parent comes back after the bounded redraws.
    let parent = Formula::parse("sqrt(Q)").unwrap();
    assert_eq!(mutate(&parent, &grammar, &mut rng), parent);
    // With a second leaf the fallback finds a change.
    let text = text.replace("constants: []", "constants: [1.0]");
    let grammar = Grammar::from_ron(&text, "tiny").unwrap();
    assert_ne!(mutate(&parent, &grammar, &mut rng), parent);
}

/// The features grammar with perturbation at `probability` (and its stated bounds).
fn perturbing(probability: f64) -> Grammar {
    let text = std::fs::read_to_string("grammars/carcassonne_features.ron").unwrap();
    let mut spec = Grammar::from_ron(&text, "carcassonne_features.ron")
        .unwrap()
        .to_spec();
    let perturbation = spec.constant_perturbation.as_mut().unwrap();
    perturbation.probability = probability;
    Grammar::from_spec(spec).unwrap()
}

/// The tree with every constant set to 0: what a perturbation leaves alone.
fn shape(expr: &Expr) -> Expr {
    match expr {
        Expr::Const(_) => Expr::Const(0.0),
        Expr::Term(t) => Expr::Term(*t),
        Expr::Unary(op, x) => Expr::unary(*op, shape(x)),
        Expr::Binary(op, a, b) => Expr::binary(*op, shape(a), shape(b)),
    }
}

fn constants(expr: &Expr, out: &mut Vec<f64>) {
    match expr {
        Expr::Const(v) => out.push(*v),
        Expr::Term(_) => {}
        Expr::Unary(_, x) => constants(x, out),
        Expr::Binary(_, a, b) => {
            constants(a, out);
            constants(b, out);
        }
    }
}

#[test]
fn constant_perturbation_scales_one_constant_within_the_bounds() {
    let grammar = perturbing(1.0);
    let bounds = grammar.constant_perturbation().unwrap();
    let parent: Formula = "Q + 30*(H + 0.05*R - 0.1*F)/(n + 1)".parse().unwrap();
    let mut before = Vec::new();
    constants(parent.expr(), &mut before);
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut current = parent.clone();
    for _ in 0..2000 {
        let offspring = mutate(&current, &grammar, &mut rng);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        constants(current.expr(), &mut a);
        constants(offspring.expr(), &mut b);
        assert_eq!(a.len(), b.len(), "{current} -> {offspring}");
        let changed: Vec<(f64, f64)> = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| x != y)
            .map(|(&x, &y)| (x, y))
            .collect();
        assert_eq!(
            changed.len(),
            1,
            "one constant changes: {current} -> {offspring}"
        );
        let (old, new) = changed[0];
        assert_eq!(old.signum(), new.signum(), "the sign is kept");
        assert!(
            (bounds.min..=bounds.max).contains(&new.abs()),
            "{new} out of bounds"
        );
        // Only the constant changed: the rest of the tree is the parent's.
        assert_eq!(shape(current.expr()), shape(offspring.expr()));
        current = offspring;
    }
    // A long chain of perturbations reaches both bounds' neighbourhoods from 0.05.
    let mut reached = Vec::new();
    constants(current.expr(), &mut reached);
    assert!(reached
        .iter()
        .all(|v| v.abs() >= bounds.min && v.abs() <= bounds.max));
}

#[test]
fn constant_perturbation_is_reproducible_and_absent_without_the_option() {
    let grammar = perturbing(0.3);
    let parent: Formula = "Q + 30*(H + 0.05*R)/(n + 1)".parse().unwrap();
    let run = |seed: u64| {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        (0..200)
            .map(|_| mutate(&parent, &grammar, &mut rng).to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
    // About 30% perturbations (and about 1% point mutations of a constant into another):
    // offspring of the parent's shape.
    let parent_shape = shape(parent.expr());
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let perturbed = (0..200)
        .filter(|_| shape(mutate(&parent, &grammar, &mut rng).expr()) == parent_shape)
        .count();
    assert!((40..=85).contains(&perturbed), "{perturbed} of 200");
    // Without the option, the same draws as a grammar that never had it: the written
    // grammar has no such field and mutation draws no number for it.
    let mut spec = grammar.to_spec();
    spec.constant_perturbation = None;
    let plain = Grammar::from_spec(spec).unwrap();
    assert!(!plain.to_ron().contains("constant_perturbation"));
    let knowledge = std::fs::read_to_string("grammars/carcassonne_knowledge.ron").unwrap();
    let knowledge = Grammar::from_ron(&knowledge, "carcassonne_knowledge.ron").unwrap();
    let mut a = Pcg64Mcg::seed_from_u64(3);
    let mut b = Pcg64Mcg::seed_from_u64(3);
    let mut spec = knowledge.to_spec();
    spec.constant_perturbation = None;
    let same = Grammar::from_spec(spec).unwrap();
    for _ in 0..100 {
        assert_eq!(
            mutate(&parent, &knowledge, &mut a),
            mutate(&parent, &same, &mut b)
        );
    }
}

#[test]
fn constant_perturbation_settings_are_checked() {
    for (setting, field_text) in [
        (
            "(probability: 1.5, sigma: 0.5, min: 0.001, max: 1000.0)",
            "probability 1.5",
        ),
        (
            "(probability: 0.3, sigma: 0.0, min: 0.001, max: 1000.0)",
            "sigma 0",
        ),
        (
            "(probability: 0.3, sigma: 0.5, min: 0.0, max: 1000.0)",
            "min: 0",
        ),
        (
            "(probability: 0.3, sigma: 0.5, min: 2.0, max: 1.0)",
            "min: 2",
        ),
    ] {
        let text = format!(
            r#"Grammar(name: "g", functions: ["+"], terminals: ["Q"], constants: [1.0], c_e_values: [], depth_cap: 4, subtree_depth: (min: 1, max: 2), internal_node_probability: 0.9, constant_perturbation: {setting})"#
        );
        let error = Grammar::from_ron(&text, "g.ron").unwrap_err().to_string();
        assert!(error.contains("constant_perturbation"), "{error}");
        assert!(error.contains(field_text), "{error}");
    }
}
