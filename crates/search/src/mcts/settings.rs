//! Settings of the MCTS controllers, as a league spec writes them in RON, and their
//! validation.
//!
//! Every field has a default (the main paper's values), so a spec names only what it
//! changes: `(sims: 400, c_e: 2.0, reward: ScoreDiff, final_move: HighestQ)`. The reward and
//! the final move default to the game's ([`Reward::default_for`], [`FinalMove::default_for`]
//! from `games::Objective`): a spec that leaves them out gets them where the game is known
//! ([`MctsSettings::fill_defaults`]), and a stored spec writes them. Validation
//! names the offending field so a researcher can fix the spec; files named by the
//! settings (a formula file, a grammar file) are read when the controller is built.

use serde::{Deserialize, Serialize};

use evomcts_formula::{CompiledFormula, Formula};
use evomcts_games::Objective;

pub use evomcts_formula::InitialPopulation;

/// What a finished simulation is worth, always from the view of the player who chose
/// the node being updated.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reward {
    /// Own final score minus the opponent's, unscaled: the main paper's choice, under
    /// which its C_E values (0.25 to 3) were tuned. Q is then tens of points while the
    /// UCT exploration term is a few units, so search is rather greedy; that is the
    /// behaviour the paper reports, kept reproducible. The default of games played for
    /// points (Carcassonne).
    ScoreDiff,
    /// The score difference divided by the given scale, e.g. `ScaledScoreDiff(50.0)`
    /// brings typical rewards into roughly [-1, 1], where textbook C_E values apply.
    ScaledScoreDiff(f64),
    /// +1 win, 0 draw, -1 loss. The default of games played to win (Connect Four, Pig,
    /// OpenSpiel's games).
    WinLoss,
}

impl Reward {
    /// The reward of a spec that names none, for a game played for `objective`.
    pub fn default_for(objective: Objective) -> Reward {
        match objective {
            Objective::Points => Reward::ScoreDiff,
            Objective::WinLoss => Reward::WinLoss,
        }
    }

    /// Points per unit of `Q`: the heuristic terminal `H` is a change of score difference
    /// divided by this, so `H` and `Q` share a unit. `WinLoss` takes 50 points for one unit,
    /// the scale under which a typical score difference lies in [-1, 1].
    pub fn points_per_unit(self) -> f64 {
        match self {
            Reward::ScoreDiff => 1.0,
            Reward::ScaledScoreDiff(scale) => scale,
            Reward::WinLoss => 50.0,
        }
    }

    /// The reward of a game that ended with score difference `diff` (own minus opponent's).
    #[inline]
    pub fn of_difference(self, diff: i32) -> f64 {
        match self {
            Reward::ScoreDiff => diff as f64,
            Reward::ScaledScoreDiff(scale) => diff as f64 / scale,
            Reward::WinLoss => diff.signum() as f64,
        }
    }
}

/// How the move is picked once the simulations are spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FinalMove {
    /// The root child with the highest Q (main paper); ties go to more visits. The default of
    /// games played for points.
    HighestQ,
    /// The most visited root child; ties go to the higher Q. The default of games played to
    /// win (as OpenSpiel's `MCTSBot` picks).
    MostVisits,
}

impl FinalMove {
    /// The final-move rule of a spec that names none, for a game played for `objective`.
    pub fn default_for(objective: Objective) -> FinalMove {
        match objective {
            Objective::Points => FinalMove::HighestQ,
            Objective::WinLoss => FinalMove::MostVisits,
        }
    }
}

/// A setting that is either given or left to the game: written as its value (`reward:
/// WinLoss`, never `Some(..)`), and read from one, so specs read and write as they did when
/// the setting had a fixed default.
mod given {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(
        value: &Option<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(value) => value.serialize(serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        T::deserialize(deserializer).map(Some)
    }
}

/// The value an unvisited child's `Q` takes when the formula ranks it (first-play urgency).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum UnvisitedQ {
    /// The parent's mean reward Q(s), from the same player's view as its children's.
    #[default]
    ParentQ,
    /// A fixed value in the reward's unit.
    Constant(f64),
}

