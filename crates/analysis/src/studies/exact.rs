//! Searches measured against the truth. Pig's exact solution (`games::pig::solve`) gives every
//! position's win probability under optimal play and every move's; on a fixed set of
//! positions where the player has a real choice, this module asks MCTS (at each simulation
//! budget, several seeds a position) and Star (at each depth) for a move and records how often
//! the move is optimal and how much win probability it gives away (its regret).
//!
//! Each (position, seed) decision is independent and seeded from the options, so the figures
//! do not depend on the thread count.

mod compare;

pub use compare::{compare_champions, CompareOptions, Comparison};

use plotters::coord::Shift;
use plotters::prelude::*;
use rayon::prelude::*;

use crate::plots::chart::{self, DrawResult, Figure};
use evomcts_evolve::fitness::Estimate;
use evomcts_games::pig::{self, PigMove, PigRules, PigSolution, PigState};
use evomcts_games::Controller;
use evomcts_league::report::TextTable;
use evomcts_records::stats::wilson_interval;
use evomcts_search::mcts::{FinalMove, MctsController, MctsSettings, Reward};
use evomcts_search::star::{StarController, StarSettings};

/// What to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactOptions {
    pub rules: PigRules,
    /// Positions drawn by random play from the start (`pig::sample_positions`), keeping those
    /// with two legal moves.
    pub positions: usize,
    pub position_seed: u64,
    /// MCTS simulation budgets.
    pub budgets: Vec<u32>,
    /// MCTS searches per position and budget, each with its own seed.
    pub seeds: u64,
    /// MCTS's exploration constant (UCT, rewards +1/0/−1).
    pub c_e: f64,
    /// Star depths (Star2.5 with probing 4 and the evaluation's true bounds).
    pub depths: Vec<u32>,
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            rules: PigRules::default(),
            positions: 200,
            position_seed: 1,
            budgets: vec![10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000],
            seeds: 4,
            c_e: 0.5,
            depths: vec![1, 2, 3, 4],
        }
    }
}

/// One searcher at one budget over every measured decision.
#[derive(Clone, Debug, PartialEq)]
pub struct RegretRow {
    /// `MCTS` or `Star`.
    pub searcher: &'static str,
    /// Simulations (MCTS) or depth (Star).
    pub budget: u32,
    pub decisions: usize,
    /// Decisions whose move was optimal (within 1e-12 of the best move's value).
    pub optimal: usize,
    pub optimal_low: f64,
    pub optimal_high: f64,
    /// Mean lost win probability, with mean ∓ 1.96·se.
    pub mean_regret: f64,
    pub regret_low: f64,
    pub regret_high: f64,
    pub max_regret: f64,
}

/// The positions measured: decisions with both moves legal (`pig::sample_positions` gives
/// only those), distinct, in sampled order.
pub fn exact_positions(options: &ExactOptions) -> Result<Vec<PigState>, String> {
    pig::sample_positions(options.rules, options.positions, options.position_seed)
        .map_err(|e| e.to_string())
}

/// The measured positions ([`exact_positions`]): none is an error naming the target, fewer
/// than asked a warning on stderr (the table measures those).
pub fn measured_positions(options: &ExactOptions) -> Result<Vec<PigState>, String> {
    let positions = exact_positions(options)?;
    if positions.is_empty() {
        return Err(format!(
            "Pig to {} has no position where both moves are legal (a turn total above 0 and \
             the target not reached): choose a larger --target",
            options.rules.target
        ));
    }
    if positions.len() < options.positions {
        evomcts_records::note!(
            "warning: Pig to {} gave only {} distinct positions of the {} asked for (--positions); \
             the table measures those",
            options.rules.target,
            positions.len(),
            options.positions
        );
    }
    Ok(positions)
}

fn row(searcher: &'static str, budget: u32, regrets: &[f64]) -> RegretRow {
    let n = regrets.len();
    let optimal = regrets.iter().filter(|&&r| r <= 1e-12).count();
    let (optimal_low, optimal_high) = wilson_interval(optimal as f64, n as f64);
    let mean = Estimate::from_samples(regrets);
    RegretRow {
        searcher,
        budget,
        decisions: n,
        optimal,
        optimal_low,
        optimal_high,
        mean_regret: mean.mean,
        regret_low: mean.low,
        regret_high: mean.high,
        max_regret: regrets.iter().copied().fold(0.0, f64::max),
    }
}

