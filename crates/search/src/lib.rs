//! Controllers that choose moves by search: MCTS and its variants (evolvable selection, RAVE,
//! Thompson sampling, ES-MCTS, ES-p-MCTS) and the *-minimax family (Star1, Star2, Star2.5).
//! Every controller is generic over the game (`games::Game`), implements
//! `games::Controller`, and sees only the state it is given: it samples the chance outcomes
//! the game exposes (Carcassonne's hidden tiles), never reads the stack.
//!
//! Architecture invariant: search knows no game. It is written against `games::Game` only;
//! games (`game` for Carcassonne, `games::pig`) never import it.
//!
//! `ControllerSpec` is how specs (leagues, evolution runs) name a controller and its settings;
//! `Agent` is what a league plays: a controller that can also hand over what it recorded.

pub mod mcts;
pub mod star;

pub use evomcts_games::RandomController;

use evomcts_games::{Controller, Game};
use mcts::{EsDecisionRecord, MctsController, MctsSettings, RootSummary};
use serde::{Deserialize, Serialize};
use star::{StarController, StarSettings};

/// A controller as a spec writes it in RON: `Random`, `Mcts(sims: 400, c_e: 1.0)`,
/// `Star(depth: 2, probing: 1)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ControllerSpec {
    /// Uniform placement, then a uniform meeple option.
    Random,
    Mcts(MctsSettings),
    /// Star1 (`probing: 0`), Star2 (`probing: 1`) or Star2.5 (`probing: f`).
    Star(StarSettings),
}

/// What a controller's search found at its last decision, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SearchSummary<M> {
    /// The root of an MCTS decision: simulations and the most visited root children.
    Mcts(RootSummary<M>),
    /// A *-minimax decision: the searched value of the chosen move, from the deciding
    /// player's view in the evaluation's unit (`None` if it was not finite), and the nodes
    /// visited.
    Star { value: Option<f64>, nodes: u64 },
}

impl<M> SearchSummary<M> {
    /// The same summary with every move written by `f` (a move's notation, its serialised
    /// form).
    pub fn map_moves<N>(&self, mut f: impl FnMut(&M) -> N) -> SearchSummary<N> {
        match self {
            SearchSummary::Mcts(root) => SearchSummary::Mcts(mcts::RootSummary {
                simulations: root.simulations,
                es_simulations: root.es_simulations,
                legal_moves: root.legal_moves,
                children: (root.children.iter())
                    .map(|c| mcts::ChildStats {
                        mv: f(&c.mv),
                        visits: c.visits,
                        q: c.q,
                        heuristic: c.heuristic,
                        prior: c.prior,
                        features: c.features,
                    })
                    .collect(),
            }),
            SearchSummary::Star { value, nodes } => SearchSummary::Star {
                value: *value,
                nodes: *nodes,
            },
        }
    }
}

/// A controller a league can play, which also hands over its per-decision records.
pub trait Agent<G: Game>: Controller<G> + Send {
    /// The ES decisions recorded since the last call (empty for controllers without ES).
    fn take_decision_records(&mut self) -> Vec<EsDecisionRecord> {
        Vec::new()
    }

    /// What the last decision's search found, keeping the `top` most visited root children
    /// of an MCTS decision; `None` for controllers that do not search or before the first
    /// decision. Computed only when called.
    fn search_summary(&self, top: usize) -> Option<SearchSummary<G::Move>> {
        let _ = top;
        None
    }
}

impl<G: Game> Agent<G> for RandomController {}

impl<G: Game> Agent<G> for StarController<G> {
    fn search_summary(&self, _top: usize) -> Option<SearchSummary<G::Move>> {
        self.last_search().map(|found| SearchSummary::Star {
            value: Some(found.value).filter(|v| v.is_finite()),
            nodes: found.nodes,
        })
    }
}

impl<G: Game> Agent<G> for MctsController<G> {
    fn take_decision_records(&mut self) -> Vec<EsDecisionRecord> {
        MctsController::take_decision_records(self)
    }

    fn search_summary(&self, top: usize) -> Option<SearchSummary<G::Move>> {
        self.root_summary(top).map(SearchSummary::Mcts)
    }
}

/// Why a spec cannot be turned into a controller; the message names the setting.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct ControllerSpecError(pub String);

impl ControllerSpec {
    /// Checks the settings without building anything.
    pub fn validate(&self) -> Result<(), ControllerSpecError> {
        match self {
            ControllerSpec::Random => Ok(()),
            ControllerSpec::Mcts(s) => s.validate().map_err(|e| ControllerSpecError(e.to_string())),
            ControllerSpec::Star(s) => s.validate().map_err(|e| ControllerSpecError(e.to_string())),
        }
    }

    /// `validate`, and also that game `G` offers what the settings ask of it (a Star
    /// evaluation).
    pub fn validate_for<G: Game>(&self) -> Result<(), ControllerSpecError> {
        match self {
            ControllerSpec::Star(s) => s
                .validate_for::<G>()
                .map_err(|e| ControllerSpecError(e.to_string())),
            // Building checks what only the game can say (which move features it gives).
            ControllerSpec::Mcts(s) => MctsController::<G>::new(s, 0)
                .map(drop)
                .map_err(|e| ControllerSpecError(e.to_string())),
            ControllerSpec::Random => self.validate(),
        }
    }

    /// A fresh controller of game `G` whose random choices all come from `seed`.
    pub fn build<G: Game>(&self, seed: u64) -> Result<Box<dyn Agent<G>>, ControllerSpecError> {
        Ok(match self {
            ControllerSpec::Random => Box::new(RandomController::new(seed)),
            ControllerSpec::Mcts(s) => Box::new(
                MctsController::new(s, seed).map_err(|e| ControllerSpecError(e.to_string()))?,
            ),
            ControllerSpec::Star(s) => Box::new(
                StarController::<G>::new(s, seed)
                    .map_err(|e| ControllerSpecError(e.to_string()))?,
            ),
        })
    }

    /// Fills what an MCTS spec left to the game (reward, final move) with the defaults of a
    /// game played for `objective` ([`MctsSettings::fill_defaults`]); other controllers have
    /// nothing to fill.
    pub fn fill_defaults(&mut self, objective: evomcts_games::Objective) {
        if let ControllerSpec::Mcts(settings) = self {
            settings.fill_defaults(objective);
        }
    }

    /// Whether the controller evolves formulas at its decisions (ES-MCTS, ES-p-MCTS).
    pub fn evolves(&self) -> bool {
        matches!(self, ControllerSpec::Mcts(s) if s.es.is_some())
    }
}
