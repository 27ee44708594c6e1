//! A study as its RON spec states it: the game, the master seed, the budgets (simulations per
//! decision) and, each with defaults, how UCT's constant is tuned, how evolution runs and how
//! the champion is validated. From it the phases' own specs are built in code
//! ([`StudySpec::tune_spec`], [`StudySpec::evolve_spec`], [`StudySpec::validate_spec`]), each
//! the ordinary spec of its run kind, so every phase's folder is an ordinary run folder.
//!
//! Every field is checked on reading, and an error names the field; a phase spec that its own
//! checks refuse is reported at the study's section (`tune`, `evolve`, `validate`) with the
//! budget and the phase spec's field.

use evomcts_arena::GameChoice;
use evomcts_evolve::spec::{
    ChampionRule, EnumerateSpec, EvolveSpec, FitSpec, FitnessSpec, GamesSpec, NoiseSpec,
    ParetoSpec, ReestimateSpec, Score, StrategySpec,
};
use evomcts_evolve::RacingSpec;
use evomcts_formula::{Formula, InitialPopulation};
use evomcts_games::carcassonne::Rules;
use evomcts_games::Objective;
use evomcts_records::runfs::{derive_seed, SpecFile};
use evomcts_records::sequential::{Hypotheses, SprtSpec};
use evomcts_search::mcts::{MctsSettings, Selection};
use evomcts_search::ControllerSpec;
use evomcts_tune::{Parameter, SpsaSpec, TuneSpec};
use evomcts_validation::ValidateSpec;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The most budgets one study names.
pub const MAX_BUDGETS: usize = 16;
/// The most simulations a budget names.
pub const MAX_SIMS: u32 = 1_000_000;

/// A study: `evomcts study SPEC`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudySpec {
    /// Names the output folder: `runs/studies/<name>/` unless `--out` says otherwise.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed: each phase's seed derives from it and the budget.
    pub seed: u64,
    /// The game: Carcassonne (under `rules`) unless named; left out of the stored spec when
    /// Carcassonne.
    #[serde(default, skip_serializing_if = "GameChoice::is_carcassonne")]
    pub game: GameChoice,
    #[serde(default)]
    pub rules: Rules,
    /// Simulations per decision; the protocol runs once per budget, in this order.
    pub budgets: Vec<u32>,
    /// Independent evolution runs per budget, settled by a tournament. Only 1 today (see
    /// `run::evolve_phase`).
    #[serde(default = "one")]
    pub runs: usize,
    /// The MCTS every phase plays (UCT, its reward and final move); `sims` and `c_e` are set
    /// by the study (the budget, the tuned constant).
    #[serde(default)]
    pub controller: MctsSettings,
    #[serde(default)]
    pub tune: TunePhase,
    #[serde(default)]
    pub evolve: EvolvePhase,
    #[serde(default)]
    pub validate: ValidatePhase,
    /// How often the champion's tree policy decides anything at each budget
    /// (`arena::budgets`), measured after the validation and written to `consulted.csv` and
    /// `study.md`; left out of the stored spec when absent, so specs without it keep their text
    /// and hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consulted: Option<ConsultedPhase>,
}

/// `consulted`: the champion's controller at the budget and the played constant, searching every
/// decision of seeded random games of the study's game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConsultedPhase {
    /// Random games whose decisions are searched.
    pub games: usize,
}

impl Default for ConsultedPhase {
    fn default() -> Self {
        ConsultedPhase { games: 20 }
    }
}

/// The most random games `consulted` may search.
pub const MAX_CONSULTED_GAMES: usize = 10_000;

fn one() -> usize {
    1
}

/// `tune`: UCT's C_E tuned by SPSA against UCT at the starting constant, on sweep sequences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TunePhase {
    /// Games of tuning per budget (4 a step).
    pub games: usize,
    /// The range searched (on a log scale) and the starting constant.
    pub low: f64,
    pub high: f64,
    pub start: f64,
    /// SPSA's step gain; left out: 0.1 for a game played to win, 0.01 for one played for
    /// points (a difference of a few points between a step's two evaluations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<f64>,
    /// Fresh sweep sequences of the re-estimate (both seatings each).
    pub reestimate_sequences: usize,
}

