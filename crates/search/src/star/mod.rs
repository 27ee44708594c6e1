//! *-minimax controllers: Star1, Star2 and Star2.5 (Ballard 1983), the non-MCTS baselines of
//! both Carcassonne papers, for any game behind `games::Game`.
//!
//! The tree alternates decision nodes (the player to move picks a move) and chance nodes (the
//! game's next chance event, each outcome weighted as `Game::chance_outcomes` gives it;
//! Carcassonne weighs each hidden tile kind by its count and never uses the stack's order).
//! Only the root needs to be at a decision.
//!
//! **Depth** counts decision plies: the root decision is ply 1, so depth 1 is a greedy one-move
//! look-ahead, and depth 2 (the main paper's setting) is: root move → chance event (the
//! opponent's tile) → opponent's reply → evaluation. A move that ends the game ends the line
//! early: its state is evaluated as it stands (Carcassonne's virtual scores then equal the final
//! scores). A move after which the next player decides at once, with no chance event between
//! (Pig's hold), leads straight to the decision node of the next ply.
//!
//! **Outcomes that lead to no decision** follow the game's rules (`AfterOutcome`). An outcome
//! after which another chance event comes (`ChanceAgain`: Carcassonne's official rule discards an
//! unplaceable tile and the same player draws again) has another chance node as its child, which
//! is the exact expectimax of the rule. When that child chance node can only lead to the last
//! decision ply, the changed state no longer matters and the outcome is folded into its siblings
//! (weights renormalised over the outcomes that lead to a decision), which gives the same value
//! for less work. An outcome that changes nothing and repeats the event (`Repeat`: Carcassonne's
//! bottom-of-stack rule) is always left out, which renormalises exactly.
//!
//! **Pruning**: Star1 bounds the unseen outcomes of a chance node with L and U; Star2.5 first
//! probes the first `probing` moves (in move order) of each outcome, which bounds its value from
//! one side, and cuts when those bounds already decide the node (Star2 is `probing = 1`, Star1
//! `probing = 0`). Probed moves are not searched again. With L and U true bounds of the
//! evaluation the pruned search returns exactly the expectimax value and move; with narrower
//! bounds (the papers' ±100) it is a heuristic (see tests/it/search_star_narrow.rs).
//!
//! **Move ordering** is the game's (`Game::order_moves`; for Carcassonne Ameneyro et al.'s: a
//! meeple on a city, on a monastery, on a road, no meeple, a meeple on a field).
//!
//! Architecture invariant: this module knows no game; it sees positions through
//! `games::Game` only.

mod expectimax;
mod searcher;

pub use evomcts_games::Evaluation;
pub use expectimax::{expectimax, expectimax_with_leaf_range};
pub use searcher::StarSearcher;

use evomcts_games::{Controller, Game};
use serde::{Deserialize, Serialize};

/// The deepest search `validate` accepts; depth 4 already takes minutes per decision.
pub const MAX_DEPTH: u32 = 6;

/// Settings of a *-minimax controller. L and U are in the units of `evaluation`, which the game
/// must offer (`Game::offers`). In RON, every field may be left out (the default is the main
/// paper's Star2.5):
///
/// ```text
/// (depth: 2, lower: -100.0, upper: 100.0, probing: 4, evaluation: ScoreDifference)
/// (depth: 3, probing: 5)                      // Ameneyro et al.
/// (probing: 0, evaluation: Heyden, lower: -48860.0, upper: 48860.0) // Carcassonne's true bounds
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StarSettings {
    /// Decision plies searched; the root decision is ply 1.
    pub depth: u32,
    /// L: the value assumed for an unseen outcome in the worst case.
    pub lower: f64,
    /// U: the value assumed for an unseen outcome in the best case.
    pub upper: f64,
    /// Moves probed per outcome before the full search: 0 = Star1, 1 = Star2, more = Star2.5.
    pub probing: u32,
    pub evaluation: Evaluation,
}

impl Default for StarSettings {
    /// Star2.5 as in the main paper.
    fn default() -> Self {
        Self::star25()
    }
}

impl StarSettings {
    /// The main paper's Star1: depth 2, L = −100, U = 100, no probing.
    pub fn star1() -> Self {
        StarSettings {
            depth: 2,
            lower: -100.0,
            upper: 100.0,
            probing: 0,
            evaluation: Evaluation::ScoreDifference,
        }
    }

    /// The main paper's Star2: probing factor 1.
    pub fn star2() -> Self {
        StarSettings {
            probing: 1,
            ..Self::star1()
        }
    }