/// First-play urgency: the formula also ranks unvisited children, which it sees with
/// `Q` from `q`, `n` = `n`, and `V` = 0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FirstPlayUrgency {
    pub q: UnvisitedQ,
    /// The visit count an unvisited child shows the formula. 1 by default, so `ln(N)/n`
    /// and `W*H/(n+1)` terms mean what they mean after one visit; 0 is allowed and goes
    /// through the protected operators (`x/0` is 1).
    pub n: f64,
}

impl Default for FirstPlayUrgency {
    fn default() -> Self {
        FirstPlayUrgency {
            q: UnvisitedQ::ParentQ,
            n: 1.0,
        }
    }
}

/// How a decision node treats children no simulation has reached yet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Unvisited {
    /// Every child is tried once, in a random order, before the policy is consulted (the
    /// textbook rule and the papers').
    #[default]
    TriedFirst,
    /// The formula ranks unvisited children beside visited ones from the first
    /// simulation on (first-play urgency).
    Ranked(FirstPlayUrgency),
}

/// Which child a tree policy descends into when several share the highest value.
///
/// A decision node's children are a shuffle of its legal moves, made once when the node's
/// children are allocated, so "the first in arena order" is a random child among the tied, and
/// the same one each time the same tie recurs. The rule matters most to formulas that are greedy
/// on `Q` at small budgets, where many children tie after one rollout each (docs/formulas.md).
/// The fingerprint bank ranks sibling sets by the first maximum, the default rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreak {
    /// The first of the tied children in arena order, a random one (the papers', and
    /// OpenSpiel's strict `>` over its shuffled children).
    #[default]
    ArenaOrder,
    /// The most visited of the tied children (then the first in arena order): a greedy
    /// formula keeps deepening the move it already trusts.
    MoreVisited,
    /// The least visited of the tied children (then the first in arena order).
    LessVisited,
}

/// The temperature of the prior `p` (softmax of the siblings' `H`) unless a spec sets one.
pub const DEFAULT_PRIOR_TEMPERATURE: f64 = 0.01;

/// The tree policy at decision nodes (chance nodes always sample by the hidden counts).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Selection {
    /// The paper's `Q + 2*C*sqrt(2*ln(N)/n)`, evaluated by the formula engine.
    #[default]
    Uct,
    /// Any formula in the text form of `evomcts_formula`, e.g. `Formula("Q + C*sqrt(ln(N)/n)")`.
    Formula(String),
    /// A file holding one formula in text form.
    FormulaFile(String),
    /// UCT written out by hand, bit-for-bit equal to `Uct`: the reference the tests
    /// compare the formula engine with.
    HandCodedUct,
    /// UCT as OpenSpiel's `MCTSBot` (without its solver) computes it: a child where the game
    /// is over is valued by its outcome alone, with no exploration term; every other child as
    /// `HandCodedUct`. Its final move ranks a root child where the game is over by its
    /// outcome first (a win tried once is played), then by `final_move`; under
    /// `final_move: MostVisits` that is OpenSpiel's choice. For comparing with OpenSpiel's
    /// MCTS (docs/openspiel.md).
    OpenSpielUct,
    /// MCTS-RAVE: `(1-β)·Q + β·Q_AMAF + 2·C·sqrt(2·ln(N)/n)` with the minimum-MSE
    /// schedule `β = Ñ/(n + Ñ + 4·bias²·n·Ñ)`.
    Rave { bias: f64 },
    /// Thompson sampling: the child with the largest draw from Beta(S+1, F+1).
    Thompson,
    /// Thompson sampling with posterior reshaping: Beta((S+1)/φ, (F+1)/φ), φ = sqrt(ln(N)/n).
    ThompsonReshaped,
    /// Greedy: every child once (under the default `unvisited: TriedFirst`), then the highest
    /// mean, `Q`. A baseline: evaluated by the formula engine as `Formula("Q")`.
    Greedy,
    /// UCB1-Tuned (Auer, Cesa-Bianchi & Fischer, *Finite-time Analysis of the Multiarmed Bandit
    /// Problem*, Machine Learning 47, 2002) for rewards in [-1, 1] (`WinLoss`, or a score
    /// difference scaled into that range): UCB1-Tuned's bound on rewards mapped to [0, 1],
    /// written back in Q's unit, [`UCB1_TUNED`]. No constant: `C` is not read.
    Ucb1Tuned,
    /// UCT with its constant set to twice the standard deviation σ of the Q values of every
    /// visited move in the tree (Schmöcker, Schnell & Dockhorn, *Investigating Scale Independent
    /// UCT Exploration Factor Strategies*, arXiv 2510.21275, 2025): `Q + 2σ·sqrt(ln(N)/n)`, in
    /// the UCB1 form `Q + λ·sqrt(ln(N)/n)` of that paper with λ = 2σ, σ the population
    /// standard deviation, recomputed after every simulation; greedy while fewer than two moves
    /// have a Q. No tuning: `c_e` is not read.
    TwoSigmaUct,
}

