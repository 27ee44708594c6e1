//! `evomcts exact`: MCTS and Star measured against Pig's exact solution (`analysis::studies::exact`):
//! solves Pig, asks each searcher for a move on a fixed set of positions, and writes how often
//! the move is optimal and how much win probability it loses, as a table and a figure.

use anyhow::{Context, Result};
use clap::Args;
use evomcts::analysis::plots::chart;
use evomcts::analysis::studies::exact::{
    compare_champions, measure_regret, measured_positions, regret_table, CompareOptions,
    ExactOptions, RegretFigure,
};
use evomcts::arena::GameChoice;
use evomcts::games::pig::{solve, PigRules};
use evomcts::{escape, runfs};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct ExactArgs {
    /// Pig's target score.
    #[arg(long, default_value_t = 100)]
    target: u16,
    /// Positions measured (decisions with both moves legal, from seeded random play).
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Seed of the positions and of every search.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// MCTS simulation budgets, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "10,30,100,300,1000,3000,10000,30000,100000"
    )]
    budgets: Vec<u32>,
    /// MCTS searches per position and budget.
    #[arg(long, default_value_t = 4)]
    seeds: u64,
    /// MCTS's exploration constant (UCT; rewards +1/0/−1).
    #[arg(long, default_value_t = 0.5)]
    c_e: f64,
    /// Star depths, comma-separated (empty: none).
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,4")]
    depths: Vec<u32>,
    /// Folder for regret.md, regret.csv and the figure (regret.png, regret.svg).
    #[arg(long, default_value = "docs/pig")]
    out: PathBuf,
    #[command(flatten)]
    threads: super::run_args::ThreadsArg,
    /// Instead of the budgets: compare the champions of these evolution run folders (each
    /// with spec.ron and champion.ron; played with their run's candidate settings, rewards
    /// +1/0/−1) with UCT at the constant tuned on Pig, at `--sims` simulations.
    #[arg(long, num_args = 1..)]
    compare: Vec<PathBuf>,
    /// Simulations per decision in a comparison.
    #[arg(long, default_value_t = 1000)]
    sims: u32,
    /// UCT constants tried on the tuning positions (seed `--seed` + 1, none of them measured).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0.05,0.1,0.2,0.35,0.5,0.7,1,1.4,2"
    )]
    uct_grid: Vec<f64>,
}

/// The most simulations one `exact` may run, over every position, seed and budget (or entrant
/// and tuning constant): hours on a few cores.
const MAX_SIMULATIONS: u64 = 10_000_000_000;

/// Every flag within its bounds, and the simulations they multiply into within
/// [`MAX_SIMULATIONS`]: each flag alone may be in range while their product never finishes.
fn check_bounds(args: &ExactArgs) -> Result<()> {
    use super::{check_count, check_work};
    check_count("--positions", args.positions as u64, 1, 10_000)?;
    check_count("--seeds", args.seeds, 1, 10_000)?;
    check_count("--sims", args.sims.into(), 1, 10_000_000)?;
    check_count("the number of --budgets", args.budgets.len() as u64, 0, 100)?;
    check_count("the number of --depths", args.depths.len() as u64, 0, 4)?;
    check_count(
        "the number of --uct-grid values",
        args.uct_grid.len() as u64,
        1,
        100,
    )?;
    for &budget in &args.budgets {
        check_count("each of --budgets", budget.into(), 1, 10_000_000)?;
    }
    for &depth in &args.depths {
        check_count("each of --depths", depth.into(), 1, 4)?;
    }
    let searches = args.positions as u128 * u128::from(args.seeds);
    if args.compare.is_empty() {
        let budgets: u128 = args.budgets.iter().map(|&b| u128::from(b)).sum();
        check_work(
            "--positions × --seeds × the sum of --budgets",
            searches * budgets,
            MAX_SIMULATIONS,
            "simulations",
        )
    } else {
        // The tuning runs every constant of the grid; each run compared brings its champion
        // and its seed formula, and tuned UCT plays too.
        let entrants = args.uct_grid.len() as u128 + 2 * args.compare.len() as u128 + 1;
        check_work(
            "--positions × --seeds × --sims × (--uct-grid values + 2 × runs + 1)",
            searches * u128::from(args.sims) * entrants,
            MAX_SIMULATIONS,
            "simulations",
        )
    }
}

