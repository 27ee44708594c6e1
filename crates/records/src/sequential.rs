//! Sequential tests for paired game results: a validation may stop as soon as its games decide.
//!
//! The unit of observation is a seed pair: one seed played in both seatings, given as the
//! candidate's score minus the other's in each seating ([`PairDiffs`]). Pairs are independent
//! (different seeds); the two games of a pair need not be (they share the seed), which is why
//! the pair, not the game, is the observation. After each pair the log-likelihood ratio (LLR)
//! of H1 against H0 is compared with Wald's bounds ln(β/(1−α)) and ln((1−β)/α) (±2.94 at
//! α = β = 0.05): the first crossing decides H0 or H1; a test that reaches its cap of pairs
//! without crossing is undecided (Wald, *Sequential Tests of Statistical Hypotheses*, Annals
//! of Mathematical Statistics 16(2), 1945). Two tests, each a generalised SPRT (GSPRT: the
//! likelihood under each hypothesis maximised over the parameters the hypothesis leaves free;
//! Lai, *Nearly Optimal Sequential Tests of Composite Hypotheses*, Annals of Statistics 16(3),
//! 1988):
//!
//! - **Elo** (win/draw/loss games): fishtest's GSPRT on the pentanomial model. A pair's total
//!   of game points (win 1, draw ½, loss 0) is one of 0, ½, 1, 1½, 2; the five frequencies are
//!   a multinomial with unknown probabilities. The hypotheses fix the normalised Elo
//!   nElo = C·(μ − ½)/σ_game, C = 800/ln 10, where μ is the expected score per game and
//!   σ_game = √2·σ_pair the per-game standard deviation implied by the pair's (the pair score
//!   per game, total/2, has standard deviation σ_pair): the t-value of a pair is
//!   t = (μ − ½)/σ_pair = √2·nElo/C. Under each hypothesis the five probabilities are the
//!   maximum-likelihood ones with that t-value, found by the fixed point of the tangent
//!   constraint (the secular equation Σ p̂ᵢbᵢ/(1 + x·bᵢ) = 0) that fishtest's `LLRcalc.py`
//!   solves, and the LLR is N·Σ p̂ᵢ·ln(q₁ᵢ/q₀ᵢ). As fishtest does, a frequency of zero counts
//!   as 10⁻³ (without it the maximum does not exist) and N is the sum of the counts so
//!   regularised. Normalised Elo makes the expected length of a test independent of the draw
//!   rate and of how strongly the two games of a pair are correlated (Michel Van den Bergh's
//!   notes behind fishtest's statistics, "Fishtest mathematics" in the Stockfish
//!   documentation). Assumption: the pairs are independent draws of one distribution.
//! - **Score** (games scored by points, Carcassonne): the GSPRT for the mean δ of the pair's
//!   score difference (the mean of its two seatings, the per-sequence difference of the fixed
//!   tests), modelled as normal with an unknown variance, which is maximised out under each
//!   hypothesis: LLR = (n/2)·ln[(s² + (x̄ − δ₀)²)/(s² + (x̄ − δ₁)²)], s² the variance of the n
//!   differences (divisor n). Assumption: the differences are independent and near enough to
//!   normal; the mean of two seatings of a game of dozens of scoring events is.
//!
//! Neither test decides before [`MIN_PAIRS`] pairs: with a variance estimated from a handful
//! of pairs the LLR of either test can leap past a bound by chance (measured by the
//! simulations below).
//!
//! Guarantees: the LLR is a pure function of the pairs seen (their order does not matter; the
//! decision is the first crossing in the order given), computed without allocation per pair;
//! the type I and type II error rates of both tests, simulated on synthetic pairs of known
//! effect, are within the tolerance the tests state of α and β (tests below).

use serde::{Deserialize, Serialize};

/// Normalised Elo per unit of per-game t-value: 800/ln 10 (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// No decision before this many pairs (see the module comment).
pub const MIN_PAIRS: usize = 10;