    /// The main paper's Star2.5: probing factor 4.
    pub fn star25() -> Self {
        StarSettings {
            probing: 4,
            ..Self::star1()
        }
    }

    /// Ameneyro et al.'s Star2.5: depth 3, probing factor 5.
    pub fn ameneyro() -> Self {
        StarSettings {
            depth: 3,
            probing: 5,
            ..Self::star1()
        }
    }

    /// The same search with L and U set to true bounds of the evaluation in `game`'s game
    /// (`Game::evaluation_bound`), so pruning never changes the result.
    pub fn with_true_bounds<G: Game>(self, game: &G) -> Self {
        let b = game.evaluation_bound(self.evaluation);
        StarSettings {
            lower: -b,
            upper: b,
            ..self
        }
    }

    /// Checks the settings for a game `G`: [`StarSettings::validate`], and that `G` offers the
    /// evaluation.
    pub fn validate_for<G: Game>(&self) -> Result<(), StarError> {
        self.validate()?;
        if !G::offers(self.evaluation) {
            return Err(StarError::Setting {
                field: "evaluation",
                why: format!(
                    "{:?} is not offered by this game (every game offers ScoreDifference)",
                    self.evaluation
                ),
            });
        }
        Ok(())
    }

    /// Checks the settings that do not depend on the game.
    pub fn validate(&self) -> Result<(), StarError> {
        let bad = |field, why: String| Err(StarError::Setting { field, why });
        if self.depth == 0 || self.depth > MAX_DEPTH {
            return bad("depth", format!("{} is not in 1..={MAX_DEPTH}", self.depth));
        }
        if !self.lower.is_finite() {
            return bad("lower", format!("{} is not a finite number", self.lower));
        }
        if !self.upper.is_finite() {
            return bad("upper", format!("{} is not a finite number", self.upper));
        }
        if self.lower >= self.upper {
            return bad(
                "lower",
                format!(
                    "L = {} must be below U = {} (they bound the evaluation)",
                    self.lower, self.upper
                ),
            );
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StarError {
    #[error("bad star setting `{field}`: {why}")]
    Setting { field: &'static str, why: String },
    #[error("cannot search this position: the game is over")]
    GameOver,
    #[error("cannot search this position: a chance event comes before the next decision")]
    NotAtDecision,
}

impl StarError {
    /// Why `state` cannot be the root of a search, if it cannot.
    fn check_root<G: Game>(state: &G) -> Result<(), StarError> {
        if state.at_decision() {
            Ok(())
        } else if state.is_over() {
            Err(StarError::GameOver)
        } else {
            Err(StarError::NotAtDecision)
        }
    }
}

/// What one search found; `M` is the game's move (`Game::Move`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub best: M,
    /// The root's value from the searching player's view (exact when L and U are true bounds).
    pub value: f64,
    /// Evaluated leaves, chance nodes and decision nodes entered (a decision node that was
    /// only probed counts through its leaves; none is counted twice), plus the root.
    pub nodes: u64,
}

/// A Star1/Star2/Star2.5 player. Deterministic: ties go to the first move in move order.
pub struct StarController<G: Game> {
    searcher: StarSearcher<G>,
    /// What the last decision's search found.
    last: Option<SearchResult<G::Move>>,
}

impl<G: Game> StarController<G> {
    /// `seed` is accepted for a uniform controller interface; the search uses no randomness.
    pub fn new(settings: &StarSettings, seed: u64) -> Result<Self, StarError> {
        let _ = seed;
        Ok(StarController {
            searcher: StarSearcher::new(settings)?,
            last: None,
        })
    }

    pub fn settings(&self) -> &StarSettings {
        self.searcher.settings()
    }

    /// What the last decision's search found (`None` before the first decision).
    pub fn last_search(&self) -> Option<&SearchResult<G::Move>> {
        self.last.as_ref()
    }
}

impl<G: Game> Controller<G> for StarController<G> {
    fn choose_move(&mut self, state: &G) -> G::Move {
        let result = self
            .searcher
            .search(state)
            .expect("controllers are asked only at decisions");
        self.last = Some(result);
        result.best
    }
}

/// One search of `state` (which must be at a decision) with `settings`.
pub fn search<G: Game>(
    state: &G,
    settings: &StarSettings,
) -> Result<SearchResult<G::Move>, StarError> {
    StarSearcher::new(settings)?.search(state)
}
