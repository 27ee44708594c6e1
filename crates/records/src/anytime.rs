//! Anytime-valid p-values for paired differences: p-values that stay valid however the number
//! of pairs was chosen, including by looking at the results after every pair (a sequential
//! test's stopping rule, or a person peeking).
//!
//! A fixed-sample p-value (Wilcoxon's, Student's) is valid only at a number of pairs fixed
//! beforehand. Read after every pair, and the first one below 0.05 taken, it rejects a true
//! null far more often than 5% (the tests below measure it). The Wilcoxon p-value of a sample
//! that an SPRT stopped early is not a fixed-sample p-value either (when it stopped depended
//! on the pairs), so Holm's adjustment of such p-values has no guarantee. The p-value here,
//! read at the SPRT's stopping time (or any other), is valid.
//!
//! The test here is of H0: the mean pair difference is 0, for differences bounded by a known
//! `bound` (a pair of win/draw/loss games has differences in [−1, 1]; a scored game needs the
//! largest score difference a pair can have). It is the betting test of Waudby-Smith and
//! Ramdas (*Estimating means of bounded random variables by betting*, Journal of the Royal
//! Statistical Society Series B 86(1), 2024): with the differences scaled to x ∈ [−1, 1], a
//! gambler who starts with capital 1 and before each pair stakes a fraction λ of it on the
//! sign of x ends with K_n = ∏ (1 + λᵢxᵢ). Each λᵢ is chosen from the pairs before the i-th
//! (predictable), so under H0 each factor has conditional mean 1 and K is a non-negative
//! martingale. Two gamblers bet on the two signs, λ⁺ᵢ ≥ 0 on a positive mean and λ⁻ᵢ ≥ 0 on a
//! negative one, and the e-process is their average E_n = (K⁺_n + K⁻_n)/2 (the two-sided
//! "hedged" capital), itself a non-negative martingale of initial value 1 under H0. Ville's
//! inequality, P(∃n: E_n ≥ 1/α) ≤ α, makes p_n = min(1, 1 / max_{k≤n} E_k) valid at every
//! stopping time: P(p_τ ≤ α) ≤ α for any τ, however chosen from the pairs seen.
//!
//! The bets are the truncated "approximate GRAPA" (aGRAPA) bets of that paper:
//! λᵢ = μ̂/(σ̂² + μ̂²) from a regularised running mean μ̂ and variance σ̂² of the
//! pairs before the i-th (one pseudo-observation of mean 0 and variance 1, so the first bet is
//! 0), its positive part for K⁺ and its negative part for K⁻, each capped at [`BET_CAP`] = ½
//! so that no single pair can lose a gambler more than half its capital. The bet μ/E[x²]
//! maximises the second-order expansion λμ − λ²E[x²]/2 of the expected log-growth of the
//! capital, so once the estimates settle log E_n grows by about μ²/(2E[x²]) a pair (μ the
//! mean of the scaled differences): the test adapts to their spread (a small spread decides
//! sooner), without an assumption on their distribution beyond the bound.
//!
//! Assumptions: each pair's difference has conditional mean 0 given the pairs before it under
//! H0 (true of independent pairs of one distribution with mean 0, as distinct seeds give), and
//! lies within the bound (checked: a difference outside is refused, since the martingale
//! argument needs it). The price of validity at every n is power: at a single fixed n the
//! t-test rejects sooner (tests below measure both).
//!
//! For an interval, [`AnytimeTest::confidence_sequence`] gives a time-uniform confidence
//! sequence of the mean (Robbins's normal mixture; it uses the bound, not the variance, so it
//! is wider than the betting test needs).
//!
//! Holm's step-down adjustment ([`crate::stats::holm`]) needs nothing of its p-values but
//! that each is valid, so applied to anytime-valid p-values, each taken at its comparison's
//! own stopping time, it controls the family-wise error rate (simulated below).
//!
//! Guarantees: the capitals are kept as logarithms (no overflow however long the run), the
//! p-value is never NaN and never rises as pairs are added, and one pair costs a constant
//! number of operations without allocation. The result depends on the order of the pairs
//! (bets are learnt from the past), so callers feed them in the order they were played.

use crate::sequential::PairDiffs;

/// The largest fraction of its capital either gambler stakes on one pair.
pub const BET_CAP: f64 = 0.5;

/// A pair's difference: the mean of its two seatings' differences.
pub fn pair_difference(d: PairDiffs) -> f64 {
    (d[0] + d[1]) / 2.0
}

/// A difference or bound the test refuses, naming it and what was expected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnytimeError {
    #[error("the bound on |difference| must be a finite number above 0, got {0}")]
    Bound(f64),
    #[error("difference {index} is {value}, expected a number within ±{bound}")]
    Difference {
        index: usize,
        value: f64,
        bound: f64,
    },
}

/// The running state of the anytime-valid test of a zero mean, fed one pair at a time.
#[derive(Clone, Debug)]
pub struct AnytimeTest {
    bound: f64,
    pairs: usize,
    /// Sum of the scaled differences, and Σ (xᵢ − μ̂ᵢ)² with μ̂ᵢ the regularised mean after
    /// the i-th (Waudby-Smith and Ramdas's predictable variance estimate).
    sum: f64,
    squares: f64,
    /// ln K⁺, ln K⁻, and the running maximum of ln E.
    log_up: f64,
    log_down: f64,
    log_best: f64,
}

impl AnytimeTest {
    /// A test of differences within ±`bound`.
    pub fn new(bound: f64) -> Result<Self, AnytimeError> {
        if !(bound.is_finite() && bound > 0.0) {
            return Err(AnytimeError::Bound(bound));
        }
        Ok(AnytimeTest {
            bound,
            pairs: 0,
            sum: 0.0,
            squares: 0.0,
            log_up: 0.0,
            log_down: 0.0,
            log_best: 0.0,
        })
    }

