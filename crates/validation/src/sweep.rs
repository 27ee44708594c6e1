//! Tuning a hand-made baseline on sweep sequences: every point of a grid of its constants
//! (the exploration constant C_E; a weight `W` written as `{W}` in its formula; the prior's
//! temperature; the final-move rule) plays one fixed opponent on tile sequences of the
//! sweep's namespace, which validation never plays, and the point with the highest mean
//! score difference is the baseline's tuned setting.
//!
//! A spec with only `c_values` and `selection: Uct` is the plain UCT sweep, with the same
//! labels and `sweep.csv` columns as before the other axes existed.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

use super::{
    check_controllers, check_name, check_sequences, play_pairings, sequence_seeds, sequence_words,
    summarise, summary_table, write_file, write_summary, PairingSummary, PlayOptions,
    ValidateError,
};
use evomcts_arena::{GameChoice, Pairing};
use evomcts_evolve::namespace::sweep_tile_seed;
use evomcts_games::carcassonne::Rules;
use evomcts_records::runfs::{resolve_controller, SpecFile};
use evomcts_search::mcts::{FinalMove, MctsSettings, Selection};
use evomcts_search::ControllerSpec;

/// The name of a formula's weight placeholder, and the text it is written as.
pub const W_NAME: &str = "W";
pub const W_PLACEHOLDER: &str = "{W}";

/// The most grid points one sweep plays.
const MAX_POINTS: usize = 400;

/// A baseline's constants chosen by playing each grid point against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed of the sweep sequences (evolution's namespace, not validation's).
    pub seed: u64,
    pub sequences: usize,
    /// The MCTS being tuned: `selection` is `Uct` or a `Formula` whose text may hold
    /// `{W}`, replaced by each of `w_values`.
    pub settings: MctsSettings,
    pub c_values: Vec<f64>,
    /// Values of the formula's `{W}`; needed exactly when the formula holds `{W}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub w_values: Vec<f64>,
    /// Temperatures τ of the prior `p`; empty: the settings' own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prior_temperatures: Vec<f64>,
    /// Final-move rules to try; empty: the settings' own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub final_moves: Vec<FinalMove>,
    /// The fixed opponent every point plays.
    pub opponent: ControllerSpec,
    /// The game played: Carcassonne (under `rules`) unless named, e.g. `Pig(target: 100)`;
    /// left out of the stored spec when Carcassonne.
    #[serde(default, skip_serializing_if = "GameChoice::is_carcassonne")]
    pub game: GameChoice,
    #[serde(default)]
    pub rules: Rules,
}

/// One point of the grid: the values of the axes the spec sweeps (`None` for the others).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    pub c_e: f64,
    pub w: Option<f64>,
    pub prior_temperature: Option<f64>,
    pub final_move: Option<FinalMove>,
}

impl fmt::Display for SweepPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written short (`1e308`, not 309 digits); the usual values are written as before.
        let number = evomcts_records::escape::number;
        write!(f, "C_E = {}", number(self.c_e))?;
        if let Some(w) = self.w {
            write!(f, ", W = {}", number(w))?;
        }
        if let Some(t) = self.prior_temperature {
            write!(f, ", tau = {}", number(t))?;
        }
        if let Some(m) = self.final_move {
            write!(f, ", {m:?}")?;
        }
        Ok(())
    }
}

impl SpecFile for SweepSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {
        let objective = self.game.objective();
        self.settings.fill_defaults(objective);
        self.opponent.fill_defaults(objective);
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        resolve_controller(&mut self.opponent, base)
            .map_err(|(field, message)| (format!("opponent.{field}"), message))
    }
}

/// Checks that every placeholder of `names` (written `{NAME}`, e.g. `{W}` or `{W2}`) in a
/// formula template stands alone as an operand (`{W}*H`, `Q + {W}`): each is filled in as the
/// text of a number, so one next to a digit or to another placeholder (`2{W}`, `{W}{W}`) would
/// make a different number than the tables say. Filled in with a parenthesised value, such a
/// template does not parse. A template holding none of them is accepted as it is.
pub fn check_placeholders(template: &str, names: &[&str]) -> Result<(), String> {
    let present: Vec<String> = names
        .iter()
        .map(|name| format!("{{{name}}}"))
        .filter(|p| template.contains(p.as_str()))
        .collect();
    if present.is_empty() {
        return Ok(());
    }
    let filled = present.iter().fold(template.to_string(), |text, p| {
        text.replace(p.as_str(), "(1)")
    });
    evomcts_formula::Formula::parse(&filled)
        .map(drop)
        .map_err(|_| {
            let p = &present[0];
            format!(
                "each {} must stand alone as an operand, as in `{p}*H` or `Q + {p}`, not be part \
                 of a number or follow another operand: got {template:?}",
                present.join(", ")
            )
        })
}

