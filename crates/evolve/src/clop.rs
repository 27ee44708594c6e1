//! A confident local optimiser of one to four constants from game outcomes, after Coulom's CLOP
//! ("CLOP: Confident Local Optimization for Noisy Black-Box Parameter Tuning", Advances in
//! Computer Games 13, 2011). Pure and seeded: it plays no games; the caller asks where to play
//! ([`Clop::next_point`]), plays there and reports the score ([`Clop::observe`]).
//!
//! - Points live in [0, 1]^d (d ≤ [`MAX_DIMS`]); the caller maps them to natural ranges (log or
//!   linear, `Parameter::natural`).
//! - The model: a quadratic logistic regression of the score on the point, P(win | x) =
//!   1 / (1 + e^−q(x)) with q a full quadratic in z = 2x − 1 (1 + d + d(d+1)/2 coefficients),
//!   fitted by Newton's method (iteratively reweighted least squares) on the weighted
//!   log-likelihood Σ wᵢ [sᵢ ln P(xᵢ) + (1 − sᵢ) ln(1 − P(xᵢ))] minus a small ridge ½λ‖β‖², the
//!   score sᵢ ∈ [0, 1] (win 1, draw ½, loss 0, or a pair's mean) taken as a fractional outcome.
//!   The model is refitted about [`Settings::refits_per_doubling`] times per doubling of the
//!   games, each refit up to [`Settings::newton_steps`] steps from the previous fit (step
//!   halving keeps every step uphill; the first fit takes up to 50); a singular or non-finite
//!   step leaves the model as it was. The standard errors come from the Hessian at the start of
//!   the last step, which, the steps being small once the fit has settled, is the fit's.
//! - The weights (CLOP's confident locality): with μ the weighted mean of q over the samples and
//!   s the root weighted mean square of q's standard errors at the samples (from the inverse of
//!   the fit's Hessian), a point's weight under the model is w(x) = exp(min(0, (q(x) − μ)/s +
//!   H)): 1 unless the model is confident (by more than H standard errors,
//!   [`Settings::confidence`]) that x is worse than the mean, then falling by e per further
//!   standard error. Samples weigh in the fit by their weights, so the regression is local to
//!   where the model is not known to be bad; as games accumulate the standard errors shrink and
//!   the region contracts around the optimum. At each refit a sample's weight moves halfway (on
//!   a log scale) to its weight under the new model: without that damping, a fit local to one
//!   end can extrapolate a convex quadratic that calls the far end best, the next fit (which
//!   weighs the far end again) undoes it, and the two alternate. On a flat landscape no point is
//!   confidently worse, so the weights stay near 1 and sampling stays near uniform.
//! - Sampling: for the first [`Settings::warmup_per_term`] × (number of coefficients) games,
//!   uniform on [0, 1]^d; then uniform draws accepted with probability w(x) (rejection sampling,
//!   at most [`Settings::max_tries`] draws, else the draw of highest weight).
//! - The recommendation: the weighted mean of the sampled points (CLOP's choice, not the
//!   regression's maximum, which is noisy and can sit far outside the data), except in a
//!   coordinate whose region of full weight a bound cuts ([`Clop::cut_by`]: the model is not
//!   confident that bound is worse than the mean, and is confident the other bound is): there,
//!   the model's maximum along that coordinate within [0, 1] ([`Clop::best_along`]). Why: the
//!   weights are a function of the model's value, so the points are sampled over a level set of
//!   a quadratic, symmetric about its peak; their mean estimates that peak averaged over every
//!   refit of the run, steadier than the last fit's peak. A bound that cuts the level set
//!   removes the part beyond it, and the mean of what is left lies towards the middle of the
//!   range, short of the level set's centre by up to half the part removed; the weight being 1
//!   across the region, the points' spread there says nothing of where that centre is, and the
//!   model's peak is the estimate left. That peak lies in the region (a concave quadratic's
//!   peak is in each of its superlevel sets), so its noise is bounded by the region's width.
//!   When the model is not concave along the coordinate, or peaks beyond the bound, its
//!   maximum on [0, 1] is the cutting bound (the model values it above the other bound), so a
//!   landscape rising to a bound is recommended that bound. On a flat landscape nothing is
//!   confidently worse, nothing is cut, and the recommendation is the mean of near-uniform
//!   samples, about 0.5 in each dimension (a chance confident slope can also cut: the regret is
//!   0 whatever is recommended). In several dimensions the coordinates are taken in order, a
//!   cut one along its line through the recommendation so far.
//! - Widening: [`Clop::at_bound`] says, per dimension, whether the recommendation lies within
//!   [`Settings::margin`] of 0 or 1, so that a driver can widen that parameter's range
//!   (`widen` is such a driver, simulated); [`Clop::remapped`] carries the games over.
//!
//! Guarantees: deterministic given the seed and the observations (one `Pcg64Mcg` from the seed
//! draws every point); allocation only for the samples' vectors and the points returned; the
//! model's linear algebra is on fixed-size arrays.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The most constants CLOP tunes at once.
pub const MAX_DIMS: usize = 4;

