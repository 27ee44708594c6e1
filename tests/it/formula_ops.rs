//! Protected operators and total evaluation: 0, negatives, tiny and huge inputs,
//! NaN and infinities never leak out of a formula.

use evomcts::formula::ops;
use evomcts::formula::{Formula, SelectionInputs};

const AWKWARD: [f64; 14] = [
    0.0,
    -0.0,
    -1.0,
    -2.5,
    1e-300,
    -1e-300,
    f64::MIN_POSITIVE,
    0.0009,
    0.001,
    1e300,
    -1e300,
    f64::MAX,
    f64::INFINITY,
    f64::NAN,
];

#[test]
fn division_is_one_for_tiny_divisors() {
    assert_eq!(ops::div(5.0, 0.0), 1.0);
    assert_eq!(ops::div(5.0, -0.0), 1.0);
    assert_eq!(ops::div(5.0, 0.0009), 1.0);
    assert_eq!(ops::div(5.0, -0.0009), 1.0);
    assert_eq!(ops::div(5.0, 1e-300), 1.0);
    assert_eq!(ops::div(5.0, f64::NAN), 1.0);
    // At the threshold the division is real.
    assert_eq!(ops::div(5.0, 0.001), 5.0 / 0.001);
    assert_eq!(ops::div(-6.0, -2.0), 3.0);
    assert_eq!(ops::div(6.0, -2.0), -3.0);
}

#[test]
fn division_overflow_is_clamped() {
    assert_eq!(ops::div(1e306, 0.001), f64::MAX);
    assert_eq!(ops::div(-1e306, 0.001), -f64::MAX);
    assert_eq!(ops::div(1e300, 0.001), 1e300 / 0.001);
    assert_eq!(ops::div(0.0, 1e300), 0.0);
}

#[test]
fn ln_takes_absolute_value_and_floors_at_one_thousandth() {
    let floor = 0.001f64.ln();
    assert_eq!(ops::ln(0.0), floor);
    assert_eq!(ops::ln(-0.0), floor);
    assert_eq!(ops::ln(1e-300), floor);
    assert_eq!(ops::ln(-1e-300), floor);
    assert_eq!(ops::ln(0.0005), floor);
    assert_eq!(ops::ln(f64::NAN), floor);
    assert_eq!(ops::ln(-std::f64::consts::E), 1.0);
    assert_eq!(ops::ln(std::f64::consts::E), 1.0);
    assert_eq!(ops::ln(f64::MAX), f64::MAX.ln());
    assert_eq!(ops::ln(f64::INFINITY), f64::MAX);
    assert_eq!(ops::ln(1.0), 0.0);
}

#[test]
fn sqrt_takes_absolute_value() {
    assert_eq!(ops::sqrt(0.0), 0.0);
    assert_eq!(ops::sqrt(-4.0), 2.0);
    assert_eq!(ops::sqrt(4.0), 2.0);
    assert_eq!(ops::sqrt(-1e-300), 1e-150);
    assert_eq!(ops::sqrt(f64::MAX), f64::MAX.sqrt());
    assert_eq!(ops::sqrt(f64::NEG_INFINITY), f64::MAX);
    assert_eq!(ops::sqrt(f64::NAN), 0.0);
}

#[test]
fn arithmetic_saturates_instead_of_overflowing() {
    assert_eq!(ops::add(f64::MAX, f64::MAX), f64::MAX);
    assert_eq!(ops::sub(-f64::MAX, f64::MAX), -f64::MAX);
    assert_eq!(ops::mul(1e300, 1e300), f64::MAX);
    assert_eq!(ops::mul(-1e300, 1e300), -f64::MAX);
    assert_eq!(ops::mul(1e-300, 1e-300), 0.0);
    assert_eq!(ops::add(f64::INFINITY, f64::NEG_INFINITY), 0.0);
    assert_eq!(ops::mul(0.0, f64::INFINITY), 0.0);
    assert_eq!(ops::finite(f64::NAN), 0.0);
    assert_eq!(ops::finite(f64::NEG_INFINITY), -f64::MAX);
}

#[test]
fn every_operator_is_finite_on_awkward_inputs() {
    for &a in &AWKWARD {
        for &b in &AWKWARD {
            for value in [
                ops::add(a, b),
                ops::sub(a, b),
                ops::mul(a, b),
                ops::div(a, b),
                ops::min(a, b),
                ops::max(a, b),
                ops::ln(a),
                ops::sqrt(a),
            ] {
                assert!(value.is_finite(), "{a} {b} gave {value}");
            }
        }
    }
}

#[test]
fn formulas_are_finite_on_awkward_inputs() {
    let formulas = [
        Formula::uct(),
        "ln(n)/ln(N) - sqrt(Q/n)*C".parse().unwrap(),
        "N*N*N*N*N*N*N*N*N*N*N/(n - n) + 1e300*1e300"
            .parse()
            .unwrap(),
        "ln(ln(ln(0))) / sqrt(V - P) * K".parse().unwrap(),
        "min(Q, max(V, 1/(K - K)))".parse().unwrap(),
    ];
    for formula in &formulas {
        let compiled = formula.compile().unwrap();
        for &x in &AWKWARD {
            for &y in &AWKWARD {
                let inputs = SelectionInputs {
                    q: x,
                    parent_visits: y,
                    child_visits: x,
                    c_e: y,
                    reward_variance: y,
                    parent_q: x,
                    siblings: y,
                    heuristic: y,
                    prior: x,
                    features: [x, y, x, y, x, y, x],
                };
                let value = formula.eval(&inputs);
                assert!(value.is_finite(), "{formula} on {inputs:?} gave {value}");
                assert_eq!(value.to_bits(), compiled.eval(&inputs).to_bits());
            }
        }
    }
}

#[test]
fn uct_matches_the_textbook_value() {
    let inputs = SelectionInputs::new(0.4, 10.0, 3.0, 2.0);
    let expected = 0.4 + 2.0 * 2.0 * (2.0 * 10f64.ln() / 3.0).sqrt();
    assert!((Formula::uct().eval(&inputs) - expected).abs() < 1e-12);
    // The formula's own C_E overrides the controller's.
    let own = Formula::uct().with_c_e(Some(5.0));
    let expected = 0.4 + 2.0 * 5.0 * (2.0 * 10f64.ln() / 3.0).sqrt();
    assert!((own.eval(&inputs) - expected).abs() < 1e-12);
    assert!((own.compile().unwrap().eval(&inputs) - expected).abs() < 1e-12);
}
