//! One general formula: at each budget, an evolution whose fitness mixes the `train` games
//! (`fitness: Mixed(..)`, each game at its budget and played constant, against its UCT there,
//! scored as a win rate; one game alone is an ordinary games fitness), then its champion
//! played on every held-out game, which it never saw, against that game's tuned UCT: the
//! first `games / 2` sequences of the game's own validation, both seatings, fixed-N. Written
//! to `general/sims-B/evolve` and `general/sims-B/TARGET`, and `general.ron`.

use super::outputs::{GameResult, Validation};
use super::spec::GeneralSpec;
use super::{PortfolioError, PortfolioGame, PortfolioSpec};
use evomcts_evolve::spec::{FitnessSpec, GamesSpec, MixedSpec, Score};
use evomcts_evolve::{run_evolution, EvolveSpec, RunOptions};
use evomcts_formula::Formula;
use evomcts_records::runfs::derive_seed;
use evomcts_search::mcts::Selection;
use evomcts_search::ControllerSpec;
use evomcts_validation::{run_validation, PlayOptions, ValidateSpec};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The general formula's folder in the portfolio's.
pub const GENERAL_DIR: &str = "general";
/// The general evolution's folder at each budget, `general/sims-B/evolve`, beside each
/// held-out game's validation folder `general/sims-B/LABEL`.
pub const EVOLVE_DIR: &str = "evolve";
/// The names `general/sims-B/` holds beside the held-out games' labels, which no game's label
/// may therefore be (the spec refuses them).
pub const BUDGET_FOLDER_NAMES: &[&str] = &[EVOLVE_DIR];
/// Its result file.
pub const GENERAL_RON: &str = "general.ron";
pub const GENERAL_CSV: &str = "general.csv";
pub const GENERAL_CSV_HEADER: &str = "budget,target,trained_on,formula,games,win_rate,win_low,win_high,diff_mean,diff_low,diff_high,wilcoxon_p,holm_p";

/// The seed stream of the general evolution, below the portfolio's master seed.
const GENERAL: u64 = 2;

/// The general formula of a budget on one held-out game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralRow {
    pub budget: u32,
    pub target: String,
    pub trained_on: Vec<String>,
    pub formula: Formula,
    pub validation: Validation,
}

/// `general.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralResult {
    pub rows: Vec<GeneralRow>,
}

/// The general formula's folder at `budget`: `general/sims-B`.
pub fn general_dir(dir: &Path, budget: u32) -> PathBuf {
    dir.join(GENERAL_DIR).join(super::run::sims_dir(budget))
}

/// A row the general job writes: at `budget`, the champion on the held-out game `target` at
/// its played constant `c_e`.
#[derive(Clone, Copy, Debug)]
pub struct HeldOut<'a> {
    pub budget: u32,
    pub target: &'a PortfolioGame,
    pub c_e: f64,
}

