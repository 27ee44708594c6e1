//! One check of every result file a portfolio reads (`games/LABEL.ron`, `matrix/TARGET.ron`,
//! `general.ron`) before any output, job or figure uses it, through [`read_checked`]:
//!
//! - against itself: a validation's W-D-L sums to its games and gives its win rate and Wilson
//!   interval, its numbers are finite, its p from 0 to 1; a game's properties are what random
//!   play can measure (no negative branching factor, a chance flag that agrees with the chance
//!   events);
//! - against the spec: the file is the result of the label it is named after, of that label's
//!   game, at the spec's budgets, each once and in the order the job writes them; a matrix
//!   column holds every other game's champion at each budget, a general row a held-out game
//!   of the spec's `general.train`, each with the games the spec plays;
//! - against the folders it summarises: a game's study folder holds the study the spec builds
//!   for it, whose evolution names the row's champion (`sims-B/evolve/champion.txt`), whose
//!   tuning tuned the row's constant (`sims-B/tune/tuned.ron`), and whose validation played that
//!   champion at the row's constant (its `spec.ron`) with the games its records hold
//!   (`games.csv`, read as `validate sequential` reads it); each matrix cell's and general row's
//!   validation folder likewise, the general formula being what its evolution names.
//!
//! A refusal names the result file and the field (`games/c4.ron: rows[0].validation.win_rate:
//! …`), and comes before anything is written.

use super::general::{
    general_cell_spec, general_dir, GeneralResult, HeldOut, EVOLVE_DIR, GENERAL_RON,
};
use super::outputs::{GameResult, MatrixColumn, StudyRow, Validation};
use super::properties::{game_type, Properties, PROPERTY_GAMES};
use super::run::{cell_dir, column_cells, result_file, study_dir, Part};
use super::{read_ron, PortfolioError, PortfolioGame, PortfolioSpec};
use evomcts_arena::GameChoice;
use evomcts_formula::Formula;
use evomcts_records::escape::abbreviated;
use evomcts_records::runfs::SpecFile;
use evomcts_search::ControllerSpec;
use evomcts_study::{phase_dir, Phase, STUDY_RON};
use evomcts_validation::sprt::read_records;
use evomcts_validation::{summarise, ValidateSpec};
use std::path::{Path, PathBuf};

mod transfer;
use transfer::{check_column, check_general};

/// The checked result files of a portfolio: the finished games' and matrix columns, in the
/// spec's order, and the general formula's once written.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub games: Vec<GameResult>,
    pub columns: Vec<MatrixColumn>,
    pub general: Option<GeneralResult>,
}

/// Reads and checks every result file written so far (see the module's comment).
pub fn read_checked(spec: &PortfolioSpec, dir: &Path) -> Result<Results, PortfolioError> {
    let mut games = Vec::new();
    for g in &spec.games {
        let file = result_file(dir, &g.label, Part::Study);
        if file.is_file() {
            let result: GameResult = read_ron(&file)?;
            check_game(spec, dir, g, &result, &At(&file))?;
            games.push(result);
        }
    }
    let mut columns = Vec::new();
    for g in &spec.games {
        let file = result_file(dir, &g.label, Part::Matrix);
        if file.is_file() {
            let column: MatrixColumn = read_ron(&file)?;
            let at = At(&file);
            every_game(spec, dir, &games, &at, "cells", "the matrix")?;
            check_column(spec, dir, g, &column, &games, &at)?;
            columns.push(column);
        }
    }
    let file = dir.join(GENERAL_RON);
    let general = if file.is_file() {
        let general: GeneralResult = read_ron(&file)?;
        let at = At(&file);
        every_game(spec, dir, &games, &at, "rows", "the general formula")?;
        check_general(spec, dir, &general, &games, &at)?;
        Some(general)
    } else {
        None
    };
    Ok(Results {
        games,
        columns,
        general,
    })
}

/// The result file being checked: its refusals name it and a field.
struct At<'a>(&'a Path);

