//! What a spec or a flag may ask to run: the checks every controller a spec names passes (its
//! settings, its formula's own `[C=...]`, the work of one decision), a controller read as a
//! spec writes it with those checks passed, and the number of worker threads. Each size a
//! controller gives is bounded, and so is their product, one decision's work; every message
//! states its bound.
//!
//! Layering: above `runfs` (a controller's files are read as a spec's are), below every run
//! kind that checks controllers (`league`, `evolve`) and the command line.

use crate::runfs::{parse_spec, resolve_controller, SpecFileError};
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use std::path::Path;

/// Every check a controller of a spec passes (its settings, its formula's own `[C=...]`, the
/// work of one decision), as (field, message).
pub fn check_controller(spec: &ControllerSpec) -> Result<(), (String, String)> {
    spec.validate()
        .map_err(|e| (String::new(), e.to_string()))?;
    check_formula_c_e(spec)?;
    check_decision_work(spec)
}

/// A controller written as a spec writes it (`Mcts(sims: 400, c_e: 2.0)`, `Random`), parsed in
/// the spec files' dialect, the files it names read relative to `base` and every check of
/// [`check_controller`] passed; `file` names the text in errors.
pub fn parse_controller(
    text: &str,
    file: &str,
    base: &Path,
) -> Result<ControllerSpec, SpecFileError> {
    let invalid = |(field, message): (String, String)| SpecFileError::Invalid {
        file: file.to_string(),
        field: if field.is_empty() {
            "spec".into()
        } else {
            field
        },
        message,
    };
    let mut spec: ControllerSpec = parse_spec(text, file, |_| Ok(()))?;
    resolve_controller(&mut spec, base).map_err(invalid)?;
    check_controller(&spec).map_err(invalid)?;
    Ok(spec)
}

/// Bounds on a per-decision ES, each of whose sizes multiplies into every decision's work.
pub const MAX_ES_LAMBDA: usize = 10_000;
pub const MAX_ES_GENERATIONS: usize = 100_000;
pub const MAX_ES_SIMS_PER_FITNESS: u32 = 1_000_000;
/// The most playouts one decision may cost (MCTS's simulations and its ES's, times the
/// rollouts per leaf): at about 70,000 playouts a second, a few minutes per decision. Each
/// field's own bound lets products far beyond any run's end through, so the product is bounded.
pub const MAX_DECISION_PLAYOUTS: u64 = 10_000_000;
/// The deepest *-minimax search: every ply below the root multiplies the work by about 600
/// (moves × tile kinds), so depth 3 takes about a second per decision and depth 4 about ten
/// minutes.
pub const MAX_STAR_DEPTH: u32 = 4;

/// Bounds on the work of one decision of `controller` (a league entrant, an evolution run's
/// candidate or baseline): every size alone and their product; the error is (field, message),
/// the message stating the bound.
pub fn check_decision_work(controller: &ControllerSpec) -> Result<(), (String, String)> {
    let over = |field: &str, value: u64, max: u64| {
        (value > max).then(|| {
            (
                field.to_string(),
                format!("must be at most {max}, got {value}"),
            )
        })
    };
    let settings = match controller {
        ControllerSpec::Random => return Ok(()),
        ControllerSpec::Star(s) => {
            return match over("depth", u64::from(s.depth), u64::from(MAX_STAR_DEPTH)) {
                Some((field, message)) => Err((
                    field,
                    format!(
                        "{message}: every ply below the root multiplies a decision's work by \
                         about 600 (depth 3 takes about a second per decision, depth 4 about \
                         ten minutes)"
                    ),
                )),
                None => Ok(()),
            }
        }
        ControllerSpec::Mcts(settings) => settings,
    };
    let rollouts = u128::from(settings.rollouts_per_leaf.max(1));
    let mut playouts = u128::from(settings.sims) * rollouts;
    let mut formula = format!("sims {}", settings.sims);
    if let Some(es) = &settings.es {
        let found = over("es.lambda", es.lambda as u64, MAX_ES_LAMBDA as u64)
            .or_else(|| over("es.mu", es.mu as u64, MAX_ES_LAMBDA as u64))
            .or_else(|| {
                over(
                    "es.generations",
                    es.generations as u64,
                    MAX_ES_GENERATIONS as u64,
                )
            })
            .or_else(|| {
                over(
                    "es.sims_per_fitness",
                    u64::from(es.sims_per_fitness),
                    u64::from(MAX_ES_SIMS_PER_FITNESS),
                )
            });
        if let Some(e) = found {
            return Err(e);
        }
        playouts +=
            es.lambda as u128 * es.generations as u128 * u128::from(es.sims_per_fitness) * rollouts;
        formula = format!(
            "sims {} + lambda {} × generations {} × sims_per_fitness {}",
            settings.sims, es.lambda, es.generations, es.sims_per_fitness
        );
    }
    if playouts > u128::from(MAX_DECISION_PLAYOUTS) {
        let field = if settings.es.is_some() { "es" } else { "sims" };
        return Err((
            field.into(),
            format!(
                "one decision would run {playouts} playouts (({formula}) × rollouts_per_leaf \
                 {rollouts}); at most {MAX_DECISION_PLAYOUTS} per decision"
            ),
        ));
    }
    Ok(())
}

