//! `noise.fit_constants` of an evolution spec (see `fitting`): how many survivors are fitted,
//! with how many SPSA steps on how many common samples, the search's spread and gains, and the
//! level of the replacement rule; every field checked, naming it.

use serde::{Deserialize, Serialize};

/// The most SPSA steps `noise.fit_constants` gives one candidate.
pub const MAX_FIT_STEPS: usize = 100;

/// `noise.fit_constants` of a spec (see `fitting`): off when left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FitSpec {
    /// How many of each generation's best survivors are fitted (at most mu).
    pub candidates: usize,
    /// SPSA steps for each (two evaluations a step).
    pub steps: usize,
    /// The generation's first `samples` sample seeds (at most `noise.samples`), on which
    /// every evaluation of the fitting plays.
    pub samples: usize,
    /// Each constant is searched within [v / spread, v · spread] of its value v, on a log
    /// scale, sign kept.
    #[serde(default = "fit_spread")]
    pub spread: f64,
    /// SPSA's step gain, in scaled units per unit of standardised paired difference.
    #[serde(default = "fit_a")]
    pub a: f64,
    /// SPSA's first perturbation, in scaled units.
    #[serde(default = "fit_c")]
    pub c: f64,
    /// The fitted formula replaces the candidate when the candidate is significantly worse on
    /// the paired samples: one-sided, at the level of this normal quantile (Student t).
    #[serde(default = "fit_z")]
    pub z: f64,
}

fn fit_spread() -> f64 {
    4.0
}

fn fit_a() -> f64 {
    0.1
}

fn fit_c() -> f64 {
    0.1
}

fn fit_z() -> f64 {
    1.645
}

impl FitSpec {
    /// The first problem, as (field, message); `mu` and `samples` are the spec's.
    pub fn validate(&self, mu: usize, samples: usize) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((format!("noise.fit_constants.{f}"), m));
        for (field, value, low, high) in [
            ("candidates", self.candidates, 1, mu),
            ("steps", self.steps, 1, MAX_FIT_STEPS),
            ("samples", self.samples, 2, samples),
        ] {
            if !(low..=high).contains(&value) {
                return err(
                    field,
                    format!("must be between {low} and {high}, got {value}"),
                );
            }
        }
        for (field, value, above, high) in [
            ("spread", self.spread, 1.0, 100.0),
            ("a", self.a, 0.0, 10.0),
            ("c", self.c, 0.0, 0.5),
            ("z", self.z, 0.0, 10.0),
        ] {
            if !(value > above && value <= high) {
                return err(
                    field,
                    format!("must be above {above} and at most {high}, got {value}"),
                );
            }
        }
        Ok(())
    }

    /// Fitness samples one generation's fitting spends at most: each candidate's two points a
    /// step, then the fitted formula and the candidate, on `samples` seeds each.
    pub fn samples_per_generation(&self, mu: usize) -> u128 {
        self.candidates.min(mu) as u128 * (2 * self.steps as u128 + 2) * self.samples as u128
    }
}
