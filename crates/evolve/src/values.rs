//! What a generation file's values may be, so that no reader takes an impossible one for a
//! result: a fitness estimate has finite numbers, a mean within the fitness's range
//! ([`FitnessSpec::check_mean`](super::spec::FitnessSpec::check_mean), the bounds a job step's
//! samples are checked against) and inside its own interval (low ≤ mean ≤ high)
//! ([`check_estimate`]); a formula is one mutation under the run's grammar can breed from the
//! seed formula ([`breedable`]).
//!
//! The range and the grammar are checked when the run's spec is known ([`RunRules`]:
//! `evolve --resume`, and readers of a folder whose `spec.ron` reads); the rest always.
//! `population` walks a file's members through these checks and adds its own (birth no later
//! than the file's generation, parent born before the child, size and depth those of the
//! formula), naming each member's place and field, the records of the constants fitted
//! ([`check_fitted`]) and, in a mix of games, each member's fitness on every game
//! ([`check_per_game`]).

use super::fitness::Estimate;
use super::fitting::{fittable, Fitted};
use super::spec::{EvolveSpec, FitnessSpec};
use evomcts_formula::{Expr, Formula, Function, Grammar};
use evomcts_records::escape::number;

/// The run's spec and its grammar, loaded once for every file of a folder.
pub struct RunRules<'a> {
    pub spec: &'a EvolveSpec,
    pub grammar: Grammar,
}