/// The largest |normalised Elo| a hypothesis may state (a per-pair t-value of 1.22, a win rate
/// near 0.9 without draws: far past any difference a sequential test is needed for; the
/// maximum-likelihood solutions are tested up to it).
pub const MAX_NELO: f64 = 300.0;

/// One seed pair: the candidate's score minus the other's, in seating 0 and seating 1.
pub type PairDiffs = [f64; 2];

/// A sequential test: its error rates and its two hypotheses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtSpec {
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
    pub hypotheses: Hypotheses,
}

/// The two hypotheses of a test, and with them which test it is.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Hypotheses {
    /// Normalised Elo under H0 and H1 (pentanomial GSPRT on win/draw/loss).
    Elo { elo0: f64, elo1: f64 },
    /// Mean score difference a game under H0 and H1 (GSPRT for a normal mean).
    Score { delta0: f64, delta1: f64 },
}

impl Hypotheses {
    /// H0 and H1 as `name = value` for tables, with the unit.
    pub fn describe(&self) -> (String, String) {
        match *self {
            Hypotheses::Elo { elo0, elo1 } => (format!("nElo = {elo0}"), format!("nElo = {elo1}")),
            Hypotheses::Score { delta0, delta1 } => (
                format!("δ = {delta0} points"),
                format!("δ = {delta1} points"),
            ),
        }
    }

    /// The test's name: `elo` or `score`.
    pub fn test_name(&self) -> &'static str {
        match self {
            Hypotheses::Elo { .. } => "elo",
            Hypotheses::Score { .. } => "score",
        }
    }
}

/// Wald's bounds (lower, upper) on the LLR for error rates α and β.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

impl SprtSpec {
    /// The first problem, as (field, message), the field relative to the spec.
    pub fn check(&self) -> Result<(), (String, String)> {
        let rate = |field: &str, v: f64| {
            if v.is_finite() && v > 0.0 && v < 1.0 {
                Ok(())
            } else {
                Err((
                    field.to_string(),
                    format!("must be a probability strictly between 0 and 1, got {v}"),
                ))
            }
        };
        rate("alpha", self.alpha)?;
        rate("beta", self.beta)?;
        if self.alpha + self.beta >= 1.0 {
            return Err((
                "beta".into(),
                format!(
                    "alpha + beta must be below 1 (else the bounds do not enclose 0), got {} + {}",
                    self.alpha, self.beta
                ),
            ));
        }
        let (names, values, limit) = match self.hypotheses {
            Hypotheses::Elo { elo0, elo1 } => (["elo0", "elo1"], [elo0, elo1], MAX_NELO),
            Hypotheses::Score { delta0, delta1 } => (["delta0", "delta1"], [delta0, delta1], 1e9),
        };
        for (name, v) in names.iter().zip(values) {
            if !v.is_finite() || v.abs() > limit {
                return Err((
                    format!("hypotheses.{name}"),
                    format!("must be a number between -{limit} and {limit}, got {v}"),
                ));
            }
        }
        if values[0] >= values[1] {
            return Err((
                format!("hypotheses.{}", names[1]),
                format!(
                    "must be greater than {} (H1 states the larger difference), got {} and {}",
                    names[0], values[0], values[1]
                ),
            ));
        }
        Ok(())
    }

    pub fn bounds(&self) -> (f64, f64) {
        bounds(self.alpha, self.beta)
    }
}

/// What a test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// Still short of a bound and of the cap (an interrupted validation).
    Continue,
    H0,
    H1,
    /// The cap was reached between the bounds.
    Undecided,
}

impl Decision {
    /// `continue`, `h0`, `h1` or `undecided`, as the CSV files hold it.
    pub fn as_str(&self) -> &'static str {
        match self {
            Decision::Continue => "continue",
            Decision::H0 => "h0",
            Decision::H1 => "h1",
            Decision::Undecided => "undecided",
        }
    }
}

