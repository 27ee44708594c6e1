//! Constants fitted inside evolution (`noise.fit_constants`): after selection, each of a
//! generation's best `candidates` survivors gets `steps` steps of SPSA (`spsa`, the optimiser of
//! `evomcts tune`) on its numeric constants and, when it carries one, its own C_E, and the
//! formula so fitted replaces it only if the survivor is significantly worse on paired samples.
//!
//! - Parameters: every constant of the tree (in preorder) whose magnitude is within
//!   [[`MIN_MAGNITUDE`], [`MAX_MAGNITUDE`]], and the formula's own `[C=...]` when it is in that
//!   range; zero and the other constants stay as they are. Each is searched on a log scale within
//!   [v / spread, v · spread] of its value v (scaled position 0.5 is v), sign kept, clamped to
//!   the magnitude bounds and rounded to six significant digits, so a fitted formula reads as
//!   people write constants.
//! - Samples: every evaluation plays the generation's first `samples` sample seeds (common
//!   random numbers, evolution's namespace, never validation's), so the two points of a step are
//!   compared sample by sample. The step's difference is the standardised mean of the paired
//!   differences (mean / standard deviation, clamped to [−1, 1]): the gains mean the same in
//!   every fitness's units.
//! - The rule: after the steps the fitted formula and the survivor play those seeds once more;
//!   the fitted formula replaces the survivor when the survivor is significantly worse on these
//!   paired samples (`racing::significantly_worse` at the spec's `z`: mean + t·se of survivor −
//!   fitted below 0, one-sided Student t). The fitted formula is an individual of its own (a new
//!   id, born this generation, the survivor its parent) whether it replaces the survivor or not,
//!   and both are recorded ([`Fitted`]). The seeds of the decision are those the steps were
//!   taken on, so a fitted formula's estimate is optimistic, as a newborn's is on the seeds it
//!   was selected on; the elites' extra samples and the re-estimate are fresh.
//!
//! Guarantees: the signs of each candidate's perturbations derive from the master seed, the
//! generation and the candidate's rank, and samples are pure functions of formula and seed, so
//! the fitting of a generation is a function of its survivors and the spec: a resumed run writes
//! the same bytes, whatever the thread count. A formula with nothing to fit spends nothing and is
//! not recorded.

use super::fitness::Estimate;
use super::racing::significantly_worse;
use super::spec::FitSpec;
use super::spsa::{significant, Gains, Probe, Spsa};
use evomcts_formula::{Expr, Formula};
use evomcts_records::runfs::derive_seed;
use serde::{Deserialize, Serialize};

/// Domain tag of the fitting's SPSA seeds ("fitconst" in ASCII).
const FIT_DOMAIN: u64 = 0x6669_7463_6f6e_7374;

/// The smallest magnitude a constant is fitted from or to.
pub const MIN_MAGNITUDE: f64 = 1e-3;
/// The largest magnitude a constant is fitted from or to.
pub const MAX_MAGNITUDE: f64 = 1e3;

/// Whether `v` is a value fitting may start from or end at: finite, its magnitude within
/// [[`MIN_MAGNITUDE`], [`MAX_MAGNITUDE`]].
pub fn fittable(v: f64) -> bool {
    v.is_finite() && (MIN_MAGNITUDE..=MAX_MAGNITUDE).contains(&v.abs())
}

/// One survivor's fitting, as its generation file records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fitted {
    /// The survivor fitted, and its formula.
    pub id: usize,
    pub before: Formula,
    /// The survivor's fitness on the fitting's samples.
    pub before_fitness: Estimate,
    /// The fitted formula's own id (born this generation, the survivor its parent).
    pub fitted_id: usize,
    pub after: Formula,
    /// The fitted formula's fitness on the same samples.
    pub after_fitness: Estimate,
    /// After minus before, sample by sample.
    pub difference: Estimate,
    /// Values fitted: constants, and the own C_E when the formula carries one.
    pub parameters: usize,
    pub steps: usize,
    /// Fitness samples this fitting played (a pair of games or a bandit run each).
    pub spent: u64,
    /// Whether the fitted formula replaced the survivor (see the module's rule).
    pub replaced: bool,
}

/// Where a fitted value goes: the `n`-th constant of the tree in preorder, or the own C_E.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slot {
    Constant(usize),
    OwnCE,
}

