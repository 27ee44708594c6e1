//! Shared proptest strategies for the formula tests: random trees over every operator
//! and terminal, with constants and inputs chosen to hit the protected edges.
#![allow(dead_code)]

use evomcts::formula::{BinaryOp, Expr, Formula, SelectionInputs, Terminal, UnaryOp};
use proptest::prelude::*;

pub fn arb_constant() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(1.0),
        Just(2.0),
        Just(-1.0),
        Just(0.001),
        Just(0.0005),
        Just(1e-300),
        Just(1e300),
        Just(f64::MAX),
        -10.0..10.0f64,
        proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
    ]
}

pub fn arb_input() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => arb_constant(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        2 => 0.0..1000.0f64,
    ]
}

pub fn arb_terminal() -> impl Strategy<Value = Terminal> {
    proptest::sample::select(Terminal::ALL.to_vec())
}

pub fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        arb_constant().prop_map(Expr::Const),
        arb_terminal().prop_map(Expr::Term),
    ];
    leaf.prop_recursive(8, 64, 2, |inner| {
        prop_oneof![
            (
                proptest::sample::select(vec![UnaryOp::Ln, UnaryOp::Sqrt]),
                inner.clone()
            )
                .prop_map(|(op, x)| Expr::unary(op, x)),
            (
                proptest::sample::select(vec![
                    BinaryOp::Add,
                    BinaryOp::Sub,
                    BinaryOp::Mul,
                    BinaryOp::Div,
                    BinaryOp::Min,
                    BinaryOp::Max
                ]),
                inner.clone(),
                inner
            )
                .prop_map(|(op, a, b)| Expr::binary(op, a, b)),
        ]
    })
}

/// Trees that repeat subtrees, so that `x - x`, `x / x`, `x + x` rules fire often.
pub fn arb_repetitive_expr() -> impl Strategy<Value = Expr> {
    (arb_expr(), arb_expr(), 0..6usize).prop_map(|(x, y, shape)| {
        let pair = |op| Expr::binary(op, x.clone(), x.clone());
        match shape {
            0 => Expr::binary(BinaryOp::Add, pair(BinaryOp::Sub), y),
            1 => Expr::binary(BinaryOp::Mul, pair(BinaryOp::Div), y),
            2 => Expr::binary(BinaryOp::Sub, pair(BinaryOp::Add), y),
            3 => Expr::binary(BinaryOp::Mul, y, Expr::Const(0.0)),
            4 => Expr::binary(
                BinaryOp::Add,
                Expr::binary(BinaryOp::Mul, y, Expr::Const(1.0)),
                x,
            ),
            _ => Expr::binary(BinaryOp::Min, pair(BinaryOp::Max), y),
        }
    })
}

pub fn arb_formula() -> impl Strategy<Value = Formula> {
    (
        arb_expr(),
        prop_oneof![Just(None), arb_constant().prop_map(Some)],
    )
        .prop_map(|(expr, c_e)| Formula::new(expr).with_c_e(c_e))
}

pub fn arb_inputs() -> impl Strategy<Value = SelectionInputs> {
    (
        arb_input(),
        arb_input(),
        arb_input(),
        arb_input(),
        arb_input(),
        arb_input(),
        arb_input(),
        arb_input(),
        arb_input(),
        proptest::array::uniform7(arb_input()),
    )
        .prop_map(
            |(
                q,
                parent_visits,
                child_visits,
                c_e,
                reward_variance,
                parent_q,
                siblings,
                heuristic,
                prior,
                features,
            )| {
                SelectionInputs {
                    q,
                    parent_visits,
                    child_visits,
                    c_e,
                    reward_variance,
                    parent_q,
                    siblings,
                    heuristic,
                    prior,
                    features,
                }
            },
        )
}