impl At<'_> {
    fn bad(&self, field: impl Into<String>, message: impl Into<String>) -> PortfolioError {
        PortfolioError::BadResult {
            file: self.0.display().to_string(),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// A text from a result file as a message quotes it: escaped, cut when long.
fn shown(text: &str) -> String {
    format!("`{}`", abbreviated(text, 80))
}

fn shown_list(labels: &[String]) -> String {
    let items: Vec<String> = labels.iter().map(|l| shown(l)).collect();
    format!("[{}]", items.join(", "))
}

/// A path inside the portfolio's folder, as messages name it.
fn inside(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

/// The matrix and the general formula are played once every study is finished: a file of
/// theirs beside a missing game result was not written by this portfolio's jobs.
fn every_game(
    spec: &PortfolioSpec,
    dir: &Path,
    games: &[GameResult],
    at: &At,
    field: &str,
    what: &str,
) -> Result<(), PortfolioError> {
    match spec
        .games
        .iter()
        .find(|g| !games.iter().any(|r| r.label == g.label))
    {
        Some(missing) => Err(at.bad(
            field,
            format!(
                "{what} is played once every study is finished, but {} is missing",
                inside(dir, &result_file(dir, &missing.label, Part::Study))
            ),
        )),
        None => Ok(()),
    }
}

/// `games/LABEL.ron` against itself, the spec and the game's study folder.
fn check_game(
    spec: &PortfolioSpec,
    dir: &Path,
    g: &PortfolioGame,
    r: &GameResult,
    at: &At,
) -> Result<(), PortfolioError> {
    if r.label != g.label {
        return Err(at.bad(
            "label",
            format!(
                "is {}, but the file is the result of {}",
                shown(&r.label),
                shown(&g.label)
            ),
        ));
    }
    let game = g.game.label();
    if r.game != game {
        return Err(at.bad(
            "game",
            format!(
                "is {}, but the spec's game of {} is {}",
                shown(&r.game),
                shown(&g.label),
                shown(&game)
            ),
        ));
    }
    let open_spiel = g.game.describe().open_spiel;
    if r.open_spiel != open_spiel {
        return Err(at.bad(
            "open_spiel",
            format!(
                "is {}, but {game} is {}",
                r.open_spiel,
                open_spiel_word(open_spiel)
            ),
        ));
    }
    check_properties(&r.properties, &g.game, at)?;
    let budgets = spec.budgets();
    let rows: Vec<u32> = r.rows.iter().map(|row| row.budget).collect();
    if rows.is_empty() {
        return Err(at.bad(
            "rows",
            format!("is empty, but a game's result is written once its study has finished every budget of the spec ({budgets:?})"),
        ));
    }
    check_budgets(&rows, &budgets, "rows", at)?;
    let study = spec.study_spec(g);
    let folder = study_dir(dir, &g.label);
    let study_ron = folder.join(STUDY_RON);
    if read_text(&study_ron)? != study.to_ron() {
        return Err(at.bad(
            "label",
            format!(
                "its study folder holds another study: {} is not the study the portfolio's spec builds for {}",
                inside(dir, &study_ron),
                shown(&g.label)
            ),
        ));
    }
    for (i, row) in r.rows.iter().enumerate() {
        check_study_row(&study, dir, &folder, row, &format!("rows[{i}]"), at)?;
    }
    Ok(())
}

fn open_spiel_word(open_spiel: bool) -> &'static str {
    if open_spiel {
        "one of OpenSpiel's games"
    } else {
        "a native game"
    }
}

/// A game's properties as random play measures them.
fn check_properties(p: &Properties, game: &GameChoice, at: &At) -> Result<(), PortfolioError> {
    if p.games != PROPERTY_GAMES {
        return Err(at.bad(
            "properties.games",
            format!(
                "is {}, but a game's properties are measured on {PROPERTY_GAMES} random games",
                p.games
            ),
        ));
    }
    let expected = game_type(game);
    if p.game_type != expected {
        return Err(at.bad(
            "properties.game_type",
            format!(
                "is {}, but the game's is {}",
                shown(&p.game_type),
                shown(&expected)
            ),
        ));
    }
    for (name, x) in [
        ("branching", p.branching),
        ("length", p.length),
        ("chance_events", p.chance_events),
    ] {
        if !x.is_finite() || x < 0.0 {
            return Err(at.bad(
                format!("properties.{name}"),
                format!("is {x}, but a mean over random games is a finite number, 0 or more"),
            ));
        }
    }
    if p.length > 0.0 && p.branching < 1.0 || p.length == 0.0 && p.branching != 0.0 {
        return Err(at.bad(
            "properties.branching",
            format!(
                "is {}, but the mean legal moves at a decision is at least 1 (0 when the games have no decision; their mean length is {})",
                p.branching, p.length
            ),
        ));
    }
    if p.chance != (p.chance_events > 0.0) {
        return Err(at.bad(
            "properties.chance",
            format!(
                "is {}, but chance_events (the mean chance events a game) is {}",
                p.chance, p.chance_events
            ),
        ));
    }
    Ok(())
}

/// The budgets of a result's rows: each one of the spec's, each once, all of them in the
/// spec's order.
fn check_budgets(
    rows: &[u32],
    budgets: &[u32],
    field: &str,
    at: &At,
) -> Result<(), PortfolioError> {
    for (i, b) in rows.iter().enumerate() {
        if !budgets.contains(b) {
            return Err(at.bad(
                format!("{field}[{i}].budget"),
                format!("is {b}, not a budget of the spec ({budgets:?})"),
            ));
        }
        if let Some(j) = rows[..i].iter().position(|o| o == b) {
            return Err(at.bad(
                format!("{field}[{i}].budget"),
                format!("is {b}, which {field}[{j}] holds already"),
            ));
        }
    }
    if rows != budgets {
        return Err(at.bad(
            field,
            format!("holds the budgets {rows:?}, but the spec's are {budgets:?}, each once, in that order"),
        ));
    }
    Ok(())
}

/// A finite exploration constant above 0.
fn check_constant(x: f64, field: String, at: &At) -> Result<(), PortfolioError> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(at.bad(
            field,
            format!("is {x}, but an exploration constant is a finite number above 0"),
        ))
    }
}