/// UCB1-Tuned in Q's unit for rewards in [-1, 1]: with x = (Q + 1)/2 in [0, 1] and its variance
/// V/4, UCB1-Tuned's `x + sqrt(ln(N)/n·min(1/4, V_x + sqrt(2·ln(N)/n)))` is, times 2 and shifted
/// back, this formula (ranking the children exactly as UCB1-Tuned ranks their x).
pub const UCB1_TUNED: &str = "Q + 2*sqrt(ln(N)/n*min(0.25, V/4 + sqrt(2*ln(N)/n)))";

/// The greedy baseline's formula.
pub const GREEDY: &str = "Q";

impl Selection {
    /// Whether the policy is a formula (first-play urgency and the in-search ES need one).
    pub fn is_formula(&self) -> bool {
        match self {
            Selection::Uct
            | Selection::Formula(_)
            | Selection::FormulaFile(_)
            | Selection::Greedy
            | Selection::Ucb1Tuned => true,
            Selection::HandCodedUct
            | Selection::OpenSpielUct
            | Selection::Rave { .. }
            | Selection::Thompson
            | Selection::ThompsonReshaped
            | Selection::TwoSigmaUct => false,
        }
    }
}

/// Where the evolution strategy's candidates are scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EsMode {
    /// ES-MCTS: each candidate's simulations backpropagate into its own copy of the tree.
    #[default]
    Integrated,
    /// ES-p-MCTS: each candidate selects and rolls out; nothing is backpropagated.
    Partial,
}

/// Which individuals survive a generation of the per-decision ES.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EsStrategy {
    /// (μ, λ): the offspring replace the parents (the paper's text).
    #[default]
    Comma,
    /// (μ + λ): parents compete with their offspring (what the paper's public code ran).
    Plus,
}

/// Which formula the ES hands to the rest of the decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EsResult {
    /// The best of the last generation (the paper's text).
    #[default]
    LastGeneration,
    /// The best individual ever scored in the decision, the seed included when it is
    /// scored (`initial: Seed`).
    BestEver,
}

/// How a candidate formula is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EsFitness {
    /// The mean reward of the candidate's own simulations (the paper's).
    #[default]
    MeanReward,
    /// The value of the move the candidate would recommend: after its simulations on its
    /// overlay of the tree, the root child the final-move rule picks there, valued by
    /// that child's mean reward in the *real* tree, which holds none of the candidate's
    /// own samples. `Integrated` mode only.
    Recommendation,
}