impl Default for TunePhase {
    fn default() -> Self {
        TunePhase {
            games: 400,
            low: 0.001,
            high: 5.0,
            start: 0.5,
            a: None,
            reestimate_sequences: 100,
        }
    }
}

/// `evolve`: a (μ + λ) evolution seeded with UCT at the tuned constant, against it, raced,
/// its champion re-estimated on fresh samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvolvePhase {
    /// `paper` (no knowledge terminals), `ucb1_tuned`, or a grammar file; one with the game's
    /// knowledge terminals (`H`, and the move features where the game offers them) lets
    /// evolution use them.
    pub grammar: String,
    pub generations: usize,
    pub mu: usize,
    pub lambda: usize,
    /// Sequences per candidate and generation (both seatings each).
    pub samples: usize,
    /// Race each generation (a contender may reach twice `samples`).
    pub racing: bool,
    pub elites: usize,
    /// Extra sequences of the elites; left out: `samples`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elite_samples: Option<usize>,
    /// The hall of fame's best re-played on fresh sequences; the best of them is the champion.
    pub reestimate_candidates: usize,
    /// Left out: twice `samples`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reestimate_samples: Option<usize>,
    /// Left out: `WinRate` for a game played to win, `ScoreDiff` for one played for points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
    /// The best survivors' constants fitted each generation (an evolution spec's
    /// `noise.fit_constants`); off when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit_constants: Option<FitSpec>,
    /// The front between simple and strong written after the last generation (an evolution
    /// spec's `pareto`); off when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pareto: Option<ParetoSpec>,
    /// Parsimony pressure per node in selection (an evolution spec's `strategy.parsimony`);
    /// off when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parsimony: Option<f64>,
    /// With `runs` above 1: the seeds each entrant of the tournament plays at least (left out:
    /// 200, as `evolve --runs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament_samples: Option<usize>,
    /// In place of the ES: every form of the grammar up to a size, grouped by behaviour and
    /// raced (an evolution spec's `enumerate`, `evolve::enumeration`); the ES's fields above are
    /// then unused. Off when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enumerate: Option<EnumerateSpec>,
}

impl Default for EvolvePhase {
    fn default() -> Self {
        EvolvePhase {
            grammar: "paper".into(),
            generations: 10,
            mu: 4,
            lambda: 8,
            samples: 20,
            racing: true,
            elites: 2,
            elite_samples: None,
            reestimate_candidates: 3,
            reestimate_samples: None,
            score: None,
            fit_constants: None,
            pareto: None,
            parsimony: None,
            tournament_samples: None,
            enumerate: None,
        }
    }
}

/// `validate`: the champion against UCT at the tuned constant on validation sequences (never
/// played by tuning or evolution), both seatings, stopped by a sequential test or the cap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ValidatePhase {
    /// The most games (both seatings of `games_cap / 2` sequences).
    pub games_cap: usize,
    /// Stop once the SPRT decides; `false`: play the cap.
    pub sequential: bool,
    pub alpha: f64,
    pub beta: f64,
    /// Left out: normalised Elo 0 against 30 for a game played to win, a score difference of
    /// 0 against 2 points a game for Carcassonne (`validation::sprt::default_hypotheses`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hypotheses: Option<Hypotheses>,
}

impl Default for ValidatePhase {
    fn default() -> Self {
        ValidatePhase {
            games_cap: 1000,
            sequential: true,
            alpha: 0.05,
            beta: 0.05,
            hypotheses: None,
        }
    }
}

/// Seed streams of the phases, below the study's master seed.
const TUNE: u64 = 1;
const EVOLVE: u64 = 2;
const VALIDATE: u64 = 3;
const CONSULTED: u64 = 4;

