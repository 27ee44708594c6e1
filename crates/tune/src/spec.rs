//! A tuning run as its RON spec states it: the MCTS whose named constants are tuned (C_E, the
//! formula's placeholders `{W1}` … `{Wk}`, the prior's temperature, first-play urgency's
//! constants), each with its range, the opponent, the budget in games, SPSA's gains, the
//! recommendation and the fresh re-estimate. Every field is checked on reading, and an error
//! names the field.
//!
//! Values are searched in [0, 1] per parameter, mapped onto its range linearly or, with
//! `log: true`, geometrically ([`Parameter::natural`]), so one step of the optimiser means the
//! same share of every range.

use serde::{Deserialize, Serialize};
use std::path::Path;

use evomcts_arena::GameChoice;
use evomcts_evolve::spsa::significant;
use evomcts_games::carcassonne::Rules;
use evomcts_records::runfs::{resolve_controller, SpecFile};
use evomcts_search::mcts::{FirstPlayUrgency, MctsSettings, Selection, Unvisited, UnvisitedQ};
use evomcts_search::ControllerSpec;
use evomcts_validation::sweep::{check_placeholders, fill_placeholders};

/// The most parameters one run tunes.
pub const MAX_PARAMETERS: usize = 16;
/// The most games one run's tuning plays.
pub const MAX_BUDGET: usize = 10_000_000;
/// The most sequences a step plays per evaluation, and the most of the re-estimate.
const MAX_SEEDS_PER_STEP: usize = 1_000;
const MAX_REESTIMATE: usize = 1_000_000;

/// A tuning run: `evomcts tune SPEC`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TuneSpec {
    /// Names the output folder: `runs/tune/<name>/` unless `--out` says otherwise.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed: the step's sequences (evolution's namespace, never validation's) and its
    /// perturbation derive from it and the step.
    pub seed: u64,
    /// The MCTS tuned: `selection` is `Uct` or a `Formula` whose text may hold `{W1}` …
    /// `{Wk}`, each named by a parameter.
    pub controller: MctsSettings,
    /// The constants tuned, with their ranges.
    pub parameters: Vec<Parameter>,
    /// What every evaluation plays against; left out: the controller itself at its starting
    /// values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<ControllerSpec>,
    /// Games the tuning plays: each step plays 2 evaluations × `seeds_per_step` sequences ×
    /// 2 seatings, so `budget / (4 · seeds_per_step)` steps; a budget of part steps is refused.
    pub budget: usize,
    /// Sequences each evaluation of a step plays (both seatings each).
    #[serde(default = "one")]
    pub seeds_per_step: usize,
    pub spsa: SpsaSpec,
    /// The recommendation is the most pessimistic-safe of this many blocks of the last half of
    /// the steps (see `recommend`).
    #[serde(default = "four")]
    pub recommend_blocks: usize,
    /// Fresh sweep sequences (never played while tuning) on which the recommendation and the
    /// starting values are re-estimated against the opponent, both seatings.
    pub reestimate_sequences: usize,
    /// The game played: Carcassonne (under `rules`) unless named; left out of the stored spec
    /// when Carcassonne.
    #[serde(default, skip_serializing_if = "GameChoice::is_carcassonne")]
    pub game: GameChoice,
    #[serde(default)]
    pub rules: Rules,
}

fn one() -> usize {
    1
}

fn four() -> usize {
    4
}

/// One tuned constant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// `C_E`, `W1` … (a placeholder `{W1}` of the formula), `tau` (the prior's temperature),
    /// `urgency_n` or `urgency_q` (first-play urgency's visit count and value; the second
    /// sets `q: Constant(..)`).
    pub name: String,
    pub low: f64,
    pub high: f64,
    /// Searched on a log scale (both bounds > 0).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log: bool,
    /// The starting value; left out: the controller's own (needed for a placeholder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<f64>,
}

/// What a parameter's name sets.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    CE,
    /// The placeholder `{name}` of the formula.
    Placeholder(String),
    PriorTemperature,
    UrgencyN,
    UrgencyQ,
}

