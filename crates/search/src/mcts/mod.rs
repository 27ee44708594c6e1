//! MCTS controllers: plain MCTS with any selection formula (UCT by default), MCTS-RAVE,
//! Thompson sampling (plain and reshaped), and the main paper's ES-MCTS and ES-p-MCTS,
//! all configured by [`MctsSettings`] and played through [`MctsController`].
//!
//! The tree has explicit chance nodes for tile draws between decision nodes
//! (`search`), lives in an arena of 40-byte nodes without game states (`tree`), and
//! keeps every node's statistics from the view of the player who chose it, so the
//! selection formula is maximised by the player to move at every depth. The ES step
//! (`es`) evolves the formula at each decision without touching the real tree (unless
//! `write_back`, the paper's public code's behaviour), and leaves an
//! [`EsDecisionRecord`] per decision.
//!
//! The controller is generic over the game (`games::Game`) and sees only the state it is
//! given: it samples chance outcomes as the game exposes them (Carcassonne: future tiles
//! from the hidden counts), so it cannot depend on the real order of the stack.
//!
//! Choices worth knowing:
//! - Reward scale. The default reward is the raw final score difference, as in the
//!   main paper, whose C_E values (0.25 to 3, best 2) were tuned with it: Q is then tens
//!   of points against an exploration term of a few units, so search is fairly greedy.
//!   That is kept as the default so the paper's controllers are reproduced;
//!   `Reward::ScaledScoreDiff(s)` divides by `s` for formulas meant for rewards near
//!   [-1, 1], and `Reward::WinLoss` gives +1/0/-1. Formula inputs (`Q`, `V`, `P`) are in
//!   the reward's unit, and so is an ES fitness.
//! - Thompson sampling counts a win, draw or loss from the sign of the final score
//!   difference whatever the reward (a draw is half a success).
//! - Several rollouts per leaf back up their mean as one result (as the second
//!   Carcassonne paper does), so visit counts stay simulation counts.
//! - ES-MCTS scores each candidate on an undo-journal overlay of the real tree, rolled
//!   back after the candidate: its cost is the few dozen nodes the candidate touches.

mod es;
mod rave;
mod record;
mod search;
mod selection;
mod settings;
mod situations;
mod thompson;
mod tree;
mod verify;

use rand::SeedableRng;
use serde::{Deserialize, Serialize};

pub use record::{EsAcceptanceRecord, EsCandidateRecord, EsDecisionRecord, EsGenerationRecord};
pub use settings::{
    EsFitness, EsMode, EsResult, EsSettings, EsStrategy, FinalMove, FirstPlayUrgency,
    InitialPopulation, MctsSettings, Reward, Selection, SettingsError, TieBreak, Unvisited,
    UnvisitedQ, DEFAULT_PRIOR_TEMPERATURE, GREEDY, UCB1_TUNED,
};
pub use tree::MAX_LEGAL_MOVES;
pub use verify::TreeCheck;

use es::EsStep;
use evomcts_formula::{CompileError, CompiledFormula, Formula, Grammar, Terminal};
use evomcts_games::{Controller, Game, GameRng, MoveFeatures};
use search::{Core, KnowledgeSettings, Scoring};
use selection::Policy;
use tree::{Node, ROOT};

/// Why a controller could not decide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the game is over")]
    GameOver,
    #[error("no decision is due: a controller decides only where the player to move must choose (in Carcassonne, with a tile drawn)")]
    NoDecision,
    #[error("no decision has begun: call `begin` with a position first")]
    NotStarted,
    #[error("candidate formula: {0}")]
    Formula(#[from] CompileError),
}

/// Statistics of one root child after a search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChildStats<M> {
    pub mv: M,
    pub visits: u32,
    /// Mean reward from the deciding player's view.
    pub q: f64,
    /// The knowledge terminals `H` and `p`, when the policy reads them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heuristic: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<f64>,
    /// The move features `G`, `O`, `M`, `F`, `R`, `L`, `T`, when the policy reads one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<MoveFeatures>,
}

