//! An evolution run as a researcher writes it: a RON file naming the grammar, the seed
//! formula, the (μ, λ)/(μ + λ) strategy, how noise is handled and the fitness domain.
//!
//! Parsed with the same RON extensions as league specs (`unwrap_variant_newtypes`,
//! `implicit_some`) so `fitness: Bandit(epsilon: 0.1)` and
//! `candidate: (sims: 50)` read naturally. Syntax errors name file:line:column; a value
//! that parses but cannot run names the field.

pub use super::fit_spec::{FitSpec, MAX_FIT_STEPS};
use super::racing::RacingSpec;
use evomcts_arena::GameChoice;
use evomcts_formula::{EvolutionStrategy, Formula, Grammar, InitialPopulation};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The (μ, λ) or (μ + λ) strategy; the same semantics as `formula::EvolutionStrategy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategySpec {
    /// Parents kept each generation (μ).
    pub mu: usize,
    /// Offspring made each generation (λ); offspring `i` mutates parent `i mod μ`.
    pub lambda: usize,
    pub generations: usize,
    /// `false`: (μ, λ), offspring replace parents. `true`: (μ + λ), parents compete.
    #[serde(default)]
    pub plus: bool,
    #[serde(default)]
    pub initial: InitialPopulation,
    /// Parsimony pressure: survivors are ranked by mean fitness minus this much per node of
    /// the formula as bred (docs/evolution.md, "The front between simple and strong"); the
    /// champion is still the fittest elite. Off when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parsimony: Option<f64>,
}

/// How the run fights noisy fitness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NoiseSpec {
    /// Samples per evaluation: bandit runs, or Carcassonne tile seeds (two games each,
    /// one per seating). Every individual evaluated in a generation gets the same
    /// sample seeds (common random numbers), so differences are not luck of the draw.
    pub samples: usize,
    /// (μ + λ): parents are evaluated again each generation, their new samples pooled
    /// with the old, so a lucky estimate cannot keep a parent alive for ever.
    pub reevaluate_survivors: bool,
    /// The best `elites` survivors of each generation get `elite_samples` more samples;
    /// the champion is the best of them.
    pub elites: usize,
    pub elite_samples: usize,
    /// Race each generation's evaluations (see `evolve::racing`): stop sampling a
    /// candidate once it is significantly worse than the current best on the games both
    /// played, and give the saved games to the contenders. Off when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub racing: Option<RacingSpec>,
    /// Functional hashing (see `evolve::hashing`): candidates that pick the same child as one
    /// already scored on every sibling set of the run's bank share its samples. Off when left
    /// out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functional_hashing: Option<HashingSpec>,
    /// How the champion is taken from the elites: `HighestMean` (when left out) or
    /// `HighestLowerBound` of the 95% interval.
    #[serde(skip_serializing_if = "ChampionRule::is_default")]
    pub champion: ChampionRule,
    /// After the last generation, re-play the hall of fame's best on fresh samples and crown
    /// by those (see `evolve::reestimate`). Off when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reestimate: Option<ReestimateSpec>,
    /// Fit the numeric constants (and the own C_E) of each generation's best survivors by a
    /// few SPSA steps on the generation's common samples (see `evolve::fitting`). Off when
    /// left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit_constants: Option<FitSpec>,
}

impl Default for NoiseSpec {
    fn default() -> Self {
        NoiseSpec {
            samples: 20,
            reevaluate_survivors: true,
            elites: 1,
            elite_samples: 40,
            racing: None,
            functional_hashing: None,
            champion: ChampionRule::HighestMean,
            reestimate: None,
            fit_constants: None,
        }
    }
}

/// How a generation's champion is taken from its elites (`noise.champion`); the rule itself is
/// `champion`'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChampionRule {
    /// The elite with the highest fitness mean.
    #[default]
    HighestMean,
    /// The elite with the highest lower end of its 95% interval (mean − 1.96·se; fewer than
    /// two samples rank last).
    HighestLowerBound,
}

impl ChampionRule {
    pub fn is_default(&self) -> bool {
        *self == ChampionRule::default()
    }
}

/// `noise.functional_hashing` of an evolution spec (see `hashing`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HashingSpec {
    /// Sibling sets in the bank. 2,000 or more for a real run: a smaller bank lumps together
    /// formulas that differ where it did not look.
    pub situations: usize,
}

impl Default for HashingSpec {
    fn default() -> Self {
        HashingSpec { situations: 2000 }
    }
}

impl HashingSpec {
    pub fn validate(&self, fitness: &FitnessSpec) -> Result<(), (String, String)> {
        if let FitnessSpec::Mixed(m) = fitness {
            return Err((
                "noise.functional_hashing".into(),
                format!(
                    "is not offered for {}: its bank holds sibling sets of one game's MCTS \
                     searches, and a fingerprint on one game says nothing of the others; \
                     leave it out",
                    m.label()
                ),
            ));
        }
        if !matches!(fitness, FitnessSpec::Games(c) if c.game.is_carcassonne()) {
            return Err((
                "noise.functional_hashing".into(),
                "needs Carcassonne fitness: the bank holds sibling sets of MCTS searches".into(),
            ));
        }
        if self.situations == 0 || self.situations > 100_000 {
            return Err((
                "noise.functional_hashing.situations".into(),
                format!("must be between 1 and 100000, got {}", self.situations),
            ));
        }
        Ok(())
    }
}

/// The largest number of candidates re-estimated.
pub const MAX_CANDIDATES: usize = 100;

/// `noise.reestimate` of a spec (see `reestimate`): off when left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReestimateSpec {
    /// How many of the hall of fame's best are re-played.
    pub candidates: usize,
    /// Fresh samples for each (Carcassonne: tile sequences, both seatings).
    pub samples: usize,
}

/// `pareto` of a spec, and `evomcts pareto`'s options (see `evolve::pareto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParetoSpec {
    /// How many of the hall of fame's best distinct simplified formulas are judged (the seed
    /// formula besides).
    #[serde(default = "ParetoSpec::default_candidates")]
    pub candidates: usize,
    /// Fresh samples for each (Carcassonne: tile sequences, both seatings).
    pub samples: usize,
}