/// The running state of a test: what it has seen of the pairs so far.
#[derive(Clone, Debug)]
pub struct Sprt {
    spec: SprtSpec,
    pairs: usize,
    /// Pentanomial frequencies of pair totals 0, ½, 1, 1½, 2.
    counts: [f64; 5],
    /// Welford's running mean and sum of squared deviations of the pair differences.
    mean: f64,
    m2: f64,
}

impl Sprt {
    pub fn new(spec: SprtSpec) -> Self {
        Sprt {
            spec,
            pairs: 0,
            counts: [0.0; 5],
            mean: 0.0,
            m2: 0.0,
        }
    }

    /// Adds one pair.
    pub fn add(&mut self, d: PairDiffs) {
        let points = |x: f64| {
            if x > 0.0 {
                2
            } else if x == 0.0 {
                1
            } else {
                0
            }
        };
        self.counts[points(d[0]) + points(d[1])] += 1.0;
        self.pairs += 1;
        let x = (d[0] + d[1]) / 2.0;
        let delta = x - self.mean;
        self.mean += delta / self.pairs as f64;
        self.m2 += delta * (x - self.mean);
    }

    pub fn pairs(&self) -> usize {
        self.pairs
    }

    /// The log-likelihood ratio of H1 against H0 of the pairs seen (0 before any).
    pub fn llr(&self) -> f64 {
        if self.pairs == 0 {
            return 0.0;
        }
        match self.spec.hypotheses {
            Hypotheses::Elo { elo0, elo1 } => pentanomial_llr(
                self.counts,
                std::f64::consts::SQRT_2 * elo0 / NELO_PER_T,
                std::f64::consts::SQRT_2 * elo1 / NELO_PER_T,
            ),
            Hypotheses::Score { delta0, delta1 } => {
                let n = self.pairs as f64;
                let var = self.m2 / n;
                let sq = |d: f64| var + (self.mean - d) * (self.mean - d);
                n / 2.0 * (sq(delta0) / sq(delta1)).ln()
            }
        }
    }

    /// The estimate the hypotheses are about: the normalised Elo of the (regularised)
    /// pentanomial frequencies, or the mean pair difference in points.
    pub fn estimate(&self) -> f64 {
        match self.spec.hypotheses {
            Hypotheses::Elo { .. } => {
                let p = regularised(self.counts).1;
                t_value(&p) * NELO_PER_T / std::f64::consts::SQRT_2
            }
            Hypotheses::Score { .. } => self.mean,
        }
    }

    /// H0 or H1 once a bound is crossed (from [`MIN_PAIRS`] pairs on), else `Continue`.
    pub fn decision(&self) -> Decision {
        if self.pairs < MIN_PAIRS {
            return Decision::Continue;
        }
        let (lower, upper) = self.spec.bounds();
        let llr = self.llr();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

/// One step of a test's path: after `pairs` pairs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Step {
    pub pairs: usize,
    pub estimate: f64,
    pub llr: f64,
    pub decision: Decision,
}

/// A test run over pairs in order: its path up to the decision (or over every pair).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub spec: SprtSpec,
    pub lower: f64,
    pub upper: f64,
    /// The cap on pairs.
    pub cap: usize,
    /// One step per pair, up to and including the one that decided.
    pub path: Vec<Step>,
}

impl Outcome {
    /// The last step: the decision, or where the pairs ran out.
    pub fn last(&self) -> Option<&Step> {
        self.path.last()
    }

    pub fn decision(&self) -> Decision {
        self.last().map_or(
            if self.cap == 0 {
                Decision::Undecided
            } else {
                Decision::Continue
            },
            |s| s.decision,
        )
    }

    /// Pairs the test needed (all pairs seen when it did not decide).
    pub fn pairs(&self) -> usize {
        self.last().map_or(0, |s| s.pairs)
    }
}

