//! `evomcts plot`: figures and tables from the records of league runs.
//!
//! ```text
//! evomcts plot formulas RUN… [--out DIR] [--top K] [--controller NAME]…
//! evomcts plot league   RUN… [--out DIR]
//! evomcts plot games    RUN… [--out DIR] [--controller NAME]…
//! evomcts plot board    RUN  --game K [--turn T | --every-turn] [--out DIR]
//! evomcts plot all      RUN… [--out DIR] [--top K]
//! evomcts plot tiles    [--out DIR]
//! ```
//!
//! Several run folders of one league merge (as in `evomcts table`). Every figure is written
//! as PNG and SVG into DIR (default `plots/`); tables go to the terminal and to CSV/Markdown
//! next to the figures.

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use evomcts::analysis::board::{draw_board_labelled, states_by_turn, BoardLabels, TileGallery};
use evomcts::analysis::chart;
use evomcts::analysis::curves::GameCurves;
use evomcts::analysis::formulas::FormulaReport;
use evomcts::analysis::league_plots::write_league_figures;
use evomcts::league::{load_runs, report, LeagueGame, LeagueSpec, Tables};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct PlotArgs {
    #[command(subcommand)]
    command: PlotCommand,
}

#[derive(Args)]
struct Common {
    /// Run folders (each with spec.ron and games.jsonl) of the same league.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Folder for the figures and tables.
    #[arg(long, default_value = "plots")]
    out: PathBuf,
}

#[derive(Subcommand)]
enum PlotCommand {
    /// The formulas the ES controllers chose (the paper's Table XI) and a bar chart per
    /// controller.
    Formulas {
        #[command(flatten)]
        common: Common,
        /// How many of the most frequent formulas to list and draw.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Only these controllers (repeat the option for several).
        #[arg(long = "controller")]
        controllers: Vec<String>,
    },
    /// Match-matrix heat map, standings with bonus points, win rates with 95% intervals.
    League {
        #[command(flatten)]
        common: Common,
    },
    /// Mean virtual score per turn of each pairing, ES fitness per generation, sizes and
    /// depths of the chosen formulas.
    Games {
        #[command(flatten)]
        common: Common,
        /// Only these controllers (and the pairings they play in).
        #[arg(long = "controller")]
        controllers: Vec<String>,
    },
    /// A picture of one game's board.
    Board {
        /// A run folder.
        run: PathBuf,
        /// Game K (0-based, in schedule order, as `evomcts replay --game K`).
        #[arg(long)]
        game: usize,
        /// The board after turn T (0 = the start tile alone) [default: the final board].
        #[arg(long, conflicts_with = "every_turn")]
        turn: Option<usize>,
        /// One picture per turn, from the start to the final board.
        #[arg(long)]
        every_turn: bool,
        #[arg(long, default_value = "plots")]
        out: PathBuf,
    },
    /// The 24 tile types in their four rotations, drawn as boards draw them.
    Tiles {
        #[arg(long, default_value = "plots")]
        out: PathBuf,
    },
    /// Everything but boards: formulas, league and games.
    All {
        #[command(flatten)]
        common: Common,
        #[arg(long, default_value_t = 10)]
        top: usize,
    },
}

fn load(runs: &[PathBuf]) -> Result<(LeagueSpec, Vec<LeagueGame>)> {
    let (spec, games, merge) = load_runs(runs)?;
    for w in merge.warnings() {
        eprintln!("{w}");
    }
    if games.is_empty() {
        bail!("the runs hold no recorded games yet");
    }
    Ok((spec, games))
}

fn check_names(spec: &LeagueSpec, wanted: &[String]) -> Result<()> {
    let names = spec.names();
    for w in wanted {
        if !names.contains(w) {
            bail!(
                "--controller `{w}`: the league has no such controller (it has {})",
                names.join(", ")
            );
        }
    }
    Ok(())
}