pub fn run(args: ExactArgs) -> Result<()> {
    let rules = PigRules::new(args.target).map_err(anyhow::Error::msg)?;
    check_bounds(&args)?;
    let options = ExactOptions {
        rules,
        positions: args.positions,
        position_seed: args.seed,
        budgets: args.budgets.clone(),
        seeds: args.seeds,
        c_e: args.c_e,
        depths: args.depths.clone(),
    };
    let pool = evomcts::frame::RunPool::new(args.threads.threads, Some(&GameChoice::Pig(rules)))
        .context("starting the worker threads")?;
    if !args.compare.is_empty() {
        return pool.install(|| compare(&args, options));
    }
    let started = Instant::now();
    let solution = solve(rules).map_err(|e| anyhow::anyhow!("{e}"))?;
    evomcts::note!(
        "Pig to {} solved: {} block sweeps, Bellman residual {:.1e}, first player wins {:.6} under optimal play ({:.1} s)",
        args.target,
        solution.sweeps(),
        solution.bellman_residual(),
        solution.first_player_win_probability(),
        started.elapsed().as_secs_f64()
    );
    let positions = measured_positions(&options).map_err(anyhow::Error::msg)?;
    let rows = pool
        .install(|| measure_regret(&options, &solution, &positions))
        .map_err(anyhow::Error::msg)?;
    let title = format!(
        "Pig to {}: {} positions, MCTS (UCT, C_E = {}, win/loss reward, most visited) × {} seeds, Star2.5 with true bounds",
        args.target,
        positions.len(),
        args.c_e,
        args.seeds
    );
    let table = regret_table(&title, &rows);
    let list = |values: &[u32]| {
        values
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let command = format!(
        "evomcts exact --target {} --positions {} --seed {} --seeds {} --c-e {} --budgets {} --depths {}",
        args.target,
        args.positions,
        args.seed,
        args.seeds,
        args.c_e,
        list(&options.budgets),
        list(&options.depths)
    );
    evomcts::runfs::create_folder(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let markdown = format!(
        "{}\nMade by `{command}`. Optimal moves: Wilson 95% interval; regret (lost win probability of the chosen move under optimal play afterwards): mean ∓ 1.96·se over decisions.\n",
        table.to_markdown()
    );
    for (name, text) in [("regret.md", markdown), ("regret.csv", table.to_csv())] {
        let path = args.out.join(name);
        runfs::write_atomically(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let figure = RegretFigure {
        title: format!("Pig to {}: MCTS's lost win probability", args.target),
        rows: &rows,
    };
    chart::save(
        &figure,
        &args.out.join("regret.png"),
        &args.out.join("regret.svg"),
    )?;
    out!("{}", table.to_text())?;
    evomcts::note!(
        "written to {} in {:.1} s",
        escape::path(&args.out),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// UCT tuned on positions disjoint from the measured ones, then every champion against it
/// (`analysis::studies::exact::compare_champions`), written to `--out`.
fn compare(args: &ExactArgs, options: ExactOptions) -> Result<()> {
    let started = Instant::now();
    let compared = compare_champions(
        &options,
        &CompareOptions {
            runs: args.compare.clone(),
            sims: args.sims,
            uct_grid: args.uct_grid.clone(),
        },
    )
    .map_err(anyhow::Error::msg)?;
    evomcts::runfs::create_folder(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    for (name, text) in [
        ("compare.md", compared.markdown),
        ("compare.csv", compared.table.to_csv()),
    ] {
        let path = args.out.join(name);
        runfs::write_atomically(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    out!("{}", compared.table.to_text())?;
    evomcts::note!("UCT on the tuning positions: {}", compared.tuning_line);
    evomcts::note!(
        "written to {} in {:.1} s",
        escape::path(&args.out),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