impl SpecFile for StudySpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {
        self.controller.fill_defaults(self.game.objective());
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        self.evolve.grammar = evomcts_records::runfs::resolve_grammar(&self.evolve.grammar, base)
            .map_err(|e| ("evolve.grammar".to_string(), e))?;
        Ok(())
    }
}

fn positive(field: &str, v: usize, least: usize, most: usize) -> Result<(), (String, String)> {
    if !(least..=most).contains(&v) {
        return Err((
            field.into(),
            format!("must be between {least} and {most}, got {v}"),
        ));
    }
    Ok(())
}

impl StudySpec {
    /// The phase folder names of `budget`, and the study's name for a phase run.
    pub fn phase_name(&self, phase: &str, budget: u32) -> String {
        format!("{}-{phase}-{budget}", self.name)
    }

    fn objective(&self) -> Objective {
        self.game.objective()
    }

    /// UCT at `budget` simulations and constant `c_e`.
    pub fn uct(&self, budget: u32, c_e: f64) -> MctsSettings {
        let mut s = self.controller.clone();
        s.sims = budget;
        s.c_e = c_e;
        s.fill_defaults(self.objective());
        s
    }

    /// The tuning run of `budget`: C_E of UCT against UCT at the starting constant.
    pub fn tune_spec(&self, budget: u32) -> TuneSpec {
        let t = &self.tune;
        let steps = t.games / 4;
        TuneSpec {
            name: self.phase_name("tune", budget),
            description: format!(
                "UCT's C_E at {budget} simulations, tuned by study `{}`",
                self.name
            ),
            seed: derive_seed(self.seed, &[TUNE, u64::from(budget)]),
            controller: self.uct(budget, t.start),
            parameters: vec![Parameter {
                name: "C_E".into(),
                low: t.low,
                high: t.high,
                log: true,
                start: Some(t.start),
            }],
            opponent: None,
            budget: t.games,
            seeds_per_step: 1,
            spsa: SpsaSpec {
                a: t.a.unwrap_or(match self.objective() {
                    Objective::WinLoss => 0.1,
                    Objective::Points => 0.01,
                }),
                c: 0.1,
                big_a: None,
                alpha: 0.602,
                gamma: 0.101,
            },
            recommend_blocks: (steps - steps / 2).clamp(1, 4),
            reestimate_sequences: t.reestimate_sequences,
            game: self.game,
            rules: self.rules,
        }
    }

    /// The evolution run of `budget`, seeded with UCT and played against it at `c_e`: the ES,
    /// or with `evolve.enumerate` an enumeration run (no strategy, noise or front).
    pub fn evolve_spec(&self, budget: u32, c_e: f64) -> EvolveSpec {
        let mut spec = self.es_spec(budget, c_e);
        if let Some(e) = &self.evolve.enumerate {
            spec.strategy = StrategySpec::default();
            spec.noise = NoiseSpec::default();
            spec.pareto = None;
            spec.enumerate = Some(e.clone());
        }
        spec
    }

