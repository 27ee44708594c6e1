//! Simplification: the canonical form plus the dead structure only the protected operators'
//! ranges reveal, so that a reader sees what a formula computes.
//!
//! Guarantee: the simplified formula has the *same value* as the original for every input
//! (every field of [`SelectionInputs`](super::SelectionInputs), NaN and infinities included)
//! and, when the formula uses the controller's C_E, for every C_E; values agree bit for bit up
//! to the sign of zero, which no protected operator and no argmax can tell apart. So it picks
//! the same child in every sibling set. No rewrite that only keeps the argmax (dropping an
//! additive constant, a positive factor) is made: in floating point those can merge or split
//! ties, so they do not keep choices exactly either.
//!
//! The rewrites, repeated until nothing changes:
//! - those of the canonical form (`canonical`): constant folding with the protected
//!   operators, `x + 0`, `x*1`, `x*0`, `x - x`, `x/x`, `min(x, x)`, and operand order;
//! - a value range for every subtree (interval arithmetic over the protected operators,
//!   see below); a subtree whose range is one number is replaced by that number. This folds
//!   what the canonical form cannot see: `x/(0.0001*y*0)` is 1 (the divisor is always in the
//!   protected zone), `ln(min(sqrt(x), 0.0005))` is `ln(0.001)`, `0/(2 + sqrt(x))` is 0;
//! - `min(a, b)` is `a` when every value of `a` is at most every value of `b`, and `max`
//!   likewise: `max(ln(x), -7)` is `ln(x)` because the protected `ln` never goes below
//!   `ln(0.001)` ≈ −6.908.
//!
//! `x*0` is 0 exactly because evaluation maps every intermediate value to a finite number
//! (NaN to 0, ±∞ to ±`f64::MAX`, see [`super::ops`]): no `∞*0` can arise. A terminal's
//! range is therefore all finite numbers. `C` is one number when the formula carries its own
//! C_E (`[C=0.5]`), since evaluation then always reads that value; subtrees of `C` and
//! constants fold then (`2*C*sqrt(2*C) [C=0.5]` is 1), but a lone `C` stays `C`.
//! Without its own C_E, `C` ranges over every value, so the result holds whatever C_E a
//! controller gives.
//!
//! Ranges are sound because every protected operator is monotone in each argument on the
//! pieces the range computation splits it into, and IEEE round-to-nearest is monotone, so
//! the operator evaluated at the pieces' corners bounds it (division splits the divisor's
//! range at the protected zone |b| < 0.001, which gives 1). `sqrt` is correctly rounded;
//! the platform's `ln` is only faithfully rounded, so a non-point range of `ln` is widened by
//! two units in the last place each side. A point range is exact: it is the operator applied
//! to the number itself. Reassociation and distribution (`2*(3*x)` → `6*x`) are not done:
//! they change rounding, overflow or a protected case.

use super::canonical::{canonical_expr, constant};
use super::ops;
use super::tree::{BinaryOp, Expr, Formula, Terminal, UnaryOp};

impl Formula {
    /// The simplified form (see the module documentation): the same value for every input,
    /// never more nodes than the canonical form. A formula that no longer contains `C` drops
    /// its own C_E.
    pub fn simplify(&self) -> Formula {
        let mut expr = canonical_expr(self.expr());
        // Each round is canonical after the range rewrites; a round that changes nothing is
        // the fixpoint. Every change removes a node or reorders, so this ends quickly; the
        // bound is only a guard.
        for _ in 0..=self.size() {
            let next = canonical_expr(&ranged(&expr, self.c_e()).0);
            if next == expr {
                break;
            }
            expr = next;
        }
        let c_e = if expr.contains_terminal(Terminal::ExplorationConstant) {
            self.c_e()
        } else {
            None
        };
        Formula::new(expr).with_c_e(c_e)
    }
}

/// A closed range `[lo, hi]` of finite values that contains every value a subtree can take.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Range {
    lo: f64,
    hi: f64,
}

impl Range {
    const ALL: Range = Range {
        lo: -f64::MAX,
        hi: f64::MAX,
    };

    fn point(value: f64) -> Range {
        Range {
            lo: value,
            hi: value,
        }
    }

    /// The one value, if the range has one (`-0 == 0`, the sign of zero does not count).
    fn single(self) -> Option<f64> {
        (self.lo == self.hi).then_some(self.lo)
    }