/// Options left at their default are not written, so specs written before they existed
/// keep their text (and a league run its spec hash).
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The per-decision evolution of the selection formula (ES-MCTS / ES-p-MCTS).
///
/// Every option after `grammar` defaults to the behaviour of the paper's text as this
/// crate always ran it: a (1, 4) comma strategy from a mutated seed, the best of the
/// last generation, mean-reward fitness on independent simulations, nothing written to
/// the real tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EsSettings {
    pub mode: EsMode,
    /// Parents (μ); the paper's (1, λ)-ES has 1.
    pub mu: usize,
    /// Offspring per generation (λ).
    pub lambda: usize,
    pub generations: usize,
    /// Simulations that score one candidate.
    pub sims_per_fitness: u32,
    /// `paper`, `ucb1_tuned` (built in) or the path of a grammar RON file.
    pub grammar: String,
    /// `Comma` (μ, λ) or `Plus` (μ + λ).
    #[serde(skip_serializing_if = "is_default")]
    pub strategy: EsStrategy,
    /// `MutatedSeed`: the first parents are mutations of the seed and, in a comma
    /// strategy, never scored. `Seed`: the first parents are the seed, scored like any
    /// candidate, so the seed can win.
    #[serde(skip_serializing_if = "is_default")]
    pub initial: InitialPopulation,
    #[serde(skip_serializing_if = "is_default")]
    pub result: EsResult,
    /// What the paper's public code did, not what its text says: every ES simulation's
    /// result is also backed up into the real root child it went through and the real
    /// root, so the real tree gets the ES simulations on top of the MCTS budget.
    #[serde(skip_serializing_if = "is_default")]
    pub write_back: bool,
    /// Run the ES once this many MCTS simulations are done and the root is fully
    /// expanded; `None`: as soon as the root is fully expanded.
    #[serde(skip_serializing_if = "is_default")]
    pub start_after: Option<u32>,
    /// Every candidate of a decision is scored on one common random stream (the chance
    /// draws, rollouts and the order new children are tried), so candidates are compared
    /// paired and two copies of one formula get the same fitness.
    #[serde(skip_serializing_if = "is_default")]
    pub common_random_numbers: bool,
    #[serde(skip_serializing_if = "is_default")]
    pub fitness: EsFitness,
    /// The evolved winner replaces the seed for the rest of the decision only if it beats
    /// the seed on a fresh common stream: both are scored again on the same draws and the
    /// winner must lead by more than 1.645 standard errors of the paired per-simulation
    /// differences (by any margin under `Recommendation`, whose values are not per
    /// simulation). Costs two more candidate scorings.
    #[serde(skip_serializing_if = "is_default")]
    pub acceptance: bool,
    /// After SIEA-MCTS: a candidate's semantics is the vector of its simulations'
    /// rewards (on common random numbers); an offspring whose semantics equal its
    /// parent's is discarded, so neutral mutations cannot drift the formula. Needs
    /// `common_random_numbers`.
    #[serde(skip_serializing_if = "is_default")]
    pub semantic: bool,
}

impl Default for EsSettings {
    /// Table II of the main paper: (1, 4)-ES, 20 generations, 10 simulations per fitness.
    fn default() -> Self {
        EsSettings {
            mode: EsMode::Integrated,
            mu: 1,
            lambda: 4,
            generations: 20,
            sims_per_fitness: 10,
            grammar: "paper".to_string(),
            strategy: EsStrategy::Comma,
            initial: InitialPopulation::MutatedSeed,
            result: EsResult::LastGeneration,
            write_back: false,
            start_after: None,
            common_random_numbers: false,
            fitness: EsFitness::MeanReward,
            acceptance: false,
            semantic: false,
        }
    }
}

/// Settings of one MCTS controller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MctsSettings {
    /// Simulations per decision (the ES simulations come on top).
    pub sims: u32,
    /// The exploration constant C_E, the `C` of formulas without their own value.
    pub c_e: f64,
    /// `None`: the game's ([`Reward::default_for`]), filled in where the game is known.
    #[serde(with = "given", skip_serializing_if = "Option::is_none")]
    pub reward: Option<Reward>,
    /// `None`: the game's ([`FinalMove::default_for`]), filled in where the game is known.
    #[serde(with = "given", skip_serializing_if = "Option::is_none")]
    pub final_move: Option<FinalMove>,
    /// Random playouts from each new leaf; their mean is backpropagated as one result.
    pub rollouts_per_leaf: u32,
    pub selection: Selection,
    /// `Some(..)` makes the controller ES-MCTS or ES-p-MCTS.
    pub es: Option<EsSettings>,
    /// Whether unvisited children are tried first (default) or ranked by the formula.
    #[serde(skip_serializing_if = "is_default")]
    pub unvisited: Unvisited,
    /// τ of the prior terminal `p = exp(H/τ) / Σ exp(H'/τ)` over the siblings, in the unit
    /// of `H` (and `Q`).
    #[serde(skip_serializing_if = "is_default_temperature")]
    pub prior_temperature: f64,
    /// How the tree policy breaks ties between children of equal value.
    #[serde(skip_serializing_if = "is_default")]
    pub tie_break: TieBreak,
}

fn is_default_temperature(value: &f64) -> bool {
    *value == DEFAULT_PRIOR_TEMPERATURE
}