/// A formula template with each placeholder `{NAME}` of `values` replaced by the text of its
/// number (checked first by [`check_placeholders`]).
pub fn fill_placeholders(template: &str, values: &[(&str, f64)]) -> String {
    values
        .iter()
        .fold(template.to_string(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), &format!("{value}"))
        })
}

impl SweepSpec {
    pub fn validate(&self) -> Result<(), (String, String)> {
        check_name(&self.name)?;
        check_sequences(self.sequences)?;
        let template = match &self.settings.selection {
            Selection::Uct => None,
            Selection::Formula(text) => Some(text),
            _ => {
                return Err((
                    "settings.selection".into(),
                    "the sweep tunes Uct or a Formula (whose text may hold {W}): leave `selection` out or give a Formula".into(),
                ))
            }
        };
        if self.settings.es.is_some() {
            return Err((
                "settings.es".into(),
                "the sweep tunes a fixed formula: leave `es` out".into(),
            ));
        }
        if let Some(text) = template {
            check_placeholders(text, &[W_NAME])
                .map_err(|m| ("settings.selection".to_string(), m))?;
        }
        let has_w = template.is_some_and(|text| text.contains(W_PLACEHOLDER));
        if has_w == self.w_values.is_empty() {
            return Err((
                "w_values".into(),
                if has_w {
                    "the formula holds {W}: list its values in `w_values`".into()
                } else {
                    "values of W need a formula holding {W}".into()
                },
            ));
        }
        for (field, values, low_ok) in [
            ("c_values", &self.c_values, true),
            ("w_values", &self.w_values, true),
            ("prior_temperatures", &self.prior_temperatures, false),
        ] {
            if let Some(v) = values
                .iter()
                .find(|v| !v.is_finite() || **v < 0.0 || (!low_ok && **v == 0.0))
            {
                let bound = if low_ok { ">= 0" } else { "> 0" };
                return Err((
                    field.into(),
                    format!("must be finite numbers {bound}, got {v}"),
                ));
            }
        }
        if self.c_values.is_empty() {
            return Err(("c_values".into(), "must list at least one value".into()));
        }
        let points = self.points();
        if points.len() > MAX_POINTS {
            // The longest list is the one to shorten.
            let longest = [
                ("c_values", self.c_values.len()),
                ("w_values", self.w_values.len()),
                ("prior_temperatures", self.prior_temperatures.len()),
                ("final_moves", self.final_moves.len()),
            ]
            .into_iter()
            .max_by_key(|&(_, n)| n)
            .map_or("c_values", |(field, _)| field);
            return Err((
                longest.into(),
                format!(
                    "the grid (c_values x w_values x prior_temperatures x final_moves) has {} points, at most {MAX_POINTS} are played",
                    points.len()
                ),
            ));
        }
        self.game
            .check_startable()
            .map_err(|m| ("game".to_string(), m))?;
        for point in &points {
            let settings = self.settings_at(point);
            settings
                .validate()
                .map_err(|e| ("settings".to_string(), format!("at {point}: {e}")))?;
            self.game
                .check_controller(&ControllerSpec::Mcts(settings))
                .map_err(|e| ("settings".to_string(), format!("at {point}: {e}")))?;
        }
        check_controllers(self.game, &self.rules, &[("opponent", &self.opponent)])
    }

    /// The tile seeds played, all in evolution's namespace.
    pub fn tile_seeds(&self) -> Vec<u64> {
        sequence_seeds(self.sequences, |j| sweep_tile_seed(self.seed, j))
    }

    /// Every grid point, C_E varying slowest, then W, τ and the final-move rule.
    pub fn points(&self) -> Vec<SweepPoint> {
        fn axis<T: Copy>(values: &[T]) -> Vec<Option<T>> {
            if values.is_empty() {
                vec![None]
            } else {
                values.iter().copied().map(Some).collect()
            }
        }
        let mut points = Vec::new();
        for &c_e in &self.c_values {
            for &w in &axis(&self.w_values) {
                for &prior_temperature in &axis(&self.prior_temperatures) {
                    for &final_move in &axis(&self.final_moves) {
                        points.push(SweepPoint {
                            c_e,
                            w,
                            prior_temperature,
                            final_move,
                        });
                    }
                }
            }
        }
        points
    }

    /// The settings of one grid point.
    pub fn settings_at(&self, point: &SweepPoint) -> MctsSettings {
        let mut settings = MctsSettings {
            c_e: point.c_e,
            ..self.settings.clone()
        };
        if let (Some(w), Selection::Formula(text)) = (point.w, &self.settings.selection) {
            settings.selection = Selection::Formula(fill_placeholders(text, &[(W_NAME, w)]));
        }
        if let Some(t) = point.prior_temperature {
            settings.prior_temperature = t;
        }
        if let Some(m) = point.final_move {
            settings.final_move = Some(m);
        }
        settings
    }

