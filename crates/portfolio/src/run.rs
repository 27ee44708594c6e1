//! The portfolio's loop. The driver (`evomcts portfolio SPEC`) holds the portfolio's folder
//! and lock and starts one process per job (`portfolio SPEC --only LABEL --part study|matrix`,
//! through [`Relaunch`], so inside Python they are `python -m evomcts` and OpenSpiel's games
//! play there), at most `jobs` at a time: first each game's properties and study, then, once
//! every study is finished, each game's column of the matrix. A job writes its result file
//! (`games/LABEL.ron`, `matrix/LABEL.ron`) last, whole, so a finished job is never started
//! again and an interrupted one resumes its study or cells byte for byte. Then the driver
//! writes the outputs from the result files.

use super::check::read_checked;
use super::outputs::{write_outputs, CellResult, GameResult, MatrixColumn, StudyRow};
use super::properties::{measure, PROPERTY_GAMES};
use super::{io_error, write_ron, PortfolioError, PortfolioSpec};
use evomcts_steps::launch::Relaunch;
use evomcts_study::{run_study, StudyOptions};
use evomcts_validation::{run_validation, PlayOptions};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Instant;

/// The portfolio's spec in its folder.
pub const PORTFOLIO_RON: &str = evomcts_records::runfs::kind::PORTFOLIO_RON;
/// Each game's study folder is `studies/LABEL`.
pub const STUDIES_DIR: &str = "studies";
/// Each game's result (its properties and its study's rows): `games/LABEL.ron`.
pub const GAMES_DIR: &str = "games";
/// Each target game's column of the matrix: `matrix/LABEL.ron`, its cells' validation folders
/// in `matrix/sims-B/TARGET/SOURCE`.
pub const MATRIX_DIR: &str = "matrix";
/// The jobs' stderr, for people (no result reads it).
pub const LOGS_DIR: &str = "logs";

/// A job of the portfolio: one game's study, or one game's column of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Study,
    Matrix,
    /// The general formula (one job for the whole portfolio, no label).
    General,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Study => "study",
            Part::Matrix => "matrix",
            Part::General => "general",
        }
    }

    pub fn from_name(name: &str) -> Option<Part> {
        [Part::Study, Part::Matrix, Part::General]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// How a portfolio is run.
#[derive(Clone, Debug)]
pub struct PortfolioOptions {
    pub out_dir: PathBuf,
    pub resume: bool,
    /// Jobs at once (each a process).
    pub jobs: usize,
    /// Worker threads of each job [`None`: the game's default, divided among the jobs for a
    /// native game]; results do not depend on it.
    pub threads: Option<usize>,
    pub progress: bool,
    /// The command line to start each job with.
    pub relaunch: Relaunch,
    /// The spec file as given, which each job reads.
    pub spec_file: PathBuf,
}

/// What a portfolio (or this part of it) did.
#[derive(Clone, Debug, PartialEq)]
pub struct PortfolioOutcome {
    pub games: usize,
    pub studies_done: usize,
    pub columns_done: usize,
}

/// A budget's folder: `sims-B`.
pub fn sims_dir(budget: u32) -> String {
    format!("sims-{budget}")
}

/// The study folder of the game labelled `label`: `studies/LABEL`.
pub fn study_dir(dir: &Path, label: &str) -> PathBuf {
    dir.join(STUDIES_DIR).join(label)
}

/// The validation folder of `source`'s champion on `target` at `budget`:
/// `matrix/sims-B/TARGET/SOURCE`.
pub fn cell_dir(dir: &Path, budget: u32, target: &str, source: &str) -> PathBuf {
    dir.join(MATRIX_DIR)
        .join(sims_dir(budget))
        .join(target)
        .join(source)
}

/// The cells of `target`'s column in the order its job writes them: at each of the target's
/// budgets (its row there), every other game's champion (that game's result and row), in the
/// spec's order (`games`: every game's result).
pub fn column_cells<'a>(
    target: &GameResult,
    games: &'a [GameResult],
) -> Vec<(&'a StudyRow, &'a GameResult, &'a StudyRow)> {
    let mut cells = Vec::new();
    let Some(own) = games.iter().find(|g| g.label == target.label) else {
        return cells;
    };
    for row in &own.rows {
        for source in games.iter().filter(|g| g.label != target.label) {
            if let Some(theirs) = source.rows.iter().find(|r| r.budget == row.budget) {
                cells.push((row, source, theirs));
            }
        }
    }
    cells
}

