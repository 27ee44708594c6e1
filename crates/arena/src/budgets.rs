//! Budgets where the formula is asked (`evomcts budgets`): how often an MCTS controller's tree
//! policy decides anything, per simulation budget, on the decisions of a game's random games.
//!
//! Under the default `unvisited: TriedFirst`, a decision node tries each of its moves once, in
//! a random order, before it asks its tree policy; a decision with at least as many legal moves
//! as simulations never asks it at the root, and its search is flat Monte Carlo, one rollout a
//! move, whatever the formula. Two formulas can then differ only in what they do below the root,
//! where the budget is smaller still, and a comparison between them measures next to nothing.
//! This module measures it instead of assuming it: for each budget it searches every decision of
//! a seeded series of random games with the controller at that budget and counts, from the
//! search's own [`DecisionStats`](evomcts_search::mcts::DecisionStats):
//!
//! - **consulted**: the share of decisions whose root asked the policy at least once, with a
//!   95% Wilson interval over decisions (decisions of one game are not independent, so the
//!   interval is narrower than an interval over games would be; it is a description of the
//!   sample, not a test);
//! - **spare simulations**: the mean number of simulations whose root child the policy picked
//!   (under `TriedFirst`: the budget minus the legal moves, where positive);
//! - **policy share**: the mean share of a decision's simulations in which the policy chose
//!   among two or more children at some node of the tree (each choice counted, so a deep
//!   simulation can count several times; the share can exceed 1).
//!
//! - **agreement** (when another controller is named, e.g. UCT beside a champion): the share of
//!   decisions at which both controllers, searching with the same seed, choose the same move.
//!   Where the formula is never asked, both searches are the same flat Monte Carlo, draw for
//!   draw, and agree; two formulas that agree nearly everywhere play nearly the same games, and
//!   a "tie" between them says nothing about either.
//!
//! A budget is a number of simulations, or a multiple of the game's mean branching factor
//! (`2b`: twice the mean number of legal moves of the sampled decisions, rounded, at least 1).
//! Forced moves (one legal move) are searched by nobody and left out. The random games come
//! from one RNG seeded by the seed; each decision's controllers are new, seeded from the seed,
//! the budget's index and the decision's, so one decision's search never changes another's;
//! the result does not depend on anything else.

use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::{GameChoice, GameTask};
use evomcts_games::carcassonne::Rules;
use evomcts_games::{Game, GameRng};
use evomcts_records::runfs::derive_seed;
use evomcts_records::stats::wilson_interval;
use evomcts_search::mcts::{MctsController, MctsSettings};

/// A simulation budget: a number, or a multiple of the game's mean branching factor.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Budget {
    Sims(u32),
    /// `k` times the mean number of legal moves of the sampled decisions.
    Branching(f64),
}

/// The most simulations a budget may come to.
pub const MAX_BUDGET_SIMS: u32 = 1_000_000;

impl Budget {
    /// Reads `100` or `2b` / `0.5b`.
    pub fn parse(text: &str) -> Result<Budget, String> {
        let text = text.trim();
        let bad = || {
            format!("expected a budget as a number of simulations (100) or a multiple of the mean branching factor (2b, 0.5b), got {text:?}")
        };
        if let Some(multiple) = text.strip_suffix('b') {
            let k: f64 = multiple.parse().map_err(|_| bad())?;
            if !(k.is_finite() && k > 0.0 && k <= 1e4) {
                return Err(format!(
                    "{text:?}: the multiple of the branching factor must be in (0, 10000]"
                ));
            }
            return Ok(Budget::Branching(k));
        }
        let sims: u32 = text.parse().map_err(|_| bad())?;
        if sims == 0 || sims > MAX_BUDGET_SIMS {
            return Err(format!(
                "{text:?}: a budget is between 1 and {MAX_BUDGET_SIMS} simulations"
            ));
        }
        Ok(Budget::Sims(sims))
    }

    /// The simulations at mean branching factor `branching`.
    pub fn sims(self, branching: f64) -> u32 {
        match self {
            Budget::Sims(sims) => sims,
            Budget::Branching(k) => ((k * branching).round() as u32).clamp(1, MAX_BUDGET_SIMS),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Sims(sims) => write!(f, "{sims}"),
            Budget::Branching(k) => write!(f, "{k}b"),
        }
    }
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct BudgetSpec {
    /// Random games whose decisions are searched.
    pub games: usize,
    pub seed: u64,
    /// The controller; its `sims` is replaced by each budget's.
    pub settings: MctsSettings,
    /// Another controller whose moves the controller's are compared with (its `sims` replaced
    /// by each budget's too).
    pub against: Option<MctsSettings>,
    pub budgets: Vec<Budget>,
}

/// One budget's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BudgetRow {
    pub budget: Budget,
    pub sims: u32,
    /// Decisions searched (forced moves left out).
    pub decisions: usize,
    /// Decisions whose root asked the tree policy at least once.
    pub consulted: usize,
    pub consulted_share: f64,
    pub consulted_low: f64,
    pub consulted_high: f64,
    /// Mean simulations whose root child the policy picked.
    pub spare_sims: f64,
    /// Mean policy choices (anywhere in the tree) per simulation.
    pub policy_share: f64,
    /// With `against`: decisions at which both chose the same move, the share and its 95%
    /// Wilson interval.
    pub agreement: Option<Agreement>,
}