impl Target {
    fn of(name: &str) -> Option<Target> {
        match name {
            "C_E" => Some(Target::CE),
            "tau" => Some(Target::PriorTemperature),
            "urgency_n" => Some(Target::UrgencyN),
            "urgency_q" => Some(Target::UrgencyQ),
            _ => {
                let digits = name.strip_prefix('W')?;
                let ok = !digits.is_empty()
                    && digits.len() <= 3
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && !digits.starts_with('0');
                ok.then(|| Target::Placeholder(name.to_string()))
            }
        }
    }
}

/// SPSA's gains as Spall writes them: a_k = a / (A + k + 1)^α, c_k = c / (k + 1)^γ, on the
/// parameters scaled to [0, 1].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpsaSpec {
    /// Step gain, in scaled units per unit of score difference (a game's score points): the
    /// first step moves a parameter by about a / (A + 1)^α · |Δf| / (2c), Δf the difference
    /// between the two evaluations.
    pub a: f64,
    /// Perturbation at the first step, in scaled units.
    #[serde(default = "default_c")]
    pub c: f64,
    /// Stability constant A; left out: a tenth of the steps (Spall's advice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub big_a: Option<f64>,
    #[serde(default = "default_alpha")]
    pub alpha: f64,
    #[serde(default = "default_gamma")]
    pub gamma: f64,
}

fn default_c() -> f64 {
    0.1
}

fn default_alpha() -> f64 {
    evomcts_evolve::spsa::SPALL_ALPHA
}

fn default_gamma() -> f64 {
    evomcts_evolve::spsa::SPALL_GAMMA
}

impl Parameter {
    /// The natural value at scaled position `x` ∈ [0, 1], to six significant digits (so the
    /// constants played, written in `tune.csv` and pasted from `tuned.ron` read as people
    /// write them: the start 0.003 of a log range is played as 0.003, not 0.0029999999999999996).
    pub fn natural(&self, x: f64) -> f64 {
        let x = x.clamp(0.0, 1.0);
        let v = if self.log {
            (self.low.ln() + x * (self.high.ln() - self.low.ln())).exp()
        } else {
            self.low + x * (self.high - self.low)
        };
        significant(v, 6).clamp(self.low, self.high)
    }

    /// The scaled position of the natural value `v` (clamped to the range).
    pub fn scaled(&self, v: f64) -> f64 {
        let x = if self.log {
            (v.ln() - self.low.ln()) / (self.high.ln() - self.low.ln())
        } else {
            (v - self.low) / (self.high - self.low)
        };
        x.clamp(0.0, 1.0)
    }

    pub fn target(&self) -> Target {
        Target::of(&self.name).expect("a checked name")
    }
}

impl SpecFile for TuneSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {
        let objective = self.game.objective();
        self.controller.fill_defaults(objective);
        if let Some(opponent) = &mut self.opponent {
            opponent.fill_defaults(objective);
        }
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        let mut controller = ControllerSpec::Mcts(self.controller.clone());
        resolve_controller(&mut controller, base)
            .map_err(|(field, message)| (format!("controller.{field}"), message))?;
        if let ControllerSpec::Mcts(settings) = controller {
            self.controller = settings;
        }
        if let Some(opponent) = &mut self.opponent {
            resolve_controller(opponent, base)
                .map_err(|(field, message)| (format!("opponent.{field}"), message))?;
        }
        Ok(())
    }
}

/// The `{…}` placeholders of a formula template, in order of first appearance.
fn placeholders_in(template: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = after[..close].to_string();
        if !found.contains(&name) {
            found.push(name);
        }
        rest = &after[close + 1..];
    }
    found
}

fn finite(field: &str, v: f64) -> Result<(), (String, String)> {
    if !v.is_finite() {
        return Err((field.into(), format!("must be a finite number, got {v}")));
    }
    Ok(())
}

impl TuneSpec {
    /// Steps the budget pays for.
    pub fn steps(&self) -> usize {
        self.budget / self.games_per_step()
    }

    /// Games of one step: two evaluations × sequences × two seatings.
    pub fn games_per_step(&self) -> usize {
        4 * self.seeds_per_step
    }

