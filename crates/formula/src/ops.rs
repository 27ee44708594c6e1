//! The protected operators every evaluator shares.
//!
//! Tree evaluation, compiled evaluation and constant folding in the canonical form all
//! call these functions, so the three can never disagree on a value. Each operator is
//! total: for any inputs, including NaN and infinities, it returns a finite number.
//!
//! Rules:
//! - `a / b` is 1 when `|b| < 0.001` (the paper's protection), otherwise `a / b`.
//! - `sqrt(x)` is the square root of `|x|` (the paper's protection).
//! - `ln(x)` is the natural log of `|x|` (the paper's protection); below
//!   [`LOG_FLOOR`] = 0.001 in magnitude, including 0, it is `ln(0.001)` ≈ −6.908.
//!   The floor matches the division threshold, keeps the function continuous and
//!   monotone in `|x|`, and never yields −∞.
//! - Any result that would overflow is clamped to ±`f64::MAX`; a NaN (which only
//!   garbage inputs can produce) becomes 0. So intermediate values are always
//!   finite, which is also what makes identities such as `x - x = 0` exact.

/// Divisors smaller than this in magnitude make `÷` return 1.
pub const DIVISOR_THRESHOLD: f64 = 0.001;

/// `ln` of anything smaller than this in magnitude is `ln(LOG_FLOOR)`.
pub const LOG_FLOOR: f64 = 0.001;

/// Maps NaN to 0 and ±∞ to ±`f64::MAX`; leaves finite values unchanged.
#[inline(always)]
pub fn finite(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-f64::MAX, f64::MAX)
    }
}

/// Protected addition.
#[inline(always)]
pub fn add(a: f64, b: f64) -> f64 {
    finite(a + b)
}

/// Protected subtraction.
#[inline(always)]
pub fn sub(a: f64, b: f64) -> f64 {
    finite(a - b)
}

/// Protected multiplication.
#[inline(always)]
pub fn mul(a: f64, b: f64) -> f64 {
    finite(a * b)
}

/// Protected division: 1 when `|divisor| < 0.001` (or the divisor is NaN).
#[inline(always)]
pub fn div(a: f64, b: f64) -> f64 {
    if divisor_is_protected(b) {
        1.0
    } else {
        finite(a / b)
    }
}

/// Whether `÷` returns 1 for this divisor: `|b| < 0.001`, or NaN.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)]
pub fn divisor_is_protected(b: f64) -> bool {
    // "Not >=" rather than "<" so that a NaN divisor is protected too.
    !(b.abs() >= DIVISOR_THRESHOLD)
}

/// 0 for a finite value, NaN for ±∞ and NaN. Summed over many values it tells, with
/// two float operations per value and no branch, whether all of them were finite.
#[inline(always)]
#[allow(clippy::eq_op)]
pub(crate) fn non_finite_marker(value: f64) -> f64 {
    value - value
}

/// Protected natural logarithm: `ln(max(|x|, 0.001))`.
#[inline(always)]
pub fn ln(x: f64) -> f64 {
    finite(ln_of_finite(x))
}

/// Protected square root: `sqrt(|x|)`.
#[inline(always)]
pub fn sqrt(x: f64) -> f64 {
    finite(sqrt_of_finite(x))
}

/// [`ln`] without the final sanitising, which cannot change the result of a finite
/// input (the result lies in [ln 0.001, ln f64::MAX]). For the compiled evaluator.
#[inline(always)]
pub(crate) fn ln_of_finite(x: f64) -> f64 {
    // `f64::max` ignores a NaN operand, so NaN maps to ln(0.001) as well.
    x.abs().max(LOG_FLOOR).ln()
}

/// [`ln_of_finite`] for every number but NaN, which it keeps (`f64::max` would turn it
/// into the floor). The fast evaluation paths rely on NaN reaching the result.
#[inline(always)]
pub(crate) fn ln_keeping_nan(x: f64) -> f64 {
    let magnitude = x.abs();
    if magnitude < LOG_FLOOR {
        LOG_FLOOR.ln()
    } else {
        magnitude.ln()
    }
}

/// [`sqrt`] without the final sanitising, which cannot change the result of a finite input.
#[inline(always)]
pub(crate) fn sqrt_of_finite(x: f64) -> f64 {
    x.abs().sqrt()
}

/// Smaller operand (a NaN operand is ignored).
#[inline(always)]
pub fn min(a: f64, b: f64) -> f64 {
    finite(a.min(b))
}

/// Larger operand (a NaN operand is ignored).
#[inline(always)]
pub fn max(a: f64, b: f64) -> f64 {
    finite(a.max(b))
}