/// The result file of `label`'s `part`.
pub fn result_file(dir: &Path, label: &str, part: Part) -> PathBuf {
    let folder = match part {
        Part::Study => GAMES_DIR,
        Part::Matrix => MATRIX_DIR,
        Part::General => return dir.join(super::general::GENERAL_RON),
    };
    dir.join(folder).join(format!("{label}.ron"))
}

/// Runs (or resumes) the portfolio of `spec`: every job in its own process, then the outputs.
pub fn run_portfolio(
    spec: &PortfolioSpec,
    opts: &PortfolioOptions,
) -> Result<PortfolioOutcome, PortfolioError> {
    if opts.jobs == 0 {
        return Err(PortfolioError::NoJobs);
    }
    let dir = &opts.out_dir;
    let _lock = evomcts_records::runfs::RunLock::open_run_folder(
        dir,
        evomcts_records::runfs::RunKind::Portfolio,
        &format!("portfolio `{}`", spec.name),
    )?;
    super::check_stored_spec(dir, &spec.to_ron(), opts.resume)?;
    let labels: Vec<String> = spec.games.iter().map(|g| g.label.clone()).collect();
    run_jobs(spec, opts, &labels, Part::Study)?;
    // A damaged result is refused here, by name, rather than in the log of every job that
    // reads it.
    read_checked(spec, dir)?;
    if spec.matrix.games > 0 {
        run_jobs(spec, opts, &labels, Part::Matrix)?;
    }
    if spec.general.is_some() {
        run_jobs(spec, opts, &[GENERAL_LABEL.to_string()], Part::General)?;
    }
    let results = read_checked(spec, dir)?;
    write_outputs(dir, spec, &results)?;
    Ok(PortfolioOutcome {
        games: labels.len(),
        studies_done: results.games.len(),
        columns_done: results.columns.len(),
    })
}

/// The name of the general formula's job in logs, progress and `timings.csv`.
pub const GENERAL_LABEL: &str = "general";

/// The finished games' results and the finished matrix columns, in the spec's order, once
/// every result file written so far is checked ([`read_checked`]).
pub fn read_results(
    spec: &PortfolioSpec,
    dir: &Path,
) -> Result<(Vec<GameResult>, Vec<MatrixColumn>), PortfolioError> {
    let results = read_checked(spec, dir)?;
    Ok((results.games, results.columns))
}