/// Runs the test over `pairs` in order, at most `cap` of them: stops at the first pair whose
/// LLR crosses a bound; `Undecided` if `cap` pairs leave it between them, `Continue` if the
/// pairs run out before the cap.
pub fn run(spec: SprtSpec, pairs: impl IntoIterator<Item = PairDiffs>, cap: usize) -> Outcome {
    let (lower, upper) = spec.bounds();
    let mut sprt = Sprt::new(spec);
    let mut path = Vec::new();
    for d in pairs.into_iter().take(cap) {
        sprt.add(d);
        let mut decision = sprt.decision();
        if decision == Decision::Continue && sprt.pairs() == cap {
            decision = Decision::Undecided;
        }
        path.push(Step {
            pairs: sprt.pairs(),
            estimate: sprt.estimate(),
            llr: sprt.llr(),
            decision,
        });
        if decision != Decision::Continue {
            break;
        }
    }
    Outcome {
        spec,
        lower,
        upper,
        cap,
        path,
    }
}

/// The pair score per game of each pentanomial class.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts with zeros replaced by 10⁻³ (fishtest's regularisation): their sum and the
/// frequencies.
fn regularised(counts: [f64; 5]) -> (f64, [f64; 5]) {
    let c = counts.map(|c| if c == 0.0 { 1e-3 } else { c });
    let n: f64 = c.iter().sum();
    (n, c.map(|c| c / n))
}

fn mean_sd(q: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = q.iter().zip(SCORES).map(|(q, a)| q * a).sum();
    let var: f64 = q
        .iter()
        .zip(SCORES)
        .map(|(q, a)| q * (a - mu).powi(2))
        .sum();
    (mu, var.sqrt())
}

/// (μ − ½)/σ of a distribution over the pair scores.
fn t_value(q: &[f64; 5]) -> f64 {
    let (mu, sigma) = mean_sd(q);
    (mu - 0.5) / sigma
}

