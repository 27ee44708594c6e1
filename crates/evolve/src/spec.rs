//! An evolution run as a researcher writes it: a RON file naming the grammar, the seed
//! formula, the (μ, λ)/(μ + λ) strategy, how noise is handled and the fitness domain.
//!
//! Parsed with the same RON extensions as league specs (`unwrap_variant_newtypes`,
//! `implicit_some`) so `fitness: Bandit(epsilon: 0.1)` and
//! `candidate: (sims: 50)` read naturally. Syntax errors name file:line:column; a value
//! that parses but cannot run names the field.

pub use super::enumerate_spec::EnumerateSpec;
pub use super::fit_spec::{FitSpec, MAX_FIT_STEPS};
use super::racing::RacingSpec;
use evomcts_formula::{EvolutionStrategy, Formula, Grammar, InitialPopulation};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The (μ, λ) or (μ + λ) strategy; the same semantics as `formula::EvolutionStrategy`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

impl StrategySpec {
    /// Left out of the spec (an enumeration run's): no parents, offspring or generations.
    pub fn is_unset(&self) -> bool {
        *self == StrategySpec::default()
    }
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

pub use super::fitness_spec::{
    BanditSpec, FitnessSpec, GamesSpec, MixedSpec, PlantedSpec, Score, MAX_MIXED_GAMES,
};

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
    /// The evolution strategy; left out only by an enumeration run.
    #[serde(default, skip_serializing_if = "StrategySpec::is_unset")]
    pub strategy: StrategySpec,
    /// In place of the strategy: enumerate every form up to a size, group by behaviour and
    /// race (see `evolve::enumeration`). Off when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enumerate: Option<EnumerateSpec>,
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
        if let Some(e) = &self.enumerate {
            return self.validate_enumeration(e);
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
        self.check_fitness(&grammar)?;
        self.check_run_work()
    }

    /// The fitness's own checks and the grammar's terminals against each game.
    pub(crate) fn check_fitness(&self, grammar: &Grammar) -> Result<(), (String, String)> {
        self.fitness.validate()?;
        let mixed = matches!(self.fitness, FitnessSpec::Mixed(_));
        for (i, games) in self.fitness.games().iter().enumerate() {
            let which = if mixed {
                format!(" (fitness.games[{i}])")
            } else {
                String::new()
            };
            if let Err(m) = games.check_terminals(grammar, &self.seed_formula, &which) {
                return Err(("grammar".into(), m));
            }
        }
        Ok(())
    }

    /// An enumeration run's checks: no strategy, the enumeration's settings, the seed formula,
    /// the grammar, the fitness and the whole run's samples.
    pub(crate) fn validate_enumeration(&self, e: &EnumerateSpec) -> Result<(), (String, String)> {
        let err = |f: &str, m: String| Err((f.to_string(), m));
        if !self.strategy.is_unset() {
            return err(
                "strategy",
                "an enumeration run has no generations: leave `strategy` out, or `enumerate`"
                    .into(),
            );
        }
        if self.noise != NoiseSpec::default() {
            return err(
                "noise",
                "an enumeration run races with its own settings (`enumerate.race`, `final`): \
                 leave `noise` out"
                    .into(),
            );
        }
        if self.pareto.is_some() {
            return err(
                "pareto",
                "an enumeration run has no front: leave `pareto` out".into(),
            );
        }
        e.validate(MAX_SAMPLES)?;
        let grammar = self.grammar().map_err(|m| ("grammar".to_string(), m))?;
        evomcts_records::bounds::check_c_e(&self.seed_formula)
            .map_err(|m| ("seed_formula".to_string(), m))?;
        evomcts_formula::CompiledFormula::new(&self.seed_formula)
            .map_err(|m| ("seed_formula".to_string(), m.to_string()))?;
        self.check_fitness(&grammar)?;
        if e.samples() > u128::from(MAX_RUN_SAMPLES) {
            return err(
                "enumerate",
                format!(
                    "the run would spend up to {} fitness samples (race, fits and final race); \
                     at most {} per run",
                    e.samples(),
                    MAX_RUN_SAMPLES
                ),
            );
        }
        Ok(())
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