/// Starts the jobs of `part` whose result is not written, at most `opts.jobs` at a time, and
/// waits for all of them; the first that fails is reported (after the others end).
fn run_jobs(
    spec: &PortfolioSpec,
    opts: &PortfolioOptions,
    labels: &[String],
    part: Part,
) -> Result<(), PortfolioError> {
    let dir = &opts.out_dir;
    let todo: Vec<&String> = labels
        .iter()
        .filter(|l| !result_file(dir, l, part).is_file())
        .collect();
    if todo.is_empty() {
        return Ok(());
    }
    let logs = dir.join(LOGS_DIR);
    evomcts_records::runfs::create_folder(&logs).map_err(|e| io_error(&logs, e))?;
    let started = Instant::now();
    // Each job's stdin is a pipe this process holds open: a job started with
    // `--exit-with-driver` ends when it closes, so a driver killed (kill -9 included) leaves no
    // job running into a folder a resumed driver then uses.
    let mut running: Vec<(String, Child, Instant)> = Vec::new();
    let mut queue = todo.iter().rev().map(|l| l.to_string()).collect::<Vec<_>>();
    let mut failed: Option<PortfolioError> = None;
    let mut finished = 0usize;
    while !queue.is_empty() || !running.is_empty() {
        while running.len() < opts.jobs && failed.is_none() {
            let Some(label) = queue.pop() else { break };
            let child = start_job(spec, opts, &label, part, todo.len())?;
            running.push((label, child, Instant::now()));
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        let mut i = 0;
        while i < running.len() {
            let status = running[i].1.try_wait().map_err(|e| io_error(&logs, e))?;
            let Some(status) = status else {
                i += 1;
                continue;
            };
            let (label, _, job_started) = running.swap_remove(i);
            finished += 1;
            let log = log_file(dir, &label, part);
            if !status.success() || !result_file(dir, &label, part).is_file() {
                failed.get_or_insert(PortfolioError::JobFailed {
                    label: label.clone(),
                    part: part.name(),
                    status: status.to_string(),
                    log: log.display().to_string(),
                    tail: tail(&log),
                });
                queue.clear();
                continue;
            }
            record_time(dir, &label, part, job_started.elapsed().as_secs_f64());
            if opts.progress {
                let elapsed = started.elapsed().as_secs_f64();
                let left = todo.len() - finished;
                evomcts_records::note!(
                    "portfolio: {} of {label} finished in {}; {finished} of {} {} jobs done, {left} left{}",
                    part.name(),
                    evomcts_records::progress::duration(job_started.elapsed().as_secs_f64()),
                    todo.len(),
                    part.name(),
                    if left > 0 {
                        format!(
                            ", ETA about {} (jobs differ in cost)",
                            evomcts_records::progress::duration(elapsed / finished as f64 * left as f64)
                        )
                    } else {
                        String::new()
                    }
                );
            }
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The wall time of each finished job, for people (no result reads it): `timings.csv`.
pub const TIMINGS_CSV: &str = "timings.csv";

/// Adds a finished job's wall time to `timings.csv` (best effort: losing it loses no result).
fn record_time(dir: &Path, label: &str, part: Part, seconds: f64) {
    let file = dir.join(TIMINGS_CSV);
    let mut text = evomcts_records::runfs::read_capped_text(
        &file,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "timings",
    )
    .unwrap_or_else(|_| "label,part,seconds,finished_utc\n".to_string());
    text.push_str(&format!(
        "{label},{},{seconds:.1},{}\n",
        part.name(),
        evomcts_records::runfs::utc_now()
    ));
    let _ = evomcts_records::runfs::write_atomically(&file, text.as_bytes());
}

fn log_file(dir: &Path, label: &str, part: Part) -> PathBuf {
    dir.join(LOGS_DIR)
        .join(format!("{label}-{}.txt", part.name()))
}

/// The last lines of a job's log, for the error.
fn tail(log: &Path) -> evomcts_records::progress::QuotedLines {
    let text = evomcts_records::runfs::read_capped_text(
        log,
        evomcts_records::runfs::MAX_DATA_FILE_BYTES,
        "a job's log",
    )
    .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    evomcts_records::progress::QuotedLines(
        lines[lines.len().saturating_sub(TAIL_LINES)..]
            .iter()
            .map(|l| l.to_string())
            .collect(),
    )
}

/// The lines of a failed job's log its error quotes.
const TAIL_LINES: usize = 5;

/// The threads a job uses unless told (0: every core): its game's default; for the general
/// formula, one if any game of its mix is OpenSpiel's, else every core.
fn job_default_threads(spec: &PortfolioSpec, label: &str, part: Part) -> usize {
    let games: Vec<&super::PortfolioGame> = match part {
        Part::General => spec
            .general
            .iter()
            .flat_map(|g| g.train.iter().filter_map(|l| spec.game(l)))
            .collect(),
        Part::Study | Part::Matrix => spec.game(label).into_iter().collect(),
    };
    games
        .iter()
        .map(|g| g.game.default_threads())
        .filter(|&t| t != 0)
        .min()
        .unwrap_or(0)
}

/// Starts the job of `label`'s `part`, its stderr and stdout into its log.
fn start_job(
    spec: &PortfolioSpec,
    opts: &PortfolioOptions,
    label: &str,
    part: Part,
    jobs: usize,
) -> Result<Child, PortfolioError> {
    let dir = &opts.out_dir;
    let log = log_file(dir, label, part);
    let file = std::fs::File::create(&log).map_err(|e| io_error(&log, e))?;
    let err = file.try_clone().map_err(|e| io_error(&log, e))?;
    let threads = opts
        .threads
        .unwrap_or_else(|| match job_default_threads(spec, label, part) {
            0 => {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                (cores / opts.jobs.min(jobs).max(1)).max(1)
            }
            t => t,
        });
    let mut command = opts.relaunch.command("portfolio");
    command
        .arg(&opts.spec_file)
        .arg("--out")
        .arg(dir)
        .args(match part {
            // One argument, so a label that starts with `-` is not read as a flag.
            Part::Study | Part::Matrix => vec![format!("--only={label}")],
            Part::General => Vec::new(),
        })
        .arg("--part")
        .arg(part.name())
        .arg("--threads")
        .arg(threads.to_string())
        .arg("--exit-with-driver")
        .stdin(Stdio::piped())
        .stdout(Stdio::from(file))
        .stderr(Stdio::from(err));
    if opts.progress {
        evomcts_records::note!(
            "portfolio: {} of {label} started ({} threads), its log in {}",
            part.name(),
            threads,
            evomcts_records::escape::path(&log)
        );
    }
    command.spawn().map_err(|e| PortfolioError::Start {
        command: opts.relaunch.display(),
        message: e.to_string(),
    })
}

/// One job, in this process: `label`'s study (with its properties) or its column of the matrix.
/// The portfolio's folder must hold this spec (the driver wrote it).
pub fn run_job(
    spec: &PortfolioSpec,
    dir: &Path,
    label: &str,
    part: Part,
    threads: Option<usize>,
    progress: bool,
) -> Result<(), PortfolioError> {
    super::check_stored_spec(dir, &spec.to_ron(), true)?;
    if part == Part::General {
        if result_file(dir, label, part).is_file() {
            return Ok(());
        }
        let (games, _) = read_results(spec, dir)?;
        if games.len() < spec.games.len() {
            return Err(PortfolioError::StudiesUnfinished {
                finished: games.len(),
                games: spec.games.len(),
            });
        }
        return super::general::general_job(spec, dir, &games, threads, progress);
    }
    let Some(game) = spec.game(label) else {
        return Err(PortfolioError::NoSuchGame {
            label: label.to_string(),
        });
    };
    if result_file(dir, label, part).is_file() {
        return Ok(());
    }
    match part {
        Part::Study => study_job(spec, dir, game, threads, progress),
        Part::Matrix => matrix_job(spec, dir, game, threads, progress),
        Part::General => unreachable!("handled above"),
    }
}

/// Measures the game's properties, runs (or resumes) its study, writes `games/LABEL.ron`.
fn study_job(
    spec: &PortfolioSpec,
    dir: &Path,
    game: &super::PortfolioGame,
    threads: Option<usize>,
    progress: bool,
) -> Result<(), PortfolioError> {
    let study = spec.study_spec(game);
    let properties = measure(
        &game.game,
        game.rules,
        evomcts_records::runfs::derive_seed(study.seed, &[PROPERTIES]),
        PROPERTY_GAMES,
    )
    .map_err(|message| PortfolioError::Game {
        label: game.label.clone(),
        message,
    })?;
    let outcome = run_study(
        &study,
        &StudyOptions {
            out_dir: study_dir(dir, &game.label),
            resume: true,
            threads,
            progress,
            stop_after: None,
            steps: None,
        },
    )
    .map_err(|source| PortfolioError::Study {
        label: game.label.clone(),
        source: Box::new(source),
    })?;
    let result = GameResult {
        label: game.label.clone(),
        game: game.game.label(),
        open_spiel: game.game.describe().open_spiel,
        properties,
        rows: outcome.rows.iter().map(StudyRow::from).collect(),
    };
    let dir_games = dir.join(GAMES_DIR);
    evomcts_records::runfs::create_folder(&dir_games).map_err(|e| io_error(&dir_games, e))?;
    write_ron(&result_file(dir, &game.label, Part::Study), &result)
}

/// The seed stream of a game's properties, below its study's seed.
const PROPERTIES: u64 = 101;

/// Plays every other game's champion on `target` at each budget (its played constant,
/// against its UCT), writes `matrix/LABEL.ron`.
fn matrix_job(
    spec: &PortfolioSpec,
    dir: &Path,
    target: &super::PortfolioGame,
    threads: Option<usize>,
    progress: bool,
) -> Result<(), PortfolioError> {
    let (games, _) = read_results(spec, dir)?;
    if games.len() < spec.games.len() {
        return Err(PortfolioError::StudiesUnfinished {
            finished: games.len(),
            games: spec.games.len(),
        });
    }
    let own = games
        .iter()
        .find(|g| g.label == target.label)
        .expect("every game is finished");
    let mut cells = Vec::new();
    for (row, source, theirs) in column_cells(own, &games) {
        let cell = spec.cell_spec(target, &source.label, row.budget, row.c_e, &theirs.champion);
        let out_dir = cell_dir(dir, row.budget, &target.label, &source.label);
        let summary = run_validation(
            &cell,
            &PlayOptions {
                out_dir,
                resume: true,
                threads,
                progress,
                stop_after: None,
                srun: None,
            },
        )
        .map_err(|source| PortfolioError::Cell {
            label: target.label.clone(),
            budget: row.budget,
            source: Box::new(source),
        })?;
        cells.push(CellResult::new(
            row.budget,
            &source.label,
            &target.label,
            &theirs.champion,
            &summary,
        ));
    }
    let column = MatrixColumn {
        target: target.label.clone(),
        cells,
    };
    let matrix = dir.join(MATRIX_DIR);
    evomcts_records::runfs::create_folder(&matrix).map_err(|e| io_error(&matrix, e))?;
    write_ron(&result_file(dir, &target.label, Part::Matrix), &column)
}
