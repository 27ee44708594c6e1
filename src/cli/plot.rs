//! `evomcts plot`: figures and tables from the records of league runs and evolution runs.
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
//! as PNG and SVG into DIR (default `plots/` inside the first run folder); tables go to the
//! terminal and to CSV/Markdown next to the figures. `plot all` also takes an evolution run, a
//! tuning run or a portfolio.

use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use evomcts::analysis::plots::board::{draw_game_boards, BoardTurns, TileGallery};
use evomcts::analysis::plots::chart;
use evomcts::analysis::plots::curves::GameCurves;
use evomcts::analysis::plots::formulas::FormulaReport;
use evomcts::analysis::plots::league_plots::write_league_figures;
use evomcts::analysis::plots::matrix_plot::write_matrix_figures;
use evomcts::analysis::plots::run_figures::{is_evolution_run, write_figures};
use evomcts::analysis::plots::{RunFolder, Written, WrittenFigure};
use evomcts::league::{report, LeagueGame, LeagueSpec, Tables};
use evomcts::{escape, runfs};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct PlotArgs {
    #[command(subcommand)]
    command: PlotCommand,
}

/// The folder plots go to when `--out` is not given: `plots/` inside the first run folder.
const DEFAULT_OUT: &str = "plots";

#[derive(Args)]
struct Common {
    /// Run folders (each with spec.ron and games.jsonl) of the same league.
    #[arg(required = true)]
    runs: Vec<PathBuf>,
    /// Folder for the figures and tables [default: RUN/plots, inside the first run folder].
    #[arg(long)]
    out: Option<PathBuf>,
}

impl Common {
    fn out(&self) -> Result<PathBuf> {
        out_dir(&self.out, &self.runs)
    }
}

/// `--out`, which must not be another run's folder, or the first run's `plots/`.
fn out_dir(out: &Option<PathBuf>, runs: &[PathBuf]) -> Result<PathBuf> {
    match out {
        Some(out) => {
            runfs::check_output_folder(out, runs).map_err(anyhow::Error::msg)?;
            Ok(out.clone())
        }
        None => Ok(runs[0].join(DEFAULT_OUT)),
    }
}

#[derive(Subcommand)]
enum PlotCommand {
    /// The formulas the ES controllers chose (the paper's Table XI) and a bar chart per
    /// controller. formulas.csv: controller, rank, count, share (a fraction, 0 to 1), pretty,
    /// canonical, latex, size, depth, total (the controller's chosen formulas).
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
    /// Mean score per turn of each pairing (a finished game keeps its final score, so each
    /// curve ends at the mean final score), ES fitness per generation, sizes and depths of the
    /// chosen formulas.
    Games {
        #[command(flatten)]
        common: Common,
        /// Only these controllers (and the pairings they play in).
        #[arg(long = "controller")]
        controllers: Vec<String>,
    },
    /// A picture of one game's board, named board_game<K>_turn<TT>.{png,svg}.
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
        /// Folder for the pictures [default: RUN/plots].
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// The 24 tile types in their four rotations, drawn as boards draw them.
    Tiles {
        /// Folder for the picture (there is no run folder to put it in).
        #[arg(long, default_value = DEFAULT_OUT)]
        out: PathBuf,
    },
    /// Every figure of a run but boards: for league runs the formulas, league and games
    /// figures; for an evolution run (a folder of gen-NNN.ron files) fitness per generation
    /// with 95% intervals, formula sizes and samples spent; for a tuning run (tune.csv) each
    /// parameter's iterate per step; for a portfolio (portfolio.ron) its generalisation matrix
    /// as a heat map per budget.
    All {
        /// Run folders of one league (each with spec.ron and games.jsonl; several merge), or
        /// one evolution run folder (gen-NNN.ron files), or one tuning run folder (tune.csv),
        /// or one portfolio folder (portfolio.ron).
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Folder for the figures and tables [default: RUN/plots, inside the first run folder].
        #[arg(long)]
        out: Option<PathBuf>,
        /// How many of the most frequent formulas to list and draw (league runs).
        #[arg(long, default_value_t = 10)]
        top: usize,
    },
}