    fn es_spec(&self, budget: u32, c_e: f64) -> EvolveSpec {
        let e = &self.evolve;
        let uct = self.uct(budget, c_e);
        let mut candidate = uct.clone();
        candidate.selection = Selection::Uct;
        EvolveSpec {
            name: self.phase_name("evolve", budget),
            description: format!(
                "Evolution at {budget} simulations against UCT at C_E = {}, by study `{}`",
                evomcts_records::escape::number(c_e),
                self.name
            ),
            seed: derive_seed(self.seed, &[EVOLVE, u64::from(budget)]),
            grammar: e.grammar.clone(),
            seed_formula: Formula::uct(),
            strategy: StrategySpec {
                mu: e.mu,
                lambda: e.lambda,
                generations: e.generations,
                plus: true,
                initial: InitialPopulation::MutatedSeed,
                parsimony: e.parsimony,
            },
            enumerate: None,
            noise: NoiseSpec {
                samples: e.samples,
                reevaluate_survivors: true,
                elites: e.elites,
                elite_samples: e.elite_samples.unwrap_or(e.samples),
                racing: e.racing.then(|| RacingSpec {
                    batch: (e.samples / 5).max(1),
                    min_samples: (e.samples / 2).max(2),
                    z: 2.326,
                    max_samples: 2 * e.samples,
                }),
                functional_hashing: None,
                champion: ChampionRule::HighestLowerBound,
                reestimate: Some(ReestimateSpec {
                    candidates: e.reestimate_candidates,
                    samples: e.reestimate_samples.unwrap_or(2 * e.samples),
                }),
                fit_constants: e.fit_constants.clone(),
            },
            pareto: e.pareto,
            fitness: FitnessSpec::Games(GamesSpec {
                game: self.game,
                candidate,
                baseline: ControllerSpec::Mcts(uct),
                score: e.score.unwrap_or(match self.objective() {
                    Objective::WinLoss => Score::WinRate,
                    Objective::Points => Score::ScoreDiff,
                }),
                rules: self.rules,
            }),
        }
    }

    /// The validation of `budget`: `champion` at `c_e` against UCT at `c_e`.
    pub fn validate_spec(&self, budget: u32, c_e: f64, champion: &Formula) -> ValidateSpec {
        let v = &self.validate;
        let mut candidate = self.uct(budget, c_e);
        candidate.selection = Selection::Formula(champion.to_string());
        ValidateSpec {
            name: self.phase_name("validate", budget),
            description: format!(
                "The champion of study `{}` against UCT at C_E = {}, {budget} simulations",
                self.name,
                evomcts_records::escape::number(c_e)
            ),
            seed: derive_seed(self.seed, &[VALIDATE, u64::from(budget)]),
            sequences: v.games_cap / 2,
            candidate: ControllerSpec::Mcts(candidate),
            baseline: ControllerSpec::Mcts(self.uct(budget, c_e)),
            game: self.game,
            rules: self.rules,
            sequential: v.sequential.then(|| self.sprt()),
        }
    }

    /// The budget profile of `budget`: the champion's controller at `c_e` on the decisions of
    /// `consulted.games` random games seeded from the master seed and the budget, its moves
    /// compared with the validation's baseline, UCT at `c_e`.
    pub fn consulted_spec(
        &self,
        budget: u32,
        c_e: f64,
        champion: &Formula,
    ) -> Option<evomcts_arena::budgets::BudgetSpec> {
        let consulted = self.consulted.as_ref()?;
        let mut settings = self.uct(budget, c_e);
        settings.selection = Selection::Formula(champion.to_string());
        Some(evomcts_arena::budgets::BudgetSpec {
            games: consulted.games,
            seed: derive_seed(self.seed, &[CONSULTED, u64::from(budget)]),
            settings,
            against: Some(self.uct(budget, c_e)),
            budgets: vec![evomcts_arena::budgets::Budget::Sims(budget)],
        })
    }

    /// The sequential test of the validations.
    pub fn sprt(&self) -> SprtSpec {
        let v = &self.validate;
        SprtSpec {
            alpha: v.alpha,
            beta: v.beta,
            hypotheses: v
                .hypotheses
                .unwrap_or_else(|| evomcts_validation::sprt::default_hypotheses(self.game)),
        }
    }

