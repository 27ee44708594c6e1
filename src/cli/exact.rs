//! `evomcts exact`: MCTS and Star measured against Pig's exact solution (`analysis::exact`):
//! solves Pig, asks each searcher for a move on a fixed set of positions, and writes how often
//! the move is optimal and how much win probability it loses, as a table and a figure.

use anyhow::{Context, Result};
use clap::Args;
use evomcts::analysis::chart;
use evomcts::analysis::exact::{
    exact_positions, measure_regret, regret_table, ExactOptions, RegretFigure,
};
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
    /// Worker threads [default: all cores]. Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: ExactArgs) -> Result<()> {
    let rules = PigRules::new(args.target).map_err(anyhow::Error::msg)?;
    if args.positions == 0 || args.seeds == 0 {
        anyhow::bail!("--positions and --seeds must be at least 1");
    }
    let options = ExactOptions {
        rules,
        positions: args.positions,
        position_seed: args.seed,
        budgets: args.budgets,
        seeds: args.seeds,
        c_e: args.c_e,
        depths: args.depths,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("starting the worker threads")?;
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
    let positions = exact_positions(&options).map_err(anyhow::Error::msg)?;
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
    std::fs::create_dir_all(&args.out)
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
    print!("{}", table.to_text());
    evomcts::note!(
        "written to {} in {:.1} s",
        escape::path(&args.out),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
