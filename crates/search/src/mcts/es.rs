//! The ES step of ES-MCTS and ES-p-MCTS: once the root is fully expanded, an evolution
//! strategy (by default the paper's (1, 4) over 20 generations) evolves the selection
//! formula from the controller's seed (UCT), scoring each candidate with a few
//! simulations (10). The chosen formula then selects for the rest of the decision.
//!
//! Candidates are scored on the real tree's statistics but never change them (unless
//! `write_back`): `Integrated` (ES-MCTS) backpropagates into an overlay that is rolled
//! back after each candidate, so every candidate starts from the same tree; `Partial`
//! (ES-p-MCTS) descends and rolls out without writing anything.
//!
//! The options of [`EsSettings`] change the step as follows:
//! - `strategy`, `initial`, `result`, `semantic` go to the evolution strategy
//!   ([`EvolutionStrategy::run`]); `initial: Seed` scores the seed.
//! - `common_random_numbers`: one stream is drawn per decision and every candidate's
//!   simulations run on a fresh copy of it (the controller's own stream is set aside
//!   meanwhile), so all candidates see the same chance draws and rollout numbers for as
//!   long as their paths agree.
//! - `acceptance`: the seed and the evolved formula are scored again on a fresh common
//!   stream; the evolved formula is used only if it leads by the margin of
//!   [`accepts`], otherwise the seed keeps selecting.
//! - `fitness` and `write_back` are applied by `Core::evaluate_candidate`.

use rand::{Rng, SeedableRng};

use super::record::{EsAcceptanceRecord, EsCandidateRecord, EsDecisionRecord, EsGenerationRecord};
use super::search::{Core, Scoring};
use super::selection::Policy;
use super::settings::{EsFitness, EsResult, EsSettings, EsStrategy, FinalMove, SettingsError};
use evomcts_formula::{
    CompiledFormula, EvolutionResult, EvolutionStrategy, Formula, Grammar, InitialPopulation,
    Origin, Scored, StrategyOptions,
};
use evomcts_games::{Game, GameRng};

pub(crate) struct EsStep {
    strategy: EvolutionStrategy,
    options: StrategyOptions,
    grammar: Grammar,
    seed: Formula,
    settings: EsSettings,
    /// Mutation's own stream, so the simulations' stream does not depend on how many
    /// random numbers a mutation happens to draw.
    rng: GameRng,
}

/// What one ES step produced.
pub(crate) struct EsOutcome {
    /// The formula for the rest of the decision.
    pub winner: Formula,
    /// The winner is the seed, kept by the acceptance test.
    pub seed_kept: bool,
    pub record: EsDecisionRecord,
}

/// One-sided normal quantile of the acceptance margin (5%).
const ACCEPTANCE_Z: f64 = 1.645;

impl EsStep {
    pub(crate) fn new(
        settings: &EsSettings,
        seed: Formula,
        rng: GameRng,
    ) -> Result<EsStep, SettingsError> {
        let grammar = load_grammar(&settings.grammar)?;
        let strategy = EvolutionStrategy {
            mu: settings.mu,
            lambda: settings.lambda,
            generations: settings.generations,
            plus: settings.strategy == EsStrategy::Plus,
            initial: settings.initial,
            record_history: true,
        };
        strategy
            .validate()
            .map_err(|err| SettingsError::new("es", err.to_string()))?;
        let options = StrategyOptions {
            score_initial: settings.initial == InitialPopulation::Seed,
            semantic: settings.semantic,
        };
        Ok(EsStep {
            strategy,
            options,
            grammar,
            seed,
            settings: settings.clone(),
            rng,
        })
    }

    pub(crate) fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// MCTS simulations after which the ES may start (it also waits for a fully
    /// expanded root).
    pub(crate) fn start_after(&self) -> u64 {
        self.settings.start_after.unwrap_or(0) as u64
    }

    /// A record for a decision where the ES did not run.
    pub(crate) fn skipped(
        &self,
        turn: usize,
        player: u8,
        sims: u64,
        why: &str,
    ) -> EsDecisionRecord {
        EsDecisionRecord {
            turn,
            player,
            mode: self.settings.mode,
            generations: Vec::new(),
            initial: Vec::new(),
            chosen: None,
            es_simulations: 0,
            mcts_simulations: sims,
            skipped: Some(why.to_string()),
            acceptance: None,
        }
    }