    /// The starting values, natural units, in the parameters' order.
    pub fn start(&self) -> Vec<f64> {
        self.parameters
            .iter()
            .map(|p| {
                p.start
                    .unwrap_or_else(|| self.own_value(p).unwrap_or(p.low))
            })
            .collect()
    }

    /// The controller's own value of a parameter, where it has one.
    fn own_value(&self, p: &Parameter) -> Option<f64> {
        let s = &self.controller;
        match Target::of(&p.name)? {
            Target::CE => Some(s.c_e),
            Target::PriorTemperature => Some(s.prior_temperature),
            Target::UrgencyN => match s.unvisited {
                Unvisited::Ranked(u) => Some(u.n),
                Unvisited::TriedFirst => None,
            },
            Target::UrgencyQ => match s.unvisited {
                Unvisited::Ranked(FirstPlayUrgency {
                    q: UnvisitedQ::Constant(v),
                    ..
                }) => Some(v),
                _ => None,
            },
            Target::Placeholder(_) => None,
        }
    }

    /// The controller with `values` (natural units, the parameters' order) in place.
    pub fn settings_at(&self, values: &[f64]) -> MctsSettings {
        let mut s = self.controller.clone();
        let mut fills: Vec<(&str, f64)> = Vec::new();
        for (p, &v) in self.parameters.iter().zip(values) {
            match p.target() {
                Target::CE => s.c_e = v,
                Target::PriorTemperature => s.prior_temperature = v,
                Target::UrgencyN => {
                    if let Unvisited::Ranked(u) = &mut s.unvisited {
                        u.n = v;
                    }
                }
                Target::UrgencyQ => {
                    if let Unvisited::Ranked(u) = &mut s.unvisited {
                        u.q = UnvisitedQ::Constant(v);
                    }
                }
                Target::Placeholder(_) => fills.push((p.name.as_str(), v)),
            }
        }
        if let Selection::Formula(text) = &s.selection {
            s.selection = Selection::Formula(fill_placeholders(text, &fills));
        }
        s
    }

    /// The opponent: the spec's, or the controller at its starting values.
    pub fn opponent(&self) -> ControllerSpec {
        self.opponent
            .clone()
            .unwrap_or_else(|| ControllerSpec::Mcts(self.settings_at(&self.start())))
    }

    pub fn validate(&self) -> Result<(), (String, String)> {
        evomcts_records::runfs::check_plain_name("the name", &self.name)
            .map_err(|m| ("name".into(), m))?;
        let template = self.check_controller_form()?;
        self.check_parameters(template.as_deref())?;
        self.check_numbers()?;
        self.game
            .check_startable()
            .map_err(|m| ("game".to_string(), m))?;
        let corners = [
            ("the starting values", self.start()),
            (
                "the lows",
                self.parameters.iter().map(|p| p.low).collect::<Vec<_>>(),
            ),
            (
                "the highs",
                self.parameters.iter().map(|p| p.high).collect::<Vec<_>>(),
            ),
        ];
        for (what, values) in corners {
            let settings = self.settings_at(&values);
            settings
                .validate()
                .map_err(|e| ("controller".to_string(), format!("at {what}: {e}")))?;
            self.game
                .check_controller(&ControllerSpec::Mcts(settings))
                .map_err(|e| ("controller".to_string(), format!("at {what}: {e}")))?;
        }
        if let Some(opponent) = &self.opponent {
            opponent
                .validate()
                .map_err(|e| ("opponent".to_string(), e.to_string()))?;
            self.game
                .check_controller(opponent)
                .map_err(|e| ("opponent".to_string(), e))?;
        }
        self.game.check_rules(&self.rules)
    }

    /// The controller is an MCTS over `Uct` or a formula, without ES: its formula template.
    fn check_controller_form(&self) -> Result<Option<String>, (String, String)> {
        if self.controller.es.is_some() {
            return Err((
                "controller.es".into(),
                "the tuner tunes a fixed formula's constants: leave `es` out".into(),
            ));
        }
        match &self.controller.selection {
            Selection::Uct => Ok(None),
            Selection::Formula(text) => Ok(Some(text.clone())),
            _ => Err((
                "controller.selection".into(),
                "the tuner tunes Uct or a Formula (whose text may hold {W1} … {Wk}): leave `selection` out or give a Formula".into(),
            )),
        }
    }

