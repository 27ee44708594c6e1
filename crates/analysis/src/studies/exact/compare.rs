//! Evolved formulas against UCT tuned on Pig (`evomcts exact --compare`): UCT's constant is
//! chosen on positions disjoint from the measured ones (seed + 1), then each evolution run's
//! champion and seed formula, played with their run's candidate settings, is paired with it
//! by position and seed on the measured positions. A pure function of the options and the run
//! folders it reads (each decision seeded from the options, so the table does not depend on
//! the thread count); the caller writes `compare.md` and `compare.csv`.

use std::path::{Path, PathBuf};

use super::{
    compare_entrants, compare_table, exact_mcts_settings, exact_positions, measured_positions,
    tune_uct, ExactOptions,
};
use evomcts_evolve::population::{check_evolution_folder, Champion};
use evomcts_evolve::spec::{EvolveSpec, FitnessSpec};
use evomcts_games::pig::solve;
use evomcts_league::report::TextTable;
use evomcts_records::runfs;
use evomcts_search::mcts::{MctsSettings, Reward, Selection};

/// What a comparison plays besides the [`ExactOptions`] (whose `c_e` it does not use).
#[derive(Clone, Debug, PartialEq)]
pub struct CompareOptions {
    /// Evolution run folders (each with `spec.ron` and `champion.ron`).
    pub runs: Vec<PathBuf>,
    /// Simulations per decision.
    pub sims: u32,
    /// UCT constants tried on the tuning positions.
    pub uct_grid: Vec<f64>,
}

/// A comparison's results: the table, its Markdown page and the tuning's mean regrets.
pub struct Comparison {
    pub table: TextTable,
    /// `compare.md`: the table, the tuning and the command that made it.
    pub markdown: String,
    /// UCT's mean regret per constant on the tuning positions, `C_E 0.2: 0.01234; …`.
    pub tuning_line: String,
}

/// An error and its causes, as the command line prints them.
fn chained(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = c.source();
    }
    message
}

/// Runs the comparison: Pig solved, UCT tuned on the tuning positions, every entrant paired
/// with tuned UCT on the measured positions.
pub fn compare_champions(
    options: &ExactOptions,
    compare: &CompareOptions,
) -> Result<Comparison, String> {
    let solution = solve(options.rules).map_err(|e| e.to_string())?;
    let positions = measured_positions(options)?;
    let tuning: Vec<_> = exact_positions(&ExactOptions {
        position_seed: options.position_seed + 1,
        ..options.clone()
    })?
    .into_iter()
    .filter(|p| !positions.contains(p))
    .collect();
    let mut entrants = Vec::new();
    for dir in &compare.runs {
        let [champion, seed] = champion_entrants(dir, compare.sims)?;
        entrants.push(champion);
        // Runs that share a seed formula and settings show it once.
        if !entrants.iter().any(|(_, s)| *s == seed.1) {
            entrants.push(seed);
        }
    }
    let tuned = tune_uct(&compare.uct_grid, compare.sims, options, &solution, &tuning)?;
    let (best_c, _) = tuned
        .iter()
        .copied()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or("--uct-grid is empty")?;
    let uct = exact_mcts_settings(
        &ExactOptions {
            c_e: best_c,
            ..options.clone()
        },
        compare.sims,
    );
    entrants.insert(0, (format!("UCT tuned on Pig (C_E = {best_c})"), uct));
    let rows = compare_entrants(&entrants, options, &solution, &positions)?;
    let title = format!(
        "Pig to {}: {} positions × {} seeds, {} simulations, rewards +1/0/−1; each entrant paired with tuned UCT",
        options.rules.target,
        positions.len(),
        options.seeds,
        compare.sims
    );
    let table = compare_table(&title, &rows);
    let tuning_line = tuned
        .iter()
        .map(|(c, r)| format!("C_E {c}: {r:.5}"))
        .collect::<Vec<_>>()
        .join("; ");
    let markdown = format!(
        "{}\nUCT's constant was chosen on {} other positions (seed {}), mean regret per constant: {tuning_line}.\n\nMade by `evomcts exact --compare {} --sims {} --positions {} --seed {} --seeds {}`. Regret: lost win probability of the chosen move under optimal play afterwards, mean ∓ 1.96·se over decisions; the difference is paired by position and seed (the same search seeds for every entrant), Wilcoxon signed-rank test on the paired differences.\n",
        table.to_markdown(),
        tuning.len(),
        options.position_seed + 1,
        compare
            .runs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        compare.sims,
        options.positions,
        options.position_seed,
        options.seeds
    );
    Ok(Comparison {
        table,
        markdown,
        tuning_line,
    })
}

/// The champion of an evolution run folder and the run's seed formula, each with the run's
/// candidate settings, on Pig.
fn champion_entrants(dir: &Path, sims: u32) -> Result<[(String, MctsSettings); 2], String> {
    check_evolution_folder(dir).map_err(|e| chained(&e))?;
    let spec_path = dir.join("spec.ron");
    let spec_text = runfs::read_spec_text(&spec_path).map_err(|e| chained(&e))?;
    // Only the name and the candidate's settings are read (and checked when the search is
    // built); files the run named, such as its grammar, are not needed here.
    let spec: EvolveSpec =
        runfs::parse_spec(&spec_text, &spec_path.display().to_string(), |_| Ok(()))
            .map_err(|e| chained(&e))?;
    let FitnessSpec::Games(fitness) = &spec.fitness else {
        return Err(format!(
            "{}: {}; only a run on one game has the MCTS settings to play Pig with",
            dir.display(),
            if matches!(spec.fitness, FitnessSpec::Bandit(_)) {
                "a bandit run".to_string()
            } else {
                format!("a run on {}", spec.fitness.label())
            }
        ));
    };
    let path = dir.join("champion.ron");
    let text = runfs::read_capped_text(&path, runfs::MAX_SPEC_FILE_BYTES, "champion")
        .map_err(|e| format!("{}: {}", path.display(), chained(&e)))?;
    let champion =
        Champion::from_ron(&text, &path.display().to_string()).map_err(|e| chained(&e))?;
    let with = |formula: &evomcts_formula::Formula| MctsSettings {
        sims,
        reward: Some(Reward::WinLoss),
        selection: Selection::Formula(formula.to_string()),
        ..fitness.candidate.clone()
    };
    Ok([
        (
            format!("{} champion #{}", spec.name, champion.member.id),
            with(&champion.member.formula),
        ),
        (
            format!("{} seed formula", spec.name),
            with(&champion.reference.formula),
        ),
    ])
}