/// What the root of a finished decision looked like: the simulations spent and the most
/// visited root children.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RootSummary<M> {
    /// MCTS simulations of the decision (0 for a forced move).
    pub simulations: u64,
    /// Simulations the ES spent scoring candidates (not part of `simulations`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub es_simulations: u64,
    /// Root children: one per legal move.
    pub legal_moves: usize,
    /// The most visited root children, most visited first; ties go to the higher mean
    /// reward, then to the earlier child in arena order.
    pub children: Vec<ChildStats<M>>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Figures of the last decision.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DecisionStats {
    pub mcts_simulations: u64,
    pub es_simulations: u64,
    /// Nodes in the arena when the decision was taken.
    pub nodes: usize,
    pub bytes_per_node: usize,
    /// Whether the ES ran in this decision (its record says whether the seed was kept).
    pub es_ran: bool,
    /// MCTS simulations done when the ES started.
    pub es_started_at: Option<u64>,
    /// Moves tried to compute `H`: one per child of every decision node the search
    /// allocated, when the policy reads knowledge (0 otherwise).
    pub knowledge_evaluations: u64,
    /// The decision's MCTS simulations (not the ES's candidates) in which the tree policy
    /// chose among two or more children at some node, counted once per node: under the
    /// default `unvisited: TriedFirst` only at nodes whose every child was tried.
    pub policy_choices: u64,
    /// Of those, the choices at the root: the simulations whose root child the policy picked.
    /// 0 where the budget does not exceed the legal moves (under `TriedFirst`): the formula
    /// then never decides which move is searched.
    pub root_policy_choices: u64,
}

/// Every node's statistics and links, to compare a tree before and after a step.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeSnapshot<M> {
    nodes: Vec<Node<M>>,
}

impl<M: Copy> TreeSnapshot<M> {
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Children allocated to decision nodes: one per legal move of every decision node a
    /// simulation reached.
    pub fn move_children(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.kind == tree::NodeKind::Decision)
            .map(|n| n.child_count as usize)
            .sum()
    }

    /// Sum of all visit counts (a cheap figure for assertions).
    pub fn total_visits(&self) -> u64 {
        self.nodes.iter().map(|n| n.visits as u64).sum()
    }
}

/// One candidate evaluation observed simulation by simulation.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CandidateTrace {
    /// The candidate's fitness: the mean of `rewards`.
    pub fitness: f64,
    /// Reward of each simulation, from the deciding player's view.
    pub rewards: Vec<f64>,
    /// The root child each simulation went through (index among the root's children).
    pub root_children: Vec<usize>,
    /// The root's visit count right after each simulation, as the candidate saw it.
    pub root_visits: Vec<u32>,
}

/// An MCTS player. Deterministic: the same settings, seed and sequence of positions give
/// the same moves.
pub struct MctsController<G: Game> {
    /// As given, with what the spec left to the game filled in from `G`.
    settings: MctsSettings,
    reward: Reward,
    final_move: FinalMove,
    core: Core<G>,
    /// The policy of the settings (the ES seed for ES controllers).
    base_policy: Policy,
    /// The policy selecting now: the base, or the ES winner for the rest of a decision.
    policy: Policy,
    es: Option<EsStep>,
    records: Vec<EsDecisionRecord>,
    last: DecisionStats,
    /// The decision in progress: turn, player, simulations so far.
    turn: usize,
    player: u8,
    sims_done: u64,
    es_sims_done: u64,
    es_ran: bool,
    es_started_at: Option<u64>,
    /// A tree exists (`begin` has run once).
    started: bool,
}

/// The seed of the ES stream, derived from the controller's seed.
const ES_STREAM: u64 = 0x9E37_79B9_7F4A_7C15;

