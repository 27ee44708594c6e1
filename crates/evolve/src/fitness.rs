//! Fitness as noisy samples: one sample is a bandit run or a pair of Carcassonne games on
//! one tile seed (both seatings), and an individual's fitness is the running estimate of
//! the mean of its samples with a 95% interval.
//!
//! Samples are independent tasks with their own seeds, evaluated on rayon's pool and
//! folded into estimates in task order, so results do not depend on the thread count.

use super::bandit::{self, BanditScratch};
use super::namespace::evolution_tile_seed;
use super::planted;
use super::spec::{FitnessSpec, GamesSpec, Score};
use evomcts_arena::play_both_seatings;
use evomcts_formula::{CompiledFormula, Formula};
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// z for a two-sided 95% normal interval.
pub const Z95: f64 = 1.96;

/// Mean of an individual's samples so far, with Welford's sum of squared deviations so
/// later samples pool exactly; `low`/`high` are mean ∓ 1.96·se, for reading.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub samples: u64,
    pub mean: f64,
    pub m2: f64,
    pub low: f64,
    pub high: f64,
}

impl Default for Estimate {
    fn default() -> Self {
        Estimate {
            samples: 0,
            mean: 0.0,
            m2: 0.0,
            low: 0.0,
            high: 0.0,
        }
    }
}

impl Estimate {
    pub fn from_samples(samples: &[f64]) -> Estimate {
        let mut e = Estimate::default();
        e.add(samples);
        e
    }

    /// Pools more samples, in order.
    pub fn add(&mut self, samples: &[f64]) {
        for &x in samples {
            self.samples += 1;
            let delta = x - self.mean;
            self.mean += delta / self.samples as f64;
            self.m2 += delta * (x - self.mean);
        }
        let half = self.half_width();
        self.low = self.mean - half;
        self.high = self.mean + half;
    }

    /// Standard error of the mean (0 with fewer than two samples).
    pub fn standard_error(&self) -> f64 {
        if self.samples < 2 {
            return 0.0;
        }
        let n = self.samples as f64;
        (self.m2.max(0.0) / (n - 1.0) / n).sqrt()
    }

    pub fn half_width(&self) -> f64 {
        Z95 * self.standard_error()
    }

    /// The lower end of the 95% interval, with fewer than two samples or a non-finite mean
    /// ranked last: the hall of fame's key, and the champion's under `HighestLowerBound`.
    pub fn lower_bound(&self) -> f64 {
        if self.samples < 2 || !self.mean.is_finite() {
            f64::NEG_INFINITY
        } else {
            self.mean - self.half_width()
        }
    }

    /// Rank key: the mean, with a non-finite mean (or no samples) ranked last.
    pub fn rank(&self) -> f64 {
        if self.samples == 0 || !self.mean.is_finite() {
            f64::NEG_INFINITY
        } else {
            self.mean
        }
    }

    /// Where this estimate's 95% interval lies against the `reference` fitness (a number on
    /// the same scale): above it, below it, or around it.
    pub fn against(&self, reference: f64) -> Standing {
        if self.samples < 2 || !self.mean.is_finite() {
            Standing::Undecided
        } else if self.low > reference {
            Standing::Above
        } else if self.high < reference {
            Standing::Below
        } else {
            Standing::Undecided
        }
    }
}

/// Where a champion's 95% interval lies against the reference's fitness ([`Estimate::against`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The whole interval above the reference: it beat it (on evolution's own samples).
    Above,
    /// The whole interval below: it scored worse.
    Below,
    /// The interval holds the reference (or has too few samples): not shown to differ.
    Undecided,
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.3} ± {:.3} (n={})",
            self.mean,
            self.half_width(),
            self.samples
        )
    }
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("evaluating `{formula}` on sample seed {seed}: {message}")]
pub struct EvalError {
    pub formula: String,
    pub seed: u64,
    pub message: String,
}

/// One sample of `formula`'s fitness, every random choice drawn from `seed` (in a mix, the
/// seed also says which game: `MixedSpec::game_of`).
pub fn sample(
    fitness: &FitnessSpec,
    formula: &Formula,
    compiled: &CompiledFormula,
    seed: u64,
    scratch: &mut BanditScratch,
) -> Result<f64, EvalError> {
    match fitness {
        FitnessSpec::Bandit(spec) => Ok(-bandit::regret(compiled, spec, seed, scratch)),
        FitnessSpec::Planted(spec) => {
            planted::sample(compiled, spec, seed).map_err(|message| EvalError {
                formula: formula.to_string(),
                seed,
                message,
            })
        }
        FitnessSpec::Games(spec) => game_pair(spec, formula, seed),
        FitnessSpec::Mixed(mix) => game_pair(&mix.games[mix.game_of(seed)], formula, seed),
    }
}

