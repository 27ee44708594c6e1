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

/// That estimate `e` is one the run could have written: every number finite, the mean within
/// the fitness's range (when the spec is known) and inside its interval. Refused as
/// `(field, problem)`.
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
            FitnessSpec::Bandit(_) | FitnessSpec::Games(_) => 0,
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