impl<G: Game> MctsController<G> {
    /// Validates the settings, reads the files they name, and seeds every random choice
    /// from `seed`. A reward or final move the settings leave out is `G`'s default
    /// ([`Reward::default_for`]`(G::OBJECTIVE)`).
    pub fn new(settings: &MctsSettings, seed: u64) -> Result<MctsController<G>, SettingsError> {
        settings.validate()?;
        let reward = settings.reward_for(G::OBJECTIVE);
        let final_move = settings.final_move_for(G::OBJECTIVE);
        let (base_policy, seed_formula) = resolve_policy(settings)?;
        let es = match &settings.es {
            Some(es_settings) => {
                let seed_formula = seed_formula
                    .clone()
                    .expect("validate: ES needs a formula policy");
                let step = EsStep::new(
                    es_settings,
                    seed_formula,
                    GameRng::seed_from_u64(seed ^ ES_STREAM),
                )?;
                Some(step)
            }
            None => None,
        };
        // Knowledge costs a trial move per child, so only policies that can read it pay.
        let reads = |terminals: &[Terminal]| {
            terminals.iter().any(|&terminal| {
                seed_formula
                    .as_ref()
                    .is_some_and(|formula| formula.uses(terminal))
                    || es
                        .as_ref()
                        .is_some_and(|es| es.grammar().terminals().contains(&terminal))
            })
        };
        let reads_knowledge = reads(&Terminal::KNOWLEDGE);
        let reads_features = reads(&Terminal::MOVE_FEATURES);
        if reads_features && !G::OFFERS_MOVE_FEATURES {
            let field = if settings.es.is_some() {
                "es.grammar"
            } else {
                "selection"
            };
            let symbols = Terminal::MOVE_FEATURES.map(Terminal::symbol);
            let (last, others) = symbols.split_last().expect("move features exist");
            return Err(SettingsError::new(
                field,
                format!(
                    "reads a move feature ({} or {last}), which this game does not give",
                    others.join(", ")
                ),
            ));
        }
        let knowledge = reads_knowledge.then(|| KnowledgeSettings {
            points_per_unit: reward.points_per_unit(),
            temperature: settings.prior_temperature,
            features: reads_features,
        });
        let mut core = Core::new(
            GameRng::seed_from_u64(seed),
            settings.c_e,
            reward,
            settings.rollouts_per_leaf,
            matches!(settings.selection, Selection::Rave { .. }),
            settings.unvisited,
            knowledge,
        );
        core.tree.set_tie_break(settings.tie_break);
        if matches!(base_policy, Policy::TwoSigmaUct) {
            core.tree.track_spread();
        }
        let mut settings = settings.clone();
        settings.fill_defaults(G::OBJECTIVE);
        Ok(MctsController {
            settings,
            reward,
            final_move,
            core,
            policy: base_policy.clone(),
            base_policy,
            es,
            records: Vec::new(),
            last: DecisionStats::default(),
            turn: 0,
            player: 0,
            sims_done: 0,
            es_sims_done: 0,
            es_ran: false,
            es_started_at: None,
            started: false,
        })
    }

    pub fn settings(&self) -> &MctsSettings {
        &self.settings
    }

    /// The ES grammar, for ES controllers.
    pub fn grammar(&self) -> Option<&Grammar> {
        self.es.as_ref().map(EsStep::grammar)
    }

    /// Searches `state` with the full budget (and the ES step, for ES controllers) and
    /// returns the chosen move.
    pub fn try_choose_move(&mut self, state: &G) -> Result<G::Move, SearchError> {
        self.begin(state)?;
        let budget = self.settings.sims as u64;
        if self.core.tree.get(ROOT).child_count == 1 {
            // A forced move: nothing to search.
            if let Some(es) = &self.es {
                self.records
                    .push(es.skipped(self.turn, self.player, 0, "single legal move"));
            }
            self.finish_stats();
            return Ok(self.core.tree.get(self.core.tree.get(ROOT).first_child).mv);
        }
        if let Some(es) = &self.es {
            let start = es.start_after();
            while self.sims_done < budget
                && (self.sims_done < start || !self.core.root_fully_expanded())
            {
                self.simulate(1);
            }
            if self.core.root_fully_expanded() {
                let mut record = self.es_step().expect("an ES controller");
                self.simulate(budget - self.sims_done);
                record.mcts_simulations = self.sims_done;
                self.records.push(record);
            } else {
                let es = self.es.as_ref().expect("checked");
                let record = es.skipped(
                    self.turn,
                    self.player,
                    self.sims_done,
                    "the budget ended before the root was fully expanded",
                );
                self.records.push(record);
            }
        } else {
            self.simulate(budget);
        }
        self.finish_stats();
        Ok(self.chosen_move().expect("a decision has begun"))
    }

