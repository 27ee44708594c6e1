//! The planted positive control: a fitness whose best formula is known, so a search can be
//! scored by how much of a known gain it recovers.
//!
//! The truth is a bank of synthetic sibling sets (`formula::synthetic_bank`, `sets` of them from
//! `bank_seed`) and the planted formula's pick in each. A formula's *agreement* a is the share of
//! those sets in which it picks the planted formula's child (the first maximum, as the search
//! picks). One sample is a win rate of two independent "games", each won with probability
//! p = ½ + gain·(a − ½): the planted formula (a = 1) wins ½ + gain/2, a formula that never
//! agrees ½ − gain/2, and the expected sample is p. The known gain of a search that starts from
//! formula s is gain·(1 − a(s)); the share of it a champion c recovers is
//! (a(c) − a(s)) / (1 − a(s)), exactly, from the bank (no games).
//!
//! What it tests is the search, not MCTS: fitness depends on a formula only through the
//! children it picks on the truth bank, as a game's outcome depends on the children a formula
//! picks in its trees. A search that groups formulas by their picks on a bank drawn from the same
//! distribution (another seed) is the analogue of grouping on a game's recorded positions.

use evomcts_formula::{first_argmax, synthetic_bank, CompiledFormula, Formula, SiblingSets};
use evomcts_games::GameRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The most sets a truth bank has: each sample evaluates two formulas on every set.
pub const MAX_SETS: usize = 100_000;

/// The planted control's fitness: `Planted(formula: "Q + H/n", gain: 0.2)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlantedSpec {
    /// The formula whose picks the fitness rewards.
    pub formula: Formula,
    /// The win probability's gain from agreeing nowhere to agreeing everywhere, in (0, 1].
    pub gain: f64,
    /// Sets of the truth bank.
    pub sets: usize,
    /// The truth bank's seed (the run's master seed does not change the truth).
    pub bank_seed: u64,
    /// C_E in every set of the bank (what `C` reads).
    pub c_e: f64,
}

impl Default for PlantedSpec {
    fn default() -> Self {
        PlantedSpec {
            formula: "Q + H/n"
                .parse()
                .expect("the default planted formula parses"),
            gain: 0.2,
            sets: 500,
            bank_seed: 1,
            c_e: 0.5,
        }
    }
}

impl PlantedSpec {
    /// The first problem found, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((format!("fitness.{f}"), m));
        if !(self.gain > 0.0 && self.gain <= 1.0) {
            return err("gain", format!("must be in (0, 1], got {}", self.gain));
        }
        if self.sets == 0 || self.sets > MAX_SETS {
            return err(
                "sets",
                format!("must be between 1 and {MAX_SETS}, got {}", self.sets),
            );
        }
        if !self.c_e.is_finite() || self.c_e < 0.0 {
            return err(
                "c_e",
                format!("must be a finite number >= 0, got {}", self.c_e),
            );
        }
        if let Err(e) = CompiledFormula::new(&self.formula) {
            return err("formula", e.to_string());
        }
        Ok(())
    }
}

/// The truth bank of `spec`.
pub fn truth_bank(spec: &PlantedSpec) -> SiblingSets {
    synthetic_bank(spec.sets, spec.bank_seed, spec.c_e)
}

/// The child `formula` picks in each set of `bank`.
fn picks<'a>(
    formula: &'a CompiledFormula,
    bank: &'a SiblingSets,
) -> impl Iterator<Item = usize> + 'a {
    bank.iter()
        .map(move |set| first_argmax(set.iter().map(|x| formula.eval(x))))
}

/// The share of the truth bank's sets in which `formula` picks the planted formula's child.
pub fn agreement(formula: &CompiledFormula, spec: &PlantedSpec) -> Result<f64, String> {
    let bank = truth_bank(spec);
    let planted = CompiledFormula::new(&spec.formula).map_err(|e| e.to_string())?;
    Ok(agreement_on(formula, &planted, &bank))
}