impl<'a> RunRules<'a> {
    /// `None` when the spec's grammar does not load (then only the spec-free checks run).
    pub fn new(spec: &'a EvolveSpec) -> Option<RunRules<'a>> {
        spec.grammar()
            .ok()
            .map(|grammar| RunRules { spec, grammar })
    }

    /// That the run could have bred `formula` ([`breedable`] under its grammar and seed).
    pub fn breedable(&self, formula: &Formula) -> Result<(), String> {
        let fits = self.spec.noise.fit_constants.is_some();
        breedable(formula, &self.grammar, &self.spec.seed_formula, fits)
    }
}

/// One record of a generation's fitting (see `fitting`): its estimates as any member's, the
/// fitted formula's id born after the survivor's and before `next_id`, the fitted formula the
/// survivor's tree, and both formulas ones the run breeds. Refused as `(field, problem)`.
pub fn check_fitted(
    f: &Fitted,
    next_id: usize,
    rules: Option<&RunRules<'_>>,
) -> Result<(), (&'static str, String)> {
    for (field, estimate, range) in [
        ("before_fitness", &f.before_fitness, rules),
        ("after_fitness", &f.after_fitness, rules),
        ("difference", &f.difference, None),
    ] {
        check_estimate(estimate, range).map_err(|(_, why)| (field, why))?;
    }
    if !(f.id < f.fitted_id && f.fitted_id < next_id) {
        return Err((
            "fitted_id",
            format!(
                "{} is not born after the survivor {} and before the file's next_id {next_id}",
                f.fitted_id, f.id
            ),
        ));
    }
    if f.after.size() != f.before.size() || f.after.depth() != f.before.depth() {
        return Err((
            "after",
            "fitting changed the tree, not only constants".into(),
        ));
    }
    if let Some(rules) = rules {
        for (field, formula) in [("before", &f.before), ("after", &f.after)] {
            rules
                .breedable(formula)
                .map_err(|why| (field, format!("not one this run breeds: {why}")))?;
        }
    }
    Ok(())
}

/// That estimate `e` is one the run could have written: every number finite, no mean,
/// spread or interval without samples, a spread (`m2`) that is never negative and zero for one
/// sample, the interval the mean ∓ 1.96 standard errors its samples and `m2` give (so holding
/// the mean), and, when the spec is known, the mean within the fitness's range, a sum of
/// samples on the fitness's step and a spread its samples could have within that range.
/// Refused as `(field, problem)`.
pub fn check_estimate(
    e: &Estimate,
    rules: Option<&RunRules<'_>>,
) -> Result<(), (&'static str, String)> {
    for (field, value) in [
        ("fitness.mean", e.mean),
        ("fitness.low", e.low),
        ("fitness.high", e.high),
        ("fitness.m2", e.m2),
    ] {
        if !value.is_finite() {
            return Err((
                field,
                format!("{} is not a number a run writes", number(value)),
            ));
        }
    }
    check_samples_and_spread(e)?;
    if let Some(rules) = rules {
        rules.spec.fitness.check_mean(e.mean).map_err(|why| {
            (
                "fitness.mean",
                format!(
                    "{} is not a fitness this run could have written: {why}",
                    number(e.mean)
                ),
            )
        })?;
        check_in_range(e, rules.spec.fitness.sample_range())?;
    }
    if !(e.low <= e.mean && e.mean <= e.high) {
        return Err((
            "fitness.low",
            format!(
                "the interval [{}, {}] does not hold its mean {}",
                number(e.low),
                number(e.high),
                number(e.mean)
            ),
        ));
    }
    check_interval(e)
}

/// No values without samples; `m2` never negative, and zero for a single sample.
fn check_samples_and_spread(e: &Estimate) -> Result<(), (&'static str, String)> {
    if e.samples == 0 {
        for (field, value) in [
            ("fitness.mean", e.mean),
            ("fitness.m2", e.m2),
            ("fitness.low", e.low),
            ("fitness.high", e.high),
        ] {
            if value != 0.0 {
                return Err((
                    field,
                    format!(
                        "{}, but the estimate has no samples (a run writes 0)",
                        number(value)
                    ),
                ));
            }
        }
    }
    if e.m2 < 0.0 {
        return Err((
            "fitness.m2",
            format!(
                "{} is negative; a sum of squared deviations never is",
                number(e.m2)
            ),
        ));
    }
    if e.samples == 1 && e.m2 != 0.0 {
        return Err((
            "fitness.m2",
            format!(
                "{}, but one sample has no spread (a run writes 0)",
                number(e.m2)
            ),
        ));
    }
    Ok(())
}

/// The interval is the mean ∓ 1.96 standard errors (as `Estimate::add` writes it), up to
/// rounding.
fn check_interval(e: &Estimate) -> Result<(), (&'static str, String)> {
    let half = e.half_width();
    let slack = 1e-9 * (1.0 + e.mean.abs() + half);
    for (field, written, expected) in [
        ("fitness.low", e.low, e.mean - half),
        ("fitness.high", e.high, e.mean + half),
    ] {
        if (written - expected).abs() > slack {
            return Err((
                field,
                format!(
                    "{}, but {} samples of mean {} and m2 {} give {}",
                    number(written),
                    e.samples,
                    number(e.mean),
                    number(e.m2),
                    number(expected)
                ),
            ));
        }
    }
    Ok(())
}

/// Samples from `low` to `high`, each a multiple of `step` when there is one: their sum is on
/// the step, and their spread at most what samples in the range with that mean can have
/// (the Bhatia–Davis bound, variance ≤ (high − mean)(mean − low)).
fn check_in_range(
    e: &Estimate,
    (low, high, step): (f64, f64, Option<f64>),
) -> Result<(), (&'static str, String)> {
    let n = e.samples as f64;
    let scale = low.abs().max(high.abs()).max(1.0);
    if let Some(step) = step.filter(|_| e.samples > 0) {
        let units = e.mean * n / step;
        // Welford's mean drifts by about n rounding errors; past half a step the check says
        // nothing.
        let slack = (64.0 * n * n * f64::EPSILON * scale / step).max(1e-6);
        if slack < 0.25 && (units - units.round()).abs() > slack {
            return Err((
                "fitness.mean",
                format!(
                    "{} is no mean of {} samples that are multiples of {}",
                    number(e.mean),
                    e.samples,
                    number(step)
                ),
            ));
        }
    }
    let most = n * ((high - e.mean) * (e.mean - low)).max(0.0);
    if e.m2 > most + 1e-9 * scale * scale * n.max(1.0) {
        return Err((
            "fitness.m2",
            format!(
                "{} is more spread than {} samples from {} to {} with mean {} can have (at most {})",
                number(e.m2),
                e.samples,
                number(low),
                number(high),
                number(e.mean),
                number(most)
            ),
        ));
    }
    Ok(())
}

/// A member's fitness on each game of a mix (`Member::per_game`) against its whole `fitness`:
/// one estimate per game of the run's mix and none for another fitness (when the spec is
/// known), each one a run could have written ([`check_estimate`]), their samples adding up to
/// the member's. Refused as `(field, problem)`.
pub fn check_per_game(
    per_game: &[Estimate],
    fitness: &Estimate,
    rules: Option<&RunRules<'_>>,
) -> Result<(), (&'static str, String)> {
    if let Some(rules) = rules {
        let games = match &rules.spec.fitness {
            FitnessSpec::Mixed(mix) => mix.games.len(),
            FitnessSpec::Bandit(_) | FitnessSpec::Planted(_) | FitnessSpec::Games(_) => 0,
        };
        if per_game.len() != games {
            return Err((
                "per_game",
                format!(
                    "{} estimates, but the run's fitness ({}) plays {games} games of a mix",
                    per_game.len(),
                    rules.spec.fitness.label()
                ),
            ));
        }
    }
    for (i, e) in per_game.iter().enumerate() {
        check_estimate(e, rules)
            .map_err(|(field, why)| ("per_game", format!("[{i}].{field}: {why}")))?;
    }
    let samples: u64 = per_game.iter().map(|e| e.samples).sum();
    if !per_game.is_empty() && samples != fitness.samples {
        return Err((
            "per_game",
            format!(
                "its games' samples add up to {samples}, but the member's fitness has {}",
                fitness.samples
            ),
        ));
    }
    Ok(())
}

/// Whether mutation under `grammar` can reach `formula` from `seed`: every node is one of the
/// grammar's or one the seed holds (mutation keeps what it does not replace), a constant may
/// also be a perturbed one (within the grammar's perturbation bounds) or, when the run
/// `fits` constants, a fitted one (`fitting::fittable`), C_E is one of the grammar's values, the
/// seed's or a fitted one, and the depth is within the cap or the seed's depth (a mutation
/// never makes a formula deeper than both, and fitting keeps the tree).
pub fn breedable(
    formula: &Formula,
    grammar: &Grammar,
    seed: &Formula,
    fits: bool,
) -> Result<(), String> {
    let cap = grammar.depth_cap().max(seed.depth());
    if formula.depth() > cap {
        return Err(format!("depth {} exceeds the cap {cap}", formula.depth()));
    }
    let fitted = |v: f64| fits && fittable(v);
    if let Some(c_e) = formula.c_e() {
        if !grammar.c_e_values().contains(&c_e) && seed.c_e() != Some(c_e) && !fitted(c_e) {
            return Err(format!("C_E {} is not in the grammar's set", number(c_e)));
        }
    }
    let in_seed = |wanted: &dyn Fn(&Expr) -> bool| {
        let mut found = false;
        seed.expr().for_each_node(&mut |n| found |= wanted(n));
        found
    };
    let perturbed = |v: f64| {
        fitted(v)
            || grammar
                .constant_perturbation()
                .is_some_and(|p| v.is_finite() && (p.min..=p.max).contains(&v.abs()))
    };
    let mut problem = None;
    formula.expr().for_each_node(&mut |node| {
        if problem.is_some() {
            return;
        }
        problem = match node {
            Expr::Const(v)
                if !grammar.constants().contains(v)
                    && !perturbed(*v)
                    && !in_seed(&|n| matches!(n, Expr::Const(s) if s == v)) =>
            {
                Some(format!("constant {} is not in the grammar", number(*v)))
            }
            Expr::Term(t) if !grammar.terminals().contains(t) && !seed.uses(*t) => {
                Some(format!("terminal {t} is not in the grammar"))
            }
            Expr::Unary(op, _)
                if !grammar.functions().contains(&Function::Unary(*op))
                    && !in_seed(&|n| matches!(n, Expr::Unary(s, _) if s == op)) =>
            {
                Some(format!("function {} is not in the grammar", op.symbol()))
            }
            Expr::Binary(op, _, _)
                if !grammar.functions().contains(&Function::Binary(*op))
                    && !in_seed(&|n| matches!(n, Expr::Binary(s, _, _) if s == op)) =>
            {
                Some(format!("function {} is not in the grammar", op.symbol()))
            }
            _ => None,
        };
    });
    problem.map_or(Ok(()), Err)
}
