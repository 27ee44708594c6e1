//! Tests of `behaviour`: grouping and naming on seeded banks built here.

use super::*;
use crate::enumerate::enumerate;
use crate::grammar::{DepthRange, Grammar, GrammarSpec};
use crate::SelectionInputs;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `sets` sibling sets of 2 to 6 children: visits 1 to 20, the parent's visits their sum, Q a
/// multiple of 0.1 in [0, 1] (so Q ties often), C_E 1.
fn bank(sets: usize, seed: u64) -> SiblingSets {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bank = SiblingSets::new();
    for _ in 0..sets {
        let k = rng.gen_range(2..=6);
        let children: Vec<(f64, f64)> = (0..k)
            .map(|_| {
                (
                    rng.gen_range(0..=10) as f64 / 10.0,
                    rng.gen_range(1..=20) as f64,
                )
            })
            .collect();
        let parent: f64 = children.iter().map(|c| c.1).sum();
        bank.push_set(
            children
                .into_iter()
                .map(|(q, n)| SelectionInputs::new(q, parent, n, 1.0)),
        );
    }
    bank
}

fn form(text: &str) -> Form {
    Form::of(&Formula::parse(text).unwrap())
}

fn named(text: &str, bank: &SiblingSets) -> Behaviour {
    name(&Formula::parse(text).unwrap(), bank).unwrap()
}

#[test]
fn monotone_transforms_share_a_class_and_exploration_does_not() {
    let bank = bank(300, 1);
    let forms: Vec<Form> = ["Q + C*sqrt(ln(N)/n)", "sqrt(Q)", "2*Q", "Q"]
        .iter()
        .map(|t| form(t))
        .collect();
    let classes = group(&forms, &bank, &[1.0]);
    assert_eq!(classes.len(), 2, "{classes:?}");
    // The simplest member represents, whatever the input order.
    assert_eq!(classes[0].representative.text(), "Q");
    assert_eq!(classes[0].members, 3);
    assert_eq!(classes[1].representative.text(), "Q + C*sqrt(ln(N)/n)");
    assert_eq!(classes[1].members, 1);
    // The key is the fingerprint at the one value.
    let q = CompiledFormula::new(&Formula::parse("Q").unwrap()).unwrap();
    assert_eq!(classes[0].fingerprint, fingerprint(&q, &bank));
}

#[test]
fn a_form_whose_ranking_depends_on_its_constant_splits_at_several_values() {
    let bank = bank(300, 2);
    let forms = [form("Q"), form("Q + 0.3*n")];
    // `{W1}*n + Q` at 0.0001 breaks Q's ties towards the more visited child, unlike Q.
    assert_eq!(group(&forms, &bank, &[0.0001]).len(), 2);
    // `{W1}*Q` ranks as Q at any positive value.
    let scaled = [form("3*Q"), form("Q")];
    assert_eq!(group(&scaled, &bank, &[0.5, 2.0]).len(), 1);
    // `{W1}*Q + n` is Q + n at 1 but ranks by n at 0.0001.
    let forms = [form("Q + n"), form("2*Q + n")];
    assert_eq!(group(&forms, &bank, &[1.0]).len(), 1);
    assert_eq!(group(&forms, &bank, &[1.0, 0.0001]).len(), 2);
}

#[test]
fn classes_of_an_enumeration_keep_its_simplest_member() {
    let grammar = Grammar::from_spec(GrammarSpec {
        name: "t".into(),
        description: String::new(),
        functions: vec!["+".into(), "*".into()],
        terminals: vec!["Q".into(), "n".into()],
        constants: vec![2.0],
        c_e_values: vec![1.0],
        depth_cap: 8,
        subtree_depth: DepthRange { min: 1, max: 2 },
        internal_node_probability: 0.9,
        constant_perturbation: None,
    })
    .unwrap();
    let e = enumerate(&grammar, 3, 1000).unwrap();
    let bank = bank(300, 3);
    let classes = classes(&e, &bank, &[1.0]);
    let members: usize = classes.iter().map(|c| c.members).sum();
    assert_eq!(members, e.forms().len());
    // Q ∈ [0, 1]: {W1}*Q, {W1} + Q (at 1) and Q*Q rank as Q does.
    let q = classes
        .iter()
        .find(|c| c.representative.text() == "Q")
        .unwrap();
    assert_eq!(q.members, 4, "{classes:?}");
    assert!(classes
        .windows(2)
        .all(|w| (w[0].representative.size(), w[0].representative.text())
            < (w[1].representative.size(), w[1].representative.text())));
}