    fn hull(self, other: Range) -> Range {
        Range {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// The range of `|x|`.
    fn magnitude(self) -> Range {
        if self.lo <= 0.0 && self.hi >= 0.0 {
            Range {
                lo: 0.0,
                hi: self.hi.max(-self.lo),
            }
        } else {
            let (a, b) = (self.lo.abs(), self.hi.abs());
            Range {
                lo: a.min(b),
                hi: a.max(b),
            }
        }
    }
}

/// The hull of `op` at the four corners of `a × b`: the range of `op` on the box when `op` is
/// monotone in each argument there.
fn corners(op: fn(f64, f64) -> f64, a: Range, b: Range) -> Range {
    let values = [
        op(a.lo, b.lo),
        op(a.lo, b.hi),
        op(a.hi, b.lo),
        op(a.hi, b.hi),
    ];
    values[1..]
        .iter()
        .fold(Range::point(values[0]), |r, &v| r.hull(Range::point(v)))
}

fn unary_range(op: UnaryOp, x: Range) -> Range {
    let m = x.magnitude();
    match op {
        UnaryOp::Sqrt => Range {
            lo: ops::sqrt(m.lo),
            hi: ops::sqrt(m.hi),
        },
        UnaryOp::Ln => {
            // `ln` reads max(|x|, LOG_FLOOR): equal floored ends give one value exactly.
            let (lo, hi) = (m.lo.max(ops::LOG_FLOOR), m.hi.max(ops::LOG_FLOOR));
            if lo == hi {
                Range::point(ops::ln(lo))
            } else {
                Range {
                    lo: ops::ln(lo).next_down().next_down(),
                    hi: ops::ln(hi).next_up().next_up(),
                }
            }
        }
    }
}

fn binary_range(op: BinaryOp, a: Range, b: Range) -> Range {
    match op {
        BinaryOp::Add => Range {
            lo: ops::add(a.lo, b.lo),
            hi: ops::add(a.hi, b.hi),
        },
        BinaryOp::Sub => Range {
            lo: ops::sub(a.lo, b.hi),
            hi: ops::sub(a.hi, b.lo),
        },
        BinaryOp::Mul => corners(ops::mul, a, b),
        BinaryOp::Div => division_range(a, b),
        BinaryOp::Min => Range {
            lo: ops::min(a.lo, b.lo),
            hi: ops::min(a.hi, b.hi),
        },
        BinaryOp::Max => Range {
            lo: ops::max(a.lo, b.lo),
            hi: ops::max(a.hi, b.hi),
        },
    }
}

/// Protected division: 1 where the divisor is in the protected zone, `a/b` on the negative
/// and positive pieces outside it (monotone in each argument on each piece).
fn division_range(a: Range, b: Range) -> Range {
    let t = ops::DIVISOR_THRESHOLD;
    let mut out: Option<Range> = None;
    let mut include = |r: Range| out = Some(out.map_or(r, |o: Range| o.hull(r)));
    if b.lo < t && b.hi > -t {
        include(Range::point(1.0));
    }
    if b.lo <= -t {
        include(corners(
            ops::div,
            a,
            Range {
                lo: b.lo,
                hi: b.hi.min(-t),
            },
        ));
    }
    if b.hi >= t {
        include(corners(
            ops::div,
            a,
            Range {
                lo: b.lo.max(t),
                hi: b.hi,
            },
        ));
    }
    out.expect("a divisor range meets the protected zone or one of its sides")
}

/// One bottom-up pass of the range rewrites; returns the rewritten tree and its range.
fn ranged(expr: &Expr, c_e: Option<f64>) -> (Expr, Range) {
    match expr {
        Expr::Const(v) => (constant(*v), Range::point(ops::finite(*v))),
        Expr::Term(Terminal::ExplorationConstant) => (
            expr.clone(),
            c_e.map_or(Range::ALL, |c| Range::point(ops::finite(c))),
        ),
        Expr::Term(_) => (expr.clone(), Range::ALL),
        Expr::Unary(op, x) => {
            let (x, rx) = ranged(x, c_e);
            fold_point(Expr::unary(*op, x), unary_range(*op, rx))
        }
        Expr::Binary(op, a, b) => {
            let (a, ra) = ranged(a, c_e);
            let (b, rb) = ranged(b, c_e);
            let dominated = match op {
                BinaryOp::Min if ra.hi <= rb.lo => Some(true),
                BinaryOp::Min if rb.hi <= ra.lo => Some(false),
                BinaryOp::Max if ra.lo >= rb.hi => Some(true),
                BinaryOp::Max if rb.lo >= ra.hi => Some(false),
                _ => None,
            };
            match dominated {
                Some(true) => (a, ra),
                Some(false) => (b, rb),
                None => fold_point(Expr::binary(*op, a, b), binary_range(*op, ra, rb)),
            }
        }
    }
}

/// An inner node whose range is one number becomes that number.
fn fold_point(expr: Expr, range: Range) -> (Expr, Range) {
    match range.single() {
        Some(value) => (constant(value), range),
        None => (expr, range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simplified(text: &str) -> String {
        Formula::parse(text).unwrap().simplify().to_string()
    }

    #[test]
    fn ranges_fold_what_the_canonical_form_keeps() {
        assert_eq!(simplified("Q/(0.0001*min(sqrt(N), 1))"), "1");
        assert_eq!(
            simplified("Q + ln(min(sqrt(n), 0.0005))"),
            format!("({}) + Q", ops::ln(0.0))
        );
        assert_eq!(simplified("Q + 0/(2 + sqrt(n))"), "Q");
        assert_eq!(simplified("max(ln(N), -7) + Q"), "Q + ln(N)");
        assert_eq!(simplified("min(sqrt(N), -1)*n"), "(-1)*n");
        // The connect-four champion: only the folded ln(2 - 2) goes.
        assert_eq!(
            simplified("Q + 2*C*sqrt(2*(ln(2 - 2)/(C/N - (2 + C)))/n)"),
            format!("Q + 2*C*sqrt(2*(({})/(C/N - (2 + C)))/n)", ops::ln(0.0))
        );
    }

    #[test]
    fn an_own_c_e_is_a_number_but_a_lone_c_stays() {
        assert_eq!(simplified("Q + 2*C*sqrt(2*C) [C=0.5]"), "1 + Q");
        assert_eq!(simplified("Q + 2*C*sqrt(2*C)"), "Q + 2*C*sqrt(2*C)");
        assert_eq!(simplified("Q + C*n [C=0.5]"), "Q + n*C [C=0.5]");
    }
}