/// The values of `formula` that fitting moves, each with its value now.
fn parameters(formula: &Formula) -> Vec<(Slot, f64)> {
    let mut out = Vec::new();
    let mut n = 0;
    formula.expr().for_each_node(&mut |node| {
        if let Expr::Const(v) = node {
            if fittable(*v) {
                out.push((Slot::Constant(n), *v));
            }
            n += 1;
        }
    });
    if let Some(c_e) = formula.c_e().filter(|&c| fittable(c)) {
        out.push((Slot::OwnCE, c_e));
    }
    out
}

/// The value at scaled position `x` of a parameter that starts at `start` (see the module).
fn natural(start: f64, x: f64, spread: f64) -> f64 {
    let magnitude = start.abs() * spread.powf(2.0 * x.clamp(0.0, 1.0) - 1.0);
    significant(magnitude.clamp(MIN_MAGNITUDE, MAX_MAGNITUDE), 6)
        .clamp(MIN_MAGNITUDE, MAX_MAGNITUDE)
        .copysign(start)
}

/// `formula` with its parameters `params` set to the scaled positions `x`.
fn formula_at(formula: &Formula, params: &[(Slot, f64)], x: &[f64], spread: f64) -> Formula {
    let mut constants = Vec::new();
    formula.expr().for_each_node(&mut |node| {
        if let Expr::Const(v) = node {
            constants.push(*v);
        }
    });
    let mut c_e = formula.c_e();
    for (&(slot, start), &x) in params.iter().zip(x) {
        let value = natural(start, x, spread);
        match slot {
            Slot::Constant(n) => constants[n] = value,
            Slot::OwnCE => c_e = Some(value),
        }
    }
    let mut values = constants.into_iter();
    Formula::new(with_constants(formula.expr(), &mut values)).with_c_e(c_e)
}

/// `expr` with its constants taken in preorder from `values`.
fn with_constants(expr: &Expr, values: &mut impl Iterator<Item = f64>) -> Expr {
    match expr {
        Expr::Const(v) => Expr::Const(values.next().unwrap_or(*v)),
        Expr::Term(t) => Expr::Term(*t),
        Expr::Unary(op, x) => Expr::unary(*op, with_constants(x, values)),
        Expr::Binary(op, a, b) => {
            let a = with_constants(a, values);
            Expr::binary(*op, a, with_constants(b, values))
        }
    }
}

/// The standardised mean of the paired differences `plus − minus`: mean / standard deviation,
/// clamped to [−1, 1] (the sign of the mean when every difference is equal).
fn standardised(plus: &[f64], minus: &[f64]) -> f64 {
    let d: Vec<f64> = plus.iter().zip(minus).map(|(p, m)| p - m).collect();
    let e = Estimate::from_samples(&d);
    let sd = if e.samples < 2 {
        0.0
    } else {
        (e.m2.max(0.0) / (e.samples as f64 - 1.0)).sqrt()
    };
    if sd > 0.0 {
        (e.mean / sd).clamp(-1.0, 1.0)
    } else if e.mean > 0.0 {
        1.0
    } else if e.mean < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// One survivor being fitted.
struct Fitting<'a> {
    id: usize,
    formula: &'a Formula,
    params: Vec<(Slot, f64)>,
    spsa: Spsa,
}

impl Fitting<'_> {
    fn at(&self, x: &[f64], spread: f64) -> Formula {
        formula_at(self.formula, &self.params, x, spread)
    }
}

/// Fits `candidates` (id and formula, best first) of generation `generation` of the run with
/// master seed `master` on `seeds` (the generation's first `spec.samples` sample seeds), the
/// fitted formulas numbered from `first_id` in that order. `play(formulas, seeds)` returns each
/// formula's samples on the seeds, in order; each step plays every candidate's two points in one
/// call. Returns a record for each candidate with something to fit, in order.
pub fn fit<E>(
    spec: &FitSpec,
    master: u64,
    generation: usize,
    candidates: &[(usize, &Formula)],
    seeds: &[u64],
    first_id: usize,
    play: impl FnMut(&[Formula], &[u64]) -> Result<Vec<Vec<f64>>, E>,
) -> Result<Vec<Fitted>, E> {
    let fitted = fit_with_samples(spec, master, generation, candidates, seeds, first_id, play)?;
    Ok(fitted.into_iter().map(|(record, _)| record).collect())
}

