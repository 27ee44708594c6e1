//! Native formula code (Cranelift): bit-for-bit agreement with the tree evaluator on
//! random formulas and awkward inputs, the cases where a non-finite value could hide,
//! shared and dropped code, and use from several threads.

use crate::formula_common::{arb_formula, arb_inputs, arb_repetitive_expr};
use evomcts::formula::{CompiledFormula, Formula, SelectionInputs};
use proptest::prelude::*;

const AWKWARD: [f64; 16] = [
    0.0,
    -0.0,
    -1.0,
    2.5,
    1e-300,
    -1e-300,
    f64::MIN_POSITIVE,
    0.0009,
    0.001,
    400.0,
    1e300,
    -1e300,
    f64::MAX,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

fn native(text: &str) -> (Formula, CompiledFormula) {
    let formula: Formula = text.parse().unwrap();
    let compiled = formula.compile_native().unwrap();
    (formula, compiled)
}

fn assert_same(formula: &Formula, compiled: &CompiledFormula, inputs: &SelectionInputs) {
    let expected = formula.eval(inputs);
    let actual = compiled.eval(inputs);
    assert_eq!(
        expected.to_bits(),
        actual.to_bits(),
        "{formula} on {inputs:?}: tree {expected}, native {actual}"
    );
}

#[test]
#[cfg(all(feature = "jit", any(target_arch = "x86_64", target_arch = "aarch64")))]
fn this_host_gets_native_code() {
    assert!(Formula::uct().compile_native().unwrap().has_native_code());
    assert!(!Formula::uct().compile().unwrap().has_native_code());
}

/// Native code and the interpreter against the tree evaluator.
#[test]
fn awkward_inputs_on_every_operator_agree_with_the_tree() {
    let texts = [
        "Q + 2*C*sqrt(2*ln(N)/n)",
        "Q + 2*C*sqrt(2*ln(N)/(n + sqrt(n*ln(N))))",
        // Division absorbs: x/∞ = 0, and a protected divisor hides the dividend.
        "Q / N",
        "(Q * N) / (n - n + 0.0001)",
        "Q / (N * n)",
        // min and max absorb NaN and may drop ∞.
        "min(Q, N) + max(n, 1)",
        "min(Q*N, 1) - max(n*n, -1)",
        // ln of NaN and of ∞, sqrt of ∞.
        "ln(Q*N) + sqrt(n*n)",
        "ln(ln(ln(0))) / sqrt(V - P) * K",
        "N*N*N*N*N*N*N*N*N*N*N/(n - n) + 1e300*1e300",
        "Q",
        "-1 * Q",
        "2 + 3",
        "ln(C) * Q",
    ];
    for text in texts {
        let (formula, compiled) = native(text);
        for own in [None, Some(5.0)] {
            let formula = formula.clone().with_c_e(own);
            let compiled = if own.is_some() {
                formula.compile_native().unwrap()
            } else {
                compiled.clone()
            };
            // The interpreter's fast path rests on the same argument; check it here too.
            let interpreted = formula.compile().unwrap();
            for &x in &AWKWARD {
                for &y in &AWKWARD {
                    for &z in &[1.0, 0.0, f64::NAN, f64::INFINITY, -3.0] {
                        let inputs = SelectionInputs {
                            q: x,
                            parent_visits: y,
                            child_visits: z,
                            c_e: y,
                            reward_variance: z,
                            parent_q: x,
                            siblings: z,
                            heuristic: x,
                            prior: y,
                            features: [z, x, y, z, x, y, z],
                        };
                        assert_same(&formula, &compiled, &inputs);
                        assert_same(&formula, &interpreted, &inputs);
                    }
                }
            }
        }
    }
}

#[test]
fn repeated_subtrees_are_shared_without_changing_values() {
    // ln(N) appears twice and is computed once; each copy must still see the same value.
    let (formula, compiled) = native("ln(N) / ln(N) + ln(N) * (n - ln(N))");
    for &n in &AWKWARD {
        for &big_n in &AWKWARD {
            let inputs = SelectionInputs::new(0.5, big_n, n, 2.0);
            assert_same(&formula, &compiled, &inputs);
        }
    }
}

#[test]
fn clones_share_code_that_outlives_the_original() {
    let inputs = SelectionInputs::new(0.4, 400.0, 37.0, 2.0);
    let expected = Formula::uct().eval(&inputs);
    let clone = {
        let original = Formula::uct().compile_native().unwrap();
        original.clone()
    };
    assert_eq!(clone.eval(&inputs).to_bits(), expected.to_bits());
    // Code is freed when the last owner drops; many generations of it must not fail.
    for k in 0..500 {
        let formula: Formula = format!("Q + {k}*sqrt(ln(N)/n)").parse().unwrap();
        let compiled = formula.compile_native().unwrap();
        assert_same(&formula, &compiled, &inputs);
    }
}

#[test]
fn one_compiled_formula_serves_several_threads() {
    let (formula, compiled) = native("Q + 2*C*sqrt(2*ln(N)/(n + sqrt(n*ln(N))))");
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let (formula, compiled) = (&formula, &compiled);
            scope.spawn(move || {
                for k in 0..2000 {
                    let inputs = SelectionInputs::new(
                        0.01 * k as f64,
                        1000.0 + thread as f64,
                        1.0 + k as f64,
                        2.0,
                    );
                    assert_same(formula, compiled, &inputs);
                }
            });
        }
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn native_matches_tree_bit_for_bit(
        formula in arb_formula(),
        inputs in prop::collection::vec(arb_inputs(), 16),
    ) {
        let Ok(compiled) = formula.compile_native() else {
            return Ok(()); // deeper than the interpreter's stack; not a native concern
        };
        for input in &inputs {
            prop_assert_eq!(formula.eval(input).to_bits(), compiled.eval(input).to_bits(),
                "{} on {:?}", formula, input);
        }
    }

    #[test]
    fn native_matches_tree_on_repeated_subtrees(
        expr in arb_repetitive_expr(),
        inputs in prop::collection::vec(arb_inputs(), 16),
    ) {
        let formula = Formula::new(expr);
        let Ok(compiled) = formula.compile_native() else {
            return Ok(());
        };
        for input in &inputs {
            prop_assert_eq!(formula.eval(input).to_bits(), compiled.eval(input).to_bits(),
                "{} on {:?}", formula, input);
        }
    }
}

#[test]
fn min_and_max_agree_on_signed_zeros_and_nan() {
    let values = [0.0, -0.0, 1.0, -1.0, f64::NAN];
    for text in [
        "min(Q, N)",
        "max(Q, N)",
        "min(N, Q)",
        "max(N, Q)",
        "min(Q, -0)",
        "max(0, N)",
    ] {
        let (formula, native) = native(text);
        let interpreted = formula.compile().unwrap();
        for &q in &values {
            for &n in &values {
                let inputs = SelectionInputs::new(q, n, 1.0, 1.0);
                assert_same(&formula, &native, &inputs);
                assert_same(&formula, &interpreted, &inputs);
            }
        }
    }
}