    /// Adds one pair's difference (refused, leaving the state as it was, when it is not a
    /// number within the bound).
    pub fn push(&mut self, difference: f64) -> Result<(), AnytimeError> {
        if difference.is_nan() || difference.abs() > self.bound {
            return Err(AnytimeError::Difference {
                index: self.pairs,
                value: difference,
                bound: self.bound,
            });
        }
        let x = (difference / self.bound).clamp(-1.0, 1.0);
        let bet = self.bet();
        self.log_up += (bet.clamp(0.0, BET_CAP) * x).ln_1p();
        self.log_down += (-(-bet).clamp(0.0, BET_CAP) * x).ln_1p();
        let log_e = log_mean_exp(self.log_up, self.log_down);
        self.log_best = self.log_best.max(log_e);
        self.pairs += 1;
        self.sum += x;
        let mean = self.sum / (self.pairs + 1) as f64;
        self.squares += (x - mean) * (x - mean);
        Ok(())
    }

    /// Adds one seed pair, as [`pair_difference`].
    pub fn push_pair(&mut self, d: PairDiffs) -> Result<(), AnytimeError> {
        self.push(pair_difference(d))
    }

    /// The signed bet for the next pair: positive on a positive mean (aGRAPA, before the cap).
    fn bet(&self) -> f64 {
        let t = (self.pairs + 1) as f64;
        let mean = self.sum / t;
        let variance = (1.0 + self.squares) / t;
        mean / (variance + mean * mean)
    }

    pub fn pairs(&self) -> usize {
        self.pairs
    }

    /// The mean difference of the pairs seen, in their own unit (0 before any).
    pub fn mean(&self) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.sum / self.pairs as f64 * self.bound
        }
    }

    /// The e-process now, E_n = (K⁺_n + K⁻_n)/2 (1 before any pair; +∞ past f64's range).
    pub fn e_value(&self) -> f64 {
        log_mean_exp(self.log_up, self.log_down).exp()
    }

    /// The anytime-valid p-value, min(1, 1 / max_{k≤n} E_k): valid whenever the caller stops.
    pub fn p_value(&self) -> f64 {
        (-self.log_best).exp().min(1.0)
    }

    /// A (1 − `alpha`) confidence sequence of the mean difference, in its own unit: with
    /// probability at least 1 − α it contains the true mean after every n at once (Robbins's
    /// normal mixture for sub-Gaussian increments, in the form of Howard, Ramdas, McAuliffe
    /// and Sekhon, *Time-uniform, nonparametric, nonasymptotic confidence sequences*, Annals
    /// of Statistics 49(2), 2021). A difference within ±1 (scaled) less its mean is
    /// 1-sub-Gaussian (Hoeffding's lemma), and mixing exp(λS_n − λ²n/2) over λ ~ N(0, 1/ρ)
    /// gives the e-process √(ρ/(n + ρ))·exp(S_n²/(2(n + ρ))), S_n = Σ (xᵢ − μ); Ville's
    /// inequality bounds its crossing of 1/α, which is the radius
    /// √((n + ρ)·(2·ln(1/α) + ln((n + ρ)/ρ)))/n around the mean, clipped to ±bound.
    ///
    /// `rho` > 0 must be fixed before the run (e.g. [`rho_for`] the number of pairs where the
    /// interval matters most); choosing it after seeing the pairs voids the guarantee. The
    /// sequence uses the bound, not the variance, so it is wider than the betting test needs:
    /// it may contain 0 when [`AnytimeTest::p_value`] is already below α (both are valid; they
    /// are different tests). Before any pair, and for `alpha` or `rho` out of range, it is
    /// the whole range (−bound, bound).
    pub fn confidence_sequence(&self, alpha: f64, rho: f64) -> (f64, f64) {
        let whole = (-self.bound, self.bound);
        if self.pairs == 0 || !(alpha > 0.0 && alpha < 1.0 && rho > 0.0 && rho.is_finite()) {
            return whole;
        }
        let n = self.pairs as f64;
        let radius = ((n + rho) * (-2.0 * alpha.ln() + ((n + rho) / rho).ln())).sqrt() / n;
        let mean = self.sum / n;
        (
            ((mean - radius) * self.bound).max(whole.0),
            ((mean + radius) * self.bound).min(whole.1),
        )
    }
}

/// The ρ that makes [`AnytimeTest::confidence_sequence`] narrowest at `pairs` pairs (at least
/// 1): ρ = n/u with u = 2·ln(1/α) + ln(1 + u), where the radius's derivative in ρ vanishes
/// (solved by fixed-point iteration, a contraction since the slope 1/(1 + u) is below 1).
pub fn rho_for(pairs: usize, alpha: f64) -> f64 {
    let level = -2.0 * alpha.ln();
    let mut u = level;
    for _ in 0..100 {
        u = level + u.ln_1p();
    }
    (pairs.max(1) as f64 / u).max(f64::MIN_POSITIVE)
}

/// ln((eᵃ + eᵇ)/2) without overflow.
fn log_mean_exp(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p() - std::f64::consts::LN_2
}

/// The anytime-valid p-value after all of `differences`, fed in order.
pub fn anytime_p_value(differences: &[f64], bound: f64) -> Result<f64, AnytimeError> {
    let mut test = AnytimeTest::new(bound)?;
    for &d in differences {
        test.push(d)?;
    }
    Ok(test.p_value())
}

#[cfg(test)]
mod tests;