    /// The ES records of the decisions since the last call, oldest first.
    pub fn take_decision_records(&mut self) -> Vec<EsDecisionRecord> {
        std::mem::take(&mut self.records)
    }

    /// Figures of the last completed decision.
    pub fn last_decision(&self) -> &DecisionStats {
        &self.last
    }

    // ----- step by step, for tests, benchmarks and analysis -----

    /// Starts a decision on `state`: a new tree whose root has its children allocated,
    /// the settings' policy, no simulation yet.
    pub fn begin(&mut self, state: &G) -> Result<(), SearchError> {
        if !state.at_decision() {
            return Err(if state.is_over() {
                SearchError::GameOver
            } else {
                SearchError::NoDecision
            });
        }
        self.core.begin(state);
        self.policy = self.base_policy.clone();
        self.turn = state.turns_played();
        self.player = state.to_move() as u8;
        self.sims_done = 0;
        self.es_sims_done = 0;
        self.es_ran = false;
        self.es_started_at = None;
        self.started = true;
        Ok(())
    }

    fn started(&self) -> Result<(), SearchError> {
        self.started.then_some(()).ok_or(SearchError::NotStarted)
    }

    /// Runs `n` MCTS simulations with the current policy.
    pub fn run_simulations(&mut self, n: u64) -> Result<(), SearchError> {
        self.started()?;
        self.simulate(n);
        Ok(())
    }

    fn simulate(&mut self, n: u64) {
        for _ in 0..n {
            self.core.simulate(&self.policy, true);
        }
        self.sims_done += n;
    }

    /// Whether every root child has been visited (the ES starts then).
    pub fn root_fully_expanded(&self) -> bool {
        self.started && self.core.root_fully_expanded()
    }

    /// Runs the ES step on the current tree and installs the winner as the policy for
    /// the rest of the decision. `Ok(None)` for controllers without ES.
    pub fn run_es_step(&mut self) -> Result<Option<EsDecisionRecord>, SearchError> {
        self.started()?;
        Ok(self.es_step())
    }

    fn es_step(&mut self) -> Option<EsDecisionRecord> {
        let es = self.es.as_mut()?;
        let outcome = es.run(&mut self.core, self.final_move, self.turn, self.player);
        self.policy = if outcome.seed_kept {
            self.base_policy.clone()
        } else {
            Policy::Formula(
                CompiledFormula::new(&outcome.winner)
                    .expect("the winner compiled when it was scored"),
            )
        };
        self.es_sims_done += outcome.record.es_simulations;
        self.es_ran = true;
        self.es_started_at = Some(self.sims_done);
        Some(outcome.record)
    }

    /// Scores `formula` as the ES step would in `mode`, reporting each simulation.
    pub fn evaluate_candidate(
        &mut self,
        formula: &Formula,
        mode: EsMode,
        sims: u32,
    ) -> Result<CandidateTrace, SearchError> {
        self.started()?;
        let policy = Policy::Formula(CompiledFormula::new(formula)?);
        let mut trace = CandidateTrace::default();
        let first_child = self.core.tree.get(ROOT).first_child;
        let scoring = Scoring {
            mode,
            sims,
            fitness: EsFitness::MeanReward,
            final_move: self.final_move,
            write_back: false,
        };
        trace.fitness = self
            .core
            .evaluate_candidate(&policy, scoring, |reward, child, visits| {
                trace.rewards.push(reward);
                trace.root_children.push((child - first_child) as usize);
                trace.root_visits.push(visits);
            });
        Ok(trace)
    }

    /// A copy of the whole tree's statistics.
    pub fn snapshot(&self) -> TreeSnapshot<G::Move> {
        TreeSnapshot {
            nodes: self.core.tree.nodes().to_vec(),
        }
    }