/// Coefficients of a quadratic in `MAX_DIMS` variables.
const MAX_TERMS: usize = 1 + MAX_DIMS + MAX_DIMS * (MAX_DIMS + 1) / 2;

/// The number of coefficients of a full quadratic in `dims` variables.
pub const fn terms(dims: usize) -> usize {
    1 + dims + dims * (dims + 1) / 2
}

/// CLOP's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// H: how many standard errors below the weighted mean a point's value must be before its
    /// weight falls below 1.
    pub confidence: f64,
    /// λ of the ridge on the coefficients (in games' units of log-likelihood).
    pub ridge: f64,
    /// Uniform games per coefficient before the model guides sampling.
    pub warmup_per_term: usize,
    /// Newton steps per refit (from the previous fit).
    pub newton_steps: usize,
    /// The model is refitted once the games since the last refit reach 1/`refits_per_doubling`
    /// of those played, and at least one (so about `refits_per_doubling` · ln 2 refits per
    /// doubling of the games).
    pub refits_per_doubling: usize,
    /// Distance from a bound within which [`Clop::at_bound`] reports it.
    pub margin: f64,
    /// Rejection-sampling draws per point.
    pub max_tries: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            confidence: 3.0,
            ridge: 0.01,
            warmup_per_term: 10,
            newton_steps: 2,
            refits_per_doubling: 32,
            margin: 0.05,
            max_tries: 10_000,
        }
    }
}

/// A side of the range [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Low,
    High,
}

/// What [`Clop::new`] refuses.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ClopError {
    #[error("CLOP tunes 1 to {MAX_DIMS} parameters, not {0}")]
    Dims(usize),
}

/// The fitted quadratic logistic model: q(x) = βᵀφ(z), z = 2x − 1, φ = (1, z₁ … z_d, zᵢzⱼ for
/// i ≤ j in row order).
#[derive(Clone, Debug, PartialEq)]
pub struct Quadratic {
    dims: usize,
    beta: [f64; MAX_TERMS],
}