/// The league of `runs`; an evolution run is refused with a pointer to `plot all`.
fn load(runs: &[PathBuf]) -> Result<(LeagueSpec, Vec<LeagueGame>)> {
    for run in runs {
        if is_evolution_run(run)? {
            bail!(
                "{} is an evolution run (gen-NNN.ron files): draw its figures with `evomcts plot all {}`",
                run.display(),
                run.display()
            );
        }
    }
    match RunFolder::read(runs)? {
        RunFolder::League {
            spec,
            games,
            warnings,
        } => {
            for w in warnings {
                evomcts::note!("{w}");
            }
            Ok((spec, games))
        }
        RunFolder::Evolution { dir, .. } => {
            bail!("{} is an evolution run, not a league run", dir.display())
        }
        RunFolder::Tune { .. } => bail!(
            "{} is a tuning run (tune.csv): draw its figure with `evomcts plot all {}`",
            runs[0].display(),
            runs[0].display()
        ),
    }
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

fn report_files(files: &[&Path]) {
    for p in files {
        evomcts::note!("wrote {}", escape::path(p));
    }
}

/// Prints the tables and names every file written.
fn show(written: &Written) -> Result<()> {
    out!("{}", written.text)?;
    report_files(&written.files());
    Ok(())
}

fn figure_files(figures: &[WrittenFigure]) -> Vec<&Path> {
    figures
        .iter()
        .flat_map(|f| [f.png.as_path(), f.svg.as_path()])
        .collect()
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
        evomcts::note!("no ES decisions recorded for the selected controllers: no formula table");
        return Ok(());
    }
    show(&report.write(out)?)?;
    Ok(())
}

fn league(spec: &LeagueSpec, games: &[LeagueGame], out: &Path) -> Result<()> {
    let tables = Tables::from_games(&spec.names(), spec.games_per_match, &spec.bonus, games);
    out!("{}", report::standings_table(&tables).to_text())?;
    report_files(&figure_files(&write_league_figures(
        &tables, &spec.name, out,
    )?));
    Ok(())
}

fn board(run: &Path, k: usize, turns: BoardTurns, out: &Path) -> Result<()> {
    let (spec, games) = load(&[run.to_path_buf()])?;
    let entrants = spec.names().len();
    let number = |g: &LeagueGame| g.id().number(entrants, spec.games_per_match);
    let Some(game) = games.iter().find(|g| number(g) == k) else {
        bail!(
            "--game {k}: the run has no recorded game {k} ({} recorded, numbered in schedule order)",
            games.len()
        );
    };
    let figures = draw_game_boards(game, k, turns, out)?;
    report_files(&figure_files(&figures));
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
            formulas(&spec, &games, &common.out()?, top, &controllers)
        }
        PlotCommand::League { common } => {
            let (spec, games) = load(&common.runs)?;
            league(&spec, &games, &common.out()?)
        }
        PlotCommand::Games {
            common,
            controllers,
        } => {
            let (spec, games) = load(&common.runs)?;
            check_names(&spec, &controllers)?;
            show(&GameCurves::new(&spec.names(), &games, &controllers)?.write(&common.out()?)?)?;
            Ok(())
        }
        PlotCommand::Board {
            run,
            game,
            turn,
            every_turn,
            out,
        } => {
            let turns = match (turn, every_turn) {
                (_, true) => BoardTurns::Every,
                (Some(t), _) => BoardTurns::Turn(t),
                (None, false) => BoardTurns::Final,
            };
            let out = out_dir(&out, std::slice::from_ref(&run))?;
            board(&run, game, turns, &out)
        }
        PlotCommand::Tiles { out } => {
            runfs::check_output_folder(&out, &[]).map_err(anyhow::Error::msg)?;
            let figure = chart::save_in(&TileGallery, &out, "tiles")?;
            report_files(&figure_files(&[figure]));
            Ok(())
        }
        PlotCommand::All { runs, out, top } => {
            if top == 0 {
                bail!("--top must be at least 1");
            }
            if let [run] = runs.as_slice() {
                if evomcts::portfolio::is_portfolio(run) {
                    let matrices = write_matrix_figures(run, &out_dir(&out, &runs)?)?;
                    if let Some(note) = &matrices.note {
                        evomcts::note!("{note}");
                    }
                    return show(&matrices.written);
                }
            }
            let folder = RunFolder::read(&runs)?;
            for w in folder.warnings() {
                evomcts::note!("{w}");
            }
            show(&write_figures(&folder, &out_dir(&out, &runs)?, top)?)?;
            Ok(())
        }
    }
}