impl Default for MctsSettings {
    /// The main paper's MCTS: 400 simulations, C_E = 2, and the game's reward and final move
    /// (on Carcassonne the paper's: score difference, highest Q).
    fn default() -> Self {
        MctsSettings {
            sims: 400,
            c_e: 2.0,
            reward: None,
            final_move: None,
            rollouts_per_leaf: 1,
            selection: Selection::Uct,
            es: None,
            unvisited: Unvisited::TriedFirst,
            prior_temperature: DEFAULT_PRIOR_TEMPERATURE,
            tie_break: TieBreak::ArenaOrder,
        }
    }
}

/// A setting the controller cannot run with; `field` is its path in the spec.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("MCTS setting `{field}`: {message}")]
pub struct SettingsError {
    pub field: &'static str,
    pub message: String,
}

impl SettingsError {
    pub(crate) fn new(field: &'static str, message: impl Into<String>) -> Self {
        SettingsError {
            field,
            message: message.into(),
        }
    }
}

/// Upper bound of the simulation budget: keeps the arena's 32-bit node ids far from
/// overflowing.
pub(crate) const MAX_SIMS: u32 = 1_000_000;

impl MctsSettings {
    /// Fills the settings a spec left to the game (`reward`, `final_move`) with the defaults
    /// of a game played for `objective`; what the spec names stays.
    pub fn fill_defaults(&mut self, objective: Objective) {
        self.reward.get_or_insert(Reward::default_for(objective));
        self.final_move
            .get_or_insert(FinalMove::default_for(objective));
    }

    /// The reward on a game played for `objective`: the spec's, else the game's.
    pub fn reward_for(&self, objective: Objective) -> Reward {
        self.reward.unwrap_or(Reward::default_for(objective))
    }

    /// The final-move rule on a game played for `objective`: the spec's, else the game's.
    pub fn final_move_for(&self, objective: Objective) -> FinalMove {
        self.final_move.unwrap_or(FinalMove::default_for(objective))
    }

    /// The main paper's ES-MCTS (`Integrated`) or ES-p-MCTS (`Partial`).
    pub fn es_paper(mode: EsMode) -> Self {
        MctsSettings {
            es: Some(EsSettings {
                mode,
                ..EsSettings::default()
            }),
            ..MctsSettings::default()
        }
    }

    /// Checks every field that can be checked without reading files (a formula given
    /// as text is parsed; formula and grammar files are read by `MctsController::new`).
    pub fn validate(&self) -> Result<(), SettingsError> {
        self.check_budget_and_reward()?;
        self.check_selection()?;
        self.check_unvisited()?;
        self.check_es()
    }

    /// Simulations, C_E, the reward's scale and rollouts per leaf within their ranges.
    fn check_budget_and_reward(&self) -> Result<(), SettingsError> {
        if self.sims == 0 || self.sims > MAX_SIMS {
            return Err(SettingsError::new(
                "sims",
                format!("must be between 1 and {MAX_SIMS}, got {}", self.sims),
            ));
        }
        if !self.c_e.is_finite() || self.c_e < 0.0 {
            return Err(SettingsError::new(
                "c_e",
                format!("must be a finite number >= 0, got {}", self.c_e),
            ));
        }
        if let Some(Reward::ScaledScoreDiff(scale)) = self.reward {
            if !scale.is_finite() || scale <= 0.0 {
                return Err(SettingsError::new(
                    "reward",
                    format!("ScaledScoreDiff needs a finite scale > 0, got {scale}"),
                ));
            }
        }
        if self.rollouts_per_leaf == 0 || self.rollouts_per_leaf > 10_000 {
            return Err(SettingsError::new(
                "rollouts_per_leaf",
                format!(
                    "must be between 1 and 10000, got {}",
                    self.rollouts_per_leaf
                ),
            ));
        }
        Ok(())
    }

