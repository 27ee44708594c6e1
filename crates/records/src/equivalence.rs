//! Equivalence of two players on paired differences: the two one-sided tests (TOST) of
//! Schuirmann (*A comparison of the two one-sided tests procedure and the power approach for
//! assessing the equivalence of average bioavailability*, Journal of Pharmacokinetics and
//! Biopharmaceutics 15(6), 1987), and the Student t distribution they use.
//!
//! A test of a difference that fails to reject does not show that there is none: "no
//! significant difference" is not "equivalent". Equivalence needs a margin δ stated before the
//! games are played (the caller passes it), and the hypotheses turned round: H0 is
//! |μ| ≥ δ, H1 is |μ| < δ, for μ the mean paired difference. TOST rejects H0 at level α when
//! both one-sided t-tests reject at level α, H0⁻: μ ≤ −δ and H0⁺: μ ≥ δ; its p-value is the
//! larger of the two. That is the same as the (1 − 2α) t interval of the mean lying strictly
//! inside (−δ, δ), which is why [`Tost`] reports that interval. For normal differences the
//! test has size at most α for every μ outside (−δ, δ) (each one-sided test has size α where
//! its own H0 holds); for bounded ones, approximately so.
//!
//! The observation is one number per seed pair, e.g. the mean of the pair's two seatings
//! ([`crate::anytime::pair_difference`]), in [−1, 1] for win/draw/loss games (a game's score
//! difference is 1, 0 or −1) or in points for scored games. A margin in score rate converts
//! by the factor 2: a score rate s (a draw counts one half) has mean difference 2s − 1, so
//! "within ±0.05 of an even score" is δ = 0.1 on these differences.
//!
//! Assumptions: the pairs are independent draws of one distribution, the mean of n of them
//! near enough to normal for the t-test (pair means are bounded, so from a few dozen pairs on
//! it is; the size is measured by simulation in the tests), and the number of pairs fixed
//! beforehand: these p-values are fixed-sample p-values, not valid at a stopping time chosen
//! by looking at the data (for that, see [`crate::anytime`]).
//!
//! The verdict: [`Verdict::Equivalent`] when the TOST p-value is below α; otherwise
//! [`Verdict::Different`] when the usual two-sided t-test of μ = 0 rejects at level α (its
//! p-value below α; equivalently the (1 − α) interval, not the reported (1 − 2α) one,
//! excludes 0); otherwise [`Verdict::Undecided`]. A difference that is both significant and
//! within the margin (many pairs, a small real effect) is `Equivalent`, with
//! [`Tost::p_two_sided`] below α to say that it is not zero.
//!
//! Edge cases, none of which panics or yields NaN: fewer than 2 pairs leave the variance
//! unknown, so every p-value is 1, the interval is (−∞, ∞) and the verdict `Undecided`. All
//! pairs identical (zero variance, n ≥ 2): the mean c is known exactly, so each one-sided
//! p-value is 0 where c lies strictly inside its alternative and 1 otherwise; the test is
//! `Equivalent` exactly when |c| < δ, else `Different` (c is then non-zero); the interval is
//! (c, c).
//!
//! The Student t distribution is computed from the regularised incomplete beta function
//! (continued fraction by the modified Lentz method, Numerical Recipes §6.4) with ln Γ by
//! Lanczos's series (g = 7, 9 terms); tested against closed forms and table values to 1e-9.

use serde::Serialize;

/// What a TOST concluded (see the module comment for the precise rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// The (1 − 2α) interval lies strictly inside (−margin, margin).
    Equivalent,
    /// Not equivalent, and the two-sided t-test of a zero mean rejects at level α.
    Different,
    /// Neither.
    Undecided,
}

impl Verdict {
    /// `equivalent`, `different` or `undecided`, as a table would hold it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Equivalent => "equivalent",
            Verdict::Different => "different",
            Verdict::Undecided => "undecided",
        }
    }
}

/// The outcome of a TOST on paired differences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tost {
    /// Pairs.
    pub n: usize,
    /// Their mean difference (0 for no pairs).
    pub mean: f64,
    /// Their standard deviation (divisor n − 1; 0 for fewer than 2 pairs).
    pub sd: f64,
    /// The equivalence margin δ and the level α the test was asked for.
    pub margin: f64,
    pub alpha: f64,
    /// One-sided p-value against H0⁻: mean ≤ −margin.
    pub p_lower: f64,
    /// One-sided p-value against H0⁺: mean ≥ margin.
    pub p_upper: f64,
    /// The TOST p-value, the larger of the two.
    pub p_tost: f64,
    /// The usual two-sided t-test's p-value against mean = 0.
    pub p_two_sided: f64,
    /// The (1 − 2α) t interval of the mean.
    pub low: f64,
    pub high: f64,
    pub verdict: Verdict,
}

/// Input a TOST refuses, each naming the argument and what was expected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TostError {
    #[error("the equivalence margin must be a finite number above 0, got {0}")]
    Margin(f64),
    #[error("alpha must be strictly between 0 and 0.5, got {0}")]
    Alpha(f64),
    #[error("difference {index} is {value}, expected a finite number")]
    Difference { index: usize, value: f64 },
    #[error("the differences' mean or spread overflows f64 (values near 1e308?)")]
    Overflow,
}