#[test]
fn greedy_formulas_are_named_with_their_tie_rule() {
    let bank = bank(300, 4);
    assert_eq!(named("Q", &bank), Behaviour::Greedy(Ties::First));
    assert_eq!(named("2*Q", &bank), Behaviour::Greedy(Ties::First));
    assert_eq!(
        named("Q", &bank).to_string(),
        "ranks as greedy Q, first child on ties"
    );
    let more = named("Q + 0.0001*n", &bank);
    assert_eq!(more, Behaviour::Greedy(Ties::MoreVisited));
    assert_eq!(more.to_string(), "ranks as greedy Q, more-visited on ties");
    assert_eq!(
        named("Q - 0.0001*n", &bank),
        Behaviour::Greedy(Ties::LessVisited)
    );
    // Without ties every rule agrees.
    let mut untied = SiblingSets::new();
    untied.push_set([
        SelectionInputs::new(0.1, 5.0, 2.0, 1.0),
        SelectionInputs::new(0.7, 5.0, 3.0, 1.0),
    ]);
    assert_eq!(named("Q", &untied).to_string(), "ranks as greedy Q");
    assert_eq!(named("n", &bank), Behaviour::MostVisited);
    assert_eq!(named("Q", &SiblingSets::new()), Behaviour::NoSets);
}

#[test]
fn uct_with_its_constant_written_out_is_named_at_that_constant() {
    let bank = bank(300, 5);
    let Behaviour::Uct(cs) = named("Q + 2*0.3*sqrt(2*ln(N)/n)", &bank) else {
        panic!("not named as UCT");
    };
    assert!(cs.contains(&0.3), "{cs:?}");
    assert!(cs.iter().all(|c| (0.2..=0.5).contains(c)), "{cs:?}");
    // C is the bank's C_E, 1.
    let Behaviour::Uct(cs) = named("Q + 2*C*sqrt(2*ln(N)/n)", &bank) else {
        panic!("not named as UCT");
    };
    assert!(cs.contains(&1.0), "{cs:?}");
}

#[test]
fn a_share_just_below_one_is_not_printed_as_a_hundred_percent() {
    let b = Behaviour::Closest {
        reference: Reference::MostVisited,
        agreeing: 1999,
        sets: 2000,
    };
    assert_eq!(
        b.to_string(),
        "agrees with most visited (argmax n) on 99.9% of sets"
    );
    assert!((b.agreement() - 0.9995).abs() < 1e-12);
}

#[test]
fn a_formula_matching_nothing_gets_its_closest_reference_and_share() {
    let bank = bank(300, 6);
    let b = named("Q + 0.3*n", &bank);
    let Behaviour::Closest {
        reference,
        agreeing,
        sets,
    } = b.clone()
    else {
        panic!("{b}");
    };
    assert_eq!(sets, 300);
    assert!(agreeing < sets);
    let theirs = choices(&CompiledFormula::new(&reference.formula()).unwrap(), &bank);
    let own = choices(
        &CompiledFormula::new(&Formula::parse("Q + 0.3*n").unwrap()).unwrap(),
        &bank,
    );
    assert_eq!(
        own.iter().zip(&theirs).filter(|(a, b)| a == b).count(),
        agreeing
    );
    // No reference agrees more.
    for r in Reference::all() {
        let picks = choices(&CompiledFormula::new(&r.formula()).unwrap(), &bank);
        assert!(own.iter().zip(&picks).filter(|(a, b)| a == b).count() <= agreeing);
    }
    assert!(
        b.to_string()
            .starts_with(&format!("agrees with {reference} on ")),
        "{b}"
    );
    assert!(b.to_string().ends_with("% of sets"), "{b}");
    let permille = agreeing * 1000 / 300;
    let share = format!(" on {}.{}% of sets", permille / 10, permille % 10);
    assert!(b.to_string().contains(&share), "{b}");
}