    fn check_parameters(&self, template: Option<&str>) -> Result<(), (String, String)> {
        if self.parameters.is_empty() || self.parameters.len() > MAX_PARAMETERS {
            return Err((
                "parameters".into(),
                format!(
                    "must list between 1 and {MAX_PARAMETERS} parameters, got {}",
                    self.parameters.len()
                ),
            ));
        }
        for (i, p) in self.parameters.iter().enumerate() {
            let field = |f: &str| format!("parameters[{i}].{f}");
            let Some(target) = Target::of(&p.name) else {
                return Err((
                    field("name"),
                    format!(
                        "must be C_E, W1, W2, … (a placeholder of the formula), tau, urgency_n or urgency_q, got {:?}",
                        p.name
                    ),
                ));
            };
            if self.parameters[..i].iter().any(|q| q.name == p.name) {
                return Err((field("name"), format!("{} is listed twice", p.name)));
            }
            finite(&field("low"), p.low)?;
            finite(&field("high"), p.high)?;
            if p.low >= p.high {
                return Err((
                    field("high"),
                    format!("must be above low ({}), got {}", p.low, p.high),
                ));
            }
            let needs_positive = p.log || target == Target::PriorTemperature;
            if needs_positive && p.low <= 0.0 {
                let why = if p.log { "a log scale" } else { "tau" };
                return Err((field("low"), format!("{why} needs low > 0, got {}", p.low)));
            }
            if matches!(
                target,
                Target::CE | Target::Placeholder(_) | Target::UrgencyN
            ) && p.low < 0.0
            {
                return Err((
                    field("low"),
                    format!(
                        "{} is written as a number >= 0 (write the sign in the formula), got {}",
                        p.name, p.low
                    ),
                ));
            }
            if let Some(start) = p.start {
                finite(&field("start"), start)?;
                if !(p.low..=p.high).contains(&start) {
                    return Err((
                        field("start"),
                        format!("must lie in [{}, {}], got {start}", p.low, p.high),
                    ));
                }
            } else if self.own_value(p).is_none() {
                return Err((
                    field("start"),
                    format!(
                        "{} has no value in the controller: give its starting value",
                        p.name
                    ),
                ));
            } else if let Some(own) = self.own_value(p) {
                if !(p.low..=p.high).contains(&own) {
                    return Err((
                        field("start"),
                        format!(
                            "the controller's own {} ({own}) lies outside [{}, {}]: give a start inside the range",
                            p.name, p.low, p.high
                        ),
                    ));
                }
            }
            if matches!(target, Target::UrgencyN | Target::UrgencyQ)
                && self.controller.unvisited == Unvisited::TriedFirst
            {
                return Err((
                    field("name"),
                    format!(
                        "{} tunes first-play urgency: the controller needs `unvisited: Ranked(..)`",
                        p.name
                    ),
                ));
            }
            if let Target::Placeholder(name) = &target {
                let text = format!("{{{name}}}");
                if !template.is_some_and(|t| t.contains(&text)) {
                    return Err((
                        field("name"),
                        format!("the controller's formula holds no {text}"),
                    ));
                }
            }
        }
        if let Some(template) = template {
            let names: Vec<&str> = self.parameters.iter().map(|p| p.name.as_str()).collect();
            if let Some(missing) = placeholders_in(template)
                .into_iter()
                .find(|n| !names.contains(&n.as_str()))
            {
                return Err((
                    "controller.selection".into(),
                    format!("the formula holds {{{missing}}}, which no parameter names"),
                ));
            }
            check_placeholders(template, &names)
                .map_err(|m| ("controller.selection".to_string(), m))?;
        }
        Ok(())
    }