    /// Runs the evolution on the current tree of `core`. `mcts_simulations` is filled in
    /// by the caller once the decision is over.
    pub(crate) fn run<G: Game>(
        &mut self,
        core: &mut Core<G>,
        final_move: FinalMove,
        turn: usize,
        player: u8,
    ) -> EsOutcome {
        let settings = &self.settings;
        let scoring = Scoring {
            mode: settings.mode,
            sims: settings.sims_per_fitness,
            fitness: settings.fitness,
            final_move,
            write_back: settings.write_back,
        };
        // Drawn only when used, so the default settings keep their random streams.
        let common = settings
            .common_random_numbers
            .then(|| self.rng.gen::<u64>());
        let keep_semantics = settings.semantic;
        let mut es_simulations = 0u64;
        let mut rewards = Vec::with_capacity(scoring.sims as usize);
        let result = self.strategy.run(
            self.options,
            &self.seed,
            &self.grammar,
            &mut self.rng,
            |formula| match CompiledFormula::new(formula) {
                Ok(compiled) => {
                    es_simulations += scoring.sims as u64;
                    let policy = Policy::Formula(compiled);
                    let fitness = score(core, &policy, scoring, common, &mut rewards);
                    Scored {
                        fitness,
                        semantics: if keep_semantics {
                            rewards.clone()
                        } else {
                            Vec::new()
                        },
                    }
                }
                // Grammars cap depth well within the evaluator's stack, so this only
                // guards a hand-written seed: such a candidate never wins.
                Err(_) => Scored {
                    fitness: f64::NEG_INFINITY,
                    semantics: Vec::new(),
                },
            },
        );
        let (generations, initial) = self.generation_records(&result);
        let evolved = match self.settings.result {
            EsResult::LastGeneration => result.best,
            EsResult::BestEver => result.best_ever.unwrap_or(result.best),
        };
        let evolved_record = EsCandidateRecord::new(
            &evolved.formula,
            evolved.fitness.unwrap_or(f64::NEG_INFINITY),
        );

        let acceptance = self.settings.acceptance.then(|| {
            self.acceptance_test(
                core,
                scoring,
                &evolved.formula,
                &evolved_record,
                &mut rewards,
            )
        });
        if acceptance.is_some() {
            es_simulations += 2 * scoring.sims as u64;
        }
        let seed_kept = acceptance.as_ref().is_some_and(|a| !a.accepted);
        let (winner, chosen) = if seed_kept {
            let fitness = acceptance.as_ref().map_or(f64::NAN, |a| a.seed_rescored);
            (
                self.seed.clone(),
                EsCandidateRecord::new(&self.seed, fitness),
            )
        } else {
            (evolved.formula, evolved_record)
        };
        let record = EsDecisionRecord {
            turn,
            player,
            mode: self.settings.mode,
            generations,
            initial,
            chosen: Some(chosen),
            es_simulations,
            mcts_simulations: 0,
            skipped: None,
            acceptance,
        };
        EsOutcome {
            winner,
            seed_kept,
            record,
        }
    }

    /// The ES's generations as records (each offspring with its fitness) and the scored
    /// initial population.
    fn generation_records(
        &self,
        result: &EvolutionResult,
    ) -> (Vec<EsGenerationRecord>, Vec<EsCandidateRecord>) {
        let history = result.history.as_ref().expect("history is recorded");
        let generations = (1..=self.strategy.generations)
            .map(|generation| EsGenerationRecord {
                generation,
                candidates: history
                    .generation(generation)
                    .filter(|r| r.origin == Origin::Offspring)
                    .map(|r| {
                        EsCandidateRecord::new(&r.formula, r.fitness.unwrap_or(f64::NEG_INFINITY))
                    })
                    .collect(),
            })
            .collect();
        let initial = history
            .generation(0)
            .filter(|r| r.origin == Origin::Initial && r.fitness.is_some())
            .map(|r| EsCandidateRecord::new(&r.formula, r.fitness.unwrap_or(f64::NEG_INFINITY)))
            .collect();
        (generations, initial)
    }