fn written(paths: &[PathBuf]) {
    for p in paths {
        eprintln!("wrote {}", p.display());
    }
}

fn formulas(
    spec: &LeagueSpec,
    games: &[LeagueGame],
    out: &Path,
    top: usize,
    only: &[String],
) -> Result<()> {
    if top == 0 {
        bail!("--top must be at least 1");
    }
    let report = FormulaReport::new(&spec.names(), games, only, top)?;
    if report.results.is_empty() {
        eprintln!("no ES decisions recorded for the selected controllers: no formula table");
        return Ok(());
    }
    print!("{}", report.to_text());
    written(&report.write(out)?);
    Ok(())
}

fn league(spec: &LeagueSpec, games: &[LeagueGame], out: &Path) -> Result<()> {
    let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, games);
    print!("{}", report::standings_table(&tables).to_text());
    written(&write_league_figures(&tables, &spec.name, out)?);
    Ok(())
}

fn curves(spec: &LeagueSpec, games: &[LeagueGame], out: &Path, only: &[String]) -> Result<()> {
    let curves = GameCurves::new(&spec.names(), games, only)?;
    print!("{}", curves.to_text());
    written(&curves.write(out)?);
    Ok(())
}

fn board(run: &Path, k: usize, turn: Option<usize>, every: bool, out: &Path) -> Result<()> {
    let (_, games) = load(&[run.to_path_buf()])?;
    let Some(game) = games.get(k) else {
        bail!(
            "--game {k}: the run has {} recorded games (0 to {})",
            games.len(),
            games.len() - 1
        );
    };
    let states = states_by_turn(&game.game).with_context(|| format!("game {k}"))?;
    let last = states.len() - 1;
    let turns: Vec<usize> = match (turn, every) {
        (_, true) => (0..=last).collect(),
        (Some(t), _) if t > last => bail!("--turn {t}: game {k} has {last} turns (0 to {last})"),
        (Some(t), _) => vec![t],
        (None, _) => vec![last],
    };
    for t in turns {
        let state = &states[t];
        let mut labels = BoardLabels::default_for(state);
        labels.names = game.names.clone();
        labels.title = format!(
            "Game {k}: {} vs {} — {}",
            game.names[0],
            game.names[1],
            if t == last {
                format!("final board after {t} turns")
            } else {
                format!("after turn {t}")
            }
        );
        let stem = if t == last {
            format!("board_game{k}_final")
        } else {
            format!("board_game{k}_turn{t:02}")
        };
        let png = out.join(format!("{stem}.png"));
        let svg = out.join(format!("{stem}.svg"));
        draw_board_labelled(state, &labels, &png, &svg)?;
        written(&[png, svg]);
    }
    Ok(())
}

pub fn run(args: PlotArgs) -> Result<()> {
    match args.command {
        PlotCommand::Formulas {
            common,
            top,
            controllers,
        } => {
            let (spec, games) = load(&common.runs)?;
            check_names(&spec, &controllers)?;
            formulas(&spec, &games, &common.out, top, &controllers)
        }
        PlotCommand::League { common } => {
            let (spec, games) = load(&common.runs)?;
            league(&spec, &games, &common.out)
        }
        PlotCommand::Games {
            common,
            controllers,
        } => {
            let (spec, games) = load(&common.runs)?;
            check_names(&spec, &controllers)?;
            curves(&spec, &games, &common.out, &controllers)
        }
        PlotCommand::Board {
            run,
            game,
            turn,
            every_turn,
            out,
        } => board(&run, game, turn, every_turn, &out),
        PlotCommand::Tiles { out } => {
            written(&chart::save_in(&TileGallery, &out, "tiles")?);
            Ok(())
        }
        PlotCommand::All { common, top } => {
            let (spec, games) = load(&common.runs)?;
            formulas(&spec, &games, &common.out, top, &[])?;
            println!();
            league(&spec, &games, &common.out)?;
            println!();
            curves(&spec, &games, &common.out, &[])
        }
    }
}