/// Both seatings of the tile sequence of sample seed `seed` (in the evolution namespace,
/// see `namespace`): the candidate first, then the baseline first.
fn game_pair(spec: &GamesSpec, formula: &Formula, seed: u64) -> Result<f64, EvalError> {
    let fail = |message: String| EvalError {
        formula: formula.to_string(),
        seed,
        message,
    };
    let candidate = ControllerSpec::Mcts(evomcts_search::mcts::MctsSettings {
        selection: Selection::Formula(formula.to_string()),
        ..spec.candidate.clone()
    });
    let tile_seed = evolution_tile_seed(seed);
    let games = play_both_seatings(spec.game, spec.rules, &candidate, &spec.baseline, tile_seed)
        .map_err(fail)?;
    let mut total = 0.0;
    for (mine, theirs) in games {
        total += match spec.score {
            Score::ScoreDiff => mine - theirs,
            Score::WinRate => {
                if mine > theirs {
                    1.0
                } else if mine == theirs {
                    0.5
                } else {
                    0.0
                }
            }
        };
    }
    Ok(total / 2.0)
}

/// One formula to evaluate on a list of sample seeds.
pub struct Request<'a> {
    pub formula: &'a Formula,
    pub seeds: &'a [u64],
}

/// The samples of every request, in request order, computed on the current rayon pool.
pub fn evaluate_all(
    fitness: &FitnessSpec,
    requests: &[Request<'_>],
) -> Result<Vec<Vec<f64>>, EvalError> {
    evaluate_all_observed(fitness, requests, &|| {})
}

/// `evaluate_all`, calling `on_sample` on the worker thread after each sample, so progress
/// can be shown within one call; it cannot change a sample.
pub fn evaluate_all_observed(
    fitness: &FitnessSpec,
    requests: &[Request<'_>],
    on_sample: &(dyn Fn() + Sync),
) -> Result<Vec<Vec<f64>>, EvalError> {
    evaluate_all_reported(fitness, requests, &|_, _| {}, &|_, _, _| on_sample())
}

/// `evaluate_all`, calling `on_start(request, seed index)` before and `on_sample(request, seed
/// index, value)` after each sample on the thread that computes it (a step's worker records
/// each sample as it finishes); neither can change a sample.
pub fn evaluate_all_reported(
    fitness: &FitnessSpec,
    requests: &[Request<'_>],
    on_start: &(dyn Fn(usize, usize) + Sync),
    on_sample: &(dyn Fn(usize, usize, f64) + Sync),
) -> Result<Vec<Vec<f64>>, EvalError> {
    let compiled: Vec<CompiledFormula> = requests
        .iter()
        .map(|r| {
            // Each formula is scored over many games or bandit runs: worth machine code.
            CompiledFormula::native(r.formula).map_err(|e| EvalError {
                formula: r.formula.to_string(),
                seed: 0,
                message: e.to_string(),
            })
        })
        .collect::<Result<_, _>>()?;
    let tasks: Vec<(usize, usize, u64)> = requests
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.seeds.iter().enumerate().map(move |(j, &s)| (i, j, s)))
        .collect();
    let values: Vec<f64> = tasks
        .par_iter()
        .map_init(BanditScratch::default, |scratch, &(i, j, seed)| {
            on_start(i, j);
            let value = sample(fitness, requests[i].formula, &compiled[i], seed, scratch)?;
            on_sample(i, j, value);
            Ok(value)
        })
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(requests.len());
    let mut rest = values.as_slice();
    for r in requests {
        let (mine, tail) = rest.split_at(r.seeds.len());
        out.push(mine.to_vec());
        rest = tail;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_stands_above_or_below_a_reference_only_with_its_whole_interval() {
        let e = Estimate::from_samples(&[0.6, 0.7, 0.8, 0.7]);
        assert_eq!(e.against(0.5), Standing::Above);
        assert_eq!(e.against(0.9), Standing::Below);
        assert_eq!(e.against(e.mean), Standing::Undecided);
        assert_eq!(e.against(e.low - 1e-9), Standing::Above);
        assert_eq!(
            Estimate::from_samples(&[1.0]).against(0.0),
            Standing::Undecided
        );
    }

    #[test]
    fn pooled_estimate_equals_one_pass_and_interval_is_symmetric() {
        let xs = [1.0, 4.0, -2.0, 7.5, 3.25, 0.0];
        let whole = Estimate::from_samples(&xs);
        let mut parts = Estimate::from_samples(&xs[..2]);
        parts.add(&xs[2..]);
        assert_eq!(whole, parts);
        let mean = xs.iter().sum::<f64>() / 6.0;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 5.0;
        assert!((whole.mean - mean).abs() < 1e-12);
        assert!((whole.standard_error() - (var / 6.0).sqrt()).abs() < 1e-12);
        assert!((whole.high - whole.mean - (whole.mean - whole.low)).abs() < 1e-12);
    }
}
