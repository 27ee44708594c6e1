//! What an enumeration run is told (`enumerate: (..)` in an evolution spec, in place of
//! `strategy`): how far to enumerate, how to group, how large a space it may race, and the
//! games of the race, the constants' fit and the final race. `enumeration` runs it.

use super::halving::{needed_budget, rounds};
use serde::{Deserialize, Serialize};

/// The most sibling sets an enumeration groups on: every form is evaluated on every set.
pub const MAX_BANK: usize = 100_000;
/// The most candidates a race may hold.
pub const MAX_CANDIDATES: usize = 100_000;
/// The most games CLOP fits one finalist's constants with.
pub const MAX_FIT_GAMES: usize = 100_000;

/// An enumeration run: every form of at most `max_nodes` nodes, grouped by behaviour on a bank,
/// one representative per class raced by successive halving, the finalists' constants fitted,
/// and a final race against the seed formula on fresh samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumerateSpec {
    /// The most nodes a form has (1 to `formula::MAX_NODES`).
    pub max_nodes: usize,
    /// Race each form as a term added to this formula (`base + form`), grouped by what the sum
    /// picks: a search for what a formula that already plays lacks. Left out: the forms alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add_to: Option<evomcts_formula::Formula>,
    /// Refuse a size with more candidate trees than this (`formula::enumerate`).
    #[serde(default = "default_cap")]
    pub cap: u64,
    /// Sibling sets of the bank the forms are grouped on (`fingerprint-bank.csv`, recorded at
    /// the run's start as functional hashing records it).
    pub bank: usize,
    /// The values every placeholder takes when grouping, one pass over the bank each; the race
    /// plays each representative with its placeholders at each of them (`enumeration`).
    #[serde(default = "default_values")]
    pub values: Vec<f64>,
    /// The most candidates (a class at one of `values`) the race holds: with more, the run is
    /// refused naming the space's size, or with `sample: true` that many are drawn uniformly
    /// (seeded) from all of them.
    pub max_candidates: usize,
    #[serde(default)]
    pub sample: bool,
    /// Successive halving: `budget` samples over every class and round, `keep` finalists.
    pub race: RaceSpec,
    /// The finalists' constants fitted by CLOP; off when left out (finalists keep the race's
    /// values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<ClopFitSpec>,
    /// The final race: the finalists (fitted) and the seed formula on fresh samples.
    #[serde(rename = "final")]
    pub final_race: FinalSpec,
}

fn default_cap() -> u64 {
    10_000_000
}

fn default_values() -> Vec<f64> {
    vec![1.0]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceSpec {
    pub budget: usize,
    pub keep: usize,
}

/// CLOP on each finalist with placeholders (one to four of them), `games` samples at points
/// drawn `batch` at a time (so the run is the same on any number of threads), each placeholder
/// on a log scale from `low` to `high`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClopFitSpec {
    pub games: usize,
    #[serde(default = "default_batch")]
    pub batch: usize,
    #[serde(default = "default_low")]
    pub low: f64,
    #[serde(default = "default_high")]
    pub high: f64,
}

fn default_batch() -> usize {
    16
}
fn default_low() -> f64 {
    0.01
}
fn default_high() -> f64 {
    100.0
}

/// The final race's fresh samples and family-wise error rate (Holm over the finalists).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalSpec {
    pub samples: usize,
    #[serde(default = "default_alpha")]
    pub alpha: f64,
}

fn default_alpha() -> f64 {
    0.05
}

impl EnumerateSpec {
    /// The first problem found, as (field, message).
    pub fn validate(&self, max_samples: usize) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((format!("enumerate.{f}"), m));
        let max_nodes = evomcts_formula::MAX_NODES;
        if self.max_nodes == 0 || self.max_nodes > max_nodes {
            return err(
                "max_nodes",
                format!("must be between 1 and {max_nodes}, got {}", self.max_nodes),
            );
        }
        if let Some(base) = &self.add_to {
            // The sum with the largest term needs at most one slot more than `base + base`.
            let doubled = evomcts_formula::Formula::new(evomcts_formula::Expr::binary(
                evomcts_formula::BinaryOp::Add,
                base.expr().clone(),
                base.expr().clone(),
            ));
            if let Err(m) = evomcts_formula::CompiledFormula::new(&doubled) {
                return err("add_to", format!("too deep to take a term: {m}"));
            }
        }
        if self.bank == 0 || self.bank > MAX_BANK {
            return err(
                "bank",
                format!("must be between 1 and {MAX_BANK} sets, got {}", self.bank),
            );
        }
        if self.values.is_empty() || self.values.iter().any(|v| !v.is_finite()) {
            return err(
                "values",
                format!("must list finite numbers, got {:?}", self.values),
            );
        }
        if self.max_candidates == 0 || self.max_candidates > MAX_CANDIDATES {
            return err(
                "max_candidates",
                format!(
                    "must be between 1 and {MAX_CANDIDATES}, got {}",
                    self.max_candidates
                ),
            );
        }
        let r = &self.race;
        if r.keep == 0 || r.keep > self.max_candidates {
            return err(
                "race.keep",
                format!(
                    "must be between 1 and max_candidates ({}), got {}",
                    self.max_candidates, r.keep
                ),
            );
        }
        let needed = needed_budget(self.max_candidates, r.keep);
        if r.budget < needed {
            return err(
                "race.budget",
                format!(
                    "{} samples give up to {} candidates not one sample each in each of the {} rounds: \
                     at least {needed} are needed",
                    r.budget,
                    self.max_candidates,
                    rounds(self.max_candidates, r.keep)
                ),
            );
        }
        if let Some(f) = &self.fit {
            if f.games == 0 || f.games > MAX_FIT_GAMES {
                return err(
                    "fit.games",
                    format!("must be between 1 and {MAX_FIT_GAMES}, got {}", f.games),
                );
            }
            if f.batch == 0 || f.batch > f.games {
                return err(
                    "fit.batch",
                    format!("must be between 1 and games ({}), got {}", f.games, f.batch),
                );
            }
            if !(f.low > 0.0 && f.low < f.high && f.high.is_finite()) {
                return err(
                    "fit",
                    format!(
                        "low and high must be positive with low < high (a log scale), got {} and {}",
                        f.low, f.high
                    ),
                );
            }
        }
        let fin = &self.final_race;
        if fin.samples < 2 || fin.samples > max_samples {
            return err(
                "final.samples",
                format!(
                    "must be between 2 and {max_samples} to give a paired test, got {}",
                    fin.samples
                ),
            );
        }
        if !(fin.alpha > 0.0 && fin.alpha < 1.0) {
            return err(
                "final.alpha",
                format!("must be in (0, 1), got {}", fin.alpha),
            );
        }
        Ok(())
    }

    /// The most samples the run spends: the race, every finalist's fit, the final race (the
    /// finalists and the seed).
    pub fn samples(&self) -> u128 {
        let fit = self
            .fit
            .map_or(0, |f| f.games as u128 * self.race.keep as u128);
        let finals = (self.race.keep as u128 + 1) * self.final_race.samples as u128;
        self.race.budget as u128 + fit + finals
    }
}