impl<'a> HeldOut<'a> {
    /// Every row the general job writes, in its order: by budget, then the held-out games in
    /// the spec's order (`games`: every game's result).
    pub fn all(spec: &'a PortfolioSpec, games: &[GameResult]) -> Vec<HeldOut<'a>> {
        let Some(general) = &spec.general else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for budget in spec.budgets() {
            for g in games.iter().filter(|g| !general.train.contains(&g.label)) {
                let (Some(target), Some(row)) = (
                    spec.game(&g.label),
                    g.rows.iter().find(|r| r.budget == budget),
                ) else {
                    continue;
                };
                rows.push(HeldOut {
                    budget,
                    target,
                    c_e: row.c_e,
                });
            }
        }
        rows
    }
}

/// The validation of the general formula `champion` on the held-out game `target` at
/// `budget`: the matrix's cell, on the first `general.games / 2` sequences of the target's own
/// validation.
pub fn general_cell_spec(
    spec: &PortfolioSpec,
    general: &GeneralSpec,
    target: &PortfolioGame,
    budget: u32,
    c_e: f64,
    champion: &Formula,
) -> ValidateSpec {
    let mut cell = spec.cell_spec(target, GENERAL_SOURCE, budget, c_e, champion);
    cell.sequences = general.games / 2;
    cell
}

/// What the general formula's validations name as the formula's source.
const GENERAL_SOURCE: &str = "general";

/// The evolution of the general formula at `budget`: the first train game's study evolution
/// (its grammar, strategy and noise from the `general` section), its fitness the mix.
pub fn general_evolve_spec(
    spec: &PortfolioSpec,
    games: &[GameResult],
    budget: u32,
) -> Option<EvolveSpec> {
    let general = spec.general.as_ref()?;
    let mut parts = Vec::new();
    for label in &general.train {
        let g = spec.game(label)?;
        let row = games
            .iter()
            .find(|r| &r.label == label)?
            .rows
            .iter()
            .find(|r| r.budget == budget)?;
        let study = spec.study_spec(g);
        let uct = study.uct(budget, row.c_e);
        let mut candidate = uct.clone();
        candidate.selection = Selection::Uct;
        parts.push(GamesSpec {
            game: g.game,
            candidate,
            baseline: ControllerSpec::Mcts(uct),
            score: Score::WinRate,
            rules: g.rules,
        });
    }
    let first = spec.game(&general.train[0])?;
    let mut study = spec.study_spec(first);
    study.evolve = general.evolve.clone();
    study.evolve.score = Some(Score::WinRate);
    let mut evolve = study.evolve_spec(budget, parts[0].candidate.c_e);
    evolve.name = format!("{}-general-{budget}", spec.name);
    evolve.description = format!(
        "One formula for {} at {budget} simulations, each at its played C_E against its UCT, in portfolio `{}`",
        general.train.join(", "),
        spec.name
    );
    evolve.seed = derive_seed(spec.seed, &[GENERAL, u64::from(budget)]);
    evolve.fitness = if parts.len() == 1 {
        FitnessSpec::Games(parts.remove(0))
    } else {
        FitnessSpec::Mixed(MixedSpec { games: parts })
    };
    Some(evolve)
}

/// Runs (or resumes) the general formula's evolution at every budget and its validation on
/// every held-out game, then writes `general.ron`.
pub fn general_job(
    spec: &PortfolioSpec,
    dir: &Path,
    games: &[GameResult],
    threads: Option<usize>,
    progress: bool,
) -> Result<(), PortfolioError> {
    let Some(general) = &spec.general else {
        return Ok(());
    };
    let mut rows = Vec::new();
    let held_out = HeldOut::all(spec, games);
    for budget in spec.budgets() {
        let Some(evolve) = general_evolve_spec(spec, games, budget) else {
            return Err(PortfolioError::StudiesUnfinished {
                finished: games.len(),
                games: spec.games.len(),
            });
        };
        let folder = general_dir(dir, budget);
        let outcome = run_evolution(
            &evolve,
            &RunOptions {
                out_dir: folder.join(EVOLVE_DIR),
                resume: true,
                threads,
                progress,
                stop_after: None,
                srun: None,
            },
        )
        .map_err(|source| PortfolioError::General {
            budget,
            message: source.to_string(),
        })?;
        let champion = evomcts_study::champion_of(&outcome);
        for h in held_out.iter().filter(|h| h.budget == budget) {
            let cell = general_cell_spec(spec, general, h.target, budget, h.c_e, &champion);
            let summary = run_validation(
                &cell,
                &PlayOptions {
                    out_dir: folder.join(&h.target.label),
                    resume: true,
                    threads,
                    progress,
                    stop_after: None,
                    srun: None,
                },
            )
            .map_err(|source| PortfolioError::General {
                budget,
                message: format!("on {}: {source}", h.target.label),
            })?;
            rows.push(GeneralRow {
                budget,
                target: h.target.label.clone(),
                trained_on: general.train.clone(),
                formula: champion.clone(),
                validation: Validation::from(&summary),
            });
        }
    }
    super::write_ron(&dir.join(GENERAL_RON), &GeneralResult { rows })
}

/// `general.csv`: a row per budget and held-out game, Holm over all of them as one family.
pub fn general_csv(result: &GeneralResult) -> String {
    let p: Vec<f64> = result
        .rows
        .iter()
        .map(|r| r.validation.wilcoxon_p)
        .collect();
    let holm = evomcts_records::stats::holm(&p);
    let mut csv = format!("{GENERAL_CSV_HEADER}\n");
    for (r, h) in result.rows.iter().zip(holm) {
        let v = &r.validation;
        let mut cells = vec![
            r.budget.to_string(),
            super::outputs::quoted(&r.target),
            super::outputs::quoted(&r.trained_on.join(&super::spec::LIST_SEPARATOR.to_string())),
            super::outputs::quoted(&r.formula.to_string()),
            v.games.to_string(),
        ];
        cells.extend(super::outputs::validation_cells(v));
        cells.push(h.to_string());
        csv.push_str(&cells.join(","));
        csv.push('\n');
    }
    csv
}

/// `portfolio.md`'s section on the general formula.
pub fn general_markdown(spec: &PortfolioSpec, result: Option<&GeneralResult>) -> String {
    let Some(general) = &spec.general else {
        return String::new();
    };
    let mut text = format!(
        "## Does one formula transfer?\n\nA formula evolved on a mix of {} (each at its played C_E, against its UCT, scored as a win rate), then played on every other game, which it never saw, against that game's tuned UCT ({} games each: the first {} validation sequences, both seatings). Holm over every row as one family.\n\n",
        general.train.join(", "),
        general.games,
        general.games / 2
    );
    let Some(result) = result else {
        text.push_str("Not played yet.\n\n");
        return text;
    };
    let p: Vec<f64> = result
        .rows
        .iter()
        .map(|r| r.validation.wilcoxon_p)
        .collect();
    let holm = evomcts_records::stats::holm(&p);
    let mut shown_budget = None;
    for (r, h) in result.rows.iter().zip(holm) {
        if shown_budget != Some(r.budget) {
            if shown_budget.is_some() {
                text.push('\n');
            }
            text.push_str(&format!(
                "{} simulations: `{}`\n\n| held-out game | W-D-L | win rate [95% Wilson] | score difference [95% CI] | Wilcoxon p | Holm p |\n|---|---|---|---|---|---|\n",
                r.budget,
                r.formula.simplify()
            ));
            shown_budget = Some(r.budget);
        }
        let v = &r.validation;
        text.push_str(&format!(
            "| {} | {} | {} |\n",
            r.target,
            v.markdown_cells(),
            super::outputs::p_shown(h)
        ));
    }
    text.push('\n');
    text
}
