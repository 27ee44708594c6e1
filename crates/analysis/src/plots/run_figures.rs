//! Every figure of a run folder, whichever kind it is: a league run (`spec.ron` and
//! `games.jsonl`) gets the formula, league and game figures; an evolution run (`gen-NNN.ron`
//! files) gets the evolution figures; a tuning run (`tune.csv`) its parameters' trajectories.
//! `evomcts plot all` and the HTML report both draw through here, so they show the same
//! figures.

use super::curves::GameCurves;
use super::evolution_plots::EvolutionFigures;
use super::formulas::FormulaReport;
use super::league_plots::write_league_figures;
use super::pareto_plot::ParetoFigure;
use super::tune_plots::TuneTrajectoryFigure;
use super::{PlotError, WrittenFigure};
use evomcts_evolve::population::{gap_warning, generations_on_disk, read_generations};
use evomcts_evolve::{EvolveSpec, Generation};
use evomcts_league::{load_runs, report, LeagueGame, LeagueSpec, Tables};
use std::path::{Path, PathBuf};

/// How many of the most frequent formulas the formula figures list when not told otherwise.
pub const DEFAULT_TOP: usize = 10;

/// The records of one league (one or more run folders merged) or of one evolution run.
pub enum RunFolder {
    League {
        spec: LeagueSpec,
        games: Vec<LeagueGame>,
        /// What the merge of several folders noticed (torn records, missing games).
        warnings: Vec<String>,
    },
    Evolution {
        dir: PathBuf,
        /// `None` when the stored spec no longer reads (it names a file that is gone): the
        /// figures then come from the generation files alone.
        spec: Option<Box<EvolveSpec>>,
        generations: Vec<Generation>,
        warnings: Vec<String>,
    },
    /// A tuning run of `evomcts tune`: its spec and trajectory.
    Tune {
        figure: Box<TuneTrajectoryFigure>,
        warnings: Vec<String>,
    },
}

/// True when `dir` holds an evolution run (generation files) rather than a league run.
pub fn is_evolution_run(dir: &Path) -> Result<bool, PlotError> {
    Ok(!generations_on_disk(dir)?.is_empty())
}

impl RunFolder {
    /// What reading the folders noticed that the user should know.
    pub fn warnings(&self) -> &[String] {
        match self {
            RunFolder::League { warnings, .. }
            | RunFolder::Evolution { warnings, .. }
            | RunFolder::Tune { warnings, .. } => warnings,
        }
    }

    /// Reads the run folders `runs`: league runs of one league, merged, or a single evolution
    /// run. A league run must hold at least one game, an evolution run one generation.
    pub fn read(runs: &[PathBuf]) -> Result<RunFolder, PlotError> {
        let Some(first) = runs.first() else {
            return Err(PlotError::Data("no run folder given".into()));
        };
        if evomcts_tune::is_tune_run(first) {
            if runs.len() > 1 {
                return Err(PlotError::Data(format!(
                    "{} is a tuning run: give it alone (tuning runs are plotted one at a time)",
                    first.display()
                )));
            }
            return Ok(RunFolder::Tune {
                figure: Box::new(TuneTrajectoryFigure::read(first)?),
                warnings: Vec::new(),
            });
        }
        if is_evolution_run(first)? {
            if runs.len() > 1 {
                return Err(PlotError::Data(format!(
                    "{} is an evolution run: give it alone (evolution runs are plotted one at a time)",
                    first.display()
                )));
            }
            // The stored spec is read as written, as a resumed run reads it: it already holds
            // what the files it named held.
            let spec_path = first.join("spec.ron");
            let spec = evomcts_records::runfs::read_spec_text(&spec_path)
                .and_then(|text| EvolveSpec::from_ron(&text, &spec_path.display().to_string()));
            let mut warnings = Vec::new();
            let spec = match spec {
                Ok(spec) => Some(Box::new(spec)),
                Err(e) => {
                    warnings.push(format!(
                        "{e}\n(the figures are drawn from the generation files alone)"
                    ));
                    None
                }
            };
            let generations = read_generations(first)?;
            warnings.extend(gap_warning(first, &generations_on_disk(first)?));
            return Ok(RunFolder::Evolution {
                dir: first.clone(),
                spec,
                generations,
                warnings,
            });
        }
        if let Some(evolution) = runs[1..]
            .iter()
            .find(|d| is_evolution_run(d).unwrap_or(false))
        {
            return Err(PlotError::Data(format!(
                "{} is an evolution run and {} a league run: plot them separately",
                evolution.display(),
                first.display()
            )));
        }
        let (spec, games, merge) = load_runs(runs)?;
        if games.is_empty() {
            return Err(PlotError::Data(format!(
                "{}: the run holds no recorded games yet",
                first.display()
            )));
        }
        Ok(RunFolder::League {
            spec,
            games,
            warnings: merge.warnings(),
        })
    }
}