    /// The row label of a point: `UCT C_E = c` for the plain UCT sweep.
    fn label(&self, point: &SweepPoint) -> String {
        if self.settings.selection == Selection::Uct
            && self.prior_temperatures.is_empty()
            && self.final_moves.is_empty()
        {
            format!("UCT C_E = {}", evomcts_records::escape::number(point.c_e))
        } else {
            point.to_string()
        }
    }
}

/// The result of a sweep: a summary per grid point and the best point (highest mean score
/// difference against the opponent; the earlier point in grid order on ties).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepOutcome {
    pub summaries: Vec<(SweepPoint, PairingSummary)>,
    pub best: SweepPoint,
}

pub fn run_sweep(spec: &SweepSpec, opts: &PlayOptions) -> Result<SweepOutcome, ValidateError> {
    let points = spec.points();
    let pairings: Vec<Pairing> = points
        .iter()
        .map(|point| Pairing {
            label: spec.label(point),
            candidate: ControllerSpec::Mcts(spec.settings_at(point)),
            other: spec.opponent.clone(),
        })
        .collect();
    let rows = play_pairings(
        &pairings,
        &spec.tile_seeds(),
        spec.game,
        spec.rules,
        &spec.to_ron(),
        opts,
    )?;
    let summaries: Vec<(SweepPoint, PairingSummary)> = pairings
        .iter()
        .enumerate()
        .map(|(p, pairing)| (points[p], summarise(&pairing.label, &rows, p)))
        .collect();
    // Grid order puts smaller constants first, so `>` keeps the smaller one on ties; a point
    // with no games yet has no mean and is never best.
    let mut best = 0;
    for (i, (_, summary)) in summaries.iter().enumerate() {
        let earlier = &summaries[best].1;
        if summary.games > 0 && (earlier.games == 0 || summary.diff_mean > earlier.diff_mean) {
            best = i;
        }
    }
    let best = summaries[best].0;
    let best_line = if summaries.iter().all(|(_, s)| s.games == 0) {
        "Best point: none yet (no games played, so no result)".to_string()
    } else {
        format!("Best point (highest mean score difference): **{best}**")
    };
    let table: Vec<PairingSummary> = summaries.iter().map(|(_, s)| s.clone()).collect();
    let (sequences, _) = sequence_words(spec.game);
    write_summary(
        &opts.out_dir,
        &format!("Sweep `{}`", spec.name),
        &spec.description,
        &format!(
            "Each grid point (`{}` with the given constants) against `{}` on {} {sequences} of the sweep (evolution's namespace, never validation's), master seed {}, both seatings.",
            serde_json::to_string(&spec.settings).unwrap_or_default(),
            serde_json::to_string(&spec.opponent).unwrap_or_default(),
            spec.sequences,
            spec.seed,
        ),
        &summary_table(&table),
        &best_line,
    )?;
    let path = opts.out_dir.join("sweep.csv");
    write_file(&path, &sweep_csv(spec, &summaries))?;
    Ok(SweepOutcome { summaries, best })
}

/// `sweep.csv`: a column per swept axis, then the summary's columns.
fn sweep_csv(spec: &SweepSpec, summaries: &[(SweepPoint, PairingSummary)]) -> String {
    let mut csv = String::from("c_e");
    if !spec.w_values.is_empty() {
        csv.push_str(",w");
    }
    if !spec.prior_temperatures.is_empty() {
        csv.push_str(",prior_temperature");
    }
    if !spec.final_moves.is_empty() {
        csv.push_str(",final_move");
    }
    csv.push_str(",sequences,win_rate,win_low,win_high,diff_mean,diff_low,diff_high,wilcoxon_p\n");
    for (point, s) in summaries {
        csv.push_str(&point.c_e.to_string());
        if let Some(w) = point.w {
            csv.push_str(&format!(",{w}"));
        }
        if let Some(t) = point.prior_temperature {
            csv.push_str(&format!(",{t}"));
        }
        if let Some(m) = point.final_move {
            csv.push_str(match m {
                FinalMove::HighestQ => ",highest_q",
                FinalMove::MostVisits => ",most_visits",
            });
        }
        if s.games == 0 {
            // No games, no result: the statistics' fields are left empty.
            csv.push_str(&format!(",{},,,,,,,\n", s.sequences));
            continue;
        }
        csv.push_str(&format!(
            ",{},{},{},{},{},{},{},{}\n",
            s.sequences,
            s.win_rate,
            s.win_low,
            s.win_high,
            s.diff_mean,
            s.diff_low,
            s.diff_high,
            s.wilcoxon_p
        ));
    }
    csv
}