/// How often two controllers chose the same move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Agreement {
    pub same: usize,
    pub share: f64,
    pub low: f64,
    pub high: f64,
}

/// The profile of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BudgetProfile {
    pub games: usize,
    /// Decisions with two or more legal moves.
    pub decisions: usize,
    /// Decisions with one legal move, left out.
    pub forced: usize,
    /// Mean legal moves of the decisions (forced moves left out): the branching factor.
    pub branching: f64,
    pub rows: Vec<BudgetRow>,
}

/// The profile of `game` (Carcassonne under its default rules).
pub fn budget_profile(game: &GameChoice, spec: &BudgetSpec) -> Result<BudgetProfile, String> {
    budget_profile_with_rules(game, Rules::default(), spec)
}

/// The profile of `game`, Carcassonne under `rules`.
pub fn budget_profile_with_rules(
    game: &GameChoice,
    rules: Rules,
    spec: &BudgetSpec,
) -> Result<BudgetProfile, String> {
    game.dispatch_with_rules(rules, Profile(spec))?
}

struct Profile<'a>(&'a BudgetSpec);

impl GameTask for Profile<'_> {
    type Output = Result<BudgetProfile, String>;
    fn run<G: Game>(self, start: G) -> Self::Output {
        let spec = self.0;
        let (decisions, forced) = random_decisions(&start, spec.games, spec.seed);
        if decisions.is_empty() {
            return Err(format!(
                "{} random games reached no decision with two or more legal moves",
                spec.games
            ));
        }
        let mut moves = Vec::new();
        let total: usize = decisions
            .iter()
            .map(|state| {
                state.legal_moves(&mut moves);
                moves.len()
            })
            .sum();
        let branching = total as f64 / decisions.len() as f64;
        let rows = spec
            .budgets
            .iter()
            .enumerate()
            .map(|(i, &budget)| {
                let sims = budget.sims(branching);
                let at_budget = |settings: &MctsSettings| MctsSettings {
                    sims,
                    ..settings.clone()
                };
                let against = spec.against.as_ref().map(at_budget);
                let seed = derive_seed(spec.seed, &[i as u64]);
                measure(
                    budget,
                    &at_budget(&spec.settings),
                    against.as_ref(),
                    &decisions,
                    seed,
                )
            })
            .collect::<Result<_, _>>()?;
        Ok(BudgetProfile {
            games: spec.games,
            decisions: decisions.len(),
            forced,
            branching,
            rows,
        })
    }
}

/// Every decision of `games` random games from `start` (one RNG seeded by `seed`), those with
/// two or more legal moves, and the count of the others.
fn random_decisions<G: Game>(start: &G, games: usize, seed: u64) -> (Vec<G>, usize) {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut decisions = Vec::new();
    let mut forced = 0;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = start.clone();
        state.play_out_randomly_observed(&mut rng, |state, _| {
            state.legal_moves(&mut moves);
            if moves.len() > 1 {
                decisions.push(state.clone());
            } else {
                forced += 1;
            }
        });
    }
    (decisions, forced)
}