    /// A formula that parses and compiles, a formula file named, RAVE's bias and the prior's
    /// temperature in range.
    fn check_selection(&self) -> Result<(), SettingsError> {
        match &self.selection {
            Selection::Formula(text) => {
                let formula = Formula::parse(text)
                    .map_err(|err| SettingsError::new("selection", format!("Formula: {err}")))?;
                CompiledFormula::new(&formula)
                    .map_err(|err| SettingsError::new("selection", format!("Formula: {err}")))?;
            }
            Selection::FormulaFile(path) if path.trim().is_empty() => {
                return Err(SettingsError::new("selection", "FormulaFile needs a path"));
            }
            Selection::Rave { bias } if !bias.is_finite() || *bias < 0.0 => {
                return Err(SettingsError::new(
                    "selection",
                    format!("Rave bias must be a finite number >= 0, got {bias}"),
                ));
            }
            _ => {}
        }
        if !self.prior_temperature.is_finite() || self.prior_temperature <= 0.0 {
            return Err(SettingsError::new(
                "prior_temperature",
                format!(
                    "must be a finite number > 0, got {}",
                    self.prior_temperature
                ),
            ));
        }
        Ok(())
    }

    /// First-play urgency ranks with a formula, without ES, with a finite q and n.
    fn check_unvisited(&self) -> Result<(), SettingsError> {
        if let Unvisited::Ranked(urgency) = self.unvisited {
            if !self.selection.is_formula() {
                return Err(SettingsError::new(
                    "unvisited",
                    "Ranked needs a formula to rank with: use selection Uct, Greedy, Ucb1Tuned, Formula or FormulaFile",
                ));
            }
            if self.es.is_some() {
                return Err(SettingsError::new(
                    "unvisited",
                    "Ranked does not combine with es: the ES starts once every root child was tried",
                ));
            }
            let q_ok = match urgency.q {
                UnvisitedQ::ParentQ => true,
                UnvisitedQ::Constant(q) => q.is_finite(),
            };
            if !q_ok || !urgency.n.is_finite() || urgency.n < 0.0 {
                return Err(SettingsError::new(
                    "unvisited",
                    format!(
                        "Ranked needs a finite q and a finite n >= 0, got q {:?} and n {}",
                        urgency.q, urgency.n
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The in-search ES: a formula to start from, a possible (mu, lambda), budgets, options
    /// that fit together and a grammar that reads.
    fn check_es(&self) -> Result<(), SettingsError> {
        if let Some(es) = &self.es {
            if !self.selection.is_formula() {
                return Err(SettingsError::new(
                    "es",
                    "evolution needs a formula to start from: use selection Uct, Greedy, Ucb1Tuned, Formula or FormulaFile",
                ));
            }
            if es.mu == 0 {
                return Err(SettingsError::new("es.mu", "must be at least 1"));
            }
            if es.lambda < es.mu {
                return Err(SettingsError::new(
                    "es.lambda",
                    format!(
                        "a (mu, lambda)-ES needs lambda >= mu, got lambda {} and mu {}",
                        es.lambda, es.mu
                    ),
                ));
            }
            if es.generations == 0 {
                return Err(SettingsError::new("es.generations", "must be at least 1"));
            }
            if es.sims_per_fitness == 0 {
                return Err(SettingsError::new(
                    "es.sims_per_fitness",
                    "must be at least 1",
                ));
            }
            if let Some(start) = es.start_after {
                if start >= self.sims {
                    return Err(SettingsError::new(
                        "es.start_after",
                        format!(
                            "must be below the simulation budget ({}), got {start}",
                            self.sims
                        ),
                    ));
                }
            }
            if es.fitness == EsFitness::Recommendation && es.mode != EsMode::Integrated {
                return Err(SettingsError::new(
                    "es.fitness",
                    "Recommendation needs mode Integrated: a Partial candidate leaves no statistics to recommend from",
                ));
            }
            if es.semantic && !es.common_random_numbers {
                return Err(SettingsError::new(
                    "es.semantic",
                    "needs common_random_numbers: true (semantics are compared on the same draws)",
                ));
            }
            if es.grammar.trim().is_empty() {
                return Err(SettingsError::new(
                    "es.grammar",
                    "needs `paper`, `ucb1_tuned` or a grammar file path",
                ));
            }
            // A grammar given inline (or a file's content put in place when the spec was read)
            // is checked here, with the spec, so the error names the spec file rather than
            // appearing when the controller is built.
            if evomcts_formula::Grammar::is_inline(&es.grammar) {
                evomcts_formula::Grammar::named(&es.grammar)
                    .map_err(|e| SettingsError::new("es.grammar", e.to_string()))?;
            }
        }
        Ok(())
    }
}