impl ParetoSpec {
    pub fn default_candidates() -> usize {
        10
    }

    /// The first problem, as (field below `at`, message).
    pub fn validate(&self, at: &str) -> Result<(), (String, String)> {
        if self.candidates == 0 || self.candidates > MAX_CANDIDATES {
            return Err((
                format!("{at}.candidates"),
                format!(
                    "must be between 1 and {MAX_CANDIDATES}, got {}",
                    self.candidates
                ),
            ));
        }
        if self.samples < 2 || self.samples > MAX_SAMPLES {
            return Err((
                format!("{at}.samples"),
                format!(
                    "must be between 2 and {MAX_SAMPLES} to give a paired test, got {}",
                    self.samples
                ),
            ));
        }
        Ok(())
    }
}

/// Bernoulli K-armed bandit (Tuma's thesis, Table 5.1): one arm pays with probability
/// `best`, the others with `best - epsilon`. One sample is one run of `horizon` pulls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BanditSpec {
    pub arms: usize,
    pub best: f64,
    pub epsilon: f64,
    pub horizon: u32,
    /// The value of `C` for formulas that do not carry their own C_E.
    pub c_e: f64,
}

impl Default for BanditSpec {
    fn default() -> Self {
        BanditSpec {
            arms: 10,
            best: 0.5,
            epsilon: 0.1,
            horizon: 1000,
            c_e: 1.0,
        }
    }
}

pub use super::games_spec::{GamesSpec, MixedSpec, Score, MAX_MIXED_GAMES};

// One spec per run: the size difference between the variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum FitnessSpec {
    /// Fitness = minus the cumulative (pseudo-)regret of the formula as a bandit policy.
    Bandit(BanditSpec),
    /// Fitness = score difference or win rate against the baseline, in games of Carcassonne
    /// or of the game `game` names; written `Carcassonne(..)` for Carcassonne and `Games(..)`
    /// for another game (either name reads).
    #[serde(rename = "Carcassonne", alias = "Games")]
    Games(GamesSpec),
    /// Fitness = win rate against each game's baseline, sample s of a stream playing game
    /// s mod k of the mix's k games (see `games_spec`): `Mixed(games: [(game: ..), ..])`.
    Mixed(MixedSpec),
}

impl FitnessSpec {
    /// The games the fitness plays, in the mix's order (none for the bandit).
    pub fn games(&self) -> &[GamesSpec] {
        match self {
            FitnessSpec::Bandit(_) => &[],
            FitnessSpec::Games(g) => std::slice::from_ref(g),
            FitnessSpec::Mixed(m) => &m.games,
        }
    }