/// Schuirmann's TOST of |mean| < `margin` at level `alpha` on paired `differences`.
pub fn tost(differences: &[f64], margin: f64, alpha: f64) -> Result<Tost, TostError> {
    if !(margin.is_finite() && margin > 0.0) {
        return Err(TostError::Margin(margin));
    }
    if !(alpha > 0.0 && alpha < 0.5) {
        return Err(TostError::Alpha(alpha));
    }
    if let Some((index, &value)) = differences.iter().enumerate().find(|(_, d)| !d.is_finite()) {
        return Err(TostError::Difference { index, value });
    }
    let n = differences.len();
    let (mean, sd) = mean_sd(differences);
    if !(mean.is_finite() && sd.is_finite()) {
        return Err(TostError::Overflow);
    }
    let undecided = Tost {
        n,
        mean,
        sd,
        margin,
        alpha,
        p_lower: 1.0,
        p_upper: 1.0,
        p_tost: 1.0,
        p_two_sided: 1.0,
        low: f64::NEG_INFINITY,
        high: f64::INFINITY,
        verdict: Verdict::Undecided,
    };
    if n < 2 {
        return Ok(undecided);
    }
    let (p_lower, p_upper, p_two_sided, low, high) = if sd == 0.0 {
        // The mean is known exactly: a one-sided test rejects iff it lies strictly inside
        // the test's alternative.
        let p = |rejects: bool| if rejects { 0.0 } else { 1.0 };
        (
            p(mean > -margin),
            p(mean < margin),
            p(mean != 0.0),
            mean,
            mean,
        )
    } else {
        let df = (n - 1) as f64;
        let se = sd / (n as f64).sqrt();
        let half = student_t_quantile(1.0 - alpha, df) * se;
        (
            student_t_sf((mean + margin) / se, df),
            student_t_cdf((mean - margin) / se, df),
            (2.0 * student_t_sf(mean.abs() / se, df)).min(1.0),
            mean - half,
            mean + half,
        )
    };
    let p_tost = p_lower.max(p_upper);
    let verdict = if p_tost < alpha {
        Verdict::Equivalent
    } else if p_two_sided < alpha {
        Verdict::Different
    } else {
        Verdict::Undecided
    };
    Ok(Tost {
        p_lower,
        p_upper,
        p_tost,
        p_two_sided,
        low,
        high,
        verdict,
        ..undecided
    })
}

/// Mean and standard deviation (divisor n − 1) in two passes; exactly (c, 0) when every value
/// is c, (0, 0) for no values, (x, 0) for one.
fn mean_sd(values: &[f64]) -> (f64, f64) {
    let Some(&first) = values.first() else {
        return (0.0, 0.0);
    };
    if values.iter().all(|v| *v == first) {
        return (first, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let ss: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
    (mean, (ss / (n - 1.0)).sqrt())
}

/// P(T ≤ t) for Student's t with `df` > 0 degrees of freedom (df need not be an integer).
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    student_t_sf(-t, df)
}

/// P(T > t), the upper tail, computed directly (no cancellation in the far tail).
pub fn student_t_sf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t.is_infinite() {
        return if t > 0.0 { 0.0 } else { 1.0 };
    }
    // P(|T| > |t|) = I_x(df/2, 1/2) with x = df/(df + t²); for small t, 1 − I_{1−x}(1/2, df/2)
    // keeps the accuracy that x near 1 would lose.
    let t2 = t * t;
    let both_tails = if t2 < df {
        1.0 - regularised_incomplete_beta(0.5, df / 2.0, t2 / (df + t2))
    } else {
        regularised_incomplete_beta(df / 2.0, 0.5, df / (df + t2))
    };
    if t > 0.0 {
        0.5 * both_tails
    } else {
        1.0 - 0.5 * both_tails
    }
}

/// The t such that P(T ≤ t) = `p`, for `p` in (0, 1) (±∞ at 0 and 1): bisection on
/// [`student_t_sf`] to a relative width of 1e-15.
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    if p.is_nan() || df.is_nan() || df <= 0.0 || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p < 0.5 {
        return -student_t_quantile(1.0 - p, df);
    }
    if p == 0.5 {
        return 0.0;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    let tail = 1.0 - p;
    let (mut lo, mut hi) = (0.0, 1.0);
    while student_t_sf(hi, df) > tail {
        lo = hi;
        hi *= 2.0;
        if hi.is_infinite() {
            return f64::MAX;
        }
    }
    // Each halving is one bisection step; 2100 of them exhaust any f64 interval.
    for _ in 0..2100 {
        let mid = 0.5 * (lo + hi);
        if hi - lo <= 1e-15 * hi || mid == lo || mid == hi {
            break;
        }
        if student_t_sf(mid, df) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 coefficients; relative error near 1e-15).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let series = C[1..]
        .iter()
        .enumerate()
        .fold(C[0], |s, (i, c)| s + c / (x + i as f64 + 1.0));
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// I_x(a, b), the regularised incomplete beta function, for a, b > 0 and x in [0, 1].
fn regularised_incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    // The continued fraction converges fast for x < (a + 1)/(a + b + 2); beyond, use
    // I_x(a, b) = 1 − I_{1−x}(b, a).
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - ln_front.exp() * beta_continued_fraction(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of I_x(a, b) (Numerical Recipes' `betacf`, modified Lentz).
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - qab * x / qap);
    let mut h = d;
    // Terms needed grow like √max(a, b); 100 000 covers a million degrees of freedom.
    for m in 1..100_000 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let even = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-16 {
            break;
        }
    }
    h
}

#[cfg(test)]
pub(crate) mod tests;