/// What a set of figures left on disk, and their tables as text for the terminal.
#[derive(Debug, Default)]
pub struct Written {
    pub figures: Vec<WrittenFigure>,
    /// CSV and Markdown tables.
    pub tables: Vec<PathBuf>,
    /// The tables as terminal text.
    pub text: String,
}

impl Written {
    pub fn append(&mut self, mut other: Written) {
        self.figures.append(&mut other.figures);
        self.tables.append(&mut other.tables);
        if !self.text.is_empty() && !other.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(&other.text);
    }

    /// Every file written: tables first, then each figure's PNG and SVG.
    pub fn files(&self) -> Vec<&Path> {
        let mut out: Vec<&Path> = self.tables.iter().map(PathBuf::as_path).collect();
        for f in &self.figures {
            out.push(&f.png);
            out.push(&f.svg);
        }
        out
    }
}

/// The formula, league and game figures of a league run.
pub fn write_league_run(
    spec: &LeagueSpec,
    games: &[LeagueGame],
    out: &Path,
    top: usize,
) -> Result<Written, PlotError> {
    let names = spec.names();
    let mut written = Written::default();
    let formulas = FormulaReport::new(&names, games, &[], top)?;
    if !formulas.results.is_empty() {
        written.append(formulas.write(out)?);
    }
    let tables = Tables::from_games(&names, spec.games_per_match, &spec.bonus, games);
    written.append(Written {
        figures: write_league_figures(&tables, &spec.name, out)?,
        tables: Vec::new(),
        text: report::standings_table(&tables).to_text(),
    });
    // Score curves read the virtual scores after every turn, which only Carcassonne records
    // keep.
    if spec.game.is_carcassonne() {
        written.append(GameCurves::new(&names, games, &[])?.write(out)?);
    }
    Ok(written)
}

/// Every figure of `run` (league runs: formulas with the `top` most frequent, league, games;
/// evolution runs: fitness, formula sizes, effort, and the front when the run has
/// `pareto.csv`) into `out`.
pub fn write_figures(run: &RunFolder, out: &Path, top: usize) -> Result<Written, PlotError> {
    match run {
        RunFolder::League { spec, games, .. } => write_league_run(spec, games, out, top),
        RunFolder::Evolution {
            dir,
            spec,
            generations,
            ..
        } => {
            let figures = EvolutionFigures::new(spec.as_deref(), generations)?;
            // The front's table is read (and refused if damaged) before any figure is drawn.
            let front = ParetoFigure::read(dir, &figures.run, figures.y_label)?;
            let mut written = figures.write(out)?;
            if let Some(front) = front {
                written.figures.push(front.write(out)?);
            }
            Ok(written)
        }
        RunFolder::Tune { figure, .. } => figure.write(out),
    }
}

/// Draws every figure of the run folder `run` (league or evolution) into `out` as PNG and SVG,
/// with their tables, and returns the figures in the order a report shows them.
pub fn write_run_figures(run: &Path, out: &Path) -> Result<Vec<WrittenFigure>, PlotError> {
    let folder = RunFolder::read(&[run.to_path_buf()])?;
    Ok(write_figures(&folder, out, DEFAULT_TOP)?.figures)
}