    fn games_mut(&mut self) -> &mut [GamesSpec] {
        match self {
            FitnessSpec::Bandit(_) => &mut [],
            FitnessSpec::Games(g) => std::slice::from_mut(g),
            FitnessSpec::Mixed(m) => &mut m.games,
        }
    }

    /// The game a run's thread pool is made for (`frame::RunPool`: its default threads and
    /// the workers' hooks): the fitness's game, in a mix the first OpenSpiel game or else the
    /// first; `None` for the bandit.
    pub fn pool_game(&self) -> Option<GameChoice> {
        let games = self.games();
        games
            .iter()
            .find(|g| g.game.describe().open_spiel)
            .or(games.first())
            .map(|g| g.game)
    }

    /// Games in one fitness sample: both seatings of a sequence, or one bandit run.
    pub fn games_per_sample(&self) -> u64 {
        match self {
            FitnessSpec::Bandit(_) => 1,
            FitnessSpec::Games(_) | FitnessSpec::Mixed(_) => 2,
        }
    }

    /// A stream's sample seeds from its own derived seeds (`raw`, in order): unchanged, but
    /// in a mix made so that sample s plays game s mod k (`MixedSpec::seeds`).
    pub fn sample_seeds(&self, raw: Vec<u64>) -> Vec<u64> {
        match self {
            FitnessSpec::Mixed(m) => m.seeds(raw),
            FitnessSpec::Bandit(_) | FitnessSpec::Games(_) => raw,
        }
    }

    /// What the fitness plays, for messages and reports: `the bandit`, the game's label, or
    /// `a mix of Connect Four and Pig to 20`.
    pub fn label(&self) -> String {
        match self {
            FitnessSpec::Bandit(_) => "the bandit".into(),
            FitnessSpec::Games(g) => g.game.label(),
            FitnessSpec::Mixed(m) => m.label(),
        }
    }

    /// Every check of the fitness alone (the bandit's sizes and probabilities, the games'
    /// controllers, their settings and the work of one decision), as (field, message): what
    /// a spec file and a job step's work file (read by another process) both pass.
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((f.to_string(), m));
        match self {
            FitnessSpec::Bandit(b) => {
                if b.arms < 2 || b.arms > 1000 {
                    return err(
                        "fitness.arms",
                        format!("must be between 2 and 1000, got {}", b.arms),
                    );
                }
                if !(0.0..=1.0).contains(&b.best) {
                    return err(
                        "fitness.best",
                        format!("must be a probability, got {}", b.best),
                    );
                }
                if !(b.epsilon >= 0.0 && b.epsilon <= b.best) {
                    return err(
                        "fitness.epsilon",
                        format!(
                            "must be in [0, best] so every arm pays with a probability, got {}",
                            b.epsilon
                        ),
                    );
                }
                if (b.horizon as usize) < b.arms || b.horizon > 10_000_000 {
                    return err(
                        "fitness.horizon",
                        format!(
                            "must be at least the number of arms and at most 10^7, got {}",
                            b.horizon
                        ),
                    );
                }
                if !b.c_e.is_finite() || b.c_e < 0.0 {
                    return err(
                        "fitness.c_e",
                        format!("must be a finite number >= 0, got {}", b.c_e),
                    );
                }
            }
            FitnessSpec::Games(c) => c.validate("fitness")?,
            FitnessSpec::Mixed(m) => m.validate()?,
        }
        Ok(())
    }

    /// That `value` is a fitness sample this fitness can produce (see `fitness::sample`): a
    /// bandit run's minus regret, from −(horizon × epsilon) to 0; a pair of games' mean score
    /// difference, a multiple of ½ within ± the game's highest score; a pair's win rate, a
    /// multiple of ¼ from 0 to 1. What another process reports (a job step's results) is
    /// checked here before it is counted.
    pub fn check_sample(&self, value: f64) -> Result<(), String> {
        let (low, high, step, what) = self.sample_bounds();
        let on_step = step.is_none_or(|step| (value / step).fract() == 0.0);
        if !(value.is_finite() && (low..=high).contains(&value) && on_step) {
            let step = step.map_or(String::new(), |s| format!(", a multiple of {s}"));
            return Err(format!(
                "{what} is from {} to {}{step}, got {}",
                evomcts_records::escape::number(low),
                evomcts_records::escape::number(high),
                evomcts_records::escape::number(value)
            ));
        }
        Ok(())
    }

    /// That `value` is a mean of samples [`FitnessSpec::check_sample`] accepts: finite and
    /// within their bounds (a mean need not be on their step). Rounding in the running mean
    /// may pass a bound by a few units in the last place, which is allowed (10⁻⁹ of the range).
    pub fn check_mean(&self, value: f64) -> Result<(), String> {
        let (low, high, _, what) = self.sample_bounds();
        let slack = (high - low) * 1e-9;
        if !(value.is_finite() && (low - slack..=high + slack).contains(&value)) {
            return Err(format!(
                "{what} is from {} to {}",
                evomcts_records::escape::number(low),
                evomcts_records::escape::number(high)
            ));
        }
        Ok(())
    }

    /// The lowest and highest sample and the step samples are multiples of.
    pub fn sample_range(&self) -> (f64, f64, Option<f64>) {
        let (low, high, step, _) = self.sample_bounds();
        (low, high, step)
    }

    /// The lowest and highest sample, the step samples are multiples of, and what a sample is.
    fn sample_bounds(&self) -> (f64, f64, Option<f64>, &'static str) {
        match self {
            FitnessSpec::Bandit(b) => (
                -(f64::from(b.horizon) * b.epsilon),
                0.0,
                None,
                "minus a bandit run's regret",
            ),
            FitnessSpec::Games(c) => match c.score {
                Score::ScoreDiff => (
                    -c.game.max_score(),
                    c.game.max_score(),
                    Some(0.5),
                    "a mean score difference of two games",
                ),
                Score::WinRate => (0.0, 1.0, Some(0.25), "a win rate of two games"),
            },
            FitnessSpec::Mixed(_) => (0.0, 1.0, Some(0.25), "a win rate of two games"),
        }
    }
}