/// A formula's own `[C=...]` must be a C_E value as `c_e` is: finite and >= 0.
pub fn check_c_e(formula: &evomcts_formula::Formula) -> Result<(), String> {
    match formula.c_e() {
        Some(c) if !(c >= 0.0 && c.is_finite()) => Err(format!(
            "[C={c}] must be a finite number >= 0, as `c_e` must"
        )),
        _ => Ok(()),
    }
}

/// The check of [`check_c_e`] on a controller's selection formula given as text, as (field,
/// message).
pub fn check_formula_c_e(spec: &ControllerSpec) -> Result<(), (String, String)> {
    if let ControllerSpec::Mcts(settings) = spec {
        if let Selection::Formula(text) = &settings.selection {
            if let Ok(formula) = evomcts_formula::Formula::parse(text) {
                check_c_e(&formula).map_err(|m| ("selection".to_string(), m))?;
            }
        }
    }
    Ok(())
}

/// The most offspring one `formula mutate --count` prints (and Python's `Formula.mutations`
/// returns).
pub const MAX_MUTATIONS: u64 = 1_000_000;

/// The most worker threads a `--threads` flag may ask for.
pub const MAX_THREADS: usize = 1024;

/// Checks a `--threads` value: at least 1, at most [`MAX_THREADS`].
pub fn check_threads(threads: Option<usize>) -> Result<(), String> {
    match threads {
        Some(0) => Err("--threads must be at least 1".into()),
        Some(n) if n > MAX_THREADS => {
            Err(format!("--threads must be at most {MAX_THREADS}, got {n}"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controller_is_parsed_resolved_and_checked_with_errors_naming_place_and_field() {
        let here = Path::new("");
        let spec = parse_controller("Mcts(sims: 40, c_e: 1.5)", "<controller>", here).unwrap();
        let ControllerSpec::Mcts(settings) = &spec else {
            panic!("{spec:?}")
        };
        assert_eq!((settings.sims, settings.c_e), (40, 1.5));
        assert_eq!(
            parse_controller("Random", "<controller>", here).unwrap(),
            ControllerSpec::Random
        );
        let syntax = parse_controller("Mcts(sims: 40", "<controller>", here)
            .unwrap_err()
            .to_string();
        assert!(syntax.starts_with("<controller>:1:"), "{syntax}");
        let work = parse_controller("Mcts(sims: 20000000)", "<controller>", here)
            .unwrap_err()
            .to_string();
        assert!(
            work.starts_with("<controller>: field `spec`") && work.contains("`sims`"),
            "{work}"
        );
        let missing = parse_controller(
            "Mcts(selection: FormulaFile(\"no/such/formula.txt\"))",
            "<controller>",
            here,
        )
        .unwrap_err()
        .to_string();
        assert!(
            missing.contains("field `selection`") && missing.contains("no/such/formula.txt"),
            "{missing}"
        );
    }
}
