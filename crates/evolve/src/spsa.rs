//! Simultaneous perturbation stochastic approximation (Spall, "Multivariate stochastic
//! approximation using a simultaneous perturbation gradient approximation", IEEE Transactions
//! on Automatic Control, 1992), as fishtest tunes engine constants, maximising.
//!
//! At step k (from 0) every parameter, scaled to [0, 1], is moved by ±c_k at once, the signs
//! Δ a fair coin each; the two points x + c_k·Δ and x − c_k·Δ are evaluated on the same
//! sequences (common random numbers), and each coordinate takes the step
//! a_k · (f₊ − f₋) / (2·c_k·Δᵢ). Two evaluations per step, whatever the dimension. Gains
//! a_k = a / (A + k + 1)^α and c_k = c / (k + 1)^γ with Spall's α = 0.602 and γ = 0.101 by
//! default. Points are clamped to [0, 1].
//!
//! Shared by `evomcts tune` (`tune::spsa` re-exports it, and holds its tests) and by the
//! constants fitted inside evolution (`evolve::fitting`); `significant` rounds the values both
//! play, so the constants they write read as people write them.
//!
//! Guarantees: deterministic (the signs come from the master seed and the step through
//! `runfs::derive_seed`, no other randomness), no allocation beyond the state's vectors, no
//! dependency; the state after step k is a pure function of the evaluations of steps 0..=k,
//! so a run replays its file of evaluations to resume.

use evomcts_records::runfs::derive_seed;

/// Domain tag of the perturbations' signs ("spsasign" in ASCII).
const SIGN_DOMAIN: u64 = 0x7370_7361_7369_676e;

/// SPSA's gain sequences.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    pub a: f64,
    pub c: f64,
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

/// Spall's exponents of the gains: α of the step, γ of the perturbation.
pub const SPALL_ALPHA: f64 = 0.602;
pub const SPALL_GAMMA: f64 = 0.101;

impl Gains {
    /// Gains with Spall's exponents.
    pub fn spall(a: f64, c: f64, big_a: f64) -> Gains {
        Gains {
            a,
            c,
            big_a,
            alpha: SPALL_ALPHA,
            gamma: SPALL_GAMMA,
        }
    }

    /// Step gain a_k of step `k` (from 0).
    pub fn a_k(&self, k: usize) -> f64 {
        self.a / (self.big_a + k as f64 + 1.0).powf(self.alpha)
    }

    /// Perturbation c_k of step `k` (from 0), in scaled units.
    pub fn c_k(&self, k: usize) -> f64 {
        self.c / (k as f64 + 1.0).powf(self.gamma)
    }
}

/// The signs Δ (each +1 or −1) of step `step` for `dimension` parameters.
pub fn signs(seed: u64, step: usize, dimension: usize) -> Vec<f64> {
    (0..dimension)
        .map(|i| {
            let bits = derive_seed(seed, &[SIGN_DOMAIN, step as u64, (i / 64) as u64]);
            if bits >> (i % 64) & 1 == 1 {
                1.0
            } else {
                -1.0
            }
        })
        .collect()
}

/// The optimiser's state: the current point in scaled units and the steps taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub gains: Gains,
    pub seed: u64,
    pub x: Vec<f64>,
    pub step: usize,
}

/// One step's two points, in scaled units.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    pub signs: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

impl Spsa {
    pub fn new(gains: Gains, seed: u64, start: Vec<f64>) -> Spsa {
        Spsa {
            gains,
            seed,
            x: start,
            step: 0,
        }
    }

    /// The two points the current step evaluates.
    pub fn probe(&self) -> Probe {
        let signs = signs(self.seed, self.step, self.x.len());
        let c = self.gains.c_k(self.step);
        let at = |sign: f64| -> Vec<f64> {
            self.x
                .iter()
                .zip(&signs)
                .map(|(x, d)| (x + sign * c * d).clamp(0.0, 1.0))
                .collect()
        };
        Probe {
            plus: at(1.0),
            minus: at(-1.0),
            signs,
        }
    }

    /// Takes the step from the evaluations of the current probe: `f_plus` at its `plus`
    /// point, `f_minus` at its `minus` point (higher is better).
    pub fn update(&mut self, probe: &Probe, f_plus: f64, f_minus: f64) {
        self.update_by_difference(probe, f_plus - f_minus);
    }

    /// Takes the step from `difference`, the evaluation of the probe's `plus` point minus that
    /// of its `minus` point (a paired comparison measures it directly).
    pub fn update_by_difference(&mut self, probe: &Probe, difference: f64) {
        let (a, c) = (self.gains.a_k(self.step), self.gains.c_k(self.step));
        for (x, d) in self.x.iter_mut().zip(&probe.signs) {
            *x = (*x + a * difference / (2.0 * c * d)).clamp(0.0, 1.0);
        }
        self.step += 1;
    }
}

/// `v` to `digits` significant digits (exact and the same on every platform: Rust formats and
/// parses floating-point numbers correctly rounded).
pub fn significant(v: f64, digits: usize) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    format!("{v:.*e}", digits - 1).parse().unwrap_or(v)
}
