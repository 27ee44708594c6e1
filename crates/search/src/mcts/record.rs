//! What an ES controller records at every decision, for the league to store with the
//! game: each generation's candidates and fitnesses, the formula chosen and the cost.
//! Formulas are kept as text (printed and canonical) so records stay readable in JSON or
//! RON and can be counted by canonical form, as the main paper's Table XI does.

use serde::{Deserialize, Serialize};

use super::settings::EsMode;
use evomcts_formula::Formula;

/// One candidate formula and its fitness (mean reward of its simulations, from the
/// deciding player's view, in the controller's reward unit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsCandidateRecord {
    pub formula: String,
    pub canonical: String,
    pub fitness: f64,
}

impl EsCandidateRecord {
    pub(crate) fn new(formula: &Formula, fitness: f64) -> Self {
        EsCandidateRecord {
            formula: formula.to_string(),
            canonical: formula.canonical().to_string(),
            fitness,
        }
    }
}

/// The offspring of one generation, in birth order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsGenerationRecord {
    /// 1-based.
    pub generation: usize,
    pub candidates: Vec<EsCandidateRecord>,
}

/// The acceptance test of a decision (`acceptance: true`): the evolved formula and the
/// seed scored again on one fresh common stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsAcceptanceRecord {
    /// The formula the evolution produced, with its fitness in the evolution.
    pub evolved: EsCandidateRecord,
    pub evolved_rescored: f64,
    pub seed_rescored: f64,
    /// The lead the evolved formula needed.
    pub margin: f64,
    /// Whether it selected for the rest of the decision (otherwise the seed did).
    pub accepted: bool,
}

/// One decision of an ES-MCTS or ES-p-MCTS controller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsDecisionRecord {
    /// Turns played before this decision (`Game::turns_played`).
    pub turn: usize,
    /// The deciding player, 0 or 1.
    pub player: u8,
    pub mode: EsMode,
    pub generations: Vec<EsGenerationRecord>,
    /// The initial parents when they are scored (`initial: Seed` or a plus strategy).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub initial: Vec<EsCandidateRecord>,
    /// The formula that selected for the rest of the decision: the best of the last
    /// generation (or the best ever, per `result`), or the seed when the acceptance test
    /// rejected it; `None` when the ES did not run (see `skipped`).
    pub chosen: Option<EsCandidateRecord>,
    /// Simulations spent scoring candidates (not part of the MCTS budget).
    pub es_simulations: u64,
    /// MCTS simulations of the decision (the budget, or 0 for a forced move).
    pub mcts_simulations: u64,
    /// Why the ES did not run: a single legal move, or a root with more children than
    /// the budget could expand.
    pub skipped: Option<String>,
    /// The acceptance test, when the settings ask for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceptance: Option<EsAcceptanceRecord>,
}