/// The pentanomial GSPRT's LLR of counts for pair t-values `t0` (H0) and `t1` (H1).
fn pentanomial_llr(counts: [f64; 5], t0: f64, t1: f64) -> f64 {
    let (n, p) = regularised(counts);
    let q0 = mle_with_t(&p, t0);
    let q1 = mle_with_t(&p, t1);
    n * (0..5).map(|i| p[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
}

/// The distribution q over the pair scores that maximises Σ pᵢ·ln qᵢ subject to t(q) = `t`.
/// `p` is the maximum for its own t-value, so the solution is followed from there to `t` in
/// steps, each solved by [`fixed_point`] from the last (a step that fails is halved).
fn mle_with_t(p: &[f64; 5], t: f64) -> [f64; 5] {
    let mut q = *p;
    let mut at = t_value(p);
    let mut step = t - at;
    // Each failure halves the step; 200 halvings are far below any representable step, so the
    // loop ends; it returns the closest solution reached (never reached in the tests' sweep).
    for _ in 0..200 {
        if at == t {
            break;
        }
        let target = if (t - at).abs() <= step.abs() {
            t
        } else {
            at + step
        };
        match fixed_point(p, q, target) {
            Some(next) => {
                q = next;
                at = target;
                step = (step * 2.0).abs().copysign(t - at);
            }
            None => step /= 2.0,
        }
    }
    q
}

/// From `start`, the fixed point of: take (μ, σ), linearise t(q) = s around them
/// (bᵢ = aᵢ − ½ − s·(σ² + (aᵢ − μ)²)/(2σ)), set qᵢ = pᵢ/(1 + x·bᵢ) with x solving the secular
/// equation, and require (μ, σ) to be q's own. At the fixed point Σ qᵢbᵢ = μ − ½ − sσ = 0.
/// fishtest iterates the map; it converges linearly, slowly (hundreds of iterations) where the
/// maximum moves much mass into a class of frequency near 0, so here the fixed point of the
/// two numbers (μ, σ) is found by Newton's method (finite-difference Jacobian, steps halved
/// until the residual falls, the plain map where no such step is found). `None` when an
/// iterate has no solution or the iteration does not settle.
fn fixed_point(p: &[f64; 5], start: [f64; 5], s: f64) -> Option<[f64; 5]> {
    // The map's image of (μ, σ), and its residual.
    let image = |mu: f64, sigma: f64| -> Option<([f64; 5], [f64; 2])> {
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let b = SCORES.map(|a| a - 0.5 - s * (sigma * sigma + (a - mu).powi(2)) / (2.0 * sigma));
        let x = secular(p, &b)?;
        let q: [f64; 5] = std::array::from_fn(|i| p[i] / (1.0 + x * b[i]));
        let (m, sd) = mean_sd(&q);
        Some((q, [m - mu, sd - sigma]))
    };
    let norm = |r: [f64; 2]| r[0].abs().max(r[1].abs());
    let (mut mu, mut sigma) = mean_sd(&start);
    let (mut q, mut r) = image(mu, sigma)?;
    for _ in 0..200 {
        if norm(r) < 1e-14 {
            return Some(q);
        }
        // The map's own step, taken while it converges fast (the usual case: a few steps).
        let plain = (mu + r[0], sigma + r[1]);
        if let Some((q2, r2)) = image(plain.0, plain.1) {
            if norm(r2) < 0.1 * norm(r) {
                ((mu, sigma), q, r) = (plain, q2, r2);
                continue;
            }
        }
        let h = 1e-7;
        let newton =
            image(mu + h, sigma)
                .zip(image(mu, sigma + h))
                .and_then(|((_, rm), (_, rs))| {
                    let j = [
                        [(rm[0] - r[0]) / h, (rs[0] - r[0]) / h],
                        [(rm[1] - r[1]) / h, (rs[1] - r[1]) / h],
                    ];
                    let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
                    (det.abs() > 1e-300).then(|| {
                        [
                            -(j[1][1] * r[0] - j[0][1] * r[1]) / det,
                            -(j[0][0] * r[1] - j[1][0] * r[0]) / det,
                        ]
                    })
                });
        let mut step = 1.0;
        let accepted = newton.and_then(|d| {
            while step > 1e-4 {
                let point = (mu + step * d[0], sigma + step * d[1]);
                if let Some((q2, r2)) = image(point.0, point.1) {
                    if norm(r2) < norm(r) {
                        return Some((point, q2, r2));
                    }
                }
                step /= 2.0;
            }
            None
        });
        ((mu, sigma), q, r) = match accepted {
            Some(next) => next,
            None => {
                let (q2, r2) = image(plain.0, plain.1)?;
                (plain, q2, r2)
            }
        };
    }
    None
}

/// The root x of Σ pᵢbᵢ/(1 + x·bᵢ) = 0 on the interval where every 1 + x·bᵢ > 0, where the
/// sum falls from +∞ to −∞ (so the root exists exactly when b has both signs): Newton's
/// method kept inside a shrinking bracket.
fn secular(p: &[f64; 5], b: &[f64; 5]) -> Option<f64> {
    let (lo_b, hi_b) = b
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
            (l.min(v), h.max(v))
        });
    if !(lo_b < 0.0 && hi_b > 0.0) {
        return None;
    }
    let (mut lo, mut hi) = (-1.0 / hi_b, -1.0 / lo_b);
    let f = |x: f64| -> (f64, f64) {
        let mut value = 0.0;
        let mut slope = 0.0;
        for i in 0..5 {
            let r = b[i] / (1.0 + x * b[i]);
            value += p[i] * r;
            slope -= p[i] * r * r;
        }
        (value, slope)
    };
    let mut x = 0.0f64.clamp(lo, hi);
    for _ in 0..200 {
        let (value, slope) = f(x);
        if value > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - value / slope;
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 1e-15 * (1.0 + x.abs()) || hi - lo <= 1e-15 * (1.0 + x.abs()) {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

#[cfg(test)]
mod tests;
