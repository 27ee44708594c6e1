//! Canonical form, so that analysis can count formulas that are written differently
//! but are the same function as one.
//!
//! Every rewrite here is *exactly* value-preserving under the protected evaluation of
//! [`super::ops`], for every input; the property tests check bit-for-bit equality of
//! values (up to the sign of zero). That rules out reassociation (`(a+b)+c` vs
//! `a+(b+c)` round differently), so the form is sound but not complete: two formulas
//! with equal canonical forms always agree, but some equivalent formulas stay apart.
//!
//! Rewrites, applied bottom-up:
//! - constant folding with the same protected operators evaluation uses;
//! - `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x / 1`, `min(x, x)`, `max(x, x)` → `x`;
//! - `x * 0`, `0 * x`, `x - x` → `0`, and `x / x` → `1`;
//! - `x + x` → `2 * x`;
//! - operands of `+`, `*`, `min`, `max` sorted: constants, then terminals (`Q N n C V P K`),
//!   then binary nodes, then function calls, so that `n + Q` and `Q + n` coincide.
//!
//! These are exact because every intermediate value is finite (overflow is clamped and
//! NaN cannot arise): for finite `x`, `x - x`, `0 * x`, `x + 0` and `x * 1` are exact in
//! IEEE arithmetic, `x / x` is 1 (or protected to 1 when `|x| < 0.001`), `x + x` and
//! `2 * x` round and clamp identically, and `+`, `*`, `min`, `max` are commutative.
//! Equal subtrees always evaluate equally because evaluation is a pure function of the
//! subtree and of the inputs.

use std::cmp::Ordering;

use super::ops;
use super::tree::{BinaryOp, Expr, Formula, Terminal};

impl Formula {
    /// The canonical form: same value for every input, a single spelling for the
    /// formulas the rewrites above identify. A formula that no longer contains `C`
    /// drops its own C_E, since the value cannot matter.
    pub fn canonical(&self) -> Formula {
        let expr = canonical_expr(self.expr());
        let c_e = if expr.contains_terminal(Terminal::ExplorationConstant) {
            self.c_e()
        } else {
            None
        };
        Formula::new(expr).with_c_e(c_e)
    }
}

/// A constant as stored in canonical trees: finite and without a negative zero, so
/// structural equality of constants is equality of values.
pub(crate) fn constant(value: f64) -> Expr {
    let value = ops::finite(value);
    Expr::Const(if value == 0.0 { 0.0 } else { value })
}

fn is_constant(expr: &Expr, value: f64) -> bool {
    matches!(expr, Expr::Const(v) if *v == value)
}

/// Canonical form of an expression tree (see the module documentation).
pub fn canonical_expr(expr: &Expr) -> Expr {
    match expr {
        Expr::Const(v) => constant(*v),
        Expr::Term(t) => Expr::Term(*t),
        Expr::Unary(op, x) => match canonical_expr(x) {
            Expr::Const(v) => constant(op.apply(v)),
            x => Expr::unary(*op, x),
        },
        Expr::Binary(op, a, b) => simplify_binary(*op, canonical_expr(a), canonical_expr(b)),
    }
}

/// Applies the node-level rewrites to a binary node whose operands are canonical.
fn simplify_binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    use BinaryOp::*;
    if let (Expr::Const(x), Expr::Const(y)) = (&a, &b) {
        return constant(op.apply(*x, *y));
    }
    match op {
        Add if is_constant(&a, 0.0) => return b,
        Add | Sub if is_constant(&b, 0.0) => return a,
        Add if a == b => return Expr::binary(Mul, Expr::Const(2.0), a),
        Sub if a == b => return Expr::Const(0.0),
        Mul if is_constant(&a, 0.0) || is_constant(&b, 0.0) => return Expr::Const(0.0),
        Mul if is_constant(&a, 1.0) => return b,
        Mul | Div if is_constant(&b, 1.0) => return a,
        Div if a == b => return Expr::Const(1.0),
        Min | Max if a == b => return a,
        _ => {}
    }
    if op.is_commutative() && compare(&a, &b) == Ordering::Greater {
        Expr::binary(op, b, a)
    } else {
        Expr::binary(op, a, b)
    }
}

/// Rank of a node kind in the canonical operand order.
fn kind_rank(expr: &Expr) -> u8 {
    match expr {
        Expr::Const(_) => 0,
        Expr::Term(_) => 1,
        Expr::Binary(_, _, _) => 2,
        Expr::Unary(_, _) => 3,
    }
}

/// A total order on trees, used to sort commutative operands.
pub fn compare(a: &Expr, b: &Expr) -> Ordering {
    kind_rank(a).cmp(&kind_rank(b)).then_with(|| match (a, b) {
        (Expr::Const(x), Expr::Const(y)) => x.total_cmp(y),
        (Expr::Term(x), Expr::Term(y)) => x.cmp(y),
        (Expr::Unary(f, x), Expr::Unary(g, y)) => f.cmp(g).then_with(|| compare(x, y)),
        (Expr::Binary(f, x1, x2), Expr::Binary(g, y1, y2)) => f
            .cmp(g)
            .then_with(|| compare(x1, y1))
            .then_with(|| compare(x2, y2)),
        _ => Ordering::Equal,
    })
}