    /// The first problem found, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        evomcts_records::runfs::check_plain_name("the name", &self.name)
            .map_err(|m| ("name".to_string(), m))?;
        self.check_budgets()?;
        if self.runs > 1 && self.evolve.enumerate.is_some() {
            return Err((
                "runs".into(),
                "an enumeration (`evolve.enumerate`) is one run: leave `runs` out".into(),
            ));
        }
        if self.runs == 0 || self.runs > evomcts_evolve::independent::MAX_RUNS {
            return Err((
                "runs".into(),
                format!(
                    "must be between 1 and {} independent evolution runs, got {}",
                    evomcts_evolve::independent::MAX_RUNS,
                    self.runs
                ),
            ));
        }
        if let Some(t) = self.evolve.tournament_samples {
            if !(2..=evomcts_evolve::tournament::MAX_SAMPLES).contains(&t) {
                return Err((
                    "evolve.tournament_samples".into(),
                    format!(
                        "must be between 2 and {}, got {t}",
                        evomcts_evolve::tournament::MAX_SAMPLES
                    ),
                ));
            }
        }
        self.check_controller()?;
        self.check_sections()?;
        if let Some(c) = &self.consulted {
            if !(1..=MAX_CONSULTED_GAMES).contains(&c.games) {
                return Err((
                    "consulted.games".into(),
                    format!(
                        "must be between 1 and {MAX_CONSULTED_GAMES} random games, got {}",
                        c.games
                    ),
                ));
            }
        }
        for &budget in &self.budgets {
            self.check_phases(budget)?;
        }
        Ok(())
    }

    /// The controller is the UCT every phase plays, at the budget's simulations and the tuned
    /// constant: `selection` and `es` are refused, and so are `sims` and `c_e` other than the
    /// defaults a stored spec writes (the study sets both, so any other value would be replaced
    /// without a word).
    fn check_controller(&self) -> Result<(), (String, String)> {
        let c = &self.controller;
        let default = MctsSettings::default();
        let set_by_study = |field: &str, value: String, by: &str| {
            Err((
                format!("controller.{field}"),
                format!("is set by the study ({by}): leave it out, got {value}"),
            ))
        };
        if c.es.is_some() || c.selection != Selection::Uct {
            return Err((
                "controller".into(),
                "is the UCT every phase plays: leave `selection` and `es` out".into(),
            ));
        }
        if c.sims != default.sims {
            return set_by_study("sims", c.sims.to_string(), "each of `budgets`");
        }
        if c.c_e != default.c_e {
            return set_by_study(
                "c_e",
                evomcts_records::escape::number(c.c_e),
                "`tune.start`, then the tuned constant",
            );
        }
        Ok(())
    }

    fn check_budgets(&self) -> Result<(), (String, String)> {
        if self.budgets.is_empty() || self.budgets.len() > MAX_BUDGETS {
            return Err((
                "budgets".into(),
                format!(
                    "must list between 1 and {MAX_BUDGETS} budgets (simulations per decision), got {}",
                    self.budgets.len()
                ),
            ));
        }
        for (i, &b) in self.budgets.iter().enumerate() {
            if !(1..=MAX_SIMS).contains(&b) {
                return Err((
                    format!("budgets[{i}]"),
                    format!("must be between 1 and {MAX_SIMS} simulations, got {b}"),
                ));
            }
            if self.budgets[..i].contains(&b) {
                return Err((format!("budgets[{i}]"), format!("{b} is listed twice")));
            }
        }
        Ok(())
    }

    /// The sections' own fields, named as the study writes them.
    fn check_sections(&self) -> Result<(), (String, String)> {
        let t = &self.tune;
        positive("tune.games", t.games, 8, evomcts_tune::spec::MAX_BUDGET)?;
        evomcts_tune::spec::check_whole_steps("tune.games", t.games, 4)?;
        for (field, v) in [("tune.low", t.low), ("tune.high", t.high)] {
            if !(v.is_finite() && v > 0.0) {
                return Err((field.into(), format!("must be a number > 0, got {v}")));
            }
        }
        if t.low >= t.high {
            return Err((
                "tune.high".into(),
                format!("must be above tune.low ({}), got {}", t.low, t.high),
            ));
        }
        if !(t.low..=t.high).contains(&t.start) {
            return Err((
                "tune.start".into(),
                format!("must lie in [{}, {}], got {}", t.low, t.high, t.start),
            ));
        }
        positive(
            "tune.reestimate_sequences",
            t.reestimate_sequences,
            2,
            1_000_000,
        )?;
        let e = &self.evolve;
        positive("evolve.generations", e.generations, 1, 100_000)?;
        positive("evolve.mu", e.mu, 1, 10_000)?;
        positive("evolve.lambda", e.lambda, 1, 10_000)?;
        positive("evolve.samples", e.samples, 2, 100_000)?;
        positive("evolve.elites", e.elites, 1, e.mu)?;
        positive(
            "evolve.reestimate_candidates",
            e.reestimate_candidates,
            1,
            100,
        )?;
        let v = &self.validate;
        positive("validate.games_cap", v.games_cap, 4, 2_000_000)?;
        if !v.games_cap.is_multiple_of(2) {
            return Err((
                "validate.games_cap".into(),
                format!(
                    "must be even (both seatings of every sequence), got {}",
                    v.games_cap
                ),
            ));
        }
        self.sprt()
            .check()
            .map_err(|(f, m)| (format!("validate.{f}"), m))
    }

    /// Every phase spec of `budget` passes its own checks (with the starting constant and the
    /// seed formula standing in for what the earlier phases will give).
    fn check_phases(&self, budget: u32) -> Result<(), (String, String)> {
        let at = |section: &'static str| {
            move |(field, message): (String, String)| {
                (
                    section.to_string(),
                    format!(
                        "at budget {budget}, the {section} spec built from it: `{field}` {message}"
                    ),
                )
            }
        };
        self.tune_spec(budget).validate().map_err(at("tune"))?;
        let c_e = self.tune.start;
        self.evolve_spec(budget, c_e)
            .validate()
            .map_err(at("evolve"))?;
        self.validate_spec(budget, c_e, &Formula::uct())
            .validate()
            .map_err(at("validate"))
    }

    /// Games the phases of one budget play at most: tuning with its re-estimate, evolution
    /// (every generation at its nominal samples and racing's cap, the elites, the re-estimate),
    /// the validation's cap.
    pub fn planned_games(&self, budget: u32) -> [u64; 3] {
        let tune = self.tune_spec(budget);
        let tune_games =
            (tune.steps() * tune.games_per_step() + 2 * tune.reestimate_sequences) as u64;
        let evolve = self.evolve_spec(budget, self.tune.start);
        if let Some(e) = &evolve.enumerate {
            let games = u64::try_from(2 * e.samples()).unwrap_or(u64::MAX);
            return [tune_games, games, self.validate.games_cap as u64];
        }
        let (initial, later) = evolve.samples_per_generation();
        let reestimate = evolve
            .noise
            .reestimate
            .map_or(0, |r| r.candidates as u128 * r.samples as u128);
        let pareto = evolve
            .pareto
            .map_or(0, |p| (p.candidates as u128 + 1) * p.samples as u128);
        let one_run = initial + later * evolve.strategy.generations as u128 + reestimate + pareto;
        // K runs, then (K above 1) the tournament: K champions and the seed formula, each at
        // most racing's cap of seeds.
        let tournament = if self.runs > 1 {
            let t = evomcts_evolve::tournament::TournamentSpec::with_samples(
                self.evolve
                    .tournament_samples
                    .unwrap_or(evomcts_evolve::tournament::DEFAULT_SAMPLES),
            );
            (self.runs as u128 + 1) * t.racing.max_samples as u128
        } else {
            0
        };
        let samples = one_run * self.runs as u128 + tournament;
        let evolve_games = u64::try_from(2 * samples).unwrap_or(u64::MAX);
        [tune_games, evolve_games, self.validate.games_cap as u64]
    }

    /// Reads a study spec (a grammar file it names is read relative to the spec's folder).
    pub fn from_file(
        path: impl AsRef<Path>,
    ) -> Result<StudySpec, evomcts_records::runfs::SpecFileError> {
        <Self as SpecFile>::from_file(path)
    }

    pub fn from_ron(
        text: &str,
        file: &str,
    ) -> Result<StudySpec, evomcts_records::runfs::SpecFileError> {
        <Self as SpecFile>::from_ron(text, file)
    }

    pub fn to_ron(&self) -> String {
        <Self as SpecFile>::to_ron(self)
    }
}