    fn check_numbers(&self) -> Result<(), (String, String)> {
        if !(1..=MAX_SEEDS_PER_STEP).contains(&self.seeds_per_step) {
            return Err((
                "seeds_per_step".into(),
                format!(
                    "must be between 1 and {MAX_SEEDS_PER_STEP}, got {}",
                    self.seeds_per_step
                ),
            ));
        }
        let least = 2 * self.games_per_step();
        if !(least..=MAX_BUDGET).contains(&self.budget) {
            return Err((
                "budget".into(),
                format!(
                    "must be between {least} (two steps of {} games) and {MAX_BUDGET} games, got {}",
                    self.games_per_step(),
                    self.budget
                ),
            ));
        }
        check_whole_steps("budget", self.budget, self.games_per_step())?;
        let s = &self.spsa;
        if !(s.a.is_finite() && s.a > 0.0) {
            return Err(("spsa.a".into(), format!("must be > 0, got {}", s.a)));
        }
        if !(s.c.is_finite() && s.c > 0.0 && s.c <= 0.5) {
            return Err((
                "spsa.c".into(),
                format!("must be in (0, 0.5] (a share of each range), got {}", s.c),
            ));
        }
        if let Some(big_a) = s.big_a {
            if !(big_a.is_finite() && big_a >= 0.0) {
                return Err(("spsa.big_a".into(), format!("must be >= 0, got {big_a}")));
            }
        }
        for (field, v) in [("spsa.alpha", s.alpha), ("spsa.gamma", s.gamma)] {
            if !(v.is_finite() && v > 0.0 && v <= 1.0) {
                return Err((field.into(), format!("must be in (0, 1], got {v}")));
            }
        }
        let half = self.steps() - self.steps() / 2;
        if self.recommend_blocks == 0 || self.recommend_blocks > half {
            return Err((
                "recommend_blocks".into(),
                format!(
                    "must be between 1 and {half} (the last half of the {} steps), got {}",
                    self.steps(),
                    self.recommend_blocks
                ),
            ));
        }
        if !(2..=MAX_REESTIMATE).contains(&self.reestimate_sequences) {
            return Err((
                "reestimate_sequences".into(),
                format!(
                    "must be between 2 and {MAX_REESTIMATE}, got {}",
                    self.reestimate_sequences
                ),
            ));
        }
        Ok(())
    }

    /// SPSA's gains with the stability constant resolved.
    pub fn gains(&self) -> super::spsa::Gains {
        let s = &self.spsa;
        super::spsa::Gains {
            a: s.a,
            c: s.c,
            big_a: s.big_a.unwrap_or(self.steps() as f64 / 10.0),
            alpha: s.alpha,
            gamma: s.gamma,
        }
    }
}

/// That `games`, the games of tuning `field` names, pays for whole steps of `per_step` games
/// (a tuning plays whole steps only, so any other count would be cut without a word);
/// refused naming the nearest counts that do.
pub fn check_whole_steps(
    field: &str,
    games: usize,
    per_step: usize,
) -> Result<(), (String, String)> {
    if games.is_multiple_of(per_step) {
        return Ok(());
    }
    let below = games - games % per_step;
    let above = below + per_step;
    Err((
        field.into(),
        format!(
            "must be a multiple of {per_step} (each step plays {per_step} games), got {games}: use {below} or {above}"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_found_once_in_order() {
        assert_eq!(
            placeholders_in("Q + {W2}*H - {W1}*F + {W2}"),
            vec!["W2".to_string(), "W1".to_string()]
        );
        assert!(placeholders_in("Q + C").is_empty());
    }

    #[test]
    fn a_log_range_maps_both_ways() {
        let p = Parameter {
            name: "C_E".into(),
            low: 0.001,
            high: 0.1,
            log: true,
            start: None,
        };
        assert_eq!(p.natural(0.5), 0.01);
        assert!((p.scaled(0.01) - 0.5).abs() < 1e-12);
        assert_eq!(
            (p.natural(-1.0), p.natural(0.0), p.natural(1.0)),
            (0.001, 0.001, 0.1)
        );
        assert_eq!(p.natural(p.scaled(0.003)), 0.003);
        assert_eq!(significant(0.123456789, 6), 0.123457);
    }
}