    /// The evolved formula and the seed scored again on one fresh common stream; the evolved
    /// one is accepted only if it beats the seed by the margin.
    fn acceptance_test<G: Game>(
        &mut self,
        core: &mut Core<G>,
        scoring: Scoring,
        evolved: &Formula,
        evolved_record: &EsCandidateRecord,
        rewards: &mut Vec<f64>,
    ) -> EsAcceptanceRecord {
        let stream = self.rng.gen::<u64>();
        let mut seed_rewards = Vec::with_capacity(scoring.sims as usize);
        let seed_policy = Policy::Formula(
            CompiledFormula::new(&self.seed).expect("the seed compiled when it was set"),
        );
        let seed_fitness = score(core, &seed_policy, scoring, Some(stream), &mut seed_rewards);
        let winner_fitness = match CompiledFormula::new(evolved) {
            Ok(compiled) => score(
                core,
                &Policy::Formula(compiled),
                scoring,
                Some(stream),
                rewards,
            ),
            Err(_) => f64::NEG_INFINITY,
        };
        let margin = match self.settings.fitness {
            EsFitness::MeanReward => paired_margin(rewards, &seed_rewards),
            EsFitness::Recommendation => 0.0,
        };
        EsAcceptanceRecord {
            evolved: evolved_record.clone(),
            evolved_rescored: winner_fitness,
            seed_rescored: seed_fitness,
            margin,
            accepted: accepts(winner_fitness, seed_fitness, margin),
        }
    }
}

/// Scores one candidate, on the common stream `common` when given (the controller's own
/// stream is set aside meanwhile). `rewards` receives each simulation's reward.
fn score<G: Game>(
    core: &mut Core<G>,
    policy: &Policy,
    scoring: Scoring,
    common: Option<u64>,
    rewards: &mut Vec<f64>,
) -> f64 {
    rewards.clear();
    let own = common.map(|seed| std::mem::replace(&mut core.rng, GameRng::seed_from_u64(seed)));
    let fitness = core.evaluate_candidate(policy, scoring, |reward, _, _| rewards.push(reward));
    if let Some(own) = own {
        core.rng = own;
    }
    fitness
}

/// `ACCEPTANCE_Z` standard errors of the mean of the paired differences
/// `winner[i] - seed[i]` (0 for fewer than two pairs).
pub(crate) fn paired_margin(winner: &[f64], seed: &[f64]) -> f64 {
    let n = winner.len().min(seed.len());
    if n < 2 {
        return 0.0;
    }
    let diffs = winner.iter().zip(seed).map(|(w, s)| w - s);
    let mean = diffs.clone().sum::<f64>() / n as f64;
    let var = diffs.map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1) as f64;
    ACCEPTANCE_Z * (var / n as f64).sqrt()
}

/// The acceptance rule: the evolved formula must lead the seed by more than `margin`.
pub(crate) fn accepts(winner: f64, seed: f64, margin: f64) -> bool {
    winner - seed > margin
}

/// `paper` and `ucb1_tuned` are built in; anything else is a grammar file.
pub(crate) fn load_grammar(name: &str) -> Result<Grammar, SettingsError> {
    Grammar::named(name).map_err(|err| SettingsError::new("es.grammar", err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_rewards_are_never_accepted() {
        let same = [3.0, -2.0, 7.0];
        assert_eq!(paired_margin(&same, &same), 0.0);
        assert!(!accepts(1.0, 1.0, 0.0));
    }

    #[test]
    fn a_constant_lead_is_accepted_and_a_noisy_one_is_not() {
        let seed = [0.0, 0.0, 0.0, 0.0];
        assert!(accepts(1.0, 0.0, paired_margin(&[1.0; 4], &seed)));
        // Mean lead 0.5 with differences ±10: far below 1.645 standard errors.
        let noisy = [10.5, -9.5, 10.5, -9.5];
        assert!(!accepts(0.5, 0.0, paired_margin(&noisy, &seed)));
    }
}