/// MCTS settings of the measurement at `sims` simulations.
pub fn exact_mcts_settings(options: &ExactOptions, sims: u32) -> MctsSettings {
    MctsSettings {
        sims,
        c_e: options.c_e,
        reward: Some(Reward::WinLoss),
        final_move: Some(FinalMove::MostVisits),
        ..MctsSettings::default()
    }
}

/// Regret of MCTS at every budget and of Star at every depth, on `positions`.
pub fn measure_regret(
    options: &ExactOptions,
    solution: &PigSolution,
    positions: &[PigState],
) -> Result<Vec<RegretRow>, String> {
    let mut rows = Vec::new();
    for &sims in &options.budgets {
        let settings = exact_mcts_settings(options, sims);
        let regrets = mcts_regrets(&settings, options, solution, positions)?;
        rows.push(row("MCTS", sims, &regrets));
    }
    for &depth in &options.depths {
        let Some(first) = positions.first() else {
            break;
        };
        let settings = StarSettings {
            depth,
            ..StarSettings::default()
        }
        .with_true_bounds(first);
        let regrets = positions
            .par_iter()
            .map(|state| {
                let mut star =
                    StarController::<PigState>::new(&settings, 0).map_err(|e| e.to_string())?;
                let mv = star.choose_move(state);
                solution.regret(state, mv).map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<f64>, String>>()?;
        rows.push(row("Star", depth, &regrets));
    }
    Ok(rows)
}

/// The rows as a table: optimal share with its Wilson interval, mean regret with its interval.
pub fn regret_table(title: &str, rows: &[RegretRow]) -> TextTable {
    let headers = [
        "searcher",
        "budget",
        "decisions",
        "optimal moves",
        "95% interval",
        "mean regret",
        "95% interval",
        "largest regret",
    ];
    let cells = |r: &RegretRow| {
        vec![
            r.searcher.to_string(),
            match r.searcher {
                "Star" => format!("depth {}", r.budget),
                _ => format!("{} sims", r.budget),
            },
            r.decisions.to_string(),
            format!("{:.3}", optimal_share(r)),
            format!("[{:.3}, {:.3}]", r.optimal_low, r.optimal_high),
            format!("{:.5}", r.mean_regret),
            format!("[{:.5}, {:.5}]", r.regret_low.max(0.0), r.regret_high),
            format!("{:.4}", r.max_regret),
        ]
    };
    TextTable::new(title, &headers, rows.iter().map(cells).collect())
}

fn optimal_share(r: &RegretRow) -> f64 {
    r.optimal as f64 / r.decisions.max(1) as f64
}

/// MCTS's mean regret against its simulation budget (log scale), with 95% intervals.
pub struct RegretFigure<'a> {
    pub title: String,
    pub rows: &'a [RegretRow],
}

impl Figure for RegretFigure<'_> {
    fn size(&self) -> (u32, u32) {
        (800, 500)
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let mcts: Vec<&RegretRow> = self.rows.iter().filter(|r| r.searcher == "MCTS").collect();
        let x_max = mcts.iter().map(|r| r.budget as f64).fold(10.0, f64::max);
        let y_max = mcts
            .iter()
            .map(|r| r.regret_high)
            .fold(0.0, f64::max)
            .max(1e-3)
            * 1.1;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, chart::text(20.0))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((1.0f64..x_max * 1.5).log_scale(), 0.0..y_max)?;
        chart
            .configure_mesh()
            .x_desc("MCTS simulations per decision (log scale)")
            .y_desc("mean lost win probability")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .label_style(chart::text(14.0))
            .draw()?;
        let colour = chart::colour(0);
        chart.draw_series(LineSeries::new(
            mcts.iter().map(|r| (r.budget as f64, r.mean_regret)),
            colour.stroke_width(2),
        ))?;
        // Each budget's 95% interval as a vertical bar.
        chart.draw_series(mcts.iter().map(|r| {
            let x = r.budget as f64;
            PathElement::new(
                vec![(x, r.regret_low.max(0.0)), (x, r.regret_high)],
                colour.stroke_width(2),
            )
        }))?;
        Ok(())
    }
}