/// [`fit`], each record with the fitted formula's samples on `seeds` (in order), from which a
/// fitted formula that replaces its survivor takes its fitness on each game of a mix.
pub fn fit_with_samples<E>(
    spec: &FitSpec,
    master: u64,
    generation: usize,
    candidates: &[(usize, &Formula)],
    seeds: &[u64],
    first_id: usize,
    mut play: impl FnMut(&[Formula], &[u64]) -> Result<Vec<Vec<f64>>, E>,
) -> Result<Vec<(Fitted, Vec<f64>)>, E> {
    let gains = Gains::spall(spec.a, spec.c, spec.steps as f64 / 10.0);
    let mut fittings: Vec<Fitting> = candidates
        .iter()
        .enumerate()
        .filter_map(|(rank, &(id, formula))| {
            let params = parameters(formula);
            let seed = derive_seed(master, &[FIT_DOMAIN, generation as u64, rank as u64]);
            (!params.is_empty()).then(|| Fitting {
                id,
                formula,
                spsa: Spsa::new(gains, seed, vec![0.5; params.len()]),
                params,
            })
        })
        .collect();
    if fittings.is_empty() {
        return Ok(Vec::new());
    }
    for _ in 0..spec.steps {
        let probes: Vec<Probe> = fittings.iter().map(|f| f.spsa.probe()).collect();
        let formulas: Vec<Formula> = fittings
            .iter()
            .zip(&probes)
            .flat_map(|(f, p)| [f.at(&p.plus, spec.spread), f.at(&p.minus, spec.spread)])
            .collect();
        let samples = play(&formulas, seeds)?;
        for ((f, probe), pair) in fittings.iter_mut().zip(&probes).zip(samples.chunks(2)) {
            f.spsa
                .update_by_difference(probe, standardised(&pair[0], &pair[1]));
        }
    }
    let formulas: Vec<Formula> = fittings
        .iter()
        .flat_map(|f| [f.at(&f.spsa.x, spec.spread), f.formula.clone()])
        .collect();
    let samples = play(&formulas, seeds)?;
    let spent = (2 * spec.steps as u64 + 2) * seeds.len() as u64;
    Ok(fittings
        .iter()
        .zip(formulas.chunks(2).zip(samples.chunks(2)))
        .enumerate()
        .map(|(j, (f, (pair, s)))| {
            let (after, before) = (&s[0], &s[1]);
            let difference: Vec<f64> = after.iter().zip(before).map(|(a, b)| a - b).collect();
            let record = Fitted {
                id: f.id,
                before: f.formula.clone(),
                before_fitness: Estimate::from_samples(before),
                fitted_id: first_id + j,
                after: pair[0].clone(),
                after_fitness: Estimate::from_samples(after),
                difference: Estimate::from_samples(&difference),
                parameters: f.params.len(),
                steps: spec.steps,
                spent,
                replaced: significantly_worse(before, after, spec.z),
            };
            (record, after.clone())
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(steps: usize) -> FitSpec {
        FitSpec {
            candidates: 1,
            steps,
            samples: 8,
            spread: 4.0,
            a: 0.1,
            c: 0.1,
            z: 1.645,
        }
    }

    /// A uniform draw in [−0.5, 0.5) from the words `of`.
    fn noise(of: &[u64]) -> f64 {
        (derive_seed(11, of) >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    }

    /// A synthetic fitness of the formula's first constant v: −(v − 1.5)², plus noise of sd
    /// about 3 shared by every formula on a seed (the luck common random numbers cancel) and a
    /// little of each formula's own.
    fn synthetic(formulas: &[Formula], seeds: &[u64]) -> Result<Vec<Vec<f64>>, String> {
        Ok(formulas
            .iter()
            .map(|f| {
                let v = parameters(f)[0].1;
                seeds
                    .iter()
                    .map(|&s| {
                        let own = noise(&[s, v.to_bits()]);
                        -(v - 1.5).powi(2) + 10.0 * noise(&[s]) + 0.1 * own
                    })
                    .collect()
            })
            .collect())
    }

    fn fit_one(text: &str, steps: usize) -> Fitted {
        let formula: Formula = text.parse().unwrap();
        let seeds: Vec<u64> = (0..8).collect();
        let mut records = fit(&spec(steps), 5, 3, &[(4, &formula)], &seeds, 20, synthetic).unwrap();
        assert_eq!(records.len(), 1);
        records.remove(0)
    }

    /// From 4 (above the optimum 1.5) the constant comes down, from 0.5 (below it) it goes up,
    /// each time closer to 1.5, and the fitted formula, clearly better on the paired samples,
    /// replaces the survivor. With the step's sign flipped in `update_by_difference`, or the
    /// rule's arguments swapped, this fails.
    #[test]
    fn fitting_moves_a_constant_towards_a_known_optimum_and_replaces_the_survivor() {
        for (start, text) in [(4.0, "Q + 4*sqrt(ln(N)/n)"), (0.5, "Q + 0.5*sqrt(ln(N)/n)")] {
            let r = fit_one(text, 12);
            let v = parameters(&r.after)[0].1;

            assert!(
                (v - 1.5).abs() < (start - 1.5f64).abs() / 2.0,
                "{start} fitted to {v}"
            );
            assert!(r.replaced && r.difference.mean > 0.0, "{r:?}");
            assert_eq!((r.id, r.fitted_id, r.parameters, r.steps), (4, 20, 1, 12));
            assert_eq!(r.spent, 26 * 8);
            assert_eq!(r.before.to_string(), text);
            assert!(r.after_fitness.mean > r.before_fitness.mean);
        }
    }

    /// A fitness the constants do not change: every paired difference is 0, so the fitted
    /// formula does not replace the survivor, though it is recorded.
    #[test]
    fn a_fitting_that_changes_nothing_does_not_replace_the_survivor() {
        let formula: Formula = "Q + 2*C*sqrt(ln(N)/n) [C=0.5]".parse().unwrap();
        let flat = |formulas: &[Formula], seeds: &[u64]| -> Result<Vec<Vec<f64>>, String> {
            Ok(formulas
                .iter()
                .map(|_| seeds.iter().map(|&s| s as f64).collect())
                .collect())
        };
        let seeds = [1, 2, 3];
        let records = fit(&spec(3), 1, 0, &[(2, &formula)], &seeds, 9, flat).unwrap();
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert!(!r.replaced);
        assert_eq!(r.difference.mean, 0.0);
        assert_eq!((r.parameters, r.spent), (2, 8 * 3));
    }

    #[test]
    fn parameters_are_the_fittable_constants_and_the_own_c_e() {
        let formula: Formula = "Q + 2*C*sqrt(ln(N)/n) + 0*H - 0.00001*n [C=0.25]"
            .parse()
            .unwrap();
        let params = parameters(&formula);
        assert_eq!(
            params,
            vec![(Slot::Constant(0), 2.0), (Slot::OwnCE, 0.25)],
            "0 and 1e-5 stay"
        );
        // The midpoint is the formula itself; other points move only the parameters.
        assert_eq!(formula_at(&formula, &params, &[0.5, 0.5], 4.0), formula);
        let moved = formula_at(&formula, &params, &[1.0, 0.0], 4.0);
        assert_eq!(
            moved.to_string(),
            "Q + 8*C*sqrt(ln(N)/n) + 0*H - 0.00001*n [C=0.0625]"
        );
        assert_eq!(natural(-2.0, 1.0, 4.0), -8.0);
        assert_eq!(natural(900.0, 1.0, 4.0), MAX_MAGNITUDE);
        let none: Formula = "Q + 0*n".parse().unwrap();
        let records = fit(&spec(2), 1, 0, &[(1, &none)], &[1, 2], 5, |_, _| {
            Err::<Vec<Vec<f64>>, _>("nothing should be played")
        })
        .unwrap();
        assert!(records.is_empty());
    }

    #[test]
    fn the_same_inputs_give_the_same_fitting_and_other_generations_other_signs() {
        let a = fit_one("Q + 4*sqrt(ln(N)/n)", 4);
        assert_eq!(a, fit_one("Q + 4*sqrt(ln(N)/n)", 4));
        let formula: Formula = "Q + 4*sqrt(ln(N)/n) + 3*n".parse().unwrap();
        let path = |generation| {
            let seeds: Vec<u64> = (0..8).collect();
            fit(
                &spec(4),
                5,
                generation,
                &[(4, &formula)],
                &seeds,
                20,
                synthetic,
            )
            .unwrap()
            .remove(0)
            .after
        };
        assert_ne!(path(1), path(2));
    }

    #[test]
    fn the_standardised_difference_is_clamped_and_signed() {
        assert_eq!(standardised(&[3.0, 3.0], &[1.0, 1.0]), 1.0);
        assert_eq!(standardised(&[1.0, 1.0], &[3.0, 3.0]), -1.0);
        assert_eq!(standardised(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
        let d = standardised(&[1.0, 2.0, 3.0], &[1.0, 1.0, 1.0]);
        assert!((d - 1.0).abs() < 1e-12, "mean 1, sd 1: {d}");
        assert!((standardised(&[0.5, 0.0, 0.0], &[0.0; 3]) - 0.57735).abs() < 1e-5);
    }
}