impl Serialize for FitnessSpec {
    /// As derived, except that games of another game than Carcassonne are written `Games(..)`,
    /// so a stored spec does not call a game of Pig Carcassonne.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FitnessSpec::Bandit(b) => {
                serializer.serialize_newtype_variant("FitnessSpec", 0, "Bandit", b)
            }
            FitnessSpec::Games(c) => {
                let name = if c.game.is_carcassonne() {
                    "Carcassonne"
                } else {
                    "Games"
                };
                serializer.serialize_newtype_variant("FitnessSpec", 1, name, c)
            }
            FitnessSpec::Mixed(m) => {
                serializer.serialize_newtype_variant("FitnessSpec", 2, "Mixed", m)
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveSpec {
    /// Names the run's folder: `populations/<name>/` unless `--out` says otherwise.
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Master seed: every random choice of the run derives from it.
    pub seed: u64,
    /// `paper`, `ucb1_tuned` (built in) or the path of a grammar RON file.
    #[serde(default = "paper_grammar")]
    pub grammar: String,
    /// Where evolution starts; UCT (`Q + 2*C*sqrt(2*ln(N)/n)`) unless given. It is also
    /// evaluated as the run's reference.
    #[serde(default = "Formula::uct")]
    pub seed_formula: Formula,
    pub strategy: StrategySpec,
    #[serde(default)]
    pub noise: NoiseSpec,
    pub fitness: FitnessSpec,
    /// After the last generation (and the re-estimate), the front between simple and strong
    /// on fresh samples, `pareto.csv` (see `evolve::pareto`). Off when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pareto: Option<ParetoSpec>,
}

fn paper_grammar() -> String {
    "paper".to_string()
}

use evomcts_records::runfs::SpecFile;
/// Spec errors are the league's: the same RON dialect, the same file:line:column messages.
pub use evomcts_records::runfs::SpecFileError;

/// Upper bounds on the sizes an evolution spec gives: populations and samples are held in
/// memory and multiply into the run's work.
pub const MAX_POPULATION: usize = 10_000;
pub const MAX_GENERATIONS: usize = 100_000;
pub const MAX_SAMPLES: usize = 100_000;
/// The most fitness samples a whole run may spend: each bound above lets products through that
/// no run would finish (10,000 offspring × 100,000 generations × 100,000 samples).
pub const MAX_RUN_SAMPLES: u64 = 10_000_000;
/// The most arm pulls a bandit run may spend (samples × horizon): hours on a few cores.
pub const MAX_RUN_PULLS: u64 = 100_000_000_000;

impl SpecFile for EvolveSpec {
    fn check(&self) -> Result<(), (String, String)> {
        self.validate()
    }

    fn fill_game_defaults(&mut self) {
        for games in self.fitness.games_mut() {
            let objective = games.game.objective();
            games.candidate.fill_defaults(objective);
            games.baseline.fill_defaults(objective);
        }
    }

    fn resolve_files(&mut self, base: &Path) -> Result<(), (String, String)> {
        self.grammar = evomcts_records::runfs::resolve_grammar(&self.grammar, base)
            .map_err(|e| ("grammar".into(), e))?;
        let mixed = matches!(self.fitness, FitnessSpec::Mixed(_));
        for (i, c) in self.fitness.games_mut().iter_mut().enumerate() {
            let at = if mixed {
                format!("fitness.games[{i}]")
            } else {
                "fitness".to_string()
            };
            evomcts_records::runfs::resolve_controller(&mut c.baseline, base)
                .map_err(|(f, m)| (format!("{at}.baseline.{f}"), m))?;
        }
        Ok(())
    }
}

/// A grammar by name (`paper`, `ucb1_tuned`) or file path.
pub fn load_grammar(name: &str) -> Result<Grammar, String> {
    Grammar::named(name).map_err(|e| e.to_string())
}

impl EvolveSpec {
    /// Reads a spec file; a grammar file or formula file it names is read relative to the spec
    /// file's folder and its content put in the spec, so the spec's hash covers it.
    pub fn from_file(path: impl AsRef<Path>) -> Result<EvolveSpec, SpecFileError> {
        <Self as SpecFile>::from_file(path)
    }

    /// Parses and validates a spec as it is (files it names are not read); `file` names it in
    /// errors.
    pub fn from_ron(text: &str, file: &str) -> Result<EvolveSpec, SpecFileError> {
        <Self as SpecFile>::from_ron(text, file)
    }

    /// The spec as RON, in the form `from_ron` reads.
    pub fn to_ron(&self) -> String {
        <Self as SpecFile>::to_ron(self)
    }

    /// The strategy in the formula layer's terms.
    pub fn strategy(&self) -> EvolutionStrategy {
        EvolutionStrategy {
            mu: self.strategy.mu,
            lambda: self.strategy.lambda,
            generations: self.strategy.generations,
            plus: self.strategy.plus,
            initial: self.strategy.initial,
            record_history: false,
        }
    }

    /// The grammar the spec names (validated to load).
    pub fn grammar(&self) -> Result<Grammar, String> {
        load_grammar(&self.grammar)
    }

    /// The first problem found, as (field, message).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((f.to_string(), m));
        if let Err(m) = evomcts_records::runfs::check_plain_name("the name", &self.name) {
            return err("name", m);
        }
        if let Err(e) = self.strategy().validate() {
            return err("strategy", e.to_string());
        }
        for (field, value, max) in [
            ("strategy.mu", self.strategy.mu, MAX_POPULATION),
            ("strategy.lambda", self.strategy.lambda, MAX_POPULATION),
            (
                "strategy.generations",
                self.strategy.generations,
                MAX_GENERATIONS,
            ),
            ("noise.samples", self.noise.samples, MAX_SAMPLES),
            ("noise.elite_samples", self.noise.elite_samples, MAX_SAMPLES),
        ] {
            if value > max {
                return err(field, format!("must be at most {max}, got {value}"));
            }
        }
        let grammar = match self.grammar() {
            Ok(g) => g,
            Err(e) => return err("grammar", e),
        };
        if let Err(m) = evomcts_records::bounds::check_c_e(&self.seed_formula) {
            return err("seed_formula", m);
        }
        if let Err(e) = evomcts_formula::CompiledFormula::new(&self.seed_formula) {
            return err("seed_formula", e.to_string());
        }
        if self.seed_formula.depth() > grammar.depth_cap().max(evomcts_formula::MAX_DEPTH_CAP) {
            return err(
                "seed_formula",
                format!("depth {} is too deep", self.seed_formula.depth()),
            );
        }
        let n = &self.noise;
        if n.samples < 2 {
            return err(
                "noise.samples",
                format!("must be at least 2 to give an interval, got {}", n.samples),
            );
        }
        if n.elites > self.strategy.mu {
            return err(
                "noise.elites",
                format!(
                    "at most mu ({}) survivors can be elites, got {}",
                    self.strategy.mu, n.elites
                ),
            );
        }
        if let Some(r) = &n.racing {
            r.validate(n.samples)?;
        }
        if let Some(h) = &n.functional_hashing {
            h.validate(&self.fitness)?;
        }
        if let Some(r) = &n.reestimate {
            if r.candidates == 0 || r.candidates > MAX_CANDIDATES {
                return err(
                    "noise.reestimate.candidates",
                    format!(
                        "must be between 1 and {MAX_CANDIDATES}, got {}",
                        r.candidates
                    ),
                );
            }
            if r.samples < 2 || r.samples > MAX_SAMPLES {
                return err(
                    "noise.reestimate.samples",
                    format!(
                        "must be between 2 and {MAX_SAMPLES} to give an interval, got {}",
                        r.samples
                    ),
                );
            }
        }
        if let Some(p) = &self.pareto {
            p.validate("pareto")?;
        }
        if let Some(w) = self.strategy.parsimony {
            if !w.is_finite() || !(0.0..=1e6).contains(&w) {
                return err(
                    "strategy.parsimony",
                    format!("must be a number between 0 and 10^6 per node, got {w}"),
                );
            }
        }
        if let Some(f) = &n.fit_constants {
            f.validate(self.strategy.mu, n.samples)?;
        }
        if n.elites == 0 {
            return err(
                "noise.elites",
                "must be at least 1: the champion is the best elite".into(),
            );
        }
        self.fitness.validate()?;
        let mixed = matches!(self.fitness, FitnessSpec::Mixed(_));
        for (i, games) in self.fitness.games().iter().enumerate() {
            let which = if mixed {
                format!(" (fitness.games[{i}])")
            } else {
                String::new()
            };
            if let Err(m) = games.check_terminals(&grammar, &self.seed_formula, &which) {
                return err("grammar", m);
            }
        }
        self.check_run_work()
    }

    /// The fitness samples generation 0 and each later generation spend at most (racing only
    /// drops samples): the candidates' samples, the re-evaluated parents', the elites' extra
    /// samples, the fitting's (`noise.fit_constants`), and in generation 0 the reference's. In
    /// `u128`, so no spec can overflow it.
    pub fn samples_per_generation(&self) -> (u128, u128) {
        let (s, n) = (&self.strategy, &self.noise);
        let reevaluated = if s.plus && n.reevaluate_survivors {
            s.mu
        } else {
            0
        };
        let elite_samples = n.elites.min(s.mu) as u128 * n.elite_samples as u128;
        let initial = (s.mu as u128 + 1) * n.samples as u128 + n.elite_samples as u128;
        let later = (s.lambda as u128 + reevaluated as u128) * n.samples as u128;
        let fitting = n
            .fit_constants
            .as_ref()
            .map_or(0, |f| f.samples_per_generation(s.mu));
        (
            initial + elite_samples + fitting,
            later + elite_samples + fitting,
        )
    }

    /// Bounds on the run's whole work: its fitness samples and, for the bandit, its pulls.
    fn check_run_work(&self) -> Result<(), (String, String)> {
        let (initial, later) = self.samples_per_generation();
        let reestimate = self
            .noise
            .reestimate
            .map_or(0, |r| r.candidates as u128 * r.samples as u128);
        let pareto = self
            .pareto
            .map_or(0, |p| (p.candidates as u128 + 1) * p.samples as u128);
        let samples = initial + later * self.strategy.generations as u128 + reestimate + pareto;
        let shape = format!(
            "(mu {} + lambda {}) × samples {} × generations {}, plus the elites' samples, \
             the fitting's, the re-estimate's and the front's",
            self.strategy.mu, self.strategy.lambda, self.noise.samples, self.strategy.generations
        );
        if samples > u128::from(MAX_RUN_SAMPLES) {
            return Err((
                "strategy".into(),
                format!(
                    "the run would spend up to {samples} fitness samples ({shape}); at most \
                     {MAX_RUN_SAMPLES} per run"
                ),
            ));
        }
        if let FitnessSpec::Bandit(b) = &self.fitness {
            let pulls = samples * u128::from(b.horizon);
            if pulls > u128::from(MAX_RUN_PULLS) {
                return Err((
                    "fitness.horizon".into(),
                    format!(
                        "the run would make up to {pulls} arm pulls ({samples} samples × horizon {}); \
                         at most {MAX_RUN_PULLS} per run",
                        b.horizon
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A hash of everything that determines the run's results except the number of
    /// generations, so a finished run can be resumed with more generations. FNV-1a over
    /// the canonical RON text.
    pub fn hash(&self) -> String {
        let mut canonical = self.clone();
        canonical.strategy.generations = 0;
        canonical.description.clear();
        evomcts_records::runfs::fnv1a_hex(&canonical.to_ron())
    }
}