/// The regret of MCTS with `settings` at every measured decision: `options.seeds` searches a
/// position, seeded by position and seed only, so every entrant of a comparison searches with
/// the same seeds (paired decisions).
pub fn mcts_regrets(
    settings: &MctsSettings,
    options: &ExactOptions,
    solution: &PigSolution,
    positions: &[PigState],
) -> Result<Vec<f64>, String> {
    settings.validate().map_err(|e| e.to_string())?;
    let jobs: Vec<(usize, u64)> = (0..positions.len())
        .flat_map(|p| (0..options.seeds).map(move |s| (p, s)))
        .collect();
    jobs.par_iter()
        .map(|&(p, s)| {
            let seed = evomcts_records::runfs::derive_seed(
                options.position_seed,
                &[settings.sims as u64, p as u64, s],
            );
            let mut mcts =
                MctsController::<PigState>::new(settings, seed).map_err(|e| e.to_string())?;
            let mv: PigMove = mcts.choose_move(&positions[p]);
            solution
                .regret(&positions[p], mv)
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// One entrant of a formula comparison on the validation positions.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    pub name: String,
    pub formula: String,
    pub c_e: f64,
    pub regret: RegretRow,
    /// Mean of (this entrant's regret − the reference's) over the paired decisions, with
    /// mean ∓ 1.96·se, and the Wilcoxon signed-rank test's two-sided p-value.
    pub difference: f64,
    pub difference_low: f64,
    pub difference_high: f64,
    pub p_value: f64,
}

/// The mean regret of UCT at each constant of `grid` on `positions` (the tuning set).
pub fn tune_uct(
    grid: &[f64],
    sims: u32,
    options: &ExactOptions,
    solution: &PigSolution,
    positions: &[PigState],
) -> Result<Vec<(f64, f64)>, String> {
    grid.iter()
        .map(|&c_e| {
            let settings = exact_mcts_settings(
                &ExactOptions {
                    c_e,
                    ..options.clone()
                },
                sims,
            );
            let regrets = mcts_regrets(&settings, options, solution, positions)?;
            Ok((
                c_e,
                regrets.iter().sum::<f64>() / regrets.len().max(1) as f64,
            ))
        })
        .collect()
}

/// Every entrant on `positions`, each paired with the first (the reference).
pub fn compare_entrants(
    entrants: &[(String, MctsSettings)],
    options: &ExactOptions,
    solution: &PigSolution,
    positions: &[PigState],
) -> Result<Vec<CompareRow>, String> {
    let mut regrets = Vec::new();
    for (_, settings) in entrants {
        regrets.push(mcts_regrets(settings, options, solution, positions)?);
    }
    let reference = regrets.first().cloned().unwrap_or_default();
    Ok(entrants
        .iter()
        .zip(&regrets)
        .map(|((name, settings), own)| {
            let differences: Vec<f64> = own.iter().zip(&reference).map(|(a, b)| a - b).collect();
            let difference = Estimate::from_samples(&differences);
            CompareRow {
                name: name.clone(),
                formula: match &settings.selection {
                    evomcts_search::mcts::Selection::Formula(text) => text.clone(),
                    other => format!("{other:?}"),
                },
                c_e: settings.c_e,
                regret: row("MCTS", settings.sims, own),
                difference: difference.mean,
                difference_low: difference.low,
                difference_high: difference.high,
                p_value: evomcts_records::stats::wilcoxon_signed_rank(&differences).p_value,
            }
        })
        .collect())
}

/// The comparison as a table.
pub fn compare_table(title: &str, rows: &[CompareRow]) -> TextTable {
    let headers = [
        "entrant",
        "formula",
        "C_E",
        "optimal moves",
        "mean regret",
        "95% interval",
        "minus the reference's",
        "95% interval",
        "Wilcoxon p",
    ];
    let cells = |r: &CompareRow| {
        let own = &r.regret;
        vec![
            r.name.clone(),
            r.formula.clone(),
            format!("{}", r.c_e),
            format!("{:.3}", optimal_share(own)),
            format!("{:.5}", own.mean_regret),
            format!("[{:.5}, {:.5}]", own.regret_low.max(0.0), own.regret_high),
            format!("{:+.5}", r.difference),
            format!("[{:+.5}, {:+.5}]", r.difference_low, r.difference_high),
            format!("{:.3}", r.p_value),
        ]
    };
    TextTable::new(title, &headers, rows.iter().map(cells).collect())
}
