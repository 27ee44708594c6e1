//! Canonical form: never changes a value, is idempotent, and identifies the formulas
//! its rewrites promise to identify. Compiled and tree evaluation agree bit for bit.



use evomcts::formula::{Expr, Formula, SelectionInputs};
use crate::formula_common::{arb_expr, arb_formula, arb_inputs, arb_repetitive_expr};
use proptest::prelude::*;

/// Values are compared exactly; `==` also treats +0 and -0 as equal, the only
/// difference canonicalisation may introduce.
fn same_value(a: f64, b: f64) -> bool {
    a == b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn canonical_never_changes_the_value(formula in arb_formula(), inputs in prop::collection::vec(arb_inputs(), 8)) {
        let canonical = formula.canonical();
        for input in &inputs {
            let before = formula.eval(input);
            let after = canonical.eval(input);
            prop_assert!(before.is_finite());
            prop_assert!(same_value(before, after), "{} = {} but canonical {} = {} on {:?}", formula, before, canonical, after, input);
        }
    }

    #[test]
    fn canonical_keeps_repeated_subtrees_exact(expr in arb_repetitive_expr(), inputs in prop::collection::vec(arb_inputs(), 8)) {
        let formula = Formula::new(expr);
        let canonical = formula.canonical();
        for input in &inputs {
            prop_assert!(same_value(formula.eval(input), canonical.eval(input)), "{} vs {} on {:?}", formula, canonical, input);
        }
    }

    #[test]
    fn canonical_is_idempotent_and_never_grows(formula in arb_formula()) {
        let once = formula.canonical();
        prop_assert_eq!(once.canonical(), once.clone());
        prop_assert!(once.size() <= formula.size());
        prop_assert!(once.depth() <= formula.depth());
    }

    #[test]
    fn canonical_round_trips_through_text(formula in arb_formula()) {
        let canonical = formula.canonical();
        prop_assert_eq!(Formula::parse(&canonical.to_string()).unwrap(), canonical);
    }

    #[test]
    fn compiled_matches_tree_bit_for_bit(expr in arb_expr(), c_e in prop::option::of(-5.0..5.0f64), inputs in prop::collection::vec(arb_inputs(), 8)) {
        let formula = Formula::new(expr).with_c_e(c_e);
        let compiled = formula.compile().unwrap();
        for input in &inputs {
            prop_assert_eq!(formula.eval(input).to_bits(), compiled.eval(input).to_bits());
        }
        // The batch evaluator agrees too, including groups with awkward lanes.
        let mut batch = inputs.clone();
        batch.extend(inputs.iter().map(|i| SelectionInputs { q: i.q * 0.5, ..*i }));
        batch.truncate(13);
        let mut out = vec![0.0; batch.len()];
        compiled.eval_batch(&batch, &mut out);
        for (input, value) in batch.iter().zip(&out) {
            prop_assert_eq!(formula.eval(input).to_bits(), value.to_bits());
        }
    }
}

fn canonical(text: &str) -> String {
    Formula::parse(text).unwrap().canonical().to_string()
}

#[test]
fn best_index_picks_the_highest_score_first_on_ties() {
    let compiled = Formula::uct().compile().unwrap();
    let children: Vec<SelectionInputs> = (1..=20)
        .map(|k| SelectionInputs::new(if k == 7 { 0.9 } else { 0.1 }, 100.0, 10.0, 0.0))
        .collect();
    let mut scratch = vec![0.0; children.len()];
    assert_eq!(compiled.best_index(&children, &mut scratch), Some(6));
    assert_eq!(compiled.best_index(&[], &mut []), None);
    let ties = vec![SelectionInputs::new(0.5, 10.0, 2.0, 1.0); 3];
    assert_eq!(compiled.best_index(&ties, &mut [0.0; 3]), Some(0));
}

#[test]
fn identities_and_folding() {
    assert_eq!(canonical("Q*1 + 0"), "Q");
    assert_eq!(canonical("Q - Q + n"), "n");
    assert_eq!(canonical("(N + n)/(N + n)*Q"), "Q");
    assert_eq!(canonical("n + Q"), "Q + n");
    assert_eq!(canonical("Q + n"), "Q + n");
    assert_eq!(canonical("ln(N)*2"), "2*ln(N)");
    assert_eq!(canonical("Q + Q"), "2*Q");
    assert_eq!(canonical("2*3 + sqrt(4)"), "8");
    assert_eq!(canonical("1/0"), "1");
    assert_eq!(canonical("ln(0)"), format!("({})", 0.001f64.ln()));
    assert_eq!(canonical("min(Q, Q)"), "Q");
    assert_eq!(canonical("Q*0 + N"), "N");
    assert_eq!(
        canonical("Q + 2*C*sqrt(2*ln(N)/n)"),
        "Q + 2*C*sqrt(2*ln(N)/n)"
    );
    // Different spellings of the same UCT count once.
    assert_eq!(
        canonical("C*2*sqrt(ln(N)*2/n)*1 + Q"),
        canonical("Q + 2*C*sqrt(2*ln(N)/n)")
    );
    // An own C_E that no longer matters is dropped; one that matters is kept.
    assert_eq!(canonical("Q + (C - C) [C=5]"), "Q");
    assert_eq!(canonical("Q + C [C=5]"), "Q + C [C=5]");
}

#[test]
fn reassociation_is_not_claimed() {
    // (a + b) + c and a + (b + c) can differ in floating point, so they stay apart.
    let left = Formula::parse("(Q + N) + n").unwrap().canonical();
    let right = Formula::parse("Q + (N + n)").unwrap().canonical();
    assert_ne!(left, right);
    let inputs = SelectionInputs::new(1e16, 1.0, 1.0, 0.0);
    assert_ne!(left.eval(&inputs), right.eval(&inputs));
}

#[test]
fn canonical_constants_have_no_negative_zero() {
    let formula = Formula::new(Expr::binary(
        evomcts::formula::BinaryOp::Mul,
        Expr::Const(-1.0),
        Expr::Const(0.0),
    ));
    match formula.canonical().expr() {
        Expr::Const(v) => assert!(v.is_sign_positive()),
        other => panic!("not folded: {other}"),
    }
}