fn agreement_on(formula: &CompiledFormula, planted: &CompiledFormula, bank: &SiblingSets) -> f64 {
    if bank.is_empty() {
        return 0.0;
    }
    let same = picks(formula, bank)
        .zip(picks(planted, bank))
        .filter(|(a, b)| a == b)
        .count();
    same as f64 / bank.len() as f64
}

/// [`agreement`] of a formula as written.
pub fn agreement_of(formula: &Formula, spec: &PlantedSpec) -> Result<f64, String> {
    agreement(
        &CompiledFormula::new(formula).map_err(|e| e.to_string())?,
        spec,
    )
}

/// The win probability of a formula of agreement `a`.
pub fn win_probability(a: f64, spec: &PlantedSpec) -> f64 {
    0.5 + spec.gain * (a - 0.5)
}

/// One sample: the win rate of two games won with the formula's probability, drawn from
/// `seed`.
pub fn sample(formula: &CompiledFormula, spec: &PlantedSpec, seed: u64) -> Result<f64, String> {
    let p = win_probability(agreement(formula, spec)?, spec);
    let mut rng = GameRng::seed_from_u64(seed);
    let wins = (0..2).filter(|_| rng.gen::<f64>() < p).count();
    Ok(wins as f64 / 2.0)
}

/// The share of the known gain over `start` that `champion` recovers (1 when `start` already
/// agrees everywhere and so does `champion`; the share can be negative).
pub fn recovered(champion: &Formula, start: &Formula, spec: &PlantedSpec) -> Result<f64, String> {
    let (c, s) = (agreement_of(champion, spec)?, agreement_of(start, spec)?);
    Ok(if s >= 1.0 {
        if c >= 1.0 {
            1.0
        } else {
            0.0
        }
    } else {
        (c - s) / (1.0 - s)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(formula: &str) -> PlantedSpec {
        PlantedSpec {
            formula: formula.parse().unwrap(),
            ..PlantedSpec::default()
        }
    }

    fn compiled(text: &str) -> CompiledFormula {
        CompiledFormula::new(&text.parse::<Formula>().unwrap()).unwrap()
    }

    /// The planted formula agrees everywhere, a monotone transform of it too, another formula
    /// less; the recovered share is 1 for the planted formula and 0 for the start.
    #[test]
    fn agreement_is_one_exactly_for_the_planted_class() {
        let s = spec("Q + H/n");
        assert_eq!(agreement(&compiled("Q + H/n"), &s).unwrap(), 1.0);
        assert_eq!(agreement(&compiled("2*(Q + H/n) + 1"), &s).unwrap(), 1.0);
        let uct = agreement(&compiled("Q + 2*C*sqrt(2*ln(N)/n)"), &s).unwrap();
        assert!(uct > 0.0 && uct < 0.9, "{uct}");
        let start = Formula::uct();
        let planted: Formula = "Q + H/n".parse().unwrap();
        assert_eq!(recovered(&planted, &start, &s).unwrap(), 1.0);
        assert_eq!(recovered(&start, &start, &s).unwrap(), 0.0);
    }

    /// Samples are win rates of two games; their mean approaches the formula's probability.
    #[test]
    fn samples_average_to_the_win_probability() {
        let s = PlantedSpec {
            gain: 0.4,
            ..spec("Q + H/n")
        };
        for (text, a) in [
            ("Q + H/n", 1.0),
            ("Q", agreement_of(&"Q".parse().unwrap(), &s).unwrap()),
        ] {
            let f = compiled(text);
            let n = 4000;
            let mean = (0..n).map(|i| sample(&f, &s, i).unwrap()).sum::<f64>() / n as f64;
            let p = win_probability(a, &s);
            assert!((mean - p).abs() < 0.02, "{text}: {mean} vs {p}");
            assert!([0.0, 0.5, 1.0].contains(&sample(&f, &s, 3).unwrap()));
        }
        assert_eq!(win_probability(1.0, &s), 0.7);
    }
}