    /// The root children in arena order (a random permutation of the legal moves);
    /// empty before the first decision.
    pub fn root_children(&self) -> Vec<ChildStats<G::Move>> {
        if !self.started {
            return Vec::new();
        }
        let tree = &self.core.tree;
        tree.get(ROOT)
            .children()
            .map(|id| {
                let child = tree.get(id);
                let known = tree.has_knowledge().then(|| *tree.knowledge(id));
                ChildStats {
                    mv: child.mv,
                    visits: child.visits,
                    q: child.q(),
                    heuristic: known.map(|k| k.heuristic),
                    prior: known.map(|k| k.prior),
                    features: tree.has_features().then(|| *tree.features(id)),
                }
            })
            .collect()
    }

    /// The `top` most visited root children of the current tree and the simulations of the
    /// decision so far (`None` before the first decision). Read from the tree
    /// only when asked, so a search that nobody summarises pays nothing for it.
    pub fn root_summary(&self, top: usize) -> Option<RootSummary<G::Move>> {
        if !self.started {
            return None;
        }
        let mut children = self.root_children();
        let legal_moves = children.len();
        // Stable: equal visits and means keep arena order.
        children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.q.total_cmp(&a.q)));
        children.truncate(top);
        Some(RootSummary {
            simulations: self.sims_done,
            es_simulations: self.es_sims_done,
            legal_moves,
            children,
        })
    }

    /// The move the final-move rule picks from the current tree (`None` before the
    /// first decision).
    pub fn chosen_move(&self) -> Option<G::Move> {
        if !self.started {
            return None;
        }
        let child = self.core.best_root_child(
            self.final_move,
            self.policy.final_move_ranks_outcomes_first(),
        );
        Some(self.core.tree.get(child).mv)
    }

    /// The position being searched.
    pub fn root_state(&self) -> &G {
        self.core.root_state()
    }

    fn finish_stats(&mut self) {
        self.last = DecisionStats {
            mcts_simulations: self.sims_done,
            es_simulations: self.es_sims_done,
            nodes: self.core.tree.len(),
            bytes_per_node: self.core.tree.bytes_per_node(),
            es_ran: self.es_ran,
            es_started_at: self.es_started_at,
            knowledge_evaluations: self.core.knowledge_evaluations(),
            policy_choices: self.core.consulted().anywhere,
            root_policy_choices: self.core.consulted().at_root,
        };
    }
}

impl<G: Game> Controller<G> for MctsController<G> {
    fn choose_move(&mut self, state: &G) -> G::Move {
        self.try_choose_move(state)
            .unwrap_or_else(|err| panic!("MCTS asked to move: {err}"))
    }
}

/// The policy of the settings, and the formula it evaluates (the ES seed) if any.
fn resolve_policy(settings: &MctsSettings) -> Result<(Policy, Option<Formula>), SettingsError> {
    let formula = match &settings.selection {
        Selection::Uct => Formula::uct(),
        Selection::Formula(text) => Formula::parse(text)
            .map_err(|err| SettingsError::new("selection", format!("Formula: {err}")))?,
        // Search does no I/O: reading a spec (`runfs`) puts the file's formula in place.
        Selection::FormulaFile(path) => {
            return Err(SettingsError::new(
                "selection",
                format!("FormulaFile {path:?} was not read: a formula file is read when the spec naming it is read"),
            ))
        }
        Selection::HandCodedUct => return Ok((Policy::HandCodedUct, None)),
        Selection::OpenSpielUct => return Ok((Policy::OpenSpielUct, None)),
        Selection::Rave { bias } => return Ok((Policy::Rave { bias: *bias }, None)),
        Selection::Thompson => return Ok((Policy::Thompson { reshaped: false }, None)),
        Selection::ThompsonReshaped => return Ok((Policy::Thompson { reshaped: true }, None)),
        Selection::TwoSigmaUct => return Ok((Policy::TwoSigmaUct, None)),
        Selection::Greedy => Formula::parse(GREEDY).expect("the greedy formula parses"),
        Selection::Ucb1Tuned => Formula::parse(UCB1_TUNED).expect("UCB1-Tuned parses"),
    };
    // The controller's own formula drives every simulation of every decision: worth
    // machine code (bit-identical to the interpreter, several times faster).
    let compiled = CompiledFormula::native(&formula)
        .map_err(|err| SettingsError::new("selection", err.to_string()))?;
    Ok((Policy::Formula(compiled), Some(formula)))
}

#[cfg(test)]
mod tests;