/// φ(2x − 1) of `x` into `out`.
fn features(x: &[f64], out: &mut [f64; MAX_TERMS]) {
    let d = x.len();
    let mut z = [0.0; MAX_DIMS];
    for (z, x) in z.iter_mut().zip(x) {
        *z = 2.0 * x - 1.0;
    }
    out[0] = 1.0;
    out[1..=d].copy_from_slice(&z[..d]);
    let mut k = 1 + d;
    for i in 0..d {
        for j in i..d {
            out[k] = z[i] * z[j];
            k += 1;
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

fn logistic(q: f64) -> f64 {
    1.0 / (1.0 + (-q).exp())
}

impl Quadratic {
    /// The model with the given coefficients (in φ's order); `None` unless there are
    /// `terms(dims)` of them and 1 ≤ dims ≤ [`MAX_DIMS`].
    pub fn new(dims: usize, coefficients: &[f64]) -> Option<Quadratic> {
        if !(1..=MAX_DIMS).contains(&dims) || coefficients.len() != terms(dims) {
            return None;
        }
        let mut beta = [0.0; MAX_TERMS];
        beta[..coefficients.len()].copy_from_slice(coefficients);
        Some(Quadratic { dims, beta })
    }

    /// The coefficients in φ's order: constant, linear, then the products zᵢzⱼ (i ≤ j).
    pub fn coefficients(&self) -> &[f64] {
        &self.beta[..terms(self.dims)]
    }

    /// q(x), the log-odds of a win at `x`.
    pub fn value(&self, x: &[f64]) -> f64 {
        let mut phi = [0.0; MAX_TERMS];
        features(x, &mut phi);
        dot(&phi[..terms(self.dims)], self.coefficients())
    }

    /// The maximum-likelihood fit (with the ridge `ridge`) of the scores `scores` (each in
    /// [0, 1]) at the points `points` (`dims` coordinates each, flat), each weighing
    /// `weights[i]`, by up to 50 Newton steps from zero; `None` when the lengths disagree or the
    /// design is singular.
    pub fn fit(
        dims: usize,
        points: &[f64],
        scores: &[f64],
        weights: &[f64],
        ridge: f64,
    ) -> Option<Quadratic> {
        let n = scores.len();
        if !(1..=MAX_DIMS).contains(&dims) || points.len() != n * dims || weights.len() != n {
            return None;
        }
        let samples = Samples {
            dims,
            points: points.to_vec(),
            scores: scores.to_vec(),
            weights: weights.to_vec(),
        };
        let (beta, _) = newton(&samples, ridge, [0.0; MAX_TERMS], FIRST_FIT_STEPS)?;
        Some(Quadratic { dims, beta })
    }

    /// The probability of a win at `x`.
    pub fn probability(&self, x: &[f64]) -> f64 {
        logistic(self.value(x))
    }
}

/// The Cholesky factor L (lower, row-major) of a symmetric positive-definite `m` × `m` matrix;
/// `None` when it is not positive definite (numerically).
fn cholesky(a: &[[f64; MAX_TERMS]; MAX_TERMS], m: usize) -> Option<[[f64; MAX_TERMS]; MAX_TERMS]> {
    let mut l = [[0.0; MAX_TERMS]; MAX_TERMS];
    for i in 0..m {
        for j in 0..=i {
            let s = a[i][j] - dot(&l[i][..j], &l[j][..j]);
            if i == j {
                if s.is_nan() || s <= 1e-12 {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves L y = b in place (forward substitution).
fn forward(l: &[[f64; MAX_TERMS]; MAX_TERMS], m: usize, b: &mut [f64; MAX_TERMS]) {
    for i in 0..m {
        b[i] = (b[i] - dot(&l[i][..i], &b[..i])) / l[i][i];
    }
}

/// Solves Lᵀ x = y in place (back substitution).
fn backward(l: &[[f64; MAX_TERMS]; MAX_TERMS], m: usize, y: &mut [f64; MAX_TERMS]) {
    for i in (0..m).rev() {
        let s: f64 = (i + 1..m).map(|k| l[k][i] * y[k]).sum();
        y[i] = (y[i] - s) / l[i][i];
    }
}

/// The weighted, ridged log-likelihood of `beta` on the samples.
fn objective(beta: &[f64], samples: &Samples, ridge: f64) -> f64 {
    let mut phi = [0.0; MAX_TERMS];
    let mut total = -0.5 * ridge * dot(beta, beta);
    for i in 0..samples.len() {
        features(samples.point(i), &mut phi);
        let q = dot(&phi[..beta.len()], beta);
        // ln P = −ln(1 + e^−q), ln(1 − P) = −ln(1 + e^q), computed stably.
        let softplus = |t: f64| t.max(0.0) + (-t.abs()).exp().ln_1p();
        let s = samples.scores[i];
        total -= samples.weights[i] * (s * softplus(-q) + (1.0 - s) * softplus(q));
    }
    total
}

/// The samples: points (flat, `dims` per sample), scores and weights.
#[derive(Clone, Debug, PartialEq)]
struct Samples {
    dims: usize,
    points: Vec<f64>,
    scores: Vec<f64>,
    weights: Vec<f64>,
}

impl Samples {
    fn len(&self) -> usize {
        self.scores.len()
    }

    fn point(&self, i: usize) -> &[f64] {
        &self.points[i * self.dims..(i + 1) * self.dims]
    }
}

/// The gradient and negative Hessian (plus the ridge) of the objective at `beta`.
// A symmetric matrix's lower triangle and its mirror read clearest by index.
#[allow(clippy::needless_range_loop)]
fn derivatives(
    beta: &[f64],
    samples: &Samples,
    ridge: f64,
) -> ([f64; MAX_TERMS], [[f64; MAX_TERMS]; MAX_TERMS]) {
    let m = beta.len();
    let mut phi = [0.0; MAX_TERMS];
    let mut gradient = [0.0; MAX_TERMS];
    let mut hessian = [[0.0; MAX_TERMS]; MAX_TERMS];
    for i in 0..samples.len() {
        features(samples.point(i), &mut phi);
        let p = logistic(dot(&phi[..m], beta));
        let w = samples.weights[i];
        let (g, h) = (w * (samples.scores[i] - p), w * p * (1.0 - p));
        for a in 0..m {
            gradient[a] += g * phi[a];
            for b in 0..=a {
                hessian[a][b] += h * phi[a] * phi[b];
            }
        }
    }
    for a in 0..m {
        gradient[a] -= ridge * beta[a];
        hessian[a][a] += ridge;
    }
    for a in 0..m {
        for b in a + 1..m {
            hessian[a][b] = hessian[b][a];
        }
    }
    (gradient, hessian)
}

/// Newton steps of a fit from scratch.
const FIRST_FIT_STEPS: usize = 50;

/// Up to `steps` Newton steps from `start` (stopping once a step moves less than 1e-9): the
/// coefficients and the Cholesky factor of the negative Hessian at the start of the last step;
/// `None` if not even one step could be taken (a singular Hessian, a non-finite objective).
fn newton(
    samples: &Samples,
    ridge: f64,
    start: [f64; MAX_TERMS],
    steps: usize,
) -> Option<([f64; MAX_TERMS], [[f64; MAX_TERMS]; MAX_TERMS])> {
    let m = terms(samples.dims);
    let mut beta = start;
    let mut factor = None;
    for _ in 0..steps.max(1) {
        let (gradient, hessian) = derivatives(&beta[..m], samples, ridge);
        let Some(l) = cholesky(&hessian, m) else {
            break;
        };
        let mut step = gradient;
        forward(&l, m, &mut step);
        backward(&l, m, &mut step);
        let Some(next) = uphill(samples, ridge, &beta, &step) else {
            break;
        };
        factor = Some(l);
        beta = next;
        if dot(&step[..m], &step[..m]).sqrt() < 1e-9 {
            break;
        }
    }
    factor.map(|l| (beta, l))
}

/// `beta + t·step` for the largest t in 1, ½, ¼ … (ten halvings) that does not lower the
/// objective, if finite.
fn uphill(
    samples: &Samples,
    ridge: f64,
    beta: &[f64; MAX_TERMS],
    step: &[f64; MAX_TERMS],
) -> Option<[f64; MAX_TERMS]> {
    let m = terms(samples.dims);
    let here = objective(&beta[..m], samples, ridge);
    let mut t = 1.0;
    for _ in 0..=10 {
        let mut next = *beta;
        for (b, s) in next[..m].iter_mut().zip(&step[..m]) {
            *b += t * s;
        }
        let there = objective(&next[..m], samples, ridge);
        if there.is_finite() && there >= here {
            return Some(next);
        }
        t *= 0.5;
    }
    None
}

/// The optimiser's state.
#[derive(Clone, Debug)]
pub struct Clop {
    settings: Settings,
    rng: Pcg64Mcg,
    samples: Samples,
    /// The model once fitted, with the Cholesky factor of its negative Hessian (the inverse of
    /// the coefficients' covariance) and μ, the weighted mean of q over the samples.
    fit: Option<Fit>,
    /// The games at the last refit.
    fitted_at: usize,
}

#[derive(Clone, Debug)]
struct Fit {
    model: Quadratic,
    factor: [[f64; MAX_TERMS]; MAX_TERMS],
    mean: f64,
    /// The root weighted mean square of the standard errors of q at the samples.
    scale: f64,
}

impl Fit {
    /// (q(x), its standard error).
    fn value_and_error(&self, x: &[f64]) -> (f64, f64) {
        let m = terms(self.model.dims);
        let mut phi = [0.0; MAX_TERMS];
        features(x, &mut phi);
        let q = dot(&phi[..m], self.model.coefficients());
        forward(&self.factor, m, &mut phi);
        (q, dot(&phi[..m], &phi[..m]).sqrt())
    }

    /// w(x) = exp(min(0, (q(x) − μ) / s + H)).
    fn weight(&self, x: &[f64], confidence: f64) -> f64 {
        if self.scale.is_nan() || self.scale <= 0.0 {
            return 1.0;
        }
        ((self.model.value(x) - self.mean) / self.scale + confidence)
            .min(0.0)
            .exp()
    }
}

impl Clop {
    /// An optimiser of `dims` parameters (1 ≤ dims ≤ [`MAX_DIMS`]) whose points derive from
    /// `seed`.
    pub fn new(dims: usize, seed: u64, settings: Settings) -> Result<Clop, ClopError> {
        if !(1..=MAX_DIMS).contains(&dims) {
            return Err(ClopError::Dims(dims));
        }
        Ok(Clop {
            settings,
            rng: Pcg64Mcg::seed_from_u64(seed),
            samples: Samples {
                dims,
                points: Vec::new(),
                scores: Vec::new(),
                weights: Vec::new(),
            },
            fit: None,
            fitted_at: 0,
        })
    }

    /// An optimiser restarted (its points drawn from `seed`) on this one's games with every
    /// point moved by `map` (a widened range's scaled positions of the same natural values,
    /// each in [0, 1]); the model is refitted from scratch.
    pub fn remapped(&self, seed: u64, map: impl Fn(&[f64]) -> Vec<f64>) -> Clop {
        let mut clop = Clop::new(self.dims(), seed, self.settings).expect("checked dimensions");
        for i in 0..self.games() {
            clop.observe(&map(self.samples.point(i)), self.samples.scores[i]);
        }
        clop
    }

    pub fn dims(&self) -> usize {
        self.samples.dims
    }

    /// The games observed.
    pub fn games(&self) -> usize {
        self.samples.len()
    }

    /// The fitted model, once the warm-up is over and a fit has succeeded.
    pub fn model(&self) -> Option<&Quadratic> {
        self.fit.as_ref().map(|f| &f.model)
    }

    /// w(x), the weight of a point under the current model (1 before the model).
    pub fn weight(&self, x: &[f64]) -> f64 {
        self.fit
            .as_ref()
            .map_or(1.0, |f| f.weight(x, self.settings.confidence))
    }

    fn warmup(&self) -> usize {
        self.settings.warmup_per_term * terms(self.dims())
    }

    /// Where to play the next game (or game pair).
    pub fn next_point(&mut self) -> Vec<f64> {
        let d = self.dims();
        let mut x = [0.0; MAX_DIMS];
        let mut best = ([0.0; MAX_DIMS], f64::NEG_INFINITY);
        for _ in 0..self.settings.max_tries.max(1) {
            for x in &mut x[..d] {
                *x = self.rng.gen::<f64>();
            }
            if self.games() < self.warmup() {
                return x[..d].to_vec();
            }
            let w = self.weight(&x[..d]);
            if self.rng.gen::<f64>() < w {
                return x[..d].to_vec();
            }
            if w > best.1 {
                best = (x, w);
            }
        }
        best.0[..d].to_vec()
    }

    /// Records a game at `point` (clamped to [0, 1]) that scored `score` (win 1, draw ½, loss
    /// 0, or a pair's mean), and refits the model and the weights.
    ///
    /// Panics if `point` has not `dims` coordinates or `score` is not in [0, 1] (the caller's
    /// mistake, not a user's).
    pub fn observe(&mut self, point: &[f64], score: f64) {
        assert_eq!(
            point.len(),
            self.dims(),
            "a point of {} coordinates",
            self.dims()
        );
        assert!(
            (0.0..=1.0).contains(&score),
            "a score in [0, 1], not {score}"
        );
        self.samples
            .points
            .extend(point.iter().map(|x| x.clamp(0.0, 1.0)));
        self.samples.scores.push(score);
        self.samples.weights.push(self.weight(point));
        let n = self.games();
        let due = (n - self.fitted_at) * self.settings.refits_per_doubling.max(1) >= n;
        if n >= self.warmup() && (self.fit.is_none() || due) {
            self.refit();
            self.fitted_at = n;
        }
    }

    /// Newton steps from the current coefficients, then the weights of the samples under the
    /// new model.
    fn refit(&mut self) {
        let d = self.dims();
        let start = self.fit.as_ref().map(|f| f.model.beta);
        // From scratch, Newton needs more steps than from the previous fit.
        let steps = start.map_or(FIRST_FIT_STEPS, |_| self.settings.newton_steps);
        let start = start.unwrap_or([0.0; MAX_TERMS]);
        let Some((beta, factor)) = newton(&self.samples, self.settings.ridge, start, steps) else {
            return;
        };
        let mut fit = Fit {
            model: Quadratic { dims: d, beta },
            factor,
            mean: 0.0,
            scale: 0.0,
        };
        fit.mean = self.weighted_mean(|x| fit.model.value(x));
        fit.scale = self
            .weighted_mean(|x| fit.value_and_error(x).1.powi(2))
            .sqrt();
        for i in 0..self.games() {
            // Halfway, geometrically, to the new model's weight (the damping of the module's
            // comment).
            let w = fit.weight(self.samples.point(i), self.settings.confidence);
            self.samples.weights[i] = (self.samples.weights[i] * w).sqrt();
        }
        self.fit = Some(fit);
    }

    /// The weighted mean of `f` over the sampled points (under the current weights).
    fn weighted_mean(&self, f: impl Fn(&[f64]) -> f64) -> f64 {
        let (mut sum, mut total) = (0.0, 0.0);
        for i in 0..self.games() {
            let w = self.samples.weights[i];
            sum += w * f(self.samples.point(i));
            total += w;
        }
        if total > 0.0 {
            sum / total
        } else {
            0.5
        }
    }

    /// The recommendation: per coordinate in order, the weighted mean of the sampled points (the
    /// centre 0.5 before any game), except that a coordinate whose region of full weight a
    /// bound cuts ([`Clop::cut_by`]) is the model's best along that coordinate
    /// ([`Clop::best_along`]), the other coordinates as recommended so far.
    pub fn recommend(&self) -> Vec<f64> {
        let mut r: Vec<f64> = (0..self.dims())
            .map(|k| self.weighted_mean(|x| x[k]))
            .collect();
        for k in 0..r.len() {
            if self.cut_by(&r, k).is_some() {
                r[k] = self.best_along(&r, k);
            }
        }
        r
    }

    /// The bound that cuts coordinate `k`'s region of full weight through `r`, if one does:
    /// moving coordinate `k` of `r` to that bound keeps the weight 1 (the model is not
    /// confident it is worse than the mean), while moving it to the other bound makes it
    /// confidently worse. The weighted mean of such a region lies inside it, nearer the middle
    /// of the range than the centre of the region the model's level set would make it were the
    /// range wider.
    pub fn cut_by(&self, r: &[f64], k: usize) -> Option<Bound> {
        let fit = self.fit.as_ref()?;
        let mut x = [0.0; MAX_DIMS];
        x[..r.len()].copy_from_slice(r);
        let mut weight_at = |v: f64| {
            x[k] = v;
            fit.weight(&x[..r.len()], self.settings.confidence)
        };
        match (weight_at(0.0) >= 1.0, weight_at(1.0) >= 1.0) {
            (true, false) => Some(Bound::Low),
            (false, true) => Some(Bound::High),
            _ => None,
        }
    }

    /// The model's best value in [0, 1] of coordinate `k`, the others as in `r`: along that
    /// line the model is q(t) = α + βt + γt², whose maximum on [0, 1] is its peak −β/2γ when
    /// γ < 0 and the peak lies inside, else the better end (0 on a tie).
    pub fn best_along(&self, r: &[f64], k: usize) -> f64 {
        let Some(fit) = self.fit.as_ref() else {
            return r[k];
        };
        let d = r.len();
        let mut x = [0.0; MAX_DIMS];
        x[..d].copy_from_slice(r);
        let mut q = |t: f64| {
            x[k] = t;
            fit.model.value(&x[..d])
        };
        let (q0, half, q1) = (q(0.0), q(0.5), q(1.0));
        let gamma = 2.0 * (q0 - 2.0 * half + q1);
        let beta = q1 - q0 - gamma;
        let peak = -beta / (2.0 * gamma);
        if gamma < 0.0 && (0.0..=1.0).contains(&peak) {
            peak
        } else if q1 > q0 {
            1.0
        } else {
            0.0
        }
    }

    /// Per dimension, the bound the recommendation lies within [`Settings::margin`] of, if any.
    pub fn at_bound(&self) -> Vec<Option<Bound>> {
        let margin = self.settings.margin;
        self.recommend()
            .into_iter()
            .map(|x| {
                if x <= margin {
                    Some(Bound::Low)
                } else if x >= 1.0 - margin {
                    Some(Bound::High)
                } else {
                    None
                }
            })
            .collect()
    }
}

#[cfg(test)]
#[path = "clop_tests.rs"]
mod tests;