/// One budget's searches of every decision, each by a controller new to it seeded from `seed`
/// and the decision's index (and by `against`'s, with the same seed).
fn measure<G: Game>(
    budget: Budget,
    settings: &MctsSettings,
    against: Option<&MctsSettings>,
    decisions: &[G],
    seed: u64,
) -> Result<BudgetRow, String> {
    let (mut consulted, mut spare, mut share, mut same) = (0usize, 0u64, 0.0, 0usize);
    for (k, state) in decisions.iter().enumerate() {
        let seed = derive_seed(seed, &[k as u64]);
        let mut controller = MctsController::<G>::new(settings, seed).map_err(|e| e.to_string())?;
        let chosen = controller
            .try_choose_move(state)
            .map_err(|e| e.to_string())?;
        let stats = controller.last_decision();
        consulted += usize::from(stats.root_policy_choices > 0);
        spare += stats.root_policy_choices;
        share += stats.policy_choices as f64 / settings.sims as f64;
        if let Some(other) = against {
            let mut other = MctsController::<G>::new(other, seed)
                .map_err(|e| format!("the controller compared with: {e}"))?;
            let theirs = other
                .try_choose_move(state)
                .map_err(|e| format!("the controller compared with: {e}"))?;
            same += usize::from(chosen == theirs);
        }
    }
    let n = decisions.len() as f64;
    let (low, high) = wilson_interval(consulted as f64, n);
    let agreement = against.map(|_| {
        let (low, high) = wilson_interval(same as f64, n);
        Agreement {
            same,
            share: same as f64 / n,
            low,
            high,
        }
    });
    Ok(BudgetRow {
        budget,
        sims: settings.sims,
        decisions: decisions.len(),
        consulted,
        consulted_share: consulted as f64 / n,
        consulted_low: low,
        consulted_high: high,
        spare_sims: spare as f64 / n,
        policy_share: share / n,
        agreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(budgets: &[&str], against: Option<MctsSettings>) -> BudgetSpec {
        BudgetSpec {
            games: 20,
            seed: 3,
            settings: MctsSettings::default(),
            against,
            budgets: budgets.iter().map(|b| Budget::parse(b).unwrap()).collect(),
        }
    }

    fn profile(game: GameChoice, budgets: &[&str]) -> BudgetProfile {
        budget_profile(&game, &spec(budgets, None)).unwrap()
    }

    /// Where the root never asks its policy (a budget of 2), greedy and UCT search the same
    /// flat Monte Carlo draw for draw and agree at every decision; with spare simulations
    /// they part; a controller compared with itself agrees everywhere.
    #[test]
    fn controllers_agree_exactly_where_the_formula_is_not_asked() {
        use evomcts_search::mcts::Selection;
        let greedy = MctsSettings {
            selection: Selection::Greedy,
            ..MctsSettings::default()
        };
        let p = budget_profile(
            &GameChoice::ConnectFour,
            &BudgetSpec {
                settings: greedy,
                ..spec(&["2", "100"], Some(MctsSettings::default()))
            },
        )
        .unwrap();
        let [flat, searched] = &p.rows[..] else {
            panic!("{p:?}")
        };
        assert_eq!(flat.agreement.unwrap().same, p.decisions, "{flat:?}");
        let parted = searched.agreement.unwrap();
        assert!(parted.same < p.decisions && parted.same > 0, "{searched:?}");
        let itself = budget_profile(
            &GameChoice::ConnectFour,
            &spec(&["100"], Some(MctsSettings::default())),
        )
        .unwrap();
        assert_eq!(itself.rows[0].agreement.unwrap().same, itself.decisions);
        assert!(p.rows[0].agreement.unwrap().low < 1.0);
    }

    /// A decision searched has two legal moves or more, so a budget of 2 never asks the policy
    /// at the root; Connect Four offers at most 7 moves, so 8 and 50 ask it at every decision, the budget minus the legal moves times, so the spare
    /// simulations are the budget minus the branching factor.
    #[test]
    fn the_root_is_asked_only_above_its_legal_moves() {
        let p = profile(GameChoice::ConnectFour, &["2", "8", "50", "2b"]);
        assert!(
            p.decisions > 200 && p.branching > 5.0 && p.branching <= 7.0,
            "{p:?}"
        );
        let [two, eight, fifty, twice] = &p.rows[..] else {
            panic!("{p:?}")
        };
        assert_eq!((two.consulted, two.spare_sims), (0, 0.0));
        assert_eq!(eight.consulted, p.decisions);
        for (row, sims) in [(eight, 8.0), (fifty, 50.0)] {
            assert_eq!(row.consulted, p.decisions);
            assert!(
                (row.spare_sims - (sims - p.branching)).abs() < 1e-9,
                "{row:?}"
            );
        }
        assert_eq!(twice.sims, (2.0 * p.branching).round() as u32);
        assert!(fifty.policy_share > eight.policy_share);
        assert!(
            two.consulted_low < 1e-12 && two.consulted_high > 0.0,
            "{two:?}"
        );
    }

    #[test]
    fn budgets_read_as_numbers_or_multiples_of_the_branching_factor() {
        assert_eq!(Budget::parse("100"), Ok(Budget::Sims(100)));
        assert_eq!(Budget::parse("0.5b"), Ok(Budget::Branching(0.5)));
        assert_eq!(Budget::Branching(0.5).sims(7.0), 4);
        assert_eq!(Budget::Branching(0.01).sims(7.0), 1);
        for bad in ["0", "-3", "b", "xb", "0b", "2000000", "1e9b"] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
    }
}