/// One budget of a game's result against the spec and its study's phase folders.
fn check_study_row(
    study: &evomcts_study::StudySpec,
    dir: &Path,
    folder: &Path,
    row: &StudyRow,
    f: &str,
    at: &At,
) -> Result<(), PortfolioError> {
    let b = row.budget;
    check_constant(row.c_e_start, format!("{f}.c_e_start"), at)?;
    check_constant(row.c_e_tuned, format!("{f}.c_e_tuned"), at)?;
    check_constant(row.c_e, format!("{f}.c_e"), at)?;
    if row.c_e_start != study.tune.start {
        return Err(at.bad(
            format!("{f}.c_e_start"),
            format!(
                "is {}, but the spec's tuning starts at {}",
                row.c_e_start, study.tune.start
            ),
        ));
    }
    if row.c_e != row.c_e_start && row.c_e != row.c_e_tuned {
        return Err(at.bad(
            format!("{f}.c_e"),
            format!(
                "is {}, but a study plays its tuned constant ({}) or its start ({})",
                row.c_e, row.c_e_tuned, row.c_e_start
            ),
        ));
    }
    let simplified = row.champion.simplify();
    if row.simplified != simplified {
        return Err(at.bad(
            format!("{f}.simplified"),
            format!(
                "is {}, but the champion {} simplifies to {}",
                shown(&row.simplified.to_string()),
                shown(&row.champion.to_string()),
                shown(&simplified.to_string())
            ),
        ));
    }
    check_validation(&row.validation, &format!("{f}.validation"), at)?;
    let planned = study.planned_games(b);
    let [tune, evolve, validate] = row.games;
    if tune != planned[0] {
        return Err(at.bad(
            format!("{f}.games"),
            format!(
                "holds {tune} tuning games, but the spec's tuning plays {} (its steps and its re-estimate)",
                planned[0]
            ),
        ));
    }
    if evolve == 0 || evolve % 2 == 1 || evolve > planned[1] {
        return Err(at.bad(
            format!("{f}.games"),
            format!(
                "holds {evolve} evolution games, but the spec's evolution plays an even number from 2 to {}",
                planned[1]
            ),
        ));
    }
    if validate != row.validation.games as u64 {
        return Err(at.bad(
            format!("{f}.games"),
            format!(
                "holds {validate} validation games, but its validation holds {}",
                row.validation.games
            ),
        ));
    }

    // The study's own files.
    let tuned_file = phase_dir(folder, b, Phase::Tune).join(evomcts_tune::TUNED_RON);
    let ControllerSpec::Mcts(tuned) = read_ron::<ControllerSpec>(&tuned_file)? else {
        return Err(PortfolioError::Corrupt {
            file: tuned_file.display().to_string(),
            message: "is not the UCT a study's tuning writes".into(),
        });
    };
    let tuned = tuned.c_e;
    if row.c_e_tuned != tuned {
        return Err(at.bad(
            format!("{f}.c_e_tuned"),
            format!(
                "is {}, but its study's tuning ({}) tuned {tuned}",
                row.c_e_tuned,
                inside(dir, &tuned_file)
            ),
        ));
    }
    let evolved = phase_dir(folder, b, Phase::Evolve);
    check_champion(
        &row.champion,
        &evolved,
        &format!("{f}.champion"),
        "its study's evolution",
        dir,
        at,
    )?;
    let validated = phase_dir(folder, b, Phase::Validate);
    let validate_spec = study.validate_spec(b, row.c_e, &row.champion);
    check_played(&validate_spec, &validated, &row.validation, f, dir, at)?;
    // The study's decision is its test walked over these records; walking it again costs
    // about a second a validation, so the decision is checked against what the records
    // allow: none without the test, a bound reached when the test stopped before its cap.
    let allowed: &[&str] = match validate_spec.sequential {
        None => &[""],
        Some(_) if row.validation.games < 2 * validate_spec.sequences => &["h0", "h1"],
        Some(_) => &["h0", "h1", "undecided"],
    };
    if !allowed.contains(&row.sprt_decision.as_str()) {
        return Err(at.bad(
            format!("{f}.sprt_decision"),
            format!(
                "is {}, but its validation ({}, {} of at most {} games) allows {}",
                shown(&row.sprt_decision),
                inside(dir, &validated),
                row.validation.games,
                2 * validate_spec.sequences,
                allowed
                    .iter()
                    .map(|d| shown(d))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
    Ok(())
}

/// That the evolution in `folder` names `champion` (its `champion.txt`).
fn check_champion(
    champion: &Formula,
    folder: &Path,
    field: &str,
    what: &str,
    dir: &Path,
    at: &At,
) -> Result<(), PortfolioError> {
    let file = evomcts_evolve::population::champion_text_path(folder);
    let text = read_text(&file)?;
    let named = Formula::parse(text.trim()).map_err(|e| PortfolioError::Corrupt {
        file: file.display().to_string(),
        message: format!("does not hold a formula: {e}"),
    })?;
    if *champion != named {
        return Err(at.bad(
            field,
            format!(
                "is {}, but {what} ({}) names {}",
                shown(&champion.to_string()),
                inside(dir, &file),
                shown(&named.to_string())
            ),
        ));
    }
    Ok(())
}

/// That the validation folder `folder` played `spec` (its `spec.ron`, as a resume compares it)
/// and that its records give `v`.
fn check_played(
    spec: &ValidateSpec,
    folder: &Path,
    v: &Validation,
    f: &str,
    dir: &Path,
    at: &At,
) -> Result<(), PortfolioError> {
    let spec_file = folder.join("spec.ron");
    if read_text(&spec_file)? != spec.to_ron() {
        return Err(at.bad(
            f,
            format!(
                "its validation folder played another spec ({}) than the one the portfolio's spec builds for this row's formula and constant",
                inside(dir, &spec_file)
            ),
        ));
    }
    let (_, rows) = read_records(folder).map_err(|e| {
        at.bad(
            format!("{f}.validation"),
            format!("its validation's records cannot be read: {e}"),
        )
    })?;
    compare_validation(
        v,
        &Validation::from(&summarise("", &rows, 0)),
        &format!("{f}.validation"),
        &inside(dir, &folder.join("games.csv")),
        at,
    )
}

/// A validation's numbers against themselves: a W-D-L of both seatings, the win rate and
/// Wilson interval it gives, finite differences inside their interval, a p from 0 to 1.
fn check_validation(v: &Validation, f: &str, at: &At) -> Result<(), PortfolioError> {
    let wdl = format!("{}-{}-{}", v.wins, v.draws, v.losses);
    let sum = v.wins as u128 + v.draws as u128 + v.losses as u128;
    if sum != v.games as u128 {
        return Err(at.bad(
            format!("{f}.games"),
            format!("is {}, but its W-D-L {wdl} makes {sum} games", v.games),
        ));
    }
    if v.games == 0 || v.games % 2 == 1 {
        return Err(at.bad(
            format!("{f}.games"),
            format!(
                "is {}, but a validation plays both seatings of each sequence: an even number above 0",
                v.games
            ),
        ));
    }
    for (name, x) in [
        ("win_rate", v.win_rate),
        ("win_low", v.win_low),
        ("win_high", v.win_high),
        ("diff_mean", v.diff_mean),
        ("diff_low", v.diff_low),
        ("diff_high", v.diff_high),
        ("wilcoxon_p", v.wilcoxon_p),
    ] {
        if !x.is_finite() {
            return Err(at.bad(
                format!("{f}.{name}"),
                format!("is {x}, not a finite number"),
            ));
        }
    }
    let points = v.wins as f64 + v.draws as f64 / 2.0;
    let games = v.games as f64;
    let (low, high) = evomcts_records::stats::wilson_interval(points, games);
    for (name, x, expected, what) in [
        ("win_rate", v.win_rate, points / games, "gives"),
        ("win_low", v.win_low, low, "gives a Wilson interval from"),
        ("win_high", v.win_high, high, "gives a Wilson interval to"),
    ] {
        if (x - expected).abs() > 1e-9 {
            return Err(at.bad(
                format!("{f}.{name}"),
                format!("is {x}, but its W-D-L {wdl} {what} {expected}"),
            ));
        }
    }
    if !(v.diff_low <= v.diff_mean && v.diff_mean <= v.diff_high) {
        return Err(at.bad(
            format!("{f}.diff_mean"),
            format!(
                "is {}, outside its interval [{}, {}]",
                v.diff_mean, v.diff_low, v.diff_high
            ),
        ));
    }
    if !(0.0..=1.0).contains(&v.wilcoxon_p) {
        return Err(at.bad(
            format!("{f}.wilcoxon_p"),
            format!("is {}, but a p-value is from 0 to 1", v.wilcoxon_p),
        ));
    }
    Ok(())
}

/// A validation's numbers against those its records give.
fn compare_validation(
    v: &Validation,
    records: &Validation,
    f: &str,
    source: &str,
    at: &At,
) -> Result<(), PortfolioError> {
    let counts = [
        ("games", v.games, records.games),
        ("wins", v.wins, records.wins),
        ("draws", v.draws, records.draws),
        ("losses", v.losses, records.losses),
    ];
    let numbers = [
        ("win_rate", v.win_rate, records.win_rate),
        ("win_low", v.win_low, records.win_low),
        ("win_high", v.win_high, records.win_high),
        ("diff_mean", v.diff_mean, records.diff_mean),
        ("diff_low", v.diff_low, records.diff_low),
        ("diff_high", v.diff_high, records.diff_high),
        ("wilcoxon_p", v.wilcoxon_p, records.wilcoxon_p),
    ];
    let differs = counts
        .iter()
        .find(|(_, a, b)| a != b)
        .map(|(name, a, b)| (*name, a.to_string(), b.to_string()))
        .or_else(|| {
            numbers
                .iter()
                .find(|(_, a, b)| a != b)
                .map(|(name, a, b)| (*name, a.to_string(), b.to_string()))
        });
    match differs {
        Some((name, ours, theirs)) => Err(at.bad(
            format!("{f}.{name}"),
            format!("is {ours}, but the records of its validation ({source}) give {theirs}"),
        )),
        None => Ok(()),
    }
}

/// A file a check compares with what the spec builds (a spec, a champion).
fn read_text(file: &Path) -> Result<String, PortfolioError> {
    evomcts_records::runfs::read_capped_text(
        file,
        evomcts_records::runfs::MAX_SPEC_FILE_BYTES,
        "a run's file",
    )
    .map_err(|e| super::io_error(file, e))
}
